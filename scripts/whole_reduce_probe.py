"""Why whole-array reductions of 2^26 float32 run at a third of the rows' speed (run on a GPU machine):
the same bytes reduced whole and by rows, with and without out=, and on another stream; a size sweep (a fixed
cost shows as a constant, a bandwidth loss as a ratio); PyTorch's whole sum on the same sizes in a child process.
`--ncu`: a few calls only, for `ncu --clock-control none` to time each kernel the calls launch."""
import subprocess
import sys
import time

import numpy as np

import npgpu
from npgpu.benchmarks._harness import gpu_time_ms

N, SIDE = 1 << 26, 8192


def wall(fn, calls=50):
    fn()
    npgpu.synchronize()
    t = time.perf_counter()
    for _ in range(calls):
        fn()
    host = (time.perf_counter() - t) / calls * 1e6
    npgpu.synchronize()
    return host


if "--ncu" in sys.argv:
    x = np.random.default_rng(1).random(N, dtype=np.float32)
    d, dm = npgpu.asarray(x), npgpu.asarray(x.reshape(SIDE, SIDE))
    for _ in range(3):
        npgpu.sum(d)
        npgpu.sum(dm, axis=1)
        npgpu.argmax(d)
    npgpu.synchronize()
    sys.exit(0)

rng = np.random.default_rng(1)
x = rng.random(N, dtype=np.float32)
d = npgpu.asarray(x)
dm = npgpu.asarray(x.reshape(SIDE, SIDE))
o0 = npgpu.empty((), np.float32)
o1 = npgpu.empty(SIDE, np.float32)
d2 = npgpu.empty(N, np.float32)
cases = {
    "sum(d) 1-D whole": lambda: npgpu.sum(d),
    "sum(d, out=0-d)": lambda: npgpu.sum(d, out=o0),
    "sum(dm) 2-D whole": lambda: npgpu.sum(dm),
    "sum(dm, axis=1, out=)": lambda: npgpu.sum(dm, axis=1, out=o1),
    "sum(dm, axis=(0, 1))": lambda: npgpu.sum(dm, axis=(0, 1)),
    "argmax(d)": lambda: npgpu.argmax(d),
    "max(d)": lambda: npgpu.max(d),
    "negative(d, out=d2) (r+w)": lambda: npgpu.negative(d, out=d2),
}
for name, fn in cases.items():
    us = gpu_time_ms(fn) * 1e3
    print(f"{name:28s} {us:8.1f} us/call events ({x.nbytes / us / 1e3:7.1f} GB/s read)  "
          f"host {wall(fn):7.1f} us/call", flush=True)
s = npgpu.Stream()
with s:
    print(f"sum(d) on a new Stream       {gpu_time_ms(lambda: npgpu.sum(d)) * 1e3:8.1f} us/call", flush=True)

print("size sweep: whole sum vs the same bytes as rows of 8192 (us/call, events)", flush=True)
for e in (20, 22, 24, 26, 28):
    n = 1 << e
    v = npgpu.asarray(rng.random(n, dtype=np.float32))
    m = v.reshape(n // 8192, 8192)
    tw, tr = gpu_time_ms(lambda: npgpu.sum(v)) * 1e3, gpu_time_ms(lambda: npgpu.sum(m, axis=1)) * 1e3
    print(f"  2^{e}: whole {tw:8.1f}  rows {tr:8.1f}  extra {tw - tr:7.1f}  ({4 * n / tw / 1e3:6.0f} GB/s whole)",
          flush=True)
    v = m = None  # free the device arrays before torch runs
TORCH = """
import torch, statistics
for e in (20, 24, 26, 28):
    t = torch.rand(1 << e, device="cuda")
    for _ in range(3): t.sum()
    s, f = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    ts = []
    for _ in range(20):
        s.record(); t.sum(); f.record(); f.synchronize(); ts.append(s.elapsed_time(f) * 1e3)
    ts2 = []
    for _ in range(20):
        s.record(); t.argmax(); f.record(); f.synchronize(); ts2.append(s.elapsed_time(f) * 1e3)
    us = statistics.median(ts)
    print(f"  torch 2^{e}: sum {us:8.1f} us ({4 * (1 << e) / us / 1e3:6.0f} GB/s), "
          f"argmax {statistics.median(ts2):8.1f} us")
"""
r = subprocess.run([sys.executable, "-c", TORCH], capture_output=True, text=True, timeout=300)
print(r.stdout + r.stderr[-400:], flush=True)
