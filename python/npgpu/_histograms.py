"""histogram: counts in bins, as numpy.histogram. Uniform bins (an integer ``bins``) compute each element's bin
by arithmetic, with NumPy's corrections at the edges, then count with bincount; explicit edges go through
searchsorted. histogram_bin_edges: the edges histogram uses. digitize: bin indices through searchsorted.
histogramdd and histogram2d: one searchsorted per dimension, the bins' flat index, and one bincount.
Composed of npgpu's elementwise operations, gathers and bincount, so it runs on either device; npgpu.Array in,
npgpu.Arrays out; NumPy in, NumPy out."""
import builtins
import math
import operator
import warnings

import numpy as np

from npgpu import _array, _creation, _elementwise, _indexing, _reduce, _set_functions

__all__ = ["histogram", "histogram_bin_edges", "digitize", "histogram2d", "histogramdd"]

_brange = builtins.range  # `range` is a keyword argument of the histograms


def _range(x, range_, bt):
    """NumPy's first and last edge: `range_` as Python floats, else the data's min and max as scalars of the
    bins' dtype `bt` (widened by 0.5 when equal). NumPy's arithmetic, and so its bins, differ between the
    two (Python floats are weak, float32 scalars are not)."""
    if range_ is not None:
        first, last = (float(v) for v in range_)
        if first > last:
            raise ValueError("max must be larger than min in range parameter.")
        if not (np.isfinite(first) and np.isfinite(last)):
            raise ValueError(f"supplied range of [{first}, {last}] is not finite")
    elif x.size == 0:
        first, last = 0.0, 1.0
    else:
        first, last = float(_reduce.min(x)), float(_reduce.max(x))
        if not (np.isfinite(first) and np.isfinite(last)):
            raise ValueError(f"autodetected range of [{first}, {last}] is not finite")
    if first == last:
        first, last = first - 0.5, last + 0.5
    return (first, last) if range_ is not None else (bt.type(first), bt.type(last))


