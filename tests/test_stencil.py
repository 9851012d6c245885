"""npgpu.diffusion and npgpu.laplacian against a float64 NumPy reference (np.pad), on both backends, for every
boundary, both dtypes and odd shapes; conservation, callbacks, out=, device arrays and bad inputs."""
import numpy as np
import pytest

import npgpu

from _stencil_reference import BOUNDARIES, ref_diffusion, ref_laplacian

SHAPES = [(1, 1), (1, 67), (71, 1), (37, 53), (201, 199)]


def field(rng, shape, dtype):
    return rng.standard_normal(shape).astype(dtype)


def tol(dtype, f0, steps=1):
    scale = float(np.max(np.abs(f0))) if np.size(f0) else 1.0
    eps = 1e-6 if np.dtype(dtype) == np.float32 else 1e-13
    return dict(rtol=0, atol=eps * scale * (8 + steps))


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("boundary", BOUNDARIES)
def test_diffusion_matches_reference(backend, rng, shape, dtype, boundary):
    f0 = field(rng, shape, dtype)
    keep = f0.copy()
    steps = 37  # odd, and not a multiple of the GPU's steps per pass
    got, lap = npgpu.diffusion(f0, steps, coeff=0.21, boundary=boundary, return_laplacian=True)
    want, want_lap = ref_diffusion(f0, steps, 0.21, boundary)
    assert type(got) is np.ndarray and got.dtype == dtype and got.shape == shape
    assert type(lap) is np.ndarray and lap.dtype == dtype and lap.shape == shape
    np.testing.assert_allclose(got, want, **tol(dtype, f0, steps))
    np.testing.assert_allclose(lap, want_lap, **tol(dtype, f0, steps))
    np.testing.assert_array_equal(f0, keep)  # the input is untouched


@pytest.mark.parametrize("steps", [0, 1, 2, 3, 4, 5, 8, 9, 64])
def test_diffusion_step_counts(backend, rng, steps):
    f0 = field(rng, (61, 130), np.float32)
    got, lap = npgpu.diffusion(f0, steps, return_laplacian=True, boundary="periodic")
    want, want_lap = ref_diffusion(f0, steps, 0.25, "periodic")
    np.testing.assert_allclose(got, want, **tol(np.float32, f0, steps))
    np.testing.assert_allclose(lap, want_lap, **tol(np.float32, f0, steps))


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("boundary", BOUNDARIES)
def test_laplacian_matches_reference(backend, rng, shape, dtype, boundary):
    f0 = field(rng, shape, dtype)
    got = npgpu.laplacian(f0, boundary=boundary)  # SciPy's sign: neighbours - 4 * centre
    assert type(got) is np.ndarray and got.dtype == dtype and got.shape == shape
    np.testing.assert_allclose(got, -ref_laplacian(f0, boundary), **tol(dtype, f0))
    page = npgpu.laplacian(f0, boundary=boundary, sign=-1)  # the reference page's: 4 * centre - neighbours
    np.testing.assert_allclose(page, ref_laplacian(f0, boundary), **tol(dtype, f0))


@pytest.mark.parametrize("boundary,mode", [("zero", "constant"), ("periodic", "wrap"), ("reflect", "nearest")])
def test_laplacian_matches_scipy(backend, rng, boundary, mode):
    ndimage = pytest.importorskip("scipy.ndimage")
    f0 = field(rng, (37, 53), np.float64)
    np.testing.assert_allclose(npgpu.laplacian(f0, boundary=boundary), ndimage.laplace(f0, mode=mode),
                               **tol(np.float64, f0))
    d = npgpu.asarray(f0)
    np.testing.assert_allclose(npgpu.laplacian(d, boundary=boundary).get(), ndimage.laplace(f0, mode=mode),
                               **tol(np.float64, f0))
    # diffusion's Laplacian is the one its step subtracts: laplacian(sign=-1)
    _, lap = npgpu.diffusion(f0, 0, boundary=boundary, return_laplacian=True)
    np.testing.assert_allclose(lap, -ndimage.laplace(f0, mode=mode), **tol(np.float64, f0))


@pytest.mark.parametrize("sign", [0, 2, -2, True, 1.0, "1", None])
def test_laplacian_sign_is_checked(sign):
    with pytest.raises(ValueError, match="sign"):
        npgpu.laplacian(np.ones((4, 4)), sign=sign)


