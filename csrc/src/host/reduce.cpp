// Host backend of the reductions and scans: the same loaders, reducers and finishing steps as the CUDA
// kernels (common/reduce_ops.hpp) over OpenMP loops. Reductions combine pairwise (blocks of 128 elements
// summed in order, blocks combined as a balanced tree), in float64 for float inputs: at least as accurate
// as NumPy's pairwise sums. Many outputs: one output per iteration of a parallel loop; few outputs: each
// output's range split over the threads.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "common/dispatch.hpp"
#include "common/reduce_backends.hpp"
#include "common/strided.hpp"
#include "host/cpu_clones.hpp"
#include "host/openmp.hpp"

#ifdef NPGPU_HAVE_AVX512F_TARGET
#include <immintrin.h>
#endif

namespace npgpu::host {
namespace {

using detail::StridedPlan;

template <class R>
inline constexpr bool is_plain_minmax =
    std::is_same_v<R, detail::MaxR<double>> || std::is_same_v<R, detail::MinR<double>> ||
    std::is_same_v<R, detail::MaxR<std::int64_t>> || std::is_same_v<R, detail::MinR<std::int64_t>> ||
    std::is_same_v<R, detail::MaxR<std::uint64_t>> || std::is_same_v<R, detail::MinR<std::uint64_t>>;

// fn(T{}) with the C++ type T of the real dtype d, when Accepts<T> holds; false otherwise (and for the other
// dtypes). The typed fast paths below share it.
template <template <class> class Accepts, class Fn>
bool with_real_type(DType d, Fn&& fn) {
  auto go = [&](auto tag) {
    if constexpr (Accepts<decltype(tag)>::value) return static_cast<bool>(fn(tag));
    else return false;
  };
  switch (d) {
    case DType::Float64: return go(double{});
    case DType::Float32: return go(float{});
    case DType::Int64: return go(std::int64_t{});
    case DType::Int32: return go(std::int32_t{});
    case DType::Int16: return go(std::int16_t{});
    case DType::Int8: return go(std::int8_t{});
    case DType::UInt64: return go(std::uint64_t{});
    case DType::UInt32: return go(std::uint32_t{});
    case DType::UInt16: return go(std::uint16_t{});
    case DType::UInt8: return go(std::uint8_t{});
    default: return false;
  }
}

// Element types whose values accumulator type A holds exactly with the same ordering (extrema, arg-extrema:
// floats in double, signed integers in int64, unsigned in uint64).
template <class A>
struct HeldBy {
  template <class T>
  struct in {
    static constexpr bool value = std::is_floating_point_v<A> ? std::is_floating_point_v<T>
                                                              : std::is_integral_v<T> &&
                                                                    std::is_signed_v<T> == std::is_signed_v<A>;
  };
};

// Element types a sum accumulates in A (floats in double; every integer in wrapping uint64).
template <class A>
struct SummedIn {
  template <class T>
  struct in {
    static constexpr bool value = std::is_floating_point_v<A> == std::is_floating_point_v<T>;
  };
};

template <class T>
struct AnyReal : std::true_type {};

// Software prefetch of the cache lines of [p, p + bytes): the streaming loops below ask for the data 2 KB (or
// a few rows) ahead, since the hardware prefetcher alone left them at about half of NumPy's speed.
NPGPU_ALWAYS_INLINE void prefetch_lines(const void* p, std::int64_t bytes) {
  const char* q = static_cast<const char*>(p);
  for (std::int64_t k = 0; k < bytes; k += 64) __builtin_prefetch(q + k);
}
template <class T>
NPGPU_ALWAYS_INLINE void prefetch_ahead(const T* p, std::int64_t n) {
  prefetch_lines(reinterpret_cast<const char*>(p) + 2048, n * static_cast<std::int64_t>(sizeof(T)));
}

// max (or min) of n > 0 elements of type T at p, NaN if any is NaN (as MaxR/MinR). Four VB-byte vectors of
// running extrema (GCC/Clang vector extensions: a select the compiler emits as a vector max / blend; a
// single running extremum is a chain of dependent scalar comparisons, and the element-wise NaN test keeps
// the auto-vectoriser off floats); NaNs are ORed into a mask of their own. The 32-byte form reads 8 KB ahead:
// at 2 KB it stalled on memory at half of NumPy's single-thread speed.
template <bool IsMax, class T, int VB = 16>
NPGPU_ALWAYS_INLINE T minmax_typed(const T* p, std::int64_t n, bool* saw_nan) {
  typedef T V __attribute__((vector_size(VB)));
  using Mask = decltype(V{} != V{});
  constexpr int W = VB / static_cast<int>(sizeof(T)), U = 4;
  V acc[U];
  Mask bad{};
  for (int u = 0; u < U; ++u)
    for (int j = 0; j < W; ++j) acc[u][j] = p[0];
  std::int64_t i = 0;
  for (; i + U * W <= n; i += U * W) {
    constexpr int ahead = VB == 16 ? 2048 : 8192;
    for (int k = 0; k < U * VB; k += 64) __builtin_prefetch(p + i + (ahead + k) / static_cast<int>(sizeof(T)));
    for (int u = 0; u < U; ++u) {
      V v;
      std::memcpy(&v, p + i + u * W, sizeof(V));
      bad |= v != v;
      acc[u] = IsMax ? (v >= acc[u] ? v : acc[u]) : (v <= acc[u] ? v : acc[u]);  // the later of equal ones
    }
  }
  T m = p[0];
  bool nan = false;
  for (int j = 0; j < W; ++j) nan |= bad[j] != 0;
  for (int u = 0; u < U; ++u)
    for (int j = 0; j < W; ++j) m = IsMax ? (acc[u][j] >= m ? acc[u][j] : m) : (acc[u][j] <= m ? acc[u][j] : m);
  for (; i < n; ++i) {
    const T v = p[i];
    nan |= v != v;
    m = IsMax ? (v >= m ? v : m) : (v <= m ? v : m);
  }
  *saw_nan = nan;
  return m;
}

// Extrema of float32, float64 and the 64-bit integers in 32-byte vectors, also compiled for AVX2 (SSE2 has no 64-bit
// compare, and 16-byte vectors left max of float32 at 1.4x NumPy's AVX loop single-threaded).
NPGPU_AVX2_CLONE float max_float(const float* p, std::int64_t n, bool* nan) {
  return minmax_typed<true, float, 32>(p, n, nan);
}
NPGPU_AVX2_CLONE float min_float(const float* p, std::int64_t n, bool* nan) {
  return minmax_typed<false, float, 32>(p, n, nan);
}
#ifdef NPGPU_HAVE_AVX512F_TARGET
// Extrema of 64-bit types with AVX-512 intrinsics where the CPU has them: in 32-byte vectors these stayed
// 1.2x behind NumPy's AVX-512 loops single-threaded, and GCC's 64-byte vector-extension selects become
// per-lane moves. Same results as minmax_typed: the later of equal values per lane, lanes folded in order,
// NaNs ORed into a mask of their own.
// GCC 12's AVX-512 headers fill unused lanes from a self-initialised variable, which -Wmaybe-uninitialized
// reports in every caller.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
template <bool IsMax, class T>
NPGPU_AVX512F_TARGET T minmax64_avx512(const T* p, std::int64_t n, bool* saw_nan) {
  static_assert(sizeof(T) == 8);
  constexpr bool is_double = std::is_same_v<T, double>;
  constexpr int U = 4, W = 8;
  __m512d accd[U];
  __m512i acci[U];
  for (int u = 0; u < U; ++u) {
    accd[u] = _mm512_set1_pd(static_cast<double>(p[0]));
    acci[u] = _mm512_set1_epi64(static_cast<long long>(p[0]));
  }
  __mmask8 bad = 0;
  std::int64_t i = 0;
  for (; i + U * W <= n; i += U * W) {
    const char* ahead = reinterpret_cast<const char*>(p + i) + 8192;
    for (int k = 0; k < U * W * 8; k += 64) __builtin_prefetch(ahead + k);
    for (int u = 0; u < U; ++u) {
      if constexpr (is_double) {
        const __m512d v = _mm512_loadu_pd(p + i + u * W);
        bad |= _mm512_cmp_pd_mask(v, v, _CMP_UNORD_Q);
        accd[u] = IsMax ? _mm512_max_pd(accd[u], v) : _mm512_min_pd(accd[u], v);  // equal: the second, v
      } else if constexpr (std::is_signed_v<T>) {
        const __m512i v = _mm512_loadu_si512(p + i + u * W);
        acci[u] = IsMax ? _mm512_max_epi64(acci[u], v) : _mm512_min_epi64(acci[u], v);
      } else {
        const __m512i v = _mm512_loadu_si512(p + i + u * W);
        acci[u] = IsMax ? _mm512_max_epu64(acci[u], v) : _mm512_min_epu64(acci[u], v);
      }
    }
  }
  T m = p[0];
  bool nan = bad != 0;
  if (i > 0) {
    alignas(64) T lanes[U * W];
    for (int u = 0; u < U; ++u) {
      if constexpr (is_double) _mm512_store_pd(lanes + u * W, accd[u]);
      else _mm512_store_si512(lanes + u * W, acci[u]);
    }
    for (int l = 0; l < U * W; ++l) m = IsMax ? (lanes[l] >= m ? lanes[l] : m) : (lanes[l] <= m ? lanes[l] : m);
  }
  for (; i < n; ++i) {
    const T v = p[i];
    nan |= v != v;
    m = IsMax ? (v >= m ? v : m) : (v <= m ? v : m);
  }
  *saw_nan = nan;
  return m;
}
#pragma GCC diagnostic pop
#endif

NPGPU_AVX2_CLONE double max_double(const double* p, std::int64_t n, bool* nan) {
  return minmax_typed<true, double, 32>(p, n, nan);
}
NPGPU_AVX2_CLONE double min_double(const double* p, std::int64_t n, bool* nan) {
  return minmax_typed<false, double, 32>(p, n, nan);
}
NPGPU_AVX2_CLONE std::int64_t max_int64(const std::int64_t* p, std::int64_t n, bool* nan) {
  return minmax_typed<true, std::int64_t, 32>(p, n, nan);
}
NPGPU_AVX2_CLONE std::int64_t min_int64(const std::int64_t* p, std::int64_t n, bool* nan) {
  return minmax_typed<false, std::int64_t, 32>(p, n, nan);
}
NPGPU_AVX2_CLONE std::uint64_t max_uint64(const std::uint64_t* p, std::int64_t n, bool* nan) {
  return minmax_typed<true, std::uint64_t, 32>(p, n, nan);
}
NPGPU_AVX2_CLONE std::uint64_t min_uint64(const std::uint64_t* p, std::int64_t n, bool* nan) {
  return minmax_typed<false, std::uint64_t, 32>(p, n, nan);
}

template <bool IsMax, class T>
T minmax_any(const T* p, std::int64_t n, bool* saw_nan) {
  if constexpr (std::is_same_v<T, float>)
    return IsMax ? max_float(p, n, saw_nan) : min_float(p, n, saw_nan);
#ifdef NPGPU_HAVE_AVX512F_TARGET
  else if constexpr (sizeof(T) == 8 && (std::is_same_v<T, double> || std::is_integral_v<T>)) {
    if (cpu_has_avx512f()) return minmax64_avx512<IsMax, T>(p, n, saw_nan);
  }
#endif
  if constexpr (std::is_same_v<T, double>)
    return IsMax ? max_double(p, n, saw_nan) : min_double(p, n, saw_nan);
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return IsMax ? max_int64(p, n, saw_nan) : min_int64(p, n, saw_nan);
  else if constexpr (std::is_same_v<T, std::uint64_t>)
    return IsMax ? max_uint64(p, n, saw_nan) : min_uint64(p, n, saw_nan);
  else
    return minmax_typed<IsMax>(p, n, saw_nan);
}

// argmax (argmin) of n > 0 contiguous elements: the extremum of each block of 2^15 by the vector loop above
// (blocks long enough that folding each block's vector lanes costs little beside reading it),
// then a scan of the first block that holds the overall extremum (or the first NaN) for its first position,
// as ArgR's order gives. One pass over the data, plus at most one block.
template <bool IsMax, class T>
std::int64_t arg_typed(const T* p, std::int64_t n, T* value) {
  constexpr std::int64_t kBlock = 1 << 15;
  T best = p[0];
  std::int64_t block = 0;
  bool nan = false;
  for (std::int64_t b = 0; b < n && !nan; b += kBlock) {
    const T m = minmax_any<IsMax>(p + b, std::min(kBlock, n - b), &nan);
    if (nan || b == 0 || (IsMax ? m > best : m < best)) {
      best = m;
      block = b;
    }
  }
  std::int64_t i = block;
  if (nan) {
    while (p[i] == p[i]) ++i;
  } else {
    while (!(p[i] == best)) ++i;
  }
  *value = p[i];
  return i;
}

// ArgR's result over n contiguous elements of dtype d at p (positions from `first`); false for dtypes it
// does not handle.
template <class R>
bool arg_contiguous(const char* p, DType d, std::int64_t n, std::int64_t first, typename R::Acc* out) {
  using A = decltype(R::identity().val);
  constexpr bool is_max = std::is_same_v<R, detail::ArgMaxR<A>>;
  auto run = [&](auto tag) {
    using T = decltype(tag);
    T v;
    const std::int64_t i = arg_typed<is_max>(reinterpret_cast<const T*>(p), n, &v);
    *out = typename R::Acc{first + i, static_cast<A>(v)};
    return true;
  };
  return with_real_type<HeldBy<A>::template in>(d, run);
}

template <class R>
inline constexpr bool is_plain_arg =
    std::is_same_v<R, detail::ArgMaxR<double>> || std::is_same_v<R, detail::ArgMinR<double>> ||
    std::is_same_v<R, detail::ArgMaxR<std::int64_t>> || std::is_same_v<R, detail::ArgMinR<std::int64_t>> ||
    std::is_same_v<R, detail::ArgMaxR<std::uint64_t>> || std::is_same_v<R, detail::ArgMinR<std::uint64_t>>;

// R's result over n contiguous elements of dtype d at p, when d converts to R's type without loss
// (floats to double, signed integers to int64, unsigned to uint64); false for other dtypes.
template <class R>
bool minmax_contiguous(const char* p, DType d, std::int64_t n, typename R::Acc* out) {
  using A = typename R::Acc;
  constexpr bool is_max = std::is_same_v<R, detail::MaxR<A>>;
  bool nan = false;
  auto run = [&](auto tag) {
    using T = decltype(tag);
    *out = static_cast<A>(minmax_any<is_max>(reinterpret_cast<const T*>(p), n, &nan));
    return true;
  };
  if (!with_real_type<HeldBy<A>::template in>(d, run)) return false;
  if constexpr (std::is_same_v<A, double>) {
    if (nan) *out = std::numeric_limits<double>::quiet_NaN();
  }
  return true;
}

// Pairwise sum of n contiguous elements of type T in A (float64 for floats, wrapping uint64 for integers):
// blocks of 128 summed with eight independent accumulators (a vectorised loop not bound by one add's
// latency), halves combined recursively, as NumPy's pairwise sum. The generic loop loads each element
// through a run-time dtype switch, about twenty times slower.
template <class A, class T>
A sum_typed(const T* p, std::int64_t n) {
  if (n <= 128) {
    prefetch_ahead(p, n);
    A r[8] = {};
    std::int64_t i = 0;
    for (; i + 8 <= n; i += 8)
      for (int j = 0; j < 8; ++j) r[j] += static_cast<A>(p[i + j]);
    A s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) s += static_cast<A>(p[i]);
    return s;
  }
  const std::int64_t mid = ((n / 2 + 127) / 128) * 128;
  return sum_typed<A>(p, mid) + sum_typed<A>(p + mid, n - mid);
}

// Sum of (x - mean)^2 over n contiguous elements, pairwise in blocks of 128 as sum_typed.
template <class T>
double squared_deviations(const T* p, std::int64_t n, double mean) {
  if (n <= 128) {
    prefetch_ahead(p, n);
    double r[8] = {};
    std::int64_t i = 0;
    for (; i + 8 <= n; i += 8)
      for (int j = 0; j < 8; ++j) {
        const double d = static_cast<double>(p[i + j]) - mean;
        r[j] += d * d;
      }
    double s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) {
      const double d = static_cast<double>(p[i]) - mean;
      s += d * d;
    }
    return s;
  }
  const std::int64_t mid = ((n / 2 + 127) / 128) * 128;
  return squared_deviations(p, mid, mean) + squared_deviations(p + mid, n - mid, mean);
}

