// CUDA reductions: min, max, nanmin, nanmax (any, all and the inf norms run as these). Float64 ones through
// ZeroSignExtremumR (reduce_ops.hpp), for the sign of zero results. See reduce_impl.cuh.
#include "cuda/reduce_impl.cuh"

namespace npgpu::cuda {

void reduce_extrema(const detail::ReduceArgs& a, cudaStream_t s) {
  using namespace detail;
  switch (a.kind) {
    case RKind::Min:
      if (a.type == RType::U64) return run_reduce<MinR<std::uint64_t>>(a, s);
      if (a.type == RType::I64) return run_reduce<MinR<std::int64_t>>(a, s);
      return run_reduce<ZeroSignExtremumR<false, false>>(a, s);
    case RKind::Max:
      if (a.type == RType::U64) return run_reduce<MaxR<std::uint64_t>>(a, s);
      if (a.type == RType::I64) return run_reduce<MaxR<std::int64_t>>(a, s);
      return run_reduce<ZeroSignExtremumR<true, false>>(a, s);
    case RKind::NanMin: return run_reduce<ZeroSignExtremumR<false, true>>(a, s);
    default: return run_reduce<ZeroSignExtremumR<true, true>>(a, s);
  }
}

}  // namespace npgpu::cuda
