// Device memory from each device's stream-ordered pool, pinned host memory, copies, memory statistics.
#include "npgpu/memory.hpp"

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <mutex>

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

}  // namespace

DeviceBuffer::DeviceBuffer(std::int64_t nbytes, int device, StreamHandle stream)
    : nbytes_(nbytes), device_(device), stream_(stream) {
  if (nbytes < 0) throw InvalidArgument("negative allocation size " + std::to_string(nbytes));
  set_current_device(device);
  if (nbytes == 0) return;
  ensure_pool_configured(device);
  cudaError_t err = cudaMallocAsync(&data_, static_cast<size_t>(nbytes), static_cast<cudaStream_t>(stream));
  if (err != cudaSuccess) {
    data_ = nullptr;
    detail::throw_alloc_error(err, "device allocation", nbytes, device);
  }
}

DeviceBuffer::~DeviceBuffer() {
  if (!data_) return;
  try {
    set_current_device(device_);
  } catch (...) {
    return;
  }
  if (cudaFreeAsync(data_, static_cast<cudaStream_t>(stream_)) != cudaSuccess) cudaGetLastError();
}

PinnedBuffer::PinnedBuffer(std::int64_t nbytes) : nbytes_(nbytes) {
  if (nbytes < 0) throw InvalidArgument("negative allocation size " + std::to_string(nbytes));
  if (nbytes == 0) return;
  cudaError_t err = cudaHostAlloc(&data_, static_cast<size_t>(nbytes), cudaHostAllocPortable);
  if (err != cudaSuccess) {
    data_ = nullptr;
    detail::throw_alloc_error(err, "pinned host allocation", nbytes, -1);
  }
  g_pinned_bytes += nbytes;
}

PinnedBuffer::~PinnedBuffer() {
  if (!data_) return;
  if (cudaFreeHost(data_) != cudaSuccess) cudaGetLastError();
  g_pinned_bytes -= nbytes_;
}

MemoryInfo memory_info(int device) {
  MemoryInfo info;
  info.pinned_bytes = g_pinned_bytes.load();
  set_current_device(device);
  ensure_pool_configured(device);
  cudaMemPool_t pool = nullptr;
  NPGPU_CUDA_TRY(cudaDeviceGetDefaultMemPool(&pool, device));
  std::uint64_t v = 0;
  NPGPU_CUDA_TRY(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &v));
  info.pool_used = static_cast<std::int64_t>(v);
  NPGPU_CUDA_TRY(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &v));
  info.pool_reserved = static_cast<std::int64_t>(v);
  mem_get_info(device, &info.device_free, &info.device_total);
  return info;
}

void trim_pool(int device, std::int64_t keep_bytes) {
  set_current_device(device);
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

StagingConfig staging_config() { return detail::staging_config(); }
void set_staging_config(const StagingConfig& cfg) { detail::set_staging_config(cfg); }

}  // namespace npgpu
