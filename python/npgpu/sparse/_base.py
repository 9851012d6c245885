"""The operations every npgpu.sparse format shares, written over the format's (row, col, data) triples."""
import numpy as np

import npgpu

from . import _util as u

_FORMAT_NAMES = {"csr": "Compressed Sparse Row", "csc": "Compressed Sparse Column", "coo": "COOrdinate"}


class _spbase:
    """Base of csr/csc/coo matrices and arrays. ``*_matrix`` classes follow scipy.sparse's spmatrix
    semantics (``*`` is the matrix product, ``sum(axis)`` keeps two dimensions); ``*_array`` classes follow
    sparray's (``*`` is elementwise, ``sum(axis)`` gives a 1-d array)."""

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
        return self._shape

    @property
    def dtype(self):
        return np.dtype(self.data.dtype)

    @property
    def nnz(self):
        return int(self.data.shape[0])

    @property
    def size(self):
        return self.nnz

    @property
    def device(self):
        return self.data.device

    def getnnz(self, axis=None):
        if axis is not None:
            raise NotImplementedError("getnnz(axis) is not implemented")
        return self.nnz

    def count_nonzero(self):
        c = self.copy()
        c.sum_duplicates()
        return int(npgpu.count_nonzero(c.data))

    def __len__(self):
        raise TypeError("sparse matrix length is ambiguous; use getnnz() or shape[0]")

    def __repr__(self):
        kind = "array" if self._is_array else "matrix"
        return (f"<{_FORMAT_NAMES[self.format]} sparse {kind} of dtype '{self.dtype}'\n"
                f"\twith {self.nnz} stored elements and shape {self.shape} on device {self.device}>")

    __str__ = __repr__

    # ------------------------------------------------------------------ conversions
    def asformat(self, format, copy=False):
        if format is None or format == self.format:
            return self.copy() if copy else self
        return getattr(self, "to" + format)(copy=copy)

    def tocoo(self, copy=False):
        rows, cols, data = self._triples()
        return self._cls("coo")((data, (rows, cols)), shape=self.shape, copy=copy, _trusted=True,
                                _flags=True if getattr(self, "_canonical", None) else None)

    def toarray(self, order=None, out=None):
        """The dense matrix, an npgpu.Array on the matrix's device (duplicates summed)."""
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
        return self.toarray(order=order, out=out)

    def get(self, stream=None):
        """A SciPy matrix (or array, for the *_array classes) of the same format holding this one's values."""
        return self.to_scipy()

    def to_device(self, device):
        """This matrix on `device` (a copy of each array)."""
        return self._cls(self.format)(self._copy_arrays(lambda a: a.to_device(device)), shape=self.shape,
                                      _trusted=True, _flags=self._flags())

    def _flags(self):
        return None

    # ------------------------------------------------------------------ elementwise, with data only
    def astype(self, dtype, casting="unsafe", copy=True):
        dtype = u.check_dtype(dtype)
        if dtype == self.dtype:
            return self.copy() if copy else self
        return self._with_data(self.data.astype(dtype))

    def conj(self, copy=True):
        if self.dtype.kind == "c":
            return self._with_data(npgpu.conj(self.data))
        return self.copy() if copy else self

    conjugate = conj

    def getH(self):
        return self.conj().transpose()

    @property
    def H(self):
        return self.getH()

    @property
    def real(self):
        return self._with_data(npgpu.real(self.data).copy())

    @property
    def imag(self):
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
        return npgpu.sum(self.diagonal(offset))

    def sum(self, axis=None, dtype=None, out=None):
        """Sums as SciPy's: over everything (a 0-d npgpu.Array on the device) or along axis 0 / 1; the
        *_matrix classes keep two dimensions ((1, n) / (m, 1)), the *_array classes give 1-d results."""
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
        """Elementwise product: with a scalar or a dense array (broadcast to the matrix's shape) a sparse
        matrix of this format and this structure; with a sparse matrix of the same shape a CSR matrix (this
        format for CSC) holding the entries present in both."""
        if u.is_scalar(other):
            return self._scaled(other, lambda d, s: d * s)
        m, n = self.shape
        if isinstance(other, _spbase):
            if other.shape != self.shape:
                raise ValueError(f"inconsistent shapes: {self.shape} and {other.shape}")
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
        try:
            full = npgpu.broadcast_to(dense, (m, n))
        except ValueError:
            raise ValueError(f"inconsistent shapes: {self.shape} and {tuple(dense.shape)}") from None
        rows, cols, data = self._triples()
        if data.shape[0] == 0:
            return self.astype(np.result_type(self.dtype, dense.dtype))
        flat = rows.astype(np.int64) * n + cols.astype(np.int64)
        vals = npgpu.take(full.copy().reshape(m * n), flat)
        return self._with_data(data * vals)

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
