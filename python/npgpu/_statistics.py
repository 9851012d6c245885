"""Order statistics and averages of NumPy: average, ptp, median, percentile, quantile, their NaN-ignoring
forms (nanmedian, nanpercentile, nanquantile), cov and corrcoef.

Each is composed of npgpu's sort, gathers, reductions, elementwise operations and matmul, so it runs where
they run. The quantiles sort the reduced axis (NaNs sort last) and interpolate with NumPy's formulas
(``_lerp``), so results equal NumPy's bit for bit on the host device. npgpu.Array in, npgpu.Array out on
the same device; NumPy (array_like) in, NumPy out. Subclasses of numpy.ndarray (masked arrays, np.matrix)
are refused with TypeError: their semantics would be lost silently.
"""
import math
import warnings

import numpy as np

from npgpu import _array, _elementwise, _indexing, _reduce, _sorting
from npgpu._manipulation import _axes, _on_one_device, permute_dims, reshape

__all__ = ["average", "ptp", "median", "percentile", "quantile", "nanmedian", "nanpercentile", "nanquantile",
           "cov", "corrcoef"]

_ew = _elementwise
_Array = _array.Array


# ------------------------------------------------------------------------------------------------ inputs

def _refuse_subclass(x, name):
    """TypeError for an ndarray subclass (see npgpu._array.refuse_subclass)."""
    _array.refuse_subclass(x, name)


def _inputs(name, *xs, required=None):
    """([npgpu.Array or None for each of xs], NumPy out?): the non-None inputs on one device. With an
    npgpu.Array among them the others join its device and results stay npgpu.Arrays; otherwise they go to
    the default device for host data and the results come back as NumPy. `required`: the names of the
    leading xs that may not be None (TypeError naming the argument); by default all of them."""
    names = required if required is not None else [f"argument {i + 1}" for i in range(len(xs))]
    for arg, x in zip(names, xs):
        if x is None:
            raise TypeError(f"npgpu.{name}: {arg} must be array_like, not None")
    for x in xs:
        _refuse_subclass(x, name)
    given = [x for x in xs if x is not None]
    if not given:
        return list(xs), True
    numpy_out = not any(isinstance(x, _Array) for x in given)
    if numpy_out:
        first, _ = _indexing._as_device_array(given[0])
        given = [first] + [_array.asarray(np.asarray(x), device=first.device) for x in given[1:]]
    else:
        given = _on_one_device(given, name)
    it = iter(given)
    return [None if x is None else next(it) for x in xs], numpy_out


def _back(x, numpy_out, scalar=True):
    """An npgpu result as the caller wants it: NumPy for NumPy input (a 0-d result as a NumPy scalar, as
    NumPy's reductions give, where `scalar`)."""
    if not numpy_out:
        return x
    r = x.get()
    return r[()] if scalar and r.ndim == 0 else r


def _to_out(r, out):
    if out is None:
        return r
    if not isinstance(out, (np.ndarray, _Array)):
        raise TypeError(f"out must be a numpy.ndarray or an npgpu.Array, not {type(out).__name__}")
    if tuple(out.shape) != tuple(r.shape):
        raise ValueError(f"out has shape {tuple(out.shape)}, the result has shape {tuple(r.shape)}")
    out[...] = r.get() if isinstance(out, np.ndarray) and isinstance(r, _Array) else r
    return out


def _reduced_last(x, axis):
    """x with the axes of `axis` (None: all) moved last and merged into one, the kept shape, and the
    keepdims shape."""
    axes = tuple(range(x.ndim)) if axis is None else _axes(axis, x.ndim)
    keep = [i for i in range(x.ndim) if i not in axes]
    kept = tuple(x.shape[i] for i in keep)
    n = math.prod(x.shape[i] for i in axes)
    kd = tuple(1 if i in axes else x.shape[i] for i in range(x.ndim))
    y = permute_dims(x, tuple(keep) + axes) if x.ndim else x
    return reshape(y, kept + (n,)), kept, kd


# ------------------------------------------------------------------------------------------------ average, ptp

