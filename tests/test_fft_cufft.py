"""The GPU primitives under npgpu.fft (npgpu._fft, cuFFT): strided layouts transformed where they lie or
through a moved copy, the complex-to-real transform leaving its input alone, argument errors, and the plan
cache (hits, limits, clearing, several threads and streams sharing plans)."""
import threading

import numpy as np
import pytest

import npgpu

from _threads import thread_count

pytestmark = pytest.mark.gpu


def _crand(shape, seed, dtype=np.complex128):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


@pytest.fixture
def fftmod():
    from npgpu import _fft
    return _fft


@pytest.mark.parametrize("axes", [(0,), (1,), (2,), (-1,), (0, 2), (2, 0), (1, 2), (0, 1, 2), (2, 1, 0)])
@pytest.mark.parametrize("layout", ["c", "transposed", "sliced", "reversed"])
def test_c2c_every_layout_like_numpy(fftmod, axes, layout):
    h = _crand((6, 10, 9), 1)
    d = npgpu.asarray(h)
    view = {"c": lambda a: a, "transposed": lambda a: a.transpose(2, 0, 1),
            "sliced": lambda a: a[:, 1:9:2, :], "reversed": lambda a: a[::-1, :, ::-1]}[layout]
    for forward in (True, False):
        got = fftmod.c2c(view(d), axes, forward)
        want = np.fft.fftn(view(h), axes=axes) if forward else np.fft.ifftn(view(h), axes=axes, norm="forward")
        np.testing.assert_allclose(got.get(), want, rtol=1e-12, atol=1e-11)


@pytest.mark.parametrize("n", [1, 2, 7, 97, 1024])
def test_r2c_c2r_round_trip_and_input_kept(fftmod, n):
    rng = np.random.default_rng(n)
    h = rng.standard_normal((5, n))
    half = fftmod.r2c(npgpu.asarray(h), (1,))
    np.testing.assert_allclose(half.get(), np.fft.rfft(h, axis=1), rtol=1e-12, atol=1e-10)
    before = half.get()
    back = fftmod.c2r(half, (1,), n)
    np.testing.assert_allclose(back.get() / n, h, rtol=1e-10, atol=1e-10)
    np.testing.assert_array_equal(half.get(), before)  # cuFFT overwrites a C2R input: a copy was read
    f32 = fftmod.r2c(npgpu.asarray(h.astype(np.float32)), (1,))
    assert f32.dtype == np.complex64
    np.testing.assert_allclose(f32.get(), np.fft.rfft(h, axis=1), rtol=2e-4, atol=2e-4 * np.sqrt(n))


def test_axis0_of_a_matrix_has_no_copy_and_matches(fftmod):
    h = _crand((64, 48), 2, np.complex64)
    d = npgpu.asarray(h)
    got = fftmod.c2c(d, (0,), True)
    np.testing.assert_allclose(got.get(), np.fft.fft(h.astype(np.complex128), axis=0), rtol=1e-4, atol=1e-3)


def test_errors(fftmod):
    d = npgpu.asarray(_crand((4, 4), 3))
    with pytest.raises(ValueError, match="1 to 3 axes"):
        fftmod.c2c(npgpu.asarray(_crand((2, 2, 2, 2), 3)), (0, 1, 2, 3), True)
    with pytest.raises(ValueError, match="repeated"):
        fftmod.c2c(d, (0, 0), True)
    with pytest.raises(np.exceptions.AxisError):
        fftmod.c2c(d, (2,), True)
    with pytest.raises(TypeError):
        fftmod.c2c(npgpu.asarray(np.ones(4)), (0,), True)
    with pytest.raises(TypeError):
        fftmod.r2c(d, (0,))
    with pytest.raises(ValueError, match="n_last"):
        fftmod.c2r(d, (1,), 9)
    with pytest.raises(ValueError, match="data points"):
        fftmod.c2r(d, (1,), 0)
    with pytest.raises(ValueError, match="host device"):
        fftmod.c2c(npgpu.asarray(_crand(4, 3), device="cpu"), (0,), True)


def test_plan_cache_hits_limits_and_clear(fftmod):
    fftmod.clear_plan_cache()
    fftmod.set_plan_cache_limits(None, None)
    d = npgpu.asarray(_crand(1000, 4))
    first = fftmod.plan_cache_info()
    fftmod.c2c(d, (0,), True)
    fftmod.c2c(d, (0,), False)  # the direction is an argument of the execution: same plan
    info = fftmod.plan_cache_info()
    assert info["plans"] == first["plans"] + 1
    assert info["hits"] >= first["hits"] + 1 and info["misses"] == first["misses"] + 1
    for n in range(10, 20):
        fftmod.c2c(npgpu.asarray(_crand(n, n)), (0,), True)
    assert fftmod.plan_cache_info()["plans"] == 11
    fftmod.set_plan_cache_limits(3, None)
    assert fftmod.plan_cache_info()["plans"] == 3 and fftmod.plan_cache_info()["max_plans"] == 3
    fftmod.set_plan_cache_limits(0, None)  # no caching: transforms still run
    np.testing.assert_allclose(fftmod.c2c(d, (0,), True).get(), np.fft.fft(d.get()), rtol=1e-12, atol=1e-10)
    assert fftmod.plan_cache_info()["plans"] == 0
    fftmod.set_plan_cache_limits(None, None)
    fftmod.c2c(d, (0,), True)
    fftmod.clear_plan_cache()
    assert fftmod.plan_cache_info()["plans"] == 0 and fftmod.plan_cache_info()["bytes"] == 0
    with pytest.raises(ValueError):
        fftmod.set_plan_cache_limits(-1, None)
    fftmod.set_plan_cache_limits(64, 1 << 30)


