// Argument checks and dispatch of sorting (sort_rows), of the binary search over sorted data (search_sorted)
// and of the counting route for narrow integer keys (key_range, count_keys, lookup_keys).
#include "npgpu/sorting.hpp"

#include <string>

#include "common/dtype_kinds.hpp"
#include "common/sorting_backends.hpp"
#include "npgpu/errors.hpp"

namespace npgpu {

void sort_rows(const ArrayView& keys, const ArrayView* values, const ArrayView* indices, bool descending,
               StreamHandle stream) {
  if (!values && !indices) throw InvalidArgument("sort_rows: give values, indices or both to write");
  if (!keys.is_c_contiguous()) throw InvalidArgument("sort_rows: keys must be C-contiguous, got " + keys.describe());
  auto check_out = [&](const ArrayView& out, const char* what) {
    bool same = out.ndim == keys.ndim;
    for (int d = 0; same && d < keys.ndim; ++d) same = out.shape[d] == keys.shape[d];
    if (!same) throw InvalidArgument(std::string("sort_rows: ") + what + " " + out.describe() +
                                     " does not have the shape of keys " + keys.describe());
    if (!out.is_c_contiguous()) throw InvalidArgument(std::string("sort_rows: ") + what + " must be C-contiguous");
    if (out.readonly) throw InvalidArgument(std::string("sort_rows: ") + what + " is read-only");
    if (out.device != keys.device) throw InvalidArgument(std::string("sort_rows: ") + what + " is on another device");
  };
  if (values) {
    check_out(*values, "values");
    if (values->dtype != keys.dtype) throw InvalidArgument("sort_rows: values must have the dtype of keys");
  }
  if (indices) {
    check_out(*indices, "indices");
    if (indices->dtype != DType::Int64) throw InvalidArgument("sort_rows: indices must be int64");
  }
  if (keys.dtype == DType::BFloat16 && keys.device != kHostDevice)
    throw TypeError("sort_rows: bfloat16 keys are not supported on the GPU");
  const std::int64_t size = keys.size();
  if (size == 0) return;
  const std::int64_t n = keys.ndim == 0 ? 1 : keys.shape[keys.ndim - 1];
  const std::int64_t rows = size / n;
  if (keys.on_host()) {
    host::sort_rows(keys, values, indices, rows, n, descending, stream);
  } else {
    activate_device(keys.device);
    cuda::sort_rows(keys, values, indices, rows, n, descending, stream);
  }
}

void search_sorted(const ArrayView& sorted, const ArrayView& queries, const ArrayView& out, bool right,
                   StreamHandle stream) {
  if (sorted.ndim != 1 || !sorted.is_c_contiguous())
    throw InvalidArgument("search_sorted: sorted must be 1-D and contiguous, got " + sorted.describe());
  if (!queries.is_c_contiguous() || !out.is_c_contiguous())
    throw InvalidArgument("search_sorted: queries and out must be C-contiguous");
  if (sorted.dtype != queries.dtype) throw InvalidArgument("search_sorted: sorted and queries differ in dtype");
  if (out.dtype != DType::Int64 || out.size() != queries.size())
    throw InvalidArgument("search_sorted: out must be int64 with one element per query");
  if (out.readonly) throw InvalidArgument("search_sorted: out is read-only");
  if (sorted.device != queries.device || out.device != queries.device)
    throw InvalidArgument("search_sorted: arrays on different devices");
  if (queries.size() == 0) return;
  if (queries.on_host()) {
    host::search_sorted(sorted, queries, out, right, stream);
  } else {
    activate_device(queries.device);
    cuda::search_sorted(sorted, queries, out, right, stream);
  }
}

std::int64_t sorted_run_starts(const ArrayView& sorted, const ArrayView& out, bool equal_nan, StreamHandle stream) {
  if (sorted.ndim != 1 || !sorted.is_c_contiguous())
    throw InvalidArgument("sorted_run_starts: sorted must be 1-D and contiguous, got " + sorted.describe());
  if (out.dtype != DType::Int64 || !out.is_c_contiguous() || out.size() < sorted.size())
    throw InvalidArgument("sorted_run_starts: out must be contiguous int64 with room for " +
                          std::to_string(sorted.size()) + " positions, got " + out.describe());
  if (out.readonly) throw InvalidArgument("sorted_run_starts: out is read-only");
  if (out.device != sorted.device) throw InvalidArgument("sorted_run_starts: sorted and out on different devices");
  if (sorted.size() == 0) return 0;
  if (sorted.on_host()) return host::run_starts(sorted, out, equal_nan, stream);
  activate_device(sorted.device);
  return cuda::run_starts(sorted, out, equal_nan, stream);
}

namespace {

// keys integer or bool and C-contiguous; range of keys' dtype, contiguous, on keys' device, at least `need` long.
void check_keys_and_range(const char* fn, const ArrayView& keys, const ArrayView& range, std::int64_t need) {
  if (!detail::is_integer_or_bool(keys.dtype))
    throw TypeError(std::string(fn) + ": keys must be of an integer or bool dtype, got " + dtype_name(keys.dtype));
  if (!keys.is_c_contiguous()) throw InvalidArgument(std::string(fn) + ": keys must be C-contiguous");
  if (range.dtype != keys.dtype || !range.is_c_contiguous() || range.size() < need)
    throw InvalidArgument(std::string(fn) + ": range must be " + std::to_string(need) + " contiguous elements of " +
                          dtype_name(keys.dtype) + ", got " + range.describe());
  if (range.device != keys.device) throw InvalidArgument(std::string(fn) + ": keys and range on different devices");
}

// An int64, 1-D (or any shape when `elements` is given, with that many elements), contiguous, writable output
// on `device`.
void check_int64_out(const char* fn, const char* what, const ArrayView& out, int device, std::int64_t elements = -1) {
  const bool shape_ok = elements < 0 ? out.ndim == 1 : out.size() == elements;
  if (out.dtype != DType::Int64 || !shape_ok || !out.is_c_contiguous())
    throw InvalidArgument(std::string(fn) + ": " + what + " must be contiguous int64" +
                          (elements < 0 ? std::string(", 1-D") : " with " + std::to_string(elements) + " elements") +
                          ", got " + out.describe());
  if (out.readonly) throw InvalidArgument(std::string(fn) + ": " + what + " is read-only");
  if (out.device != device) throw InvalidArgument(std::string(fn) + ": " + what + " is on another device");
}

}  // namespace

void key_range(const ArrayView& keys, const ArrayView& range, StreamHandle stream) {
  check_keys_and_range("key_range", keys, range, 2);
  if (range.size() != 2) throw InvalidArgument("key_range: range must have 2 elements, got " + range.describe());
  if (range.readonly) throw InvalidArgument("key_range: range is read-only");
  if (keys.size() == 0) throw InvalidArgument("key_range: keys are empty (they have no range)");
  if (keys.on_host()) return host::key_range(keys, range, stream);
  activate_device(keys.device);
  cuda::key_range(keys, range, stream);
}

void count_keys(const ArrayView& keys, const ArrayView& range, const ArrayView& counts, const ArrayView* first,
                StreamHandle stream) {
  check_keys_and_range("count_keys", keys, range, 1);
  check_int64_out("count_keys", "counts", counts, keys.device);
  if (first) check_int64_out("count_keys", "first", *first, keys.device, counts.size());
  if (counts.size() == 0) return;
  if (keys.on_host()) return host::count_keys(keys, range, counts, first, stream);
  activate_device(keys.device);
  cuda::count_keys(keys, range, counts, first, stream);
}

void lookup_keys(const ArrayView& keys, const ArrayView& range, const ArrayView& table, const ArrayView& out,
                 StreamHandle stream) {
  check_keys_and_range("lookup_keys", keys, range, 1);
  if (table.dtype != DType::Int64 || table.ndim != 1 || !table.is_c_contiguous())
    throw InvalidArgument("lookup_keys: table must be contiguous int64, 1-D, got " + table.describe());
  if (table.device != keys.device) throw InvalidArgument("lookup_keys: keys and table on different devices");
  check_int64_out("lookup_keys", "out", out, keys.device, keys.size());
  if (keys.size() == 0) return;
  if (keys.on_host()) return host::lookup_keys(keys, range, table, out, stream);
  activate_device(keys.device);
  cuda::lookup_keys(keys, range, table, out, stream);
}

}  // namespace npgpu
