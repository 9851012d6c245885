"""Time a fresh process's first calls into each family of npgpu's device code (module load, and the
decompression of compressed device code, included), then the same calls again.

    python scripts/first_call_probe.py        # prints one line per call: first and second time in ms
"""
import time

t0 = time.perf_counter()
import numpy as np  # noqa: E402

import npgpu  # noqa: E402

t_import = time.perf_counter() - t0


def timed(fn):
    t = time.perf_counter()
    fn()
    if on_gpu:
        npgpu.synchronize()
    return (time.perf_counter() - t) * 1e3


x = npgpu.asarray(np.random.default_rng(0).standard_normal(1 << 20).astype(np.float32))
m = npgpu.asarray(np.random.default_rng(1).standard_normal((256, 256)))
on_gpu = str(x.device) != "cpu"
calls = {
    "add": lambda: x + x,
    "sin": lambda: npgpu.sin(x),
    "where": lambda: npgpu.where(x > 0, x, 0.0),
    "sum": lambda: npgpu.sum(x),
    "argmax": lambda: npgpu.argmax(x),
    "cumsum": lambda: npgpu.cumsum(x),
    "sort": lambda: npgpu.sort(x),
    "unique": lambda: npgpu.unique((x * 100).astype(np.int32)),
    "take": lambda: npgpu.take(x, npgpu.arange(1000)),
    "matmul": lambda: m @ m,
    "solve": lambda: npgpu.linalg.solve(m, m),
    "fft": lambda: npgpu.fft.fft(x),
    "random": lambda: npgpu.random.default_rng(0).standard_normal(1 << 20),
}
print(f"import npgpu: {t_import * 1e3:.1f} ms")
total = 0.0
for name, fn in calls.items():
    first = timed(fn)
    second = timed(fn)
    total += first - second
    print(f"{name:8s} first {first:8.2f} ms  again {second:7.3f} ms")
print(f"first calls beyond the second ones, summed: {total:.1f} ms")
