# cython: language_level=3
"""npgpu.Array: memory on a GPU, or on the host device ("cpu"), with a NumPy dtype, shape and strides;
conversion to and from NumPy, the CUDA Array Interface and DLPack."""
import builtins
import math
import operator
import sys
import types

import numpy as np

from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_STRIDES
from cpython.pycapsule cimport PyCapsule_New, PyCapsule_GetPointer, PyCapsule_IsValid, PyCapsule_SetName
from cpython.ref cimport Py_INCREF, Py_DECREF, PyObject
from libc.stdint cimport int64_t, uint64_t, uintptr_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy

from npgpu._runtime cimport (current_stream_handle, resolve_stream, resolve_device, resolve_array_device,
                             stream_to_cai)
from npgpu.lib cimport runtime as rt
from libcpp.memory cimport unique_ptr
from npgpu.lib.memory cimport (PinnedBuffer, copy_bytes, copy_peer, copy_to_device_staged, copy_to_host_staged,
                               fill_pattern, make_device_buffer)
from npgpu.lib.view cimport ArrayView, DType, itemsize, kHostDevice
from npgpu.lib.elementwise cimport copy as c_copy
from npgpu.lib.creation cimport arange_fill
from npgpu.lib.manipulation cimport copy_batch as c_copy_batch
from libcpp.vector cimport vector
from npgpu.lib.view cimport Scalar

from npgpu._errors cimport raise_py_error
from npgpu import _runtime

# The Array API standard revisions npgpu's namespace answers for (__array_namespace__'s api_version).
_API_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12")

cdef extern from "npgpu/view.hpp" namespace "npgpu" nogil:
    ArrayView make_contiguous_view(void* data, DType dtype, int ndim, const int64_t* shape,
                                   int device) except +raise_py_error

cdef extern from "stdlib.h" nogil:
    int posix_memalign(void** memptr, size_t alignment, size_t size)

# Large host buffers ask for transparent huge pages, as NumPy's allocator does: a fresh 128 MB buffer then
# takes 64 page faults instead of 32768 (the faults, not the work, dominated a host cumsum or copy).
cdef extern from *:
    """
    #include <sys/mman.h>
    static inline void npgpu_advise_huge_pages(void* p, size_t n) {
    #ifdef MADV_HUGEPAGE
      madvise(p, n, MADV_HUGEPAGE);
    #endif
    }
    """
    void npgpu_advise_huge_pages(void* p, size_t n) nogil

cdef size_t _HUGE_PAGE = 2 << 20
cdef int64_t _HUGE_PAGE_MIN = 4 << 20

cdef extern from "dlpack.h" nogil:
    ctypedef struct DLPackVersion:
        unsigned int major
        unsigned int minor
    ctypedef struct DLDevice:
        int device_type
        int device_id
    ctypedef struct DLDataType:
        unsigned char code
        unsigned char bits
        unsigned short lanes
    ctypedef struct DLTensor:
        void* data
        DLDevice device
        int ndim
        DLDataType dtype
        int64_t* shape
        int64_t* strides
        uint64_t byte_offset
    ctypedef struct DLManagedTensor:
        DLTensor dl_tensor
        void* manager_ctx
        void (*deleter)(DLManagedTensor*) noexcept
    ctypedef struct DLManagedTensorVersioned:
        DLPackVersion version
        void* manager_ctx
        void (*deleter)(DLManagedTensorVersioned*) noexcept
        uint64_t flags
        DLTensor dl_tensor
    int kDLCPU, kDLCUDA, kDLCUDAHost, kDLCUDAManaged
    int kDLInt, kDLUInt, kDLFloat, kDLBfloat, kDLComplex, kDLBool
    uint64_t DLPACK_FLAG_BITMASK_READ_ONLY


# ------------------------------------------------------------------------------------------------ dtypes

_DTYPES = [np.dtype(n) for n in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                 "uint64", "float32", "float64", "complex64", "complex128", "float16")]
_CODE_BY_DTYPE = {d: i for i, d in enumerate(_DTYPES)}
# The dtypes every operation computes in; float16 (and bfloat16, with ml_dtypes installed) are storage dtypes:
# elementwise math on them runs in float32 and rounds on store, as NumPy's float16 loops do.
SUPPORTED_DTYPES = tuple(_DTYPES[:13])
_BFLOAT16_CODE = 14


cdef object _bfloat16():
    """ml_dtypes' bfloat16 (registered on first use, so importing npgpu does not import ml_dtypes)."""
    if len(_DTYPES) == _BFLOAT16_CODE:
        try:
            import ml_dtypes
        except ImportError:
            raise TypeError("bfloat16 needs the ml_dtypes package (pip install ml_dtypes)") from None
        d = np.dtype(ml_dtypes.bfloat16)
        _DTYPES.append(d)
        _CODE_BY_DTYPE[d] = _BFLOAT16_CODE
    return _DTYPES[_BFLOAT16_CODE]


cdef DType dtype_code(object dtype) except *:
    code = _CODE_BY_DTYPE.get(dtype)
    if code is None:
        d = np.dtype(dtype)
        if d.name == "bfloat16" and d.kind == "V":
            _bfloat16()
        code = _CODE_BY_DTYPE.get(d.newbyteorder("=") if d.byteorder not in "=|" else d)
        if code is None or d.byteorder == (">" if np.little_endian else "<"):
            raise TypeError(f"npgpu does not support dtype {d}; supported: "
                            + ", ".join(str(x) for x in _DTYPES) + ("" if len(_DTYPES) > 14 else ", bfloat16"))
    return <DType><int>code


cdef object numpy_dtype(DType code):
    if <int>code == _BFLOAT16_CODE:
        return _bfloat16()
    return _DTYPES[<int>code]


# ------------------------------------------------------------------------------------------------ Array

cdef Array wrap_view(const ArrayView& view, object base, object np_dtype, StreamHandle stream):
    cdef Array a = Array.__new__(Array)
    a._view = view
    a.base = base
    a._dtype = np_dtype
    a.stream = stream
    return a


def _rows(a, int64_t n):
    cdef int64_t i
    for i in range(n):
        yield a[i]


cdef class _HostMemory:
    """Host memory of a host-device ("cpu") Array: 64-byte aligned, freed with the last array using it."""
    cdef void* data
    cdef int64_t nbytes

    def __dealloc__(self):
        free(self.data)


cdef void* _host_alloc(Array a, int64_t nbytes) except NULL:
    cdef _HostMemory m = _HostMemory.__new__(_HostMemory)
    cdef void* p = NULL
    cdef bint huge = nbytes >= _HUGE_PAGE_MIN
    if posix_memalign(&p, _HUGE_PAGE if huge else 64, <size_t>(nbytes if nbytes > 0 else 1)) != 0:
        raise MemoryError(f"out of host memory allocating {nbytes} bytes")
    if huge:
        npgpu_advise_huge_pages(p, <size_t>nbytes)
    m.data = p
    m.nbytes = nbytes
    a.base = m
    return p


cdef Array new_array(tuple shape, object dtype, int device, StreamHandle stream):
    cdef int64_t dims[32]
    cdef int nd = len(shape)
    cdef DType dt = dtype_code(dtype)
    if nd > 32:
        raise ValueError(f"npgpu supports at most 32 dimensions, got {nd}")
    for i in range(nd):
        dims[i] = shape[i]
    # Validates the shape (negative or overflowing sizes raise ValueError) before anything is allocated.
    cdef ArrayView v = make_contiguous_view(NULL, dt, nd, dims, device)
    cdef Array a = Array.__new__(Array)
    cdef int64_t nbytes = v.size() * itemsize(dt)
    if device == kHostDevice:
        v.data = _host_alloc(a, nbytes)
    else:
        with nogil:
            a.buf = make_device_buffer(nbytes, device, stream)
        v.data = a.buf.get().data()
    a._view = v
    a._dtype = numpy_dtype(dt)
    a._shape = shape
    a.stream = stream
    return a


cdef Array new_array_like_view(const ArrayView& like, object dtype, DType dt, StreamHandle stream):
    """A new C-contiguous device array of like's shape: the fast path of operations (no Python shape work)."""
    cdef ArrayView v = make_contiguous_view(NULL, dt, like.ndim, like.shape, like.device)
    cdef Array a = Array.__new__(Array)
    cdef int64_t nbytes = v.size() * itemsize(dt)
    if like.device == kHostDevice:
        v.data = _host_alloc(a, nbytes)
    else:
        a.buf = make_device_buffer(nbytes, like.device, stream)  # stream-ordered: returns at once
        v.data = a.buf.get().data()
    a._view = v
    a._dtype = dtype
    a.stream = stream
    return a


cdef ArrayView host_view(object arr, bint writable) except *:
    """A view of a NumPy array's memory (device = host)."""
    cdef ArrayView v
    cdef Py_buffer b
    # One buffer request gives the address, shape, strides and read-only flag in C: reading them as Python
    # attributes was much of a small call's cost.
    try:
        PyObject_GetBuffer(arr, &b, PyBUF_STRIDES)
    except (BufferError, TypeError, ValueError):
        return _host_view_attributes(arr, writable)
    if b.ndim > 32:
        PyBuffer_Release(&b)
        raise ValueError(f"npgpu supports at most 32 dimensions, got {b.ndim}")
    if writable and b.readonly:
        PyBuffer_Release(&b)
        raise ValueError("output array is read-only")
    v.ndim = b.ndim
    v.device = kHostDevice
    v.readonly = b.readonly
    cdef bint empty = False
    for i in range(b.ndim):
        v.shape[i] = b.shape[i]
        v.strides[i] = b.strides[i]
        empty = empty or b.shape[i] == 0
    v.data = NULL if empty else b.buf
    PyBuffer_Release(&b)
    v.dtype = dtype_code(arr.dtype)
    return v


cdef ArrayView _host_view_attributes(object arr, bint writable) except *:
    cdef ArrayView v
    cdef int nd = arr.ndim
    if nd > 32:
        raise ValueError(f"npgpu supports at most 32 dimensions, got {nd}")
    if writable and not arr.flags.writeable:
        raise ValueError("output array is read-only")
    v.dtype = dtype_code(arr.dtype)
    v.ndim = nd
    v.device = kHostDevice
    v.readonly = not arr.flags.writeable
    shape = arr.shape
    strides = arr.strides
    for i in range(nd):
        v.shape[i] = shape[i]
        v.strides[i] = strides[i]
    v.data = _host_address(arr) if arr.size else NULL
    return v


cdef void* _host_address(object arr) except *:
    """The address of a NumPy array's first element: through the buffer protocol, else __array_interface__
    (slower: it builds a dict on every call)."""
    cdef Py_buffer b
    try:
        PyObject_GetBuffer(arr, &b, PyBUF_STRIDES)
    except (BufferError, TypeError, ValueError):
        return <void*><uintptr_t>arr.__array_interface__["data"][0]
    cdef void* p = b.buf
    PyBuffer_Release(&b)
    return p


class _HostInterface:
    """Describes a host Array's memory to NumPy (``__array_interface__``) and keeps the Array alive."""
    __slots__ = ("__array_interface__", "array")

    def __init__(self, iface, array):
        self.__array_interface__ = iface
        self.array = array


cdef dict _host_iface(Array a):
    return {"shape": a.shape, "typestr": a._dtype.str, "version": 3,
            "data": (<uintptr_t>a._view.data, bool(a._view.readonly)),
            "strides": None if a._view.is_c_contiguous() else a.strides}


cdef object host_ndarray(Array a):
    """A NumPy array sharing a host Array's memory (no copy)."""
    arr = np.asarray(_HostInterface(_host_iface(a), a))
    if arr.dtype != a._dtype:  # bfloat16's typestr is a plain 2-byte void
        arr = arr.view(a._dtype)
    return arr


cdef object _host_values(Array a):
    return host_ndarray(a) if a._view.device == kHostDevice else a.get()


cdef Array wrap_host(object arr):
    """A host Array sharing the memory of the NumPy array `arr` (supported dtype, aligned, native order)."""
    return wrap_view(host_view(arr, False), arr, arr.dtype, <StreamHandle>NULL)


def _normalize_shape(shape):
    try:
        return (operator.index(shape),)
    except TypeError:
        pass
    if isinstance(shape, (str, bytes)):
        raise TypeError(f"shape must be an int or a sequence of ints, not {type(shape).__name__}")
    try:
        return tuple(operator.index(s) for s in shape)
    except TypeError:
        raise TypeError(f"shape must be an int or a sequence of ints, got {shape!r}") from None


# Operations registered by the families' modules (npgpu._elementwise, _reduce, _blas, ...), so that this
# module, which they all import, does not import them: dependencies stay one way.
class _Ops(dict):
    def __missing__(self, name):
        raise NotImplementedError(f"npgpu.Array.{name}: the module defining '{name}' is not loaded "
                                  f"(import npgpu first)")


_ops = _Ops()


def _register_op(name, fn):
    _ops[name] = fn


def _binary_operator(name, a, b):
    """a <op> b for the operators: NotImplemented (so Python tries the other operand or falls back) for
    operands npgpu does not take, such as None in `arr == None`."""
    if type(a) is Array and type(b) is Array:
        return _ops[name](a, b)
    for x in (a, b):
        if not isinstance(x, (Array, bool, int, float, complex, np.generic, np.ndarray)):
            return NotImplemented
    return _ops[name](a, b)


cdef int _check_strides_aligned(const ArrayView& v, int axes, DType dt, str what) except -1:
    """ValueError unless the strides of the first `axes` axes (those of length > 1) are multiples of dt's item
    size: npgpu's kernels load whole items."""
    cdef int64_t size = itemsize(dt)
    cdef int k
    for k in range(axes):
        if v.shape[k] > 1 and v.strides[k] % size != 0:
            raise ValueError(f"axis {k}'s stride ({v.strides[k]} bytes) is not a multiple of {numpy_dtype(dt)}'s "
                             f"item size ({size} bytes); npgpu cannot view {what}")
    return 0


cdef bint _f_contiguous(const ArrayView& v, int64_t itemsize) noexcept:
    """Column-major contiguity: ArrayView::is_c_contiguous with the axes read first to last."""
    cdef int i
    cdef int64_t expected = itemsize
    for i in range(v.ndim):
        if v.shape[i] == 0:
            return True
    for i in range(v.ndim):
        if v.shape[i] != 1 and v.strides[i] != expected:
            return False
        expected *= v.shape[i]
    return True


class ArrayFlags(dict):
    """Array.flags: a dict whose keys also read as lower-case attributes, as numpy.flagsobj's."""
    __slots__ = ()

    def __getattr__(self, name):
        try:
            return self[name.upper()]
        except KeyError:
            raise AttributeError(f"Array.flags has no flag {name!r}") from None


