// Host backend of the reductions and scans: the same loaders, reducers and finishing steps as the CUDA
// kernels (common/reduce_ops.hpp) over OpenMP loops. Reductions combine pairwise (blocks of 128 elements
// summed in order, blocks combined as a balanced tree), in float64 for float inputs: at least as accurate
// as NumPy's pairwise sums. Many outputs: one output per iteration of a parallel loop; few outputs: each
// output's range split over the threads.
#include <algorithm>
#include <cstdint>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "common/dispatch.hpp"
#include "common/reduce_backends.hpp"
#include "common/strided.hpp"

namespace npgpu::host {
namespace {

using detail::StridedPlan;

int max_threads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

template <class R>
struct RangeReducer {
  const char* base;
  DType dtype;
  detail::Pre pre;
  bool skip_nan;
  StridedPlan<1> plan;
  std::int64_t stride0;  // plan.ndim <= 1: the byte stride of the one dimension

  std::int64_t offset(std::int64_t r) const {
    if (plan.ndim <= 1) return r * stride0;
    std::int64_t off;
    plan.offsets(r, &off);
    return off;
  }

  typename R::Acc element(std::int64_t m_off, std::int64_t r) const {
    using V = typename R::Val;
    const V v = detail::load_pre<V>(base + m_off + offset(r), dtype, pre);
    return detail::make_acc<R>(v, r, skip_nan);
  }

  // Pairwise: blocks of up to 128 elements in order, halves combined recursively.
  typename R::Acc run(std::int64_t m_off, std::int64_t lo, std::int64_t hi) const {
    const R op{};
    if (hi - lo <= 128) {
      typename R::Acc acc = R::identity();
      for (std::int64_t r = lo; r < hi; ++r) acc = op(acc, element(m_off, r));
      return acc;
    }
    const std::int64_t mid = lo + (((hi - lo) / 2 + 127) / 128) * 128;
    return op(run(m_off, lo, std::min(mid, hi)), run(m_off, std::min(mid, hi), hi));
  }
};

template <class R>
void reduce_impl(const detail::ReduceArgs& a) {
  const ArrayView* kv[2] = {&a.out_k, &a.in_k};
  const auto kplan = detail::make_plan<2>(kv);
  const ArrayView* rv[1] = {&a.in_r};
  RangeReducer<R> rr{static_cast<const char*>(a.in_r.data), a.in_r.dtype, a.pre, a.skip_nan,
                     detail::make_plan<1>(rv), 0};
  rr.stride0 = rr.plan.ndim == 1 ? rr.plan.strides[0][0] : 0;
  char* out = static_cast<char*>(a.out_k.data);
  const std::int64_t M = a.outputs, K = a.count;
  const int T = max_threads();
  const R op{};
  if (M >= 2 * T || K < (1 << 14)) {
#pragma omp parallel for schedule(static) if (M > 1 && M * K > (1 << 15))
    for (std::int64_t m = 0; m < M; ++m) {
      std::int64_t off[2];
      kplan.offsets(m, off);
      detail::finish_store(out + off[0], a.out_k.dtype, rr.run(off[1], 0, K), a.fin, 0);
    }
    return;
  }
  for (std::int64_t m = 0; m < M; ++m) {
    std::int64_t off[2];
    kplan.offsets(m, off);
    // Chunks are multiples of 128 so that the blocks are those of one sequential pairwise pass.
    const std::int64_t chunk = ((K + T - 1) / T + 127) / 128 * 128;
    const int nchunks = static_cast<int>((K + chunk - 1) / chunk);
    std::vector<typename R::Acc> parts(nchunks, R::identity());
#pragma omp parallel for schedule(static)
    for (int c = 0; c < nchunks; ++c) parts[c] = rr.run(off[1], c * chunk, std::min(K, (c + 1) * chunk));
    // Combine pairwise too.
    for (int w = 1; w < nchunks; w *= 2)
      for (int c = 0; c + w < nchunks; c += 2 * w) parts[c] = op(parts[c], parts[c + w]);
    detail::finish_store(out + off[0], a.out_k.dtype, parts[0], a.fin, 0);
  }
}

template <class T, class Op>
void scan_impl(const detail::ScanArgs& a, Op op, T identity) {
  const int nd = a.in_p.ndim - 1;
  const std::int64_t K = a.in_p.shape[nd];
  const std::int64_t si = a.in_p.strides[nd], so = a.out_p.strides[nd];
  ArrayView ro = a.out_p, ri = a.in_p;
  ro.ndim = nd;
  ri.ndim = nd;
  const std::int64_t rows = ro.size();
  const ArrayView* views[2] = {&ro, &ri};
  const auto plan = detail::make_plan<2>(views);
  char* out = static_cast<char*>(a.out_p.data);
  const char* in = static_cast<const char*>(a.in_p.data);
  const DType id = a.in_p.dtype, od = a.out_p.dtype;
  const bool excl = a.exclusive;
#pragma omp parallel for schedule(static) if (rows > 1 && rows * K > (1 << 15))
  for (std::int64_t r = 0; r < rows; ++r) {
    std::int64_t off[2];
    plan.offsets(r, off);
    T acc = identity;
    for (std::int64_t j = 0; j < K; ++j) {
      const T x = detail::load_conv<T>(in + off[1] + j * si, id);
      if (excl) {
        detail::store_as<T>(out + off[0] + j * so, od, acc);
        acc = op(acc, x);
      } else {
        acc = op(acc, x);
        detail::store_as<T>(out + off[0] + j * so, od, acc);
      }
    }
  }
}

template <class T>
void scan_typed(const detail::ScanArgs& a) {
  if (a.op == ScanOp::Sum) scan_impl<T>(a, detail::ScanAdd<T>{}, T(0));
  else scan_impl<T>(a, detail::ScanMul<T>{}, T(1));
}

}  // namespace

void reduce(const detail::ReduceArgs& a, StreamHandle) {
  detail::dispatch_reducer(a.kind, a.type, [&](auto r) { reduce_impl<decltype(r)>(a); });
}

void scan(const detail::ScanArgs& a, StreamHandle) {
  switch (a.out_p.dtype) {
    case DType::Complex64:
    case DType::Complex128: scan_typed<detail::complex128>(a); break;
    case DType::Float16:
    case DType::BFloat16:
    case DType::Float32:
    case DType::Float64: scan_typed<double>(a); break;
    default: scan_typed<std::uint64_t>(a); break;
  }
}

}  // namespace npgpu::host
