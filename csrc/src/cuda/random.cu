// CUDA backend of the random family. Fills: each thread turns one Philox block into K = 16 / sizeof(T)
// (at most 4) consecutive values and stores them with one vector store. monte_carlo_pi: each thread runs
// Philox calls j = tid, tid + stride, ... (grid sized to fill every SM once), tests their points in
// registers (4 points a call, see common/philox.hpp); each block's 64-bit sum is written once and the
// host adds the blocks' sums. No array of points is ever stored.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/cuda_check.hpp"
#include "common/dispatch.hpp"
#include "common/philox.hpp"
#include "npgpu/memory.hpp"

namespace npgpu::cuda {
namespace {

constexpr int kThreads = 256;

template <class T, int N>
struct alignas(sizeof(T) * N) Vec {
  T v[N];
};

template <class T, int Mode>
__global__ void __launch_bounds__(kThreads) fill_kernel(detail::FillParams p, T* __restrict__ out, std::int64_t n,
                                                         bool vector_ok) {
  constexpr int K = detail::ValuesPerBlock<T>::value;
  const std::int64_t groups = (n + K - 1) / K;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t g = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; g < groups; g += stride) {
    Vec<T, K> v;
    detail::block_values<T, Mode>(p, static_cast<std::uint64_t>(g), v.v);
    const std::int64_t i = g * K;
    if (vector_ok && i + K <= n) {
      reinterpret_cast<Vec<T, K>*>(out)[g] = v;
    } else {
#pragma unroll
      for (int l = 0; l < K; ++l)
        if (i + l < n) out[i + l] = v.v[l];
    }
  }
}

// Sum of a 64-bit value over the block, in thread 0.
__device__ unsigned long long block_sum(unsigned long long x) {
  __shared__ unsigned long long warp_sums[kThreads / 32];
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) x += __shfl_down_sync(0xffffffffu, x, o);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_sums[warp] = x;
  __syncthreads();
  if (warp == 0) {
    x = lane < kThreads / 32 ? warp_sums[lane] : 0ull;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) x += __shfl_down_sync(0xffffffffu, x, o);
  }
  return x;
}

// The rare Philox calls with a cell straddling the circle: every point decided exactly (kept out of line so
// the hot loop stays small).
__device__ __noinline__ std::uint32_t pi_call_exact(std::uint64_t key, std::uint64_t j) {
  return detail::pi_hits_exact(key, j, 4);
}

constexpr float kPiMid = 4294706176.0f;        // (kPiInside + kPiOutside) / 2, exact
constexpr float kPiHalfWidth = 266240.0f;      // >= (kPiOutside - kPiInside) / 2 = 263168
static_assert(kPiMid - kPiHalfWidth <= detail::kPiInside && kPiMid + kPiHalfWidth >= detail::kPiOutside,
              "the straddle band must cover (kPiInside, kPiOutside)");

// Hits among the 4 points of call j: cells decided by the float test of kx^2 + ky^2, or, when one of them
// straddles the circle, all four through pi_hits_exact. A cell coordinate k (16 bits) becomes the float k
// by one byte permute (0x4B00kkkk is 2^23 + k) and one subtraction.
constexpr float kPiInsideNext = 4294443264.0f;  // the float after kPiInside: s <= kPiInside <=> s - this < 0

__device__ __forceinline__ std::uint32_t pi_call_hits(const detail::PhiloxRoundKeys& rk, std::uint64_t key,
                                                      std::uint64_t j) {
  const detail::Philox4 w = detail::philox4x32_10_rk(static_cast<std::uint32_t>(j), static_cast<std::uint32_t>(j >> 32),
                                                     0, detail::kDomainPi, rk);
  std::uint32_t hits = 0;
  bool straddle = false;
#pragma unroll
  for (int p = 0; p < 4; ++p) {
    const float x = __uint_as_float(__byte_perm(w.v[p], 0x4B000000u, 0x7610)) - 8388608.0f;
    const float y = __uint_as_float(__byte_perm(w.v[p], 0x4B000000u, 0x7632)) - 8388608.0f;
    const float s = __fmaf_rn(x, x, __fmul_rn(y, y));
    hits += __float_as_uint(__fadd_rn(s, -kPiInsideNext)) >> 31;  // the sign bit: 1 when inside
    straddle |= fabsf(s - kPiMid) < kPiHalfWidth;
  }
  return straddle ? pi_call_exact(key, j) : hits;
}

