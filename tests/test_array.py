"""npgpu.Array: creation, transfers, attributes, conversions, CUDA Array Interface, DLPack, limits."""
import gc

import numpy as np
import pytest

import npgpu

DTYPES = tuple(npgpu.SUPPORTED_DTYPES)
DTYPE_IDS = [d.name for d in DTYPES]
SHAPES = [(), (0,), (5,), (3, 4, 5)]

gpu = pytest.mark.gpu


# ------------------------------------------------------------------------------------ without a GPU

def test_array_cannot_be_constructed_directly():
    with pytest.raises(TypeError, match="asarray"):
        npgpu.Array()
    with pytest.raises(TypeError):
        npgpu.Array((3,), np.float32)


def test_from_dlpack_rejects_objects_without_dlpack():
    with pytest.raises(TypeError, match="DLPack"):
        npgpu.from_dlpack([1, 2, 3])


@pytest.mark.parametrize("shape", [(-1,), (3, -2), (2**40, 2**40), (2**62, 4), (2**61,)], ids=str)
def test_empty_pinned_rejects_bad_shapes_before_allocating(shape):
    # The shape is validated before any allocation (so before CUDA is needed).
    with pytest.raises(ValueError):
        npgpu.empty_pinned(shape, dtype=np.float64)


@pytest.mark.parametrize("shape", [(2**40, 2**40), (2**62, 4), (-1,)], ids=str)
def test_bad_host_shapes_raise_before_allocating(shape):
    with pytest.raises(ValueError):
        npgpu.empty(shape, dtype=np.float32, device="cpu")


def test_too_many_dimensions_rejected():
    with pytest.raises(ValueError, match="32"):
        npgpu.empty_pinned((1,) * 33)


# ----------------------------------------------------------------------------------- round trips

@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
def test_round_trip(random_array, dtype, shape):
    h = random_array(shape, dtype)
    d = npgpu.asarray(h)
    assert isinstance(d, npgpu.Array)
    assert d.shape == shape and d.dtype == dtype and d.size == h.size
    back = d.get()
    assert isinstance(back, np.ndarray) and back.dtype == dtype and back.shape == shape
    assert np.array_equal(back, h)
    assert back.flags.c_contiguous and back.flags.writeable and back.flags.owndata
    via_numpy = np.asarray(d)
    assert via_numpy.dtype == dtype and np.array_equal(via_numpy, h)
    assert np.array_equal(np.array(d, dtype=np.complex128), h.astype(np.complex128))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.float64, np.complex64], ids=lambda d: np.dtype(d).name)
def test_round_trip_non_contiguous_input(random_array, dtype):
    base = random_array((30, 40, 3), dtype)
    for h in (base[::2, ::-3], base.transpose(2, 0, 1), base[..., 1], base[5:6, ::-1, ::2]):
        d = npgpu.asarray(h)
        assert d.shape == h.shape and d.flags["C_CONTIGUOUS"]
        assert np.array_equal(d.get(), h)


@pytest.mark.gpu
def test_asarray_variants(random_array):
    assert np.array_equal(npgpu.asarray([1, 2, 3]).get(), np.array([1, 2, 3]))
    assert npgpu.asarray(2.5).shape == () and npgpu.asarray(2.5).get()[()] == 2.5
    h = random_array(100, np.int32)
    d = npgpu.asarray(h, dtype=np.float32)
    assert d.dtype == np.float32 and np.array_equal(d.get(), h.astype(np.float32))
    assert npgpu.asarray(d) is d
    c = npgpu.asarray(d, copy=True)
    assert c is not d and c.ptr != d.ptr and np.array_equal(c.get(), d.get())
    conv = npgpu.asarray(d, dtype=np.float64)
    assert conv.dtype == np.float64 and np.array_equal(conv.get(), h.astype(np.float32).astype(np.float64))
    with pytest.raises(ValueError):
        npgpu.asarray(h, copy=False)  # host data needs a copy
    with pytest.raises(ValueError):
        npgpu.asarray(d, dtype=np.float64, copy=False)


@pytest.mark.gpu
def test_host_array_can_be_freed_after_asarray(rng):
    h = rng.random(1 << 20)
    expected = h.copy()
    d = npgpu.asarray(h)
    h[:] = -1.0
    del h
    gc.collect()
    assert np.array_equal(d.get(), expected)


@pytest.mark.gpu
def test_get_into_out(random_array):
    h = random_array((7, 9), np.float32)
    d = npgpu.asarray(h)
    out = np.full((7, 9), np.nan, np.float32)
    assert d.get(out=out) is out and np.array_equal(out, h)
    for bad in (np.empty((9, 7), np.float32), np.empty((7, 9), np.float64), np.empty((9, 7), np.float32).T):
        with pytest.raises(ValueError):
            d.get(out=bad)
    with pytest.raises(ValueError, match="copy"):
        d.__array__(copy=False)  # what np.asarray(d, copy=False) calls: device memory needs a copy


# -------------------------------------------------------------------------------------- creation

