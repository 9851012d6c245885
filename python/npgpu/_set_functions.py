"""Set functions of NumPy and the Array API standard: unique (with indices, inverse and counts),
unique_all/unique_counts/unique_inverse/unique_values, isin, intersect1d, union1d, setdiff1d, bincount.

Each is composed from npgpu's sort (stable), searchsorted, mask compaction, gathers and scatters, so it
runs where they run: a GPU sorts with CUB, the host device with NumPy's sort. npgpu.Array in, npgpu.Array
out on the same device; NumPy in, NumPy out (computed on the GPU when the backend is 'cuda'). Sizes of the
results depend on the data, so these calls wait for the device.
"""
import math
from collections import namedtuple

import numpy as np

from npgpu import _array, _creation, _elementwise, _indexing, _manipulation, _reduce, _sorting

__all__ = ["unique", "unique_all", "unique_counts", "unique_inverse", "unique_values", "isin", "intersect1d",
           "union1d", "setdiff1d", "bincount"]

UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])

_INT64 = np.dtype(np.int64)


def _device_input(a):
    """(npgpu.Array, give NumPy back?) for any input."""
    return _indexing._as_device_array(a)


def _back(x, numpy_out):
    return x.get() if numpy_out else x


def _unique_parts(x, equal_nan, want_index, want_inverse, want_counts):
    """The sorted distinct values of the flattened npgpu.Array x, and as asked the position of each one's
    first occurrence, the inverse (x's shape) and the counts."""
    flat = x.reshape(-1)
    n = flat.size
    if want_index or want_inverse:
        order = _sorting.argsort(flat)  # stable: the first of equal elements comes first
        s = _indexing.take(flat, order)
    else:  # values and counts need no positions: a sort of the keys alone
        order, s = None, _sorting.sort(flat)
    if n == 0:
        empty = _array.empty((0,), dtype=_INT64, device=x.device)
        return s, empty, _array.empty(x.shape, dtype=_INT64, device=x.device), empty
    starts = _sorting.run_starts(s, equal_nan)
    values = _indexing.take(s, starts)
    index = _indexing.take(order, starts) if want_index else None
    counts = None
    if want_counts:
        ends = _manipulation.concatenate([starts[1:], _array.full((1,), n, dtype=_INT64, device=x.device)])
        counts = ends - starts
    inverse = None
    if want_inverse:
        flags = _array.zeros((n,), dtype=_INT64, device=x.device)
        flags[starts] = 1
        run = _reduce.cumsum(flags) - 1  # the run of each sorted element
        inverse = _array.empty((n,), dtype=_INT64, device=x.device)
        inverse[order] = run
        inverse = inverse.reshape(x.shape)
    return values, index, inverse, counts


