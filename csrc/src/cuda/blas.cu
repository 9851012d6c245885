// CUDA side of the matrix-product family: cuBLAS (opened at run time), one handle per (device, thread),
// and the two bandwidth-bound kernels of matmul_reduce.
//
// matmul_reduce's kernels compute y[c] = sum_r w[r] X[r, c] (w = 1 for the first step) in one pass over X:
//  - columns contiguous (X[r, c + 1] next to X[r, c]): "cols" kernel. A block of TX x TY = 256 threads
//    (TX = 32 by default: measured fastest) covers TX * V consecutive columns (V = 16 bytes / element: one vector load per
//    thread and row) and a range of rows, its TY thread rows taking every TY-th row; each thread accumulates in float64, the block adds its 8
//    rows in shared memory and writes a float64 partial per column. The grid is one wave of resident
//    blocks (columns x row splits). The last block of each column tile to finish (an atomic counter per
//    tile, zeroed per call) adds the tile's partials in split order, so the result is deterministic.
//  - rows contiguous (X[r + 1, c] next to X[r, c]): "rows" kernel, one warp per output, vector loads
//    along the contiguous axis, float64 accumulation, a shuffle reduction.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "common/blas_backends.hpp"
#include "common/cublas_api.hpp"
#include "common/cuda_check.hpp"
#include "common/dynlib.hpp"
#include "cuda/sm_threads.cuh"
#include "npgpu/errors.hpp"
#include "npgpu/memory.hpp"

