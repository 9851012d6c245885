// Probe (issue 20, solve 4096): LU with tournament pivoting (Grigori, Demmel and Xiang, "CALU: a
// communication optimal LU factorization algorithm", SIAM J. Matrix Anal. Appl. 32, 2011) against cuSOLVER's
// getrf, float32 and float64. Not part of the library: it lost to getrf (docs/performance-notes.md, "Solve
// 4096: tournament pivoting tried"). Each panel of W columns picks its W pivot rows in a tournament: blocks of
// R rows run Gaussian elimination with partial pivoting in registers and nominate W rows, the nominees meet
// in further rounds, and the last round's elimination is the LU of the chosen rows; the panel is then
// factored without pivoting (L21 = A21 U11^-1, U12 = L11^-1 A12) and the trailing matrix updated by one GEMM.
// The output is LAPACK's (L\U in place, 1-based sequential interchanges), so getrs reads it. The probe times
// the factorisation (CUDA events, median after a warm-up), each stage's share at n = 4096, and checks the
// relative residual of a 16-column solve through getrs, the log-determinant, the sign and info on random,
// zero-diagonal, row-scaled, zero-column and rank-deficient matrices.
// Build and run on the GPU machine (the CUDA libraries from NVIDIA's wheels):
//   NV=$(python3 -c 'import nvidia,os;print(os.path.join(nvidia.__path__[0],"cu13"))')
//   nvcc -O3 -arch=sm_90 -std=c++17 -I$NV/include scripts/lu_probe.cu -o /tmp/lu_probe \
//     -L$NV/lib -l:libcublas.so.13 -l:libcusolver.so.12 -Xlinker -rpath=$NV/lib && /tmp/lu_probe
#include <cublas_v2.h>
#include <cusolverDn.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

