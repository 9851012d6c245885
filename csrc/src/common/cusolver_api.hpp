#pragma once
// Internal: the subset of cuSOLVER's dense API npgpu uses, declared here (values and prototypes as in
// NVIDIA's cusolverDn.h, cuSOLVER 12) because libnpgpu does not link cuSOLVER: libcusolver.so.12 is opened on
// first use (common/dynlib.hpp) from the nvidia-cusolver wheel, the CUDA toolkit or the search path.
#include <library_types.h>  // cudaDataType

#include <cstddef>
#include <cstdint>

namespace npgpu::detail::cusolver {

struct Context;
using Handle = Context*;  // cusolverDnHandle_t
struct ParamsTag;
using Params = ParamsTag*;  // cusolverDnParams_t

enum Status : int {
  STATUS_SUCCESS = 0,
  STATUS_NOT_INITIALIZED = 1,
  STATUS_ALLOC_FAILED = 2,
  STATUS_INVALID_VALUE = 3,
  STATUS_ARCH_MISMATCH = 4,
  STATUS_MAPPING_ERROR = 5,
  STATUS_EXECUTION_FAILED = 6,
  STATUS_INTERNAL_ERROR = 7,
  STATUS_MATRIX_TYPE_NOT_SUPPORTED = 8,
  STATUS_NOT_SUPPORTED = 9,
  STATUS_ZERO_PIVOT = 10,
  STATUS_INVALID_LICENSE = 11,
  STATUS_INVALID_WORKSPACE = 31,
};

enum Fill : int { FILL_LOWER = 0, FILL_UPPER = 1 };      // cublasFillMode_t
enum Operation : int { OP_N = 0, OP_T = 1, OP_C = 2 };  // cublasOperation_t
enum EigMode : int { EIG_NOVECTOR = 0, EIG_VECTOR = 1 };

using CreateFn = Status (*)(Handle*);
using DestroyFn = Status (*)(Handle);
using SetStreamFn = Status (*)(Handle, void* /* cudaStream_t */);
using CreateParamsFn = Status (*)(Params*);
using DestroyParamsFn = Status (*)(Params);

using PotrfBufferFn = Status (*)(Handle, Params, Fill, std::int64_t n, cudaDataType, const void* A, std::int64_t lda,
                                 cudaDataType compute, std::size_t* device_bytes, std::size_t* host_bytes);
using PotrfFn = Status (*)(Handle, Params, Fill, std::int64_t n, cudaDataType, void* A, std::int64_t lda,
                           cudaDataType compute, void* device_ws, std::size_t device_bytes, void* host_ws,
                           std::size_t host_bytes, int* info);
using GetrfBufferFn = Status (*)(Handle, Params, std::int64_t m, std::int64_t n, cudaDataType, const void* A,
                                 std::int64_t lda, cudaDataType compute, std::size_t* device_bytes,
                                 std::size_t* host_bytes);
using GetrfFn = Status (*)(Handle, Params, std::int64_t m, std::int64_t n, cudaDataType, void* A, std::int64_t lda,
                           std::int64_t* ipiv, cudaDataType compute, void* device_ws, std::size_t device_bytes,
                           void* host_ws, std::size_t host_bytes, int* info);
using GetrsFn = Status (*)(Handle, Params, Operation, std::int64_t n, std::int64_t nrhs, cudaDataType, const void* A,
                           std::int64_t lda, const std::int64_t* ipiv, cudaDataType, void* B, std::int64_t ldb,
                           int* info);
using PotrsFn = Status (*)(Handle, Params, Fill, std::int64_t n, std::int64_t nrhs, cudaDataType, const void* A,
                           std::int64_t lda, cudaDataType, void* B, std::int64_t ldb, int* info);
using SyevdBufferFn = Status (*)(Handle, Params, EigMode, Fill, std::int64_t n, cudaDataType, const void* A,
                                 std::int64_t lda, cudaDataType, const void* W, cudaDataType compute,
                                 std::size_t* device_bytes, std::size_t* host_bytes);
using SyevdFn = Status (*)(Handle, Params, EigMode, Fill, std::int64_t n, cudaDataType, void* A, std::int64_t lda,
                           cudaDataType, void* W, cudaDataType compute, void* device_ws, std::size_t device_bytes,
                           void* host_ws, std::size_t host_bytes, int* info);
using GesvdBufferFn = Status (*)(Handle, Params, signed char jobu, signed char jobvt, std::int64_t m, std::int64_t n,
                                 cudaDataType, const void* A, std::int64_t lda, cudaDataType, const void* S,
                                 cudaDataType, const void* U, std::int64_t ldu, cudaDataType, const void* VT,
                                 std::int64_t ldvt, cudaDataType compute, std::size_t* device_bytes,
                                 std::size_t* host_bytes);
using GesvdFn = Status (*)(Handle, Params, signed char jobu, signed char jobvt, std::int64_t m, std::int64_t n,
                           cudaDataType, void* A, std::int64_t lda, cudaDataType, void* S, cudaDataType, void* U,
                           std::int64_t ldu, cudaDataType, void* VT, std::int64_t ldvt, cudaDataType compute,
                           void* device_ws, std::size_t device_bytes, void* host_ws, std::size_t host_bytes,
                           int* info);

using GeqrfBufferFn = Status (*)(Handle, Params, std::int64_t m, std::int64_t n, cudaDataType, const void* A,
                                 std::int64_t lda, cudaDataType, const void* tau, cudaDataType compute,
                                 std::size_t* device_bytes, std::size_t* host_bytes);
using GeqrfFn = Status (*)(Handle, Params, std::int64_t m, std::int64_t n, cudaDataType, void* A, std::int64_t lda,
                           cudaDataType, void* tau, cudaDataType compute, void* device_ws, std::size_t device_bytes,
                           void* host_ws, std::size_t host_bytes, int* info);
// cusolverDnXgeev (cuSOLVER 11.7 on): a real A may take complex W, computed in real arithmetic, with real VR
// holding each complex pair's vector as LAPACK's geev does (real part, then imaginary part).
using GeevBufferFn = Status (*)(Handle, Params, EigMode jobvl, EigMode jobvr, std::int64_t n, cudaDataType,
                                const void* A, std::int64_t lda, cudaDataType, const void* W, cudaDataType,
                                const void* VL, std::int64_t ldvl, cudaDataType, const void* VR, std::int64_t ldvr,
                                cudaDataType compute, std::size_t* device_bytes, std::size_t* host_bytes);
using GeevFn = Status (*)(Handle, Params, EigMode jobvl, EigMode jobvr, std::int64_t n, cudaDataType, void* A,
                          std::int64_t lda, cudaDataType, void* W, cudaDataType, void* VL, std::int64_t ldvl,
                          cudaDataType, void* VR, std::int64_t ldvr, cudaDataType compute, void* device_ws,
                          std::size_t device_bytes, void* host_ws, std::size_t host_bytes, int* info);
// cusolverDn{S,D}orgqr / {C,Z}ungqr (legacy, 32-bit sizes; elements as void* for the four types).
using OrgqrBufferFn = Status (*)(Handle, int m, int n, int k, const void* A, int lda, const void* tau, int* lwork);
using OrgqrFn = Status (*)(Handle, int m, int n, int k, void* A, int lda, const void* tau, void* work, int lwork,
                           int* info);

struct Api {
  CreateFn create;
  DestroyFn destroy;
  SetStreamFn set_stream;
  CreateParamsFn create_params;
  DestroyParamsFn destroy_params;
  PotrfBufferFn potrf_buffer;
  PotrfFn potrf;
  PotrsFn potrs;
  GetrfBufferFn getrf_buffer;
  GetrfFn getrf;
  GetrsFn getrs;
  SyevdBufferFn syevd_buffer;
  SyevdFn syevd;
  GesvdBufferFn gesvd_buffer;
  GesvdFn gesvd;
  GeqrfBufferFn geqrf_buffer;
  GeqrfFn geqrf;
  OrgqrBufferFn orgqr_buffer[4];  // float, double, complex64, complex128
  OrgqrFn orgqr[4];
  GeevBufferFn geev_buffer;  // null where the library predates them
  GeevFn geev;
};

// The loaded library (opened once per process; throws Unavailable when libcusolver.so.12 or a symbol is
// missing, but for geev's, which are left null).
const Api& api();

}  // namespace npgpu::detail::cusolver
