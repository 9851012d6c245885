"""add: device bandwidth against the copy ceiling, per-call overhead, NumPy in / NumPy out, broadcast and
transposed adds. Anchors: NumPy, CuPy, PyTorch, Numba (when installed)."""
import numpy as np

import npgpu

from ._harness import (
    Result,
    anchor_time_ms,
    copy_ceiling_gbs,
    gpu_time_ms,
    h2d_ceiling_gbs,
    host_time_ms,
    optional,
    per_call_us,
)


def _rand(n, seed, dtype=np.float32):
    return np.random.default_rng(seed).standard_normal(n, dtype=dtype)


def _check(got, want, what):
    if not np.array_equal(np.asarray(got), want):
        raise AssertionError(f"{what}: npgpu result differs from NumPy")


def bench_add_device(repeat):
    n = 1 << 26
    a, b = _rand(n, 1), _rand(n, 2)
    da, db = npgpu.asarray(a), npgpu.asarray(b)
    out = npgpu.full(n, np.nan, dtype=np.float32)  # poisoned
    npgpu.add(da, db, out=out)
    _check(out.get(), a + b, "add 2^26")
    ms = gpu_time_ms(lambda: npgpu.add(da, db, out=out), repeat)
    gbs = 3 * a.nbytes / ms / 1e6
    ceiling = copy_ceiling_gbs()
    anchors = {"copy ceiling GB/s": round(ceiling, 1)}
    cp = optional("cupy")
    if cp is not None:
        ca, cb = cp.asarray(a), cp.asarray(b)
        co = cp.empty_like(ca)
        t = anchor_time_ms(lambda: cp.add(ca, cb, out=co), cp.cuda.Device().synchronize, repeat)
        anchors["CuPy GB/s"] = round(3 * a.nbytes / t / 1e6, 1)
    torch = optional("torch")
    if torch is not None:
        ta, tb = torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda()
        to = torch.empty_like(ta)
        t = anchor_time_ms(lambda: torch.add(ta, tb, out=to), torch.cuda.synchronize, repeat)
        anchors["PyTorch GB/s"] = round(3 * a.nbytes / t / 1e6, 1)
    return [Result("add 2^26 float32 on device", gbs, "GB/s", target=0.9 * ceiling, anchors=anchors,
                   note=f"{100 * gbs / ceiling:.1f}% of the copy ceiling")]


def bench_add_overhead(repeat):
    a, b = _rand(1024, 3), _rand(1024, 4)
    da, db = npgpu.asarray(a), npgpu.asarray(b)
    _check(npgpu.add(da, db).get(), a + b, "add 1024")
    us = per_call_us(lambda: npgpu.add(da, db))
    # The floor: what one bare launch of an empty kernel costs the host here (no call can return sooner).
    anchors = {"empty launch us": round(npgpu.profiler.empty_launch_us(), 2)}
    cp = optional("cupy")
    if cp is not None:
        ca, cb = cp.asarray(a), cp.asarray(b)
        anchors["CuPy us"] = round(per_call_us(lambda: ca + cb), 2)
    torch = optional("torch")
    if torch is not None:
        ta, tb = torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda()
        anchors["PyTorch us"] = round(per_call_us(lambda: ta + tb), 2)
    nb = optional("numba")
    if nb is not None:
        from numba import cuda, vectorize

        @vectorize(["float32(float32, float32)"], target="cuda")
        def vadd(x, y):
            return x + y

        na, nbb = cuda.to_device(a), cuda.to_device(b)
        anchors["Numba us"] = round(per_call_us(lambda: vadd(na, nbb), calls=300), 2)
    return [Result("add per-call overhead, 1024 float32 device arrays", us, "us", target=4.0,
                   higher_is_better=False, anchors=anchors)]


def bench_add_overhead_threads(repeat):
    """The per-call cost of ordering each thread's default stream after the others' (docs/reliability.md,
    "Arrays passed between threads"): paid only while a second thread that used the GPU is alive."""
    import threading

    a, b = _rand(1024, 3), _rand(1024, 4)
    da, db = npgpu.asarray(a), npgpu.asarray(b)
    _check(npgpu.add(da, db).get(), a + b, "add 1024")
    alone = per_call_us(lambda: npgpu.add(da, db))
    ready, stop = threading.Event(), threading.Event()

    def idle_user():
        npgpu.add(da, db).get()
        ready.set()
        stop.wait()

    t = threading.Thread(target=idle_user)
    t.start()
    try:
        ready.wait()
        _check(npgpu.add(da, db).get(), a + b, "add 1024 beside a second thread")
        us = per_call_us(lambda: npgpu.add(da, db))
    finally:
        stop.set()
        t.join()
    after = per_call_us(lambda: npgpu.add(da, db))
    return [Result("add per-call overhead, 1024 float32, a second GPU thread alive", us, "us",
                   higher_is_better=False,
                   anchors={"alone us": round(alone, 2), "after it ended us": round(after, 2)},
                   note=f"{us - alone:+.2f} us for the cross-thread wait")]


