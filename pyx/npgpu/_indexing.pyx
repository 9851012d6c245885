# cython: language_level=3
"""Indexing with data, on npgpu.Arrays of either device and on NumPy inputs: integer-array and boolean-mask
indexing (``x[idx]``, ``x[mask]``, ``x[idx, 2:5]``, ``x[:, mask]``, their assignments), ``take``,
``take_along_axis``, ``put``, ``add.at`` / ``subtract.at`` (scatter-add), ``nonzero``, ``flatnonzero``, ``argwhere``, ``where(condition)`` and
``searchsorted``, with NumPy's rules and errors.

Everything reduces to the library's gather (npgpu::take), scatter (npgpu::put), mask compaction
(npgpu::nonzero_positions, CUB's DeviceSelect) and binary search (npgpu::search_sorted). Calls whose result
size depends on the data (masks, nonzero) and calls that check indices on a GPU wait for the device: the
result's shape, or the IndexError, needs the answer.
"""
import math
import operator

import numpy as np
from numpy.exceptions import AxisError

from libc.stdint cimport int64_t
from npgpu._array cimport Array, new_array
from npgpu._runtime cimport use_cuda_for_host_data
from npgpu.lib.indexing cimport (nonzero_positions as c_nonzero_positions, put as c_put,
                                 scatter_add as c_scatter_add, search_sorted as c_search_sorted, take as c_take)
from npgpu import _array

_INT64 = np.dtype(np.int64)


# ------------------------------------------------------------------------------------------------ helpers

cdef Array _contiguous(Array x):
    return x if x._view.is_c_contiguous() else x.copy()


def _index_array(idx, device):
    """An integer index (array, list or scalar) as a C-contiguous int64 npgpu.Array on `device`; IndexError
    for non-integer arrays (as NumPy)."""
    if isinstance(idx, Array):
        if idx.device != device and str(idx.device) != str(device):
            raise ValueError(f"index array on {idx.device}, indexed array on {device}")
        dt = idx.dtype
    else:
        idx = np.asarray(idx)
        dt = idx.dtype
        if dt.kind not in "iub" and idx.size == 0:  # [] indexes nothing, as NumPy's
            idx = idx.astype(np.int64)
            dt = idx.dtype
    if dt.kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    # (uint64 values above 2^63 become negative int64 and then fail the bounds check: NumPy raises too)
    x = idx if isinstance(idx, Array) else _array.asarray(idx, device=device)
    if x.dtype != _INT64:
        x = x.astype(_INT64)
    return _contiguous(x)


def positions(flags):
    """The flat positions of the nonzero elements of an npgpu.Array, in C order.

    The library's mask compaction (npgpu::nonzero_positions, CUB's DeviceSelect on a GPU), behind masks, nonzero,
    flatnonzero, argwhere, compress and extract. Waits for the device: the count sizes the result.

    Parameters
    ----------
    flags : npgpu.Array
        The array (any dtype and shape; a copy is made when it is not C-contiguous). NaN counts as nonzero.

    Returns
    -------
    npgpu.Array
        int64, 1-D, on flags' device: the positions in the flattened array, increasing.

    Raises
    ------
    TypeError
        `flags` not an npgpu.Array.

    See Also
    --------
    flatnonzero, nonzero

    Examples
    --------
    >>> from npgpu import _indexing
    >>> _indexing.positions(npgpu.asarray([[0, 3], [0, 1]], device="cpu"))
    Array([1, 3])
    """
    cdef Array f = _contiguous(flags)
    cdef Array out = new_array((f._view.size(),), _INT64, f._view.device, f.stream)
    cdef int64_t count
    with nogil:
        count = c_nonzero_positions(f._view, out._view, f.stream)
    return out[:count]


def _gather(Array x, int axis, Array idx):
    """x's elements at positions `idx` (int64, any shape) along `axis`: shape x.shape[:axis] + idx.shape +
    x.shape[axis+1:]."""
    cdef Array src = _contiguous(x)
    cdef Array index = _contiguous(idx.reshape(-1))
    outer = math.prod(x.shape[:axis])
    inner = math.prod(x.shape[axis + 1:])
    shape = x.shape[:axis] + idx.shape + x.shape[axis + 1:]
    cdef Array out = new_array(shape, x.dtype, src._view.device, src.stream)
    cdef int64_t o = outer, n = x.shape[axis], i = inner
    with nogil:
        c_take(src._view, o, n, i, index._view, out._view, src.stream)
    return out


def _scatter(Array x, int axis, Array idx, values):
    """x[..., idx, ...] = values along `axis` (values broadcast to the gathered shape), in place."""
    shape = x.shape[:axis] + idx.shape + x.shape[axis + 1:]
    cdef Array v = _values_for(x, values, shape)
    cdef Array index = _contiguous(idx.reshape(-1))
    cdef Array dst = x if x._view.is_c_contiguous() else x.copy()
    cdef int64_t o = math.prod(x.shape[:axis]), n = x.shape[axis], i = math.prod(x.shape[axis + 1:])
    with nogil:
        c_put(dst._view, o, n, i, index._view, v._view, dst.stream)
    if dst is not x:
        x[...] = dst


cdef Array _values_for(Array x, values, shape):
    """`values` as a C-contiguous npgpu.Array of x's dtype and `shape` (broadcast as NumPy's assignment)."""
    v = values if isinstance(values, Array) else _array.asarray(np.asarray(values), device=x.device)
    if v.dtype != x.dtype:
        v = v.astype(x.dtype)
    if tuple(v.shape) != tuple(shape):
        v = _array.broadcast_to(v, shape).copy()
    return _contiguous(v)


# ------------------------------------------------------------------------------------- advanced indexing

