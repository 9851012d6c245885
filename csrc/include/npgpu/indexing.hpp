#pragma once
// Indexing with data: the positions of nonzero elements (masks, nonzero), and gathers and scatters along an
// axis with an int64 index array (integer-array indexing, take, put).
#include <cstdint>

#include "npgpu/export.hpp"
#include "npgpu/runtime.hpp"
#include "npgpu/view.hpp"

namespace npgpu {

// Writes the flat positions of the nonzero elements of `flags` (any dtype, C-contiguous), in order, to the
// start of `out` (int64, C-contiguous, at least flags.size() elements) and returns how many there are. The
// count sizes what the caller allocates next, so a GPU call waits for the device (cub::DeviceSelect).
NPGPU_API std::int64_t nonzero_positions(const ArrayView& flags, const ArrayView& out, StreamHandle stream);

// Gather along an axis: with `src` a C-contiguous array seen as [outer, axis_len, inner] and `index` m int64
// values (C-contiguous), out[o, j, i] = src[o, index[j], i], `out` C-contiguous [outer, m, inner] of src's
// dtype. Negative indices count from the end. An index outside [-axis_len, axis_len) throws IndexError
// naming it; checking waits for the device, so a GPU call synchronises its stream.
NPGPU_API void take(const ArrayView& src, std::int64_t outer, std::int64_t axis_len, std::int64_t inner,
                    const ArrayView& index, const ArrayView& out, StreamHandle stream);

// Scatter along an axis, the inverse of take: dst[o, index[j], i] = values[o, j, i] with `dst` a C-contiguous
// [outer, axis_len, inner] array and `values` C-contiguous [outer, m, inner] of dst's dtype. With repeated
// indices one of the values lands (NumPy: the last; here any one). Errors and waiting as take.
NPGPU_API void put(const ArrayView& dst, std::int64_t outer, std::int64_t axis_len, std::int64_t inner,
                   const ArrayView& index, const ArrayView& values, StreamHandle stream);

// Scatter-add along an axis, NumPy's add.at: dst[o, index[j], i] += values[o, j, i] for every j, repeated
// indices accumulating (`values` C-contiguous [outer, m, inner] of dst's dtype, or one element added
// everywhere). bool adds as logical or; float16/bfloat16 round each sum as NumPy's float16 add does. On a GPU
// the additions are atomic and their order is unspecified: integer sums are exact (wrapping), floating sums
// may differ from NumPy's sequential order in the last bits. Every index is checked before anything is
// written; errors and waiting as put.
NPGPU_API void scatter_add(const ArrayView& dst, std::int64_t outer, std::int64_t axis_len, std::int64_t inner,
                           const ArrayView& index, const ArrayView& values, StreamHandle stream);

}  // namespace npgpu
