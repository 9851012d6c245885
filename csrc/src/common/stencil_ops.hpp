#pragma once
// Internal: the per-cell math of the 2-D stencils, one definition used by the CUDA kernels and the host loops,
// and the backend entry points csrc/src/stencil.cpp dispatches to.
#include <cstdint>

#include "common/hd.hpp"
#include "npgpu/stencil.hpp"

namespace npgpu::detail {

// 5-point Laplacian with the sign of the reference page: 4 * center minus the neighbours.
template <class T>
NPGPU_HD T laplacian5(T c, T n, T s, T w, T e) {
  return T(4) * c - n - s - w - e;
}

// One explicit diffusion update of a cell from its Laplacian.
template <class T>
NPGPU_HD T diffuse(T c, T lap, T coeff) {
  return c - coeff * lap;
}

// The value of the ghost cell beyond an edge for the non-periodic boundaries: 0, or the edge cell itself.
template <Boundary B, class T>
NPGPU_HD T ghost(T edge) {
  if constexpr (B == Boundary::Reflect) return edge;
  else return T(0);
}

// Index of the neighbour at i + d (d = -1 or +1) along an axis of n cells, wrapping (periodic).
NPGPU_HD std::int64_t wrap_index(std::int64_t i, std::int64_t n) {
  i %= n;
  return i < 0 ? i + n : i;
}

}  // namespace npgpu::detail

namespace npgpu {

// One pass of `m` steps over C-contiguous rows x cols buffers: dst = f[m] from src = f[0]; src and dst distinct.
// lap (nullable, contiguous) receives laplacian(f[m-1]). m = 0 with lap: lap = laplacian(src), dst unused.
// A backend may do at most max_steps_per_pass() steps per call.
#define NPGPU_STENCIL_BACKEND_DECLS                                                                          \
  void diffusion_pass(const void* src, void* dst, void* lap, DType dtype, std::int64_t rows,              \
                      std::int64_t cols, int m, double coeff, Boundary b, StreamHandle stream);           \
  int max_steps_per_pass(DType dtype, std::int64_t rows, std::int64_t cols, std::int64_t steps);

namespace cuda {
NPGPU_STENCIL_BACKEND_DECLS
}
namespace host {
NPGPU_STENCIL_BACKEND_DECLS
}

#undef NPGPU_STENCIL_BACKEND_DECLS

}  // namespace npgpu
