"""The Array API standard's dtype objects and dtype functions, constants, and ``__array_namespace_info__``; NumPy's
array and dtype queries (isscalar, ndim, shape, size, isfortran, shares_memory, promote_types, issubdtype, ...)
and the conversions asanyarray, asarray_chkfinite and require.

npgpu's dtypes are NumPy's scalar types (as CuPy's are): ``npgpu.float32 == np.dtype("float32")`` and
``npgpu.float32(1.5)`` both work, and an Array's ``.dtype`` is a ``numpy.dtype``. The functions take npgpu
Arrays as well as dtypes and never pass an Array to NumPy (NumPy would copy a GPU array to the host through
``__array__``): an Array contributes its ``.dtype`` only.
"""
import builtins
import math
import operator

import numpy as np

__all__ = [
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
    "float64", "complex64", "complex128", "isdtype", "result_type", "can_cast", "finfo", "iinfo", "e", "pi", "inf",
    "nan", "newaxis", "__array_namespace_info__", "__array_api_version__", "isscalar", "iterable", "ndim", "shape",
    "size", "isfortran", "may_share_memory", "shares_memory", "promote_types", "min_scalar_type", "issubdtype",
    "common_type", "mintypecode", "typename", "asanyarray", "asarray_chkfinite", "require",
    # NumPy's other names for the same scalar types, its abstract scalar types, and dtype
    "bool_", "byte", "ubyte", "short", "ushort", "intc", "uintc", "int_", "uint", "long", "ulong", "longlong",
    "ulonglong", "intp", "uintp", "half", "single", "double", "csingle", "cdouble", "generic", "number", "integer",
    "signedinteger", "unsignedinteger", "inexact", "floating", "complexfloating", "dtype", "euler_gamma",
    "little_endian", "typecodes",
]

# The standard's names; `bool` shadows the builtin in this module, so the code below says builtins.bool.
bool = np.bool_  # noqa: A001
int8, int16, int32, int64 = np.int8, np.int16, np.int32, np.int64
uint8, uint16, uint32, uint64 = np.uint8, np.uint16, np.uint32, np.uint64
float16, float32, float64 = np.float16, np.float32, np.float64
complex64, complex128 = np.complex64, np.complex128

# NumPy's C-named aliases of those types (long and ulong through their type codes: NumPy 1.26 lacks the names),
# for code written against NumPy's namespace; extended precision, strings, objects and dates are not npgpu
# dtypes and have no alias here.
bool_ = np.bool_
byte, ubyte, short, ushort = np.byte, np.ubyte, np.short, np.ushort
intc, uintc, int_, uint = np.intc, np.uintc, np.int_, np.uint
long, ulong = np.dtype("l").type, np.dtype("L").type
longlong, ulonglong, intp, uintp = np.longlong, np.ulonglong, np.intp, np.uintp
half, single, double, csingle, cdouble = np.half, np.single, np.double, np.csingle, np.cdouble
# The abstract scalar types, for issubdtype and isinstance checks on scalars.
generic, number, integer, inexact = np.generic, np.number, np.integer, np.inexact
signedinteger, unsignedinteger, floating, complexfloating = (
    np.signedinteger, np.unsignedinteger, np.floating, np.complexfloating)
dtype = np.dtype

e = float(np.e)
pi = float(np.pi)
inf = float("inf")
nan = float("nan")
newaxis = None
euler_gamma = float(np.euler_gamma)
little_endian = np.little_endian
typecodes = dict(np.typecodes)  # NumPy's groups of type characters, e.g. typecodes["AllFloat"]


def _api_version():
    from npgpu import _array
    # the newest version Array.__array_namespace__ accepts: one source for both
    return getattr(_array, "_API_VERSIONS", ("2024.12",))[-1]


__array_api_version__ = _api_version()

# numpy.dtype.kind letters of each of the standard's kind names.
_KINDS = {
    "bool": "b",
    "signed integer": "i",
    "unsigned integer": "u",
    "integral": "iu",
    "real floating": "f",
    "complex floating": "c",
    "numeric": "iufc",
}

_PY_SCALARS = (builtins.bool, int, float, complex)


def _as_dtype(x):
    """The numpy.dtype of an Array, a NumPy array or scalar, or a dtype-like; Python scalars are returned
    as they are, so NumPy treats them as weak (NEP 50)."""
    if isinstance(x, _PY_SCALARS):
        return x
    if not isinstance(x, (type, np.dtype)):
        dt = getattr(x, "dtype", None)  # an npgpu.Array's dtype: never hand NumPy the array itself
        if isinstance(dt, np.dtype):
            return dt
    return np.dtype(x)


