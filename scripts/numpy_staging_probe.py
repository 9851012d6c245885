"""Where the time of a large NumPy-in/NumPy-out add goes, under staging settings (run on a GPU machine).

  python scripts/numpy_staging_probe.py            # sweeps settings, one child process each
  python scripts/numpy_staging_probe.py --child    # one measurement under the current environment
"""
import os
import subprocess
import sys

import numpy as np


def child():
    import npgpu
    from npgpu.benchmarks._harness import h2d_ceiling_gbs, host_time_ms

    for logn in (20, 28):
        measure(npgpu, h2d_ceiling_gbs, host_time_ms, 1 << logn, 31 if logn < 24 else 5)


def measure(npgpu, h2d_ceiling_gbs, time_ms, n, repeat):
    a = np.random.default_rng(1).standard_normal(n, dtype=np.float32)
    b = np.random.default_rng(2).standard_normal(n, dtype=np.float32)
    gb_in = 2 * a.nbytes / 1e9
    c = npgpu.add(a, b)
    assert np.array_equal(c, a + b)
    del c
    r = {"new result": time_ms(lambda: npgpu.add(a, b), repeat)}
    out = np.empty_like(a)
    out[:] = 1
    r["out= pageable"] = time_ms(lambda: npgpu.add(a, b, out=out), repeat)
    pin = npgpu.empty_pinned(a.shape, a.dtype)
    r["out= pinned"] = time_ms(lambda: npgpu.add(a, b, out=pin), repeat)
    assert np.array_equal(pin, a + b)
    pa = npgpu.empty_pinned(a.shape, a.dtype)
    pa[:] = a
    r["pinned in+out"] = time_ms(lambda: npgpu.add(pa, pa, out=pin), repeat)
    text = " | ".join(f"{k} {v:.3f} ms ({gb_in / v * 1e3:.1f} GB/s in)" for k, v in r.items())
    dst = np.empty_like(a)
    dst[:] = 0
    cp = time_ms(lambda: np.copyto(dst, a))
    print(f"{os.environ.get('TAG', 'default')} 2^{n.bit_length() - 1}: {text} | 1-thread memcpy "
          f"{a.nbytes / cp / 1e6:.1f} GB/s | pinned H2D {h2d_ceiling_gbs():.1f} GB/s", flush=True)


def main():
    settings = [
        ("default (32 MiB slots, 16 threads)", {}),
        ("old defaults (8 MiB slots, 8 threads)", {"NPGPU_STAGING_SLOT_BYTES": str(8 << 20),
                                                   "NPGPU_STAGING_THREADS": "8"}),
        ("threads=8", {"NPGPU_STAGING_THREADS": "8"}),
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
