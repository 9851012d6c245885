"""npgpu.linalg against numpy.linalg on each device: residuals, reconstructions and orthogonality of every
factorisation on well- and ill-conditioned random matrices of sizes 1 to 64, stacked, real and complex,
float32 to complex128; singular and non-positive-definite input raising LinAlgError; matrices with no
elements; every norm order; NumPy in/NumPy out and numpy.linalg on npgpu arrays; and the contract of the
primitives (potrf, potrs, getrf, getrs, syevd, gesvd, geqrf, orgqr, geev) the functions are built from, on the host
(and its NumPy fallbacks) and on a GPU."""
import math
import types

import numpy as np
import pytest

import npgpu
import npgpu.linalg as la
from npgpu.linalg import LinAlgError

FLOATS = [np.float32, np.float64, np.complex64, np.complex128]
SIZES = [1, 2, 3, 17, 64]


def _np(x):
    return x.get() if isinstance(x, npgpu.Array) else np.asarray(x)


def _eps(dtype):
    return float(np.finfo(np.dtype(dtype)).eps)


def _rnorm(x):
    return float(np.linalg.norm(np.asarray(x, dtype=np.complex128)))


def _mT(x):
    return np.swapaxes(x, -1, -2)


def _mH(x):
    return np.conj(_mT(x))


def _unitary(rng, n, dtype, batch=()):
    z = rng.standard_normal(batch + (n, n))
    if np.dtype(dtype).kind == "c":
        z = z + 1j * rng.standard_normal(batch + (n, n))
    return np.linalg.qr(z)[0]


def matrix(rng, shape, dtype, cond=10.0):
    """Random matrices (..., m, n) of `dtype` with singular values spread log-evenly from 1 to 1/cond."""
    *batch, m, n = shape
    batch = tuple(batch)
    k = min(m, n)
    s = np.logspace(0, -math.log10(cond), k) if k > 1 else np.ones(k)
    u = _unitary(rng, m, dtype, batch)[..., :k]
    v = _unitary(rng, n, dtype, batch)[..., :k, :]
    return ((u * s[..., None, :]) @ v).astype(dtype)


def hermitian(rng, n, dtype, batch=(), cond=10.0):
    """Random Hermitian positive-definite matrices with eigenvalues from 1 to 1/cond."""
    w = np.logspace(0, -math.log10(cond), n) if n > 1 else np.ones(n)
    u = _unitary(rng, n, dtype, batch)
    return ((u * w) @ _mH(u)).astype(dtype)


def _ill(dtype):
    """A condition number near the edge of what the dtype resolves."""
    return 1e3 if np.dtype(dtype) in (np.float32, np.complex64) else 1e8


def on(device, h):
    return npgpu.asarray(h, device=device)


def needs(device, *names):
    """Skip on a GPU whose npgpu._linalg lacks one of these primitives (geqrf/orgqr, geev are optional there:
    npgpu.Array input then raises NotImplementedError, tested by test_missing_gpu_primitive_says_so)."""
    if device == "cpu":
        return
    for name in names:
        try:
            la._primitive(on(device, np.zeros(1)), name)
        except NotImplementedError as e:
            pytest.skip(str(e))


def check_array(got, device, dtype, shape):
    """got is an npgpu.Array on `device` with `dtype` and `shape`."""
    assert isinstance(got, npgpu.Array), type(got)
    assert str(got.device) == str(npgpu.asarray(np.zeros(0), device=device).device)
    assert got.dtype == np.dtype(dtype), (got.dtype, dtype)
    assert tuple(got.shape) == tuple(shape), (got.shape, shape)
    return got.get()


def close(got, want, tol):
    """Normwise: ||got - want|| <= tol * max(||want||, tiny), both as NumPy arrays of want's shape."""
    g, w = _np(got), np.asarray(want)
    assert g.shape == w.shape, (g.shape, w.shape)
    assert np.all(np.isfinite(g)), "non-finite values"
    err = _rnorm(g - w)
    assert err <= tol * max(_rnorm(w), 1e-300), f"error {err:.3g} vs norm {_rnorm(w):.3g} (tol {tol:.1e})"


def _tol(dtype, n, c=30.0):
    return c * max(n, 1) * _eps(np.dtype(dtype).type(0).real.dtype)


# ------------------------------------------------------------------------------------------------ solve, inv

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", SIZES)
def test_solve_residuals(array_device, rng, dtype, n):
    for cond in (10.0, _ill(dtype)):
        a = matrix(rng, (2, n, n), dtype, cond)
        b = matrix(rng, (2, n, 3), dtype)
        x = check_array(la.solve(on(array_device, a), on(array_device, b)), array_device, dtype, (2, n, 3))
        for i in range(2):
            res = _rnorm(a[i] @ x[i] - b[i]) / (_rnorm(a[i]) * _rnorm(x[i]))
            assert res <= _tol(dtype, n), (cond, res)
        # one vector b (M,), the same for every matrix of the stack
        x1 = check_array(la.solve(on(array_device, a), on(array_device, b[0, :, 0])), array_device, dtype, (2, n))
        for i in range(2):
            assert _rnorm(a[i] @ x1[i] - b[0, :, 0]) <= _tol(dtype, n) * _rnorm(a[i]) * _rnorm(x1[i])


def test_solve_broadcasts_and_promotes(array_device, rng):
    a = matrix(rng, (3, 1, 4, 4), np.float32)
    b = matrix(rng, (5, 4, 2), np.float64)
    x = check_array(la.solve(on(array_device, a), on(array_device, b)), array_device, np.float64, (3, 5, 4, 2))
    close(x, np.linalg.solve(a, b), 1e-5)
    ai = np.array([[3, 1], [1, 2]], dtype=np.int32)
    bi = np.array([1, 5], dtype=np.int64)
    xi = check_array(la.solve(on(array_device, ai), on(array_device, bi)), array_device, np.float64, (2,))
    close(xi, np.linalg.solve(ai, bi), 1e-14)
    with pytest.raises(ValueError):
        la.solve(on(array_device, a), on(array_device, b[..., :3, :]))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", SIZES)
def test_inv(array_device, rng, dtype, n):
    for cond in (10.0, _ill(dtype)):
        a = matrix(rng, (2, n, n), dtype, cond)
        x = check_array(la.inv(on(array_device, a)), array_device, dtype, (2, n, n))
        for i in range(2):
            res = _rnorm(a[i] @ x[i] - np.eye(n)) / (_rnorm(a[i]) * _rnorm(x[i]))
            assert res <= _tol(dtype, n), (cond, res)


SINGULAR = np.array([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0], [4.0, 5.0, 7.0]])  # an exact zero pivot


def test_singular_raises(array_device, rng):
    good = matrix(rng, (3, 3), np.float64)
    stack = np.stack([good, SINGULAR, good])
    for a in (SINGULAR, stack):
        with pytest.raises(LinAlgError, match="Singular matrix"):
            la.inv(on(array_device, a))
        with pytest.raises(LinAlgError, match="Singular matrix"):
            la.solve(on(array_device, a), on(array_device, np.ones(3)))
    with pytest.raises(np.linalg.LinAlgError):  # the same class: NumPy's except clauses catch it
        la.inv(SINGULAR)
    # check=False skips reading info; the non-singular matrices are still inverted
    x = la.inv(on(array_device, stack), check=False).get()
    close(x[0] @ good, np.eye(3), 1e-12)
    assert not np.all(np.isfinite(x[1]))
    # det and slogdet of a singular matrix: no error, 0 and (0, -inf)
    assert la.det(on(array_device, SINGULAR)).get() == 0.0
    sign, logdet = la.slogdet(on(array_device, SINGULAR))
    assert sign.get() == 0.0 and logdet.get() == -np.inf


# ------------------------------------------------------------------------------------------------ det, slogdet

@pytest.mark.parametrize("dtype", FLOATS)
def test_det_slogdet(array_device, rng, dtype):
    for n in SIZES:
        a = rng.standard_normal((3, n, n)) * (2.0 / math.sqrt(n))  # |det| within float32's range
        if np.dtype(dtype).kind == "c":
            a = a + 1j * rng.standard_normal((3, n, n)) * (2.0 / math.sqrt(n))
        a = a.astype(dtype)
        want = np.linalg.det(a.astype(np.complex128 if a.dtype.kind == "c" else np.float64))
        got = check_array(la.det(on(array_device, a)), array_device, dtype, (3,))
        tol = 50 * n * _eps(np.float32 if np.dtype(dtype) in (np.float32, np.complex64) else np.float64)
        assert np.all(np.abs(got - want) <= tol * np.abs(want)), (got, want)
        s, logdet = la.slogdet(on(array_device, a))
        ws, wl = np.linalg.slogdet(a.astype(want.dtype))
        check_array(s, array_device, dtype, (3,))
        real = np.float32 if np.dtype(dtype) in (np.float32, np.complex64) else np.float64
        check_array(logdet, array_device, real, (3,))
        close(s, ws, tol)
        assert np.all(np.abs(logdet.get() - wl) <= tol * np.maximum(1, np.abs(wl)))
    # slogdet where det overflows
    big = matrix(rng, (64, 64), np.float64) * 1e10
    sign, logdet = la.slogdet(on(array_device, big))
    ws, wl = np.linalg.slogdet(big)
    assert sign.get() == ws and abs(logdet.get() - wl) <= 1e-10 * abs(wl)
    assert np.isinf(la.det(on(array_device, big)).get())
    # permutation parity: a permutation matrix times a diagonal
    p = np.eye(5)[[3, 0, 4, 1, 2]] * np.arange(1, 6)
    assert la.det(on(array_device, p)).get() == pytest.approx(np.linalg.det(p), rel=1e-14)