def _check_dtype(dtype, what):
    """`dtype` as a numpy.dtype when it is one or a NumPy scalar type (as numpy.isdtype accepts), else
    TypeError: strings and Python types are not dtypes of the standard."""
    if isinstance(dtype, np.dtype):
        return dtype
    if isinstance(dtype, type) and issubclass(dtype, np.generic):
        return np.dtype(dtype)
    raise TypeError(f"{what} must be a dtype (npgpu.float32, ..., or a numpy.dtype), not {dtype!r}")


def isdtype(dtype, kind):
    """Whether `dtype` is of `kind`: a dtype (equality), one of the standard's kind names ('bool', 'signed
    integer', 'unsigned integer', 'integral', 'real floating', 'complex floating', 'numeric'), or a tuple of
    those (true when any matches), as the Array API standard and numpy.isdtype define it."""
    dt = _check_dtype(dtype, "isdtype: dtype")
    if isinstance(kind, tuple):
        return builtins.any(isdtype(dt, k) for k in kind)
    if isinstance(kind, str):
        if kind not in _KINDS:
            raise ValueError(f"isdtype: unknown kind {kind!r}; expected one of {sorted(_KINDS)}, a dtype or a "
                             "tuple of them")
        return dt.kind in _KINDS[kind]
    try:
        return dt == _check_dtype(kind, "kind")
    except TypeError:
        raise TypeError("isdtype: kind must be a dtype, a kind name or a tuple of them, not "
                        f"{type(kind).__name__}") from None


def result_type(*arrays_and_dtypes):
    """The dtype NumPy 2 promotes the given arrays (npgpu or NumPy), dtypes and scalars to: Arrays count by
    their dtype, Python scalars are weak (``result_type(int16_array, 1) == int16``)."""
    if not arrays_and_dtypes:
        raise ValueError("at least one array or dtype is required")
    return np.result_type(*[_as_dtype(x) for x in arrays_and_dtypes])


def can_cast(from_, to, /, casting="safe"):
    """Whether dtype (or array) `from_` casts to dtype `to` under `casting` ('no', 'equiv', 'safe',
    'same_kind', 'unsafe'), by NumPy's rules; Python scalars raise TypeError, as in NumPy 2."""
    return np.can_cast(_as_dtype(from_), np.dtype(to), casting=casting)


class _FInfo:
    """numpy.finfo with the standard's attribute types: ``bits`` an int, ``eps``, ``max``, ``min`` and
    ``smallest_normal`` Python floats (NumPy's are NumPy scalars), ``dtype`` the real floating dtype; every
    other attribute of numpy.finfo (``tiny``, ``resolution``, ``precision``, ...) is NumPy's."""

    __slots__ = ("_info", "bits", "eps", "max", "min", "smallest_normal", "dtype")

    def __init__(self, info):
        self._info = info
        self.bits = int(info.bits)
        self.eps = float(info.eps)
        self.max = float(info.max)
        self.min = float(info.min)
        self.smallest_normal = float(info.smallest_normal)
        self.dtype = info.dtype

    def __getattr__(self, name):
        return getattr(self._info, name)

    def __eq__(self, other):
        return isinstance(other, _FInfo) and other.dtype == self.dtype

    def __hash__(self):
        return hash(("npgpu.finfo", self.dtype))

    def __repr__(self):
        return (f"npgpu.finfo(bits={self.bits}, eps={self.eps!r}, max={self.max!r}, min={self.min!r}, "
                f"smallest_normal={self.smallest_normal!r}, dtype={self.dtype})")


_finfo_cache = {}


def finfo(type):  # noqa: A002  (the standard's parameter name)
    """Machine limits of a floating or complex dtype or of an Array of one (complex dtypes give their real
    part's): numpy.finfo's values, with ``eps``, ``max``, ``min`` and ``smallest_normal`` as Python floats and
    ``bits`` an int, as the standard asks."""
    info = np.finfo(_as_dtype(type))
    found = _finfo_cache.get(info.dtype)
    if found is None:
        found = _finfo_cache[info.dtype] = _FInfo(info)
    return found


def iinfo(type):  # noqa: A002
    """Machine limits (bits, max, min, dtype) of an integer dtype or of an Array of one, as numpy.iinfo (whose
    bits, max and min are already Python ints)."""
    return np.iinfo(_as_dtype(type))


