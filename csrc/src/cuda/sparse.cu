// CUDA side of the sparse products: cuSPARSE's generic SpMV (one right-hand side), SpMM for complex values
// (row-major right-hand sides) and SpGEMM, opened at run time, one handle per (device, thread), the work
// buffers from the pool. Real matrices times row-major dense columns run csr_rowmajor_spmm below, and vectors
// times matrices of short rows csr_rows (csr_rows.cuh): on those cuSPARSE is slower
// (docs/performance-notes.md).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "common/cuda_check.hpp"
#include "common/cusparse_api.hpp"
#include "common/dynlib.hpp"
#include "common/sparse_backends.hpp"
#include "cuda/csr_rows.cuh"
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
    x.sp_mat_get_size = library_function<SpMatGetSizeFn>(lib, "cusparseSpMatGetSize", so);
    x.csr_set_pointers = library_function<CsrSetPointersFn>(lib, "cusparseCsrSetPointers", so);
    x.spgemm_create = library_function<SpGEMMCreateFn>(lib, "cusparseSpGEMM_createDescr", so);
    x.spgemm_destroy = library_function<SpGEMMDestroyFn>(lib, "cusparseSpGEMM_destroyDescr", so);
    x.spgemm_work_estimation = library_function<SpGEMMPhaseFn>(lib, "cusparseSpGEMM_workEstimation", so);
    x.spgemm_compute = library_function<SpGEMMPhaseFn>(lib, "cusparseSpGEMM_compute", so);
    x.spgemm_copy = library_function<SpGEMMCopyFn>(lib, "cusparseSpGEMM_copy", so);
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
  const std::string text =
      std::string("cuSPARSE ") + call + " failed (status " + std::to_string(static_cast<int>(st)) + ")";
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

sp::IndexType index_type(DType d) { return d == DType::Int32 ? sp::INDEX_32I : sp::INDEX_64I; }

// A rows x cols CSR descriptor over the three arrays (nnz = data's length).
sp::SpMat create_csr(const ArrayView& indptr, const ArrayView& indices, const ArrayView& data, std::int64_t rows,
                     std::int64_t cols) {
  sp::SpMat m = nullptr;
  check(sp::api().create_csr(&m, rows, cols, data.shape[0], indptr.data, indices.data, data.data,
                             index_type(indptr.dtype), index_type(indptr.dtype), sp::INDEX_BASE_ZERO,
                             data_type(data.dtype)),
        "cusparseCreateCsr");
  return m;
}

// alpha = 1 and beta = 0 in a value dtype (host pointers: the handle's default pointer mode).
const void* scalar(DType d, bool one) {
  static const float f[2][2] = {{0.0f, 0.0f}, {1.0f, 0.0f}};
  static const double g[2][2] = {{0.0, 0.0}, {1.0, 0.0}};
  const bool single = d == DType::Float32 || d == DType::Complex64;
  return single ? static_cast<const void*>(f[one]) : static_cast<const void*>(g[one]);
}

// A CSR descriptor holds only pointers, sizes and types, so the one built for the same arrays, sizes and
// types is the same descriptor: each thread keeps its last few (no locks; cuSPARSE reads them as const),
// which spares a product on an unchanged matrix the descriptor and work-size calls.
struct CsrKey {
  int device;
  const void *indptr, *indices, *data;
  std::int64_t rows, cols, nnz;
  DType index, value;
  auto tied() const { return std::tie(device, indptr, indices, data, rows, cols, nnz, index, value); }
};

struct CachedCsr {
  CsrKey key;
  sp::SpMat mat = nullptr;
  std::size_t spmv_bytes = 0;
  bool spmv_bytes_known = false;
};

constexpr std::size_t kCachedCsr = 16;

struct CsrCache {
  std::vector<CachedCsr> entries;  // least recently used first
  ~CsrCache() {
    for (CachedCsr& e : entries) {
      try {
        sp::api().destroy_sp_mat(e.mat);
      } catch (...) {
      }
    }
  }
};

