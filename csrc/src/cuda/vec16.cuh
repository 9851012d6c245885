#pragma once
// Internal: the 16-byte vector type of float32 / float64 data (float4 / double2) and of integer data (uint4,
// unpacked into 16 / sizeof(T) lanes), for kernels that read or write whole vectors (the reductions' and
// scans' fast paths).
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace npgpu::cuda {

template <class T, class = void>
struct V16;
template <>
struct V16<float> {
  using T = float4;
  static constexpr int n = 4;
  __device__ static void unpack(const float4& q, float* o) {
    o[0] = q.x;
    o[1] = q.y;
    o[2] = q.z;
    o[3] = q.w;
  }
};
template <>
struct V16<double> {
  using T = double2;
  static constexpr int n = 2;
  __device__ static void unpack(const double2& q, double* o) {
    o[0] = q.x;
    o[1] = q.y;
  }
};

template <class E>
struct V16<E, std::enable_if_t<std::is_integral_v<E>>> {
  using T = uint4;
  static constexpr int n = 16 / sizeof(E);
  __device__ static void unpack(const uint4& q, E* o) { std::memcpy(o, &q, 16); }
};

}  // namespace npgpu::cuda
