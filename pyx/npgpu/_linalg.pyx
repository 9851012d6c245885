# cython: language_level=3
"""The GPU primitives behind npgpu.linalg (which composes numpy.linalg's functions from them and checks
`info`): Cholesky factorisation and solve, LU factorisation and solve, Hermitian and general
eigen-decomposition and SVD of stacks of device matrices through cuSOLVER (npgpu::cholesky, cholesky_solve,
lu_factor, lu_solve, hermitian_eigen, general_eigen, svd), the random-butterfly transform and LU without
pivoting behind large solves (npgpu::butterfly_matrix, butterfly_rhs, butterfly_solution,
lu_factor_unpivoted), and stacks of small real systems solved one GPU thread each
(npgpu::solve_small_batched).

cuSOLVER works on column-major matrices. A C-ordered copy of A read column-major is A^T, and each primitive
uses that algebraically instead of transposing: the Cholesky factor of A^T = conj(A) in the opposite
triangle is L (or U) read back in C order; LU factors of A^T solve A x = b with the transposed solve;
the eigenvectors of conj(A) are conj(v); the SVD of A^T gives u and vh of A read back in C order (tall
matrices are transposed first, since cuSOLVER's gesvd needs rows >= columns); QR and geev factor a
transposed copy (column-major A) and are read back transposed. `info` arrays (int32, the
batch's shape) are returned unread: reading them is the caller's synchronisation.
"""
import math

import numpy as np

from libc.stdint cimport int64_t
from npgpu._array cimport Array, new_array
from npgpu.lib.linalg cimport (cholesky as c_cholesky, cholesky_solve as c_cholesky_solve,
                               general_eigen as c_general_eigen, hermitian_eigen as c_hermitian_eigen,
                               lu_factor as c_lu_factor, lu_solve as c_lu_solve, qr_factor as c_qr_factor,
                               lu_factor_unpivoted as c_lu_factor_unpivoted, butterfly_size as c_butterfly_size,
                               butterfly_matrix as c_butterfly_matrix, butterfly_rhs as c_butterfly_rhs,
                               butterfly_solution as c_butterfly_solution,
                               qr_q as c_qr_q,
                               solve_small_batched as c_solve_small_batched, svd as c_svd, kSmallSolveMaxN)
from npgpu.lib.view cimport ArrayView, kHostDevice
from npgpu import _array, _elementwise, _indexing

_INT32, _INT64, _F64 = np.dtype(np.int32), np.dtype(np.int64), np.dtype(np.float64)
_FLOATS = {np.dtype(t) for t in (np.float32, np.float64, np.complex64, np.complex128)}


cdef Array _matrices(Array a, str name, bint square):
    if a._view.device == kHostDevice:
        raise ValueError(f"npgpu._linalg.{name} takes device arrays; npgpu.linalg uses numpy.linalg on the host")
    if a.dtype not in _FLOATS:
        raise TypeError(f"{name}: needs float32, float64, complex64 or complex128, not {a.dtype}")
    if a.ndim < 2:
        raise ValueError(f"{name}: needs a stack of matrices (at least 2 dimensions), got {a.ndim}")
    if square and a.shape[-1] != a.shape[-2]:
        raise ValueError(f"{name}: the matrices must be square, got {a.shape[-2]} x {a.shape[-1]}")
    return a


def _real(dt):
    return np.dtype(np.float32) if dt in (np.float32, np.complex64) else np.dtype(np.float64)


def potrf(Array a, bint lower):
    """(factor, info): Cholesky factors of the Hermitian matrices a (..., n, n): lower L with a = L L^H, or
    upper U with a = U^H U; the other triangle zero. info[b] > 0 where a[b] is not positive definite."""
    _matrices(a, "potrf", True)
    cdef Array buf = a.copy()
    cdef Array info = new_array(tuple(a.shape[:-2]), _INT32, a._view.device, a.stream)
    cdef int64_t n = a.shape[-1]
    if buf.size:
        with nogil:
            c_cholesky(buf._view, n, not lower, info._view, buf.stream)  # the opposite triangle of A^T
    elif info.size:
        info[...] = 0
    return buf, info


cdef Array _column_major_rhs(Array f, Array b, str name):
    """The right-hand sides b (..., n, k) checked against the factors f (..., n, n): a column-major (n x k)
    copy in f's dtype."""
    if b.ndim != f.ndim or tuple(b.shape[:-2]) != tuple(f.shape[:-2]) or b.shape[-2] != f.shape[-1]:
        raise ValueError(f"{name}: b {b.shape} does not fit the factors {f.shape} (..., n, k)")
    return (b if b.dtype == f.dtype else b.astype(f.dtype)).mT.copy()