thread_local CsrCache t_csr_cache;

// The thread's descriptor of this CSR matrix, built on first use; valid until the thread's next call here.
CachedCsr& csr_descriptor(const ArrayView& indptr, const ArrayView& indices, const ArrayView& data,
                          std::int64_t rows, std::int64_t cols) {
  const CsrKey key{data.device, indptr.data, indices.data, data.data, rows, cols, data.shape[0], indptr.dtype,
                   data.dtype};
  auto& entries = t_csr_cache.entries;
  auto hit = std::find_if(entries.begin(), entries.end(),
                          [&](const CachedCsr& e) { return e.key.tied() == key.tied(); });
  if (hit != entries.end()) {
    std::rotate(hit, hit + 1, entries.end());
    return entries.back();
  }
  CachedCsr e{key};
  e.mat = create_csr(indptr, indices, data, rows, cols);
  if (entries.size() == kCachedCsr) {
    sp::api().destroy_sp_mat(entries.front().mat);
    entries.erase(entries.begin());
  }
  entries.push_back(e);
  return entries.back();
}

// Dense descriptors released however the call ends.
struct DenseDescriptors {
  sp::DnVec xv = nullptr, yv = nullptr;
  sp::DnMat xm = nullptr, ym = nullptr;
  ~DenseDescriptors() {
    const sp::Api& api = sp::api();
    if (xv) api.destroy_dn_vec(xv);
    if (yv) api.destroy_dn_vec(yv);
    if (xm) api.destroy_dn_mat(xm);
    if (ym) api.destroy_dn_mat(ym);
  }
};

constexpr int kThreads = 256;

template <class T, int V>
struct alignas(sizeof(T) * V) Pack {
  T v[V];
};

// y = A @ x for row-major x and y of k columns: `lanes` threads share a row of A, each holding V adjacent
// columns of its output in registers, so the row's V-wide loads of x are contiguous across the lanes and
// every product is summed in the row's nonzero order (as the host backend and SciPy do). k % V == 0.
template <class I, class T, int V>
__global__ void __launch_bounds__(kThreads)
    csr_rowmajor_spmm(const I* __restrict__ indptr, const I* __restrict__ indices, const T* __restrict__ data,
                      const T* __restrict__ x, T* __restrict__ y, std::int64_t rows, std::int64_t k, int lanes) {
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t row = t / lanes;
  if (row >= rows) return;
  const std::int64_t begin = indptr[row], end = indptr[row + 1];
  const std::int64_t packs = k / V;
  for (std::int64_t c = t % lanes; c < packs; c += lanes) {
    Pack<T, V> acc;
#pragma unroll
    for (int j = 0; j < V; ++j) acc.v[j] = T(0);
    for (std::int64_t e = begin; e < end; ++e) {
      const T a = data[e];
      const auto b = *reinterpret_cast<const Pack<T, V>*>(x + static_cast<std::int64_t>(indices[e]) * k + c * V);
#pragma unroll
      for (int j = 0; j < V; ++j) acc.v[j] = fma(a, b.v[j], acc.v[j]);
    }
    *reinterpret_cast<Pack<T, V>*>(y + row * k + c * V) = acc;
  }
}

