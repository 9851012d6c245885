"""npgpu.sparse.linalg against scipy.sparse.linalg: cg, bicgstab, gmres, minres on 2-D Poisson (SPD),
convection-diffusion (nonsymmetric), an indefinite symmetric matrix and a complex Hermitian system; norm,
spsolve_triangular, LinearOperator. Runs on the host device and on the GPU (``array_device``)."""
import numpy as np
import pytest

import npgpu
import npgpu.sparse as ns
from npgpu.sparse import linalg as nl

sp = pytest.importorskip("scipy.sparse")
spl = pytest.importorskip("scipy.sparse.linalg")


def _grid(k, lo=-1.0, hi=-1.0):
    T = sp.diags([lo, 2.0, hi], [-1, 0, 1], shape=(k, k))
    return (sp.kron(sp.eye(k), T) + sp.kron(T, sp.eye(k))).tocsr()


def _systems():
    rng = np.random.default_rng(0)
    poisson = _grid(14)
    n = poisson.shape[0]
    b = rng.standard_normal(n)
    conv = _grid(14, -1.3, -0.7)
    indef = (poisson - 2.5 * sp.eye(n)).tocsr()
    z = sp.random(n, n, density=0.01, random_state=3) * (1 + 1j)
    herm = (poisson + 0.5 * (z + z.conj().T) + 2 * sp.eye(n)).tocsr()
    bc = b + 1j * rng.standard_normal(n)
    return {"poisson": (poisson, b), "convdiff": (conv, b), "indefinite": (indef, b), "hermitian": (herm, bc)}


SYS = _systems()
SOLVERS = {
    "poisson": ["cg", "bicgstab", "gmres", "minres"],
    "convdiff": ["bicgstab", "gmres"],
    "indefinite": ["minres", "gmres"],
    "hermitian": ["cg", "bicgstab", "gmres", "minres"],
}
CASES = [(s, f) for s, fs in SOLVERS.items() for f in fs]


@pytest.mark.parametrize("system,solver", CASES, ids=[f"{s}-{f}" for s, f in CASES])
def test_solvers_converge_to_scipys_solution(array_device, system, solver):
    S, b = SYS[system]
    exact = spl.spsolve(S.tocsc(), b)
    kw = {"restart": S.shape[0]} if solver == "gmres" and system == "indefinite" else {}
    fn = getattr(nl, solver)
    x, info = fn(ns.csr_matrix(S), b, rtol=1e-10, maxiter=3000, **kw)
    assert info == 0
    assert isinstance(x, npgpu.Array) and str(x.device) == str(npgpu.empty(1).device)
    xs = x.get()
    assert np.linalg.norm(xs - exact) <= 1e-6 * np.linalg.norm(exact)
    assert np.linalg.norm(S @ xs - b) <= 1e-9 * np.linalg.norm(b) * 10


@pytest.mark.parametrize("solver", ["cg", "bicgstab", "gmres"])
def test_solver_matches_scipy_iterates_and_options(array_device, solver):
    S, b = SYS["poisson"]
    A = ns.csr_matrix(S)
    fn, sfn = getattr(nl, solver), getattr(spl, solver)
    # exact stop: the returned x is SciPy's iterate, not one overshot by the deferred convergence check
    x, info = fn(A, b, rtol=1e-4)
    xs, sinfo = sfn(S, b, rtol=1e-4)
    assert info == sinfo == 0
    np.testing.assert_allclose(x.get(), xs, rtol=1e-6, atol=1e-8 * np.abs(xs).max())
    # maxiter exhausted -> info > 0, as SciPy
    x, info = fn(A, b, rtol=1e-14, maxiter=2)
    assert info == 2
    # x0, atol, a preconditioner (Jacobi), a callback
    d = S.diagonal()
    M = ns.diags(1.0 / d)
    seen = []
    cb_kw = {"callback_type": "x"} if solver == "gmres" else {}
    x, info = fn(A, b, x0=np.ones(b.shape[0]), rtol=0, atol=1e-8, M=M, callback=lambda xk: seen.append(1),
                 **cb_kw)
    assert info == 0 and seen
    assert np.linalg.norm(S @ x.get() - b) <= 1e-8 * 1.0001
    # b of shape (n, 1), zero b
    x, info = fn(A, b.reshape(-1, 1), rtol=1e-8)
    assert info == 0 and x.shape == (b.shape[0],)
    x, info = fn(A, np.zeros_like(b))
    assert info == 0 and not np.any(x.get())


def test_cg_callback_count_matches_scipy(array_device):
    S, b = SYS["poisson"]
    ours, theirs = [], []
    nl.cg(ns.csr_matrix(S), b, rtol=1e-6, callback=lambda xk: ours.append(1))
    spl.cg(S, b, rtol=1e-6, callback=lambda xk: theirs.append(1))
    assert abs(len(ours) - len(theirs)) <= 1 and len(ours) > 5


@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
def test_single_precision(array_device, dtype):
    S, b = SYS["poisson"]
    A = ns.csr_matrix(S.astype(dtype))
    x, info = nl.cg(A, b.astype(dtype), rtol=1e-4)
    assert info == 0 and x.dtype == dtype
    assert np.linalg.norm(S @ x.get() - b) <= 2e-4 * np.linalg.norm(b)


