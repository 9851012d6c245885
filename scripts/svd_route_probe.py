"""npgpu.linalg.svd through gesvd and through QDWH at several sizes, to place NPGPU_SVD_QDWH_MIN (run on a GPU
machine). Each route runs in its own child process (NPGPU_SVD is read per call, the child keeps it simple).

    python scripts/svd_route_probe.py
"""
import os
import subprocess
import sys

import numpy as np


def child(route, n, dtype, uv):
    import npgpu

    a = npgpu.asarray(np.random.default_rng(n).standard_normal((n, n)).astype(dtype))
    times = []
    for _ in range(3):
        start, stop = npgpu.Event(), npgpu.Event()
        start.record()
        r = npgpu.linalg.svd(a, compute_uv=uv)
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    if uv:
        u, s, vh = (x.get().astype(np.float64) for x in r)
        h = a.get().astype(np.float64)
        rec = np.linalg.norm(h - (u * s) @ vh) / np.linalg.norm(h)
        orth = np.abs(u.T @ u - np.eye(n)).max()
        extra = f"reconstruction {rec:.1e}, orthogonality {orth:.1e}"
    else:
        extra = ""
    print(f"{route:5s} n={n:5d} {np.dtype(dtype).name} uv={uv}: {np.median(times):9.2f} ms {extra}", flush=True)


def main():
    if len(sys.argv) > 1:
        child(sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4] == "1")
        return
    for n in (512, 1024, 2048, 4096):
        for dtype in ("float32", "float64"):
            for uv in ("1", "0"):
                for route in ("gesvd", "qdwh"):
                    env = dict(os.environ, NPGPU_SVD=route)
                    subprocess.run([sys.executable, __file__, route, str(n), dtype, uv], env=env, timeout=120)


if __name__ == "__main__":
    main()
