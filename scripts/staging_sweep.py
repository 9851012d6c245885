"""Measure NumPy-in/NumPy-out add under staging settings (run once per setting, from gpu runs)."""
import os
import statistics
import time

import numpy as np

import npgpu

res = []
for n in (1 << 20, 1 << 24):
    a = np.random.default_rng(1).standard_normal(n, dtype=np.float32)
    b = np.random.default_rng(2).standard_normal(n, dtype=np.float32)
    c = npgpu.add(a, b)
    assert np.array_equal(c, a + b)
    ts = []
    for _ in range(15):
        t = time.perf_counter()
        npgpu.add(a, b)
        ts.append(time.perf_counter() - t)
    res.append(f"n=2^{n.bit_length()-1}: {statistics.median(ts)*1e3:.3f} ms")
print(os.environ.get("TAG", ""), " | ".join(res))
