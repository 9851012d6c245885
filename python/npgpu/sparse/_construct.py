"""Building sparse matrices: eye, identity, diags, random, bmat, hstack, vstack, block_diag, kron, tril, triu."""
import numpy as np

import npgpu

from . import _util as u
from ._base import _spbase
from ._registry import CLASSES


def _finish(rows, cols, data, shape, format, is_array):
    fmt = format or ("csr")
    if fmt not in ("csr", "csc", "coo"):
        raise ValueError(f"format {fmt!r} is not supported (csr, csc or coo)")
    coo = CLASSES[("coo", is_array)]((data, (rows, cols)), shape=shape, _trusted=True)
    return coo.asformat(fmt)


def _eye(m, n, k, dtype, format, device, is_array):
    n = m if n is None else n
    m, n, k = int(m), int(n), int(k)
    dtype = u.check_dtype(dtype)
    length = max(0, min(m + min(k, 0), n - max(k, 0)))
    idx = u.index_dtype(max(m, n))
    d = npgpu.arange(length, dtype=idx, device=device)
    rows = d + max(-k, 0) if k < 0 else d
    cols = d + k if k > 0 else d
    data = npgpu.ones(length, dtype=dtype, device=d.device)
    return _finish(rows.astype(idx), cols.astype(idx), data, (m, n), format, is_array)


def eye(m, n=None, k=0, dtype=float, format=None, *, device=None):
    """A sparse (m, n) matrix with ones on the k-th diagonal (CSR unless `format` says otherwise).

    Parameters
    ----------
    m : int
        Number of rows.
    n : int, optional
        Number of columns (default: m).
    k : int, optional
        The diagonal: 0 the main one, > 0 above it, < 0 below it.
    dtype : dtype, optional
        The values' dtype (default: float64).
    format : {"csr", "csc", "coo"}, optional
        The result's format (default: "csr"; SciPy's "dia" and others are not supported).
    device : optional
        Where the matrix lives (what ``npgpu.asarray`` takes; default: the default device).

    Returns
    -------
    csr_matrix, csc_matrix or coo_matrix

    Raises
    ------
    ValueError
        An unsupported `format`.
    TypeError
        A dtype npgpu.sparse does not support.

    See Also
    --------
    eye_array : The same as a sparse array.
    identity : The square identity matrix.

    Examples
    --------
    >>> npgpu.sparse.eye(2, 3, k=1, device="cpu")
    <Compressed Sparse Row sparse matrix of dtype 'float64'
        with 2 stored elements and shape (2, 3) on device cpu>
    >>> npgpu.sparse.eye(2, 3, k=1).toarray()
    Array([[0., 1., 0.],
           [0., 0., 1.]])
    """
    return _eye(m, n, k, dtype, format, device, False)


def eye_array(m, n=None, *, k=0, dtype=float, format=None, device=None):
    """A sparse (m, n) array with ones on the k-th diagonal, as scipy.sparse.eye_array.

    Parameters
    ----------
    m : int
        Number of rows.
    n : int, optional
        Number of columns (default: m).
    k : int, optional
        The diagonal: 0 the main one, > 0 above it, < 0 below it.
    dtype : dtype, optional
        The values' dtype (default: float64).
    format : {"csr", "csc", "coo"}, optional
        The result's format (default: "csr"; SciPy's "dia" and others are not supported).
    device : optional
        Where the array lives (what ``npgpu.asarray`` takes; default: the default device).

    Returns
    -------
    csr_array, csc_array or coo_array

    Raises
    ------
    ValueError
        An unsupported `format`.
    TypeError
        A dtype npgpu.sparse does not support.

    See Also
    --------
    eye : The same as a sparse matrix.

    Examples
    --------
    >>> E = npgpu.sparse.eye_array(3, k=-1, format="coo")
    >>> type(E).__name__
    'coo_array'
    >>> E.toarray()
    Array([[0., 0., 0.],
           [1., 0., 0.],
           [0., 1., 0.]])
    """
    return _eye(m, n, k, dtype, format, device, True)


