#pragma once
// Sparse matrix products: a CSR matrix times a dense vector or matrix, and a CSR matrix times a CSR matrix,
// on the host (OpenMP rows) or on one device (cuSPARSE's generic SpMV, SpMM for complex values and SpGEMM,
// opened at run time from the nvidia-cusparse wheel or the CUDA toolkit; one handle per (device, thread); a
// matrix's cuSPARSE descriptor kept per thread while its arrays stay the same; work buffers from npgpu's pool,
// on the caller's stream; real values times several columns: npgpu's own row-major kernel).
// The CSR arrays are taken as valid (indptr non-decreasing from 0 to nnz, indices in [0, cols)): the Python
// layer (npgpu.sparse) checks them once when a matrix is built.
#include <cstdint>
#include <memory>

#include "npgpu/export.hpp"
#include "npgpu/runtime.hpp"
#include "npgpu/view.hpp"

namespace npgpu {

// y = A @ x for the rows x cols CSR matrix A = (indptr (rows + 1), indices (nnz), data (nnz)), with x of
// shape (cols,) or (cols, k) and y (rows,) or (rows, k), C-contiguous. indptr and indices both int32 or both
// int64; data, x and y one of float32, float64, complex64, complex128. y is overwritten (not accumulated) and
// must not overlap x. All views on one device (or all on the host). longest_row: the most nonzeros in a
// row where the caller knows it (-1: unknown); on a GPU, a vector product with rows of at most 16 runs a
// thread per row instead of cuSPARSE. Only speed depends on it: a wrong value still gives the right y.
NPGPU_API void csr_matmul(const ArrayView& indptr, const ArrayView& indices, const ArrayView& data, std::int64_t cols,
                          const ArrayView& x, const ArrayView& y, StreamHandle stream, std::int64_t longest_row = -1);

// C = A @ B for CSR matrices A (m x k) = (a_indptr (m + 1), a_indices, a_data) and B (k x n_cols) =
// (b_indptr (k + 1), b_indices, b_data): one index dtype (int32 or int64) and one value dtype (float32,
// float64, complex64, complex128) for both, each matrix's indices sorted within rows and free of duplicates,
// every view 1-D, C-contiguous, on one device. C's size is known only once its pattern is, so the product
// comes in two steps: the constructor finds the pattern (cuSPARSE's SpGEMM work estimation and compute on a
// GPU, enqueued on `stream`, which it waits for to learn C's size; a row-by-row count on the host) and nnz()
// says how many entries C has; write() then fills arrays the caller allocated on the inputs' device:
// indptr (m + 1), indices and data (nnz), of the inputs' dtypes. C comes out with sorted indices and no
// duplicates; each entry sums its products in A's row order, and products that cancel stay as stored zeros.
// Throws InvalidArgument where int32 indices cannot hold C's entry count, Unavailable where the cuSPARSE
// library does not offer the product for these types.
class NPGPU_API CsrProduct {
 public:
  CsrProduct(const ArrayView& a_indptr, const ArrayView& a_indices, const ArrayView& a_data, const ArrayView& b_indptr,
             const ArrayView& b_indices, const ArrayView& b_data, std::int64_t n_cols, StreamHandle stream);
  ~CsrProduct();
  CsrProduct(const CsrProduct&) = delete;
  CsrProduct& operator=(const CsrProduct&) = delete;

  std::int64_t nnz() const;
  // Once only (the GPU's intermediate buffers are released after it); the inputs must still be alive.
  void write(const ArrayView& indptr, const ArrayView& indices, const ArrayView& data);

  struct State;  // the backend's: cuSPARSE descriptors and buffers, or the host's row counts

 private:
  std::unique_ptr<State> state_;
  std::int64_t rows_ = 0;
  DType index_ = DType::Int32, value_ = DType::Float64;
  int device_ = 0;
  bool written_ = false;
};

}  // namespace npgpu
