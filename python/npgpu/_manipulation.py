"""Array manipulation of the Array API standard and NumPy: joining, splitting, broadcasting, reordering,
repeating and padding; selecting by conditions (select, piecewise) and writing through masks in place (place,
putmask); applying Python functions along axes (apply_along_axis, apply_over_axes); bit packing (packbits,
unpackbits); sort_complex; strided views (as_strided, sliding_window_view) and the broadcast object. Views wherever
NumPy gives views (flip, expand_dims, broadcast_to, split, moveaxis, sliding_window_view);
otherwise one output allocation filled by slice assignments, which run the copy kernel of the array's device
(memory-speed copies on the GPU), never loops over elements (`repeat` with one count per element: one copy per
run of equal counts).

Inputs that are not npgpu.Arrays (NumPy arrays, lists, scalars) are converted with ``npgpu.asarray`` onto the
device of the npgpu.Arrays beside them (the default device when there are none); npgpu.Arrays on different
devices raise ValueError. Shapes, axes and counts live on the host, so no function here reads array data back
from the device except where the output's shape depends on it: an npgpu.Array of counts (`repeat`) or indices
(`array_split`, `insert`, `delete`) is read back, and `trim_zeros` reads back the bounds of the non-zero part.
The masked functions (`piecewise`, `place`, `putmask`) compact their masks on the device, whose sizes the
host then learns; `apply_along_axis`, `apply_over_axes` and `piecewise` run the Python functions given to them,
with npgpu.Arrays."""
import itertools
import math
import operator

import numpy as np
from numpy.exceptions import AxisError

from npgpu import _array, _elementwise, _indexing, _reduce, _runtime, _sorting

__all__ = ["concat", "concatenate", "stack", "unstack", "split", "array_split", "hstack", "vstack", "dstack",
           "column_stack", "broadcast", "broadcast_to", "broadcast_arrays", "broadcast_shapes", "as_strided",
           "sliding_window_view", "expand_dims", "squeeze",
           "flip", "roll", "moveaxis", "swapaxes", "permute_dims", "transpose", "repeat", "tile", "pad",
           "reshape", "ravel", "atleast_1d", "atleast_2d", "atleast_3d", "fliplr", "flipud", "rot90", "rollaxis",
           "hsplit", "vsplit", "dsplit", "append", "insert", "delete", "resize", "trim_zeros", "block",
           "select", "piecewise", "place", "putmask", "apply_along_axis", "apply_over_axes", "packbits", "unpackbits",
           "sort_complex"]


# ------------------------------------------------------------------------------------------------ helpers

def _axis(axis, ndim, name="axis"):
    """`axis` in [0, ndim) (negative counts from the end); AxisError when out of range, as NumPy."""
    a = operator.index(axis)
    if not -ndim <= a < ndim:
        raise AxisError(a, ndim, None if name == "axis" else name)
    return a % ndim


def _axes(axis, ndim, name="axis"):
    """A tuple of distinct normalised axes from an int or a sequence (NumPy's normalize_axis_tuple)."""
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    norm = tuple(_axis(a, ndim, name) for a in axes)
    if len(set(norm)) != len(norm):
        raise ValueError(f"repeated axis in `{name}` argument" if name != "axis" else "repeated axis")
    return norm


def _same_device(a, b):
    return str(a) == str(b)


def _on_one_device(arrays, name, device=None):
    """The arrays as npgpu.Arrays on one device: npgpu.Arrays set the device (`device`, when given, must
    agree), other inputs are converted onto it; ValueError for npgpu.Arrays on different devices."""
    arrays = list(arrays)
    devs = []
    for a in arrays:
        if isinstance(a, _array.Array) and not any(_same_device(a.device, d) for d in devs):
            devs.append(a.device)
    if len(devs) > 1:
        raise ValueError(f"{name}: the arrays are on different devices ({', '.join(str(d) for d in devs)}); "
                         f"move them to one with .to_device()")
    dev = devs[0] if devs else device
    if devs and device is not None:
        want = _array.empty((0,), device=device).device
        if not _same_device(want, dev):
            raise ValueError(f"{name}: the arrays are on {dev}, not on the requested device {want}")
    return [a if isinstance(a, _array.Array) else _array.asarray(a, device=dev) for a in arrays]


def _one(x):
    """`x` as an npgpu.Array (non-Arrays go to the default device)."""
    return x if isinstance(x, _array.Array) else _array.asarray(x)


def _key(ndim, axis, index):
    """The indexing key that applies `index` to `axis` and takes all of the other axes."""
    return (slice(None),) * axis + (index,) + (slice(None),) * (ndim - axis - 1)


def _sequence(arrays, name):
    """The arrays of a NumPy-style sequence argument (an npgpu.Array is a sequence of its sub-arrays)."""
    if isinstance(arrays, np.ndarray):  # one transfer, not one per sub-array
        arrays = _array.asarray(arrays)
    if isinstance(arrays, _array.Array):
        if arrays.ndim == 0:
            raise TypeError(f"{name}: expected a sequence of arrays, got a 0-d array")
        return [arrays[i] for i in range(arrays.shape[0])]
    try:
        return list(arrays)
    except TypeError:
        raise TypeError(f"{name}: expected a sequence of arrays, got {type(arrays).__name__}") from None


# ------------------------------------------------------------------------------------------------ joining

