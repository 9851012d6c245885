// CUDA backend of the scans (cumsum, cumprod): the cumsum of one contiguous float32 / float64 / integer row
// runs row_scan_kernel (16-byte tiles, decoupled look-back in float64 or 64-bit integers; below); otherwise
// cub::DeviceScan::InclusiveScan (one row) or InclusiveScanByKey
// (rows, key = element / K), with 64-bit counts, in place in the output when it is contiguous and of the
// scan's storage type, else in a scratch array from the pool; exclusive scans are the inclusive scan shifted by
// one (a strided copy) with the identity in front. Storage / accumulator types: integers and bool as 64-bit
// two's complement, float16/float32 as float32 (as NumPy's and CuPy's; one row accumulated in float64 with
// NPGPU_SCAN_F32_ACC=f64, slower), float64, complex64, complex128.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <type_traits>

#include <cub/agent/single_pass_scan_operators.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "common/backends.hpp"
#include "common/cuda_check.hpp"
#include "cuda/cub_run.cuh"
#include "common/reduce_backends.hpp"
#include "npgpu/memory.hpp"
#include "vec16.cuh"

namespace npgpu::cuda {
namespace {

using detail::complex128;
using detail::complex64;

// ------------------------------------------------------------------------------------------ scans

struct KeyOf {
  std::int64_t k;
  __host__ __device__ std::int64_t operator()(std::int64_t i) const { return i / k; }
};

struct KeyEq {
  __host__ __device__ bool operator()(std::int64_t a, std::int64_t b) const { return a == b; }
};

template <class S, class Acc, class Op>
void scan_exec(const S* src, S* dst, std::int64_t n, std::int64_t K, Op op, int device, cudaStream_t s) {
  if (n == K) {
    cub_run([&](void* t, size_t& b) { return cub::DeviceScan::InclusiveScan(t, b, src, dst, op, n, s); }, device, s);
  } else {
    auto keys = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), KeyOf{K});
    cub_run([&](void* t, size_t& b) {
      return cub::DeviceScan::InclusiveScanByKey(t, b, keys, src, dst, op, n, KeyEq{}, s);
    }, device, s);
  }
}

// ------------------------------------------------------------------------------------------ one-row sums

// cumsum of one contiguous float32 / float64 / 64-bit integer row, hand-written from CUB's parts (cub::BlockScan, and the
// decoupled look-back of cub::ScanTileState / cub::TilePrefixCallbackOp). Why not cub::DeviceScan: on the raw
// pointers it stayed well below the copy ceiling (docs/performance-notes.md). Here every access is a
// coalesced 16-byte vector: a tile is R rows of kScanThreads
// vectors, thread t owning vector t of each row; each thread scans its vectors, one block scan (of R-wide
// tuples) gives every vector's offset within its row and the rows' totals. Tiles chain through the look-back in
// float64 (each output is the tile's float64 prefix rounded once, plus the in-tile sum: more accurate than a
// float32 running sum, as NumPy's is).
constexpr int kScanThreads = 256;

template <class T, int R>
struct RowTuple {
  T v[R];
};
template <class T, int R>
struct TupleAdd {
  __device__ RowTuple<T, R> operator()(const RowTuple<T, R>& a, const RowTuple<T, R>& b) const {
    RowTuple<T, R> r;
#pragma unroll
    for (int k = 0; k < R; ++k) r.v[k] = a.v[k] + b.v[k];
    return r;
  }
};

// The tiles' prefixes: float64 for float rows, the integers' own 64-bit two's complement for integer rows.
template <class T>
using PrefixOf = std::conditional_t<std::is_integral_v<T>, T, double>;
template <class T>
using PrefixState = cub::ScanTileState<PrefixOf<T>>;

template <class T>
__global__ void scan_init_kernel(PrefixState<T> st, int tiles) {
  st.InitializeStatus(tiles);
}

