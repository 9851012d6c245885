// Instantiations of the radix sorts for 4-byte keys (see sorting_radix.cuh).
#include <cuda_fp16.h>

#include <cstdint>

#include "cuda/sorting_radix_impl.cuh"

namespace npgpu::cuda::sort_detail {
NPGPU_INSTANTIATE_RADIX_SORT(std::uint32_t)
NPGPU_INSTANTIATE_RADIX_SORT(std::int32_t)
NPGPU_INSTANTIATE_RADIX_SORT(float)

}  // namespace npgpu::cuda::sort_detail
