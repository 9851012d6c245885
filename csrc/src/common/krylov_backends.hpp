#pragma once
// Internal: the CUDA and host implementations of the Krylov steps (csrc/src/krylov.cpp checks and
// dispatches), and the layout of the state array they share.
#include <algorithm>
#include <cstdint>

#include "common/complex.hpp"
#include "npgpu/krylov.hpp"

namespace npgpu {
namespace krylov_layout {
constexpr int kThreads = 256;
// Blocks of every pass over n elements (and so partial sums per pass): a fixed function of n, so that a
// step's reduction order, and its result, never changes between runs.
inline std::int64_t blocks(std::int64_t n) {
  return std::clamp<std::int64_t>((n + kThreads * 8 - 1) / (kThreads * 8), 1, 1024);
}
// state: [slot 0 | slot 1 | p^H q partials (re, im) per block | r^H r partials per block]
constexpr std::int64_t kProductPartials = 2 * kCgSlot;
inline std::int64_t norm_partials(std::int64_t n) { return kProductPartials + 2 * blocks(n); }
inline std::int64_t state_size(std::int64_t n) { return norm_partials(n) + blocks(n); }

// f(T{}) for the vectors' element type (dtype already checked: one of the four below).
template <class F>
void dispatch_vector(DType t, F&& f) {
  switch (t) {
    case DType::Float32: return f(float{});
    case DType::Float64: return f(double{});
    case DType::Complex64: return f(detail::complex64{});
    default: return f(detail::complex128{});
  }
}
}  // namespace krylov_layout

namespace cuda {
void cg_start(const ArrayView& r, double tol2, const ArrayView& state, StreamHandle stream);
void cg_step(const ArrayView& x, const ArrayView& r, const ArrayView& p, const ArrayView& q, const ArrayView& state,
             int parity, StreamHandle stream);
void cg_step_csr(const ArrayView& indptr, const ArrayView& indices, const ArrayView& data, const ArrayView& x,
                 const ArrayView& r, const ArrayView& p, const ArrayView& q, const ArrayView& state, int parity,
                 StreamHandle stream, std::int64_t longest_row);
}  // namespace cuda
namespace host {
void cg_start(const ArrayView& r, double tol2, const ArrayView& state, StreamHandle stream);
void cg_step(const ArrayView& x, const ArrayView& r, const ArrayView& p, const ArrayView& q, const ArrayView& state,
             int parity, StreamHandle stream);
}  // namespace host
}  // namespace npgpu
