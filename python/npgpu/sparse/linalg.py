"""npgpu.sparse.linalg: scipy.sparse.linalg's iterative solvers (cg, bicgstab, gmres, minres), LinearOperator /
aslinearoperator, norm and spsolve_triangular over npgpu arrays.

The solvers keep their iteration on the matrix's device: every vector update and every inner product is an npgpu
operation on device arrays, and the step sizes stay 0-d device arrays, so an iteration never waits for the
device. The convergence test is evaluated on the device each iteration and only read back every
``check_every`` iterations (default 8; one small device->host read). Once the residual meets the tolerance the
device masks further steps to zero, so the returned x is the iterate of the step that converged (the same
iterate SciPy returns); at most ``check_every - 1`` masked iterations run after it. With a ``callback`` the
test is read every iteration, so the callback sees exactly SciPy's iterates.

Without a preconditioner, cg's vector work runs as the fused steps of ``npgpu._krylov`` (three passes over
the vectors per iteration besides the product, the scalars kept on the device, dot products accumulated in
float64); with one, or where the build lacks them, it is composed of npgpu operations as above.

Results are npgpu Arrays on the matrix's device (NumPy right-hand sides are uploaded there). Complex
Hermitian systems use conjugated inner products throughout.
"""
import numpy as np

import npgpu

from . import _util as u
from ._base import _spbase
from ._compressed import _csr_base

try:  # the fused solver steps (host C++ and CUDA); optional: the composed iterations below work without them
    from npgpu import _krylov
except ImportError:  # pragma: no cover - depends on the build
    _krylov = None

__all__ = ["LinearOperator", "aslinearoperator", "cg", "bicgstab", "gmres", "minres", "norm",
           "spsolve_triangular", "MatrixRankWarning"]


class MatrixRankWarning(UserWarning):
    """SciPy's warning category for exactly singular matrices.

    Kept so that code naming scipy.sparse.linalg.MatrixRankWarning (in ``except`` or warning filters) runs
    unchanged. npgpu's solvers do not emit it: spsolve_triangular raises numpy.linalg.LinAlgError on a singular
    matrix.

    Examples
    --------
    >>> issubclass(npgpu.sparse.linalg.MatrixRankWarning, UserWarning)
    True
    """