namespace npgpu {
namespace detail::cublas {

const Api& api() {
  static const Api a = [] {
    const char* so = "libcublas.so.13";
    void* lib = open_cuda_library(so, "nvidia-cublas");
    Api x{};
    x.create = library_function<CreateFn>(lib, "cublasCreate_v2", so);
    x.destroy = library_function<DestroyFn>(lib, "cublasDestroy_v2", so);
    x.set_stream = library_function<SetStreamFn>(lib, "cublasSetStream_v2", so);
    x.set_workspace = library_function<SetWorkspaceFn>(lib, "cublasSetWorkspace_v2", so);
    x.set_pointer_mode = library_function<SetPointerModeFn>(lib, "cublasSetPointerMode_v2", so);
    x.set_math_mode = library_function<SetMathModeFn>(lib, "cublasSetMathMode", so);
    x.status_string = library_function<GetStatusStringFn>(lib, "cublasGetStatusString", so);
    x.get_version = library_function<GetVersionFn>(lib, "cublasGetVersion_v2", so);
    x.gemm_ex = library_function<GemmEx64Fn>(lib, "cublasGemmEx_64", so);
    x.gemm_strided_batched_ex = library_function<GemmStridedBatchedEx64Fn>(lib, "cublasGemmStridedBatchedEx_64", so);
    x.sgemv = library_function<Gemv64Fn>(lib, "cublasSgemv_v2_64", so);
    x.dgemv = library_function<Gemv64Fn>(lib, "cublasDgemv_v2_64", so);
    x.cgemv = library_function<Gemv64Fn>(lib, "cublasCgemv_v2_64", so);
    x.zgemv = library_function<Gemv64Fn>(lib, "cublasZgemv_v2_64", so);
    x.dot_ex = library_function<DotEx64Fn>(lib, "cublasDotEx_64", so);
    x.dotc_ex = library_function<DotEx64Fn>(lib, "cublasDotcEx_64", so);
    return x;
  }();
  return a;
}

}  // namespace detail::cublas

namespace cuda {
namespace {

namespace cb = detail::cublas;

void check(cb::Status st, const char* call) {
  if (st == cb::STATUS_SUCCESS) return;
  const char* msg = cb::api().status_string ? cb::api().status_string(st) : "";
  const std::string text = std::string("cuBLAS ") + call + " failed: " + (msg ? msg : "") + " (status " +
                           std::to_string(static_cast<int>(st)) + ")";
  if (st == cb::STATUS_ALLOC_FAILED) throw OutOfMemoryError(text);
  if (st == cb::STATUS_INVALID_VALUE) throw InvalidArgument(text);
  if (st == cb::STATUS_NOT_SUPPORTED || st == cb::STATUS_ARCH_MISMATCH) throw Unavailable(text);
  throw Error(text);
}

// One handle per (device, thread), created on first use and destroyed when the thread ends. The workspace
// for the per-thread and legacy default streams (which never go away) is cached with the handle; for other
// streams a workspace is taken from the pool for the call and returned to it in stream order afterwards.
struct Slot {
  cb::Handle handle = nullptr;
  std::unique_ptr<DeviceBuffer> ws;  // for ws_stream
  StreamHandle ws_stream = nullptr;
};

struct ThreadHandles {
  std::vector<Slot> slots;
  ~ThreadHandles() {
    for (Slot& s : slots) {
      try {
        s.ws.reset();
        if (s.handle) cb::api().destroy(s.handle);
      } catch (...) {
      }
    }
  }
};

thread_local ThreadHandles t_handles;

std::int64_t workspace_bytes(int device) {
  return device_properties(device).cc_major >= 9 ? (32 << 20) : (4 << 20);
}

struct Bound {
  cb::Handle h = nullptr;
  std::unique_ptr<DeviceBuffer> call_ws;  // held until the call has been queued
};

Bound bind(int device, StreamHandle stream) {
  const cb::Api& api = cb::api();
  auto& slots = t_handles.slots;
  if (static_cast<int>(slots.size()) <= device) slots.resize(device + 1);
  Slot& slot = slots[device];
  if (!slot.handle) {
    check(api.create(&slot.handle), "cublasCreate");
    check(api.set_pointer_mode(slot.handle, cb::POINTER_MODE_HOST), "cublasSetPointerMode");
  }
  Bound b;
  b.h = slot.handle;
  // cublasSetStream resets the workspace to cuBLAS's own, so the workspace is set after it every time.
  check(api.set_stream(b.h, stream), "cublasSetStream");
  const std::int64_t bytes = workspace_bytes(device);
  const bool lasting = stream == nullptr || stream == per_thread_default_stream();
  DeviceBuffer* ws;
  if (lasting) {
    if (!slot.ws || slot.ws_stream != stream) {
      slot.ws.reset();
      slot.ws = std::make_unique<DeviceBuffer>(bytes, device, stream);
      slot.ws_stream = stream;
    }
    ws = slot.ws.get();
  } else {
    b.call_ws = std::make_unique<DeviceBuffer>(bytes, device, stream);
    ws = b.call_ws.get();
  }
  check(api.set_workspace(b.h, ws->data(), static_cast<std::size_t>(bytes)), "cublasSetWorkspace");
  return b;
}

cudaDataType data_type(DType d) {
  switch (d) {
    case DType::Float16: return CUDA_R_16F;
    case DType::BFloat16: return CUDA_R_16BF;
    case DType::Float32: return CUDA_R_32F;
    case DType::Float64: return CUDA_R_64F;
    case DType::Complex64: return CUDA_C_32F;
    case DType::Complex128: return CUDA_C_64F;
    default: throw TypeError(std::string("cuBLAS: unsupported dtype ") + dtype_name(d));
  }
}

bool double_compute(DType d) { return d == DType::Float64 || d == DType::Complex128; }

struct Scalars {
  alignas(16) unsigned char one[16];
  alignas(16) unsigned char zero[16];
  explicit Scalars(DType d) {
    std::fill(one, one + 16, 0);
    std::fill(zero, zero + 16, 0);
    if (double_compute(d)) {
      const double v = 1.0;
      std::copy(reinterpret_cast<const unsigned char*>(&v), reinterpret_cast<const unsigned char*>(&v) + 8, one);
    } else {
      const float v = 1.0f;
      std::copy(reinterpret_cast<const unsigned char*>(&v), reinterpret_cast<const unsigned char*>(&v) + 4, one);
    }
  }
};

}  // namespace

int cublas_version(int device) {
  Bound b = bind(device, per_thread_default_stream());
  int v = 0;
  check(cb::api().get_version(b.h, &v), "cublasGetVersion");
  return v;
}

void gemm(int device, const GemmCall& c, StreamHandle stream) {
  const cb::Api& api = cb::api();
  Bound b = bind(device, stream);
  const cudaDataType t = data_type(c.dtype);
  cb::ComputeType ct;
  if (double_compute(c.dtype)) ct = cb::COMPUTE_64F;
  else if (c.tf32 && (c.dtype == DType::Float32 || c.dtype == DType::Complex64)) ct = cb::COMPUTE_32F_FAST_TF32;
  else ct = cb::COMPUTE_32F;  // float16/bfloat16 inputs accumulate in float32
  const Scalars sc(c.dtype);
  const auto opa = static_cast<cb::Operation>(c.op_a), opb = static_cast<cb::Operation>(c.op_b);
  if (c.batch == 1) {
    check(api.gemm_ex(b.h, opa, opb, c.m, c.n, c.k, sc.one, c.a, t, c.lda, c.b, t, c.ldb, sc.zero, c.c, t, c.ldc,
                      ct, cb::GEMM_DEFAULT),
          "cublasGemmEx");
  } else {
    check(api.gemm_strided_batched_ex(b.h, opa, opb, c.m, c.n, c.k, sc.one, c.a, t, c.lda, c.stride_a, c.b, t,
                                      c.ldb, c.stride_b, sc.zero, c.c, t, c.ldc, c.stride_c, c.batch, ct,
                                      cb::GEMM_DEFAULT),
          "cublasGemmStridedBatchedEx");
  }
}

void gemv(int device, DType dtype, int op, std::int64_t m, std::int64_t n, const void* a, std::int64_t lda,
          const void* x, std::int64_t incx, void* y, std::int64_t incy, StreamHandle stream) {
  const cb::Api& api = cb::api();
  cb::Gemv64Fn fn;
  switch (dtype) {
    case DType::Float32: fn = api.sgemv; break;
    case DType::Float64: fn = api.dgemv; break;
    case DType::Complex64: fn = api.cgemv; break;
    case DType::Complex128: fn = api.zgemv; break;
    default: throw TypeError(std::string("gemv: unsupported dtype ") + dtype_name(dtype));
  }
  Bound b = bind(device, stream);
  const Scalars sc(dtype);
  check(fn(b.h, static_cast<cb::Operation>(op), m, n, sc.one, a, std::max<std::int64_t>(lda, 1), x, incx, sc.zero,
           y, incy),
        "cublas gemv");
}

void dot(int device, DType dtype, bool conj, std::int64_t n, const void* x, std::int64_t incx, const void* y,
         std::int64_t incy, void* result, StreamHandle stream) {
  const cb::Api& api = cb::api();
  Bound b = bind(device, stream);
  const cudaDataType t = data_type(dtype);
  const cudaDataType exec = dtype == DType::Float16 || dtype == DType::BFloat16 ? CUDA_R_32F : t;
  check(api.set_pointer_mode(b.h, cb::POINTER_MODE_DEVICE), "cublasSetPointerMode");
  const cb::Status st = (conj ? api.dotc_ex : api.dot_ex)(b.h, n, x, t, incx, y, t, incy, result, t, exec);
  check(api.set_pointer_mode(b.h, cb::POINTER_MODE_HOST), "cublasSetPointerMode");
  check(st, conj ? "cublasDotcEx" : "cublasDotEx");
}

// ------------------------------------------------------------------------------------ matmul_reduce kernels

namespace {

constexpr int kColsThreads = 256;  // cols kernel block: TX column groups x TY row lanes, TX * TY = 256
constexpr int kRowsThreads = 256;

template <class T, int V>
struct alignas(sizeof(T) * V) VecT {
  T v[V];
};

// Step 1 (Weighted = false): y (float64) = column sums. Step 2 (Weighted = true): y (T) = w^T X.
// blockDim = (TX, TY); dynamic shared memory: TY * TX * V doubles.
template <class T, int V, bool Weighted>
__global__ void __launch_bounds__(kColsThreads, min_blocks_per_sm(Weighted ? 6 : 8, kColsThreads)) cols_kernel(const T* __restrict__ x, std::int64_t rows,
                                                             std::int64_t cols, std::int64_t sr,
                                                             const double* __restrict__ w,
                                                             double* __restrict__ partial,
                                                             unsigned* __restrict__ counters, void* __restrict__ y,
                                                             std::int64_t rows_per_split) {
  extern __shared__ double sh[];
  __shared__ bool last;
  const int tx = threadIdx.x, ty = threadIdx.y, TX = blockDim.x, TY = blockDim.y;
  const int W = TX * V;  // columns per block
  const std::int64_t c0 = (static_cast<std::int64_t>(blockIdx.x) * TX + tx) * V;
  const std::int64_t r_begin = static_cast<std::int64_t>(blockIdx.y) * rows_per_split;
  const std::int64_t r_end = min(rows, r_begin + rows_per_split);
  double acc[V];
#pragma unroll
  for (int v = 0; v < V; ++v) acc[v] = 0.0;
  if (c0 + V <= cols) {
    const T* p = x + c0;
    std::int64_t r = r_begin + ty;
    constexpr int U = 4;
    for (; r + (U - 1) * TY < r_end; r += U * TY) {
      VecT<T, V> q[U];
#pragma unroll
      for (int u = 0; u < U; ++u) q[u] = *reinterpret_cast<const VecT<T, V>*>(p + (r + u * TY) * sr);
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const double wu = Weighted ? w[r + u * TY] : 1.0;
#pragma unroll
        for (int v = 0; v < V; ++v) acc[v] = Weighted ? fma(wu, static_cast<double>(q[u].v[v]), acc[v])
                                                      : acc[v] + static_cast<double>(q[u].v[v]);
      }
    }
    for (; r < r_end; r += TY) {
      const VecT<T, V> q = *reinterpret_cast<const VecT<T, V>*>(p + r * sr);
      const double wu = Weighted ? w[r] : 1.0;
#pragma unroll
      for (int v = 0; v < V; ++v)
        acc[v] = Weighted ? fma(wu, static_cast<double>(q.v[v]), acc[v]) : acc[v] + static_cast<double>(q.v[v]);
    }
  } else {
    for (std::int64_t r = r_begin + ty; r < r_end; r += TY) {
      const double wu = Weighted ? w[r] : 1.0;
#pragma unroll
      for (int v = 0; v < V; ++v)
        if (c0 + v < cols) acc[v] = Weighted ? fma(wu, static_cast<double>(x[r * sr + c0 + v]), acc[v])
                                             : acc[v] + static_cast<double>(x[r * sr + c0 + v]);
    }
  }
#pragma unroll
  for (int v = 0; v < V; ++v) sh[ty * W + tx * V + v] = acc[v];
  __syncthreads();
  // The block's W columns, one thread each (fixed order over the TY lanes).
  const int tid = ty * TX + tx, nthreads = TX * TY;
  const std::int64_t tile0 = static_cast<std::int64_t>(blockIdx.x) * W;
  if (gridDim.y == 1) {
    for (int j = tid; j < W; j += nthreads) {
      double s = 0.0;
      for (int l = 0; l < TY; ++l) s += sh[l * W + j];
      if (tile0 + j < cols) {
        if (Weighted) static_cast<T*>(y)[tile0 + j] = static_cast<T>(s);
        else static_cast<double*>(y)[tile0 + j] = s;
      }
    }
    return;
  }
  for (int j = tid; j < W; j += nthreads) {
    double s = 0.0;
    for (int l = 0; l < TY; ++l) s += sh[l * W + j];
    if (tile0 + j < cols) partial[static_cast<std::int64_t>(blockIdx.y) * cols + tile0 + j] = s;
  }
  __threadfence();
  __syncthreads();
  if (tid == 0) last = atomicAdd(&counters[blockIdx.x], 1u) == gridDim.y - 1;
  __syncthreads();
  if (!last) return;
  __threadfence();
  for (int j = tid; j < W; j += nthreads) {
    if (tile0 + j >= cols) continue;
    // Four loads in flight at a time (this runs on one block per tile: the kernel's tail), summed in split
    // order so that the result does not depend on timing.
    const double* q = partial + tile0 + j;
    double s = 0.0;
    unsigned p = 0;
    for (; p + 4 <= gridDim.y; p += 4) {
      double t[4];
#pragma unroll
      for (int u = 0; u < 4; ++u) t[u] = __ldcg(q + static_cast<std::int64_t>(p + u) * cols);
#pragma unroll
      for (int u = 0; u < 4; ++u) s += t[u];
    }
    for (; p < gridDim.y; ++p) s += __ldcg(q + static_cast<std::int64_t>(p) * cols);
    if (Weighted) static_cast<T*>(y)[tile0 + j] = static_cast<T>(s);
    else static_cast<double*>(y)[tile0 + j] = s;
  }
}

// One warp per output c: y[c] = sum_r w[r] x[c * sc + r].
template <class T, int V, bool Weighted>
__global__ void __launch_bounds__(kRowsThreads) rows_kernel(const T* __restrict__ x, std::int64_t rows,
                                                             std::int64_t cols, std::int64_t sc,
                                                             const double* __restrict__ w, void* __restrict__ y) {
  const int lane = threadIdx.x & 31;
  const std::int64_t warps = static_cast<std::int64_t>(gridDim.x) * (kRowsThreads / 32);
  const std::int64_t nvec = rows / V;
  for (std::int64_t c = static_cast<std::int64_t>(blockIdx.x) * (kRowsThreads / 32) + (threadIdx.x >> 5); c < cols;
       c += warps) {
    const T* p = x + c * sc;
    double acc = 0.0;
    std::int64_t i = lane;
    constexpr int U = 4;
    for (; i + (U - 1) * 32 < nvec; i += U * 32) {
      VecT<T, V> q[U];
#pragma unroll
      for (int u = 0; u < U; ++u) q[u] = reinterpret_cast<const VecT<T, V>*>(p)[i + u * 32];
#pragma unroll
      for (int u = 0; u < U; ++u)
#pragma unroll
        for (int v = 0; v < V; ++v) {
          const std::int64_t r = (i + u * 32) * V + v;
          acc = Weighted ? fma(w[r], static_cast<double>(q[u].v[v]), acc) : acc + static_cast<double>(q[u].v[v]);
        }
    }
    for (; i < nvec; i += 32) {
      const VecT<T, V> q = reinterpret_cast<const VecT<T, V>*>(p)[i];
#pragma unroll
      for (int v = 0; v < V; ++v) {
        const std::int64_t r = i * V + v;
        acc = Weighted ? fma(w[r], static_cast<double>(q.v[v]), acc) : acc + static_cast<double>(q.v[v]);
      }
    }
    for (std::int64_t r = nvec * V + lane; r < rows; r += 32)
      acc = Weighted ? fma(w[r], static_cast<double>(p[r]), acc) : acc + static_cast<double>(p[r]);
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
    if (lane == 0) {
      if (Weighted) static_cast<T*>(y)[c] = static_cast<T>(acc);
      else static_cast<double*>(y)[c] = acc;
    }
  }
}

// Resident blocks of `kernel` on the whole device, cached per (kernel, device, threads, shared bytes).
int resident_blocks(const void* kernel, int threads, std::size_t smem, int device) {
  struct Entry {
    const void* k;
    int device, threads;
    std::size_t smem;
    int blocks;
  };
  static thread_local std::vector<Entry> cache;
  for (const Entry& e : cache)
    if (e.k == kernel && e.device == device && e.threads == threads && e.smem == smem) return e.blocks;
  int per_sm = 0;
  NPGPU_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem));
  const int blocks = std::max(1, per_sm) * device_properties(device).multiprocessor_count;
  cache.push_back({kernel, device, threads, smem, blocks});
  return blocks;
}

