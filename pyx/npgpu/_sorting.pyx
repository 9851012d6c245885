# cython: language_level=3
"""Sorting: sort and argsort along any axis (the Array API standard's ``stable``/``descending`` and
NumPy's ``kind``), stable always, NaNs last (as NumPy's, in both directions), complex numbers in NumPy's
lexicographic order.

npgpu.Array inputs on a GPU sort there (CUB's radix sort for one row, its segmented sort for the rows of an
N-d array, merge sort for complex), and give npgpu.Arrays on the same device; on the host device NumPy's sort
runs on the array's memory. NumPy inputs give NumPy results, sorted on the GPU (uploaded, sorted,
downloaded) when the backend is 'cuda', by NumPy otherwise.
"""
import operator

import numpy as np
from numpy.exceptions import AxisError

from npgpu._array cimport Array, native_order, new_array
from npgpu._runtime cimport use_cuda_for_host_data
from libc.stdint cimport int64_t
from npgpu.lib.sorting cimport (count_keys as c_count_keys, key_range as c_key_range, lookup_keys as c_lookup_keys,
                                sort_rows as c_sort_rows, sorted_run_starts as c_sorted_run_starts)
from npgpu.lib.view cimport ArrayView, kHostDevice
from npgpu import _array

_INT64 = np.dtype(np.int64)


def _check(kind, order, stable):
    """NumPy's checks of sort's keywords (npgpu's sorts are all stable, so every kind gives one order)."""
    # NumPy reads only the first letter, in either case ('q', 'QUICK', 'stab' are accepted)
    if kind is not None and not (isinstance(kind, str) and kind[:1].lower() in ("q", "m", "h", "s")):
        raise ValueError(f"sort kind must be one of 'quick', 'heap', or 'stable' (got {kind!r})")
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")
    if stable is not None and not isinstance(stable, (bool, np.bool_)):
        raise TypeError(f"stable must be a bool or None, not {type(stable).__name__}")


def sort_rows(Array keys, Array values=None, Array indices=None, bint descending=False):
    """Sort each row (last axis) of `keys`: the library's row sort.

    Writes the sorted keys into `values` and/or the int64 positions that sort each row into `indices`, on keys'
    device and stream (CUB on a GPU; the host backend's std::stable_sort for host arrays). The sort is stable;
    NaNs go last in both directions. Asynchronous on a GPU. A low-level building block of sort and argsort.

    Parameters
    ----------
    keys : npgpu.Array
        The C-contiguous array whose rows are sorted (left unchanged).
    values : npgpu.Array, optional
        Receives the sorted keys: C-contiguous, writeable, of keys' dtype and shape, on keys' device.
    indices : npgpu.Array, optional
        Receives the positions, along each row, of the sorted keys: C-contiguous, writeable, int64, of keys'
        shape, on keys' device.
    descending : bool, optional
        Sort in descending order (default False).

    Returns
    -------
    None

    Raises
    ------
    ValueError
        Neither `values` nor `indices` given; `keys` not C-contiguous; `values` or `indices` of another shape,
        not C-contiguous, read-only or on another device; `values` of another dtype; `indices` not int64.
    TypeError
        An argument not an npgpu.Array (or None); bfloat16 keys on a GPU.

    See Also
    --------
    sort, argsort

    Examples
    --------
    >>> from npgpu import _sorting
    >>> keys = npgpu.asarray([[3.0, np.nan, 1.0], [0.0, 5.0, 4.0]], device="cpu")
    >>> values = npgpu.empty((2, 3), dtype=np.float64, device="cpu")
    >>> indices = npgpu.empty((2, 3), dtype=np.int64, device="cpu")
    >>> _sorting.sort_rows(keys, values, indices)
    >>> values
    Array([[ 1.,  3., nan],
           [ 0.,  4.,  5.]])
    >>> indices
    Array([[2, 0, 1],
           [0, 2, 1]])
    """
    cdef ArrayView* vp = NULL
    cdef ArrayView* ip = NULL
    if values is not None:
        vp = &values._view
    if indices is not None:
        ip = &indices._view
    with nogil:
        c_sort_rows(keys._view, vp, ip, descending, keys.stream)


