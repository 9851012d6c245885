#pragma once
// Internal: the CUDA and host implementations of the sparse products (csrc/src/sparse.cpp checks and
// dispatches; krylov.cpp reuses both for cg_step_csr). Arguments as npgpu::csr_matmul and
// npgpu::CsrProduct, already checked.
#include <cstdint>
#include <memory>

#include "npgpu/sparse.hpp"

namespace npgpu {

// A backend's half-done CSR product (see CsrProduct): the pattern found, the values still to write.
struct CsrProduct::State {
  virtual ~State() = default;
  virtual std::int64_t nnz() const = 0;
  virtual void write(const ArrayView& indptr, const ArrayView& indices, const ArrayView& data) = 0;
};

namespace detail {
// f(I{}) for the CSR index type (int32 or int64, already checked).
template <class F>
void dispatch_index(DType t, F&& f) {
  if (t == DType::Int32)
    f(std::int32_t{});
  else
    f(std::int64_t{});
}

// csr_matmul's argument checks (every one but y's being writable); returns A's row count and x's columns.
void check_csr_matmul(const char* fn, const ArrayView& indptr, const ArrayView& indices, const ArrayView& data,
                      std::int64_t cols, const ArrayView& x, const ArrayView& y, std::int64_t* rows, std::int64_t* k);
}  // namespace detail
namespace cuda {
void csr_matmul(const ArrayView& indptr, const ArrayView& indices, const ArrayView& data, std::int64_t rows,
                std::int64_t cols, std::int64_t k, const ArrayView& x, const ArrayView& y, StreamHandle stream,
                std::int64_t longest_row);
std::unique_ptr<CsrProduct::State> csr_product(const ArrayView& a_indptr, const ArrayView& a_indices,
                                               const ArrayView& a_data, const ArrayView& b_indptr,
                                               const ArrayView& b_indices, const ArrayView& b_data, std::int64_t n_cols,
                                               StreamHandle stream);
}
namespace host {
void csr_matmul(const ArrayView& indptr, const ArrayView& indices, const ArrayView& data, std::int64_t rows,
                std::int64_t cols, std::int64_t k, const ArrayView& x, const ArrayView& y, StreamHandle stream);
std::unique_ptr<CsrProduct::State> csr_product(const ArrayView& a_indptr, const ArrayView& a_indices,
                                               const ArrayView& a_data, const ArrayView& b_indptr,
                                               const ArrayView& b_indices, const ArrayView& b_data,
                                               std::int64_t n_cols);
}
}  // namespace npgpu
