"""The Array API standard's linear algebra functions of the main namespace, beside ``matmul``:
``matrix_transpose``, ``tensordot`` and ``vecdot``, and NumPy's ``matvec``, ``vecmat``, ``diagonal``, ``trace``,
``kron`` and ``cross`` (NumPy's semantics and dtype rules). Each one is a view or
a reordering plus one matrix product, one reduction or a few elementwise operations, so it runs where ``matmul``
and ``sum`` run: cuBLAS on a GPU, the host backend on the host device, exact wrap-around for integers.

Inputs that are not npgpu.Arrays are converted with ``npgpu.asarray`` onto the device of the npgpu.Arrays
beside them; the results are npgpu.Arrays."""
import functools
import math
import operator
import warnings

import numpy as np

from npgpu import _array, _blas, _reduce
from npgpu import _elementwise as _ew
from npgpu._manipulation import (
    _axis,
    _on_one_device,
    _one,
    broadcast_arrays,
    broadcast_to,
    moveaxis,
    permute_dims,
    reshape,
    stack,
)

__all__ = ["matrix_transpose", "tensordot", "vecdot", "matvec", "vecmat", "diagonal", "trace", "kron", "cross"]


def matrix_transpose(x, /):
    """The transpose of each matrix in a stack: the last two axes swapped, a view, ``x.mT``.

    Parameters
    ----------
    x : npgpu.Array or array_like
        At least two dimensions; other input is converted with npgpu.asarray onto the default device.

    Returns
    -------
    npgpu.Array
        (..., N, M) for x (..., M, N), a view of `x` (of the converted input for other input).

    Raises
    ------
    ValueError
        `x` has fewer than two dimensions.

    Examples
    --------
    >>> x = npgpu.asarray([[1, 2, 3], [4, 5, 6]], device="cpu")
    >>> npgpu.matrix_transpose(x)
    Array([[1, 4],
           [2, 5],
           [3, 6]])
    >>> npgpu.matrix_transpose(npgpu.zeros((2, 3, 4), device="cpu")).shape
    (2, 4, 3)
    """
    x = _one(x)
    if x.ndim < 2:
        raise ValueError(f"matrix_transpose: x must have at least 2 dimensions, not {x.ndim}")
    return x.mT


def _axes_pair(axes, nd1, nd2):
    """tensordot's ``axes`` as two equally long lists of normalised axes of x1 and x2."""
    if isinstance(axes, (int, np.integer)):
        n = operator.index(axes)
        if n < 0:
            raise ValueError(f"tensordot: axes must be a non-negative integer, not {n}")
        if n > min(nd1, nd2):
            raise ValueError(f"tensordot: axes={n} exceeds the dimensions of the arrays ({nd1} and {nd2})")
        return list(range(nd1 - n, nd1)), list(range(n))
    try:
        a1, a2 = axes
    except (TypeError, ValueError):
        raise ValueError("tensordot: axes must be an integer or a pair of axis sequences") from None
    a1 = [a1] if isinstance(a1, (int, np.integer)) else list(a1)
    a2 = [a2] if isinstance(a2, (int, np.integer)) else list(a2)
    if len(a1) != len(a2):
        raise ValueError("shape-mismatch for sum")
    a1 = [_axis(a, nd1) for a in a1]
    a2 = [_axis(a, nd2) for a in a2]
    if len(set(a1)) != len(a1) or len(set(a2)) != len(a2):
        raise ValueError("tensordot: repeated axis in axes")
    return a1, a2