// ------------------------------------------------------------------------------------------------------------
namespace npgpu::cuda::lu {

// Panel width W and tournament group R per type: the W values of a row live in one thread's registers,
// and R threads (one row each) must fit the register file.
template <class T>
struct Tile;
template <>
struct Tile<float> {
  static constexpr int W = 64, R = 512;
};
template <>
struct Tile<double> {
  static constexpr int W = 32, R = 512;
};

// Entries of the row buffer one tournament round needs: W nominees per block of R rows.
template <class T, int W = Tile<T>::W, int R = Tile<T>::R>
constexpr std::int64_t nominee_slots(std::int64_t n) {
  return (n + R - 1) / R * W;
}

// Pivot order: the larger magnitude, NaN first (it must surface, as in LAPACK's i?amax, which takes a NaN).
template <class T>
__device__ __forceinline__ T pivot_key(T v) {
  const T m = v < T(0) ? -v : v;
  return m != m ? T(INFINITY) : m;
}

// 16-byte vectors of T, for the pivot row's shared-memory traffic.
template <class T>
struct Vec16;
template <>
struct Vec16<float> {
  static constexpr int n = 4;
  __device__ static void load(const float* p, float* out) {
    const float4 x = *reinterpret_cast<const float4*>(p);
    out[0] = x.x, out[1] = x.y, out[2] = x.z, out[3] = x.w;
  }
  __device__ static void store(float* p, const float* in) {
    *reinterpret_cast<float4*>(p) = make_float4(in[0], in[1], in[2], in[3]);
  }
};
template <>
struct Vec16<double> {
  static constexpr int n = 2;
  __device__ static void load(const double* p, double* out) {
    const double2 x = *reinterpret_cast<const double2*>(p);
    out[0] = x.x, out[1] = x.y;
  }
  __device__ static void store(double* p, const double* in) {
    *reinterpret_cast<double2*>(p) = make_double2(in[0], in[1]);
  }
};

// LAPACK's sequential interchanges from the chosen rows, by one thread: step j swaps row col0 + j with
// wherever the j-th chosen row is by then. Only the top rows [col0, col0 + w) can move more than once (a row
// from below moves only when chosen, into the top, and a top row displaced below stays there), so their
// positions (top_at) and the top positions' occupants (top_row) are all there is to track. The net moves go
// to `moves` (count, then 2W source rows, then 2W destinations) for permute_rows.
template <int W>
__device__ void chosen_to_interchanges(const int* chosen, int col0, int w, std::int64_t* ipiv, int* top_at,
                                       int* top_row, int* moves) {
  for (int i = 0; i < w; ++i) top_at[i] = col0 + i, top_row[i] = col0 + i;
  int below = 0;
  for (int j = 0; j < w; ++j) {
    const int target = chosen[j], dest = col0 + j;
    const bool top = target < col0 + w;
    const int at = top ? top_at[target - col0] : target;
    const int occupant = top_row[j];  // always a top row: rows from below land only on earlier steps' places
    ipiv[dest] = at + 1;
    if (occupant != target) {
      top_at[occupant - col0] = at;
      if (at < col0 + w) top_row[at - col0] = occupant;
    }
    if (top) top_at[target - col0] = dest;
    else moves[1 + w + below] = target, moves[1 + 2 * W + w + below] = dest, ++below;
    top_row[j] = target;
  }
  for (int i = 0; i < w; ++i) moves[1 + i] = col0 + i, moves[1 + 2 * W + i] = top_at[i];
  moves[0] = w + below;
}

// One tournament round over panel columns [col0, col0 + w) of `a`. Block b takes candidate rows
// [b R, b R + R) of the list (rows_in, or first + e when rows_in is null; -1 entries are empty) and writes the
// W rows its elimination picks, in pivot order, to rows_out[b W ...] (-1 past the last). The final round (one
// block, lu11 not null) also writes the w x w LU of the chosen rows (column-major, leading dimension W), the
// interchanges ipiv[col0 ...] (1-based, LAPACK's sequence of swaps) and the first zero pivot into info; it
// keeps each row's multipliers in lmul (W x R) until the row is chosen.
// Each thread holds one candidate row in registers, shifted left by kGroup columns after every kGroup
// columns, so that register indices stay compile-time constants while the loop over columns stays a loop:
// unrolled over all W columns the kernel's code outgrows the instruction cache and every column waits on
// instruction fetch.
template <class T, int W, int R>
__global__ void __launch_bounds__(R) tournament_round(const T* __restrict__ a, std::int64_t lda, int col0, int w,
                                                      int first, const int* __restrict__ rows_in, int count,
                                                      int* __restrict__ rows_out, T* __restrict__ lu11,
                                                      T* __restrict__ lmul, std::int64_t* __restrict__ ipiv,
                                                      int* __restrict__ moves, int* __restrict__ info) {
  constexpr int kWarps = R / 32, kV = Vec16<T>::n, kGroup = 4;
  static_assert(W % kV == 0 && W % kGroup == 0 && kWarps % kV == 0, "rows and keys are read in 16-byte vectors");
  __shared__ __align__(16) T best_row[2][kWarps][W];  // each warp's best candidate row, double-buffered by column
  __shared__ __align__(16) T best_key[2][kWarps];
  __shared__ int best_thread[2][kWarps];
  __shared__ int chosen[W];
  __shared__ T diag[W];
  __shared__ int top_at[W], top_row[W];
  const int t = threadIdx.x, warp = t >> 5;
  const int e = blockIdx.x * R + t;
  const int row = e < count ? (rows_in ? rows_in[e] : first + e) : -1;
  bool live = row >= 0;
  T v[W];
#pragma unroll
  for (int c = 0; c < W; ++c) v[c] = (live && c < w) ? a[row + static_cast<std::int64_t>(col0 + c) * lda] : T(0);
  int picked = 0;
  for (int j0 = 0; j0 < w; j0 += kGroup) {
#pragma unroll
    for (int jj = 0; jj < kGroup; ++jj) {
      const int j = j0 + jj;
      if (j >= w) break;
      T key = live ? pivot_key(v[jj]) : T(-1);
      int who = t;
#pragma unroll
      for (int off = 16; off; off >>= 1) {  // warp argmax, ties to the lower thread
        const T k2 = __shfl_xor_sync(0xFFFFFFFFu, key, off);
        const int w2 = __shfl_xor_sync(0xFFFFFFFFu, who, off);
        if (k2 > key || (k2 == key && w2 < who)) key = k2, who = w2;
      }
      const int buf = j & 1;
      if (t == who) {
#pragma unroll
        for (int g = 0; g < W; g += kV) Vec16<T>::store(&best_row[buf][warp][g], &v[g]);
        best_key[buf][warp] = key;
        best_thread[buf][warp] = who;
      }
      __syncthreads();  // the other buffer is rewritten only after the next barrier, once every thread read this
      T bkey = T(-2);
      int bw = 0;
#pragma unroll
      for (int q = 0; q < kWarps; q += kV) {
        T k4[kV];
        Vec16<T>::load(&best_key[buf][q], k4);
#pragma unroll
        for (int r = 0; r < kV; ++r)
          if (k4[r] > bkey) bkey = k4[r], bw = q + r;  // equal keys: the lower warp, hence the lower thread
      }
      if (bkey < T(0)) goto done;  // no candidate left in this block (block-uniform)
      const int pivot = best_thread[buf][bw];
      if (t == pivot) {
        live = false;
        chosen[j] = row;
        rows_out[blockIdx.x * W + j] = row;
        if (lu11) {
          diag[j] = v[jj];
          for (int c = 0; c < j; ++c) lu11[j + c * W] = lmul[c * R + t];
#pragma unroll
          for (int c = jj; c < W; ++c)
            if (j0 + c < w) lu11[j + (j0 + c) * W] = v[c];
        }
      } else if (live) {
        const T* prow = best_row[buf][bw];
        const T p = prow[jj];
        const T l = p != T(0) ? v[jj] / p : T(0);
        if (lu11) lmul[j * R + t] = l;
#pragma unroll
        for (int g = 0; g < W; g += kV) {
          if (g + kV - 1 <= jj) continue;
          T p4[kV];
          Vec16<T>::load(prow + g, p4);
#pragma unroll
          for (int r = 0; r < kV; ++r)
            if (g + r > jj) v[g + r] -= l * p4[r];
        }
      }
      picked = j + 1;
    }
#pragma unroll
    for (int c = 0; c < W; ++c) v[c] = c + kGroup < W ? v[c + kGroup] : T(0);
  }
done:
  if (t == 0)
    for (int j = picked; j < W; ++j) rows_out[blockIdx.x * W + j] = -1;
  if (!lu11) return;
  __syncthreads();
  if (t != 0) return;
  chosen_to_interchanges<W>(chosen, col0, w, ipiv, top_at, top_row, moves);
  if (*info == 0)
    for (int j = 0; j < w; ++j)
      if (diag[j] == T(0)) {
        *info = col0 + j + 1;
        break;
      }
}

// Applies the panel's interchanges to every column as one permutation of the rows they touch (at most 2W):
// each thread reads one moved value of one column, then writes it to its new row. Independent loads, where
// swapping in sequence would chain 2W dependent ones.
template <class T, int W>
__global__ void __launch_bounds__(256) permute_rows(T* __restrict__ a, std::int64_t lda, int n,
                                                    const int* __restrict__ moves) {
  constexpr int kCols = 256 / (2 * W);
  const int q = threadIdx.x % (2 * W), j = blockIdx.x * kCols + threadIdx.x / (2 * W);
  const bool active = q < moves[0] && j < n;
  T* col = a + static_cast<std::int64_t>(j) * lda;
  T x{};
  if (active) x = col[moves[1 + q]];
  __syncthreads();
  if (active) col[moves[1 + 2 * W + q]] = x;
}

// The panel without pivoting, once its chosen rows are on top: block 0 stores the tournament's LU11; blocks
// [0, row_blocks) turn rows of A21 into L21 = A21 U11^-1, the rest columns of A12 into U12 = L11^-1 A12.
template <class T, int W>
__global__ void panel_solve(T* __restrict__ a, std::int64_t lda, int n, int k, int w, const T* __restrict__ lu11,
                            int row_blocks) {
  __shared__ T f[W][W + 1];  // f[r][c]
  __shared__ T inv_diag[W];
  for (int q = threadIdx.x; q < w * w; q += blockDim.x) {
    const int r = q % w, c = q / w;
    const T x = lu11[r + c * W];
    f[r][c] = x;
    if (blockIdx.x == 0) a[(k + r) + static_cast<std::int64_t>(k + c) * lda] = x;
  }
  __syncthreads();
  if (static_cast<int>(threadIdx.x) < w) {
    const T d = f[threadIdx.x][threadIdx.x];
    inv_diag[threadIdx.x] = d != T(0) ? T(1) / d : T(1);  // a zero pivot (info says so) leaves its column unscaled
  }
  __syncthreads();
  const int rest0 = k + w;
  if (static_cast<int>(blockIdx.x) < row_blocks) {
    const int i = rest0 + blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    T x[W];
#pragma unroll
    for (int c = 0; c < W; ++c) x[c] = c < w ? a[i + static_cast<std::int64_t>(k + c) * lda] : T(0);
#pragma unroll
    for (int j = 0; j < W; ++j) {
      T s = x[j];
#pragma unroll
      for (int l = 0; l < j; ++l) s -= x[l] * f[l][j];
      x[j] = s * inv_diag[j];
    }
#pragma unroll
    for (int c = 0; c < W; ++c)
      if (c < w) a[i + static_cast<std::int64_t>(k + c) * lda] = x[c];
  } else {
    const int j = rest0 + (blockIdx.x - row_blocks) * blockDim.x + threadIdx.x;
    if (j >= n) return;
    T* col = a + static_cast<std::int64_t>(j) * lda + k;
    T y[W];
#pragma unroll
    for (int r = 0; r < W; ++r) y[r] = r < w ? col[r] : T(0);
#pragma unroll
    for (int r = 1; r < W; ++r) {
      T s = y[r];
#pragma unroll
      for (int l = 0; l < r; ++l) s -= f[r][l] * y[l];
      y[r] = s;
    }
#pragma unroll
    for (int r = 0; r < W; ++r)
      if (r < w) col[r] = y[r];
  }
}

// Factors the n x n column-major matrix `a` in place. rows: 2 * nominee_slots<T, W, R>(n) ints; lu11: W * W values;
// lmul: W * R values; moves: 1 + 4W ints;
// gemm(m, n, k, A, lda, B, ldb, C, ldc) must queue C -= A B on `stream`; mark(stage) is called after each
// stage is queued (4 a tournament round before the last, 0 the last, 1 interchanges, 2 panel, 3 update), for probes that time them. info is set to
// 0 first.
template <class T, int W = Tile<T>::W, int R = Tile<T>::R, class Gemm, class Mark>
void factor(T* a, int n, std::int64_t lda, std::int64_t* ipiv, int* info, int* rows, T* lu11, T* lmul, int* moves,
            cudaStream_t stream,
            Gemm&& gemm, Mark&& mark) {
  constexpr int kThreads = 128;
  cudaMemsetAsync(info, 0, sizeof(int), stream);
  const std::int64_t slots = nominee_slots<T, W, R>(n);
  for (int k = 0; k < n; k += W) {
    const int w = n - k < W ? n - k : W;
    const int* in = nullptr;
    int count = n - k, round = 0;
    for (;;) {
      const int blocks = (count + R - 1) / R;
      const bool last = blocks == 1;
      int* out = rows + (round & 1) * slots;
      tournament_round<T, W, R><<<blocks, R, 0, stream>>>(a, lda, k, w, k, in, count, out, last ? lu11 : nullptr,
                                                          lmul, ipiv, moves, info);
      if (last) break;
      mark(4);
      in = out;
      count = blocks * W;
      ++round;
    }
    mark(0);
    constexpr int kCols = 256 / (2 * W);
    permute_rows<T, W><<<(n + kCols - 1) / kCols, 256, 0, stream>>>(a, lda, n, moves);
    mark(1);
    const int rest = n - k - w;
    const int blocks = (rest + kThreads - 1) / kThreads;
    panel_solve<T, W><<<2 * blocks > 0 ? 2 * blocks : 1, kThreads, 0, stream>>>(a, lda, n, k, w, lu11, blocks);
    mark(2);
    if (rest > 0)
      gemm(rest, rest, w, a + (k + w) + static_cast<std::int64_t>(k) * lda, lda,
           a + k + static_cast<std::int64_t>(k + w) * lda, lda, a + (k + w) + static_cast<std::int64_t>(k + w) * lda,
           lda);
    mark(3);
  }
}

}  // namespace npgpu::cuda::lu

