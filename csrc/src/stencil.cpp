// 2-D stencils: argument checks, the double-buffering plan of diffusion, then the host or CUDA backend by the
// views' device. The backends only ever see C-contiguous buffers: strided inputs and outputs go through
// scratch copies here.
#include "npgpu/stencil.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>

#include "common/backends.hpp"
#include "common/stencil_ops.hpp"
#include "npgpu/errors.hpp"
#include "npgpu/memory.hpp"

namespace npgpu {

const char* boundary_name(Boundary b) {
  switch (b) {
    case Boundary::Zero: return "zero";
    case Boundary::Periodic: return "periodic";
    case Boundary::Reflect: return "reflect";
  }
  return "unknown";
}

namespace {

void check_boundary(Boundary b, const char* what) {
  if (b != Boundary::Zero && b != Boundary::Periodic && b != Boundary::Reflect)
    throw InvalidArgument(std::string(what) + ": unknown boundary code " + std::to_string(static_cast<int>(b)));
}

void check_field(const ArrayView& v, const char* what, const char* role) {
  if (v.dtype != DType::Float32 && v.dtype != DType::Float64)
    throw TypeError(std::string(what) + ": " + role + " must be float32 or float64, not " + dtype_name(v.dtype));
  if (v.ndim != 2)
    throw InvalidArgument(std::string(what) + ": " + role + " must be 2-D, got " + v.describe());
  if (v.size() > 0 && v.data == nullptr) throw InvalidArgument(std::string(what) + ": " + role + " has no data");
}

void check_like(const ArrayView& field, const ArrayView& v, const char* what, const char* role) {
  check_field(v, what, role);
  if (v.dtype != field.dtype)
    throw TypeError(std::string(what) + ": " + role + " " + v.describe() + " must have the field's dtype " +
                    dtype_name(field.dtype));
  if (v.shape[0] != field.shape[0] || v.shape[1] != field.shape[1])
    throw InvalidArgument(std::string(what) + ": " + role + " " + v.describe() + " does not match the field " +
                          field.describe());
  if (v.device != field.device)
    throw InvalidArgument(std::string(what) + ": " + role + " " + v.describe() + " is not on the field's device (" +
                          field.describe() + ")");
  if (v.readonly) throw InvalidArgument(std::string(what) + ": " + role + " is read-only");
}

// [lo, hi) byte range a view touches.
void extent(const ArrayView& v, std::intptr_t* lo, std::intptr_t* hi) {
  std::intptr_t a = reinterpret_cast<std::intptr_t>(v.data), b = a;
  for (int d = 0; d < v.ndim; ++d) {
    if (v.shape[d] == 0) {
      *lo = *hi = a;
      return;
    }
    const std::intptr_t span = static_cast<std::intptr_t>(v.strides[d] * (v.shape[d] - 1));
    if (span > 0) b += span;
    else a += span;
  }
  *lo = a;
  *hi = b + static_cast<std::intptr_t>(itemsize(v.dtype));
}

bool overlaps(const ArrayView& x, const ArrayView& y) {
  std::intptr_t a0, a1, b0, b1;
  extent(x, &a0, &a1);
  extent(y, &b0, &b1);
  return a0 < b1 && b0 < a1;
}

bool same_elements(const ArrayView& x, const ArrayView& y) {
  if (x.data != y.data) return false;
  for (int d = 0; d < 2; ++d)
    if (x.shape[d] > 1 && x.strides[d] != y.strides[d]) return false;
  return true;
}

// Scratch memory: from the device's stream-ordered pool, or host memory.
class Scratch {
 public:
  Scratch() = default;
  void allocate(std::int64_t nbytes, int device, StreamHandle s) {
    if (device == kHostDevice) host_.reset(new double[(nbytes + 7) / 8]);
    else dev_ = std::make_unique<DeviceBuffer>(nbytes, device, s);
  }
  void* data() const { return host_ ? static_cast<void*>(host_.get()) : (dev_ ? dev_->data() : nullptr); }

