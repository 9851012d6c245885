// Probe: the column FFT kernel (csrc/src/cuda/fft_columns.cuh) against cuFFT's strided and last-axis
// plans, for correctness (forward, inverse, in place) and time. Built on the GPU machine:
//   nvcc -O3 -std=c++17 -arch=sm_90 -Icsrc/src -I$INC scripts/column_fft_probe.cu -o /tmp/colprobe \
//     -L$LIB -l:libcufft.so.12
// with INC and LIB the include and lib folders of the nvidia cuFFT wheel.
#include <cufft.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cuda/fft_columns.cuh"

using namespace npgpu::cuda::fft_columns;

#define CK(x)                                                                   \
  do {                                                                          \
    cudaError_t e = (x);                                                        \
    if (e) {                                                                    \
      std::printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e));     \
      std::exit(1);                                                             \
    }                                                                           \
  } while (0)

__global__ void make_table(float2* tw) {
  const int m = blockIdx.x * blockDim.x + threadIdx.x;
  if (m >= kTable) return;
  double s, c;
  sincospi(-2.0 * m / kTable, &s, &c);
  tw[m] = make_float2(static_cast<float>(c), static_cast<float>(s));
}

template <int N, bool F>
void run(const float2* in, float2* out, long long stride, long long cols, const float2* tw, cudaStream_t s) {
  auto k = columns_kernel<N, F>;
  static bool set = false;
  if (!set) {
    CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_bytes(N))));
    set = true;
  }
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(static_cast<unsigned>((cols + kColumns - 1) / kColumns * cluster_blocks(N)));
  cfg.blockDim = dim3(kThreads);
  cfg.dynamicSmemBytes = shared_bytes(N);
  cfg.stream = s;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = cluster_blocks(N);
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  CK(cudaLaunchKernelEx(&cfg, k, in, static_cast<std::int64_t>(stride), out, static_cast<std::int64_t>(stride),
                        static_cast<std::int64_t>(cols), tw));
}

template <int N>
void test(long long cols) {
  const size_t n = static_cast<size_t>(N) * cols;
  std::vector<float2> h(n);
  std::srand(1);
  for (auto& v : h) {
    v.x = std::rand() / static_cast<float>(RAND_MAX) - 0.5f;
    v.y = std::rand() / static_cast<float>(RAND_MAX) - 0.5f;
  }
  float2 *d, *o, *r, *tw;
  CK(cudaMalloc(&d, n * 8));
  CK(cudaMalloc(&o, n * 8));
  CK(cudaMalloc(&r, n * 8));
  CK(cudaMalloc(&tw, kTable * 8));
  make_table<<<kTable / 256, 256>>>(tw);
  CK(cudaMemcpy(d, h.data(), n * 8, cudaMemcpyHostToDevice));
  cufftHandle pl, last;
  long long nn = N, emb = N;
  size_t ws;
  cufftCreate(&pl);
  cufftMakePlanMany64(pl, 1, &nn, &emb, cols, 1, &emb, cols, 1, CUFFT_C2C, cols, &ws);
  cufftCreate(&last);
  cufftMakePlanMany64(last, 1, &nn, &emb, 1, N, &emb, 1, N, CUFFT_C2C, cols, &ws);
  for (int dir = 0; dir < 2; ++dir) {
    const bool fwd = dir == 0;
    cufftExecC2C(pl, reinterpret_cast<cufftComplex*>(d), reinterpret_cast<cufftComplex*>(r),
                 fwd ? CUFFT_FORWARD : CUFFT_INVERSE);
    CK(cudaMemset(o, 0xFF, n * 8));
    if (fwd) run<N, true>(d, o, cols, cols, tw, 0);
    else run<N, false>(d, o, cols, cols, tw, 0);
    CK(cudaDeviceSynchronize());
    std::vector<float2> a(n), b(n);
    CK(cudaMemcpy(a.data(), o, n * 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(b.data(), r, n * 8, cudaMemcpyDeviceToHost));
    double err = 0, mx = 0;
    for (size_t i = 0; i < n; ++i) {
      err = std::max(err, static_cast<double>(std::hypot(a[i].x - b[i].x, a[i].y - b[i].y)));
      mx = std::max(mx, static_cast<double>(std::hypot(b[i].x, b[i].y)));
    }
    CK(cudaMemcpy(o, d, n * 8, cudaMemcpyDeviceToDevice));
    if (fwd) run<N, true>(o, o, cols, cols, tw, 0);
    else run<N, false>(o, o, cols, cols, tw, 0);
    CK(cudaMemcpy(a.data(), o, n * 8, cudaMemcpyDeviceToHost));
    double err2 = 0;
    for (size_t i = 0; i < n; ++i) err2 = std::max(err2, static_cast<double>(std::hypot(a[i].x - b[i].x, a[i].y - b[i].y)));
    std::printf("N=%d cols=%lld %s: max|ours - cufft| / max|X| = %.2e (in place %.2e)\n", N, cols, fwd ? "fwd" : "inv",
                err / mx, err2 / mx);
  }
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  auto time = [&](auto f) {
    for (int i = 0; i < 3; ++i) f();
    std::vector<float> t;
    for (int i = 0; i < 21; ++i) {
      cudaEventRecord(e0);
      f();
      cudaEventRecord(e1);
      cudaEventSynchronize(e1);
      float ms;
      cudaEventElapsedTime(&ms, e0, e1);
      t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    return t[10];
  };
  const float t_cols = time([&] { run<N, true>(d, o, cols, cols, tw, 0); });
  const float t_cufft = time([&] {
    cufftExecC2C(pl, reinterpret_cast<cufftComplex*>(d), reinterpret_cast<cufftComplex*>(r), CUFFT_FORWARD);
  });
  const float t_last = time([&] {
    cufftExecC2C(last, reinterpret_cast<cufftComplex*>(d), reinterpret_cast<cufftComplex*>(r), CUFFT_FORWARD);
  });
  std::printf("N=%d cols=%lld: columns kernel %.4f ms (%.0f GB/s), cuFFT strided %.4f, cuFFT last axis %.4f "
              "(ours / last %.2f)\n", N, cols, t_cols, 2.0 * n * 8 / t_cols / 1e6, t_cufft, t_last, t_cols / t_last);
  CK(cudaGetLastError());
  cudaFree(d);
  cudaFree(o);
  cudaFree(r);
  cudaFree(tw);
  cufftDestroy(pl);
  cufftDestroy(last);
}

int main() {
  test<16>(1000);
  test<32>(257);
  test<64>(100);
  test<128>(33);
  test<256>(1001);
  test<512>(4096);
  test<1024>(4096);
  test<2048>(2049);
  test<4096>(4096);
  test<4096>(2049);
  return 0;
}