def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """Weighted average along the given axes, as numpy.average.

    ``sum(a * w) / sum(w)``, computed in ``result_type(a, w)`` (at least float64 for integer or bool `a`);
    without `weights`, the mean of `a` (float64 for integers).

    Parameters
    ----------
    a : npgpu.Array or array_like
        The values to average.
    axis : None, int or tuple of ints, optional
        The axes averaged over; None (default) averages all the elements.
    weights : npgpu.Array or array_like, optional
        The weight of each value: of a's shape or, with `axis`, of the shape of the reduced axes (in the order
        `axis` names them). Default: every weight 1.
    returned : bool, optional
        Also return the sum of the weights, broadcast to the average's shape and in its dtype (without
        `weights`, the number of elements averaged). Default False.
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size 1 (default False).

    Returns
    -------
    average : npgpu.Array or numpy.ndarray
        An npgpu.Array on the inputs' device for npgpu input; for NumPy (array_like) input a NumPy array, a
        0-d result as a NumPy scalar.
    sum_of_weights : npgpu.Array or numpy.ndarray
        With ``returned=True`` only: the sum of the weights, as above.

    Raises
    ------
    TypeError
        `a` is None; `a` or `weights` is a numpy.ndarray subclass (masked array, np.matrix); `weights` differ
        from a's shape while `axis` is None.
    ValueError
        `weights` have neither a's shape nor that of the reduced axes; npgpu.Arrays on different devices.
    ZeroDivisionError
        The weights sum to zero.

    See Also
    --------
    npgpu.mean

    Examples
    --------
    >>> a = npgpu.asarray([[1.0, 2.0], [3.0, 4.0]], device="cpu")
    >>> npgpu.average(a)
    Array(2.5)
    >>> npgpu.average(a, axis=1, weights=[1, 3], returned=True)
    (Array([1.75, 3.75]), Array([4., 4.]))
    >>> npgpu.average(np.array([[1, 2], [3, 4]]), axis=0, weights=[3, 1])
    array([1.5, 2.5])
    """
    (x, w), numpy_out = _inputs("average", a, weights, required=("a",))
    axes = None if axis is None else _axes(axis, x.ndim)
    if w is None:
        avg = _reduce.mean(x, axis=axes, keepdims=keepdims)
        scl = avg.dtype.type(x.size / avg.size)
    else:
        if x.dtype.kind in "biu":
            dt = np.result_type(x.dtype, w.dtype, "f8")
        else:
            dt = np.result_type(x.dtype, w.dtype)
        if tuple(x.shape) != tuple(w.shape):
            if axes is None:
                raise TypeError("Axis must be specified when shapes of a and weights differ.")
            if tuple(w.shape) != tuple(x.shape[ax] for ax in axes):
                raise ValueError("Shape of weights must be consistent with shape of a along specified axis.")
            w = permute_dims(w, tuple(int(i) for i in np.argsort(axes)))
            w = reshape(w, tuple(s if ax in axes else 1 for ax, s in enumerate(x.shape)))
        scl = _reduce.sum(w, axis=axes, dtype=dt, keepdims=keepdims)
        if bool(_reduce.any(scl == 0)):
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
        avg = _reduce.sum(_ew.multiply(x.astype(dt, copy=False), w.astype(dt, copy=False)), axis=axes,
                          keepdims=keepdims, dtype=dt) / scl
    if not returned:
        return _back(avg, numpy_out)
    if not isinstance(scl, _Array):
        scl = _array.full(avg.shape, scl, dtype=avg.dtype, device=avg.device)
    elif tuple(scl.shape) != tuple(avg.shape):
        scl = _array.broadcast_to(scl, avg.shape).copy()
    return _back(avg, numpy_out), _back(scl, numpy_out)


def ptp(a, axis=None, out=None, keepdims=False):
    """Range of values (maximum - minimum) along the given axes, as numpy.ptp.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Input values.
    axis : None, int or tuple of ints, optional
        The axes reduced; None (default) takes the range of all the elements.
    out : numpy.ndarray or npgpu.Array, optional
        Where to write the result (of the result's shape); it is returned.
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size 1 (default False).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        In a's dtype: integers wrap around as NumPy's. An npgpu.Array on a's device for npgpu input; for NumPy
        (array_like) input a NumPy array, a 0-d result as a NumPy scalar; `out` when given.

    Raises
    ------
    TypeError
        Boolean `a` (as NumPy; an empty boolean `a` raises the reductions' ValueError first); `a` None or a
        numpy.ndarray subclass; `out` neither a numpy.ndarray nor an npgpu.Array.
    ValueError
        A reduction over zero elements; `out` of another shape than the result.

    Examples
    --------
    >>> a = npgpu.asarray([[4, 9, 2], [3, 6, 1]], device="cpu")
    >>> npgpu.ptp(a, axis=1)
    Array([7, 5])
    >>> npgpu.ptp(np.array([127, -128], dtype=np.int8), keepdims=True)
    array([-1], dtype=int8)
    """
    (x,), numpy_out = _inputs("ptp", a, required=("a",))
    axes = None if axis is None else _axes(axis, x.ndim)
    hi, lo = _reduce.max(x, axis=axes, keepdims=keepdims), _reduce.min(x, axis=axes, keepdims=keepdims)
    if x.dtype.kind == "b":  # after the reductions, as NumPy: an empty bool array raises their ValueError
        raise TypeError("numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the "
                        "`^` operator, or the logical_xor function instead.")
    r = _ew.subtract(hi, lo)
    return _to_out(_back(r, numpy_out), out)


# ------------------------------------------------------------------------------------------------ quantiles

_CONTINUOUS = {"linear": None, "interpolated_inverted_cdf": (0.0, 1.0), "hazen": (0.5, 0.5),
               "weibull": (0.0, 0.0), "median_unbiased": (1 / 3.0, 1 / 3.0),
               "normal_unbiased": (3 / 8.0, 3 / 8.0)}
_DISCRETE = ("lower", "higher", "nearest", "midpoint")
# Hyndman and Fan's discontinuous methods 1-3: positions (1, 3) or a gamma of 0.5 or 1 (2)
_STEP = ("inverted_cdf", "averaged_inverted_cdf", "closest_observation")


def _virtual_index(n, q, method, floor, ceil, rint, where=np.where, maximum=np.maximum):
    """NumPy's virtual index of each quantile for `n` valid values (host numbers or device arrays alike)."""
    if method in ("inverted_cdf", "closest_observation"):
        # NumPy's _discrete_interpolation_to_boundaries: the previous order statistic where the index is whole
        # (and, for closest_observation, odd: the nearest even one, 1-based), else the next; clipped at 0
        v = n * q - 1 if method == "inverted_cdf" else n * q - 1 - 0.5
        prev = floor(v)
        whole = (v - prev) == 0
        if method == "closest_observation":
            whole = whole & (prev % 2 == 1)
        return maximum(where(whole, prev, prev + 1), 0).astype(np.int64)
    if method == "averaged_inverted_cdf":
        return n * q - 1
    if method == "linear":
        return (n - 1) * q
    if method == "lower":
        return floor((n - 1) * q).astype(np.int64)
    if method == "higher":
        return ceil((n - 1) * q).astype(np.int64)
    if method == "nearest":
        return rint((n - 1) * q).astype(np.int64)
    if method == "midpoint":
        return 0.5 * (floor((n - 1) * q) + ceil((n - 1) * q))
    alpha, beta = _CONTINUOUS[method]
    return n * q + (alpha + q * (1 - alpha - beta)) - 1