def histogram(a, bins=10, range=None, density=None, weights=None):  # noqa: A002  (NumPy's keyword)
    """Counts of the values of an array in bins, as numpy.histogram.

    Every bin is half-open but the last, which includes its right edge; values outside the bins (and NaNs) are
    not counted. Uniform bins (an integer `bins`) compute each element's bin by arithmetic, with NumPy's
    corrections next to the edges, then count with bincount; explicit edges go through searchsorted.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Real input values (flattened).
    bins : int or npgpu.Array or array_like, optional
        An int: the number of equal-width bins over `range` or the data's extent (default 10). A sequence:
        the bin edges, 1-D with at least 2 of them, monotonically increasing.
    range : (float, float), optional
        The lower and upper edge of the uniform bins (integer `bins` only; ignored with explicit edges).
        Default: the data's minimum and maximum ((0, 1) for empty data), widened by 0.5 each way where they
        are equal.
    density : bool, optional
        Divide the counts by their total and by the bin widths, default False.
    weights : npgpu.Array or array_like, optional
        Of a's shape: each value adds its weight to its bin instead of 1. The sums are taken in float64 and
        cast to the weights' dtype (complex by parts), as NumPy.

    Returns
    -------
    hist : npgpu.Array or numpy.ndarray
        The count of each bin: int64, or the weights' dtype with `weights`; with `density`, float64 (complex128
        for complex weights). Both results are npgpu.Arrays on a's device for npgpu `a`, NumPy arrays for NumPy
        input.
    bin_edges : npgpu.Array or numpy.ndarray
        The ``len(hist) + 1`` bin edges: for an integer `bins`, in the data's float dtype (float64 for
        integers); explicit edges as given.

    Raises
    ------
    TypeError
        Complex `a` (NumPy compares only the real parts); bool `weights` with explicit edges and non-empty
        `a` (as NumPy's).
    ValueError
        `weights` of another shape than `a`; an integer `bins` < 1; `range` with min > max or not finite; no
        `range` and data whose extent is not finite (NaN or inf among them); explicit edges not 1-D, fewer
        than 2 or not increasing monotonically.

    See Also
    --------
    bincount

    Examples
    --------
    >>> npgpu.histogram(npgpu.asarray([1, 2, 1, 4], device="cpu"), bins=3)
    (Array([2, 1, 1]), Array([1., 2., 3., 4.]))
    >>> npgpu.histogram(np.array([0.5, 1.5, 1.5, 2.5, 9.0]), bins=[0, 1, 2, 3], density=True)
    (array([0.25, 0.5 , 0.25]), array([0, 1, 2, 3]))
    >>> npgpu.histogram(np.array([1.0, 2.0, np.nan]), bins=2, range=(0, 2), weights=np.array([0.5, 2.0, 1.0]))
    (array([0. , 2.5]), array([0., 1., 2.]))
    """
    x, numpy_out = _indexing._as_device_array(a)
    x = x.reshape(-1)
    if x.dtype.kind == "c":
        raise TypeError("histogram of complex data is not supported (NumPy compares only the real parts)")
    w = None
    if weights is not None:
        w = weights if isinstance(weights, _array.Array) else _array.asarray(np.asarray(weights), device=x.device)
        if tuple(w.shape) != tuple(np.shape(a)):
            raise ValueError("weights should have the same shape as a.")
        w = w.reshape(-1)
    bt = np.dtype(x.dtype if x.dtype.kind == "f" else np.float64)
    if isinstance(bins, (int, np.integer)):
        n = operator.index(bins)
        if n < 1:
            raise ValueError("`bins` must be positive, when an integer")
        first, last = _range(x, range, bt)
        edges = _creation.linspace(first, last, n + 1, dtype=bt, device=x.device)
        xs = x.astype(bt, copy=False)
        inside = _indexing.flatnonzero((xs >= first) & (xs <= last))
        v = _indexing.take(xs, inside)
        # NumPy's arithmetic in the bins' dtype, then its corrections one bin either way next to an edge
        norm = n / np.subtract(last, first)  # np.float64 for a given range, else the bins' dtype
        idx = ((v - first) * norm).astype(np.int64)
        idx = _elementwise.where(idx >= n, n - 1, idx)
        idx = _elementwise.where(v < _indexing.take(edges, idx), idx - 1, idx)
        up = (v >= _indexing.take(edges, idx + 1)) & (idx != n - 1)
        idx = _elementwise.where(up, idx + 1, idx)
    else:
        edges = bins if isinstance(bins, _array.Array) else _array.asarray(np.asarray(bins), device=x.device)
        if edges.ndim != 1 or edges.size < 2:
            raise ValueError("`bins` must be 1d, when an array")
        if bool(_reduce.any(edges[1:] < edges[:-1])):
            raise ValueError("`bins` must increase monotonically, when an array")
        n = edges.size - 1
        inside = _indexing.flatnonzero((x >= edges[0]) & (x <= edges[n]))
        v = _indexing.take(x, inside)
        idx = _indexing.searchsorted(edges, v, side="right") - 1
        idx = _elementwise.where(idx >= n, n - 1, idx)  # the last edge belongs to the last bin
    if w is None:
        counts = _set_functions.bincount(idx, minlength=n)[:n]
    else:
        # NumPy's counts are in the weights' dtype: sums in float64 (each part for complex), then cast
        if w.dtype.kind == "b" and not isinstance(bins, (int, np.integer)) and x.size:
            # NumPy sums explicit-edge bins by a cumulative sum (int64 for bool) that cannot go into bool
            raise TypeError("Cannot cast ufunc 'add' output from dtype('int64') to dtype('bool') with casting "
                            "rule 'same_kind'")
        wi = _indexing.take(w, inside)
        if w.dtype.kind == "c":
            counts = _array.zeros((n,), dtype=w.dtype, device=x.device)
            counts.real[...] = _set_functions.bincount(idx, weights=_elementwise.real(wi), minlength=n)[:n]
            counts.imag[...] = _set_functions.bincount(idx, weights=_elementwise.imag(wi), minlength=n)[:n]
        else:
            counts = _set_functions.bincount(idx, weights=wi, minlength=n)[:n].astype(w.dtype)
    if density:
        widths = (edges[1:] - edges[:-1]).astype(np.float64)
        counts = counts / widths / _reduce.sum(counts)
    return (counts.get(), edges.get()) if numpy_out else (counts, edges)


