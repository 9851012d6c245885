"""npgpu.Array on the host device ("cpu"): creation, sharing and copy semantics, moves between devices,
NumPy/DLPack interchange, pickling, printing, the namespace hooks, and arange's fill on both devices."""
import pickle

import numpy as np
import pytest

import npgpu


def test_host_device_object():
    x = npgpu.asarray([1.0, 2.0], device="cpu")
    assert x.device == npgpu.cpu == "cpu" and str(x.device) == "cpu"
    assert hash(npgpu.cpu) == hash("cpu")
    assert x.device != npgpu.HostDevice() or x.device == npgpu.HostDevice()  # one equality class
    assert pickle.loads(pickle.dumps(npgpu.cpu)) == npgpu.cpu
    with pytest.raises(ValueError, match="unknown device"):
        npgpu.asarray([1.0], device="tpu")


def test_asarray_shares_numpy_memory_on_the_host(rng):
    h = rng.random((5, 7))
    x = npgpu.asarray(h, device="cpu")
    assert x.ptr == h.__array_interface__["data"][0] and x.device == "cpu"
    h[0, 0] = 42.0
    assert float(x[0, 0]) == 42.0  # shared, as numpy.asarray
    v = npgpu.asarray(h[::2, ::-1], device="cpu")  # any strides are shared
    assert not v.flags["C_CONTIGUOUS"] and np.array_equal(np.asarray(v), h[::2, ::-1])
    c = npgpu.asarray(h, device="cpu", copy=True)
    h[0, 0] = -1.0
    assert float(c[0, 0]) == 42.0 and c.flags["OWNDATA"]
    with pytest.raises(ValueError, match="copy"):
        npgpu.asarray([1, 2, 3], device="cpu", copy=False)  # a list needs a copy
    assert npgpu.asarray(h, device="cpu", copy=False).ptr == h.__array_interface__["data"][0]


def test_read_only_numpy_input_gives_read_only_array():
    h = np.arange(6.0)
    h.flags.writeable = False
    x = npgpu.asarray(h, device="cpu")
    assert x.readonly
    with pytest.raises(ValueError, match="read-only"):
        x[0] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        npgpu.add(x, 1.0, out=x)


def test_byte_swapped_and_unsupported_inputs():
    be = np.arange(4, dtype=">i4")
    x = npgpu.asarray(be, device="cpu")
    assert x.dtype == np.dtype("int32") and np.array_equal(np.asarray(x), [0, 1, 2, 3])
    with pytest.raises(TypeError, match="does not support dtype"):
        npgpu.asarray(np.array(["a"]), device="cpu")


def test_numpy_views_and_interface_are_zero_copy(rng):
    x = npgpu.asarray(rng.random((4, 3)), device="cpu")
    a = np.asarray(x)
    assert a.__array_interface__["data"][0] == x.ptr
    a[1, 1] = 7.0
    assert float(x[1, 1]) == 7.0
    assert np.array(x, copy=True).__array_interface__["data"][0] != x.ptr
    assert x.__array_interface__["shape"] == (4, 3)
    assert not hasattr(x, "__cuda_array_interface__")
    g = x.get()
    assert g.__array_interface__["data"][0] != x.ptr and np.array_equal(g, a)


def test_operations_stay_on_the_host(rng):
    h = rng.random((6, 5)).astype(np.float32)
    x = npgpu.asarray(h, device="cpu")
    for r in (x + 1, npgpu.sqrt(x), x.sum(axis=0), x.T @ x, x[::2].copy(), x.astype(np.float64), x.mT):
        assert isinstance(r, npgpu.Array) and r.device == "cpu"
    np.testing.assert_allclose(np.asarray(x.T @ x), h.T @ h, rtol=1e-5)
    np.testing.assert_allclose(np.asarray(x.sum(axis=0)), h.sum(axis=0), rtol=1e-6)
    assert np.array_equal(np.asarray(x.mT), h.T)
    s = x.sum()
    assert s.shape == () and isinstance(s, npgpu.Array) and abs(float(s) - h.sum(dtype=np.float64)) < 1e-3
    with pytest.raises(ValueError, match="mT"):
        _ = npgpu.asarray([1.0], device="cpu").mT


