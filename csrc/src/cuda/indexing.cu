// CUDA implementation of the indexing family. nonzero_positions: cub::DeviceSelect::Flagged over the element
// positions, flagged by a typed nonzero test, then the count read back. take/put: one thread per moved
// element; an out-of-range index is recorded in a device word (first one to arrive) read back after the
// kernel (put checks every index before it writes anything, as NumPy). scatter_add: one atomic addition per
// value (native atomicAdd where the type has one, a compare-and-swap on the enclosing 32-bit word for 1- and
// 2-byte types); into a destination larger than L2, the indices are grouped by chunk of it first.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include <cub/block/block_scan.cuh>

#include "common/cuda_check.hpp"
#include "common/dispatch.hpp"
#include "common/gather_ops.hpp"
#include "common/indexing_backends.hpp"
#include "cuda/select_positions.cuh"
#include "npgpu/errors.hpp"
#include "npgpu/memory.hpp"

namespace npgpu::cuda {
namespace {

constexpr int kThreads = 256;

unsigned blocks_for(std::int64_t n) {
  return static_cast<unsigned>(std::min<std::int64_t>(std::max<std::int64_t>((n + kThreads - 1) / kThreads, 1),
                                                       std::int64_t{1} << 30));
}

template <class T>
struct NonzeroAt {
  const T* p;
  __device__ bool operator()(std::int64_t i) const { return detail::is_nonzero(p[i]); }
};

// The device word holding the first bad index (kNoBadIndex while there is none), and its read-back.
struct BadIndexFlag {
  DeviceBuffer word;
  cudaStream_t s;
  BadIndexFlag(int device, cudaStream_t stream) : word(8, device, stream), s(stream) {
    const std::int64_t none = detail::kNoBadIndex;
    NPGPU_CUDA_TRY(cudaMemcpyAsync(word.data(), &none, 8, cudaMemcpyHostToDevice, s));
  }
  unsigned long long* ptr() { return static_cast<unsigned long long*>(word.data()); }
  std::int64_t read() {
    std::int64_t v = 0;
    NPGPU_CUDA_TRY(cudaMemcpyAsync(&v, word.data(), 8, cudaMemcpyDeviceToHost, s));
    NPGPU_CUDA_TRY(cudaStreamSynchronize(s));
    return v;
  }
};

__device__ void record_bad(unsigned long long* flag, std::int64_t index) {
  atomicCAS(flag, static_cast<unsigned long long>(detail::kNoBadIndex), static_cast<unsigned long long>(index));
}

// Element k of an [outer, m, inner] array (total elements) as (r, j, i); a plain 1-D gather or scatter
// (total == m) needs no 64-bit divisions.
__device__ __forceinline__ void split_position(std::int64_t k, std::int64_t total, std::int64_t m,
                                               std::int64_t inner, std::int64_t& r, std::int64_t& j,
                                               std::int64_t& i) {
  r = 0, j = k, i = 0;
  if (total == m) return;
  std::int64_t t = k;
  if (inner != 1) {
    i = t % inner;
    t /= inner;
  }
  j = t % m;
  r = t / m;
}

template <class W>
__global__ void take_kernel(const W* __restrict__ src, const std::int64_t* __restrict__ idx, W* __restrict__ out,
                            std::int64_t total, std::int64_t m, std::int64_t axis_len, std::int64_t inner,
                            unsigned long long* bad) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < total; k += stride) {
    std::int64_t r, j, i;
    split_position(k, total, m, inner, r, j, i);
    const std::int64_t raw = idx[j];
    const std::int64_t w = detail::wrap_index(raw, axis_len);
    if (w < 0) {
      record_bad(bad, raw);
      continue;
    }
    out[k] = src[(r * axis_len + w) * inner + i];
  }
}

__global__ void check_indices(const std::int64_t* idx, std::int64_t m, std::int64_t axis_len,
                              unsigned long long* bad) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t j = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; j < m; j += stride)
    if (detail::wrap_index(idx[j], axis_len) < 0) record_bad(bad, idx[j]);
}

