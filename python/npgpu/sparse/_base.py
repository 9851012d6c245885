"""The operations every npgpu.sparse format shares, written over the format's (row, col, data) triples."""
import numpy as np

import npgpu

from . import _util as u

_FORMAT_NAMES = {"csr": "Compressed Sparse Row", "csc": "Compressed Sparse Column", "coo": "COOrdinate"}


class SparseEfficiencyWarning(UserWarning):
    """Warning for a sparse operation that is inefficient (SciPy's warning of the same name).

    Issued for an operation that stores as many entries as a dense matrix (a comparison for which zeros compare
    true), or one that changes a CSR / CSC matrix's sparsity structure by item assignment. Where SciPy is
    importable the warning issued is also an instance of scipy.sparse.SparseEfficiencyWarning, so either class
    catches it.

    Examples
    --------
    >>> import warnings
    >>> A = npgpu.sparse.csr_matrix(np.array([[1.0, 0.0], [0.0, 2.0]]))
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     A[0, 1] = 5.0  # a new stored entry: the structure changes
    >>> issubclass(caught[0].category, npgpu.sparse.SparseEfficiencyWarning)
    True
    """


_WARNING_CLASS = []


def _efficiency_warning():
    """The class issued: npgpu.sparse.SparseEfficiencyWarning, made a subclass of SciPy's too where SciPy is
    importable (SciPy is imported only when a warning is issued)."""
    if not _WARNING_CLASS:
        try:
            from scipy.sparse import SparseEfficiencyWarning as _scipy_warning
        except ImportError:  # pragma: no cover - scipy is installed where the tests run
            _WARNING_CLASS.append(SparseEfficiencyWarning)
        else:
            _WARNING_CLASS.append(type("SparseEfficiencyWarning", (SparseEfficiencyWarning, _scipy_warning),
                                       {"__module__": __name__, "__doc__": SparseEfficiencyWarning.__doc__}))
    return _WARNING_CLASS[0]


def _check_axis(axis, msg):
    if isinstance(axis, tuple):
        if len(axis) != 1:
            raise ValueError(msg)
        axis = axis[0]
    if not isinstance(axis, (int, np.integer)) or axis not in (0, 1, -1, -2):
        raise ValueError(msg)
    return int(axis) % 2


def _bincount(idx, size, device):
    out = npgpu.zeros(size, dtype=np.int64, device=device)
    if idx.shape[0]:
        npgpu.add.at(out, idx, npgpu.ones(idx.shape[0], dtype=np.int64, device=device))
    return out


def _cmp_zero(val, dtype, which):
    """val > 0 (which == 'max') or val < 0 ('min'), complex values ordered as NumPy orders them."""
    if dtype.kind == "c":
        re, im = npgpu.real(val), npgpu.imag(val)
        return ((re > 0) | ((re == 0) & (im > 0))) if which == "max" else ((re < 0) | ((re == 0) & (im < 0)))
    if dtype == np.bool_:
        return val if which == "max" else npgpu.zeros(val.shape, dtype=np.bool_, device=val.device)
    return val > 0 if which == "max" else val < 0


def _seg_extreme(major, minor, data, segs, length, which, explicit, dtype, device):
    """Per segment (entries sorted by (major, minor), no duplicates, segments of `length` positions): the
    extreme value (implicit zeros counted unless `explicit`) and the first position holding it, as NumPy's
    max / argmax of the dense segment. One lexsort on the device."""
    nnz = data.shape[0]
    val = npgpu.zeros(segs, dtype=dtype, device=device)
    pos = npgpu.zeros(segs, dtype=np.int64, device=device)
    if nnz == 0:
        return val, pos
    sign = -1 if which == "max" else 1
    if dtype.kind == "c":
        keys = [sign * npgpu.imag(data), sign * npgpu.real(data)]
    elif dtype.kind in "biu":
        keys = [sign * data.astype(np.int64)]
    else:
        keys = [sign * data]
    order = npgpu.lexsort(tuple([minor] + keys + [major]))
    ptr = u.compress_index(major, segs, np.int64)  # major is sorted already
    counts = ptr[1:] - ptr[:-1]
    nonempty = counts > 0
    first = npgpu.take(order, npgpu.minimum(ptr[:-1], nnz - 1))
    ext_val = npgpu.take(data, first)
    ext_pos = npgpu.take(minor, first)
    zero = npgpu.zeros((), dtype=dtype, device=device)
    if explicit:
        return npgpu.where(nonempty, ext_val, zero), npgpu.where(nonempty, ext_pos, 0)
    # the first unstored position of each segment: stored minors equal their rank for a prefix of the segment
    within = npgpu.arange(nnz, dtype=np.int64, device=device) - npgpu.take(ptr, major)
    zero_pos = npgpu.zeros(segs, dtype=np.int64, device=device)
    npgpu.add.at(zero_pos, major, (minor == within).astype(np.int64))
    full = counts == length
    beats_zero = _cmp_zero(ext_val, dtype, which)
    take_ext = full | (nonempty & beats_zero)
    val = npgpu.where(take_ext, ext_val, zero)
    is_zero = nonempty & (ext_val == zero)
    pos = npgpu.where(take_ext, ext_pos, npgpu.where(is_zero, npgpu.minimum(ext_pos, zero_pos), zero_pos))
    return val, pos


