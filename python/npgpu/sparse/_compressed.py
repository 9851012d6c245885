"""CSR and CSC matrices: (data, indices, indptr) npgpu Arrays on one device. A CSC matrix of shape (m, n) holds
the same arrays as the CSR matrix of its transpose, so the code below works on the (major, minor) axes: rows
and columns for CSR, columns and rows for CSC."""
import numpy as np

import npgpu

from . import _util as u
from ._base import _spbase
from ._registry import CLASSES


class _cs_base(_spbase):
    """Compressed sparse matrices (CSR and CSC)."""

    _major_axis = 0  # CSR: 0 (rows compressed); CSC: 1

    def __init__(self, arg1, shape=None, dtype=None, copy=False, *, device=None, _trusted=False, _flags=None):
        self._sorted = self._canonical = None
        if _trusted:
            data, indices, indptr = arg1
            self._set(data, indices, indptr, tuple(int(s) for s in shape))
            if _flags is not None:
                self._sorted, self._canonical = _flags
            if copy:
                self.data, self.indices, self.indptr = self.data.copy(), self.indices.copy(), self.indptr.copy()
            return
        if dtype is not None:
            dtype = u.check_dtype(dtype)
        if shape is not None:
            shape = _check_shape(shape)
        if isinstance(arg1, _spbase):
            src = arg1.asformat(self.format)
            if dtype is not None and dtype != src.dtype:
                src, copy = src.astype(dtype), False
            if device is not None and not u.same_device(src.device, device):
                src, copy = src.to_device(device), False
            if shape is not None and shape != src.shape:
                raise ValueError(f"shape {shape} differs from the matrix's {src.shape}")
            self._set(src.data, src.indices, src.indptr, src.shape)
            self._sorted, self._canonical = src._sorted, src._canonical
            if copy:
                self.data, self.indices, self.indptr = self.data.copy(), self.indices.copy(), self.indptr.copy()
            return
        if u.is_scipy_sparse(arg1):
            self._from_scipy(arg1, shape, dtype, copy, device)
            return
        if isinstance(arg1, tuple) and len(arg1) == 2 and all(isinstance(s, (int, np.integer)) for s in arg1):
            shape = _check_shape(arg1) if shape is None else shape
            if tuple(arg1) != shape:
                raise ValueError(f"shape {shape} differs from {arg1}")
            dt = np.dtype(np.float64) if dtype is None else dtype
            idx = u.index_dtype(max(shape))
            n_major = shape[self._major_axis]
            self._set(npgpu.zeros(0, dtype=dt, device=device), npgpu.zeros(0, dtype=idx, device=device),
                      npgpu.zeros(n_major + 1, dtype=idx, device=device), shape)
            self._sorted = self._canonical = True
            return
        if isinstance(arg1, tuple) and len(arg1) == 2 and isinstance(arg1[1], tuple):
            from ._coo import _coo_base

            coo = CLASSES[("coo", self._is_array)](arg1, shape=shape, dtype=dtype, copy=False, device=device)
            assert isinstance(coo, _coo_base)
            src = coo.asformat(self.format)
            self._set(src.data, src.indices, src.indptr, src.shape)
            self._sorted, self._canonical = src._sorted, src._canonical
            return
        if isinstance(arg1, tuple) and len(arg1) == 3:
            self._from_arrays(arg1, shape, dtype, copy, device)
            return
        if isinstance(arg1, tuple) and len(arg1) not in (2, 3):
            raise ValueError(f"unrecognised {self.format}_matrix constructor input: a tuple of {len(arg1)} "
                             "items (expected (M, N), (data, (row, col)) or (data, indices, indptr))")
        self._from_dense(arg1, shape, dtype, device)

    # ------------------------------------------------------------------ construction
    def _set(self, data, indices, indptr, shape):
        self.data, self.indices, self.indptr, self._shape = data, indices, indptr, shape

    @classmethod
    def _swap(cls, pair):
        return tuple(pair) if cls._major_axis == 0 else (pair[1], pair[0])

    def _from_scipy(self, m, shape, dtype, copy, device):
        s = m.asformat(self.format)
        d = s.__dict__
        canonical = d.get("_has_canonical_format")
        is_sorted = True if canonical else d.get("_has_sorted_indices")
        if canonical is None and is_sorted is False:
            canonical = False
        if shape is not None and shape != tuple(s.shape):
            raise ValueError(f"shape {shape} differs from the SciPy matrix's {tuple(s.shape)}")
        data = npgpu.asarray(s.data, device=device, copy=True if copy else None)
        device = data.device
        indices = npgpu.asarray(s.indices, device=device, copy=True if copy else None)
        indptr = npgpu.asarray(s.indptr, device=device, copy=True if copy else None)
        if indices.dtype != indptr.dtype:
            idx = np.promote_types(indices.dtype, indptr.dtype)
            indices, indptr = indices.astype(idx), indptr.astype(idx)
        if dtype is not None and dtype != data.dtype:
            data = data.astype(dtype)
        u.check_dtype(data.dtype)
        self._set(data, indices, indptr, tuple(int(v) for v in s.shape))
        self._sorted, self._canonical = is_sorted, canonical

    def _from_arrays(self, arg1, shape, dtype, copy, device):
        data, indices, indptr = arg1
        if device is None:
            device = next((a.device for a in (data, indices, indptr) if u.is_npgpu(a)), None)
        data = u.to_array(data, device, dtype=dtype, name="data")
        device = data.device
        indices = u.to_array(indices, device, name="indices")
        indptr = u.to_array(indptr, device, name="indptr")
        u.check_dtype(data.dtype)
        if data.ndim != 1:
            raise ValueError(f"data array must be one-dimensional, not of shape {tuple(data.shape)}")
        u.check_index_array(indices, "indices")
        u.check_index_array(indptr, "indptr")
        nnz = data.shape[0]
        if indices.shape[0] != nnz:
            raise ValueError(f"indices and data should have the same size ({indices.shape[0]} != {nnz})")
        if indptr.shape[0] < 1:
            raise ValueError("index pointer (indptr) must hold at least one value")
        minor_name = "column" if self.format == "csr" else "row"
        if shape is None:
            n_major = indptr.shape[0] - 1
            n_minor = int(npgpu.max(indices)) + 1 if nnz else 0
            if n_minor < 0:
                raise ValueError(f"{minor_name} index values must be >= 0")
            shape = self._swap((n_major, n_minor))
        n_major, n_minor = self._swap(shape)
        if indptr.shape[0] != n_major + 1:
            raise ValueError(f"index pointer size ({indptr.shape[0]}) should be ({n_major + 1})")
        checks = [("index pointer should start with 0", indptr[0] != 0),
                  (f"last value of index pointer ({{}}) should equal the number of stored entries ({nnz})",
                   indptr[-1] != nnz)]
        if n_major > 0:
            checks.append(("index pointer values must be non-decreasing (indptr is not monotonic)",
                           npgpu.any(indptr[1:] < indptr[:-1])))
        if nnz:
            checks.append((f"{minor_name} index values must be >= 0 (negative index found)",
                           npgpu.min(indices) < 0))
            checks.append((f"{minor_name} index values must be < {n_minor} (index out of range)",
                           npgpu.max(indices) >= n_minor))
        bad = u.read_flags(*(c for _, c in checks))
        for (msg, _), b in zip(checks, bad):
            if b:
                raise ValueError(msg.format(int(indptr[-1])) if "{}" in msg else msg)
        # SciPy's get_index_dtype(check_contents=True): int64 input whose values fit (they were just checked to
        # lie in [0, n_minor) and [0, nnz]) is downcast to int32
        idx = u.index_dtype(max(max(shape), nnz))
        indices = _contiguous(indices.astype(idx) if indices.dtype != idx else indices, copy)
        indptr = _contiguous(indptr.astype(idx) if indptr.dtype != idx else indptr, copy)
        data = _contiguous(data, copy and dtype is None)
        self._set(data, indices, indptr, shape)

    def _from_dense(self, arg1, shape, dtype, device):
        a = u.to_array(arg1, device, dtype=dtype, name="the dense array")
        if a.ndim == 0:
            a = a.reshape(1, 1)
        elif a.ndim == 1:
            a = a.reshape(1, a.shape[0])
        elif a.ndim != 2:
            raise ValueError(f"a sparse matrix is built from a 2-d array, not a {a.ndim}-d one")
        u.check_dtype(a.dtype)
        if shape is not None and shape != tuple(a.shape):
            raise ValueError(f"shape {shape} differs from the dense array's {tuple(a.shape)}")
        src = _dense_to_compressed(type(self), a)
        self._set(src.data, src.indices, src.indptr, src.shape)
        self._sorted = self._canonical = True

    @classmethod
    def _build_from_triples(cls, rows, cols, data, shape, sum_dups=True, is_sorted=False):
        n_major, n_minor = cls._swap(shape)
        major, minor = cls._swap((rows, cols))
        idx = u.index_dtype(max(max(shape), data.shape[0]))
        indptr, indices, data = u.compress(major, minor, data, n_major, n_minor, idx, is_sorted=is_sorted,
                                           sum_dups=sum_dups)
        return cls((data, indices, indptr), shape=shape, _trusted=True,
                   _flags=(True, True if sum_dups else None))

    def _copy_arrays(self, fn):
        return fn(self.data), fn(self.indices), fn(self.indptr)

    def _flags(self):
        return self._sorted, self._canonical

    def _with_data(self, data):
        return type(self)((data, self.indices, self.indptr), shape=self.shape, _trusted=True,
                          _flags=self._flags())

    def copy(self):
        """A copy of the matrix (of each of its arrays), on the same device.

        Returns
        -------
        sparse matrix
            Of this matrix's class.

        Examples
        --------
        >>> A = npgpu.sparse.eye(2)
        >>> B = A.copy()
        >>> B.data is A.data, bool((B.toarray() == A.toarray()).all())
        (False, True)
        """
        return type(self)((self.data.copy(), self.indices.copy(), self.indptr.copy()), shape=self.shape,
                          _trusted=True, _flags=self._flags())

    def _major_index(self):
        idx = self.indices.dtype
        return u.expand_major(self.indptr, self.nnz, idx)

    def _triples(self):
        major = self._major_index()
        rows, cols = self._swap((major, self.indices))
        return rows, cols, self.data

    # ------------------------------------------------------------------ canonical format
    def _compute_flags(self):
        self._sorted, self._canonical = u.sorted_flags(self._major_index(), self.indices)

    @property
    def has_sorted_indices(self):
        """Whether the indices of each row (CSR) / column (CSC) are sorted; computed once on the device.

        Setting it records the flag without checking (False also marks the matrix not canonical).
        """
        if self._sorted is None:
            self._compute_flags()
        return self._sorted

    @has_sorted_indices.setter
    def has_sorted_indices(self, val):
        self._sorted = bool(val)
        if not val:
            self._canonical = False

    @property
    def has_canonical_format(self):
        """Sorted indices and no duplicate entries; computed once on the device.

        Setting it records the flag without checking (True also marks the indices sorted).
        """
        if self._canonical is None:
            if self._sorted is False:
                self._canonical = False
            else:
                self._compute_flags()
        return self._canonical

    @has_canonical_format.setter
    def has_canonical_format(self, val):
        self._canonical = bool(val)
        if val:
            self._sorted = True

    def sort_indices(self):
        """Sort the indices of each row (CSR) / column (CSC) in place (duplicates are kept).

        Examples
        --------
        >>> A = npgpu.sparse.csr_matrix((np.array([1.0, 2.0]), np.array([1, 0]), np.array([0, 2])), shape=(1, 2))
        >>> A.has_sorted_indices
        False
        >>> A.sort_indices()
        >>> A.indices, A.data
        (Array([0, 1], dtype=int32), Array([2., 1.]))
        """
        if self.has_sorted_indices:
            return
        n_major, n_minor = self._swap(self.shape)
        major = self._major_index()
        order = u.argsort_pairs(major, self.indices, n_major, n_minor)
        self.indices, self.data = npgpu.take(self.indices, order), npgpu.take(self.data, order)
        self._sorted = True

    def sorted_indices(self):
        """A copy with the indices of each row (CSR) / column (CSC) sorted.

        Returns
        -------
        sparse matrix
            Of this matrix's class.

        Examples
        --------
        >>> A = npgpu.sparse.csr_matrix((np.array([1.0, 2.0]), np.array([1, 0]), np.array([0, 2])), shape=(1, 2))
        >>> A.sorted_indices().indices, A.indices
        (Array([0, 1], dtype=int32), Array([1, 0], dtype=int32))
        """
        c = self.copy()
        c.sort_indices()
        return c

    def sum_duplicates(self):
        """Sum duplicate entries and sort the indices, in place (nothing to do for a canonical matrix).

        Examples
        --------
        >>> A = npgpu.sparse.csr_matrix((np.array([1.0, 2.0, 3.0]), np.array([1, 1, 0]), np.array([0, 2, 3])),
        ...                             shape=(2, 2))
        >>> A.has_canonical_format
        False
        >>> A.sum_duplicates()
        >>> A.data, A.indices, A.indptr
        (Array([3., 3.]), Array([1, 0], dtype=int32), Array([0, 1, 2], dtype=int32))
        """
        if self.has_canonical_format:
            return
        n_major, n_minor = self._swap(self.shape)
        self.indptr, self.indices, self.data = u.compress(self._major_index(), self.indices, self.data, n_major,
                                                          n_minor, self.indices.dtype,
                                                          is_sorted=bool(self._sorted))
        self._sorted = self._canonical = True

    def eliminate_zeros(self):
        """Remove explicitly stored zeros, in place.

        Examples
        --------
        >>> A = npgpu.sparse.csr_matrix((np.array([1.0, 0.0]), np.array([0, 1]), np.array([0, 2])), shape=(1, 2))
        >>> A.eliminate_zeros()
        >>> A.nnz, A.data
        (1, Array([1.]))
        """
        if self.nnz == 0:
            return
        keep = npgpu.flatnonzero(self.data != 0)
        if keep.shape[0] == self.nnz:
            return
        n_major, _ = self._swap(self.shape)
        major = npgpu.take(self._major_index(), keep)
        self.indices, self.data = npgpu.take(self.indices, keep), npgpu.take(self.data, keep)
        self.indptr = u.compress_index(major, n_major, self.indptr.dtype)

    def prune(self):
        """Nothing to trim: the arrays always hold exactly nnz entries (kept for SciPy compatibility)."""

    # ------------------------------------------------------------------ conversions
    def transpose(self, axes=None, copy=False):
        """The transpose: a CSC matrix for a CSR one and the reverse, holding the same arrays (nothing is moved).

        Parameters
        ----------
        axes : None or (1, 0), optional
            Only the default order is supported.
        copy : bool, optional
            Copy the arrays instead of sharing them (default False).

        Returns
        -------
        csc_matrix or csr_matrix (or the *_array kind)

        Raises
        ------
        ValueError
            Any other `axes`.

        Examples
        --------
        >>> A = npgpu.sparse.csr_matrix(np.array([[1.0, 2.0, 0.0], [0.0, 0.0, 3.0]]))
        >>> T = A.transpose()
        >>> T.format, T.shape, T.data is A.data
        ('csc', (3, 2), True)
        >>> T.toarray()
        Array([[1., 0.],
               [2., 0.],
               [0., 3.]])
        """
        if axes is not None and tuple(axes) != (1, 0):
            raise ValueError("sparse matrices support only axes=(1, 0) in transpose")
        other = "csc" if self.format == "csr" else "csr"
        return self._cls(other)((self.data, self.indices, self.indptr), shape=self.shape[::-1], _trusted=True,
                                copy=copy, _flags=self._flags())

    @property
    def T(self):
        """The transpose (`transpose`)."""
        return self.transpose()

    def _convert(self, fmt, copy):
        if fmt == self.format:
            return self.copy() if copy else self
        rows, cols, data = self._triples()
        cls = self._cls(fmt)
        out = cls._build_from_triples(rows, cols, data, self.shape, sum_dups=False)
        out._canonical = True if self._canonical else None
        return out

    def tocsr(self, copy=False):
        """This matrix in CSR format.

        Parameters
        ----------
        copy : bool, optional
            For a CSR matrix: return a copy instead of the matrix itself (default False).

        Returns
        -------
        csr_matrix or csr_array

        Examples
        --------
        >>> A = npgpu.sparse.csc_matrix(np.array([[1.0, 0.0], [2.0, 3.0]]))
        >>> B = A.tocsr()
        >>> B.format, B.indices, B.indptr
        ('csr', Array([0, 0, 1], dtype=int32), Array([0, 1, 3], dtype=int32))
        """
        return self._convert("csr", copy)

    def tocsc(self, copy=False):
        """This matrix in CSC format.

        Parameters
        ----------
        copy : bool, optional
            For a CSC matrix: return a copy instead of the matrix itself (default False).

        Returns
        -------
        csc_matrix or csc_array

        Examples
        --------
        >>> B = npgpu.sparse.csr_matrix(np.array([[1.0, 0.0], [2.0, 3.0]])).tocsc()
        >>> B.format, B.indices, B.indptr
        ('csc', Array([0, 1, 1], dtype=int32), Array([0, 2, 3], dtype=int32))
        """
        return self._convert("csc", copy)

    def to_scipy(self):
        """A SciPy matrix (or array, for the *_array classes) of this format holding this one's values.

        The arrays are copied to the host; the sorted / canonical flags known to hold are passed on.

        Returns
        -------
        scipy.sparse.csr_matrix, csc_matrix, csr_array or csc_array

        Raises
        ------
        ImportError
            SciPy is not installed.

        Examples
        --------
        >>> S = npgpu.sparse.csr_array(np.array([[1.0, 0.0], [2.0, 3.0]])).to_scipy()
        >>> type(S).__name__, S.indptr.tolist()
        ('csr_array', [0, 1, 3])
        """
        sp = u.require_scipy("to_scipy()/get()")
        kind = getattr(sp, f"{self.format}_{'array' if self._is_array else 'matrix'}")
        m = kind((self.data.get(), self.indices.get(), self.indptr.get()), shape=self.shape)
        if self._sorted:
            m.has_sorted_indices = True
        if self._canonical:
            m.has_canonical_format = True
        return m


