#pragma once
// Internal: the CUDA reductions' templates, included by reduce.cu, reduce_extrema.cu and reduce_arg.cu, each of
// which instantiates them for a third of the reducers (so the family's CUB instantiations compile in parallel).
//
// Reductions pick a layout from the views (after dropping extent-1 axes and merging adjacent ones):
//   whole array, contiguous           -> float32 / float64 sum, min, max, argmin, argmax, integer sums:
//     seg_kernel, one pass
//     (16-byte loads, the last block to finish combines the blocks' partials); other inputs / reducers:
//     cub::DeviceReduce::Reduce
//   rows: outputs own back-to-back contiguous runs of K >= 64 elements
//                                     -> float32 / float64 sum, min, max, argmin, argmax: warp_rows_kernel (a warp
//     per row, many rows) or seg_kernel (blocks per row); others: cub::DeviceSegmentedReduce::Reduce (offsets
//     from counting iterators)
//   columns: one strided reduced axis, at most two kept axes (axis 0 of a C-contiguous matrix, the middle
//     axis of a 3-D array, short rows)
//                                     -> column_kernel: each thread walks its column(s) down a slice of the
//     rows (16-byte vector loads for float32/float64), the block combines its 8 row groups, slices are
//     combined by a second small kernel when the rows are split over several blocks.
//   anything else                     -> a contiguous copy in (kept..., reduced...) order, then rows / whole.
// CUB's results (the reducer's accumulator type) go to a scratch array that finalize_kernel converts into
// the output (any strides, any dtype).
//
// Compile time is bounded by instantiating CUB per reducer (21 reducer/compute-type pairs), not per input
// dtype: inputs are read through one loader per compute type that converts the runtime dtype on load. Only
// float32 and float64 inputs to sum/min/max/argmin/argmax/var, and integer inputs to integer sums, get typed
// instantiations (raw pointers, vector loads): the fast paths.
//
// Scans are in reduce_scan.cu (a separate translation unit so that the two halves of the family compile in
// parallel).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

#include <cub/block/block_reduce.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "common/backends.hpp"
#include "common/cuda_check.hpp"
#include "common/dispatch.hpp"
#include "cuda/cub_run.cuh"
#include "common/reduce_backends.hpp"
#include "common/strided.hpp"
#include "npgpu/memory.hpp"
#include "vec16.cuh"

namespace npgpu::cuda {
namespace {

using detail::complex128;
using detail::complex64;
using detail::FinParams;
using detail::Pre;
using detail::ReduceArgs;
using detail::StridedPlan;

constexpr int kThreads = 256;

unsigned grid_for(std::int64_t items) {
  const std::int64_t blocks = (items + kThreads - 1) / kThreads;
  return static_cast<unsigned>(std::min<std::int64_t>(std::max<std::int64_t>(blocks, 1), 1 << 20));
}

template <class T, int N>
struct alignas(sizeof(T) * N) Vec {
  T v[N];
};

// ------------------------------------------------------------------------------------------ element sources

// Any dtype, converted on load to the compute type T (with the pre-transform).
template <class T>
struct DynSrc {
  const char* base;
  DType dtype;
  Pre pre;
  __host__ __device__ T at(std::int64_t off) const { return detail::load_pre<T>(base + off, dtype, pre); }
};

// A float32 / float64 input read as T.
template <class In, class T>
struct TypedSrc {
  using in_type = In;
  const char* base;
  __host__ __device__ T at(std::int64_t off) const { return static_cast<T>(*reinterpret_cast<const In*>(base + off)); }
  template <int V>
  __device__ Vec<In, V> vec(std::int64_t off) const {
    return *reinterpret_cast<const Vec<In, V>*>(base + off);
  }
};

template <class S>
struct is_typed : std::false_type {};
template <class In, class T>
struct is_typed<TypedSrc<In, T>> : std::true_type {};

// Element i of a contiguous run -> the reducer's accumulator.
template <class R, class Src>
struct ElemMap {
  Src src;
  std::int64_t item;
  bool skip_nan;
  __host__ __device__ typename R::Acc operator()(std::int64_t i) const {
    return detail::make_acc<R>(src.at(i * item), i, skip_nan);
  }
};

struct SegOffset {
  std::int64_t k;
  __host__ __device__ std::int64_t operator()(std::int64_t m) const { return m * k; }
};

template <class R>
constexpr bool kRawOK = std::is_same_v<R, detail::AddR<double>>;
template <class R>
constexpr bool kTypedOK = kRawOK<R> || std::is_same_v<R, detail::ZeroSignExtremumR<true, false>> ||
                          std::is_same_v<R, detail::ZeroSignExtremumR<false, false>> ||
                          std::is_same_v<R, detail::ArgMinR<double>> || std::is_same_v<R, detail::ArgMaxR<double>> ||
                          std::is_same_v<R, detail::WelfordR>;

// Integer sums (64-bit two's complement accumulation) also get typed kernels, for every integer input width.
template <class R>
constexpr bool kIntSumOK = std::is_same_v<R, detail::AddR<std::uint64_t>>;

// fn(p) with p the input as a pointer to its integer element type; false (fn not called) for other dtypes or a
// pointer not aligned to its element. bool is read as uint8 (its values are 0 and 1).
template <class Fn>
bool with_int_input(DType dtype, const char* base, Fn&& fn) {
  auto call = [&](auto tag) {
    using In = typename decltype(tag)::type;
    if (reinterpret_cast<std::uintptr_t>(base) % sizeof(In) != 0) return false;
    fn(reinterpret_cast<const In*>(base));
    return true;
  };
  switch (dtype) {
    case DType::Bool:
    case DType::UInt8: return call(detail::type_tag<std::uint8_t>{});
    case DType::Int8: return call(detail::type_tag<std::int8_t>{});
    case DType::Int16: return call(detail::type_tag<std::int16_t>{});
    case DType::UInt16: return call(detail::type_tag<std::uint16_t>{});
    case DType::Int32: return call(detail::type_tag<std::int32_t>{});
    case DType::UInt32: return call(detail::type_tag<std::uint32_t>{});
    case DType::Int64: return call(detail::type_tag<std::int64_t>{});
    case DType::UInt64: return call(detail::type_tag<std::uint64_t>{});
    default: return false;
  }
}

// Whether the hand-written typed kernels below serve this call: their per-thread loops do not skip NaNs, so
// the NaN-skipping moments (nanvar, nanstd, nanmean) keep the converting loader.
template <class R>
bool fast_typed_ok(const ReduceArgs& a) {
  if constexpr (std::is_same_v<R, detail::WelfordR>) return !a.skip_nan;
  return true;
}

// fn(src, item) with the fastest source for the input: typed for float32/float64 inputs of the hot
// reducers, the converting loader otherwise.
template <class R, class Fn>
void with_src(const ReduceArgs& a, const char* base, DType dtype, Fn&& fn) {
  using V = typename R::Val;
  if constexpr (kTypedOK<R>) {
    if (a.pre == Pre::None) {
      if (dtype == DType::Float32) return fn(TypedSrc<float, double>{base}, std::int64_t(4));
      if (dtype == DType::Float64) return fn(TypedSrc<double, double>{base}, std::int64_t(8));
    }
  }
  fn(DynSrc<V>{base, dtype, a.pre}, itemsize(dtype));
}

// ------------------------------------------------------------------------------------------ kernels

template <class R>
__global__ void finalize_kernel(const typename R::Acc* __restrict__ vals, std::int64_t M, StridedPlan<1> oplan,
                                char* __restrict__ out, DType od, FinParams f, std::int64_t K) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t m = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; m < M; m += stride) {
    const typename R::Acc v = vals ? vals[m] : R::identity();
    std::int64_t off;
    oplan.offsets(m, &off);
    detail::finish_store(out + off, od, v, f, m * K);
  }
}