def _check_device(device):
    """Raise ValueError unless `device` is None or names one of the namespace's devices."""
    if device is None:
        return
    from npgpu import _runtime
    if device == _runtime.cpu:  # npgpu.cpu, or the string "cpu"
        return
    if isinstance(device, str):
        name = device.strip().lower()
        if name == "cuda" and _runtime.device_count() > 0:
            return
        if name.startswith("cuda:") and name[5:].isdigit():
            device = int(name[5:])
    if isinstance(device, _runtime.Device):
        device = device.id
    if isinstance(device, int) and not isinstance(device, builtins.bool) and 0 <= device < _runtime.device_count():
        return
    raise ValueError(f"unknown device {device!r}: expected one of __array_namespace_info__().devices()")


class _NamespaceInfo:
    """What ``npgpu.__array_namespace_info__()`` returns: capabilities, devices and default dtypes."""

    __slots__ = ()

    def capabilities(self):
        """The optional features npgpu has: no boolean-mask indexing, no data-dependent output shapes (yet),
        at most 32 dimensions."""
        return {"boolean indexing": False, "data-dependent shapes": False, "max dimensions": 32}

    def default_device(self):
        """The device new arrays go to when none is named: ``npgpu.cpu`` under the host backend (``use_backend
        ("cpu")``, ``NPGPU_BACKEND=cpu``, no GPU), else the current GPU."""
        from npgpu import _runtime
        # get_backend() follows the same choice as the array-creation default; it allocates nothing.
        return _runtime.cpu if _runtime.get_backend() == "cpu" else _runtime.Device(_runtime.get_device_id())

    def devices(self):
        """Every device arrays can live on: ``npgpu.cpu``, then each usable GPU as an ``npgpu.Device``."""
        from npgpu import _runtime
        return [_runtime.cpu] + [_runtime.Device(i) for i in range(_runtime.device_count())]

    def default_dtypes(self, *, device=None):
        """The dtypes of arrays created without one, the same on every device: float64, complex128, int64 and
        int64 for indices."""
        _check_device(device)
        return {"real floating": np.dtype(np.float64), "complex floating": np.dtype(np.complex128),
                "integral": np.dtype(np.int64), "indexing": np.dtype(np.int64)}

    def dtypes(self, *, device=None, kind=None):
        """The Array API standard's dtypes npgpu supports (the same on every device), name -> numpy.dtype,
        optionally only those of `kind` (a kind name, a dtype or a tuple of them, as isdtype). ``npgpu.float16``
        arrays exist too, as NumPy's, but float16 is no dtype of the standard, so it is not listed."""
        _check_device(device)
        from npgpu import _array
        found = {np.dtype(d) for d in _array.SUPPORTED_DTYPES}
        order = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                 "float32", "float64", "complex64", "complex128")
        out = {n: np.dtype(n) for n in order if np.dtype(n) in found}
        if kind is None:
            return out
        return {n: d for n, d in out.items() if isdtype(d, kind)}


def __array_namespace_info__():
    """The Array API standard's inspection object: ``capabilities()``, ``default_device()``, ``devices()``,
    ``default_dtypes(device=)``, ``dtypes(device=, kind=)``."""
    return _NamespaceInfo()


# ------------------------------------------------------------------------------ NumPy's array and dtype queries

def _is_array(x):
    from npgpu import _array
    return isinstance(x, _array.Array)


def _proto(x):
    """What stands for `x` when NumPy answers a question about dtypes only: an npgpu.Array's dtype as a 0-size
    NumPy array of it (never the Array itself), anything else as it is."""
    return np.empty(0, dtype=x.dtype) if _is_array(x) else x


def isscalar(element):
    """Whether `element` is a scalar, as numpy.isscalar: a Python or NumPy scalar, a string or bytes.

    Parameters
    ----------
    element : any
        The object to test.

    Returns
    -------
    bool
        True for Python numbers, strings, bytes and NumPy scalars; False for arrays of any number of dimensions
        (0-d npgpu.Arrays included), lists and None.

    See Also
    --------
    ndim : The number of dimensions of an array or array-like.

    Examples
    --------
    >>> npgpu.isscalar(3.0), npgpu.isscalar(np.float32(1))
    (True, True)
    >>> npgpu.isscalar(npgpu.asarray(3.0, device="cpu"))
    False
    """
    return False if _is_array(element) else builtins.bool(np.isscalar(element))


