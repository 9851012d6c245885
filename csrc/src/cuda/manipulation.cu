// CUDA implementation of the manipulation functions: copy_batch through cub::DeviceMemcpy::Batched, the
// buffers' addresses and sizes passed by value in the iterators (no upload), up to kBatch pairs a launch.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <cub/device/device_memcpy.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "common/manipulation_backends.hpp"
#include "cuda/cub_run.cuh"

namespace npgpu::cuda {
namespace {

constexpr int kBatch = 64;

// The k-th entry of a table that travels in the kernel's parameters.
template <class T>
struct Table {
  T v[kBatch];
  __host__ __device__ T operator()(int k) const { return v[k]; }
};

}  // namespace

void copy_batch(const ArrayView* src, const ArrayView* dst, int n, StreamHandle stream) {
  auto s = static_cast<cudaStream_t>(stream);
  for (int first = 0; first < n; first += kBatch) {
    Table<const void*> from{};
    Table<void*> to{};
    Table<std::size_t> bytes{};
    int m = 0;
    for (int k = first; k < std::min(n, first + kBatch); ++k) {
      if (dst[k].nbytes() == 0) continue;
      from.v[m] = src[k].data;
      to.v[m] = dst[k].data;
      bytes.v[m] = static_cast<std::size_t>(dst[k].nbytes());
      ++m;
    }
    if (m == 0) continue;
    const thrust::counting_iterator<int> index(0);
    auto from_it = thrust::make_transform_iterator(index, from);
    auto to_it = thrust::make_transform_iterator(index, to);
    auto bytes_it = thrust::make_transform_iterator(index, bytes);
    cub_run([&](void* t, std::size_t& b) {
      return cub::DeviceMemcpy::Batched(t, b, from_it, to_it, bytes_it, m, s);
    }, dst[0].device, s);
  }
}

}  // namespace npgpu::cuda
