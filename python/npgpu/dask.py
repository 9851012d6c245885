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
import logging
import math
import numbers
import operator
import time

import dask
import dask.array as da
import numpy as np
from dask.base import tokenize
from dask.highlevelgraph import HighLevelGraph

import npgpu
from npgpu import _dask_registration, _random
from npgpu._stencil import BOUNDARIES

_dask_registration.register()

__all__ = ["diffusion", "from_array", "gpu_cluster", "integers", "matmul_reduce", "meta", "monte_carlo_pi", "normal",
           "random", "register", "register_worker_plugin", "standard_normal", "to_device", "uniform"]

register = _dask_registration.register
_log = logging.getLogger("npgpu.dask")


# ------------------------------------------------------------------------------------------------ chunks

def meta(ndim, dtype):
    """The meta dask keeps for npgpu chunks: a zero-size npgpu.Array on the host.

    Creating it touches no GPU, so a client needs no CUDA context. Every dask call in npgpu.dask passes it as
    ``meta=``, so dask never runs a function on zero-size inputs to infer it.

    Parameters
    ----------
    ndim : int
        Number of dimensions (each of length 0).
    dtype : data-type
        The chunks' dtype.

    Returns
    -------
    npgpu.Array
        Shape ``(0,) * ndim``, on the host device.

    Examples
    --------
    >>> import npgpu.dask as nd
    >>> nd.meta(2, np.float32)
    Array([], shape=(0, 0), dtype=float32)
    >>> nd.meta(1, "int64").device
    <npgpu.Device cpu>
    """
    return npgpu.empty((0,) * ndim, dtype=np.dtype(dtype), device="cpu")


def _to_npgpu(block, device=None):
    if isinstance(block, npgpu.Array):
        return block if device is None else block.to_device(device)
    return npgpu.asarray(block, device=device)


def to_device(x, device=None):
    """The dask array `x` with npgpu chunks: NumPy chunks uploaded, npgpu chunks kept or moved to `device`.

    Lazy: each chunk is converted by the process that computes it (``map_blocks``).

    Parameters
    ----------
    x : dask.array.Array
        Any chunk type npgpu.asarray takes (NumPy arrays, npgpu.Arrays).
    device : optional
        Where the chunks go, as npgpu.asarray's `device` (e.g. ``"cpu"`` or a GPU ordinal). None (default):
        each NumPy chunk goes to the default device of the process computing it (a dask-cuda worker's GPU,
        the host elsewhere), and npgpu chunks stay where they are.

    Returns
    -------
    dask.array.Array
        x's shape, chunks and dtype, with npgpu.Array chunks (its meta: :func:`meta`).

    Raises
    ------
    TypeError
        `x` is not a dask array.

    See Also
    --------
    from_array : A dask array of npgpu chunks from a NumPy or npgpu array.

    Examples
    --------
    >>> import dask.array as da
    >>> import npgpu.dask as nd
    >>> x = nd.to_device(da.arange(6, chunks=3), device="cpu")
    >>> x
    dask.array<_to_npgpu, shape=(6,), dtype=int64, chunksize=(3,), chunktype=npgpu.Array>
    >>> x.compute()
    Array([0, 1, 2, 3, 4, 5])
    """
    if not isinstance(x, da.Array):
        raise TypeError(f"to_device: expected a dask.array.Array, not {type(x).__name__}")
    return x.map_blocks(_to_npgpu, device=device, dtype=x.dtype, meta=meta(x.ndim, x.dtype))


