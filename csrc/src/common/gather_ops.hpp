#pragma once
// Internal: pieces shared by the host and CUDA gathers and scatters: elements moved as opaque words of their
// item size, the wrap of a negative index, and scatter-add's sum.
#include <cstdint>
#include <type_traits>

#include "common/complex.hpp"
#include "common/half.hpp"
#include "common/hd.hpp"
#include "npgpu/errors.hpp"

namespace npgpu::detail {

template <int S>
struct alignas(S) Word {
  unsigned char b[S];
};

// fn(Word<itemsize>{}) for item sizes 1, 2, 4, 8 and 16.
template <class Fn>
void dispatch_item_size(std::int64_t itemsize, Fn&& fn) {
  switch (itemsize) {
    case 1: return fn(Word<1>{});
    case 2: return fn(Word<2>{});
    case 4: return fn(Word<4>{});
    case 8: return fn(Word<8>{});
    case 16: return fn(Word<16>{});
    default: throw InvalidArgument("item size " + std::to_string(itemsize) + " is not 1, 2, 4, 8 or 16 bytes");
  }
}

// Whether an element counts as true (nonzero; either part of a complex number; -0.0 is zero).
template <class T>
NPGPU_HD bool is_nonzero(T v) {
  if constexpr (is_complex<T>::value) return v.re != 0 || v.im != 0;
  else if constexpr (is_half<T>::value) return (v.bits & 0x7fffu) != 0;
  else return v != T(0);
}

// `i` in [0, n) for i in [-n, n); -1 when out of range.
NPGPU_HD std::int64_t wrap_index(std::int64_t i, std::int64_t n) {
  if (i < 0) i += n;
  return i >= 0 && i < n ? i : -1;
}

// a + b as NumPy's add.at adds one value: bool as logical or, float16/bfloat16 summed in float32 and rounded
// once, integers wrapping (in unsigned arithmetic, where signed overflow would be undefined).
template <class T>
NPGPU_HD T scatter_sum(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a || b;
  } else if constexpr (is_half<T>::value) {
    return T(static_cast<double>(static_cast<float>(a) + static_cast<float>(b)));
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  } else {
    return a + b;
  }
}

}  // namespace npgpu::detail
