// CUDA backend of the random family. Fills: each thread turns one Philox block into K = 16 / sizeof(T)
// (at most 4) consecutive values and stores them with one vector store (float32 normals: see
// ziggurat_kernel). monte_carlo_pi: each thread runs
// Philox calls j = tid, tid + stride, ... (grid sized to fill every SM once), tests their points in
// registers (8 points a call, see common/philox.hpp and cuda/pi_kernel.cuh); the blocks' 64-bit sums meet
// in one device word and the last block writes the total to pinned host memory. No array of points is ever
// stored.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <type_traits>

#include "common/cuda_check.hpp"
#include "common/dispatch.hpp"
#include "common/philox.hpp"
#include "cuda/pi_kernel.cuh"
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

// Resident blocks of `kernel` per SM times the SM count of the current device.
template <class Kernel>
std::int64_t resident_blocks(Kernel kernel) {
  int dev = 0, per_sm = 0;
  NPGPU_CUDA_TRY(cudaGetDevice(&dev));
  NPGPU_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, 0));
  return static_cast<std::int64_t>(std::max(per_sm, 1)) * device_properties(dev).multiprocessor_count;
}

__device__ const detail::ZigguratLayer kZigguratLayersDevice[256] = {NPGPU_ZIGGURAT_LAYERS};
__device__ const std::uint32_t kZigguratHeightBitsDevice[256] = {NPGPU_ZIGGURAT_HEIGHT_BITS};

constexpr int kWarps = kThreads / 32;
// Groups of 4 values each thread makes per loop iteration: the iteration's fixed cost (ballots, queue
// bookkeeping, loop test) is shared by 8 values.
constexpr int kZigguratGroupsPerThread = 2;
// Queued groups a warp holds back: fewer than 32 left over plus one iteration's 2 x 32 at most.
constexpr int kZigguratQueue = 32 * (kZigguratGroupsPerThread + 1);
// Queued values a warp holds back: fewer than 32 left over plus the 4 x 32 of one batch of groups at most.
constexpr int kZigguratValueQueue = 32 + 4 * 32;

int env_int(const char* name, int dflt) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoi(v) : dflt;
}

template <bool Standard>
__device__ float scale_normal(const detail::FillParams& p, float z) {
  if constexpr (Standard) return z;
  return static_cast<float>(detail::fp_fma(static_cast<double>(z), p.b, p.a));
}

__device__ detail::Philox4 ziggurat_words(const detail::FillParams& p, const detail::PhiloxRoundKeys& rk,
                                          std::uint64_t g) {
  const std::uint64_t block = p.block0 + g;
  return detail::philox4x32_10_rk(static_cast<std::uint32_t>(block), static_cast<std::uint32_t>(block >> 32), 0, 0,
                                  rk);
}

// The 4 values of group g by their layers' core test alone; false when one of them failed it (its value
// is then wrong, and the group is queued for ziggurat_expand).
template <bool Standard>
__device__ bool ziggurat_group(const detail::FillParams& p, const detail::PhiloxRoundKeys& rk,
                               const detail::ZigguratLayer* layers, std::uint64_t g, Vec<float, 4>* v) {
  const detail::Philox4 w = ziggurat_words(p, rk, g);
  bool core = true;
#pragma unroll
  for (int l = 0; l < 4; ++l) {
    const detail::ZigguratLayer layer = layers[w.v[l] & 0xFFu];
    float z;
    core &= detail::ziggurat_core(w.v[l], layer.width_bits, layer.core, &z);
    v->v[l] = scale_normal<Standard>(p, z);
  }
  return core;
}

// A value that failed its layer's core test: its element and word.
template <class Index>
struct ZigguratValue {
  Index element;
  std::uint32_t word;
};