@pytest.mark.threads
def test_threads_and_streams_share_plans(fftmod):
    h = _crand((8, 4096), 5, np.complex64)
    want = np.fft.fft(h.astype(np.complex128), axis=1)
    errors = []

    def work(k):
        try:
            s = npgpu.Stream()
            with s:
                d = npgpu.asarray(h)
                for _ in range(20):
                    got = fftmod.c2c(d, (1,), True)
                s.synchronize()
                np.testing.assert_allclose(got.get(), want, rtol=1e-4, atol=1e-2)
        except Exception as e:  # noqa: BLE001  (reported by the main thread)
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(thread_count(8))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors


# Complex64 transforms down contiguous columns of lengths 2048 and 4096 take npgpu's own kernel on GPUs of
# compute capability 9 or later (csrc/src/cuda/fft_columns.cuh), alone or as the outer half of 2-D
# transforms; cuFFT makes no plan for them.
def _columns_kernel_here():
    return npgpu.Device(npgpu.get_device_id()).compute_capability[0] >= 9


def _close_to(got, want, rtol=2e-6):
    """float32 transforms against float64 NumPy: errors relative to the largest output."""
    err = np.abs(got - want).max() / np.abs(want).max()
    assert err < rtol, err


@pytest.mark.parametrize("n, columns", [(2048, 256), (2048, 300), (4096, 257), (4096, 1024)])
@pytest.mark.parametrize("forward", [True, False])
def test_columns_kernel_like_numpy(fftmod, n, columns, forward):
    h = _crand((n, columns), n + columns)
    d = npgpu.asarray(h.astype(np.complex64))
    fftmod.clear_plan_cache()
    got = fftmod.c2c(d, (0,), forward)
    if _columns_kernel_here():
        assert fftmod.plan_cache_info()["plans"] == 0  # the kernel, not a cuFFT plan
    want = np.fft.fft(h, axis=0) if forward else np.fft.ifft(h, axis=0, norm="forward")
    assert got.dtype == np.complex64 and got.shape == (n, columns)
    _close_to(got.get(), want)


@pytest.mark.heavy
def test_columns_kernel_layouts_like_numpy(fftmod):
    h = _crand((2048, 40, 10), 3)
    d = npgpu.asarray(h.astype(np.complex64))
    # axis 0 of a 3-D array: 400 contiguous columns; rows of a wider array (a slice); and a layout the
    # kernel does not take (axis 1: its batch does not merge), through cuFFT
    for view, axis in ((lambda a: a, 0), (lambda a: a[:, 3:33, :], 0), (lambda a: a.transpose(1, 0, 2), 1)):
        got = fftmod.c2c(view(d), (axis,), True)
        _close_to(got.get(), np.fft.fft(view(h), axis=axis))
    # the public functions over axis 0, with their norms, and the 2-D transforms whose outer axis it takes
    x = _crand((4096, 300), 4)
    dx = npgpu.asarray(x.astype(np.complex64))
    for norm in ("backward", "ortho", "forward"):
        _close_to(npgpu.fft.fft(dx, axis=0, norm=norm).get(), np.fft.fft(x, axis=0, norm=norm))
        _close_to(npgpu.fft.ifft(dx, axis=0, norm=norm).get(), np.fft.ifft(x, axis=0, norm=norm))
    _close_to(npgpu.fft.fft2(dx).get(), np.fft.fft2(x))
    _close_to(npgpu.fft.ifft2(dx).get(), np.fft.ifft2(x))
    r = np.random.default_rng(5).standard_normal((2048, 1000))
    dr = npgpu.asarray(r.astype(np.float32))
    fftmod.clear_plan_cache()
    got = npgpu.fft.rfft2(dr)
    assert got.shape == (2048, 501) and got.flags["C_CONTIGUOUS"]
    if _columns_kernel_here():
        assert fftmod.plan_cache_info()["plans"] == 1  # the rows' R2C only
    _close_to(got.get(), np.fft.rfft2(r))
    _close_to(npgpu.fft.irfft2(got, s=r.shape).get(), r, rtol=1e-5)