@pytest.mark.usefixtures("array_device")
def test_iteration_as_numpys(random_array):
    import collections.abc

    h = random_array((3, 2, 4), np.int32)
    x = npgpu.asarray(h)
    assert isinstance(x, collections.abc.Iterable)
    rows = list(x)
    assert len(rows) == 3 and all(isinstance(r, npgpu.Array) for r in rows)
    for r, want in zip(rows, h):
        assert r.shape == want.shape and np.array_equal(r.get(), want)
    flat = list(npgpu.asarray(h[0, 0]))
    assert [int(v) for v in flat] == h[0, 0].tolist() and all(v.shape == () for v in flat)
    assert list(npgpu.asarray(h[:0])) == []
    first, second, third = x  # unpacking, as NumPy
    assert np.array_equal(third.get(), h[2])
    with pytest.raises(TypeError, match="iteration over a 0-d array"):
        iter(npgpu.asarray(h[0, 0, 0]))
    assert npgpu.Array[np.float64].__origin__ is npgpu.Array  # annotations, as numpy.ndarray[...]


@pytest.mark.usefixtures("array_device")
def test_empty():
    a = npgpu.empty((3, 4))
    assert a.shape == (3, 4) and a.dtype == np.float64
    assert npgpu.empty(5, dtype=np.int8).shape == (5,)
    assert npgpu.empty(np.int64(5)).shape == (5,)
    assert npgpu.empty([2, 3], np.complex64).dtype == np.complex64
    for shape in [(), (0,), (2, 0, 3)]:
        e = npgpu.empty(shape)
        assert e.shape == shape
        e[...] = 1.5  # empty's contents are undefined (compute-sanitizer's initcheck reports reading them)
        np.testing.assert_array_equal(e.get(), np.full(shape, 1.5))
    for bad in (None, 2.5, object()):
        with pytest.raises(TypeError):
            npgpu.empty(bad)


@pytest.mark.usefixtures("array_device")
def test_shape_entries_must_be_integers():
    for bad in ((2.5, 3), "12"):
        with pytest.raises(TypeError):
            npgpu.empty(bad)


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
def test_zeros(dtype):
    z = npgpu.zeros((4, 5), dtype=dtype)
    assert z.dtype == dtype and z.shape == (4, 5)
    assert np.array_equal(z.get(), np.zeros((4, 5), dtype))
    assert npgpu.zeros(3).dtype == np.float64


@pytest.mark.usefixtures("array_device")
def test_full():
    f = npgpu.full((1001,), 7.5, dtype=np.float32)
    assert f.dtype == np.float32 and np.array_equal(f.get(), np.full(1001, 7.5, np.float32))
    c = npgpu.full((3, 2), 1.5 - 2j)
    assert c.dtype == np.complex128 and np.array_equal(c.get(), np.full((3, 2), 1.5 - 2j))
    c64 = npgpu.full(5, 1 + 2j, dtype=np.complex64)
    assert c64.dtype == np.complex64 and np.array_equal(c64.get(), np.full(5, 1 + 2j, np.complex64))
    assert npgpu.full(4, 7).dtype == np.full(4, 7).dtype
    assert npgpu.full(4, 2.0).dtype == np.float64
    assert npgpu.full(4, True).get().tolist() == [True] * 4
    i16 = npgpu.full((2, 3), -12345, dtype=np.int16)
    assert np.array_equal(i16.get(), np.full((2, 3), -12345, np.int16))
    u64 = npgpu.full(3, 2**64 - 1, dtype=np.uint64)
    assert u64.get().tolist() == [2**64 - 1] * 3
    assert npgpu.full((), 3.0).get()[()] == 3.0
    assert npgpu.full(0, 3.0).shape == (0,)
    with pytest.raises(ValueError):
        npgpu.full(3, [1.0, 2.0, 3.0])
    with pytest.raises(OverflowError):
        npgpu.full(3, 300, dtype=np.int8)


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("shape", [(-1,), (3, -2)], ids=str)
def test_negative_dimension_raises_value_error(shape):
    with pytest.raises(ValueError, match="negative"):
        npgpu.empty(shape)


@pytest.mark.gpu
@pytest.mark.parametrize("shape,dtype", [((2**40, 2**40), np.uint8), ((2**62, 4), np.float32),
                                         ((2**61,), np.float64)], ids=str)
def test_overflowing_shape_raises_before_allocating(shape, dtype):
    gc.collect()
    npgpu.synchronize()
    before = npgpu.memory_info()
    with pytest.raises(ValueError, match="too big"):
        npgpu.empty(shape, dtype=dtype)
    npgpu.synchronize()
    after = npgpu.memory_info()
    assert after["pool_used"] == before["pool_used"]
    assert after["pool_reserved"] == before["pool_reserved"]
    assert npgpu.empty(3).shape == (3,)


@pytest.mark.gpu
@pytest.mark.alone
def test_out_of_memory_then_recovers():
    small = [npgpu.empty(1000) for _ in range(10)]
    del small  # freed small blocks wait in npgpu's reuse cache
    assert npgpu.memory_info()["cached_bytes"] > 0
    with pytest.raises(npgpu.OutOfMemoryError) as ei:
        npgpu.empty(2**50, dtype=np.uint8)
    assert isinstance(ei.value, MemoryError)
    assert str(ei.value)
    assert npgpu.memory_info()["cached_bytes"] == 0  # released before the one retry
    # The failure leaves CUDA usable: the next allocation and computation work.
    a = npgpu.full(1000, 1.5)
    assert np.array_equal((a + a).get(), np.full(1000, 3.0))
    with pytest.raises(npgpu.OutOfMemoryError):
        npgpu.zeros((2**25, 2**25), dtype=np.float32)
    assert np.array_equal(npgpu.asarray(np.arange(5)).get(), np.arange(5))
    npgpu.synchronize()


