#pragma once
// Launch geometry: which thread of which block a launch creates (reference page 000).
#include <cstdint>

#include "npgpu/export.hpp"
#include "npgpu/runtime.hpp"
#include "npgpu/view.hpp"

namespace npgpu {

struct Dim3 {
  std::int64_t x = 1, y = 1, z = 1;
};

// Throws InvalidArgument naming the limit when (grid, block) exceeds what `device` can launch (block size,
// block dimensions, grid dimensions); does nothing for a valid geometry. device == kHostDevice checks
// against the limits of CUDA's programming model (1024 threads a block, grid 2^31-1 x 65535 x 65535).
NPGPU_API void check_launch_geometry(const Dim3& grid, const Dim3& block, int device);

// Runs a kernel of geometry (grid, block) in which every thread writes its threadIdx, blockIdx, blockDim and
// gridDim (x, y, z as int32) to row `global linear thread id` of four [n, 3] int32 arrays, where
// n = threads in the launch. The linear id is ((blockIdx.z*gridDim.y + blockIdx.y)*gridDim.x + blockIdx.x)
// * threads_per_block + (threadIdx.z*blockDim.y + threadIdx.y)*blockDim.x + threadIdx.x.
// All four views must be C-contiguous int32 [n, 3] on one device (or all on the host, which emulates the
// launch on the CPU).
NPGPU_API void launch_indices(const Dim3& grid, const Dim3& block, const ArrayView& thread_idx,
                              const ArrayView& block_idx, const ArrayView& block_dim,
                              const ArrayView& grid_dim, StreamHandle stream);

// Host microseconds per launch of an empty one-block kernel on `device`: the median of 5 runs of `launches`
// back-to-back launches (on this thread's default stream, through the path npgpu's elementwise kernels take:
// the driver's cuLaunchKernel, or cudaLaunchKernel when NPGPU_DRIVER_LAUNCH=0). It is the floor under the per-call
// cost of every operation on this machine, which the benchmarks report beside their own figures.
// Synchronizes the device's default stream of this thread before and after; needs a GPU.
NPGPU_API double empty_launch_host_us(int device, int launches);

}  // namespace npgpu