// The first index outside [-axis_len, axis_len) (kNoBadIndex if none), checked before a scatter writes
// anything, as NumPy's; waits for the device.
std::int64_t checked_indices(const std::int64_t* idx, std::int64_t m, std::int64_t axis_len, int device,
                             cudaStream_t s) {
  BadIndexFlag bad(device, s);
  check_indices<<<blocks_for(m), kThreads, 0, s>>>(idx, m, axis_len, bad.ptr());
  NPGPU_CHECK_LAUNCH("index check");
  return bad.read();
}

template <class W>
__global__ void put_kernel(W* __restrict__ dst, const std::int64_t* __restrict__ idx, const W* __restrict__ values,
                           std::int64_t total, std::int64_t m, std::int64_t axis_len, std::int64_t inner) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < total; k += stride) {
    std::int64_t r, j, i;
    split_position(k, total, m, inner, r, j, i);
    dst[(r * axis_len + detail::wrap_index(idx[j], axis_len)) * inner + i] = values[k];
  }
}

// *p = scatter_sum(*p, v) for a 1- or 2-byte T. Two bytes: the 16-bit CAS (sm_70 and later), which touches
// nothing beside *p. One byte: a CAS on the aligned 32-bit word holding it, which writes the neighbours back
// unchanged; scatter_add_kernel only sends it bytes whose word lies inside the destination (EdgeSums).
template <class T>
__device__ void atomic_subword_add(T* p, T v) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2);
  if constexpr (sizeof(T) == 2) {
    auto* half = reinterpret_cast<unsigned short*>(p);
    unsigned short old = *half, assumed;
    do {
      assumed = old;
      T cur;
      memcpy(&cur, &assumed, sizeof(T));
      const T sum = detail::scatter_sum(cur, v);
      unsigned short sum_bits;
      memcpy(&sum_bits, &sum, sizeof(T));
      old = atomicCAS(half, assumed, sum_bits);
    } while (old != assumed);
  } else {
    const auto addr = reinterpret_cast<std::uintptr_t>(p);
    auto* word = reinterpret_cast<unsigned*>(addr & ~std::uintptr_t{3});
    const unsigned shift = static_cast<unsigned>(addr & 3) * 8;
    const unsigned mask = 0xffu << shift;
    unsigned old = *word, assumed;
    do {
      assumed = old;
      T cur;
      const unsigned bits = (assumed & mask) >> shift;
      memcpy(&cur, &bits, sizeof(T));  // little-endian: the low byte
      const T sum = detail::scatter_sum(cur, v);
      unsigned sum_bits = 0;
      memcpy(&sum_bits, &sum, sizeof(T));
      old = atomicCAS(word, assumed, (assumed & ~mask) | (sum_bits << shift));
    } while (old != assumed);
  }
}

// The 1-byte elements whose aligned 32-bit word reaches outside the destination [lo, hi) (at most 3 at each
// end): a CAS on that word would read bytes nobody wrote (an allocation's padding, compute-sanitizer's
// initcheck reports it) or another array's. Their values are summed in 32-bit counters instead, slot
// addr - lo for the first word's bytes and 4 + (hi - 1 - addr) for the last's, and added once afterwards
// (add_edge_sums): integer sums wrap as the byte would, bools are ORed.
struct EdgeSums {
  const unsigned char* lo;
  const unsigned char* hi;
  unsigned* sums;  // 8 counters

  __device__ int slot(const void* p) const {
    const auto* b = static_cast<const unsigned char*>(p);
    const auto word = reinterpret_cast<std::uintptr_t>(b) & ~std::uintptr_t{3};
    if (word >= reinterpret_cast<std::uintptr_t>(lo) && word + 4 <= reinterpret_cast<std::uintptr_t>(hi)) return -1;
    return b - lo < 4 ? static_cast<int>(b - lo) : 4 + static_cast<int>(hi - 1 - b);
  }
  __host__ __device__ unsigned char* at(int k) const {
    return const_cast<unsigned char*>(k < 4 ? lo + k : hi - 1 - (k - 4));
  }
};

