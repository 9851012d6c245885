"""npgpu._krylov, the fused solver steps under npgpu.sparse.linalg.cg: one step against the same recurrence in
NumPy float64 for every dtype and for lengths spanning one and many blocks, the state's two slots, the masked
step once converged, reproducible sums, and the argument checks. Both backends (``array_device``)."""
import numpy as np
import pytest

import npgpu
from npgpu import _krylov

VALUES = (np.float32, np.float64, np.complex64, np.complex128)
SLOT = _krylov.CG_SLOT


def _vec(rng, n, dtype):
    v = rng.standard_normal(n) + (1j * rng.standard_normal(n) if np.dtype(dtype).kind == "c" else 0)
    return v.astype(dtype)


def _tol(dtype):
    return 2e-5 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-12


def _state(n, device):
    # poisoned: every value the steps read must have been written by them
    return npgpu.asarray(np.full(_krylov.cg_state_size(n), np.nan), device=device)


@pytest.mark.parametrize("dtype", VALUES)
@pytest.mark.parametrize("n", [1, 5, 1000, 300_001])
def test_step_matches_the_recurrence(array_device, rng, dtype, n):
    x, r, p, q = (_vec(rng, n, dtype) for _ in range(4))
    dx, dr, dp, dq = (npgpu.asarray(v, device=array_device) for v in (x, r, p, q))
    state = _state(n, array_device)
    tol2 = 1e-30
    _krylov.cg_start(dr, tol2, state)
    s = state.get()
    c = np.complex128 if np.dtype(dtype).kind == "c" else np.float64
    x64, r64, p64, q64 = (v.astype(c) for v in (x, r, p, q))
    rho = np.vdot(r64, r64).real  # float64 sums of the inputs as given
    np.testing.assert_allclose(s[0], rho, rtol=1e-12)
    assert s[1] == 0 and s[2] == tol2
    _krylov.cg_step(dx, dr, dp, dq, state, 0)
    alpha = rho / np.vdot(p64, q64)
    x64 = x64 + alpha * p64
    r64 = r64 - alpha * q64
    rr = np.vdot(r64, r64).real
    p64 = r64 + (rr / rho) * p64
    tol = _tol(dtype)
    for got, want in ((dx, x64), (dr, r64), (dp, p64)):
        assert got.dtype == dtype
        np.testing.assert_allclose(got.get(), want, rtol=tol, atol=tol * np.abs(want).max())
    s = state.get()
    np.testing.assert_allclose(s[SLOT], rr, rtol=1e-4 if tol > 1e-6 else 1e-10)
    assert s[SLOT + 1] == 0 and s[SLOT + 2] == tol2
    np.testing.assert_allclose(s[0], rho, rtol=1e-12)  # the slot read is left as it was


def test_steps_alternate_slots_and_stop_when_converged(array_device, rng):
    n = 4000
    # A = diag(d): q = d * p is the product, so the iteration converges in a few steps per distinct value
    d = np.repeat([1.0, 2.0, 3.0], [1000, 1000, 2000])
    b = _vec(rng, n, np.float64)
    x = npgpu.zeros(n, device=array_device)
    r = npgpu.asarray(b.copy(), device=array_device)  # on the host, asarray may share b's memory
    p = r.copy()
    dd = npgpu.asarray(d, device=array_device)
    state = _state(n, array_device)
    tol2 = (1e-10 * np.linalg.norm(b)) ** 2
    _krylov.cg_start(r, tol2, state)
    parity = steps = 0
    while not state.get()[SLOT * parity + 1] and steps < 6:
        _krylov.cg_step(x, r, p, dd * p, state, parity)
        parity ^= 1
        steps += 1
    assert steps == 3  # three distinct eigenvalues: converged at the third step
    np.testing.assert_allclose(x.get(), b / d, rtol=1e-9)
    frozen = x.get(), r.get()
    _krylov.cg_step(x, r, p, dd * p, state, parity)  # masked: alpha = 0
    np.testing.assert_array_equal(x.get(), frozen[0])
    np.testing.assert_array_equal(r.get(), frozen[1])
    assert state.get()[SLOT * (1 - parity) + 1] == 1


def test_reproducible(array_device, rng):
    n = 200_000
    vecs = [_vec(rng, n, np.float32) for _ in range(4)]
    outs = []
    for _ in range(2):
        x, r, p, q = (npgpu.asarray(v.copy(), device=array_device) for v in vecs)
        state = _state(n, array_device)
        _krylov.cg_start(r, 0.0, state)
        _krylov.cg_step(x, r, p, q, state, 0)
        outs.append((x.get(), r.get(), p.get(), state.get()[SLOT]))
    for a, b in zip(*outs):
        np.testing.assert_array_equal(a, b)


_STEP_SCRIPT = """
import numpy as np, npgpu
from npgpu import _krylov
rng = np.random.default_rng(5)
v = [rng.standard_normal(300_001) for _ in range(4)]
x, r, p, q = (npgpu.asarray(a, device="cpu") for a in v)
state = npgpu.asarray(np.full(_krylov.cg_state_size(300_001), np.nan), device="cpu")
_krylov.cg_start(r, 0.0, state)
_krylov.cg_step(x, r, p, q, state, 0)
print(state.get()[:2 * _krylov.CG_SLOT].tobytes().hex(), x.get().tobytes().hex()[:64])
"""