def test_host_out_of_other_device_is_refused(rng):
    x = npgpu.asarray(rng.random(4), device="cpu")
    with pytest.raises(TypeError, match="cannot mix"):
        npgpu.add(x, np.ones(4))


def test_to_device_same_device_is_identity(rng):
    x = npgpu.asarray(rng.random(3), device="cpu")
    assert x.to_device("cpu") is x and x.to_device(npgpu.cpu) is x and x.to_device(x.device) is x


@pytest.mark.gpu
def test_to_device_round_trip_through_the_gpu(rng):
    h = rng.random((8, 3))
    x = npgpu.asarray(h, device="cpu")
    g = x[:, ::-1].to_device("cuda")
    assert g.device == npgpu.Device(0) and np.array_equal(g.get(), h[:, ::-1])
    back = g.to_device("cpu")
    assert back.device == "cpu" and np.array_equal(np.asarray(back), h[:, ::-1])
    assert npgpu.asarray(x, device=0).device == npgpu.Device(0)
    with pytest.raises(ValueError, match="copy=False"):
        npgpu.asarray(x, device="cuda", copy=False)
    with pytest.raises(ValueError, match="different devices"):
        npgpu.add(x, g[:, ::-1])


def test_dlpack_on_the_host(rng):
    h = rng.random((3, 4))
    x = npgpu.asarray(h, device="cpu")
    assert x.__dlpack_device__() == (1, 0)
    n = np.from_dlpack(x)
    assert n.__array_interface__["data"][0] == x.ptr and np.array_equal(n, h)
    y = npgpu.from_dlpack(h)  # a CPU producer stays on the CPU (the standard's default), shared
    assert y.device == "cpu" and y.ptr == h.__array_interface__["data"][0]
    z = npgpu.from_dlpack(h, copy=True)
    assert z.ptr != h.__array_interface__["data"][0] and np.array_equal(np.asarray(z), h)
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(2, 0))


@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda", marks=pytest.mark.gpu)])
def test_pickle_keeps_contents_and_device(rng, device):
    x = npgpu.asarray(rng.random((3, 2)).astype(np.float32), device=device)[:, ::-1]
    y = pickle.loads(pickle.dumps(x))
    assert isinstance(y, npgpu.Array) and y.device == x.device and y.dtype == x.dtype
    assert np.array_equal(y.get(), x.get())


def test_repr_and_str_as_numpy():
    h = np.array([[1.5, 2.0], [3.0, 4.25]], dtype=np.float32)
    x = npgpu.asarray(h, device="cpu")
    assert repr(x) == "Array" + repr(h)[5:]
    assert str(x) == str(h)
    assert repr(npgpu.asarray(np.int64(3), device="cpu")) == "Array(3)"


def test_array_namespace():
    x = npgpu.asarray([1.0], device="cpu")
    assert x.__array_namespace__() is npgpu
    assert x.__array_namespace__(api_version="2024.12") is npgpu
    with pytest.raises(ValueError, match="api_version"):
        x.__array_namespace__(api_version="2099.01")


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "int64", "uint64", "float16", "float32", "float64",
                                   "complex64", "complex128"])
@pytest.mark.parametrize("start,step,n", [(0, 1, 1000), (-5, 3, 257), (0.5, 0.1, 1001), (7, -2, 33), (3, 0.25, 1)])
def test_fill_arange_as_numpy(array_device, dtype, start, step, n):
    if np.dtype(dtype).kind in "iu" and (isinstance(start, float) or isinstance(step, float)):
        pytest.skip("NumPy's arange of an integer dtype from float bounds is not this function's contract")
    if np.dtype(dtype).kind == "u" and start < 0:
        pytest.skip("NumPy refuses a negative start for an unsigned dtype")
    expected = np.arange(start, start + step * n, step, dtype=dtype)[:n]
    out = npgpu.full(n, 99, dtype=dtype)  # poisoned
    npgpu._array.fill_arange(out, start, step)
    got = np.asarray(out.get())
    assert got.dtype == expected.dtype and np.array_equal(got, expected)


def test_fill_arange_needs_contiguous_output():
    out = npgpu.zeros(10, device="cpu")
    with pytest.raises(ValueError, match="contiguous"):
        npgpu._array.fill_arange(out[::2], 0, 1)
