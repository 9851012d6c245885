"""The table behind ``npgpu.Array.__array_function__``: a NumPy function called on npgpu arrays runs npgpu's
function of the same name and returns what it returns (npgpu arrays on the operands' device).

``numpy.X`` runs ``npgpu.X``, ``numpy.linalg.X`` runs ``npgpu.linalg.X`` and ``numpy.fft.X`` runs
``npgpu.fft.X`` (when those modules exist; ``numpy.linalg.norm`` and ``numpy.linalg.matmul`` fall back to
npgpu's top-level norm and matmul). Names are looked up at call time, so functions other modules add to npgpu
later are found. A NumPy function npgpu lacks, arguments npgpu's function does not take, and a NumPy array
beside the npgpu arrays raise TypeError naming them: an npgpu array never silently becomes a NumPy array, nor
a NumPy array an npgpu one.
"""
import functools
import inspect
import types

import numpy as np

import npgpu

# numpy.linalg functions that are npgpu top-level functions with the same semantics, for use while
# npgpu.linalg lacks them.
_LINALG_TOP_LEVEL = ("norm", "matmul")


def _copy(a, order="K", subok=False):
    if order not in ("K", "A", "C"):
        raise NotImplementedError(f"numpy.copy of an npgpu array: order={order!r} (npgpu copies in C order)")
    return a.copy()


# NumPy functions that read an attribute, for as long as npgpu has no function of that name.
_ATTRIBUTES = {
    "shape": lambda a: a.shape,
    "ndim": lambda a: a.ndim,
    "size": lambda a, axis=None: a.size if axis is None else a.shape[axis],
    "copy": _copy,
    "iscomplexobj": lambda x: x.dtype.kind == "c",
    "isrealobj": lambda x: x.dtype.kind != "c",
}


def _public_path(func):
    """('linalg',) for numpy.linalg.norm, () for numpy.concatenate (private modules such as numpy._core
    left out), or None when `func` is not NumPy's."""
    parts = (getattr(func, "__module__", None) or "").split(".")
    if parts[0] != "numpy":
        return None
    return tuple(p for p in parts[1:] if not p.startswith("_"))


def _qualified(func):
    path = _public_path(func)
    if path is None:
        return f"{getattr(func, '__module__', None)}.{func.__name__}"
    return ".".join(("numpy",) + path + (func.__name__,))


def _usable(target):
    # dtype objects (npgpu.float32), classes and modules of the same name are not the function
    return target is not None and callable(target) and not isinstance(target, (type, types.ModuleType))


def _lookup(func):
    """(npgpu's function for NumPy's `func`, None), or (None, why there is none)."""
    name = func.__name__
    path = _public_path(func)
    if path is None:
        return None, "not a NumPy function"
    module = npgpu
    for i, part in enumerate(path):
        module = getattr(module, part, None)
        if not isinstance(module, types.ModuleType):
            missing = f"no {'.'.join(('npgpu',) + path[:i + 1])} module"
            break
    else:
        missing = None
        target = getattr(module, name, None)
        if _usable(target):
            return target, None
    if path == () and name in _ATTRIBUTES:
        return _ATTRIBUTES[name], None
    if path == ("linalg",) and name in _LINALG_TOP_LEVEL and _usable(getattr(npgpu, name, None)):
        return getattr(npgpu, name), None
    return None, missing or f"no {'.'.join(('npgpu',) + path + (name,))}"


@functools.lru_cache(maxsize=None)
def _signature(fn):
    """inspect.signature of `fn`, or None where it has none (a builtin without a text signature)."""
    try:
        return inspect.signature(fn)
    except (TypeError, ValueError):
        return None


def _drop_numpy_defaults(func, target_sig, kwargs):
    """`kwargs` without the keywords `target` lacks whose value is NumPy's own default for them (``out=None``,
    ``order='C'``, ``initial=np._NoValue``): passing a default says nothing, and callers such as wrappers of
    NumPy pass them explicitly."""
    params = target_sig.parameters
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return kwargs
    numpy_sig = _signature(func)
    if numpy_sig is None:
        return kwargs
    kept = {}
    for key, value in kwargs.items():
        p = numpy_sig.parameters.get(key)
        if key not in params and p is not None and p.default is not p.empty and _same(value, p.default):
            continue
        kept[key] = value
    return kept


def _same(value, default):
    if value is default:
        return True
    simple = (type(None), bool, int, float, str)
    return type(value) is type(default) and isinstance(value, simple) and value == default


def array_function(func, types, args, kwargs):
    """NumPy's `func` on npgpu arrays (``Array.__array_function__``): run npgpu's function of the same name on
    `args` and `kwargs`; TypeError naming `func` where npgpu has none, its function does not take these
    arguments or a NumPy array takes part; NotImplemented when another array type takes part (NumPy then asks
    it, or raises)."""
    for t in types:
        if not (issubclass(t, npgpu.Array) or issubclass(t, np.ndarray)):
            return NotImplemented
    qual = _qualified(func)
    for t in types:
        if issubclass(t, np.ndarray):  # npgpu never moves data between devices implicitly
            raise TypeError(f"{qual}: cannot mix a host array ({t.__module__}.{t.__name__}) with npgpu arrays; "
                            "move it first with npgpu.asarray(x), or the npgpu arrays with x.get()")
    target, why = _lookup(func)
    if target is None:
        raise TypeError(f"{qual} is not supported on npgpu arrays by npgpu ({why}); convert explicitly with "
                        f"x.get() or np.asarray(x) to use NumPy's, or npgpu.asarray(x, device='cpu') for npgpu's "
                        "host device")
    sig = _signature(target)
    if sig is not None:
        kwargs = _drop_numpy_defaults(func, sig, kwargs)
        try:
            sig.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{qual} on npgpu arrays: npgpu's {func.__name__} does not take these arguments "
                            f"({e}; it takes {func.__name__}{sig})") from None
    return target(*args, **kwargs)