// Columns per thread-row of the cols kernel's block (NPGPU_MATMUL_REDUCE_TX: 32, 64, 128 or 256; the rest of
// the 256 threads are row lanes). Read per call so that benchmarks can sweep it.
int cols_tx() {
  if (const char* v = std::getenv("NPGPU_MATMUL_REDUCE_TX")) {
    const int t = std::atoi(v);
    if (t == 32 || t == 64 || t == 128 || t == 256) return t;
  }
  return 32;  // the fastest tile width for the diffusion demo's shapes (docs/performance-notes.md)
}

// How one step runs: the kernel, its grid and the scratch it needs.
struct StepPlan {
  bool cols = false;  // cols kernel (else rows kernel)
  int v = 1;          // vector width
  const void* kernel = nullptr;
  dim3 grid, block;
  std::size_t smem = 0;
  std::int64_t per = 0;                    // rows per split (cols kernel)
  std::int64_t partial_doubles = 0, ncounters = 0;
};

template <class T, bool Weighted>
StepPlan plan_step(int device, const ReduceOperand& x) {
  constexpr int VV = 16 / sizeof(T);
  StepPlan p;
  const bool aligned = reinterpret_cast<std::uintptr_t>(x.data) % 16 == 0;
  p.cols = !((x.cols == 1 && x.stride_r == 1) || !(x.stride_c == 1 || x.cols == 1));
  if (p.cols) {
    p.v = aligned && x.stride_r % VV == 0 ? VV : 1;
    p.kernel = p.v == VV ? reinterpret_cast<const void*>(cols_kernel<T, VV, Weighted>)
                         : reinterpret_cast<const void*>(cols_kernel<T, 1, Weighted>);
    const int tx = cols_tx(), ty = kColsThreads / tx;
    p.block = dim3(tx, ty);
    p.smem = static_cast<std::size_t>(kColsThreads) * p.v * sizeof(double);
    const std::int64_t width = static_cast<std::int64_t>(tx) * p.v;
    const std::int64_t gx = (x.cols + width - 1) / width;
    if (gx > 0x7fffffff) throw InvalidArgument("matmul_reduce: too many columns");
    // One wave of resident blocks; each split gets at least 8 rows per row lane.
    const std::int64_t wave = resident_blocks(p.kernel, kColsThreads, p.smem, device);
    std::int64_t splits = std::max<std::int64_t>(1, wave / gx);
    splits = std::min<std::int64_t>(splits, std::max<std::int64_t>(1, x.rows / (8 * ty)));
    splits = std::min<std::int64_t>(splits, 65535);
    p.per = (x.rows + splits - 1) / splits;
    splits = (x.rows + p.per - 1) / p.per;
    p.grid = dim3(static_cast<unsigned>(gx), static_cast<unsigned>(splits));
    if (splits > 1) {
      p.partial_doubles = splits * x.cols;
      p.ncounters = gx;
    }
  } else {
    if (x.stride_r != 1) throw InvalidArgument("matmul_reduce: internal error: no unit stride");
    p.v = aligned && x.stride_c % VV == 0 ? VV : 1;
    p.kernel = p.v == VV ? reinterpret_cast<const void*>(rows_kernel<T, VV, Weighted>)
                         : reinterpret_cast<const void*>(rows_kernel<T, 1, Weighted>);
    const std::int64_t wave = resident_blocks(p.kernel, kRowsThreads, 0, device);
    const std::int64_t need = (x.cols + kRowsThreads / 32 - 1) / (kRowsThreads / 32);
    p.grid = dim3(static_cast<unsigned>(std::max<std::int64_t>(1, std::min<std::int64_t>(need, 8 * wave))));
    p.block = dim3(kRowsThreads);
  }
  return p;
}

