"""Probe: a dense solve by random butterfly transformation (Parker 1995; Baboulin, Dongarra et al. 2013) and LU
without pivoting, then iterative refinement, against cuSOLVER's getrf + getrs with partial pivoting. Times each
stage with CUDA events and checks the backward error against NumPy in float64. Needs CuPy and the cuSOLVER wheel.

    python scripts/rbt_probe.py [--n 4096] [--nrhs 16]
"""

import argparse
import ctypes

import numpy as np
from cusolver_probe import R32, R64, c_i64, c_p, c_sz, load_cusolver
from cusolver_probe import timed as median_ms


def main():
    import cupy as cp
    from cupy_backends.cuda.libs import cublas

    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=4096)
    ap.add_argument("--nrhs", type=int, default=16)
    args = ap.parse_args()
    n, k = args.n, args.nrhs
    lib = load_cusolver()
    handle = c_p()
    assert lib.cusolverDnCreate(ctypes.byref(handle)) == 0
    lib.cusolverDnSetStream(handle, c_p(cp.cuda.get_current_stream().ptr))
    params = c_p()
    assert lib.cusolverDnCreateParams(ctypes.byref(params)) == 0
    bh = cp.cuda.device.get_cublas_handle()

    def timed(fn):
        return median_ms(fn, reps=5)

    rng = np.random.default_rng(7)
    for dt, code in ((np.float32, R32), (np.float64, R64)):
        one = np.array(1, dt)
        mone = np.array(-1, dt)
        gemm = cublas.sgemm if dt == np.float32 else cublas.dgemm
        trsm = cublas.strsm if dt == np.float32 else cublas.dtrsm
        eps = np.finfo(dt).eps

        def getrf(a, lda, m, piv):
            dbytes, hbytes = c_sz(), c_sz()
            assert lib.cusolverDnXgetrf_bufferSize(handle, params, c_i64(m), c_i64(m), code, c_p(a), c_i64(lda), code,
                                                   ctypes.byref(dbytes), ctypes.byref(hbytes)) == 0
            work = cp.empty(max(dbytes.value, 1), cp.uint8)
            hwork = ctypes.create_string_buffer(max(hbytes.value, 1))
            info = cp.zeros(1, cp.int32)
            st = lib.cusolverDnXgetrf(handle, params, c_i64(m), c_i64(m), code, c_p(a), c_i64(lda),
                                      c_p(piv.data.ptr if piv is not None else 0), code, c_p(work.data.ptr),
                                      c_sz(dbytes.value), hwork, c_sz(hbytes.value), c_p(info.data.ptr))
            return st, info

        def lu_blocked(a, leaf):
            # Right-looking LU without pivoting, panels of `leaf` columns: cuSOLVER on the diagonal block,
            # cuBLAS for the rest. a: F-order n x n.
            p = a.data.ptr
            isz = a.itemsize
            for j in range(0, n, leaf):
                w = min(leaf, n - j)
                d = p + (j + j * n) * isz
                getrf(d, n, w, None)
                r = n - j - w
                if r == 0:
                    break
                a12 = p + (j + (j + w) * n) * isz
                a21 = p + (j + w + j * n) * isz
                a22 = p + (j + w + (j + w) * n) * isz
                trsm(bh, 0, 0, 0, 1, w, r, one.ctypes.data, d, n, a12, n)  # U12 = L11^-1 A12
                trsm(bh, 1, 1, 0, 0, r, w, one.ctypes.data, d, n, a21, n)  # L21 = A21 U11^-1
                gemm(bh, 0, 0, r, r, w, mone.ctypes.data, a21, n, a12, n, one.ctypes.data, a22, n)

        def lu_recursive(a_ptr, m, leaf):
            if m <= leaf:
                getrf(a_ptr, n, m, None)
                return
            m1 = m // 2
            m2 = m - m1
            isz = np.dtype(dt).itemsize
            lu_recursive(a_ptr, m1, leaf)
            a12 = a_ptr + (m1 * n) * isz
            a21 = a_ptr + m1 * isz
            a22 = a_ptr + (m1 + m1 * n) * isz
            trsm(bh, 0, 0, 0, 1, m1, m2, one.ctypes.data, a_ptr, n, a12, n)
            trsm(bh, 1, 1, 0, 0, m2, m1, one.ctypes.data, a_ptr, n, a21, n)
            gemm(bh, 0, 0, m2, m2, m1, mone.ctypes.data, a21, n, a12, n, one.ctypes.data, a22, n)
            lu_recursive(a22, m2, leaf)

        a_h = rng.standard_normal((n, n))
        b_h = rng.standard_normal((n, k))
        a0 = cp.asarray(a_h.astype(dt), order="F")
        b0 = cp.asarray(b_h.astype(dt), order="F")
        piv = cp.empty(n, cp.int64)

        def backward(x):
            r = a_h @ cp.asnumpy(x).astype(np.float64) - b_h
            return float(np.max(np.abs(r).max(0) / (np.abs(a_h).sum(1).max() * np.abs(cp.asnumpy(x)).max(0))))

        # Reference: getrf with pivoting + getrs.
        def ref():
            a = a0.copy(order="F")
            b = b0.copy(order="F")
            st, info = getrf(a.data.ptr, n, n, piv)
            lib.cusolverDnXgetrs(handle, params, 0, c_i64(n), c_i64(k), code, c_p(a.data.ptr), c_i64(n),
                                 c_p(piv.data.ptr), code, c_p(b.data.ptr), c_i64(n), c_p(info.data.ptr))
            return b

        ms, x = timed(ref)
        print(f"{dt.__name__} n={n}: getrf(piv)+getrs {ms:.3f} ms, backward error {backward(x):.2e} "
              f"({backward(x) / eps:.1f} eps)")

        def nopiv_whole():
            a = a0.copy(order="F")
            st, info = getrf(a.data.ptr, n, n, None)
            return st

        ms, st = timed(nopiv_whole)
        print(f"  getrf without pivoting, whole matrix: {ms:.3f} ms (status {st})")
        for leaf in (128, 256, 512):
            ms, _ = timed(lambda: lu_blocked(a0.copy(order="F"), leaf))
            print(f"  blocked LU without pivoting, panel {leaf}: {ms:.3f} ms")
        for leaf in (128, 256, 512):
            ms, _ = timed(lambda: lu_recursive(a0.copy(order="F").data.ptr, n, leaf))
            print(f"  recursive LU without pivoting, leaf {leaf}: {ms:.3f} ms")

        # Random butterflies of depth 2: entries exp((u - 1/2) / 10), u uniform.
        def diag(m):
            return cp.asarray(np.exp((rng.random(m) - 0.5) / 10).astype(dt))

        u_d = [diag(n), diag(n)]  # level n: R0|R1 (n entries); level n/2: two butterflies, n entries
        v_d = [diag(n), diag(n)]
        s = dt(1 / np.sqrt(2))

        def bt_left(x, d, h):
            # rows: for blocks of 2h rows, (top, bot) -> (R0 (top + bot), R1 (top - bot)) / sqrt 2: B^T x
            m = x.shape[0]
            y = x.reshape(m // (2 * h), 2, h, -1)
            t, b_ = y[:, 0], y[:, 1]
            r = d.reshape(m // (2 * h), 2, h, 1)
            return cp.stack([r[:, 0] * (t + b_), r[:, 1] * (t - b_)], axis=1).reshape(x.shape) * s

        def b_left(x, d, h):
            # B x: (R0 top + R1 bot, R0 top - R1 bot) / sqrt 2
            m = x.shape[0]
            y = x.reshape(m // (2 * h), 2, h, -1)
            r = d.reshape(m // (2 * h), 2, h, 1)
            p, q = r[:, 0] * y[:, 0], r[:, 1] * y[:, 1]
            return cp.stack([p + q, p - q], axis=1).reshape(x.shape) * s

        def transform(a):
            # U^T A V, U = diag(U1, U2) U0, so U^T A = U0^T diag(U1, U2)^T A; A V = (A diag(V1, V2)) V0.
            a = bt_left(bt_left(a, u_d[1], n // 4), u_d[0], n // 2)
            at = bt_left(bt_left(cp.ascontiguousarray(a.T), v_d[1], n // 4), v_d[0], n // 2)
            return cp.asfortranarray(at.T)

        def solve_rbt(iters_max=5):
            ar = transform(a0)
            lu_recursive(ar.data.ptr, n, 256)
            ub = bt_left(bt_left(b0, u_d[1], n // 4), u_d[0], n // 2)

            def lu_solve(rhs):
                y = cp.asfortranarray(rhs)
                trsm(bh, 0, 0, 0, 1, n, k, one.ctypes.data, ar.data.ptr, n, y.data.ptr, n)
                trsm(bh, 0, 1, 0, 0, n, k, one.ctypes.data, ar.data.ptr, n, y.data.ptr, n)
                return b_left(b_left(y, v_d[0], n // 2), v_d[1], n // 4)

            x = lu_solve(ub)
            anorm = float(cp.abs(a0).sum(1).max())
            for its in range(iters_max + 1):  # noqa: B007 (its is returned)
                r = b0 - a0 @ x
                ok = bool(cp.all(cp.abs(r).max(0) <= cp.abs(x).max(0) * anorm * eps * np.sqrt(n)))
                if ok:
                    break
                x += lu_solve(bt_left(bt_left(r, u_d[1], n // 4), u_d[0], n // 2))
            return x, its

        ms, (x, its) = timed(solve_rbt)
        print(f"  RBT solve (CuPy butterflies, recursive LU leaf 256, refinement): {ms:.3f} ms, "
              f"{its} refinement steps, backward error {backward(x):.2e} ({backward(x) / eps:.1f} eps)")
        ms, _ = timed(lambda: transform(a0))
        print(f"    of which the transform of A (CuPy elementwise): {ms:.3f} ms")
        for cond_exp in (3, 6):
            uu, _ = np.linalg.qr(rng.standard_normal((n, n)))
            vv, _ = np.linalg.qr(rng.standard_normal((n, n)))
            sv = np.logspace(0, -cond_exp, n)
            a_h2 = (uu * sv) @ vv.T
            a_save, a0s = a_h, a0
            a_h, a0 = a_h2, cp.asarray(a_h2.astype(dt), order="F")
            xr = ref()
            x, its = solve_rbt(10)
            print(f"  cond 1e{cond_exp}: pivoted backward {backward(xr):.2e}, RBT {backward(x):.2e} after {its} steps")
            a_h, a0 = a_save, a0s


if __name__ == "__main__":
    main()
