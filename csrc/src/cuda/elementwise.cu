// CUDA backend of the elementwise operations: dispatch by arity and part to the loops compiled in
// elementwise_{unary,binary,ternary}_<part>.cu, and the converting copy.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <utility>

#include "common/backends.hpp"
#include "common/convert.hpp"
#include "common/cuda_check.hpp"
#include "common/dispatch.hpp"
#include "common/strided.hpp"
#include "cuda/elementwise_kernels.cuh"

namespace npgpu::cuda {

namespace ew_detail {
#define NPGPU_EW_PART(A, P) \
  extern template void run_elementwise<A, P>(ElementwiseOp, const Operand*, const ArrayView&, DType, StreamHandle);
NPGPU_EW_PART(1, 0)
NPGPU_EW_PART(1, 1)
NPGPU_EW_PART(1, 2)
NPGPU_EW_PART(2, 0)
NPGPU_EW_PART(2, 1)
NPGPU_EW_PART(2, 2)
NPGPU_EW_PART(2, 3)
NPGPU_EW_PART(3, 0)
NPGPU_EW_PART(3, 1)
#undef NPGPU_EW_PART
static_assert(parts_of_arity(1) == 3 && parts_of_arity(2) == 4 && parts_of_arity(3) == 2,
              "one elementwise_<arity>_<part>.cu file per part, and a case below");

template <int Arity, int... P>
void run_part(ElementwiseOp op, const Operand* in, const ArrayView& out, DType compute, StreamHandle stream,
              std::integer_sequence<int, P...>) {
  const int part = static_cast<int>(op) % parts_of_arity(Arity);
  ((part == P ? run_elementwise<Arity, P>(op, in, out, compute, stream) : void()), ...);
}
}  // namespace ew_detail

void elementwise(ElementwiseOp op, const Operand* in, const ArrayView& out, DType compute, StreamHandle stream) {
  using ew_detail::parts_of_arity;
  switch (elementwise_op_arity(op)) {
    case 1: ew_detail::run_part<1>(op, in, out, compute, stream, std::make_integer_sequence<int, parts_of_arity(1)>{}); break;
    case 2: ew_detail::run_part<2>(op, in, out, compute, stream, std::make_integer_sequence<int, parts_of_arity(2)>{}); break;
    default: ew_detail::run_part<3>(op, in, out, compute, stream, std::make_integer_sequence<int, parts_of_arity(3)>{}); break;
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
