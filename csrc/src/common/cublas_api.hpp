#pragma once
// Internal: the subset of cuBLAS npgpu uses, declared here (values and prototypes copied from NVIDIA's
// cublas_api.h, cuBLAS 13) because libnpgpu does not link cuBLAS: libcublas.so.13 is opened on first use
// (common/dynlib.hpp) from the nvidia-cublas wheel, the CUDA toolkit or the system's search path.
#include <library_types.h>  // cudaDataType (CUDA_R_32F, ...): part of the CUDA runtime headers

#include <cstdint>

namespace npgpu::detail::cublas {

struct Context;
using Handle = Context*;  // cublasHandle_t

enum Status : int {
  STATUS_SUCCESS = 0,
  STATUS_NOT_INITIALIZED = 1,
  STATUS_ALLOC_FAILED = 3,
  STATUS_INVALID_VALUE = 7,
  STATUS_ARCH_MISMATCH = 8,
  STATUS_MAPPING_ERROR = 11,
  STATUS_EXECUTION_FAILED = 13,
  STATUS_INTERNAL_ERROR = 14,
  STATUS_NOT_SUPPORTED = 15,
  STATUS_LICENSE_ERROR = 16,
};

enum Operation : int { OP_N = 0, OP_T = 1, OP_C = 2 };
enum PointerMode : int { POINTER_MODE_HOST = 0, POINTER_MODE_DEVICE = 1 };
enum Math : int { DEFAULT_MATH = 0, PEDANTIC_MATH = 2, TF32_TENSOR_OP_MATH = 3 };
enum ComputeType : int {
  COMPUTE_16F = 64,
  COMPUTE_32F = 68,
  COMPUTE_32F_PEDANTIC = 69,
  COMPUTE_32F_FAST_TF32 = 77,
  COMPUTE_64F = 70,
};
enum GemmAlgo : int { GEMM_DEFAULT = -1 };

// Function types (cuBLAS 12+ 64-bit-integer entry points where they exist).
using CreateFn = Status (*)(Handle*);
using DestroyFn = Status (*)(Handle);
using SetStreamFn = Status (*)(Handle, void* /* cudaStream_t */);
using SetWorkspaceFn = Status (*)(Handle, void*, std::size_t);
using SetPointerModeFn = Status (*)(Handle, PointerMode);
using SetMathModeFn = Status (*)(Handle, Math);
using GetStatusStringFn = const char* (*)(Status);
using GetVersionFn = Status (*)(Handle, int*);

using GemmEx64Fn = Status (*)(Handle, Operation transa, Operation transb, std::int64_t m, std::int64_t n,
                              std::int64_t k, const void* alpha, const void* A, cudaDataType Atype,
                              std::int64_t lda, const void* B, cudaDataType Btype, std::int64_t ldb,
                              const void* beta, void* C, cudaDataType Ctype, std::int64_t ldc,
                              ComputeType computeType, GemmAlgo algo);
using GemmStridedBatchedEx64Fn = Status (*)(Handle, Operation transa, Operation transb, std::int64_t m,
                                            std::int64_t n, std::int64_t k, const void* alpha, const void* A,
                                            cudaDataType Atype, std::int64_t lda, long long strideA,
                                            const void* B, cudaDataType Btype, std::int64_t ldb,
                                            long long strideB, const void* beta, void* C, cudaDataType Ctype,
                                            std::int64_t ldc, long long strideC, std::int64_t batchCount,
                                            ComputeType computeType, GemmAlgo algo);
// cublas{S,D,C,Z}gemv_v2_64: alpha, beta, A, x, y are float / double / cuComplex / cuDoubleComplex.
using Gemv64Fn = Status (*)(Handle, Operation trans, std::int64_t m, std::int64_t n, const void* alpha,
                            const void* A, std::int64_t lda, const void* x, std::int64_t incx, const void* beta,
                            void* y, std::int64_t incy);
// cublasDotEx_64 / cublasDotcEx_64 (Dotc conjugates x).
using DotEx64Fn = Status (*)(Handle, std::int64_t n, const void* x, cudaDataType xType, std::int64_t incx,
                             const void* y, cudaDataType yType, std::int64_t incy, void* result,
                             cudaDataType resultType, cudaDataType executionType);

struct Api {
  CreateFn create;
  DestroyFn destroy;
  SetStreamFn set_stream;
  SetWorkspaceFn set_workspace;
  SetPointerModeFn set_pointer_mode;
  SetMathModeFn set_math_mode;
  GetStatusStringFn status_string;
  GetVersionFn get_version;
  GemmEx64Fn gemm_ex;
  GemmStridedBatchedEx64Fn gemm_strided_batched_ex;
  Gemv64Fn sgemv, dgemv, cgemv, zgemv;
  DotEx64Fn dot_ex, dotc_ex;
};

// The loaded library (opened once per process; throws Unavailable when libcublas.so.13 or a symbol is
// missing).
const Api& api();

}  // namespace npgpu::detail::cublas
