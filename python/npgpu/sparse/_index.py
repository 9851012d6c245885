"""Indexing of CSR / CSC matrices as SciPy's (``A[i, j]``, ``A[i]``, slices, integer arrays, boolean masks,
broadcast fancy pairs). Row and column selections are gathers on the device; the only values read back are
the sizes of outputs whose shape depends on the data (a total entry count) and the two index-pointer values of
a scalar lookup."""
import operator

import numpy as np

import npgpu

from . import _util as u


# ---------------------------------------------------------------------------------------------- key parsing
def _is_int(k):
    if isinstance(k, (bool, np.bool_)):
        return False
    if isinstance(k, (int, np.integer)):
        return True
    if isinstance(k, np.ndarray) and k.ndim == 0 and k.dtype.kind in "iu":
        return True
    return u.is_npgpu(k) and k.ndim == 0 and np.dtype(k.dtype).kind in "iu"


def _expand_key(key, shape):
    if not isinstance(key, tuple):
        key = (key,)
    if any(k is None for k in key):
        raise IndexError("Indexing that leads to >2D is not supported by npgpu.sparse")
    n_ell = sum(1 for k in key if k is Ellipsis)
    if n_ell > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if n_ell:
        i = next(j for j, k in enumerate(key) if k is Ellipsis)
        fill = (slice(None),) * max(0, 2 - (len(key) - 1))
        key = key[:i] + fill + key[i + 1:]
    if len(key) > 2:
        raise IndexError(f"too many indices for a 2-d sparse matrix: {len(key)}")
    if len(key) == 1:
        key = key + (slice(None),)
    return key


def _norm_int(k, dim):
    k = int(k)
    if k < -dim or k >= dim:
        raise IndexError(f"index ({k}) out of range")
    return k + dim if k < 0 else k


class _Arr:
    """An integer index array on the device (values in [0, dim)), with its NumPy shape."""

    def __init__(self, a):
        self.a = a

    @property
    def shape(self):
        return tuple(self.a.shape)


def _as_index_array(k, dim, device, axis):
    """A list / NumPy / npgpu index (integers or booleans) -> an int64 npgpu array on `device` with negative
    values wrapped; out-of-range values raise IndexError (checked on the device for npgpu input)."""
    if u.is_npgpu(k):
        if not u.same_device(k.device, device):
            raise ValueError(f"the index is on device {k.device}, the matrix on {device}")
        kind = np.dtype(k.dtype).kind
        if kind == "b":
            if k.ndim != 1 or k.shape[0] != dim:
                raise IndexError(f"bool index {axis} has shape {tuple(k.shape)} instead of ({dim},)")
            return npgpu.flatnonzero(k).astype(np.int64)
        if kind not in "iu":
            raise IndexError(f"index arrays must hold integers or booleans, not {k.dtype}")
        a = k.astype(np.int64)
        if a.size:
            lo, hi = u.read_flags(npgpu.min(a) < -dim, npgpu.max(a) >= dim)
            if lo or hi:
                raise IndexError(f"index out of range for axis {axis} of size {dim}")
            a = npgpu.where(a < 0, a + dim, a)
        return a
    h = np.asarray(k)
    if h.dtype == np.bool_:
        if h.ndim != 1 or h.shape[0] != dim:
            raise IndexError(f"bool index {axis} has shape {h.shape} instead of ({dim},)")
        h = np.flatnonzero(h)
    elif h.size == 0:
        h = h.astype(np.int64)
    elif h.dtype.kind not in "iu":
        raise IndexError(f"index arrays must hold integers or booleans, not {h.dtype}")
    h = h.astype(np.int64)
    if h.size:
        bad = (h < -dim) | (h >= dim)
        if bad.any():
            raise IndexError(f"index ({int(h[bad][0])}) out of range")
        h = np.where(h < 0, h + dim, h)
    return npgpu.asarray(h, device=device)


