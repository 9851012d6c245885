// Host backend of the Krylov steps: the CUDA passes' arithmetic in OpenMP loops (float64 accumulators summed
// in fixed chunks, added in order: the same bits for any thread count). The state's partial sums are not used
// here.
#include <algorithm>
#include <complex>
#include <cstdint>
#include <vector>

#include "common/complex.hpp"
#include "common/krylov_backends.hpp"
#include "host/openmp.hpp"

namespace npgpu::host {
namespace {

using detail::Complex;

template <class T>
double re(T v) {
  return double(v);
}
template <class R>
double re(Complex<R> v) {
  return double(v.re);
}
template <class T>
double im(T) {
  return 0.0;
}
template <class R>
double im(Complex<R> v) {
  return double(v.im);
}
template <class T>
T from(double r, double i) {
  if constexpr (detail::is_complex<T>::value) {
    using R = decltype(T::re);
    return T(R(r), R(i));
  } else {
    return T(r);
  }
}
template <class T>
T scale(double b, T v) {
  return T(b) * v;
}
template <class R>
Complex<R> scale(double b, Complex<R> v) {
  return {R(b) * v.re, R(b) * v.im};
}

// body(begin, end, s0, s1) over [0, n) in chunks of kChunk, in parallel; the chunks' two sums are added in
// chunk order into out0 and out1 (an OpenMP reduction combines threads in an unspecified order).
constexpr std::int64_t kChunk = 16384;

template <class Body>
void chunked_sums(std::int64_t n, double& out0, double& out1, Body&& body) {
  const std::int64_t chunks = (n + kChunk - 1) / kChunk;
  std::vector<double> s0(static_cast<std::size_t>(chunks)), s1(static_cast<std::size_t>(chunks));
  parallel_for(chunks, n > 65536, [&](std::int64_t c) {
    double a = 0.0, b = 0.0;
    body(c * kChunk, std::min(n, (c + 1) * kChunk), a, b);
    s0[c] = a, s1[c] = b;
  });
  out0 = out1 = 0.0;
  for (std::int64_t c = 0; c < chunks; ++c) out0 += s0[c], out1 += s1[c];
}

// sum of conj(a_i) b_i, as (real, imaginary)
template <class T>
void dot(const T* a, const T* b, std::int64_t n, double& out_re, double& out_im) {
  chunked_sums(n, out_re, out_im, [&](std::int64_t begin, std::int64_t end, double& sr, double& si) {
    for (std::int64_t i = begin; i < end; ++i) {
      const double ar = re(a[i]), ai = im(a[i]), br = re(b[i]), bi = im(b[i]);
      sr += ar * br + ai * bi;
      si += ar * bi - ai * br;
    }
  });
}

template <class T>
void start(const T* r, std::int64_t n, double tol2, double* state) {
  double rho = 0.0, unused = 0.0;
  dot(r, r, n, rho, unused);
  state[0] = rho, state[1] = rho < tol2 ? 1.0 : 0.0, state[2] = tol2, state[3] = 0.0;
}

template <class T>
void step(T* x, T* r, T* p, const T* q, std::int64_t n, double* state, int parity) {
  const double* slot = state + parity * kCgSlot;
  const double rho = slot[0], tol2 = slot[2];
  const bool was_done = slot[1] != 0.0;
  double pr = 0.0, pi = 0.0;
  dot(p, q, n, pr, pi);
  T alpha = T(0);
  if (!was_done) {
    const std::complex<double> a = rho / std::complex<double>(pr, pi);
    alpha = from<T>(a.real(), a.imag());
  }
  double rr = 0.0, unused = 0.0;
  chunked_sums(n, rr, unused, [&](std::int64_t begin, std::int64_t end, double& sum, double&) {
    for (std::int64_t i = begin; i < end; ++i) {
      x[i] = x[i] + alpha * p[i];
      r[i] = r[i] - alpha * q[i];
      sum += re(r[i]) * re(r[i]) + im(r[i]) * im(r[i]);
    }
  });
  const bool done = was_done || rr < tol2;
  const double beta = done ? 0.0 : rr / rho;
  parallel_for(n, n > 65536, [&](std::int64_t i) { p[i] = r[i] + scale(beta, p[i]); });
  double* next = state + (1 - parity) * kCgSlot;
  next[0] = rr, next[1] = done ? 1.0 : 0.0, next[2] = tol2, next[3] = 0.0;
}

}  // namespace

void cg_start(const ArrayView& r, double tol2, const ArrayView& state, StreamHandle) {
  krylov_layout::dispatch_vector(r.dtype, [&](auto tag) {
    using T = decltype(tag);
    start(static_cast<const T*>(r.data), r.shape[0], tol2, static_cast<double*>(state.data));
  });
}

void cg_step(const ArrayView& x, const ArrayView& r, const ArrayView& p, const ArrayView& q, const ArrayView& state,
             int parity, StreamHandle) {
  krylov_layout::dispatch_vector(r.dtype, [&](auto tag) {
    using T = decltype(tag);
    step(static_cast<T*>(x.data), static_cast<T*>(r.data), static_cast<T*>(p.data), static_cast<const T*>(q.data),
         r.shape[0], static_cast<double*>(state.data), parity);
  });
}

}  // namespace npgpu::host
