"""Array manipulation of the Array API standard and NumPy: joining, splitting, broadcasting, reordering,
repeating and padding. Views wherever NumPy gives views (flip, expand_dims, broadcast_to, split, moveaxis);
otherwise one output allocation filled by slice assignments, which run the copy kernel of the array's device
(memory-speed copies on the GPU), never loops over elements."""
import operator

import numpy as np
from numpy.exceptions import AxisError

from npgpu import _array
from npgpu._array import broadcast_to

__all__ = ["concat", "concatenate", "stack", "unstack", "split", "array_split", "hstack", "vstack", "dstack",
           "column_stack", "broadcast_to", "broadcast_arrays", "broadcast_shapes", "expand_dims", "squeeze",
           "flip", "roll", "moveaxis", "swapaxes", "permute_dims", "transpose", "repeat", "tile", "pad",
           "reshape", "ravel", "atleast_1d", "atleast_2d", "atleast_3d"]


def _axis(axis, ndim):
    a = operator.index(axis)
    if not -ndim <= a < ndim:
        raise AxisError(a, ndim)
    return a % ndim


def _on_one_device(arrays, name):
    """The arrays as npgpu.Arrays on one device: Arrays set the device, other inputs are moved there."""
    arrays = list(arrays)
    dev = next((a.device for a in arrays if isinstance(a, _array.Array)), None)
    out = [a if isinstance(a, _array.Array) else _array.asarray(a, device=dev) for a in arrays]
    devs = {str(a.device) for a in out}
    if len(devs) > 1:
        raise ValueError(f"{name}: arrays are on different devices ({', '.join(sorted(devs))})")
    return out


def _key(ndim, axis, index):
    return (slice(None),) * axis + (index,) + (slice(None),) * (ndim - axis - 1)