def _lerp(a, b, t, t_cast):
    """NumPy's _lerp: ``a + (b - a) * t``, or ``b - (b - a) * (1 - t)`` where t >= 0.5 (exact at t = 1).
    `t_cast`: the dtype a weak (Python float) t is rounded to first, or None."""
    diff = _ew.subtract(b, a)
    omt = 1 - t
    if t_cast is not None:  # a weak t, as NEP 50: rounded to the array's float dtype
        tt, omt = (t.astype(t_cast) if isinstance(t, _Array) else t_cast.type(t)), \
            (omt.astype(t_cast) if isinstance(omt, _Array) else t_cast.type(omt))
    else:
        tt = t
    lo = _ew.add(a, _ew.multiply(diff, tt))
    hi = _ew.subtract(b, _ew.multiply(diff, omt))
    if not isinstance(t, _Array):
        return hi if t >= 0.5 else lo
    return _ew.where(t >= 0.5, hi, lo)


def _check_q(q, name, scale):
    """q as a host float array of at most 2 dims (NumPy's checks), and whether it was a Python scalar."""
    weak = type(q) in (int, float)
    if isinstance(q, _Array):
        q = q.get()  # a few numbers: NumPy's range check reads them
    _refuse_subclass(q, name)
    q = np.asarray(q)
    if scale != 1:
        q = np.asarray(np.true_divide(q, scale))  # a 0-d object array (a huge int) divides to a float
    if q.size and not (q.min() >= 0 and q.max() <= 1):
        raise ValueError("Percentiles must be in the range [0, 100]" if scale != 1 else
                         "Quantiles must be in the range [0, 1]")
    if q.ndim > 2:
        raise ValueError("q must be a scalar or 1d")
    return q, weak


def _check_method(method, interpolation, name):
    if interpolation is not None:
        warnings.warn(f"the `interpolation=` argument to {name} was renamed to `method=`, which has "
                      "additional options.", DeprecationWarning, stacklevel=3)
        method = interpolation
    if method not in _CONTINUOUS and method not in _DISCRETE and method not in _STEP:
        raise ValueError(f"{method!r} is not a valid method. Use one of: "
                         f"{tuple(_CONTINUOUS) + _DISCRETE + _STEP}")
    return method


def _finish(r, q, kept, kd, keepdims):
    """Quantile results laid out rest + (nq,) -> q.shape + rest (or q.shape + keepdims shape)."""
    nd = r.ndim
    r = permute_dims(r, (nd - 1,) + tuple(range(nd - 1)))
    return reshape(r, q.shape + (kd if keepdims else kept))


def _quantile(x, q, weak, axis, method, keepdims, name):
    """The quantiles of the npgpu.Array x (NaNs propagate): one sort, gathers at host-computed positions."""
    if x.dtype.kind == "c":
        raise TypeError("a must be an array of real numbers")
    y, kept, kd = _reduced_last(x, axis)
    n = y.shape[-1]
    if n == 0:
        if math.prod(kept):
            raise IndexError("index -1 is out of bounds for axis 0 with size 0")
        # no slices at all: the empty result, as median's (NumPy raises IndexError for one axis and
        # ValueError for several; docs/numpy-differences.md). One dummy value per (absent) slice gives the
        # result's dtype and shape through the ordinary path.
        y, n = _array.zeros(kept + (1,), dtype=y.dtype, device=y.device), 1
    y = _sorting.sort(y, axis=-1)
    qf = q.reshape(-1)
    if method in _STEP and weak and y.dtype.kind == "f":
        qf = qf.astype(y.dtype)  # NumPy's q for a Python scalar: the array's float dtype, so is the index
    v = _virtual_index(n, qf, method, np.floor, np.ceil, np.rint)
    if v.dtype.kind in "iu":  # positions: no interpolation
        r = _indexing.take(y, _array.asarray(v.astype(np.int64), device=y.device), axis=-1)
    else:
        prev = np.floor(v)
        prev[v >= n - 1] = -1
        prev[v < 0] = 0
        gamma = v - prev
        if method == "midpoint":
            gamma = np.where(v % 1 == 0, 0.0, 0.5)
        if method == "averaged_inverted_cdf":
            gamma = np.where(gamma == 0, 0.5, 1.0).astype(v.dtype)
        nxt = np.where(prev == -1, -1, np.where(v < 0, 0, prev + 1)).astype(np.int64)
        prev = prev.astype(np.int64)
        pv = _indexing.take(y, _array.asarray(prev, device=y.device), axis=-1)
        nv = _indexing.take(y, _array.asarray(nxt, device=y.device), axis=-1)
        if weak:
            t, cast = float(gamma[0]), (y.dtype if y.dtype.kind == "f" else None)
        else:
            t, cast = _array.asarray(gamma, device=y.device), None
        r = _lerp(pv, nv, t, cast)
    if y.dtype.kind == "f":
        last = y[..., n - 1:]
        r = _ew.where(_ew.isnan(last), last.astype(r.dtype), r)
    return _finish(r, q, kept, kd, keepdims)