def run_starts(Array x, bint equal_nan=True):
    """Where each run of equal elements of a sorted 1-D npgpu.Array starts.

    Equality is numpy.unique's: -0.0 == +0.0, and NaNs are one value when `equal_nan`. Waits for the device
    (the count sizes the result).

    Parameters
    ----------
    x : npgpu.Array
        The sorted 1-D array (a copy is made when it is not contiguous).
    equal_nan : bool, optional
        Whether the NaNs make one run (True, the default) or one run each.

    Returns
    -------
    npgpu.Array
        int64, 1-D, on x's device: the index of the first element of every run, in increasing order.

    Raises
    ------
    ValueError
        `x` not 1-D.
    TypeError
        `x` not an npgpu.Array.

    Notes
    -----
    Where there are fewer runs than a quarter of x's length the result is a copy, so that the whole-length buffer
    it was computed in is not kept alive; otherwise it is a view of that buffer.

    Examples
    --------
    >>> from npgpu import _sorting
    >>> x = npgpu.asarray([-0.0, 0.0, 1.0, 1.0, np.nan, np.nan], device="cpu")
    >>> _sorting.run_starts(x)
    Array([0, 2, 4])
    >>> _sorting.run_starts(x, equal_nan=False)
    Array([0, 2, 4, 5])
    """
    if x.ndim != 1:
        raise ValueError(f"run_starts: x must be 1-D, got shape {x.shape}")
    cdef Array s = x if x._view.is_c_contiguous() else x.copy()
    cdef Array out = new_array((s._view.size(),), _INT64, s._view.device, s.stream)
    cdef int64_t count
    with nogil:
        count = c_sorted_run_starts(s._view, out._view, equal_nan, s.stream)
    starts = out[:count]
    # few runs: a copy of their starts, so that the whole-length buffer is not kept alive
    return starts.copy() if 4 * count < s._view.size() else starts


def key_range(Array x):
    """The smallest and the largest element of an integer or bool npgpu.Array, in one pass.

    The first step of counting in place of sorting (count_keys, lookup_keys). Asynchronous on a GPU.

    Parameters
    ----------
    x : npgpu.Array
        Integer or bool, not empty (a copy is made when it is not C-contiguous).

    Returns
    -------
    npgpu.Array
        Two elements of x's dtype on x's device: the smallest, then the largest.

    Raises
    ------
    TypeError
        `x` not an npgpu.Array, or not of an integer or bool dtype.
    ValueError
        `x` empty.

    Examples
    --------
    >>> from npgpu import _sorting
    >>> _sorting.key_range(npgpu.asarray([[3, -2], [7, 0]], device="cpu"))
    Array([-2,  7])
    """
    cdef Array k = x if x._view.is_c_contiguous() else x.copy()
    cdef Array out = new_array((2,), k.dtype, k._view.device, k.stream)
    with nogil:
        c_key_range(k._view, out._view, k.stream)
    return out


def count_keys(Array x, Array key_range, int64_t bins, bint want_first=False):
    """How many times each value of [lo, lo + bins) occurs in an integer or bool npgpu.Array, lo = key_range[0].

    Counting in place of sorting where the keys span a narrow range: one pass over x (atomics on a GPU).
    Elements outside the range are not counted. Asynchronous on a GPU.

    Parameters
    ----------
    x : npgpu.Array
        Integer or bool keys, any shape (a copy is made when it is not C-contiguous).
    key_range : npgpu.Array
        At least one element of x's dtype on x's device, the first being lo (as key_range returns).
    bins : int
        The number of values counted, lo to lo + bins - 1; at least 0.
    want_first : bool, optional
        Also return the flat position of each value's first occurrence (default False).

    Returns
    -------
    counts : npgpu.Array
        int64, (bins,), on x's device.
    first : npgpu.Array or None
        With `want_first`: int64, (bins,), the smallest flat position of each value, -1 where it does not
        occur; else None.

    Raises
    ------
    TypeError
        `x` not of an integer or bool dtype, or an argument not an npgpu.Array.
    ValueError
        `key_range` of another dtype or device, or empty; negative `bins`.

    Examples
    --------
    >>> from npgpu import _sorting
    >>> x = npgpu.asarray([5, 3, 5, 6, 3, 5], device="cpu")
    >>> _sorting.count_keys(x, _sorting.key_range(x), 4, want_first=True)
    (Array([2, 0, 3, 1]), Array([ 1, -1,  0,  3]))
    """
    if bins < 0:
        raise ValueError(f"count_keys: bins must be at least 0, got {bins}")
    cdef Array k = x if x._view.is_c_contiguous() else x.copy()
    cdef Array counts = new_array((bins,), _INT64, k._view.device, k.stream)
    cdef Array first = new_array((bins,), _INT64, k._view.device, k.stream) if want_first else None
    cdef ArrayView* fp = &first._view if want_first else NULL
    with nogil:
        c_count_keys(k._view, key_range._view, counts._view, fp, k.stream)
    return counts, first