def _ptp(x):
    """max - min of non-empty `x` as NumPy's _ptp: exact for integers (Python ints), in x's dtype for floats."""
    if x.dtype.kind in "iu":
        return int(_reduce.max(x)) - int(_reduce.min(x))
    return x.dtype.type(float(_reduce.max(x))) - x.dtype.type(float(_reduce.min(x)))


def _scalar(v, dt):
    """A reduction's 0-d result as a NumPy scalar of `dt` (one value read: the number of bins is a shape)."""
    return dt.type(complex(v) if dt.kind == "c" else float(v))


def _std(x):
    dt = np.dtype(x.dtype if x.dtype.kind == "f" else np.float64)
    return _scalar(_reduce.std(x), dt)


def _width_sqrt(x):
    return _ptp(x) / np.sqrt(x.size)


def _width_sturges(x):
    return _ptp(x) / (np.log2(x.size) + 1.0)


def _width_rice(x):
    return _ptp(x) / (2.0 * x.size ** (1.0 / 3))


def _width_scott(x):
    return (24.0 * np.pi**0.5 / x.size)**(1.0 / 3.0) * _std(x)


def _width_doane(x):
    if x.size > 2:
        sg1 = np.sqrt(6.0 * (x.size - 2) / ((x.size + 1.0) * (x.size + 3)))
        sigma = _std(x)
        if sigma > 0.0:
            dt = np.dtype(x.dtype if x.dtype.kind == "f" else np.float64)
            temp = _elementwise.true_divide(_elementwise.subtract(x, _reduce.mean(x)), _reduce.std(x))
            g1 = _scalar(_reduce.mean(_elementwise.power(temp, 3)), dt)
            return _ptp(x) / (1.0 + np.log2(x.size) + np.log2(1.0 + np.absolute(g1) / sg1))
    return 0.0


def _width_fd(x):
    from npgpu._statistics import percentile  # _statistics imports modules that import this one

    q = percentile(x, [75, 25])
    iqr = _scalar(q[0], q.dtype) - _scalar(q[1], q.dtype)
    return 2.0 * iqr * x.size ** (-1.0 / 3.0)


def _width_auto(x):
    fd, sturges = _width_fd(x), _width_sturges(x)
    return min(fd, sturges) if fd else sturges


# NumPy's bin-width estimators, each from a few values read back (the extent, moments, quartiles): the
# number of bins is a shape. 'stone' (a search over many histograms) is not among them.
_WIDTHS = {"auto": _width_auto, "fd": _width_fd, "sqrt": _width_sqrt, "sturges": _width_sturges,
           "rice": _width_rice, "scott": _width_scott, "doane": _width_doane}
_UNSUPPORTED_ESTIMATORS = ("stone",)


def _bins_from_estimator(x, name, range_, weights):
    """The number of equal bins NumPy's estimator `name` gives for `x` within `range_`."""
    if name in _UNSUPPORTED_ESTIMATORS:
        raise NotImplementedError(f"the bin estimator {name!r} is not supported by npgpu (its supported "
                                  f"estimators: {', '.join(map(repr, _WIDTHS))}); give a number of bins or edges")
    if name not in _WIDTHS:
        raise ValueError(f"{name!r} is not a valid estimator for `bins`")
    if weights is not None:
        raise TypeError("Automated estimation of the number of bins is not supported for weighted data")
    first, last = _range(x, range_, np.dtype(x.dtype if x.dtype.kind == "f" else np.float64))
    span = last - first
    if range_ is None and x.dtype.kind in "iu" and x.size and first + 0.5 != last - 0.5:
        span = _ptp(x)  # NumPy's edges keep the integer type here: the span is exact, beyond 2**53 too
    if range_ is not None:
        keep = _indexing.flatnonzero((x >= first) & (x <= last))
        if keep.size != x.size:
            x = _indexing.take(x, keep)
    if x.size == 0:
        return 1
    width = _WIDTHS[name](x)
    if not width:
        return 1
    if x.dtype.kind in "iu" and width < 1:
        width = 1
    return int(np.ceil(span / width))