// The failed values of each lane's group g (valid: lane holds one; elements below n only) appended to the
// warp's value queue at `pending`, in lane order; returns the new length. Every lane of the warp calls it.
template <class Index>
__device__ int ziggurat_expand(const detail::FillParams& p, const detail::PhiloxRoundKeys& rk,
                               const detail::ZigguratLayer* layers, Index g, bool valid, std::int64_t n,
                               ZigguratValue<Index>* values, int pending, unsigned lane) {
  detail::Philox4 w{};
  unsigned mask = 0;
  if (valid) {
    w = ziggurat_words(p, rk, g);
#pragma unroll
    for (int l = 0; l < 4; ++l) {
      const detail::ZigguratLayer layer = layers[w.v[l] & 0xFFu];
      float z;
      if (!detail::ziggurat_core(w.v[l], layer.width_bits, layer.core, &z) &&
          static_cast<std::int64_t>(4 * static_cast<std::uint64_t>(g)) + l < n)
        mask |= 1u << l;
    }
  }
  const unsigned count = __popc(mask);
  unsigned inclusive = count;  // inclusive prefix sum of the counts over the lanes
#pragma unroll
  for (unsigned d = 1; d < 32; d <<= 1) {
    const unsigned t = __shfl_up_sync(0xFFFFFFFFu, inclusive, d);
    if (lane >= d) inclusive += t;
  }
  int at = pending + static_cast<int>(inclusive - count);
#pragma unroll
  for (int l = 0; l < 4; ++l)
    if (mask & (1u << l)) values[at++] = {static_cast<Index>(4 * g + l), w.v[l]};
  return pending + static_cast<int>(__shfl_sync(0xFFFFFFFFu, inclusive, 31));
}

// A failed value from scratch: the wedge or tail test, with further words from its retry blocks.
// The retry blocks take the fast path's round keys: a key schedule of their own would hold 20 more registers.
template <bool Standard, class Index>
__device__ void ziggurat_finish(const detail::FillParams& p, const detail::PhiloxRoundKeys& rk,
                                float* __restrict__ out, ZigguratValue<Index> v, const detail::ZigguratLayer* layers) {
  out[v.element] = scale_normal<Standard>(
      p, detail::ziggurat_normal(v.word, rk, 4 * p.block0 + v.element, layers, kZigguratHeightBitsDevice));
}

// Float32 normals by the ziggurat, groups [first, groups) of 4 values. Each thread turns one Philox block
// into 4 values and stores them whether or not they passed their layer's core test (Vector: one 16-byte
// store, every group whole and the output aligned; else one store per element below n). The rare failures
// go through two per-warp queues in shared memory, so the slow path runs with every lane busy: groups with
// a failed value are queued by one ballot; 32 queued groups are expanded into their failed values (one
// lane a group, a prefix sum placing them); 32 queued values are resolved at once, one per lane. Every lane
// of a warp runs the same trip count, so the warp stays converged. Index is 32-bit while every element
// index fits. The round keys come precomputed.
template <bool Standard, bool Vector, class Index>
__global__ void __launch_bounds__(kThreads) ziggurat_kernel(detail::FillParams p, detail::PhiloxRoundKeys rk,
                                                            float* __restrict__ out, Index first, Index groups,
                                                            std::int64_t n) {
  __shared__ detail::ZigguratLayer layers[256];
  __shared__ Index group_queues[kWarps][kZigguratQueue];
  __shared__ ZigguratValue<Index> value_queues[kWarps][kZigguratValueQueue];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) layers[i] = kZigguratLayersDevice[i];
  __syncthreads();
  const unsigned lane = threadIdx.x % 32;
  Index* group_queue = group_queues[threadIdx.x / 32];
  ZigguratValue<Index>* value_queue = value_queues[threadIdx.x / 32];
  const unsigned lanes_below = (1u << lane) - 1u;
  int pending_groups = 0, pending_values = 0;
  constexpr Index kSpan = 32 * kZigguratGroupsPerThread;  // groups a warp makes per iteration
  const Index stride = static_cast<Index>(gridDim.x) * kWarps * kSpan;
  // One iteration: the warp's kSpan groups from base; Checked: some may lie at or past `groups`.
  auto iteration = [&](Index base, auto checked) {
#pragma unroll
    for (int k = 0; k < kZigguratGroupsPerThread; ++k) {
      const Index g = base + 32 * k + lane;
      bool failed = false;
      if (!decltype(checked)::value || g < groups) {
        Vec<float, 4> v;
        failed = !ziggurat_group<Standard>(p, rk, layers, g, &v);
        if constexpr (Vector) {
          reinterpret_cast<Vec<float, 4>*>(out)[g] = v;
        } else {
#pragma unroll
          for (int l = 0; l < 4; ++l)
            if (static_cast<std::int64_t>(4 * static_cast<std::uint64_t>(g)) + l < n) out[4 * g + l] = v.v[l];
        }
      }
      const unsigned ballot = __ballot_sync(0xFFFFFFFFu, failed);
      if (failed) group_queue[pending_groups + __popc(ballot & lanes_below)] = g;
      pending_groups += __popc(ballot);
    }
    // The queued entries (and this iteration's stores, which a resolved value overwrites) are seen by the
    // whole warp past each __syncwarp; after the reads, the slots may be refilled.
    __syncwarp();
    while (pending_groups >= 32) {
      pending_groups -= 32;
      pending_values = ziggurat_expand(p, rk, layers, group_queue[pending_groups + lane], true, n, value_queue,
                                       pending_values, lane);
      __syncwarp();
      while (pending_values >= 32) {
        pending_values -= 32;
        ziggurat_finish<Standard>(p, rk, out, value_queue[pending_values + lane], layers);
        __syncwarp();
      }
    }
  };
  // Whole spans without bounds tests; a warp's last span may be partial.
  Index base = first + (static_cast<Index>(blockIdx.x) * kWarps + threadIdx.x / 32) * kSpan;
  for (; base + kSpan <= groups; base += stride) iteration(base, std::false_type{});
  if (base < groups) iteration(base, std::true_type{});
  const bool valid = static_cast<int>(lane) < pending_groups;
  pending_values = ziggurat_expand(p, rk, layers, valid ? group_queue[lane] : Index{0}, valid, n, value_queue,
                                   pending_values, lane);
  __syncwarp();
  for (int i = static_cast<int>(lane); i < pending_values; i += 32)
    ziggurat_finish<Standard>(p, rk, out, value_queue[i], layers);
}

