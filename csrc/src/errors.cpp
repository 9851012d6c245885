#include "npgpu/errors.hpp"

#include <cstdio>
#include <string>

#include "common/cuda_check.hpp"

namespace npgpu {

CudaError::CudaError(int code, std::string name, std::string call, std::string detail, bool sticky)
    : Error(detail), code_(code), name_(std::move(name)), call_(std::move(call)), sticky_(sticky) {}

namespace detail {

bool is_sticky(cudaError_t err) {
  // Errors after which the CUDA context is unusable for the rest of the process.
  switch (err) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchTimeout:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorLaunchFailure:
    case cudaErrorAssert:
    case cudaErrorECCUncorrectable:
      return true;
    default:
      return false;
  }
}

void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line) {
  if (err == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    throw OutOfMemoryError(std::string("out of GPU memory in ") + call);
  }
  const bool sticky = is_sticky(err);
  if (!sticky) cudaGetLastError();  // clear it, so the next call starts clean
  const char* name = cudaGetErrorName(err);
  std::string msg = std::string(name) + " (" + std::to_string(static_cast<int>(err)) +
                    "): " + cudaGetErrorString(err) + " in " + call;
  (void)file;
  (void)line;
  if (sticky)
    msg += " [sticky error: the CUDA context of this process is no longer usable; restart the process]";
  throw CudaError(static_cast<int>(err), name, call, msg, sticky);
}

void throw_alloc_error(cudaError_t err, const char* what, long long nbytes, int device) {
  if (err == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    cudaGetLastError();
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s of %lld bytes failed on cuda:%d (%lld bytes free of %lld)", what,
                  nbytes, device, static_cast<long long>(free_b), static_cast<long long>(total_b));
    throw OutOfMemoryError(buf);
  }
  throw_cuda_error(err, what, __FILE__, __LINE__);
}

}  // namespace detail
}  // namespace npgpu
