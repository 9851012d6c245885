// Host backend of the sparse products: rows split over OpenMP threads, each row's products summed in order
// (the order SciPy's CSR kernel uses).
#include <cstdint>

#include "common/complex.hpp"
#include "common/sparse_backends.hpp"

namespace npgpu::host {
namespace {

template <class I, class T>
void matmul(const I* indptr, const I* indices, const T* data, std::int64_t rows, std::int64_t k, const T* x,
            T* y) {
  if (k == 1) {  // one right-hand side: the row's sum stays in a register
#pragma omp parallel for schedule(static) if (rows > 4096)
    for (std::int64_t r = 0; r < rows; ++r) {
      T sum(0);
      for (I p = indptr[r]; p < indptr[r + 1]; ++p) sum = sum + data[p] * x[indices[p]];
      y[r] = sum;
    }
    return;
  }
#pragma omp parallel for schedule(dynamic, 1024) if (rows > 4096)
  for (std::int64_t r = 0; r < rows; ++r) {
    T* out = y + r * k;
    for (std::int64_t j = 0; j < k; ++j) out[j] = T(0);
    for (I p = indptr[r]; p < indptr[r + 1]; ++p) {
      const T a = data[p];
      const T* in = x + static_cast<std::int64_t>(indices[p]) * k;
      for (std::int64_t j = 0; j < k; ++j) out[j] = out[j] + a * in[j];
    }
  }
}

template <class I>
void matmul_values(const ArrayView& indptr, const ArrayView& indices, const ArrayView& data, std::int64_t rows,
                   std::int64_t k, const ArrayView& x, const ArrayView& y) {
  const I* p = static_cast<const I*>(indptr.data);
  const I* c = static_cast<const I*>(indices.data);
  switch (data.dtype) {
    case DType::Float32:
      matmul(p, c, static_cast<const float*>(data.data), rows, k, static_cast<const float*>(x.data),
             static_cast<float*>(y.data));
      break;
    case DType::Float64:
      matmul(p, c, static_cast<const double*>(data.data), rows, k, static_cast<const double*>(x.data),
             static_cast<double*>(y.data));
      break;
    case DType::Complex64:
      matmul(p, c, static_cast<const detail::complex64*>(data.data), rows, k,
             static_cast<const detail::complex64*>(x.data), static_cast<detail::complex64*>(y.data));
      break;
    default:
      matmul(p, c, static_cast<const detail::complex128*>(data.data), rows, k,
             static_cast<const detail::complex128*>(x.data), static_cast<detail::complex128*>(y.data));
      break;
  }
}

}  // namespace

void csr_matmul(const ArrayView& indptr, const ArrayView& indices, const ArrayView& data, std::int64_t rows,
                std::int64_t cols, std::int64_t k, const ArrayView& x, const ArrayView& y, StreamHandle stream) {
  if (indptr.dtype == DType::Int32)
    matmul_values<std::int32_t>(indptr, indices, data, rows, k, x, y);
  else
    matmul_values<std::int64_t>(indptr, indices, data, rows, k, x, y);
}

}  // namespace npgpu::host
