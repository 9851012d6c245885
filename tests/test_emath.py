"""npgpu.emath against numpy.emath: real inputs outside the real domain give complex results (the whole
input turns complex when one element needs it), with NumPy's dtypes, on both devices and for NumPy inputs
and scalars."""
import numpy as np
import pytest

import npgpu

UNARY = ["sqrt", "log", "log2", "log10", "arccos", "arcsin", "arctanh"]
INPUTS = [
    np.array([4.0, 0.25, 9.0]),  # in every domain but the logs' and arccos' edges are fine too
    np.array([4.0, -1.0, 0.0]),
    np.array([0.5, -0.5, 2.0], np.float32),
    np.array([-4, 2, 7], np.int16),
    np.array([-4, 2], np.int64),
    np.array([3, 9], np.uint8),
    np.array([True, False]),
    np.array([1 + 1j, -2 + 0j], np.complex64),
    np.zeros((0, 3)),
    np.array([[0.3, -3.0], [1.0, -1.0]]),
]


def _same(got, want):
    g = got.get() if isinstance(got, npgpu.Array) else got
    assert np.asarray(g).dtype == np.asarray(want).dtype, (np.asarray(g).dtype, np.asarray(want).dtype)
    assert np.shape(g) == np.shape(want)
    np.testing.assert_allclose(g, want, rtol=2e-6 if np.asarray(want).dtype.itemsize <= 8 else 1e-13,
                               atol=1e-6, equal_nan=True)


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("x", INPUTS, ids=lambda a: f"{a.dtype}{list(a.shape)}")
def test_unary_as_numpy(array_device, name, x):
    with np.errstate(all="ignore"):
        want = getattr(np.emath, name)(x)
    got = getattr(npgpu.emath, name)(npgpu.asarray(x, device=array_device))
    assert isinstance(got, npgpu.Array)
    _same(got, want)
    host = getattr(npgpu.emath, name)(x)  # NumPy in, NumPy out
    assert isinstance(host, np.ndarray)
    _same(host, want)


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("x", [-4, 0.5, 3.0, -0.25])
def test_unary_scalars_give_numpy_scalars(name, x):
    with np.errstate(all="ignore"):
        want = getattr(np.emath, name)(x)
    got = getattr(npgpu.emath, name)(x)
    assert type(got) is type(want)
    _same(got, want)


@pytest.mark.parametrize("x,p", [(np.array([-4.0, 4.0]), 0.5), (np.array([2, 4]), -1),
                                 (np.array([2, 4]), np.array([-1, 2])), (np.array([-8.0, 8.0], np.float32), 2),
                                 (np.array([3, 5]), 2)])
def test_power_as_numpy(array_device, x, p):
    want = np.emath.power(x, p)
    pd = npgpu.asarray(p, device=array_device) if isinstance(p, np.ndarray) else p
    _same(npgpu.emath.power(npgpu.asarray(x, device=array_device), pd), want)
    _same(npgpu.emath.power(x, p), want)


@pytest.mark.parametrize("n,x", [(2, np.array([8.0, -8.0])), (np.array([2.0, -2.0]), np.array([4.0, 4.0])),
                                 (10, np.array([1000, 10]))])
def test_logn_as_numpy(array_device, n, x):
    want = np.emath.logn(n, x)
    nd = npgpu.asarray(n, device=array_device) if isinstance(n, np.ndarray) else n
    _same(npgpu.emath.logn(nd, npgpu.asarray(x, device=array_device)), want)


def test_emath_errors(array_device):
    x = npgpu.asarray(np.ones(3), device=array_device)
    with pytest.raises(ValueError):
        npgpu.emath.power(x, npgpu.asarray(np.ones(2), device=array_device))
    with pytest.raises(TypeError):
        npgpu.emath.sqrt(np.array(["a"]))
