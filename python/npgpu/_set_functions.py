"""Set functions of NumPy and the Array API standard: unique (with indices, inverse and counts),
unique_all/unique_counts/unique_inverse/unique_values, isin, intersect1d, union1d, setdiff1d, setxor1d,
bincount.

Each is composed from npgpu's sort (stable), searchsorted, mask compaction, gathers and scatters, so it
runs where they run: a GPU sorts with CUB, the host device with NumPy's sort. unique of integer or bool
values that span no more values than there are elements, and bincount, count instead (_sorting.count_keys).
npgpu.Array in, npgpu.Array out on the same device; NumPy in, NumPy out (computed on the GPU when the
backend is 'cuda'). Sizes of the results depend on the data, so these calls wait for the device.
"""
import math
from collections import namedtuple

import numpy as np

from npgpu import _array, _creation, _elementwise, _indexing, _manipulation, _reduce, _sorting

__all__ = ["unique", "unique_all", "unique_counts", "unique_inverse", "unique_values", "isin", "intersect1d",
           "union1d", "setdiff1d", "setxor1d", "bincount"]

UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])
UniqueAllResult.__doc__ = """The result of unique_all: a named tuple.

Attributes
----------
values : npgpu.Array or numpy.ndarray
    The sorted distinct values.
indices : npgpu.Array or numpy.ndarray
    int64: the position of each value's first occurrence in the flattened input.
inverse_indices : npgpu.Array or numpy.ndarray
    int64, of the input's shape: the positions in `values` that rebuild the input.
counts : npgpu.Array or numpy.ndarray
    int64: how many times each value occurs.
"""
UniqueCountsResult.__doc__ = """The result of unique_counts: a named tuple.

Attributes
----------
values : npgpu.Array or numpy.ndarray
    The sorted distinct values.
counts : npgpu.Array or numpy.ndarray
    int64: how many times each value occurs.
"""
UniqueInverseResult.__doc__ = """The result of unique_inverse: a named tuple.

Attributes
----------
values : npgpu.Array or numpy.ndarray
    The sorted distinct values.
inverse_indices : npgpu.Array or numpy.ndarray
    int64, of the input's shape: the positions in `values` that rebuild the input.
"""

_INT64 = np.dtype(np.int64)


def _device_input(a):
    """(npgpu.Array, give NumPy back?) for any input."""
    return _indexing._as_device_array(a)


def _back(x, numpy_out):
    return x.get() if numpy_out else x


def _unique_by_counting(flat, shape, want_index, want_inverse, want_counts):
    """_unique_parts for integer or bool keys spanning at most as many values as there are keys, counted
    instead of sorted: one pass for the range, one to count, one more for the inverse (a table of ranks).
    None when the keys span more values (the sort is then the cheaper route)."""
    span = _sorting.key_range(flat)
    lo, hi = (int(v) for v in span.get())
    bins = hi - lo + 1
    if bins > flat.size:
        return None
    counts, first = _sorting.count_keys(flat, span, bins, want_first=want_index)
    present = _indexing.flatnonzero(counts)
    # lo + bin in the keys' own type: exact, as the sum lies in [lo, hi] and the type's arithmetic wraps
    values = present.astype(flat.dtype) + span[:1]
    index = _indexing.take(first, present) if want_index else None
    inverse = None
    if want_inverse:
        rank = _reduce.cumsum(counts > 0) - 1  # the position of each bin's value among the distinct values
        inverse = _sorting.lookup_keys(flat, span, rank).reshape(shape)
    return values, index, inverse, _indexing.take(counts, present) if want_counts else None


