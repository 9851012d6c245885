#pragma once
// Complex64 FFTs down the columns of a matrix: element (n, c) of column c at n * stride + c, the columns
// contiguous (a transform over axis 0 of a C-ordered array, or over any axis with only contiguous axes
// inside it). cuFFT reads such a layout in two passes over memory. Here a block holds 16 columns (128
// bytes of each row) of up to 512 rows in shared memory and transforms them in Stockham passes (512 as
// 16 x 32, else radix 8 with a last 2 or 4); a length N = 512 C (C = 2, 4, 8) is split by Cooley-Tukey
// over a cluster of C blocks: block b transforms rows C n + b, and after the cluster's barrier each block
// finishes its share of the outputs with C-point DFTs across the blocks' shared memory. Every element is
// read from global memory once and written once. Lengths 16 to 4096, powers of two; unnormalised, as
// cuFFT.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace npgpu::cuda::fft_columns {

constexpr int kThreads = 256;
constexpr int kColumns = 16;      // columns a block (or cluster) transforms: 128 bytes of each row
constexpr int kBlockRows = 512;   // rows a block holds
constexpr int kMinLength = 16;
constexpr int kMaxLength = 4096;  // 8 blocks of 512 rows: the portable cluster size
constexpr int kTable = 4096;      // twiddle table: exp(-2 pi i m / kTable), m < kTable

// Blocks of a cluster for length n, and the rows each holds.
__host__ __device__ constexpr int cluster_blocks(int n) { return n > kBlockRows ? n / kBlockRows : 1; }
__host__ __device__ constexpr int block_rows(int n) { return n / cluster_blocks(n); }
__host__ __device__ constexpr std::size_t shared_bytes(int n) {
  return static_cast<std::size_t>(block_rows(n)) * kColumns * sizeof(float2);
}