def iterable(y):
    """Whether `y` can be iterated over, as numpy.iterable.

    Parameters
    ----------
    y : any
        The object to test.

    Returns
    -------
    bool
        True when ``iter(y)`` succeeds: lists, strings, arrays of one dimension or more; False for scalars and
        0-d arrays.

    See Also
    --------
    isscalar

    Examples
    --------
    >>> npgpu.iterable(npgpu.asarray([1, 2], device="cpu")), npgpu.iterable(npgpu.asarray(1, device="cpu"))
    (True, False)
    >>> npgpu.iterable(2)
    False
    """
    if _is_array(y):
        return y.ndim > 0
    return builtins.bool(np.iterable(y))


def ndim(a):
    """The number of dimensions of an array, as numpy.ndim.

    Parameters
    ----------
    a : npgpu.Array or array_like
        An npgpu.Array (its ``.ndim``, nothing copied) or anything NumPy makes an array of.

    Returns
    -------
    int
        The number of dimensions.

    Raises
    ------
    ValueError
        `a` is a ragged nested sequence NumPy cannot make an array of.

    See Also
    --------
    shape, size

    Examples
    --------
    >>> npgpu.ndim(npgpu.ones((2, 3), device="cpu")), npgpu.ndim([[1, 2]]), npgpu.ndim(1)
    (2, 2, 0)
    """
    return a.ndim if _is_array(a) else int(np.ndim(a))


def shape(a):
    """The shape of an array, as numpy.shape.

    Parameters
    ----------
    a : npgpu.Array or array_like
        An npgpu.Array (its ``.shape``, nothing copied) or anything NumPy makes an array of.

    Returns
    -------
    tuple of ints
        The length of each dimension.

    Raises
    ------
    ValueError
        `a` is a ragged nested sequence NumPy cannot make an array of.

    See Also
    --------
    ndim, size

    Examples
    --------
    >>> npgpu.shape(npgpu.ones((2, 3), device="cpu"))
    (2, 3)
    >>> npgpu.shape([[1, 2]]), npgpu.shape(0)
    ((1, 2), ())
    """
    return tuple(a.shape) if _is_array(a) else tuple(np.shape(a))


def size(a, axis=None):
    """The number of elements of an array, or along given axes, as numpy.size.

    Parameters
    ----------
    a : npgpu.Array or array_like
        An npgpu.Array (its shape, nothing copied) or anything NumPy makes an array of.
    axis : int or tuple of ints, optional
        The axes whose lengths are multiplied; None (default) counts all elements. Negative axes count from
        the end.

    Returns
    -------
    int
        The number of elements.

    Raises
    ------
    numpy.exceptions.AxisError
        An axis out of range.
    TypeError
        An axis that is not an integer.

    See Also
    --------
    shape, ndim

    Examples
    --------
    >>> a = npgpu.ones((2, 3), device="cpu")
    >>> npgpu.size(a), npgpu.size(a, 1), npgpu.size(a, (0, -1))
    (6, 3, 6)
    """
    shp = shape(a)
    if axis is None:
        return math.prod(shp)
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    n = 1
    for ax in axes:
        ax = operator.index(ax)
        if not -len(shp) <= ax < len(shp):
            raise np.exceptions.AxisError(ax, len(shp))
        n *= shp[ax]
    return n


def _f_contiguous(a):
    """Whether an npgpu.Array is Fortran-contiguous, from its shape and strides as NumPy decides it (length-1
    axes do not count; an empty array is contiguous)."""
    if a.size == 0:
        return True
    expected = a.itemsize
    for n, st in zip(a.shape, a.strides):
        if n != 1:
            if st != expected:
                return False
            expected *= n
    return True


def isfortran(a):
    """Whether an array is Fortran-contiguous and not C-contiguous, as numpy.isfortran.

    Parameters
    ----------
    a : npgpu.Array or numpy.ndarray
        The array; its strides are read, nothing is copied.

    Returns
    -------
    bool
        True for Fortran-ordered arrays of two dimensions or more that are not also C-contiguous (a 1-D array
        is both, so False).

    Raises
    ------
    TypeError
        `a` is not an array (NumPy raises AttributeError there).

    See Also
    --------
    require : An array with the given layout.

    Examples
    --------
    >>> a = npgpu.ones((2, 3), device="cpu")
    >>> npgpu.isfortran(a), npgpu.isfortran(a.T)
    (False, True)
    """
    if _is_array(a):
        return _f_contiguous(a) and not a.flags["C_CONTIGUOUS"]
    if isinstance(a, np.ndarray):
        return builtins.bool(np.isfortran(a))
    raise TypeError(f"isfortran: expected an array, not {type(a).__name__}")


