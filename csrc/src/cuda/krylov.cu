// CUDA side of the Krylov steps: a pass for p^H q, a pass updating x and r with r^H r, a pass for the new
// direction. Each pass runs the same grid (grid<T> below) over the vectors and leaves one partial sum per
// block in the state array; the next pass's blocks each add those partials in the same order before they
// start, so no pass waits for another kernel or for the host to finish a reduction.
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <type_traits>

#include "common/complex.hpp"
#include "common/cuda_check.hpp"
#include "common/krylov_backends.hpp"
#include "common/sparse_backends.hpp"
#include "cuda/csr_rows.cuh"
#include "npgpu/errors.hpp"
#include "npgpu/runtime.hpp"

namespace npgpu::cuda {
namespace {

using detail::Complex;
using namespace csr_rows_detail;
constexpr int kMaxDevices = 64;
constexpr int kUnroll = 4;  // loads in flight per thread before the first is used

// b v for a real b, in v's precision
template <class T>
__device__ __forceinline__ T scale(double b, T v) {
  return T(b) * v;
}
template <class R>
__device__ __forceinline__ Complex<R> scale(double b, Complex<R> v) {
  return {R(b) * v.re, R(b) * v.im};
}

// The sum of `count` partials of N values each (interleaved), in thread 0.
template <int N>
__device__ void sum_partials(const double* partials, int count, double (&v)[N]) {
#pragma unroll
  for (int k = 0; k < N; ++k) v[k] = 0.0;
  for (int i = threadIdx.x; i < count; i += kThreads)
#pragma unroll
    for (int k = 0; k < N; ++k) v[k] += partials[i * N + k];
  block_sum(v);
}

template <class T>
__global__ void __launch_bounds__(kThreads)
    dot_pass(const T* __restrict__ a, const T* __restrict__ b, std::int64_t n, double* __restrict__ out) {
  typename Wide<T>::type acc(0);
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * kThreads;
  std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  for (; i + (kUnroll - 1) * stride < n; i += kUnroll * stride) {
    T va[kUnroll], vb[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) va[u] = a[i + u * stride], vb[u] = b[i + u * stride];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) acc = acc + conj_mul(va[u], vb[u]);
  }
  for (; i < n; i += stride) acc = acc + conj_mul(a[i], b[i]);
  double v[2] = {real_part(acc), imag_part(acc)};
  block_sum(v);
  if (threadIdx.x == 0) out[2 * blockIdx.x] = v[0], out[2 * blockIdx.x + 1] = v[1];
}

// slot 0 = {rho, rho < tol2, tol2} from the partials of r^H r left by dot_pass.
__global__ void __launch_bounds__(kThreads) start_pass(double* state, int count, double tol2) {
  double v[2];
  sum_partials(state + krylov_layout::kProductPartials, count, v);
  if (threadIdx.x == 0) state[0] = v[0], state[1] = v[0] < tol2 ? 1.0 : 0.0, state[2] = tol2, state[3] = 0.0;
}

// rho / pq in the vectors' type: a real rho over p^H q (complex for complex vectors, by Smith's scaling)
template <class T>
__device__ __forceinline__ T alpha_of(double rho, double re, double im) {
  if constexpr (detail::is_complex<T>::value) {
    using R = decltype(T::re);
    if (fabs(re) >= fabs(im)) {
      const double t = im / re, d = re + im * t;
      return T(R(rho / d), R(-rho * t / d));
    }
    const double t = re / im, d = re * t + im;
    return T(R(rho * t / d), R(-rho / d));
  } else {
    return T(rho / re);
  }
}

template <class T>
__global__ void __launch_bounds__(kThreads)
    update_pass(T* __restrict__ x, T* __restrict__ r, const T* __restrict__ p, const T* __restrict__ q, std::int64_t n,
                double* __restrict__ state, int parity, double* __restrict__ norm_partials) {
  __shared__ T alpha_shared;
  double pq[2];
  sum_partials(state + krylov_layout::kProductPartials, gridDim.x, pq);
  if (threadIdx.x == 0) {
    const double* slot = state + parity * kCgSlot;
    alpha_shared = slot[1] != 0.0 ? T(0) : alpha_of<T>(slot[0], pq[0], pq[1]);
  }
  __syncthreads();
  const T alpha = alpha_shared;
  double acc = 0.0;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * kThreads;
  std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  for (; i + (kUnroll - 1) * stride < n; i += kUnroll * stride) {
    T vx[kUnroll], vr[kUnroll], vp[kUnroll], vq[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const std::int64_t j = i + u * stride;
      vx[u] = x[j], vr[u] = r[j], vp[u] = p[j], vq[u] = q[j];
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const std::int64_t j = i + u * stride;
      x[j] = vx[u] + alpha * vp[u];
      const T rj = vr[u] - alpha * vq[u];
      r[j] = rj;
      acc += abs2(rj);
    }
  }
  for (; i < n; i += stride) {
    x[i] = x[i] + alpha * p[i];
    const T rj = r[i] - alpha * q[i];
    r[i] = rj;
    acc += abs2(rj);
  }
  double v[1] = {acc};
  block_sum(v);
  if (threadIdx.x == 0) norm_partials[blockIdx.x] = v[0];
}

template <class T>
__global__ void __launch_bounds__(kThreads)
    direction_pass(const T* __restrict__ r, T* __restrict__ p, std::int64_t n, double* __restrict__ state, int parity,
                   const double* __restrict__ norm_partials) {
  __shared__ double beta_shared;
  double rr[1];
  sum_partials(norm_partials, gridDim.x, rr);
  if (threadIdx.x == 0) {
    const double* slot = state + parity * kCgSlot;
    const double tol2 = slot[2];
    const bool done = slot[1] != 0.0 || rr[0] < tol2;
    beta_shared = done ? 0.0 : rr[0] / slot[0];
    if (blockIdx.x == 0) {
      double* next = state + (1 - parity) * kCgSlot;
      next[0] = rr[0], next[1] = done ? 1.0 : 0.0, next[2] = tol2, next[3] = 0.0;
    }
  }
  __syncthreads();
  const double beta = beta_shared;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * kThreads;
  std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  for (; i + (kUnroll - 1) * stride < n; i += kUnroll * stride) {
    T vr[kUnroll], vp[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) vr[u] = r[i + u * stride], vp[u] = p[i + u * stride];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) p[i + u * stride] = vr[u] + scale(beta, vp[u]);
  }
  for (; i < n; i += stride) p[i] = r[i] + scale(beta, p[i]);
}