template <bool Standard, bool Vector, class Index>
void launch_ziggurat_part(const detail::FillParams& p, const detail::PhiloxRoundKeys& rk, float* out,
                          std::int64_t first, std::int64_t groups, std::int64_t n, cudaStream_t s) {
  if (first >= groups) return;
  auto kernel = ziggurat_kernel<Standard, Vector, Index>;
  static thread_local int cached_device = -1;
  static thread_local std::int64_t cached_blocks = 0;
  int dev = 0;
  NPGPU_CUDA_TRY(cudaGetDevice(&dev));
  if (dev != cached_device) {
    cached_blocks = resident_blocks(kernel);
    cached_device = dev;
  }
  // One wave of resident blocks at most: every extra block repeats the table load and leaves a partial queue.
  const std::int64_t per_block = static_cast<std::int64_t>(kThreads) * kZigguratGroupsPerThread;
  const std::int64_t blocks =
      std::min<std::int64_t>(std::max<std::int64_t>((groups - first + per_block - 1) / per_block, 1), cached_blocks);
  kernel<<<static_cast<unsigned>(blocks), kThreads, 0, s>>>(p, rk, out, static_cast<Index>(first),
                                                           static_cast<Index>(groups), n);
  NPGPU_CHECK_LAUNCH("random_fill");
}

// An aligned output is filled by the vector kernel up to its last whole group; a partial last group, or
// an unaligned output, by the scalar-store one. 32-bit group indices up to 2^30 groups (the grid's stride
// is far below 2^30 too), else 64-bit (env NPGPU_ZIGGURAT_INDEX64=1 forces 64-bit indices: for testing
// that path on small n).
template <bool Standard>
void launch_ziggurat(const detail::FillParams& p, const ArrayView& out, cudaStream_t s) {
  const std::int64_t n = out.size();
  const std::int64_t groups = (n + 3) / 4;
  auto* data = static_cast<float*>(out.data);
  const detail::PhiloxRoundKeys rk = detail::philox_round_keys(p.key);
  const std::int64_t whole = reinterpret_cast<std::uintptr_t>(data) % sizeof(Vec<float, 4>) == 0 ? n / 4 : 0;
  static const bool force64 = env_int("NPGPU_ZIGGURAT_INDEX64", 0) != 0;
  if (groups <= (std::int64_t(1) << 30) && !force64) {
    launch_ziggurat_part<Standard, true, std::uint32_t>(p, rk, data, 0, whole, n, s);
    launch_ziggurat_part<Standard, false, std::uint32_t>(p, rk, data, whole, groups, n, s);
  } else {
    launch_ziggurat_part<Standard, true, std::uint64_t>(p, rk, data, 0, whole, n, s);
    launch_ziggurat_part<Standard, false, std::uint64_t>(p, rk, data, whole, groups, n, s);
  }
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

// Kernel variant (env NPGPU_PI_VARIANT: the fast test, 0 floats, 1 dp4a (default), 2 both; NPGPU_PI_UNROLL:
// Philox calls per iteration, 1, 2 (default) or 4) and grid multiple (NPGPU_PI_GRID, default 2), read once:
// for tuning on a device; the count does not depend on them.
template <int Conv, int U, class J>
std::uint64_t pi_launch(std::uint64_t first, std::uint64_t calls, int rem, std::uint64_t seed, int dev,
                        cudaStream_t s) {
  auto kernel = pi::pi_kernel<Conv, U, J>;
  static thread_local int cached_device = -1;
  static thread_local std::int64_t cached_blocks = 0;
  if (dev != cached_device) {
    int per_sm = 0;
    NPGPU_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, pi::kThreads, 0));
    // Two waves of resident blocks by default: finer balance than one.
    cached_blocks = static_cast<std::int64_t>(std::max(per_sm, 1)) * device_properties(dev).multiprocessor_count *
                    std::max(1, env_int("NPGPU_PI_GRID", 2));
    cached_device = dev;
  }
  const std::int64_t blocks = std::min<std::int64_t>(
      cached_blocks, std::max<std::int64_t>(static_cast<std::int64_t>((calls + pi::kThreads - 1) / pi::kThreads), 1));
  PiCache& c = pi_cache(dev);
  kernel<<<static_cast<unsigned>(blocks), pi::kThreads, 0, s>>>(first, first + calls, detail::philox_round_keys(seed),
                                                                seed, rem, c.scratch, c.result_dev);
  NPGPU_CHECK_LAUNCH("monte_carlo_pi");
  NPGPU_CUDA_TRY(cudaStreamSynchronize(s));
  return *static_cast<volatile unsigned long long*>(c.result_host);
}

