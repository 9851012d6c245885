#pragma once
// Internal: the 16-byte vector type of float32 / float64 data (float4 / double2), for kernels that read or
// write whole vectors (the reductions' and scans' fast paths).
namespace npgpu::cuda {

template <class T>
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

}  // namespace npgpu::cuda
