// CUDA backend of the elementwise operations. Contiguous operands of the compute dtype take a vectorised
// kernel (16-byte loads and stores); anything else (mixed dtypes, strides, broadcasting) a general kernel
// that converts on load and store. Indices are 64-bit everywhere.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/backends.hpp"
#include "common/binary_ops.hpp"
#include "common/convert.hpp"
#include "common/cuda_check.hpp"
#include "common/dispatch.hpp"
#include "common/strided.hpp"

namespace npgpu::cuda {
namespace {

using detail::StridedPlan;

constexpr int kThreads = 256;

// Enough blocks to cover n work items, capped so huge arrays loop instead of exceeding the grid limit.
unsigned grid_for(std::int64_t items) {
  const std::int64_t blocks = (items + kThreads - 1) / kThreads;
  return static_cast<unsigned>(std::min<std::int64_t>(std::max<std::int64_t>(blocks, 1), 1 << 30));
}

template <class T, int N>
struct alignas(sizeof(T) * N) Vec {
  T v[N];
};

// out[i] = op(a[i], b[i]) over n contiguous elements, N elements (16 bytes) per vector access.
template <class T, int N, class Op>
__global__ void binary_contig(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ out,
                              std::int64_t n, Op op) {
  const std::int64_t nvec = n / N;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i < nvec; i += stride) {
    Vec<T, N> va = reinterpret_cast<const Vec<T, N>*>(a)[i];
    Vec<T, N> vb = reinterpret_cast<const Vec<T, N>*>(b)[i];
    Vec<T, N> vo;
#pragma unroll
    for (int j = 0; j < N; ++j) vo.v[j] = op(va.v[j], vb.v[j]);
    reinterpret_cast<Vec<T, N>*>(out)[i] = vo;
  }
  // Tail: the last n % N elements.
  const std::int64_t t = nvec * N + static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < n) out[t] = op(a[t], b[t]);
}

template <class T, int N, class Op>
__global__ void binary_scalar_contig(const T* __restrict__ a, T s, bool scalar_first, T* __restrict__ out,
                                     std::int64_t n, Op op) {
  const std::int64_t nvec = n / N;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i < nvec; i += stride) {
    Vec<T, N> va = reinterpret_cast<const Vec<T, N>*>(a)[i];
    Vec<T, N> vo;
#pragma unroll
    for (int j = 0; j < N; ++j) vo.v[j] = scalar_first ? op(s, va.v[j]) : op(va.v[j], s);
    reinterpret_cast<Vec<T, N>*>(out)[i] = vo;
  }
  const std::int64_t t = nvec * N + static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < n) out[t] = scalar_first ? op(s, a[t]) : op(a[t], s);
}

// General case: any strides, any operand dtypes (converted to T on load, to out's dtype on store).
template <class T, class Op>
__global__ void binary_strided(StridedPlan<3> plan, char* out, DType dout, const char* a, DType da,
                               const char* b, DType db, std::int64_t n, Op op) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    std::int64_t off[3];
    plan.offsets(i, off);
    const T x = detail::load_as<T>(a + off[1], da);
    const T y = detail::load_as<T>(b + off[2], db);
    detail::store_as<T>(out + off[0], dout, op(x, y));
  }
}

template <class T, class Op>
__global__ void binary_scalar_strided(StridedPlan<2> plan, char* out, DType dout, const char* a, DType da, T s,
                                      bool scalar_first, std::int64_t n, Op op) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    std::int64_t off[2];
    plan.offsets(i, off);
    const T x = detail::load_as<T>(a + off[1], da);
    detail::store_as<T>(out + off[0], dout, scalar_first ? op(s, x) : op(x, s));
  }
}

template <class T>
__global__ void convert_strided(StridedPlan<2> plan, char* dst, DType ddst, const char* src, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    std::int64_t off[2];
    plan.offsets(i, off);
    detail::store_as<T>(dst + off[0], ddst, *reinterpret_cast<const T*>(src + off[1]));
  }
}

bool aligned16(const void* p) { return (reinterpret_cast<std::uintptr_t>(p) & 15u) == 0; }

