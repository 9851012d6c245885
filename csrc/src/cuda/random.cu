// CUDA backend of the random family. Fills: each thread turns one Philox block into K = 16 / sizeof(T)
// (at most 4) consecutive values and stores them with one vector store. monte_carlo_pi: each thread runs
// Philox calls j = tid, tid + stride, ... (grid sized to fill every SM once), tests their points in
// registers (4 points a call, see common/philox.hpp); each block's 64-bit sum is written once and the
// host adds the blocks' sums. No array of points is ever stored.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>

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

// ---------------------------------------------------------------------------------------- monte_carlo_pi
//
// The hot path decides each point's 2^-16 cell with t = fma(x, x, fma(y, y, -T)) in float32 (x, y the
// cell's integer coordinates kx, ky, exact in float): two roundings, each at most half an ulp of a value
// below 2^33, so |t - (kx^2 + ky^2 - T)| <= 2^7 + 2^8 = 384. With T = 2^32 - 2^19:
//   t < 0  -> kx^2 + ky^2 <= T + 383, so (kx + 1)^2 + (ky + 1)^2 <= T + 383 + 2 (kx + ky) + 2 < 2^32
//             (kx + ky <= sqrt(2^33)): every point of the cell is inside;
//   t >= W -> kx^2 + ky^2 >= T + W - 384 >= 2^32 (W = 2^19 + 2^10): every point is outside (its lowest
//             corner is on or beyond the circle, and the points sit half a 48-bit step above it);
//   else   -> the point is decided exactly by pi_fine_inside (about 1 point in 10^4).
// Every decision is exact, so the count equals the host backend's (whose float test differs) bit for bit.
// A hit is t's sign bit; "in the band" is one unsigned compare of t's bits (negative t has the sign bit
// set, so it compares above W's bits).
constexpr float kPiT = 4294443008.0f;              // 2^32 - 2^19
constexpr float kPiW = 525312.0f;                  // 2^19 + 2^10
constexpr std::uint32_t kPiWBits = 0x49004000u;    // bits of kPiW
static_assert(kPiW == 524288.0f + 1024.0f, "W");

// The cell's coordinates of word w as floats: y = w >> 16, x = w & 0xFFFF. Two variants: byte permutes
// (integer pipe), or a shift-add and a multiply-add: Yb = (w >> 16) + 0x4B00B500 is the float
// 2^23 + 0xB500 + ky, and w - Yb * 2^16 = kx + 0x4B000000 (mod 2^32) is the float 2^23 + kx. (A
// multiply-high form measured slower on an H100: the multiply pipe, busy with Philox, is the limit.)
template <int Conv>
__device__ __forceinline__ void pi_cell(std::uint32_t w, float& x, float& y) {
  if constexpr (Conv == 0) {
    x = __uint_as_float(__byte_perm(w, 0x4B000000u, 0x7610)) - 8388608.0f;
    y = __uint_as_float(__byte_perm(w, 0x4B000000u, 0x7632)) - 8388608.0f;
  } else {
    std::uint32_t yb, xb;
    asm("mad.hi.u32 %0, %1, 65536, 1258337536;" : "=r"(yb) : "r"(w));  // 0x4B00B500
    asm("mad.lo.u32 %0, %1, -65536, %2;" : "=r"(xb) : "r"(yb), "r"(w));
    x = __fadd_rn(__uint_as_float(xb), -8388608.0f);
    y = __fadd_rn(__uint_as_float(yb), -8434944.0f);  // 2^23 + 0xB500
  }
}

template <int Conv>
__device__ __forceinline__ float pi_t(std::uint32_t w) {
  float x, y;
  pi_cell<Conv>(w, x, y);
  return __fmaf_rn(x, x, __fmaf_rn(y, y, -kPiT));
}

// The points of call j (words w) whose t fell in the band, decided exactly: their hits (kept out of line so
// the hot loop stays small).
template <int Conv>
__device__ __noinline__ std::uint32_t pi_band_hits(std::uint64_t key, std::uint64_t j, std::uint32_t w0,
                                                   std::uint32_t w1, std::uint32_t w2, std::uint32_t w3) {
  const std::uint32_t w[4] = {w0, w1, w2, w3};
  std::uint32_t hits = 0;
  for (int p = 0; p < 4; ++p) {
    if (__float_as_uint(pi_t<Conv>(w[p])) < kPiWBits)
      hits += detail::pi_fine_inside(key, 4 * j + static_cast<std::uint64_t>(p), w[p] & 0xFFFFu, w[p] >> 16);
  }
  return hits;
}

