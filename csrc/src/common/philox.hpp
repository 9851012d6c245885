#pragma once
// Internal: the counter-based Philox4x32-10 generator (Salmon et al., "Parallel random numbers: as easy as
// 1, 2, 3", SC'11; the algorithm of Random123 and of cuRAND's Philox) and everything the random family
// computes per value, written once as NPGPU_HD code so the CUDA kernels and the host backend produce the
// same bits. Floating-point steps go through fp_mul/fp_add/fp_fma: on the device they are the _rn
// intrinsics, which nvcc never contracts into FMAs, and on the host plain IEEE operations and std::fma, so
// both sides perform the identical sequence of correctly rounded operations. No libm transcendental is
// used (CUDA's and glibc's logs differ in the last bit): log and sincos below are polynomials over those
// basic operations.
//
// Also declares the backends of random.cpp (common/backends.hpp belongs to the elementwise family).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "common/bits.hpp"
#include "common/hd.hpp"
#include "common/ziggurat_tables.hpp"
#include "npgpu/random.hpp"
#include "npgpu/runtime.hpp"
#include "npgpu/view.hpp"

#if defined(__CUDACC__)
#define NPGPU_RNG_UNROLL _Pragma("unroll")
#else
#define NPGPU_RNG_UNROLL
#endif

namespace npgpu::detail {

// ---------------------------------------------------------------------------------------- Philox4x32-10

constexpr std::uint32_t kPhiloxM0 = 0xD2511F53u;
constexpr std::uint32_t kPhiloxM1 = 0xCD9E8D57u;
constexpr std::uint32_t kPhiloxW0 = 0x9E3779B9u;  // golden ratio
constexpr std::uint32_t kPhiloxW1 = 0xBB67AE85u;  // sqrt(3) - 1

// The counter's word 3 separates the uses of one key: the Generator's stream, the extra blocks that
// rejection sampling draws for one element, and monte_carlo_pi.
constexpr std::uint32_t kDomainStream = 0u;
constexpr std::uint32_t kDomainRetry = 1u;
constexpr std::uint32_t kDomainPi = 0x70690000u;  // "pi"

struct Philox4 {
  std::uint32_t v[4];
};

NPGPU_HD std::uint32_t mulhi32(std::uint32_t a, std::uint32_t b) {
#if defined(__CUDA_ARCH__)
  return __umulhi(a, b);
#else
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(a) * b) >> 32);
#endif
}

NPGPU_HD std::uint64_t mulhi64(std::uint64_t a, std::uint64_t b) {
#if defined(__CUDA_ARCH__)
  return __umul64hi(a, b);
#else
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
#endif
}

// One Philox4x32-10 evaluation: 10 rounds of two 32x32->64 multiplies, the key bumped between rounds.
NPGPU_HD Philox4 philox4x32_10(std::uint32_t c0, std::uint32_t c1, std::uint32_t c2, std::uint32_t c3,
                               std::uint32_t k0, std::uint32_t k1) {
  NPGPU_RNG_UNROLL
  for (int r = 0; r < 10; ++r) {
    const std::uint32_t lo0 = kPhiloxM0 * c0, hi0 = mulhi32(kPhiloxM0, c0);
    const std::uint32_t lo1 = kPhiloxM1 * c2, hi1 = mulhi32(kPhiloxM1, c2);
    const std::uint32_t n0 = hi1 ^ c1 ^ k0;
    const std::uint32_t n2 = hi0 ^ c3 ^ k1;
    c0 = n0, c1 = lo1, c2 = n2, c3 = lo0;
    k0 += kPhiloxW0, k1 += kPhiloxW1;
  }
  return Philox4{{c0, c1, c2, c3}};
}

// The ten round keys of a 64-bit key, for kernels that take them as parameters (constant-bank operands
// of the XORs instead of a key schedule recomputed per call).
struct PhiloxRoundKeys {
  std::uint32_t k0[10], k1[10];
};

NPGPU_HD PhiloxRoundKeys philox_round_keys(std::uint64_t key) {
  PhiloxRoundKeys rk{};
  std::uint32_t k0 = static_cast<std::uint32_t>(key), k1 = static_cast<std::uint32_t>(key >> 32);
  for (int r = 0; r < 10; ++r) {
    rk.k0[r] = k0, rk.k1[r] = k1;
    k0 += kPhiloxW0, k1 += kPhiloxW1;
  }
  return rk;
}