template <class T, bool Weighted>
void launch_step(const StepPlan& p, const ReduceOperand& x, const double* w, double* partial, unsigned* counters,
                 void* y, cudaStream_t s) {
  constexpr int VV = 16 / sizeof(T);
  const T* data = static_cast<const T*>(x.data);
  if (p.cols) {
    if (p.v == VV)
      cols_kernel<T, VV, Weighted><<<p.grid, p.block, p.smem, s>>>(data, x.rows, x.cols, x.stride_r, w, partial,
                                                                   counters, y, p.per);
    else
      cols_kernel<T, 1, Weighted><<<p.grid, p.block, p.smem, s>>>(data, x.rows, x.cols, x.stride_r, w, partial,
                                                                  counters, y, p.per);
  } else {
    if (p.v == VV)
      rows_kernel<T, VV, Weighted><<<p.grid, p.block, 0, s>>>(data, x.rows, x.cols, x.stride_c, w, y);
    else
      rows_kernel<T, 1, Weighted><<<p.grid, p.block, 0, s>>>(data, x.rows, x.cols, x.stride_c, w, y);
  }
  NPGPU_CHECK_LAUNCH("matmul_reduce");
}

template <class T>
void reduce_typed(int device, const ReduceOperand& x1, const ReduceOperand& x2, void* y, StreamHandle stream) {
  auto s = static_cast<cudaStream_t>(stream);
  const StepPlan p1 = plan_step<T, false>(device, x1), p2 = plan_step<T, true>(device, x2);
  // Scratch: the float64 k-vector, the partials (shared by the steps, which run one after the other), then
  // both steps' counters (zeroed by one memset).
  const std::int64_t k = x1.cols;
  const std::int64_t mid_bytes = (k * 8 + 255) / 256 * 256;
  const std::int64_t part_bytes = (std::max(p1.partial_doubles, p2.partial_doubles) * 8 + 255) / 256 * 256;
  const std::int64_t cnt = p1.ncounters + p2.ncounters;
  DeviceBuffer scratch(mid_bytes + part_bytes + cnt * 4, device, stream);
  char* base = static_cast<char*>(scratch.data());
  double* mid = reinterpret_cast<double*>(base);
  double* partial = reinterpret_cast<double*>(base + mid_bytes);
  unsigned* counters = reinterpret_cast<unsigned*>(base + mid_bytes + part_bytes);
  if (cnt) NPGPU_CUDA_TRY(cudaMemsetAsync(counters, 0, static_cast<size_t>(cnt) * 4, s));
  launch_step<T, false>(p1, x1, nullptr, partial, counters, mid, s);
  launch_step<T, true>(p2, x2, mid, partial, counters + p1.ncounters, y, s);
}

