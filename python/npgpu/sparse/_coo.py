"""COOrdinate matrices: (data, row, col) npgpu Arrays on one device."""
import numpy as np

import npgpu

from . import _util as u
from ._base import _spbase
from ._compressed import _check_shape, _contiguous
from ._registry import CLASSES


class _coo_base(_spbase):
    format = "coo"

    def __init__(self, arg1, shape=None, dtype=None, copy=False, *, device=None, _trusted=False, _flags=None):
        self._canonical = None
        if _trusted:
            data, (row, col) = arg1
            self._set(data, row, col, tuple(int(s) for s in shape))
            if _flags is not None:
                self._canonical = _flags
            if copy:
                self.data, self.row, self.col = self.data.copy(), self.row.copy(), self.col.copy()
            return
        if dtype is not None:
            dtype = u.check_dtype(dtype)
        if shape is not None:
            shape = _check_shape(shape)
        if isinstance(arg1, _spbase):
            src = arg1.tocoo()
            if dtype is not None and dtype != src.dtype:
                src, copy = src.astype(dtype), False
            if device is not None and not u.same_device(src.device, device):
                src, copy = src.to_device(device), False
            if shape is not None and shape != src.shape:
                raise ValueError(f"shape {shape} differs from the matrix's {src.shape}")
            self._set(src.data, src.row, src.col, src.shape)
            self._canonical = src._canonical
            if copy:
                self.data, self.row, self.col = self.data.copy(), self.row.copy(), self.col.copy()
            return
        if u.is_scipy_sparse(arg1):
            s = arg1.tocoo()
            if shape is not None and shape != tuple(s.shape):
                raise ValueError(f"shape {shape} differs from the SciPy matrix's {tuple(s.shape)}")
            c = True if copy else None
            data = npgpu.asarray(s.data, device=device, copy=c)
            row = npgpu.asarray(s.row, device=data.device, copy=c)
            col = npgpu.asarray(s.col, device=data.device, copy=c)
            if row.dtype != col.dtype:
                idx = np.promote_types(row.dtype, col.dtype)
                row, col = row.astype(idx), col.astype(idx)
            if dtype is not None and dtype != data.dtype:
                data = data.astype(dtype)
            u.check_dtype(data.dtype)
            self._set(data, row, col, tuple(int(v) for v in s.shape))
            self._canonical = s.__dict__.get("has_canonical_format") or None
            return
        if isinstance(arg1, tuple) and len(arg1) == 2 and all(isinstance(s, (int, np.integer)) for s in arg1):
            shape = _check_shape(arg1) if shape is None else shape
            if tuple(arg1) != shape:
                raise ValueError(f"shape {shape} differs from {arg1}")
            dt = np.dtype(np.float64) if dtype is None else dtype
            idx = u.index_dtype(max(shape))
            z = npgpu.zeros(0, dtype=idx, device=device)
            self._set(npgpu.zeros(0, dtype=dt, device=device), z, z.copy(), shape)
            self._canonical = True
            return
        if isinstance(arg1, tuple) and len(arg1) == 2 and isinstance(arg1[1], (tuple, list)):
            self._from_triples_input(arg1, shape, dtype, copy, device)
            return
        if isinstance(arg1, tuple):
            raise ValueError(f"unrecognised coo_matrix constructor input: a tuple of {len(arg1)} items "
                             "(expected (M, N) or (data, (row, col)))")
        src = CLASSES[("csr", self._is_array)](arg1, shape=shape, dtype=dtype, device=device).tocoo()
        self._set(src.data, src.row, src.col, src.shape)
        self._canonical = True

    def _set(self, data, row, col, shape):
        self.data, self.row, self.col, self._shape = data, row, col, shape

    def _from_triples_input(self, arg1, shape, dtype, copy, device):
        data, ij = arg1
        if len(ij) != 2:
            raise ValueError(f"(data, (row, col)) expects two index arrays, not {len(ij)}")
        row, col = ij
        if device is None:
            device = next((a.device for a in (data, row, col) if u.is_npgpu(a)), None)
        data = u.to_array(data, device, dtype=dtype, name="data")
        device = data.device
        row = u.to_array(row, device, name="row")
        col = u.to_array(col, device, name="col")
        u.check_dtype(data.dtype)
        if data.ndim != 1:
            raise ValueError(f"data array must be one-dimensional, not of shape {tuple(data.shape)}")
        u.check_index_array(row, "row")
        u.check_index_array(col, "col")
        nnz = data.shape[0]
        if row.shape[0] != nnz or col.shape[0] != nnz:
            raise ValueError(f"row, column, and data arrays must all have the same length "
                             f"({row.shape[0]}, {col.shape[0]}, {nnz})")
        checks = []
        if nnz:
            checks += [("negative row index found", npgpu.min(row) < 0),
                       ("negative column index found", npgpu.min(col) < 0)]
        if shape is None:
            if nnz == 0:
                raise ValueError("cannot infer dimensions from zero sized index arrays")
            bad = u.read_flags(*(c for _, c in checks))
            for (msg, _), b in zip(checks, bad):
                if b:
                    raise ValueError(msg)
            checks = []
            shape = (int(npgpu.max(row)) + 1, int(npgpu.max(col)) + 1)
        elif nnz:
            checks += [(f"row index exceeds matrix dimensions (row index >= {shape[0]})",
                        npgpu.max(row) >= shape[0]),
                       (f"column index exceeds matrix dimensions (column index >= {shape[1]})",
                        npgpu.max(col) >= shape[1])]
        bad = u.read_flags(*(c for _, c in checks))
        for (msg, _), b in zip(checks, bad):
            if b:
                raise ValueError(msg)
        idx = u.index_dtype(max(shape))  # values checked to fit: int64 input downcast as SciPy's
        row = _contiguous(row.astype(idx) if row.dtype != idx else row, copy)
        col = _contiguous(col.astype(idx) if col.dtype != idx else col, copy)
        self._set(_contiguous(data, copy and dtype is None), row, col, shape)

    @classmethod
    def _build_from_triples(cls, rows, cols, data, shape, sum_dups=True, is_sorted=False):
        if not sum_dups:
            idx = u.index_dtype(max(shape))
            return cls((data, (rows.astype(idx), cols.astype(idx))), shape=shape, _trusted=True)
        out = cls._cls("csr")._build_from_triples(rows, cols, data, shape, sum_dups=True, is_sorted=is_sorted)
        return out.tocoo()

    def _copy_arrays(self, fn):
        return fn(self.data), (fn(self.row), fn(self.col))

    def _flags(self):
        return self._canonical

    def _with_data(self, data):
        return type(self)((data, (self.row, self.col)), shape=self.shape, _trusted=True, _flags=self._canonical)

    def copy(self):
        """A copy of the matrix (of each of its arrays), on the same device.

        Returns
        -------
        coo_matrix or coo_array

        Examples
        --------
        >>> C = npgpu.sparse.coo_matrix(np.eye(2))
        >>> D = C.copy()
        >>> D.row is C.row, bool((D.toarray() == C.toarray()).all())
        (False, True)
        """
        return type(self)((self.data.copy(), (self.row.copy(), self.col.copy())), shape=self.shape,
                          _trusted=True, _flags=self._canonical)

    def _triples(self):
        return self.row, self.col, self.data

    @property
    def coords(self):
        """The (row, col) index arrays."""
        return self.row, self.col

    @property
    def has_canonical_format(self):
        """Entries sorted by (row, column) without duplicates; computed once on the device.

        Setting it records the flag without checking.
        """
        if self._canonical is None:
            if self.nnz < 2:
                self._canonical = True
            else:
                key = u.pair_key(self.row, self.col, self.shape[1])
                self._canonical = not u.read_flags(npgpu.any(key[1:] <= key[:-1]))[0]
        return self._canonical

    @has_canonical_format.setter
    def has_canonical_format(self, val):
        self._canonical = bool(val)

    def sum_duplicates(self):
        """Sort the entries by (row, column) and sum duplicates, in place.

        Nothing to do for a canonical matrix.

        Examples
        --------
        >>> C = npgpu.sparse.coo_matrix(([1.0, 2.0, 3.0], ([0, 1, 0], [2, 0, 2])), shape=(2, 3))
        >>> C.sum_duplicates()
        >>> C.row, C.col, C.data
        (Array([0, 1], dtype=int32), Array([2, 0], dtype=int32), Array([4., 2.]))
        """
        if self.has_canonical_format:
            return
        m, n = self.shape
        indptr, col, data = u.compress(self.row, self.col, self.data, m, n, self.row.dtype)
        self.row = u.expand_major(indptr, data.shape[0], self.row.dtype)
        self.col, self.data = col, data
        self._canonical = True

    def eliminate_zeros(self):
        """Remove explicitly stored zeros, in place.

        Examples
        --------
        >>> C = npgpu.sparse.coo_matrix(([1.0, 0.0], ([0, 1], [0, 1])), shape=(2, 2))
        >>> C.eliminate_zeros()
        >>> C.nnz, C.data
        (1, Array([1.]))
        """
        if self.nnz == 0:
            return
        keep = npgpu.flatnonzero(self.data != 0)
        if keep.shape[0] == self.nnz:
            return
        self.row, self.col = npgpu.take(self.row, keep), npgpu.take(self.col, keep)
        self.data = npgpu.take(self.data, keep)

    def transpose(self, axes=None, copy=False):
        """The transpose, a COO matrix holding the same arrays (row and col swapped).

        Parameters
        ----------
        axes : None or (1, 0), optional
            Only the default order is supported.
        copy : bool, optional
            Copy the arrays instead of sharing them (default False).

        Returns
        -------
        coo_matrix or coo_array

        Raises
        ------
        ValueError
            Any other `axes`.

        Examples
        --------
        >>> C = npgpu.sparse.coo_matrix(([1.0, 2.0], ([0, 1], [2, 0])), shape=(2, 3))
        >>> C.transpose().shape, C.transpose().row is C.col
        ((3, 2), True)
        """
        if axes is not None and tuple(axes) != (1, 0):
            raise ValueError("sparse matrices support only axes=(1, 0) in transpose")
        return type(self)((self.data, (self.col, self.row)), shape=self.shape[::-1], _trusted=True, copy=copy)

    @property
    def T(self):
        """The transpose (`transpose`)."""
        return self.transpose()

    def tocoo(self, copy=False):
        """This matrix: itself, or a copy with ``copy=True``.

        Parameters
        ----------
        copy : bool, optional
            Return a copy (default False).

        Returns
        -------
        coo_matrix or coo_array

        Examples
        --------
        >>> C = npgpu.sparse.coo_matrix(np.eye(2))
        >>> C.tocoo() is C, C.tocoo(copy=True) is C
        (True, False)
        """
        return self.copy() if copy else self

    def tocsr(self, copy=False):
        """This matrix in CSR format, duplicates summed (a canonical matrix).

        Parameters
        ----------
        copy : bool, optional
            Not used (the result may share this matrix's data array).

        Returns
        -------
        csr_matrix or csr_array

        Examples
        --------
        >>> C = npgpu.sparse.coo_matrix(([1.0, 2.0, 3.0], ([0, 1, 0], [2, 0, 2])), shape=(2, 3))
        >>> A = C.tocsr()
        >>> A.data, A.indices, A.indptr
        (Array([4., 2.]), Array([2, 0], dtype=int32), Array([0, 1, 2], dtype=int32))
        """
        return self._cls("csr")._build_from_triples(self.row, self.col, self.data, self.shape,
                                                    is_sorted=bool(self._canonical))

    def tocsc(self, copy=False):
        """This matrix in CSC format, duplicates summed (a canonical matrix).

        Parameters
        ----------
        copy : bool, optional
            Not used (the result may share this matrix's data array).

        Returns
        -------
        csc_matrix or csc_array

        Examples
        --------
        >>> C = npgpu.sparse.coo_matrix(([1.0, 2.0, 3.0], ([0, 1, 0], [2, 0, 2])), shape=(2, 3))
        >>> A = C.tocsc()
        >>> A.data, A.indices, A.indptr
        (Array([2., 4.]), Array([1, 0], dtype=int32), Array([0, 1, 1, 2], dtype=int32))
        """
        return self._cls("csc")._build_from_triples(self.row, self.col, self.data, self.shape)

    def to_scipy(self):
        """A SciPy COO matrix (or array, for coo_array) holding this one's values.

        The arrays are copied to the host; a canonical flag known to hold is passed on.

        Returns
        -------
        scipy.sparse.coo_matrix or coo_array

        Raises
        ------
        ImportError
            SciPy is not installed.

        Examples
        --------
        >>> S = npgpu.sparse.coo_matrix(([1.0], ([0], [1])), shape=(2, 2)).to_scipy()
        >>> type(S).__name__, S.row.tolist(), S.col.tolist()
        ('coo_matrix', [0], [1])
        """
        sp = u.require_scipy("to_scipy()/get()")
        kind = getattr(sp, f"coo_{'array' if self._is_array else 'matrix'}")
        m = kind((self.data.get(), (self.row.get(), self.col.get())), shape=self.shape)
        if self._canonical:
            m.has_canonical_format = True
        return m