def _nanquantile(x, q, weak, axis, method, keepdims, name):
    """Quantiles ignoring NaNs: after one sort the valid values of each slice lead it; the positions
    depend on each slice's count, so they are computed on the device."""
    y, kept, kd = _reduced_last(x, axis)
    n = y.shape[-1]
    qf = q.reshape(-1)
    rdt = np.result_type(y.dtype, np.float64) if not weak or y.dtype.kind != "f" else y.dtype
    if method in ("lower", "higher", "nearest"):
        rdt = y.dtype
    if n == 0:
        warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
        r = _array.full(kept + (qf.size,), np.nan, dtype=rdt, device=x.device)
        return _finish(r, q, kept, kd, keepdims)
    y = _sorting.sort(y, axis=-1)
    cnt = _reduce.sum(_ew.logical_not(_ew.isnan(y)), axis=-1, keepdims=True, dtype=np.int64)
    empty = cnt == 0
    if bool(_reduce.any(empty)):
        warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
    last = _ew.maximum(cnt - 1, 0)
    if method in _STEP and weak and y.dtype.kind == "f":
        qf = qf.astype(y.dtype)  # as in _quantile
    qd = _array.asarray(qf, device=x.device)
    # the count is a Python int in NumPy's per-slice computation: weak, so q's dtype decides v's
    v = _virtual_index(cnt if qf.dtype.kind in "iu" else cnt.astype(qf.dtype), qd, method, _ew.floor, _ew.ceil,
                       _ew.rint, _ew.where, _ew.maximum)
    if v.dtype.kind in "iu":
        r = _indexing.take_along_axis(y, _ew.minimum(_ew.maximum(v, 0), last), axis=-1)
    else:
        above, below = v >= (cnt - 1).astype(np.float64), v < 0
        prev = _ew.where(above, -1.0, _ew.where(below, 0.0, _ew.floor(v)))
        gamma = _ew.where(v % 1 == 0, 0.0, 0.5) if method == "midpoint" else v - prev
        if method == "averaged_inverted_cdf":
            gamma = _ew.where(gamma == 0, 0.5, 1.0).astype(v.dtype)
        pi = _ew.where(above, last, prev.astype(np.int64))
        ni = _ew.where(above, last, _ew.where(below, 0, _ew.minimum(pi + 1, last)))
        pv = _indexing.take_along_axis(y, pi, axis=-1)
        nv = _indexing.take_along_axis(y, ni, axis=-1)
        r = _lerp(pv, nv, gamma, y.dtype if weak and y.dtype.kind == "f" else None)
    r = _ew.where(empty, np.nan, r) if r.dtype.kind == "f" else r
    return _finish(r, q, kept, kd, keepdims)


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
             weights=None, interpolation=None):
    """The q-th quantiles of the data along the given axes, as numpy.quantile.

    Each slice is sorted (NaNs sort last) and interpolated with NumPy's formulas, so results equal NumPy's bit
    for bit on the host device. A slice holding a NaN gives NaN.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Real input values.
    q : float or array_like of float
        The quantiles, in [0, 1]: a scalar or an array of up to 2 dimensions (an npgpu.Array is read back to
        the host). A Python-scalar q keeps a float32 input float32 (NEP 50), an array q gives float64.
    axis : None, int or tuple of ints, optional
        The axes reduced; None (default) reduces all the elements.
    out : numpy.ndarray or npgpu.Array, optional
        Where to write the result (of the result's shape); it is returned.
    overwrite_input : bool, optional
        Accepted and ignored: the input is never changed.
    method : str, optional
        'linear' (default), 'lower', 'higher', 'nearest', 'midpoint', the continuous Hyndman-Fan methods
        ('hazen', 'weibull', 'median_unbiased', 'normal_unbiased', 'interpolated_inverted_cdf') or the
        discontinuous ones ('inverted_cdf', 'averaged_inverted_cdf', 'closest_observation'), with NumPy's
        definitions.
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size 1 (default False).
    weights : None, optional
        Only None: weights are not implemented.
    interpolation : str, optional
        The deprecated name of `method` (DeprecationWarning); it replaces `method` when given.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Of shape ``q.shape + kept shape``: q's dimensions lead. An npgpu.Array on a's device for npgpu input;
        for NumPy (array_like) input a NumPy array, a 0-d result as a NumPy scalar (unless `keepdims`);
        `out` when given.

    Raises
    ------
    TypeError
        Complex `a`; `a` None or a numpy.ndarray subclass; `out` neither a numpy.ndarray nor an npgpu.Array.
    ValueError
        q outside [0, 1] or of more than 2 dimensions; an unknown `method`; `out` of another shape.
    IndexError
        The reduced axes hold no elements while the result does (as NumPy). Where the result is empty too,
        it is returned (of its shape and dtype), as median's; NumPy raises there.
    NotImplementedError
        `weights` given (NumPy's are for method='inverted_cdf' only).

    See Also
    --------
    percentile, nanquantile, median

    Examples
    --------
    >>> a = npgpu.asarray([3.0, 1.0, 4.0, 1.0, 5.0], device="cpu")
    >>> npgpu.quantile(a, [0.25, 0.75])
    Array([1., 4.])
    >>> npgpu.quantile(a, 0.3, method="lower")
    Array(1.)
    >>> npgpu.quantile(np.arange(12).reshape(3, 4), [0.25, 0.5], axis=1)
    array([[0.75, 4.75, 8.75],
           [1.5 , 5.5 , 9.5 ]])
    """
    return _quantile_api("quantile", _quantile, 1, a, q, axis, out, method, keepdims, weights, interpolation)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
               weights=None, interpolation=None):
    """The q-th percentiles of the data along the given axes, as numpy.percentile.

    quantile with q / 100: see quantile for the methods, the dtypes and the handling of NaNs.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Real input values.
    q : float or array_like of float
        The percentiles, in [0, 100]: a scalar or an array of up to 2 dimensions (an npgpu.Array is read back
        to the host).
    axis : None, int or tuple of ints, optional
        The axes reduced; None (default) reduces all the elements.
    out : numpy.ndarray or npgpu.Array, optional
        Where to write the result (of the result's shape); it is returned.
    overwrite_input : bool, optional
        Accepted and ignored: the input is never changed.
    method : str, optional
        'linear' (default), 'lower', 'higher', 'nearest', 'midpoint', the continuous Hyndman-Fan methods
        ('hazen', 'weibull', 'median_unbiased', 'normal_unbiased', 'interpolated_inverted_cdf') or the
        discontinuous ones ('inverted_cdf', 'averaged_inverted_cdf', 'closest_observation'), with NumPy's
        definitions.
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size 1 (default False).
    weights : None, optional
        Only None: weights are not implemented.
    interpolation : str, optional
        The deprecated name of `method` (DeprecationWarning); it replaces `method` when given.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Of shape ``q.shape + kept shape``, as quantile's.

    Raises
    ------
    TypeError
        Complex `a`; `a` None or a numpy.ndarray subclass; `out` neither a numpy.ndarray nor an npgpu.Array.
    ValueError
        q outside [0, 100] or of more than 2 dimensions; an unknown `method`; `out` of another shape.
    IndexError
        The reduced axes hold no elements while the result does (as NumPy). Where the result is empty too,
        it is returned (of its shape and dtype), as median's; NumPy raises there.
    NotImplementedError
        `weights` given.

    See Also
    --------
    quantile, nanpercentile

    Examples
    --------
    >>> a = npgpu.asarray([3.0, 1.0, 4.0, 1.0, 5.0], device="cpu")
    >>> npgpu.percentile(a, 50)
    Array(3.)
    >>> npgpu.percentile(np.array([[10, 7, 4], [3, 2, 1]]), 50, axis=1)
    array([7., 2.])
    """
    return _quantile_api("percentile", _quantile, 100, a, q, axis, out, method, keepdims, weights,
                         interpolation)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
                weights=None, interpolation=None):
    """The q-th quantiles along the given axes, ignoring NaNs, as numpy.nanquantile.

    quantile of the non-NaN values of each slice; all-NaN slices give NaN (RuntimeWarning "All-NaN slice
    encountered"). After one sort the valid values of each slice lead it; the positions depend on each
    slice's count of them, so they are computed on the device.
    Input that is not floating point holds no NaNs: the result is quantile's. An empty input gives
    numpy.nanmean's answer, as NumPy: NaN where the result has elements (RuntimeWarning "Mean of empty
    slice"), in nanmean's dtype and shape (q's dimensions are not added).

    Parameters
    ----------
    a : npgpu.Array or array_like
        Real input values.
    q : float or array_like of float
        The quantiles, in [0, 1], as quantile's.
    axis : None, int or tuple of ints, optional
        The axes reduced; None (default) reduces all the elements.
    out : numpy.ndarray or npgpu.Array, optional
        Where to write the result (of the result's shape); it is returned.
    overwrite_input : bool, optional
        Accepted and ignored: the input is never changed.
    method : str, optional
        'linear' (default), 'lower', 'higher', 'nearest', 'midpoint', the continuous Hyndman-Fan methods
        ('hazen', 'weibull', 'median_unbiased', 'normal_unbiased', 'interpolated_inverted_cdf') or the
        discontinuous ones ('inverted_cdf', 'averaged_inverted_cdf', 'closest_observation'), with NumPy's
        definitions.
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size 1 (default False).
    weights : None, optional
        Only None: weights are not implemented.
    interpolation : str, optional
        The deprecated name of `method` (DeprecationWarning); it replaces `method` when given.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Of shape ``q.shape + kept shape``, as quantile's.

    Raises
    ------
    TypeError
        Complex `a`; `a` None or a numpy.ndarray subclass; `out` neither a numpy.ndarray nor an npgpu.Array.
    ValueError
        q outside [0, 1] or of more than 2 dimensions; an unknown `method`; `out` of another shape.
    NotImplementedError
        `weights` given.

    See Also
    --------
    quantile, nanpercentile, nanmedian

    Examples
    --------
    >>> a = npgpu.asarray([1.0, np.nan, 3.0, 2.0], device="cpu")
    >>> npgpu.nanquantile(a, 0.5)
    Array(2.)
    >>> npgpu.nanquantile(np.array([[np.nan, 4.0], [1.0, 2.0]]), 0.5, axis=1)
    array([4. , 1.5])
    """
    return _quantile_api("nanquantile", _nanquantile, 1, a, q, axis, out, method, keepdims, weights,
                         interpolation)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
                  weights=None, interpolation=None):
    """The q-th percentiles along the given axes, ignoring NaNs, as numpy.nanpercentile.

    percentile of the non-NaN values of each slice (nanquantile with q / 100); all-NaN slices give NaN
    (RuntimeWarning "All-NaN slice encountered").
    Input that is not floating point holds no NaNs: the result is percentile's. An empty input gives
    numpy.nanmean's answer, as NumPy: NaN where the result has elements (RuntimeWarning "Mean of empty
    slice"), in nanmean's dtype and shape (q's dimensions are not added).

    Parameters
    ----------
    a : npgpu.Array or array_like
        Real input values.
    q : float or array_like of float
        The percentiles, in [0, 100], as percentile's.
    axis : None, int or tuple of ints, optional
        The axes reduced; None (default) reduces all the elements.
    out : numpy.ndarray or npgpu.Array, optional
        Where to write the result (of the result's shape); it is returned.
    overwrite_input : bool, optional
        Accepted and ignored: the input is never changed.
    method : str, optional
        'linear' (default), 'lower', 'higher', 'nearest', 'midpoint', the continuous Hyndman-Fan methods
        ('hazen', 'weibull', 'median_unbiased', 'normal_unbiased', 'interpolated_inverted_cdf') or the
        discontinuous ones ('inverted_cdf', 'averaged_inverted_cdf', 'closest_observation'), with NumPy's
        definitions.
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size 1 (default False).
    weights : None, optional
        Only None: weights are not implemented.
    interpolation : str, optional
        The deprecated name of `method` (DeprecationWarning); it replaces `method` when given.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Of shape ``q.shape + kept shape``, as quantile's.

    Raises
    ------
    TypeError
        Complex `a`; `a` None or a numpy.ndarray subclass; `out` neither a numpy.ndarray nor an npgpu.Array.
    ValueError
        q outside [0, 100] or of more than 2 dimensions; an unknown `method`; `out` of another shape.
    NotImplementedError
        `weights` given.

    See Also
    --------
    percentile, nanquantile

    Examples
    --------
    >>> a = npgpu.asarray([1.0, np.nan, 3.0, 2.0], device="cpu")
    >>> npgpu.nanpercentile(a, [0, 100])
    Array([1., 3.])
    """
    return _quantile_api("nanpercentile", _nanquantile, 100, a, q, axis, out, method, keepdims, weights,
                         interpolation)