# ---------------------------------------------------------------------------- LinearOperator
class LinearOperator:
    """An (M, N) operator given by its product with vectors, as scipy.sparse.linalg.LinearOperator.

    The functions take and return npgpu Arrays on the operator's device. ``A @ x``, ``A.dot(x)`` and ``A(x)``
    apply it to a vector (``matvec``) or a matrix (``matmat``); ``A @ B`` of two operators is their product
    operator, ``A * c`` for a scalar c the scaled operator.

    Parameters
    ----------
    shape : tuple of int
        (M, N), non-negative.
    matvec : callable, optional
        ``matvec(x)``: A x for an (N,) npgpu Array.
    rmatvec : callable, optional
        ``rmatvec(y)``: A^H y for an (M,) npgpu Array.
    matmat : callable, optional
        ``matmat(X)``: A X for an (N, K) npgpu Array. One of `matvec` and `matmat` is needed; each stands in
        for the other.
    dtype : dtype, optional
        The operator's dtype (default float64).
    rmatmat : callable, optional
        ``rmatmat(Y)``: A^H Y (default: `rmatvec` column by column).
    device : optional
        Where the vectors live (default None: NumPy input goes to the default device; the solvers set it to
        the right-hand side's device).

    Attributes
    ----------
    shape : tuple of int
    dtype : numpy.dtype
    device
        The operator's device, or None.
    ndim : int
        Always 2.

    Raises
    ------
    ValueError
        A shape that is not a pair of non-negative integers, or neither `matvec` nor `matmat`.

    Examples
    --------
    >>> op = npgpu.sparse.linalg.LinearOperator((2, 2), matvec=lambda v: 2 * v)
    >>> op
    <2x2 npgpu LinearOperator with dtype=float64>
    >>> op @ np.array([1.0, 2.0])
    Array([2., 4.])
    >>> (op @ op)(np.array([1.0, 1.0]))
    Array([4., 4.])
    """

    def __init__(self, shape, matvec=None, rmatvec=None, matmat=None, dtype=None, rmatmat=None, device=None):
        shape = tuple(int(s) for s in shape)
        if len(shape) != 2 or min(shape) < 0:
            raise ValueError(f"invalid shape {shape} (expected a pair of non-negative integers)")
        if matvec is None and matmat is None:
            raise ValueError("LinearOperator needs matvec or matmat")
        self.shape = shape
        self.dtype = np.dtype(np.float64 if dtype is None else dtype)
        self.device = device
        self._matvec_fn, self._rmatvec_fn = matvec, rmatvec
        self._matmat_fn, self._rmatmat_fn = matmat, rmatmat
        self.ndim = 2

    def matvec(self, x):
        """The product A x.

        Parameters
        ----------
        x : array_like or npgpu.Array
            Of shape (N,) or (N, 1), on the operator's device (NumPy input is uploaded there).

        Returns
        -------
        npgpu.Array
            Of shape (M,).

        Raises
        ------
        ValueError
            A vector of another shape (also a result of another shape), or an npgpu.Array on another device.

        Examples
        --------
        >>> op = npgpu.sparse.linalg.LinearOperator((2, 3), matmat=lambda X: 2 * X[:2])
        >>> op.matvec(np.ones(3))
        Array([2., 2.])
        """
        x = self._vec(x)
        if self._matvec_fn is not None:
            y = self._matvec_fn(x)
        else:
            y = self._matmat_fn(x.reshape(x.shape[0], 1)).reshape(self.shape[0])
        return self._vec(y, self.shape[0])

    def rmatvec(self, x):
        """The adjoint product A^H x.

        Parameters
        ----------
        x : array_like or npgpu.Array
            Of shape (M,) or (M, 1).

        Returns
        -------
        npgpu.Array
            Of shape (N,).

        Raises
        ------
        NotImplementedError
            The operator has no `rmatvec`.
        ValueError
            A vector of another shape.

        Examples
        --------
        >>> op = npgpu.sparse.linalg.LinearOperator((2, 2), matvec=lambda v: 2 * v, rmatvec=lambda v: 3 * v)
        >>> op.rmatvec(np.ones(2))
        Array([3., 3.])
        """
        if self._rmatvec_fn is None:
            raise NotImplementedError("rmatvec is not defined for this operator")
        return self._vec(self._rmatvec_fn(self._vec(x, self.shape[0])), self.shape[1])

    def matmat(self, X):
        """The product A X.

        Parameters
        ----------
        X : array_like or npgpu.Array
            Of shape (N, K).

        Returns
        -------
        npgpu.Array
            Of shape (M, K): the operator's `matmat`, else `matvec` column by column.

        Raises
        ------
        ValueError
            X not 2-d or of another number of rows.

        Examples
        --------
        >>> op = npgpu.sparse.linalg.LinearOperator((2, 2), matvec=lambda v: 2 * v)
        >>> op.matmat(np.eye(2))
        Array([[2., 0.],
               [0., 2.]])
        """
        X = u.to_array(X, self.device, name="the operand")
        if X.ndim != 2 or X.shape[0] != self.shape[1]:
            raise ValueError(f"dimension mismatch: {self.shape} @ {tuple(X.shape)}")
        if self._matmat_fn is not None:
            return self._matmat_fn(X)
        return npgpu.stack([self.matvec(X[:, j]) for j in range(X.shape[1])], axis=1)

    def rmatmat(self, X):
        """The adjoint product A^H X: the operator's `rmatmat`, else `rmatvec` column by column.

        Parameters
        ----------
        X : npgpu.Array or array_like
            Of shape (M, K) (passed as it is to the operator's `rmatmat`).

        Returns
        -------
        npgpu.Array
            Of shape (N, K).

        Raises
        ------
        NotImplementedError
            The operator has neither `rmatmat` nor `rmatvec`.

        Examples
        --------
        >>> op = npgpu.sparse.linalg.LinearOperator((2, 2), matvec=lambda v: 2 * v, rmatvec=lambda v: 3 * v)
        >>> op.rmatmat(np.eye(2))
        Array([[3., 0.],
               [0., 3.]])
        """
        if self._rmatmat_fn is not None:
            return self._rmatmat_fn(X)
        return npgpu.stack([self.rmatvec(X[:, j]) for j in range(X.shape[1])], axis=1)

    def _vec(self, x, n=None):
        n = self.shape[1] if n is None else n
        x = u.to_array(x, self.device, name="the vector")
        if x.ndim == 2 and x.shape[1] == 1:
            x = x.reshape(x.shape[0])
        if x.ndim != 1 or x.shape[0] != n:
            raise ValueError(f"dimension mismatch: the operator has shape {self.shape}, the vector "
                             f"{tuple(x.shape)}")
        return x

    def __matmul__(self, x):
        """A applied to x (also ``A.dot(x)``): ``matvec`` for a vector, ``matmat`` for a matrix, the product operator
        for a LinearOperator.

        Parameters
        ----------
        x : array_like, npgpu.Array or LinearOperator

        Returns
        -------
        npgpu.Array or LinearOperator
        """
        if isinstance(x, LinearOperator):
            return _ProductOperator(self, x)
        x = u.to_array(x, self.device, name="the operand")
        return self.matvec(x) if x.ndim == 1 else self.matmat(x)

    dot = __matmul__

    def __call__(self, x):
        return self @ x

    def __mul__(self, x):
        if u.is_scalar(x):
            return LinearOperator(self.shape, lambda v: self.matvec(v) * x, dtype=self.dtype, device=self.device)
        return self @ x

    def adjoint(self):
        """The adjoint operator A^H (also the property `H`): `rmatvec` and `matvec` swapped.

        Returns
        -------
        LinearOperator
            Of shape (N, M); applying it needs the operator's `rmatvec`.

        Examples
        --------
        >>> op = npgpu.sparse.linalg.LinearOperator((2, 2), matvec=lambda v: 2 * v, rmatvec=lambda v: 3 * v)
        >>> op.H.matvec(np.ones(2))
        Array([3., 3.])
        """
        return LinearOperator(self.shape[::-1], self.rmatvec, rmatvec=self.matvec, dtype=self.dtype,
                              device=self.device)

    H = property(adjoint)

    def __repr__(self):
        return f"<{self.shape[0]}x{self.shape[1]} npgpu LinearOperator with dtype={self.dtype}>"


class _ProductOperator(LinearOperator):
    def __init__(self, a, b):
        if a.shape[1] != b.shape[0]:
            raise ValueError(f"dimension mismatch: {a.shape} @ {b.shape}")
        super().__init__((a.shape[0], b.shape[1]), lambda x: a.matvec(b.matvec(x)),
                         dtype=np.result_type(a.dtype, b.dtype), device=a.device or b.device)