// ------------------------------------------------------------------------------------------------------------
#define CK(x)                                                                                  \
  do {                                                                                         \
    auto e_ = (x);                                                                             \
    if (static_cast<int>(e_) != 0) {                                                           \
      std::printf("error %d at %s:%d\n", static_cast<int>(e_), __FILE__, __LINE__);            \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)

cublasHandle_t g_blas;
cusolverDnHandle_t g_solver;

void gemm_minus(int m, int n, int k, const float* A, long lda, const float* B, long ldb, float* C, long ldc) {
  const float alpha = -1.f, beta = 1.f;
  CK(cublasSgemm(g_blas, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc));
}
void gemm_minus(int m, int n, int k, const double* A, long lda, const double* B, long ldb, double* C, long ldc) {
  const double alpha = -1., beta = 1.;
  CK(cublasDgemm(g_blas, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc));
}
int getrf_buf(int n, float* a) { int lw; CK(cusolverDnSgetrf_bufferSize(g_solver, n, n, a, n, &lw)); return lw; }
int getrf_buf(int n, double* a) { int lw; CK(cusolverDnDgetrf_bufferSize(g_solver, n, n, a, n, &lw)); return lw; }
void getrf(int n, float* a, float* ws, int* piv, int* info) { CK(cusolverDnSgetrf(g_solver, n, n, a, n, ws, piv, info)); }
void getrf(int n, double* a, double* ws, int* piv, int* info) { CK(cusolverDnDgetrf(g_solver, n, n, a, n, ws, piv, info)); }
void getrs(int n, int nrhs, const float* a, const int* piv, float* b, int* info) {
  CK(cusolverDnSgetrs(g_solver, CUBLAS_OP_N, n, nrhs, a, n, piv, b, n, info));
}
void getrs(int n, int nrhs, const double* a, const int* piv, double* b, int* info) {
  CK(cusolverDnDgetrs(g_solver, CUBLAS_OP_N, n, nrhs, a, n, piv, b, n, info));
}

__global__ void narrow_pivots(const std::int64_t* p, int* q, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) q[i] = static_cast<int>(p[i]);
}

