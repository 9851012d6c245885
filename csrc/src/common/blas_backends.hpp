#pragma once
// Internal: the CUDA side of the matrix-product family (csrc/src/cuda/blas.cu). blas.cpp checks the
// arguments, works out layouts (which operand is transposed, leading dimensions, batch strides) and calls
// these with column-major (BLAS) descriptions; all sizes and strides are in elements.
#include <cstdint>

#include "npgpu/blas.hpp"
#include "npgpu/runtime.hpp"
#include "npgpu/view.hpp"

namespace npgpu::cuda {

// C (m x n, column-major, ldc) = op_a(A) (m x k) * op_b(B) (k x n), `batch` times with the given element
// strides between batches (0: the same matrix every time). op: 0 = N, 1 = T, 2 = C (conjugate transpose).
struct GemmCall {
  DType dtype = DType::Float32;  // of A, B and C
  std::int64_t m = 0, n = 0, k = 0;
  const void* a = nullptr;
  int op_a = 0;
  std::int64_t lda = 1, stride_a = 0;
  const void* b = nullptr;
  int op_b = 0;
  std::int64_t ldb = 1, stride_b = 0;
  void* c = nullptr;
  std::int64_t ldc = 1, stride_c = 0;
  std::int64_t batch = 1;
  bool tf32 = false;
};
void gemm(int device, const GemmCall& call, StreamHandle stream);

// y = op(A) x: A is m x n column-major (lda); op 0 = N (y has m elements), 1 = T (y has n). Increments > 0.
// dtype: float32, float64, complex64, complex128.
void gemv(int device, DType dtype, int op, std::int64_t m, std::int64_t n, const void* a, std::int64_t lda,
          const void* x, std::int64_t incx, void* y, std::int64_t incy, StreamHandle stream);

// *result (device memory, dtype) = sum_i conj?(x_i) y_i over n elements (increments > 0).
void dot(int device, DType dtype, bool conj, std::int64_t n, const void* x, std::int64_t incx, const void* y,
         std::int64_t incy, void* result, StreamHandle stream);

// One operand of matmul_reduce's two steps: X (rows x cols) with element strides, one of them 1 (or an
// extent-1 axis); step j computes y[c] = sum_r w[r] X[r, c].
struct ReduceOperand {
  const void* data = nullptr;
  std::int64_t rows = 0, cols = 0, stride_r = 0, stride_c = 0;
};
// Both steps with npgpu's kernels: s (float64, x1.cols values) = column sums of x1; y (x2's dtype) = s^T x2
// (x2.rows == x1.cols). One scratch allocation, float64 accumulation throughout; see cuda/blas.cu.
void matmul_reduce_kernels(int device, DType dtype, const ReduceOperand& x1, const ReduceOperand& x2, void* y,
                           StreamHandle stream);

// Step 2 alone: y (x's dtype) = w^T x for a float64 device vector w of x.rows values.
void matmul_reduce_weighted(int device, DType dtype, const ReduceOperand& x, const double* w, void* y,
                            StreamHandle stream);

// The same reduction through cuBLAS gemv in X's dtype (w in X's dtype too; nullptr = ones): for comparison.
void weighted_reduce_cublas(int device, DType dtype, const void* x, std::int64_t rows, std::int64_t cols,
                            std::int64_t stride_r, std::int64_t stride_c, const void* w, void* y,
                            StreamHandle stream);

// cublasGetVersion through this thread's handle on `device`.
int cublas_version(int device);

}  // namespace npgpu::cuda
