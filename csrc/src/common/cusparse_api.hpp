#pragma once
// Internal: the subset of cuSPARSE's generic API npgpu uses, declared here (values and prototypes as in
// NVIDIA's cusparse.h, cuSPARSE 12) because libnpgpu does not link cuSPARSE: libcusparse.so.12 is opened on
// first use (common/dynlib.hpp) from the nvidia-cusparse wheel, the CUDA toolkit or the search path.
#include <library_types.h>  // cudaDataType

#include <cstddef>
#include <cstdint>

namespace npgpu::detail::cusparse {

struct Context;
using Handle = Context*;  // cusparseHandle_t
struct SpMatTag;
using SpMat = SpMatTag*;  // cusparseSpMatDescr_t (and its const form)
struct DnVecTag;
using DnVec = DnVecTag*;  // cusparseDnVecDescr_t
struct DnMatTag;
using DnMat = DnMatTag*;  // cusparseDnMatDescr_t
struct SpGEMMTag;
using SpGEMMDescr = SpGEMMTag*;  // cusparseSpGEMMDescr_t

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
  STATUS_ZERO_PIVOT = 9,
  STATUS_NOT_SUPPORTED = 10,
  STATUS_INSUFFICIENT_RESOURCES = 11,
};

enum Operation : int { OP_NON_TRANSPOSE = 0, OP_TRANSPOSE = 1, OP_CONJUGATE_TRANSPOSE = 2 };
enum IndexBase : int { INDEX_BASE_ZERO = 0 };
enum IndexType : int { INDEX_32I = 2, INDEX_64I = 3 };
enum Order : int { ORDER_COL = 1, ORDER_ROW = 2 };
enum SpMVAlg : int { SPMV_ALG_DEFAULT = 0, SPMV_CSR_ALG1 = 2, SPMV_CSR_ALG2 = 3 };
enum SpMMAlg : int { SPMM_ALG_DEFAULT = 0, SPMM_CSR_ALG1 = 4, SPMM_CSR_ALG2 = 6, SPMM_CSR_ALG3 = 12 };
enum SpGEMMAlg : int { SPGEMM_DEFAULT = 0 };

using CreateFn = Status (*)(Handle*);
using DestroyFn = Status (*)(Handle);
using SetStreamFn = Status (*)(Handle, void* /* cudaStream_t */);
using CreateCsrFn = Status (*)(SpMat*, std::int64_t rows, std::int64_t cols, std::int64_t nnz, void* row_offsets,
                               void* col_ind, void* values, IndexType, IndexType, IndexBase, cudaDataType);
using DestroySpMatFn = Status (*)(SpMat);
using CreateDnVecFn = Status (*)(DnVec*, std::int64_t size, void* values, cudaDataType);
using DestroyDnVecFn = Status (*)(DnVec);
using CreateDnMatFn = Status (*)(DnMat*, std::int64_t rows, std::int64_t cols, std::int64_t ld, void* values,
                                 cudaDataType, Order);
using DestroyDnMatFn = Status (*)(DnMat);
using SpMVBufferFn = Status (*)(Handle, Operation, const void* alpha, SpMat, DnVec, const void* beta, DnVec,
                                cudaDataType compute, SpMVAlg, std::size_t* bytes);
using SpMVFn = Status (*)(Handle, Operation, const void* alpha, SpMat, DnVec, const void* beta, DnVec,
                          cudaDataType compute, SpMVAlg, void* buffer);
using SpMMBufferFn = Status (*)(Handle, Operation, Operation, const void* alpha, SpMat, DnMat, const void* beta,
                                DnMat, cudaDataType compute, SpMMAlg, std::size_t* bytes);
using SpMMFn = Status (*)(Handle, Operation, Operation, const void* alpha, SpMat, DnMat, const void* beta, DnMat,
                          cudaDataType compute, SpMMAlg, void* buffer);
using SpMatGetSizeFn = Status (*)(SpMat, std::int64_t* rows, std::int64_t* cols, std::int64_t* nnz);
using CsrSetPointersFn = Status (*)(SpMat, void* row_offsets, void* col_ind, void* values);
using SpGEMMCreateFn = Status (*)(SpGEMMDescr*);
using SpGEMMDestroyFn = Status (*)(SpGEMMDescr);
// cusparseSpGEMM_workEstimation and cusparseSpGEMM_compute share this signature.
using SpGEMMPhaseFn = Status (*)(Handle, Operation, Operation, const void* alpha, SpMat, SpMat, const void* beta, SpMat,
                                 cudaDataType compute, SpGEMMAlg, SpGEMMDescr, std::size_t* bytes, void* buffer);
using SpGEMMCopyFn = Status (*)(Handle, Operation, Operation, const void* alpha, SpMat, SpMat, const void* beta, SpMat,
                                cudaDataType compute, SpGEMMAlg, SpGEMMDescr);

struct Api {
  CreateFn create;
  DestroyFn destroy;
  SetStreamFn set_stream;
  CreateCsrFn create_csr;
  DestroySpMatFn destroy_sp_mat;
  CreateDnVecFn create_dn_vec;
  DestroyDnVecFn destroy_dn_vec;
  CreateDnMatFn create_dn_mat;
  DestroyDnMatFn destroy_dn_mat;
  SpMVBufferFn spmv_buffer;
  SpMVFn spmv;
  SpMMBufferFn spmm_buffer;
  SpMMFn spmm;
  SpMatGetSizeFn sp_mat_get_size;
  CsrSetPointersFn csr_set_pointers;
  SpGEMMCreateFn spgemm_create;
  SpGEMMDestroyFn spgemm_destroy;
  SpGEMMPhaseFn spgemm_work_estimation;
  SpGEMMPhaseFn spgemm_compute;
  SpGEMMCopyFn spgemm_copy;
};

const Api& api();  // opens the library on first use; throws Unavailable when it cannot

}  // namespace npgpu::detail::cusparse