def _unique_parts(x, equal_nan, want_index, want_inverse, want_counts):
    """The sorted distinct values of the flattened npgpu.Array x, and as asked the position of each one's
    first occurrence, the inverse (x's shape) and the counts."""
    flat = x.reshape(-1)
    n = flat.size
    if n and flat.dtype.kind in "biu":
        counted = _unique_by_counting(flat, x.shape, want_index, want_inverse, want_counts)
        if counted is not None:
            return counted
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
    """The sorted distinct elements of an array, as numpy.unique.

    Optionally with the positions of their first occurrences, the positions that rebuild `ar` from them and
    their counts: only the distinct values when no flag is set, else a tuple. With `axis`, the distinct slices
    along that axis instead, in lexicographic order.

    Parameters
    ----------
    ar : npgpu.Array or array_like
        Input values, flattened unless `axis` is given.
    return_index : bool, optional
        Also return the position of each distinct value's first occurrence in the flattened `ar` (along `axis`
        with `axis`). Default False.
    return_inverse : bool, optional
        Also return the positions in the distinct values that rebuild `ar`: in ar's shape, as NumPy 2 (with
        `axis`, 1-D, indexing that axis). Default False.
    return_counts : bool, optional
        Also return how many times each distinct value occurs. Default False.
    axis : int, optional
        The axis whose slices are compared; None (default) compares the elements of the flattened `ar`.
    equal_nan : bool, optional
        True (default): all NaNs are one value; False: each NaN is distinct. Without `axis` only: with
        `axis`, slices holding NaNs are distinct, as NumPy's.
    sorted : bool, optional
        Accepted and ignored: the values always come sorted.

    Returns
    -------
    unique : npgpu.Array or numpy.ndarray
        The sorted distinct values (with `axis`, ar's shape with that axis shortened). Each result is an
        npgpu.Array on the input's device for npgpu input, a NumPy array for NumPy input.
    unique_indices : npgpu.Array or numpy.ndarray, optional
        With `return_index`: int64 positions of the first occurrences.
    unique_inverse : npgpu.Array or numpy.ndarray, optional
        With `return_inverse`: int64, ``unique[unique_inverse]`` rebuilds `ar`.
    unique_counts : npgpu.Array or numpy.ndarray, optional
        With `return_counts`: int64 counts.

    Raises
    ------
    numpy.exceptions.AxisError
        `axis` out of range.

    See Also
    --------
    unique_all, unique_counts, unique_inverse, unique_values

    Notes
    -----
    Composed of npgpu's stable sort (a lexsort of the slices' elements with `axis`, the first element primary),
    gathers and scatters. Integer or bool values that span no more values than there are elements (without
    `axis`) are counted instead: one pass for their range, one to count, one more for the inverse. The size
    of the result depends on the data, so the call waits for the device.

    Examples
    --------
    >>> a = npgpu.asarray([3, 1, 2, 3, 1], device="cpu")
    >>> npgpu.unique(a)
    Array([1, 2, 3])
    >>> npgpu.unique(a, return_index=True, return_inverse=True, return_counts=True)
    (Array([1, 2, 3]), Array([1, 2, 0]), Array([2, 0, 1, 2, 0]), Array([2, 1, 2]))
    >>> npgpu.unique(np.array([[1, 0], [1, 0], [2, 3]]), axis=0)
    array([[1, 0],
           [2, 3]])
    """
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
    """The distinct elements of an array with their first indices, inverse and counts (Array API standard).

    As unique(x, return_index=True, return_inverse=True, return_counts=True, equal_nan=False): every NaN is its
    own value, as the standard says.

    Parameters
    ----------
    x : npgpu.Array or array_like
        Input values (flattened).

    Returns
    -------
    UniqueAllResult
        A named tuple (values, indices, inverse_indices, counts): the sorted distinct values, the int64 position of each
        one's first occurrence in the flattened `x`, the int64 positions in `values` that rebuild `x` (in x's shape),
        and the int64 counts. An npgpu.Array on the input's device for npgpu input, a NumPy array for NumPy input.

    See Also
    --------
    unique

    Examples
    --------
    >>> npgpu.unique_all(npgpu.asarray([3, 1, 2, 3, 1], device="cpu"))
    UniqueAllResult(values=Array([1, 2, 3]), indices=Array([1, 2, 0]), inverse_indices=Array([2, 0, 1, 2, 0]),
                    counts=Array([2, 1, 2]))
    """
    d, numpy_out = _device_input(x)
    parts = _unique_parts(d, False, True, True, True)
    return UniqueAllResult(*[_back(p, numpy_out) for p in parts])


