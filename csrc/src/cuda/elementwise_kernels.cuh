#pragma once
// CUDA backend of the elementwise operations: the two kernels every (operation, loop dtype) gets.
//  - contiguous: every array operand and out C-contiguous and 16-byte friendly: vectorised loads and stores
//    (16 bytes of the widest type per thread and step), grid-stride over 64-bit indices.
//  - strided: anything else (views, transposes, negative steps, broadcasting). Work is cut into rows of the
//    innermost (coalesced) dimension: each block takes a chunk of one row, so div/mod over the outer
//    dimensions happens once per block, not per element; short rows fall back to per-element offsets.
//  - tiled: an input that runs contiguously down the second-to-last dimension while the output runs along the
//    last (a + b.T): 32x32 tiles, such inputs read down that dimension and exchanged through shared memory,
//    so that both their reads and the output's writes are coalesced; every load of a tile is in flight before
//    the first is used.
// Each arity's loops are compiled in several files (elementwise_unary_0.cu, ..., see parts_of_arity) to keep
// compile times and memory bounded.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <utility>

#include <cuda/std/tuple>

#include "common/cuda_check.hpp"
#include "common/elementwise_loops.hpp"
#include "common/strided.hpp"
#include "cuda/driver_launch.hpp"
#include "cuda/sm_threads.cuh"

namespace npgpu::cuda::ew_detail {

using detail::Src;
using detail::StridedPlan;

constexpr int kThreads = 256;
constexpr int kRowChunk = 4 * kThreads;  // elements of one row per block in the strided kernel
constexpr std::int64_t kMinRowForRowMode = 128;

inline unsigned grid_for(std::int64_t items) {
  const std::int64_t blocks = (items + kThreads - 1) / kThreads;
  return static_cast<unsigned>(std::min<std::int64_t>(std::max<std::int64_t>(blocks, 1), 1 << 30));
}

template <class T, int V>
struct alignas(sizeof(T) * V) Vec {
  T v[V];
};

template <class T, int V>
__device__ __forceinline__ Vec<T, V> load_vec(const Src<T>& s, std::int64_t i) {
  if (s.p) return reinterpret_cast<const Vec<T, V>*>(s.p)[i];
  Vec<T, V> r;
#pragma unroll
  for (int j = 0; j < V; ++j) r.v[j] = s.s;
  return r;
}

template <int V, class Op, class R, class... Ts>
__device__ __forceinline__ void apply_vec(Op op, Vec<R, V>& o, const Vec<Ts, V>&... in) {
#pragma unroll
  for (int j = 0; j < V; ++j) o.v[j] = static_cast<R>(op(in.v[j]...));
}

template <int V, class Op, class R, class... Ts>
__global__ void __launch_bounds__(kThreads) contiguous_kernel(Op op, R* __restrict__ out, std::int64_t n,
                                                              Src<Ts>... src) {
  const std::int64_t nvec = n / V;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  const std::int64_t tid = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (std::int64_t i = tid; i < nvec; i += stride) {
    Vec<R, V> o;
    apply_vec<V>(op, o, load_vec<Ts, V>(src, i)...);
    reinterpret_cast<Vec<R, V>*>(out)[i] = o;
  }
  const std::int64_t t = nvec * V + tid;  // the last n % V elements
  if (t < n) out[t] = static_cast<R>(op(src[t]...));
}

template <class Op, class R, class... Ts, std::size_t... K>
__device__ __forceinline__ void apply_at(Op op, char* out, const std::int64_t* off, std::index_sequence<K...>,
                                         const Src<Ts>&... src) {
  *reinterpret_cast<R*>(out + off[0]) = static_cast<R>(op(src.at(off[K + 1])...));
}

// V elements of a row from byte offset `off`: a vector load, or one element repeated when the operand is
// constant along the row (inner stride 0), or the scalar.
template <class T, int V>
__device__ __forceinline__ Vec<T, V> load_row_vec(const Src<T>& s, std::int64_t off, std::int64_t inner_stride) {
  Vec<T, V> r;
  if (s.p && inner_stride != 0)
    return *reinterpret_cast<const Vec<T, V>*>(reinterpret_cast<const char*>(s.p) + off);
  const T x = s.at(off);
#pragma unroll
  for (int j = 0; j < V; ++j) r.v[j] = x;
  return r;
}

template <int V, class Op, class R, class... Ts, std::size_t... K>
__device__ __forceinline__ void apply_row_vec(Op op, char* out, const std::int64_t* off, const std::int64_t* inner,
                                              std::index_sequence<K...>, const Src<Ts>&... src) {
  Vec<R, V> o;
  apply_vec<V>(op, o, load_row_vec<Ts, V>(src, off[K + 1], inner[K + 1])...);
  *reinterpret_cast<Vec<R, V>*>(out + off[0]) = o;
}

// mode kPerElement: short rows, per-element offsets over every dimension; kRows: a block takes kRowChunk
// elements of one row; kRowVectors: the same with V-element vector accesses (every operand steps through a
// row contiguously or not at all, rows 16-byte aligned, row length a multiple of V).
enum StridedMode : int { kPerElement = 0, kRows = 1, kRowVectors = 2 };

template <int V, class Op, class R, class... Ts>
__global__ void __launch_bounds__(kThreads) strided_kernel(Op op, StridedPlan<1 + sizeof...(Ts)> plan,
                                                           char* out, std::int64_t n, int mode, std::int64_t chunks,
                                                           std::int64_t nblocks, Src<Ts>... src) {
  constexpr int N = 1 + sizeof...(Ts);
  using Idx = std::index_sequence_for<Ts...>;
  if (mode == kRowVectors) {
    const int last = plan.ndim - 1;
    const std::int64_t nvec = plan.shape[last] / V;
    std::int64_t inner[N];
#pragma unroll
    for (int k = 0; k < N; ++k) inner[k] = plan.strides[k][last];
    for (std::int64_t blk = blockIdx.x; blk < nblocks; blk += gridDim.x) {
      const std::int64_t row = detail::index_div(blk, chunks);
      const std::int64_t jv = (blk - row * chunks) * kThreads + threadIdx.x;
      if (jv >= nvec) continue;
      std::int64_t off[N];
      plan.row_offsets(row, off);
#pragma unroll
      for (int k = 0; k < N; ++k) off[k] += jv * V * inner[k];
      apply_row_vec<V, Op, R>(op, out, off, inner, Idx{}, src...);
    }
    return;
  }
  if (mode == kPerElement) {
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
      std::int64_t off[N];
      plan.offsets(i, off);
      apply_at<Op, R>(op, out, off, Idx{}, src...);
    }
    return;
  }
  const int last = plan.ndim - 1;
  const std::int64_t inner = plan.shape[last];
  for (std::int64_t blk = blockIdx.x; blk < nblocks; blk += gridDim.x) {
    const std::int64_t row = detail::index_div(blk, chunks);
    const std::int64_t j0 = (blk - row * chunks) * kRowChunk + threadIdx.x;
    std::int64_t base[N];
    plan.row_offsets(row, base);
#pragma unroll
    for (int u = 0; u < kRowChunk / kThreads; ++u) {
      const std::int64_t j = j0 + u * kThreads;
      if (j < inner) {
        std::int64_t off[N];
#pragma unroll
        for (int k = 0; k < N; ++k) off[k] = base[k] + j * plan.strides[k][last];
        apply_at<Op, R>(op, out, off, Idx{}, src...);
      }
    }
  }
}