def concatenate(arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    """Join arrays along an existing axis, as numpy.concatenate.

    The result dtype is NumPy's promotion of the inputs' dtypes (or `dtype`, or out's dtype), each input checked
    against it with `casting`.

    Parameters
    ----------
    arrays : sequence of npgpu.Array or array_like
        The arrays: one number of dimensions, equal sizes except along `axis`. An npgpu.Array (or a NumPy array)
        stands for the sequence of its sub-arrays along its first axis. npgpu.Arrays decide the device; other inputs
        are converted onto it with ``npgpu.asarray`` (the default device when there is no npgpu.Array).
    axis : int or None, optional
        The axis joined along (default 0). None: each array flattened first.
    out : npgpu.Array, optional
        Where to write the result: the result's shape, on the inputs' device; its dtype is the result's.
    dtype : dtype, optional
        The result's dtype; not with `out`.
    casting : {"no", "equiv", "safe", "same_kind", "unsafe"}, optional
        NumPy's rule the cast of each input to the result's dtype must satisfy (default "same_kind").

    Returns
    -------
    npgpu.Array
        `out` when given, else a new array.

    Raises
    ------
    ValueError
        No arrays; 0-d arrays (unless ``axis=None``); numbers of dimensions or sizes off `axis` that differ; `out` of
        the wrong shape; npgpu.Arrays on different devices (or not on out's).
    TypeError
        Both `out` and `dtype` given; `out` not an npgpu.Array; an input whose dtype does not cast to the result's
        under `casting`; `arrays` not a sequence (or a 0-d array).
    numpy.exceptions.AxisError
        `axis` out of range.

    See Also
    --------
    concat, stack, hstack, vstack, split

    Notes
    -----
    One output allocation and one slice copy per input; one batched copy (one launch on a GPU) for all of them
    where every input is a C-contiguous array of the result's dtype and every block of the output a C-contiguous
    run of it.

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2], [3, 4]], device="cpu")
    >>> npgpu.concatenate([a, npgpu.asarray([[5, 6]], device="cpu")])
    Array([[1, 2],
           [3, 4],
           [5, 6]])
    >>> npgpu.concatenate([a, np.array([[5], [6]])], axis=1)
    Array([[1, 2, 5],
           [3, 4, 6]])
    >>> npgpu.concatenate([a, np.array([1.5])], axis=None)
    Array([1. , 2. , 3. , 4. , 1.5])
    """
    arrays = _on_one_device(_sequence(arrays, "concatenate"), "concatenate",
                            out.device if isinstance(out, _array.Array) else None)
    if out is not None and dtype is not None:
        raise TypeError("concatenate() only takes `out` or `dtype` as an argument, but both were provided.")
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    if axis is None:
        shape = (sum(a.size for a in arrays),)
    else:
        nd = arrays[0].ndim
        if nd == 0:
            raise ValueError("zero-dimensional arrays cannot be concatenated")
        ax = _axis(axis, nd)
        for i, a in enumerate(arrays):
            if a.ndim != nd:
                raise ValueError(f"all the input arrays must have same number of dimensions, but the array at "
                                 f"index 0 has {nd} dimension(s) and the array at index {i} has {a.ndim} "
                                 f"dimension(s)")
            for d in range(nd):
                if d != ax and a.shape[d] != arrays[0].shape[d]:
                    raise ValueError(f"all the input array dimensions except for the concatenation axis must "
                                     f"match exactly, but along dimension {d}, the array at index 0 has size "
                                     f"{arrays[0].shape[d]} and the array at index {i} has size {a.shape[d]}")
        shape = list(arrays[0].shape)
        shape[ax] = sum(a.shape[ax] for a in arrays)
        shape = tuple(shape)
    if out is not None:
        if not isinstance(out, _array.Array):
            raise TypeError(f"concatenate: out must be an npgpu.Array, not {type(out).__name__}")
        if out.shape != shape:
            raise ValueError(f"Output array is the wrong shape: {out.shape}, the result has shape {shape}")
        res = out.dtype
    else:
        res = np.result_type(*[a.dtype for a in arrays]) if dtype is None else np.dtype(dtype)
    for a in arrays:
        if not np.can_cast(a.dtype, res, casting=casting):
            raise TypeError(f"Cannot cast array data from {a.dtype!r} to {res!r} according to the rule "
                            f"{casting!r}")
    if out is None:
        out = _array.empty(shape, dtype=res, device=arrays[0].device)
    # With axis=None an output block is C-contiguous (when out is): each input is copied into a view of
    # its block in the input's own shape, without flattening it first.
    dst_flat = out if axis is None and _is_contiguous(out, "C") else None
    if _join_in_one_batch(arrays, out, axis if axis is None else ax):
        return out
    pos = 0
    for a in arrays:
        n = a.size if axis is None else a.shape[ax]
        if n and axis is None:
            if dst_flat is not None:
                dst_flat[pos:pos + n].reshape(a.shape)[...] = a
            else:
                out[pos:pos + n] = a.reshape(-1)
        elif n:
            out[_key(nd, ax, slice(pos, pos + n))] = a
        pos += n
    return out


def _join_in_one_batch(arrays, out, axis):
    """Copy `arrays` into their blocks of `out` with one batched copy (one launch on a GPU), where every
    block is a C-contiguous run of out and every input a C-contiguous array of out's dtype; False (nothing
    done) otherwise."""
    if len(arrays) < 2 or not _is_contiguous(out, "C"):
        return False
    if axis is not None and math.prod(out.shape[:axis]) != 1:
        return False
    if any(a.dtype != out.dtype or not _is_contiguous(a, "C") for a in arrays):
        return False
    flat = out.reshape(-1)
    dsts, pos = [], 0
    for a in arrays:
        dsts.append(flat[pos:pos + a.size])
        pos += a.size
    _array.copy_batch(arrays, dsts)
    return True


def concat(arrays, /, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """Join arrays along an existing axis: the Array API standard's name for concatenate.

    The result's dtype is NumPy's promotion of the inputs' dtypes.

    Parameters
    ----------
    arrays : sequence of npgpu.Array or array_like
        The arrays: one number of dimensions, equal sizes except along `axis`. An npgpu.Array (or a NumPy array)
        stands for the sequence of its sub-arrays along its first axis. npgpu.Arrays decide the device; other inputs
        are converted onto it with ``npgpu.asarray`` (the default device when there is no npgpu.Array).
    axis : int or None, optional
        The axis joined along (default 0). None: each array flattened first.
    out, dtype, casting : optional
        As concatenate's (NumPy's concat is its other name, with these keywords).

    Returns
    -------
    npgpu.Array
        A new array, of NumPy's promotion of the inputs' dtypes (or `dtype`); `out` when given.

    Raises
    ------
    ValueError
        As concatenate (no arrays, shapes that do not match, npgpu.Arrays on different devices ...).
    TypeError
        As concatenate (`arrays` not a sequence).
    numpy.exceptions.AxisError
        `axis` out of range.

    See Also
    --------
    concatenate

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2], [3, 4]], device="cpu")
    >>> npgpu.concat([a, a], axis=1)
    Array([[1, 2, 1, 2],
           [3, 4, 3, 4]])
    >>> npgpu.concat([a, np.array([0.5])], axis=None)
    Array([1. , 2. , 3. , 4. , 0.5])
    """
    return concatenate(arrays, axis, out, dtype=dtype, casting=casting)


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """Join arrays of one shape along a new axis, as numpy.stack.

    Parameters
    ----------
    arrays : sequence of npgpu.Array or array_like
        The arrays, all of one shape. An npgpu.Array (or a NumPy array) stands for the sequence of its sub-arrays
        along its first axis. npgpu.Arrays decide the device; other inputs are converted onto it with
        ``npgpu.asarray`` (the default device when there is no npgpu.Array).
    axis : int, optional
        The position of the new axis in the result (default 0; negative counts from the end of the result).
    out : npgpu.Array, optional
        Where to write the result, as in concatenate.
    dtype : dtype, optional
        The result's dtype, as in concatenate; not with `out`.
    casting : {"no", "equiv", "safe", "same_kind", "unsafe"}, optional
        As in concatenate (default "same_kind").

    Returns
    -------
    npgpu.Array
        One more dimension than the inputs; `out` when given.

    Raises
    ------
    ValueError
        No arrays, arrays of different shapes, and concatenate's errors.
    TypeError
        As concatenate.
    numpy.exceptions.AxisError
        `axis` out of range.

    See Also
    --------
    concatenate, unstack

    Notes
    -----
    One allocation, one slice copy per input.

    Examples
    --------
    >>> x = npgpu.asarray([1, 2, 3], device="cpu")
    >>> npgpu.stack([x, x])
    Array([[1, 2, 3],
           [1, 2, 3]])
    >>> npgpu.stack([x, x], axis=-1)
    Array([[1, 1],
           [2, 2],
           [3, 3]])
    """
    arrays = _on_one_device(_sequence(arrays, "stack"), "stack",
                            out.device if isinstance(out, _array.Array) else None)
    if not arrays:
        raise ValueError("need at least one array to stack")
    shape = arrays[0].shape
    if any(a.shape != shape for a in arrays):
        raise ValueError(f"all input arrays must have the same shape, got "
                         f"{sorted({a.shape for a in arrays})}")
    ax = _axis(axis, len(shape) + 1)
    return concatenate([expand_dims(a, ax) for a in arrays], axis=ax, out=out, dtype=dtype, casting=casting)


def unstack(x, /, *, axis=0):
    """The slices of an array along an axis, as numpy.unstack (the Array API standard's unstack).

    Parameters
    ----------
    x : npgpu.Array or array_like
        The input; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the default device.
    axis : int, optional
        The axis sliced along (default 0).

    Returns
    -------
    tuple of npgpu.Array
        Views of `x`, one per index along `axis`, each without that axis.

    Raises
    ------
    ValueError
        `x` is 0-d.
    numpy.exceptions.AxisError
        `axis` out of range.

    See Also
    --------
    stack

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2], [3, 4]], device="cpu")
    >>> npgpu.unstack(a)
    (Array([1, 2]), Array([3, 4]))
    >>> npgpu.unstack(a, axis=1)
    (Array([1, 3]), Array([2, 4]))
    """
    x = _one(x)
    if x.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    ax = _axis(axis, x.ndim)
    return tuple(x[_key(x.ndim, ax, i)] for i in range(x.shape[ax]))


def atleast_1d(*arys):
    """Each input with at least 1 dimensions, as numpy.atleast_1d.

    Parameters
    ----------
    *arys : npgpu.Array or array_like
        The inputs. npgpu.Arrays decide the device; other inputs are converted onto it with ``npgpu.asarray``
        (the default device when there is no npgpu.Array).

    Returns
    -------
    npgpu.Array or tuple of npgpu.Array
        One array for one input, else a tuple; views of the inputs (a 0-d input becomes shape (1,)).

    Raises
    ------
    ValueError
        npgpu.Arrays on different devices.

    See Also
    --------
    atleast_2d, atleast_3d

    Examples
    --------
    >>> npgpu.atleast_1d(npgpu.asarray(5, device="cpu"))
    Array([5])
    >>> npgpu.atleast_1d(npgpu.asarray(1, device="cpu"), [2, 3])
    (Array([1]), Array([2, 3]))
    """
    res = [a if a.ndim >= 1 else a.reshape(1) for a in _on_one_device(arys, "atleast_1d")]
    return res[0] if len(res) == 1 else tuple(res)


def atleast_2d(*arys):
    """Each input with at least 2 dimensions, as numpy.atleast_2d.

    Parameters
    ----------
    *arys : npgpu.Array or array_like
        The inputs. npgpu.Arrays decide the device; other inputs are converted onto it with ``npgpu.asarray``
        (the default device when there is no npgpu.Array).

    Returns
    -------
    npgpu.Array or tuple of npgpu.Array
        One array for one input, else a tuple; views of the inputs (a 1-D array becomes one row,
        shape (1, N); a 0-d one shape (1, 1)).

    Raises
    ------
    ValueError
        npgpu.Arrays on different devices.

    See Also
    --------
    atleast_1d, atleast_3d

    Examples
    --------
    >>> npgpu.atleast_2d(npgpu.asarray([1, 2, 3], device="cpu"))
    Array([[1, 2, 3]])
    """
    res = [a.reshape(1, 1) if a.ndim == 0 else a[None] if a.ndim == 1 else a
           for a in _on_one_device(arys, "atleast_2d")]
    return res[0] if len(res) == 1 else tuple(res)


def atleast_3d(*arys):
    """Each input with at least 3 dimensions, as numpy.atleast_3d.

    Parameters
    ----------
    *arys : npgpu.Array or array_like
        The inputs. npgpu.Arrays decide the device; other inputs are converted onto it with ``npgpu.asarray``
        (the default device when there is no npgpu.Array).

    Returns
    -------
    npgpu.Array or tuple of npgpu.Array
        One array for one input, else a tuple; views of the inputs (shape (N,) becomes (1, N, 1),
        (M, N) becomes (M, N, 1), a 0-d one (1, 1, 1)).

    Raises
    ------
    ValueError
        npgpu.Arrays on different devices.

    See Also
    --------
    atleast_1d, atleast_2d

    Examples
    --------
    >>> npgpu.atleast_3d(npgpu.asarray([1, 2, 3], device="cpu")).shape
    (1, 3, 1)
    >>> npgpu.atleast_3d(npgpu.asarray([[1, 2], [3, 4]], device="cpu")).shape
    (2, 2, 1)
    """
    res = [a.reshape(1, 1, 1) if a.ndim == 0 else a[None, :, None] if a.ndim == 1
           else a[:, :, None] if a.ndim == 2 else a for a in _on_one_device(arys, "atleast_3d")]
    return res[0] if len(res) == 1 else tuple(res)


def _as_tuple(res):
    return res if isinstance(res, tuple) else (res,)


def vstack(tup, *, dtype=None, casting="same_kind"):
    """Stack arrays vertically (along the first axis; 1-D arrays as rows), as numpy.vstack.

    Parameters
    ----------
    tup : sequence of npgpu.Array or array_like
        The arrays. An npgpu.Array (or a NumPy array) stands for the sequence of its sub-arrays along its first
        axis. npgpu.Arrays decide the device; other inputs are converted onto it with ``npgpu.asarray`` (the
        default device when there is no npgpu.Array).
    dtype : dtype, optional
        The result's dtype, as in concatenate.
    casting : {"no", "equiv", "safe", "same_kind", "unsafe"}, optional
        As in concatenate (default "same_kind").

    Returns
    -------
    npgpu.Array
        A new array, at least 2-D.

    Raises
    ------
    ValueError
        As concatenate (no arrays, shapes that do not match, npgpu.Arrays on different devices ...).
    TypeError
        As concatenate (`tup` not a sequence, a 0-d array ...).

    See Also
    --------
    hstack, dstack, concatenate

    Examples
    --------
    >>> x = npgpu.asarray([1, 2, 3], device="cpu")
    >>> npgpu.vstack([x, x])
    Array([[1, 2, 3],
           [1, 2, 3]])
    """
    arrs = _as_tuple(atleast_2d(*_sequence(tup, "vstack")))
    return concatenate(arrs, axis=0, dtype=dtype, casting=casting)


def hstack(tup, *, dtype=None, casting="same_kind"):
    """Stack arrays horizontally (along the second axis, the first for 1-D arrays), as numpy.hstack.

    Parameters
    ----------
    tup : sequence of npgpu.Array or array_like
        The arrays. An npgpu.Array (or a NumPy array) stands for the sequence of its sub-arrays along its first
        axis. npgpu.Arrays decide the device; other inputs are converted onto it with ``npgpu.asarray`` (the
        default device when there is no npgpu.Array).
    dtype : dtype, optional
        The result's dtype, as in concatenate.
    casting : {"no", "equiv", "safe", "same_kind", "unsafe"}, optional
        As in concatenate (default "same_kind").

    Returns
    -------
    npgpu.Array
        A new array, at least 1-D.

    Raises
    ------
    ValueError
        As concatenate (no arrays, shapes that do not match, npgpu.Arrays on different devices ...).
    TypeError
        As concatenate (`tup` not a sequence, a 0-d array ...).

    See Also
    --------
    vstack, column_stack, concatenate

    Examples
    --------
    >>> x = npgpu.asarray([1, 2, 3], device="cpu")
    >>> npgpu.hstack([x, x])
    Array([1, 2, 3, 1, 2, 3])
    >>> a = npgpu.asarray([[1, 2], [3, 4]], device="cpu")
    >>> npgpu.hstack([a, a])
    Array([[1, 2, 1, 2],
           [3, 4, 3, 4]])
    """
    arrs = _as_tuple(atleast_1d(*_sequence(tup, "hstack")))
    axis = 0 if arrs and arrs[0].ndim == 1 else 1
    return concatenate(arrs, axis=axis, dtype=dtype, casting=casting)


def dstack(tup):
    """Stack arrays along the third axis (after atleast_3d), as numpy.dstack.

    Parameters
    ----------
    tup : sequence of npgpu.Array or array_like
        The arrays. An npgpu.Array (or a NumPy array) stands for the sequence of its sub-arrays along its first
        axis. npgpu.Arrays decide the device; other inputs are converted onto it with ``npgpu.asarray`` (the
        default device when there is no npgpu.Array).

    Returns
    -------
    npgpu.Array
        A new array, at least 3-D.

    Raises
    ------
    ValueError
        As concatenate (no arrays, shapes that do not match, npgpu.Arrays on different devices ...).
    TypeError
        As concatenate (`tup` not a sequence, a 0-d array ...).

    See Also
    --------
    atleast_3d, vstack, hstack

    Examples
    --------
    >>> x = npgpu.asarray([1, 2, 3], device="cpu")
    >>> npgpu.dstack([x, x])
    Array([[[1, 1],
            [2, 2],
            [3, 3]]])
    """
    return concatenate(_as_tuple(atleast_3d(*_sequence(tup, "dstack"))), axis=2)


def column_stack(tup):
    """Stack 1-D arrays as columns into a 2-D array, as numpy.column_stack.

    1-D arrays (and 0-d ones) become columns; 2-D arrays are taken as they are; all are joined along the second
    axis.

    Parameters
    ----------
    tup : sequence of npgpu.Array or array_like
        The arrays. An npgpu.Array (or a NumPy array) stands for the sequence of its sub-arrays along its first
        axis. npgpu.Arrays decide the device; other inputs are converted onto it with ``npgpu.asarray`` (the
        default device when there is no npgpu.Array).

    Returns
    -------
    npgpu.Array
        A new array.

    Raises
    ------
    ValueError
        As concatenate (no arrays, shapes that do not match, npgpu.Arrays on different devices ...).
    TypeError
        As concatenate (`tup` not a sequence, a 0-d array ...).

    See Also
    --------
    hstack

    Examples
    --------
    >>> x = npgpu.asarray([1, 2, 3], device="cpu")
    >>> npgpu.column_stack([x, np.array([4, 5, 6])])
    Array([[1, 4],
           [2, 5],
           [3, 6]])
    """
    arrs = [a.reshape(1, 1) if a.ndim == 0 else a[:, None] if a.ndim == 1 else a
            for a in _on_one_device(_sequence(tup, "column_stack"), "column_stack")]
    return concatenate(arrs, axis=1)


# ------------------------------------------------------------------------------------------------ splitting

def array_split(x, indices_or_sections, axis=0):
    """Split an array into parts of nearly equal size, or at given indices, as numpy.array_split.

    Parameters
    ----------
    x : npgpu.Array or array_like
        The input; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the default device.
    indices_or_sections : int or sequence of ints
        An int N: N parts of nearly equal size along `axis`, the first ``n % N`` one element longer (n: the
        length of `axis`). A sequence: the pieces between the given indices (slice semantics: out-of-range
        indices give empty pieces); an npgpu.Array of indices is read back to the host.
    axis : int, optional
        The axis split along (default 0).

    Returns
    -------
    list of npgpu.Array
        Views of `x`.

    Raises
    ------
    ValueError
        A number of sections below 1.
    TypeError
        Indices that are not integers.
    numpy.exceptions.AxisError
        `axis` out of range.

    See Also
    --------
    split

    Examples
    --------
    >>> x = npgpu.arange(7, device="cpu")
    >>> npgpu.array_split(x, 3)
    [Array([0, 1, 2]), Array([3, 4]), Array([5, 6])]
    >>> npgpu.array_split(x, [2, 5, 10])
    [Array([0, 1]), Array([2, 3, 4]), Array([5, 6]), Array([], dtype=int64)]
    """
    x = _one(x)
    ax = _axis(axis, x.ndim)
    n = x.shape[ax]
    if isinstance(indices_or_sections, _array.Array):
        indices_or_sections = indices_or_sections.get()
    try:
        bounds = [0] + [operator.index(i) for i in indices_or_sections] + [n]
    except TypeError:
        if isinstance(indices_or_sections, (list, tuple, np.ndarray)):
            raise TypeError("array_split: indices must be integers") from None
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.") from None
        each, extra = divmod(n, sections)
        # Built at once (OverflowError or MemoryError for an absurd count, as NumPy), not one by one.
        sizes = [each + 1] * extra + [each] * (sections - extra)
        bounds = [0, *itertools.accumulate(sizes)]
    return [x[_key(x.ndim, ax, slice(lo, hi))] for lo, hi in zip(bounds[:-1], bounds[1:])]


def split(x, indices_or_sections, axis=0):
    """Split an array into equal parts, or at given indices, as numpy.split.

    Parameters
    ----------
    x : npgpu.Array or array_like
        The input; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the default device.
    indices_or_sections : int or sequence of ints
        An int N: N equal parts along `axis`. A sequence: the pieces between the given indices, as array_split.
    axis : int, optional
        The axis split along (default 0).

    Returns
    -------
    list of npgpu.Array
        Views of `x`.

    Raises
    ------
    ValueError
        The length of `axis` is not a multiple of N, and array_split's errors.

    See Also
    --------
    array_split : N parts of nearly equal size for any N.

    Examples
    --------
    >>> npgpu.split(npgpu.arange(6, device="cpu"), 3)
    [Array([0, 1]), Array([2, 3]), Array([4, 5])]
    >>> npgpu.split(npgpu.arange(6, device="cpu"), [1, 4])
    [Array([0]), Array([1, 2, 3]), Array([4, 5])]
    """
    x = _one(x)
    if not hasattr(indices_or_sections, "__len__"):
        sections = indices_or_sections
        n = x.shape[_axis(axis, x.ndim)]
        if n % sections:
            raise ValueError("array split does not result in an equal division")
    return array_split(x, indices_or_sections, axis)


# ------------------------------------------------------------------------------------------------ broadcasting

def broadcast_to(x, /, shape, subok=False):
    """Broadcast an array to a shape, as numpy.broadcast_to.

    Parameters
    ----------
    x : npgpu.Array or array_like
        The input; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the default device.
    shape : int or tuple of ints
        The shape to broadcast to.

    subok : bool, optional
        Accepted for NumPy's signature; npgpu has no array subclasses, so the result is an npgpu.Array either way.
    Returns
    -------
    npgpu.Array
        A read-only view of `x` with `shape`: new leading axes and length-1 axes repeat without copies.

    Raises
    ------
    ValueError
        `x` does not broadcast to `shape`.

    See Also
    --------
    broadcast_arrays, broadcast_shapes

    Examples
    --------
    >>> x = npgpu.asarray([1, 2, 3], device="cpu")
    >>> b = npgpu.broadcast_to(x, (2, 3))
    >>> b
    Array([[1, 2, 3],
           [1, 2, 3]])
    >>> b.flags["WRITEABLE"]
    False
    """
    return _array.broadcast_to(_one(x), shape)


def broadcast_shapes(*shapes):
    """The shape that given shapes broadcast to, as numpy.broadcast_shapes.

    Parameters
    ----------
    *shapes : int or tuple of ints
        The shapes.

    Returns
    -------
    tuple of ints
        The broadcast shape.

    Raises
    ------
    ValueError
        The shapes do not broadcast together.

    See Also
    --------
    broadcast_arrays, broadcast_to

    Examples
    --------
    >>> npgpu.broadcast_shapes((2, 1), (3,))
    (2, 3)
    """
    return np.broadcast_shapes(*shapes)


def broadcast_arrays(*arrays, subok=False):
    """Broadcast arrays against each other, as numpy.broadcast_arrays.

    Parameters
    ----------
    *arrays : npgpu.Array or array_like
        The arrays. npgpu.Arrays decide the device; other inputs are converted onto it with ``npgpu.asarray``
        (the default device when there is no npgpu.Array).

    subok : bool, optional
        Accepted for NumPy's signature; npgpu has no array subclasses, so the results are npgpu.Arrays either way.
    Returns
    -------
    list of npgpu.Array
        The arrays broadcast to their common shape: read-only views (an array already of that shape is returned
        as it is, as NumPy does); a list, as the Array API standard specifies (NumPy 2 gives a tuple).

    Raises
    ------
    ValueError
        The shapes do not broadcast together, or npgpu.Arrays are on different devices.

    See Also
    --------
    broadcast_to, broadcast_shapes

    Examples
    --------
    >>> x = npgpu.asarray([1, 2, 3], device="cpu")
    >>> npgpu.broadcast_arrays(x, npgpu.asarray([[10], [20]], device="cpu"))
    [Array([[1, 2, 3],
           [1, 2, 3]]), Array([[10, 10, 10],
           [20, 20, 20]])]
    """
    arrays = _on_one_device(arrays, "broadcast_arrays")
    shape = np.broadcast_shapes(*[a.shape for a in arrays])
    return [a if a.shape == shape else _array.broadcast_to(a, shape) for a in arrays]


class broadcast:
    """Broadcast inputs against each other, and iterate over them together, as numpy.broadcast.

    Parameters
    ----------
    *args : npgpu.Array, array_like or broadcast
        At most 64 inputs; a `broadcast` stands for its own inputs, as in NumPy.

    Attributes
    ----------
    shape : tuple of ints
        The broadcast shape.
    ndim, nd : int
        Its number of dimensions.
    size : int
        Its number of elements.
    numiter : int
        The number of inputs.
    index : int
        The flat index of the next element the iteration gives.
    iters : tuple of numpy.flatiter
        One iterator per input over its values broadcast to `shape`, on host copies (see Notes).

    Raises
    ------
    ValueError
        The shapes do not broadcast together, or more than 64 inputs.

    See Also
    --------
    broadcast_arrays : The inputs broadcast to npgpu.Arrays, as views on their device.
    broadcast_shapes

    Notes
    -----
    The shape comes from the inputs' shapes: making a broadcast reads no data. Iterating (each step gives a
    tuple of one NumPy scalar per input), `index`, `iters` and `reset` read values on the host: npgpu.Arrays
    are copied to NumPy once, when first needed. Iterate over small arrays only; for computation use
    `broadcast_arrays`, whose views stay on the device.

    Examples
    --------
    >>> x = npgpu.asarray([[1], [2]], device="cpu")
    >>> b = npgpu.broadcast(x, [10, 20, 30])
    >>> b.shape, b.size, b.numiter
    ((2, 3), 6, 2)
    >>> [(int(u), int(v)) for u, v in b][:4]
    [(1, 10), (1, 20), (1, 30), (2, 10)]
    >>> b.index
    6
    """

    def __init__(self, *args):
        flat = []
        for a in args:
            flat.extend(a._args if isinstance(a, broadcast) else (a,))
        if len(flat) > 64:
            raise ValueError(f"broadcast takes at most 64 inputs, got {len(flat)}")
        self._args = tuple(flat)
        self._shape = np.broadcast_shapes(*[a.shape if isinstance(a, _array.Array) else np.shape(a)
                                            for a in flat])
        self._host = None

    def _on_host(self):
        if self._host is None:
            self._host = np.broadcast(*[a.get() if isinstance(a, _array.Array) else a for a in self._args])
        return self._host

    @property
    def shape(self):
        """The broadcast shape."""
        return self._shape

    @property
    def ndim(self):
        """The number of dimensions of `shape`."""
        return len(self._shape)

    nd = ndim

    @property
    def size(self):
        """The number of elements of `shape`."""
        return math.prod(self._shape)

    @property
    def numiter(self):
        """The number of inputs."""
        return len(self._args)

    @property
    def index(self):
        """The flat index of the next element the iteration gives."""
        return 0 if self._host is None else self._host.index

    @property
    def iters(self):
        """One numpy.flatiter per input, over host copies of its values broadcast to `shape`."""
        return self._on_host().iters

    def reset(self):
        """Start the iteration again from the first element."""
        if self._host is not None:
            self._host.reset()

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._on_host())

    def __repr__(self):
        return f"npgpu.broadcast(shape={self._shape}, numiter={len(self._args)})"


def as_strided(x, shape=None, strides=None, subok=False, writeable=True):
    """A view of an array's memory with the given shape and strides, as numpy.lib.stride_tricks.as_strided.

    Parameters
    ----------
    x : npgpu.Array or array_like
        The array whose memory the view reads; other inputs than npgpu.Arrays are converted with
        ``npgpu.asarray`` onto the default device.
    shape : sequence of ints, optional
        The view's shape; default x's.
    strides : sequence of ints, optional
        Byte steps per dimension, multiples of the item size (negative and zero allowed); default x's.
    subok : bool, optional
        Accepted for NumPy's signature; npgpu has no array subclasses.
    writeable : bool, optional
        False gives a read-only view (default True, as NumPy).

    Returns
    -------
    npgpu.Array
        A view starting at x's first element.

    Raises
    ------
    ValueError
        The view would reach memory outside x's own bytes, a stride is not a multiple of the item size, a
        dimension is negative, or `shape` and `strides` differ in length.

    See Also
    --------
    sliding_window_view : The safe, common use.
    broadcast_to

    Notes
    -----
    Safer than NumPy's: a view reaching outside x's memory raises ValueError instead of reading whatever lies
    there (on a GPU that could end the process's CUDA context). A view whose elements may share memory (a
    zero stride, or windows that overlap) is read-only whatever `writeable` says: writes through it would race
    on a GPU.

    Examples
    --------
    >>> x = npgpu.asarray(np.arange(6, dtype=np.int32), device="cpu")
    >>> npgpu.as_strided(x, shape=(3, 2), strides=(8, 4))
    Array([[0, 1],
           [2, 3],
           [4, 5]], dtype=int32)
    >>> npgpu.as_strided(x, shape=(5, 2), strides=(4, 4)).flags["WRITEABLE"]
    False
    """
    x = _one(x)
    return _array.as_strided(x, x.shape if shape is None else shape, x.strides if strides is None else strides,
                             bool(writeable))


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """Every window of the given shape, as views, as numpy.lib.stride_tricks.sliding_window_view.

    Parameters
    ----------
    x : npgpu.Array or array_like
        The input; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the default device.
    window_shape : int or tuple of ints
        The window's extent along each axis of `axis`.
    axis : int or tuple of ints, optional
        The axes the window slides along (repeats allowed, as NumPy); default every axis, in order.
    subok : bool, optional
        Accepted for NumPy's signature; npgpu has no array subclasses.
    writeable : bool, optional
        Default False, as NumPy. Overlapping windows stay read-only even with True (see `as_strided`).

    Returns
    -------
    npgpu.Array
        A view of x's memory: x's shape with each windowed axis shortened to ``n - w + 1``, then the window's
        axes.

    Raises
    ------
    ValueError
        A negative window extent, one larger than its axis, or `window_shape` and `axis` of different lengths.
    AxisError
        An axis out of range.

    See Also
    --------
    as_strided

    Examples
    --------
    >>> x = npgpu.asarray(np.arange(6.0), device="cpu")
    >>> v = npgpu.sliding_window_view(x, 3)
    >>> v
    Array([[0., 1., 2.],
           [1., 2., 3.],
           [2., 3., 4.],
           [3., 4., 5.]])
    >>> v.mean(axis=-1)  # a moving average without copies of the windows
    Array([1., 2., 3., 4.])
    """
    x = _one(x)
    try:
        window = tuple(operator.index(w) for w in window_shape)
    except TypeError:
        window = (operator.index(window_shape),)
    if any(w < 0 for w in window):
        raise ValueError(f"window_shape cannot contain negative values, got {window}")
    if axis is None:
        axes = tuple(range(x.ndim))
        if len(window) != len(axes):
            raise ValueError(f"with axis=None, window_shape needs one extent per dimension of x: got "
                             f"{len(window)} for x.ndim {x.ndim}")
    else:
        axes = tuple(_axis(a, x.ndim) for a in (axis if isinstance(axis, (tuple, list)) else (axis,)))
        if len(window) != len(axes):
            raise ValueError(f"window_shape and axis differ in length: {len(window)} extents for {len(axes)} axes")
    shape = list(x.shape)
    for a, w in zip(axes, window):
        if shape[a] < w:
            raise ValueError(f"window shape {window} is larger than x's shape {x.shape} along axis {a}")
        shape[a] -= w - 1
    strides = tuple(x.strides) + tuple(x.strides[a] for a in axes)
    return _array.as_strided(x, tuple(shape) + window, strides, bool(writeable))


# ------------------------------------------------------------------------------------------------ axes

def expand_dims(x, /, axis=0):
    """Insert length-1 axes into an array, as numpy.expand_dims.

    Parameters
    ----------
    x : npgpu.Array or array_like
        The input; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the default device.
    axis : int or tuple of ints, optional
        The positions of the new axes, counted in the result (default 0; negative counts from the end).

    Returns
    -------
    npgpu.Array
        A view of `x` with ``x.ndim + len(axis)`` dimensions.

    Raises
    ------
    ValueError
        A repeated axis.
    numpy.exceptions.AxisError
        An axis out of range for the result.

    See Also
    --------
    squeeze

    Examples
    --------
    >>> x = npgpu.asarray([1, 2, 3], device="cpu")
    >>> npgpu.expand_dims(x, 0)
    Array([[1, 2, 3]])
    >>> npgpu.expand_dims(x, (0, 2)).shape
    (1, 3, 1)
    """
    x = _one(x)
    nd = x.ndim + (len(axis) if isinstance(axis, (tuple, list)) else 1)
    norm = _axes(axis, nd)
    return x[tuple(None if i in norm else slice(None) for i in range(nd))]


def squeeze(x, /, axis=None):
    """Remove length-1 axes from an array, as numpy.squeeze.

    Parameters
    ----------
    x : npgpu.Array or array_like
        The input; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the default device.
    axis : int or tuple of ints, optional
        The axes to remove, each of length 1; default (None): all the length-1 axes.

    Returns
    -------
    npgpu.Array
        A view of `x`.

    Raises
    ------
    ValueError
        An axis in `axis` whose length is not 1, or a repeated axis.
    numpy.exceptions.AxisError
        An axis out of range.

    See Also
    --------
    expand_dims

    Examples
    --------
    >>> x = npgpu.zeros((1, 3, 1), device="cpu")
    >>> npgpu.squeeze(x).shape
    (3,)
    >>> npgpu.squeeze(x, axis=0).shape
    (3, 1)
    """
    x = _one(x)
    if axis is not None:
        axis = _axes(axis, x.ndim)
    return x.squeeze(axis)


def flip(x, /, axis=None):
    """Reverse the order of elements along axes, as numpy.flip.

    Parameters
    ----------
    x : npgpu.Array or array_like
        The input; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the default device.
    axis : int or tuple of ints, optional
        The axes reversed; default (None): all of them.

    Returns
    -------
    npgpu.Array
        A view of `x`.

    Raises
    ------
    ValueError
        A repeated axis.
    numpy.exceptions.AxisError
        An axis out of range.

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2], [3, 4]], device="cpu")
    >>> npgpu.flip(a)
    Array([[4, 3],
           [2, 1]])
    >>> npgpu.flip(a, axis=1)
    Array([[2, 1],
           [4, 3]])
    """
    x = _one(x)
    axes = range(x.ndim) if axis is None else _axes(axis, x.ndim)
    return x[tuple(slice(None, None, -1) if i in axes else slice(None) for i in range(x.ndim))]


def moveaxis(x, source, destination, /):
    """Move axes of an array to new positions, as numpy.moveaxis.

    Parameters
    ----------
    x : npgpu.Array or array_like
        The input; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the default device.
    source : int or sequence of ints
        The axes to move.
    destination : int or sequence of ints
        Their positions in the result, one per axis in `source`; the other axes keep their order.

    Returns
    -------
    npgpu.Array
        A view of `x`.

    Raises
    ------
    ValueError
        `source` and `destination` of different lengths, or a repeated axis in either.
    numpy.exceptions.AxisError
        An axis out of range.

    See Also
    --------
    swapaxes, permute_dims, transpose

    Examples
    --------
    >>> x = npgpu.zeros((2, 3, 4), device="cpu")
    >>> npgpu.moveaxis(x, 0, -1).shape
    (3, 4, 2)
    >>> npgpu.moveaxis(x, [0, 1], [-1, -2]).shape
    (4, 3, 2)
    """
    x = _one(x)
    src = _axes(source, x.ndim, "source")
    dst = _axes(destination, x.ndim, "destination")
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number of elements")
    order = [n for n in range(x.ndim) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return x.transpose(order)


def swapaxes(x, axis1, axis2):
    """Interchange two axes of an array, as numpy.swapaxes.

    Parameters
    ----------
    x : npgpu.Array or array_like
        The input; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the default device.
    axis1, axis2 : int
        The two axes.

    Returns
    -------
    npgpu.Array
        A view of `x`.

    Raises
    ------
    numpy.exceptions.AxisError
        An axis out of range.

    See Also
    --------
    moveaxis, transpose

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2], [3, 4]], device="cpu")
    >>> npgpu.swapaxes(a, 0, 1)
    Array([[1, 3],
           [2, 4]])
    """
    return _one(x).swapaxes(axis1, axis2)


def permute_dims(x, /, axes):
    """Permute the axes of an array: the Array API standard's name for transpose with `axes`.

    Parameters
    ----------
    x : npgpu.Array or array_like
        The input; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the default device.
    axes : sequence of ints
        A permutation of the axes: axis i of the result is axis ``axes[i]`` of `x`.

    Returns
    -------
    npgpu.Array
        A view of `x`.

    Raises
    ------
    ValueError
        `axes` is not a permutation of x's axes.

    See Also
    --------
    transpose, moveaxis

    Examples
    --------
    >>> npgpu.permute_dims(npgpu.zeros((2, 3, 4), device="cpu"), (2, 0, 1)).shape
    (4, 2, 3)
    """
    return _one(x).transpose(tuple(axes))


def transpose(x, axes=None):
    """Reverse or permute the axes of an array, as numpy.transpose.

    Parameters
    ----------
    x : npgpu.Array or array_like
        The input; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the default device.
    axes : sequence of ints, optional
        A permutation of the axes (axis i of the result is axis ``axes[i]`` of `x`); default: the axes reversed.

    Returns
    -------
    npgpu.Array
        A view of `x`.

    Raises
    ------
    ValueError
        `axes` is not a permutation of x's axes.

    See Also
    --------
    permute_dims, moveaxis, swapaxes

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2], [3, 4]], device="cpu")
    >>> npgpu.transpose(a)
    Array([[1, 3],
           [2, 4]])
    >>> npgpu.transpose(npgpu.zeros((2, 3, 4), device="cpu"), (1, 0, 2)).shape
    (3, 2, 4)
    """
    x = _one(x)
    return x.transpose() if axes is None else x.transpose(tuple(axes))


# ------------------------------------------------------------------------------------------------ reshaping

def _resolve_shape(size, shape):
    """`shape` (an int or a sequence, one entry may be -1) as a tuple of sizes holding `size` elements."""
    try:
        shape = (operator.index(shape),)
    except TypeError:
        shape = tuple(operator.index(s) for s in shape)
    if sum(1 for d in shape if d == -1) > 1:
        raise ValueError("can only specify one unknown dimension")
    if any(d < -1 for d in shape):
        raise ValueError(f"negative dimensions not allowed in {shape}")
    known = 1
    for d in shape:
        if d != -1:
            known *= d
    if -1 in shape:
        if known == 0 or size % known:
            raise ValueError(f"cannot reshape array of size {size} into shape {shape}")
        return tuple(size // known if d == -1 else d for d in shape)
    if known != size:
        raise ValueError(f"cannot reshape array of size {size} into shape {shape}")
    return shape


def _is_contiguous(x, order):
    """Whether x's elements lie in one block in C (or F) order, from its shape and strides."""
    if x.size <= 1:
        return True
    dims = zip(x.shape, x.strides) if order == "F" else zip(reversed(x.shape), reversed(x.strides))
    expect = x.dtype.itemsize
    for n, s in dims:
        if n != 1:
            if s != expect:
                return False
            expect *= n
    return True


def _reshape_view(x, shape):
    """x with `shape` (resolved) as a view, or None where npgpu's views cannot express it: a C-contiguous x
    takes any shape; any x can gain or lose length-1 axes (basic indexing with None and 0)."""
    if _is_contiguous(x, "C"):
        return x.reshape(shape)
    if [d for d in x.shape if d != 1] == [d for d in shape if d != 1]:
        y = x[tuple(0 if d == 1 else slice(None) for d in x.shape)]
        return y[tuple(None if d == 1 else slice(None) for d in shape)]
    return None


def reshape(x, /, shape, order="C", *, copy=None):
    """Give an array a new shape, as numpy.reshape.

    Parameters
    ----------
    x : npgpu.Array or array_like
        The input; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the default device.
    shape : int or tuple of ints
        The new shape, holding as many elements as `x`; one entry may be -1 (inferred).
    order : {'C', 'F', 'A'}, optional
        The index order elements are read and placed in: 'C' (default) the last axis fastest, 'F' the first
        axis fastest, 'A' 'F' for a Fortran-contiguous `x` and 'C' otherwise.
    copy : bool or None, optional
        None (default): a view when npgpu can express one (x C-contiguous, or only length-1 axes added or
        removed), else a copy. True: always copy. False: never copy, ValueError instead (the Array API
        standard's semantics).

    Returns
    -------
    npgpu.Array
        The reshaped array (a view or a copy, as `copy` says).

    Raises
    ------
    ValueError
        A shape of another size, more than one -1 or another negative entry, an `order` other than 'C', 'F'
        or 'A', or ``copy=False`` where a copy is needed.

    See Also
    --------
    ravel

    Examples
    --------
    >>> x = npgpu.arange(6, device="cpu")
    >>> npgpu.reshape(x, (2, 3))
    Array([[0, 1, 2],
           [3, 4, 5]])
    >>> npgpu.reshape(x, (-1, 2)).shape
    (3, 2)
    >>> npgpu.reshape(npgpu.reshape(x, (2, 3)).T, 6)
    Array([0, 3, 1, 4, 2, 5])
    """
    return _reshape(_one(x), shape, order, copy)


def _reshape(x, shape, order, copy):
    """reshape with `order` 'C', 'F' (indices read and written in Fortran order: reversed axes) or 'A'
    ('F' for a Fortran-contiguous x)."""
    if order == "A":
        order = "F" if _is_contiguous(x, "F") and not _is_contiguous(x, "C") else "C"
    if order == "F":
        shape = _resolve_shape(x.size, shape)
        return _reshape(x.T, shape[::-1], "C", copy).T
    if order != "C":
        raise ValueError(f"order {order!r} is not permitted for reshaping (use 'C', 'F' or 'A')")
    shape = _resolve_shape(x.size, shape)
    if copy:
        return x.copy().reshape(shape)
    view = _reshape_view(x, shape)
    if view is not None:
        return view
    if copy is False:
        raise ValueError(f"Unable to avoid creating a copy while reshaping an array of shape {x.shape} and "
                         f"strides {x.strides} into shape {shape}")
    return x.copy().reshape(shape)


def _keep_order_axes(x):
    """The order of x's axes from the largest stride to the smallest, as NumPy's
    PyArray_CreateSortedStridePerm (a stable insertion sort on |stride|; zero strides are ambiguous and
    keep their place)."""
    perm = list(range(x.ndim))
    strides = x.strides
    for i0 in range(1, x.ndim):
        ipos, a0 = i0, perm[i0]
        for i1 in range(i0 - 1, -1, -1):
            a1 = perm[i1]
            if strides[a0] != 0 and strides[a1] != 0:
                if abs(strides[a0]) <= abs(strides[a1]):
                    break
                ipos = i1
        if ipos != i0:
            perm[ipos + 1:i0 + 1] = perm[ipos:i0]
            perm[ipos] = a0
    return perm


def ravel(x, order="C"):
    """Flatten an array to 1-D, as numpy.ravel.

    Parameters
    ----------
    x : npgpu.Array or array_like
        The input; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the default device.
    order : {"C", "F", "A", "K"}, optional
        The order the elements are read in: "C" (default) row-major, "F" column-major, "A" "F" for a
        Fortran-contiguous (and not C-contiguous) x, else "C"; "K" the order of the elements in memory (with
        reversed axes kept reversed, as NumPy does).

    Returns
    -------
    npgpu.Array
        1-D: a view when possible, else a copy.

    Raises
    ------
    ValueError
        `order` is not one of "C", "F", "A", "K".

    See Also
    --------
    reshape

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2], [3, 4]], device="cpu")
    >>> npgpu.ravel(a)
    Array([1, 2, 3, 4])
    >>> npgpu.ravel(a, order="F")
    Array([1, 3, 2, 4])
    >>> npgpu.ravel(a.T, order="K")
    Array([1, 2, 3, 4])
    """
    x = _one(x)
    if order == "K":
        if _is_contiguous(x, "C"):
            return x.reshape(-1)
        return _reshape(x.transpose(_keep_order_axes(x)), -1, "C", None)
    if order not in ("C", "F", "A"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    return _reshape(x, -1, order, None)


# ------------------------------------------------------------------------------------------------ copies

def roll(x, /, shift, axis=None):
    """Shift elements of an array cyclically along axes, as numpy.roll.

    Parameters
    ----------
    x : npgpu.Array or array_like
        The input; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the default device.
    shift : int or sequence of ints
        The number of places elements move (towards higher indices for a positive shift); an npgpu.Array is read
        back to the host. Broadcast against `axis`; the shifts along one axis add up.
    axis : int or sequence of ints, optional
        The axes rolled; default (None): the flattened array, the result reshaped back to x's shape.

    Returns
    -------
    npgpu.Array
        A new array of x's shape.

    Raises
    ------
    ValueError
        `shift` and `axis` that are not scalars or 1-D sequences of one length.
    numpy.exceptions.AxisError
        An axis out of range.

    Notes
    -----
    The result is written with two slice copies per rolled axis (one per block: 2**k blocks for k rolled axes,
    rolled four axes at a time at most).

    Examples
    --------
    >>> x = npgpu.arange(6, device="cpu")
    >>> npgpu.roll(x, 2)
    Array([4, 5, 0, 1, 2, 3])
    >>> npgpu.roll(npgpu.reshape(x, (2, 3)), 1, axis=1)
    Array([[2, 0, 1],
           [5, 3, 4]])
    >>> npgpu.roll(npgpu.reshape(x, (2, 3)), (1, 1), axis=(0, 1))
    Array([[5, 3, 4],
           [2, 0, 1]])
    """
    x = _one(x)
    if axis is None:
        return roll(x.reshape(-1), shift, axis=0).reshape(x.shape)
    if isinstance(shift, _array.Array):
        shift = shift.get()
    try:
        pairs = np.broadcast(np.asarray(shift), np.asarray(axis))
    except ValueError:
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences of the same length") from None
    if pairs.ndim > 1:
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    total = {}
    for s, a in pairs:
        a = _axis(a, x.ndim)
        total[a] = total.get(a, 0) + operator.index(s)
    rolled = {a: s % x.shape[a] for a, s in total.items() if x.shape[a] and s % x.shape[a]}
    if len(rolled) > 4:  # 2**k blocks: roll a few axes at a time
        items = list(rolled.items())
        for i in range(0, len(items), 4):
            x = roll(x, [s for _, s in items[i:i + 4]], axis=[a for a, _ in items[i:i + 4]])
        return x
    out = _array.empty(x.shape, dtype=x.dtype, device=x.device)
    if not rolled:
        out[...] = x
        return out
    axes = list(rolled)
    # Each output block takes, per rolled axis, either [s:] <- [:n-s] or [:s] <- [n-s:].
    for sides in itertools.product((0, 1), repeat=len(axes)):
        dst = [slice(None)] * x.ndim
        src = [slice(None)] * x.ndim
        for a, side in zip(axes, sides):
            s, n = rolled[a], x.shape[a]
            dst[a], src[a] = (slice(s, None), slice(None, n - s)) if side == 0 else \
                (slice(None, s), slice(n - s, None))
        out[tuple(dst)] = x[tuple(src)]
    return out


def _counts(repeats):
    """`repeats` as a host array of integer counts (floats truncated, as NumPy's repeat casts them)."""
    if isinstance(repeats, _array.Array):
        repeats = repeats.get()
    reps = np.asarray(repeats)
    if reps.dtype.kind not in "biuf":
        raise TypeError(f"repeat: repeats must be integers, not {reps.dtype}")
    if reps.ndim > 1:
        raise ValueError(f"repeat: repeats must be an int or a 1-D sequence, got shape {reps.shape}")
    reps = reps.astype(np.int64)
    if (reps < 0).any():
        raise ValueError("repeats may not contain negative values.")
    return reps


def repeat(x, repeats, /, axis=None):
    """Repeat each element of an array, as numpy.repeat.

    Parameters
    ----------
    x : npgpu.Array or array_like
        The input; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the default device.
    repeats : int or sequence of ints
        One count for all elements, or one count per element along `axis`; not negative. Float counts are
        truncated to integers. An npgpu.Array of counts is read back to the host (the output's shape depends on
        them).
    axis : int, optional
        The axis along which elements are repeated; default (None): the flattened array, giving a 1-D result.

    Returns
    -------
    npgpu.Array
        A new array, longer along `axis`.

    Raises
    ------
    ValueError
        A negative count, counts of another length than the axis, or counts of more than one dimension.
    TypeError
        Counts that are not numbers.
    numpy.exceptions.AxisError
        `axis` out of range.

    See Also
    --------
    tile

    Notes
    -----
    One broadcast copy for a single count; for per-element counts, one copy per run of consecutive elements
    with the same count.

    Examples
    --------
    >>> x = npgpu.asarray([1, 2, 3], device="cpu")
    >>> npgpu.repeat(x, 2)
    Array([1, 1, 2, 2, 3, 3])
    >>> a = npgpu.asarray([[1, 2], [3, 4]], device="cpu")
    >>> npgpu.repeat(a, [1, 2], axis=0)
    Array([[1, 2],
           [3, 4],
           [3, 4]])
    """
    x = _one(x)
    reps = _counts(repeats)
    if axis is None:
        x = x.reshape(-1)
        axis = 0
    ax = _axis(axis, x.ndim)
    n = x.shape[ax]
    before, after = x.shape[:ax], x.shape[ax + 1:]
    if reps.size == 1 or (reps.size == n and n and (reps == reps[0]).all()):
        r = int(reps.reshape(-1)[0])
        view = x[_key(x.ndim + 1, ax + 1, None)]  # a length-1 axis after `ax`, broadcast to r
        expanded = _array.broadcast_to(view, before + (n, r) + after)
        return expanded.copy().reshape(before + (n * r,) + after)
    if reps.shape != (n,):
        raise ValueError(f"operands could not be broadcast together with shape ({n},) ({reps.size},)")
    out = _array.empty(before + (int(reps.sum()),) + after, dtype=x.dtype, device=x.device)
    contiguous_runs = all(d == 1 for d in before)  # out[.., pos:pos+m*r, ..] is then a C-contiguous block
    pos = i = 0
    while i < n:
        r = int(reps[i])
        j = i + 1
        while j < n and reps[j] == r:
            j += 1
        m = j - i
        if r:
            dst = out[_key(x.ndim, ax, slice(pos, pos + m * r))]
            src = x[_key(x.ndim, ax, slice(i, j))]
            if m == 1 or r == 1:
                dst[...] = src
            else:
                src = _array.broadcast_to(src[_key(x.ndim + 1, ax + 1, None)], before + (m, r) + after)
                if contiguous_runs:
                    dst.reshape(before + (m, r) + after)[...] = src
                else:
                    dst[...] = src.copy().reshape(before + (m * r,) + after)
        pos += m * r
        i = j
    return out


def tile(x, reps):
    """Repeat a whole array along each axis, as numpy.tile.

    Parameters
    ----------
    x : npgpu.Array or array_like
        The input; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the default device.
    reps : int or sequence of ints
        The number of repetitions along each axis; the shorter of x's shape and `reps` is padded with leading
        ones.

    Returns
    -------
    npgpu.Array
        A new array with ``max(x.ndim, len(reps))`` dimensions.

    Raises
    ------
    ValueError
        A negative number of repetitions.

    See Also
    --------
    repeat

    Notes
    -----
    One broadcast copy.

    Examples
    --------
    >>> x = npgpu.asarray([1, 2, 3], device="cpu")
    >>> npgpu.tile(x, 2)
    Array([1, 2, 3, 1, 2, 3])
    >>> npgpu.tile(x, (2, 1))
    Array([[1, 2, 3],
           [1, 2, 3]])
    """
    x = _one(x)
    try:
        reps = tuple(operator.index(r) for r in reps)
    except TypeError:
        reps = (operator.index(reps),)
    if any(r < 0 for r in reps):
        raise ValueError(f"negative dimensions are not allowed (reps={reps})")
    nd = max(x.ndim, len(reps))
    reps = (1,) * (nd - len(reps)) + reps
    x = x.reshape((1,) * (nd - x.ndim) + x.shape)
    inter = []
    for r, s in zip(reps, x.shape):
        inter += [r, s]
    expanded = _array.broadcast_to(x[(None, slice(None)) * nd], tuple(inter))
    return expanded.copy().reshape(tuple(r * s for r, s in zip(reps, x.shape)))


# ------------------------------------------------------------------------------------------------ pad

_PAD_MODES = ("constant", "edge", "reflect", "symmetric", "wrap", "empty")
_NUMPY_ONLY_PAD_MODES = ("linear_ramp", "maximum", "mean", "median", "minimum")
_PAD_KWARGS = {"constant": {"constant_values"}, "reflect": {"reflect_type"}, "symmetric": {"reflect_type"}}


def _runs(src):
    """An index map split into runs of sources stepping by +1, -1 or 0 (a repeated source: one broadcast
    copy): (dst_offset, src_start, step, count)."""
    runs = []
    i = 0
    while i < len(src):
        j = i + 1
        step = src[j] - src[i] if j < len(src) and abs(src[j] - src[i]) <= 1 else 1
        while j < len(src) and src[j] - src[j - 1] == step:
            j += 1
        runs.append((i, src[i], step, j - i))
        i = j
    return runs


def _pad_pairs(values, ndim, name):
    """NumPy's (before, after) pairs per axis from an int, a pair, or one pair per axis."""
    arr = np.asarray(values)
    try:
        return np.broadcast_to(arr, (ndim, 2)).tolist()
    except ValueError:
        raise ValueError(f"pad: {name} of shape {arr.shape} does not give a (before, after) pair for each "
                         f"of the {ndim} axes") from None


def pad(x, pad_width, mode="constant", **kwargs):
    """Pad an array, as numpy.pad.

    Parameters
    ----------
    x : npgpu.Array or array_like
        The input; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the default device.
    pad_width : int or sequence of ints
        Integers in NumPy's forms: an int (the same before and after on every axis), a pair (before, after), or
        one pair per axis; not negative.
    mode : {"constant", "edge", "reflect", "symmetric", "wrap", "empty"}, optional
        How the pads are filled, as in NumPy (default "constant"). NumPy's "linear_ramp", "maximum", "mean",
        "median", "minimum" and callable modes are not implemented.
    **kwargs
        ``constant_values`` for "constant": a scalar, or pairs per axis as `pad_width` (default 0; converted to
        x's dtype; an npgpu.Array is read back to the host). ``reflect_type`` for "reflect" and "symmetric":
        "even" (default) only.

    Returns
    -------
    npgpu.Array
        A new array, each axis longer by its pads.

    Raises
    ------
    NotImplementedError
        A mode NumPy has that npgpu does not implement, or ``reflect_type="odd"``.
    ValueError
        An unknown mode, keywords the mode does not take, a `reflect_type` other than "even" or "odd", negative
        or ill-shaped widths, or an empty axis to be extended with another mode than "constant" or "empty".
    TypeError
        `pad_width` is not of an integral type.

    Notes
    -----
    One allocation; the input and the pads are written with slice copies (NumPy's 1-D index map of each mode,
    split into runs), axis by axis.

    Examples
    --------
    >>> x = npgpu.asarray([1, 2, 3], device="cpu")
    >>> npgpu.pad(x, (1, 2), constant_values=9)
    Array([9, 1, 2, 3, 9, 9])
    >>> npgpu.pad(x, 2, mode="reflect")
    Array([3, 2, 1, 2, 3, 2, 1])
    >>> npgpu.pad(npgpu.asarray([[1, 2], [3, 4]], device="cpu"), 1, mode="edge")
    Array([[1, 1, 2, 2],
           [1, 1, 2, 2],
           [3, 3, 4, 4],
           [3, 3, 4, 4]])
    """
    x = _one(x)
    if callable(mode) or mode in _NUMPY_ONLY_PAD_MODES:
        raise NotImplementedError(f"pad: mode {mode!r} is not implemented in npgpu (use one of "
                                  f"{', '.join(_PAD_MODES)})")
    if mode not in _PAD_MODES:
        raise ValueError(f"mode {mode!r} is not supported")
    unsupported = set(kwargs) - _PAD_KWARGS.get(mode, set())
    if unsupported:
        raise ValueError(f"unsupported keyword arguments for mode {mode!r}: {unsupported}")
    if kwargs.get("reflect_type", "even") != "even":
        if kwargs["reflect_type"] == "odd":
            raise NotImplementedError("pad: reflect_type='odd' is not implemented in npgpu")
        raise ValueError(f"reflect_type must be 'even' or 'odd', not {kwargs['reflect_type']!r}")
    widths = np.asarray(pad_width)
    if widths.dtype.kind not in "iu":
        raise TypeError("`pad_width` must be of integral type.")
    widths = _pad_pairs(widths, x.ndim, "pad_width")
    if any(w < 0 for pair in widths for w in pair):
        raise ValueError("index can't contain negative values")
    shape = tuple(n + b + a for n, (b, a) in zip(x.shape, widths))
    inner = tuple(slice(b, b + n) for n, (b, a) in zip(x.shape, widths))
    if x.size == 0 and mode not in ("constant", "empty"):
        for ax, (n, pair) in enumerate(zip(x.shape, widths)):
            if n == 0 and any(pair):
                raise ValueError(f"can't extend empty axis {ax} using modes other than 'constant' or 'empty'")
        return _array.empty(shape, dtype=x.dtype, device=x.device)  # no element to write
    out = _array.empty(shape, dtype=x.dtype, device=x.device)
    out[inner] = x
    if mode == "empty":
        return out
    if mode == "constant":
        values = kwargs.get("constant_values", 0)
        if isinstance(values, _array.Array):
            values = values.get()
        values = _pad_pairs(np.asarray(values).astype(x.dtype), x.ndim, "constant_values")
        # As NumPy: axis by axis, each pad over the axes before it in full and the later ones' interior,
        # so every pad element is written once per axis it pads and the last axis wins at the corners.
        for ax, ((b, a), (vb, va)) in enumerate(zip(widths, values)):
            roi = out[(slice(None),) * (ax + 1) + inner[ax + 1:]]
            if b:
                roi[_key(out.ndim, ax, slice(0, b))] = np.asarray(vb, dtype=x.dtype)
            if a:
                roi[_key(out.ndim, ax, slice(shape[ax] - a, None))] = np.asarray(va, dtype=x.dtype)
        return out
    for ax, (n, (b, a)) in enumerate(zip(x.shape, widths)):
        if not b and not a:
            continue
        # NumPy's own 1-D index map for this mode; these modes are separable, axis by axis. Only the later
        # axes' interior is written (their pads come from it later), so no copy reads an unwritten element.
        src = (np.pad(np.arange(n), (b, a), mode=mode) + b).tolist()
        roi = out[(slice(None),) * (ax + 1) + inner[ax + 1:]]
        for first, last in ((0, b), (b + n, b + n + a)):
            for d0, s0, step, cnt in _runs(src[first:last]):
                dst = roi[_key(out.ndim, ax, slice(first + d0, first + d0 + cnt))]
                if step == 0:
                    dst[...] = roi[_key(out.ndim, ax, slice(s0, s0 + 1))]
                else:
                    s_end = s0 + step * cnt
                    dst[...] = roi[_key(out.ndim, ax, slice(s0, s_end if s_end >= 0 else None, step))]
    return out


# ------------------------------------------------------------------------------------------------ rearranging

def fliplr(m):
    """Reverse the order of the columns (the second axis) of an array, as numpy.fliplr.

    Parameters
    ----------
    m : npgpu.Array or array_like
        The input, at least 2-D; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the
        default device.

    Returns
    -------
    npgpu.Array
        A view of `m`: ``m[:, ::-1]``.

    Raises
    ------
    ValueError
        `m` has fewer than 2 dimensions.

    See Also
    --------
    flipud, flip, rot90

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2, 3], [4, 5, 6]], device="cpu")
    >>> npgpu.fliplr(a)
    Array([[3, 2, 1],
           [6, 5, 4]])
    """
    m = _one(m)
    if m.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return m[:, ::-1]


def flipud(m):
    """Reverse the order of the rows (the first axis) of an array, as numpy.flipud.

    Parameters
    ----------
    m : npgpu.Array or array_like
        The input, at least 1-D; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the
        default device.

    Returns
    -------
    npgpu.Array
        A view of `m`: ``m[::-1, ...]``.

    Raises
    ------
    ValueError
        `m` is 0-d.

    See Also
    --------
    fliplr, flip, rot90

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2], [3, 4], [5, 6]], device="cpu")
    >>> npgpu.flipud(a)
    Array([[5, 6],
           [3, 4],
           [1, 2]])
    >>> npgpu.flipud(npgpu.arange(4, device="cpu"))
    Array([3, 2, 1, 0])
    """
    m = _one(m)
    if m.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return m[::-1]


def rot90(m, k=1, axes=(0, 1)):
    """Rotate an array by 90 degrees in the plane of two axes, as numpy.rot90.

    Parameters
    ----------
    m : npgpu.Array or array_like
        The input, at least 2-D; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the
        default device.
    k : int, optional
        The number of quarter turns (default 1); negative turns the other way.
    axes : pair of ints, optional
        The plane of the rotation (default (0, 1)): the rotation turns the first axis towards the second.

    Returns
    -------
    npgpu.Array
        A view of `m` (axes swapped and one reversed).

    Raises
    ------
    ValueError
        `axes` not of length 2, the same axis twice, or an axis out of range.
    TypeError
        `k` or an axis that is not an integer, or `axes` not a sequence.

    See Also
    --------
    flip, fliplr, flipud, transpose

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2], [3, 4]], device="cpu")
    >>> npgpu.rot90(a)
    Array([[2, 4],
           [1, 3]])
    >>> npgpu.rot90(a, 2)
    Array([[4, 3],
           [2, 1]])
    >>> npgpu.rot90(a, axes=(1, 0))
    Array([[3, 1],
           [4, 2]])
    """
    try:
        axes = tuple(axes)
    except TypeError:
        raise TypeError(f"rot90: axes must be a pair of ints, not {type(axes).__name__}") from None
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    m = _one(m)
    a0, a1 = operator.index(axes[0]), operator.index(axes[1])
    if a0 == a1 or abs(a0 - a1) == m.ndim:
        raise ValueError("Axes must be different.")
    if not (-m.ndim <= a0 < m.ndim and -m.ndim <= a1 < m.ndim):
        raise ValueError(f"Axes={axes} out of range for array of ndim={m.ndim}.")
    k = operator.index(k) % 4
    if k == 0:
        return m[...]
    if k == 2:
        return flip(m, (a0, a1))
    perm = list(range(m.ndim))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return flip(m, a1).transpose(perm)
    return flip(m.transpose(perm), a1)


def rollaxis(a, axis, start=0):
    """Move one axis of an array to a position, as numpy.rollaxis (moveaxis says the same more plainly).

    Parameters
    ----------
    a : npgpu.Array or array_like
        The input; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the default device.
    axis : int
        The axis moved.
    start : int, optional
        The axis moves to just before the axis that is at position `start` in `a` (default 0); ``a.ndim``
        moves it to the end. Negative counts from the end.

    Returns
    -------
    npgpu.Array
        A view of `a`.

    Raises
    ------
    numpy.exceptions.AxisError
        `axis` out of range, or `start` outside ``[-a.ndim, a.ndim]``.

    See Also
    --------
    moveaxis, transpose

    Examples
    --------
    >>> x = npgpu.zeros((3, 4, 5, 6), device="cpu")
    >>> npgpu.rollaxis(x, 3, 1).shape
    (3, 6, 4, 5)
    >>> npgpu.rollaxis(x, 1, 4).shape
    (3, 5, 6, 4)
    """
    a = _one(a)
    n = a.ndim
    axis = _axis(axis, n)
    start = operator.index(start)
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        raise AxisError(f"'start' arg requires {-n} <= start < {n + 1}, but {start} was passed in")
    if axis < start:
        start -= 1  # the axis is taken out before it is put back
    if axis == start:
        return a[...]
    order = [d for d in range(n) if d != axis]
    order.insert(start, axis)
    return a.transpose(order)


# ------------------------------------------------------------------------------------------------ splitting by axis

def hsplit(ary, indices_or_sections):
    """Split an array horizontally (along the second axis, the first for 1-D arrays), as numpy.hsplit.

    Parameters
    ----------
    ary : npgpu.Array or array_like
        The input, at least 1-D; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the
        default device.
    indices_or_sections : int or sequence of ints
        As in split: N equal parts, or the pieces between the given indices.

    Returns
    -------
    list of npgpu.Array
        Views of `ary`.

    Raises
    ------
    ValueError
        `ary` is 0-d, and split's errors.

    See Also
    --------
    split, vsplit, dsplit, hstack

    Examples
    --------
    >>> a = npgpu.reshape(npgpu.arange(8, device="cpu"), (2, 4))
    >>> npgpu.hsplit(a, 2)
    [Array([[0, 1],
           [4, 5]]), Array([[2, 3],
           [6, 7]])]
    >>> npgpu.hsplit(npgpu.arange(4, device="cpu"), [1])
    [Array([0]), Array([1, 2, 3])]
    """
    ary = _one(ary)
    if ary.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return split(ary, indices_or_sections, 1 if ary.ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    """Split an array vertically (along the first axis), as numpy.vsplit.

    Parameters
    ----------
    ary : npgpu.Array or array_like
        The input, at least 2-D; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the
        default device.
    indices_or_sections : int or sequence of ints
        As in split: N equal parts, or the pieces between the given indices.

    Returns
    -------
    list of npgpu.Array
        Views of `ary`.

    Raises
    ------
    ValueError
        `ary` has fewer than 2 dimensions, and split's errors.

    See Also
    --------
    split, hsplit, dsplit, vstack

    Examples
    --------
    >>> a = npgpu.reshape(npgpu.arange(6, device="cpu"), (3, 2))
    >>> npgpu.vsplit(a, [1])
    [Array([[0, 1]]), Array([[2, 3],
           [4, 5]])]
    """
    ary = _one(ary)
    if ary.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return split(ary, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    """Split an array along the third axis (depth), as numpy.dsplit.

    Parameters
    ----------
    ary : npgpu.Array or array_like
        The input, at least 3-D; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the
        default device.
    indices_or_sections : int or sequence of ints
        As in split: N equal parts, or the pieces between the given indices.

    Returns
    -------
    list of npgpu.Array
        Views of `ary`.

    Raises
    ------
    ValueError
        `ary` has fewer than 3 dimensions, and split's errors.

    See Also
    --------
    split, hsplit, vsplit, dstack

    Examples
    --------
    >>> a = npgpu.reshape(npgpu.arange(8, device="cpu"), (1, 2, 4))
    >>> [p.shape for p in npgpu.dsplit(a, 2)]
    [(1, 2, 2), (1, 2, 2)]
    """
    ary = _one(ary)
    if ary.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return split(ary, indices_or_sections, 2)


# ------------------------------------------------------------------------------------------------ inserting, deleting

# Up to this many slice copies assemble insert's and delete's output; beyond it one scatter or gather (one
# kernel launch and an index upload on a GPU) is cheaper than a launch per run.
_FEW_RUNS = 8


def _step_runs(dst, src):
    """(dst_start, src_start, count) for each run where both host index arrays `dst` and `src` step by 1."""
    if not len(dst):
        return []
    cut = np.flatnonzero((np.diff(dst) != 1) | (np.diff(src) != 1)) + 1
    starts = np.concatenate(([0], cut))
    counts = np.diff(np.concatenate((starts, [len(dst)])))
    return list(zip(dst[starts].tolist(), src[starts].tolist(), counts.tolist()))


def _drop_leading_ones(values, ndim):
    """`values` without leading length-1 axes beyond `ndim` dimensions, as NumPy's assignment ignores them."""
    lead = 0
    while values.ndim - lead > ndim and values.shape[lead] == 1:
        lead += 1
    return values.reshape(values.shape[lead:]) if lead else values


def _host_index(obj):
    """An index argument as host data: an npgpu.Array is read back (the output's shape depends on it)."""
    return obj.get() if isinstance(obj, _array.Array) else obj


def append(arr, values, axis=None):
    """Append values to the end of an array, as numpy.append.

    Parameters
    ----------
    arr : npgpu.Array or array_like
        The array appended to.
    values : npgpu.Array or array_like
        The values appended: of arr's shape except along `axis` when `axis` is given (any shape otherwise).
        npgpu.Arrays decide the device; other inputs are converted onto it with ``npgpu.asarray`` (the default
        device when there is no npgpu.Array).
    axis : int, optional
        The axis appended along; default (None): both flattened, giving a 1-D result.

    Returns
    -------
    npgpu.Array
        A new array, of NumPy's promotion of the two dtypes.

    Raises
    ------
    ValueError
        With `axis`: numbers of dimensions or sizes off `axis` that differ, or 0-d inputs; npgpu.Arrays on
        different devices.
    numpy.exceptions.AxisError
        `axis` out of range.

    See Also
    --------
    concatenate, insert, delete

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2], [3, 4]], device="cpu")
    >>> npgpu.append(a, [5, 6])
    Array([1, 2, 3, 4, 5, 6])
    >>> npgpu.append(a, [[5, 6]], axis=0)
    Array([[1, 2],
           [3, 4],
           [5, 6]])
    >>> npgpu.append(npgpu.asarray([1, 2], device="cpu"), 2.5)
    Array([1. , 2. , 2.5])
    """
    arr, values = _on_one_device([arr, values], "append")
    return concatenate([arr, values], axis=axis)


def insert(arr, obj, values, axis=None):
    """Insert values before given indices of an array, as numpy.insert.

    Parameters
    ----------
    arr : npgpu.Array or array_like
        The input.
    obj : int, slice or sequence of ints
        The indices (along `axis`, in ``[-n, n]`` for an axis of length n) before which values go: one int, a
        slice (the indices it selects), a 1-D sequence of ints (several values before one index keep their
        order), or a 1-D boolean mask (the indices where it is True). An npgpu.Array is read back to the host
        (the output's layout depends on it).
    values : npgpu.Array or array_like
        The values, cast to arr's dtype. With one int `obj`, `values` (at least arr.ndim dimensions, leading
        length-1 axes added) has its first axis moved to `axis`, and its length along `axis` is the number
        of slices inserted; otherwise it broadcasts to arr's shape with `axis` of length len(obj). npgpu.Arrays
        decide the device; other inputs are converted onto it with ``npgpu.asarray``.
    axis : int, optional
        The axis inserted along; default (None): `arr` flattened first.

    Returns
    -------
    npgpu.Array
        A new array of arr's dtype.

    Raises
    ------
    IndexError
        An index outside ``[-n, n]``, or indices that are not integers (or booleans).
    TypeError
        One index that is not an integer.
    ValueError
        `obj` of more than one dimension (or a 0-d boolean), `values` that do not broadcast to the inserted
        slices, npgpu.Arrays on different devices.
    OverflowError
        A Python integer in `values` out of the range of arr's dtype.
    numpy.exceptions.AxisError
        `axis` out of range.

    See Also
    --------
    append, delete, concatenate

    Notes
    -----
    One allocation, then slice copies (one int `obj`: three); with many indices, where that would take more
    than a few copies, one scatter of `arr` and one of the values.

    Examples
    --------
    >>> a = npgpu.asarray([[1, 1], [2, 2], [3, 3]], device="cpu")
    >>> npgpu.insert(a, 1, 5)
    Array([1, 5, 1, 2, 2, 3, 3])
    >>> npgpu.insert(a, 1, [7, 8, 9], axis=1)
    Array([[1, 7, 1],
           [2, 8, 2],
           [3, 9, 3]])
    >>> npgpu.insert(npgpu.arange(4, device="cpu"), [1, 1, -1], [10, 20, 30])
    Array([ 0, 10, 20,  1,  2, 30,  3])
    >>> npgpu.insert(npgpu.arange(4, device="cpu"), slice(0, 4, 2), 9.7)
    Array([9, 0, 1, 9, 2, 3])
    """
    if isinstance(values, _array.Array):
        arr, values = _on_one_device([arr, values], "insert")
    else:
        arr = _one(arr)

    def cast(values):  # after the axis and index checks, as NumPy converts the values only then
        if isinstance(values, _array.Array):
            return values.astype(arr.dtype, copy=False)
        return _array.asarray(values, dtype=arr.dtype, device=arr.device)

    if axis is None:
        arr = arr.reshape(-1)
        axis = 0
    else:
        axis = _axis(axis, arr.ndim)
    nd, n = arr.ndim, arr.shape[axis]
    if isinstance(obj, slice):
        indices = np.arange(*obj.indices(n), dtype=np.intp)
    else:
        indices = np.array(_host_index(obj))
        if indices.dtype == bool:
            if indices.ndim != 1:
                raise ValueError("boolean array argument obj to insert must be one dimensional")
            indices = np.flatnonzero(indices)
        elif indices.ndim > 1:
            raise ValueError("index array argument obj to insert must be one dimensional or scalar")
    if indices.size == 1:
        if indices.dtype.kind not in "iu":
            raise TypeError(f"insert: the index must be an integer, not {indices.dtype} ({obj!r})")
        index = int(indices.item())
        if not -n <= index <= n:
            raise IndexError(f"index {obj} is out of bounds for axis {axis} with size {n}")
        if index < 0:
            index += n
        values = cast(values)
        if values.ndim < nd:
            values = values.reshape((1,) * (nd - values.ndim) + values.shape)
        if indices.ndim == 0:
            # As NumPy: the values' first axis goes along `axis`, as for a[:, i:i+1] = values.
            values = moveaxis(values, 0, axis)
        k = values.shape[axis]
        shape = arr.shape[:axis] + (n + k,) + arr.shape[axis + 1:]
        out = _array.empty(shape, dtype=arr.dtype, device=arr.device)
        out[_key(nd, axis, slice(index, index + k))] = _drop_leading_ones(values, nd)
        if index:
            out[_key(nd, axis, slice(None, index))] = arr[_key(nd, axis, slice(None, index))]
        if index < n:
            out[_key(nd, axis, slice(index + k, None))] = arr[_key(nd, axis, slice(index, None))]
        return out
    if indices.size == 0 and not isinstance(obj, (np.ndarray, _array.Array)):
        indices = indices.astype(np.intp)  # an empty list inserts nothing
    if indices.dtype.kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    indices = indices.astype(np.intp)
    bad = (indices < -n) | (indices > n)
    if bad.any():
        raise IndexError(f"index {indices[bad][0]} is out of bounds for axis {axis} with size {n}")
    indices[indices < 0] += n
    values = cast(values)
    k = len(indices)
    # Output positions: the values of equal indices in their given order (stable), each after those before it.
    order = np.argsort(indices, kind="stable")
    pos = np.empty(k, dtype=np.intp)
    pos[order] = indices[order] + np.arange(k)
    old_mask = np.ones(n + k, dtype=bool)
    old_mask[pos] = False
    old_pos = np.flatnonzero(old_mask)
    sub_shape = arr.shape[:axis] + (k,) + arr.shape[axis + 1:]
    try:
        values = _array.broadcast_to(_drop_leading_ones(values, nd), sub_shape)
    except ValueError:
        raise ValueError(f"shape mismatch: value array of shape {values.shape} could not be broadcast to "
                         f"indexing result of shape {sub_shape}") from None
    out = _array.empty(arr.shape[:axis] + (n + k,) + arr.shape[axis + 1:], dtype=arr.dtype, device=arr.device)
    old_runs = _step_runs(old_pos, np.arange(n))
    new_runs = _step_runs(pos[order], order)
    if len(old_runs) + len(new_runs) <= _FEW_RUNS:
        for src, runs in ((arr, old_runs), (values, new_runs)):
            for d, s, c in runs:
                out[_key(nd, axis, slice(d, d + c))] = src[_key(nd, axis, slice(s, s + c))]
    else:
        out[_key(nd, axis, _array.asarray(old_pos, device=arr.device))] = arr
        out[_key(nd, axis, _array.asarray(pos, device=arr.device))] = values
    return out


def delete(arr, obj, axis=None):
    """A copy of an array without the given indices along an axis, as numpy.delete.

    Parameters
    ----------
    arr : npgpu.Array or array_like
        The input; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the default device.
    obj : int, slice, sequence of ints or boolean mask
        What is removed along `axis`: an index, a slice, a sequence of indices (repeats allowed; any shape), or
        a 1-D boolean mask of the axis's length (True: removed). Negative indices count from the end. An
        npgpu.Array is read back to the host (the output's shape depends on it).
    axis : int, optional
        The axis deleted along; default (None): `arr` flattened first.

    Returns
    -------
    npgpu.Array
        A new array (also when nothing is deleted).

    Raises
    ------
    IndexError
        An index out of range, or indices that are not integers (or booleans).
    ValueError
        A boolean mask of another shape than ``(n,)`` (or a bool scalar).
    numpy.exceptions.AxisError
        `axis` out of range.

    See Also
    --------
    insert, append

    Notes
    -----
    One allocation and one slice copy per run of kept slices; one gather where there are more than a few runs.

    Examples
    --------
    >>> a = npgpu.reshape(npgpu.arange(12, device="cpu"), (3, 4))
    >>> npgpu.delete(a, 1, axis=0)
    Array([[ 0,  1,  2,  3],
           [ 8,  9, 10, 11]])
    >>> npgpu.delete(a, slice(None, None, 2), axis=1)
    Array([[ 1,  3],
           [ 5,  7],
           [ 9, 11]])
    >>> npgpu.delete(a, [1, 3, 5])
    Array([ 0,  2,  4,  6,  7,  8,  9, 10, 11])
    >>> npgpu.delete(npgpu.arange(4, device="cpu"), [True, False, False, True])
    Array([1, 2])
    """
    arr = _one(arr)
    if axis is None:
        arr = arr.reshape(-1)
        axis = 0
    else:
        axis = _axis(axis, arr.ndim)
    nd, n = arr.ndim, arr.shape[axis]
    keep = np.ones(n, dtype=bool)
    if isinstance(obj, slice):
        keep[obj] = False
    else:
        obj = _host_index(obj)
        single = isinstance(obj, (int, np.integer)) and not isinstance(obj, (bool, np.bool_))
        if not single:
            given = obj
            obj = np.asarray(obj)
            if obj.size == 0 and not isinstance(given, np.ndarray):
                obj = obj.astype(np.intp)  # an empty list deletes nothing
            elif obj.size == 1 and obj.dtype.kind in "ui":
                obj, single = obj.item(), True
        if single:
            if not -n <= obj < n:
                raise IndexError(f"index {obj} is out of bounds for axis {axis} with size {n}")
            keep[obj] = False
        elif obj.dtype == bool:
            if obj.shape != (n,):
                raise ValueError(f"boolean array argument obj to delete must be one dimensional and match the "
                                 f"axis length of {n}")
            keep = ~obj
        else:
            keep[obj,] = False  # NumPy's IndexError for indices out of range or not integers
    kept = np.flatnonzero(keep)
    runs = _step_runs(np.arange(len(kept)), kept)
    if len(runs) > _FEW_RUNS:
        return _indexing.take(arr, _array.asarray(kept, device=arr.device), axis=axis)
    out = _array.empty(arr.shape[:axis] + (len(kept),) + arr.shape[axis + 1:], dtype=arr.dtype,
                       device=arr.device)
    for d, s, c in runs:
        out[_key(nd, axis, slice(d, d + c))] = arr[_key(nd, axis, slice(s, s + c))]
    return out


def resize(a, new_shape):
    """An array of a new shape filled with an array's elements repeated cyclically, as numpy.resize.

    Parameters
    ----------
    a : npgpu.Array or array_like
        The input, read in C order; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto
        the default device.
    new_shape : int or sequence of ints
        The shape of the result.

    Returns
    -------
    npgpu.Array
        A new array of a's dtype: a's elements (flattened) repeated as often as needed, the last repetition cut
        short; zeros when `a` is empty.

    Raises
    ------
    ValueError
        A negative size in `new_shape`.
    TypeError
        `new_shape` holds something other than integers.

    See Also
    --------
    reshape, tile, repeat

    Notes
    -----
    One allocation and two copies: the whole repetitions as one broadcast copy, then the cut-short one.

    Examples
    --------
    >>> a = npgpu.asarray([[0, 1], [2, 3]], device="cpu")
    >>> npgpu.resize(a, (2, 3))
    Array([[0, 1, 2],
           [3, 0, 1]])
    >>> npgpu.resize(a, 3)
    Array([0, 1, 2])
    >>> npgpu.resize(npgpu.asarray([], device="cpu"), (1, 2))
    Array([[0., 0.]])
    """
    a = _one(a)
    try:
        shape = (operator.index(new_shape),)
    except TypeError:
        shape = tuple(operator.index(d) for d in new_shape)
    if any(d < 0 for d in shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    size = math.prod(shape)
    if a.size == 0 or size == 0:
        return _array.zeros(shape, dtype=a.dtype, device=a.device)
    flat = a.reshape(-1)
    n = flat.shape[0]
    whole, rest = divmod(size, n)
    out = _array.empty((size,), dtype=a.dtype, device=a.device)
    if whole:
        out[:whole * n].reshape(whole, n)[...] = flat  # broadcast over the repetitions
    if rest:
        out[whole * n:] = flat[:rest]
    return out.reshape(shape)


def trim_zeros(filt, trim="fb", axis=None):
    """Trim the leading and/or trailing zeros of an array, as numpy.trim_zeros.

    Parameters
    ----------
    filt : npgpu.Array or array_like
        The input; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the default device.
    trim : {"fb", "f", "b"}, optional
        Trim the front ("f"), the back ("b") or both (default "fb"; "bf" too; any case).
    axis : int or sequence of ints, optional
        The axes trimmed (default: all): the result is the smallest box along them that holds every non-zero
        element (NaN counts as non-zero). An all-zero input gives length 0 along them.

    Returns
    -------
    npgpu.Array
        A view of `filt` (`filt` itself when there is no axis to trim, e.g. a 0-d input).

    Raises
    ------
    ValueError
        A `trim` other than those above, or a repeated axis.
    TypeError
        `trim` is not a str.
    numpy.exceptions.AxisError
        An axis out of range.

    See Also
    --------
    nonzero, flatnonzero

    Notes
    -----
    The bounds must be known on the host to slice: per trimmed axis, the positions of the non-zero slices are
    found on the array's device and only the first and last of them read back.

    Examples
    --------
    >>> x = npgpu.asarray([0, 0, 1, 2, 0, 3, 0], device="cpu")
    >>> npgpu.trim_zeros(x)
    Array([1, 2, 0, 3])
    >>> npgpu.trim_zeros(x, "b")
    Array([0, 0, 1, 2, 0, 3])
    >>> npgpu.trim_zeros(npgpu.asarray([[0, 0, 0], [0, 5, 0]], device="cpu"))
    Array([[5]])
    """
    filt = _one(filt)
    if not isinstance(trim, str):
        raise TypeError(f"trim_zeros: trim must be a str, not {type(trim).__name__}")
    trim = trim.lower()
    if trim not in ("fb", "bf", "f", "b"):
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    nd = filt.ndim
    axes = tuple(range(nd)) if axis is None else _axes(axis, nd, "axis")
    if not axes:
        return filt
    nonzero = filt != 0
    key = [slice(None)] * nd
    for ax in axes:
        others = tuple(d for d in range(nd) if d != ax)
        along = nonzero.any(axis=others) if others else nonzero
        found = _indexing.flatnonzero(along)
        if found.size == 0:  # all zero: empty along every trimmed axis
            for d in axes:
                key[d] = slice(0, 0)
            break
        lo = int(found[0]) if "f" in trim else None  # one value read back from the device
        hi = int(found[-1]) + 1 if "b" in trim else None  # and one more
        key[ax] = slice(lo, hi)
    return filt[tuple(key)]


# ------------------------------------------------------------------------------------------------ block

def _block_index(index):
    return "arrays" + "".join(f"[{i}]" for i in index if i is not None)


def _block_leaves(arrays, index, leaves):
    """The index of a bottom element of nested lists `arrays` (ending in None for an empty list); checks that
    all the list depths match (NumPy's rules and messages) and appends the leaves, depth first, to `leaves`."""
    if isinstance(arrays, tuple):
        raise TypeError(f"{_block_index(index)} is a tuple. Only lists can be used to arrange blocks, and "
                        f"np.block does not allow implicit conversion from tuple to ndarray.")
    if not isinstance(arrays, list):
        leaves.append(arrays)
        return index
    if not arrays:
        return index + [None]
    first = None
    for i, sub in enumerate(arrays):
        bottom = _block_leaves(sub, index + [i], leaves)
        if first is None:
            first = bottom
            continue
        if len(bottom) != len(first):
            raise ValueError(f"List depths are mismatched. First element was at depth {len(first)}, but there is "
                             f"an element at depth {len(bottom)} ({_block_index(bottom)})")
        if bottom[-1] is None:
            first = bottom
    return first


def _block_layout(arrays, leaves, depth, list_ndim, result_ndim):
    """(shape, [(slices, leaf)]) of the nested lists `arrays`; leaves taken in order from the iterator."""
    if depth == list_ndim:
        leaf = next(leaves)
        leaf = leaf.reshape((1,) * (result_ndim - leaf.ndim) + leaf.shape)
        return leaf.shape, [((), leaf)]
    parts = [_block_layout(sub, leaves, depth + 1, list_ndim, result_ndim) for sub in arrays]
    axis = result_ndim - list_ndim + depth
    first = parts[0][0]
    if any(s[:axis] != first[:axis] or s[axis + 1:] != first[axis + 1:] for s, _ in parts):
        raise ValueError(f"Mismatched array shapes in block along axis {axis}.")
    placed, pos = [], 0
    for s, sub in parts:
        placed += [((slice(pos, pos + s[axis]),) + sl, leaf) for sl, leaf in sub]
        pos += s[axis]
    return first[:axis] + (pos,) + first[axis + 1:], placed


def block(arrays):
    """Assemble an array from nested lists of blocks, as numpy.block.

    The innermost lists are joined along the last axis, the lists holding them along the one before, and so
    on; each block first gets leading length-1 axes up to the result's number of dimensions (the largest of
    the blocks' numbers of dimensions and the list depth).

    Parameters
    ----------
    arrays : nested list of npgpu.Array or array_like, or npgpu.Array or array_like
        The blocks, in lists (not tuples) nested to one depth throughout. npgpu.Arrays decide the device; other
        blocks are converted onto it with ``npgpu.asarray`` (the default device when there is no npgpu.Array).
        A single block (no list) gives a copy of it.

    Returns
    -------
    npgpu.Array
        A new array, of NumPy's promotion of the blocks' dtypes.

    Raises
    ------
    ValueError
        List depths that differ, an empty list, blocks whose shapes do not fit together, npgpu.Arrays on
        different devices.
    TypeError
        A tuple where a list or block belongs.

    See Also
    --------
    concatenate, stack, hstack, vstack

    Notes
    -----
    One allocation and one slice copy per block.

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2], [3, 4]], device="cpu")
    >>> npgpu.block([[a, npgpu.zeros((2, 1), dtype=a.dtype, device="cpu")], [np.array([[5, 6, 7]])]])
    Array([[1, 2, 0],
           [3, 4, 0],
           [5, 6, 7]])
    >>> npgpu.block([npgpu.arange(3, device="cpu"), 10, np.array([20, 30])])
    Array([ 0,  1,  2, 10, 20, 30])
    """
    leaves = []
    bottom = _block_leaves(arrays, [], leaves)
    if bottom and bottom[-1] is None:
        raise ValueError(f"List at {_block_index(bottom)} cannot be empty")
    leaves = _on_one_device(leaves, "block")
    list_ndim = len(bottom)
    if list_ndim == 0:
        return leaves[0].copy()
    result_ndim = max(list_ndim, *(a.ndim for a in leaves))
    shape, placed = _block_layout(arrays, iter(leaves), 0, list_ndim, result_ndim)
    out = _array.empty(shape, dtype=np.result_type(*[a.dtype for a in leaves]), device=leaves[0].device)
    for sl, leaf in placed:
        if leaf.size:
            out[(Ellipsis,) + sl] = leaf
    return out


# ------------------------------------------------------------------------------------------------ selecting

def _weak(v):
    """`v` for np.result_type: a Python scalar stays one (weak, as NEP 50), an npgpu.Array gives its dtype."""
    if isinstance(v, _array.Array):
        return v.dtype
    if isinstance(v, (bool, int, float, complex)):
        return v
    return np.asarray(v).dtype


def select(condlist, choicelist, default=0):
    """Elements from a list of choices, each where the first true condition picks it, as numpy.select.

    Parameters
    ----------
    condlist : sequence of npgpu.Array or array_like of bool
        The conditions; where several are true the first one wins.
    choicelist : sequence of npgpu.Array or array_like
        One choice per condition, broadcast with the conditions.
    default : scalar or npgpu.Array or array_like, optional
        The element where no condition is true (default 0).

    Returns
    -------
    npgpu.Array
        The broadcast shape of the conditions, choices and default, of NumPy's promotion of the choices'
        dtypes with the default's (a Python scalar default is weak, as NumPy 2). npgpu.Arrays decide the
        device; other inputs are converted onto it (the default device when there is no npgpu.Array).

    Raises
    ------
    ValueError
        Lists of different lengths, empty lists, shapes that do not broadcast, npgpu.Arrays on different
        devices.
    TypeError
        A condition not of the bool dtype; choices and default without a common dtype.

    See Also
    --------
    where, choose, piecewise

    Notes
    -----
    One `where` per condition, from the last to the first, over the default.

    Examples
    --------
    >>> x = npgpu.arange(6, device="cpu")
    >>> npgpu.select([x < 3, x > 4], [x, x ** 2], 42)
    Array([ 0,  1,  2, 42, 42, 25])
    >>> npgpu.select([x < 2, x < 4], [x * 10, -x])
    Array([ 0, 10, -2, -3,  0,  0])
    """
    condlist, choicelist = list(condlist), list(choicelist)
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if not condlist:
        raise ValueError("select with an empty condition list is not possible")
    arrays = _on_one_device(condlist + choicelist + [default], "select")
    n = len(condlist)
    conds, choices, dflt = arrays[:n], arrays[n:2 * n], arrays[-1]
    try:
        dtype = np.result_type(np.result_type(*[c.dtype for c in choices]), _weak(default))
    except TypeError as e:
        raise TypeError(f"Choicelist and default value do not have a common dtype: {e}") from None
    for i, c in enumerate(conds):
        if c.dtype != np.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    shape = broadcast_shapes(*[a.shape for a in arrays])
    out = _array.empty(shape, dtype=dtype, device=dflt.device)
    out[...] = dflt.astype(dtype, copy=False)
    for c, v in zip(conds[::-1], choices[::-1]):
        out = _elementwise.where(c, v.astype(dtype, copy=False), out)
    return out


def piecewise(x, condlist, funclist, *args, **kw):
    """Evaluate a function (or take a value) on each piece of an array that a condition selects, as
    numpy.piecewise.

    Parameters
    ----------
    x : npgpu.Array or array_like
        The input; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the default device.
    condlist : bool, npgpu.Array or sequence of them
        The conditions, each of x's shape (or a scalar), converted to bool. A single condition may be given
        alone (not in a list) when `x` is not 0-d.
    funclist : sequence of callables or scalars
        One per condition, plus one more for where no condition holds (the "otherwise" piece). A callable is
        called with the selected elements (a 1-D npgpu.Array) and `args`, `kw`; a scalar is the value there.
    *args, **kw
        Passed on to each callable.

    Returns
    -------
    npgpu.Array
        x's shape and dtype: each element from the last condition that holds there, 0 where none holds (and
        there is no "otherwise" piece).

    Raises
    ------
    ValueError
        `funclist` of another length than the number of conditions or one more; conditions of different
        shapes.
    IndexError
        A condition whose shape is not x's.

    See Also
    --------
    select, where

    Examples
    --------
    >>> x = npgpu.asarray([-2.0, -0.5, 0.5, 2.0], device="cpu")
    >>> npgpu.piecewise(x, [x < 0, x >= 0], [-1, 1])
    Array([-1., -1.,  1.,  1.])
    >>> npgpu.piecewise(x, [x < 0], [lambda v: -v, lambda v: v * 10])
    Array([ 2. ,  0.5,  5. , 20. ])
    """
    x = _one(x)
    n2 = len(funclist)
    if isinstance(condlist, _array.Array):
        wrap = condlist.ndim == 0 or (condlist.ndim == 1 and x.ndim != 0)
        conds = [condlist] if wrap else [condlist[i] for i in range(condlist.shape[0])]
    elif np.isscalar(condlist) or np.ndim(condlist) == 0 and not isinstance(condlist, (list, tuple)):
        conds = [condlist]
    else:
        condlist = list(condlist)
        if not condlist:
            raise IndexError("piecewise: condlist is empty")
        if not isinstance(condlist[0], (list, np.ndarray, _array.Array)) and x.ndim != 0:
            conds = [condlist]
        else:
            conds = condlist
    conds = [(c if isinstance(c, _array.Array) else _array.asarray(np.asarray(c), device=x.device)).astype(bool)
             for c in _on_one_device([x] + conds, "piecewise")[1:]]
    if any(c.shape != conds[0].shape for c in conds):
        raise ValueError("piecewise: the conditions have different shapes")
    n = len(conds)
    if n == n2 - 1:
        anyc = conds[0]
        for c in conds[1:]:
            anyc = anyc | c
        conds.append(~anyc)
        n += 1
    elif n != n2:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    if conds[0].ndim == 0:
        conds = [broadcast_to(c, x.shape) for c in conds]
    elif conds[0].shape != x.shape:
        raise IndexError(f"boolean index did not match indexed array: the conditions have shape {conds[0].shape}, "
                         f"the array {x.shape}")
    y = _array.zeros(x.shape, dtype=x.dtype, device=x.device)
    for cond, func in zip(conds, funclist):
        if x.ndim == 0:
            if not bool(cond):
                continue
            r = func(x.reshape(1), *args, **kw) if callable(func) else func
            y[...] = r.reshape(()) if isinstance(r, (_array.Array, np.ndarray)) and r.size == 1 else r
            continue
        if not callable(func):
            y[cond] = func
        else:
            vals = x[cond]
            if vals.size > 0:
                y[cond] = func(vals, *args, **kw)
    return y


def _in_place_target(arr, name, what):
    """`arr` (an npgpu.Array or a NumPy array, written in place) and the device its mask goes to."""
    if isinstance(arr, _array.Array):
        return arr.device
    if isinstance(arr, np.ndarray):  # the device NumPy operands of an operation run on
        return _runtime.cpu if _runtime.get_backend() == "cpu" else _runtime.Device(_runtime.get_device_id())
    raise TypeError(f"{name}: {what} must be an npgpu.Array or a numpy.ndarray, not {type(arr).__name__}")


def _flat_mask(mask, size, device, name):
    """The positions where `mask` (any dtype, taken as bool) is true, as int64 on `device`."""
    m = mask if isinstance(mask, _array.Array) else _array.asarray(np.asarray(mask), device=device)
    if m.size != size:
        raise ValueError(f"{name}: mask and data must be the same size")
    return _indexing.flatnonzero(m.reshape(-1) != 0) if m.dtype != np.bool_ else _indexing.flatnonzero(m.reshape(-1))


def _flat_values(vals, dtype, device):
    """`vals` flattened, in `dtype`, on `device`: arrays must cast safely, other values are converted (as NumPy)."""
    if isinstance(vals, (_array.Array, np.ndarray)):
        if not np.can_cast(vals.dtype, dtype, "safe"):
            raise TypeError(f"Cannot cast array data from {vals.dtype!r} to {np.dtype(dtype)!r} according to the "
                            f"rule 'safe'")
        v = vals if isinstance(vals, _array.Array) else _array.asarray(vals, device=device)
        return v.reshape(-1).astype(dtype, copy=False)
    return _array.asarray(np.asarray(vals, dtype=dtype), device=device).reshape(-1)


def place(arr, mask, vals):
    """Write values, repeated in order, where a mask is true, in place, as numpy.place.

    The k-th true element of `mask` (in C order) receives ``vals[k % len(vals)]``.

    Parameters
    ----------
    arr : npgpu.Array or numpy.ndarray
        The array written to, in place (writeable).
    mask : npgpu.Array or array_like
        Of arr's size, taken as bool; other than an npgpu.Array, converted onto arr's device.
    vals : npgpu.Array or array_like
        The values (flattened): arrays must cast safely to arr's dtype, lists and scalars are converted to
        it (as NumPy); only the first as many as there are true elements are used,
        repeated when fewer.

    Returns
    -------
    None

    Raises
    ------
    TypeError
        `arr` neither an npgpu.Array nor a numpy.ndarray; `vals` an array whose dtype does not cast safely to
        arr's.
    ValueError
        `mask` of another size than `arr`; empty `vals` where `mask` has a true element; `arr` read-only.

    See Also
    --------
    putmask, put, extract

    Examples
    --------
    >>> a = npgpu.arange(6, device="cpu")
    >>> npgpu.place(a, a > 2, [40, 50])
    >>> a
    Array([ 0,  1,  2, 40, 50, 40])
    """
    device = _in_place_target(arr, "place", "arr")
    where = _flat_mask(mask, arr.size, device, "place")
    if where.size == 0:
        return None
    v = _flat_values(vals, arr.dtype, device)
    if v.size == 0:
        raise ValueError("Cannot insert from an empty array!")
    _indexing.put(arr, where, v)
    return None


def putmask(a, mask, values):
    """Write values where a mask is true, in place, as numpy.putmask.

    Element i (in C order) of `a` receives ``values[i % len(values)]`` where ``mask[i]`` is true: the values
    are repeated by position in `a`, not by the count of true elements (as `place` does).

    Parameters
    ----------
    a : npgpu.Array or numpy.ndarray
        The array written to, in place (writeable).
    mask : npgpu.Array or array_like
        Of a's size, taken as bool; other than an npgpu.Array, converted onto a's device.
    values : npgpu.Array or array_like
        The values (flattened): arrays must cast safely to a's dtype, lists and scalars are converted to it
        (as NumPy); empty values write nothing.

    Returns
    -------
    None

    Raises
    ------
    TypeError
        `a` neither an npgpu.Array nor a numpy.ndarray; `values` an array whose dtype does not cast safely to
        a's.
    ValueError
        `mask` of another size than `a`; `a` read-only.

    See Also
    --------
    place, put, where

    Examples
    --------
    >>> a = npgpu.arange(6, device="cpu")
    >>> npgpu.putmask(a, a > 2, [40, 50])
    >>> a
    Array([ 0,  1,  2, 50, 40, 50])
    """
    device = _in_place_target(a, "putmask", "a")
    where = _flat_mask(mask, a.size, device, "putmask")
    v = _flat_values(values, a.dtype, device)
    if where.size == 0 or v.size == 0:
        return None
    _indexing.put(a, where, _indexing.take(v, where % v.size))
    return None


# ------------------------------------------------------------------------------------------------ applying

def _as_result(r, device):
    return r if isinstance(r, _array.Array) else _array.asarray(np.asarray(r), device=device)


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """Apply a function to the 1-D slices of an array along an axis, as numpy.apply_along_axis.

    Parameters
    ----------
    func1d : callable
        Called as ``func1d(slice, *args, **kwargs)`` with each 1-D slice (an npgpu.Array view); it returns an
        npgpu.Array, a NumPy array or a scalar. The first result sets the shape and dtype of all: the others are
        broadcast and cast to them.
    axis : int
        The axis the slices run along.
    arr : npgpu.Array or array_like
        The input; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the default device.
    *args, **kwargs
        Passed on to `func1d`.

    Returns
    -------
    npgpu.Array
        arr's shape with `axis` replaced by the results' shape (removed for scalar results), of the first
        result's dtype, on arr's device.

    Raises
    ------
    ValueError
        An axis other than `axis` of length 0 (nothing to call `func1d` with); a result that does not
        broadcast to the first one's shape.
    numpy.exceptions.AxisError
        `axis` out of range (also for a 0-d `arr`).

    See Also
    --------
    apply_over_axes, vectorize

    Notes
    -----
    One call of `func1d` per slice, and one copy of its result into the output.

    Examples
    --------
    >>> a = npgpu.asarray([[1, 5, 3], [4, 2, 6]], device="cpu")
    >>> npgpu.apply_along_axis(lambda v: v.max() - v.min(), 1, a)
    Array([4, 4])
    >>> npgpu.apply_along_axis(npgpu.sort, 0, a)
    Array([[1, 2, 3],
           [4, 5, 6]])
    """
    arr = _one(arr)
    nd = arr.ndim
    axis = _axis(axis, nd)
    view = moveaxis(arr, axis, -1)
    outer = view.shape[:-1]
    inds = itertools.product(*[range(d) for d in outer])
    try:
        ind0 = next(inds)
    except StopIteration:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0") from None
    res = _as_result(func1d(view[ind0], *args, **kwargs), arr.device)
    buff = _array.empty(outer + res.shape, dtype=res.dtype, device=arr.device)
    buff[ind0] = res
    for ind in inds:
        buff[ind] = _as_result(func1d(view[ind], *args, **kwargs), arr.device)  # broadcast, as NumPy's
    dims = list(range(buff.ndim))
    perm = dims[:axis] + dims[buff.ndim - res.ndim:] + dims[axis:buff.ndim - res.ndim]
    return transpose(buff, perm)


def apply_over_axes(func, a, axes):
    """Apply a reducing function over several axes in turn, keeping their dimensions, as numpy.apply_over_axes.

    Parameters
    ----------
    func : callable
        Called as ``func(array, axis)``; it returns an array of the same number of dimensions or one fewer
        (the axis is then inserted back as length 1).
    a : npgpu.Array or array_like
        The input; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the default device.
    axes : int or sequence of ints
        The axes, in order (negative ones count from the end).

    Returns
    -------
    npgpu.Array
        a's number of dimensions.

    Raises
    ------
    ValueError
        `func` returns an array of another number of dimensions.

    See Also
    --------
    apply_along_axis, sum

    Examples
    --------
    >>> a = npgpu.reshape(npgpu.arange(24, device="cpu"), (2, 3, 4))
    >>> npgpu.apply_over_axes(npgpu.sum, a, [0, 2])
    Array([[[ 60],
            [ 92],
            [124]]])
    """
    val = _one(a)
    n = val.ndim
    axes = (axes,) if np.ndim(axes) == 0 else tuple(axes)
    for axis in axes:
        axis = operator.index(axis)
        if axis < 0:
            axis += n
        res = _as_result(func(val, axis), val.device)
        if res.ndim == val.ndim:
            val = res
        else:
            res = expand_dims(res, axis)
            if res.ndim != val.ndim:
                raise ValueError("function is not returning an array of the correct shape")
            val = res
    return val


# ------------------------------------------------------------------------------------------------ bits

def _bitorder(bitorder):
    if bitorder not in ("big", "little"):
        raise ValueError("'order' must be either 'little' or 'big'")
    return bitorder


def packbits(a, /, axis=None, bitorder="big"):
    """Pack the elements of an array, as bits (non-zero: 1), into uint8 bytes, as numpy.packbits.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Integers or bools; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the default
        device.
    axis : int, optional
        The axis packed along; default (None): `a` flattened first.
    bitorder : {"big", "little"}, optional
        "big" (default): the first element is a byte's most significant bit; "little": its least.

    Returns
    -------
    npgpu.Array
        uint8: `axis` of length ``ceil(n / 8)``, the last byte padded with zero bits.

    Raises
    ------
    TypeError
        `a` not of an integer or bool dtype.
    ValueError
        Another `bitorder`.
    numpy.exceptions.AxisError
        `axis` out of range.

    See Also
    --------
    unpackbits

    Examples
    --------
    >>> npgpu.packbits(npgpu.asarray([1, 0, 1, 1, 0, 0, 0, 0, 1], device="cpu"))
    Array([176, 128], dtype=uint8)
    >>> npgpu.packbits(npgpu.asarray([[True, False, True]], device="cpu"), axis=1, bitorder="little")
    Array([[5]], dtype=uint8)
    """
    a = _one(a)
    if a.dtype.kind not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    _bitorder(bitorder)
    if axis is None:
        a, axis = a.reshape(-1), 0
    axis = _axis(axis, a.ndim)
    bits = moveaxis(a != 0, axis, -1)
    n = bits.shape[-1]
    m = -(-n // 8)
    padded = _array.zeros(bits.shape[:-1] + (m * 8,), dtype=np.uint8, device=a.device)
    if n:
        padded[..., :n] = bits
    weights = np.array([128, 64, 32, 16, 8, 4, 2, 1], dtype=np.uint8)
    if bitorder == "little":
        weights = weights[::-1].copy()
    w = _array.asarray(weights, device=a.device)
    packed = _reduce.sum(padded.reshape(bits.shape[:-1] + (m, 8)) * w, axis=-1).astype(np.uint8)
    return moveaxis(packed, -1, axis)


def unpackbits(a, /, axis=None, count=None, bitorder="big"):
    """Unpack the bits of uint8 bytes into a uint8 array of 0s and 1s, as numpy.unpackbits.

    Parameters
    ----------
    a : npgpu.Array or array_like
        uint8; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the default device.
    axis : int, optional
        The axis unpacked along; default (None): `a` flattened first.
    count : int, optional
        How many bits to keep along `axis`: the first `count` (zeros added past the last byte's bits), or with a
        negative count all but the last ``-count``. Default: all ``8 * n``.
    bitorder : {"big", "little"}, optional
        "big" (default): a byte's most significant bit comes first; "little": its least.

    Returns
    -------
    npgpu.Array
        uint8 0s and 1s.

    Raises
    ------
    TypeError
        `a` not uint8; `count` not an integer.
    ValueError
        Another `bitorder`; a negative `count` beyond the number of bits.
    numpy.exceptions.AxisError
        `axis` out of range (a 0-d `a` with no `axis` too, as NumPy).

    See Also
    --------
    packbits

    Examples
    --------
    >>> npgpu.unpackbits(npgpu.asarray([176, 128], dtype=npgpu.uint8, device="cpu"), count=9)
    Array([1, 0, 1, 1, 0, 0, 0, 0, 1], dtype=uint8)
    >>> npgpu.unpackbits(npgpu.asarray([[5]], dtype=npgpu.uint8, device="cpu"), axis=1, bitorder="little")
    Array([[1, 0, 1, 0, 0, 0, 0, 0]], dtype=uint8)
    """
    a = _one(a)
    if a.dtype != np.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    _bitorder(bitorder)
    if count is not None:
        try:
            count = operator.index(count)
        except TypeError:
            raise TypeError(f"count must be an integer or None, not {type(count).__name__}") from None
    if axis is None:
        if a.ndim == 0:
            raise AxisError(0, 0)
        a, axis = a.reshape(-1), 0
    axis = _axis(axis, a.ndim)
    moved = moveaxis(a, axis, -1)
    n8 = moved.shape[-1] * 8
    shifts = np.arange(7, -1, -1, dtype=np.uint8) if bitorder == "big" else np.arange(8, dtype=np.uint8)
    s = _array.asarray(shifts, device=a.device)
    bits = ((moved.reshape(moved.shape + (1,)) >> s) & np.uint8(1)).reshape(moved.shape[:-1] + (n8,))
    if count is not None:
        if count < 0:
            if -count > n8:
                raise ValueError("-count larger than number of elements")
            bits = bits[..., :n8 + count]
        elif count <= n8:
            bits = bits[..., :count]
        else:
            full_bits = _array.zeros(moved.shape[:-1] + (count,), dtype=np.uint8, device=a.device)
            full_bits[..., :n8] = bits
            bits = full_bits
    return moveaxis(bits.astype(np.uint8, copy=False), -1, axis)


# ------------------------------------------------------------------------------------------------ sorting

def sort_complex(a):
    """An array sorted along its last axis as complex numbers (real part first, then imaginary), as
    numpy.sort_complex.

    Parameters
    ----------
    a : npgpu.Array or array_like
        The input; other inputs than npgpu.Arrays are converted with ``npgpu.asarray`` onto the default device.

    Returns
    -------
    npgpu.Array
        A sorted copy, complex: a's complex dtype; complex64 for int8, uint8, int16, uint16 (and their
        NumPy char codes 'bhBH'); complex128 otherwise, as NumPy.

    Raises
    ------
    numpy.exceptions.AxisError
        A 0-d `a` (no last axis to sort).

    See Also
    --------
    sort

    Examples
    --------
    >>> npgpu.sort_complex(npgpu.asarray([5, 3, 6, 2, 1], device="cpu"))
    Array([1.+0.j, 2.+0.j, 3.+0.j, 5.+0.j, 6.+0.j])
    >>> npgpu.sort_complex(npgpu.asarray([1 + 2j, 2 - 1j, 3 - 2j, 3 - 3j, 3 + 5j], device="cpu"))
    Array([1.+2.j, 2.-1.j, 3.-3.j, 3.-2.j, 3.+5.j])
    """
    a = _one(a)
    if a.ndim == 0:
        raise AxisError(-1, 0)
    b = _sorting.sort(a, axis=-1)
    if b.dtype.kind == "c":
        return b
    return b.astype(np.complex64 if b.dtype.char in "bhBH" else np.complex128)


def _byteswap(a, inplace=False):
    """``a.byteswap(inplace)``: each item's bytes reversed (each part's for complex), as numpy.ndarray.byteswap.

    The result holds the same bits as NumPy's; npgpu then reads them in native order, as NumPy does.
    """
    unit = a.dtype.itemsize // (2 if a.dtype.kind == "c" else 1)
    if unit == 1:
        return a if inplace else a.copy()
    from npgpu._creation import ascontiguousarray

    # As bytes, one row per item (or part), the columns reversed; a copy when `a` is not C-contiguous.
    rows = ascontiguousarray(a).reshape(-1).view(np.uint8).reshape(-1, unit)
    swapped = ascontiguousarray(rows[:, ::-1]).reshape(-1).view(a.dtype).reshape(a.shape)
    if not inplace:
        return swapped
    a[...] = swapped
    return a


class FlatIterator:
    """``a.flat``: an npgpu.Array's elements in C order, as numpy.flatiter.

    ``it[key]`` reads elements by flat position (integers, slices, index arrays, boolean masks) into a new
    array; ``it[key] = values`` writes them, the values repeated cyclically when fewer, as NumPy's;
    iterating brings the array to the host once and yields NumPy scalars.
    """

    __slots__ = ("base",)

    def __init__(self, base):
        self.base = base

    def __len__(self):
        return self.base.size

    def __repr__(self):
        return f"<npgpu flat iterator over an Array of shape {self.base.shape}>"

    def _element(self, key):
        """The N-d index of flat position `key` (an integer), bounds checked as NumPy's."""
        n = self.base.size
        k = operator.index(key)
        if not -n <= k < n:
            raise IndexError(f"index {k} is out of bounds for axis 0 with size {n}")
        return np.unravel_index(k % n, self.base.shape)

    def __getitem__(self, key):
        a = self.base
        if not a.flags["C_CONTIGUOUS"] and isinstance(key, (int, np.integer)):
            return a[self._element(key)]  # one element, not a flat copy of the whole array
        return a.reshape(-1)[key]

    def __setitem__(self, key, value):
        from npgpu._creation import arange, unravel_index

        a = self.base
        values = value if isinstance(value, _array.Array) else _array.asarray(value, device=a.device)
        if isinstance(key, (int, np.integer, slice)) and a.flags["C_CONTIGUOUS"]:
            target, index = a.reshape(-1), key  # a view: no index array needed
            shape = target[index].shape
        elif isinstance(key, (int, np.integer)):
            target, index, shape = a, self._element(key), ()
        else:
            positions = arange(a.size, device=a.device)[key]
            target, index = (a.reshape(-1), positions) if a.flags["C_CONTIGUOUS"] else \
                (a, unravel_index(positions, a.shape))
            shape = positions.shape
        if isinstance(key, (int, np.integer)) and values.ndim != 0:
            raise ValueError("Error setting single item of array.")  # one scalar only, as NumPy
        if values.size == 0 or math.prod(shape) == 0:
            return  # nothing to repeat, or nowhere to write: NumPy's flatiter does nothing either
        if values.shape != shape:
            values = resize(values, shape)  # cyclic, as numpy.flatiter's assignment
        target[index] = values

    def __iter__(self):
        return iter(self.base.get().flat)

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self.base.get().reshape(-1), dtype=dtype)

    def copy(self):
        """A flat copy of the array (``a.flatten()``)."""
        return self.base.flatten()
