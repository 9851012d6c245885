// CUDA implementation of the indexing family. nonzero_positions: cub::DeviceSelect::Flagged over the element
// positions, flagged by a typed nonzero test, then the count read back. take/put: one thread per moved
// element; an out-of-range index is recorded in a device word (first one to arrive) read back after the
// kernel (put checks every index before it writes anything, as NumPy). scatter_add: one atomic addition per
// value (native atomicAdd where the type has one, a compare-and-swap on the enclosing 32-bit word for 1- and
// 2-byte types).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "common/cuda_check.hpp"
#include "common/dispatch.hpp"
#include "common/gather_ops.hpp"
#include "common/indexing_backends.hpp"
#include "cuda/select_positions.cuh"
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
  const std::int64_t first_bad = checked_indices(idx, m, axis_len, dst.device, s);
  if (first_bad != detail::kNoBadIndex) return first_bad;
  detail::dispatch_storage_dtype(dst.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
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
  });
  return detail::kNoBadIndex;
}

}  // namespace npgpu::cuda
