// Argument checks and dispatch of the FFT family (cuFFT in cuda/fft.cu; host arrays are numpy.fft's work in
// the Python package, so the C++ API takes device arrays only).
#include "npgpu/fft.hpp"

#include <string>

#include "common/lazy_message.hpp"
#include "npgpu/errors.hpp"

namespace npgpu {

namespace cuda {
bool fft(const ArrayView& in, const ArrayView& out, const int* axes, int naxes, FftKind kind, bool forward,
         StreamHandle stream);
FftPlanCacheInfo fft_plan_cache_info();
void set_fft_plan_cache_limits(std::int64_t max_plans, std::int64_t max_bytes);
void clear_fft_plan_cache();
}  // namespace cuda

namespace {

template <class Msg>
void require(bool ok, Msg&& what) {
  if (!ok) throw InvalidArgument("fft: " + detail::message_text(what));
}

DType complex_of(DType real) { return real == DType::Float32 ? DType::Complex64 : DType::Complex128; }

}  // namespace

bool fft(const ArrayView& in, const ArrayView& out, const int* axes, int naxes, FftKind kind, bool forward,
         StreamHandle stream) {
  require(naxes >= 1 && naxes <= 3,
          [&] { return "1 to 3 axes are transformed at once, got " + std::to_string(naxes); });
  require(in.ndim == out.ndim, "input and output have different numbers of dimensions");
  bool seen[kMaxDims] = {};
  for (int i = 0; i < naxes; ++i) {
    require(axes[i] >= 0 && axes[i] < in.ndim, [&] { return "axis " + std::to_string(axes[i]) + " is out of range"; });
    require(!seen[axes[i]], [&] { return "repeated axis " + std::to_string(axes[i]); });
    seen[axes[i]] = true;
  }
  const int last = axes[naxes - 1];
  switch (kind) {
    case FftKind::C2C:
      require(in.dtype == DType::Complex64 || in.dtype == DType::Complex128,
              [&] { return "a complex transform needs complex64 or complex128 input, got " + in.describe(); });
      require(out.dtype == in.dtype, "the output dtype must be the input's");
      break;
    case FftKind::R2C:
      require(in.dtype == DType::Float32 || in.dtype == DType::Float64,
              [&] { return "a real-to-complex transform needs float32 or float64 input, got " + in.describe(); });
      require(out.dtype == complex_of(in.dtype), "the output must be the complex type of the input");
      break;
    case FftKind::C2R:
      require(out.dtype == DType::Float32 || out.dtype == DType::Float64,
              [&] { return "a complex-to-real transform gives float32 or float64, got " + out.describe(); });
      require(in.dtype == complex_of(out.dtype), "the input must be the complex type of the output");
      break;
  }
  for (int d = 0; d < in.ndim; ++d) {
    if (d == last && kind == FftKind::R2C) {
      require(out.shape[d] == in.shape[d] / 2 + 1, "the output's last transformed axis must hold n // 2 + 1");
    } else if (d == last && kind == FftKind::C2R) {
      require(in.shape[d] == out.shape[d] / 2 + 1, "the input's last transformed axis must hold n // 2 + 1");
    } else {
      require(in.shape[d] == out.shape[d],
              [&] { return "input and output shapes differ along axis " + std::to_string(d); });
    }
  }
  for (int i = 0; i < naxes; ++i)
    require((kind == FftKind::C2R ? out : in).shape[axes[i]] > 0,
            [&] { return "invalid number of data points (0) along axis " + std::to_string(axes[i]); });
  require(in.device == out.device, "input and output are on different devices");
  require(!out.readonly, "the output is read-only");
  require(!in.on_host(), "npgpu::fft transforms device arrays (npgpu.fft uses numpy.fft for host arrays)");
  if (in.size() == 0 || out.size() == 0) return true;
  activate_device(in.device);
  return cuda::fft(in, out, axes, naxes, kind, forward, stream);
}

FftPlanCacheInfo fft_plan_cache_info() { return cuda::fft_plan_cache_info(); }

void set_fft_plan_cache_limits(std::int64_t max_plans, std::int64_t max_bytes) {
  if (max_plans < 0 || max_bytes < 0) throw InvalidArgument("fft plan cache limits must be non-negative");
  cuda::set_fft_plan_cache_limits(max_plans, max_bytes);
}

void clear_fft_plan_cache() { cuda::clear_fft_plan_cache(); }

}  // namespace npgpu
