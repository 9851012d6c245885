// CUDA side of the Krylov steps: a pass for p^H q, a pass updating x and r with r^H r, a pass for the new
// direction. Each pass runs krylov_layout::blocks(n) blocks over the vectors and leaves one partial sum per
// block in the state array; the next pass's blocks each add those partials in the same order before they
// start, so no pass waits for another kernel or for the host to finish a reduction.
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "common/complex.hpp"
#include "common/cuda_check.hpp"
#include "common/krylov_backends.hpp"
#include "npgpu/errors.hpp"

namespace npgpu::cuda {
namespace {

using detail::Complex;
constexpr int kThreads = krylov_layout::kThreads;
constexpr int kUnroll = 4;  // loads in flight per thread before the first is used

template <class T>
struct Wide {
  using type = double;
};
template <class R>
struct Wide<Complex<R>> {
  using type = Complex<double>;
};

template <class T>
__device__ __forceinline__ double conj_mul(T a, T b) {
  return double(a) * double(b);
}
template <class R>
__device__ __forceinline__ Complex<double> conj_mul(Complex<R> a, Complex<R> b) {
  return {double(a.re) * b.re + double(a.im) * b.im, double(a.re) * b.im - double(a.im) * b.re};
}
template <class T>
__device__ __forceinline__ double abs2(T a) {
  return double(a) * double(a);
}
template <class R>
__device__ __forceinline__ double abs2(Complex<R> a) {
  return double(a.re) * a.re + double(a.im) * a.im;
}
__device__ __forceinline__ double real_part(double v) { return v; }
__device__ __forceinline__ double real_part(Complex<double> v) { return v.re; }
__device__ __forceinline__ double imag_part(double) { return 0.0; }
__device__ __forceinline__ double imag_part(Complex<double> v) { return v.im; }
// b v for a real b, in v's precision
template <class T>
__device__ __forceinline__ T scale(double b, T v) {
  return T(b) * v;
}
template <class R>
__device__ __forceinline__ Complex<R> scale(double b, Complex<R> v) {
  return {R(b) * v.re, R(b) * v.im};
}

// Sums `v` over the block, the same order every time; the result is valid in thread 0.
template <int N>
__device__ void block_sum(double (&v)[N]) {
  __shared__ double warp_sums[N][kThreads / 32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
#pragma unroll
  for (int k = 0; k < N; ++k) {
    for (int off = 16; off > 0; off /= 2) v[k] += __shfl_down_sync(0xffffffffu, v[k], off);
    if (lane == 0) warp_sums[k][warp] = v[k];
  }
  __syncthreads();
  if (warp == 0) {
#pragma unroll
    for (int k = 0; k < N; ++k) {
      v[k] = lane < kThreads / 32 ? warp_sums[k][lane] : 0.0;
      for (int off = 16; off > 0; off /= 2) v[k] += __shfl_down_sync(0xffffffffu, v[k], off);
    }
  }
  __syncthreads();  // warp_sums free for the caller's next block_sum
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

unsigned grid(std::int64_t n) { return static_cast<unsigned>(krylov_layout::blocks(n)); }

}  // namespace

void cg_start(const ArrayView& r, double tol2, const ArrayView& state, StreamHandle stream) {
  auto s = static_cast<cudaStream_t>(stream);
  const std::int64_t n = r.shape[0];
  auto* st = static_cast<double*>(state.data);
  krylov_layout::dispatch_vector(r.dtype, [&](auto tag) {
    using T = decltype(tag);
    const auto* v = static_cast<const T*>(r.data);
    dot_pass<T><<<grid(n), kThreads, 0, s>>>(v, v, n, st + krylov_layout::kProductPartials);
  });
  NPGPU_CHECK_LAUNCH("cg_start");
  start_pass<<<1, kThreads, 0, s>>>(st, static_cast<int>(grid(n)), tol2);
  NPGPU_CHECK_LAUNCH("cg_start");
}

void cg_step(const ArrayView& x, const ArrayView& r, const ArrayView& p, const ArrayView& q, const ArrayView& state,
             int parity, StreamHandle stream) {
  auto s = static_cast<cudaStream_t>(stream);
  const std::int64_t n = r.shape[0];
  auto* st = static_cast<double*>(state.data);
  krylov_layout::dispatch_vector(r.dtype, [&](auto tag) {
    using T = decltype(tag);
    auto* vx = static_cast<T*>(x.data);
    auto* vr = static_cast<T*>(r.data);
    auto* vp = static_cast<T*>(p.data);
    const auto* vq = static_cast<const T*>(q.data);
    dot_pass<T><<<grid(n), kThreads, 0, s>>>(vp, vq, n, st + krylov_layout::kProductPartials);
    NPGPU_CHECK_LAUNCH("cg_step");
    double* norms = st + krylov_layout::norm_partials(n);
    update_pass<T><<<grid(n), kThreads, 0, s>>>(vx, vr, vp, vq, n, st, parity, norms);
    NPGPU_CHECK_LAUNCH("cg_step");
    direction_pass<T><<<grid(n), kThreads, 0, s>>>(vr, vp, n, st, parity, norms);
    NPGPU_CHECK_LAUNCH("cg_step");
  });
}

}  // namespace npgpu::cuda