template <class... Ts>
constexpr std::size_t max_size() {
  std::size_t m = 1;
  ((m = sizeof(Ts) > m ? sizeof(Ts) : m), ...);
  return m;
}

constexpr int kTile = 32;
constexpr int kTileRows = kThreads / kTile;
constexpr int kTilePitch = kTile + 1;  // a padding column: the transposed reads hit 32 different banks
// Static shared memory is 48 KiB: tiles of up to three 8-byte inputs fit; complex128 keeps the row modes.
template <class... Ts>
constexpr bool kTiledOK = max_size<Ts...>() <= 8;

constexpr int kTilePerThread = kTile / kTileRows;

// One input's share of a tile in one thread's registers: its loads for the whole tile are issued before any
// is used (and those of every input before the barrier), so each thread has all of them in flight at once.
template <class T>
struct TileLoads {
  T v[kTilePerThread];
};

// Thread (tx, ty) loads rows ty, ty+8, ... of input `s`'s tile at `p` (its element (r0, c0)). A transposed
// input is read with lanes stepping down the second-to-last dimension, where it is contiguous, so its
// registers hold tile[c][r], to be exchanged through shared memory; any other input is read along the last,
// as the output is written, so its registers already hold the elements this thread's outputs need.
// Offsets within a tile are 32-bit: the host only takes this mode when they fit.
template <class T>
__device__ __forceinline__ void load_tile(TileLoads<T>& t, const Src<T>& s, bool transposed, const char* p,
                                          int s_r, int s_c, int nr, int nc, bool full) {
  if (!s.p) return;
  const int tx = threadIdx.x % kTile, ty = threadIdx.x / kTile;
#pragma unroll
  for (int u = 0; u < kTilePerThread; ++u) {
    const int i = ty + u * kTileRows;
    const int r = transposed ? tx : i, c = transposed ? i : tx;
    if (full || (r < nr && c < nc)) t.v[u] = *reinterpret_cast<const T*>(p + r * s_r + c * s_c);
  }
}