def concatenate(arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    """Join arrays along an existing axis (``axis=None``: flattened first), as numpy.concatenate; the result
    dtype is NumPy's promotion of theirs unless `dtype` is given. One allocation and one copy per input."""
    if isinstance(arrays, _array.Array):
        arrays = [arrays[i] for i in range(arrays.shape[0])]
    arrays = _on_one_device(arrays, "concatenate")
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    if axis is None:
        arrays = [a.reshape(-1) for a in arrays]
        axis = 0
    nd = arrays[0].ndim
    if nd == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    ax = _axis(axis, nd)
    for i, a in enumerate(arrays):
        if a.ndim != nd:
            raise ValueError(f"all the input array dimensions except for the concatenation axis must match "
                             f"exactly, but the array at index 0 has {nd} dimension(s) and the array at index "
                             f"{i} has {a.ndim} dimension(s)")
        for d in range(nd):
            if d != ax and a.shape[d] != arrays[0].shape[d]:
                raise ValueError(f"all the input array dimensions except for the concatenation axis must match "
                                 f"exactly, but along dimension {d}, the array at index 0 has size "
                                 f"{arrays[0].shape[d]} and the array at index {i} has size {a.shape[d]}")
    res = np.result_type(*[a.dtype for a in arrays]) if dtype is None else np.dtype(dtype)
    for a in arrays:
        if not np.can_cast(a.dtype, res, casting=casting):
            raise TypeError(f"Cannot cast array data from {a.dtype} to {res} according to the rule {casting!r}")
    shape = list(arrays[0].shape)
    shape[ax] = sum(a.shape[ax] for a in arrays)
    if out is None:
        out = _array.empty(tuple(shape), dtype=res, device=arrays[0].device)
    elif not isinstance(out, _array.Array) or out.shape != tuple(shape):
        raise ValueError(f"concatenate: out must be an npgpu.Array of shape {tuple(shape)}")
    pos = 0
    for a in arrays:
        n = a.shape[ax]
        if n:
            out[_key(nd, ax, slice(pos, pos + n))] = a
        pos += n
    return out


def concat(arrays, /, *, axis=0):
    """Join arrays along an existing axis (``axis=None``: flattened first): the Array API's concatenate."""
    return concatenate(arrays, axis=axis)


def stack(arrays, /, axis=0, *, out=None, dtype=None):
    """Join arrays of one shape along a new axis, as numpy.stack."""
    arrays = _on_one_device(arrays, "stack")
    if not arrays:
        raise ValueError("need at least one array to stack")
    shape = arrays[0].shape
    if any(a.shape != shape for a in arrays):
        raise ValueError("all input arrays must have the same shape")
    ax = _axis(axis, len(shape) + 1)
    return concatenate([expand_dims(a, ax) for a in arrays], axis=ax, out=out, dtype=dtype)


def unstack(x, /, *, axis=0):
    """The slices of `x` along `axis`, as a tuple of views."""
    ax = _axis(axis, x.ndim) if x.ndim else _axis(axis, 0)
    return tuple(x[_key(x.ndim, ax, i)] for i in range(x.shape[ax]))


def array_split(x, indices_or_sections, axis=0):
    """Views of `x` split along `axis` into N nearly equal parts, or at the given indices, as
    numpy.array_split."""
    ax = _axis(axis, x.ndim)
    n = x.shape[ax]
    if isinstance(indices_or_sections, (int, np.integer)):
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.")
        each, extra = divmod(n, sections)
        sizes = [each + 1] * extra + [each] * (sections - extra)
        bounds = np.concatenate([[0], np.cumsum(sizes)]).tolist()
    else:
        bounds = [0] + [int(i) for i in indices_or_sections] + [n]
    parts = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        parts.append(x[_key(x.ndim, ax, slice(lo, hi))])
    return parts


def split(x, indices_or_sections, axis=0):
    """Views of `x` split along `axis` into N equal parts (ValueError when they cannot be equal) or at the
    given indices, as numpy.split."""
    if isinstance(indices_or_sections, (int, np.integer)):
        n = x.shape[_axis(axis, x.ndim)]
        if indices_or_sections <= 0 or n % indices_or_sections:
            raise ValueError("array split does not result in an equal division")
    return array_split(x, indices_or_sections, axis)


def atleast_1d(*arys):
    """Each input with at least one dimension (views), as numpy.atleast_1d."""
    res = [a if a.ndim >= 1 else a.reshape(1) for a in _on_one_device(arys, "atleast_1d")]
    return res[0] if len(res) == 1 else tuple(res)


def atleast_2d(*arys):
    """Each input with at least two dimensions (views), as numpy.atleast_2d."""
    res = []
    for a in _on_one_device(arys, "atleast_2d"):
        res.append(a.reshape(1, 1) if a.ndim == 0 else a[None] if a.ndim == 1 else a)
    return res[0] if len(res) == 1 else tuple(res)


def atleast_3d(*arys):
    """Each input with at least three dimensions (views), as numpy.atleast_3d."""
    res = []
    for a in _on_one_device(arys, "atleast_3d"):
        res.append(a.reshape(1, 1, 1) if a.ndim == 0 else a[None, :, None] if a.ndim == 1
                   else a[:, :, None] if a.ndim == 2 else a)
    return res[0] if len(res) == 1 else tuple(res)


def vstack(tup, *, dtype=None):
    """Stack arrays vertically (along the first axis, 1-D arrays as rows), as numpy.vstack."""
    arrs = atleast_2d(*tup)
    return concatenate(arrs if isinstance(arrs, tuple) else [arrs], axis=0, dtype=dtype)


def hstack(tup, *, dtype=None):
    """Stack arrays horizontally (along the second axis, the first for 1-D arrays), as numpy.hstack."""
    arrs = atleast_1d(*tup)
    arrs = arrs if isinstance(arrs, tuple) else [arrs]
    return concatenate(arrs, axis=0 if arrs[0].ndim == 1 else 1, dtype=dtype)


def dstack(tup):
    """Stack arrays along the third axis, as numpy.dstack."""
    arrs = atleast_3d(*tup)
    return concatenate(arrs if isinstance(arrs, tuple) else [arrs], axis=2)


def column_stack(tup):
    """Stack 1-D arrays as columns (2-D arrays as they are), as numpy.column_stack."""
    arrs = [a[:, None] if a.ndim < 2 else a for a in _on_one_device(tup, "column_stack")]
    return concatenate(arrs, axis=1)


def broadcast_shapes(*shapes):
    """The shape the given shapes broadcast to, as numpy.broadcast_shapes."""
    return np.broadcast_shapes(*shapes)


def broadcast_arrays(*arrays):
    """Read-only views of the arrays broadcast to their common shape."""
    arrays = _on_one_device(arrays, "broadcast_arrays")
    shape = np.broadcast_shapes(*[a.shape for a in arrays])
    return [broadcast_to(a, shape) for a in arrays]


def expand_dims(x, /, axis=0):
    """A view of `x` with length-1 axes inserted at the positions `axis` (an int or a tuple) of the result,
    as numpy.expand_dims."""
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    nd = x.ndim + len(axes)
    norm = sorted(_axis(a, nd) for a in axes)
    if len(set(norm)) != len(norm):
        raise ValueError("repeated axis")
    key = tuple(None if i in norm else slice(None) for i in range(nd))
    return x[key]


def squeeze(x, /, axis=None):
    """A view of `x` without its length-1 axes (or only those given), as numpy.squeeze."""
    return x.squeeze(axis)


def flip(x, /, axis=None):
    """A view of `x` with the order of elements reversed along `axis` (all axes by default)."""
    if axis is None:
        axes = range(x.ndim)
    else:
        axes = {_axis(a, x.ndim) for a in (axis if isinstance(axis, (tuple, list)) else (axis,))}
    return x[tuple(slice(None, None, -1) if i in axes else slice(None) for i in range(x.ndim))]


def roll(x, /, shift, axis=None):
    """Elements shifted cyclically by `shift` along `axis` (the flattened array by default), as
    numpy.roll; a new array, two slice copies per axis."""
    if axis is None:
        return roll(x.reshape(-1), shift, axis=0).reshape(x.shape)
    shifts = shift if isinstance(shift, (tuple, list)) else (shift,)
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    if len(shifts) == 1 and len(axes) > 1:
        shifts = shifts * len(axes)
    if len(axes) == 1 and len(shifts) > 1:
        axes = axes * len(shifts)
    if len(shifts) != len(axes):
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences of the same length")
    total = {}
    for s, a in zip(shifts, axes):
        a = _axis(a, x.ndim)
        total[a] = total.get(a, 0) + operator.index(s)
    out = x
    for a, s in total.items():
        n = x.shape[a]
        if n == 0 or s % n == 0:
            continue
        s %= n
        src = out
        out = _array.empty(x.shape, dtype=x.dtype, device=x.device)
        out[_key(x.ndim, a, slice(s, None))] = src[_key(x.ndim, a, slice(None, n - s))]
        out[_key(x.ndim, a, slice(None, s))] = src[_key(x.ndim, a, slice(n - s, None))]
    return out.copy() if out is x else out


def moveaxis(x, source, destination, /):
    """A view of `x` with axes moved from `source` to `destination`, as numpy.moveaxis."""
    src = [source] if not isinstance(source, (tuple, list)) else list(source)
    dst = [destination] if not isinstance(destination, (tuple, list)) else list(destination)
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number of elements")
    src = [_axis(a, x.ndim) for a in src]
    dst = [_axis(a, x.ndim) for a in dst]
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise ValueError("repeated axis in `source` or `destination` argument")
    order = [n for n in range(x.ndim) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return x.transpose(order)


def swapaxes(x, axis1, axis2):
    """A view of `x` with two axes interchanged."""
    return x.swapaxes(axis1, axis2)


def permute_dims(x, /, axes):
    """A view of `x` with its axes permuted (the Array API's name for transpose with axes)."""
    return x.transpose(axes)


def transpose(x, axes=None):
    """A view of `x` with its axes reversed, or permuted by `axes`, as numpy.transpose."""
    return x.transpose() if axes is None else x.transpose(axes)


def reshape(x, /, shape, *, copy=None):
    """`x` with a new shape: a view when the layout allows it, else a copy; ``copy=True`` always copies,
    ``copy=False`` raises ValueError when a copy would be needed (the Array API standard's semantics)."""
    if copy:
        return x.copy().reshape(shape)
    if copy is False and not x.flags["C_CONTIGUOUS"] and x.size > 1:
        raise ValueError("reshape: this layout needs a copy, but copy=False")
    return x.reshape(shape)


def ravel(x, order="C"):
    """A flat view when `x` is C-contiguous, else a flat copy, as numpy.ravel."""
    if order not in ("C", "A", "K"):
        raise NotImplementedError("npgpu ravels in C order only")
    return x.reshape(-1)


def repeat(x, repeats, /, axis=None):
    """Each element of `x` repeated `repeats` times (an int, or one count per element along `axis`), along
    `axis` (the flattened array by default), as numpy.repeat."""
    if axis is None:
        x = x.reshape(-1)
        axis = 0
    ax = _axis(axis, x.ndim)
    n = x.shape[ax]
    if isinstance(repeats, _array.Array):
        repeats = repeats.get()
    reps = np.asarray(repeats)
    if reps.dtype.kind not in "iub":
        raise TypeError(f"repeats must be integers, not {reps.dtype}")
    if (reps < 0).any():
        raise ValueError("repeat: repeats may not contain negative values")
    if reps.ndim == 0 or reps.size == 1:
        r = int(reps.reshape(-1)[0]) if reps.size else 0
        expanded = broadcast_to(x[_key(x.ndim, ax + 1, None) if ax + 1 <= x.ndim else (Ellipsis, None)],
                                x.shape[:ax + 1] + (r,) + x.shape[ax + 1:])
        shape = x.shape[:ax] + (n * r,) + x.shape[ax + 1:]
        return expanded.copy().reshape(shape)
    if reps.shape != (n,):
        raise ValueError(f"operands could not be broadcast together with shape ({n},) ({reps.size},)")
    shape = x.shape[:ax] + (int(reps.sum()),) + x.shape[ax + 1:]
    out = _array.empty(shape, dtype=x.dtype, device=x.device)
    pos = 0
    for i, r in enumerate(reps.tolist()):  # one broadcast copy per input slice (counts come from the host)
        if r:
            src = x[_key(x.ndim, ax, slice(i, i + 1))]
            out[_key(x.ndim, ax, slice(pos, pos + r))] = src
        pos += r
    return out


def tile(x, reps):
    """`x` repeated `reps` times along each axis, as numpy.tile: one broadcast copy."""
    reps = (reps,) if isinstance(reps, (int, np.integer)) else tuple(int(r) for r in reps)
    if any(r < 0 for r in reps):
        raise ValueError("negative dimensions are not allowed")
    nd = max(x.ndim, len(reps))
    reps = (1,) * (nd - len(reps)) + reps
    x = x.reshape((1,) * (nd - x.ndim) + x.shape) if x.ndim < nd else x
    key = []
    for _ in range(nd):
        key += [None, slice(None)]
    inter = []
    for r, s in zip(reps, x.shape):
        inter += [r, s]
    expanded = broadcast_to(x[tuple(key)], tuple(inter))
    return expanded.copy().reshape(tuple(r * s for r, s in zip(reps, x.shape)))


def _runs(src):
    """Split an index map into runs of consecutive sources (step +1 or -1): (dst_start, src_start, step, n)."""
    runs = []
    i = 0
    while i < len(src):
        j = i + 1
        step = 0
        if j < len(src) and abs(src[j] - src[i]) == 1:
            step = src[j] - src[i]
            while j < len(src) and src[j] - src[j - 1] == step:
                j += 1
        runs.append((i, src[i], step or 1, j - i))
        i = j
    return runs


def pad(x, pad_width, mode="constant", *, constant_values=0):
    """`x` padded by `pad_width` (NumPy's forms: an int, (before, after), or one pair per axis) with mode
    'constant' (`constant_values`), 'edge', 'reflect', 'symmetric' or 'wrap', as numpy.pad."""
    if mode not in ("constant", "edge", "reflect", "symmetric", "wrap"):
        raise ValueError(f"mode {mode!r} is not supported (constant, edge, reflect, symmetric, wrap)")
    widths = np.asarray(pad_width)
    if widths.dtype.kind not in "iu":
        raise TypeError("`pad_width` must be of integral type.")
    widths = np.broadcast_to(widths, (x.ndim, 2)).tolist()
    if any(w < 0 for pair in widths for w in pair):
        raise ValueError("index can't contain negative values")
    shape = tuple(n + b + a for n, (b, a) in zip(x.shape, widths))
    if mode == "constant":
        if np.ndim(constant_values) != 0:
            raise NotImplementedError("pad: constant_values must be a scalar")
        out = _array.full(shape, np.array(constant_values).astype(x.dtype)[()], dtype=x.dtype, device=x.device)
    else:
        out = _array.empty(shape, dtype=x.dtype, device=x.device)
    out[tuple(slice(b, b + n) for n, (b, a) in zip(x.shape, widths))] = x
    if mode == "constant" or x.size == 0:
        if mode != "constant" and any(w for pair in widths for w in pair) and x.size == 0:
            raise ValueError(f"can't extend empty axis using modes other than 'constant' or 'empty'")
        return out
    for ax, (n, (b, a)) in enumerate(zip(x.shape, widths)):
        if not b and not a:
            continue
        # NumPy's own 1-D index map for this mode; padding is separable, axis by axis.
        src = np.pad(np.arange(n), (b, a), mode=mode).tolist()
        for first, last in ((0, b), (b + n, b + n + a)):
            for d0, s0, step, cnt in _runs([src[p] + b for p in range(first, last)]):
                s_end = s0 + step * cnt
                src_slice = slice(s0, s_end if s_end >= 0 else None, step)
                out[_key(out.ndim, ax, slice(first + d0, first + d0 + cnt))] = out[_key(out.ndim, ax, src_slice)]
    return out