def aslinearoperator(A):
    """A LinearOperator for a matrix.

    Parameters
    ----------
    A : sparse matrix, npgpu.Array, array_like or LinearOperator
        An npgpu.sparse matrix (CSC and COO converted to CSR once), a SciPy sparse matrix (uploaded), a dense
        npgpu.Array or NumPy array (2-d), or a LinearOperator (returned as is).

    Returns
    -------
    LinearOperator
        On the matrix's device, with matvec, rmatvec (the conjugate transpose) and matmat.

    Raises
    ------
    TypeError
        A SciPy LinearOperator (it runs on the host with NumPy: wrap the product in an
        npgpu.sparse.linalg.LinearOperator instead).
    ValueError
        A dense operand that is not 2-d.

    Examples
    --------
    >>> op = npgpu.sparse.linalg.aslinearoperator(npgpu.sparse.diags([1.0, 2.0]))
    >>> op.matvec(np.ones(2)), op.shape
    (Array([1., 2.]), (2, 2))
    """
    if isinstance(A, LinearOperator):
        return A
    if u.is_scipy_sparse(A):
        from ._compressed import csr_matrix

        A = csr_matrix(A)
    if isinstance(A, _spbase):
        if A.format != "csr":
            A = A.tocsr()
        m = A
        return LinearOperator(A.shape, lambda x: m @ x, rmatvec=lambda x: m.conj().T @ x,
                              matmat=lambda X: m @ X, dtype=A.dtype, device=A.device)
    if type(A).__module__.startswith("scipy.sparse.linalg"):
        raise TypeError("SciPy LinearOperators run on the host with NumPy; wrap the product in an "
                        "npgpu.sparse.linalg.LinearOperator instead")
    a = A if u.is_npgpu(A) else npgpu.asarray(A)
    if a.ndim != 2:
        raise ValueError(f"expected a 2-d operator, got shape {tuple(a.shape)}")
    return LinearOperator(a.shape, lambda x: npgpu.matmul(a, x), rmatvec=lambda x: npgpu.matmul(npgpu.conj(a).T, x),
                          matmat=lambda X: npgpu.matmul(a, X), dtype=a.dtype, device=a.device)


# ---------------------------------------------------------------------------- solvers' common parts
def _dot(a, b):
    """a^H b as a 0-d device array."""
    return npgpu.vecdot(a, b)


def _nrm2(a):
    """||a||_2 as a 0-d real device array."""
    return npgpu.sqrt(npgpu.real(npgpu.vecdot(a, a)))


def _masked(val, frozen):
    return npgpu.where(frozen, 0, val)


def _make_system(A, M, x0, b):
    Aop = aslinearoperator(A)
    n = Aop.shape[0]
    if Aop.shape[0] != Aop.shape[1]:
        raise ValueError(f"expected a square matrix, got shape {Aop.shape}")
    device = Aop.device
    if device is None and u.is_npgpu(b):
        device = b.device
    b = u.to_array(b, device, name="b")
    device = b.device
    if Aop.device is None:
        Aop.device = device
    if b.ndim == 2 and b.shape[1] == 1:
        b = b.reshape(b.shape[0])
    if b.ndim != 1 or b.shape[0] != n:
        raise ValueError(f"A has shape {Aop.shape}, b has shape {tuple(b.shape)}")
    dt = np.result_type(Aop.dtype, b.dtype)
    if dt.kind not in "fc":
        dt = np.dtype(np.float64)
    b = b.astype(dt) if b.dtype != dt else b
    if x0 is None:
        x = npgpu.zeros(n, dtype=dt, device=device)
    else:
        x = u.to_array(x0, device, name="x0")
        if x.ndim == 2 and x.shape[1] == 1:
            x = x.reshape(x.shape[0])
        if tuple(x.shape) != (n,):
            raise ValueError(f"A has shape {Aop.shape}, x0 has shape {tuple(x.shape)}")
        x = x.astype(dt)  # a copy: the solver updates x in place
    if M is None:
        Mop = None
    else:
        Mop = aslinearoperator(M)
        if Mop.shape != Aop.shape:
            raise ValueError(f"the preconditioner has shape {Mop.shape}, A {Aop.shape}")
        if Mop.device is None:
            Mop.device = device
    return Aop, Mop, x, b, n


def _psolve(M, r):
    return r if M is None else M.matvec(r)


def _tol(name, bnrm2, atol, rtol):
    if atol is None or rtol is None or atol < 0 or rtol < 0:
        raise ValueError(f"{name}: rtol and atol must be non-negative numbers")
    return max(float(atol), float(rtol) * bnrm2)


def _read(*flags):
    return u.read_flags(*flags)


