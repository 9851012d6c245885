// CUDA implementation of the creation functions: arange's fill, one element per thread-iteration with
// 64-bit grid-stride indexing (a write-only stream: memory bound).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/creation_backends.hpp"
#include "common/creation_ops.hpp"
#include "common/cuda_check.hpp"
#include "common/dispatch.hpp"

namespace npgpu::cuda {
namespace {

template <class T>
__global__ void arange_kernel(T* out, std::int64_t n, detail::ArangeValue<T> value) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = value(i);
}

}  // namespace

void arange_fill(const ArrayView& out, const Scalar& start, const Scalar& delta, StreamHandle stream) {
  const std::int64_t n = out.size();
  detail::dispatch_storage_dtype(out.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const std::int64_t blocks = std::min<std::int64_t>((n + 255) / 256, 1 << 20);
    arange_kernel<T><<<static_cast<unsigned>(blocks), 256, 0, static_cast<cudaStream_t>(stream)>>>(
        static_cast<T*>(out.data), n, detail::ArangeValue<T>{start.value, delta.value});
    NPGPU_CHECK_LAUNCH("arange_fill");
  });
}

}  // namespace npgpu::cuda
