"""The Array API namespace (issue 17): concatenate and arange at memory speed, the host cost of a small
`ones`, and the host device ("cpu") against NumPy on the same CPU. Anchors: CuPy, PyTorch, NumPy."""
import numpy as np

import npgpu

from ._harness import Result, anchor_time_ms, copy_ceiling_gbs, gpu_time_ms, host_time_ms, optional, per_call_us


def _rand(n, seed, dtype=np.float32):
    return np.random.default_rng(seed).standard_normal(n, dtype=dtype)


def bench_concatenate(repeat):
    parts = [_rand(1 << 23, k) for k in range(8)]
    dparts = [npgpu.asarray(p) for p in parts]
    want = np.concatenate(parts)
    got = npgpu.concatenate(dparts)
    if not np.array_equal(got.get(), want):
        raise AssertionError("concatenate: npgpu result differs from NumPy")
    ms = gpu_time_ms(lambda: npgpu.concatenate(dparts), repeat)
    nbytes = 2 * want.nbytes  # read and written
    ceiling = copy_ceiling_gbs()
    anchors = {"copy ceiling GB/s": round(ceiling, 1)}
    cp = optional("cupy")
    if cp is not None:
        cparts = [cp.asarray(p) for p in parts]
        anchors["CuPy ms"] = round(anchor_time_ms(lambda: cp.concatenate(cparts), cp.cuda.Device().synchronize,
                                                  repeat), 4)
    torch = optional("torch")
    if torch is not None:
        tparts = [torch.from_numpy(p).cuda() for p in parts]
        anchors["PyTorch ms"] = round(anchor_time_ms(lambda: torch.cat(tparts), torch.cuda.synchronize, repeat), 4)
    gbs = nbytes / ms / 1e6
    return [Result("concatenate 8 x 2^23 float32 (GB/s read + written)", gbs, "GB/s", target=0.9 * ceiling,
                   anchors=anchors, note=f"{ms:.4f} ms, {100 * gbs / ceiling:.1f}% of the copy ceiling")]


def bench_arange(repeat):
    n = 1 << 26
    got = npgpu.arange(n, dtype=np.float32)
    if not np.array_equal(got.get(), np.arange(n, dtype=np.float32)):
        raise AssertionError("arange: npgpu result differs from NumPy")
    out = npgpu.empty(n, dtype=np.float32)
    ms = gpu_time_ms(lambda: npgpu._array.fill_arange(out, 0, 1), repeat)
    ms_call = gpu_time_ms(lambda: npgpu.arange(n, dtype=np.float32), repeat)
    ceiling = copy_ceiling_gbs()
    anchors = {"copy ceiling GB/s": round(ceiling, 1), "arange() call ms": round(ms_call, 4)}
    cp = optional("cupy")
    if cp is not None:
        anchors["CuPy ms"] = round(anchor_time_ms(lambda: cp.arange(n, dtype=cp.float32),
                                                  cp.cuda.Device().synchronize, repeat), 4)
    torch = optional("torch")
    if torch is not None:
        anchors["PyTorch ms"] = round(anchor_time_ms(lambda: torch.arange(n, dtype=torch.float32, device="cuda"),
                                                     torch.cuda.synchronize, repeat), 4)
    gbs = 4 * n / ms / 1e6
    return [Result("arange 2^26 float32 (GB/s written)", gbs, "GB/s", target=0.9 * ceiling, anchors=anchors,
                   note=f"{ms:.4f} ms; a write-only pass against the read+write copy ceiling")]


def bench_ones_overhead(repeat):
    if not np.array_equal(npgpu.ones(1024, dtype=np.float32).get(), np.ones(1024, np.float32)):
        raise AssertionError("ones: npgpu result differs from NumPy")
    us = per_call_us(lambda: npgpu.ones(1024, dtype=np.float32))
    anchors = {}
    cp = optional("cupy")
    if cp is not None:
        anchors["CuPy us"] = round(per_call_us(lambda: cp.ones(1024, dtype=cp.float32)), 2)
    torch = optional("torch")
    if torch is not None:
        anchors["PyTorch us"] = round(per_call_us(lambda: torch.ones(1024, dtype=torch.float32, device="cuda")), 2)
    return [Result("ones(1024) float32 on device: host cost per call", us, "us", target=3.0,
                   higher_is_better=False, anchors=anchors)]


def bench_host_device(repeat):
    """The host device against NumPy on the same CPU, 2^20 float32: ratio of times (npgpu / NumPy)."""
    a, b = _rand(1 << 20, 5), _rand(1 << 20, 6)
    ha, hb = npgpu.asarray(a, device="cpu"), npgpu.asarray(b, device="cpu")
    out, nout = npgpu.empty(1 << 20, dtype=np.float32, device="cpu"), np.empty(1 << 20, np.float32)
    res = []
    cases = [("add", lambda: npgpu.add(ha, hb, out=out), lambda: np.add(a, b, out=nout)),
             ("exp", lambda: npgpu.exp(ha, out=out), lambda: np.exp(a, out=nout)),
             ("sum", lambda: npgpu.sum(ha), lambda: np.sum(a)),
             ("max", lambda: npgpu.max(ha), lambda: np.max(a))]
    for name, ours, theirs in cases:
        t_ours = host_time_ms(ours, max(repeat, 50))
        t_np = host_time_ms(theirs, max(repeat, 50))
        res.append(Result(f"host device {name} 2^20 float32: time / NumPy's", t_ours / t_np, "x", target=1.5,
                          higher_is_better=False, anchors={"npgpu ms": round(t_ours, 4), "NumPy ms": round(t_np, 4)}))
    return res


BENCHMARKS = {
    "concatenate": bench_concatenate,
    "arange": bench_arange,
    "ones_overhead": bench_ones_overhead,
    "host_device": bench_host_device,
}
