"""Linear algebra: numpy.linalg's functions and semantics (NumPy 2), and the Array API standard's linalg
extension.

Every factorisation is one of a few batched primitives of the array's device (over all leading axes of a
stack of matrices (..., M, N); inputs of any layout; outputs new arrays, in NumPy's usual C-order meaning):

- ``potrf(a, lower) -> (factor, info)``: Cholesky; lower L with a = L L^H (read from a's lower triangle) or
  upper U with a = U^H U (read from the upper one); the other triangle of the factor is zero.
- ``potrs(l, b) -> x``: the solution of a x = b for potrf's lower factor l of a (a = l l^H) and b (..., n, k)
  with the same leading shape as l.
- ``getrf(a) -> (lu, piv, info)``: LU with partial pivoting of square matrices: lu holds L (unit diagonal,
  not stored) below the diagonal and U on and above it; piv int64 (..., n), 1-based as LAPACK's ipiv (row i
  was swapped with row piv[i] - 1). lu and piv are only used through getrs and for determinants.
- ``getrs(lu, piv, b) -> x``: the solution of a x = b for getrf's factors of a and b (..., n, k) with the
  same leading shape as lu.
- ``syevd(a, lower, compute_v) -> (w, v, info)``: Hermitian eigen-decomposition read from one triangle; w real
  ascending (..., n); v's columns the eigenvectors (None without compute_v).
- ``gesvd(a, full_matrices, compute_uv) -> (u, s, vh, info)``: a = u diag(s) vh, s real descending
  (..., min(M, N)); u, vh None without compute_uv.
- ``geqrf(a) -> (qr, tau)``: LAPACK's Householder QR: R on and above the diagonal of qr (..., M, N), the
  Householder vectors (unit leading entry not stored) below it; tau (..., min(M, N)).
- ``orgqr(qr, tau, ncols) -> q``: the first ncols columns of Q = H_1 ... H_k from geqrf's output.
- ``geev(a, compute_v) -> (w, v, info)``: general eigen-decomposition; w and v complex, v's columns the
  right eigenvectors (unit norm, largest component real; None without compute_v).

``info`` is an int32 array of the batch's shape, not yet read: the functions here read it (one device to host
read, a synchronisation) and raise numpy.linalg.LinAlgError where it is nonzero, unless called with
``check=False`` (npgpu's own keyword; the results of failed matrices are then unspecified, NaN on the host).
Everything else -- inverses and solves from getrf/getrs, determinants from getrf, least squares, pseudo-
inverses, ranks, condition numbers and the 2-norm and nuclear norm from gesvd, matrix powers, products and
norms from npgpu's own operations -- is composed here, so the host device runs the same decomposition as a
GPU. A GPU runs the primitives of ``npgpu._linalg`` (cuSOLVER); the host device runs numpy.linalg (and
SciPy's LAPACK wrappers for LU and Q where SciPy is installed) on the arrays' memory.

Dtypes as NumPy's: float32, float64, complex64 and complex128 are computed in their own precision (NumPy
computes float32 in float64 and rounds; results agree to float32 accuracy); integers and bool are promoted
to float64; float16 raises TypeError where NumPy does. Matrices with no elements give NumPy's results.

npgpu.Array in, npgpu.Array out on its device; NumPy (or list, scalar) in, NumPy out (0-d results as NumPy
scalars), computed on the GPU when the backend is 'cuda', on the host device otherwise. A GPU build of
npgpu._linalg that lacks a primitive (geqrf/orgqr for qr, geev for eig) makes npgpu.Array input raise
NotImplementedError naming it; NumPy input then runs that primitive, and what follows it, on the host.
"""
import collections
import importlib
import math
import operator
import os
import warnings

import numpy as np

from npgpu import (
    _array,
    _blas,
    _creation,
    _elementwise,
    _elementwise_composed,
    _indexing,
    _linear_algebra,
    _manipulation,
    _reduce,
    _runtime,
    _sorting,
)
from npgpu._errors import OutOfMemoryError
from npgpu._manipulation import _axis

__all__ = ["LinAlgError", "solve", "inv", "det", "slogdet", "cholesky", "qr", "eigh", "eigvalsh", "eig",
           "eigvals", "svd", "svdvals", "lstsq", "pinv", "matrix_rank", "matrix_power", "norm", "cond",
           "multi_dot", "cross", "outer", "tensordot", "vecdot", "matmul", "matrix_norm", "vector_norm",
           "trace", "diagonal", "matrix_transpose", "tensorsolve", "tensorinv"]

LinAlgError = np.linalg.LinAlgError  # the same class, so that existing except clauses catch npgpu's errors

_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)
_C64, _C128 = np.dtype(np.complex64), np.dtype(np.complex128)
_F16 = np.dtype(np.float16)
_FLOATS = (_F32, _F64, _C64, _C128)
_INT32, _INT64 = np.dtype(np.int32), np.dtype(np.int64)


def _result_type(name, fields):
    """numpy.linalg's result namedtuple `name` (so that isinstance checks pass), or an equal one."""
    try:
        from numpy.linalg import _linalg
        cls = getattr(_linalg, name)
        if tuple(cls._fields) == fields:
            return cls
    except (ImportError, AttributeError):
        pass
    return collections.namedtuple(name, fields)


EigResult = _result_type("EigResult", ("eigenvalues", "eigenvectors"))
EighResult = _result_type("EighResult", ("eigenvalues", "eigenvectors"))
QRResult = _result_type("QRResult", ("Q", "R"))
SlogdetResult = _result_type("SlogdetResult", ("sign", "logabsdet"))
SVDResult = _result_type("SVDResult", ("U", "S", "Vh"))


# ------------------------------------------------------------------------------------------------ primitives

_GPU_MODULE = []  # npgpu._linalg once imported (or None where the build lacks it)


def _linalg_module():
    if not _GPU_MODULE:
        try:
            _GPU_MODULE.append(importlib.import_module("npgpu._linalg"))
        except ImportError:
            _GPU_MODULE.append(None)
    return _GPU_MODULE[0]


def _scipy_lapack():
    """scipy.linalg.lapack, or None where SciPy is not installed (or _HostPrimitives.use_scipy is off)."""
    if not _HostPrimitives.use_scipy:
        return None
    try:
        from scipy.linalg import lapack
    except ImportError:
        return None
    return lapack


def _c_order(r):
    """r as a C-contiguous NumPy array of its own shape (0-d stays 0-d, unlike np.ascontiguousarray)."""
    r = np.asarray(r)
    return r if r.flags.c_contiguous else r.copy(order="C")


def _flat(h):
    """h (..., M, N) as (B, M, N), with its batch shape."""
    return h.reshape((-1,) + h.shape[-2:]), h.shape[:-2]


class _HostPrimitives:
    """The primitives on host-device Arrays: numpy.linalg on the arrays' memory, and SciPy's LAPACK wrappers
    (getrf, getrs, orgqr/ungqr) where SciPy is installed, a NumPy fallback otherwise. `info` is computed for
    each matrix: a batched NumPy call that raises LinAlgError is repeated matrix by matrix, the failed ones
    get info 1 and NaN results. Results are C-contiguous host Arrays."""

    use_scipy = True  # tests switch it off to check the NumPy fallbacks

    @staticmethod
    def _wrap(r):
        return None if r is None else _array.asarray(_c_order(r), device="cpu")

    @staticmethod
    def _each(h, fn):
        """(results of fn (a tuple of arrays) on the stack h, info): fn runs on the whole stack, or, where it
        raises LinAlgError, on each matrix, NaN-filled results and info 1 for those that fail."""
        try:
            return fn(h), np.zeros(h.shape[:-2], _INT32)
        except LinAlgError:
            pass
        flat, batch = _flat(h)
        template = fn(np.eye(*h.shape[-2:], dtype=h.dtype))
        outs = [np.empty((flat.shape[0],) + t.shape, t.dtype) for t in template]
        info = np.zeros(flat.shape[0], _INT32)
        for i in range(flat.shape[0]):
            try:
                res = fn(flat[i])
            except LinAlgError:
                info[i] = 1
                for o in outs:
                    o[i] = np.nan
                continue
            for o, r in zip(outs, res):
                o[i] = r
        return tuple(o.reshape(batch + o.shape[1:]) for o in outs), info.reshape(batch)

    def potrf(self, a, lower):
        h = np.asarray(a)
        if not lower:  # a's upper triangle is the lower triangle of a^H
            h = np.conj(np.swapaxes(h, -1, -2))
        (f,), info = self._each(h, lambda m: (np.linalg.cholesky(m),))
        if not lower:
            f = np.conj(np.swapaxes(f, -1, -2))
        return self._wrap(f), self._wrap(info)

    def potrs(self, factor, b):
        f, rhs = np.asarray(factor), np.asarray(b)
        if rhs.shape[:-2] != f.shape[:-2] or rhs.shape[-2] != f.shape[-1]:
            raise ValueError(f"potrs: b {rhs.shape} does not fit the factor {f.shape} (..., n, k)")
        y = np.linalg.solve(f, rhs.astype(f.dtype, copy=False))
        return self._wrap(np.linalg.solve(np.conj(np.swapaxes(f, -1, -2)), y))

    def getrf(self, a):
        h = np.asarray(a)
        flat, batch = _flat(h)
        n = h.shape[-1]
        lapack = _scipy_lapack()
        if lapack is None:
            lu, piv, info = _numpy_getrf(flat)
        else:
            fn = lapack.get_lapack_funcs("getrf", (flat,))
            lu = np.empty_like(flat)
            piv = np.empty(flat.shape[:-1], _INT64)
            info = np.empty(flat.shape[0], _INT32)
            for i in range(flat.shape[0]):
                lu[i], p, info[i] = fn(flat[i])
                piv[i] = p + 1  # SciPy's ipiv is 0-based
            info = np.maximum(info, 0)
        return (self._wrap(lu.reshape(batch + (n, n))), self._wrap(piv.reshape(batch + (n,))),
                self._wrap(info.reshape(batch)))

    def getrs(self, lu, piv, b):
        f, p, rhs = np.asarray(lu), np.asarray(piv), np.asarray(b)
        batch = f.shape[:-2]
        if rhs.shape[:-2] != batch or rhs.shape[-2] != f.shape[-1] or p.shape != f.shape[:-1]:
            raise ValueError(f"getrs: b {rhs.shape} and piv {p.shape} do not fit the factors {f.shape}")
        rhs = rhs.astype(f.dtype, copy=False)
        ff, _ = _flat(f)
        bb, _ = _flat(rhs)
        pp = p.reshape((-1, p.shape[-1]))
        lapack = _scipy_lapack()
        if lapack is None:
            x = _numpy_getrs(ff, pp, bb)
        else:
            fn = lapack.get_lapack_funcs("getrs", (ff,))
            x = np.empty(bb.shape, f.dtype)
            with np.errstate(all="ignore"):
                for i in range(ff.shape[0]):
                    x[i], _ = fn(ff[i], pp[i] - 1, bb[i])
        return self._wrap(x.reshape(rhs.shape))

    def syevd(self, a, lower, compute_v):
        h = np.asarray(a)
        uplo = "L" if lower else "U"
        if compute_v:
            (w, v), info = self._each(h, lambda m: tuple(np.linalg.eigh(m, UPLO=uplo)))
        else:
            (w,), info = self._each(h, lambda m: (np.linalg.eigvalsh(m, UPLO=uplo),))
            v = None
        return self._wrap(w), self._wrap(v), self._wrap(info)

    def gesvd(self, a, full_matrices, compute_uv):
        h = np.asarray(a)
        if compute_uv:
            (u, s, vh), info = self._each(h, lambda m: tuple(np.linalg.svd(m, full_matrices=full_matrices)))
        else:
            (s,), info = self._each(h, lambda m: (np.linalg.svd(m, compute_uv=False),))
            u = vh = None
        return self._wrap(u), self._wrap(s), self._wrap(vh), self._wrap(info)

    def geqrf(self, a):
        h, tau = np.linalg.qr(np.asarray(a), mode="raw")  # h: LAPACK's column-major array, read in C order
        return self._wrap(np.swapaxes(h, -1, -2)), self._wrap(tau)

    def orgqr(self, qr, tau, ncols):
        f, t = np.asarray(qr), np.asarray(tau)
        m, n = f.shape[-2:]
        k = t.shape[-1]
        if not k <= ncols <= m:
            raise ValueError(f"orgqr: ncols must lie in [{k}, {m}], not {ncols}")
        # the reflectors in an (M, ncols) array, as LAPACK's orgqr takes them
        work = np.zeros(f.shape[:-1] + (ncols,), f.dtype)
        c = min(n, ncols)
        work[..., :c] = f[..., :c]
        flat, batch = _flat(work)
        tt = t.reshape((-1, k))
        lapack = _scipy_lapack()
        if lapack is None:
            q = _numpy_orgqr(flat, tt)
        else:
            fn = lapack.get_lapack_funcs("ungqr" if f.dtype.kind == "c" else "orgqr", (flat,))
            q = np.empty_like(flat)
            for i in range(flat.shape[0]):
                q[i], _, _ = fn(flat[i], tt[i], lwork=max(64 * ncols, 1))
        return self._wrap(q.reshape(batch + (m, ncols)))

    def geev(self, a, compute_v):
        h = np.asarray(a)
        ct = _C64 if h.dtype in (_F32, _C64) else _C128
        if compute_v:
            (w, v), info = self._each(h, lambda m: tuple(x.astype(ct) for x in np.linalg.eig(m)))
        else:
            (w,), info = self._each(h, lambda m: (np.linalg.eigvals(m).astype(ct),))
            v = None
        return self._wrap(w), self._wrap(v), self._wrap(info)


