"""The table behind ``npgpu.Array.__array_function__``: NumPy's functions called on npgpu arrays run npgpu's
function of the same name (numpy.linalg.X -> npgpu.linalg.X, numpy.fft.X -> npgpu.fft.X when those modules
exist) and return npgpu arrays. A NumPy function npgpu lacks raises TypeError naming it: an npgpu array
never silently becomes a NumPy array."""
import numpy as np

import npgpu

# NumPy functions whose npgpu counterpart has another name, or that only read an attribute.
_RENAMED = {"amax": "max", "amin": "min", "around": "round", "round_": "round", "cumulative_sum": "cumulative_sum"}
_ATTRIBUTES = {
    "shape": lambda a: a.shape,
    "ndim": lambda a: a.ndim,
    "size": lambda a, axis=None: a.size if axis is None else a.shape[axis],
    "copy": lambda a, order="K", subok=False: a.copy(),
    "iscomplexobj": lambda x: x.dtype.kind == "c",
    "isrealobj": lambda x: x.dtype.kind != "c",
}


def _target(func):
    name = func.__name__
    if name in _ATTRIBUTES and func.__module__ == "numpy":
        return _ATTRIBUTES[name]
    module = npgpu
    sub = func.__module__.split(".")[1:] if func.__module__ else []
    sub = [s for s in sub if not s.startswith("_")]  # numpy._core.fromnumeric -> the top level
    for part in sub:
        module = getattr(module, part, None)
        if module is None:
            # numpy.linalg.norm: npgpu's norm lives at the top level until npgpu.linalg exists.
            return getattr(npgpu, name, None) if (part, name) == ("linalg", "norm") else None
    return getattr(module, _RENAMED.get(name, name), None)


def array_function(func, types, args, kwargs):
    """Run NumPy function `func` on npgpu arrays through npgpu's function of the same name."""
    for t in types:
        if not (issubclass(t, npgpu.Array) or issubclass(t, np.ndarray)):
            return NotImplemented
    target = _target(func)
    where = f"numpy.{'.'.join(p for p in (func.__module__ or 'numpy').split('.')[1:] if not p.startswith('_'))}"
    qual = f"{where}.{func.__name__}".replace("numpy..", "numpy.")
    if target is None or not callable(target):
        raise TypeError(f"{qual} is not supported on npgpu arrays by npgpu (npgpu has no "
                        f"'{func.__name__}'); convert explicitly with .get() or np.asarray(x) to use NumPy's")
    try:
        return target(*args, **kwargs)
    except TypeError as e:
        if "unexpected keyword argument" in str(e) or "positional argument" in str(e):
            raise TypeError(f"{qual} on npgpu arrays: npgpu's {func.__name__} does not take these arguments "
                            f"({e})") from None
        raise