def _extent(x):
    """(device name, first address, shape, strides, itemsize) of an npgpu.Array or NumPy array, or None for
    anything else (NumPy would make a new array of it, sharing no memory)."""
    if _is_array(x):
        return str(x.device), x.ptr, tuple(x.shape), tuple(x.strides), x.itemsize
    if isinstance(x, np.ndarray):
        return "cpu", x.__array_interface__["data"][0], x.shape, x.strides, x.itemsize
    return None


def _bounds(ext):
    """[low, high) byte range an extent touches (None when it holds no element)."""
    _, ptr, shp, strides, itemsize = ext
    if math.prod(shp) == 0:
        return None
    low = ptr + builtins.sum(st * (n - 1) for n, st in zip(shp, strides) if st < 0)
    high = ptr + builtins.sum(st * (n - 1) for n, st in zip(shp, strides) if st > 0) + itemsize
    return low, high


def _addresses(ext):
    """The first address of each element of an extent, sorted (host arithmetic on shape and strides only)."""
    _, ptr, shp, strides, _ = ext
    addr = np.full((), ptr, dtype=np.int64)
    for n, st in zip(shp, strides):
        addr = np.add.outer(addr, np.arange(n, dtype=np.int64) * st)
    return np.unique(addr.ravel())


def _overlap(a, b, exact):
    ea, eb = _extent(a), _extent(b)
    if ea is None or eb is None or ea[0] != eb[0]:
        return False
    ba, bb = _bounds(ea), _bounds(eb)
    if ba is None or bb is None or ba[1] <= bb[0] or bb[1] <= ba[0]:
        return False
    if not exact:
        return True
    # exact: does any element's byte range [addr, addr + itemsize) of one meet one of the other?
    xa, xb = _addresses(ea), _addresses(eb)
    if xa.size > xb.size:
        (xa, ea), (xb, eb) = (xb, eb), (xa, ea)
    # for each element start s of a, the nearest start of b at or below s + itemsize_a - 1
    i = np.searchsorted(xb, xa + ea[4] - 1, side="right") - 1
    ok = i >= 0
    return builtins.bool(np.any(xb[i[ok]] + eb[4] > xa[ok]))


def _max_work(max_work):
    if max_work is None:
        return -1
    max_work = operator.index(max_work)
    if max_work < -1:
        raise ValueError("Invalid value for max_work")
    return max_work


def may_share_memory(a, b, /, max_work=None):
    """Whether two arrays might share memory, as numpy.may_share_memory: by default only their memory bounds
    are compared, so a True can be wrong (``a[::2]`` and ``a[1::2]``), a False never.

    Parameters
    ----------
    a, b : npgpu.Array, numpy.ndarray or array_like
        The arrays. Only their pointers, shapes and strides are read, nothing is copied. Arrays on different
        devices share nothing; other inputs (lists, scalars) are new arrays and share nothing.
    max_work : int, optional
        None (default) or 0 (``numpy.MAY_SHARE_BOUNDS``): compare the bounds only. -1 (``numpy.MAY_SHARE_EXACT``)
        or a positive number: the exact answer, as shares_memory.

    Returns
    -------
    bool
        False when the arrays certainly share no memory.

    Raises
    ------
    ValueError
        `max_work` is below -1.
    TypeError
        `max_work` is not an integer.

    See Also
    --------
    shares_memory : The exact answer.

    Examples
    --------
    >>> a = npgpu.arange(6, device="cpu")
    >>> npgpu.may_share_memory(a[::2], a[1::2]), npgpu.may_share_memory(a[:3], a[3:])
    (True, False)
    """
    max_work = 0 if max_work is None else _max_work(max_work)
    return _overlap(a, b, exact=max_work != 0)


def shares_memory(a, b, /, max_work=-1):
    """Whether two arrays share memory, exactly, as numpy.shares_memory.

    Parameters
    ----------
    a, b : npgpu.Array, numpy.ndarray or array_like
        The arrays. Their pointers, shapes and strides are read (nothing is copied): the addresses of their
        elements are compared on the host. Arrays on different devices share nothing; other inputs (lists,
        scalars) are new arrays and share nothing.
    max_work : int, optional
        -1 (default, ``numpy.MAY_SHARE_EXACT``) or a positive number: the exact answer (npgpu always solves it
        exactly, it never raises numpy.exceptions.TooHardError). 0 (``numpy.MAY_SHARE_BOUNDS``): compare the
        bounds only, as may_share_memory.

    Returns
    -------
    bool
        True when an element of one overlaps an element of the other.

    Raises
    ------
    ValueError
        `max_work` is below -1.
    TypeError
        `max_work` is not an integer.

    See Also
    --------
    may_share_memory : The cheaper, conservative answer.

    Examples
    --------
    >>> a = npgpu.arange(6, device="cpu")
    >>> npgpu.shares_memory(a[::2], a[1::2]), npgpu.shares_memory(a, a[2:4])
    (False, True)
    """
    max_work = _max_work(max_work)
    return _overlap(a, b, exact=max_work != 0)


