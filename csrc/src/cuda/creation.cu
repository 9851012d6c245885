// CUDA implementation of the creation functions: arange's fill, a write-only stream. Each thread writes
// whole 16-byte vectors (scalar stores do not reach the write bandwidth), with 64-bit grid-stride
// indexing; a misaligned output, or the tail, one element at a time.
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

// One aligned 16-byte store of V consecutive elements.
template <class T, int V>
struct alignas(16) Pack {
  T v[V];
};

template <class T, int V>
__global__ void arange_vector_kernel(T* out, std::int64_t vectors, std::int64_t n, detail::ArangeValue<T> value) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  const std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (std::int64_t j = first; j < vectors; j += stride) {
    Pack<T, V> p;
#pragma unroll
    for (int k = 0; k < V; ++k) p.v[k] = value(j * V + k);
    reinterpret_cast<Pack<T, V>*>(out)[j] = p;
  }
  const std::int64_t tail = vectors * V + first;  // the last n % V elements
  if (tail < n) out[tail] = value(tail);
}

}  // namespace

void arange_fill(const ArrayView& out, const Scalar& start, const Scalar& delta, StreamHandle stream) {
  const std::int64_t n = out.size();
  detail::dispatch_storage_dtype(out.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto s = static_cast<cudaStream_t>(stream);
    const detail::ArangeValue<T> value{start.value, delta.value};
    constexpr int V = sizeof(T) <= 16 && 16 % sizeof(T) == 0 ? static_cast<int>(16 / sizeof(T)) : 1;
    if (V > 1 && reinterpret_cast<std::uintptr_t>(out.data) % 16 == 0) {
      const std::int64_t vectors = n / V;
      const std::int64_t blocks = std::min<std::int64_t>(std::max<std::int64_t>((vectors + 255) / 256, 1), 1 << 20);
      arange_vector_kernel<T, V><<<static_cast<unsigned>(blocks), 256, 0, s>>>(static_cast<T*>(out.data), vectors,
                                                                                n, value);
    } else {
      const std::int64_t blocks = std::min<std::int64_t>((n + 255) / 256, 1 << 20);
      arange_kernel<T><<<static_cast<unsigned>(blocks), 256, 0, s>>>(static_cast<T*>(out.data), n, value);
    }
    NPGPU_CHECK_LAUNCH("arange_fill");
  });
}

}  // namespace npgpu::cuda