// Each block writes its count to partial[blockIdx.x] (no atomics, no zeroing); the host adds them up.
__global__ void __launch_bounds__(kThreads) pi_kernel(std::uint64_t calls, const detail::PhiloxRoundKeys rk,
                                                      std::uint64_t key, int rem,
                                                      unsigned long long* __restrict__ partial) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  const std::uint64_t tid = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  unsigned long long mine = 0;
  std::uint64_t j = tid;
  while (j < calls) {
    // At most 2^20 calls counted in 32 bits at a time (4 * 2^20 hits cannot overflow).
    const std::uint64_t left = (calls - j + stride - 1) / stride;
    const std::uint32_t iters = static_cast<std::uint32_t>(std::min<std::uint64_t>(left, 1u << 20));
    std::uint32_t c = 0;
#pragma unroll 4
    for (std::uint32_t k = 0; k < iters; ++k, j += stride) c += pi_call_hits(rk, key, j);
    mine += c;
  }
  if (tid == 0 && rem > 0) mine += detail::pi_hits_exact(key, calls, rem);
  const unsigned long long s = block_sum(mine);
  if (threadIdx.x == 0) partial[blockIdx.x] = s;
}

// Resident blocks of `kernel` per SM times the SM count of the current device.
template <class Kernel>
std::int64_t resident_blocks(Kernel kernel) {
  int dev = 0, per_sm = 0;
  NPGPU_CUDA_TRY(cudaGetDevice(&dev));
  NPGPU_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, 0));
  return static_cast<std::int64_t>(std::max(per_sm, 1)) * device_properties(dev).multiprocessor_count;
}

template <class T, int Mode>
void launch_fill(const detail::FillParams& p, const ArrayView& out, cudaStream_t s) {
  constexpr int K = detail::ValuesPerBlock<T>::value;
  const std::int64_t n = out.size();
  const std::int64_t groups = (n + K - 1) / K;
  auto kernel = fill_kernel<T, Mode>;
  static thread_local int cached_device = -1;
  static thread_local std::int64_t cached_blocks = 0;
  int dev = 0;
  NPGPU_CUDA_TRY(cudaGetDevice(&dev));
  if (dev != cached_device) {
    cached_blocks = resident_blocks(kernel);
    cached_device = dev;
  }
  // Enough blocks for every group up to 4 waves of resident blocks; beyond that threads loop.
  const std::int64_t blocks =
      std::min<std::int64_t>(std::max<std::int64_t>((groups + kThreads - 1) / kThreads, 1), 4 * cached_blocks);
  const bool vector_ok = (reinterpret_cast<std::uintptr_t>(out.data) % sizeof(Vec<T, K>)) == 0;
  kernel<<<static_cast<unsigned>(blocks), kThreads, 0, s>>>(p, static_cast<T*>(out.data), n, vector_ok);
  NPGPU_CHECK_LAUNCH("random_fill");
}

std::uint64_t pi_hits_cuda(std::int64_t n, std::uint64_t seed, cudaStream_t s) {
  const std::uint64_t calls = static_cast<std::uint64_t>(n / 4);
  const int rem = static_cast<int>(n % 4);
  static thread_local int cached_device = -1;
  static thread_local std::int64_t cached_blocks = 0;
  int dev = 0;
  NPGPU_CUDA_TRY(cudaGetDevice(&dev));
  if (dev != cached_device) {
    cached_blocks = resident_blocks(pi_kernel);
    cached_device = dev;
  }
  const std::int64_t blocks = std::min<std::int64_t>(
      cached_blocks, std::max<std::int64_t>(static_cast<std::int64_t>((calls + kThreads - 1) / kThreads), 1));
  const std::int64_t bytes = blocks * static_cast<std::int64_t>(sizeof(unsigned long long));
  DeviceBuffer partial(bytes, dev, s);
  PinnedBuffer result(bytes);
  pi_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, s>>>(calls, detail::philox_round_keys(seed), seed, rem,
                                                               static_cast<unsigned long long*>(partial.data()));
  NPGPU_CHECK_LAUNCH("monte_carlo_pi");
  NPGPU_CUDA_TRY(cudaMemcpyAsync(result.data(), partial.data(), bytes, cudaMemcpyDeviceToHost, s));
  NPGPU_CUDA_TRY(cudaStreamSynchronize(s));
  const auto* counts = static_cast<const unsigned long long*>(result.data());
  std::uint64_t total = 0;
  for (std::int64_t b = 0; b < blocks; ++b) total += counts[b];
  return total;
}

}  // namespace

void random_fill(const detail::FillParams& p, const ArrayView& out, StreamHandle stream) {
  auto s = static_cast<cudaStream_t>(stream);
  detail::dispatch_dtype(out.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_arithmetic_v<T>)
      detail::dispatch_fill_mode<T>(p, [&](auto mode) { launch_fill<T, decltype(mode)::value>(p, out, s); });
  });
}

std::uint64_t monte_carlo_pi_hits(std::int64_t n, std::uint64_t seed, StreamHandle stream) {
  return pi_hits_cuda(n, seed, static_cast<cudaStream_t>(stream));
}

}  // namespace npgpu::cuda