def lookup_keys(Array x, Array key_range, Array table):
    """table[x - key_range[0]] for every element of an integer or bool npgpu.Array, -1 outside the table.

    numpy.unique's inverse from a table of ranks, without the int64 offsets x - lo in memory. Asynchronous on a
    GPU.

    Parameters
    ----------
    x : npgpu.Array
        Integer or bool keys, any shape (a copy is made when it is not C-contiguous).
    key_range : npgpu.Array
        At least one element of x's dtype on x's device, the first being lo (as key_range returns).
    table : npgpu.Array
        int64, 1-D, on x's device (a copy is made when it is not contiguous).

    Returns
    -------
    npgpu.Array
        int64 of x's shape on x's device.

    Raises
    ------
    TypeError
        `x` not of an integer or bool dtype, or an argument not an npgpu.Array.
    ValueError
        `key_range` of another dtype or device, or empty; `table` not 1-D int64 or on another device.

    Examples
    --------
    >>> from npgpu import _sorting
    >>> x = npgpu.asarray([5, 3, 9], device="cpu")
    >>> _sorting.lookup_keys(x, _sorting.key_range(x), npgpu.asarray([10, 11, 12, 13], device="cpu"))
    Array([12, 10, -1])
    """
    cdef Array k = x if x._view.is_c_contiguous() else x.copy()
    cdef Array t = table if table._view.is_c_contiguous() else table.copy()
    cdef Array out = new_array(k.shape, _INT64, k._view.device, k.stream)
    with nogil:
        c_lookup_keys(k._view, key_range._view, t._view, out._view, k.stream)
    return out


cdef object _device_sort(Array x, object axis, bint descending, bint want_values, bint want_indices):
    """(values, indices) of x sorted along `axis` (None: flattened) on x's device; None for what was not
    asked."""
    if axis is None or (x.ndim == 0 and not want_values):  # NumPy's argsort flattens a 0-d array
        if axis is not None and not -1 <= operator.index(axis) < 1:  # ... and checks axis against the 1-d
            raise AxisError(axis, 1)
        x = x.reshape(-1)
        ax = 0
    else:
        if x.ndim == 0:
            raise AxisError(axis, 0)
        ax = operator.index(axis)
        if not -x.ndim <= ax < x.ndim:
            raise AxisError(axis, x.ndim)
        ax %= x.ndim
    last = x.ndim - 1
    moved = x if ax == last else x.swapaxes(ax, last)
    if not (<Array>moved)._view.is_c_contiguous():
        moved = moved.copy()
    cdef Array keys = moved
    values = new_array(keys.shape, keys.dtype, keys._view.device, keys.stream) if want_values else None
    indices = new_array(keys.shape, _INT64, keys._view.device, keys.stream) if want_indices else None
    if keys._view.size():
        sort_rows(keys, values, indices, descending)
    if ax != last:
        values = values.swapaxes(ax, last) if values is not None else None
        indices = indices.swapaxes(ax, last) if indices is not None else None
    return values, indices


cdef object _descending_key(a):
    """An array whose ascending stable order is a's descending order with NaNs last: -a for floats and
    complex numbers (NaNs stay NaN, so last; -0.0 == 0.0), ~a for integers and bool (exact, no overflow)."""
    return -a if a.dtype.kind in "fc" else ~a


cdef object _numpy_sort(x, axis, bint descending, bint arg):
    """NumPy's stable sort or argsort; descending through the order-reversing key."""
    a = native_order(np.asarray(x))
    if not descending:
        return np.argsort(a, axis=axis, kind="stable") if arg else np.sort(a, axis=axis, kind="stable")
    if axis is None:
        a = a.reshape(-1)
        axis = 0
    idx = np.argsort(_descending_key(a), axis=axis, kind="stable")
    return idx if arg else np.take_along_axis(a, idx, axis=axis)


cdef bint _host_radix(object dtype, int64_t size):
    """Whether the host backend sorts with libnpgpu's radix sort (stable, a pass per key byte) rather than
    NumPy's stable sort: for real dtypes of 4 or 8 bytes and float16 (NumPy's stable sort of those is a merge
    sort, several times slower); NumPy's is a radix sort itself for 1- and 2-byte integers, and complex data
    compare as NumPy's do. Small arrays stay with NumPy (less fixed cost)."""
    return size >= 4096 and (dtype.kind == "f" or (dtype.kind in "iu" and dtype.itemsize >= 4))