# ---------------------------------------------------------------------------- cg
def cg(A, b, x0=None, *, rtol=1e-5, atol=0., maxiter=None, M=None, callback=None, check_every=8):
    """Conjugate gradients for a Hermitian positive definite A, as scipy.sparse.linalg.cg.

    The iteration stays on A's device; the device-side convergence flag is read back every `check_every`
    iterations (see the module's docstring).

    Parameters
    ----------
    A : sparse matrix, npgpu.Array, array_like or LinearOperator
        The (n, n) system matrix (anything `aslinearoperator` takes).
    b : array_like or npgpu.Array
        The right-hand side, (n,) or (n, 1); NumPy input is uploaded to A's device.
    x0 : array_like or npgpu.Array, optional
        The starting guess (default zeros); not modified.
    rtol, atol : float, optional
        Converged when ||b - A x|| < max(rtol ||b||, atol) (defaults 1e-5 and 0), on the recurrence's residual.
    maxiter : int, optional
        Iterations at most (default 10 n).
    M : sparse matrix, array_like or LinearOperator, optional
        A preconditioner approximating the inverse of A (its product is applied).
    callback : callable, optional
        ``callback(x)`` after each iteration (the convergence test is then read every iteration, so it sees
        exactly SciPy's iterates).
    check_every : int, optional
        Iterations between reads of the device-side convergence flag (default 8).

    Returns
    -------
    x : npgpu.Array
        The solution, on A's device (float64 for integer input).
    info : int
        0 on convergence, else the iteration count (maxiter).

    Raises
    ------
    ValueError
        A non-square A, a b, x0 or M of the wrong shape, or a negative rtol or atol.

    Examples
    --------
    >>> A = npgpu.sparse.diags([[-1.0] * 3, [4.0] * 4, [-1.0] * 3], [-1, 0, 1])
    >>> x, info = npgpu.sparse.linalg.cg(A, np.ones(4))
    >>> x, info
    (Array([0.36363636, 0.45454545, 0.45454545, 0.36363636]), 0)
    """
    given = A
    A, M, x, b, n = _make_system(A, M, x0, b)
    bnrm2 = float(_nrm2(b))
    tol = _tol("cg", bnrm2, atol, rtol)
    if bnrm2 == 0:
        return npgpu.zeros_like(b), 0
    maxiter = n * 10 if maxiter is None else int(maxiter)
    r = b - A.matvec(x) if x0 is not None else b.copy()
    tol2 = tol * tol
    if M is None and _krylov is not None and x.dtype in u.KERNEL_DTYPES:
        csr = given if isinstance(given, _csr_base) and u.same_device(given.device, x.device) else None
        return _cg_fused(A, csr, x, r, tol2, maxiter, callback, check_every)
    done = npgpu.real(_dot(r, r)) < tol2
    p = rho_prev = None
    for it in range(maxiter):
        if (callback is not None or it % check_every == 0) and _read(done)[0]:
            return x, 0
        z = _psolve(M, r)
        rho = _dot(r, z)
        if p is None:
            p = z.copy()
        else:
            p = z + _masked(rho / rho_prev, done) * p
        q = A.matvec(p)
        alpha = _masked(rho / _dot(p, q), done)
        x += alpha * p
        r -= alpha * q
        rho_prev = rho
        done = done | (npgpu.real(_dot(r, r)) < tol2)
        if callback is not None:
            callback(x)
    return x, 0 if _read(done)[0] else maxiter


def _aliases(q, *vectors):
    """Whether q's buffer is one of the vectors' (a LinearOperator may return its input)."""
    return any(q.ptr < v.ptr + v.nbytes and v.ptr < q.ptr + q.nbytes for v in vectors)


def _cg_fused(A, csr, x, r, tol2, maxiter, callback, check_every):
    """cg without a preconditioner through npgpu._krylov's steps: the same recurrence as the composed loop
    above (alpha masked to 0 once converged, the flag read every `check_every` iterations). A CSR matrix's
    product is part of the step (`csr`: the matrix, else None and A.matvec gives it)."""
    state = npgpu.empty(_krylov.cg_state_size(n := r.shape[0]), dtype=np.float64, device=r.device)
    _krylov.cg_start(r, tol2, state)
    slot = _krylov.CG_SLOT
    p = r.copy()
    if csr is not None:
        q = npgpu.empty_like(p)
        data = csr.data if csr.dtype == x.dtype else csr.data.astype(x.dtype)
        longest = csr._longest_row() if str(x.device) != "cpu" else -1
    parity = 0
    for it in range(maxiter):
        if (callback is not None or it % check_every == 0) and float(state[slot * parity + 1]) != 0:
            return x, 0
        if csr is not None:
            _krylov.cg_step_csr(csr.indptr, csr.indices, data, x, r, p, q, state, parity, longest)
        else:
            q = A.matvec(p)
            if q.dtype != x.dtype or tuple(q.shape) != (n,) or not q.flags["C_CONTIGUOUS"] or _aliases(q, x, r, p):
                q = npgpu.ascontiguousarray(q.reshape(n), dtype=x.dtype).copy()
            _krylov.cg_step(x, r, p, q, state, parity)
        parity ^= 1
        if callback is not None:
            callback(x)
    return x, 0 if float(state[slot * parity + 1]) != 0 else maxiter


