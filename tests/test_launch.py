"""launch_indices / check_geometry: who runs where in a launch (reference page 000), and the limits; the
launch paths of npgpu's own kernels."""
import os
import subprocess
import sys

import numpy as np
import pytest

import npgpu


def expected_indices(grid, block):
    """threadIdx, blockIdx, blockDim, gridDim of every thread, rows in linear thread order: blocks in
    x-fastest order, then threads within a block x-fastest."""
    g = tuple(grid) + (1,) * (3 - len(grid))
    b = tuple(block) + (1,) * (3 - len(block))
    # np.indices over (z, y, x) then reversed columns gives x-fastest (x, y, z) rows.
    blocks = np.indices(g[::-1]).reshape(3, -1).T[:, ::-1]
    threads = np.indices(b[::-1]).reshape(3, -1).T[:, ::-1]
    nb, nt = len(blocks), len(threads)
    block_idx = np.repeat(blocks, nt, axis=0)
    thread_idx = np.tile(threads, (nb, 1))
    block_dim = np.tile(np.array(b), (nb * nt, 1))
    grid_dim = np.tile(np.array(g), (nb * nt, 1))
    return [x.astype(np.int32) for x in (thread_idx, block_idx, block_dim, grid_dim)]


def test_expected_indices_helper():
    # The reference builder itself, on a case worked by hand: grid (2, 1, 1), block (2, 2, 1).
    t, b, bd, gd = expected_indices((2,), (2, 2))
    assert t.tolist() == [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]] * 2
    assert b.tolist() == [[0, 0, 0]] * 4 + [[1, 0, 0]] * 4
    assert bd.tolist() == [[2, 2, 1]] * 8 and gd.tolist() == [[2, 1, 1]] * 8


def test_page_000_example(backend):
    r = npgpu.launch_indices(2, 4)
    assert isinstance(r, npgpu.LaunchIndices)
    assert r._fields == ("thread_idx", "block_idx", "block_dim", "grid_dim")
    for a in r:
        assert isinstance(a, np.ndarray) and a.dtype == np.int32 and a.shape == (8, 3)
    assert r.thread_idx[:, 0].tolist() == [0, 1, 2, 3, 0, 1, 2, 3]
    assert r.block_idx[:, 0].tolist() == [0, 0, 0, 0, 1, 1, 1, 1]
    assert r.block_dim[:, 0].tolist() == [4] * 8
    assert r.grid_dim[:, 0].tolist() == [2] * 8
    # y and z of a 1-D launch: indices 0, dimensions 1.
    assert not r.thread_idx[:, 1:].any() and not r.block_idx[:, 1:].any()
    assert (r.block_dim[:, 1:] == 1).all() and (r.grid_dim[:, 1:] == 1).all()


@pytest.mark.parametrize("grid,block", [
    ((2, 3, 2), (4, 2, 2)),
    ((1,), (1,)),
    ((3,), (5,)),
    ((2, 2), (3, 1)),
    ((1, 1, 3), (1, 2, 1)),
    ((5, 1, 2), (32, 2, 1)),
    ((1,), (1024,)),
    ((1,), (1, 1, 64)),
    ((2,), (32, 32)),
], ids=str)
def test_geometry_matches_numpy_model(backend, grid, block):
    got = npgpu.launch_indices(grid, block)
    want = expected_indices(grid, block)
    for name, g, w in zip(got._fields, got, want):
        assert g.shape == w.shape, name
        assert np.array_equal(g, w), f"{name} differs from the model for grid={grid} block={block}"


def test_int_tuple_and_numpy_integer_arguments_agree(backend):
    a = npgpu.launch_indices(3, 2)
    b = npgpu.launch_indices((3,), (2, 1))
    c = npgpu.launch_indices((np.int64(3), 1, 1), np.int32(2))
    for x, y, z in zip(a, b, c):
        assert np.array_equal(x, y) and np.array_equal(x, z)


@pytest.mark.parametrize("grid,block,limit", [
    (2**50, 1, "maxGridSize"),
    ((1, 65536), 1, "maxGridSize"),
    ((1, 1, 2**20), 1, "maxGridSize"),
    (1, (32, 32, 2), "maxThreadsPerBlock"),
    (1, (1, 1, 128), "maxThreadsDim"),
    (1, (1, 2048), "maxThreads(PerBlock|Dim)"),
], ids=str)
def test_too_large_raises_value_error_naming_the_limit(backend, grid, block, limit):
    with pytest.raises(ValueError, match=limit):
        npgpu.launch_indices(grid, block)
    with pytest.raises(ValueError, match=limit):
        npgpu.check_geometry(grid, block)
    # After an error, the next call works.
    assert npgpu.launch_indices(2, 4).thread_idx[:, 0].tolist() == [0, 1, 2, 3, 0, 1, 2, 3]


def test_block_2048_raises_value_error(backend):
    # 2048 threads in x exceeds both maxThreadsDim[0] and maxThreadsPerBlock (both 1024); either name is
    # an honest answer; npgpu reports the total first (next test).
    with pytest.raises(ValueError, match=r"maxThreads(PerBlock|Dim)") as ei:
        npgpu.launch_indices(1, 2048)
    assert "2048" in str(ei.value)
    assert npgpu.launch_indices(1, 1024).thread_idx.shape == (1024, 3)