def _parse(k, dim, device, axis):
    if isinstance(k, slice):
        return k.indices(dim)
    if _is_int(k):
        return _norm_int(k, dim)
    if isinstance(k, (list, tuple, np.ndarray)) or u.is_npgpu(k):
        return _Arr(_as_index_array(k, dim, device, axis))
    if isinstance(k, (float, np.floating, str, bytes)):
        raise IndexError(f"only integers, slices, integer or boolean arrays are valid indices, not "
                         f"{type(k).__name__}")
    try:
        return _norm_int(operator.index(k), dim)
    except TypeError:
        raise IndexError(f"invalid index {k!r}") from None


# ---------------------------------------------------------------------------------------------- entry point
def getitem(A, key):
    """``A[key]`` for a CSR or CSC matrix, as SciPy's indexing (the implementation of ``__getitem__``).

    Row and column selections are gathers on the device; the only values read back are the sizes of outputs
    whose shape depends on the data and the two index-pointer values of a scalar lookup. Duplicates are summed in
    the values read.

    Parameters
    ----------
    A : csr_matrix, csc_matrix, csr_array or csc_array
        The matrix.
    key
        Integers, slices, integer or boolean index arrays (lists, NumPy or npgpu arrays on A's device), an
        Ellipsis, or a 2-d boolean mask (dense or sparse) of A's shape.

    Returns
    -------
    npgpu.Array or sparse matrix
        ``A[i, j]``: a 0-d npgpu.Array. Two index arrays broadcast to at most one dimension, or a mask: the
        values, a dense npgpu.Array (1-d for the *_array classes, (1, k) for the *_matrix classes); broadcast to
        two dimensions: a sparse matrix of A's format. Otherwise a sparse matrix of A's format and kind.

    Raises
    ------
    TypeError
        A COO matrix (not subscriptable).
    IndexError
        An index out of range or of an invalid kind, more than two indices, a None (new axis), index arrays that
        do not broadcast or have more than two dimensions, or a mask of another shape.
    NotImplementedError
        An integer index of a *_array (it would give a 1-d sparse array).
    ValueError
        An npgpu index on another device.

    Examples
    --------
    >>> from npgpu.sparse._index import getitem
    >>> A = npgpu.sparse.csr_matrix(np.array([[1.0, 0.0, 2.0], [0.0, 3.0, 0.0]]))
    >>> getitem(A, (0, 2)), A[0, 2]
    (Array(2.), Array(2.))
    >>> A[:, [2, 0]].toarray()
    Array([[2., 1.],
           [0., 0.]])
    >>> A[[0, 1], [2, 1]]
    Array([[2., 3.]])
    """
    if A.format == "coo":
        raise TypeError(f"'{type(A).__name__}' object is not subscriptable")
    m, n = A.shape
    # a 2-d boolean mask (sparse or dense) of the matrix's shape: the masked values, as A[rows, cols]
    positions = _mask_positions(A, key)
    if positions is not None:
        return _pairs_dense(A, *positions)
    rk, ck = _expand_key(key, A.shape)
    dev = A.device
    r, c = _parse(rk, m, dev, 0), _parse(ck, n, dev, 1)
    if isinstance(r, int) and isinstance(c, int):
        return _scalar(A, r, c)
    if isinstance(r, _Arr) and isinstance(c, _Arr):
        if len(r.shape) > 2 or len(c.shape) > 2:
            raise IndexError("index arrays of more than two dimensions are not supported")
        try:
            bshape = np.broadcast_shapes(r.shape, c.shape)
        except ValueError:
            raise IndexError(f"shape mismatch: indexing arrays could not be broadcast together with shapes "
                             f"{r.shape} {c.shape}") from None
        if len(bshape) <= 1:
            return _pairs_dense(A, npgpu.broadcast_to(r.a, bshape).reshape(-1),
                                npgpu.broadcast_to(c.a, bshape).reshape(-1))
        rr = npgpu.broadcast_to(r.a, bshape).reshape(-1)
        cc = npgpu.broadcast_to(c.a, bshape).reshape(-1)
        vals = _pair_values(A, rr, cc).reshape(bshape)
        return type(A)._cls(A.format)(vals)
    for s in (r, c):
        if isinstance(s, _Arr) and len(s.shape) != 1:
            raise IndexError("a 2-d index array needs an index array for the other axis too")
    if A._is_array and (isinstance(r, int) or isinstance(c, int)):
        raise NotImplementedError("this index gives a 1-d sparse array, which npgpu.sparse does not support; "
                                  "index with a list (A[[i]]) or use the *_matrix class")
    if A.format == "csc":
        return _select_csr(A.T, _as_sel(c), _as_sel(r)).T
    return _select_csr(A, _as_sel(r), _as_sel(c))


