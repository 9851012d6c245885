"""Where the per-call time of a small device add goes (run on a GPU machine)."""
import time

import numpy as np

import npgpu


def per_call(fn, calls=5000):
    fn()
    npgpu.synchronize()
    best = []
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(calls):
            fn()
        best.append((time.perf_counter() - t) / calls * 1e6)
        npgpu.synchronize()
    return sorted(best)[2]


a = npgpu.asarray(np.random.default_rng(0).standard_normal(1024, dtype=np.float32))
b = npgpu.asarray(np.random.default_rng(1).standard_normal(1024, dtype=np.float32))
c = npgpu.empty(1024, np.float32)
print(f"attribute access      {per_call(lambda: a.ndim):.2f} us")
print(f"empty(1024)           {per_call(lambda: npgpu.empty(1024, np.float32)):.2f} us")
print(f"add(a, b, out=c)      {per_call(lambda: npgpu.add(a, b, out=c)):.2f} us")
print(f"add(a, b)             {per_call(lambda: npgpu.add(a, b)):.2f} us")
print(f"a + b                 {per_call(lambda: a + b):.2f} us")

# Creation of a small array: where ones(1024)'s host time goes, and whether a long loop measures the
# GPU's drain rate instead (the launch queue holds about a thousand launches).
from npgpu import _array  # noqa: E402

for calls in (200, 2000):
    print(f"-- {calls} back-to-back calls")
    print(f"empty(1024) f32       {per_call(lambda: npgpu.empty(1024, np.float32), calls):.2f} us")
    print(f"zeros(1024) f32       {per_call(lambda: npgpu.zeros(1024, np.float32), calls):.2f} us")
    print(f"_array.full f32 1     {per_call(lambda: _array.full(1024, 1, np.float32), calls):.2f} us")
    print(f"ones(1024) f32        {per_call(lambda: npgpu.ones(1024, dtype=np.float32), calls):.2f} us")
    print(f"ones(1024) f64        {per_call(lambda: npgpu.ones(1024), calls):.2f} us")
    try:
        import cupy as cp
        print(f"cupy.ones f32         {per_call(lambda: cp.ones(1024, dtype=cp.float32), calls):.2f} us")
    except ImportError:
        pass
    try:
        import torch
        us = per_call(lambda: torch.ones(1024, dtype=torch.float32, device='cuda'), calls)
        print(f"torch.ones f32        {us:.2f} us")
    except ImportError:
        pass
