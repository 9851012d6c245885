"""``python -m npgpu demo``: the main job on real data, checked against NumPy, timed on both sides."""
import time

import numpy as np

import npgpu


def _median_time(fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return float(np.median(times))


def vectoradd(args):
    """Vector add: c = a + b on float32 vectors, NumPy in and NumPy out (the first program of the Numba and
    PyCUDA tutorials)."""
    n = args.size
    rng = np.random.default_rng(2026)
    a = rng.standard_normal(n, dtype=np.float32)
    b = rng.standard_normal(n, dtype=np.float32)
    backend = npgpu.get_backend()
    where = (f"GPU {npgpu.Device(npgpu.get_device_id()).name}" if backend == "cuda"
             else f"host backend ({npgpu.unavailable_reason() or 'chosen'})")
    print(f"npgpu demo vectoradd: c = a + b, {n:,} float32 elements, NumPy in / NumPy out")
    print(f"running on: {where}")
    c = npgpu.add(a, b)  # first call: initialises CUDA and the staging ring
    ref = a.astype(np.float64) + b
    err = float(np.max(np.abs(c - ref)))
    ok = c.dtype == np.float32 and c.shape == a.shape and err <= 1e-6 * float(np.max(np.abs(ref)))
    t_np = _median_time(lambda: np.add(a, b), args.repeat)
    t_gpu = _median_time(lambda: npgpu.add(a, b), args.repeat)
    print(f"max |npgpu - float64 reference| = {err:.3g}  -> {'OK' if ok else 'MISMATCH'}")
    print(f"NumPy (CPU): {t_np * 1e3:9.3f} ms")
    print(f"npgpu      : {t_gpu * 1e3:9.3f} ms  ({t_np / t_gpu:.2f}x NumPy; transfers included)")
    if backend == "cuda":
        da, db = npgpu.asarray(a), npgpu.asarray(b)
        npgpu.add(da, db)
        start, end = npgpu.Event(), npgpu.Event()
        start.record()
        for _ in range(args.repeat):
            npgpu.add(da, db)
        end.record()
        end.synchronize()
        ms = start.elapsed_time(end) / args.repeat
        print(f"npgpu on device arrays (no transfers): {ms:.3f} ms = {3 * 4 * n / ms / 1e6:.0f} GB/s")
    b2 = b.copy()
    npgpu.add(a, b2, out=b2)  # b += a, the in-place form of the Numba tutorial's vector add
    ok = ok and np.array_equal(b2, a + b)
    print(f"b += a through out=b: {'OK' if np.array_equal(b2, a + b) else 'MISMATCH'}")
    return 0 if ok else 1


def run(args):
    return {"vectoradd": vectoradd}[args.name](args)