def histogram_bin_edges(a, bins=10, range=None, weights=None):  # noqa: A002  (NumPy's keyword)
    """The bin edges numpy.histogram uses, as numpy.histogram_bin_edges.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Real input values (flattened); booleans are taken as uint8 with a RuntimeWarning, as NumPy.
    bins : int, str or npgpu.Array or array_like, optional
        An int: the number of equal-width bins over `range` or the data's extent (default 10). A sequence:
        the bin edges, 1-D and monotonically increasing, returned as they are. A str: one of NumPy's bin
        width estimators 'auto', 'fd', 'sqrt', 'sturges', 'rice', 'scott' or 'doane', over the data within
        `range`.
    range : (float, float), optional
        The lower and upper edge of the uniform bins (ignored with explicit edges). Default: the data's
        minimum and maximum ((0, 1) for empty data), widened by 0.5 each way where they are equal.
    weights : npgpu.Array or array_like, optional
        Of a's shape; not used for the edges (an estimator refuses them, as NumPy).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        The edges: for an integer `bins` or an estimator, ``bins + 1`` of them in the data's float dtype
        (float64 for integers); explicit edges as given. An npgpu.Array on a's device for npgpu `a`, NumPy
        for NumPy input.

    Raises
    ------
    TypeError
        Complex `a`; `bins` neither an integer, a string nor an array; `weights` with an estimator.
    ValueError
        `weights` of another shape than `a`; an integer `bins` < 1; `range` with min > max or not finite;
        no `range` and data whose extent is not finite; explicit edges not 1-D or not increasing; an unknown
        estimator name.
    NotImplementedError
        The estimator 'stone' (a search over many histograms).

    See Also
    --------
    histogram

    Examples
    --------
    >>> npgpu.histogram_bin_edges(npgpu.asarray([1, 2, 1, 4], device="cpu"), bins=3)
    Array([1., 2., 3., 4.])
    >>> npgpu.histogram_bin_edges(npgpu.asarray([0.5, 1.5, 7.0], device="cpu"), bins=2, range=(0, 2))
    Array([0., 1., 2.])
    >>> npgpu.histogram_bin_edges(npgpu.asarray([0.0, 1.0, 2.0, 3.0, 4.0, 9.0], device="cpu"), bins="sqrt")
    Array([0., 3., 6., 9.])
    """
    x, numpy_out = _indexing._as_device_array(a)
    x = x.reshape(-1)
    if x.dtype.kind == "c":
        raise TypeError("histogram_bin_edges of complex data is not supported (NumPy compares only the real parts)")
    if weights is not None:
        wshape = weights.shape if isinstance(weights, _array.Array) else np.shape(weights)
        if tuple(wshape) != tuple(np.shape(a) if not isinstance(a, _array.Array) else a.shape):
            raise ValueError("weights should have the same shape as a.")
    if x.dtype.kind == "b":
        warnings.warn(f"Converting input from {x.dtype} to {np.dtype(np.uint8)} for compatibility.",
                      RuntimeWarning, stacklevel=2)
        x = x.astype(np.uint8)
    bt = np.dtype(x.dtype if x.dtype.kind == "f" else np.float64)
    if isinstance(bins, str):
        n = _bins_from_estimator(x, bins, range, weights)
    elif (bins.ndim if isinstance(bins, _array.Array) else np.ndim(bins)) == 0:
        try:
            n = operator.index(bins)
        except TypeError:
            raise TypeError("`bins` must be an integer, a string, or an array") from None
        if n < 1:
            raise ValueError("`bins` must be positive, when an integer")
    else:
        edges = bins if isinstance(bins, _array.Array) else _array.asarray(np.asarray(bins), device=x.device)
        if edges.ndim != 1:
            raise ValueError("`bins` must be 1d, when an array")
        if bool(_reduce.any(edges[1:] < edges[:-1])):
            raise ValueError("`bins` must increase monotonically, when an array")
        return _indexing._back(edges, numpy_out)
    first, last = _range(x, range, bt)
    edges = _creation.linspace(first, last, n + 1, dtype=bt, device=x.device)
    return _indexing._back(edges, numpy_out)


