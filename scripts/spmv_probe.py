"""Probe: where cg's time per iteration goes on the 5-point Laplacian of a 4096^2 grid (float32 CSR), and
whether a hand-written SpMV (run-time compiled variants) beats cuSPARSE's there. Run on a GPU machine:
    python3 scripts/spmv_probe.py
Prints milliseconds (medians of CUDA-event timings) and GB/s against the bytes of one SpMV."""
import sys

import numpy as np

import npgpu
import npgpu.sparse as ns
from npgpu import _krylov
from npgpu.sparse import linalg as nl

sys.path.insert(0, ".")
from benchmarks._harness import gpu_time_ms, host_time_ms  # noqa: E402
from benchmarks.bench_sparse import _laplacian  # noqa: E402

SRC = r"""
#define FULL 0xffffffffu
extern "C" __global__ void scalar(const int* __restrict__ ip, const int* __restrict__ ix,
                                  const float* __restrict__ v, const float* __restrict__ x,
                                  float* __restrict__ y, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n) return;
  float s = 0.f;
  for (int k = ip[row], e = ip[row + 1]; k < e; ++k) s = fmaf(v[k], __ldg(x + ix[k]), s);
  y[row] = s;
}
template <int L>
__device__ void vec_impl(const int* __restrict__ ip, const int* __restrict__ ix, const float* __restrict__ v,
                         const float* __restrict__ x, float* __restrict__ y, int n) {
  long t = blockIdx.x * (long)blockDim.x + threadIdx.x;
  int row = (int)(t / L), lane = (int)(t % L);
  float s = 0.f;
  if (row < n)
    for (int k = ip[row] + lane, e = ip[row + 1]; k < e; k += L) s = fmaf(v[k], __ldg(x + ix[k]), s);
  for (int off = L / 2; off; off /= 2) s += __shfl_down_sync(FULL, s, off, L);
  if (lane == 0 && row < n) y[row] = s;
}
extern "C" __global__ void vec2(const int* ip, const int* ix, const float* v, const float* x, float* y, int n) {
  vec_impl<2>(ip, ix, v, x, y, n);
}
extern "C" __global__ void vec4(const int* ip, const int* ix, const float* v, const float* x, float* y, int n) {
  vec_impl<4>(ip, ix, v, x, y, n);
}
// a warp takes 32 rows; their nonzeros (at most 32 * 8 here) are multiplied by coalesced lanes into shared
// memory, then each lane sums its row
extern "C" __global__ void __launch_bounds__(256) stream(const int* __restrict__ ip, const int* __restrict__ ix,
    const float* __restrict__ v, const float* __restrict__ x, float* __restrict__ y, int n) {
  __shared__ float prod[8][32 * 8];
  const int w = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int row0 = (blockIdx.x * 8 + w) * 32;
  if (row0 >= n) return;
  const int row = row0 + lane;
  const int last = min(31, n - 1 - row0);
  const int b = row <= row0 + last ? ip[row] : 0, e = row <= row0 + last ? ip[row + 1] : 0;
  const int wb = __shfl_sync(FULL, b, 0), we = __shfl_sync(FULL, e, last);
  if (we - wb <= 32 * 8) {
    for (int k = wb + lane; k < we; k += 32) prod[w][k - wb] = v[k] * __ldg(x + ix[k]);
    __syncwarp();
    float s = 0.f;
    for (int k = b; k < e; ++k) s += prod[w][k - wb];
    if (row <= row0 + last) y[row] = s;
  } else if (row <= row0 + last) {
    float s = 0.f;
    for (int k = b; k < e; ++k) s = fmaf(v[k], __ldg(x + ix[k]), s);
    y[row] = s;
  }
}
// scalar SpMV that also leaves p^H q partial sums per block (the fused dot of a cg step)
extern "C" __global__ void __launch_bounds__(256) scalar_dot(const int* __restrict__ ip,
    const int* __restrict__ ix, const float* __restrict__ v, const float* __restrict__ x,
    float* __restrict__ y, int n, double* __restrict__ part) {
  __shared__ double ws[8];
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  double d = 0.0;
  if (row < n) {
    float s = 0.f;
    for (int k = ip[row], e = ip[row + 1]; k < e; ++k) s = fmaf(v[k], __ldg(x + ix[k]), s);
    y[row] = s;
    d = (double)s * x[row];
  }
  for (int off = 16; off; off /= 2) d += __shfl_down_sync(FULL, d, off);
  if ((threadIdx.x & 31) == 0) ws[threadIdx.x >> 5] = d;
  __syncthreads();
  if (threadIdx.x == 0) {
    double t = 0;
    for (int i = 0; i < 8; ++i) t += ws[i];
    part[blockIdx.x] = t;
  }
}
"""


