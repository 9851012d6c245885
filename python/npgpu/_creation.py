"""Array creation of the Array API standard and NumPy: arange, linspace, ones, eye, identity, the *_like
functions, meshgrid, tril, triu. Written over npgpu.Array's primitives (allocation, views, slice assignment,
the ufuncs, arange's fill kernel), so each runs on the GPU or the host, wherever its array lives.

`device=` takes what ``npgpu.asarray`` takes (None: the default device; "cpu", "cuda", "cuda:N", an int, an
npgpu.Device, another array's ``.device``). Dtypes follow NumPy 2 (NumPy decides them from the arguments'
types on the host; the values are computed on the device, in the same order of operations as NumPy)."""
import math
import operator

import numpy as np

from npgpu import _array, _reduce
from npgpu import _elementwise as _ew
from npgpu._manipulation import _on_one_device, moveaxis

__all__ = ["arange", "linspace", "ones", "eye", "identity", "empty_like", "zeros_like", "ones_like",
           "full_like", "meshgrid", "tril", "triu", "array", "ascontiguousarray", "asfortranarray", "copy",
           "copyto"]

_PY_SCALARS = (bool, int, float, complex)


def _scalar(x, name):
    """A Python/NumPy scalar from a scalar argument (a 0-d npgpu.Array is read back to the host)."""
    if isinstance(x, _array.Array):
        if x.ndim != 0:
            raise TypeError(f"{name} must be a scalar, not an array of shape {x.shape}")
        return x.get()[()]
    if np.ndim(x) != 0:
        raise TypeError(f"{name} must be a scalar, not an array of shape {np.shape(x)}")
    if isinstance(x, np.ndarray):
        return x[()]
    return x


def arange(start, /, stop=None, step=1, *, dtype=None, device=None):
    """Evenly spaced values ``start, start + step, ...`` up to (not including) `stop`, as numpy.arange (one
    argument: ``arange(stop)``): NumPy's length and dtype (from the arguments' types), the values written in
    one pass on the device as NumPy fills them."""
    start = _scalar(start, "start")
    if stop is None:
        start, stop = 0, start
    stop, step = _scalar(stop, "stop"), _scalar(step, "step")
    for v in (start, stop, step):
        if isinstance(v, (complex, np.complexfloating)):
            raise TypeError("arange: complex bounds are not supported by npgpu")
        if isinstance(v, (str, bytes)) or not isinstance(v, (_PY_SCALARS, np.generic)):
            raise TypeError(f"arange: bounds must be numbers, not {type(v).__name__}")
    if step == 0:
        raise ZeroDivisionError("arange: step must not be zero")
    try:
        n = max(math.ceil((stop - start) / step), 0)
    except ValueError:
        raise ValueError("arange: cannot compute length (a bound or the step is NaN)") from None
    except OverflowError:
        raise ValueError("Maximum allowed size exceeded (an infinite bound)") from None
    # NumPy's arange picks its dtype from the arguments' types alone (a NumPy float32 start with Python
    # bounds gives float64), so ask it with values of the same types.
    dt = np.arange(type(start)(0), type(stop)(1), type(step)(1)).dtype if dtype is None else np.dtype(dtype)
    if dt.kind == "b" and n > 2:
        raise ValueError("no fill-function for data-type (bool arange of more than two values)")
    out = _array.empty((n,), dtype=dt, device=device)
    if n:
        _array.fill_arange(out, start, step)
    return out


def _bound(x):
    """A linspace bound as NumPy's _array_converter sees it: a Python scalar (weak), or a NumPy array/scalar
    or an npgpu.Array (with their dtype)."""
    if isinstance(x, (_array.Array, np.ndarray, np.generic)) or isinstance(x, _PY_SCALARS):
        return x
    return np.asarray(x)


def _dtype_proto(x):
    """What stands for `x` when NumPy decides the dtype: a Python scalar itself, else a 0-size array of x's
    dtype."""
    return x if isinstance(x, _PY_SCALARS) else np.empty(0, dtype=x.dtype)