__device__ __forceinline__ float2 add(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
__device__ __forceinline__ float2 sub(float2 a, float2 b) { return make_float2(a.x - b.x, a.y - b.y); }
__device__ __forceinline__ float2 mul(float2 a, float2 b) {
  return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

// exp(-+2 pi i m / kTable) from the table (conjugated for the inverse).
template <bool Forward>
__device__ __forceinline__ float2 twiddle(const float2* __restrict__ table, int m) {
  float2 w = __ldg(&table[m]);
  if (!Forward) w.y = -w.y;
  return w;
}

// x * exp(-+2 pi i k / R), R <= 32, k < R / 2 a constant after unrolling.
template <int R, bool Forward>
__device__ __forceinline__ float2 rotate(float2 x, int k) {
  constexpr float kCos[9] = {1.0f,
                             0.98078528040323044913f,
                             0.92387953251128675613f,
                             0.83146961230254523708f,
                             0.70710678118654752440f,
                             0.55557023301960222474f,
                             0.38268343236508977173f,
                             0.19509032201612826785f,
                             0.0f};  // cos(2 pi m / 32), m <= 8
  const int m = k * (32 / R);  // thirty-seconds of a turn, 0 to 15
  if (m == 0) return x;
  if (m == 8) return Forward ? make_float2(x.y, -x.x) : make_float2(-x.y, x.x);  // * -i or * i
  const float c = m < 8 ? kCos[m] : -kCos[16 - m];
  const float s = m < 8 ? kCos[8 - m] : kCos[m - 8];  // sin(2 pi m / 32)
  return mul(x, make_float2(c, Forward ? -s : s));
}

// y = DFT of x[0], x[S], ..., x[(R - 1) S] (radix-2 decimation in time; every index a constant).
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

// Radices of the in-block transform of length m: 512 as 16 x 32, 16 alone, else 8s and a last 2 or 4
// where m is not a power of 8. radix_of(m, q) is the radix of pass q, passes_of(m) their count.
__host__ __device__ constexpr int passes_of(int m) {
  if (m == 512) return 2;
  if (m == 16) return 1;
  int q = 0;
  for (int r = m; r > 1; r = r >= 8 ? r / 8 : 1) ++q;
  return q;
}
__host__ __device__ constexpr int radix_of(int m, int q) {
  if (m == 512) return q == 0 ? 16 : 32;
  if (m == 16) return 16;
  int r = m;
  for (int k = 0; k < q; ++k) r /= 8;
  return r >= 8 ? 8 : r;
}

// One Stockham pass of radix R over a block's tile: butterfly i (of m / R) of column c reads rows
// i + j m / R, j < R (from `in`, rows `in_rows` elements apart, in a first pass; else the tile), multiplies
// them by the pass's twiddles, and writes its DFT to rows (i - k) R + k + j p, k = i mod p (the tile, or
// `out` in a Last pass), p the length the earlier passes have transformed. Every read of the tile comes
// before the barrier and every write after it, so the pass rewrites the tile in place.
template <int R, bool Forward, bool First, bool Last>
__device__ __forceinline__ void pass(int m, int p, const float2* __restrict__ in, std::int64_t in_rows,
                                     float2* __restrict__ out, std::int64_t out_rows, int columns, float2* tile,
                                     const float2* __restrict__ table) {
  const int butterflies = m / R, pairs = butterflies * kColumns;
  constexpr int kPer = kBlockRows * kColumns / (R * kThreads) > 0 ? kBlockRows * kColumns / (R * kThreads) : 1;
  // Every load of the thread's butterflies first (more reads in flight), then their arithmetic.
  float2 y[kPer][R];
#pragma unroll
  for (int u = 0; u < kPer; ++u) {
    const int t = threadIdx.x + u * kThreads;
    if (t >= pairs) break;
    const int c = t % kColumns, i = t / kColumns;
#pragma unroll
    for (int j = 0; j < R; ++j) {
      const int row = i + j * butterflies;
      if constexpr (First)
        y[u][j] = c < columns ? in[row * in_rows + c] : make_float2(0.0f, 0.0f);
      else
        y[u][j] = tile[row * kColumns + c];
    }
  }
#pragma unroll
  for (int u = 0; u < kPer; ++u) {
    const int t = threadIdx.x + u * kThreads;
    if (t >= pairs) break;
    const int i = t / kColumns;
    if (p > 1) {
      const int step = (i & (p - 1)) * (kTable / (p * R));
#pragma unroll
      for (int j = 1; j < R; ++j) y[u][j] = mul(y[u][j], twiddle<Forward>(table, j * step));
    }
    float2 x[R];
#pragma unroll
    for (int j = 0; j < R; ++j) x[j] = y[u][j];
    dft<R, 1, Forward>(x, y[u]);
  }
  if constexpr (!First) __syncthreads();
#pragma unroll
  for (int u = 0; u < kPer; ++u) {
    const int t = threadIdx.x + u * kThreads;
    if (t >= pairs) break;
    const int c = t % kColumns, i = t / kColumns;
    const int k = i & (p - 1), base = (i - k) * R + k;
#pragma unroll
    for (int j = 0; j < R; ++j) {
      if constexpr (Last) {
        if (c < columns) out[(base + j * p) * out_rows + c] = y[u][j];
      } else {
        tile[(base + j * p) * kColumns + c] = y[u][j];
      }
    }
  }
  if constexpr (!Last) __syncthreads();
}

// Passes q, q + 1, ... of the in-block transform of length M (p: the length transformed before pass q),
// the last one writing to `out` when ToGlobal, else to the tile.
template <int M, int Q, bool Forward, bool ToGlobal>
__device__ __forceinline__ void passes(int p, const float2* in, std::int64_t in_rows, float2* out,
                                       std::int64_t out_rows, int columns, float2* tile, const float2* table) {
  constexpr int R = radix_of(M, Q);
  constexpr bool kFirst = Q == 0, kLast = Q + 1 == passes_of(M);
  pass<R, Forward, kFirst, kLast && ToGlobal>(M, p, in, in_rows, out, out_rows, columns, tile, table);
  if constexpr (!kLast) passes<M, Q + 1, Forward, ToGlobal>(p * R, in, in_rows, out, out_rows, columns, tile, table);
}

// Length-N transforms of 16 columns: block x / C of the grid (C = cluster_blocks(N)) takes columns
// [16 (x / C), 16 (x / C) + 16) of `columns`, rows `in_rows` / `out_rows` elements apart.
template <int N, bool Forward>
__global__ void __launch_bounds__(kThreads, 3)
    columns_kernel(const float2* in, std::int64_t in_rows, float2* out, std::int64_t out_rows, std::int64_t columns,
                   const float2* __restrict__ table) {
  static_assert(N >= kMinLength && N <= kMaxLength && (N & (N - 1)) == 0, "a power of two from 16 to 4096");
  constexpr int C = cluster_blocks(N), M = block_rows(N);
  extern __shared__ float2 tile[];
  const std::int64_t c0 = static_cast<std::int64_t>(blockIdx.x / C) * kColumns;
  const int left = static_cast<int>(columns - c0 < kColumns ? columns - c0 : kColumns);
  in += c0;
  out += c0;
  if constexpr (C == 1) {
    passes<M, 0, Forward, true>(1, in, in_rows, out, out_rows, left, tile, table);
  } else {
    // Clusters need sm_90: builds for older GPUs leave this empty, and the host never launches those
    // (supported() below).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    namespace cg = cooperative_groups;
    cg::cluster_group cluster = cg::this_cluster();
    const int b = static_cast<int>(cluster.block_rank());
    // Y_b[k1] = DFT_M of rows C n + b, k1 < M, into the tile in natural order.
    passes<M, 0, Forward, false>(1, in + b * in_rows, C * in_rows, nullptr, 0, left, tile, table);
    cluster.sync();
    // X[k1 + M k2] = sum over blocks n1 of w_N^(n1 k1) w_C^(n1 k2) Y_n1[k1], for this block's share of k1,
    // read from the blocks' tiles.
    const float2* remote[C];
#pragma unroll
    for (int n1 = 0; n1 < C; ++n1) remote[n1] = cluster.map_shared_rank(tile, n1);
    constexpr int kShare = M / C, kPairs = kShare * kColumns;
    constexpr int kPer = (kPairs + kThreads - 1) / kThreads;
#pragma unroll
    for (int u = 0; u < kPer; ++u) {
      const int t = threadIdx.x + u * kThreads;
      if (t >= kPairs) break;
      const int c = t % kColumns, k1 = b * kShare + t / kColumns;
      float2 v[C], y[C];
#pragma unroll
      for (int n1 = 0; n1 < C; ++n1) v[n1] = remote[n1][k1 * kColumns + c];
#pragma unroll
      for (int n1 = 1; n1 < C; ++n1) v[n1] = mul(v[n1], twiddle<Forward>(table, n1 * k1 * (kTable / N)));
      dft<C, 1, Forward>(v, y);
      if (c < left) {
#pragma unroll
        for (int k2 = 0; k2 < C; ++k2) out[(k1 + M * k2) * out_rows + c] = y[k2];
      }
    }
    cluster.sync();  // no block leaves while another may still read its tile
#endif
  }
}

// Whether the current device runs the split lengths: a GPU of compute capability 9 or later, a build of
// the kernel for one (a build for older GPUs only, run through the driver's JIT, has an empty cluster
// path), and room for a cluster of 8 blocks (a partitioned GPU may have none).
inline bool supported() {
  int device = 0, major = 0, clusters = 0;
  cudaFuncAttributes a{};
  auto kernel = columns_kernel<kMaxLength, true>;
  cudaLaunchConfig_t cfg{};
  cudaLaunchAttribute cluster[1];
  cluster[0].id = cudaLaunchAttributeClusterDimension;
  cluster[0].val.clusterDim.x = cluster_blocks(kMaxLength);
  cluster[0].val.clusterDim.y = 1;
  cluster[0].val.clusterDim.z = 1;
  cfg.gridDim = dim3(cluster_blocks(kMaxLength));
  cfg.blockDim = dim3(kThreads);
  cfg.dynamicSmemBytes = shared_bytes(kMaxLength);
  cfg.attrs = cluster;
  cfg.numAttrs = 1;
  const bool ok = cudaGetDevice(&device) == cudaSuccess &&
                  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess &&
                  major >= 9 && cudaFuncGetAttributes(&a, kernel) == cudaSuccess && a.ptxVersion >= 90 &&
                  a.binaryVersion >= 90 &&
                  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(shared_bytes(kMaxLength))) == cudaSuccess &&
                  cudaOccupancyMaxActiveClusters(&clusters, kernel, &cfg) == cudaSuccess && clusters > 0;
  cudaGetLastError();  // a failed query leaves no error behind for the next call to find
  return ok;
}

}  // namespace npgpu::cuda::fft_columns