def main():
    k = 4096
    S = _laplacian(k)
    n = S.shape[0]
    A = ns.csr_matrix(S)
    rng = np.random.default_rng(0)
    x = npgpu.asarray(rng.standard_normal(n, dtype=np.float32))
    nbytes = S.nnz * 8 + (n + 1) * 4 + 8 * n
    ref = (A @ x).get()
    ms = gpu_time_ms(lambda: A @ x, 30)
    print(f"cuSPARSE SpMV: {ms:.4f} ms = {nbytes / ms / 1e6:.0f} GB/s")
    mod = npgpu.SourceModule(SRC)
    ip, ix, v = A.indptr, A.indices, A.data
    y = npgpu.empty(n, dtype=np.float32)
    part = npgpu.empty((n + 255) // 256, dtype=np.float64)
    ni = np.int32(n)
    variants = {
        "scalar": (lambda f: f(ip, ix, v, x, y, ni, grid=(n + 255) // 256, block=256)),
        "vec2": (lambda f: f(ip, ix, v, x, y, ni, grid=(2 * n + 255) // 256, block=256)),
        "vec4": (lambda f: f(ip, ix, v, x, y, ni, grid=(4 * n + 255) // 256, block=256)),
        "stream": (lambda f: f(ip, ix, v, x, y, ni, grid=(n + 255) // 256, block=256)),
        "scalar_dot": (lambda f: f(ip, ix, v, x, y, ni, part, grid=(n + 255) // 256, block=256)),
    }
    for name, launch in variants.items():
        f = mod.get_function(name)
        y[...] = np.nan  # poisoned: a row the kernel skips shows
        launch(f)
        err = float(np.abs(y.get() - ref).max())
        ms = gpu_time_ms(lambda: launch(f), 30)
        print(f"{name}: {ms:.4f} ms = {nbytes / ms / 1e6:.0f} GB/s (max diff from cuSPARSE {err:.2e})")

    # cg's parts
    r, p = x.copy(), x.copy() * 0.5
    xx = npgpu.zeros(n, dtype=np.float32)
    q = A @ p
    state = npgpu.zeros(_krylov.cg_state_size(n), dtype=np.float64)
    _krylov.cg_start(r, 0.0, state)
    par = [0]

    def step():
        _krylov.cg_step(xx, r, p, q, state, par[0])
        par[0] ^= 1

    ms = gpu_time_ms(step, 30)
    print(f"cg_step (3 passes, {9 * 4 * n / 1e6:.0f} MB): {ms:.4f} ms = {9 * 4 * n / ms / 1e6:.0f} GB/s")
    b = npgpu.asarray(rng.standard_normal(n, dtype=np.float32))
    iters = 200

    def run_cg():
        nl.cg(A, b, rtol=0.0, atol=0.0, maxiter=iters)
        npgpu.synchronize()

    print(f"cg per iteration (host-timed, {iters} iterations): {host_time_ms(run_cg, 5, warmup=1) / iters:.4f} ms")
    ms = gpu_time_ms(lambda: nl.cg(A, b, rtol=0.0, atol=0.0, maxiter=iters), 5) / iters
    print(f"cg per iteration (event-timed): {ms:.4f} ms")


if __name__ == "__main__":
    main()