def tensordot(x1, x2, /, axes=2):
    """Sum of products over the given axes, as numpy.tensordot.

    One matrix product of the reordered operands (cuBLAS on a GPU, the host backend on the host device;
    exact wrap-around for integers).

    Parameters
    ----------
    x1, x2 : npgpu.Array or array_like
        The operands; input that is not an npgpu.Array is converted with npgpu.asarray onto the device of
        the npgpu.Array beside it.
    axes : int or (int or sequence of int, int or sequence of int), optional
        N (default 2): the last N axes of `x1` with the first N of `x2`; or a pair of axis sequences (an
        int standing for one axis), equally long, contracted pairwise.

    Returns
    -------
    npgpu.Array
        The free axes of `x1`, then those of `x2`; NumPy's dtype rules.

    Raises
    ------
    ValueError
        Negative N, or N above either array's number of dimensions; `axes` that is neither an integer nor
        a pair; sequences of different lengths; a repeated axis; contracted axes of different lengths;
        npgpu.Arrays on different devices.

    Examples
    --------
    >>> x = npgpu.asarray([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], device="cpu")
    >>> npgpu.tensordot(x, [1.0, 1.0, 1.0], axes=1)
    Array([ 3., 12.])
    >>> npgpu.tensordot(x, x)  # axes=2: the sum of x * x
    Array(55.)
    >>> npgpu.tensordot(x, x, axes=([0], [0]))
    Array([[ 9., 12., 15.],
           [12., 17., 22.],
           [15., 22., 29.]])
    """
    x1, x2 = _on_one_device((x1, x2), "tensordot")
    a1, a2 = _axes_pair(axes, x1.ndim, x2.ndim)
    for i, j in zip(a1, a2):
        if x1.shape[i] != x2.shape[j]:
            raise ValueError(f"shape-mismatch for sum: axis {i} of x1 has {x1.shape[i]} elements, "
                             f"axis {j} of x2 has {x2.shape[j]}")
    free1 = [i for i in range(x1.ndim) if i not in a1]
    free2 = [j for j in range(x2.ndim) if j not in a2]
    k = math.prod(x1.shape[i] for i in a1)
    m = math.prod(x1.shape[i] for i in free1)
    n = math.prod(x2.shape[j] for j in free2)
    lhs = reshape(permute_dims(x1, tuple(free1 + a1)), (m, k))
    rhs = reshape(permute_dims(x2, tuple(a2 + free2)), (k, n))
    out_shape = tuple(x1.shape[i] for i in free1) + tuple(x2.shape[j] for j in free2)
    return reshape(_blas.matmul(lhs, rhs), out_shape)


def vecdot(x1, x2, /, *, axis=-1):
    """Dot products of vectors along `axis` (complex `x1` conjugated), as numpy.vecdot.

    A product and one reduction (sum), so it runs where ``sum`` runs.

    Parameters
    ----------
    x1, x2 : npgpu.Array or array_like
        At least one dimension each; the other axes broadcast. Input that is not an npgpu.Array is converted
        with npgpu.asarray onto the device of the npgpu.Array beside it.
    axis : int, optional
        The axis contracted (default -1), of the broadcast shape.

    Returns
    -------
    npgpu.Array
        The broadcast shape without `axis`; the dtype is result_type(x1, x2) (integers wrap around as
        NumPy's).

    Raises
    ------
    ValueError
        A 0-d input; `axis` of different lengths in `x1` and `x2`; npgpu.Arrays on different devices.

    Examples
    --------
    >>> npgpu.vecdot(npgpu.asarray([[1, 2], [3, 4]], device="cpu"), [1, 1])
    Array([3, 7])
    >>> npgpu.vecdot(npgpu.asarray([1j, 2], device="cpu"), npgpu.asarray([1j, 3], device="cpu"))
    Array(7.+0.j)
    >>> x = npgpu.asarray(np.array([100, 100], dtype=np.int8), device="cpu")
    >>> npgpu.vecdot(x, x)  # 20000 wraps around in int8
    Array(32, dtype=int8)
    """
    x1, x2 = _on_one_device((x1, x2), "vecdot")
    nd = max(x1.ndim, x2.ndim)
    if min(x1.ndim, x2.ndim) == 0:
        raise ValueError("vecdot: x1 and x2 must have at least one dimension")
    ax = _axis(axis, nd)
    n1, n2 = x1.shape[ax - nd] if ax - nd >= -x1.ndim else 1, x2.shape[ax - nd] if ax - nd >= -x2.ndim else 1
    if n1 != n2:
        raise ValueError(f"vecdot: the contracted axis has {n1} elements in x1 and {n2} in x2")
    b1, b2 = broadcast_arrays(x1, x2)
    prod = b1.conj() * b2 if np.isdtype(b1.dtype, "complex floating") else b1 * b2
    return _reduce.sum(prod, axis=ax, dtype=prod.dtype)