def _unique_slices(x, axis):
    """unique(..., axis=axis): the distinct slices of x along `axis` in lexicographic order (one lexsort of
    the slices' elements, first element primary), with the first position of each, the inverse and the
    counts. Slices holding NaNs are distinct, as NumPy's."""
    ax = _manipulation._axis(axis, x.ndim)
    moved = _manipulation.moveaxis(x, ax, 0)
    n, m = moved.shape[0], math.prod(moved.shape[1:])
    rows = moved.reshape(n, m)
    if n == 0 or m == 0:  # no slices, or empty ones (all equal: one distinct slice)
        k = min(n, 1)
        order = _creation.arange(k, dtype=_INT64, device=x.device)
        picked = rows[:k]
        inverse = _array.zeros((n,), dtype=_INT64, device=x.device)
        counts = _array.full((k,), n, dtype=_INT64, device=x.device)
        return (_manipulation.moveaxis(picked.reshape((k,) + moved.shape[1:]), 0, ax), order, inverse,
                counts)
    order = _sorting.lexsort([rows[:, j] for j in range(m - 1, -1, -1)])
    srt = _indexing.take(rows, order, axis=0)
    differs = _reduce.any(srt[1:] != srt[:-1], axis=1)
    flags = _manipulation.concatenate([_creation.ones((1,), dtype=bool, device=x.device), differs])
    starts = _indexing.flatnonzero(flags)
    values = _indexing.take(srt, starts, axis=0).reshape((starts.size,) + moved.shape[1:])
    ends = _manipulation.concatenate([starts[1:], _array.full((1,), n, dtype=_INT64, device=x.device)])
    inverse = _array.empty((n,), dtype=_INT64, device=x.device)
    inverse[order] = _reduce.cumsum(flags.astype(_INT64)) - 1
    return _manipulation.moveaxis(values, 0, ax), _indexing.take(order, starts), inverse, ends - starts


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *, equal_nan=True,
           sorted=True):  # noqa: A002  (NumPy's keyword)
    """The sorted distinct elements of `ar` (flattened), as numpy.unique, with the positions of their first
    occurrences (``return_index``), the positions that rebuild `ar` from them (``return_inverse``, in ar's
    shape as NumPy 2) and their counts (``return_counts``); NaNs are one value with ``equal_nan`` (the default).
    With ``axis``, the distinct slices along that axis in lexicographic order (the inverse then indexes that
    axis)."""
    x, numpy_out = _device_input(ar)
    if axis is None:
        values, index, inverse, counts = _unique_parts(x, equal_nan, return_index, return_inverse, return_counts)
    else:
        values, index, inverse, counts = _unique_slices(x, axis)
    out = [_back(values, numpy_out)]
    for want, part in ((return_index, index), (return_inverse, inverse), (return_counts, counts)):
        if want:
            out.append(_back(part, numpy_out))
    return out[0] if len(out) == 1 else tuple(out)


def unique_all(x, /):
    """The Array API standard's unique_all: values, first indices, inverse (x's shape), counts; every NaN is
    its own value, as the standard says."""
    d, numpy_out = _device_input(x)
    parts = _unique_parts(d, False, True, True, True)
    return UniqueAllResult(*[_back(p, numpy_out) for p in parts])


def unique_counts(x, /):
    """The Array API standard's unique_counts (NaNs distinct)."""
    d, numpy_out = _device_input(x)
    values, _, _, counts = _unique_parts(d, False, False, False, True)
    return UniqueCountsResult(_back(values, numpy_out), _back(counts, numpy_out))


def unique_inverse(x, /):
    """The Array API standard's unique_inverse (NaNs distinct; the inverse has x's shape)."""
    d, numpy_out = _device_input(x)
    values, _, inverse, _ = _unique_parts(d, False, False, True, False)
    return UniqueInverseResult(_back(values, numpy_out), _back(inverse, numpy_out))


def unique_values(x, /):
    """The Array API standard's unique_values (NaNs distinct)."""
    d, numpy_out = _device_input(x)
    return _back(_unique_parts(d, False, False, False, False)[0], numpy_out)


def _isin(x, test, invert):
    """Elementwise membership of the npgpu.Array x in the npgpu.Array test (NaNs never members)."""
    t = _sorting.sort(test.reshape(-1))
    if t.size == 0:
        res = _array.full(x.shape, bool(invert), dtype=bool, device=x.device)
        return res
    dt = np.result_type(x.dtype, t.dtype)
    xs, ts = x.astype(dt, copy=False), t.astype(dt, copy=False)
    pos = _indexing.searchsorted(ts, xs)
    pos = _elementwise.minimum(pos, t.size - 1)
    found = _indexing.take(ts, pos) == xs
    return ~found if invert else found


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """Whether each element of `element` is in `test_elements` (element's shape), as numpy.isin; ``invert``
    gives the complement. One sort of test_elements and one binary search per element."""
    x, numpy_out = _device_input(element)
    t = test_elements if isinstance(test_elements, _array.Array) else _array.asarray(np.asarray(test_elements),
                                                                                     device=x.device)
    return _back(_isin(x, t, invert), numpy_out)


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """The sorted distinct values in both arrays, in their promoted dtype, as numpy.intersect1d (with
    ``return_indices``, the positions of their first occurrences in each flattened input)."""
    a, numpy_out = _device_input(ar1)
    b = ar2 if isinstance(ar2, _array.Array) else _array.asarray(np.asarray(ar2), device=a.device)
    ua, ia, _, _ = _unique_parts(a, True, return_indices, False, False)
    ub, ib, _, _ = _unique_parts(b, True, return_indices, False, False)
    mask = _isin(ua, ub, False)
    keep = _indexing.flatnonzero(mask)
    common = _indexing.take(ua, keep)
    dt = np.result_type(a.dtype, b.dtype)  # NumPy's: it sorts the two concatenated
    if common.dtype != dt:
        common = common.astype(dt)
    if not return_indices:
        return _back(common, numpy_out)
    i1 = _indexing.take(ia, keep)
    i2 = _indexing.take(ib, _indexing.searchsorted(ub, common))
    return _back(common, numpy_out), _back(i1, numpy_out), _back(i2, numpy_out)


