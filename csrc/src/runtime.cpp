// Devices, streams, events: thin, checked wrappers over the CUDA runtime (linked statically, so libnpgpu
// never needs libcudart at load time and finds libcuda only when the first call initialises CUDA).
#include "npgpu/runtime.hpp"

#include <cuda_runtime_api.h>
#include <nvtx3/nvToolsExt.h>
#include <pthread.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/cuda_check.hpp"
#include "npgpu/errors.hpp"

namespace npgpu {
namespace {

struct DeviceTable {
  std::once_flag once;
  int count = 0;
  std::string reason;
  std::vector<std::unique_ptr<DeviceProperties>> props;
  std::vector<std::once_flag> prop_once;
  // Live threads that have activated each device (see order_after_other_threads).
  std::unique_ptr<std::atomic<int>[]> threads;
};

// Set in a child forked after this process initialised CUDA: CUDA cannot be used there (its calls fail or
// hang), so every device activation raises one clear error instead.
std::atomic<bool> g_forked_after_cuda{false};

void mark_forked_child() { g_forked_after_cuda.store(true, std::memory_order_relaxed); }

[[noreturn]] void throw_forked_child() {
  throw CudaError(static_cast<int>(cudaErrorInitializationError), "cudaErrorInitializationError", "fork",
                  "CUDA cannot be used in a process forked after its parent used the GPU: start workers with "
                  "multiprocessing's 'spawn' or 'forkserver' method (or use the host backend in the child: "
                  "NPGPU_BACKEND=cpu / npgpu.use_backend(\"cpu\"))",
                  true);
}

DeviceTable& table() {
  static DeviceTable t;
  std::call_once(t.once, [] {
    int n = 0;
    cudaError_t err = cudaGetDeviceCount(&n);
    if (err == cudaSuccess && n > 0) pthread_atfork(nullptr, nullptr, mark_forked_child);
    if (err != cudaSuccess) {
      cudaGetLastError();
      n = 0;
      if (err == cudaErrorInsufficientDriver)
        t.reason = "no usable NVIDIA driver was found (cudaErrorInsufficientDriver): install or update the driver";
      else if (err == cudaErrorNoDevice)
        t.reason = "no CUDA-capable GPU was found (cudaErrorNoDevice)";
      else
        t.reason = std::string("CUDA could not be initialised: ") + cudaGetErrorName(err) + ": " +
                   cudaGetErrorString(err);
    } else if (n == 0) {
      t.reason = "no CUDA-capable GPU was found";
    }
    t.count = n;
    t.props.resize(n);
    t.prop_once = std::vector<std::once_flag>(n);
    t.threads = std::make_unique<std::atomic<int>[]>(n);
  });
  return t;
}

thread_local int tl_active_device = -1;    // -1: not yet read from the runtime on this thread
thread_local int tl_selected_device = -1;  // -1: none selected yet; the first active device

// The devices this thread has activated, counted in DeviceTable::threads until the thread ends, and the
// thread's event for ordering its default stream on each.
thread_local bool tl_devices_gone = false;  // set at thread exit: memory.cpp's exit handler may activate after
struct ThreadDevices {
  std::vector<char> used;
  std::vector<cudaEvent_t> fence;
  // The thread's queued work completes before it stops being counted: a thread that reads its results after
  // this one has ended may be the only one left, and then it no longer waits.
  ~ThreadDevices() {
    tl_devices_gone = true;
    if (used.empty()) return;
    DeviceTable& t = table();
    const bool cuda_usable = !g_forked_after_cuda.load(std::memory_order_relaxed);
    for (std::size_t d = 0; d < used.size(); ++d) {
      if (!used[d]) continue;
      if (cuda_usable && (cudaSetDevice(static_cast<int>(d)) != cudaSuccess ||
                          cudaStreamSynchronize(cudaStreamPerThread) != cudaSuccess))
        cudaGetLastError();
      t.threads[d].fetch_sub(1, std::memory_order_relaxed);
    }
    tl_active_device = -1;  // the loop above changed it: read it again if memory.cpp's handler activates
    for (cudaEvent_t e : fence)
      if (cuda_usable && e && cudaEventDestroy(e) != cudaSuccess) cudaGetLastError();
  }
};
thread_local ThreadDevices tl_devices;

// Each thread's default stream (cudaStreamPerThread) is ordered with no other thread's, yet arrays pass
// between threads: dask's threaded scheduler, thread pools, distributed's event loop. So while more than one
// live thread uses a device, each call first makes this thread's default stream wait for the work already
// queued on the device's blocking streams, which an event on the legacy default stream completes after.
// Waiting at every call is what makes it sound: an array received from another thread was queued before the
// call that reads it began. Explicitly created streams stay the caller's to order (as in CuPy).
// NPGPU_THREAD_ORDERING=off leaves threads' default streams unordered, as CuPy does: for programs that hand
// no array to another thread before synchronising; it saves the wait and lets threads' work overlap.
bool thread_ordering_on() {
  static const bool on = [] {
    const char* v = std::getenv("NPGPU_THREAD_ORDERING");
    if (v == nullptr || *v == '\0' || std::strcmp(v, "on") == 0) return true;
    if (std::strcmp(v, "off") == 0) return false;
    throw InvalidArgument(std::string("NPGPU_THREAD_ORDERING must be 'on' or 'off', not '") + v + "'");
  }();
  return on;
}

void order_after_other_threads(int ordinal) {
  if (tl_devices_gone) return;
  const bool ordering = thread_ordering_on();  // read at the first call, so a bad value fails at once
  DeviceTable& t = table();
  ThreadDevices& mine = tl_devices;
  if (mine.used.size() <= static_cast<std::size_t>(ordinal)) {
    mine.used.resize(t.count, 0);
    mine.fence.resize(t.count, nullptr);
  }
  if (!mine.used[ordinal]) {
    mine.used[ordinal] = 1;
    t.threads[ordinal].fetch_add(1, std::memory_order_relaxed);
  }
  if (t.threads[ordinal].load(std::memory_order_relaxed) < 2 || !ordering) return;
  cudaEvent_t& ev = mine.fence[ordinal];
  if (ev == nullptr) NPGPU_CUDA_TRY(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
  NPGPU_CUDA_TRY(cudaEventRecord(ev, cudaStreamLegacy));
  NPGPU_CUDA_TRY(cudaStreamWaitEvent(cudaStreamPerThread, ev, 0));
}

}  // namespace

StreamHandle per_thread_default_stream() { return reinterpret_cast<StreamHandle>(cudaStreamPerThread); }

int device_count() noexcept {
  try {
    return table().count;
  } catch (...) {
    return 0;
  }
}

std::string unavailable_reason() { return table().reason; }

void require_device(int ordinal) {
  DeviceTable& t = table();
  if (g_forked_after_cuda.load(std::memory_order_relaxed)) throw_forked_child();
  if (t.count == 0) throw Unavailable("no GPU available: " + t.reason);
  if (ordinal < 0 || ordinal >= t.count)
    throw InvalidArgument("device ordinal " + std::to_string(ordinal) + " is out of range: this machine has " +
                          std::to_string(t.count) + " CUDA device(s)");
}

const DeviceProperties& device_properties(int ordinal) {
  require_device(ordinal);
  DeviceTable& t = table();
  std::call_once(t.prop_once[ordinal], [&] {
    cudaDeviceProp p{};
    NPGPU_CUDA_TRY(cudaGetDeviceProperties(&p, ordinal));
    auto d = std::make_unique<DeviceProperties>();
    d->ordinal = ordinal;
    d->name = p.name;
    d->cc_major = p.major;
    d->cc_minor = p.minor;
    d->multiprocessor_count = p.multiProcessorCount;
    d->total_memory = static_cast<std::int64_t>(p.totalGlobalMem);
    d->warp_size = p.warpSize;
    d->max_threads_per_block = p.maxThreadsPerBlock;
    for (int i = 0; i < 3; ++i) {
      d->max_block_dim[i] = p.maxThreadsDim[i];
      d->max_grid_dim[i] = p.maxGridSize[i];
    }
    d->l2_cache_size = p.l2CacheSize;
    d->shared_memory_per_block = static_cast<std::int64_t>(p.sharedMemPerBlock);
    d->shared_memory_per_block_optin = static_cast<std::int64_t>(p.sharedMemPerBlockOptin);
    d->max_threads_per_multiprocessor = p.maxThreadsPerMultiProcessor;
    d->pci_bus_id = p.pciBusID;
    t.props[ordinal] = std::move(d);
  });
  return *t.props[ordinal];
}

int active_device() {
  if (tl_active_device < 0) {
    require_device(0);
    int d = 0;
    NPGPU_CUDA_TRY(cudaGetDevice(&d));
    tl_active_device = d;
    // Until npgpu.Device selects one, the thread's device is the one it had before npgpu activated any.
    if (tl_selected_device < 0) tl_selected_device = d;
  }
  return tl_active_device;
}

void activate_device(int ordinal) {
  // the forking thread's active device is inherited by the child: check before the shortcut
  if (g_forked_after_cuda.load(std::memory_order_relaxed)) throw_forked_child();
  if (ordinal != tl_active_device) {
    require_device(ordinal);
    (void)active_device();  // on the thread's first activation: remember its own device as the selected one
    NPGPU_CUDA_TRY(cudaSetDevice(ordinal));
    tl_active_device = ordinal;
  }
  order_after_other_threads(ordinal);
}

int current_device() {
  if (tl_selected_device < 0) tl_selected_device = active_device();
  return tl_selected_device;
}

void select_device(int ordinal) {
  activate_device(ordinal);
  tl_selected_device = ordinal;
}

void synchronize_device(int ordinal) {
  activate_device(ordinal);
  NPGPU_CUDA_TRY(cudaDeviceSynchronize());
}

void mem_get_info(int ordinal, std::int64_t* free_bytes, std::int64_t* total_bytes) {
  activate_device(ordinal);
  size_t f = 0, t = 0;
  NPGPU_CUDA_TRY(cudaMemGetInfo(&f, &t));
  *free_bytes = static_cast<std::int64_t>(f);
  *total_bytes = static_cast<std::int64_t>(t);
}

int runtime_version() {
  int v = 0;
  if (cudaRuntimeGetVersion(&v) != cudaSuccess) cudaGetLastError();
  return v;
}

int driver_version() {
  int v = 0;
  if (cudaDriverGetVersion(&v) != cudaSuccess) cudaGetLastError();
  return v;
}

// Streams npgpu created are reference-counted: each DeviceBuffer allocated on one holds a reference, so a
// stream the user drops stays alive until the last array that frees memory on it is gone.
namespace {
std::mutex g_streams_mutex;
std::unordered_map<void*, int>& stream_refs() {
  static auto* m = new std::unordered_map<void*, int>();
  return *m;
}
// The null (0), legacy (cudaStreamLegacy, 1) and per-thread (cudaStreamPerThread, 2) default streams: never
// created by npgpu, so never counted. Checked first because nearly every array lives on one of them: no lock
// on the allocation path.
bool is_default_stream(StreamHandle s) { return reinterpret_cast<std::uintptr_t>(s) <= 2; }
}  // namespace

namespace detail {
void stream_retain(StreamHandle s) {
  if (is_default_stream(s)) return;
  std::lock_guard<std::mutex> lock(g_streams_mutex);
  auto it = stream_refs().find(s);
  if (it != stream_refs().end()) ++it->second;
}

void stream_release(StreamHandle s) noexcept {
  if (is_default_stream(s)) return;
  {
    std::lock_guard<std::mutex> lock(g_streams_mutex);
    auto it = stream_refs().find(s);
    if (it == stream_refs().end() || --it->second > 0) return;
    stream_refs().erase(it);
  }
  detail::release_cached_blocks(-1, s, false);
  if (cudaStreamDestroy(static_cast<cudaStream_t>(s)) != cudaSuccess) cudaGetLastError();
}
}  // namespace detail

StreamHandle stream_create(int device, bool non_blocking, int priority) {
  activate_device(device);
  cudaStream_t s = nullptr;
  NPGPU_CUDA_TRY(cudaStreamCreateWithPriority(&s, non_blocking ? cudaStreamNonBlocking : cudaStreamDefault,
                                              priority));
  std::lock_guard<std::mutex> lock(g_streams_mutex);
  stream_refs()[s] = 1;
  return s;
}

void stream_destroy(StreamHandle s) noexcept {
  if (s) detail::stream_release(s);
}

void stream_synchronize(StreamHandle s) {
  if (s == per_thread_default_stream()) order_after_other_threads(active_device());  // as stream_wait_stream
  NPGPU_CUDA_TRY(cudaStreamSynchronize(static_cast<cudaStream_t>(s)));
}

bool stream_query(StreamHandle s) {
  cudaError_t err = cudaStreamQuery(static_cast<cudaStream_t>(s));
  if (err == cudaErrorNotReady) {
    cudaGetLastError();
    return false;
  }
  NPGPU_CUDA_TRY(err);
  return true;
}

void stream_wait_stream(StreamHandle waiter, StreamHandle producer) {
  if (waiter == producer) return;
  // One reusable event per thread: recording and waiting are ordered on the host, so reuse is safe.
  thread_local cudaEvent_t ev = nullptr;
  thread_local int ev_device = -1;
  int dev = active_device();
  if (ev == nullptr || ev_device != dev) {
    NPGPU_CUDA_TRY(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
    ev_device = dev;
  }
  // A wait for this thread's default stream includes what a call on it would wait for: other threads' work
  // on arrays received from them.
  if (producer == per_thread_default_stream()) order_after_other_threads(dev);
  NPGPU_CUDA_TRY(cudaEventRecord(ev, static_cast<cudaStream_t>(producer)));
  NPGPU_CUDA_TRY(cudaStreamWaitEvent(static_cast<cudaStream_t>(waiter), ev, 0));
}

EventHandle event_create(bool timing, bool blocking) {
  if (device_count() == 0) throw Unavailable("no GPU available: " + unavailable_reason());
  unsigned flags = (timing ? 0u : cudaEventDisableTiming) | (blocking ? cudaEventBlockingSync : 0u);
  cudaEvent_t e = nullptr;
  NPGPU_CUDA_TRY(cudaEventCreateWithFlags(&e, flags));
  return e;
}

void event_destroy(EventHandle e) noexcept {
  if (e && cudaEventDestroy(static_cast<cudaEvent_t>(e)) != cudaSuccess) cudaGetLastError();
}

void event_record(EventHandle e, StreamHandle s) {
  if (s == per_thread_default_stream()) order_after_other_threads(active_device());  // as stream_wait_stream
  NPGPU_CUDA_TRY(cudaEventRecord(static_cast<cudaEvent_t>(e), static_cast<cudaStream_t>(s)));
}

void event_synchronize(EventHandle e) { NPGPU_CUDA_TRY(cudaEventSynchronize(static_cast<cudaEvent_t>(e))); }

bool event_query(EventHandle e) {
  cudaError_t err = cudaEventQuery(static_cast<cudaEvent_t>(e));
  if (err == cudaErrorNotReady) {
    cudaGetLastError();
    return false;
  }
  NPGPU_CUDA_TRY(err);
  return true;
}

void stream_wait_event(StreamHandle s, EventHandle e) {
  NPGPU_CUDA_TRY(cudaStreamWaitEvent(static_cast<cudaStream_t>(s), static_cast<cudaEvent_t>(e), 0));
}

float event_elapsed_ms(EventHandle start, EventHandle end) {
  float ms = 0.f;
  NPGPU_CUDA_TRY(cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(start), static_cast<cudaEvent_t>(end)));
  return ms;
}

void check_last_error(const char* what) {
  cudaError_t err = cudaPeekAtLastError();
  if (err != cudaSuccess) detail::throw_cuda_error(err, what, __FILE__, __LINE__);
}

namespace {
std::atomic<InterruptCheck> g_interrupt_check{nullptr};
}  // namespace

void set_interrupt_check(InterruptCheck check) noexcept { g_interrupt_check.store(check); }

bool interrupt_requested() {
  const InterruptCheck check = g_interrupt_check.load(std::memory_order_relaxed);
  return check != nullptr && check();
}

void profiler_range_push(const char* name) { nvtxRangePushA(name); }
void profiler_range_pop() { nvtxRangePop(); }

}  // namespace npgpu
