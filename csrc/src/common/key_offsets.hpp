#pragma once
// Internal: what the host and CUDA counting of narrow integer keys share (key_range, count_keys,
// lookup_keys): the dispatch over integer and bool dtypes, and a key's offset from the range's start.
#include <cstdint>
#include <type_traits>

#include "common/dispatch.hpp"
#include "common/hd.hpp"

namespace npgpu::detail {

// fn(type_tag<T>{}) for the integer or bool dtype `d` (the caller has checked it is one).
template <class Fn>
void dispatch_integer_keys(DType d, Fn&& fn) {
  dispatch_dtype(d, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) fn(tag);
  });
}

// k - lo in k's width, unsigned: exact for every k >= lo of the type (wraps where the signed difference would
// overflow), and large for k < lo, so that one comparison with the bin count rejects both sides.
template <class T>
NPGPU_HD std::uint64_t key_offset(T k, T lo) {
  using U = std::make_unsigned_t<std::conditional_t<std::is_same_v<T, bool>, std::uint8_t, T>>;
  return static_cast<U>(static_cast<U>(k) - static_cast<U>(lo));
}

}  // namespace npgpu::detail