template <class T>
struct Run {
  double ms_ours = 0, ms_cusolver = 0, res_ours = 0, res_cusolver = 0;
  int info_ours = 0, info_cusolver = 0;
  double logdet_ours = 0, logdet_cusolver = 0;
  int sign_ours = 0, sign_cusolver = 0;
  bool piv_ok = true;
};

template <class T>
double residual(const std::vector<T>& A, const std::vector<T>& X, const std::vector<T>& B, int n, int nrhs) {
  double rn = 0, an = 0, xn = 0;
  for (double v : A) an += v * v;
  for (double v : X) xn += v * v;
  std::vector<double> r(static_cast<size_t>(n) * nrhs);
  for (int c = 0; c < nrhs; ++c)
    for (int i = 0; i < n; ++i) r[i + static_cast<size_t>(c) * n] = -static_cast<double>(B[i + static_cast<size_t>(c) * n]);
  for (int c = 0; c < nrhs; ++c)
    for (int k = 0; k < n; ++k) {
      const double x = X[k + static_cast<size_t>(c) * n];
      const T* col = &A[static_cast<size_t>(k) * n];
      double* rc = &r[static_cast<size_t>(c) * n];
      for (int i = 0; i < n; ++i) rc[i] += col[i] * x;
    }
  for (double v : r) rn += v * v;
  return std::sqrt(rn) / (std::sqrt(an) * std::sqrt(xn));
}

