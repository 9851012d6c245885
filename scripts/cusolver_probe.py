"""Time cuSOLVER routes for the linear algebra benchmarks' shapes on the GPU machine, outside npgpu: LU solve
(Xgetrf + Xgetrs with each getrf algorithm, and the mixed-precision iterative-refinement gesv routines) and
full SVD (Xgesvd, Xgesvdp, gesvdj), each with its accuracy. Needs CuPy (buffers, events) and
NVIDIA's cuSOLVER wheel.

    python scripts/cusolver_probe.py [--n 4096] [--nrhs 16] [--svd]
"""

import argparse
import ctypes
import glob
import os
import sys

import numpy as np


def load_cusolver():
    for d in sys.path:
        for path in sorted(glob.glob(os.path.join(d, "nvidia", "**", "libcusolver.so*"), recursive=True)):
            return ctypes.CDLL(path)
    return ctypes.CDLL("libcusolver.so.12")


R32, R64 = 0, 1
c_i64 = ctypes.c_int64
c_p = ctypes.c_void_p
c_sz = ctypes.c_size_t


def timed(fn, reps=3):
    """(median ms of fn() over reps calls after one warm-up, CUDA events on CuPy's stream; fn's last result)."""
    import cupy as cp

    fn()
    cp.cuda.Device().synchronize()
    out = []
    for _ in range(reps):
        s, e = cp.cuda.Event(), cp.cuda.Event()
        s.record()
        r = fn()
        e.record()
        e.synchronize()
        out.append(cp.cuda.get_elapsed_time(s, e))
    return float(np.median(out)), r


