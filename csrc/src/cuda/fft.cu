// CUDA side of the FFT family: cuFFT opened at run time, the layout of a strided transform in cuFFT's
// advanced data layout (cufftMakePlanMany64), and an LRU cache of plans whose work areas come from npgpu's
// pool at each call (cufftSetAutoAllocation(0)), so cached plans hold no device memory beyond their own
// tables and a plan serves any stream. Complex64 transforms down contiguous columns of lengths 2048 and
// 4096 take npgpu's own single-pass kernel instead (cuda/fft_columns.cuh), where it beats cuFFT's strided
// plan; so do the axis-0 halves of 2-D transforms of those lengths (performance-notes: column FFTs).
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common/cuda_check.hpp"
#include "common/cufft_api.hpp"
#include "common/dynlib.hpp"
#include "cuda/fft_columns.cuh"
#include "npgpu/errors.hpp"
#include "npgpu/fft.hpp"
#include "npgpu/memory.hpp"

namespace npgpu {
namespace detail::cufft {

const Api& api() {
  static const Api a = [] {
    const char* so = "libcufft.so.12";
    void* lib = open_cuda_library(so, "nvidia-cufft");
    Api x{};
    x.create = library_function<CreateFn>(lib, "cufftCreate", so);
    x.destroy = library_function<DestroyFn>(lib, "cufftDestroy", so);
    x.set_auto_allocation = library_function<SetAutoAllocationFn>(lib, "cufftSetAutoAllocation", so);
    x.make_plan_many64 = library_function<MakePlanMany64Fn>(lib, "cufftMakePlanMany64", so);
    x.set_work_area = library_function<SetWorkAreaFn>(lib, "cufftSetWorkArea", so);
    x.set_stream = library_function<SetStreamFn>(lib, "cufftSetStream", so);
    x.exec_c2c = library_function<ExecC2CFn>(lib, "cufftExecC2C", so);
    x.exec_z2z = library_function<ExecC2CFn>(lib, "cufftExecZ2Z", so);
    x.exec_r2c = library_function<ExecR2CFn>(lib, "cufftExecR2C", so);
    x.exec_d2z = library_function<ExecR2CFn>(lib, "cufftExecD2Z", so);
    x.exec_c2r = library_function<ExecR2CFn>(lib, "cufftExecC2R", so);
    x.exec_z2d = library_function<ExecR2CFn>(lib, "cufftExecZ2D", so);
    x.get_version = library_function<GetVersionFn>(lib, "cufftGetVersion", so);
    return x;
  }();
  return a;
}

const char* result_name(Result r) {
  switch (r) {
    case SUCCESS: return "CUFFT_SUCCESS";
    case INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
    case INVALID_TYPE: return "CUFFT_INVALID_TYPE";
    case INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    case UNALIGNED_DATA: return "CUFFT_UNALIGNED_DATA";
    case INVALID_DEVICE: return "CUFFT_INVALID_DEVICE";
    case NO_WORKSPACE: return "CUFFT_NO_WORKSPACE";
    case NOT_IMPLEMENTED: return "CUFFT_NOT_IMPLEMENTED";
    case NOT_SUPPORTED: return "CUFFT_NOT_SUPPORTED";
    case MISSING_DEPENDENCY: return "CUFFT_MISSING_DEPENDENCY";
    case NVRTC_FAILURE: return "CUFFT_NVRTC_FAILURE";
    case NVJITLINK_FAILURE: return "CUFFT_NVJITLINK_FAILURE";
  }
  return "CUFFT_UNKNOWN_ERROR";
}

}  // namespace detail::cufft

namespace cuda {

void clear_fft_plan_cache();

namespace {

namespace cf = detail::cufft;

void check(cf::Result r, const char* call) {
  if (r == cf::SUCCESS) return;
  const std::string text = std::string("cuFFT ") + call + " failed: " + cf::result_name(r);
  if (r == cf::ALLOC_FAILED) throw OutOfMemoryError(text + " (out of device memory)");
  throw CudaError(static_cast<int>(r), cf::result_name(r), call, text, false);
}

// A transform in cuFFT's advanced layout: element (b, i0, i1, i2) of the input sits at
// b * idist + ((i0 * inembed[1] + i1) * inembed[2] + i2) * istride, the output likewise.
struct Layout {
  int device = 0;
  int type = 0;
  int rank = 0;
  std::array<long long, 3> n{}, inembed{}, onembed{};
  long long istride = 1, idist = 1, ostride = 1, odist = 1, batch = 1;
  auto key() const {
    return std::make_tuple(device, type, rank, n, inembed, onembed, istride, idist, ostride, odist, batch);
  }
};

// Element strides of a view (false where a byte stride is not a whole number of elements or negative).
bool element_strides(const ArrayView& v, std::int64_t* es) {
  const std::int64_t size = itemsize(v.dtype);
  for (int d = 0; d < v.ndim; ++d) {
    if (v.strides[d] % size != 0) return false;
    es[d] = v.strides[d] / size;
    if (v.shape[d] > 1 && es[d] <= 0) return false;
  }
  return reinterpret_cast<std::uintptr_t>(v.data) % size == 0;
}

// Embeddings of the ordered transform axes in one view: stride of the innermost, and how many elements of
// each axis's inner neighbour fit between two of its own (strides must nest). Axes of extent 1 are placed
// as if packed.
bool nest(const std::int64_t* es, const std::int64_t* shape, const int* dims, int rank, long long& stride,
          std::array<long long, 3>& embed) {
  std::int64_t s[3];
  for (int i = rank - 1; i >= 0; --i) {
    const int d = dims[i];
    if (shape[d] > 1) s[i] = es[d];
    else s[i] = i == rank - 1 ? 1 : s[i + 1] * shape[dims[i + 1]];
  }
  stride = s[rank - 1];
  embed[0] = shape[dims[0]];
  for (int i = 1; i < rank; ++i) {
    if (s[i - 1] % s[i] != 0) return false;
    embed[i] = s[i - 1] / s[i];
    if (embed[i] < shape[dims[i]]) return false;  // axes would interleave
  }
  return true;
}

bool describe(const ArrayView& in, const ArrayView& out, const int* axes, int naxes, FftKind kind, Layout& L) {
  std::int64_t ies[kMaxDims], oes[kMaxDims];
  if (!element_strides(in, ies) || !element_strides(out, oes)) return false;
  // Transform axes outermost first: by decreasing input stride, the halved axis of R2C/C2R innermost.
  int dims[3];
  std::copy(axes, axes + naxes, dims);
  const int fixed = kind == FftKind::C2C ? naxes : naxes - 1;
  std::stable_sort(dims, dims + fixed, [&](int a, int b) { return ies[a] > ies[b]; });
  if (kind != FftKind::C2C && fixed > 0 && ies[dims[fixed - 1]] < ies[dims[naxes - 1]] &&
      in.shape[dims[fixed - 1]] > 1 && in.shape[dims[naxes - 1]] > 1)
    return false;
  L.rank = naxes;
  for (int i = 0; i < naxes; ++i) L.n[i] = (kind == FftKind::C2R ? out : in).shape[dims[i]];
  if (!nest(ies, in.shape, dims, naxes, L.istride, L.inembed)) return false;
  if (!nest(oes, out.shape, dims, naxes, L.ostride, L.onembed)) return false;
  // The other axes of extent > 1 must merge into one batch axis in both views.
  int batch[kMaxDims];
  int nb = 0;
  for (int d = 0; d < in.ndim; ++d) {
    if (in.shape[d] <= 1 || std::find(axes, axes + naxes, d) != axes + naxes) continue;
    batch[nb++] = d;
  }
  std::stable_sort(batch, batch + nb, [&](int a, int b) { return ies[a] > ies[b]; });
  L.batch = 1;
  for (int i = 0; i < nb; ++i) {
    L.batch *= in.shape[batch[i]];
    if (i + 1 < nb) {
      const int o = batch[i], p = batch[i + 1];
      if (ies[o] != ies[p] * in.shape[p] || oes[o] != oes[p] * out.shape[p]) return false;
    }
  }
  L.idist = nb ? ies[batch[nb - 1]] : 1;
  L.odist = nb ? oes[batch[nb - 1]] : 1;
  const bool dbl = in.dtype == DType::Float64 || in.dtype == DType::Complex128;
  switch (kind) {
    case FftKind::C2C: L.type = dbl ? cf::Z2Z : cf::C2C; break;
    case FftKind::R2C: L.type = dbl ? cf::D2Z : cf::R2C; break;
    case FftKind::C2R: L.type = dbl ? cf::Z2D : cf::C2R; break;
  }
  L.device = in.device;
  return true;
}

struct Plan {
  cf::Handle handle = 0;
  int device = 0;
  std::size_t work = 0;
  std::mutex m;  // a call sets the plan's stream and work area, then queues the transform
  // What the plan was last bound to: cuFFT's setters cost host time a small transform notices, so a call
  // on the same stream with a work area at the same address skips them.
  bool bound = false;
  cudaStream_t stream = nullptr;
  void* work_area = nullptr;
  ~Plan() {
    try {
      activate_device(device);
      cf::api().destroy(handle);
    } catch (...) {
    }
  }
};

using Key = decltype(std::declval<Layout>().key());

struct PlanCache {
  std::mutex m;
  std::list<std::pair<Key, std::shared_ptr<Plan>>> lru;  // most recent first
  std::map<Key, decltype(lru)::iterator> index;
  std::int64_t bytes = 0, max_plans = 64, max_bytes = std::int64_t{1} << 30, hits = 0, misses = 0;

