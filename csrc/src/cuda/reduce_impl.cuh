#pragma once
// Internal: the CUDA reductions' templates, included by reduce.cu, reduce_extrema.cu and reduce_arg.cu, each of
// which instantiates them for a third of the reducers (so the family's CUB instantiations compile in parallel).
//
// Reductions pick a layout from the views (after dropping extent-1 axes and merging adjacent ones):
//   whole array, contiguous           -> cub::DeviceReduce::Reduce
//   rows: outputs own back-to-back contiguous runs of K >= 64 elements
//                                     -> cub::DeviceSegmentedReduce::Reduce (offsets from counting iterators)
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
// float32 and float64 inputs to sum/min/max/argmin/argmax get typed instantiations (raw pointers, vector
// loads): the fast paths.
//
// Scans are in reduce_scan.cu (a separate translation unit so that the two halves of the family compile in
// parallel).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <type_traits>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "common/backends.hpp"
#include "common/cuda_check.hpp"
#include "common/reduce_backends.hpp"
#include "common/strided.hpp"
#include "npgpu/memory.hpp"

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

// Query CUB's temporary storage, take it from npgpu's pool on the stream, run, check the status.
template <class F>
void cub_run(F&& f, int device, cudaStream_t s) {
  size_t bytes = 0;
  NPGPU_CUDA_TRY(f(nullptr, bytes));
  DeviceBuffer tmp(static_cast<std::int64_t>(std::max<size_t>(bytes, 16)), device, s);
  NPGPU_CUDA_TRY(f(tmp.data(), bytes));
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
constexpr bool kRawOK = std::is_same_v<R, detail::AddR<double>> || std::is_same_v<R, detail::MinR<double>> ||
                        std::is_same_v<R, detail::MaxR<double>>;
template <class R>
constexpr bool kTypedOK = kRawOK<R> || std::is_same_v<R, detail::ArgMinR<double>> ||
                          std::is_same_v<R, detail::ArgMaxR<double>>;

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
      if constexpr (V == 1) {
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

// Rows of K contiguous float32 / float64 elements for sum / min / max, one block per row at a time (16-byte
// loads when the rows are aligned). Measured on an H100 (8192 x 8192 float32, axis 1): 2644 GB/s against
// 2550 GB/s for CUB's segmented reduction, which stays the path of every other reducer (for argmax rows CUB
// measured faster: 2113 against 1921 GB/s) and of all inputs with NPGPU_REDUCE_ROWS=cub.
template <class R, class In>
__global__ void __launch_bounds__(kThreads) row_kernel(const In* __restrict__ p, std::int64_t M, std::int64_t K,
                                                       bool vec_ok, StridedPlan<1> oplan, char* __restrict__ out,
                                                       DType od, FinParams f) {
  constexpr int V = 16 / sizeof(In);
  using Acc = typename R::Acc;
  const R op{};
  __shared__ Acc sm[kThreads];
  for (std::int64_t m = blockIdx.x; m < M; m += gridDim.x) {
    const In* row = p + m * K;
    Acc best = R::identity();
    if (vec_ok) {
      const Vec<In, V>* rv = reinterpret_cast<const Vec<In, V>*>(row);
      const std::int64_t nv = K / V;
#pragma unroll 4
      for (std::int64_t i = threadIdx.x; i < nv; i += kThreads) {
        const Vec<In, V> x = rv[i];
#pragma unroll
        for (int j = 0; j < V; ++j) best = op(best, R::make(static_cast<double>(x.v[j]), i * V + j));
      }
    } else {
#pragma unroll 4
      for (std::int64_t i = threadIdx.x; i < K; i += kThreads) best = op(best, R::make(static_cast<double>(row[i]), i));
    }
    sm[threadIdx.x] = best;
    __syncthreads();
    for (int w = kThreads / 2; w > 0; w >>= 1) {
      if (static_cast<int>(threadIdx.x) < w) sm[threadIdx.x] = op(sm[threadIdx.x], sm[threadIdx.x + w]);
      __syncthreads();
    }
    if (threadIdx.x == 0) {
      std::int64_t off;
      oplan.offsets(m, &off);
      detail::finish_store(out + off, od, sm[0], f, 0);
    }
    __syncthreads();
  }
}

bool rows_via_kernel() {
  static const bool v = [] {
    const char* e = std::getenv("NPGPU_REDUCE_ROWS");
    return e == nullptr || e[0] != 'c';
  }();
  return v;
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

// The whole contiguous run [base, base + K items).
template <class R>
void run_full(const Ctx& c, const char* base, DType dtype, std::int64_t K) {
  using Acc = typename R::Acc;
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
  DeviceBuffer res(M * static_cast<std::int64_t>(sizeof(Acc)), c.device, c.s);
  Acc* d_out = static_cast<Acc*>(res.data());
  auto begin = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), SegOffset{K});
  auto end = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(1), SegOffset{K});
  bool done = false;
  with_src<R>(*c.a, base, dtype, [&](auto src, std::int64_t item) {
    using Src = decltype(src);
    if constexpr (is_typed<Src>::value && kRawOK<R>) {
      using In = typename Src::in_type;
      if (rows_via_kernel()) {
        const bool vec_ok = reinterpret_cast<std::uintptr_t>(base) % 16 == 0 && (K * item) % 16 == 0;
        const std::int64_t G = std::min<std::int64_t>(M, 8LL * device_properties(c.device).multiprocessor_count);
        row_kernel<R, In><<<static_cast<unsigned>(G), kThreads, 0, c.s>>>(reinterpret_cast<const In*>(base), M, K,
                                                                         vec_ok, c.oplan, c.out, c.od, c.a->fin);
        NPGPU_CHECK_LAUNCH("reduce rows");
        done = true;
        return;
      }
    }
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
  if (!done) finalize<R>(c, d_out, M, K);
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
      const std::int64_t target = 8LL * sms;
      std::int64_t S = std::max<std::int64_t>(1, (target + gx * gz - 1) / (gx * gz));
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
  const bool red_contig = rplan.ndim == 0 || (rplan.ndim == 1 && rplan.strides[0][0] == item);
  if (red_contig && kplan.ndim == 0) return run_full<R>(c, base, dt, K);
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