def _numpy_getrf(flat):
    """LU with partial pivoting of the stack flat (B, n, n) in NumPy, as LAPACK's getf2 (pivots of largest
    |re| + |im| for complex, as izamax): (lu, 1-based piv, info)."""
    lu = np.array(flat, copy=True)
    nb, n = lu.shape[0], lu.shape[-1]
    piv = np.empty((nb, n), _INT64)
    info = np.zeros(nb, _INT32)
    rows = np.arange(nb)
    with np.errstate(all="ignore"):
        for k in range(n):
            col = lu[:, k:, k]
            size = np.abs(col.real) + np.abs(col.imag) if col.dtype.kind == "c" else np.abs(col)  # LAPACK's
            p = k + np.argmax(size, axis=1)
            piv[:, k] = p + 1
            row_k = lu[rows, k, :].copy()
            lu[rows, k, :] = lu[rows, p, :]
            lu[rows, p, :] = row_k
            pivot = lu[:, k, k]
            zero = pivot == 0
            info[(info == 0) & zero] = k + 1
            lu[:, k + 1:, k] /= np.where(zero, 1, pivot)[:, None]
            lu[:, k + 1:, k + 1:] -= lu[:, k + 1:, k, None] * lu[:, k, None, k + 1:]
    return lu, piv, info


def _numpy_getrs(lu, piv, b):
    """getrs in NumPy on stacks lu (B, n, n), piv (B, n), b (B, n, k)."""
    x = np.array(b, copy=True)
    nb, n = lu.shape[0], lu.shape[-1]
    rows = np.arange(nb)
    with np.errstate(all="ignore"):
        for i in range(n):
            p = piv[:, i] - 1
            row_i = x[rows, i, :].copy()
            x[rows, i, :] = x[rows, p, :]
            x[rows, p, :] = row_i
        for i in range(n):  # L y = P b, unit diagonal
            x[:, i + 1:, :] -= lu[:, i + 1:, i, None] * x[:, i, None, :]
        for i in range(n - 1, -1, -1):  # U x = y
            x[:, i, :] /= lu[:, i, i, None]
            x[:, :i, :] -= lu[:, :i, i, None] * x[:, i, None, :]
    return x


def _numpy_orgqr(work, tau):
    """orgqr in NumPy: Q's first ncols columns from the reflectors in work (B, M, ncols) and tau (B, k)."""
    nb, m, ncols = work.shape
    q = np.zeros_like(work)
    q[:, np.arange(ncols), np.arange(ncols)] = 1
    for j in range(tau.shape[-1] - 1, -1, -1):  # Q = H_1 (H_2 (... (H_k I)))
        v = np.zeros((nb, m), work.dtype)
        v[:, j] = 1
        v[:, j + 1:] = work[:, j + 1:, j]
        q -= tau[:, j, None, None] * v[:, :, None] * np.einsum("bm,bmc->bc", v.conj(), q)[:, None, :]
    return q


_HOST = _HostPrimitives()


def _primitive(x, name, numpy_out=False):
    """The primitive `name` of x's device: _HostPrimitives' for the host device, npgpu._linalg's for a GPU
    (imported here, so the host needs no CUDA module). Where the build lacks it: NotImplementedError, or,
    for a caller that gets NumPy back (numpy_out), the host's primitive on a host copy of x (its results
    on the host device, so the rest of the computation follows them there)."""
    if x.device == _runtime.cpu:
        return getattr(_HOST, name)
    module = _linalg_module()
    fn = getattr(module, name, None) if module is not None else None
    if fn is None and numpy_out:
        host_fn = getattr(_HOST, name)
        return lambda a, *args: host_fn(a.to_device("cpu"), *args)
    if fn is None:
        where = "its GPU module npgpu._linalg" if module is None else f"npgpu._linalg.{name}"
        raise NotImplementedError(f"npgpu.linalg needs {name} on {x.device}, and this build of npgpu lacks "
                                  f"{where}; move the array to the host with .to_device('cpu')")
    return fn


def _failed(info):
    """Whether any entry of `info` is nonzero: one device to host read."""
    return bool(info.size) and bool(_reduce.any(info))


def _check_info(info, message, check=True):
    """LinAlgError(message) where any entry of `info` is nonzero: one device to host read."""
    if check and _failed(info):
        raise LinAlgError(message)


# ------------------------------------------------------------------------------------------------ arguments

def _input(a):
    """(npgpu.Array, whether the caller gets NumPy back) for any input."""
    if isinstance(a, _array.Array):
        return a, False
    return _indexing._as_device_array(a)


def _inputs(arrays, name):
    """The inputs as npgpu.Arrays on one device, and whether the caller gets NumPy back (no input was an
    npgpu.Array)."""
    if any(isinstance(a, _array.Array) for a in arrays):
        return _manipulation._on_one_device(arrays, name), False
    return [_indexing._as_device_array(a)[0] for a in arrays], True


def _host(y):
    """The npgpu.Array y as NumPy (0-d as a NumPy scalar, as NumPy's functions return them)."""
    h = np.asarray(y) if y.device == _runtime.cpu else y.get()
    return h[()] if h.ndim == 0 else h


def _out(result, numpy_out):
    """A result (Array, tuple of them, None or a Python value) for the caller."""
    if not numpy_out:
        return result
    if isinstance(result, _array.Array):
        return _host(result)
    if isinstance(result, tuple):
        items = [_out(r, True) for r in result]
        return type(result)(*items) if hasattr(result, "_fields") else tuple(items)
    return result


def _compute_dtype(*dtypes):
    """The dtype numpy.linalg's result has (its _commonType's result_t): float32/complex64 stay, any
    float64/complex128, integer or bool makes it double, any complex complex; TypeError for the others
    (float16 and long double among them)."""
    double = cplx = False
    for dt in dtypes:
        dt = np.dtype(dt)
        if dt.kind in "fc":
            if dt in (_F64, _C128):
                double = True
            elif dt not in (_F32, _C64):
                raise TypeError(f"array type {dt.name} is unsupported in linalg")
            cplx |= dt.kind == "c"
        elif dt.kind in "biu":
            double = True
        else:
            raise TypeError(f"array type {dt.name} is unsupported in linalg")
    if cplx:
        return _C128 if double else _C64
    return _F64 if double else _F32


def _real_of(dt):
    return _F32 if dt in (_F32, _C64) else _F64


def _assert_stacked_2d(*arrays):
    for a in arrays:
        if a.ndim < 2:
            raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be at least two-dimensional")


def _assert_stacked_square(*arrays):
    _assert_stacked_2d(*arrays)
    for a in arrays:
        if a.shape[-1] != a.shape[-2]:
            raise LinAlgError("Last 2 dimensions of the array must be square")


def _on_zeros(fn, arrays, device, *args, **kwargs):
    """numpy.linalg's fn on zero arrays of the arrays' shapes and dtypes, as Arrays on `device`: NumPy's
    results for matrices with no elements, which depend on the shapes alone."""
    res = fn(*[np.zeros(a.shape, a.dtype) for a in arrays], *args, **kwargs)

    def move(r):
        if isinstance(r, (np.ndarray, np.generic)):
            return _array.asarray(_c_order(r), device=device)
        if isinstance(r, tuple):
            items = [move(x) for x in r]
            return type(r)(*items) if hasattr(r, "_fields") else tuple(items)
        return r
    return move(res)


def _cast(x, dt):
    return x if x.dtype == dt else x.astype(dt)


def _eye_like(n, dt, shape, device):
    return _manipulation.broadcast_to(_creation.eye(n, dtype=dt, device=device), shape)


def _diag(x):
    """The main diagonals of the stack x (..., M, N), a view where x is C-contiguous."""
    return _diagonal(x, 0)


def _diagonal(x, offset):
    if x.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    offset = operator.index(offset)
    m, n = x.shape[-2:]
    if offset >= 0:
        start, length = offset, max(0, min(m, n - offset))
    else:
        start, length = -offset * n, max(0, min(m + offset, n))
    flat = _manipulation.reshape(x, tuple(x.shape[:-2]) + (m * n,))
    if length == 0:
        return flat[..., 0:0]
    return flat[..., start:start + (length - 1) * (n + 1) + 1:n + 1]


def _col(v):
    """v (..., n) as (..., n, 1)."""
    return _manipulation.expand_dims(v, axis=-1)


def _row(v):
    return _manipulation.expand_dims(v, axis=-2)


# ------------------------------------------------------------------------------------------------ solve, inv, det

def _lu(a, dt):
    """getrf of a (cast to dt): (lu, piv, info)."""
    a = _cast(a, dt)
    return _primitive(a, "getrf")(a)


# Stacks of at least this many matrices of at most _SMALL_N rows solve on a GPU by batched elimination in
# array operations (about 20 launches a column for the whole stack) instead of one cuSOLVER getrf/getrs
# pair per matrix, which costs tens of microseconds each.
_SMALL_N = 16
_SMALL_BATCH = 16


def _use_batched_elimination(a, n, batch):
    return a.device != _runtime.cpu and n <= _SMALL_N and math.prod(batch) >= _SMALL_BATCH


# Matrices of at least this order solve on a GPU through a random butterfly transformation and LU without
# pivoting (see _butterfly_solve), one at a time; NPGPU_SOLVE_BUTTERFLY=0 turns that off, for measurements.
_BUTTERFLY_MIN_N = 256
_BUTTERFLY_MAX_STEPS = 4


def _use_butterfly_solve(a, n, dt):
    return (a.device != _runtime.cpu and dt in _FLOATS and n >= _BUTTERFLY_MIN_N
            and os.environ.get("NPGPU_SOLVE_BUTTERFLY", "1") != "0"
            and getattr(_linalg_module(), "butterfly_factor", None) is not None)


def _butterfly_solve_stack(a, b, n, batch, dt):
    """_butterfly_solve of each matrix of a stack (b's leading axes broadcast with a's), or None where one
    of them gives no answer (the whole stack then takes the pivoted route). Each matrix of `a` is factored
    once: the right-hand sides that broadcast against it are solved together, as one block of columns."""
    if batch == ():
        return _butterfly_solve(a, b, n, dt)
    tail = tuple(b.shape[-2:])
    k = tail[1]
    a_batch = tuple(a.shape[:-2])
    owner = np.broadcast_to(np.arange(math.prod(a_batch)).reshape(a_batch), batch).ravel()  # a's matrix per result
    a, b = _manipulation.reshape(a, (-1, n, n)), _stack_of(b, batch, tail)
    parts = [None] * len(owner)
    for j in range(a.shape[0]):
        mine = np.flatnonzero(owner == j)
        cols = _manipulation.stack([b[int(i)] for i in mine], axis=1)  # (n, len(mine), k)
        x = _butterfly_solve(a[j], _manipulation.reshape(cols, (n, len(mine) * k)), n, dt)
        if x is None:
            return None
        x = _manipulation.reshape(x, (n, len(mine), k))
        for t, i in enumerate(mine):
            parts[i] = x[:, t]
    return _manipulation.reshape(_manipulation.stack(parts), batch + tail)


def _butterfly_solve(a, b, n, dt):
    """x (n, k) of dtype dt with a @ x = b for one matrix a (n, n), or None where this route gives no
    answer it can vouch for (the caller then factors with partial pivoting, which also raises for a
    singular matrix).

    cuSOLVER's getrf with partial pivoting is bound by its pivot search (one per column, a few microseconds
    each at n = 4096); LU without pivoting runs at the speed of its matrix products, about five times
    faster there. Pivoting is made unnecessary with high probability by a random butterfly transformation
    (Parker 1995; Baboulin, Dongarra, Herrmann and Tomov 2013): W = U^T A V is factored in float64
    (complex128 for complex dt), and the solution refined against A itself until each column's residual
    meets LAPACK's iterative refinement test (dsgesv's): max|b - A x| <= max|x| * ||A||_inf * eps *
    sqrt(n), eps of dt.

    That test alone would pass a huge x for an exactly singular A (numpy.linalg raises there: getrf meets an
    exactly zero pivot), so a pivot of W below m * eps(float64) times the largest one also hands the matrix
    to the pivoted route, which then decides as LAPACK does. A solution that does not meet the test within
    _BUTTERFLY_MAX_STEPS refinements (a very ill-conditioned matrix, NaN or Inf, an unlucky transform) is
    discarded too."""
    gpu = _linalg_module()
    try:
        w, _ = gpu.butterfly_factor(a)  # an exactly zero pivot fails the pivot test below
        m = w.shape[0]
        pivots = abs(_diagonal(w, 0))
        pivots_ok = _reduce.min(pivots) > _reduce.max(pivots) * (m * float(np.finfo(_F64).eps))
        piv = _creation.arange(1, m + 1, dtype=_INT64, device=a.device)
        wide = w.dtype  # float64, or complex128 for complex input
        a64 = _cast(a, wide)
        b64 = _cast(b, wide)
        x = gpu.butterfly_solve(w, piv, b)
        bound = _reduce.max(_reduce.sum(abs(a), axis=1, dtype=_F64)) * (float(np.finfo(dt).eps) * math.sqrt(n))
        for step in range(_BUTTERFLY_MAX_STEPS + 1):
            r = b64 - a64 @ x
            converged = _reduce.all(_reduce.max(abs(r), axis=0) <= _reduce.max(abs(x), axis=0) * bound)
            if step == 0:  # both tests in one read back
                pivots_good, good = _manipulation.stack([pivots_ok, converged]).get()
                if not pivots_good:
                    return None
            else:
                good = bool(converged)
            if good:
                return _cast(x, dt)
            if step < _BUTTERFLY_MAX_STEPS:
                x = x + gpu.butterfly_solve(w, piv, r)
    except OutOfMemoryError:
        pass  # the transformed matrix is float64 and a copy: the pivoted route needs less memory
    return None


def _stack_of(x, batch, tail):
    """x broadcast to batch + tail as one stack (-1, *tail): x itself where it already is that stack (a small
    solve's time is mostly such host work)."""
    if len(batch) == 1 and tuple(x.shape) == batch + tail:
        return x
    return _manipulation.reshape(_manipulation.broadcast_to(x, batch + tail), (-1,) + tail)