// Welford's (count, mean, M2) of n contiguous real elements (integers read as float64) by two vectorised
// passes (the mean, then the squared deviations from it: NumPy's method, as accurate as the one-pass
// update); false for other dtypes.
bool moments_contiguous(const char* p, DType d, std::int64_t n, detail::WelfordAcc* out) {
  auto run = [&](auto tag) {
    using T = decltype(tag);
    const T* x = reinterpret_cast<const T*>(p);
    const double mean = sum_typed<double>(x, n) / static_cast<double>(n);
    *out = detail::WelfordAcc{static_cast<double>(n), mean, squared_deviations(x, n, mean)};
    return true;
  };
  return with_real_type<AnyReal>(d, run);
}

// AddR's result over n contiguous elements of dtype d at p; false for dtypes it does not handle.
template <class R>
bool sum_contiguous(const char* p, DType d, std::int64_t n, typename R::Acc* out) {
  using A = typename R::Acc;
  auto run = [&](auto tag) {
    *out = sum_typed<A>(reinterpret_cast<const decltype(tag)*>(p), n);
    return true;
  };
  return with_real_type<SummedIn<A>::template in>(d, run);  // signed integers sign-extend, then wrap
}

template <class R>
inline constexpr bool is_plain_sum =
    std::is_same_v<R, detail::AddR<double>> || std::is_same_v<R, detail::AddR<std::uint64_t>>;

