#pragma once
// Internal: NumPy's sort order, shared by the host sort and the CUDA merge sort of complex keys: NaNs after
// every number, -0.0 equal to +0.0; complex numbers first by where their NaNs are ([R + Rj, R + nanj,
// nan + Rj, nan + nanj], as numpy.sort documents), then by real part and imaginary part.
#include <cstdint>
#include <type_traits>

#include "common/complex.hpp"
#include "common/half.hpp"
#include "common/hd.hpp"

namespace npgpu::detail {

template <class T>
NPGPU_HD auto sort_value(T v) {
  if constexpr (is_half<T>::value) return static_cast<float>(v);
  else if constexpr (std::is_same_v<T, bool>) return static_cast<int>(v);
  else return v;
}

// a < b with NaNs last (a NaN is greater than any number and equal to another NaN).
template <class R>
NPGPU_HD bool less_nan_last(R a, R b) {
  if constexpr (std::is_floating_point_v<R>) {
    if (b != b) return a == a;
    return a < b;
  } else {
    return a < b;
  }
}

template <class T>
NPGPU_HD bool sort_less(T a, T b) {
  if constexpr (is_complex<T>::value) {
    // NumPy's complex order (npysort's CFLOAT_LT): first by where the NaNs are, [R + Rj, R + nanj, nan + Rj,
    // nan + nanj], then by the parts that are numbers, real first.
    const auto ar = a.re, ai = a.im, br = b.re, bi = b.im;
    if (ar < br) return ai == ai || bi != bi;
    if (ar > br) return bi != bi && ai == ai;
    if (ar == br || (ar != ar && br != br)) return ai < bi || (bi != bi && ai == ai);
    return br != br;
  } else {
    return less_nan_last(sort_value(a), sort_value(b));
  }
}

// The order of a descending sort with NaNs last: the ascending order of -x (floats and complex numbers:
// NaNs stay NaN, so last, and -0.0 == 0.0) or of ~x (integers and bool: exact). NumPy-based sorts use the
// same keys, so both give one order.
template <class T>
NPGPU_HD bool sort_greater(T a, T b) {
  if constexpr (is_complex<T>::value) {
    return sort_less(T(-a.re, -a.im), T(-b.re, -b.im));
  } else {
    const auto x = sort_value(a), y = sort_value(b);
    if constexpr (std::is_floating_point_v<decltype(x)>) return less_nan_last(-x, -y);
    else return y < x;
  }
}

// Whether neighbours a, b of a sorted run are one value for numpy.unique: equal (-0.0 == +0.0), or both NaN
// when equal_nan (a complex number is NaN when either part is).
template <class T>
NPGPU_HD bool same_value(T a, T b, bool equal_nan) {
  if constexpr (is_complex<T>::value) {
    if (a.re == b.re && a.im == b.im) return true;
    return equal_nan && (a.re != a.re || a.im != a.im) && (b.re != b.re || b.im != b.im);
  } else {
    const auto x = sort_value(a), y = sort_value(b);
    if constexpr (std::is_floating_point_v<decltype(x)>) return x == y || (equal_nan && x != x && y != y);
    else return x == y;
  }
}

// The insertion position of q in the ascending a[0, n): the first element not less than q (left) or the
// first greater than q (right).
template <class T>
NPGPU_HD std::int64_t insertion_position(const T* a, std::int64_t n, T q, bool right) {
  std::int64_t lo = 0, hi = n;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    const bool go_right = right ? !sort_less(q, a[mid]) : sort_less(a[mid], q);
    if (go_right) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

}  // namespace npgpu::detail
