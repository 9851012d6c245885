"""SpMV / SpMM on the 2-D 5-point Laplacian (issue 21's test matrix) with npgpu (cuSPARSE) and CuPy when
installed: device ms and GB/s (values + column indices + row pointers + x once + y).
Needs only NumPy: the matrix is built here, not with SciPy.
    python scripts/spmv_probe.py [grid]   (default 4096: 16.8M rows, 84M nonzeros)"""
import sys

import numpy as np

import npgpu
from npgpu import _sparse

sys.path.insert(0, __file__.rsplit("/scripts/", 1)[0])
from benchmarks._harness import anchor_time_ms, gpu_time_ms, optional  # noqa: E402


def laplacian_csr(g, dtype=np.float32):
    """CSR arrays of the 5-point Laplacian on a g x g grid (Dirichlet), rows in grid order, sorted columns."""
    n = g * g
    r = np.arange(n, dtype=np.int64)
    i, j = r // g, r % g
    cols = np.stack([r - g, r - 1, r, r + 1, r + g], axis=1)
    vals = np.stack([-np.ones(n), -np.ones(n), 4 * np.ones(n), -np.ones(n), -np.ones(n)], axis=1)
    keep = np.stack([i > 0, j > 0, np.ones(n, bool), j < g - 1, i < g - 1], axis=1)
    indptr = np.concatenate([[0], np.cumsum(keep.sum(axis=1))]).astype(np.int32)
    return indptr, cols[keep].astype(np.int32), vals[keep].astype(dtype), n


def main(g=4096):
    indptr, indices, data, n = laplacian_csr(g)
    nnz = data.size
    x = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    args = [npgpu.asarray(v) for v in (indptr, indices, data)]
    dx = npgpu.asarray(x)
    xs = x.reshape(g, g)
    want = 4 * xs
    want[1:] -= xs[:-1]
    want[:-1] -= xs[1:]
    want[:, 1:] -= xs[:, :-1]
    want[:, :-1] -= xs[:, 1:]
    nbytes = data.nbytes + indices.nbytes + indptr.nbytes + 2 * x.nbytes
    print(f"grid {g}: {n} rows, {nnz} nonzeros, {nbytes / 1e6:.0f} MB per SpMV")
    y = _sparse.csr_matmul(*args, n, dx)
    err = np.abs(y.get().reshape(g, g) - want).max()
    ms = gpu_time_ms(lambda: _sparse.csr_matmul(*args, n, dx), 20)
    print(f"SpMV npgpu: {ms:.4f} ms, {nbytes / ms / 1e6:.0f} GB/s (max error {err:.1e})")
    X = np.random.default_rng(1).standard_normal((n, 16)).astype(np.float32)
    dX = npgpu.asarray(X)
    ms = gpu_time_ms(lambda: _sparse.csr_matmul(*args, n, dX), 10)
    print(f"SpMM 16 columns npgpu (cuSPARSE): {ms:.3f} ms")
    cp = optional("cupy")
    if cp is not None:
        import cupyx.scipy.sparse as cps
        a = cps.csr_matrix((cp.asarray(data), cp.asarray(indices), cp.asarray(indptr)), shape=(n, n))
        cx, cX = cp.asarray(x), cp.asarray(X)
        sync = cp.cuda.Device().synchronize
        ms = anchor_time_ms(lambda: a @ cx, sync, 20)
        print(f"SpMV CuPy: {ms:.4f} ms, {nbytes / ms / 1e6:.0f} GB/s")
        ms = anchor_time_ms(lambda: a @ cX, sync, 10)
        print(f"SpMM 16 columns CuPy: {ms:.3f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 4096)