def unique_counts(x, /):
    """The distinct elements of an array and their counts (Array API standard).

    As unique(x, return_counts=True, equal_nan=False): every NaN is its own value.

    Parameters
    ----------
    x : npgpu.Array or array_like
        Input values (flattened).

    Returns
    -------
    UniqueCountsResult
        A named tuple (values, counts): the sorted distinct values and their int64 counts. An npgpu.Array on the input's
        device for npgpu input, a NumPy array for NumPy input.

    See Also
    --------
    unique

    Examples
    --------
    >>> npgpu.unique_counts(npgpu.asarray([3, 1, 2, 3, 1], device="cpu"))
    UniqueCountsResult(values=Array([1, 2, 3]), counts=Array([2, 1, 2]))
    """
    d, numpy_out = _device_input(x)
    values, _, _, counts = _unique_parts(d, False, False, False, True)
    return UniqueCountsResult(_back(values, numpy_out), _back(counts, numpy_out))


def unique_inverse(x, /):
    """The distinct elements of an array and the positions that rebuild it (Array API standard).

    As unique(x, return_inverse=True, equal_nan=False): every NaN is its own value.

    Parameters
    ----------
    x : npgpu.Array or array_like
        Input values (flattened).

    Returns
    -------
    UniqueInverseResult
        A named tuple (values, inverse_indices): the sorted distinct values and the int64 positions in them that rebuild
        `x`, in x's shape. An npgpu.Array on the input's device for npgpu input, a NumPy array for NumPy input.

    See Also
    --------
    unique

    Examples
    --------
    >>> npgpu.unique_inverse(np.array([[3, 1], [1, 2]]))
    UniqueInverseResult(values=array([1, 2, 3]), inverse_indices=array([[2, 0],
           [0, 1]]))
    """
    d, numpy_out = _device_input(x)
    values, _, inverse, _ = _unique_parts(d, False, False, True, False)
    return UniqueInverseResult(_back(values, numpy_out), _back(inverse, numpy_out))


def unique_values(x, /):
    """The sorted distinct elements of an array (Array API standard).

    As unique(x, equal_nan=False): every NaN is its own value.

    Parameters
    ----------
    x : npgpu.Array or array_like
        Input values (flattened).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        1-D, sorted. An npgpu.Array on the input's device for npgpu input, a NumPy array for NumPy input.

    See Also
    --------
    unique

    Examples
    --------
    >>> npgpu.unique_values(npgpu.asarray([3, 1, 2, 3, 1], device="cpu"))
    Array([1, 2, 3])
    >>> npgpu.unique_values(np.array([1.0, np.nan, np.nan]))
    array([ 1., nan, nan])
    """
    d, numpy_out = _device_input(x)
    return _back(_unique_parts(d, False, False, False, False)[0], numpy_out)


def _isin_by_counting(x, t, invert, kind):
    """_isin through a table of the test values' presence (NumPy's kind='table'): one counting pass over t and
    one lookup pass over x. None where the promoted dtype is not integer or bool, or (kind None) where t's
    values span more than 6 x (x.size + t.size) values, NumPy's bound."""
    dt = np.result_type(x.dtype, t.dtype)
    if dt.kind not in "biu":
        return None
    tf, xs = t.reshape(-1).astype(dt, copy=False), x.astype(dt, copy=False)
    span = _sorting.key_range(tf)
    lo, hi = (int(v) for v in span.get())
    bins = hi - lo + 1
    if kind is None and bins > 6 * (x.size + t.size):
        return None
    counts, _ = _sorting.count_keys(tf, span, bins)
    hits = _sorting.lookup_keys(xs, span, (counts > 0).astype(_INT64))  # 1 member, 0 not, -1 out of range
    return hits <= 0 if invert else hits > 0