@pytest.mark.usefixtures("array_device")
def test_unsupported_dtypes_raise_type_error():
    for dt in (object, "U3", "datetime64[s]", ">i4" if np.little_endian else "<i4"):
        with pytest.raises(TypeError, match="dtype"):
            npgpu.empty(3, dtype=dt)
    with pytest.raises(TypeError, match="dtype"):
        npgpu.asarray(np.ones(3, "U3"))
    with pytest.raises(TypeError):
        npgpu.asarray(np.array([1, "a"], dtype=object))
    with pytest.raises(TypeError):
        npgpu.asarray(np.ones(3)).astype("U3")


@pytest.mark.usefixtures("array_device")
def test_float16_storage_round_trips_and_converts_like_numpy(rng):
    # Every float16 bit pattern (NaNs included) survives a round trip; conversions round as NumPy does.
    bits = np.arange(1 << 16, dtype=np.uint16)
    h = bits.view(np.float16)
    d = npgpu.asarray(h)
    assert d.dtype == np.float16
    np.testing.assert_array_equal(d.get().view(np.uint16), bits)
    finite = h[np.isfinite(h)]
    np.testing.assert_array_equal(npgpu.asarray(finite).astype(np.float32).get(), finite.astype(np.float32))
    x = np.concatenate([rng.standard_normal(10000) * 10.0 ** rng.integers(-9, 6, 10000),
                        [65504.0, 65520.0, 65519.99, 6e-8, 3e-8, 2.98e-8, -0.0, np.inf, -np.inf]])
    for src in (x, x.astype(np.float32)):
        got = npgpu.asarray(src).astype(np.float16).get()
        np.testing.assert_array_equal(got.view(np.uint16), src.astype(np.float16).view(np.uint16))


# ------------------------------------------------------------------------------ copies, conversions

@pytest.mark.usefixtures("array_device")
def test_copy(random_array):
    h = random_array((6, 7), np.complex64)
    d = npgpu.asarray(h)
    c = d.copy()
    assert isinstance(c, npgpu.Array) and c is not d and c.ptr != d.ptr
    assert c.shape == d.shape and c.dtype == d.dtype and np.array_equal(c.get(), h)
    npgpu.add(c, c, out=c)
    assert np.array_equal(d.get(), h) and np.array_equal(c.get(), h + h)


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("src,dst", [
    (np.float64, np.float32), (np.float32, np.float64), (np.int32, np.float64), (np.float64, np.int32),
    (np.int64, np.int8), (np.uint8, np.int16), (np.bool_, np.float32), (np.int16, np.bool_),
    (np.float32, np.complex128), (np.int32, np.complex64), (np.complex128, np.complex64), (np.uint64, np.float64),
], ids=lambda d: np.dtype(d).name)
def test_astype(random_array, src, dst):
    h = random_array(257, src)
    if np.dtype(src).kind == "f" and np.dtype(dst).kind in "iu":
        h = (h % 100).astype(src)  # in range: float->int of out-of-range values is undefined in C
    d = npgpu.asarray(h)
    r = d.astype(dst)
    assert r.dtype == dst and r.shape == h.shape and r.ptr != d.ptr
    assert np.array_equal(r.get(), h.astype(dst))


@pytest.mark.usefixtures("array_device")
def test_astype_complex_to_real_drops_imaginary():
    h = np.array([1 + 2j, -3.5 - 1j], np.complex128)
    r = npgpu.asarray(h).astype(np.float64)
    assert r.get().tolist() == [1.0, -3.5]


@pytest.mark.usefixtures("array_device")
def test_astype_same_dtype(random_array):
    d = npgpu.asarray(random_array(10, np.int16))
    assert d.astype(np.int16, copy=False) is d
    c = d.astype(np.int16)
    assert c is not d and c.ptr != d.ptr and np.array_equal(c.get(), d.get())


# --------------------------------------------------------------------------------------- attributes

@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.bool_, np.int16, np.float32, np.complex128], ids=lambda d: np.dtype(d).name)
def test_attributes(dtype):
    h = np.zeros((3, 4, 5), dtype)
    d = npgpu.asarray(h)
    assert d.shape == (3, 4, 5) and isinstance(d.shape, tuple)
    assert d.strides == h.strides
    assert d.dtype == np.dtype(dtype) and isinstance(d.dtype, np.dtype)
    assert d.ndim == 3
    assert d.size == 60
    assert d.itemsize == h.itemsize
    assert d.nbytes == h.nbytes
    assert d.device_id == npgpu.get_device_id() == 0
    assert d.device == npgpu.Device(0)
    assert len(d) == 3
    assert d.ptr != 0 and d.readonly is False
    assert d.flags["C_CONTIGUOUS"] and d.flags["WRITEABLE"] and d.flags["OWNDATA"]
    r = repr(d)  # NumPy's text, "Array" for "array", and the device
    assert r.startswith("Array([[[") and r.endswith("device='cuda:0')")
    assert (np.dtype(dtype).name in r) == (np.dtype(dtype).name not in ("bool", "int64", "float64", "complex128"))
    s = npgpu.asarray(np.float32(1))
    assert s.shape == () and s.ndim == 0 and s.size == 1 and s.strides == ()
    with pytest.raises(TypeError):
        len(s)
    e = npgpu.empty((0, 4), np.float32)
    assert e.size == 0 and e.nbytes == 0 and len(e) == 0


