"""Time the FFT benchmarks' transforms in CuPy and PyTorch on the GPU machine, and the ways of composing them
from 1-D cuFFT plans, to see which plan shapes npgpu's rfft2 and axis-0 transforms should use.

    python scripts/fft_probe.py
"""

import numpy as np


def main():
    import cupy as cp
    import torch

    def timed(fn, reps=20):
        for _ in range(3):
            fn()
        cp.cuda.Device().synchronize()
        torch.cuda.synchronize()
        out = []
        for _ in range(reps):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            fn()
            e.record()
            e.synchronize()
            out.append(s.elapsed_time(e))
        return float(np.median(out))

    n = 4096
    rng = np.random.default_rng(3)
    xr = rng.standard_normal((n, n)).astype(np.float32)
    xc = (xr + 1j * rng.standard_normal((n, n))).astype(np.complex64)
    with torch.cuda.stream(torch.cuda.default_stream()):
        tr, tc = torch.from_numpy(xr).cuda(), torch.from_numpy(xc).cuda()
        cr, cc = cp.asarray(xr), cp.asarray(xc)
        cases = {
            "torch rfft2": lambda: torch.fft.rfft2(tr),
            "cupy rfft2": lambda: cp.fft.rfft2(cr),
            "cupy rfft last + fft axis 0": lambda: cp.fft.fft(cp.fft.rfft(cr, axis=1), axis=0),
            "torch rfft last + fft dim 0": lambda: torch.fft.fft(torch.fft.rfft(tr, dim=1), dim=0),
            "torch fft dim 1": lambda: torch.fft.fft(tc, dim=1),
            "torch fft dim 0": lambda: torch.fft.fft(tc, dim=0),
            "cupy fft axis 1": lambda: cp.fft.fft(cc, axis=1),
            "cupy fft axis 0": lambda: cp.fft.fft(cc, axis=0),
            "torch fft2": lambda: torch.fft.fft2(tc),
            "cupy fft2": lambda: cp.fft.fft2(cc),
        }
        try:
            import npgpu
            from npgpu import _fft
        except ImportError:
            npgpu = None
        if npgpu is not None:
            xr_d = npgpu.asarray(xr)
            cases["npgpu r2c over both axes (one 2-D plan)"] = lambda: _fft.r2c(xr_d, (0, 1))
            cases["npgpu r2c last + c2c axis 0"] = lambda: _fft.c2c(_fft.r2c(xr_d, (1,)), (0,), True)
        for name, fn in cases.items():
            print(f"{name}: {timed(fn):.4f} ms")


if __name__ == "__main__":
    main()