// philox4x32_10 with precomputed round keys (the same function).
NPGPU_HD Philox4 philox4x32_10_rk(std::uint32_t c0, std::uint32_t c1, std::uint32_t c2, std::uint32_t c3,
                                  const PhiloxRoundKeys& rk) {
  NPGPU_RNG_UNROLL
  for (int r = 0; r < 10; ++r) {
    const std::uint32_t lo0 = kPhiloxM0 * c0, hi0 = mulhi32(kPhiloxM0, c0);
    const std::uint32_t lo1 = kPhiloxM1 * c2, hi1 = mulhi32(kPhiloxM1, c2);
    const std::uint32_t n0 = hi1 ^ c1 ^ rk.k0[r];
    const std::uint32_t n2 = hi0 ^ c3 ^ rk.k1[r];
    c0 = n0, c1 = lo1, c2 = n2, c3 = lo0;
  }
  return Philox4{{c0, c1, c2, c3}};
}

// Block `block` (a 64-bit index) of domain `domain` under a 64-bit key.
NPGPU_HD Philox4 philox_block(std::uint64_t key, std::uint64_t block, std::uint32_t word2 = 0,
                              std::uint32_t domain = kDomainStream) {
  return philox4x32_10(static_cast<std::uint32_t>(block), static_cast<std::uint32_t>(block >> 32), word2, domain,
                       static_cast<std::uint32_t>(key), static_cast<std::uint32_t>(key >> 32));
}

// ------------------------------------------------------------------- identical floating point, both sides

