"""npgpu.Array as a Dask chunk type (issue 26): dask.array workloads over npgpu chunks give NumPy's values as
npgpu arrays, with no chunk ever turned into a NumPy array on the way; npgpu.dask's seed workloads equal the
single-call results (bit for bit for diffusion, pi and random values); a 2-worker distributed cluster on the
host backend moves pickled chunks between workers.

Device-to-host copies: npgpu has no transfer counter, so every task's output is inspected (a dask
callback): a NumPy array produced by any task after the chunks became npgpu arrays is a copy to the host
(or a silent fallback to NumPy), and is counted. On the host device that is the only way data can leave
npgpu; each workload asserts the count is 0.
"""
import subprocess
import sys

import numpy as np
import pytest

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")

import npgpu  # noqa: E402
import npgpu.dask as nd  # noqa: E402
from dask.callbacks import Callback  # noqa: E402
from dask.core import get_dependencies  # noqa: E402

RNG = np.random.default_rng(26)
X = RNG.random((13, 11))          # odd sizes: uneven chunks
CHUNKS = (5, 4)


def _holds_ndarray(value):
    if isinstance(value, np.ndarray):
        return value.size > 0 or value.ndim > 0
    if isinstance(value, dict):
        return any(_holds_ndarray(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_holds_ndarray(v) for v in value)
    return False


class HostCopies(Callback):
    """Counts task outputs holding NumPy arrays, apart from the source layers named in `allowed`."""

    def __init__(self, allowed=()):
        super().__init__()
        self.allowed = set(allowed)
        self.found = []

    def _posttask(self, key, result, dsk, state, id):
        name = key[0] if isinstance(key, tuple) else key
        if name in self.allowed:
            return
        if _holds_ndarray(result):
            self.found.append((key, type(result).__name__))


def _source(x, chunks=CHUNKS):
    """The issue's pattern: da.from_array(x).map_blocks(npgpu.asarray, meta=...), plus the source layer's name."""
    src = da.from_array(x, chunks=chunks)
    d = src.map_blocks(npgpu.asarray, meta=npgpu.empty((0,) * x.ndim, dtype=x.dtype))
    return d, {src.name}


def _run(expr, allowed):
    with dask.config.set(scheduler="sync"), HostCopies(allowed) as cb:
        out = expr.compute()
    assert cb.found == [], f"tasks produced NumPy arrays (host copies): {cb.found[:5]}"
    return out


def _check(result, expected, exact):
    assert isinstance(result, npgpu.Array), f"result is {type(result).__name__}, not an npgpu.Array"
    got = result.get()
    expected = np.asarray(expected)
    assert got.shape == expected.shape
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    if exact and (result.device == npgpu.cpu or got.dtype.kind not in "fc"):
        np.testing.assert_array_equal(got, expected)
    elif exact:  # a GPU's pow / division may differ from NumPy's libm by an ulp; chunking adds nothing
        eps = np.finfo(got.dtype).eps
        np.testing.assert_allclose(got, expected, rtol=4 * eps, atol=4 * eps)
    else:   # a chunked sum adds in another order
        tol = 1e-6 if got.dtype == np.float32 else 1e-12
        np.testing.assert_allclose(got, expected, rtol=tol, atol=tol)


def _overlap_identity(b):
    return b * 1.0


def _mask_assign(d):
    d = d.copy()
    d[d > 0.5] = 0.0
    return d


def _mask_assign_np(x):
    x = x.copy()
    x[x > 0.5] = 0.0
    return x


# (name, dask expression, NumPy expression, exact)
WORKLOADS = [
    # views
    ("transpose", lambda d: d.T, lambda x: x.T, True),
    ("strided_slice", lambda d: d[1:12:2, ::3], lambda x: x[1:12:2, ::3], True),
    ("reshape", lambda d: d.reshape(-1), lambda x: x.reshape(-1), True),
    ("newaxis", lambda d: d[None, :, 2], lambda x: x[None, :, 2], True),
    ("gather_rows", lambda d: d[np.array([3, 1, 4, 12])], lambda x: x[np.array([3, 1, 4, 12])], True),
    ("gather_points", lambda d: d.vindex[np.array([0, 5, 12]), np.array([10, 3, 4])],
     lambda x: x[np.array([0, 5, 12]), np.array([10, 3, 4])], True),
    ("boolean_mask", lambda d: d[d[:, 0] > 0.5], lambda x: x[x[:, 0] > 0.5], True),
    # concatenate / rechunk
    ("concatenate", lambda d: da.concatenate([d, d[:, :3]], axis=1),
     lambda x: np.concatenate([x, x[:, :3]], axis=1), True),
    ("stack", lambda d: da.stack([d, 2 * d]), lambda x: np.stack([x, 2 * x]), True),
    ("rechunk", lambda d: d.rechunk((3, 7)), lambda x: x, True),
    ("broadcast_to", lambda d: da.broadcast_to(d[0], (3, 11)), lambda x: np.broadcast_to(x[0], (3, 11)), True),
    ("repeat", lambda d: d.repeat(2, axis=0), lambda x: x.repeat(2, axis=0), True),
    # elementwise
    ("chain", lambda d: (d + 2 * d) / (1 + d) - d ** 2, lambda x: (x + 2 * x) / (1 + x) - x ** 2, True),
    ("ufunc", lambda d: da.sqrt(d) + np.exp(d), lambda x: np.sqrt(x) + np.exp(x), False),
    ("where", lambda d: da.where(d > 0.5, d, -d), lambda x: np.where(x > 0.5, x, -x), True),
    ("clip", lambda d: da.clip(d, 0.2, 0.7), lambda x: np.clip(x, 0.2, 0.7), True),
    ("astype", lambda d: d.astype(np.float32), lambda x: x.astype(np.float32), True),
    ("mask_assign", _mask_assign, _mask_assign_np, True),
    # reductions
    ("sum", lambda d: d.sum(), lambda x: x.sum(), False),
    ("sum_axis0", lambda d: d.sum(axis=0), lambda x: x.sum(axis=0), False),
    ("mean", lambda d: d.mean(), lambda x: x.mean(), False),
    ("var", lambda d: d.var(), lambda x: x.var(), False),
    ("std_axis1", lambda d: d.std(axis=1, ddof=1), lambda x: x.std(axis=1, ddof=1), False),
    ("min", lambda d: d.min(), lambda x: x.min(), True),
    ("max_axis0", lambda d: d.max(axis=0), lambda x: x.max(axis=0), True),
    ("prod_axis1", lambda d: (d + 0.5).prod(axis=1), lambda x: (x + 0.5).prod(axis=1), False),
    ("argmin", lambda d: d.argmin(), lambda x: x.argmin(), True),
    ("argmax_axis0", lambda d: d.argmax(axis=0), lambda x: x.argmax(axis=0), True),
    ("any", lambda d: (d > 0.99).any(), lambda x: (x > 0.99).any(), True),
    ("all_axis0", lambda d: (d > 0.05).all(axis=0), lambda x: (x > 0.05).all(axis=0), True),
    ("nansum", lambda d: da.nansum(da.where(d > 0.8, np.nan, d), axis=1),
     lambda x: np.nansum(np.where(x > 0.8, np.nan, x), axis=1), False),
    ("cumsum_axis0", lambda d: d.cumsum(axis=0), lambda x: x.cumsum(axis=0), False),
    # matrix products
    pytest.param("matmul", lambda d: d @ d.T, lambda x: x @ x.T, False),
    ("matmul_one_inner_chunk", lambda d: d.rechunk((5, -1)) @ d.rechunk((4, -1)).T,
     lambda x: x @ x.T, False),
    pytest.param("tensordot", lambda d: da.tensordot(d, d, axes=((0,), (0,))),
                 lambda x: np.tensordot(x, x, axes=((0,), (0,))), False),
    # map_overlap, every boundary
    ("overlap_none", lambda d: d.map_overlap(_overlap_identity, depth=1, boundary="none"), lambda x: x, True),
    ("overlap_periodic", lambda d: d.map_overlap(_overlap_identity, depth=2, boundary="periodic"),
     lambda x: x, True),
    ("overlap_reflect", lambda d: d.map_overlap(_overlap_identity, depth=1, boundary="reflect"), lambda x: x, True),
    ("overlap_nearest", lambda d: d.map_overlap(_overlap_identity, depth=1, boundary="nearest"), lambda x: x, True),
    ("overlap_constant", lambda d: d.map_overlap(_overlap_identity, depth={0: 1, 1: 2}, boundary=0),
     lambda x: x, True),
    ("overlap_stencil", lambda d: d.map_overlap(lambda b: npgpu.laplacian(b), depth=1, boundary=0,
                                                meta=npgpu.empty((0, 0))),
     lambda x: npgpu.laplacian(np.ascontiguousarray(x)), True),
    # map_blocks
    ("map_blocks", lambda d: d.map_blocks(lambda b: npgpu.sin(b) * 2, meta=npgpu.empty((0, 0))),
     lambda x: np.sin(x) * 2, False),
]


def _id(w):
    return w.values[0] if hasattr(w, "values") else w[0]


@pytest.mark.parametrize("name,expr,np_expr,exact", WORKLOADS, ids=[_id(w) for w in WORKLOADS])
def test_workload(name, expr, np_expr, exact):
    d, allowed = _source(X)
    r = expr(d)
    assert isinstance(r._meta, npgpu.Array), f"meta became {type(r._meta).__name__}"
    _check(_run(r, allowed), np_expr(X), exact)


def test_workload_count():
    assert len(WORKLOADS) >= 36


@pytest.mark.parametrize("dtype", [np.float32, np.int64])
def test_reductions_other_dtypes(dtype):
    x = (RNG.random((9, 7)) * 100).astype(dtype)
    d, allowed = _source(x, (4, 3))
    _check(_run(d.sum(axis=1), allowed), x.sum(axis=1), dtype != np.float32)
    _check(_run(d.argmax(), allowed), x.argmax(), True)
    _check(_run(d.max(axis=0), allowed), x.max(axis=0), True)


def test_single_chunk_and_3d():
    x = RNG.random((4, 5, 6))
    d, allowed = _source(x, -1)
    _check(_run(d.sum(axis=(0, 2)), allowed), x.sum(axis=(0, 2)), False)
    d, allowed = _source(x, (3, 2, 4))
    _check(_run(d.argmin(axis=1), allowed), x.argmin(axis=1), True)
    _check(_run(da.moveaxis(d, 0, 2).mean(axis=-1), allowed), np.moveaxis(x, 0, 2).mean(axis=-1), False)


# ------------------------------------------------------------------------------------------------ the chunk API

def test_array_function_table():
    a = npgpu.asarray(np.arange(6.0).reshape(2, 3))
    for f in (np.empty_like, np.zeros_like, np.ones_like):
        r = f(a, order="C", subok=True, shape=(4,))
        assert isinstance(r, npgpu.Array) and r.shape == (4,)
    r = np.full_like(a, 7, dtype=np.float32, order="K")
    assert isinstance(r, npgpu.Array) and r.dtype == np.float32 and (r.get() == 7).all()
    with pytest.raises(TypeError):
        np.empty_like(a, dtype=[("vals", np.float64), ("arg", np.int64)])
    with pytest.raises(TypeError):
        np.empty_like(a, order="F")
    r = np.asarray([1, 2, 3], like=a)
    assert isinstance(r, npgpu.Array) and r.get().tolist() == [1, 2, 3]
    r = np.array(5.0, like=a, ndmin=2)
    assert isinstance(r, npgpu.Array) and r.shape == (1, 1)
    with pytest.raises(TypeError):   # a NumPy function npgpu lacks: never a silent host copy
        np.datetime_as_string(a[0])


def test_unravel_and_ravel_multi_index():
    idx = npgpu.asarray(np.array([0, 7, 23, 11]))
    got = np.unravel_index(idx, (2, 3, 4))
    want = np.unravel_index(np.array([0, 7, 23, 11]), (2, 3, 4))
    assert all(isinstance(g, npgpu.Array) for g in got)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g.get(), w)
    got = np.unravel_index(idx, (2, 3, 4), order="F")
    for g, w in zip(got, np.unravel_index(np.array([0, 7, 23, 11]), (2, 3, 4), order="F")):
        np.testing.assert_array_equal(g.get(), w)
    coords = tuple(npgpu.asarray(c) for c in want)
    flat = np.ravel_multi_index(coords, (2, 3, 4))
    assert isinstance(flat, npgpu.Array)
    np.testing.assert_array_equal(flat.get(), [0, 7, 23, 11])
    np.testing.assert_array_equal(np.ravel_multi_index(coords, (2, 3, 4), order="F").get(),
                                  np.ravel_multi_index(want, (2, 3, 4), order="F"))
    bad = (npgpu.asarray(np.array([0, 5])), npgpu.asarray(np.array([0, 1])))
    with pytest.raises(ValueError):
        np.ravel_multi_index(bad, (2, 3))
    np.testing.assert_array_equal(np.ravel_multi_index(bad, (2, 3), mode="wrap").get(),
                                  np.ravel_multi_index((np.array([0, 5]), np.array([0, 1])), (2, 3), mode="wrap"))
    np.testing.assert_array_equal(np.ravel_multi_index(bad, (2, 3), mode="clip").get(),
                                  np.ravel_multi_index((np.array([0, 5]), np.array([0, 1])), (2, 3), mode="clip"))
    with pytest.raises(ValueError):
        np.unravel_index(npgpu.asarray(np.array([24])), (2, 3, 4))
    s = np.unravel_index(npgpu.asarray(np.array(17)), (3, 7))   # 0-d, as dask's arg-reductions use it
    assert [int(v.get()) for v in s] == [2, 3]


