"""Host <-> GPU transfer rates of one large block, as npgpu.dask's NumPy-chunk rounds see them.

Usage: python scripts/host_transfer_probe.py [GB]   (default 6.7 GB, a 40960^2 float32 block)

Prints seconds and GB/s for: pinning a block (npgpu.empty_pinned, first and cached), an upload from pageable
and from pinned memory, a download into fresh pageable memory (Array.get) and into pinned memory, and a
first touch of fresh pageable memory on the CPU alone (np.empty + fill): the costs a round pays.
"""
import sys
import time

import numpy as np

import npgpu


def timed(label, fn, nbytes):
    npgpu.synchronize()
    t0 = time.perf_counter()
    r = fn()
    npgpu.synchronize()
    s = time.perf_counter() - t0
    print(f"{label:<40} {s:8.3f} s {nbytes / s / 1e9:8.1f} GB/s", flush=True)
    return r


def main():
    gb = float(sys.argv[1]) if len(sys.argv) > 1 else 6.7
    n = int(gb * 1e9 / 4)
    nbytes = 4 * n
    host = timed("first touch (np.empty + fill)", lambda: np.full(n, 0.5, np.float32), nbytes)
    dev = timed("upload from pageable", lambda: npgpu.asarray(host), nbytes)
    timed("download into fresh pageable (get)", lambda: dev.get(), nbytes)
    pinned = timed("pin a block (empty_pinned, first)", lambda: npgpu.empty_pinned((n,), np.float32), nbytes)
    timed("download into pinned", lambda: dev.get(out=pinned), nbytes)
    timed("upload from pinned", lambda: npgpu.asarray(pinned), nbytes)
    pinned = None  # released: into the pinned cache when NPGPU_PINNED_CACHE_BYTES holds it
    timed("pin a block (empty_pinned, cached)", lambda: npgpu.empty_pinned((n,), np.float32), nbytes)


if __name__ == "__main__":
    main()