def promote_types(type1, type2):
    """The smallest dtype both dtypes cast to safely, as numpy.promote_types.

    Parameters
    ----------
    type1, type2 : dtype, dtype-like or npgpu.Array
        The dtypes; an npgpu.Array contributes its dtype.

    Returns
    -------
    numpy.dtype
        The promoted dtype (native byte order).

    Raises
    ------
    TypeError
        No common dtype exists (numpy.exceptions.DTypePromotionError, a TypeError), or an argument is not a
        dtype.

    See Also
    --------
    result_type, can_cast

    Examples
    --------
    >>> npgpu.promote_types(npgpu.int8, npgpu.uint8)
    dtype('int16')
    >>> npgpu.promote_types("f4", npgpu.asarray([1], dtype=np.int32, device="cpu"))
    dtype('float64')
    """
    return np.promote_types(*(x.dtype if _is_array(x) else x for x in (type1, type2)))


def min_scalar_type(a, /):
    """The smallest dtype that holds a scalar's value, as numpy.min_scalar_type.

    Parameters
    ----------
    a : scalar, array_like or npgpu.Array
        A scalar (its value decides), or an array (of one dimension or more: its dtype is the answer). A 0-d
        npgpu.Array is read back to the host.

    Returns
    -------
    numpy.dtype
        The dtype.

    See Also
    --------
    result_type, promote_types

    Examples
    --------
    >>> npgpu.min_scalar_type(10), npgpu.min_scalar_type(-260), npgpu.min_scalar_type(1e50)
    (dtype('uint8'), dtype('int16'), dtype('float64'))
    >>> npgpu.min_scalar_type(npgpu.asarray([1.0], device="cpu"))
    dtype('float64')
    """
    if _is_array(a):
        return np.min_scalar_type(a.get()[()]) if a.ndim == 0 else a.dtype
    return np.min_scalar_type(a)


def issubdtype(arg1, arg2):
    """Whether dtype `arg1` is `arg2` or below it in NumPy's type hierarchy, as numpy.issubdtype.

    Parameters
    ----------
    arg1 : dtype, dtype-like or npgpu.Array
        The dtype tested (an npgpu.Array contributes its dtype).
    arg2 : dtype, dtype-like or abstract type
        A dtype or an abstract class of the hierarchy (``np.integer``, ``np.floating``, ``np.number``, ...).

    Returns
    -------
    bool
        True when `arg1` is a sub-type of `arg2`.

    Raises
    ------
    TypeError
        An argument is not a dtype or type NumPy knows.

    See Also
    --------
    isdtype : The Array API standard's kind test.

    Examples
    --------
    >>> npgpu.issubdtype(npgpu.float32, np.floating), npgpu.issubdtype(npgpu.int8, np.unsignedinteger)
    (True, False)
    """
    return builtins.bool(np.issubdtype(*(x.dtype if _is_array(x) else x for x in (arg1, arg2))))


def common_type(*arrays):
    """The inexact scalar type common to the input arrays, as numpy.common_type: integers count as float64,
    float16 stays float16 only among float16 arrays.

    Parameters
    ----------
    *arrays : npgpu.Array or numpy.ndarray
        The arrays; only their dtypes are read.

    Returns
    -------
    type
        A NumPy scalar type: float16, float32, float64 (or longdouble), or a complex one.

    Raises
    ------
    TypeError
        An array of a non-numeric dtype (bool included), or an input that has no dtype.

    See Also
    --------
    result_type, mintypecode

    Examples
    --------
    >>> npgpu.common_type(npgpu.asarray([1], dtype=np.float32, device="cpu"))
    <class 'numpy.float32'>
    >>> npgpu.common_type(npgpu.asarray([1], device="cpu"), npgpu.asarray([1j], dtype=np.complex64, device="cpu"))
    <class 'numpy.complex128'>
    """
    protos = []
    for a in arrays:
        dt = getattr(a, "dtype", None)
        if not isinstance(dt, np.dtype):
            raise TypeError(f"common_type: expected arrays, not {type(a).__name__}")
        protos.append(np.empty(0, dtype=dt))
    return np.common_type(*protos)