def test_sizeof_registered():
    from dask.sizeof import sizeof
    a = npgpu.empty((1024, 1024), dtype=np.float64)
    assert 8 << 20 <= sizeof(a) < (8 << 20) + 1024
    b = npgpu.broadcast_to(npgpu.asarray(np.ones(1000)), (1000, 1000))
    assert sizeof(b) < 10_000


def test_dispatch_registered():
    from dask.array.dispatch import concatenate_lookup, numel_lookup, tensordot_lookup
    assert concatenate_lookup.dispatch(npgpu.Array) is npgpu.concatenate
    assert tensordot_lookup.dispatch(npgpu.Array) is npgpu.tensordot
    n = numel_lookup(npgpu.empty((3, 4)), axis=(1,), keepdims=True)
    assert isinstance(n, npgpu.Array) and n.shape == (3, 1)


def test_import_npgpu_does_not_import_dask():
    code = "import sys, npgpu; import npgpu.random, npgpu.fft; print([m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_pickle_roundtrip():
    import pickle
    a = npgpu.asarray(np.arange(12.0).reshape(3, 4))[:, ::2]
    b = pickle.loads(pickle.dumps(a))
    assert isinstance(b, npgpu.Array) and b.device == a.device
    np.testing.assert_array_equal(b.get(), a.get())


