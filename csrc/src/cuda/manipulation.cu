// CUDA implementation of the manipulation functions: copy_batch as one kernel over all the pairs, in chunks
// of 32 KiB, a block per chunk, 16-byte loads and stores where both sides are 16-byte aligned. The pairs'
// addresses travel in the kernel's parameters (no upload), up to kBatch pairs a launch. Not
// cub::DeviceMemcpy::Batched: it is built for many small buffers and is slower on a few large ones (the
// figures: docs/performance-notes.md).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/cuda_check.hpp"
#include "common/manipulation_backends.hpp"

namespace npgpu::cuda {
namespace {

constexpr int kBatch = 64;
constexpr int kThreads = 256;
constexpr int kUnroll = 8;
constexpr std::int64_t kChunk = std::int64_t{kThreads} * kUnroll * 16;  // bytes a block copies at a time

struct Pairs {
  const char* src[kBatch];
  char* dst[kBatch];
  std::int64_t bytes[kBatch];
  std::int64_t first_chunk[kBatch];  // chunks of the pairs before
  int n;
};

__global__ void __launch_bounds__(kThreads) copy_pairs(const Pairs p, std::int64_t chunks) {
  for (std::int64_t c = blockIdx.x; c < chunks; c += gridDim.x) {
    int lo = 0, hi = p.n - 1;  // the last pair whose first chunk is <= c
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      if (p.first_chunk[mid] <= c) lo = mid;
      else hi = mid - 1;
    }
    const std::int64_t off = (c - p.first_chunk[lo]) * kChunk;
    const std::int64_t len = p.bytes[lo] - off < kChunk ? p.bytes[lo] - off : kChunk;
    const char* __restrict__ s = p.src[lo] + off;
    char* __restrict__ d = p.dst[lo] + off;
    std::int64_t done = 0;
    if (((reinterpret_cast<std::uintptr_t>(s) | reinterpret_cast<std::uintptr_t>(d)) & 15) == 0) {
      const std::int64_t vectors = len / 16;
      const auto* sv = reinterpret_cast<const uint4*>(s);
      auto* dv = reinterpret_cast<uint4*>(d);
      uint4 v[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        const std::int64_t i = threadIdx.x + u * kThreads;
        if (i < vectors) v[u] = __ldcs(sv + i);  // streamed: each byte is touched once
      }
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        const std::int64_t i = threadIdx.x + u * kThreads;
        if (i < vectors) __stcs(dv + i, v[u]);
      }
      done = vectors * 16;
    }
    for (std::int64_t i = done + threadIdx.x; i < len; i += kThreads) d[i] = s[i];
  }
}

}  // namespace

void copy_batch(const ArrayView* src, const ArrayView* dst, int n, StreamHandle stream) {
  auto s = static_cast<cudaStream_t>(stream);
  for (int first = 0; first < n; first += kBatch) {
    Pairs p{};
    std::int64_t chunks = 0;
    for (int k = first; k < std::min(n, first + kBatch); ++k) {
      const std::int64_t bytes = dst[k].nbytes();
      if (bytes == 0) continue;
      p.src[p.n] = static_cast<const char*>(src[k].data);
      p.dst[p.n] = static_cast<char*>(dst[k].data);
      p.bytes[p.n] = bytes;
      p.first_chunk[p.n] = chunks;
      chunks += (bytes + kChunk - 1) / kChunk;
      ++p.n;
    }
    if (p.n == 0) continue;
    const auto blocks = static_cast<unsigned>(std::min<std::int64_t>(chunks, std::int64_t{1} << 30));
    copy_pairs<<<blocks, kThreads, 0, s>>>(p, chunks);
    NPGPU_CHECK_LAUNCH("copy_batch");
  }
}

}  // namespace npgpu::cuda
