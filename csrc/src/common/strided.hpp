#pragma once
// Internal: iteration plans for elementwise operations over strided views. coalesce() merges dimensions
// that are contiguous with each other in every operand, so a C-contiguous case becomes 1-D and general
// views need as few div/mod steps per element as possible.
#include <cstdint>

#include "common/hd.hpp"
#include "npgpu/errors.hpp"
#include "npgpu/view.hpp"

namespace npgpu::detail {

// a / b for non-negative 64-bit indices, through 32-bit division when both fit: a GPU has no 64-bit divide
// instruction (its emulation is ~70 instructions), and index arithmetic is a large part of what a strided
// elementwise kernel executes per 16 bytes moved.
NPGPU_HD std::int64_t index_div(std::int64_t a, std::int64_t b) {
  if (((static_cast<std::uint64_t>(a) | static_cast<std::uint64_t>(b)) >> 32) == 0)
    return static_cast<std::uint32_t>(a) / static_cast<std::uint32_t>(b);
  return a / b;
}

template <int N>
struct StridedPlan {
  int ndim = 0;
  std::int64_t shape[kMaxDims];
  std::int64_t strides[N][kMaxDims];  // bytes

  // Byte offsets of linear element `i` (C order over shape) in each operand.
  NPGPU_HD void offsets(std::int64_t i, std::int64_t* off) const {
    for (int k = 0; k < N; ++k) off[k] = 0;
    for (int d = ndim - 1; d > 0; --d) {
      const std::int64_t n = shape[d];
      const std::int64_t q = index_div(i, n);
      const std::int64_t r = i - q * n;
      for (int k = 0; k < N; ++k) off[k] += r * strides[k][d];
      i = q;
    }
    for (int k = 0; k < N; ++k) off[k] += i * strides[k][0];  // i < shape[0]: no division
  }

  // Byte offsets of the first element of row `row`, a row being the innermost dimension.
  NPGPU_HD void row_offsets(std::int64_t row, std::int64_t* off) const {
    for (int k = 0; k < N; ++k) off[k] = 0;
    if (ndim < 2) return;
    for (int d = ndim - 2; d > 0; --d) {
      const std::int64_t n = shape[d];
      const std::int64_t q = index_div(row, n);
      const std::int64_t r = row - q * n;
      for (int k = 0; k < N; ++k) off[k] += r * strides[k][d];
      row = q;
    }
    for (int k = 0; k < N; ++k) off[k] += row * strides[k][0];  // row < shape[0]: no division
  }

  std::int64_t inner() const { return shape[ndim - 1]; }
  std::int64_t rows() const {
    std::int64_t r = 1;
    for (int d = 0; d + 1 < ndim; ++d) r *= shape[d];
    return r;
  }
};

// Views must share `shape` (the output's). Dimensions of extent 1 are dropped, adjacent dimensions merged
// where every operand steps through them as one.
template <int N>
StridedPlan<N> make_plan(const ArrayView* const* views) {
  const ArrayView& out = *views[0];
  StridedPlan<N> p;
  for (int d = 0; d < out.ndim; ++d) {
    if (out.shape[d] == 1) continue;
    const int j = p.ndim;
    if (j > 0) {
      bool merge = true;
      for (int k = 0; k < N; ++k)
        if (p.strides[k][j - 1] != views[k]->strides[d] * out.shape[d]) merge = false;
      if (merge) {
        p.shape[j - 1] *= out.shape[d];
        for (int k = 0; k < N; ++k) p.strides[k][j - 1] = views[k]->strides[d];
        continue;
      }
    }
    p.shape[j] = out.shape[d];
    for (int k = 0; k < N; ++k) p.strides[k][j] = views[k]->strides[d];
    p.ndim = j + 1;
  }
  if (p.ndim == 0) {  // one element: a 1-D plan of extent 1
    p.ndim = 1;
    p.shape[0] = 1;
    for (int k = 0; k < N; ++k) p.strides[k][0] = 0;
  }
  return p;
}

// Throws unless every view in `views` has exactly the shape of views[0].
void check_same_shape(const ArrayView* const* views, int n, const char* what);
// Throws unless all views are on one device (or all on the host); returns it.
int common_device(const ArrayView* const* views, int n, const char* what);

}  // namespace npgpu::detail
