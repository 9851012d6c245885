#pragma once
// Array creation that computes its values: arange's linear fill (linspace builds on it).
#include "npgpu/export.hpp"
#include "npgpu/runtime.hpp"
#include "npgpu/view.hpp"

namespace npgpu {

// out[i] = start + i * delta for the C-contiguous view `out` (flat index i), computed in out's dtype as
// NumPy's arange fills its result: integers wrap, floats multiply then add in their own precision, complex
// numbers per part, float16/bfloat16 in float32 then rounded. `start` and `delta` carry out's dtype
// (Scalar::value.i/.u for integers and bool, .f for real floats, .c for complex).
NPGPU_API void arange_fill(const ArrayView& out, const Scalar& start, const Scalar& delta, StreamHandle stream);

}  // namespace npgpu