def test_linear_operator(array_device):
    S, b = SYS["poisson"]
    A = ns.csr_matrix(S)
    op = nl.LinearOperator(S.shape, matvec=lambda v: A @ v, dtype=np.float64)
    x, info = nl.cg(op, npgpu.asarray(b), rtol=1e-8)
    assert info == 0 and np.linalg.norm(S @ x.get() - b) <= 1e-7 * np.linalg.norm(b)
    L = nl.aslinearoperator(A.tocsc())
    np.testing.assert_allclose((L @ b).get(), S @ b)
    np.testing.assert_allclose(L.rmatvec(b).get(), S.T @ b)
    np.testing.assert_allclose(L.matmat(np.ones((S.shape[0], 2))).get(), S @ np.ones((S.shape[0], 2)))
    D = nl.aslinearoperator(S.toarray()[:5, :5])
    np.testing.assert_allclose((D @ np.ones(5)).get(), S.toarray()[:5, :5] @ np.ones(5))
    assert nl.aslinearoperator(op) is op
    np.testing.assert_allclose(((op @ op) @ b).get(), S @ (S @ b))
    with pytest.raises(ValueError, match="dimension mismatch"):
        op.matvec(np.ones(3))
    with pytest.raises(ValueError, match="matvec or matmat"):
        nl.LinearOperator((2, 2))


def test_solver_errors(array_device):
    S, b = SYS["poisson"]
    A = ns.csr_matrix(S)
    with pytest.raises(ValueError, match="shape"):
        nl.cg(A, b[:-1])
    with pytest.raises(ValueError, match="square"):
        nl.gmres(ns.csr_matrix(S[:-1]), b[:-1])
    with pytest.raises(ValueError, match="x0"):
        nl.bicgstab(A, b, x0=np.ones(3))
    with pytest.raises(ValueError, match="non-negative"):
        nl.cg(A, b, rtol=-1)


def test_norm(array_device):
    for S in (SYS["convdiff"][0], SYS["hermitian"][0], sp.csr_matrix((3, 4))):
        A = ns.csr_matrix(S)
        for ord in (None, "fro", 1, -1, np.inf, -np.inf):
            np.testing.assert_allclose(float(nl.norm(A, ord)), spl.norm(S, ord), rtol=1e-12)
        for axis in (0, 1):
            for ord in (None, 1, np.inf):
                np.testing.assert_allclose(nl.norm(A, ord, axis=axis).get(), spl.norm(S, ord, axis=axis),
                                           rtol=1e-12)
    dup = sp.csr_matrix((np.array([1.0, 2.0]), np.array([0, 0]), np.array([0, 2])), shape=(1, 1))
    assert float(nl.norm(ns.csr_matrix(dup))) == 3.0
    with pytest.raises(ValueError, match="invalid norm order"):
        nl.norm(ns.eye(3), 3)


@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("unit", [False, True])
def test_spsolve_triangular(array_device, lower, unit):
    rng = np.random.default_rng(5)
    n = 60
    R = sp.random(n, n, density=0.08, random_state=7) + 3 * sp.eye(n)
    T = (sp.tril(R) if lower else sp.triu(R)).tocsr()
    b = rng.standard_normal(n)
    want = spl.spsolve_triangular(T, b, lower=lower, unit_diagonal=unit)
    got = nl.spsolve_triangular(ns.csr_matrix(T), b, lower=lower, unit_diagonal=unit)
    np.testing.assert_allclose(got.get(), want, rtol=1e-10, atol=1e-12)
    B = rng.standard_normal((n, 2)) + 1j * rng.standard_normal((n, 2))
    got = nl.spsolve_triangular(ns.csr_matrix(T).tocsc(), B, lower=lower, unit_diagonal=unit)
    np.testing.assert_allclose(got.get(), spl.spsolve_triangular(T, B, lower=lower, unit_diagonal=unit),
                               rtol=1e-10, atol=1e-12)


def test_spsolve_triangular_errors(array_device):
    with pytest.raises(np.linalg.LinAlgError, match="singular"):
        nl.spsolve_triangular(ns.csr_matrix(np.array([[1.0, 0], [1, 0]])), np.ones(2))
    with pytest.raises(ValueError, match="square"):
        nl.spsolve_triangular(ns.csr_matrix(np.ones((2, 3))), np.ones(2))
    with pytest.raises(ValueError, match="shape mismatch"):
        nl.spsolve_triangular(ns.eye(3), np.ones(2))


@pytest.mark.parametrize("dtype", [np.float32, np.complex128])
def test_cg_fused_steps_match_the_composed_iteration(array_device, monkeypatch, dtype):
    # without a preconditioner cg runs npgpu._krylov's fused steps; the composed npgpu operations are the
    # reference: the same iterates, up to the dot products' float64 accumulation
    S, b = SYS["hermitian" if np.dtype(dtype).kind == "c" else "poisson"]
    A = ns.csr_matrix(S.astype(dtype))
    seen = {}
    for fused in (True, False):
        if not fused:
            monkeypatch.setattr(nl, "_krylov", None)
        its = []
        x, info = nl.cg(A, b.astype(dtype), rtol=1e-5, callback=lambda xk: its.append(xk.get()))
        seen[fused] = (x.get(), info, its)
    assert seen[True][1] == seen[False][1] == 0
    assert abs(len(seen[True][2]) - len(seen[False][2])) <= 1
    tol = 1e-4 if dtype == np.float32 else 1e-10
    np.testing.assert_allclose(seen[True][0], seen[False][0], rtol=tol, atol=tol)
    np.testing.assert_allclose(seen[True][2][5], seen[False][2][5], rtol=tol, atol=tol)


def test_cg_operator_returning_its_input(array_device):
    # an operator may hand back the vector it was given: the fused step must not update p through q
    n = 50
    ident = nl.LinearOperator((n, n), matvec=lambda v: v, dtype=np.float64, device=array_device)
    b = np.random.default_rng(1).standard_normal(n)
    x, info = nl.cg(ident, b)
    assert info == 0
    np.testing.assert_allclose(x.get(), b, rtol=1e-12)
