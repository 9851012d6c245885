// CUDA implementation of search_sorted: one thread per query, a binary search in NumPy's order. (Beside
// sorting.cu, whose CUB sorts are slow to compile, so that the two compile in parallel.)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/cuda_check.hpp"
#include "common/dispatch.hpp"
#include "common/sort_order.hpp"
#include "common/sorting_backends.hpp"

namespace npgpu::cuda {
namespace {

template <class T>
__global__ void search_kernel(const T* __restrict__ a, std::int64_t n, const T* __restrict__ q,
                              std::int64_t* __restrict__ out, std::int64_t m, bool right) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < m; i += stride)
    out[i] = detail::insertion_position(a, n, q[i], right);
}

}  // namespace

void search_sorted(const ArrayView& sorted, const ArrayView& queries, const ArrayView& out, bool right,
                   StreamHandle stream) {
  const std::int64_t m = queries.size();
  const auto blocks = static_cast<unsigned>(std::min<std::int64_t>((m + 255) / 256, std::int64_t{1} << 30));
  detail::dispatch_storage_dtype(queries.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    search_kernel<T><<<blocks, 256, 0, static_cast<cudaStream_t>(stream)>>>(
        static_cast<const T*>(sorted.data), sorted.size(), static_cast<const T*>(queries.data),
        static_cast<std::int64_t*>(out.data), m, right);
  });
  NPGPU_CHECK_LAUNCH("search_sorted");
}

}  // namespace npgpu::cuda