def _sort_impl(x, axis, kind, order, stable, descending, bint arg):
    _check(kind, order, stable)
    if isinstance(x, Array):
        if (<Array>x)._view.device == kHostDevice and not _host_radix(x.dtype, x.size):
            return _array.asarray(_numpy_sort(x.get(), axis, descending, arg), device="cpu")
        values, indices = _device_sort(x, axis, descending, not arg, arg)
        return indices if arg else values
    _array.refuse_subclass(x, "argsort" if arg else "sort")
    if use_cuda_for_host_data():
        values, indices = _device_sort(_array.asarray(x), axis, descending, not arg, arg)
        return (indices if arg else values).get()
    a = native_order(np.asarray(x))
    if _host_radix(a.dtype, a.size):
        values, indices = _device_sort(_array.asarray(a, device="cpu"), axis, descending, not arg, arg)
        return (indices if arg else values).get()
    return _numpy_sort(a, axis, descending, arg)


def sort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    """A sorted copy of an array along an axis, as numpy.sort and the Array API standard's sort.

    Along `axis` (-1 by default; None: flattened first). Always stable (``kind`` and ``stable`` are accepted;
    every kind gives the stable order), ascending or, with ``descending=True``, descending; NaNs last either way,
    -0.0 equal to 0.0; complex numbers by real part, then imaginary part.

    npgpu.Array inputs on a GPU sort there (CUB's radix sort for one row, its segmented sort for the rows of an
    N-d array, merge sort for complex) and give npgpu.Arrays on the same device; on the host device NumPy's stable
    sort runs on the array's memory. NumPy inputs give NumPy results, sorted on the GPU (uploaded, sorted,
    downloaded) when the backend is 'cuda', by NumPy otherwise.

    Parameters
    ----------
    a : npgpu.Array or array_like
        The values to sort.
    axis : int or None, optional
        The axis sorted along (default -1, the last); None sorts the flattened array.
    kind : {None, 'quicksort', 'mergesort', 'heapsort', 'stable'}, optional
        Accepted for NumPy compatibility: every kind gives the same stable order.
    order : None, optional
        Must be None (npgpu arrays have no fields).
    stable : bool or None, optional
        The Array API standard's keyword (keyword only), accepted: the sort is stable whatever its value.
    descending : bool, optional
        Sort in descending order (keyword only; default False). NaNs still go last; equal elements keep their
        order.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        The sorted values, of a's dtype and shape (1-D when `axis` is None): an npgpu.Array on a's device for an
        npgpu.Array input, a NumPy array for NumPy input.

    Raises
    ------
    ValueError
        `kind` not one of the names above; `order` not None.
    TypeError
        `stable` neither a bool nor None; `a` a numpy.ndarray subclass (other than numpy.memmap).
    numpy.exceptions.AxisError
        `axis` outside [-a.ndim, a.ndim).

    See Also
    --------
    argsort, partition, lexsort

    Examples
    --------
    >>> a = npgpu.asarray([3.0, np.nan, 1.0, 2.0], device="cpu")
    >>> npgpu.sort(a)
    Array([ 1.,  2.,  3., nan])
    >>> npgpu.sort(a, descending=True)
    Array([ 3.,  2.,  1., nan])
    >>> npgpu.sort(np.array([[3, 1, 2], [9, 7, 8]]), axis=None)
    array([1, 2, 3, 7, 8, 9])
    """
    return _sort_impl(a, axis, kind, order, stable, descending, False)


