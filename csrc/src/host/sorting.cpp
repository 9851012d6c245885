// Host implementation of sorting: a stable LSD radix sort of order-preserving unsigned keys (NumPy's order,
// common/sort_order.hpp) for real dtypes, std::stable_sort of positions for complex ones and short rows;
// rows spread over the OpenMP threads. Binary searches, one per query. Counting for narrow integer keys
// (key_range, count_keys, lookup_keys): one pass each, the counts in one thread (the bins are shared).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <numeric>
#include <type_traits>
#include <vector>

#include "common/dispatch.hpp"
#include "common/key_offsets.hpp"
#include "common/sort_order.hpp"
#include "common/sorting_backends.hpp"
#include "host/openmp.hpp"

namespace npgpu::host {
namespace {

// Rows shorter than this sort by comparisons: the radix sort's 256-bucket histograms cost more there.
constexpr std::int64_t kRadixMinRow = 512;

// An unsigned key whose ascending order is NumPy's sort order (NaNs last and equal to each other, -0.0 equal
// to +0.0); for a descending sort the key of -x (floats) or ~x (integers), the order sort_greater defines.
template <class T>
auto order_key(T v, bool descending) {
  auto x = detail::sort_value(v);  // float for float16/bfloat16, int for bool
  using X = decltype(x);
  if constexpr (std::is_floating_point_v<X>) {
    using U = std::conditional_t<sizeof(X) == 4, std::uint32_t, std::uint64_t>;
    if (descending) x = -x;
    if (x != x) return std::numeric_limits<U>::max();
    if (x == 0) x = 0;
    U u;
    std::memcpy(&u, &x, sizeof u);
    constexpr U sign = U{1} << (sizeof(U) * 8 - 1);
    return (u & sign) ? static_cast<U>(~u) : static_cast<U>(u | sign);
  } else {
    using U = std::make_unsigned_t<X>;
    U u = static_cast<U>(x);
    if constexpr (std::is_signed_v<X>) u ^= U{1} << (sizeof(U) * 8 - 1);
    return descending ? static_cast<U>(~u) : u;
  }
}

// Uninitialised scratch (every element is written before it is read).
template <class V>
std::unique_ptr<V[]> scratch(std::int64_t n) {
  return std::unique_ptr<V[]>(new V[static_cast<std::size_t>(n)]);
}

// Stable LSD radix sort of (key, payload) pairs by key, a byte a pass (256 scatter targets stay in cache);
// passes whose byte is the same for every key are skipped. The result ends in k/p (buffers swapped).
template <class K, class P>
void radix_sort_pairs(std::unique_ptr<K[]>& k, std::unique_ptr<P[]>& p, std::unique_ptr<K[]>& k2,
                      std::unique_ptr<P[]>& p2, std::int64_t n) {
  constexpr int kBits = 8;
  constexpr int kPasses = sizeof(K);
  constexpr K kMask = (K{1} << kBits) - 1;
  constexpr int kBuckets = 1 << kBits;
  std::vector<std::int64_t> hist(static_cast<std::size_t>(kPasses) * kBuckets, 0);
  for (std::int64_t i = 0; i < n; ++i) {
    const K v = k[i];
    for (int d = 0; d < kPasses; ++d) ++hist[d * kBuckets + ((v >> (kBits * d)) & kMask)];
  }
  for (int d = 0; d < kPasses; ++d) {
    std::int64_t* h = hist.data() + d * kBuckets;
    if (std::any_of(h, h + kBuckets, [n](std::int64_t c) { return c == n; })) continue;
    std::int64_t sum = 0;
    for (int b = 0; b < kBuckets; ++b) {
      const std::int64_t c = h[b];
      h[b] = sum;
      sum += c;
    }
    const K* ks = k.get();
    const P* ps = p.get();
    K* kd = k2.get();
    P* pd = p2.get();
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t pos = h[(ks[i] >> (kBits * d)) & kMask]++;
      kd[pos] = ks[i];
      pd[pos] = ps[i];
    }
    std::swap(k, k2);
    std::swap(p, p2);
  }
}

// One row by radix sort: payload the original position (for indices) or the value itself.
template <class T, class Idx>
void radix_sort_row(const T* row, std::int64_t n, bool descending, T* out_v, std::int64_t* out_i) {
  using K = decltype(order_key(T{}, false));
  auto k = scratch<K>(n), k2 = scratch<K>(n);
  for (std::int64_t j = 0; j < n; ++j) k[j] = order_key(row[j], descending);
  if (!out_i) {  // values only: carry them (the row is read in full before out_v, perhaps the row, is written)
    auto p = scratch<T>(n), p2 = scratch<T>(n);
    std::copy(row, row + n, p.get());
    radix_sort_pairs(k, p, k2, p2, n);
    std::copy(p.get(), p.get() + n, out_v);
    return;
  }
  auto p = scratch<Idx>(n), p2 = scratch<Idx>(n);
  for (std::int64_t j = 0; j < n; ++j) p[j] = static_cast<Idx>(j);
  radix_sort_pairs(k, p, k2, p2, n);
  if (out_v) {
    auto sorted = scratch<T>(n);
    for (std::int64_t j = 0; j < n; ++j) sorted[j] = row[p[j]];
    std::copy(sorted.get(), sorted.get() + n, out_v);
  }
  for (std::int64_t j = 0; j < n; ++j) out_i[j] = static_cast<std::int64_t>(p[j]);
}

template <class T>
void comparison_sort_row(const T* row, std::int64_t n, bool descending, T* out_v, std::int64_t* out_i) {
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
    std::copy(sorted.begin(), sorted.end(), out_v);
  }
  if (out_i) std::copy(order.begin(), order.end(), out_i);
}

}  // namespace

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
      T* v = out_v ? out_v + r * n : nullptr;
      std::int64_t* i = out_i ? out_i + r * n : nullptr;
      if constexpr (detail::is_complex<T>::value) {
        comparison_sort_row(row, n, descending, v, i);
      } else {
        if (n < kRadixMinRow)
          comparison_sort_row(row, n, descending, v, i);
        else if (n <= std::numeric_limits<std::uint32_t>::max())
          radix_sort_row<T, std::uint32_t>(row, n, descending, v, i);
        else
          radix_sort_row<T, std::int64_t>(row, n, descending, v, i);
      }
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
    parallel_for(m, m > (1 << 12), [&](std::int64_t i) { o[i] = detail::insertion_position(a, n, q[i], right); });
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

