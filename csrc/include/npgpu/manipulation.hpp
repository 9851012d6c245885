#pragma once
// Array manipulation that moves data in bulk: many copies as one operation (concatenate, stack, tile).
#include "npgpu/export.hpp"
#include "npgpu/runtime.hpp"
#include "npgpu/view.hpp"

namespace npgpu {

// dst[k] = src[k] for k < n: each pair C-contiguous, of one dtype and one size, every view on one device
// (or all on the host). On a GPU the n copies run in one launch, so a join of many arrays pays no gap
// between copies. Throws InvalidArgument for any other pair (callers copy those with
// npgpu::copy, which also converts and follows strides) or an overlap of a destination with a source.
NPGPU_API void copy_batch(const ArrayView* src, const ArrayView* dst, int n, StreamHandle stream);

}  // namespace npgpu
