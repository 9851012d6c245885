// CUDA side of the sparse products: cuSPARSE's generic SpMV (one right-hand side) and SpMM (row-major
// right-hand sides), opened at run time, one handle per (device, thread), the work buffer from the pool.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "common/cuda_check.hpp"
#include "common/cusparse_api.hpp"
#include "common/dynlib.hpp"
#include "npgpu/errors.hpp"
#include "npgpu/memory.hpp"
#include "npgpu/sparse.hpp"

namespace npgpu {
namespace detail::cusparse {

const Api& api() {
  static const Api a = [] {
    const char* so = "libcusparse.so.12";
    void* lib = open_cuda_library(so, "nvidia-cusparse");
    Api x{};
    x.create = library_function<CreateFn>(lib, "cusparseCreate", so);
    x.destroy = library_function<DestroyFn>(lib, "cusparseDestroy", so);
    x.set_stream = library_function<SetStreamFn>(lib, "cusparseSetStream", so);
    x.create_csr = library_function<CreateCsrFn>(lib, "cusparseCreateCsr", so);
    x.destroy_sp_mat = library_function<DestroySpMatFn>(lib, "cusparseDestroySpMat", so);
    x.create_dn_vec = library_function<CreateDnVecFn>(lib, "cusparseCreateDnVec", so);
    x.destroy_dn_vec = library_function<DestroyDnVecFn>(lib, "cusparseDestroyDnVec", so);
    x.create_dn_mat = library_function<CreateDnMatFn>(lib, "cusparseCreateDnMat", so);
    x.destroy_dn_mat = library_function<DestroyDnMatFn>(lib, "cusparseDestroyDnMat", so);
    x.spmv_buffer = library_function<SpMVBufferFn>(lib, "cusparseSpMV_bufferSize", so);
    x.spmv = library_function<SpMVFn>(lib, "cusparseSpMV", so);
    x.spmm_buffer = library_function<SpMMBufferFn>(lib, "cusparseSpMM_bufferSize", so);
    x.spmm = library_function<SpMMFn>(lib, "cusparseSpMM", so);
    return x;
  }();
  return a;
}

}  // namespace detail::cusparse

namespace cuda {
namespace {

namespace sp = detail::cusparse;

void check(sp::Status st, const char* call) {
  if (st == sp::STATUS_SUCCESS) return;
  const std::string text = std::string("cuSPARSE ") + call + " failed (status " + std::to_string(static_cast<int>(st)) + ")";
  if (st == sp::STATUS_ALLOC_FAILED || st == sp::STATUS_INSUFFICIENT_RESOURCES) throw OutOfMemoryError(text);
  if (st == sp::STATUS_INVALID_VALUE) throw InvalidArgument(text);
  if (st == sp::STATUS_NOT_SUPPORTED || st == sp::STATUS_ARCH_MISMATCH) throw Unavailable(text);
  throw CudaError(static_cast<int>(st), "CUSPARSE_STATUS_" + std::to_string(static_cast<int>(st)), call, text, false);
}

// One handle per (device, thread), created on first use, destroyed with the thread.
struct ThreadHandles {
  std::vector<sp::Handle> handles;
  ~ThreadHandles() {
    for (sp::Handle h : handles) {
      try {
        if (h) sp::api().destroy(h);
      } catch (...) {
      }
    }
  }
};

thread_local ThreadHandles t_handles;

sp::Handle bind(int device, StreamHandle stream) {
  const sp::Api& api = sp::api();
  auto& handles = t_handles.handles;
  if (static_cast<int>(handles.size()) <= device) handles.resize(device + 1, nullptr);
  if (!handles[device]) check(api.create(&handles[device]), "cusparseCreate");
  check(api.set_stream(handles[device], stream), "cusparseSetStream");
  return handles[device];
}

cudaDataType data_type(DType d) {
  switch (d) {
    case DType::Float32: return CUDA_R_32F;
    case DType::Float64: return CUDA_R_64F;
    case DType::Complex64: return CUDA_C_32F;
    default: return CUDA_C_64F;
  }
}

// Descriptors released however the call ends.
struct Descriptors {
  sp::SpMat a = nullptr;
  sp::DnVec xv = nullptr, yv = nullptr;
  sp::DnMat xm = nullptr, ym = nullptr;
  ~Descriptors() {
    const sp::Api& api = sp::api();
    if (a) api.destroy_sp_mat(a);
    if (xv) api.destroy_dn_vec(xv);
    if (yv) api.destroy_dn_vec(yv);
    if (xm) api.destroy_dn_mat(xm);
    if (ym) api.destroy_dn_mat(ym);
  }
};

}  // namespace

void csr_matmul(const ArrayView& indptr, const ArrayView& indices, const ArrayView& data, std::int64_t rows,
                std::int64_t cols, std::int64_t k, const ArrayView& x, const ArrayView& y, StreamHandle stream) {
  const std::int64_t nnz = data.shape[0];
  if (nnz == 0 || cols == 0) {  // no products: cuSPARSE is not asked about empty operands
    NPGPU_CUDA_TRY(cudaMemsetAsync(y.data, 0, static_cast<std::size_t>(y.size()) * itemsize(y.dtype),
                                   static_cast<cudaStream_t>(stream)));
    return;
  }
  const sp::Api& api = sp::api();
  sp::Handle h = bind(y.device, stream);
  const cudaDataType t = data_type(data.dtype);
  const sp::IndexType it = indptr.dtype == DType::Int32 ? sp::INDEX_32I : sp::INDEX_64I;
  // alpha = 1, beta = 0 in data's type (host pointers: the handle's default pointer mode).
  const float one_f[2] = {1.0f, 0.0f}, zero_f[2] = {0.0f, 0.0f};
  const double one_d[2] = {1.0, 0.0}, zero_d[2] = {0.0, 0.0};
  const bool single = data.dtype == DType::Float32 || data.dtype == DType::Complex64;
  const void* alpha = single ? static_cast<const void*>(one_f) : static_cast<const void*>(one_d);
  const void* beta = single ? static_cast<const void*>(zero_f) : static_cast<const void*>(zero_d);

  Descriptors d;
  check(api.create_csr(&d.a, rows, cols, nnz, indptr.data, indices.data, data.data, it, it, sp::INDEX_BASE_ZERO, t),
        "cusparseCreateCsr");
  std::size_t bytes = 0;
  if (x.ndim == 1) {
    check(api.create_dn_vec(&d.xv, cols, x.data, t), "cusparseCreateDnVec");
    check(api.create_dn_vec(&d.yv, rows, y.data, t), "cusparseCreateDnVec");
    check(api.spmv_buffer(h, sp::OP_NON_TRANSPOSE, alpha, d.a, d.xv, beta, d.yv, t, sp::SPMV_CSR_ALG1, &bytes),
          "cusparseSpMV_bufferSize");
    DeviceBuffer work(static_cast<std::int64_t>(std::max<std::size_t>(bytes, 16)), y.device, stream);
    check(api.spmv(h, sp::OP_NON_TRANSPOSE, alpha, d.a, d.xv, beta, d.yv, t, sp::SPMV_CSR_ALG1, work.data()),
          "cusparseSpMV");
  } else {
    check(api.create_dn_mat(&d.xm, cols, k, k, x.data, t, sp::ORDER_ROW), "cusparseCreateDnMat");
    check(api.create_dn_mat(&d.ym, rows, k, k, y.data, t, sp::ORDER_ROW), "cusparseCreateDnMat");
    // CSR_ALG2 is the row-major algorithm; the default where a library version does not offer it.
    sp::SpMMAlg alg = sp::SPMM_CSR_ALG2;
    if (api.spmm_buffer(h, sp::OP_NON_TRANSPOSE, sp::OP_NON_TRANSPOSE, alpha, d.a, d.xm, beta, d.ym, t, alg,
                        &bytes) != sp::STATUS_SUCCESS) {
      alg = sp::SPMM_ALG_DEFAULT;
      check(api.spmm_buffer(h, sp::OP_NON_TRANSPOSE, sp::OP_NON_TRANSPOSE, alpha, d.a, d.xm, beta, d.ym, t, alg,
                            &bytes),
            "cusparseSpMM_bufferSize");
    }
    DeviceBuffer work(static_cast<std::int64_t>(std::max<std::size_t>(bytes, 16)), y.device, stream);
    check(api.spmm(h, sp::OP_NON_TRANSPOSE, sp::OP_NON_TRANSPOSE, alpha, d.a, d.xm, beta, d.ym, t, alg, work.data()),
          "cusparseSpMM");
  }
}

}  // namespace cuda
}  // namespace npgpu