def test_reference_page_kernel(backend, rng):
    """The page's update (field -= coeff * (4 c - neighbours that exist)), one step, without its race."""
    f0 = field(rng, (40, 33), np.float32)
    f = f0.astype(np.float64)
    lap = 4 * f
    lap[1:, :] -= f[:-1, :]
    lap[:-1, :] -= f[1:, :]
    lap[:, 1:] -= f[:, :-1]
    lap[:, :-1] -= f[:, 1:]
    got, got_lap = npgpu.diffusion(f0, 1, return_laplacian=True)
    np.testing.assert_allclose(got_lap, lap, atol=1e-5)
    np.testing.assert_allclose(got, f - 0.25 * lap, atol=1e-5)


@pytest.mark.parametrize("boundary", ["reflect", "periodic"])
def test_total_conserved(backend, rng, boundary):
    f0 = rng.random((201, 199))
    got = npgpu.diffusion(f0, 300, boundary=boundary)
    assert got.sum() == pytest.approx(f0.sum(), rel=1e-12)
    assert got.max() < f0.max() and got.min() > f0.min()  # smoothed


def test_zero_boundary_loses_heat(backend, rng):
    f0 = rng.random((50, 60))
    got = npgpu.diffusion(f0, 200)
    assert 0 < got.sum() < f0.sum()


def test_out_in_place_and_given(backend, rng):
    f0 = field(rng, (45, 47), np.float64)
    want, _ = ref_diffusion(f0, 11, 0.2, "reflect")
    f = f0.copy()
    r = npgpu.diffusion(f, 11, coeff=0.2, boundary="reflect", out=f)
    assert r is f
    np.testing.assert_allclose(f, want, **tol(np.float64, f0, 11))
    o = np.full_like(f0, np.nan)
    r = npgpu.diffusion(f0, 11, coeff=0.2, boundary="reflect", out=o)
    assert r is o
    np.testing.assert_allclose(o, want, **tol(np.float64, f0, 11))
    lo = np.full_like(f0, np.nan)
    assert npgpu.laplacian(f0, boundary="reflect", out=lo, sign=-1) is lo
    np.testing.assert_allclose(lo, ref_laplacian(f0, "reflect"), **tol(np.float64, f0))
    assert npgpu.laplacian(f0, boundary="reflect", out=lo) is lo
    np.testing.assert_allclose(lo, -ref_laplacian(f0, "reflect"), **tol(np.float64, f0))


def test_strided_field_and_out(backend, rng):
    big = field(rng, (60, 90), np.float32)
    f0 = big[::2, 1::3].T  # neither C- nor F-contiguous in memory order
    want, want_lap = ref_diffusion(f0, 9, 0.25, "zero")
    out = np.full((90, 60), np.nan, np.float32)[::3, ::2].T
    got, lap = npgpu.diffusion(f0, 9, return_laplacian=True, out=out)
    assert got is out
    np.testing.assert_allclose(got, want, **tol(np.float32, f0, 9))
    np.testing.assert_allclose(lap, want_lap, **tol(np.float32, f0, 9))
    np.testing.assert_allclose(npgpu.laplacian(f0), -ref_laplacian(f0, "zero"), **tol(np.float32, f0))


def test_callback(backend, rng):
    f0 = field(rng, (33, 35), np.float64)
    seen = []
    got = npgpu.diffusion(f0, 25, boundary="periodic", callback=lambda k, f: seen.append((k, np.asarray(f))),
                          callback_every=10)
    assert [k for k, _ in seen] == [10, 20, 25]
    for k, f in seen:
        np.testing.assert_allclose(f, ref_diffusion(f0, k, 0.25, "periodic")[0], **tol(np.float64, f0, k))
    np.testing.assert_allclose(got, seen[-1][1], rtol=0, atol=0)
    calls = []
    npgpu.diffusion(f0, 250, callback=lambda k, f: calls.append(k))  # default: every steps // 100
    assert calls == list(range(2, 251, 2))


def test_callback_exception_stops(backend, rng):
    f0 = field(rng, (20, 20), np.float32)
    calls = []

    def cb(k, f):
        calls.append(k)
        if k >= 6:
            raise KeyError("stop here")

    with pytest.raises(KeyError, match="stop here"):
        npgpu.diffusion(f0, 100, callback=cb, callback_every=3)
    assert calls == [3, 6]


def test_empty_fields(backend):
    for shape in [(0, 5), (4, 0)]:
        f = np.zeros(shape, np.float32)
        got, lap = npgpu.diffusion(f, 10, return_laplacian=True)
        assert got.shape == shape and lap.shape == shape
        assert npgpu.laplacian(f).shape == shape


