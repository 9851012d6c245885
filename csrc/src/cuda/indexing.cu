// CUDA implementation of the indexing family. nonzero_positions: cub::DeviceSelect::Flagged over the element
// positions, flagged by a typed nonzero test, then the count read back. take/put: one thread per moved
// element; an out-of-range index is recorded in a device word (first one to arrive) read back after the
// kernel (put checks every index before it writes anything, as NumPy).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "common/cuda_check.hpp"
#include "common/dispatch.hpp"
#include "common/gather_ops.hpp"
#include "common/indexing_backends.hpp"
#include "cuda/cub_run.cuh"
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

}  // namespace

std::int64_t nonzero_positions(const ArrayView& flags, const ArrayView& out, StreamHandle stream) {
  auto s = static_cast<cudaStream_t>(stream);
  const std::int64_t n = flags.size();
  DeviceBuffer count_buf(8, flags.device, s);
  auto* count = static_cast<std::int64_t*>(count_buf.data());
  detail::dispatch_storage_dtype(flags.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const thrust::counting_iterator<std::int64_t> positions(0);
    auto flagged = thrust::make_transform_iterator(positions, NonzeroAt<T>{static_cast<const T*>(flags.data)});
    cub_run([&](void* t, std::size_t& b) {
      return cub::DeviceSelect::Flagged(t, b, positions, flagged, static_cast<std::int64_t*>(out.data), count, n, s);
    }, flags.device, s);
  });
  std::int64_t host_count = 0;
  NPGPU_CUDA_TRY(cudaMemcpyAsync(&host_count, count, 8, cudaMemcpyDeviceToHost, s));
  NPGPU_CUDA_TRY(cudaStreamSynchronize(s));
  return host_count;
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
  BadIndexFlag bad(dst.device, s);
  check_indices<<<blocks_for(m), kThreads, 0, s>>>(idx, m, axis_len, bad.ptr());
  NPGPU_CHECK_LAUNCH("put (index check)");
  const std::int64_t first_bad = bad.read();
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

}  // namespace npgpu::cuda
