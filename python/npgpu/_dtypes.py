"""The Array API standard's dtype objects and dtype functions, constants, and ``__array_namespace_info__``.

npgpu's dtypes are NumPy's scalar types (as CuPy's are): ``npgpu.float32 == np.dtype("float32")`` and
``npgpu.float32(1.5)`` both work, and an Array's ``.dtype`` is a ``numpy.dtype``. The functions take npgpu
Arrays as well as dtypes and never pass an Array to NumPy (NumPy would copy a GPU array to the host).
"""
import builtins

import numpy as np

__all__ = [
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
    "float64", "complex64", "complex128", "isdtype", "result_type", "can_cast", "finfo", "iinfo", "e", "pi", "inf",
    "nan", "newaxis", "__array_namespace_info__",
]

bool = np.bool_  # noqa: A001  (the standard's name)
int8, int16, int32, int64 = np.int8, np.int16, np.int32, np.int64
uint8, uint16, uint32, uint64 = np.uint8, np.uint16, np.uint32, np.uint64
float16, float32, float64 = np.float16, np.float32, np.float64
complex64, complex128 = np.complex64, np.complex128

e = float(np.e)
pi = float(np.pi)
inf = float("inf")
nan = float("nan")
newaxis = None

_KINDS = {
    "bool": "b",
    "signed integer": "i",
    "unsigned integer": "u",
    "integral": "iu",
    "real floating": "f",
    "complex floating": "c",
    "numeric": "iufc",
}


def _as_dtype(x):
    """The numpy.dtype of an Array, a NumPy array or a dtype-like; Python scalars stay as they are (weak)."""
    if isinstance(x, (builtins.bool, int, float, complex)):
        return x
    dt = getattr(x, "dtype", None)
    if dt is not None and not isinstance(x, type):
        return np.dtype(dt)
    return np.dtype(x)


def isdtype(dtype, kind):
    """Whether `dtype` is of `kind`: a dtype, one of the standard's kind names ('bool', 'signed integer',
    'unsigned integer', 'integral', 'real floating', 'complex floating', 'numeric'), or a tuple of them."""
    dt = np.dtype(dtype)
    if isinstance(kind, tuple):
        return builtins.any(isdtype(dt, k) for k in kind)
    if isinstance(kind, str):
        if kind not in _KINDS:
            raise ValueError(f"unknown dtype kind {kind!r}; expected one of {sorted(_KINDS)}")
        return dt.kind in _KINDS[kind]
    try:
        return dt == np.dtype(kind)
    except TypeError:
        raise TypeError(f"kind must be a dtype, a kind name or a tuple of them, not {type(kind).__name__}") from None


def result_type(*arrays_and_dtypes):
    """NumPy 2's promotion of the arrays' dtypes and the dtypes given (Python scalars weak)."""
    if not arrays_and_dtypes:
        raise ValueError("at least one array or dtype is required")
    return np.result_type(*[_as_dtype(x) for x in arrays_and_dtypes])


def can_cast(from_, to, /, casting="safe"):
    """Whether a value of dtype (or array) `from_` can be cast to `to` under `casting` (NumPy's rules)."""
    return np.can_cast(_as_dtype(from_), np.dtype(to), casting=casting)


def finfo(type):  # noqa: A002  (the standard's signature)
    """Machine limits of a floating dtype (or an Array of one), as numpy.finfo."""
    return np.finfo(_as_dtype(type))


def iinfo(type):  # noqa: A002
    """Machine limits of an integer dtype (or an Array of one), as numpy.iinfo."""
    return np.iinfo(_as_dtype(type))


class _NamespaceInfo:
    """What ``npgpu.__array_namespace_info__()`` returns: capabilities, devices and default dtypes."""

    def capabilities(self):
        return {"boolean indexing": False, "data-dependent shapes": False, "max dimensions": 32}

    def default_device(self):
        from npgpu import _runtime
        return _runtime.cpu if _runtime.get_backend() == "cpu" else _runtime.Device(_runtime.get_device_id())

    def devices(self):
        from npgpu import _runtime
        return [_runtime.cpu] + [_runtime.Device(i) for i in range(_runtime.device_count())]

    def default_dtypes(self, *, device=None):
        return {"real floating": np.dtype(np.float64), "complex floating": np.dtype(np.complex128),
                "integral": np.dtype(np.int64), "indexing": np.dtype(np.int64)}

    def dtypes(self, *, device=None, kind=None):
        names = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32",
                 "float64", "complex64", "complex128")
        out = {n: np.dtype(n) for n in names}
        if kind is None:
            return out
        return {n: d for n, d in out.items() if isdtype(d, kind)}


def __array_namespace_info__():
    """The Array API standard's inspection object: ``capabilities()``, ``default_device()``, ``devices()``,
    ``default_dtypes()``, ``dtypes(kind=...)``."""
    return _NamespaceInfo()