def test_host_sums_same_bits_for_any_thread_count():
    # the host backend's dot products add fixed chunks in order, whatever the number of OpenMP threads
    import os
    import subprocess
    import sys

    outs = set()
    for threads in ("1", "2", "3"):
        env = dict(os.environ, OMP_NUM_THREADS=threads, NPGPU_BACKEND="cpu")
        done = subprocess.run([sys.executable, "-c", _STEP_SCRIPT], env=env, capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, done.stderr
        outs.add(done.stdout)
    assert len(outs) == 1


def test_bad_arguments(array_device):
    n = 10
    x, r, p, q = (npgpu.ones(n, device=array_device) for _ in range(4))
    state = _state(n, array_device)
    with pytest.raises(TypeError, match="r's dtype float64"):
        _krylov.cg_step(x.astype(np.float32), r, p, q, state, 0)
    with pytest.raises(TypeError, match="float32, float64, complex64 or complex128"):
        _krylov.cg_start(r.astype(np.int64), 0.0, state)
    with pytest.raises(ValueError, match="1-D with r's length 10"):
        _krylov.cg_step(x, r, npgpu.ones(11, device=array_device), q, state, 0)
    with pytest.raises(ValueError, match="contiguous"):
        _krylov.cg_step(x, r, p, npgpu.ones(2 * n, device=array_device)[::2], state, 0)
    with pytest.raises(ValueError, match="must not overlap"):
        _krylov.cg_step(x, r, p, p, state, 0)
    with pytest.raises(ValueError, match="at least"):
        _krylov.cg_step(x, r, p, q, state[:3], 0)
    with pytest.raises(TypeError, match="state must be float64"):
        _krylov.cg_start(r, 0.0, state.astype(np.float32))
    with pytest.raises(ValueError, match="parity must be 0 or 1"):
        _krylov.cg_step(x, r, p, q, state, 2)
    with pytest.raises(ValueError, match="n must be >= 0"):
        _krylov.cg_state_size(-1)


@pytest.mark.parametrize("dtype", VALUES)
@pytest.mark.parametrize("index", [np.int32, np.int64])
@pytest.mark.parametrize("per_row", [5, 40])
def test_step_with_the_product_matches_the_step_after_it(array_device, rng, dtype, index, per_row):
    # rows of 5 take the GPU's row-per-thread product with p^H q in its pass, rows of 40 cuSPARSE's; a wrong
    # longest_row hint picks the other kernel and must still give the same step
    sp = pytest.importorskip("scipy.sparse")
    n = 3000
    a = sp.random(n, n, density=per_row / n, format="csr", random_state=rng, dtype=np.float64)
    a = sp.csr_matrix((a + sp.eye(n) * per_row).astype(dtype))
    longest = int(np.diff(a.indptr).max())
    csr = [npgpu.asarray(v, device=array_device) for v in (a.indptr.astype(index), a.indices.astype(index), a.data)]
    x, r, p = (_vec(rng, n, dtype) for _ in range(3))
    results = []
    for hint in (longest, -1, 0, 10**6):
        dx, dr, dp = (npgpu.asarray(v.copy(), device=array_device) for v in (x, r, p))
        dq = npgpu.asarray(np.full(n, np.nan, dtype), device=array_device)
        state = _state(n, array_device)
        _krylov.cg_start(dr, 0.0, state)
        _krylov.cg_step_csr(*csr, dx, dr, dp, dq, state, 0, hint)
        results.append([v.get() for v in (dx, dr, dp, dq)] + [state.get()[SLOT]])
    # the reference: the product by SciPy, then the step without it
    dx, dr, dp = (npgpu.asarray(v.copy(), device=array_device) for v in (x, r, p))
    dq = npgpu.asarray(a @ p, device=array_device)
    state = _state(n, array_device)
    _krylov.cg_start(dr, 0.0, state)
    _krylov.cg_step(dx, dr, dp, dq, state, 0)
    want = [v.get() for v in (dx, dr, dp, dq)] + [state.get()[SLOT]]
    tol = _tol(dtype) * 10
    for got in results:
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=tol, atol=tol * np.abs(w).max())


def test_step_with_the_product_checks_the_matrix(array_device):
    n = 4
    x, r, p, q = (npgpu.ones(n, device=array_device) for _ in range(4))
    state = _state(n, array_device)
    ip = npgpu.asarray(np.arange(n + 1, dtype=np.int32), device=array_device)
    ix = npgpu.asarray(np.arange(n, dtype=np.int32), device=array_device)
    data = npgpu.ones(n, device=array_device)
    with pytest.raises(TypeError, match="data's dtype"):
        _krylov.cg_step_csr(ip, ix, data.astype(np.float32), x, r, p, q, state, 0)
    with pytest.raises(ValueError, match="must have shape"):
        _krylov.cg_step_csr(ip[:3], ix[:2], data[:2], x, r, p, q, state, 0)
    with pytest.raises(ValueError, match="must not overlap"):
        _krylov.cg_step_csr(ip, ix, data, x, r, p, p, state, 0)
