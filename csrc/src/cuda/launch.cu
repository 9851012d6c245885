// CUDA backend of launch_indices (every thread records where it sits in the launch), the driver launch path
// (driver_launch.hpp) and the measured cost of an empty launch through it.
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "common/backends.hpp"
#include "common/cuda_check.hpp"
#include "cuda/driver_launch.hpp"

namespace npgpu::cuda {
namespace {

__global__ void record_indices(int* tidx, int* bidx, int* bdim, int* gdim) {
  const std::int64_t block =
      (static_cast<std::int64_t>(blockIdx.z) * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  const std::int64_t per_block = static_cast<std::int64_t>(blockDim.x) * blockDim.y * blockDim.z;
  const std::int64_t id =
      block * per_block + (static_cast<std::int64_t>(threadIdx.z) * blockDim.y + threadIdx.y) * blockDim.x +
      threadIdx.x;
  const std::int64_t r = 3 * id;
  tidx[r] = threadIdx.x, tidx[r + 1] = threadIdx.y, tidx[r + 2] = threadIdx.z;
  bidx[r] = blockIdx.x, bidx[r + 1] = blockIdx.y, bidx[r + 2] = blockIdx.z;
  bdim[r] = blockDim.x, bdim[r + 1] = blockDim.y, bdim[r + 2] = blockDim.z;
  gdim[r] = gridDim.x, gdim[r + 1] = gridDim.y, gdim[r + 2] = gridDim.z;
}

__global__ void empty_kernel() {}

using LaunchKernelFn = CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                    unsigned, CUstream, void**, void**);

// cuLaunchKernel as the runtime resolves it (the per-thread-default-stream variant where the runtime uses
// that), or null when NPGPU_DRIVER_LAUNCH=0 or the driver does not offer it.
LaunchKernelFn driver_launch_kernel() {
  static const LaunchKernelFn fn = []() -> LaunchKernelFn {
    if (const char* env = std::getenv("NPGPU_DRIVER_LAUNCH"); env != nullptr && std::strcmp(env, "0") == 0)
      return nullptr;
    void* p = driver_entry_point("cuLaunchKernel");
    return reinterpret_cast<LaunchKernelFn>(p);
  }();
  return fn;
}

}  // namespace

void* driver_entry_point(const char* name) noexcept {
  void* p = nullptr;
  cudaDriverEntryPointQueryResult found{};
#if CUDART_VERSION >= 12050
  const cudaError_t err = cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &found);
#else
  const cudaError_t err = cudaGetDriverEntryPoint(name, &p, cudaEnableDefault, &found);
#endif
  if (err != cudaSuccess || found != cudaDriverEntryPointSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  return p;
}

bool driver_launch(KernelSlots& slots, const void* kernel, int device, dim3 grid, dim3 block, unsigned shared,
                   cudaStream_t stream, void** args) noexcept {
  const LaunchKernelFn launch = driver_launch_kernel();
  if (launch == nullptr || device < 0 || device >= kDriverLaunchDevices) return false;
  std::atomic<void*>& slot = slots.fn[device];
  void* f = slot.load(std::memory_order_acquire);
  if (f == nullptr) {
    cudaFunction_t found = nullptr;  // the kernel in the current (device's primary) context; loads it if lazy
    if (cudaGetFuncBySymbol(&found, kernel) != cudaSuccess) {
      cudaGetLastError();
      return false;
    }
    f = found;
    slot.store(f, std::memory_order_release);
  }
  if (launch(static_cast<CUfunction>(f), grid.x, grid.y, grid.z, block.x, block.y, block.z, shared,
             static_cast<CUstream>(stream), args, nullptr) == CUDA_SUCCESS)
    return true;
  slot.store(nullptr, std::memory_order_relaxed);  // look it up again next time
  return false;
}

void* driver_kernel_function(void* kernel) noexcept {
  using KernelGetFunctionFn = CUresult (*)(CUfunction*, CUkernel);
  static const auto get = reinterpret_cast<KernelGetFunctionFn>(
      driver_launch_kernel() != nullptr ? driver_entry_point("cuKernelGetFunction") : nullptr);
  CUfunction f = nullptr;
  if (get == nullptr || kernel == nullptr || get(&f, static_cast<CUkernel>(kernel)) != CUDA_SUCCESS) return nullptr;
  return f;
}

bool driver_launch_function(void* function, dim3 grid, dim3 block, unsigned shared, cudaStream_t stream,
                            void** args) noexcept {
  const LaunchKernelFn launch = driver_launch_kernel();
  return launch != nullptr && function != nullptr &&
         launch(static_cast<CUfunction>(function), grid.x, grid.y, grid.z, block.x, block.y, block.z, shared,
                static_cast<CUstream>(stream), args, nullptr) == CUDA_SUCCESS;
}

double empty_launch_host_us(int launches) {
  const auto s = static_cast<cudaStream_t>(per_thread_default_stream());
  const void* kernel = reinterpret_cast<const void*>(&empty_kernel);
  static KernelSlots slots;
  int device = 0;
  NPGPU_CUDA_TRY(cudaGetDevice(&device));
  // The path npgpu's own launches take: the driver's when it is on, else the runtime's.
  const auto launch_once = [&] {
    if (!driver_launch(slots, kernel, device, dim3(1), dim3(32), 0, s, nullptr))
      NPGPU_CUDA_TRY(cudaLaunchKernel(kernel, dim3(1), dim3(32), nullptr, 0, s));
  };
  launch_once();  // loads the kernel
  NPGPU_CUDA_TRY(cudaStreamSynchronize(s));
  std::vector<double> runs;
  for (int r = 0; r < 5; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < launches; ++i) launch_once();
    const auto t1 = std::chrono::steady_clock::now();
    NPGPU_CUDA_TRY(cudaStreamSynchronize(s));
    runs.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / launches);
  }
  std::sort(runs.begin(), runs.end());
  return runs[runs.size() / 2];
}

void launch_indices(const Dim3& grid, const Dim3& block, const ArrayView& thread_idx, const ArrayView& block_idx,
                    const ArrayView& block_dim, const ArrayView& grid_dim, StreamHandle stream) {
  dim3 g(static_cast<unsigned>(grid.x), static_cast<unsigned>(grid.y), static_cast<unsigned>(grid.z));
  dim3 b(static_cast<unsigned>(block.x), static_cast<unsigned>(block.y), static_cast<unsigned>(block.z));
  record_indices<<<g, b, 0, static_cast<cudaStream_t>(stream)>>>(
      static_cast<int*>(thread_idx.data), static_cast<int*>(block_idx.data), static_cast<int*>(block_dim.data),
      static_cast<int*>(grid_dim.data));
  NPGPU_CHECK_LAUNCH("launch_indices");
}

}  // namespace npgpu::cuda