template <class R>
struct RangeReducer {
  const char* base;
  DType dtype;
  detail::Pre pre;
  bool skip_nan;
  StridedPlan<1> plan;
  std::int64_t stride0;  // plan.ndim <= 1: the byte stride of the one dimension
  bool contiguous;       // plan.ndim <= 1 and stride0 is the itemsize, and no pre-transform

  std::int64_t offset(std::int64_t r) const {
    if (plan.ndim <= 1) return r * stride0;
    std::int64_t off;
    plan.offsets(r, &off);
    return off;
  }

  typename R::Acc element(std::int64_t m_off, std::int64_t r) const {
    using V = typename R::Val;
    const V v = detail::load_pre<V>(base + m_off + offset(r), dtype, pre);
    return detail::make_acc<R>(v, r, skip_nan);
  }

  // Pairwise: blocks of up to 128 elements in order, halves combined recursively; min and max of a
  // contiguous range of a real dtype in a typed loop the compiler vectorises.
  typename R::Acc run(std::int64_t m_off, std::int64_t lo, std::int64_t hi) const {
    if constexpr (is_plain_minmax<R>) {
      typename R::Acc m;
      if (contiguous && lo < hi && minmax_contiguous<R>(base + m_off + lo * stride0, dtype, hi - lo, &m))
        return m;
    }
    if constexpr (is_plain_sum<R>) {
      typename R::Acc s;
      if (contiguous && !skip_nan && lo < hi && sum_contiguous<R>(base + m_off + lo * stride0, dtype, hi - lo, &s))
        return s;
    }
    if constexpr (is_plain_arg<R>) {
      typename R::Acc r;
      if (contiguous && !skip_nan && lo < hi && arg_contiguous<R>(base + m_off + lo * stride0, dtype, hi - lo, lo, &r))
        return r;
    }
    if constexpr (std::is_same_v<R, detail::WelfordR>) {
      detail::WelfordAcc w;
      if (contiguous && !skip_nan && lo < hi && moments_contiguous(base + m_off + lo * stride0, dtype, hi - lo, &w))
        return w;
    }
    const R op{};
    if (hi - lo <= 128) {
      typename R::Acc acc = R::identity();
      for (std::int64_t r = lo; r < hi; ++r) acc = op(acc, element(m_off, r));
      return acc;
    }
    const std::int64_t mid = lo + (((hi - lo) / 2 + 127) / 128) * 128;
    return op(run(m_off, lo, std::min(mid, hi)), run(m_off, std::min(mid, hi), hi));
  }
};