def _matrix_and_vector(x1, x2, name, matrix_first):
    x1, x2 = _on_one_device((x1, x2), name)
    mat, vec = (x1, x2) if matrix_first else (x2, x1)
    if mat.ndim < 2 or vec.ndim < 1:
        raise ValueError(f"{name}: the matrix needs at least two dimensions and the vector one, got "
                         f"{mat.ndim} and {vec.ndim}")
    n = mat.shape[-1] if matrix_first else mat.shape[-2]
    if vec.shape[-1] != n:
        raise ValueError(f"{name}: the vector has {vec.shape[-1]} elements, the matrix's contracted axis {n}")
    return mat, vec


def matvec(x1, x2, /):
    """Matrix-vector products of stacks, as numpy.matvec: ``(x1 @ x2[..., None])[..., 0]``.

    One matrix product (cuBLAS on a GPU).

    Parameters
    ----------
    x1 : npgpu.Array or array_like
        Matrices (..., M, N).
    x2 : npgpu.Array or array_like
        Vectors (..., N); the leading axes of both broadcast. Input that is not an npgpu.Array is converted
        with npgpu.asarray onto the device of the npgpu.Array beside it.

    Returns
    -------
    npgpu.Array
        (..., M), of dtype result_type(x1, x2) (integers wrap around as NumPy's).

    Raises
    ------
    ValueError
        x1 with fewer than two dimensions or x2 with none; N differing between them; npgpu.Arrays on
        different devices.

    See Also
    --------
    vecmat, vecdot, matmul

    Examples
    --------
    >>> a = npgpu.asarray([[1.0, 2.0], [3.0, 4.0]], device="cpu")
    >>> npgpu.matvec(a, [1.0, 1.0])
    Array([3., 7.])
    """
    mat, vec = _matrix_and_vector(x1, x2, "matvec", True)
    return _blas.matmul(mat, vec[..., None])[..., 0]


def vecmat(x1, x2, /):
    """Vector-matrix products of stacks, the vector conjugated, as numpy.vecmat: ``(conj(x1)[..., None, :] @
    x2)[..., 0, :]``.

    One matrix product (cuBLAS on a GPU).

    Parameters
    ----------
    x1 : npgpu.Array or array_like
        Vectors (..., M), conjugated when complex.
    x2 : npgpu.Array or array_like
        Matrices (..., M, N); the leading axes of both broadcast. Input that is not an npgpu.Array is
        converted with npgpu.asarray onto the device of the npgpu.Array beside it.

    Returns
    -------
    npgpu.Array
        (..., N), of dtype result_type(x1, x2) (integers wrap around as NumPy's).

    Raises
    ------
    ValueError
        x1 with no dimensions or x2 with fewer than two; M differing between them; npgpu.Arrays on
        different devices.

    See Also
    --------
    matvec, vecdot, matmul

    Examples
    --------
    >>> a = npgpu.asarray([[1.0, 2.0], [3.0, 4.0]], device="cpu")
    >>> npgpu.vecmat([1.0, 1.0], a)
    Array([4., 6.])
    >>> npgpu.vecmat(npgpu.asarray([1j, 0], device="cpu"), npgpu.asarray([[1j, 1], [0, 0]], device="cpu"))
    Array([1.+0.j, 0.-1.j])
    """
    mat, vec = _matrix_and_vector(x1, x2, "vecmat", False)
    if np.isdtype(vec.dtype, "complex floating"):
        vec = vec.conj()
    return _blas.matmul(vec[..., None, :], mat)[..., 0, :]


def _index_vector(start, length, device):
    """int64 ``arange(start, start + length)`` on `device`."""
    v = _array.empty((length,), dtype=np.int64, device=device)
    if length:
        _array.fill_arange(v, start, 1)
    return v


