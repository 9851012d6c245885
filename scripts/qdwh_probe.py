"""The SVD through the QDWH polar decomposition and a symmetric eigensolver (Nakatsukasa and Higham, SIAM J. Sci.
Comput. 35(3), 2013), written in CuPy to time it and check its accuracy against gesvd before npgpu builds it
from its own primitives (run on a GPU machine).

    python scripts/qdwh_probe.py [--n 4096]
"""
import argparse
import math
import time

import numpy as np


def qdwh_weights(low):
    """(a, b, c) of the dynamically weighted Halley step for the lower bound `low` of the singular values."""
    l2 = low * low
    d = (4.0 * (1.0 - l2) / (l2 * l2)) ** (1.0 / 3.0)
    sd = math.sqrt(1.0 + d)
    a = sd + 0.5 * math.sqrt(8.0 - 4.0 * d + 8.0 * (2.0 - l2) / (l2 * sd))
    b = (a - 1.0) ** 2 / 4.0
    c = a + b - 1.0
    return a, b, c


def polar(cp, solve_triangular, a, eps, l0):
    n = a.shape[1]
    alpha = float(cp.linalg.norm(a))  # the Frobenius norm bounds the 2-norm from above
    x = a / alpha
    ident = cp.eye(n, dtype=a.dtype)
    low = l0
    steps = []
    for _ in range(20):
        wa, wb, wc = qdwh_weights(low)
        prev = x
        if wc > 100:
            q, _ = cp.linalg.qr(cp.concatenate([math.sqrt(wc) * x, ident]))
            x = (wb / wc) * x + ((wa - wb / wc) / math.sqrt(wc)) * (q[: a.shape[0]] @ q[a.shape[0]:].T)
            steps.append("qr")
        else:
            w = cp.linalg.cholesky(ident + wc * (x.T @ x))  # lower: Z = W W^T
            # x W^-T W^-1 = (W^-T (W^-1 x^T))^T
            y = solve_triangular(w, x.T, lower=True)
            y = solve_triangular(w, y, lower=True, trans="T")
            x = (wb / wc) * x + (wa - wb / wc) * y.T
            steps.append("chol")
        low = low * (wa + wb * low * low) / (1 + wc * low * low)
        if abs(1 - low) < 10 * eps and float(cp.linalg.norm(x - prev)) < eps ** (1 / 3):
            break
    return x, steps


def main():
    import cupy as cp
    from cupyx.scipy.linalg import solve_triangular

    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=4096)
    args = ap.parse_args()
    n = args.n
    rng = np.random.default_rng(5)
    cases = {"gaussian": rng.standard_normal((n, n))}
    q1, _ = np.linalg.qr(rng.standard_normal((n, n)))
    q2, _ = np.linalg.qr(rng.standard_normal((n, n)))
    cases["sigma 1..1e-6"] = (q1 * np.logspace(0, -6, n)) @ q2.T
    s = np.logspace(0, -3, n)
    s[-3:] = 0
    cases["rank n-3"] = (q1 * s) @ q2.T
    for name, h in cases.items():
        a = cp.asarray(h.astype(np.float32))
        a64 = cp.asarray(h)
        eps = float(np.finfo(np.float32).eps) / 2
        for _ in range(2):  # the second run is timed
            cp.cuda.Device().synchronize()
            t0 = time.perf_counter()
            up, steps = polar(cp, solve_triangular, a, eps, 1e-6)
            hm = up.T @ a
            hm = (hm + hm.T) / 2
            w, v = cp.linalg.eigh(hm)
            u = up @ v
            cp.cuda.Device().synchronize()
            t = (time.perf_counter() - t0) * 1e3
        u64, w64, v64 = (z.astype(cp.float64) for z in (u, w, v))
        rec = float(cp.linalg.norm(a64 - (u64 * w64) @ v64.T) / cp.linalg.norm(a64))
        orth_u = float(cp.abs(u64.T @ u64 - cp.eye(n)).max())
        orth_v = float(cp.abs(v64.T @ v64 - cp.eye(n)).max())
        sv = cp.sort(cp.linalg.svd(a64, compute_uv=False))
        serr = float(cp.abs(cp.sort(w64) - sv).max() / sv.max())
        print(f"QDWH svd {name} {n} float32: {t:.1f} ms, steps {steps}, reconstruction {rec:.2e}, orthogonality "
              f"U {orth_u:.2e} V {orth_v:.2e}, singular values {serr:.2e}, min eigenvalue {float(w.min()):.2e}")


if __name__ == "__main__":
    main()
