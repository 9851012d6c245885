"""Compare the reductions' variants on a GPU in one go: each variant (environment switches read once by the
library) runs in its own process and prints one line per workload: GB/s (median of CUDA-event timings) and a
correctness check against NumPy in float64 (outputs poisoned first).

    python3 scripts/reduce_probe.py            # every variant
    python3 scripts/reduce_probe.py --child    # the current environment only
"""
import os
import subprocess
import sys

N = 1 << 26
SIDE = 8192

VARIANTS = [
    ("new (default)", {}, "sum argmax max axis0 axis1 argmax1 cumsum cumsum64"),
    ("ticket off: partials + finish kernel", {"NPGPU_REDUCE_TICKET": "0"}, "sum argmax"),
    ("CUB whole-array", {"NPGPU_REDUCE_FULL": "cub"}, "sum argmax max"),
    ("rows: blocks per row", {"NPGPU_REDUCE_ROWS": "block"}, "axis1 argmax1"),
    ("rows: CUB segmented", {"NPGPU_REDUCE_ROWS": "cub"}, "axis1 argmax1"),
    ("columns: old split (8 * SMs, rounded up)", {"NPGPU_REDUCE_COLS": "old"}, "axis0"),
    ("scan: CUB DeviceScan", {"NPGPU_SCAN": "cub"}, "cumsum"),
    ("scan: 8 vectors per thread", {"NPGPU_SCAN": "8"}, "cumsum cumsum64"),
]


def child(which):
    import numpy as np

    import npgpu
    from npgpu.benchmarks._harness import gpu_time_ms

    def timed(fn):
        return gpu_time_ms(fn, repeat=30)

    def line(name, nbytes, ms, ok):
        print(f"  {name:34s} {nbytes / ms / 1e6:8.1f} GB/s  {ms * 1e3:8.1f} us  {'ok' if ok else 'WRONG'}", flush=True)

    rng = np.random.default_rng(1)
    x = rng.random(N, dtype=np.float32)
    d = npgpu.asarray(x)
    x64 = x.astype(np.float64)
    if "sum" in which.split():
        ref = x64.sum()
        ok = abs(float(npgpu.sum(d).get()) - ref) <= 1e-6 * ref
        line("sum 2^26 f32", x.nbytes, timed(lambda: npgpu.sum(d)), ok)
    if "argmax" in which.split():
        y = x.copy()
        y[N // 3] = 2.0
        y[N // 2] = 2.0
        dy = npgpu.asarray(y)
        ok = int(npgpu.argmax(dy).get()) == N // 3 and int(npgpu.argmin(d).get()) == int(np.argmin(x))
        line("argmax 2^26 f32", x.nbytes, timed(lambda: npgpu.argmax(d)), ok)
    if "max" in which.split():
        ok = float(npgpu.max(d).get()) == float(x.max())
        line("max 2^26 f32", x.nbytes, timed(lambda: npgpu.max(d)), ok)
    if "axis" in which or "argmax1" in which:
        m = rng.random((SIDE, SIDE), dtype=np.float32)
        dm = npgpu.asarray(m)
        for ax in (0, 1):
            if f"axis{ax}" not in which:
                continue
            out = npgpu.full((SIDE,), np.nan, dtype=np.float32)
            npgpu.sum(dm, axis=ax, out=out)
            ok = np.allclose(out.get(), m.sum(axis=ax, dtype=np.float64), rtol=1e-6)
            line(f"sum axis={ax} 8192^2 f32", m.nbytes, timed(lambda: npgpu.sum(dm, axis=ax)), ok)
        if "argmax1" in which:
            ok = np.array_equal(npgpu.argmax(dm, axis=1).get(), m.argmax(axis=1))
            line("argmax axis=1 8192^2 f32", m.nbytes, timed(lambda: npgpu.argmax(dm, axis=1)), ok)
    if "cumsum" in which.split():
        out = npgpu.full(N, np.nan, dtype=np.float32)
        npgpu.cumsum(d, out=out)
        got = out.get()
        ref = np.cumsum(x64)
        err = float(np.max(np.abs(got - ref) / ref))
        ok = err < 1e-6 and not np.isnan(got).any()
        line(f"cumsum 2^26 f32 (max rel err {err:.1e})", 2 * x.nbytes, timed(lambda: npgpu.cumsum(d, out=out)), ok)
    if "cumsum64" in which:
        xd = rng.random(N // 2)
        dd = npgpu.asarray(xd)
        out = npgpu.full(N // 2, np.nan, dtype=np.float64)
        npgpu.cumsum(dd, out=out)
        ref = np.cumsum(xd)
        err = float(np.max(np.abs(out.get() - ref) / ref))
        line(f"cumsum 2^25 f64 (max rel err {err:.1e})", 2 * xd.nbytes,
             timed(lambda: npgpu.cumsum(dd, out=out)), err < 1e-12)


def main():
    if "--child" in sys.argv:
        child(os.environ.get("PROBE_WHICH", "sum argmax max axis0 axis1 argmax1 cumsum cumsum64"))
        return
    for name, env, which in VARIANTS:
        print(name, flush=True)
        e = dict(os.environ, PROBE_WHICH=which, **env)
        r = subprocess.run([sys.executable, os.path.abspath(__file__), "--child"], env=e, timeout=180)
        if r.returncode:
            print(f"  rc={r.returncode}", flush=True)


if __name__ == "__main__":
    main()