def _diagonal_view(x, offset, a1, a2):
    """The diagonal of axes a1, a2 of x, shape (other axes..., L), as a view by strided slicing; None where
    slicing cannot give one (x neither C- nor Fortran-contiguous, or the two axes not next to each other)."""
    nd = x.ndim
    if x.flags["C_CONTIGUOUS"]:
        base, b1, b2, flip = x, a1, a2, False
    elif x.T.flags["C_CONTIGUOUS"]:
        base, b1, b2, flip = x.T, nd - 1 - a1, nd - 1 - a2, True
    else:
        return None
    if b1 == b2 + 1:  # the same elements, seen from the other axis: a[i + offset, i] is a.T[i, i + offset]
        b1, b2, offset = b2, b1, -offset
    if b2 != b1 + 1:
        return None
    m, n = base.shape[b1], base.shape[b2]
    if offset >= 0:
        start, length = offset, max(0, min(m, n - offset))
    else:
        start, length = -offset * n, max(0, min(m + offset, n))
    flat = base.reshape(tuple(base.shape[:b1]) + (m * n,) + tuple(base.shape[b2 + 1:]))
    step = slice(start, start + (length - 1) * (n + 1) + 1, n + 1) if length else slice(0, 0)
    d = moveaxis(flat[(slice(None),) * b1 + (step,)], b1, -1)
    if flip:  # x.T listed the other axes in reverse
        d = permute_dims(d, tuple(range(nd - 3, -1, -1)) + (nd - 2,))
    return d


def diagonal(a, offset=0, axis1=0, axis2=1):
    """The diagonal of two axes of an array, as numpy.diagonal.

    Parameters
    ----------
    a : npgpu.Array or array_like
        At least 2-D. Other input is converted with npgpu.asarray onto the default device.
    offset : int, optional
        The diagonal: 0 (default) the main one, positive above it (``a[i, i + offset]``), negative below it.
    axis1, axis2 : int, optional
        The axes of the 2-D sub-arrays whose diagonals are taken (default 0 and 1); axis1 indexes the rows.

    Returns
    -------
    npgpu.Array
        Read-only, as NumPy's: a's other axes, in order, then the diagonal, of length
        ``max(0, min(M - max(-offset, 0), N - max(offset, 0)))`` for axes of lengths M and N. A view of `a`
        where it is C- or Fortran-contiguous and the two axes are next to each other (a matrix, a stack of
        matrices with ``axis1=-2, axis2=-1``); a copy otherwise (NumPy always gives a view).

    Raises
    ------
    ValueError
        `a` has fewer than two dimensions, or `axis1` and `axis2` are the same axis.
    numpy.exceptions.AxisError
        `axis1` or `axis2` is out of range.
    TypeError
        `offset` is not an integer.

    See Also
    --------
    trace, npgpu.diag, npgpu.linalg.diagonal

    Examples
    --------
    >>> a = npgpu.asarray(np.arange(9).reshape(3, 3), device="cpu")
    >>> npgpu.diagonal(a), npgpu.diagonal(a, 1), npgpu.diagonal(a, -2)
    (Array([0, 4, 8]), Array([1, 5]), Array([6]))
    >>> b = npgpu.asarray(np.arange(8).reshape(2, 2, 2), device="cpu")
    >>> npgpu.diagonal(b)  # b[i, i, :], the last axis first
    Array([[0, 6],
           [1, 7]])
    >>> npgpu.diagonal(b, axis1=-2, axis2=-1)
    Array([[0, 3],
           [4, 7]])
    """
    a = _one(a)
    if a.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    a1, a2 = _axis(axis1, a.ndim, "axis1"), _axis(axis2, a.ndim, "axis2")
    if a1 == a2:
        raise ValueError("axis1 and axis2 cannot be the same")
    offset = operator.index(offset)
    d = _diagonal_view(a, offset, a1, a2)
    if d is None:  # gather the diagonal through index arrays
        y = moveaxis(a, (a1, a2), (-2, -1))
        m, n = y.shape[-2:]
        r0, c0 = max(-offset, 0), max(offset, 0)
        length = max(0, min(m - r0, n - c0))
        d = y[..., _index_vector(r0 if length else 0, length, a.device),
              _index_vector(c0 if length else 0, length, a.device)]
    return broadcast_to(d, d.shape)  # read-only, as NumPy's


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """The sum along a diagonal of an array, as numpy.trace.

    Parameters
    ----------
    a : npgpu.Array or array_like
        At least 2-D. Other input is converted with npgpu.asarray onto the default device.
    offset : int, optional
        The diagonal summed, as in diagonal (default 0, the main one).
    axis1, axis2 : int, optional
        The axes of the 2-D sub-arrays whose diagonals are summed (default 0 and 1).
    dtype : dtype, optional
        The dtype of the sums, as in npgpu.sum (default: sum's for a's dtype: int64 for smaller signed integers
        and bool, uint64 for smaller unsigned ones).
    out : npgpu.Array, optional
        Where to write the result, of its shape and on a's device: the sums (in `dtype`, or sum's default dtype)
        are converted into out's dtype as assignment converts them (NumPy sums in out's dtype; results differ
        only by rounding).

    Returns
    -------
    npgpu.Array
        a's other axes (0-d for a matrix); `out` when given.

    Raises
    ------
    ValueError
        `a` has fewer than two dimensions; `axis1` and `axis2` are the same axis; `out` has the wrong shape or
        is on another device, or is read-only.
    numpy.exceptions.AxisError
        `axis1` or `axis2` is out of range.
    TypeError
        `out` is not an npgpu.Array.

    See Also
    --------
    diagonal, npgpu.linalg.trace

    Examples
    --------
    >>> a = npgpu.asarray(np.arange(9).reshape(3, 3), device="cpu")
    >>> npgpu.trace(a), npgpu.trace(a, offset=-1)
    (Array(12), Array(10))
    >>> npgpu.trace(npgpu.asarray(np.arange(8).reshape(2, 2, 2), device="cpu"), axis1=1, axis2=2)
    Array([ 3, 11])
    >>> npgpu.trace(a, dtype=np.float32)
    Array(12., dtype=float32)
    """
    sums = _reduce.sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype)
    if out is None:
        return sums
    # written by assignment: npgpu.sum's own out= would convert negative integer sums through an unsigned type
    if not isinstance(out, _array.Array):
        raise TypeError(f"trace: out must be an npgpu.Array, not {type(out).__name__}")
    if tuple(out.shape) != tuple(sums.shape):
        raise ValueError(f"trace: out has shape {tuple(out.shape)}, the result {tuple(sums.shape)}")
    _on_one_device([out, sums], "trace")
    out[...] = sums
    return out


