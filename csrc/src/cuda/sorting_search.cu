// CUDA implementation of the searches over sorted data: search_sorted (one thread per query, a binary search
// in NumPy's order) and run_starts (cub::DeviceSelect::Flagged over the positions, flagged where an element
// differs from the one before it, then the count read back). Beside sorting.cu, whose CUB sorts are slow to
// compile, so that the two compile in parallel.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/cuda_check.hpp"
#include "common/dispatch.hpp"
#include "common/sort_order.hpp"
#include "common/sorting_backends.hpp"
#include "cuda/select_positions.cuh"

namespace npgpu::cuda {
namespace {

template <class T>
__global__ void search_kernel(const T* __restrict__ a, std::int64_t n, const T* __restrict__ q,
                              std::int64_t* __restrict__ out, std::int64_t m, bool right) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < m; i += stride)
    out[i] = detail::insertion_position(a, n, q[i], right);
}

// Position i starts a run: the first element, or one that differs from the element before it.
template <class T>
struct RunStartAt {
  const T* a;
  bool equal_nan;
  __host__ __device__ bool operator()(std::int64_t i) const {
    return i == 0 || !detail::same_value(a[i], a[i - 1], equal_nan);
  }
};

}  // namespace

std::int64_t run_starts(const ArrayView& sorted, const ArrayView& out, bool equal_nan, StreamHandle stream) {
  return detail::dispatch_storage_dtype(sorted.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return select_positions(RunStartAt<T>{static_cast<const T*>(sorted.data), equal_nan}, sorted.size(),
                            static_cast<std::int64_t*>(out.data), sorted.device, static_cast<cudaStream_t>(stream));
  });
}

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