def identity(n, dtype="d", format=None, *, device=None):
    """The sparse (n, n) identity matrix, as scipy.sparse.identity.

    Parameters
    ----------
    n : int
        Number of rows and columns.
    dtype : dtype, optional
        The values' dtype (default: float64).
    format : {"csr", "csc", "coo"}, optional
        The result's format (default: "csr").
    device : optional
        Where the matrix lives (what ``npgpu.asarray`` takes; default: the default device).

    Returns
    -------
    csr_matrix, csc_matrix or coo_matrix

    Raises
    ------
    ValueError
        An unsupported `format`.
    TypeError
        A dtype npgpu.sparse does not support.

    Examples
    --------
    >>> npgpu.sparse.identity(2, dtype=np.int32).toarray()
    Array([[1, 0],
           [0, 1]], dtype=int32)
    """
    return _eye(n, n, 0, dtype, format, device, False)


def _diags(diagonals, offsets, shape, format, dtype, device, is_array):
    if np.ndim(offsets) == 0:  # one diagonal given as a sequence of values (SciPy's rule)
        if u.is_npgpu(diagonals) and diagonals.ndim == 2:
            diagonals = [diagonals[i] for i in range(diagonals.shape[0])]
        elif u.is_npgpu(diagonals) or np.isscalar(diagonals) or len(diagonals) == 0 or (
                np.ndim(diagonals[0]) == 0):
            diagonals = [diagonals]
    elif u.is_npgpu(diagonals):
        diagonals = [diagonals[i] for i in range(diagonals.shape[0])] if diagonals.ndim == 2 else [diagonals]
    offsets = [int(o) for o in np.atleast_1d(np.asarray(offsets, dtype=np.int64))]
    if len(diagonals) != len(offsets):
        raise ValueError(f"{len(diagonals)} diagonals given but {len(offsets)} offsets")
    if len(set(offsets)) != len(offsets):
        raise ValueError("offset array contains duplicate values")
    arrs = []
    for d in diagonals:
        if device is None and u.is_npgpu(d):
            device = d.device
        arrs.append(d)
    arrs = [u.to_array(d, device, name="a diagonal") for d in arrs]
    if device is None and arrs:
        device = arrs[0].device
    arrs = [a.reshape(1) if a.ndim == 0 else a for a in arrs]
    if shape is None:
        m = max(a.shape[0] + abs(o) for a, o in zip(arrs, offsets)) if arrs else 0
        shape = (m, m)
    m, n = (int(s) for s in shape)
    if dtype is None:
        dtype = np.result_type(*[a.dtype for a in arrs]) if arrs else np.dtype(np.float64)
    dtype = u.check_dtype(dtype)
    idx = u.index_dtype(max(m, n))
    rows, cols, data = [], [], []
    for a, k in zip(arrs, offsets):
        length = max(0, min(m + min(k, 0), n - max(k, 0)))
        if length == 0:
            continue
        if a.shape[0] == 1 and length != 1:
            vals = npgpu.full(length, 0, dtype=dtype, device=device) + a.astype(dtype)
        elif a.shape[0] < length:
            raise ValueError(f"diagonal length ({a.shape[0]}) does not agree with the array size "
                             f"({length}) for offset {k}")
        else:
            vals = a[:length].astype(dtype)
        d = npgpu.arange(length, dtype=idx, device=device)
        rows.append(d + max(-k, 0))
        cols.append(d + max(k, 0))
        data.append(vals)
    if not data:
        z = npgpu.zeros(0, dtype=idx, device=device)
        return _finish(z, z.copy(), npgpu.zeros(0, dtype=dtype, device=device), (m, n), format, is_array)
    rows = npgpu.concatenate(rows).astype(idx)
    cols = npgpu.concatenate(cols).astype(idx)
    return _finish(rows, cols, npgpu.concatenate(data), (m, n), format, is_array)


