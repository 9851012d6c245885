// Host implementation of the creation functions: arange's fill (OpenMP over the elements).
#include <cstdint>

#include "common/creation_backends.hpp"
#include "common/creation_ops.hpp"
#include "common/dispatch.hpp"
#include "host/openmp.hpp"

namespace npgpu::host {

void arange_fill(const ArrayView& out, const Scalar& start, const Scalar& delta, StreamHandle) {
  const std::int64_t n = out.size();
  detail::dispatch_storage_dtype(out.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = static_cast<T*>(out.data);
    const detail::ArangeValue<T> value{start.value, delta.value};
    parallel_for(n, n > (1 << 16), [&](std::int64_t i) { p[i] = value(i); });
  });
}

}  // namespace npgpu::host