def mintypecode(typechars, typeset="GDFgdf", default="d"):
    """The character of the smallest safe type of `typeset` for the given types, as numpy.mintypecode.

    Parameters
    ----------
    typechars : iterable of str or arrays
        Type characters, or arrays (npgpu or NumPy) whose dtype characters count.
    typeset : str or iterable of str, optional
        The characters the answer is chosen from (default ``'GDFgdf'``).
    default : str, optional
        The answer when no character of `typechars` is in `typeset` (default ``'d'``).

    Returns
    -------
    str
        A type character.

    Raises
    ------
    TypeError
        `typechars` is not iterable.

    See Also
    --------
    common_type

    Examples
    --------
    >>> npgpu.mintypecode(["d", "f", "S"])
    'd'
    >>> npgpu.mintypecode([npgpu.asarray([1j], dtype=np.complex64, device="cpu"), "d"])
    'D'
    """
    chars = [t.dtype.char if _is_array(t) else t for t in typechars]
    return np.mintypecode(chars, typeset=typeset, default=default)


class _KeyValueError(KeyError, ValueError):
    """An unknown key (a requirement of require, a type character of typename): NumPy raises KeyError; this
    is a ValueError too, the type npgpu raises for bad argument values."""

    def __str__(self):
        return str(self.args[0]) if self.args else ""


def typename(char):
    """The description of a type character, as numpy.typename.

    Parameters
    ----------
    char : str
        A type character (``'d'``, ``'f'``, ``'b'``, ...).

    Returns
    -------
    str
        Its description, e.g. ``'double precision'``.

    Raises
    ------
    KeyError
        `char` is not a type character NumPy describes (NumPy's exception type; the exception raised is a
        ValueError too).

    See Also
    --------
    mintypecode

    Examples
    --------
    >>> npgpu.typename("d"), npgpu.typename("F")
    ('double precision', 'complex single precision')
    """
    try:
        return np.typename(char)
    except TypeError:  # unhashable
        raise TypeError(f"typename: expected a type character, not {type(char).__name__}") from None
    except KeyError:
        raise _KeyValueError(f"typename: unknown type character {char!r}") from None


def _convert(a, dtype, order, device, copy, name):
    from npgpu import _array, _creation
    if order not in (None, "K", "A", "C", "F"):
        raise ValueError(f"{name}: order must be one of 'K', 'A', 'C', 'F' or None, not {order!r}")
    out = _array.asarray(a, dtype=dtype, device=device, copy=copy)
    if order in ("C", "F"):
        laid = _creation._in_order(out, order)
        if laid is not out and copy is False:
            raise ValueError(f"{name}: a copy is needed for order {order!r} but copy=False")
        out = laid
    return out


def asanyarray(a, dtype=None, order=None, *, device=None, copy=None):
    """Convert the input to an npgpu.Array, as numpy.asanyarray (npgpu has no array subclasses, so this is
    ``npgpu.asarray`` with `order`).

    Parameters
    ----------
    a : array_like or npgpu.Array
        Anything ``npgpu.asarray`` takes. An npgpu.Array is returned as it is when no copy or conversion is
        needed.
    dtype : dtype, optional
        The dtype (default: the input's).
    order : {None, 'K', 'A', 'C', 'F'}, optional
        The memory layout: 'C' or 'F' lay the result out so (copying when needed); the others keep it.
    device : optional
        Where the result lives: what ``npgpu.asarray`` takes (None: the input's device, else the default).
    copy : bool, optional
        True: always copy; False: never (ValueError when one is needed); None (default): when needed.

    Returns
    -------
    npgpu.Array
        The array.

    Raises
    ------
    ValueError
        A copy is needed with ``copy=False``, or an unknown `order`.
    TypeError
        `a` cannot be converted.

    See Also
    --------
    asarray_chkfinite, require

    Examples
    --------
    >>> a = npgpu.asarray([1, 2], device="cpu")
    >>> npgpu.asanyarray(a) is a
    True
    >>> npgpu.asanyarray([[1, 2], [3, 4]], order="F", device="cpu").strides
    (8, 16)
    """
    return _convert(a, dtype, order, device, copy, "asanyarray")


