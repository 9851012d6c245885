"""Past one GPU through Dask (issue 26): npgpu.dask's workloads on dask_cuda.LocalCUDACluster (one worker per
GPU) against one direct npgpu call measured in the same run.

- diffusion, strong scaling: one N x N float32 field (N = 81920 where it fits, else the largest multiple of
  1024 whose two buffers fit in 60 % of a GPU's free memory; NPGPU_BENCH_DASK_N overrides) over 2 GPUs against
  one direct npgpu.diffusion call (target >= 1.8x), dask on 1 GPU against the direct call (<= 1.05x), and
  a sweep of steps per exchange {1, 10, 100, 500} (only >= 100 gated);
- diffusion, weak scaling: one N x N block per GPU, efficiency t(1 GPU) / t(G GPUs) with npgpu.Array chunks
  (>= 0.90) and NumPy chunks (>= 0.80), in rounds of at least 2 s (the fewest steps per exchange, a divisor
  of the step count, whose round the direct call takes 2 s or more for); the halo exchange's share of the
  time;
- monte_carlo_pi with 2^40 samples over 2 GPUs against 1 (>= 1.9x);
- matmul_reduce, A of G x 1048576 x 4096 float32 in host memory split by rows (one block per worker), B 4096 x
  4096: throughput over G GPUs / one GPU's (>= 1.7x);
- a field whose direct diffusion call (two buffers) does not fit one GPU, over G GPUs, checked against the
  host backend on a window across the chunk boundary.

Fields are generated on the workers (npgpu.dask.random: the same values as one Generator call) and kept
there (persist); results stay on the workers. Workers: npgpu.dask.gpu_cluster (dask_cuda's LocalCUDACluster
where installed, else one distributed worker process per GPU). Every case needs dask and distributed; with
fewer than 2 GPUs, or without them, the multi-GPU lines report "not measured" (NaN, no target).
NPGPU_BENCH_DASK_PARTS (comma-separated: strong, weak, pi, matmul, beyond, numpy; default all) runs a subset
of the multi-GPU cases.
"""
import math
import os
import sys
import time

import numpy as np

import npgpu

from ._harness import Result, optional

_SWEEP = (100, 500, 10, 1)  # the gated ones first
_STEPS = int(os.environ.get("NPGPU_BENCH_DASK_STEPS", "500"))
_PARTS = set(os.environ.get("NPGPU_BENCH_DASK_PARTS", "strong,weak,pi,matmul,beyond,numpy").split(","))


def _round_steps(direct_s):
    """The weak-scaling rounds' steps per exchange: the smallest divisor of _STEPS whose share of the direct
    call's time is at least 2 s (_STEPS itself when none is)."""
    for k in range(1, _STEPS + 1):
        if _STEPS % k == 0 and direct_s * k / _STEPS >= 2.0:
            return k
    return _STEPS


def _not_measured(name, why, unit="x"):
    return Result(name, math.nan, unit, target=None, note=f"not measured: {why}")


class _Results(list):
    """The benchmark's lines, each also printed to stderr as it comes: the whole run takes minutes, and a run
    cut short by a time limit still shows what it measured."""

    def append(self, r):
        super().append(r)
        _log(f"{r.name}: {r.value:.3f} {r.unit} {r.anchors} {r.note}")


def _log(msg):
    print(f"dask: {time.strftime('%H:%M:%S')} {msg}", file=sys.stderr, flush=True)


def _field_n(gpus):
    env = os.environ.get("NPGPU_BENCH_DASK_N")
    if env:
        return int(env)
    free = min(npgpu.memory_info(i)["device_free"] for i in range(gpus))
    n = 81920
    while n > 1024 and 2 * n * n * 4 > 0.6 * free:
        n -= 1024
    return n


