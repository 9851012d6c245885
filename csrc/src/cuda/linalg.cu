// CUDA side of the dense linear algebra family: cuSOLVER's 64-bit generic API (cusolverDnX*: one entry point
// for the four dtypes, 64-bit sizes), opened at run time, one handle per (device, thread), device workspaces
// from the pool sized once per call and reused across the batch's matrices.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "common/complex.hpp"
#include "common/cuda_check.hpp"
#include "common/cusolver_api.hpp"
#include "common/dynlib.hpp"
#include "npgpu/errors.hpp"
#include "npgpu/linalg.hpp"
#include "npgpu/memory.hpp"

namespace npgpu {
namespace detail::cusolver {

const Api& api() {
  static const Api a = [] {
    const char* so = "libcusolver.so.12";
    void* lib = open_cuda_library(so, "nvidia-cusolver");
    Api x{};
    x.create = library_function<CreateFn>(lib, "cusolverDnCreate", so);
    x.destroy = library_function<DestroyFn>(lib, "cusolverDnDestroy", so);
    x.set_stream = library_function<SetStreamFn>(lib, "cusolverDnSetStream", so);
    x.create_params = library_function<CreateParamsFn>(lib, "cusolverDnCreateParams", so);
    x.destroy_params = library_function<DestroyParamsFn>(lib, "cusolverDnDestroyParams", so);
    x.potrf_buffer = library_function<PotrfBufferFn>(lib, "cusolverDnXpotrf_bufferSize", so);
    x.potrf = library_function<PotrfFn>(lib, "cusolverDnXpotrf", so);
    x.potrs = library_function<PotrsFn>(lib, "cusolverDnXpotrs", so);
    x.getrf_buffer = library_function<GetrfBufferFn>(lib, "cusolverDnXgetrf_bufferSize", so);
    x.getrf = library_function<GetrfFn>(lib, "cusolverDnXgetrf", so);
    x.getrs = library_function<GetrsFn>(lib, "cusolverDnXgetrs", so);
    x.syevd_buffer = library_function<SyevdBufferFn>(lib, "cusolverDnXsyevd_bufferSize", so);
    x.syevd = library_function<SyevdFn>(lib, "cusolverDnXsyevd", so);
    x.gesvd_buffer = library_function<GesvdBufferFn>(lib, "cusolverDnXgesvd_bufferSize", so);
    x.gesvd = library_function<GesvdFn>(lib, "cusolverDnXgesvd", so);
    x.geqrf_buffer = library_function<GeqrfBufferFn>(lib, "cusolverDnXgeqrf_bufferSize", so);
    x.geqrf = library_function<GeqrfFn>(lib, "cusolverDnXgeqrf", so);
    const char* names[4] = {"cusolverDnSorgqr", "cusolverDnDorgqr", "cusolverDnCungqr", "cusolverDnZungqr"};
    for (int i = 0; i < 4; ++i) {
      x.orgqr_buffer[i] = library_function<OrgqrBufferFn>(lib, (std::string(names[i]) + "_bufferSize").c_str(), so);
      x.orgqr[i] = library_function<OrgqrFn>(lib, names[i], so);
    }
    try {
      x.geev_buffer = library_function<GeevBufferFn>(lib, "cusolverDnXgeev_bufferSize", so);
      x.geev = library_function<GeevFn>(lib, "cusolverDnXgeev", so);
    } catch (const Unavailable&) {
      x.geev_buffer = nullptr;  // general_eigen says so when called
      x.geev = nullptr;
    }
    return x;
  }();
  return a;
}

}  // namespace detail::cusolver

namespace cuda {
namespace {

namespace cs = detail::cusolver;

void check(cs::Status st, const char* call) {
  if (st == cs::STATUS_SUCCESS) return;
  const std::string text = std::string("cuSOLVER ") + call + " failed (status " + std::to_string(static_cast<int>(st)) + ")";
  if (st == cs::STATUS_ALLOC_FAILED) throw OutOfMemoryError(text);
  if (st == cs::STATUS_INVALID_VALUE) throw InvalidArgument(text);
  if (st == cs::STATUS_NOT_SUPPORTED || st == cs::STATUS_ARCH_MISMATCH) throw Unavailable(text);
  throw CudaError(static_cast<int>(st), "CUSOLVER_STATUS_" + std::to_string(static_cast<int>(st)), call, text, false);
}

// One handle and params object per (device, thread), created on first use, destroyed with the thread.
struct Slot {
  cs::Handle handle = nullptr;
  cs::Params params = nullptr;
};

struct ThreadHandles {
  std::vector<Slot> slots;
  ~ThreadHandles() {
    for (Slot& s : slots) {
      try {
        if (s.params) cs::api().destroy_params(s.params);
        if (s.handle) cs::api().destroy(s.handle);
      } catch (...) {
      }
    }
  }
};

thread_local ThreadHandles t_handles;

Slot& bind(int device, StreamHandle stream) {
  const cs::Api& api = cs::api();
  auto& slots = t_handles.slots;
  if (static_cast<int>(slots.size()) <= device) slots.resize(device + 1);
  Slot& slot = slots[device];
  if (!slot.handle) {
    check(api.create(&slot.handle), "cusolverDnCreate");
    check(api.create_params(&slot.params), "cusolverDnCreateParams");
  }
  check(api.set_stream(slot.handle, stream), "cusolverDnSetStream");
  return slot;
}

cudaDataType data_type(DType d) {
  switch (d) {
    case DType::Float32: return CUDA_R_32F;
    case DType::Float64: return CUDA_R_64F;
    case DType::Complex64: return CUDA_C_32F;
    default: return CUDA_C_64F;
  }
}

cudaDataType real_type(DType d) { return d == DType::Float32 || d == DType::Complex64 ? CUDA_R_32F : CUDA_R_64F; }

char* element(const ArrayView& v, std::int64_t index) {
  return static_cast<char*>(v.data) + index * itemsize(v.dtype);
}

// Work areas: the device one from the pool (returned in stream order), the host one a vector.
struct Workspace {
  std::unique_ptr<DeviceBuffer> device;
  std::vector<char> host;
  Workspace(std::size_t device_bytes, std::size_t host_bytes, int dev, StreamHandle stream)
      : device(std::make_unique<DeviceBuffer>(static_cast<std::int64_t>(std::max<std::size_t>(device_bytes, 16)), dev,
                                              stream)),
        host(std::max<std::size_t>(host_bytes, 16)) {}
};

// Zeroes the triangle of column-major n x n matrices that a Cholesky factor leaves untouched.
template <class T>
__global__ void zero_triangle(T* a, std::int64_t n, std::int64_t total, bool keep_lower) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < total; k += stride) {
    const std::int64_t within = k % (n * n), col = within / n, row = within % n;
    if (keep_lower ? row < col : row > col) a[k] = T{};
  }
}

struct alignas(8) C64 { float re, im; };
struct alignas(16) C128 { double re, im; };

void launch_zero_triangle(const ArrayView& a, std::int64_t n, bool keep_lower, cudaStream_t s) {
  const std::int64_t total = a.size();
  const unsigned blocks = static_cast<unsigned>(std::min<std::int64_t>((total + 255) / 256, 1 << 20));
  switch (a.dtype) {
    case DType::Float32: zero_triangle<<<blocks, 256, 0, s>>>(static_cast<float*>(a.data), n, total, keep_lower); break;
    case DType::Float64: zero_triangle<<<blocks, 256, 0, s>>>(static_cast<double*>(a.data), n, total, keep_lower); break;
    case DType::Complex64: zero_triangle<<<blocks, 256, 0, s>>>(static_cast<C64*>(a.data), n, total, keep_lower); break;
    default: zero_triangle<<<blocks, 256, 0, s>>>(static_cast<C128*>(a.data), n, total, keep_lower); break;
  }
  NPGPU_CHECK_LAUNCH("cholesky (zero triangle)");
}

int* info_at(const ArrayView& info, std::int64_t b) { return static_cast<int*>(info.data) + b; }

__device__ float conj_of(float v) { return v; }
__device__ double conj_of(double v) { return v; }
__device__ C64 conj_of(C64 v) { return {v.re, -v.im}; }
__device__ C128 conj_of(C128 v) { return {v.re, -v.im}; }

// In place, each column-major n x n matrix (blockIdx.z) becomes its conjugate transpose: block (bx, by),
// bx <= by, swaps 32 x 32 tile (bx, by) with tile (by, bx) conjugate-transposed, through shared memory (padded
// against bank conflicts). zero_lower: the strictly lower triangle is written as zeros instead.
constexpr int kTile = 32, kTileRows = 8;
template <class T>
__global__ void __launch_bounds__(kTile* kTileRows) conj_transpose_square(T* a, std::int64_t n, bool zero_lower) {
  const std::int64_t bx = blockIdx.x, by = blockIdx.y;
  if (bx > by) return;
  __shared__ T p[kTile][kTile + 1], q[kTile][kTile + 1];
  T* m = a + static_cast<std::int64_t>(blockIdx.z) * n * n;
  const int tx = threadIdx.x;
  const std::int64_t r0 = bx * kTile, c0 = by * kTile;  // tile P: rows r0.., columns c0..; tile Q mirrored
  for (int j = threadIdx.y; j < kTile; j += kTileRows) {
    if (r0 + tx < n && c0 + j < n) p[j][tx] = m[(c0 + j) * n + r0 + tx];
    if (c0 + tx < n && r0 + j < n) q[j][tx] = m[(r0 + j) * n + c0 + tx];
  }
  __syncthreads();
  for (int j = threadIdx.y; j < kTile; j += kTileRows) {
    const std::int64_t pr = r0 + tx, pc = c0 + j, qr = c0 + tx, qc = r0 + j;
    if (pr < n && pc < n) m[pc * n + pr] = zero_lower && pr > pc ? T{} : conj_of(q[tx][j]);
    if (bx != by && qr < n && qc < n) m[qc * n + qr] = zero_lower && qr > qc ? T{} : conj_of(p[tx][j]);
  }
}

void launch_conj_transpose(const ArrayView& a, std::int64_t n, std::int64_t batch, bool zero_lower, cudaStream_t s) {
  const unsigned t = static_cast<unsigned>((n + kTile - 1) / kTile);
  for (std::int64_t b0 = 0; b0 < batch; b0 += 65535) {
    const dim3 grid(t, t, static_cast<unsigned>(std::min<std::int64_t>(batch - b0, 65535)));
    const dim3 block(kTile, kTileRows);
    char* base = element(a, b0 * n * n);
    switch (a.dtype) {
      case DType::Float32: conj_transpose_square<<<grid, block, 0, s>>>(reinterpret_cast<float*>(base), n, zero_lower); break;
      case DType::Float64: conj_transpose_square<<<grid, block, 0, s>>>(reinterpret_cast<double*>(base), n, zero_lower); break;
      case DType::Complex64: conj_transpose_square<<<grid, block, 0, s>>>(reinterpret_cast<C64*>(base), n, zero_lower); break;
      default: conj_transpose_square<<<grid, block, 0, s>>>(reinterpret_cast<C128*>(base), n, zero_lower); break;
    }
    NPGPU_CHECK_LAUNCH("cholesky (transpose)");
  }
}

// The upper factor of a large matrix through potrf's lower one (U = L^H of A^H): cuSOLVER's lower potrf is the
// faster (docs/performance-notes.md). NPGPU_CHOLESKY_FLIP=0 turns it off, for measurements.
bool cholesky_flip(std::int64_t n, bool lower) {
  static const bool on = [] {
    const char* e = std::getenv("NPGPU_CHOLESKY_FLIP");
    return e == nullptr || e[0] != '0';
  }();
  return on && !lower && n >= 512;
}

}  // namespace

