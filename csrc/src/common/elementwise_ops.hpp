#pragma once
// Internal: the per-element operations, one definition each, used by the CUDA kernels and the host loops
// alike. Each functor is called with its operands already converted to the loop type T that NumPy's type
// resolution picked (the Python layer asks numpy's ufunc for it), and declares:
//   arity                  number of operands
//   supports<T>            whether a loop over T exists (NumPy's loop table; others raise TypeError)
//   result<T>              the element type it returns (bool for comparisons, the real type for abs(complex))
//   input<T, k>            the type of operand k (T, except where's condition, which is bool)
// Integer arithmetic wraps as NumPy's does (computed in the unsigned type: no signed-overflow UB); integer
// division by zero gives 0 (NumPy also warns; npgpu does not). Float results follow IEEE/C99 as NumPy's.
#include <cuda/std/cmath>
#include <cuda/std/complex>
#include <cuda/std/limits>
#include <cuda/std/type_traits>
#include <string>

#include "common/complex.hpp"
#include "common/hd.hpp"
#include "npgpu/elementwise.hpp"
#include "npgpu/errors.hpp"

namespace npgpu::detail {

namespace ew {

template <class T> inline constexpr bool is_bool = ::cuda::std::is_same_v<T, bool>;
template <class T> inline constexpr bool is_int = ::cuda::std::is_integral_v<T> && !is_bool<T>;
template <class T> inline constexpr bool is_float = ::cuda::std::is_floating_point_v<T>;
template <class T> inline constexpr bool is_cplx = is_complex<T>::value;
template <class T> inline constexpr bool is_real = is_bool<T> || is_int<T> || is_float<T>;
template <class T> inline constexpr bool is_number = !is_bool<T>;
template <class T> inline constexpr bool is_inexact = is_float<T> || is_cplx<T>;

template <class T> struct real_of { using type = T; };
template <class R> struct real_of<Complex<R>> { using type = R; };
template <class T> using real_t = typename real_of<T>::type;

// Complex functions run on cuda::std::complex<double>: complex64 results are then correctly rounded or
// nearly (float-precision complex asin/acos/atan lose digits for large arguments), and both backends agree.
using std_complex = ::cuda::std::complex<double>;
template <class T>
NPGPU_HD std_complex to_std(T z) { return {static_cast<double>(z.re), static_cast<double>(z.im)}; }
template <class T>
NPGPU_HD T from_std(std_complex z) {
  using R = real_t<T>;
  return T(static_cast<R>(z.real()), static_cast<R>(z.imag()));
}

// 1 / z as NumPy's complex reciprocal computes it.
template <class T>
NPGPU_HD T complex_reciprocal(T z) {
  using R = real_t<T>;
  if (::cuda::std::fabs(z.im) <= ::cuda::std::fabs(z.re)) {
    const R r = z.im / z.re, d = z.re + z.im * r;
    return T(R(1) / d, -r / d);
  }
  const R r = z.re / z.im, d = z.re * r + z.im;
  return T(r / d, R(-1) / d);
}

// a ** b with NumPy's special cases: b == 0 gives 1, a == 0 gives 0 when b's real part is positive and NaN
// otherwise, small integer exponents multiply out; the rest is exp(b log a).
template <class T>
NPGPU_HD T complex_power(T a, T b) {
  using R = real_t<T>;
  if (b.re == R(0) && b.im == R(0)) return T(R(1), R(0));
  if (a.re == R(0) && a.im == R(0)) {
    if (b.re > R(0)) return T(R(0), R(0));
    const R nan = ::cuda::std::numeric_limits<R>::quiet_NaN();
    return T(nan, nan);
  }
  if (b.im == R(0) && b.re == ::cuda::std::trunc(b.re) && ::cuda::std::fabs(b.re) < R(100)) {
    long n = static_cast<long>(b.re);
    const bool negative = n < 0;
    if (negative) n = -n;
    T r(R(1), R(0)), x = a;
    while (n) {  // binary exponentiation, as NumPy's
      if (n & 1) r = r * x;
      x = x * x;
      n >>= 1;
    }
    return negative ? complex_reciprocal(r) : r;
  }
  return from_std<T>(::cuda::std::pow(to_std(a), to_std(b)));
}

// exp(z) - 1 as NumPy computes it (exp of the real part, then the rotation).
NPGPU_HD std_complex complex_expm1(std_complex z) {
  const double x = ::cuda::std::expm1(z.real());
  const double c = ::cuda::std::cos(z.imag()), s = ::cuda::std::sin(z.imag());
  // (x + 1) * cos(y) - 1 without the cancellation near 0: x * cos(y) + (cos(y) - 1)
  return {x * c - 2.0 * ::cuda::std::sin(z.imag() / 2) * ::cuda::std::sin(z.imag() / 2), (x + 1.0) * s};
}

// Inverse sines and cosines by Kahan's formulas ("Branch cuts for complex elementary functions", 1987):
// the textbook log(iz + sqrt(1 - z^2)) cancels every digit for large |z|. Non-finite z keeps the
// library's special values.
NPGPU_HD bool complex_isfinite(std_complex z) {
  return ::cuda::std::isfinite(z.real()) && ::cuda::std::isfinite(z.imag());
}
// The principal square root of a finite z, exact on the axes (the library's goes through polar form, so
// sqrt(-1) has a real part of 6e-17), without overflow for any finite z.
NPGPU_HD std_complex complex_sqrt(std_complex z) {
  const double x = z.real(), y = z.imag();
  if (x == 0.0 && y == 0.0) return {0.0, y};
  const double t = ::cuda::std::sqrt(0.5 * ::cuda::std::fabs(x) + 0.5 * ::cuda::std::hypot(x, y));
  if (x >= 0.0) return {t, y / (2.0 * t)};
  return {::cuda::std::fabs(y) / (2.0 * t), ::cuda::std::copysign(t, y)};
}
// NumPy's values where C99 leaves a sign unspecified or the library's differ: asin(+-inf + NaN j) =
// NaN + inf j, acos(+-inf + NaN j) = NaN - inf j, asinh(NaN +- inf j) = inf + NaN j.
NPGPU_HD std_complex complex_asin(std_complex z) {
  if (!complex_isfinite(z)) {
    const double inf = ::cuda::std::numeric_limits<double>::infinity();
    if (::cuda::std::isinf(z.real()) && ::cuda::std::isnan(z.imag())) return {z.imag(), inf};
    return ::cuda::std::asin(z);
  }
  const std_complex a = complex_sqrt(1.0 - z), b = complex_sqrt(1.0 + z);
  return {::cuda::std::atan2(z.real(), a.real() * b.real() - a.imag() * b.imag()),
          ::cuda::std::asinh(a.real() * b.imag() - a.imag() * b.real())};
}
NPGPU_HD std_complex complex_acos(std_complex z) {
  if (!complex_isfinite(z)) {
    if (::cuda::std::isinf(z.real()) && ::cuda::std::isnan(z.imag()))
      return {z.imag(), -::cuda::std::numeric_limits<double>::infinity()};
    return ::cuda::std::acos(z);
  }
  const std_complex a = complex_sqrt(1.0 - z), b = complex_sqrt(1.0 + z);
  return {2.0 * ::cuda::std::atan2(a.real(), b.real()),
          ::cuda::std::asinh(b.real() * a.imag() - b.imag() * a.real())};
}
NPGPU_HD std_complex complex_asinh(std_complex z) {  // -i asin(iz)
  if (!complex_isfinite(z)) {
    if (::cuda::std::isnan(z.real()) && ::cuda::std::isinf(z.imag()))
      return {::cuda::std::numeric_limits<double>::infinity(), z.real()};
    return ::cuda::std::asinh(z);
  }
  const std_complex s = complex_asin(std_complex(-z.imag(), z.real()));
  return {s.imag(), -s.real()};
}
NPGPU_HD std_complex complex_acosh(std_complex z) {
  if (!complex_isfinite(z)) {
    if (z.real() == 0.0 && z.imag() != z.imag())  // the standard's and NumPy's NaN + pi/2 j
      return {z.imag(), 1.5707963267948966};
    return ::cuda::std::acosh(z);
  }
  const std_complex a = complex_sqrt(z - 1.0), b = complex_sqrt(z + 1.0);
  return {::cuda::std::asinh(a.real() * b.real() + a.imag() * b.imag()),
          2.0 * ::cuda::std::atan2(a.imag(), b.real())};
}
// atanh(z) = log((1 + z) / (1 - z)) / 2 with the real part through log1p (no loss for small z; computed
// for Re z >= 0, the rest by atanh(-z) = -atanh(z)) and, for huge |z|, 1/z's real part beside +-pi/2 (no
// overflow in |1 - z|^2).
NPGPU_HD std_complex complex_atanh(std_complex z) {
  if (!complex_isfinite(z)) return ::cuda::std::atanh(z);
  const double sign = ::cuda::std::signbit(z.real()) ? -1.0 : 1.0;
  const double x = sign * z.real(), y = sign * z.imag();
  if (x > 1e150 || ::cuda::std::fabs(y) > 1e150) {
    const double h = ::cuda::std::hypot(x, y);
    return {sign * ((x / h) / h), sign * ::cuda::std::copysign(1.5707963267948966, y)};
  }
  const double d = (1.0 - x) * (1.0 - x) + y * y;
  return {sign * 0.25 * ::cuda::std::log1p(4.0 * x / d),
          sign * 0.5 * ::cuda::std::atan2(2.0 * y, (1.0 - x) * (1.0 + x) - y * y)};
}
// Non-finite z as glibc's catan (CUDA's atan gives atan(+-inf + NaN j) a -0 imaginary part).
NPGPU_HD std_complex atan_nonfinite(double x, double y) {
  const double half_pi = 1.5707963267948966;
  if (::cuda::std::isinf(x) || (::cuda::std::isinf(y) && !::cuda::std::isnan(x)))
    return {::cuda::std::copysign(half_pi, x), ::cuda::std::copysign(0.0, y)};
  if (::cuda::std::isinf(y) || y == 0.0)
    return {::cuda::std::numeric_limits<double>::quiet_NaN(), ::cuda::std::copysign(0.0, y)};
  return {::cuda::std::numeric_limits<double>::quiet_NaN(), ::cuda::std::numeric_limits<double>::quiet_NaN()};
}
NPGPU_HD std_complex complex_atan(std_complex z) {  // -i atanh(iz)
  if (!complex_isfinite(z)) return atan_nonfinite(z.real(), z.imag());
  const std_complex t = complex_atanh(std_complex(-z.imag(), z.real()));
  return {t.imag(), -t.real()};
}
// Non-finite arguments of exp, sinh, cosh, tanh, sin and tan take the C99 Annex G values with the signs
// that NumPy gives on Linux (glibc's choices where the standard leaves a sign unspecified), so that special-
// value tables match NumPy's on both backends. `inf` and `nan` below are doubles of those values.
NPGPU_HD double nan_d() { return ::cuda::std::numeric_limits<double>::quiet_NaN(); }
NPGPU_HD double inf_d() { return ::cuda::std::numeric_limits<double>::infinity(); }

NPGPU_HD std_complex complex_exp(std_complex z) {
  const double x = z.real(), y = z.imag();
  if (x == -inf_d() && !::cuda::std::isfinite(y)) return {0.0, ::cuda::std::copysign(0.0, y)};
  return ::cuda::std::exp(z);
}

// sinh and cosh of x + iy as NumPy's npymath (FreeBSD's csinh / ccosh) for finite z: a zero y stays exact
// (0 * inf would be NaN), and for large |x| exp(|x|) / 2 is folded into the trigonometric factor in
// logarithms, so a finite product stays finite past exp's overflow.
NPGPU_HD double scaled_exp_half(double ax, double t) {  // exp(ax) / 2 * t without an intermediate overflow
  if (ax < 709.0) return ::cuda::std::exp(ax) * 0.5 * t;
  const double m = ::cuda::std::exp(ax - 0.6931471805599453 + ::cuda::std::log(::cuda::std::fabs(t)));
  return ::cuda::std::copysign(m, t);
}
NPGPU_HD std_complex sinh_nonfinite(double x, double y) {
  if (::cuda::std::isfinite(x))  // y is inf or NaN
    return x == 0.0 ? std_complex{x, nan_d()} : std_complex{nan_d(), nan_d()};
  if (::cuda::std::isinf(x)) {
    if (y == 0.0) return {x, y};
    if (!::cuda::std::isfinite(y)) return {inf_d(), nan_d()};
    return {::cuda::std::copysign(inf_d(), ::cuda::std::cos(y)) * ::cuda::std::copysign(1.0, x),
            ::cuda::std::copysign(inf_d(), ::cuda::std::sin(y))};
  }
  return {nan_d(), y == 0.0 ? y : nan_d()};  // x is NaN
}
NPGPU_HD std_complex cosh_nonfinite(double x, double y) {
  if (::cuda::std::isfinite(x)) return {nan_d(), x == 0.0 ? 0.0 : nan_d()};  // y is inf or NaN
  if (::cuda::std::isinf(x)) {
    if (y == 0.0) return {inf_d(), y * ::cuda::std::copysign(1.0, x)};
    if (!::cuda::std::isfinite(y)) return {inf_d(), nan_d()};
    return {::cuda::std::copysign(inf_d(), ::cuda::std::cos(y)),
            ::cuda::std::copysign(inf_d(), ::cuda::std::sin(y)) * ::cuda::std::copysign(1.0, x)};
  }
  return {nan_d(), y == 0.0 ? y : nan_d()};  // x is NaN
}
NPGPU_HD std_complex complex_sinh(std_complex z) {
  const double x = z.real(), y = z.imag();
  if (!::cuda::std::isfinite(x) || !::cuda::std::isfinite(y)) return sinh_nonfinite(x, y);
  if (y == 0.0) return {::cuda::std::sinh(x), y};
  const double ax = ::cuda::std::fabs(x);
  if (ax < 22.0) return {::cuda::std::sinh(x) * ::cuda::std::cos(y), ::cuda::std::cosh(x) * ::cuda::std::sin(y)};
  return {::cuda::std::copysign(1.0, x) * scaled_exp_half(ax, ::cuda::std::cos(y)),
          scaled_exp_half(ax, ::cuda::std::sin(y))};
}
NPGPU_HD std_complex complex_cosh(std_complex z) {
  const double x = z.real(), y = z.imag();
  if (!::cuda::std::isfinite(x) || !::cuda::std::isfinite(y)) return cosh_nonfinite(x, y);
  if (y == 0.0) return {::cuda::std::cosh(x), x * y};
  const double ax = ::cuda::std::fabs(x);
  if (ax < 22.0) return {::cuda::std::cosh(x) * ::cuda::std::cos(y), ::cuda::std::sinh(x) * ::cuda::std::sin(y)};
  return {scaled_exp_half(ax, ::cuda::std::cos(y)),
          ::cuda::std::copysign(1.0, x) * scaled_exp_half(ax, ::cuda::std::sin(y))};
}
// sin z = -i sinh(iz) and cos z = cosh(iz) for finite z.
NPGPU_HD std_complex complex_sin(std_complex z) {
  const double x = z.real(), y = z.imag();
  if (!::cuda::std::isfinite(x) || !::cuda::std::isfinite(y)) {
    if (::cuda::std::isfinite(y)) return {nan_d(), y == 0.0 ? y : nan_d()};  // x is inf or NaN
    if (::cuda::std::isinf(y)) {
      if (x == 0.0) return {x, y};
      if (!::cuda::std::isfinite(x)) return {nan_d(), inf_d()};
      return {::cuda::std::copysign(inf_d(), ::cuda::std::sin(x)), ::cuda::std::copysign(inf_d(), ::cuda::std::cos(x)) *
                                                                     ::cuda::std::copysign(1.0, y)};
    }
    return {x == 0.0 ? x : nan_d(), nan_d()};  // y is NaN
  }
  const std_complex s = complex_sinh({-y, x});
  return {s.imag(), -s.real()};
}
NPGPU_HD std_complex complex_cos(std_complex z) { return complex_cosh({-z.imag(), z.real()}); }

// tanh(+-inf + iy) = +-1 + i0 with the sign of sin(2y) for finite |y| > 1 (of y otherwise); tanh(+-0 + inf j)
// and tanh(+-0 + NaN j) = +-0 + NaN j. tan z = -i tanh(iz) with the same choices.
NPGPU_HD std_complex tanh_nonfinite(double x, double y) {
  if (::cuda::std::isinf(x)) {
    const double s = ::cuda::std::isfinite(y) && ::cuda::std::fabs(y) > 1.0 ? ::cuda::std::sin(y) * ::cuda::std::cos(y) : y;
    return {::cuda::std::copysign(1.0, x), ::cuda::std::copysign(0.0, s)};
  }
  if (y == 0.0) return {x, y};
  return {x == 0.0 ? x : nan_d(), nan_d()};
}
NPGPU_HD std_complex complex_tanh(std_complex z) {
  if (!::cuda::std::isfinite(z.real()) || !::cuda::std::isfinite(z.imag())) return tanh_nonfinite(z.real(), z.imag());
  return ::cuda::std::tanh(z);
}
NPGPU_HD std_complex complex_tan(std_complex z) {
  if (!::cuda::std::isfinite(z.real()) || !::cuda::std::isfinite(z.imag())) {
    const std_complex t = tanh_nonfinite(-z.imag(), z.real());
    return {t.imag(), -t.real()};
  }
  return ::cuda::std::tan(z);
}

// a / b as NumPy's complex loops compute it (Smith's algorithm; a zero divisor divides the parts by 0).
template <class T>
NPGPU_HD T complex_divide(T a, T b) {
  using R = real_t<T>;
  const R br = ::cuda::std::fabs(b.re), bi = ::cuda::std::fabs(b.im);
  if (br >= bi) {
    if (br == R(0) && bi == R(0)) return T(a.re / br, a.im / bi);
    const R rat = b.im / b.re;
    const R scl = R(1) / (b.re + b.im * rat);
    return T((a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl);
  }
  const R rat = b.re / b.im;
  const R scl = R(1) / (b.im + b.re * rat);
  return T((a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl);
}

// Integer arithmetic in the unsigned type of the same width: NumPy's wrap-around, without C++'s UB.
template <class T>
NPGPU_HD T wrap_add(T a, T b) {
  using U = ::cuda::std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
}
template <class T>
NPGPU_HD T wrap_sub(T a, T b) {
  using U = ::cuda::std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
}
template <class T>
NPGPU_HD T wrap_mul(T a, T b) {
  using U = ::cuda::std::make_unsigned_t<T>;
  using W = ::cuda::std::conditional_t<(sizeof(U) < sizeof(unsigned)), unsigned, U>;  // no int promotion
  return static_cast<T>(static_cast<U>(static_cast<W>(static_cast<U>(a)) * static_cast<W>(static_cast<U>(b))));
}

template <class T>
NPGPU_HD bool isnan_(T x) {
  if constexpr (is_float<T>) return x != x;
  else if constexpr (is_cplx<T>) return x.re != x.re || x.im != x.im;
  else return false;
}

// NumPy's ordering of complex numbers in its comparisons (CLT): lexicographic on (real, imag), but unequal
// real parts decide only when neither imaginary part is NaN (less(0j, 1+nanj) is False).
template <class T>
NPGPU_HD bool less_(T a, T b) {
  if constexpr (is_cplx<T>) return (a.re < b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im < b.im);
  else return a < b;
}

// npy_divmod for floats: Python's floor division and modulo, as NumPy computes them.
template <class T>
NPGPU_HD void float_divmod(T a, T b, T& floordiv, T& mod) {
  using ::cuda::std::copysign;
  using ::cuda::std::floor;
  using ::cuda::std::fmod;
  mod = fmod(a, b);
  if (b == T(0)) {
    floordiv = a / b;
    return;
  }
  T div = (a - mod) / b;
  if (mod != T(0)) {
    if ((b < T(0)) != (mod < T(0))) {
      mod += b;
      div -= T(1);
    }
  } else {
    mod = copysign(T(0), b);
  }
  if (div != T(0)) {
    floordiv = floor(div);
    if (div - floordiv > T(0.5)) floordiv += T(1);
  } else {
    floordiv = copysign(T(0), a / b);
  }
}

// Python's integer floor division and modulo; a zero divisor gives 0 for both, as NumPy's results.
template <class T>
NPGPU_HD T int_floordiv(T a, T b) {
  if (b == 0) return 0;
  if constexpr (::cuda::std::is_signed_v<T>) {
    if (b == -1) return wrap_sub(T(0), a);  // MIN // -1 wraps to MIN, as NumPy's result
    T q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
  } else {
    return a / b;
  }
}
template <class T>
NPGPU_HD T int_mod(T a, T b) {
  if (b == 0) return 0;
  if constexpr (::cuda::std::is_signed_v<T>) {
    if (b == -1) return 0;
    T r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
  } else {
    return a % b;
  }
}

template <class T>
NPGPU_HD T int_pow(T base, T exp) {
  if constexpr (::cuda::std::is_signed_v<T>) {
    if (exp < 0) return 0;  // NumPy raises ValueError; the Python layer checks scalar exponents
  }
  using U = ::cuda::std::make_unsigned_t<T>;
  U e = static_cast<U>(exp);
  T r = 1;
  T b = base;
  while (e) {
    if (e & 1u) r = wrap_mul(r, b);
    b = wrap_mul(b, b);
    e >>= 1;
  }
  return r;
}

}  // namespace ew

// ---------------------------------------------------------------------------------------------- binary

struct Binary {
  static constexpr int arity = 2;
  template <class T> using result = T;
  template <class T, int k> using input = T;
};
struct Comparison {
  static constexpr int arity = 2;
  template <class T> using result = bool;
  template <class T, int k> using input = T;
  template <class T> static constexpr bool supports = true;
};

struct AddOp : Binary {
  template <class T> static constexpr bool supports = true;
  template <class T>
  NPGPU_HD T operator()(T a, T b) const {
    if constexpr (ew::is_bool<T>) return a || b;  // NumPy: True + True is True
    else if constexpr (ew::is_int<T>) return ew::wrap_add(a, b);
    else return a + b;
  }
};

struct SubtractOp : Binary {
  template <class T> static constexpr bool supports = ew::is_number<T>;
  template <class T>
  NPGPU_HD T operator()(T a, T b) const {
    if constexpr (ew::is_int<T>) return ew::wrap_sub(a, b);
    else return a - b;
  }
};

struct MultiplyOp : Binary {
  template <class T> static constexpr bool supports = true;
  template <class T>
  NPGPU_HD T operator()(T a, T b) const {
    if constexpr (ew::is_bool<T>) return a && b;
    else if constexpr (ew::is_int<T>) return ew::wrap_mul(a, b);
    else return a * b;
  }
};

struct TrueDivideOp : Binary {
  template <class T> static constexpr bool supports = ew::is_inexact<T>;
  template <class T>
  NPGPU_HD T operator()(T a, T b) const {
    if constexpr (ew::is_cplx<T>) return ew::complex_divide(a, b);
    else return a / b;
  }
};

struct FloorDivideOp : Binary {
  template <class T> static constexpr bool supports = ew::is_int<T> || ew::is_float<T>;
  template <class T>
  NPGPU_HD T operator()(T a, T b) const {
    if constexpr (ew::is_int<T>) {
      return ew::int_floordiv(a, b);
    } else {
      T q, m;
      ew::float_divmod(a, b, q, m);
      return q;
    }
  }
};

struct RemainderOp : Binary {
  template <class T> static constexpr bool supports = ew::is_int<T> || ew::is_float<T>;
  template <class T>
  NPGPU_HD T operator()(T a, T b) const {
    if constexpr (ew::is_int<T>) {
      return ew::int_mod(a, b);
    } else {
      T q, m;
      ew::float_divmod(a, b, q, m);
      return m;
    }
  }
};

struct PowerOp : Binary {
  template <class T> static constexpr bool supports = ew::is_number<T>;
  template <class T>
  NPGPU_HD T operator()(T a, T b) const {
    if constexpr (ew::is_int<T>) return ew::int_pow(a, b);
    else if constexpr (ew::is_float<T>) return ::cuda::std::pow(a, b);
    else return ew::complex_power(a, b);
  }
};

// maximum/minimum propagate NaNs (NumPy's maximum, not fmax). Between equal operands (-0.0 and 0.0) they
// give what NumPy's loops give: the second for float32 / float64 (its SIMD loops), the first for other
// types; KeepFirst always gives the first (clip keeps x at a bound equal to it).
template <bool IsMax, bool KeepFirst>
struct Extremum : Binary {
  template <class T> static constexpr bool supports = true;
  template <class T>
  NPGPU_HD T operator()(T a, T b) const {
    if constexpr (ew::is_bool<T>) {
      return IsMax ? (a || b) : (a && b);
    } else {
      if constexpr (!ew::is_int<T>) {
        if (ew::isnan_(a)) return a;
        if (ew::isnan_(b)) return b;
      }
      if constexpr (!KeepFirst && ew::is_float<T>) return (IsMax ? ew::less_(b, a) : ew::less_(a, b)) ? a : b;
      else return (IsMax ? ew::less_(a, b) : ew::less_(b, a)) ? b : a;
    }
  }
};
struct MaximumOp : Extremum<true, false> {};
struct MinimumOp : Extremum<false, false> {};

struct HypotOp : Binary {
  template <class T> static constexpr bool supports = ew::is_float<T>;
  template <class T>
  NPGPU_HD T operator()(T a, T b) const { return ::cuda::std::hypot(a, b); }
};

struct Arctan2Op : Binary {
  template <class T> static constexpr bool supports = ew::is_float<T>;
  template <class T>
  NPGPU_HD T operator()(T a, T b) const { return ::cuda::std::atan2(a, b); }
};

struct EqualOp : Comparison {
  template <class T>
  NPGPU_HD bool operator()(T a, T b) const { return a == b; }
};
struct NotEqualOp : Comparison {
  template <class T>
  NPGPU_HD bool operator()(T a, T b) const { return !(a == b); }
};
struct LessOp : Comparison {
  template <class T>
  NPGPU_HD bool operator()(T a, T b) const { return ew::less_(a, b); }
};
struct LessEqualOp : Comparison {
  template <class T>
  NPGPU_HD bool operator()(T a, T b) const { return ew::less_(a, b) || a == b; }
};
struct GreaterOp : Comparison {
  template <class T>
  NPGPU_HD bool operator()(T a, T b) const { return ew::less_(b, a); }
};
struct GreaterEqualOp : Comparison {
  template <class T>
  NPGPU_HD bool operator()(T a, T b) const { return ew::less_(b, a) || a == b; }
};

// Truth of an element ("!= 0"; a complex number is true unless both parts are 0).
template <class T>
NPGPU_HD bool truth(T a) {
  if constexpr (ew::is_cplx<T>) return a.re != 0 || a.im != 0;
  else return a != T(0);
}

struct LogicalAndOp : Comparison {
  template <class T>
  NPGPU_HD bool operator()(T a, T b) const { return truth(a) && truth(b); }
};
struct LogicalOrOp : Comparison {
  template <class T>
  NPGPU_HD bool operator()(T a, T b) const { return truth(a) || truth(b); }
};
struct LogicalXorOp : Comparison {
  template <class T>
  NPGPU_HD bool operator()(T a, T b) const { return truth(a) != truth(b); }
};

struct BitwiseAndOp : Binary {
  template <class T> static constexpr bool supports = ew::is_int<T> || ew::is_bool<T>;
  template <class T>
  NPGPU_HD T operator()(T a, T b) const { return static_cast<T>(a & b); }
};
struct BitwiseOrOp : Binary {
  template <class T> static constexpr bool supports = ew::is_int<T> || ew::is_bool<T>;
  template <class T>
  NPGPU_HD T operator()(T a, T b) const { return static_cast<T>(a | b); }
};
struct BitwiseXorOp : Binary {
  template <class T> static constexpr bool supports = ew::is_int<T> || ew::is_bool<T>;
  template <class T>
  NPGPU_HD T operator()(T a, T b) const { return static_cast<T>(a ^ b); }
};
// NumPy's shifts: a count outside [0, bits) (negative ones included) shifts every bit out, so << gives 0
// and >> gives 0 or, for negative a, -1; computed in the unsigned type (no signed-shift UB).
struct LeftShiftOp : Binary {
  template <class T> static constexpr bool supports = ew::is_int<T>;
  template <class T>
  NPGPU_HD T operator()(T a, T b) const {
    using U = ::cuda::std::make_unsigned_t<T>;
    if (static_cast<U>(b) >= sizeof(T) * 8) return T(0);
    return static_cast<T>(static_cast<U>(static_cast<U>(a) << static_cast<U>(b)));
  }
};
struct RightShiftOp : Binary {
  template <class T> static constexpr bool supports = ew::is_int<T>;
  template <class T>
  NPGPU_HD T operator()(T a, T b) const {
    using U = ::cuda::std::make_unsigned_t<T>;
    if (static_cast<U>(b) >= sizeof(T) * 8) return a < T(0) ? T(-1) : T(0);
    return static_cast<T>(a >> static_cast<U>(b));
  }
};

// ---------------------------------------------------------------------------------------------- unary

struct Unary {
  static constexpr int arity = 1;
  template <class T> using result = T;
  template <class T, int k> using input = T;
};
struct Predicate {
  static constexpr int arity = 1;
  template <class T> using result = bool;
  template <class T, int k> using input = T;
  template <class T> static constexpr bool supports = true;
};

struct NegativeOp : Unary {
  template <class T> static constexpr bool supports = ew::is_number<T>;
  template <class T>
  NPGPU_HD T operator()(T a) const {
    if constexpr (ew::is_int<T>) return ew::wrap_sub(T(0), a);
    else if constexpr (ew::is_cplx<T>) return T(-a.re, -a.im);
    else return -a;
  }
};

struct PositiveOp : Unary {
  template <class T> static constexpr bool supports = ew::is_number<T>;
  template <class T>
  NPGPU_HD T operator()(T a) const { return a; }
};

struct AbsoluteOp {
  static constexpr int arity = 1;
  template <class T> using result = ew::real_t<T>;
  template <class T, int k> using input = T;
  template <class T> static constexpr bool supports = true;
  template <class T>
  NPGPU_HD ew::real_t<T> operator()(T a) const {
    if constexpr (ew::is_cplx<T>) return ::cuda::std::hypot(a.re, a.im);
    else if constexpr (ew::is_float<T>) return ::cuda::std::fabs(a);
    else if constexpr (ew::is_int<T> && ::cuda::std::is_signed_v<T>) return a < 0 ? ew::wrap_sub(T(0), a) : a;
    else return a;
  }
};

struct SignOp : Unary {
  template <class T> static constexpr bool supports = ew::is_number<T>;
  template <class T>
  NPGPU_HD T operator()(T a) const {
    if constexpr (ew::is_cplx<T>) {  // NumPy 2: z / |z|, 0 for 0; infinities as NumPy's csign
      using R = ew::real_t<T>;
      const R nan = ::cuda::std::numeric_limits<R>::quiet_NaN();
      const R m = ::cuda::std::hypot(a.re, a.im);
      if (m != m) return T(nan, nan);
      if (::cuda::std::isinf(m)) {
        const bool ire = ::cuda::std::isinf(a.re), iim = ::cuda::std::isinf(a.im);
        if (ire && iim) return T(nan, nan);
        if (ire) return T(a.re > 0 ? R(1) : R(-1), R(0));
        if (iim) return T(R(0), a.im > 0 ? R(1) : R(-1));
        return T(nan, nan);
      }
      if (m == R(0)) return T(R(0), R(0));
      return T(a.re / m, a.im / m);
    } else if constexpr (ew::is_float<T>) {
      if (a != a) return a;
      return a > T(0) ? T(1) : (a < T(0) ? T(-1) : T(0));
    } else {
      if constexpr (::cuda::std::is_unsigned_v<T>) return static_cast<T>(a > T(0) ? 1 : 0);
      else return static_cast<T>(a > T(0) ? 1 : (a < T(0) ? -1 : 0));
    }
  }
};

struct SquareOp : Unary {
  template <class T> static constexpr bool supports = true;
  template <class T>
  NPGPU_HD T operator()(T a) const { return MultiplyOp{}(a, a); }
};

struct ReciprocalOp : Unary {
  template <class T> static constexpr bool supports = ew::is_number<T>;
  template <class T>
  NPGPU_HD T operator()(T a) const {
    if constexpr (ew::is_int<T>) return a == 0 ? T(0) : static_cast<T>(T(1) / a);  // NumPy: 1 // x
    else if constexpr (ew::is_cplx<T>) return ew::complex_reciprocal(a);
    else return T(1) / a;
  }
};

// Transcendental functions: float and complex loops. Complex math runs on ::cuda::std::complex.
#define NPGPU_FLOAT_COMPLEX_FN(Name, expr_real, expr_complex)                                  \
  struct Name : Unary {                                                                        \
    template <class T> static constexpr bool supports = ew::is_inexact<T>;                     \
    template <class T>                                                                         \
    NPGPU_HD T operator()(T a) const {                                                         \
      if constexpr (ew::is_cplx<T>) {                                                          \
        using Z = ew::std_complex;                                                             \
        const Z z = ew::to_std(a);                                                             \
        return ew::from_std<T>(expr_complex);                                                  \
      } else {                                                                                 \
        return expr_real;                                                                      \
      }                                                                                        \
    }                                                                                          \
  };

// Complex sqrt exact on the axes (sqrt(-4+0j) = 2j); C99's special values for non-finite z.
NPGPU_FLOAT_COMPLEX_FN(SqrtOp, ::cuda::std::sqrt(a),
                       ew::complex_isfinite(z) ? ew::complex_sqrt(z) : ::cuda::std::sqrt(z))
NPGPU_FLOAT_COMPLEX_FN(ExpOp, ::cuda::std::exp(a), ew::complex_exp(z))
NPGPU_FLOAT_COMPLEX_FN(Expm1Op, ::cuda::std::expm1(a), ew::complex_expm1(z))
NPGPU_FLOAT_COMPLEX_FN(Exp2Op, ::cuda::std::exp2(a), ew::complex_exp(z * 0.6931471805599453))
NPGPU_FLOAT_COMPLEX_FN(LogOp, ::cuda::std::log(a), ::cuda::std::log(z))
// log(1 + z) with z's imaginary part kept as it is (1 + z would turn -0.0 into +0.0 and flip the branch), as
// NumPy's log1p.
NPGPU_FLOAT_COMPLEX_FN(Log1pOp, ::cuda::std::log1p(a), ::cuda::std::log(Z(z.real() + 1.0, z.imag())))
NPGPU_FLOAT_COMPLEX_FN(Log2Op, ::cuda::std::log2(a), ::cuda::std::log(z) * 1.4426950408889634)
NPGPU_FLOAT_COMPLEX_FN(Log10Op, ::cuda::std::log10(a), ::cuda::std::log10(z))
NPGPU_FLOAT_COMPLEX_FN(SinOp, ::cuda::std::sin(a), ew::complex_sin(z))
NPGPU_FLOAT_COMPLEX_FN(CosOp, ::cuda::std::cos(a), ew::complex_cos(z))
NPGPU_FLOAT_COMPLEX_FN(TanOp, ::cuda::std::tan(a), ew::complex_tan(z))
NPGPU_FLOAT_COMPLEX_FN(ArcsinOp, ::cuda::std::asin(a), ew::complex_asin(z))
NPGPU_FLOAT_COMPLEX_FN(ArccosOp, ::cuda::std::acos(a), ew::complex_acos(z))
NPGPU_FLOAT_COMPLEX_FN(ArctanOp, ::cuda::std::atan(a), ew::complex_atan(z))
NPGPU_FLOAT_COMPLEX_FN(SinhOp, ::cuda::std::sinh(a), ew::complex_sinh(z))
NPGPU_FLOAT_COMPLEX_FN(CoshOp, ::cuda::std::cosh(a), ew::complex_cosh(z))
NPGPU_FLOAT_COMPLEX_FN(TanhOp, ::cuda::std::tanh(a), ew::complex_tanh(z))
NPGPU_FLOAT_COMPLEX_FN(ArcsinhOp, ::cuda::std::asinh(a), ew::complex_asinh(z))
NPGPU_FLOAT_COMPLEX_FN(ArccoshOp, ::cuda::std::acosh(a), ew::complex_acosh(z))
NPGPU_FLOAT_COMPLEX_FN(ArctanhOp, ::cuda::std::atanh(a), ew::complex_atanh(z))
#undef NPGPU_FLOAT_COMPLEX_FN

struct CbrtOp : Unary {
  template <class T> static constexpr bool supports = ew::is_float<T>;
  template <class T>
  NPGPU_HD T operator()(T a) const { return ::cuda::std::cbrt(a); }
};

// Rounding: NumPy 2 has integer loops for these (the identity) and float loops; rint also complex.
#define NPGPU_ROUNDING_FN(Name, fn, complex_ok)                                                     \
  struct Name : Unary {                                                                             \
    template <class T> static constexpr bool supports = ew::is_int<T> || ew::is_float<T> ||         \
                                                        ew::is_bool<T> || (complex_ok && ew::is_cplx<T>); \
    template <class T>                                                                              \
    NPGPU_HD T operator()(T a) const {                                                              \
      if constexpr (ew::is_float<T>) return fn(a);                                                  \
      else if constexpr (ew::is_cplx<T>) return T(fn(a.re), fn(a.im));                              \
      else return a;                                                                                \
    }                                                                                               \
  };
NPGPU_ROUNDING_FN(FloorOp, ::cuda::std::floor, false)
NPGPU_ROUNDING_FN(CeilOp, ::cuda::std::ceil, false)
NPGPU_ROUNDING_FN(TruncOp, ::cuda::std::trunc, false)
NPGPU_ROUNDING_FN(RintOp, ::cuda::std::rint, true)
#undef NPGPU_ROUNDING_FN

struct IsNanOp : Predicate {
  template <class T>
  NPGPU_HD bool operator()(T a) const { return ew::isnan_(a); }
};
struct IsInfOp : Predicate {
  template <class T>
  NPGPU_HD bool operator()(T a) const {
    if constexpr (ew::is_float<T>) return ::cuda::std::isinf(a);
    else if constexpr (ew::is_cplx<T>) return ::cuda::std::isinf(a.re) || ::cuda::std::isinf(a.im);
    else return false;
  }
};
struct IsFiniteOp : Predicate {
  template <class T>
  NPGPU_HD bool operator()(T a) const {
    if constexpr (ew::is_float<T>) return ::cuda::std::isfinite(a);
    else if constexpr (ew::is_cplx<T>) return ::cuda::std::isfinite(a.re) && ::cuda::std::isfinite(a.im);
    else return true;
  }
};
struct LogicalNotOp : Predicate {
  template <class T>
  NPGPU_HD bool operator()(T a) const { return !truth(a); }
};

struct InvertOp : Unary {
  template <class T> static constexpr bool supports = ew::is_int<T> || ew::is_bool<T>;
  template <class T>
  NPGPU_HD T operator()(T a) const {
    if constexpr (ew::is_bool<T>) return !a;
    else return static_cast<T>(~a);
  }
};

struct ConjugateOp : Unary {
  template <class T> static constexpr bool supports = ew::is_number<T> || ew::is_bool<T>;
  template <class T>
  NPGPU_HD T operator()(T a) const {
    if constexpr (ew::is_cplx<T>) return T(a.re, -a.im);
    else return a;
  }
};

// ---------------------------------------------------------------------------------------------- ternary

struct WhereOp {  // where(cond, a, b)
  static constexpr int arity = 3;
  template <class T> using result = T;
  template <class T, int k> using input = ::cuda::std::conditional_t<k == 0, bool, T>;
  template <class T> static constexpr bool supports = true;
  template <class T>
  NPGPU_HD T operator()(bool c, T a, T b) const { return c ? a : b; }
};

struct ClipOp {  // clip(a, lo, hi) = minimum(maximum(a, lo), hi), NaN-propagating as NumPy's; a kept at ties
  static constexpr int arity = 3;
  template <class T> using result = T;
  template <class T, int k> using input = T;
  template <class T> static constexpr bool supports = true;
  template <class T>
  NPGPU_HD T operator()(T a, T lo, T hi) const {
    return Extremum<false, true>{}(Extremum<true, true>{}(a, lo), hi);
  }
};

struct AxpyOp {  // alpha * x + y, the rounding of a multiply then an add (NumPy's), not a fused fma
  static constexpr int arity = 3;
  template <class T> using result = T;
  template <class T, int k> using input = T;
  template <class T> static constexpr bool supports = ew::is_number<T>;
  template <class T>
  NPGPU_HD T operator()(T alpha, T x, T y) const {
    if constexpr (ew::is_float<T>) {
#if defined(__CUDA_ARCH__)
      if constexpr (::cuda::std::is_same_v<T, float>) return __fadd_rn(__fmul_rn(alpha, x), y);
      else return __dadd_rn(__dmul_rn(alpha, x), y);
#else
      return alpha * x + y;
#endif
    } else {
      return AddOp{}(MultiplyOp{}(alpha, x), y);
    }
  }
};

// fn(Op{}) for a runtime ElementwiseOp. With Arity > 0 only the operations of that arity are instantiated,
// and of those only part `Part` of `Parts` (operation code % Parts == Part): the CUDA backend compiles its
// loops in several files to bound compile time and memory. Others throw.
template <int Arity = 0, int Parts = 1, int Part = 0, class Fn>
void dispatch_elementwise_op(ElementwiseOp op, Fn&& fn) {
  switch (op) {
#define NPGPU_OP_CASE(Name)                                                                     \
  case ElementwiseOp::Name:                                                                     \
    if constexpr ((Arity == 0 || Name##Op::arity == Arity) &&                                   \
                  static_cast<int>(ElementwiseOp::Name) % Parts == Part) {                      \
      fn(Name##Op{});                                                                           \
      return;                                                                                   \
    }                                                                                           \
    break;
    NPGPU_ELEMENTWISE_OPS(NPGPU_OP_CASE)
#undef NPGPU_OP_CASE
  }
  throw InvalidArgument("elementwise operation code " + std::to_string(static_cast<int>(op)) +
                        " is unknown or has another arity");
}

}  // namespace npgpu::detail