def test_block_2048_names_max_threads_per_block(backend):
    with pytest.raises(ValueError, match="maxThreadsPerBlock"):
        npgpu.launch_indices(1, 2048)


@pytest.mark.parametrize("grid,block,what", [
    (0, 1, "grid.x"), ((1, 0), 1, "grid.y"), (1, 0, "block.x"), (1, (4, 1, 0), "block.z"), (-3, 1, "grid.x"),
], ids=str)
def test_zero_or_negative_dimension_raises_value_error(backend, grid, block, what):
    with pytest.raises(ValueError, match=what):
        npgpu.launch_indices(grid, block)
    with pytest.raises(ValueError, match="at least 1"):
        npgpu.check_geometry(grid, block)
    assert npgpu.launch_indices(1, 3).thread_idx[:, 0].tolist() == [0, 1, 2]


@pytest.mark.parametrize("grid,block", [(1.5, 1), ((1, 1, 1, 1), 1), ("2", 4), (2, (4, 2.0))], ids=str)
def test_bad_argument_types_raise_type_error(backend, grid, block):
    with pytest.raises(TypeError):
        npgpu.launch_indices(grid, block)


def test_check_geometry_accepts_limits(backend):
    assert npgpu.check_geometry(2**31 - 1, 1024) is None
    assert npgpu.check_geometry((1, 65535, 65535), (1, 1, 64)) is None
    assert npgpu.check_geometry((1,), (32, 32, 1)) is None


@pytest.mark.gpu
def test_geometry_against_device_properties():
    d = npgpu.Device(0)
    assert npgpu.check_geometry(d.max_grid_dim, 1, device=0) is None
    with pytest.raises(ValueError, match=r"maxGridSize\[0\]"):
        npgpu.check_geometry(d.max_grid_dim[0] + 1, 1, device=0)
    with pytest.raises(ValueError, match="maxThreadsPerBlock"):
        npgpu.check_geometry(1, (d.max_block_dim[0], 2), device=0)
    r = npgpu.launch_indices((2, 3, 2), (4, 2, 2), device=0)
    for g, w in zip(r, expected_indices((2, 3, 2), (4, 2, 2))):
        assert np.array_equal(g, w)


@pytest.mark.gpu
def test_launch_on_a_stream():
    s = npgpu.Stream()
    r = npgpu.launch_indices(4, 8, stream=s)
    assert r.block_idx[:, 0].tolist() == sum([[i] * 8 for i in range(4)], [])


@pytest.mark.gpu
def test_empty_launch_cost_is_measured():
    us = npgpu.profiler.empty_launch_us(200)
    # Microseconds: no launch takes under 50 ns, and even under compute-sanitizer none takes 0.1 s.
    assert isinstance(us, float) and 0.05 < us < 1e5
    with pytest.raises(ValueError, match="launches must be at least 1"):
        npgpu.profiler.empty_launch_us(0)


@pytest.mark.skipif(npgpu.is_available(), reason="checks the behaviour without a GPU")
def test_empty_launch_cost_without_gpu_raises_unavailable():
    with pytest.raises(npgpu.GPUUnavailableError):
        npgpu.profiler.empty_launch_us(10)


_LAUNCH_PATH_CHECK = """
import numpy as np, npgpu
rng = np.random.default_rng(7)
for dt, n in ((np.float32, 1024), (np.int8, 4099), (np.complex128, 3), (np.float64, 1 << 20)):
    a = (rng.standard_normal(n) * 50).astype(dt)
    b = (rng.standard_normal(n) * 50).astype(dt)
    da, db = npgpu.asarray(a), npgpu.asarray(b)
    out = npgpu.full(n, 99, dtype=dt)  # poisoned
    npgpu.add(da, db, out=out)
    assert np.array_equal(out.get(), a + b), dt
    assert np.array_equal((da * db).get(), a * b), dt
# Run-time compiled kernels take the same switch.
add = npgpu.SourceModule('extern "C" __global__ void add(const float* a, const float* b, float* r, int n) {'
                         ' int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) r[i] = a[i] + b[i]; }')
a = rng.standard_normal(1000).astype(np.float32)
da, r = npgpu.asarray(a), npgpu.full(1000, np.nan, dtype=np.float32)
add.get_function("add")(da, da, r, np.int32(1000), block=128, grid=8)
assert np.array_equal(r.get(), a + a)
axpy = npgpu.ElementwiseKernel("float32 x, float32 a", "float32 z", "z = a * x + x", "axpy_paths")
assert np.array_equal(axpy(da, np.float32(2)).get(), np.float32(2) * a + a)
assert npgpu.profiler.empty_launch_us(50) > 0
print("ok")
"""


@pytest.mark.heavy
@pytest.mark.gpu
@pytest.mark.parametrize("driver_launch", ["1", "0"])
def test_driver_and_runtime_launch_paths_give_numpys_results(driver_launch):
    # Contiguous elementwise kernels launch through cuLaunchKernel with cached functions; NPGPU_DRIVER_LAUNCH=0
    # sends them through cudaLaunchKernel. The switch is read once per process, hence the subprocess.
    env = dict(os.environ, NPGPU_DRIVER_LAUNCH=driver_launch)
    p = subprocess.run([sys.executable, "-c", _LAUNCH_PATH_CHECK], capture_output=True, text=True, env=env,
                       timeout=120)
    assert p.returncode == 0 and p.stdout.strip() == "ok", f"subprocess failed:\n{p.stdout}\n{p.stderr}"
