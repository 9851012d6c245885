#pragma once
// Internal: the two implementations of each operation. The public functions (csrc/src/*.cpp) validate their
// arguments once, then call npgpu::cuda::X for device views or npgpu::host::X for host views.
#include "npgpu/elementwise.hpp"
#include "npgpu/launch.hpp"
#include "npgpu/runtime.hpp"
#include "npgpu/view.hpp"

namespace npgpu {

#define NPGPU_BACKEND_DECLS                                                                           \
  /* operands already of the loop's input types, out of its result type */                         \
  void elementwise(ElementwiseOp op, const Operand* in, const ArrayView& out, DType compute,            \
                   StreamHandle stream);                                                              \
  void copy(const ArrayView& src, const ArrayView& dst, StreamHandle stream);                     \
  void launch_indices(const Dim3& grid, const Dim3& block, const ArrayView& thread_idx,               \
                      const ArrayView& block_idx, const ArrayView& block_dim, const ArrayView& grid_dim, \
                      StreamHandle stream);

namespace cuda {
NPGPU_BACKEND_DECLS
double empty_launch_host_us(int launches);  // no host counterpart: it measures the CUDA launch path
}
namespace host {
NPGPU_BACKEND_DECLS
}

#undef NPGPU_BACKEND_DECLS

}  // namespace npgpu
