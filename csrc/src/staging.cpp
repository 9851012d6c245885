// The pinned staging ring (see common/staging.hpp).
#include "common/staging.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <vector>

#include "common/cuda_check.hpp"
#include "npgpu/errors.hpp"

#if defined(_OPENMP)
#include <omp.h>
#endif
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace npgpu::detail {
namespace {

std::mutex g_config_mutex;

StagingConfig initial_config() {
  StagingConfig c;
  // Room for the largest chunks run_staged makes (see there); smaller transfers still use 8 MiB chunks.
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
  cudaEvent_t start = nullptr;  // orders a call's chunks after the caller's stream when it is busy

  void build(int device, const StagingConfig& c) {
    release();
    try {
      cfg = c;
      slots.resize(c.slots);
      NPGPU_CUDA_TRY(cudaEventCreateWithFlags(&start, cudaEventDisableTiming));
      for (Slot& s : slots) {
        NPGPU_CUDA_TRY(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking));
        NPGPU_CUDA_TRY(cudaEventCreateWithFlags(&s.done, cudaEventDisableTiming));
        s.pinned = std::make_unique<PinnedBuffer>(c.slot_bytes);
        s.dev = std::make_unique<DeviceBuffer>(c.slot_bytes, device, s.stream);
      }
    } catch (...) {
      release();  // an empty ring, built afresh by the next call, never a partial one
      throw;
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
    if (start) cudaEventDestroy(start);
    start = nullptr;
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
  bool to_dma = false;  // dst is a slot the copy engine reads next (small chunks): write it with streaming stores
};

// Copies of up to this many bytes a chunk are "small": at most 8 copy threads, streaming stores.
constexpr std::int64_t kSmallCopy = 8 << 20;

// Whether the inputs of small chunks go into the pinned slots with streaming (non-temporal) stores
// (NPGPU_STAGING_STREAMING=0 turns it off, for measurements). Ordinary stores leave the slot's lines in the
// copying cores' caches for the copy engine to fetch, and read every destination line before writing it.
// Larger chunks (16 threads) keep glibc's memcpy, which keeps them closer to the pinned upload rate
// (docs/performance-notes.md).
bool streaming_stores() {
  static const bool on = [] {
    const char* v = std::getenv("NPGPU_STAGING_STREAMING");
    return !(v && std::strcmp(v, "0") == 0);
  }();
  return on;
}

void copy_bytes(char* dst, const char* src, std::int64_t len, bool to_dma) {
#if defined(__SSE2__)
  if (to_dma && len >= 256 && streaming_stores()) {
    const std::int64_t head = static_cast<std::int64_t>((16 - (reinterpret_cast<std::uintptr_t>(dst) & 15)) & 15);
    std::memcpy(dst, src, static_cast<size_t>(head));
    dst += head, src += head, len -= head;
    const std::int64_t blocks = len / 64;
    for (std::int64_t i = 0; i < blocks; ++i, dst += 64, src += 64) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 16));
      const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 32));
      const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 48));
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst), a);
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + 16), b);
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + 32), c);
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + 48), d);
    }
    std::memcpy(dst, src, static_cast<size_t>(len - blocks * 64));
    _mm_sfence();  // the streamed data is in memory before the upload is queued
    return;
  }
#endif
  (void)to_dma;
  std::memcpy(dst, src, static_cast<size_t>(len));
}

// Part `part` of `parts` of every job: the jobs of one chunk are split across the copy threads together, so
// one fork/join covers all operands.
void copy_part(const CopyJob* jobs, int njobs, int part, int parts) {
  for (int j = 0; j < njobs; ++j) {
    const std::int64_t piece = (jobs[j].nbytes + parts - 1) / parts;
    const std::int64_t lo = part * piece;
    const std::int64_t len = std::min(piece, jobs[j].nbytes - lo);
    if (len > 0)
      copy_bytes(static_cast<char*>(jobs[j].dst) + lo, static_cast<const char*>(jobs[j].src) + lo, len,
                 jobs[j].to_dma);
  }
}

// Threads for a host copy of `total` bytes, in pieces of at least 128 KiB: one core copies far slower than
// PCIe moves data. Up to 8 threads for copies of up to 8 MiB (faster than 16 there), up to 16 above
// (NPGPU_STAGING_THREADS); figures in docs/performance-notes.md.
int copy_threads(std::int64_t total) {
#if defined(_OPENMP)
  constexpr std::int64_t kPiece = 128 << 10;
  static const int max_threads = [] {
    const char* v = std::getenv("NPGPU_STAGING_THREADS");
    return v ? std::max(1, std::atoi(v)) : 16;
  }();
  const int cap = std::min(omp_get_max_threads(), total > kSmallCopy ? max_threads : std::min(max_threads, 8));
  return static_cast<int>(std::min<std::int64_t>(cap, std::max<std::int64_t>(1, total / kPiece)));
#else
  (void)total;
  return 1;
#endif
}