# ------------------------------------------------------------------------------------------------ cholesky

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", SIZES)
def test_cholesky(array_device, rng, dtype, n):
    for cond in (10.0, _ill(dtype)):
        a = hermitian(rng, n, dtype, (2,), cond)
        garbage = np.triu(np.full((n, n), 7.5), 1).astype(dtype)  # the upper triangle is not read
        lo = check_array(la.cholesky(on(array_device, np.tril(a) + garbage)), array_device, dtype, (2, n, n))
        assert np.all(np.triu(lo, 1) == 0)
        assert _rnorm(lo @ _mH(lo) - a) <= _tol(dtype, n) * _rnorm(a)
        up = check_array(la.cholesky(on(array_device, np.triu(a) + _mT(garbage)), upper=True), array_device,
                         dtype, (2, n, n))
        assert np.all(np.tril(up, -1) == 0)
        assert _rnorm(_mH(up) @ up - a) <= _tol(dtype, n) * _rnorm(a)
        close(lo, np.linalg.cholesky(a), _tol(dtype, n) * cond)


@pytest.mark.heavy
@pytest.mark.parametrize("dtype", FLOATS)
def test_cholesky_large_both_triangles(array_device, rng, dtype):
    # From n = 512 the CUDA backend computes the (default) lower factor as the conjugate transpose of potrf's
    # other triangle: sizes off the 32 x 32 tiles, a batch, garbage in the triangle that is not read, and a
    # matrix that is not positive definite in the batch (check=False leaves the other one intact).
    for n in (512, 600):
        a = hermitian(rng, n, dtype, (2,))
        garbage = np.triu(np.full((n, n), 7.5), 1).astype(dtype)
        lo = la.cholesky(on(array_device, np.tril(a) + garbage))
        lo = check_array(lo, array_device, dtype, (2, n, n))
        assert np.all(np.triu(lo, 1) == 0)
        assert _rnorm(lo @ _mH(lo) - a) <= _tol(dtype, n) * _rnorm(a)
        up = check_array(la.cholesky(on(array_device, np.triu(a) + _mT(garbage)), upper=True), array_device,
                         dtype, (2, n, n))
        assert np.all(np.tril(up, -1) == 0)
        close(up, _mH(lo), _tol(dtype, n) * 10)
    bad = a.copy()
    bad[1, 5] = -bad[1, 5]
    with pytest.raises(LinAlgError, match="not positive definite"):
        la.cholesky(on(array_device, bad))
    f = _np(la.cholesky(on(array_device, bad), check=False))
    assert _rnorm(f[0] @ _mH(f[0]) - a[0]) <= _tol(dtype, 600) * _rnorm(a[0])


def test_cholesky_not_positive_definite(array_device, rng):
    a = hermitian(rng, 4, np.float64, (3,))
    a[1] = -a[1]
    with pytest.raises(LinAlgError, match="not positive definite"):
        la.cholesky(on(array_device, a))
    with pytest.raises(LinAlgError):
        la.cholesky(on(array_device, a), upper=True)
    f = la.cholesky(on(array_device, a), check=False).get()
    close(f[0] @ f[0].T, a[0], 1e-13)


# ------------------------------------------------------------------------------------------------ qr

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(1, 1), (3, 2), (2, 3), (17, 17), (64, 17), (17, 64), (2, 5, 3)])
def test_qr(array_device, rng, dtype, shape):
    needs(array_device, "geqrf", "orgqr")
    a = matrix(rng, shape, dtype, _ill(dtype))
    m, n = shape[-2:]
    k = min(m, n)
    batch = shape[:-2]
    tol = _tol(dtype, max(m, n))
    for mode, qcols, rrows in (("reduced", k, k), ("complete", m, m)):
        res = la.qr(on(array_device, a), mode)
        assert isinstance(res, type(np.linalg.qr(a)))
        q = check_array(res.Q, array_device, dtype, batch + (m, qcols))
        r = check_array(res.R, array_device, dtype, batch + (rrows, n))
        assert np.all(np.tril(r, -1) == 0)
        assert _rnorm(q @ r - a) <= tol * _rnorm(a)
        assert _rnorm(_mH(q) @ q - np.eye(qcols)) <= tol * math.sqrt(qcols)
        # R is unique up to the signs of its rows (LAPACK's convention fixes them; NumPy's agrees)
        close(np.abs(r), np.abs(np.linalg.qr(a, mode).R), tol * 1e3)
    r = check_array(la.qr(on(array_device, a), "r"), array_device, dtype, batch + (k, n))
    close(np.abs(r), np.abs(np.linalg.qr(a, "r")), tol * 1e3)
    h, tau = la.qr(on(array_device, a), "raw")
    wh, wtau = np.linalg.qr(a, "raw")
    check_array(h, array_device, dtype, wh.shape)
    check_array(tau, array_device, dtype, wtau.shape)
    # The raw reflectors' forward error grows with the condition number (R's tiny pivot feeds the last
    # column), unlike the backward errors above.
    close(np.abs(h), np.abs(wh), tol * _ill(dtype))


def test_qr_modes(array_device, rng):
    needs(array_device, "geqrf", "orgqr")
    a = matrix(rng, (4, 3), np.float64)
    with pytest.raises(ValueError, match="Unrecognized mode"):
        la.qr(on(array_device, a), "bogus")
    with pytest.warns(DeprecationWarning):
        q = la.qr(on(array_device, a), "full")
    assert q.Q.shape == (4, 3)
    with pytest.raises(LinAlgError):
        la.qr(on(array_device, a[0]))


# ------------------------------------------------------------------------------------------------ eigh

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", SIZES)
def test_eigh(array_device, rng, dtype, n):
    real = np.float32 if np.dtype(dtype) in (np.float32, np.complex64) else np.float64
    b = matrix(rng, (2, n, n), dtype)
    a = ((b + _mH(b)) / 2).astype(dtype)  # Hermitian, indefinite
    tol = _tol(dtype, n)
    for uplo in ("L", "U", "u"):
        keep = np.tril if uplo == "L" else np.triu
        noisy = keep(a) + (np.triu if uplo == "L" else np.tril)(np.full((n, n), 3.25), 1 if uplo == "L" else -1)
        noisy = noisy.astype(dtype)
        w, v = la.eigh(on(array_device, noisy), UPLO=uplo)
        w = check_array(w, array_device, real, (2, n))
        v = check_array(v, array_device, dtype, (2, n, n))
        assert np.all(np.diff(w, axis=-1) >= 0)
        assert _rnorm(a @ v - v * w[..., None, :]) <= tol * _rnorm(a)
        assert _rnorm(_mH(v) @ v - np.eye(n)) <= tol * math.sqrt(n)
        close(w, np.linalg.eigvalsh(a), tol)
        wo = check_array(la.eigvalsh(on(array_device, noisy), uplo), array_device, real, (2, n))
        close(wo, np.linalg.eigvalsh(a), tol)
    assert type(la.eigh(on(array_device, a))) is type(np.linalg.eigh(a))
    with pytest.raises(ValueError):
        la.eigh(on(array_device, a), UPLO="X")


# ------------------------------------------------------------------------------------------------ svd

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(1, 1), (2, 2), (3, 3), (17, 17), (64, 64), (3, 17, 5), (2, 5, 17),
                                   (64, 3)])
def test_svd(array_device, rng, dtype, shape):
    real = np.float32 if np.dtype(dtype) in (np.float32, np.complex64) else np.float64
    m, n = shape[-2:]
    k = min(m, n)
    batch = shape[:-2]
    tol = _tol(dtype, max(m, n))
    for cond in (10.0, _ill(dtype)):
        a = matrix(rng, shape, dtype, cond)
        want = np.linalg.svd(a, compute_uv=False)
        for full in (True, False):
            res = la.svd(on(array_device, a), full_matrices=full)
            assert type(res) is type(np.linalg.svd(a))
            ucols, vrows = (m, n) if full else (k, k)
            u = check_array(res.U, array_device, dtype, batch + (m, ucols))
            s = check_array(res.S, array_device, real, batch + (k,))
            vh = check_array(res.Vh, array_device, dtype, batch + (vrows, n))
            assert np.all(np.diff(s, axis=-1) <= 0)
            assert _rnorm((u[..., :k] * s[..., None, :]) @ vh[..., :k, :] - a) <= tol * _rnorm(a)
            assert _rnorm(_mH(u) @ u - np.eye(ucols)) <= tol * math.sqrt(ucols)
            assert _rnorm(vh @ _mH(vh) - np.eye(vrows)) <= tol * math.sqrt(vrows)
            close(s, want, tol)
        close(check_array(la.svd(on(array_device, a), compute_uv=False), array_device, real, batch + (k,)),
              want, tol)
        close(check_array(la.svdvals(on(array_device, a)), array_device, real, batch + (k,)), want, tol)