void cholesky(const ArrayView& a, std::int64_t n, std::int64_t batch, bool lower, const ArrayView& info,
              StreamHandle stream) {
  Slot& h = bind(a.device, stream);
  const cs::Api& api = cs::api();
  const cudaDataType t = data_type(a.dtype);
  const auto s = static_cast<cudaStream_t>(stream);
  const bool flip = cholesky_flip(n, lower);
  if (flip) launch_conj_transpose(a, n, batch, false, s);
  const cs::Fill fill = lower || flip ? cs::FILL_LOWER : cs::FILL_UPPER;
  std::size_t dbytes = 0, hbytes = 0;
  check(api.potrf_buffer(h.handle, h.params, fill, n, t, a.data, n, t, &dbytes, &hbytes), "cusolverDnXpotrf_bufferSize");
  Workspace ws(dbytes, hbytes, a.device, stream);
  for (std::int64_t b = 0; b < batch; ++b)
    check(api.potrf(h.handle, h.params, fill, n, t, element(a, b * n * n), n, t, ws.device->data(), dbytes,
                    ws.host.data(), hbytes, info_at(info, b)),
          "cusolverDnXpotrf");
  if (flip)
    launch_conj_transpose(a, n, batch, true, s);  // back to the upper factor, the lower triangle zeroed
  else
    launch_zero_triangle(a, n, lower, s);
}

