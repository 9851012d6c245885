#pragma once
// Elementwise operations (NumPy's ufuncs and a few fused forms). Operands are array views of the output's
// shape after broadcasting (a broadcast dimension has stride 0) or scalars. Each operation runs a loop over
// the `compute` dtype its caller picked (NumPy's loop: np.add.resolve_dtypes gives it); operands of another
// dtype are converted first and a result of another dtype than the loop's is converted on the way out, so
// any dtype mix works. Indices are 64-bit: arrays over 2^31 elements work.
#include <string>

#include "npgpu/export.hpp"
#include "npgpu/runtime.hpp"
#include "npgpu/view.hpp"

namespace npgpu {

// X(Name) for every operation; ElementwiseOp::Name, operation functor detail::Name##Op.
#define NPGPU_ELEMENTWISE_OPS(X)                                                                       \
  X(Add) X(Subtract) X(Multiply) X(TrueDivide) X(FloorDivide) X(Remainder) X(Power) X(Maximum)         \
  X(Minimum) X(Hypot) X(Arctan2) X(Equal) X(NotEqual) X(Less) X(LessEqual) X(Greater) X(GreaterEqual)  \
  X(LogicalAnd) X(LogicalOr) X(LogicalXor) X(BitwiseAnd) X(BitwiseOr) X(BitwiseXor) X(LeftShift)       \
  X(RightShift)                                                                                        \
  X(Negative) X(Positive) X(Absolute) X(Sign) X(Square) X(Reciprocal) X(Sqrt) X(Cbrt) X(Exp) X(Expm1)  \
  X(Exp2) X(Log) X(Log1p) X(Log2) X(Log10) X(Sin) X(Cos) X(Tan) X(Arcsin) X(Arccos) X(Arctan) X(Sinh)  \
  X(Cosh) X(Tanh) X(Arcsinh) X(Arccosh) X(Arctanh) X(Floor) X(Ceil) X(Trunc) X(Rint) X(IsNan) X(IsInf)  \
  X(IsFinite) X(LogicalNot)                                                                            \
  X(Invert) X(Conjugate)                                                                               \
  X(Where) X(Clip) X(Axpy)

enum class ElementwiseOp : int {
#define NPGPU_OP_ENUM(Name) Name,
  NPGPU_ELEMENTWISE_OPS(NPGPU_OP_ENUM)
#undef NPGPU_OP_ENUM
};

// Operations' names (NumPy's: "add", "true_divide", "isnan", ...; "where", "clip", "axpy").
NPGPU_API const char* elementwise_op_name(ElementwiseOp op);
// Number of operands (1, 2 or 3).
NPGPU_API int elementwise_op_arity(ElementwiseOp op);
// The dtype the operation's loop over `compute` returns (bool for comparisons, float32 for abs(complex64),
// `compute` otherwise); throws TypeError when no such loop exists.
NPGPU_API DType elementwise_result_dtype(ElementwiseOp op, DType compute);

// One input: an array view of the output's shape, or a scalar standing for every element.
struct Operand {
  ArrayView view;
  Scalar scalar;
  bool is_scalar = false;
};
inline Operand array_operand(const ArrayView& v) {
  Operand o;
  o.view = v;
  return o;
}
inline Operand scalar_operand(const Scalar& s) {
  Operand o;
  o.scalar = s;
  o.is_scalar = true;
  return o;
}

// out = op(inputs...) over out's shape, computed in the `compute` loop. All array operands and out on one
// device, or all on the host (host backend). Throws InvalidArgument on a shape mismatch or a device mix,
// TypeError when the operation has no loop for `compute`.
NPGPU_API void elementwise(ElementwiseOp op, const Operand* inputs, int n_inputs, const ArrayView& out,
                           DType compute, StreamHandle stream);

// Host arrays computed on `device`: array inputs and out are C-contiguous host views of one shape, moved
// through the pinned staging ring in chunks while earlier chunks compute, so device memory used stays
// bounded whatever the array size. Returns when out is written.
NPGPU_API void elementwise_staged(ElementwiseOp op, const Operand* inputs, int n_inputs, const ArrayView& out,
                                  DType compute, int device, StreamHandle stream);

// dst = src converted to dst's dtype (NumPy's unsafe casting), any strides; src may be broadcast (stride 0).
// Both on one device, or both on the host.
NPGPU_API void copy(const ArrayView& src, const ArrayView& dst, StreamHandle stream);

// Shorthands.
inline void binary(ElementwiseOp op, const ArrayView& a, const ArrayView& b, const ArrayView& out,
                   DType compute, StreamHandle stream) {
  const Operand in[2] = {array_operand(a), array_operand(b)};
  elementwise(op, in, 2, out, compute, stream);
}
inline void add(const ArrayView& a, const ArrayView& b, const ArrayView& out, StreamHandle stream) {
  binary(ElementwiseOp::Add, a, b, out, out.dtype, stream);
}
// y = alpha * x + y
inline void axpy(const Scalar& alpha, const ArrayView& x, const ArrayView& y, StreamHandle stream) {
  const Operand in[3] = {scalar_operand(alpha), array_operand(x), array_operand(y)};
  elementwise(ElementwiseOp::Axpy, in, 3, y, y.dtype, stream);
}

}  // namespace npgpu
