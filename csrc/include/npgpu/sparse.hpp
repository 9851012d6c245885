#pragma once
// Sparse matrix products: a CSR matrix times a dense vector or matrix, on the host (OpenMP rows) or on one
// device (cuSPARSE's generic SpMV, and SpMM for complex values, opened at run time from the nvidia-cusparse
// wheel or the CUDA toolkit; one handle per (device, thread); work buffers from npgpu's pool, on the caller's
// stream; real values times several columns: npgpu's own row-major kernel).
// The CSR arrays are taken as valid (indptr non-decreasing from 0 to nnz, indices in [0, cols)): the Python
// layer (npgpu.sparse) checks them once when a matrix is built.
#include <cstdint>

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

}  // namespace npgpu
