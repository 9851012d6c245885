"""Dense linear algebra through cuSOLVER (issue 20): cholesky, solve, eigh and svd of 4096 x 4096 matrices,
a batch of 10000 small systems and a NumPy-in/NumPy-out solve, against CuPy and PyTorch measured in the same
run. Each case checks its result against NumPy (or a backward error) before it is timed."""
import numpy as np

import npgpu
import npgpu.linalg as la

from ._harness import Result, anchor_time_ms, gpu_time_ms, host_time_ms, optional


def _spd(n, dtype, seed):
    rng = np.random.default_rng(seed)
    g = rng.standard_normal((n, n))
    return (g @ g.T / n + np.eye(n)).astype(dtype)


def _general(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    return (a + shape[-1] ** 0.5 * np.eye(shape[-1])).astype(dtype)  # well conditioned


def _backward(a, x, b):
    """Normwise relative residual ||a x - b|| / (||a|| ||x||), in float64."""
    a, x, b = (np.asarray(v, np.float64) for v in (a, x, b))
    return np.linalg.norm(a @ x - b) / (np.linalg.norm(a) * np.linalg.norm(x))


def _anchors(cp_fn, torch_fn, repeat):
    out = {}
    cp = optional("cupy")
    if cp is not None:
        out["CuPy ms"] = round(anchor_time_ms(cp_fn(cp), cp.cuda.Device().synchronize, repeat), 3)
    torch = optional("torch")
    if torch is not None:
        out["PyTorch ms"] = round(anchor_time_ms(torch_fn(torch), torch.cuda.synchronize, repeat), 3)
    return out


def _result(name, ms, target, anchors, note=""):
    return Result(name, ms, "ms", target=target, higher_is_better=False, anchors=anchors, note=note)


def bench_linalg(repeat):
    repeat = max(3, repeat // 2)
    res = []
    for dt, target in ((np.float32, 2.0), (np.float64, 2.3)):
        h = _spd(4096, dt, 1)
        d = npgpu.asarray(h)
        l_ = la.cholesky(d).get().astype(np.float64)
        err = np.linalg.norm(l_ @ l_.T - h) / np.linalg.norm(h)
        assert err < (1e-4 if dt == np.float32 else 1e-12), f"cholesky error {err:.2e}"
        ms = gpu_time_ms(lambda: la.cholesky(d), repeat)
        res.append(_result(f"cholesky 4096 {np.dtype(dt).name}", ms, target, _anchors(
            lambda cp: (lambda x=cp.asarray(h): cp.linalg.cholesky(x)),
            lambda t: (lambda x=t.from_numpy(h).cuda(): t.linalg.cholesky(x)), repeat)))
    for dt, target in ((np.float32, 10.0), (np.float64, 16.0)):
        a, b = _general((4096, 4096), dt, 2), np.random.default_rng(3).standard_normal((4096, 16)).astype(dt)
        da, db = npgpu.asarray(a), npgpu.asarray(b)
        err = _backward(a, la.solve(da, db).get(), b)
        assert err < (1e-5 if dt == np.float32 else 1e-13), f"solve error {err:.2e}"
        ms = gpu_time_ms(lambda: la.solve(da, db), repeat)
        res.append(_result(f"solve 4096 {np.dtype(dt).name}, 16 right-hand sides", ms, target, _anchors(
            lambda cp: (lambda x=cp.asarray(a), y=cp.asarray(b): cp.linalg.solve(x, y)),
            lambda t: (lambda x=t.from_numpy(a).cuda(), y=t.from_numpy(b).cuda(): t.linalg.solve(x, y)), repeat)))
    h = _spd(4096, np.float32, 4)
    d = npgpu.asarray(h)
    w, v = (r.get() for r in la.eigh(d))
    err = np.linalg.norm(h.astype(np.float64) @ v - v * w) / np.linalg.norm(h)
    assert err < 1e-4, f"eigh error {err:.2e}"
    ms = gpu_time_ms(lambda: la.eigh(d), max(3, repeat // 2))
    res.append(_result("eigh 4096 float32", ms, 100.0, _anchors(
        lambda cp: (lambda x=cp.asarray(h): cp.linalg.eigh(x)),
        lambda t: (lambda x=t.from_numpy(h).cuda(): t.linalg.eigh(x)), 3)))
    a = np.random.default_rng(5).standard_normal((4096, 4096)).astype(np.float32)
    d = npgpu.asarray(a)
    u, s, vh = (r.get().astype(np.float64) for r in la.svd(d))
    recon = np.linalg.norm((u * s) @ vh - a) / np.linalg.norm(a)
    orth = np.linalg.norm(u.T @ u - np.eye(4096)) / 64
    assert recon < 1e-4 and orth < 1e-4, f"svd reconstruction {recon:.2e}, orthogonality {orth:.2e}"
    ms = gpu_time_ms(lambda: la.svd(d), 3, warmup=1)
    res.append(_result("svd 4096 float32 (full)", ms, 400.0, _anchors(
        lambda cp: (lambda x=cp.asarray(a): cp.linalg.svd(x)),
        lambda t: (lambda x=t.from_numpy(a).cuda(): t.linalg.svd(x)), 3),
        note=f"reconstruction {recon:.1e}, orthogonality {orth:.1e}"))
    a, b = _general((10000, 8, 8), np.float32, 6), np.random.default_rng(7).standard_normal((10000, 8, 1))
    b = b.astype(np.float32)
    da, db = npgpu.asarray(a), npgpu.asarray(b)
    err = max(_backward(a[i], x, b[i]) for i, x in enumerate(la.solve(da, db).get()[:50]))
    assert err < 1e-5, f"batched solve error {err:.2e}"
    ms = gpu_time_ms(lambda: la.solve(da, db), repeat)
    res.append(_result("solve of 10000 stacked 8 x 8 float32 systems", ms, 0.1, _anchors(
        lambda cp: (lambda x=cp.asarray(a), y=cp.asarray(b): cp.linalg.solve(x, y)),
        lambda t: (lambda x=t.from_numpy(a).cuda(), y=t.from_numpy(b).cuda(): t.linalg.solve(x, y)), repeat)))
    a, b = _general((4096, 4096), np.float64, 8), np.random.default_rng(9).standard_normal(4096)
    err = _backward(a, la.solve(a, b)[:, None], b[:, None])
    assert err < 1e-13, f"NumPy-in solve error {err:.2e}"
    ms = host_time_ms(lambda: la.solve(a, b), max(3, repeat // 2))
    anchors = {}
    cp = optional("cupy")
    if cp is not None:
        anchors["CuPy round trip ms"] = round(host_time_ms(
            lambda: cp.asnumpy(cp.linalg.solve(cp.asarray(a), cp.asarray(b))), max(3, repeat // 2)), 2)
    res.append(_result("NumPy-in solve 4096 float64 (transfers included)", ms, 30.0, anchors))
    return res


BENCHMARKS = {"linalg": bench_linalg}