def kron(a, b):
    """The Kronecker product of two arrays, as numpy.kron.

    Blocks of `b` scaled by the elements of `a`: for 2-D inputs, ``result[i * P + k, j * Q + l] = a[i, j] *
    b[k, l]`` with b of shape (P, Q).

    Parameters
    ----------
    a, b : npgpu.Array or array_like
        Any shapes; the one with fewer dimensions gets length-1 axes in front. Input that is not an npgpu.Array
        is converted with npgpu.asarray onto the device of the npgpu.Array beside it.

    Returns
    -------
    npgpu.Array
        Shape the elementwise product of the two (padded) shapes; dtype NumPy's for ``a * b`` of arrays. A 0-d
        input gives ``a * b``.

    Raises
    ------
    ValueError
        npgpu.Arrays on different devices.

    See Also
    --------
    npgpu.outer

    Notes
    -----
    One broadcast multiplication of the two inputs with their axes interleaved, then a reshape.

    Examples
    --------
    >>> npgpu.kron(npgpu.asarray([1, 10, 100], device="cpu"), [5, 6, 7])
    Array([  5,   6,   7,  50,  60,  70, 500, 600, 700])
    >>> npgpu.kron(npgpu.eye(2, dtype=np.int64, device="cpu"), [[1, 2], [3, 4]])
    Array([[1, 2, 0, 0],
           [3, 4, 0, 0],
           [0, 0, 1, 2],
           [0, 0, 3, 4]])
    """
    a, b = _on_one_device((a, b), "kron")
    if a.ndim == 0 or b.ndim == 0:
        return _ew.multiply(a, b)
    nd = max(a.ndim, b.ndim)
    sa = (1,) * (nd - a.ndim) + tuple(a.shape)
    sb = (1,) * (nd - b.ndim) + tuple(b.shape)
    # a's axes at the even positions, b's at the odd ones: the product (p0, q0, p1, q1, ...) is the result
    a = reshape(a, tuple(s for p in sa for s in (p, 1)))
    b = reshape(b, tuple(s for q in sb for s in (1, q)))
    return reshape(_ew.multiply(a, b), tuple(p * q for p, q in zip(sa, sb)))