def from_array(x, chunks="auto", device=None, name=None):
    """A dask array of npgpu chunks from `x`, split into `chunks`.

    For NumPy (or other) input: ``da.from_array(x, chunks).map_blocks(npgpu.asarray, meta=...)``, each chunk
    uploaded by the process that computes it. The chunks of an npgpu.Array are slices of it, on its device
    unless `device` is given. A dask array is rechunked (unless `chunks` is "auto") and passed to
    :func:`to_device`.

    Parameters
    ----------
    x : numpy.ndarray, npgpu.Array, dask.array.Array or array_like
        The data: anything ``da.from_array`` takes, or a dask array.
    chunks : int, tuple or "auto", optional
        Chunk sizes, as ``da.from_array``'s `chunks` (default "auto": a dask array then keeps its chunks).
    device : optional
        Where each chunk goes, as npgpu.asarray's `device` (e.g. ``"cpu"`` or a GPU ordinal). None (default):
        the default device of the process computing the chunk (where it puts new arrays: a dask-cuda
        worker's GPU, the host elsewhere); an npgpu.Array's chunks stay on its device.
    name : str, optional
        The name of the source layer, as ``da.from_array``'s `name` (unused for a dask array).

    Returns
    -------
    dask.array.Array
        x's shape and dtype, with npgpu.Array chunks (its meta: :func:`meta`).

    See Also
    --------
    to_device : The chunks of a dask array to npgpu.

    Examples
    --------
    >>> import npgpu.dask as nd
    >>> x = nd.from_array(np.arange(12.0).reshape(3, 4), chunks=(2, 2), device="cpu")
    >>> x
    dask.array<_to_npgpu, shape=(3, 4), dtype=float64, chunksize=(2, 2), chunktype=npgpu.Array>
    >>> (2 * x).sum().compute()
    Array(132.)
    >>> nd.from_array(npgpu.arange(6.0, device="cpu"), chunks=3).compute()
    Array([0., 1., 2., 3., 4., 5.])
    """
    if isinstance(x, da.Array):
        return to_device(x.rechunk(chunks) if chunks != "auto" else x, device)
    if isinstance(x, npgpu.Array):
        d = da.from_array(x, chunks=chunks, asarray=False, meta=meta(x.ndim, x.dtype), name=name)
        return d if device is None else to_device(d, device)
    return to_device(da.from_array(x, chunks=chunks, name=name), device)


def register_worker_plugin(client):
    """Register npgpu with dask on every worker of `client`, present and future.

    A distributed WorkerPlugin (named "npgpu") that imports npgpu.dask on each worker, which registers
    npgpu.Array with dask there (``dask.sizeof`` and dask.array's dispatch tables).

    Parameters
    ----------
    client : distributed.Client
        The client whose workers get the plugin.

    Returns
    -------
    None

    Raises
    ------
    ImportError
        distributed is not installed.

    Examples
    --------
    >>> from distributed import Client  # doctest: +SKIP
    >>> import npgpu.dask as nd
    >>> client = Client(nd.gpu_cluster())  # doctest: +SKIP
    >>> nd.register_worker_plugin(client)  # doctest: +SKIP
    """
    from distributed.diagnostics.plugin import WorkerPlugin

    class NpgpuWorkerPlugin(WorkerPlugin):
        name = "npgpu"

        def setup(self, worker):
            import npgpu.dask  # noqa: F401  (registers on import)

    client.register_plugin(NpgpuWorkerPlugin(), name="npgpu")


