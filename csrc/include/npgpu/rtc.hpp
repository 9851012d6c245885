#pragma once
// Run-time compilation: CUDA C++ source compiled with NVRTC (opened at run time from the nvidia-cuda-nvrtc
// wheel or the CUDA toolkit, never linked), loaded with the CUDA runtime's library API (cudaLibraryLoadData,
// cudaLibraryGetKernel) and launched through the driver's cuLaunchKernel, as npgpu's own kernels are
// (cudaLaunchKernel on the kernel handle where the driver path is off; reference page 003).
//
// Typical use: rtc_compile() -> rtc_library_load() on the result's binary -> rtc_get_kernel() for each
// kernel (the lowered name of a name expression for templates) -> rtc_launch() with one pointer per kernel
// parameter, each pointing at a value of the parameter's size (RtcKernelInfo::param_sizes). npgpu's Python
// layer adds argument checks and the compiled-code cache (memory and disk) on top.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "npgpu/export.hpp"
#include "npgpu/launch.hpp"
#include "npgpu/runtime.hpp"

namespace npgpu {

// NVRTC's version as 1000 * major + 10 * minor (13.5 -> 13050). Throws Unavailable (naming the pip package)
// when libnvrtc cannot be loaded.
NPGPU_API int nvrtc_version();
// The real architectures NVRTC can compile for (75, 80, ..., as compute capability * 10).
NPGPU_API std::vector<int> nvrtc_supported_archs();
// The architecture rtc_compile should target for `device`: its compute capability when NVRTC supports it,
// else the highest supported one below it (cubins run on later minor revisions of a major architecture).
// Throws Unavailable when NVRTC supports none that the device can run.
NPGPU_API int rtc_device_arch(int device);

// Extracts the CUDA toolkit and CCCL headers bundled with NVRTC (13.1 and later) into `path` (skipped when
// that version is already there); compile with "-I<path>" and "-I<path>/cccl" to #include them. Returns
// false when this NVRTC bundles no headers. Throws Error when extraction fails.
NPGPU_API bool rtc_install_bundled_headers(const std::string& path);

struct RtcCompileResult {
  bool ok = false;                         // false: a compile error (or an option NVRTC rejected); see log
  std::string log;                         // NVRTC's log (warnings too when ok)
  std::string binary;                      // a cubin (an sm_XX target) or NUL-terminated PTX (compute_XX)
  bool is_ptx = false;
  std::vector<std::string> lowered_names;  // one per name expression, in order (mangled kernel names)
};

// Compiles `source` (file name `name` in messages) with `options` (NVRTC's, e.g. "--gpu-architecture=sm_90",
// "-lineinfo", "-DN=4"). A compile error is not thrown: it comes back as ok == false with the log, so callers
// raise their own error type. Throws Unavailable when NVRTC cannot be loaded, InvalidArgument for a source
// with NUL bytes.
NPGPU_API RtcCompileResult rtc_compile(const std::string& source, const std::string& name,
                                       const std::vector<std::string>& options,
                                       const std::vector<std::string>& name_expressions);

using RtcLibrary = void*;  // a cudaLibrary_t
using RtcKernel = void*;   // a cudaKernel_t

// What the driver reports about a kernel: its parameters' offsets and sizes (cudaFuncGetParamInfo) and its
// resource limits on the device it was looked up for (cudaFuncGetAttributes).
struct RtcKernelInfo {
  std::vector<std::int64_t> param_offsets;
  std::vector<std::int64_t> param_sizes;
  int max_threads_per_block = 0;            // after registers and __launch_bounds__
  std::int64_t static_shared_bytes = 0;
  std::int64_t max_shared_bytes = 0;        // static + dynamic allowed per block (the device's opt-in limit)
  std::int64_t dynamic_shared_enabled = 0;  // dynamic bytes cudaFuncAttributeMaxDynamicSharedMemorySize allows
  int num_regs = 0;
  std::int64_t local_bytes = 0;
  int binary_version = 0;                   // the architecture the loaded code was built for (90: sm_90)
  void* function = nullptr;                 // its CUfunction on that device, for the driver's launch (or null)
};

// Loads a cubin or NUL-terminated PTX image (copied by the driver: the image may be freed afterwards) on
// `device`. Throws CudaError (e.g. cudaErrorNoKernelImageForDevice for another architecture's cubin).
NPGPU_API RtcLibrary rtc_library_load(const void* image, int device);
NPGPU_API void rtc_library_unload(RtcLibrary library) noexcept;
// The kernel `name` (a lowered name for C++ symbols) and its info on `device`. Throws InvalidArgument when
// the library has no such kernel.
NPGPU_API RtcKernel rtc_get_kernel(RtcLibrary library, const char* name, int device, RtcKernelInfo* info);
// The (lowered, i.e. mangled for C++) names of the kernels in a library, so that a plain C++ kernel name can
// be matched to its mangled symbol.
NPGPU_API std::vector<std::string> rtc_kernel_names(RtcLibrary library, int device);

// Launches on `device` and `stream`: args[i] points at the value of parameter i (info->param_sizes[i]
// bytes each). Checks first, throwing InvalidArgument: the geometry against the device's limits and the
// kernel's max_threads_per_block, shared_mem against the shared memory a block may have (raising the
// kernel's dynamic shared memory limit when a launch needs more than the default 48 KiB).
NPGPU_API void rtc_launch(RtcKernel kernel, RtcKernelInfo* info, const Dim3& grid, const Dim3& block,
                          std::int64_t shared_mem, int device, StreamHandle stream, void** args);

}  // namespace npgpu
