// Argument checks and dispatch of sorting (sort_rows) and of the binary search over sorted data (search_sorted).
#include "npgpu/sorting.hpp"

#include <string>

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

}  // namespace npgpu
