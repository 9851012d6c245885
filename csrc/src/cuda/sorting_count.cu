// CUDA implementation of the counting route for integer keys of a narrow range (key_range, count_keys,
// lookup_keys; see npgpu/sorting.hpp). Counts go through atomics: the lanes of a warp holding one key first
// agree (__match_any_sync) so that one lane adds for all of them, which keeps sorted input and heavily
// repeated keys from queueing on one address; up to kSharedBins bins, each block counts in shared memory
// and adds its totals to the result once. Below 2^32 keys the counts are 32-bit atomics, widened to int64
// after: the L2's 64-bit atomics run at about half the rate.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <cub/device/device_reduce.cuh>
#include <thrust/iterator/transform_iterator.h>

#include "common/cuda_check.hpp"
#include "common/key_offsets.hpp"
#include "common/sorting_backends.hpp"
#include "cuda/cub_run.cuh"
#include "npgpu/errors.hpp"
#include "npgpu/memory.hpp"
#include "npgpu/runtime.hpp"

namespace npgpu::cuda {
namespace {

constexpr int kThreads = 256;
constexpr std::int64_t kSharedBins = 2048;

using Position = unsigned long long;  // first positions' atomics; int64 in the caller's array

template <class T>
struct Span {
  T lo, hi;
};
template <class T>
struct SpanOf {
  __host__ __device__ Span<T> operator()(T v) const { return {v, v}; }
};
template <class T>
struct Widest {
  __host__ __device__ Span<T> operator()(const Span<T>& a, const Span<T>& b) const {
    return {b.lo < a.lo ? b.lo : a.lo, a.hi < b.hi ? b.hi : a.hi};
  }
};

// One warp-wide round: the lanes whose keys fall in the same bin elect their lowest lane, which adds their
// number to counts[bin] and, with `first`, its position (the smallest of theirs) to first[bin] by a minimum.
// B is the width the lanes compare bins in; `none` marks a lane without a key in range.
template <class B, class C>
__device__ __forceinline__ void add_round(B bin, B none, std::int64_t i, C* counts, Position* first) {
  const unsigned peers = __match_any_sync(0xffffffffu, bin);
  if (bin != none && static_cast<int>(threadIdx.x & 31) == __ffs(peers) - 1) {
    atomicAdd(&counts[bin], static_cast<C>(__popc(peers)));
    if (first) atomicMin(&first[bin], static_cast<Position>(i));
  }
}

// The grid's keys in warp-wide rounds (the loop advances a warp at a time so that all 32 lanes take part in
// every round), counted into `bins` bins from lo.
template <class T, class B, class C>
__device__ __forceinline__ void count_rounds(const T* __restrict__ keys, std::int64_t n, T lo, B bins, C* counts,
                                             Position* first) {
  const std::int64_t lane = threadIdx.x & 31;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x - lane; base < n;
       base += stride) {
    const std::int64_t i = base + lane;
    const std::uint64_t off = i < n ? detail::key_offset(keys[i], lo) : ~std::uint64_t{0};
    add_round<B, C>(off < bins ? static_cast<B>(off) : bins, bins, i, counts, first);
  }
}

// Bins in global memory.
template <class T, class B, class C>
__global__ void count_global(const T* __restrict__ keys, std::int64_t n, const T* __restrict__ range, B bins,
                             C* counts, Position* first) {
  count_rounds<T, B, C>(keys, n, range[0], bins, counts, first);
}

// Up to kSharedBins bins: each block counts in shared memory, then adds its non-zero bins to the result.
template <class T, class C>
__global__ void count_shared(const T* __restrict__ keys, std::int64_t n, const T* __restrict__ range,
                             unsigned bins, C* counts, Position* first) {
  extern __shared__ Position block_bins[];  // first positions when asked, then counts
  Position* block_first = first ? block_bins : nullptr;
  C* block_counts = reinterpret_cast<C*>(first ? block_bins + bins : block_bins);
  for (unsigned j = threadIdx.x; j < bins; j += blockDim.x) {
    block_counts[j] = 0;
    if (first) block_first[j] = ~Position{0};
  }
  __syncthreads();
  count_rounds<T, unsigned, C>(keys, n, range[0], bins, block_counts, block_first);
  __syncthreads();
  for (unsigned j = threadIdx.x; j < bins; j += blockDim.x) {
    if (block_counts[j] == 0) continue;
    atomicAdd(&counts[j], block_counts[j]);
    if (first) atomicMin(&first[j], block_first[j]);
  }
}

__global__ void widen_counts(const unsigned* __restrict__ in, std::int64_t* __restrict__ out, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = in[i];
}

template <class T>
__global__ void lookup_kernel(const T* __restrict__ keys, std::int64_t n, const T* __restrict__ range,
                              const std::int64_t* __restrict__ table, std::uint64_t bins,
                              std::int64_t* __restrict__ out) {
  const T lo = range[0];
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const std::uint64_t off = detail::key_offset(keys[i], lo);
    out[i] = off < bins ? table[off] : -1;
  }
}

