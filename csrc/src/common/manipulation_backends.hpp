#pragma once
// Internal: the CUDA and host implementations of the manipulation functions (csrc/src/manipulation.cpp
// checks the arguments and dispatches).
#include "npgpu/runtime.hpp"
#include "npgpu/view.hpp"

namespace npgpu {
namespace cuda {
void copy_batch(const ArrayView* src, const ArrayView* dst, int n, StreamHandle stream);
}
namespace host {
void copy_batch(const ArrayView* src, const ArrayView* dst, int n, StreamHandle stream);
}
}  // namespace npgpu