def _as_sel(s):
    if isinstance(s, int):
        return (s, s + 1, 1)
    return s


# ---------------------------------------------------------------------------------------------- scalar / pairs
def _scalar(A, i, j):
    """A[i, j] as a 0-d npgpu.Array on the matrix's device (duplicates summed)."""
    if A.format == "csc":
        i, j = j, i
    p, q = (int(v) for v in A.indptr[i:i + 2].get())
    data = A.data[p:q]
    hit = A.indices[p:q] == j
    if A.dtype == np.bool_:
        return npgpu.any(hit & data) if q > p else npgpu.zeros((), dtype=np.bool_, device=A.device)
    if q == p:
        return npgpu.zeros((), dtype=A.dtype, device=A.device)
    zero = npgpu.zeros((), dtype=A.dtype, device=A.device)
    return npgpu.sum(npgpu.where(hit, data, zero), dtype=A.dtype)


def _pair_values(A, rows, cols):
    """A[rows[t], cols[t]] for each t, a dense 1-d npgpu array (duplicates summed)."""
    m, n = A.shape
    k = rows.shape[0]
    B = A.tocsr()
    if not B.has_canonical_format:
        B = B.copy()
        B.sum_duplicates()
    if k == 0 or B.nnz == 0:
        return npgpu.zeros(k, dtype=A.dtype, device=A.device)
    br, bc, bd = B._triples()
    keys = u.pair_key(br, bc, n)
    q = u.pair_key(rows, cols, n)
    pos = npgpu.minimum(npgpu.searchsorted(keys, q), B.nnz - 1)
    found = npgpu.take(keys, pos) == q
    return npgpu.where(found, npgpu.take(bd, pos), npgpu.zeros((), dtype=A.dtype, device=A.device))


def _pairs_dense(A, rows, cols):
    vals = _pair_values(A, rows, cols)
    return vals if A._is_array else vals.reshape(1, vals.shape[0])


# ---------------------------------------------------------------------------------------------- outer selection
def _sel_len(s):
    if isinstance(s, _Arr):
        return s.shape[0]
    return len(range(*s))


def _select_csr(A, rs, cs):
    """A[rs][:, cs] for a CSR matrix; rs / cs are (start, stop, step) triples or _Arr index arrays."""
    B = _select_rows(A, rs)
    return _select_cols(B, cs)


def _select_rows(A, rs):
    m, n = A.shape
    cls = type(A)
    idx = A.indptr.dtype
    if not isinstance(rs, _Arr) and rs[2] == 1:
        start, stop = rs[0], max(rs[0], rs[1])
        if (start, stop) == (0, m):
            return A
        p, q = (int(v) for v in A.indptr[[start, stop]].get()) if stop > start else (0, 0)
        indptr = A.indptr[start:stop + 1] - A.indptr[start] if stop > start else \
            npgpu.zeros(1, dtype=idx, device=A.device)
        return cls((A.data[p:q], A.indices[p:q], indptr.astype(idx)), shape=(stop - start, n), _trusted=True,
                   _flags=A._flags())
    R = rs.a if isinstance(rs, _Arr) else npgpu.arange(*rs, dtype=np.int64, device=A.device)
    k = R.shape[0]
    if k == 0 or A.nnz == 0:
        from ._compressed import _empty

        return _empty(cls, (k, n), A.dtype, A.device)
    starts = A.indptr[:-1].astype(np.int64)
    lens = A.indptr[1:].astype(np.int64) - starts
    cnt = npgpu.take(lens, R)
    new_ptr = npgpu.concatenate([npgpu.zeros(1, dtype=np.int64, device=A.device), npgpu.cumsum(cnt)])
    total = int(new_ptr[-1])
    oidx = u.index_dtype(max(k, n, total))
    if total == 0:
        return cls((npgpu.zeros(0, dtype=A.dtype, device=A.device), npgpu.zeros(0, dtype=oidx, device=A.device),
                    new_ptr.astype(oidx)), shape=(k, n), _trusted=True, _flags=(True, True))
    row = u.expand_major(new_ptr, total, np.int64)
    within = npgpu.arange(total, dtype=np.int64, device=A.device) - npgpu.take(new_ptr, row)
    src = npgpu.take(starts, npgpu.take(R, row)) + within
    return cls((npgpu.take(A.data, src), npgpu.take(A.indices, src).astype(oidx), new_ptr.astype(oidx)),
               shape=(k, n), _trusted=True, _flags=A._flags())


