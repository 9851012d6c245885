"""Array manipulation of the Array API standard and NumPy: joining, splitting, broadcasting, reordering,
repeating and padding. Views wherever NumPy gives views (flip, expand_dims, broadcast_to, split, moveaxis);
otherwise one output allocation filled by slice assignments, which run the copy kernel of the array's device
(memory-speed copies on the GPU), never loops over elements (`repeat` with one count per element: one copy per
run of equal counts).

Inputs that are not npgpu.Arrays (NumPy arrays, lists, scalars) are converted with ``npgpu.asarray`` onto the
device of the npgpu.Arrays beside them (the default device when there are none); npgpu.Arrays on different
devices raise ValueError. Shapes, axes and counts live on the host, so no function here reads array data back
from the device except `repeat` with an npgpu.Array of counts (the output shape depends on them)."""
import itertools
import math
import operator

import numpy as np
from numpy.exceptions import AxisError

from npgpu import _array

__all__ = ["concat", "concatenate", "stack", "unstack", "split", "array_split", "hstack", "vstack", "dstack",
           "column_stack", "broadcast_to", "broadcast_arrays", "broadcast_shapes", "expand_dims", "squeeze",
           "flip", "roll", "moveaxis", "swapaxes", "permute_dims", "transpose", "repeat", "tile", "pad",
           "reshape", "ravel", "atleast_1d", "atleast_2d", "atleast_3d"]


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
    """Join arrays along an existing axis (``axis=None``: each flattened first), as numpy.concatenate: the
    result dtype is NumPy's promotion of the inputs' dtypes (or `dtype`, or out's dtype), each input checked
    against it with `casting`; one output allocation and one slice copy per input."""
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


def concat(arrays, /, *, axis=0):
    """Join arrays along an existing axis (``axis=None``: flattened first): the Array API's name for
    concatenate, with NumPy's type promotion."""
    return concatenate(arrays, axis=axis)


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """Join arrays of one shape along a new axis `axis` of the result, as numpy.stack (dtype, out and
    casting as in concatenate): one allocation, one slice copy per input."""
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
    """The slices of `x` along `axis`, as a tuple of views (numpy.unstack, the Array API's unstack)."""
    x = _one(x)
    if x.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    ax = _axis(axis, x.ndim)
    return tuple(x[_key(x.ndim, ax, i)] for i in range(x.shape[ax]))


def atleast_1d(*arys):
    """Each input with at least one dimension (views), as numpy.atleast_1d: one array for one input, else
    a tuple."""
    res = [a if a.ndim >= 1 else a.reshape(1) for a in _on_one_device(arys, "atleast_1d")]
    return res[0] if len(res) == 1 else tuple(res)


def atleast_2d(*arys):
    """Each input with at least two dimensions (views; a 1-D array becomes one row), as numpy.atleast_2d."""
    res = [a.reshape(1, 1) if a.ndim == 0 else a[None] if a.ndim == 1 else a
           for a in _on_one_device(arys, "atleast_2d")]
    return res[0] if len(res) == 1 else tuple(res)


def atleast_3d(*arys):
    """Each input with at least three dimensions (views: shape (N,) becomes (1, N, 1) and (M, N) becomes
    (M, N, 1)), as numpy.atleast_3d."""
    res = [a.reshape(1, 1, 1) if a.ndim == 0 else a[None, :, None] if a.ndim == 1
           else a[:, :, None] if a.ndim == 2 else a for a in _on_one_device(arys, "atleast_3d")]
    return res[0] if len(res) == 1 else tuple(res)


def _as_tuple(res):
    return res if isinstance(res, tuple) else (res,)


def vstack(tup, *, dtype=None, casting="same_kind"):
    """Stack arrays vertically (along the first axis; 1-D arrays as rows), as numpy.vstack."""
    arrs = _as_tuple(atleast_2d(*_sequence(tup, "vstack")))
    return concatenate(arrs, axis=0, dtype=dtype, casting=casting)


def hstack(tup, *, dtype=None, casting="same_kind"):
    """Stack arrays horizontally (along the second axis, the first for 1-D arrays), as numpy.hstack."""
    arrs = _as_tuple(atleast_1d(*_sequence(tup, "hstack")))
    axis = 0 if arrs and arrs[0].ndim == 1 else 1
    return concatenate(arrs, axis=axis, dtype=dtype, casting=casting)


def dstack(tup):
    """Stack arrays along the third axis (after atleast_3d), as numpy.dstack."""
    return concatenate(_as_tuple(atleast_3d(*_sequence(tup, "dstack"))), axis=2)


def column_stack(tup):
    """Stack 1-D arrays (and 0-d ones) as columns and 2-D arrays as they are, along the second axis, as
    numpy.column_stack."""
    arrs = [a.reshape(1, 1) if a.ndim == 0 else a[:, None] if a.ndim == 1 else a
            for a in _on_one_device(_sequence(tup, "column_stack"), "column_stack")]
    return concatenate(arrs, axis=1)


# ------------------------------------------------------------------------------------------------ splitting

def array_split(x, indices_or_sections, axis=0):
    """Views of `x` along `axis`: N parts of nearly equal size (the first ``n % N`` one longer) for an int
    N, or the pieces between the given indices (slice semantics: out-of-range indices give empty pieces), as
    numpy.array_split; a list."""
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
    """Views of `x` along `axis`: N equal parts (ValueError when the length is not a multiple of N) or the
    pieces between the given indices, as numpy.split; a list."""
    x = _one(x)
    if not hasattr(indices_or_sections, "__len__"):
        sections = indices_or_sections
        n = x.shape[_axis(axis, x.ndim)]
        if n % sections:
            raise ValueError("array split does not result in an equal division")
    return array_split(x, indices_or_sections, axis)