// A buffer of n elements placed half a page (modulo 4 KiB) away from `near`. The column loops store to their
// accumulators while loading rows that step by multiples of 4 KiB: a load whose address matches an earlier
// store's in its low 12 bits waits for it (4K aliasing), which malloc's placement would otherwise decide by
// chance.
template <class T>
struct OffPageBuffer {
  std::vector<T> storage;
  T* data;
  OffPageBuffer(std::size_t n, const void* near) : storage(n + 4096 / sizeof(T)) {
    const auto want = reinterpret_cast<std::uintptr_t>(near) + 2048;
    const auto have = reinterpret_cast<std::uintptr_t>(storage.data());
    data = storage.data() + ((want - have) % 4096) / sizeof(T);
  }
};

// column_sums' loop: rows 0..K-1 (each `row` bytes apart from base) added into out[c0, c1) in the
// accumulator's type A, four rows a pass, summed first: a quarter of the accumulator loads and stores.
template <class T, class A>
NPGPU_ALWAYS_INLINE void add_rows(A* out, const char* base, std::int64_t row, std::int64_t K, std::int64_t c0,
                                  std::int64_t c1) {
  std::int64_t r = 0;
  for (; r + 4 <= K; r += 4) {
    const T* p0 = reinterpret_cast<const T*>(base + r * row);
    const T* p1 = reinterpret_cast<const T*>(base + (r + 1) * row);
    const T* p2 = reinterpret_cast<const T*>(base + (r + 2) * row);
    const T* p3 = reinterpret_cast<const T*>(base + (r + 3) * row);
#pragma omp simd
    for (std::int64_t c = c0; c < c1; ++c)
      out[c] += (static_cast<A>(p0[c]) + static_cast<A>(p1[c])) + (static_cast<A>(p2[c]) + static_cast<A>(p3[c]));
  }
  for (; r < K; ++r) {
    const T* p = reinterpret_cast<const T*>(base + r * row);
#pragma omp simd
    for (std::int64_t c = c0; c < c1; ++c) out[c] += static_cast<A>(p[c]);
  }
}