# ------------------------------------------------------------------------------------------------ npgpu.dask

def _field(shape, dtype=np.float32, seed=5):
    f = np.random.default_rng(seed).random(shape).astype(dtype)
    f[f < 0.6] = 0
    return f


@pytest.mark.parametrize("boundary", ["zero", "periodic", "reflect"])
@pytest.mark.parametrize("chunks,k", [((8, 6), 3), ((12, 9), 5), ((-1, -1), 4), ((13, 6), 1), ((9, -1), 5),
                                      ((5, 5), 2)])
def test_diffusion_bit_identical(boundary, chunks, k):
    f = _field((23, 17))
    steps = 12
    want = npgpu.diffusion(npgpu.asarray(f), steps, coeff=0.23, boundary=boundary).get()
    d = nd.from_array(f, chunks=chunks)
    r = _run(nd.diffusion(d, steps, coeff=0.23, boundary=boundary, steps_per_exchange=k), {d.name})
    assert isinstance(r, npgpu.Array)
    np.testing.assert_array_equal(r.get(), want)


@pytest.mark.parametrize("boundary", ["zero", "periodic", "reflect"])
@pytest.mark.parametrize("shape,chunks,k", [((23, 17), (8, 6), 3), ((23, 17), (-1, -1), 4), ((23, 17), (13, 6), 1),
                                            ((31, 29), (4, 5), 3), ((40, 30), (20, -1), 7), ((5, 9), (5, 3), 2)])