void cholesky_solve(const ArrayView& f, const ArrayView& b, std::int64_t n, std::int64_t nrhs, std::int64_t batch,
                    bool lower, StreamHandle stream) {
  Slot& h = bind(f.device, stream);
  const cs::Api& api = cs::api();
  const cudaDataType t = data_type(f.dtype);
  DeviceBuffer info(static_cast<std::int64_t>(sizeof(int)) * batch, f.device, stream);  // argument checks only
  for (std::int64_t k = 0; k < batch; ++k)
    check(api.potrs(h.handle, h.params, lower ? cs::FILL_LOWER : cs::FILL_UPPER, n, nrhs, t, element(f, k * n * n),
                    n, t, element(b, k * n * nrhs), n, static_cast<int*>(info.data()) + k),
          "cusolverDnXpotrs");
}

void lu_factor(const ArrayView& a, std::int64_t n, std::int64_t batch, const ArrayView& pivots,
               const ArrayView& info, StreamHandle stream) {
  Slot& h = bind(a.device, stream);
  const cs::Api& api = cs::api();
  const cudaDataType t = data_type(a.dtype);
  std::size_t dbytes = 0, hbytes = 0;
  check(api.getrf_buffer(h.handle, h.params, n, n, t, a.data, n, t, &dbytes, &hbytes), "cusolverDnXgetrf_bufferSize");
  Workspace ws(dbytes, hbytes, a.device, stream);
  auto* piv = static_cast<std::int64_t*>(pivots.data);
  for (std::int64_t b = 0; b < batch; ++b)
    check(api.getrf(h.handle, h.params, n, n, t, element(a, b * n * n), n, piv ? piv + b * n : nullptr, t,
                    ws.device->data(), dbytes, ws.host.data(), hbytes, info_at(info, b)),
          "cusolverDnXgetrf");
}

