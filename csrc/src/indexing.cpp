// Argument checks and dispatch of the indexing family (nonzero_positions, take, put, scatter_add).
#include "npgpu/indexing.hpp"

#include <string>

#include "common/indexing_backends.hpp"
#include "common/lazy_message.hpp"
#include "npgpu/errors.hpp"

namespace npgpu {

namespace {

template <class Msg>
void require(bool ok, Msg&& what) {
  if (!ok) throw InvalidArgument(detail::message_text(what));
}

// Checks shared by take and put: `data` is [outer, axis_len, inner], `moved` [outer, m, inner].
void check_gather(const char* name, const ArrayView& data, std::int64_t outer, std::int64_t axis_len,
                  std::int64_t inner, const ArrayView& index, const ArrayView& moved) {
  const std::string n(name);
  require(outer >= 0 && axis_len >= 0 && inner >= 0, [&] { return n + ": negative extent"; });
  require(data.is_c_contiguous() && moved.is_c_contiguous() && index.is_c_contiguous(),
          [&] { return n + ": arrays must be C-contiguous"; });
  require(index.dtype == DType::Int64, [&] { return n + ": the index array must be int64, got " + index.describe(); });
  require(data.dtype == moved.dtype, [&] { return n + ": source and destination dtypes differ"; });
  require(data.size() == outer * axis_len * inner, [&] {
    return n + ": " + data.describe() + " is not [outer, axis_len, inner] = [" + std::to_string(outer) + ", " +
           std::to_string(axis_len) + ", " + std::to_string(inner) + "]";
  });
  require(moved.size() == outer * index.size() * inner,
          [&] { return n + ": " + moved.describe() + " does not hold [outer, index size, inner] elements"; });
  require(data.device == moved.device && data.device == index.device,
          [&] { return n + ": arrays on different devices"; });
}

void raise_bad_index(std::int64_t bad, std::int64_t axis_len) {
  if (bad != detail::kNoBadIndex)
    throw IndexError("index " + std::to_string(bad) + " is out of bounds for axis with size " +
                     std::to_string(axis_len));
}

// Runs the backend of `data`'s device (each returns the first bad index or kNoBadIndex) and raises for a bad
// index; any index into an empty axis is bad, as NumPy's.
template <class OnHost, class OnGpu>
void run_indexed(const ArrayView& data, std::int64_t axis_len, OnHost&& on_host, OnGpu&& on_gpu) {
  if (axis_len == 0) raise_bad_index(0, 0);
  std::int64_t bad;
  if (data.on_host()) {
    bad = on_host();
  } else {
    activate_device(data.device);
    bad = on_gpu();
  }
  raise_bad_index(bad, axis_len);
}

}  // namespace

std::int64_t nonzero_positions(const ArrayView& flags, const ArrayView& out, StreamHandle stream) {
  require(flags.is_c_contiguous() && out.is_c_contiguous(), "nonzero_positions: arrays must be C-contiguous");
  require(out.dtype == DType::Int64, "nonzero_positions: out must be int64");
  require(out.size() >= flags.size(), "nonzero_positions: out is smaller than flags");
  require(out.device == flags.device, "nonzero_positions: arrays on different devices");
  if (flags.size() == 0) return 0;
  if (flags.on_host()) return host::nonzero_positions(flags, out, stream);
  activate_device(flags.device);
  return cuda::nonzero_positions(flags, out, stream);
}

void take(const ArrayView& src, std::int64_t outer, std::int64_t axis_len, std::int64_t inner,
          const ArrayView& index, const ArrayView& out, StreamHandle stream) {
  check_gather("take", src, outer, axis_len, inner, index, out);
  require(!out.readonly, "take: the output is read-only");
  if (out.size() == 0) return;
  run_indexed(src, axis_len, [&] { return host::take(src, outer, axis_len, inner, index, out, stream); },
              [&] { return cuda::take(src, outer, axis_len, inner, index, out, stream); });
}

void put(const ArrayView& dst, std::int64_t outer, std::int64_t axis_len, std::int64_t inner,
         const ArrayView& index, const ArrayView& values, StreamHandle stream) {
  check_gather("put", dst, outer, axis_len, inner, index, values);
  require(!dst.readonly, "put: the destination is read-only");
  if (values.size() == 0) return;
  run_indexed(dst, axis_len, [&] { return host::put(dst, outer, axis_len, inner, index, values, stream); },
              [&] { return cuda::put(dst, outer, axis_len, inner, index, values, stream); });
}

void scatter_add(const ArrayView& dst, std::int64_t outer, std::int64_t axis_len, std::int64_t inner,
                 const ArrayView& index, const ArrayView& values, StreamHandle stream) {
  const bool broadcast = values.size() == 1;
  require(outer >= 0 && axis_len >= 0 && inner >= 0, "scatter_add: negative extent");
  require(dst.is_c_contiguous() && values.is_c_contiguous() && index.is_c_contiguous(),
          "scatter_add: arrays must be C-contiguous");
  require(index.dtype == DType::Int64,
          [&] { return "scatter_add: the index array must be int64, got " + index.describe(); });
  require(dst.dtype == values.dtype, "scatter_add: dst and values dtypes differ");
  require(dst.size() == outer * axis_len * inner,
          [&] { return "scatter_add: " + dst.describe() + " is not [outer, axis_len, inner]"; });
  require(broadcast || values.size() == outer * index.size() * inner, [&] {
    return "scatter_add: " + values.describe() + " holds neither one element nor [outer, index size, inner]";
  });
  require(dst.device == values.device && dst.device == index.device, "scatter_add: arrays on different devices");
  require(!dst.readonly, "scatter_add: the destination is read-only");
  if (outer * index.size() * inner == 0) return;
  run_indexed(dst, axis_len, [&] { return host::scatter_add(dst, outer, axis_len, inner, index, values, stream); },
              [&] { return cuda::scatter_add(dst, outer, axis_len, inner, index, values, stream); });
}

}  // namespace npgpu