def _isin(x, test, invert, kind=None):
    """Elementwise membership of the npgpu.Array x in the npgpu.Array test (NaNs never members)."""
    if test.size == 0:
        return _array.full(x.shape, bool(invert), dtype=bool, device=x.device)
    if kind in (None, "table"):
        counted = _isin_by_counting(x, test, invert, kind)
        if counted is not None:
            return counted
    t = _sorting.sort(test.reshape(-1))
    dt = np.result_type(x.dtype, t.dtype)
    xs, ts = x.astype(dt, copy=False), t.astype(dt, copy=False)
    pos = _indexing.searchsorted(ts, xs)
    pos = _elementwise.minimum(pos, t.size - 1)
    found = _indexing.take(ts, pos) == xs
    return ~found if invert else found


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """Whether each element of an array is in a second one, as numpy.isin.

    In the two arrays' promoted dtype, by one of NumPy's two methods: a sort of `test_elements` and one binary
    search per element, or for integers and bools a table of which values occur in `test_elements`, indexed by
    each element (counted on the device). NaNs are never members.

    Parameters
    ----------
    element : npgpu.Array or array_like
        The values looked up.
    test_elements : npgpu.Array or array_like
        The values looked in (flattened); other than an npgpu.Array, converted onto element's device.
    assume_unique : bool, optional
        Accepted and ignored.
    invert : bool, optional
        Give the complement: whether each element is not in `test_elements` (default False).
    kind : {None, 'sort', 'table'}, optional
        The method, as NumPy's: 'table' for integer or bool arrays (memory in proportion to the range of
        `test_elements`); 'sort'; None (default) takes the table where that range is at most 6 times the two
        sizes together, as NumPy does. Both give the same result.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        bool, of element's shape. An npgpu.Array on element's device for npgpu `element`, a NumPy array for
        NumPy input.

    Raises
    ------
    ValueError
        `kind` not one of None, 'sort', 'table'; 'table' for arrays not of integer or bool dtypes.

    Examples
    --------
    >>> a = npgpu.asarray([3, 1, 2, 3, 1], device="cpu")
    >>> npgpu.isin(a, [1, 3])
    Array([ True,  True, False,  True,  True])
    >>> npgpu.isin(np.array([[1, 5], [3, 0]]), [1, 3], invert=True)
    array([[False,  True],
           [False,  True]])
    """
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: '{kind}'. Please use None, 'sort' or 'table'.")
    x, numpy_out = _device_input(element)
    t = test_elements if isinstance(test_elements, _array.Array) else _array.asarray(np.asarray(test_elements),
                                                                                     device=x.device)
    if kind == "table" and not (x.dtype.kind in "biu" and t.dtype.kind in "biu"):
        raise ValueError("The 'table' method is only supported for boolean or integer arrays. Please select "
                         "'sort' or None for kind.")
    return _back(_isin(x, t, invert, kind), numpy_out)


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """The sorted distinct values found in both of two arrays, as numpy.intersect1d.

    Parameters
    ----------
    ar1, ar2 : npgpu.Array or array_like
        Input values (flattened); `ar2`, other than an npgpu.Array, is converted onto ar1's device.
    assume_unique : bool, optional
        Accepted and ignored.
    return_indices : bool, optional
        Also return the positions of the common values' first occurrences in each flattened input (default
        False).

    Returns
    -------
    intersect1d : npgpu.Array or numpy.ndarray
        1-D, sorted, in the two inputs' promoted dtype (as NumPy's). Each result is an npgpu.Array on ar1's
        device for npgpu `ar1`, a NumPy array for NumPy input.
    comm1, comm2 : npgpu.Array or numpy.ndarray
        With `return_indices` only: int64 positions in the flattened `ar1` and `ar2`.

    Examples
    --------
    >>> npgpu.intersect1d(npgpu.asarray([3, 1, 2, 3, 1], device="cpu"), [3, 4, 1])
    Array([1, 3])
    >>> npgpu.intersect1d(np.array([1, 3, 4, 3]), np.array([3, 1, 2, 1]), return_indices=True)
    (array([1, 3]), array([0, 1]), array([1, 0]))
    """
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
    """The sorted distinct values found in either of two arrays, as numpy.union1d.

    Parameters
    ----------
    ar1, ar2 : npgpu.Array or array_like
        Input values (flattened); `ar2`, other than an npgpu.Array, is converted onto ar1's device.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        1-D, sorted. An npgpu.Array on ar1's device for npgpu `ar1`, a NumPy array for NumPy input.

    Examples
    --------
    >>> npgpu.union1d(npgpu.asarray([3, 1, 2], device="cpu"), [4, 0, 1])
    Array([0, 1, 2, 3, 4])
    >>> npgpu.union1d(np.array([-1, 0, 1]), np.array([-2, 0, 2]))
    array([-2, -1,  0,  1,  2])
    """
    a, numpy_out = _device_input(ar1)
    b = ar2 if isinstance(ar2, _array.Array) else _array.asarray(np.asarray(ar2), device=a.device)
    return _back(_unique_parts(_manipulation.concatenate([a.reshape(-1), b.reshape(-1)]), True, False, False,
                               False)[0], numpy_out)