def gpu_cluster(gpus=None, use_dask_cuda=None, **kwargs):
    """A local cluster of one single-threaded worker process per GPU.

    Each worker has its own GPU as device 0, through ``CUDA_VISIBLE_DEVICES``, set before the process starts,
    so each has one CUDA context on its GPU and the client has none. A SpecCluster worker sees only its own
    GPU; LocalCUDACluster gives each worker the list of GPUs with its own first. Use it as a context manager,
    or close it.

    Parameters
    ----------
    gpus : int or sequence of ints, optional
        How many GPUs (the first ones: ordinals 0 to gpus - 1), or a list of device ordinals. Default: all
        GPUs present (none when npgpu finds no GPU).
    use_dask_cuda : bool, optional
        True: ``dask_cuda.LocalCUDACluster``; False: distributed's ``SpecCluster`` of nannies (workers named
        ``"gpu-<ordinal>"``, one thread each); None (default): the first when dask-cuda imports, else the
        second.
    **kwargs
        Other keywords go to the cluster: to LocalCUDACluster (``dashboard_address`` defaults to None there),
        or to each nanny of the SpecCluster, e.g. ``memory_limit`` (by default each worker gets an equal
        share of host memory) or ``env`` (``CUDA_VISIBLE_DEVICES`` is added to it).

    Returns
    -------
    dask_cuda.LocalCUDACluster or distributed.SpecCluster
        The started cluster (the SpecCluster with no dashboard, named "npgpu.dask.gpu_cluster").

    Raises
    ------
    ValueError
        No GPU to start a worker on (for host-backend workers use distributed.LocalCluster with
        ``NPGPU_BACKEND=cpu``), or ordinals that repeat, are negative or name a GPU this machine lacks.
    ImportError
        ``use_dask_cuda=True`` and dask-cuda does not import.

    See Also
    --------
    register_worker_plugin : Register npgpu on every worker of a client.

    Examples
    --------
    Needs GPUs (and distributed):

    >>> from distributed import Client  # doctest: +SKIP
    >>> import npgpu.dask as nd
    >>> with nd.gpu_cluster() as cluster, Client(cluster) as client:  # doctest: +SKIP
    ...     nd.register_worker_plugin(client)
    ...     x = nd.from_array(np.ones((4096, 4096)), chunks=1024)
    ...     total = float(x.sum().compute())
    """
    if gpus is None:
        gpus = npgpu.device_count() if npgpu.is_available() else 0
    ids = list(range(gpus)) if isinstance(gpus, numbers.Integral) else [operator.index(g) for g in gpus]
    if not ids:
        raise ValueError("gpu_cluster: no GPU to start a worker on (use distributed.LocalCluster with "
                         "NPGPU_BACKEND=cpu for host-backend workers)")
    if len(set(ids)) != len(ids) or min(ids) < 0:
        raise ValueError(f"gpu_cluster: GPUs must be distinct ordinals >= 0, got {ids}")
    # A worker pointed at a GPU that does not exist fails inside its nanny with an NVML error; say it here.
    if npgpu.is_available() and max(ids) >= npgpu.device_count():
        raise ValueError(f"gpu_cluster: GPU {max(ids)} does not exist (this machine has {npgpu.device_count()})")
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


def _neighbour(i, step, count, depth, periodic):
    """Index of the block `step` (-1, 0, 1) away from block i along an axis of `count` blocks, or None where
    that side gets no halo (no depth along the axis, or the field's border without 'periodic')."""
    if step == 0:
        return i
    if depth == 0:
        return None
    j = i + step
    if 0 <= j < count:
        return j
    return j % count if periodic else None


def _diffuse_pieces(rows, top, left, steps, coeff, boundary, unstable_ok):
    # rows: the block and its halo pieces, a list of rows of NumPy arrays; (top, left): the block's corner in
    # the assembled field. Each piece is uploaded into its place in one device buffer and only the block's
    # own cells come back: no host copy of the whole halo'd block is made.
    h = sum(row[0].shape[0] for row in rows)
    w = sum(p.shape[1] for p in rows[0])
    centre = rows[1 if top else 0][1 if left else 0]
    buf = npgpu.empty((h, w), dtype=centre.dtype)
    r0 = 0
    for row in rows:
        c0 = 0
        for p in row:
            buf[r0:r0 + p.shape[0], c0:c0 + p.shape[1]] = p
            c0 += p.shape[1]
        r0 += row[0].shape[0]
    out = npgpu.diffusion(buf, steps, coeff=coeff, boundary=boundary, unstable_ok=unstable_ok)
    del buf
    return _download(out[top:top + centre.shape[0], left:left + centre.shape[1]])


def _download(block):
    """A round's block as a NumPy array. From a GPU, into pinned memory when released pinned memory of its
    size can be kept for reuse (NPGPU_PINNED_CACHE_BYTES): the download is then one DMA, and so is the next
    round's upload of it. A block larger than that cache is re-pinned every round, which costs more than the
    driver's staging of an ordinary array, so it comes back in pageable memory."""
    if block.device_id < 0:
        return block.get()
    info = npgpu.memory_info(block.device_id)
    if block.nbytes > info["pinned_cache_limit"]:
        return block.get()
    held = info["pinned_bytes"]
    t0 = time.perf_counter()
    host = npgpu.empty_pinned(block.shape, block.dtype)
    if npgpu.memory_info(block.device_id)["pinned_bytes"] > held:  # not from the cache: the round paid for pinning
        _log.warning("npgpu.dask: pinned a %.2f GB block anew in %.1f s (not from the pinned cache)",
                     block.nbytes / 1e9, time.perf_counter() - t0)
    return block.get(out=host)


