#pragma once
// Internal: the CUDA and host implementations of the indexing family (csrc/src/indexing.cpp checks the
// arguments and dispatches). take/put/scatter_add return the first out-of-range index found, or `kNoBadIndex`.
#include <cstdint>
#include <limits>

#include "npgpu/runtime.hpp"
#include "npgpu/view.hpp"

namespace npgpu {
namespace detail {
inline constexpr std::int64_t kNoBadIndex = std::numeric_limits<std::int64_t>::min();
}
namespace cuda {
std::int64_t nonzero_positions(const ArrayView& flags, const ArrayView& out, StreamHandle stream);
std::int64_t take(const ArrayView& src, std::int64_t outer, std::int64_t axis_len, std::int64_t inner,
                  const ArrayView& index, const ArrayView& out, StreamHandle stream);
std::int64_t put(const ArrayView& dst, std::int64_t outer, std::int64_t axis_len, std::int64_t inner,
                 const ArrayView& index, const ArrayView& values, StreamHandle stream);
std::int64_t scatter_add(const ArrayView& dst, std::int64_t outer, std::int64_t axis_len, std::int64_t inner,
                         const ArrayView& index, const ArrayView& values, StreamHandle stream);
}  // namespace cuda
namespace host {
std::int64_t nonzero_positions(const ArrayView& flags, const ArrayView& out, StreamHandle stream);
std::int64_t take(const ArrayView& src, std::int64_t outer, std::int64_t axis_len, std::int64_t inner,
                  const ArrayView& index, const ArrayView& out, StreamHandle stream);
std::int64_t put(const ArrayView& dst, std::int64_t outer, std::int64_t axis_len, std::int64_t inner,
                 const ArrayView& index, const ArrayView& values, StreamHandle stream);
std::int64_t scatter_add(const ArrayView& dst, std::int64_t outer, std::int64_t axis_len, std::int64_t inner,
                         const ArrayView& index, const ArrayView& values, StreamHandle stream);
}  // namespace host
}  // namespace npgpu