// ------------------------------------------------------------------------------------------ fast typed paths
//
// Hand-written kernels for contiguous float32 / float64 inputs of sum, min, max, argmin and argmax (whole arrays
// and rows). Why not CUB: cub::DeviceReduce, its argmax (through a transform iterator: scalar loads) and
// DeviceSegmentedReduce stayed below the targets (figures in docs/performance-notes.md): each costs a temp
// storage query, a pool allocation and two or three kernels (reduce, single-tile, finalize) for a short
// pass. Here one kernel does it: every thread keeps 16-byte loads in flight (U of them), accumulates per
// vector lane (float32 sums in float64, extrema in the input type: the conversion is exact), the block combines
// with cub::BlockReduce (warps with cub::WarpReduce), and for a whole array the last block to finish (an
// atomic ticket in per-stream scratch, reset by that block) combines the blocks' partials and stores the
// result. Rows: one warp per row when there are many rows, else blocks per row (rows split over several
// blocks, finished by a small kernel, when there are few long rows).

// Per-thread accumulation of one vector lane, in index order (earlier indices first).
template <class R, class In>
struct Local;

template <class In>
struct Local<detail::AddR<double>, In> {
  double s = 0;
  __device__ void put(In x, std::int64_t) { s += static_cast<double>(x); }
  __device__ double get() const { return s; }
};

// max / min: NaN wins (and stays); otherwise the larger (smaller) value, and the last zero's index and sign.
// Integers of any width, sign- or zero-extended to 64 bits (sums wrap modulo 2^64, as NumPy's int64 sums do).
template <class In>
struct Local<detail::AddR<std::uint64_t>, In> {
  std::uint64_t s = 0;
  __device__ void put(In x, std::int64_t) { s += static_cast<std::uint64_t>(x); }
  __device__ std::uint64_t get() const { return s; }
};

template <class In, bool IsMax>
struct Local<detail::ZeroSignExtremumR<IsMax, false>, In> {
  using R = detail::ZeroSignExtremumR<IsMax, false>;
  In v = IsMax ? -std::numeric_limits<In>::infinity() : std::numeric_limits<In>::infinity();
  std::int64_t z = R::kNoZero;
  __device__ void put(In x, std::int64_t idx) {
    if (v == v && !(IsMax ? x <= v : x >= v)) v = x;
    if (x == 0) {
      const std::int64_t k = R::zero_key(static_cast<double>(x), idx);
      z = k > z ? k : z;
    }
  }
  __device__ detail::ZeroSignAcc get() const { return {static_cast<double>(v), z}; }
};

// The first index of the extremum (strict comparisons keep the earlier one); the first NaN wins. An input of
// only -inf (argmax) / +inf (argmin) leaves the identity's index: fix_index() maps it to the first element.
template <class In, bool IsMax>
struct Local<detail::ArgR<double, IsMax>, In> {
  In v = IsMax ? -std::numeric_limits<In>::infinity() : std::numeric_limits<In>::infinity();
  std::int64_t i = std::numeric_limits<std::int64_t>::max();
  __device__ void put(In x, std::int64_t idx) {
    if (v == v && !(IsMax ? x <= v : x >= v)) {
      v = x;
      i = idx;
    }
  }
  __device__ detail::ArgPair<double> get() const { return {i, static_cast<double>(v)}; }
};

