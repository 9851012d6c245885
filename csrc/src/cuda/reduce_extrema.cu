// CUDA reductions: min, max, nanmin, nanmax (any, all and the inf norms run as these). See reduce_impl.cuh.
#include "cuda/reduce_impl.cuh"

namespace npgpu::cuda {

void reduce_extrema(const detail::ReduceArgs& a, cudaStream_t s) {
  using namespace detail;
  switch (a.kind) {
    case RKind::Min:
      if (a.type == RType::U64) return run_reduce<MinR<std::uint64_t>>(a, s);
      if (a.type == RType::I64) return run_reduce<MinR<std::int64_t>>(a, s);
      return run_reduce<MinR<double>>(a, s);
    case RKind::Max:
      if (a.type == RType::U64) return run_reduce<MaxR<std::uint64_t>>(a, s);
      if (a.type == RType::I64) return run_reduce<MaxR<std::int64_t>>(a, s);
      return run_reduce<MaxR<double>>(a, s);
    case RKind::NanMin: return run_reduce<NanMinR>(a, s);
    default: return run_reduce<NanMaxR>(a, s);
  }
}

}  // namespace npgpu::cuda
