// Argument checks and dispatch of the manipulation functions (copy_batch).
#include "npgpu/manipulation.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "common/manipulation_backends.hpp"
#include "npgpu/errors.hpp"

namespace npgpu {

namespace {

// Byte ranges of the sources, sorted by start, with the running maximum of their ends: whether a range
// overlaps any of them is then one binary search (the check stays O(n log n) for joins of many arrays).
class SourceRanges {
 public:
  SourceRanges(const ArrayView* src, int n) {
    for (int k = 0; k < n; ++k) {
      if (src[k].size() == 0) continue;
      const auto lo = reinterpret_cast<std::uintptr_t>(src[k].data);
      ranges_.push_back({lo, lo + static_cast<std::uintptr_t>(src[k].nbytes())});
    }
    std::sort(ranges_.begin(), ranges_.end());
    std::uintptr_t end = 0;
    for (auto& r : ranges_) r.second = end = std::max(end, r.second);
  }
  bool overlap(const ArrayView& v) const {
    if (v.size() == 0) return false;
    const auto lo = reinterpret_cast<std::uintptr_t>(v.data);
    const auto hi = lo + static_cast<std::uintptr_t>(v.nbytes());
    // sources starting before hi; the furthest end among them
    auto it = std::lower_bound(ranges_.begin(), ranges_.end(), std::make_pair(hi, std::uintptr_t{0}));
    return it != ranges_.begin() && std::prev(it)->second > lo;
  }

 private:
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> ranges_;
};

}  // namespace

void copy_batch(const ArrayView* src, const ArrayView* dst, int n, StreamHandle stream) {
  if (n < 0) throw InvalidArgument("copy_batch: negative count " + std::to_string(n));
  if (n == 0) return;
  const int device = dst[0].device;
  const SourceRanges sources(src, n);
  for (int k = 0; k < n; ++k) {
    const ArrayView &s = src[k], &d = dst[k];
    const std::string which = "copy_batch: pair " + std::to_string(k) + " (" + s.describe() + " -> " +
                              d.describe() + ")";
    if (s.dtype != d.dtype || s.size() != d.size())
      throw InvalidArgument(which + ": source and destination differ in dtype or size");
    if (!s.is_c_contiguous() || !d.is_c_contiguous()) throw InvalidArgument(which + ": not C-contiguous");
    if (s.device != device || d.device != device)
      throw InvalidArgument(which + ": every view must be on the device of the first destination");
    if (d.readonly) throw InvalidArgument(which + ": the destination is read-only");
    if (sources.overlap(d)) throw InvalidArgument(which + ": the destination overlaps a source");
  }
  if (device == kHostDevice) {
    host::copy_batch(src, dst, n, stream);
  } else {
    activate_device(device);
    cuda::copy_batch(src, dst, n, stream);
  }
}

}  // namespace npgpu
