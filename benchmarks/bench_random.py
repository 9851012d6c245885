"""Random numbers: the fused Monte Carlo pi (reference page 001) in Gsamples/s, and Philox fills against the
device's write bandwidth. Anchors: CuPy (generate the points as arrays, then count), Numba's xoroshiro
kernel (the course's version), NumPy on the CPU (when installed)."""
import math

import numpy as np

import npgpu
from npgpu import _random

from ._harness import Result, anchor_time_ms, copy_ceiling_gbs, gpu_time_ms, host_time_ms, optional

PI_N = 1 << 28


def _check_pi(est, n, what):
    p = math.pi / 4
    if abs(est - math.pi) > 5 * 4 * math.sqrt(p * (1 - p) / n):
        raise AssertionError(f"{what}: estimate {est} is more than 5 sigma from pi")


def _numba_pi(nb, n, repeat):
    """The course's kernel: one xoroshiro128p state per thread, each thread counting its own points."""
    from numba import cuda
    from numba.cuda.random import create_xoroshiro128p_states, xoroshiro128p_uniform_float32

    @cuda.jit
    def count_inside(states, iterations, out):
        tid = cuda.grid(1)
        inside = 0
        for _ in range(iterations):
            x = xoroshiro128p_uniform_float32(states, tid)
            y = xoroshiro128p_uniform_float32(states, tid)
            if x * x + y * y <= 1.0:
                inside += 1
        out[tid] = inside

    dev = npgpu.Device(npgpu.get_device_id())
    tpb = 256
    blocks = dev.multiprocessor_count * (dev.max_threads_per_multiprocessor // tpb)
    threads = blocks * tpb
    iters = n // threads
    states = create_xoroshiro128p_states(threads, seed=1)
    out = cuda.device_array(threads, dtype=np.int64)
    count_inside[blocks, tpb](states, iters, out)
    cuda.synchronize()
    _check_pi(4.0 * int(out.copy_to_host().sum()) / (iters * threads), iters * threads, "Numba pi")
    ms = anchor_time_ms(lambda: count_inside[blocks, tpb](states, iters, out), cuda.synchronize, repeat)
    return ms * n / (iters * threads)  # scaled to exactly n samples


def bench_random_pi(repeat):
    n = PI_N
    est = npgpu.monte_carlo_pi(n, seed=1)
    _check_pi(est, n, "npgpu.monte_carlo_pi")
    with npgpu.use_backend("cpu"):  # the host backend counts the same points
        small_host = _random._pi_hits(1 << 22, 3)
    if _random._pi_hits(1 << 22, 3, device=npgpu.get_device_id()) != small_host:
        raise AssertionError("monte_carlo_pi: GPU and host counts differ")
    ms = gpu_time_ms(lambda: npgpu.monte_carlo_pi(n, seed=1), repeat)
    gs = n / ms / 1e6
    anchors = {}
    big = 1 << 34
    ms_big = gpu_time_ms(lambda: npgpu.monte_carlo_pi(big, seed=2), max(3, repeat // 4), warmup=1)
    anchors["npgpu 2^34 Gsamples/s"] = round(big / ms_big / 1e6, 1)
    cp = optional("cupy")
    if cp is not None:
        def cupy_pi():
            x = cp.random.random(n, dtype=cp.float32)
            y = cp.random.random(n, dtype=cp.float32)
            return 4.0 * int(cp.count_nonzero(x * x + y * y <= 1.0)) / n

        _check_pi(cupy_pi(), n, "CuPy pi")
        anchors["CuPy generate+count ms"] = round(anchor_time_ms(cupy_pi, cp.cuda.Device().synchronize,
                                                                 max(3, repeat // 2)), 3)
    nb = optional("numba")
    if nb is not None:
        anchors["Numba xoroshiro ms"] = round(_numba_pi(nb, n, repeat), 3)
    return [
        Result("monte_carlo_pi 2^28 samples", ms, "ms", target=0.27, higher_is_better=False, anchors=anchors,
               note=f"{gs:.0f} Gsamples/s (8 points per Philox call)"),
        Result("monte_carlo_pi 2^28 samples (Gsamples/s)", gs, "Gs/s", target=1000.0),
    ]


def _fill_bench(repeat, method, name, target_frac, target_gbs=None, **kwargs):
    n = 1 << 28
    out = npgpu.full(n, np.nan, dtype=np.float32)  # poisoned
    g = npgpu.random.Generator(1)
    getattr(g, method)(out=out, **kwargs)
    with npgpu.use_backend("cpu"):
        head = getattr(npgpu.random.Generator(1), method)(size=4096, dtype=np.float32, **kwargs)
    got = out.get()
    if not np.array_equal(got[:4096], head) or not np.isfinite(got).all():
        raise AssertionError(f"{name}: device values differ from the host backend's")
    del got
    ms = gpu_time_ms(lambda: getattr(g, method)(out=out, **kwargs), repeat)
    gbs = 4 * n / ms / 1e6
    ceiling = copy_ceiling_gbs()
    anchors = {"copy ceiling GB/s": round(ceiling, 1)}
    if method == "standard_normal":  # stream version 1: Box-Muller pairs
        g1 = npgpu.random.Generator(1, version=1)
        anchors["npgpu version 1 (Box-Muller) GB/s"] = round(4 * n / gpu_time_ms(lambda: g1.standard_normal(out=out),
                                                                                repeat) / 1e6, 1)
    cp = optional("cupy")
    if cp is not None:
        co = cp.empty(n, dtype=cp.float32)
        t = anchor_time_ms(lambda: co.fill(1.0), cp.cuda.Device().synchronize, repeat)
        anchors["CuPy fill (write-only) GB/s"] = round(4 * n / t / 1e6, 1)
        fn = {"random": lambda: cp.random.random(n, dtype=cp.float32),
              "standard_normal": lambda: cp.random.standard_normal(n, dtype=cp.float32)}[method]
        t = anchor_time_ms(fn, cp.cuda.Device().synchronize, repeat)
        anchors[f"CuPy {method} GB/s"] = round(4 * n / t / 1e6, 1)
    target = target_gbs if target_frac is None else target_frac * ceiling
    return [Result(name, gbs, "GB/s", target=target,
                   anchors=anchors, note=f"{ms:.3f} ms, {100 * gbs / ceiling:.1f}% of the copy ceiling")]


def bench_random_uniform(repeat):
    return _fill_bench(repeat, "random", "Generator.random 2^28 float32 into a device array", 0.9)


def bench_random_normal(repeat):
    # Issue 24's target is an H100 figure (copy ceiling about 3000 GB/s there).
    return _fill_bench(repeat, "standard_normal", "Generator.standard_normal 2^28 float32 (device)", None, 2500.0)


def bench_random_numpy(repeat):
    n = 1 << 24
    g = npgpu.random.Generator(3)
    x = g.random(n)
    with npgpu.use_backend("cpu"):
        if not np.array_equal(npgpu.random.Generator(3).random(4096), x[:4096]):
            raise AssertionError("Generator.random NumPy path differs from the host backend")
    ms = host_time_ms(lambda: g.random(n), repeat)
    rng = np.random.default_rng(3)
    return [Result("Generator.random 2^24 float64 to NumPy", ms, "ms", higher_is_better=False,
                   anchors={"NumPy CPU ms": round(host_time_ms(lambda: rng.random(n), max(3, repeat // 4)), 2)})]


BENCHMARKS = {
    "random_pi": bench_random_pi,
    "random_uniform": bench_random_uniform,
    "random_normal": bench_random_normal,
    "random_numpy": bench_random_numpy,
}
