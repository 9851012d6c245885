"""Zero-copy exchange with CuPy, PyTorch and Numba (each test skips when its library is missing)."""
import numpy as np
import pytest

import npgpu

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def cp():
    cupy = pytest.importorskip("cupy")
    try:
        if cupy.cuda.runtime.getDeviceCount() < 1:
            pytest.skip("CuPy sees no GPU")
    except Exception as e:  # noqa: BLE001 - a CuPy built for another CUDA
        pytest.skip(f"CuPy unusable: {e}")
    return cupy


@pytest.fixture(scope="module")
def torch():
    t = pytest.importorskip("torch")
    if not t.cuda.is_available():
        pytest.skip("PyTorch has no CUDA")
    return t


@pytest.fixture(scope="module")
def numba_cuda():
    np.row_stack = getattr(np, "row_stack", np.vstack)  # removed from NumPy 2.x; older numba still names it
    pytest.importorskip("numba")
    cuda = pytest.importorskip("numba.cuda")
    try:
        if not cuda.is_available():
            pytest.skip("numba.cuda sees no GPU")
    except Exception as e:  # noqa: BLE001
        pytest.skip(f"numba.cuda unusable: {e}")
    return cuda


# --------------------------------------------------------------------------------------------- CuPy

def test_cupy_to_npgpu_shares_memory(cp):
    c = cp.arange(24, dtype=cp.float32).reshape(4, 6)
    d = npgpu.asarray(c)
    assert isinstance(d, npgpu.Array)
    assert d.ptr == c.data.ptr and d.shape == (4, 6) and d.dtype == np.float32
    assert np.array_equal(d.get(), cp.asnumpy(c))
    npgpu.add(d, 1.0, out=d)  # write through npgpu
    npgpu.synchronize()  # the whole device: every library's streams
    assert np.array_equal(cp.asnumpy(c), np.arange(24, dtype=np.float32).reshape(4, 6) + 1)
    c *= 2  # write through CuPy
    cp.cuda.Device().synchronize()
    assert np.array_equal(d.get(), (np.arange(24, dtype=np.float32).reshape(4, 6) + 1) * 2)


def test_cupy_strided_view_to_npgpu(cp):
    c = cp.arange(60, dtype=cp.int64).reshape(6, 10)
    v = c[::2, ::-3]
    d = npgpu.asarray(v)
    assert d.ptr == v.data.ptr and d.strides == v.strides
    assert np.array_equal(d.get(), cp.asnumpy(v))
    assert np.array_equal((d + d).get(), 2 * cp.asnumpy(v))


def test_npgpu_to_cupy_shares_memory(cp):
    d = npgpu.asarray(np.linspace(0, 1, 100))
    c = cp.asarray(d)
    assert c.data.ptr == d.ptr and c.shape == (100,) and c.dtype == np.float64
    assert np.array_equal(cp.asnumpy(c), d.get())
    c += 5.0
    cp.cuda.Device().synchronize()
    assert np.array_equal(d.get(), np.linspace(0, 1, 100) + 5.0)
    npgpu.add(d, d, out=d)
    npgpu.synchronize()
    assert np.array_equal(cp.asnumpy(c), 2 * (np.linspace(0, 1, 100) + 5.0))


@pytest.mark.parametrize("dtype", npgpu.SUPPORTED_DTYPES, ids=lambda d: d.name)
def test_cupy_dlpack_both_ways(cp, random_array, dtype):
    h = random_array((3, 5), dtype)
    d = npgpu.asarray(h)
    c = cp.from_dlpack(d)
    assert c.data.ptr == d.ptr and c.dtype == dtype
    assert np.array_equal(cp.asnumpy(c), h)
    back = npgpu.from_dlpack(c)
    assert back.ptr == d.ptr and np.array_equal(back.get(), h)


# ------------------------------------------------------------------------------------------ PyTorch