// var / std: each lane sums its elements' offsets from its first element (one subtraction and one FMA an
// element, no division) and turns them into (count, mean, M2) at the end, merged with Chan's formula from
// there. The shift is one of the lane's own elements, so M2 >= (shift - mean)^2 and s2 <= (n + 1) M2: the
// subtraction s2 - s1^2 / n loses at most log2(n + 1) bits of double precision.
template <class In>
struct Local<detail::WelfordR, In> {
  double shift = 0, s1 = 0, s2 = 0, n = 0;
  __device__ void put(In x, std::int64_t) {
    const double v = static_cast<double>(x);
    if (n == 0) shift = v;
    const double d = v - shift;
    s1 += d;
    s2 = fma(d, d, s2);
    n += 1;
  }
  __device__ detail::WelfordAcc get() const {
    if (n == 0) return {0.0, 0.0, 0.0};
    const double offset = s1 / n;
    return {n, shift + offset, s2 - s1 * offset};
  }
};

template <class Acc>
__device__ void fix_index(Acc&, std::int64_t) {}
__device__ inline void fix_index(detail::ArgPair<double>& a, std::int64_t first) {
  if (a.idx == std::numeric_limits<std::int64_t>::max()) a.idx = first;
}

// Column reductions that accumulate through Local (typed input; argmin/argmax and max/min, whose general
// merge costs more than the load).
template <class R, class Src>
constexpr bool kColumnLocal =
    is_typed<Src>::value &&
    (std::is_same_v<R, detail::ArgMinR<double>> || std::is_same_v<R, detail::ArgMaxR<double>> ||
     std::is_same_v<R, detail::ZeroSignExtremumR<true, false>> ||
     std::is_same_v<R, detail::ZeroSignExtremumR<false, false>>);

constexpr int kColX = 32, kColY = 8;

// Reduce an (A, Rn, C) view over Rn: blockIdx.x picks 32 * V columns, blockIdx.y a slice of rows, blockIdx.z
// the outer index. Byte strides sA, sR, sC (sC == itemsize when V > 1).
template <class R, class Src, int V>
__global__ void __launch_bounds__(kColX* kColY)
    column_kernel(Src src, std::int64_t A, std::int64_t Rn, std::int64_t C, std::int64_t sA, std::int64_t sR,
                  std::int64_t sC, std::int64_t rows_per_split, int S, typename R::Acc* __restrict__ partial,
                  StridedPlan<1> oplan, char* __restrict__ out, DType od, FinParams f, bool skip_nan) {
  using Acc = typename R::Acc;
  const R op{};
  __shared__ Acc sm[kColY][kColX * V];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const std::int64_t cb = static_cast<std::int64_t>(blockIdx.x) * (kColX * V);
  const std::int64_t c0 = cb + static_cast<std::int64_t>(tx) * V;
  const int s = blockIdx.y;
  const std::int64_t r0 = static_cast<std::int64_t>(s) * rows_per_split;
  const std::int64_t r1 = std::min(Rn, r0 + rows_per_split);
  for (std::int64_t a = blockIdx.z; a < A; a += gridDim.z) {
    Acc acc[V];
#pragma unroll
    for (int v = 0; v < V; ++v) acc[v] = R::identity();
    if (c0 < C) {
      const std::int64_t base = a * sA + c0 * sC;
      if constexpr (kColumnLocal<R, Src>) {
        // Rows come in increasing order, so a typed Local compares in the input's type and needs none of the
        // general merge's index comparisons.
        using In = typename Src::in_type;
        Local<R, In> loc[V];
#pragma unroll 4
        for (std::int64_t r = r0 + ty; r < r1; r += kColY) {
          const auto x = src.template vec<V>(base + r * sR);
#pragma unroll
          for (int v = 0; v < V; ++v) loc[v].put(x.v[v], r);
        }
#pragma unroll
        for (int v = 0; v < V; ++v) {
          acc[v] = loc[v].get();
          if (r0 + ty < r1) fix_index(acc[v], r0 + ty);
        }
      } else if constexpr (V == 1) {
#pragma unroll 4
        for (std::int64_t r = r0 + ty; r < r1; r += kColY)
          acc[0] = op(acc[0], detail::make_acc<R>(src.at(base + r * sR), r, skip_nan));
      } else {
#pragma unroll 4
        for (std::int64_t r = r0 + ty; r < r1; r += kColY) {
          const auto x = src.template vec<V>(base + r * sR);
#pragma unroll
          for (int v = 0; v < V; ++v)
            acc[v] = op(acc[v], detail::make_acc<R>(static_cast<typename R::Val>(x.v[v]), r, skip_nan));
        }
      }
    }
#pragma unroll
    for (int v = 0; v < V; ++v) sm[ty][tx * V + v] = acc[v];
    __syncthreads();
    for (int j = ty * kColX + tx; j < kColX * V; j += kColX * kColY) {
      Acc t = sm[0][j];
#pragma unroll
      for (int y = 1; y < kColY; ++y) t = op(t, sm[y][j]);
      const std::int64_t c = cb + j;
      if (c < C) {
        if (S == 1) {
          std::int64_t off;
          oplan.offsets(a * C + c, &off);
          detail::finish_store(out + off, od, t, f, 0);
        } else {
          partial[(a * S + s) * C + c] = t;
        }
      }
    }
    __syncthreads();
  }
}