@functools.cache
def _numpy_refuses_2_vectors():
    """Whether the installed NumPy raises for 2-element vectors in cross (NumPy 2.0 to 2.4 warn)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            np.cross([1, 0], [0, 1])
        except ValueError:
            return True
    return False


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of (arrays of) 2- or 3-element vectors, as numpy.cross.

    Parameters
    ----------
    a, b : npgpu.Array or array_like
        Vectors of 2 or 3 elements along `axisa` and `axisb`; the other axes broadcast. A 2-element vector has
        a zero third element. Input that is not an npgpu.Array is converted with npgpu.asarray onto the device
        of the npgpu.Array beside it.
    axisa, axisb : int, optional
        The axis of the vectors in `a` and in `b` (default -1).
    axisc : int, optional
        The axis of the vectors in the result (default -1); unused when both inputs are 2-vectors.
    axis : int, optional
        If given, `axisa`, `axisb` and `axisc` all.

    Returns
    -------
    npgpu.Array
        3-vectors along `axisc`, or for two 2-vector inputs the z-component alone (the broadcast shape of the
        other axes); dtype ``promote_types(a.dtype, b.dtype)``, integers wrapping around as NumPy's.

    Raises
    ------
    ValueError
        A 0-d input; vectors of other than 2 or 3 elements (of other than 3 where the installed NumPy has
        removed 2-element vectors); other axes that do not broadcast; npgpu.Arrays on different devices.
    numpy.exceptions.AxisError
        `axisa`, `axisb` or `axisc` is out of range.
    TypeError
        Boolean inputs (NumPy's boolean subtraction is not supported).

    Warns
    -----
    DeprecationWarning
        For 2-element vectors, as NumPy 2.0 to 2.4 (later NumPy raises ValueError, and so does npgpu beside
        it).

    See Also
    --------
    npgpu.linalg.cross : The Array API form, 3-vectors only.

    Examples
    --------
    >>> x = npgpu.asarray([1, 2, 3], device="cpu")
    >>> npgpu.cross(x, [4, 5, 6])
    Array([-3,  6, -3])
    >>> npgpu.cross(npgpu.asarray([[1, 0, 0], [0, 1, 0]], device="cpu"), [0, 0, 1], axisc=0)
    Array([[ 0,  1],
           [-1,  0],
           [ 0,  0]])
    """
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = _on_one_device((a, b), "cross")
    if a.ndim < 1 or b.ndim < 1:
        raise ValueError("At least one array has zero dimension")
    a = moveaxis(a, _axis(axisa, a.ndim, "axisa"), -1)
    b = moveaxis(b, _axis(axisb, b.ndim, "axisb"), -1)
    na, nb = a.shape[-1], b.shape[-1]
    if (na != 3 or nb != 3) and _numpy_refuses_2_vectors():
        raise ValueError("Both input arrays must be (arrays of) 3-dimensional vectors, but they are "
                         f"{na} and {nb} dimensional instead.")
    if na not in (2, 3) or nb not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    if na == 2 or nb == 2:
        warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of 3-dimensional vectors "
                      "instead. (deprecated in NumPy 2.0)", DeprecationWarning, stacklevel=2)
    shape = np.broadcast_shapes(tuple(a.shape[:-1]), tuple(b.shape[:-1]))
    if na == 3 or nb == 3:
        axisc = _axis(axisc, len(shape) + 1, "axisc")
    dt = np.promote_types(a.dtype, b.dtype)
    a, b = a.astype(dt, copy=False), b.astype(dt, copy=False)
    a0, a1, b0, b1 = a[..., 0], a[..., 1], b[..., 0], b[..., 1]
    c2 = a0 * b1 - a1 * b0
    if na == 2 and nb == 2:
        return c2
    # NumPy's operations, the missing third elements taken as zero
    if na == 3 and nb == 3:
        a2, b2 = a[..., 2], b[..., 2]
        c0, c1 = a1 * b2 - a2 * b1, a2 * b0 - a0 * b2
    elif na == 2:
        b2 = b[..., 2]
        c0, c1 = a1 * b2, _ew.negative(a0 * b2)
    else:
        a2 = a[..., 2]
        c0, c1 = _ew.negative(a2 * b1), a2 * b0
    return moveaxis(stack([c0, c1, c2], axis=-1), -1, axisc)
