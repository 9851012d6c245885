// CUDA implementation of sorting. Real keys: cub::DeviceRadixSort (one row) or
// cub::DeviceSegmentedSort::StableSort* (many rows), both stable in either direction; float keys first pass
// through a copy that gives every NaN one sign (+ ascending, - descending), so that the radix order, which
// follows the bits, puts all NaNs last as NumPy does (CUB already treats -0.0 and +0.0 as equal). Indices are
// sorted as the pairs' values, from a per-row iota. Complex keys: cub::DeviceMergeSort of element positions
// with NumPy's order as the comparator (rows first), then gathers.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "common/cuda_check.hpp"
#include "common/dispatch.hpp"
#include "common/sort_order.hpp"
#include "common/sorting_backends.hpp"
#include "cuda/cub_run.cuh"
#include "npgpu/errors.hpp"
#include "npgpu/memory.hpp"

namespace npgpu::cuda {
namespace {

constexpr int kThreads = 256;

unsigned blocks_for(std::int64_t n) {
  return static_cast<unsigned>(std::min<std::int64_t>(std::max<std::int64_t>((n + kThreads - 1) / kThreads, 1),
                                                       1 << 20));
}

// The key type CUB sorts for a storage type (bool as bytes, float16 as CUDA's __half).
template <class T> struct radix_key { using type = T; };
template <> struct radix_key<bool> { using type = std::uint8_t; };
template <> struct radix_key<detail::float16> { using type = __half; };

// Bits of a floating key type: the NaN test and the canonical quiet NaN of either sign.
template <class K> struct float_bits;
template <> struct float_bits<float> {
  using U = std::uint32_t;
  static constexpr U abs = 0x7fffffffu, inf = 0x7f800000u, qnan = 0x7fc00000u, sign = 0x80000000u;
};
template <> struct float_bits<double> {
  using U = std::uint64_t;
  static constexpr U abs = 0x7fffffffffffffffull, inf = 0x7ff0000000000000ull, qnan = 0x7ff8000000000000ull,
                     sign = 0x8000000000000000ull;
};
template <> struct float_bits<__half> {
  using U = std::uint16_t;
  static constexpr U abs = 0x7fff, inf = 0x7c00, qnan = 0x7e00, sign = 0x8000;
};

template <class K>
__global__ void canonical_nans(const K* in, K* out, std::int64_t n, bool negative) {
  using B = float_bits<K>;
  using U = typename B::U;
  const U nan = negative ? static_cast<U>(B::qnan | B::sign) : B::qnan;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const U u = reinterpret_cast<const U*>(in)[i];
    reinterpret_cast<U*>(out)[i] = (u & B::abs) > B::inf ? nan : u;
  }
}

// out[i] = i % n (positions within rows of n), or i itself with n == 0.
__global__ void row_iota(std::int64_t* out, std::int64_t total, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += stride)
    out[i] = n ? i % n : i;
}

struct RowOffset {
  std::int64_t n;
  __host__ __device__ std::int64_t operator()(std::int64_t r) const { return r * n; }
};

template <class K>
void radix_sort(const K* src, K* dst, std::int64_t* idx_out, std::int64_t rows, std::int64_t n,
                bool descending, int device, cudaStream_t s) {
  const std::int64_t total = rows * n;
  DeviceBuffer iota(idx_out ? total * 8 : 8, device, s);
  auto* idx_in = static_cast<std::int64_t*>(iota.data());
  if (idx_out) {
    row_iota<<<blocks_for(total), kThreads, 0, s>>>(idx_in, total, n);
    NPGPU_CHECK_LAUNCH("sort (positions)");
  }
  if (rows == 1) {
    constexpr int bits = static_cast<int>(sizeof(K) * 8);
    cub_run([&](void* t, std::size_t& b) {
      if (idx_out)
        return descending ? cub::DeviceRadixSort::SortPairsDescending(t, b, src, dst, idx_in, idx_out, total, 0, bits, s)
                          : cub::DeviceRadixSort::SortPairs(t, b, src, dst, idx_in, idx_out, total, 0, bits, s);
      return descending ? cub::DeviceRadixSort::SortKeysDescending(t, b, src, dst, total, 0, bits, s)
                        : cub::DeviceRadixSort::SortKeys(t, b, src, dst, total, 0, bits, s);
    }, device, s);
    return;
  }
  const thrust::counting_iterator<std::int64_t> r0(0);
  auto begin = thrust::make_transform_iterator(r0, RowOffset{n});
  auto end = begin + 1;
  cub_run([&](void* t, std::size_t& b) {
    if (idx_out)
      return descending
                 ? cub::DeviceSegmentedSort::StableSortPairsDescending(t, b, src, dst, idx_in, idx_out, total, rows,
                                                                       begin, end, s)
                 : cub::DeviceSegmentedSort::StableSortPairs(t, b, src, dst, idx_in, idx_out, total, rows, begin,
                                                             end, s);
    return descending ? cub::DeviceSegmentedSort::StableSortKeysDescending(t, b, src, dst, total, rows, begin, end, s)
                      : cub::DeviceSegmentedSort::StableSortKeys(t, b, src, dst, total, rows, begin, end, s);
  }, device, s);
}