def _monotonicity(b):
    """NumPy's check of digitize's bins, in float64: 1 increasing (or all equal), -1 decreasing, 0 neither.
    The first pair that differs (NaN differs from everything) sets the direction; no later pair may go the
    other way. One integer is read: the answer chooses the formula, or raises."""
    if b.size < 2:
        return 1
    b = b.astype(np.float64)
    lo, hi = b[:-1], b[1:]
    differ, up, down = lo != hi, lo < hi, lo > hi
    increasing = _elementwise.logical_or(_elementwise.logical_not(_reduce.any(differ)),
                                         _indexing.take(up, _reduce.argmax(differ)))
    broken = _elementwise.where(increasing, _reduce.any(down), _reduce.any(up))
    return int(_elementwise.where(broken, 0, _elementwise.where(increasing, 1, -1)))


def digitize(x, bins, right=False):
    """The indices of the bins each value of `x` falls in, as numpy.digitize.

    For increasing `bins`, ``bins[i-1] <= x < bins[i]`` gives i (``bins[i-1] < x <= bins[i]`` with `right`);
    for decreasing `bins`, ``bins[i-1] > x >= bins[i]`` (``bins[i-1] >= x > bins[i]`` with `right`). Values
    below or above every edge give 0 or ``len(bins)``; NaNs sort above every number, as in NumPy. One
    searchsorted over `bins` (reversed when decreasing).

    Parameters
    ----------
    x : npgpu.Array or array_like
        Real values of any shape.
    bins : npgpu.Array or array_like
        1-D edges, monotonically increasing or decreasing (repeats allowed).
    right : bool, optional
        Whether a bin includes its right edge instead of its left one (default False).

    Returns
    -------
    npgpu.Array, numpy.ndarray or NumPy int64
        int64 indices of x's shape: an npgpu.Array when `x` or `bins` is one (on its device; the other is
        moved there); otherwise NumPy (a scalar for a scalar or 0-d `x`).

    Raises
    ------
    TypeError
        Complex `x`; `bins` of a dtype that does not cast safely to float64 (complex, as NumPy).
    ValueError
        `bins` not 1-D, or not monotonic.

    See Also
    --------
    searchsorted, histogram, bincount

    Examples
    --------
    >>> bins = npgpu.asarray([0.0, 1.0, 2.5, 4.0], device="cpu")
    >>> npgpu.digitize(npgpu.asarray([0.2, 6.4, 3.0, 1.6, -1.0, 1.0], device="cpu"), bins)
    Array([1, 4, 3, 2, 0, 2])
    >>> npgpu.digitize(npgpu.asarray([1.0, 2.5, 4.0], device="cpu"), bins, right=True)
    Array([1, 2, 3])
    >>> npgpu.digitize(np.array([1.2, 10.0]), [10, 5, 1])
    array([2, 0])
    """
    if isinstance(x, _array.Array):
        xs, numpy_out = x, False
    elif isinstance(bins, _array.Array):
        _array.refuse_subclass(x, "digitize")
        xs, numpy_out = _array.asarray(np.asarray(x), device=bins.device), False
    else:
        xs, numpy_out = _indexing._as_device_array(x)
    if xs.dtype.kind == "c":
        raise TypeError("x may not be complex")
    if not isinstance(bins, _array.Array):
        bins = np.asarray(bins)
    if bins.ndim != 1:
        raise ValueError("object of too small depth for desired array" if bins.ndim == 0 else
                         "object too deep for desired array")
    if not np.can_cast(bins.dtype, np.float64, casting="safe"):
        raise TypeError(f"Cannot cast array data from {bins.dtype!r} to dtype('float64') according to the rule "
                        "'safe'")
    if not isinstance(bins, _array.Array):
        bins = _array.asarray(bins, device=xs.device)
    mono = _monotonicity(bins)
    if mono == 0:
        raise ValueError("bins must be monotonically increasing or decreasing")
    side = "left" if right else "right"  # searchsorted's sides are the other way round
    if mono == 1:
        r = _indexing.searchsorted(bins, xs, side=side)
    else:
        r = bins.size - _indexing.searchsorted(bins[::-1], xs, side=side)
    if not numpy_out:
        return r
    r = _indexing._back(r, True)
    return r[()] if r.ndim == 0 else r


