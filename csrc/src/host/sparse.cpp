// Host backend of the sparse products: rows split over OpenMP threads, each row's products summed in order
// (the order SciPy's CSR kernels use).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

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

// C = A @ B a row at a time: row r's products are gathered, stably sorted by column and summed per column,
// so each entry adds its products in A's row order (as SciPy) without a dense accumulator of C's width per
// thread. The constructor only counts each row's distinct columns; write() forms the products.
template <class I, class T>
class HostProduct final : public CsrProduct::State {
 public:
  HostProduct(const ArrayView& a_indptr, const ArrayView& a_indices, const ArrayView& a_data, const ArrayView& b_indptr,
              const ArrayView& b_indices, const ArrayView& b_data)
      : ap_(static_cast<const I*>(a_indptr.data)),
        ai_(static_cast<const I*>(a_indices.data)),
        bp_(static_cast<const I*>(b_indptr.data)),
        bi_(static_cast<const I*>(b_indices.data)),
        ax_(static_cast<const T*>(a_data.data)),
        bx_(static_cast<const T*>(b_data.data)),
        counts_(static_cast<std::size_t>(a_indptr.shape[0] - 1)) {
    const auto rows = static_cast<std::int64_t>(counts_.size());
#pragma omp parallel if (rows > 256)
    {
      std::vector<I> cols;
#pragma omp for schedule(dynamic, 256)
      for (std::int64_t r = 0; r < rows; ++r) {
        cols.clear();
        for (I p = ap_[r]; p < ap_[r + 1]; ++p)
          for (I q = bp_[ai_[p]]; q < bp_[ai_[p] + 1]; ++q) cols.push_back(bi_[q]);
        std::sort(cols.begin(), cols.end());
        counts_[r] = std::unique(cols.begin(), cols.end()) - cols.begin();
      }
    }
    for (std::int64_t c : counts_) nnz_ += c;
  }

  std::int64_t nnz() const override { return nnz_; }

  void write(const ArrayView& indptr, const ArrayView& indices, const ArrayView& data) override {
    auto* cp = static_cast<I*>(indptr.data);
    auto* ci = static_cast<I*>(indices.data);
    auto* cx = static_cast<T*>(data.data);
    const auto rows = static_cast<std::int64_t>(counts_.size());
    cp[0] = 0;
    for (std::int64_t r = 0; r < rows; ++r) cp[r + 1] = static_cast<I>(cp[r] + counts_[r]);
#pragma omp parallel if (rows > 256)
    {
      std::vector<std::pair<I, T>> products;
#pragma omp for schedule(dynamic, 256)
      for (std::int64_t r = 0; r < rows; ++r) {
        products.clear();
        for (I p = ap_[r]; p < ap_[r + 1]; ++p)
          for (I q = bp_[ai_[p]]; q < bp_[ai_[p] + 1]; ++q) products.emplace_back(bi_[q], ax_[p] * bx_[q]);
        std::stable_sort(products.begin(), products.end(),
                         [](const std::pair<I, T>& x, const std::pair<I, T>& y) { return x.first < y.first; });
        std::int64_t out = cp[r];
        for (std::size_t i = 0; i < products.size();) {
          const I col = products[i].first;
          T sum(0);
          for (; i < products.size() && products[i].first == col; ++i) sum = sum + products[i].second;
          ci[out] = col, cx[out] = sum, ++out;
        }
      }
    }
  }

 private:
  const I *ap_, *ai_, *bp_, *bi_;
  const T *ax_, *bx_;
  std::vector<std::int64_t> counts_;
  std::int64_t nnz_ = 0;
};

}  // namespace

std::unique_ptr<CsrProduct::State> csr_product(const ArrayView& a_indptr, const ArrayView& a_indices,
                                               const ArrayView& a_data, const ArrayView& b_indptr,
                                               const ArrayView& b_indices, const ArrayView& b_data,
                                               std::int64_t /*n_cols*/) {
  std::unique_ptr<CsrProduct::State> state;
  detail::dispatch_index(a_indptr.dtype, [&](auto itag) {
    using I = decltype(itag);
    switch (a_data.dtype) {
      case DType::Float32:
        state = std::make_unique<HostProduct<I, float>>(a_indptr, a_indices, a_data, b_indptr, b_indices, b_data);
        break;
      case DType::Float64:
        state = std::make_unique<HostProduct<I, double>>(a_indptr, a_indices, a_data, b_indptr, b_indices, b_data);
        break;
      case DType::Complex64:
        state = std::make_unique<HostProduct<I, detail::complex64>>(a_indptr, a_indices, a_data, b_indptr, b_indices,
                                                                    b_data);
        break;
      default:
        state = std::make_unique<HostProduct<I, detail::complex128>>(a_indptr, a_indices, a_data, b_indptr, b_indices,
                                                                     b_data);
        break;
    }
  });
  return state;
}

void csr_matmul(const ArrayView& indptr, const ArrayView& indices, const ArrayView& data, std::int64_t rows,
                std::int64_t cols, std::int64_t k, const ArrayView& x, const ArrayView& y, StreamHandle stream) {
  if (indptr.dtype == DType::Int32)
    matmul_values<std::int32_t>(indptr, indices, data, rows, k, x, y);
  else
    matmul_values<std::int64_t>(indptr, indices, data, rows, k, x, y);
}

}  // namespace npgpu::host