def setdiff1d(ar1, ar2, assume_unique=False):
    """The sorted distinct values of one array that are not in another, as numpy.setdiff1d.

    Parameters
    ----------
    ar1 : npgpu.Array or array_like
        Input values (flattened).
    ar2 : npgpu.Array or array_like
        The values removed; other than an npgpu.Array, converted onto ar1's device.
    assume_unique : bool, optional
        Take ar1's values as distinct: they are kept in their order, neither deduplicated nor sorted (default
        False).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        1-D. An npgpu.Array on ar1's device for npgpu `ar1`, a NumPy array for NumPy input.

    Examples
    --------
    >>> npgpu.setdiff1d(npgpu.asarray([3, 1, 2, 3, 1], device="cpu"), [1])
    Array([2, 3])
    >>> npgpu.setdiff1d(np.array([5, 1, 3]), [1], assume_unique=True)
    array([5, 3])
    """
    a, numpy_out = _device_input(ar1)
    b = ar2 if isinstance(ar2, _array.Array) else _array.asarray(np.asarray(ar2), device=a.device)
    ua = a.reshape(-1) if assume_unique else _unique_parts(a, True, False, False, False)[0]
    keep = _indexing.flatnonzero(_isin(ua, b, True))
    return _back(_indexing.take(ua, keep), numpy_out)


