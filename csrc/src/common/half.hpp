#pragma once
// Internal: float16 and bfloat16 as storage types usable in kernels and on the host. Arithmetic happens in
// float (NumPy's float16 loops do the same and round once on store); these types only convert, with
// round-to-nearest-even, so both backends give NumPy's bits.
#include <cstdint>

#include "common/bits.hpp"
#include "common/hd.hpp"

namespace npgpu::detail {

// Round a binary64 value to IEEE half bits (nearest, ties to even), as NumPy's npy_double_to_half.
NPGPU_HD std::uint16_t double_to_half_bits(double d) {
  const std::uint64_t x = double_bits(d);
  const std::uint16_t sign = static_cast<std::uint16_t>((x >> 48) & 0x8000u);
  const int exp = static_cast<int>((x >> 52) & 0x7ff);
  std::uint64_t man = x & 0xfffffffffffffull;
  if (exp == 0x7ff) {  // inf or NaN (NaN keeps a quiet payload bit)
    if (man == 0) return sign | 0x7c00u;
    return static_cast<std::uint16_t>(sign | 0x7e00u | static_cast<std::uint16_t>(man >> 42));
  }
  const int e = exp - 1023 + 15;  // biased half exponent
  if (e >= 31) return sign | 0x7c00u;  // overflow to inf
  if (e <= 0) {                        // subnormal half or zero
    if (e < -10) return sign;          // below half the smallest subnormal
    man |= 1ull << 52;                 // implicit bit
    const int shift = 42 + 1 - e;      // keep 10 - (1 - e) bits
    std::uint64_t h = man >> shift;
    const std::uint64_t rem = man & ((1ull << shift) - 1);
    const std::uint64_t half = 1ull << (shift - 1);
    if (rem > half || (rem == half && (h & 1))) ++h;
    return static_cast<std::uint16_t>(sign | h);
  }
  std::uint32_t h = (static_cast<std::uint32_t>(e) << 10) | static_cast<std::uint32_t>(man >> 42);
  const std::uint64_t rem = man & ((1ull << 42) - 1);
  const std::uint64_t half = 1ull << 41;
  if (rem > half || (rem == half && (h & 1))) ++h;  // a carry into the exponent is the right result
  return static_cast<std::uint16_t>(sign | h);
}

NPGPU_HD float half_bits_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1f;
  std::uint32_t man = h & 0x3ffu;
  if (exp == 0x1f) return bits_float(sign | 0x7f800000u | (man << 13));
  if (exp == 0) {
    if (man == 0) return bits_float(sign);
    int e = -1;  // normalise the subnormal
    do {
      ++e;
      man <<= 1;
    } while ((man & 0x400u) == 0);
    return bits_float(sign | (static_cast<std::uint32_t>(127 - 15 - e) << 23) | ((man & 0x3ffu) << 13));
  }
  return bits_float(sign | ((exp + 127 - 15) << 23) | (man << 13));
}

// Round a float to bfloat16 bits (nearest, ties to even; NaN stays NaN), as ml_dtypes does.
NPGPU_HD std::uint16_t float_to_bfloat16_bits(float f) {
  const std::uint32_t u = float_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((u >> 16) | 0x40u);
  return static_cast<std::uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

struct float16 {
  std::uint16_t bits;
  NPGPU_HD float16() = default;
  NPGPU_HD explicit float16(double v) : bits(double_to_half_bits(v)) {}
  NPGPU_HD explicit operator float() const { return half_bits_to_float(bits); }
};

struct bfloat16 {
  std::uint16_t bits;
  NPGPU_HD bfloat16() = default;
  // From double through float: bfloat16 has 8 mantissa bits, so the double rounding float32 adds can only
  // matter for values within 2^-24 relative of a tie; ml_dtypes converts through float the same way.
  NPGPU_HD explicit bfloat16(double v) : bits(float_to_bfloat16_bits(static_cast<float>(v))) {}
  NPGPU_HD explicit operator float() const { return bits_float(static_cast<std::uint32_t>(bits) << 16); }
};

template <class T> struct is_half { static constexpr bool value = false; };
template <> struct is_half<float16> { static constexpr bool value = true; };
template <> struct is_half<bfloat16> { static constexpr bool value = true; };

}  // namespace npgpu::detail