  void evict_locked(std::list<std::shared_ptr<Plan>>& dropped) {
    while (!lru.empty() && (static_cast<std::int64_t>(lru.size()) > max_plans || bytes > max_bytes)) {
      bytes -= static_cast<std::int64_t>(lru.back().second->work);
      index.erase(lru.back().first);
      dropped.push_back(std::move(lru.back().second));  // destroyed outside the lock
      lru.pop_back();
    }
  }
};

PlanCache& cache() {
  static auto* c = new PlanCache();  // never destroyed: plans may outlive static destruction
  return *c;
}

std::shared_ptr<Plan> make_plan(const Layout& L) {
  auto p = std::make_shared<Plan>();
  p->device = L.device;
  const cf::Api& api = cf::api();
  check(api.create(&p->handle), "cufftCreate");
  check(api.set_auto_allocation(p->handle, 0), "cufftSetAutoAllocation");
  Layout l = L;
  const cf::Result r = api.make_plan_many64(p->handle, l.rank, l.n.data(), l.inembed.data(), l.istride, l.idist,
                                            l.onembed.data(), l.ostride, l.odist, static_cast<cf::Type>(l.type),
                                            l.batch, &p->work);
  check(r, "cufftMakePlanMany64");
  return p;
}

std::shared_ptr<Plan> get_plan(const Layout& L) {
  PlanCache& c = cache();
  const Key key = L.key();
  {
    std::lock_guard<std::mutex> lock(c.m);
    auto it = c.index.find(key);
    if (it != c.index.end()) {
      ++c.hits;
      c.lru.splice(c.lru.begin(), c.lru, it->second);
      return it->second->second;
    }
    ++c.misses;
  }
  std::shared_ptr<Plan> plan;
  try {
    plan = make_plan(L);
  } catch (const OutOfMemoryError&) {
    clear_fft_plan_cache();  // cached plans' tables hold device memory: free them and try once more
    plan = make_plan(L);
  }
  std::list<std::shared_ptr<Plan>> dropped;
  {
    std::lock_guard<std::mutex> lock(c.m);
    if (c.max_plans > 0 && static_cast<std::int64_t>(plan->work) <= c.max_bytes && !c.index.count(key)) {
      c.lru.emplace_front(key, plan);
      c.index[key] = c.lru.begin();
      c.bytes += static_cast<std::int64_t>(plan->work);
      c.evict_locked(dropped);
    }
  }
  return plan;
}

// [lo, hi) bytes a view with non-negative strides touches, relative to its data pointer.
std::int64_t extent_bytes(const ArrayView& v) {
  std::int64_t hi = itemsize(v.dtype);
  for (int d = 0; d < v.ndim; ++d) hi += v.strides[d] * (v.shape[d] - 1);
  return hi;
}

// ------------------------------------------------------------------------------ the column kernel

namespace fc = fft_columns;

// The column kernel on one device, set up at its first transform there: whether it runs (fc::supported),
// and then its twiddle table (exp(-2 pi i m / kTable), computed in double) and its kernels' shared-memory
// limit, so a launch does no set-up work.
struct ColumnKernel {
  bool runs = false;
  const float2* table = nullptr;
};

template <int N, bool Forward>
void allow_shared_memory() {
  NPGPU_CUDA_TRY(cudaFuncSetAttribute(fc::columns_kernel<N, Forward>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      static_cast<int>(fc::shared_bytes(N))));
}

ColumnKernel set_up_columns() {
  ColumnKernel k;
  if (!fc::supported()) return k;
  allow_shared_memory<2048, true>();
  allow_shared_memory<2048, false>();
  allow_shared_memory<4096, true>();
  allow_shared_memory<4096, false>();
  std::vector<float2> host(fc::kTable);
  for (int m = 0; m < fc::kTable; ++m) {
    const double a = -2.0 * 3.14159265358979323846 * m / fc::kTable;
    host[m] = make_float2(static_cast<float>(std::cos(a)), static_cast<float>(std::sin(a)));
  }
  float2* d = nullptr;
  NPGPU_CUDA_TRY(cudaMalloc(&d, sizeof(float2) * fc::kTable));  // kept for the process's life
  const cudaError_t e = cudaMemcpy(d, host.data(), sizeof(float2) * fc::kTable, cudaMemcpyHostToDevice);
  if (e != cudaSuccess) {
    cudaFree(d);
    NPGPU_CUDA_TRY(e);
  }
  k.runs = true;
  k.table = d;
  return k;
}

// The column kernel of the transform L, or nullptr when cuFFT takes it: one axis of length 2048 or 4096,
// complex64, the batch a run of contiguous columns (at least 256: 16 clusters) inside rows that do not
// overlap, on a device where the kernel runs.
const ColumnKernel* columns_route(const Layout& L) {
  if (L.type != cf::C2C || L.rank != 1 || (L.n[0] != 2048 && L.n[0] != 4096) || L.idist != 1 || L.odist != 1 ||
      L.batch < 256 || L.istride < L.batch || L.ostride < L.batch)
    return nullptr;
  static std::mutex m;
  static std::map<int, ColumnKernel> devices;
  std::lock_guard<std::mutex> lock(m);
  auto it = devices.find(L.device);
  if (it == devices.end()) it = devices.emplace(L.device, set_up_columns()).first;
  return it->second.runs ? &it->second : nullptr;  // map nodes do not move
}

template <int N, bool Forward>
void launch_columns(const float2* in, std::int64_t in_rows, float2* out, std::int64_t out_rows, std::int64_t columns,
                    const float2* table, cudaStream_t s) {
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(static_cast<unsigned>((columns + fc::kColumns - 1) / fc::kColumns * fc::cluster_blocks(N)));
  cfg.blockDim = dim3(fc::kThreads);
  cfg.dynamicSmemBytes = fc::shared_bytes(N);
  cfg.stream = s;
  cudaLaunchAttribute cluster[1];
  cluster[0].id = cudaLaunchAttributeClusterDimension;
  cluster[0].val.clusterDim.x = fc::cluster_blocks(N);
  cluster[0].val.clusterDim.y = 1;
  cluster[0].val.clusterDim.z = 1;
  cfg.attrs = cluster;
  cfg.numAttrs = 1;
  NPGPU_CUDA_TRY(cudaLaunchKernelEx(&cfg, fc::columns_kernel<N, Forward>, in, in_rows, out, out_rows, columns, table));
}

// The transform L (columns_route) of `in` into `out` (which may be `in` itself: each cluster reads all of
// its columns before it writes any).
void run_columns(const ColumnKernel& k, const Layout& L, const void* in, void* out, bool forward, cudaStream_t s) {
  const float2* table = k.table;
  auto* i = static_cast<const float2*>(in);
  auto* o = static_cast<float2*>(out);
  const bool n4096 = L.n[0] == 4096;
  if (n4096 && forward) launch_columns<4096, true>(i, L.istride, o, L.ostride, L.batch, table, s);
  else if (n4096) launch_columns<4096, false>(i, L.istride, o, L.ostride, L.batch, table, s);
  else if (forward) launch_columns<2048, true>(i, L.istride, o, L.ostride, L.batch, table, s);
  else launch_columns<2048, false>(i, L.istride, o, L.ostride, L.batch, table, s);
}

// A 2-D complex64 transform (C2C, or R2C with the halved axis last) whose outer axis the column kernel
// takes: the inner axis by cuFFT into `out`, then the outer one in place. False (nothing done) otherwise.
bool two_axes_with_columns(const ArrayView& in, const ArrayView& out, const int* axes, FftKind kind, bool forward,
                           StreamHandle stream);

}  // namespace

bool fft(const ArrayView& in, const ArrayView& out, const int* axes, int naxes, FftKind kind, bool forward,
         StreamHandle stream) {
  Layout L;
  if (!describe(in, out, axes, naxes, kind, L)) return false;
  auto s = static_cast<cudaStream_t>(stream);
  if (const ColumnKernel* k = columns_route(L)) {
    run_columns(*k, L, in.data, out.data, forward, s);
    return true;
  }
  if (naxes == 2 && two_axes_with_columns(in, out, axes, kind, forward, stream)) return true;
  const int device = in.device;
  std::shared_ptr<Plan> plan = get_plan(L);
  // cuFFT's complex-to-real transforms overwrite their input: they read a copy of the bytes it spans.
  void* src = in.data;
  std::unique_ptr<DeviceBuffer> copy;
  if (kind == FftKind::C2R) {
    const std::int64_t bytes = extent_bytes(in);
    copy = std::make_unique<DeviceBuffer>(bytes, device, stream);
    NPGPU_CUDA_TRY(cudaMemcpyAsync(copy->data(), in.data, static_cast<std::size_t>(bytes), cudaMemcpyDeviceToDevice, s));
    src = copy->data();
  }
  DeviceBuffer work(static_cast<std::int64_t>(plan->work), device, stream);
  const cf::Api& api = cf::api();
  std::lock_guard<std::mutex> lock(plan->m);
  if (!plan->bound || plan->stream != s) {
    plan->bound = false;  // until both setters have succeeded
    check(api.set_stream(plan->handle, s), "cufftSetStream");
    plan->stream = s;
    check(api.set_work_area(plan->handle, work.data()), "cufftSetWorkArea");
    plan->work_area = work.data();
    plan->bound = true;
  } else if (plan->work_area != work.data()) {
    plan->bound = false;
    check(api.set_work_area(plan->handle, work.data()), "cufftSetWorkArea");
    plan->work_area = work.data();
    plan->bound = true;
  }
  const int dir = forward ? cf::kForward : cf::kInverse;
  switch (static_cast<cf::Type>(L.type)) {
    case cf::C2C: check(api.exec_c2c(plan->handle, src, out.data, dir), "cufftExecC2C"); break;
    case cf::Z2Z: check(api.exec_z2z(plan->handle, src, out.data, dir), "cufftExecZ2Z"); break;
    case cf::R2C: check(api.exec_r2c(plan->handle, src, out.data), "cufftExecR2C"); break;
    case cf::D2Z: check(api.exec_d2z(plan->handle, src, out.data), "cufftExecD2Z"); break;
    case cf::C2R: check(api.exec_c2r(plan->handle, src, out.data), "cufftExecC2R"); break;
    case cf::Z2D: check(api.exec_z2d(plan->handle, src, out.data), "cufftExecZ2D"); break;
  }
  return true;  // work (and the copy) go back to the pool in stream order, after the transform
}

namespace {

bool two_axes_with_columns(const ArrayView& in, const ArrayView& out, const int* axes, FftKind kind, bool forward,
                           StreamHandle stream) {
  if (kind == FftKind::C2R || out.dtype != DType::Complex64) return false;
  // The inner axis: the one with the smaller stride in `out` (for R2C the halved axis, which must be it).
  const int a = axes[0], b = axes[1];
  const int inner = kind == FftKind::R2C ? b : (out.strides[a] < out.strides[b] ? a : b);
  const int outer = inner == a ? b : a;
  Layout column;
  if (!describe(out, out, &outer, 1, FftKind::C2C, column)) return false;
  const ColumnKernel* k = columns_route(column);  // its contiguous columns make `inner` the innermost axis
  if (k == nullptr || !cuda::fft(in, out, &inner, 1, kind, forward, stream)) return false;
  run_columns(*k, column, out.data, out.data, forward, static_cast<cudaStream_t>(stream));
  return true;
}

}  // namespace

FftPlanCacheInfo fft_plan_cache_info() {
  PlanCache& c = cache();
  std::lock_guard<std::mutex> lock(c.m);
  return {static_cast<std::int64_t>(c.lru.size()), c.bytes, c.max_plans, c.max_bytes, c.hits, c.misses};
}

void set_fft_plan_cache_limits(std::int64_t max_plans, std::int64_t max_bytes) {
  PlanCache& c = cache();
  std::list<std::shared_ptr<Plan>> dropped;
  std::lock_guard<std::mutex> lock(c.m);
  c.max_plans = max_plans;
  c.max_bytes = max_bytes;
  c.evict_locked(dropped);
}

void clear_fft_plan_cache() {
  PlanCache& c = cache();
  std::list<std::shared_ptr<Plan>> dropped;  // destroyed after the lock is released
  std::lock_guard<std::mutex> lock(c.m);
  for (auto& entry : c.lru) dropped.push_back(std::move(entry.second));
  c.lru.clear();
  c.index.clear();
  c.bytes = 0;
}

}  // namespace cuda
}  // namespace npgpu
