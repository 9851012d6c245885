#pragma once
// Internal: y = A x for a CSR matrix of short rows, one thread per row over a fixed grid, each row summed in
// its nonzeros' order (as the host backend and SciPy); for cg it can also leave each block's partial sum of
// x^H y. Also the fixed-order block sums and float64 products it shares with the Krylov passes (krylov.cu).
// On rows this short cuSPARSE's CSR_ALG1 is slower (docs/performance-notes.md); longer rows go to cuSPARSE,
// whose load balancing they need.
#include <cuda_runtime.h>

#include <cstdint>

#include "common/complex.hpp"
#include "common/krylov_backends.hpp"

namespace npgpu::cuda {
namespace csr_rows_detail {

using detail::Complex;
constexpr int kThreads = krylov_layout::kThreads;
constexpr std::int64_t kShortRow = 16;

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

template <class T>
__device__ __forceinline__ T mul_add(T a, T b, T acc) {
  return fma(a, b, acc);
}
template <class R>
__device__ __forceinline__ Complex<R> mul_add(Complex<R> a, Complex<R> b, Complex<R> acc) {
  return acc + a * b;
}

// x's entries through the read-only data cache (gathered, often read by several rows)
template <class T>
__device__ __forceinline__ T read_only(const T* p) {
  return __ldg(p);
}
template <class R>
__device__ __forceinline__ Complex<R> read_only(const Complex<R>* p) {
  return *p;
}

// y = A x, rows row, row + stride, ... per thread; with Dot, partials[2 b], [2 b + 1] = block b's share of
// x^H y (A square).
template <class I, class T, bool Dot>
__global__ void __launch_bounds__(kThreads)
    csr_rows(const I* __restrict__ indptr, const I* __restrict__ indices, const T* __restrict__ data,
             const T* __restrict__ x, T* __restrict__ y, std::int64_t rows, double* __restrict__ partials) {
  typename Wide<T>::type acc(0);
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * kThreads;
  for (std::int64_t row = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x; row < rows; row += stride) {
    T sum(0);
    for (std::int64_t k = indptr[row], end = indptr[row + 1]; k < end; ++k)
      sum = mul_add(data[k], read_only(x + indices[k]), sum);
    y[row] = sum;
    if constexpr (Dot) acc = acc + conj_mul(x[row], sum);
  }
  if constexpr (Dot) {
    double v[2] = {real_part(acc), imag_part(acc)};
    block_sum(v);
    if (threadIdx.x == 0) partials[2 * blockIdx.x] = v[0], partials[2 * blockIdx.x + 1] = v[1];
  }
}

}  // namespace csr_rows_detail
}  // namespace npgpu::cuda