def _cluster(gpus, n):
    import dask
    from distributed import Client

    import npgpu.dask as nd

    # memory_limit=0: no spilling. The benchmark sizes its data to the machine, and a 27 GB NumPy chunk
    # spilled to disk (distributed's target is 60 % of a worker's share) would time the disk. The pinned
    # cache keeps the NumPy-chunk rounds' two live n x n float32 results for reuse (docs/dask.md).
    env = {"NPGPU_PINNED_CACHE_BYTES": str(3 * n * n * 4)}
    dask.config.set({"distributed.comm.timeouts.connect": "120s"})  # workers pinning 27 GB blocks answer late
    cluster = nd.gpu_cluster(gpus, memory_limit=0, env=env)  # dask_cuda.LocalCUDACluster where installed
    client = Client(cluster)
    nd.register_worker_plugin(client)
    return cluster, client


def _close(cluster, client):
    """Closes the cluster; a measurement already taken is kept when its workers are slow to exit (a worker
    unpinning tens of GB outlives the nanny's 4 s grace, and the cluster's close then raises TimeoutError)."""
    client.close()
    try:
        cluster.close()
    except TimeoutError:
        _log("cluster close timed out: its workers were killed")


def _timed(client, x):
    """Seconds to compute dask array `x` on the workers (kept there), and the persisted result."""
    from distributed import futures_of, wait

    t0 = time.perf_counter()
    y = client.persist(x)
    wait(y)
    # a task ends when its kernels are queued: wait for the GPUs too
    client.run(lambda: npgpu.synchronize() if npgpu.is_available() else None)
    s = time.perf_counter() - t0
    failed = [f for f in futures_of(y) if f.status == "error"]
    if failed:
        raise RuntimeError(f"{len(failed)} of the benchmark's tasks failed") from failed[0].exception()
    return s, y


def _direct_diffusion_s(n, steps, seed):
    f = npgpu.random.Generator(seed).random((n, n), dtype=np.float32, device=True)
    npgpu.diffusion(f[:256, :256], 4)
    npgpu.synchronize()
    t0 = time.perf_counter()
    out = npgpu.diffusion(f, steps, coeff=0.25)
    npgpu.synchronize()
    s = time.perf_counter() - t0
    del f, out
    # this process's pool would keep the field's memory reserved, out of the workers' reach
    npgpu.trim_memory_pool()
    return s


def _dask_diffusion_s(client, nd, n, rows, steps, k, seed, numpy_chunks=False):
    from distributed import wait

    total, per = rows if rows else (n, n)
    field = nd.random((total, n), seed, chunks=(per, -1), dtype=np.float32)
    if numpy_chunks:
        field = field.map_blocks(lambda b: b.get(), dtype=np.float32, meta=np.empty((0, 0), np.float32))
    field = client.persist(field)
    wait(field)
    # one round as warm-up, with another coefficient: with k == steps the same graph would have the same
    # keys, and the timed run would find its result already computed. NumPy chunks: two rounds, as a round's
    # result and the next one's are alive together: both pinned blocks are then in the cache.
    warm_steps = min(2 * k if numpy_chunks else k, steps)
    warm = nd.diffusion(field, warm_steps, coeff=0.2, steps_per_exchange=min(k, steps))
    _timed(client, warm)
    del warm
    s, _ = _timed(client, nd.diffusion(field, steps, steps_per_exchange=k))
    _log(f"diffusion rows={rows} k={k} numpy_chunks={numpy_chunks}: {s:.3f} s")
    return s


