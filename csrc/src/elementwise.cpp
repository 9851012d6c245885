// Elementwise operations: argument checks, conversion of operands to the loop's types (and of the result to
// out's dtype), then the host or CUDA backend by the views' device, or the staged path for host arrays
// computed on a GPU.
#include "npgpu/elementwise.hpp"

#include <memory>
#include <string>
#include <vector>

#include "common/backends.hpp"
#include "common/elementwise_loops.hpp"
#include "common/staging.hpp"
#include "common/strided.hpp"
#include "npgpu/errors.hpp"
#include "npgpu/memory.hpp"

namespace npgpu {
namespace detail {

void check_same_shape(const ArrayView* const* views, int n, const char* what) {
  const ArrayView& ref = *views[0];
  for (int k = 1; k < n; ++k) {
    const ArrayView& v = *views[k];
    bool same = v.ndim == ref.ndim;
    for (int d = 0; same && d < v.ndim; ++d) same = v.shape[d] == ref.shape[d];
    if (!same)
      throw InvalidArgument(std::string(what) + ": operand " + v.describe() + " does not match output " +
                            ref.describe() + " (broadcast operands to the output shape first)");
  }
}

int common_device(const ArrayView* const* views, int n, const char* what) {
  const int dev = views[0]->device;
  for (int k = 1; k < n; ++k)
    if (views[k]->device != dev)
      throw InvalidArgument(std::string(what) + ": operands are on different devices (" +
                            views[0]->describe() + " and " + views[k]->describe() + ")");
  return dev;
}

}  // namespace detail

const char* elementwise_op_name(ElementwiseOp op) {
  switch (op) {
    case ElementwiseOp::Add: return "add";
    case ElementwiseOp::Subtract: return "subtract";
    case ElementwiseOp::Multiply: return "multiply";
    case ElementwiseOp::TrueDivide: return "true_divide";
    case ElementwiseOp::FloorDivide: return "floor_divide";
    case ElementwiseOp::Remainder: return "remainder";
    case ElementwiseOp::Power: return "power";
    case ElementwiseOp::Maximum: return "maximum";
    case ElementwiseOp::Minimum: return "minimum";
    case ElementwiseOp::Hypot: return "hypot";
    case ElementwiseOp::Arctan2: return "arctan2";
    case ElementwiseOp::Equal: return "equal";
    case ElementwiseOp::NotEqual: return "not_equal";
    case ElementwiseOp::Less: return "less";
    case ElementwiseOp::LessEqual: return "less_equal";
    case ElementwiseOp::Greater: return "greater";
    case ElementwiseOp::GreaterEqual: return "greater_equal";
    case ElementwiseOp::LogicalAnd: return "logical_and";
    case ElementwiseOp::LogicalOr: return "logical_or";
    case ElementwiseOp::LogicalXor: return "logical_xor";
    case ElementwiseOp::BitwiseAnd: return "bitwise_and";
    case ElementwiseOp::BitwiseOr: return "bitwise_or";
    case ElementwiseOp::BitwiseXor: return "bitwise_xor";
    case ElementwiseOp::LeftShift: return "left_shift";
    case ElementwiseOp::RightShift: return "right_shift";
    case ElementwiseOp::Negative: return "negative";
    case ElementwiseOp::Positive: return "positive";
    case ElementwiseOp::Absolute: return "absolute";
    case ElementwiseOp::Sign: return "sign";
    case ElementwiseOp::Square: return "square";
    case ElementwiseOp::Reciprocal: return "reciprocal";
    case ElementwiseOp::Sqrt: return "sqrt";
    case ElementwiseOp::Cbrt: return "cbrt";
    case ElementwiseOp::Exp: return "exp";
    case ElementwiseOp::Expm1: return "expm1";
    case ElementwiseOp::Exp2: return "exp2";
    case ElementwiseOp::Log: return "log";
    case ElementwiseOp::Log1p: return "log1p";
    case ElementwiseOp::Log2: return "log2";
    case ElementwiseOp::Log10: return "log10";
    case ElementwiseOp::Sin: return "sin";
    case ElementwiseOp::Cos: return "cos";
    case ElementwiseOp::Tan: return "tan";
    case ElementwiseOp::Arcsin: return "arcsin";
    case ElementwiseOp::Arccos: return "arccos";
    case ElementwiseOp::Arctan: return "arctan";
    case ElementwiseOp::Sinh: return "sinh";
    case ElementwiseOp::Cosh: return "cosh";
    case ElementwiseOp::Tanh: return "tanh";
    case ElementwiseOp::Arcsinh: return "arcsinh";
    case ElementwiseOp::Arccosh: return "arccosh";
    case ElementwiseOp::Arctanh: return "arctanh";
    case ElementwiseOp::Floor: return "floor";
    case ElementwiseOp::Ceil: return "ceil";
    case ElementwiseOp::Trunc: return "trunc";
    case ElementwiseOp::Rint: return "rint";
    case ElementwiseOp::IsNan: return "isnan";
    case ElementwiseOp::IsInf: return "isinf";
    case ElementwiseOp::IsFinite: return "isfinite";
    case ElementwiseOp::LogicalNot: return "logical_not";
    case ElementwiseOp::Invert: return "invert";
    case ElementwiseOp::Conjugate: return "conjugate";
    case ElementwiseOp::Where: return "where";
    case ElementwiseOp::Clip: return "clip";
    case ElementwiseOp::Axpy: return "axpy";
  }
  return "unknown";
}

int elementwise_op_arity(ElementwiseOp op) {
  int arity = 0;
  detail::dispatch_elementwise_op(op, [&](auto opf) { arity = std::decay_t<decltype(opf)>::arity; });
  return arity;
}

namespace {

// float16/bfloat16 loops run in float32 (operands converted on the way in, the result rounded on the way
// out), as NumPy's float16 loops compute.
DType loop_dtype(DType compute) {
  return compute == DType::Float16 || compute == DType::BFloat16 ? DType::Float32 : compute;
}

// The dtype each operand must have for the loop (where's condition is bool, the rest the loop's type).
DType input_dtype(ElementwiseOp op, int k, DType compute) {
  return op == ElementwiseOp::Where && k == 0 ? DType::Bool : compute;
}

void check_output(const ArrayView& out, const char* what) {
  if (out.readonly) throw InvalidArgument(std::string(what) + ": output array is read-only");
  if (out.size() > 0 && out.data == nullptr) throw InvalidArgument(std::string(what) + ": output has no data");
}

// A C-contiguous scratch array of `like`'s shape in dtype d, on like's device (pool memory on the stream)
// or on the host.
class Scratch {
 public:
  Scratch(const ArrayView& like, DType d, StreamHandle stream) {
    const std::int64_t nbytes = like.size() * itemsize(d);
    void* p;
    if (like.on_host()) {
      host_.reset(new char[static_cast<std::size_t>(nbytes > 0 ? nbytes : 1)]);
      p = host_.get();
    } else {
      device_ = std::make_unique<DeviceBuffer>(nbytes, like.device, stream);
      p = device_->data();
    }
    view_ = make_contiguous_view(p, d, like.ndim, like.shape, like.device);
  }
  const ArrayView& view() const { return view_; }

