"""diffusion: reference page 002's workload (2000x2000 float32, 10000 steps, Laplacian of the last step) on
device arrays and NumPy in / NumPy out; 8192x8192 float32 x 1000 steps against the copy ceiling; the host
backend against a plain NumPy slicing implementation. Anchors: the naive double-buffered kernel (one step
per pass over memory) measured in the same run."""
import os

import numpy as np

import npgpu

from ._harness import Result, copy_ceiling_gbs, gpu_time_ms, host_time_ms

_ENV = "NPGPU_STENCIL_STEPS_PER_PASS"


class _steps_per_pass:
    """Force the CUDA backend's steps per pass (temporal blocking depth) inside a with block."""

    def __init__(self, k):
        self.k = k

    def __enter__(self):
        self.old = os.environ.get(_ENV)
        if self.k is None:
            os.environ.pop(_ENV, None)
        else:
            os.environ[_ENV] = str(self.k)

    def __exit__(self, *exc):
        if self.old is None:
            os.environ.pop(_ENV, None)
        else:
            os.environ[_ENV] = self.old


def _numpy_diffusion(f, steps, coeff=0.25):
    """Plain NumPy, zero boundary, double-buffered: the host anchor."""
    f = f.copy()
    p = np.zeros((f.shape[0] + 2, f.shape[1] + 2), f.dtype)
    lap = None
    for _ in range(steps):
        p[1:-1, 1:-1] = f
        lap = 4 * f - p[:-2, 1:-1] - p[2:, 1:-1] - p[1:-1, :-2] - p[1:-1, 2:]
        f -= coeff * lap
    return f, lap


def _check(got, want, what, atol):
    err = float(np.max(np.abs(np.asarray(got, dtype=np.float64) - want)))
    if not err <= atol:
        raise AssertionError(f"{what}: max error {err:.3g} > {atol:.3g}")


def bench_diffusion_page(repeat):
    from npgpu._demo_diffusion import jagged_field

    n, steps = 2000, 10000
    f = jagged_field(n, n)
    d = npgpu.asarray(f)
    # Correctness on this field: 10 steps against the float64 NumPy implementation.
    want, want_lap = _numpy_diffusion(f.astype(np.float64), 10)
    got, lap = npgpu.diffusion(d, 10, return_laplacian=True)
    _check(got.get(), want, "diffusion 10 steps", 1e-5)
    _check(lap.get(), want_lap, "laplacian after 10 steps", 1e-5)
    r = max(3, min(repeat, 5))
    run = lambda: npgpu.diffusion(d, steps, return_laplacian=True)  # noqa: E731
    ms = gpu_time_ms(run, r, warmup=1)
    anchors, per_k = {}, []
    for k in (1, 2, 3, 4, 5, 6, 8):
        with _steps_per_pass(k):
            t = gpu_time_ms(run, 3, warmup=1)
        per_k.append(f"{k}:{t:.1f}")
        if k == 1:
            anchors["naive double-buffered (1 step/pass) ms"] = round(t, 1)
    host_ms = host_time_ms(lambda: npgpu.diffusion(f, steps, return_laplacian=True), 3, warmup=1)
    anchors["NumPy in/out ms"] = round(host_ms, 1)
    return [Result("diffusion 2000^2 f32 x 10000 steps + Laplacian (device arrays)", ms, "ms", target=150,
                   higher_is_better=False, anchors=anchors,
                   note=f"{ms / steps * 1e3:.2f} us/step; stretch 80 ms; ms by steps per pass {' '.join(per_k)}")]


def bench_diffusion_large(repeat):
    n, steps = 8192, 1000
    f = np.random.default_rng(11).random((n, n), dtype=np.float32)
    d = npgpu.asarray(f)
    small = npgpu.asarray(f[:300, :300])
    _check(npgpu.diffusion(small, 7).get(), _numpy_diffusion(f[:300, :300].astype(np.float64), 7)[0],
           "diffusion 300^2 x 7", 1e-5)
    out = npgpu.empty((n, n), np.float32)
    ms = gpu_time_ms(lambda: npgpu.diffusion(d, steps, out=out), max(2, min(repeat, 3)), warmup=1)
    gbs = 2 * f.nbytes * steps / ms / 1e6  # one read and one write of the field per step
    ceiling = copy_ceiling_gbs()
    with _steps_per_pass(1):
        naive = gpu_time_ms(lambda: npgpu.diffusion(d, steps, out=out), 2, warmup=1)
    return [Result("diffusion 8192^2 f32 x 1000 steps (GB/s per step, read+write)", gbs, "GB/s",
                   target=ceiling, anchors={"copy ceiling GB/s": round(ceiling, 1),
                                            "naive 1 step/pass GB/s": round(2 * f.nbytes * steps / naive / 1e6, 1)},
                   note=f"{ms:.1f} ms, {ms / steps * 1e3:.1f} us/step, {100 * gbs / ceiling:.0f}% of the copy "
                        f"ceiling (temporal blocking can pass it)")]


def bench_diffusion_host(repeat):
    n, steps = 1000, 20
    f = np.random.default_rng(12).random((n, n), dtype=np.float32)
    with npgpu.use_backend("cpu"):
        got, lap = npgpu.diffusion(f, steps, return_laplacian=True)
        want, want_lap = _numpy_diffusion(f.astype(np.float64), steps)
        _check(got, want, "host diffusion", 1e-5)
        ms = host_time_ms(lambda: npgpu.diffusion(f, steps, return_laplacian=True), max(3, repeat // 4), warmup=1)
    np_ms = host_time_ms(lambda: _numpy_diffusion(f, steps), max(3, repeat // 4), warmup=1)
    return [Result("diffusion host backend 1000^2 f32 x 20 steps vs NumPy slicing", np_ms / ms, "x", target=1.0,
                   anchors={"npgpu host ms": round(ms, 2), "NumPy ms": round(np_ms, 2)},
                   note=f"{os.cpu_count()} CPUs")]


BENCHMARKS = {
    "diffusion_page": bench_diffusion_page,
    "diffusion_large": bench_diffusion_large,
    "diffusion_host": bench_diffusion_host,
}