void lu_solve(const ArrayView& lu, const ArrayView& pivots, const ArrayView& b, std::int64_t n, std::int64_t nrhs,
              std::int64_t batch, bool transpose, StreamHandle stream) {
  Slot& h = bind(lu.device, stream);
  const cs::Api& api = cs::api();
  const cudaDataType t = data_type(lu.dtype);
  DeviceBuffer info(static_cast<std::int64_t>(sizeof(int)) * batch, lu.device, stream);  // argument checks only
  const auto* piv = static_cast<const std::int64_t*>(pivots.data);
  for (std::int64_t k = 0; k < batch; ++k)
    check(api.getrs(h.handle, h.params, transpose ? cs::OP_T : cs::OP_N, n, nrhs, t, element(lu, k * n * n), n,
                    piv + k * n, t, element(b, k * n * nrhs), n, static_cast<int*>(info.data()) + k),
          "cusolverDnXgetrs");
}

void hermitian_eigen(const ArrayView& a, std::int64_t n, std::int64_t batch, bool lower, bool vectors,
                     const ArrayView& w, const ArrayView& info, StreamHandle stream) {
  Slot& h = bind(a.device, stream);
  const cs::Api& api = cs::api();
  const cudaDataType t = data_type(a.dtype), rt = real_type(a.dtype);
  const cs::Fill fill = lower ? cs::FILL_LOWER : cs::FILL_UPPER;
  const cs::EigMode mode = vectors ? cs::EIG_VECTOR : cs::EIG_NOVECTOR;
  std::size_t dbytes = 0, hbytes = 0;
  check(api.syevd_buffer(h.handle, h.params, mode, fill, n, t, a.data, n, rt, w.data, t, &dbytes, &hbytes),
        "cusolverDnXsyevd_bufferSize");
  Workspace ws(dbytes, hbytes, a.device, stream);
  for (std::int64_t b = 0; b < batch; ++b)
    check(api.syevd(h.handle, h.params, mode, fill, n, t, element(a, b * n * n), n, rt, element(w, b * n), t,
                    ws.device->data(), dbytes, ws.host.data(), hbytes, info_at(info, b)),
          "cusolverDnXsyevd");
}

// Right eigenvectors only: cuSOLVER's geev computes no left ones.
void general_eigen(const ArrayView& a, std::int64_t n, std::int64_t batch, const ArrayView& w, const ArrayView* vr,
                   const ArrayView& info, StreamHandle stream) {
  const cs::Api& api = cs::api();
  if (!api.geev || !api.geev_buffer)
    throw Unavailable("general_eigen: this libcusolver has no cusolverDnXgeev (cuSOLVER 11.7 or newer has it)");
  Slot& h = bind(a.device, stream);
  const cudaDataType t = data_type(a.dtype), wt = data_type(w.dtype);
  const cs::EigMode jobvr = vr ? cs::EIG_VECTOR : cs::EIG_NOVECTOR;
  std::size_t dbytes = 0, hbytes = 0;
  check(api.geev_buffer(h.handle, h.params, cs::EIG_NOVECTOR, jobvr, n, t, a.data, n, wt, w.data, t, nullptr, n, t,
                        vr ? vr->data : nullptr, n, t, &dbytes, &hbytes),
        "cusolverDnXgeev_bufferSize");
  Workspace ws(dbytes, hbytes, a.device, stream);
  for (std::int64_t b = 0; b < batch; ++b)
    check(api.geev(h.handle, h.params, cs::EIG_NOVECTOR, jobvr, n, t, element(a, b * n * n), n, wt,
                   element(w, b * n), t, nullptr, n, t, vr ? element(*vr, b * n * n) : nullptr, n, t,
                   ws.device->data(), dbytes, ws.host.data(), hbytes, info_at(info, b)),
          "cusolverDnXgeev");
}