def potrs(Array l, Array b):
    """x with a x = b, for potrf's lower factor l of a (a = l l^H) and b (..., n, k) with the same leading
    shape."""
    _matrices(l, "potrs", True)
    cdef Array bt = _column_major_rhs(l, b, "potrs")
    cdef int64_t n = l.shape[-1], k = b.shape[-1]
    cdef Array f = l.mT.copy()  # column-major L
    if bt.size:
        with nogil:
            c_cholesky_solve(f._view, bt._view, n, k, True, bt.stream)
    return bt.mT


def getrf(Array a):
    """(lu, piv, info): LU factors with partial pivoting of the square matrices a (..., n, n), for getrs and
    for determinants (det = prod(diag(lu)) * (-1)^#(piv[i] != i + 1)); piv int64 (..., n), 1-based.
    info[b] > 0 where a[b] is singular."""
    _matrices(a, "getrf", True)
    # Factor A itself (a column-major copy), not the A^T its C order shows cuSOLVER: the pivots must be A's
    # row swaps, and an exactly singular A must give an exact zero pivot as LAPACK does.
    cdef Array buf = a.mT.copy()
    cdef int64_t n = a.shape[-1]
    cdef Array piv = new_array(tuple(a.shape[:-1]), _INT64, a._view.device, a.stream)
    cdef Array info = new_array(tuple(a.shape[:-2]), _INT32, a._view.device, a.stream)
    if buf.size:
        with nogil:
            c_lu_factor(buf._view, n, piv._view, info._view, buf.stream)
    elif info.size:
        info[...] = 0
    return buf.mT, piv, info


def getrs(Array lu, Array piv, Array b):
    """x with a x = b, for getrf's (lu, piv) of a and b (..., n, k) with the same leading shape."""
    _matrices(lu, "getrs", True)
    cdef Array bt = _column_major_rhs(lu, b, "getrs")
    cdef int64_t n = lu.shape[-1], k = b.shape[-1]
    cdef Array p = piv if piv._view.is_c_contiguous() else piv.copy()
    cdef Array lu_t = lu.mT
    cdef Array f = lu_t if lu_t._view.is_c_contiguous() else lu_t.copy()  # column-major factors of A
    if bt.size:
        with nogil:
            c_lu_solve(f._view, p._view, bt._view, n, k, False, bt.stream)
    return bt.mT


def _wide(dt):
    return np.dtype(np.complex128) if dt.kind == "c" else _F64


def butterfly_factor(Array a):
    """(w, info): for a matrix a (n, n) of any float or complex dtype, W = U^T [a 0; 0 I] V with U and V
    fixed random butterflies of depth 2 (npgpu::butterfly_matrix), as an (m, m) float64 (complex128 for
    complex a) array (m: n rounded up to a multiple of 4; read column-major it is W^T), factored in place
    by LU without pivoting. info (0-d int32, unread) > 0 where a pivot was exactly zero. For
    butterfly_solve."""
    _matrices(a, "butterfly_factor", True)
    if a.ndim != 2:
        raise ValueError(f"butterfly_factor: needs one matrix, not a stack {a.shape}")
    cdef Array ac = a if a._view.is_c_contiguous() else a.copy()
    cdef int64_t n = a.shape[0]
    cdef int64_t m = c_butterfly_size(n)
    cdef Array w = new_array((m, m), _wide(a.dtype), a._view.device, ac.stream)
    cdef Array info = new_array((), _INT32, a._view.device, ac.stream)
    if n:
        with nogil:
            c_butterfly_matrix(ac._view, n, w._view, ac.stream)
            c_lu_factor_unpivoted(w._view, m, info._view, ac.stream)
    return w, info


def butterfly_solve(Array w, Array piv, Array b):
    """x (n, k) with a @ x = b, for butterfly_factor's w of a (n, n), piv the identity pivots 1..m (int64
    (m,)) and b (n, k), real where a is real and complex where a is complex; x has w's dtype."""
    if b.ndim != 2 or b.dtype not in _FLOATS:
        raise TypeError(f"butterfly_solve: b must be one float or complex matrix, not {b.dtype} {b.shape}")
    if _wide(b.dtype) != w.dtype:
        raise TypeError(f"butterfly_solve: b ({b.dtype}) and the transformed matrix ({w.dtype}) differ in kind")
    cdef int64_t n = b.shape[0], k = b.shape[1], m = w.shape[0]
    if c_butterfly_size(n) != m:
        raise ValueError(f"butterfly_solve: b {b.shape} does not fit the transformed matrix {w.shape}")
    cdef Array bc = b if b._view.is_c_contiguous() else b.copy()
    cdef Array y = new_array((k, m), w.dtype, w._view.device, w.stream)
    cdef Array x = new_array((n, k), w.dtype, w._view.device, w.stream)
    if n and k:
        with nogil:
            c_butterfly_rhs(bc._view, n, k, y._view, w.stream)
            c_lu_solve(w._view, piv._view, y._view, m, k, True, w.stream)
            c_butterfly_solution(y._view, n, k, x._view, w.stream)
    return x


