"""``python -m npgpu demo diffusion``: 2-D heat diffusion, the Numba CUDA tutorial's "good example". Its jagged
initial field (built with an FFT as the tutorial does, through npgpu.fft: on the GPU when there is one),
``steps`` explicit diffusion steps with the Laplacian of the last step, a progress bar, the time per step, and
optionally the tutorial's 3-panel figure."""
import sys
import time

import numpy as np

import npgpu


def jagged_field(j, k, seed=3966789):
    """The diffusion tutorial's jagged initial image, built the same way (float64 there; float32 here, as its
    kernel), its transforms through npgpu.fft (NumPy in, NumPy out)."""
    from npgpu import fft

    r = np.random.default_rng(seed)
    field = r.random(size=(j, k), dtype=np.float32)
    field = fft.fftshift(fft.fft2(field))
    radius = 1 + np.sqrt((np.arange(j).reshape(-1, 1) - j // 2) ** 2 +
                         (np.arange(k).reshape(1, -1) - k // 2) ** 2)
    field = field * (radius ** -1.7)
    field = fft.ifft2(fft.ifftshift(field)) * (radius < 0.45 * j)
    field = field.real * (field.real > np.percentile(field.real, 70))
    return field.astype(np.float32)


class ProgressBar:
    """A plain-text progress bar on stderr (redrawn in place on a terminal, a few lines otherwise)."""

    def __init__(self, total, width=40, stream=sys.stderr):
        self.total, self.width, self.stream = max(total, 1), width, stream
        self.tty = hasattr(stream, "isatty") and stream.isatty()
        self.t0 = time.perf_counter()
        self._last_decile = -1

    def __call__(self, done, field=None):
        frac = min(done / self.total, 1.0)
        if not self.tty:
            decile = int(frac * 10)
            if decile == self._last_decile:
                return
            self._last_decile = decile
        n = int(frac * self.width)
        el = time.perf_counter() - self.t0
        line = f"[{'#' * n}{'.' * (self.width - n)}] {done:>{len(str(self.total))}}/{self.total} steps  {el:6.2f} s"
        self.stream.write(("\r" + line) if self.tty else line + "\n")
        if self.tty and done >= self.total:
            self.stream.write("\n")
        self.stream.flush()


def run(args):
    n = args.size if args.size is not None else 2000
    steps = args.steps
    if n < 1 or steps < 0:
        print("error: --size must be >= 1 and --steps >= 0", file=sys.stderr)
        return 2
    backend = npgpu.get_backend()
    where = (f"GPU {npgpu.Device(npgpu.get_device_id()).name}" if backend == "cuda"
             else f"host backend, {_threads()} ({npgpu.unavailable_reason() or 'chosen'})")
    print(f"npgpu demo diffusion: {n}x{n} float32 field, {steps} steps of field -= 0.25 * laplacian "
          f"(boundary {args.boundary!r}), Laplacian of the last step kept")
    print(f"running on: {where}")
    field = jagged_field(n, n)
    # Warm-up (CUDA initialisation, kernels loading) on a small field, outside the timing.
    npgpu.diffusion(field[:64, :64], 8, return_laplacian=True, boundary=args.boundary)
    bar = ProgressBar(steps)
    t = time.perf_counter()
    result, lap = npgpu.diffusion(field, steps, coeff=0.25, boundary=args.boundary, return_laplacian=True,
                                  callback=bar, callback_every=max(1, steps // 50))
    dt = time.perf_counter() - t
    if steps == 0:
        bar(0)
    per = dt / steps if steps else 0.0
    print(f"total {dt:.3f} s (NumPy in, NumPy out: transfers and progress callbacks included), "
          f"{per * 1e6:.2f} us per step, {n * n * steps / dt / 1e9 if dt > 0 else 0:.2f} G cell-updates/s")
    total0, total1 = float(field.sum(dtype=np.float64)), float(result.sum(dtype=np.float64))
    print(f"field total: {total0:.6g} -> {total1:.6g}; max {float(field.max()):.4g} -> {float(result.max()):.4g}")
    ok = bool(np.isfinite(result).all() and np.isfinite(lap).all())
    if args.plot:
        ok = _plot(args.plot, field, result, lap, steps) and ok
    return 0 if ok else 1


def _threads():
    try:
        import os

        return f"{len(os.sched_getaffinity(0))} CPU threads"
    except Exception:
        return "CPU"


def _plot(path, orig, field, lap, steps):
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("--plot needs matplotlib, which is not installed: pip install matplotlib", file=sys.stderr)
        return False
    f, ax = plt.subplots(1, 3, figsize=(12, 3.5))
    ax[0].imshow(orig)
    ax[0].set_title("Original image")
    ax[1].imshow(field)
    ax[1].set_title(f"{steps} iterations")
    ax[2].imshow(lap, cmap="inferno", vmin=np.percentile(lap, 5), vmax=np.percentile(lap, 95))
    ax[2].set_title("Laplacian")
    f.tight_layout()
    f.savefig(path, dpi=100)
    plt.close(f)
    print(f"figure written to {path}")
    return True
