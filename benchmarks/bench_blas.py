"""Matrix products: 8192^3 GEMM in float32 (true float32 and TF32) and float16 against cuBLAS through CuPy and
PyTorch in the same run; matmul_reduce on reference page 002's data (device arrays against the copy ceiling
and CuPy's two ways; NumPy inputs with transfers; NumPy alone on the CPU)."""
import numpy as np

import npgpu

from ._harness import Result, anchor_time_ms, copy_ceiling_gbs, gpu_time_ms, host_time_ms, optional, per_call_us

N = 8192


def _device_rand(shape, seed, dtype=np.float32):
    x = npgpu.empty(shape, np.float32)
    npgpu.random.Generator(seed).random(out=x)  # uniform [0, 1): sums stay well conditioned
    return x if dtype == np.float32 else x.astype(dtype)


def _check_gemm(da, db, dc, tol, what):
    """Spot check 64 rows of the product against float64 on the host."""
    a = np.asarray(da.get()[:64], dtype=np.float64)
    b = np.asarray(db.get(), dtype=np.float64)
    want = a @ b
    got = np.asarray(dc.get()[:64], dtype=np.float64)
    err = np.max(np.abs(got - want) / (np.abs(a) @ np.abs(b)))
    if not err <= tol:
        raise AssertionError(f"{what}: relative error {err:.3g} > {tol}")


