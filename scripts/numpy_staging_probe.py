"""Where the time of a large NumPy-in/NumPy-out add goes, under staging settings (run on a GPU machine).

  python scripts/numpy_staging_probe.py            # sweeps settings, one child process each
  python scripts/numpy_staging_probe.py --child    # one measurement under the current environment
"""
import os
import statistics
import subprocess
import sys
import time

import numpy as np


def med_ms(fn, repeat=5):
    fn()
    ts = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        ts.append((time.perf_counter() - t) * 1e3)
    return statistics.median(ts)


def child():
    import npgpu
    from npgpu.benchmarks._harness import h2d_ceiling_gbs

    for logn in (20, 28):
        measure(npgpu, h2d_ceiling_gbs, 1 << logn, 31 if logn < 24 else 5)


def measure(npgpu, h2d_ceiling_gbs, n, repeat):
    a = np.random.default_rng(1).standard_normal(n, dtype=np.float32)
    b = np.random.default_rng(2).standard_normal(n, dtype=np.float32)
    gb_in = 2 * a.nbytes / 1e9
    c = npgpu.add(a, b)
    assert np.array_equal(c, a + b)
    del c
    r = {"new result": med_ms(lambda: npgpu.add(a, b), repeat)}
    out = np.empty_like(a)
    out[:] = 1
    r["out= pageable"] = med_ms(lambda: npgpu.add(a, b, out=out), repeat)
    pin = npgpu.empty_pinned(a.shape, a.dtype)
    r["out= pinned"] = med_ms(lambda: npgpu.add(a, b, out=pin), repeat)
    assert np.array_equal(pin, a + b)
    pa = npgpu.empty_pinned(a.shape, a.dtype)
    pa[:] = a
    r["pinned in+out"] = med_ms(lambda: npgpu.add(pa, pa, out=pin), repeat)
    text = " | ".join(f"{k} {v:.3f} ms ({gb_in / v * 1e3:.1f} GB/s in)" for k, v in r.items())
    dst = np.empty_like(a)
    dst[:] = 0
    cp = med_ms(lambda: np.copyto(dst, a))
    print(f"{os.environ.get('TAG', 'default')} 2^{n.bit_length() - 1}: {text} | 1-thread memcpy {a.nbytes / cp / 1e6:.1f} GB/s"
          f" | pinned H2D {h2d_ceiling_gbs():.1f} GB/s", flush=True)


def main():
    settings = [
        ("default", {}),
        ("threads=16", {"NPGPU_STAGING_THREADS": "16"}),
        ("threads=4", {"NPGPU_STAGING_THREADS": "4"}),
        ("slot=32MiB", {"NPGPU_STAGING_SLOT_BYTES": str(32 << 20)}),
        ("slot=32MiB,threads=16", {"NPGPU_STAGING_SLOT_BYTES": str(32 << 20), "NPGPU_STAGING_THREADS": "16"}),
        ("slots=8", {"NPGPU_STAGING_SLOTS": "8"}),
        ("register", {"NPGPU_STAGING_INPUT": "register"}),
        ("pageable", {"NPGPU_STAGING_INPUT": "pageable"}),
    ]
    for tag, env in settings:
        e = dict(os.environ, TAG=tag, **env)
        p = subprocess.run([sys.executable, __file__, "--child"], env=e, capture_output=True, text=True,
                           timeout=300)
        print(p.stdout.strip() or f"{tag}: rc={p.returncode} {p.stderr.strip()[-300:]}", flush=True)


if __name__ == "__main__":
    child() if "--child" in sys.argv else main()