void key_range(const ArrayView& keys, const ArrayView& range, StreamHandle) {
  detail::dispatch_integer_keys(keys.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* k = static_cast<const T*>(keys.data);
    const auto [lo, hi] = std::minmax_element(k, k + keys.size());
    static_cast<T*>(range.data)[0] = *lo;
    static_cast<T*>(range.data)[1] = *hi;
  });
}

void count_keys(const ArrayView& keys, const ArrayView& range, const ArrayView& counts, const ArrayView* first,
                StreamHandle) {
  auto* c = static_cast<std::int64_t*>(counts.data);
  std::int64_t* f = first ? static_cast<std::int64_t*>(first->data) : nullptr;
  const std::int64_t n = keys.size(), bins = counts.size();
  std::fill(c, c + bins, 0);
  if (f) std::fill(f, f + bins, -1);
  detail::dispatch_integer_keys(keys.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* k = static_cast<const T*>(keys.data);
    const T lo = static_cast<const T*>(range.data)[0];
    const auto b = static_cast<std::uint64_t>(bins);
    for (std::int64_t i = 0; i < n; ++i) {
      const std::uint64_t off = detail::key_offset(k[i], lo);
      if (off >= b) continue;
      if (f && c[off] == 0) f[off] = i;
      ++c[off];
    }
  });
}

void lookup_keys(const ArrayView& keys, const ArrayView& range, const ArrayView& table, const ArrayView& out,
                 StreamHandle) {
  detail::dispatch_integer_keys(keys.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* k = static_cast<const T*>(keys.data);
    const T lo = static_cast<const T*>(range.data)[0];
    const auto* t = static_cast<const std::int64_t*>(table.data);
    auto* o = static_cast<std::int64_t*>(out.data);
    const std::int64_t n = keys.size();
    const auto b = static_cast<std::uint64_t>(table.size());
    parallel_for(n, n > (1 << 16), [&](std::int64_t i) {
      const std::uint64_t off = detail::key_offset(k[i], lo);
      o[i] = off < b ? t[off] : -1;
    });
  });
}

}  // namespace npgpu::host