# ---------------------------------------------------------------------------- bicgstab
def bicgstab(A, b, x0=None, *, rtol=1e-5, atol=0., maxiter=None, M=None, callback=None, check_every=8):
    """BiConjugate Gradient STABilized for a general A, as scipy.sparse.linalg.bicgstab.

    The iteration stays on A's device; the device-side convergence and breakdown flags are read back every
    `check_every` iterations (see the module's docstring).

    Parameters
    ----------
    A : sparse matrix, npgpu.Array, array_like or LinearOperator
        The (n, n) system matrix (anything `aslinearoperator` takes).
    b : array_like or npgpu.Array
        The right-hand side, (n,) or (n, 1); NumPy input is uploaded to A's device.
    x0 : array_like or npgpu.Array, optional
        The starting guess (default zeros); not modified.
    rtol, atol : float, optional
        Converged when the residual's norm is below max(rtol ||b||, atol) (defaults 1e-5 and 0).
    maxiter : int, optional
        Iterations at most (default 10 n).
    M : sparse matrix, array_like or LinearOperator, optional
        A preconditioner approximating the inverse of A.
    callback : callable, optional
        ``callback(x)`` after each iteration (the flags are then read every iteration).
    check_every : int, optional
        Iterations between reads of the device-side flags (default 8).

    Returns
    -------
    x : npgpu.Array
        The solution, on A's device.
    info : int
        0 on convergence, the iteration count (maxiter) when it ran out, -10 / -11 on a rho / omega breakdown.

    Raises
    ------
    ValueError
        A non-square A, a b, x0 or M of the wrong shape, or a negative rtol or atol.

    Examples
    --------
    >>> A = npgpu.sparse.csr_matrix(np.array([[4.0, 1.0], [-2.0, 3.0]]))
    >>> x, info = npgpu.sparse.linalg.bicgstab(A, np.array([5.0, 1.0]))
    >>> x, info
    (Array([1., 1.]), 0)
    """
    A, M, x, b, n = _make_system(A, M, x0, b)
    bnrm2 = float(_nrm2(b))
    tol = _tol("bicgstab", bnrm2, atol, rtol)
    if bnrm2 == 0:
        return npgpu.zeros_like(b), 0
    maxiter = n * 10 if maxiter is None else int(maxiter)
    eps = np.finfo(x.dtype).eps
    rhotol = omegatol = float(eps) ** 2
    tol2 = tol * tol
    r = b - A.matvec(x) if x0 is not None else b.copy()
    rtilde = r.copy()
    done = npgpu.real(_dot(r, r)) < tol2
    rho_brk = npgpu.zeros((), dtype=np.bool_, device=b.device)
    om_brk = rho_brk.copy()
    p = v = rho_prev = alpha = omega = None
    for it in range(maxiter):
        if callback is not None or it % check_every == 0:
            d, rb, ob = _read(done, rho_brk, om_brk)
            if d:
                return x, 0
            if rb or ob:
                return x, -10 if rb else -11
        stop = done | rho_brk | om_brk
        rho = _dot(rtilde, r)
        rho_brk = rho_brk | (~stop & (npgpu.abs(rho) < rhotol))
        if p is None:
            p = r.copy()
        else:
            om_brk = om_brk | (~stop & (npgpu.abs(omega) < omegatol))
            stop = done | rho_brk | om_brk
            beta = _masked((rho / rho_prev) * (alpha / omega), stop)
            p = r + beta * (p - omega * v)
        stop = done | rho_brk | om_brk
        phat = _psolve(M, p)
        v = A.matvec(phat)
        alpha = _masked(rho / _dot(rtilde, v), stop)
        s = r - alpha * v
        half = npgpu.real(_dot(s, s)) < tol2
        shat = _psolve(M, s)
        t = A.matvec(shat)
        omega = _masked(_dot(t, s) / _dot(t, t), stop | half)
        x += alpha * phat
        x += omega * shat
        r = s - omega * t
        rho_prev = rho
        done = done | (~stop & (half | (npgpu.real(_dot(r, r)) < tol2)))
        if callback is not None:
            callback(x)
    d, rb, ob = _read(done, rho_brk, om_brk)
    return x, 0 if d else (-10 if rb else (-11 if ob else maxiter))


# ---------------------------------------------------------------------------- gmres
def _hessenberg_residuals(H, beta, k0, k1):
    """||beta e1 - H_k y_k|| for k = k0..k1 (host, small)."""
    out = []
    for k in range(k0, k1 + 1):
        g = np.zeros(k + 1, dtype=H.dtype)
        g[0] = beta
        y, *_ = np.linalg.lstsq(H[:k + 1, :k], g, rcond=None)
        out.append(float(np.linalg.norm(g - H[:k + 1, :k] @ y)))
    return out