void svd(const ArrayView& a, std::int64_t m, std::int64_t n, std::int64_t batch, bool full, const ArrayView& s,
         const ArrayView* u, const ArrayView* vt, const ArrayView& info, StreamHandle stream) {
  Slot& h = bind(a.device, stream);
  const cs::Api& api = cs::api();
  const cudaDataType t = data_type(a.dtype), rt = real_type(a.dtype);
  const signed char jobu = u ? (full ? 'A' : 'S') : 'N', jobvt = u ? (full ? 'A' : 'S') : 'N';
  const std::int64_t ucols = full ? m : n;
  void* u0 = u ? u->data : nullptr;
  void* vt0 = vt ? vt->data : nullptr;
  std::size_t dbytes = 0, hbytes = 0;
  check(api.gesvd_buffer(h.handle, h.params, jobu, jobvt, m, n, t, a.data, m, rt, s.data, t, u0, m, t, vt0, n, t,
                         &dbytes, &hbytes),
        "cusolverDnXgesvd_bufferSize");
  Workspace ws(dbytes, hbytes, a.device, stream);
  for (std::int64_t b = 0; b < batch; ++b)
    check(api.gesvd(h.handle, h.params, jobu, jobvt, m, n, t, element(a, b * m * n), m, rt, element(s, b * n), t,
                    u ? element(*u, b * m * ucols) : nullptr, m, t, vt ? element(*vt, b * n * n) : nullptr, n, t,
                    ws.device->data(), dbytes, ws.host.data(), hbytes, info_at(info, b)),
          "cusolverDnXgesvd");
}

void qr_factor(const ArrayView& a, std::int64_t m, std::int64_t n, std::int64_t batch, const ArrayView& tau,
               const ArrayView& info, StreamHandle stream) {
  Slot& h = bind(a.device, stream);
  const cs::Api& api = cs::api();
  const cudaDataType t = data_type(a.dtype);
  const std::int64_t k = std::min(m, n);
  std::size_t dbytes = 0, hbytes = 0;
  check(api.geqrf_buffer(h.handle, h.params, m, n, t, a.data, m, t, tau.data, t, &dbytes, &hbytes),
        "cusolverDnXgeqrf_bufferSize");
  Workspace ws(dbytes, hbytes, a.device, stream);
  for (std::int64_t b = 0; b < batch; ++b)
    check(api.geqrf(h.handle, h.params, m, n, t, element(a, b * m * n), m, t, element(tau, b * k), t,
                    ws.device->data(), dbytes, ws.host.data(), hbytes, info_at(info, b)),
          "cusolverDnXgeqrf");
}

void qr_q(const ArrayView& a, std::int64_t m, std::int64_t ncols, std::int64_t k, std::int64_t batch,
          const ArrayView& tau, StreamHandle stream) {
  Slot& h = bind(a.device, stream);
  const cs::Api& api = cs::api();
  const int type = a.dtype == DType::Float32 ? 0 : a.dtype == DType::Float64 ? 1 : a.dtype == DType::Complex64 ? 2 : 3;
  const int im = static_cast<int>(m), in = static_cast<int>(ncols), ik = static_cast<int>(k);
  int lwork = 0;
  check(api.orgqr_buffer[type](h.handle, im, in, ik, a.data, im, tau.data, &lwork), "cusolverDn<t>orgqr_bufferSize");
  DeviceBuffer work(std::max<std::int64_t>(lwork, 1) * itemsize(a.dtype), a.device, stream);
  DeviceBuffer info(static_cast<std::int64_t>(sizeof(int)) * batch, a.device, stream);
  for (std::int64_t b = 0; b < batch; ++b)
    check(api.orgqr[type](h.handle, im, in, ik, element(a, b * m * ncols), im, element(tau, b * k), work.data(), lwork,
                          static_cast<int*>(info.data()) + b),
          "cusolverDn<t>orgqr");
}