def diags(diagonals, offsets=0, shape=None, format=None, dtype=None, *, device=None):
    """A sparse matrix from diagonals, as scipy.sparse.diags (CSR unless `format` says otherwise).

    Parameters
    ----------
    diagonals : sequence of array_like, or array_like
        The values of each diagonal (one diagonal may be given alone); a diagonal of one value is broadcast
        along its length, and values beyond a diagonal's length are ignored.
    offsets : int or sequence of int, optional
        The diagonal of each entry of `diagonals`: 0 the main one, > 0 above it, < 0 below it.
    shape : tuple of int, optional
        The result's shape (default: square, just large enough for the diagonals).
    format : {"csr", "csc", "coo"}, optional
        The result's format (default: "csr").
    dtype : dtype, optional
        The values' dtype (default: the diagonals' result type).
    device : optional
        Where the matrix lives (default: the first npgpu diagonal's device, else the default device).

    Returns
    -------
    csr_matrix, csc_matrix or coo_matrix

    Raises
    ------
    ValueError
        Different numbers of diagonals and offsets, a repeated offset, a diagonal shorter than its place in the
        matrix (other than a single value), or an unsupported `format`.
    TypeError
        A dtype npgpu.sparse does not support.

    See Also
    --------
    diags_array : The same as a sparse array.

    Examples
    --------
    >>> npgpu.sparse.diags([[1.0, 2.0, 3.0], [4.0, 5.0]], [0, 1]).toarray()
    Array([[1., 4., 0.],
           [0., 2., 5.],
           [0., 0., 3.]])
    >>> npgpu.sparse.diags([1.0, -2.0], [0, 1], shape=(3, 3)).toarray()  # one value each, broadcast
    Array([[ 1., -2.,  0.],
           [ 0.,  1., -2.],
           [ 0.,  0.,  1.]])
    """
    return _diags(diagonals, offsets, shape, format, dtype, device, False)


def diags_array(diagonals, /, *, offsets=0, shape=None, format=None, dtype=None, device=None):
    """A sparse array from diagonals, as scipy.sparse.diags_array.

    Parameters
    ----------
    diagonals : sequence of array_like, or array_like
        The values of each diagonal (one diagonal may be given alone); a diagonal of one value is
        broadcast along its length, and values beyond a diagonal's length are ignored.
    offsets : int or sequence of int, optional
        The diagonal of each entry of `diagonals`: 0 the main one, > 0 above it, < 0 below it.
    shape : tuple of int, optional
        The result's shape (default: square, just large enough for the diagonals).
    format : {"csr", "csc", "coo"}, optional
        The result's format (default: "csr").
    dtype : dtype, optional
        The values' dtype (default: the diagonals' result type).
    device : optional
        Where the array lives (default: the first npgpu diagonal's device, else the default device).

    Returns
    -------
    csr_array, csc_array or coo_array

    Raises
    ------
    ValueError
        Different numbers of diagonals and offsets, a repeated offset, a diagonal shorter than its place in the
        array (other than a single value), or an unsupported `format`.
    TypeError
        A dtype npgpu.sparse does not support.

    See Also
    --------
    diags : The same as a sparse matrix.

    Examples
    --------
    >>> npgpu.sparse.diags_array([[1, 2], [3]], offsets=[0, -1]).toarray()
    Array([[1, 0],
           [3, 2]])
    """
    return _diags(diagonals, offsets, shape, format, dtype, device, True)