std::int64_t total_bytes(const std::vector<CopyJob>& jobs) {
  std::int64_t total = 0;
  for (const CopyJob& j : jobs) total += j.nbytes;
  return total;
}

// Host memcpy of several blocks in one parallel region.
void host_copy(const std::vector<CopyJob>& jobs) {
  const int threads = copy_threads(total_bytes(jobs));
  const int n = static_cast<int>(jobs.size());
#if defined(_OPENMP)
  if (threads > 1) {
#pragma omp parallel num_threads(threads)
    copy_part(jobs.data(), n, omp_get_thread_num(), omp_get_num_threads());
    return;
  }
#endif
  (void)threads;
  copy_part(jobs.data(), n, 0, 1);
}

// `issue()` (CUDA calls: they must run on the calling thread, whose device is current) alongside a host copy
// on other threads: the next chunk's inputs are copied while this chunk's uploads and kernels are queued,
// instead of after (the CUDA calls of a chunk cost host time of their own).
template <class Issue>
void issue_while_copying(Issue&& issue, const std::vector<CopyJob>& jobs) {
  const int n = static_cast<int>(jobs.size());
#if defined(_OPENMP)
  const std::int64_t total = total_bytes(jobs);
  const int copiers = total > 0 ? std::min(copy_threads(total), omp_get_max_threads() - 1) : 0;
  if (copiers >= 1) {
    std::exception_ptr error;
#pragma omp parallel num_threads(copiers + 1)
    {
      const int t = omp_get_thread_num();
      const int team = omp_get_num_threads();
      if (t == 0) {
        try {
          issue();
        } catch (...) {
          error = std::current_exception();
        }
        if (team == 1) copy_part(jobs.data(), n, 0, 1);
      } else {
        copy_part(jobs.data(), n, t - 1, team - 1);
      }
    }
    if (error) std::rethrow_exception(error);
    return;
  }
#endif
  issue();
  copy_part(jobs.data(), n, 0, 1);
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

// Interrupt checks between chunks, rate-limited: in Python a check takes the GIL.
class InterruptPoll {
 public:
  void operator()() {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(50)) return;
    last_ = now;
    if (interrupt_requested()) throw Interrupted("interrupted between the chunks of a host<->device transfer");
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

// The ring could not be built (pinned host memory exhausted): the same chunks through device scratch with
// pageable copies on the caller's stream, which the driver stages itself. Slower, but the call goes through.
void run_pageable(int device, StreamHandle stream, const StagedOperand* ops, int nops, std::int64_t n,
                  const ChunkCompute& compute) {
  std::int64_t row_bytes = 0;
  for (int k = 0; k < nops; ++k) row_bytes += ops[k].itemsize;
  // chunks of 8 MiB, a multiple of 16 elements as in run_staged
  const std::int64_t chunk = std::min(n, std::max<std::int64_t>(16, (8 << 20) / row_bytes / 16 * 16));
  std::vector<std::int64_t> offs(nops);
  std::int64_t off = 0;
  for (int k = 0; k < nops; ++k) {
    offs[k] = off;
    off += (chunk * ops[k].itemsize + 255) / 256 * 256;
  }
  DeviceBuffer scratch(off, device, stream);
  const cudaStream_t s = static_cast<cudaStream_t>(stream);
  std::vector<void*> dev_ptrs(nops);
  for (int k = 0; k < nops; ++k) dev_ptrs[k] = static_cast<char*>(scratch.data()) + offs[k];
  InterruptPoll poll;
  try {
    for (std::int64_t start = 0; start < n; start += chunk) {
      if (start > 0) poll();
      const std::int64_t count = std::min(chunk, n - start);
      for (int k = 0; k < nops; ++k)
        if (!ops[k].output)
          NPGPU_CUDA_TRY(cudaMemcpyAsync(dev_ptrs[k], static_cast<const char*>(ops[k].host) + start * ops[k].itemsize,
                                         count * ops[k].itemsize, cudaMemcpyHostToDevice, s));
      compute(dev_ptrs.data(), count, stream);
      for (int k = 0; k < nops; ++k)
        if (ops[k].output)
          NPGPU_CUDA_TRY(cudaMemcpyAsync(static_cast<char*>(ops[k].host) + start * ops[k].itemsize, dev_ptrs[k],
                                         count * ops[k].itemsize, cudaMemcpyDeviceToHost, s));
    }
    NPGPU_CUDA_TRY(cudaStreamSynchronize(s));
  } catch (...) {
    if (cudaStreamSynchronize(s) != cudaSuccess) cudaGetLastError();  // scratch is freed on this stream next
    throw;
  }
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
  if (ring.slots.empty() || ring.cfg.slot_bytes != want.slot_bytes || ring.cfg.slots != want.slots) {
    try {
      ring.build(device, want);
    } catch (const OutOfMemoryError&) {
      run_pageable(device, stream, ops, nops, n, compute);
      return;
    }
  }

  std::int64_t row_bytes = 0;  // bytes of one element across all operands, 16-byte aligned per operand
  for (int k = 0; k < nops; ++k) row_bytes += ops[k].itemsize;
  // Chunks of total/32 bytes, at least 8 MiB and at most a slot: small transfers keep 8 MiB chunks, larger ones
  // take whole 32 MiB slots, so fewer chunks pay the per-chunk costs.
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
  const bool bounce_inputs = input_mode() != InputMode::Pageable;
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
    host_copy(jobs);
    pending_start[k] = -1;
  };
  // The host copies that bring a chunk's bounced inputs into its slot's pinned memory.
  auto input_jobs = [&](int k, std::int64_t start, std::int64_t count) {
    std::vector<CopyJob> jobs;
    char* pin = static_cast<char*>(ring.slots[k].pinned->data());
    for (int j = 0; j < nops; ++j)
      if (!ops[j].output && !direct[j] && bounce_inputs)
        jobs.push_back({pin + offs[j], static_cast<const char*>(ops[j].host) + start * ops[j].itemsize,
                        count * ops[j].itemsize});
    const bool small = total_bytes(jobs) <= kSmallCopy;
    for (CopyJob& job : jobs) job.to_dma = small;
    return jobs;
  };
  // Uploads, compute and downloads of one chunk whose bounced inputs are in slot k's pinned memory.
  std::vector<void*> dev_ptrs(nops);
  auto issue = [&](int k, std::int64_t start, std::int64_t count) {
    Slot& s = ring.slots[k];
    char* pin = static_cast<char*>(s.pinned->data());
    char* dev = static_cast<char*>(s.dev->data());
    for (int j = 0; j < nops;) {
      dev_ptrs[j] = dev + offs[j];
      if (ops[j].output) {
        ++j;
        continue;
      }
      const bool bounced = !direct[j] && bounce_inputs;
      const char* src = bounced ? pin + offs[j] : static_cast<const char*>(ops[j].host) + start * ops[j].itemsize;
      std::int64_t bytes = count * ops[j].itemsize;
      int next = j + 1;
      // Bounced inputs side by side in the slot go up in one copy (the padding between them with it).
      for (; bounced && next < nops && !ops[next].output && !direct[next]; ++next) {
        dev_ptrs[next] = dev + offs[next];
        bytes = offs[next] + count * ops[next].itemsize - offs[j];
      }
      NPGPU_CUDA_TRY(cudaMemcpyAsync(dev + offs[j], src, bytes, cudaMemcpyHostToDevice, s.stream));
      j = next;
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
  };

  const std::int64_t nchunks = (n + chunk - 1) / chunk;
  auto chunk_count = [&](std::int64_t c) { return std::min(chunk, n - c * chunk); };

  // Work already queued on the caller's stream comes first (an idle stream needs no ordering).
  const cudaStream_t caller = static_cast<cudaStream_t>(stream);
  const cudaError_t idle = cudaStreamQuery(caller);
  if (idle == cudaErrorNotReady) {
    cudaGetLastError();
    NPGPU_CUDA_TRY(cudaEventRecord(ring.start, caller));
    for (int k = 0; k < S && k < nchunks; ++k) NPGPU_CUDA_TRY(cudaStreamWaitEvent(ring.slots[k].stream, ring.start, 0));
  } else {
    NPGPU_CUDA_TRY(idle);
  }

  try {
    // The calling thread stays out of the copies, keeping its caches warm for the CUDA calls that queue chunks.
    issue_while_copying([] {}, input_jobs(0, 0, chunk_count(0)));
    InterruptPoll poll;
    for (std::int64_t c = 0; c < nchunks; ++c) {
      if (c > 0) poll();
      const int k = static_cast<int>(c % S);
      std::vector<CopyJob> next_jobs;
      if (c + 1 < nchunks) {
        const int kn = static_cast<int>((c + 1) % S);
        drain(kn);  // the chunk that used the next slot last: done, its outputs copied out
        next_jobs = input_jobs(kn, (c + 1) * chunk, chunk_count(c + 1));
      }
      issue_while_copying([&] { issue(k, c * chunk, chunk_count(c)); }, next_jobs);
    }
    // Oldest first. Every chunk is then complete, so later work on the caller's stream needs no wait.
    const int next = static_cast<int>(nchunks % S);
    for (int i = 0; i < S; ++i) drain((next + i) % S);
  } catch (...) {
    for (Slot& s : ring.slots) {
      if (cudaStreamSynchronize(s.stream) != cudaSuccess) cudaGetLastError();
    }
    throw;
  }
}

}  // namespace npgpu::detail
