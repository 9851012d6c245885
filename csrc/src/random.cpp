// Random numbers: argument checks, then the host or CUDA backend by the output's device, or the staged path
// for host arrays filled on a GPU.
#include "npgpu/random.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "common/dtype_kinds.hpp"
#include "common/philox.hpp"
#include "common/staging.hpp"
#include "npgpu/errors.hpp"

namespace npgpu {
namespace {

bool is_signed(DType d) {
  return d == DType::Int8 || d == DType::Int16 || d == DType::Int32 || d == DType::Int64;
}

const char* dist_name(RandomDist d) {
  switch (d) {
    case RandomDist::Uniform: return "uniform";
    case RandomDist::Normal: return "normal";
    case RandomDist::Integers: return "integers";
  }
  return "?";
}

// Checks the parameters against the output dtype; returns the kernels' parameters (counter still 0).
detail::FillParams check_spec(const RandomSpec& spec, DType dtype) {
  detail::FillParams p{};
  p.dist = spec.dist;
  p.key = spec.seed;
  p.block0 = spec.counter;
  p.a = spec.a;
  p.b = spec.b;
  p.low = spec.low;
  p.range_m1 = spec.range_m1;
  p.version = spec.version;
  if (spec.version < 1 || spec.version > kRandomStreamVersion)
    throw InvalidArgument("random: unknown stream version " + std::to_string(spec.version) + " (1 to " +
                          std::to_string(kRandomStreamVersion) + ")");
  const std::string what = std::string("random ") + dist_name(spec.dist);
  switch (spec.dist) {
    case RandomDist::Uniform:
    case RandomDist::Normal:
      if (dtype != DType::Float32 && dtype != DType::Float64)
        throw TypeError(what + ": unsupported dtype " + dtype_name(dtype) + " (float32 or float64)");
      if (!std::isfinite(spec.a) || !std::isfinite(spec.b))
        throw InvalidArgument(what + ": parameters must be finite");
      if (spec.dist == RandomDist::Uniform) {
        if (!(spec.a < spec.b))
          throw InvalidArgument(what + ": low must be less than high, got low=" + std::to_string(spec.a) +
                                ", high=" + std::to_string(spec.b));
        if (!std::isfinite(spec.b - spec.a)) throw InvalidArgument(what + ": high - low overflows float64");
        p.unit = spec.a == 0.0 && spec.b == 1.0;
      } else if (spec.b < 0.0) {
        throw InvalidArgument(what + ": scale must be non-negative, got " + std::to_string(spec.b));
      }
      break;
    case RandomDist::Integers: {
      if (!detail::is_integer_or_bool(dtype))
        throw TypeError(what + ": unsupported dtype " + dtype_name(dtype) + " (bool or an integer dtype)");
      // The dtype's range, as offsets from its minimum (so that signed and unsigned compare alike).
      const int bits = dtype == DType::Bool ? 1 : static_cast<int>(8 * itemsize(dtype));
      const std::uint64_t span_m1 = bits == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1;
      const std::uint64_t bias = is_signed(dtype) ? (std::uint64_t(1) << (bits - 1)) : 0;  // min -> 0
      const std::uint64_t lo = spec.low + bias;  // two's complement: the offset of low above the minimum
      const bool low_ok = bits == 64 || lo <= span_m1;
      if (!low_ok || spec.range_m1 > span_m1 - lo)
        throw InvalidArgument(what + ": [low, high) is outside the range of " + dtype_name(dtype));
      break;
    }
    default:
      throw InvalidArgument("random: unknown distribution " + std::to_string(static_cast<int>(spec.dist)));
  }
  return p;
}

void check_output(const ArrayView& out) {
  if (out.readonly) throw InvalidArgument("random: output array is read-only");
  // (An empty array is contiguous whatever its strides: NumPy gives empty arrays zero strides.)
  if (out.size() > 0 && !out.is_c_contiguous()) throw InvalidArgument("random: output array must be C-contiguous");
  if (out.size() > 0 && out.data == nullptr) throw InvalidArgument("random: output has no data");
}

}  // namespace

std::uint64_t random_blocks(DType dtype, std::int64_t n) {
  if (n < 0) throw InvalidArgument("random: negative size " + std::to_string(n));
  const std::uint64_t words = static_cast<std::uint64_t>(n) * (itemsize(dtype) == 8 ? 2 : 1);
  return (words + 3) / 4;
}

void random_fill(const RandomSpec& spec, const ArrayView& out, StreamHandle stream) {
  const detail::FillParams p = check_spec(spec, out.dtype);
  check_output(out);
  if (out.size() == 0) return;
  if (out.on_host()) {
    host::random_fill(p, out, stream);
  } else {
    activate_device(out.device);
    cuda::random_fill(p, out, stream);
  }
}

void random_fill_staged(const RandomSpec& spec, const ArrayView& out, int device, StreamHandle stream) {
  const detail::FillParams p = check_spec(spec, out.dtype);
  check_output(out);
  if (!out.on_host()) throw InvalidArgument("random: staged fill needs a host array");
  require_device(device);
  const std::int64_t n = out.size();
  if (n == 0) return;
  activate_device(device);
  const std::int64_t item = itemsize(out.dtype);
  const std::int64_t per_block = item == 8 ? 2 : 4;  // values per Philox block
  detail::StagedOperand op{out.data, item, true};
  std::int64_t start = 0;  // run_staged computes the chunks in order; chunks are multiples of 16 values
  detail::run_staged(device, stream, &op, 1, n, [&](void* const* dev, std::int64_t count, StreamHandle s) {
    if (start % per_block != 0) throw InvalidArgument("random: staged chunk not aligned to a Philox block");
    detail::FillParams q = p;
    q.block0 = p.block0 + static_cast<std::uint64_t>(start / per_block);
    cuda::random_fill(q, make_contiguous_view(dev[0], out.dtype, 1, &count, device), s);
    start += count;
  });
}

std::uint64_t monte_carlo_pi_hits_range(std::int64_t first, std::int64_t n, std::uint64_t seed, int device,
                                        StreamHandle stream) {
  constexpr std::int64_t kMax = std::int64_t(1) << 62;
  if (n < 1) throw InvalidArgument("monte_carlo_pi: n must be at least 1, got " + std::to_string(n));
  if (n > kMax) throw InvalidArgument("monte_carlo_pi: n must be at most 2^62, got " + std::to_string(n));
  if (first < 0 || first > kMax - n)
    throw InvalidArgument("monte_carlo_pi: the points [first, first + n) must lie in [0, 2^62), got first=" +
                          std::to_string(first));
  constexpr std::int64_t P = detail::kPiPointsPerCall;
  // A range starting inside a Philox call: that call's points from `first` on, counted here (one call).
  std::uint64_t head = 0;
  auto call = static_cast<std::uint64_t>(first / P);
  if (const int skip = static_cast<int>(first % P); skip != 0) {
    const int upto = static_cast<int>(std::min<std::int64_t>(P, skip + n));
    head = detail::pi_hits_exact(seed, call, upto) - detail::pi_hits_exact(seed, call, skip);
    n -= upto - skip;
    ++call;
    if (n == 0) return head;
  }
  const auto calls = static_cast<std::uint64_t>(n / P);
  const int rem = static_cast<int>(n % P);
  if (device == kHostDevice) return head + host::monte_carlo_pi_hits(call, calls, rem, seed, stream);
  activate_device(device);
  return head + cuda::monte_carlo_pi_hits(call, calls, rem, seed, stream);
}

std::uint64_t monte_carlo_pi_hits(std::int64_t n, std::uint64_t seed, int device, StreamHandle stream) {
  return monte_carlo_pi_hits_range(0, n, seed, device, stream);
}

double monte_carlo_pi(std::int64_t n, std::uint64_t seed, int device, StreamHandle stream) {
  const std::uint64_t hits = monte_carlo_pi_hits(n, seed, device, stream);
  return 4.0 * static_cast<double>(hits) / static_cast<double>(n);
}

void philox4x32_10(const std::uint32_t counter[4], const std::uint32_t key[2], std::uint32_t out[4]) {
  const detail::Philox4 r =
      detail::philox4x32_10(counter[0], counter[1], counter[2], counter[3], key[0], key[1]);
  for (int i = 0; i < 4; ++i) out[i] = r.v[i];
}

}  // namespace npgpu