# --------------------------------------------------------------------------- CUDA Array Interface

@pytest.mark.gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
def test_cuda_array_interface(dtype):
    d = npgpu.zeros((4, 6), dtype=dtype)
    cai = d.__cuda_array_interface__
    assert cai["version"] == 3
    assert cai["shape"] == (4, 6)
    assert cai["typestr"] == np.dtype(dtype).str
    assert np.dtype(cai["typestr"]) == dtype
    assert cai["data"] == (d.ptr, False)
    assert cai["strides"] is None  # C-contiguous
    assert "stream" in cai and isinstance(cai["stream"], int) and cai["stream"] != 0  # v3 forbids 0
    assert set(cai) >= {"shape", "typestr", "data", "version", "strides", "stream"}


@pytest.mark.gpu
def test_cuda_array_interface_stream_and_strides():
    s = npgpu.Stream()
    with s:
        d = npgpu.zeros(8)
    assert d.__cuda_array_interface__["stream"] == s.ptr
    s.synchronize()
    del d  # before its stream (see test_memory.py::test_array_outliving_its_stream_is_freed)
    legacy = npgpu.zeros(8, stream=npgpu.Stream.null())
    assert legacy.__cuda_array_interface__["stream"] == 1
    # A strided view imported through the interface reports its strides.

    class Holder:
        def __init__(self, iface, keep):
            self.__cuda_array_interface__ = iface
            self.keep = keep

    base = npgpu.asarray(np.arange(24, dtype=np.int32).reshape(4, 6))
    view = npgpu.asarray(Holder({"shape": (6, 4), "typestr": "<i4", "data": (base.ptr, False),
                                 "strides": (4, 24), "version": 3, "stream": 2}, base))
    assert view.ptr == base.ptr
    assert view.__cuda_array_interface__["strides"] == (4, 24)
    assert np.array_equal(view.get(), np.arange(24, dtype=np.int32).reshape(4, 6).T)
    with pytest.raises(ValueError, match="stream 0"):
        npgpu.asarray(Holder({"shape": (1,), "typestr": "<i4", "data": (base.ptr, False), "version": 3,
                              "stream": 0}, base))


# ------------------------------------------------------------------------------------------- DLPack

@pytest.mark.gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
def test_dlpack_round_trip_shares_memory(random_array, dtype):
    h = random_array((5, 3), dtype)
    d = npgpu.asarray(h)
    assert d.__dlpack_device__() == (2, 0)  # kDLCUDA, device 0
    r = npgpu.from_dlpack(d)
    assert isinstance(r, npgpu.Array) and r is not d
    assert r.ptr == d.ptr and r.shape == d.shape and r.dtype == d.dtype and r.strides == d.strides
    assert np.array_equal(r.get(), h)
    c = npgpu.from_dlpack(d, copy=True)
    assert c.ptr != d.ptr and np.array_equal(c.get(), h)


@pytest.mark.gpu
def test_dlpack_shared_writes_visible(random_array):
    h = random_array(64, np.float64)
    d = npgpu.asarray(h)
    r = npgpu.from_dlpack(d)
    npgpu.add(r, 1.0, out=r)
    assert np.array_equal(d.get(), h + 1.0)
    del d
    gc.collect()  # the import keeps the exporter's memory alive
    assert np.array_equal(r.get(), h + 1.0)


@pytest.mark.gpu
def test_dlpack_capsules():
    d = npgpu.zeros(4)
    legacy = d.__dlpack__()
    versioned = d.__dlpack__(max_version=(1, 0))
    assert type(legacy).__name__ == "PyCapsule" and type(versioned).__name__ == "PyCapsule"
    del legacy, versioned  # unconsumed capsules are released by their destructors
    gc.collect()
    with pytest.raises(BufferError):
        d.__dlpack__(dl_device=(1, 0), copy=False)  # CPU memory needs a copy
    assert np.array_equal(np.from_dlpack(npgpu.from_dlpack(d, device="cpu")), d.get())
    with pytest.raises(BufferError):
        d.__dlpack__(dl_device=(13, 0))  # no such export


@pytest.mark.usefixtures("array_device")
def test_dlpack_from_cpu_producer_copies(random_array):
    h = random_array((4, 4), np.int64)
    r = npgpu.from_dlpack(h)  # NumPy exports a CPU tensor: copied to the device
    assert isinstance(r, npgpu.Array) and np.array_equal(r.get(), h)


