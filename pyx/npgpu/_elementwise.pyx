# cython: language_level=3
"""Elementwise operations over device arrays and NumPy buffers, with NumPy's broadcasting and type rules."""
import numpy as np

from libc.stdint cimport int64_t, uintptr_t
from npgpu._array cimport Array, new_array, new_array_like_view, dtype_code, numpy_dtype, wrap_view, host_view
from npgpu._runtime cimport resolve_stream, use_cuda_for_host_data
from npgpu.lib cimport runtime as rt
from npgpu.lib.elementwise cimport BinaryOp, binary, binary_scalar, binary_staged, binary_scalar_staged, copy
from npgpu.lib.runtime cimport StreamHandle
from npgpu.lib.view cimport ArrayView, DType, Scalar, itemsize, kHostDevice
from npgpu import _array

_PY_SCALARS = (bool, int, float, complex)


cdef inline bint same_shape(const ArrayView& a, const ArrayView& b) noexcept nogil:
    if a.ndim != b.ndim:
        return False
    for i in range(a.ndim):
        if a.shape[i] != b.shape[i]:
            return False
    return True


cdef ArrayView broadcast_view(const ArrayView& v, tuple shape) except *:
    """v seen with `shape` (NumPy broadcasting: new leading dimensions and extent-1 dimensions step 0)."""
    cdef ArrayView r = v
    cdef int nd = len(shape)
    cdef int lead = nd - v.ndim
    r.ndim = nd
    for i in range(nd):
        r.shape[i] = shape[i]
        if i < lead or v.shape[i - lead] == 1:
            r.strides[i] = 0
        else:
            r.strides[i] = v.strides[i - lead]
    return r


cdef tuple view_extent(const ArrayView& v):
    """[lo, hi) byte range the view touches."""
    cdef int64_t lo = <int64_t><uintptr_t>v.data, hi = lo
    cdef int64_t item = itemsize(v.dtype)
    for i in range(v.ndim):
        if v.shape[i] == 0:
            return (lo, lo)
        if v.strides[i] > 0:
            hi += v.strides[i] * (v.shape[i] - 1)
        else:
            lo += v.strides[i] * (v.shape[i] - 1)
    return (lo, hi + item)


cdef bint needs_private_copy(const ArrayView& inp, const ArrayView& out):
    """True when writing `out` could change elements of `inp` before they are read: the two overlap and
    are not the very same elements in the same order (NumPy copies such inputs first)."""
    if inp.data == out.data and inp.ndim == out.ndim:
        same = True
        for i in range(inp.ndim):
            if inp.strides[i] != out.strides[i] and inp.shape[i] != 1:
                same = False
        if same:
            return False
    a = view_extent(inp)
    b = view_extent(out)
    return a[0] < b[1] and b[0] < a[1]


cdef Scalar make_scalar(object value, object dtype) except *:
    cdef Scalar s
    # NumPy 2 rules for Python scalars: converted to the result dtype, an out-of-range int raises
    # OverflowError as numpy.add does.
    v = np.asarray(value, dtype=dtype)[()]
    s.dtype = dtype_code(dtype)
    k = dtype.kind
    if k == "b":
        s.value.b = bool(v)
    elif k == "i":
        s.value.i = int(v)
    elif k == "u":
        s.value.u = int(v)
    elif k == "f":
        s.value.f = float(v)
    else:
        s.value.c[0] = v.real
        s.value.c[1] = v.imag
    return s


cdef object check_out_dtype(str name, object res, object out_dtype):
    if not np.can_cast(res, out_dtype, casting="same_kind"):
        raise TypeError(f"Cannot cast ufunc '{name}' output from {res!r} to {out_dtype!r} with casting rule "
                        f"'same_kind'")