def _halo_piece(block, index):
    # a copy: a view would keep the neighbour's whole block alive (and pinned) while the piece waits
    return np.array(block[index], copy=True)


def _halo_round_host(x, depth, periodic, steps, coeff, block_boundary, unstable_ok):
    # One round on NumPy chunks. map_overlap would concatenate each block with its halos in host memory (a
    # copy of the whole block per round, which two workers then make at once); here each task uploads the
    # pieces straight into one device buffer (_diffuse_pieces). Same halos as map_overlap's, same cells.
    token = tokenize(x.name, depth, periodic, steps, coeff, block_boundary, unstable_ok)
    name = "npgpu-diffusion-round-" + token
    # A halo piece is a task of its own, so it is cut where its block lives and only the piece travels; inside
    # the consuming task, the getitem would make the scheduler ship the neighbour's whole block.
    halo = "npgpu-diffusion-halo-" + token
    nb = x.numblocks
    side = {-1: lambda d: slice(-d, None), 0: lambda d: slice(None), 1: lambda d: slice(0, d)}
    dsk = {}
    for i in range(nb[0]):
        for j in range(nb[1]):
            rows = []
            for di in (-1, 0, 1):
                ii = _neighbour(i, di, nb[0], depth[0], periodic)
                if ii is None:
                    continue
                row = []
                for dj in (-1, 0, 1):
                    jj = _neighbour(j, dj, nb[1], depth[1], periodic)
                    if jj is None:
                        continue
                    key = (x.name, ii, jj)
                    if not di == dj == 0:
                        piece = (halo, ii, jj, -di, -dj)  # the side of block (ii, jj) that faces this block
                        dsk[piece] = (_halo_piece, key, (side[di](depth[0]), side[dj](depth[1])))
                        key = piece
                    row.append(key)
                rows.append(row)
            top = depth[0] if _neighbour(i, -1, nb[0], depth[0], periodic) is not None else 0
            left = depth[1] if _neighbour(j, -1, nb[1], depth[1], periodic) is not None else 0
            dsk[(name, i, j)] = (_diffuse_pieces, rows, top, left, steps, coeff, block_boundary, unstable_ok)
    graph = HighLevelGraph.from_collections(name, dsk, dependencies=[x])
    return da.Array(graph, name, chunks=x.chunks, meta=x._meta)


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

    Temporal blocking: each round runs `steps_per_exchange` steps on every chunk plus a halo of that depth,
    in one ``npgpu.diffusion`` call per chunk, then exchanges halos (``map_overlap``,
    ``allow_rechunk=False``); the last round runs the steps left. The result equals ``npgpu.diffusion`` on
    the whole field bit for bit, for every boundary: each cell goes through the same operations on the same
    values. NumPy chunks skip map_overlap's host concatenation: each task uploads the block and its halo
    pieces into one device buffer and downloads only the block's cells (into pinned memory when
    ``NPGPU_PINNED_CACHE_BYTES`` can keep such a block for the next round; see docs/dask.md).

    Parameters
    ----------
    field : dask.array.Array, numpy.ndarray or npgpu.Array
        A 2-D float32/float64 field: a dask array (npgpu or NumPy chunks), or a NumPy/npgpu array with
        `chunks`.
    steps : int
        Number of steps (>= 0; 0 returns the field as a dask array, unchanged).
    coeff : float, optional
        The diffusion coefficient (default 0.25), as npgpu.diffusion: stable for 0 <= coeff <= 0.25.
    boundary : {"zero", "periodic", "reflect"}, optional
        The field's boundary, as npgpu.diffusion (default "zero"; case-insensitive).
    steps_per_exchange : int, optional
        Steps between halo exchanges, and the halo's depth (>= 1). Default: all steps, capped by the smallest
        chunk extent along the axes that need a halo.
    chunks : int, tuple or "auto", optional
        Chunk sizes: a NumPy or npgpu field is split with :func:`from_array` (npgpu chunks on the default
        device of the process computing each); a dask field is rechunked. Required for a non-dask field.
    unstable_ok : bool, optional
        Run a `coeff` outside [0, 0.25] instead of raising ValueError (default False).

    Returns
    -------
    dask.array.Array
        The field after `steps` steps: its shape, chunks, dtype and chunk type (npgpu or NumPy).

    Raises
    ------
    ValueError
        An invalid `boundary`; steps < 0; a field that is not 2-D, or whose chunk sizes are unknown; `coeff`
        outside [0, 0.25] without `unstable_ok`; steps_per_exchange < 1; a halo deeper than a chunk.
    TypeError
        A field not float32 or float64, or a non-dask field without `chunks`.

    See Also
    --------
    npgpu.diffusion : The single call.

    Notes
    -----
    A halo deeper than a chunk raises ValueError: rechunk the field into larger chunks, or lower
    steps_per_exchange. With one chunk along an axis no halo is needed along it ('periodic' still needs
    chunks at least steps_per_exchange long). Sides on the field's border get no halo for 'zero' and
    'reflect' (each chunk's own boundary is then the field's), and the wrapped-around cells for 'periodic'.

    Examples
    --------
    >>> import npgpu.dask as nd
    >>> f = np.zeros((8, 8))
    >>> f[3:5, 3:5] = 1.0
    >>> field = nd.from_array(f, chunks=4, device="cpu")
    >>> d = nd.diffusion(field, 10)
    >>> d
    dask.array<..., shape=(8, 8), dtype=float64, chunksize=(4, 4), chunktype=npgpu.Array>
    >>> np.array_equal(np.asarray(d.compute()), npgpu.diffusion(f, 10))
    True

    A halo exchange every two steps, on a periodic field:

    >>> d = nd.diffusion(field, 10, boundary="periodic", steps_per_exchange=2)
    >>> np.array_equal(np.asarray(d.compute()), npgpu.diffusion(f, 10, boundary="periodic"))
    True
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
        depth = {ax: (s if ax in halo_axes else 0) for ax in range(2)}
        block_boundary = "zero" if boundary == "periodic" else boundary
        if isinstance(x._meta, np.ndarray):
            x = _halo_round_host(x, depth, boundary == "periodic", s, coeff, block_boundary, unstable_ok)
        else:
            x = _map_overlap(x, depth, "periodic" if boundary == "periodic" else "none", s, coeff, block_boundary,
                             unstable_ok)
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
    """``npgpu.matmul_reduce(a, b, axis)`` = ``(a @ b).sum(axis)`` for dask arrays, as a lazy dask array.

    For axis=0: the column sums of A's row chunks in float64, added in float64 across chunks, then one
    product with B (in float64, rounded to the result dtype), split over B's column chunks. For axis=1: B's
    row sums over its column chunks, then the product with A, split over A's row chunks. Equal to the single
    call within reduction-order rounding.

    Parameters
    ----------
    a : dask.array.Array, numpy.ndarray or npgpu.Array
        A, shape (m, k): a dask array, or a NumPy/npgpu array split into `chunks` (one chunk without
        `chunks`). Its chunks are merged along its columns first.
    b : dask.array.Array, numpy.ndarray or npgpu.Array
        B, shape (k, n): a dask array, or a NumPy/npgpu array (one chunk). Its chunks are merged along its
        rows first.
    axis : int, optional
        0 (or -2, the default 0): sum over the rows of the product; 1 (or -1): over its columns.
    chunks : int, tuple or "auto", optional
        Chunks of `a`: a NumPy or npgpu `a` is split with :func:`from_array`; a dask `a` is rechunked.

    Returns
    -------
    dask.array.Array
        1-D: length n for axis=0 (B's column chunks), m for axis=1 (A's row chunks); dtype
        ``result_type(a.dtype, b.dtype)``; npgpu chunks.

    Raises
    ------
    ValueError
        `axis` not 0, 1, -1 or -2; an operand not 2-D; shapes not aligned (a.shape[1] != b.shape[0]).
    TypeError
        A non-floating operand, or a result dtype other than float32 or float64.

    See Also
    --------
    npgpu.matmul_reduce : The single call.

    Examples
    --------
    >>> import npgpu.dask as nd
    >>> a = np.arange(12.0).reshape(4, 3)
    >>> b = np.arange(6.0).reshape(3, 2)
    >>> A = nd.from_array(a, chunks=(2, 3), device="cpu")
    >>> B = nd.from_array(b, chunks=(3, 1), device="cpu")
    >>> nd.matmul_reduce(A, B).compute()
    Array([148., 214.])
    >>> nd.matmul_reduce(A, B, axis=1).compute()
    Array([ 23.,  68., 113., 158.])
    >>> (a @ b).sum(axis=1)
    array([ 23.,  68., 113., 158.])
    """
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
    """``npgpu.monte_carlo_pi(n, seed)`` split over chunks of points.

    Each chunk counts the hits of its own stretch of the Philox sequence, at the cost of its own points only,
    and the counts are added exactly (integers), so the result equals the single call bit for bit.

    Parameters
    ----------
    n : int
        Number of points (>= 1).
    seed : int or None
        The Philox key: an int in [0, 2**64), as npgpu.monte_carlo_pi's; None draws one from the operating
        system (once, for every chunk).
    chunks : int or sequence of ints, optional
        A chunk size (the last chunk takes the rest), or a list of sizes adding up to `n`. Default: one chunk
        per GPU present (at most `n`; one chunk without a GPU).
    device : None, "cpu" or int, optional
        Where each chunk counts: None (default) by the backend of the process computing it (its GPU when the
        backend is 'cuda', else the host), "cpu" the host backend, an int that GPU's ordinal.
    compute : bool, optional
        True (default): compute and return the estimate; False: return it as a dask.delayed object.

    Returns
    -------
    float or dask.delayed.Delayed
        The estimate ``4 * hits / n``, or the delayed estimate for ``compute=False``.

    Raises
    ------
    ValueError
        n < 1; a chunk size < 1; sizes that do not add up to `n`, or a negative one; a seed out of range.
    TypeError
        A seed neither None nor an int.

    See Also
    --------
    npgpu.monte_carlo_pi : The single call.

    Examples
    --------
    >>> import npgpu.dask as nd
    >>> nd.monte_carlo_pi(1 << 16, seed=1) == npgpu.monte_carlo_pi(1 << 16, seed=1)
    True
    >>> nd.monte_carlo_pi(1 << 16, seed=1, chunks=[1000, 64536], device="cpu")
    3.141357421875
    >>> est = nd.monte_carlo_pi(1 << 16, seed=1, chunks=1 << 12, compute=False)
    >>> est.compute()
    3.141357421875
    """
    nn = operator.index(n)
    if nn < 1:
        raise ValueError(f"monte_carlo_pi: n must be at least 1, got {nn}")
    key = _random.check_seed(seed)
    parts = [dask.delayed(_pi_hits_range, pure=True)(s, e, key, device) for s, e in _pi_chunks(nn, chunks)]
    est = dask.delayed(lambda hits: 4.0 * sum(hits) / nn, pure=True)(parts)
    return est.compute() if compute else est