def _check_shape(shape):
    try:
        shape = tuple(int(operator_index(s)) for s in shape)
    except TypeError:
        raise ValueError(f"shape must be a pair of integers, not {shape!r}") from None
    if len(shape) != 2:
        raise ValueError(f"npgpu.sparse matrices are two-dimensional; shape {shape} has {len(shape)} dimensions")
    if min(shape) < 0:
        raise ValueError(f"shape {shape} has a negative dimension")
    return shape


def operator_index(s):
    """`s` as an int, through operator.index.

    Parameters
    ----------
    s : object
        An integer-like object (an int, a NumPy integer, anything with ``__index__``).

    Returns
    -------
    int

    Raises
    ------
    TypeError
        An object that is not integer-like.

    Examples
    --------
    >>> from npgpu.sparse._compressed import operator_index
    >>> operator_index(np.int64(3))
    3
    """
    import operator

    return operator.index(s)


def _contiguous(a, copy=False):
    if copy or not a.flags["C_CONTIGUOUS"]:
        return a.copy()
    return a


def _dense_to_compressed(cls, a):
    m, n = a.shape
    major_first = a if cls._major_axis == 0 else a.T
    flat_src = major_first.copy() if not major_first.flags["C_CONTIGUOUS"] else major_first
    n_major, n_minor = cls._swap((m, n))
    flat_src = flat_src.reshape(n_major * n_minor)
    pos = npgpu.flatnonzero(flat_src != 0) if flat_src.size else npgpu.zeros(0, dtype=np.int64, device=a.device)
    idx = u.index_dtype(max(m, n, pos.shape[0]))
    data = npgpu.take(flat_src, pos)
    if n_minor:
        major, minor = pos // n_minor, pos % n_minor
    else:
        major = minor = pos
    indptr = u.compress_index(major, n_major, idx)
    return cls((data, minor.astype(idx), indptr), shape=(m, n), _trusted=True, _flags=(True, True))


