#pragma once
// Dense factorisations of device matrices through cuSOLVER (opened at run time from the nvidia-cusolver wheel
// or the CUDA toolkit; one handle per (device, thread), workspaces from npgpu's pool, on the caller's
// stream). Every function takes a batch of COLUMN-MAJOR matrices stored one after another: a C-contiguous
// array of shape (batch, cols, rows) holds `batch` matrices of rows x cols (the Python layer passes a
// transposed copy, or uses the transpose algebraically). dtypes float32, float64, complex64, complex128.
// `info` is an int32 array of `batch` elements, LAPACK's per-matrix status, written on the device and not
// read back (reading it is the caller's synchronisation). Host arrays are numpy.linalg's work in the
// Python package: these functions take device arrays only.
#include <cstdint>

#include "npgpu/export.hpp"
#include "npgpu/runtime.hpp"
#include "npgpu/view.hpp"

namespace npgpu {

// Cholesky factorisation in place of n x n Hermitian matrices: lower (A = L L^H) or upper (A = U^H U) in
// the column-major sense; the other triangle is set to zero. info > 0: not positive definite.
NPGPU_API void cholesky(const ArrayView& a, std::int64_t n, bool lower, const ArrayView& info,
                        StreamHandle stream);

// Solves A X = B with cholesky()'s factor of A (`lower` as it was computed), in place of `b` (batch, nrhs, n:
// n x nrhs column-major).
NPGPU_API void cholesky_solve(const ArrayView& factor, const ArrayView& b, std::int64_t n, std::int64_t nrhs,
                              bool lower, StreamHandle stream);

// LU factorisation with partial pivoting in place of n x n matrices; `pivots` int64 (batch, n), 1-based
// (LAPACK's getrf). info > 0: an exactly zero pivot (singular).
NPGPU_API void lu_factor(const ArrayView& a, std::int64_t n, const ArrayView& pivots, const ArrayView& info,
                         StreamHandle stream);

// LU factorisation without pivoting, in place, of n x n column-major matrices (cuSOLVER's getrf given no
// pivot array): only for matrices that need no pivoting, such as butterfly_matrix's. info > 0: an exactly
// zero pivot. The factors solve through lu_solve with the identity pivots 1..n.
NPGPU_API void lu_factor_unpivoted(const ArrayView& a, std::int64_t n, const ArrayView& info, StreamHandle stream);

// Random butterfly transformation for solving A x = b without pivoting (Parker 1995; Baboulin et al. 2013):
// W = U^T [A 0; 0 I] V of size m = butterfly_size(n), U and V fixed random butterflies of depth 2, so that
// W y = U^T [b; 0] gives x as the first n rows of V y.
inline constexpr std::int64_t butterfly_size(std::int64_t n) { return (n + 3) / 4 * 4; }

// The butterflies work in float64 for float32/float64 input and in complex128 for complex64/complex128.
// w (m x m, C order; read column-major it is W^T) from a (n x n, C order).
NPGPU_API void butterfly_matrix(const ArrayView& a, std::int64_t n, const ArrayView& w, StreamHandle stream);

// y (nrhs x m, C order: the column-major m x nrhs right-hand sides of W) = (U^T [b; 0])^T for b (n x nrhs,
// C order).
NPGPU_API void butterfly_rhs(const ArrayView& b, std::int64_t n, std::int64_t nrhs, const ArrayView& y,
                             StreamHandle stream);

// x (n x nrhs, C order, y's dtype) = the first n rows of V y^T, for y (nrhs x m float64 or complex128, C order).
NPGPU_API void butterfly_solution(const ArrayView& y, std::int64_t n, std::int64_t nrhs, const ArrayView& x,
                                  StreamHandle stream);

// Solves op(A) X = B with lu_factor's output, in place of `b` (batch, nrhs, n: n x nrhs column-major);
// op is A itself, its transpose (`transpose`) — the transpose of a C-ordered matrix's factors solves the
// C-ordered system.
NPGPU_API void lu_solve(const ArrayView& lu, const ArrayView& pivots, const ArrayView& b, std::int64_t n,
                        std::int64_t nrhs, bool transpose, StreamHandle stream);

// Eigenvalues (ascending, real: `w` (batch, n) of the real dtype) and, with `vectors`, eigenvectors in place
// of `a` (columns) of n x n Hermitian matrices, reading the `lower` or upper triangle. info > 0: no
// convergence.
NPGPU_API void hermitian_eigen(const ArrayView& a, std::int64_t n, bool lower, bool vectors, const ArrayView& w,
                               const ArrayView& info, StreamHandle stream);

// Eigenvalues (`w` (batch, n), complex64 for float32/complex64 matrices, complex128 otherwise) and, with `vr`
// non-null, right eigenvectors (`vr` (batch, n, n) of a's dtype, column-major columns, each of norm 1 with its
// largest component real) of general n x n column-major matrices, `a` destroyed. For real matrices the
// eigenvalues are computed in real arithmetic, and a complex pair w[j], w[j + 1] = conj(w[j]) (imaginary part
// of w[j] positive) has vectors vr[:, j] +- i vr[:, j + 1], as in LAPACK's geev. info > 0: no convergence.
// Throws Unavailable where the loaded cuSOLVER has no cusolverDnXgeev (before cuSOLVER 11.7). The work runs on
// `stream`; the host work area makes the call wait for the device.
NPGPU_API void general_eigen(const ArrayView& a, std::int64_t n, const ArrayView& w, const ArrayView* vr,
                             const ArrayView& info, StreamHandle stream);

// Singular values (descending: `s` (batch, n) of the real dtype) of m x n matrices with m >= n, `a`
// destroyed; with u and vt non-null, U (batch, m, m) or (batch, n, m) when not `full` (column-major m x m /
// m x n) and V^H (batch, n, n). info > 0: no convergence.
NPGPU_API void svd(const ArrayView& a, std::int64_t m, std::int64_t n, bool full, const ArrayView& s,
                   const ArrayView* u, const ArrayView* vt, const ArrayView& info, StreamHandle stream);

// Householder QR in place of m x n matrices (LAPACK's geqrf): R on and above the diagonal, the reflectors
// below it, their scalars in `tau` (batch, min(m, n)). info < 0 only for a bad argument.
NPGPU_API void qr_factor(const ArrayView& a, std::int64_t m, std::int64_t n, const ArrayView& tau,
                         const ArrayView& info, StreamHandle stream);

// The first `ncols` columns of Q = H_1 ... H_k (LAPACK's orgqr / ungqr), in place of `a`, m x ncols matrices
// whose first k columns hold qr_factor's reflectors (k <= ncols <= m; sizes below 2^31).
NPGPU_API void qr_q(const ArrayView& a, std::int64_t m, std::int64_t ncols, std::int64_t k, const ArrayView& tau,
                    StreamHandle stream);

// Solves A X = B for a stack of small C-ordered (row-major) systems, one GPU thread per system, LU with
// partial pivoting in registers (the first largest modulus of each column, as LAPACK's getrf): a (batch, n,
// n), b and x (batch, n, nrhs), C-contiguous, float32 or float64, n <= kSmallSolveMaxN. info (batch,)
// int32: 0, or j + 1 for the first exactly zero pivot (x then holds inf/NaN). For stacks of small matrices,
// where one library call per matrix (or per step) costs far more than the arithmetic.
inline constexpr std::int64_t kSmallSolveMaxN = 16;
NPGPU_API void solve_small_batched(const ArrayView& a, const ArrayView& b, const ArrayView& x,
                                   const ArrayView& info, StreamHandle stream);

}  // namespace npgpu
