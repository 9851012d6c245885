// Filling device memory with a repeated value (zeros, full).
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
