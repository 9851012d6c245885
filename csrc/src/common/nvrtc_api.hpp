#pragma once
// Internal: the subset of NVRTC (nvrtc.h of the nvidia-cuda-nvrtc 13.x wheel) that rtc.cpp uses. libnvrtc is
// opened at run time (common/dynlib.hpp), never linked, so these are declarations of function-pointer types
// only; values and signatures are copied from NVIDIA's header.
#include <cstddef>

namespace npgpu::detail::nvrtc {

using Result = int;  // nvrtcResult
constexpr Result kSuccess = 0;                       // NVRTC_SUCCESS
constexpr Result kErrorInvalidOption = 5;            // NVRTC_ERROR_INVALID_OPTION
constexpr Result kErrorCompilation = 6;              // NVRTC_ERROR_COMPILATION
constexpr Result kErrorNameExpressionNotValid = 10;  // NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID

struct ProgramSt;
using Program = ProgramSt*;  // nvrtcProgram

using GetErrorStringFn = const char* (*)(Result);
using VersionFn = Result (*)(int* major, int* minor);
using GetNumSupportedArchsFn = Result (*)(int* num);
using GetSupportedArchsFn = Result (*)(int* archs);
using CreateProgramFn = Result (*)(Program* prog, const char* src, const char* name, int num_headers,
                                   const char* const* headers, const char* const* include_names);
using DestroyProgramFn = Result (*)(Program* prog);
using CompileProgramFn = Result (*)(Program prog, int num_options, const char* const* options);
using GetSizeFn = Result (*)(Program prog, std::size_t* size);  // PTX, CUBIN, program log sizes
using GetDataFn = Result (*)(Program prog, char* out);          // PTX, CUBIN, program log
using AddNameExpressionFn = Result (*)(Program prog, const char* name_expression);
// NVRTC 13.1+: extract the CUDA and CCCL headers bundled in libnvrtc-builtins to a directory.
using InstallBundledHeadersFn = Result (*)(const char* install_path, unsigned flags, const char** error_log);
constexpr unsigned kInstallHeadersSkipIfExists = 0x0;  // NVRTC_INSTALL_HEADERS_SKIP_IF_EXISTS
using GetLoweredNameFn = Result (*)(Program prog, const char* name_expression, const char** lowered_name);

}  // namespace npgpu::detail::nvrtc
