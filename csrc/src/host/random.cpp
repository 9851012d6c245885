// Host backend of the random family: the per-block value definitions of common/philox.hpp, over OpenMP
// loops. The values are bit for bit those of the CUDA kernels. The shared code spells every multiply-add
// as std::fma and every other operation separately; contraction of the remaining expressions is turned off
// here so that a build with FMA instructions enabled (-march=native) cannot fuse them differently.
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include <algorithm>
#include <cstdint>

#include "common/dispatch.hpp"
#include "common/philox.hpp"
#include "host/openmp.hpp"

namespace npgpu::host {

namespace {

template <class T, int Mode>
void fill_typed(const detail::FillParams& p, T* out, std::int64_t n) {
  constexpr int K = detail::ValuesPerBlock<T>::value;
  const std::int64_t full = n / K;
  parallel_for(full, n > (1 << 14),
               [&](std::int64_t j) { detail::block_values<T, Mode>(p, static_cast<std::uint64_t>(j), out + K * j); });
  if (full * K < n) {
    T v[K];
    detail::block_values<T, Mode>(p, static_cast<std::uint64_t>(full), v);
    for (std::int64_t i = full * K; i < n; ++i) out[i] = v[i - full * K];
  }
}

std::uint64_t pi_hits_host(std::uint64_t first, std::uint64_t calls, int rem, std::uint64_t key) {
  const auto n = static_cast<std::int64_t>(calls);
  std::uint64_t total = 0;
#pragma omp parallel for schedule(static) reduction(+ : total) if (n > (1 << 12))
  for (std::int64_t j = 0; j < n; ++j) total += detail::pi_hits_exact(key, first + static_cast<std::uint64_t>(j));
  if (rem) total += detail::pi_hits_exact(key, first + calls, rem);
  return total;
}

}  // namespace

void random_fill(const detail::FillParams& p, const ArrayView& out, StreamHandle) {
  const std::int64_t n = out.size();
  detail::dispatch_dtype(out.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_arithmetic_v<T>)
      detail::dispatch_fill_mode<T>(p, [&](auto mode) {
        fill_typed<T, decltype(mode)::value>(p, static_cast<T*>(out.data), n);
      });
  });
}

std::uint64_t monte_carlo_pi_hits(std::uint64_t first, std::uint64_t calls, int rem, std::uint64_t seed,
                                  StreamHandle) {
  return pi_hits_host(first, calls, rem, seed);
}

}  // namespace npgpu::host