SMALL_SOLVE_MAX_N = kSmallSolveMaxN


def solve_small(Array a, Array b):
    """(x, info): x with a @ x = b for stacks a (B, n, n) and b (B, n, k) of float32 or float64 with
    n <= SMALL_SOLVE_MAX_N, one GPU thread per system (npgpu::solve_small_batched: LU with partial pivoting
    in registers). info (B,) int32: 0, or j + 1 for the first exactly zero pivot (x is then inf/NaN)."""
    _matrices(a, "solve_small", True)
    if a.dtype not in (np.float32, np.float64):
        raise TypeError(f"solve_small: needs float32 or float64, not {a.dtype}")
    if a.ndim != 3 or b.ndim != 3 or b.shape[:2] != a.shape[:2]:
        raise ValueError(f"solve_small: a {a.shape} and b {b.shape} must be (B, n, n) and (B, n, k)")
    if b.dtype != a.dtype:
        b = b.astype(a.dtype)
    cdef Array ac = a if a._view.is_c_contiguous() else a.copy()
    cdef Array bc = b if b._view.is_c_contiguous() else b.copy()
    cdef Array x = new_array(tuple(b.shape), a.dtype, a._view.device, ac.stream)
    cdef Array info = new_array((a.shape[0],), _INT32, a._view.device, ac.stream)
    with nogil:
        c_solve_small_batched(ac._view, bc._view, x._view, info._view, ac.stream)
    return x, info


def syevd(Array a, bint lower, bint compute_v):
    """(w, v, info): eigenvalues (real, ascending, (..., n)) and, with compute_v, eigenvectors (columns of v)
    of the Hermitian matrices a, read from their lower (or upper) triangle. info[b] > 0: no convergence."""
    _matrices(a, "syevd", True)
    cdef Array buf = a.copy()
    cdef int64_t n = a.shape[-1]
    cdef Array w = new_array(tuple(a.shape[:-1]), _real(a.dtype), a._view.device, a.stream)
    cdef Array info = new_array(tuple(a.shape[:-2]), _INT32, a._view.device, a.stream)
    if buf.size:
        with nogil:
            c_hermitian_eigen(buf._view, n, not lower, compute_v, w._view, info._view, buf.stream)
    elif info.size:
        info[...] = 0
    if not compute_v:
        return w, None, info
    v = buf.mT  # the eigenvectors of conj(a), read in C order, transposed back
    if a.dtype.kind == "c":
        v = _elementwise.conj(v)
    return w, v, info


def geev(Array a, bint compute_v):
    """(w, v, info): eigenvalues (complex64 for float32/complex64 matrices, complex128 otherwise, (..., n)) and,
    with compute_v, right eigenvectors (columns of v, complex, each of norm 1 with its largest component real;
    None without compute_v) of the general matrices a. Real matrices are computed in real arithmetic: real
    eigenvalues have imaginary part 0 exactly, complex ones come in conjugate pairs. info[b] > 0: no
    convergence."""
    _matrices(a, "geev", True)
    cdef Array buf = a.mT.copy()  # column-major A
    cdef int64_t n = a.shape[-1]
    cdt = np.dtype(np.complex64) if a.dtype in (np.float32, np.complex64) else np.dtype(np.complex128)
    cdef Array w = new_array(tuple(a.shape[:-1]), cdt, a._view.device, a.stream)
    cdef Array info = new_array(tuple(a.shape[:-2]), _INT32, a._view.device, a.stream)
    cdef Array vr = new_array(tuple(a.shape), a.dtype, a._view.device, a.stream) if compute_v else None
    cdef const ArrayView* vr_view = &vr._view if compute_v else NULL
    if buf.size:
        with nogil:
            c_general_eigen(buf._view, n, w._view, vr_view, info._view, buf.stream)
    elif info.size:
        info[...] = 0
    if not compute_v:
        return w, None, info
    v = vr.mT  # column j of the column-major VR is v[..., :, j]
    if a.dtype.kind != "c":
        v = _complex_vectors(v, w)
    return w, v, info


