"""Sparse matrices (issue 21) on the 2-D 5-point Laplacian of a 4096 x 4096 grid (16.8M rows, 84M nonzeros),
float32 CSR: SpMV against memory bandwidth, SpMM with 16 dense columns, cg's time per iteration, the upload of a
SciPy matrix, and the host backend's SpMV against SciPy's; SpGEMM (A @ A) on a 2048 x 2048 grid's Laplacian;
CuPy (cupyx.scipy.sparse) measured in the same run."""
import numpy as np

import npgpu

from ._harness import Result, anchor_time_ms, gpu_time_ms, host_time_ms, optional

GRID = 4096


def _laplacian(k, dtype=np.float32):
    """The 5-point Laplacian of a k x k grid as a canonical SciPy CSR matrix, built directly (column indices
    sorted in each row: -k, -1, 0, +1, +k)."""
    import scipy.sparse as sp

    n = k * k
    idx = np.arange(n, dtype=np.int64)
    r, c = idx // k, idx % k
    cols = np.stack([idx - k, idx - 1, idx, idx + 1, idx + k], axis=1)
    valid = np.stack([r > 0, c > 0, np.ones(n, bool), c < k - 1, r < k - 1], axis=1)
    vals = np.array([-1, -1, 4, -1, -1], dtype=dtype)
    data = np.broadcast_to(vals, (n, 5))[valid]
    indices = cols[valid].astype(np.int32)
    indptr = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(valid.sum(axis=1), out=indptr[1:])
    m = sp.csr_matrix((data, indices, indptr), shape=(n, n))
    m.has_canonical_format = True
    return m


def _check(name, got, want, rtol=1e-4):
    err = np.abs(got - want).max() / max(np.abs(want).max(), 1e-30)
    if not err < rtol:
        raise AssertionError(f"{name}: npgpu differs from scipy.sparse (relative error {err:.2e})")