@pytest.mark.gpu
def test_numpy_from_dlpack_refuses_device_memory():
    d = npgpu.zeros(4)
    with pytest.raises((BufferError, RuntimeError, TypeError, ValueError)):
        np.from_dlpack(d)


@pytest.mark.parametrize("sub", [np.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0]), np.matrix([[1.0, 2.0]])],
                         ids=["masked", "matrix"])
def test_numpy_subclasses_are_refused_not_unwrapped(backend, sub):
    # A masked array's sum would silently count its masked values; np.matrix's * is a matrix product.
    for call in (lambda: npgpu.sum(sub), lambda: npgpu.add(sub, 1), lambda: npgpu.asarray(sub),
                 lambda: npgpu.sort(sub), lambda: npgpu.max(sub), lambda: npgpu.matmul(sub, sub.T)):
        with pytest.raises(TypeError, match=type(sub).__name__):
            call()


def test_memmap_is_an_ordinary_array(backend, tmp_path):
    m = np.memmap(tmp_path / "m.bin", dtype=np.float64, mode="w+", shape=(5,))
    m[:] = [1.0, 2.0, 3.0, 4.0, 5.0]
    assert float(npgpu.sum(m)) == 15.0
    np.testing.assert_array_equal(np.asarray(npgpu.add(m, 1)), [2.0, 3.0, 4.0, 5.0, 6.0])


# ------------------------------------------------------------------------- numpy.ndarray's remaining methods

def _host_of(x):
    return x.get() if isinstance(x, npgpu.Array) else x


def test_ndarray_methods_tolist_item_fill(array_device):
    h = np.arange(6.0).reshape(2, 3) * 1.5
    a = npgpu.asarray(h, device=array_device)
    assert a.tolist() == h.tolist() and type(a.tolist()[0][0]) is float
    assert npgpu.asarray(np.int32(7), device=array_device).tolist() == 7
    for args in [(4,), (-1,), (1, 2), ((0, 1),)]:
        assert a.item(*args) == h.item(*args) and type(a.item(*args)) is type(h.item(*args))
    assert npgpu.asarray([True], device=array_device).item() is True
    with pytest.raises(ValueError, match="size 1"):
        a.item()
    with pytest.raises(IndexError):
        a.item(6)
    with pytest.raises(ValueError, match="indices"):
        a.item(1, 1, 1)
    b = npgpu.zeros((2, 2), dtype=np.int16, device=array_device)
    b.fill(-3.7)  # cast as NumPy's fill: to int16
    want = np.zeros((2, 2), np.int16)
    want.fill(-3.7)
    assert np.array_equal(b.get(), want)


def test_ndarray_methods_call_the_namespace(array_device):
    rng = np.random.default_rng(5)
    h = rng.standard_normal((4, 5))
    a = npgpu.asarray(h, device=array_device)
    idx = np.array([3, 0, 7])
    pairs = [
        (a.round(2), h.round(2)),
        (a.clip(-0.5, 0.5), h.clip(-0.5, 0.5)),
        (a.repeat(2, axis=1), h.repeat(2, axis=1)),
        (a.take(npgpu.asarray(idx, device=array_device)), h.take(idx)),
        (a.diagonal(1), h.diagonal(1)),
        (a.trace(), h.trace()),
        (a.compress(npgpu.asarray([True, False, True, True], device=array_device), axis=0),
         h.compress([True, False, True, True], axis=0)),
    ]
    for got, want in pairs:
        np.testing.assert_allclose(_host_of(got), want, rtol=1e-12)
    nz = npgpu.asarray(np.array([[0, 2], [3, 0]]), device=array_device).nonzero()
    assert [x.get().tolist() for x in nz] == [[0, 1], [1, 0]]
    s = npgpu.asarray(np.sort(h.ravel()), device=array_device)
    v = np.array([-1.0, 0.0, 5.0])
    assert np.array_equal(s.searchsorted(npgpu.asarray(v, device=array_device), side="right").get(),
                          np.sort(h.ravel()).searchsorted(v, side="right"))
    c = npgpu.asarray(np.array([0, 1, 1]), device=array_device)
    ch = [npgpu.asarray(np.array(v), device=array_device) for v in ([1, 2, 3], [7, 8, 9])]
    assert c.choose(ch).get().tolist() == [1, 8, 9]


def test_ndarray_methods_in_place(array_device):
    rng = np.random.default_rng(6)
    h = rng.permutation(20).astype(np.float64)
    a = npgpu.asarray(h, device=array_device)
    a.partition(7)
    p = a.get()
    assert p[7] == np.sort(h)[7] and (p[:7] <= p[7]).all() and (p[8:] >= p[7]).all()
    ap = npgpu.asarray(h, device=array_device).argpartition(3).get()
    assert h[ap[3]] == np.sort(h)[3]
    b = npgpu.zeros(5, device=array_device)
    b.put(npgpu.asarray(np.array([0, -1]), device=array_device),
          npgpu.asarray(np.array([4.0, 5.0]), device=array_device))
    assert b.get().tolist() == [4.0, 0.0, 0.0, 0.0, 5.0]
    frozen = np.ones(3)
    frozen.flags.writeable = False
    ro = npgpu.asarray(frozen, device="cpu")  # a host Array sharing read-only memory
    assert ro.readonly
    with pytest.raises(ValueError):
        ro.fill(0.0)
    with pytest.raises(ValueError):
        ro.partition(1)