def _gemm(repeat, dtype, precision, name, target, target_vs_cupy=None):
    da, db = _device_rand((N, N), 1, dtype), _device_rand((N, N), 2, dtype)
    dc = npgpu.empty((N, N), dtype)
    npgpu.matmul(da, db, out=dc, precision=precision)
    _check_gemm(da, db, dc, {"tf32": 3e-3, "highest": 1e-5}[precision] if dtype == np.float32 else 2e-3, name)
    flops = 2.0 * N ** 3
    reps = max(5, repeat // 2)
    ms = gpu_time_ms(lambda: npgpu.matmul(da, db, out=dc, precision=precision), reps)
    tf = flops / ms / 1e9
    anchors = {}
    cp = optional("cupy")
    cupy_tf = None
    if cp is not None and precision == "highest":
        ca, cb = cp.asarray(da), cp.asarray(db)
        cc = cp.empty((N, N), dtype=dtype)
        t = anchor_time_ms(lambda: cp.matmul(ca, cb, out=cc), cp.cuda.Device().synchronize, reps)
        cupy_tf = flops / t / 1e9
        anchors["CuPy TFLOP/s"] = round(cupy_tf, 1)
    torch = optional("torch")
    if torch is not None:
        ta, tb = torch.from_dlpack(da), torch.from_dlpack(db)
        old = torch.backends.cuda.matmul.allow_tf32
        torch.backends.cuda.matmul.allow_tf32 = precision == "tf32"
        try:
            t = anchor_time_ms(lambda: torch.matmul(ta, tb), torch.cuda.synchronize, reps)
        finally:
            torch.backends.cuda.matmul.allow_tf32 = old
        anchors["PyTorch TFLOP/s"] = round(flops / t / 1e9, 1)
    out = [Result(name, tf, "TF/s", target=target, anchors=anchors, note=f"{ms:.2f} ms")]
    if target_vs_cupy and cupy_tf:
        out.append(Result(name + " / CuPy (%)", 100 * tf / cupy_tf, "%", target=100 * target_vs_cupy))
    return out


def bench_matmul_f32(repeat):
    return _gemm(repeat, np.float32, "highest", "matmul 8192^3 float32 (highest)", None, 0.97)


def bench_matmul_tf32(repeat):
    return _gemm(repeat, np.float32, "tf32", "matmul 8192^3 float32 precision='tf32'", 400.0)


def bench_matmul_f16(repeat):
    return _gemm(repeat, np.float16, "highest", "matmul 8192^3 float16 (float32 accumulate)", 700.0)


# ------------------------------------------------------------------------------------------------ matmul_reduce

M, K, NN = 10000, 5000, 7000
_page = {}


def _page_data():
    if not _page:
        r = np.random.default_rng(987654321)
        a = r.random(size=(M, K), dtype=np.float32)
        b = r.random(size=(K, NN), dtype=np.float32)
        _page["a"], _page["b"] = a, b
        _page["ref"] = a.sum(axis=0, dtype=np.float64) @ b.astype(np.float64)
    return _page["a"], _page["b"], _page["ref"]


def _rel_err(got, ref):
    return float(np.max(np.abs(np.asarray(got, dtype=np.float64) - ref) / np.abs(ref)))


def _back_to_back_ms(fn, calls=20, repeat=5):
    """GPU ms per call over `calls` calls queued back to back (the host's per-call cost hidden)."""
    fn()
    npgpu.synchronize()
    start, end = npgpu.Event(), npgpu.Event()
    out = []
    for _ in range(repeat):
        start.record()
        for _ in range(calls):
            fn()
        end.record()
        end.synchronize()
        out.append(start.elapsed_time(end) / calls)
    return sorted(out)[len(out) // 2]


def bench_matmul_reduce_device(repeat):
    a, b, ref = _page_data()
    da, db = npgpu.asarray(a), npgpu.asarray(b)
    out = npgpu.full(NN, np.nan, dtype=np.float32)
    npgpu.matmul_reduce(da, db, out=out)
    err = _rel_err(out.get(), ref)
    if err > 1e-5:
        raise AssertionError(f"matmul_reduce: relative error {err:.3g} > 1e-5")
    ms = gpu_time_ms(lambda: npgpu.matmul_reduce(da, db), repeat)
    ceiling = copy_ceiling_gbs()
    read_once = (a.nbytes + b.nbytes) / ceiling / 1e6
    anchors = {"read A+B at copy ceiling ms": round(read_once, 4), "rel err": f"{err:.2g}",
               "back-to-back ms": round(_back_to_back_ms(lambda: npgpu.matmul_reduce(da, db)), 4)}
    import os
    old = os.environ.get("NPGPU_MATMUL_REDUCE_TX")
    try:
        for tx in (32, 64, 128, 256):
            os.environ["NPGPU_MATMUL_REDUCE_TX"] = str(tx)
            e = _rel_err(npgpu.matmul_reduce(da, db).get(), ref)
            anchors[f"TX={tx} ms"] = round(gpu_time_ms(lambda: npgpu.matmul_reduce(da, db), repeat), 4)
            anchors[f"TX={tx} b2b ms"] = round(_back_to_back_ms(lambda: npgpu.matmul_reduce(da, db)), 4)
            if e > 1e-5:
                anchors[f"TX={tx} rel err"] = e
    finally:
        if old is None:
            os.environ.pop("NPGPU_MATMUL_REDUCE_TX", None)
        else:
            os.environ["NPGPU_MATMUL_REDUCE_TX"] = old
    anchors["npgpu cuBLAS-gemv ms"] = round(gpu_time_ms(lambda: npgpu.matmul_reduce(da, db, _method=1), repeat), 4)
    anchors["cuBLAS-gemv b2b ms"] = round(_back_to_back_ms(lambda: npgpu.matmul_reduce(da, db, _method=1)), 4)
    anchors["cuBLAS-gemv rel err"] = f"{_rel_err(npgpu.matmul_reduce(da, db, _method=1).get(), ref):.2g}"
    anchors["npgpu axis=1 ms"] = round(gpu_time_ms(lambda: npgpu.matmul_reduce(da, db, axis=1), repeat), 4)
    anchors["host us per call"] = round(per_call_us(lambda: npgpu.matmul_reduce(da, db), calls=200), 1)
    cp = optional("cupy")
    if cp is not None:
        ca, cb = cp.asarray(da), cp.asarray(db)
        sync = cp.cuda.Device().synchronize
        anchors["CuPy (A@B).sum(0) ms"] = round(anchor_time_ms(lambda: (ca @ cb).sum(axis=0), sync,
                                                               max(3, repeat // 4)), 3)
        anchors["CuPy A.sum(0)@B ms"] = round(anchor_time_ms(lambda: ca.sum(axis=0) @ cb, sync, repeat), 4)
    return [Result("matmul_reduce 10000x5000 @ 5000x7000 float32 (device)", ms, "ms", target=0.15,
                   higher_is_better=False, anchors=anchors,
                   note=f"{(a.nbytes + b.nbytes) / ms / 1e6:.0f} GB/s read")]


def bench_matmul_reduce_numpy(repeat):
    a, b, ref = _page_data()
    got = npgpu.matmul_reduce(a, b)
    err = _rel_err(got, ref)
    if err > 1e-5:
        raise AssertionError(f"matmul_reduce (NumPy inputs): relative error {err:.3g} > 1e-5")
    ms = host_time_ms(lambda: npgpu.matmul_reduce(a, b), max(3, repeat // 4))
    anchors = {"rel err": f"{err:.2g}"}
    with npgpu.use_backend("cpu"):
        anchors["npgpu host backend ms"] = round(host_time_ms(lambda: npgpu.matmul_reduce(a, b), 3, warmup=1), 1)
    anchors["NumPy (A@B).sum(0) ms"] = round(host_time_ms(lambda: (a @ b).sum(axis=0), 2, warmup=0), 1)
    pa, pb = npgpu.empty_pinned(a.shape, a.dtype), npgpu.empty_pinned(b.shape, b.dtype)
    pa[...] = a
    pb[...] = b
    anchors["npgpu pinned inputs ms"] = round(host_time_ms(lambda: npgpu.matmul_reduce(pa, pb), max(3, repeat // 4)), 2)
    return [Result("matmul_reduce reference page, NumPy in/out (transfers)", ms, "ms", higher_is_better=False,
                   anchors=anchors)]


BENCHMARKS = {
    "matmul_f32": bench_matmul_f32,
    "matmul_tf32": bench_matmul_tf32,
    "matmul_f16": bench_matmul_f16,
    "matmul_reduce": bench_matmul_reduce_device,
    "matmul_reduce_numpy": bench_matmul_reduce_numpy,
}
