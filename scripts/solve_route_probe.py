"""Probe: npgpu.linalg.solve (or inv, --inv) of one n x n matrix through the random-butterfly route against
getrf with partial pivoting (NPGPU_SOLVE_BUTTERFLY=0), for several n: time (median of CUDA-event timings after a
warm-up) and backward error max|b - A x| / (||A||_inf max|x|). Run on the GPU machine.

    python scripts/solve_route_probe.py [--nrhs 16] [--sizes 512,4096] [--dtypes float32,complex64] [--inv]
"""

import argparse
import os
import statistics

import numpy as np

import npgpu
import npgpu.linalg as la


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nrhs", type=int, default=16)
    ap.add_argument("--sizes", default="128,256,512,1024,2048,4096")
    ap.add_argument("--dtypes", default="float32,float64")
    ap.add_argument("--inv", action="store_true", help="time inv instead of solve")
    args = ap.parse_args()
    rng = np.random.default_rng(5)
    for n in (int(v) for v in args.sizes.split(",")):
        for dt in (np.dtype(v) for v in args.dtypes.split(",")):
            a = rng.standard_normal((n, n)).astype(dt)
            b = rng.standard_normal((n, args.nrhs)).astype(dt)
            if dt.kind == "c":
                a += 1j * rng.standard_normal((n, n))
                b += 1j * rng.standard_normal((n, args.nrhs))
            da, db = npgpu.asarray(a), npgpu.asarray(b)
            row = [f"n={n:5d} {dt.name}:"]
            for route in ("1", "0"):
                os.environ["NPGPU_SOLVE_BUTTERFLY"] = route
                if args.inv:
                    b = np.eye(n, dtype=dt)
                x = (la.inv(da) if args.inv else la.solve(da, db)).get()
                err = float(np.max(np.abs(b - a.astype(np.complex128) @ x).max(0)
                                   / (np.abs(a).sum(1).max() * np.abs(x).max(0))))
                times = []
                for _ in range(7):
                    start, end = npgpu.Event(), npgpu.Event()
                    start.record()
                    la.inv(da) if args.inv else la.solve(da, db)
                    end.record()
                    end.synchronize()
                    times.append(start.elapsed_time(end))
                name = "butterfly" if route == "1" else "pivoted"
                row.append(f"{name} {statistics.median(times):8.3f} ms (backward {err:.1e})")
            print("  ".join(row), flush=True)
    os.environ.pop("NPGPU_SOLVE_BUTTERFLY", None)


if __name__ == "__main__":
    main()