// The float32 rows into float64 accumulators, also compiled for AVX2 (SSE2 converts only two floats to
// double an instruction). Eight rows a pass are added pairwise in float32 and converted once: a partial
// carries at most three float32 roundings, against NumPy's float32 running sum over every row.
NPGPU_AVX2_CLONE
void add_float_rows(double* out, const char* base, std::int64_t row, std::int64_t K, std::int64_t c0, std::int64_t c1) {
  std::int64_t r = 0;
  for (; r + 8 <= K; r += 8) {
    const char* b = base + r * row;
    const float* p0 = reinterpret_cast<const float*>(b);
    const float* p1 = reinterpret_cast<const float*>(b + row);
    const float* p2 = reinterpret_cast<const float*>(b + 2 * row);
    const float* p3 = reinterpret_cast<const float*>(b + 3 * row);
    const float* p4 = reinterpret_cast<const float*>(b + 4 * row);
    const float* p5 = reinterpret_cast<const float*>(b + 5 * row);
    const float* p6 = reinterpret_cast<const float*>(b + 6 * row);
    const float* p7 = reinterpret_cast<const float*>(b + 7 * row);
#pragma omp simd
    for (std::int64_t c = c0; c < c1; ++c)
      out[c] += static_cast<double>(((p0[c] + p1[c]) + (p2[c] + p3[c])) + ((p4[c] + p5[c]) + (p6[c] + p7[c])));
  }
  add_rows<float, double>(out, base + r * row, row, K - r, c0, c1);
}

