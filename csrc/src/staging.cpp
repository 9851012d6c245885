// The pinned staging ring (see common/staging.hpp).
#include "common/staging.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "common/cuda_check.hpp"
#include "npgpu/errors.hpp"

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace npgpu::detail {
namespace {

std::mutex g_config_mutex;

StagingConfig initial_config() {
  StagingConfig c;
  // Room for the largest chunks run_staged makes (see there): 2^28-element adds 1.3x faster with 32 MiB than
  // 8 MiB chunks (H100 VM, 16 copy threads); smaller transfers still use 8 MiB chunks.
  c.slot_bytes = 32 << 20;
  c.slots = 4;
  if (const char* v = std::getenv("NPGPU_STAGING_SLOT_BYTES")) c.slot_bytes = std::max(1LL << 16, std::atoll(v));
  if (const char* v = std::getenv("NPGPU_STAGING_SLOTS")) c.slots = std::max(2, std::atoi(v));
  return c;
}

StagingConfig& config() {
  static StagingConfig c = initial_config();
  return c;
}

struct Slot {
  std::unique_ptr<PinnedBuffer> pinned;
  std::unique_ptr<DeviceBuffer> dev;
  cudaStream_t stream = nullptr;
  cudaEvent_t done = nullptr;
};

// One ring per device. A staged call holds the whole ring (the PCIe link is shared anyway), so concurrent
// callers queue up instead of deadlocking on partial sets of slots.
struct Ring {
  std::mutex mutex;
  StagingConfig cfg;
  std::vector<Slot> slots;

  void build(int device, const StagingConfig& c) {
    release();
    cfg = c;
    slots.resize(c.slots);
    for (Slot& s : slots) {
      NPGPU_CUDA_TRY(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking));
      NPGPU_CUDA_TRY(cudaEventCreateWithFlags(&s.done, cudaEventDisableTiming));
      s.pinned = std::make_unique<PinnedBuffer>(c.slot_bytes);
      s.dev = std::make_unique<DeviceBuffer>(c.slot_bytes, device, s.stream);
    }
  }
  void release() {
    for (Slot& s : slots) {
      if (s.stream) cudaStreamSynchronize(s.stream);
      s.dev.reset();
      s.pinned.reset();
      // Chunk work may have left small scratch blocks cached for this stream: hand them back before the
      // handle dies (a cached block on a destroyed stream would be freed on a dangling handle later).
      if (s.stream) detail::release_cached_blocks(-1, s.stream, false);
      if (s.done) cudaEventDestroy(s.done);
      if (s.stream) cudaStreamDestroy(s.stream);
    }
    slots.clear();
  }
};

Ring& ring_for(int device) {
  // Never destroyed: freeing CUDA memory while the runtime unloads at exit is unsafe.
  static std::mutex m;
  static auto* rings = new std::vector<Ring*>();
  std::lock_guard<std::mutex> lock(m);
  if (static_cast<int>(rings->size()) <= device) rings->resize(device + 1, nullptr);
  if (!(*rings)[device]) (*rings)[device] = new Ring();
  return *(*rings)[device];
}

struct CopyJob {
  void* dst;
  const void* src;
  std::int64_t nbytes;
};

// Host memcpy of several blocks in one parallel region, each split into pieces of at least kPiece bytes: one
// core copies ~10 GB/s, far slower than PCIe moves data, and one fork/join per chunk (instead of one per
// operand) keeps the per-chunk cost down. Up to 8 threads for copies of up to 8 MiB (measured faster than 16
// there: a 2^20-element add into a pageable out= took 0.49 ms with 8, 0.70 ms with 16), up to 16 above
// (NPGPU_STAGING_THREADS; 2^28-element add with 32 MiB chunks: 42.5 ms with 16, 62 ms with 8; H100 VM).
void host_copy(const CopyJob* jobs, int njobs) {
  constexpr std::int64_t kPiece = 128 << 10;
  constexpr std::int64_t kSmallCopy = 8 << 20;
  std::int64_t total = 0;
  for (int j = 0; j < njobs; ++j) total += jobs[j].nbytes;
#if defined(_OPENMP)
  static const int max_threads = [] {
    const char* v = std::getenv("NPGPU_STAGING_THREADS");
    return v ? std::max(1, std::atoi(v)) : 16;
  }();
  const int cap = std::min(omp_get_max_threads(), total > kSmallCopy ? max_threads : std::min(max_threads, 8));
  const int threads = static_cast<int>(std::min<std::int64_t>(cap, std::max<std::int64_t>(1, total / kPiece)));
  if (threads > 1) {
#pragma omp parallel num_threads(threads)
    {
      const int t = omp_get_thread_num();
      for (int j = 0; j < njobs; ++j) {
        const std::int64_t part = (jobs[j].nbytes + threads - 1) / threads;
        const std::int64_t lo = t * part;
        const std::int64_t len = std::min(part, jobs[j].nbytes - lo);
        if (len > 0)
          std::memcpy(static_cast<char*>(jobs[j].dst) + lo, static_cast<const char*>(jobs[j].src) + lo, len);
      }
    }
    return;
  }
#endif
  for (int j = 0; j < njobs; ++j) std::memcpy(jobs[j].dst, jobs[j].src, static_cast<size_t>(jobs[j].nbytes));
}

bool is_pinned(const void* p) {
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return attr.type == cudaMemoryTypeHost;
}

// How host operands that are not pinned reach the device (NPGPU_STAGING_INPUT, for measurements):
// "bounce" copies them through the ring's pinned slots with a parallel memcpy (default); "register" pins
// them in place for the call (cudaHostRegister) so the copy engine reads them directly; "pageable" hands
// the pageable pointer to cudaMemcpyAsync and lets the driver stage it.
enum class InputMode { Bounce, Register, Pageable };

InputMode input_mode() {
  static InputMode m = [] {
    const char* v = std::getenv("NPGPU_STAGING_INPUT");
    if (v && std::strcmp(v, "register") == 0) return InputMode::Register;
    if (v && std::strcmp(v, "pageable") == 0) return InputMode::Pageable;
    return InputMode::Bounce;
  }();
  return m;
}

}  // namespace