def linspace(start, stop, /, num=50, *, dtype=None, device=None, endpoint=True, retstep=False, axis=0):
    """`num` evenly spaced values from `start` to `stop` (included unless ``endpoint=False``), as
    numpy.linspace (array bounds give one sequence per element, along `axis` of the result): NumPy's dtype,
    ``i * step + start`` computed in it as NumPy does, the last value exactly `stop`, floored first for
    integer dtypes. With `retstep`, also the step (NaN when there is none)."""
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    div = (num - 1) if endpoint else num
    start, stop = _bound(start), _bound(stop)
    if isinstance(start, _PY_SCALARS) and isinstance(stop, _PY_SCALARS):
        start, stop = np.asarray(start), np.asarray(stop)  # NumPy converts Python scalars when all are
    with np.errstate(all="ignore"):  # NumPy decides the dtype of the calculation from the types alone
        calc = np.linspace(_dtype_proto(start), _dtype_proto(stop), 0).dtype
    out_dtype = calc if dtype is None else np.dtype(dtype)
    if any(isinstance(b, _array.Array) and b.ndim == 0 for b in (start, stop)):
        dev = _on_one_device([b for b in (start, stop) if isinstance(b, _array.Array)], "linspace", device)
        device = dev[0].device
        start, stop = (_scalar(b, n) if isinstance(b, _array.Array) else b
                       for b, n in ((start, "start"), (stop, "stop")))
    if np.ndim(start) == 0 and np.ndim(stop) == 0 and not isinstance(start, _array.Array) \
            and not isinstance(stop, _array.Array):
        start, stop = (b[()] if isinstance(b, np.ndarray) else b for b in (start, stop))  # strong scalars
        y, step = _linspace_scalar(start, stop, num, div, calc, device)
    else:
        y, step = _linspace_arrays(start, stop, num, div, calc, device)
    if endpoint and num > 1:
        y[-1, ...] = stop
    if axis != 0:
        y = moveaxis(y, 0, axis)
    if np.issubdtype(out_dtype, np.integer):
        _ew.floor(y, out=y)
    if out_dtype != y.dtype:
        y = y.astype(out_dtype)
    return (y, step) if retstep else y


def _linspace_scalar(start, stop, num, div, calc, device):
    """linspace's values for scalar bounds, before the endpoint: one fill pass when that gives NumPy's
    values exactly (float32/64, complex64/128: ``start + i * step`` rounded twice), else NumPy's sequence of
    operations on the device."""
    with np.errstate(all="ignore"):
        delta = np.subtract(stop, start, dtype=calc)
        step = delta / div if div > 0 else float("nan")
    y = _array.empty((num,), dtype=calc, device=device)
    if not num:
        return y, step
    if div > 0 and step != 0 and calc.char in "fdFD":
        _array.fill_arange(y, start, step, exact_step=True)
        return y, step
    _array.fill_arange(y, 0, 1)
    with np.errstate(all="ignore"):
        if div > 0 and step == 0:  # NumPy: (i / div) * delta, which keeps denormal and zero steps right
            _ew.divide(y, div, out=y)
            _ew.multiply(y, delta, out=y)
        else:
            _ew.multiply(y, step if div > 0 else delta, out=y)
    _ew.add(y, start, out=y)
    return y, step