# ------------------------------------------------------------------------------------------------ broadcasting

def broadcast_to(x, /, shape):
    """A read-only view of `x` with `shape` (new leading axes and extent-1 axes repeat without copies), as
    numpy.broadcast_to; ValueError when `x` does not broadcast to it."""
    return _array.broadcast_to(_one(x), shape)


def broadcast_shapes(*shapes):
    """The shape the given shapes broadcast to, as numpy.broadcast_shapes (ValueError when they do not)."""
    return np.broadcast_shapes(*shapes)


def broadcast_arrays(*arrays):
    """The arrays broadcast to their common shape: read-only views (an array already of that shape is
    returned as it is, as NumPy does); a list, as the Array API standard specifies (NumPy 2 gives a tuple)."""
    arrays = _on_one_device(arrays, "broadcast_arrays")
    shape = np.broadcast_shapes(*[a.shape for a in arrays])
    return [a if a.shape == shape else _array.broadcast_to(a, shape) for a in arrays]


# ------------------------------------------------------------------------------------------------ axes

def expand_dims(x, /, axis=0):
    """A view of `x` with length-1 axes inserted at the positions `axis` (an int or a tuple, counted in
    the result) of the result, as numpy.expand_dims."""
    x = _one(x)
    nd = x.ndim + (len(axis) if isinstance(axis, (tuple, list)) else 1)
    norm = _axes(axis, nd)
    return x[tuple(None if i in norm else slice(None) for i in range(nd))]


def squeeze(x, /, axis=None):
    """A view of `x` without its length-1 axes (or only those in `axis`: ValueError for one of another
    length), as numpy.squeeze."""
    x = _one(x)
    if axis is not None:
        axis = _axes(axis, x.ndim)
    return x.squeeze(axis)


def flip(x, /, axis=None):
    """A view of `x` with the order of elements reversed along `axis` (an int or a tuple; all axes by
    default), as numpy.flip."""
    x = _one(x)
    axes = range(x.ndim) if axis is None else _axes(axis, x.ndim)
    return x[tuple(slice(None, None, -1) if i in axes else slice(None) for i in range(x.ndim))]


def moveaxis(x, source, destination, /):
    """A view of `x` with the axes `source` moved to positions `destination` (the others keep their order),
    as numpy.moveaxis."""
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
    """A view of `x` with axes `axis1` and `axis2` interchanged, as numpy.swapaxes."""
    return _one(x).swapaxes(axis1, axis2)


def permute_dims(x, /, axes):
    """A view of `x` with its axes permuted: axis i of the result is axis ``axes[i]`` of `x` (the Array
    API's name for transpose with axes)."""
    return _one(x).transpose(tuple(axes))


def transpose(x, axes=None):
    """A view of `x` with its axes reversed, or permuted by `axes`, as numpy.transpose."""
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


def reshape(x, /, shape, *, copy=None):
    """`x` with a new shape (one entry may be -1), as numpy.reshape in C order: a view when npgpu can
    express one (x C-contiguous, or only length-1 axes added or removed), else a copy. ``copy=True`` always
    copies; ``copy=False`` never does and raises ValueError instead (the Array API standard's semantics)."""
    return _reshape(_one(x), shape, "C", copy)


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
    """`x` flattened to 1-D, as numpy.ravel: a view when possible, else a copy. `order`: 'C' (default),
    'F', 'A' ('F' for Fortran-contiguous x), 'K' (the order of the elements in memory, with reversed
    axes kept reversed as NumPy does)."""
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
    """Elements of `x` shifted cyclically by `shift` along `axis` (ints or sequences, broadcast against each
    other; shifts along one axis add up; the flattened array by default), as numpy.roll: a new array
    written with two slice copies per rolled axis."""
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
    """Each element of `x` repeated along `axis` (the flattened array by default), as numpy.repeat:
    `repeats` is one count for all, or one count per element along `axis` (an npgpu.Array of counts is
    read back to the host: the output's shape depends on them). One broadcast copy for a single count; for
    per-element counts, one per run of consecutive elements with the same count."""
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
    """`x` repeated `reps` times along each axis (`reps` an int or a sequence; the shorter of x's shape and
    reps is padded with leading ones), as numpy.tile: one broadcast copy."""
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
    """`x` padded by `pad_width` (NumPy's forms: an int, (before, after), or one pair per axis), as
    numpy.pad, with mode 'constant' (`constant_values`: a scalar, or pairs per axis as pad_width),
    'edge', 'reflect', 'symmetric', 'wrap' or 'empty'. One allocation; the input and the pads are written
    with slice copies (NumPy's 1-D index map of each mode, split into runs), axis by axis."""
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
        # NumPy's own 1-D index map for this mode; these modes are separable, axis by axis.
        src = (np.pad(np.arange(n), (b, a), mode=mode) + b).tolist()
        for first, last in ((0, b), (b + n, b + n + a)):
            for d0, s0, step, cnt in _runs(src[first:last]):
                dst = out[_key(out.ndim, ax, slice(first + d0, first + d0 + cnt))]
                if step == 0:
                    dst[...] = out[_key(out.ndim, ax, slice(s0, s0 + 1))]
                else:
                    s_end = s0 + step * cnt
                    dst[...] = out[_key(out.ndim, ax, slice(s0, s_end if s_end >= 0 else None, step))]
    return out
