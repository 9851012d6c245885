#pragma once
// Internal: the CUDA and host implementations of the creation functions (csrc/src/creation.cpp dispatches).
#include "npgpu/runtime.hpp"
#include "npgpu/view.hpp"

namespace npgpu {
namespace cuda {
void arange_fill(const ArrayView& out, const Scalar& start, const Scalar& delta, StreamHandle stream);
}
namespace host {
void arange_fill(const ArrayView& out, const Scalar& start, const Scalar& delta, StreamHandle stream);
}
}  // namespace npgpu
