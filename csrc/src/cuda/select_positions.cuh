#pragma once
// Internal: the positions where a flag holds, compacted by cub::DeviceSelect::Flagged, and their count read
// back: callers size their next allocation by it, so this waits for the device.
#include <cuda_runtime.h>

#include <cstdint>

#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "common/cuda_check.hpp"
#include "cuda/cub_run.cuh"
#include "npgpu/memory.hpp"

namespace npgpu::cuda {

// out[0, count) = the positions i in [0, n) where flag(i) holds, in order; returns count.
template <class Flag>
std::int64_t select_positions(Flag flag, std::int64_t n, std::int64_t* out, int device, cudaStream_t s) {
  DeviceBuffer count_buf(8, device, s);
  auto* count = static_cast<std::int64_t*>(count_buf.data());
  const thrust::counting_iterator<std::int64_t> positions(0);
  auto flagged = thrust::make_transform_iterator(positions, flag);
  cub_run([&](void* t, std::size_t& b) {
    return cub::DeviceSelect::Flagged(t, b, positions, flagged, out, count, n, s);
  }, device, s);
  std::int64_t host_count = 0;
  NPGPU_CUDA_TRY(cudaMemcpyAsync(&host_count, count, 8, cudaMemcpyDeviceToHost, s));
  NPGPU_CUDA_TRY(cudaStreamSynchronize(s));
  return host_count;
}

}  // namespace npgpu::cuda