@pytest.fixture
def gesvd_calls(monkeypatch):
    """The QDWH route forced on (any size, either device), and a list that gets one entry per gesvd call."""
    monkeypatch.setenv("NPGPU_SVD", "qdwh")
    calls = []
    gesvd = la._gesvd
    monkeypatch.setattr(la, "_gesvd", lambda *args, **kw: (calls.append(args[0].shape), gesvd(*args, **kw))[1])
    return calls


@pytest.mark.heavy
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(48, 48), (70, 33), (33, 70)])
def test_svd_through_qdwh(array_device, rng, gesvd_calls, dtype, shape):
    """The QDWH polar decomposition + eigh route (large real matrices on a GPU) against NumPy, for well- and
    ill-conditioned square, tall and wide matrices, with and without U and Vh, never handing over to gesvd."""
    m, n = shape
    k = min(m, n)
    tol = _tol(dtype, max(m, n))
    for cond in (10.0, 1e5 if dtype == np.float32 else 1e12):
        a = matrix(rng, shape, dtype, cond)
        want = np.linalg.svd(a.astype(np.float64), compute_uv=False)
        for full in (True, False) if m == n else (False,):
            u, s, vh = la.svd(on(array_device, a), full_matrices=full)
            u = check_array(u, array_device, dtype, (m, k))
            s = check_array(s, array_device, dtype, (k,))
            vh = check_array(vh, array_device, dtype, (k, n))
            assert np.all(np.diff(s) <= 0)
            assert _rnorm((u * s) @ vh - a) <= tol * _rnorm(a)
            assert _rnorm(u.T @ u - np.eye(k)) <= tol * math.sqrt(k)
            assert _rnorm(vh @ vh.T - np.eye(k)) <= tol * math.sqrt(k)
            close(s, want, tol)
        close(check_array(la.svd(on(array_device, a), compute_uv=False), array_device, dtype, (k,)), want, tol)
    assert gesvd_calls == []


def test_svd_through_qdwh_hands_exactly_singular_matrices_to_gesvd(array_device, rng, gesvd_calls):
    """An exactly zero column leaves QDWH's polar factor without a direction; the orthogonality check sends
    such a matrix to gesvd, and zero or non-finite input goes there directly."""
    a = matrix(rng, (40, 40), np.float64)
    a[:, 7] = 0
    u, s, vh = (x.get() for x in la.svd(on(array_device, a)))
    assert gesvd_calls == [(40, 40)]
    assert _rnorm((u * s) @ vh - a) <= _tol(np.float64, 40) * _rnorm(a)
    assert _rnorm(u.T @ u - np.eye(40)) <= _tol(np.float64, 40) * math.sqrt(40)
    assert s[-1] == pytest.approx(0, abs=1e-12)
    gesvd_calls.clear()
    assert np.all(la.svd(on(array_device, np.zeros((5, 5))), compute_uv=False).get() == 0)
    with np.errstate(invalid="ignore"):
        try:
            la.svd(on(array_device, np.full((5, 5), np.inf)))
        except LinAlgError:
            pass  # gesvd's own verdict on non-finite input, as without the QDWH route
    assert gesvd_calls == [(5, 5), (5, 5)]


def test_svd_route(monkeypatch):
    """QDWH takes large real single matrices on a GPU (square, or the reduced factors); gesvd the rest."""
    class Fake:
        def __init__(self, shape, device="cuda:0"):
            self.shape, self.ndim, self.device = shape, len(shape), device
    monkeypatch.delenv("NPGPU_SVD", raising=False)
    monkeypatch.delenv("NPGPU_SVD_QDWH_MIN", raising=False)
    f32 = np.dtype(np.float32)
    assert la._qdwh_route(Fake((4096, 4096)), f32, True, True)
    assert la._qdwh_route(Fake((4096, 2048)), f32, False, True)
    assert not la._qdwh_route(Fake((4096, 2048)), f32, True, True)
    assert la._qdwh_route(Fake((4096, 2048)), f32, True, False)  # no U or Vh to complete
    assert la._qdwh_route(Fake((512, 512)), f32, True, True)
    assert not la._qdwh_route(Fake((511, 4096)), f32, False, True)
    assert not la._qdwh_route(Fake((2, 4096, 4096)), f32, True, True)
    assert not la._qdwh_route(Fake((4096, 4096)), np.dtype(np.complex64), True, True)
    assert not la._qdwh_route(Fake((4096, 4096), la._runtime.cpu), f32, True, True)
    monkeypatch.setenv("NPGPU_SVD", "gesvd")
    assert not la._qdwh_route(Fake((4096, 4096)), f32, True, True)
    monkeypatch.setenv("NPGPU_SVD", "qdwh")
    assert la._qdwh_route(Fake((8, 8), la._runtime.cpu), f32, True, True)


def test_qdwh_weights_reach_halley():
    """The dynamic weights: large for a small lower bound, Halley's (3, 1, 3) once the bound reaches 1."""
    assert la._qdwh_weights(1.0) == pytest.approx((3.0, 1.0, 3.0))
    assert la._qdwh_weights(1.0 + 1e-12) == pytest.approx((3.0, 1.0, 3.0))
    assert la._qdwh_weights(1e-6)[2] > 100


@pytest.mark.parametrize("dtype", [np.float64, np.complex64])
def test_svd_hermitian(array_device, rng, dtype):
    b = matrix(rng, (3, 6, 6), dtype)
    a = ((b + _mH(b)) / 2).astype(dtype)
    tol = _tol(dtype, 6)
    u, s, vh = la.svd(on(array_device, a), hermitian=True)
    u, s, vh = u.get(), s.get(), vh.get()
    assert np.all(np.diff(s, axis=-1) <= 0) and np.all(s >= 0)
    assert _rnorm((u * s[..., None, :]) @ vh - a) <= tol * _rnorm(a)
    close(s, np.linalg.svd(a, compute_uv=False), tol)
    close(la.svd(on(array_device, a), compute_uv=False, hermitian=True), np.linalg.svd(a, compute_uv=False), tol)


# ------------------------------------------------------------------------------------------------ eig

