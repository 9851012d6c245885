// CUDA backend of the elementwise operations: dispatch by arity to the loops compiled in
// elementwise_{unary,binary,ternary}.cu, and the converting copy.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/backends.hpp"
#include "common/convert.hpp"
#include "common/cuda_check.hpp"
#include "common/dispatch.hpp"
#include "common/strided.hpp"
#include "cuda/elementwise_kernels.cuh"

namespace npgpu::cuda {

namespace ew_detail {
extern template void run_elementwise<1>(ElementwiseOp, const Operand*, const ArrayView&, DType, StreamHandle);
extern template void run_elementwise<2>(ElementwiseOp, const Operand*, const ArrayView&, DType, StreamHandle);
extern template void run_elementwise<3>(ElementwiseOp, const Operand*, const ArrayView&, DType, StreamHandle);
}  // namespace ew_detail

void elementwise(ElementwiseOp op, const Operand* in, const ArrayView& out, DType compute, StreamHandle stream) {
  switch (elementwise_op_arity(op)) {
    case 1: ew_detail::run_elementwise<1>(op, in, out, compute, stream); break;
    case 2: ew_detail::run_elementwise<2>(op, in, out, compute, stream); break;
    default: ew_detail::run_elementwise<3>(op, in, out, compute, stream); break;
  }
}

namespace {

using detail::StridedPlan;
using ew_detail::grid_for;
using ew_detail::kThreads;

template <class T>
__global__ void convert_strided(StridedPlan<2> plan, char* dst, DType ddst, const char* src, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    std::int64_t off[2];
    plan.offsets(i, off);
    detail::store_as<T>(dst + off[0], ddst, *reinterpret_cast<const T*>(src + off[1]));
  }
}

}  // namespace

void copy(const ArrayView& src, const ArrayView& dst, StreamHandle stream) {
  auto s = static_cast<cudaStream_t>(stream);
  if (src.dtype == dst.dtype && src.is_c_contiguous() && dst.is_c_contiguous()) {
    NPGPU_CUDA_TRY(cudaMemcpyAsync(dst.data, src.data, dst.nbytes(), cudaMemcpyDeviceToDevice, s));
    return;
  }
  const std::int64_t n = dst.size();
  const ArrayView* views[2] = {&dst, &src};
  auto plan = detail::make_plan<2>(views);
  detail::dispatch_storage_dtype(src.dtype, [&](auto tag) {  // typed on the source: one conversion per element
    using T = typename decltype(tag)::type;
    convert_strided<T><<<grid_for(n), kThreads, 0, s>>>(plan, static_cast<char*>(dst.data), dst.dtype,
                                                        static_cast<const char*>(src.data), n);
  });
  NPGPU_CHECK_LAUNCH("copy");
}

}  // namespace npgpu::cuda
