"""npgpu on Dask: npgpu.Array as a dask.array chunk type, and the seed workloads split over chunks.

``import npgpu.dask`` registers npgpu.Array with dask (``dask.sizeof`` and dask.array's dispatch tables, see
``npgpu._dask_registration``); ``import npgpu`` alone never imports dask. Install with
``pip install "npgpu[dask]"`` (dask, distributed; dask-cuda for one worker per GPU).

- :func:`from_array`: a dask array of npgpu chunks (``da.from_array(x, chunks).map_blocks(npgpu.asarray,
  meta=...)``), on the default device of the process that computes each chunk (a dask-cuda worker's GPU, the
  host elsewhere), or on ``device=``.
- :func:`diffusion`: ``npgpu.diffusion`` on a chunked field through ``map_overlap`` with temporal blocking
  (``steps_per_exchange`` steps between halo exchanges, halo depth = steps_per_exchange), bit for bit equal
  to ``npgpu.diffusion`` on the whole field, for every boundary.
- :func:`matmul_reduce`: ``(A @ B).sum(axis)`` with A split by rows (B by columns), partial sums in float64.
- :func:`monte_carlo_pi`, :func:`random`, :func:`uniform`, :func:`standard_normal`, :func:`normal`,
  :func:`integers`: Philox streams split over chunks at counter offsets: the count and every value equal the
  single-call results bit for bit.
- :func:`register_worker_plugin`: registers npgpu on every worker of a distributed client.
- :func:`gpu_cluster`: a local cluster of one worker process per GPU (dask-cuda's ``LocalCUDACluster`` when
  installed, else distributed's own processes, each started seeing one GPU).

Every dask call here passes ``meta=`` (a zero-size npgpu array on the host: no CUDA context on the client),
so dask never runs a function on zero-size inputs to infer it.
"""
import functools
import math
import numbers
import operator

import dask
import dask.array as da
import numpy as np

import npgpu
from npgpu import _dask_registration, _random
from npgpu._stencil import BOUNDARIES

_dask_registration.register()

__all__ = ["diffusion", "from_array", "gpu_cluster", "integers", "matmul_reduce", "meta", "monte_carlo_pi", "normal",
           "random", "register", "register_worker_plugin", "standard_normal", "to_device", "uniform"]

register = _dask_registration.register


# ------------------------------------------------------------------------------------------------ chunks

def meta(ndim, dtype):
    """The meta dask keeps for npgpu chunks: a zero-size npgpu.Array on the host (creating it touches no GPU)."""
    return npgpu.empty((0,) * ndim, dtype=np.dtype(dtype), device="cpu")


def _to_npgpu(block, device=None):
    if isinstance(block, npgpu.Array):
        return block if device is None else block.to_device(device)
    return npgpu.asarray(block, device=device)


def to_device(x, device=None):
    """The dask array `x` with npgpu chunks (NumPy chunks uploaded, npgpu chunks kept or moved to
    ``device``): ``device=None`` puts each chunk on the default device of the process computing it."""
    if not isinstance(x, da.Array):
        raise TypeError(f"to_device: expected a dask.array.Array, not {type(x).__name__}")
    return x.map_blocks(_to_npgpu, device=device, dtype=x.dtype, meta=meta(x.ndim, x.dtype))


def from_array(x, chunks="auto", device=None, name=None):
    """A dask array of npgpu chunks from `x` (a NumPy array, an npgpu.Array or anything ``da.from_array``
    takes), split into `chunks`; each chunk on ``device`` (default: where the computing process puts new
    arrays)."""
    if isinstance(x, da.Array):
        return to_device(x.rechunk(chunks) if chunks != "auto" else x, device)
    if isinstance(x, npgpu.Array):
        d = da.from_array(x, chunks=chunks, asarray=False, meta=meta(x.ndim, x.dtype), name=name)
        return d if device is None else to_device(d, device)
    return to_device(da.from_array(x, chunks=chunks, name=name), device)


def register_worker_plugin(client):
    """Register npgpu with dask on every worker of `client` (a distributed.Client), present and future."""
    from distributed.diagnostics.plugin import WorkerPlugin

    class NpgpuWorkerPlugin(WorkerPlugin):
        name = "npgpu"

        def setup(self, worker):
            import npgpu.dask  # noqa: F401  (registers on import)

    client.register_plugin(NpgpuWorkerPlugin(), name="npgpu")


