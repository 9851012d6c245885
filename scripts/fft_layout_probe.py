"""Time cuFFT plan layouts for rfft2 and axis-0 transforms of 4096^2 directly (ctypes on libcufft), on the
GPU machine with CuPy for the arrays: does a route through a transposed intermediate reach PyTorch's rfft2
while returning NumPy's C-contiguous layout?

    python scripts/fft_layout_probe.py
"""
import ctypes
import glob
import os
import sys

import numpy as np


def load_cufft():
    for p in sys.path:
        for f in sorted(glob.glob(os.path.join(p, "nvidia", "**", "libcufft.so*"), recursive=True)):
            return ctypes.CDLL(f)
    return ctypes.CDLL("libcufft.so")


def main():
    import cupy as cp
    lib = load_cufft()
    R2C, C2C, FORWARD = 0x2a, 0x29, -1

    def plan(n, inembed, istride, idist, onembed, ostride, odist, kind, batch):
        h = ctypes.c_int()
        arr = lambda v: (ctypes.c_int * 1)(v)  # noqa: E731
        rc = lib.cufftPlanMany(ctypes.byref(h), 1, arr(n), arr(inembed), istride, idist, arr(onembed), ostride,
                               odist, kind, batch)
        assert rc == 0, rc
        return h

    def r2c(h, x, y):
        assert lib.cufftExecR2C(h, ctypes.c_void_p(x.data.ptr), ctypes.c_void_p(y.data.ptr)) == 0

    def c2c(h, x, y):
        assert lib.cufftExecC2C(h, ctypes.c_void_p(x.data.ptr), ctypes.c_void_p(y.data.ptr), FORWARD) == 0

    def timed(fn, reps=30):
        for _ in range(3):
            fn()
        s, e = cp.cuda.Event(), cp.cuda.Event()
        out = []
        for _ in range(reps):
            s.record()
            fn()
            e.record()
            e.synchronize()
            out.append(cp.cuda.get_elapsed_time(s, e))
        return float(np.median(out))

    n, h = 4096, 4096 // 2 + 1
    rng = np.random.default_rng(3)
    xr = cp.asarray(rng.standard_normal((n, n)).astype(np.float32))
    xc = cp.asarray((rng.standard_normal((n, n)) + 1j * rng.standard_normal((n, n))).astype(np.complex64))
    ref = cp.fft.rfft2(xr)
    t = cp.empty((h, n), cp.complex64)
    y = cp.empty((n, h), cp.complex64)
    y2 = cp.empty((n, h), cp.complex64)
    # route T: rows' R2C written transposed (k1-major), then C2C of contiguous rows written back transposed
    p1 = plan(n, n, 1, n, h, n, 1, R2C, n)
    p2 = plan(n, n, 1, n, n, h, 1, C2C, h)
    # route S: rows' R2C contiguous, then C2C over axis 0 read strided (what composing 1-D plans gives)
    q1 = plan(n, n, 1, n, h, 1, h, R2C, n)
    q2 = plan(n, n, h, 1, n, h, 1, C2C, h)

    def route_t():
        r2c(p1, xr, t)
        c2c(p2, t, y)

    def route_s():
        r2c(q1, xr, y2)
        c2c(q2, y2, y2)

    route_t()
    route_s()
    scale = float(cp.abs(ref).max())
    print(f"route T max error / max |X| {float(cp.abs(y - ref).max()) / scale:.2e}")
    print(f"route S max error / max |X| {float(cp.abs(y2 - ref).max()) / scale:.2e}")
    print(f"cupy rfft2 (one 2-D plan)        {timed(lambda: cp.fft.rfft2(xr)):.4f} ms")
    print(f"route T: R2C transposed + C2C transposed back {timed(route_t):.4f} ms")
    print(f"  T step 1 alone                  {timed(lambda: r2c(p1, xr, t)):.4f} ms")
    print(f"  T step 2 alone                  {timed(lambda: c2c(p2, t, y)):.4f} ms")
    print(f"route S: R2C + strided C2C in place {timed(route_s):.4f} ms")
    print(f"  S step 1 alone                  {timed(lambda: r2c(q1, xr, y2)):.4f} ms")
    # axis 0 of a complex 4096^2 array
    z = cp.empty((n, n), cp.complex64)
    zt = cp.empty((n, n), cp.complex64)
    a_last = plan(n, n, 1, n, n, 1, n, C2C, n)
    a0 = plan(n, n, n, 1, n, n, 1, C2C, n)
    a0_tr_out = plan(n, n, n, 1, n, 1, n, C2C, n)  # strided read, contiguous (transposed) write
    a0_tr_in = plan(n, n, 1, n, n, n, 1, C2C, n)   # contiguous read, strided (transposed) write
    last = timed(lambda: c2c(a_last, xc, z))
    print(f"last axis                         {last:.4f} ms")
    for name, p in (("axis 0 strided in and out", a0), ("axis 0 strided in, transposed out", a0_tr_out),
                    ("contiguous in, transposed out", a0_tr_in)):
        ms = timed(lambda: c2c(p, xc, zt))
        print(f"{name:34s}{ms:.4f} ms ({ms / last:.2f}x)")
    print(f"transpose copy 4096^2 c64         {timed(lambda: cp.ascontiguousarray(xc.T)):.4f} ms")


if __name__ == "__main__":
    main()