def _normalize(Array x, key):
    """key as a list of entries with Ellipsis expanded, boolean scalars as 0-d masks and the advanced entries
    as ('int', int64 Array) or ('bool', bool Array)."""
    key = list(key) if isinstance(key, tuple) else [key]
    entries = []
    for k in key:
        if k is None or k is Ellipsis or isinstance(k, slice):
            entries.append(k)
            continue
        if isinstance(k, (bool, np.bool_)):
            entries.append(("bool", _array.asarray(np.asarray(k), device=x.device)))
            continue
        if isinstance(k, (Array, np.ndarray, list)):
            dt = k.dtype if isinstance(k, (Array, np.ndarray)) else np.asarray(k).dtype
            if dt == np.bool_:
                m = k if isinstance(k, Array) else _array.asarray(np.asarray(k), device=x.device)
                entries.append(("bool", m))
            else:
                entries.append(("int", _index_array(k, x.device)))
            continue
        try:
            entries.append(operator.index(k))
        except TypeError:
            raise IndexError("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and "
                             "integer or boolean arrays are valid indices") from None
    if sum(1 for k in entries if k is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    consumed = sum(1 if not isinstance(k, tuple) else (k[1].ndim if k[0] == "bool" else 1)
                   for k in entries if k is not None and k is not Ellipsis)
    if consumed > x.ndim:
        raise IndexError(f"too many indices for array: array is {x.ndim}-dimensional, but {consumed} were "
                         f"indexed")
    if Ellipsis in [k for k in entries if not isinstance(k, tuple)]:
        at = next(i for i, k in enumerate(entries) if k is Ellipsis)
        entries[at:at + 1] = [slice(None)] * (x.ndim - consumed)
    else:
        entries += [slice(None)] * (x.ndim - consumed)
    return entries


def _plan(Array x, key):
    """(view, axis, flat index, index shape): x[key] is the gather of `view` along `axis` at `flat index` (an
    int64 Array; negative values still to wrap when there was one index array), the result's `axis` dimension
    replaced by `index shape`. Booleans become the positions of their true elements (NumPy's nonzero); several
    index arrays are bounds-checked, wrapped and combined into one flat index over the axes they index."""
    entries = _normalize(x, key)
    expanded = []  # ("idx", Array, on a new axis?) for every index array
    for k in entries:
        if isinstance(k, tuple) and k[0] == "bool":
            mask = k[1]
            if mask.ndim == 0:  # x[True] adds an axis of 1 and x[False] one of 0, both indexed by an array
                expanded.append(("idx", _array.zeros((1 if bool(mask) else 0,), dtype=_INT64, device=x.device),
                                 True))
                continue
            pos = positions(mask)
            for d in range(mask.ndim):
                stride = math.prod(mask.shape[d + 1:])
                coord = pos if mask.ndim == 1 else ((pos // stride) % mask.shape[d] if d else pos // stride)
                expanded.append(("mask", coord, mask.shape[d]))
        elif isinstance(k, tuple):
            expanded.append(("idx", k[1], False))
        else:
            expanded.append(k)
    basic = [(None if k[0] == "idx" and k[2] else slice(None)) if isinstance(k, tuple) else k for k in expanded]
    view = x[tuple(basic)]
    axis_of, ax = {}, 0
    for i, k in enumerate(basic):
        if isinstance(k, slice) or k is None:
            axis_of[i] = ax
            ax += 1
    adv = [i for i, k in enumerate(expanded) if isinstance(k, tuple)]
    adv_axes = [axis_of[i] for i in adv]
    for i in adv:
        k = expanded[i]
        if k[0] == "mask" and view.shape[axis_of[i]] != k[2]:
            raise IndexError(f"boolean index did not match indexed array along axis {axis_of[i]}; size of axis is "
                             f"{view.shape[axis_of[i]]} but size of corresponding boolean axis is {k[2]}")
    arrays = [expanded[i][1] for i in adv]
    shapes = [tuple(a.shape) for a in arrays]
    try:
        ishape = tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together with shapes " +
                         " ".join(str(s) for s in shapes)) from None
    if adv != list(range(adv[0], adv[0] + len(adv))):
        # NumPy: index arrays separated by a slice put the result's index dimensions first
        order = adv_axes + [a for a in range(view.ndim) if a not in adv_axes]
        view = view.transpose(order)
        adv_axes = list(range(len(adv_axes)))
    first = adv_axes[0]
    if len(arrays) == 1:
        flat = arrays[0] if tuple(arrays[0].shape) == ishape else _array.broadcast_to(arrays[0], ishape)
        return view, first, _contiguous(flat), ishape
    extents = [view.shape[a] for a in adv_axes]
    flat = None
    for a, ext, axis in zip(arrays, extents, adv_axes):
        if math.prod(ishape):  # index arrays broadcast to nothing index nothing: NumPy checks no value
            _check_bounds(a, ext, axis)
        w = _wrap(a, ext)
        flat = w if flat is None else flat * ext + w
    flat = _array.broadcast_to(flat, ishape) if tuple(flat.shape) != ishape else flat
    view = view.reshape(view.shape[:first] + (math.prod(extents),) + view.shape[first + len(extents):])
    return view, first, _contiguous(flat), ishape


def _check_bounds(Array idx, int64_t n, axis):
    """IndexError, NumPy's message, for an index outside [-n, n) (waits for the device)."""
    if idx.size == 0:
        return
    lo, hi = int(idx.min()), int(idx.max())
    if lo < -n or hi >= n:
        bad = hi if hi >= n else lo
        raise IndexError(f"index {bad} is out of bounds for axis {axis} with size {n}")


def _wrap(Array idx, int64_t n):
    """Negative indices counted from the end (bounds already checked)."""
    from npgpu import _elementwise
    return _elementwise.where(idx < 0, idx + n, idx)


def getitem(Array x, key):
    """``x[key]`` for keys with index arrays or masks (NumPy's advanced indexing): always a new array.

    What npgpu.Array's indexing calls for such keys. Masks become the positions of their true elements (NumPy's
    nonzero); several index arrays are bounds-checked, wrapped and combined into one flat index over the axes they
    index; index arrays separated by a slice put the result's index dimensions first, as NumPy's. Then one gather
    (npgpu::take). Masks wait for the device (the result's shape needs the count), as do the bounds checks of
    several index arrays.

    Parameters
    ----------
    x : npgpu.Array
        The indexed array.
    key : tuple or index
        The index, as for ``x[key]``: ints, slices, Ellipsis, None, integer arrays or lists (NumPy or npgpu) and
        boolean arrays or scalars (masks), with at least one array, list or boolean.

    Returns
    -------
    npgpu.Array
        A new array on x's device, of NumPy's advanced-indexing shape.

    Raises
    ------
    IndexError
        An index out of bounds; an index array neither of an integer nor of a boolean type; an entry of another
        kind (not an int, slice, Ellipsis, None, array or list); more indices than dimensions; more than one
        Ellipsis; index arrays that do not broadcast together; a mask whose shape does not match the axes it
        indexes.
    ValueError
        An index npgpu.Array on another device than `x`.
    TypeError
        `x` not an npgpu.Array.

    See Also
    --------
    setitem, take

    Examples
    --------
    >>> from npgpu import _indexing
    >>> x = npgpu.asarray([[1, 2, 3], [4, 5, 6]], device="cpu")
    >>> _indexing.getitem(x, ([1, 0], [2, 2]))
    Array([6, 3])
    >>> _indexing.getitem(x, (slice(None), np.array([True, False, True])))
    Array([[1, 3],
           [4, 6]])
    """
    view, axis, flat, ishape = _plan(x, key)
    if flat.size and not math.prod(view.shape[:axis] + view.shape[axis + 1:]):
        _check_bounds(flat, view.shape[axis], axis)  # nothing selected, but NumPy still checks the indices
    try:
        out = _gather(view, axis, flat.reshape(-1))
    except IndexError as e:  # the library does not know which axis: NumPy's message names it
        raise IndexError(str(e).replace("for axis with", f"for axis {axis} with")) from None
    return out.reshape(view.shape[:axis] + ishape + view.shape[axis + 1:])


def setitem(Array x, key, value):
    """``x[key] = value`` for keys with index arrays or masks, in place.

    `value` is broadcast to x[key]'s shape and written in one scatter: a full-shape mask = scalar is one elementwise
    where (no compaction); a lone index array or a full-shape mask scatters into x directly; other keys find their
    flat positions by indexing an array of positions with the same key. NumPy still checks the indices and the
    broadcast where nothing is written, and so does this.

    Parameters
    ----------
    x : npgpu.Array
        The array written to.
    key : tuple or index
        The index, as for ``x[key]``: ints, slices, Ellipsis, None, integer arrays or lists (NumPy or npgpu) and
        boolean arrays or scalars (masks), with at least one array, list or boolean.
    value : npgpu.Array, array_like or scalar
        The values, converted to x's dtype and broadcast to x[key]'s shape.

    Returns
    -------
    None

    Raises
    ------
    ValueError
        `x` read-only; `value` that does not broadcast to x[key]'s shape.
    IndexError
        An index out of bounds; an index array neither of an integer nor of a boolean type; an entry of another
        kind (not an int, slice, Ellipsis, None, array or list); more indices than dimensions; more than one
        Ellipsis; index arrays that do not broadcast together; a mask whose shape does not match the axes it
        indexes.
    ValueError
        An index npgpu.Array on another device than `x`.

    See Also
    --------
    getitem, put

    Examples
    --------
    >>> from npgpu import _indexing
    >>> y = npgpu.asarray([1, 2, 3, 4], device="cpu")
    >>> _indexing.setitem(y, y > 2, 0)
    >>> _indexing.setitem(y, [0, 1], [10, 20])
    >>> y
    Array([10, 20,  0,  0])
    """
    if x._view.readonly:
        raise ValueError("assignment destination is read-only")
    entries = key if isinstance(key, tuple) else (key,)
    # The common x[mask] = scalar with a mask of x's shape: one elementwise where, no compaction.
    if (len(entries) == 1 and isinstance(entries[0], (Array, np.ndarray)) and entries[0].dtype == np.bool_
            and tuple(entries[0].shape) == tuple(x.shape) and not isinstance(value, Array) and np.ndim(value) == 0):
        from npgpu import _elementwise
        m = entries[0] if isinstance(entries[0], Array) else _array.asarray(entries[0], device=x.device)
        _elementwise.where(m, np.asarray(value).astype(x.dtype)[()], x, out=x)
        return
    if len(entries) == 1 and x._view.is_c_contiguous() and x.ndim:
        k = entries[0]
        is_mask = isinstance(k, (Array, np.ndarray)) and k.dtype == np.bool_
        if is_mask and tuple(k.shape) == tuple(x.shape):  # x[mask] = values: scatter at the mask's positions
            m = k if isinstance(k, Array) else _array.asarray(k, device=x.device)
            pos = positions(m)
            _scatter(x.reshape(-1), 0, pos, _values_for(x, value, (pos.size,)))
            return
        if isinstance(k, (Array, np.ndarray, list)) and not is_mask and np.asarray(k).dtype != np.bool_:
            idx = _index_array(k, x.device)  # x[idx] = values: one scatter along the first axis
            if idx.size and not math.prod(x.shape[1:]):
                _check_bounds(idx, x.shape[0], 0)  # nothing written, but NumPy still checks the indices
            try:
                _scatter(x, 0, idx, value)
            except IndexError as e:
                raise IndexError(str(e).replace("for axis with", "for axis 0 with")) from None
            return
    # Other keys: the flat positions of x[key] (the same indexing applied to positions) receive the values.
    from npgpu import _creation
    where = getitem(_creation.arange(x.size, dtype=_INT64, device=x.device).reshape(x.shape), key)
    if where.size == 0:
        _values_for(x, value, where.shape)  # still NumPy's broadcast check
        return
    target = x.reshape(-1) if x._view.is_c_contiguous() else x.copy().reshape(-1)
    _scatter(target, 0, where.reshape(-1), _values_for(x, value, where.shape).reshape(-1))
    if not x._view.is_c_contiguous():
        x[...] = target.reshape(x.shape)


# ------------------------------------------------------------------------------------------- add.at (ufunc.at)

def ufunc_at(name, a, indices, b):
    """NumPy's ``ufunc.at`` for add and subtract: ``a[indices] += b`` (or ``-= b``).

    Unbuffered, so repeated indices accumulate. `a` an npgpu.Array (or a NumPy array, updated by NumPy itself),
    `indices` anything that indexes `a`, `b` broadcast to a[indices]'s shape. On a GPU the additions are atomic:
    integer results equal NumPy's exactly, floating ones up to the order of the additions. Floating values into an
    integer or bool `a` are truncated after each addition, as NumPy does: that fold runs in NumPy, through a copy
    of `a` on the host. Waits for the device (the index check).

    Parameters
    ----------
    name : {'add', 'subtract'}
        The ufunc.
    a : npgpu.Array or numpy.ndarray
        The array updated in place.
    indices : index
        Anything that indexes `a` (ints, slices, integer arrays or lists, masks, or a tuple of them).
    b : npgpu.Array, array_like or scalar
        The values, broadcast to a[indices]'s shape. A Python scalar takes a's dtype (NEP 50), but a float or
        complex one added to integers makes the additions float64 / complex128 (then truncated, see above).

    Returns
    -------
    None

    Raises
    ------
    TypeError
        `a` neither an npgpu.Array nor a numpy.ndarray; `b` missing; a boolean subtraction (`a` or `b` bool).
    ValueError
        `a` read-only; `b` that does not broadcast to a[indices]'s shape.
    IndexError
        An index out of bounds or not a valid index.

    See Also
    --------
    add_at, subtract_at

    Examples
    --------
    >>> from npgpu import _indexing
    >>> a = npgpu.zeros(3, dtype=np.int64, device="cpu")
    >>> _indexing.ufunc_at("add", a, [0, 0, 2], 1)
    >>> a
    Array([2, 0, 1])
    """
    if not isinstance(a, Array):
        if isinstance(a, np.ndarray):
            return getattr(np, name).at(a, indices, b)
        raise TypeError(f"{name}.at: a must be an npgpu.Array or a numpy.ndarray, not {type(a).__name__}")
    cdef Array x = <Array>a
    if x._view.readonly:
        raise ValueError("output array is read-only")
    if b is None:
        raise TypeError(f"{name}.at: second operand needed for ufunc")
    bv = b if isinstance(b, Array) else np.asarray(b)
    if name == "subtract" and (x.dtype == np.bool_ or bv.dtype == np.bool_):
        raise TypeError("numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
                        "operator, or the logical_xor function instead.")
    if not isinstance(b, Array) and bv.ndim == 0 and type(b) in (bool, int, float, complex):
        # a Python scalar takes a's dtype (NEP 50), wrapping as NumPy's add.at does, but a float or complex
        # one added to integers makes the loop float64 / complex128
        work = np.result_type(x.dtype, b) if x.dtype.kind in "biu" and type(b) in (float, complex) else x.dtype
    else:
        work = np.result_type(x.dtype, bv.dtype)
    if x.dtype.kind in "biu" and np.dtype(work).kind in "fc":
        # NumPy casts back to a's integer type after each addition (add.at(int8 [0], [0, 0, 0], 0.7) is 0,
        # not int(2.1)): a fold in index order that no order-free sum reproduces, so NumPy does it here.
        host = x.get()
        key = tuple(e.get() if isinstance(e, Array) else e for e in indices) if isinstance(indices, tuple) \
            else (indices.get() if isinstance(indices, Array) else indices)
        getattr(np, name).at(host, key, bv.get() if isinstance(bv, Array) else bv)
        x[...] = host
        return None
    # The flat positions of a[indices]: a lone integer index array (along the first axis) is used as it is;
    # any other key indexes the array of positions.
    entries = indices if isinstance(indices, tuple) else (indices,)
    k = entries[0]
    lone_index = len(entries) == 1 and x.ndim and isinstance(k, (Array, np.ndarray, list))
    if lone_index:
        lone_index = (k.dtype if isinstance(k, Array) else np.asarray(k).dtype) != np.bool_
    if lone_index:
        idx = _index_array(k, x.device)
        axis_len, inner = x.shape[0], math.prod(x.shape[1:])
        sel_shape = tuple(idx.shape) + tuple(x.shape[1:])
    else:
        from npgpu import _creation
        idx = _index_array(_creation.arange(x.size, dtype=_INT64, device=x.device).reshape(x.shape)[indices],
                           x.device)
        axis_len, inner = x.size, 1
        sel_shape = tuple(idx.shape)
    cdef Array v = bv if isinstance(bv, Array) else _array.asarray(bv, device=x.device)
    if v.dtype != work:
        v = v.astype(work)
    if name == "subtract":
        from npgpu import _elementwise
        v = _elementwise.negative(v)
    v = _array.broadcast_to(v, sel_shape)  # NumPy's error for values that do not fit a[indices]
    # one value is added everywhere without being repeated in memory
    v = v.reshape(-1)[:1].copy() if v.size == 1 else _contiguous(v)
    cdef Array target = x if (x._view.is_c_contiguous() and work == x.dtype) else x.astype(work)
    cdef Array index = _contiguous(idx.reshape(-1))
    cdef int64_t outer = 1, n = axis_len, i = inner
    try:
        with nogil:
            c_scatter_add(target._view, outer, n, i, index._view, v._view, target.stream)
    except IndexError as e:
        raise IndexError(str(e).replace("for axis with", "for axis 0 with")) from None
    if target is not x:
        x[...] = target
    return None


def add_at(a, indices, b=None):
    """``npgpu.add.at(a, indices, b)``: ``a[indices] += b`` with repeated indices accumulating.

    As numpy.add.at (see ufunc_at). Unbuffered, so repeated indices accumulate. `a` an npgpu.Array (or a NumPy
    array, updated by NumPy itself), `indices` anything that indexes `a`, `b` broadcast to a[indices]'s shape. On a
    GPU the additions are atomic: integer results equal NumPy's exactly, floating ones up to the order of the
    additions. Floating values into an integer or bool `a` are truncated after each addition, as NumPy does: that
    fold runs in NumPy, through a copy of `a` on the host. Waits for the device (the index check).

    Parameters
    ----------
    a : npgpu.Array or numpy.ndarray
        The array updated in place.
    indices : index
        Anything that indexes `a` (ints, slices, integer arrays or lists, masks, or a tuple of them).
    b : npgpu.Array, array_like or scalar
        The values, broadcast to a[indices]'s shape. A Python scalar takes a's dtype (NEP 50), but a float or
        complex one added to integers makes the additions float64 / complex128 (then truncated, see above).

    Returns
    -------
    None

    Raises
    ------
    TypeError
        `a` neither an npgpu.Array nor a numpy.ndarray; `b` missing; a boolean subtraction (`a` or `b` bool).
    ValueError
        `a` read-only; `b` that does not broadcast to a[indices]'s shape.
    IndexError
        An index out of bounds or not a valid index.

    See Also
    --------
    ufunc_at, put

    Examples
    --------
    >>> a = npgpu.asarray([10, 10, 10], device="cpu")
    >>> npgpu.add.at(a, [0, 0, 2], 1)
    >>> a
    Array([12, 10, 11])
    >>> i8 = npgpu.zeros(1, dtype=np.int8, device="cpu")
    >>> npgpu.add.at(i8, [0, 0, 0], 0.7)  # truncated after each step, as NumPy's
    >>> i8
    Array([0], dtype=int8)
    """
    return ufunc_at("add", a, indices, b)


def subtract_at(a, indices, b=None):
    """``npgpu.subtract.at(a, indices, b)``: ``a[indices] -= b`` with repeated indices accumulating.

    As numpy.subtract.at (see ufunc_at). Unbuffered, so repeated indices accumulate. `a` an npgpu.Array (or a NumPy
    array, updated by NumPy itself), `indices` anything that indexes `a`, `b` broadcast to a[indices]'s shape. On a
    GPU the additions are atomic: integer results equal NumPy's exactly, floating ones up to the order of the
    additions. Floating values into an integer or bool `a` are truncated after each addition, as NumPy does: that
    fold runs in NumPy, through a copy of `a` on the host. Waits for the device (the index check).

    Parameters
    ----------
    a : npgpu.Array or numpy.ndarray
        The array updated in place.
    indices : index
        Anything that indexes `a` (ints, slices, integer arrays or lists, masks, or a tuple of them).
    b : npgpu.Array, array_like or scalar
        The values, broadcast to a[indices]'s shape. A Python scalar takes a's dtype (NEP 50), but a float or
        complex one added to integers makes the additions float64 / complex128 (then truncated, see above).

    Returns
    -------
    None

    Raises
    ------
    TypeError
        `a` neither an npgpu.Array nor a numpy.ndarray; `b` missing; a boolean subtraction (`a` or `b` bool).
    ValueError
        `a` read-only; `b` that does not broadcast to a[indices]'s shape.
    IndexError
        An index out of bounds or not a valid index.

    See Also
    --------
    ufunc_at, put

    Examples
    --------
    >>> a = npgpu.asarray([10, 10, 10], device="cpu")
    >>> npgpu.subtract.at(a, [0, 0, 2], 1)
    >>> a
    Array([ 8, 10,  9])
    >>> i8 = npgpu.zeros(1, dtype=np.int8, device="cpu")
    >>> npgpu.subtract.at(i8, [0, 0, 0], 0.7)  # truncated after each step, as NumPy's
    >>> i8
    Array([0], dtype=int8)
    """
    return ufunc_at("subtract", a, indices, b)


# ------------------------------------------------------------------------------------------------ take/put

def _as_device_array(a):
    """(npgpu.Array, whether the caller gets NumPy back) for an input of any kind."""
    if isinstance(a, Array):
        return a, False
    _array.refuse_subclass(a, "function")
    if use_cuda_for_host_data():
        return _array.asarray(np.asarray(a)), True
    return _array.asarray(np.asarray(a), device="cpu"), True


def _back(x, numpy_out):
    return x.get() if numpy_out else x


def take(a, indices, axis=None, out=None, mode="raise"):
    """Elements of an array at `indices` along an axis, as numpy.take and the Array API standard's take.

    Along `axis` (None: of the flattened array). Negative indices count from the end. One gather (npgpu::take).

    Parameters
    ----------
    a : npgpu.Array or array_like
        The array. An npgpu.Array is processed on its device; NumPy input (anything NumPy accepts) on the GPU when
        the backend is 'cuda' (the result downloaded), on the host device otherwise.
    indices : array_like or npgpu.Array
        Integer indices (an npgpu.Array on a's device); a scalar gives a result without that axis.
    axis : int or None, optional
        The axis taken from; None (default): the flattened array.
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result (``out[...] = result``); it is returned.
    mode : {'raise', 'wrap', 'clip'}, optional
        What an index outside [-n, n) does, n the length indexed: 'raise' (default) raises IndexError, 'wrap'
        counts it modulo n, 'clip' clips it to [0, n - 1] (negative indices included).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Of shape ``a.shape[:axis] + indices.shape + a.shape[axis + 1:]``, a's dtype: an npgpu.Array on a's device
        for an npgpu.Array input, a NumPy array for NumPy input (a NumPy scalar for one element taken by a
        scalar index, as NumPy). `out` when given.

    Raises
    ------
    IndexError
        mode 'raise' and an index outside [-n, n); mode 'wrap' or 'clip' and a non-empty take from an empty axis;
        `indices` not of an integer type.
    ValueError
        Another `mode`; an `indices` npgpu.Array on another device than `a`.
    TypeError
        `a` a numpy.ndarray subclass (other than numpy.memmap).
    numpy.exceptions.AxisError
        `axis` outside [-a.ndim, a.ndim).

    See Also
    --------
    take_along_axis, put, compress

    Examples
    --------
    >>> x = npgpu.asarray([[1, 2, 3], [4, 5, 6]], device="cpu")
    >>> npgpu.take(x, [2, 0], axis=1)
    Array([[3, 1],
           [6, 4]])
    >>> npgpu.take(np.array([10, 20, 30]), [3, -4], mode="clip")
    array([30, 10])
    """
    x, numpy_out = _as_device_array(a)
    if axis is None:
        x = x.reshape(-1)
        ax = 0
    else:
        ax = operator.index(axis)
        if not -x.ndim <= ax < max(x.ndim, 1):
            raise AxisError(axis, x.ndim)
        ax %= max(x.ndim, 1)
    idx = _index_array(indices, x.device)
    n = x.shape[ax]
    if mode == "wrap":
        if n == 0 and idx.size:
            raise IndexError("cannot do a non-empty take from an empty axes.")
        idx = idx % n if n else idx
    elif mode == "clip":
        if n == 0 and idx.size:
            raise IndexError("cannot do a non-empty take from an empty axes.")
        from npgpu import _elementwise
        idx = _elementwise.clip(idx, 0, max(n - 1, 0))
    elif mode != "raise":
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    res = _gather(x, ax, idx)
    if out is not None:
        out[...] = res
        return out
    res = _back(res, numpy_out)
    return res[()] if numpy_out and res.ndim == 0 else res  # NumPy's scalar for one element taken


def _along_axis(Array x, indices, axis):
    """(x, as flattened for axis=None; the flat positions in x's C order that numpy.take_along_axis and
    put_along_axis address, an int64 Array of the result's shape). Indices are checked and wrapped; the
    other axes broadcast between x and indices."""
    idx = _index_array(indices, x.device)
    if axis is None:
        x = x.reshape(-1)
        axis = 0
        if idx.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
    if idx.ndim != x.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    ax = operator.index(axis)
    if not -x.ndim <= ax < x.ndim:
        raise AxisError(axis, x.ndim)
    ax %= x.ndim
    n = x.shape[ax]
    shape = list(np.broadcast_shapes(tuple(s if d != ax else 1 for d, s in enumerate(x.shape)),
                                     tuple(s if d != ax else 1 for d, s in enumerate(idx.shape))))
    shape[ax] = idx.shape[ax]
    shape = tuple(shape)
    _check_bounds(idx, n, ax)
    strides = [math.prod(x.shape[d + 1:]) for d in range(x.ndim)]
    from npgpu import _creation
    flat = _wrap(idx, n) * strides[ax]
    for d in range(x.ndim):
        if d != ax and x.shape[d] > 1:  # an axis of 1 in x broadcasts: coordinate 0
            coord = _creation.arange(x.shape[d], dtype=_INT64, device=x.device).reshape(
                tuple(x.shape[d] if e == d else 1 for e in range(x.ndim)))
            flat = flat + coord * strides[d]
    return x, _contiguous(_array.broadcast_to(flat, shape).copy() if tuple(flat.shape) != shape else flat)


def take_along_axis(arr, indices, axis=-1):
    """Values of an array at `indices` along an axis, the other axes matched by broadcasting.

    As numpy.take_along_axis and the Array API standard's (axis=None: of the flattened array). Negative indices
    count from the end; checking them waits for the device.

    Parameters
    ----------
    arr : npgpu.Array or array_like
        The source array. An npgpu.Array is processed on its device; NumPy input (anything NumPy accepts) on the GPU
        when the backend is 'cuda' (the result downloaded), on the host device otherwise.
    indices : array_like or npgpu.Array
        Integer indices of arr's number of dimensions (1-D for axis None), broadcasting with `arr` along the
        other axes.
    axis : int or None, optional
        The axis indexed (default -1, the last); None: the flattened array.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Of arr's dtype, of the broadcast shape with indices' length along `axis`: an npgpu.Array on arr's device for
        an npgpu.Array input, a NumPy array for NumPy input.

    Raises
    ------
    ValueError
        `indices` of another number of dimensions than `arr`; axis None and `indices` not 1-D; shapes that do not
        broadcast; an `indices` npgpu.Array on another device.
    IndexError
        An index outside [-n, n), n the length of `axis`; `indices` not of an integer type.
    numpy.exceptions.AxisError
        `axis` outside [-arr.ndim, arr.ndim).
    TypeError
        `arr` a numpy.ndarray subclass (other than numpy.memmap).

    See Also
    --------
    take, put_along_axis, argsort

    Examples
    --------
    >>> x = npgpu.asarray([[10, 30, 20], [60, 40, 50]], device="cpu")
    >>> npgpu.take_along_axis(x, npgpu.argsort(x, axis=1), axis=1)
    Array([[10, 20, 30],
           [40, 50, 60]])
    >>> npgpu.take_along_axis(np.array([[10, 30, 20], [60, 40, 50]]), np.array([[0], [1]]), axis=1)
    array([[10],
           [40]])
    """
    x, numpy_out = _as_device_array(arr)
    x, flat = _along_axis(x, indices, axis)
    res = _gather(_contiguous(x).reshape(-1), 0, flat.reshape(-1))
    return _back(res.reshape(flat.shape), numpy_out)


def put_along_axis(arr, indices, values, axis):
    """Set the elements of an array at `indices` along an axis to `values`, in place, as numpy.put_along_axis.

    `values` is broadcast to the indexed shape. A NumPy `arr` is changed in its own memory on the host backend; with
    the 'cuda' backend it is uploaded, updated on the GPU and copied back.

    Parameters
    ----------
    arr : npgpu.Array or numpy.ndarray
        The array written to (writeable).
    indices : array_like or npgpu.Array
        Integer indices of arr's number of dimensions (1-D for axis None), as for take_along_axis.
    values : npgpu.Array, array_like or scalar
        The values, converted to arr's dtype and broadcast to the indexed shape.
    axis : int or None
        The axis indexed; None: the flattened array.

    Returns
    -------
    None

    Raises
    ------
    TypeError
        `arr` neither an npgpu.Array nor a numpy.ndarray.
    ValueError
        `arr` read-only; `indices` of another number of dimensions than `arr`; axis None and `indices` not 1-D;
        shapes that do not broadcast; an `indices` npgpu.Array on another device.
    IndexError
        An index outside [-n, n), n the length of `axis`; `indices` not of an integer type.
    numpy.exceptions.AxisError
        `axis` outside [-arr.ndim, arr.ndim).

    See Also
    --------
    take_along_axis, put

    Examples
    --------
    >>> x = npgpu.asarray([[1, 2, 3], [4, 5, 6]], device="cpu")
    >>> npgpu.put_along_axis(x, np.array([[0], [2]]), 0, axis=1)
    >>> x
    Array([[0, 2, 3],
           [4, 5, 0]])
    >>> n = np.array([[1, 2], [3, 4]])
    >>> npgpu.put_along_axis(n, np.array([[1], [0]]), -1, axis=1)
    >>> n
    array([[ 1, -1],
           [-1,  4]])
    """
    if not isinstance(arr, Array):
        if not isinstance(arr, np.ndarray):
            raise TypeError(f"put_along_axis: arr must be an npgpu.Array or a numpy.ndarray, not "
                            f"{type(arr).__name__}")
        on_gpu = use_cuda_for_host_data()
        x = _array.asarray(arr) if on_gpu else _array.asarray(arr, device="cpu")  # the host device shares memory
        put_along_axis(x, indices, values, axis)
        if on_gpu:
            arr[...] = x.get()
        return None
    if (<Array>arr)._view.readonly:
        raise ValueError("assignment destination is read-only")
    x, flat = _along_axis(arr, indices, axis)
    v = _values_for(arr, values, flat.shape)
    target = arr.reshape(-1) if (<Array>arr)._view.is_c_contiguous() else arr.copy().reshape(-1)
    _scatter(target, 0, flat.reshape(-1), v.reshape(-1))
    if not (<Array>arr)._view.is_c_contiguous():
        arr[...] = target.reshape(arr.shape)
    return None


def put(a, ind, v, mode="raise"):
    """``a.flat[ind] = v`` in place, as numpy.put.

    `v` is repeated when shorter than `ind` (only its first len(ind) values are used when longer); an empty `ind`
    or `v` writes nothing. A NumPy `a` is changed in its own memory on the host backend; with the 'cuda' backend it
    is uploaded, updated on the GPU and copied back.

    Parameters
    ----------
    a : npgpu.Array or numpy.ndarray
        The array written to (writeable).
    ind : array_like or npgpu.Array
        Integer positions in the flattened `a`.
    v : npgpu.Array, array_like or scalar
        The values, converted to a's dtype.
    mode : {'raise', 'wrap', 'clip'}, optional
        What an index outside [-n, n) does, n the length indexed: 'raise' (default) raises IndexError, 'wrap'
        counts it modulo n, 'clip' clips it to [0, n - 1] (negative indices included).

    Returns
    -------
    None

    Raises
    ------
    TypeError
        `a` neither an npgpu.Array nor a numpy.ndarray.
    ValueError
        Another `mode`; `a` read-only.
    IndexError
        mode 'raise' and an index outside [-n, n), n = a.size; `ind` not of an integer type.

    See Also
    --------
    take, put_along_axis, add_at

    Examples
    --------
    >>> z = npgpu.asarray([0, 0, 0, 0, 0], device="cpu")
    >>> npgpu.put(z, [0, 2, 4], [7, 8])
    >>> z
    Array([7, 0, 8, 0, 7])
    >>> npgpu.put(z, [9], -1, mode="clip")
    >>> z
    Array([ 7,  0,  8,  0, -1])
    """
    if not isinstance(a, Array):
        if not isinstance(a, np.ndarray):
            raise TypeError(f"put: a must be an npgpu.Array or a numpy.ndarray, not {type(a).__name__}")
        on_gpu = use_cuda_for_host_data()
        x = _array.asarray(a) if on_gpu else _array.asarray(a, device="cpu")  # the host device shares a's memory
        put(x, ind, v, mode)
        if on_gpu:
            a[...] = x.get()
        return None
    idx = _index_array(ind, a.device).reshape(-1)
    n = a.size
    if mode == "wrap":
        idx = idx % n if n else idx
    elif mode == "clip":
        from npgpu import _elementwise
        idx = _elementwise.clip(idx, 0, max(n - 1, 0))
    elif mode != "raise":
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    if idx.size == 0:
        return None
    vals = v if isinstance(v, Array) else _array.asarray(np.asarray(v), device=a.device)
    vals = vals.reshape(-1)
    if vals.size == 0:
        return None
    if vals.size != idx.size:
        reps = -(-idx.size // vals.size)
        from npgpu import _manipulation
        vals = _manipulation.tile(vals, reps)[:idx.size]
    flat = a.reshape(-1) if (<Array>a)._view.is_c_contiguous() else None
    if flat is None:
        c = a.copy()
        put(c, idx, vals, "raise")
        a[...] = c
        return None
    _scatter(flat, 0, idx, vals)
    return None


# ------------------------------------------------------------------------------------------------ searching

def nonzero(a):
    """The indices of the nonzero elements, one int64 array per dimension, in C order.

    As numpy.nonzero and the Array API standard's nonzero (0-d inputs raise ValueError, as NumPy 2). NaN counts as
    nonzero. Waits for the device: the count sizes the result.

    Parameters
    ----------
    a : npgpu.Array or array_like
        The array. An npgpu.Array is processed on its device; NumPy input (anything NumPy accepts) on the GPU when
        the backend is 'cuda' (the result downloaded), on the host device otherwise.

    Returns
    -------
    tuple of npgpu.Array or of numpy.ndarray
        a.ndim int64 1-D arrays, the coordinates of the nonzero elements along each axis: npgpu.Arrays on a's
        device for an npgpu.Array input, NumPy arrays for NumPy input.

    Raises
    ------
    ValueError
        A 0-d `a`.
    TypeError
        `a` a numpy.ndarray subclass (other than numpy.memmap).

    See Also
    --------
    flatnonzero, argwhere, count_nonzero

    Examples
    --------
    >>> x = npgpu.asarray([[0, 2, 0], [4, 0, 6]], device="cpu")
    >>> npgpu.nonzero(x)
    (Array([0, 1, 1]), Array([1, 0, 2]))
    >>> npgpu.nonzero(np.array([0, 1, 0, 3]))
    (array([1, 3]),)
    """
    x, numpy_out = _as_device_array(a)
    if x.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() "
                         "instead. If the context of this error is of the form `arr.nonzero()`, please "
                         "use `np.atleast_1d(arr).nonzero()` instead.")
    pos = positions(x)
    out = []
    for d in range(x.ndim):
        stride = math.prod(x.shape[d + 1:])
        coord = pos if x.ndim == 1 else (pos // stride) % x.shape[d] if d else pos // stride
        out.append(_back(_contiguous(coord), numpy_out))
    return tuple(out)


def flatnonzero(a):
    """Positions of the nonzero elements of the flattened array (int64), as numpy.flatnonzero.

    NaN counts as nonzero. Waits for the device: the count sizes the result.

    Parameters
    ----------
    a : npgpu.Array or array_like
        The array. An npgpu.Array is processed on its device; NumPy input (anything NumPy accepts) on the GPU when
        the backend is 'cuda' (the result downloaded), on the host device otherwise.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        int64, 1-D, the positions in C order: an npgpu.Array on a's device for an npgpu.Array input, a NumPy array
        for NumPy input.

    Raises
    ------
    TypeError
        `a` a numpy.ndarray subclass (other than numpy.memmap).

    See Also
    --------
    nonzero, argwhere

    Examples
    --------
    >>> npgpu.flatnonzero(npgpu.asarray([[0, 2, 0], [4, 0, 6]], device="cpu"))
    Array([1, 3, 5])
    >>> npgpu.flatnonzero(np.array([0.0, np.nan, -0.0, 1.0]))
    array([1, 3])
    """
    x, numpy_out = _as_device_array(a)
    return _back(_contiguous(positions(x.reshape(-1))), numpy_out)


def argwhere(a):
    """The indices of the nonzero elements as an (N, ndim) int64 array, as numpy.argwhere.

    One row per nonzero element, in C order. A 0-d input gives shape (1, 0) when nonzero, (0, 0) otherwise, as
    NumPy's. Waits for the device: the count sizes the result.

    Parameters
    ----------
    a : npgpu.Array or array_like
        The array. An npgpu.Array is processed on its device; NumPy input (anything NumPy accepts) on the GPU when
        the backend is 'cuda' (the result downloaded), on the host device otherwise.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        int64, of shape (N, a.ndim): an npgpu.Array on a's device for an npgpu.Array input, a NumPy array for NumPy
        input.

    Raises
    ------
    TypeError
        `a` a numpy.ndarray subclass (other than numpy.memmap).

    See Also
    --------
    nonzero, flatnonzero

    Examples
    --------
    >>> npgpu.argwhere(npgpu.asarray([[0, 2, 0], [4, 0, 6]], device="cpu"))
    Array([[0, 1],
           [1, 0],
           [1, 2]])
    >>> npgpu.argwhere(np.array([0, 5, 0, 7]))
    array([[1],
           [3]])
    """
    x, numpy_out = _as_device_array(a)
    if x.ndim == 0:
        x = x.reshape(1)
        res = positions(x).reshape(-1, 1)[:, :0]
        return _back(_contiguous(res), numpy_out)
    from npgpu import _manipulation
    res = _manipulation.stack(nonzero(x), axis=1) if x.size else _array.zeros((0, x.ndim), dtype=_INT64,
                                                                               device=x.device)
    return _back(res, numpy_out)


def searchsorted(a, v, side="left", sorter=None):
    """Where the elements of `v` go in the ascending 1-D `a` to keep it sorted, as numpy.searchsorted.

    Also the Array API standard's searchsorted. ``side='left'``: before equal elements, 'right': after them. NaNs
    are greater than every number, as NumPy's sort puts them. `a` and `v` are compared in their common dtype
    (numpy.result_type). One binary search per element of `v` (npgpu::search_sorted); on the GPU, millions of
    queries into an array larger than its caches are sorted first, so that neighbouring searches share loads.

    Parameters
    ----------
    a : npgpu.Array or array_like
        The 1-D array, sorted ascending (or put in order by `sorter`). An npgpu.Array is searched on its device;
        NumPy input on the GPU when the backend is 'cuda', on the host device otherwise.
    v : npgpu.Array, array_like or scalar
        The values to place.
    side : {'left', 'right'}, optional
        'left' (default): the first suitable position; 'right': the last.
    sorter : array_like or npgpu.Array, optional
        The positions that sort `a` (as argsort gives); `a` is taken in that order first.

    Returns
    -------
    npgpu.Array, numpy.ndarray or NumPy scalar
        int64 positions of v's shape: an npgpu.Array when `a` or `v` is an npgpu.Array; otherwise a NumPy array,
        or a NumPy int64 for a scalar `v`.

    Raises
    ------
    ValueError
        `side` neither 'left' nor 'right'; `a` not 1-D.
    TypeError
        `a` a numpy.ndarray subclass (other than numpy.memmap).

    See Also
    --------
    sort, argsort

    Examples
    --------
    >>> a = npgpu.asarray([1.0, 2.0, 2.0, np.nan], device="cpu")
    >>> npgpu.searchsorted(a, npgpu.asarray([2.0, 5.0, np.nan], device="cpu"))
    Array([1, 3, 3])
    >>> npgpu.searchsorted(np.array([1, 2, 2, 3]), [2, 5], side="right")
    array([3, 4])
    """
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right' (got {side!r})")
    x, numpy_out = _as_device_array(a)
    if x.ndim != 1:
        raise ValueError("object too deep for desired array" if x.ndim > 1 else "object of too small depth "
                         "for desired array")
    if sorter is not None:
        x = take(x, sorter)
    q = v if isinstance(v, Array) else _array.asarray(np.asarray(v), device=x.device)
    dt = np.result_type(x.dtype, q.dtype)
    cdef Array xs = _contiguous(x.astype(dt, copy=False))
    cdef Array qs = _contiguous(q.astype(dt, copy=False))
    cdef Array out = new_array(tuple(qs.shape), _INT64, qs._view.device, qs.stream)
    cdef bint right = side == "right"
    with nogil:
        c_search_sorted(xs._view, qs._view, out._view, right, qs.stream)
    if not isinstance(v, Array) and numpy_out:
        res = out.get()
        return res[()] if np.ndim(v) == 0 else res
    return out


def compress(condition, a, axis=None, out=None):
    """The slices of an array along an axis where a 1-D boolean condition is true, as numpy.compress.

    Along `axis` (None: of the flattened array). A condition shorter than the axis counts as False beyond its end.
    Waits for the device: the count sizes the result.

    Parameters
    ----------
    condition : npgpu.Array or array_like
        1-D; its nonzero (true) positions select the slices.
    a : npgpu.Array or array_like
        The array. An npgpu.Array is processed on its device; NumPy input (anything NumPy accepts) on the GPU when
        the backend is 'cuda' (the result downloaded), on the host device otherwise.
    axis : int or None, optional
        The axis selected along; None (default): the flattened array.
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result (``out[...] = result``); it is returned.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        a's slices at the true positions, a's dtype: an npgpu.Array on a's device for an npgpu.Array input, a NumPy
        array for NumPy input. `out` when given.

    Raises
    ------
    ValueError
        `condition` not 1-D.
    IndexError
        A true `condition` entry beyond the length of `axis`.
    TypeError
        `a` a numpy.ndarray subclass (other than numpy.memmap).
    numpy.exceptions.AxisError
        `axis` outside [-a.ndim, a.ndim).

    See Also
    --------
    extract, take

    Examples
    --------
    >>> x = npgpu.asarray([[1, 2, 3], [4, 5, 6]], device="cpu")
    >>> npgpu.compress([False, True], x, axis=0)
    Array([[4, 5, 6]])
    >>> npgpu.compress([True, False, True], np.array([[1, 2, 3], [4, 5, 6]]), axis=1)
    array([[1, 3],
           [4, 6]])
    """
    x, numpy_out = _as_device_array(a)
    c = condition if isinstance(condition, Array) else _array.asarray(np.asarray(condition), device=x.device)
    if c.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    if axis is None:
        x = x.reshape(-1)
        axis = 0
    ax = operator.index(axis)
    if not -x.ndim <= ax < x.ndim:
        raise AxisError(axis, x.ndim)
    ax %= x.ndim
    n = x.shape[ax]
    hit = positions(c)
    if hit.size and int(hit[hit.size - 1]) >= n:
        raise IndexError(f"index {int(hit[hit.size - 1])} is out of bounds for axis {ax} with size {n}")
    res = _gather(x, ax, _contiguous(hit))
    if out is not None:
        out[...] = res
        return out
    return _back(res, numpy_out)


def extract(condition, arr):
    """The elements of an array where a condition is nonzero, as numpy.extract.

    `condition` may have any shape: its flattened values select among the flattened `arr`'s. Waits for the device:
    the count sizes the result.

    Parameters
    ----------
    condition : npgpu.Array or array_like
        Nonzero (true) where an element is selected.
    arr : npgpu.Array or array_like
        The source array. An npgpu.Array is processed on its device; NumPy input (anything NumPy accepts) on the GPU
        when the backend is 'cuda' (the result downloaded), on the host device otherwise.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        1-D, of arr's dtype: an npgpu.Array on arr's device for an npgpu.Array input, a NumPy array for NumPy input.

    Raises
    ------
    IndexError
        A nonzero `condition` entry beyond arr.size.
    TypeError
        `arr` a numpy.ndarray subclass (other than numpy.memmap).

    See Also
    --------
    compress, flatnonzero

    Examples
    --------
    >>> x = npgpu.asarray([[0, 2, 0], [4, 0, 6]], device="cpu")
    >>> npgpu.extract(x > 3, x)
    Array([4, 6])
    >>> npgpu.extract(np.array([[True, False], [False, True]]), np.array([[1, 2], [3, 4]]))
    array([1, 4])
    """
    x, numpy_out = _as_device_array(arr)
    c = condition if isinstance(condition, Array) else _array.asarray(np.asarray(condition), device=x.device)
    flat = x.reshape(-1)
    hit = positions(c.reshape(-1))
    if hit.size and int(hit[hit.size - 1]) >= flat.size:
        raise IndexError(f"index {int(hit[hit.size - 1])} is out of bounds for axis 0 with size {flat.size}")
    return _back(_gather(flat, 0, _contiguous(hit)), numpy_out)


def choose(a, choices, out=None, mode="raise"):
    """Elementwise pick from `choices` by the integer array `a`, as numpy.choose.

    ``choices[a[i]][i]``, `a` and the choices broadcast together, in the choices' common dtype.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Integer indices into `choices`. An npgpu.Array is processed on its device; NumPy input on the GPU when the
        backend is 'cuda', on the host device otherwise.
    choices : sequence of array_like or npgpu.Array, or an npgpu.Array
        The arrays picked from (an npgpu.Array: one choice per index of its first axis).
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result (``out[...] = result``); it is returned.
    mode : {'raise', 'wrap', 'clip'}, optional
        What a value outside [0, len(choices)) does: 'raise' (default) raises ValueError, 'wrap' counts it
        modulo len(choices), 'clip' clips it to [0, len(choices) - 1].

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Of the broadcast shape: an npgpu.Array on a's device for an npgpu.Array input, a NumPy array for NumPy
        input. `out` when given.

    Raises
    ------
    ValueError
        No choices; mode 'raise' and a value outside [0, len(choices)); another `mode`; shapes that do not
        broadcast together.
    TypeError
        `a` of a type that does not cast safely to intp (floats, complex, uint64), as NumPy; `a` a
        numpy.ndarray subclass (other than numpy.memmap).

    See Also
    --------
    take_along_axis, where

    Examples
    --------
    >>> npgpu.choose(np.array([0, 1, 0]), [np.array([1, 2, 3]), np.array([10, 20, 30])])
    array([ 1, 20,  3])
    >>> idx = npgpu.asarray([2, 0, 1], device="cpu")
    >>> npgpu.choose(idx, [[1, 2, 3], [10, 20, 30], [100, 200, 300]])
    Array([100,   2,  30])
    """
    x, numpy_out = _as_device_array(a)
    if isinstance(choices, Array):
        choices = [choices[i] for i in range(choices.shape[0])]
    cs = [c if isinstance(c, Array) else _array.asarray(np.asarray(c), device=x.device) for c in choices]
    if not cs:
        raise ValueError("0-length sequence.")
    from npgpu import _manipulation, _elementwise
    n = len(cs)
    if not np.can_cast(x.dtype, np.intp, "safe"):  # NumPy's check and message
        raise TypeError(f"Cannot cast array data from {x.dtype!r} to {np.dtype(np.intp)!r} according to the rule "
                        f"'safe'")
    idx = _index_array(x.astype(np.intp) if x.dtype == np.bool_ else x, x.device)
    if mode == "wrap":
        idx = idx % n
    elif mode == "clip":
        idx = _elementwise.clip(idx, 0, n - 1)
    elif mode != "raise":
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    elif idx.size and (int(idx.min()) < 0 or int(idx.max()) >= n):
        raise ValueError("invalid entry in choice array")
    shape = np.broadcast_shapes(tuple(idx.shape), *[tuple(c.shape) for c in cs])
    dt = np.result_type(*[c.dtype for c in cs])
    stacked = _manipulation.stack([_array.broadcast_to(c.astype(dt, copy=False), shape) for c in cs])
    picked = take_along_axis(stacked, _array.broadcast_to(idx, shape)[None], axis=0)[0]
    if out is not None:
        out[...] = picked
        return out
    return _back(_contiguous(picked), numpy_out)


_array._register_op("getitem_advanced", getitem)
_array._register_op("setitem_advanced", setitem)