def test_eig(array_device, rng):
    a = matrix(rng, (2, 5, 5), np.float64)
    try:
        w, v = la.eig(on(array_device, a))
    except NotImplementedError as e:  # a GPU build without geev says how to get the result
        assert array_device != "cpu" and "to_device('cpu')" in str(e)
        return
    assert isinstance(w, npgpu.Array)
    wn = np.linalg.eigvals(a)
    assert w.dtype == wn.dtype
    w, v = w.get(), v.get()
    assert _rnorm(a @ v - v * w[..., None, :]) <= 1e-12 * _rnorm(a) * _rnorm(v)
    close(np.sort_complex(w.ravel()), np.sort_complex(wn.ravel()), 1e-12)
    sym = a + _mT(a)  # real eigenvalues: real results, as NumPy's
    ws = la.eigvals(on(array_device, sym))
    assert ws.dtype == np.float64
    close(np.sort(ws.get(), axis=-1), np.linalg.eigvalsh(sym), 1e-12)
    ac = matrix(rng, (4, 4), np.complex64)
    wc = la.eigvals(on(array_device, ac))
    assert wc.dtype == np.complex64
    close(np.sort_complex(wc.get()), np.sort_complex(np.linalg.eigvals(ac)), 1e-5)
    with pytest.raises(LinAlgError, match="infs or NaNs"):
        la.eig(on(array_device, np.full((2, 2), np.nan)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
def test_eig_conjugate_pairs_unit_vectors_and_real_spectra(array_device, rng, dtype):
    single = dtype in (np.float32, np.complex64)
    tol = 2e-4 if single else 1e-11
    a = rng.standard_normal((3, 7, 7)).astype(dtype)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal((3, 7, 7)).astype(dtype)
    w, v = la.eig(on(array_device, a))
    check_array(w, array_device, np.complex64 if single else np.complex128, (3, 7))
    check_array(v, array_device, np.complex64 if single else np.complex128, (3, 7, 7))
    w, v = w.get(), v.get()
    assert _rnorm(a @ v - v * w[..., None, :]) <= tol * _rnorm(a) * _rnorm(v)
    np.testing.assert_allclose(np.linalg.norm(v, axis=-2), 1, rtol=tol)  # unit columns, as LAPACK's
    wide = a.astype(np.complex128 if np.dtype(dtype).kind == "c" else np.float64)  # real input: real LAPACK
    close(np.sort_complex(w), np.sort_complex(np.linalg.eigvals(wide)), tol)
    close(np.sort_complex(la.eigvals(on(array_device, a)).get()), np.sort_complex(w), tol)
    if np.dtype(dtype).kind == "f":
        # real arithmetic: exact conjugate pairs, each pair's vectors conjugate too, real eigenvalues exactly real
        for wk, vk in zip(w, v):
            up, down = np.flatnonzero(wk.imag > 0), np.flatnonzero(wk.imag < 0)
            assert len(up) == len(down) and np.array_equal(wk[up], np.conj(wk[up + 1]))
            assert np.array_equal(vk[:, up], np.conj(vk[:, up + 1]))
            assert not np.any(vk[:, wk.imag == 0].imag)
        t = np.triu(a[0]) + np.diag(np.arange(1.0, 8.0, dtype=dtype))  # real spectrum: real results
        wt, vt = la.eig(on(array_device, t))
        check_array(wt, array_device, dtype, (7,))
        check_array(vt, array_device, dtype, (7, 7))
        close(np.sort(wt.get()), np.sort(np.diag(t)), tol)
        rot = np.array([[0.0, -1.0], [1.0, 0.0]], dtype=dtype)
        wr, vr = la.eig(on(array_device, rot))
        assert np.array_equal(wr.get(), np.array([1j, -1j], dtype=wr.dtype))
        assert _rnorm(rot @ vr.get() - vr.get() * wr.get()) <= tol


# ------------------------------------------------------------------------------------------------ from the SVD

@pytest.mark.parametrize("dtype", [np.float64, np.complex128, np.float32])
def test_lstsq(array_device, rng, dtype):
    tol = _tol(dtype, 20, 100)
    for m, n in ((20, 5), (5, 20), (6, 6)):
        a = matrix(rng, (m, n), dtype)
        for b in (matrix(rng, (m, 3), dtype), matrix(rng, (m, 1), dtype)[:, 0]):
            x, resid, rank, s = la.lstsq(on(array_device, a), on(array_device, b))
            wx, wres, wrank, ws = np.linalg.lstsq(a, b)
            check_array(x, array_device, dtype, wx.shape)
            close(x, wx, tol)
            assert rank == wrank and type(rank) is type(wrank)
            close(s, ws, tol)
            assert resid.shape == wres.shape
            if wres.size:
                close(resid, wres, tol * 10)
    # rank-deficient: no residuals, the minimum-norm solution
    a = matrix(rng, (10, 3), np.float64) @ matrix(rng, (3, 6), np.float64)
    b = matrix(rng, (10, 2), np.float64)
    x, resid, rank, s = la.lstsq(on(array_device, a), on(array_device, b))
    wx, wres, wrank, ws = np.linalg.lstsq(a, b)
    assert rank == wrank == 3 and resid.shape == (0,)
    close(x, wx, 1e-10)
    x, _, rank, _ = la.lstsq(on(array_device, a), on(array_device, b), rcond=0.9)
    assert rank == np.linalg.lstsq(a, b, rcond=0.9)[2]
    with pytest.raises(LinAlgError):
        la.lstsq(on(array_device, a), on(array_device, b[:4]))


def test_pinv_rank_cond(array_device, rng):
    a = matrix(rng, (3, 7, 4), np.complex128, 1e6)
    close(la.pinv(on(array_device, a)), np.linalg.pinv(a), 1e-8)
    close(la.pinv(on(array_device, a), rtol=None), np.linalg.pinv(a, rtol=None), 1e-8)
    close(la.pinv(on(array_device, a), rcond=1e-3), np.linalg.pinv(a, rcond=1e-3), 1e-10)
    h = hermitian(rng, 5, np.float64, (2,))
    close(la.pinv(on(array_device, h), hermitian=True), np.linalg.pinv(h, hermitian=True), 1e-12)
    with pytest.raises(ValueError):
        la.pinv(on(array_device, a), rcond=1e-3, rtol=1e-3)
    deficient = matrix(rng, (4, 8, 3), np.float64) @ matrix(rng, (4, 3, 6), np.float64)
    assert np.array_equal(_np(la.matrix_rank(on(array_device, deficient))), [3, 3, 3, 3])
    assert np.array_equal(_np(la.matrix_rank(on(array_device, deficient), tol=1e30)), [0, 0, 0, 0])
    assert np.array_equal(_np(la.matrix_rank(on(array_device, deficient), rtol=0.5)),
                          np.linalg.matrix_rank(deficient, rtol=0.5))
    assert la.matrix_rank(on(array_device, h[0]), hermitian=True).get() == 5
    assert la.matrix_rank(on(array_device, np.array([0.0, 1.0]))) == 1
    assert la.matrix_rank(on(array_device, np.zeros(3))) == 0
    sq = matrix(rng, (2, 6, 6), np.float64, 1e4)
    for p in (None, 1, -1, 2, -2, np.inf, -np.inf, "fro", "nuc"):
        close(la.cond(on(array_device, sq), p), np.linalg.cond(sq, p), 1e-8)
    assert np.isinf(_np(la.cond(on(array_device, SINGULAR), 1)))
    with pytest.raises(LinAlgError):
        la.cond(on(array_device, np.zeros((0, 0))))


# ------------------------------------------------------------------------------------------------ products

def test_matrix_power(array_device, rng):
    a = matrix(rng, (2, 4, 4), np.float64) * 1.5
    for n in (-3, -1, 0, 1, 2, 3, 5, 8, 13):
        got = la.matrix_power(on(array_device, a), n)
        close(got, np.linalg.matrix_power(a, n), 1e-11)
    ai = np.array([[1, 2], [3, -1]], dtype=np.int64)
    got = check_array(la.matrix_power(on(array_device, ai), 9), array_device, np.int64, (2, 2))
    assert np.array_equal(got, np.linalg.matrix_power(ai, 9))
    with pytest.raises(TypeError):
        la.matrix_power(on(array_device, a), 1.5)
    with pytest.raises(LinAlgError):
        la.matrix_power(on(array_device, a[..., :3]), 2)


def test_multi_dot_and_friends(array_device, rng):
    mats = [rng.standard_normal(s) for s in ((10,), (10, 30), (30, 5), (5, 60), (60,))]
    for sel in (mats, mats[1:4], mats[:3], mats[1:3], mats[2:]):
        got = la.multi_dot([on(array_device, m) for m in sel])
        want = np.linalg.multi_dot(sel)
        assert isinstance(got, npgpu.Array) and got.shape == want.shape
        close(got, want, 1e-13)
    x = rng.standard_normal((4, 3, 5)) + 1j
    y = rng.standard_normal((3, 1)) - 2j
    close(la.cross(on(array_device, x), on(array_device, y), axis=-2), np.linalg.cross(x, y, axis=-2), 1e-14)
    with pytest.raises(ValueError):
        la.cross(on(array_device, x), on(array_device, y))
    v, w = rng.standard_normal(4), rng.standard_normal(3)
    close(la.outer(on(array_device, v), on(array_device, w)), np.linalg.outer(v, w), 1e-15)
    with pytest.raises(ValueError):
        la.outer(on(array_device, x), on(array_device, w))
    r = rng.standard_normal((2, 4, 6))
    for off in (-5, -3, -1, 0, 2, 5, 7):
        close(la.diagonal(on(array_device, r), offset=off), np.linalg.diagonal(r, offset=off), 0)
        close(la.trace(on(array_device, r), offset=off), np.linalg.trace(r, offset=off), 1e-15)
    ri = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    t = la.trace(on(array_device, ri))
    assert t.dtype == np.linalg.trace(ri).dtype and np.array_equal(t.get(), np.linalg.trace(ri))
    close(la.tensordot(on(array_device, r), on(array_device, r), axes=([1, 2], [1, 2])),
          np.linalg.tensordot(r, r, axes=([1, 2], [1, 2])), 1e-14)
    close(la.vecdot(on(array_device, x), on(array_device, x), axis=1), np.linalg.vecdot(x, x, axis=1), 1e-14)
    close(la.matrix_transpose(on(array_device, r)), np.linalg.matrix_transpose(r), 0)
    close(la.matmul(on(array_device, r), on(array_device, _mT(r))), np.linalg.matmul(r, _mT(r)), 1e-14)


# ------------------------------------------------------------------------------------------------ norms

VECTOR_ORDS = [None, 0, 1, -1, 2, -2, 3, 0.5, -0.5, np.inf, -np.inf]
MATRIX_ORDS = [None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf]


@pytest.mark.heavy
@pytest.mark.parametrize("dtype", [np.float64, np.complex64])
def test_norm_every_ord(array_device, rng, dtype):
    x = matrix(rng, (3, 5, 4), dtype, 100.0)
    tol = 1e-12 if dtype == np.float64 else 1e-5
    rt = np.float64 if dtype == np.float64 else np.float32
    for ord in VECTOR_ORDS:
        for axis in (0, 1, -1):
            for keepdims in (False, True):
                got = la.norm(on(array_device, x), ord, axis, keepdims)
                want = np.linalg.norm(x, ord, axis, keepdims)
                check_array(got, array_device, rt, want.shape)
                close(got, want, tol)
        close(la.vector_norm(on(array_device, x), ord=2 if ord is None else ord, axis=(0, 2), keepdims=True),
              np.linalg.vector_norm(x, ord=2 if ord is None else ord, axis=(0, 2), keepdims=True), tol)
        close(la.vector_norm(on(array_device, x), ord=2 if ord is None else ord),
              np.linalg.vector_norm(x, ord=2 if ord is None else ord), tol)
    for ord in MATRIX_ORDS:
        for axis in ((1, 2), (2, 0), (-1, -2)):
            for keepdims in (False, True):
                got = la.norm(on(array_device, x), ord, axis, keepdims)
                want = np.linalg.norm(x, ord, axis, keepdims)
                check_array(got, array_device, rt, want.shape)
                close(got, want, tol)
        close(la.norm(on(array_device, x[0]), ord), np.linalg.norm(x[0], ord), tol)
        close(la.matrix_norm(on(array_device, x), ord="fro" if ord is None else ord),
              np.linalg.matrix_norm(x, ord="fro" if ord is None else ord), tol)
    close(la.norm(on(array_device, x)), np.linalg.norm(x), tol)
    close(la.norm(on(array_device, x), keepdims=True), np.linalg.norm(x, keepdims=True), tol)
    for bad in (("fro", 1), ("nuc", -1)):
        with pytest.raises(ValueError):
            la.norm(on(array_device, x), bad[0], axis=bad[1])
    with pytest.raises(ValueError):
        la.norm(on(array_device, x), 3, axis=(1, 2))
    with pytest.raises(ValueError):
        la.norm(on(array_device, x), None, axis=(1, 1))
    with pytest.raises(ValueError):
        la.norm(on(array_device, x), 2)
    with pytest.raises(TypeError):
        la.norm(on(array_device, x), None, axis=[0])


def test_norm_dtypes():
    xi = np.arange(-4, 5).reshape(3, 3)
    for ord in (None, 1, 2, "nuc"):
        got = la.norm(xi, ord)
        want = np.linalg.norm(xi, ord)
        assert type(got) is type(want) and got == pytest.approx(want, rel=1e-14)
    h = np.array([3.0, 4.0], np.float16)
    got = la.norm(h)
    assert type(got) is np.float16 and got == 5.0
    assert la.norm(h.reshape(1, 2), "fro").dtype == np.float16
    with pytest.raises(TypeError, match="float16"):
        la.norm(h.reshape(1, 2), 2)
    # vector_norm of a 2-D float16 array is a vector norm (no SVD): float16, as NumPy's
    for ord in (2, -2, 1, np.inf):
        got, want = la.vector_norm(h.reshape(1, 2), ord=ord), np.linalg.vector_norm(h.reshape(1, 2), ord=ord)
        assert np.asarray(got).dtype == np.float16 and got == want


# ------------------------------------------------------------------------------------------------ edges

@pytest.mark.parametrize("shape", [(0, 0), (3, 0, 0), (0, 3, 3), (0, 3), (3, 0), (2, 0, 4)])
def test_zero_size_as_numpy(array_device, shape):
    a = np.zeros(shape)
    square = shape[-1] == shape[-2]
    calls = [("svd", {}), ("svd", {"full_matrices": False}), ("svd", {"compute_uv": False}), ("svdvals", {}),
             ("qr", {}), ("qr", {"mode": "complete"}), ("qr", {"mode": "r"}), ("qr", {"mode": "raw"}),
             ("pinv", {}), ("matrix_rank", {}), ("norm", {"axis": (-2, -1)})]
    if square:
        calls += [(n, {}) for n in ("inv", "det", "slogdet", "cholesky", "eigh", "eigvalsh", "eigvals")]
    for name, kw in calls:
        want = getattr(np.linalg, name)(a, **kw)
        got = getattr(la, name)(on(array_device, a), **kw)
        wants = want if isinstance(want, tuple) else (want,)
        gots = got if isinstance(got, tuple) else (got,)
        assert type(got) is type(want) or not isinstance(want, tuple), (name, type(got))
        for g, w in zip(gots, wants):
            w = np.asarray(w)
            assert isinstance(g, npgpu.Array), (name, kw)
            assert g.shape == w.shape and g.dtype == w.dtype, (name, kw, g.shape, w.shape, g.dtype, w.dtype)
            assert np.array_equal(g.get(), w), (name, kw)
    if square:
        b = np.zeros(shape[:-1])
        assert la.solve(on(array_device, a), on(array_device, b[..., None])).shape == shape[:-1] + (1,)
    x, resid, rank, s = la.lstsq(np.zeros((3, 0)), np.ones(3))
    wx, wres, wrank, ws = np.linalg.lstsq(np.zeros((3, 0)), np.ones(3))
    assert x.shape == wx.shape and np.array_equal(resid, wres) and rank == wrank and s.shape == ws.shape


def test_dimension_and_dtype_errors(array_device, rng):
    v = on(array_device, rng.standard_normal(3))
    rect = on(array_device, rng.standard_normal((2, 3)))
    for name in ("inv", "det", "slogdet", "cholesky", "eigh", "eigvalsh", "eigvals", "svd", "qr", "pinv",
                 "svdvals"):
        with pytest.raises(LinAlgError, match="at least two-dimensional"):
            getattr(la, name)(v)
    for name in ("inv", "det", "slogdet", "cholesky", "eigh", "eigvalsh"):
        with pytest.raises(LinAlgError, match="square"):
            getattr(la, name)(rect)
    with pytest.raises(LinAlgError, match="square"):
        la.solve(rect, v)
    for name in ("inv", "det", "svd", "cholesky", "eigh", "qr"):
        with pytest.raises(TypeError, match="float16"):
            getattr(la, name)(np.eye(2, dtype=np.float16))
    assert la.det(np.array([[2, 1], [1, 3]], dtype=np.int8)).dtype == np.float64
    assert la.inv(np.array([[True, False], [False, True]])).dtype == np.float64


def test_nan_input_does_not_hang(array_device):
    a = np.array([[1.0, np.nan], [2.0, 3.0]])
    assert np.isnan(_np(la.det(on(array_device, a))))
    with pytest.raises(LinAlgError):
        la.svd(on(array_device, np.full((3, 3), np.nan)))
    try:  # NumPy returns NaNs; LinAlgError would do as well
        f = la.cholesky(on(array_device, np.full((3, 3), np.nan)))
    except LinAlgError:
        return
    assert np.isnan(f.get()).any()


# ------------------------------------------------------------------------------------------------ NumPy in/out

def test_numpy_in_numpy_out(rng):
    a = matrix(rng, (5, 5), np.float64)
    h = hermitian(rng, 5, np.float64)
    b = rng.standard_normal(5)
    assert type(la.solve(a, b)) is np.ndarray
    assert type(la.inv(a.tolist())) is np.ndarray
    assert type(la.det(a)) is np.float64 and la.det(a) == pytest.approx(np.linalg.det(a), rel=1e-13)
    sl = la.slogdet(a)
    assert type(sl) is type(np.linalg.slogdet(a)) and type(sl.sign) is np.float64
    assert type(la.eigh(h).eigenvectors) is np.ndarray
    assert type(la.svd(a).U) is np.ndarray and type(la.qr(a).R) is np.ndarray
    assert type(la.norm(a)) is np.float64 and la.norm(a) == pytest.approx(np.linalg.norm(a), rel=1e-14)
    assert type(la.matrix_rank(a)) is type(np.linalg.matrix_rank(a))
    assert type(la.cond(a)) is np.float64
    assert type(la.trace(a)) is np.float64
    x, resid, rank, s = la.lstsq(a, b)
    assert all(type(t) is np.ndarray for t in (x, resid, s))
    assert type(la.multi_dot([a, a, b])) is np.ndarray


def test_numpy_functions_on_npgpu_arrays(array_device, rng):
    a = matrix(rng, (2, 4, 4), np.float64)
    x = on(array_device, a)
    for name, args, kwargs in [("inv", (), {}), ("det", (), {}), ("solve", (x,), {}), ("cholesky", (), {}),
                               ("svd", (), {"compute_uv": False}),
                               ("norm", (2,), {"axis": (1, 2)}), ("matrix_norm", (), {"ord": "nuc"}),
                               ("pinv", (), {}), ("matrix_power", (3,), {}), ("eigvalsh", (), {})]:
        src = a @ _mT(a) + 4 * np.eye(4) if name == "cholesky" else a
        xs = on(array_device, src)
        if name == "solve":
            args = (xs,)
        got = getattr(np.linalg, name)(xs, *args, **kwargs)
        want_args = tuple(src if isinstance(t, npgpu.Array) else t for t in args)
        want = getattr(np.linalg, name)(src, *want_args, **kwargs)
        assert isinstance(got, npgpu.Array), (name, type(got))
        close(got, want, 1e-10)
    res = np.linalg.svd(x)
    assert type(res) is type(np.linalg.svd(a)) and isinstance(res.U, npgpu.Array)
    assert la.LinAlgError is np.linalg.LinAlgError


# ------------------------------------------------------------------------------------------------ primitives

def _call(x, name, *args):
    try:
        fn = la._primitive(x, name)
    except NotImplementedError as e:
        pytest.skip(str(e))
    return fn(x, *args)


@pytest.mark.parametrize("dtype", FLOATS)
def test_primitive_contract(array_device, rng, dtype):
    """Each primitive on stacks of matrices: shapes, dtypes, triangles, pivots, info; non-contiguous input."""
    real = np.float32 if np.dtype(dtype) in (np.float32, np.complex64) else np.float64
    n = 6
    tol = _tol(dtype, n)
    h = hermitian(rng, n, dtype, (2, 3))
    xh = on(array_device, np.ascontiguousarray(_mT(h)))
    xh = npgpu.matrix_transpose(xh)  # a transposed view: any layout is accepted
    for lower in (True, False):
        f, info = _call(xh, "potrf", lower)
        f = check_array(f, array_device, dtype, (2, 3, n, n))
        assert check_array(info, array_device, np.int32, (2, 3)).tolist() == [[0] * 3] * 2
        if lower:
            assert np.all(np.triu(f, 1) == 0) and _rnorm(f @ _mH(f) - h) <= tol * _rnorm(h)
        else:
            assert np.all(np.tril(f, -1) == 0) and _rnorm(_mH(f) @ f - h) <= tol * _rnorm(h)
        if lower:
            rhs = matrix(rng, (2, 3, n, 2), dtype)
            x = check_array(_call(on(array_device, f), "potrs", on(array_device, rhs)), array_device, dtype,
                            (2, 3, n, 2))
            assert _rnorm(h @ x - rhs) <= tol * _rnorm(h) * _rnorm(x)
    bad = h.copy()
    bad[1, 2] = -bad[1, 2]
    _, info = _call(on(array_device, bad), "potrf", True)
    info = info.get()
    assert info[1, 2] > 0 and np.count_nonzero(info) == 1

    a = matrix(rng, (2, 3, n, n), dtype)
    a[0, 1] = SINGULAR.astype(dtype)[[0, 1, 2, 0, 1, 2]][:, [0, 1, 2, 0, 1, 2]]  # rank 2
    xa = on(array_device, a)
    lu, piv, info = _call(xa, "getrf")
    lu = check_array(lu, array_device, dtype, (2, 3, n, n))
    piv = check_array(piv, array_device, np.int64, (2, 3, n))
    info = check_array(info, array_device, np.int32, (2, 3))
    assert info[0, 1] > 0 and np.count_nonzero(info) == 1
    assert np.all((piv >= 1) & (piv <= n))
    for idx in np.ndindex(2, 3):
        if idx == (0, 1):
            continue
        low = np.tril(lu[idx], -1) + np.eye(n)
        up = np.triu(lu[idx])
        pa = a[idx].copy()
        for i, p in enumerate(piv[idx]):  # P A: the row swaps in order
            pa[[i, p - 1]] = pa[[p - 1, i]]
        assert _rnorm(low @ up - pa) <= tol * _rnorm(a[idx])
        # partial pivoting (LAPACK picks the largest |re| + |im| for complex, so |l| <= sqrt(2))
        assert np.all(np.abs(low) <= (math.sqrt(2) if low.dtype.kind == "c" else 1) + tol)
    b = matrix(rng, (2, 3, n, 2), dtype)
    x = _call(on(array_device, lu), "getrs", on(array_device, piv), on(array_device, b))
    x = check_array(x, array_device, dtype, (2, 3, n, 2))
    good = [idx for idx in np.ndindex(2, 3) if idx != (0, 1)]
    for idx in good:
        assert _rnorm(a[idx] @ x[idx] - b[idx]) <= tol * _rnorm(a[idx]) * _rnorm(x[idx])

    for compute_v in (True, False):
        w, v, info = _call(xh, "syevd", True, compute_v)
        w = check_array(w, array_device, real, (2, 3, n))
        assert np.all(np.diff(w, axis=-1) >= 0) and not info.get().any()
        if compute_v:
            v = check_array(v, array_device, dtype, (2, 3, n, n))
            assert _rnorm(h @ v - v * w[..., None, :]) <= tol * _rnorm(h)
        else:
            assert v is None
        close(w, np.linalg.eigvalsh(h), tol)

    for shape in ((2, 7, 4), (2, 4, 7)):
        g = matrix(rng, shape, dtype)
        m, k = shape[-2], min(shape[-2:])
        xg = on(array_device, g)
        for full in (True, False):
            u, s, vh, info = _call(xg, "gesvd", full, True)
            ucols, vrows = (m, shape[-1]) if full else (k, k)
            u = check_array(u, array_device, dtype, (2, m, ucols))
            s = check_array(s, array_device, real, (2, k))
            vh = check_array(vh, array_device, dtype, (2, vrows, shape[-1]))
            assert not info.get().any() and np.all(np.diff(s, axis=-1) <= 0)
            assert _rnorm((u[..., :k] * s[..., None, :]) @ vh[..., :k, :] - g) <= tol * _rnorm(g)
            assert _rnorm(_mH(u) @ u - np.eye(ucols)) <= tol * ucols
        u, s, vh, info = _call(xg, "gesvd", True, False)
        assert u is None and vh is None
        close(check_array(s, array_device, real, (2, k)), np.linalg.svd(g, compute_uv=False), tol)

        f, tau = _call(xg, "geqrf")
        f = check_array(f, array_device, dtype, shape)
        tau = check_array(tau, array_device, dtype, (2, k))
        wh, wtau = np.linalg.qr(g, mode="raw")  # LAPACK's reflectors: NumPy's raw h is their transpose
        close(f, _mT(wh), tol * 100)
        close(tau, wtau, tol * 100)
        for ncols in {k, m}:
            q = _call(on(array_device, f), "orgqr", on(array_device, tau), ncols)
            q = check_array(q, array_device, dtype, (2, m, ncols))
            r = np.triu(f[..., :ncols, :] if ncols < m else f)
            assert _rnorm(q @ r - g) <= tol * _rnorm(g)
            assert _rnorm(_mH(q) @ q - np.eye(ncols)) <= tol * ncols


def test_primitive_geev(array_device, rng):
    a = matrix(rng, (2, 5, 5), np.float32)
    w, v, info = _call(on(array_device, a), "geev", True)
    w = check_array(w, array_device, np.complex64, (2, 5))
    v = check_array(v, array_device, np.complex64, (2, 5, 5))
    assert not info.get().any()
    assert _rnorm(a @ v - v * w[..., None, :]) <= 1e-5 * _rnorm(a) * _rnorm(v)


def test_host_numpy_fallbacks(monkeypatch, rng):
    """Without SciPy the host's getrf, getrs and orgqr are NumPy loops: the same results."""
    a = matrix(rng, (3, 9, 9), np.complex128)
    a[1] = 0
    a[1, :3, :3] = SINGULAR
    g = matrix(rng, (2, 8, 5), np.float64)
    with_scipy = [la._HOST.getrf(npgpu.asarray(a, device="cpu")), la.qr(g, "complete"), la.qr(g.mT.copy())]
    monkeypatch.setattr(la._HostPrimitives, "use_scipy", False)
    assert la._scipy_lapack() is None
    lu, piv, info = la._HOST.getrf(npgpu.asarray(a, device="cpu"))
    assert np.array_equal(piv.get(), with_scipy[0][1].get())
    assert np.array_equal(info.get() > 0, with_scipy[0][2].get() > 0) and info.get()[1] > 0
    close(lu.get()[[0, 2]], with_scipy[0][0].get()[[0, 2]], 1e-14)
    good = a[[0, 2]]
    close(la.inv(good), np.linalg.inv(good), 1e-12)
    close(la.qr(g, "complete").Q, with_scipy[1].Q, 1e-13)
    close(la.qr(g.mT.copy()).Q, with_scipy[2].Q, 1e-13)


def test_missing_gpu_primitive_says_so(monkeypatch):
    fake = types.SimpleNamespace(device="cuda:0")
    monkeypatch.setattr(la, "_GPU_MODULE", [None])
    with pytest.raises(NotImplementedError, match=r"getrf.*to_device\('cpu'\)"):
        la._primitive(fake, "getrf")
    monkeypatch.setattr(la, "_GPU_MODULE", [types.SimpleNamespace(getrf=lambda a: a)])
    with pytest.raises(NotImplementedError, match=r"npgpu\._linalg\.geev"):
        la._primitive(fake, "geev")
    assert la._primitive(fake, "getrf")(3) == 3
    # NumPy input (numpy_out) runs a primitive the GPU lacks on a host copy instead
    a = np.arange(6.0).reshape(3, 2) ** 2
    fake_gpu_array = types.SimpleNamespace(device="cuda:0", to_device=lambda d: npgpu.asarray(a, device=d))
    f, tau = la._primitive(fake_gpu_array, "geqrf", True)(fake_gpu_array)
    assert str(f.device) == str(npgpu.cpu) and np.array_equal(f.get(), _mT(np.linalg.qr(a, "raw")[0]))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n,k", [(1, 1), (3, 2), (8, 1), (16, 5)])
def test_batched_elimination_solve(array_device, rng, dtype, n, k):
    # The path stacks of small systems take on a GPU (one array operation per elimination step).
    a = matrix(rng, (40, n, n), dtype)
    b = matrix(rng, (40, n, k), dtype)
    x = la._batched_elimination_solve(on(array_device, a), on(array_device, b))
    x = check_array(x, array_device, dtype, (40, n, k))
    assert _rnorm(a @ x - b) <= _tol(dtype, n) * 100 * _rnorm(a) * _rnorm(x)
    stack = np.stack([matrix(rng, (3, 3), dtype), SINGULAR.astype(dtype)])
    with pytest.raises(LinAlgError, match="Singular matrix"):
        la._batched_elimination_solve(on(array_device, stack), on(array_device, np.ones((2, 3, 1), dtype)))


@pytest.mark.parametrize("n,k", [(3, 2), (8, 1)])
def test_elimination_in_array_operations(array_device, rng, n, k):
    # The complex path of stacked small solves on a GPU, checked on real inputs too.
    a = matrix(rng, (20, n, n), np.float64)
    b = matrix(rng, (20, n, k), np.float64)
    x = check_array(la._elimination_in_array_operations(on(array_device, a), on(array_device, b)), array_device,
                    np.float64, (20, n, k))
    close(x, np.linalg.solve(a, b), 1e-10)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_small_solve_kernel_every_size(rng, dtype):
    from npgpu import _linalg
    for n in range(1, _linalg.SMALL_SOLVE_MAX_N + 1):
        a = matrix(rng, (37, n, n), dtype)
        b = matrix(rng, (37, n, 3), dtype)
        x, info = _linalg.solve_small(npgpu.asarray(a), npgpu.asarray(b))
        assert x.dtype == dtype and x.shape == (37, n, 3)
        assert not info.get().any()
        x = x.get()
        assert _rnorm(a @ x - b) <= _tol(dtype, n) * 100 * _rnorm(a) * _rnorm(x), n
        if dtype == np.float64:
            close(x, np.linalg.solve(a, b), 1e-10)
    # views (copied to contiguous stacks), a mixed-dtype b, singular and NaN systems (never a hang)
    a = matrix(rng, (6, 4, 4), dtype)
    a[1] = 0
    a[2, 0, 0] = np.nan
    b = matrix(rng, (6, 4, 2), np.float64)
    x, info = _linalg.solve_small(npgpu.asarray(np.ascontiguousarray(a[:, ::-1])[:, ::-1]),
                                  npgpu.asarray(b)[:, :, ::-1])
    info = info.get()
    assert info[1] == 1 and info[0] == 0 and np.all(info[3:] == 0)
    ok = [0, 3, 4, 5]
    close(x.get()[ok], np.linalg.solve(a[ok].astype(np.float64), b[ok][:, :, ::-1]), 1e-4 if dtype == np.float32
          else 1e-10)
    with pytest.raises(ValueError, match="between 1 and 16"):
        _linalg.solve_small(npgpu.ones((2, 17, 17), dtype=dtype), npgpu.ones((2, 17, 1), dtype=dtype))
    with pytest.raises(TypeError, match="float32 or float64"):
        _linalg.solve_small(npgpu.ones((2, 3, 3), dtype=np.complex64), npgpu.ones((2, 3, 1), dtype=np.complex64))


@pytest.mark.gpu
def test_stacked_small_solve_on_gpu_matches_numpy(rng):
    a = matrix(rng, (300, 8, 8), np.float64)
    b = matrix(rng, (300, 8), np.float64)
    x = la.solve(npgpu.asarray(a), npgpu.asarray(b)[..., None])[..., 0]
    close(x, np.linalg.solve(a, b[..., None])[..., 0], 1e-10)
    with pytest.raises(LinAlgError, match="Singular matrix"):
        la.solve(npgpu.asarray(np.stack([a[0]] * 20 + [np.zeros((8, 8))])), npgpu.asarray(np.ones((21, 8, 1))))


@pytest.fixture
def butterfly_calls(monkeypatch):
    """The results of la._butterfly_solve during the test (None: it gave no answer, the pivoted route ran)."""
    results = []
    real = la._butterfly_solve

    def spy(*args):
        x = real(*args)
        results.append(x)
        return x

    monkeypatch.setattr(la, "_butterfly_solve", spy)
    return results


def _backward_error(a, x, b):
    """max over columns of max|b - a x| / (||a||_inf max|x|), in double precision."""
    a, x, b = (np.asarray(v, dtype=np.complex128) for v in (a, x, b))
    x, b = x.reshape(len(x), -1), b.reshape(len(b), -1)
    return float(np.max(np.abs(b - a @ x).max(0) / (np.abs(a).sum(1).max() * np.abs(x).max(0))))


def _gaussian(rng, shape, dtype):
    z = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        z = z + 1j * rng.standard_normal(shape)
    return z.astype(dtype)


@pytest.mark.heavy
@pytest.mark.gpu
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("n", [256, 257, 258, 259, 513])
def test_large_solve_through_butterflies(rng, butterfly_calls, dtype, n):
    # One large matrix: a random butterfly transform, LU without pivoting and refinement (n not a multiple
    # of 4 is padded with an identity block); its backward error meets LAPACK's refinement test.
    a = _gaussian(rng, (n, n), dtype)
    a[0, 0] = 0.0  # Gaussian elimination without the transform or pivoting would divide by zero at once
    for b, shape in ((_gaussian(rng, (n, 5), dtype), (n, 5)), (_gaussian(rng, n, dtype), (n,))):
        x = check_array(la.solve(npgpu.asarray(a), npgpu.asarray(b)), "cuda", dtype, shape)
        assert _backward_error(a, x, b) <= math.sqrt(n) * _eps(dtype)
        close(x, np.linalg.solve(a.astype(np.complex128), b.astype(np.complex128)), 1e3 * n * _eps(dtype))
    assert len(butterfly_calls) == 2 and all(r is not None for r in butterfly_calls)
    # NumPy in, NumPy out
    b = _gaussian(rng, (n, 2), dtype)
    x = la.solve(a, b)
    assert isinstance(x, np.ndarray) and x.dtype == dtype
    assert _backward_error(a, x, b) <= math.sqrt(n) * _eps(dtype)


@pytest.mark.gpu
def test_butterfly_solve_of_a_stack(rng, butterfly_calls):
    # Each matrix of a stack factored once, the right-hand sides broadcast against it solved together; one
    # matrix without an answer (exactly singular) sends the whole stack to getrf, which raises.
    a = rng.standard_normal((2, 1, 260, 260))
    b = rng.standard_normal((3, 260, 2))
    x = check_array(la.solve(npgpu.asarray(a), npgpu.asarray(b)), "cuda", np.float64, (2, 3, 260, 2))
    close(x, np.linalg.solve(a, b), 1e-10)
    assert [r.shape for r in butterfly_calls] == [(260, 6), (260, 6)]
    # one matrix, a stack of right-hand sides: a single solve of all their columns
    x = check_array(la.solve(npgpu.asarray(a[0, 0]), npgpu.asarray(b)), "cuda", np.float64, (3, 260, 2))
    close(x, np.linalg.solve(a[0, 0], b), 1e-10)
    assert len(butterfly_calls) == 3 and butterfly_calls[2].shape == (260, 6)
    # a stack against a stack: one solve per matrix
    b3 = rng.standard_normal((2, 3, 260, 1))
    x = check_array(la.solve(npgpu.asarray(a), npgpu.asarray(b3)), "cuda", np.float64, (2, 3, 260, 1))
    close(x, np.linalg.solve(a, b3), 1e-10)
    assert [r.shape for r in butterfly_calls[3:]] == [(260, 3), (260, 3)]
    a[1, 0, 9] = a[1, 0, 4]
    with pytest.raises(LinAlgError, match="Singular matrix"):
        la.solve(npgpu.asarray(a), npgpu.asarray(b[0]))
    assert butterfly_calls[5] is not None and butterfly_calls[6] is None


@pytest.mark.heavy
@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float32, np.complex128])
def test_large_inv_through_butterflies(rng, butterfly_calls, dtype):
    n = 261
    a = _gaussian(rng, (2, n, n), dtype)
    x = check_array(la.inv(npgpu.asarray(a)), "cuda", dtype, (2, n, n))
    for i in range(2):
        assert _backward_error(a[i], x[i], np.eye(n)) <= math.sqrt(n) * _eps(dtype)
    close(x, np.linalg.inv(a.astype(np.complex128)), 1e3 * n * _eps(dtype))
    assert len(butterfly_calls) == 2 and all(r is not None for r in butterfly_calls)
    x = la.inv(a[0])  # NumPy in, NumPy out
    assert isinstance(x, np.ndarray) and x.dtype == dtype
    a[1, :, 3] = 0.0
    with pytest.raises(LinAlgError, match="Singular matrix"):
        la.inv(npgpu.asarray(a))
    assert butterfly_calls[-1] is None