template <class I, class T>
void rowmajor_spmm(const ArrayView& indptr, const ArrayView& indices, const ArrayView& data, std::int64_t rows,
                   std::int64_t k, const ArrayView& x, const ArrayView& y, cudaStream_t s) {
  constexpr int V = 16 / sizeof(T);  // 16-byte loads and stores where k and the addresses allow them
  const bool packed = k % V == 0 && reinterpret_cast<std::uintptr_t>(x.data) % 16 == 0 &&
                      reinterpret_cast<std::uintptr_t>(y.data) % 16 == 0;
  const std::int64_t packs = packed ? k / V : k;
  int lanes = 1;
  while (lanes < 32 && lanes < packs) lanes *= 2;
  const std::int64_t threads = rows * lanes;
  const std::int64_t blocks = (threads + kThreads - 1) / kThreads;
  if (blocks > INT32_MAX) throw InvalidArgument("csr_matmul: too many rows for one launch");
  const auto* p = static_cast<const I*>(indptr.data);
  const auto* c = static_cast<const I*>(indices.data);
  const auto* a = static_cast<const T*>(data.data);
  const auto* in = static_cast<const T*>(x.data);
  auto* out = static_cast<T*>(y.data);
  if (packed)
    csr_rowmajor_spmm<I, T, V><<<static_cast<unsigned>(blocks), kThreads, 0, s>>>(p, c, a, in, out, rows, k, lanes);
  else
    csr_rowmajor_spmm<I, T, 1><<<static_cast<unsigned>(blocks), kThreads, 0, s>>>(p, c, a, in, out, rows, k, lanes);
  NPGPU_CHECK_LAUNCH("csr_matmul");
}

}  // namespace

void csr_matmul(const ArrayView& indptr, const ArrayView& indices, const ArrayView& data, std::int64_t rows,
                std::int64_t cols, std::int64_t k, const ArrayView& x, const ArrayView& y, StreamHandle stream,
                std::int64_t longest_row) {
  const std::int64_t nnz = data.shape[0];
  if (nnz == 0 || cols == 0) {  // no products: cuSPARSE is not asked about empty operands
    NPGPU_CUDA_TRY(cudaMemsetAsync(y.data, 0, static_cast<std::size_t>(y.size()) * itemsize(y.dtype),
                                   static_cast<cudaStream_t>(stream)));
    return;
  }
  if (x.ndim == 1 && longest_row >= 0 && longest_row <= csr_rows_detail::kShortRow) {
    // a thread per row (no partial sums to bound here): a new block takes the place of each that ends
    const auto blocks = static_cast<unsigned>(
        std::min<std::int64_t>((rows + csr_rows_detail::kThreads - 1) / csr_rows_detail::kThreads, INT32_MAX));
    auto s = static_cast<cudaStream_t>(stream);
    detail::dispatch_index(indptr.dtype, [&](auto itag) {
      using I = decltype(itag);
      krylov_layout::dispatch_vector(data.dtype, [&](auto vtag) {
        using T = decltype(vtag);
        csr_rows_detail::csr_rows<I, T, false><<<blocks, csr_rows_detail::kThreads, 0, s>>>(
            static_cast<const I*>(indptr.data), static_cast<const I*>(indices.data), static_cast<const T*>(data.data),
            static_cast<const T*>(x.data), static_cast<T*>(y.data), rows, nullptr);
      });
    });
    NPGPU_CHECK_LAUNCH("csr_matmul");
    return;
  }
  const bool real = data.dtype == DType::Float32 || data.dtype == DType::Float64;
  if (real && x.ndim == 2) {
    auto s = static_cast<cudaStream_t>(stream);
    detail::dispatch_index(indptr.dtype, [&](auto itag) {
      using I = decltype(itag);
      if (data.dtype == DType::Float32)
        rowmajor_spmm<I, float>(indptr, indices, data, rows, k, x, y, s);
      else
        rowmajor_spmm<I, double>(indptr, indices, data, rows, k, x, y, s);
    });
    return;
  }
  const sp::Api& api = sp::api();
  sp::Handle h = bind(y.device, stream);
  const cudaDataType t = data_type(data.dtype);
  const void* alpha = scalar(data.dtype, true);
  const void* beta = scalar(data.dtype, false);
  CachedCsr& a = csr_descriptor(indptr, indices, data, rows, cols);
  DenseDescriptors d;
  std::size_t bytes = 0;
  if (x.ndim == 1) {
    check(api.create_dn_vec(&d.xv, cols, x.data, t), "cusparseCreateDnVec");
    check(api.create_dn_vec(&d.yv, rows, y.data, t), "cusparseCreateDnVec");
    if (!a.spmv_bytes_known) {
      check(api.spmv_buffer(h, sp::OP_NON_TRANSPOSE, alpha, a.mat, d.xv, beta, d.yv, t, sp::SPMV_CSR_ALG1,
                            &a.spmv_bytes),
            "cusparseSpMV_bufferSize");
      a.spmv_bytes_known = true;
    }
    DeviceBuffer work(static_cast<std::int64_t>(std::max<std::size_t>(a.spmv_bytes, 16)), y.device, stream);
    check(api.spmv(h, sp::OP_NON_TRANSPOSE, alpha, a.mat, d.xv, beta, d.yv, t, sp::SPMV_CSR_ALG1, work.data()),
          "cusparseSpMV");
  } else {
    check(api.create_dn_mat(&d.xm, cols, k, k, x.data, t, sp::ORDER_ROW), "cusparseCreateDnMat");
    check(api.create_dn_mat(&d.ym, rows, k, k, y.data, t, sp::ORDER_ROW), "cusparseCreateDnMat");
    // CSR_ALG2 is the row-major algorithm; the default where a library version does not offer it.
    sp::SpMMAlg alg = sp::SPMM_CSR_ALG2;
    if (api.spmm_buffer(h, sp::OP_NON_TRANSPOSE, sp::OP_NON_TRANSPOSE, alpha, a.mat, d.xm, beta, d.ym, t, alg,
                        &bytes) != sp::STATUS_SUCCESS) {
      alg = sp::SPMM_ALG_DEFAULT;
      check(api.spmm_buffer(h, sp::OP_NON_TRANSPOSE, sp::OP_NON_TRANSPOSE, alpha, a.mat, d.xm, beta, d.ym, t, alg,
                            &bytes),
            "cusparseSpMM_bufferSize");
    }
    DeviceBuffer work(static_cast<std::int64_t>(std::max<std::size_t>(bytes, 16)), y.device, stream);
    check(api.spmm(h, sp::OP_NON_TRANSPOSE, sp::OP_NON_TRANSPOSE, alpha, a.mat, d.xm, beta, d.ym, t, alg,
                   work.data()),
          "cusparseSpMM");
  }
}

