"""Why whole-array reductions of 2^26 float32 run at a third of the rows' speed (run on a GPU machine):
the same bytes reduced whole and by rows, with and without out=, and on another stream."""
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