template <class R>
__global__ void column_finish(const typename R::Acc* __restrict__ partial, std::int64_t A, std::int64_t C, int S,
                              StridedPlan<1> oplan, char* __restrict__ out, DType od, FinParams f) {
  const R op{};
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t m = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; m < A * C; m += stride) {
    const std::int64_t a = m / C, c = m - a * C;
    typename R::Acc t = partial[a * S * C + c];
    for (int s = 1; s < S; ++s) t = op(t, partial[(a * S + s) * C + c]);
    std::int64_t off;
    oplan.offsets(m, &off);
    detail::finish_store(out + off, od, t, f, 0);
  }
}

// Thread t of `stride` threads accumulates its share of row[0, K) (indices relative to the row): the elements
// before the first 16-byte boundary, the 16-byte vectors (U loads in flight), then the tail.
template <class R, class In, int U>
__device__ typename R::Acc accumulate_row(const In* __restrict__ row, std::int64_t K, std::int64_t t,
                                          std::int64_t stride) {
  using VT = typename V16<In>::T;
  constexpr int V = V16<In>::n;
  const R op{};
  Local<R, In> loc[V];
  const std::int64_t mis = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(row) % 16) / sizeof(In);
  const std::int64_t head = std::min<std::int64_t>(K, (V - mis) % V);
  const std::int64_t nv = (K - head) / V;
  const std::int64_t tail0 = head + nv * V;
  if (t < head) loc[0].put(row[t], t);
  const VT* __restrict__ pv = reinterpret_cast<const VT*>(row + head);
  std::int64_t i = t;
  for (; i + (U - 1) * stride < nv; i += U * stride) {
    VT x[U];
#pragma unroll
    for (int u = 0; u < U; ++u) x[u] = __ldg(pv + i + u * stride);
#pragma unroll
    for (int u = 0; u < U; ++u) {
      In e[V];
      V16<In>::unpack(x[u], e);
      const std::int64_t b = head + (i + u * stride) * V;
#pragma unroll
      for (int j = 0; j < V; ++j) loc[j].put(e[j], b + j);
    }
  }
  for (; i < nv; i += stride) {
    In e[V];
    V16<In>::unpack(__ldg(pv + i), e);
#pragma unroll
    for (int j = 0; j < V; ++j) loc[j].put(e[j], head + i * V + j);
  }
  if (t < K - tail0) loc[V - 1].put(row[tail0 + t], tail0 + t);
  typename R::Acc a = loc[0].get();
#pragma unroll
  for (int j = 1; j < V; ++j) a = op(a, loc[j].get());
  return a;
}

// An accumulator read through L2 (partials written by other blocks; L1 is not coherent).
template <class Acc>
__device__ Acc load_cg(const Acc* p) {
  static_assert(sizeof(Acc) % 8 == 0, "8-byte words");
  Acc r;
  const auto* src = reinterpret_cast<const unsigned long long*>(p);
  auto* dst = reinterpret_cast<unsigned long long*>(&r);
#pragma unroll
  for (int w = 0; w < static_cast<int>(sizeof(Acc) / 8); ++w) dst[w] = __ldcg(src + w);
  return r;
}

// Rows m of K elements (row stride ld elements), each split over S = gridDim.x blocks (blockIdx.y walks the
// rows). S == 1: the block stores the row's result. S > 1: partial[m * S + s]; with a ticket (one row only),
// the last block to finish combines the partials, stores the result and resets the ticket; without one,
// seg_finish does it.
template <class R, class In, int U>
__global__ void __launch_bounds__(kThreads)
    seg_kernel(const In* __restrict__ p, std::int64_t M, std::int64_t K, std::int64_t ld,
               typename R::Acc* __restrict__ partial, unsigned* __restrict__ ticket, StridedPlan<1> oplan,
               char* __restrict__ out, DType od, FinParams f) {
  using Acc = typename R::Acc;
  using BR = cub::BlockReduce<Acc, kThreads>;
  __shared__ typename BR::TempStorage tmp;
  __shared__ bool last;
  const R op{};
  const int S = gridDim.x, s = blockIdx.x;
  for (std::int64_t m = blockIdx.y; m < M; m += gridDim.y) {
    Acc a = accumulate_row<R, In, U>(p + m * ld, K, static_cast<std::int64_t>(s) * kThreads + threadIdx.x,
                                     static_cast<std::int64_t>(S) * kThreads);
    a = BR(tmp).Reduce(a, op);
    if (S == 1) {
      if (threadIdx.x == 0) {
        fix_index(a, 0);
        std::int64_t off;
        oplan.offsets(m, &off);
        detail::finish_store(out + off, od, a, f, 0);
      }
    } else {
      if (threadIdx.x == 0) partial[m * S + s] = a;
      if (ticket != nullptr) {
        if (threadIdx.x == 0) {
          __threadfence();
          last = atomicAdd(ticket, 1u) == static_cast<unsigned>(S - 1);
        }
        __syncthreads();
        if (last) {
          __threadfence();
          Acc b = R::identity();
          for (int k = threadIdx.x; k < S; k += kThreads) b = op(b, load_cg(partial + k));
          b = BR(tmp).Reduce(b, op);
          if (threadIdx.x == 0) {
            fix_index(b, 0);
            std::int64_t off;
            oplan.offsets(0, &off);
            detail::finish_store(out + off, od, b, f, 0);
            *ticket = 0;
          }
        }
      }
    }
    __syncthreads();
  }
}