@pytest.mark.gpu
def test_butterfly_solve_needs_no_pivoting_luck(rng, butterfly_calls):
    # A cyclic permutation (its transform has exactly zero pivots: a butterfly of depth 2 mixes only quads
    # of indices), a matrix whose rows span 20 orders of magnitude, and an ill-conditioned one: each solves
    # to the refinement test's accuracy, through the butterflies or, where they give no answer, getrf's
    # partial pivoting.
    n = 320
    perm = np.eye(n)[np.roll(np.arange(n), 1)]
    scaled = rng.standard_normal((n, n)) * np.logspace(-10, 10, n)[:, None]
    ill = matrix(rng, (n, n), np.float64, cond=1e12)
    b = rng.standard_normal((n, 3))
    for a in (perm, scaled, ill):
        x = la.solve(npgpu.asarray(a), npgpu.asarray(b)).get()
        assert _backward_error(a, x, b) <= 10 * math.sqrt(n) * _eps(np.float64)
    assert len(butterfly_calls) == 3 and butterfly_calls[0] is None


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_butterfly_solve_singular_and_nan(rng, butterfly_calls, dtype):
    n = 300
    a = rng.standard_normal((n, n)).astype(dtype)
    a[7] = a[3]  # exactly singular
    with pytest.raises(LinAlgError, match="Singular matrix"):
        la.solve(npgpu.asarray(a), npgpu.asarray(np.ones((n, 2), dtype)))
    a = rng.standard_normal((n, n)).astype(dtype)
    a[5, 9] = np.nan
    x = la.solve(npgpu.asarray(a), npgpu.asarray(np.ones(n, dtype))).get()
    assert butterfly_calls == [None, None]  # NaN fails the pivot test: the pivoted route's answer, as before
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("NPGPU_SOLVE_BUTTERFLY", "0")
        want = la.solve(npgpu.asarray(a), npgpu.asarray(np.ones(n, dtype))).get()
    np.testing.assert_array_equal(x, want)