class _csr_base(_cs_base):
    format = "csr"
    _major_axis = 0

    def _mul_dense(self, x):
        m, n = self.shape
        dt = np.result_type(self.dtype, x.dtype)
        kern = u.kernels()
        if kern is not None and dt in u.KERNEL_DTYPES and self.nnz and x.size and m:
            data = self.data if self.dtype == dt else self.data.astype(dt)
            xx = x if x.dtype == dt else x.astype(dt)
            if not xx.flags["C_CONTIGUOUS"]:
                xx = xx.copy()
            longest = self._longest_row() if x.ndim == 1 and str(self.device) != "cpu" else -1
            return kern.csr_matmul(self.indptr, self.indices, data, n, xx, longest)
        return super()._mul_dense(x)

    def _longest_row(self):
        """The most nonzeros in a row: read back once per indptr array (one small reduction and wait) and
        kept; it only picks the GPU kernel of a product, so a stale value costs speed, never correctness."""
        key = (id(self.indptr), self.indptr.ptr, self.indptr.shape)
        cached = getattr(self, "_longest_row_cache", None)
        if cached is None or cached[0] != key:
            counts = self.indptr[1:] - self.indptr[:-1]
            self._longest_row_cache = (key, int(npgpu.max(counts)) if counts.size else 0)
        return self._longest_row_cache[1]