def _batched_elimination_solve(a, b, check=True):
    """x for stacks of small systems on a GPU: float32/float64 in one kernel launch (_linalg.solve_small, a
    thread per system), complex by _elimination_in_array_operations."""
    module = _linalg_module()
    if a.device != _runtime.cpu and a.dtype in (np.float32, np.float64) and module is not None \
            and hasattr(module, "solve_small"):
        x, info = module.solve_small(a, b)
        _check_info(info, "Singular matrix", check)
        return x
    return _elimination_in_array_operations(a, b, check)


def _elimination_in_array_operations(a, b, check=True):
    """x with a @ x = b for a stack a (B, n, n) and b (B, n, k) of one float/complex dtype: Gaussian
    elimination with partial pivoting (the largest modulus of each column, the first among equals, as
    LAPACK picks real pivots), one array operation over the whole stack per step. LinAlgError("Singular
    matrix") for an exactly zero pivot, as getrf's info."""
    nb, n, k = b.shape
    a = a.copy()
    b = b.copy()
    base = _manipulation.broadcast_to(_creation.arange(n, device=a.device), (nb, n))
    for j in range(n):
        p = _reduce.argmax(_elementwise.absolute(a[:, j:, j]), axis=1) + j
        perm = base.copy()
        perm[:, j] = p
        _indexing.put_along_axis(perm, _col(p), j, axis=1)
        rows = _col(perm)
        a = _indexing.take_along_axis(a, _manipulation.broadcast_to(rows, (nb, n, n)), axis=1)
        b = _indexing.take_along_axis(b, _manipulation.broadcast_to(rows, (nb, n, k)), axis=1)
        if j + 1 < n:
            f = _col(a[:, j + 1:, j] / _col(a[:, j, j]))
            a[:, j + 1:, :] = a[:, j + 1:, :] - f * a[:, j:j + 1, :]
            b[:, j + 1:, :] = b[:, j + 1:, :] - f * b[:, j:j + 1, :]
    if check and bool(_reduce.any(_elementwise.equal(_diag(a), 0))):
        raise LinAlgError("Singular matrix")
    x = _array.empty(b.shape, dtype=b.dtype, device=b.device)
    for j in range(n - 1, -1, -1):
        r = b[:, j, :]
        if j + 1 < n:
            r = r - _reduce.sum(_col(a[:, j, j + 1:]) * x[:, j + 1:, :], axis=1)
        x[:, j, :] = r / _col(a[:, j, j])
    return x


def solve(a, b, *, check=True):
    """Solve the linear systems a @ x = b, as numpy.linalg.solve (NumPy 2).

    One LU factorisation of each matrix of `a` (getrf) and one solve (getrs); on a GPU, matrices of order
    256 or more go through a random butterfly transformation instead (see Notes).

    Parameters
    ----------
    a : npgpu.Array or array_like
        Square matrices (..., M, M).
    b : npgpu.Array or array_like
        (M,): one vector (x is then (..., M)); otherwise (..., M, K): K right-hand sides, the leading axes
        broadcast with a's.
    check : bool, optional
        npgpu's own keyword. True (default) reads getrf's info (one device to host read, a synchronisation)
        and raises LinAlgError for a singular matrix; False skips reading it: the solution of a singular
        matrix is then inf/NaN, and the butterfly route (which reads its tests back) is not taken.

    Returns
    -------
    x : npgpu.Array or numpy.ndarray
        (..., M) for b (M,), else (..., M, K) with the broadcast leading axes; the dtype numpy.linalg gives
        (float32 and complex64 stay, integers and bool become float64, any complex input makes it complex).
        An npgpu.Array on the inputs' device where either is an npgpu.Array, NumPy otherwise.

    Raises
    ------
    LinAlgError
        `a` has fewer than two dimensions or its matrices are not square; a matrix is singular (with
        `check`).
    ValueError
        `b` is 0-d, its rows do not match a's, or the leading axes do not broadcast; npgpu.Arrays on
        different devices.
    TypeError
        A dtype numpy.linalg does not support (float16 among them).

    See Also
    --------
    inv, lstsq

    Notes
    -----
    On a GPU, stacks of at least 16 matrices of at most 16 rows are solved by batched Gaussian elimination
    with partial pivoting instead (float32 and float64 in one kernel launch, a thread per system, where the
    build has it; otherwise array operations over the whole stack, about 20 launches a column, where an
    exactly zero pivot counts as singular), not one cuSOLVER getrf/getrs pair per matrix, which costs tens of
    microseconds each.

    On a GPU, matrices of order 256 or more are solved without pivoting, one at a time (the right-hand
    sides that broadcast against one matrix together): getrf's pivot search costs a few microseconds a
    column whatever the matrix, so at n = 4096 LU without pivoting is about five times faster. The matrix
    is first mixed by random butterflies, W = U^T A V (Parker 1995; Baboulin et al. 2013; fixed, so results
    are reproducible), which makes pivoting unnecessary with high probability; W is factored in float64
    (complex128 for complex input), and the solution is refined against A until every column passes
    LAPACK's iterative-refinement test, max|b - A x| <= max|x| * ||A||_inf * eps * sqrt(n) (usually at
    once, or after one step). Where a pivot of W is tiny (an exactly singular A among others), the test
    still fails after a few steps, or the inputs hold NaN or Inf, the matrices are solved by getrf with
    partial pivoting as above, whose answer, or LinAlgError, NumPy's matches. float32 and complex64
    results are more accurate than LAPACK's (double-precision arithmetic); a matrix that only
    single-precision elimination finds exactly singular is solved rather than refused.
    NPGPU_SOLVE_BUTTERFLY=0 turns the route off.

    Examples
    --------
    >>> a = npgpu.asarray([[3.0, 1.0], [1.0, 2.0]], device="cpu")
    >>> npgpu.linalg.solve(a, npgpu.asarray([9.0, 8.0], device="cpu"))
    Array([2., 3.])
    >>> npgpu.linalg.solve(np.array([[3.0, 1.0], [1.0, 2.0]]), [[9.0], [8.0]])
    array([[2.],
           [3.]])
    """
    (a, b), numpy_out = _inputs((a, b), "solve")
    _assert_stacked_square(a)
    dt = _compute_dtype(a.dtype, b.dtype)
    n = a.shape[-1]
    if b.ndim == 0:
        raise ValueError("solve: b must have at least one dimension")
    one = b.ndim == 1
    bm = _col(b) if one else b
    if bm.shape[-2] != n:
        raise ValueError(f"solve: a has {n} rows and columns, b has {bm.shape[-2]} rows: b must be (M,) or "
                         "(..., M, K)")
    batch = _manipulation.broadcast_shapes(tuple(a.shape[:-2]), tuple(bm.shape[:-2]))
    if a.size == 0 or bm.size == 0 or math.prod(batch) == 0:
        x = _array.zeros(batch + tuple(bm.shape[-2:]), dtype=dt, device=a.device)
        return _out(x[..., 0] if one else x, numpy_out)
    if _use_batched_elimination(a, n, batch):
        tail = tuple(bm.shape[-2:])
        x = _batched_elimination_solve(_stack_of(_cast(a, dt), batch, (n, n)), _stack_of(_cast(bm, dt), batch, tail),
                                       check)
        if len(batch) != 1:
            x = _manipulation.reshape(x, batch + tail)
        return _out(x[..., 0] if one else x, numpy_out)
    if check and _use_butterfly_solve(a, n, dt):
        x = _butterfly_solve_stack(_cast(a, dt), _cast(bm, dt), n, batch, dt)
        if x is not None:
            return _out(x[..., 0] if one else x, numpy_out)
    lu, piv, info = _lu(a, dt)
    _check_info(info, "Singular matrix", check)
    if tuple(lu.shape[:-2]) != batch:
        lu = _manipulation.broadcast_to(lu, batch + (n, n))
        piv = _manipulation.broadcast_to(piv, batch + (n,))
    bm = _manipulation.broadcast_to(_cast(bm, dt), batch + tuple(bm.shape[-2:]))
    x = _primitive(lu, "getrs")(lu, piv, bm)
    return _out(x[..., 0] if one else x, numpy_out)


def tensorsolve(a, b, axes=None, *, check=True):
    """Solve the tensor equation ``tensordot(a, x, axes=x.ndim) = b`` for x, as numpy.linalg.tensorsolve.

    `a` is reshaped to a square matrix (the product of b's shape by the product of the remaining axes), the
    system solved by :func:`solve` (one LU factorisation), and x given the remaining axes' shape.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Coefficients; its leading ``b.ndim`` axes (after `axes` are moved to the end) match b's shape.
    b : npgpu.Array or array_like
        Right-hand side, of any shape.
    axes : tuple of ints, optional
        Axes of `a` to move to the end (in this order) before the reshape, as NumPy.
    check : bool, optional
        npgpu's own keyword, as in :func:`solve`.

    Returns
    -------
    x : npgpu.Array or numpy.ndarray
        Of shape ``a.shape[b.ndim:]`` (after moving `axes`); an npgpu.Array on the inputs' device where either is
        an npgpu.Array, NumPy otherwise.

    Raises
    ------
    LinAlgError
        The product of ``a.shape[b.ndim:]`` squared is not a.size (the reshaped matrix would not be square),
        or that matrix is singular (with `check`).
    ValueError
        `axes` not axes of `a`; npgpu.Arrays on different devices.
    TypeError
        A dtype numpy.linalg does not support.

    See Also
    --------
    solve, tensorinv, tensordot

    Examples
    --------
    >>> a = npgpu.asarray(np.eye(6).reshape(6, 2, 3), device="cpu")
    >>> x = npgpu.linalg.tensorsolve(a, npgpu.asarray(np.arange(6.0), device="cpu"))
    >>> x.shape, bool(npgpu.all(npgpu.tensordot(a, x, axes=2) == npgpu.arange(6.0, device="cpu")))
    ((2, 3), True)
    """
    (a, b), numpy_out = _inputs((a, b), "tensorsolve")
    if axes is not None:
        moved = [_axis(k, a.ndim) for k in axes]
        a = _manipulation.permute_dims(a, tuple(k for k in range(a.ndim) if k not in moved) + tuple(moved))
    old_shape = tuple(a.shape[-(a.ndim - b.ndim):])  # NumPy's slice, a.ndim <= b.ndim included
    n = math.prod(old_shape)
    if a.size != n * n:
        raise LinAlgError("tensorsolve: input arrays must satisfy the requirement "
                          "prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])")
    x = solve(_manipulation.reshape(a, (n, n)), _manipulation.reshape(b, (n,)), check=check)
    return _out(_manipulation.reshape(x, old_shape), numpy_out)


