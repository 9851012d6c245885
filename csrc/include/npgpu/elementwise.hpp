#pragma once
// Elementwise operations. Operands are views of one shape after broadcasting (a broadcast dimension has
// stride 0); `out` has that shape. Each operation computes in the `compute` dtype its caller picked (NumPy's
// result type): inputs are converted to it on load and the result to out's dtype on store, so mixed dtypes
// work without temporary arrays.
#include "npgpu/export.hpp"
#include "npgpu/runtime.hpp"
#include "npgpu/view.hpp"

namespace npgpu {

enum class BinaryOp : int {
  Add = 0,
};

// out = op(a, b), computed in `compute` dtype and stored converted to out.dtype. All views on one device,
// or all on the host (host backend). Throws InvalidArgument on shape mismatch, TypeError on an unsupported
// dtype.
NPGPU_API void binary(BinaryOp op, const ArrayView& a, const ArrayView& b, const ArrayView& out,
                      DType compute, StreamHandle stream);
// out = op(a, s) (or op(s, a) when scalar_first).
NPGPU_API void binary_scalar(BinaryOp op, const ArrayView& a, const Scalar& s, bool scalar_first,
                             const ArrayView& out, DType compute, StreamHandle stream);

// Host arrays computed on `device`: a, b and out are C-contiguous host views of one shape, moved through the
// pinned staging ring in chunks while earlier chunks compute, so device memory used stays bounded whatever
// the array size. Returns when out is written.
NPGPU_API void binary_staged(BinaryOp op, const ArrayView& a, const ArrayView& b, const ArrayView& out,
                             DType compute, int device, StreamHandle stream);
NPGPU_API void binary_scalar_staged(BinaryOp op, const ArrayView& a, const Scalar& s, bool scalar_first,
                                    const ArrayView& out, DType compute, int device, StreamHandle stream);

// dst = src converted to dst's dtype (NumPy's unsafe casting), any strides; src may be broadcast (stride 0).
// Both on one device, or both on the host.
NPGPU_API void copy(const ArrayView& src, const ArrayView& dst, StreamHandle stream);

inline void add(const ArrayView& a, const ArrayView& b, const ArrayView& out, StreamHandle stream) {
  binary(BinaryOp::Add, a, b, out, out.dtype, stream);
}

}  // namespace npgpu