def gmres(A, b, x0=None, *, rtol=1e-5, atol=0., restart=None, maxiter=None, M=None, callback=None,
          callback_type=None, check_every=8):
    """Restarted GMRES, as scipy.sparse.linalg.gmres (left preconditioning).

    The Arnoldi basis and the Hessenberg matrix stay on the device (classical Gram-Schmidt applied twice, as
    matrix-vector products); the small Hessenberg matrix is read back every `check_every` columns to estimate the
    residual, and the cycle stops at the exact column where the estimate meets the tolerance.

    Parameters
    ----------
    A : sparse matrix, npgpu.Array, array_like or LinearOperator
        The (n, n) system matrix (anything `aslinearoperator` takes).
    b : array_like or npgpu.Array
        The right-hand side, (n,) or (n, 1); NumPy input is uploaded to A's device.
    x0 : array_like or npgpu.Array, optional
        The starting guess (default zeros); not modified.
    rtol, atol : float, optional
        Converged when ||b - A x|| <= max(rtol ||b||, atol) (defaults 1e-5 and 0).
    restart : int, optional
        Krylov vectors per cycle (default 20, at most n).
    maxiter : int, optional
        Restart cycles at most (default 10 n); inner iterations with ``callback_type='legacy'``.
    M : sparse matrix, array_like or LinearOperator, optional
        A preconditioner approximating the inverse of A.
    callback : callable, optional
        Called as `callback_type` says.
    callback_type : {"x", "pr_norm", "legacy"}, optional
        "x": ``callback(x)`` after each cycle; "pr_norm" and "legacy" (the default when a callback is given):
        ``callback(residual estimate / ||b||)`` at each inner iteration (the Hessenberg matrix is then read
        every column).
    check_every : int, optional
        Columns between reads of the Hessenberg matrix (default 8).

    Returns
    -------
    x : npgpu.Array
        The solution, on A's device.
    info : int
        0 on convergence, else maxiter.

    Raises
    ------
    ValueError
        A non-square A, a b, x0 or M of the wrong shape, a negative rtol or atol, or an unknown `callback_type`.

    Examples
    --------
    >>> A = npgpu.sparse.csr_matrix(np.array([[4.0, 1.0], [-2.0, 3.0]]))
    >>> x, info = npgpu.sparse.linalg.gmres(A, np.array([5.0, 1.0]))
    >>> x, info
    (Array([1., 1.]), 0)
    """
    A, M, x, b, n = _make_system(A, M, x0, b)
    bnrm2 = float(_nrm2(b))
    tol = _tol("gmres", bnrm2, atol, rtol)
    if bnrm2 == 0:
        return npgpu.zeros_like(b), 0
    if callback is not None and callback_type is None:
        callback_type = "legacy"
    if callback_type not in (None, "x", "pr_norm", "legacy"):
        raise ValueError(f"unknown callback_type {callback_type!r}")
    maxiter = n * 10 if maxiter is None else int(maxiter)
    restart = min(20 if restart is None else int(restart), n)
    dt = x.dtype
    cplx = dt.kind == "c"
    eps = float(np.finfo(dt).eps)
    mb_nrm2 = float(_nrm2(_psolve(M, b)))
    ptol_max_factor = 1.0
    ptol = mb_nrm2 * min(ptol_max_factor, tol / bnrm2)
    r = b - A.matvec(x) if x0 is not None else b.copy()
    rnorm = float(_nrm2(r))
    if rnorm < tol:
        return x, 0
    inner = 0
    presid = 0.0
    for _ in range(maxiter):
        z = _psolve(M, r)
        beta = _nrm2(z)
        V = npgpu.empty((restart + 1, n), dtype=dt, device=b.device)
        V[0] = z / beta
        H = npgpu.zeros((restart + 1, restart), dtype=dt, device=b.device)
        h0s = npgpu.zeros(restart, dtype=x.real.dtype if cplx else dt, device=b.device)
        k_stop, breakdown, checked = None, False, 0
        for j in range(restart):
            w = _psolve(M, A.matvec(V[j]))
            h0s[j] = _nrm2(w)
            Vj = V[:j + 1]
            Vc = npgpu.conj(Vj) if cplx else Vj
            h = npgpu.matmul(Vc, w)
            w = w - npgpu.matmul(Vj.T, h)
            h2 = npgpu.matmul(Vc, w)
            w = w - npgpu.matmul(Vj.T, h2)
            H[:j + 1, j] = h + h2
            hn = _nrm2(w)
            H[j + 1, j] = hn
            V[j + 1] = w / npgpu.where(hn == 0, 1, hn)
            last = j == restart - 1 or (callback_type == "legacy" and inner + (j + 1 - checked) >= maxiter)
            if (j + 1) % check_every and not last and callback_type not in ("pr_norm", "legacy"):
                continue
            Hh, h0h, bh = H.get(), h0s.get(), float(beta)
            res = _hessenberg_residuals(Hh, bh, checked + 1, j + 1)
            for kk, pres in zip(range(checked + 1, j + 2), res):
                presid = pres
                inner += 1
                brk = abs(Hh[kk, kk - 1]) <= eps * h0h[kk - 1] or not np.isfinite(Hh[kk, kk - 1])
                if callback is not None and callback_type in ("legacy", "pr_norm"):
                    callback(presid / bnrm2)
                if presid <= ptol or brk or (callback_type == "legacy" and inner >= maxiter):
                    k_stop, breakdown = kk, brk
                    break
            checked = j + 1
            if k_stop is not None or last:
                break
        k = k_stop if k_stop is not None else checked
        Hh = H.get()[:k + 1, :k]
        g = np.zeros(k + 1, dtype=dt)
        g[0] = float(beta)
        y, *_ = np.linalg.lstsq(Hh, g, rcond=None)
        x += npgpu.matmul(V[:k].T, npgpu.asarray(y.astype(dt), device=b.device))
        r = b - A.matvec(x)
        rnorm = float(_nrm2(r))
        if callback is not None and callback_type == "x":
            callback(x)
        if callback_type == "legacy" and inner >= maxiter:
            return x, 0 if rnorm <= tol else maxiter
        if rnorm <= tol or breakdown:
            break
        if presid <= ptol:
            ptol_max_factor = max(eps, 0.25 * ptol_max_factor)
        else:
            ptol_max_factor = min(1.0, 1.5 * ptol_max_factor)
        ptol = presid * min(ptol_max_factor, tol / rnorm)
    return x, 0 if rnorm <= tol else maxiter


