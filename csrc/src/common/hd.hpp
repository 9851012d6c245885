#pragma once
// Internal: NPGPU_HD marks code shared by the CUDA kernels and the host backend (one definition of each
// per-element operation).
#if defined(__CUDACC__)
#define NPGPU_HD __host__ __device__ __forceinline__
#else
#define NPGPU_HD inline
#endif