def test_diffusion_numpy_chunks_bit_identical(boundary, shape, chunks, k):
    # NumPy chunks take their own rounds (pieces uploaded into one device buffer, no host concatenation)
    f = np.random.default_rng(sum(shape) + k).random(shape).astype(np.float32) + 0.5
    want = npgpu.diffusion(f, 12, coeff=0.24, boundary=boundary)
    d = nd.diffusion(da.from_array(f, chunks=chunks), 12, coeff=0.24, boundary=boundary, steps_per_exchange=k)
    assert not [name for name in d.dask.layers if name.startswith(("overlap", "concatenate"))]
    blocks = d.to_delayed().ravel()
    assert all(type(b) is np.ndarray for b in dask.compute(*blocks))
    got = d.compute()
    assert type(got) is np.ndarray and got.dtype == np.float32
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("boundary", ["zero", "periodic"])
def test_diffusion_numpy_chunks_move_only_halos(boundary):
    # A round task's inputs from other blocks are halo pieces cut where those blocks live: on a cluster only
    # the pieces travel between workers, never a neighbour's whole block.
    f = np.random.default_rng(5).random((60, 60)).astype(np.float32)
    d = nd.diffusion(da.from_array(f, chunks=(20, 20)), 8, boundary=boundary, steps_per_exchange=4)
    graph = dict(d.__dask_graph__())
    deps = {k: get_dependencies(graph, k) for k in graph}
    rounds = [k for k in graph if k[0].startswith("npgpu-diffusion-round-")]
    assert rounds
    values = dict(zip(graph, dask.get(graph, list(graph))))
    for k in rounds:
        pieces = [p for p in deps[k] if p[0].startswith("npgpu-diffusion-halo-")]
        assert len(deps[k]) == len(pieces) + 1  # its own block, and halo pieces
        i, j = k[1:]
        sides = 9 if boundary == "periodic" else (1 + (i > 0) + (i < 2)) * (1 + (j > 0) + (j < 2))
        assert len(pieces) == sides - 1
        for p in pieces:
            assert len(deps[p]) == 1  # a piece comes from one block
            assert max(values[p].shape) <= 20 and min(values[p].shape) <= 4
            assert values[p].base is None  # a copy: it keeps its block alive nowhere
    np.testing.assert_array_equal(np.asarray(d.compute()), npgpu.diffusion(f, 8, boundary=boundary))


