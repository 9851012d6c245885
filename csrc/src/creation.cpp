// Argument checks and dispatch of the creation functions that compute values (arange_fill).
#include "npgpu/creation.hpp"

#include "common/creation_backends.hpp"
#include "npgpu/errors.hpp"

namespace npgpu {

void arange_fill(const ArrayView& out, const Scalar& start, const Scalar& delta, StreamHandle stream) {
  if (!out.is_c_contiguous()) throw InvalidArgument("arange_fill: the output must be C-contiguous, got " +
                                                    out.describe());
  if (out.readonly) throw InvalidArgument("arange_fill: the output is read-only");
  if (out.size() == 0) return;
  if (out.on_host()) {
    host::arange_fill(out, start, delta, stream);
  } else {
    activate_device(out.device);
    cuda::arange_fill(out, start, delta, stream);
  }
}

}  // namespace npgpu
