#pragma once
// Internal: the reduction family's two backends, called by csrc/src/reduce.cpp after its checks.
#include <cstdint>

#include "common/reduce_ops.hpp"
#include "npgpu/reduce.hpp"
#include "npgpu/runtime.hpp"
#include "npgpu/view.hpp"

namespace npgpu::detail {

struct ReduceArgs {
  RKind kind = RKind::Add;
  RType type = RType::F64;
  Pre pre = Pre::None;
  bool skip_nan = false;  // Welford: NaN elements count as absent
  FinParams fin;
  // The output with the reduced axes removed, and the input seen two ways over the same data: in_k has
  // out_k's shape with the input's strides of the kept axes; in_r has the reduced axes' shape and strides.
  ArrayView out_k, in_k, in_r;
  std::int64_t outputs = 0;  // out_k.size()
  std::int64_t count = 0;    // in_r.size(): elements per output
};

// Valid (kind, type) pairs: Add/Mul: U64, F64, C128; Min/Max/ArgMin/ArgMax: I64, U64, F64; NanMin/NanMax,
// Welford: F64.
template <class Fn>
decltype(auto) dispatch_reducer(RKind k, RType t, Fn&& fn) {
  switch (k) {
    case RKind::Add:
      if (t == RType::U64) return fn(AddR<std::uint64_t>{});
      if (t == RType::C128) return fn(AddR<complex128>{});
      return fn(AddR<double>{});
    case RKind::Mul:
      if (t == RType::U64) return fn(MulR<std::uint64_t>{});
      if (t == RType::C128) return fn(MulR<complex128>{});
      return fn(MulR<double>{});
    case RKind::Min:
      if (t == RType::U64) return fn(MinR<std::uint64_t>{});
      if (t == RType::I64) return fn(MinR<std::int64_t>{});
      return fn(MinR<double>{});
    case RKind::Max:
      if (t == RType::U64) return fn(MaxR<std::uint64_t>{});
      if (t == RType::I64) return fn(MaxR<std::int64_t>{});
      return fn(MaxR<double>{});
    case RKind::ArgMin:
      if (t == RType::U64) return fn(ArgMinR<std::uint64_t>{});
      if (t == RType::I64) return fn(ArgMinR<std::int64_t>{});
      return fn(ArgMinR<double>{});
    case RKind::ArgMax:
      if (t == RType::U64) return fn(ArgMaxR<std::uint64_t>{});
      if (t == RType::I64) return fn(ArgMaxR<std::int64_t>{});
      return fn(ArgMaxR<double>{});
    case RKind::NanMin: return fn(NanMinR{});
    case RKind::NanMax: return fn(NanMaxR{});
    case RKind::Welford: break;
  }
  return fn(WelfordR{});
}

template <class R>
NPGPU_HD typename R::Acc make_acc(typename R::Val v, std::int64_t i, bool skip_nan) {
  if constexpr (std::is_same_v<R, WelfordR>) return welford_make(v, skip_nan);
  else return R::make(v, i);
}

// Scan arguments: the scan runs along the last axis of in_p / out_p (the input and output with the scan
// axis moved last).
struct ScanArgs {
  ScanOp op = ScanOp::Sum;
  bool exclusive = false;
  ArrayView in_p, out_p;
};

}  // namespace npgpu::detail

namespace npgpu::cuda {
void reduce(const detail::ReduceArgs& args, StreamHandle stream);
void scan(const detail::ScanArgs& args, StreamHandle stream);
}  // namespace npgpu::cuda
namespace npgpu::host {
void reduce(const detail::ReduceArgs& args, StreamHandle stream);
void scan(const detail::ScanArgs& args, StreamHandle stream);
}  // namespace npgpu::host
