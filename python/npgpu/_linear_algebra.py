"""The Array API standard's linear algebra functions of the main namespace, beside ``matmul``:
``matrix_transpose``, ``tensordot`` and ``vecdot``, and NumPy's ``matvec`` and ``vecmat`` (NumPy's semantics and
dtype rules). Each one is a view or
a reordering plus one matrix product or one reduction, so it runs where ``matmul`` and ``sum`` run: cuBLAS
on a GPU, the host backend on the host device, exact wrap-around for integers.

Inputs that are not npgpu.Arrays are converted with ``npgpu.asarray`` onto the device of the npgpu.Arrays
beside them; the results are npgpu.Arrays."""
import math
import operator

import numpy as np

from npgpu import _blas, _reduce
from npgpu._manipulation import _axis, _on_one_device, _one, broadcast_arrays, permute_dims, reshape

__all__ = ["matrix_transpose", "tensordot", "vecdot", "matvec", "vecmat"]


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
