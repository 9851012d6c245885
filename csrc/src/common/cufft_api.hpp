#pragma once
// Internal: the subset of cuFFT npgpu uses, declared here (values and prototypes as in NVIDIA's cufft.h,
// cuFFT 12) because libnpgpu does not link cuFFT: libcufft.so.12 is opened on first use (common/dynlib.hpp)
// from the nvidia-cufft wheel, the CUDA toolkit or the system's search path.
#include <cstddef>

namespace npgpu::detail::cufft {

using Handle = int;  // cufftHandle

enum Result : int {
  SUCCESS = 0x0,
  INVALID_PLAN = 0x1,
  ALLOC_FAILED = 0x2,
  INVALID_TYPE = 0x3,
  INVALID_VALUE = 0x4,
  INTERNAL_ERROR = 0x5,
  EXEC_FAILED = 0x6,
  SETUP_FAILED = 0x7,
  INVALID_SIZE = 0x8,
  UNALIGNED_DATA = 0x9,
  INVALID_DEVICE = 0xB,
  NO_WORKSPACE = 0xD,
  NOT_IMPLEMENTED = 0xE,
  NOT_SUPPORTED = 0x10,
  MISSING_DEPENDENCY = 0x11,
  NVRTC_FAILURE = 0x12,
  NVJITLINK_FAILURE = 0x13,
};

enum Type : int { R2C = 0x2a, C2R = 0x2c, C2C = 0x29, D2Z = 0x6a, Z2D = 0x6c, Z2Z = 0x69 };
inline constexpr int kForward = -1, kInverse = 1;

using CreateFn = Result (*)(Handle*);
using DestroyFn = Result (*)(Handle);
using SetAutoAllocationFn = Result (*)(Handle, int);
using MakePlanMany64Fn = Result (*)(Handle, int rank, long long* n, long long* inembed, long long istride,
                                    long long idist, long long* onembed, long long ostride, long long odist,
                                    Type type, long long batch, std::size_t* work_size);
using SetWorkAreaFn = Result (*)(Handle, void*);
using SetStreamFn = Result (*)(Handle, void* /* cudaStream_t */);
using ExecC2CFn = Result (*)(Handle, void* in, void* out, int direction);  // also Z2Z
using ExecR2CFn = Result (*)(Handle, void* in, void* out);                 // also D2Z, C2R, Z2D
using GetVersionFn = Result (*)(int*);

struct Api {
  CreateFn create;
  DestroyFn destroy;
  SetAutoAllocationFn set_auto_allocation;
  MakePlanMany64Fn make_plan_many64;
  SetWorkAreaFn set_work_area;
  SetStreamFn set_stream;
  ExecC2CFn exec_c2c, exec_z2z;
  ExecR2CFn exec_r2c, exec_d2z, exec_c2r, exec_z2d;
  GetVersionFn get_version;
};

// The loaded library (opened once per process; throws Unavailable when libcufft.so.12 or a symbol is
// missing).
const Api& api();

// The enumerator's name of a cufftResult ("CUFFT_EXEC_FAILED", ...).
const char* result_name(Result r);

}  // namespace npgpu::detail::cufft
