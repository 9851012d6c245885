// Sparse products: argument checks (shapes, dtypes, devices, layouts; not the CSR's contents, see
// sparse.hpp), then the host or CUDA backend by the views' device.
#include "npgpu/sparse.hpp"

#include <string>

#include "common/lazy_message.hpp"
#include "common/sparse_backends.hpp"
#include "npgpu/errors.hpp"

namespace npgpu {

namespace {

bool is_value_type(DType d) {
  return d == DType::Float32 || d == DType::Float64 || d == DType::Complex64 || d == DType::Complex128;
}

}  // namespace

void detail::check_csr_matmul(const char* fn, const ArrayView& indptr, const ArrayView& indices, const ArrayView& data,
                              std::int64_t cols, const ArrayView& x, const ArrayView& y, std::int64_t* rows_out,
                              std::int64_t* k_out) {
  const std::string name(fn);
  auto require = [&](bool ok, auto&& what) {
    if (!ok) throw InvalidArgument(name + ": " + detail::message_text(what));
  };
  if (indptr.dtype != indices.dtype || (indptr.dtype != DType::Int32 && indptr.dtype != DType::Int64))
    throw TypeError(name + ": indptr and indices must both be int32 or both int64, got " + indptr.describe() + " and " +
                    indices.describe());
  if (!is_value_type(data.dtype))
    throw TypeError(name + ": data must be float32, float64, complex64 or complex128, got " + data.describe());
  if (x.dtype != data.dtype || y.dtype != data.dtype)
    throw TypeError(name + ": x " + x.describe() + " and y " + y.describe() + " must have data's dtype " +
                    dtype_name(data.dtype));
  require(indptr.ndim == 1 && indptr.shape[0] >= 1,
          [&] { return "indptr must be 1-D with rows + 1 >= 1 entries, got " + indptr.describe(); });
  require(indices.ndim == 1 && data.ndim == 1 && indices.shape[0] == data.shape[0], [&] {
    return "indices " + indices.describe() + " and data " + data.describe() + " must be 1-D of one length (nnz)";
  });
  require(cols >= 0, "cols must be >= 0");
  require(x.ndim == 1 || x.ndim == 2, [&] { return "x must be 1-D or 2-D, got " + x.describe(); });
  require(x.shape[0] == cols,
          [&] { return "x " + x.describe() + " must have " + std::to_string(cols) + " rows (A's columns)"; });
  const std::int64_t rows = indptr.shape[0] - 1, k = x.ndim == 2 ? x.shape[1] : 1;
  require(y.ndim == x.ndim && y.shape[0] == rows && (x.ndim == 1 || y.shape[1] == k), [&] {
    return "y " + y.describe() + " must have shape (" + std::to_string(rows) +
           (x.ndim == 2 ? ", " + std::to_string(k) : "") + ")";
  });
  for (const ArrayView* v : {&indptr, &indices, &data, &x, &y}) {
    require(v->is_c_contiguous(), [&] { return "every operand must be C-contiguous, got " + v->describe(); });
    require(v->device == y.device,
            [&] { return "operands on different devices: " + v->describe() + " and " + y.describe(); });
  }
  if (indptr.dtype == DType::Int32)
    require(cols <= INT32_MAX && rows <= INT32_MAX, "int32 indices cannot address a matrix this large");
  *rows_out = rows, *k_out = k;
}

void csr_matmul(const ArrayView& indptr, const ArrayView& indices, const ArrayView& data, std::int64_t cols,
                const ArrayView& x, const ArrayView& y, StreamHandle stream, std::int64_t longest_row) {
  std::int64_t rows = 0, k = 0;
  detail::check_csr_matmul("csr_matmul", indptr, indices, data, cols, x, y, &rows, &k);
  if (y.readonly) throw InvalidArgument("csr_matmul: y is read-only");
  if (y.size() == 0) return;
  if (y.on_host()) {
    host::csr_matmul(indptr, indices, data, rows, cols, k, x, y, stream);
  } else {
    activate_device(y.device);
    cuda::csr_matmul(indptr, indices, data, rows, cols, k, x, y, stream, longest_row);
  }
}

CsrProduct::CsrProduct(const ArrayView& a_indptr, const ArrayView& a_indices, const ArrayView& a_data,
                       const ArrayView& b_indptr, const ArrayView& b_indices, const ArrayView& b_data,
                       std::int64_t n_cols, StreamHandle stream) {
  const std::string name = "CsrProduct";
  auto require = [&](bool ok, auto&& what) {
    if (!ok) throw InvalidArgument(name + ": " + detail::message_text(what));
  };
  const DType index = a_indptr.dtype;
  if ((index != DType::Int32 && index != DType::Int64) || a_indices.dtype != index || b_indptr.dtype != index ||
      b_indices.dtype != index)
    throw TypeError(name + ": the four index arrays must all be int32 or all int64, got " + a_indptr.describe() + ", " +
                    a_indices.describe() + ", " + b_indptr.describe() + " and " + b_indices.describe());
  if (!is_value_type(a_data.dtype) || b_data.dtype != a_data.dtype)
    throw TypeError(name + ": a_data and b_data must share one of float32, float64, complex64, complex128, got " +
                    a_data.describe() + " and " + b_data.describe());
  for (const ArrayView* v : {&a_indptr, &a_indices, &a_data, &b_indptr, &b_indices, &b_data}) {
    require(v->ndim == 1, [&] { return "every array must be 1-D, got " + v->describe(); });
    require(v->is_c_contiguous(), [&] { return "every array must be C-contiguous, got " + v->describe(); });
    require(v->device == a_data.device,
            [&] { return "arrays on different devices: " + v->describe() + " and " + a_data.describe(); });
  }
  require(a_indptr.shape[0] >= 1 && b_indptr.shape[0] >= 1, "an indptr needs rows + 1 >= 1 entries");
  require(a_indices.shape[0] == a_data.shape[0] && b_indices.shape[0] == b_data.shape[0],
          "each matrix's indices and data must have one length (nnz)");
  require(n_cols >= 0, "n_cols must be >= 0");
  const std::int64_t rows = a_indptr.shape[0] - 1, inner = b_indptr.shape[0] - 1;
  if (index == DType::Int32)
    require(rows <= INT32_MAX && inner <= INT32_MAX && n_cols <= INT32_MAX,
            "int32 indices cannot address a matrix this large");
  rows_ = rows, index_ = index, value_ = a_data.dtype, device_ = a_data.device;
  if (a_data.on_host()) {
    state_ = host::csr_product(a_indptr, a_indices, a_data, b_indptr, b_indices, b_data, n_cols);
  } else {
    activate_device(a_data.device);
    state_ = cuda::csr_product(a_indptr, a_indices, a_data, b_indptr, b_indices, b_data, n_cols, stream);
  }
  if (index == DType::Int32 && state_->nnz() > INT32_MAX)
    throw InvalidArgument(name + ": the product has " + std::to_string(state_->nnz()) +
                          " entries, more than int32 indices address; use int64 indices");
}

CsrProduct::~CsrProduct() = default;

std::int64_t CsrProduct::nnz() const { return state_->nnz(); }

void CsrProduct::write(const ArrayView& indptr, const ArrayView& indices, const ArrayView& data) {
  const std::string name = "CsrProduct::write";
  if (written_) throw InvalidArgument(name + ": the product was already written");
  const std::int64_t nnz = state_->nnz();
  auto expect = [&](const ArrayView& v, const char* what, std::int64_t n, DType t) {
    if (v.dtype != t) throw TypeError(name + ": " + what + " must be " + dtype_name(t) + ", got " + v.describe());
    if (v.ndim != 1 || v.shape[0] != n || !v.is_c_contiguous() || v.readonly || v.device != device_)
      throw InvalidArgument(name + ": " + what + " must be a writable C-contiguous 1-D array of " + std::to_string(n) +
                            " on the inputs' device, got " + v.describe());
  };
  expect(indptr, "indptr", rows_ + 1, index_);
  expect(indices, "indices", nnz, index_);
  expect(data, "data", nnz, value_);
  if (!indptr.on_host()) activate_device(device_);
  written_ = true;
  state_->write(indptr, indices, data);
}

}  // namespace npgpu