def bench_sparse(repeat):
    import npgpu.sparse as ns
    from npgpu.sparse import linalg as nl

    res = []
    S = _laplacian(GRID)
    m, n = S.shape
    rng = np.random.default_rng(1)
    xh = rng.standard_normal(n, dtype=np.float32)
    A = ns.csr_matrix(S)
    x = npgpu.asarray(xh)
    rows = 1 << 16
    _check("SpMV", (A @ x).get()[:rows], S[:rows].astype(np.float64) @ xh.astype(np.float64))
    cp = optional("cupy")
    cpx = None
    if cp is not None:
        import cupyx.scipy.sparse as cpx
        import cupyx.scipy.sparse.linalg as cpxl
        Ac, xc = cpx.csr_matrix(S), cp.asarray(xh)

    # SpMV: values, column indices, row pointers, x once and y
    nbytes = S.nnz * (S.data.itemsize + S.indices.itemsize) + (m + 1) * S.indptr.itemsize + 4 * n + 4 * m
    ms = gpu_time_ms(lambda: A @ x, repeat)
    anchors = {}
    if cpx is not None:
        cms = anchor_time_ms(lambda: Ac @ xc, cp.cuda.Device().synchronize, repeat)
        anchors = {"CuPy GB/s": round(nbytes / cms / 1e6, 1), "CuPy ms": round(cms, 4)}
    res.append(Result(f"SpMV 5-pt Laplacian {GRID}^2 float32 CSR: GB/s (A, x once, y)", nbytes / ms / 1e6, "GB/s",
                      target=2400, anchors=dict(anchors, **{"npgpu ms": round(ms, 4)})))

    # SpMM with 16 dense columns
    Xh = rng.standard_normal((n, 16), dtype=np.float32)
    X = npgpu.asarray(Xh)
    _check("SpMM", (A @ X).get()[:rows], S[:rows].astype(np.float64) @ Xh.astype(np.float64))
    ms = gpu_time_ms(lambda: A @ X, repeat)
    anchors = {}
    if cpx is not None:
        Xc = cp.asarray(Xh)
        anchors["CuPy ms"] = round(anchor_time_ms(lambda: Ac @ Xc, cp.cuda.Device().synchronize, repeat), 4)
    res.append(Result(f"SpMM 5-pt Laplacian {GRID}^2 float32 x 16 columns", ms, "ms", target=3.5,
                      higher_is_better=False, anchors=anchors))

    # cg, 200 iterations (tolerance 0: never converges, so exactly 200 run)
    b = npgpu.asarray(rng.standard_normal(n, dtype=np.float32))
    iters = 200

    def run_cg():
        nl.cg(A, b, rtol=0.0, atol=0.0, maxiter=iters)
        npgpu.synchronize()

    ms = host_time_ms(run_cg, max(3, repeat // 5), warmup=1) / iters
    anchors = {}
    if cpx is not None:
        bc = cp.asarray(b.get())

        def run_cp():
            cpxl.cg(Ac, bc, atol=0.0, maxiter=iters, **{("tol" if _cupy_old_cg() else "rtol"): 0.0})
            cp.cuda.Device().synchronize()

        try:
            anchors["CuPy ms/iter"] = round(host_time_ms(run_cp, max(3, repeat // 5), warmup=1) / iters, 4)
        except TypeError:
            pass
    res.append(Result(f"cg on 5-pt Laplacian {GRID}^2 float32, {iters} iterations: ms per iteration", ms, "ms",
                      target=0.55, higher_is_better=False, anchors=anchors))

    # SpGEMM: A @ A of a 2048^2 grid's Laplacian (4.2M rows, 21M nonzeros in, 55M out), the size read back
    S2 = _laplacian(GRID // 2)
    A2 = ns.csr_matrix(S2)
    C2 = A2 @ A2
    want = S2[:rows].astype(np.float64) @ S2.astype(np.float64)
    if C2.nnz != (S2 @ S2).nnz:
        raise AssertionError(f"SpGEMM: {C2.nnz} entries, SciPy {(S2 @ S2).nnz}")
    err = abs(C2[:rows].get() - want).max() / abs(want).max()
    if not err < 1e-4:
        raise AssertionError(f"SpGEMM: npgpu differs from scipy.sparse (relative error {err:.2e})")

    def run_spgemm():
        A2 @ A2
        npgpu.synchronize()

    ms = host_time_ms(run_spgemm, max(3, repeat // 5), warmup=1)
    target, anchors = None, {}
    if cpx is not None:
        A2c = cpx.csr_matrix(S2)

        def run_cp_spgemm():
            A2c @ A2c
            cp.cuda.Device().synchronize()

        target = round(host_time_ms(run_cp_spgemm, max(3, repeat // 5), warmup=1), 3)
        anchors["CuPy ms"] = target
    res.append(Result(f"SpGEMM A @ A, 5-pt Laplacian {GRID // 2}^2 float32", ms, "ms", target=target,
                      higher_is_better=False, anchors=anchors, note="target: CuPy's time in this run"))
    del C2

    # upload of a canonical SciPy CSR matrix (data, indices, indptr: one copy each, never re-sorted)
    def upload():
        ns.csr_matrix(S)
        npgpu.synchronize()

    ms = host_time_ms(upload, max(3, repeat // 2))
    anchors = {}
    if cpx is not None:
        def up_cp():
            cpx.csr_matrix(S)
            cp.cuda.Device().synchronize()

        anchors["CuPy ms"] = round(host_time_ms(up_cp, max(3, repeat // 2)), 3)
    res.append(Result(f"CSR upload from SciPy ({S.nnz / 1e6:.0f}M nonzeros float32)", ms, "ms", target=20.0,
                      higher_is_better=False, anchors=anchors))

    # the host backend's SpMV against SciPy's on this CPU
    Ah = ns.csr_matrix(S, device="cpu")
    xhost = npgpu.asarray(xh, device="cpu")
    _check("host SpMV", (Ah @ xhost).get()[:rows], S[:rows].astype(np.float64) @ xh.astype(np.float64))
    r = max(3, repeat // 4)
    ms = host_time_ms(lambda: Ah @ xhost, r)
    scipy_ms = host_time_ms(lambda: S @ xh, r)
    res.append(Result(f"host-backend SpMV 5-pt Laplacian {GRID}^2 float32 (vs SciPy on this CPU)", ms, "ms",
                      target=round(scipy_ms, 3), higher_is_better=False, anchors={"SciPy ms": round(scipy_ms, 3)},
                      note="target: SciPy's time in this run"))
    return res


def _cupy_old_cg():
    """CuPy before 14 names cg's relative tolerance `tol` (and has no `rtol`)."""
    import inspect

    import cupyx.scipy.sparse.linalg as cpxl

    return "rtol" not in inspect.signature(cpxl.cg).parameters


BENCHMARKS = {"sparse": bench_sparse}
