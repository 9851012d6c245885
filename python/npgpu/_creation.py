"""Array creation of the Array API standard and NumPy: arange, linspace, logspace, geomspace, ones, eye,
identity, the *_like functions, meshgrid, tril, triu, tri, diag, diagflat, vander, indices, ix_, the index
helpers of diagonals and triangles (fill_diagonal writes in place), the index objects mgrid, ogrid, r_, c_, s_ and
index_exp, fromfunction, fromiter, frombuffer, mask_indices, unravel_index and ravel_multi_index. Written over
npgpu.Array's primitives (allocation, views, slice assignment, the ufuncs, arange's fill kernel), so each runs on
the GPU or the host, wherever its array lives.

`device=` takes what ``npgpu.asarray`` takes (None: the default device; "cpu", "cuda", "cuda:N", an int, an
npgpu.Device, another array's ``.device``). Dtypes follow NumPy 2 (NumPy decides them from the arguments'
types on the host; the values are computed on the device, in the same order of operations as NumPy)."""
import math
import operator

import numpy as np

from npgpu import _array, _indexing, _reduce
from npgpu import _elementwise as _ew
from npgpu._linear_algebra import diagonal
from npgpu._manipulation import _keep_order_axes, _on_one_device, expand_dims, moveaxis, tile

__all__ = ["arange", "linspace", "ones", "eye", "identity", "empty_like", "zeros_like", "ones_like",
           "full_like", "meshgrid", "tril", "triu", "array", "ascontiguousarray", "asfortranarray", "copy",
           "copyto", "diag", "diagflat", "tri", "tril_indices", "triu_indices", "tril_indices_from",
           "triu_indices_from", "diag_indices", "diag_indices_from", "fill_diagonal", "vander", "indices", "ix_",
           "logspace", "geomspace", "mgrid", "ogrid", "r_", "c_", "s_", "index_exp", "fromfunction", "fromiter",
           "frombuffer", "mask_indices", "unravel_index", "ravel_multi_index", "ndindex", "ndenumerate"]

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
    """Evenly spaced values within a half-open interval, as numpy.arange.

    The values are ``start, start + step, ...`` up to (not including) `stop`; with one argument, ``arange(stop)``
    counts from 0. The length and the dtype are NumPy's (the dtype decided from the arguments' types), and the
    values are written in one pass on the device as NumPy fills them.

    Parameters
    ----------
    start : int, float or real scalar
        The first value; the end of the interval when `stop` is omitted (the start is then 0). A 0-d
        npgpu.Array is read back to the host.
    stop : int, float or real scalar, optional
        The end of the interval, not included.
    step : int, float or real scalar, optional
        The spacing between values (default 1).
    dtype : dtype, optional
        The output dtype. Default: NumPy's, from the types of `start`, `stop` and `step` alone (not their
        values).
    device : optional
        Where the result lives: what ``npgpu.asarray`` takes (None: the default device; "cpu", "cuda",
        "cuda:N", an int, an npgpu.Device, another array's ``.device``).

    Returns
    -------
    npgpu.Array
        1-D, of NumPy's length ``max(ceil((stop - start) / step), 0)``.

    Raises
    ------
    TypeError
        A bound or the step is complex (not supported by npgpu), not a number, or an array of one dimension or
        more; a bool dtype asked for more than two values (as NumPy 2).
    ZeroDivisionError
        `step` is zero.
    ValueError
        The length cannot be computed (a bound or the step is NaN), or a bound is infinite ("Maximum allowed size
        exceeded").

    See Also
    --------
    linspace : A given number of values, the end point included.

    Examples
    --------
    >>> npgpu.arange(5, device="cpu")
    Array([0, 1, 2, 3, 4])
    >>> npgpu.arange(0.0, 1.0, 0.25, device="cpu")
    Array([0.  , 0.25, 0.5 , 0.75])
    >>> npgpu.arange(1, 8, 3, dtype=np.float32, device="cpu")
    Array([1., 4., 7.], dtype=float32)
    """
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
        raise TypeError("arange() is only supported for booleans when the result has at most length 2.")
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
    """Evenly spaced numbers over an interval, as numpy.linspace.

    `num` values from `start` to `stop` (`stop` included unless ``endpoint=False``). Array bounds give one
    sequence per element of their broadcast shape, along `axis` of the result. The dtype is NumPy's; the values
    are ``i * step + start`` computed in it as NumPy computes them, the last value exactly `stop` (with
    `endpoint`), floored first for an integer `dtype`.

    Parameters
    ----------
    start, stop : scalar, npgpu.Array or array_like
        The bounds; arrays (npgpu.Arrays, NumPy arrays, lists) broadcast against each other. A 0-d npgpu.Array
        is read back to the host and its device taken for the result.
    num : int, optional
        The number of values (default 50); not negative.
    dtype : dtype, optional
        The output dtype. Default: the dtype NumPy computes in, decided from the bounds' types (float64 for
        Python and integer bounds).
    device : optional
        Where the result lives: what ``npgpu.asarray`` takes (None: the default device). npgpu.Array bounds
        decide the device; a `device` given must then be theirs. Other array bounds are converted onto it.
    endpoint : bool, optional
        Whether `stop` is the last value (default True); if False the step is ``(stop - start) / num``.
    retstep : bool, optional
        Whether to return the step as well (default False).
    axis : int, optional
        The axis of the result along which the values run (default 0); for array bounds.

    Returns
    -------
    samples : npgpu.Array
        Shape ``(num,)`` for scalar bounds; for array bounds ``(num,)`` followed by their broadcast shape, with
        that first axis moved to `axis`.
    step : NumPy scalar, float or npgpu.Array
        Only with ``retstep=True``: the spacing, a NumPy scalar for scalar bounds, an npgpu.Array for array
        bounds, and NaN when there is none (fewer than two values with `endpoint`, none without).

    Raises
    ------
    ValueError
        `num` is negative, or npgpu.Array bounds are on different devices (or not on `device`).
    TypeError
        `num` is not an integer.

    See Also
    --------
    arange : Values a given step apart.

    Examples
    --------
    >>> npgpu.linspace(0, 1, 5, device="cpu")
    Array([0.  , 0.25, 0.5 , 0.75, 1.  ])
    >>> npgpu.linspace(0, 1, 4, endpoint=False, retstep=True, device="cpu")
    (Array([0.  , 0.25, 0.5 , 0.75]), np.float64(0.25))
    >>> npgpu.linspace(npgpu.asarray([0.0, 10.0], device="cpu"), 20, 3, axis=1)
    Array([[ 0., 10., 20.],
           [10., 15., 20.]])
    """
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
        start, stop = (_scalar(b, n) if isinstance(b, _array.Array) and b.ndim == 0 else b
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


def ones(shape, dtype=None, order="C", *, device=None):
    """A new array filled with ones, as numpy.ones.

    Parameters
    ----------
    shape : int or tuple of ints
        The shape of the new array.
    dtype : dtype, optional
        The dtype (default float64).
    order : {'C', 'F'}, optional
        Row-major (C, default) or column-major (Fortran) layout.
    device : optional
        Where the array lives: what ``npgpu.asarray`` takes (None: the default device).

    Returns
    -------
    npgpu.Array
        The array of ones, on `device`.

    See Also
    --------
    ones_like, npgpu.zeros, npgpu.full

    Examples
    --------
    >>> npgpu.ones((2, 3), device="cpu")
    Array([[1., 1., 1.],
           [1., 1., 1.]])
    >>> npgpu.ones(2, dtype=np.int32, device="cpu")
    Array([1, 1], dtype=int32)
    """
    return _array.full(shape, 1, np.float64 if dtype is None else dtype, device, order=order)


def eye(n_rows, n_cols=None, /, k=0, dtype=None, order="C", *, device=None):
    """A 2-D array with ones on a diagonal and zeros elsewhere, as numpy.eye.

    Parameters
    ----------
    n_rows : int
        The number of rows.
    n_cols : int, optional
        The number of columns (default: `n_rows`, a square array).
    k : int, optional
        The diagonal of ones: 0 (default) the main one, k > 0 above it, k < 0 below it.
    dtype : dtype, optional
        The dtype (default float64).
    order : {'C', 'F'}, optional
        Row-major (C, default) or column-major (Fortran) layout.
    device : optional
        Where the array lives: what ``npgpu.asarray`` takes (None: the default device).

    Returns
    -------
    npgpu.Array
        Shape ``(n_rows, n_cols)``.

    Raises
    ------
    ValueError
        `n_rows` or `n_cols` is negative, or `order` is not 'C' or 'F'.
    TypeError
        `n_rows`, `n_cols` or `k` is not an integer.

    See Also
    --------
    identity : The square array with ones on the main diagonal.

    Notes
    -----
    Written as zeros, then one strided write of the diagonal.

    Examples
    --------
    >>> npgpu.eye(3, k=1, device="cpu")
    Array([[0., 1., 0.],
           [0., 0., 1.],
           [0., 0., 0.]])
    >>> npgpu.eye(2, 3, k=-1, dtype=np.int64, device="cpu")
    Array([[0, 0, 0],
           [1, 0, 0]])
    """
    n_rows = operator.index(n_rows)
    n_cols = n_rows if n_cols is None else operator.index(n_cols)
    k = operator.index(k)
    if n_rows < 0 or n_cols < 0:
        raise ValueError(f"negative dimensions are not allowed: ({n_rows}, {n_cols})")
    if order == "F":  # the transpose of the C-ordered eye(n_cols, n_rows, -k)
        return eye(n_cols, n_rows, k=-k, dtype=dtype, device=device).T
    if order not in ("C", None):
        raise ValueError(f"order must be 'C' or 'F' for a new array, not {order!r}")
    out = _array.zeros((n_rows, n_cols), dtype=np.float64 if dtype is None else dtype, device=device)
    length = max(0, min(n_rows - max(-k, 0), n_cols - max(k, 0)))
    if length:
        first = k if k >= 0 else -k * n_cols
        out.reshape(-1)[first:first + (length - 1) * (n_cols + 1) + 1:n_cols + 1] = 1
    return out


def identity(n, dtype=None, *, device=None):
    """The identity matrix, as numpy.identity.

    Parameters
    ----------
    n : int
        The number of rows and columns.
    dtype : dtype, optional
        The dtype (default float64).
    device : optional
        Where the array lives: what ``npgpu.asarray`` takes (None: the default device).

    Returns
    -------
    npgpu.Array
        The n x n array with ones on the main diagonal and zeros elsewhere.

    See Also
    --------
    eye

    Examples
    --------
    >>> npgpu.identity(2, device="cpu")
    Array([[1., 0.],
           [0., 1.]])
    """
    return eye(n, dtype=dtype, device=device)


def _like_args(x, dtype, device, shape, order):
    """The new array's shape, dtype, device and layout: None (C order), "F", or the axes from the largest
    stride to the smallest (order "K" for a prototype neither C- nor Fortran-contiguous)."""
    if not isinstance(x, _array.Array):
        x = np.asarray(x)
    if order not in _ORDERS:
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    layout = None
    if order == "F":
        layout = "F"
    elif order in ("A", "K") and x.ndim >= 2 and (order == "A" or shape is None or np.ndim(shape) == 1 and
                                                   len(shape) == x.ndim):
        if not x.flags["C_CONTIGUOUS"]:
            if x.flags["F_CONTIGUOUS"]:
                layout = "F"
            elif order == "K":
                layout = tuple(_keep_order_axes(x))
    return (x.shape if shape is None else shape, x.dtype if dtype is None else dtype,
            x.device if device is None and isinstance(x, _array.Array) else device, layout)


def _new_in_layout(shape, dtype, device, layout, fill=None):
    """A new array (filled with the scalar `fill` unless None) laid out as _like_args says."""
    if not isinstance(layout, tuple):
        order = "F" if layout == "F" else "C"
        if fill is None:
            return _array.empty(shape, dtype=dtype, device=device, order=order)
        return _array.full(shape, fill, dtype=dtype, device=device, order=order)
    shape = tuple(shape)
    made = _new_in_layout(tuple(shape[i] for i in layout), dtype, device, None, fill)
    return made.transpose(tuple(np.argsort(layout)))


def empty_like(x, /, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """A new uninitialised array with the shape, dtype and device of a given array, as numpy.empty_like.

    Parameters
    ----------
    x : npgpu.Array or array_like
        The prototype: its shape, dtype and (for an npgpu.Array) device are the defaults of the result's. Other
        inputs (NumPy arrays, lists) give an npgpu.Array too, on `device` (the default device if None).
    dtype : dtype, optional
        The result's dtype, instead of x's.
    order : {'K', 'A', 'C', 'F'}, optional
        The layout: 'K' (default) x's own (the order of its strides), 'A' Fortran if x is
        Fortran-contiguous and C otherwise, 'C' or 'F'. With a `shape` of another number of dimensions,
        'K' gives C.
    subok : bool, optional
        Accepted for NumPy's signature; npgpu has no array subclasses, so the result is an npgpu.Array either way.
    device : optional
        Where the result lives, instead of x's device: what ``npgpu.asarray`` takes.
    shape : int or tuple of ints, optional
        The result's shape, instead of x's.

    Returns
    -------
    npgpu.Array
        The new array; its values are whatever the memory held.

    See Also
    --------
    zeros_like, ones_like, full_like

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2], [3, 4]], device="cpu")
    >>> e = npgpu.empty_like(a, dtype=np.float32)
    >>> e.shape, e.dtype, e.device
    ((2, 2), dtype('float32'), <npgpu.Device cpu>)
    """
    shape, dtype, device, layout = _like_args(x, dtype, device, shape, order)
    return _new_in_layout(shape, dtype, device, layout)


def zeros_like(x, /, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """A new array of zeros with the shape, dtype and device of a given array, as numpy.zeros_like.

    Parameters
    ----------
    x : npgpu.Array or array_like
        The prototype: its shape, dtype and (for an npgpu.Array) device are the defaults of the result's. Other
        inputs (NumPy arrays, lists) give an npgpu.Array too, on `device` (the default device if None).
    dtype : dtype, optional
        The result's dtype, instead of x's.
    order : {'K', 'A', 'C', 'F'}, optional
        The layout: 'K' (default) x's own (the order of its strides), 'A' Fortran if x is
        Fortran-contiguous and C otherwise, 'C' or 'F'. With a `shape` of another number of dimensions,
        'K' gives C.
    subok : bool, optional
        Accepted for NumPy's signature; npgpu has no array subclasses, so the result is an npgpu.Array either way.
    device : optional
        Where the result lives, instead of x's device: what ``npgpu.asarray`` takes.
    shape : int or tuple of ints, optional
        The result's shape, instead of x's.

    Returns
    -------
    npgpu.Array
        The array of zeros.

    See Also
    --------
    empty_like, ones_like, full_like

    Examples
    --------
    >>> npgpu.zeros_like(npgpu.asarray([[1, 2], [3, 4]], device="cpu"))
    Array([[0, 0],
           [0, 0]])
    >>> npgpu.zeros_like(np.array([1.5, 2.5]), shape=(3,), device="cpu")
    Array([0., 0., 0.])
    """
    shape, dtype, device, layout = _like_args(x, dtype, device, shape, order)
    return _new_in_layout(shape, dtype, device, layout, 0)


def ones_like(x, /, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """A new array of ones with the shape, dtype and device of a given array, as numpy.ones_like.

    Parameters
    ----------
    x : npgpu.Array or array_like
        The prototype: its shape, dtype and (for an npgpu.Array) device are the defaults of the result's. Other
        inputs (NumPy arrays, lists) give an npgpu.Array too, on `device` (the default device if None).
    dtype : dtype, optional
        The result's dtype, instead of x's.
    order : {'K', 'A', 'C', 'F'}, optional
        The layout: 'K' (default) x's own (the order of its strides), 'A' Fortran if x is
        Fortran-contiguous and C otherwise, 'C' or 'F'. With a `shape` of another number of dimensions,
        'K' gives C.
    subok : bool, optional
        Accepted for NumPy's signature; npgpu has no array subclasses, so the result is an npgpu.Array either way.
    device : optional
        Where the result lives, instead of x's device: what ``npgpu.asarray`` takes.
    shape : int or tuple of ints, optional
        The result's shape, instead of x's.

    Returns
    -------
    npgpu.Array
        The array of ones.

    See Also
    --------
    empty_like, zeros_like, full_like

    Examples
    --------
    >>> npgpu.ones_like(npgpu.asarray([1, 2, 3], device="cpu"), dtype=np.float32)
    Array([1., 1., 1.], dtype=float32)
    """
    shape, dtype, device, layout = _like_args(x, dtype, device, shape, order)
    return _new_in_layout(shape, dtype, device, layout, 1)


def full_like(x, /, fill_value, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """A new array with the shape, dtype and device of a given array, filled with a value, as numpy.full_like.

    Parameters
    ----------
    x : npgpu.Array or array_like
        The prototype: its shape, dtype and (for an npgpu.Array) device are the defaults of the result's. Other
        inputs (NumPy arrays, lists) give an npgpu.Array too, on `device` (the default device if None).
    fill_value : scalar or array_like
        The value: a scalar (a 0-d npgpu.Array is read back to the host), converted to the dtype as
        numpy.full_like converts it (unsafe casting; OverflowError for a Python int out of the dtype's range), or
        an array broadcast to the shape, written with ``out[...] = fill_value`` (an npgpu.Array must be on the
        result's device).
    dtype : dtype, optional
        The result's dtype, instead of x's.
    order : {'K', 'A', 'C', 'F'}, optional
        The layout: 'K' (default) x's own (the order of its strides), 'A' Fortran if x is
        Fortran-contiguous and C otherwise, 'C' or 'F'. With a `shape` of another number of dimensions,
        'K' gives C.
    subok : bool, optional
        Accepted for NumPy's signature; npgpu has no array subclasses, so the result is an npgpu.Array either way.
    device : optional
        Where the result lives, instead of x's device: what ``npgpu.asarray`` takes.
    shape : int or tuple of ints, optional
        The result's shape, instead of x's.

    Returns
    -------
    npgpu.Array
        The filled array.

    Raises
    ------
    OverflowError
        A Python int `fill_value` out of the range of the dtype (-1 for uint16, as NumPy).
    ValueError
        An npgpu.Array `fill_value` on another device than the result.

    See Also
    --------
    empty_like, zeros_like, ones_like

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2], [3, 4]], device="cpu")
    >>> npgpu.full_like(a, 7)
    Array([[7, 7],
           [7, 7]])
    >>> npgpu.full_like(a, 2.7)
    Array([[2, 2],
           [2, 2]])
    >>> npgpu.full_like(a, [5, 6])
    Array([[5, 6],
           [5, 6]])
    """
    shape, dtype, device, layout = _like_args(x, dtype, device, shape, order)
    if isinstance(fill_value, _array.Array) and fill_value.ndim == 0:
        fill_value = fill_value.get()[()]
    if isinstance(fill_value, _array.Array) or np.ndim(fill_value) != 0:
        out = _new_in_layout(shape, dtype, device, layout)
        if isinstance(fill_value, _array.Array):
            _on_one_device([out, fill_value], "full_like")
        out[...] = fill_value
        return out
    value = np.empty((), dtype=dtype)
    np.copyto(value, fill_value, casting="unsafe")  # NumPy's conversion (OverflowError for -1 into uint16)
    return _new_in_layout(shape, dtype, device, layout, value[()])


def meshgrid(*arrays, indexing="xy", sparse=False, copy=True):
    """Coordinate arrays from coordinate vectors, as numpy.meshgrid.

    Parameters
    ----------
    *arrays : npgpu.Array or array_like
        The coordinate vectors, each flattened. npgpu.Arrays decide the device; other inputs are converted onto
        it (the default device when there is no npgpu.Array).
    indexing : {"xy", "ij"}, optional
        "xy" (default): Cartesian indexing, the first two axes swapped (for vectors of lengths N1, N2, N3, ...
        outputs of shape (N2, N1, N3, ...)); "ij": matrix indexing (shape (N1, N2, N3, ...)).
    sparse : bool, optional
        If True, the outputs keep length-1 axes instead of broadcast ones (default False).
    copy : bool, optional
        If True (default), each output is a new array. If False, the outputs are not copied: without `sparse`
        they are views broadcast without copies, read-only.

    Returns
    -------
    list of npgpu.Array
        One array per input: a list, as the Array API standard specifies (NumPy 2 gives a tuple).

    Raises
    ------
    ValueError
        `indexing` is neither "xy" nor "ij", or npgpu.Arrays are on different devices.

    Examples
    --------
    >>> x = npgpu.asarray([1, 2, 3], device="cpu")
    >>> y = npgpu.asarray([4, 5], device="cpu")
    >>> npgpu.meshgrid(x, y)
    [Array([[1, 2, 3],
           [1, 2, 3]]), Array([[4, 4, 4],
           [5, 5, 5]])]
    >>> npgpu.meshgrid(x, y, indexing="ij", sparse=True)
    [Array([[1],
           [2],
           [3]]), Array([[4, 5]])]
    """
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
    """The lower triangle of a matrix (or of each matrix in a stack), as numpy.tril.

    The elements above the `k`-th diagonal are set to zero.

    Parameters
    ----------
    x : npgpu.Array or array_like
        At least 1-D: a matrix, or a stack of matrices (the last two axes); a 1-D x is taken as the rows of an
        n x n matrix, as NumPy does. Other inputs than npgpu.Arrays are converted onto the default device.
    k : int, optional
        The diagonal: 0 (default) the main one, k > 0 above it, k < 0 below it.

    Returns
    -------
    npgpu.Array
        A new array of x's dtype; shape (n, n) for a 1-D x, else x's shape.

    Raises
    ------
    TypeError
        `x` is 0-d, or `k` is not an integer.

    See Also
    --------
    triu

    Notes
    -----
    One comparison of two broadcast index vectors makes the mask, one `where` pass the result.

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2, 3], [4, 5, 6], [7, 8, 9]], device="cpu")
    >>> npgpu.tril(a)
    Array([[1, 0, 0],
           [4, 5, 0],
           [7, 8, 9]])
    >>> npgpu.tril(a, k=-1)
    Array([[0, 0, 0],
           [4, 0, 0],
           [7, 8, 0]])
    """
    return _tri(x, k, True, "tril")


def triu(x, /, k=0):
    """The upper triangle of a matrix (or of each matrix in a stack), as numpy.triu.

    The elements below the `k`-th diagonal are set to zero.

    Parameters
    ----------
    x : npgpu.Array or array_like
        At least 1-D: a matrix, or a stack of matrices (the last two axes); a 1-D x is taken as the rows of an
        n x n matrix, as NumPy does. Other inputs than npgpu.Arrays are converted onto the default device.
    k : int, optional
        The diagonal: 0 (default) the main one, k > 0 above it, k < 0 below it.

    Returns
    -------
    npgpu.Array
        A new array of x's dtype; shape (n, n) for a 1-D x, else x's shape.

    Raises
    ------
    TypeError
        `x` is 0-d, or `k` is not an integer.

    See Also
    --------
    tril

    Notes
    -----
    One comparison of two broadcast index vectors makes the mask, one `where` pass the result.

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2, 3], [4, 5, 6], [7, 8, 9]], device="cpu")
    >>> npgpu.triu(a)
    Array([[1, 2, 3],
           [0, 5, 6],
           [0, 0, 9]])
    >>> npgpu.triu(a, k=1)
    Array([[0, 2, 3],
           [0, 0, 6],
           [0, 0, 0]])
    """
    return _tri(x, k, False, "triu")


# ------------------------------------------------------------------------------------------ numpy.array & co.

_ORDERS = ("K", "A", "C", "F")


def _in_order(a, order):
    """a (an npgpu.Array) laid out C- or Fortran-contiguously as `order` asks ('K'/'A': kept; 'A' is 'F' for a
    Fortran-contiguous array, as NumPy's)."""
    if order == "F" and a.ndim >= 2 and not a.flags["F_CONTIGUOUS"]:
        return a.T.copy().T
    if order == "C" and not a.flags["C_CONTIGUOUS"]:
        return a.copy()
    return a


def array(object, dtype=None, *, copy=True, order="K", ndmin=0, device=None):
    """Create an npgpu.Array, as numpy.array.

    Parameters
    ----------
    object : array_like or npgpu.Array
        Anything ``npgpu.asarray`` takes: NumPy arrays, lists, scalars, npgpu.Arrays, other GPU arrays.
    dtype : dtype, optional
        The result's dtype (default: the object's).
    copy : bool or None, optional
        True (default): always copy. None: copy only when needed. False: raise ValueError where a copy is needed
        (NumPy 2's rule): a dtype conversion, a move to another device, an `order` that needs a new layout.
    order : {"K", "A", "C", "F"} or None, optional
        "C" or "F" makes the result C- or Fortran-contiguous. "K" (default; also None) and "A" keep the layout
        of an array that is not copied; a copy made (``copy=True``, a dtype conversion, a move between devices)
        is C-contiguous, whatever the layout of `object` (NumPy's "K" would keep a Fortran layout).
    ndmin : int, optional
        The least number of dimensions of the result: length-1 axes are prepended up to it (default 0).
    device : optional
        Where the result lives: what ``npgpu.asarray`` takes. Default: the object's own device for arrays, else
        the default device.

    Returns
    -------
    npgpu.Array
        A new array (or, with ``copy=None`` or False, `object` itself where it needs no change).

    Raises
    ------
    ValueError
        `order` is not one of "C", "F", "A", "K"; `ndmin` exceeds 64 (NumPy's NPY_MAXDIMS); or ``copy=False``
        where a copy is needed.

    See Also
    --------
    npgpu.asarray, ascontiguousarray, asfortranarray

    Examples
    --------
    >>> npgpu.array([1, 2, 3], device="cpu")
    Array([1, 2, 3])
    >>> npgpu.array(np.array([1, 2]), dtype=np.float32, ndmin=2, device="cpu")
    Array([[1., 2.]], dtype=float32)
    >>> a = npgpu.asarray([[1, 2], [3, 4]], device="cpu")
    >>> npgpu.array(a, order="F").flags["C_CONTIGUOUS"]
    False
    """
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
    """An npgpu.Array laid out C-contiguously (row-major), as numpy.ascontiguousarray.

    A copy is made only when needed: a dtype conversion, a move to another device (host data onto a GPU), or a
    layout other than C-contiguous.

    Parameters
    ----------
    a : array_like or npgpu.Array
        Anything ``npgpu.asarray`` takes (NumPy input gives an npgpu.Array).
    dtype : dtype, optional
        The result's dtype (default: a's).
    device : optional
        Where the result lives: what ``npgpu.asarray`` takes (default: a's own device for arrays, else the
        default device).

    Returns
    -------
    npgpu.Array
        C-contiguous, at least 1-D (a 0-d input gives shape (1,)).

    See Also
    --------
    array, asfortranarray

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2], [3, 4]], device="cpu")
    >>> npgpu.ascontiguousarray(a.T)
    Array([[1, 3],
           [2, 4]])
    >>> npgpu.ascontiguousarray(a.T).flags["C_CONTIGUOUS"]
    True
    >>> npgpu.ascontiguousarray(a) is a
    True
    """
    r = _in_order(_array.asarray(a, dtype=dtype, device=device), "C")
    return r.reshape((1,)) if r.ndim == 0 else r


def asfortranarray(a, dtype=None, *, device=None):
    """An npgpu.Array laid out Fortran-contiguously (column-major), as numpy.asfortranarray.

    A copy is made only when needed: a dtype conversion, a move to another device (host data onto a GPU), or a
    layout other than Fortran-contiguous.

    Parameters
    ----------
    a : array_like or npgpu.Array
        Anything ``npgpu.asarray`` takes (NumPy input gives an npgpu.Array).
    dtype : dtype, optional
        The result's dtype (default: a's).
    device : optional
        Where the result lives: what ``npgpu.asarray`` takes (default: a's own device for arrays, else the
        default device).

    Returns
    -------
    npgpu.Array
        Fortran-contiguous, at least 1-D (a 0-d input gives shape (1,)).

    See Also
    --------
    array, ascontiguousarray

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2], [3, 4]], device="cpu")
    >>> f = npgpu.asfortranarray(a)
    >>> f
    Array([[1, 2],
           [3, 4]])
    >>> f.T.flags["C_CONTIGUOUS"]
    True
    """
    r = _in_order(_array.asarray(a, dtype=dtype, device=device), "F")
    return r.reshape((1,)) if r.ndim == 0 else r


def copy(a, order="K", subok=False):
    """A copy of an array, of the same type, as numpy.copy.

    Parameters
    ----------
    a : npgpu.Array or array_like
        An npgpu.Array is copied on its device; NumPy input (and anything else) is numpy.copy's work and gives a
        NumPy array, as the namespace's other functions.
    order : {"K", "A", "C", "F"}, optional
        The layout of the copy, as numpy.copy's: "C" C-contiguous, "F" Fortran-contiguous, "K" (default) and "A"
        Fortran-contiguous for a Fortran-contiguous (and not C-contiguous) `a`, else C-contiguous.

    subok : bool, optional
        For NumPy input, passed to numpy.copy (True keeps an ndarray subclass); npgpu has no array subclasses.
    Returns
    -------
    npgpu.Array or numpy.ndarray
        The copy: an npgpu.Array on a's device for an npgpu.Array, else a NumPy array.

    Raises
    ------
    ValueError
        `order` is not one of "C", "F", "A", "K" (for an npgpu.Array).

    See Also
    --------
    array, copyto

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2], [3, 4]], device="cpu")
    >>> b = npgpu.copy(a)
    >>> b, b is a
    (Array([[1, 2],
           [3, 4]]), False)
    >>> npgpu.copy(np.array([1, 2]))
    array([1, 2])
    """
    if not isinstance(a, _array.Array):
        return np.copy(a, order=order, subok=subok)
    if order not in _ORDERS:
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    f = a.flags
    fortran = a.ndim >= 2 and f["F_CONTIGUOUS"] and not f["C_CONTIGUOUS"]
    return a.T.copy().T if order == "F" or (order in ("A", "K") and fortran) else a.copy()


def copyto(dst, src, casting="same_kind", where=True):
    """Copy values from one array into another, broadcasting, as numpy.copyto.

    For an npgpu.Array `dst`: ``dst[...] = src``, broadcast, under `casting`, where `where` is True. A NumPy
    `dst` is numpy.copyto's work (an npgpu.Array `src` or `where` brought to the host first).

    Parameters
    ----------
    dst : npgpu.Array or numpy.ndarray
        The array written into.
    src : npgpu.Array, numpy.ndarray or scalar
        The values, broadcast to dst's shape.
    casting : {"no", "equiv", "safe", "same_kind", "unsafe"}, optional
        NumPy's rule the cast from src's dtype (for a scalar: its promotion with dst's dtype) to dst's dtype must
        satisfy (default "same_kind").
    where : bool or npgpu.Array of bool, optional
        Where to copy, broadcast to dst's shape (default True: everywhere).

    Returns
    -------
    None

    Raises
    ------
    TypeError
        The cast from `src` to dst's dtype breaks the `casting` rule.

    See Also
    --------
    copy

    Examples
    --------
    >>> dst = npgpu.zeros(3, dtype=np.int64, device="cpu")
    >>> npgpu.copyto(dst, npgpu.asarray([1, 2, 3], device="cpu"))
    >>> dst
    Array([1, 2, 3])
    >>> npgpu.copyto(dst, 7, where=npgpu.asarray([True, False, True], device="cpu"))
    >>> dst
    Array([7, 2, 7])
    """
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


# ------------------------------------------------------------------------------------------ diagonals, triangles

def _int(x, name):
    """An integer argument (Python or NumPy integer, anything with __index__); TypeError otherwise."""
    try:
        return operator.index(x)
    except TypeError:
        raise TypeError(f"{name} must be an integer, not {type(x).__name__}") from None


def _diag_matrix(v, k):
    """The square 2-D array with the 1-D Array v on its k-th diagonal: zeros, then one strided write."""
    n = v.shape[0]
    size = n + abs(k)
    out = _array.zeros((size, size), dtype=v.dtype, device=v.device)
    if n:
        first = k if k >= 0 else -k * size
        out.reshape(-1)[first:first + (n - 1) * (size + 1) + 1:size + 1] = v
    return out


def diag(v, k=0):
    """Extract a diagonal of a matrix, or build a matrix with a vector on a diagonal, as numpy.diag.

    Parameters
    ----------
    v : npgpu.Array or array_like
        1-D: the values of the diagonal of a new matrix; 2-D: the matrix whose diagonal is taken. Other inputs
        than npgpu.Arrays are converted onto the default device.
    k : int, optional
        The diagonal: 0 (default) the main one, k > 0 above it, k < 0 below it.

    Returns
    -------
    npgpu.Array
        For a 1-D `v` of length n, a new (n + |k|, n + |k|) array of v's dtype with `v` on its k-th diagonal
        and zeros elsewhere. For a 2-D `v`, ``npgpu.diagonal(v, k)``: a read-only view of v's diagonal, as
        NumPy's, where `v` is C- or Fortran-contiguous; a read-only copy otherwise.

    Raises
    ------
    ValueError
        `v` is neither 1-D nor 2-D.
    TypeError
        `k` is not an integer.

    See Also
    --------
    diagflat : The same from the flattened input, whatever its dimensions.
    diagonal : Diagonals of any two axes of an N-d array.

    Examples
    --------
    >>> npgpu.diag(npgpu.asarray([1, 2], device="cpu"), k=1)
    Array([[0, 1, 0],
           [0, 0, 2],
           [0, 0, 0]])
    >>> a = npgpu.asarray([[1, 2, 3], [4, 5, 6]], device="cpu")
    >>> npgpu.diag(a), npgpu.diag(a, k=-1)
    (Array([1, 5]), Array([4]))
    """
    v = v if isinstance(v, _array.Array) else _array.asarray(v)
    k = _int(k, "k")
    if v.ndim == 1:
        return _diag_matrix(v, k)
    if v.ndim == 2:
        return diagonal(v, k)
    raise ValueError("Input must be 1- or 2-d.")


def diagflat(v, k=0):
    """A 2-D array with the flattened input on a diagonal, as numpy.diagflat.

    Parameters
    ----------
    v : npgpu.Array or array_like
        The values, of any number of dimensions, flattened in C order. Other inputs than npgpu.Arrays are
        converted onto the default device.
    k : int, optional
        The diagonal: 0 (default) the main one, k > 0 above it, k < 0 below it.

    Returns
    -------
    npgpu.Array
        A new (n + |k|, n + |k|) array of v's dtype, n the size of `v`.

    Raises
    ------
    TypeError
        `k` is not an integer.

    See Also
    --------
    diag

    Examples
    --------
    >>> npgpu.diagflat(npgpu.asarray([[1, 2], [3, 4]], device="cpu"))
    Array([[1, 0, 0, 0],
           [0, 2, 0, 0],
           [0, 0, 3, 0],
           [0, 0, 0, 4]])
    >>> npgpu.diagflat(npgpu.asarray([1.5, 2.5], device="cpu"), -1)
    Array([[0. , 0. , 0. ],
           [1.5, 0. , 0. ],
           [0. , 2.5, 0. ]])
    """
    v = v if isinstance(v, _array.Array) else _array.asarray(v)
    return _diag_matrix(v.reshape(-1), _int(k, "k"))


def tri(N, M=None, k=0, dtype=float, *, device=None):
    """An array with ones at and below a diagonal and zeros elsewhere, as numpy.tri.

    Parameters
    ----------
    N : int
        The number of rows (a negative number gives none, as NumPy).
    M : int, optional
        The number of columns (default: `N`).
    k : int, optional
        The diagonal at and below which the array is one: 0 (default) the main one, k > 0 above it, k < 0 below
        it.
    dtype : dtype, optional
        The dtype (default float64).
    device : optional
        Where the array lives: what ``npgpu.asarray`` takes (None: the default device).

    Returns
    -------
    npgpu.Array
        Shape ``(N, M)``; element ``(i, j)`` is one where ``j - i <= k``.

    Raises
    ------
    TypeError
        `N`, `M` or `k` is not an integer (NumPy also takes floats there, through numpy.arange).

    See Also
    --------
    tril, triu, tril_indices

    Notes
    -----
    One comparison of two broadcast index vectors, then a cast to `dtype`.

    Examples
    --------
    >>> npgpu.tri(3, 4, k=1, dtype=np.int32, device="cpu")
    Array([[1, 1, 0, 0],
           [1, 1, 1, 0],
           [1, 1, 1, 1]], dtype=int32)
    """
    N = _int(N, "N")
    M = N if M is None else _int(M, "M")
    k = _int(k, "k")
    dt = np.dtype(dtype)
    N, M = max(N, 0), max(M, 0)
    k = min(max(k, -N - 1), M + 1)  # beyond these k changes nothing; the clamp keeps the index vectors in int64
    rows = arange(k, N + k, dtype=np.int64, device=device)[:, None]
    cols = arange(M, dtype=np.int64, device=device)[None, :]
    mask = _ew.less_equal(cols, rows)
    return mask if dt == np.bool_ else mask.astype(dt)


def tril_indices(n, k=0, m=None, *, device=None):
    """The indices of the lower triangle of an (n, m) array, as numpy.tril_indices.

    Parameters
    ----------
    n : int
        The number of rows of the array the indices are for.
    k : int, optional
        The diagonal at and below which the indices lie: 0 (default) the main one, k > 0 above it, k < 0 below
        it.
    m : int, optional
        The number of columns (default: `n`).
    device : optional
        Where the index arrays live: what ``npgpu.asarray`` takes (None: the default device).

    Returns
    -------
    tuple of two npgpu.Array
        The row and the column indices (int64), in row-major order.

    Raises
    ------
    TypeError
        `n`, `k` or `m` is not an integer.

    See Also
    --------
    triu_indices, tril_indices_from, tri

    Notes
    -----
    The nonzero positions of ``tri(n, m, k, dtype=bool)``: their count is read back from the device.

    Examples
    --------
    >>> npgpu.tril_indices(3, device="cpu")
    (Array([0, 1, 1, 2, 2, 2]), Array([0, 0, 1, 0, 1, 2]))
    >>> npgpu.tril_indices(2, k=1, m=3, device="cpu")
    (Array([0, 0, 1, 1, 1]), Array([0, 1, 0, 1, 2]))
    """
    return _indexing.nonzero(tri(n, m, k, dtype=bool, device=device))


def triu_indices(n, k=0, m=None, *, device=None):
    """The indices of the upper triangle of an (n, m) array, as numpy.triu_indices.

    Parameters
    ----------
    n : int
        The number of rows of the array the indices are for.
    k : int, optional
        The diagonal at and above which the indices lie: 0 (default) the main one, k > 0 above it, k < 0 below
        it.
    m : int, optional
        The number of columns (default: `n`).
    device : optional
        Where the index arrays live: what ``npgpu.asarray`` takes (None: the default device).

    Returns
    -------
    tuple of two npgpu.Array
        The row and the column indices (int64), in row-major order.

    Raises
    ------
    TypeError
        `n`, `k` or `m` is not an integer.

    See Also
    --------
    tril_indices, triu_indices_from

    Notes
    -----
    The nonzero positions of ``~tri(n, m, k - 1, dtype=bool)``: their count is read back from the device.

    Examples
    --------
    >>> npgpu.triu_indices(3, device="cpu")
    (Array([0, 0, 0, 1, 1, 2]), Array([0, 1, 2, 1, 2, 2]))
    >>> npgpu.triu_indices(3, k=1, m=2, device="cpu")
    (Array([0]), Array([1]))
    """
    k = _int(k, "k")
    return _indexing.nonzero(_ew.logical_not(tri(n, m, k - 1, dtype=bool, device=device)))


def _array_arg(arr):
    return arr if isinstance(arr, _array.Array) else _array.asarray(arr)


def tril_indices_from(arr, k=0):
    """The indices of the lower triangle of a 2-D array, as numpy.tril_indices_from.

    Parameters
    ----------
    arr : npgpu.Array or array_like
        2-D; only its shape (and, for an npgpu.Array, its device) is used. Other inputs than npgpu.Arrays are
        converted onto the default device.
    k : int, optional
        The diagonal, as in tril_indices (default 0).

    Returns
    -------
    tuple of two npgpu.Array
        ``tril_indices(arr.shape[0], k, arr.shape[1])`` on arr's device.

    Raises
    ------
    ValueError
        `arr` is not 2-D.

    See Also
    --------
    tril_indices, triu_indices_from

    Examples
    --------
    >>> a = npgpu.zeros((3, 2), device="cpu")
    >>> npgpu.tril_indices_from(a, k=-1)
    (Array([1, 2, 2]), Array([0, 0, 1]))
    """
    arr = _array_arg(arr)
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return tril_indices(arr.shape[-2], k=k, m=arr.shape[-1], device=arr.device)


def triu_indices_from(arr, k=0):
    """The indices of the upper triangle of a 2-D array, as numpy.triu_indices_from.

    Parameters
    ----------
    arr : npgpu.Array or array_like
        2-D; only its shape (and, for an npgpu.Array, its device) is used. Other inputs than npgpu.Arrays are
        converted onto the default device.
    k : int, optional
        The diagonal, as in triu_indices (default 0).

    Returns
    -------
    tuple of two npgpu.Array
        ``triu_indices(arr.shape[0], k, arr.shape[1])`` on arr's device.

    Raises
    ------
    ValueError
        `arr` is not 2-D.

    See Also
    --------
    triu_indices, tril_indices_from

    Examples
    --------
    >>> a = npgpu.zeros((2, 3), device="cpu")
    >>> npgpu.triu_indices_from(a, k=1)
    (Array([0, 0, 1]), Array([1, 2, 2]))
    """
    arr = _array_arg(arr)
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return triu_indices(arr.shape[-2], k=k, m=arr.shape[-1], device=arr.device)


def diag_indices(n, ndim=2, *, device=None):
    """The indices of the main diagonal of an n x n x ... array, as numpy.diag_indices.

    Parameters
    ----------
    n : int
        The length of each axis (a negative number gives empty indices, as NumPy).
    ndim : int, optional
        The number of dimensions (default 2).
    device : optional
        Where the index array lives: what ``npgpu.asarray`` takes (None: the default device).

    Returns
    -------
    tuple of npgpu.Array
        `ndim` times the same int64 array ``arange(n)`` (as NumPy, one array object repeated).

    Raises
    ------
    TypeError
        `n` or `ndim` is not an integer (NumPy takes a float `n`, through numpy.arange).

    See Also
    --------
    diag_indices_from, fill_diagonal

    Examples
    --------
    >>> a = npgpu.zeros((3, 3), dtype=np.int64, device="cpu")
    >>> a[npgpu.diag_indices(3, device="cpu")] = 7
    >>> a
    Array([[7, 0, 0],
           [0, 7, 0],
           [0, 0, 7]])
    """
    n, ndim = _int(n, "n"), _int(ndim, "ndim")
    return (arange(max(n, 0), dtype=np.int64, device=device),) * ndim


def diag_indices_from(arr):
    """The indices of the main diagonal of an array with axes all of one length, as numpy.diag_indices_from.

    Parameters
    ----------
    arr : npgpu.Array or array_like
        At least 2-D, its axes all equally long; only its shape (and, for an npgpu.Array, its device) is used.
        Other inputs than npgpu.Arrays are converted onto the default device.

    Returns
    -------
    tuple of npgpu.Array
        ``diag_indices(arr.shape[0], arr.ndim)`` on arr's device.

    Raises
    ------
    ValueError
        `arr` has fewer than two dimensions, or axes of different lengths.

    See Also
    --------
    diag_indices

    Examples
    --------
    >>> npgpu.diag_indices_from(npgpu.zeros((2, 2, 2), device="cpu"))
    (Array([0, 1]), Array([0, 1]), Array([0, 1]))
    """
    arr = _array_arg(arr)
    if arr.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(arr.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(arr.shape[0], arr.ndim, device=arr.device)


def fill_diagonal(a, val, wrap=False):
    """Write a value (or values) into the main diagonal of an array, in place, as numpy.fill_diagonal.

    Parameters
    ----------
    a : npgpu.Array
        At least 2-D, written in place; with more than two dimensions its axes must be equally long (the
        diagonal is then ``a[i, i, ..., i]``).
    val : scalar, npgpu.Array or array_like
        The value; an array is flattened and repeated cyclically along the diagonal, as NumPy's ``a.flat[...] =
        val`` (an empty one writes nothing). Converted to a's dtype as assignment converts (a float into an
        integer array truncates). Array input that is not an npgpu.Array is moved to a's device.
    wrap : bool, optional
        For a tall 2-D array (more rows than columns): whether the diagonal starts again N + 1 rows further down
        (NumPy's flat positions ``0, N + 1, 2 (N + 1), ...`` on through the whole array) rather than stopping
        after the first N rows (default False).

    Returns
    -------
    None

    Raises
    ------
    TypeError
        `a` is not an npgpu.Array (numpy.fill_diagonal fills NumPy arrays).
    ValueError
        `a` has fewer than two dimensions, is N-d with axes of different lengths, or is read-only; `val` is an
        npgpu.Array on another device.

    See Also
    --------
    diag_indices, diagonal

    Notes
    -----
    One strided write where `a` is C-contiguous; otherwise one write through index arrays.

    Examples
    --------
    >>> a = npgpu.zeros((3, 3), dtype=np.int64, device="cpu")
    >>> npgpu.fill_diagonal(a, 5)
    >>> a
    Array([[5, 0, 0],
           [0, 5, 0],
           [0, 0, 5]])
    >>> b = npgpu.zeros((5, 2), device="cpu")
    >>> npgpu.fill_diagonal(b, [1.0, 2.0], wrap=True)
    >>> b
    Array([[1., 0.],
           [0., 2.],
           [0., 0.],
           [1., 0.],
           [0., 2.]])
    """
    if not isinstance(a, _array.Array):
        raise TypeError(f"fill_diagonal writes into an npgpu.Array in place, not a {type(a).__name__} "
                        "(numpy.fill_diagonal fills NumPy arrays)")
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if a.ndim == 2:
        step = a.shape[1] + 1
        end = a.size if wrap else min(a.size, a.shape[1] * a.shape[1])  # not wrap: stop below the square
    else:
        if len(set(a.shape)) != 1:
            raise ValueError("All dimensions of input must be of equal length")
        step = 1 + sum(math.prod(a.shape[:i]) for i in range(1, a.ndim))
        end = a.size
    if a.readonly:
        raise ValueError("assignment destination is read-only")
    count = len(range(0, end, step))
    values = val
    if not isinstance(val, (_PY_SCALARS, np.generic)):
        v = _on_one_device([a, val], "fill_diagonal")[1]
        if v.ndim:
            v = v.reshape(-1)
            if v.size == 0:
                return
            # NumPy's flat assignment repeats the values cyclically along the diagonal
            values = v[:count] if v.size >= count else tile(v, -(-count // v.size))[:count]
        else:
            values = v
    if count == 0:
        return
    if a.flags["C_CONTIGUOUS"]:
        a.reshape(-1)[0:end:step] = values
    elif a.ndim == 2:
        pos = arange(0, end, step, dtype=np.int64, device=a.device)  # the flat C-order positions
        a[_ew.floor_divide(pos, a.shape[1]), _ew.remainder(pos, a.shape[1])] = values
    else:
        a[diag_indices(count, a.ndim, device=a.device)] = values


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of a vector, as numpy.vander.

    Column j is ``x ** (N - 1 - j)`` (or ``x ** j`` with `increasing`), computed as NumPy computes it: a
    running product along the row.

    Parameters
    ----------
    x : npgpu.Array or array_like
        1-D. Other inputs than npgpu.Arrays are converted onto the default device.
    N : int, optional
        The number of columns (default: ``len(x)``).
    increasing : bool, optional
        If True, the powers increase from left to right (default False: they decrease).

    Returns
    -------
    npgpu.Array
        Shape ``(len(x), N)``, of dtype ``promote_types(x.dtype, int64)`` (NumPy's: bool and integers give
        int64, float32 gives float64), C-contiguous.

    Raises
    ------
    ValueError
        `x` is not 1-D, or `N` is negative.
    TypeError
        `N` is not an integer.

    See Also
    --------
    npgpu.polyval

    Notes
    -----
    The running product is npgpu's cumulative product along the rows; on a GPU its floating-point rounding may
    differ from NumPy's in the last bits.

    Examples
    --------
    >>> x = npgpu.asarray([1, 2, 3], device="cpu")
    >>> npgpu.vander(x)
    Array([[1, 1, 1],
           [4, 2, 1],
           [9, 3, 1]])
    >>> npgpu.vander(x, 4, increasing=True)
    Array([[ 1,  1,  1,  1],
           [ 1,  2,  4,  8],
           [ 1,  3,  9, 27]])
    """
    x = _array_arg(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    N = x.shape[0] if N is None else _int(N, "N")
    if N < 0:
        raise ValueError("negative dimensions are not allowed")
    dt = np.promote_types(x.dtype, np.int64)
    out = _array.empty((x.shape[0], N), dtype=dt, device=x.device)
    powers = out if increasing else out[:, ::-1]  # NumPy fills the reversed view, keeping out C-contiguous
    if N > 0:
        powers[:, 0] = 1
    if N > 1:
        powers[:, 1:] = x[:, None]
        powers[:, 1:] = powers[:, 1:].cumprod(axis=1, dtype=dt)
    return out


def indices(dimensions, dtype=int, sparse=False, *, device=None):
    """An array of the indices of a grid, as numpy.indices.

    Parameters
    ----------
    dimensions : sequence of ints
        The shape of the grid.
    dtype : dtype, optional
        The dtype of the result (default int64).
    sparse : bool, optional
        If True, one array per axis with length-1 axes elsewhere, instead of one dense array (default False).
    device : optional
        Where the result lives: what ``npgpu.asarray`` takes (None: the default device).

    Returns
    -------
    npgpu.Array or tuple of npgpu.Array
        Dense: shape ``(len(dimensions),) + tuple(dimensions)``, ``result[i]`` the index along axis i. Sparse:
        a tuple whose i-th array has shape ``(1, ..., dimensions[i], ..., 1)``.

    Raises
    ------
    TypeError
        `dimensions` is not a sequence of integers.
    ValueError
        A negative dimension (dense; sparse gives that axis length 0, as NumPy).

    See Also
    --------
    meshgrid, ix_

    Examples
    --------
    >>> npgpu.indices((2, 3), device="cpu")
    Array([[[0, 0, 0],
            [1, 1, 1]],
    <BLANKLINE>
           [[0, 1, 2],
            [0, 1, 2]]])
    >>> npgpu.indices((2, 3), sparse=True, device="cpu")
    (Array([[0],
           [1]]), Array([[0, 1, 2]]))
    """
    try:
        dims = tuple(dimensions)
    except TypeError:
        raise TypeError(f"dimensions must be a sequence of integers, not {type(dimensions).__name__}") from None
    dims = tuple(_int(d, "dimensions") for d in dims)
    nd = len(dims)
    shapes = [(1,) * i + (max(d, 0),) + (1,) * (nd - i - 1) for i, d in enumerate(dims)]
    if sparse:
        return tuple(arange(max(d, 0), dtype=dtype, device=device).reshape(s) for d, s in zip(dims, shapes))
    if any(d < 0 for d in dims):
        raise ValueError("negative dimensions are not allowed")
    out = _array.empty((nd,) + dims, dtype=dtype, device=device)
    for i, (d, s) in enumerate(zip(dims, shapes)):
        out[i] = arange(d, dtype=dtype, device=device).reshape(s)
    return out


def ix_(*args):
    """An open mesh of index vectors, for cross-product indexing, as numpy.ix_.

    ``a[npgpu.ix_(rows, cols)]`` is the sub-array of the given rows and columns.

    Parameters
    ----------
    *args : npgpu.Array or array_like
        1-D index vectors: integers, or booleans (replaced by the positions of their True elements). npgpu.Arrays
        decide the device; other inputs are converted onto it (the default device when there is none). An empty
        sequence that is not an array gives int64, as NumPy's intp.

    Returns
    -------
    tuple of npgpu.Array
        The k-th input with shape ``(1, ..., n, ..., 1)``, n along axis k of ``len(args)`` axes (a view of a
        contiguous input).

    Raises
    ------
    ValueError
        An input that is not 1-D; npgpu.Arrays on different devices.

    See Also
    --------
    indices, meshgrid

    Notes
    -----
    A boolean input's positions are counted on the device and the count read back.

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2, 3], [4, 5, 6]], device="cpu")
    >>> rows, cols = npgpu.ix_(npgpu.asarray([1, 0], device="cpu"), [True, False, True])
    >>> rows.shape, cols.shape
    ((2, 1), (1, 2))
    >>> a[rows, cols]
    Array([[4, 6],
           [1, 3]])
    """
    was_array = [isinstance(x, (_array.Array, np.ndarray)) for x in args]
    xs = _on_one_device(args, "ix_")
    out = []
    for k, (x, arr) in enumerate(zip(xs, was_array)):
        if not arr and x.size == 0:
            x = x.astype(np.int64)  # NumPy types empty sequences as intp rather than float64
        if x.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if x.dtype == np.bool_:
            x, = _indexing.nonzero(x)
        out.append(x.reshape((1,) * k + (x.shape[0],) + (1,) * (len(xs) - k - 1)))
    return tuple(out)


# ------------------------------------------------------------------------------------------ logspace, geomspace

def _shape_of(x):
    return tuple(x.shape) if isinstance(x, _array.Array) else np.shape(x)


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0, *, device=None):
    """Numbers evenly spaced on a log scale, as numpy.logspace: ``base ** linspace(start, stop, num)``.

    Parameters
    ----------
    start, stop : scalar, npgpu.Array or array_like
        The exponents of the first and last values; arrays broadcast against each other (and against `base`).
    num : int, optional
        The number of values (default 50).
    endpoint : bool, optional
        Whether ``base ** stop`` is the last value (default True).
    base : scalar, npgpu.Array or array_like, optional
        The base (default 10.0). A non-scalar base broadcasts with the bounds, as NumPy's, one sequence per
        element.
    dtype : dtype, optional
        The output dtype. Default: NumPy's, that of ``power(base, linspace(start, stop))`` (a Python float base
        keeps the exponents' dtype; a NumPy scalar or array base promotes).
    axis : int, optional
        The axis of the result along which the values run, for array arguments (default 0).
    device : optional
        Where the result lives for scalar arguments: what ``npgpu.asarray`` takes (None: the default device).
        npgpu.Array arguments decide the device; a `device` given must then be theirs.

    Returns
    -------
    npgpu.Array
        Shape ``(num,)`` for scalar arguments; for array arguments ``(num,)`` followed by their broadcast shape,
        that first axis moved to `axis`.

    Raises
    ------
    ValueError
        `num` is negative; npgpu.Arrays on different devices.
    TypeError
        `num` is not an integer.
    numpy.exceptions.AxisError
        `axis` is out of range for the result.

    See Also
    --------
    linspace, geomspace

    Examples
    --------
    >>> npgpu.logspace(0, 3, 4, device="cpu")
    Array([   1.,   10.,  100., 1000.])
    >>> npgpu.logspace(0, 2, 3, base=2.0, endpoint=False, device="cpu")
    Array([1.        , 1.58740105, 2.5198421 ])
    >>> npgpu.logspace(0, 2, 3, base=npgpu.asarray([2.0, 10.0], device="cpu"), axis=1)
    Array([[  1.,   2.,   4.],
           [  1.,  10., 100.]])
    """
    arrays = [b for b in (start, stop, base) if isinstance(b, _array.Array)]
    if arrays:
        device = _on_one_device(arrays, "logspace", device)[0].device
    if not isinstance(base, (float, int)) and len(_shape_of(base)):
        # A non-scalar base broadcasts with the bounds, so each argument gets the same number of dimensions.
        ndmax = len(np.broadcast_shapes(_shape_of(start), _shape_of(stop), _shape_of(base)))
        start, stop, base = (a.reshape((1,) * (ndmax - a.ndim) + tuple(a.shape)) if isinstance(a, _array.Array)
                             else np.array(a, copy=None, ndmin=ndmax) for a in (start, stop, base))
        base = expand_dims(_array.asarray(base, device=device), axis=axis)
    y = linspace(start, stop, num=num, endpoint=endpoint, axis=axis, device=device)
    if isinstance(base, np.ndarray):
        base = _array.asarray(base, device=y.device)  # a 0-d NumPy array: a (strong) array, as in NumPy
    out = _ew.power(base, y)
    return out if dtype is None else out.astype(dtype, copy=False)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0, *, device=None):
    """Numbers evenly spaced on a log scale from one end point to the other, as numpy.geomspace.

    Each value is a constant multiple of the one before. Negative real end points (both of one sign) give
    negative values; complex end points give a spiral in the complex plane, NumPy's way: the sequence is
    computed from ``start`` rotated onto the positive real axis, then rotated back. The end points are exact.

    Parameters
    ----------
    start, stop : scalar, npgpu.Array or array_like
        The first and last values (nonzero); arrays broadcast against each other. npgpu.Arrays decide the
        device; other inputs are converted onto it (onto `device` when there is none).
    num : int, optional
        The number of values (default 50).
    endpoint : bool, optional
        Whether `stop` is the last value (default True).
    dtype : dtype, optional
        The output dtype. Default: ``result_type(start, stop, float(num))`` promoted to at least float64 (the
        calculation's, NumPy's). With `dtype` given the calculation is in ``result_type(start, stop, float(num),
        dtype)`` and the result cast to `dtype` (an integer dtype truncates).
    axis : int, optional
        The axis of the result along which the values run, for array end points (default 0).
    device : optional
        Where the result lives for scalar end points: what ``npgpu.asarray`` takes (None: the default device).

    Returns
    -------
    npgpu.Array
        Shape ``(num,)`` for scalar end points; for array end points ``(num,)`` followed by their broadcast
        shape, that first axis moved to `axis`.

    Raises
    ------
    ValueError
        `start` or `stop` is (or holds) zero; `num` is negative; npgpu.Arrays on different devices.
    TypeError
        `num` is not an integer.
    numpy.exceptions.AxisError
        `axis` is out of range for the result.

    See Also
    --------
    logspace, linspace

    Notes
    -----
    The check for zeros reads one boolean back from the device.

    Examples
    --------
    >>> npgpu.geomspace(1, 1000, 4, device="cpu")
    Array([   1.,   10.,  100., 1000.])
    >>> npgpu.geomspace(-1, -1000, 4, device="cpu")
    Array([   -1.,   -10.,  -100., -1000.])
    >>> npgpu.geomspace(1j, 1000j, 4, device="cpu")
    Array([0.   +1.j, 0.  +10.j, 0. +100.j, 0.+1000.j])
    """
    start, stop = _on_one_device((start, stop), "geomspace", device)
    if bool(_reduce.any(_ew.equal(start, 0))) or bool(_reduce.any(_ew.equal(stop, 0))):
        raise ValueError("Geometric sequence cannot include zero")
    calc = np.result_type(start.dtype, stop.dtype, float(num), np.dtype(np.float64 if dtype is None else dtype))
    out_dtype = calc if dtype is None else np.dtype(dtype)
    start, stop = start.astype(calc), stop.astype(calc)
    # NumPy rotates start onto the positive real axis (negative and complex end points), and back at the end
    sign = _ew.sign(start)
    start, stop = _ew.divide(start, sign), _ew.divide(stop, sign)
    out = logspace(_ew.log10(start), _ew.log10(stop), num=num, endpoint=endpoint, base=10.0, dtype=calc)
    if num > 0:  # exact end points: 10 ** log10(x) need not be x
        out[0] = start
        if num > 1 and endpoint:
            out[-1] = stop
    _ew.multiply(out, sign, out=out)
    if axis != 0:
        out = moveaxis(out, 0, axis)
    return out.astype(out_dtype, copy=False)


# ------------------------------------------------------------------------------------------ index objects

def _slice_bound(x, name):
    """A slice bound or step of mgrid/ogrid/r_ as a host scalar (a 0-d npgpu.Array is read back)."""
    x = _scalar(x, name)
    if isinstance(x, (str, bytes)) or not isinstance(x, (_PY_SCALARS, np.generic)):
        raise TypeError(f"slice {name} must be a number, not {type(x).__name__}")
    return x


def _slice_parts(key):
    """(start, stop, step, complex_step) of a slice of mgrid/ogrid/r_, NumPy's defaults filled in."""
    if not isinstance(key, slice):
        raise TypeError(f"expected slices, not {type(key).__name__}")
    start = 0 if key.start is None else _slice_bound(key.start, "start")
    if key.stop is None:
        raise TypeError("a slice of mgrid/ogrid needs a stop")
    stop = _slice_bound(key.stop, "stop")
    step = 1 if key.step is None else _slice_bound(key.step, "step")
    return start, stop, step, isinstance(step, (complex, np.complexfloating))


class _GridClass:
    """Dense or open mesh grids from slice notation, as numpy.mgrid (``npgpu.mgrid``) and numpy.ogrid
    (``npgpu.ogrid``).

    ``npgpu.mgrid[start:stop:step, ...]`` gives one dense array of the coordinates, shape ``(len(key),) +
    lengths``; ``npgpu.ogrid[...]`` a tuple of open (broadcastable) coordinate arrays instead. A real step
    counts from `start` up to (not including) `stop`, as arange; a complex step ``Nj`` gives N values from
    `start` to `stop` included, as linspace. One slice (not a tuple) gives a 1-D array. The result's dtype is
    NumPy's (from the bounds' types), its values computed on the default device.

    Parameters
    ----------
    key : slice or tuple of slices
        The index expression; bounds and steps are Python or NumPy scalars (0-d npgpu.Arrays are read back).

    Returns
    -------
    npgpu.Array or tuple of npgpu.Array
        mgrid: one array (the stacked dense grids, or a 1-D array for one slice); ogrid: a tuple of arrays of
        shape ``(1, ..., n, ..., 1)`` (a 1-D array for one slice).

    Raises
    ------
    TypeError
        A bound is not a number, a slice has no stop, or an entry is not a slice.
    ZeroDivisionError
        A real step of zero.
    ValueError
        A bound is NaN or infinite.

    See Also
    --------
    indices, meshgrid, arange, linspace

    Examples
    --------
    >>> npgpu.mgrid[0:2, 0:3]
    Array([[[0, 0, 0],
            [1, 1, 1]],
    <BLANKLINE>
           [[0, 1, 2],
            [0, 1, 2]]])
    >>> npgpu.mgrid[-1:1:5j]
    Array([-1. , -0.5,  0. ,  0.5,  1. ])
    >>> npgpu.ogrid[0:2, 0:3:2]
    (Array([[0],
           [1]]), Array([[0, 2]]))
    """

    __slots__ = ("sparse",)

    def __init__(self, sparse):
        self.sparse = sparse

    def __getitem__(self, key):
        if not isinstance(key, tuple):
            start, stop, step, cplx = _slice_parts(key)
            if cplx:
                n = int(abs(step))
                typ = np.result_type(start, stop, abs(step))
                out = arange(0, n, 1, dtype=typ)
                delta = (stop - start) / float(n - 1) if n != 1 else 1
                return _ew.add(_ew.multiply(out, delta), start)
            return arange(start, stop, step)
        if not key:
            return () if self.sparse else _array.empty((0,), dtype=np.int64)
        parts = [_slice_parts(k) for k in key]
        sizes, nums = [], [0]
        for start, stop, step, cplx in parts:
            if cplx:
                sizes.append(int(abs(step)))
                step = abs(step)
            else:
                if step == 0:
                    raise ZeroDivisionError("slice step must not be zero")
                try:
                    sizes.append(max(math.ceil((stop - start) / step), 0))
                except (ValueError, OverflowError):
                    raise ValueError("cannot compute the grid's length (a NaN or infinite bound)") from None
            nums += [start, stop, step]
        typ = np.result_type(*nums)
        if self.sparse:
            nn = [arange(n, dtype=typ) for n in sizes]
        else:
            nn = indices(sizes, typ)
        out = []
        for k, (start, stop, step, cplx) in enumerate(parts):
            if cplx:
                n = int(abs(step))
                step = (stop - start) / float(n - 1) if n != 1 else n
            out.append(_ew.add(_ew.multiply(nn[k], step), start))
        if self.sparse:
            nd = len(sizes)
            return tuple(x.reshape((1,) * k + (sizes[k],) + (1,) * (nd - k - 1)) for k, x in enumerate(out))
        if out[0].dtype != nn.dtype:
            res = _array.empty((len(out),) + tuple(sizes), dtype=out[0].dtype, device=nn.device)
        else:
            res = nn
        for k, x in enumerate(out):
            res[k] = x
        return res

    def __len__(self):
        return 0


mgrid = _GridClass(sparse=False)
ogrid = _GridClass(sparse=True)


class _Concatenator:
    """Arrays, slices and scalars concatenated along an axis by indexing, as numpy.r_ (``npgpu.r_``, along the
    first axis) and numpy.c_ (``npgpu.c_``, along the last axis, 1-D inputs upgraded to columns).

    Entries are npgpu.Arrays or array_likes, scalars, and slices (``start:stop:step`` as arange, a complex step
    ``Nj`` N values as linspace). A string first entry directs: ``'0'`` the axis; ``'0,2'`` the axis and the
    minimum number of dimensions every entry is upgraded to; ``'0,2,0'`` also where the upgraded entries' axes
    go (as NumPy's third number); ``'r'`` / ``'c'`` a 2-D row / column result (NumPy gives a numpy.matrix:
    npgpu has none, so a 2-D npgpu.Array). npgpu.Arrays decide the device (others are converted onto it); the
    dtype is NumPy's (scalars weak).

    Parameters
    ----------
    key : entry or tuple of entries
        What is concatenated, optionally led by a directive string.

    Returns
    -------
    npgpu.Array
        The concatenation.

    Raises
    ------
    ValueError
        An unknown directive or one not first, entries whose shapes do not fit, npgpu.Arrays on different
        devices.
    numpy.exceptions.AxisError
        The axis is out of range.

    See Also
    --------
    npgpu.concatenate, npgpu.stack, mgrid

    Examples
    --------
    >>> npgpu.r_[npgpu.asarray([1, 2], device="cpu"), 0, 0, [4, 5]]
    Array([1, 2, 0, 0, 4, 5])
    >>> npgpu.r_[-1:1:5j, 7]
    Array([-1. , -0.5,  0. ,  0.5,  1. ,  7. ])
    >>> npgpu.r_["0,2", [1, 2], [3, 4]]
    Array([[1, 2],
           [3, 4]])
    >>> npgpu.c_[npgpu.asarray([1, 2], device="cpu"), [3, 4]]
    Array([[1, 3],
           [2, 4]])
    """

    __slots__ = ("axis", "ndmin", "trans1d", "matrix")

    def __init__(self, axis=0, ndmin=1, trans1d=-1, matrix=False):
        self.axis, self.ndmin, self.trans1d, self.matrix = axis, ndmin, trans1d, matrix

    def __getitem__(self, key):
        from npgpu._manipulation import concatenate
        if isinstance(key, str):
            raise ValueError("npgpu has no matrix class: a lone string (numpy.bmat's syntax) is not supported")
        if not isinstance(key, tuple):
            key = (key,)
        axis, ndmin, trans1d, matrix, col = self.axis, self.ndmin, self.trans1d, self.matrix, False
        entries = []  # (kind, value): 'slice' an npgpu.Array already, 'scalar', 'array'
        for k, item in enumerate(key):
            if isinstance(item, slice):
                start, stop, step, cplx = _slice_parts(item)
                new = linspace(start, stop, int(abs(step))) if cplx else arange(start, stop, step)
                entries.append(("slice", new))
            elif isinstance(item, str):
                if k != 0:
                    raise ValueError("special directives must be the first entry.")
                if item in ("r", "c"):
                    matrix, col = True, item == "c"
                    continue
                try:
                    if "," in item:
                        vec = item.split(",")
                        if len(vec) > 3:
                            raise ValueError
                        axis, ndmin = (int(x) for x in vec[:2])
                        if len(vec) == 3:
                            trans1d = int(vec[2])
                    else:
                        axis = int(item)
                except ValueError:
                    raise ValueError(f"unknown special directive {item!r}") from None
                continue
            elif type(item) in (int, float, complex, bool, bytes, str, memoryview) or isinstance(item, np.generic):
                entries.append(("scalar", item))
            else:
                entries.append(("array", item))
        arrays = _on_one_device([v for kind, v in entries if kind != "scalar"], "r_")
        it = iter(arrays)
        objs, types = [], []
        for kind, v in entries:
            if kind == "scalar":
                objs.append(v)
                types.append(v)
                continue
            new = next(it)
            item_ndim = new.ndim
            if new.ndim < ndmin:
                new = new.reshape((1,) * (ndmin - new.ndim) + tuple(new.shape))
            if kind == "slice":
                if ndmin > 1 and trans1d != -1:
                    from npgpu._manipulation import swapaxes
                    new = swapaxes(new, -1, trans1d)
            elif trans1d != -1 and item_ndim < ndmin:
                k2, k1 = ndmin - item_ndim, trans1d
                if k1 < 0:
                    k1 += k2 + 1
                defaxes = list(range(ndmin))
                new = new.transpose(defaxes[:k1] + defaxes[k2:] + defaxes[k1:k2])
            objs.append(new)
            types.append(new.dtype)
        if not objs:
            raise ValueError("need at least one array to concatenate")
        final = np.result_type(*types)
        dev = arrays[0].device if arrays else None
        out = []
        for o in objs:
            if not isinstance(o, _array.Array):
                o = _array.asarray(np.asarray(o, dtype=final), device=dev)
                if o.ndim < ndmin:
                    o = o.reshape((1,) * (ndmin - o.ndim) + tuple(o.shape))
            elif o.dtype != final:
                o = o.astype(final)
            out.append(o)
        res = concatenate(out, axis=axis)
        if matrix:
            if res.ndim > 2:
                raise ValueError("matrix must be 2-dimensional")
            if res.ndim < 2:
                res = res.reshape((1,) * (2 - res.ndim) + tuple(res.shape))
                if col:
                    res = res.T
        return res

    def __len__(self):
        return 0


class _RClass(_Concatenator):
    __doc__ = _Concatenator.__doc__
    __slots__ = ()

    def __init__(self):
        super().__init__(0)


class _CClass(_Concatenator):
    __doc__ = _Concatenator.__doc__
    __slots__ = ()

    def __init__(self):
        super().__init__(-1, ndmin=2, trans1d=0)


r_ = _RClass()
c_ = _CClass()


class _IndexExpression:
    """Index tuples built with slice notation, as numpy.s_ (``npgpu.s_``: the key as written) and
    numpy.index_exp (``npgpu.index_exp``: always a tuple).

    Parameters
    ----------
    item : index expression
        What is written in the brackets: slices, integers, Ellipsis, None, arrays.

    Returns
    -------
    object
        ``s_[item]`` is `item`; ``index_exp[item]`` is `item` when it is a tuple, else ``(item,)``.

    See Also
    --------
    mgrid, r_

    Examples
    --------
    >>> npgpu.s_[2::2]
    slice(2, None, 2)
    >>> npgpu.index_exp[2::2]
    (slice(2, None, 2),)
    >>> npgpu.arange(10, device="cpu")[npgpu.s_[2::3]]
    Array([2, 5, 8])
    """

    __slots__ = ("maketuple",)

    def __init__(self, maketuple):
        self.maketuple = maketuple

    def __getitem__(self, item):
        if self.maketuple and not isinstance(item, tuple):
            return (item,)
        return item


s_ = _IndexExpression(maketuple=False)
index_exp = _IndexExpression(maketuple=True)


# ------------------------------------------------------------------------------------- from functions, buffers

def fromfunction(function, shape, *, dtype=float, device=None, **kwargs):
    """An array built by calling a function on its coordinate arrays, as numpy.fromfunction.

    Parameters
    ----------
    function : callable
        Called once, as ``function(*indices(shape, dtype), **kwargs)``: each argument an npgpu.Array of the
        coordinates along one axis. Its result is returned as it is.
    shape : tuple of ints
        The shape of the coordinate arrays.
    dtype : dtype, optional
        The dtype of the coordinate arrays (default float64).
    device : optional
        Where the coordinate arrays live: what ``npgpu.asarray`` takes (None: the default device).
    **kwargs
        Passed on to `function`.

    Returns
    -------
    object
        What `function` returns (an npgpu.Array when it computes with npgpu's operations).

    Raises
    ------
    TypeError
        `function` is not callable, or `shape` is not a sequence of integers.
    ValueError
        A negative dimension.

    See Also
    --------
    indices, mgrid

    Examples
    --------
    >>> npgpu.fromfunction(lambda i, j: i + 10 * j, (2, 3), dtype=int, device="cpu")
    Array([[ 0, 10, 20],
           [ 1, 11, 21]])
    """
    if not callable(function):
        raise TypeError(f"fromfunction: function must be callable, not {type(function).__name__}")
    return function(*indices(shape, dtype=dtype, device=device), **kwargs)


def fromiter(iter, dtype, count=-1, *, device=None):  # noqa: A002  (NumPy's parameter name)
    """A 1-D array from the values of an iterable, as numpy.fromiter (read on the host, then copied to the
    device).

    Parameters
    ----------
    iter : iterable
        The values (or, for a structured `dtype`, NumPy's; npgpu holds the dtypes of npgpu.SUPPORTED_DTYPES).
    dtype : dtype
        The dtype of the result; required.
    count : int, optional
        The number of values read (default -1: all of them).
    device : optional
        Where the result lives: what ``npgpu.asarray`` takes (None: the default device).

    Returns
    -------
    npgpu.Array
        1-D, of `count` values (all of them for -1).

    Raises
    ------
    ValueError
        The iterable ends before `count` values, or a value does not convert to `dtype`.
    TypeError
        `iter` is not iterable, `dtype` is not one npgpu holds, or `count` is not an integer.

    See Also
    --------
    frombuffer, asarray

    Examples
    --------
    >>> npgpu.fromiter((x * x for x in range(5)), dtype=np.int32, device="cpu")
    Array([ 0,  1,  4,  9, 16], dtype=int32)
    >>> npgpu.fromiter(iter([1.5, 2.5, 3.5]), float, count=2, device="cpu")
    Array([1.5, 2.5])
    """
    return _array.asarray(np.fromiter(iter, dtype=dtype, count=operator.index(count)), device=device, copy=True)


def frombuffer(buffer, dtype=float, count=-1, offset=0, *, device=None):
    """A 1-D array of the bytes of a buffer read as `dtype`, as numpy.frombuffer (copied to the device).

    Parameters
    ----------
    buffer : buffer-like
        An object exposing the buffer protocol (bytes, bytearray, memoryview, a NumPy array).
    dtype : dtype, optional
        How the bytes are read (default float64).
    count : int, optional
        The number of items read (default -1: all of them, after `offset`).
    offset : int, optional
        The byte offset to start at (default 0).
    device : optional
        Where the result lives: what ``npgpu.asarray`` takes (None: the default device).

    Returns
    -------
    npgpu.Array
        1-D; a copy, never a view of `buffer` (NumPy's result shares the buffer's memory).

    Raises
    ------
    ValueError
        The buffer's size is not a multiple of the item size, `offset` is out of range or there are fewer than
        `count` items.
    TypeError
        `buffer` does not expose the buffer protocol.

    See Also
    --------
    fromiter, asarray

    Examples
    --------
    >>> npgpu.frombuffer(bytes([1, 2, 3, 4]), dtype=np.uint8, device="cpu")
    Array([1, 2, 3, 4], dtype=uint8)
    >>> npgpu.frombuffer(bytes([1, 0, 2, 0]), dtype="<i2", count=1, offset=2, device="cpu")
    Array([2], dtype=int16)
    """
    host = np.frombuffer(buffer, dtype=dtype, count=operator.index(count), offset=operator.index(offset))
    if not host.dtype.isnative:
        host = host.astype(host.dtype.newbyteorder("="))
    return _array.asarray(host, device=device, copy=True)


def mask_indices(n, mask_func, k=0, *, device=None):
    """The indices of an (n, n) array where a masking function leaves non-zeros, as numpy.mask_indices.

    Parameters
    ----------
    n : int
        The size of the square array.
    mask_func : callable
        Called as ``mask_func(ones((n, n), int), k)``, returning an array of the same shape (``npgpu.triu``,
        ``npgpu.tril``, ...).
    k : scalar, optional
        Passed on to `mask_func` (default 0).
    device : optional
        Where the array and the indices live: what ``npgpu.asarray`` takes (None: the default device).

    Returns
    -------
    tuple of npgpu.Array
        The row and column indices (int64) of the non-zeros, in C order.

    Raises
    ------
    TypeError
        `n` is not an integer or `mask_func` is not callable.
    ValueError
        `n` is negative.

    See Also
    --------
    triu_indices, tril_indices

    Examples
    --------
    >>> rows, cols = npgpu.mask_indices(3, npgpu.triu, 1, device="cpu")
    >>> rows, cols
    (Array([0, 0, 1]), Array([1, 2, 2]))
    """
    n = _int(n, "n")
    if n < 0:
        raise ValueError("negative dimensions are not allowed")
    if not callable(mask_func):
        raise TypeError(f"mask_indices: mask_func must be callable, not {type(mask_func).__name__}")
    m = _array.full((n, n), 1, np.int64, device)
    a = mask_func(m, k)
    if not isinstance(a, _array.Array):
        a = _array.asarray(a, device=m.device)
    return _indexing.nonzero(_ew.not_equal(a, 0))


# ------------------------------------------------------------------------------------- flat and multi indices

def _dims(name, dims):
    """A shape argument of unravel_index/ravel_multi_index as a tuple of non-negative ints."""
    if isinstance(dims, (int, np.integer)) and not isinstance(dims, (bool, np.bool_)):
        dims = (dims,)
    try:
        dims = tuple(operator.index(d) for d in dims)
    except TypeError:
        raise TypeError(f"{name}: dims must be an integer or a sequence of integers") from None
    if any(d < 0 for d in dims):
        raise ValueError("dimensions must be non-negative")
    if math.prod(dims) > np.iinfo(np.int64).max:
        raise ValueError("dimensions are too large")
    return dims


def _index_array(x, name, device=None):
    """An integer (or bool) index argument as an int64 npgpu.Array (others raise TypeError, as NumPy)."""
    if not isinstance(x, _array.Array):
        x = np.asarray(x)
        if x.dtype.kind not in "biu":
            raise TypeError(f"{name}: only int indices permitted")
        x = _array.asarray(x, device=device)
    elif x.dtype.kind not in "biu":
        raise TypeError(f"{name}: only int indices permitted, not {x.dtype}")
    return x.astype(np.int64, copy=False)


def _check_order(order):
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")


def _any(flags):
    return flags.size and bool(_reduce.any(flags))


def unravel_index(indices, shape, order="C"):
    """The coordinates in an array of given shape of flat indices, as numpy.unravel_index.

    Parameters
    ----------
    indices : int, npgpu.Array or array_like of ints
        Flat indices into an array of shape `shape`. npgpu.Arrays decide the device (others go to the default
        device); Python and NumPy integer scalars give NumPy scalars, as NumPy.
    shape : int or tuple of ints
        The shape of the array.
    order : {'C', 'F'}, optional
        Whether the indices count in row-major (C, default) or column-major (Fortran) order.

    Returns
    -------
    tuple of npgpu.Array
        One int64 array per dimension, each of `indices`' shape (NumPy int64 scalars for a scalar index).

    Raises
    ------
    ValueError
        An index is negative or not below the array's size (checked with one reduction and a one-byte read), a
        negative dimension, or an unknown `order`.
    TypeError
        Indices that are not integers.

    See Also
    --------
    ravel_multi_index

    Examples
    --------
    >>> npgpu.unravel_index(npgpu.asarray([22, 41, 37], device="cpu"), (7, 6))
    (Array([3, 6, 6]), Array([4, 5, 1]))
    >>> npgpu.unravel_index(npgpu.asarray([31, 41], device="cpu"), (7, 6), order="F")
    (Array([3, 6]), Array([4, 5]))
    """
    _check_order(order)
    dims = _dims("unravel_index", shape)
    if not isinstance(indices, _array.Array) and np.ndim(indices) == 0:
        if not isinstance(indices, (int, np.integer, np.bool_)):
            raise TypeError("unravel_index: only int indices permitted")
        return np.unravel_index(indices, dims, order=order)
    idx = _index_array(indices, "unravel_index")
    if not dims:
        raise ValueError("multiple indices are not supported for 0d arrays")
    size = math.prod(dims)
    if _any(_ew.logical_or(_ew.less(idx, 0), _ew.greater_equal(idx, size))):
        raise ValueError(f"index out of bounds for array with size {size}")
    coords = [None] * len(dims)
    rest = idx
    for ax in (range(len(dims) - 1, -1, -1) if order == "C" else range(len(dims))):
        d = dims[ax]
        if d > 1:
            coords[ax] = _ew.remainder(rest, d)
            rest = _ew.floor_divide(rest, d)
        else:
            coords[ax] = _array.zeros(tuple(idx.shape), dtype=np.int64, device=idx.device)
    return tuple(coords)


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """The flat indices of coordinates into an array of given shape, as numpy.ravel_multi_index.

    Parameters
    ----------
    multi_index : tuple of int arrays or ints
        One integer array (npgpu.Array or array_like) per dimension, broadcast together. npgpu.Arrays decide
        the device (others are converted onto it); all scalars give a NumPy scalar, as NumPy.
    dims : int or tuple of ints
        The shape of the array.
    mode : {'raise', 'wrap', 'clip'} or tuple of them, optional
        What an out-of-range coordinate does: 'raise' (default) raises ValueError, 'wrap' wraps it around
        (negative ones too), 'clip' clips it into range. One mode, or one per dimension.
    order : {'C', 'F'}, optional
        Row-major (C, default) or column-major (Fortran) flat indices.

    Returns
    -------
    npgpu.Array
        The int64 flat indices, of the coordinates' broadcast shape.

    Raises
    ------
    ValueError
        An out-of-range coordinate with 'raise' (one reduction and a one-byte read per dimension), a number of
        coordinate arrays other than ``len(dims)``, an unknown mode or order, coordinate arrays that do not
        broadcast, negative or too large dims.
    TypeError
        Coordinates that are not integers.

    See Also
    --------
    unravel_index

    Examples
    --------
    >>> rows = npgpu.asarray([3, 6, 6], device="cpu")
    >>> npgpu.ravel_multi_index((rows, [4, 5, 1]), (7, 6))
    Array([22, 41, 37])
    >>> npgpu.ravel_multi_index((rows, [4, 5, 1]), (7, 6), order="F")
    Array([31, 41, 13])
    >>> npgpu.ravel_multi_index((rows, [4, 8, -1]), (7, 6), mode=("raise", "clip"))
    Array([22, 41, 36])
    """
    _check_order(order)
    dims = _dims("ravel_multi_index", dims)
    if isinstance(multi_index, _array.Array):
        multi_index = [multi_index[i] for i in range(multi_index.shape[0])] if multi_index.ndim else [multi_index]
    try:
        coords = list(multi_index)
    except TypeError:
        raise TypeError("ravel_multi_index: multi_index must be a sequence of integer arrays") from None
    if len(coords) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    if len(modes) != len(dims):
        raise ValueError("clipmode must have the same length as dims")
    for m in modes:
        if m not in ("raise", "wrap", "clip"):
            raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap', not {m!r}")
    if not dims:
        raise ValueError("at least one dimension is required")
    scalars = all(not isinstance(c, _array.Array) and np.ndim(c) == 0 for c in coords)
    if scalars:
        for c in coords:
            if not isinstance(c, (int, np.integer, np.bool_)):
                raise TypeError("ravel_multi_index: only int indices permitted")
        return np.ravel_multi_index(tuple(coords), dims, mode=mode, order=order)
    devs = [c for c in coords if isinstance(c, _array.Array)]
    dev = _on_one_device(devs, "ravel_multi_index")[0].device if devs else None
    coords = [_index_array(c, "ravel_multi_index", dev) for c in coords]
    fixed = []
    for c, d, m in zip(coords, dims, modes):
        if m == "raise":
            if _any(_ew.logical_or(_ew.less(c, 0), _ew.greater_equal(c, d))):
                raise ValueError("invalid entry in coordinates array")
        elif m == "wrap":
            if d == 0:
                if c.size:
                    raise ValueError("invalid entry in coordinates array")
            else:
                c = _ew.remainder(c, d)
        else:
            if d == 0 and c.size:
                raise ValueError("invalid entry in coordinates array")
            c = _ew.clip(c, 0, max(d - 1, 0))
        fixed.append(c)
    flat = None
    for ax in (range(len(dims)) if order == "C" else range(len(dims) - 1, -1, -1)):
        flat = fixed[ax] if flat is None else _ew.add(_ew.multiply(flat, dims[ax]), fixed[ax])
    from npgpu._manipulation import broadcast_arrays
    shape = broadcast_arrays(*fixed)[0].shape
    if tuple(flat.shape) != tuple(shape):
        flat = _array.broadcast_to(flat, shape)
    return flat.astype(np.int64, copy=True) if flat is coords[0] else flat.astype(np.int64, copy=False)


class ndindex(np.ndindex):  # noqa: N801 (NumPy's name)
    """An iterator over every index tuple of an array of the given shape, in C order, as numpy.ndindex.

    It computes indices only (no array is made, nothing runs on a device): NumPy's own iterator.

    Parameters
    ----------
    *shape : ints, or one tuple of ints
        The array's shape.

    Returns
    -------
    ndindex
        An iterator of tuples of ints.

    Raises
    ------
    ValueError
        A negative dimension (as NumPy).
    TypeError
        A dimension that is not an integer (as NumPy).

    See Also
    --------
    ndenumerate, indices, unravel_index, numpy.ndindex

    Examples
    --------
    >>> list(npgpu.ndindex(2, 2))
    [(0, 0), (0, 1), (1, 0), (1, 1)]
    """


def ndenumerate(arr):
    """Pairs of index tuple and element of an array, in C order, as numpy.ndenumerate.

    Parameters
    ----------
    arr : npgpu.Array or array_like
        An npgpu.Array is copied to the host once, by this call; the elements come as NumPy
        scalars. Use it for small arrays: a Python loop over elements is slow whatever holds them.

    Returns
    -------
    iterator
        ``(index, value)`` pairs.

    Raises
    ------
    None

    See Also
    --------
    ndindex, numpy.ndenumerate

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2], [3, 4]], device="cpu")
    >>> [(i, int(v)) for i, v in npgpu.ndenumerate(a)]
    [((0, 0), 1), ((0, 1), 2), ((1, 0), 3), ((1, 1), 4)]
    """
    host = arr.get() if isinstance(arr, _array.Array) else arr
    return np.ndenumerate(host)
