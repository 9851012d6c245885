"""histogram: counts in bins, as numpy.histogram. Uniform bins (an integer ``bins``) compute each element's bin
by arithmetic, with NumPy's corrections at the edges, then count with bincount; explicit edges go through
searchsorted. Composed of npgpu's elementwise operations, gathers and bincount, so it runs on either device;
npgpu.Array in, npgpu.Arrays out; NumPy in, NumPy out."""
import operator

import numpy as np

from npgpu import _array, _creation, _elementwise, _indexing, _reduce, _set_functions

__all__ = ["histogram"]


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