def bench_add_numpy(repeat):
    res = []
    n = 1 << 20
    a, b = _rand(n, 5), _rand(n, 6)
    _check(npgpu.add(a, b), a + b, "add NumPy 2^20")
    ms = host_time_ms(lambda: npgpu.add(a, b), repeat)
    anchors = {"NumPy CPU ms": round(host_time_ms(lambda: np.add(a, b), repeat), 3)}
    cp = optional("cupy")
    if cp is not None:
        anchors["CuPy round trip ms"] = round(
            host_time_ms(lambda: cp.asnumpy(cp.asarray(a) + cp.asarray(b)), repeat), 3)
    res.append(Result("add NumPy in/out 2^20 float32", ms, "ms", target=0.4, higher_is_better=False,
                      anchors=anchors))
    n = 1 << 28
    a, b = _rand(n, 7), _rand(n, 8)
    _check(npgpu.add(a, b), a + b, "add NumPy 2^28")
    ms = host_time_ms(lambda: npgpu.add(a, b), max(3, repeat // 4), warmup=1)
    h2d = h2d_ceiling_gbs()
    gbs = 2 * a.nbytes / ms / 1e6  # bytes the host must send (the result comes back over the other direction)
    res.append(Result("add NumPy in/out 2^28 float32 (input GB/s)", gbs, "GB/s", target=0.8 * h2d,
                      anchors={"pinned H2D GB/s": round(h2d, 1),
                               "NumPy CPU ms": round(host_time_ms(lambda: np.add(a, b), 3, 1), 1)},
                      note=f"{ms:.1f} ms, {100 * gbs / h2d:.0f}% of pinned H2D"))
    return res


def bench_add_layouts(repeat):
    n = 4096
    m = np.random.default_rng(9).standard_normal((n, n), dtype=np.float32)
    v = _rand(n, 10)
    dm, dv, dmt = npgpu.asarray(m), npgpu.asarray(v), npgpu.asarray(np.ascontiguousarray(m.T))
    out = npgpu.empty((n, n), np.float32)
    npgpu.add(dm, dv, out=out)
    _check(out.get(), m + v, "broadcast add")
    # two distinct inputs: add(dm, dm) reads each line once for both operands (3842 "GB/s" on an H100, above
    # the copy ceiling), which made every other layout look slower than it is
    dm2 = npgpu.asarray(np.random.default_rng(11).standard_normal((n, n), dtype=np.float32))
    contig = gpu_time_ms(lambda: npgpu.add(dm, dm2, out=out), repeat)
    bcast = gpu_time_ms(lambda: npgpu.add(dm, dv, out=out), repeat)
    bytes_c = 3 * m.nbytes
    bytes_b = 2 * m.nbytes + v.nbytes
    per_c = bytes_c / contig
    res = [Result("broadcast add 4096x4096 + 4096 vs contiguous (per byte)", (bytes_b / bcast) / per_c, "x",
                  target=0.8,
                  note=f"contiguous {bytes_c / contig / 1e6:.0f} GB/s, broadcast {bytes_b / bcast / 1e6:.0f} GB/s")]
    # a + b.T: one operand read across its rows.
    npgpu.add(dm, dmt.T, out=out)
    _check(out.get(), m + m, "transposed add")
    trans = gpu_time_ms(lambda: npgpu.add(dm, dmt.T, out=out), repeat)
    res.append(Result("transposed add 4096x4096 + (4096x4096).T vs contiguous (per byte)", contig / trans, "x",
                      target=0.8, note=f"transposed {bytes_c / trans / 1e6:.0f} GB/s"))
    return res


BENCHMARKS = {
    "add_device": bench_add_device,
    "add_overhead": bench_add_overhead,
    "add_overhead_threads": bench_add_overhead_threads,
    "add_numpy": bench_add_numpy,
    "add_layouts": bench_add_layouts,
}
