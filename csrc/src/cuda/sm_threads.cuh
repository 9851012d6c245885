#pragma once
// The most threads one SM holds, on the architecture this device pass compiles for: the minimum blocks per SM of
// a __launch_bounds__ are capped by it, since a minimum the SM cannot hold is ignored (with a ptxas warning)
// and so no longer bounds the registers. The host pass sees the sm_80/sm_90 figure; only device code uses it.
namespace npgpu::cuda {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
constexpr int kSmThreads = 1024;
#elif defined(__CUDA_ARCH__) && \
    (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || __CUDA_ARCH__ == 890 || __CUDA_ARCH__ >= 1200)
constexpr int kSmThreads = 1536;
#else
constexpr int kSmThreads = 2048;
#endif

// `wanted` blocks of `threads` per SM, or as many as the SM holds.
constexpr int min_blocks_per_sm(int wanted, int threads) {
  return wanted * threads <= kSmThreads ? wanted : kSmThreads / threads;
}

}  // namespace npgpu::cuda