template <class T>
__device__ __forceinline__ void atomic_scatter_add(T* p, T v, const EdgeSums& edges) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    atomicAdd(p, v);
  } else if constexpr (detail::is_complex<T>::value) {
    atomicAdd(&p->re, v.re);
    atomicAdd(&p->im, v.im);
  } else if constexpr (sizeof(T) == 4) {
    atomicAdd(reinterpret_cast<unsigned*>(p), static_cast<unsigned>(v));  // wraps as NumPy's int32
  } else if constexpr (sizeof(T) == 8) {
    atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
  } else if constexpr (sizeof(T) == 1) {
    const int k = edges.slot(p);
    if (k < 0)
      atomic_subword_add(p, v);
    else if constexpr (std::is_same_v<T, bool>)
      atomicOr(edges.sums + k, v ? 1u : 0u);  // any true: a count could wrap to 0
    else
      atomicAdd(edges.sums + k, static_cast<unsigned>(static_cast<unsigned char>(v)));
  } else {
    atomic_subword_add(p, v);
  }
}

template <class T>
__global__ void scatter_add_kernel(T* dst, const std::int64_t* __restrict__ idx, const T* __restrict__ values,
                                   bool broadcast, std::int64_t total, std::int64_t m, std::int64_t axis_len,
                                   std::int64_t inner, EdgeSums edges) {
  const T one = values[0];
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < total; k += stride) {
    std::int64_t r, j, i;
    split_position(k, total, m, inner, r, j, i);
    atomic_scatter_add(dst + (r * axis_len + detail::wrap_index(idx[j], axis_len)) * inner + i,
                       broadcast ? one : values[k], edges);
  }
}

// Scatter-add into a destination larger than the L2 cache. Atomics at random addresses there each miss to
// DRAM, so the indices are first grouped by the chunk of the destination they hit (count_chunks,
// chunk_starts, partition_by_chunk) and the atomics then run chunk after chunk while each sits in L2
// (scatter_add_grouped); each atomic still costs an L2 transaction of its own, which is what bounds it now.
// The grouping pass doubles as NumPy's check of every index before anything is written. Within a chunk the
// order is not kept: atomics add in any order anyway.
constexpr int kGroupItems = 8;
constexpr std::int64_t kGroupTile = std::int64_t{kThreads} * kGroupItems;
constexpr int kMaxChunks = 1024;
constexpr std::int64_t kChunkBytes = std::int64_t{4} << 20;

// This lane's slot among the lanes of its warp that add 1 to counters[key]: one shared atomic per distinct
// key in the warp (few chunks would otherwise queue every lane on the same counters). Every lane must call.
__device__ __forceinline__ unsigned warp_slot(unsigned* counters, unsigned key) {
  const unsigned peers = __match_any_sync(0xffffffffu, key);
  const int leader = __ffs(peers) - 1;
  const unsigned lane = threadIdx.x & 31u;
  unsigned base = 0;
  if (static_cast<int>(lane) == leader) base = atomicAdd(counters + key, static_cast<unsigned>(__popc(peers)));
  base = __shfl_sync(peers, base, leader);
  return base + static_cast<unsigned>(__popc(peers & ((1u << lane) - 1u)));
}

// The chunk of index k of a tile, or `chunks` (a spare counter) past the end or for a bad index.
__device__ __forceinline__ unsigned chunk_of(const std::int64_t* idx, std::int64_t k, std::int64_t m,
                                             std::int64_t axis_len, int shift, int chunks, std::uint32_t& at,
                                             unsigned long long* bad) {
  if (k >= m) return static_cast<unsigned>(chunks);
  const std::int64_t raw = idx[k];
  const std::int64_t w = detail::wrap_index(raw, axis_len);
  if (w < 0) {
    if (bad != nullptr) record_bad(bad, raw);
    return static_cast<unsigned>(chunks);
  }
  at = static_cast<std::uint32_t>(w);
  return static_cast<unsigned>(w >> shift);
}