@pytest.mark.gpu
@pytest.mark.alone  # its bound on pinned memory assumes no sanitizer between the copies (see pyproject's markers)
def test_diffusion_numpy_chunks_reuse_pinned_blocks():
    # On a GPU each round's blocks come back into pinned memory, released into the pinned cache and taken
    # from it by the next run: after the first run no more host memory is pinned.
    f = np.random.default_rng(3).random((256, 64)).astype(np.float32)
    d = nd.diffusion(da.from_array(f, chunks=(128, -1)), 6, steps_per_exchange=3)
    want = npgpu.diffusion(f, 6)
    blocks = dask.compute(*d.to_delayed().ravel(), scheduler="synchronous")
    assert all(type(b) is np.ndarray for b in blocks)
    np.testing.assert_array_equal(np.concatenate(blocks), want)
    del blocks
    held = npgpu.memory_info()["pinned_bytes"]
    for _ in range(3):
        np.testing.assert_array_equal(d.compute(scheduler="synchronous"), want)
    assert npgpu.memory_info()["pinned_bytes"] == held


def test_diffusion_numpy_chunks_and_float64():
    f = _field((19, 21), np.float64)
    want = npgpu.diffusion(f, 9, boundary="reflect")
    got = nd.diffusion(da.from_array(f, chunks=(7, 8)), 9, boundary="reflect", steps_per_exchange=4).compute()
    np.testing.assert_array_equal(np.asarray(got), want)
    got = nd.diffusion(f, 9, boundary="reflect", chunks=(10, 10)).compute()   # default: one exchange per chunk depth
    assert isinstance(got, npgpu.Array)
    np.testing.assert_array_equal(got.get(), want)


