// Elementwise operations: argument checks, then the host or CUDA backend by the views' device, or the
// staged path for host arrays computed on a GPU.
#include "npgpu/elementwise.hpp"

#include <string>

#include "common/backends.hpp"
#include "common/staging.hpp"
#include "common/strided.hpp"
#include "npgpu/errors.hpp"

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

namespace {

void check_output(const ArrayView& out, const char* what) {
  if (out.readonly) throw InvalidArgument(std::string(what) + ": output array is read-only");
  if (out.size() > 0 && out.data == nullptr) throw InvalidArgument(std::string(what) + ": output has no data");
}

}  // namespace

void binary(BinaryOp op, const ArrayView& a, const ArrayView& b, const ArrayView& out, DType compute,
            StreamHandle stream) {
  const ArrayView* views[3] = {&out, &a, &b};
  detail::check_same_shape(views, 3, "binary operation");
  const int dev = detail::common_device(views, 3, "binary operation");
  check_output(out, "binary operation");
  if (out.size() == 0) return;
  if (dev == kHostDevice) {
    host::binary(op, a, b, out, compute, stream);
  } else {
    set_current_device(dev);
    cuda::binary(op, a, b, out, compute, stream);
  }
}

void binary_scalar(BinaryOp op, const ArrayView& a, const Scalar& s, bool scalar_first, const ArrayView& out,
                   DType compute, StreamHandle stream) {
  const ArrayView* views[2] = {&out, &a};
  detail::check_same_shape(views, 2, "binary operation");
  const int dev = detail::common_device(views, 2, "binary operation");
  check_output(out, "binary operation");
  if (out.size() == 0) return;
  if (dev == kHostDevice) {
    host::binary_scalar(op, a, s, scalar_first, out, compute, stream);
  } else {
    set_current_device(dev);
    cuda::binary_scalar(op, a, s, scalar_first, out, compute, stream);
  }
}

void copy(const ArrayView& src, const ArrayView& dst, StreamHandle stream) {
  const ArrayView* views[2] = {&dst, &src};
  detail::check_same_shape(views, 2, "copy");
  const int dev = detail::common_device(views, 2, "copy");
  check_output(dst, "copy");
  if (dst.size() == 0) return;
  if (dev == kHostDevice) {
    host::copy(src, dst, stream);
  } else {
    set_current_device(dev);
    cuda::copy(src, dst, stream);
  }
}

namespace {

void check_staged(const ArrayView* const* views, int n, int device) {
  for (int k = 0; k < n; ++k) {
    if (!views[k]->on_host()) throw InvalidArgument("staged operation: operands must be host arrays");
    if (!views[k]->is_c_contiguous())
      throw InvalidArgument("staged operation: host operands must be C-contiguous");
  }
  require_device(device);
}

// A C-contiguous 1-D device view of `count` elements of dtype d at p.
ArrayView chunk_view(void* p, DType d, std::int64_t count, int device) {
  return make_contiguous_view(p, d, 1, &count, device);
}

}  // namespace

void binary_staged(BinaryOp op, const ArrayView& a, const ArrayView& b, const ArrayView& out, DType compute,
                   int device, StreamHandle stream) {
  const ArrayView* views[3] = {&out, &a, &b};
  detail::check_same_shape(views, 3, "binary operation");
  check_staged(views, 3, device);
  check_output(out, "binary operation");
  const std::int64_t n = out.size();
  if (n == 0) return;
  set_current_device(device);
  detail::StagedOperand ops[3] = {{a.data, itemsize(a.dtype), false},
                                  {b.data, itemsize(b.dtype), false},
                                  {out.data, itemsize(out.dtype), true}};
  detail::run_staged(device, stream, ops, 3, n,
                     [&](void* const* dev, std::int64_t count, StreamHandle s) {
                       cuda::binary(op, chunk_view(dev[0], a.dtype, count, device),
                                    chunk_view(dev[1], b.dtype, count, device),
                                    chunk_view(dev[2], out.dtype, count, device), compute, s);
                     });
}

void binary_scalar_staged(BinaryOp op, const ArrayView& a, const Scalar& s, bool scalar_first,
                          const ArrayView& out, DType compute, int device, StreamHandle stream) {
  const ArrayView* views[2] = {&out, &a};
  detail::check_same_shape(views, 2, "binary operation");
  check_staged(views, 2, device);
  check_output(out, "binary operation");
  const std::int64_t n = out.size();
  if (n == 0) return;
  set_current_device(device);
  detail::StagedOperand ops[2] = {{a.data, itemsize(a.dtype), false}, {out.data, itemsize(out.dtype), true}};
  detail::run_staged(device, stream, ops, 2, n,
                     [&](void* const* dev, std::int64_t count, StreamHandle st) {
                       cuda::binary_scalar(op, chunk_view(dev[0], a.dtype, count, device), s, scalar_first,
                                           chunk_view(dev[1], out.dtype, count, device), compute, st);
                     });
}

}  // namespace npgpu
