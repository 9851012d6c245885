// Host backend of the 2-D stencils: one step per pass, rows split over OpenMP threads, the same per-cell math
// as the CUDA kernels (common/stencil_ops.hpp). The rows above the first and below the last come from the
// boundary (a row of zeros, the edge row itself, or the opposite edge), so the inner loop has no branches.
#include <cstdint>
#include <vector>

#include "common/backends.hpp"
#include "common/stencil_ops.hpp"

namespace npgpu::host {
namespace {

using detail::diffuse;
using detail::ghost;
using detail::laplacian5;

template <class T, Boundary B>
void step(const T* src, T* dst, T* lap, std::int64_t rows, std::int64_t cols, T coeff) {
  std::vector<T> zeros(B == Boundary::Zero ? static_cast<std::size_t>(cols) : 0, T(0));
  const T* zero_row = zeros.data();
#pragma omp parallel for schedule(static) if (rows * cols > (1 << 15))
  for (std::int64_t i = 0; i < rows; ++i) {
    const T* mid = src + i * cols;
    const T* up;
    const T* dn;
    if (B == Boundary::Periodic) {
      up = src + (i > 0 ? i - 1 : rows - 1) * cols;
      dn = src + (i < rows - 1 ? i + 1 : 0) * cols;
    } else {
      const T* edge = B == Boundary::Zero ? zero_row : mid;
      up = i > 0 ? mid - cols : edge;
      dn = i < rows - 1 ? mid + cols : edge;
    }
    T* d = dst ? dst + i * cols : nullptr;
    T* l = lap ? lap + i * cols : nullptr;
    auto edge_cell = [&](std::int64_t j) {
      const T c = mid[j];
      T w, e;
      if (B == Boundary::Periodic) {
        w = mid[j > 0 ? j - 1 : cols - 1];
        e = mid[j < cols - 1 ? j + 1 : 0];
      } else {
        w = j > 0 ? mid[j - 1] : ghost<B>(c);
        e = j < cols - 1 ? mid[j + 1] : ghost<B>(c);
      }
      const T v = laplacian5(c, up[j], dn[j], w, e);
      if (l) l[j] = v;
      if (d) d[j] = diffuse(c, v, coeff);
    };
    edge_cell(0);
    if (d && l) {
#pragma omp simd
      for (std::int64_t j = 1; j < cols - 1; ++j) {
        const T v = laplacian5(mid[j], up[j], dn[j], mid[j - 1], mid[j + 1]);
        l[j] = v;
        d[j] = diffuse(mid[j], v, coeff);
      }
    } else if (d) {
#pragma omp simd
      for (std::int64_t j = 1; j < cols - 1; ++j)
        d[j] = diffuse(mid[j], laplacian5(mid[j], up[j], dn[j], mid[j - 1], mid[j + 1]), coeff);
    } else {
#pragma omp simd
      for (std::int64_t j = 1; j < cols - 1; ++j) l[j] = laplacian5(mid[j], up[j], dn[j], mid[j - 1], mid[j + 1]);
    }
    if (cols > 1) edge_cell(cols - 1);
  }
}

template <class T>
void step_any(const void* src, void* dst, void* lap, std::int64_t rows, std::int64_t cols, double coeff,
              Boundary b) {
  const T* s = static_cast<const T*>(src);
  T* d = static_cast<T*>(dst);
  T* l = static_cast<T*>(lap);
  const T k = static_cast<T>(coeff);
  switch (b) {
    case Boundary::Zero: step<T, Boundary::Zero>(s, d, l, rows, cols, k); break;
    case Boundary::Periodic: step<T, Boundary::Periodic>(s, d, l, rows, cols, k); break;
    case Boundary::Reflect: step<T, Boundary::Reflect>(s, d, l, rows, cols, k); break;
  }
}

}  // namespace

int max_steps_per_pass(DType, std::int64_t, std::int64_t, std::int64_t) { return 1; }

void diffusion_pass(const void* src, void* dst, void* lap, DType dtype, std::int64_t rows, std::int64_t cols,
                    int m, double coeff, Boundary b, StreamHandle) {
  // m is 0 (Laplacian only) or 1: max_steps_per_pass says 1.
  void* d = m == 0 ? nullptr : dst;
  if (dtype == DType::Float32) step_any<float>(src, d, lap, rows, cols, coeff, b);
  else step_any<double>(src, d, lap, rows, cols, coeff, b);
}

}  // namespace npgpu::host
