"""A fresh process's first call of a new run-time kernel (SourceModule: compile, load, launch), NVRTC's
cubin for the device (npgpu's default) against PTX for its virtual architecture (compute_XX, which the
driver compiles at load time), the latter with the driver's JIT cache off and on. Six processes each.

    python scripts/rtc_ptx_probe.py     # one line per route: medians of each step in ms, and the totals
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

CODE = r'''
import json, sys, time, uuid
import numpy as np, npgpu
from npgpu import _rtc
npgpu.zeros(1).get()
mode = sys.argv[1]
src = r"""extern "C" __global__ void add_kernel(const float *a, const float *b, float *r, int n)
{ int i = threadIdx.x + blockDim.x * blockIdx.x; if (i < n) r[i] = a[i] + b[i]; }
""" + "// " + uuid.uuid4().hex + "\n"
arch = _rtc.device_arch()
opts = ["--gpu-architecture=" + (arch if mode == "cubin" else arch.replace("sm_", "compute_"))]
t0 = time.perf_counter()
_rtc.nvrtc_version()
t1 = time.perf_counter()
m = npgpu.SourceModule(src, options=opts)
t2 = time.perf_counter()
f = m.get_function("add_kernel")
x = npgpu.zeros(1024, np.float32)
f(x, x, x, np.int32(1024), block=256, grid=4)
npgpu.synchronize()
t3 = time.perf_counter()
print(json.dumps({"nvrtc_load": (t1-t0)*1e3, "compile": (t2-t1)*1e3, "load_launch": (t3-t2)*1e3, "total": (t3-t0)*1e3}))
'''
res = {}
for _ in range(6):
    for mode, env in [("cubin", {}), ("ptx", {"CUDA_CACHE_DISABLE": "1"}), ("ptx_cache", {})]:
        with tempfile.TemporaryDirectory() as d:
            e = dict(os.environ, NPGPU_CACHE_DIR=d, **env)
            out = subprocess.run([sys.executable, "-c", CODE, "cubin" if mode == "cubin" else "ptx"],
                                 capture_output=True, text=True, env=e, cwd="/")
        if out.returncode:
            print(mode, out.stderr[-1500:])
            continue
        res.setdefault(mode, []).append(json.loads(out.stdout.strip().splitlines()[-1]))
for mode, rs in res.items():
    print(mode, {k: round(statistics.median(r[k] for r in rs), 2) for k in rs[0]},
          "totals", [round(r["total"], 1) for r in rs])