class _spbase:
    """Base of the CSR, CSC and COO matrices and arrays (npgpu.sparse.spmatrix and npgpu.sparse.sparray).

    The ``*_matrix`` classes follow scipy.sparse's spmatrix semantics (``*`` is the matrix product, ``sum(axis)``
    keeps two dimensions); the ``*_array`` classes follow sparray's (``*`` is elementwise, ``sum(axis)`` gives a
    1-d array). Every operation works on the format's (row, column, value) triples with npgpu array operations,
    so it stays on the matrix's device.

    Attributes
    ----------
    shape : tuple of int
        (rows, columns).
    dtype : numpy.dtype
        The values' dtype.
    nnz : int
        Stored entries, duplicates and explicit zeros included.
    size : int
        Same as `nnz`, as SciPy.
    device
        The device holding the matrix's arrays.
    format : str
        "csr", "csc" or "coo".
    ndim : int
        Always 2.

    Examples
    --------
    >>> D = np.array([[1.0, 2.0], [0.0, 3.0]])
    >>> M, A = npgpu.sparse.csr_matrix(D), npgpu.sparse.csr_array(D)
    >>> (M * M).toarray()  # a matrix: * is the matrix product
    Array([[1., 8.],
           [0., 9.]])
    >>> (A * A).toarray()  # an array: * is elementwise
    Array([[1., 4.],
           [0., 9.]])
    >>> M.sum(axis=0), A.sum(axis=0)
    (Array([[1., 5.]]), Array([1., 5.]))
    >>> isinstance(M, npgpu.sparse.spmatrix), isinstance(A, npgpu.sparse.sparray)
    (True, True)
    """

    format = None
    _is_array = False
    ndim = 2
    __array_priority__ = 10.1
    __array_ufunc__ = None  # NumPy's operators defer to ours (ndarray @ sparse -> __rmatmul__)

    # ------------------------------------------------------------------ what subclasses provide
    def _triples(self):
        """(rows, cols, data) of the stored entries, duplicates and explicit zeros included."""
        raise NotImplementedError

    def _with_data(self, data):
        """The same sparsity structure with new data (the index arrays shared)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ classes
    @classmethod
    def _cls(cls, fmt, is_array=None):
        from . import _registry

        return _registry.CLASSES[(fmt, cls._is_array if is_array is None else is_array)]

    @classmethod
    def _from_triples(cls, fmt, rows, cols, data, shape, sum_dups=True):
        """A new matrix of format `fmt` (and this class's matrix/array kind) from triples."""
        return cls._cls(fmt)._build_from_triples(rows, cols, data, shape, sum_dups=sum_dups)

    # ------------------------------------------------------------------ attributes
    @property
    def shape(self):
        """The (rows, columns) pair."""
        return self._shape

    @property
    def dtype(self):
        """The values' dtype (a numpy.dtype)."""
        return np.dtype(self.data.dtype)

    @property
    def nnz(self):
        """The number of stored entries, duplicates and explicit zeros included."""
        return int(self.data.shape[0])

    @property
    def size(self):
        """The number of stored entries (the same as `nnz`, as SciPy)."""
        return self.nnz

    @property
    def device(self):
        """The device holding the matrix's arrays (that of its data)."""
        return self.data.device

    def getnnz(self, axis=None):
        """Number of stored entries, in all or per column / row, as SciPy's getnnz.

        Duplicates and explicit zeros are counted.

        Parameters
        ----------
        axis : {None, 0, 1, -1, -2}, optional
            None (default): all; 0: per column; 1: per row (a 1-tuple is accepted too).

        Returns
        -------
        int or npgpu.Array
            An int for axis=None, else an int64 npgpu.Array with the count of each column (axis 0) or row (axis 1).

        Raises
        ------
        ValueError
            Any other axis ("axis out of bounds").

        See Also
        --------
        count_nonzero : Nonzero values after summing duplicates.

        Examples
        --------
        >>> A = npgpu.sparse.csr_matrix(np.array([[1.0, 0.0, 2.0], [0.0, 0.0, 3.0]]))
        >>> A.getnnz(), A.getnnz(axis=0), A.getnnz(axis=1)
        (3, Array([1, 0, 2]), Array([2, 1]))
        """
        if axis is None:
            return self.nnz
        axis = _check_axis(axis, "axis out of bounds")
        rows, cols, data = self._triples()
        return _bincount(cols if axis == 0 else rows, self.shape[1 - axis], self.device)

    def count_nonzero(self, axis=None):
        """Number of nonzero values after summing duplicates, in all or per column / row.

        The matrix is not changed (duplicates are summed in a copy).

        Parameters
        ----------
        axis : {None, 0, 1, -1, -2}, optional
            None (default): all; 0: per column; 1: per row (a 1-tuple is accepted too).

        Returns
        -------
        int or npgpu.Array
            An int for axis=None, else an int64 npgpu.Array of each column's (axis 0) or row's (axis 1) count.

        Raises
        ------
        ValueError
            Any other axis ("axis out of bounds").

        Examples
        --------
        >>> A = npgpu.sparse.coo_matrix(([1.0, -1.0, 0.0, 4.0], ([0, 0, 1, 1], [0, 0, 1, 2])), shape=(2, 3))
        >>> A.nnz, A.count_nonzero()  # the duplicates at (0, 0) sum to 0; (1, 1) is an explicit zero
        (4, 1)
        >>> A.count_nonzero(axis=1)
        Array([0, 1])
        """
        c = self.copy()
        c.sum_duplicates()
        if axis is None:
            return int(npgpu.count_nonzero(c.data))
        axis = _check_axis(axis, "axis out of bounds")
        rows, cols, data = c._triples()
        keep = npgpu.flatnonzero(data != 0)
        return _bincount(npgpu.take(cols if axis == 0 else rows, keep), self.shape[1 - axis], self.device)

    def nonzero(self):
        """Row and column indices of the stored entries whose value is nonzero.

        Duplicates are not summed: every stored nonzero entry is listed, in the order the entries are stored (as
        SciPy).

        Returns
        -------
        row, col : npgpu.Array
            Index arrays on the matrix's device.

        Examples
        --------
        >>> A = npgpu.sparse.csr_matrix(np.array([[0.0, 2.0], [3.0, 0.0]]))
        >>> A.nonzero()
        (Array([0, 1], dtype=int32), Array([1, 0], dtype=int32))
        """
        rows, cols, data = self._triples()
        keep = npgpu.flatnonzero(data != 0)
        return npgpu.take(rows, keep), npgpu.take(cols, keep)

    def __len__(self):
        raise TypeError("sparse matrix length is ambiguous; use getnnz() or shape[0]")

    def __repr__(self):
        kind = "array" if self._is_array else "matrix"
        return (f"<{_FORMAT_NAMES[self.format]} sparse {kind} of dtype '{self.dtype}'\n"
                f"\twith {self.nnz} stored elements and shape {self.shape} on device {self.device}>")

    __str__ = __repr__

    # ------------------------------------------------------------------ conversions
    def asformat(self, format, copy=False):
        """This matrix in another format.

        Parameters
        ----------
        format : {"csr", "csc", "coo"} or None
            The format; None or the matrix's own format returns the matrix itself.
        copy : bool, optional
            Return a copy when no conversion is needed (default False).

        Returns
        -------
        sparse matrix
            Of this matrix's kind (a *_matrix or a *_array).

        Raises
        ------
        ValueError
            A format npgpu.sparse does not have (SciPy's bsr, dia, lil and dok included), as SciPy raises for
            an unknown one.

        Examples
        --------
        >>> A = npgpu.sparse.csr_matrix(np.eye(2))
        >>> A.asformat("coo").format, A.asformat(None) is A, A.asformat("csr", copy=True) is A
        ('coo', True, False)
        """
        if format is None or format == self.format:
            return self.copy() if copy else self
        if format not in ("csr", "csc", "coo"):
            raise ValueError(f"Format {format!r} is unknown to npgpu.sparse (it has 'csr', 'csc' and 'coo')")
        return getattr(self, "to" + format)(copy=copy)

    def tocoo(self, copy=False):
        """This matrix in COO format.

        Parameters
        ----------
        copy : bool, optional
            Copy the arrays the result could share with this matrix (default False).

        Returns
        -------
        coo_matrix or coo_array

        Examples
        --------
        >>> C = npgpu.sparse.csr_matrix(np.array([[0.0, 2.0], [3.0, 0.0]])).tocoo()
        >>> C.row, C.col, C.data
        (Array([0, 1], dtype=int32), Array([1, 0], dtype=int32), Array([2., 3.]))
        """
        rows, cols, data = self._triples()
        return self._cls("coo")((data, (rows, cols)), shape=self.shape, copy=copy, _trusted=True,
                                _flags=True if getattr(self, "_canonical", None) else None)

    def toarray(self, order=None, out=None):
        """The dense matrix, an npgpu.Array on the matrix's device (duplicates summed).

        Parameters
        ----------
        order : {None, "C", "F"}, optional
            "F" gives a Fortran-ordered array; anything else C order (default).
        out : npgpu.Array, optional
            A (rows, columns) array on the matrix's device to write into (it is zeroed first) and return.

        Returns
        -------
        npgpu.Array

        Raises
        ------
        ValueError
            An `out` of another shape.

        Examples
        --------
        >>> A = npgpu.sparse.coo_matrix(([1.0, 2.0, 5.0], ([0, 0, 1], [1, 1, 0])), shape=(2, 2))
        >>> A.toarray()
        Array([[0., 3.],
               [5., 0.]])
        """
        m, n = self.shape
        rows, cols, data = self._triples()
        if out is None:
            res = npgpu.zeros((m, n), dtype=self.dtype, device=self.device)
        else:
            if tuple(out.shape) != (m, n):
                raise ValueError(f"out has shape {tuple(out.shape)}, the matrix {self.shape}")
            res = out
            res[...] = 0
        if data.shape[0]:
            flat = rows.astype(np.int64) * n + cols.astype(np.int64)
            npgpu.add.at(res.reshape(m * n), flat, data.astype(res.dtype) if data.dtype != res.dtype else data)
        if order == "F":
            return res.T.copy().T
        return res

    def todense(self, order=None, out=None):
        """The dense matrix, an npgpu.Array on the matrix's device: the same as `toarray`.

        Unlike SciPy's, the result of a ``*_matrix`` is an npgpu.Array, not a numpy.matrix.

        Parameters
        ----------
        order : {None, "C", "F"}, optional
            As `toarray`.
        out : npgpu.Array, optional
            As `toarray`.

        Returns
        -------
        npgpu.Array

        Examples
        --------
        >>> npgpu.sparse.eye(2).todense()
        Array([[1., 0.],
               [0., 1.]])
        """
        return self.toarray(order=order, out=out)

    def get(self, stream=None):
        """A SciPy matrix (or array, for the *_array classes) of the same format holding this one's values.

        Parameters
        ----------
        stream : optional
            Not used.

        Returns
        -------
        scipy.sparse matrix or array

        Raises
        ------
        ImportError
            SciPy is not installed.

        See Also
        --------
        to_scipy : The same.

        Examples
        --------
        >>> S = npgpu.sparse.csr_matrix(np.array([[0.0, 2.0], [3.0, 0.0]])).get()
        >>> type(S).__name__, S.toarray().tolist()
        ('csr_matrix', [[0.0, 2.0], [3.0, 0.0]])
        """
        return self.to_scipy()

    def to_device(self, device):
        """This matrix on another device (a copy of each array).

        Parameters
        ----------
        device
            The target device (what ``npgpu.Array.to_device`` takes).

        Returns
        -------
        sparse matrix
            Of this matrix's class.

        Examples
        --------
        >>> A = npgpu.sparse.eye(3, device="cpu")
        >>> B = A.to_device("cpu")
        >>> str(B.device), B is A
        ('cpu', False)
        """
        return self._cls(self.format)(self._copy_arrays(lambda a: a.to_device(device)), shape=self.shape,
                                      _trusted=True, _flags=self._flags())

    def _flags(self):
        return None

    # ------------------------------------------------------------------ elementwise, with data only
    def astype(self, dtype, casting="unsafe", copy=True):
        """The matrix with its values cast to `dtype`.

        Parameters
        ----------
        dtype : dtype
            One of npgpu's supported dtypes.
        casting : str, optional
            Not used (values are cast as ``npgpu.Array.astype`` does).
        copy : bool, optional
            With dtype equal to the matrix's: return a copy (default True) or the matrix itself.

        Returns
        -------
        sparse matrix
            Of this matrix's class.

        Raises
        ------
        TypeError
            A dtype npgpu.sparse does not support.

        Examples
        --------
        >>> npgpu.sparse.eye(2).astype(np.complex64).dtype
        dtype('complex64')
        """
        dtype = u.check_dtype(dtype)
        if dtype == self.dtype:
            return self.copy() if copy else self
        return self._with_data(self.data.astype(dtype))

    def conj(self, copy=True):
        """The elementwise complex conjugate (also `conjugate`).

        Parameters
        ----------
        copy : bool, optional
            For a matrix that is not complex: return a copy (default True) or the matrix itself.

        Returns
        -------
        sparse matrix
            Of this matrix's class.

        Examples
        --------
        >>> A = npgpu.sparse.csr_matrix(np.array([[1 + 2j, 0], [0, 3j]]))
        >>> A.conj().data
        Array([1.-2.j, 0.-3.j])
        """
        if self.dtype.kind == "c":
            return self._with_data(npgpu.conj(self.data))
        return self.copy() if copy else self

    conjugate = conj

    def getH(self):
        """The conjugate transpose.

        Returns
        -------
        sparse matrix
            Of this matrix's kind, in the transposed format (CSR <-> CSC; COO stays COO).

        See Also
        --------
        H : The same, as a property.

        Examples
        --------
        >>> A = npgpu.sparse.csr_matrix(np.array([[1 + 2j, 3j]]))
        >>> A.getH().toarray()
        Array([[1.-2.j],
               [0.-3.j]])
        """
        return self.conj().transpose()

    @property
    def H(self):
        """The conjugate transpose (`getH`)."""
        return self.getH()

    @property
    def real(self):
        """The real parts of the values, in the same structure (a new matrix)."""
        return self._with_data(npgpu.real(self.data).copy())

    @property
    def imag(self):
        """The imaginary parts of the values, in the same structure (a new matrix; all stored zeros for a real one)."""
        return self._with_data(npgpu.imag(self.data).copy() if self.dtype.kind == "c" else
                               npgpu.zeros_like(self.data))

    def __abs__(self):
        c = self.copy()
        c.sum_duplicates()
        return c._with_data(npgpu.abs(c.data))

    def __neg__(self):
        if self.dtype == np.bool_:
            raise NotImplementedError("negating a boolean sparse matrix is not supported")
        return self._with_data(-self.data)

    def __pos__(self):
        return self.copy()

    # ------------------------------------------------------------------ reductions
    def diagonal(self, k=0):
        """The k-th diagonal, a dense 1-d npgpu.Array (duplicates summed).

        Parameters
        ----------
        k : int, optional
            0 (default) the main diagonal, > 0 above it, < 0 below it.

        Returns
        -------
        npgpu.Array
            Of the matrix's dtype and the diagonal's length (empty outside the matrix).

        Examples
        --------
        >>> A = npgpu.sparse.csr_matrix(np.array([[1.0, 2.0, 0.0], [0.0, 3.0, 4.0]]))
        >>> A.diagonal(), A.diagonal(1), A.diagonal(-1)
        (Array([1., 3.]), Array([2., 4.]), Array([0.]))
        """
        m, n = self.shape
        k = int(k)
        length = max(0, min(m + min(k, 0), n - max(k, 0)))
        out = npgpu.zeros(length, dtype=self.dtype, device=self.device)
        rows, cols, data = self._triples()
        if length == 0 or data.shape[0] == 0:
            return out
        sel = npgpu.flatnonzero((cols.astype(np.int64) - rows.astype(np.int64)) == k)
        if sel.shape[0]:
            pos = npgpu.take(rows if k >= 0 else cols, sel)
            vals = npgpu.take(data, sel)
            if self.dtype == np.bool_:
                acc = npgpu.zeros(length, dtype=np.int64, device=self.device)
                npgpu.add.at(acc, pos, vals.astype(np.int64))
                return acc != 0
            npgpu.add.at(out, pos, vals)
        return out

    def trace(self, offset=0):
        """The sum of the diagonal `offset`, a 0-d npgpu.Array.

        Parameters
        ----------
        offset : int, optional
            The diagonal (default 0), as `diagonal`'s k.

        Returns
        -------
        npgpu.Array

        Examples
        --------
        >>> npgpu.sparse.eye(3).trace()
        Array(3.)
        """
        return npgpu.sum(self.diagonal(offset))

    def sum(self, axis=None, dtype=None, out=None):
        """Sum of the values, in all or along an axis, as SciPy's.

        Parameters
        ----------
        axis : {None, 0, 1, -1, -2} or tuple, optional
            None (default): everything; 0: per column; 1: per row. A tuple of both axes sums everything, a 1-tuple
            is its one axis.
        dtype : dtype, optional
            The accumulator and result dtype; default as NumPy's sum (integers and bool widen to 64 bits).
        out : optional
            Not used.

        Returns
        -------
        npgpu.Array
            A 0-d array for axis None, on the matrix's device. Along an axis, the ``*_matrix`` classes keep two
            dimensions ((1, n) / (m, 1)) and the ``*_array`` classes give 1-d results.

        Raises
        ------
        ValueError
            An axis out of range.

        Examples
        --------
        >>> A = npgpu.sparse.csr_matrix(np.array([[1, 0, 2], [0, 0, 3]]))
        >>> A.sum(), A.sum(axis=1)
        (Array(6), Array([[3],
               [3]]))
        >>> npgpu.sparse.csr_array(A).sum(axis=1)
        Array([3, 3])
        """
        m, n = self.shape
        dt = u.sum_dtype(self.dtype) if dtype is None else np.dtype(dtype)
        rows, cols, data = self._triples()
        data = data.astype(dt) if data.dtype != dt else data
        if axis is None:
            res = npgpu.sum(data, dtype=dt) if data.shape[0] else npgpu.zeros((), dtype=dt, device=self.device)
            return res
        if isinstance(axis, tuple):
            if sorted(a % 2 for a in axis) == [0, 1]:
                return self.sum(None, dtype=dtype)
            if len(axis) != 1:
                raise ValueError(f"axis {axis} is out of range")
            axis = axis[0]
        if axis not in (0, 1, -1, -2):
            raise ValueError(f"axis {axis} is out of range for a 2-d sparse matrix")
        axis %= 2
        size = n if axis == 0 else m
        res = npgpu.zeros(size, dtype=dt, device=self.device)
        if data.shape[0]:
            npgpu.add.at(res, cols if axis == 0 else rows, data)
        if not self._is_array:
            res = res.reshape((1, n) if axis == 0 else (m, 1))
        return res

    def mean(self, axis=None, dtype=None):
        """Mean of the values (implicit zeros included), in all or along an axis.

        The sum (as `sum`) divided by the number of positions; integer and bool matrices are summed in float64.

        Parameters
        ----------
        axis : {None, 0, 1, -1, -2}, optional
            None (default): everything; 0: per column; 1: per row.
        dtype : dtype, optional
            The dtype of the sum.

        Returns
        -------
        npgpu.Array
            Shaped as `sum`'s result.

        Examples
        --------
        >>> A = npgpu.sparse.csr_matrix(np.array([[1, 0, 2], [0, 0, 3]]))
        >>> A.mean(), A.mean(axis=0)
        (Array(1.), Array([[0.5, 0. , 2.5]]))
        """
        m, n = self.shape
        s = self.sum(axis=axis, dtype=dtype if dtype is not None else
                     (np.float64 if self.dtype.kind in "biu" else None))
        count = m * n if axis is None else (m if axis % 2 == 0 else n)
        return s / count

    # ------------------------------------------------------------------ arithmetic
    def _scaled(self, scalar, op):
        if u.is_npgpu(scalar) and not u.same_device(scalar.device, self.device):
            raise ValueError(f"the scalar is on device {scalar.device}, the matrix on {self.device}")
        return self._with_data(op(self.data, scalar))

    def __mul__(self, other):
        if u.is_scalar(other):
            return self._scaled(other, lambda d, s: d * s)
        if self._is_array:
            return self.multiply(other)
        return self._matmul(other)

    def __rmul__(self, other):
        if u.is_scalar(other):
            return self._scaled(other, lambda d, s: s * d)
        if self._is_array:
            return self.multiply(other)
        return self.__rmatmul__(other)

    def __truediv__(self, other):
        if u.is_scalar(other):
            return self._scaled(other, lambda d, s: d / s)
        return NotImplemented

    def __add__(self, other):
        return self._add(other, 1)

    def __radd__(self, other):
        return self._add(other, 1)

    def __sub__(self, other):
        return self._add(other, -1)

    def __rsub__(self, other):
        return (-self)._add(other, 1)

    def _add(self, other, sign):
        if isinstance(other, _spbase):
            if other.shape != self.shape:
                raise ValueError(f"inconsistent shapes: {self.shape} and {other.shape}")
            if not u.same_device(other.device, self.device):
                raise ValueError(f"the operands are on devices {self.device} and {other.device}")
            dt = np.result_type(self.dtype, other.dtype)
            r1, c1, d1 = self._triples()
            r2, c2, d2 = other._triples()
            d2 = d2.astype(dt)
            if sign < 0:
                if dt == np.bool_:
                    raise NotImplementedError("subtracting boolean sparse matrices is not supported")
                d2 = -d2
            rows = npgpu.concatenate([r1.astype(np.int64), r2.astype(np.int64)])
            cols = npgpu.concatenate([c1.astype(np.int64), c2.astype(np.int64)])
            data = npgpu.concatenate([d1.astype(dt), d2])
            fmt = self.format if self.format != "coo" else "csr"
            return self._from_triples(fmt, rows, cols, data, self.shape)
        if u.is_scalar(other):
            if u.is_npgpu(other) or other != 0:
                raise NotImplementedError("adding a nonzero scalar to a sparse matrix is not supported")
            return self.copy()
        dense = u.to_array(other, self.device, name="the dense operand")
        return self.toarray() + dense if sign > 0 else self.toarray() - dense

    def multiply(self, other):
        """Elementwise product, broadcasting as SciPy.

        Parameters
        ----------
        other : scalar, array_like, npgpu.Array or sparse matrix
            A scalar; a dense array (at most 2-d, broadcast with the matrix's shape); or an npgpu.sparse matrix on
            the same device, of the same shape or of a shape that broadcasts with this one ((1, n), (m, 1) or
            (1, 1) against (m, n), or a (1, n) row against an (m, 1) column, either way round).

        Returns
        -------
        sparse matrix or npgpu.Array
            With a scalar or a dense array: a sparse matrix of this format and this structure; a (1, n) row or
            an (m, 1) column is broadcast first to the operand's rows or columns (its entries repeated, the result
            of this format and kind; SciPy gives COO); a (1, 1) matrix times an operand of more than one element
            gives a dense npgpu.Array of the broadcast shape (its stored values' sum times the operand), as
            SciPy. With a sparse matrix of the same shape: a CSR matrix (CSC for a CSC matrix) holding the
            entries present in both.
            With a sparse matrix that broadcasts: the broadcast shape, in the format and kind (*_matrix or
            *_array) that SciPy gives:

            - a (1, 1) `other` scales this matrix: this format (CSR for COO) and kind;
            - a (1, 1) matrix scales `other` by the sum of its stored values: `other`'s format (COO too) and kind,
              and the dtype of `other` times that sum (whose dtype is NumPy's sum's: int64 for bool or int32);
            - an (m, 1) column with an (m, n) matrix: CSR, of this matrix's kind;
            - a (1, n) row with an (m, n) matrix or with an (m, 1) column: the format (CSR for COO) and kind of
              the (m, n) matrix or of the column.

        Raises
        ------
        ValueError
            Shapes that do not broadcast, or operands on different devices.

        Examples
        --------
        >>> A = npgpu.sparse.csr_matrix(np.array([[1.0, 0.0], [2.0, 3.0]]))
        >>> A.multiply(np.array([10.0, 100.0])).toarray()
        Array([[ 10.,   0.],
               [ 20., 300.]])
        >>> A.multiply(A).toarray()
        Array([[1., 0.],
               [4., 9.]])
        >>> A.multiply(npgpu.sparse.csr_matrix(np.array([[10.0, 100.0]]))).toarray()
        Array([[ 10.,   0.],
               [ 20., 300.]])
        """
        if u.is_scalar(other):
            return self._scaled(other, lambda d, s: d * s)
        m, n = self.shape
        if isinstance(other, _spbase):
            if other.shape != self.shape:
                return self._multiply_broadcast(other)
            if not u.same_device(other.device, self.device):
                raise ValueError(f"the operands are on devices {self.device} and {other.device}")
            a, b = self.tocsr(), other.tocsr()
            a.sum_duplicates()
            b.sum_duplicates()
            dt = np.result_type(a.dtype, b.dtype)
            ra, ca, da = a._triples()
            rb, cb, db = b._triples()
            if da.shape[0] == 0 or db.shape[0] == 0:
                z = npgpu.zeros(0, dtype=np.int64, device=self.device)
                res = self._from_triples("csr", z, z, npgpu.zeros(0, dtype=dt, device=self.device), self.shape)
            else:
                ka, kb = u.pair_key(ra, ca, n), u.pair_key(rb, cb, n)
                pos = npgpu.searchsorted(kb, ka)
                pos_c = npgpu.minimum(pos, db.shape[0] - 1)
                sel = npgpu.flatnonzero(npgpu.take(kb, pos_c) == ka)
                data = npgpu.take(da, sel).astype(dt) * npgpu.take(db, npgpu.take(pos_c, sel)).astype(dt)
                res = self._from_triples("csr", npgpu.take(ra, sel), npgpu.take(ca, sel), data, self.shape,
                                         sum_dups=False)
                res._sorted, res._canonical = True, True
            return res if self.format != "csc" else res.tocsc()
        dense = u.to_array(other, self.device, name="the dense operand")
        if dense.ndim > 2:
            raise ValueError(f"cannot multiply a sparse matrix elementwise by an array of shape {dense.shape}")
        dr, dc = (1,) * (2 - dense.ndim) + tuple(dense.shape)
        if dense.size != 1 and (m, n) == (1, 1):
            # SciPy: np.multiply(self.data.sum(), other), a dense result of the broadcast shape
            a = self.tocsr() if self.format == "coo" else self
            return npgpu.multiply(npgpu.sum(a.data), dense).reshape(dr, dc)
        if dense.size != 1 and ((m == 1 and dr != 1 and dc in (1, n)) or (n == 1 and dc != 1 and dr in (1, m))):
            # a (1, n) row (m, 1) column broadcast to the operand's rows (columns) first, as SciPy
            return self._broadcast_rows_or_cols(dr if m == 1 else m, n if m == 1 else dc).multiply(dense)
        # the operand as (dr, dc) with dr in (1, m) and dc in (1, n), read at each entry's broadcast position
        # (no m x n copy of a row, a column or a single value)
        if dr not in (1, m) or dc not in (1, n):
            raise ValueError(f"inconsistent shapes: {self.shape} and {tuple(dense.shape)}")
        rows, cols, data = self._triples()
        if data.shape[0] == 0:
            return self.astype(np.result_type(self.dtype, dense.dtype))
        flat = rows.astype(np.int64) * (dc if dr != 1 else 0) + cols.astype(np.int64) * (1 if dc != 1 else 0)
        vals = npgpu.take(dense.reshape(dr * dc), flat)
        return self._with_data(data * vals)

    def _broadcast_rows_or_cols(self, rows_to, cols_to):
        """This (1, n) row as a (rows_to, n) matrix, or this (m, 1) column as an (m, cols_to) one: its entries
        repeated, in this format and kind (a COO's duplicates summed first, as SciPy's CSR conversion does; those
        of a CSR / CSC kept)."""
        a = self.tocsr() if self.format == "coo" else self
        rows, cols, data = a._triples()
        nnz, dev = data.shape[0], self.device
        if self.shape[0] == 1:
            rows = npgpu.repeat(npgpu.arange(rows_to, dtype=np.int64, device=dev), nnz)
            cols, data = npgpu.tile(cols.astype(np.int64), rows_to), npgpu.tile(data, rows_to)
        else:
            rows, data = npgpu.repeat(rows.astype(np.int64), cols_to), npgpu.repeat(data, cols_to)
            cols = npgpu.tile(npgpu.arange(cols_to, dtype=np.int64, device=dev), nnz)
        return self._from_triples(self.format, rows, cols, data, (rows_to, cols_to), sum_dups=False)

    def _multiply_broadcast(self, other):
        """self.multiply(other) for sparse operands of different shapes that broadcast, as SciPy 1.17's
        _multiply_2d_with_broadcasting: its case order, its result format and kind, its dtype."""
        (sm, sn), (om, on) = self.shape, other.shape

        if other.shape == (1, 1):
            # SciPy: self._mul_scalar(other.toarray()[0, 0])
            case, fmt, kind = "scale_self", None, self
        elif self.shape == (1, 1):
            # SciPy: other._mul_scalar(self.data.sum()), other's format as it is (COO too)
            case, fmt, kind = "scale_other", other.format, other
        elif sm == 1 and on == 1:
            case, fmt, kind = "outer_other", None, other  # SciPy: other @ self.tocsc()
        elif sn == 1 and om == 1:
            case, fmt, kind = "outer_self", None, self  # SciPy: self @ other.tocsc()
        elif om == 1 and sn == on:
            case, fmt, kind = "dense_other", None, self  # SciPy: self @ diag(other row)
        elif sm == 1 and sn == on:
            case, fmt, kind = "dense_self", None, other  # SciPy: other @ diag(self row)
        elif on == 1 and sm == om:
            case, fmt, kind = "dense_other", "csr", self  # SciPy: diag(other column) @ self
        elif sn == 1 and sm == om:
            case, fmt, kind = "dense_self", "csr", self  # SciPy: diag(self column) @ other
        else:
            raise ValueError(f"inconsistent shapes: {self.shape} and {other.shape}")
        if not u.same_device(other.device, self.device):
            raise ValueError(f"the operands are on devices {self.device} and {other.device}")
        # SciPy converts a COO operand to CSR (summing its duplicates) before any of these, but the one it scales
        # in the "scale_other" case; for a bool matrix the sum matters (True + True is True, then multiplied)
        a = self.tocsr() if self.format == "coo" else self
        b = other.tocsr() if other.format == "coo" else other
        if case == "scale_self":
            res = a._scaled(b.toarray()[0, 0], lambda d, s: d * s)
        elif case == "scale_other":
            # the sum of the stored values (SciPy's data.sum(): duplicates of a CSR / CSC counted as stored, a
            # COO's summed by its conversion), so the dtype is the sum's, as SciPy's (int64 for bool, int32)
            res = other._scaled(npgpu.sum(a.data), lambda d, s: d * s)
        elif case == "outer_other":
            res = b._matmul(a)  # (m, 1) @ (1, n): the sparse outer product, no dense intermediate
        elif case == "outer_self":
            res = a._matmul(b)
        elif case == "dense_other":
            res = a.multiply(b.toarray())  # b is (1, n), (m, 1): its small dense form, read where a has entries
        else:
            res = b.multiply(a.toarray())
        res = res.asformat(fmt or ("csr" if kind.format == "coo" else kind.format))
        if res._is_array != kind._is_array:
            res = res._cls(res.format, kind._is_array)(res)
        return res

    # ------------------------------------------------------------------ products
    def __matmul__(self, other):
        if u.is_scalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self._matmul(other)

    def __rmatmul__(self, other):
        if u.is_scalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        if isinstance(other, _spbase):
            return other._matmul(self)
        x = u.to_array(other, self.device, name="the dense operand")
        if x.ndim == 1:
            return self.transpose()._matmul(x)
        if x.ndim != 2:
            raise ValueError(f"matmul: a {x.ndim}-d operand is not supported")
        return self.transpose()._matmul(x.T).T

    def dot(self, other):
        """Matrix product with another matrix or a vector (``A @ other``); with a scalar, ``A * other``.

        Parameters
        ----------
        other : scalar, array_like, npgpu.Array or sparse matrix
            A scalar, a dense (n,) or (n, k) operand, or an npgpu.sparse matrix on the same device.

        Returns
        -------
        npgpu.Array or sparse matrix
            Dense for a dense operand; CSR (canonical, of this matrix's kind) for a sparse one.

        Raises
        ------
        ValueError
            A dimension mismatch, a dense operand that is not 1-d or 2-d, or operands on different devices.
        TypeError
            A SciPy sparse operand (convert it with npgpu.sparse.csr_matrix first).

        Examples
        --------
        >>> A = npgpu.sparse.csr_matrix(np.array([[1.0, 0.0], [2.0, 3.0]]))
        >>> A.dot(np.array([1.0, 1.0]))
        Array([1., 5.])
        """
        if u.is_scalar(other):
            return self * other
        return self._matmul(other)

    def _matmul(self, other):
        m, n = self.shape
        if isinstance(other, _spbase):
            if other.shape[0] != n:
                raise ValueError(f"dimension mismatch: {self.shape} @ {other.shape}")
            if not u.same_device(other.device, self.device):
                raise ValueError(f"the operands are on devices {self.device} and {other.device}")
            from ._compressed import spgemm

            return spgemm(self.tocsr(), other.tocsr())
        if u.is_scipy_sparse(other):
            raise TypeError("multiply by an npgpu.sparse matrix: convert the SciPy matrix with "
                            "npgpu.sparse.csr_matrix(m) first")
        x = u.to_array(other, self.device, name="the dense operand")
        if x.ndim not in (1, 2):
            raise ValueError(f"matmul: a {x.ndim}-d operand is not supported")
        if x.shape[0] != n:
            raise ValueError(f"dimension mismatch: the matrix has shape {self.shape}, the operand "
                             f"{tuple(x.shape)}")
        return self._mul_dense(x)

    def _mul_dense(self, x):
        """y = A @ x for a dense x (n,) or (n, k) on the device: a scatter of data * x[cols] into rows."""
        m, _ = self.shape
        dt = np.result_type(self.dtype, x.dtype)
        out_shape = (m,) + tuple(x.shape[1:])
        y = npgpu.zeros(out_shape, dtype=dt, device=self.device)
        rows, cols, data = self._triples()
        if data.shape[0] == 0 or y.size == 0:
            return y
        g = npgpu.take(x, cols, axis=0).astype(dt)
        d = data.astype(dt)
        prod = g * (d if x.ndim == 1 else d.reshape(d.shape[0], 1))
        npgpu.add.at(y, rows, prod)
        return y

    # ------------------------------------------------------------------ indexing
    def __getitem__(self, key):
        from ._index import getitem

        return getitem(self, key)

    def __setitem__(self, key, x):
        from ._setitem import setitem

        setitem(self, key, x)

    def getrow(self, i):
        """Row i, as a (1, n) sparse matrix (or array) of this format.

        Parameters
        ----------
        i : int
            The row (negative counts from the end).

        Returns
        -------
        sparse matrix

        Raises
        ------
        TypeError
            A COO matrix (not subscriptable).
        IndexError
            i out of range.

        Examples
        --------
        >>> npgpu.sparse.csr_matrix(np.array([[1.0, 0.0], [2.0, 3.0]])).getrow(1).toarray()
        Array([[2., 3.]])
        """
        return self[int(i), :] if not self._is_array else self[[int(i)], :]

    def getcol(self, j):
        """Column j, as an (m, 1) sparse matrix (or array) of this format.

        Parameters
        ----------
        j : int
            The column (negative counts from the end).

        Returns
        -------
        sparse matrix

        Raises
        ------
        TypeError
            A COO matrix (not subscriptable).
        IndexError
            j out of range.

        Examples
        --------
        >>> npgpu.sparse.csr_matrix(np.array([[1.0, 0.0], [2.0, 3.0]])).getcol(0).toarray()
        Array([[1.],
               [2.]])
        """
        return self[:, int(j)] if not self._is_array else self[:, [int(j)]]

    # ------------------------------------------------------------------ in-place restructuring
    def _replace_with(self, other):
        """Take other's arrays (same class, a new structure) in place."""
        self.__dict__.update(other.__dict__)

    def _canonical_triples(self):
        c = self if self.has_canonical_format else self.copy()
        c.sum_duplicates()
        return c._triples()

    def setdiag(self, values, k=0):
        """Set the k-th diagonal in place, as SciPy's setdiag.

        A scalar fills the diagonal; a sequence sets its first len(values) entries (the rest of a longer sequence is
        ignored). Given zeros are stored.

        Parameters
        ----------
        values : scalar or array_like
            The values.
        k : int, optional
            0 (default) the main diagonal, > 0 above it, < 0 below it.

        Raises
        ------
        ValueError
            A diagonal outside the matrix ("k exceeds array dimensions").

        Examples
        --------
        >>> A = npgpu.sparse.csr_matrix(np.array([[0.0, 2.0], [3.0, 0.0]]))
        >>> A.setdiag(7.0)
        >>> A.toarray()
        Array([[7., 2.],
               [3., 7.]])
        >>> A.setdiag([0.0], k=1)  # a zero is stored
        >>> A.toarray(), A.nnz
        (Array([[7., 0.],
               [3., 7.]]), 4)
        """
        m, n = self.shape
        k = int(k)
        if k <= -m or k >= n:
            raise ValueError("k exceeds array dimensions")
        length = min(m + min(k, 0), n - max(k, 0))
        if u.is_scalar(values):
            vals = npgpu.full(length, 0, dtype=self.dtype, device=self.device) + u.to_array(
                values, self.device, name="values").astype(self.dtype)
        else:
            vals = u.to_array(values, self.device, name="values").astype(self.dtype).reshape(-1)[:length]
        t = vals.shape[0]
        rows, cols, data = self._triples()
        r64, c64 = rows.astype(np.int64), cols.astype(np.int64)
        on = ((c64 - r64) == k) & ((r64 - max(-k, 0)) < t)
        keep = npgpu.flatnonzero(~on)
        d = npgpu.arange(t, dtype=np.int64, device=self.device)
        new_r = npgpu.concatenate([npgpu.take(r64, keep), d + max(-k, 0)])
        new_c = npgpu.concatenate([npgpu.take(c64, keep), d + max(k, 0)])
        new_d = npgpu.concatenate([npgpu.take(data, keep), vals])
        canonical = bool(self._flags() if self.format == "coo" else self._flags()[1])
        out = type(self)._build_from_triples(new_r, new_c, new_d, self.shape, sum_dups=False)
        self._set_canonical(out, canonical)
        self._replace_with(out)

    def _set_canonical(self, out, canonical):
        if canonical:
            out.has_canonical_format = True

    def resize(self, *shape):
        """Change the shape in place: entries outside the new shape are dropped, new rows / columns are empty.

        Parameters
        ----------
        *shape : int or tuple of int
            The new (rows, columns), given as two ints or one pair.

        Raises
        ------
        ValueError
            A shape that is not a pair of non-negative integers.

        Examples
        --------
        >>> A = npgpu.sparse.csr_matrix(np.array([[1.0, 2.0], [3.0, 4.0]]))
        >>> A.resize(1, 3)
        >>> A.toarray()
        Array([[1., 2., 0.]])
        """
        from ._compressed import _check_shape

        shape = _check_shape(shape[0] if len(shape) == 1 else shape)
        rows, cols, data = self._triples()
        keep = npgpu.flatnonzero((rows < shape[0]) & (cols < shape[1]))
        canonical = bool(self._flags() if self.format == "coo" else self._flags()[1])
        out = type(self)._build_from_triples(npgpu.take(rows, keep).astype(np.int64),
                                             npgpu.take(cols, keep).astype(np.int64), npgpu.take(data, keep),
                                             shape, sum_dups=False)
        self._set_canonical(out, canonical)
        self._replace_with(out)

    def reshape(self, *args, shape=None, order="C", copy=False):
        """The matrix with a new shape, entries read in C or F order; a COO matrix, as SciPy's reshape gives.

        Parameters
        ----------
        *args : int or tuple of int
            The new shape, as two ints or one pair (one dimension may be -1).
        shape : tuple of int, optional
            The new shape, given by keyword instead.
        order : {"C", "F"}, optional
            Read (and place) the entries in row-major (default) or column-major order.
        copy : bool, optional
            Copy the data (also when the shape does not change; default False: the matrix itself is returned then).

        Returns
        -------
        coo_matrix or coo_array
            Or the matrix itself for an unchanged shape without `copy`.

        Raises
        ------
        ValueError
            More than one -1, a shape that is not 2-d or holds another number of positions, or an unknown `order`.

        Examples
        --------
        >>> A = npgpu.sparse.csr_matrix(np.array([[0.0, 1.0, 2.0], [3.0, 0.0, 0.0]]))
        >>> A.reshape(3, 2).toarray()
        Array([[0., 1.],
               [2., 3.],
               [0., 0.]])
        >>> A.reshape((-1, 1), order="F").toarray().ravel()
        Array([0., 3., 1., 0., 2., 0.])
        """
        if shape is None:
            shape = args[0] if len(args) == 1 else args
        shape = tuple(int(s) for s in (shape if isinstance(shape, (tuple, list)) else (shape,)))
        m, n = self.shape
        size = m * n
        if shape.count(-1) > 1:
            raise ValueError("can only specify one unknown dimension")
        if -1 in shape:
            other = int(np.prod([s for s in shape if s != -1]))
            if other == 0 or size % other:
                raise ValueError(f"cannot reshape array of size {size} into shape {shape}")
            shape = tuple(size // other if s == -1 else s for s in shape)
        if len(shape) != 2:
            raise ValueError(f"npgpu.sparse matrices are 2-d; cannot reshape into {shape}")
        if shape[0] * shape[1] != size or min(shape) < 0:
            raise ValueError(f"cannot reshape array of size {size} into shape {shape}")
        if order not in ("C", "F"):
            raise ValueError("order must be 'C' or 'F'")
        if shape == self.shape:
            return self.copy() if copy else self
        rows, cols, data = self._triples()
        r, c = rows.astype(np.int64), cols.astype(np.int64)
        m2, n2 = shape
        if order == "C":
            flat = r * n + c
            nr, nc = flat // n2, flat % n2
        else:
            flat = c * m + r
            nr, nc = flat % m2, flat // m2
        idx = u.index_dtype(max(shape))
        return self._cls("coo")((data.copy() if copy else data, (nr.astype(idx), nc.astype(idx))), shape=shape,
                                _trusted=True)

    # ------------------------------------------------------------------ elementwise functions of the data
    def _deduped_data(self):
        self.sum_duplicates()
        return self.data

    def power(self, n, dtype=None):
        """Elementwise power by a scalar (the sparsity is kept).

        Duplicates are summed first, in place. n == 0 is refused, as SciPy (it would densify the matrix).

        Parameters
        ----------
        n : scalar
            The exponent.
        dtype : dtype, optional
            Cast the values to it first.

        Returns
        -------
        sparse matrix
            Of this matrix's class.

        Raises
        ------
        NotImplementedError
            A non-scalar `n`, or n == 0.

        Examples
        --------
        >>> npgpu.sparse.csr_matrix(np.array([[0.0, 2.0], [3.0, 0.0]])).power(2).toarray()
        Array([[0., 4.],
               [9., 0.]])
        """
        if not u.is_scalar(n):
            raise NotImplementedError("input is not scalar")
        if not u.is_npgpu(n) and n == 0:
            raise NotImplementedError("zero power is not supported as it would densify the matrix.\n"
                                      "Use `np.ones(A.shape, dtype=A.dtype)` for this case.")
        data = self._deduped_data()
        if dtype is not None:
            data = data.astype(u.check_dtype(dtype))
        return self._with_data(data ** n)

    def __pow__(self, other):
        if self._is_array:
            return self.power(other)
        m, n = self.shape
        if m != n:
            raise TypeError("sparse matrix is not square")
        if not isinstance(other, (int, np.integer)) or isinstance(other, bool):
            if isinstance(other, (float, np.floating)) and float(other).is_integer():
                other = int(other)
            else:
                raise ValueError("exponent must be an integer")
        if other < 0:
            raise ValueError("exponent must be >= 0")
        from ._construct import _eye

        if other == 0:
            return _eye(m, m, 0, self.dtype, self.format if self.format != "coo" else "csr", self.device,
                        self._is_array)
        result, base, e = None, self, int(other)
        while e:
            if e & 1:
                result = base if result is None else result @ base
            e >>= 1
            if e:
                base = base @ base
        return result if result is not self else self.copy()

    def __round__(self, ndigits=0):
        return self._with_data(npgpu.round(self._deduped_data(), ndigits))

    # ------------------------------------------------------------------ max / min / argmax / argmin
    def max(self, axis=None, out=None, *, explicit=False):
        """The largest value, in all or along an axis (implicit zeros included unless explicit=True).

        Parameters
        ----------
        axis : {None, 0, 1, -1, -2}, optional
            None (default): over everything; 0: per column; 1: per row.
        out : None
            Must be None.
        explicit : bool, optional
            Only stored values count (default False: implicit zeros too).

        Returns
        -------
        npgpu.Array or coo_matrix
            A 0-d npgpu.Array for axis=None. Along an axis: a (1, n) / (m, 1) COO matrix for the ``*_matrix``
            classes (as SciPy), a dense 1-d npgpu.Array for the ``*_array`` classes (SciPy gives a 1-d COO array,
            which npgpu.sparse does not have).

        Raises
        ------
        ValueError
            An `out`, an empty matrix or axis, an axis out of range, or explicit=True with no stored entries (axis
            None).

        See Also
        --------
        min, argmax

        Examples
        --------
        >>> A = npgpu.sparse.csr_matrix(np.array([[-1.0, -2.0], [0.0, -3.0]]))
        >>> A.max(), A.max(explicit=True)
        (Array(0.), Array(-1.))
        >>> npgpu.sparse.csr_array(A).max(axis=1)
        Array([-1.,  0.])
        """
        return self._minmax(axis, out, "max", explicit, arg=False)

    def min(self, axis=None, out=None, *, explicit=False):
        """The smallest value, in all or along an axis (implicit zeros included unless explicit=True).

        Parameters
        ----------
        axis : {None, 0, 1, -1, -2}, optional
            None (default): over everything; 0: per column; 1: per row.
        out : None
            Must be None.
        explicit : bool, optional
            Only stored values count (default False: implicit zeros too).

        Returns
        -------
        npgpu.Array or coo_matrix
            As `max`: a 0-d npgpu.Array for axis=None; along an axis a COO matrix for the ``*_matrix`` classes, a
            dense 1-d npgpu.Array for the ``*_array`` classes.

        Raises
        ------
        ValueError
            As `max`.

        Examples
        --------
        >>> A = npgpu.sparse.csr_matrix(np.array([[1.0, 2.0], [0.0, 3.0]]))
        >>> A.min(), A.min(explicit=True)
        (Array(0.), Array(1.))
        """
        return self._minmax(axis, out, "min", explicit, arg=False)

    def argmax(self, axis=None, out=None, *, explicit=False):
        """Index of the first largest value (implicit zeros included unless explicit=True).

        As NumPy's argmax of the dense matrix.

        Parameters
        ----------
        axis : {None, 0, 1, -1, -2}, optional
            None (default): a flat index over everything; 0: per column; 1: per row.
        out : None
            Must be None.
        explicit : bool, optional
            Only stored values count (default False: implicit zeros too).

        Returns
        -------
        npgpu.Array
            A 0-d int64 npgpu.Array for axis=None (a flat index); along an axis a (1, n) / (m, 1) dense npgpu.Array
            for the ``*_matrix`` classes, 1-d for the ``*_array`` classes.

        Raises
        ------
        ValueError
            As `max`.

        Examples
        --------
        >>> A = npgpu.sparse.csr_matrix(np.array([[0.0, -2.0, 0.0], [3.0, 0.0, 0.0]]))
        >>> A.argmax(), A.argmax(axis=1)
        (Array(3), Array([[0],
               [0]]))
        """
        return self._minmax(axis, out, "max", explicit, arg=True)

    def argmin(self, axis=None, out=None, *, explicit=False):
        """Index of the first smallest value (implicit zeros included unless explicit=True).

        As NumPy's argmin of the dense matrix.

        Parameters
        ----------
        axis : {None, 0, 1, -1, -2}, optional
            None (default): a flat index over everything; 0: per column; 1: per row.
        out : None
            Must be None.
        explicit : bool, optional
            Only stored values count (default False: implicit zeros too).

        Returns
        -------
        npgpu.Array
            As `argmax`.

        Raises
        ------
        ValueError
            As `max`.

        Examples
        --------
        >>> A = npgpu.sparse.csr_matrix(np.array([[0.0, -2.0, 0.0], [3.0, 0.0, 0.0]]))
        >>> A.argmin()
        Array(1)
        """
        return self._minmax(axis, out, "min", explicit, arg=True)

    def _minmax(self, axis, out, which, explicit, arg):
        name = ("arg" if arg else "") + which
        if out is not None:
            raise ValueError(f"Sparse {name} does not support an 'out' parameter.")
        m, n = self.shape
        if axis is not None:
            axis = _check_axis(axis, "axis out of range for ndim")
            if self.shape[axis] == 0:
                raise ValueError(f"Cannot apply {name} along a zero-sized dimension." if arg else
                                 f"zero-size array to reduction operation {which}imum which has no identity")
        elif 0 in self.shape:
            raise ValueError(f"Cannot apply {name} to an empty matrix." if arg else
                             f"zero-size array to reduction operation {which}imum which has no identity")
        if axis is None and explicit and self.nnz == 0:
            raise ValueError(f"Cannot apply {name} to zero matrix when explicit=True.")
        rows, cols, data = self._canonical_triples()
        dev = self.device
        if axis is None:
            major = npgpu.zeros(data.shape[0], dtype=np.int64, device=dev)
            minor = rows.astype(np.int64) * n + cols.astype(np.int64)
            segs, length = 1, m * n
            if self.format == "csc":  # canonical CSC triples are in column order: put them in C order
                order = npgpu.argsort(minor)
                minor, data = npgpu.take(minor, order), npgpu.take(data, order)
        elif axis == 1:
            major, minor, segs, length = rows.astype(np.int64), cols.astype(np.int64), m, n
            if self.format == "csc":  # canonical CSC triples are sorted by column: resort by row
                order = npgpu.argsort(major * n + minor)
                major, minor, data = (npgpu.take(a, order) for a in (major, minor, data))
        else:
            major, minor, segs, length = cols.astype(np.int64), rows.astype(np.int64), n, m
            if self.format != "csc":
                order = npgpu.argsort(major * m + minor)
                major, minor, data = (npgpu.take(a, order) for a in (major, minor, data))
        val, pos = _seg_extreme(major, minor, data, segs, length, which, explicit, self.dtype, dev)
        res = pos if arg else val
        if axis is None:
            return res.reshape(())
        if self._is_array:
            return res
        res = res.reshape((1, n) if axis == 0 else (m, 1))
        return res if arg else self._cls("coo")(self._cls("csr")(res))

    # ------------------------------------------------------------------ comparisons
    def __eq__(self, other):
        return self._compare(other, "eq")

    def __ne__(self, other):
        return self._compare(other, "ne")

    def __lt__(self, other):
        return self._compare(other, "lt")

    def __gt__(self, other):
        return self._compare(other, "gt")

    def __le__(self, other):
        return self._compare(other, "le")

    def __ge__(self, other):
        return self._compare(other, "ge")

    __hash__ = None

    def _compare(self, other, opname):
        """Comparison with a scalar or a sparse matrix of the same shape: a boolean sparse matrix (this
        format; CSR for COO). Where the comparison holds for implicit zeros, every unstored position becomes
        a stored True and SparseEfficiencyWarning is issued, as SciPy. With a dense operand: a dense result."""
        import operator
        import warnings

        op = getattr(operator, opname)
        m, n = self.shape
        fmt = self.format if self.format != "coo" else "csr"
        if isinstance(other, _spbase):
            if other.shape != self.shape:
                raise ValueError("inconsistent shapes")
            if not u.same_device(other.device, self.device):
                raise ValueError(f"the operands are on devices {self.device} and {other.device}")
            r1, c1, d1 = self._canonical_triples()
            r2, c2, d2 = other._canonical_triples()
            dt = np.result_type(self.dtype, other.dtype)
            rows = npgpu.concatenate([r1.astype(np.int64), r2.astype(np.int64)])
            cols = npgpu.concatenate([c1.astype(np.int64), c2.astype(np.int64)])
            za = npgpu.zeros(d2.shape[0], dtype=dt, device=self.device)
            zb = npgpu.zeros(d1.shape[0], dtype=dt, device=self.device)
            idx = u.index_dtype(max(m, n, rows.shape[0]))
            ptr, ind, va = u.compress(rows, cols, npgpu.concatenate([d1.astype(dt), za]), m, n, idx)
            _, _, vb = u.compress(rows, cols, npgpu.concatenate([zb, d2.astype(dt)]), m, n, idx)
            rows, cols = u.expand_major(ptr, ind.shape[0], np.int64), ind
            vals = op(va, vb)
            implicit = op(0, 0)
        elif u.is_scalar(other):
            s = other.get().item() if u.is_npgpu(other) else other
            rows, cols, data = self._canonical_triples()
            vals = op(data, s)
            implicit = bool(op(self.dtype.type(0), s))
        else:
            if u.is_scipy_sparse(other):
                raise TypeError("compare with an npgpu.sparse matrix: convert the SciPy matrix first")
            dense = u.to_array(other, self.device, name="the dense operand")
            return op(self.toarray(), dense)
        if not implicit:
            keep = npgpu.flatnonzero(vals)
            r, c = npgpu.take(rows, keep), npgpu.take(cols, keep)
            out = self._from_triples(fmt, r, c, npgpu.ones(keep.shape[0], dtype=np.bool_, device=self.device),
                                     self.shape, sum_dups=False)
            out.has_canonical_format = True
            return out
        warnings.warn(f"Comparing a sparse matrix using {opname} with a value for which zeros compare true is "
                      "inefficient; every unstored position becomes a stored True.", _efficiency_warning(),
                      stacklevel=3)
        dense = npgpu.ones(m * n, dtype=np.bool_, device=self.device)
        false = npgpu.flatnonzero(~vals)
        if false.shape[0]:
            dense[npgpu.take(rows, false).astype(np.int64) * n + npgpu.take(cols, false).astype(np.int64)] = False
        return self._cls(fmt)(dense.reshape(m, n))


def _make_ufunc_method(name):
    def method(self):
        return self._with_data(getattr(npgpu, name)(self._deduped_data()))

    method.__name__ = name
    method.__doc__ = f"""Elementwise {name} of the stored values (f(0) == 0, so the sparsity is kept).

    Duplicates are summed first, in place, as SciPy does.

    Returns
    -------
    sparse matrix
        Of this matrix's class, with its structure and npgpu.{name} of its values.

    Examples
    --------
    >>> A = npgpu.sparse.csr_matrix(np.array([[0.0, 0.25], [0.5, 0.0]]))
    >>> B = A.{name}()
    >>> B.nnz, bool((B.toarray() == npgpu.{name}(A.toarray())).all())
    (2, True)
    """
    return method


for _name in ['arcsin', 'arcsinh', 'arctan', 'arctanh', 'ceil', 'deg2rad', 'expm1', 'floor', 'log1p', 'rad2deg',
              'rint', 'sign', 'sin', 'sinh', 'sqrt', 'tan', 'tanh', 'trunc']:
    setattr(_spbase, _name, _make_ufunc_method(_name))