__global__ void count_chunks(const std::int64_t* __restrict__ idx, std::int64_t m, std::int64_t axis_len, int shift,
                             int chunks, unsigned long long* counts, unsigned long long* bad) {
  __shared__ unsigned local[kMaxChunks + 1];
  for (int c = threadIdx.x; c <= chunks; c += kThreads) local[c] = 0;
  __syncthreads();
  const std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * kGroupTile + threadIdx.x;
  std::uint32_t at = 0;
  for (int i = 0; i < kGroupItems; ++i)
    warp_slot(local, chunk_of(idx, base + i * kThreads, m, axis_len, shift, chunks, at, bad));
  __syncthreads();
  for (int c = threadIdx.x; c < chunks; c += kThreads)
    if (local[c] != 0) atomicAdd(counts + c, static_cast<unsigned long long>(local[c]));
}

// counts -> where each chunk's group starts (exclusive prefix sums), in place; one block.
__global__ void __launch_bounds__(kMaxChunks) chunk_starts(unsigned long long* counts, int chunks) {
  using Scan = cub::BlockScan<unsigned long long, kMaxChunks>;
  __shared__ typename Scan::TempStorage tmp;
  const int c = threadIdx.x;
  unsigned long long v = c < chunks ? counts[c] : 0;
  Scan(tmp).ExclusiveSum(v, v);
  if (c < chunks) counts[c] = v;
}

// Each block places its tile's indices (and values, unless one is broadcast) in their chunks' groups.
template <class T>
__global__ void partition_by_chunk(const std::int64_t* __restrict__ idx, const T* __restrict__ values,
                                   bool broadcast, std::int64_t m, std::int64_t axis_len, int shift, int chunks,
                                   unsigned long long* cursors, std::uint32_t* __restrict__ grouped_at,
                                   T* __restrict__ grouped_values) {
  __shared__ unsigned local[kMaxChunks + 1];
  __shared__ unsigned long long start[kMaxChunks];
  for (int c = threadIdx.x; c <= chunks; c += kThreads) local[c] = 0;
  __syncthreads();
  const std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * kGroupTile + threadIdx.x;
  unsigned key[kGroupItems], slot[kGroupItems];
  std::uint32_t at[kGroupItems] = {};
#pragma unroll
  for (int i = 0; i < kGroupItems; ++i) {
    key[i] = chunk_of(idx, base + i * kThreads, m, axis_len, shift, chunks, at[i], nullptr);
    slot[i] = warp_slot(local, key[i]);
  }
  __syncthreads();
  for (int c = threadIdx.x; c < chunks; c += kThreads)
    if (local[c] != 0) start[c] = atomicAdd(cursors + c, static_cast<unsigned long long>(local[c]));
  __syncthreads();
#pragma unroll
  for (int i = 0; i < kGroupItems; ++i) {
    if (key[i] >= static_cast<unsigned>(chunks)) continue;
    const unsigned long long p = start[key[i]] + slot[i];
    grouped_at[p] = at[i];
    if (!broadcast) grouped_values[p] = values[base + i * kThreads];
  }
}

template <class T>
__global__ void scatter_add_grouped(T* dst, const std::uint32_t* __restrict__ grouped_at,
                                    const T* __restrict__ grouped_values, const T* __restrict__ values,
                                    bool broadcast, std::int64_t m) {
  const T one = values[0];
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < m; k += stride)
    atomic_scatter_add(dst + grouped_at[k], broadcast ? one : grouped_values[k], EdgeSums{});
}

// log2 of the chunk length in elements for a destination of axis_len T's: kChunkBytes, widened until at
// most kMaxChunks chunks cover it.
template <class T>
int chunk_shift(std::int64_t axis_len) {
  int shift = 0;
  while ((std::int64_t{1} << (shift + 1)) * static_cast<std::int64_t>(sizeof(T)) <= kChunkBytes) ++shift;
  while (((axis_len - 1) >> shift) + 1 > kMaxChunks) ++shift;
  return shift;
}