// Sums over a strided axis into adjacent outputs (x.sum(axis=0) of a C-ordered matrix): rows added into a
// float64 (or wrapping uint64) accumulator per output in a vectorised loop, each thread a range of
// columns, as NumPy adds the rows of an axis-0 sum. False where the layout or dtype does not fit.
template <class R>
bool column_sums(const detail::ReduceArgs& a, const StridedPlan<2>& kplan, const RangeReducer<R>& rr) {
  using A = typename R::Acc;
  if (!is_plain_sum<R> || rr.skip_nan || a.pre != detail::Pre::None || kplan.ndim != 1 || rr.plan.ndim != 1)
    return false;
  const DType d = a.in_r.dtype;
  if (kplan.strides[1][0] != itemsize(d)) return false;
  const std::int64_t M = a.outputs, K = a.count, row = rr.stride0;
  OffPageBuffer<A> acc(static_cast<std::size_t>(M), a.in_r.data);
  std::fill(acc.data, acc.data + M, A{});
  auto run = [&](auto tag) {
    using T = decltype(tag);
    const char* base = static_cast<const char*>(a.in_r.data);
    parallel_region(M * K > (1 << 16), [&](std::int64_t nt, std::int64_t t) {
      const std::int64_t per = (M + nt - 1) / nt, c0 = std::min(M, t * per), c1 = std::min(M, c0 + per);
      A* out = acc.data;
      if constexpr (std::is_same_v<T, float> && std::is_same_v<A, double>) {
        add_float_rows(out, base, row, K, c0, c1);
      } else {
        add_rows<T, A>(out, base, row, K, c0, c1);
      }
    });
    return true;
  };
  if (!with_real_type<SummedIn<A>::template in>(d, run)) return false;
  char* out = static_cast<char*>(a.out_k.data);
  for (std::int64_t m = 0; m < M; ++m)
    detail::finish_store(out + m * kplan.strides[0][0], a.out_k.dtype, acc.data[m], a.fin, 0);
  return true;
}

// Rows 1..K-1 (each `row` bytes apart from base) folded into running column extrema m[c0, c1): a select per
// element, taking a NaN and then keeping it (no comparison with it is true).
template <bool IsMax, class T>
NPGPU_ALWAYS_INLINE void fold_rows_extrema(T* m, const char* base, std::int64_t row, std::int64_t K, std::int64_t c0,
                                           std::int64_t c1) {
  auto take = [](T v, T t) { return (IsMax ? v >= t : v <= t) || v != v ? v : t; };
  std::int64_t r = 1;
  for (; r + 4 <= K; r += 4) {  // four rows a pass: a quarter of the accumulator loads and stores
    const T* p0 = reinterpret_cast<const T*>(base + r * row);
    const T* p1 = reinterpret_cast<const T*>(base + (r + 1) * row);
    const T* p2 = reinterpret_cast<const T*>(base + (r + 2) * row);
    const T* p3 = reinterpret_cast<const T*>(base + (r + 3) * row);
#pragma omp simd
    for (std::int64_t c = c0; c < c1; ++c) m[c] = take(p3[c], take(p2[c], take(p1[c], take(p0[c], m[c]))));
  }
  for (; r < K; ++r) {
    const T* p = reinterpret_cast<const T*>(base + r * row);
#pragma omp simd
    for (std::int64_t c = c0; c < c1; ++c) m[c] = take(p[c], m[c]);
  }
}

// The same for the types SSE2 compares slowly or not at all in vectors (float64 two at a time, 64-bit
// integers not at all), also compiled for AVX2.
#define NPGPU_FOLD_ROWS_CLONE(name, is_max, T)                                                          \
  NPGPU_AVX2_CLONE void name(T* m, const char* base, std::int64_t row, std::int64_t K, std::int64_t c0, \
                             std::int64_t c1) {                                                         \
    fold_rows_extrema<is_max, T>(m, base, row, K, c0, c1);                                              \
  }
NPGPU_FOLD_ROWS_CLONE(fold_rows_max_float, true, float)
NPGPU_FOLD_ROWS_CLONE(fold_rows_min_float, false, float)
NPGPU_FOLD_ROWS_CLONE(fold_rows_max_double, true, double)
NPGPU_FOLD_ROWS_CLONE(fold_rows_min_double, false, double)
NPGPU_FOLD_ROWS_CLONE(fold_rows_max_int64, true, std::int64_t)
NPGPU_FOLD_ROWS_CLONE(fold_rows_min_int64, false, std::int64_t)
NPGPU_FOLD_ROWS_CLONE(fold_rows_max_uint64, true, std::uint64_t)
NPGPU_FOLD_ROWS_CLONE(fold_rows_min_uint64, false, std::uint64_t)
#undef NPGPU_FOLD_ROWS_CLONE

