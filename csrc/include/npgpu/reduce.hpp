#pragma once
// Reductions (sum, prod, min, max, argmin, argmax, any, all, count_nonzero, mean, var, std, norms and the
// NaN-ignoring forms) over any set of axes, and inclusive / exclusive scans (cumsum, cumprod) along one axis.
//
// Device views go through CUB (DeviceReduce for whole-array reductions, DeviceSegmentedReduce for rows of
// contiguous segments, DeviceScan / DeviceScan by key for scans) with temporary storage from npgpu's pool on
// the call's stream, and through a hand-written column kernel where the reduced elements of one output are
// strided and the outputs are adjacent (axis 0 of a C-contiguous matrix, the middle axis of a 3-D array,
// short rows). Host views run the OpenMP backend. Counts and indices are 64-bit everywhere.
//
// Compute types (what the elements are converted to before they are combined):
//   sum, prod, nansum, nanprod, mean: by `acc` (NumPy's accumulator dtype): integer and bool accumulators
//     combine in 64-bit two's complement (so sums and products wrap as NumPy's do, modulo the output
//     dtype's width), float16/float32/float64 accumulators combine in float64 (float32 sums are therefore
//     more accurate than NumPy's pairwise float32 sums), complex in complex128;
//   min, max, argmin, argmax: by the input dtype: signed integers as int64, unsigned and bool as uint64,
//     floats as float64 (exact); complex inputs raise TypeError (not supported);
//   var, std, nanmean, nanvar, nanstd: float64 (Chan/Welford merges of (count, mean, M2)); complex raises
//     TypeError;
//   any, all, count_nonzero: "element != 0" (NaN counts as nonzero, as in NumPy);
//   norms: float64 of |x| (complex: the modulus).
// Results are converted to out's dtype on store (NumPy's unsafe casting).
//
// NaN: sum/prod/mean/var propagate NaN by arithmetic; min/max/argmin/argmax propagate it as NumPy does
// (max is NaN when any element is NaN; argmax is the index of the first NaN); the nan* forms skip NaNs
// (nanmin/nanmax of an all-NaN slice give NaN, nanmean/nanvar give NaN).
// Empty reductions: the identity (sum 0, prod 1, any False, all True, count 0); mean/var of nothing NaN;
// min/max/argmin/argmax of nothing throw InvalidArgument ("zero-size array to reduction operation ...").
#include <cstdint>

#include "npgpu/export.hpp"
#include "npgpu/runtime.hpp"
#include "npgpu/view.hpp"

namespace npgpu {

enum class ReduceOp : int {
  Sum = 0,
  Prod = 1,
  Min = 2,
  Max = 3,
  ArgMin = 4,
  ArgMax = 5,
  Any = 6,
  All = 7,
  CountNonzero = 8,
  NanSum = 9,
  NanProd = 10,
  NanMin = 11,
  NanMax = 12,
  Mean = 13,
  NanMean = 14,
  Var = 15,
  NanVar = 16,
  Std = 17,
  NanStd = 18,
  Norm1 = 19,      // sum |x|
  Norm2 = 20,      // sqrt(sum |x|^2)
  NormInf = 21,    // max |x|
  NormNegInf = 22, // min |x|
};

// out = op over the axes of `in` whose bit is set in `axes` (bit d: axis d). out has in's shape without the
// reduced axes, or with them kept as extent 1 (keepdims); any strides, any dtype (converted on store).
// `acc` is the accumulator dtype for sum/prod/nansum/nanprod/mean (NumPy's: the result dtype, or dtype=);
// ignored by the other operations. ddof: var/std only. Both views on one device, or both on the host.
// Asynchronous on a device.
NPGPU_API void reduce(ReduceOp op, const ArrayView& in, std::uint64_t axes, const ArrayView& out, DType acc,
                      double ddof, StreamHandle stream);

// Name NumPy uses for the operation in messages ("maximum", "argmax", ...).
NPGPU_API const char* reduce_op_name(ReduceOp op);

enum class ScanOp : int {
  Sum = 0,   // cumsum
  Prod = 1,  // cumprod
};

// out = the scan of `in` along `axis` (0 <= axis < in.ndim), out of in's shape (any strides and dtype: the
// scan is computed in out's dtype's class: integers and bool in 64-bit two's complement; float16/float32 in
// float32 for a one-row cumsum on a device (CUB, as NumPy and CuPy), in float64 otherwise, stored rounded;
// float64; complex64 / complex128 in their own precision on a device, complex128 on the host). exclusive:
// out[..., 0] is the identity and
// out[..., i] combines in[..., :i]. `in` and `out` may be the same memory (in-place). Asynchronous on a device.
NPGPU_API void scan(ScanOp op, const ArrayView& in, int axis, const ArrayView& out, bool exclusive,
                    StreamHandle stream);

}  // namespace npgpu
