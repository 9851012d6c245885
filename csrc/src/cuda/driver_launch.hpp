#pragma once
// Launching npgpu's kernels through the driver's cuLaunchKernel, with each kernel's CUfunction cached per
// device. cudaLaunchKernel finds the function from its host stub on every launch; skipping that lookup cuts
// the host time of each launch, and a call on a small array costs little more than its launch. The driver is
// reached through the runtime's entry-point query, so
// libnpgpu does not link libcuda. NPGPU_DRIVER_LAUNCH=0 turns the path off (every launch then goes through
// cudaLaunchKernel).
#include <cuda_runtime.h>

#include <atomic>
#include <tuple>

#include "common/cuda_check.hpp"

namespace npgpu::cuda {

inline constexpr int kDriverLaunchDevices = 64;

// The address of the driver function `name` (e.g. "cuLaunchKernel") as the runtime resolves it (the
// per-thread-default-stream variant where the runtime uses that), or null when the driver lacks it.
void* driver_entry_point(const char* name) noexcept;

// One kernel's CUfunction on each device, filled on first use. Declare it static (zero-initialised, so the
// hot path has no initialisation guard), one per kernel.
struct KernelSlots {
  std::atomic<void*> fn[kDriverLaunchDevices];
};

// Launches `kernel` (a __global__ function's address) on `stream` of the current device, which must be
// `device`. Returns false, having launched nothing, when the driver path is off or unavailable (a driver
// without the entry point, a device index beyond the cache) or the driver refused the launch: the caller
// then launches through cudaLaunchKernel, which reports any error in the runtime's terms.
bool driver_launch(KernelSlots& slots, const void* kernel, int device, dim3 grid, dim3 block, unsigned shared,
                   cudaStream_t stream, void** args) noexcept;

// The CUfunction of a library kernel (a cudaKernel_t / CUkernel) in the current device's primary context, or
// null when the driver path is off or the driver cannot say (the caller then launches the kernel handle
// through cudaLaunchKernel).
void* driver_kernel_function(void* kernel) noexcept;

// cuLaunchKernel of a CUfunction from driver_kernel_function on `stream` of the current device. False, having
// launched nothing, when the driver path is off or the driver refused the launch.
bool driver_launch_function(void* function, dim3 grid, dim3 block, unsigned shared, cudaStream_t stream,
                            void** args) noexcept;

// kernel<<<grid, block, 0, stream>>>(args...) on `device` (the current one) through driver_launch, else
// through cudaLaunchKernel: a small operation's time is mostly its launch.
template <class... P, class... A>
void launch_direct(void (*kernel)(P...), dim3 grid, dim3 block, int device, cudaStream_t stream,
                   const A&... args) {
  static KernelSlots slots;  // one per kernel instantiation
  std::tuple<P...> params(args...);
  std::apply(
      [&](P&... p) {
        void* argv[] = {static_cast<void*>(&p)...};
        const void* k = reinterpret_cast<const void*>(kernel);
        if (!driver_launch(slots, k, device, grid, block, 0, stream, argv))
          NPGPU_CUDA_TRY(cudaLaunchKernel(k, grid, block, argv, 0, stream));
      },
      params);
}

}  // namespace npgpu::cuda
