#pragma once
// Internal: NVIDIA libraries (cuBLAS, NVRTC, ...) are opened at run time, not linked, so libnpgpu loads and
// its host backend works on machines without them; the first operation that needs one opens it.
#include <string>

namespace npgpu::detail {

// dlopen `soname` (e.g. "libcublas.so.13"), trying in order: NVIDIA's wheel beside the npgpu package
// (site-packages/nvidia/cu13/lib), the directories of NPGPU_CUDA_LIBRARY_PATH (':'-separated), the CUDA
// toolkit ($CUDA_HOME or $CUDA_PATH, then /usr/local/cuda, lib64/), then the system's search path. Each
// library is opened once per process. Throws Unavailable saying what was tried and which pip package
// (`pip_package`) provides it.
void* open_cuda_library(const char* soname, const char* pip_package);

// The address of `symbol` in a library from open_cuda_library; throws Unavailable when it is missing
// (an older library than npgpu needs).
void* library_symbol(void* library, const char* symbol, const char* soname);

// Typed shorthand: auto f = library_function<decltype(&cublasCreate_v2)>(lib, "cublasCreate_v2", soname).
template <class F>
F library_function(void* library, const char* symbol, const char* soname) {
  return reinterpret_cast<F>(library_symbol(library, symbol, soname));
}

}  // namespace npgpu::detail
