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

    def host_us(fn, reps=20000):
        import time
        for _ in range(200):
            fn()
        torch.cuda.synchronize()
        runs = []
        for _ in range(5):
            t = time.perf_counter()
            for _ in range(reps // 5):
                fn()
            runs.append((time.perf_counter() - t) / (reps // 5) * 1e6)
            torch.cuda.synchronize()
        return float(np.median(runs))

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
            small = npgpu.asarray(xc[0, :1024].copy())
            for name, fn in (("npgpu.fft.fft 1024", lambda: npgpu.fft.fft(small)),
                             ("npgpu._fft.direct_c2c 1024", lambda: _fft.direct_c2c(small, None, -1, None, None, True)),
                             ("npgpu._fft.c2c 1024", lambda: _fft.c2c(small, (0,), True)),
                             ("npgpu.multiply 1024 (a launch's host cost)", lambda: npgpu.multiply(small, 2))):
                print(f"{name}: host cost {host_us(fn):.2f} us")
        for name, fn in cases.items():
            print(f"{name}: {timed(fn):.4f} ms")
        # PyTorch may return its composed transforms in a permuted layout (the last step's axis innermost)
        for name, fn in (("torch rfft2", lambda: torch.fft.rfft2(tr)),
                         ("torch fft dim 0", lambda: torch.fft.fft(tc, dim=0))):
            r = fn()
            print(f"{name}: output strides {tuple(r.stride())}, contiguous {r.is_contiguous()}")


if __name__ == "__main__":
    main()
