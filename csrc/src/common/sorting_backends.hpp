#pragma once
// Internal: the CUDA and host implementations of sorting (csrc/src/sorting.cpp checks and dispatches).
// Arguments as npgpu::sort_rows, already checked; `rows` rows of `n` elements (n > 0).
#include <cstdint>

#include "npgpu/runtime.hpp"
#include "npgpu/view.hpp"

namespace npgpu {
namespace cuda {
std::int64_t run_starts(const ArrayView& sorted, const ArrayView& out, bool equal_nan, StreamHandle stream);
void sort_rows(const ArrayView& keys, const ArrayView* values, const ArrayView* indices, std::int64_t rows,
               std::int64_t n, bool descending, StreamHandle stream);
void search_sorted(const ArrayView& sorted, const ArrayView& queries, const ArrayView& out, bool right,
                   StreamHandle stream);
void key_range(const ArrayView& keys, const ArrayView& range, StreamHandle stream);
void count_keys(const ArrayView& keys, const ArrayView& range, const ArrayView& counts, const ArrayView* first,
                StreamHandle stream);
void lookup_keys(const ArrayView& keys, const ArrayView& range, const ArrayView& table, const ArrayView& out,
                 StreamHandle stream);
}
namespace host {
std::int64_t run_starts(const ArrayView& sorted, const ArrayView& out, bool equal_nan, StreamHandle stream);
void search_sorted(const ArrayView& sorted, const ArrayView& queries, const ArrayView& out, bool right,
                   StreamHandle stream);
void sort_rows(const ArrayView& keys, const ArrayView* values, const ArrayView* indices, std::int64_t rows,
               std::int64_t n, bool descending, StreamHandle stream);
void key_range(const ArrayView& keys, const ArrayView& range, StreamHandle stream);
void count_keys(const ArrayView& keys, const ArrayView& range, const ArrayView& counts, const ArrayView* first,
                StreamHandle stream);
void lookup_keys(const ArrayView& keys, const ArrayView& range, const ArrayView& table, const ArrayView& out,
                 StreamHandle stream);
}
}  // namespace npgpu