def tensorinv(a, ind=2, *, check=True):
    """The inverse of an N-d array for tensordot, as numpy.linalg.tensorinv: ``tensordot(tensorinv(a, ind), a,
    ind)`` is the identity over ``a.shape[ind:]``.

    Parameters
    ----------
    a : npgpu.Array or array_like
        An array whose leading `ind` axes and remaining axes hold the same number of elements.
    ind : int, optional
        How many leading axes form the "rows" (default 2); must be positive.
    check : bool, optional
        npgpu's own keyword, as in :func:`inv`.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Of shape ``a.shape[ind:] + a.shape[:ind]``; an npgpu.Array on a's device for npgpu.Array input, NumPy
        otherwise.

    Raises
    ------
    ValueError
        `ind` not positive; no element in ``a.shape[ind:]``.
    LinAlgError
        The reshaped matrix is not square, or singular (with `check`).
    TypeError
        A dtype numpy.linalg does not support.

    See Also
    --------
    inv, tensorsolve, tensordot

    Examples
    --------
    >>> a = npgpu.asarray(np.eye(4 * 6).reshape(4, 6, 8, 3), device="cpu")
    >>> npgpu.linalg.tensorinv(a, ind=2).shape
    (8, 3, 4, 6)
    """
    a, numpy_out = _input(a)
    if operator.index(ind) <= 0:
        raise ValueError("tensorinv: invalid ind argument (must be positive)")
    rows = math.prod(a.shape[ind:])
    if rows == 0:  # NumPy's reshape to (0, -1) fails the same way
        raise ValueError(f"tensorinv: cannot invert a of shape {a.shape}: the axes after ind={ind} hold no element")
    inverse = inv(_manipulation.reshape(a, (rows, a.size // rows)), check=check)
    return _out(_manipulation.reshape(inverse, tuple(a.shape[ind:]) + tuple(a.shape[:ind])), numpy_out)


def inv(a, *, check=True):
    """The inverse of each matrix of a stack, as numpy.linalg.inv.

    getrf, then getrs with the identity (stacks of small matrices on a GPU: batched elimination, as solve;
    matrices of order 256 or more on a GPU: solve's random-butterfly route, with the identity as the
    right-hand sides).

    Parameters
    ----------
    a : npgpu.Array or array_like
        Square matrices (..., M, M).
    check : bool, optional
        npgpu's own keyword. True (default) raises LinAlgError for a singular matrix (reading getrf's info,
        one device to host read); False skips the check, as in solve (the inverse of a singular matrix is
        then inf/NaN).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        (..., M, M), the dtype numpy.linalg gives (float32 and complex64 stay, integers and bool become
        float64). An npgpu.Array on a's device for npgpu.Array input, NumPy otherwise.

    Raises
    ------
    LinAlgError
        `a` has fewer than two dimensions or is not square; a matrix is singular (with `check`).
    TypeError
        A dtype numpy.linalg does not support (float16 among them).

    See Also
    --------
    solve, pinv

    Examples
    --------
    >>> npgpu.linalg.inv(npgpu.asarray([[2.0, 1.0], [1.0, 1.0]], device="cpu"))
    Array([[ 1., -1.],
           [-1.,  2.]])
    >>> npgpu.linalg.inv(np.array([[1.0, 2.0], [2.0, 4.0]]))
    Traceback (most recent call last):
        ...
    numpy.linalg.LinAlgError: Singular matrix
    """
    a, numpy_out = _input(a)
    _assert_stacked_square(a)
    dt = _compute_dtype(a.dtype)
    if a.size == 0:
        return _out(_on_zeros(np.linalg.inv, [a], a.device), numpy_out)
    n = a.shape[-1]
    batch = tuple(a.shape[:-2])
    if _use_batched_elimination(a, n, batch):
        flat = _manipulation.reshape(_cast(a, dt), (-1, n, n))
        eye = _manipulation.broadcast_to(_creation.eye(n, dtype=dt, device=a.device), flat.shape)
        x = _batched_elimination_solve(flat, eye, check)
        return _out(_manipulation.reshape(x, tuple(a.shape)), numpy_out)
    if check and _use_butterfly_solve(a, n, dt):
        x = _butterfly_solve_stack(_cast(a, dt), _creation.eye(n, dtype=dt, device=a.device), n, batch, dt)
        if x is not None:
            return _out(x, numpy_out)
    lu, piv, info = _lu(a, dt)
    _check_info(info, "Singular matrix", check)
    x = _primitive(lu, "getrs")(lu, piv, _eye_like(n, dt, tuple(a.shape), a.device))
    return _out(x, numpy_out)


def _permutation_sign(piv, dt):
    """(-1) ** (the number of row swaps getrf's piv records), as dtype dt."""
    n = piv.shape[-1]
    ident = _creation.arange(1, n + 1, dtype=_INT64, device=piv.device)
    swaps = _reduce.count_nonzero(_elementwise.not_equal(piv, ident), axis=-1)
    return _cast(1 - 2 * _elementwise.remainder(swaps, 2), dt)


def det(a):
    """The determinant of each matrix of a stack, as numpy.linalg.det.

    The product of the diagonal of getrf's U, signed by the parity of its row swaps.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Square matrices (..., M, M).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        (...), the dtype numpy.linalg gives (float32 and complex64 stay, integers and bool become float64);
        0 for a singular matrix (no error), NaN for a matrix that holds a NaN. An npgpu.Array on a's device
        for npgpu.Array input, NumPy otherwise (a NumPy scalar for one matrix).

    Raises
    ------
    LinAlgError
        `a` has fewer than two dimensions or is not square.
    TypeError
        A dtype numpy.linalg does not support (float16 among them).

    See Also
    --------
    slogdet

    Examples
    --------
    >>> npgpu.linalg.det(npgpu.asarray([[1.0, 2.0], [3.0, 4.0]], device="cpu"))
    Array(-2.)
    >>> npgpu.linalg.det(np.array([[[1, 2], [3, 4]], [[2, 0], [0, 2]]]))
    array([-2.,  4.])
    """
    a, numpy_out = _input(a)
    _assert_stacked_square(a)
    dt = _compute_dtype(a.dtype)
    if a.size == 0:
        return _out(_on_zeros(np.linalg.det, [a], a.device), numpy_out)
    lu, piv, _ = _lu(a, dt)
    d = _reduce.prod(_diag(lu), axis=-1, dtype=dt) * _permutation_sign(piv, dt)
    return _out(_elementwise.where(_has_nan(a), np.nan, d), numpy_out)


def slogdet(a):
    """Sign and logarithm of the absolute value of the determinant of each matrix of a stack, as
    numpy.linalg.slogdet.

    Both from getrf's U; logabsdet = log |det| is computed as a sum of logarithms (no overflow).

    Parameters
    ----------
    a : npgpu.Array or array_like
        Square matrices (..., M, M).

    Returns
    -------
    SlogdetResult
        (sign, logabsdet), each (...). sign: 1 or -1 (complex of modulus 1 for complex `a`; 0 for a singular
        matrix, logabsdet then -inf), of the dtype numpy.linalg gives; logabsdet: real. Both NaN for a
        matrix that holds a NaN. npgpu.Arrays on a's device for npgpu.Array input, NumPy otherwise.

    Raises
    ------
    LinAlgError
        `a` has fewer than two dimensions or is not square.
    TypeError
        A dtype numpy.linalg does not support (float16 among them).

    See Also
    --------
    det

    Examples
    --------
    >>> sign, logabsdet = npgpu.linalg.slogdet(npgpu.asarray([[1.0, 2.0], [3.0, 4.0]], device="cpu"))
    >>> sign, logabsdet
    (Array(-1.), Array(0.69314718))
    >>> sign, logabsdet = npgpu.linalg.slogdet(np.eye(3) * 1e200)  # det itself would overflow
    >>> float(sign), float(logabsdet)
    (1.0, 1381.55...)
    """
    a, numpy_out = _input(a)
    _assert_stacked_square(a)
    dt = _compute_dtype(a.dtype)
    if a.size == 0:
        return _out(_on_zeros(np.linalg.slogdet, [a], a.device), numpy_out)
    lu, piv, _ = _lu(a, dt)
    d = _diag(lu)
    absd = _elementwise.abs(d)
    if dt.kind == "c":
        unit = d / _cast(_elementwise.where(absd == 0, 1, absd), _real_of(dt))
    else:
        unit = _elementwise.sign(d)
    sign = _reduce.prod(unit, axis=-1, dtype=dt) * _permutation_sign(piv, dt)
    logabs = _reduce.sum(_elementwise.log(absd), axis=-1, dtype=_real_of(dt))
    nan = _has_nan(a)
    sign, logabs = _elementwise.where(nan, np.nan, sign), _elementwise.where(nan, np.nan, logabs)
    return _out(SlogdetResult(sign, logabs), numpy_out)


def _has_nan(a):
    """Per matrix of a: whether it holds a NaN. cuSOLVER's getrf can return a finite U for such a matrix
    (seen on an H100: det [[1, nan], [2, 3]] = 3), where LAPACK's propagates the NaN."""
    return _reduce.any(_elementwise.isnan(a), axis=(-2, -1))


# ------------------------------------------------------------------------------------------------ factorisations

def cholesky(a, /, *, upper=False, check=True):
    """The Cholesky factor of each Hermitian positive-definite matrix of a stack, as numpy.linalg.cholesky.

    Lower L with a = L @ L^H, read from a's lower triangle, or with ``upper=True`` upper U with
    a = U^H @ U, read from the upper triangle; the other triangle of the factor is zero (potrf).

    Parameters
    ----------
    a : npgpu.Array or array_like
        Hermitian positive-definite matrices (..., M, M); only the triangle named by `upper` is read.
    upper : bool, optional
        False (default): the lower factor L; True: the upper factor U.
    check : bool, optional
        npgpu's own keyword. True (default) reads potrf's info (one device to host read) and raises
        LinAlgError where a matrix is not positive definite; False skips reading it (the results of such a
        matrix are then unspecified, NaN on the host).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        (..., M, M), the dtype numpy.linalg gives (float32 and complex64 stay, integers and bool become
        float64). An npgpu.Array on a's device for npgpu.Array input, NumPy otherwise.

    Raises
    ------
    LinAlgError
        `a` has fewer than two dimensions or is not square; a matrix is not positive definite (with
        `check`).
    TypeError
        A dtype numpy.linalg does not support (float16 among them).

    Examples
    --------
    >>> a = npgpu.asarray([[4.0, 2.0], [2.0, 5.0]], device="cpu")
    >>> npgpu.linalg.cholesky(a)
    Array([[2., 0.],
           [1., 2.]])
    >>> npgpu.linalg.cholesky(a, upper=True)
    Array([[2., 1.],
           [0., 2.]])
    >>> npgpu.linalg.cholesky(np.array([[1.0, 2.0], [2.0, 1.0]]))
    Traceback (most recent call last):
        ...
    numpy.linalg.LinAlgError: Matrix is not positive definite
    """
    a, numpy_out = _input(a)
    _assert_stacked_square(a)
    dt = _compute_dtype(a.dtype)
    if a.size == 0:
        return _out(_on_zeros(np.linalg.cholesky, [a], a.device, upper=upper), numpy_out)
    a = _cast(a, dt)
    f, info = _primitive(a, "potrf")(a, not upper)
    _check_info(info, "Matrix is not positive definite", check)
    return _out(f, numpy_out)


def qr(a, mode="reduced"):
    """The QR factorisation of each matrix of a stack, as numpy.linalg.qr.

    Householder QR (geqrf), Q formed from the reflectors (orgqr).

    Parameters
    ----------
    a : npgpu.Array or array_like
        Matrices (..., M, N); K = min(M, N) below.
    mode : {"reduced", "complete", "r", "raw"}, optional
        "reduced" (default): Q (..., M, K), R (..., K, N); "complete": Q (..., M, M), R (..., M, N); "r": R
        (..., K, N) only; "raw": (h, tau), LAPACK's Householder reflectors and R, h as NumPy gives it (the
        factor's last two axes swapped), tau (..., K). As NumPy, the deprecated "full"/"f" (a
        DeprecationWarning, then "reduced") and "economic"/"e" (a DeprecationWarning; geqrf's factor, R on
        and above the diagonal and the reflectors below it, (..., M, N)) are accepted too.

    Returns
    -------
    QRResult or npgpu.Array or tuple
        A QRResult (Q, R) for "reduced" and "complete", R alone for "r", the tuple (h, tau) for "raw"; of
        the dtype numpy.linalg gives (float32 and complex64 stay, integers and bool become float64).
        npgpu.Arrays on a's device for npgpu.Array input, NumPy otherwise.

    Raises
    ------
    ValueError
        An unrecognized `mode`.
    LinAlgError
        `a` has fewer than two dimensions.
    TypeError
        A dtype numpy.linalg does not support (float16 among them).
    NotImplementedError
        npgpu.Array input on a GPU whose build of npgpu._linalg lacks geqrf or orgqr (NumPy input then runs
        that primitive, and what follows it, on the host).

    Examples
    --------
    >>> q, r = npgpu.linalg.qr(npgpu.asarray([[3.0, 1.0], [4.0, 2.0]], device="cpu"))
    >>> r
    Array([[-5. , -2.2],
           [ 0. ,  0.4]])
    >>> a = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    >>> q, r = npgpu.linalg.qr(a, mode="complete")
    >>> q.shape, r.shape, bool(np.allclose(q @ r, a))
    ((3, 3), (3, 2), True)
    """
    if mode not in ("reduced", "complete", "r", "raw"):
        if mode in ("f", "full"):
            warnings.warn("The 'full' option is deprecated in favor of 'reduced'.\nFor backward compatibility "
                          "let mode default.", DeprecationWarning, stacklevel=2)
            mode = "reduced"
        elif mode in ("e", "economic"):
            warnings.warn("The 'economic' option is deprecated.", DeprecationWarning, stacklevel=2)
            mode = "economic"
        else:
            raise ValueError(f"Unrecognized mode '{mode}'")
    a, numpy_out = _input(a)
    _assert_stacked_2d(a)
    dt = _compute_dtype(a.dtype)
    if a.size == 0:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            res = _on_zeros(np.linalg.qr, [a], a.device, mode=mode)
        if mode == "raw":
            res = (res[0], res[1])
        return _out(res, numpy_out)
    m, n = a.shape[-2:]
    k = min(m, n)
    a = _cast(a, dt)
    f, tau = _primitive(a, "geqrf", numpy_out)(a)
    if mode == "raw":
        return _out((_manipulation.swapaxes(f, -1, -2).copy(), tau), numpy_out)
    if mode == "economic":
        return _out(f, numpy_out)
    ncols = m if mode == "complete" else k
    r = _creation.triu(f[..., :ncols, :] if ncols < m else f)
    if mode == "r":
        return _out(r, numpy_out)
    q = _primitive(f, "orgqr", numpy_out)(f, tau, ncols)
    return _out(QRResult(q, r), numpy_out)


def _uplo(UPLO):
    u = UPLO.upper() if isinstance(UPLO, str) else UPLO
    if u not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    return u == "L"


def _syevd(a, lower, compute_v, check):
    _assert_stacked_square(a)
    dt = _compute_dtype(a.dtype)
    a = _cast(a, dt)
    w, v, info = _primitive(a, "syevd")(a, lower, compute_v)
    _check_info(info, "Eigenvalues did not converge", check)
    return w, v


def eigh(a, UPLO="L", *, check=True):
    """Eigenvalues and eigenvectors of each Hermitian matrix of a stack, as numpy.linalg.eigh.

    Read from the lower (``UPLO="L"``) or upper (``"U"``) triangle of each matrix; syevd.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Hermitian matrices (..., M, M); only the triangle named by `UPLO` is read.
    UPLO : {"L", "U"}, optional
        The triangle read (default "L"; lower case is accepted too).
    check : bool, optional
        npgpu's own keyword. True (default) reads syevd's info (one device to host read) and raises
        LinAlgError where it does not converge; False skips reading it.

    Returns
    -------
    EighResult
        (eigenvalues, eigenvectors): eigenvalues (..., M), real, ascending; eigenvectors (..., M, M), the
        columns of each matrix, of the dtype numpy.linalg gives (float32 and complex64 stay, integers and
        bool become float64). npgpu.Arrays on a's device for npgpu.Array input, NumPy otherwise.

    Raises
    ------
    ValueError
        `UPLO` is not "L" or "U".
    LinAlgError
        `a` has fewer than two dimensions or is not square; the decomposition does not converge (with
        `check`).
    TypeError
        A dtype numpy.linalg does not support (float16 among them).

    See Also
    --------
    eigvalsh, eig

    Examples
    --------
    >>> w, v = npgpu.linalg.eigh(npgpu.asarray([[2.0, 1.0], [1.0, 2.0]], device="cpu"))
    >>> w
    Array([1., 3.])
    >>> a = np.array([[2.0, 1.0], [1.0, 2.0]])
    >>> w, v = npgpu.linalg.eigh(a)
    >>> bool(np.allclose(a @ v, v * w))
    True
    """
    lower = _uplo(UPLO)
    a, numpy_out = _input(a)
    _assert_stacked_square(a)
    if a.size == 0:
        _compute_dtype(a.dtype)
        return _out(_on_zeros(np.linalg.eigh, [a], a.device, UPLO=UPLO), numpy_out)
    w, v = _syevd(a, lower, True, check)
    return _out(EighResult(w, v), numpy_out)


def eigvalsh(a, UPLO="L", *, check=True):
    """The eigenvalues of each Hermitian matrix of a stack, as numpy.linalg.eigvalsh (see eigh).

    Parameters
    ----------
    a : npgpu.Array or array_like
        Hermitian matrices (..., M, M); only the triangle named by `UPLO` is read.
    UPLO : {"L", "U"}, optional
        The triangle read (default "L"; lower case is accepted too).
    check : bool, optional
        npgpu's own keyword. True (default) raises LinAlgError where syevd does not converge (one device to
        host read); False skips the check.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        (..., M), real, ascending. An npgpu.Array on a's device for npgpu.Array input, NumPy otherwise.

    Raises
    ------
    ValueError, LinAlgError, TypeError
        As eigh.

    See Also
    --------
    eigh

    Examples
    --------
    >>> npgpu.linalg.eigvalsh(npgpu.asarray([[2.0, 1.0], [1.0, 2.0]], device="cpu"))
    Array([1., 3.])
    >>> npgpu.linalg.eigvalsh(np.array([[2.0, 99.0], [1.0, 2.0]]))  # the lower triangle only
    array([1., 3.])
    """
    lower = _uplo(UPLO)
    a, numpy_out = _input(a)
    _assert_stacked_square(a)
    if a.size == 0:
        _compute_dtype(a.dtype)
        return _out(_on_zeros(np.linalg.eigvalsh, [a], a.device, UPLO=UPLO), numpy_out)
    return _out(_syevd(a, lower, False, check)[0], numpy_out)


def _geev(a, compute_v, check, numpy_out):
    _assert_stacked_square(a)
    dt = _compute_dtype(a.dtype)
    if a.size == 0:
        fn = np.linalg.eig if compute_v else np.linalg.eigvals
        return _on_zeros(fn, [a], a.device)
    if not bool(_reduce.all(_elementwise.isfinite(a))):
        raise LinAlgError("Array must not contain infs or NaNs")
    a = _cast(a, dt)
    w, v, info = _primitive(a, "geev", numpy_out)(a, compute_v)
    _check_info(info, "Eigenvalues did not converge", check)
    if dt.kind != "c" and not bool(_reduce.any(_elementwise.not_equal(_elementwise.imag(w), 0))):
        w = _elementwise.real(w).copy()  # NumPy's rule: real results where every eigenvalue is real
        v = None if v is None else _elementwise.real(v).copy()
    return (w, v) if compute_v else w


def eig(a, *, check=True):
    """Eigenvalues and right eigenvectors of each square matrix of a stack, as numpy.linalg.eig.

    geev: on a GPU cuSOLVER's (cusolverDnXgeev, one matrix of the stack at a time; real matrices in real
    arithmetic, so real eigenvalues come out exactly real and complex ones in exact conjugate pairs, as
    LAPACK's), on the host NumPy's. The call waits for the device (cuSOLVER's host work area).

    Parameters
    ----------
    a : npgpu.Array or array_like
        Square matrices (..., M, M).
    check : bool, optional
        npgpu's own keyword. True (default) reads geev's info (one device to host read) and raises
        LinAlgError where it does not converge; False skips reading it.

    Returns
    -------
    EigResult
        (eigenvalues, eigenvectors): eigenvalues (..., M), eigenvectors (..., M, M), the columns of each
        matrix. Real results for real input whose eigenvalues are all real, complex otherwise (complex64 for
        float32 and complex64 input, else complex128). npgpu.Arrays on a's device for npgpu.Array input,
        NumPy otherwise.

    Raises
    ------
    LinAlgError
        `a` has fewer than two dimensions, is not square, or holds infs or NaNs; the decomposition does not
        converge (with `check`).
    TypeError
        A dtype numpy.linalg does not support (float16 among them).
    NotImplementedError
        npgpu.Array input on a GPU whose build of npgpu._linalg lacks geev (NumPy input then runs geev, and
        what follows it, on the host).

    See Also
    --------
    eigvals, eigh

    Examples
    --------
    >>> w, v = npgpu.linalg.eig(npgpu.asarray([[2.0, 0.0], [0.0, 3.0]], device="cpu"))
    >>> w
    Array([2., 3.])
    >>> npgpu.linalg.eig(np.array([[0.0, -1.0], [1.0, 0.0]])).eigenvalues
    array([0.+1.j, 0.-1.j])
    """
    a, numpy_out = _input(a)
    res = _geev(a, True, check, numpy_out)
    return _out(res if isinstance(res, tuple) and hasattr(res, "_fields") else EigResult(*res), numpy_out)


def eigvals(a, *, check=True):
    """The eigenvalues of each square matrix of a stack, as numpy.linalg.eigvals (see eig).

    Parameters
    ----------
    a : npgpu.Array or array_like
        Square matrices (..., M, M).
    check : bool, optional
        npgpu's own keyword. True (default) raises LinAlgError where geev does not converge (one device to
        host read); False skips the check.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        (..., M): real for real input whose eigenvalues are all real, complex otherwise (as eig). An
        npgpu.Array on a's device for npgpu.Array input, NumPy otherwise.

    Raises
    ------
    LinAlgError, TypeError, NotImplementedError
        As eig.

    See Also
    --------
    eig

    Examples
    --------
    >>> npgpu.linalg.eigvals(npgpu.asarray([[2.0, 1.0], [0.0, 3.0]], device="cpu"))
    Array([2., 3.])
    >>> npgpu.linalg.eigvals(np.array([[1.0, np.inf], [0.0, 1.0]]))
    Traceback (most recent call last):
        ...
    numpy.linalg.LinAlgError: Array must not contain infs or NaNs
    """
    a, numpy_out = _input(a)
    return _out(_geev(a, False, check, numpy_out), numpy_out)


def _gesvd(a, full_matrices, compute_uv, check=True, message="SVD did not converge"):
    """gesvd of a (a stack of matrices with elements, already of a linalg dtype), info checked."""
    u, s, vh, info = _primitive(a, "gesvd")(a, full_matrices, compute_uv)
    _check_info(info, message, check)
    return u, s, vh


def _flipped(x, axis=-1):
    return _manipulation.flip(x, axis=axis)


# The SVD of large real matrices through the QDWH polar decomposition a = U_p H and the symmetric eigen-
# decomposition H = V diag(s) V^T (Nakatsukasa and Higham, SIAM J. Sci. Comput. 35(3), 2013): GEMMs, QR,
# Cholesky and syevd, several times faster on a GPU than gesvd's bidiagonalisation. NPGPU_SVD=gesvd or qdwh
# overrides the choice (for comparisons and tests); NPGPU_SVD_QDWH_MIN is the smallest min(M, N) it takes.
# The assumed lower bound of the scaled singular values: one below it only costs steps (zero singular values
# converge from rounding noise, within the step limit).
_QDWH_LOW = {_F32: 1e-6, _F64: 1e-12}
_QDWH_MAX_STEPS = 24


def _qdwh_route(a, dt, full_matrices, compute_uv):
    """Whether svd takes the QDWH route for `a` (its compute dtype dt)."""
    choice = os.environ.get("NPGPU_SVD", "auto")
    if choice == "gesvd" or a.ndim != 2 or dt not in _QDWH_LOW:
        return False
    m, n = a.shape
    if full_matrices and compute_uv and m != n:  # U or Vh would need an orthogonal complement
        return False
    if choice == "qdwh":
        return True
    return a.device != _runtime.cpu and min(m, n) >= int(os.environ.get("NPGPU_SVD_QDWH_MIN", "512"))


def _qdwh_weights(low):
    """The weights (a, b, c) of QDWH's step x <- x (a I + b x^T x) (I + c x^T x)^-1 for the lower bound `low`
    of x's singular values."""
    low = min(low, 1.0)
    l2 = low * low
    d = (4.0 * (1.0 - l2) / (l2 * l2)) ** (1.0 / 3.0)
    sd = math.sqrt(1.0 + d)
    wa = sd + 0.5 * math.sqrt(8.0 - 4.0 * d + 8.0 * (2.0 - l2) / (l2 * sd))
    wb = (wa - 1.0) ** 2 / 4.0
    return wa, wb, wa + wb - 1.0


def _frobenius(x):
    return math.sqrt(float(_reduce.sum(x * x)))


def _polar_qdwh(x):
    """The orthogonal polar factor of the real M x N matrix x (M >= N, 2-norm at most 1), or None where QDWH
    does not converge within _QDWH_MAX_STEPS or a Cholesky step fails."""
    m, n = x.shape
    eps = float(np.finfo(x.dtype).eps) / 2
    eye = _creation.eye(n, dtype=x.dtype, device=x.device)
    low = _QDWH_LOW[x.dtype]
    for _ in range(_QDWH_MAX_STEPS):
        wa, wb, wc = _qdwh_weights(low)
        prev = x
        if wc > 100:  # the QR form: the Cholesky form is backward stable only for c <= 100
            stacked = _manipulation.concatenate([x * math.sqrt(wc), eye])
            q = _primitive(x, "orgqr")(*_primitive(x, "geqrf")(stacked), n)
            x = x * (wb / wc) + _blas.matmul(q[:m], q[m:].mT) * ((wa - wb / wc) / math.sqrt(wc))
        else:  # x (I + c x^T x)^-1 as (Z^-1 x^T)^T through the Cholesky factor of Z = I + c x^T x
            z = _blas.matmul(x.mT, x) * wc + eye
            f, info = _primitive(z, "potrf")(z, True)
            if _failed(info):
                return None
            x = x * (wb / wc) + _primitive(f, "potrs")(f, x.mT).mT * (wa - wb / wc)
        low = low * (wa + wb * low * low) / (1.0 + wc * low * low)
        if abs(1.0 - low) < 10 * eps and _frobenius(x - prev) < eps ** (1.0 / 3.0):
            return x
    return None


def _svd_qdwh(a, compute_uv):
    """(u, s, vh) of the real matrix a (u, vh None without compute_uv; the reduced factors), or None where the
    QDWH route does not apply to its values (not finite, zero) or did not give an orthogonal factor: gesvd
    then decomposes it."""
    m, n = a.shape
    if m < n:  # a^T = U S V^T gives a = V S U^T
        r = _svd_qdwh(a.mT, compute_uv)
        return None if r is None else (None if r[2] is None else r[2].mT.copy(), r[1],
                                       None if r[0] is None else r[0].mT.copy())
    amax = float(_reduce.max(_elementwise.abs(a)))
    if not 0 < amax < math.inf:
        return None
    scaled = a * (1.0 / amax)
    up = _polar_qdwh(scaled * (1.0 / _frobenius(scaled)))  # the Frobenius norm bounds the 2-norm
    if up is None:
        return None
    h = _blas.matmul(up.mT, a)
    h = (h + h.mT) * 0.5
    w, v, info = _primitive(h, "syevd")(h, True, compute_uv)
    if _failed(info):
        return None
    s = _elementwise.abs(w)  # H is positive semidefinite: negative eigenvalues are rounding
    if not compute_uv:
        return None, _flipped(_sorting.sort(s)), None
    # Where A has zero singular values, U_p may miss directions of the range: check U_p^T U_p = I.
    n_eps = float(np.finfo(a.dtype).eps) / 2
    gram = _blas.matmul(up.mT, up) - _creation.eye(n, dtype=a.dtype, device=a.device)
    if not float(_reduce.max(_elementwise.abs(gram))) <= 10 * math.sqrt(n) * n_eps:
        return None
    u = _blas.matmul(up, v * _row(_cast(_elementwise_composed.copysign(1.0, w), a.dtype)))
    order = _flipped(_sorting.argsort(s))  # descending
    return (_indexing.take_along_axis(u, _row(order), axis=-1), _indexing.take_along_axis(s, order, axis=-1),
            _indexing.take_along_axis(v, _row(order), axis=-1).mT.copy())


def svd(a, full_matrices=True, compute_uv=True, hermitian=False, *, check=True):
    """The singular value decomposition a = U @ diag(S) @ Vh of each matrix of a stack, as numpy.linalg.svd.

    gesvd, or with ``hermitian=True`` the eigen-decomposition (syevd) of a Hermitian `a`, as NumPy. A single
    real matrix on a GPU with min(M, N) >= 512 (square, or with ``full_matrices=False`` or without U and Vh)
    goes through the QDWH polar decomposition a = U_p H and the eigen-decomposition of H instead: several
    times faster, as accurate; gesvd takes over where U_p comes out not orthogonal (exactly singular
    matrices). The environment variable NPGPU_SVD=gesvd or NPGPU_SVD=qdwh forces one route (qdwh where it
    applies: real single matrices, on either device), NPGPU_SVD_QDWH_MIN sets the size it starts at.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Matrices (..., M, N); K = min(M, N) below.
    full_matrices : bool, optional
        True (default): U (..., M, M) and Vh (..., N, N); False: U (..., M, K) and Vh (..., K, N).
    compute_uv : bool, optional
        True (default): U, S and Vh; False: S alone.
    hermitian : bool, optional
        True: `a` is Hermitian (square), read from its lower triangle, and decomposed by syevd; S is then the
        absolute values of the eigenvalues, sorted descending. Default False.
    check : bool, optional
        npgpu's own keyword. True (default) reads the decomposition's info (one device to host read) and
        raises LinAlgError where it does not converge; False skips reading it.

    Returns
    -------
    SVDResult or npgpu.Array or numpy.ndarray
        An SVDResult (U, S, Vh), or S alone without `compute_uv`. S (..., K): real, descending; U and Vh of
        the dtype numpy.linalg gives (float32 and complex64 stay, integers and bool become float64).
        npgpu.Arrays on a's device for npgpu.Array input, NumPy otherwise.

    Raises
    ------
    LinAlgError
        `a` has fewer than two dimensions (or is not square, with `hermitian`); the decomposition does not
        converge (with `check`).
    TypeError
        A dtype numpy.linalg does not support (float16 among them).

    See Also
    --------
    svdvals, pinv

    Examples
    --------
    >>> u, s, vh = npgpu.linalg.svd(npgpu.asarray([[3.0, 0.0], [0.0, -4.0]], device="cpu"))
    >>> s
    Array([4., 3.])
    >>> a = np.arange(6.0).reshape(3, 2)
    >>> u, s, vh = npgpu.linalg.svd(a, full_matrices=False)
    >>> u.shape, s.shape, vh.shape, bool(np.allclose(u * s @ vh, a))
    ((3, 2), (2,), (2, 2), True)
    """
    a, numpy_out = _input(a)
    if hermitian:
        _assert_stacked_square(a)
        if a.size == 0:
            _compute_dtype(a.dtype)
            return _out(_on_zeros(np.linalg.svd, [a], a.device, full_matrices=full_matrices,
                                  compute_uv=compute_uv, hermitian=True), numpy_out)
        w, v = _syevd(a, True, compute_uv, check)
        s = _elementwise.abs(w)
        if not compute_uv:
            return _out(_flipped(_sorting.sort(s, axis=-1)).copy(), numpy_out)
        sgn = _elementwise_composed.copysign(1.0, w)
        sidx = _flipped(_sorting.argsort(s, axis=-1))
        sgn = _indexing.take_along_axis(sgn, sidx, axis=-1)
        s = _indexing.take_along_axis(s, sidx, axis=-1)
        u = _indexing.take_along_axis(v, _row(sidx), axis=-1)
        vh = _elementwise.conj(_manipulation.swapaxes(u * _cast(_row(sgn), u.dtype), -1, -2))
        return _out(SVDResult(u, s, vh.copy()), numpy_out)
    _assert_stacked_2d(a)
    dt = _compute_dtype(a.dtype)
    if a.size == 0:
        return _out(_on_zeros(np.linalg.svd, [a], a.device, full_matrices=full_matrices,
                              compute_uv=compute_uv), numpy_out)
    a = _cast(a, dt)
    r = _svd_qdwh(a, bool(compute_uv)) if _qdwh_route(a, dt, bool(full_matrices), bool(compute_uv)) else None
    u, s, vh = r if r is not None else _gesvd(a, bool(full_matrices), bool(compute_uv), check)
    return _out(SVDResult(u, s, vh) if compute_uv else s, numpy_out)


def svdvals(x, /, *, check=True):
    """The singular values of each matrix of a stack, as numpy.linalg.svdvals: ``svd(x, compute_uv=False)``.

    Parameters
    ----------
    x : npgpu.Array or array_like
        Matrices (..., M, N).
    check : bool, optional
        npgpu's own keyword, as in svd.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        (..., min(M, N)), real, descending. An npgpu.Array on x's device for npgpu.Array input, NumPy
        otherwise.

    Raises
    ------
    LinAlgError, TypeError
        As svd.

    See Also
    --------
    svd

    Examples
    --------
    >>> npgpu.linalg.svdvals(npgpu.asarray([[3.0, 0.0], [0.0, -4.0]], device="cpu"))
    Array([4., 3.])
    """
    return svd(x, compute_uv=False, check=check)


# ------------------------------------------------------------------------------------------------ from the SVD

def lstsq(a, b, rcond=None):
    """The least-squares solution of a @ x = b, as numpy.linalg.lstsq.

    Through the SVD of `a` (gesvd): singular values at most ``rcond * s[0]`` count as zero. The result is
    the tuple (x, residuals, rank, s): npgpu.Arrays on the inputs' device where either input is an
    npgpu.Array, NumPy arrays otherwise (`rank` a NumPy scalar in both cases).

    Parameters
    ----------
    a : npgpu.Array or array_like
        One matrix (M, N).
    b : npgpu.Array or array_like
        (M,) or (M, K).
    rcond : float, optional
        The relative cutoff for small singular values. None (default) is eps * max(M, N), eps of the dtype
        computed in (NumPy uses float64's eps for float32 input too, since it computes in float64); a
        negative value is that eps.

    Returns
    -------
    x : npgpu.Array or numpy.ndarray
        (N,) or (N, K), the dtype numpy.linalg gives (float32 and complex64 stay, integers and bool become
        float64).
    residuals : npgpu.Array or numpy.ndarray
        The squared 2-norms of b - a @ x per column ((1,) for 1-D `b`, else (K,)), real, where
        rank == N < M; an empty array otherwise.
    rank : numpy.int32
        The number of singular values above the cutoff.
    s : npgpu.Array or numpy.ndarray
        The singular values of `a` (min(M, N),), real, descending.

    Raises
    ------
    LinAlgError
        `a` or `b` (taken as a column for 1-D `b`) is not two-dimensional, or their rows differ; the SVD does
        not converge.
    TypeError
        A dtype numpy.linalg does not support (float16 among them).
    ValueError
        npgpu.Arrays on different devices.

    See Also
    --------
    solve, pinv

    Examples
    --------
    >>> a = npgpu.asarray([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]], device="cpu")
    >>> x, residuals, rank, s = npgpu.linalg.lstsq(a, npgpu.asarray([1.0, 2.0, 4.0], device="cpu"))
    >>> x, residuals, int(rank)
    (Array([0.83333333, 1.5       ]), Array([0.16666667]), 2)
    >>> x, residuals, rank, s = npgpu.linalg.lstsq(np.eye(2), [[1.0], [2.0]])
    >>> x, residuals  # rank == N == M: no residuals
    (array([[1.],
           [2.]]), array([], dtype=float64))
    """
    (a, b), numpy_out = _inputs((a, b), "lstsq")
    one = b.ndim == 1
    bm = _col(b) if one else b
    for x in (a, bm):
        if x.ndim != 2:
            raise LinAlgError(f"{x.ndim}-dimensional array given. Array must be two-dimensional")
    m, n = a.shape
    if bm.shape[0] != m:
        raise LinAlgError("Incompatible dimensions")
    dt = _compute_dtype(a.dtype, b.dtype)
    rt = _real_of(dt)
    if rcond is None:
        rcond = np.finfo(rt).eps * max(m, n)
    rcond = float(rcond)
    if rcond < 0:
        rcond = float(np.finfo(rt).eps)
    a, bm = _cast(a, dt), _cast(bm, dt)
    k = min(m, n)
    if a.size == 0:
        u = _array.zeros((m, 0), dtype=dt, device=a.device)
        s = _array.zeros((0,), dtype=rt, device=a.device)
        vh = _array.zeros((0, n), dtype=dt, device=a.device)
        rank = 0
    else:
        u, s, vh = _gesvd(a, False, True, True, "SVD did not converge in Linear Least Squares")
        large = s > s[0] * rcond
        rank = int(_reduce.count_nonzero(large))
    if k:
        sinv = _elementwise.where(large, 1.0 / _elementwise.where(large, s, 1), 0)
        uhb = _blas.matmul(_elementwise.conj(u.mT), bm)
        x = _blas.matmul(_elementwise.conj(vh.mT), _col(_cast(sinv, dt)) * uhb)
    else:
        x = _array.zeros((n, bm.shape[1]), dtype=dt, device=a.device)
    if rank == n and m > n:
        r = bm - _blas.matmul(a, x)
        resid = _reduce.sum(_elementwise.real(_elementwise.conj(r) * r), axis=0, dtype=rt)
    else:
        resid = _array.zeros((0,), dtype=rt, device=a.device)
    if one:
        x = x[:, 0]
    res = (x, resid, np.int32(rank), s)
    if numpy_out:
        return (_host(x), np.asarray(_host(resid)), np.int32(rank), np.asarray(_host(s)))
    return res


class _NoValue:
    def __repr__(self):
        return "<no value>"


_NOVALUE = _NoValue()


def _scalar_or_array(v, device):
    if isinstance(v, _array.Array):
        return v
    h = np.asarray(v)
    return float(h) if h.ndim == 0 and h.dtype.kind in "biuf" else _array.asarray(h, device=device)


def pinv(a, rcond=None, hermitian=False, *, rtol=_NOVALUE):
    """The Moore-Penrose pseudo-inverse of each matrix of a stack, as numpy.linalg.pinv.

    Through the SVD: singular values at most `rcond` (or `rtol`) times the largest count as zero.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Matrices (..., M, N).
    rcond : float or array_like, optional
        The relative cutoff (an array gives one per matrix, broadcast against the leading axes). Defaults to
        1e-15 where `rtol` is not given either.
    hermitian : bool, optional
        True: `a` is Hermitian, its SVD taken as svd's ``hermitian=True`` (syevd). Default False.
    rtol : float or array_like or None, optional
        The same cutoff under the Array API's name; None gives max(M, N) * eps (eps of the dtype computed
        in). Only one of `rcond` and `rtol` may be set.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        (..., N, M). An npgpu.Array on a's device for npgpu.Array input, NumPy otherwise.

    Raises
    ------
    ValueError
        Both `rcond` and `rtol` are set.
    LinAlgError
        `a` has fewer than two dimensions (or is not square, with `hermitian`); the SVD does not converge.
    TypeError
        A dtype numpy.linalg does not support (float16 among them).

    See Also
    --------
    inv, lstsq, svd

    Examples
    --------
    >>> npgpu.linalg.pinv(npgpu.asarray([[1.0, 0.0], [0.0, 2.0], [0.0, 0.0]], device="cpu"))
    Array([[1. , 0. , 0. ],
           [0. , 0.5, 0. ]])
    >>> npgpu.linalg.pinv(np.array([[1.0, 0.0], [0.0, 1e-3]]), rcond=1e-2)  # 1e-3 counts as zero
    array([[1., 0.],
           [0., 0.]])
    """
    a, numpy_out = _input(a)
    if rcond is None:
        if rtol is _NOVALUE:
            rcond = 1e-15
        elif rtol is None:
            rcond = max(a.shape[-2:]) * float(np.finfo(_real_of(_compute_dtype(a.dtype))).eps)
        else:
            rcond = rtol
    elif rtol is not _NOVALUE:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    _assert_stacked_2d(a)
    if a.size == 0:
        return _out(_on_zeros(np.linalg.pinv, [a], a.device), numpy_out)
    rcond = _scalar_or_array(rcond, a.device)
    u, s, vh = svd(_elementwise.conj(a) if a.dtype.kind == "c" else a, full_matrices=False,
                   hermitian=hermitian)
    if isinstance(rcond, _array.Array):
        rcond = _col(rcond)
    cutoff = rcond * _reduce.max(s, axis=-1, keepdims=True)
    large = s > cutoff
    sinv = _elementwise.where(large, 1.0 / _elementwise.where(large, s, 1), 0)
    res = _blas.matmul(vh.mT, _col(_cast(sinv, u.dtype)) * u.mT)
    return _out(res, numpy_out)


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    """The rank of each matrix of a stack (its number of singular values above a tolerance), as
    numpy.linalg.matrix_rank.

    Parameters
    ----------
    A : npgpu.Array or array_like
        Matrices (..., M, N); for fewer than two dimensions the rank is 1 unless all elements are zero.
    tol : float or array_like, optional
        The absolute tolerance (an array gives one per matrix). Default: the largest singular value times
        `rtol`.
    hermitian : bool, optional
        True: `A` is Hermitian, its singular values taken as svd's ``hermitian=True`` (syevd). Default False.
    rtol : float or array_like, optional
        The relative tolerance (an array gives one per matrix); default max(M, N) * eps (eps of the singular
        values' dtype). Only one of `tol` and `rtol` may be set.

    Returns
    -------
    npgpu.Array or numpy.ndarray or int
        (...), integer. An npgpu.Array on A's device for npgpu.Array input, NumPy otherwise (a NumPy scalar
        for one matrix); a Python int for `A` of fewer than two dimensions.

    Raises
    ------
    ValueError
        Both `tol` and `rtol` are set.
    LinAlgError
        The SVD does not converge (or, with `hermitian`, `A` is not square).
    TypeError
        A dtype numpy.linalg does not support (float16 among them).

    Examples
    --------
    >>> npgpu.linalg.matrix_rank(npgpu.asarray([[1.0, 2.0], [2.0, 4.0]], device="cpu"))
    Array(1)
    >>> a = np.array([[[1.0, 0.0], [0.0, 1e-3]]] * 2)
    >>> npgpu.linalg.matrix_rank(a, tol=np.array([1e-4, 1e-2]))
    array([2, 1])
    >>> npgpu.linalg.matrix_rank(np.zeros(3))
    0
    """
    if rtol is not None and tol is not None:
        raise ValueError("`tol` and `rtol` can't be both set.")
    A, numpy_out = _input(A)
    if A.ndim < 2:
        return int(not bool(_reduce.all(_elementwise.equal(A, 0))))
    if A.size == 0:
        return _out(_on_zeros(np.linalg.matrix_rank, [A], A.device, hermitian=hermitian), numpy_out)
    S = svd(A, compute_uv=False, hermitian=hermitian)
    if tol is None:
        if rtol is None:
            rtol = max(A.shape[-2:]) * float(np.finfo(S.dtype).eps)
        else:
            rtol = _scalar_or_array(rtol, A.device)
            if isinstance(rtol, _array.Array):
                rtol = _col(rtol)
        tol = _elementwise.maximum(_reduce.max(S, axis=-1, keepdims=True), 0) * rtol
    else:
        tol = _scalar_or_array(tol, A.device)
        if isinstance(tol, _array.Array):
            tol = _col(tol)
    return _out(_reduce.count_nonzero(S > tol, axis=-1), numpy_out)


def cond(x, p=None):
    """The condition number of each matrix of a stack, as numpy.linalg.cond.

    p None, 2 or -2: from the singular values (any (..., M, N)); the other norms (square `x`):
    ``norm(x, p) * norm(inv(x), p)``. inf where `x` is singular (a NaN result of a matrix without NaNs
    becomes inf), NaN kept where `x` has NaNs.

    Parameters
    ----------
    x : npgpu.Array or array_like
        Matrices (..., M, N); square for p other than None, 2 and -2.
    p : {None, 1, -1, 2, -2, inf, -inf, "fro", "nuc"}, optional
        The norm (see norm): None (default) or 2 the ratio of the largest to the smallest singular value,
        -2 its inverse.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        (...), real. An npgpu.Array on x's device for npgpu.Array input, NumPy otherwise (a NumPy scalar for
        one matrix).

    Raises
    ------
    LinAlgError
        `x` has fewer than two dimensions, its matrices have no elements, or (for p other than None, 2 and
        -2) it is not square; the SVD does not converge.
    TypeError
        A dtype numpy.linalg does not support (float16 among them).
    ValueError
        An invalid `p`.

    Examples
    --------
    >>> npgpu.linalg.cond(npgpu.asarray([[2.0, 0.0], [0.0, 0.5]], device="cpu"))
    Array(4.)
    >>> float(npgpu.linalg.cond(np.array([[1.0, 0.0], [0.0, 0.0]]), 1))
    inf
    """
    x, numpy_out = _input(x)
    _assert_stacked_2d(x)
    if x.size == 0 and math.prod(x.shape[-2:]) == 0:
        raise LinAlgError("cond is not defined on empty arrays")
    if x.size == 0:
        return _out(_on_zeros(np.linalg.cond, [x], x.device, p), numpy_out)
    if p is None or (not isinstance(p, str) and p in (2, -2)):
        s = svd(x, compute_uv=False)
        if p == -2:
            r = s[..., -1] / s[..., 0]
        else:
            r = s[..., 0] / s[..., -1]
    else:
        _assert_stacked_square(x)
        dt = _compute_dtype(x.dtype)
        xc = _cast(x, dt)
        invx = inv(xc, check=False)
        r = _cast(norm(xc, p, axis=(-2, -1)) * norm(invx, p, axis=(-2, -1)), _real_of(dt))
    nan_mask = _elementwise.isnan(r)
    if bool(_reduce.any(nan_mask)):
        x_nan = _reduce.any(_elementwise.isnan(x), axis=(-2, -1))
        r = _elementwise.where(_elementwise.logical_and(nan_mask, _elementwise.logical_not(x_nan)), np.inf, r)
    return _out(r, numpy_out)


# ------------------------------------------------------------------------------------------------ products

def matrix_power(a, n):
    """Each matrix of a stack raised to the integer power n, as numpy.linalg.matrix_power.

    By repeated squaring (matmul); n = 0 gives the identity, n < 0 the power of inv(a).

    Parameters
    ----------
    a : npgpu.Array or array_like
        Square matrices (..., M, M).
    n : int
        The exponent (any integer, as operator.index accepts it).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        (..., M, M); integer matrices stay integer for n >= 0 (n < 0 goes through inv, and its dtype). An
        npgpu.Array on a's device for npgpu.Array input, NumPy otherwise.

    Raises
    ------
    TypeError
        `n` is not an integer.
    LinAlgError
        `a` has fewer than two dimensions or is not square; n < 0 and a matrix is singular.

    Examples
    --------
    >>> npgpu.linalg.matrix_power(npgpu.asarray([[1, 1], [0, 1]], device="cpu"), 5)
    Array([[1, 5],
           [0, 1]])
    >>> npgpu.linalg.matrix_power(np.array([[2.0, 0.0], [0.0, 4.0]]), -1)
    array([[0.5 , 0.  ],
           [0.  , 0.25]])
    """
    a, numpy_out = _input(a)
    _assert_stacked_square(a)
    try:
        n = operator.index(n)
    except TypeError as e:
        raise TypeError("exponent must be an integer") from e
    if n == 0:
        res = _array.zeros(a.shape, dtype=a.dtype, device=a.device)
        res[...] = _creation.eye(a.shape[-2], dtype=a.dtype, device=a.device)
        return _out(res, numpy_out)
    if n < 0:
        a = inv(a)
        n = -n
    if n == 1:
        return _out(a, numpy_out)
    if n == 2:
        return _out(_blas.matmul(a, a), numpy_out)
    if n == 3:
        return _out(_blas.matmul(_blas.matmul(a, a), a), numpy_out)
    z = result = None
    while n > 0:
        z = a if z is None else _blas.matmul(z, z)
        n, bit = divmod(n, 2)
        if bit:
            result = z if result is None else _blas.matmul(result, z)
    return _out(result, numpy_out)


def _chain_order(arrays):
    """NumPy's multi_dot matrix-chain order: s[i, j] the split of the product of arrays i..j."""
    n = len(arrays)
    p = [a.shape[0] for a in arrays] + [arrays[-1].shape[1]]
    m = [[0] * n for _ in range(n)]
    s = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            m[i][j] = math.inf
            for k in range(i, j):
                q = m[i][k] + m[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if q < m[i][j]:
                    m[i][j] = q
                    s[i][j] = k
    return s


def _chain(arrays, order, i, j):
    if i == j:
        return arrays[i]
    return _blas.matmul(_chain(arrays, order, i, order[i][j]), _chain(arrays, order, order[i][j] + 1, j))


def multi_dot(arrays, *, out=None):
    """The product of two or more arrays in the cheapest order, as numpy.linalg.multi_dot.

    The order is NumPy's matrix-chain order (the fewest scalar multiplications); each step one matmul.

    Parameters
    ----------
    arrays : sequence of npgpu.Array or array_like
        Two or more arrays: the first may be 1-D (a row vector), the last 1-D (a column), the others 2-D.
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result (its shape): an npgpu.Array for npgpu input (assigned), a NumPy array for
        NumPy input ('same_kind' casting).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        The product; the 1-D ends are dropped from its shape (0-d for both). `out` where given. An
        npgpu.Array on the inputs' device where any is an npgpu.Array, NumPy otherwise.

    Raises
    ------
    ValueError
        Fewer than two arrays; neighbouring shapes that are not aligned; npgpu.Arrays on different devices.
    LinAlgError
        An array (after the 1-D ends are made 2-D) that is not two-dimensional.
    TypeError
        `out` that is not a NumPy array for NumPy input.

    Examples
    --------
    >>> a = npgpu.asarray(np.arange(6.0).reshape(2, 3), device="cpu")
    >>> npgpu.linalg.multi_dot([a, a.mT, a])
    Array([[ 42.,  61.,  80.],
           [150., 214., 278.]])
    >>> float(npgpu.linalg.multi_dot([np.array([1.0, 2.0]), np.eye(2), np.array([3.0, 4.0])]))
    11.0
    """
    arrays = list(arrays)
    n = len(arrays)
    if n < 2:
        raise ValueError("Expecting at least two arrays.")
    xs, numpy_out = _inputs(arrays, "multi_dot")
    first, last = xs[0], xs[-1]
    if first.ndim == 1:
        xs[0] = _manipulation.reshape(first, (1, first.shape[0]))
    if last.ndim == 1:
        xs[-1] = _manipulation.reshape(last, (last.shape[0], 1))
    for x in xs:
        if x.ndim != 2:
            raise LinAlgError(f"{x.ndim}-dimensional array given. Array must be two-dimensional")
    for x, y in zip(xs, xs[1:]):
        if x.shape[1] != y.shape[0]:
            raise ValueError(f"shapes {tuple(x.shape)} and {tuple(y.shape)} not aligned: {x.shape[1]} (dim 1) "
                             f"!= {y.shape[0]} (dim 0)")
    if n == 2:
        result = _blas.matmul(xs[0], xs[1])
    else:
        result = _chain(xs, _chain_order(xs), 0, n - 1)
    if first.ndim == 1 and last.ndim == 1:
        result = _manipulation.reshape(result, ())
    elif first.ndim == 1:
        result = result[0]
    elif last.ndim == 1:
        result = result[:, 0]
    if out is not None:
        if numpy_out:
            if not isinstance(out, np.ndarray):
                raise TypeError("multi_dot: out must be a NumPy array for NumPy input")
            np.copyto(out, np.asarray(_host(result)), casting="same_kind")
        else:
            out[...] = result
        return out
    return _out(result, numpy_out)


def _wrapped(fn, arrays, name, *args, **kwargs):
    xs, numpy_out = _inputs(arrays, name)
    return _out(fn(*xs, *args, **kwargs), numpy_out)


def matmul(x1, x2, /):
    """The matrix product, as numpy.linalg.matmul (npgpu.matmul).

    Parameters
    ----------
    x1, x2 : npgpu.Array or array_like
        The operands, with npgpu.matmul's shape rules.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        An npgpu.Array on the inputs' device where either is an npgpu.Array, NumPy otherwise.

    Raises
    ------
    ValueError
        Shapes npgpu.matmul rejects; npgpu.Arrays on different devices.

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2], [3, 4]], device="cpu")
    >>> npgpu.linalg.matmul(a, npgpu.asarray([[5], [6]], device="cpu"))
    Array([[17],
           [39]])
    >>> npgpu.linalg.matmul(np.array([[1.0, 2.0]]), np.array([[3.0], [4.0]]))
    array([[11.]])
    """
    return _wrapped(_blas.matmul, (x1, x2), "matmul")


def tensordot(x1, x2, /, *, axes=2):
    """Sum of products over the given axes, as numpy.linalg.tensordot: npgpu.tensordot.

    Parameters
    ----------
    x1, x2 : npgpu.Array or array_like
        The operands.
    axes : int or (sequence of int, sequence of int), optional
        N (default 2): the last N axes of `x1` with the first N of `x2`; or a pair of axis sequences.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        The free axes of `x1`, then those of `x2`. An npgpu.Array on the inputs' device where either is an
        npgpu.Array, NumPy otherwise.

    Raises
    ------
    ValueError
        As npgpu.tensordot; npgpu.Arrays on different devices.

    See Also
    --------
    npgpu.tensordot

    Examples
    --------
    >>> npgpu.linalg.tensordot(np.arange(6.0).reshape(2, 3), np.arange(6.0).reshape(3, 2), axes=1)
    array([[10., 13.],
           [28., 40.]])
    """
    return _wrapped(_linear_algebra.tensordot, (x1, x2), "tensordot", axes=axes)


def vecdot(x1, x2, /, *, axis=-1):
    """Dot products of vectors along `axis` (`x1` conjugated), as numpy.linalg.vecdot: npgpu.vecdot.

    Parameters
    ----------
    x1, x2 : npgpu.Array or array_like
        The vectors; the other axes broadcast.
    axis : int, optional
        The axis contracted (default -1).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        An npgpu.Array on the inputs' device where either is an npgpu.Array, NumPy otherwise.

    Raises
    ------
    ValueError
        As npgpu.vecdot; npgpu.Arrays on different devices.

    See Also
    --------
    npgpu.vecdot

    Examples
    --------
    >>> npgpu.linalg.vecdot(npgpu.asarray([1j, 2], device="cpu"), npgpu.asarray([1j, 3], device="cpu"))
    Array(7.+0.j)
    >>> npgpu.linalg.vecdot(np.array([[1, 2], [3, 4]]), np.array([1, 1]))
    array([3, 7])
    """
    return _wrapped(_linear_algebra.vecdot, (x1, x2), "vecdot", axis=axis)


def matrix_transpose(x, /):
    """The transpose of each matrix of a stack, as numpy.linalg.matrix_transpose: the last two axes swapped
    (a view).

    Parameters
    ----------
    x : npgpu.Array or array_like
        At least two dimensions.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        An npgpu.Array (a view) for npgpu.Array input, NumPy otherwise.

    Raises
    ------
    ValueError
        `x` has fewer than two dimensions.

    Examples
    --------
    >>> npgpu.linalg.matrix_transpose(npgpu.asarray([[1, 2, 3]], device="cpu"))
    Array([[1],
           [2],
           [3]])
    """
    return _wrapped(_linear_algebra.matrix_transpose, (x,), "matrix_transpose")


def outer(x1, x2, /):
    """The outer product of two vectors, as numpy.linalg.outer.

    Parameters
    ----------
    x1, x2 : npgpu.Array or array_like
        1-D, both.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        (len(x1), len(x2)). An npgpu.Array on the inputs' device where either is an npgpu.Array, NumPy
        otherwise.

    Raises
    ------
    ValueError
        An input that is not 1-D; npgpu.Arrays on different devices.

    Examples
    --------
    >>> npgpu.linalg.outer(npgpu.asarray([1, 2], device="cpu"), npgpu.asarray([1, 10, 100], device="cpu"))
    Array([[  1,  10, 100],
           [  2,  20, 200]])
    """
    (x1, x2), numpy_out = _inputs((x1, x2), "outer")
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(f"Input arrays must be one-dimensional, but they are x1.ndim={x1.ndim} and "
                         f"x2.ndim={x2.ndim}.")
    return _out(_blas.outer(x1, x2), numpy_out)


def cross(x1, x2, /, *, axis=-1):
    """The cross product of 3-element vectors along `axis`, as numpy.linalg.cross (the other axes
    broadcast).

    Parameters
    ----------
    x1, x2 : npgpu.Array or array_like
        Arrays of 3-element vectors along `axis`.
    axis : int, optional
        The axis of the vectors, in the inputs and in the result (default -1).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        An npgpu.Array on the inputs' device where either is an npgpu.Array, NumPy otherwise.

    Raises
    ------
    ValueError
        `axis` of either input does not have 3 elements; npgpu.Arrays on different devices.

    Examples
    --------
    >>> x = npgpu.asarray([1.0, 0.0, 0.0], device="cpu")
    >>> npgpu.linalg.cross(x, npgpu.asarray([0.0, 1.0, 0.0], device="cpu"))
    Array([0., 0., 1.])
    >>> npgpu.linalg.cross(np.array([[1, 0, 0], [0, 1, 0]]), np.array([0, 0, 1]))
    array([[ 0, -1,  0],
           [ 1,  0,  0]])
    """
    (x1, x2), numpy_out = _inputs((x1, x2), "cross")
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError("Both input arrays must be (arrays of) 3-dimensional vectors, but they are "
                         f"{x1.shape[axis]} and {x2.shape[axis]} dimensional instead.")
    a = _manipulation.moveaxis(x1, axis, -1)
    b = _manipulation.moveaxis(x2, axis, -1)
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    c = _manipulation.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)
    return _out(_manipulation.moveaxis(c, -1, axis), numpy_out)


def diagonal(x, /, *, offset=0):
    """The diagonals of the matrices of a stack, as numpy.linalg.diagonal.

    Parameters
    ----------
    x : npgpu.Array or array_like
        Matrices (..., M, N).
    offset : int, optional
        The diagonal: 0 (default) the main one, positive above it, negative below it.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        (..., L), L the diagonal's length; a view where `x` is C-contiguous. An npgpu.Array for npgpu.Array
        input, NumPy otherwise.

    Raises
    ------
    ValueError
        `x` has fewer than two dimensions.

    Examples
    --------
    >>> x = npgpu.asarray(np.arange(9).reshape(3, 3), device="cpu")
    >>> npgpu.linalg.diagonal(x)
    Array([0, 4, 8])
    >>> npgpu.linalg.diagonal(x, offset=-1)
    Array([3, 7])
    """
    x, numpy_out = _input(x)
    return _out(_diagonal(x, offset), numpy_out)


def trace(x, /, *, offset=0, dtype=None):
    """The sums of the diagonals of the matrices of a stack, as numpy.linalg.trace.

    Parameters
    ----------
    x : npgpu.Array or array_like
        Matrices (..., M, N).
    offset : int, optional
        The diagonal summed, as in diagonal (default 0, the main one).
    dtype : dtype, optional
        The dtype of the sums, as in npgpu.sum (default: sum's for x's dtype).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        (...). An npgpu.Array for npgpu.Array input, NumPy otherwise (a NumPy scalar for one matrix).

    Raises
    ------
    ValueError
        `x` has fewer than two dimensions.

    Examples
    --------
    >>> x = npgpu.asarray(np.arange(9).reshape(3, 3), device="cpu")
    >>> npgpu.linalg.trace(x)
    Array(12)
    >>> npgpu.linalg.trace(x, offset=1, dtype=npgpu.float32)
    Array(6., dtype=float32)
    """
    x, numpy_out = _input(x)
    return _out(_reduce.sum(_diagonal(x, offset), axis=-1, dtype=dtype), numpy_out)


# ------------------------------------------------------------------------------------------------ norms

_SVD_ORDS = (2, -2, "nuc")


def _is_ord(ord, o):
    """ord == o, strings compared only with strings (ord may be any object)."""
    if isinstance(ord, str) or isinstance(o, str):
        return isinstance(ord, str) and isinstance(o, str) and ord == o
    try:
        return bool(ord == o)
    except (TypeError, ValueError):
        return False


def _abs(x):
    return _elementwise.abs(x)


def _sqnorm(x, axis):
    """sum(|x|^2) over axis (real)."""
    sq = _elementwise.real(_elementwise.conj(x) * x) if x.dtype.kind == "c" else x * x
    return _reduce.sum(sq, axis=axis)


def _svd_norm(x, row, col, op):
    y = _manipulation.moveaxis(x, (row, col), (-2, -1))
    return op(svd(y, compute_uv=False), axis=-1)


def _norm(x, ord, axis, keepdims):
    """norm of the Array x (of a float or complex dtype), as numpy.linalg.norm."""
    nd = x.ndim
    if axis is None:
        if (ord is None or (isinstance(ord, str) and ord in ("f", "fro") and nd == 2)
                or (not isinstance(ord, str) and ord == 2 and nd == 1)):
            ret = _elementwise.sqrt(_sqnorm(_manipulation.reshape(x, (-1,)), None))
            if keepdims:
                ret = _manipulation.reshape(ret, (1,) * nd)
            return ret
        axis = tuple(range(nd))
    elif not isinstance(axis, tuple):
        try:
            axis = int(axis)
        except Exception as e:
            raise TypeError("'axis' must be None, an integer or a tuple of integers") from e
        axis = (axis,)
    if len(axis) == 1:
        ax = _axis(axis[0], nd)
        if isinstance(ord, str):
            raise ValueError(f"Invalid norm order '{ord}' for vectors")
        if ord == np.inf:
            ret = _reduce.max(_abs(x), axis=ax, keepdims=keepdims)
        elif ord == -np.inf:
            ret = _reduce.min(_abs(x), axis=ax, keepdims=keepdims)
        elif ord == 0:
            nz = _cast(_elementwise.not_equal(x, 0), _real_of(x.dtype))
            ret = _reduce.sum(nz, axis=ax, keepdims=keepdims)
        elif ord == 1:
            ret = _reduce.sum(_abs(x), axis=ax, keepdims=keepdims)
        elif ord is None or ord == 2:
            sq = _elementwise.real(_elementwise.conj(x) * x) if x.dtype.kind == "c" else x * x
            ret = _elementwise.sqrt(_reduce.sum(sq, axis=ax, keepdims=keepdims))
        else:
            try:
                p = float(ord)
            except (TypeError, ValueError) as e:
                raise ValueError(f"Invalid norm order '{ord}' for vectors") from e
            rt = _real_of(x.dtype)
            absx = _elementwise.power(_abs(x), _array.asarray(np.asarray(p, rt), device=x.device))
            ret = _reduce.sum(absx, axis=ax, keepdims=keepdims)
            ret = _elementwise.power(ret, _array.asarray(np.asarray(1.0 / p, rt), device=x.device))
        return ret
    if len(axis) == 2:
        row, col = _axis(axis[0], nd), _axis(axis[1], nd)
        if row == col:
            raise ValueError("Duplicate axes given.")
        if not isinstance(ord, str) and ord == 2:
            ret = _svd_norm(x, row, col, _reduce.max)
        elif not isinstance(ord, str) and ord == -2:
            ret = _svd_norm(x, row, col, _reduce.min)
        elif not isinstance(ord, str) and ord == 1:
            c = col - 1 if col > row else col
            ret = _reduce.max(_reduce.sum(_abs(x), axis=row), axis=c)
        elif not isinstance(ord, str) and ord == np.inf:
            r = row - 1 if row > col else row
            ret = _reduce.max(_reduce.sum(_abs(x), axis=col), axis=r)
        elif not isinstance(ord, str) and ord == -1:
            c = col - 1 if col > row else col
            ret = _reduce.min(_reduce.sum(_abs(x), axis=row), axis=c)
        elif not isinstance(ord, str) and ord == -np.inf:
            r = row - 1 if row > col else row
            ret = _reduce.min(_reduce.sum(_abs(x), axis=col), axis=r)
        elif ord is None or ord in ("fro", "f"):
            ret = _elementwise.sqrt(_sqnorm(x, (row, col)))
        elif ord == "nuc":
            ret = _svd_norm(x, row, col, _reduce.sum)
        else:
            raise ValueError("Invalid norm order for matrices.")
        if keepdims:
            shape = list(x.shape)
            shape[row] = shape[col] = 1
            ret = _manipulation.reshape(ret, tuple(shape))
        return ret
    raise ValueError("Improper number of dimensions to norm.")


def _norm_input(x, ord, axis):
    """(x as an Array of a float or complex dtype, its original dtype for float16, numpy_out). Integers and
    bool become float64 as NumPy's; float16 is computed in float32 and the result rounded back (NumPy keeps
    float16 except where the SVD is needed, which raises TypeError)."""
    x, numpy_out = _input(x)
    half = None
    if x.dtype == _F16:
        matrix = (axis is None and x.ndim == 2) or (isinstance(axis, tuple) and len(axis) == 2)
        if matrix and any(_is_ord(ord, o) for o in _SVD_ORDS):
            raise TypeError("array type float16 is unsupported in linalg")
        half, x = _F16, x.astype(_F32)
    elif x.dtype.kind not in "fc":
        if x.dtype.kind not in "biu":
            raise TypeError(f"array type {x.dtype.name} is unsupported in linalg")
        x = x.astype(_F64)
    return x, half, numpy_out


def norm(x, ord=None, axis=None, keepdims=False):
    """Matrix or vector norm, as numpy.linalg.norm: every `ord` NumPy accepts.

    Parameters
    ----------
    x : npgpu.Array or array_like
        The input.
    ord : {None, int, float, inf, -inf, "fro", "f", "nuc"}, optional
        Vectors (one axis): None or 2 (the 2-norm), inf, -inf (max/min |x|), 0 (the nonzero count), 1, any
        other number p: (sum |x|^p)^(1/p). Matrices (two axes, or a 2-D `x` with `axis` None):
        None/"fro"/"f" (Frobenius), "nuc" (sum of the singular values), inf/-inf (max/min row sum of |x|),
        1/-1 (max/min column sum), 2/-2 (largest/smallest singular value). "nuc" and 2/-2 take the SVD
        (gesvd).
    axis : None or int or (int, int), optional
        One axis: vector norms along it; two: matrix norms over them. None (default): the 2-norm of all
        elements for ord None (also "fro"/"f" for 2-D `x` and 2 for 1-D `x`), else all axes of `x` (one or
        two).
    keepdims : bool, optional
        Keep the normed axes, with length 1 (default False).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Real. Integers and bool are computed as float64 (as NumPy); float16 is computed in float32 and the
        result rounded back to float16. An npgpu.Array on x's device for npgpu.Array input, NumPy otherwise
        (a NumPy scalar for a 0-d result).

    Raises
    ------
    ValueError
        An invalid `ord` for vectors or for matrices; two equal axes; more than two axes.
    TypeError
        A dtype linalg does not support; float16 for the matrix norms that need the SVD (2, -2, "nuc"), as
        NumPy; `axis` that is not None, an integer or a tuple of integers.

    See Also
    --------
    vector_norm, matrix_norm

    Examples
    --------
    >>> v = npgpu.asarray([3.0, -4.0], device="cpu")
    >>> npgpu.linalg.norm(v), npgpu.linalg.norm(v, 1), npgpu.linalg.norm(v, np.inf)
    (Array(5.), Array(7.), Array(4.))
    >>> m = np.array([[1.0, -2.0], [3.0, 4.0]])
    >>> float(npgpu.linalg.norm(m, 1)), float(npgpu.linalg.norm(m, np.inf))
    (6.0, 7.0)
    >>> npgpu.linalg.norm(m, axis=1)
    array([2.23606798, 5.        ])
    """
    x, half, numpy_out = _norm_input(x, ord, axis)
    ret = _norm(x, ord, axis, keepdims)
    if half is not None:
        ret = ret.astype(half)
    return _out(ret, numpy_out)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """The vector norm over `axis`, as numpy.linalg.vector_norm.

    Parameters
    ----------
    x : npgpu.Array or array_like
        The input.
    axis : None or int or tuple of int, optional
        None (default): all elements as one vector; an int: vectors along that axis; a tuple: those axes as
        one vector.
    keepdims : bool, optional
        Keep the normed axes, with length 1 (default False).
    ord : {int, float, inf, -inf}, optional
        As norm's vector orders (default 2).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Real; dtypes as norm's. An npgpu.Array on x's device for npgpu.Array input, NumPy otherwise.

    Raises
    ------
    ValueError
        An invalid `ord` for vectors (strings among them); a repeated axis.
    TypeError
        A dtype linalg does not support.

    See Also
    --------
    norm, matrix_norm

    Examples
    --------
    >>> m = npgpu.asarray([[1.0, -2.0], [3.0, 4.0]], device="cpu")
    >>> npgpu.linalg.vector_norm(m, axis=0, ord=1)
    Array([4., 6.])
    >>> npgpu.linalg.vector_norm(np.array([[3.0], [4.0]]), keepdims=True)
    array([[5.]])
    """
    x, half, numpy_out = _norm_input(x, ord, 0)  # an axis, not None: a vector norm, whatever x's ndim
    shape = list(x.shape)
    if axis is None:
        y, ax = _manipulation.reshape(x, (-1,)), 0
    elif isinstance(axis, tuple):
        norm_axes = tuple(_axis(a, x.ndim) for a in axis)
        if len(set(norm_axes)) != len(norm_axes):
            raise ValueError("repeated axis")
        rest = tuple(i for i in range(x.ndim) if i not in norm_axes)
        y = _manipulation.reshape(_manipulation.permute_dims(x, norm_axes + rest),
                                  (math.prod(shape[i] for i in norm_axes),) + tuple(shape[i] for i in rest))
        ax = 0
    else:
        y, ax = x, axis
    ret = _norm(y, ord, ax, False)
    if keepdims:
        axes = range(len(shape)) if axis is None else (axis if isinstance(axis, tuple) else (axis,))
        for i in axes:
            shape[_axis(i, len(shape))] = 1
        ret = _manipulation.reshape(ret, tuple(shape))
    if half is not None:
        ret = ret.astype(half)
    return _out(ret, numpy_out)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """The matrix norm of each matrix of a stack, as numpy.linalg.matrix_norm (see norm).

    Parameters
    ----------
    x : npgpu.Array or array_like
        Matrices (..., M, N).
    keepdims : bool, optional
        Keep the last two axes, with length 1 (default False).
    ord : {"fro", "nuc", inf, -inf, 1, -1, 2, -2}, optional
        As norm's matrix orders (default "fro").

    Returns
    -------
    npgpu.Array or numpy.ndarray
        (...), real; dtypes as norm's. An npgpu.Array on x's device for npgpu.Array input, NumPy otherwise.

    Raises
    ------
    ValueError
        An invalid `ord` for matrices.
    numpy.exceptions.AxisError
        `x` has fewer than two dimensions.
    TypeError
        As norm.

    See Also
    --------
    norm, vector_norm

    Examples
    --------
    >>> m = npgpu.asarray([[1.0, -2.0], [3.0, 4.0]], device="cpu")
    >>> npgpu.linalg.matrix_norm(m, ord=1)
    Array(6.)
    >>> npgpu.linalg.matrix_norm(np.array([[[3.0, 0.0], [0.0, -4.0]]]), ord=2)
    array([4.])
    """
    x, half, numpy_out = _norm_input(x, ord, (-2, -1))
    ret = _norm(x, ord, (-2, -1), keepdims)
    if half is not None:
        ret = ret.astype(half)
    return _out(ret, numpy_out)