# ---------------------------------------------------------------------------- minres
def minres(A, b, x0=None, *, rtol=1e-5, shift=0.0, maxiter=None, M=None, callback=None, show=False,
           check=False, check_every=8):
    """MINRES for a Hermitian (possibly indefinite) A, as scipy.sparse.linalg.minres.

    Paige and Saunders' recurrences; solves (A - shift I) x = b. Converged means the recurrence's residual
    estimate ||b - A x||_M <= rtol ||b||_M, a stricter test than SciPy's (which scales by ||A|| ||x||).

    Parameters
    ----------
    A : sparse matrix, npgpu.Array, array_like or LinearOperator
        The (n, n) Hermitian system matrix (anything `aslinearoperator` takes).
    b : array_like or npgpu.Array
        The right-hand side, (n,) or (n, 1); NumPy input is uploaded to A's device.
    x0 : array_like or npgpu.Array, optional
        The starting guess (default zeros); not modified.
    rtol : float, optional
        The relative tolerance (default 1e-5).
    shift : float, optional
        Solve (A - shift I) x = b (default 0).
    maxiter : int, optional
        Iterations at most (default 5 n).
    M : sparse matrix, array_like or LinearOperator, optional
        A Hermitian positive definite preconditioner.
    callback : callable, optional
        ``callback(x)`` after each iteration (the convergence flag is then read every iteration).
    show, check : bool, optional
        Not used (accepted for SciPy compatibility).
    check_every : int, optional
        Iterations between reads of the device-side convergence flag (default 8).

    Returns
    -------
    x : npgpu.Array
        The solution, on A's device.
    info : int
        0 on convergence, else maxiter.

    Raises
    ------
    ValueError
        A non-square A, a b, x0 or M of the wrong shape, or an indefinite preconditioner.

    Examples
    --------
    >>> A = npgpu.sparse.diags([[-1.0] * 3, [4.0] * 4, [-1.0] * 3], [-1, 0, 1])
    >>> x, info = npgpu.sparse.linalg.minres(A, np.ones(4), shift=1.0)  # (A - I) x = b
    >>> x, info
    (Array([0.6, 0.8, 0.8, 0.6]), 0)
    """
    A, M, x, b, n = _make_system(A, M, x0, b)
    maxiter = 5 * n if maxiter is None else int(maxiter)
    rdt = x.real.dtype if x.dtype.kind == "c" else x.dtype
    eps = float(np.finfo(rdt).eps)
    if float(_nrm2(b)) == 0:
        return npgpu.zeros_like(b), 0
    bnorm_m = float(npgpu.sqrt(npgpu.real(_dot(b, _psolve(M, b)))))
    tol = rtol * bnorm_m
    r1 = b - A.matvec(x) if x0 is not None else b.copy()
    if shift and x0 is not None:
        r1 = r1 + shift * x
    y = _psolve(M, r1)
    beta1 = npgpu.real(_dot(r1, y))
    b1 = float(beta1)
    if b1 < 0:
        raise ValueError("indefinite preconditioner")
    if b1 == 0:
        return x, 0
    beta1 = npgpu.sqrt(beta1)
    dev = b.device

    def s0(v):
        return npgpu.full((), v, dtype=rdt, device=dev)

    oldb, beta, dbar, epsln = s0(0), beta1, s0(0), s0(0)
    phibar = beta1
    cs, sn = s0(-1), s0(0)
    w = npgpu.zeros(n, dtype=x.dtype, device=dev)
    w2 = w.copy()
    r2 = r1
    done = phibar <= tol
    for itn in range(1, maxiter + 1):
        if (callback is not None or (itn - 1) % check_every == 0) and _read(done)[0]:
            return x, 0
        s = 1 / npgpu.where(beta == 0, 1, beta)
        v = s * y
        y = A.matvec(v)
        if shift:
            y = y - shift * v
        if itn >= 2:
            y = y - (beta / npgpu.where(oldb == 0, 1, oldb)) * r1
        alfa = npgpu.real(_dot(v, y))
        y = y - (alfa / npgpu.where(beta == 0, 1, beta)) * r2
        r1, r2 = r2, y
        y = _psolve(M, r2)
        oldb = beta
        beta = npgpu.sqrt(npgpu.maximum(npgpu.real(_dot(r2, y)), 0))
        oldeps = epsln
        delta = cs * dbar + sn * alfa
        gbar = sn * dbar - cs * alfa
        epsln = sn * beta
        dbar = -cs * beta
        gamma = npgpu.maximum(npgpu.hypot(gbar, beta), eps)
        cs = gbar / gamma
        sn = beta / gamma
        phi = _masked(cs * phibar, done)
        phibar = npgpu.where(done, phibar, sn * phibar)
        w1, w2 = w2, w
        w = (v - oldeps * w1 - delta * w2) * (1 / gamma)
        x += phi * w
        done = done | (phibar <= tol)
        if callback is not None:
            callback(x)
    return x, 0 if _read(done)[0] else maxiter


# ---------------------------------------------------------------------------- norm
def norm(x, ord=None, axis=None):
    """Norms of a sparse matrix, as scipy.sparse.linalg.norm.

    Duplicates are summed first (on a copy).

    Parameters
    ----------
    x : sparse matrix
        An npgpu.sparse matrix.
    ord : {None, "fro", "f", 1, -1, inf, -inf, 2}, optional
        Without `axis`: "fro" (default, also "f" and None), 1 (max column sum of |a_ij|), inf (max row sum),
        -1 / -inf (the minimums). With `axis`: the vector norms of the columns / rows, None or 2 (default), 1,
        inf or -inf (inf and -inf work on the dense matrix).
    axis : {None, 0, 1, -1, -2} or tuple, optional
        None (default): a matrix norm (so is a pair of axes); 0: of each column; 1: of each row.

    Returns
    -------
    npgpu.Array
        A 0-d (or, with `axis`, 1-d) npgpu.Array on the device.

    Raises
    ------
    TypeError
        x is not an npgpu.sparse matrix.
    NotImplementedError
        ord=2 without `axis` (the matrix 2-norm).
    ValueError
        Another `ord` or `axis`.

    Examples
    --------
    >>> A = npgpu.sparse.csr_matrix(np.array([[3.0, -4.0], [0.0, 1.0]]))
    >>> npgpu.sparse.linalg.norm(A), npgpu.sparse.linalg.norm(A, 1), npgpu.sparse.linalg.norm(A, np.inf)
    (Array(5.09901951), Array(5.), Array(7.))
    >>> npgpu.sparse.linalg.norm(A, axis=1)
    Array([5., 1.])
    """
    if not isinstance(x, _spbase):
        raise TypeError("input is not an npgpu.sparse matrix")
    a = abs(x)  # canonical: duplicates summed, then |.|
    if axis is None:
        if ord in (None, "fro", "f"):
            return npgpu.sqrt(npgpu.sum(npgpu.real(a.data) ** 2)) if a.nnz else npgpu.zeros((), device=x.device)
        if ord in (1, -1, np.inf, -np.inf, float("inf"), float("-inf")):
            s = a.sum(axis=0 if abs(ord) == 1 else 1)
            s = npgpu.real(s).reshape(-1)
            if s.shape[0] == 0:
                return npgpu.zeros((), device=x.device)
            return npgpu.max(s) if ord > 0 else npgpu.min(s)
        if ord == 2:
            raise NotImplementedError("the 2-norm of a sparse matrix is not implemented (use svds)")
        raise ValueError(f"invalid norm order {ord!r} for matrices")
    if isinstance(axis, tuple):
        if len(axis) == 2:
            return norm(x, ord=ord)
        axis = axis[0]
    if axis not in (0, 1, -1, -2):
        raise ValueError(f"invalid axis {axis!r}")
    axis %= 2
    m, n = x.shape
    rows, cols, data = a._triples()
    data = npgpu.real(data)
    size = n if axis == 0 else m
    idx = cols if axis == 0 else rows
    if ord in (None, 2):
        out = npgpu.zeros(size, dtype=data.dtype, device=x.device)
        if data.shape[0]:
            npgpu.add.at(out, idx, data * data)
        return npgpu.sqrt(out)
    if ord == 1:
        out = npgpu.zeros(size, dtype=data.dtype, device=x.device)
        if data.shape[0]:
            npgpu.add.at(out, idx, data)
        return out
    if ord in (np.inf, -np.inf):
        d = a.toarray()
        return npgpu.max(npgpu.abs(d), axis=axis) if ord > 0 else npgpu.min(npgpu.abs(d), axis=axis)
    raise ValueError(f"invalid norm order {ord!r} for vectors")


