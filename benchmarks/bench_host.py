"""The host backend (no GPU) against NumPy on the same CPU (issue 24): reductions and scans of 2^24 elements
and along both axes of a 4096 x 4096 matrix, and the cost of a call on 1024 elements. Each line is npgpu's
time over NumPy's (target: at most 1, as fast as NumPy; per-call cost <= 5 us). These run without a GPU:
``python -m npgpu bench host_reduce host_overhead`` on any machine."""
import os
import statistics
import time

import numpy as np

import npgpu

from ._harness import Result, host_time_ms

HOST = {"host_reduce", "host_overhead", "host_device", "diffusion_host"}


def _interleaved_ms(ours, theirs, repeat):
    """Median ms of each of two calls, run alternately so that a load that comes and goes on the machine
    weighs on both alike."""
    for _ in range(2):
        ours()
        theirs()
    t_ours, t_np = [], []
    for _ in range(repeat):
        for fn, times in ((ours, t_ours), (theirs, t_np)):
            t = time.perf_counter()
            fn()
            times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(t_ours), statistics.median(t_np)


def _versus(name, ours, theirs, repeat, target=1.0):
    with npgpu.use_backend("cpu"):
        t_ours, t_np = _interleaved_ms(ours, theirs, repeat)
    return Result(f"host {name}: time / NumPy's", t_ours / t_np, "x", target=target, higher_is_better=False,
                  anchors={"npgpu ms": round(t_ours, 3), "NumPy ms": round(t_np, 3)},
                  note=f"{os.cpu_count()} CPUs")


def _check(name, got, want, rtol):
    # NumPy's float32 sums accumulate in float32 (npgpu's in float64): tolerance relative to the largest value
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    if not np.allclose(got, want, rtol=rtol, atol=rtol * float(np.abs(want).max())):
        raise AssertionError(f"host {name}: npgpu differs from NumPy")


def bench_host_reduce(repeat):
    rng = np.random.default_rng(21)
    x = rng.standard_normal(1 << 24).astype(np.float32)
    xi = rng.integers(-1000, 1000, 1 << 24, dtype=np.int32)
    m = rng.standard_normal((4096, 4096)).astype(np.float32)
    cases = [("sum 2^24 float32", lambda: npgpu.sum(x), lambda: np.sum(x), 1e-4),
             ("max 2^24 float32", lambda: npgpu.max(x), lambda: np.max(x), 0),
             ("argmax 2^24 float32", lambda: npgpu.argmax(x), lambda: np.argmax(x), 0),
             ("var 2^24 float32", lambda: npgpu.var(x), lambda: np.var(x), 1e-4),
             ("cumsum 2^24 float32", lambda: npgpu.cumsum(x), lambda: np.cumsum(x), None),
             ("sum 2^24 int32", lambda: npgpu.sum(xi), lambda: np.sum(xi), 0),
             ("cumsum 2^24 int32", lambda: npgpu.cumsum(xi), lambda: np.cumsum(xi), 0),
             ("sum axis 0 of 4096^2 float32", lambda: npgpu.sum(m, axis=0), lambda: np.sum(m, axis=0), 1e-4),
             ("sum axis 1 of 4096^2 float32", lambda: npgpu.sum(m, axis=1), lambda: np.sum(m, axis=1), 1e-4),
             ("max axis 0 of 4096^2 float32", lambda: npgpu.max(m, axis=0), lambda: np.max(m, axis=0), 0)]
    res = []
    reps = max(5, repeat // 2)
    for name, ours, theirs, rtol in cases:
        if rtol is not None:
            with npgpu.use_backend("cpu"):
                got = ours()
            _check(name, got, theirs(), rtol)
        res.append(_versus(name, ours, theirs, reps))
    return res


def bench_host_overhead(repeat):
    x = np.random.default_rng(22).standard_normal(1024).astype(np.float32)
    calls = 2000
    res = []
    for name, ours, theirs in (("sum", lambda: npgpu.sum(x), lambda: np.sum(x)),
                               ("add", lambda: npgpu.add(x, x), lambda: np.add(x, x))):
        def many(fn):
            # Each result is dropped before the next call, as in a user's loop: results kept alive would make
            # every call take fresh pages, and that would be measured instead of the call.
            def run():
                for _ in range(calls):
                    fn()
            return run
        with npgpu.use_backend("cpu"):
            us = host_time_ms(many(ours), max(3, repeat // 4)) * 1e3 / calls
        np_us = host_time_ms(many(theirs), max(3, repeat // 4)) * 1e3 / calls
        res.append(Result(f"host {name} of 1024 float32: cost per call", us, "us", target=5.0, higher_is_better=False,
                          anchors={"NumPy us": round(np_us, 2)}))
    return res


BENCHMARKS = {"host_reduce": bench_host_reduce, "host_overhead": bench_host_overhead}