def setxor1d(ar1, ar2, assume_unique=False):
    """The sorted values found in exactly one of two arrays, as numpy.setxor1d.

    Parameters
    ----------
    ar1 : npgpu.Array or array_like
        Input values (flattened).
    ar2 : npgpu.Array or array_like
        Input values (flattened); other than an npgpu.Array, converted onto ar1's device.
    assume_unique : bool, optional
        Take each input's values as distinct, skipping their deduplication (default False); a value repeated
        within one input then counts as in both, as NumPy's.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        1-D, sorted, in the inputs' promoted dtype: the values whose (deduplicated) occurrences in the two
        inputs together are exactly one. A NaN in each input is kept twice, as NumPy's (NaN differs from NaN).
        An npgpu.Array on ar1's device for npgpu `ar1`, a NumPy array for NumPy input.

    Raises
    ------
    TypeError
        Inputs without a common dtype.

    See Also
    --------
    union1d, intersect1d, setdiff1d, unique

    Notes
    -----
    One stable sort of the two inputs together, a comparison of each sorted value with its neighbours, and a
    compaction; unique of each input first unless `assume_unique`.

    Examples
    --------
    >>> npgpu.setxor1d(npgpu.asarray([1, 2, 3, 2, 4], device="cpu"), [2, 3, 5, 7, 5])
    Array([1, 4, 5, 7])
    >>> npgpu.setxor1d(np.array([3.0, 1.0]), np.array([1.0, 0.5]), assume_unique=True)
    array([0.5, 3. ])
    """
    a, numpy_out = _device_input(ar1)
    b = ar2 if isinstance(ar2, _array.Array) else _array.asarray(np.asarray(ar2), device=a.device)
    if not assume_unique:
        a = _unique_parts(a, True, False, False, False)[0]
        b = _unique_parts(b, True, False, False, False)[0]
    aux = _manipulation.concatenate([a.reshape(-1), b.reshape(-1)])
    if aux.size == 0:
        return _back(aux, numpy_out)
    aux = _sorting.sort(aux)
    edge = _creation.ones((1,), dtype=bool, device=aux.device)
    flag = _manipulation.concatenate([edge, aux[1:] != aux[:-1], edge])
    keep = _indexing.flatnonzero(flag[1:] & flag[:-1])
    return _back(_indexing.take(aux, keep), numpy_out)


def bincount(x, weights=None, minlength=0):
    """The number of occurrences of each value in an array of non-negative integers, as numpy.bincount.

    Counts come from one counting pass (_sorting.count_keys); weights from one scatter-add (add.at), in which a
    GPU sums the weights of a bin in an unspecified order, so the last bits may differ from NumPy's.

    Parameters
    ----------
    x : npgpu.Array or array_like
        1-D, of non-negative integers (or bools).
    weights : npgpu.Array or array_like, optional
        Real values of x's shape, summed per bin in float64 instead of counting ones; complex raises
        TypeError. Other than an npgpu.Array, converted onto x's device.
    minlength : int, optional
        The least number of bins (default 0).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        ``max(max(x) + 1, minlength)`` bins: int64 counts, or float64 sums with `weights`. An empty `x`
        gives `minlength` int64 zeros, weights or not, as NumPy does. An npgpu.Array on x's device for npgpu
        `x`, a NumPy array for NumPy input.

    Raises
    ------
    ValueError
        `x` not 1-D or holding negative values; negative `minlength`; `weights` of another shape than `x`.
    TypeError
        `x` not of an integer or bool dtype; `weights` that do not cast safely to float64 (complex).

    Examples
    --------
    >>> npgpu.bincount(npgpu.asarray([3, 1, 2, 3, 1], device="cpu"))
    Array([0, 2, 1, 2])
    >>> npgpu.bincount(np.array([0, 1, 1, 3]), minlength=6)
    array([1, 2, 0, 1, 0, 0])
    >>> npgpu.bincount(np.array([0, 1, 1, 2]), weights=[0.5, 1, 0.25, 2])
    array([0.5 , 1.25, 2.  ])
    """
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
    lo, hi = (int(v) for v in _sorting.key_range(d).get())
    if lo < 0:
        raise ValueError("'list' argument must have no negative elements")
    nbins = max(hi + 1, minlength)
    if weights is None:
        zero = _array.zeros((1,), dtype=d.dtype, device=d.device)  # the counts' first bin is the value 0
        return _back(_sorting.count_keys(d, zero, nbins)[0], numpy_out)
    w = weights if isinstance(weights, _array.Array) else _array.asarray(np.asarray(weights), device=d.device)
    if not np.can_cast(w.dtype, np.float64, "safe"):
        raise TypeError(f"Cannot cast array data from {w.dtype!r} to dtype('float64') according to the rule 'safe'")
    if w.shape != d.shape:
        raise ValueError("The weights and list don't have the same length.")
    out = _array.zeros((nbins,), dtype=np.float64, device=d.device)
    _indexing.add_at(out, d, w.astype(np.float64))
    return _back(out, numpy_out)
