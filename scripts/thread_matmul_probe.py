"""Probe for the cuBLAS thread stall under compute-sanitizer (docs/reliability.md): rounds of 1, 2 and 4 fresh
Python threads, each running matmul on small NumPy operands three times, printing each call as it ends, so
that a stalled round shows how far it got. `--stream-first` first runs one matmul of device arrays on a new
`npgpu.Stream`, as tests/test_blas.py's `test_device_streams_and_threads` does before its threads (that test
stalls under the tool; the plain rounds did not, 2026-11-27). Run on a GPU machine, e.g.
    compute-sanitizer --tool memcheck --report-api-errors no python3 scripts/thread_matmul_probe.py --stream-first
"""
import sys
import threading
import time

import numpy as np

import npgpu

rng = np.random.default_rng(0)
a = rng.random((64, 48)).astype(np.float32)
b = rng.random((48, 32)).astype(np.float32)
t0 = time.time()
if "--stream-first" in sys.argv:
    s = npgpu.Stream()
    npgpu.matmul(npgpu.asarray(a, stream=s), npgpu.asarray(b, stream=s), stream=s)
    s.synchronize()
    print("stream matmul", round(time.time() - t0, 2), flush=True)
npgpu.matmul(a, b)
print("main thread", round(time.time() - t0, 2), flush=True)


def work(i, nthreads):
    for k in range(3):
        npgpu.matmul(a, b)
        print(f"round {nthreads}: thread {i} call {k} at {time.time() - t0:.2f} s", flush=True)


for nthreads in (1, 2, 4):
    threads = [threading.Thread(target=work, args=(i, nthreads)) for i in range(nthreads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(f"round {nthreads} done at {time.time() - t0:.2f} s", flush=True)