def _dd_sample(sample):
    """(N x D npgpu.Array, give NumPy back?) from histogramdd's `sample`: an (N, D) array, or a sequence of D
    coordinate arrays of length N (a 1-D array: one coordinate), as NumPy reads it."""
    if isinstance(sample, (_array.Array, np.ndarray)) and sample.ndim == 2:
        return _indexing._as_device_array(sample)
    if isinstance(sample, _array.Array):
        x, numpy_out = sample, False
    elif isinstance(sample, (list, tuple)) and any(isinstance(c, _array.Array) for c in sample):
        from npgpu import _manipulation

        cols = _manipulation._on_one_device(sample, "histogramdd")
        if any(c.shape != cols[0].shape for c in cols):
            raise ValueError("histogramdd: the coordinate arrays of `sample` have different shapes")
        x, numpy_out = _manipulation.stack(cols) if cols else _array.asarray(np.empty((0, 0))), False
    else:
        x, numpy_out = _indexing._as_device_array(sample)
    if x.ndim == 0:
        x = x.reshape(1, 1)
    elif x.ndim == 1:
        x = x.reshape(1, -1)
    if x.ndim != 2:
        raise ValueError(f"histogramdd: `sample` must be 2-D (N, D) or a sequence of D 1-D arrays, not of {x.ndim} "
                         f"dimensions")
    return x.T, numpy_out


def _dd_edges(col, b, rng, i, device):
    """The edges of dimension i (an npgpu.Array on `device`) from its bins `b` and range `rng`, as NumPy's."""
    bnd = b.ndim if isinstance(b, _array.Array) else np.ndim(b)
    if bnd == 0:
        if isinstance(b, (int, float, np.number)) and not isinstance(b, (complex, np.complexfloating)) and b < 1:
            raise ValueError(f"`bins[{i}]` must be positive, when an integer")
        try:
            n = operator.index(b)
        except TypeError:
            raise TypeError(f"`bins[{i}]` must be an integer, when a scalar") from None
        if n < 1:
            raise ValueError(f"`bins[{i}]` must be positive, when an integer")
        bt = np.dtype(col.dtype if col.dtype.kind == "f" else np.float64)
        if rng is not None:
            lo, hi = rng  # NumPy's linspace between the values as given
            bt = np.result_type(lo, hi, 1.0)
        first, last = _range(col, rng, bt)
        return _creation.linspace(first, last, n + 1, dtype=bt, device=device)
    if bnd == 1:
        e = b if isinstance(b, _array.Array) else _array.asarray(np.asarray(b), device=device)
        if e.dtype.kind == "c":
            raise TypeError(f"`bins[{i}]` must be real")
        if e.size and bool(_reduce.any(e[:-1] > e[1:])):
            raise ValueError(f"`bins[{i}]` must be monotonically increasing, when an array")
        if e.size == 0:
            raise ValueError(f"`bins[{i}]` must hold at least one edge")
        return e
    raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")