namespace {

// The descriptors of one SpGEMM, released however it ends (a constructor that throws runs no destructor of
// its own class, but does run its members').
struct SpGEMMDescriptors {
  sp::SpMat a = nullptr, b = nullptr, c = nullptr;
  sp::SpGEMMDescr descr = nullptr;
  ~SpGEMMDescriptors() {
    const sp::Api& api = sp::api();
    if (descr) api.spgemm_destroy(descr);
    for (sp::SpMat m : {a, b, c})
      if (m) api.destroy_sp_mat(m);
  }
};

// cuSPARSE's SpGEMM in its three phases: work estimation and compute in the constructor (C's size is then
// known), copy into the caller's arrays in write(). The product owns its descriptors (not the per-thread
// cache's: write() may come from another thread). C's row offsets go to a buffer of the product's own, since
// the library versions differ in which phase fills them, and are copied to the caller's indptr at the end.
class CudaProduct final : public CsrProduct::State {
 public:
  CudaProduct(const ArrayView& a_indptr, const ArrayView& a_indices, const ArrayView& a_data,
              const ArrayView& b_indptr, const ArrayView& b_indices, const ArrayView& b_data, std::int64_t n_cols,
              StreamHandle stream)
      : device_(a_data.device), stream_(stream), value_(a_data.dtype), index_(a_indptr.dtype),
        rows_(a_indptr.shape[0] - 1) {
    if (a_data.shape[0] == 0 || b_data.shape[0] == 0) return;  // no products: cuSPARSE is not asked
    const sp::Api& api = sp::api();
    const std::int64_t inner = b_indptr.shape[0] - 1;
    const sp::IndexType it = index_type(index_);
    const cudaDataType t = data_type(value_);
    d_.a = create_csr(a_indptr, a_indices, a_data, rows_, inner);
    d_.b = create_csr(b_indptr, b_indices, b_data, inner, n_cols);
    offsets_ = std::make_unique<DeviceBuffer>((rows_ + 1) * itemsize(index_), device_, stream_);
    check(api.create_csr(&d_.c, rows_, n_cols, 0, offsets_->data(), nullptr, nullptr, it, it, sp::INDEX_BASE_ZERO, t),
          "cusparseCreateCsr");
    check(api.spgemm_create(&d_.descr), "cusparseSpGEMM_createDescr");
    sp::Handle h = bind(device_, stream_);
    const void* one = scalar(value_, true);
    const void* zero = scalar(value_, false);
    std::size_t bytes = 0;
    auto phase = [&](sp::SpGEMMPhaseFn fn, const char* call, std::unique_ptr<DeviceBuffer>& buffer) {
      check(fn(h, sp::OP_NON_TRANSPOSE, sp::OP_NON_TRANSPOSE, one, d_.a, d_.b, zero, d_.c, t, sp::SPGEMM_DEFAULT, d_.descr,
               &bytes, nullptr),
            call);
      buffer = std::make_unique<DeviceBuffer>(static_cast<std::int64_t>(std::max<std::size_t>(bytes, 16)), device_,
                                              stream_);
      check(fn(h, sp::OP_NON_TRANSPOSE, sp::OP_NON_TRANSPOSE, one, d_.a, d_.b, zero, d_.c, t, sp::SPGEMM_DEFAULT, d_.descr,
               &bytes, buffer->data()),
            call);
    };
    phase(api.spgemm_work_estimation, "cusparseSpGEMM_workEstimation", work_);
    phase(api.spgemm_compute, "cusparseSpGEMM_compute", compute_);
    std::int64_t rows = 0, cols = 0;
    check(api.sp_mat_get_size(d_.c, &rows, &cols, &nnz_), "cusparseSpMatGetSize");
  }