template <class T>
__device__ __forceinline__ void store_tile(const TileLoads<T>& t, const Src<T>& s, bool transposed, T* tile) {
  if (!s.p || !transposed) return;
  const int tx = threadIdx.x % kTile, ty = threadIdx.x / kTile;
#pragma unroll
  for (int u = 0; u < kTilePerThread; ++u) tile[(ty + u * kTileRows) * kTilePitch + tx] = t.v[u];
}

// The operand of this thread's u-th output (tile element (r, c)): the scalar, the transposed input's staged
// tile, or the thread's own register.
template <class T>
__device__ __forceinline__ T operand_at(const TileLoads<T>& t, const Src<T>& s, bool transposed, const T* tile,
                                        int u, int r, int c) {
  if (!s.p) return s.s;
  return transposed ? tile[c * kTilePitch + r] : t.v[u];
}

template <class Op, class R, class... Ts, std::size_t... K>
__device__ __forceinline__ void tiled_body(Op op, const StridedPlan<1 + sizeof...(Ts)>& plan, char* out,
                                           unsigned tmask, std::int64_t tiles_r, std::int64_t tiles_c,
                                           std::int64_t nblocks, std::index_sequence<K...>, const Src<Ts>&... src) {
  constexpr int N = 1 + sizeof...(Ts);
  __shared__ alignas(16) char tiles[sizeof...(Ts)][kTile * kTilePitch * max_size<Ts...>()];
  const int last = plan.ndim - 1;
  const std::int64_t nr = plan.shape[last - 1], nc = plan.shape[last];
  const std::int64_t per_outer = tiles_r * tiles_c;
  const int tx = threadIdx.x % kTile, ty = threadIdx.x / kTile;
  int s_r[N], s_c[N];
#pragma unroll
  for (int k = 0; k < N; ++k) {
    s_r[k] = static_cast<int>(plan.strides[k][last - 1]);
    s_c[k] = static_cast<int>(plan.strides[k][last]);
  }
  for (std::int64_t blk = blockIdx.x; blk < nblocks; blk += gridDim.x) {
    const std::int64_t outer = detail::index_div(blk, per_outer);
    const std::int64_t t = blk - outer * per_outer;
    const std::int64_t tr = detail::index_div(t, tiles_c);
    const std::int64_t r0 = tr * kTile, c0 = (t - tr * tiles_c) * kTile;
    std::int64_t base[N];
    plan.row_offsets(outer * nr, base);  // element (outer, 0, 0)
#pragma unroll
    for (int k = 0; k < N; ++k) base[k] += r0 * plan.strides[k][last - 1] + c0 * plan.strides[k][last];
    // Rows and columns of this tile inside the array; `full` (the same for the whole block) drops the checks.
    const int tnr = static_cast<int>(std::min<std::int64_t>(nr - r0, kTile));
    const int tnc = static_cast<int>(std::min<std::int64_t>(nc - c0, kTile));
    const bool full = tnr == kTile && tnc == kTile;
    ::cuda::std::tuple<TileLoads<Ts>...> loads;
    (load_tile<Ts>(::cuda::std::get<K>(loads), src, (tmask >> K) & 1u,
                   src.p ? reinterpret_cast<const char*>(src.p) + base[K + 1] : nullptr, s_r[K + 1], s_c[K + 1],
                   tnr, tnc, full),
     ...);
    (store_tile<Ts>(::cuda::std::get<K>(loads), src, (tmask >> K) & 1u, reinterpret_cast<Ts*>(tiles[K])), ...);
    __syncthreads();
    char* o = out + base[0];
#pragma unroll
    for (int u = 0; u < kTilePerThread; ++u) {
      const int i = ty + u * kTileRows;
      if (full || (i < tnr && tx < tnc))
        *reinterpret_cast<R*>(o + i * s_r[0] + tx * s_c[0]) = static_cast<R>(
            op(operand_at<Ts>(::cuda::std::get<K>(loads), src, (tmask >> K) & 1u,
                              reinterpret_cast<const Ts*>(tiles[K]), u, i, tx)...));
    }
    __syncthreads();
  }
}

