"""Reductions and scans (issue 4): GB/s of bytes read (reductions) or read + written (scans) on device
arrays, against the device-to-device copy ceiling, with CuPy (and PyTorch) measured in the same run."""
import os

import numpy as np

import npgpu

from ._harness import Result, anchor_time_ms, copy_ceiling_gbs, gpu_time_ms, optional

N = 1 << 26
SIDE = 8192


def _anchors(fn_name, x_host, nbytes, repeat, **kw):
    out = {}
    if os.environ.get("NPGPU_BENCH_NO_ANCHORS") == "1":
        return out
    cp = optional("cupy")
    if cp is not None:
        cx = cp.asarray(x_host)
        fn = getattr(cp, fn_name)
        t = anchor_time_ms(lambda: fn(cx, **kw), cp.cuda.Device().synchronize, repeat)
        out["CuPy GB/s"] = round(nbytes / t / 1e6, 1)
        del cx
    torch = optional("torch")
    if torch is not None:
        tx = torch.as_tensor(x_host, device="cuda")
        tname = {"sum": "sum", "argmax": "argmax", "cumsum": "cumsum"}[fn_name]
        tkw = {"dim": kw["axis"]} if kw.get("axis") is not None else ({"dim": 0} if fn_name == "cumsum" else {})
        t = anchor_time_ms(lambda: getattr(torch, tname)(tx, **tkw), torch.cuda.synchronize, repeat)
        out["PyTorch GB/s"] = round(nbytes / t / 1e6, 1)
        del tx
    return out


def _result(name, ms, nbytes, target, anchors):
    gbs = nbytes / ms / 1e6
    ceiling = copy_ceiling_gbs()
    anchors = dict(anchors)
    anchors["copy ceiling GB/s"] = round(ceiling, 1)
    return Result(name, gbs, "GB/s", target=target, anchors=anchors, note=f"{ms:.4f} ms")


def bench_reduce_sum(repeat):
    x = np.random.default_rng(1).random(N, dtype=np.float32)
    d = npgpu.asarray(x)
    got = float(npgpu.sum(d).get())
    ref = float(np.sum(x, dtype=np.float64))
    if abs(got - ref) > 1e-5 * ref:
        raise AssertionError(f"sum: {got} vs {ref}")
    ms = gpu_time_ms(lambda: npgpu.sum(d), repeat)
    return [_result("sum 2^26 float32 (device)", ms, x.nbytes, 2850.0, _anchors("sum", x, x.nbytes, repeat))]


def bench_reduce_axis(repeat):
    x = np.random.default_rng(2).random((SIDE, SIDE), dtype=np.float32)
    d = npgpu.asarray(x)
    res = []
    for axis, target in ((0, 2500.0), (1, 2850.0)):
        got = npgpu.sum(d, axis=axis).get()
        np.testing.assert_allclose(got, x.sum(axis=axis, dtype=np.float64), rtol=1e-5)
        ms = gpu_time_ms(lambda: npgpu.sum(d, axis=axis), repeat)
        res.append(_result(f"sum axis={axis} of 8192x8192 float32 (device)", ms, x.nbytes, target,
                           _anchors("sum", x, x.nbytes, repeat, axis=axis)))
    # argmax along columns (issue 24's target) and rows (not targeted)
    for axis, target in ((0, 2700.0), (1, None)):
        np.testing.assert_array_equal(npgpu.argmax(d, axis=axis).get(), np.argmax(x, axis=axis))
        ms = gpu_time_ms(lambda: npgpu.argmax(d, axis=axis), repeat)
        anchors = _anchors("argmax", x, x.nbytes, repeat, axis=axis) if target else {}
        res.append(_result(f"argmax axis={axis} of 8192x8192 float32 (device)", ms, x.nbytes, target, anchors))
    return res


def bench_reduce_argmax(repeat):
    x = np.random.default_rng(3).random(N, dtype=np.float32)
    d = npgpu.asarray(x)
    if int(npgpu.argmax(d).get()) != int(np.argmax(x)):
        raise AssertionError("argmax differs from NumPy")
    ms = gpu_time_ms(lambda: npgpu.argmax(d), repeat)
    res = [_result("argmax 2^26 float32 (device)", ms, x.nbytes, 2500.0, _anchors("argmax", x, x.nbytes, repeat))]
    ms = gpu_time_ms(lambda: npgpu.max(d), repeat)
    res.append(_result("max 2^26 float32 (device)", ms, x.nbytes, None, {}))
    ms = gpu_time_ms(lambda: npgpu.var(d), repeat)
    res.append(_result("var 2^26 float32 (device)", ms, x.nbytes, None, {}))
    xi = np.random.default_rng(4).integers(-1000, 1000, N, dtype=np.int32)
    di = npgpu.asarray(xi)
    ms = gpu_time_ms(lambda: npgpu.sum(di), repeat)
    res.append(_result("sum 2^26 int32 -> int64 (device, converting loader)", ms, xi.nbytes, None, {}))
    return res


def bench_reduce_cumsum(repeat):
    x = np.random.default_rng(5).random(N, dtype=np.float32)
    d = npgpu.asarray(x)
    got = npgpu.cumsum(d).get()
    ref = np.cumsum(x, dtype=np.float64)
    np.testing.assert_allclose(got[-10:], ref[-10:], rtol=1e-6)
    out = npgpu.empty(N, np.float32)
    ms = gpu_time_ms(lambda: npgpu.cumsum(d, out=out), repeat)
    res = [_result("cumsum 2^26 float32 (device, read + written)", ms, 2 * x.nbytes, 2400.0,
                   _anchors("cumsum", x, 2 * x.nbytes, repeat))]
    xi = np.random.default_rng(6).integers(0, 100, N, dtype=np.int64)
    di = npgpu.asarray(xi)
    oi = npgpu.empty(N, np.int64)
    ms = gpu_time_ms(lambda: npgpu.cumsum(di, out=oi), repeat)
    res.append(_result("cumsum 2^26 int64 (device, read + written)", ms, 2 * xi.nbytes, None, {}))
    return res


BENCHMARKS = {
    "reduce_sum": bench_reduce_sum,
    "reduce_axis": bench_reduce_axis,
    "reduce_argmax": bench_reduce_argmax,
    "reduce_cumsum": bench_reduce_cumsum,
}
