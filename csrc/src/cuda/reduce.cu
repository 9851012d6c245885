// CUDA backend of the reductions: the layouts and kernels are in reduce_impl.cuh; this file instantiates them for
// sums and products (Add, Mul) and dispatches every reducer; reduce_extrema.cu and reduce_arg.cu instantiate the
// others. Scans: reduce_scan.cu.
#include "cuda/reduce_impl.cuh"

namespace npgpu::cuda {

void reduce_sums(const detail::ReduceArgs& a, cudaStream_t s) {
  using namespace detail;
  if (a.kind == RKind::Add) {
    if (a.type == RType::U64) return run_reduce<AddR<std::uint64_t>>(a, s);
    if (a.type == RType::C128) return run_reduce<AddR<complex128>>(a, s);
    return run_reduce<AddR<double>>(a, s);
  }
  if (a.type == RType::U64) return run_reduce<MulR<std::uint64_t>>(a, s);
  if (a.type == RType::C128) return run_reduce<MulR<complex128>>(a, s);
  run_reduce<MulR<double>>(a, s);
}

void reduce(const detail::ReduceArgs& a, StreamHandle stream) {
  auto s = static_cast<cudaStream_t>(stream);
  switch (a.kind) {
    case detail::RKind::Add:
    case detail::RKind::Mul: return reduce_sums(a, s);
    case detail::RKind::Min:
    case detail::RKind::Max:
    case detail::RKind::NanMin:
    case detail::RKind::NanMax: return reduce_extrema(a, s);
    default: return reduce_args(a, s);
  }
}

}  // namespace npgpu::cuda