cdef object _binary_device(BinaryOp op, str name, object a, object b, object out, StreamHandle s):
    """At least one operand is an npgpu.Array: compute on its device."""
    operands = [a, b]
    arrays = []
    for x in operands:
        if isinstance(x, Array):
            arrays.append(x)
        elif type(x) in _PY_SCALARS or isinstance(x, np.generic) or \
                (isinstance(x, np.ndarray) and x.ndim == 0):
            pass
        elif isinstance(x, np.ndarray) or hasattr(x, "__array__") or isinstance(x, (list, tuple)):
            raise TypeError(f"{name}: cannot mix a host array ({type(x).__name__}) with npgpu device arrays; "
                            f"move it first with npgpu.asarray(x)")
        else:
            return NotImplemented
    cdef Array first = <Array>arrays[0]
    cdef int device = first.view.device
    for x in arrays:
        if (<Array>x).view.device != device:
            raise ValueError(f"{name}: operands are on different devices ({device} and {(<Array>x).view.device})")
    res = np.result_type(*[x.dtype if isinstance(x, Array) else x for x in operands])
    shape = np.broadcast_shapes(*[x.shape for x in arrays])
    cdef Array o
    if out is None:
        o = new_array(shape, res, device, s)
    else:
        if not isinstance(out, Array):
            raise TypeError(f"{name}: out must be an npgpu.Array when operands are on the GPU, "
                            f"not {type(out).__name__}")
        o = <Array>out
        if o.shape != shape:
            raise ValueError(f"{name}: output shape {o.shape} does not match the broadcast shape {shape}")
        if o.view.device != device:
            raise ValueError(f"{name}: out is on device {o.view.device}, operands on {device}")
        if o.view.readonly:
            raise ValueError(f"{name}: output array is read-only")
        check_out_dtype(name, res, o._dtype)
    cdef DType compute = dtype_code(res)
    cdef ArrayView va, vb
    cdef Scalar sc
    cdef Array tmp
    views = []
    for x in operands:
        if isinstance(x, Array):
            tmp = <Array>x
            if needs_private_copy(tmp.view, o.view):
                tmp = tmp.copy(stream=rt_stream_obj(s))
            views.append(tmp)
    if len(arrays) == 2:
        va = broadcast_view((<Array>views[0]).view, shape)
        vb = broadcast_view((<Array>views[1]).view, shape)
        with nogil:
            binary(op, va, vb, o.view, compute, s)
    else:
        scalar_first = not isinstance(a, Array)
        sc = make_scalar(a if scalar_first else b, res)  # NumPy scalars / 0-d arrays: their value
        va = broadcast_view((<Array>views[0]).view, shape)
        with nogil:
            binary_scalar(op, va, sc, scalar_first, o.view, compute, s)
    o.stream = s
    return o


cdef object rt_stream_obj(StreamHandle s):
    return <uintptr_t>s if <uintptr_t>s != 0 else 1


