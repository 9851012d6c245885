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
    """(counts, bin edges) of the flattened `a`, as numpy.histogram: ``bins`` an int (equal-width bins over
    ``range`` or the data's extent, edges in the data's float dtype, float64 for integers) or a monotonically
    increasing sequence of edges; every bin is half-open but the last, which includes its right edge; values
    outside (and NaNs) are not counted. ``weights`` sums them instead of counting (summed in float64 and cast to
    the weights' dtype, complex by parts, as NumPy; bool weights with explicit edges raise TypeError as NumPy's);
    ``density`` divides by the total and the bin widths."""
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
