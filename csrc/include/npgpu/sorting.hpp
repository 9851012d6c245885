#pragma once
// Sorting along the last axis: values, indices (argsort), or both, stable, ascending or descending.
#include "npgpu/export.hpp"
#include "npgpu/runtime.hpp"
#include "npgpu/view.hpp"

namespace npgpu {

// Sorts each row of `keys`, a C-contiguous view whose last axis is the row (a 0-d or 1-D view is one
// row), stably: equal elements keep their order, in both directions. NaNs go last in both directions (as
// NumPy's sort; -0.0 and +0.0 are equal); complex numbers order by real part, then imaginary part, with
// NumPy's NaN rules. Writes the sorted rows to `values` (keys' dtype and shape, C-contiguous; may be null)
// and each sorted element's position within its row to `indices` (int64, keys' shape, C-contiguous; may be
// null). On a GPU: CUB's radix sort (one row) or segmented sort (many), merge sort for complex keys.
// Every dtype but bfloat16's complex cousins; InvalidArgument for bad layouts, TypeError for none given.
NPGPU_API void sort_rows(const ArrayView& keys, const ArrayView* values, const ArrayView* indices,
                         bool descending, StreamHandle stream);

// For each element q of `queries` (any shape, C-contiguous), the position in `sorted` (1-D, C-contiguous,
// ascending in NumPy's order: NaNs last) where q would go to keep it sorted: before the elements equal to q
// (right == false, NumPy's side='left') or after them. `out`: int64 of queries' shape, C-contiguous; all
// three on one device, sorted and queries of one dtype. One binary search per query.
NPGPU_API void search_sorted(const ArrayView& sorted, const ArrayView& queries, const ArrayView& out, bool right,
                             StreamHandle stream);

// The runs of equal elements of `sorted` (1-D, C-contiguous, sorted by sort_rows: equal values adjacent):
// writes the position where each run starts to the start of `out` (int64, C-contiguous, at least
// sorted.size() elements) and returns the number of runs. Equal means numpy.unique's equal: -0.0 == +0.0, and
// NaNs one value when equal_nan (else each NaN its own run). The count sizes what the caller allocates next,
// so a GPU call waits for the device (cub::DeviceSelect).
NPGPU_API std::int64_t sorted_run_starts(const ArrayView& sorted, const ArrayView& out, bool equal_nan,
                                         StreamHandle stream);

// Counting in place of sorting, for integer or bool keys whose values span a narrow range: numpy.unique of
// 2^26 keys with 2^20 distinct values is a few passes over the keys this way, against a radix sort's.
//
// key_range writes the smallest and the largest of `keys` (integer or bool, any shape, C-contiguous, not
// empty) to `range` (2 elements of keys' dtype, C-contiguous, on keys' device): one pass, no wait.
NPGPU_API void key_range(const ArrayView& keys, const ArrayView& range, StreamHandle stream);

// With `range` as key_range wrote it: counts[k] = how many keys equal range[0] + k (int64, 1-D, C-contiguous;
// overwritten), and when `first` is given (int64, of counts' size) first[k] = the smallest flat position of
// such a key, -1 where there is none. Keys outside [range[0], range[0] + counts.size()) are not counted.
NPGPU_API void count_keys(const ArrayView& keys, const ArrayView& range, const ArrayView& counts,
                          const ArrayView* first, StreamHandle stream);

// out[i] = table[keys[i] - range[0]] for every element of keys (flat order), -1 for a key outside the table:
// `table` int64, 1-D; `out` int64 of keys' size, C-contiguous. numpy.unique's inverse from a table of ranks.
NPGPU_API void lookup_keys(const ArrayView& keys, const ArrayView& range, const ArrayView& table, const ArrayView& out,
                           StreamHandle stream);

}  // namespace npgpu