template <bool IsMax, class T>
void fold_rows(T* m, const char* base, std::int64_t row, std::int64_t K, std::int64_t c0, std::int64_t c1) {
  if constexpr (std::is_same_v<T, float>)
    (IsMax ? fold_rows_max_float : fold_rows_min_float)(m, base, row, K, c0, c1);
  else if constexpr (std::is_same_v<T, double>)
    (IsMax ? fold_rows_max_double : fold_rows_min_double)(m, base, row, K, c0, c1);
  else if constexpr (std::is_same_v<T, std::int64_t>)
    (IsMax ? fold_rows_max_int64 : fold_rows_min_int64)(m, base, row, K, c0, c1);
  else if constexpr (std::is_same_v<T, std::uint64_t>)
    (IsMax ? fold_rows_max_uint64 : fold_rows_min_uint64)(m, base, row, K, c0, c1);
  else
    fold_rows_extrema<IsMax, T>(m, base, row, K, c0, c1);
}

// max / min over a strided axis into adjacent outputs (x.max(axis=0) of a C-ordered matrix): running
// extrema per output in the input's type, rows folded in by a vectorised loop, each thread a range of
// columns. A NaN is taken and then kept (no comparison with it is true), so NaNs propagate without a
// separate flag per column. False where the layout or dtype does not fit.
template <class R>
bool column_extrema(const detail::ReduceArgs& a, const StridedPlan<2>& kplan, const RangeReducer<R>& rr) {
  using A = typename R::Acc;
  constexpr bool is_max = std::is_same_v<R, detail::MaxR<A>>;
  if (!is_plain_minmax<R> || rr.skip_nan || a.pre != detail::Pre::None || kplan.ndim != 1 || rr.plan.ndim != 1)
    return false;
  const DType d = a.in_r.dtype;
  const std::int64_t M = a.outputs, K = a.count, row = rr.stride0;
  if (kplan.strides[1][0] != itemsize(d) || K < 1) return false;
  std::vector<A> result(static_cast<std::size_t>(M));
  auto run = [&](auto tag) {
    using T = decltype(tag);
    const char* base = static_cast<const char*>(a.in_r.data);
    OffPageBuffer<T> acc(static_cast<std::size_t>(M), base);
    std::memcpy(acc.data, base, static_cast<std::size_t>(M) * sizeof(T));
    parallel_region(M * K > (1 << 16), [&](std::int64_t nt, std::int64_t t) {
      const std::int64_t per = (M + nt - 1) / nt, c0 = std::min(M, t * per), c1 = std::min(M, c0 + per);
      fold_rows<is_max, T>(acc.data, base, row, K, c0, c1);
    });
    for (std::int64_t c = 0; c < M; ++c) result[c] = static_cast<A>(acc.data[c]);
    return true;
  };
  if (!with_real_type<HeldBy<A>::template in>(d, run)) return false;
  char* out = static_cast<char*>(a.out_k.data);
  for (std::int64_t m = 0; m < M; ++m)
    detail::finish_store(out + m * kplan.strides[0][0], a.out_k.dtype, result[m], a.fin, 0);
  return true;
}

template <class R>
void reduce_impl(const detail::ReduceArgs& a) {
  const ArrayView* kv[2] = {&a.out_k, &a.in_k};
  const auto kplan = detail::make_plan<2>(kv);
  const ArrayView* rv[1] = {&a.in_r};
  RangeReducer<R> rr{static_cast<const char*>(a.in_r.data), a.in_r.dtype, a.pre, a.skip_nan,
                     detail::make_plan<1>(rv), 0, false};
  rr.stride0 = rr.plan.ndim == 1 ? rr.plan.strides[0][0] : 0;
  rr.contiguous = rr.plan.ndim == 1 && rr.stride0 == itemsize(a.in_r.dtype) && a.pre == detail::Pre::None;
  char* out = static_cast<char*>(a.out_k.data);
  const std::int64_t M = a.outputs, K = a.count;
  const int T = max_threads();
  const R op{};
  if constexpr (is_plain_sum<R>) {
    if (rr.stride0 != itemsize(a.in_r.dtype) && M > 1 && column_sums<R>(a, kplan, rr)) return;
  }
  if constexpr (is_plain_minmax<R>) {
    if (rr.stride0 != itemsize(a.in_r.dtype) && M > 1 && column_extrema<R>(a, kplan, rr)) return;
  }
  if (M >= 2 * T || K < (1 << 14)) {
    parallel_for(M, M > 1 && M * K > (1 << 15), [&](std::int64_t m) {
      std::int64_t off[2];
      kplan.offsets(m, off);
      detail::finish_store(out + off[0], a.out_k.dtype, rr.run(off[1], 0, K), a.fin, 0);
    });
    return;
  }
  for (std::int64_t m = 0; m < M; ++m) {
    std::int64_t off[2];
    kplan.offsets(m, off);
    // Chunks are multiples of 128 so that the blocks are those of one sequential pairwise pass.
    const std::int64_t chunk = ((K + T - 1) / T + 127) / 128 * 128;
    const int nchunks = static_cast<int>((K + chunk - 1) / chunk);
    std::vector<typename R::Acc> parts(nchunks, R::identity());
#pragma omp parallel for schedule(static)
    for (int c = 0; c < nchunks; ++c) parts[c] = rr.run(off[1], c * chunk, std::min(K, (c + 1) * chunk));
    // Combine pairwise too.
    for (int w = 1; w < nchunks; w *= 2)
      for (int c = 0; c + w < nchunks; c += 2 * w) parts[c] = op(parts[c], parts[c + w]);
    detail::finish_store(out + off[0], a.out_k.dtype, parts[0], a.fin, 0);
  }
}