def main():
    import cupy as cp

    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=4096)
    ap.add_argument("--nrhs", type=int, default=16)
    ap.add_argument("--svd", action="store_true")
    args = ap.parse_args()
    lib = load_cusolver()
    handle = c_p()
    assert lib.cusolverDnCreate(ctypes.byref(handle)) == 0
    params = c_p()
    assert lib.cusolverDnCreateParams(ctypes.byref(params)) == 0

    n, k = args.n, args.nrhs
    rng = np.random.default_rng(7)
    for dt, code in ((np.float32, R32), (np.float64, R64)):
        a0 = cp.asarray(rng.standard_normal((n, n)).astype(dt), order="F")
        b0 = cp.asarray(rng.standard_normal((n, k)).astype(dt), order="F")

        def residual(x):
            a64, x64, b64 = (v.astype(cp.float64) for v in (a0, x, b0))
            return float(cp.linalg.norm(a64 @ x64 - b64) / (cp.linalg.norm(a64) * cp.linalg.norm(x64)))

        for alg in (0, 1):
            lib.cusolverDnSetAdvOptions(params, 0, alg)  # CUSOLVERDN_GETRF, CUSOLVER_ALG_<alg>
            dbytes, hbytes = c_sz(), c_sz()
            st = lib.cusolverDnXgetrf_bufferSize(handle, params, c_i64(n), c_i64(n), code, c_p(a0.data.ptr), c_i64(n),
                                                 code, ctypes.byref(dbytes), ctypes.byref(hbytes))
            if st:
                print(f"getrf alg {alg} {dt.__name__}: bufferSize status {st}")
                continue
            work = cp.empty(max(dbytes.value, 1), cp.uint8)
            hwork = ctypes.create_string_buffer(max(hbytes.value, 1))
            piv = cp.empty(n, cp.int64)
            info = cp.zeros(1, cp.int32)
            state = {}

            def run():
                a = a0.copy(order="F")
                b = b0.copy(order="F")
                st1 = lib.cusolverDnXgetrf(handle, params, c_i64(n), c_i64(n), code, c_p(a.data.ptr), c_i64(n),
                                           c_p(piv.data.ptr), code, c_p(work.data.ptr), c_sz(dbytes.value), hwork,
                                           c_sz(hbytes.value), c_p(info.data.ptr))
                st2 = lib.cusolverDnXgetrs(handle, params, 0, c_i64(n), c_i64(k), code, c_p(a.data.ptr), c_i64(n),
                                           c_p(piv.data.ptr), code, c_p(b.data.ptr), c_i64(n), c_p(info.data.ptr))
                state["st"] = (st1, st2)
                return b

            ms, x = timed(run)
            print(f"getrf+getrs alg {alg} {dt.__name__} n={n} nrhs={k}: {ms:.3f} ms (copies of A and B included), "
                  f"status {state['st']}, residual {residual(x):.2e}")
        lib.cusolverDnSetAdvOptions(params, 0, 0)

        prefix = "S" if dt == np.float32 else "D"
        for low in (prefix, "X", "H", "B") if prefix == "S" else ("D", "S", "X", "H", "B"):
            name = f"cusolverDn{prefix}{low}gesv"
            fn = getattr(lib, name, None)
            if fn is None:
                print(name, "missing")
                continue
            ipiv = cp.empty(n, cp.int32)
            x = cp.empty((n, k), dt, order="F")
            lw = c_sz()
            a = a0.copy(order="F")
            b = b0.copy(order="F")
            st = getattr(lib, name + "_bufferSize")(handle, n, k, c_p(a.data.ptr), n, c_p(ipiv.data.ptr),
                                                    c_p(b.data.ptr), n, c_p(x.data.ptr), n, None, ctypes.byref(lw))
            if st:
                print(f"{name}: bufferSize status {st}")
                continue
            work = cp.empty(max(lw.value, 1), cp.uint8)
            info = cp.zeros(1, cp.int32)
            iters = ctypes.c_int(0)
            state = {}

            def run_irs():
                a = a0.copy(order="F")
                state["st"] = fn(handle, n, k, c_p(a.data.ptr), n, c_p(ipiv.data.ptr), c_p(b0.data.ptr), n,
                                 c_p(x.data.ptr), n, c_p(work.data.ptr), c_sz(lw.value), ctypes.byref(iters),
                                 c_p(info.data.ptr))
                return x

            ms, xr = timed(run_irs)
            print(f"{name} n={n} nrhs={k}: {ms:.3f} ms (copy of A included), status {state['st']}, iterations "
                  f"{iters.value}, info {int(info[0])}, residual {residual(xr):.2e}")

    if not args.svd:
        return
    m = n
    a0 = cp.asarray(rng.standard_normal((m, n)).astype(np.float32), order="F")
    a64 = a0.astype(cp.float64)

    def quality(u, s, vt):
        u, s, vt = (v.astype(cp.float64) for v in (u, s, vt))
        rec = float(cp.linalg.norm(a64 - (u * s) @ vt) / cp.linalg.norm(a64))
        orth = max(float(cp.abs(u.T @ u - cp.eye(u.shape[1])).max()),
                   float(cp.abs(vt @ vt.T - cp.eye(vt.shape[0])).max()))
        return rec, orth

    s = cp.empty(n, cp.float32)
    u = cp.empty((m, m), cp.float32, order="F")
    vt = cp.empty((n, n), cp.float32, order="F")
    info = cp.zeros(1, cp.int32)
    dbytes, hbytes = c_sz(), c_sz()
    st = lib.cusolverDnXgesvd_bufferSize(handle, params, ctypes.c_byte(ord("A")), ctypes.c_byte(ord("A")), c_i64(m),
                                         c_i64(n), R32, c_p(a0.data.ptr), c_i64(m), R32, c_p(s.data.ptr), R32,
                                         c_p(u.data.ptr), c_i64(m), R32, c_p(vt.data.ptr), c_i64(n), R32,
                                         ctypes.byref(dbytes), ctypes.byref(hbytes))
    work = cp.empty(max(dbytes.value, 1), cp.uint8)
    hwork = ctypes.create_string_buffer(max(hbytes.value, 1))

    def run_gesvd():
        a = a0.copy(order="F")
        lib.cusolverDnXgesvd(handle, params, ctypes.c_byte(ord("A")), ctypes.c_byte(ord("A")), c_i64(m), c_i64(n),
                             R32, c_p(a.data.ptr), c_i64(m), R32, c_p(s.data.ptr), R32, c_p(u.data.ptr), c_i64(m), R32,
                             c_p(vt.data.ptr), c_i64(n), R32, c_p(work.data.ptr), c_sz(dbytes.value), hwork,
                             c_sz(hbytes.value), c_p(info.data.ptr))

    ms, _ = timed(run_gesvd, reps=1)
    print(f"Xgesvd {m}x{n} float32: {ms:.1f} ms, status {st}, info {int(info[0])}, rec/orth {quality(u, s, vt)}")

    v = cp.empty((n, n), cp.float32, order="F")
    for econ in (0,):
        st = lib.cusolverDnXgesvdp_bufferSize(handle, params, 1, econ, c_i64(m), c_i64(n), R32, c_p(a0.data.ptr),
                                              c_i64(m), R32, c_p(s.data.ptr), R32, c_p(u.data.ptr), c_i64(m), R32,
                                              c_p(v.data.ptr), c_i64(n), R32, ctypes.byref(dbytes),
                                              ctypes.byref(hbytes))
        work = cp.empty(max(dbytes.value, 1), cp.uint8)
        hwork = ctypes.create_string_buffer(max(hbytes.value, 1))
        err = ctypes.c_double(0)

        def run_gesvdp():
            a = a0.copy(order="F")
            return lib.cusolverDnXgesvdp(handle, params, 1, econ, c_i64(m), c_i64(n), R32, c_p(a.data.ptr), c_i64(m),
                                         R32, c_p(s.data.ptr), R32, c_p(u.data.ptr), c_i64(m), R32, c_p(v.data.ptr),
                                         c_i64(n), R32, c_p(work.data.ptr), c_sz(dbytes.value), hwork,
                                         c_sz(hbytes.value), c_p(info.data.ptr), ctypes.byref(err))

        ms, st2 = timed(run_gesvdp, reps=1)
        print(f"Xgesvdp econ={econ} {m}x{n} float32: {ms:.1f} ms, status {st}/{st2}, info {int(info[0])}, "
              f"err_sigma {err.value:.2e}, rec/orth {quality(u, s, v.T)}")

    gj = c_p()
    lib.cusolverDnCreateGesvdjInfo(ctypes.byref(gj))
    lwork = ctypes.c_int(0)
    st = lib.cusolverDnSgesvdj_bufferSize(handle, 1, 0, m, n, c_p(a0.data.ptr), m, c_p(s.data.ptr), c_p(u.data.ptr), m,
                                          c_p(v.data.ptr), n, ctypes.byref(lwork), gj)
    work = cp.empty(max(lwork.value, 1), cp.float32)

    def run_gesvdj():
        a = a0.copy(order="F")
        return lib.cusolverDnSgesvdj(handle, 1, 0, m, n, c_p(a.data.ptr), m, c_p(s.data.ptr), c_p(u.data.ptr), m,
                                     c_p(v.data.ptr), n, c_p(work.data.ptr), lwork, c_p(info.data.ptr), gj)

    ms, st2 = timed(run_gesvdj, reps=1)
    print(f"Sgesvdj {m}x{n} float32: {ms:.1f} ms, status {st}/{st2}, info {int(info[0])}, "
          f"rec/orth {quality(u, s, v.T)}")


if __name__ == "__main__":
    main()
