"""Item assignment of CSR / CSC matrices as SciPy's (``A[i, j] = v``, rows, columns, slices, integer arrays,
boolean masks, broadcast fancy pairs, dense or sparse right-hand sides).

The key becomes two broadcast int64 index grids on the device (as scipy.sparse's ``IndexMixin.__setitem__``
builds them) and the value a grid of the matrix's dtype. The targets are sorted by (major, minor) with later
assignments winning, looked up in the canonical structure with one searchsorted; when every target is stored
already only the data changes (one flag read back). Otherwise SparseEfficiencyWarning is issued, as SciPy, and
the existing triples (overwritten where assigned) and the new ones are merged and compressed back to a canonical
matrix with array operations: no Python loop over entries. Assigned zeros stay stored, as in SciPy.
"""
import warnings

import numpy as np

import npgpu

from . import _util as u
from ._index import _expand_key, _mask_positions, _parse


def setitem(A, key, x):
    """``A[key] = x`` for a CSR or CSC matrix, as SciPy's item assignment (the implementation of ``__setitem__``).

    When every target is stored already only the data changes; otherwise SparseEfficiencyWarning is issued and
    the matrix is rebuilt (canonical) with the new entries. Assigned zeros stay stored, as in SciPy; of repeated
    positions, the last assignment wins.

    Parameters
    ----------
    A : csr_matrix, csc_matrix, csr_array or csc_array
        The matrix, changed in place.
    key
        As `getitem`'s: integers, slices, index arrays (broadcast against each other; a slice is a column of row
        numbers / a row of column numbers), or a 2-d boolean mask of A's shape.
    x : scalar, array_like, npgpu.Array or sparse matrix
        The values, cast to A's dtype and broadcast to the selection; a sparse x first makes the stored entries
        under the selection stored zeros, then assigns its own stored entries.

    Raises
    ------
    TypeError
        A COO matrix (no item assignment).
    IndexError
        As `getitem`.
    ValueError
        A sequence assigned to one item, a shape mismatch, or a value on another device.

    Warns
    -----
    SparseEfficiencyWarning
        The sparsity structure changes.

    Examples
    --------
    >>> import warnings
    >>> A = npgpu.sparse.csr_matrix(np.array([[1.0, 0.0, 2.0], [0.0, 3.0, 0.0]]))
    >>> A[0, 2] = 5.0  # stored already: only the data changes, no warning
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", npgpu.sparse.SparseEfficiencyWarning)
    ...     A[1, :] = [7.0, 8.0, 9.0]
    >>> A.toarray(), A.nnz
    (Array([[1., 0., 5.],
           [7., 8., 9.]]), 5)
    """
    if A.format == "coo":
        raise TypeError(f"'{type(A).__name__}' object does not support item assignment")
    from ._base import _spbase

    m, n = A.shape
    dev = A.device
    rows = cols = None
    # a 2-d boolean mask (sparse or dense) of the matrix's shape: its True positions in C order
    positions = _mask_positions(A, key)
    if positions is not None:
        rows, cols = positions
        bshape = (int(rows.shape[0]),)
    else:
        rk, ck = _expand_key(key, A.shape)
        r, c = _parse(rk, m, dev, 0), _parse(ck, n, dev, 1)
        if isinstance(r, int) and isinstance(c, int):
            val = _scalar_value(A, x)
            _set_many(A, _const(r, dev), _const(c, dev), val)
            return
        # as scipy.sparse: a slice is a column of row numbers / a row of column numbers, an integer a 1-d array
        if isinstance(r, tuple):
            ri = npgpu.arange(*r, dtype=np.int64, device=dev).reshape(-1, 1)
        else:
            ri = _const(r, dev) if isinstance(r, int) else r.a
        if isinstance(c, tuple):
            ci = npgpu.arange(*c, dtype=np.int64, device=dev).reshape(1, -1)
            if ri.ndim == 1:
                ri = ri.reshape(-1, 1)
        else:
            ci = _const(c, dev) if isinstance(c, int) else c.a
        try:
            bshape = np.broadcast_shapes(tuple(ri.shape), tuple(ci.shape))
        except ValueError:
            raise IndexError(f"shape mismatch: indexing arrays could not be broadcast together with shapes "
                             f"{tuple(ri.shape)} {tuple(ci.shape)}") from None
        if len(bshape) > 2:
            raise IndexError("index arrays of more than two dimensions are not supported")
        rows = npgpu.broadcast_to(ri, bshape)
        cols = npgpu.broadcast_to(ci, bshape)
    if isinstance(x, _spbase) or u.is_scipy_sparse(x):
        _set_sparse(A, rows, cols, bshape, x)
        return
    vals = _dense_value(A, x, bshape)
    if vals is None:
        return
    _set_many(A, rows.reshape(-1), cols.reshape(-1), vals)