class _csc_base(_cs_base):
    format = "csc"
    _major_axis = 1


def _empty(cls, shape, dtype, device):
    idx = u.index_dtype(max(shape))
    n_major = shape[cls._major_axis]
    return cls((npgpu.zeros(0, dtype=dtype, device=device), npgpu.zeros(0, dtype=idx, device=device),
                npgpu.zeros(n_major + 1, dtype=idx, device=device)), shape=shape, _trusted=True,
               _flags=(True, True))


def spgemm(a, b):
    """C = A @ B for CSR matrices on one device.

    Float and complex values go to the compiled product (cuSPARSE's SpGEMM on a GPU, OpenMP rows on the host),
    after summing the duplicates of an operand that has them. Other dtypes, and builds or GPUs without it,
    expand the products of each stored A[i, k] with row k of B by gathers and sum their duplicates by a sort
    on (row, column).

    Parameters
    ----------
    a, b : csr_matrix or csr_array
        CSR matrices on one device with a.shape[1] == b.shape[0] (not checked here: ``A @ B`` checks them).

    Returns
    -------
    csr_matrix or csr_array
        Canonical CSR of A's kind, of dtype result_type(A, B). Products that cancel are kept as stored zeros
        (SciPy drops them; ``eliminate_zeros()`` does too).

    Examples
    --------
    >>> from npgpu.sparse._compressed import spgemm
    >>> A = npgpu.sparse.csr_matrix(np.array([[1.0, 2.0], [0.0, 3.0]]))
    >>> spgemm(A, A).toarray()
    Array([[1., 8.],
           [0., 9.]])
    """
    m, k = a.shape
    n = b.shape[1]
    dt = np.result_type(a.dtype, b.dtype)
    cls = a._cls("csr")
    if a.nnz == 0 or b.nnz == 0:
        return _empty(cls, (m, n), dt, a.device)
    kern = u.kernels()
    if kern is not None and dt in u.KERNEL_DTYPES:
        try:
            return _compiled_spgemm(kern, a, b, dt, cls)
        except npgpu.GPUUnavailableError:
            pass  # this cuSPARSE lacks the product for these types: the composed one below
    dev = a.device
    rows_a = a._major_index()
    cols_a = a.indices
    b_start = b.indptr[:-1].astype(np.int64)
    b_len = b.indptr[1:].astype(np.int64) - b_start
    cnt = npgpu.take(b_len, cols_a)
    ends = npgpu.cumsum(cnt)
    total = int(ends[-1])
    if total == 0:
        return _empty(cls, (m, n), dt, dev)
    t = npgpu.arange(total, dtype=np.int64, device=dev)
    ent = npgpu.searchsorted(ends, t, side="right")
    within = t - (npgpu.take(ends, ent) - npgpu.take(cnt, ent))
    bpos = npgpu.take(b_start, npgpu.take(cols_a, ent)) + within
    rows = npgpu.take(rows_a, ent)
    cols = npgpu.take(b.indices, bpos)
    vals = npgpu.take(a.data, ent).astype(dt) * npgpu.take(b.data, bpos).astype(dt)
    return cls._build_from_triples(rows, cols, vals, (m, n))