// Row m's S partials -> the result (one block per row).
template <class R>
__global__ void __launch_bounds__(kThreads) seg_finish(const typename R::Acc* __restrict__ partial, std::int64_t M,
                                                       int S, StridedPlan<1> oplan, char* __restrict__ out, DType od,
                                                       FinParams f) {
  using Acc = typename R::Acc;
  using BR = cub::BlockReduce<Acc, kThreads>;
  __shared__ typename BR::TempStorage tmp;
  const R op{};
  for (std::int64_t m = blockIdx.x; m < M; m += gridDim.x) {
    Acc b = R::identity();
    for (int k = threadIdx.x; k < S; k += kThreads) b = op(b, partial[m * S + k]);
    b = BR(tmp).Reduce(b, op);
    if (threadIdx.x == 0) {
      fix_index(b, 0);
      std::int64_t off;
      oplan.offsets(m, &off);
      detail::finish_store(out + off, od, b, f, 0);
    }
    __syncthreads();
  }
}

// One warp per row (many rows).
template <class R, class In, int U>
__global__ void __launch_bounds__(kThreads)
    warp_rows_kernel(const In* __restrict__ p, std::int64_t M, std::int64_t K, StridedPlan<1> oplan,
                     char* __restrict__ out, DType od, FinParams f) {
  using Acc = typename R::Acc;
  using WR = cub::WarpReduce<Acc>;
  __shared__ typename WR::TempStorage tmp[kThreads / 32];
  const R op{};
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  const std::int64_t nw = static_cast<std::int64_t>(gridDim.x) * (kThreads / 32);
  for (std::int64_t m = static_cast<std::int64_t>(blockIdx.x) * (kThreads / 32) + w; m < M; m += nw) {
    Acc a = accumulate_row<R, In, U>(p + m * K, K, lane, 32);
    a = WR(tmp[w]).Reduce(a, op);
    if (lane == 0) {
      fix_index(a, 0);
      std::int64_t off;
      oplan.offsets(m, &off);
      detail::finish_store(out + off, od, a, f, 0);
    }
  }
}

// Variant switches for measurements (NPGPU_REDUCE_FULL=cub, NPGPU_REDUCE_ROWS=cub|block|warp,
// NPGPU_REDUCE_TICKET=0); read once.
char env_first(const char* name) {
  const char* e = std::getenv(name);
  return e == nullptr ? '\0' : e[0];
}
bool full_via_cub() {
  static const bool v = env_first("NPGPU_REDUCE_FULL") == 'c';
  return v;
}
char rows_mode() {
  static const char v = env_first("NPGPU_REDUCE_ROWS");
  return v;
}
bool use_ticket() {
  static const bool v = env_first("NPGPU_REDUCE_TICKET") != '0';
  return v;
}

template <class Kernel>
int blocks_per_sm(Kernel k) {
  int n = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, kThreads, 0) != cudaSuccess || n < 1) {
    (void)cudaGetLastError();
    n = 1;
  }
  return n;
}

// Per (device, stream) scratch of the single-pass whole-array reduction: a ticket (kept at 0 between calls: the
// last block resets it) and room for the blocks' partials. Calls on one stream run in order, so they can share
// it. Keyed by the stream's unique id (cudaStreamGetId: never reused, unlike a destroyed stream's handle, whose
// work may still be running; the per-thread default streams of different host threads have different ids).
// Never freed; at most kMaxScratch streams get one (others take the partials + finish-kernel path).
constexpr int kMaxPartials = 2048;
constexpr int kMaxPartialBytes = 24;  // the largest accumulator: (count, mean, M2)
constexpr int kMaxScratch = 256;
struct StreamScratch {
  unsigned* ticket = nullptr;
  void* partials = nullptr;
};

StreamScratch stream_scratch(int device, cudaStream_t s) {
  static std::mutex mu;
  static std::vector<std::pair<std::pair<int, unsigned long long>, StreamScratch>> cache;
  // Not while a graph is captured: its launches could run beside the stream's own.
  cudaStreamCaptureStatus cap = cudaStreamCaptureStatusNone;
  unsigned long long id = 0;
  if (cudaStreamIsCapturing(s, &cap) != cudaSuccess || cap != cudaStreamCaptureStatusNone ||
      cudaStreamGetId(s, &id) != cudaSuccess) {
    (void)cudaGetLastError();
    return {};
  }
  const std::pair<int, unsigned long long> key{device, id};
  std::lock_guard<std::mutex> lock(mu);
  for (const auto& e : cache)
    if (e.first == key) return e.second;
  if (cache.size() >= kMaxScratch) return {};
  const int prev = active_device();
  activate_device(device);
  void* mem = nullptr;
  cudaError_t err = cudaMalloc(&mem, 256 + kMaxPartials * kMaxPartialBytes);
  if (err == cudaSuccess) err = cudaMemsetAsync(mem, 0, 256, s);  // in stream order before the first use
  activate_device(prev);
  if (err != cudaSuccess) {
    if (mem) cudaFree(mem);
    (void)cudaGetLastError();
    return {};
  }
  StreamScratch sc{static_cast<unsigned*>(mem), static_cast<char*>(mem) + 256};
  cache.push_back({key, sc});
  return sc;
}

// ------------------------------------------------------------------------------------------ reductions

struct Ctx {
  const ReduceArgs* a;
  int device;
  cudaStream_t s;
  StridedPlan<1> oplan;
  char* out;
  DType od;
};

template <class R>
void finalize(const Ctx& c, const typename R::Acc* vals, std::int64_t M, std::int64_t K) {
  finalize_kernel<R><<<grid_for(M), kThreads, 0, c.s>>>(vals, M, c.oplan, c.out, c.od, c.a->fin, K);
  NPGPU_CHECK_LAUNCH("reduce finalize");
}