 private:
  std::unique_ptr<char[]> host_;
  std::unique_ptr<DeviceBuffer> device_;
  ArrayView view_;
};

void backend_copy(const ArrayView& src, const ArrayView& dst, StreamHandle stream) {
  if (dst.on_host()) host::copy(src, dst, stream);
  else cuda::copy(src, dst, stream);
}

// Validated operands on one device (current): convert what is not of the loop's types, run the loop, whose
// result dtype (elementwise_result_dtype, which the caller has already asked for) is `result`.
void run_converted(ElementwiseOp op, const Operand* inputs, int n, const ArrayView& out, DType compute,
                   DType result, StreamHandle stream) {
  const DType loop = loop_dtype(compute);
  bool ready = out.dtype == result;  // the common case: run on the caller's operands, no copies of them
  for (int k = 0; k < n && ready; ++k) ready = inputs[k].is_scalar || inputs[k].view.dtype == input_dtype(op, k, loop);
  if (ready) {
    if (out.on_host()) host::elementwise(op, inputs, out, loop, stream);
    else cuda::elementwise(op, inputs, out, loop, stream);
    return;
  }
  Operand in[3];
  std::vector<std::unique_ptr<Scratch>> scratch;
  for (int k = 0; k < n; ++k) {
    in[k] = inputs[k];
    const DType want = input_dtype(op, k, loop);
    if (!in[k].is_scalar && in[k].view.dtype != want) {
      scratch.push_back(std::make_unique<Scratch>(out, want, stream));
      backend_copy(in[k].view, scratch.back()->view(), stream);
      in[k].view = scratch.back()->view();
    }
  }
  const bool direct = out.dtype == result;
  if (!direct) scratch.push_back(std::make_unique<Scratch>(out, result, stream));
  const ArrayView& target = direct ? out : scratch.back()->view();
  if (out.on_host()) host::elementwise(op, in, target, loop, stream);
  else cuda::elementwise(op, in, target, loop, stream);
  if (!direct) backend_copy(target, out, stream);
}

// The output then the array inputs, checked alike; returns how many views it wrote to `views` (room for 4).
int check_operands(ElementwiseOp op, const Operand* inputs, int n, const ArrayView& out, const ArrayView** views) {
  const char* name = elementwise_op_name(op);
  if (n != elementwise_op_arity(op))
    throw InvalidArgument(std::string(name) + " takes " + std::to_string(elementwise_op_arity(op)) +
                          " operands, got " + std::to_string(n));
  int count = 0;
  views[count++] = &out;
  for (int k = 0; k < n; ++k)
    if (!inputs[k].is_scalar) views[count++] = &inputs[k].view;
  detail::check_same_shape(views, count, name);
  check_output(out, name);
  return count;
}

}  // namespace

DType elementwise_result_dtype(ElementwiseOp op, DType compute) {
  DType result = compute;
  static const Operand kNoOperands[3]{};  // dispatch_loop wants operands; built once (they are ~1.7 KB)
  detail::dispatch_loop(op, loop_dtype(compute), kNoOperands, [&](auto, auto rtag, const auto&...) {
    result = detail::dtype_of<typename decltype(rtag)::type>();
  });
  return result;
}

void elementwise(ElementwiseOp op, const Operand* inputs, int n, const ArrayView& out, DType compute,
                 StreamHandle stream) {
  const ArrayView* views[4];
  const int nviews = check_operands(op, inputs, n, out, views);
  const int dev = detail::common_device(views, nviews, elementwise_op_name(op));
  const DType result = elementwise_result_dtype(op, compute);  // a TypeError before any work if no such loop
  if (out.size() == 0) return;
  if (dev != kHostDevice) activate_device(dev);
  run_converted(op, inputs, n, out, compute, result, stream);
}

void elementwise_staged(ElementwiseOp op, const Operand* inputs, int n, const ArrayView& out, DType compute,
                        int device, StreamHandle stream) {
  const ArrayView* views[4];
  const int nviews = check_operands(op, inputs, n, out, views);
  for (int k = 0; k < nviews; ++k) {
    const ArrayView* v = views[k];
    if (!v->on_host()) throw InvalidArgument("staged operation: operands must be host arrays");
    if (!v->is_c_contiguous()) throw InvalidArgument("staged operation: host operands must be C-contiguous");
  }
  require_device(device);
  const DType result = elementwise_result_dtype(op, compute);
  const std::int64_t count = out.size();
  if (count == 0) return;
  activate_device(device);
  // Staged operands: the array inputs, then out; scalars stay scalars.
  std::vector<detail::StagedOperand> staged;
  std::vector<int> slot(n, -1);
  for (int k = 0; k < n; ++k) {
    if (inputs[k].is_scalar) continue;
    slot[k] = static_cast<int>(staged.size());
    staged.push_back({inputs[k].view.data, itemsize(inputs[k].view.dtype), false});
  }
  const int out_slot = static_cast<int>(staged.size());
  staged.push_back({out.data, itemsize(out.dtype), true});
  detail::run_staged(device, stream, staged.data(), static_cast<int>(staged.size()), count,
                     [&](void* const* dev, std::int64_t chunk, StreamHandle s) {
                       Operand in[3];
                       for (int k = 0; k < n; ++k) {
                         in[k] = inputs[k];
                         if (slot[k] >= 0)
                           in[k].view = make_contiguous_view(dev[slot[k]], inputs[k].view.dtype, 1, &chunk, device);
                       }
                       const ArrayView o = make_contiguous_view(dev[out_slot], out.dtype, 1, &chunk, device);
                       run_converted(op, in, n, o, compute, result, s);
                     });
}

void copy(const ArrayView& src, const ArrayView& dst, StreamHandle stream) {
  const ArrayView* views[2] = {&dst, &src};
  detail::check_same_shape(views, 2, "copy");
  const int dev = detail::common_device(views, 2, "copy");
  check_output(dst, "copy");
  if (dst.size() == 0) return;
  if (dev != kHostDevice) activate_device(dev);
  backend_copy(src, dst, stream);
}

}  // namespace npgpu