def test_diffusion_depth_errors():
    d = nd.from_array(_field((20, 20)), chunks=(5, 8))
    with pytest.raises(ValueError, match="deeper than the smallest chunk"):
        nd.diffusion(d, 10, steps_per_exchange=6)
    with pytest.raises(ValueError, match="boundary"):
        nd.diffusion(d, 10, boundary="nearest")
    with pytest.raises(TypeError):
        nd.diffusion(da.zeros((4, 4), dtype=np.int32, chunks=2), 1)
    assert nd.diffusion(d, 0).compute().get().sum() == _field((20, 20)).sum()


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_matmul_reduce(axis, dtype):
    rng = np.random.default_rng(1)
    a = rng.random((37, 12)).astype(dtype)
    b = rng.random((12, 9)).astype(dtype)
    want = npgpu.matmul_reduce(a, b, axis=axis)
    A = nd.from_array(a, chunks=(8, -1))
    B = nd.from_array(b, chunks=(-1, 4))
    r = _run(nd.matmul_reduce(A, B, axis=axis), {A.name, B.name})
    assert isinstance(r, npgpu.Array) and r.dtype == dtype
    np.testing.assert_allclose(r.get(), want, rtol=1e-6 if dtype == np.float32 else 1e-13)
    r2 = nd.matmul_reduce(a, b, axis=axis, chunks=(10, -1)).compute()   # NumPy operands, NumPy chunks
    np.testing.assert_allclose(np.asarray(r2), want, rtol=1e-6 if dtype == np.float32 else 1e-13)


@pytest.mark.parametrize("n,chunks", [(1000, 96), (12345, 1000), (77, None), (64, [8, 16, 40]), (64, [10, 54]),
                                      (100003, 777), (5, 1)])
def test_monte_carlo_pi_bit_identical(n, chunks):
    assert nd.monte_carlo_pi(n, seed=42, chunks=chunks) == npgpu.monte_carlo_pi(n, seed=42)


def test_monte_carlo_pi_bad_chunks():
    with pytest.raises(ValueError, match="add up"):
        nd.monte_carlo_pi(64, 1, chunks=[10, 50])
    with pytest.raises(ValueError, match="add up"):
        nd.monte_carlo_pi(64, 1, chunks=[70, -6])
    with pytest.raises(ValueError, match=">= 1"):
        nd.monte_carlo_pi(64, 1, chunks=0)


@pytest.mark.parametrize("method,args,dtype", [
    ("random", (), np.float64), ("random", (), np.float32),
    ("uniform", (-2.0, 3.0), np.float32), ("standard_normal", (), np.float64),
    ("standard_normal", (), np.float32), ("normal", (1.0, 2.0), np.float64),
    ("integers", (0, 1000), np.int64), ("integers", (-5, 100), np.int8), ("integers", (0, 2), np.bool_),
])
@pytest.mark.parametrize("shape,chunks", [((103,), 10), ((23, 3), (5, -1)), ((31,), -1), ((7,), 1)])
def test_random_bit_identical(method, args, dtype, shape, chunks):
    gen = npgpu.random.Generator(123, counter=5)
    want = getattr(gen, method)(*args, size=shape, dtype=dtype)
    d = getattr(nd, method)(*args, shape, 123, chunks=chunks, dtype=dtype, counter=5)
    r = _run(d, set())
    assert isinstance(r, npgpu.Array)
    np.testing.assert_array_equal(r.get(), want)


@pytest.mark.parametrize("version", [1, 2])
@pytest.mark.parametrize("method,args", [("standard_normal", ()), ("normal", (-1.0, 0.5))])
def test_random_normal_stream_versions(method, args, version):
    """Float32 normals are the only values the stream versions change: the chunks follow the version."""
    want = getattr(npgpu.random.Generator(9, counter=2, version=version), method)(*args, size=57, dtype=np.float32)
    d = getattr(nd, method)(*args, 57, 9, chunks=10, dtype=np.float32, counter=2, version=version)
    np.testing.assert_array_equal(_run(d, set()).get(), want)
    other = getattr(nd, method)(*args, 57, 9, chunks=10, dtype=np.float32, counter=2, version=3 - version)
    assert not np.array_equal(_run(other, set()).get(), want)