def asarray_chkfinite(a, dtype=None, order=None, *, device=None):
    """Convert the input to an npgpu.Array, raising ValueError if it holds infinities or NaNs, as
    numpy.asarray_chkfinite.

    Parameters
    ----------
    a : array_like or npgpu.Array
        Anything ``npgpu.asarray`` takes.
    dtype : dtype, optional
        The dtype (default: the input's).
    order : {None, 'K', 'A', 'C', 'F'}, optional
        The memory layout, as asanyarray.
    device : optional
        Where the result lives: what ``npgpu.asarray`` takes.

    Returns
    -------
    npgpu.Array
        The array (not a copy when none is needed).

    Raises
    ------
    ValueError
        An element is infinite or NaN ("array must not contain infs or NaNs"); the check is one reduction on
        the device and a one-byte read.

    See Also
    --------
    asanyarray

    Examples
    --------
    >>> npgpu.asarray_chkfinite([1.0, 2.0], device="cpu")
    Array([1., 2.])
    >>> npgpu.asarray_chkfinite([1.0, np.inf], device="cpu")
    Traceback (most recent call last):
        ...
    ValueError: array must not contain infs or NaNs
    """
    out = _convert(a, dtype, order, device, None, "asarray_chkfinite")
    if out.dtype.kind in "fc" and out.size:
        from npgpu import _elementwise, _reduce
        if not builtins.bool(_reduce.all(_elementwise.isfinite(out))):
            raise ValueError("array must not contain infs or NaNs")
    return out


_REQUIREMENTS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F", "F_CONTIGUOUS": "F",
                 "FORTRAN": "F", "A": "A", "ALIGNED": "A", "W": "W", "WRITEABLE": "W", "O": "O", "OWNDATA": "O",
                 "E": "E", "ENSUREARRAY": "E"}


def require(a, dtype=None, requirements=None, *, device=None):
    """An npgpu.Array of the given dtype satisfying the given requirements, as numpy.require: the input itself
    when it already does, else a copy that does.

    Parameters
    ----------
    a : array_like or npgpu.Array
        Anything ``npgpu.asarray`` takes.
    dtype : dtype, optional
        The dtype (default: the input's).
    requirements : str or sequence of str, optional
        Flags the result must have: 'C' (``'C_CONTIGUOUS'``, ``'CONTIGUOUS'``), 'F' (``'F_CONTIGUOUS'``,
        ``'FORTRAN'``), 'A' (``'ALIGNED'``, always true of npgpu.Arrays), 'W' (``'WRITEABLE'``), 'O'
        (``'OWNDATA'``: a fresh copy unless `a` owns its memory), 'E' (``'ENSUREARRAY'``: a base-class
        array, which every npgpu.Array is).
        Case does not matter; a string is read letter by letter (``"CW"`` is 'C' and 'W'), as NumPy reads
        it. A Fortran-ordered npgpu.Array is a transposed view (its OWNDATA flag is False), so 'O' copies one
        where NumPy may not.
    device : optional
        Where the result lives: what ``npgpu.asarray`` takes.

    Returns
    -------
    npgpu.Array
        The array.

    Raises
    ------
    ValueError
        Both 'C' and 'F' are required.
    KeyError
        An unknown requirement (NumPy's type; the exception raised is a ValueError too).

    See Also
    --------
    asanyarray, isfortran

    Examples
    --------
    >>> a = npgpu.ones((2, 3), device="cpu")
    >>> npgpu.require(a, requirements="C") is a
    True
    >>> b = npgpu.require(a, requirements=["F", "W"])
    >>> npgpu.isfortran(b), b.flags["WRITEABLE"]
    (True, True)
    """
    if not requirements:
        return asanyarray(a, dtype=dtype, device=device)
    req = set()  # a string is a sequence of one-letter requirements, as NumPy iterates it
    for r in requirements:
        if not isinstance(r, str) or r.upper() not in _REQUIREMENTS:
            raise _KeyValueError(f"require: unknown requirement {r!r}; expected one of "
                                    f"{', '.join(sorted(_REQUIREMENTS))}")
        req.add(_REQUIREMENTS[r.upper()])
    req.discard("E")
    req.discard("A")
    if {"C", "F"} <= req:
        raise ValueError('Cannot specify both "C" and "F" order')
    order = "C" if "C" in req else "F" if "F" in req else "A"
    req -= {"C", "F"}
    out = _convert(a, dtype, order if order != "A" else None, device, None, "require")
    flags = out.flags
    if ("W" in req and not flags["WRITEABLE"]) or ("O" in req and not _owns_data(out)):
        # a fresh copy; a Fortran-ordered one is the transposed view of a fresh C-ordered buffer, private to it
        keep_f = order == "F" or (order == "A" and isfortran(out))  # NumPy's copy(order): 'A' keeps Fortran order
        out = _convert(out, None, "F" if keep_f else "C", None, True, "require")
    return out


def _owns_data(a):
    return a.flags.get("OWNDATA", False)