def _select_cols(A, cs):
    m, n = A.shape
    cls = type(A)
    if not isinstance(cs, _Arr) and cs[2] == 1:
        start, stop = cs[0], max(cs[0], cs[1])
        if (start, stop) == (0, n):
            return A
        ncols = stop - start
        idx = u.index_dtype(max(m, ncols, A.nnz))
        if A.nnz == 0 or ncols == 0:
            from ._compressed import _empty

            return _empty(cls, (m, ncols), A.dtype, A.device)
        keep = npgpu.flatnonzero((A.indices >= start) & (A.indices < stop))
        rows = npgpu.take(A._major_index(), keep)
        indptr = u.compress_index(rows, m, idx)
        return cls((npgpu.take(A.data, keep), (npgpu.take(A.indices, keep) - start).astype(idx), indptr),
                   shape=(m, ncols), _trusted=True, _flags=A._flags())
    C = cs.a if isinstance(cs, _Arr) else npgpu.arange(*cs, dtype=np.int64, device=A.device)
    ncols = C.shape[0]
    if ncols == 0 or A.nnz == 0:
        from ._compressed import _empty

        return _empty(cls, (m, ncols), A.dtype, A.device)
    order = npgpu.argsort(C)
    cs_sorted = npgpu.take(C, order)
    col = A.indices.astype(np.int64)
    lo = npgpu.searchsorted(cs_sorted, col, side="left")
    cnt = npgpu.searchsorted(cs_sorted, col, side="right") - lo
    ends = npgpu.cumsum(cnt)
    total = int(ends[-1])
    idx = u.index_dtype(max(m, ncols, total))
    if total == 0:
        from ._compressed import _empty

        return _empty(cls, (m, ncols), A.dtype, A.device)
    t = npgpu.arange(total, dtype=np.int64, device=A.device)
    ent = npgpu.searchsorted(ends, t, side="right")
    within = t - (npgpu.take(ends, ent) - npgpu.take(cnt, ent))
    new_col = npgpu.take(order, npgpu.take(lo, ent) + within)
    rows = npgpu.take(A._major_index(), ent)
    data = npgpu.take(A.data, ent)
    indptr, indices, data = u.compress(rows, new_col, data, m, ncols, idx, sum_dups=False)
    return cls((data, indices, indptr), shape=(m, ncols), _trusted=True,
               _flags=(True, True if A._canonical else None))


def _mask_positions(A, key):
    """(rows, cols), int64, of the True entries of `key` in C order (as NumPy's nonzero of the dense mask)
    when `key` is a 2-d boolean mask (sparse or dense) of A's shape; None for any other key."""
    from ._base import _spbase

    if not (isinstance(key, _spbase) or ((isinstance(key, np.ndarray) or u.is_npgpu(key)) and key.ndim == 2
                                         and np.dtype(key.dtype) == np.bool_)):
        return None
    if tuple(key.shape) != A.shape:
        raise IndexError(f"boolean index of shape {tuple(key.shape)} does not match {A.shape}")
    if isinstance(key, _spbase):
        mask = key.tocsr(copy=True)
        mask.sum_duplicates()
        r, c = mask.nonzero()
    else:
        n = A.shape[1]
        flat = npgpu.flatnonzero(u.to_array(key, A.device, name="the mask"))
        r, c = flat // max(n, 1), flat % max(n, 1)
    return r.astype(np.int64), c.astype(np.int64)
