#pragma once
// Device memory from the stream-ordered pool, pinned host memory, copies, and the pinned staging ring.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "npgpu/export.hpp"
#include "npgpu/runtime.hpp"

namespace npgpu {

// Device memory from the device's stream-ordered pool (cudaMallocAsync). Freed on the stream it was
// allocated on, so it returns to the pool in stream order without a host wait.
class NPGPU_API DeviceBuffer {
 public:
  DeviceBuffer(std::int64_t nbytes, int device, StreamHandle stream);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void* data() const noexcept { return data_; }
  std::int64_t nbytes() const noexcept { return nbytes_; }
  int device() const noexcept { return device_; }
  StreamHandle stream() const noexcept { return stream_; }
  // The stream the memory is freed on; set it when the buffer's last use is on another stream. A stream npgpu
  // created stays alive while a buffer refers to it.
  void set_stream(StreamHandle s) noexcept;

 private:
  void free_block() noexcept;
  void* data_ = nullptr;
  std::int64_t nbytes_ = 0;
  int device_ = 0;
  StreamHandle stream_ = nullptr;
  // On the per-thread default stream, which thread's stream stream_ means (the handle is the same in every
  // thread); 0 for any other stream.
  std::uint64_t owner_thread_ = 0;
};

// Page-locked host memory (cudaHostAlloc), for fast asynchronous transfers. Released blocks are cached (up to
// NPGPU_PINNED_CACHE_BYTES, default 1 GiB) because pinning pages is slow.
class NPGPU_API PinnedBuffer {
 public:
  explicit PinnedBuffer(std::int64_t nbytes);
  ~PinnedBuffer();
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  void* data() const noexcept { return data_; }
  std::int64_t nbytes() const noexcept { return nbytes_; }

 private:
  void* data_ = nullptr;
  std::int64_t nbytes_ = 0;
};

struct MemoryInfo {
  std::int64_t pool_used = 0;      // bytes of device memory in live npgpu buffers (from the pool)
  std::int64_t cached_bytes = 0;   // small freed blocks kept for reuse on their stream
  std::int64_t pool_reserved = 0;  // bytes the pool holds from the driver
  std::int64_t pinned_bytes = 0;   // pinned host bytes held by npgpu (buffers and staging ring)
  std::int64_t pinned_cache_limit = 0;  // released pinned bytes kept for reuse at most (NPGPU_PINNED_CACHE_BYTES)
  std::int64_t device_free = 0;
  std::int64_t device_total = 0;
};

NPGPU_API MemoryInfo memory_info(int device);
// Return cached memory (npgpu's small-block cache, then the pool's) to the driver, keeping at most
// `keep_bytes` reserved.
NPGPU_API void trim_pool(int device, std::int64_t keep_bytes);

// Asynchronous copies on `stream` (either side may be host or device memory; contiguous bytes).
NPGPU_API void copy_bytes(void* dst, const void* src, std::int64_t nbytes, StreamHandle stream);
// Copies between host memory (pageable or pinned) and device memory of `device`, queued after the work on
// `stream`. Large pageable buffers move through the pinned staging ring (host copies on several threads,
// overlapped with the DMA), which the driver's own staging of pageable copies runs at a fraction of.
// to_device returns once `host` may be reused; to_host once `host` holds the data.
NPGPU_API void copy_to_device_staged(void* dst, const void* host, std::int64_t nbytes, int device,
                                     StreamHandle stream);
NPGPU_API void copy_to_host_staged(void* host, const void* src, std::int64_t nbytes, int device,
                                   StreamHandle stream);
// Device-to-device copy between two GPUs on `stream` (a stream of dst_device, or the per-thread default):
// direct over NVLink / PCIe where the GPUs can reach each other's memory (peer access is enabled on first
// use, both ways), staged by the driver otherwise.
NPGPU_API void copy_peer(void* dst, int dst_device, const void* src, int src_device, std::int64_t nbytes,
                         StreamHandle stream);
// Fill device memory with a repeated byte pattern of `pattern_size` bytes (1, 2, 4, 8 or 16).
NPGPU_API void fill_pattern(void* dst, std::int64_t count, const void* pattern, int pattern_size,
                            StreamHandle stream);

// The pinned staging ring: a bounded set of pinned host slots, each guarded by an event, through which
// NumPy buffers move to and from the device in chunks. One ring per device, shared by threads (a slot is
// owned by one transfer at a time).
struct StagingConfig {
  std::int64_t slot_bytes = 8 << 20;
  int slots = 4;
};
NPGPU_API StagingConfig staging_config();
NPGPU_API void set_staging_config(const StagingConfig& cfg);  // takes effect when the ring is next built

}  // namespace npgpu
