// Host loops also compiled for newer x86-64 vector units and picked at load time where the CPU has them (GCC on
// x86-64): functions whose loops the baseline SSE2 build runs far slower than NumPy's own AVX2 loops. Their loops
// must be inlined into them to be compiled for the clone's target (NPGPU_ALWAYS_INLINE).
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define NPGPU_AVX2_CLONE __attribute__((target_clones("avx2", "default")))
#define NPGPU_ALWAYS_INLINE inline __attribute__((always_inline))
// AVX2 with FMA, for polynomial kernels (the fused multiply-add is much of their gain), picked by hand with
// cpu_has_avx2_fma(): a target_clones list takes one feature per clone, and GCC 12's "arch=" clones test the
// CPU model, not its features.
#define NPGPU_HAVE_AVX2_FMA_TARGET 1
#define NPGPU_AVX2_FMA_TARGET __attribute__((target("avx2,fma")))
// AVX-512F, for loops written with its intrinsics (picked with cpu_has_avx512f()).
#define NPGPU_HAVE_AVX512F_TARGET 1
#define NPGPU_AVX512F_TARGET __attribute__((target("avx512f")))
namespace npgpu::host {
inline bool cpu_has_avx2_fma() {
  static const bool yes = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return yes;
}
inline bool cpu_has_avx512f() {
  static const bool yes = __builtin_cpu_supports("avx512f");
  return yes;
}
}  // namespace npgpu::host
#else
#define NPGPU_AVX2_CLONE
#define NPGPU_ALWAYS_INLINE inline
#endif