def test_ndarray_host_conversions(array_device, tmp_path):
    h = np.arange(5, dtype=np.int32)
    a = npgpu.asarray(h, device=array_device)
    assert a.tobytes() == h.tobytes()
    t = npgpu.asarray(np.arange(6.0).reshape(2, 3), device=array_device).T
    assert t.tobytes() == np.arange(6.0).reshape(2, 3).T.tobytes()
    assert t.tobytes(order="F") == np.arange(6.0).reshape(2, 3).T.tobytes(order="F")
    path = tmp_path / "a.bin"
    a.tofile(path)
    assert np.array_equal(np.fromfile(path, dtype=np.int32), h)
    a.tofile(tmp_path / "a.txt", sep=",")
    assert (tmp_path / "a.txt").read_text() == "0,1,2,3,4"


def test_ndarray_protocols_contains_copy_divmod(array_device):
    import copy

    a = npgpu.asarray(np.array([1.5, -2.0, 7.0]), device=array_device)
    assert 7.0 in a and -2 in a and 3.0 not in a
    for c in (copy.copy(a), copy.deepcopy(a)):
        assert isinstance(c, npgpu.Array) and np.array_equal(c.get(), a.get())
        c[0] = 100.0
        assert a.get()[0] == 1.5  # a copy, not a view
    q, r = divmod(a, 2.0)
    wq, wr = divmod(a.get(), 2.0)
    assert np.array_equal(q.get(), wq) and np.array_equal(r.get(), wr)
    q, r = divmod(5.0, a)
    wq, wr = divmod(5.0, a.get())
    assert np.array_equal(q.get(), wq) and np.array_equal(r.get(), wr)


@pytest.mark.parametrize("src,dst", [(np.float32, np.uint32), (np.float64, np.int64), (np.float32, np.float64),
                                     (np.float32, np.int16), (np.int8, np.uint8), (np.complex64, np.float32),
                                     (np.float64, np.complex128), (np.uint8, np.int32)])
def test_view_as_another_dtype_as_numpy(array_device, src, dst):
    rng = np.random.default_rng(11)
    h = (rng.standard_normal((3, 4, 8)) * 100).astype(src)
    a = npgpu.asarray(h, device=array_device)
    for sel in [(), (slice(None, None, -1),), (slice(1, 3), slice(None), slice(None))]:
        want, got = h[sel].view(dst), a[sel].view(dst)
        assert got.dtype == want.dtype and got.shape == want.shape and got.strides == want.strides
        assert got.tobytes() == want.tobytes() and got.base is not None
    v = a.view(dst)
    v[...] = npgpu.asarray(np.full(v.shape, 3, dtype=dst), device=array_device)  # writes reach `a`
    assert a.tobytes() == np.full(v.shape, 3, dtype=dst).tobytes()


def test_view_keeps_memory_flags_and_refuses_what_numpy_refuses(array_device):
    h = np.arange(12, dtype=np.float32).reshape(3, 4)
    a = npgpu.asarray(h, device=array_device)
    same = a.view()
    assert same is not a and same.base is a and same.dtype == a.dtype and np.array_equal(same.get(), h)
    assert a.view(npgpu.Array).shape == a.shape and a.view(type=npgpu.Array).dtype == a.dtype
    ro = npgpu.broadcast_to(a, (2, 3, 4)).view(np.int32)  # broadcast views are read-only
    assert ro.readonly and not ro.flags["WRITEABLE"]
    with pytest.raises(ValueError):
        ro[0, 0, 0] = 1
    assert npgpu.asarray(np.float32(1.5), device=array_device).view(np.int32).item() == \
        np.float32(1.5).view(np.int32)
    bad = [(lambda: a[:, ::2].view(np.float64), "last axis must be contiguous"),
           (lambda: a.T.view(np.int16), "last axis must be contiguous"),
           (lambda: a[:, :3].view(np.float64), "divisor of the total size"),
           (lambda: a[0, 0].view(np.float64), "0d array"),
           (lambda: npgpu.asarray(np.zeros(3, np.int8), device=array_device).view(np.int16),
            "divisor of the total size"),
           (lambda: a[:, 1:3].view(np.float64), "aligned"),
           (lambda: npgpu.asarray(np.zeros((3, 3), np.int32), device=array_device)[:, :2].view(np.int64),
            "stride")]
    for fn, msg in bad:
        with pytest.raises(ValueError, match=msg):
            fn()
    with pytest.raises(TypeError, match="not <class 'numpy.ndarray'>"):
        a.view(np.ndarray)
    with pytest.raises(TypeError):
        a.view("f4,f4")  # structured dtypes are not supported


@pytest.mark.parametrize("src,dst,offset", [(np.complex128, np.float64, 8), (np.complex64, np.float32, 0),
                                            (np.int32, np.int16, 2), (np.float64, np.uint8, 7),
                                            (np.int64, np.int32, 4)])
