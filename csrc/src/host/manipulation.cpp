// Host implementation of the manipulation functions: copy_batch as one memcpy per pair, the pairs (or, for
// few large pairs, slices of them) spread over the OpenMP threads.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "common/manipulation_backends.hpp"
#include "host/openmp.hpp"

namespace npgpu::host {

void copy_batch(const ArrayView* src, const ArrayView* dst, int n, StreamHandle) {
  constexpr std::int64_t kSlice = 1 << 20;  // bytes a thread copies at a time
  for (int k = 0; k < n; ++k) {
    const std::int64_t bytes = dst[k].nbytes();
    const std::int64_t slices = (bytes + kSlice - 1) / kSlice;
    auto* d = static_cast<char*>(dst[k].data);
    const auto* s = static_cast<const char*>(src[k].data);
    parallel_for(slices, slices > 1, [&](std::int64_t i) {
      const std::int64_t lo = i * kSlice;
      std::memcpy(d + lo, s + lo, static_cast<std::size_t>(std::min(kSlice, bytes - lo)));
    });
  }
}

}  // namespace npgpu::host