template <class T, int R>
__global__ void __launch_bounds__(kScanThreads)
    row_scan_kernel(const T* in, T* out, std::int64_t n, PrefixState<T> st) {  // in == out for in-place scans
  using P = PrefixOf<T>;
  constexpr int V = V16<T>::n;
  constexpr std::int64_t kTile = static_cast<std::int64_t>(kScanThreads) * V * R;
  using VT = typename V16<T>::T;
  using Tuple = RowTuple<T, R>;
  using BlockScanT = cub::BlockScan<Tuple, kScanThreads, cub::BLOCK_SCAN_WARP_SCANS>;
  using PrefixOp = cub::TilePrefixCallbackOp<P, ::cuda::std::plus<P>, PrefixState<T>>;
  __shared__ typename BlockScanT::TempStorage scan_tmp;
  __shared__ typename PrefixOp::TempStorage prefix_tmp;
  __shared__ P tile_prefix;
  const int t = threadIdx.x;
  const int tile = blockIdx.x;
  const std::int64_t base = static_cast<std::int64_t>(tile) * kTile;
  const bool full = base + kTile <= n;
  T e[R][V];
  if (full) {
    const VT* pv = reinterpret_cast<const VT*>(in + base);
    VT x[R];
    // Streaming (evict-first) loads and stores: input and output pass through L2 once.
#pragma unroll
    for (int r = 0; r < R; ++r) x[r] = __ldcs(pv + r * kScanThreads + t);
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const T* q = reinterpret_cast<const T*>(&x[r]);
#pragma unroll
      for (int j = 0; j < V; ++j) e[r][j] = q[j];
    }
  } else {
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
      for (int j = 0; j < V; ++j) {
        const std::int64_t i = base + (static_cast<std::int64_t>(r) * kScanThreads + t) * V + j;
        e[r][j] = i < n ? in[i] : T(0);
      }
  }
  Tuple tot;
#pragma unroll
  for (int r = 0; r < R; ++r) {
#pragma unroll
    for (int j = 1; j < V; ++j) e[r][j] += e[r][j - 1];
    tot.v[r] = e[r][V - 1];
  }
  Tuple excl, agg;
  BlockScanT(scan_tmp).ExclusiveScan(tot, excl, Tuple{}, TupleAdd<T, R>{}, agg);
  T row_pre[R];
  T tile_sum = T(0);
#pragma unroll
  for (int r = 0; r < R; ++r) {
    row_pre[r] = tile_sum;
    tile_sum += agg.v[r];
  }
  if (tile == 0) {
    if (t == 0) {
      st.SetInclusive(0, static_cast<P>(tile_sum));
      tile_prefix = P(0);
    }
  } else if (t < 32) {
    PrefixOp op(st, prefix_tmp, ::cuda::std::plus<P>{}, tile);
    const P ex = op(static_cast<P>(tile_sum));
    if (t == 0) tile_prefix = ex;
  }
  __syncthreads();
  const T pre = static_cast<T>(tile_prefix);
  if (full) {
    VT* ov = reinterpret_cast<VT*>(out + base);
#pragma unroll
    for (int r = 0; r < R; ++r) {
      VT y;
      T* q = reinterpret_cast<T*>(&y);
      const T off = row_pre[r] + excl.v[r];
#pragma unroll
      for (int j = 0; j < V; ++j) q[j] = pre + (off + e[r][j]);
      __stcs(ov + r * kScanThreads + t, y);
    }
  } else {
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
      for (int j = 0; j < V; ++j) {
        const std::int64_t i = base + (static_cast<std::int64_t>(r) * kScanThreads + t) * V + j;
        if (i < n) out[i] = pre + (row_pre[r] + excl.v[r] + e[r][j]);
      }
  }
}

char scan_env(const char* name) {
  const char* e = std::getenv(name);
  return e == nullptr ? '\0' : e[0];
}

// One contiguous row of n float32 / float64 / 64-bit integers (16-byte aligned): true when done.
template <class T>
bool row_sum_scan(const T* src, T* dst, std::int64_t n, int device, cudaStream_t s) {
  // NPGPU_SCAN (measurements): 'c' cub::DeviceScan; '4' / '8' vectors per thread.
  static const char mode = scan_env("NPGPU_SCAN");
  if (mode == 'c' || n <= 0) return false;
  if (reinterpret_cast<std::uintptr_t>(src) % 16 != 0 || reinterpret_cast<std::uintptr_t>(dst) % 16 != 0)
    return false;
  auto go = [&](auto rtag) {
    constexpr int R = decltype(rtag)::value;
    constexpr std::int64_t kTile = static_cast<std::int64_t>(kScanThreads) * V16<T>::n * R;
    const std::int64_t tiles = (n + kTile - 1) / kTile;
    if (tiles > 0x7FFFFFFF) return false;
    size_t bytes = 0;
    NPGPU_CUDA_TRY(PrefixState<T>::AllocationSize(static_cast<int>(tiles), bytes));
    DeviceBuffer tmp(static_cast<std::int64_t>(std::max<size_t>(bytes, 16)), device, s);
    PrefixState<T> st;
    NPGPU_CUDA_TRY(st.Init(static_cast<int>(tiles), tmp.data(), bytes));
    scan_init_kernel<T><<<static_cast<unsigned>((tiles + 255) / 256), 256, 0, s>>>(st, static_cast<int>(tiles));
    NPGPU_CHECK_LAUNCH("scan init");
    row_scan_kernel<T, R><<<static_cast<unsigned>(tiles), kScanThreads, 0, s>>>(src, dst, n, st);
    NPGPU_CHECK_LAUNCH("scan rows");
    return true;
  };
  // float32: 8 vectors per thread (faster than 4, 77 registers); float64 keeps 4 (8 would take 112 registers).
  if (mode == '8' || (mode != '4' && std::is_same_v<T, float>)) return go(std::integral_constant<int, 8>{});
  return go(std::integral_constant<int, 4>{});
}