bool col_target_old() {
  static const bool v = env_first("NPGPU_REDUCE_COLS") == 'o';
  return v;
}

template <class Kernel>
int col_blocks_per_sm(Kernel k) {
  int n = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, kColX * kColY, 0) != cudaSuccess || n < 1) {
    (void)cudaGetLastError();
    n = 1;
  }
  return n;
}

// The whole of p[0, K) (float32 / float64 sum / min / max / argmin / argmax / var, integer sums): seg_kernel
// over one row, as many blocks as fit at once (fewer for small inputs), finished by the last block.
template <class R, class In>
void fast_full(const Ctx& c, const In* p, std::int64_t K) {
  using Acc = typename R::Acc;
  constexpr int U = 2;  // loads in flight per thread: the fastest of 2, 4 and 8 (docs/performance-notes.md)
  constexpr int V = 16 / sizeof(In);
  static const int occ = blocks_per_sm(seg_kernel<R, In, U>);
  const std::int64_t cap = static_cast<std::int64_t>(occ) * device_properties(c.device).multiprocessor_count;
  const std::int64_t per_block = static_cast<std::int64_t>(kThreads) * V * U;
  const int S = static_cast<int>(std::clamp<std::int64_t>((K + per_block - 1) / per_block, 1,
                                                          std::min<std::int64_t>(cap, kMaxPartials)));
  if (S == 1) {
    seg_kernel<R, In, U><<<1, kThreads, 0, c.s>>>(p, 1, K, K, nullptr, nullptr, c.oplan, c.out, c.od, c.a->fin);
    NPGPU_CHECK_LAUNCH("reduce (one block)");
    return;
  }
  static_assert(sizeof(Acc) <= kMaxPartialBytes, "partials in the stream scratch");
  if (use_ticket()) {
    const StreamScratch sc = stream_scratch(c.device, c.s);
    if (sc.ticket != nullptr) {
      seg_kernel<R, In, U><<<S, kThreads, 0, c.s>>>(p, 1, K, K, static_cast<Acc*>(sc.partials), sc.ticket, c.oplan,
                                                     c.out, c.od, c.a->fin);
      NPGPU_CHECK_LAUNCH("reduce (single pass)");
      return;
    }
  }
  DeviceBuffer part(S * static_cast<std::int64_t>(sizeof(Acc)), c.device, c.s);
  seg_kernel<R, In, U><<<S, kThreads, 0, c.s>>>(p, 1, K, K, static_cast<Acc*>(part.data()), nullptr, c.oplan, c.out,
                                                 c.od, c.a->fin);
  NPGPU_CHECK_LAUNCH("reduce (partials)");
  seg_finish<R><<<1, kThreads, 0, c.s>>>(static_cast<const Acc*>(part.data()), 1, S, c.oplan, c.out, c.od, c.a->fin);
  NPGPU_CHECK_LAUNCH("reduce (finish)");
}

// M rows of K elements, back to back: a warp per row when rows are many (or short), else blocks per row (a
// row split over several blocks when there are fewer rows than the GPU holds blocks).
template <class R, class In>
void fast_rows(const Ctx& c, const In* p, std::int64_t M, std::int64_t K) {
  using Acc = typename R::Acc;
  constexpr int U = 4;
  constexpr int V = 16 / sizeof(In);
  const int sms = device_properties(c.device).multiprocessor_count;
  const char mode = rows_mode();
  const bool warp = mode == 'w' || (mode != 'b' && (M >= 16LL * sms || K <= 2048));
  if (warp) {
    static const int occ = blocks_per_sm(warp_rows_kernel<R, In, U>);
    const std::int64_t blocks = std::min<std::int64_t>((M + kThreads / 32 - 1) / (kThreads / 32),
                                                       static_cast<std::int64_t>(occ) * sms);
    warp_rows_kernel<R, In, U><<<static_cast<unsigned>(blocks), kThreads, 0, c.s>>>(p, M, K, c.oplan, c.out, c.od,
                                                                                    c.a->fin);
    NPGPU_CHECK_LAUNCH("reduce rows (warps)");
    return;
  }
  static const int occ = blocks_per_sm(seg_kernel<R, In, U>);
  const std::int64_t cap = static_cast<std::int64_t>(occ) * sms;
  const std::int64_t per_block = static_cast<std::int64_t>(kThreads) * V * U;
  const std::int64_t S = std::clamp<std::int64_t>(std::min(cap / M, (K + per_block - 1) / per_block), 1, 1024);
  const unsigned gy = static_cast<unsigned>(std::min<std::int64_t>(M, 65535));
  DeviceBuffer part(S > 1 ? M * S * static_cast<std::int64_t>(sizeof(Acc)) : 16, c.device, c.s);
  seg_kernel<R, In, U><<<dim3(static_cast<unsigned>(S), gy), kThreads, 0, c.s>>>(
      p, M, K, K, static_cast<Acc*>(part.data()), nullptr, c.oplan, c.out, c.od, c.a->fin);
  NPGPU_CHECK_LAUNCH("reduce rows (blocks)");
  if (S > 1) {
    seg_finish<R><<<static_cast<unsigned>(std::min<std::int64_t>(M, 65535)), kThreads, 0, c.s>>>(
        static_cast<const Acc*>(part.data()), M, static_cast<int>(S), c.oplan, c.out, c.od, c.a->fin);
    NPGPU_CHECK_LAUNCH("reduce rows (finish)");
  }
}