  std::int64_t nnz() const override { return nnz_; }

  void write(const ArrayView& indptr, const ArrayView& indices, const ArrayView& data) override {
    auto s = static_cast<cudaStream_t>(stream_);
    const auto offset_bytes = static_cast<std::size_t>((rows_ + 1) * itemsize(index_));
    if (nnz_ == 0) {
      NPGPU_CUDA_TRY(cudaMemsetAsync(indptr.data, 0, offset_bytes, s));
      return;
    }
    const sp::Api& api = sp::api();
    check(api.csr_set_pointers(d_.c, offsets_->data(), indices.data, data.data), "cusparseCsrSetPointers");
    check(api.spgemm_copy(bind(device_, stream_), sp::OP_NON_TRANSPOSE, sp::OP_NON_TRANSPOSE, scalar(value_, true),
                          d_.a, d_.b, scalar(value_, false), d_.c, data_type(value_), sp::SPGEMM_DEFAULT, d_.descr),
          "cusparseSpGEMM_copy");
    NPGPU_CUDA_TRY(cudaMemcpyAsync(indptr.data, offsets_->data(), offset_bytes, cudaMemcpyDeviceToDevice, s));
    work_.reset(), compute_.reset(), offsets_.reset();
  }

 private:
  int device_;
  StreamHandle stream_;
  DType value_, index_;
  std::int64_t rows_, nnz_ = 0;
  SpGEMMDescriptors d_;
  std::unique_ptr<DeviceBuffer> offsets_, work_, compute_;
};

}  // namespace

std::unique_ptr<CsrProduct::State> csr_product(const ArrayView& a_indptr, const ArrayView& a_indices,
                                               const ArrayView& a_data, const ArrayView& b_indptr,
                                               const ArrayView& b_indices, const ArrayView& b_data,
                                               std::int64_t n_cols, StreamHandle stream) {
  return std::make_unique<CudaProduct>(a_indptr, a_indices, a_data, b_indptr, b_indices, b_data, n_cols, stream);
}

}  // namespace cuda
}  // namespace npgpu