template <class T>
void weighted_typed(int device, const ReduceOperand& x, const double* w, void* y, StreamHandle stream) {
  auto s = static_cast<cudaStream_t>(stream);
  const StepPlan p = plan_step<T, true>(device, x);
  const std::int64_t part_bytes = (p.partial_doubles * 8 + 255) / 256 * 256;
  DeviceBuffer scratch(part_bytes + p.ncounters * 4, device, stream);
  double* partial = static_cast<double*>(scratch.data());
  unsigned* counters = reinterpret_cast<unsigned*>(static_cast<char*>(scratch.data()) + part_bytes);
  if (p.ncounters) NPGPU_CUDA_TRY(cudaMemsetAsync(counters, 0, static_cast<size_t>(p.ncounters) * 4, s));
  launch_step<T, true>(p, x, w, partial, counters, y, s);
}

}  // namespace

void matmul_reduce_weighted(int device, DType dtype, const ReduceOperand& x, const double* w, void* y,
                            StreamHandle stream) {
  if (dtype == DType::Float32) weighted_typed<float>(device, x, w, y, stream);
  else if (dtype == DType::Float64) weighted_typed<double>(device, x, w, y, stream);
  else throw TypeError(std::string("matmul_reduce: unsupported dtype ") + dtype_name(dtype));
}

