#pragma once
// Internal: the definition of sort_detail::radix_sort (sorting_radix.cuh), included by the files that
// instantiate it.
#include <cstdint>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "common/cuda_check.hpp"
#include "cuda/cub_run.cuh"
#include "cuda/sorting_radix.cuh"
#include "npgpu/memory.hpp"

namespace npgpu::cuda::sort_detail {

struct RowOffset {
  std::int64_t n;
  __host__ __device__ std::int64_t operator()(std::int64_t r) const { return r * n; }
};

template <class K>
void radix_sort(const K* src, K* dst, std::int64_t* idx_out, std::int64_t rows, std::int64_t n,
                bool descending, int device, cudaStream_t s, int end_bit, int begin_bit) {
  const std::int64_t total = rows * n;
  const int bits = end_bit > 0 ? end_bit : static_cast<int>(sizeof(K) * 8);
  if (rows == 1 && idx_out && total <= INT32_MAX) {
    // Positions travel as int32 through the sort's passes and are widened once at the end: a third less
    // memory traffic per pass than int64 ones.
    DeviceBuffer pos(total * 8, device, s);  // int32 positions in, then out
    auto* pos_in = static_cast<std::int32_t*>(pos.data());
    auto* pos_out = pos_in + total;
    launch_iota32(pos_in, total, s);
    cub_run([&](void* t, std::size_t& b) {
      return descending ? cub::DeviceRadixSort::SortPairsDescending(t, b, src, dst, pos_in, pos_out, total, begin_bit,
                                                                    bits, s)
                        : cub::DeviceRadixSort::SortPairs(t, b, src, dst, pos_in, pos_out, total, begin_bit, bits, s);
    }, device, s);
    launch_widen(pos_out, idx_out, total, s);
    return;
  }
  DeviceBuffer iota(idx_out ? total * 8 : 8, device, s);
  auto* idx_in = static_cast<std::int64_t*>(iota.data());
  if (idx_out) launch_row_iota(idx_in, total, n, s);
  if (rows == 1) {
    cub_run([&](void* t, std::size_t& b) {
      if (idx_out)
        return descending ? cub::DeviceRadixSort::SortPairsDescending(t, b, src, dst, idx_in, idx_out, total,
                                                                      begin_bit, bits, s)
                          : cub::DeviceRadixSort::SortPairs(t, b, src, dst, idx_in, idx_out, total, begin_bit, bits, s);
      return descending ? cub::DeviceRadixSort::SortKeysDescending(t, b, src, dst, total, begin_bit, bits, s)
                        : cub::DeviceRadixSort::SortKeys(t, b, src, dst, total, begin_bit, bits, s);
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

#define NPGPU_INSTANTIATE_RADIX_SORT(K)                                                                 \
  template void radix_sort<K>(const K*, K*, std::int64_t*, std::int64_t, std::int64_t, bool, int, cudaStream_t, int, \
                              int);

}  // namespace npgpu::cuda::sort_detail
