"""FFT through cuFFT (issue 19): c2c, fft2 and rfft2 against CuPy and PyTorch measured in the same run, a
batched transform against memory bandwidth, a transform over axis 0 against the last axis, the host cost of
a small cached transform, and a NumPy-in/NumPy-out fft2 against NumPy on the host CPU."""
import numpy as np

import npgpu

from ._harness import Result, anchor_time_ms, gpu_time_ms, host_time_ms, optional, per_call_us


def _crand(shape, seed):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(np.complex64)


def _check(name, got, want, rtol=2e-3):
    err = np.abs(got - want).max() / max(np.abs(want).max(), 1e-30)
    if not err < rtol:
        raise AssertionError(f"{name}: npgpu differs from numpy.fft (relative error {err:.2e})")


def _anchors(cp_fn, torch_fn, repeat):
    out = {}
    cp = optional("cupy")
    if cp is not None:
        out["CuPy ms"] = round(anchor_time_ms(cp_fn(cp), cp.cuda.Device().synchronize, repeat), 4)
    torch = optional("torch")
    if torch is not None:
        out["PyTorch ms"] = round(anchor_time_ms(torch_fn(torch), torch.cuda.synchronize, repeat), 4)
    return out


def _host_cost():
    """The host cost of a small cached transform, npgpu's and CuPy's."""
    small = npgpu.asarray(_crand(1024, 6))
    us = per_call_us(lambda: npgpu.fft.fft(small))
    anchors = {}
    cp = optional("cupy")
    if cp is not None:
        cs = cp.asarray(_crand(1024, 6))
        anchors["CuPy us"] = round(per_call_us(lambda: cp.fft.fft(cs)), 2)
    return Result("fft of 1024 complex64 on device, plan cached: host cost per call", us, "us", target=6.0,
                  higher_is_better=False, anchors=anchors)


def bench_fft(repeat):
    # First, before PyTorch runs in this process: once it has, every library's small calls cost more host
    # time (docs/performance-notes.md).
    res = [_host_cost()]
    cases = [
        ("c2c 2^24 complex64", _crand(1 << 24, 1), lambda m, x: m.fft.fft(x), "CuPy ms", 0.288),
        ("fft2 4096 x 4096 complex64", _crand((4096, 4096), 2), lambda m, x: m.fft.fft2(x), "CuPy ms", 0.257),
        ("rfft2 4096 x 4096 float32", np.random.default_rng(3).standard_normal((4096, 4096)).astype(np.float32),
         lambda m, x: m.fft.rfft2(x), "PyTorch ms", 0.136),
    ]
    for name, h, op, anchor, fallback in cases:
        d = npgpu.asarray(h)
        _check(name, op(npgpu, d).get()[:64], op(np, h.astype(np.complex128 if h.dtype.kind == "c" else np.float64))
               [:64])
        ms = gpu_time_ms(lambda: op(npgpu, d), repeat)
        anchors = _anchors(lambda cp: (lambda x=cp.asarray(h): op(cp, x)),
                           lambda t: (lambda x=t.from_numpy(h).cuda(): op(t, x)), repeat)
        res.append(Result(name, ms, "ms", target=anchors.get(anchor, fallback), higher_is_better=False,
                          anchors=anchors, note=f"target: {anchor} in this run"))
    h = _crand((16384, 1024), 4)
    d = npgpu.asarray(h)
    ms = gpu_time_ms(lambda: npgpu.fft.fft(d), repeat)
    res.append(Result("batched fft 16384 x 1024 complex64 (last axis): GB/s, one read + one write",
                      2 * h.nbytes / ms / 1e6, "GB/s", target=2700,
                      anchors=_anchors(lambda cp: (lambda x=cp.asarray(h): cp.fft.fft(x)),
                                       lambda t: (lambda x=t.from_numpy(h).cuda(): t.fft.fft(x)), repeat)))
    h = _crand((4096, 4096), 5)
    d = npgpu.asarray(h)
    _check("fft axis 0", npgpu.fft.fft(d, axis=0).get()[:, :8], np.fft.fft(h.astype(np.complex128), axis=0)[:, :8])
    last = gpu_time_ms(lambda: npgpu.fft.fft(d, axis=-1), repeat)
    first = gpu_time_ms(lambda: npgpu.fft.fft(d, axis=0), repeat)
    res.append(Result("fft over axis 0 of 4096 x 4096 complex64: time / last axis's", first / last, "x",
                      target=1.15, higher_is_better=False,
                      anchors={"axis 0 ms": round(first, 4), "last axis ms": round(last, 4)}))
    h = _crand((4096, 4096), 7)
    _check("numpy-in fft2", npgpu.fft.fft2(h)[:8], np.fft.fft2(h.astype(np.complex128))[:8])
    ms = host_time_ms(lambda: npgpu.fft.fft2(h), max(3, repeat // 4))
    res.append(Result("NumPy-in fft2 4096 x 4096 complex64 (transfers included)", ms, "ms", target=10.0,
                      higher_is_better=False))
    return res


BENCHMARKS = {"fft": bench_fft}