def test_random_chunks_first_axis_only():
    with pytest.raises(ValueError, match="first axis"):
        nd.random((10, 10), 1, chunks=(5, 5))


# ------------------------------------------------------------------------------------------------ distributed

def test_distributed_local_cluster():
    distributed = pytest.importorskip("distributed")
    # Only library functions travel to the workers: they cannot import this test module (pickled by name).
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None,
                                  env={"NPGPU_BACKEND": "cpu"}) as cluster, \
            distributed.Client(cluster) as client:
        nd.register_worker_plugin(client)
        x = np.arange(64 * 48, dtype=np.float64).reshape(64, 48) / 7.0
        d = nd.from_array(x, chunks=(16, 12), device="cpu")
        total = client.compute(d.sum()).result(timeout=60)
        assert isinstance(total, npgpu.Array)
        assert float(total.get()) == pytest.approx(x.sum(), rel=1e-12)
        # map_overlap: neighbouring chunks, held by both workers, travel pickled between them
        r = client.compute(d.map_overlap(npgpu.positive, depth=2, boundary="periodic")).result(timeout=60)
        assert isinstance(r, npgpu.Array)
        np.testing.assert_array_equal(r.get(), x)
        field = _field((40, 30))
        want = npgpu.diffusion(npgpu.asarray(field, device="cpu"), 12, boundary="periodic").get()
        got = client.compute(nd.diffusion(nd.from_array(field, chunks=(10, 15), device="cpu"), 12,
                                          boundary="periodic", steps_per_exchange=4)).result(timeout=60)
        np.testing.assert_array_equal(got.get(), want)
        var = client.compute(d.var(axis=0)).result(timeout=60)
        np.testing.assert_allclose(var.get(), x.var(axis=0), rtol=1e-12)
        # the chunks really were spread over both workers
        held = client.run(lambda dask_worker: len(dask_worker.data))
        assert len(held) == 2


def test_gpu_cluster_one_worker_per_gpu():
    # Without dask-cuda: distributed's own nannies, each worker process started seeing one GPU. Checked here on
    # host-backend workers (the environment each starts with, and a chunked monte_carlo_pi computed on both).
    distributed = pytest.importorskip("distributed")
    import functools
    import os
    # Without a GPU any ordinals do; with one, only the GPUs that exist (see test_gpu_cluster_missing_gpu).
    n = npgpu.device_count() if npgpu.is_available() else 3
    with nd.gpu_cluster(gpus=list(range(n)), use_dask_cuda=False, env={"NPGPU_BACKEND": "cpu"}) as cluster, \
            distributed.Client(cluster) as client:
        seen = client.run(functools.partial(os.getenv, "CUDA_VISIBLE_DEVICES"))
        assert sorted(seen.values()) == [str(i) for i in range(n)]
        assert set(client.run(functools.partial(os.getenv, "NPGPU_BACKEND")).values()) == {"cpu"}
        # host memory shared by GPU (a share each), not by CPU core: NumPy chunks of a GPU's block must fit
        limits = [w["memory_limit"] for w in client.scheduler_info()["workers"].values()]
        assert limits == [distributed.system.MEMORY_LIMIT // n] * n
        nd.register_worker_plugin(client)
        est = nd.monte_carlo_pi(100003, 9, chunks=30000, compute=False)
        assert client.compute(est).result(timeout=60) == npgpu.monte_carlo_pi(100003, seed=9)


@pytest.mark.gpu
def test_gpu_cluster_missing_gpu():
    pytest.importorskip("distributed")
    n = npgpu.device_count()
    with pytest.raises(ValueError, match=f"GPU {n} does not exist \\(this machine has {n}\\)"):
        nd.gpu_cluster(gpus=[0, n], use_dask_cuda=False)


def test_gpu_cluster_bad_gpus():
    with pytest.raises(ValueError, match="no GPU"):
        nd.gpu_cluster(gpus=[])
    with pytest.raises(ValueError, match="distinct"):
        nd.gpu_cluster(gpus=[1, 1])
    with pytest.raises(ValueError, match="distinct"):
        nd.gpu_cluster(gpus=[-1])
