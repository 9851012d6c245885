// Probe (not part of the library): a single-pass column FFT kernel against cuFFT's strided and last-axis
// plans. Complex64 transforms down the columns of a matrix (element (n, c) at n * stride + c), each block
// holding whole columns in shared memory through Stockham passes of radix 16 (the last of radix 2 to 16),
// lengths 16 to 4096. Correct against cuFFT (2e-7 relative), but on an H200 a 4096 x 4096 transform took
// 0.395 ms against cuFFT's two-pass 0.143 ms: two columns a block read 16 bytes of each row
// (docs/performance-notes.md, "A single-pass column FFT"). Built on the GPU machine:
//   nvcc -O3 -std=c++17 -arch=sm_90 -I$INC scripts/column_fft_probe.cu -o /tmp/colprobe -L$LIB -l:libcufft.so.12
// with INC and LIB the include and lib folders of the nvidia cuFFT wheel.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cufft.h>

namespace fft_columns {

constexpr int kThreads = 256;
constexpr int kColumns = 2;  // columns a block transforms: 16 bytes of each row
constexpr int kMaxLength = 4096;
constexpr int kMinLength = 16;

// Shared-memory row of row `r`: one row of padding every 16 rows, so the radix-16 scatter (rows 16 apart
// in consecutive lanes) spreads over the banks.
__host__ __device__ constexpr int padded_row(int r) { return r + (r >> 4); }

__host__ __device__ constexpr std::size_t shared_bytes(int n) {
  return static_cast<std::size_t>(padded_row(n)) * kColumns * sizeof(float2);
}

// The twiddle tables, one per length L = 32, 64, ..., kMaxLength that a pass after the first completes
// (L = p R): entry j p + k of table L is exp(-2 pi i j k / L), j < R, k < p. Table L starts at L - 32.
constexpr int kTwiddleEntries = 2 * kMaxLength - 32;
__host__ __device__ constexpr int twiddle_offset(int length) { return length - 32; }
// The radix of the pass that completes length L: 16 for L = 256, else the last pass's (L / 16 below 256,
// L / 256 above).
__host__ __device__ constexpr int radix_completing(int length) {
  return length == 256 ? 16 : (length < 256 ? length / 16 : length / 256);
}

__device__ __forceinline__ float2 add(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
__device__ __forceinline__ float2 sub(float2 a, float2 b) { return make_float2(a.x - b.x, a.y - b.y); }
__device__ __forceinline__ float2 mul(float2 a, float2 b) {
  return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

// x * exp(-2 pi i k / R) (forward) or exp(+2 pi i k / R), R <= 16, k < R / 2 known after unrolling.
template <int R, bool Forward>
__device__ __forceinline__ float2 rotate(float2 x, int k) {
  constexpr float kCos[4] = {1.0f, 0.92387953251128674f, 0.70710678118654752f, 0.38268343236508977f};
  const int m = k * (16 / R);  // the angle in sixteenths of a turn, 0 to 7
  if (m == 0) return x;
  if (m == 4) return Forward ? make_float2(x.y, -x.x) : make_float2(-x.y, x.x);  // * -i or * i
  const float c = m < 4 ? kCos[m] : -kCos[8 - m];
  const float s = m < 4 ? kCos[4 - m] : kCos[m - 4];  // sin(2 pi m / 16)
  return mul(x, make_float2(c, Forward ? -s : s));
}

// y = DFT of x[0], x[S], ..., x[(R - 1) S] (radix-2 decimation in time, every index a constant).
template <int R, int S, bool Forward>
__device__ __forceinline__ void dft(const float2* x, float2* y) {
  if constexpr (R == 1) {
    y[0] = x[0];
  } else {
    float2 e[R / 2], o[R / 2];
    dft<R / 2, 2 * S, Forward>(x, e);
    dft<R / 2, 2 * S, Forward>(x + S, o);
#pragma unroll
    for (int k = 0; k < R / 2; ++k) {
      const float2 t = rotate<R, Forward>(o[k], k);
      y[k] = add(e[k], t);
      y[k + R / 2] = sub(e[k], t);
    }
  }
}

// Butterflies a thread takes per pass: a pass has 2 n / R of them (two columns) and kThreads threads,
// n <= 4096 with radix 16 except a last pass of radix >= 2 (so at most 2 * 4096 / 16 for radix 16 and
// 2 * 512 / 2 for radix 2).
constexpr int kPerThread = 2;

// One Stockham pass of radix R over a block's columns: butterfly i (of n / R) of column c reads rows
// i + j n / R, j < R (from global memory in the first pass, else from the tile in shared memory),
// multiplies them by the pass's twiddles, and writes its DFT to rows (i - k) R + k + j p, k = i mod p
// (the tile, or global memory in the last pass), p the length the earlier passes have transformed. Every
// read of the tile comes before the barrier, every write after it: the pass rewrites the tile in place.
template <int R, bool Forward, bool First, bool Last>
__device__ __forceinline__ void pass(int n, int p, const float2* __restrict__ in, std::int64_t in_stride,
                                     float2* __restrict__ out, std::int64_t out_stride, int columns,
                                     float2* tile, const float2* __restrict__ twiddles) {
  const int butterflies = n / R;
  const int pairs = butterflies * kColumns;
  // Every load of the thread's butterflies first (more reads in flight), then their arithmetic.
  float2 y[kPerThread][R];
#pragma unroll
  for (int u = 0; u < kPerThread; ++u) {
    const int t = threadIdx.x + u * kThreads;
    if (t >= pairs) break;
    const int c = t % kColumns, i = t / kColumns;
#pragma unroll
    for (int j = 0; j < R; ++j) {
      const int row = i + j * butterflies;
      if constexpr (First)
        y[u][j] = c < columns ? in[row * in_stride + c] : make_float2(0.0f, 0.0f);
      else
        y[u][j] = tile[padded_row(row) * kColumns + c];
    }
  }
#pragma unroll
  for (int u = 0; u < kPerThread; ++u) {
    const int t = threadIdx.x + u * kThreads;
    if (t >= pairs) break;
    const int i = t / kColumns;
    if constexpr (!First) {
      // exp(-+2 pi i j k / (p R)): entry j p + k of the table of length p R, so that lanes (consecutive k)
      // read consecutive entries
      const float2* table = twiddles + twiddle_offset(p * R) + (i & (p - 1));
#pragma unroll
      for (int j = 1; j < R; ++j) {
        float2 w = __ldg(&table[j * p]);
        if (!Forward) w.y = -w.y;
        y[u][j] = mul(y[u][j], w);
      }
    }
    float2 x[R];
#pragma unroll
    for (int j = 0; j < R; ++j) x[j] = y[u][j];
    dft<R, 1, Forward>(x, y[u]);
  }
  if constexpr (!First) __syncthreads();
#pragma unroll
  for (int u = 0; u < kPerThread; ++u) {
    const int t = threadIdx.x + u * kThreads;
    if (t >= pairs) break;
    const int c = t % kColumns, i = t / kColumns;
    const int k = i & (p - 1), base = (i - k) * R + k;
    if constexpr (Last) {
      if (c < columns) {
#pragma unroll
        for (int j = 0; j < R; ++j) out[(base + j * p) * out_stride + c] = y[u][j];
      }
    } else {
#pragma unroll
      for (int j = 0; j < R; ++j) tile[padded_row(base + j * p) * kColumns + c] = y[u][j];
    }
  }
  if constexpr (!Last) __syncthreads();
}

// Transforms of length N (16, then 16 x N / 16 up to 256, then 16 x 16 x N / 256) down columns [2 b, 2 b + 2) of
// `columns`, b = blockIdx.x; blockIdx.y picks one of the batches `in_batch` / `out_batch` elements apart.
template <int N, bool Forward>
__global__ void __launch_bounds__(kThreads, 3)
    columns_kernel(const float2* in, std::int64_t in_stride, std::int64_t in_batch, float2* out,
                   std::int64_t out_stride, std::int64_t out_batch, std::int64_t columns,
                   const float2* __restrict__ twiddles) {
  extern __shared__ float2 tile[];
  const std::int64_t c0 = static_cast<std::int64_t>(blockIdx.x) * kColumns;
  const int left = static_cast<int>(columns - c0 < kColumns ? columns - c0 : kColumns);
  in += blockIdx.y * in_batch + c0;
  out += blockIdx.y * out_batch + c0;
  static_assert(N >= kMinLength && N <= kMaxLength && (N & (N - 1)) == 0, "a power of two from 16 to 4096");
  if constexpr (N == 16) {
    pass<16, Forward, true, true>(N, 1, in, in_stride, out, out_stride, left, tile, twiddles);
  } else if constexpr (N <= 256) {
    pass<16, Forward, true, false>(N, 1, in, in_stride, out, out_stride, left, tile, twiddles);
    pass<N / 16, Forward, false, true>(N, 16, in, in_stride, out, out_stride, left, tile, twiddles);
  } else {
    pass<16, Forward, true, false>(N, 1, in, in_stride, out, out_stride, left, tile, twiddles);
    pass<16, Forward, false, false>(N, 16, in, in_stride, out, out_stride, left, tile, twiddles);
    pass<N / 256, Forward, false, true>(N, 256, in, in_stride, out, out_stride, left, tile, twiddles);
  }
}

}  // namespace fft_columns

using namespace fft_columns;

__global__ void make_twiddles(float2* tw) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= kTwiddleEntries) return;
  int L = 32;
  while (g >= twiddle_offset(2 * L)) L *= 2;
  const int e = g - twiddle_offset(L), p = L / radix_completing(L), j = e / p, k = e % p;
  double s, c;
  sincospi(-2.0 * j * k / L, &s, &c);
  tw[g] = make_float2((float)c, (float)s);
}
#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1);} } while (0)