def gpu_cluster(gpus=None, use_dask_cuda=None, **kwargs):
    """A local cluster of one single-threaded worker process per GPU, each seeing only its own GPU (as device
    0, through ``CUDA_VISIBLE_DEVICES``, set before the process starts, so each has one CUDA context on its
    GPU and the client has none). ``gpus``: how many (default all present) or a list of device ordinals.
    ``use_dask_cuda``: ``dask_cuda.LocalCUDACluster`` (True), distributed's ``SpecCluster`` of nannies
    (False), or the first when dask-cuda imports (None). Other keywords go to the cluster (the nannies for
    SpecCluster, e.g. ``memory_limit``; by default each worker gets an equal share of host memory). Use it
    as a context manager, or close it."""
    if gpus is None:
        gpus = npgpu.device_count() if npgpu.is_available() else 0
    ids = list(range(gpus)) if isinstance(gpus, numbers.Integral) else [operator.index(g) for g in gpus]
    if not ids:
        raise ValueError("gpu_cluster: no GPU to start a worker on (use distributed.LocalCluster with "
                         "NPGPU_BACKEND=cpu for host-backend workers)")
    if len(set(ids)) != len(ids) or min(ids) < 0:
        raise ValueError(f"gpu_cluster: GPUs must be distinct ordinals >= 0, got {ids}")
    if use_dask_cuda is not False:
        try:
            from dask_cuda import LocalCUDACluster
        except ImportError:
            if use_dask_cuda:
                raise
        else:
            kwargs.setdefault("dashboard_address", None)
            return LocalCUDACluster(CUDA_VISIBLE_DEVICES=",".join(map(str, ids)), **kwargs)
    from distributed import Nanny, Scheduler, SpecCluster
    from distributed.system import MEMORY_LIMIT

    # distributed's default host-memory limit is a share by CPU cores (1/32 of the host for a 1-thread worker
    # on 32 cores): NumPy chunks of a GPU-sized block would pause the worker. Share the host by GPU instead,
    # as LocalCUDACluster does.
    kwargs.setdefault("memory_limit", MEMORY_LIMIT // len(ids))
    workers = {f"gpu-{i}": {"cls": Nanny, "options": {"nthreads": 1, **kwargs,
                                                     "env": {**kwargs.get("env", {}), "CUDA_VISIBLE_DEVICES": str(i)}}}
               for i in ids}
    return SpecCluster(workers=workers, scheduler={"cls": Scheduler, "options": {"dashboard": False}},
                       name="npgpu.dask.gpu_cluster")


def _as_dask(x, chunks, name):
    if isinstance(x, da.Array):
        if chunks is not None:
            x = x.rechunk(chunks)
        return x
    if chunks is None:
        raise TypeError(f"{name}: pass a dask array, or chunks= with a NumPy or npgpu array")
    return from_array(x, chunks)


# ------------------------------------------------------------------------------------------------ diffusion

def _diffuse_block(block, steps, coeff, boundary, unstable_ok):
    device = isinstance(block, npgpu.Array)
    out = npgpu.diffusion(block if device else np.ascontiguousarray(block), steps, coeff=coeff,
                          boundary=boundary, unstable_ok=unstable_ok)
    return out


def _map_overlap(x, depth, dask_boundary, steps, coeff, block_boundary, unstable_ok):
    # The halo of `depth` >= steps cells keeps every cell a chunk owns exact after `steps` steps: a wrong
    # value at the halo's outer edge moves one cell per step. Sides on the field's border get no halo for
    # 'zero' and 'reflect' (the block's own boundary is then the field's, as in the single call) and the
    # wrapped-around cells for 'periodic'. map_overlap's `boundary` keyword is the halo's; the block
    # function's is bound with functools.partial.
    fn = functools.partial(_diffuse_block, steps=steps, coeff=coeff, boundary=block_boundary,
                           unstable_ok=unstable_ok)
    return da.map_overlap(fn, x, depth=depth, boundary=dask_boundary, trim=True, allow_rechunk=False,
                          dtype=x.dtype, meta=x._meta)


def diffusion(field, steps, coeff=0.25, boundary="zero", steps_per_exchange=None, chunks=None,
              unstable_ok=False):
    """``npgpu.diffusion(field, steps, coeff, boundary)`` on a chunked 2-D field, as a lazy dask array.

    field: a 2-D float32/float64 dask array (npgpu or NumPy chunks), or a NumPy/npgpu array with ``chunks=``.
    Each round runs ``steps_per_exchange`` steps (default: all steps, capped by the smallest chunk extent)
    on every chunk plus a halo of that depth, in one ``npgpu.diffusion`` call per chunk, then exchanges
    halos (``map_overlap``, ``allow_rechunk=False``). The result equals ``npgpu.diffusion`` on the whole
    field bit for bit: each cell goes through the same operations on the same values. boundary: "zero",
    "periodic" or "reflect", as npgpu.diffusion. A halo deeper than a chunk raises ValueError (rechunk
    the field into larger chunks, or lower steps_per_exchange); with one chunk along an axis no halo is
    needed along it ('periodic' still needs chunks at least steps_per_exchange long).
    """
    name = "npgpu.dask.diffusion"
    if not isinstance(boundary, str) or boundary.lower() not in BOUNDARIES:
        raise ValueError(f"{name}: boundary must be one of {', '.join(map(repr, BOUNDARIES))}, not {boundary!r}")
    boundary = boundary.lower()
    steps = operator.index(steps)
    if steps < 0:
        raise ValueError(f"{name}: steps must be >= 0, got {steps}")
    x = _as_dask(field, chunks, name)
    if x.ndim != 2:
        raise ValueError(f"{name}: the field must be 2-D, got shape {x.shape}")
    if x.dtype not in (np.float32, np.float64):
        raise TypeError(f"{name}: the field must be float32 or float64, not {x.dtype}")
    if any(math.isnan(c) for cs in x.chunks for c in cs):
        raise ValueError(f"{name}: the field's chunk sizes must be known")
    coeff = float(coeff)
    if not unstable_ok and not 0.0 <= coeff <= 0.25:
        raise ValueError(f"{name}: coeff={coeff} is outside the stable range [0, 0.25] (unstable_ok=True runs it)")
    halo_axes = [ax for ax in range(2) if x.numblocks[ax] > 1 or boundary == "periodic"]
    smallest = min((min(x.chunks[ax]) for ax in halo_axes), default=None)
    if steps_per_exchange is None:
        k = steps if smallest is None else max(1, min(steps, smallest))
    else:
        k = operator.index(steps_per_exchange)
        if k < 1:
            raise ValueError(f"{name}: steps_per_exchange must be >= 1, got {k}")
    if smallest is not None and k > smallest and steps > 0:
        ax = min(halo_axes, key=lambda a: min(x.chunks[a]))
        raise ValueError(f"{name}: steps_per_exchange={k} needs a halo of {k} cells, deeper than the smallest "
                         f"chunk ({smallest} cells along axis {ax}; chunks {x.chunks}); use larger chunks "
                         f"(x.rechunk) or steps_per_exchange <= {smallest}")
    done = 0
    while done < steps:
        s = min(k, steps - done)
        x = _map_overlap(x, {ax: (s if ax in halo_axes else 0) for ax in range(2)},
                         "periodic" if boundary == "periodic" else "none", s, coeff,
                         "zero" if boundary == "periodic" else boundary, unstable_ok)
        done += s
    return x


# ------------------------------------------------------------------------------------------------ matmul_reduce

def _colsum64(block, axis):
    if isinstance(block, np.ndarray):
        # A host chunk is read once, through the GPU's staging ring when the backend is 'cuda' (overlapped
        # pinned uploads), and only its float64 sums (one row) land on the device.
        return npgpu.expand_dims(npgpu.asarray(npgpu.sum(block, axis=axis, dtype=np.float64)), axis)
    return npgpu.expand_dims(npgpu.sum(block, axis=axis, dtype=np.float64), axis)


def _vec_times(vec, b, axis, res):
    # axis 0: (vec @ B) for the (k,) float64 column sums of A; axis 1: A @ vec for B's row sums
    if axis == 0:
        b = _to_npgpu(b)
        v = vec if vec.device == b.device else vec.to_device(b.device)
        return npgpu.matmul_reduce(npgpu.reshape(v, (1, -1)), b, axis=0).astype(res, copy=False)
    a = _to_npgpu(b)
    v = vec if vec.device == a.device else vec.to_device(a.device)
    return npgpu.matmul_reduce(a, npgpu.reshape(v, (-1, 1)), axis=1).astype(res, copy=False)


def matmul_reduce(a, b, axis=0, chunks=None):
    """``npgpu.matmul_reduce(a, b, axis)`` = ``(a @ b).sum(axis)`` for dask arrays (or NumPy / npgpu arrays
    split into ``chunks`` rows): the column sums of A's row chunks (axis=0; B's row sums over its column
    chunks for axis=1) in float64, added in float64 across chunks, then one product with the other operand
    (in float64, rounded to the result dtype), split over B's column chunks (A's row chunks for axis=1).
    Equal to the single call within reduction-order rounding."""
    name = "npgpu.dask.matmul_reduce"
    ax = operator.index(axis)
    if ax not in (0, 1, -1, -2):
        raise ValueError(f"{name}: axis {axis} is out of bounds for the 2-D product")
    ax %= 2
    A = _as_dask(a, chunks, name) if isinstance(a, da.Array) or chunks is not None \
        else da.from_array(a, chunks=-1)
    B = _as_dask(b, None, name) if isinstance(b, da.Array) else da.from_array(b, chunks=-1)
    if A.ndim != 2 or B.ndim != 2:
        raise ValueError(f"{name}: needs two 2-D operands, got shapes {A.shape} and {B.shape}")
    if A.shape[1] != B.shape[0]:
        raise ValueError(f"{name}: shapes {A.shape} and {B.shape} not aligned")
    res = np.result_type(A.dtype, B.dtype)
    if res not in (np.float32, np.float64) or A.dtype.kind != "f" or B.dtype.kind != "f":
        raise TypeError(f"{name}: unsupported dtypes {A.dtype} and {B.dtype} (float32 or float64)")
    if ax == 0:
        A = A.rechunk({1: -1})
        B = B.rechunk({0: -1})
        partial = A.map_blocks(_colsum64, 0, chunks=((1,) * A.numblocks[0], A.chunks[1]), dtype=np.float64,
                               meta=meta(2, np.float64))
        vec = partial.sum(axis=0, dtype=np.float64) if A.numblocks[0] > 1 else partial[0]
        return da.blockwise(_vec_times, "j", vec, "k", B, "kj", axis=0, res=res, dtype=res, meta=meta(1, res),
                            concatenate=True)
    B = B.rechunk({0: -1})
    A = A.rechunk({1: -1})
    partial = B.map_blocks(_colsum64, 1, chunks=(B.chunks[0], (1,) * B.numblocks[1]), dtype=np.float64,
                           meta=meta(2, np.float64))
    vec = partial.sum(axis=1, dtype=np.float64) if B.numblocks[1] > 1 else partial[:, 0]
    return da.blockwise(_vec_times, "i", vec, "k", A, "ik", axis=1, res=res, dtype=res, meta=meta(1, res),
                        concatenate=True)


# ------------------------------------------------------------------------------------------------ random

def _pi_hits_range(start, stop, seed, device):
    """Hits of the points [start, stop) of monte_carlo_pi(·, seed)'s sequence."""
    if stop <= start:
        return 0
    dev = None if device is None else (-1 if device == "cpu" else device)
    return int(_random._pi_hits(stop - start, seed, dev, first=start))


def _pi_chunks(n, chunks):
    if chunks is None:
        parts = max(1, min(npgpu.device_count() or 1, n))
        size = -(-n // parts)
    elif isinstance(chunks, numbers.Integral):
        size = int(chunks)
    else:
        sizes = [operator.index(c) for c in chunks]
        if sum(sizes) != n or any(s < 0 for s in sizes):
            raise ValueError(f"monte_carlo_pi: chunks {sizes} do not add up to n={n}")
        bounds = np.cumsum([0] + sizes)
        return [(int(bounds[i]), int(bounds[i + 1])) for i in range(len(sizes))]
    if size < 1:
        raise ValueError(f"monte_carlo_pi: chunk size must be >= 1, got {size}")
    return [(s, min(s + size, n)) for s in range(0, n, size)]


def monte_carlo_pi(n, seed, chunks=None, device=None, compute=True):
    """``npgpu.monte_carlo_pi(n, seed)`` split over chunks of points (``chunks``: a chunk size or a list of
    sizes; default one chunk per GPU present): each chunk counts the hits of its own stretch of the Philox
    sequence, at the cost of its own points only, and the counts are added exactly (integers), so the result
    equals the single call bit for bit. ``compute=False`` returns the dask.delayed estimate."""
    nn = operator.index(n)
    if nn < 1:
        raise ValueError(f"monte_carlo_pi: n must be at least 1, got {nn}")
    key = _random.check_seed(seed)
    parts = [dask.delayed(_pi_hits_range, pure=True)(s, e, key, device) for s, e in _pi_chunks(nn, chunks)]
    est = dask.delayed(lambda hits: 4.0 * sum(hits) / nn, pure=True)(parts)
    return est.compute() if compute else est


def _words(dtype):
    return 2 if np.dtype(dtype).itemsize == 8 else 1


def _fill_chunk(method, seed, counter, lead, n, chunk_shape, dtype, device, args):
    gen = npgpu.random.Generator(seed, counter)
    dev = True if device is None else device
    flat = getattr(gen, method)(*args, size=(n + lead,), dtype=dtype, device=dev)
    return npgpu.reshape(flat[lead:].copy() if lead else flat, chunk_shape)


def _draw(method, size, seed, chunks, dtype, device, args, counter=0):
    shape = (operator.index(size),) if isinstance(size, numbers.Integral) else tuple(map(operator.index, size))
    dt = np.dtype(dtype)
    key = _random.check_seed(seed)
    normalized = da.core.normalize_chunks(chunks if chunks is not None else "auto", shape, dtype=dt)
    for ax in range(1, len(shape)):
        if len(normalized[ax]) > 1:
            raise ValueError(f"npgpu.dask.{method}: chunks may split the first axis only (each chunk must be one "
                             f"run of the C-ordered values), got chunks {normalized}; rechunk the result instead")
    w = _words(dt)
    row = int(np.prod(shape[1:], dtype=np.int64)) if len(shape) > 1 else 1
    name = f"npgpu-{method}-" + dask.base.tokenize(method, shape, key, counter, normalized, dt, device, args)
    layer = {}
    start = 0
    for i, rows in enumerate(normalized[0] if shape else ()):
        e = start * row
        word = counter * 4 + e * w
        block = word // 4
        lead = (word - 4 * block) // w
        cshape = (rows,) + tuple(shape[1:])
        layer[(name, i) + (0,) * (len(shape) - 1)] = (_fill_chunk, method, key, block, lead, rows * row, cshape, dt,
                                                     device, args)
        start += rows
    if not shape:
        layer[(name,)] = (_fill_chunk, method, key, counter, 0, 1, (), dt, device, args)
    return da.Array(layer, name, normalized, meta=meta(len(shape), dt))


def random(size, seed, chunks=None, dtype=np.float64, device=None, counter=0):
    """``npgpu.random.Generator(seed, counter).random(size, dtype, device=...)`` as a chunked dask array of
    npgpu chunks, every value bit for bit equal (each chunk starts its draw at the Philox block its first
    value falls in). chunks may split the first axis only; device: None is the computing process's
    default device."""
    return _draw("random", size, seed, chunks, dtype, device, (), counter)


def uniform(low, high, size, seed, chunks=None, dtype=np.float64, device=None, counter=0):
    """Generator(seed, counter).uniform(low, high, size, dtype) split over chunks (see :func:`random`)."""
    return _draw("uniform", size, seed, chunks, dtype, device, (float(low), float(high)), counter)


def standard_normal(size, seed, chunks=None, dtype=np.float64, device=None, counter=0):
    """Generator(seed, counter).standard_normal(size, dtype) split over chunks (see :func:`random`)."""
    return _draw("standard_normal", size, seed, chunks, dtype, device, (), counter)


def normal(loc, scale, size, seed, chunks=None, dtype=np.float64, device=None, counter=0):
    """Generator(seed, counter).normal(loc, scale, size, dtype) split over chunks (see :func:`random`)."""
    return _draw("normal", size, seed, chunks, dtype, device, (float(loc), float(scale)), counter)


def integers(low, high, size, seed, chunks=None, dtype=np.int64, device=None, counter=0):
    """Generator(seed, counter).integers(low, high, size, dtype) split over chunks (see :func:`random`)."""
    return _draw("integers", size, seed, chunks, dtype, device, (int(low), int(high)), counter)
