// Host backend of launch_indices: the same table the GPU would write, computed in the same thread order.
#include <cstdint>

#include "common/backends.hpp"

namespace npgpu::host {

void launch_indices(const Dim3& grid, const Dim3& block, const ArrayView& thread_idx, const ArrayView& block_idx,
                    const ArrayView& block_dim, const ArrayView& grid_dim, StreamHandle) {
  auto* t = static_cast<std::int32_t*>(thread_idx.data);
  auto* b = static_cast<std::int32_t*>(block_idx.data);
  auto* bd = static_cast<std::int32_t*>(block_dim.data);
  auto* gd = static_cast<std::int32_t*>(grid_dim.data);
  std::int64_t r = 0;
  for (std::int64_t bz = 0; bz < grid.z; ++bz)
    for (std::int64_t by = 0; by < grid.y; ++by)
      for (std::int64_t bx = 0; bx < grid.x; ++bx)
        for (std::int64_t tz = 0; tz < block.z; ++tz)
          for (std::int64_t ty = 0; ty < block.y; ++ty)
            for (std::int64_t tx = 0; tx < block.x; ++tx, r += 3) {
              t[r] = static_cast<std::int32_t>(tx), t[r + 1] = static_cast<std::int32_t>(ty),
              t[r + 2] = static_cast<std::int32_t>(tz);
              b[r] = static_cast<std::int32_t>(bx), b[r + 1] = static_cast<std::int32_t>(by),
              b[r + 2] = static_cast<std::int32_t>(bz);
              bd[r] = static_cast<std::int32_t>(block.x), bd[r + 1] = static_cast<std::int32_t>(block.y),
              bd[r + 2] = static_cast<std::int32_t>(block.z);
              gd[r] = static_cast<std::int32_t>(grid.x), gd[r + 1] = static_cast<std::int32_t>(grid.y),
              gd[r + 2] = static_cast<std::int32_t>(grid.z);
            }
}

}  // namespace npgpu::host