def test_bad_inputs(rng):
    f = field(rng, (8, 8), np.float32)
    with pytest.raises(TypeError, match="float32 or float64"):
        npgpu.diffusion(np.ones((4, 4), np.int64), 1)
    with pytest.raises(TypeError, match="float32 or float64"):
        npgpu.laplacian(np.ones((4, 4), np.complex64))
    with pytest.raises(TypeError, match="float32 or float64"):
        npgpu.diffusion(np.ones((4, 4), np.float16), 1)
    with pytest.raises(ValueError, match="2-D"):
        npgpu.diffusion(np.ones((2, 3, 4), np.float32), 1)
    with pytest.raises(ValueError, match="2-D"):
        npgpu.laplacian(np.ones(5, np.float64))
    with pytest.raises(ValueError, match="steps"):
        npgpu.diffusion(f, -1)
    with pytest.raises(TypeError, match="steps"):
        npgpu.diffusion(f, 2.5)
    with pytest.raises(ValueError, match="stable"):
        npgpu.diffusion(f, 1, coeff=0.3)
    with pytest.raises(ValueError, match="stable"):
        npgpu.diffusion(f, 1, coeff=-0.1)
    with pytest.raises(ValueError, match="finite"):
        npgpu.diffusion(f, 1, coeff=float("nan"), unstable_ok=True)
    with pytest.raises(ValueError, match="boundary"):
        npgpu.diffusion(f, 1, boundary="mirror")
    with pytest.raises(ValueError, match="boundary"):
        npgpu.laplacian(f, boundary=None)
    with pytest.raises(ValueError):
        npgpu.diffusion(f, 1, out=np.empty((8, 9), np.float32))
    with pytest.raises(ValueError):
        npgpu.diffusion(f, 1, out=np.empty((8, 8), np.float64))
    with pytest.raises(TypeError):
        npgpu.diffusion(f, 1, out=[[0.0] * 8] * 8)
    with pytest.raises(ValueError, match="callback_every"):
        npgpu.diffusion(f, 1, callback=print, callback_every=0)
    with pytest.raises(TypeError, match="callable"):
        npgpu.diffusion(f, 1, callback=3)
    with pytest.raises(ValueError, match="overlap"):
        npgpu.laplacian(f, out=f)
    with npgpu.use_backend("cpu"):
        big = field(rng, (10, 10), np.float32)
        with pytest.raises(ValueError, match="overlap"):
            npgpu.diffusion(big[:8, :8], 1, out=big[1:9, 1:9])


def test_unstable_ok(backend, rng):
    f0 = field(rng, (16, 16), np.float64)
    got = npgpu.diffusion(f0, 5, coeff=0.4, unstable_ok=True, boundary="reflect")
    np.testing.assert_allclose(got, ref_diffusion(f0, 5, 0.4, "reflect")[0], rtol=1e-10, atol=1e-10)


# ------------------------------------------------------------------------------------------- device arrays

