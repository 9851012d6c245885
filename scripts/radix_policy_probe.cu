// Probe: CUB's onesweep radix sort with wider digits (fewer passes) than its SM90 tuning's 8 bits, timed
// against the default, for the two sorts issue 18 leaves short of target (2^26 int64 keys; 2^26 float32
// keys with int32 positions, argsort's inner sort). 11-bit digits do not fit: the onesweep kernel's static
// shared memory passes 48 KiB even at 128 threads, so 32-bit keys keep 4 passes; 64-bit keys can take 7. Build: nvcc -O3 -arch=sm_90 -std=c++17
// scripts/radix_policy_probe.cu -o radix_policy_probe; run on the GPU: ./radix_policy_probe.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/dispatch/dispatch_radix_sort.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#define CK(x)                                                                          \
  do {                                                                                 \
    cudaError_t e_ = (x);                                                              \
    if (e_ != cudaSuccess) {                                                           \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      return -1.0f;                                                                    \
    }                                                                                  \
  } while (0)

template <class K, class V, int BITS, int THREADS, int ITEMS>
struct Hub {
  using Base = cub::detail::radix::policy_hub<K, V, std::uint32_t>;
  using Dominant = std::conditional_t<(sizeof(V) > sizeof(K)) && !std::is_same_v<V, cub::NullType>, V, K>;
  struct Policy900 : cub::ChainedPolicy<900, Policy900, Policy900>,
                     Base::template OnesweepSmallKeyTunedPolicy<cub::detail::radix::sm90_small_key_tuning<
                         sizeof(K), std::is_same_v<V, cub::NullType> ? 0 : sizeof(V), 4>> {
    static constexpr bool ONESWEEP = true;
    static constexpr int ONESWEEP_RADIX_BITS = BITS;
    using HistogramPolicy = cub::AgentRadixSortHistogramPolicy<128, 16, 1, K, BITS>;
    using ExclusiveSumPolicy = cub::AgentRadixSortExclusiveSumPolicy<256, BITS>;
    using OnesweepPolicy =
        cub::AgentRadixSortOnesweepPolicy<THREADS, ITEMS, Dominant, 1, cub::RADIX_RANK_MATCH_EARLY_COUNTS_ANY,
                                          cub::BLOCK_SCAN_RAKING_MEMOIZE, cub::RADIX_SORT_STORE_DIRECT, BITS>;
  };
  using MaxPolicy = Policy900;
};

// Median of 9 timed runs (after 2 warm-ups) of one sort; checks the keys come out sorted.
template <class K, class V, int BITS, int THREADS, int ITEMS, bool DEFAULT>
float run(const std::vector<K>& h, const char* name) {
  const std::uint32_t n = static_cast<std::uint32_t>(h.size());
  constexpr bool keys_only = std::is_same_v<V, cub::NullType>;
  K *k_in, *k_out;
  V *v_in = nullptr, *v_out = nullptr;
  CK(cudaMalloc(&k_in, n * sizeof(K)));
  CK(cudaMalloc(&k_out, n * sizeof(K)));
  if constexpr (!keys_only) {
    CK(cudaMalloc(&v_in, n * sizeof(V)));
    CK(cudaMalloc(&v_out, n * sizeof(V)));
    std::vector<V> iota(n);
    for (std::uint32_t i = 0; i < n; ++i) iota[i] = static_cast<V>(i);
    CK(cudaMemcpy(v_in, iota.data(), n * sizeof(V), cudaMemcpyHostToDevice));
  }
  CK(cudaMemcpy(k_in, h.data(), n * sizeof(K), cudaMemcpyHostToDevice));
  void* temp = nullptr;
  std::size_t bytes = 0;
  auto sort = [&](void* t, std::size_t& b) -> cudaError_t {
    if constexpr (DEFAULT) {
      if constexpr (keys_only) return cub::DeviceRadixSort::SortKeys(t, b, k_in, k_out, n);
      else return cub::DeviceRadixSort::SortPairs(t, b, k_in, k_out, v_in, v_out, n);
    } else {
      cub::DoubleBuffer<K> kd(k_in, k_out);
      cub::DoubleBuffer<V> vd(v_in, v_out);
      return cub::DispatchRadixSort<cub::SortOrder::Ascending, K, V, std::uint32_t, cub::detail::identity_decomposer_t,
                                    Hub<K, V, BITS, THREADS, ITEMS>>::Dispatch(t, b, kd, vd, n, 0, sizeof(K) * 8, false,
                                                                               0);
    }
  };
  CK(sort(nullptr, bytes));
  CK(cudaMalloc(&temp, bytes));
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::vector<float> ms;
  for (int r = 0; r < 11; ++r) {
    cudaEventRecord(a);
    CK(sort(temp, bytes));
    cudaEventRecord(b);
    CK(cudaEventSynchronize(b));
    float t = 0;
    cudaEventElapsedTime(&t, a, b);
    if (r >= 2) ms.push_back(t);
  }
  std::vector<K> out(n);
  CK(cudaMemcpy(out.data(), k_out, n * sizeof(K), cudaMemcpyDeviceToHost));
  bool ok = std::is_sorted(out.begin(), out.end());
  if constexpr (!keys_only) {
    std::vector<V> pos(n);
    CK(cudaMemcpy(pos.data(), v_out, n * sizeof(V), cudaMemcpyDeviceToHost));
    for (std::uint32_t i = 0; ok && i < n; i += 4099) ok = h[pos[i]] == out[i];
  }
  std::sort(ms.begin(), ms.end());
  std::printf("%-44s %8.3f ms  %s  (temp %zu MiB)\n", name, ms[ms.size() / 2], ok ? "sorted" : "WRONG", bytes >> 20);
  cudaFree(temp);
  cudaFree(k_in);
  cudaFree(k_out);
  cudaFree(v_in);
  cudaFree(v_out);
  return ms[ms.size() / 2];
}

int main() {
  const std::size_t n = std::size_t{1} << 26;
  std::mt19937_64 g(7);
  std::vector<std::int64_t> i64(n);
  for (auto& v : i64) v = static_cast<std::int64_t>(g()) >> 1;  // about +-2^62, as the benchmark
  std::vector<float> f32(n);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  for (auto& v : f32) v = u(g);
  using cub::NullType;
  run<std::int64_t, NullType, 8, 384, 30, true>(i64, "int64 keys, CUB default");
  run<std::int64_t, NullType, 8, 384, 30, false>(i64, "int64 keys, 8 bits 384x30 (custom hub)");
  run<std::int64_t, NullType, 10, 256, 24, false>(i64, "int64 keys, 10 bits 256x24");
  run<std::int64_t, NullType, 10, 256, 30, false>(i64, "int64 keys, 10 bits 256x30");
  run<std::int64_t, NullType, 10, 256, 18, false>(i64, "int64 keys, 10 bits 256x18");
  run<std::int64_t, NullType, 10, 192, 30, false>(i64, "int64 keys, 10 bits 192x30");
  run<float, std::int32_t, 8, 384, 23, true>(f32, "float32 + int32, CUB default");
  run<float, std::int32_t, 8, 384, 23, false>(f32, "float32 + int32, 8 bits 384x23 (custom hub)");
  run<float, std::int32_t, 8, 256, 30, false>(f32, "float32 + int32, 8 bits 256x30");
  return 0;
}
