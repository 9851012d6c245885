// Device memory from each device's stream-ordered pool, pinned host memory, copies, memory statistics.
#include "npgpu/memory.hpp"

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <tuple>
#include <utility>
#include <vector>

#include "common/cuda_check.hpp"
#include "common/staging.hpp"
#include "npgpu/errors.hpp"

namespace npgpu {
namespace {

std::atomic<std::int64_t> g_pinned_bytes{0};

// The first allocation on a device configures its default pool to keep freed memory cached (the default
// release threshold of 0 would hand memory back to the driver at every synchronisation).
void ensure_pool_configured(int device) {
  static std::once_flag flags[64];
  if (device < 0 || device >= 64) return;
  std::call_once(flags[device], [device] {
    cudaMemPool_t pool = nullptr;
    NPGPU_CUDA_TRY(cudaDeviceGetDefaultMemPool(&pool, device));
    std::uint64_t threshold = UINT64_MAX;
    NPGPU_CUDA_TRY(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  });
}

// Small device blocks freed on a stream are kept for the next allocation of the same size class on the same
// stream: stream order makes the reuse safe without events, and it takes cudaMallocAsync/cudaFreeAsync off
// the per-call path of small operations. Larger blocks go straight to the driver's pool.
constexpr std::int64_t kSmallBlockMax = 1 << 20;
constexpr std::size_t kSmallBlocksPerClass = 32;

// Key: (device, stream handle, thread, size class). The per-thread default stream has one handle for
// different streams, so its blocks are also keyed by thread: another thread's stream is not ordered with it.
using CacheKey = std::tuple<int, StreamHandle, std::uint64_t, std::int64_t>;

struct SmallBlockCache {
  std::mutex m;
  std::map<CacheKey, std::vector<void*>> free;
  std::atomic<std::int64_t> cached_bytes{0};
};

SmallBlockCache& small_cache() {
  static auto* c = new SmallBlockCache();  // never destroyed: blocks may outlive static destruction
  return *c;
}

bool is_per_thread_stream(StreamHandle s) { return s == static_cast<StreamHandle>(cudaStreamPerThread); }

void release_thread_blocks(std::uint64_t thread) noexcept;

// A token per host thread, never reused. Plain thread_locals (no destructor) stay readable while other
// thread_locals that own buffers (library handles' workspaces) are destroyed at thread exit.
thread_local std::uint64_t t_token = 0;
thread_local bool t_exiting = false;

// When the thread ends, the blocks cached for its default stream go back to the pool (nobody else may take
// them), and blocks freed after that are not cached.
struct ThreadExit {
  ~ThreadExit() {
    t_exiting = true;
    release_thread_blocks(t_token);
  }
};

std::uint64_t this_thread_token() {
  if (t_token == 0) {
    static std::atomic<std::uint64_t> next{1};
    t_token = next++;
    thread_local ThreadExit at_exit;
    (void)at_exit;
  }
  return t_token;
}

// The thread component of a cache key / owner for blocks on stream s.
std::uint64_t thread_of(StreamHandle s) { return is_per_thread_stream(s) ? this_thread_token() : 0; }

// Hands the cached blocks whose key satisfies pred(device, stream, thread) back to the pool. Blocks of a
// per-thread default stream go back on the legacy default stream, which is ordered after every thread's.
template <class Pred>
void release_blocks_where(Pred pred) {
  SmallBlockCache& c = small_cache();
  std::lock_guard<std::mutex> lock(c.m);
  for (auto it = c.free.begin(); it != c.free.end();) {
    const auto& [dev, s, thread, cls] = it->first;
    if (!pred(dev, s, thread)) {
      ++it;
      continue;
    }
    bool ok = true;
    try {
      activate_device(dev);
    } catch (...) {
      ok = false;
    }
    const cudaStream_t on = is_per_thread_stream(s) ? cudaStreamLegacy : static_cast<cudaStream_t>(s);
    for (void* p : it->second) {
      if (ok && cudaFreeAsync(p, on) != cudaSuccess) cudaGetLastError();
      c.cached_bytes -= cls;
    }
    it = c.free.erase(it);
  }
}

void release_thread_blocks(std::uint64_t thread) noexcept {
  try {
    release_blocks_where([thread](int, StreamHandle, std::uint64_t t) { return t == thread; });
  } catch (...) {
  }
}

std::int64_t size_class(std::int64_t nbytes) { return (nbytes + 511) / 512 * 512; }

// Pinned host blocks are expensive to create (the pages are locked one by one), so released ones are kept,
// up to a bound, for the next request of the same rounded size.
struct PinnedCache {
  std::mutex m;
  std::map<std::int64_t, std::vector<void*>> free;
  std::int64_t cached_bytes = 0;
  std::int64_t limit = 0;
};

PinnedCache& pinned_cache() {
  static auto* c = [] {
    auto* p = new PinnedCache();
    p->limit = 1LL << 30;
    if (const char* v = std::getenv("NPGPU_PINNED_CACHE_BYTES")) p->limit = std::atoll(v);
    return p;
  }();
  return *c;
}

std::int64_t pinned_class(std::int64_t nbytes) { return (nbytes + 65535) / 65536 * 65536; }

// Hands every cached and pooled free block on `device` back to the driver (the out-of-memory retry).
void retry_after_trim(int device) noexcept {
  try {
    detail::release_cached_blocks(device, nullptr, true);
  } catch (...) {
  }
  cudaMemPool_t pool = nullptr;
  if (cudaDeviceSynchronize() != cudaSuccess || cudaDeviceGetDefaultMemPool(&pool, device) != cudaSuccess ||
      cudaMemPoolTrimTo(pool, 0) != cudaSuccess)
    cudaGetLastError();
}

}  // namespace

DeviceBuffer::DeviceBuffer(std::int64_t nbytes, int device, StreamHandle stream)
    : nbytes_(nbytes), device_(device), stream_(stream) {
  if (nbytes < 0) throw InvalidArgument("negative allocation size " + std::to_string(nbytes));
  if (nbytes == 0) return;  // before touching the device: a zero-size array (a dask meta) creates no context
  activate_device(device);
  detail::stream_retain(stream);  // released in the destructor
  owner_thread_ = thread_of(stream);
  // whole 16-byte units: a kernel may read or write the whole word or vector that holds the last element
  std::int64_t request = (nbytes + 15) / 16 * 16;
  if (nbytes <= kSmallBlockMax) {
    request = size_class(nbytes);
    SmallBlockCache& c = small_cache();
    std::lock_guard<std::mutex> lock(c.m);
    auto it = c.free.find({device, stream, owner_thread_, request});
    if (it != c.free.end() && !it->second.empty()) {
      data_ = it->second.back();
      it->second.pop_back();
      c.cached_bytes -= request;
      return;
    }
  }
  ensure_pool_configured(device);
  cudaError_t err = cudaMallocAsync(&data_, static_cast<size_t>(request), static_cast<cudaStream_t>(stream));
  if (err == cudaErrorMemoryAllocation) {
    // The pool keeps freed memory reserved, in pieces that may be too small, or still queued behind other
    // streams' frees; memory other libraries or processes on this GPU need is behind it too. Return it all
    // to the driver once the queued frees have landed, and try once more.
    cudaGetLastError();
    data_ = nullptr;
    retry_after_trim(device);
    err = cudaMallocAsync(&data_, static_cast<size_t>(request), static_cast<cudaStream_t>(stream));
  }
  if (err != cudaSuccess) {
    data_ = nullptr;
    detail::stream_release(stream);
    detail::throw_alloc_error(err, "device allocation", nbytes, device);
  }
}

DeviceBuffer::~DeviceBuffer() {
  if (!data_) return;
  free_block();
  detail::stream_release(stream_);
}

void DeviceBuffer::free_block() noexcept {
  // Freed by a thread other than the one whose default stream it was on: that stream may still use it, and
  // this thread's default stream is not ordered after it. The legacy default stream waits for every
  // blocking stream, the per-thread ones included.
  const bool foreign = is_per_thread_stream(stream_) && (owner_thread_ != this_thread_token() || t_exiting);
  if (nbytes_ <= kSmallBlockMax && !foreign) {
    const std::int64_t cls = size_class(nbytes_);
    SmallBlockCache& c = small_cache();
    std::lock_guard<std::mutex> lock(c.m);
    auto& list = c.free[{device_, stream_, owner_thread_, cls}];
    if (list.size() < kSmallBlocksPerClass) {
      list.push_back(data_);
      c.cached_bytes += cls;
      return;
    }
  }
  try {
    activate_device(device_);
  } catch (...) {
    return;
  }
  if (cudaFreeAsync(data_, foreign ? cudaStreamLegacy : static_cast<cudaStream_t>(stream_)) != cudaSuccess)
    cudaGetLastError();
}

void DeviceBuffer::set_stream(StreamHandle s) noexcept {
  if (s == stream_ && !is_per_thread_stream(s)) return;
  owner_thread_ = thread_of(s);
  if (s == stream_) return;
  if (data_) {
    try {
      detail::stream_retain(s);
    } catch (...) {
      return;
    }
    detail::stream_release(stream_);
  }
  stream_ = s;
}

namespace detail {

// Hand cached small blocks back to the pool: all of them (stream == nullptr and all_streams) or those of one
// stream (before it is destroyed, since a later stream may reuse its handle).
void release_cached_blocks(int device, StreamHandle stream, bool all_streams) {
  release_blocks_where([&](int dev, StreamHandle s, std::uint64_t) {
    return (device < 0 || dev == device) && (all_streams || s == stream);
  });
}

std::int64_t cached_small_bytes() { return small_cache().cached_bytes.load(); }

}  // namespace detail


PinnedBuffer::PinnedBuffer(std::int64_t nbytes) : nbytes_(nbytes) {
  if (nbytes < 0) throw InvalidArgument("negative allocation size " + std::to_string(nbytes));
  if (nbytes == 0) return;
  if (device_count() == 0) throw Unavailable("no GPU available for pinned memory: " + unavailable_reason());
  const std::int64_t cls = pinned_class(nbytes);
  {
    PinnedCache& c = pinned_cache();
    std::lock_guard<std::mutex> lock(c.m);
    auto it = c.free.find(cls);
    if (it != c.free.end() && !it->second.empty()) {
      data_ = it->second.back();
      it->second.pop_back();
      c.cached_bytes -= cls;
      return;
    }
  }
  cudaError_t err = cudaHostAlloc(&data_, static_cast<size_t>(cls), cudaHostAllocPortable);
  if (err != cudaSuccess) {
    data_ = nullptr;
    detail::throw_alloc_error(err, "pinned host allocation", nbytes, -1);
  }
  g_pinned_bytes += cls;
}

PinnedBuffer::~PinnedBuffer() {
  if (!data_) return;
  const std::int64_t cls = pinned_class(nbytes_);
  // The block just released is kept if cached blocks smaller than it can make room: keeping the small ones
  // instead re-pinned a large result on every call once a few small results sat in the cache. Larger blocks
  // are never evicted for a smaller one: pinning costs grow with size.
  std::vector<std::pair<void*, std::int64_t>> evicted;
  bool kept = false;
  {
    PinnedCache& c = pinned_cache();
    std::lock_guard<std::mutex> lock(c.m);
    std::int64_t smaller = 0;
    for (auto it = c.free.begin(); it != c.free.end() && it->first < cls; ++it)
      smaller += it->first * static_cast<std::int64_t>(it->second.size());
    if (c.cached_bytes - smaller + cls <= c.limit) {
      // Largest of the smaller classes first: the fewest blocks to unpin.
      auto it = c.free.lower_bound(cls);
      while (c.cached_bytes + cls > c.limit && it != c.free.begin()) {
        --it;
        while (!it->second.empty() && c.cached_bytes + cls > c.limit) {
          evicted.emplace_back(it->second.back(), it->first);
          it->second.pop_back();
          c.cached_bytes -= it->first;
        }
      }
      c.free[cls].push_back(data_);
      c.cached_bytes += cls;
      kept = true;
    }
  }
  if (!kept) evicted.emplace_back(data_, cls);
  for (const auto& [p, bytes] : evicted) {
    if (cudaFreeHost(p) != cudaSuccess) cudaGetLastError();
    g_pinned_bytes -= bytes;
  }
}

MemoryInfo memory_info(int device) {
  MemoryInfo info;
  info.pinned_bytes = g_pinned_bytes.load();
  info.pinned_cache_limit = pinned_cache().limit;
  activate_device(device);
  ensure_pool_configured(device);
  cudaMemPool_t pool = nullptr;
  NPGPU_CUDA_TRY(cudaDeviceGetDefaultMemPool(&pool, device));
  std::uint64_t v = 0;
  NPGPU_CUDA_TRY(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &v));
  info.cached_bytes = detail::cached_small_bytes();
  info.pool_used = static_cast<std::int64_t>(v) - info.cached_bytes;
  NPGPU_CUDA_TRY(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &v));
  info.pool_reserved = static_cast<std::int64_t>(v);
  mem_get_info(device, &info.device_free, &info.device_total);
  return info;
}