cdef class Array:
    """An n-dimensional array on a GPU or on the host device ("cpu").

    Create one with :func:`npgpu.asarray`, :func:`npgpu.empty`, :func:`npgpu.zeros`, :func:`npgpu.arange`...
    (``device=`` picks where; the default is the current GPU, or the host when there is no GPU or the host
    backend is chosen); bring it back with ``.get()`` or ``numpy.asarray(arr)``; move it with
    ``.to_device()``. Operations run where the array lives, with the same semantics and dtype rules on both.
    GPU arrays share memory with CuPy, PyTorch, JAX and Numba through ``__cuda_array_interface__`` and DLPack,
    host arrays with NumPy through ``__array_interface__`` and DLPack, without copies.

    Raises
    ------
    TypeError
        When called directly: ``npgpu.Array(...)`` creates nothing; use the creation functions.

    See Also
    --------
    asarray, empty, zeros, full, from_dlpack

    Examples
    --------
    >>> a = npgpu.asarray([[1.0, 2.0], [3.0, 4.0]], device="cpu")
    >>> a.shape, a.dtype
    ((2, 2), dtype('float64'))
    >>> (a * 2).get()
    array([[2., 4.],
           [6., 8.]])
    """

    # Above NumPy's: mixed operations defer to npgpu (dask's tensordot picks the chunk type by it; CuPy's value).
    __array_priority__ = 100.0

    def __init__(self, *args, **kwargs):
        raise TypeError("create arrays with npgpu.asarray, npgpu.empty, npgpu.zeros or npgpu.full")

    # -- attributes
    @property
    def shape(self):
        """The length of each dimension, a tuple of ints (``()`` for a 0-d array)."""
        if self._shape is None:
            self._shape = tuple([self._view.shape[i] for i in range(self._view.ndim)])
        return self._shape

    @property
    def strides(self):
        """The step in bytes between consecutive elements along each dimension, a tuple of ints, as NumPy's.

        Views may have any strides: zero (broadcast dimensions), negative (reversed slices) or larger than
        the item size (slices with a step, transposes).
        """
        return tuple([self._view.strides[i] for i in range(self._view.ndim)])

    @property
    def dtype(self):
        """The data type of the elements, a numpy.dtype (one of npgpu's supported dtypes)."""
        return self._dtype

    @property
    def ndim(self):
        """The number of dimensions, an int (0 to 32)."""
        return self._view.ndim

    @property
    def size(self):
        """The number of elements, an int: the product of the shape (1 for a 0-d array)."""
        return self._view.size()

    @property
    def itemsize(self):
        """The size of one element in bytes, an int."""
        return itemsize(self._view.dtype)

    @property
    def nbytes(self):
        """The bytes the elements take, ``size * itemsize``, an int.

        Whatever the strides, or the memory the array views (a view counts its own elements only).
        """
        return self._view.size() * itemsize(self._view.dtype)

    @property
    def device(self):
        """Where the data lives: an npgpu.Device for a GPU, ``npgpu.cpu`` for the host.

        It can be passed as ``device=`` to the creation functions and to :meth:`to_device`.
        """
        if self._view.device == kHostDevice:
            return _runtime.cpu
        return _runtime.Device(self._view.device)

    def to_device(self, device, /, *, stream=None):
        """This array on `device`: itself when already there, else a copy.

        Parameters
        ----------
        device : str, int or npgpu.Device
            Where to: "cpu", "cuda" (the current GPU), "cuda:N", an int (a GPU ordinal), an npgpu.Device or
            another array's ``.device`` (``npgpu.cpu`` for the host).
        stream : npgpu.Stream or int, optional
            The stream the copy runs on (by default the current stream of this thread).

        Returns
        -------
        npgpu.Array
            ``self`` when it is on `device` already, else a C-contiguous copy there. A copy to the host
            returns when the data is on the host; a copy between GPUs waits for the work pending on the
            source array's stream and on `stream` first.

        Raises
        ------
        ValueError
            `device` is a string npgpu does not know, or a GPU ordinal out of range.
        GPUUnavailableError
            `device` names a GPU and this process has none.

        See Also
        --------
        asarray, get

        Examples
        --------
        >>> a = npgpu.asarray([1.0, 2.0], device="cpu")
        >>> a.to_device("cpu") is a
        True
        >>> a.to_device(a.device) is a
        True
        """
        cdef int d = resolve_array_device(device)
        if d == self._view.device:
            return self
        return _move(self, d, resolve_stream(stream))

    @property
    def device_id(self):
        """The CUDA ordinal of the GPU holding the data, an int; -1 for the host."""
        return self._view.device

    @property
    def ptr(self):
        """The address of the first element, as an integer (a device pointer for a GPU array)."""
        return <uintptr_t>self._view.data

    @property
    def readonly(self):
        """Whether the data may not be written, a bool.

        True for the views of :func:`broadcast_to`, the ``imag`` of a real array, and arrays over memory
        their producer marked read-only (a read-only NumPy array, a read-only DLPack or CUDA Array Interface
        export). Views of a read-only array are read-only too; copies are not.
        """
        return self._view.readonly

    @property
    def flags(self):
        """The layout and memory flags: a dict whose keys also read as lower-case attributes
        (``a.flags.c_contiguous``), as numpy.flagsobj's; a snapshot, not settable.

        ``"C_CONTIGUOUS"``, ``"F_CONTIGUOUS"``, ``"WRITEABLE"`` (the opposite of :attr:`readonly`) and
        ``"OWNDATA"`` (whether the array holds memory npgpu allocated for it: False for views and for arrays
        over another producer's memory, such as a NumPy array shared on the host).
        """
        return ArrayFlags(C_CONTIGUOUS=self._view.is_c_contiguous(),
                          F_CONTIGUOUS=_f_contiguous(self._view, self._dtype.itemsize),
                          WRITEABLE=not self._view.readonly,
                          OWNDATA=self.buf.get() != NULL or isinstance(self.base, _HostMemory))

    def __len__(self):
        if self._view.ndim == 0:
            raise TypeError("len() of a 0-d array")
        return self._view.shape[0]

    def __iter__(self):
        """Views of the array along its first axis, as iterating a NumPy array (TypeError for a 0-d array).

        Each step is a view (a 0-d npgpu.Array for a 1-d array), so no data moves; ``a.get()`` iterates on
        the host in one transfer.

        Examples
        --------
        >>> [int(v) for v in npgpu.asarray([3, 1, 2], device="cpu")]
        [3, 1, 2]
        """
        if self._view.ndim == 0:
            raise TypeError("iteration over a 0-d array")  # at iter(), as NumPy, not at the first step
        return _rows(self, self._view.shape[0])

    # npgpu.Array[...] in annotations, as numpy.ndarray[...].
    __class_getitem__ = classmethod(types.GenericAlias)

    def __repr__(self):
        # NumPy's text with "array" -> "Array" (same width, so continuation lines stay aligned).
        r = "Array" + repr(_host_values(self))[5:]
        if self._view.device != kHostDevice:
            r = r[:-1] + f", device='cuda:{self._view.device}')"
        return r

    def __str__(self):
        return str(_host_values(self))

    def __reduce__(self):
        # Contents travel; the device is kept where it exists when unpickled, else the data lands on the host.
        return (_unpickle, (self.get(), "cpu" if self._view.device == kHostDevice else self._view.device))

    def __array_namespace__(self, *, api_version=None):
        """The npgpu module: the Python Array API standard's namespace for npgpu arrays.

        Parameters
        ----------
        api_version : str, optional
            The revision of the standard asked for: None, "2021.12", "2022.12", "2023.12" or "2024.12".

        Returns
        -------
        module
            ``npgpu``, whatever the revision.

        Raises
        ------
        ValueError
            `api_version` is not one of the revisions above.

        Examples
        --------
        >>> a = npgpu.asarray([1.0, 2.0], device="cpu")
        >>> a.__array_namespace__() is npgpu
        True
        """
        if api_version is not None and api_version not in _API_VERSIONS:
            raise ValueError(f"npgpu implements the array API standard {_API_VERSIONS[-1]}; "
                             f"api_version {api_version!r} is not supported")
        import npgpu
        return npgpu

    def __array_function__(self, func, types, args, kwargs):
        """NumPy's functions on npgpu arrays run in npgpu and return npgpu arrays.

        ``numpy.X(arr, ...)`` runs npgpu's function of the same name (see ``npgpu._numpy_functions``). A
        NumPy function npgpu lacks raises TypeError instead of copying the data to the host.

        Parameters
        ----------
        func : callable
            The NumPy function called.
        types : collection of types
            The types of the array arguments, as NumPy passes them.
        args : tuple
            The positional arguments of the call.
        kwargs : dict
            The keyword arguments of the call.

        Returns
        -------
        object
            What npgpu's function returns (npgpu arrays on the operands' device), or NotImplemented when an
            array type other than npgpu.Array and numpy.ndarray takes part (NumPy then asks it, or raises).

        Raises
        ------
        TypeError
            npgpu has no function of `func`'s name, its function does not take these arguments, or a NumPy
            array takes part beside the npgpu arrays.

        Examples
        --------
        >>> a = npgpu.asarray([[1.0, 2.0], [3.0, 4.0]], device="cpu")
        >>> np.mean(a, axis=0)
        Array([2., 3.])
        >>> np.busday_count(a, a)
        Traceback (most recent call last):
            ...
        TypeError: numpy.busday_count is not supported on npgpu arrays by npgpu ...
        """
        from npgpu._numpy_functions import array_function
        return array_function(func, types, args, kwargs)

    # -- transfers
    def get(self, stream=None, out=None):
        """Copy to a new NumPy array (or into `out`); returns when the data is on the host.

        Parameters
        ----------
        stream : npgpu.Stream or int, optional
            The stream the copy of a GPU array runs on (by default the current stream of this thread); the
            call waits for it.
        out : numpy.ndarray, optional
            A C-contiguous, writeable NumPy array of the same shape and dtype to copy into.

        Returns
        -------
        numpy.ndarray
            A new C-contiguous NumPy array holding a copy of the data (also for a host array), or `out`.

        Raises
        ------
        ValueError
            `out` is not a writeable C-contiguous NumPy array of this array's shape and dtype.

        See Also
        --------
        to_device

        Examples
        --------
        >>> a = npgpu.asarray([1.0, 2.0], device="cpu")
        >>> a.get()
        array([1., 2.])
        >>> out = np.empty(2)
        >>> a.get(out=out) is out
        True
        """
        cdef StreamHandle s = resolve_stream(stream)
        if out is not None:
            if not isinstance(out, np.ndarray) or out.shape != self.shape or out.dtype != self._dtype \
                    or not out.flags.c_contiguous or not out.flags.writeable:
                raise ValueError(f"out must be a writeable C-contiguous numpy array of shape {self.shape} "
                                 f"and dtype {self._dtype}")
        if self._view.device == kHostDevice:
            if out is None:
                return np.array(host_ndarray(self), order="C", copy=True)
            np.copyto(out, host_ndarray(self))
            return out
        cdef Array src = self if self._view.is_c_contiguous() else self.copy(stream=stream)
        cdef int64_t nbytes = src._view.size() * itemsize(src._view.dtype)
        if out is None:
            out = empty_host_result(self.shape, self._dtype, PINNED_RESULT_MAX) if nbytes >= STAGED_COPY_MIN \
                else np.empty(self.shape, dtype=self._dtype)
        cdef void* dst = <void*><uintptr_t>out.__array_interface__["data"][0] if nbytes else NULL
        cdef int device = src._view.device
        if nbytes:
            with nogil:
                copy_to_host_staged(dst, src._view.data, nbytes, device, s)
        return out

    def __array__(self, dtype=None, copy=None):
        if self._view.device == kHostDevice:  # NumPy sees the memory itself, as np.asarray does
            a = host_ndarray(self)
            if dtype is not None and np.dtype(dtype) != a.dtype:
                if copy is False:
                    raise ValueError(f"converting {a.dtype} to {np.dtype(dtype)} needs a copy, but copy=False")
                return a.astype(dtype)
            return a.copy() if copy else a
        if copy is False:
            raise ValueError("an npgpu.Array on a GPU cannot be viewed as a NumPy array without a copy; "
                             "use .get()")
        a = self.get()
        return a if dtype is None else a.astype(dtype, copy=False)

    @property
    def __array_interface__(self):
        if self._view.device != kHostDevice:
            raise AttributeError("an npgpu.Array on a GPU has no __array_interface__ (host memory only); "
                             "use __cuda_array_interface__, DLPack or .get()")
        return _host_iface(self)

    def copy(self, stream=None):
        """A C-contiguous copy on the same device.

        Parameters
        ----------
        stream : npgpu.Stream or int, optional
            The stream the copy runs on (by default the current stream of this thread).

        Returns
        -------
        npgpu.Array
            A new array of the same shape and dtype, with its own memory.

        Examples
        --------
        >>> a = npgpu.asarray([[1, 2], [3, 4]], device="cpu")
        >>> b = a.T.copy()
        >>> b
        Array([[1, 3],
               [2, 4]])
        >>> b.flags["C_CONTIGUOUS"]
        True
        """
        cdef StreamHandle s = resolve_stream(stream)
        cdef Array out = new_array_like_view(self._view, self._dtype, self._view.dtype, s)
        with nogil:
            c_copy(self._view, out._view, s)
        return out

    def astype(self, dtype, copy=True, stream=None, *, device=None):
        """A copy converted to `dtype` (NumPy's unsafe casting, as ndarray.astype).

        Parameters
        ----------
        dtype : dtype
            The dtype of the result; one npgpu supports.
        copy : bool, optional
            With ``copy=False`` and the same dtype, ``self`` is returned; otherwise the result is a new
            C-contiguous array (default True).
        stream : npgpu.Stream or int, optional
            The stream the conversion runs on (by default the current stream of this thread).
        device : str, int or npgpu.Device, optional
            Moves the result there (the Array API standard's keyword): the array is moved with
            :meth:`to_device`, then converted.

        Returns
        -------
        npgpu.Array
            The converted array, or ``self`` as said above.

        Raises
        ------
        TypeError
            npgpu does not support `dtype`.

        Examples
        --------
        >>> a = npgpu.asarray([1.7, -2.7], device="cpu")
        >>> a.astype(np.int32)
        Array([ 1, -2], dtype=int32)
        >>> a.astype(np.float64, copy=False) is a
        True
        """
        if device is not None and resolve_array_device(device) != self._view.device:
            return self.to_device(device, stream=stream).astype(dtype, copy=False, stream=stream)
        cdef DType dt = dtype_code(dtype)
        if dt == self._view.dtype and not copy:
            return self
        cdef StreamHandle s = resolve_stream(stream)
        cdef Array out = new_array_like_view(self._view, numpy_dtype(dt), dt, s)
        with nogil:
            c_copy(self._view, out._view, s)
        return out

    # -- views (basic indexing, reshape, transpose, real/imag): new Arrays over the same memory
    cdef Array _view_of(self, const ArrayView& v, object dtype=None):
        cdef Array r = wrap_view(v, self, self._dtype if dtype is None else dtype, self.stream)
        return r

    def __getitem__(self, key):
        """``a[key]``: a view for basic indexing, a new array for advanced indexing, as NumPy's.

        Basic indexing (integers, slices, Ellipsis, None) returns a view, as NumPy's; a 0-d result is a
        0-d npgpu.Array (``float(a[i])`` or ``a[i].get()`` brings it to the host). Index arrays and boolean
        masks (NumPy's advanced indexing, mixed with the basic kinds) return a new array.

        Parameters
        ----------
        key : int, slice, Ellipsis, None, array_like or tuple of these
            The index. An npgpu.Array, a NumPy array, a list or a bool (alone or in a tuple) makes it
            advanced indexing.

        Returns
        -------
        npgpu.Array
            A view of this array's memory (basic indexing) or a new array (advanced indexing).

        Raises
        ------
        IndexError
            An integer is out of bounds, there are more indices than dimensions, more than one Ellipsis,
            an index of another type (a float, ...), or more than 32 dimensions would result.

        Examples
        --------
        >>> a = npgpu.asarray([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], device="cpu")
        >>> a[:, 1]
        Array([2., 5.])
        >>> float(a[1, -1])
        6.0
        >>> a[a > 2]
        Array([3., 4., 5., 6.])
        """
        cdef ArrayView v
        if _is_advanced_key(key):
            return _ops["getitem_advanced"](self, key)
        _index_view(self._view, key, &v)
        return self._view_of(v)

    def __setitem__(self, key, value):
        """``a[key] = value``: write `value` into the elements `key` selects.

        value (a scalar, an npgpu.Array, or a host array, copied over) is broadcast to the selected view and
        converted to this array's dtype.

        Keys as for ``a[key]``: basic indexing writes into the view it selects; index arrays and boolean
        masks (advanced indexing) write the elements they select. With basic indexing, an npgpu.Array value
        overlapping the destination is copied first.

        Parameters
        ----------
        key : int, slice, Ellipsis, None, array_like or tuple of these
            The elements to write.
        value : scalar, npgpu.Array or array_like
            The values; an npgpu.Array must be on this array's device.

        Raises
        ------
        ValueError
            This array is read-only, `value` does not broadcast to the selection, or `value` is an
            npgpu.Array on another device.
        TypeError
            `value` is not numeric data: None or another Python object, or data of a dtype npgpu does not
            support (strings, ...).
        IndexError
            `key` is not a valid index (see ``a[key]``).

        Examples
        --------
        >>> a = npgpu.zeros((2, 3), device="cpu")
        >>> a[0] = [1, 2, 3]
        >>> a[:, 2] = 9
        >>> a
        Array([[1., 2., 9.],
               [0., 0., 9.]])
        >>> a[a > 2] = -1
        >>> a
        Array([[ 1.,  2., -1.],
               [ 0.,  0., -1.]])
        """
        cdef ArrayView dst
        if _is_advanced_key(key):
            _ops["setitem_advanced"](self, key, value)
            return
        _index_view(self._view, key, &dst)
        if self._view.readonly:
            raise ValueError("assignment destination is read-only")
        cdef StreamHandle s = self.stream
        cdef Array src
        if isinstance(value, Array):
            src = <Array>value
            if src._view.device != self._view.device:
                raise ValueError(f"cannot assign an array on device {src._view.device} to one on {self._view.device}")
            if _views_overlap(src._view, dst):
                src = src.copy()
        else:
            host = np.asarray(value)
            if host.dtype == object:
                raise TypeError(f"cannot assign {type(value).__name__} to an npgpu.Array")
            # not ascontiguousarray: it turns a 0-d value into shape (1,), which a 0-d target can't take
            src = upload(np.asarray(host, order="C"), self._view.device, s)
        cdef tuple shape = tuple([dst.shape[i] for i in range(dst.ndim)])
        cdef ArrayView sv = _broadcast_to(src._view, shape, "could not broadcast input array from shape "
                                          f"{src.shape} into shape {shape}")
        with nogil:
            c_copy(sv, dst, s)

    def view(self, dtype=None, type=None):
        """A new Array over the same memory, optionally seen as another dtype, as numpy.ndarray.view.

        With an item size equal to this array's, the shape and strides stay; with another, the last axis
        (which must be contiguous) is rescaled, as NumPy's. The read-only flag is kept. On a GPU the view
        must also be aligned to the new item size (npgpu's kernels load whole items).

        Parameters
        ----------
        dtype : dtype, optional
            The dtype to see the memory as (one npgpu supports); default: this array's. ``npgpu.Array``
            here means `type`, as NumPy takes a type in this place.
        type : type, optional
            ``npgpu.Array`` (or None). A view cannot be a numpy.ndarray: device memory is not host memory;
            ``a.get()`` gives a NumPy copy.

        Returns
        -------
        npgpu.Array
            A view of this array's memory (its ``base`` is this array).

        Raises
        ------
        ValueError
            A 0-d array given a dtype of another item size; the last axis not contiguous, or its size in
            bytes not a multiple of the new item size; the data or a stride not aligned to the new item size.
        TypeError
            npgpu does not support `dtype`, or `type` is not npgpu.Array.

        Examples
        --------
        >>> x = npgpu.asarray([1.0, -2.0], dtype=np.float32, device="cpu")
        >>> x.view(np.uint32)
        Array([1065353216, 3221225472], dtype=uint32)
        >>> x.view(np.uint16).shape
        (4,)
        """
        if type is None and isinstance(dtype, builtins.type) and issubclass(dtype, (np.ndarray, Array)):
            type, dtype = dtype, None  # NumPy's a.view(SomeArrayType)
        if type is not None and type is not Array:
            raise TypeError(f"npgpu.Array.view gives an npgpu.Array, not {type!r}: device memory cannot be "
                            f"seen as a host array (a.get() gives a NumPy copy)")
        if dtype is None:
            return self._view_of(self._view)
        cdef DType dt = dtype_code(dtype)
        cdef ArrayView v = self._view
        cdef int64_t old = itemsize(v.dtype), new = itemsize(dt)
        cdef int last = v.ndim - 1
        if new != old:
            if v.ndim == 0:
                raise ValueError("Changing the dtype of a 0d array is only supported if the itemsize is unchanged")
            if v.strides[last] != old:
                raise ValueError("To change to a dtype of a different size, the last axis must be contiguous")
            if new > old and (v.shape[last] * old) % new != 0:
                raise ValueError("When changing to a larger dtype, its size must be a divisor of the total size "
                                 "in bytes of the last axis of the array.")
            if new < old and old % new != 0:
                raise ValueError("When changing to a smaller dtype, its size must be a divisor of the size of "
                                 "original dtype")
            v.shape[last] = v.shape[last] * old // new
            v.strides[last] = new
            if <uintptr_t>v.data % <uintptr_t>new != 0:
                raise ValueError(f"the array's data is not aligned to {numpy_dtype(dt)}'s item size ({new} "
                                 f"bytes); npgpu cannot view it as that dtype (copy it first)")
            _check_strides_aligned(v, last, dt, "the array as that dtype (copy it first)")
        v.dtype = dt
        return self._view_of(v, numpy_dtype(dt))

    def getfield(self, dtype, offset=0):
        """A view of one field of every element, as numpy.ndarray.getfield.

        Element i of the result is the `dtype` value stored `offset` bytes into element i of this array, e.g.
        the imaginary parts of a complex128 array: ``a.getfield(np.float64, 8)``. The shape and strides stay;
        the read-only flag is kept.

        Parameters
        ----------
        dtype : dtype
            The field's dtype (one npgpu supports), no larger than this array's.
        offset : int, optional
            The field's byte offset within an element (default 0).

        Returns
        -------
        npgpu.Array
            A view of this array's memory (its ``base`` is this array).

        Raises
        ------
        ValueError
            The field does not fit in an element at `offset`, or is not aligned to its item size (npgpu's
            kernels load whole items).
        TypeError
            npgpu does not support `dtype`, or `offset` is not an integer.

        See Also
        --------
        setfield, view

        Examples
        --------
        >>> z = npgpu.asarray([1 + 2j, 3 - 4j], device="cpu")
        >>> z.getfield(np.float64, 8)
        Array([ 2., -4.])
        """
        cdef DType dt = dtype_code(dtype)
        cdef ArrayView v = self._view
        cdef int64_t off = operator.index(offset), new = itemsize(dt), old = itemsize(v.dtype)
        if new > old:
            raise ValueError("new type is larger than original type")
        if off < 0 or off + new > old:
            raise ValueError(f"new type plus offset is larger than original type (offset {off}, field of {new} "
                             f"bytes in elements of {old})")
        v.data = <void*>(<char*>v.data + off)
        if <uintptr_t>v.data % <uintptr_t>new != 0:
            raise ValueError(f"the field at offset {off} is not aligned to {numpy_dtype(dt)}'s item size ({new} "
                             f"bytes); npgpu cannot view it (copy the array first)")
        _check_strides_aligned(v, v.ndim, dt, "the field")
        v.dtype = dt
        return self._view_of(v, numpy_dtype(dt))

    def setfield(self, val, dtype, offset=0):
        """Write `val` into one field of every element, as numpy.ndarray.setfield:
        ``a.getfield(dtype, offset)[...] = val``.

        Parameters
        ----------
        val : scalar or array_like
            The values, broadcast to the array's shape and cast to `dtype`.
        dtype, offset
            The field, as `getfield`.

        Raises
        ------
        ValueError
            The array is read-only, or as `getfield`.

        Examples
        --------
        >>> z = npgpu.asarray([1 + 2j, 3 - 4j], device="cpu")
        >>> z.setfield(0.0, np.float64, 8)
        >>> z
        Array([1.+0.j, 3.+0.j])
        """
        if self._view.readonly:
            raise ValueError("assignment destination is read-only")
        self.getfield(dtype, offset)[...] = val

    def resize(self, *new_shape, refcheck=True):
        """Change the shape and size in place, as numpy.ndarray.resize.

        The elements keep their C-order positions: a larger array gets zeros after them, a smaller one
        keeps the first ones. The array moves to new memory, so nothing may view it (``refcheck``, as
        NumPy's: another reference to the array raises instead).

        Parameters
        ----------
        *new_shape : int or tuple of ints
            The new shape, as separate ints or one tuple; none (or None) leaves the array as it is.
        refcheck : bool, optional
            Refuse when the array is referenced from elsewhere (default True), as NumPy's.

        Returns
        -------
        None

        Raises
        ------
        ValueError
            The array does not own its memory (a view, or memory shared with another producer), is not
            C-contiguous, is referenced elsewhere (with `refcheck`), or a dimension is negative.

        See Also
        --------
        npgpu.resize : a resized copy, repeating the elements.

        Examples
        --------
        >>> a = npgpu.arange(6, device="cpu")
        >>> a.resize((2, 4))
        >>> a
        Array([[0, 1, 2, 3],
               [4, 5, 0, 0]])
        """
        if not new_shape or (len(new_shape) == 1 and new_shape[0] is None):
            return None
        shape = _normalize_shape(new_shape[0] if len(new_shape) == 1 else new_shape)
        if builtins.any(n < 0 for n in shape):
            raise ValueError("negative dimensions are not allowed")
        if self.buf.get() == NULL and not isinstance(self.base, _HostMemory):
            raise ValueError("cannot resize this array: it does not own its data")
        if not self._view.is_c_contiguous():
            raise ValueError("resize only works on single-segment arrays")
        # The caller's reference, this call's, and getrefcount's own: any more is a view or another name.
        if refcheck and sys.getrefcount(self) > 3:
            raise ValueError("cannot resize an array that references or is referenced by another object in "
                             "this way; use npgpu.resize to get a new resized copy, or set refcheck=False")
        cdef Array fresh = new_array(tuple(shape), self._dtype, self._view.device, self.stream)
        cdef int64_t keep = builtins.min(self._view.size(), fresh._view.size())
        flat = fresh.reshape(-1)
        if keep:
            flat[:keep] = self.reshape(-1)[:keep]
        if fresh._view.size() > keep:
            flat[keep:] = 0
        self.buf = fresh.buf
        self.base = fresh.base
        self._view = fresh._view
        self._shape = fresh._shape

    def reshape(self, *shape, order="C"):
        """A view with a new shape when the data allows it (C order), otherwise a copy, as NumPy's reshape.

        The result is a view of this array when it is C-contiguous (keeping its read-only flag); otherwise
        the array is first copied to C order and the result is a view of that copy (NumPy returns a view of
        some non-contiguous arrays too).

        Parameters
        ----------
        *shape : int or tuple of ints
            The new shape, as separate ints or one tuple; one dimension may be -1 (inferred from the size).
        order : {"C", "F", "A"}, optional
            The index order elements are read and placed in: "C" (default) the last axis fastest, "F" the
            first axis fastest, "A" as "F" when the array is Fortran-contiguous and not C-contiguous, else "C".

        Returns
        -------
        npgpu.Array
            The array with the new shape.

        Raises
        ------
        ValueError
            The size of the new shape differs from the array's, more than one dimension is -1, a dimension
            is negative otherwise, or the new shape has more than 32 dimensions.
            `order` is not "C", "F" or "A".
        TypeError
            `shape` is not an int or a sequence of ints.

        See Also
        --------
        ravel, flatten

        Examples
        --------
        >>> a = npgpu.asarray([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], device="cpu")
        >>> a.reshape(2, 3)
        Array([[1., 2., 3.],
               [4., 5., 6.]])
        >>> a.reshape((3, -1)).shape
        (3, 2)
        """
        if order not in ("C", "F", "A"):
            raise ValueError(f"order {order!r} is not permitted for reshaping (use 'C', 'F' or 'A')")
        if len(shape) == 1 and not isinstance(shape[0], int):
            shape = shape[0]
        new_shape = _resolve_reshape(self._view.size(), _normalize_shape(shape))
        if order == "A":
            f_only = _f_contiguous(self._view, self._dtype.itemsize) and not self._view.is_c_contiguous()
            order = "F" if f_only else "C"
        if order == "F":
            # Fortran order is C order on the reversed axes.
            return self.T.reshape(new_shape[::-1]).T
        cdef Array src = self if self._view.is_c_contiguous() else self.copy()
        if len(new_shape) > 32:  # before filling dims[32]
            raise ValueError(f"npgpu supports at most 32 dimensions, got {len(new_shape)}")
        cdef int64_t dims[32]
        for i in range(len(new_shape)):
            dims[i] = new_shape[i]
        cdef ArrayView v = make_contiguous_view(src._view.data, src._view.dtype, len(new_shape), dims,
                                                src._view.device)
        v.readonly = src._view.readonly
        return src._view_of(v)

    def ravel(self):
        """A flat view when C-contiguous, else a flat copy.

        Returns
        -------
        npgpu.Array
            A 1-d array of the elements in C order: ``self.reshape(-1)``.

        See Also
        --------
        flatten, reshape

        Examples
        --------
        >>> a = npgpu.asarray([[1, 2], [3, 4]], device="cpu")
        >>> a.ravel()
        Array([1, 2, 3, 4])
        >>> a.T.ravel()
        Array([1, 3, 2, 4])
        """
        return self.reshape(-1)

    def flatten(self):
        """A flat copy.

        Returns
        -------
        npgpu.Array
            A new 1-d array of the elements in C order, whatever this array's layout.

        See Also
        --------
        ravel, reshape

        Examples
        --------
        >>> a = npgpu.asarray([[1, 2], [3, 4]], device="cpu")
        >>> a.flatten()
        Array([1, 2, 3, 4])
        """
        return self.copy().reshape(-1)

    def transpose(self, *axes):
        """A view with the axes permuted (reversed by default), as NumPy's transpose.

        Parameters
        ----------
        *axes : None, ints or a sequence of ints
            The permutation: axis ``i`` of the result is axis ``axes[i]`` of this array; negative axes count
            from the end. Given as separate ints or one sequence; none (or None) reverses the axes.

        Returns
        -------
        npgpu.Array
            A view of this array's memory.

        Raises
        ------
        ValueError
            `axes` does not name as many axes as the array has, or repeats one.
        numpy.exceptions.AxisError
            An axis is out of range.

        See Also
        --------
        T, mT, swapaxes

        Examples
        --------
        >>> a = npgpu.asarray([[1, 2, 3], [4, 5, 6]], device="cpu")
        >>> a.transpose()
        Array([[1, 4],
               [2, 5],
               [3, 6]])
        >>> npgpu.zeros((2, 3, 4), device="cpu").transpose(1, 0, 2).shape
        (3, 2, 4)
        """
        cdef int nd = self._view.ndim
        if len(axes) == 1 and axes[0] is not None and not isinstance(axes[0], int):
            axes = tuple(axes[0])
        if not axes or axes == (None,):
            axes = tuple(range(nd - 1, -1, -1))
        if len(axes) != nd:
            raise ValueError("axes don't match array")
        norm = [_normalize_axis(a, nd) for a in axes]
        if len(set(norm)) != nd:
            raise ValueError("repeated axis in transpose")
        cdef ArrayView v = self._view
        for i in range(nd):
            v.shape[i] = self._view.shape[norm[i]]
            v.strides[i] = self._view.strides[norm[i]]
        return self._view_of(v)

    @property
    def T(self):
        """The array with its axes reversed, a view: ``self.transpose()``."""
        return self.transpose()

    @property
    def mT(self):
        """The last two axes swapped (a stack of matrices transposed), as the Array API's ``mT``; a view.

        Raises ValueError for an array of fewer than 2 dimensions.
        """
        if self._view.ndim < 2:
            raise ValueError(f"mT needs an array of at least 2 dimensions, not {self._view.ndim}")
        return self.swapaxes(-1, -2)

    def swapaxes(self, axis1, axis2):
        """A view with two axes interchanged, as numpy.ndarray.swapaxes.

        Parameters
        ----------
        axis1, axis2 : int
            The axes to swap; negative axes count from the end.

        Returns
        -------
        npgpu.Array
            A view of this array's memory.

        Raises
        ------
        numpy.exceptions.AxisError
            An axis is out of range.

        See Also
        --------
        transpose

        Examples
        --------
        >>> a = npgpu.asarray([[1, 2, 3]], device="cpu")
        >>> a.swapaxes(0, 1)
        Array([[1],
               [2],
               [3]])
        """
        order = list(range(self._view.ndim))
        a, b = _normalize_axis(axis1, self._view.ndim), _normalize_axis(axis2, self._view.ndim)
        order[a], order[b] = order[b], order[a]
        return self.transpose(order)

    def squeeze(self, axis=None):
        """A view without (the given) length-1 dimensions.

        Parameters
        ----------
        axis : int or tuple of ints, optional
            The length-1 axes to remove (negative axes count from the end); by default all of them.

        Returns
        -------
        npgpu.Array
            A view of this array's memory.

        Raises
        ------
        ValueError
            An axis given has a length other than 1.
        numpy.exceptions.AxisError
            An axis is out of range.

        Examples
        --------
        >>> a = npgpu.zeros((1, 3, 1), device="cpu")
        >>> a.squeeze().shape
        (3,)
        >>> a.squeeze(axis=0).shape
        (3, 1)
        """
        nd = self._view.ndim
        if axis is None:
            drop = {i for i in range(nd) if self._view.shape[i] == 1}
        else:
            drop = {_normalize_axis(a, nd) for a in (axis if isinstance(axis, tuple) else (axis,))}
            for i in drop:
                if self._view.shape[i] != 1:
                    raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
        cdef ArrayView v = self._view
        cdef int j = 0
        for i in range(nd):
            if i not in drop:
                v.shape[j] = self._view.shape[i]
                v.strides[j] = self._view.strides[i]
                j += 1
        v.ndim = j
        return self._view_of(v)

    @property
    def real(self):
        """The real part: a view for complex arrays (as NumPy's), the array itself otherwise.

        The view of a complex64 array is float32, of a complex128 array float64; writing to it writes the
        real parts.
        """
        if self._dtype.kind != "c":
            return self
        return self._part_view(0)

    @property
    def imag(self):
        """The imaginary part: a view for complex arrays; a read-only array of zeros otherwise.

        The view of a complex64 array is float32, of a complex128 array float64. For other dtypes the zeros
        are a new array of this array's shape, dtype and device.
        """
        if self._dtype.kind != "c":
            z = full(self.shape, 0, dtype=self._dtype, device=self.device)
            (<Array>z)._view.readonly = True
            return z
        return self._part_view(1)

    cdef Array _part_view(self, int part):
        rdt = np.dtype("float32" if self._dtype.itemsize == 8 else "float64")
        cdef ArrayView v = self._view
        cdef int64_t offset = part * (itemsize(self._view.dtype) // 2)
        v.dtype = dtype_code(rdt)
        v.data = <void*>(<char*>self._view.data + offset)
        return self._view_of(v, rdt)

    def conj(self):
        """The complex conjugate, elementwise: ``npgpu.conjugate(self)``.

        Returns
        -------
        npgpu.Array
            A new array on this array's device (the values unchanged for real dtypes).

        See Also
        --------
        conjugate, real, imag

        Examples
        --------
        >>> a = npgpu.asarray([1 + 2j, 3 - 4j], device="cpu")
        >>> a.conj()
        Array([1.-2.j, 3.+4.j])
        """
        return _ops["conjugate"](self)

    def conjugate(self):
        """The complex conjugate, elementwise: ``npgpu.conjugate(self)``; the same as :meth:`conj`.

        Returns
        -------
        npgpu.Array
            A new array on this array's device (the values unchanged for real dtypes).

        See Also
        --------
        conj

        Examples
        --------
        >>> npgpu.asarray([1 + 1j, 2 - 3j], device="cpu").conjugate()
        Array([1.-1.j, 2.+3.j])
        """
        return _ops["conjugate"](self)

    # -- interoperability
    @property
    def __cuda_array_interface__(self):
        if self._view.device == kHostDevice:
            raise AttributeError("a host (cpu) npgpu.Array has no __cuda_array_interface__; use "
                                 "__array_interface__, DLPack or .to_device('cuda')")
        return {
            "shape": self.shape,
            "typestr": self._dtype.str,
            "descr": [("", self._dtype.str)],
            "data": (<uintptr_t>self._view.data, bool(self._view.readonly)),
            "strides": None if self._view.is_c_contiguous() else self.strides,
            "version": 3,
            "stream": stream_to_cai(self.stream),
        }

    def __dlpack_device__(self):
        if self._view.device == kHostDevice:
            return (kDLCPU, 0)
        return (kDLCUDA, self._view.device)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """Export as a DLPack capsule. The consumer's `stream` waits for the work that produced this array.

        ``dl_device=(kDLCPU, 0)`` exports a GPU array's host copy (unless ``copy=False``). The capsule keeps
        this array (or the copy) alive until the consumer's deleter runs.

        Parameters
        ----------
        stream : int, optional
            The consumer's stream, for a GPU array: None means the legacy default stream (as 1), 2 the
            per-thread default stream, -1 no synchronisation; other values are stream handles. Ignored for
            a host array.
        max_version : tuple of int, optional
            The highest DLPack version the consumer takes: (1, 0) or later gives a versioned capsule
            ("dltensor_versioned", carrying the read-only flag), otherwise a legacy "dltensor" capsule.
        dl_device : tuple of int, optional
            The (device type, device id) to export to; by default the array's own (``__dlpack_device__``).
        copy : bool, optional
            True exports a copy; False forbids one (an error if `dl_device` needs one); None copies only
            for a GPU array exported to the host.

        Returns
        -------
        PyCapsule
            The DLPack capsule.

        Raises
        ------
        BufferError
            `dl_device` is another device than the array's and not the host, or the host with ``copy=False``.

        Examples
        --------
        >>> a = npgpu.asarray([1.0, 2.0], device="cpu")
        >>> np.from_dlpack(a)
        array([1., 2.])
        """
        versioned = max_version is not None and tuple(max_version) >= (1, 0)
        own = self.__dlpack_device__()
        if dl_device is not None and tuple(dl_device) != own:
            if tuple(dl_device) == (kDLCPU, 0) and copy is not False:
                return _export_dlpack(self.to_device("cpu"), versioned, True)
            raise BufferError(f"npgpu cannot export an array on {self.device} to DLPack device "
                              f"{tuple(dl_device)}" + (" without a copy" if copy is False else ""))
        if self._view.device == kHostDevice:
            return _export_dlpack(self.copy() if copy else self, versioned, bool(copy))
        cdef Array src = self.copy() if copy else self
        cdef StreamHandle consumer
        if stream != -1:
            # DLPack: None means the legacy default stream for CUDA; 1 legacy, 2 per-thread.
            consumer = resolve_stream(1 if stream is None else stream)
            rt.activate_device(src._view.device)
            rt.stream_wait_stream(consumer, src.stream)
        return _export_dlpack(src, versioned, bool(copy))

    # -- operators (the operations themselves live in their families' modules; see _binary_operator)
    def __add__(self, other):
        return _binary_operator("add", self, other)

    def __radd__(self, other):
        return _binary_operator("add", other, self)

    def __iadd__(self, other):
        return _ops["add"](self, other, out=self)

    def __sub__(self, other):
        return _binary_operator("subtract", self, other)

    def __rsub__(self, other):
        return _binary_operator("subtract", other, self)

    def __isub__(self, other):
        return _ops["subtract"](self, other, out=self)

    def __mul__(self, other):
        return _binary_operator("multiply", self, other)

    def __rmul__(self, other):
        return _binary_operator("multiply", other, self)

    def __imul__(self, other):
        return _ops["multiply"](self, other, out=self)

    def __truediv__(self, other):
        return _binary_operator("true_divide", self, other)

    def __rtruediv__(self, other):
        return _binary_operator("true_divide", other, self)

    def __itruediv__(self, other):
        return _ops["true_divide"](self, other, out=self)

    def __floordiv__(self, other):
        return _binary_operator("floor_divide", self, other)

    def __rfloordiv__(self, other):
        return _binary_operator("floor_divide", other, self)

    def __ifloordiv__(self, other):
        return _ops["floor_divide"](self, other, out=self)

    def __mod__(self, other):
        return _binary_operator("remainder", self, other)

    def __rmod__(self, other):
        return _binary_operator("remainder", other, self)

    def __imod__(self, other):
        return _ops["remainder"](self, other, out=self)

    def __pow__(self, other, mod=None):
        if mod is not None:
            return NotImplemented
        return _binary_operator("power", self, other)

    def __rpow__(self, other, mod=None):
        if mod is not None:
            return NotImplemented
        return _binary_operator("power", other, self)

    def __ipow__(self, other):
        return _ops["power"](self, other, out=self)

    def __and__(self, other):
        return _binary_operator("bitwise_and", self, other)

    def __rand__(self, other):
        return _binary_operator("bitwise_and", other, self)

    def __iand__(self, other):
        return _ops["bitwise_and"](self, other, out=self)

    def __or__(self, other):
        return _binary_operator("bitwise_or", self, other)

    def __ror__(self, other):
        return _binary_operator("bitwise_or", other, self)

    def __ior__(self, other):
        return _ops["bitwise_or"](self, other, out=self)

    def __xor__(self, other):
        return _binary_operator("bitwise_xor", self, other)

    def __rxor__(self, other):
        return _binary_operator("bitwise_xor", other, self)

    def __ixor__(self, other):
        return _ops["bitwise_xor"](self, other, out=self)

    def __lshift__(self, other):
        return _binary_operator("left_shift", self, other)

    def __rlshift__(self, other):
        return _binary_operator("left_shift", other, self)

    def __ilshift__(self, other):
        return _ops["left_shift"](self, other, out=self)

    def __rshift__(self, other):
        return _binary_operator("right_shift", self, other)

    def __rrshift__(self, other):
        return _binary_operator("right_shift", other, self)

    def __irshift__(self, other):
        return _ops["right_shift"](self, other, out=self)

    def __eq__(self, other):
        return _binary_operator("equal", self, other)

    def __ne__(self, other):
        return _binary_operator("not_equal", self, other)

    def __lt__(self, other):
        return _binary_operator("less", self, other)

    def __le__(self, other):
        return _binary_operator("less_equal", self, other)

    def __gt__(self, other):
        return _binary_operator("greater", self, other)

    def __ge__(self, other):
        return _binary_operator("greater_equal", self, other)

    __hash__ = None  # mutable, and == is elementwise (as numpy.ndarray)

    def __neg__(self):
        return _ops["negative"](self)

    def __pos__(self):
        return _ops["positive"](self)

    def __abs__(self):
        return _ops["absolute"](self)

    def __invert__(self):
        return _ops["invert"](self)

    def __bool__(self):
        if self._view.size() != 1:
            raise ValueError("The truth value of an array with more than one element is ambiguous. "
                             "Use a.any() or a.all()")
        return bool(self.get().reshape(()))

    def __float__(self):
        return float(self._scalar_value())

    def __int__(self):
        return int(self._scalar_value())

    def __complex__(self):
        return complex(self._scalar_value())

    def __index__(self):
        if self._dtype.kind not in "iub":
            raise TypeError("only integer arrays can be converted to an index")
        return int(self._scalar_value())

    def _scalar_value(self):
        if self._view.size() != 1:
            raise TypeError("only arrays of one element can be converted to Python scalars")
        return self.get().reshape(())[()]

    def __matmul__(self, other):
        # NumPy's rule (NEP 13): an operand with __array_ufunc__ = None (npgpu.sparse's matrices) takes over.
        if getattr(type(other), "__array_ufunc__", 0) is None:
            return NotImplemented
        return _ops["matmul"](self, other)

    def __rmatmul__(self, other):
        return _ops["matmul"](other, self)

    def __imatmul__(self, other):
        return _ops["matmul"](self, other, out=self)

    # -- methods whose operations live in other families' modules (reductions, scans, products)
    def sum(self, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
        """The sum of the elements over the given axes: ``npgpu.sum(self, ...)``, as numpy.ndarray.sum.

        Parameters
        ----------
        axis : None, int or tuple of ints, optional
            The axes to sum over; by default all of them.
        dtype : dtype, optional
            The dtype of the accumulation and of the result (by default npgpu.sum's: integer and bool
            inputs sum in 64 bits).
        out : npgpu.Array, optional
            An array of the result's shape to write the result into.
        keepdims : bool, optional
            Keep the summed axes, with length 1.
        initial : scalar, optional
            The value the reduction starts from (NumPy's `initial`); None (default): none.
        where : array_like of bool, optional
            The elements to include, broadcast to the array's shape (NumPy's `where`); default: all.

        Returns
        -------
        npgpu.Array
            The sums (a 0-d array for a full reduction), or `out`.

        See Also
        --------
        npgpu.sum : the function, with the dtype and accuracy rules.

        Examples
        --------
        >>> a = npgpu.asarray([[1, 2, 3], [4, 5, 6]], device="cpu")
        >>> int(a.sum())
        21
        >>> a.sum(axis=0)
        Array([5, 7, 9])
        """
        return _ops["sum"](self, axis=axis, dtype=dtype, out=out, keepdims=keepdims, initial=initial, where=where)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
        """The product of the elements over the given axes: ``npgpu.prod(self, ...)``, as numpy.ndarray.prod.

        Parameters
        ----------
        axis : None, int or tuple of ints, optional
            The axes to multiply over; by default all of them.
        dtype : dtype, optional
            The dtype of the accumulation and of the result.
        out : npgpu.Array, optional
            An array of the result's shape to write the result into.
        keepdims : bool, optional
            Keep the reduced axes, with length 1.
        initial : scalar, optional
            The value the reduction starts from (NumPy's `initial`); None (default): none.
        where : array_like of bool, optional
            The elements to include, broadcast to the array's shape (NumPy's `where`); default: all.

        Returns
        -------
        npgpu.Array
            The products (a 0-d array for a full reduction), or `out`.

        See Also
        --------
        npgpu.prod

        Examples
        --------
        >>> a = npgpu.asarray([[1, 2, 3], [4, 5, 6]], device="cpu")
        >>> a.prod(axis=1)
        Array([  6, 120])
        """
        return _ops["prod"](self, axis=axis, dtype=dtype, out=out, keepdims=keepdims, initial=initial,
                            where=where)

    def min(self, axis=None, out=None, keepdims=False, initial=None, where=True):
        """The minimum over the given axes: ``npgpu.min(self, ...)``, as numpy.ndarray.min.

        Parameters
        ----------
        axis : None, int or tuple of ints, optional
            The axes to reduce; by default all of them.
        out : npgpu.Array, optional
            An array of the result's shape to write the result into.
        keepdims : bool, optional
            Keep the reduced axes, with length 1.
        initial : scalar, optional
            The value the reduction starts from (NumPy's `initial`); None (default): none.
        where : array_like of bool, optional
            The elements to include, broadcast to the array's shape (NumPy's `where`); default: all.

        Returns
        -------
        npgpu.Array
            The minima (NaN where an element is NaN; a 0-d array for a full reduction), or `out`.

        Raises
        ------
        ValueError
            The reduction is empty.

        See Also
        --------
        npgpu.min, max, argmin

        Examples
        --------
        >>> a = npgpu.asarray([[3, 1, 2], [0, 5, 4]], device="cpu")
        >>> a.min(axis=1)
        Array([1, 0])
        """
        return _ops["min"](self, axis=axis, out=out, keepdims=keepdims, initial=initial, where=where)

    def max(self, axis=None, out=None, keepdims=False, initial=None, where=True):
        """The maximum over the given axes: ``npgpu.max(self, ...)``, as numpy.ndarray.max.

        Parameters
        ----------
        axis : None, int or tuple of ints, optional
            The axes to reduce; by default all of them.
        out : npgpu.Array, optional
            An array of the result's shape to write the result into.
        keepdims : bool, optional
            Keep the reduced axes, with length 1.
        initial : scalar, optional
            The value the reduction starts from (NumPy's `initial`); None (default): none.
        where : array_like of bool, optional
            The elements to include, broadcast to the array's shape (NumPy's `where`); default: all.

        Returns
        -------
        npgpu.Array
            The maxima (NaN where an element is NaN; a 0-d array for a full reduction), or `out`.

        Raises
        ------
        ValueError
            The reduction is empty.

        See Also
        --------
        npgpu.max, min, argmax

        Examples
        --------
        >>> a = npgpu.asarray([[3, 1, 2], [0, 5, 4]], device="cpu")
        >>> int(a.max())
        5
        >>> a.max(axis=0)
        Array([3, 5, 4])
        """
        return _ops["max"](self, axis=axis, out=out, keepdims=keepdims, initial=initial, where=where)

    def mean(self, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
        """The arithmetic mean over the given axes: ``npgpu.mean(self, ...)``, as numpy.ndarray.mean.

        Parameters
        ----------
        axis : None, int or tuple of ints, optional
            The axes to average over; by default all of them.
        dtype : dtype, optional
            The dtype of the result (by default npgpu.mean's: float64 for integer inputs).
        out : npgpu.Array, optional
            An array of the result's shape to write the result into.
        keepdims : bool, optional
            Keep the reduced axes, with length 1.
        where : array_like of bool, optional
            The elements to include, broadcast to the array's shape (NumPy's `where`); default: all.

        Returns
        -------
        npgpu.Array
            The means (a 0-d array for a full reduction), or `out`.

        See Also
        --------
        npgpu.mean

        Examples
        --------
        >>> a = npgpu.asarray([[1, 2, 3], [4, 5, 6]], device="cpu")
        >>> float(a.mean())
        3.5
        >>> a.mean(axis=1)
        Array([2., 5.])
        """
        return _ops["mean"](self, axis=axis, dtype=dtype, out=out, keepdims=keepdims, where=where)

    def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, correction=None, where=True,
            mean=None):
        """The variance over the given axes: ``npgpu.var(self, ...)``, as numpy.ndarray.var.

        Parameters
        ----------
        axis : None, int or tuple of ints, optional
            The axes to reduce; by default all of them.
        dtype : dtype, optional
            The dtype of the result.
        out : npgpu.Array, optional
            An array of the result's shape to write the result into.
        ddof : int, optional
            The divisor is ``n - ddof`` (default 0).
        keepdims : bool, optional
            Keep the reduced axes, with length 1.
        correction : int, optional
            The Array API standard's name for `ddof`; give one of the two.
        where : array_like of bool, optional
            The elements to include, broadcast to the array's shape (NumPy's `where`); default: all.
        mean : array_like, optional
            The mean to measure from, shaped as the mean with ``keepdims=True`` (NumPy's `mean`).

        Returns
        -------
        npgpu.Array
            The variances (a 0-d array for a full reduction), or `out`.

        Raises
        ------
        ValueError
            Both `ddof` and `correction` are given.

        See Also
        --------
        npgpu.var, std

        Examples
        --------
        >>> a = npgpu.asarray([1.0, 2.0, 3.0, 4.0], device="cpu")
        >>> float(a.var())
        1.25
        >>> float(a.var(ddof=1))
        1.6666666666666667
        """
        return _ops["var"](self, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims,
                           correction=correction, where=where, mean=mean)

    def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, correction=None, where=True,
            mean=None):
        """The standard deviation over the given axes: ``npgpu.std(self, ...)``, as numpy.ndarray.std.

        The square root of the variance (see :meth:`var`).

        Parameters
        ----------
        axis : None, int or tuple of ints, optional
            The axes to reduce; by default all of them.
        dtype : dtype, optional
            The dtype of the result.
        out : npgpu.Array, optional
            An array of the result's shape to write the result into.
        ddof : int, optional
            The variance's divisor is ``n - ddof`` (default 0).
        keepdims : bool, optional
            Keep the reduced axes, with length 1.
        correction : int, optional
            The Array API standard's name for `ddof`; give one of the two.
        where : array_like of bool, optional
            The elements to include, broadcast to the array's shape (NumPy's `where`); default: all.
        mean : array_like, optional
            The mean to measure from, shaped as the mean with ``keepdims=True`` (NumPy's `mean`).

        Returns
        -------
        npgpu.Array
            The standard deviations (a 0-d array for a full reduction), or `out`.

        Raises
        ------
        ValueError
            Both `ddof` and `correction` are given.

        See Also
        --------
        npgpu.std, var

        Examples
        --------
        >>> a = npgpu.asarray([1.0, 3.0], device="cpu")
        >>> float(a.std())
        1.0
        """
        return _ops["std"](self, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims,
                           correction=correction, where=where, mean=mean)

    def sort(self, axis=-1, kind=None, order=None, *, stable=None, descending=False):
        """Sort in place along `axis`, as numpy.ndarray.sort (stable; NaNs last; see npgpu.sort).

        The sorted copy ``npgpu.sort(self, ...)`` is written back into this array.

        Parameters
        ----------
        axis : int, optional
            The axis to sort along (default -1, the last).
        kind : str, optional
            Accepted for NumPy's sake ("quicksort", "stable", ...): every kind gives the stable order.
        order : None
            NumPy's field order; npgpu arrays have no fields, so it must be None.
        stable : bool, optional
            The Array API standard's keyword; accepted, the sort is always stable.
        descending : bool, optional
            Sort in descending order (NaNs still last).

        Raises
        ------
        ValueError
            The array is read-only, `kind` is not one of NumPy's, or `order` is given.
        numpy.exceptions.AxisError
            `axis` is out of range.

        See Also
        --------
        argsort, npgpu.sort

        Examples
        --------
        >>> a = npgpu.asarray([3.0, np.nan, 1.0, 2.0], device="cpu")
        >>> a.sort()
        >>> a
        Array([ 1.,  2.,  3., nan])
        >>> a.sort(descending=True)
        >>> a
        Array([ 3.,  2.,  1., nan])
        """
        self[...] = _ops["sort"](self, axis=axis, kind=kind, order=order, stable=stable, descending=descending)

    def argsort(self, axis=-1, kind=None, order=None, *, stable=None, descending=False):
        """The int64 positions that sort this array along `axis` (see npgpu.argsort).

        Parameters
        ----------
        axis : int or None, optional
            The axis to sort along (default -1, the last); None sorts the flattened array.
        kind : str, optional
            Accepted for NumPy's sake: every kind gives the stable order.
        order : None
            NumPy's field order; npgpu arrays have no fields, so it must be None.
        stable : bool, optional
            The Array API standard's keyword; accepted, the sort is always stable.
        descending : bool, optional
            Positions for descending order (equal elements keep their order, NaNs still last).

        Returns
        -------
        npgpu.Array
            int64 indices, of this array's shape (1-d for ``axis=None``).

        Raises
        ------
        ValueError
            `kind` is not one of NumPy's, or `order` is given.
        numpy.exceptions.AxisError
            `axis` is out of range.

        See Also
        --------
        sort, npgpu.argsort

        Examples
        --------
        >>> a = npgpu.asarray([3.0, np.nan, 1.0, 2.0], device="cpu")
        >>> a.argsort()
        Array([2, 3, 0, 1])
        >>> a.argsort(descending=True)
        Array([0, 3, 2, 1])
        """
        return _ops["argsort"](self, axis=axis, kind=kind, order=order, stable=stable, descending=descending)

    def argmin(self, axis=None, out=None, keepdims=False):
        """The index of the first minimum: ``npgpu.argmin(self, ...)``, as numpy.ndarray.argmin.

        Parameters
        ----------
        axis : int, optional
            The axis to search along; by default the flattened array (the index is then a flat one).
        out : npgpu.Array, optional
            An array of the result's shape to write the result into.
        keepdims : bool, optional
            Keep the reduced axis, with length 1.

        Returns
        -------
        npgpu.Array
            int64 indices (of the first NaN where there is one; a 0-d array when `axis` is None), or `out`.

        Raises
        ------
        ValueError
            The array (or the axis) is empty.
        numpy.exceptions.AxisError
            `axis` is out of range.

        See Also
        --------
        npgpu.argmin, min

        Examples
        --------
        >>> a = npgpu.asarray([[3, 1, 2], [0, 5, 4]], device="cpu")
        >>> int(a.argmin())
        3
        >>> a.argmin(axis=0)
        Array([1, 0, 0])
        """
        return _ops["argmin"](self, axis=axis, out=out, keepdims=keepdims)

    def argmax(self, axis=None, out=None, keepdims=False):
        """The index of the first maximum: ``npgpu.argmax(self, ...)``, as numpy.ndarray.argmax.

        Parameters
        ----------
        axis : int, optional
            The axis to search along; by default the flattened array (the index is then a flat one).
        out : npgpu.Array, optional
            An array of the result's shape to write the result into.
        keepdims : bool, optional
            Keep the reduced axis, with length 1.

        Returns
        -------
        npgpu.Array
            int64 indices (of the first NaN where there is one; a 0-d array when `axis` is None), or `out`.

        Raises
        ------
        ValueError
            The array (or the axis) is empty.
        numpy.exceptions.AxisError
            `axis` is out of range.

        See Also
        --------
        npgpu.argmax, max

        Examples
        --------
        >>> a = npgpu.asarray([[3, 1, 2], [0, 5, 4]], device="cpu")
        >>> int(a.argmax())
        4
        >>> a.argmax(axis=1)
        Array([0, 1])
        """
        return _ops["argmax"](self, axis=axis, out=out, keepdims=keepdims)

    def any(self, axis=None, out=None, keepdims=False, *, where=True):
        """Whether any element is nonzero (NaN counts), over the given axes: ``npgpu.any(self, ...)``.

        Parameters
        ----------
        axis : None, int or tuple of ints, optional
            The axes to reduce; by default all of them.
        out : npgpu.Array, optional
            An array of the result's shape to write the result into.
        keepdims : bool, optional
            Keep the reduced axes, with length 1.
        where : array_like of bool, optional
            The elements to include, broadcast to the array's shape (NumPy's `where`); default: all.

        Returns
        -------
        npgpu.Array
            bool values (a 0-d array for a full reduction; False for an empty one), or `out`.

        See Also
        --------
        all, npgpu.any

        Examples
        --------
        >>> a = npgpu.asarray([[True, False], [False, False]], device="cpu")
        >>> bool(a.any())
        True
        >>> a.any(axis=1)
        Array([ True, False])
        """
        return _ops["any"](self, axis=axis, out=out, keepdims=keepdims, where=where)

    def all(self, axis=None, out=None, keepdims=False, *, where=True):
        """Whether every element is nonzero, over the given axes: ``npgpu.all(self, ...)``.

        Parameters
        ----------
        axis : None, int or tuple of ints, optional
            The axes to reduce; by default all of them.
        out : npgpu.Array, optional
            An array of the result's shape to write the result into.
        keepdims : bool, optional
            Keep the reduced axes, with length 1.
        where : array_like of bool, optional
            The elements to include, broadcast to the array's shape (NumPy's `where`); default: all.

        Returns
        -------
        npgpu.Array
            bool values (a 0-d array for a full reduction; True for an empty one), or `out`.

        See Also
        --------
        any, npgpu.all

        Examples
        --------
        >>> a = npgpu.asarray([[1, 2], [0, 3]], device="cpu")
        >>> bool(a.all())
        False
        >>> a.all(axis=1)
        Array([ True, False])
        """
        return _ops["all"](self, axis=axis, out=out, keepdims=keepdims, where=where)

    def cumsum(self, axis=None, dtype=None, out=None):
        """The cumulative sum along `axis`: ``npgpu.cumsum(self, ...)``, as numpy.ndarray.cumsum.

        Parameters
        ----------
        axis : int, optional
            The axis to scan along; by default the flattened array.
        dtype : dtype, optional
            The dtype of the result (by default NumPy's result dtype).
        out : npgpu.Array, optional
            An array of the result's shape to write the result into.

        Returns
        -------
        npgpu.Array
            The running sums (1-d when `axis` is None), or `out`.

        See Also
        --------
        cumprod, npgpu.cumsum

        Examples
        --------
        >>> a = npgpu.asarray([[1, 2], [3, 4]], device="cpu")
        >>> a.cumsum()
        Array([ 1,  3,  6, 10])
        >>> a.cumsum(axis=0)
        Array([[1, 2],
               [4, 6]])
        """
        return _ops["cumsum"](self, axis=axis, dtype=dtype, out=out)

    def cumprod(self, axis=None, dtype=None, out=None):
        """The cumulative product along `axis`: ``npgpu.cumprod(self, ...)``, as numpy.ndarray.cumprod.

        Parameters
        ----------
        axis : int, optional
            The axis to scan along; by default the flattened array.
        dtype : dtype, optional
            The dtype of the result (by default NumPy's result dtype).
        out : npgpu.Array, optional
            An array of the result's shape to write the result into.

        Returns
        -------
        npgpu.Array
            The running products (1-d when `axis` is None), or `out`.

        See Also
        --------
        cumsum, npgpu.cumprod

        Examples
        --------
        >>> a = npgpu.asarray([[1, 2], [3, 4]], device="cpu")
        >>> a.cumprod()
        Array([ 1,  2,  6, 24])
        """
        return _ops["cumprod"](self, axis=axis, dtype=dtype, out=out)

    def dot(self, b, out=None):
        """The dot product with `b`: ``npgpu.dot(self, b, out=out)``, as numpy.ndarray.dot.

        Parameters
        ----------
        b : npgpu.Array or scalar
            The other operand, on this array's device; a Python or NumPy scalar (or a 0-d array) gives the
            product with that scalar (a scalar becomes a 0-d array of its NumPy dtype, as NumPy's dot).
        out : npgpu.Array, optional
            An array of the result's shape to write the result into (see npgpu.dot for what it must be).

        Returns
        -------
        npgpu.Array
            The product (a 0-d array for two 1-d arrays), or `out`.

        Raises
        ------
        ValueError
            The shapes are not aligned.
        TypeError
            `b` is a NumPy array (npgpu does not move data between devices implicitly).

        See Also
        --------
        npgpu.dot, npgpu.matmul

        Examples
        --------
        >>> a = npgpu.asarray([[1, 2], [3, 4]], device="cpu")
        >>> a.dot(npgpu.asarray([1, 1], device="cpu"))
        Array([3, 7])
        >>> int(npgpu.asarray([1, 2, 3], device="cpu").dot(npgpu.asarray([4, 5, 6], device="cpu")))
        32
        >>> npgpu.asarray([1, 2], device="cpu").dot(2.5)
        Array([2.5, 5. ])
        """
        return _ops["dot"](self, b, out=out)

    # numpy.ndarray's remaining methods, each a call of the namespace function of the same name (registered
    # in _ops by npgpu/__init__.py), or for the host conversions a copy to the host.

    def tolist(self):
        """The elements as nested Python lists of Python scalars (one copy to the host), as numpy.ndarray.tolist.

        Returns
        -------
        list or scalar
            Nested lists, ``ndim`` deep; a Python scalar for a 0-d array.

        See Also
        --------
        item, get

        Examples
        --------
        >>> npgpu.asarray([[1, 2], [3, 4]], device="cpu").tolist()
        [[1, 2], [3, 4]]
        """
        return self.get().tolist()

    def item(self, *args):
        """One element as a Python scalar, as numpy.ndarray.item: only that element is copied to the host.

        Parameters
        ----------
        *args : none, one int (a flat, C-order index) or one int per axis
            Which element; none for an array of one element.

        Returns
        -------
        bool, int, float or complex

        Raises
        ------
        ValueError
            No index for an array of more than one element, or the wrong number of indices.
        IndexError
            An index out of range.

        See Also
        --------
        tolist

        Examples
        --------
        >>> a = npgpu.asarray([[1.5, 2.5], [3.5, 4.5]], device="cpu")
        >>> a.item(3), a.item(0, 1), npgpu.asarray([7], device="cpu").item()
        (4.5, 2.5, 7)
        """
        if len(args) == 1 and isinstance(args[0], tuple):
            args = args[0]
        if not args:
            if self.size != 1:
                raise ValueError("can only convert an array of size 1 to a Python scalar")
            return self.reshape(()).get().item()
        if len(args) == 1:
            flat = operator.index(args[0])
            if not -self.size <= flat < self.size:
                raise IndexError(f"index {flat} is out of bounds for size {self.size}")
            args = np.unravel_index(flat % self.size, self.shape)
        elif len(args) != self.ndim:
            raise ValueError(f"incorrect number of indices for array: {len(args)} for {self.ndim} dimensions")
        return self[tuple(int(a) for a in args)].get().item()

    def fill(self, value):
        """Set every element to the scalar `value` (cast to this array's dtype), as numpy.ndarray.fill.

        Parameters
        ----------
        value : scalar
            The value.

        Raises
        ------
        ValueError
            The array is read-only.

        Examples
        --------
        >>> a = npgpu.zeros(3, device="cpu")
        >>> a.fill(2.5)
        >>> a
        Array([2.5, 2.5, 2.5])
        """
        self[...] = value

    def round(self, decimals=0, out=None):
        """Round to `decimals` decimals: ``npgpu.round(self, decimals, out)``, as numpy.ndarray.round.

        Examples
        --------
        >>> npgpu.asarray([1.234, 5.678], device="cpu").round(1)
        Array([1.2, 5.7])
        """
        return _ops["round"](self, decimals, out=out)

    def clip(self, min=None, max=None, out=None, **kwargs):
        """Limit the values to [min, max]: ``npgpu.clip(self, min, max, out=out)``, as numpy.ndarray.clip.

        Examples
        --------
        >>> npgpu.asarray([-1.0, 0.5, 2.0], device="cpu").clip(0, 1)
        Array([0. , 0.5, 1. ])
        """
        return _ops["clip"](self, min, max, out=out, **kwargs)

    def repeat(self, repeats, axis=None):
        """Repeat each element: ``npgpu.repeat(self, repeats, axis)``, as numpy.ndarray.repeat.

        Examples
        --------
        >>> npgpu.asarray([1, 2], device="cpu").repeat(2)
        Array([1, 1, 2, 2])
        """
        return _ops["repeat"](self, repeats, axis=axis)

    def take(self, indices, axis=None, out=None, mode="raise"):
        """Elements at `indices`: ``npgpu.take(self, indices, axis, out, mode)``, as numpy.ndarray.take.

        Examples
        --------
        >>> npgpu.asarray([10, 20, 30], device="cpu").take(npgpu.asarray([2, 0], device="cpu"))
        Array([30, 10])
        """
        return _ops["take"](self, indices, axis=axis, out=out, mode=mode)

    def put(self, indices, values, mode="raise"):
        """Write `values` at the flat `indices`: ``npgpu.put(self, indices, values, mode)``, as
        numpy.ndarray.put.

        Examples
        --------
        >>> a = npgpu.zeros(4, device="cpu")
        >>> a.put(npgpu.asarray([0, 3], device="cpu"), 9.0)
        >>> a
        Array([9., 0., 0., 9.])
        """
        _ops["put"](self, indices, values, mode=mode)

    def nonzero(self):
        """The indices of the non-zero elements, one array per axis: ``npgpu.nonzero(self)``, as
        numpy.ndarray.nonzero.

        Examples
        --------
        >>> npgpu.asarray([0, 3, 0, 4], device="cpu").nonzero()
        (Array([1, 3]),)
        """
        return _ops["nonzero"](self)

    def compress(self, condition, axis=None, out=None):
        """The slices along `axis` where `condition` is true: ``npgpu.compress(condition, self, axis, out)``,
        as numpy.ndarray.compress.

        Examples
        --------
        >>> npgpu.asarray([1, 2, 3], device="cpu").compress(npgpu.asarray([True, False, True], device="cpu"))
        Array([1, 3])
        """
        return _ops["compress"](condition, self, axis=axis, out=out)

    def choose(self, choices, out=None, mode="raise"):
        """Pick from `choices` with this array as the index: ``npgpu.choose(self, choices, out, mode)``, as
        numpy.ndarray.choose.

        Examples
        --------
        >>> idx = npgpu.asarray([0, 1, 0], device="cpu")
        >>> idx.choose([npgpu.asarray([1, 2, 3], device="cpu"), npgpu.asarray([10, 20, 30], device="cpu")])
        Array([ 1, 20,  3])
        """
        return _ops["choose"](self, choices, out=out, mode=mode)

    def diagonal(self, offset=0, axis1=0, axis2=1):
        """The diagonal over `axis1` and `axis2`: ``npgpu.diagonal(self, offset, axis1, axis2)``, as
        numpy.ndarray.diagonal.

        Examples
        --------
        >>> npgpu.asarray([[1, 2], [3, 4]], device="cpu").diagonal()
        Array([1, 4])
        """
        return _ops["diagonal"](self, offset=offset, axis1=axis1, axis2=axis2)

    def trace(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
        """The sum of the diagonal: ``npgpu.trace(self, offset, axis1, axis2, dtype, out)``, as
        numpy.ndarray.trace.

        Examples
        --------
        >>> int(npgpu.asarray([[1, 2], [3, 4]], device="cpu").trace())
        5
        """
        return _ops["trace"](self, offset=offset, axis1=axis1, axis2=axis2, dtype=dtype, out=out)

    def searchsorted(self, v, side="left", sorter=None):
        """Where `v` would go to keep this sorted 1-d array sorted: ``npgpu.searchsorted(self, v, side,
        sorter)``, as numpy.ndarray.searchsorted.

        Examples
        --------
        >>> npgpu.asarray([1.0, 2.0, 3.0], device="cpu").searchsorted(npgpu.asarray([2.5], device="cpu"))
        Array([2])
        """
        return _ops["searchsorted"](self, v, side=side, sorter=sorter)

    def partition(self, kth, axis=-1, kind="introselect", order=None):
        """Partition in place around the `kth` element(s) (see npgpu.partition), as numpy.ndarray.partition.

        Raises
        ------
        ValueError
            The array is read-only (and npgpu.partition's own errors).

        Examples
        --------
        >>> a = npgpu.asarray([3, 1, 2], device="cpu")
        >>> a.partition(1)
        >>> int(a[1])
        2
        """
        self[...] = _ops["partition"](self, kth, axis=axis, kind=kind, order=order)

    def argpartition(self, kth, axis=-1, kind="introselect", order=None):
        """The indices that partition this array: ``npgpu.argpartition(self, kth, axis, kind, order)``, as
        numpy.ndarray.argpartition.

        Examples
        --------
        >>> int(npgpu.asarray([3, 1, 2], device="cpu").argpartition(0)[0])
        1
        """
        return _ops["argpartition"](self, kth, axis=axis, kind=kind, order=order)

    def tobytes(self, order="C"):
        """The raw bytes of the elements (one copy to the host), as numpy.ndarray.tobytes.

        Examples
        --------
        >>> npgpu.asarray([1, 2], dtype=np.int16, device="cpu").tobytes()
        b'\\x01\\x00\\x02\\x00'
        """
        return self.get().tobytes(order)

    @property
    def flat(self):
        """The elements in C order, as numpy.ndarray.flat: ``a.flat[key]`` reads by flat position,
        ``a.flat[key] = values`` writes (values repeated cyclically when fewer), ``a.flat = values`` fills the
        whole array so; iterating brings the array to the host once.

        Examples
        --------
        >>> a = npgpu.zeros((2, 3), device="cpu")
        >>> a.flat[[1, 5]] = 7.0
        >>> a
        Array([[0., 7., 0.],
               [0., 0., 7.]])
        >>> a.flat = [1.0, 2.0]
        >>> a.flat[:4]
        Array([1., 2., 1., 2.])
        """
        return _ops["flat"](self)

    @flat.setter
    def flat(self, values):
        _ops["flat"](self)[:] = values

    def byteswap(self, inplace=False):
        """Each item's bytes reversed (each part's for complex), as numpy.ndarray.byteswap.

        Parameters
        ----------
        inplace : bool, optional
            Swap this array's own bytes and return it; default: return a swapped copy.

        Examples
        --------
        >>> npgpu.asarray([1, 256], dtype=np.int16, device="cpu").byteswap()
        Array([256,   1], dtype=int16)
        """
        return _ops["byteswap"](self, inplace)

    def setflags(self, write=None, align=None, uic=None):
        """Make the array read-only (``write=False``), as numpy.ndarray.setflags.

        npgpu arrays are always aligned, so `align` changes nothing. A read-only array cannot be made
        writeable again (``copy()`` gives a writeable one): npgpu does not record whether the memory
        behind it may be written.

        Raises
        ------
        ValueError
            ``write=True`` on a read-only array, or ``uic=True``.
        """
        if uic:
            raise ValueError("cannot set WRITEBACKIFCOPY flag to True")
        if write is None:
            return
        if not write:
            self._view.readonly = True
        elif self._view.readonly:
            raise ValueError("cannot set WRITEABLE flag to True of this array (npgpu cannot make a read-only "
                             "array writeable again; a.copy() is writeable)")

    def dumps(self):
        """The array pickled (bytes), as numpy.ndarray.dumps; ``pickle.loads`` gives it back as an npgpu.Array
        (on the same GPU where it exists, else on the host).

        Examples
        --------
        >>> import pickle
        >>> pickle.loads(npgpu.asarray([1.5, 2.5], device="cpu").dumps())
        Array([1.5, 2.5])
        """
        import pickle
        return pickle.dumps(self, protocol=2)

    def dump(self, file):
        """Pickle the array into `file` (a path or a binary file object), as numpy.ndarray.dump.

        Examples
        --------
        >>> import os, pickle, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "a.pkl")
        >>> npgpu.asarray([1, 2], device="cpu").dump(path)
        >>> with open(path, "rb") as f:
        ...     pickle.load(f)
        Array([1, 2])
        """
        import os
        import pickle
        if isinstance(file, (str, bytes, os.PathLike)):
            with open(file, "wb") as f:
                pickle.dump(self, f, protocol=2)
        else:
            pickle.dump(self, file, protocol=2)

    def tofile(self, fid, sep="", format="%s"):
        """Write the elements to a file (one copy to the host), as numpy.ndarray.tofile; read it back with
        npgpu.fromfile.

        Examples
        --------
        >>> import io, os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "a.bin")
        >>> npgpu.asarray([1.5, 2.5], device="cpu").tofile(path)
        >>> npgpu.fromfile(path, device="cpu")
        Array([1.5, 2.5])
        """
        self.get().tofile(fid, sep, format)

    def __contains__(self, value):
        return bool(_ops["any"](_ops["equal"](self, value)))

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __divmod__(self, other):
        return _ops["divmod"](self, other)

    def __rdivmod__(self, other):
        return _ops["divmod"](other, self)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        # The common call, operands and at most one out=, goes straight to the compiled function; NumPy's
        # other keywords and ufunc methods (reduce, accumulate, outer, at, ...) and np.matmul go through
        # npgpu's ufunc objects (npgpu._ufuncs registers them as "array_ufunc").
        out = kwargs.get("out")
        if method == "__call__" and len(kwargs) == (out is not None) and (out is None or len(out) == 1):
            fn = _ops.get(ufunc.__name__)
            if fn is not None:
                return fn(*inputs) if out is None else fn(*inputs, out=out[0])
        hook = _ops.get("array_ufunc")
        return NotImplemented if hook is None else hook(ufunc, method, inputs, kwargs)


# ------------------------------------------------------------------------------------------------ views

cdef int _normalize_axis(object axis, int ndim) except -1:
    a = operator.index(axis)
    if a < -ndim or a >= ndim:
        from numpy.exceptions import AxisError
        raise AxisError(a, ndim)
    return a + ndim if a < 0 else a


def _resolve_reshape(int64_t size, tuple shape):
    unknown = [i for i, d in enumerate(shape) if d == -1]
    if len(unknown) > 1:
        raise ValueError("can only specify one unknown dimension")
    if any(d < -1 for d in shape):
        raise ValueError(f"negative dimensions not allowed in {shape}")
    known = 1
    for d in shape:
        if d != -1:
            known *= d
    if unknown:
        if known == 0 or size % known:
            raise ValueError(f"cannot reshape array of size {size} into shape {shape}")
        shape = tuple(size // known if d == -1 else d for d in shape)
    elif known != size:
        raise ValueError(f"cannot reshape array of size {size} into shape {shape}")
    return shape


cdef bint _is_advanced_key(object key):
    """Whether `key` holds an index array, a list or a boolean: NumPy's advanced indexing."""
    if isinstance(key, tuple):
        for k in key:
            if isinstance(k, (Array, np.ndarray, list, bool, np.bool_)):
                return True
        return False
    return isinstance(key, (Array, np.ndarray, list, bool, np.bool_))


cdef int _index_view(const ArrayView& src, object key, ArrayView* out) except -1:
    """out = src[key] for basic indexing: integers, slices, Ellipsis and None (newaxis)."""
    if not isinstance(key, tuple):
        key = (key,)
    n_real = 0
    for k in key:
        if k is None or k is Ellipsis:
            continue
        n_real += 1
    if sum(1 for k in key if k is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if n_real > src.ndim:
        raise IndexError(f"too many indices for array: array is {src.ndim}-dimensional, but {n_real} were "
                         f"indexed")
    cdef ArrayView v = src
    cdef int d = 0       # next source dimension
    cdef int nd = 0      # output dimensions so far
    cdef int64_t offset = 0
    cdef int64_t n, start, stop, step, length
    for k in key:
        if k is Ellipsis:
            for _ in range(src.ndim - n_real):
                v.shape[nd] = src.shape[d]
                v.strides[nd] = src.strides[d]
                nd += 1
                d += 1
            n_real = src.ndim  # the ellipsis has consumed what it stands for
            continue
        if nd >= 32:
            raise IndexError("npgpu supports at most 32 dimensions")
        if k is None:
            v.shape[nd] = 1
            v.strides[nd] = 0
            nd += 1
            continue
        n = src.shape[d]
        if isinstance(k, slice):
            start, stop, step = k.indices(n)
            length = len(range(start, stop, step))
            offset += start * src.strides[d] if length else 0
            v.shape[nd] = length
            v.strides[nd] = src.strides[d] * step
            nd += 1
            d += 1
            continue
        try:
            i = operator.index(k)
        except TypeError:
            raise IndexError(f"only integers, slices (`:`), ellipsis (`...`) and None are valid indices, "
                             f"not {type(k).__name__}") from None
        if i < -n or i >= n:
            raise IndexError(f"index {i} is out of bounds for axis {d} with size {n}")
        offset += (i + n if i < 0 else i) * src.strides[d]
        d += 1
    while d < src.ndim:  # the dimensions left unindexed
        v.shape[nd] = src.shape[d]
        v.strides[nd] = src.strides[d]
        nd += 1
        d += 1
    v.ndim = nd
    v.data = <void*>(<char*>src.data + offset)
    out[0] = v
    return 0


cdef ArrayView _broadcast_to(const ArrayView& v, tuple shape, str message) except *:
    """v seen with `shape` (NumPy broadcasting: new leading dimensions and extent-1 dimensions step 0)."""
    cdef ArrayView r = v
    cdef int nd = len(shape)
    cdef int lead = nd - v.ndim
    if lead < 0:
        raise ValueError(message)
    r.ndim = nd
    for i in range(nd):
        r.shape[i] = shape[i]
        if i < lead:
            r.strides[i] = 0
        elif v.shape[i - lead] == 1:
            r.strides[i] = 0
        elif v.shape[i - lead] == shape[i]:
            r.strides[i] = v.strides[i - lead]
        else:
            raise ValueError(message)
    return r


cdef Extent _extent(const ArrayView& v) noexcept nogil:
    """[lo, hi) byte range the view touches."""
    cdef Extent e
    e.lo = <int64_t><uintptr_t>v.data
    e.hi = e.lo
    for i in range(v.ndim):
        if v.shape[i] == 0:
            return e
        if v.strides[i] > 0:
            e.hi += v.strides[i] * (v.shape[i] - 1)
        else:
            e.lo += v.strides[i] * (v.shape[i] - 1)
    e.hi += itemsize(v.dtype)
    return e


cdef bint _views_overlap(const ArrayView& a, const ArrayView& b) noexcept nogil:
    cdef Extent ea = _extent(a), eb = _extent(b)
    return ea.lo < eb.hi and eb.lo < ea.hi


# ------------------------------------------------------------------------------------------------ creation

def _unpickle(data, device):
    if device != "cpu" and device >= _runtime.device_count():
        device = "cpu"
    return asarray(data, device=device)


def empty(shape, dtype=None, device=None, stream=None, *, order="C"):
    """A new uninitialised array (float64 by default) on `device`.

    Parameters
    ----------
    shape : int or sequence of ints
        The shape.
    dtype : dtype, optional
        The dtype (default float64); one npgpu supports.
    device : str, int or npgpu.Device, optional
        None: the default device (the current GPU, or the host when there is no GPU or the host backend
        is chosen); "cpu", "cuda", "cuda:N", an int, an npgpu.Device.
    stream : npgpu.Stream or int, optional
        The stream a GPU allocation is ordered on (by default the current stream of this thread).
    order : {'C', 'F'}, optional
        Row-major (C, default) or column-major (Fortran) layout.

    Returns
    -------
    npgpu.Array
        A C-contiguous (F-contiguous with ``order='F'``) array whose values are whatever the memory held.

    Raises
    ------
    ValueError
        A dimension is negative, the element count overflows, the shape has more than 32 dimensions,
        `device` is a string npgpu does not know, or `order` is not 'C' or 'F'.
    TypeError
        `shape` is not an int or a sequence of ints, or npgpu does not support the dtype.
    GPUUnavailableError
        `device` names a GPU and this process has none.
    MemoryError
        The memory cannot be allocated (npgpu.OutOfMemoryError, a MemoryError, on a GPU).

    See Also
    --------
    zeros, full, empty_pinned

    Examples
    --------
    >>> a = npgpu.empty((2, 3), device="cpu")
    >>> a.shape, a.dtype
    ((2, 3), dtype('float64'))
    """
    shape = _normalize_shape(shape)
    cdef bint fortran = _fortran_order(order) and len(shape) >= 2
    cdef Array a = new_array(shape[::-1] if fortran else shape, np.dtype(np.float64 if dtype is None else dtype),
                             resolve_array_device(device), resolve_stream(stream))
    return _owning_transpose(a) if fortran else a


cdef bint _fortran_order(order) except -1:
    """Whether a new array's `order` asks for column-major layout (made as the transpose of a row-major one)."""
    if order is None or order == "C":
        return False
    if order == "F":
        return True
    raise ValueError(f"order must be 'C' or 'F' for a new array, not {order!r}")


cdef Array _owning_transpose(Array a):
    """The transpose of a new array, holding its memory itself (as a new Fortran-ordered array: OWNDATA)."""
    cdef Array r = a.transpose()
    r.buf = a.buf
    r.base = a.base
    return r


def zeros(shape, dtype=None, device=None, stream=None, *, order="C"):
    """A new array of zeros (float64 by default) on `device`.

    ``full(shape, 0, dtype, device, stream)``.

    Parameters
    ----------
    shape : int or sequence of ints
        The shape.
    dtype : dtype, optional
        The dtype (default float64); one npgpu supports.
    device : str, int or npgpu.Device, optional
        None: the default device; "cpu", "cuda", "cuda:N", an int, an npgpu.Device (as for :func:`empty`).
    stream : npgpu.Stream or int, optional
        The stream the fill runs on (by default the current stream of this thread).
    order : {'C', 'F'}, optional
        Row-major (C, default) or column-major (Fortran) layout.

    Returns
    -------
    npgpu.Array
        A C-contiguous (F-contiguous with ``order='F'``) array of zeros.

    Raises
    ------
    ValueError
        A dimension is negative, the element count overflows, the shape has more than 32 dimensions,
        `device` is a string npgpu does not know, or `order` is not 'C' or 'F'.
    TypeError
        `shape` is not an int or a sequence of ints, or npgpu does not support the dtype.
    GPUUnavailableError
        `device` names a GPU and this process has none.
    MemoryError
        The memory cannot be allocated (npgpu.OutOfMemoryError, a MemoryError, on a GPU).

    See Also
    --------
    empty, full

    Examples
    --------
    >>> npgpu.zeros(3, device="cpu")
    Array([0., 0., 0.])
    >>> npgpu.zeros((2, 2), dtype=np.int32, device="cpu")
    Array([[0, 0],
           [0, 0]], dtype=int32)
    """
    return full(shape, 0, dtype=np.float64 if dtype is None else dtype, device=device, stream=stream, order=order)


def full(shape, fill_value, dtype=None, device=None, stream=None, *, order="C"):
    """A new array filled with `fill_value` on `device`.

    Parameters
    ----------
    shape : int or sequence of ints
        The shape.
    fill_value : scalar or 0-d npgpu.Array
        The value of every element (a 0-d npgpu.Array is read back to the host first).
    dtype : dtype, optional
        The dtype; when not given, as NumPy's ``full`` picks it: bool, int64, float64 or complex128 for
        Python scalars, a NumPy scalar's own dtype.
    device : str, int or npgpu.Device, optional
        None: the default device; "cpu", "cuda", "cuda:N", an int, an npgpu.Device (as for :func:`empty`).
    stream : npgpu.Stream or int, optional
        The stream the fill runs on (by default the current stream of this thread).
    order : {'C', 'F'}, optional
        Row-major (C, default) or column-major (Fortran) layout.

    Returns
    -------
    npgpu.Array
        A C-contiguous (F-contiguous with ``order='F'``) array of `fill_value` converted to the dtype.

    Raises
    ------
    ValueError
        `fill_value` is not a scalar (a sequence, or an npgpu.Array of one dimension or more); a dimension
        is negative, the element count overflows, the shape has more than 32 dimensions, `device` is a
        string npgpu does not know, or `order` is not 'C' or 'F'.
    TypeError
        `shape` is not an int or a sequence of ints, or npgpu does not support the dtype.
    GPUUnavailableError
        `device` names a GPU and this process has none.
    MemoryError
        The memory cannot be allocated (npgpu.OutOfMemoryError, a MemoryError, on a GPU).

    See Also
    --------
    empty, zeros

    Examples
    --------
    >>> npgpu.full((2, 2), 7, device="cpu")
    Array([[7, 7],
           [7, 7]])
    >>> npgpu.full(3, 0.5, dtype=np.float32, device="cpu")
    Array([0.5, 0.5, 0.5], dtype=float32)
    """
    shape = _normalize_shape(shape)
    if isinstance(fill_value, Array):
        if (<Array>fill_value)._view.ndim != 0:
            raise ValueError("fill_value must be a scalar")
        fill_value = (<Array>fill_value)._scalar_value()
    cdef bint fortran = _fortran_order(order) and len(shape) >= 2
    value, pattern = _fill_pattern(fill_value, dtype)
    cdef StreamHandle s = resolve_stream(stream)
    cdef Array a = new_array(shape[::-1] if fortran else shape, value.dtype, resolve_array_device(device), s)
    cdef int64_t n = a._view.size()
    if n and a._view.device == kHostDevice:
        host_ndarray(a)[...] = value
        return _owning_transpose(a) if fortran else a
    cdef const unsigned char* pat = pattern
    cdef int pat_size = len(pattern)
    if n:
        with nogil:
            fill_pattern(a._view.data, n, pat, pat_size, s)
    return _owning_transpose(a) if fortran else a


# (type, value, dtype) -> (0-d value, its bytes) of recent fill values: a small array's creation costs
# about its launch, and NumPy's conversion of the value would add a third to it.
_FILL_PATTERNS = {}


cdef tuple _fill_pattern(fill_value, dtype):
    key = (type(fill_value), fill_value, dtype)
    try:
        return _FILL_PATTERNS[key]
    except (KeyError, TypeError):  # TypeError: an unhashable value or dtype
        pass
    value = np.array(fill_value, dtype=dtype)
    if value.ndim != 0:
        raise ValueError("fill_value must be a scalar")
    entry = (value, value.tobytes())
    # -0.0 == 0.0 (one key for both) and NaN != NaN (never found): floating zeros are not kept
    if (type(fill_value) in (bool, int) or (type(fill_value) in (float, complex) and fill_value != 0) or
            (isinstance(fill_value, np.generic) and (value.dtype.kind in "biu" or fill_value != 0))):
        if len(_FILL_PATTERNS) >= 256:
            _FILL_PATTERNS.clear()
        try:
            _FILL_PATTERNS[key] = entry
        except TypeError:
            pass
    return entry


def broadcast_to(Array x, shape):
    """A read-only view of `x` with `shape`, as numpy.broadcast_to.

    NumPy's broadcasting: new leading dimensions and extent-1 dimensions repeat without copies (stride 0).
    The npgpu.broadcast_to function takes any array_like and calls this one.

    Parameters
    ----------
    x : npgpu.Array
        The array.
    shape : int or sequence of ints
        The shape to broadcast to.

    Returns
    -------
    npgpu.Array
        A read-only view of `x`'s memory.

    Raises
    ------
    ValueError
        `x` does not broadcast to `shape`, a dimension of `shape` is negative, or `shape` has more than
        32 dimensions.
    TypeError
        `x` is not an npgpu.Array, or `shape` is not an int or a sequence of ints.

    See Also
    --------
    npgpu.broadcast_to

    Examples
    --------
    >>> x = npgpu.asarray([1, 2, 3], device="cpu")
    >>> b = npgpu._array.broadcast_to(x, (2, 3))
    >>> b
    Array([[1, 2, 3],
           [1, 2, 3]])
    >>> b.readonly
    True
    """
    shape = _normalize_shape(shape)
    if len(shape) > 32:
        raise ValueError(f"npgpu supports at most 32 dimensions, got {len(shape)}")
    if any(d < 0 for d in shape):
        raise ValueError(f"all elements of the broadcast shape must be non-negative, got {shape}")
    cdef ArrayView v = _broadcast_to(x._view, shape, f"operands could not be broadcast together with remapped "
                                     f"shapes [original->remapped]: {x.shape} and requested shape {shape}")
    v.readonly = True
    return x._view_of(v)


def _may_self_overlap(tuple shape, tuple strides, int64_t item):
    """Whether two elements of a view may share memory: False only when, axes taken by increasing |stride|,
    each stride steps past everything the inner axes span (a sufficient test; extent-1 axes do not count)."""
    if 0 in shape:
        return False
    span = item
    for step, n in sorted((abs(t), d) for d, t in zip(shape, strides) if d > 1):
        if step < span:
            return True
        span += step * (n - 1)
    return False


def as_strided(Array x, shape, strides, bint writeable):
    """A view of x's memory with any `shape` and `strides`, inside x's own bytes.

    The primitive of npgpu.as_strided and npgpu.sliding_window_view.

    Parameters
    ----------
    x : npgpu.Array
        The array whose memory the view reads.
    shape : sequence of ints
        The view's shape, at most 32 non-negative dimensions.
    strides : sequence of ints
        Byte steps per dimension (negative and zero allowed), multiples of x's item size.
    writeable : bool
        False gives a read-only view; so does a read-only `x`, or a view whose elements may share memory.

    Returns
    -------
    npgpu.Array
        The view, starting at x's first element.

    Raises
    ------
    ValueError
        Lengths of `shape` and `strides` differ, a dimension is negative, a stride is not a multiple of the
        item size, or the view reaches bytes outside x's (npgpu never reads memory an array does not span).

    Examples
    --------
    >>> x = npgpu.asarray(np.arange(6.0), device="cpu")
    >>> npgpu._array.as_strided(x, (4, 3), (8, 8), False)
    Array([[0., 1., 2.],
           [1., 2., 3.],
           [2., 3., 4.],
           [3., 4., 5.]])
    """
    shape = _normalize_shape(shape)
    strides = tuple(operator.index(t) for t in strides)
    if len(shape) != len(strides):
        raise ValueError(f"as_strided: shape {shape} and strides {strides} differ in length")
    if len(shape) > 32:
        raise ValueError(f"npgpu supports at most 32 dimensions, got {len(shape)}")
    if any(d < 0 for d in shape):
        raise ValueError(f"as_strided: negative dimensions are not allowed, got shape {shape}")
    cdef int64_t item = itemsize(x._view.dtype)
    bad = [t for t in strides if t % item]
    if bad:
        raise ValueError(f"as_strided: strides {strides} must be multiples of the item size {item} (npgpu keeps "
                         f"elements aligned)")
    if math.prod(shape) * item > 2 ** 63 - 1:
        raise ValueError(f"as_strided: a view of shape {shape} has too many elements")
    # The reach in Python ints: with huge strides int64 arithmetic would wrap.
    cdef Extent have = _extent(x._view)
    start = <int64_t><uintptr_t>x._view.data - have.lo
    lo = start + sum(t * (d - 1) for d, t in zip(shape, strides) if t < 0)
    hi = start + sum(t * (d - 1) for d, t in zip(shape, strides) if t > 0) + item
    if 0 not in shape and (x._view.size() == 0 or lo < 0 or hi > have.hi - have.lo):
        raise ValueError(f"as_strided: a view of shape {shape} and strides {strides} reaches bytes [{lo}, {hi}) "
                         f"of x's memory, outside the [0, {have.hi - have.lo}) that x spans")
    cdef ArrayView v = x._view
    v.ndim = len(shape)
    for i in range(v.ndim):
        v.shape[i] = shape[i]
        v.strides[i] = strides[i]
    v.readonly = x._view.readonly or not writeable or _may_self_overlap(shape, strides, item)
    return x._view_of(v)


def reinterpret(Array x, dtype):
    """A view of x's memory as `dtype` of the same item size (NumPy's ``x.view(dtype)``).

    Float bits as integers and back, for sign bits and next representable values.

    Parameters
    ----------
    x : npgpu.Array
        The array.
    dtype : dtype
        The dtype to see the memory as; one npgpu supports, of x's item size.

    Returns
    -------
    npgpu.Array
        A view of x's memory, of x's shape and strides.

    Raises
    ------
    ValueError
        `dtype` and x's dtype differ in item size.
    TypeError
        npgpu does not support `dtype`, or `x` is not an npgpu.Array.

    Examples
    --------
    >>> x = npgpu.asarray([1.0, -2.0], device="cpu")
    >>> bits = npgpu._array.reinterpret(x, np.uint64)
    >>> bits
    Array([ 4607182418800017408, 13835058055282163712], dtype=uint64)
    >>> npgpu._array.reinterpret(bits, np.float64)
    Array([ 1., -2.])
    """
    if itemsize(dtype_code(dtype)) != itemsize(x._view.dtype):
        raise ValueError(f"reinterpret: {x._dtype} and {np.dtype(dtype)} differ in item size")
    return x.view(dtype)


def copy_batch(srcs, dsts):
    """``dsts[k][...] = srcs[k]`` for each pair of npgpu.Arrays, in one launch on a GPU.

    The pairs: C-contiguous, one dtype and size per pair (the shapes may differ), all on one device; one
    launch on a GPU (in the first destination's stream), whatever their number. ValueError for any other
    pair (npgpu's slice assignment copies those) or a destination overlapping a source.

    Parameters
    ----------
    srcs : sequence of npgpu.Array
        The sources.
    dsts : sequence of npgpu.Array
        The destinations, as many as sources.

    Returns
    -------
    None

    Raises
    ------
    ValueError
        The sequences differ in length, or a pair differs in dtype or size, is not C-contiguous, is not on
        the first destination's device, or has a read-only destination or one overlapping a source.
    TypeError
        An element is not an npgpu.Array.

    Examples
    --------
    >>> srcs = [npgpu.asarray([1, 2], device="cpu"), npgpu.asarray([3.0, 4.0, 5.0], device="cpu")]
    >>> dsts = [npgpu.empty(2, dtype=np.int64, device="cpu"), npgpu.empty(3, device="cpu")]
    >>> npgpu._array.copy_batch(srcs, dsts)
    >>> dsts
    [Array([1, 2]), Array([3., 4., 5.])]
    """
    cdef vector[ArrayView] src_views, dst_views
    cdef Array a
    if len(srcs) != len(dsts):
        raise ValueError(f"copy_batch: {len(srcs)} sources but {len(dsts)} destinations")
    if not srcs:
        return
    for a in srcs:
        src_views.push_back(a._view)
    for a in dsts:
        dst_views.push_back(a._view)
    cdef StreamHandle s = (<Array>dsts[0]).stream
    with nogil:
        c_copy_batch(src_views.data(), dst_views.data(), <int>src_views.size(), s)


def fill_arange(Array out, start, step, exact_step=False):
    """Write ``start + i * step`` into the C-contiguous array `out` (flat index i), in one pass on out's device.

    As numpy.arange fills a result of out's dtype: the first two values are start and start + step
    converted to the dtype, and their difference (in the dtype) is the step from then on. With
    `exact_step`, the step is `step` itself converted to the dtype (linspace's ``i * step + start``).
    For float16 and bfloat16 the difference is taken in float32, as NumPy's fill does.

    Parameters
    ----------
    out : npgpu.Array
        The array to fill: C-contiguous and writeable.
    start : scalar
        The first value.
    step : scalar
        The step.
    exact_step : bool, optional
        Use `step` converted to the dtype as the step, rather than the difference of the first two values.

    Returns
    -------
    npgpu.Array
        `out`.

    Raises
    ------
    ValueError
        `out` is not C-contiguous, or is read-only.
    TypeError
        `out` is not an npgpu.Array.

    See Also
    --------
    npgpu.arange, npgpu.linspace

    Examples
    --------
    >>> out = npgpu.empty(4, device="cpu")
    >>> npgpu._array.fill_arange(out, 1.0, 0.5)
    Array([1. , 1.5, 2. , 2.5])
    >>> out = npgpu.empty(3, dtype=np.int64, device="cpu")
    >>> npgpu._array.fill_arange(out, 0.5, 1)  # as np.arange(0.5, 3.5, 1, dtype=np.int64)
    Array([0, 1, 2])
    """
    dt = out._dtype
    b0 = np.array(start).astype(dt)
    b1 = b0 + np.array(step).astype(dt) if exact_step else np.array(start + step).astype(dt)
    cdef Scalar s0, d
    s0.dtype = out._view.dtype
    d.dtype = out._view.dtype
    if dt.kind in "biu":
        s0.value.u = <uint64_t>(int(b0) & 0xFFFFFFFFFFFFFFFF)
        d.value.u = <uint64_t>((int(b1) - int(b0)) & 0xFFFFFFFFFFFFFFFF)
    elif dt.kind == "c":
        delta = np.array(step).astype(dt) if exact_step else b1 - b0
        s0.value.c[0] = b0.real
        s0.value.c[1] = b0.imag
        d.value.c[0] = delta.real
        d.value.c[1] = delta.imag
    elif dt.itemsize == 2:  # float16 / bfloat16: NumPy's fill subtracts in float32
        s0.value.f = float(b0)
        d.value.f = float(np.float32(float(b1)) - np.float32(float(b0)))
    else:
        s0.value.f = float(b0)
        d.value.f = float(np.array(step).astype(dt)) if exact_step else float(b1 - b0)
    with nogil:
        arange_fill(out._view, s0, d, out.stream)
    return out


def _from_cai(obj, iface, device, stream):
    """Wrap memory described by the CUDA Array Interface, without copying."""
    cdef ArrayView v
    version = iface.get("version", 0)
    if iface.get("mask") is not None:
        raise ValueError("masked CUDA arrays are not supported")
    dtype = np.dtype(iface["typestr"])
    v.dtype = dtype_code(dtype)
    shape = tuple(iface["shape"])
    ptr, ro = iface["data"]
    v.ndim = len(shape)
    if v.ndim > 32:
        raise ValueError(f"npgpu supports at most 32 dimensions, got {v.ndim}")
    strides = iface.get("strides")
    cdef int64_t item = dtype.itemsize
    cdef int64_t acc = item
    for i in range(v.ndim - 1, -1, -1):
        v.shape[i] = shape[i]
        v.strides[i] = strides[i] if strides is not None else acc
        acc *= shape[i] if shape[i] > 0 else 1
    v.data = <void*><uintptr_t>(ptr or 0)
    v.readonly = bool(ro)
    # The device owning the pointer: ask CUDA through a cheap attribute query would need the driver API;
    # the producer's device is the current one in every framework we interoperate with.
    v.device = resolve_device(device)
    cdef StreamHandle ours = resolve_stream(stream)
    producer = iface.get("stream") if version >= 3 else None
    if producer is not None:
        if producer == 0:
            raise ValueError("__cuda_array_interface__ stream 0 is not allowed (v3); use 1 or 2")
        rt.activate_device(v.device)
        rt.stream_wait_stream(ours, resolve_stream(int(producer)))
    return wrap_view(v, obj, dtype, ours)


cdef class _DLPackOwner:
    """Keeps an imported DLPack tensor alive; calls its deleter when the last npgpu view of it goes."""
    cdef DLManagedTensor* legacy
    cdef DLManagedTensorVersioned* versioned

    def __dealloc__(self):
        if self.versioned != NULL and self.versioned.deleter != NULL:
            self.versioned.deleter(self.versioned)
        elif self.legacy != NULL and self.legacy.deleter != NULL:
            self.legacy.deleter(self.legacy)


_DL_CODES = {(kDLBool, 8): "bool", (kDLInt, 8): "int8", (kDLInt, 16): "int16", (kDLInt, 32): "int32",
             (kDLInt, 64): "int64", (kDLUInt, 8): "uint8", (kDLUInt, 16): "uint16", (kDLUInt, 32): "uint32",
             (kDLUInt, 64): "uint64", (kDLFloat, 32): "float32", (kDLFloat, 64): "float64",
             (kDLComplex, 64): "complex64", (kDLComplex, 128): "complex128", (kDLFloat, 16): "float16",
             (kDLBfloat, 16): "bfloat16"}


def from_dlpack(obj, /, *, device=None, stream=None, copy=None):
    """An npgpu.Array sharing memory with a DLPack producer (CuPy, PyTorch, JAX, NumPy, ...).

    On the GPU for a GPU producer, on the host for a CPU producer, unless `device` names another device
    (then a copy). A CPU (or CUDA host) producer is imported with numpy.from_dlpack and passed on to
    :func:`asarray`; a producer without ``__dlpack_device__`` is taken for a CUDA one. A GPU producer is
    asked for a versioned capsule (DLPack 1.0, carrying the read-only flag) first, a legacy one if it does
    not take ``max_version``; the imported memory stays alive until the last npgpu array using it goes.

    Parameters
    ----------
    obj : object
        The producer: an object with a ``__dlpack__`` method.
    device : str, int or npgpu.Device, optional
        Where the result goes. For a CPU producer: the host by default, another device gets a copy (as
        :func:`asarray`). For a GPU producer, only a host device is acted upon (a copy to the host); the
        result is otherwise on the producer's GPU.
    stream : npgpu.Stream or int, optional
        The stream that uses the data (by default the current stream of this thread): a GPU producer makes
        it wait for the work that produced the data (the per-thread default stream is passed as the legacy
        default stream, 1, which producers such as PyTorch take).
    copy : bool, optional
        True returns a copy; False forbids one (ValueError where one is needed); None copies only when
        needed. For a CPU producer it is passed on to numpy.from_dlpack as well.

    Returns
    -------
    npgpu.Array
        The array, sharing the producer's memory unless copied.

    Raises
    ------
    TypeError
        `obj` has no ``__dlpack__``, or its dtype is not one npgpu supports.
    BufferError
        The producer's device is neither the host nor a CUDA device (CUDA or CUDA managed memory), its
        DLPack major version is above 1, or ``__dlpack__`` did not return a DLPack capsule.
    ValueError
        The tensor has more than 32 dimensions, or ``copy=False`` and a copy is needed.

    See Also
    --------
    asarray, Array.__dlpack__

    Examples
    --------
    >>> x = np.arange(3.0)
    >>> a = npgpu.from_dlpack(x)
    >>> a
    Array([0., 1., 2.])
    >>> a.device
    <npgpu.Device cpu>
    """
    if not hasattr(obj, "__dlpack__"):
        raise TypeError(f"{type(obj).__name__} does not support DLPack (no __dlpack__ method)")
    dev_type, dev_id = obj.__dlpack_device__() if hasattr(obj, "__dlpack_device__") else (kDLCUDA, 0)
    if dev_type in (kDLCPU, kDLCUDAHost):
        host = np.from_dlpack(obj) if copy is None else np.from_dlpack(obj, copy=copy)
        return asarray(host, device="cpu" if device is None else device, stream=stream, copy=copy)
    if device is not None and resolve_array_device(device) == kHostDevice:
        return asarray(from_dlpack(obj, stream=stream), device="cpu", copy=copy)
    if dev_type not in (kDLCUDA, kDLCUDAManaged):
        raise BufferError(f"DLPack device type {dev_type} is not a CUDA device")
    cdef StreamHandle ours = resolve_stream(stream)
    stream_arg = stream_to_cai(ours)
    if stream_arg == 2:
        # Producers may refuse the per-thread default stream (PyTorch does); the legacy default stream is
        # equivalent here, since per-thread default streams synchronise with it.
        stream_arg = 1
    try:
        capsule = obj.__dlpack__(stream=stream_arg, max_version=(1, 0))
    except TypeError:
        capsule = obj.__dlpack__(stream=stream_arg)
    cdef _DLPackOwner owner = _DLPackOwner.__new__(_DLPackOwner)
    cdef DLTensor* t
    cdef bint readonly = False
    if PyCapsule_IsValid(capsule, b"dltensor_versioned"):
        owner.versioned = <DLManagedTensorVersioned*>PyCapsule_GetPointer(capsule, b"dltensor_versioned")
        PyCapsule_SetName(capsule, b"used_dltensor_versioned")
        if owner.versioned.version.major > 1:
            raise BufferError(f"DLPack version {owner.versioned.version.major} is newer than npgpu supports")
        t = &owner.versioned.dl_tensor
        readonly = (owner.versioned.flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0
    elif PyCapsule_IsValid(capsule, b"dltensor"):
        owner.legacy = <DLManagedTensor*>PyCapsule_GetPointer(capsule, b"dltensor")
        PyCapsule_SetName(capsule, b"used_dltensor")
        t = &owner.legacy.dl_tensor
    else:
        raise BufferError("__dlpack__ did not return a DLPack capsule")
    if t.dtype.lanes != 1 or (t.dtype.code, t.dtype.bits) not in _DL_CODES:
        raise TypeError(f"unsupported DLPack dtype (code {t.dtype.code}, bits {t.dtype.bits}, "
                        f"lanes {t.dtype.lanes})")
    name = _DL_CODES[(t.dtype.code, t.dtype.bits)]
    dtype = _bfloat16() if name == "bfloat16" else np.dtype(name)
    cdef ArrayView v
    v.dtype = dtype_code(dtype)
    v.ndim = t.ndim
    if v.ndim > 32:
        raise ValueError(f"npgpu supports at most 32 dimensions, got {v.ndim}")
    cdef int64_t item = dtype.itemsize
    cdef int64_t acc = item
    for i in range(v.ndim - 1, -1, -1):
        v.shape[i] = t.shape[i]
        v.strides[i] = t.strides[i] * item if t.strides != NULL else acc
        acc *= t.shape[i] if t.shape[i] > 0 else 1
    v.data = <void*>(<char*>t.data + t.byte_offset)
    v.device = t.device.device_id
    v.readonly = readonly
    cdef Array a = wrap_view(v, owner, dtype, ours)
    return a.copy() if copy else a


cdef struct _ExportCtx:
    PyObject* array
    int64_t shape[32]
    int64_t strides[32]


cdef void _release_ctx(void* ctx) noexcept with gil:
    cdef _ExportCtx* c = <_ExportCtx*>ctx
    Py_DECREF(<object>c.array)
    free(c)


cdef void _versioned_deleter(DLManagedTensorVersioned* m) noexcept with gil:
    _release_ctx(m.manager_ctx)
    free(m)


cdef void _legacy_deleter(DLManagedTensor* m) noexcept with gil:
    _release_ctx(m.manager_ctx)
    free(m)


cdef void _capsule_destructor(object capsule) noexcept:
    # Called when a capsule is collected; a consumer renames the capsules it took ownership of.
    cdef DLManagedTensorVersioned* mv
    cdef DLManagedTensor* ml
    if PyCapsule_IsValid(capsule, b"dltensor_versioned"):
        mv = <DLManagedTensorVersioned*>PyCapsule_GetPointer(capsule, b"dltensor_versioned")
        mv.deleter(mv)
    elif PyCapsule_IsValid(capsule, b"dltensor"):
        ml = <DLManagedTensor*>PyCapsule_GetPointer(capsule, b"dltensor")
        ml.deleter(ml)


cdef object _export_dlpack(Array a, bint versioned, bint copied):
    cdef _ExportCtx* ctx = <_ExportCtx*>malloc(sizeof(_ExportCtx))
    if ctx == NULL:
        raise MemoryError()
    cdef int64_t item = itemsize(a._view.dtype)
    for i in range(a._view.ndim):
        ctx.shape[i] = a._view.shape[i]
        ctx.strides[i] = a._view.strides[i] // item
    Py_INCREF(a)
    ctx.array = <PyObject*>a
    cdef DLTensor* t
    cdef DLManagedTensorVersioned* mv
    cdef DLManagedTensor* ml
    if versioned:
        mv = <DLManagedTensorVersioned*>malloc(sizeof(DLManagedTensorVersioned))
        mv.version.major = 1
        mv.version.minor = 0
        mv.manager_ctx = ctx
        mv.deleter = _versioned_deleter
        mv.flags = (DLPACK_FLAG_BITMASK_READ_ONLY if a._view.readonly else 0)
        t = &mv.dl_tensor
    else:
        ml = <DLManagedTensor*>malloc(sizeof(DLManagedTensor))
        ml.manager_ctx = ctx
        ml.deleter = _legacy_deleter
        t = &ml.dl_tensor
    t.data = a._view.data
    if a._view.device == kHostDevice:
        t.device.device_type = kDLCPU
        t.device.device_id = 0
    else:
        t.device.device_type = kDLCUDA
        t.device.device_id = a._view.device
    t.ndim = a._view.ndim
    dt = a._dtype
    t.dtype.code = (kDLBool if dt.kind == "b" else kDLInt if dt.kind == "i" else kDLUInt if dt.kind == "u"
                    else kDLFloat if dt.kind == "f" else kDLBfloat if dt.name == "bfloat16" else kDLComplex)
    t.dtype.bits = dt.itemsize * 8
    t.dtype.lanes = 1
    t.shape = ctx.shape
    t.strides = ctx.strides
    t.byte_offset = 0
    if versioned:
        return PyCapsule_New(mv, b"dltensor_versioned", _capsule_destructor)
    return PyCapsule_New(ml, b"dltensor", _capsule_destructor)


cpdef refuse_subclass(obj, str name):
    """Raise TypeError for a numpy.ndarray subclass other than memmap.

    npgpu would drop its mask (MaskedArray) or its operator semantics (np.matrix) without a word; the
    functions that take host data call this first.

    Parameters
    ----------
    obj : object
        The argument to check; anything that is not a numpy.ndarray subclass passes.
    name : str
        The npgpu function's name, for the message (``npgpu.<name>: ...``).

    Returns
    -------
    None

    Raises
    ------
    TypeError
        `obj` is an instance of a numpy.ndarray subclass other than numpy.memmap.

    Examples
    --------
    >>> npgpu._array.refuse_subclass(np.arange(3), "asarray")
    >>> npgpu._array.refuse_subclass(np.ma.masked_array([1, 2]), "asarray")
    Traceback (most recent call last):
        ...
    TypeError: npgpu.asarray: numpy.ma...MaskedArray (a numpy.ndarray subclass) is not supported by npgpu; ...
    """
    t = type(obj)
    if t is not np.ndarray and isinstance(obj, np.ndarray) and not isinstance(obj, np.memmap):
        raise TypeError(f"npgpu.{name}: {t.__module__}.{t.__qualname__} (a numpy.ndarray subclass) is not "
                        "supported by npgpu; use NumPy's function for it, or pass np.asarray(x) to drop the "
                        "subclass")


def asarray(obj, dtype=None, device=None, stream=None, copy=None, *, order=None):
    """Convert the input to an npgpu.Array.

    The input is a NumPy array (or anything NumPy accepts: lists, scalars, buffers), an object with
    ``__cuda_array_interface__`` or ``__dlpack__`` on the GPU (shared, not copied), or an npgpu.Array.
    On the host, NumPy arrays are shared, not copied, as numpy.asarray does (any strides; an unaligned or
    byte-swapped array is copied to native byte order).

    Parameters
    ----------
    obj : array_like, npgpu.Array or GPU array
        The data.
    dtype : dtype, optional
        The dtype of the result; by default the input's (NumPy's choice for Python data). Another dtype
        than an array's own converts it (a copy).
    device : str, int or npgpu.Device, optional
        None (the object's own device for arrays, else the default device: the current GPU, or the host
        when there is no GPU or the host backend is chosen), "cpu", "cuda", "cuda:N", an int or an
        npgpu.Device. An array on another device is copied there.
    stream : npgpu.Stream or int, optional
        The stream the copies run on (by default the current stream of this thread). For a
        ``__cuda_array_interface__`` producer that names its stream, this stream waits for that one.
    copy : bool, optional
        None copies only when needed, True always, False raises ValueError if a copy is needed.
    order : {'C', 'F', 'A', 'K'} or None, optional
        'C' or 'F': the result is C- or Fortran-contiguous (copied into that layout when it is not); 'A':
        Fortran-contiguous arrays stay so, others become C-contiguous; 'K' and None (default) keep the
        layout. NumPy data uploaded to a GPU is C-contiguous unless 'F' or 'A' asks otherwise.

    Returns
    -------
    npgpu.Array
        The array: `obj` itself when it is an npgpu.Array on `device` of `dtype` in the `order` asked for and
        no copy is asked for.

    Raises
    ------
    ValueError
        ``copy=False`` and a copy is needed (a move between devices, a dtype conversion, an unaligned or
        byte-swapped NumPy array, a layout `order` asks for); `order` is not 'C', 'F', 'A', 'K' or None;
        `device` is a string npgpu does not know; the data has more than 32 dimensions; a
        ``__cuda_array_interface__`` is masked or names stream 0.
    TypeError
        The data's dtype is not one npgpu supports, or `obj` is a numpy.ndarray subclass other than
        numpy.memmap (a masked array, np.matrix).
    GPUUnavailableError
        `device` names a GPU and this process has none.

    See Also
    --------
    from_dlpack, Array.to_device, Array.get

    Examples
    --------
    >>> x = np.array([1.0, 2.0, 3.0])
    >>> a = npgpu.asarray(x, device="cpu")
    >>> a
    Array([1., 2., 3.])
    >>> a[0] = 10.0  # on the host, the NumPy array's memory is shared
    >>> x
    array([10.,  2.,  3.])
    >>> npgpu.asarray([1, 2], dtype=np.float32, device="cpu")
    Array([1., 2.], dtype=float32)
    """
    if order is None or order == "K":
        return _asarray(obj, dtype, device, stream, copy)
    if order not in ("C", "F", "A"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    if order != "C" and not isinstance(obj, Array) and isinstance(obj, np.ndarray) and obj.flags.f_contiguous \
            and not obj.flags.c_contiguous and resolve_array_device(device) != kHostDevice:
        # upload a Fortran-ordered NumPy array as its transpose (C-contiguous), not through a C-order copy
        return asarray(obj.T, dtype, device, stream, copy).transpose()
    cdef Array a = _asarray(obj, dtype, device, stream, copy)
    cdef bint c_contiguous = a._view.is_c_contiguous()
    cdef bint f_contiguous = _f_contiguous(a._view, a._dtype.itemsize)
    cdef bint fortran = a._view.ndim >= 2 and (order == "F" or (order == "A" and f_contiguous and not c_contiguous))
    if f_contiguous if fortran else c_contiguous:
        return a
    if copy is False:
        raise ValueError(f"order={order!r} needs a copy into that layout, but copy=False")
    return a.transpose().copy(stream=stream).transpose() if fortran else a.copy(stream=stream)


cdef Array _asarray(obj, dtype, device, stream, copy):
    cdef Array a
    cdef int d
    cdef StreamHandle s
    if isinstance(obj, Array):
        a = <Array>obj
    else:
        iface = getattr(obj, "__cuda_array_interface__", None)
        if iface is not None and not isinstance(obj, np.ndarray):
            a = _from_cai(obj, iface, None if device is None or resolve_array_device(device) == kHostDevice
                          else device, stream)
        elif hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__") \
                and obj.__dlpack_device__()[0] in (kDLCUDA, kDLCUDAManaged):
            a = from_dlpack(obj, stream=stream)
        else:
            refuse_subclass(obj, "asarray")
            return _from_host_data(obj, dtype, resolve_array_device(device), stream, copy)
    if device is not None:
        d = resolve_array_device(device)
        if d != a._view.device:
            if copy is False:
                raise ValueError(f"moving an array from {a.device} to {device} needs a copy, but copy=False")
            a = _move(a, d, resolve_stream(stream))
            copy = False  # a is new
    if dtype is not None and np.dtype(dtype) != a._dtype:
        if copy is False:
            raise ValueError("a dtype conversion needs a copy, but copy=False")
        return a.astype(dtype, stream=stream)
    return a.copy(stream=stream) if copy else a


cdef Array _from_host_data(object obj, object dtype, int device, object stream, object copy):
    """An Array on `device` from anything NumPy takes. On the host a NumPy array is shared where its layout
    allows (any strides; aligned, native byte order, a dtype npgpu supports)."""
    if device != kHostDevice:
        if copy is False:
            raise ValueError("moving host data to the GPU needs a copy, but copy=False")
        host = np.asarray(obj, dtype=dtype, order="C")  # not ascontiguousarray: it makes 0-d arrays 1-d
        return upload(host, device, resolve_stream(stream))
    if copy:
        return upload(np.asarray(obj, dtype=dtype, order="C"), device, resolve_stream(stream))
    host = np.array(obj, dtype=dtype, copy=False if copy is False else None)
    dtype_code(host.dtype.newbyteorder("=") if host.dtype.byteorder not in "=|" else host.dtype)
    if not host.flags.aligned or host.dtype.byteorder not in "=|":
        if copy is False:
            raise ValueError("an unaligned or byte-swapped NumPy array needs a copy, but copy=False")
        host = host.astype(host.dtype.newbyteorder("="), order="C")
    return wrap_host(host)


cdef Array _move(Array a, int device, StreamHandle s):
    """A copy of `a` on `device` (host or GPU)."""
    if a._view.device == kHostDevice:
        return upload(np.ascontiguousarray(host_ndarray(a)), device, s)
    if device == kHostDevice:
        return wrap_host(a.get(stream=<uintptr_t>s if <uintptr_t>s != 0 else 1))
    # GPU to GPU: one peer copy once the source is complete on its own device.
    cdef int previous = rt.active_device()
    cdef Array src = a if a._view.is_c_contiguous() else a.copy()
    cdef Array out
    cdef int64_t nbytes = src._view.size() * itemsize(src._view.dtype)
    try:
        rt.activate_device(src._view.device)
        with nogil:
            rt.stream_synchronize(src.stream)
            rt.stream_synchronize(s)
        rt.activate_device(device)
        out = new_array(tuple(src.shape), src._dtype, device, s)
        with nogil:
            copy_peer(out._view.data, device, src._view.data, src._view.device, nbytes, s)
    finally:
        rt.activate_device(previous)
    return out


cdef str _NON_NATIVE = ">" if np.little_endian else "<"


cpdef object native_order(object arr):
    """arr itself, or a copy in native byte order when arr is a NumPy array of the other one.

    The other order: ">i4" on a little-endian machine. NumPy converts such data in its ufuncs, and so
    does npgpu.

    Parameters
    ----------
    arr : object
        Anything; only a NumPy array of non-native byte order is converted.

    Returns
    -------
    object
        `arr`, or a NumPy array with the same values in native byte order.

    Examples
    --------
    >>> x = np.arange(3, dtype=">i4")
    >>> y = npgpu._array.native_order(x)
    >>> y.dtype == np.dtype("=i4"), y
    (True, array([0, 1, 2], dtype=int32))
    >>> npgpu._array.native_order(y) is y
    True
    """
    if isinstance(arr, np.ndarray) and arr.dtype.byteorder == _NON_NATIVE:
        return arr.astype(arr.dtype.newbyteorder("="))
    return arr


# Host<->device copies from this size on go through the staging ring (several threads copying into pinned
# slots while the DMA runs), which moves pageable memory at several times the driver's own staging rate.
cdef int64_t STAGED_COPY_MIN = 1 << 20
# Results up to the pinned cache's default bound come in pinned memory: the DMA writes them directly, and a
# fresh pageable result pays first-touch page faults (reused from the cache once an earlier result is freed).
PINNED_RESULT_MAX = 1 << 30


cdef Array upload(object host, int device, StreamHandle s):
    """A new device array holding a copy of the C-contiguous NumPy array `host` (queued on s)."""
    host = native_order(host)
    cdef Array a = new_array(tuple(host.shape), host.dtype, device, s)
    cdef int64_t nbytes = a._view.size() * itemsize(a._view.dtype)
    cdef void* src = <void*><uintptr_t>host.__array_interface__["data"][0] if nbytes else NULL
    if nbytes and device == kHostDevice:
        with nogil:
            memcpy(a._view.data, src, nbytes)
    elif nbytes >= STAGED_COPY_MIN:
        with nogil:
            copy_to_device_staged(a._view.data, src, nbytes, device, s)
    elif nbytes:
        # From pageable memory the copy returns once the source has been read, so `host` may go after it.
        with nogil:
            copy_bytes(a._view.data, src, nbytes, s)
    return a


cdef class _PinnedOwner:
    """Owns a pinned host allocation and describes it to NumPy (``__array_interface__``)."""
    cdef unique_ptr[PinnedBuffer] buf
    cdef dict _iface

    @property
    def __array_interface__(self):
        return self._iface


def empty_pinned(shape, dtype=np.float64):
    """A NumPy array in page-locked (pinned) host memory.

    Transfers from and to it run at full PCIe speed and asynchronously. The memory is released when the
    array is. Pinned memory comes from the CUDA driver, so this needs a GPU.

    Parameters
    ----------
    shape : int or sequence of ints
        The shape.
    dtype : dtype, optional
        The dtype (default float64); one npgpu supports.

    Returns
    -------
    numpy.ndarray
        A writeable, C-contiguous, uninitialised NumPy array.

    Raises
    ------
    ValueError
        A dimension is negative, the element count overflows, or the shape has more than 32 dimensions.
    TypeError
        `shape` is not an int or a sequence of ints, or npgpu does not support `dtype`.
    GPUUnavailableError
        This process has no GPU.
    MemoryError
        The pinned allocation failed (npgpu.OutOfMemoryError).

    See Also
    --------
    empty, Array.get

    Examples
    --------
    >>> h = npgpu.empty_pinned((2, 3), dtype=np.float32)  # doctest: +SKIP
    >>> h.shape, h.dtype  # doctest: +SKIP
    ((2, 3), dtype('float32'))
    """
    shape = _normalize_shape(shape)
    dtype = np.dtype(dtype)
    cdef int64_t dims[32]
    cdef int nd = len(shape)
    if nd > 32:
        raise ValueError(f"npgpu supports at most 32 dimensions, got {nd}")
    for i in range(nd):
        dims[i] = shape[i]
    cdef ArrayView v = make_contiguous_view(NULL, dtype_code(dtype), nd, dims, kHostDevice)
    cdef int64_t nbytes = v.size() * dtype.itemsize
    cdef _PinnedOwner owner = _PinnedOwner.__new__(_PinnedOwner)
    cdef PinnedBuffer* buf
    # Pinning takes seconds for a block of some GB: other Python threads (a dask worker's event loop) run meanwhile
    with nogil:
        buf = new PinnedBuffer(nbytes)
    owner.buf.reset(buf)
    owner._iface = {"shape": shape, "typestr": dtype.str, "version": 3,
                    "data": (<uintptr_t>owner.buf.get().data() if nbytes else 0, False)}
    return np.asarray(owner)


def empty_host_result(shape, dtype, int64_t pinned_max):
    """An uninitialised NumPy array for a result coming back from the GPU: in pinned memory (the download is
    then one DMA straight into it) when it holds 1 to `pinned_max` bytes and pinned memory is left, else in
    ordinary memory (the driver stages that download itself)."""
    dtype = np.dtype(dtype)
    shape = _normalize_shape(shape)
    nbytes = dtype.itemsize
    for d in shape:
        nbytes *= d
    if 0 < nbytes <= pinned_max:
        try:
            if dtype.kind == "V":  # empty_pinned describes memory by typestr, which bfloat16 does not survive
                return empty_pinned(shape, np.uint16).view(dtype)
            return empty_pinned(shape, dtype)
        except MemoryError:  # pinned memory exhausted
            pass
    return np.empty(shape, dtype=dtype)
