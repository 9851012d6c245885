#pragma once
// Matrix products on cuBLAS (opened at run time from NVIDIA's nvidia-cublas wheel, not linked) and the
// matrix-product reduction of reference page 002.
//
// Views live on one device (these functions have no host backend: the Python layer's host backend is
// NumPy's own matmul/dot, i.e. NumPy's BLAS). Dtypes: float16, bfloat16 (float32 accumulation), float32,
// float64, complex64, complex128; integer and bool operands raise TypeError. Strided operands are passed
// to cuBLAS without copies whenever each matrix has a unit stride along one of its two axes (C order, F
// order, transposed views, slices); otherwise the operand is first copied to a contiguous temporary.
//
// cuBLAS handles: one per (device, host thread), created on first use, bound to the call's stream before
// each call, with a workspace from npgpu's stream-ordered pool (32 MiB on compute capability 9.0+, 4 MiB
// before). All functions are asynchronous on `stream`.
#include <cstdint>

#include "npgpu/export.hpp"
#include "npgpu/runtime.hpp"
#include "npgpu/view.hpp"

namespace npgpu {

enum class MatmulPrecision : int {
  Highest = 0,  // float32 products in true float32 (CUBLAS_COMPUTE_32F, no tensor-core down-conversion)
  TF32 = 1,     // float32/complex64 inputs rounded to TF32 on tensor cores (CUBLAS_COMPUTE_32F_FAST_TF32)
};

// out = a @ b with NumPy's matmul semantics: a 1-D `a` is a row vector (k,) -> (1, k) and a 1-D `b` a column
// (k,) -> (k, 1), the added dimension removed from the result; dimensions before the last two are batch
// dimensions and broadcast (extent 1 or missing). `out` has NumPy's result shape; its dtype may differ from
// the operands' (converted on store). a and b must have the same dtype (the Python layer promotes mixed
// dtypes as NumPy does). An `out` that overlaps an operand is handled (the operand is copied first).
// Batches run as cublasGemmStridedBatchedEx calls (one call when the batch dimensions collapse to one
// stride per operand); matrix-vector products (one 1-D operand, no batch) use cuBLAS gemv and vector-vector
// products cuBLAS dot. float16/bfloat16 accumulate in float32 (CUBLAS_COMPUTE_32F), as NumPy's float16
// matmul loop does.
// Throws InvalidArgument for shapes that do not align (the message names both shapes), a mismatched `out`
// or operands on different devices; TypeError for unsupported or mixed dtypes; Unavailable when cuBLAS
// cannot be loaded.
NPGPU_API void matmul(const ArrayView& a, const ArrayView& b, const ArrayView& out, MatmulPrecision precision,
                      StreamHandle stream);

// out (0-d) = sum_i conj(a_i) b_i (complex) or sum_i a_i b_i, over two 1-D views of equal length (NumPy's
// vdot after flattening). Dtypes as matmul.
NPGPU_API void vdot(const ArrayView& a, const ArrayView& b, const ArrayView& out, StreamHandle stream);

enum class MatmulReduceMethod : int {
  Kernels = 0,  // npgpu's bandwidth-bound kernels, float64 accumulation (default)
  Cublas = 1,   // cuBLAS gemv twice, in the operands' dtype (for comparison)
};

// matmul_reduce: out = (a @ b).sum(axis) for 2-D a (m, k) and b (k, n), without forming a @ b:
//   axis = 0: out (n,) = (1_m^T a) b   -- column sums s of a, then the vector-matrix product s b;
//   axis = 1: out (m,) = a (b 1_n)     -- row sums t of b, then the matrix-vector product a t.
// Both are exact identities of real arithmetic (sum_i sum_j A_ij B_jl = sum_j (sum_i A_ij) B_jl); each
// input is read once, O(mk + kn) work instead of O(mkn). float32 and float64; sums and products are
// accumulated in float64 and the intermediate vector is kept in float64, so float32 results carry one
// rounding plus the accumulated float64 error. Throws InvalidArgument for bad shapes or axis, TypeError
// for other dtypes.
NPGPU_API void matmul_reduce(const ArrayView& a, const ArrayView& b, int axis, const ArrayView& out,
                             StreamHandle stream, MatmulReduceMethod method = MatmulReduceMethod::Kernels);

// matmul_reduce of C-contiguous host operands into the device vector `out` (C-contiguous, the operands'
// dtype): the vector step's operand (axis 0: a, axis 1: b) is summed on the host (float64, the host
// backend's threads) while the other is uploaded through the staging ring, and only the float64 k-vector
// crosses after it; then the weighted pass runs on out's device. Half the bytes of uploading both, and the
// host sums hide behind the upload. Returns once the host operands have been read. Throws as matmul_reduce,
// and InvalidArgument for operands not on the host or not C-contiguous.
NPGPU_API void matmul_reduce_from_host(const ArrayView& a, const ArrayView& b, int axis, const ArrayView& out,
                                       StreamHandle stream);

// Copy the C-contiguous host array `host` into the C-contiguous device array `dev` (same dtype and shape)
// through the pinned staging ring: parallel host copies into pinned slots overlap the DMA of earlier slots
// (pinned sources go by DMA directly). Returns once `host` has been read; work queued on `stream` afterwards
// sees the data. What the NumPy-input paths of the matrix products upload large operands with.
NPGPU_API void upload_staged(const ArrayView& host, const ArrayView& dev, StreamHandle stream);

// The version of the loaded cuBLAS (e.g. 130100); loads it. Throws Unavailable when it cannot be loaded.
NPGPU_API int cublas_version(int device);

}  // namespace npgpu
