#pragma once
// The fused vector work of Krylov solvers (npgpu.sparse.linalg): each step is a few passes over the vectors,
// and its scalars (dot products, step lengths, the convergence flag) stay in a float64 array on the vectors'
// device, so an iteration never waits for the host. Host backend: the same arithmetic in OpenMP loops.
// Dot products accumulate in float64 (complex128 for complex vectors) in a fixed order: the same inputs give
// the same bits on every run.
#include <cstdint>

#include "npgpu/export.hpp"
#include "npgpu/runtime.hpp"
#include "npgpu/view.hpp"

namespace npgpu {

// Conjugate gradients without a preconditioner. `state` is a C-contiguous float64 array of at least
// cg_state_size(n) elements on the vectors' device: two slots of kCgSlot values {rho = r^H r, done (0 or 1),
// tol2, unused}, one read and the other written by each step (so that no kernel rewrites a value its other
// blocks still read), then the steps' partial sums.
constexpr int kCgSlot = 4;
NPGPU_API std::int64_t cg_state_size(std::int64_t n);

// Fills slot 0: {r^H r, r^H r < tol2, tol2}. r as in cg_step.
NPGPU_API void cg_start(const ArrayView& r, double tol2, const ArrayView& state, StreamHandle stream);

// One iteration after the caller's q = A p, reading slot `parity` (0 or 1) and writing slot 1 - parity:
//   alpha = done ? 0 : rho / p^H q;  x += alpha p;  r -= alpha q;  rr = r^H r;  done' = done || rr < tol2;
//   p = r + (done' ? 0 : rr / rho) p;  slot 1 - parity = {rr, done', tol2}.
// x, r, p, q: 1-D with n elements, one dtype (float32, float64, complex64 or complex128), C-contiguous,
// four distinct buffers; x, r and p writable.
NPGPU_API void cg_step(const ArrayView& x, const ArrayView& r, const ArrayView& p, const ArrayView& q,
                       const ArrayView& state, int parity, StreamHandle stream);

// cg_step with the product included: q = A p for the n x n CSR matrix A = (indptr, indices, data) (as
// csr_matmul's, data of the vectors' dtype; q is written), then the step. Rows of at most 16 nonzeros
// (longest_row, as csr_matmul's) compute p^H q in the product's pass on a GPU.
NPGPU_API void cg_step_csr(const ArrayView& indptr, const ArrayView& indices, const ArrayView& data, const ArrayView& x,
                           const ArrayView& r, const ArrayView& p, const ArrayView& q, const ArrayView& state,
                           int parity, StreamHandle stream, std::int64_t longest_row = -1);

}  // namespace npgpu
