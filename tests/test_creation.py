"""Creation functions of the namespace against NumPy, on each device (array_device)."""
import numpy as np
import pytest

import npgpu

DTYPES = ["int8", "uint16", "int32", "int64", "float16", "float32", "float64", "complex64", "complex128"]


def same(got, want):
    assert isinstance(got, npgpu.Array)
    g = np.asarray(got.get())
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    assert g.shape == want.shape
    assert np.array_equal(g, want, equal_nan=want.dtype.kind in "fc"), (g, want)


@pytest.mark.parametrize("args", [(10,), (0,), (-3,), (2, 17), (17, 2, -3), (0.5, 7.25, 0.25), (1.0, -2.0, -0.1),
                                  (3, 4.5), (np.float32(0.1), 3, 0.2), (-5, 1000, 7)], ids=str)
def test_arange(array_device, args):
    got = npgpu.arange(*args)
    assert got.device == npgpu.asarray(0).device
    same(got, np.arange(*args))


@pytest.mark.parametrize("dtype", DTYPES)
def test_arange_dtypes(array_device, dtype):
    same(npgpu.arange(3, 250, 3, dtype=dtype), np.arange(3, 250, 3, dtype=dtype))


def test_arange_errors(array_device):
    with pytest.raises(ZeroDivisionError):
        npgpu.arange(0, 5, 0)
    with pytest.raises(TypeError, match="scalar"):
        npgpu.arange(np.arange(3))


@pytest.mark.parametrize("args,kw", [((0, 1), {}), ((2.5, -7), {"num": 13}), ((0, 1), {"num": 1}),
                                     ((0, 1), {"num": 0}), ((-3, 3), {"num": 10, "endpoint": False}),
                                     ((1, 10), {"num": 7, "dtype": np.int32}), ((1, 1), {"num": 5}),
                                     ((0, 1e-300), {"num": 9}), ((1 + 2j, 3 - 1j), {"num": 6})], ids=str)
def test_linspace(array_device, args, kw):
    want = np.linspace(*args, **kw)
    got = npgpu.linspace(*args, **kw)
    if want.dtype.kind == "c":  # NumPy's complex multiply may fuse (SIMD fmaddsub): equal to an ulp
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got.get(), want, rtol=4e-16, atol=4e-16)
    else:
        same(got, want)


def test_linspace_retstep_and_errors(array_device):
    y, step = npgpu.linspace(0, 2, 5, retstep=True)
    assert step == np.linspace(0, 2, 5, retstep=True)[1]
    same(y, np.linspace(0, 2, 5))
    with pytest.raises(ValueError, match="non-negative"):
        npgpu.linspace(0, 1, -1)


@pytest.mark.parametrize("dtype", [None, "bool", "int16", "float32", "complex64"])
def test_ones_full_zeros_empty(array_device, dtype):
    same(npgpu.ones((3, 4), dtype=dtype), np.ones((3, 4), dtype=dtype))
    same(npgpu.zeros(5, dtype=dtype), np.zeros(5, dtype=dtype))
    assert npgpu.empty((2, 0), dtype=dtype).shape == (2, 0)


@pytest.mark.parametrize("n,m,k", [(4, None, 0), (4, 6, 1), (5, 3, -2), (3, 3, 5), (0, 2, 0), (3, 4, -3)])
def test_eye(array_device, n, m, k):
    same(npgpu.eye(n, m, k=k), np.eye(n, m, k=k))
    same(npgpu.eye(n, m, k=k, dtype=np.int8), np.eye(n, m, k=k, dtype=np.int8))
    same(npgpu.identity(n), np.identity(n))


def test_like_functions(array_device, random_array):
    h = random_array((3, 5), np.float32)
    x = npgpu.asarray(h)[:, ::2]
    for fn, want in ((npgpu.zeros_like, np.zeros_like(h[:, ::2])), (npgpu.ones_like, np.ones_like(h[:, ::2]))):
        r = fn(x)
        assert r.device == x.device
        same(r, want)
    same(npgpu.full_like(x, 2.75), np.full_like(h[:, ::2], 2.75))
    same(npgpu.full_like(x, 7, dtype=np.int16), np.full_like(h[:, ::2], 7, dtype=np.int16))
    e = npgpu.empty_like(x, dtype=np.int64)
    assert e.shape == (3, 3) and e.dtype == np.int64 and e.device == x.device


@pytest.mark.parametrize("indexing", ["xy", "ij"])
def test_meshgrid(array_device, indexing):
    a, b, c = np.arange(3.0), np.arange(4, dtype=np.int32), np.linspace(0, 1, 2)
    got = npgpu.meshgrid(npgpu.asarray(a), npgpu.asarray(b), npgpu.asarray(c), indexing=indexing)
    for g, w in zip(got, np.meshgrid(a, b, c, indexing=indexing)):
        same(g, w)
    with pytest.raises(ValueError, match="indexing"):
        npgpu.meshgrid(npgpu.asarray(a), indexing="zz")


@pytest.mark.parametrize("k", [-2, -1, 0, 1, 3])
@pytest.mark.parametrize("dtype", ["bool", "int32", "float64", "complex64"])
def test_tril_triu(array_device, random_array, k, dtype):
    h = random_array((2, 4, 5), dtype)
    x = npgpu.asarray(h)
    same(npgpu.tril(x, k=k), np.tril(h, k=k))
    same(npgpu.triu(x, k=k), np.triu(h, k=k))
    with pytest.raises(ValueError, match="2-D"):
        npgpu.tril(npgpu.asarray(h[0, 0]))