NPGPU_HD double fp_mul(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
NPGPU_HD double fp_add(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}
NPGPU_HD double fp_fma(double a, double b, double c) {
#if defined(__CUDA_ARCH__)
  return __fma_rn(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}
NPGPU_HD double fp_div(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __ddiv_rn(a, b);
#else
  return a / b;
#endif
}
NPGPU_HD double fp_sqrt(double a) {
#if defined(__CUDA_ARCH__)
  return __dsqrt_rn(a);
#else
  return std::sqrt(a);
#endif
}
NPGPU_HD float fp_mulf(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}
NPGPU_HD float fp_fmaf(float a, float b, float c) {
#if defined(__CUDA_ARCH__)
  return __fmaf_rn(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}
NPGPU_HD float fp_addf(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fadd_rn(a, b);
#else
  return a + b;
#endif
}
NPGPU_HD float fp_divf(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fdiv_rn(a, b);
#else
  return a / b;
#endif
}
NPGPU_HD float fp_sqrtf(float a) {
#if defined(__CUDA_ARCH__)
  return __fsqrt_rn(a);
#else
  return std::sqrt(a);
#endif
}

// ------------------------------------------------------------------------------- uniform floats from bits

// [0, 1) in steps of 2^-24 (the word's top 24 bits): exact in float32.
NPGPU_HD float unit_float(std::uint32_t w) { return fp_mulf(static_cast<float>(w >> 8), 0x1p-24f); }
// [0, 1) in steps of 2^-53 (the top 53 bits of a 64-bit value): exact in float64.
NPGPU_HD double unit_double(std::uint64_t x) { return fp_mul(static_cast<double>(x >> 11), 0x1p-53); }
NPGPU_HD std::uint64_t join64(std::uint32_t lo, std::uint32_t hi) {
  return static_cast<std::uint64_t>(lo) | (static_cast<std::uint64_t>(hi) << 32);
}

// ------------------------------------------------------------------------------------- log and sincos

// Natural log of x in (0, 1], x normal. x = 2^e m with m in [sqrt(1/2), sqrt(2)); log m = 2 atanh(s),
// s = (m - 1) / (m + 1), |s| < 0.1716, from its series to s^25 (truncation < 1e-20). Error about 1 ulp.
NPGPU_HD double log_unit(double x) {
  const std::uint64_t b = double_bits(x);
  int e = static_cast<int>((b >> 52) & 0x7FF) - 1023;
  double m = bits_double((b & 0x000FFFFFFFFFFFFFull) | 0x3FF0000000000000ull);  // [1, 2)
  if (m > 1.4142135623730951) {
    m = fp_mul(m, 0.5);
    e += 1;
  }
  const double s = fp_div(fp_add(m, -1.0), fp_add(m, 1.0));
  const double z = fp_mul(s, s);
  double p = 1.0 / 25;
  p = fp_fma(p, z, 1.0 / 23);
  p = fp_fma(p, z, 1.0 / 21);
  p = fp_fma(p, z, 1.0 / 19);
  p = fp_fma(p, z, 1.0 / 17);
  p = fp_fma(p, z, 1.0 / 15);
  p = fp_fma(p, z, 1.0 / 13);
  p = fp_fma(p, z, 1.0 / 11);
  p = fp_fma(p, z, 1.0 / 9);
  p = fp_fma(p, z, 1.0 / 7);
  p = fp_fma(p, z, 1.0 / 5);
  p = fp_fma(p, z, 1.0 / 3);
  // log m = 2s + 2s z p(z)
  const double two_s = fp_add(s, s);
  const double logm = fp_fma(fp_mul(two_s, z), p, two_s);
  const double de = static_cast<double>(e);
  constexpr double kLn2Hi = 6.93147180369123816490e-01;  // high bits of ln 2 (e * hi is exact)
  constexpr double kLn2Lo = 1.90821492927058770002e-10;
  return fp_add(fp_fma(de, kLn2Hi, 0.0), fp_fma(de, kLn2Lo, logm));
}

// sin and cos of 2 pi t for t in [0, 1): t = q/4 + f with |f| <= 1/8 (exact), Taylor series of the angle
// 2 pi f in [-pi/4, pi/4] to degree 18 (truncation < 1e-19), then the quadrant's rotation.
NPGPU_HD void sincos_2pi(double t, double* s_out, double* c_out) {
  const double q = static_cast<double>(static_cast<int>(fp_add(fp_mul(t, 4.0), 0.5)));  // round(4t), 0..4
  const double f = fp_fma(q, -0.25, t);                                                // exact
  constexpr double k2PiHi = 6.28318530717958623200e+00;
  constexpr double k2PiLo = 2.44929359829470635445e-16;
  const double a = fp_fma(f, k2PiHi, fp_mul(f, k2PiLo));
  const double a2 = fp_mul(a, a);
  double ps = -1.0 / 355687428096000.0;  // -1/17!
  ps = fp_fma(ps, a2, 1.0 / 1307674368000.0);
  ps = fp_fma(ps, a2, -1.0 / 6227020800.0);
  ps = fp_fma(ps, a2, 1.0 / 39916800.0);
  ps = fp_fma(ps, a2, -1.0 / 362880.0);
  ps = fp_fma(ps, a2, 1.0 / 5040.0);
  ps = fp_fma(ps, a2, -1.0 / 120.0);
  ps = fp_fma(ps, a2, 1.0 / 6.0);
  const double sn = fp_fma(-fp_mul(a, a2), ps, a);  // a - a^3 (1/6 - a^2/120 + ...)
  double pc = 1.0 / 6402373705728000.0;  // 1/18!
  pc = fp_fma(pc, a2, -1.0 / 20922789888000.0);
  pc = fp_fma(pc, a2, 1.0 / 87178291200.0);
  pc = fp_fma(pc, a2, -1.0 / 479001600.0);
  pc = fp_fma(pc, a2, 1.0 / 3628800.0);
  pc = fp_fma(pc, a2, -1.0 / 40320.0);
  pc = fp_fma(pc, a2, 1.0 / 720.0);
  pc = fp_fma(pc, a2, -1.0 / 24.0);
  pc = fp_fma(pc, a2, 0.5);
  const double cs = fp_fma(-a2, pc, 1.0);  // 1 - a^2 (1/2 - a^2/24 + ...)
  switch (static_cast<int>(q) & 3) {
    case 0: *s_out = sn, *c_out = cs; break;
    case 1: *s_out = cs, *c_out = -sn; break;
    case 2: *s_out = -sn, *c_out = -cs; break;
    default: *s_out = -cs, *c_out = sn; break;
  }
}

// Box-Muller: two independent standard normals from u1 in (0, 1] and u2 in [0, 1).
NPGPU_HD void box_muller(double u1, double u2, double* z0, double* z1) {
  const double r = fp_sqrt(fp_mul(-2.0, log_unit(u1)));
  double s, c;
  sincos_2pi(u2, &s, &c);
  *z0 = fp_mul(r, c);
  *z1 = fp_mul(r, s);
}

// Float32 counterparts for the float32 (and narrower) normals, at float32 precision and a fraction of the
// float64 path's cost. They avoid int <-> float conversions, which issue at an eighth of the FMA rate on the
// GPU: words become floats through the 2^23 trick (exact), quadrants and exponents are read from float bits.

// w 2^-32 + c rounded once to float32 (c = 0 or 2^-33): the halves of w are exact floats, the inner FMA is
// exact (at most 17 significant bits), the outer one rounds.
NPGPU_HD float word_scaled(std::uint32_t w, float c) {
  const float hi = fp_addf(bits_float(0x4B000000u | (w >> 16)), -8388608.0f);
  const float lo = fp_addf(bits_float(0x4B000000u | (w & 0xFFFFu)), -8388608.0f);
  return fp_fmaf(hi, 0x1p-16f, fp_fmaf(lo, 0x1p-32f, c));
}

// -2 log(u1) for u1 = (w + 1/2) 2^-32: as log_unit, with the series of 2 atanh(s) to s^11 (truncation < 3e-9).
// Near 1 (u1 >= 3/4) the log is log1p(-v) with v = 1 - u1 formed from ~w, s = -v / (2 - v): u1 itself,
// rounded to float32, would leave small radii only 2^-12 apart.
NPGPU_HD float minus_two_log_unitf(std::uint32_t w) {
  const bool near1 = w >= 0xC0000000u;
  const float u = word_scaled(w, 0x1p-33f);
  const float v = word_scaled(~w, 0x1p-33f);  // (2^32 - 1 - w + 1/2) 2^-32
  const std::uint32_t b = float_bits(u);
  std::uint32_t biased = (b >> 23) & 0xFFu;
  float m = bits_float((b & 0x007FFFFFu) | 0x3F800000u);  // [1, 2)
  if (m > 1.41421356f) {
    m = fp_mulf(m, 0.5f);
    biased += 1;
  }
  const float e = fp_addf(bits_float(0x4B000000u | biased), -8388735.0f);  // biased - 127, exact
  const float num = near1 ? -v : fp_addf(m, -1.0f);                        // m - 1 exact
  const float den = near1 ? fp_addf(2.0f, -v) : fp_addf(m, 1.0f);
  const float de = near1 ? 0.0f : e;
  const float s = fp_divf(num, den);
  const float z = fp_mulf(s, s);
  float p = 1.0f / 11;
  p = fp_fmaf(p, z, 1.0f / 9);
  p = fp_fmaf(p, z, 1.0f / 7);
  p = fp_fmaf(p, z, 1.0f / 5);
  p = fp_fmaf(p, z, 1.0f / 3);
  const float two_s = fp_addf(s, s);
  const float logm = fp_fmaf(fp_mulf(two_s, z), p, two_s);
  constexpr float kLn2Hi = 0.693145751953125f;  // 16 bits: e * kLn2Hi is exact
  constexpr float kLn2Lo = 1.4286068203094172e-06f;
  return fp_mulf(-2.0f, fp_addf(fp_mulf(de, kLn2Hi), fp_fmaf(de, kLn2Lo, logm)));
}

// sin and cos of 2 pi t, t = w 2^-32 rounded to float32: as sincos_2pi, Taylor series to degree 9 / 10.
NPGPU_HD void sincos_2pi_f(std::uint32_t w, float* s_out, float* c_out) {
  const float t = word_scaled(w, 0.0f);                    // [0, 1]
  const float r = fp_addf(fp_mulf(t, 4.0f), 12582912.0f);  // 1.5 2^23 + round(4t): ulp 1 there
  const std::uint32_t quadrant = float_bits(r) & 3u;
  const float f = fp_fmaf(fp_addf(r, -12582912.0f), -0.25f, t);  // t - round(4t) / 4, exact
  constexpr float k2PiHi = 6.28318548f;
  constexpr float k2PiLo = -1.7484556000744883e-07f;
  const float a = fp_fmaf(f, k2PiHi, fp_mulf(f, k2PiLo));
  const float a2 = fp_mulf(a, a);
  float ps = -1.0f / 362880;
  ps = fp_fmaf(ps, a2, 1.0f / 5040);
  ps = fp_fmaf(ps, a2, -1.0f / 120);
  ps = fp_fmaf(ps, a2, 1.0f / 6);
  const float sn = fp_fmaf(-fp_mulf(a, a2), ps, a);
  float pc = 1.0f / 3628800;
  pc = fp_fmaf(pc, a2, -1.0f / 40320);
  pc = fp_fmaf(pc, a2, 1.0f / 720);
  pc = fp_fmaf(pc, a2, -1.0f / 24);
  pc = fp_fmaf(pc, a2, 0.5f);
  const float cs = fp_fmaf(-a2, pc, 1.0f);
  const bool swap = quadrant & 1u;
  const float s1 = swap ? cs : sn, c1 = swap ? sn : cs;  // quadrant 1: (cos, -sin); 2: (-sin, -cos); 3: (-cos, sin)
  *s_out = quadrant >= 2u ? -s1 : s1;
  *c_out = (quadrant == 1u || quadrant == 2u) ? -c1 : c1;
}

// ------------------------------------------------------------------- float32 normals by the ziggurat
//
// Stream version 2 (the default): a float32 standard normal from one word by Marsaglia and Tsang's
// 256-layer ziggurat, as NumPy's float32 normals: bits 0-7 pick the layer, bit 8 the sign, bits 9-31 the
// magnitude m; z = +-(m 2^-23) width[layer]. Most words lie in their layer's core and need nothing
// more; the others go through the wedge or tail test, whose further words come from the element's
// retry blocks (counter (W, k, 0, kDomainRetry), W the element's word index, k = 1, 2, ...), so each
// element stays a pure function of its own word index.

struct alignas(8) ZigguratLayer {  // one 8-byte load a lookup
  std::uint32_t width_bits;  // float32 bits of the right edge of the layer's rectangle
  std::uint32_t core;        // magnitudes below this are inside the layer under the curve
};

inline constexpr ZigguratLayer kZigguratLayers[256] = {NPGPU_ZIGGURAT_LAYERS};
inline constexpr std::uint32_t kZigguratHeightBits[256] = {NPGPU_ZIGGURAT_HEIGHT_BITS};

// The value of word w in its layer (width_bits, core); true when it is accepted as it is.
NPGPU_HD bool ziggurat_core(std::uint32_t w, std::uint32_t width_bits, std::uint32_t core, float* z) {
  const std::uint32_t mag = w >> 9;
  const float width = bits_float(width_bits);
  // (1 + m 2^-23) width - width = m 2^-23 width, rounded once.
  const float x = fp_fmaf(bits_float(0x3F800000u | mag), width, -width);
  *z = bits_float(float_bits(x) ^ ((w << 23) & 0x80000000u));
  return mag < core;
}

// exp(-x^2 / 2) for |x| <= 4: 2^k e^g with k = round(-x^2 / (2 ln 2)), |g| <= ln 2 / 2, Taylor to g^7
// (truncation < 4e-9).
NPGPU_HD float exp_neg_half_squaref(float x) {
  const float t = fp_mulf(fp_mulf(x, x), -0.5f);                 // [-8, 0]
  const float kr = fp_fmaf(t, 1.44269504f, 12582912.0f);       // 1.5 2^23 + round(t / ln 2)
  const float k = fp_addf(kr, -12582912.0f);
  constexpr float kLn2Hi = 0.693145751953125f;  // 16 bits: k * kLn2Hi is exact
  constexpr float kLn2Lo = 1.4286068203094172e-06f;
  const float g = fp_fmaf(k, -kLn2Lo, fp_fmaf(k, -kLn2Hi, t));
  float p = 1.0f / 5040;
  p = fp_fmaf(p, g, 1.0f / 720);
  p = fp_fmaf(p, g, 1.0f / 120);
  p = fp_fmaf(p, g, 1.0f / 24);
  p = fp_fmaf(p, g, 1.0f / 6);
  p = fp_fmaf(p, g, 0.5f);
  p = fp_fmaf(p, g, 1.0f);
  p = fp_fmaf(p, g, 1.0f);
  // 2^k from k's bits: the low bits of kr hold 2^22 + k.
  const std::uint32_t e = 127u + (float_bits(kr) & 0x7FFFFFu) - 0x400000u;
  return fp_mulf(p, bits_float(e << 23));
}

// Retry block k of stream word `word`, from the key or from its round keys (the same words).
NPGPU_HD Philox4 retry_block(std::uint64_t key, std::uint64_t word, std::uint32_t k) {
  return philox_block(key, word, k, kDomainRetry);
}
NPGPU_HD Philox4 retry_block(const PhiloxRoundKeys& rk, std::uint64_t word, std::uint32_t k) {
  return philox4x32_10_rk(static_cast<std::uint32_t>(word), static_cast<std::uint32_t>(word >> 32), k, kDomainRetry,
                          rk);
}

// The standard normal of word w (word index `word` of the stream under `keys`: the 64-bit key, or its
// round keys where a kernel already holds them), whatever its layer test gives: the fast path's value, or
// the wedge and tail tests with further words from the retry blocks.
template <class Keys>
NPGPU_HD float ziggurat_normal(std::uint32_t w, const Keys& keys, std::uint64_t word, const ZigguratLayer* layers,
                               const std::uint32_t* height_bits) {
  std::uint32_t k = 0;
  Philox4 extra{};
  int lane = 4;
  auto next = [&]() {
    if (lane == 4) extra = retry_block(keys, word, ++k), lane = 0;
    const std::uint32_t v = lane == 0 ? extra.v[0] : lane == 1 ? extra.v[1] : lane == 2 ? extra.v[2] : extra.v[3];
    ++lane;
    return v;
  };
  for (;;) {
    const std::uint32_t i = w & 0xFFu;
    float z;
    if (ziggurat_core(w, layers[i].width_bits, layers[i].core, &z)) return z;
    if (i == 0) {
      // Beyond r: Marsaglia's tail, t = -log(u1) / r accepted when -2 log(u2) > t^2; the value is r + t.
      const float r = bits_float(NPGPU_ZIGGURAT_R_BITS);
      const float half_inv_r = bits_float(NPGPU_ZIGGURAT_HALF_INV_R_BITS);
      for (;;) {
        const float t = fp_mulf(minus_two_log_unitf(next()), half_inv_r);
        if (minus_two_log_unitf(next()) > fp_mulf(t, t)) {
          const float v = fp_addf(r, t);
          return (w & 0x100u) ? -v : v;
        }
      }
    }
    // The wedge: a uniform height in the layer against the curve.
    const float lo = bits_float(height_bits[i]), hi = bits_float(height_bits[i - 1]);
    if (fp_fmaf(unit_float(next()), fp_addf(hi, -lo), lo) < exp_neg_half_squaref(z)) return z;
    w = next();
  }
}

// ----------------------------------------------------------------------------- values of one Philox block
//
// The stream of a Generator is the sequence of 32-bit words w[4j + l] = philox(key = seed, counter =
// (j, 0, 0))[l], j = 0, 1, ... Each value of a 32-bit dtype (and bool, int8, int16) takes one word, each
// value of a 64-bit dtype two (x = w[2m] | w[2m + 1] << 32). A fill of n values that starts at block B
// gives element i the word(s) at 32-bit index 4B + i (or 4B + 2i, 4B + 2i + 1): one Philox block makes
// K = 4 (or 2) consecutive elements, and element i is a pure function of (seed, B, i).

struct FillParams {
  RandomDist dist;
  std::uint64_t key;
  std::uint64_t block0;    // Philox block of element 0 of this fill (the generator's counter + chunk offset)
  double a, b;             // uniform: low, high; normal: loc, scale
  bool unit;               // uniform over [0, 1) exactly: float32 values come straight from unit_float
  std::uint64_t low;       // integers: low, two's complement
  std::uint64_t range_m1;  // integers: high - low - 1
  int version;             // the stream's version (RandomSpec::version)
};

template <class T>
struct ValuesPerBlock {
  static constexpr int value = sizeof(T) == 8 ? 2 : 4;
};

// Unbiased integer in [0, range_m1] from 32-bit words (range_m1 < 2^32): Lemire's multiply-and-reject
// ("Fast random integer generation in an interval", 2019). The first word is the element's own stream
// word; the rare rejected draws continue with retry blocks (counter = (W, k, kDomainRetry), W the
// element's 64-bit word index, k = 1, 2, ...), which no other element or call ever uses.
NPGPU_HD std::uint64_t bounded32(std::uint32_t x, std::uint64_t range_m1, std::uint64_t key, std::uint64_t word) {
  const std::uint64_t r = range_m1 + 1;  // <= 2^32
  std::uint64_t m = static_cast<std::uint64_t>(x) * r;
  std::uint32_t l = static_cast<std::uint32_t>(m);
  if (l < r) {
    const std::uint64_t t = ((std::uint64_t(1) << 32) - r) % r;
    std::uint32_t k = 0;
    Philox4 extra{};
    int lane = 4;
    while (l < t) {
      if (lane == 4) extra = philox_block(key, word, ++k, kDomainRetry), lane = 0;
      x = extra.v[lane++];
      m = static_cast<std::uint64_t>(x) * r;
      l = static_cast<std::uint32_t>(m);
    }
  }
  return m >> 32;
}

// Same with 64-bit values (any range_m1; 2^64 - 1 means every value).
NPGPU_HD std::uint64_t bounded64(std::uint64_t x, std::uint64_t range_m1, std::uint64_t key, std::uint64_t word) {
  if (range_m1 == ~std::uint64_t(0)) return x;
  const std::uint64_t r = range_m1 + 1;
  std::uint64_t lo = x * r;
  std::uint64_t hi = mulhi64(x, r);
  if (lo < r) {
    const std::uint64_t t = (0 - r) % r;
    std::uint32_t k = 0;
    Philox4 extra{};
    int lane = 4;
    while (lo < t) {
      if (lane == 4) extra = philox_block(key, word, ++k, kDomainRetry), lane = 0;
      x = join64(extra.v[lane], extra.v[lane + 1]);
      lane += 2;
      lo = x * r;
      hi = mulhi64(x, r);
    }
  }
  return hi;
}

template <class T>
NPGPU_HD T int_value(std::uint64_t low, std::uint64_t off) {
  if constexpr (std::is_same_v<T, bool>) {
    return (low + off) != 0;
  } else {
    return static_cast<T>(low + off);
  }
}

// What a fill computes, fixed at compile time so each kernel carries only its own code.
enum FillMode : int { kFillUnit = 0, kFillUniform = 1, kFillNormal = 2, kFillIntegers = 3, kFillNormalZiggurat = 4 };

// The K values of block `j` of this fill (elements K*j .. K*j + K - 1).
template <class T, int Mode>
NPGPU_HD void block_values(const FillParams& p, std::uint64_t j, T* out) {
  const std::uint64_t block = p.block0 + j;
  const Philox4 w = philox_block(p.key, block);
  constexpr int K = ValuesPerBlock<T>::value;
  if constexpr (Mode == kFillUnit && K == 4) {
NPGPU_RNG_UNROLL
    for (int l = 0; l < 4; ++l) out[l] = unit_float(w.v[l]);
  } else if constexpr (Mode == kFillUnit || Mode == kFillUniform) {
    const double scale = fp_add(p.b, -p.a);
    if constexpr (K == 4) {
NPGPU_RNG_UNROLL
      for (int l = 0; l < 4; ++l)
        out[l] = static_cast<T>(fp_fma(static_cast<double>(unit_float(w.v[l])), scale, p.a));
    } else {
NPGPU_RNG_UNROLL
      for (int l = 0; l < 2; ++l)
        out[l] = static_cast<T>(fp_fma(unit_double(join64(w.v[2 * l], w.v[2 * l + 1])), scale, p.a));
    }
  } else if constexpr (Mode == kFillNormalZiggurat) {  // float32, stream version 2 (host only: see cuda/random.cu)
    const bool standard = p.a == 0.0 && p.b == 1.0;
NPGPU_RNG_UNROLL
    for (int l = 0; l < 4; ++l) {
      const float z = ziggurat_normal(w.v[l], p.key, 4 * block + l, kZigguratLayers, kZigguratHeightBits);
      out[l] = standard ? z : static_cast<float>(fp_fma(static_cast<double>(z), p.b, p.a));
    }
  } else if constexpr (Mode == kFillNormal) {  // element pairs (2m, 2m + 1) are one Box-Muller pair
    if constexpr (K == 4) {
      // Float32 arithmetic: u1 = (w + 1/2) 2^-32 in (0, 1), u2 = w 2^-32. loc + scale z in float64 unless it
      // is z itself (a standard normal: the same bits without two float64 conversions a value).
      const bool standard = p.a == 0.0 && p.b == 1.0;
NPGPU_RNG_UNROLL
      for (int l = 0; l < 4; l += 2) {
        const float r = fp_sqrtf(minus_two_log_unitf(w.v[l]));
        float sn, cs;
        sincos_2pi_f(w.v[l + 1], &sn, &cs);
        const float z0 = fp_mulf(r, cs), z1 = fp_mulf(r, sn);
        out[l] = standard ? static_cast<T>(z0) : static_cast<T>(fp_fma(static_cast<double>(z0), p.b, p.a));
        out[l + 1] = standard ? static_cast<T>(z1) : static_cast<T>(fp_fma(static_cast<double>(z1), p.b, p.a));
      }
    } else {
      const std::uint64_t x1 = join64(w.v[0], w.v[1]), x2 = join64(w.v[2], w.v[3]);
      double z0, z1;
      box_muller(fp_mul(fp_add(static_cast<double>(x1 >> 11), 0.5), 0x1p-53), unit_double(x2), &z0, &z1);
      out[0] = static_cast<T>(fp_fma(z0, p.b, p.a));
      out[1] = static_cast<T>(fp_fma(z1, p.b, p.a));
    }
  } else {  // kFillIntegers
    if constexpr (K == 4) {
NPGPU_RNG_UNROLL
      for (int l = 0; l < 4; ++l)
        out[l] = int_value<T>(p.low, bounded32(w.v[l], p.range_m1, p.key, 4 * block + l));
    } else {
NPGPU_RNG_UNROLL
      for (int l = 0; l < 2; ++l)
        out[l] = int_value<T>(p.low, bounded64(join64(w.v[2 * l], w.v[2 * l + 1]), p.range_m1, p.key,
                                               4 * block + 2 * l));
    }
  }
}

template <int M>
struct FillModeTag {
  static constexpr int value = M;
};

// fn(FillModeTag<Mode>{}) for the mode of p with output type T (only the modes T can take are compiled).
template <class T, class Fn>
void dispatch_fill_mode(const FillParams& p, Fn&& fn) {
  if constexpr (std::is_floating_point_v<T>) {
    if (p.dist == RandomDist::Normal) {
      if constexpr (std::is_same_v<T, float>)
        if (p.version >= 2) return fn(FillModeTag<kFillNormalZiggurat>{});
      return fn(FillModeTag<kFillNormal>{});
    }
    if (p.unit) return fn(FillModeTag<kFillUnit>{});
    return fn(FillModeTag<kFillUniform>{});
  } else if constexpr (std::is_integral_v<T>) {
    return fn(FillModeTag<kFillIntegers>{});
  }
}

// ------------------------------------------------------------------------------------ Monte Carlo pi
//
// Philox call j of monte_carlo_pi (counter (j, 0, 0, kDomainPi), key = seed) gives points 8j .. 8j + 7:
// point 8j + p lies in the cell (kx, ky) of a 256 x 256 grid, kx and ky the low and high bytes of the
// 16-bit half p % 2 of word p / 2 (the low half first). Its full coordinates have 40 bits:
// x = (kx 2^32 + fx + 1/2) 2^-40, y likewise, where fx, fy are words 0 and 1 of Philox(counter = (i, 0, 0,
// kDomainPiFine)) for the point's index i = 8j + p. It is inside when x^2 + y^2 <= 1, decided exactly (in
// integers: X^2 + Y^2 <= 2^82 for X = 2^41 x, odd, so no point lies on the circle itself). The fine words
// are generated only when the cell straddles the circle (about 1 point in 128): every other cell is wholly
// inside ((kx + 1)^2 + (ky + 1)^2 <= 2^16) or wholly outside (kx^2 + ky^2 >= 2^16), decided in integers.
// The count is thus a pure function of (n, seed), whatever shortcuts a backend takes to reach it.
//
// The kernel's fast test looks at q = kx^2 + ky^2 only: q <= kPiSureInside means every point of the cell
// is inside ((kx + 1)^2 + (ky + 1)^2 = q + 2 (kx + ky) + 2 <= q + 722 <= 2^16, as kx + ky <= sqrt(2q) <=
// 360), q >= 2^16 that every point is outside; the cells in between (about 1 in 117) are "candidates",
// settled from the exact tests above (cuda/pi_kernel.cuh).

constexpr std::uint32_t kDomainPiFine = 0x70690001u;
constexpr int kPiPointsPerCall = 8;
constexpr std::uint32_t kPiR2 = 1u << 16;             // the circle's radius squared, in cells
constexpr std::uint32_t kPiSureInside = kPiR2 - 726;  // q <= this: the cell is wholly inside
constexpr std::uint32_t kPiCandidates = kPiR2 - 1 - kPiSureInside;  // q - (kPiSureInside + 1) < this: candidate

// The cell of point p (0..7) of a call's words.
NPGPU_HD std::uint32_t pi_cell_half(const Philox4& w, int p) {
  // Selects instead of w.v[p >> 1]: no local-memory copy of w for a run-time p on the device.
  const std::uint32_t word = (p & 4) ? ((p & 2) ? w.v[3] : w.v[2]) : ((p & 2) ? w.v[1] : w.v[0]);
  return (p & 1) ? (word >> 16) : (word & 0xFFFFu);
}

// Exactly: is point i of cell (kx, ky) inside?
NPGPU_HD std::uint32_t pi_fine_inside(std::uint64_t key, std::uint64_t i, std::uint32_t kx, std::uint32_t ky) {
  const Philox4 f = philox_block(key, i, 0, kDomainPiFine);
  using u128 = unsigned __int128;
  const std::uint64_t X = (((static_cast<std::uint64_t>(kx) << 32) | f.v[0]) << 1) | 1u;  // < 2^41
  const std::uint64_t Y = (((static_cast<std::uint64_t>(ky) << 32) | f.v[1]) << 1) | 1u;
  return static_cast<u128>(X) * X + static_cast<u128>(Y) * Y <= (static_cast<u128>(1) << 82) ? 1u : 0u;
}

// Point i in cell (kx, ky), decided exactly: wholly inside, wholly outside, or from its fine words.
NPGPU_HD std::uint32_t pi_point_inside(std::uint64_t key, std::uint64_t i, std::uint32_t kx, std::uint32_t ky) {
  if ((kx + 1) * (kx + 1) + (ky + 1) * (ky + 1) <= kPiR2) return 1u;
  if (kx * kx + ky * ky >= kPiR2) return 0u;
  return pi_fine_inside(key, i, kx, ky);
}

// The first `points` points of call j, one at a time (the host backend, and the kernel's partial call).
NPGPU_HD std::uint32_t pi_hits_exact(std::uint64_t key, std::uint64_t j, int points = kPiPointsPerCall) {
  const Philox4 w = philox_block(key, j, 0, kDomainPi);
  std::uint32_t hits = 0;
  for (int p = 0; p < points; ++p) {
    const std::uint32_t h = pi_cell_half(w, p);
    hits += pi_point_inside(key, kPiPointsPerCall * j + static_cast<std::uint64_t>(p), h & 0xFFu, h >> 8);
  }
  return hits;
}

}  // namespace npgpu::detail

namespace npgpu {

#define NPGPU_RANDOM_BACKEND_DECLS                                                                        \
  void random_fill(const detail::FillParams& p, const ArrayView& out, StreamHandle stream);               \
  /* calls [first, first + calls) whole, then the first rem points of call first + calls */            \
  std::uint64_t monte_carlo_pi_hits(std::uint64_t first, std::uint64_t calls, int rem, std::uint64_t seed, \
                                    StreamHandle stream);

namespace cuda {
NPGPU_RANDOM_BACKEND_DECLS
}
namespace host {
NPGPU_RANDOM_BACKEND_DECLS
}

#undef NPGPU_RANDOM_BACKEND_DECLS

}  // namespace npgpu
