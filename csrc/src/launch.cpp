// launch_indices: geometry checks against the device's limits, then the host or CUDA backend; the launch-cost
// floor.
#include "npgpu/launch.hpp"

#include <string>

#include "common/backends.hpp"
#include "common/strided.hpp"
#include "npgpu/errors.hpp"

namespace npgpu {

void check_launch_geometry(const Dim3& grid, const Dim3& block, int device) {
  int max_threads = 1024;
  std::int64_t max_block[3] = {1024, 1024, 64};
  std::int64_t max_grid[3] = {2147483647, 65535, 65535};
  if (device != kHostDevice) {
    const DeviceProperties& p = device_properties(device);
    max_threads = p.max_threads_per_block;
    for (int i = 0; i < 3; ++i) {
      max_block[i] = p.max_block_dim[i];
      max_grid[i] = p.max_grid_dim[i];
    }
  }
  const char* axis[3] = {"x", "y", "z"};
  const std::int64_t g[3] = {grid.x, grid.y, grid.z};
  const std::int64_t b[3] = {block.x, block.y, block.z};
  for (int i = 0; i < 3; ++i) {
    if (b[i] < 1) throw InvalidArgument(std::string("block.") + axis[i] + " must be at least 1, got " + std::to_string(b[i]));
  }
  // The total first: it is the limit users meet most (a 2048-thread block).
  // (Each factor is checked first so the product cannot overflow.)
  const bool huge = b[0] > max_threads || b[1] > max_threads || b[2] > max_threads;
  const std::int64_t threads = huge ? 0 : b[0] * b[1] * b[2];
  if (huge || threads > max_threads)
    throw InvalidArgument("block of " + std::to_string(b[0]) + "x" + std::to_string(b[1]) + "x" +
                          std::to_string(b[2]) + (huge ? std::string() : " = " + std::to_string(threads)) +
                          " threads exceeds the device limit maxThreadsPerBlock = " + std::to_string(max_threads));
  for (int i = 0; i < 3; ++i) {
    if (g[i] < 1) throw InvalidArgument(std::string("grid.") + axis[i] + " must be at least 1, got " + std::to_string(g[i]));
    if (g[i] > max_grid[i])
      throw InvalidArgument(std::string("grid.") + axis[i] + " = " + std::to_string(g[i]) +
                            " exceeds the device limit maxGridSize[" + std::to_string(i) + "] = " +
                            std::to_string(max_grid[i]));
    if (b[i] > max_block[i])
      throw InvalidArgument(std::string("block.") + axis[i] + " = " + std::to_string(b[i]) +
                            " exceeds the device limit maxThreadsDim[" + std::to_string(i) + "] = " +
                            std::to_string(max_block[i]));
  }
}

void launch_indices(const Dim3& grid, const Dim3& block, const ArrayView& thread_idx, const ArrayView& block_idx,
                    const ArrayView& block_dim, const ArrayView& grid_dim, StreamHandle stream) {
  const ArrayView* views[4] = {&thread_idx, &block_idx, &block_dim, &grid_dim};
  const int dev = detail::common_device(views, 4, "launch_indices");
  check_launch_geometry(grid, block, dev);
  const std::int64_t blocks = grid.x * grid.y * grid.z;  // each factor < 2^31: no overflow past int64
  const std::int64_t per_block = block.x * block.y * block.z;
  if (blocks > INT64_MAX / per_block)
    throw InvalidArgument("launch of " + std::to_string(blocks) + " blocks is too large to record");
  const std::int64_t n = blocks * per_block;
  for (const ArrayView* v : views) {
    if (v->dtype != DType::Int32 || v->ndim != 2 || v->shape[0] != n || v->shape[1] != 3 || !v->is_c_contiguous())
      throw InvalidArgument("launch_indices: outputs must be C-contiguous int32 arrays of shape [" +
                            std::to_string(n) + ", 3], got " + v->describe());
  }
  if (dev == kHostDevice) {
    host::launch_indices(grid, block, thread_idx, block_idx, block_dim, grid_dim, stream);
  } else {
    activate_device(dev);
    cuda::launch_indices(grid, block, thread_idx, block_idx, block_dim, grid_dim, stream);
  }
}

double empty_launch_host_us(int device, int launches) {
  if (launches < 1) throw InvalidArgument("empty_launch_host_us: launches must be at least 1, got " + std::to_string(launches));
  require_device(device);
  activate_device(device);
  return cuda::empty_launch_host_us(launches);
}

}  // namespace npgpu