def test_getfield_and_setfield_as_numpy(array_device, src, dst, offset):
    rng = np.random.default_rng(5)
    h = (rng.standard_normal((4, 6)) * 1000).astype(src)
    if np.dtype(src).kind == "c":
        h = h + 1j * (rng.standard_normal((4, 6)) * 1000).astype(src)
    a = npgpu.asarray(h.copy(), device=array_device)
    for sel in [(), (slice(None, None, -1), slice(1, 5, 2))]:
        got, want = a[sel].getfield(dst, offset), h[sel].getfield(dst, offset)
        assert got.dtype == want.dtype and got.shape == want.shape and got.strides == want.strides
        assert np.array_equal(got.get(), want) and got.base is not None
    want = h.copy()
    want.setfield(7, dst, offset)
    assert a.setfield(7, dst, offset) is None
    assert a.tobytes() == want.tobytes()


def test_getfield_and_setfield_refuse_what_does_not_fit(array_device):
    a = npgpu.asarray(np.zeros(4, np.int32), device=array_device)
    for fn, msg in [(lambda: a.getfield(np.int64), "larger than original"),
                    (lambda: a.getfield(np.int16, 3), "offset is larger"),
                    (lambda: a.getfield(np.int8, -1), "offset is larger"),
                    (lambda: a.getfield(np.int16, 1), "aligned")]:
        with pytest.raises(ValueError, match=msg):
            fn()
    with pytest.raises(TypeError):
        a.getfield(np.int16, 1.5)
    ro = npgpu.broadcast_to(a, (2, 4))
    with pytest.raises(ValueError, match="read-only"):
        ro.setfield(1, np.int16)


