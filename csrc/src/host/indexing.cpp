// Host implementation of the indexing family: loops over the output (gathers) or the values (scatters), the
// outer rows spread over the OpenMP threads; nonzero positions in one sequential pass.
#include <cstdint>

#include "common/dispatch.hpp"
#include "common/gather_ops.hpp"
#include "common/indexing_backends.hpp"
#include "host/openmp.hpp"

namespace npgpu::host {

namespace {

// The first index outside [-n, n), or kNoBadIndex.
std::int64_t first_bad(const std::int64_t* idx, std::int64_t m, std::int64_t n) {
  for (std::int64_t j = 0; j < m; ++j)
    if (detail::wrap_index(idx[j], n) < 0) return idx[j];
  return detail::kNoBadIndex;
}

}  // namespace

std::int64_t nonzero_positions(const ArrayView& flags, const ArrayView& out, StreamHandle) {
  auto* pos = static_cast<std::int64_t*>(out.data);
  std::int64_t count = 0;
  const std::int64_t n = flags.size();
  detail::dispatch_storage_dtype(flags.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* f = static_cast<const T*>(flags.data);
    for (std::int64_t i = 0; i < n; ++i)
      if (detail::is_nonzero(f[i])) pos[count++] = i;
  });
  return count;
}

std::int64_t take(const ArrayView& src, std::int64_t outer, std::int64_t axis_len, std::int64_t inner,
                  const ArrayView& index, const ArrayView& out, StreamHandle) {
  const auto* idx = static_cast<const std::int64_t*>(index.data);
  const std::int64_t m = index.size();
  const std::int64_t bad = first_bad(idx, m, axis_len);
  if (bad != detail::kNoBadIndex) return bad;
  detail::dispatch_item_size(itemsize(src.dtype), [&](auto word) {
    using W = decltype(word);
    const W* s = static_cast<const W*>(src.data);
    W* o = static_cast<W*>(out.data);
    parallel_for(outer, outer * m * inner > (1 << 16), [&](std::int64_t r) {
      for (std::int64_t j = 0; j < m; ++j) {
        const W* from = s + (r * axis_len + detail::wrap_index(idx[j], axis_len)) * inner;
        W* to = o + (r * m + j) * inner;
        for (std::int64_t i = 0; i < inner; ++i) to[i] = from[i];
      }
    });
  });
  return detail::kNoBadIndex;
}

std::int64_t put(const ArrayView& dst, std::int64_t outer, std::int64_t axis_len, std::int64_t inner,
                 const ArrayView& index, const ArrayView& values, StreamHandle) {
  const auto* idx = static_cast<const std::int64_t*>(index.data);
  const std::int64_t m = index.size();
  const std::int64_t bad = first_bad(idx, m, axis_len);
  if (bad != detail::kNoBadIndex) return bad;  // nothing written, as NumPy
  detail::dispatch_item_size(itemsize(dst.dtype), [&](auto word) {
    using W = decltype(word);
    W* d = static_cast<W*>(dst.data);
    const W* v = static_cast<const W*>(values.data);
    // rows in parallel; within a row in order, so the last of repeated indices lands, as NumPy's
    parallel_for(outer, outer > 1 && outer * m * inner > (1 << 16), [&](std::int64_t r) {
      for (std::int64_t j = 0; j < m; ++j) {
        W* to = d + (r * axis_len + detail::wrap_index(idx[j], axis_len)) * inner;
        const W* from = v + (r * m + j) * inner;
        for (std::int64_t i = 0; i < inner; ++i) to[i] = from[i];
      }
    });
  });
  return detail::kNoBadIndex;
}

std::int64_t scatter_add(const ArrayView& dst, std::int64_t outer, std::int64_t axis_len, std::int64_t inner,
                         const ArrayView& index, const ArrayView& values, StreamHandle) {
  const auto* idx = static_cast<const std::int64_t*>(index.data);
  const std::int64_t m = index.size();
  const std::int64_t bad = first_bad(idx, m, axis_len);
  if (bad != detail::kNoBadIndex) return bad;  // nothing written
  const bool broadcast = values.size() == 1;
  detail::dispatch_storage_dtype(dst.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* d = static_cast<T*>(dst.data);
    const T* v = static_cast<const T*>(values.data);
    // rows in parallel (they touch disjoint rows of dst); repeated indices within a row in order, as NumPy
    parallel_for(outer, outer > 1 && outer * m * inner > (1 << 16), [&](std::int64_t r) {
      for (std::int64_t j = 0; j < m; ++j) {
        T* to = d + (r * axis_len + detail::wrap_index(idx[j], axis_len)) * inner;
        const T* from = broadcast ? v : v + (r * m + j) * inner;
        for (std::int64_t i = 0; i < inner; ++i) to[i] = detail::scatter_sum(to[i], from[broadcast ? 0 : i]);
      }
    });
  });
  return detail::kNoBadIndex;
}

}  // namespace npgpu::host
