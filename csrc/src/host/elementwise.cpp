// Host backend of the elementwise operations: the same per-element definitions as the CUDA kernels
// (common/binary_ops.hpp), over OpenMP loops.
#include <cstdint>

#include "common/backends.hpp"
#include "common/binary_ops.hpp"
#include "common/convert.hpp"
#include "common/dispatch.hpp"
#include "common/strided.hpp"

namespace npgpu::host {

void binary(BinaryOp op, const ArrayView& a, const ArrayView& b, const ArrayView& out, DType compute,
            StreamHandle) {
  const std::int64_t n = out.size();
  detail::dispatch_binary_op(op, [&](auto opf) {
    detail::dispatch_dtype(compute, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if (a.dtype == compute && b.dtype == compute && out.dtype == compute && a.is_c_contiguous() &&
          b.is_c_contiguous() && out.is_c_contiguous()) {
        const T* pa = static_cast<const T*>(a.data);
        const T* pb = static_cast<const T*>(b.data);
        T* po = static_cast<T*>(out.data);
#pragma omp parallel for simd schedule(static) if (n > (1 << 16))
        for (std::int64_t i = 0; i < n; ++i) po[i] = opf(pa[i], pb[i]);
        return;
      }
      const ArrayView* views[3] = {&out, &a, &b};
      const auto plan = detail::make_plan<3>(views);
      char* po = static_cast<char*>(out.data);
      const char* pa = static_cast<const char*>(a.data);
      const char* pb = static_cast<const char*>(b.data);
#pragma omp parallel for schedule(static) if (n > (1 << 16))
      for (std::int64_t i = 0; i < n; ++i) {
        std::int64_t off[3];
        plan.offsets(i, off);
        detail::store_as<T>(po + off[0], out.dtype,
                            opf(detail::load_as<T>(pa + off[1], a.dtype), detail::load_as<T>(pb + off[2], b.dtype)));
      }
    });
  });
}

void binary_scalar(BinaryOp op, const ArrayView& a, const Scalar& sc, bool scalar_first, const ArrayView& out,
                   DType compute, StreamHandle) {
  const std::int64_t n = out.size();
  detail::dispatch_binary_op(op, [&](auto opf) {
    detail::dispatch_dtype(compute, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T s = detail::scalar_as<T>(sc);
      const ArrayView* views[2] = {&out, &a};
      const auto plan = detail::make_plan<2>(views);
      char* po = static_cast<char*>(out.data);
      const char* pa = static_cast<const char*>(a.data);
#pragma omp parallel for schedule(static) if (n > (1 << 16))
      for (std::int64_t i = 0; i < n; ++i) {
        std::int64_t off[2];
        plan.offsets(i, off);
        const T x = detail::load_as<T>(pa + off[1], a.dtype);
        detail::store_as<T>(po + off[0], out.dtype, scalar_first ? opf(s, x) : opf(x, s));
      }
    });
  });
}

void copy(const ArrayView& src, const ArrayView& dst, StreamHandle) {
  const std::int64_t n = dst.size();
  const ArrayView* views[2] = {&dst, &src};
  const auto plan = detail::make_plan<2>(views);
  char* pd = static_cast<char*>(dst.data);
  const char* ps = static_cast<const char*>(src.data);
  detail::dispatch_storage_dtype(src.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
#pragma omp parallel for schedule(static) if (n > (1 << 16))
    for (std::int64_t i = 0; i < n; ++i) {
      std::int64_t off[2];
      plan.offsets(i, off);
      detail::store_as<T>(pd + off[0], dst.dtype, *reinterpret_cast<const T*>(ps + off[1]));
    }
  });
}

}  // namespace npgpu::host