def _compiled_spgemm(kern, a, b, dt, cls):
    """spgemm through npgpu._sparse.csr_product: canonical operands of one index and one value dtype."""
    operands = []
    for mat in (a, b):
        if not mat.has_canonical_format:
            mat = mat.copy()
            mat.sum_duplicates()
        operands.append(mat)
    idx = np.promote_types(a.indices.dtype, b.indices.dtype)
    while True:
        arrays = []
        for mat in operands:
            arrays += [_contiguous(v.astype(t, copy=False))
                       for v, t in ((mat.indptr, idx), (mat.indices, idx), (mat.data, dt))]
        try:
            indptr, indices, data = kern.csr_product(*arrays, b.shape[1])
            break
        except ValueError:
            if idx == np.int64:
                raise
            idx = np.dtype(np.int64)  # more entries than int32 indices address
    return cls((data, indices, indptr), shape=(a.shape[0], b.shape[1]), _trusted=True, _flags=(True, True))


class csr_matrix(_csr_base):
    """Compressed Sparse Row matrix on an npgpu device, with scipy.sparse.csr_matrix's interface.

    The matrix is three npgpu Arrays on one device: `data` (the values), `indices` (the column of each value)
    and `indptr` (row i holds entries indptr[i] to indptr[i + 1] - 1). Products with dense vectors and matrices
    of float and complex values run the compiled CSR kernels (cuSPARSE on a GPU, OpenMP on the host) where the
    build has them, npgpu's gathers and scatter-adds otherwise.

    Parameters
    ----------
    arg1
        What the matrix is built from:

        - ``csr_matrix(S)``: an npgpu.sparse or scipy.sparse matrix S (a SciPy matrix's arrays are uploaded
          with one copy each, a canonical one never re-sorted);
        - ``csr_matrix((M, N), dtype=...)``: an empty M x N matrix (float64 unless `dtype`);
        - ``csr_matrix((data, (row, col)), shape=...)``: data[k] at (row[k], col[k]), duplicates summed;
        - ``csr_matrix((data, indices, indptr), shape=...)``: the CSR arrays themselves, validated (int64 index
          arrays whose values fit are downcast to int32, as SciPy);
        - ``csr_matrix(D)``: a dense NumPy array or npgpu.Array (0-d and 1-d input becomes one row), its
          nonzeros stored.
    shape : tuple of int, optional
        (M, N). Default: inferred (from (data, indices, indptr): len(indptr) - 1 rows and max(indices) + 1
        columns). Given with other input, it must equal the input's shape.
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
    indices : npgpu.Array
        The column of each stored value (int32, or int64 where needed).
    indptr : npgpu.Array
        Where each row's entries start (length M + 1).
    has_sorted_indices, has_canonical_format : bool
        Whether the indices are sorted within each row, and also free of duplicates.

    Raises
    ------
    ValueError
        Inconsistent arrays (an index pointer that does not start at 0, decreases or does not end at the number
        of entries; indices out of range; lengths that differ), a `shape` that is not a pair of non-negative
        integers or differs from the input's, a tuple of another form, a dense array of more than two
        dimensions, or an npgpu.Array on another device than `device`.
    TypeError
        A dtype npgpu.sparse does not support.

    See Also
    --------
    csc_matrix, coo_matrix

    Examples
    --------
    >>> A = npgpu.sparse.csr_matrix(np.array([[1.0, 0.0, 2.0], [0.0, 0.0, 3.0]]), device="cpu")
    >>> A.data, A.indices, A.indptr
    (Array([1., 2., 3.]), Array([0, 2, 2], dtype=int32), Array([0, 2, 3], dtype=int32))
    >>> B = npgpu.sparse.csr_matrix(([1.0, 2.0, 3.0], ([0, 0, 1], [0, 2, 2])), shape=(2, 3))
    >>> bool((B.toarray() == A.toarray()).all())
    True
    >>> A @ np.array([1.0, 1.0, 1.0])
    Array([3., 3.])
    """


