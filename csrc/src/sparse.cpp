// Sparse products: argument checks (shapes, dtypes, devices, layouts; not the CSR's contents, see
// sparse.hpp), then the host or CUDA backend by the views' device.
#include "npgpu/sparse.hpp"

#include <string>

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
  auto require = [&](bool ok, const std::string& what) {
    if (!ok) throw InvalidArgument(name + ": " + what);
  };
  if (indptr.dtype != indices.dtype || (indptr.dtype != DType::Int32 && indptr.dtype != DType::Int64))
    throw TypeError(name + ": indptr and indices must both be int32 or both int64, got " + indptr.describe() + " and " +
                    indices.describe());
  if (!is_value_type(data.dtype))
    throw TypeError(name + ": data must be float32, float64, complex64 or complex128, got " + data.describe());
  if (x.dtype != data.dtype || y.dtype != data.dtype)
    throw TypeError(name + ": x " + x.describe() + " and y " + y.describe() + " must have data's dtype " +
                    dtype_name(data.dtype));
  require(indptr.ndim == 1 && indptr.shape[0] >= 1, "indptr must be 1-D with rows + 1 >= 1 entries, got " +
                                                        indptr.describe());
  require(indices.ndim == 1 && data.ndim == 1 && indices.shape[0] == data.shape[0],
          "indices " + indices.describe() + " and data " + data.describe() + " must be 1-D of one length (nnz)");
  require(cols >= 0, "cols must be >= 0");
  require(x.ndim == 1 || x.ndim == 2, "x must be 1-D or 2-D, got " + x.describe());
  require(x.shape[0] == cols, "x " + x.describe() + " must have " + std::to_string(cols) + " rows (A's columns)");
  const std::int64_t rows = indptr.shape[0] - 1, k = x.ndim == 2 ? x.shape[1] : 1;
  require(y.ndim == x.ndim && y.shape[0] == rows && (x.ndim == 1 || y.shape[1] == k),
          "y " + y.describe() + " must have shape (" + std::to_string(rows) + (x.ndim == 2 ? ", " + std::to_string(k) : "") +
              ")");
  for (const ArrayView* v : {&indptr, &indices, &data, &x, &y}) {
    require(v->is_c_contiguous(), "every operand must be C-contiguous, got " + v->describe());
    require(v->device == y.device, "operands on different devices: " + v->describe() + " and " + y.describe());
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

}  // namespace npgpu
