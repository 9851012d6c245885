#pragma once
// Internal: turning cudaError_t into npgpu exceptions. Every CUDA runtime call in libnpgpu goes through
// NPGPU_CUDA_TRY, which records the failing expression and clears a non-sticky error so the next call works.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

namespace npgpu::detail {

[[noreturn]] void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line);
// Same, but for an allocation: cudaErrorMemoryAllocation becomes OutOfMemoryError naming the request.
[[noreturn]] void throw_alloc_error(cudaError_t err, const char* what, long long nbytes, int device);
bool is_sticky(cudaError_t err);
// memory.cpp's small-block cache (see DeviceBuffer).
void release_cached_blocks(int device, void* stream, bool all_streams);
std::int64_t cached_small_bytes();
// runtime.cpp: references on streams npgpu created (no-ops for other handles).
void stream_retain(void* stream);
void stream_release(void* stream) noexcept;

}  // namespace npgpu::detail

#define NPGPU_CUDA_TRY(call)                                                  \
  do {                                                                        \
    cudaError_t npgpu_err_ = (call);                                          \
    if (npgpu_err_ != cudaSuccess)                                            \
      ::npgpu::detail::throw_cuda_error(npgpu_err_, #call, __FILE__, __LINE__); \
  } while (0)

// After a kernel launch: a bad configuration is reported here, synchronously.
#define NPGPU_CHECK_LAUNCH(what) NPGPU_CUDA_TRY(cudaGetLastError())