StagingConfig staging_config() {
  std::lock_guard<std::mutex> lock(g_config_mutex);
  return config();
}

void set_staging_config(const StagingConfig& cfg) {
  if (cfg.slots < 2) throw InvalidArgument("the staging ring needs at least 2 slots");
  if (cfg.slot_bytes < 4096) throw InvalidArgument("staging slots must hold at least 4096 bytes");
  std::lock_guard<std::mutex> lock(g_config_mutex);
  config() = cfg;
}

void run_staged(int device, StreamHandle stream, const StagedOperand* ops, int nops, std::int64_t n,
                const ChunkCompute& compute) {
  if (n <= 0) return;
  Ring& ring = ring_for(device);
  std::lock_guard<std::mutex> lock(ring.mutex);
  const StagingConfig want = staging_config();
  if (ring.slots.empty() || ring.cfg.slot_bytes != want.slot_bytes || ring.cfg.slots != want.slots)
    ring.build(device, want);

  std::int64_t row_bytes = 0;  // bytes of one element across all operands, 16-byte aligned per operand
  for (int k = 0; k < nops; ++k) row_bytes += ops[k].itemsize;
  // Chunks of total/32 bytes, at least 8 MiB and at most a slot: transfers up to 256 MiB keep the 8 MiB chunks
  // measured best for them (a 2^24-element add: 3.4 ms, against 12.2 ms with 4 MiB), larger ones take whole
  // 32 MiB slots, fewer chunks and their per-chunk costs (2^28-element add: 62 ms with 8 MiB, 42.5 ms with 32).
  const std::int64_t chunk_bytes =
      std::clamp<std::int64_t>(n * row_bytes / 32, std::min<std::int64_t>(8 << 20, ring.cfg.slot_bytes),
                               ring.cfg.slot_bytes);
  std::int64_t chunk = chunk_bytes / row_bytes;
  chunk = std::max<std::int64_t>(16, chunk - chunk % 16);
  // Keep several chunks in flight for arrays that would fill few slots, so copies and compute overlap and the
  // un-overlapped tail (the last chunk's transfers) stays short.
  static const std::int64_t min_chunks = [] {
    const char* v = std::getenv("NPGPU_STAGING_MIN_CHUNKS");
    return v ? std::max(1LL, std::atoll(v)) : 4LL;
  }();
  if (n > min_chunks * 32768 && n < chunk * min_chunks)
    chunk = std::max<std::int64_t>(32768, (n / min_chunks + 15) / 16 * 16);
  // Per operand, its offset inside a slot (aligned for vector loads).
  std::vector<std::int64_t> offs(nops);
  std::int64_t off = 0;
  for (int k = 0; k < nops; ++k) {
    offs[k] = off;
    off += (chunk * ops[k].itemsize + 255) / 256 * 256;
  }
  while (off > ring.cfg.slot_bytes) {  // alignment padding pushed past the slot: shrink the chunk
    chunk -= 256;
    off = 0;
    for (int k = 0; k < nops; ++k) {
      offs[k] = off;
      off += (chunk * ops[k].itemsize + 255) / 256 * 256;
    }
  }

  // Operands already in pinned memory (npgpu.empty_pinned, results npgpu allocated) move by DMA directly.
  std::vector<char> direct(nops, 0);
  std::vector<void*> registered;
  struct Unregister {
    std::vector<void*>& r;
    ~Unregister() {
      for (void* p : r)
        if (cudaHostUnregister(p) != cudaSuccess) cudaGetLastError();
    }
  } unregister{registered};
  for (int j = 0; j < nops; ++j) {
    direct[j] = is_pinned(ops[j].host);
    if (!direct[j] && input_mode() == InputMode::Register) {
      if (cudaHostRegister(ops[j].host, static_cast<size_t>(n * ops[j].itemsize), cudaHostRegisterDefault) ==
          cudaSuccess) {
        registered.push_back(ops[j].host);
        direct[j] = 1;
      } else {
        cudaGetLastError();  // e.g. shares a page with another registered operand: bounce it instead
      }
    }
  }

  const int S = static_cast<int>(ring.slots.size());
  // Chunks waiting in a slot for their outputs to be copied to the host: chunk start, count.
  std::vector<std::int64_t> pending_start(S, -1), pending_count(S, 0);
  auto drain = [&](int k) {
    if (pending_start[k] < 0) return;
    Slot& s = ring.slots[k];
    NPGPU_CUDA_TRY(cudaEventSynchronize(s.done));
    std::vector<CopyJob> jobs;
    for (int j = 0; j < nops; ++j) {
      if (!ops[j].output || direct[j]) continue;
      jobs.push_back({static_cast<char*>(ops[j].host) + pending_start[k] * ops[j].itemsize,
                      static_cast<char*>(s.pinned->data()) + offs[j], pending_count[k] * ops[j].itemsize});
    }
    host_copy(jobs.data(), static_cast<int>(jobs.size()));
    pending_start[k] = -1;
  };

  // Work already queued on the caller's stream comes first.
  cudaEvent_t start_ev = nullptr;
  NPGPU_CUDA_TRY(cudaEventCreateWithFlags(&start_ev, cudaEventDisableTiming));
  struct EventGuard {
    cudaEvent_t e;
    ~EventGuard() { cudaEventDestroy(e); }
  } guard{start_ev};
  NPGPU_CUDA_TRY(cudaEventRecord(start_ev, static_cast<cudaStream_t>(stream)));
  for (Slot& s : ring.slots) NPGPU_CUDA_TRY(cudaStreamWaitEvent(s.stream, start_ev, 0));

  std::vector<void*> dev_ptrs(nops);
  try {
    int k = 0;
    for (std::int64_t start = 0; start < n; start += chunk, k = (k + 1) % S) {
      const std::int64_t count = std::min(chunk, n - start);
      drain(k);
      Slot& s = ring.slots[k];
      char* pin = static_cast<char*>(s.pinned->data());
      char* dev = static_cast<char*>(s.dev->data());
      std::vector<CopyJob> jobs;
      for (int j = 0; j < nops; ++j) {
        dev_ptrs[j] = dev + offs[j];
        if (!ops[j].output && !direct[j] && input_mode() != InputMode::Pageable)
          jobs.push_back({pin + offs[j], static_cast<const char*>(ops[j].host) + start * ops[j].itemsize,
                          count * ops[j].itemsize});
      }
      host_copy(jobs.data(), static_cast<int>(jobs.size()));
      for (int j = 0; j < nops; ++j) {
        if (ops[j].output) continue;
        const char* src = direct[j] || input_mode() == InputMode::Pageable
                              ? static_cast<const char*>(ops[j].host) + start * ops[j].itemsize
                              : pin + offs[j];
        NPGPU_CUDA_TRY(cudaMemcpyAsync(dev + offs[j], src, count * ops[j].itemsize, cudaMemcpyHostToDevice,
                                       s.stream));
      }
      compute(dev_ptrs.data(), count, s.stream);
      for (int j = 0; j < nops; ++j) {
        if (!ops[j].output) continue;
        char* dst = direct[j] ? static_cast<char*>(ops[j].host) + start * ops[j].itemsize : pin + offs[j];
        NPGPU_CUDA_TRY(cudaMemcpyAsync(dst, dev + offs[j], count * ops[j].itemsize, cudaMemcpyDeviceToHost,
                                       s.stream));
      }
      NPGPU_CUDA_TRY(cudaEventRecord(s.done, s.stream));
      pending_start[k] = start;
      pending_count[k] = count;
    }
    // Oldest first: slot k is the next one the loop would have reused.
    for (int i = 0; i < S; ++i) drain((k + i) % S);
  } catch (...) {
    for (Slot& s : ring.slots) {
      if (cudaStreamSynchronize(s.stream) != cudaSuccess) cudaGetLastError();
    }
    throw;
  }
  // Later work on the caller's stream sees the results (they are on the host already).
  for (Slot& s : ring.slots) {
    NPGPU_CUDA_TRY(cudaEventRecord(s.done, s.stream));
    NPGPU_CUDA_TRY(cudaStreamWaitEvent(static_cast<cudaStream_t>(stream), s.done, 0));
  }
}

}  // namespace npgpu::detail
