// CUDA reductions: argmin, argmax, and the (count, mean, M2) moments (var, std, nanmean, nanvar, nanstd). See
// reduce_impl.cuh.
#include "cuda/reduce_impl.cuh"

namespace npgpu::cuda {

void reduce_args(const detail::ReduceArgs& a, cudaStream_t s) {
  using namespace detail;
  switch (a.kind) {
    case RKind::ArgMin:
      if (a.type == RType::U64) return run_reduce<ArgMinR<std::uint64_t>>(a, s);
      if (a.type == RType::I64) return run_reduce<ArgMinR<std::int64_t>>(a, s);
      return run_reduce<ArgMinR<double>>(a, s);
    case RKind::ArgMax:
      if (a.type == RType::U64) return run_reduce<ArgMaxR<std::uint64_t>>(a, s);
      if (a.type == RType::I64) return run_reduce<ArgMaxR<std::int64_t>>(a, s);
      return run_reduce<ArgMaxR<double>>(a, s);
    default: return run_reduce<WelfordR>(a, s);
  }
}

}  // namespace npgpu::cuda