@pytest.mark.gpu
def test_butterfly_solve_is_optional(rng, butterfly_calls, monkeypatch):
    n = 260
    a = rng.standard_normal((n, n))
    b = rng.standard_normal((n, 2))
    la.solve(npgpu.asarray(a), npgpu.asarray(b), check=False)  # check=False: no reads back, getrf's route
    la.solve(npgpu.asarray(a[:255, :255]), npgpu.asarray(b[:255]))  # below 256: getrf
    monkeypatch.setenv("NPGPU_SOLVE_BUTTERFLY", "0")
    x = la.solve(npgpu.asarray(a), npgpu.asarray(b)).get()
    assert butterfly_calls == []
    close(x, np.linalg.solve(a, b), 1e-10)


@pytest.mark.heavy
@pytest.mark.gpu
def test_butterfly_solve_is_reproducible_and_survives_oom(rng, butterfly_calls, monkeypatch):
    n = 300
    a = npgpu.asarray(rng.standard_normal((n, n)))
    b = npgpu.asarray(rng.standard_normal((n, 4)))
    np.testing.assert_array_equal(la.solve(a, b).get(), la.solve(a, b).get())  # the same butterflies each call
    gpu = la._linalg_module()

    def no_memory(*args):
        raise npgpu.OutOfMemoryError("no room for the transformed matrix")

    monkeypatch.setattr(gpu, "butterfly_factor", no_memory)
    x = la.solve(a, b).get()  # getrf's route instead
    assert butterfly_calls[-1] is None
    close(x, np.linalg.solve(a.get(), b.get()), 1e-10)


