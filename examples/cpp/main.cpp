// c = a + b through libnpgpu from C++: on the host backend always, and on the GPU when one is present.
// Shows the C++ API: non-owning views, typed exceptions, device buffers from the pool, streams.
#include <npgpu/npgpu.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

int main() {
  const std::int64_t n = 1000003;  // odd on purpose: exercises the kernels' tails
  std::vector<float> a(n), b(n), c(n, NAN);
  for (std::int64_t i = 0; i < n; ++i) {
    a[i] = 0.5f * static_cast<float>(i % 1000);
    b[i] = 1.0f / static_cast<float>(1 + i % 7);
  }
  auto check = [&](const char* where) {
    for (std::int64_t i = 0; i < n; ++i)
      if (c[i] != a[i] + b[i]) {
        std::printf("%s: mismatch at %lld\n", where, static_cast<long long>(i));
        return false;
      }
    std::printf("%s: c = a + b correct for %lld elements\n", where, static_cast<long long>(n));
    return true;
  };

  // Host backend: views of host memory (device = npgpu::kHostDevice).
  auto va = npgpu::make_contiguous_view(a.data(), npgpu::DType::Float32, 1, &n, npgpu::kHostDevice);
  auto vb = npgpu::make_contiguous_view(b.data(), npgpu::DType::Float32, 1, &n, npgpu::kHostDevice);
  auto vc = npgpu::make_contiguous_view(c.data(), npgpu::DType::Float32, 1, &n, npgpu::kHostDevice);
  npgpu::add(va, vb, vc, nullptr);
  if (!check("host backend")) return 1;

  // Bad input gets a typed exception, not a crash.
  try {
    std::int64_t m = 5;
    auto short_view = npgpu::make_contiguous_view(c.data(), npgpu::DType::Float32, 1, &m, npgpu::kHostDevice);
    npgpu::add(va, vb, short_view, nullptr);
    std::printf("expected a shape error\n");
    return 1;
  } catch (const npgpu::InvalidArgument& e) {
    std::printf("shape mismatch reported: %s\n", e.what());
  }

  if (npgpu::device_count() == 0) {
    std::printf("no GPU (%s): GPU part skipped\n", npgpu::unavailable_reason().c_str());
    return 0;
  }
  // GPU: device buffers from the stream-ordered pool, the same add, staged back.
  const int dev = 0;
  auto stream = npgpu::stream_create(dev, true, 0);
  {
    const std::int64_t bytes = n * static_cast<std::int64_t>(sizeof(float));
    npgpu::DeviceBuffer da(bytes, dev, stream), db(bytes, dev, stream), dc(bytes, dev, stream);
    npgpu::copy_bytes(da.data(), a.data(), bytes, stream);
    npgpu::copy_bytes(db.data(), b.data(), bytes, stream);
    npgpu::add(npgpu::make_contiguous_view(da.data(), npgpu::DType::Float32, 1, &n, dev),
               npgpu::make_contiguous_view(db.data(), npgpu::DType::Float32, 1, &n, dev),
               npgpu::make_contiguous_view(dc.data(), npgpu::DType::Float32, 1, &n, dev), stream);
    std::fill(c.begin(), c.end(), NAN);
    npgpu::copy_bytes(c.data(), dc.data(), bytes, stream);
    npgpu::stream_synchronize(stream);
    if (!check(npgpu::device_properties(dev).name.c_str())) return 1;
  }
  {
    // One cuFFT transform: the forward FFT of an impulse at position 1 is exp(-2 pi i k / 8).
    const std::int64_t m = 8;
    std::vector<std::complex<float>> x(m), y(m);
    x[1] = 1.0f;
    const std::int64_t bytes = m * static_cast<std::int64_t>(sizeof(x[0]));
    npgpu::DeviceBuffer dx(bytes, dev, stream), dy(bytes, dev, stream);
    npgpu::copy_bytes(dx.data(), x.data(), bytes, stream);
    const int axis = 0;
    npgpu::fft(npgpu::make_contiguous_view(dx.data(), npgpu::DType::Complex64, 1, &m, dev),
               npgpu::make_contiguous_view(dy.data(), npgpu::DType::Complex64, 1, &m, dev), &axis, 1,
               npgpu::FftKind::C2C, true, stream);
    npgpu::copy_bytes(y.data(), dy.data(), bytes, stream);
    npgpu::stream_synchronize(stream);
    for (std::int64_t k = 0; k < m; ++k)
      if (std::abs(y[k] - std::polar(1.0f, -2.0f * 3.14159265f * static_cast<float>(k) / m)) > 1e-5f) {
        std::printf("fft: mismatch at %lld\n", static_cast<long long>(k));
        return 1;
      }
    std::printf("fft: 8-point transform correct\n");
  }
  npgpu::stream_synchronize(stream);
  npgpu::stream_destroy(stream);
  return 0;
}
