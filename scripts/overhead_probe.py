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

# Run-time kernels: where an ElementwiseKernel / vectorize call's time goes beyond a bare launch.
print("-- run-time kernels, 1024 float32")
ADD = r"""
extern "C" __global__ void add_kernel(const float *a, const float *b, float *r, int n)
{
    int i = threadIdx.x + blockDim.x * blockIdx.x;
    if (i < n)
        r[i] = a[i] + b[i];
}
extern "C" __global__ void empty_kernel() {}
"""
mod = npgpu.SourceModule(ADD)
f, e = mod.get_function("add_kernel"), mod.get_function("empty_kernel")
nn = np.int32(1024)
s = np.float32(1.5)
print(f"SourceModule empty    {per_call(lambda: e(block=(256, 1, 1), grid=(1, 1))):.2f} us")
print(f"SourceModule add      {per_call(lambda: f(a, b, c, nn, block=(256, 1, 1), grid=(4, 1))):.2f} us")
ek = npgpu.ElementwiseKernel("float32 x, float32 y, float32 a", "float32 z", "z = a * x + y", "axpy_probe")
ek(a, b, s)
args = (a, b, s)
plan = ek._plans[0]
print(f"plan.run              {per_call(lambda: plan.run(args, None)):.2f} us")
print(f"ek._call (slow path)  {per_call(lambda: ek._call(args, None)):.2f} us")
print(f"ek(a, b, s)           {per_call(lambda: ek(a, b, s)):.2f} us")
vec = npgpu.vectorize(lambda x, y, a: a * x + y)
vec(a, b, s)
print(f"vectorize(a, b, s)    {per_call(lambda: vec(a, b, s)):.2f} us")
args_py = (a, b, 1.5)
ek(*args_py)
print(f"ek(a, b, 1.5)         {per_call(lambda: ek(*args_py)):.2f} us")
