"""``python -m npgpu demo diffusion --dask``: the diffusion demo's field split by rows over every GPU present
(dask_cuda.LocalCUDACluster: one worker per GPU, each seeing its GPU as device 0), or over a LocalCluster of
host-backend workers where there is no GPU or no dask_cuda, through npgpu.dask.diffusion (map_overlap with
temporal blocking), with distributed's progress bar. ``--check`` compares it with one npgpu.diffusion call
(bit for bit)."""
import os
import sys
import time

import numpy as np


def _cluster(workers):
    """(cluster, description): LocalCUDACluster when dask_cuda imports and GPUs exist, else host workers."""
    import npgpu

    gpus = npgpu.device_count() if npgpu.is_available() else 0
    if gpus:
        try:
            from dask_cuda import LocalCUDACluster
        except ImportError:
            print("npgpu demo --dask: dask_cuda is not installed (pip install dask-cuda); "
                  "using host-backend workers", file=sys.stderr)
        else:
            return LocalCUDACluster(dashboard_address=None), f"dask_cuda.LocalCUDACluster, {gpus} GPU(s)"
    from distributed import LocalCluster

    n = workers or max(1, min(4, os.cpu_count() or 1))
    cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                           env={"NPGPU_BACKEND": "cpu"})
    return cluster, f"distributed.LocalCluster, {n} host-backend worker(s)"


def run(args):
    try:
        import dask
        from distributed import Client, progress
    except ImportError as e:
        print(f"npgpu demo diffusion --dask needs dask and distributed (pip install \"npgpu[dask]\"): {e}",
              file=sys.stderr)
        return 2
    import npgpu
    import npgpu.dask as nd
    from npgpu._demo_diffusion import jagged_field

    n = args.size if args.size is not None else 2000
    steps = args.steps
    if n < 1 or steps < 0:
        print("error: --size must be >= 1 and --steps >= 0", file=sys.stderr)
        return 2
    field = jagged_field(n, n)
    cluster, what = _cluster(getattr(args, "workers", None))
    with cluster, Client(cluster) as client:
        nd.register_worker_plugin(client)
        workers = len(client.scheduler_info()["workers"])
        rows = -(-n // workers)
        k = max(1, min(args.steps_per_exchange, rows, steps or 1))
        print(f"npgpu demo diffusion --dask: {n}x{n} float32 field, {steps} steps of field -= 0.25 * laplacian "
              f"({args.boundary} boundary), over {what}: {workers} row chunk(s) of {rows}, halo exchange every "
              f"{k} steps")
        with dask.config.set({"array.slicing.split_large_chunks": False}):
            d = nd.from_array(field, chunks=(rows, n))
            result = nd.diffusion(d, steps, coeff=0.25, boundary=args.boundary, steps_per_exchange=k)
            t0 = time.perf_counter()
            future = client.compute(result)
            progress(future)
            out = future.result()
            elapsed = time.perf_counter() - t0
        print()
        out = out.get() if isinstance(out, npgpu.Array) else np.asarray(out)
        print(f"{elapsed:.3f} s ({elapsed / max(steps, 1) * 1e6:.1f} us per step, graph and transfers "
              f"included); field sum {float(out.sum(dtype=np.float64)):.6f}, max {float(out.max()):.6f}")
    if args.check:
        want = npgpu.diffusion(field, steps, coeff=0.25, boundary=args.boundary)
        same = np.array_equal(out, want)
        print(f"check against one npgpu.diffusion call: {'bit-identical' if same else 'DIFFERENT'}")
        return 0 if same else 1
    return 0
