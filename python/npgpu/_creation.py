"""Array creation of the Array API standard and NumPy: arange, linspace, ones, eye, identity, the *_like
functions, meshgrid, tril, triu. Written over npgpu.Array's primitives (allocation, views, slice assignment,
the ufuncs, arange's fill kernel), so each runs on the GPU or the host, wherever its array lives."""
import math

import numpy as np

from npgpu import _array, _runtime

__all__ = ["arange", "linspace", "ones", "eye", "identity", "empty_like", "zeros_like", "ones_like",
           "full_like", "meshgrid", "tril", "triu"]


def _scalar(x, name):
    """A Python/NumPy scalar from a scalar argument (a 0-d Array is brought to the host)."""
    if isinstance(x, _array.Array):
        if x.ndim != 0:
            raise TypeError(f"{name} must be a scalar, not an array of shape {x.shape}")
        return x.get()[()]
    if np.ndim(x) != 0:
        raise TypeError(f"{name} must be a scalar, not an array of shape {np.shape(x)}")
    return x


def arange(start, /, stop=None, step=1, *, dtype=None, device=None):
    """Evenly spaced values ``start, start + step, ...`` up to (not including) `stop`, as numpy.arange (one
    argument: ``arange(stop)``); the values are computed in one pass on the device, as NumPy fills them."""
    start = _scalar(start, "start")
    if stop is None:
        start, stop = 0, start
    stop, step = _scalar(stop, "stop"), _scalar(step, "step")
    if step == 0:
        raise ZeroDivisionError("arange: step must not be zero")
    for v in (start, stop, step):
        if isinstance(v, (complex, np.complexfloating)):
            raise TypeError("arange: complex bounds are not supported")
    n = max(math.ceil((stop - start) / step), 0)
    # NumPy's arange picks its dtype from the arguments' types alone (a NumPy float32 start with Python
    # bounds gives float64), so ask it with values of the same types.
    dt = np.arange(type(start)(0), type(stop)(1), type(step)(1)).dtype if dtype is None else np.dtype(dtype)
    if dt.kind == "b" and n > 2:
        raise ValueError("arange: no fill-function for data-type bool (more than two values)")
    out = _array.empty((n,), dtype=dt, device=device)
    if n:
        _array.fill_arange(out, start, step)
    return out