bool f32_scan_in_float() {
  static const bool v = [] {
    const char* e = std::getenv("NPGPU_SCAN_F32_ACC");
    return e == nullptr || e[0] != 'f';
  }();
  return v;
}

template <class S, class Acc>
void scan_typed(const detail::ScanArgs& a, DType sd, cudaStream_t s) {
  const ArrayView& in = a.in_p;
  const ArrayView& out = a.out_p;
  const int device = in.device;
  const int nd = in.ndim;
  const std::int64_t K = in.shape[nd - 1];
  const std::int64_t n = in.size();
  const bool direct = !a.exclusive && out.dtype == sd && out.is_c_contiguous();
  DeviceBuffer scratch(direct ? 16 : n * static_cast<std::int64_t>(sizeof(S)), device, s);
  S* work = direct ? static_cast<S*>(out.data) : static_cast<S*>(scratch.data());
  const ArrayView wv = make_contiguous_view(work, sd, nd, in.shape, device);
  const S* src = work;
  if (in.dtype == sd && in.is_c_contiguous()) src = static_cast<const S*>(in.data);
  else cuda::copy(in, wv, s);
  bool done = false;
  if constexpr (std::is_same_v<S, float> || std::is_same_v<S, double> || std::is_same_v<S, std::uint64_t>) {
    if (a.op == ScanOp::Sum && n == K && (std::is_same_v<S, double> || f32_scan_in_float()))
      done = row_sum_scan<S>(src, work, n, device, s);
  }
  if constexpr (std::is_same_v<S, float>) {
    if (!done && a.op == ScanOp::Sum && n == K && f32_scan_in_float()) {
      scan_exec<S, float>(src, work, n, K, detail::ScanAdd<float>{}, device, s);
      done = true;
    }
  }
  if (!done) {
    if (a.op == ScanOp::Sum) scan_exec<S, Acc>(src, work, n, K, detail::ScanAdd<Acc>{}, device, s);
    else scan_exec<S, Acc>(src, work, n, K, detail::ScanMul<Acc>{}, device, s);
  }
  if (a.exclusive) {
    // out[..., 1:] = work[..., :-1]; out[..., 0] = identity.
    if (K > 1) {
      ArrayView from = wv, to = out;
      from.shape[nd - 1] = K - 1;
      to.shape[nd - 1] = K - 1;
      to.data = static_cast<char*>(out.data) + out.strides[nd - 1];
      cuda::copy(from, to, s);
    }
    alignas(16) unsigned char ident[16] = {};
    detail::store_as<Acc>(ident, out.dtype, a.op == ScanOp::Sum ? Acc(0) : Acc(1));
    DeviceBuffer one(16, device, s);
    copy_bytes(one.data(), ident, itemsize(out.dtype), s);
    ArrayView bsrc = out, first = out;
    bsrc.ndim = first.ndim = nd - 1;
    bsrc.data = one.data();
    for (int d = 0; d < nd - 1; ++d) bsrc.strides[d] = 0;
    cuda::copy(bsrc, first, s);
  } else if (!direct) {
    cuda::copy(wv, out, s);
  }
}

}  // namespace

void scan(const detail::ScanArgs& a, StreamHandle stream) {
  auto s = static_cast<cudaStream_t>(stream);
  const DType od = a.out_p.dtype;
  switch (od) {
    case DType::Complex64: return scan_typed<complex64, complex64>(a, DType::Complex64, s);
    case DType::Complex128: return scan_typed<complex128, complex128>(a, DType::Complex128, s);
    case DType::Float16:
    case DType::BFloat16:
    case DType::Float32: return scan_typed<float, double>(a, DType::Float32, s);
    case DType::Float64: return scan_typed<double, double>(a, DType::Float64, s);
    case DType::UInt8:
    case DType::UInt16:
    case DType::UInt32:
    case DType::UInt64: return scan_typed<std::uint64_t, std::uint64_t>(a, DType::UInt64, s);
    default: return scan_typed<std::uint64_t, std::uint64_t>(a, DType::Int64, s);
  }
}

}  // namespace npgpu::cuda