# ---------------------------------------------------------------------------- spsolve_triangular
def spsolve_triangular(A, b, lower=True, overwrite_A=False, overwrite_b=False, unit_diagonal=False):
    """Solve A x = b for a triangular sparse A, as scipy.sparse.linalg.spsolve_triangular.

    Only A's lower (or upper) triangle is read. Rows are solved by levels on the device: each round solves every
    row whose dependencies are solved (one gather and one scatter-add over the stored entries per round; as many
    rounds as the dependency graph has levels).

    Parameters
    ----------
    A : sparse matrix
        The (n, n) matrix, an npgpu.sparse matrix or a SciPy one (uploaded as CSR); duplicates are summed.
    b : array_like or npgpu.Array
        The right-hand side, (n,) or (n, k) (each column solved in turn).
    lower : bool, optional
        Read the lower triangle (default True) or the upper one.
    overwrite_A, overwrite_b : bool, optional
        Not used (A and b are never modified).
    unit_diagonal : bool, optional
        Take the diagonal to be ones without reading it (default False).

    Returns
    -------
    npgpu.Array
        x, of b's shape, on A's device; of A's and b's result type (float64 for integer and bool input).

    Raises
    ------
    TypeError
        A is not a sparse matrix.
    ValueError
        A non-square A, or a b of the wrong shape.
    numpy.linalg.LinAlgError
        A missing or zero diagonal entry ("A is singular"), unless `unit_diagonal`.

    Examples
    --------
    >>> L = npgpu.sparse.csr_matrix(np.array([[2.0, 0.0], [1.0, 4.0]]))
    >>> npgpu.sparse.linalg.spsolve_triangular(L, np.array([2.0, 6.0]))
    Array([1.  , 1.25])
    """
    if u.is_scipy_sparse(A):
        from ._compressed import csr_matrix

        A = csr_matrix(A)
    if not isinstance(A, _spbase):
        raise TypeError("A must be a sparse matrix")
    m, n = A.shape
    if m != n:
        raise ValueError(f"A must be a square matrix, not of shape {A.shape}")
    bb = u.to_array(b, A.device, name="b")
    if bb.ndim not in (1, 2) or bb.shape[0] != n:
        raise ValueError(f"shape mismatch: A has shape {A.shape}, b {tuple(bb.shape)}")
    dt = np.result_type(A.dtype, bb.dtype)
    if dt.kind not in "fc":
        dt = np.dtype(np.float64)
    if bb.ndim == 2:
        cols = [spsolve_triangular(A, bb[:, j], lower=lower, unit_diagonal=unit_diagonal)
                for j in range(bb.shape[1])]
        if not cols:
            return npgpu.zeros(bb.shape, dtype=dt, device=A.device)
        return npgpu.stack(cols, axis=1)
    c = A.tocsr(copy=True)
    c.sum_duplicates()
    rows, cols_, data = c._triples()
    data = data.astype(dt)
    rows64, cols64 = rows.astype(np.int64), cols_.astype(np.int64)
    dev = A.device
    if unit_diagonal:
        diag = npgpu.ones(n, dtype=dt, device=dev)
    else:
        diag = c.diagonal().astype(dt)
        if n and u.read_flags(npgpu.any(diag == 0))[0]:
            raise np.linalg.LinAlgError("A is singular: a diagonal entry is zero or missing")
    off = npgpu.flatnonzero(cols64 < rows64) if lower else npgpu.flatnonzero(cols64 > rows64)
    r_off, c_off = npgpu.take(rows64, off), npgpu.take(cols64, off)
    d_off = npgpu.take(data, off)
    x = npgpu.zeros(n, dtype=dt, device=dev)
    acc = bb.astype(dt).copy()  # b minus the contributions of solved rows
    solved = npgpu.zeros(n, dtype=np.bool_, device=dev)
    pending = npgpu.ones(off.shape[0], dtype=np.bool_, device=dev)  # off-diagonal entries not yet applied
    remaining = n
    while remaining:
        # rows all of whose off-diagonal entries have been applied are ready
        waiting = npgpu.zeros(n, dtype=np.int64, device=dev)
        if off.shape[0]:
            npgpu.add.at(waiting, r_off, pending.astype(np.int64))
        ready = npgpu.flatnonzero((waiting == 0) & ~solved)
        k = ready.shape[0]
        if k == 0:  # cannot happen for a triangle; guards against an endless loop
            raise RuntimeError("spsolve_triangular: no row can be solved")
        vals = npgpu.take(acc, ready) / npgpu.take(diag, ready)
        x[ready] = vals
        solved[ready] = True
        remaining -= k
        if remaining and off.shape[0]:
            # apply the entries whose column was just solved
            newly = npgpu.take(solved, c_off) & pending
            sel = npgpu.flatnonzero(newly)
            if sel.shape[0]:
                contrib = npgpu.take(d_off, sel) * npgpu.take(x, npgpu.take(c_off, sel))
                npgpu.add.at(acc, npgpu.take(r_off, sel), -contrib)
                pending[sel] = False
    return x