class coo_matrix(_coo_base):
    """COOrdinate sparse matrix on an npgpu device, with scipy.sparse.coo_matrix's interface.

    The matrix is three npgpu Arrays on one device: `data`, `row` and `col` (entry k is data[k] at (row[k],
    col[k])), in any order; duplicates are allowed (they add up).

    Parameters
    ----------
    arg1
        What the matrix is built from:

        - ``coo_matrix(S)``: an npgpu.sparse or scipy.sparse matrix S;
        - ``coo_matrix((M, N), dtype=...)``: an empty M x N matrix (float64 unless `dtype`);
        - ``coo_matrix((data, (row, col)), shape=...)``: the entries as given (duplicates kept);
        - ``coo_matrix(D)``: a dense NumPy array or npgpu.Array, its nonzeros stored (canonical).
    shape : tuple of int, optional
        (M, N). Default: inferred (from (data, (row, col)): max(row) + 1 by max(col) + 1). Given with other
        input, it must equal the input's shape.
    dtype : dtype, optional
        The values' dtype, one npgpu supports (default: the input's).
    copy : bool, optional
        Copy the input's arrays instead of sharing them (default False).
    device : optional
        Where NumPy input is placed (default: the array's own device for npgpu.Arrays, else npgpu's default
        device); a sparse input on another device is moved there.

    Attributes
    ----------
    data : npgpu.Array
        The stored values.
    row, col : npgpu.Array
        The row and column of each stored value (int32, or int64 where needed).
    coords : tuple of npgpu.Array
        (row, col).
    has_canonical_format : bool
        Whether the entries are sorted by (row, column) without duplicates.

    Raises
    ------
    ValueError
        Index arrays of other lengths than data, negative indices, indices beyond `shape`, no entries and no
        `shape` to infer, a `shape` that is not a pair of non-negative integers or differs from the input's, a
        tuple of another form, or an npgpu.Array on another device than `device`.
    TypeError
        A dtype npgpu.sparse does not support.

    See Also
    --------
    csr_matrix, csc_matrix

    Examples
    --------
    >>> C = npgpu.sparse.coo_matrix(([1.0, 2.0, 3.0], ([0, 1, 0], [2, 0, 2])), shape=(2, 3), device="cpu")
    >>> C.nnz, C.has_canonical_format
    (3, False)
    >>> C.toarray()  # the duplicates at (0, 2) add up
    Array([[0., 0., 4.],
           [2., 0., 0.]])
    """


class coo_array(_coo_base):
    __doc__ = coo_matrix.__doc__.replace("coo_matrix", "coo_array")
    _is_array = True


CLASSES.update({("coo", False): coo_matrix, ("coo", True): coo_array})