def _linspace_arrays(start, stop, num, div, calc, device):
    """linspace's values for array bounds (npgpu.Arrays or host arrays, moved to one device), before the
    endpoint: NumPy's sequence of operations, shape (num,) + the bounds' broadcast shape."""
    arrays = [b for b in (start, stop) if not isinstance(b, _PY_SCALARS)]
    conv = iter(_on_one_device(arrays, "linspace", device))
    start, stop = (b if isinstance(b, _PY_SCALARS) else next(conv) for b in (start, stop))
    dev = (start if isinstance(start, _array.Array) else stop).device
    # NumPy: delta = subtract(stop, start, dtype=calc), i.e. both cast to calc first
    delta = _ew.subtract(*(b if isinstance(b, _PY_SCALARS) else b.astype(calc, copy=False)
                           for b in (stop, start)))
    delta = delta if isinstance(delta, _array.Array) else _array.asarray(delta, device=dev)
    if delta.dtype != calc:
        delta = delta.astype(calc)
    y = _array.empty((num,), dtype=calc, device=dev)
    if num:
        _array.fill_arange(y, 0, 1)
    y = y.reshape((-1,) + (1,) * delta.ndim)
    if div > 0:
        step = _ew.divide(delta, div)
        if bool(_reduce.any(_ew.equal(step, 0))):
            y = _ew.multiply(_ew.divide(y, div), delta)
        else:
            y = _ew.multiply(y, step)
    else:
        step = float("nan")
        y = _ew.multiply(y, delta)
    _ew.add(y, start, out=y)
    return y, step


def ones(shape, dtype=None, *, device=None):
    """A new array of ones of `shape` (float64 by default) on `device`, as numpy.ones."""
    return _array.full(shape, 1, np.float64 if dtype is None else dtype, device)


def eye(n_rows, n_cols=None, /, k=0, dtype=None, *, device=None):
    """A 2-D array (n_rows x n_cols, square by default) with ones on the `k`-th diagonal (k > 0 above the
    main one) and zeros elsewhere, as numpy.eye: zeros, then one strided write of the diagonal."""
    n_rows = operator.index(n_rows)
    n_cols = n_rows if n_cols is None else operator.index(n_cols)
    k = operator.index(k)
    if n_rows < 0 or n_cols < 0:
        raise ValueError(f"negative dimensions are not allowed: ({n_rows}, {n_cols})")
    out = _array.zeros((n_rows, n_cols), dtype=np.float64 if dtype is None else dtype, device=device)
    length = max(0, min(n_rows - max(-k, 0), n_cols - max(k, 0)))
    if length:
        first = k if k >= 0 else -k * n_cols
        out.reshape(-1)[first:first + (length - 1) * (n_cols + 1) + 1:n_cols + 1] = 1
    return out


def identity(n, dtype=None, *, device=None):
    """The n x n identity matrix (float64 by default), as numpy.identity."""
    return eye(n, dtype=dtype, device=device)


def _like_args(x, dtype, device, shape):
    if not isinstance(x, _array.Array):
        x = np.asarray(x)
    return (x.shape if shape is None else shape, x.dtype if dtype is None else dtype,
            x.device if device is None and isinstance(x, _array.Array) else device)


def empty_like(x, /, dtype=None, *, device=None, shape=None):
    """A new uninitialised array with x's shape, dtype and device (unless given), as numpy.empty_like."""
    shape, dtype, device = _like_args(x, dtype, device, shape)
    return _array.empty(shape, dtype=dtype, device=device)


def zeros_like(x, /, dtype=None, *, device=None, shape=None):
    """A new array of zeros with x's shape, dtype and device (unless given), as numpy.zeros_like."""
    shape, dtype, device = _like_args(x, dtype, device, shape)
    return _array.full(shape, 0, dtype=dtype, device=device)


def ones_like(x, /, dtype=None, *, device=None, shape=None):
    """A new array of ones with x's shape, dtype and device (unless given), as numpy.ones_like."""
    shape, dtype, device = _like_args(x, dtype, device, shape)
    return _array.full(shape, 1, dtype=dtype, device=device)


def full_like(x, /, fill_value, dtype=None, *, device=None, shape=None):
    """A new array with x's shape, dtype and device (unless given) filled with `fill_value` (a scalar, or an
    array broadcast to the shape; converted to the dtype as numpy.full_like converts it: unsafe casting,
    OverflowError for a Python int out of the dtype's range)."""
    shape, dtype, device = _like_args(x, dtype, device, shape)
    if isinstance(fill_value, _array.Array) and fill_value.ndim == 0:
        fill_value = fill_value.get()[()]
    if isinstance(fill_value, _array.Array) or np.ndim(fill_value) != 0:
        out = _array.empty(shape, dtype=dtype, device=device)
        if isinstance(fill_value, _array.Array):
            _on_one_device([out, fill_value], "full_like")
        out[...] = fill_value
        return out
    value = np.empty((), dtype=dtype)
    np.copyto(value, fill_value, casting="unsafe")  # NumPy's conversion (OverflowError for -1 into uint16)
    return _array.full(shape, value[()], dtype=dtype, device=device)