unsigned grid_for(std::int64_t n) {
  return static_cast<unsigned>(std::clamp<std::int64_t>((n + kThreads - 1) / kThreads, 1, std::int64_t{1} << 20));
}

// Counts of C (unsigned: fewer than 2^32 keys; else unsigned long long) into c, zeroed here.
template <class T, class C>
void launch_count(const T* k, std::int64_t n, const T* lo, std::int64_t bins, C* c, Position* f, int device,
                  cudaStream_t s) {
  NPGPU_CUDA_TRY(cudaMemsetAsync(c, 0, bins * sizeof(C), s));
  if (bins <= kSharedBins) {
    // a few blocks a multiprocessor, so that each block's flush of its bins is repaid by many keys
    const std::int64_t blocks =
        std::min<std::int64_t>((n + kThreads - 1) / kThreads, 4 * device_properties(device).multiprocessor_count);
    const std::size_t shared = static_cast<std::size_t>(bins) * (sizeof(C) + (f ? 8 : 0));
    count_shared<T, C><<<static_cast<unsigned>(blocks), kThreads, shared, s>>>(k, n, lo, static_cast<unsigned>(bins),
                                                                              c, f);
  } else if (bins < std::numeric_limits<unsigned>::max()) {
    count_global<T, unsigned, C><<<grid_for(n), kThreads, 0, s>>>(k, n, lo, static_cast<unsigned>(bins), c, f);
  } else {
    count_global<T, std::uint64_t, C><<<grid_for(n), kThreads, 0, s>>>(k, n, lo, static_cast<std::uint64_t>(bins), c,
                                                                       f);
  }
  NPGPU_CHECK_LAUNCH("count_keys");
}

}  // namespace

void key_range(const ArrayView& keys, const ArrayView& range, StreamHandle stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  detail::dispatch_integer_keys(keys.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto spans = thrust::make_transform_iterator(static_cast<const T*>(keys.data), SpanOf<T>{});
    // Span<T> is laid out as range's two elements: the smallest, then the largest
    auto* out = static_cast<Span<T>*>(range.data);
    const Span<T> init{std::numeric_limits<T>::max(), std::numeric_limits<T>::lowest()};
    const std::int64_t n = keys.size();
    cub_run([&](void* t, std::size_t& b) {
      return cub::DeviceReduce::Reduce(t, b, spans, out, n, Widest<T>{}, init, s);
    }, keys.device, s);
  });
}

void count_keys(const ArrayView& keys, const ArrayView& range, const ArrayView& counts, const ArrayView* first,
                StreamHandle stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  const std::int64_t n = keys.size(), bins = counts.size();
  auto* out = static_cast<std::int64_t*>(counts.data);
  Position* f = first ? static_cast<Position*>(first->data) : nullptr;
  if (f) NPGPU_CUDA_TRY(cudaMemsetAsync(f, 0xff, bins * 8, s));  // all ones: -1, and above any position
  if (n == 0) {
    NPGPU_CUDA_TRY(cudaMemsetAsync(out, 0, bins * 8, s));
    return;
  }
  detail::dispatch_integer_keys(keys.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* k = static_cast<const T*>(keys.data);
    const T* lo = static_cast<const T*>(range.data);
    if (n <= std::int64_t{std::numeric_limits<unsigned>::max()}) {
      DeviceBuffer narrow(bins * 4, keys.device, s);
      launch_count<T, unsigned>(k, n, lo, bins, static_cast<unsigned*>(narrow.data()), f, keys.device, s);
      widen_counts<<<grid_for(bins), kThreads, 0, s>>>(static_cast<const unsigned*>(narrow.data()), out, bins);
      NPGPU_CHECK_LAUNCH("count_keys");
    } else {
      launch_count<T, unsigned long long>(k, n, lo, bins, reinterpret_cast<unsigned long long*>(out), f, keys.device,
                                          s);
    }
  });
}

void lookup_keys(const ArrayView& keys, const ArrayView& range, const ArrayView& table, const ArrayView& out,
                 StreamHandle stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  const std::int64_t n = keys.size();
  detail::dispatch_integer_keys(keys.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    lookup_kernel<T><<<grid_for(n), kThreads, 0, s>>>(
        static_cast<const T*>(keys.data), n, static_cast<const T*>(range.data),
        static_cast<const std::int64_t*>(table.data), static_cast<std::uint64_t>(table.size()),
        static_cast<std::int64_t*>(out.data));
    NPGPU_CHECK_LAUNCH("lookup_keys");
  });
}

}  // namespace npgpu::cuda