def _words(dtype):
    return 2 if np.dtype(dtype).itemsize == 8 else 1


def _fill_chunk(method, seed, counter, lead, n, chunk_shape, dtype, device, args, version):
    gen = npgpu.random.Generator(seed, counter, version=version)
    dev = True if device is None else device
    flat = getattr(gen, method)(*args, size=(n + lead,), dtype=dtype, device=dev)
    return npgpu.reshape(flat[lead:].copy() if lead else flat, chunk_shape)


def _draw(method, size, seed, chunks, dtype, device, args, counter=0, version=npgpu.random.STREAM_VERSION):
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
    name = f"npgpu-{method}-" + tokenize(method, shape, key, counter, normalized, dt, device, args, version)
    layer = {}
    start = 0
    for i, rows in enumerate(normalized[0] if shape else ()):
        e = start * row
        word = counter * 4 + e * w
        block = word // 4
        lead = (word - 4 * block) // w
        cshape = (rows,) + tuple(shape[1:])
        layer[(name, i) + (0,) * (len(shape) - 1)] = (_fill_chunk, method, key, block, lead, rows * row, cshape, dt,
                                                     device, args, version)
        start += rows
    if not shape:
        layer[(name,)] = (_fill_chunk, method, key, counter, 0, 1, (), dt, device, args, version)
    return da.Array(layer, name, normalized, meta=meta(len(shape), dt))