def meshgrid(*arrays, indexing="xy", sparse=False, copy=True):
    """Coordinate arrays from coordinate vectors (each flattened), as numpy.meshgrid: ``indexing="xy"``
    (Cartesian: the first two axes swapped) or "ij" (matrix indexing). Each output is a new array (views
    broadcast without copies with ``copy=False``, read-only; length-1 axes instead of broadcast ones with
    `sparse`). A list, as the Array API standard specifies (NumPy 2 gives a tuple)."""
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    xs = _on_one_device(arrays, "meshgrid")
    nd = len(xs)
    shapes = [tuple(-1 if j == i else 1 for j in range(nd)) for i in range(nd)]
    if indexing == "xy" and nd > 1:
        shapes[0] = (1, -1) + (1,) * (nd - 2)
        shapes[1] = (-1, 1) + (1,) * (nd - 2)
    out = [x.reshape(-1).reshape(s) for x, s in zip(xs, shapes)]
    if not sparse:
        full = np.broadcast_shapes(*[o.shape for o in out])
        out = [_array.broadcast_to(o, full) for o in out]
    if copy:
        out = [o.copy() for o in out]
    return out


def _tri(x, k, lower, name):
    """x with the elements above (lower) or below (upper) the k-th diagonal set to zero: one comparison of
    two broadcast index vectors for the mask, one `where` pass."""
    x = _array.asarray(x) if not isinstance(x, _array.Array) else x
    k = operator.index(k)
    if x.ndim == 0:
        raise TypeError(f"{name}: x must be at least 1-D (2-D or more: a stack of matrices), got a 0-d array")
    n, m = (x.shape[-1], x.shape[-1]) if x.ndim == 1 else x.shape[-2:]  # NumPy: a 1-D x becomes (n, n)
    k = min(max(k, -n - 1), m + 1)
    rows = arange(k, n + k, dtype=np.int64, device=x.device)[:, None]  # element (i, j) is kept when
    cols = arange(m, dtype=np.int64, device=x.device)[None, :]         # j - i <= k (lower), >= k (upper)
    mask = _ew.less_equal(cols, rows) if lower else _ew.greater_equal(cols, rows)
    return _ew.where(mask, x, x.dtype.type(0))


def tril(x, /, k=0):
    """The lower triangle of (each matrix in) `x`: elements above the `k`-th diagonal set to zero, as
    numpy.tril (a 1-D x is taken as the rows of an n x n matrix, as NumPy does)."""
    return _tri(x, k, True, "tril")


def triu(x, /, k=0):
    """The upper triangle of (each matrix in) `x`: elements below the `k`-th diagonal set to zero, as
    numpy.triu (a 1-D x is taken as the rows of an n x n matrix, as NumPy does)."""
    return _tri(x, k, False, "triu")


# ------------------------------------------------------------------------------------------ numpy.array & co.

_ORDERS = ("K", "A", "C", "F")


def _in_order(a, order):
    """a (an npgpu.Array) laid out C- or Fortran-contiguously as `order` asks ('K'/'A': kept; 'A' is 'F' for a
    Fortran-contiguous array, as NumPy's)."""
    if order == "F" and a.ndim >= 2 and not a.T.flags["C_CONTIGUOUS"]:
        return a.T.copy().T
    if order == "C" and not a.flags["C_CONTIGUOUS"]:
        return a.copy()
    return a


