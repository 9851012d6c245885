#pragma once
// Internal: a complex number type usable in kernels and on the host, laid out as NumPy's complex64 /
// complex128 (real, imaginary).
#include <cmath>

#include "common/hd.hpp"

namespace npgpu::detail {

template <class R>
struct alignas(2 * sizeof(R)) Complex {
  R re, im;
  NPGPU_HD Complex() = default;
  NPGPU_HD constexpr Complex(R r, R i = R(0)) : re(r), im(i) {}
};

template <class R>
NPGPU_HD Complex<R> operator+(Complex<R> a, Complex<R> b) { return {a.re + b.re, a.im + b.im}; }
template <class R>
NPGPU_HD Complex<R> operator-(Complex<R> a, Complex<R> b) { return {a.re - b.re, a.im - b.im}; }
template <class R>
NPGPU_HD Complex<R> operator*(Complex<R> a, Complex<R> b) {
  // One rounding per part, fused as NumPy's SIMD loops do, so results match NumPy's bit for bit and an
  // overflowing product gives -inf+inf j as there, not nan+inf j.
#if defined(__CUDA_ARCH__)
  return {fma(a.re, b.re, -(a.im * b.im)), fma(a.re, b.im, a.im * b.re)};
#else
  return {std::fma(a.re, b.re, -(a.im * b.im)), std::fma(a.re, b.im, a.im * b.re)};
#endif
}
template <class R>
NPGPU_HD bool operator==(Complex<R> a, Complex<R> b) { return a.re == b.re && a.im == b.im; }

using complex64 = Complex<float>;
using complex128 = Complex<double>;

template <class T> struct is_complex { static constexpr bool value = false; };
template <class R> struct is_complex<Complex<R>> { static constexpr bool value = true; };

}  // namespace npgpu::detail