 private:
  std::unique_ptr<double[]> host_;
  std::unique_ptr<DeviceBuffer> dev_;
};

ArrayView contiguous(void* p, const ArrayView& like, bool readonly = false) {
  ArrayView v = make_contiguous_view(p, like.dtype, 2, like.shape, like.device);
  v.readonly = readonly;
  return v;
}

void backend_copy(const ArrayView& src, const ArrayView& dst, StreamHandle s) {
  if (dst.on_host()) host::copy(src, dst, s);
  else cuda::copy(src, dst, s);
}

void backend_pass(const ArrayView& like, const void* src, void* dst, void* lap, int m, double coeff, Boundary b,
                  StreamHandle s) {
  if (like.on_host())
    host::diffusion_pass(src, dst, lap, like.dtype, like.shape[0], like.shape[1], m, coeff, b, s);
  else
    cuda::diffusion_pass(src, dst, lap, like.dtype, like.shape[0], like.shape[1], m, coeff, b, s);
}

}  // namespace

void laplacian(const ArrayView& field, const ArrayView& out, Boundary boundary, StreamHandle stream) {
  const char* what = "laplacian";
  check_boundary(boundary, what);
  check_field(field, what, "field");
  check_like(field, out, what, "out");
  if (field.size() == 0) return;
  if (overlaps(field, out)) throw InvalidArgument("laplacian: out overlaps the field");
  const int dev = field.device;
  if (dev != kHostDevice) activate_device(dev);
  const std::int64_t nbytes = field.nbytes();
  Scratch in_copy, out_copy;
  const void* src = field.data;
  if (!field.is_c_contiguous()) {
    in_copy.allocate(nbytes, dev, stream);
    backend_copy(field, contiguous(in_copy.data(), field), stream);
    src = in_copy.data();
  }
  void* dst = out.data;
  if (!out.is_c_contiguous()) {
    out_copy.allocate(nbytes, dev, stream);
    dst = out_copy.data();
  }
  backend_pass(field, src, nullptr, dst, 0, 0.0, boundary, stream);
  if (dst != out.data) backend_copy(contiguous(dst, field, true), out, stream);
}

std::int64_t diffusion(const ArrayView& field, const ArrayView& out, const ArrayView* laplacian_out,
                       std::int64_t steps, double coeff, Boundary boundary, StreamHandle stream,
                       const DiffusionCallback* callback) {
  const char* what = "diffusion";
  check_boundary(boundary, what);
  check_field(field, what, "field");
  check_like(field, out, what, "out");
  if (laplacian_out) check_like(field, *laplacian_out, what, "laplacian_out");
  if (steps < 0) throw InvalidArgument("diffusion: steps must be >= 0, got " + std::to_string(steps));
  if (!std::isfinite(coeff)) throw InvalidArgument("diffusion: coeff must be finite");
  const bool in_place = same_elements(field, out);
  if (!in_place && overlaps(field, out))
    throw InvalidArgument("diffusion: out overlaps the field (out may be the field itself, element for element)");
  if (laplacian_out && (overlaps(*laplacian_out, field) || overlaps(*laplacian_out, out)))
    throw InvalidArgument("diffusion: laplacian_out overlaps the field or out");
  if (field.size() == 0) return steps;
  const int dev = field.device;
  if (dev != kHostDevice) activate_device(dev);

  if (steps == 0) {
    if (laplacian_out) laplacian(field, *laplacian_out, boundary, stream);
    if (!in_place) backend_copy(field, out, stream);
    return 0;
  }

  // The plan: passes of at most K steps each (the CUDA backend does several steps per pass over memory), cut
  // at callback points: chunks of `every` steps (the last one shorter), each cut into passes. Pass p reads
  // buf[(p-1) % 2] (the field itself for p = 1) and writes buf[p % 2]. Walked, never stored: memory does not
  // grow with steps.
  const std::int64_t K = std::max(1, field.on_host()
                                         ? host::max_steps_per_pass(field.dtype, field.shape[0], field.shape[1], steps)
                                         : cuda::max_steps_per_pass(field.dtype, field.shape[0], field.shape[1], steps));
  const bool has_cb = callback && callback->fn && callback->every > 0;
  const bool polled = callback && callback->interrupted;
  const std::int64_t every = has_cb ? callback->every : steps;
  const auto passes = [K](std::int64_t n) { return n > 0 ? (n - 1) / K + 1 : 0; };  // no overflow near 2^63
  const std::int64_t P = (steps / every) * passes(every) + passes(steps % every);

  // buf[P % 2] is out itself when out is C-contiguous, so the last pass writes the result in place.
  const std::int64_t nbytes = field.nbytes();
  const bool out_direct = out.is_c_contiguous();
  Scratch scratch[2], lap_scratch;
  void* buf[2] = {nullptr, nullptr};
  auto buffer = [&](int i) -> void* {
    if (!buf[i]) {
      if (out_direct && i == static_cast<int>(P % 2)) {
        buf[i] = out.data;
      } else {
        scratch[i].allocate(nbytes, dev, stream);
        buf[i] = scratch[i].data();
      }
    }
    return buf[i];
  };
  // f[0]: the field itself when it is contiguous and not the buffer pass 1 writes.
  const void* src0 = field.data;
  if (!field.is_c_contiguous() || (in_place && out_direct && P % 2 == 1)) {
    backend_copy(field, contiguous(buffer(0), field), stream);
    src0 = buffer(0);
  }
  void* lap = nullptr;
  if (laplacian_out) {
    if (laplacian_out->is_c_contiguous()) {
      lap = laplacian_out->data;
    } else {
      lap_scratch.allocate(nbytes, dev, stream);
      lap = lap_scratch.data();
    }
  }

  std::int64_t done = 0, p = 0;
  auto polled_at = std::chrono::steady_clock::now();
  while (done < steps) {
    for (std::int64_t left = std::min(every, steps - done); left > 0;) {
      ++p;
      const void* src = p == 1 ? src0 : buffer(static_cast<int>((p - 1) % 2));
      void* dst = buffer(static_cast<int>(p % 2));
      const int m = static_cast<int>(std::min(K, left));
      backend_pass(field, src, dst, p == P ? lap : nullptr, m, coeff, boundary, stream);
      done += m;
      left -= m;
      bool go_on = true;
      if (left == 0 && has_cb) {
        if (dev != kHostDevice) stream_synchronize(stream);
        go_on = callback->fn(done, contiguous(dst, field, true), callback->user);
        if (dev != kHostDevice) activate_device(dev);
      }
      if (go_on && polled && done < steps) {
        const auto now = std::chrono::steady_clock::now();
        if (now - polled_at >= std::chrono::milliseconds(50)) {
          polled_at = now;
          go_on = !callback->interrupted(callback->user);
        }
      }
      if (!go_on) {
        if (dst != out.data) backend_copy(contiguous(dst, field, true), out, stream);
        return done;
      }
    }
  }
  void* result = buffer(static_cast<int>(P % 2));
  if (result != out.data) backend_copy(contiguous(result, field, true), out, stream);
  if (lap && lap != laplacian_out->data) backend_copy(contiguous(lap, field, true), *laplacian_out, stream);
  return done;
}

}  // namespace npgpu