def random(size, seed, chunks=None, dtype=np.float64, device=None, counter=0):
    """``npgpu.random.Generator(seed, counter).random(size, dtype, device=...)`` as a chunked dask array.

    Uniform floats in [0, 1), in npgpu chunks, every value bit for bit equal to the single call's: each chunk
    starts its draw at the Philox block its first value falls in.

    Parameters
    ----------
    size : int or tuple of ints
        The result's shape.
    seed : int or None
        The Philox key, as Generator's: an int in [0, 2**64); None draws one from the operating system (once,
        for every chunk).
    chunks : int, tuple or "auto", optional
        Chunk sizes, as dask's (default "auto"). They may split the first axis only: each chunk must be one
        run of the C-ordered values (rechunk the result for other chunkings).
    dtype : {float64, float32}, optional
        The values' dtype (default float64).
    device : optional
        Where the chunks go, as Generator's ``device=`` (e.g. ``"cpu"`` or a GPU ordinal). None (default): the
        default device of the process computing each chunk.
    counter : int, optional
        The Philox block the draw starts at, as Generator's (default 0).

    Returns
    -------
    dask.array.Array
        Shape `size`, dtype `dtype`, npgpu chunks.

    Raises
    ------
    ValueError
        Chunks that split an axis other than the first; a seed out of range.
    TypeError
        A seed neither None nor an int.

    See Also
    --------
    npgpu.random.Generator.random : The single call.
    uniform, standard_normal, normal, integers : The other distributions, split the same way.

    Notes
    -----
    An argument the Generator rejects (e.g. an unsupported dtype) raises when the chunks are computed.

    Examples
    --------
    >>> import npgpu.dask as nd
    >>> x = nd.random(6, seed=7, chunks=(2, 4), device="cpu")
    >>> x
    dask.array<npgpu-random, shape=(6,), dtype=float64, chunksize=(4,), chunktype=npgpu.Array>
    >>> x.compute()
    Array([0.75015222, 0.08565787, 0.79528404, 0.95785419, 0.00845311,
           0.84868054])
    >>> np.array_equal(x.compute(), npgpu.random.Generator(7).random(6, device="cpu"))
    True
    """
    return _draw("random", size, seed, chunks, dtype, device, (), counter)


