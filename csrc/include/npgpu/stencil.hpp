#pragma once
// 2-D stencils: the 5-point Laplacian and explicit diffusion (field -= coeff * laplacian, repeated).
// Fields are 2-D float32 or float64 views, on the host (host backend, OpenMP) or all on one device.
#include <cstdint>

#include "npgpu/export.hpp"
#include "npgpu/runtime.hpp"
#include "npgpu/view.hpp"

namespace npgpu {

// What lies beyond the edges of the field.
enum class Boundary : int {
  Zero = 0,      // cells outside the field are 0 (heat leaks out)
  Periodic = 1,  // the field wraps around
  Reflect = 2,   // the ghost beyond each edge equals the edge cell (NumPy pad mode "edge"): total conserved
};

NPGPU_API const char* boundary_name(Boundary b);

// out = 4 * field - (sum of the 4 neighbours), neighbours outside the field taken from `boundary`.
// field and out: 2-D, same shape and dtype (float32 or float64), any strides; out must not overlap field.
NPGPU_API void laplacian(const ArrayView& field, const ArrayView& out, Boundary boundary, StreamHandle stream);

// Called between chunks of `every` steps with the number of steps done so far and a read-only, C-contiguous
// view of the current field (device memory for device fields; valid only during the call; the stream has
// been synchronised). Return false to stop early.
struct DiffusionCallback {
  bool (*fn)(std::int64_t steps_done, const ArrayView& field, void* user) = nullptr;
  void* user = nullptr;
  std::int64_t every = 0;  // <= 0: never called
  // Polled between passes (a few times a second): true stops the run, so Ctrl-C reaches a long call.
  bool (*interrupted)(void* user) = nullptr;
};

// `steps` explicit diffusion steps, each computed from the previous field only (double buffering):
//   f[k+1] = f[k] - coeff * laplacian(f[k]).
// out receives f[steps]; out may be field itself (in place) but must not overlap it otherwise. When
// laplacian_out is given it receives laplacian(f[steps-1]), the Laplacian the last step used (for steps == 0,
// the input's). All views 2-D of one shape and dtype (float32 or float64), on the host or on one device; any
// strides. coeff must be finite; the scheme is stable for 0 <= coeff <= 0.25 (the Python layer enforces it,
// this function does not). The device path runs every step on `stream` without host synchronisation
// (except around callbacks); scratch memory comes from the stream-ordered pool. Returns the number of steps
// done (steps, unless the callback stopped the run; laplacian_out is then not written).
NPGPU_API std::int64_t diffusion(const ArrayView& field, const ArrayView& out, const ArrayView* laplacian_out,
                                 std::int64_t steps, double coeff, Boundary boundary, StreamHandle stream,
                                 const DiffusionCallback* callback = nullptr);

}  // namespace npgpu