// Blocks per SM the tiled kernel is compiled for. Left to itself the compiler spends 80 registers on a float32
// add (hoisted tile addresses: 3 blocks per SM); capped at 32 (8 blocks) the add runs close to the contiguous
// one per byte (docs/performance-notes.md). 8-byte types get 64 registers. GPUs that hold fewer threads per SM
// get as many blocks as fit.
template <class... Ts>
constexpr int kTiledMinBlocks = min_blocks_per_sm(max_size<Ts...>() <= 4 ? 8 : 4, kThreads);

template <class Op, class R, class... Ts>
__global__ void __launch_bounds__(kThreads, kTiledMinBlocks<R, Ts...>)
    tiled_kernel(Op op, StridedPlan<1 + sizeof...(Ts)> plan, char* out, unsigned tmask, std::int64_t tiles_r,
                 std::int64_t tiles_c, std::int64_t nblocks, Src<Ts>... src) {
  if constexpr (kTiledOK<Ts...>)
    tiled_body<Op, R>(op, plan, out, tmask, tiles_r, tiles_c, nblocks, std::index_sequence_for<Ts...>{}, src...);
}

// The inputs (bit k for input k) the tiled mode would stage: arrays contiguous down the second-to-last
// dimension and not along the last, while the output runs along the last; 0 when the mode does not apply.
template <int N>
unsigned transposed_inputs(const StridedPlan<N>& plan, std::size_t out_size, const void* const* ptrs,
                           const std::size_t* sizes) {
  if (plan.ndim < 2) return 0;
  const int last = plan.ndim - 1;
  if (plan.strides[0][last] != static_cast<std::int64_t>(out_size)) return 0;
  if (plan.shape[last] < kTile || plan.shape[last - 1] < kTile) return 0;
  for (int k = 0; k < N; ++k) {  // offsets within a tile must fit the kernel's 32-bit arithmetic
    const auto a = [](std::int64_t x) { return x < 0 ? -x : x; };
    if ((a(plan.strides[k][last - 1]) + a(plan.strides[k][last])) * kTile >= (std::int64_t{1} << 31)) return 0;
  }
  unsigned mask = 0;
  for (int k = 1; k < N; ++k) {
    const auto size = static_cast<std::int64_t>(sizes[k - 1]);
    const std::int64_t s_r = plan.strides[k][last - 1], s_c = plan.strides[k][last];
    if (ptrs[k - 1] && (s_r == size || s_r == -size) && s_c != size && s_c != 0) mask |= 1u << (k - 1);
  }
  return mask;
}

inline bool aligned_to(const void* p, std::size_t bytes) {
  return p == nullptr || (reinterpret_cast<std::uintptr_t>(p) % bytes) == 0;
}

// Whether the kRowVectors mode applies: every operand steps through a row element by element (or not at
// all: stride 0), every row of every operand starts 16-byte aligned for V-element vectors, rows hold a
// multiple of V elements and are long enough to be worth it.
template <int N>
bool row_vectors_ok(const StridedPlan<N>& plan, int V, const void* out, std::size_t out_size,
                    const void* const* ptrs, const std::size_t* sizes, std::size_t n_in) {
  const int last = plan.ndim - 1;
  const std::int64_t inner = plan.shape[last];
  if (V == 1 || inner % V != 0 || inner < kMinRowForRowMode) return false;
  for (std::size_t k = 0; k < N; ++k) {
    const void* p = k == 0 ? out : ptrs[k - 1];
    const std::size_t size = k == 0 ? out_size : sizes[k - 1];
    if (p == nullptr) continue;  // a scalar
    const std::int64_t is = plan.strides[k][last];
    if (is == 0) continue;  // constant along the row: one load per vector
    if (is != static_cast<std::int64_t>(size)) return false;
    const std::int64_t align = static_cast<std::int64_t>(V * size);
    if (reinterpret_cast<std::uintptr_t>(p) % align != 0) return false;
    for (int d = 0; d < last; ++d)
      if (plan.strides[k][d] % align != 0) return false;
  }
  return n_in + 1 == N;
}