cdef _complex_vectors(v, w):
    """LAPACK's real geev vectors as complex ones: for a pair w[j], w[j + 1] (imaginary part of w[j] > 0),
    columns j and j + 1 of v hold the real and imaginary parts of w[j]'s vector, and w[j + 1]'s is its
    conjugate; a real eigenvalue's column is its vector."""
    im = _elementwise.imag(w)
    pos = _elementwise.greater(im, 0).astype(_INT64)[..., None, :]
    neg = _elementwise.less(im, 0).astype(_INT64)[..., None, :]
    j = _array.asarray(np.arange(w.shape[-1], dtype=_INT64), device=w.device)
    re_part = _indexing.take_along_axis(v, _elementwise.subtract(j, neg), axis=-1)
    im_part = _indexing.take_along_axis(v, _elementwise.add(j, pos), axis=-1)
    sign = _elementwise.subtract(pos, neg).astype(v.dtype)
    return _elementwise.add(re_part, _elementwise.multiply(_elementwise.multiply(im_part, sign), 1j))


def gesvd(Array a, bint full_matrices, bint compute_uv):
    """(u, s, vh, info) with a = u @ diag(s) @ vh for the matrices a (..., m, n): s real, descending,
    (..., min(m, n)); u (..., m, m or k) and vh (..., n or k, n) (k = min(m, n)), None without compute_uv.
    info[b] > 0: no convergence."""
    _matrices(a, "gesvd", False)
    cdef int64_t m = a.shape[-2], n = a.shape[-1]
    lead = tuple(a.shape[:-2])
    wide = n >= m
    # cuSOLVER needs rows >= columns: a wide matrix is used as its C-ordered copy (column-major A^T), a tall
    # one transposed first (column-major A).
    cdef Array buf = a.copy() if wide else a.mT.copy()
    cdef int64_t rows = n if wide else m, cols = m if wide else n
    cdef Array s = new_array(lead + (cols,), _real(a.dtype), a._view.device, a.stream)
    cdef Array info = new_array(lead, _INT32, a._view.device, a.stream)
    cdef Array u_buf = None, vt_buf = None
    cdef ArrayView* up = NULL
    cdef ArrayView* vp = NULL
    if compute_uv:
        u_buf = new_array(lead + ((rows if full_matrices else cols), rows), a.dtype, a._view.device, a.stream)
        vt_buf = new_array(lead + (cols, cols), a.dtype, a._view.device, a.stream)
        up, vp = &u_buf._view, &vt_buf._view
    if buf.size:
        with nogil:
            c_svd(buf._view, rows, cols, full_matrices, s._view, up, vp, info._view, buf.stream)
    elif info.size:
        info[...] = 0
    if not compute_uv:
        return None, s, None, info
    if wide:  # A^T = U' S V'^H: u = conj(V') is V'^H read in C order, vh = U'^T is U' read in C order
        return vt_buf, s, u_buf, info
    return u_buf.mT, s, vt_buf.mT, info  # A = U S V^H, each factor read in C order and transposed back


def geqrf(Array a):
    """(qr, tau): LAPACK's Householder QR of the matrices a (..., m, n): R on and above the diagonal of qr,
    the reflectors (unit leading entry not stored) below it, their scalars tau (..., min(m, n))."""
    _matrices(a, "geqrf", False)
    pm, pn = a.shape[-2], a.shape[-1]
    cdef int64_t m = pm, n = pn
    lead = tuple(a.shape[:-2])
    cdef Array buf = a.mT.copy()  # column-major A
    cdef Array tau = new_array(lead + (min(pm, pn),), a.dtype, a._view.device, a.stream)
    cdef Array info = new_array(lead, _INT32, a._view.device, a.stream)
    if buf.size:
        with nogil:
            c_qr_factor(buf._view, m, n, tau._view, info._view, buf.stream)
    return buf.mT, tau


def orgqr(Array qr, Array tau, ncols):
    """q: the first `ncols` columns of Q = H_1 ... H_k from geqrf's (qr, tau) (k = tau's last extent,
    k <= ncols <= m), shape (..., m, ncols)."""
    _matrices(qr, "orgqr", False)
    pm, pn, pk, pnc = qr.shape[-2], qr.shape[-1], tau.shape[-1], int(ncols)
    if not pk <= pnc <= pm:
        raise ValueError(f"orgqr: needs k <= ncols <= m, got k={pk}, ncols={pnc}, m={pm}")
    cdef int64_t m = pm, n = pn, k = pk, nc = pnc
    lead = tuple(qr.shape[:-2])
    cdef Array buf = new_array(lead + (pnc, pm), qr.dtype, qr._view.device, qr.stream)
    buf[...] = 0
    take = min(pn, pnc)
    buf[..., :take, :] = qr.mT[..., :take, :]  # the reflectors, as column-major columns
    cdef Array t = tau if tau._view.is_c_contiguous() else tau.copy()
    if tau.dtype != qr.dtype:
        t = t.astype(qr.dtype)
    if buf.size and k:
        with nogil:
            c_qr_q(buf._view, m, nc, k, t._view, buf.stream)
    elif buf.size:  # no reflectors: Q is the identity's first columns
        for j in range(pnc):
            buf[..., j, j] = 1
    return buf.mT
