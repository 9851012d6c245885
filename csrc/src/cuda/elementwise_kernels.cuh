#pragma once
// CUDA backend of the elementwise operations: the two kernels every (operation, loop dtype) gets.
//  - contiguous: every array operand and out C-contiguous and 16-byte friendly: vectorised loads and stores
//    (16 bytes of the widest type per thread and step), grid-stride over 64-bit indices.
//  - strided: anything else (views, transposes, negative steps, broadcasting). Work is cut into rows of the
//    innermost (coalesced) dimension: each block takes a chunk of one row, so div/mod over the outer
//    dimensions happens once per block, not per element; short rows fall back to per-element offsets.
// Each arity is compiled in its own file (elementwise_unary.cu, _binary.cu, _ternary.cu) to keep compile
// times and memory bounded.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <utility>

#include "common/cuda_check.hpp"
#include "common/elementwise_loops.hpp"
#include "common/strided.hpp"

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
      const std::int64_t row = blk / chunks;
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
    const std::int64_t row = blk / chunks;
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

template <class... Ts>
constexpr std::size_t max_size() {
  std::size_t m = 1;
  ((m = sizeof(Ts) > m ? sizeof(Ts) : m), ...);
  return m;
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
    contiguous_kernel<V><<<grid_for(std::max<std::int64_t>(n / V, 1)), kThreads, 0, stream>>>(
        op, static_cast<R*>(out.data), n, src...);
    return;
  }
  const auto plan = detail::make_operand_plan<1 + sizeof...(Ts)>(out, in);
  const std::int64_t inner = plan.inner();
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

// The loop of `op` over `compute`, for operations of one arity.
template <int Arity>
void run_elementwise(ElementwiseOp op, const Operand* in, const ArrayView& out, DType compute,
                     StreamHandle stream) {
  auto s = static_cast<cudaStream_t>(stream);
  detail::dispatch_loop<Arity>(op, compute, in, [&](auto opf, auto rtag, const auto&... src) {
    using R = typename decltype(rtag)::type;
    launch<std::decay_t<decltype(opf)>, R>(opf, out, in, s, src...);
  });
  NPGPU_CHECK_LAUNCH(elementwise_op_name(op));
}

}  // namespace npgpu::cuda::ew_detail