// The whole contiguous run [base, base + K items).
template <class R>
void run_full(const Ctx& c, const char* base, DType dtype, std::int64_t K) {
  using Acc = typename R::Acc;
  if constexpr (kTypedOK<R>) {
    if (c.a->pre == Pre::None && !full_via_cub() && fast_typed_ok<R>(*c.a)) {
      if (dtype == DType::Float32 && reinterpret_cast<std::uintptr_t>(base) % 4 == 0)
        return fast_full<R>(c, reinterpret_cast<const float*>(base), K);
      if (dtype == DType::Float64 && reinterpret_cast<std::uintptr_t>(base) % 8 == 0)
        return fast_full<R>(c, reinterpret_cast<const double*>(base), K);
    }
  }
  if constexpr (kIntSumOK<R>) {
    if (c.a->pre == Pre::None && !full_via_cub() &&
        with_int_input(dtype, base, [&](auto p) { fast_full<R>(c, p, K); }))
      return;
  }
  DeviceBuffer res(sizeof(Acc), c.device, c.s);
  Acc* d_out = static_cast<Acc*>(res.data());
  with_src<R>(*c.a, base, dtype, [&](auto src, std::int64_t item) {
    using Src = decltype(src);
    if constexpr (is_typed<Src>::value && kRawOK<R>) {
      const auto* p = reinterpret_cast<const typename Src::in_type*>(base);
      cub_run([&](void* t, size_t& b) {
        return cub::DeviceReduce::Reduce(t, b, p, d_out, K, R{}, R::identity(), c.s);
      }, c.device, c.s);
    } else {
      auto it = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0),
                                                ElemMap<R, Src>{src, item, c.a->skip_nan});
      cub_run([&](void* t, size_t& b) {
        return cub::DeviceReduce::Reduce(t, b, it, d_out, K, R{}, R::identity(), c.s);
      }, c.device, c.s);
    }
  });
  finalize<R>(c, d_out, 1, K);
}

// M back-to-back contiguous segments of K items.
template <class R>
void run_rows(const Ctx& c, const char* base, DType dtype, std::int64_t M, std::int64_t K) {
  using Acc = typename R::Acc;
  if constexpr (kTypedOK<R>) {
    if (c.a->pre == Pre::None && rows_mode() != 'c' && fast_typed_ok<R>(*c.a)) {
      if (dtype == DType::Float32 && reinterpret_cast<std::uintptr_t>(base) % 4 == 0)
        return fast_rows<R>(c, reinterpret_cast<const float*>(base), M, K);
      if (dtype == DType::Float64 && reinterpret_cast<std::uintptr_t>(base) % 8 == 0)
        return fast_rows<R>(c, reinterpret_cast<const double*>(base), M, K);
    }
  }
  if constexpr (kIntSumOK<R>) {
    if (c.a->pre == Pre::None && rows_mode() != 'c' &&
        with_int_input(dtype, base, [&](auto p) { fast_rows<R>(c, p, M, K); }))
      return;
  }
  DeviceBuffer res(M * static_cast<std::int64_t>(sizeof(Acc)), c.device, c.s);
  Acc* d_out = static_cast<Acc*>(res.data());
  auto begin = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), SegOffset{K});
  auto end = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(1), SegOffset{K});
  with_src<R>(*c.a, base, dtype, [&](auto src, std::int64_t item) {
    using Src = decltype(src);
    if constexpr (is_typed<Src>::value && kRawOK<R>) {
      const auto* p = reinterpret_cast<const typename Src::in_type*>(base);
      cub_run([&](void* t, size_t& b) {
        return cub::DeviceSegmentedReduce::Reduce(t, b, p, d_out, M, begin, end, R{}, R::identity(), c.s);
      }, c.device, c.s);
    } else {
      auto it = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0),
                                                ElemMap<R, Src>{src, item, c.a->skip_nan});
      cub_run([&](void* t, size_t& b) {
        return cub::DeviceSegmentedReduce::Reduce(t, b, it, d_out, M, begin, end, R{}, R::identity(), c.s);
      }, c.device, c.s);
    }
  });
  finalize<R>(c, d_out, M, K);
}

