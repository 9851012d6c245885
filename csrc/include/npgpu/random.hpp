#pragma once
// Random numbers on counter-based Philox4x32-10, and the fused Monte Carlo estimate of pi (reference
// page 001).
//
// The stream of a seed is the sequence of 32-bit words w[4j + l] = Philox4x32-10(counter = (j_lo, j_hi, 0,
// 0), key = (seed_lo, seed_hi))[l] for blocks j = 0, 1, ... A fill of n values starting at block B gives
// element i the word at index 4B + i (dtypes of 1, 2 or 4 bytes) or the pair 4B + 2i, 4B + 2i + 1 read as
// lo | hi << 32 (8-byte dtypes). Element i is therefore a pure function of (seed, B, i): the same on every
// GPU, on the host backend, for any launch geometry and any chunking, and bit for bit identical between
// the backends (all per-value arithmetic is shared code using correctly rounded operations only).
//
// Values:
//   uniform float32: u = (w >> 8) 2^-24; float64: u = (x >> 11) 2^-53 (u in [0, 1)); the result is
//     fma(u, high - low, low) computed in float64 and rounded to the dtype (float32 over [0, 1) is u
//     itself). Rounding can give `high` itself, as NumPy's can.
//   normal, float64 (and float32 in stream version 1): Box-Muller on consecutive pairs of values (elements
//     2m, 2m + 1): u1 = (w + 1/2) 2^-32 (float32) or ((x >> 11) + 1/2) 2^-53 (float64), u2 as uniform;
//     z0 = r cos(2 pi u2), z1 = r sin(2 pi u2), r = sqrt(-2 log u1), computed with npgpu's own log and
//     sincos, in float32 for float32 results, in float64 for float64.
//   normal, float32 in stream version 2 (the default): the 256-layer ziggurat of one word per value, as
//     NumPy's float32 normals (common/philox.hpp defines it; rare rejections draw retry blocks as integers
//     do). Either way the result is loc + scale * z in float64, rounded to the dtype (z itself for a
//     standard normal).
//   integers: low + an unbiased offset in [0, high - low) by Lemire's multiply-and-reject method (32-bit
//     words for dtypes up to 4 bytes, 64-bit values for 8-byte dtypes). Rejected draws, rare, continue from
//     retry blocks (counter = (W, k, 1) for the element's word index W), never from the main stream, so
//     the element -> word mapping above holds exactly.
#include <cstdint>

#include "npgpu/export.hpp"
#include "npgpu/runtime.hpp"
#include "npgpu/view.hpp"

namespace npgpu {

enum class RandomDist : int {
  Uniform = 0,   // float32, float64
  Normal = 1,    // float32, float64
  Integers = 2,  // bool and the signed and unsigned integer dtypes
};

struct RandomSpec {
  RandomDist dist = RandomDist::Uniform;
  std::uint64_t seed = 0;      // the Philox key
  std::uint64_t counter = 0;   // the Philox block element 0 starts at (a Generator's position)
  double a = 0.0, b = 1.0;     // Uniform: low < high, both finite; Normal: loc, scale >= 0
  std::uint64_t low = 0;       // Integers: the lowest value (two's complement for signed dtypes)
  std::uint64_t range_m1 = 0;  // Integers: high - low - 1 (2^64 - 1: every 64-bit value)
  int version = 2;             // the stream's version: 1 or 2 (kRandomStreamVersion), see above
};

// The newest stream version, the default. Version 2 changed float32 normals only, from Box-Muller to the
// ziggurat; every other value is the same in both versions.
constexpr int kRandomStreamVersion = 2;

// Philox blocks that a fill of n values of `dtype` consumes: ceil(n * words / 4), words = 1 or 2 by the
// dtype's size. A Generator advances its counter by this much after each call.
NPGPU_API std::uint64_t random_blocks(DType dtype, std::int64_t n);

// out = n values of the stream (the C-contiguous view `out`, on a device or on the host). Throws TypeError
// for a dtype the distribution does not produce, InvalidArgument for bad parameters (low >= high, a range
// outside the dtype, a negative scale, non-finite values) or a non-contiguous or read-only output.
// Asynchronous on a device.
NPGPU_API void random_fill(const RandomSpec& spec, const ArrayView& out, StreamHandle stream);
// A C-contiguous host array filled on `device` and moved through the pinned staging ring in chunks;
// returns when out is written. Same values as random_fill.
NPGPU_API void random_fill_staged(const RandomSpec& spec, const ArrayView& out, int device, StreamHandle stream);

// monte_carlo_pi: the number of n points (x, y) in [0, 1)^2 with x^2 + y^2 <= 1, the points generated and
// tested inside the kernel (never stored), counted in registers, reduced per block and added atomically
// to a 64-bit total. Philox call j (counter (j, 0, 0, 0x70690000), key = seed) gives 8 points, each in a
// cell of a 256 x 256 grid (the low and high bytes of one 16-bit half of a word); a point's full coordinates
// have 40 bits, the lower 32 from a second Philox block of its own (domain 0x70690001) that is generated
// only when the cell straddles the circle (about 1 point in 128). Inside means x^2 + y^2 <= 1, decided
// exactly (see common/philox.hpp), so the count depends only on (n, seed). device = kHostDevice runs the
// host backend (OpenMP). Synchronous: returns the count. Throws InvalidArgument for n < 1 or n > 2^62.
NPGPU_API std::uint64_t monte_carlo_pi_hits(std::int64_t n, std::uint64_t seed, int device, StreamHandle stream);
// The hits among points first .. first + n - 1 of the same sequence, so that ranges splitting [0, n) (over
// devices, processes or Dask chunks) add up to monte_carlo_pi_hits(n, ...) exactly, each at the cost of its own
// points. Throws InvalidArgument for n < 1 or a range outside [0, 2^62).
NPGPU_API std::uint64_t monte_carlo_pi_hits_range(std::int64_t first, std::int64_t n, std::uint64_t seed, int device,
                                                  StreamHandle stream);
// 4 * hits / n.
NPGPU_API double monte_carlo_pi(std::int64_t n, std::uint64_t seed, int device, StreamHandle stream);

// One Philox4x32-10 evaluation on the host (known-answer tests, reference implementations).
NPGPU_API void philox4x32_10(const std::uint32_t counter[4], const std::uint32_t key[2], std::uint32_t out[4]);

}  // namespace npgpu
