// Run-time compilation (see npgpu/rtc.hpp): NVRTC through dlopen, libraries through the CUDA runtime
// (cudaLibrary*/cudaKernel_t), launches through the driver entry point npgpu's own kernels use (never
// linking libcuda).
#include "npgpu/rtc.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/cuda_check.hpp"
#include "common/dynlib.hpp"
#include "common/nvrtc_api.hpp"
#include "cuda/driver_launch.hpp"
#include "npgpu/errors.hpp"

namespace npgpu {
namespace {

constexpr const char* kSoname = "libnvrtc.so.13";
constexpr const char* kPipPackage = "nvidia-cuda-nvrtc";

namespace nv = detail::nvrtc;

struct NvrtcApi {
  nv::GetErrorStringFn error_string;
  nv::VersionFn version;
  nv::GetNumSupportedArchsFn num_archs;
  nv::GetSupportedArchsFn archs;
  nv::CreateProgramFn create;
  nv::DestroyProgramFn destroy;
  nv::CompileProgramFn compile;
  nv::GetSizeFn log_size;
  nv::GetDataFn log;
  nv::GetSizeFn ptx_size;
  nv::GetDataFn ptx;
  nv::GetSizeFn cubin_size;
  nv::GetDataFn cubin;
  nv::AddNameExpressionFn add_name_expression;
  nv::GetLoweredNameFn lowered_name;
  nv::InstallBundledHeadersFn install_headers;  // null for NVRTC older than 13.1
};

template <class F>
F sym(void* lib, const char* name) {
  return detail::library_function<F>(lib, name, kSoname);
}

// Opened on first use; a failure is not cached (the static is initialised only when the lambda returns), so
// a later call retries, e.g. after NPGPU_CUDA_LIBRARY_PATH was set.
const NvrtcApi& api() {
  static const NvrtcApi a = [] {
    void* lib = detail::open_cuda_library(kSoname, kPipPackage);
    NvrtcApi r{};
    r.error_string = sym<nv::GetErrorStringFn>(lib, "nvrtcGetErrorString");
    r.version = sym<nv::VersionFn>(lib, "nvrtcVersion");
    r.num_archs = sym<nv::GetNumSupportedArchsFn>(lib, "nvrtcGetNumSupportedArchs");
    r.archs = sym<nv::GetSupportedArchsFn>(lib, "nvrtcGetSupportedArchs");
    r.create = sym<nv::CreateProgramFn>(lib, "nvrtcCreateProgram");
    r.destroy = sym<nv::DestroyProgramFn>(lib, "nvrtcDestroyProgram");
    r.compile = sym<nv::CompileProgramFn>(lib, "nvrtcCompileProgram");
    r.log_size = sym<nv::GetSizeFn>(lib, "nvrtcGetProgramLogSize");
    r.log = sym<nv::GetDataFn>(lib, "nvrtcGetProgramLog");
    r.ptx_size = sym<nv::GetSizeFn>(lib, "nvrtcGetPTXSize");
    r.ptx = sym<nv::GetDataFn>(lib, "nvrtcGetPTX");
    r.cubin_size = sym<nv::GetSizeFn>(lib, "nvrtcGetCUBINSize");
    r.cubin = sym<nv::GetDataFn>(lib, "nvrtcGetCUBIN");
    r.add_name_expression = sym<nv::AddNameExpressionFn>(lib, "nvrtcAddNameExpression");
    r.lowered_name = sym<nv::GetLoweredNameFn>(lib, "nvrtcGetLoweredName");
    try {
      r.install_headers = sym<nv::InstallBundledHeadersFn>(lib, "nvrtcInstallBundledHeaders");
    } catch (const Unavailable&) {
      r.install_headers = nullptr;
    }
    return r;
  }();
  return a;
}

void check(nv::Result r, const char* call) {
  if (r == nv::kSuccess) return;
  const char* s = api().error_string(r);
  throw Error(std::string("NVRTC ") + call + " failed: " + (s ? s : "unknown error") + " (" + std::to_string(r) +
              ")");
}

struct ProgramGuard {
  nv::Program p = nullptr;
  ~ProgramGuard() {
    if (p) api().destroy(&p);
  }
};

}  // namespace

int nvrtc_version() {
  int major = 0, minor = 0;
  check(api().version(&major, &minor), "nvrtcVersion");
  return major * 1000 + minor * 10;
}

std::vector<int> nvrtc_supported_archs() {
  int n = 0;
  check(api().num_archs(&n), "nvrtcGetNumSupportedArchs");
  std::vector<int> archs(static_cast<std::size_t>(std::max(n, 0)));
  if (n > 0) check(api().archs(archs.data()), "nvrtcGetSupportedArchs");
  std::sort(archs.begin(), archs.end());
  return archs;
}

int rtc_device_arch(int device) {
  require_device(device);
  const DeviceProperties& p = device_properties(device);
  const int cc = p.cc_major * 10 + p.cc_minor;
  int best = 0;
  std::string known;
  for (int a : nvrtc_supported_archs()) {
    known += (known.empty() ? "" : ", ") + std::to_string(a);
    if (a == cc) return a;
    // A cubin runs on later minor revisions of its major architecture.
    if (a / 10 == p.cc_major && a < cc) best = std::max(best, a);
  }
  if (best) return best;
  throw Unavailable("NVRTC " + std::to_string(nvrtc_version() / 1000) + "." +
                    std::to_string(nvrtc_version() % 1000 / 10) + " cannot compile for this GPU (compute capability " +
                    std::to_string(p.cc_major) + "." + std::to_string(p.cc_minor) + "; it supports sm_" + known +
                    "): install a newer nvidia-cuda-nvrtc");
}

bool rtc_install_bundled_headers(const std::string& path) {
  const NvrtcApi& a = api();
  if (a.install_headers == nullptr) return false;
  const char* log = nullptr;
  const nv::Result r = a.install_headers(path.c_str(), nv::kInstallHeadersSkipIfExists, &log);
  if (r != nv::kSuccess)
    throw Error("NVRTC could not install its bundled headers in " + path + ": " +
                (log ? std::string(log) : std::string(a.error_string(r))));
  return true;
}

RtcCompileResult rtc_compile(const std::string& source, const std::string& name,
                             const std::vector<std::string>& options,
                             const std::vector<std::string>& name_expressions) {
  if (source.find('\0') != std::string::npos) throw InvalidArgument("kernel source contains a NUL character");
  const NvrtcApi& a = api();
  ProgramGuard prog;
  check(a.create(&prog.p, source.c_str(), name.empty() ? "kernel.cu" : name.c_str(), 0, nullptr, nullptr),
        "nvrtcCreateProgram");
  for (const std::string& e : name_expressions) check(a.add_name_expression(prog.p, e.c_str()), "nvrtcAddNameExpression");
  std::vector<const char*> opts;
  opts.reserve(options.size());
  for (const std::string& o : options) opts.push_back(o.c_str());
  const nv::Result r = a.compile(prog.p, static_cast<int>(opts.size()), opts.data());

  RtcCompileResult out;
  std::size_t log_size = 0;
  if (a.log_size(prog.p, &log_size) == nv::kSuccess && log_size > 1) {
    out.log.resize(log_size);
    if (a.log(prog.p, out.log.data()) != nv::kSuccess) out.log.clear();
    while (!out.log.empty() && (out.log.back() == '\0' || out.log.back() == '\n')) out.log.pop_back();
  }
  if (r == nv::kErrorCompilation || r == nv::kErrorInvalidOption) {
    if (out.log.empty()) {
      out.log = std::string(a.error_string(r)) + "; options:";
      for (const std::string& o : options) out.log += " " + o;
    }
    out.ok = false;
    return out;
  }
  check(r, "nvrtcCompileProgram");

  std::size_t size = 0;
  check(a.cubin_size(prog.p, &size), "nvrtcGetCUBINSize");
  if (size > 0) {  // 0 when compiled for a virtual architecture (compute_XX): PTX only
    out.binary.resize(size);
    check(a.cubin(prog.p, out.binary.data()), "nvrtcGetCUBIN");
  } else {
    check(a.ptx_size(prog.p, &size), "nvrtcGetPTXSize");
    out.binary.resize(size);  // includes the terminating NUL cudaLibraryLoadData needs
    check(a.ptx(prog.p, out.binary.data()), "nvrtcGetPTX");
    out.is_ptx = true;
  }
  for (const std::string& e : name_expressions) {
    const char* lowered = nullptr;
    check(a.lowered_name(prog.p, e.c_str(), &lowered), "nvrtcGetLoweredName");
    out.lowered_names.emplace_back(lowered ? lowered : "");
  }
  out.ok = true;
  return out;
}

RtcLibrary rtc_library_load(const void* image, int device) {
  if (image == nullptr) throw InvalidArgument("rtc_library_load: no image");
  require_device(device);
  activate_device(device);
  cudaLibrary_t lib = nullptr;
  NPGPU_CUDA_TRY(cudaLibraryLoadData(&lib, image, nullptr, nullptr, 0, nullptr, nullptr, 0));
  return lib;
}

void rtc_library_unload(RtcLibrary library) noexcept {
  if (library && cudaLibraryUnload(static_cast<cudaLibrary_t>(library)) != cudaSuccess) cudaGetLastError();
}

RtcKernel rtc_get_kernel(RtcLibrary library, const char* name, int device, RtcKernelInfo* info) {
  if (library == nullptr || name == nullptr) throw InvalidArgument("rtc_get_kernel: no library or name");
  activate_device(device);
  cudaKernel_t k = nullptr;
  const cudaError_t err = cudaLibraryGetKernel(&k, static_cast<cudaLibrary_t>(library), name);
  if (err == cudaErrorSymbolNotFound || err == cudaErrorInvalidDeviceFunction || err == cudaErrorInvalidValue ||
      err == cudaErrorSharedObjectSymbolNotFound) {
    cudaGetLastError();
    throw InvalidArgument(std::string("the module has no kernel named '") + name +
                          "' (C++ names are mangled: declare the kernel extern \"C\", or list the name in "
                          "name_expressions)");
  }
  NPGPU_CUDA_TRY(err);
  if (info) {
    *info = RtcKernelInfo{};
    const void* f = reinterpret_cast<const void*>(k);
    for (std::size_t i = 0; i < 65536; ++i) {
      std::size_t off = 0, size = 0;
      const cudaError_t e = cudaFuncGetParamInfo(f, i, &off, &size);
      if (e == cudaErrorInvalidValue) {  // past the last parameter
        cudaGetLastError();
        break;
      }
      NPGPU_CUDA_TRY(e);
      info->param_offsets.push_back(static_cast<std::int64_t>(off));
      info->param_sizes.push_back(static_cast<std::int64_t>(size));
    }
    cudaFuncAttributes attr{};
    NPGPU_CUDA_TRY(cudaFuncGetAttributes(&attr, f));
    const DeviceProperties& p = device_properties(device);
    info->max_threads_per_block = attr.maxThreadsPerBlock;
    info->static_shared_bytes = static_cast<std::int64_t>(attr.sharedSizeBytes);
    info->max_shared_bytes = std::max(p.shared_memory_per_block_optin, p.shared_memory_per_block);
    info->dynamic_shared_enabled = attr.maxDynamicSharedSizeBytes;
    info->num_regs = attr.numRegs;
    info->local_bytes = static_cast<std::int64_t>(attr.localSizeBytes);
    info->binary_version = attr.binaryVersion;
    info->function = cuda::driver_kernel_function(k);
  }
  return k;
}

std::vector<std::string> rtc_kernel_names(RtcLibrary library, int device) {
  if (library == nullptr) throw InvalidArgument("rtc_kernel_names: no library");
  activate_device(device);
  auto lib = static_cast<cudaLibrary_t>(library);
  unsigned count = 0;
  NPGPU_CUDA_TRY(cudaLibraryGetKernelCount(&count, lib));
  std::vector<cudaKernel_t> kernels(count);
  if (count) NPGPU_CUDA_TRY(cudaLibraryEnumerateKernels(kernels.data(), count, lib));
  std::vector<std::string> names;
  for (cudaKernel_t k : kernels) {
    const char* name = nullptr;
    NPGPU_CUDA_TRY(cudaFuncGetName(&name, reinterpret_cast<const void*>(k)));
    names.emplace_back(name ? name : "");
  }
  return names;
}

void rtc_launch(RtcKernel kernel, RtcKernelInfo* info, const Dim3& grid, const Dim3& block, std::int64_t shared_mem,
                int device, StreamHandle stream, void** args) {
  if (kernel == nullptr || info == nullptr) throw InvalidArgument("rtc_launch: no kernel");
  check_launch_geometry(grid, block, device);
  const std::int64_t threads = block.x * block.y * block.z;
  if (threads > info->max_threads_per_block)
    throw InvalidArgument("block of " + std::to_string(threads) + " threads exceeds this kernel's limit of " +
                          std::to_string(info->max_threads_per_block) + " threads per block (it uses " +
                          std::to_string(info->num_regs) + " registers per thread)");
  if (shared_mem < 0) throw InvalidArgument("shared_mem must be non-negative, got " + std::to_string(shared_mem));
  if (info->static_shared_bytes + shared_mem > info->max_shared_bytes)
    throw InvalidArgument("shared_mem=" + std::to_string(shared_mem) + " bytes plus the kernel's " +
                          std::to_string(info->static_shared_bytes) + " bytes of static shared memory exceed the " +
                          std::to_string(info->max_shared_bytes) + " bytes a block may use on this device");
  activate_device(device);
  const void* f = reinterpret_cast<const void*>(kernel);
  if (shared_mem > info->dynamic_shared_enabled) {
    NPGPU_CUDA_TRY(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_mem)));
    info->dynamic_shared_enabled = shared_mem;
  }
  const dim3 g(static_cast<unsigned>(grid.x), static_cast<unsigned>(grid.y), static_cast<unsigned>(grid.z));
  const dim3 b(static_cast<unsigned>(block.x), static_cast<unsigned>(block.y), static_cast<unsigned>(block.z));
  const auto s = static_cast<cudaStream_t>(stream);
  if (cuda::driver_launch_function(info->function, g, b, static_cast<unsigned>(shared_mem), s, args)) return;
  // The runtime reports what the driver refused in its own terms (and resolves the kernel handle itself); the
  // function is looked up again in case the context it belonged to is gone.
  info->function = cuda::driver_kernel_function(kernel);
  NPGPU_CUDA_TRY(cudaLaunchKernel(f, g, b, args, static_cast<std::size_t>(shared_mem), s));
}

}  // namespace npgpu