class csr_array(_csr_base):
    __doc__ = csr_matrix.__doc__.replace("csr_matrix", "csr_array")
    _is_array = True


class csc_matrix(_csc_base):
    """Compressed Sparse Column matrix on an npgpu device, with scipy.sparse.csc_matrix's interface.

    The same three arrays as the CSR matrix of its transpose: `data`, `indices` (the row of each value) and
    `indptr` (column j holds entries indptr[j] to indptr[j + 1] - 1). See csr_matrix for the constructors.

    Parameters
    ----------
    arg1
        An npgpu.sparse or scipy.sparse matrix, ``(M, N)``, ``(data, (row, col))``, ``(data, indices,
        indptr)`` (column pointers) or a dense array, as csr_matrix.
    shape : tuple of int, optional
        (M, N); as csr_matrix (from (data, indices, indptr): max(indices) + 1 rows, len(indptr) - 1 columns).
    dtype : dtype, optional
        The values' dtype, one npgpu supports (default: the input's).
    copy : bool, optional
        Copy the input's arrays instead of sharing them (default False).
    device : optional
        Where NumPy input is placed, as csr_matrix.

    Attributes
    ----------
    data : npgpu.Array
        The stored values.
    indices : npgpu.Array
        The row of each stored value (int32, or int64 where needed).
    indptr : npgpu.Array
        Where each column's entries start (length N + 1).
    has_sorted_indices, has_canonical_format : bool
        Whether the indices are sorted within each column, and also free of duplicates.

    Raises
    ------
    ValueError, TypeError
        As csr_matrix.

    Examples
    --------
    >>> A = npgpu.sparse.csc_matrix(np.array([[1.0, 0.0, 2.0], [0.0, 0.0, 3.0]]), device="cpu")
    >>> A.data, A.indices, A.indptr
    (Array([1., 2., 3.]), Array([0, 0, 1], dtype=int32), Array([0, 1, 1, 3], dtype=int32))
    >>> A.T.format
    'csr'
    """


class csc_array(_csc_base):
    __doc__ = csc_matrix.__doc__.replace("csc_matrix", "csc_array")
    _is_array = True


CLASSES.update({("csr", False): csr_matrix, ("csr", True): csr_array,
                ("csc", False): csc_matrix, ("csc", True): csc_array})
