// Instantiations of the radix sorts for 1- and 2-byte keys (see sorting_radix.cuh).
#include <cuda_fp16.h>

#include <cstdint>

#include "cuda/sorting_radix_impl.cuh"

namespace npgpu::cuda::sort_detail {
NPGPU_INSTANTIATE_RADIX_SORT(std::uint8_t)
NPGPU_INSTANTIATE_RADIX_SORT(std::int8_t)
NPGPU_INSTANTIATE_RADIX_SORT(std::uint16_t)
NPGPU_INSTANTIATE_RADIX_SORT(std::int16_t)
NPGPU_INSTANTIATE_RADIX_SORT(__half)

}  // namespace npgpu::cuda::sort_detail
