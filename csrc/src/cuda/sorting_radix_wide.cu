// Instantiations of the radix sorts for 8-byte keys (see sorting_radix.cuh).
#include <cuda_fp16.h>

#include <cstdint>

#include "cuda/sorting_radix_impl.cuh"

namespace npgpu::cuda::sort_detail {
NPGPU_INSTANTIATE_RADIX_SORT(std::uint64_t)
NPGPU_INSTANTIATE_RADIX_SORT(std::int64_t)
NPGPU_INSTANTIATE_RADIX_SORT(double)

std::uint64_t* sort_words(std::uint64_t* words, std::uint64_t* alt, std::int64_t n, int begin_bit, int end_bit,
                          int device, cudaStream_t s) {
  cub::DoubleBuffer<std::uint64_t> buffers(words, alt);
  cub_run([&](void* t, std::size_t& b) {
    return cub::DeviceRadixSort::SortKeys(t, b, buffers, n, begin_bit, end_bit, s);
  }, device, s);
  return buffers.Current();
}

}  // namespace npgpu::cuda::sort_detail
