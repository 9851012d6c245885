#include "npgpu/view.hpp"

#include <limits>
#include <string>

#include "npgpu/errors.hpp"

namespace npgpu {

std::int64_t ArrayView::size() const {
  std::int64_t n = 1;
  for (int i = 0; i < ndim; ++i) n *= shape[i];
  return n;
}

bool ArrayView::is_c_contiguous() const {
  for (int i = 0; i < ndim; ++i)
    if (shape[i] == 0) return true;  // empty: any strides (NumPy 2 gives zero-size arrays zero strides)
  std::int64_t expected = itemsize(dtype);
  for (int i = ndim - 1; i >= 0; --i) {
    if (shape[i] != 1 && strides[i] != expected) return false;
    expected *= shape[i];
  }
  return true;
}

std::string ArrayView::describe() const {
  std::string s = dtype_name(dtype);
  s += "[";
  for (int i = 0; i < ndim; ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  s += "] on ";
  s += on_host() ? std::string("host") : "cuda:" + std::to_string(device);
  return s;
}

std::int64_t checked_size(const std::int64_t* shape, int ndim, std::int64_t item) {
  if (ndim < 0 || ndim > kMaxDims)
    throw InvalidArgument("npgpu supports at most " + std::to_string(kMaxDims) + " dimensions, got " +
                          std::to_string(ndim));
  const std::int64_t max = std::numeric_limits<std::int64_t>::max();
  std::int64_t n = 1;
  bool zero = false;
  for (int i = 0; i < ndim; ++i) {
    if (shape[i] < 0) throw InvalidArgument("negative dimension " + std::to_string(shape[i]) + " in shape");
    if (shape[i] == 0) zero = true;
  }
  if (zero) return 0;
  for (int i = 0; i < ndim; ++i) {
    if (n > max / shape[i]) throw InvalidArgument("array is too big: its element count overflows int64");
    n *= shape[i];
  }
  if (item > 0 && n > max / item) throw InvalidArgument("array is too big: its size in bytes overflows int64");
  return n;
}

ArrayView make_contiguous_view(void* data, DType dtype, int ndim, const std::int64_t* shape, int device) {
  const std::int64_t item = itemsize(dtype);
  checked_size(shape, ndim, item);
  ArrayView v;
  v.data = data;
  v.dtype = dtype;
  v.ndim = ndim;
  v.device = device;
  std::int64_t stride = item;
  for (int i = ndim - 1; i >= 0; --i) {
    v.shape[i] = shape[i];
    v.strides[i] = stride;
    stride *= shape[i] > 0 ? shape[i] : 1;
  }
  return v;
}

}  // namespace npgpu