def _quantile_api(name, impl, scale, a, q, axis, out, method, keepdims, weights, interpolation):
    (x,), numpy_out = _inputs(name, a, required=("a",))
    if x.dtype.kind == "c":
        raise TypeError("a must be an array of real numbers")
    q, weak = _check_q(q, name, scale)
    method = _check_method(method, interpolation, name)
    if weights is not None:
        raise NotImplementedError(f"npgpu.{name}: weights (NumPy's method='inverted_cdf' only) are not "
                                  "implemented")
    if impl is _nanquantile and x.size == 0:
        return _to_out(_nan_empty(x, axis, keepdims, numpy_out, 4), out)
    if impl is _nanquantile and x.dtype.kind != "f":
        impl = _quantile  # no NaNs to ignore, as NumPy
    r = impl(x, q, weak, axis, method, keepdims, name)
    return _to_out(_back(r, numpy_out, scalar=not keepdims), out)


def _nan_empty(x, axis, keepdims, numpy_out, stacklevel):
    """NumPy's nanmedian / nanquantile / nanpercentile of an empty array: nanmean's answer (NaN where the
    result has elements, in nanmean's dtype and shape: q's dimensions are not added)."""
    axes = None if axis is None else _axes(axis, x.ndim)
    with warnings.catch_warnings():  # nanmean's own warning for NumPy input: the one below stands for it
        warnings.simplefilter("ignore", RuntimeWarning)
        r = _reduce.nanmean(x, axis=axes, keepdims=keepdims)
    if r.size:
        warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=stacklevel)
    return _back(r, numpy_out)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """The median along the given axes, as numpy.median.

    The middle value of each sorted slice, or the mean of the two middle ones; a slice holding a NaN gives NaN;
    an empty input gives NaN (RuntimeWarning).

    Parameters
    ----------
    a : npgpu.Array or array_like
        Input values.
    axis : None, int or tuple of ints, optional
        The axes reduced; None (default) takes the median of all the elements.
    out : numpy.ndarray or npgpu.Array, optional
        Where to write the result (of the result's shape); it is returned.
    overwrite_input : bool, optional
        Accepted and ignored: the input is never changed.
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size 1 (default False).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        In the dtype of the mean (float64 for integers). An npgpu.Array on a's device for npgpu input; for NumPy
        (array_like) input a NumPy array, a 0-d result as a NumPy scalar unless `keepdims` (then an array, even
        0-d, as NumPy's); `out` when given.

    Raises
    ------
    TypeError
        `a` None or a numpy.ndarray subclass; `out` neither a numpy.ndarray nor an npgpu.Array.
    ValueError
        `out` of another shape than the result.

    See Also
    --------
    nanmedian, quantile

    Examples
    --------
    >>> npgpu.median(npgpu.asarray([3.0, 1.0, 4.0, 1.0, 5.0], device="cpu"))
    Array(3.)
    >>> npgpu.median(np.array([[10, 7, 4], [3, 2, 1]]), axis=0)
    array([6.5, 4.5, 2.5])
    """
    (x,), numpy_out = _inputs("median", a, required=("a",))
    y, kept, kd = _reduced_last(x, axis)
    n = y.shape[-1]
    y = _sorting.sort(y, axis=-1) if n else y
    h = n // 2
    mid = y[..., h:h + 1] if n % 2 else y[..., max(h - 1, 0):h + 1]
    r = _reduce.mean(mid, axis=-1)  # NumPy's own step: the mean of the middle value(s)
    if n and y.dtype.kind in "fc":
        last = y[..., n - 1]
        r = _ew.where(_ew.isnan(last), last.astype(r.dtype), r)
    r = reshape(r, kd if keepdims else kept)
    return _to_out(_back(r, numpy_out, scalar=not keepdims), out)  # keepdims: an array, even 0-d, as NumPy's


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """The median along the given axes, ignoring NaNs, as numpy.nanmedian.

    The median of the non-NaN values of each slice; all-NaN slices give NaN (RuntimeWarning "All-NaN slice
    encountered"). Input that is not floating point holds no NaNs: the result is median's. An empty input
    gives numpy.nanmean's answer, as NumPy: NaN where the result has elements (RuntimeWarning "Mean of
    empty slice").

    Parameters
    ----------
    a : npgpu.Array or array_like
        Input values.
    axis : None, int or tuple of ints, optional
        The axes reduced; None (default) takes the median of all the elements.
    out : numpy.ndarray or npgpu.Array, optional
        Where to write the result (of the result's shape); it is returned.
    overwrite_input : bool, optional
        Accepted and ignored: the input is never changed.
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size 1 (default False).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        In a's dtype for floating-point input. An npgpu.Array on a's device for npgpu input; for NumPy
        (array_like) input a NumPy array, a 0-d result as a NumPy scalar unless `keepdims`; `out` when given.

    Raises
    ------
    TypeError
        `a` None or a numpy.ndarray subclass; `out` neither a numpy.ndarray nor an npgpu.Array.
    ValueError
        `out` of another shape than the result.

    See Also
    --------
    median, nanquantile

    Examples
    --------
    >>> npgpu.nanmedian(npgpu.asarray([1.0, np.nan, 3.0, 2.0], device="cpu"))
    Array(2.)
    >>> npgpu.nanmedian(np.array([[1.0, np.nan], [4.0, 2.0]]), axis=1)
    array([1., 3.])
    """
    (x,), numpy_out = _inputs("nanmedian", a, required=("a",))
    if x.size == 0:
        return _to_out(_nan_empty(x, axis, keepdims, numpy_out, 3), out)
    if x.dtype.kind != "f":
        return median(a, axis=axis, out=out, keepdims=keepdims)
    y, kept, kd = _reduced_last(x, axis)
    n = y.shape[-1]
    if n == 0:
        warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=2)
        r = _array.full(kept, np.nan, dtype=x.dtype, device=x.device)
    else:
        y = _sorting.sort(y, axis=-1)
        cnt = _reduce.sum(_ew.logical_not(_ew.isnan(y)), axis=-1, keepdims=True, dtype=np.int64)
        empty = cnt == 0
        if bool(_reduce.any(empty)):
            warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=2)
        lo = _ew.maximum((cnt - 1) // 2, 0)
        hi = cnt // 2
        a0 = _indexing.take_along_axis(y, lo, axis=-1)
        a1 = _indexing.take_along_axis(y, _ew.minimum(hi, n - 1), axis=-1)
        # (a0 + a1) / 2 as the mean of the two middle values; the middle one itself for odd counts
        r = _ew.where(lo == hi, a0, _ew.true_divide(_ew.add(a0, a1), y.dtype.type(2)))
        r = _ew.where(empty, np.nan, r)[..., 0]
    r = reshape(r, kd if keepdims else kept)
    return _to_out(_back(r, numpy_out, scalar=not keepdims), out)


# ------------------------------------------------------------------------------------------------ cov, corrcoef

def _ndmin2(x):
    return x.reshape(1, -1) if x.ndim < 2 else x


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *, dtype=None):
    """The covariance matrix of the variables in the rows of `m` (and of `y`), as numpy.cov.

    Normalised by N - 1 for N observations (N with `bias`, N - `ddof` with `ddof`), optionally with frequency
    and observation weights; computed as one matrix product of the centred data.

    Parameters
    ----------
    m : npgpu.Array or array_like
        1-D or 2-D: each row a variable, each column an observation (the other way round with
        ``rowvar=False``).
    y : npgpu.Array or array_like, optional
        More variables and observations, in m's form; they follow m's variables.
    rowvar : bool, optional
        True (default): the rows are the variables; False: the columns are.
    bias : bool, optional
        Normalise by N instead of N - 1 (default False); overridden by `ddof`.
    ddof : int, optional
        Normalise by N - ddof (integer valued).
    fweights : npgpu.Array or array_like of int, optional
        1-D: how many times each observation occurs (integer valued, non-negative).
    aweights : npgpu.Array or array_like, optional
        1-D: the weight of each observation (non-negative).
    dtype : dtype, optional
        The dtype of the computation and the result; default ``result_type(m, y, float64)``.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        The covariance matrix, its dimensions of size 1 removed: a single variable gives a 0-d array (a 0-d
        NumPy array for NumPy input, not a scalar); no variables give a (0, 0) float64 array. An npgpu.Array
        on the inputs' device for npgpu input, a NumPy array for NumPy (array_like) input.

    Raises
    ------
    ValueError
        `ddof` not an integer; `m` or `y` of more than 2 dimensions; negative weights; npgpu.Arrays on
        different devices.
    TypeError
        `fweights` not integer valued; `m` None or a numpy.ndarray subclass.
    RuntimeError
        Weights of more than one dimension or of another length than the number of observations.

    Warns
    -----
    RuntimeWarning
        Degrees of freedom <= 0: the normalisation factor is then 0.

    See Also
    --------
    corrcoef

    Examples
    --------
    >>> npgpu.cov(npgpu.asarray([[0, 1, 2], [2, 1, 0]], device="cpu"))
    Array([[ 1., -1.],
           [-1.,  1.]])
    >>> npgpu.cov(np.array([1.0, 2.0, 4.0]))
    array(2.33333333)
    """
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    (x, yy, fw, aw), numpy_out = _inputs("cov", m, y, fweights, aweights, required=("m",))
    if x.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if yy is not None and yy.ndim > 2:
        raise ValueError("y has more than 2 dimensions")
    if dtype is None:
        dtype = np.result_type(x.dtype, np.float64) if yy is None else np.result_type(x.dtype, yy.dtype,
                                                                                        np.float64)
    dtype = np.dtype(dtype)
    X = _ndmin2(x).astype(dtype)
    if not rowvar and x.ndim != 1:
        X = X.T
    if X.shape[0] == 0:
        return _back(_array.empty((0, 0), dtype=np.float64, device=x.device), numpy_out)
    if yy is not None:
        Y = _ndmin2(yy).astype(dtype)
        if not rowvar and Y.shape[0] != 1:
            Y = Y.T
        from npgpu._manipulation import concatenate
        X = concatenate((X, Y), axis=0)
    if ddof is None:
        ddof = 1 if bias == 0 else 0
    w = None
    if fw is not None:
        fw = fw.astype(np.float64)
        if not bool(_reduce.all(fw == _ew.rint(fw))):
            raise TypeError("fweights must be integer")
        if fw.ndim > 1:
            raise RuntimeError("cannot handle multidimensional fweights")
        if fw.shape[0] != X.shape[1]:
            raise RuntimeError("incompatible numbers of samples and fweights")
        if bool(_reduce.any(fw < 0)):
            raise ValueError("fweights cannot be negative")
        w = fw
    if aw is not None:
        aw = aw.astype(np.float64)
        if aw.ndim > 1:
            raise RuntimeError("cannot handle multidimensional aweights")
        if aw.shape[0] != X.shape[1]:
            raise RuntimeError("incompatible numbers of samples and aweights")
        if bool(_reduce.any(aw < 0)):
            raise ValueError("aweights cannot be negative")
        w = aw if w is None else w * aw
    avg, w_sum = average(X, axis=1, weights=w, returned=True)
    if w is None:
        fact = X.shape[1] - ddof
    else:
        w_sum = float(w_sum[0])  # the normalisation is a host number in NumPy too
        if ddof == 0:
            fact = w_sum
        elif aw is None:
            fact = w_sum - ddof
        else:
            fact = w_sum - ddof * float(_reduce.sum(w * aw)) / w_sum
    if fact <= 0:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=2)
        fact = 0.0
    X = X - avg[:, None]
    X_T = X.T if w is None else (X * w).T
    c = _matmul(X, X_T.conj() if X_T.dtype.kind == "c" else X_T)
    with np.errstate(divide="ignore"):
        c = _ew.multiply(c, np.true_divide(1, fact)).astype(c.dtype, copy=False)  # NumPy's in-place c *=
    c = reshape(c, tuple(s for s in c.shape if s != 1))
    return _back(c, numpy_out, scalar=False)