@pytest.mark.gpu
@pytest.mark.parametrize("per_pass", ["1", "2", "3", "4", "5", "8"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("boundary", BOUNDARIES)
def test_device_steps_per_pass(monkeypatch, rng, per_pass, dtype, boundary):
    """Every temporal-blocking depth of the CUDA backend against the reference, on shapes that split into
    several tiles, leave partial tiles, and are smaller than a tile's halo."""
    monkeypatch.setenv("NPGPU_STENCIL_STEPS_PER_PASS", per_pass)
    for shape in [(1, 1), (3, 2), (1, 130), (129, 1), (201, 199), (67, 300)]:
        f0 = field(rng, shape, dtype)
        d = npgpu.asarray(f0)
        got, lap = npgpu.diffusion(d, 23, coeff=0.23, boundary=boundary, return_laplacian=True)
        assert isinstance(got, npgpu.Array) and isinstance(lap, npgpu.Array)
        want, want_lap = ref_diffusion(f0, 23, 0.23, boundary)
        np.testing.assert_allclose(got.get(), want, **tol(dtype, f0, 23))
        np.testing.assert_allclose(lap.get(), want_lap, **tol(dtype, f0, 23))
        np.testing.assert_array_equal(d.get(), f0)


@pytest.mark.gpu
@pytest.mark.parametrize("steps", [0, 1, 4, 7, 8])
def test_device_in_place(rng, steps):
    f0 = field(rng, (130, 77), np.float32)
    d = npgpu.asarray(f0)
    r = npgpu.diffusion(d, steps, out=d, boundary="reflect")
    assert r is d
    np.testing.assert_allclose(d.get(), ref_diffusion(f0, steps, 0.25, "reflect")[0], **tol(np.float32, f0, steps))


@pytest.mark.gpu
def test_device_out_and_laplacian(rng):
    f0 = field(rng, (50, 70), np.float64)
    d = npgpu.asarray(f0)
    o = npgpu.full(f0.shape, np.nan, dtype=np.float64)
    assert npgpu.diffusion(d, 6, out=o) is o
    np.testing.assert_allclose(o.get(), ref_diffusion(f0, 6, 0.25, "zero")[0], **tol(np.float64, f0, 6))
    lap = npgpu.laplacian(d, boundary="periodic")
    assert isinstance(lap, npgpu.Array)
    np.testing.assert_allclose(lap.get(), -ref_laplacian(f0, "periodic"), **tol(np.float64, f0))
    lap = npgpu.laplacian(d, boundary="periodic", sign=-1)
    np.testing.assert_allclose(lap.get(), ref_laplacian(f0, "periodic"), **tol(np.float64, f0))
    with pytest.raises(TypeError):
        npgpu.diffusion(d, 1, out=np.empty_like(f0))
    with pytest.raises(ValueError):
        npgpu.diffusion(d, 1, out=npgpu.empty((50, 71), np.float64))


@pytest.mark.gpu
def test_device_callback(rng):
    f0 = field(rng, (64, 64), np.float32)
    seen = []
    npgpu.diffusion(npgpu.asarray(f0), 20, callback=lambda k, f: seen.append((k, f)), callback_every=7)
    assert [k for k, _ in seen] == [7, 14, 20]
    for k, f in seen:
        assert isinstance(f, npgpu.Array)
        np.testing.assert_allclose(f.get(), ref_diffusion(f0, k, 0.25, "zero")[0], **tol(np.float32, f0, k))


@pytest.mark.gpu
def test_device_large_odd_field(rng):
    f0 = field(rng, (2001, 1999), np.float32)
    want, want_lap = ref_diffusion(f0, 13, 0.25, "reflect")
    got, lap = npgpu.diffusion(npgpu.asarray(f0), 13, boundary="reflect", return_laplacian=True)
    np.testing.assert_allclose(got.get(), want, **tol(np.float32, f0, 13))
    np.testing.assert_allclose(lap.get(), want_lap, **tol(np.float32, f0, 13))
    with npgpu.use_backend("cuda"):
        got2 = npgpu.diffusion(f0, 13, boundary="reflect")
    np.testing.assert_array_equal(got2, got.get())


def test_many_steps_need_no_plan_memory():
    """2^40 steps with a callback after every one: the pass plan is walked, not stored (it once needed
    O(steps) memory and raised std::bad_alloc)."""
    f = np.random.default_rng(3).random((16, 16))
    seen = []

    def stop_at_three(done, field):
        seen.append(done)
        if done == 3:
            raise StopIteration("enough")

    with npgpu.use_backend("cpu"), pytest.raises(StopIteration, match="enough"):
        npgpu.diffusion(f, 2 ** 40, callback=stop_at_three, callback_every=1)
    assert seen == [1, 2, 3]
    seen.clear()
    with npgpu.use_backend("cpu"), pytest.raises(StopIteration):  # the most steps there are
        npgpu.diffusion(f, 2 ** 63 - 1, callback=stop_at_three, callback_every=1)
    assert seen == [1, 2, 3]


def test_ctrl_c_stops_a_long_host_call(sigint_after):
    """A SIGINT during a long host-backend diffusion raises KeyboardInterrupt within 0.2 s (the steps run
    without the GIL; the signal handlers are polled between passes)."""
    import time
    f = np.random.default_rng(4).random((256, 256))
    with npgpu.use_backend("cpu"), sigint_after(0.3) as fired, pytest.raises(KeyboardInterrupt):
        npgpu.diffusion(f, 2 ** 63 - 1)  # one chunk of all the steps: its pass count must not overflow
    assert fired and time.perf_counter() - fired[0] < 0.2


@pytest.mark.slow
@pytest.mark.gpu
def test_diffusion_of_a_field_past_2_31_cells():
    """46400 x 46400 float32 (more than 2^31 cells): a window around flat index 2^31 reaching the field's
    last row and column equals the host backend run on that window (cells farther than `steps` from the
    window's cut edges depend only on the window)."""
    steps, side = 6, 46400
    f = npgpu.random.Generator(12).random((side, side), dtype=np.float32, device=True)
    out = npgpu.diffusion(f, steps)
    r0, c0 = 2 ** 31 // side - 8, 2 ** 31 % side - 64  # row 46281 holds flat index 2^31, at column 45248
    window = f[r0:, c0:].get()
    with npgpu.use_backend("cpu"):
        want = npgpu.diffusion(window, steps)[steps:, steps:]
    np.testing.assert_allclose(out[r0 + steps:, c0 + steps:].get(), want, rtol=1e-5, atol=1e-6)

