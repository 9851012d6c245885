#pragma once
// Internal: the per-element binary operations, one definition each, used by the CUDA kernels and the host
// loops alike. Each is called with both operands already converted to the compute type T.
#include <type_traits>

#include "common/complex.hpp"
#include "common/hd.hpp"
#include "npgpu/elementwise.hpp"
#include "npgpu/errors.hpp"

namespace npgpu::detail {

struct AddOp {
  template <class T>
  NPGPU_HD T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>) return a || b;  // NumPy: True + True is True
    else if constexpr (std::is_integral_v<T> && sizeof(T) < sizeof(int)) return static_cast<T>(a + b);  // wraps
    else return a + b;
  }
};

// fn(Op{}) for a runtime BinaryOp.
template <class Fn>
decltype(auto) dispatch_binary_op(BinaryOp op, Fn&& fn) {
  switch (op) {
    case BinaryOp::Add: return fn(AddOp{});
  }
  throw InvalidArgument("unknown binary operation");
}

}  // namespace npgpu::detail
