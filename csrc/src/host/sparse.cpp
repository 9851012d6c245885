// Host backend of the sparse products: rows split over OpenMP threads, each row's products summed in order
// (the order SciPy's CSR kernels use).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "common/complex.hpp"
#include "common/sparse_backends.hpp"
#include "host/openmp.hpp"

namespace npgpu::host {
namespace {

template <class I, class T>
void matmul(const I* indptr, const I* indices, const T* data, std::int64_t rows, std::int64_t k, const T* x,
            T* y) {
  if (k == 1) {  // one right-hand side: the row's sum stays in a register
    parallel_for(rows, rows > 4096, [&](std::int64_t r) {
      T sum(0);
      for (I p = indptr[r]; p < indptr[r + 1]; ++p) sum = sum + data[p] * x[indices[p]];
      y[r] = sum;
    });
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

// C = A @ B a row at a time, as SciPy's csr_matmat: each thread marks the columns of its current row in arrays
// as wide as C and sums each column's products there in A's row order; the row's distinct columns are then
// sorted (SciPy leaves them unsorted). The constructor only counts each row's columns; write() sums them.
template <class I, class T>
class HostProduct final : public CsrProduct::State {
 public:
  HostProduct(const ArrayView& a_indptr, const ArrayView& a_indices, const ArrayView& a_data, const ArrayView& b_indptr,
              const ArrayView& b_indices, const ArrayView& b_data, std::int64_t n_cols)
      : ap_(static_cast<const I*>(a_indptr.data)),
        ai_(static_cast<const I*>(a_indices.data)),
        bp_(static_cast<const I*>(b_indptr.data)),
        bi_(static_cast<const I*>(b_indices.data)),
        ax_(static_cast<const T*>(a_data.data)),
        bx_(static_cast<const T*>(b_data.data)),
        n_cols_(static_cast<std::size_t>(n_cols)),
        counts_(static_cast<std::size_t>(a_indptr.shape[0] - 1)) {
    const auto rows = static_cast<std::int64_t>(counts_.size());
#pragma omp parallel num_threads(threads(sizeof(I))) if (rows > 256)
    {
      std::vector<std::int64_t> mark(n_cols_, -1);  // the last row that met each column
#pragma omp for schedule(dynamic, 256)
      for (std::int64_t r = 0; r < rows; ++r) {
        std::int64_t count = 0;
        for (I p = ap_[r]; p < ap_[r + 1]; ++p)
          for (I q = bp_[ai_[p]]; q < bp_[ai_[p] + 1]; ++q)
            if (mark[bi_[q]] != r) mark[bi_[q]] = r, ++count;
        counts_[r] = count;
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
#pragma omp parallel num_threads(threads(sizeof(std::int64_t) + sizeof(T))) if (rows > 256)
    {
      std::vector<std::int64_t> mark(n_cols_, -1);
      std::vector<T> sums(n_cols_);
      std::vector<I> cols;
#pragma omp for schedule(dynamic, 256)
      for (std::int64_t r = 0; r < rows; ++r) {
        cols.clear();
        for (I p = ap_[r]; p < ap_[r + 1]; ++p) {
          for (I q = bp_[ai_[p]]; q < bp_[ai_[p] + 1]; ++q) {
            const I j = bi_[q];
            const T v = ax_[p] * bx_[q];
            if (mark[j] != r) {
              mark[j] = r, sums[j] = T(0) + v;
              cols.push_back(j);
            } else {
              sums[j] = sums[j] + v;
            }
          }
        }
        std::sort(cols.begin(), cols.end());
        std::int64_t out = cp[r];
        for (I j : cols) ci[out] = j, cx[out] = sums[j], ++out;
      }
    }
  }

 private:
  // Threads whose per-thread arrays of C's width (bytes_per_column each) fit 1 GiB together; at least one.
  int threads(std::size_t bytes_per_column) const {
    const std::size_t per_thread = std::max<std::size_t>(n_cols_ * bytes_per_column, 1);
    const auto most = static_cast<std::size_t>(std::max(max_threads(), 1));
    return static_cast<int>(std::clamp<std::size_t>((std::size_t{1} << 30) / per_thread, 1, most));
  }

  const I *ap_, *ai_, *bp_, *bi_;
  const T *ax_, *bx_;
  std::size_t n_cols_;
  std::vector<std::int64_t> counts_;
  std::int64_t nnz_ = 0;
};

}  // namespace

std::unique_ptr<CsrProduct::State> csr_product(const ArrayView& a_indptr, const ArrayView& a_indices,
                                               const ArrayView& a_data, const ArrayView& b_indptr,
                                               const ArrayView& b_indices, const ArrayView& b_data,
                                               std::int64_t n_cols) {
  std::unique_ptr<CsrProduct::State> state;
  detail::dispatch_index(a_indptr.dtype, [&](auto itag) {
    using I = decltype(itag);
    auto make = [&](auto vtag) {
      state = std::make_unique<HostProduct<I, decltype(vtag)>>(a_indptr, a_indices, a_data, b_indptr, b_indices, b_data,
                                                               n_cols);
    };
    switch (a_data.dtype) {
      case DType::Float32: make(float{}); break;
      case DType::Float64: make(double{}); break;
      case DType::Complex64: make(detail::complex64{}); break;
      default: make(detail::complex128{}); break;
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