def argsort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    """The positions that sort an array along an axis, as numpy.argsort and the Array API standard's argsort.

    int64 positions along `axis` (-1 by default; None: of the flattened array). Stable: equal elements keep their
    order, in both directions. NaNs last, -0.0 equal to 0.0, complex numbers by real part, then imaginary part. A
    0-d input is sorted as a 1-element 1-d one, as NumPy's.

    npgpu.Array inputs on a GPU sort there (CUB's radix sort for one row, its segmented sort for the rows of an
    N-d array, merge sort for complex) and give npgpu.Arrays on the same device; on the host device NumPy's stable
    sort runs on the array's memory. NumPy inputs give NumPy results, sorted on the GPU (uploaded, sorted,
    downloaded) when the backend is 'cuda', by NumPy otherwise.

    Parameters
    ----------
    a : npgpu.Array or array_like
        The values to sort.
    axis : int or None, optional
        The axis sorted along (default -1, the last); None sorts the flattened array.
    kind : {None, 'quicksort', 'mergesort', 'heapsort', 'stable'}, optional
        Accepted for NumPy compatibility: every kind gives the same stable order.
    order : None, optional
        Must be None (npgpu arrays have no fields).
    stable : bool or None, optional
        The Array API standard's keyword (keyword only), accepted: the sort is stable whatever its value.
    descending : bool, optional
        Sort in descending order (keyword only; default False). NaNs still go last; equal elements keep their
        order.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        int64 positions, of a's shape (1-D when `axis` is None or a is 0-d): an npgpu.Array on a's device for an
        npgpu.Array input, a NumPy array for NumPy input.

    Raises
    ------
    ValueError
        `kind` not one of the names above; `order` not None.
    TypeError
        `stable` neither a bool nor None; `a` a numpy.ndarray subclass (other than numpy.memmap).
    numpy.exceptions.AxisError
        `axis` outside [-a.ndim, a.ndim).

    See Also
    --------
    sort, argpartition, lexsort

    Examples
    --------
    >>> a = npgpu.asarray([2, 1, 2, 1], device="cpu")
    >>> npgpu.argsort(a)
    Array([1, 3, 0, 2])
    >>> npgpu.argsort(a, descending=True)  # stable: equal elements keep their order
    Array([0, 2, 1, 3])
    >>> npgpu.argsort(np.array([3.0, np.nan, 1.0]))
    array([2, 0, 1])
    """
    return _sort_impl(a, axis, kind, order, stable, descending, True)


def _check_kth(kth, n, a):
    ks = np.atleast_1d(np.asarray(kth.get() if isinstance(kth, Array) else kth))
    if ks.dtype.kind not in "iu":
        raise TypeError("Partition index must be integer")
    if (a.size if isinstance(a, Array) else np.size(a)) == 0:  # NumPy checks no bounds on an empty array
        return
    for k in ks.ravel():
        if not -n <= int(k) < n:
            raise ValueError(f"kth(={int(k)}) out of bounds ({n})")


def _axis_length(a, axis):
    shape = a.shape if isinstance(a, Array) else np.shape(a)
    if axis is None:
        return int(np.prod(shape))
    if len(shape) == 0:
        raise AxisError(axis, 0)
    ax = operator.index(axis)
    if not -len(shape) <= ax < len(shape):
        raise AxisError(axis, len(shape))
    return shape[ax]


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """A copy of an array partitioned around the positions `kth`, as numpy.partition.

    The element at each position `kth` (along `axis`) is the one a sort would put there, smaller elements before it
    and larger ones after. The order inside the partitions is unspecified by NumPy; npgpu returns them sorted (one
    segmented sort: the result is ``sort(a, axis=axis)``).

    Parameters
    ----------
    a : npgpu.Array or array_like
        The values to partition.
    kth : int or sequence of ints (or an npgpu.Array of them)
        The positions (along `axis`) whose elements are put where a sort would put them; negative ones count from
        the end.
    axis : int or None, optional
        The axis partitioned along (default -1, the last); None: the flattened array.
    kind : str, optional
        Accepted for NumPy compatibility and not used.
    order : None, optional
        Must be None (npgpu arrays have no fields).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Of a's dtype and shape (1-D when `axis` is None): an npgpu.Array on a's device for an npgpu.Array input, a
        NumPy array for NumPy input.

    Raises
    ------
    TypeError
        `kth` not of an integer type.
    ValueError
        A `kth` outside [-n, n), n the length of `axis` (not checked for an empty `a`); `order` not None.
    numpy.exceptions.AxisError
        `axis` outside [-a.ndim, a.ndim).

    See Also
    --------
    argpartition, sort

    Examples
    --------
    >>> npgpu.partition(np.array([5, 1, 4, 2, 3]), 2)
    array([1, 2, 3, 4, 5])
    >>> npgpu.partition(npgpu.asarray([5, 1, 4, 2, 3], device="cpu"), [1, 3])
    Array([1, 2, 3, 4, 5])
    """
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")
    _check_kth(kth, _axis_length(a, axis), a)
    return sort(a, axis=axis)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """The positions that partition an array around `kth` along an axis, as numpy.argpartition.

    npgpu's positions are those of a stable sort (``argsort(a, axis=axis)``), which partition `a` around every
    `kth`. As argsort (and NumPy), a 0-d array is partitioned as a 1-element 1-d one.

    Parameters
    ----------
    a : npgpu.Array or array_like
        The values to partition.
    kth : int or sequence of ints (or an npgpu.Array of them)
        The positions (along `axis`) whose elements are put where a sort would put them; negative ones count from
        the end.
    axis : int or None, optional
        The axis partitioned along (default -1, the last); None: the flattened array.
    kind : str, optional
        Accepted for NumPy compatibility and not used.
    order : None, optional
        Must be None (npgpu arrays have no fields).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        int64 positions, of a's shape (1-D when `axis` is None or a is 0-d): an npgpu.Array on a's device for an
        npgpu.Array input, a NumPy array for NumPy input.

    Raises
    ------
    TypeError
        `kth` not of an integer type.
    ValueError
        A `kth` outside [-n, n), n the length of `axis` (not checked for an empty `a`); `order` not None.
    numpy.exceptions.AxisError
        `axis` outside [-a.ndim, a.ndim).

    See Also
    --------
    partition, argsort

    Examples
    --------
    >>> npgpu.argpartition(np.array([5, 1, 4, 2, 3]), 2)
    array([1, 3, 4, 2, 0])
    >>> npgpu.argpartition(npgpu.asarray([30, 10, 20], device="cpu"), 0)
    Array([1, 2, 0])
    """
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")
    if axis is not None and (a.ndim if isinstance(a, Array) else np.ndim(a)) == 0:
        # as argsort (and NumPy), a 0-d array is partitioned as a 1-element 1-d one
        a = a.reshape((1,)) if isinstance(a, Array) else np.reshape(np.asarray(a), (1,))
    _check_kth(kth, _axis_length(a, axis), a)
    return argsort(a, axis=axis)