def array(object, dtype=None, *, copy=True, order="K", ndmin=0, device=None):
    """numpy.array for npgpu: a new npgpu.Array holding `object` (anything npgpu.asarray takes: NumPy arrays,
    lists, scalars, npgpu.Arrays, other GPU arrays), on `device` (default: the object's own for arrays, else
    the default device). ``copy=True`` (default) always copies, ``None`` copies only when needed, ``False``
    raises ValueError where a copy is needed (NumPy 2's rule). ``order`` 'C' or 'F' makes the result C- or
    Fortran-contiguous ('K' and 'A' keep the layout); ``ndmin`` prepends length-1 axes up to that many
    dimensions."""
    if order is None:
        order = "K"
    if order not in _ORDERS:
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    ndmin = operator.index(ndmin)
    if ndmin > 64:
        raise ValueError(f"ndmin bigger than allowable number of dimensions NPY_MAXDIMS (=64), got {ndmin}")
    if isinstance(object, _array.Array) and copy is not False:
        # a copy in the dtype asked, whatever the device (asarray shares when nothing changes)
        a = _array.asarray(object, dtype=dtype, device=device, copy=bool(copy) or None)
    else:
        a = _array.asarray(object, dtype=dtype, device=device, copy=copy)
    if order in ("C", "F"):
        laid = _in_order(a, order)
        if laid is not a and copy is False:
            raise ValueError(f"array: order={order!r} needs a copy, but copy=False")
        a = laid
    if a.ndim < ndmin:
        a = _array.asarray(a).reshape((1,) * (ndmin - a.ndim) + tuple(a.shape))
    return a


def ascontiguousarray(a, dtype=None, *, device=None):
    """numpy.ascontiguousarray for npgpu: an npgpu.Array, C-contiguous, at least 1-D (a copy only when
    needed)."""
    r = _in_order(_array.asarray(a, dtype=dtype, device=device), "C")
    return r.reshape((1,)) if r.ndim == 0 else r


def asfortranarray(a, dtype=None, *, device=None):
    """numpy.asfortranarray for npgpu: an npgpu.Array, Fortran-contiguous, at least 1-D (a copy only when
    needed)."""
    r = _in_order(_array.asarray(a, dtype=dtype, device=device), "F")
    return r.reshape((1,)) if r.ndim == 0 else r


def copy(a, order="K"):
    """numpy.copy: a copy of `a` with the same type (an npgpu.Array stays on its device; NumPy input gives a
    NumPy array, as the namespace's other functions). ``order`` as numpy.copy's."""
    if not isinstance(a, _array.Array):
        return np.copy(a, order=order)
    if order not in _ORDERS:
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    fortran = a.ndim >= 2 and a.T.flags["C_CONTIGUOUS"] and not a.flags["C_CONTIGUOUS"]
    return a.T.copy().T if order == "F" or (order in ("A", "K") and fortran) else a.copy()


def copyto(dst, src, casting="same_kind", where=True):
    """numpy.copyto for npgpu.Arrays: ``dst[...] = src`` broadcast, under `casting` (NumPy's rules), where
    `where` is True. A NumPy `dst` is numpy.copyto's work (with a device `src` brought to the host)."""
    if not isinstance(dst, _array.Array):
        np.copyto(dst, src.get() if isinstance(src, _array.Array) else src, casting=casting,
                  where=where.get() if isinstance(where, _array.Array) else where)
        return
    src_dtype = src.dtype if hasattr(src, "dtype") else None
    if src_dtype is not None and not np.can_cast(src_dtype, dst.dtype, casting=casting):
        raise TypeError(f"Cannot cast array data from {np.dtype(src_dtype)!r} to {dst.dtype!r} according to the "
                        f"rule {casting!r}")
    if src_dtype is None and casting != "unsafe" and not np.can_cast(np.result_type(dst.dtype, src), dst.dtype,
                                                                     casting=casting):
        raise TypeError(f"Cannot cast {type(src).__name__} {src!r} to {dst.dtype!r} according to the rule "
                        f"{casting!r}")
    if where is True:
        dst[...] = src
        return
    values = _ew.where(where, src, dst)
    dst[...] = values