def histogramdd(sample, bins=10, range=None, density=None, weights=None):  # noqa: A002  (NumPy's keyword)
    """The multidimensional histogram of some data, as numpy.histogramdd.

    Each dimension's bins are half-open but the last, which includes its right edge; points outside the bins
    of any dimension (and points with a NaN) are not counted.

    Parameters
    ----------
    sample : npgpu.Array or array_like
        The N points in D dimensions: an (N, D) array, or a sequence of D arrays of length N (each the values
        of one coordinate; a 1-D array is one coordinate).
    bins : int, sequence of ints or sequence of arrays, optional
        An int: the number of equal-width bins of every dimension (default 10); one int per dimension; or one
        1-D array of monotonically increasing edges per dimension (ints and edges may be mixed).
    range : sequence of (float, float) or None, optional
        Per dimension, the lower and upper edge of its uniform bins (None: the data's extent, widened by 0.5
        each way where it is a single value; (0, 1) with no data). Ignored for explicit edges.
    density : bool, optional
        Divide the counts by their total and by the bins' volumes, default False.
    weights : npgpu.Array or array_like, optional
        N weights: each point adds its weight to its bin instead of 1.

    Returns
    -------
    H : npgpu.Array or numpy.ndarray
        float64, of shape (nx, ny, ...): the count (or summed weights) of each bin.
    edges : list of npgpu.Array or numpy.ndarray
        The D arrays of bin edges: for an integer, ``n + 1`` edges of the data's float dtype (float64 for
        integers, or for a given range); explicit edges as given. npgpu.Arrays on the sample's device where
        `sample` is (or holds) an npgpu.Array, NumPy arrays otherwise.

    Raises
    ------
    TypeError
        Complex data; a scalar `bins` entry that is not an integer; weights that are not real.
    ValueError
        `bins` or `range` with another number of entries than D; an integer bin count < 1; edges not
        increasing, not 1-D or empty; a range with min > max or not finite; no range and data whose extent is
        not finite; `weights` not of length N; a sample of more than two dimensions.

    See Also
    --------
    histogram, histogram2d, digitize, bincount

    Notes
    -----
    Per dimension one searchsorted of the points in the edges (with NumPy's correction that puts a point on
    the last edge in the last bin), then the bins' flat index and one bincount over it.

    Examples
    --------
    >>> pts = npgpu.asarray([[0.0, 0.0], [0.5, 1.0], [1.0, 1.0], [0.2, 0.9]], device="cpu")
    >>> h, edges = npgpu.histogramdd(pts, bins=2)
    >>> h
    Array([[1., 1.],
           [0., 2.]])
    >>> edges[0]
    Array([0. , 0.5, 1. ])
    >>> h, edges = npgpu.histogramdd(pts, bins=[[0, 0.5, 2], 1], weights=npgpu.asarray([1.0, 2.0, 3.0, 4.0],
    ...                              device="cpu"), density=True)
    >>> h
    Array([[1.        ],
           [0.33333333]])
    """
    x, numpy_out = _dd_sample(sample)
    n_pts, d = x.shape
    if x.dtype.kind == "c":
        raise TypeError("histogramdd of complex data is not supported (NumPy compares only the real parts)")
    if isinstance(bins, str):
        raise TypeError("histogramdd: `bins` must be an integer, a sequence of integers or of edge arrays")
    try:
        m = len(bins)
    except TypeError:
        bins = d * [bins]
    else:
        if m != d:
            raise ValueError("The dimension of bins must be equal to the dimension of the sample x.")
    if range is None:
        range = (None,) * d  # noqa: A001
    elif len(range) != d:
        raise ValueError("range argument must have one entry per dimension")
    w = None
    if weights is not None:
        w = weights if isinstance(weights, _array.Array) else _array.asarray(np.asarray(weights), device=x.device)
        if w.shape != (n_pts,):
            raise ValueError(f"histogramdd: weights of shape {w.shape}, the sample has {n_pts} points")
    edges, nbin = [], []
    flat = _array.zeros((n_pts,), dtype=np.int64, device=x.device)
    for i in _brange(d):
        col = x[:, i]
        e = _dd_edges(col, bins[i], range[i], i, x.device)
        edges.append(e)
        nbin.append(e.size + 1)  # an outlier bin at either end
    for i in _brange(d):
        col, e = x[:, i], edges[i]
        dt = np.result_type(col.dtype, e.dtype)
        cs, es = col.astype(dt), e.astype(dt, copy=False)  # the column as a contiguous copy
        k = _indexing.searchsorted(es, cs, side="right")
        k = _elementwise.where(cs == es[-1], k - 1, k)  # the last edge belongs to the last bin
        flat = flat * nbin[i] + k
    total = math.prod(nbin)
    if w is None:
        hist = _set_functions.bincount(flat, minlength=total)
    else:
        hist = _set_functions.bincount(flat, weights=w, minlength=total)
    hist = hist.reshape(tuple(nbin)).astype(np.float64)
    hist = hist[(slice(1, -1),) * d]
    if density:
        s = _reduce.sum(hist)
        for i in _brange(d):
            shape = [1] * d
            shape[i] = nbin[i] - 2
            widths = (edges[i][1:] - edges[i][:-1]).astype(np.float64)
            hist = hist / widths.reshape(tuple(shape))
        hist = hist / s
    if numpy_out:
        return hist.get(), [e.get() for e in edges]
    return hist, edges


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):  # noqa: A002  (NumPy's keyword)
    """The two-dimensional histogram of two coordinate arrays, as numpy.histogram2d.

    Parameters
    ----------
    x, y : npgpu.Array or array_like
        The points' coordinates, 1-D, of one length N.
    bins : int, [int, int], array, [array, array] or [int, array], optional
        An int: the number of equal-width bins of each dimension (default 10); two ints: one per dimension; one
        array of edges: the edges of both dimensions; two arrays (or an int and an array): per dimension.
    range : [[xmin, xmax], [ymin, ymax]], optional
        The lower and upper edge of each dimension's uniform bins (default: the data's extent).
    density : bool, optional
        Divide the counts by their total and by the bins' areas, default False.
    weights : npgpu.Array or array_like, optional
        N weights: each point adds its weight to its bin instead of 1.

    Returns
    -------
    H : npgpu.Array or numpy.ndarray
        float64, (nx, ny): x along the first axis, y along the second.
    xedges, yedges : npgpu.Array or numpy.ndarray
        The bin edges of each dimension. npgpu.Arrays on the inputs' device where `x` or `y` is an
        npgpu.Array, NumPy arrays otherwise.

    Raises
    ------
    TypeError
        Complex data; a scalar bin count that is not an integer.
    ValueError
        `x` and `y` of different lengths; the errors of histogramdd.

    See Also
    --------
    histogramdd, histogram

    Examples
    --------
    >>> x = npgpu.asarray([0.0, 0.5, 1.0, 0.2], device="cpu")
    >>> y = npgpu.asarray([0.0, 1.0, 1.0, 0.9], device="cpu")
    >>> h, xedges, yedges = npgpu.histogram2d(x, y, bins=2)
    >>> h
    Array([[1., 1.],
           [0., 2.]])
    >>> npgpu.histogram2d(np.array([1, 2, 2]), np.array([3, 3, 4]), bins=[2, [3, 3.5, 4]])[0]
    array([[1., 0.],
           [1., 1.]])
    """
    if len(x) != len(y):
        raise ValueError("x and y must have the same length.")
    try:
        n = len(bins)
    except TypeError:
        n = 1
    if n not in (1, 2):
        e = bins if isinstance(bins, _array.Array) else np.asarray(bins)
        bins = [e, e]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]
