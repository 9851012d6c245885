"""The Array API standard's dtype objects and dtype functions, constants, and ``__array_namespace_info__``.

npgpu's dtypes are NumPy's scalar types (as CuPy's are): ``npgpu.float32 == np.dtype("float32")`` and
``npgpu.float32(1.5)`` both work, and an Array's ``.dtype`` is a ``numpy.dtype``. The functions take npgpu
Arrays as well as dtypes and never pass an Array to NumPy (NumPy would copy a GPU array to the host through
``__array__``): an Array contributes its ``.dtype`` only.
"""
import builtins

import numpy as np

__all__ = [
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
    "float64", "complex64", "complex128", "isdtype", "result_type", "can_cast", "finfo", "iinfo", "e", "pi", "inf",
    "nan", "newaxis", "__array_namespace_info__", "__array_api_version__",
]

# The standard's names; `bool` shadows the builtin in this module, so the code below says builtins.bool.
bool = np.bool_  # noqa: A001
int8, int16, int32, int64 = np.int8, np.int16, np.int32, np.int64
uint8, uint16, uint32, uint64 = np.uint8, np.uint16, np.uint32, np.uint64
float16, float32, float64 = np.float16, np.float32, np.float64
complex64, complex128 = np.complex64, np.complex128

e = float(np.e)
pi = float(np.pi)
inf = float("inf")
nan = float("nan")
newaxis = None


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