// Complex keys: positions ordered by (row, NumPy's order of the values).
template <class T>
struct PositionOrder {
  const T* data;
  std::int64_t n;
  bool descending;
  __device__ bool operator()(std::int64_t a, std::int64_t b) const {
    const std::int64_t ra = a / n, rb = b / n;
    if (ra != rb) return ra < rb;
    return descending ? detail::sort_greater(data[a], data[b]) : detail::sort_less(data[a], data[b]);
  }
};

template <class T>
__global__ void gather_sorted(const T* data, const std::int64_t* pos, T* values, std::int64_t* indices,
                              std::int64_t total, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += stride) {
    const std::int64_t p = pos[i];
    if (values) values[i] = data[p];
    if (indices) indices[i] = p % n;
  }
}

template <class T>
void merge_sort_positions(const T* data, T* values, std::int64_t* indices, std::int64_t rows, std::int64_t n,
                          bool descending, int device, cudaStream_t s) {
  const std::int64_t total = rows * n;
  DeviceBuffer pos_buf(total * 8, device, s);
  auto* pos = static_cast<std::int64_t*>(pos_buf.data());
  row_iota<<<blocks_for(total), kThreads, 0, s>>>(pos, total, 0);
  NPGPU_CHECK_LAUNCH("sort (positions)");
  const PositionOrder<T> order{data, n, descending};
  cub_run([&](void* t, std::size_t& b) { return cub::DeviceMergeSort::StableSortKeys(t, b, pos, total, order, s); },
          device, s);
  // values may be data itself (an in-place sort): gather into a scratch copy first
  DeviceBuffer tmp(values == data ? total * static_cast<std::int64_t>(sizeof(T)) : 8, device, s);
  T* dst = values == data ? static_cast<T*>(tmp.data()) : values;
  gather_sorted<<<blocks_for(total), kThreads, 0, s>>>(data, pos, dst, indices, total, n);
  NPGPU_CHECK_LAUNCH("sort (gather)");
  if (values == data)
    NPGPU_CUDA_TRY(cudaMemcpyAsync(values, dst, static_cast<std::size_t>(total) * sizeof(T), cudaMemcpyDeviceToDevice, s));
}

}  // namespace

void sort_rows(const ArrayView& keys, const ArrayView* values, const ArrayView* indices, std::int64_t rows,
               std::int64_t n, bool descending, StreamHandle stream) {
  auto s = static_cast<cudaStream_t>(stream);
  const int device = keys.device;
  const std::int64_t total = rows * n;
  auto* idx_out = indices ? static_cast<std::int64_t*>(indices->data) : nullptr;
  detail::dispatch_storage_dtype(keys.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (detail::is_complex<T>::value) {
      merge_sort_positions(static_cast<const T*>(keys.data), values ? static_cast<T*>(values->data) : nullptr,
                           idx_out, rows, n, descending, device, s);
    } else if constexpr (std::is_same_v<T, detail::bfloat16>) {
      throw TypeError("sort_rows: bfloat16 keys are not supported on the GPU");
    } else {
      using K = typename radix_key<T>::type;
      const std::int64_t bytes = total * static_cast<std::int64_t>(sizeof(K));
      const K* src = static_cast<const K*>(keys.data);
      // The radix sort reads its input while writing its output: canonical NaNs, or an in-place sort, go
      // through a scratch copy of the keys.
      constexpr bool floating = std::is_floating_point_v<K> || std::is_same_v<K, __half>;
      const bool in_place = values && values->data == keys.data;
      DeviceBuffer prepared(floating || in_place ? bytes : 8, device, s);
      if constexpr (floating) {
        canonical_nans<K><<<blocks_for(total), kThreads, 0, s>>>(src, static_cast<K*>(prepared.data()), total, descending);
        NPGPU_CHECK_LAUNCH("sort (NaNs)");
        src = static_cast<const K*>(prepared.data());
      } else if (in_place) {
        NPGPU_CUDA_TRY(cudaMemcpyAsync(prepared.data(), src, static_cast<std::size_t>(bytes), cudaMemcpyDeviceToDevice, s));
        src = static_cast<const K*>(prepared.data());
      }
      DeviceBuffer scratch(values ? 8 : bytes, device, s);  // sorted keys nobody asked for
      K* dst = values ? static_cast<K*>(values->data) : static_cast<K*>(scratch.data());
      radix_sort<K>(src, dst, idx_out, rows, n, descending, device, s);
    }
  });
}

}  // namespace npgpu::cuda
