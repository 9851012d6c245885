#pragma once
// Internal: the per-element pieces of the reductions and scans, shared by the CUDA kernels and the host
// backend: loaders (an element of a runtime dtype -> the compute type, with an optional pre-transform),
// reducers (identity + an associative, commutative combine), and the finishing step (count division,
// sqrt, index base) that stores a result converted to the output dtype.
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "common/bits.hpp"
#include "common/complex.hpp"
#include "common/convert.hpp"
#include "common/hd.hpp"
#include "npgpu/dtype.hpp"

namespace npgpu::detail {

// What is combined: the reducer's kind and its compute type.
enum class RKind : int { Add, Mul, Min, Max, NanMin, NanMax, ArgMin, ArgMax, Welford };
enum class RType : int { U64, I64, F64, C128 };
// Applied to each element as it is loaded.
enum class Pre : int { None, Abs, AbsSq, Nonzero, NanToZero, NanToOne };
// Applied to each result before it is stored.
enum class Fin : int { None, Mean, Var, Std, Sqrt, Index };

struct FinParams {
  Fin fin = Fin::None;
  double count = 0;   // elements per output (Mean)
  double ddof = 0;    // Var/Std
  // Integer sums and products run in uint64 (wrapping); a signed accumulator dtype reads the result as int64
  // when it is stored into a floating or complex output.
  bool signed_int = false;
};

// ------------------------------------------------------------------------------------------------ loaders

NPGPU_HD bool is_signed_or_float(DType d) {
  return d == DType::Int8 || d == DType::Int16 || d == DType::Int32 || d == DType::Int64 ||
         d == DType::Float32 || d == DType::Float64 || d == DType::Float16 || d == DType::BFloat16 ||
         d == DType::Complex64 || d == DType::Complex128;
}

template <class T>
NPGPU_HD bool isnan_v(T v) {
  if constexpr (is_complex<T>::value) return v.re != v.re || v.im != v.im;
  else return v != v;
}

// Element at p (dtype d) as the compute type T (64-bit integers wrap as two's complement).
template <class T>
NPGPU_HD T load_conv(const void* p, DType d) {
  if constexpr (std::is_same_v<T, std::uint64_t>) {
    if (is_signed_or_float(d)) return static_cast<std::uint64_t>(load_as<std::int64_t>(p, d));
    return load_as<std::uint64_t>(p, d);
  } else {
    return load_as<T>(p, d);
  }
}

template <class T>
NPGPU_HD T load_pre(const void* p, DType d, Pre pre) {
  switch (pre) {
    case Pre::None: break;
    case Pre::Nonzero: return static_cast<T>(load_as<bool>(p, d) ? 1 : 0);
    case Pre::Abs:
    case Pre::AbsSq:
      if constexpr (std::is_same_v<T, double>) {
        const complex128 c = load_as<complex128>(p, d);
        if (pre == Pre::AbsSq) return c.re * c.re + c.im * c.im;
        return c.im == 0 ? std::fabs(c.re) : std::hypot(c.re, c.im);
      }
      break;
    case Pre::NanToZero:
    case Pre::NanToOne: {
      const T v = load_conv<T>(p, d);
      if constexpr (std::is_same_v<T, double> || is_complex<T>::value) {
        if (isnan_v(v)) return T(pre == Pre::NanToZero ? 0.0 : 1.0);
      }
      return v;
    }
  }
  return load_conv<T>(p, d);
}

// ------------------------------------------------------------------------------------------------ reducers

template <class T>
struct ArgPair {
  std::int64_t idx;
  T val;
};

struct WelfordAcc {
  double n, mean, m2;
};

template <class T>
NPGPU_HD constexpr T lowest_of() {
  if constexpr (std::is_same_v<T, double>) return -std::numeric_limits<double>::infinity();
  else return std::numeric_limits<T>::lowest();
}
template <class T>
NPGPU_HD constexpr T highest_of() {
  if constexpr (std::is_same_v<T, double>) return std::numeric_limits<double>::infinity();
  else return std::numeric_limits<T>::max();
}

template <class T>
struct AddR {
  using Acc = T;
  using Val = T;
  NPGPU_HD static Acc identity() { return T(0); }
  NPGPU_HD static Acc make(T v, std::int64_t) { return v; }
  NPGPU_HD Acc operator()(const Acc& a, const Acc& b) const { return a + b; }
};

template <class T>
struct MulR {
  using Acc = T;
  using Val = T;
  NPGPU_HD static Acc identity() { return T(1); }
  NPGPU_HD static Acc make(T v, std::int64_t) { return v; }
  NPGPU_HD Acc operator()(const Acc& a, const Acc& b) const { return a * b; }
};

// min / max propagating NaN (the first operand that is NaN wins; any NaN gives NaN). Between equal values
// (-0.0 and 0.0) the later one wins, as in NumPy's loops (max([-0.0, 0.0]) is 0.0, max([0.0, -0.0]) -0.0);
// nanmin / nanmax keep the earlier one, as NumPy's fmin / fmax do.
template <class T>
struct MinR {
  using Acc = T;
  using Val = T;
  NPGPU_HD static Acc identity() { return highest_of<T>(); }
  NPGPU_HD static Acc make(T v, std::int64_t) { return v; }
  NPGPU_HD Acc operator()(const Acc& a, const Acc& b) const {
    if constexpr (std::is_same_v<T, double>) {
      if (a != a) return a;
      if (b != b) return b;
    }
    return a < b ? a : b;
  }
};

template <class T>
struct MaxR {
  using Acc = T;
  using Val = T;
  NPGPU_HD static Acc identity() { return lowest_of<T>(); }
  NPGPU_HD static Acc make(T v, std::int64_t) { return v; }
  NPGPU_HD Acc operator()(const Acc& a, const Acc& b) const {
    if constexpr (std::is_same_v<T, double>) {
      if (a != a) return a;
      if (b != b) return b;
    }
    return b < a ? a : b;
  }
};

// NaN-ignoring min / max (float64): the identity is NaN, so a slice of NaNs only gives NaN.
struct NanMinR {
  using Acc = double;
  using Val = double;
  NPGPU_HD static Acc identity() { return std::numeric_limits<double>::quiet_NaN(); }
  NPGPU_HD static Acc make(double v, std::int64_t) { return v; }
  NPGPU_HD Acc operator()(const Acc& a, const Acc& b) const {
    if (a != a) return b;
    if (b != b) return a;
    return b < a ? b : a;
  }
};

struct NanMaxR {
  using Acc = double;
  using Val = double;
  NPGPU_HD static Acc identity() { return std::numeric_limits<double>::quiet_NaN(); }
  NPGPU_HD static Acc make(double v, std::int64_t) { return v; }
  NPGPU_HD Acc operator()(const Acc& a, const Acc& b) const {
    if (a != a) return b;
    if (b != b) return a;
    return a < b ? b : a;
  }
};

// The CUDA backend's float64 max / min (SkipNaN false) and nanmax / nanmin (true). Its kernels combine
// elements in no fixed order, so the sign of a zero result cannot come from the value's tie rule; it comes
// from z, index * 2 + sign bit of the last zero (max / min: NumPy's later-of-equal) or of the first one
// (nanmax / nanmin: earlier-of-equal), combined by max or min, which any order gives alike.
struct ZeroSignAcc {
  double v;
  std::int64_t z;
};

template <bool IsMax, bool SkipNaN>
struct ZeroSignExtremumR {
  using Acc = ZeroSignAcc;
  using Val = double;
  using ValueR = std::conditional_t<SkipNaN, std::conditional_t<IsMax, NanMaxR, NanMinR>,
                                    std::conditional_t<IsMax, MaxR<double>, MinR<double>>>;
  static constexpr std::int64_t kNoZero = SkipNaN ? std::numeric_limits<std::int64_t>::max() : -1;
  NPGPU_HD static Acc identity() { return {ValueR::identity(), kNoZero}; }
  NPGPU_HD static std::int64_t zero_key(double v, std::int64_t i) {
    return v == 0 ? 2 * i + static_cast<std::int64_t>(double_bits(v) >> 63) : kNoZero;
  }
  NPGPU_HD static Acc make(double v, std::int64_t i) { return {v, zero_key(v, i)}; }
  NPGPU_HD Acc operator()(const Acc& a, const Acc& b) const {
    const std::int64_t z = SkipNaN ? (b.z < a.z ? b.z : a.z) : (b.z > a.z ? b.z : a.z);
    return {ValueR{}(a.v, b.v), z};
  }
};

// argmin / argmax: the first index of the extremum; NaN (float64) beats every number, the first NaN wins.
template <class T, bool IsMax>
struct ArgR {
  using Acc = ArgPair<T>;
  using Val = T;
  NPGPU_HD static Acc identity() {
    return Acc{std::numeric_limits<std::int64_t>::max(), IsMax ? lowest_of<T>() : highest_of<T>()};
  }
  NPGPU_HD static Acc make(T v, std::int64_t i) { return Acc{i, v}; }
  NPGPU_HD Acc operator()(const Acc& a, const Acc& b) const {
    if constexpr (std::is_same_v<T, double>) {
      const bool na = a.val != a.val, nb = b.val != b.val;
      if (na || nb) {
        if (na && nb) return a.idx <= b.idx ? a : b;
        return na ? a : b;
      }
    }
    if (IsMax ? (a.val > b.val) : (a.val < b.val)) return a;
    if (IsMax ? (b.val > a.val) : (b.val < a.val)) return b;
    return a.idx <= b.idx ? a : b;
  }
};
template <class T> using ArgMinR = ArgR<T, false>;
template <class T> using ArgMaxR = ArgR<T, true>;

// (count, mean, M2) merged with Chan et al.'s formula. make() of a NaN gives count 0 when NaNs are skipped
// (the NaN-skipping variant is chosen by the loader: NaN loads become a "skip" marker).
struct WelfordR {
  using Acc = WelfordAcc;
  using Val = double;
  NPGPU_HD static Acc identity() { return Acc{0.0, 0.0, 0.0}; }
  NPGPU_HD static Acc make(double v, std::int64_t) { return Acc{1.0, v, 0.0}; }
  NPGPU_HD Acc operator()(const Acc& a, const Acc& b) const {
    if (a.n == 0) return b;
    if (b.n == 0) return a;
    const double n = a.n + b.n;
    const double delta = b.mean - a.mean;
    const double f = b.n / n;
    return Acc{n, a.mean + delta * f, a.m2 + b.m2 + delta * delta * a.n * f};
  }
};

// Welford make() that skips NaN (count 0).
NPGPU_HD WelfordAcc welford_make(double v, bool skip_nan) {
  if (skip_nan && v != v) return WelfordAcc{0.0, 0.0, 0.0};
  return WelfordAcc{1.0, v, 0.0};
}

// ------------------------------------------------------------------------------------------------ finishing

template <class T>
NPGPU_HD void finish_store(void* p, DType od, const T& v, const FinParams& f, std::int64_t) {
  if constexpr (is_complex<T>::value) {
    if (f.fin == Fin::Mean) {
      store_as<T>(p, od, T(v.re / f.count, v.im / f.count));
      return;
    }
    store_as<T>(p, od, v);
  } else if constexpr (std::is_same_v<T, double>) {
    double r = v;
    if (f.fin == Fin::Mean) r = v / f.count;
    else if (f.fin == Fin::Sqrt) r = std::sqrt(v);
    store_as<double>(p, od, r);
  } else {
    if (f.fin == Fin::Mean) {
      store_as<double>(p, od, static_cast<double>(static_cast<std::int64_t>(v)) / f.count);
      return;
    }
    if constexpr (std::is_same_v<T, std::uint64_t>) {
      if (f.signed_int) {
        store_as<std::int64_t>(p, od, static_cast<std::int64_t>(v));
        return;
      }
    }
    store_as<T>(p, od, v);
  }
}

template <class T>
NPGPU_HD void finish_store(void* p, DType od, const ArgPair<T>& v, const FinParams&, std::int64_t idx_base) {
  store_as<std::int64_t>(p, od, v.idx - idx_base);
}

NPGPU_HD void finish_store(void* p, DType od, const ZeroSignAcc& a, const FinParams&, std::int64_t) {
  store_as<double>(p, od, a.v == 0 ? bits_double(static_cast<std::uint64_t>(a.z & 1) << 63) : a.v);
}

NPGPU_HD void finish_store(void* p, DType od, const WelfordAcc& v, const FinParams& f, std::int64_t) {
  double r;
  if (f.fin == Fin::Mean) {
    r = v.n == 0 ? std::numeric_limits<double>::quiet_NaN() : v.mean;
  } else {
    const double d = v.n - f.ddof;
    r = v.m2 / (d > 0 ? d : 0.0);
    // No elements, or an infinite / NaN element (x - mean is then NaN for some x, as in NumPy's two passes).
    if (v.n == 0 || !(std::fabs(v.mean) <= std::numeric_limits<double>::max()))
      r = std::numeric_limits<double>::quiet_NaN();
    if (f.fin == Fin::Std) r = std::sqrt(r);
  }
  store_as<double>(p, od, r);
}

// ------------------------------------------------------------------------------------------------ scans

template <class T>
struct ScanAdd {
  NPGPU_HD T operator()(const T& a, const T& b) const { return a + b; }
};
template <class T>
struct ScanMul {
  NPGPU_HD T operator()(const T& a, const T& b) const { return a * b; }
};

}  // namespace npgpu::detail