def _const(v, dev):
    return npgpu.full(1, v, dtype=np.int64, device=dev)


def _squeezed(shape):
    return tuple(s for s in shape if s != 1)


def _scalar_value(A, x):
    from ._base import _spbase

    if isinstance(x, _spbase) or u.is_scipy_sparse(x):
        x = x.toarray()
    if u.is_npgpu(x):
        if x.size != 1:
            raise ValueError("Trying to assign a sequence to an item")
        return u.to_array(x, A.device, dtype=A.dtype, name="the value").reshape(1)
    h = np.asarray(x, dtype=A.dtype)
    if h.size != 1:
        raise ValueError("Trying to assign a sequence to an item")
    return npgpu.asarray(h.reshape(1), device=A.device)


def _dense_value(A, x, bshape):
    """x as a flat npgpu array of A's dtype matching the index grid (None when nothing is assigned)."""
    if u.is_npgpu(x):
        v = u.to_array(x, A.device, dtype=A.dtype, name="the value")
        if _squeezed(tuple(v.shape)) != _squeezed(bshape):
            v = npgpu.broadcast_to(v, bshape)
        if v.size == 0:
            return None
        return v.reshape(bshape).reshape(-1)
    h = np.asarray(x, dtype=A.dtype)
    if _squeezed(h.shape) != _squeezed(bshape):
        h = np.broadcast_to(h, bshape)
    if h.size == 0:
        return None
    return npgpu.asarray(np.ascontiguousarray(h.reshape(bshape).reshape(-1)), device=A.device)


# ---------------------------------------------------------------------------------------------- the update
def _lookup(A, major, minor):
    """Positions in A's (canonical) arrays of the (major, minor) pairs and whether each is stored."""
    n_minor = A._swap(A.shape)[1]
    nnz = A.nnz
    if nnz == 0:
        k = major.shape[0]
        return (npgpu.zeros(k, dtype=np.int64, device=A.device),
                npgpu.zeros(k, dtype=np.bool_, device=A.device))
    keys = u.pair_key(A._major_index(), A.indices, n_minor)
    q = u.pair_key(major, minor, n_minor)
    pos = npgpu.minimum(npgpu.searchsorted(keys, q), nnz - 1)
    return pos, npgpu.take(keys, pos) == q


def _canonicalize(A):
    if not A.has_canonical_format:
        A.sum_duplicates()


