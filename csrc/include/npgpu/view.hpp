#pragma once
// Non-owning views of arrays: what every libnpgpu operation takes. A view never frees its memory.
#include <cstdint>
#include <string>

#include "npgpu/dtype.hpp"
#include "npgpu/export.hpp"

namespace npgpu {

constexpr int kMaxDims = 32;
constexpr int kHostDevice = -1;  // ArrayView::device for memory the CPU can address directly

struct NPGPU_API ArrayView {
  void* data = nullptr;
  DType dtype = DType::Float32;
  int ndim = 0;
  std::int64_t shape[kMaxDims] = {};
  std::int64_t strides[kMaxDims] = {};  // in bytes, may be negative or zero (broadcast)
  int device = kHostDevice;             // CUDA device ordinal, or kHostDevice
  bool readonly = false;

  bool on_host() const { return device == kHostDevice; }
  std::int64_t size() const;            // number of elements (1 for 0-d)
  std::int64_t nbytes() const { return size() * itemsize(dtype); }
  bool is_c_contiguous() const;
  std::string describe() const;         // "float32[3, 4] on cuda:0", for messages
};

union ScalarValue {
  bool b;
  std::int64_t i;   // signed integer dtypes
  std::uint64_t u;  // unsigned integer dtypes
  double f;         // float32, float64
  double c[2];      // complex: real, imag
};

// A scalar operand passed by value (a Python number, after NumPy's weak-scalar rules picked its type).
struct Scalar {
  DType dtype = DType::Float64;
  ScalarValue value = {};
};

// Element count of a shape, checked: throws InvalidArgument when a dimension is negative or the count or
// byte size does not fit in int64.
NPGPU_API std::int64_t checked_size(const std::int64_t* shape, int ndim, std::int64_t itemsize);

// Build a C-contiguous view; validates the shape (checked_size).
NPGPU_API ArrayView make_contiguous_view(void* data, DType dtype, int ndim, const std::int64_t* shape,
                                         int device);

}  // namespace npgpu
