#pragma once
// Fast Fourier transforms of device arrays through cuFFT (opened at run time from the nvidia-cufft wheel or
// the CUDA toolkit), with a plan cache. The transforms are unnormalised, as cuFFT's: numpy.fft's `norm`
// scalings, padding and cropping are the caller's (the Python package's npgpu.fft does them).
#include <cstdint>

#include "npgpu/export.hpp"
#include "npgpu/runtime.hpp"
#include "npgpu/view.hpp"

namespace npgpu {

enum class FftKind {
  C2C,  // complex -> complex of the same shape (forward or inverse)
  R2C,  // real -> complex, the last transformed axis holding n / 2 + 1 values (forward)
  C2R,  // complex (the Hermitian half) -> real, the last transformed axis of `out` giving n (inverse)
};

// The unnormalised transform of `in` over `axes` (1 to 3 distinct axes; the last one is the halved axis of
// R2C and C2R) into `out`, on `stream` of their device. Dtypes: C2C complex64 -> complex64 or complex128 ->
// complex128; R2C float32 -> complex64, float64 -> complex128; C2R the reverse. Shapes: equal except along
// axes.back() for R2C/C2R. Any strides cuFFT's advanced layout can describe (each transformed axis's stride
// a multiple of the next inner one's, the other axes one uniform batch stride, positive strides): returns
// false, having done nothing, for a layout it cannot describe, so the caller can transform a contiguous
// copy instead. C2R reads a scratch copy of `in` (cuFFT overwrites its input). `in` and `out` must not
// overlap. A cuFFT failure throws CudaError naming its status; a plan that does not fit in device memory
// is retried once after the plan cache has been emptied, then throws OutOfMemoryError. On GPUs of compute
// capability 9 and later, complex64 transforms of length 2048 or 4096 down at least 256 contiguous columns
// (and the outer axis of such 2-D transforms) run in npgpu's own kernel and make no cuFFT plan.
NPGPU_API bool fft(const ArrayView& in, const ArrayView& out, const int* axes, int naxes, FftKind kind,
                   bool forward, StreamHandle stream);

// The plan cache: plans are kept per (device, transform, layout), least recently used evicted first when
// there are more than `max_plans` or their work areas would need more than `max_bytes` (defaults 64 plans,
// 1 GiB). Thread-safe; a plan serves any stream (its stream and work area are set under a lock each call).
struct FftPlanCacheInfo {
  std::int64_t plans;
  std::int64_t work_bytes;  // work area sizes of the cached plans (each call takes its area from the pool)
  std::int64_t max_plans;
  std::int64_t max_bytes;
  std::int64_t hits;
  std::int64_t misses;
};
NPGPU_API FftPlanCacheInfo fft_plan_cache_info();
NPGPU_API void set_fft_plan_cache_limits(std::int64_t max_plans, std::int64_t max_bytes);
NPGPU_API void clear_fft_plan_cache();

}  // namespace npgpu