// 32-bit call indices while every call index is below 2^31 (2^34 points; the grid's stride is far below 2^31
// too), else 64-bit (env NPGPU_PI_INDEX64=1 forces 64-bit indices: for testing that path on small n).
template <int Conv, int U>
std::uint64_t pi_launch(std::uint64_t first, std::uint64_t calls, int rem, std::uint64_t seed, int dev,
                        cudaStream_t s) {
  static const bool force64 = env_int("NPGPU_PI_INDEX64", 0) != 0;
  if (first + calls < (std::uint64_t(1) << 31) && !force64)
    return pi_launch<Conv, U, std::uint32_t>(first, calls, rem, seed, dev, s);
  return pi_launch<Conv, U, std::uint64_t>(first, calls, rem, seed, dev, s);
}

std::uint64_t pi_hits_cuda(std::uint64_t first, std::uint64_t calls, int rem, std::uint64_t seed, cudaStream_t s) {
  int dev = 0;
  NPGPU_CUDA_TRY(cudaGetDevice(&dev));
  static const int variant = env_int("NPGPU_PI_VARIANT", 1) + 10 * env_int("NPGPU_PI_UNROLL", 2);
  switch (variant) {
    case 10: return pi_launch<0, 1>(first, calls, rem, seed, dev, s);
    case 11: return pi_launch<1, 1>(first, calls, rem, seed, dev, s);
    case 20: return pi_launch<0, 2>(first, calls, rem, seed, dev, s);
    case 22: return pi_launch<2, 2>(first, calls, rem, seed, dev, s);
    case 41: return pi_launch<1, 4>(first, calls, rem, seed, dev, s);
    default: return pi_launch<1, 2>(first, calls, rem, seed, dev, s);  // fastest on an H100
  }
}

}  // namespace

void random_fill(const detail::FillParams& p, const ArrayView& out, StreamHandle stream) {
  auto s = static_cast<cudaStream_t>(stream);
  detail::dispatch_dtype(out.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_arithmetic_v<T>)
      detail::dispatch_fill_mode<T>(p, [&](auto mode) {
        if constexpr (decltype(mode)::value == detail::kFillNormalZiggurat) {
          if (p.a == 0.0 && p.b == 1.0)
            launch_ziggurat<true>(p, out, s);
          else
            launch_ziggurat<false>(p, out, s);
        } else {
          launch_fill<T, decltype(mode)::value>(p, out, s);
        }
      });
  });
}

std::uint64_t monte_carlo_pi_hits(std::uint64_t first, std::uint64_t calls, int rem, std::uint64_t seed,
                                  StreamHandle stream) {
  return pi_hits_cuda(first, calls, rem, seed, static_cast<cudaStream_t>(stream));
}

}  // namespace npgpu::cuda