// (A, Rn, C) with byte strides, reduced over Rn.
template <class R>
void run_columns(const Ctx& c, const char* base, DType dtype, std::int64_t A, std::int64_t Rn, std::int64_t C,
                 std::int64_t sA, std::int64_t sR, std::int64_t sC) {
  using Acc = typename R::Acc;
  const int sms = device_properties(c.device).multiprocessor_count;
  with_src<R>(*c.a, base, dtype, [&](auto src, std::int64_t item) {
    using Src = decltype(src);
    auto launch = [&](auto vtag) {
      constexpr int V = decltype(vtag)::value;
      const std::int64_t gx = (C + kColX * V - 1) / (kColX * V);
      const std::int64_t gz = std::min<std::int64_t>(A, 65535);
      // Split the rows so that the blocks fill the GPU in one wave: S = the blocks that fit at once over the
      // blocks per slice (rounded down: a second, nearly empty wave of blocks as long as the first cost ~5% on
      // 8192 x 8192 float32, where 8 * SMs rounded up gave 1088 blocks for 1056 places).
      static const int occ = col_blocks_per_sm(column_kernel<R, Src, V>);
      const std::int64_t target = col_target_old() ? 8LL * sms : static_cast<std::int64_t>(occ) * sms;
      std::int64_t S = col_target_old() ? std::max<std::int64_t>(1, (target + gx * gz - 1) / (gx * gz))
                                        : std::max<std::int64_t>(1, target / (gx * gz));
      S = std::min<std::int64_t>({S, std::max<std::int64_t>(1, Rn / 64), 65535});
      const std::int64_t rps = std::max<std::int64_t>(1, (Rn + S - 1) / S);
      S = std::max<std::int64_t>(1, (Rn + rps - 1) / rps);
      if (gx > 0x7FFFFFFF) throw InvalidArgument("reduce: too many columns");
      DeviceBuffer part(S > 1 ? A * S * C * static_cast<std::int64_t>(sizeof(Acc)) : 16, c.device, c.s);
      dim3 grid(static_cast<unsigned>(gx), static_cast<unsigned>(S), static_cast<unsigned>(gz));
      column_kernel<R, Src, V><<<grid, dim3(kColX, kColY), 0, c.s>>>(
          src, A, Rn, C, sA, sR, sC, rps, static_cast<int>(S), static_cast<Acc*>(part.data()), c.oplan, c.out,
          c.od, c.a->fin, c.a->skip_nan);
      NPGPU_CHECK_LAUNCH("reduce columns");
      if (S > 1) {
        column_finish<R><<<grid_for(A * C), kThreads, 0, c.s>>>(static_cast<const Acc*>(part.data()), A, C,
                                                                static_cast<int>(S), c.oplan, c.out, c.od, c.a->fin);
        NPGPU_CHECK_LAUNCH("reduce columns finish");
      }
    };
    if constexpr (is_typed<Src>::value) {
      using In = typename Src::in_type;
      constexpr int V = 16 / sizeof(In);
      const std::uintptr_t align = V * sizeof(In);
      const bool vec_ok = sC == item && C % V == 0 && reinterpret_cast<std::uintptr_t>(base) % align == 0 &&
                          sR % static_cast<std::int64_t>(align) == 0 && (A == 1 || sA % static_cast<std::int64_t>(align) == 0);
      if (vec_ok) return launch(std::integral_constant<int, V>{});
    }
    launch(std::integral_constant<int, 1>{});
  });
}

template <class R>
void run_reduce(const ReduceArgs& a, cudaStream_t s) {
  Ctx c;
  c.a = &a;
  c.device = a.in_r.device;
  c.s = s;
  const ArrayView* ov[1] = {&a.out_k};
  c.oplan = detail::make_plan<1>(ov);
  c.out = static_cast<char*>(a.out_k.data);
  c.od = a.out_k.dtype;
  const std::int64_t M = a.outputs, K = a.count;
  if (K == 0) return finalize<R>(c, nullptr, M, 0);
  const DType dt = a.in_r.dtype;
  const std::int64_t item = itemsize(dt);
  const char* base = static_cast<const char*>(a.in_r.data);
  const ArrayView* rv[1] = {&a.in_r};
  const auto rplan = detail::make_plan<1>(rv);
  const ArrayView* kv[1] = {&a.in_k};
  const auto kplan = detail::make_plan<1>(kv);
  // make_plan gives a single element (no kept axes, or one reduced element) a 1-D plan of extent 1, never
  // ndim 0: test the extents (testing ndim == 0 sent every whole-array reduction through the copy below).
  const bool no_kept = kplan.ndim == 1 && kplan.shape[0] == 1;
  const bool red_contig = rplan.ndim == 1 && (rplan.strides[0][0] == item || rplan.shape[0] == 1);
  if (red_contig && no_kept) return run_full<R>(c, base, dt, K);
  if (red_contig && kplan.ndim == 1 && kplan.strides[0][0] == K * item) {
    if (K >= 64) return run_rows<R>(c, base, dt, M, K);
    return run_columns<R>(c, base, dt, 1, K, M, 0, item, K * item);
  }
  if (rplan.ndim <= 1 && kplan.ndim >= 1 && kplan.ndim <= 2) {
    const int l = kplan.ndim - 1;
    const std::int64_t C = kplan.shape[l];
    if (C >= 32 || K <= 256) {
      const std::int64_t A = kplan.ndim == 2 ? kplan.shape[0] : 1;
      const std::int64_t sA = kplan.ndim == 2 ? kplan.strides[0][0] : 0;
      const std::int64_t sR = rplan.ndim == 1 ? rplan.strides[0][0] : 0;
      return run_columns<R>(c, base, dt, A, K, C, sA, sR, kplan.strides[0][l]);
    }
  }
  // A contiguous copy with the kept axes first and the reduced axes last.
  ArrayView src = a.in_k;
  for (int d = 0; d < a.in_r.ndim; ++d) {
    src.shape[src.ndim] = a.in_r.shape[d];
    src.strides[src.ndim++] = a.in_r.strides[d];
  }
  src.data = a.in_r.data;
  DeviceBuffer tmp(M * K * item, c.device, s);
  const ArrayView dst = make_contiguous_view(tmp.data(), dt, src.ndim, src.shape, c.device);
  cuda::copy(src, dst, s);
  const char* tb = static_cast<const char*>(tmp.data());
  if (M == 1) return run_full<R>(c, tb, dt, K);
  if (K >= 64) return run_rows<R>(c, tb, dt, M, K);
  run_columns<R>(c, tb, dt, 1, K, M, 0, item, K * item);
}

}  // namespace

// The three translation units of the reductions (compiled in parallel): sums and products (reduce.cu),
// extrema (reduce_extrema.cu), arg-extrema and moments (reduce_arg.cu).
void reduce_sums(const detail::ReduceArgs& a, cudaStream_t s);
void reduce_extrema(const detail::ReduceArgs& a, cudaStream_t s);
void reduce_args(const detail::ReduceArgs& a, cudaStream_t s);

}  // namespace npgpu::cuda