void matmul_reduce_kernels(int device, DType dtype, const ReduceOperand& x1, const ReduceOperand& x2, void* y,
                           StreamHandle stream) {
  if (x2.rows != x1.cols) throw InvalidArgument("matmul_reduce: internal error: step sizes differ");
  if (dtype == DType::Float32) reduce_typed<float>(device, x1, x2, y, stream);
  else if (dtype == DType::Float64) reduce_typed<double>(device, x1, x2, y, stream);
  else throw TypeError(std::string("matmul_reduce: unsupported dtype ") + dtype_name(dtype));
}

void weighted_reduce_cublas(int device, DType dtype, const void* x, std::int64_t rows, std::int64_t cols,
                            std::int64_t stride_r, std::int64_t stride_c, const void* w, void* y,
                            StreamHandle stream) {
  // y = X^T w: X row-major (stride_c == 1) is stored column-major as X^T (cols x rows, ld stride_r).
  if (stride_c == 1 && stride_r >= std::max<std::int64_t>(cols, 1))
    gemv(device, dtype, 0, cols, rows, x, stride_r, w, 1, y, 1, stream);
  else if (stride_r == 1 && stride_c >= std::max<std::int64_t>(rows, 1))
    gemv(device, dtype, 1, rows, cols, x, stride_c, w, 1, y, 1, stream);
  else
    throw InvalidArgument("matmul_reduce: internal error: layout cuBLAS cannot take");
}

}  // namespace cuda
}  // namespace npgpu