// out = op(src...) for one (operation, loop type): operands already of the loop's types, out of type R.
template <class Op, class R, class... Ts>
void launch(Op op, const ArrayView& out, const Operand* in, cudaStream_t stream, const Src<Ts>&... src) {
  const std::int64_t n = out.size();
  constexpr int V = static_cast<int>(16 / max_size<R, Ts...>()) > 0 ? static_cast<int>(16 / max_size<R, Ts...>()) : 1;
  bool contiguous = out.is_c_contiguous() && aligned_to(out.data, V * sizeof(R));
  const void* ptrs[] = {src.p...};
  const std::size_t sizes[] = {sizeof(Ts)...};
  for (std::size_t k = 0; k < sizeof...(Ts) && contiguous; ++k)
    contiguous = (in[k].is_scalar || in[k].view.is_c_contiguous()) && aligned_to(ptrs[k], V * sizes[k]);
  if (contiguous) {
    launch_direct(&contiguous_kernel<V, Op, R, Ts...>, dim3(grid_for(std::max<std::int64_t>(n / V, 1))), dim3(kThreads), out.device,
                  stream, op, static_cast<R*>(out.data), n, src...);
    return;
  }
  const auto plan = detail::make_operand_plan<1 + sizeof...(Ts)>(out, in);
  const std::int64_t inner = plan.inner();
  if constexpr (kTiledOK<Ts...>) {
    if (const unsigned tmask = transposed_inputs(plan, sizeof(R), ptrs, sizes)) {
      const int last = plan.ndim - 1;
      const std::int64_t tiles_r = (plan.shape[last - 1] + kTile - 1) / kTile;
      const std::int64_t tiles_c = (plan.shape[last] + kTile - 1) / kTile;
      const std::int64_t nblocks = plan.rows() / plan.shape[last - 1] * tiles_r * tiles_c;
      const unsigned grid = static_cast<unsigned>(std::min<std::int64_t>(nblocks, 1 << 30));
      tiled_kernel<Op, R><<<grid, kThreads, 0, stream>>>(op, plan, static_cast<char*>(out.data), tmask, tiles_r,
                                                         tiles_c, nblocks, src...);
      return;
    }
  }
  if (row_vectors_ok(plan, V, out.data, sizeof(R), ptrs, sizes, sizeof...(Ts))) {
    const std::int64_t chunks = (inner / V + kThreads - 1) / kThreads;
    const std::int64_t nblocks = plan.rows() * chunks;
    const unsigned grid = static_cast<unsigned>(std::min<std::int64_t>(nblocks, 1 << 30));
    strided_kernel<V, Op, R><<<grid, kThreads, 0, stream>>>(op, plan, static_cast<char*>(out.data), n,
                                                            kRowVectors, chunks, nblocks, src...);
  } else if (inner >= kMinRowForRowMode) {
    const std::int64_t chunks = (inner + kRowChunk - 1) / kRowChunk;
    const std::int64_t nblocks = plan.rows() * chunks;
    const unsigned grid = static_cast<unsigned>(std::min<std::int64_t>(nblocks, 1 << 30));
    strided_kernel<V, Op, R><<<grid, kThreads, 0, stream>>>(op, plan, static_cast<char*>(out.data), n, kRows,
                                                            chunks, nblocks, src...);
  } else {
    strided_kernel<V, Op, R><<<grid_for(n), kThreads, 0, stream>>>(op, plan, static_cast<char*>(out.data), n,
                                                                   kPerElement, 0, 0, src...);
  }
}

// How many files each arity's loops are compiled in (elementwise_{unary,binary,ternary}_<part>.cu): one file
// per arity took minutes to compile, on one core.
constexpr int parts_of_arity(int arity) { return arity == 1 ? 3 : arity == 2 ? 4 : 2; }

// The loops of `op` over `compute`, for the operations of one arity and part.
template <int Arity, int Part>
void run_elementwise(ElementwiseOp op, const Operand* in, const ArrayView& out, DType compute,
                     StreamHandle stream) {
  auto s = static_cast<cudaStream_t>(stream);
  detail::dispatch_loop<Arity, parts_of_arity(Arity), Part>(op, compute, in,
                                                             [&](auto opf, auto rtag, const auto&... src) {
    using R = typename decltype(rtag)::type;
    launch<std::decay_t<decltype(opf)>, R>(opf, out, in, s, src...);
  });
  NPGPU_CHECK_LAUNCH(elementwise_op_name(op));
}

}  // namespace npgpu::cuda::ew_detail
