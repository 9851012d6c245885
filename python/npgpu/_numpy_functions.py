"""The table behind ``npgpu.Array.__array_function__``: a NumPy function called on npgpu arrays runs npgpu's
function of the same name and returns what it returns (npgpu arrays on the operands' device).

``numpy.X`` runs ``npgpu.X``, ``numpy.linalg.X`` runs ``npgpu.linalg.X`` and ``numpy.fft.X`` runs
``npgpu.fft.X`` (when those modules exist; ``numpy.linalg.norm`` and ``numpy.linalg.matmul`` fall back to
npgpu's top-level norm and matmul). Names are looked up at call time, so functions other modules add to npgpu
later are found. A NumPy function npgpu lacks, arguments npgpu's function does not take, and a NumPy array
beside the npgpu arrays raise TypeError naming them: an npgpu array never silently becomes a NumPy array, nor
a NumPy array an npgpu one.

Where NumPy's signature differs from npgpu's (the ``*_like`` creation functions with ``order=`` and
``subok=``, ``array``/``asarray`` reached through ``like=``), an adapter in ``_ADAPTERS`` takes NumPy's
arguments and runs npgpu's functions: these are what ``dask.array`` calls on npgpu chunks (see docs/dask.md).
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


def _check_order(name, order, allowed=("K", "A", "C")):
    if order is not None and order not in allowed:
        raise TypeError(f"numpy.{name} of an npgpu array: order={order!r} is not supported (npgpu creates "
                        "C-ordered arrays)")


def _plain_dtype(name, dtype):
    """`dtype` as a NumPy dtype (None stays None); TypeError for structured and object dtypes, which npgpu
    arrays never hold (dask.array's arg-reductions rely on this TypeError to fall back to a dict)."""
    if dtype is None:
        return None
    dt = np.dtype(dtype)
    if dt.fields is not None or dt.kind in "OVUSMm":
        raise TypeError(f"numpy.{name} on npgpu arrays: dtype {dt} is not supported (no structured, object, "
                        "string or datetime dtypes)")
    return dt


def _like_device(prototype, shape, device):
    """The device of a *_like result: `device`, else the prototype's, except that a zero-size prototype (a
    dask meta: created on the host so that the client needs no GPU) asked for a non-empty result gives it
    on the default device of the calling process (a worker's GPU), where the chunks it joins live."""
    if device is not None or not isinstance(prototype, npgpu.Array) or prototype.size or shape is None:
        return device
    n = 1
    for d in ((shape,) if isinstance(shape, (int, np.integer)) else shape):
        n *= int(d)
    return ("cpu" if npgpu.get_backend() == "cpu" else "cuda") if n else device


def _empty_like(prototype, dtype=None, order="K", subok=True, shape=None, *, device=None):
    _check_order("empty_like", order)
    return npgpu.empty_like(prototype, dtype=_plain_dtype("empty_like", dtype),
                            device=_like_device(prototype, shape, device), shape=shape)


def _zeros_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    _check_order("zeros_like", order)
    return npgpu.zeros_like(a, dtype=_plain_dtype("zeros_like", dtype), device=_like_device(a, shape, device),
                            shape=shape)


def _ones_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    _check_order("ones_like", order)
    return npgpu.ones_like(a, dtype=_plain_dtype("ones_like", dtype), device=_like_device(a, shape, device),
                           shape=shape)


def _full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, *, device=None):
    _check_order("full_like", order)
    return npgpu.full_like(a, fill_value, dtype=_plain_dtype("full_like", dtype),
                           device=_like_device(a, shape, device), shape=shape)


def _array(object, dtype=None, *, copy=True, order="K", subok=False, ndmin=0):
    """numpy.array(obj, like=npgpu_array): an npgpu array on the default device (NumPy does not pass the
    `like` array on, so its device is not known here)."""
    _check_order("array", order)
    out = npgpu.asarray(object, dtype=_plain_dtype("array", dtype), copy=True if copy else None)
    if ndmin > out.ndim:
        out = out.reshape((1,) * (ndmin - out.ndim) + out.shape)
    return out


def _asarray(a, dtype=None, order=None, *, device=None, copy=None):
    _check_order("asarray", order)
    return npgpu.asarray(a, dtype=_plain_dtype("asarray", dtype), device=device, copy=copy)


_ADAPTERS = {
    "empty_like": _empty_like,
    "zeros_like": _zeros_like,
    "ones_like": _ones_like,
    "full_like": _full_like,
    "array": _array,
    "asarray": _asarray,
    "asanyarray": _asarray,
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
    if path == () and name in _ADAPTERS:
        return _ADAPTERS[name], None
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


@functools.cache
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


def _numpy_names_as_positions(func, target_sig, args, kwargs):
    """`args` and `kwargs` with the leading operands NumPy's callers may name (``np.squeeze(a=x)``,
    ``np.broadcast_to(array=x, shape=s)``) moved into the positions of `target`'s positional-only
    parameters, which npgpu names as the Array API standard does (x, x1, x2)."""
    numpy_sig = _signature(func)
    if numpy_sig is None:
        return args, kwargs
    numpy_names = [p.name for p in numpy_sig.parameters.values()
                   if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    positional_only = [p.name for p in target_sig.parameters.values() if p.kind is p.POSITIONAL_ONLY]
    args, kwargs = list(args), dict(kwargs)
    for i in range(len(args), min(len(positional_only), len(numpy_names))):
        name = numpy_names[i]
        if name not in kwargs or name in target_sig.parameters:
            break
        args.append(kwargs.pop(name))
    return tuple(args), kwargs


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
        args, kwargs = _numpy_names_as_positions(func, sig, args, kwargs)
        try:
            sig.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{qual} on npgpu arrays: npgpu's {func.__name__} does not take these arguments "
                            f"({e}; it takes {func.__name__}{sig})") from None
    return target(*args, **kwargs)
