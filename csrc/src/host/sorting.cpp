// Host implementation of sorting: std::stable_sort of each row's positions with NumPy's order
// (common/sort_order.hpp), the rows spread over the OpenMP threads; binary searches, one per query.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "common/dispatch.hpp"
#include "common/sort_order.hpp"
#include "common/sorting_backends.hpp"

namespace npgpu::host {

void sort_rows(const ArrayView& keys, const ArrayView* values, const ArrayView* indices, std::int64_t rows,
               std::int64_t n, bool descending, StreamHandle) {
  detail::dispatch_storage_dtype(keys.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = static_cast<const T*>(keys.data);
    T* out_v = values ? static_cast<T*>(values->data) : nullptr;
    auto* out_i = indices ? static_cast<std::int64_t*>(indices->data) : nullptr;
#pragma omp parallel for schedule(dynamic) if (rows > 1 && rows * n > (1 << 15))
    for (std::int64_t r = 0; r < rows; ++r) {
      const T* row = in + r * n;
      std::vector<std::int64_t> order(static_cast<std::size_t>(n));
      std::iota(order.begin(), order.end(), std::int64_t{0});
      if (descending)
        std::stable_sort(order.begin(), order.end(),
                         [&](std::int64_t a, std::int64_t b) { return detail::sort_greater(row[a], row[b]); });
      else
        std::stable_sort(order.begin(), order.end(),
                         [&](std::int64_t a, std::int64_t b) { return detail::sort_less(row[a], row[b]); });
      // values first: keys and values may be the same memory (an in-place sort), so read all keys before writing
      if (out_v) {
        std::vector<T> sorted(static_cast<std::size_t>(n));
        for (std::int64_t j = 0; j < n; ++j) sorted[j] = row[order[j]];
        std::copy(sorted.begin(), sorted.end(), out_v + r * n);
      }
      if (out_i) std::copy(order.begin(), order.end(), out_i + r * n);
    }
  });
}

void search_sorted(const ArrayView& sorted, const ArrayView& queries, const ArrayView& out, bool right,
                   StreamHandle) {
  detail::dispatch_storage_dtype(queries.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* a = static_cast<const T*>(sorted.data);
    const T* q = static_cast<const T*>(queries.data);
    auto* o = static_cast<std::int64_t*>(out.data);
    const std::int64_t n = sorted.size(), m = queries.size();
#pragma omp parallel for schedule(static) if (m > (1 << 12))
    for (std::int64_t i = 0; i < m; ++i) o[i] = detail::insertion_position(a, n, q[i], right);
  });
}

std::int64_t run_starts(const ArrayView& sorted, const ArrayView& out, bool equal_nan, StreamHandle) {
  std::int64_t count = 0;
  detail::dispatch_storage_dtype(sorted.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* a = static_cast<const T*>(sorted.data);
    auto* o = static_cast<std::int64_t*>(out.data);
    const std::int64_t n = sorted.size();
    o[count++] = 0;
    for (std::int64_t i = 1; i < n; ++i)
      if (!detail::same_value(a[i], a[i - 1], equal_nan)) o[count++] = i;
  });
  return count;
}

}  // namespace npgpu::host
