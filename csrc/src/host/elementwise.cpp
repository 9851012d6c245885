// Host backend of the elementwise operations: the same per-element definitions as the CUDA kernels
// (common/elementwise_ops.hpp) over OpenMP loops, and the converting copy.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>

#include "common/backends.hpp"
#include "common/convert.hpp"
#include "common/dispatch.hpp"
#include "common/elementwise_loops.hpp"
#include "common/strided.hpp"
#include "host/cpu_clones.hpp"
#include "host/openmp.hpp"

namespace npgpu::host {
namespace {

using detail::Src;

constexpr std::int64_t kParallelMin = 1 << 16;

template <class Op, class R, class... Ts, std::size_t... K>
inline void apply_at(Op op, char* out, const std::int64_t* off, std::index_sequence<K...>, const Src<Ts>&... src) {
  *reinterpret_cast<R*>(out + off[0]) = static_cast<R>(op(src.at(off[K + 1])...));
}

// Contiguous operands with the array-or-scalar choice made once per call: Src's test per element keeps the
// loops from vectorising.
template <class T>
struct ArrayIn {
  const T* p;
  T operator[](std::int64_t i) const { return p[i]; }
};
template <class T>
struct ScalarIn {
  T s;
  T operator[](std::int64_t) const { return s; }
};

// body(lo, hi) over blocks of 4096 of [0, n), the blocks spread over the threads; each body runs an `omp simd`
// loop of its own: GCC leaves the outlined body of a single `parallel for simd` loop unvectorised.
template <class Body>
void parallel_blocks(std::int64_t n, Body body) {
  constexpr std::int64_t kBlock = 4096;
  const std::int64_t blocks = (n + kBlock - 1) / kBlock;
  parallel_for(blocks, n > kParallelMin, [&](std::int64_t b) { body(b * kBlock, std::min(n, (b + 1) * kBlock)); });
}

template <class Op, class R, class... In>
void contiguous_loop(Op op, R* po, std::int64_t n, const In&... in) {
  parallel_blocks(n, [&](std::int64_t lo, std::int64_t hi) {
#pragma omp simd
    for (std::int64_t i = lo; i < hi; ++i) po[i] = static_cast<R>(op(in[i]...));
  });
}

template <class Op, class R, class A>
void contiguous(Op op, R* po, std::int64_t n, const Src<A>& a) {
  if (a.p)
    contiguous_loop(op, po, n, ArrayIn<A>{a.p});
  else
    contiguous_loop(op, po, n, a);
}

template <class Op, class R, class A, class B>
void contiguous(Op op, R* po, std::int64_t n, const Src<A>& a, const Src<B>& b) {
  if (a.p && b.p)
    contiguous_loop(op, po, n, ArrayIn<A>{a.p}, ArrayIn<B>{b.p});
  else if (a.p)
    contiguous_loop(op, po, n, ArrayIn<A>{a.p}, ScalarIn<B>{b.s});
  else if (b.p)
    contiguous_loop(op, po, n, ScalarIn<A>{a.s}, ArrayIn<B>{b.p});
  else
    contiguous_loop(op, po, n, a, b);
}

template <class Op, class R, class A, class B, class C>
void contiguous(Op op, R* po, std::int64_t n, const Src<A>& a, const Src<B>& b, const Src<C>& c) {
  if (a.p && b.p && c.p)
    contiguous_loop(op, po, n, ArrayIn<A>{a.p}, ArrayIn<B>{b.p}, ArrayIn<C>{c.p});
  else
    contiguous_loop(op, po, n, a, b, c);
}

template <class Op, class R, class... Ts>
void run(Op op, const ArrayView& out, const Operand* in, const Src<Ts>&... src) {
  const std::int64_t n = out.size();
  bool contiguous_operands = out.is_c_contiguous();
  for (std::size_t k = 0; k < sizeof...(Ts); ++k)
    contiguous_operands = contiguous_operands && (in[k].is_scalar || in[k].view.is_c_contiguous());
  if (contiguous_operands) {
    contiguous(op, static_cast<R*>(out.data), n, src...);
    return;
  }
  constexpr int N = 1 + sizeof...(Ts);
  const auto plan = detail::make_operand_plan<N>(out, in);
  char* po = static_cast<char*>(out.data);
  const std::int64_t inner = plan.inner();
  const std::int64_t rows = plan.rows();
  const int last = plan.ndim - 1;
  parallel_for(rows, n > kParallelMin, [&](std::int64_t r) {
    std::int64_t base[N];
    plan.row_offsets(r, base);
    for (std::int64_t j = 0; j < inner; ++j) {
      std::int64_t off[N];
      for (int k = 0; k < N; ++k) off[k] = base[k] + j * plan.strides[k][last];
      apply_at<Op, R>(op, po, off, std::index_sequence_for<Ts...>{}, src...);
    }
  });
}

NPGPU_ALWAYS_INLINE float float_of_bits(std::int32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

NPGPU_ALWAYS_INLINE std::int32_t bits_of_float(float f) {
  std::int32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

// exp and log of a float, branch-free so that loops over them vectorise (libm's expf and logf are a call per
// element). Both are checked exhaustively against double exp/log over every float: exp within 1.03 ulp, log
// within 0.83 ulp; inf, -inf, NaN, zero, negative and subnormal arguments and overflow as libm.

// Cody-Waite reduction by ln 2, Cephes' degree-6 polynomial, and 2^n applied in two halves so that results in
// the subnormal range are rounded once.
struct ExpFloat {
  NPGPU_ALWAYS_INLINE float operator()(float x) const {
    // Beyond these exp is 0 or inf: selected at the end, computed on 0 meanwhile (an overflowing or underflowing
    // product costs a microcode assist per element). A NaN x is passed through at the end.
    const bool zero = x < -104.0f, inf = x > 89.0f;
    const float xc = zero || inf ? 0.0f : x;
    const float n = (xc * 1.44269504088896341f + 12582912.0f) - 12582912.0f;  // rounded through 1.5 * 2^23
    float r = xc - n * 0.693359375f;
    r = r - n * -2.12194440e-4f;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    const float y = p * r * r + r + 1.0f;
    const std::int32_t ni = static_cast<std::int32_t>(n);
    const float result = y * float_of_bits(((ni >> 1) + 127) << 23) * float_of_bits(((ni - (ni >> 1)) + 127) << 23);
    return zero ? 0.0f : inf ? __builtin_inff() : x != x ? x : result;
  }
};

// x = m 2^e with m in [sqrt(1/2), sqrt(2)) (subnormals scaled by 2^23 first), then Cephes' degree-9
// polynomial in m - 1 and e ln 2 added in two parts.
struct LogFloat {
  NPGPU_ALWAYS_INLINE float operator()(float x) const {
    const bool subnormal = x < 1.17549435e-38f;
    const std::int32_t t = bits_of_float(subnormal ? x * 8388608.0f : x) - 0x3f3504f3;  // bits of sqrt(1/2)
    const float e = static_cast<float>((t >> 23) - (subnormal ? 23 : 0));
    const float f = float_of_bits((t & 0x007fffff) + 0x3f3504f3) - 1.0f;
    const float z = f * f;
    float p = 7.0376836292e-2f;
    p = p * f - 1.1514610310e-1f;
    p = p * f + 1.1676998740e-1f;
    p = p * f - 1.2420140846e-1f;
    p = p * f + 1.4249322787e-1f;
    p = p * f - 1.6668057665e-1f;
    p = p * f + 2.0000714765e-1f;
    p = p * f - 2.4999993993e-1f;
    p = p * f + 3.3333331174e-1f;
    float y = p * f * z;
    y += -2.12194440e-4f * e;
    y += -0.5f * z;
    float r = f + y;
    r += 0.693359375f * e;
    r = x == 0.0f ? -__builtin_inff() : r;
    r = x < 0.0f ? __builtin_nanf("") : r;
    return (x != x || x == __builtin_inff()) ? x + x : r;
  }
};

template <class F>
NPGPU_ALWAYS_INLINE void float_loop(const float* __restrict a, float* __restrict o, std::int64_t n) {
#pragma omp simd
  for (std::int64_t i = 0; i < n; ++i) o[i] = F{}(a[i]);
}

#ifdef NPGPU_HAVE_AVX2_FMA_TARGET
template <class F>
NPGPU_AVX2_FMA_TARGET void float_loop_avx2_fma(const float* a, float* o, std::int64_t n) {
  float_loop<F>(a, o, n);
}
#endif

template <class F>
void float_block(const float* a, float* o, std::int64_t n) {
#ifdef NPGPU_HAVE_AVX2_FMA_TARGET
  if (cpu_has_avx2_fma()) return float_loop_avx2_fma<F>(a, o, n);
#endif
  float_loop<F>(a, o, n);
}

// exp and log of a contiguous float32 array into a contiguous float32 result: the transcendentals whose libm
// calls left the host loops several times slower than NumPy's vector loops.
bool float32_math_fast(ElementwiseOp op, const Operand* in, const ArrayView& out, DType compute) {
  if ((op != ElementwiseOp::Exp && op != ElementwiseOp::Log) || compute != DType::Float32 ||
      out.dtype != DType::Float32 || in[0].is_scalar || in[0].view.dtype != DType::Float32 ||
      !in[0].view.is_c_contiguous() || !out.is_c_contiguous())
    return false;
  const auto* a = static_cast<const float*>(in[0].view.data);
  auto* o = static_cast<float*>(out.data);
  const bool exp = op == ElementwiseOp::Exp;
  parallel_blocks(out.size(), [&](std::int64_t lo, std::int64_t hi) {
    if (exp)
      float_block<ExpFloat>(a + lo, o + lo, hi - lo);
    else
      float_block<LogFloat>(a + lo, o + lo, hi - lo);
  });
  return true;
}

}  // namespace

void elementwise(ElementwiseOp op, const Operand* in, const ArrayView& out, DType compute, StreamHandle) {
  if (float32_math_fast(op, in, out, compute)) return;
  detail::dispatch_loop(op, compute, in, [&](auto opf, auto rtag, const auto&... src) {
    using R = typename decltype(rtag)::type;
    run<std::decay_t<decltype(opf)>, R>(opf, out, in, src...);
  });
}

void copy(const ArrayView& src, const ArrayView& dst, StreamHandle) {
  const std::int64_t n = dst.size();
  const ArrayView* views[2] = {&dst, &src};
  const auto plan = detail::make_plan<2>(views);
  char* pd = static_cast<char*>(dst.data);
  const char* ps = static_cast<const char*>(src.data);
  detail::dispatch_storage_dtype(src.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    parallel_for(n, n > kParallelMin, [&](std::int64_t i) {
      std::int64_t off[2];
      plan.offsets(i, off);
      detail::store_as<T>(pd + off[0], dst.dtype, *reinterpret_cast<const T*>(ps + off[1]));
    });
  });
}

}  // namespace npgpu::host
