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
        more.
    ZeroDivisionError
        `step` is zero.
    ValueError
        The length cannot be computed (a bound or the step is NaN), a bound is infinite ("Maximum allowed size
        exceeded"), or a bool dtype is asked for more than two values (no fill-function for the data-type).

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
    """A new array filled with ones, as numpy.ones.

    Parameters
    ----------
    shape : int or tuple of ints
        The shape of the new array.
    dtype : dtype, optional
        The dtype (default float64).
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
    return _array.full(shape, 1, np.float64 if dtype is None else dtype, device)


def eye(n_rows, n_cols=None, /, k=0, dtype=None, *, device=None):
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
    device : optional
        Where the array lives: what ``npgpu.asarray`` takes (None: the default device).

    Returns
    -------
    npgpu.Array
        Shape ``(n_rows, n_cols)``.

    Raises
    ------
    ValueError
        `n_rows` or `n_cols` is negative.
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


def _like_args(x, dtype, device, shape):
    if not isinstance(x, _array.Array):
        x = np.asarray(x)
    return (x.shape if shape is None else shape, x.dtype if dtype is None else dtype,
            x.device if device is None and isinstance(x, _array.Array) else device)


def empty_like(x, /, dtype=None, *, device=None, shape=None):
    """A new uninitialised array with the shape, dtype and device of a given array, as numpy.empty_like.

    Parameters
    ----------
    x : npgpu.Array or array_like
        The prototype: its shape, dtype and (for an npgpu.Array) device are the defaults of the result's. Other
        inputs (NumPy arrays, lists) give an npgpu.Array too, on `device` (the default device if None).
    dtype : dtype, optional
        The result's dtype, instead of x's.
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
    shape, dtype, device = _like_args(x, dtype, device, shape)
    return _array.empty(shape, dtype=dtype, device=device)


def zeros_like(x, /, dtype=None, *, device=None, shape=None):
    """A new array of zeros with the shape, dtype and device of a given array, as numpy.zeros_like.

    Parameters
    ----------
    x : npgpu.Array or array_like
        The prototype: its shape, dtype and (for an npgpu.Array) device are the defaults of the result's. Other
        inputs (NumPy arrays, lists) give an npgpu.Array too, on `device` (the default device if None).
    dtype : dtype, optional
        The result's dtype, instead of x's.
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
    shape, dtype, device = _like_args(x, dtype, device, shape)
    return _array.full(shape, 0, dtype=dtype, device=device)


def ones_like(x, /, dtype=None, *, device=None, shape=None):
    """A new array of ones with the shape, dtype and device of a given array, as numpy.ones_like.

    Parameters
    ----------
    x : npgpu.Array or array_like
        The prototype: its shape, dtype and (for an npgpu.Array) device are the defaults of the result's. Other
        inputs (NumPy arrays, lists) give an npgpu.Array too, on `device` (the default device if None).
    dtype : dtype, optional
        The result's dtype, instead of x's.
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
    shape, dtype, device = _like_args(x, dtype, device, shape)
    return _array.full(shape, 1, dtype=dtype, device=device)


def full_like(x, /, fill_value, dtype=None, *, device=None, shape=None):
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
    if order == "F" and a.ndim >= 2 and not a.T.flags["C_CONTIGUOUS"]:
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


def copy(a, order="K"):
    """A copy of an array, of the same type, as numpy.copy.

    Parameters
    ----------
    a : npgpu.Array or array_like
        An npgpu.Array is copied on its device; NumPy input (and anything else) is numpy.copy's work and gives a
        NumPy array, as the namespace's other functions.
    order : {"K", "A", "C", "F"}, optional
        The layout of the copy, as numpy.copy's: "C" C-contiguous, "F" Fortran-contiguous, "K" (default) and "A"
        Fortran-contiguous for a Fortran-contiguous (and not C-contiguous) `a`, else C-contiguous.

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
        return np.copy(a, order=order)
    if order not in _ORDERS:
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    fortran = a.ndim >= 2 and a.T.flags["C_CONTIGUOUS"] and not a.flags["C_CONTIGUOUS"]
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