void trim_pool(int device, std::int64_t keep_bytes) {
  activate_device(device);
  detail::release_cached_blocks(device, nullptr, true);
  cudaMemPool_t pool = nullptr;
  NPGPU_CUDA_TRY(cudaDeviceGetDefaultMemPool(&pool, device));
  // Freed blocks whose frees are still queued count as used; let them land first.
  NPGPU_CUDA_TRY(cudaDeviceSynchronize());
  NPGPU_CUDA_TRY(cudaMemPoolTrimTo(pool, static_cast<size_t>(keep_bytes < 0 ? 0 : keep_bytes)));
}

void copy_bytes(void* dst, const void* src, std::int64_t nbytes, StreamHandle stream) {
  if (nbytes <= 0) return;
  NPGPU_CUDA_TRY(cudaMemcpyAsync(dst, src, static_cast<size_t>(nbytes), cudaMemcpyDefault,
                                 static_cast<cudaStream_t>(stream)));
}

namespace {

// Small host<->device copies go straight through cudaMemcpyAsync; larger ones through the staging ring, whose
// slots' device buffers are copied to or from `device_ptr` chunk by chunk.
constexpr std::int64_t kDirectCopyBytes = 1 << 20;

void copy_staged(void* host, void* device_ptr, std::int64_t nbytes, int device, StreamHandle stream, bool to_device) {
  if (nbytes <= 0) return;
  activate_device(device);
  auto s = static_cast<cudaStream_t>(stream);
  if (nbytes <= kDirectCopyBytes) {
    NPGPU_CUDA_TRY(cudaMemcpyAsync(to_device ? device_ptr : host, to_device ? host : device_ptr,
                                   static_cast<std::size_t>(nbytes),
                                   to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost, s));
    // A pinned source is read asynchronously, a download lands asynchronously: wait, either way.
    NPGPU_CUDA_TRY(cudaStreamSynchronize(s));
    return;
  }
  detail::StagedOperand op{host, 1, !to_device};
  std::int64_t start = 0;  // run_staged hands out the chunks in order
  detail::run_staged(device, stream, &op, 1, nbytes, [&](void* const* slot, std::int64_t count, StreamHandle cs) {
    char* here = static_cast<char*>(device_ptr) + start;
    NPGPU_CUDA_TRY(cudaMemcpyAsync(to_device ? here : slot[0], to_device ? slot[0] : here,
                                   static_cast<std::size_t>(count), cudaMemcpyDeviceToDevice,
                                   static_cast<cudaStream_t>(cs)));
    start += count;
  });
}

}  // namespace