def uniform(low, high, size, seed, chunks=None, dtype=np.float64, device=None, counter=0):
    """``Generator(seed, counter).uniform(low, high, size, dtype)`` split over chunks (see :func:`random`).

    Uniform floats in [low, high), every value bit for bit equal to the single call's.

    Parameters
    ----------
    low, high : float
        The bounds (scalars, converted with float()).
    size, seed, chunks, dtype, device, counter
        As :func:`random`'s.

    Returns
    -------
    dask.array.Array
        Shape `size`, dtype `dtype` (float64 by default, or float32), npgpu chunks.

    Raises
    ------
    ValueError, TypeError
        As :func:`random`. Bounds the Generator rejects (low >= high, non-finite) raise when the chunks
        are computed.

    See Also
    --------
    npgpu.random.Generator.uniform : The single call.

    Examples
    --------
    >>> import npgpu.dask as nd
    >>> x = nd.uniform(1.0, 2.0, 6, seed=3, chunks=4, device="cpu")
    >>> np.array_equal(x.compute(), npgpu.random.Generator(3).uniform(1.0, 2.0, 6, device="cpu"))
    True
    """
    return _draw("uniform", size, seed, chunks, dtype, device, (float(low), float(high)), counter)


def standard_normal(size, seed, chunks=None, dtype=np.float64, device=None, counter=0, *,
                    version=npgpu.random.STREAM_VERSION):
    """``Generator(seed, counter, version=version).standard_normal(size, dtype)`` split over chunks (see
    :func:`random`).

    Standard normal floats, every value bit for bit equal to the single call's.

    Parameters
    ----------
    size, seed, chunks, dtype, device, counter
        As :func:`random`'s (`dtype`: float64 by default, or float32).
    version : int, optional, keyword-only
        The streams' version, as Generator's (default ``npgpu.random.STREAM_VERSION``).

    Returns
    -------
    dask.array.Array
        Shape `size`, dtype `dtype`, npgpu chunks.

    Raises
    ------
    ValueError, TypeError
        As :func:`random`.

    See Also
    --------
    npgpu.random.Generator.standard_normal : The single call.
    normal : Scaled and shifted.

    Examples
    --------
    >>> import npgpu.dask as nd
    >>> x = nd.standard_normal((4, 2), seed=5, chunks=(3, 2), device="cpu")
    >>> np.array_equal(x.compute(), npgpu.random.Generator(5).standard_normal((4, 2), device="cpu"))
    True
    """
    return _draw("standard_normal", size, seed, chunks, dtype, device, (), counter, version)


