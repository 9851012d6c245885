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
    """A sparse (m, n) matrix with ones on the k-th diagonal (CSR unless `format` says otherwise)."""
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
    """A sparse matrix from diagonals, as scipy.sparse.diags (CSR unless `format` says otherwise)."""
    return _diags(diagonals, offsets, shape, format, dtype, device, False)


def diags_array(diagonals, /, *, offsets=0, shape=None, format=None, dtype=None, device=None):
    """A sparse array from diagonals, as scipy.sparse.diags_array.

    Parameters
    ----------
    diagonals : sequence of array_like, or array_like
        The values of each diagonal (one diagonal may be given alone); a diagonal of one value is
        broadcast along its length.
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
    """A random sparse (m, n) matrix with round(density * m * n) entries, uniform on [0, 1) (drawn on the
    host with NumPy's Generator and uploaded)."""
    return _random(m, n, density, format, dtype, random_state, data_rvs, device, False)


def random_array(shape, *, density=0.01, format="coo", dtype=None, random_state=None, data_sampler=None,
                 device=None):
    """A random sparse array of shape (m, n) with round(density * m * n) entries, as
    scipy.sparse.random_array. Positions and values are drawn on the host with NumPy's Generator and uploaded.

    Parameters
    ----------
    shape : tuple of int
        (m, n).
    density : float, optional
        The fraction of entries stored, in [0, 1].
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
    """A sparse matrix from a 2-d grid of sparse (or dense) blocks, None for an empty block, as
    scipy.sparse.bmat: CSR when every block is CSR, CSC when every block is CSC, else COO (unless `format`
    says otherwise); a sparse array if any block is one."""
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
    """Blocks side by side, as scipy.sparse.hstack (CSR / CSC when every block is CSR / CSC, else COO)."""
    return bmat([list(blocks)], format=format, dtype=dtype)


def vstack(blocks, format=None, dtype=None):
    """Blocks one above the other, as scipy.sparse.vstack (CSR / CSC when every block is CSR / CSC, else
    COO)."""
    return bmat([[b] for b in blocks], format=format, dtype=dtype)


def block_diag(mats, format=None, dtype=None):
    """The blocks on the diagonal of an otherwise empty matrix (COO unless `format`), as SciPy's
    block_diag."""
    mats = list(mats)
    grid = [[None] * len(mats) for _ in mats]
    for i, b in enumerate(mats):
        grid[i][i] = b
    out = bmat(grid, format="coo", dtype=dtype)
    return out.asformat(format) if format is not None else out


def kron(A, B, format=None):
    """The Kronecker product of two sparse (or dense) matrices: COO unless `format` (SciPy gives BSR when B
    is nearly dense; npgpu.sparse has no BSR format)."""
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
    """The entries on and below the k-th diagonal (COO unless `format`), as scipy.sparse.tril."""
    return _tri(A, k, format, True)


def triu(A, k=0, format=None):
    """The entries on and above the k-th diagonal (COO unless `format`), as scipy.sparse.triu."""
    return _tri(A, k, format, False)