namespace {

constexpr int kSmallThreads = 128;

template <class T>
__device__ __forceinline__ T magnitude(T v) { return v < T(0) ? -v : v; }

// One thread per system: the whole LU factorisation lives in the thread's registers (n <= 16), so a stack of
// small systems costs one launch and one pass over memory. (cuBLAS's getrfBatched + getrsBatched need two
// launches, pointer arrays and the factors and pivots written to and read back from global memory.)
template <class T, int N>
__global__ void __launch_bounds__(kSmallThreads)
    solve_small_kernel(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ x, int* __restrict__ info,
                       std::int64_t batch, std::int64_t nrhs) {
  const std::int64_t s = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (s >= batch) return;
  T m[N][N];
  int piv[N];
  const T* as = a + s * N * N;
#pragma unroll
  for (int i = 0; i < N; ++i)
#pragma unroll
    for (int j = 0; j < N; ++j) m[i][j] = as[i * N + j];
  int singular = 0;
#pragma unroll
  for (int j = 0; j < N; ++j) {
    int p = j;
    T best = magnitude(m[j][j]);
#pragma unroll
    for (int i = j + 1; i < N; ++i) {
      const T v = magnitude(m[i][j]);
      if (v > best) {  // strictly larger: the first of equal moduli, as LAPACK's i?amax
        best = v;
        p = i;
      }
    }
    piv[j] = p;
#pragma unroll
    for (int i = j + 1; i < N; ++i) {
      if (i == p) {  // a compile-time row index keeps m in registers
#pragma unroll
        for (int c = 0; c < N; ++c) {
          const T t = m[i][c];
          m[i][c] = m[j][c];
          m[j][c] = t;
        }
      }
    }
    if (m[j][j] == T(0) && singular == 0) singular = j + 1;
    const T inv = T(1) / m[j][j];
#pragma unroll
    for (int i = j + 1; i < N; ++i) {
      const T f = m[i][j] * inv;
      m[i][j] = f;
#pragma unroll
      for (int c = j + 1; c < N; ++c) m[i][c] -= f * m[j][c];
    }
  }
  info[s] = singular;
  for (std::int64_t c = 0; c < nrhs; ++c) {
    T y[N];
#pragma unroll
    for (int i = 0; i < N; ++i) y[i] = b[(s * N + i) * nrhs + c];
#pragma unroll
    for (int j = 0; j < N; ++j) {
#pragma unroll
      for (int i = j + 1; i < N; ++i) {
        if (i == piv[j]) {
          const T t = y[i];
          y[i] = y[j];
          y[j] = t;
        }
      }
    }
#pragma unroll
    for (int i = 1; i < N; ++i)
#pragma unroll
      for (int k = 0; k < i; ++k) y[i] -= m[i][k] * y[k];
#pragma unroll
    for (int i = N - 1; i >= 0; --i) {
#pragma unroll
      for (int k = i + 1; k < N; ++k) y[i] -= m[i][k] * y[k];
      y[i] /= m[i][i];
    }
#pragma unroll
    for (int i = 0; i < N; ++i) x[(s * N + i) * nrhs + c] = y[i];
  }
}

template <class T, int N = 1>
void launch_solve_small(int n, const ArrayView& a, const ArrayView& b, const ArrayView& x, const ArrayView& info,
                        cudaStream_t s) {
  if constexpr (N <= kSmallSolveMaxN) {
    if (n != N) return launch_solve_small<T, N + 1>(n, a, b, x, info, s);
    const std::int64_t batch = a.shape[0];
    const auto blocks = static_cast<unsigned>((batch + kSmallThreads - 1) / kSmallThreads);
    solve_small_kernel<T, N><<<blocks, kSmallThreads, 0, s>>>(static_cast<const T*>(a.data),
                                                              static_cast<const T*>(b.data), static_cast<T*>(x.data),
                                                              static_cast<int*>(info.data), batch, b.shape[2]);
    NPGPU_CHECK_LAUNCH("solve_small_batched");
  }
}

// ------------------------------------------------------------------------------ random butterflies

// Parker's random butterfly transformation of depth 2 (Baboulin, Dongarra, Herrmann and Tomov 2013): with
// U and V random butterflies, W = U^T A V can be factored without pivoting with high probability, and LU
// without pivoting runs at GEMM speed where getrf's pivot search per column does not. An m x m butterfly
// of depth 2 (m = 4q) mixes each quad of indices i, i + q, i + 2q, i + 3q (i < q): the inner level pairs
// (i, i + q) and (i + 2q, i + 3q), the outer (i, i + 2q) and (i + q, i + 3q); a pair (t, b) at positions
// (p, p + h) goes to D[p] (t + b), D[p + h] (t - b) under B^T, and to D[p] t + D[p + h] b, D[p] t - D[p + h] b
// under B, each over sqrt 2. The diagonals D are exp((u - 1/2) / 10) with u uniform (Parker's choice),
// from a hash of (side and level, position): the same for every call, so solves are reproducible.
enum ButterflyKey : unsigned { kUInner = 1, kUOuter = 2, kVInner = 3, kVOuter = 4 };

__device__ __forceinline__ double butterfly_diagonal(unsigned key, std::int64_t position) {
  // splitmix64's finaliser: a well-mixed 64-bit value from (key, position)
  std::uint64_t z = (static_cast<std::uint64_t>(key) << 48) ^ static_cast<std::uint64_t>(position);
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  const double u = static_cast<double>(z >> 11) * 0x1.0p-53;
  return exp((u - 0.5) / 10.0);
}

constexpr double kHalfSqrt2 = 0.70710678118654752440;

// The butterflies work in float64 (complex128 for complex input): Wide<In> is the type W and the right-hand
// sides take.
using detail::Complex;
template <class In>
using Wide = std::conditional_t<detail::is_complex<In>::value, Complex<double>, double>;

__device__ __forceinline__ double widen(float v) { return v; }
__device__ __forceinline__ double widen(double v) { return v; }
__device__ __forceinline__ Complex<double> widen(Complex<float> v) { return {v.re, v.im}; }
__device__ __forceinline__ Complex<double> widen(Complex<double> v) { return v; }
__device__ __forceinline__ double scaled(double v, double d) { return v * d; }
__device__ __forceinline__ Complex<double> scaled(Complex<double> v, double d) { return {v.re * d, v.im * d}; }

template <class V>
__device__ __forceinline__ void butterfly_pair_t(V& t, V& b, double dt, double db) {
  const V s = t + b, d = t - b;
  t = scaled(s, dt * kHalfSqrt2);
  b = scaled(d, db * kHalfSqrt2);
}

template <class V>
__device__ __forceinline__ void butterfly_pair(V& t, V& b, double dt, double db) {
  const V x = scaled(t, dt), y = scaled(b, db);
  t = scaled(x + y, kHalfSqrt2);
  b = scaled(x - y, kHalfSqrt2);
}

// x (the quad i, i + q, i + 2q, i + 3q) <- U^T x = U0^T (Ud^T x) for the butterfly U of keys (inner, outer).
template <class V>
__device__ __forceinline__ void butterfly_transposed(V (&x)[4], std::int64_t i, std::int64_t q, unsigned inner,
                                                     unsigned outer) {
  butterfly_pair_t(x[0], x[1], butterfly_diagonal(inner, i), butterfly_diagonal(inner, i + q));
  butterfly_pair_t(x[2], x[3], butterfly_diagonal(inner, i + 2 * q), butterfly_diagonal(inner, i + 3 * q));
  butterfly_pair_t(x[0], x[2], butterfly_diagonal(outer, i), butterfly_diagonal(outer, i + 2 * q));
  butterfly_pair_t(x[1], x[3], butterfly_diagonal(outer, i + q), butterfly_diagonal(outer, i + 3 * q));
}

// x <- V x = Vd (V0 x).
template <class V>
__device__ __forceinline__ void butterfly_forward(V (&x)[4], std::int64_t i, std::int64_t q, unsigned inner,
                                                  unsigned outer) {
  butterfly_pair(x[0], x[2], butterfly_diagonal(outer, i), butterfly_diagonal(outer, i + 2 * q));
  butterfly_pair(x[1], x[3], butterfly_diagonal(outer, i + q), butterfly_diagonal(outer, i + 3 * q));
  butterfly_pair(x[0], x[1], butterfly_diagonal(inner, i), butterfly_diagonal(inner, i + q));
  butterfly_pair(x[2], x[3], butterfly_diagonal(inner, i + 2 * q), butterfly_diagonal(inner, i + 3 * q));
}

// w (m x m, C order) = U^T [A 0; 0 I] V for a (n x n, C order): one thread per quad of rows x quad of columns.
template <class T>
__global__ void butterfly_matrix_kernel(const T* __restrict__ a, std::int64_t n, Wide<T>* __restrict__ w,
                                        std::int64_t m) {
  using V = Wide<T>;
  const std::int64_t q = m / 4;
  const std::int64_t j = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (i >= q || j >= q) return;
  V v[4][4];
#pragma unroll
  for (int p = 0; p < 4; ++p)
#pragma unroll
    for (int s = 0; s < 4; ++s) {
      const std::int64_t r = i + p * q, c = j + s * q;
      v[p][s] = r < n && c < n ? widen(a[r * n + c]) : V(r == c ? 1.0 : 0.0);
    }
#pragma unroll
  for (int s = 0; s < 4; ++s) {  // U^T on each column
    V x[4] = {v[0][s], v[1][s], v[2][s], v[3][s]};
    butterfly_transposed(x, i, q, kUInner, kUOuter);
#pragma unroll
    for (int p = 0; p < 4; ++p) v[p][s] = x[p];
  }
#pragma unroll
  for (int p = 0; p < 4; ++p) {  // V on each row: (row V)^T = V^T row^T
    butterfly_transposed(v[p], j, q, kVInner, kVOuter);
#pragma unroll
    for (int s = 0; s < 4; ++s) w[(i + p * q) * m + j + s * q] = v[p][s];
  }
}

// y (nrhs x m, C order: the m x nrhs column-major right-hand sides) = (U^T [b; 0])^T for b (n x nrhs).
template <class T>
__global__ void butterfly_rhs_kernel(const T* __restrict__ b, std::int64_t n, std::int64_t nrhs,
                                     Wide<T>* __restrict__ y, std::int64_t m) {
  using V = Wide<T>;
  const std::int64_t q = m / 4;
  const std::int64_t c = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (i >= q || c >= nrhs) return;
  V x[4];
#pragma unroll
  for (int p = 0; p < 4; ++p) x[p] = i + p * q < n ? widen(b[(i + p * q) * nrhs + c]) : V(0.0);
  butterfly_transposed(x, i, q, kUInner, kUOuter);
#pragma unroll
  for (int p = 0; p < 4; ++p) y[c * m + i + p * q] = x[p];
}

// x (n x nrhs, C order) = the first n rows of V y^T.
template <class V>
__global__ void butterfly_solution_kernel(const V* __restrict__ y, std::int64_t m, std::int64_t nrhs,
                                          V* __restrict__ x, std::int64_t n) {
  const std::int64_t q = m / 4;
  const std::int64_t c = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (i >= q || c >= nrhs) return;
  V v[4];
#pragma unroll
  for (int p = 0; p < 4; ++p) v[p] = y[c * m + i + p * q];
  butterfly_forward(v, i, q, kVInner, kVOuter);
#pragma unroll
  for (int p = 0; p < 4; ++p)
    if (i + p * q < n) x[(i + p * q) * nrhs + c] = v[p];
}

// A 2-D grid of (columns, rows) threads in 32 x 8 blocks.
void grid_2d(std::int64_t cols, std::int64_t rows, dim3& grid, dim3& block) {
  block = dim3(32, 8);
  grid = dim3(static_cast<unsigned>((cols + 31) / 32), static_cast<unsigned>((rows + 7) / 8));
}

// f(T()) for the element type T of dtype d (a float or complex dtype).
template <class F>
void with_float_type(DType d, F&& f) {
  switch (d) {
    case DType::Float32: return f(float());
    case DType::Float64: return f(double());
    case DType::Complex64: return f(Complex<float>());
    default: return f(Complex<double>());
  }
}

}  // namespace

