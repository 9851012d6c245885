// Instantiations of the radix sorts for 8-byte keys (see sorting_radix.cuh).
#include <cuda_fp16.h>

#include <cstdint>

#include "cuda/sorting_radix_impl.cuh"

namespace npgpu::cuda::sort_detail {
NPGPU_INSTANTIATE_RADIX_SORT(std::uint64_t)
NPGPU_INSTANTIATE_RADIX_SORT(std::int64_t)
NPGPU_INSTANTIATE_RADIX_SORT(double)

}  // namespace npgpu::cuda::sort_detail