@pytest.mark.gpu
def test_butterfly_primitives_check_their_arguments(rng):
    from npgpu import _linalg
    a = rng.standard_normal((6, 6))
    w, info = _linalg.butterfly_factor(npgpu.asarray(a[:, ::-1])[:, ::-1])  # a view: copied
    assert w.shape == (8, 8) and w.dtype == np.float64 and info.shape == ()
    piv = npgpu.arange(1, 9, dtype=np.int64)
    b = rng.standard_normal((6, 2))
    x = _linalg.butterfly_solve(w, piv, npgpu.asarray(b)).get()
    close(x, np.linalg.solve(a, b), 1e-10)
    # complex: complex128 throughout
    c = _gaussian(rng, (5, 5), np.complex64)
    wc, _ = _linalg.butterfly_factor(npgpu.asarray(c))
    assert wc.shape == (8, 8) and wc.dtype == np.complex128
    xc = _linalg.butterfly_solve(wc, piv, npgpu.asarray(c[:, :1])).get()
    close(xc, np.linalg.solve(c.astype(np.complex128), c[:, :1].astype(np.complex128)), 1e-10)
    with pytest.raises(TypeError, match="float32, float64, complex64 or complex128"):
        _linalg.butterfly_factor(npgpu.ones((4, 4), dtype=np.int64))
    with pytest.raises(ValueError, match="one matrix"):
        _linalg.butterfly_factor(npgpu.ones((2, 4, 4)))
    with pytest.raises(ValueError, match="does not fit"):
        _linalg.butterfly_solve(w, piv, npgpu.ones((9, 2)))
    with pytest.raises(TypeError, match="float or complex"):
        _linalg.butterfly_solve(w, piv, npgpu.ones((6, 2), dtype=np.int64))
    with pytest.raises(TypeError, match="differ in kind"):
        _linalg.butterfly_solve(w, piv, npgpu.ones((6, 2), dtype=np.complex64))


