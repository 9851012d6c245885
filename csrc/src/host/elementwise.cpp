// Host backend of the elementwise operations: the same per-element definitions as the CUDA kernels
// (common/elementwise_ops.hpp) over OpenMP loops, and the converting copy.
#include <cstdint>
#include <utility>

#include "common/backends.hpp"
#include "common/convert.hpp"
#include "common/dispatch.hpp"
#include "common/elementwise_loops.hpp"
#include "common/strided.hpp"

namespace npgpu::host {
namespace {

using detail::Src;

constexpr std::int64_t kParallelMin = 1 << 16;

template <class Op, class R, class... Ts, std::size_t... K>
inline void apply_at(Op op, char* out, const std::int64_t* off, std::index_sequence<K...>, const Src<Ts>&... src) {
  *reinterpret_cast<R*>(out + off[0]) = static_cast<R>(op(src.at(off[K + 1])...));
}

template <class Op, class R, class... Ts>
void run(Op op, const ArrayView& out, const Operand* in, const Src<Ts>&... src) {
  const std::int64_t n = out.size();
  bool contiguous = out.is_c_contiguous();
  for (std::size_t k = 0; k < sizeof...(Ts); ++k)
    contiguous = contiguous && (in[k].is_scalar || in[k].view.is_c_contiguous());
  if (contiguous) {
    R* po = static_cast<R*>(out.data);
#pragma omp parallel for simd schedule(static) if (n > kParallelMin)
    for (std::int64_t i = 0; i < n; ++i) po[i] = static_cast<R>(op(src[i]...));
    return;
  }
  constexpr int N = 1 + sizeof...(Ts);
  const auto plan = detail::make_operand_plan<N>(out, in);
  char* po = static_cast<char*>(out.data);
  const std::int64_t inner = plan.inner();
  const std::int64_t rows = plan.rows();
  const int last = plan.ndim - 1;
#pragma omp parallel for schedule(static) if (n > kParallelMin)
  for (std::int64_t r = 0; r < rows; ++r) {
    std::int64_t base[N];
    plan.row_offsets(r, base);
    for (std::int64_t j = 0; j < inner; ++j) {
      std::int64_t off[N];
      for (int k = 0; k < N; ++k) off[k] = base[k] + j * plan.strides[k][last];
      apply_at<Op, R>(op, po, off, std::index_sequence_for<Ts...>{}, src...);
    }
  }
}

}  // namespace

void elementwise(ElementwiseOp op, const Operand* in, const ArrayView& out, DType compute, StreamHandle) {
  detail::dispatch_loop(op, compute, in, [&](auto opf, auto rtag, const auto&... src) {
    using R = typename decltype(rtag)::type;
    run<std::decay_t<decltype(opf)>, R>(opf, out, in, src...);
  });
}

void copy(const ArrayView& src, const ArrayView& dst, StreamHandle) {
  const std::int64_t n = dst.size();
  const ArrayView* views[2] = {&dst, &src};
  const auto plan = detail::make_plan<2>(views);
  char* pd = static_cast<char*>(dst.data);
  const char* ps = static_cast<const char*>(src.data);
  detail::dispatch_storage_dtype(src.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
#pragma omp parallel for schedule(static) if (n > kParallelMin)
    for (std::int64_t i = 0; i < n; ++i) {
      std::int64_t off[2];
      plan.offsets(i, off);
      detail::store_as<T>(pd + off[0], dst.dtype, *reinterpret_cast<const T*>(ps + off[1]));
    }
  });
}

}  // namespace npgpu::host