// Blocks of every pass over n elements of type T: at most krylov_layout::blocks(n) (the partials the state
// holds), and no more than the device holds at once, so that no pass ends in a partial second wave. The
// same for every pass (and cg_start), as their partial sums require.
template <class T>
unsigned grid(std::int64_t n) {
  static std::atomic<int> resident[kMaxDevices][4] = {};
  int dev = 0;
  NPGPU_CUDA_TRY(cudaGetDevice(&dev));
  const int kind = std::is_same_v<T, float> ? 0 : std::is_same_v<T, double> ? 1 : sizeof(T) == 8 ? 2 : 3;
  std::atomic<int>& cached = resident[dev % kMaxDevices][kind];
  int per_sm = cached.load(std::memory_order_relaxed);
  if (per_sm == 0) {
    per_sm = 1 << 20;
    auto fit = [&](auto kernel) {
      int b = 0;
      NPGPU_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, kernel, kThreads, 0));
      per_sm = std::min(per_sm, std::max(b, 1));
    };
    fit(dot_pass<T>);
    fit(update_pass<T>);
    fit(direction_pass<T>);
    fit(csr_rows<std::int32_t, T, true>);
    fit(csr_rows<std::int64_t, T, true>);
    cached.store(per_sm, std::memory_order_relaxed);
  }
  const std::int64_t all = static_cast<std::int64_t>(per_sm) * device_properties(dev).multiprocessor_count;
  return static_cast<unsigned>(std::min(krylov_layout::blocks(n), all));
}

}  // namespace

