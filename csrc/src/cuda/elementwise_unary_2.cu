// The CUDA loops of the unary elementwise operations, part 2 of 3 (see elementwise_kernels.cuh).
#include "cuda/elementwise_kernels.cuh"

namespace npgpu::cuda::ew_detail {
template void run_elementwise<1, 2>(ElementwiseOp, const Operand*, const ArrayView&, DType, StreamHandle);
}  // namespace npgpu::cuda::ew_detail