template <int N, bool F>
void run(const float2* in, float2* out, long long stride, long long cols, const float2* tw, cudaStream_t s) {
  auto k = columns_kernel<N, F>;
  static bool set = false;
  if (!set) { CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared_bytes(N))); set = true; }
  dim3 grid((unsigned)((cols + kColumns - 1) / kColumns), 1);
  k<<<grid, kThreads, shared_bytes(N), s>>>(in, stride, 0, out, stride, 0, cols, tw);
}

template <int N>
void test(long long cols) {
  size_t n = (size_t)N * cols;
  std::vector<float2> h(n);
  srand(1);
  for (auto& v : h) { v.x = rand() / (float)RAND_MAX - 0.5f; v.y = rand() / (float)RAND_MAX - 0.5f; }
  float2 *d, *o, *r, *tw;
  CK(cudaMalloc(&d, n * 8)); CK(cudaMalloc(&o, n * 8)); CK(cudaMalloc(&r, n * 8)); CK(cudaMalloc(&tw, kTwiddleEntries * 8));
  make_twiddles<<<(kTwiddleEntries + 255) / 256, 256>>>(tw);
  CK(cudaMemcpy(d, h.data(), n * 8, cudaMemcpyHostToDevice));
  cufftHandle pl, last;
  long long nn = N, emb = N;
  size_t ws;
  cufftCreate(&pl); cufftMakePlanMany64(pl, 1, &nn, &emb, cols, 1, &emb, cols, 1, CUFFT_C2C, cols, &ws);
  long long nl = cols;  // last-axis reference: N rows of `cols` points? use cols x N contiguous transforms of length N
  cufftCreate(&last); long long e2 = N; cufftMakePlanMany64(last, 1, &nn, &e2, 1, N, &e2, 1, N, CUFFT_C2C, cols, &ws);
  (void)nl;
  for (int dir = 0; dir < 2; ++dir) {
    bool fwd = dir == 0;
    cufftExecC2C(pl, (cufftComplex*)d, (cufftComplex*)r, fwd ? CUFFT_FORWARD : CUFFT_INVERSE);
    CK(cudaMemset(o, 0xFF, n * 8));
    if (fwd) run<N, true>(d, o, cols, cols, tw, 0); else run<N, false>(d, o, cols, cols, tw, 0);
    CK(cudaDeviceSynchronize());
    std::vector<float2> a(n), b(n);
    CK(cudaMemcpy(a.data(), o, n * 8, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(b.data(), r, n * 8, cudaMemcpyDeviceToHost));
    double err = 0, mx = 0;
    for (size_t i = 0; i < n; ++i) { err = std::max(err, (double)std::hypot(a[i].x - b[i].x, a[i].y - b[i].y)); mx = std::max(mx, (double)std::hypot(b[i].x, b[i].y)); }
    // in place
    CK(cudaMemcpy(o, d, n * 8, cudaMemcpyDeviceToDevice));
    if (fwd) run<N, true>(o, o, cols, cols, tw, 0); else run<N, false>(o, o, cols, cols, tw, 0);
    CK(cudaMemcpy(a.data(), o, n * 8, cudaMemcpyDeviceToHost));
    double err2 = 0;
    for (size_t i = 0; i < n; ++i) err2 = std::max(err2, (double)std::hypot(a[i].x - b[i].x, a[i].y - b[i].y));
    printf("N=%d cols=%lld %s: max|ours - cufft| / max|X| = %.2e (in place %.2e)\n", N, cols, fwd ? "fwd" : "inv", err / mx, err2 / mx);
  }
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  auto time = [&](auto f) { for (int i = 0; i < 3; ++i) f(); std::vector<float> t; for (int i = 0; i < 20; ++i) { cudaEventRecord(e0); f(); cudaEventRecord(e1); cudaEventSynchronize(e1); float ms; cudaEventElapsedTime(&ms, e0, e1); t.push_back(ms);} std::sort(t.begin(), t.end()); return t[10]; };
  float t_cols = time([&] { run<N, true>(d, o, cols, cols, tw, 0); });
  float t_cufft = time([&] { cufftExecC2C(pl, (cufftComplex*)d, (cufftComplex*)r, CUFFT_FORWARD); });
  float t_last = time([&] { cufftExecC2C(last, (cufftComplex*)d, (cufftComplex*)r, CUFFT_FORWARD); });
  float t_copy = time([&] { cudaMemcpyAsync(o, d, n * 8, cudaMemcpyDeviceToDevice); });
  printf("N=%d cols=%lld: columns kernel %.4f ms (%.0f GB/s), cuFFT strided %.4f, cuFFT last axis %.4f (ratio ours/last %.2f), copy %.4f\n",
         N, cols, t_cols, 2.0 * n * 8 / t_cols / 1e6, t_cufft, t_last, t_cols / t_last, t_copy);
  CK(cudaGetLastError());
  cudaFree(d); cudaFree(o); cudaFree(r); cudaFree(tw); cufftDestroy(pl); cufftDestroy(last);
}

int main() {
  test<16>(1000); test<32>(257); test<256>(1001); test<512>(64); test<1024>(4096); test<2048>(2049); test<4096>(4096); test<4096>(2049);
  return 0;
}