// Whether scatter_add groups its indices first: a plain 1-D scatter of native 4- or 8-byte atomics, many
// indices, into a destination past what L2 holds, addressable by 32-bit positions.
template <class T>
bool groups_indices(std::int64_t outer, std::int64_t axis_len, std::int64_t inner, std::int64_t m) {
  return sizeof(T) >= 4 && outer == 1 && inner == 1 && m >= (std::int64_t{1} << 20) &&
         axis_len * static_cast<std::int64_t>(sizeof(T)) > 8 * kChunkBytes && axis_len <= (std::int64_t{1} << 32);
}

// The grouped scatter-add; returns the first bad index (kNoBadIndex if none) without writing dst if any.
template <class T>
std::int64_t scatter_add_by_chunks(T* dst, std::int64_t axis_len, const std::int64_t* idx, std::int64_t m,
                                   const T* values, bool broadcast, int device, cudaStream_t s) {
  const int shift = chunk_shift<T>(axis_len);
  const int chunks = static_cast<int>(((axis_len - 1) >> shift) + 1);
  DeviceBuffer counts(kMaxChunks * sizeof(unsigned long long), device, s);
  DeviceBuffer grouped_at(m * static_cast<std::int64_t>(sizeof(std::uint32_t)), device, s);
  DeviceBuffer grouped_values(broadcast ? 0 : m * static_cast<std::int64_t>(sizeof(T)), device, s);
  auto* cursors = static_cast<unsigned long long*>(counts.data());
  BadIndexFlag bad(device, s);
  NPGPU_CUDA_TRY(cudaMemsetAsync(cursors, 0, kMaxChunks * sizeof(unsigned long long), s));
  const auto tiles = static_cast<unsigned>((m + kGroupTile - 1) / kGroupTile);
  count_chunks<<<tiles, kThreads, 0, s>>>(idx, m, axis_len, shift, chunks, cursors, bad.ptr());
  NPGPU_CHECK_LAUNCH("scatter_add (count)");
  chunk_starts<<<1, kMaxChunks, 0, s>>>(cursors, chunks);
  NPGPU_CHECK_LAUNCH("scatter_add (starts)");
  auto* at = static_cast<std::uint32_t*>(grouped_at.data());
  auto* vals = static_cast<T*>(grouped_values.data());
  partition_by_chunk<T><<<tiles, kThreads, 0, s>>>(idx, values, broadcast, m, axis_len, shift, chunks, cursors, at,
                                                   vals);
  NPGPU_CHECK_LAUNCH("scatter_add (group)");
  const std::int64_t first_bad = bad.read();
  if (first_bad != detail::kNoBadIndex) return first_bad;
  scatter_add_grouped<T><<<blocks_for(m), kThreads, 0, s>>>(dst, at, vals, values, broadcast, m);
  NPGPU_CHECK_LAUNCH("scatter_add");
  return detail::kNoBadIndex;
}

// Adds the edge counters into their bytes (one thread each; the scatter kernel has finished).
template <class T>
__global__ void add_edge_sums(EdgeSums edges) {
  const int k = static_cast<int>(threadIdx.x);
  if (k >= 8 || edges.sums[k] == 0) return;  // a zero sum (or nothing) adds nothing, for bool too
  T cur, add;
  unsigned char* b = edges.at(k);
  memcpy(&cur, b, 1);
  const unsigned char low = static_cast<unsigned char>(edges.sums[k]);
  if constexpr (std::is_same_v<T, bool>)
    add = true;
  else
    memcpy(&add, &low, 1);
  const T sum = detail::scatter_sum(cur, add);
  memcpy(b, &sum, 1);
}

}  // namespace

std::int64_t nonzero_positions(const ArrayView& flags, const ArrayView& out, StreamHandle stream) {
  return detail::dispatch_storage_dtype(flags.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return select_positions(NonzeroAt<T>{static_cast<const T*>(flags.data)}, flags.size(),
                            static_cast<std::int64_t*>(out.data), flags.device, static_cast<cudaStream_t>(stream));
  });
}

