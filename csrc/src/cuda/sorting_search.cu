// CUDA implementation of the searches over sorted data: search_sorted (one thread per query, a binary search
// in NumPy's order; many queries into a large array are radix-sorted first, see search_sorted) and run_starts
// (cub::DeviceSelect::Flagged over the positions, flagged where an element differs from the one before it,
// then the count read back). Beside sorting.cu, whose CUB sorts are slow to compile, so that the two compile
// in parallel.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "common/cuda_check.hpp"
#include "common/dispatch.hpp"
#include "common/sort_order.hpp"
#include "common/sorting_backends.hpp"
#include "cuda/select_positions.cuh"
#include "cuda/sorting_radix.cuh"
#include "npgpu/errors.hpp"
#include "npgpu/memory.hpp"

namespace npgpu::cuda {
namespace {

template <class T>
__global__ void search_kernel(const T* __restrict__ a, std::int64_t n, const T* __restrict__ q,
                              std::int64_t* __restrict__ out, std::int64_t m, bool right) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < m; i += stride)
    out[i] = detail::insertion_position(a, n, q[i], right);
}

// The same search over queries in sorted order, each result written back to the query's own place.
template <class T>
__global__ void search_scattered_kernel(const T* __restrict__ a, std::int64_t n, const T* __restrict__ q_sorted,
                                        const std::int64_t* __restrict__ place, std::int64_t* __restrict__ out,
                                        std::int64_t m, bool right) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < m; i += stride)
    out[place[i]] = detail::insertion_position(a, n, q_sorted[i], right);
}

// Query types the radix sort takes as they are (sorting_radix_*.cu).
template <class T>
constexpr bool kRadixQuery = (std::is_integral_v<T> && !std::is_same_v<T, bool>) || std::is_same_v<T, float> ||
                             std::is_same_v<T, double>;

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

// Random queries into an array larger than the caches cost a chain of cache misses each, and neighbouring
// threads share none of them. Sorted first (a radix sort of the queries with their places), neighbouring
// threads walk nearly the same path through the array and their loads coalesce; the sort costs a few passes
// over the queries. Below these sizes the direct search is cheaper; without memory for the sort, it is used.
constexpr std::int64_t kSortQueriesMin = std::int64_t{1} << 22;
constexpr std::int64_t kSortArrayBytesMin = std::int64_t{1} << 26;

void search_sorted(const ArrayView& sorted, const ArrayView& queries, const ArrayView& out, bool right,
                   StreamHandle stream) {
  const std::int64_t m = queries.size(), n = sorted.size();
  const auto s = static_cast<cudaStream_t>(stream);
  const auto blocks = static_cast<unsigned>(std::min<std::int64_t>((m + 255) / 256, std::int64_t{1} << 30));
  detail::dispatch_storage_dtype(queries.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* a = static_cast<const T*>(sorted.data);
    const T* q = static_cast<const T*>(queries.data);
    auto* res = static_cast<std::int64_t*>(out.data);
    if constexpr (kRadixQuery<T>) {
      if (m >= kSortQueriesMin && n * static_cast<std::int64_t>(sizeof(T)) >= kSortArrayBytesMin) {
        try {
          DeviceBuffer q_sorted(m * static_cast<std::int64_t>(sizeof(T)), queries.device, s);
          DeviceBuffer place(m * 8, queries.device, s);
          sort_detail::radix_sort<T>(q, static_cast<T*>(q_sorted.data()), static_cast<std::int64_t*>(place.data()),
                                     1, m, false, queries.device, s);
          search_scattered_kernel<T><<<blocks, 256, 0, s>>>(a, n, static_cast<const T*>(q_sorted.data()),
                                                            static_cast<const std::int64_t*>(place.data()), res, m,
                                                            right);
          NPGPU_CHECK_LAUNCH("search_sorted");
          return;
        } catch (const OutOfMemoryError&) {
        }
      }
    }
    search_kernel<T><<<blocks, 256, 0, s>>>(a, n, q, res, m, right);
    NPGPU_CHECK_LAUNCH("search_sorted");
  });
}

}  // namespace npgpu::cuda