@pytest.mark.gpu
def test_stacked_small_inv_on_gpu_matches_numpy(rng):
    a = matrix(rng, (64, 5, 5), np.complex128)
    close(la.inv(npgpu.asarray(a)), np.linalg.inv(a), 1e-10)


# ------------------------------------------------------------------------------------- tensorsolve, tensorinv

@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("a_shape,b_ndim,axes", [
    ((2, 3, 6), 2, None), ((6, 2, 3), 2, (0,)), ((2, 2, 2, 2), 2, None), ((4, 4), 1, None),
    ((3, 2, 2, 3), 2, (1, 0))])
def test_tensorsolve_matches_numpy(array_device, rng, dtype, a_shape, b_ndim, axes):
    n = int(np.sqrt(np.prod(a_shape)))
    a = matrix(rng, (n, n), dtype).reshape(a_shape)
    moved = a if axes is None else np.moveaxis(a, axes, range(a.ndim - len(axes), a.ndim))
    b = matrix(rng, (n, 1), dtype).reshape(moved.shape[:b_ndim])
    want = np.linalg.tensorsolve(a, b, axes=axes)
    got = la.tensorsolve(on(array_device, a), on(array_device, b), axes=axes)
    close(check_array(got, array_device, want.dtype, want.shape), want, _tol(dtype, n, 100.0))
    # NumPy in, NumPy out; and x really solves the tensor equation
    x = la.tensorsolve(a, b, axes=axes)
    assert isinstance(x, np.ndarray)
    close(np.tensordot(moved, x, axes=x.ndim), b, _tol(dtype, n, 100.0))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64])
@pytest.mark.parametrize("shape,ind", [((4, 6, 8, 3), 2), ((24, 8, 3), 1), ((2, 3, 6), 2), ((5, 5), 1)])
def test_tensorinv_matches_numpy(array_device, rng, dtype, shape, ind):
    n = int(np.prod(shape[ind:]))
    a = matrix(rng, (n, n), dtype).reshape(shape)
    want = np.linalg.tensorinv(a, ind=ind)
    got = check_array(la.tensorinv(on(array_device, a), ind=ind), array_device, want.dtype, want.shape)
    close(got, want, _tol(dtype, n, 100.0))
    # the defining property: tensordot(tensorinv(a), a, ind) is the identity over a.shape[ind:]
    ident = np.tensordot(got, a, ind).reshape(n, n)
    close(ident, np.eye(n), _tol(dtype, n, 100.0))


def test_tensor_solve_inv_errors(array_device, rng):
    bad = on(array_device, rng.random((2, 3)))
    with pytest.raises(LinAlgError, match="prod"):
        la.tensorsolve(bad, on(array_device, rng.random(2)))
    with pytest.raises(ValueError, match="ind"):
        la.tensorinv(bad, ind=0)
    with pytest.raises(LinAlgError, match="square"):
        la.tensorinv(bad, ind=1)
    with pytest.raises(LinAlgError, match="Singular"):
        la.tensorinv(on(array_device, np.zeros((2, 2, 4))), ind=2)
    with pytest.raises(ValueError):
        la.tensorsolve(on(array_device, rng.random((2, 2, 4))), on(array_device, rng.random((2, 2))), axes=(5,))
    with pytest.raises(ValueError, match="no element"):
        la.tensorinv(on(array_device, np.zeros((2, 0))), ind=1)
    with pytest.raises(TypeError):
        la.tensorinv(on(array_device, np.ones((2, 2), np.float16)), ind=1)