std::int64_t take(const ArrayView& src, std::int64_t outer, std::int64_t axis_len, std::int64_t inner,
                  const ArrayView& index, const ArrayView& out, StreamHandle stream) {
  auto s = static_cast<cudaStream_t>(stream);
  const std::int64_t m = index.size(), total = out.size();
  BadIndexFlag bad(src.device, s);
  detail::dispatch_item_size(itemsize(src.dtype), [&](auto word) {
    using W = decltype(word);
    take_kernel<W><<<blocks_for(total), kThreads, 0, s>>>(static_cast<const W*>(src.data),
                                                           static_cast<const std::int64_t*>(index.data),
                                                           static_cast<W*>(out.data), total, m, axis_len, inner,
                                                           bad.ptr());
  });
  NPGPU_CHECK_LAUNCH("take");
  return bad.read();
}

std::int64_t put(const ArrayView& dst, std::int64_t outer, std::int64_t axis_len, std::int64_t inner,
                 const ArrayView& index, const ArrayView& values, StreamHandle stream) {
  auto s = static_cast<cudaStream_t>(stream);
  const std::int64_t m = index.size(), total = values.size();
  const auto* idx = static_cast<const std::int64_t*>(index.data);
  const std::int64_t first_bad = checked_indices(idx, m, axis_len, dst.device, s);
  if (first_bad != detail::kNoBadIndex) return first_bad;
  detail::dispatch_item_size(itemsize(dst.dtype), [&](auto word) {
    using W = decltype(word);
    put_kernel<W><<<blocks_for(total), kThreads, 0, s>>>(static_cast<W*>(dst.data), idx,
                                                          static_cast<const W*>(values.data), total, m, axis_len,
                                                          inner);
  });
  NPGPU_CHECK_LAUNCH("put");
  return detail::kNoBadIndex;
}

std::int64_t scatter_add(const ArrayView& dst, std::int64_t outer, std::int64_t axis_len, std::int64_t inner,
                         const ArrayView& index, const ArrayView& values, StreamHandle stream) {
  auto s = static_cast<cudaStream_t>(stream);
  const std::int64_t m = index.size(), total = outer * m * inner;
  const auto* idx = static_cast<const std::int64_t*>(index.data);
  return detail::dispatch_storage_dtype(dst.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (groups_indices<T>(outer, axis_len, inner, m)) {
      try {
        return scatter_add_by_chunks(static_cast<T*>(dst.data), axis_len, idx, m, static_cast<const T*>(values.data),
                                     values.size() == 1, dst.device, s);
      } catch (const OutOfMemoryError&) {
        // the grouping's scratch (4 bytes an index, and the values unless one is broadcast) did not fit: the
        // direct scatter needs none
      }
    }
    const std::int64_t first_bad = checked_indices(idx, m, axis_len, dst.device, s);
    if (first_bad != detail::kNoBadIndex) return first_bad;
    constexpr bool bytes = sizeof(T) == 1;
    DeviceBuffer sums(bytes ? 8 * sizeof(unsigned) : 0, dst.device, s);
    const auto* lo = static_cast<const unsigned char*>(dst.data);
    EdgeSums edges{lo, lo + outer * axis_len * inner * static_cast<std::int64_t>(sizeof(T)),
                   static_cast<unsigned*>(sums.data())};
    if constexpr (bytes) NPGPU_CUDA_TRY(cudaMemsetAsync(sums.data(), 0, 8 * sizeof(unsigned), s));
    scatter_add_kernel<T><<<blocks_for(total), kThreads, 0, s>>>(static_cast<T*>(dst.data), idx,
                                                                  static_cast<const T*>(values.data),
                                                                  values.size() == 1, total, m, axis_len, inner,
                                                                  edges);
    NPGPU_CHECK_LAUNCH("scatter_add");
    if constexpr (bytes) {
      add_edge_sums<T><<<1, 8, 0, s>>>(edges);
      NPGPU_CHECK_LAUNCH("scatter_add (edges)");
    }
    return detail::kNoBadIndex;
  });
}

}  // namespace npgpu::cuda