void cg_start(const ArrayView& r, double tol2, const ArrayView& state, StreamHandle stream) {
  auto s = static_cast<cudaStream_t>(stream);
  const std::int64_t n = r.shape[0];
  auto* st = static_cast<double*>(state.data);
  unsigned blocks = 1;
  krylov_layout::dispatch_vector(r.dtype, [&](auto tag) {
    using T = decltype(tag);
    const auto* v = static_cast<const T*>(r.data);
    blocks = grid<T>(n);
    dot_pass<T><<<blocks, kThreads, 0, s>>>(v, v, n, st + krylov_layout::kProductPartials);
  });
  NPGPU_CHECK_LAUNCH("cg_start");
  start_pass<<<1, kThreads, 0, s>>>(st, static_cast<int>(blocks), tol2);
  NPGPU_CHECK_LAUNCH("cg_start");
}

namespace {

// The passes after q = A p; with `product_done`, p^H q's partials are already in the state (csr_rows).
void step_passes(const ArrayView& x, const ArrayView& r, const ArrayView& p, const ArrayView& q, const ArrayView& state,
                 int parity, cudaStream_t s, bool product_done) {
  const std::int64_t n = r.shape[0];
  auto* st = static_cast<double*>(state.data);
  krylov_layout::dispatch_vector(r.dtype, [&](auto tag) {
    using T = decltype(tag);
    auto* vx = static_cast<T*>(x.data);
    auto* vr = static_cast<T*>(r.data);
    auto* vp = static_cast<T*>(p.data);
    const auto* vq = static_cast<const T*>(q.data);
    const unsigned blocks = grid<T>(n);
    if (!product_done) {
      dot_pass<T><<<blocks, kThreads, 0, s>>>(vp, vq, n, st + krylov_layout::kProductPartials);
      NPGPU_CHECK_LAUNCH("cg_step");
    }
    double* norms = st + krylov_layout::norm_partials(n);
    update_pass<T><<<blocks, kThreads, 0, s>>>(vx, vr, vp, vq, n, st, parity, norms);
    NPGPU_CHECK_LAUNCH("cg_step");
    direction_pass<T><<<blocks, kThreads, 0, s>>>(vr, vp, n, st, parity, norms);
    NPGPU_CHECK_LAUNCH("cg_step");
  });
}

}  // namespace

void cg_step(const ArrayView& x, const ArrayView& r, const ArrayView& p, const ArrayView& q, const ArrayView& state,
             int parity, StreamHandle stream) {
  step_passes(x, r, p, q, state, parity, static_cast<cudaStream_t>(stream), false);
}

void cg_step_csr(const ArrayView& indptr, const ArrayView& indices, const ArrayView& data, const ArrayView& x,
                 const ArrayView& r, const ArrayView& p, const ArrayView& q, const ArrayView& state, int parity,
                 StreamHandle stream, std::int64_t longest_row) {
  auto s = static_cast<cudaStream_t>(stream);
  const std::int64_t n = r.shape[0];
  if (longest_row < 0 || longest_row > kShortRow) {  // cuSPARSE's product, then the dot in its own pass
    csr_matmul(indptr, indices, data, n, n, 1, p, q, stream, longest_row);
    return step_passes(x, r, p, q, state, parity, s, false);
  }
  detail::dispatch_index(indptr.dtype, [&](auto itag) {
    using I = decltype(itag);
    krylov_layout::dispatch_vector(r.dtype, [&](auto vtag) {
      using T = decltype(vtag);
      csr_rows<I, T, true><<<grid<T>(n), kThreads, 0, s>>>(
          static_cast<const I*>(indptr.data), static_cast<const I*>(indices.data), static_cast<const T*>(data.data),
          static_cast<const T*>(p.data), static_cast<T*>(q.data), n,
          static_cast<double*>(state.data) + krylov_layout::kProductPartials);
    });
  });
  NPGPU_CHECK_LAUNCH("cg_step_csr");
  step_passes(x, r, p, q, state, parity, s, true);
}

}  // namespace npgpu::cuda