def test_reshape_method_orders_as_numpy(array_device):
    h = np.arange(24.0).reshape(4, 6) * 1.5 - 7
    base = npgpu.asarray(h, device=array_device)
    # C-ordered, transposed (Fortran-contiguous) and strided sources
    for a, want in [(base, h), (base.T, h.T), (base[::-1, 1::2], h[::-1, 1::2])]:
        for order in ("C", "F", "A"):
            for shape in [(want.size,), (2, -1), (3, 2, want.size // 6)]:
                got = a.reshape(shape, order=order)
                assert got.shape == want.reshape(shape, order=order).shape
                assert np.array_equal(got.get(), want.reshape(shape, order=order)), (order, shape)
    t = base.T  # Fortran-contiguous: 'F' and 'A' reshape it without a copy, as NumPy does
    for order in ("F", "A"):
        v = t.reshape((2, 12), order=order)
        v[0, 0] = 1000.0
        assert t[0, 0].get() == 1000.0
        t[0, 0] = h[0, 0]
    with pytest.raises(ValueError, match="order 'K' is not permitted"):
        base.reshape(24, order="K")


def test_resize_in_place_as_numpy(array_device):
    for shape, new in [((6,), (2, 4)), ((2, 3), (2, 2)), ((2, 3), 9), ((4,), ()), ((0,), (3,)), ((3,), (0, 2))]:
        h = np.arange(np.prod(shape), dtype=np.float32).reshape(shape) + 1
        a = npgpu.asarray(h, device=array_device).copy()  # an array that owns its memory
        want = h.copy()
        want.resize(new, refcheck=False)
        done = a.resize(new)  # (not inside an assert: pytest's rewriting would hold another reference)
        assert done is None
        assert a.shape == want.shape and a.dtype == want.dtype and np.array_equal(a.get(), want)
    a = npgpu.arange(6, device=array_device)
    a.resize(2, 3)
    assert a.shape == (2, 3) and a.flags["OWNDATA"]
    a.resize()  # no shape: unchanged
    assert a.shape == (2, 3)


def test_resize_refuses_views_referenced_arrays_and_borrowed_memory(array_device):
    a = npgpu.arange(6, device=array_device)
    v = a[:2]
    with pytest.raises(ValueError, match="referenced"):
        a.resize(8)
    with pytest.raises(ValueError, match="does not own its data"):
        v.resize(1)
    del v
    a.resize(8)  # no view any more
    assert a.shape == (8,)
    b = npgpu.arange(4, device=array_device)
    c = b  # another name is another reference, as NumPy counts it
    with pytest.raises(ValueError, match="referenced"):
        b.resize(2)
    b.resize(2, refcheck=False)
    assert c.shape == (2,)
    with pytest.raises(ValueError, match="negative"):
        b.resize(-1)
    with pytest.raises(ValueError, match="does not own its data"):
        npgpu.arange(4, device=array_device).reshape(2, 2).T.resize(4)


def test_flat_reads_and_writes_by_flat_position_as_numpy(array_device):
    h = np.arange(24.0).reshape(4, 6) * 1.5 - 7
    for sel in [(), (slice(None, None, -1), slice(1, 5)), (slice(None), slice(None, None, 2))]:
        base = npgpu.asarray(h, device=array_device)
        a, want = base[sel].T, h.copy()[sel].T
        assert len(a.flat) == want.size
        for key in [3, slice(1, 7, 2), [0, 5, 2], np.arange(want.size) % 3 == 0]:
            got = a.flat[key]
            assert np.array_equal(got.get() if isinstance(got, npgpu.Array) else got, want.flat[key])
        a.flat[[1, 4, 6]] = npgpu.asarray([-1.0, -2.0, -3.0], device=array_device)
        want.flat[[1, 4, 6]] = [-1.0, -2.0, -3.0]
        a.flat[2:8] = [9.0, 8.0]  # fewer values repeat, as NumPy's flatiter
        want.flat[2:8] = [9.0, 8.0]
        a.flat[0] = 42.0
        want.flat[0] = 42.0
        a.flat[np.int64(-2)] = np.float64(-0.5)
        want.flat[-2] = -0.5
        assert float(a.flat[-3]) == want.flat[-3]
        with pytest.raises(IndexError, match="out of bounds"):
            a.flat[want.size] = 1.0
        with pytest.raises(ValueError, match="single item"):
            a.flat[1] = [1.0, 2.0]  # NumPy takes one scalar for one position
        assert np.array_equal(a.get(), want)
        a.flat = [0.5, 0.25, 0.125]
        want.flat = [0.5, 0.25, 0.125]
        assert np.array_equal(a.get(), want)
        assert [float(v) for v in a.flat] == want.ravel().tolist()
        assert np.array_equal(np.asarray(a.flat), want.ravel())
        assert np.array_equal(a.flat.copy().get(), want.ravel())
    ro = npgpu.broadcast_to(npgpu.asarray([1.0, 2.0], device=array_device), (2, 2))
    with pytest.raises(ValueError):
        ro.flat[0] = 5.0
    with pytest.raises(IndexError):
        npgpu.zeros(3, device=array_device).flat[3]


@pytest.mark.parametrize("dtype", [np.int16, np.uint32, np.int64, np.float16, np.float32, np.float64,
                                   np.complex64, np.complex128, np.bool_, np.int8])
def test_byteswap_as_numpy(array_device, dtype):
    h = (np.random.default_rng(3).standard_normal((3, 5)) * 300).astype(dtype)
    for sel in [(), (slice(None, None, -1), slice(None, None, 2)), (1, 2)]:
        a = npgpu.asarray(h, device=array_device)
        got, want = a[sel].byteswap(), h[sel].byteswap()
        assert got.dtype == want.dtype and got.shape == want.shape and got.tobytes() == want.tobytes()
        assert a.tobytes() == h.tobytes()  # the copy leaves the array as it was
    a, want = npgpu.asarray(h, device=array_device), h.copy()
    assert a[:, 1:4].byteswap(inplace=True).base is not None  # the view itself, swapped
    want[:, 1:4].byteswap(inplace=True)
    assert a.tobytes() == want.tobytes()


def test_setflags_makes_read_only_and_refuses_the_way_back(array_device):
    a = npgpu.asarray([1.0, 2.0], device=array_device)
    a.setflags(write=True)  # already writeable: nothing to do
    a.setflags(align=True)
    a.setflags(write=False)
    assert a.readonly
    with pytest.raises(ValueError, match="read-only"):
        a[0] = 3.0
    with pytest.raises(ValueError, match="WRITEABLE"):
        a.setflags(write=True)
    with pytest.raises(ValueError, match="WRITEBACKIFCOPY"):
        a.setflags(uic=True)
    b = a.copy()
    b[0] = 3.0
    assert b.get().tolist() == [3.0, 2.0] and a.get().tolist() == [1.0, 2.0]


def test_copies_keep_float16_nan_payloads_bit_for_bit(array_device):
    # signalling and quiet NaNs with payloads, infinities, a subnormal: NumPy's copies move the bits
    h = np.array([0x7D01, 0xFD55, 0x7C01, 0x7E00, 0x7C00, 0x0001, 0x3C00], np.uint16).view(np.float16)
    a = npgpu.asarray(h, device=array_device)
    z = npgpu.empty(h.shape, dtype=np.float16, device=array_device)
    z[...] = a
    for got in (a.copy(), z, npgpu.ascontiguousarray(a[::-1])[::-1], a.byteswap().byteswap()):
        assert got.get().view(np.uint16).tolist() == h.view(np.uint16).tolist()


def test_dump_and_dumps_pickle_the_array(array_device, tmp_path):
    import io
    import pickle

    h = np.arange(12, dtype=np.float32).reshape(3, 4) / 3
    a = npgpu.asarray(h, device=array_device)[:, ::-2]
    for back in (pickle.loads(a.dumps()),):
        assert isinstance(back, npgpu.Array) and back.dtype == a.dtype
        assert np.array_equal(back.get(), h[:, ::-2]) and str(back.device) == str(a.device)
    a.dump(tmp_path / "a.pkl")
    a.dump(str(tmp_path / "b.pkl"))
    buf = io.BytesIO()
    a.dump(buf)
    for src in (open(tmp_path / "a.pkl", "rb"), open(tmp_path / "b.pkl", "rb"), io.BytesIO(buf.getvalue())):
        with src:
            assert np.array_equal(pickle.load(src).get(), h[:, ::-2])


def test_ndarray_is_numpys_name_for_the_array_type(array_device):
    a = npgpu.arange(3, device=array_device)
    assert npgpu.ndarray is npgpu.Array and isinstance(a, npgpu.ndarray) and not isinstance(a.get(), npgpu.ndarray)
    with pytest.raises(TypeError, match="npgpu.empty"):
        npgpu.ndarray((2, 3))
