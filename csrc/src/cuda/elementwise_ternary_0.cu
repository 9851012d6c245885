// The CUDA loops of the ternary elementwise operations, part 0 of 2 (see elementwise_kernels.cuh).
#include "cuda/elementwise_kernels.cuh"

namespace npgpu::cuda::ew_detail {
template void run_elementwise<3, 0>(ElementwiseOp, const Operand*, const ArrayView&, DType, StreamHandle);
}  // namespace npgpu::cuda::ew_detail