// One contiguous row of a scan with its input and output types known at compile time (the generic loop
// converts every load and store through a run-time dtype switch, several times slower than NumPy).
template <class I, class O, class T, class Op>
void scan_row(const I* in, O* out, std::int64_t n, bool exclusive, Op op, T acc) {
  if (exclusive) {
    for (std::int64_t j = 0; j < n; ++j) {
      const T x = static_cast<T>(in[j]);  // before the store: out may be in (an in-place scan)
      out[j] = static_cast<O>(acc);
      acc = op(acc, x);
    }
  } else {
    for (std::int64_t j = 0; j < n; ++j) {
      acc = op(acc, static_cast<T>(in[j]));
      out[j] = static_cast<O>(acc);
    }
  }
}

// scan_row for the real input dtypes and the output dtypes a real scan produces; false for others.
template <class T, class Op>
bool scan_row_typed(const char* in, DType id, char* out, DType od, std::int64_t n, bool exclusive, Op op, T acc) {
  if constexpr (detail::is_complex<T>::value) {
    return false;
  } else {
    auto with_out = [&](auto in_tag) {
      using I = decltype(in_tag);
      const I* src = reinterpret_cast<const I*>(in);
      switch (od) {
        case DType::Float64: scan_row(src, reinterpret_cast<double*>(out), n, exclusive, op, acc); return true;
        case DType::Float32: scan_row(src, reinterpret_cast<float*>(out), n, exclusive, op, acc); return true;
        case DType::Int64: scan_row(src, reinterpret_cast<std::int64_t*>(out), n, exclusive, op, acc); return true;
        case DType::UInt64: scan_row(src, reinterpret_cast<std::uint64_t*>(out), n, exclusive, op, acc); return true;
        default: return false;
      }
    };
    return with_real_type<AnyReal>(id, with_out);
  }
}

template <class T, class Op>
void scan_impl(const detail::ScanArgs& a, Op op, T identity) {
  const int nd = a.in_p.ndim - 1;
  const std::int64_t K = a.in_p.shape[nd];
  const std::int64_t si = a.in_p.strides[nd], so = a.out_p.strides[nd];
  ArrayView ro = a.out_p, ri = a.in_p;
  ro.ndim = nd;
  ri.ndim = nd;
  const std::int64_t rows = ro.size();
  const ArrayView* views[2] = {&ro, &ri};
  const auto plan = detail::make_plan<2>(views);
  char* out = static_cast<char*>(a.out_p.data);
  const char* in = static_cast<const char*>(a.in_p.data);
  const DType id = a.in_p.dtype, od = a.out_p.dtype;
  const bool excl = a.exclusive;
  parallel_for(rows, rows > 1 && rows * K > (1 << 15), [&](std::int64_t r) {
    std::int64_t off[2];
    plan.offsets(r, off);
    if (si == itemsize(id) && so == itemsize(od) &&
        scan_row_typed<T>(in + off[1], id, out + off[0], od, K, excl, op, identity))
      return;
    T acc = identity;
    for (std::int64_t j = 0; j < K; ++j) {
      const T x = detail::load_conv<T>(in + off[1] + j * si, id);
      if (excl) {
        detail::store_as<T>(out + off[0] + j * so, od, acc);
        acc = op(acc, x);
      } else {
        // A complex row starts with its first element as it is, as NumPy's and CUB's inclusive scans do
        // ((1 + 0j) * nanj would be nan + nan j).
        acc = detail::is_complex<T>::value && j == 0 ? x : op(acc, x);
        detail::store_as<T>(out + off[0] + j * so, od, acc);
      }
    }
  });
}

template <class T>
void scan_typed(const detail::ScanArgs& a) {
  if (a.op == ScanOp::Sum) scan_impl<T>(a, detail::ScanAdd<T>{}, T(0));
  else scan_impl<T>(a, detail::ScanMul<T>{}, T(1));
}

}  // namespace

void reduce(const detail::ReduceArgs& a, StreamHandle) {
  detail::dispatch_reducer(a.kind, a.type, [&](auto r) { reduce_impl<decltype(r)>(a); });
}

void scan(const detail::ScanArgs& a, StreamHandle) {
  switch (a.out_p.dtype) {
    case DType::Complex64:
    case DType::Complex128: scan_typed<detail::complex128>(a); break;
    case DType::Float16:
    case DType::BFloat16:
    case DType::Float32:
    case DType::Float64: scan_typed<double>(a); break;
    default: scan_typed<std::uint64_t>(a); break;
  }
}

}  // namespace npgpu::host
