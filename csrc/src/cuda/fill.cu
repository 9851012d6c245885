// Filling device memory with a repeated value (zeros, full).
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "common/cuda_check.hpp"
#include "cuda/driver_launch.hpp"
#include "npgpu/errors.hpp"
#include "npgpu/memory.hpp"

namespace npgpu {
namespace {

template <class W>
__global__ void fill_kernel(W* dst, std::int64_t count, W value) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    dst[i] = value;
}

template <class W>
void launch_fill(void* dst, std::int64_t count, const void* pattern, cudaStream_t s) {
  W v;
  std::memcpy(&v, pattern, sizeof(W));
  const std::int64_t blocks = std::min<std::int64_t>((count + 255) / 256, 1 << 20);
  int device = 0;
  NPGPU_CUDA_TRY(cudaGetDevice(&device));
  cuda::launch_direct(&fill_kernel<W>, dim3(static_cast<unsigned>(blocks)), dim3(256), device, s,
                      static_cast<W*>(dst), count, v);
}

// The driver's word memsets (cuMemsetD16/D32Async, cuMemsetD2D32Async), reached through the runtime's
// entry-point query (driver_launch.hpp) so that libnpgpu does not link libcuda. A memset is queued in about
// half the host time of a kernel launch, and a small array's creation costs little more than that.
using MemsetD16Fn = CUresult (*)(CUdeviceptr, unsigned short, size_t, CUstream);
using MemsetD32Fn = CUresult (*)(CUdeviceptr, unsigned int, size_t, CUstream);
using MemsetD2D32Fn = CUresult (*)(CUdeviceptr, size_t, unsigned int, size_t, size_t, CUstream);

struct DriverMemsets {
  MemsetD16Fn d16 = reinterpret_cast<MemsetD16Fn>(cuda::driver_entry_point("cuMemsetD16Async"));
  MemsetD32Fn d32 = reinterpret_cast<MemsetD32Fn>(cuda::driver_entry_point("cuMemsetD32Async"));
  MemsetD2D32Fn d2d32 = reinterpret_cast<MemsetD2D32Fn>(cuda::driver_entry_point("cuMemsetD2D32Async"));
};

const DriverMemsets& driver_memsets() {
  static const DriverMemsets m;
  return m;
}

// Above this many 8-byte elements the fill kernel's full-width stores beat two strided memsets.
constexpr std::int64_t kStridedMemsetMax = 1 << 16;

// Fills with the driver's memsets where the pattern is a repeated 16- or 32-bit word (or, for small arrays,
// an 8-byte pattern as two strided 32-bit memsets). False when none applies or the driver refused.
bool fill_with_memset(void* dst, std::int64_t count, const unsigned char* p, int pattern_size, cudaStream_t s) {
  const DriverMemsets& m = driver_memsets();
  const auto ptr = reinterpret_cast<CUdeviceptr>(dst);
  const auto stream = reinterpret_cast<CUstream>(s);
  const std::int64_t nbytes = count * pattern_size;
  auto repeats = [&](int word) {
    for (int i = word; i < pattern_size; ++i)
      if (p[i] != p[i - word]) return false;
    return true;
  };
  if (pattern_size >= 4 && repeats(4) && m.d32 != nullptr) {
    std::uint32_t w;
    std::memcpy(&w, p, 4);
    return m.d32(ptr, w, static_cast<size_t>(nbytes / 4), stream) == CUDA_SUCCESS;
  }
  if (pattern_size >= 2 && repeats(2) && m.d16 != nullptr) {
    std::uint16_t w;
    std::memcpy(&w, p, 2);
    return m.d16(ptr, w, static_cast<size_t>(nbytes / 2), stream) == CUDA_SUCCESS;
  }
  if (pattern_size == 8 && count <= kStridedMemsetMax && m.d2d32 != nullptr) {
    std::uint32_t lo, hi;
    std::memcpy(&lo, p, 4);
    std::memcpy(&hi, p + 4, 4);
    // Rows of one 32-bit word, 8 bytes apart: the low words, then the high words.
    return m.d2d32(ptr, 8, lo, 1, static_cast<size_t>(count), stream) == CUDA_SUCCESS &&
           m.d2d32(ptr + 4, 8, hi, 1, static_cast<size_t>(count), stream) == CUDA_SUCCESS;
  }
  return false;
}

}  // namespace

void fill_pattern(void* dst, std::int64_t count, const void* pattern, int pattern_size, StreamHandle stream) {
  if (count <= 0) return;
  auto s = static_cast<cudaStream_t>(stream);
  bool all_same_byte = true;
  const auto* p = static_cast<const unsigned char*>(pattern);
  for (int i = 1; i < pattern_size; ++i) all_same_byte &= p[i] == p[0];
  if (all_same_byte) {  // zeros and other byte patterns: the copy engine's memset
    NPGPU_CUDA_TRY(cudaMemsetAsync(dst, p[0], static_cast<size_t>(count) * pattern_size, s));
    return;
  }
  if (fill_with_memset(dst, count, p, pattern_size, s)) return;
  cudaGetLastError();
  switch (pattern_size) {
    case 2: return launch_fill<std::uint16_t>(dst, count, pattern, s);
    case 4: return launch_fill<std::uint32_t>(dst, count, pattern, s);
    case 8: return launch_fill<std::uint64_t>(dst, count, pattern, s);
    case 16: return launch_fill<uint4>(dst, count, pattern, s);
    default:
      throw InvalidArgument("fill pattern size must be 1, 2, 4, 8 or 16 bytes, got " + std::to_string(pattern_size));
  }
}

}  // namespace npgpu