def lexsort(keys, axis=-1):
    """The positions that sort by several keys, the last key primary, as numpy.lexsort.

    One stable argsort per key, from the least significant, each of the key reordered by the positions so far.
    When every key is a NumPy array (or array_like) and the backend is not 'cuda', numpy.lexsort itself runs.

    Parameters
    ----------
    keys : sequence of array_like or npgpu.Array, or an array
        The keys, all of one shape, the last the primary one. A 2-D (or more) npgpu.Array or numpy.ndarray gives
        one key per row (along its first axis); a 1-D one is a single key. NumPy keys join the device of the first
        npgpu.Array key.
    axis : int, optional
        The axis sorted along (default -1, the last).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        int64 positions, of the keys' shape: an npgpu.Array when any key is an npgpu.Array (on its device), a NumPy
        array otherwise.

    Raises
    ------
    TypeError
        No keys.
    ValueError
        Keys of different shapes.
    numpy.exceptions.AxisError
        `axis` outside the keys' dimensions.

    See Also
    --------
    argsort, sort

    Examples
    --------
    >>> surname = np.array([2, 1, 2, 1])
    >>> first = np.array([0, 1, 1, 0])
    >>> npgpu.lexsort((first, surname))  # by surname, then first
    array([3, 1, 0, 2])
    >>> npgpu.lexsort([npgpu.asarray(first, device="cpu"), npgpu.asarray(surname, device="cpu")])
    Array([3, 1, 0, 2])
    """
    if isinstance(keys, Array):
        keys = [keys[i] for i in range(keys.shape[0])] if keys.ndim > 1 else [keys]
    elif isinstance(keys, np.ndarray) and keys.ndim > 1:
        keys = list(keys)
    elif isinstance(keys, np.ndarray):
        keys = [keys]
    keys = list(keys)
    if not keys:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    numpy_out = not any(isinstance(k, Array) for k in keys)
    device = next((k.device for k in keys if isinstance(k, Array)), None)
    if numpy_out and not use_cuda_for_host_data():
        return np.lexsort(keys, axis=axis)
    ks = [k if isinstance(k, Array) else _array.asarray(np.asarray(k), device=device) for k in keys]
    shape = ks[0].shape
    if any(k.shape != shape for k in ks):
        raise ValueError("all keys need to be the same shape")
    from npgpu import _indexing
    order = argsort(ks[0], axis=axis)
    for k in ks[1:]:
        order = _indexing.take_along_axis(order, argsort(_indexing.take_along_axis(k, order, axis=axis), axis=axis),
                                          axis=axis)
    return order.get() if numpy_out else order


_array._register_op("sort", sort)
_array._register_op("argsort", argsort)