def _matmul(a, b):
    from npgpu._blas import matmul
    return matmul(a, b)


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """Pearson correlation coefficients, as numpy.corrcoef.

    cov's matrix normalised by the standard deviations, ``R[i, j] = C[i, j] / sqrt(C[i, i] * C[j, j])``, with
    the real (and imaginary) parts clipped to [-1, 1].

    Parameters
    ----------
    x : npgpu.Array or array_like
        1-D or 2-D: each row a variable, each column an observation (the other way round with
        ``rowvar=False``).
    y : npgpu.Array or array_like, optional
        More variables and observations, in x's form.
    rowvar : bool, optional
        True (default): the rows are the variables; False: the columns are.
    dtype : dtype, optional
        The dtype of the computation, as cov's.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        The correlation matrix. A single variable gives c / c (1.0, or NaN), a NumPy scalar for NumPy
        input. An npgpu.Array on the inputs' device for npgpu input, a NumPy array for NumPy (array_like)
        input.

    Raises
    ------
    ValueError
        `x` or `y` of more than 2 dimensions; npgpu.Arrays on different devices.
    TypeError
        `x` None, or `x` or `y` a numpy.ndarray subclass.

    See Also
    --------
    cov

    Examples
    --------
    >>> npgpu.corrcoef(npgpu.asarray([[0, 1, 2], [2, 1, 0]], device="cpu"))
    Array([[ 1., -1.],
           [-1.,  1.]])
    >>> npgpu.corrcoef(np.array([1.0, 2.0, 3.0]), np.array([2.0, 4.0, 7.0]))
    array([[1.        , 0.99339927],
           [0.99339927, 1.        ]])
    """
    (xx, yy), numpy_out = _inputs("corrcoef", x, y, required=("x",))
    c = cov(xx, yy, rowvar, dtype=dtype)
    if c.ndim != 2:
        r = c / c
        return _back(r, numpy_out)
    n = c.shape[0]
    d = _indexing.take(c.reshape(-1), _array.asarray(np.arange(n, dtype=np.int64) * (n + 1), device=c.device))
    stddev = _ew.sqrt(_ew.real(d) if d.dtype.kind == "c" else d)
    c = c / stddev[:, None]
    c = c / stddev[None, :]
    if c.dtype.kind == "c":
        r = c.copy()
        r.real[...] = _ew.clip(_ew.real(c), -1, 1)
        r.imag[...] = _ew.clip(_ew.imag(c), -1, 1)
        c = r
    else:
        c = _ew.clip(c, -1, 1)
    return _back(c, numpy_out)