void butterfly_matrix(const ArrayView& a, std::int64_t n, const ArrayView& w, StreamHandle stream) {
  const std::int64_t m = butterfly_size(n), q = m / 4;
  dim3 grid, block;
  grid_2d(q, q, grid, block);
  const auto s = static_cast<cudaStream_t>(stream);
  with_float_type(a.dtype, [&](auto t) {
    using T = decltype(t);
    butterfly_matrix_kernel<<<grid, block, 0, s>>>(static_cast<const T*>(a.data), n, static_cast<Wide<T>*>(w.data), m);
  });
  NPGPU_CHECK_LAUNCH("butterfly_matrix");
}

void butterfly_rhs(const ArrayView& b, std::int64_t n, std::int64_t nrhs, const ArrayView& y, StreamHandle stream) {
  const std::int64_t m = butterfly_size(n);
  dim3 grid, block;
  grid_2d(nrhs, m / 4, grid, block);
  const auto s = static_cast<cudaStream_t>(stream);
  with_float_type(b.dtype, [&](auto t) {
    using T = decltype(t);
    butterfly_rhs_kernel<<<grid, block, 0, s>>>(static_cast<const T*>(b.data), n, nrhs, static_cast<Wide<T>*>(y.data),
                                                m);
  });
  NPGPU_CHECK_LAUNCH("butterfly_rhs");
}

void butterfly_solution(const ArrayView& y, std::int64_t n, std::int64_t nrhs, const ArrayView& x,
                        StreamHandle stream) {
  const std::int64_t m = butterfly_size(n);
  dim3 grid, block;
  grid_2d(nrhs, m / 4, grid, block);
  const auto s = static_cast<cudaStream_t>(stream);
  if (y.dtype == DType::Float64)
    butterfly_solution_kernel<<<grid, block, 0, s>>>(static_cast<const double*>(y.data), m, nrhs,
                                                     static_cast<double*>(x.data), n);
  else
    butterfly_solution_kernel<<<grid, block, 0, s>>>(static_cast<const Complex<double>*>(y.data), m, nrhs,
                                                     static_cast<Complex<double>*>(x.data), n);
  NPGPU_CHECK_LAUNCH("butterfly_solution");
}

void solve_small_batched(const ArrayView& a, const ArrayView& b, const ArrayView& x, const ArrayView& info,
                         StreamHandle stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  const int n = static_cast<int>(a.shape[1]);
  if (a.dtype == DType::Float32)
    launch_solve_small<float>(n, a, b, x, info, s);
  else
    launch_solve_small<double>(n, a, b, x, info, s);
}

}  // namespace cuda
}  // namespace npgpu
