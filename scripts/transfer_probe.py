"""Host<->device copy rates of npgpu.asarray / Array.get and a NumPy-in fft2, for 128 MiB (run on a GPU machine).

    python scripts/transfer_probe.py
"""
import time

import numpy as np


def main():
    import npgpu

    x = np.random.default_rng(0).standard_normal((4096, 4096 * 2)).astype(np.float32).view(np.complex64)
    for _ in range(4):
        t0 = time.perf_counter()
        d = npgpu.asarray(x)
        t1 = time.perf_counter()
        h = d.get()
        t2 = time.perf_counter()
        assert np.array_equal(h, x)
        print(f"asarray {x.nbytes / 2**20:.0f} MiB: {(t1 - t0) * 1e3:.2f} ms, get {(t2 - t1) * 1e3:.2f} ms")
        del h
    want = np.fft.fft2(x.astype(np.complex128))
    ts = []
    for _ in range(5):
        t0 = time.perf_counter()
        y = npgpu.fft.fft2(x)
        ts.append((time.perf_counter() - t0) * 1e3)
        err = np.abs(y - want).max() / np.abs(want).max()
        assert err < 1e-5, err
        del y
    print(f"NumPy-in fft2 4096^2 complex64: median {np.median(ts):.2f} ms ({', '.join(f'{t:.1f}' for t in ts)})")


if __name__ == "__main__":
    main()