cdef object _binary_host(BinaryOp op, str name, object a, object b, object out, StreamHandle s):
    """No device arrays: NumPy in, NumPy out, on the GPU through the staging ring or on the host backend."""
    scalar_a = type(a) in _PY_SCALARS  # exactly Python's: np.float64 (a float subclass) is not weak
    scalar_b = type(b) in _PY_SCALARS
    if scalar_a and scalar_b:  # nothing to offload
        return getattr(np, name)(a, b) if out is None else getattr(np, name)(a, b, out=out)
    A = a if scalar_a else np.asarray(a)
    B = b if scalar_b else np.asarray(b)
    res = np.result_type(A, B)
    arrays = [x for x in (A, B) if isinstance(x, np.ndarray)]
    shape = np.broadcast_shapes(*[x.shape for x in arrays])
    cdef DType compute = dtype_code(res)
    if out is not None:
        if isinstance(out, tuple) and len(out) == 1:
            out = out[0]
        if not isinstance(out, np.ndarray):
            raise TypeError(f"{name}: out must be a numpy.ndarray for NumPy operands, not {type(out).__name__}")
        if out.shape != shape:
            raise ValueError(f"{name}: output shape {out.shape} does not match the broadcast shape {shape}")
        if not out.flags.writeable:
            raise ValueError(f"{name}: output array is read-only")
        check_out_dtype(name, res, out.dtype)
        dtype_code(out.dtype)
        # NumPy semantics when out overlaps an input in any other way than element for element.
        A = A if scalar_a or not _overlaps(A, out) else A.copy()
        B = B if scalar_b or not _overlaps(B, out) else B.copy()
        result = out
    cdef bint on_gpu = use_cuda_for_host_data()
    if out is None:
        nbytes = np.dtype(res).itemsize * _prod(shape)
        # On the GPU path the result lives in (cached) pinned memory, so results come back by DMA straight
        # into it: no bounce copy and no page faults on a fresh array.
        result = _array.empty_pinned(shape, res) if on_gpu and 0 < nbytes <= _PINNED_RESULT_MAX \
            else np.empty(shape, dtype=res)
    cdef ArrayView va, vb, vo
    cdef Scalar sc
    cdef bint scalar_first = scalar_a
    cdef int device
    on_gpu = on_gpu and result.size > 0
    if on_gpu:
        device = rt.current_device()
        target = result if result.flags.c_contiguous else np.empty(shape, dtype=result.dtype)
        ins = []
        for x in (A, B):
            if isinstance(x, np.ndarray):
                ins.append(np.asarray(x if x.shape == shape else np.broadcast_to(x, shape), order="C"))
        vo = host_view(target, True)
        if len(ins) == 2:
            va = host_view(ins[0], False)
            vb = host_view(ins[1], False)
            with nogil:
                binary_staged(op, va, vb, vo, compute, device, s)
        else:
            sc = make_scalar(A if scalar_a else B, res)
            va = host_view(ins[0], False)
            with nogil:
                binary_scalar_staged(op, va, sc, scalar_first, vo, compute, device, s)
        if target is not result:
            np.copyto(result, target)
    else:
        vo = host_view(result, True)
        if len(arrays) == 2:
            va = broadcast_view(host_view(A, False), shape)
            vb = broadcast_view(host_view(B, False), shape)
            with nogil:
                binary(op, va, vb, vo, compute, s)
        else:
            sc = make_scalar(A if scalar_a else B, res)
            va = broadcast_view(host_view(A if not scalar_a else B, False), shape)
            with nogil:
                binary_scalar(op, va, sc, scalar_first, vo, compute, s)
    if out is None and result.ndim == 0:
        return result[()]
    return result


_PINNED_RESULT_MAX = 256 << 20


def _prod(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def _overlaps(x, out):
    return np.may_share_memory(x, out) and not (
        x.__array_interface__["data"][0] == out.__array_interface__["data"][0] and x.strides == out.strides
        and x.shape == out.shape)


cdef inline object _binary(BinaryOp op, str name, object a, object b, object out, object stream):
    cdef StreamHandle s = resolve_stream(stream)
    cdef Array A, B, O
    # Fast path: two device arrays of one dtype and shape, the output new or of that dtype and shape too.
    if type(a) is Array and type(b) is Array:
        A = <Array>a
        B = <Array>b
        if A.view.dtype == B.view.dtype and A.view.device == B.view.device and same_shape(A.view, B.view):
            if out is None:
                O = new_array_like_view(A.view, A._dtype, A.view.dtype, s)
            elif type(out) is Array and (<Array>out).view.dtype == A.view.dtype \
                    and (<Array>out).view.device == A.view.device and same_shape((<Array>out).view, A.view) \
                    and not (<Array>out).view.readonly and not needs_private_copy(A.view, (<Array>out).view) \
                    and not needs_private_copy(B.view, (<Array>out).view):
                O = <Array>out
            else:
                O = None
            if O is not None:
                binary(op, A.view, B.view, O.view, A.view.dtype, s)  # asynchronous: no need to drop the GIL
                O.stream = s
                return O
    if isinstance(a, Array) or isinstance(b, Array) or isinstance(out, Array):
        r = _binary_device(op, name, a, b, out, s)
        if r is NotImplemented:
            raise TypeError(f"{name}: unsupported operand types {type(a).__name__} and {type(b).__name__}")
        return r
    return _binary_host(op, name, a, b, out, s)


def add(a, b, out=None, stream=None):
    """Elementwise ``a + b`` with NumPy's broadcasting and type promotion.

    NumPy inputs give a NumPy result, computed on the GPU when one is available (data moves through a
    pinned staging ring in chunks, overlapping transfers and compute) or on the host backend otherwise;
    npgpu.Array inputs give an npgpu.Array on their device. ``out`` may be one of the inputs
    (``add(a, b, out=b)`` is ``b += a``); its dtype must be reachable with NumPy's 'same_kind' casting.
    """
    return _binary(BinaryOp.Add, "add", a, b, out, stream)


_array._register_op("add", add)