def _beyond_one_gpu(client, nd, gpus, seed, steps=50, side=256):
    """diffusion of a field whose direct call (input and output buffers) does not fit one GPU, over `gpus`
    GPUs (four chunks each), checked on a window across a chunk boundary against the host backend."""
    # Sized from the GPU's whole memory, not its free memory (the workers' pools still hold, and reuse,
    # earlier cases' memory): the direct call needs two fields. Four chunks per GPU: a task holds its chunk's
    # halo copy, result and scratch buffer beside the worker's share of the field and of the results, which
    # with one chunk per GPU comes to more than a GPU.
    total = min(npgpu.memory_info(i)["device_total"] for i in range(gpus))
    n = int(math.sqrt(0.52 * total / 4)) // 1024 * 1024
    rows = -(-n // (4 * gpus))
    field = client.persist(nd.random((n, n), seed, chunks=(rows, -1), dtype=np.float32))
    from distributed import wait
    wait(field)
    s, out = _timed(client, nd.diffusion(field, steps, steps_per_exchange=steps))
    # the window's cells depend only on the input within `steps` cells of it: compute that on the host,
    # whose own (zero) border then pollutes nothing inside the window; the left edge is the field's own
    r0 = 2 * gpus * rows - side // 2  # the middle chunk boundary
    window_in = field[r0 - steps:r0 + side + steps, :side + steps].compute()
    got = out[r0:r0 + side, :side].compute()
    window_in, got = (x.get() if isinstance(x, npgpu.Array) else np.asarray(x) for x in (window_in, got))
    with npgpu.use_backend("cpu"):
        want = np.asarray(npgpu.diffusion(window_in, steps))[steps:steps + side, :side]
    err = float(np.max(np.abs(got - want)))
    if not np.allclose(got, want, rtol=1e-5, atol=1e-6):
        raise AssertionError(f"diffusion beyond one GPU differs from the host backend (max |diff| {err:.3g})")
    del field, out
    return Result(f"diffusion {n}^2 f32 x{steps} over {gpus} GPUs (the direct call needs {8 * n * n / 1e9:.0f} GB, "
                  f"one GPU has {total / 1e9:.0f} GB)", s, "s",
                  note=f"window across the chunk boundary equals the host backend (max |diff| {err:.2g})")


def bench_dask(repeat):
    res = _Results()
    if optional("dask") is None or optional("distributed") is None:
        why = "needs dask and distributed (pip install \"npgpu[dask]\")"
        for name in ("diffusion strong scaling, 2 GPUs / direct call", "diffusion weak scaling efficiency",
                     "monte_carlo_pi 2^40, 2 GPUs / 1", "matmul_reduce by rows, 2 GPUs / 1"):
            res.append(_not_measured(name, why))
        return res
    import npgpu.dask as nd

    gpus = npgpu.device_count()
    n = _field_n(1)
    seed = 2026
    direct = _direct_diffusion_s(n, _STEPS, seed)
    k_weak = _round_steps(direct)
    # dask on one GPU against the direct call
    cluster, client = _cluster(1, n)
    try:
        one = _dask_diffusion_s(client, nd, n, None, _STEPS, k_weak, seed)
        res.append(Result(f"diffusion {n}^2 f32 x{_STEPS}: dask on 1 GPU / direct call", one / direct, "x",
                          target=1.05, higher_is_better=False,
                          anchors={"direct s": round(direct, 3), "dask 1 GPU s": round(one, 3),
                                   "steps per exchange": k_weak}))
        weak1 = one
    finally:
        _close(cluster, client)
    if gpus < 2:
        why = f"{gpus} GPU(s) present, needs 2"
        res.append(_not_measured("diffusion strong scaling, 2 GPUs / direct call", why))
        for k in _SWEEP:
            res.append(_not_measured(f"diffusion strong scaling, {k} steps per exchange", why))
        res.append(_not_measured("diffusion weak scaling efficiency, Array chunks", why, ""))
        res.append(_not_measured("diffusion weak scaling efficiency, NumPy chunks", why, ""))
        res.append(_not_measured("monte_carlo_pi 2^40, 2 GPUs / 1", why))
        res.append(_not_measured("matmul_reduce by rows, 2 GPUs / 1 (throughput)", why))
        return res
    cluster, client = _cluster(gpus, n)
    try:
        rows = -(-n // gpus)
        for k in _SWEEP:
            if k > rows or "strong" not in _PARTS:
                continue
            s = _dask_diffusion_s(client, nd, n, (n, rows), _STEPS, k, seed)
            res.append(Result(f"diffusion {n}^2 strong scaling over {gpus} GPUs, {k} steps/exchange: x direct",
                              direct / s, "x", target=1.8 if k >= 100 else None,
                              anchors={"direct s": round(direct, 3), "dask s": round(s, 3)}))
        if "weak" in _PARTS:
            _weak_scaling(res, client, nd, n, gpus, k_weak, weak1, seed)
        if "pi" in _PARTS:
            _pi_scaling(res, nd, gpus, seed)
        if "matmul" in _PARTS:
            _matmul_reduce_scaling(res, client, nd, gpus, seed)
        if "beyond" in _PARTS:
            _log("beyond one GPU")
            res.append(_beyond_one_gpu(client, nd, gpus, seed))
        if "numpy" in _PARTS:
            # NumPy chunks last: the slowest case (every round crosses the host link both ways)
            weak_np = _dask_diffusion_s(client, nd, n, (n * gpus, n), _STEPS, k_weak, seed, numpy_chunks=True)
    finally:
        _close(cluster, client)
    if "numpy" not in _PARTS:
        return res
    cluster, client = _cluster(1, n)
    try:
        weak1_np = _dask_diffusion_s(client, nd, n, None, _STEPS, k_weak, seed, numpy_chunks=True)
        res.append(Result(f"diffusion weak scaling ({gpus} x {n}^2 blocks), NumPy chunks: efficiency",
                          weak1_np / weak_np, "", target=0.80,
                          anchors={"1 GPU s": round(weak1_np, 3), f"{gpus} GPUs s": round(weak_np, 3),
                                   "steps per exchange": k_weak}))
    finally:
        _close(cluster, client)
    return res


def _weak_scaling(res, client, nd, n, gpus, k, weak1, seed):
    weak = _dask_diffusion_s(client, nd, n, (n * gpus, n), _STEPS, k, seed)
    # the halo exchange's share: the same rounds with no halo (map_blocks on the blocks alone)
    field = client.persist(nd.random((n * gpus, n), seed, chunks=(n, -1), dtype=np.float32))
    alone, _ = _timed(client, field.map_blocks(lambda b: npgpu.diffusion(b, _STEPS), dtype=np.float32,
                                               meta=nd.meta(2, np.float32)))
    res.append(Result(f"diffusion weak scaling ({gpus} x {n}^2 blocks), Array chunks: efficiency",
                      weak1 / weak, "", target=0.90,
                      anchors={"1 GPU s": round(weak1, 3), f"{gpus} GPUs s": round(weak, 3),
                               "halo share": round(max(0.0, 1 - alone / weak), 3), "steps per exchange": k}))


def _pi_scaling(res, nd, gpus, seed):
    _log("monte_carlo_pi")
    samples = 1 << 40
    t0 = time.perf_counter()
    pi_multi = nd.monte_carlo_pi(samples, seed, chunks=-(-samples // gpus))
    multi = time.perf_counter() - t0
    t0 = time.perf_counter()
    pi_one = npgpu.monte_carlo_pi(samples, seed)
    single = time.perf_counter() - t0
    npgpu.trim_memory_pool()
    assert pi_multi == pi_one, "monte_carlo_pi over chunks differs from the single call"
    res.append(Result(f"monte_carlo_pi 2^40 over {gpus} GPUs / 1 GPU", single / multi, "x", target=1.9,
                      anchors={"1 GPU s": round(single, 3), f"{gpus} GPUs s": round(multi, 3)}))


def _matmul_reduce_scaling(res, client, nd, gpus, seed):
    """matmul_reduce, A on the workers' host memory (NumPy chunks), B 4096 x 4096."""
    _log("matmul_reduce")
    m, k = 1048576, 4096
    A = nd.random((gpus * m, k), seed, chunks=(m, -1), dtype=np.float32, device="cpu")
    A = client.persist(A.map_blocks(lambda b: np.asarray(b), dtype=np.float32,
                                    meta=np.empty((0, 0), np.float32)))
    B = client.persist(nd.random((k, k), seed + 1, chunks=(k, -1), dtype=np.float32))
    _timed(client, nd.matmul_reduce(A[:m // 8], B))
    multi, _ = _timed(client, nd.matmul_reduce(A, B))
    one, _ = _timed(client, nd.matmul_reduce(A[:m], B))
    res.append(Result(f"matmul_reduce {gpus} x {m} x {k} f32 host A by rows: throughput {gpus} GPUs / 1",
                      (gpus * one) / multi, "x", target=1.7,
                      anchors={"1 GPU GB/s": round(m * k * 4 / one / 1e9, 2),
                               f"{gpus} GPUs GB/s": round(gpus * m * k * 4 / multi / 1e9, 2)}))


BENCHMARKS = {"dask": bench_dask}
