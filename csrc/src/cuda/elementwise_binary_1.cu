// The CUDA loops of the binary elementwise operations, part 1 of 4 (see elementwise_kernels.cuh).
#include "cuda/elementwise_kernels.cuh"

namespace npgpu::cuda::ew_detail {
template void run_elementwise<2, 1>(ElementwiseOp, const Operand*, const ArrayView&, DType, StreamHandle);
}  // namespace npgpu::cuda::ew_detail