def linspace(start, stop, /, num=50, *, dtype=None, device=None, endpoint=True, retstep=False):
    """`num` evenly spaced values from `start` to `stop` (included unless ``endpoint=False``), as
    numpy.linspace with scalar bounds: ``i * step + start`` in float64 (complex128 for complex bounds), the
    last value exactly `stop`, then converted to `dtype` (floored first for integer dtypes, as NumPy)."""
    start, stop = _scalar(start, "start"), _scalar(stop, "stop")
    num = int(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    div = (num - 1) if endpoint else num
    calc = np.result_type(start, stop, float(num))
    delta = stop - start
    step = delta / div if div > 0 else float("nan")
    out = _array.empty((num,), dtype=calc, device=device)
    if num:
        if div > 0 and step == 0:  # NumPy: (i / div) * delta, which keeps the sign of zero steps
            _array.fill_arange(out, 0, 1, exact_step=True)
            out = (out / div) * delta + start
        else:
            _array.fill_arange(out, start, 0 if div <= 0 else step, exact_step=True)
        if endpoint and num > 1:
            out[-1] = stop
    if dtype is not None and np.dtype(dtype) != out.dtype:
        if np.dtype(dtype).kind in "iu":
            _array._ops["floor"](out, out=out)
        out = out.astype(dtype)
    return (out, step) if retstep else out


def ones(shape, dtype=None, *, device=None):
    """A new array of ones (float64 by default) on `device`."""
    return _array.full(shape, 1, dtype=np.float64 if dtype is None else dtype, device=device)


def eye(n_rows, n_cols=None, /, k=0, dtype=None, *, device=None):
    """A 2-D array with ones on the `k`-th diagonal and zeros elsewhere, as numpy.eye."""
    n_cols = n_rows if n_cols is None else n_cols
    if n_rows < 0 or n_cols < 0:
        raise ValueError(f"negative dimensions are not allowed: ({n_rows}, {n_cols})")
    out = _array.zeros((n_rows, n_cols), dtype=np.float64 if dtype is None else dtype, device=device)
    first = k if k >= 0 else -k * n_cols
    length = max(0, min(n_rows - max(-k, 0), n_cols - max(k, 0)))
    if length:
        out.reshape(-1)[first:first + length * (n_cols + 1):n_cols + 1] = 1
    return out


def identity(n, *, dtype=None, device=None):
    """The n x n identity matrix, as numpy.identity."""
    return eye(n, dtype=dtype, device=device)


def _like_args(x, dtype, device):
    if isinstance(x, _array.Array):
        return x.shape, x.dtype if dtype is None else dtype, x.device if device is None else device
    x = np.asarray(x)
    return x.shape, x.dtype if dtype is None else dtype, device


def empty_like(x, /, *, dtype=None, device=None):
    """A new uninitialised array of x's shape, dtype and device (unless given)."""
    shape, dtype, device = _like_args(x, dtype, device)
    return _array.empty(shape, dtype=dtype, device=device)


def zeros_like(x, /, *, dtype=None, device=None):
    """A new array of zeros of x's shape, dtype and device (unless given)."""
    shape, dtype, device = _like_args(x, dtype, device)
    return _array.full(shape, 0, dtype=dtype, device=device)


def ones_like(x, /, *, dtype=None, device=None):
    """A new array of ones of x's shape, dtype and device (unless given)."""
    shape, dtype, device = _like_args(x, dtype, device)
    return _array.full(shape, 1, dtype=dtype, device=device)


def full_like(x, /, fill_value, *, dtype=None, device=None):
    """A new array of x's shape, dtype and device (unless given) filled with `fill_value` (converted to the
    dtype, as numpy.full_like)."""
    shape, dtype, device = _like_args(x, dtype, device)
    return _array.full(shape, np.array(fill_value).astype(dtype)[()], dtype=dtype, device=device)


def meshgrid(*arrays, indexing="xy"):
    """Coordinate matrices from 1-D coordinate arrays, as numpy.meshgrid (``indexing="xy"``: the first two
    outputs have their first two axes swapped; "ij": matrix indexing). Returns a list of new arrays."""
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    xs = [_array.asarray(a) for a in arrays]
    if len({str(x.device) for x in xs}) > 1:
        raise ValueError("meshgrid: arrays are on different devices")
    for x in xs:
        if x.ndim != 1:
            raise ValueError(f"meshgrid: arrays must be 1-D, got an array of shape {x.shape}")
    nd = len(xs)
    shape = [x.size for x in xs]
    if indexing == "xy" and nd > 1:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, x in enumerate(xs):
        axis = i
        if indexing == "xy" and nd > 1 and i < 2:
            axis = 1 - i
        key = tuple(slice(None) if j == axis else None for j in range(nd))
        out.append(_array.broadcast_to(x[key], tuple(shape)).copy())
    return out


def _tri_mask(x, k, lower):
    if x.ndim < 2:
        raise ValueError(f"{'tril' if lower else 'triu'}: the array must be at least 2-D, got shape {x.shape}")
    n, m = x.shape[-2], x.shape[-1]
    rows = arange(n, dtype=np.int64, device=x.device)[:, None]
    cols = arange(m, dtype=np.int64, device=x.device)[None, :]
    diff = _array._ops["subtract"](cols, rows)
    return _array._ops["less_equal"](diff, k) if lower else _array._ops["greater_equal"](diff, k)


def tril(x, /, k=0):
    """The lower triangle of (each matrix in) `x`: elements above the `k`-th diagonal set to zero."""
    x = _array.asarray(x)
    return _array._ops["where"](_tri_mask(x, k, True), x, x.dtype.type(0))


def triu(x, /, k=0):
    """The upper triangle of (each matrix in) `x`: elements below the `k`-th diagonal set to zero."""
    x = _array.asarray(x)
    return _array._ops["where"](_tri_mask(x, k, False), x, x.dtype.type(0))