def _set_many(A, rows, cols, vals):
    """A[rows[t], cols[t]] = vals[t] for every t (flat int64 arrays, in range; vals of A's dtype), the last
    of repeated positions winning."""
    k = vals.shape[0]
    if k == 0:
        return
    n_major, n_minor = A._swap(A.shape)
    major, minor = A._swap((rows.astype(np.int64), cols.astype(np.int64)))
    if k > 1:  # stable sort by (major, minor); keep the last of each run of equal pairs
        order = u.argsort_pairs(major, minor, n_major, n_minor)
        major, minor, vals = (npgpu.take(a, order) for a in (major, minor, vals))
        last = npgpu.concatenate([(major[1:] != major[:-1]) | (minor[1:] != minor[:-1]),
                                  npgpu.ones(1, dtype=np.bool_, device=A.device)])
        keep = npgpu.flatnonzero(last)
        if keep.shape[0] < k:
            major, minor, vals = (npgpu.take(a, keep) for a in (major, minor, vals))
    _canonicalize(A)
    pos, found = _lookup(A, major, minor)
    (all_found,) = u.read_flags(npgpu.all(found))
    data = A.data.copy()  # A.data may be a view shared with an indexing result
    if all_found:
        data[pos] = vals
        A.data = data
        return
    warnings.warn(f"Changing the sparsity structure of a {type(A).__name__} is expensive. lil and dok are more "
                  "efficient.", _warning(), stacklevel=4)
    hit = npgpu.flatnonzero(found)
    if hit.shape[0]:
        data[npgpu.take(pos, hit)] = npgpu.take(vals, hit)
    new = npgpu.flatnonzero(~found)
    all_major = npgpu.concatenate([A._major_index().astype(np.int64), npgpu.take(major, new)])
    all_minor = npgpu.concatenate([A.indices.astype(np.int64), npgpu.take(minor, new)])
    all_data = npgpu.concatenate([data, npgpu.take(vals, new)])
    r, c = A._swap((all_major, all_minor))
    out = type(A)._build_from_triples(r, c, all_data, A.shape, sum_dups=True)  # no duplicates: canonical
    A._replace_with(out)


def _warning():
    from ._base import _efficiency_warning

    return _efficiency_warning()


def _set_sparse(A, rows, cols, bshape, x):
    """A[rows, cols] = x for a sparse x, as SciPy's _set_arrayXarray_sparse: the stored entries under the
    index grid become (stored) zeros, then x's stored entries are assigned."""
    from ._base import _spbase

    if 0 in tuple(x.shape):
        return
    if len(bshape) == 1:
        bshape = (1,) + tuple(bshape)
    rows, cols = rows.reshape(bshape), cols.reshape(bshape)
    M, N = bshape
    if not isinstance(x, _spbase):
        x = A._cls("coo")(x, device=A.device)
    elif not u.same_device(x.device, A.device):
        raise ValueError(f"the value is on device {x.device}, the matrix on {A.device}")
    broadcast_row = x.shape[0] == 1 and M != 1
    broadcast_col = x.shape[1] == 1 and N != 1
    if not ((broadcast_row or x.shape[0] == M) and (broadcast_col or x.shape[1] == N)):
        raise ValueError("shape mismatch in assignment")
    xc = x.tocsr(copy=True)
    xc.sum_duplicates()
    r, c, d = xc._triples()
    r, c = r.astype(np.int64), c.astype(np.int64)
    # clear the stored entries under the grid (they stay stored, as zeros)
    _canonicalize(A)
    flat_r, flat_c = rows.reshape(-1), cols.reshape(-1)
    if flat_r.shape[0] and A.nnz:
        major, minor = A._swap((flat_r, flat_c))
        pos, found = _lookup(A, major, minor)
        hit = npgpu.flatnonzero(found)
        if hit.shape[0]:
            data = A.data.copy()
            data[npgpu.take(pos, hit)] = npgpu.zeros((), dtype=A.dtype, device=A.device)
            A.data = data
    t = d.shape[0]
    if t == 0:
        return
    d = d.astype(A.dtype)
    if broadcast_row:
        r = npgpu.repeat(npgpu.arange(M, dtype=np.int64, device=A.device), t)
        c = npgpu.tile(c, M)
        d = npgpu.tile(d, M)
    if broadcast_col:
        t = r.shape[0]
        r = npgpu.repeat(r, N)
        c = npgpu.tile(npgpu.arange(N, dtype=np.int64, device=A.device), t)
        d = npgpu.repeat(d, N)
    flat = r * N + c
    _set_many(A, npgpu.take(flat_r, flat), npgpu.take(flat_c, flat), d)