def _random(m, n, density, format, dtype, random_state, data_rvs, device, is_array):
    if not 0 <= density <= 1:
        raise ValueError("density expected to be 0 <= density <= 1")
    rng = random_state if isinstance(random_state, np.random.Generator) else np.random.default_rng(random_state)
    dtype = u.check_dtype(np.float64 if dtype is None else dtype)
    k = int(round(density * m * n))
    flat = rng.choice(m * n, size=k, replace=False) if k else np.zeros(0, dtype=np.int64)
    if data_rvs is not None:
        vals = np.asarray(data_rvs(k)).astype(dtype)
    elif dtype.kind == "c":
        vals = (rng.uniform(size=k) + 1j * rng.uniform(size=k)).astype(dtype)
    else:
        vals = rng.uniform(size=k).astype(dtype)
    idx = u.index_dtype(max(m, n))
    rows = npgpu.asarray((flat // max(n, 1)).astype(idx), device=device)
    cols = npgpu.asarray((flat % max(n, 1)).astype(idx), device=rows.device)
    data = npgpu.asarray(vals, device=rows.device)
    return _finish(rows, cols, data, (m, n), format or "coo", is_array)


def random(m, n, density=0.01, format="coo", dtype=None, random_state=None, data_rvs=None, *, device=None):
    """A random sparse (m, n) matrix with round(density * m * n) entries.

    Positions (distinct, uniform) and values are drawn on the host with NumPy's Generator and uploaded;
    the values are uniform on [0, 1) unless `data_rvs` gives them.

    Parameters
    ----------
    m, n : int
        The shape.
    density : float, optional
        The fraction of entries stored, in [0, 1] (default 0.01).
    format : {"coo", "csr", "csc"}, optional
        The result's format (default: "coo"; None is "coo" too).
    dtype : dtype, optional
        The values' dtype (default: float64).
    random_state : int, numpy.random.Generator or None, optional
        A seed or a Generator for the positions and values (anything ``numpy.random.default_rng`` takes).
    data_rvs : callable, optional
        ``data_rvs(k)`` returns the k values (default: uniform on [0, 1), for complex dtypes in both the real
        and the imaginary part).
    device : optional
        Where the matrix lives (what ``npgpu.asarray`` takes; default: the default device).

    Returns
    -------
    coo_matrix, csr_matrix or csc_matrix

    Raises
    ------
    ValueError
        A density outside [0, 1], or an unsupported `format`.
    TypeError
        A dtype npgpu.sparse does not support.

    See Also
    --------
    random_array : The same as a sparse array.

    Examples
    --------
    >>> R = npgpu.sparse.random(4, 5, density=0.5, random_state=0)
    >>> R.format, R.nnz, R.dtype
    ('coo', 10, dtype('float64'))
    >>> bool((R.toarray() == npgpu.sparse.random(4, 5, density=0.5, random_state=0).toarray()).all())
    True
    """
    return _random(m, n, density, format, dtype, random_state, data_rvs, device, False)


def random_array(shape, *, density=0.01, format="coo", dtype=None, random_state=None, data_sampler=None,
                 device=None):
    """A random sparse array of shape (m, n) with round(density * m * n) entries, as scipy.sparse.random_array.

    Positions (distinct, uniform) and values are drawn on the host with NumPy's Generator and uploaded.

    Parameters
    ----------
    shape : tuple of int
        (m, n).
    density : float, optional
        The fraction of entries stored, in [0, 1] (default 0.01).
    format : {"coo", "csr", "csc"}, optional
        The result's format (default: "coo").
    dtype : dtype, optional
        The values' dtype (default: float64).
    random_state : int, numpy.random.Generator or None, optional
        A seed or a Generator for the positions and values.
    data_sampler : callable, optional
        ``data_sampler(k)`` returns the k values (default: uniform on [0, 1), for complex dtypes in both the
        real and the imaginary part).
    device : optional
        Where the array lives (what ``npgpu.asarray`` takes; default: the default device).

    Returns
    -------
    coo_array, csr_array or csc_array

    Raises
    ------
    ValueError
        A density outside [0, 1], or an unsupported `format`.
    TypeError
        A dtype npgpu.sparse does not support.

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> R = npgpu.sparse.random_array((3, 4), density=0.25, format="csr", random_state=rng,
    ...                               data_sampler=lambda k: np.arange(1, k + 1))
    >>> type(R).__name__, R.nnz, sorted(R.data.get().tolist())
    ('csr_array', 3, [1.0, 2.0, 3.0])
    """
    m, n = shape
    return _random(m, n, density, format, dtype, random_state, data_sampler, device, True)


# ---------------------------------------------------------------------------------------------- stacking
def _kind_is_array(mats):
    """SciPy's rule: the result is a sparse array if any input is one."""
    return any(isinstance(b, _spbase) and b._is_array for b in mats)


def _as_sparse(b, device, is_array):
    if isinstance(b, _spbase):
        if device is not None and not u.same_device(b.device, device):
            raise ValueError(f"blocks are on devices {device} and {b.device}")
        return b
    if u.is_scipy_sparse(b):
        return CLASSES[("coo", is_array)](b, device=device)
    a = u.to_array(b, device, name="a dense block")
    if a.ndim != 2:
        a = a.reshape(1, -1) if a.ndim < 2 else a
    return CLASSES[("coo", is_array)](a)


def bmat(blocks, format=None, dtype=None):
    """A sparse matrix from a 2-d grid of sparse (or dense) blocks, as scipy.sparse.bmat.

    None stands for an empty block; the blocks of a block row must have one height, those of a block column one
    width. SciPy sparse and dense blocks are converted (dense ones on the device of the first npgpu block).

    Parameters
    ----------
    blocks : sequence of sequences
        The grid, rows of equal length.
    format : {"csr", "csc", "coo"}, optional
        The result's format. Default: CSR when every block is CSR, CSC when every block is CSC (no None
        blocks), else COO.
    dtype : dtype, optional
        The values' dtype (default: the blocks' result type).

    Returns
    -------
    sparse matrix
        A sparse array if any block is one.

    Raises
    ------
    ValueError
        A grid that is not 2-D, blocks of incompatible heights or widths, blocks on different devices, or an
        unsupported `format`.

    Examples
    --------
    >>> A = npgpu.sparse.csr_matrix(np.array([[1.0, 2.0], [0.0, 3.0]]))
    >>> B = npgpu.sparse.bmat([[A, None], [None, A]])
    >>> B.format, B.shape
    ('coo', (4, 4))
    >>> npgpu.sparse.bmat([[A, np.ones((2, 1))]]).toarray()
    Array([[1., 2., 1.],
           [0., 3., 1.]])
    """
    grid = np.empty((0, 0), dtype=object)
    try:
        rows = [list(r) for r in blocks]
        if rows and all(len(r) == len(rows[0]) for r in rows):
            grid = np.empty((len(rows), len(rows[0])), dtype=object)
            for i, r in enumerate(rows):
                for j, b in enumerate(r):
                    grid[i, j] = b
        else:
            raise ValueError("blocks must be 2-D")
    except TypeError:
        raise ValueError("blocks must be 2-D") from None
    if grid.ndim != 2 or grid.size == 0 and grid.shape[0] == 0:
        raise ValueError("blocks must be 2-D")
    flat = [b for b in grid.flat if b is not None]
    is_array = _kind_is_array(flat)
    device = next((b.device for b in flat if isinstance(b, _spbase) or u.is_npgpu(b)), None)
    M, N = grid.shape
    for i in range(M):
        for j in range(N):
            if grid[i, j] is not None:
                grid[i, j] = _as_sparse(grid[i, j], device, is_array)
                device = grid[i, j].device
    heights, widths = [None] * M, [None] * N
    for i in range(M):
        for j in range(N):
            b = grid[i, j]
            if b is None:
                continue
            if heights[i] is None:
                heights[i] = b.shape[0]
            elif heights[i] != b.shape[0]:
                raise ValueError(f"blocks[{i},:] has incompatible row dimensions. Got blocks[{i},{j}].shape[0] "
                                 f"== {b.shape[0]}, expected {heights[i]}.")
            if widths[j] is None:
                widths[j] = b.shape[1]
            elif widths[j] != b.shape[1]:
                raise ValueError(f"blocks[:,{j}] has incompatible column dimensions. Got "
                                 f"blocks[{i},{j}].shape[1] == {b.shape[1]}, expected {widths[j]}.")
    heights = [h or 0 for h in heights]
    widths = [w or 0 for w in widths]
    r_off = np.concatenate([[0], np.cumsum(heights)]).astype(np.int64)
    c_off = np.concatenate([[0], np.cumsum(widths)]).astype(np.int64)
    shape = (int(r_off[-1]), int(c_off[-1]))
    present = [grid[i, j] for i in range(M) for j in range(N) if grid[i, j] is not None]
    if dtype is None:
        dtype = np.result_type(*[b.dtype for b in present]) if present else np.dtype(np.float64)
    dtype = u.check_dtype(dtype)
    fmts = {b.format for b in present}
    if format is None:
        format = fmts.pop() if len(fmts) == 1 and fmts <= {"csr", "csc"} and len(present) == M * N else "coo"
    rows, cols, data = [], [], []
    for i in range(M):
        for j in range(N):
            b = grid[i, j]
            if b is None or b.nnz == 0:
                continue
            r, c, d = b._triples()
            rows.append(r.astype(np.int64) + int(r_off[i]))
            cols.append(c.astype(np.int64) + int(c_off[j]))
            data.append(d.astype(dtype))
    idx = u.index_dtype(max(shape))
    if not data:
        z = npgpu.zeros(0, dtype=idx, device=device)
        out = CLASSES[("coo", is_array)]((npgpu.zeros(0, dtype=dtype, device=device), (z, z.copy())),
                                         shape=shape, _trusted=True, _flags=True)
        return out.asformat(format)
    rows, cols, data = npgpu.concatenate(rows), npgpu.concatenate(cols), npgpu.concatenate(data)
    if format == "coo":
        return CLASSES[("coo", is_array)]((data, (rows.astype(idx), cols.astype(idx))), shape=shape,
                                          _trusted=True)
    if format not in ("csr", "csc"):
        raise ValueError(f"format {format!r} is not supported (csr, csc or coo)")
    return CLASSES[(format, is_array)]._build_from_triples(rows, cols, data, shape, sum_dups=False)


def hstack(blocks, format=None, dtype=None):
    """Blocks side by side, as scipy.sparse.hstack.

    Parameters
    ----------
    blocks : sequence
        Sparse (or dense) blocks of one height.
    format : {"csr", "csc", "coo"}, optional
        The result's format (default: CSR / CSC when every block is CSR / CSC, else COO).
    dtype : dtype, optional
        The values' dtype (default: the blocks' result type).

    Returns
    -------
    sparse matrix
        A sparse array if any block is one.

    Raises
    ------
    ValueError
        As `bmat`.

    Examples
    --------
    >>> A = npgpu.sparse.eye(2, format="csr")
    >>> H = npgpu.sparse.hstack([A, 2 * A])
    >>> H.format, H.toarray()
    ('csr', Array([[1., 0., 2., 0.],
           [0., 1., 0., 2.]]))
    """
    return bmat([list(blocks)], format=format, dtype=dtype)


def vstack(blocks, format=None, dtype=None):
    """Blocks one above the other, as scipy.sparse.vstack.

    Parameters
    ----------
    blocks : sequence
        Sparse (or dense) blocks of one width.
    format : {"csr", "csc", "coo"}, optional
        The result's format (default: CSR / CSC when every block is CSR / CSC, else COO).
    dtype : dtype, optional
        The values' dtype (default: the blocks' result type).

    Returns
    -------
    sparse matrix
        A sparse array if any block is one.

    Raises
    ------
    ValueError
        As `bmat`.

    Examples
    --------
    >>> A = npgpu.sparse.eye(2)
    >>> V = npgpu.sparse.vstack([A, A.tocoo()])
    >>> V.format, V.shape
    ('coo', (4, 2))
    """
    return bmat([[b] for b in blocks], format=format, dtype=dtype)


def block_diag(mats, format=None, dtype=None):
    """The blocks on the diagonal of an otherwise empty matrix, as SciPy's block_diag.

    Parameters
    ----------
    mats : sequence
        Sparse (or dense) blocks.
    format : {"csr", "csc", "coo"}, optional
        The result's format (default: COO).
    dtype : dtype, optional
        The values' dtype (default: the blocks' result type).

    Returns
    -------
    sparse matrix
        A sparse array if any block is one.

    Raises
    ------
    ValueError
        As `bmat`.

    Examples
    --------
    >>> A = npgpu.sparse.csr_matrix(np.array([[1.0, 2.0], [0.0, 3.0]]))
    >>> npgpu.sparse.block_diag([A, np.array([[5.0]])]).toarray()
    Array([[1., 2., 0.],
           [0., 3., 0.],
           [0., 0., 5.]])
    """
    mats = list(mats)
    grid = [[None] * len(mats) for _ in mats]
    for i, b in enumerate(mats):
        grid[i][i] = b
    out = bmat(grid, format="coo", dtype=dtype)
    return out.asformat(format) if format is not None else out


def kron(A, B, format=None):
    """The Kronecker product of two sparse (or dense) matrices.

    Parameters
    ----------
    A, B : sparse matrix or array_like
        The factors (dense or SciPy ones are converted, on the device of an npgpu operand).
    format : {"csr", "csc", "coo"}, optional
        The result's format (default: COO; SciPy gives BSR when B is nearly dense, and npgpu.sparse has no BSR
        format).

    Returns
    -------
    sparse matrix
        A sparse array if either factor is one.

    Raises
    ------
    ValueError
        Factors on different devices.

    Examples
    --------
    >>> A = npgpu.sparse.csr_matrix(np.array([[1.0, 2.0], [0.0, 3.0]]))
    >>> K = npgpu.sparse.kron(npgpu.sparse.eye(2), A)
    >>> K.format, K.toarray()
    ('coo', Array([[1., 2., 0., 0.],
           [0., 3., 0., 0.],
           [0., 0., 1., 2.],
           [0., 0., 0., 3.]]))
    """
    is_array = _kind_is_array([A, B])
    device = next((x.device for x in (A, B) if isinstance(x, _spbase) or u.is_npgpu(x)), None)
    A = _as_sparse(A, device, is_array)
    B = _as_sparse(B, A.device, is_array)
    (ma, na), (mb, nb) = A.shape, B.shape
    shape = (ma * mb, na * nb)
    dt = np.result_type(A.dtype, B.dtype)
    ra, ca, da = A._triples()
    rb, cb, db = B._triples()
    total = A.nnz * B.nnz
    idx = u.index_dtype(max(shape))
    if total == 0:
        z = npgpu.zeros(0, dtype=idx, device=A.device)
        out = CLASSES[("coo", is_array)]((npgpu.zeros(0, dtype=dt, device=A.device), (z, z.copy())), shape=shape,
                                         _trusted=True, _flags=True)
    else:
        t = npgpu.arange(total, dtype=np.int64, device=A.device)
        ia, ib = t // B.nnz, t % B.nnz
        rows = npgpu.take(ra, ia).astype(np.int64) * mb + npgpu.take(rb, ib).astype(np.int64)
        cols = npgpu.take(ca, ia).astype(np.int64) * nb + npgpu.take(cb, ib).astype(np.int64)
        data = npgpu.take(da, ia).astype(dt) * npgpu.take(db, ib).astype(dt)
        out = CLASSES[("coo", is_array)]((data, (rows.astype(idx), cols.astype(idx))), shape=shape, _trusted=True)
    return out.asformat(format) if format is not None else out


def _tri(A, k, format, lower):
    is_array = _kind_is_array([A])
    A = _as_sparse(A, None, is_array)
    rows, cols, data = A._triples()
    d = cols.astype(np.int64) - rows.astype(np.int64)
    keep = npgpu.flatnonzero(d <= int(k) if lower else d >= int(k))
    out = CLASSES[("coo", A._is_array)]((npgpu.take(data, keep), (npgpu.take(rows, keep), npgpu.take(cols, keep))),
                                        shape=A.shape, _trusted=True)
    return out.asformat(format) if format is not None else out


def tril(A, k=0, format=None):
    """The entries on and below the k-th diagonal, as scipy.sparse.tril.

    Parameters
    ----------
    A : sparse matrix or array_like
        The matrix (a dense or SciPy one is converted).
    k : int, optional
        The diagonal (default 0): 0 the main one, > 0 above it, < 0 below it.
    format : {"csr", "csc", "coo"}, optional
        The result's format (default: COO).

    Returns
    -------
    sparse matrix
        Of A's kind (a sparse array for a sparse array).

    Examples
    --------
    >>> npgpu.sparse.tril(np.array([[1.0, 2.0], [3.0, 4.0]])).toarray()
    Array([[1., 0.],
           [3., 4.]])
    """
    return _tri(A, k, format, True)


def triu(A, k=0, format=None):
    """The entries on and above the k-th diagonal, as scipy.sparse.triu.

    Parameters
    ----------
    A : sparse matrix or array_like
        The matrix (a dense or SciPy one is converted).
    k : int, optional
        The diagonal (default 0): 0 the main one, > 0 above it, < 0 below it.
    format : {"csr", "csc", "coo"}, optional
        The result's format (default: COO).

    Returns
    -------
    sparse matrix
        Of A's kind (a sparse array for a sparse array).

    Examples
    --------
    >>> A = npgpu.sparse.csr_matrix(np.array([[1.0, 2.0], [3.0, 4.0]]))
    >>> npgpu.sparse.triu(A, k=1).toarray()
    Array([[0., 2.],
           [0., 0.]])
    """
    return _tri(A, k, format, False)