template <class T>
void logdet(const std::vector<T>& lu, const std::vector<int>& piv, int n, double* ld, int* sign) {
  double s = 0;
  int sg = 1;
  for (int i = 0; i < n; ++i) {
    const double d = lu[i + static_cast<size_t>(i) * n];
    if (d < 0) sg = -sg;
    if (d == 0) sg = 0;
    s += std::log(std::fabs(d));
    if (piv[i] != i + 1) sg = -sg;
  }
  *ld = s;
  *sign = sg;
}

template <class T, int W = npgpu::cuda::lu::Tile<T>::W, int R = npgpu::cuda::lu::Tile<T>::R>
Run<T> run(int n, const std::vector<T>& A, int nrhs, int reps) {
  Run<T> out;
  const size_t nn = static_cast<size_t>(n) * n;
  T *dA, *dW, *dLU, *dB, *dLU11, *dLmul;
  int *dPiv32, *dInfo, *dRows, *dMoves;
  std::int64_t* dPiv64;
  CK(cudaMalloc(&dA, nn * sizeof(T)));
  CK(cudaMalloc(&dLU, nn * sizeof(T)));
  CK(cudaMalloc(&dB, static_cast<size_t>(n) * nrhs * sizeof(T)));
  CK(cudaMalloc(&dPiv32, n * sizeof(int)));
  CK(cudaMalloc(&dPiv64, n * sizeof(std::int64_t)));
  CK(cudaMalloc(&dInfo, 2 * sizeof(int)));
  CK(cudaMalloc(&dRows, 2 * static_cast<size_t>(n) * sizeof(int)));
  CK(cudaMalloc(&dLU11, 64 * 64 * sizeof(T)));
  CK(cudaMalloc(&dLmul, 64 * 1024 * sizeof(T)));
  CK(cudaMalloc(&dMoves, (1 + 4 * 64) * sizeof(int)));
  CK(cudaMemcpy(dA, A.data(), nn * sizeof(T), cudaMemcpyHostToDevice));
  const int lw = getrf_buf(n, dLU);
  CK(cudaMalloc(&dW, static_cast<size_t>(lw) * sizeof(T) + 16));
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<T> B(static_cast<size_t>(n) * nrhs), X(B.size());
  for (auto& b : B) b = static_cast<T>(u(rng));
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  auto median = [](std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; };
  std::vector<int> piv(n);
  std::vector<T> lu(nn);
  for (int which = 0; which < 2; ++which) {
    std::vector<double> times;
    for (int r = 0; r < reps + 1; ++r) {
      CK(cudaMemcpy(dLU, dA, nn * sizeof(T), cudaMemcpyDeviceToDevice));
      CK(cudaMemset(dPiv64, 0xFF, n * sizeof(std::int64_t)));
      CK(cudaDeviceSynchronize());
      cudaEventRecord(e0);
      if (which == 0) {
        npgpu::cuda::lu::factor<T, W, R>(dLU, n, n, dPiv64, dInfo, dRows, dLU11, dLmul, dMoves, nullptr,
                                         [](auto... args) { gemm_minus(args...); }, [](int) {});
        narrow_pivots<<<(n + 255) / 256, 256>>>(dPiv64, dPiv32, n);
      } else {
        getrf(n, dLU, dW, dPiv32, dInfo);
      }
      cudaEventRecord(e1);
      CK(cudaEventSynchronize(e1));
      CK(cudaGetLastError());
      float ms;
      cudaEventElapsedTime(&ms, e0, e1);
      if (r) times.push_back(ms);
    }
    int info;
    CK(cudaMemcpy(&info, dInfo, sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(piv.data(), dPiv32, n * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(lu.data(), dLU, nn * sizeof(T), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
      if (piv[i] < i + 1 || piv[i] > n) out.piv_ok = false;
    double ld;
    int sg;
    logdet(lu, piv, n, &ld, &sg);
    CK(cudaMemcpy(dB, B.data(), B.size() * sizeof(T), cudaMemcpyHostToDevice));
    getrs(n, nrhs, dLU, dPiv32, dB, dInfo + 1);
    CK(cudaMemcpy(X.data(), dB, X.size() * sizeof(T), cudaMemcpyDeviceToHost));
    const double res = info == 0 ? residual(A, X, B, n, nrhs) : NAN;
    if (which == 0) out.ms_ours = median(times), out.info_ours = info, out.res_ours = res, out.logdet_ours = ld, out.sign_ours = sg;
    else out.ms_cusolver = median(times), out.info_cusolver = info, out.res_cusolver = res, out.logdet_cusolver = ld, out.sign_cusolver = sg;
  }
  if (n == 4096) {  // where the time goes: events between the stages of every panel, summed per stage
    static cudaEvent_t ev[4096];
    static int stage_of[4096];
    static int ne;
    ne = 0;
    for (auto& x : ev) cudaEventCreate(&x);
    CK(cudaMemcpy(dLU, dA, nn * sizeof(T), cudaMemcpyDeviceToDevice));
    CK(cudaDeviceSynchronize());
    cudaEventRecord(ev[ne++]);
    npgpu::cuda::lu::factor<T, W, R>(dLU, n, n, dPiv64, dInfo, dRows, dLU11, dLmul, dMoves, nullptr,
                                     [](auto... args) { gemm_minus(args...); },
                                     [](int st) { stage_of[ne] = st; cudaEventRecord(ev[ne++]); });
    CK(cudaDeviceSynchronize());
    double stage[5] = {0, 0, 0, 0, 0};
    for (int q = 1; q < ne; ++q) {
      float ms;
      cudaEventElapsedTime(&ms, ev[q - 1], ev[q]);
      stage[stage_of[q]] += ms;
    }
    std::printf("stages n=4096 %s W=%d R=%d: early rounds %.3f ms, last round %.3f, interchanges %.3f, panel %.3f, "
                "update %.3f\n", sizeof(T) == 4 ? "float32" : "float64", W, R, stage[4], stage[0], stage[1], stage[2],
                stage[3]);
    for (auto& x : ev) cudaEventDestroy(x);
  }
  cudaFree(dA); cudaFree(dW); cudaFree(dLU); cudaFree(dB); cudaFree(dLU11); cudaFree(dLmul);
  cudaFree(dPiv32); cudaFree(dPiv64); cudaFree(dInfo); cudaFree(dRows); cudaFree(dMoves);
  return out;
}

template <class T, int W = npgpu::cuda::lu::Tile<T>::W, int R = npgpu::cuda::lu::Tile<T>::R>
void report(const char* kind, int n, const std::vector<T>& A, int reps) {
  Run<T> r = run<T, W, R>(n, A, 16, reps);
  std::printf("%-7s %-12s W=%2d R=%4d n=%5d  ours %8.3f ms  cusolver %8.3f ms  | residual ours %.2e cusolver %.2e | info %d/%d | "
              "logdet %.6f/%.6f sign %d/%d | ipiv %s\n",
              sizeof(T) == 4 ? "float32" : "float64", kind, W, R, n, r.ms_ours, r.ms_cusolver, r.res_ours, r.res_cusolver,
              r.info_ours, r.info_cusolver, r.logdet_ours, r.logdet_cusolver, r.sign_ours, r.sign_cusolver,
              r.piv_ok ? "ok" : "BAD");
  std::fflush(stdout);
}

template <class T>
void suite() {
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(-1, 1);
  auto random = [&](int n) {
    std::vector<T> A(static_cast<size_t>(n) * n);
    for (auto& a : A) a = static_cast<T>(u(rng));
    return A;
  };
  for (int n : {1000, 2048, 4096, 4097, 8192}) report<T>("random", n, random(n), n <= 4097 ? 7 : 3);
  {
    auto A = random(4096);
    if constexpr (sizeof(T) == 4) {
      report<T, 64, 256>("random", 4096, A, 5);
      report<T, 64, 1024>("random", 4096, A, 5);
      report<T, 32, 256>("random", 4096, A, 5);
      report<T, 32, 512>("random", 4096, A, 5);
    } else {
      report<T, 32, 256>("random", 4096, A, 5);
      report<T, 64, 256>("random", 4096, A, 5);
      report<T, 64, 512>("random", 4096, A, 5);
    }
  }
  {
    auto A = random(1500);
    for (int i = 0; i < 1500; ++i) A[i + static_cast<size_t>(i) * 1500] = 0;
    report<T>("zero-diag", 1500, A, 3);
  }
  {
    auto A = random(1500);
    for (int i = 0; i < 1500; ++i)
      for (int j = 0; j < 1500; ++j) A[i + static_cast<size_t>(j) * 1500] *= static_cast<T>(std::ldexp(1.0, (i * 7) % 40 - 20));
    report<T>("row-scaled", 1500, A, 3);
  }
  {
    auto A = random(1500);
    for (int i = 0; i < 1500; ++i) A[i + static_cast<size_t>(70) * 1500] = 0;
    report<T>("zero-col70", 1500, A, 3);
  }
  {
    auto A = random(1500);  // rank-deficient: column 100 = column 3
    for (int i = 0; i < 1500; ++i) A[i + static_cast<size_t>(100) * 1500] = A[i + static_cast<size_t>(3) * 1500];
    report<T>("dup-col", 1500, A, 3);
  }
}

int main() {
  CK(cublasCreate(&g_blas));
  CK(cusolverDnCreate(&g_solver));
  suite<float>();
  suite<double>();
  return 0;
}