def union1d(ar1, ar2):
    """The sorted distinct values in either array, as numpy.union1d."""
    a, numpy_out = _device_input(ar1)
    b = ar2 if isinstance(ar2, _array.Array) else _array.asarray(np.asarray(ar2), device=a.device)
    return _back(_unique_parts(_manipulation.concatenate([a.reshape(-1), b.reshape(-1)]), True, False, False,
                               False)[0], numpy_out)


def setdiff1d(ar1, ar2, assume_unique=False):
    """The sorted distinct values of ar1 that are not in ar2, as numpy.setdiff1d (with ``assume_unique``,
    ar1's values in their order)."""
    a, numpy_out = _device_input(ar1)
    b = ar2 if isinstance(ar2, _array.Array) else _array.asarray(np.asarray(ar2), device=a.device)
    ua = a.reshape(-1) if assume_unique else _unique_parts(a, True, False, False, False)[0]
    keep = _indexing.flatnonzero(_isin(ua, b, True))
    return _back(_indexing.take(ua, keep), numpy_out)


def bincount(x, weights=None, minlength=0):
    """Occurrences of each value 0 .. max(x) in the 1-D non-negative integer array x (at least `minlength`
    bins), as numpy.bincount; with ``weights`` (real: complex raises TypeError), their sums (float64); an
    empty x gives int64 zeros, weights or not, as NumPy does. One scatter-add (add.at): on a GPU the weights of
    a bin are summed in an unspecified order, so the last bits may differ from NumPy's."""
    d, numpy_out = _device_input(x)
    if d.ndim != 1:
        raise ValueError("object too deep for desired array" if d.ndim > 1 else "object of too small depth for "
                         "desired array")
    if d.dtype.kind not in "iub":
        raise TypeError(f"Cannot cast array data from {d.dtype!r} to dtype('int64') according to the rule 'safe'")
    minlength = int(minlength)
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    if d.dtype.kind == "b":
        d = d.astype(_INT64)
    if d.size == 0:
        # NumPy's early return: int64 zeros for empty input, with or without weights (which it does not read)
        return _back(_array.zeros((minlength,), dtype=_INT64, device=d.device), numpy_out)
    if int(_reduce.min(d)) < 0:
        raise ValueError("'list' argument must have no negative elements")
    nbins = max(int(_reduce.max(d)) + 1, minlength)
    if weights is None:
        out = _array.zeros((nbins,), dtype=_INT64, device=d.device)
        _indexing.add_at(out, d, 1)
        return _back(out, numpy_out)
    w = weights if isinstance(weights, _array.Array) else _array.asarray(np.asarray(weights), device=d.device)
    if not np.can_cast(w.dtype, np.float64, "safe"):
        raise TypeError(f"Cannot cast array data from {w.dtype!r} to dtype('float64') according to the rule 'safe'")
    if w.shape != d.shape:
        raise ValueError("The weights and list don't have the same length.")
    out = _array.zeros((nbins,), dtype=np.float64, device=d.device)
    _indexing.add_at(out, d, w.astype(np.float64))
    return _back(out, numpy_out)