def normal(loc, scale, size, seed, chunks=None, dtype=np.float64, device=None, counter=0, *,
           version=npgpu.random.STREAM_VERSION):
    """``Generator(seed, counter, version=version).normal(loc, scale, size, dtype)`` split over chunks (see
    :func:`random`).

    Normal floats ``loc + scale * standard_normal()``, every value bit for bit equal to the single call's.

    Parameters
    ----------
    loc, scale : float
        Mean and standard deviation (scalars, converted with float()).
    size, seed, chunks, dtype, device, counter
        As :func:`random`'s (`dtype`: float64 by default, or float32).
    version : int, optional, keyword-only
        The streams' version, as Generator's (default ``npgpu.random.STREAM_VERSION``).

    Returns
    -------
    dask.array.Array
        Shape `size`, dtype `dtype`, npgpu chunks.

    Raises
    ------
    ValueError, TypeError
        As :func:`random`. A `scale` the Generator rejects (scale < 0) raises when the chunks are computed.

    See Also
    --------
    npgpu.random.Generator.normal : The single call.

    Examples
    --------
    >>> import npgpu.dask as nd
    >>> x = nd.normal(0.0, 2.0, 4, seed=5, chunks=3, dtype=np.float32, device="cpu")
    >>> x.compute()
    Array([ 1.2154131 , -0.23337086,  2.0821702 ,  2.8612444 ], dtype=float32)
    >>> np.array_equal(x.compute(), npgpu.random.Generator(5).normal(0.0, 2.0, 4, dtype=np.float32, device="cpu"))
    True
    """
    return _draw("normal", size, seed, chunks, dtype, device, (float(loc), float(scale)), counter, version)


def integers(low, high, size, seed, chunks=None, dtype=np.int64, device=None, counter=0):
    """``Generator(seed, counter).integers(low, high, size, dtype)`` split over chunks (see :func:`random`).

    Uniform integers in [low, high), every value bit for bit equal to the single call's.

    Parameters
    ----------
    low, high : int
        The bounds, `high` excluded (both required; converted with int()).
    size, seed, chunks, device, counter
        As :func:`random`'s.
    dtype : dtype, optional
        int64 (default), any integer dtype or bool, as Generator.integers.

    Returns
    -------
    dask.array.Array
        Shape `size`, dtype `dtype`, npgpu chunks.

    Raises
    ------
    ValueError, TypeError
        As :func:`random`. Bounds the Generator rejects ([low, high) empty, or outside the dtype's range)
        raise when the chunks are computed.

    See Also
    --------
    npgpu.random.Generator.integers : The single call.

    Examples
    --------
    >>> import npgpu.dask as nd
    >>> x = nd.integers(0, 10, (3, 4), seed=5, chunks=(1, 4), dtype=np.int32, device="cpu")
    >>> x.compute()
    Array([[7, 0, 9, 9],
           [3, 1, 5, 1],
           [9, 6, 2, 1]], dtype=int32)
    >>> np.array_equal(x.compute(), npgpu.random.Generator(5).integers(0, 10, (3, 4), dtype=np.int32, device="cpu"))
    True
    """
    return _draw("integers", size, seed, chunks, dtype, device, (int(low), int(high)), counter)
