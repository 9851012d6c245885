#pragma once
// Internal: the per-element value of arange, shared by the CUDA kernel and the host loop.
#include <cstdint>
#include <type_traits>

#include "common/complex.hpp"
#include "common/half.hpp"
#include "common/hd.hpp"
#include "npgpu/view.hpp"

namespace npgpu::detail {

// a + b * c rounded twice, as NumPy computes it: nvcc would contract the plain expression into an fma.
template <class R>
NPGPU_HD R mul_add_rn(R a, R b, R c) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<R, float>) return __fadd_rn(a, __fmul_rn(b, c));
  else return __dadd_rn(a, __dmul_rn(b, c));
#else
  return a + b * c;
#endif
}

// start + i * delta in T, as NumPy's <type>_fill: integers in 64-bit unsigned arithmetic (wrapping, then
// truncated to T), reals and complex parts in T's precision, float16/bfloat16 in float32.
template <class T>
struct ArangeValue {
  ScalarValue start, delta;

  NPGPU_HD T operator()(std::int64_t i) const {
    if constexpr (std::is_same_v<T, bool>) {
      return (start.u + static_cast<std::uint64_t>(i) * delta.u) != 0;
    } else if constexpr (std::is_integral_v<T>) {
      return static_cast<T>(start.u + static_cast<std::uint64_t>(i) * delta.u);
    } else if constexpr (is_half<T>::value) {
      const float s = static_cast<float>(start.f), d = static_cast<float>(delta.f);
      return T(static_cast<double>(mul_add_rn(s, static_cast<float>(i), d)));
    } else if constexpr (is_complex<T>::value) {
      using R = decltype(T{}.re);
      const R fi = static_cast<R>(i);
      return T(mul_add_rn(static_cast<R>(start.c[0]), fi, static_cast<R>(delta.c[0])),
               mul_add_rn(static_cast<R>(start.c[1]), fi, static_cast<R>(delta.c[1])));
    } else {
      return mul_add_rn(static_cast<T>(start.f), static_cast<T>(i), static_cast<T>(delta.f));
    }
  }
};

}  // namespace npgpu::detail