void copy_to_device_staged(void* dst, const void* host, std::int64_t nbytes, int device, StreamHandle stream) {
  copy_staged(const_cast<void*>(host), dst, nbytes, device, stream, true);
}

void copy_to_host_staged(void* host, const void* src, std::int64_t nbytes, int device, StreamHandle stream) {
  copy_staged(host, const_cast<void*>(src), nbytes, device, stream, false);
}

namespace {

// Enables peer access between two GPUs once per process (both directions), where the hardware allows it.
void enable_peer_access(int a, int b) {
  static std::mutex mutex;
  static std::map<std::pair<int, int>, bool> done;
  std::lock_guard<std::mutex> lock(mutex);
  if (done.count({a, b})) return;
  int previous = 0;
  NPGPU_CUDA_TRY(cudaGetDevice(&previous));
  for (auto [from, to] : {std::pair<int, int>{a, b}, std::pair<int, int>{b, a}}) {
    int can = 0;
    NPGPU_CUDA_TRY(cudaDeviceCanAccessPeer(&can, from, to));
    if (!can) continue;
    NPGPU_CUDA_TRY(cudaSetDevice(from));
    const cudaError_t e = cudaDeviceEnablePeerAccess(to, 0);
    if (e == cudaErrorPeerAccessAlreadyEnabled) (void)cudaGetLastError();  // enabled elsewhere: fine
    else if (e != cudaSuccess) {
      (void)cudaGetLastError();  // peer access refused: the driver stages the copies instead
    }
  }
  NPGPU_CUDA_TRY(cudaSetDevice(previous));
  done[{a, b}] = done[{b, a}] = true;
}

}  // namespace

void copy_peer(void* dst, int dst_device, const void* src, int src_device, std::int64_t nbytes, StreamHandle stream) {
  if (nbytes <= 0) return;
  if (dst_device != src_device) enable_peer_access(dst_device, src_device);
  NPGPU_CUDA_TRY(cudaMemcpyPeerAsync(dst, dst_device, src, src_device, static_cast<size_t>(nbytes),
                                     static_cast<cudaStream_t>(stream)));
}

StagingConfig staging_config() { return detail::staging_config(); }
void set_staging_config(const StagingConfig& cfg) { detail::set_staging_config(cfg); }

}  // namespace npgpu