template <class T>
constexpr int vec_width() {
  return sizeof(T) >= 16 ? 1 : static_cast<int>(16 / sizeof(T));
}

}  // namespace

void binary(BinaryOp op, const ArrayView& a, const ArrayView& b, const ArrayView& out, DType compute,
            StreamHandle stream) {
  const std::int64_t n = out.size();
  auto s = static_cast<cudaStream_t>(stream);
  detail::dispatch_binary_op(op, [&](auto opf) {
    detail::dispatch_dtype(compute, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const bool fast = a.dtype == compute && b.dtype == compute && out.dtype == compute &&
                        a.is_c_contiguous() && b.is_c_contiguous() && out.is_c_contiguous() &&
                        aligned16(a.data) && aligned16(b.data) && aligned16(out.data);
      if (fast) {
        constexpr int N = vec_width<T>();
        binary_contig<T, N><<<grid_for(std::max<std::int64_t>(n / N, 1)), kThreads, 0, s>>>(
            static_cast<const T*>(a.data), static_cast<const T*>(b.data), static_cast<T*>(out.data), n, opf);
      } else {
        const ArrayView* views[3] = {&out, &a, &b};
        auto plan = detail::make_plan<3>(views);
        binary_strided<T><<<grid_for(n), kThreads, 0, s>>>(plan, static_cast<char*>(out.data), out.dtype,
                                                           static_cast<const char*>(a.data), a.dtype,
                                                           static_cast<const char*>(b.data), b.dtype, n, opf);
      }
    });
  });
  NPGPU_CHECK_LAUNCH("binary");
}

void binary_scalar(BinaryOp op, const ArrayView& a, const Scalar& sc, bool scalar_first, const ArrayView& out,
                   DType compute, StreamHandle stream) {
  const std::int64_t n = out.size();
  auto s = static_cast<cudaStream_t>(stream);
  detail::dispatch_binary_op(op, [&](auto opf) {
    detail::dispatch_dtype(compute, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T v = detail::scalar_as<T>(sc);
      const bool fast = a.dtype == compute && out.dtype == compute && a.is_c_contiguous() &&
                        out.is_c_contiguous() && aligned16(a.data) && aligned16(out.data);
      if (fast) {
        constexpr int N = vec_width<T>();
        binary_scalar_contig<T, N><<<grid_for(std::max<std::int64_t>(n / N, 1)), kThreads, 0, s>>>(
            static_cast<const T*>(a.data), v, scalar_first, static_cast<T*>(out.data), n, opf);
      } else {
        const ArrayView* views[2] = {&out, &a};
        auto plan = detail::make_plan<2>(views);
        binary_scalar_strided<T><<<grid_for(n), kThreads, 0, s>>>(plan, static_cast<char*>(out.data), out.dtype,
                                                                  static_cast<const char*>(a.data), a.dtype, v,
                                                                  scalar_first, n, opf);
      }
    });
  });
  NPGPU_CHECK_LAUNCH("binary_scalar");
}

void copy(const ArrayView& src, const ArrayView& dst, StreamHandle stream) {
  auto s = static_cast<cudaStream_t>(stream);
  if (src.dtype == dst.dtype && src.is_c_contiguous() && dst.is_c_contiguous()) {
    NPGPU_CUDA_TRY(cudaMemcpyAsync(dst.data, src.data, dst.nbytes(), cudaMemcpyDeviceToDevice, s));
    return;
  }
  const std::int64_t n = dst.size();
  const ArrayView* views[2] = {&dst, &src};
  auto plan = detail::make_plan<2>(views);
  detail::dispatch_storage_dtype(src.dtype, [&](auto tag) {  // typed on the source: one conversion per element
    using T = typename decltype(tag)::type;
    convert_strided<T><<<grid_for(n), kThreads, 0, s>>>(plan, static_cast<char*>(dst.data), dst.dtype,
                                                        static_cast<const char*>(src.data), n);
  });
  NPGPU_CHECK_LAUNCH("copy");
}

}  // namespace npgpu::cuda
