// Krylov steps: argument checks (dtypes, shapes, devices, layouts, distinct buffers, the state's size), then
// the host or CUDA backend by the vectors' device.
#include <string>

#include "common/krylov_backends.hpp"
#include "common/lazy_message.hpp"
#include "common/sparse_backends.hpp"
#include "npgpu/errors.hpp"

namespace npgpu {

namespace {

template <class Msg>
void require(bool ok, const char* fn, Msg&& what) {
  if (!ok) throw InvalidArgument(std::string(fn) + ": " + detail::message_text(what));
}

void check_vector(const char* fn, const char* name, const ArrayView& v, const ArrayView& like, bool written) {
  if (v.dtype != DType::Float32 && v.dtype != DType::Float64 && v.dtype != DType::Complex64 &&
      v.dtype != DType::Complex128)
    throw TypeError(std::string(fn) + ": " + name + " must be float32, float64, complex64 or complex128, got " +
                    v.describe());
  if (v.dtype != like.dtype)
    throw TypeError(std::string(fn) + ": " + name + " " + v.describe() + " must have r's dtype " +
                    dtype_name(like.dtype));
  require(v.ndim == 1 && v.shape[0] == like.shape[0], fn, [&] {
    return std::string(name) + " " + v.describe() + " must be 1-D with r's length " + std::to_string(like.shape[0]);
  });
  require(v.is_c_contiguous(), fn, [&] { return std::string(name) + " must be contiguous, got " + v.describe(); });
  require(v.device == like.device, fn,
          [&] { return std::string(name) + " " + v.describe() + " is on another device than r"; });
  require(!written || !v.readonly, fn, [&] { return std::string(name) + " is read-only"; });
}

void check_state(const char* fn, const ArrayView& state, const ArrayView& r) {
  const std::int64_t need = cg_state_size(r.shape[0]);
  if (state.dtype != DType::Float64)
    throw TypeError(std::string(fn) + ": state must be float64, got " + state.describe());
  require(state.ndim == 1 && state.shape[0] >= need && state.is_c_contiguous(), fn, [&] {
    return "state must be a contiguous 1-D array of at least " + std::to_string(need) + " elements, got " +
           state.describe();
  });
  require(state.device == r.device, fn, [&] { return "state " + state.describe() + " is on another device than r"; });
  require(!state.readonly, fn, "state is read-only");
}

bool overlap(const ArrayView& a, const ArrayView& b) {
  const auto* a0 = static_cast<const char*>(a.data);
  const auto* b0 = static_cast<const char*>(b.data);
  return a.nbytes() > 0 && b.nbytes() > 0 && a0 < b0 + b.nbytes() && b0 < a0 + a.nbytes();
}

}  // namespace

std::int64_t cg_state_size(std::int64_t n) {
  if (n < 0) throw InvalidArgument("cg_state_size: n must be >= 0, got " + std::to_string(n));
  return krylov_layout::state_size(n);
}

void cg_start(const ArrayView& r, double tol2, const ArrayView& state, StreamHandle stream) {
  check_vector("cg_start", "r", r, r, false);
  check_state("cg_start", state, r);
  if (r.on_host()) return host::cg_start(r, tol2, state, stream);
  activate_device(r.device);
  cuda::cg_start(r, tol2, state, stream);
}

namespace {

void check_step(const char* fn, const ArrayView& x, const ArrayView& r, const ArrayView& p, const ArrayView& q,
                const ArrayView& state, int parity) {
  check_vector(fn, "r", r, r, true);
  check_vector(fn, "x", x, r, true);
  check_vector(fn, "p", p, r, true);
  check_vector(fn, "q", q, r, false);
  check_state(fn, state, r);
  require(parity == 0 || parity == 1, fn, [&] { return "parity must be 0 or 1, got " + std::to_string(parity); });
  const ArrayView* all[] = {&x, &r, &p, &q, &state};
  for (int i = 0; i < 5; ++i)
    for (int j = i + 1; j < 5; ++j) require(!overlap(*all[i], *all[j]), fn, "x, r, p, q and state must not overlap");
}

}  // namespace

void cg_step(const ArrayView& x, const ArrayView& r, const ArrayView& p, const ArrayView& q, const ArrayView& state,
             int parity, StreamHandle stream) {
  check_step("cg_step", x, r, p, q, state, parity);
  if (r.on_host()) return host::cg_step(x, r, p, q, state, parity, stream);
  activate_device(r.device);
  cuda::cg_step(x, r, p, q, state, parity, stream);
}

void cg_step_csr(const ArrayView& indptr, const ArrayView& indices, const ArrayView& data, const ArrayView& x,
                 const ArrayView& r, const ArrayView& p, const ArrayView& q, const ArrayView& state, int parity,
                 StreamHandle stream, std::int64_t longest_row) {
  const char* fn = "cg_step_csr";
  check_step(fn, x, r, p, q, state, parity);
  std::int64_t rows = 0, k = 0;
  detail::check_csr_matmul(fn, indptr, indices, data, r.shape[0], p, q, &rows, &k);
  require(!q.readonly, fn, "q is read-only");
  if (r.on_host()) {
    if (rows > 0) host::csr_matmul(indptr, indices, data, rows, rows, 1, p, q, stream);
    return host::cg_step(x, r, p, q, state, parity, stream);
  }
  activate_device(r.device);
  cuda::cg_step_csr(indptr, indices, data, x, r, p, q, state, parity, stream, longest_row);
}

}  // namespace npgpu
