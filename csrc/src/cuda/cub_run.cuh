#pragma once
// Internal: running a CUB device-wide algorithm with its temporary storage from npgpu's pool.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "common/cuda_check.hpp"
#include "npgpu/memory.hpp"

namespace npgpu::cuda {

// f(temp, bytes) is the CUB call: asked once for the bytes it needs (temp == nullptr), then run with them,
// taken from the pool in stream order on `s`. Checks both statuses.
template <class F>
void cub_run(F&& f, int device, cudaStream_t s) {
  std::size_t bytes = 0;
  NPGPU_CUDA_TRY(f(nullptr, bytes));
  DeviceBuffer tmp(static_cast<std::int64_t>(std::max<std::size_t>(bytes, 16)), device, s);
  NPGPU_CUDA_TRY(f(tmp.data(), bytes));
}

}  // namespace npgpu::cuda