def test_torch_from_npgpu_dlpack_shares_memory(torch):
    h = np.arange(12, dtype=np.float32).reshape(3, 4)
    d = npgpu.asarray(h)
    t = torch.from_dlpack(d)
    assert t.is_cuda and t.data_ptr() == d.ptr
    assert tuple(t.shape) == (3, 4) and t.dtype == torch.float32
    assert np.array_equal(t.cpu().numpy(), h)
    t.add_(1)  # write through torch
    torch.cuda.synchronize()
    assert np.array_equal(d.get(), h + 1)
    npgpu.add(d, d, out=d)  # write through npgpu
    npgpu.synchronize()
    assert np.array_equal(t.cpu().numpy(), 2 * (h + 1))


def test_npgpu_from_torch_dlpack_default_stream(torch):
    t = torch.arange(10, dtype=torch.int32, device="cuda")
    d = npgpu.from_dlpack(t)
    assert d.ptr == t.data_ptr()


@pytest.mark.parametrize("stream", ["legacy", "own"])
def test_npgpu_from_torch_dlpack_shares_memory(torch, stream):
    t = torch.arange(10, dtype=torch.int32, device="cuda")
    s = npgpu.Stream.null() if stream == "legacy" else npgpu.Stream()
    d = npgpu.from_dlpack(t, stream=s)
    assert d.ptr == t.data_ptr() and d.dtype == np.int32 and d.shape == (10,)
    assert np.array_equal(d.get(), np.arange(10, dtype=np.int32))
    npgpu.add(d, 100, out=d)
    npgpu.synchronize()
    assert t.cpu().tolist() == list(range(100, 110))
    t.mul_(2)
    torch.cuda.synchronize()
    assert d.get().tolist() == [2 * x for x in range(100, 110)]
    del d  # before its stream


def test_npgpu_from_torch_via_asarray(torch):
    t = torch.ones((4, 5), dtype=torch.float64, device="cuda").t()  # transposed: strided
    torch.cuda.synchronize()
    d = npgpu.asarray(t)
    assert d.ptr == t.data_ptr() and d.shape == (5, 4)
    assert np.array_equal(d.get(), np.ones((5, 4)))


@pytest.mark.parametrize("name", ["bool", "int8", "uint8", "int16", "int32", "int64", "float32", "float64",
                                  "complex64", "complex128"])
def test_torch_dtypes_round_trip(torch, random_array, name):
    h = random_array(17, name)
    d = npgpu.asarray(h)
    t = torch.from_dlpack(d)
    assert t.data_ptr() == d.ptr
    assert np.array_equal(t.cpu().numpy(), h)
    back = npgpu.from_dlpack(t, stream=npgpu.Stream.null())  # an explicit stream works too
    assert back.ptr == d.ptr and back.dtype == h.dtype and np.array_equal(back.get(), h)


# -------------------------------------------------------------------------------------------- Numba

def test_numba_as_cuda_array(numba_cuda):
    h = np.arange(16, dtype=np.float64)
    d = npgpu.asarray(h)
    nd = numba_cuda.as_cuda_array(d)
    assert nd.shape == (16,) and nd.dtype == np.float64
    assert nd.device_ctypes_pointer.value == d.ptr
    assert np.array_equal(nd.copy_to_host(), h)
    assert numba_cuda.is_cuda_array(d)

    @numba_cuda.jit
    def scale(x):
        i = numba_cuda.grid(1)
        if i < x.shape[0]:
            x[i] *= 3.0

    scale[1, 32](nd)
    numba_cuda.synchronize()
    assert np.array_equal(d.get(), 3 * h)
    npgpu.add(d, 1.0, out=d)
    npgpu.synchronize()
    assert np.array_equal(nd.copy_to_host(), 3 * h + 1)


def test_numba_to_npgpu(numba_cuda):
    nd = numba_cuda.to_device(np.arange(8, dtype=np.int32))
    d = npgpu.asarray(nd)
    assert d.ptr == nd.device_ctypes_pointer.value
    assert np.array_equal((d + d).get(), 2 * np.arange(8, dtype=np.int32))
