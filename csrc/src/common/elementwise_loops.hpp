#pragma once
// Internal: what both backends of the elementwise operations share besides the per-element math: operands
// as typed sources (an array or a scalar), and the dispatch from a runtime (operation, loop dtype) to the
// functor, its result type and its operand types.
#include <cstdint>
#include <string>
#include <type_traits>

#include "common/convert.hpp"
#include "common/dispatch.hpp"
#include "common/elementwise_ops.hpp"
#include "common/strided.hpp"
#include "common/hd.hpp"
#include "npgpu/elementwise.hpp"
#include "npgpu/errors.hpp"

namespace npgpu::detail {

// An operand of element type T: an array (p) or, when p is null, the scalar s standing for every element.
template <class T>
struct Src {
  const T* p;
  T s;
  // Element i of a C-contiguous operand.
  NPGPU_HD T operator[](std::int64_t i) const { return p ? p[i] : s; }
  // The element `byte_offset` bytes into a strided operand.
  NPGPU_HD T at(std::int64_t byte_offset) const {
    return p ? *reinterpret_cast<const T*>(reinterpret_cast<const char*>(p) + byte_offset) : s;
  }
};

template <class T>
Src<T> make_src(const Operand& o) {
  if (o.is_scalar) return Src<T>{nullptr, scalar_as<T>(o.scalar)};
  return Src<T>{static_cast<const T*>(o.view.data), T{}};
}

// The views a strided plan iterates: out first, then each operand (a scalar as a view of stride 0).
template <int N>
StridedPlan<N> make_operand_plan(const ArrayView& out, const Operand* in) {
  ArrayView scalar_view = out;
  for (int d = 0; d < out.ndim; ++d) scalar_view.strides[d] = 0;
  const ArrayView* views[N];
  views[0] = &out;
  for (int k = 1; k < N; ++k) views[k] = in[k - 1].is_scalar ? &scalar_view : &in[k - 1].view;
  return make_plan<N>(views);
}

// fn(op_functor, type_tag<R>{}, Src<Ts>...) for the loop of `op` over `compute`: R is its result type and
// Ts its operands' types. Throws TypeError when the operation has no loop for `compute`. Arity, Parts, Part:
// as dispatch_elementwise_op.
template <int Arity = 0, int Parts = 1, int Part = 0, class Fn>
void dispatch_loop(ElementwiseOp op, DType compute, const Operand* in, Fn&& fn) {
  dispatch_elementwise_op<Arity, Parts, Part>(op, [&](auto opf) {
    using Op = std::decay_t<decltype(opf)>;
    dispatch_dtype(compute, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (!Op::template supports<T>) {
        throw TypeError(std::string("ufunc '") + elementwise_op_name(op) + "' has no loop for " +
                        dtype_name(compute));
      } else {
        using R = typename Op::template result<T>;
        if constexpr (Op::arity == 1) {
          fn(opf, type_tag<R>{}, make_src<typename Op::template input<T, 0>>(in[0]));
        } else if constexpr (Op::arity == 2) {
          fn(opf, type_tag<R>{}, make_src<typename Op::template input<T, 0>>(in[0]),
             make_src<typename Op::template input<T, 1>>(in[1]));
        } else {
          fn(opf, type_tag<R>{}, make_src<typename Op::template input<T, 0>>(in[0]),
             make_src<typename Op::template input<T, 1>>(in[1]), make_src<typename Op::template input<T, 2>>(in[2]));
        }
      }
    });
  });
}

}  // namespace npgpu::detail
