// Argument checks and dispatch of the dense linear algebra family (cuSOLVER in cuda/linalg.cu; host arrays
// are numpy.linalg's work in the Python package).
#include "npgpu/linalg.hpp"

#include <algorithm>
#include <string>

#include "common/lazy_message.hpp"
#include "npgpu/errors.hpp"

namespace npgpu {

namespace cuda {
void cholesky(const ArrayView& a, std::int64_t n, std::int64_t batch, bool lower, const ArrayView& info,
              StreamHandle stream);
void cholesky_solve(const ArrayView& f, const ArrayView& b, std::int64_t n, std::int64_t nrhs, std::int64_t batch,
                    bool lower, StreamHandle stream);
void lu_factor(const ArrayView& a, std::int64_t n, std::int64_t batch, const ArrayView& pivots,
               const ArrayView& info, StreamHandle stream);
void lu_solve(const ArrayView& lu, const ArrayView& pivots, const ArrayView& b, std::int64_t n, std::int64_t nrhs,
              std::int64_t batch, bool transpose, StreamHandle stream);
void hermitian_eigen(const ArrayView& a, std::int64_t n, std::int64_t batch, bool lower, bool vectors,
                     const ArrayView& w, const ArrayView& info, StreamHandle stream);
void butterfly_matrix(const ArrayView& a, std::int64_t n, const ArrayView& w, StreamHandle stream);
void butterfly_rhs(const ArrayView& b, std::int64_t n, std::int64_t nrhs, const ArrayView& y, StreamHandle stream);
void butterfly_solution(const ArrayView& y, std::int64_t n, std::int64_t nrhs, const ArrayView& x,
                        StreamHandle stream);
void solve_small_batched(const ArrayView& a, const ArrayView& b, const ArrayView& x, const ArrayView& info,
                         StreamHandle stream);
void svd(const ArrayView& a, std::int64_t m, std::int64_t n, std::int64_t batch, bool full, const ArrayView& s,
         const ArrayView* u, const ArrayView* vt, const ArrayView& info, StreamHandle stream);
void general_eigen(const ArrayView& a, std::int64_t n, std::int64_t batch, const ArrayView& w, const ArrayView* vr,
                   const ArrayView& info, StreamHandle stream);
void qr_factor(const ArrayView& a, std::int64_t m, std::int64_t n, std::int64_t batch, const ArrayView& tau,
               const ArrayView& info, StreamHandle stream);
void qr_q(const ArrayView& a, std::int64_t m, std::int64_t ncols, std::int64_t k, std::int64_t batch,
          const ArrayView& tau, StreamHandle stream);
}  // namespace cuda

namespace {

template <class Msg>
void require(bool ok, const char* fn, Msg&& what) {
  if (!ok) throw InvalidArgument(std::string(fn) + ": " + detail::message_text(what));
}

bool is_float_type(DType d) {
  return d == DType::Float32 || d == DType::Float64 || d == DType::Complex64 || d == DType::Complex128;
}

DType real_of(DType d) {
  return d == DType::Complex64 ? DType::Float32 : d == DType::Complex128 ? DType::Float64 : d;
}

DType complex_of(DType d) {
  return d == DType::Float32 || d == DType::Complex64 ? DType::Complex64 : DType::Complex128;
}

// The number of rows x cols matrices `a` holds, after the checks every function shares.
std::int64_t batch_of(const char* fn, const ArrayView& a, std::int64_t rows, std::int64_t cols) {
  require(!a.on_host(), fn, "takes device arrays (npgpu.linalg uses numpy.linalg for host arrays)");
  require(is_float_type(a.dtype), fn,
          [&] { return "needs float32, float64, complex64 or complex128, got " + a.describe(); });
  require(a.is_c_contiguous(), fn, "the matrices must be one contiguous column-major batch");
  require(rows > 0 && cols > 0, fn, "matrices must not be empty");
  require(!a.readonly, fn, "the matrices are written in place but read-only");
  require(a.size() % (rows * cols) == 0, fn, [&] {
    return a.describe() + " does not hold whole " + std::to_string(rows) + " x " + std::to_string(cols) + " matrices";
  });
  return a.size() / (rows * cols);
}

void require_companion(const char* fn, const ArrayView& a, const ArrayView& x, DType dtype, std::int64_t size,
                       const char* name) {
  require(x.device == a.device, fn, [&] { return std::string(name) + " is on another device"; });
  require(x.dtype == dtype, fn,
          [&] { return std::string(name) + " must be " + dtype_name(dtype) + ", got " + x.describe(); });
  require(x.is_c_contiguous() && x.size() == size && !x.readonly, fn, [&] {
    return std::string(name) + " must be a writeable contiguous array of " + std::to_string(size) + " elements";
  });
}

}  // namespace

void cholesky(const ArrayView& a, std::int64_t n, bool lower, const ArrayView& info, StreamHandle stream) {
  const std::int64_t batch = batch_of("cholesky", a, n, n);
  require_companion("cholesky", a, info, DType::Int32, batch, "info");
  activate_device(a.device);
  cuda::cholesky(a, n, batch, lower, info, stream);
}

void lu_factor(const ArrayView& a, std::int64_t n, const ArrayView& pivots, const ArrayView& info,
               StreamHandle stream) {
  const std::int64_t batch = batch_of("lu_factor", a, n, n);
  require_companion("lu_factor", a, pivots, DType::Int64, batch * n, "pivots");
  require_companion("lu_factor", a, info, DType::Int32, batch, "info");
  activate_device(a.device);
  cuda::lu_factor(a, n, batch, pivots, info, stream);
}

void lu_factor_unpivoted(const ArrayView& a, std::int64_t n, const ArrayView& info, StreamHandle stream) {
  const std::int64_t batch = batch_of("lu_factor_unpivoted", a, n, n);
  require_companion("lu_factor_unpivoted", a, info, DType::Int32, batch, "info");
  activate_device(a.device);
  cuda::lu_factor(a, n, batch, ArrayView{}, info, stream);
}

namespace {

// A C-ordered device matrix of rows x cols for the butterfly functions: any float or complex dtype
// (`wide` false), or the float64 / complex128 one of `kind`'s (`wide` true).
void require_butterfly_matrix(const char* fn, const ArrayView& x, const char* name, std::int64_t rows,
                              std::int64_t cols, bool wide, DType kind, bool written) {
  require(!x.on_host(), fn, "takes device arrays");
  const DType want = kind == DType::Complex64 || kind == DType::Complex128 ? DType::Complex128 : DType::Float64;
  require(wide ? x.dtype == want : is_float_type(x.dtype), fn, [&] {
    return std::string(name) + " must be " + (wide ? dtype_name(want) : "float32, float64, complex64 or complex128") +
           ", got " + x.describe();
  });
  require(x.is_c_contiguous() && x.ndim == 2 && x.shape[0] == rows && x.shape[1] == cols, fn, [&] {
    return std::string(name) + " must be a contiguous " + std::to_string(rows) + " x " + std::to_string(cols) +
           " matrix, got " + x.describe();
  });
  require(!written || !x.readonly, fn, [&] { return std::string(name) + " is written but read-only"; });
}

}  // namespace

void butterfly_matrix(const ArrayView& a, std::int64_t n, const ArrayView& w, StreamHandle stream) {
  require(n > 0, "butterfly_matrix", "n must be positive");
  const std::int64_t m = butterfly_size(n);
  require_butterfly_matrix("butterfly_matrix", a, "a", n, n, false, a.dtype, false);
  require_butterfly_matrix("butterfly_matrix", w, "w", m, m, true, a.dtype, true);
  require(w.device == a.device, "butterfly_matrix", "w is on another device");
  activate_device(a.device);
  cuda::butterfly_matrix(a, n, w, stream);
}

void butterfly_rhs(const ArrayView& b, std::int64_t n, std::int64_t nrhs, const ArrayView& y, StreamHandle stream) {
  require(n > 0 && nrhs > 0, "butterfly_rhs", "n and nrhs must be positive");
  require_butterfly_matrix("butterfly_rhs", b, "b", n, nrhs, false, b.dtype, false);
  require_butterfly_matrix("butterfly_rhs", y, "y", nrhs, butterfly_size(n), true, b.dtype, true);
  require(y.device == b.device, "butterfly_rhs", "y is on another device");
  activate_device(b.device);
  cuda::butterfly_rhs(b, n, nrhs, y, stream);
}

void butterfly_solution(const ArrayView& y, std::int64_t n, std::int64_t nrhs, const ArrayView& x,
                        StreamHandle stream) {
  require(n > 0 && nrhs > 0, "butterfly_solution", "n and nrhs must be positive");
  require_butterfly_matrix("butterfly_solution", y, "y", nrhs, butterfly_size(n), true, y.dtype, false);
  require_butterfly_matrix("butterfly_solution", x, "x", n, nrhs, true, y.dtype, true);
  require(x.device == y.device, "butterfly_solution", "x is on another device");
  activate_device(y.device);
  cuda::butterfly_solution(y, n, nrhs, x, stream);
}

void cholesky_solve(const ArrayView& factor, const ArrayView& b, std::int64_t n, std::int64_t nrhs, bool lower,
                    StreamHandle stream) {
  const std::int64_t batch = batch_of("cholesky_solve", factor, n, n);
  require(batch_of("cholesky_solve", b, n, nrhs) == batch, "cholesky_solve",
          "b does not hold one right-hand side per matrix");
  require(b.dtype == factor.dtype && b.device == factor.device, "cholesky_solve",
          "b must have the factor's dtype and device");
  activate_device(factor.device);
  cuda::cholesky_solve(factor, b, n, nrhs, batch, lower, stream);
}

void lu_solve(const ArrayView& lu, const ArrayView& pivots, const ArrayView& b, std::int64_t n, std::int64_t nrhs,
              bool transpose, StreamHandle stream) {
  const std::int64_t batch = batch_of("lu_solve", lu, n, n);
  require(batch_of("lu_solve", b, n, nrhs) == batch, "lu_solve", "b does not hold one right-hand side per matrix");
  require(b.dtype == lu.dtype && b.device == lu.device, "lu_solve", "b must have the factors' dtype and device");
  require(pivots.dtype == DType::Int64 && pivots.size() == batch * n && pivots.device == lu.device &&
              pivots.is_c_contiguous(),
          "lu_solve", "pivots must be lu_factor's int64 (batch, n) array");
  activate_device(lu.device);
  cuda::lu_solve(lu, pivots, b, n, nrhs, batch, transpose, stream);
}

void solve_small_batched(const ArrayView& a, const ArrayView& b, const ArrayView& x, const ArrayView& info,
                         StreamHandle stream) {
  const char* fn = "solve_small_batched";
  require(a.dtype == DType::Float32 || a.dtype == DType::Float64, fn, "needs float32 or float64 matrices");
  require(a.ndim == 3 && a.shape[1] == a.shape[2] && a.is_c_contiguous(), fn,
          "a must be a C-contiguous (batch, n, n) stack");
  const std::int64_t batch = a.shape[0], n = a.shape[1];
  require(n >= 1 && n <= kSmallSolveMaxN, fn,
          [&] { return "n must be between 1 and " + std::to_string(kSmallSolveMaxN); });
  require(b.ndim == 3 && b.shape[0] == batch && b.shape[1] == n && b.is_c_contiguous() && b.dtype == a.dtype, fn,
          "b must be a C-contiguous (batch, n, nrhs) stack of a's dtype");
  require(x.ndim == 3 && x.shape[0] == batch && x.shape[1] == n && x.shape[2] == b.shape[2] &&
              x.is_c_contiguous() && x.dtype == a.dtype && !x.readonly,
          fn, "x must be a writeable C-contiguous array of b's shape and dtype");
  require_companion(fn, a, info, DType::Int32, batch, "info");
  require(a.device != kHostDevice && b.device == a.device && x.device == a.device, fn,
          "takes device arrays of one device");
  if (batch == 0 || b.shape[2] == 0) return;
  activate_device(a.device);
  cuda::solve_small_batched(a, b, x, info, stream);
}

void hermitian_eigen(const ArrayView& a, std::int64_t n, bool lower, bool vectors, const ArrayView& w,
                     const ArrayView& info, StreamHandle stream) {
  const std::int64_t batch = batch_of("hermitian_eigen", a, n, n);
  require_companion("hermitian_eigen", a, w, real_of(a.dtype), batch * n, "w");
  require_companion("hermitian_eigen", a, info, DType::Int32, batch, "info");
  activate_device(a.device);
  cuda::hermitian_eigen(a, n, batch, lower, vectors, w, info, stream);
}

void general_eigen(const ArrayView& a, std::int64_t n, const ArrayView& w, const ArrayView* vr, const ArrayView& info,
                   StreamHandle stream) {
  const std::int64_t batch = batch_of("general_eigen", a, n, n);
  require_companion("general_eigen", a, w, complex_of(a.dtype), batch * n, "w");
  if (vr) require_companion("general_eigen", a, *vr, a.dtype, batch * n * n, "vr");
  require_companion("general_eigen", a, info, DType::Int32, batch, "info");
  activate_device(a.device);
  cuda::general_eigen(a, n, batch, w, vr, info, stream);
}

void svd(const ArrayView& a, std::int64_t m, std::int64_t n, bool full, const ArrayView& s, const ArrayView* u,
         const ArrayView* vt, const ArrayView& info, StreamHandle stream) {
  const std::int64_t batch = batch_of("svd", a, m, n);
  require(m >= n, "svd", "needs rows >= columns (the caller transposes wide matrices)");
  require_companion("svd", a, s, real_of(a.dtype), batch * n, "s");
  require_companion("svd", a, info, DType::Int32, batch, "info");
  require((u == nullptr) == (vt == nullptr), "svd", "u and vt are both given or both omitted");
  if (u) {
    require_companion("svd", a, *u, a.dtype, batch * m * (full ? m : n), "u");
    require_companion("svd", a, *vt, a.dtype, batch * n * n, "vt");
  }
  activate_device(a.device);
  cuda::svd(a, m, n, batch, full, s, u, vt, info, stream);
}

void qr_factor(const ArrayView& a, std::int64_t m, std::int64_t n, const ArrayView& tau, const ArrayView& info,
               StreamHandle stream) {
  const std::int64_t batch = batch_of("qr_factor", a, m, n);
  require_companion("qr_factor", a, tau, a.dtype, batch * std::min(m, n), "tau");
  require_companion("qr_factor", a, info, DType::Int32, batch, "info");
  activate_device(a.device);
  cuda::qr_factor(a, m, n, batch, tau, info, stream);
}

void qr_q(const ArrayView& a, std::int64_t m, std::int64_t ncols, std::int64_t k, const ArrayView& tau,
          StreamHandle stream) {
  const std::int64_t batch = batch_of("qr_q", a, m, ncols);
  require(k >= 0 && k <= ncols && ncols <= m, "qr_q", "needs k <= ncols <= m");
  require(m < (std::int64_t{1} << 31), "qr_q", "matrices of 2^31 rows or more are not supported");
  require(tau.dtype == a.dtype && tau.device == a.device && tau.is_c_contiguous() && tau.size() == batch * k,
          "qr_q", "tau must be qr_factor's (batch, k) array");
  activate_device(a.device);
  cuda::qr_q(a, m, ncols, k, batch, tau, stream);
}

}  // namespace npgpu