// Points of monte_carlo_pi: the count of the whole launch is added into scratch[0]; the last block to finish
// (ticket scratch[1]) writes it to *result (mapped host memory) and zeroes the scratch for the next launch.
template <int Conv, int U>
__global__ void __launch_bounds__(kThreads) pi_kernel(std::uint64_t calls, const detail::PhiloxRoundKeys rk,
                                                      std::uint64_t key, int rem,
                                                      unsigned long long* __restrict__ scratch,
                                                      unsigned long long* __restrict__ result) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  const std::uint64_t tid = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  unsigned long long mine = 0;
  std::uint64_t j = tid;
  while (j < calls) {
    // At most 2^20 calls counted in 32 bits at a time (4 * 2^20 hits cannot overflow).
    const std::uint64_t left = (calls - j + stride - 1) / stride;
    const std::uint32_t iters = static_cast<std::uint32_t>(std::min<std::uint64_t>(left, 1u << 20));
    std::uint32_t c = 0;
    std::uint32_t k = 0;
    for (; k + U <= iters; k += U, j += U * stride) {
      detail::Philox4 w[U];
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const std::uint64_t ju = j + u * stride;
        w[u] = detail::philox4x32_10_rk(static_cast<std::uint32_t>(ju), static_cast<std::uint32_t>(ju >> 32), 0,
                                        detail::kDomainPi, rk);
      }
      bool band = false;
#pragma unroll
      for (int u = 0; u < U; ++u) {
#pragma unroll
        for (int p = 0; p < 4; ++p) {
          const std::uint32_t tb = __float_as_uint(pi_t<Conv>(w[u].v[p]));
          c += tb >> 31;
          band |= tb < kPiWBits;
        }
      }
      if (band) {
#pragma unroll
        for (int u = 0; u < U; ++u)
          c += pi_band_hits<Conv>(key, j + u * stride, w[u].v[0], w[u].v[1], w[u].v[2], w[u].v[3]);
      }
    }
    for (; k < iters; ++k, j += stride) {
      const detail::Philox4 w = detail::philox4x32_10_rk(static_cast<std::uint32_t>(j),
                                                         static_cast<std::uint32_t>(j >> 32), 0, detail::kDomainPi, rk);
      bool band = false;
#pragma unroll
      for (int p = 0; p < 4; ++p) {
        const std::uint32_t tb = __float_as_uint(pi_t<Conv>(w.v[p]));
        c += tb >> 31;
        band |= tb < kPiWBits;
      }
      if (band) c += pi_band_hits<Conv>(key, j, w.v[0], w.v[1], w.v[2], w.v[3]);
    }
    mine += c;
  }
  if (tid == 0 && rem > 0) mine += detail::pi_hits_exact(key, calls, rem);
  const unsigned long long s = block_sum(mine);
  if (threadIdx.x == 0) {
    atomicAdd(&scratch[0], s);
    __threadfence();
    const unsigned long long ticket = atomicAdd(&scratch[1], 1ull);
    if (ticket == gridDim.x - 1) {
      __threadfence();
      const unsigned long long total = atomicAdd(&scratch[0], 0ull);
      *reinterpret_cast<volatile unsigned long long*>(result) = total;
      scratch[0] = 0;
      scratch[1] = 0;
    }
  }
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

// Per host thread and device: 2 words of device scratch (zero between launches) and one word of mapped
// pinned host memory the kernel writes the count to. Each call synchronises before it returns, so one
// thread's calls never overlap; other threads have their own. Never freed (a few bytes per thread/device).
struct PiCache {
  unsigned long long* scratch = nullptr;
  unsigned long long* result_host = nullptr;
  unsigned long long* result_dev = nullptr;
};

PiCache& pi_cache(int dev) {
  static thread_local PiCache caches[64];
  if (dev < 0 || dev >= 64) throw InvalidArgument("monte_carlo_pi: device ordinal out of range");
  PiCache& c = caches[dev];
  if (c.scratch == nullptr) {
    void* d = nullptr;
    void* h = nullptr;
    void* hd = nullptr;
    NPGPU_CUDA_TRY(cudaMalloc(&d, 2 * sizeof(unsigned long long)));
    NPGPU_CUDA_TRY(cudaMemset(d, 0, 2 * sizeof(unsigned long long)));
    NPGPU_CUDA_TRY(cudaHostAlloc(&h, sizeof(unsigned long long), cudaHostAllocMapped | cudaHostAllocPortable));
    NPGPU_CUDA_TRY(cudaHostGetDevicePointer(&hd, h, 0));
    NPGPU_CUDA_TRY(cudaDeviceSynchronize());
    c.scratch = static_cast<unsigned long long*>(d);
    c.result_host = static_cast<unsigned long long*>(h);
    c.result_dev = static_cast<unsigned long long*>(hd);
  }
  return c;
}

// Kernel variant (env NPGPU_PI_VARIANT: 0 byte permutes, 1 shift + IMAD) and grid multiple (NPGPU_PI_GRID),
// read once: for tuning on a device; the count does not depend on them.
int env_int(const char* name, int dflt) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoi(v) : dflt;
}

template <int Conv, int U>
std::uint64_t pi_launch(std::uint64_t calls, int rem, std::uint64_t seed, int dev, cudaStream_t s) {
  auto kernel = pi_kernel<Conv, U>;
  static thread_local int cached_device = -1;
  static thread_local std::int64_t cached_blocks = 0;
  if (dev != cached_device) {
    cached_blocks = resident_blocks(kernel) * std::max(1, env_int("NPGPU_PI_GRID", 1));
    cached_device = dev;
  }
  const std::int64_t blocks = std::min<std::int64_t>(
      cached_blocks, std::max<std::int64_t>(static_cast<std::int64_t>((calls + kThreads - 1) / kThreads), 1));
  PiCache& c = pi_cache(dev);
  kernel<<<static_cast<unsigned>(blocks), kThreads, 0, s>>>(calls, detail::philox_round_keys(seed), seed, rem,
                                                            c.scratch, c.result_dev);
  NPGPU_CHECK_LAUNCH("monte_carlo_pi");
  NPGPU_CUDA_TRY(cudaStreamSynchronize(s));
  return *static_cast<volatile unsigned long long*>(c.result_host);
}

std::uint64_t pi_hits_cuda(std::int64_t n, std::uint64_t seed, cudaStream_t s) {
  const std::uint64_t calls = static_cast<std::uint64_t>(n / 4);
  const int rem = static_cast<int>(n % 4);
  int dev = 0;
  NPGPU_CUDA_TRY(cudaGetDevice(&dev));
  static const int variant = env_int("NPGPU_PI_VARIANT", 1);
  switch (variant) {
    case 0: return pi_launch<0, 2>(calls, rem, seed, dev, s);
    default: return pi_launch<1, 2>(calls, rem, seed, dev, s);  // fastest on an H100 (IMAD pipe is the limit)
  }
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
