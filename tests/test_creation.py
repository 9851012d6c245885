"""Creation functions of the namespace (npgpu._creation) against NumPy, on each device (array_device): dtype,
shape and values exactly equal, results on the right device, NumPy's exceptions for bad input."""
import math

import numpy as np
import pytest
from numpy.exceptions import AxisError

import npgpu

DTYPES = ["bool", "int8", "int64", "uint16", "float32", "float64", "complex64"]
NUMERIC = ["int8", "uint16", "int32", "int64", "float16", "float32", "float64", "complex64", "complex128"]


@pytest.fixture
def same(assert_same, array_device):
    """same(got, want): got is an npgpu.Array on the test's device holding NumPy's result exactly."""
    def check(got, want, device=None):
        assert isinstance(got, npgpu.Array), type(got)
        assert str(got.device) == str(npgpu.empty(0, device=device or array_device).device)
        assert_same(got.get(), np.asarray(want))
    return check


# ------------------------------------------------------------------------------------------------ arange

@pytest.mark.parametrize("args", [(10,), (0,), (-3,), (1,), (2, 17), (17, 2, -3), (17, 2), (0.5, 7.25, 0.25),
                                  (1.0, -2.0, -0.1), (3, 4.5), (np.float32(0.1), 3, 0.2),
                                  (np.float32(0.5), np.float32(9.5), np.float32(0.75)), (np.int8(3), np.int8(90)),
                                  (np.uint16(7),), (-5, 1000, 7), (1e-300, 1e-299, 1e-301), (True,)], ids=repr)
def test_arange(array_device, same, args):
    same(npgpu.arange(*args), np.arange(*args))


@pytest.mark.parametrize("dtype", NUMERIC)
def test_arange_dtypes(array_device, same, dtype):
    same(npgpu.arange(3, 250, 3, dtype=dtype), np.arange(3, 250, 3, dtype=dtype))
    same(npgpu.arange(0.5, 5.5, 1.5, dtype=dtype), np.arange(0.5, 5.5, 1.5, dtype=dtype))
    same(npgpu.arange(7, dtype=dtype), np.arange(7, dtype=dtype))


def test_arange_bool_scalar_bounds_and_device(array_device, same):
    same(npgpu.arange(2, dtype=bool), np.arange(2, dtype=bool))
    # a 0-d npgpu.Array as a bound; an explicit device
    same(npgpu.arange(npgpu.asarray(np.int16(5)), 12), np.arange(np.int16(5), 12))
    same(npgpu.arange(4, device="cpu"), np.arange(4), device="cpu")
    same(npgpu.arange(3, device=npgpu.asarray(0).device), np.arange(3))


def test_arange_errors(array_device):
    with pytest.raises(ZeroDivisionError, match="step"):
        npgpu.arange(0, 5, 0)
    with pytest.raises(TypeError, match="scalar"):
        npgpu.arange(np.arange(3))
    with pytest.raises(TypeError, match="scalar"):
        npgpu.arange(npgpu.asarray(np.arange(3)))
    with pytest.raises(TypeError, match="complex"):
        npgpu.arange(1j)
    with pytest.raises(TypeError, match="numbers"):
        npgpu.arange("3")
    with pytest.raises(ValueError, match="NaN"):
        npgpu.arange(0, np.nan)
    with pytest.raises(ValueError, match="size"):
        npgpu.arange(0, np.inf)
    with pytest.raises(TypeError, match="booleans"):  # NumPy 2's type
        npgpu.arange(3, dtype=bool)
    with pytest.raises(TypeError, match="booleans"):
        np.arange(3, dtype=bool)


# ------------------------------------------------------------------------------------------------ linspace

@pytest.mark.parametrize("args,kw", [
    ((0, 1), {}), ((2.5, -7), {"num": 13}), ((0, 1), {"num": 1}), ((0, 1), {"num": 0}),
    ((-3, 3), {"num": 10, "endpoint": False}), ((0, 1), {"num": 1, "endpoint": False}),
    ((1, 10), {"num": 7, "dtype": np.int32}), ((-7.5, 10), {"num": 9, "dtype": np.int8}),
    ((0, 3), {"num": 5, "dtype": np.uint16}), ((0, 1), {"num": 4, "dtype": bool}),
    ((0, 1), {"num": 11, "dtype": np.float32}), ((1, 1), {"num": 5}), ((0, 1e-300), {"num": 9}),
    ((0, 5e-324), {"num": 7}), ((0, np.inf), {"num": 1}), ((-np.inf, np.inf), {"num": 3}),
    ((np.float32(0.1), np.float32(7.3)), {"num": 23}), ((np.float32(0.1), 33), {"num": 17}),
    ((np.float16(0.1), 33), {"num": 17}), ((np.float16(-2), np.float16(0.3)), {"num": 9, "endpoint": False}),
    ((np.int8(-3), np.int8(100)), {"num": 6}), ((np.uint16(3), 9.5), {"num": 4}),
    ((1 + 2j, 3 - 1j), {"num": 6}), ((np.complex64(1 + 2j), 3), {"num": 5}),
], ids=repr)
def test_linspace(array_device, same, args, kw):
    with np.errstate(all="ignore"):
        want = np.linspace(*args, **kw)
        got = npgpu.linspace(*args, **kw)
    if want.dtype.kind == "c":  # NumPy's complex multiply may fuse (SIMD fmaddsub): equal to an ulp
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got.get(), want, rtol=4e-16 if want.dtype == np.complex128 else 2e-7)
    else:
        same(got, want)


def test_linspace_retstep(array_device, same):
    y, step = npgpu.linspace(0, 2, 5, retstep=True)
    want, wstep = np.linspace(0, 2, 5, retstep=True)
    same(y, want)
    assert type(step) is type(wstep) and step == wstep
    y, step = npgpu.linspace(np.float32(0), 1, 4, endpoint=False, retstep=True)
    want, wstep = np.linspace(np.float32(0), 1, 4, endpoint=False, retstep=True)
    assert type(step) is type(wstep) and step == wstep
    assert np.isnan(npgpu.linspace(0, 1, 1, retstep=True)[1])


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_linspace_array_bounds(array_device, same, random_array, axis):
    start, stop = random_array((3,), np.float32), random_array((2, 3), np.float64)
    same(npgpu.linspace(npgpu.asarray(start), npgpu.asarray(stop), 6, axis=axis),
         np.linspace(start, stop, 6, axis=axis))
    # one bound a Python scalar, the other a NumPy array (converted to the default device); integer dtype
    same(npgpu.linspace(0, stop, 5, axis=axis, dtype=np.int16), np.linspace(0, stop, 5, axis=axis, dtype=np.int16))
    same(npgpu.linspace(npgpu.asarray(start), 7, 4, endpoint=False, axis=axis),
         np.linspace(start, 7, 4, endpoint=False, axis=axis))
    # a zero step in one column (NumPy's denormal-safe branch)
    s2 = stop.copy()
    s2[0, 0] = start[0]
    y, step = npgpu.linspace(npgpu.asarray(start), npgpu.asarray(s2), 5, axis=axis, retstep=True)
    want, wstep = np.linspace(start, s2, 5, axis=axis, retstep=True)
    same(y, want)
    same(step, wstep)


def test_linspace_errors(array_device):
    with pytest.raises(ValueError, match="non-negative"):
        npgpu.linspace(0, 1, -1)
    with pytest.raises(TypeError):
        npgpu.linspace(0, 1, 2.5)
    with pytest.raises(AxisError):
        npgpu.linspace(0, 1, 5, axis=1)
    with pytest.raises(ValueError, match="broadcast"):
        npgpu.linspace(npgpu.asarray(np.ones(2)), npgpu.asarray(np.ones(3)), 4)


# ------------------------------------------------------------------------------------------------ ones, eye

@pytest.mark.parametrize("dtype", [None] + DTYPES)
def test_ones(array_device, same, dtype):
    same(npgpu.ones((3, 4), dtype=dtype), np.ones((3, 4), dtype=dtype))
    same(npgpu.ones(5, dtype), np.ones(5, dtype))
    same(npgpu.ones((), dtype=dtype), np.ones((), dtype=dtype))
    same(npgpu.ones((2, 0), dtype=dtype), np.ones((2, 0), dtype=dtype))
    same(npgpu.ones(3, dtype=dtype, device="cpu"), np.ones(3, dtype=dtype), device="cpu")


@pytest.mark.parametrize("n,m,k", [(4, None, 0), (4, 6, 1), (5, 3, -2), (3, 3, 5), (3, 3, -5), (0, 2, 0),
                                   (3, 4, -3), (1, 1, 0), (7, 2, -6), (3, 0, 0), (4, 4, 2**62)])
def test_eye_identity(array_device, same, n, m, k):
    same(npgpu.eye(n, m, k=k), np.eye(n, m, k=k))
    same(npgpu.eye(n, m, k, np.int8), np.eye(n, m, k, np.int8))
    same(npgpu.eye(n, m, k=k, dtype=bool), np.eye(n, m, k=k, dtype=bool))
    same(npgpu.identity(n), np.identity(n))
    same(npgpu.identity(n, dtype=np.complex64), np.identity(n, dtype=np.complex64))


def test_eye_errors(array_device):
    with pytest.raises(ValueError, match="negative"):
        npgpu.eye(-1)
    with pytest.raises(ValueError, match="negative"):
        npgpu.eye(2, -3)
    with pytest.raises(TypeError):
        npgpu.eye(2.5)
    with pytest.raises(TypeError):
        npgpu.eye(2, k=0.5)


# ------------------------------------------------------------------------------------------------ *_like

@pytest.mark.parametrize("dtype", DTYPES)
def test_like_functions(array_device, same, random_array, dtype):
    h = random_array((3, 5), dtype)
    x = npgpu.asarray(h)[:, ::-2]
    v = h[:, ::-2]
    same(npgpu.zeros_like(x), np.zeros_like(v))
    same(npgpu.ones_like(x), np.ones_like(v))
    same(npgpu.full_like(x, 3), np.full_like(v, 3))
    same(npgpu.full_like(x, 2.75, dtype=np.float32), np.full_like(v, 2.75, dtype=np.float32))
    same(npgpu.zeros_like(x, np.int16), np.zeros_like(v, np.int16))
    same(npgpu.ones_like(x, shape=(2, 0, 4)), np.ones_like(v, shape=(2, 0, 4)))
    same(npgpu.full_like(x[0, 0], 7), np.full_like(v[0, 0], 7))
    e = npgpu.empty_like(x)
    assert e.shape == v.shape and e.dtype == v.dtype and str(e.device) == str(x.device)
    e = npgpu.empty_like(x, dtype=np.int64, shape=7)
    assert e.shape == (7,) and e.dtype == np.int64


def test_like_functions_details(array_device, same):
    x = npgpu.asarray(np.arange(6, dtype=np.int32).reshape(2, 3))
    same(npgpu.full_like(x, 2.9), np.full_like(np.zeros((2, 3), np.int32), 2.9))     # unsafe cast, as NumPy
    same(npgpu.full_like(x, np.int64(-1), dtype=np.uint16), np.full((2, 3), 65535, np.uint16))  # wraps
    with pytest.raises(OverflowError):  # a Python int out of range, as NumPy
        npgpu.full_like(x, -1, dtype=np.uint16)
    same(npgpu.full_like(x, npgpu.asarray(np.float64(1.5)), dtype=float), np.full((2, 3), 1.5))   # 0-d fill
    same(npgpu.full_like(x, [1, 2, 3]), np.full_like(np.zeros((2, 3), np.int32), [1, 2, 3]))     # broadcast
    same(npgpu.full_like(x, npgpu.asarray(np.array([4.5, 5.5, 6.5]))), np.array([[4, 5, 6]] * 2, np.int32))
    same(npgpu.zeros_like(np.ones((2, 2), np.float32)), np.zeros((2, 2), np.float32))  # NumPy input
    same(npgpu.ones_like(x, device="cpu"), np.ones((2, 3), np.int32), device="cpu")
    with pytest.raises(ValueError, match="broadcast"):
        npgpu.full_like(x, [1, 2])


# ------------------------------------------------------------------------------------------------ meshgrid

@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("n", [0, 1, 2, 3])
def test_meshgrid(array_device, same, random_array, indexing, n):
    hs = [random_array(5, np.float64), random_array(3, np.int8), random_array(4, np.complex64)][:n]
    xs = [npgpu.asarray(h) for h in hs]
    got = npgpu.meshgrid(*xs, indexing=indexing)
    want = np.meshgrid(*hs, indexing=indexing)
    assert isinstance(got, list) and len(got) == len(want)
    for g, w in zip(got, want):
        same(g, w)
        assert not g.readonly
    for g, w in zip(npgpu.meshgrid(*xs, indexing=indexing, sparse=True),
                    np.meshgrid(*hs, indexing=indexing, sparse=True)):
        same(g, w)
    for g, w in zip(npgpu.meshgrid(*xs, indexing=indexing, copy=False), want):
        same(g, w)


def test_meshgrid_inputs_and_errors(array_device, same):
    a, b = np.arange(6.0).reshape(2, 3)[:, ::-1], np.arange(4, dtype=np.uint16)
    x = npgpu.asarray(np.arange(6.0).reshape(2, 3))[:, ::-1]
    got = npgpu.meshgrid(x, b)  # N-d input flattened, NumPy input moved to x's device
    for g, w in zip(got, np.meshgrid(a, b)):
        same(g, w)
    same(npgpu.meshgrid(x, npgpu.asarray(np.zeros(0)))[0], np.meshgrid(a, np.zeros(0))[0])
    with pytest.raises(ValueError, match="indexing"):
        npgpu.meshgrid(x, indexing="zz")


# ------------------------------------------------------------------------------------------------ tril, triu

@pytest.mark.parametrize("k", [-2, -1, 0, 1, 3, -100, 2**62])
@pytest.mark.parametrize("dtype", DTYPES)
def test_tril_triu(array_device, same, random_array, k, dtype):
    h = random_array((2, 4, 5), dtype)
    x = npgpu.asarray(h)
    same(npgpu.tril(x, k=k), np.tril(h, k=k))
    same(npgpu.triu(x, k), np.triu(h, k))
    same(npgpu.tril(x.mT[:, ::-1]), np.tril(h.swapaxes(-1, -2)[:, ::-1]))  # non-contiguous


@pytest.mark.parametrize("shape", [(3,), (0,), (4, 0), (0, 3), (1, 1), (2, 1, 3, 3)])
def test_tril_triu_shapes(array_device, same, random_array, shape):
    h = random_array(shape, np.int64)
    x = npgpu.asarray(h)
    same(npgpu.tril(x, -1), np.tril(h, -1))  # 1-D: the rows of an n x n matrix, as NumPy
    same(npgpu.triu(x, 1), np.triu(h, 1))


def test_tril_errors(array_device):
    with pytest.raises(TypeError, match="at least 1-D"):
        npgpu.tril(npgpu.asarray(np.float64(1)))
    with pytest.raises(TypeError, match="at least 1-D"):
        npgpu.triu(npgpu.asarray(np.float64(1)))
    with pytest.raises(TypeError):
        npgpu.tril(npgpu.ones((2, 2)), 0.5)


def test_full_values_that_compare_equal_keep_their_bits(array_device):
    # 0.0 == -0.0, 1 == 1.0 == True and NaN != NaN: each still gives its own dtype and bits
    for first, second in [(0.0, -0.0), (-0.0, 0.0), (1, 1.0), (True, 1), (1.0, True), (np.nan, np.nan),
                          (np.float32(2), 2.0), (0j, complex(-0.0, -0.0))]:
        for v in (first, second):
            got = npgpu.full(3, v, device=array_device).get()
            want = np.full(3, v)
            assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), (first, second, v)
    assert npgpu.full(2, 7, dtype=np.int8, device=array_device).get().tobytes() == np.full(2, 7, np.int8).tobytes()
    with pytest.raises(ValueError, match="scalar"):
        npgpu.full(2, [1, 2], device=array_device)


@pytest.mark.parametrize("dtype", ["uint8", "int16", "float16", "float32", "int64", "float64", "complex64",
                                   "complex128"])
@pytest.mark.parametrize("n", [1, 7, 1024, 65536, 65537, (1 << 20) + 3])
def test_full_over_recycled_memory(array_device, dtype, n):
    # Patterns whose bytes, 16-bit or 32-bit halves differ (each fill route), written over a block that held
    # other bytes: every element, and nothing but them, takes the value.
    value = {"c": complex(1.5, -2.25), "f": -1.25, "i": -3, "u": 0xAB}[np.dtype(dtype).kind]
    poison = npgpu.full(n + 3, 0x5A, dtype=np.uint8, device=array_device)
    del poison
    got = npgpu.full(n, value, dtype=dtype, device=array_device)
    whole = npgpu.full(n + 16, 9, dtype=dtype, device=array_device)
    whole[3:n + 3] = value
    want = np.full(n, value, dtype=dtype)
    assert got.get().tobytes() == want.tobytes()
    w = np.full(n + 16, 9, dtype=dtype)
    w[3:n + 3] = value
    assert whole.get().tobytes() == w.tobytes()


def test_array_like_numpy_array(array_device):
    """npgpu.array: numpy.array's arguments, an npgpu.Array result on the default device."""
    a = npgpu.array([[1, 2], [3, 4]])
    assert isinstance(a, npgpu.Array) and str(a.device).startswith(array_device)
    np.testing.assert_array_equal(a.get(), np.array([[1, 2], [3, 4]]))
    assert a.dtype == np.array([[1, 2]]).dtype
    assert npgpu.array(2.5, dtype=np.float32).dtype == np.float32 and npgpu.array(2.5).shape == ()
    assert npgpu.array([1, 2], ndmin=3).shape == (1, 1, 2)
    f = npgpu.array(np.arange(6.0).reshape(2, 3), order="F")
    assert f.strides == (8, 16)
    np.testing.assert_array_equal(f.get(), np.arange(6.0).reshape(2, 3))
    b = npgpu.array(a)
    assert b is not a
    b[0, 0] = 9
    assert int(a[0, 0]) == 1  # a copy by default
    assert npgpu.array(a, copy=None) is a
    with pytest.raises(ValueError, match="order"):
        npgpu.array([1], order="X")
    with pytest.raises(ValueError, match="copy"):
        npgpu.array(a, order="F", copy=False)


def test_contiguous_fortran_copy_copyto(array_device):
    x = np.arange(12.0).reshape(3, 4)
    c = npgpu.ascontiguousarray(x.T)
    assert isinstance(c, npgpu.Array) and c.flags["C_CONTIGUOUS"]
    np.testing.assert_array_equal(c.get(), x.T)
    f = npgpu.asfortranarray(x)
    assert f.strides == np.asfortranarray(x).strides
    assert npgpu.ascontiguousarray(np.float64(3)).shape == (1,)  # at least 1-D, as NumPy
    assert isinstance(npgpu.copy(x), np.ndarray)
    d = npgpu.asarray(x)
    cd = npgpu.copy(d)
    assert isinstance(cd, npgpu.Array) and cd is not d
    np.testing.assert_array_equal(cd.get(), x)
    assert npgpu.copy(f).strides == f.strides  # order='K' keeps Fortran order
    dst = npgpu.zeros((3, 4))
    npgpu.copyto(dst, d[0])  # broadcast
    np.testing.assert_array_equal(dst.get(), np.broadcast_to(x[0], (3, 4)))
    npgpu.copyto(dst, -1.0, where=npgpu.asarray(x > 5))
    np.testing.assert_array_equal(dst.get(), np.where(x > 5, -1.0, np.broadcast_to(x[0], (3, 4))))
    with pytest.raises(TypeError, match="same_kind"):
        npgpu.copyto(npgpu.zeros(3, dtype=np.int32), npgpu.asarray([1.5, 2.0, 3.0]))
    host = np.zeros(3)
    npgpu.copyto(host, npgpu.asarray([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(host, [1.0, 2.0, 3.0])


# ------------------------------------------------------------------------------------------------ diag, diagflat, tri

@pytest.fixture
def same_all(same):
    """same_all(got, want): same() for one array or element by element for tuples of them."""
    def check(got, want, device=None):
        if isinstance(want, tuple):
            assert isinstance(got, tuple) and len(got) == len(want), (got, want)
            for g, w in zip(got, want):
                same(g, w, device)
        else:
            same(got, want, device)
    return check


@pytest.fixture
def close(array_device):
    """close(got, want): an npgpu.Array on the test's device with NumPy's dtype and shape, values within rounding."""
    def check(got, want):
        want = np.asarray(want)
        rtol = 1e-5 if want.dtype in (np.float32, np.complex64) else 1e-12  # float32 power/log10 may round apart
        assert isinstance(got, npgpu.Array) and str(got.device).startswith(array_device)
        assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
        np.testing.assert_allclose(got.get().astype(np.complex128 if want.dtype.kind == "c" else np.float64),
                                   want.astype(np.complex128 if want.dtype.kind == "c" else np.float64),
                                   rtol=rtol, atol=0)
    return check


@pytest.mark.parametrize("shape", [(4,), (1,), (0,), (3, 5), (5, 3), (1, 1), (0, 3), (3, 0), (2, 2, 1), ()])
@pytest.mark.parametrize("k", [-7, -2, -1, 0, 1, 3])
def test_diag_diagflat(array_device, same, random_array, shape, k):
    h = random_array(shape, np.int16)
    x = npgpu.asarray(h)
    if len(shape) in (1, 2):
        got = npgpu.diag(x, k)
        same(got, np.diag(h, k))
        assert got.readonly == (len(shape) == 2)  # NumPy's diagonal of a matrix is a read-only view
    else:
        with pytest.raises(ValueError, match="1- or 2-d"):
            npgpu.diag(x, k)
    same(npgpu.diagflat(x, k), np.diagflat(h, k))


def test_diag_of_a_matrix_is_a_view(array_device, same):
    h = np.arange(12.0).reshape(3, 4)
    x = npgpu.asarray(h.copy())  # the host device may share h's memory
    d = npgpu.diag(x, 1)
    x[...] = x * 2  # the view sees the change
    same(d, np.diag(h * 2, 1))
    with pytest.raises(ValueError, match="read-only"):
        d[0] = 1
    same(npgpu.diag(x.T, -1), np.diag(h.T * 2, -1))  # Fortran-ordered; then a list input
    same(npgpu.diag([1.5, 2.5]), np.diag([1.5, 2.5]))
    with pytest.raises(TypeError, match="integer"):
        npgpu.diag(x, 0.5)


@pytest.mark.parametrize("n, m", [(3, None), (3, 5), (5, 3), (1, 1), (0, 4), (4, 0), (-1, 2)])
@pytest.mark.parametrize("k", [-2**62, -3, -1, 0, 2, 2**62])
def test_tri(array_device, same, n, m, k):
    same(npgpu.tri(n, m, k), np.tri(n, m, k))
    for dtype in (bool, np.int32, np.complex64):
        same(npgpu.tri(n, m, k, dtype=dtype), np.tri(n, m, k, dtype=dtype))
    same(npgpu.tri(n, m, k, device="cpu"), np.tri(n, m, k), device="cpu")


def test_tri_errors(array_device):
    with pytest.raises(TypeError, match="integer"):
        npgpu.tri(2.5)  # NumPy takes floats through arange; npgpu asks for integers
    with pytest.raises(TypeError, match="integer"):
        npgpu.tri(2, 2, 0.5)
    with pytest.raises(TypeError):
        npgpu.tri(2, dtype="nonsense")


# ------------------------------------------------------------------------------------------------ index helpers

@pytest.mark.parametrize("n, m", [(4, None), (3, 5), (5, 3), (1, 1), (0, 0), (3, 0), (-1, None)])
@pytest.mark.parametrize("k", [-5, -1, 0, 1, 2, 10])
def test_tril_triu_indices(array_device, same_all, random_array, n, m, k):
    same_all(npgpu.tril_indices(n, k, m), np.tril_indices(n, k, m))
    same_all(npgpu.triu_indices(n, k=k, m=m), np.triu_indices(n, k=k, m=m))
    if n >= 0:
        h = random_array((n, n if m is None else m), np.float32)
        x = npgpu.asarray(h)
        same_all(npgpu.tril_indices_from(x, k), np.tril_indices_from(h, k))
        same_all(npgpu.triu_indices_from(x, k=k), np.triu_indices_from(h, k=k))
        if h.size:  # the indices select NumPy's triangle
            i, j = npgpu.triu_indices_from(x, k)
            np.testing.assert_array_equal(x[i, j].get(), h[np.triu_indices_from(h, k)])


def test_index_helpers_errors(array_device):
    for f in (npgpu.tril_indices_from, npgpu.triu_indices_from):
        for shape in [(3,), (2, 2, 2), ()]:
            with pytest.raises(ValueError, match="2-d"):
                f(npgpu.zeros(shape))
    with pytest.raises(ValueError, match="at least 2-d"):
        npgpu.diag_indices_from(npgpu.zeros(3))
    with pytest.raises(ValueError, match="equal length"):
        npgpu.diag_indices_from(npgpu.zeros((2, 3)))
    with pytest.raises(TypeError, match="integer"):
        npgpu.diag_indices(2.5)
    with pytest.raises(TypeError, match="integer"):
        npgpu.tril_indices(3, k=0.5)


@pytest.mark.parametrize("n, ndim", [(3, 2), (4, 3), (1, 1), (0, 2), (-1, 2), (2, 0)])
def test_diag_indices(array_device, same_all, n, ndim):
    same_all(npgpu.diag_indices(n, ndim), np.diag_indices(n, ndim))
    if n >= 0 and ndim >= 1:
        same_all(npgpu.diag_indices_from(npgpu.zeros((n,) * max(ndim, 2))), np.diag_indices(n, max(ndim, 2)))


@pytest.mark.parametrize("shape, val, wrap", [
    ((3, 3), 5, False), ((5, 3), 1, False), ((5, 3), 1, True), ((3, 5), [1, 2], True), ((7, 3), range(10), True),
    ((3, 3), [], False), ((3, 3), [[1, 2], [3, 4]], False), ((2, 2, 2), 7, False), ((3, 3, 3), [1, 2], False),
    ((1, 1), 3, False), ((0, 0), [1], False), ((4, 0), 1, True), ((4, 4), np.float64(2.7), False),
], ids=repr)
@pytest.mark.parametrize("dtype", ["int64", "float32", "complex128"])
@pytest.mark.parametrize("layout", ["C", "F"])
def test_fill_diagonal(array_device, same, shape, val, wrap, dtype, layout):
    h = np.arange(math.prod(shape), dtype=dtype).reshape(shape)
    x = npgpu.asarray(h) if layout == "C" else npgpu.asarray(np.ascontiguousarray(h.T)).T
    value = list(val) if isinstance(val, range) else val
    assert npgpu.fill_diagonal(x, value, wrap=wrap) is None
    np.fill_diagonal(h, value, wrap=wrap)
    same(x, h)


def test_fill_diagonal_values_and_errors(array_device, same):
    x = npgpu.zeros((3, 3), dtype=np.int32)
    npgpu.fill_diagonal(x, npgpu.asarray([1.5, -2.5, 3.5]))  # an npgpu.Array, truncated into int32
    h = np.zeros((3, 3), dtype=np.int32)
    np.fill_diagonal(h, [1.5, -2.5, 3.5])
    same(x, h)
    with pytest.raises(ValueError, match="at least 2-d"):
        npgpu.fill_diagonal(npgpu.zeros(3), 1)
    with pytest.raises(ValueError, match="equal length"):
        npgpu.fill_diagonal(npgpu.zeros((2, 3, 2)), 1)
    with pytest.raises(ValueError, match="read-only"):
        npgpu.fill_diagonal(npgpu.broadcast_to(npgpu.asarray(1.0), (2, 2)), 0)
    with pytest.raises(TypeError, match="npgpu.Array"):
        npgpu.fill_diagonal(np.zeros((2, 2)), 1)


@pytest.mark.parametrize("x, n", [([1, 2, 3], None), ([1, 2, 3], 5), ([2], 1), ([], 2), ([-1, 3], 0),
                                  (np.array([True, False]), 3), (np.array([1.5, -2], np.float32), 4),
                                  (np.array([7, -3], np.int8), 6), (np.array([1 + 1j, 2]), 3),
                                  (np.array([3, 7], np.uint64), 3)], ids=repr)
@pytest.mark.parametrize("increasing", [False, True])
def test_vander(array_device, close, x, n, increasing):
    got = npgpu.vander(npgpu.asarray(np.asarray(x)), n, increasing=increasing)
    close(got, np.vander(x, n, increasing=increasing))
    assert got.flags["C_CONTIGUOUS"]


def test_vander_errors(array_device):
    with pytest.raises(ValueError, match="one-dimensional"):
        npgpu.vander(npgpu.ones((2, 2)))
    with pytest.raises(ValueError, match="one-dimensional"):
        npgpu.vander(5)
    with pytest.raises(ValueError, match="negative"):
        npgpu.vander(npgpu.ones(2), -1)
    with pytest.raises(TypeError, match="integer"):
        npgpu.vander(npgpu.ones(2), 2.5)


@pytest.mark.parametrize("dims", [(2, 3), (4,), (), (0, 3), (2, 1, 3)], ids=repr)
@pytest.mark.parametrize("dtype", [int, np.int32, np.float32])
def test_indices(array_device, same, same_all, dims, dtype):
    same(npgpu.indices(dims, dtype), np.indices(dims, dtype))
    same_all(npgpu.indices(dims, dtype=dtype, sparse=True), np.indices(dims, dtype=dtype, sparse=True))
    same_all(npgpu.indices((2, -1), sparse=True), np.indices((2, -1), sparse=True))  # as NumPy: an empty axis
    with pytest.raises(ValueError, match="negative"):
        npgpu.indices((2, -1))
    with pytest.raises(TypeError, match="sequence"):
        npgpu.indices(3)
    with pytest.raises(TypeError, match="integer"):
        npgpu.indices((2.5,))


def test_ix(array_device, same_all, random_array):
    h = random_array((4, 5, 3), np.float64)
    x = npgpu.asarray(h)
    rows, cols, deep = [3, 0, 3], np.array([True, False, False, True, True]), np.array([2], dtype=np.uint8)
    want = np.ix_(rows, cols, deep)
    got = npgpu.ix_(npgpu.asarray(rows), cols, deep)
    same_all(got, want)
    np.testing.assert_array_equal(x[got].get(), h[want])
    same_all(npgpu.ix_([], np.array([], dtype=np.float64)), np.ix_([], np.array([], dtype=np.float64)))
    same_all(npgpu.ix_(), np.ix_())
    with pytest.raises(ValueError, match="1 dimensional"):
        npgpu.ix_([[1, 2]])
    with pytest.raises(ValueError, match="1 dimensional"):
        npgpu.ix_(npgpu.asarray(True))


# ------------------------------------------------------------------------------------------------ logspace, geomspace

@pytest.mark.parametrize("args, kw", [
    ((0, 3), {"num": 4}), ((-2, 2), {"num": 9, "endpoint": False}), ((0, 1), {"num": 0}), ((0, 1), {"num": 1}),
    ((0, 10), {"num": 11, "base": 2}), ((0, 3), {"num": 4, "dtype": np.int32}),
    ((np.float32(0), np.float32(2)), {"num": 5}), ((np.float32(0), np.float32(2)), {"num": 5, "base": np.float64(3)}),
    ((np.float32(0), np.float32(2)), {"num": 5, "base": np.array(2.0)}),
    ((0, 2), {"num": 3, "base": [2.0, 10.0], "axis": 1}), ((0, 2), {"num": 3, "base": [2.0, 10.0], "axis": -1}),
    ((0, [1.0, 2.0]), {"num": 3, "endpoint": False}), ((0, 1), {"num": 3, "base": [[2.0], [3.0]]}),
    ((np.array([0.0, 1.0]), 3), {"num": 4, "axis": 1}), ((1j, 2j), {"num": 3}),
], ids=repr)
def test_logspace(array_device, close, args, kw):
    close(npgpu.logspace(*args, **kw), np.logspace(*args, **kw))
    on_device = [npgpu.asarray(np.asarray(a)) if np.ndim(a) else a for a in args]  # array bounds as npgpu.Arrays
    close(npgpu.logspace(*on_device, **kw), np.logspace(*args, **kw))


def test_logspace_errors(array_device):
    with pytest.raises(ValueError, match="non-negative"):
        npgpu.logspace(0, 1, -1)
    with pytest.raises(TypeError):
        npgpu.logspace(0, 1, 2.5)
    with pytest.raises(AxisError):
        npgpu.logspace(0, 1, 3, axis=1)


@pytest.mark.parametrize("args, kw", [
    ((1, 1000), {"num": 4}), ((-1, -1000), {"num": 4}), ((1000, 1), {"num": 5, "endpoint": False}),
    ((1, 1000), {"num": 4, "dtype": np.int64}), ((1, 1000), {"num": 0}), ((2, 5), {"num": 1}),
    ((np.float32(1), 1000), {"num": 4}), ((np.float32(1), np.float32(1000)), {"num": 4, "dtype": np.float32}),
    ((1j, 1000j), {"num": 4}), ((-1 + 0j, 1 + 0j), {"num": 5}), ((1 - 1j, 2 + 3j), {"num": 6}),
    (([1.0, 10.0], [1000.0, 1e5]), {"num": 3, "axis": 1}), ((2, [[3.0], [-4.0]]), {"num": 3}),
    ((0.5, 1e300), {"num": 7}),
], ids=repr)
def test_geomspace(array_device, close, args, kw):
    with np.errstate(invalid="ignore"):
        want = np.geomspace(*args, **kw)
    close(npgpu.geomspace(*args, **kw), want)
    on_device = [npgpu.asarray(np.asarray(a)) for a in args]
    close(npgpu.geomspace(*on_device, **kw), want)
    if kw.get("num", 50) > 1 and want.dtype.kind != "i":  # the end points exactly
        got = npgpu.moveaxis(npgpu.geomspace(*args, **kw), kw.get("axis", 0), 0).get()
        np.testing.assert_array_equal(got[0], np.broadcast_to(np.asarray(args[0], got.dtype), got[0].shape))


def test_geomspace_errors(array_device):
    with pytest.raises(ValueError, match="zero"):
        npgpu.geomspace(0, 10, 3)
    with pytest.raises(ValueError, match="zero"):
        npgpu.geomspace(1, npgpu.asarray([2.0, 0.0]), 3)
    with pytest.raises(ValueError, match="non-negative"):
        npgpu.geomspace(1, 10, -1)
    with pytest.raises(AxisError):
        npgpu.geomspace(1, 10, 3, axis=1)


# ------------------------------------------------------------------------------------ mgrid, ogrid, r_, c_, s_

def _host(x):
    """An npgpu result as NumPy (tuples element by element)."""
    if isinstance(x, tuple):
        return tuple(_host(v) for v in x)
    assert isinstance(x, npgpu.Array), type(x)
    return x.get()


def _same_tree(assert_same, got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _same_tree(assert_same, g, w)
    else:
        assert_same(_host(got), np.asarray(want))


GRID_KEYS = [np.s_[0:3], np.s_[0:5:2], np.s_[-1:1:5j], np.s_[0:1:1j], np.s_[3:0:-1], np.s_[0.5:2:0.25],
             np.s_[0:2, 0:3], np.s_[0:1:3j, 0:4], np.s_[0.5:2, 1:3:0.5], np.s_[0:2:1j, 1:3], np.s_[3:0:-1, 0:2],
             np.s_[np.float32(0):2], np.s_[0:3, 0:2, 1:2], np.s_[:3, -2:2:4j], np.s_[5:2]]


@pytest.mark.parametrize("key", GRID_KEYS, ids=repr)
def test_mgrid_ogrid(assert_same, key):
    with npgpu.use_backend("cpu"):
        _same_tree(assert_same, npgpu.mgrid[key], np.mgrid[key])
        _same_tree(assert_same, npgpu.ogrid[key], np.ogrid[key])


def test_grid_errors():
    with pytest.raises(ZeroDivisionError):
        np.mgrid[0:1:0]
    with pytest.raises(ZeroDivisionError):
        npgpu.mgrid[0:1:0]
    with pytest.raises(ZeroDivisionError):
        npgpu.mgrid[0:1:0, 0:2]
    with pytest.raises(TypeError):
        npgpu.mgrid["a":3]
    with pytest.raises(TypeError):
        npgpu.ogrid[0:2, 3]


R_KEYS = [(1, 2, [3, 4]), ([1, 2], 0, 0, [4, 5]), (np.s_[-1:1:5j], 7), ("0,2", [1, 2], [3, 4]),
          ("1,2", [1, 2], [3, 4]), ("0,2,0", [1, 2], [3, 4]), ("-1,3,0", [1, 2], [3, 4]), ("0,3,1", [1, 2], [3, 4]),
          (np.array([1, 2], dtype=np.int8), 3), (np.array([1, 2], dtype=np.int8), 3.5), ("1", [[1, 2]], [[3, 4]]),
          (np.s_[0:3], 1.5), (True, [2]), ("0,2", np.s_[0:3], [4, 5, 6]), ("0,2,0", np.s_[0:3], np.s_[3:6]),
          (np.array([1.5], dtype=np.float32), 2)]


@pytest.mark.parametrize("key", R_KEYS, ids=repr)
def test_r_(array_device, assert_same, key):
    want = np.r_[key]
    # the array entries as npgpu.Arrays on the test's device: they decide the result's device
    dev_key = tuple(npgpu.asarray(k, device=array_device) if isinstance(k, (list, np.ndarray)) else k for k in key)
    got = npgpu.r_[dev_key]
    assert str(got.device) == str(npgpu.empty(0, device=array_device).device)
    assert_same(got.get(), want)
    with npgpu.use_backend("cpu"):
        assert_same(npgpu.r_[key].get(), want)


@pytest.mark.parametrize("key", [([1, 2], [3, 4]), ([[1, 2]], [[3, 4]]), ([1, 2], np.s_[5:7]),
                                 (np.array([[1, 2], [3, 4]]), [5, 6]), (np.zeros((2, 2, 2)), np.ones((2, 2, 1)))],
                         ids=repr)
def test_c_(array_device, assert_same, key):
    dev_key = tuple(npgpu.asarray(k, device=array_device) if isinstance(k, (list, np.ndarray)) else k for k in key)
    assert_same(npgpu.c_[dev_key].get(), np.c_[key])


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # NumPy's numpy.matrix
def test_r_matrix_directives(array_device):
    # NumPy gives a numpy.matrix; npgpu a 2-D Array of the same shape and values
    x = npgpu.asarray([1, 2, 3], device=array_device)
    row, col = npgpu.r_["r", x, 4], npgpu.r_["c", x, 4]
    assert row.shape == np.r_["r", [1, 2, 3], 4].shape == (1, 4)
    assert col.shape == np.r_["c", [1, 2, 3], 4].shape == (4, 1)
    np.testing.assert_array_equal(col.get(), np.asarray(np.r_["c", [1, 2, 3], 4]))


@pytest.mark.parametrize("key", [("0,2", [[1, 2]], [1, 2, 3]), ([1], "0"), ("x", [1]), ("0,x", [1]),
                                 ([1, 2], [[3]])], ids=repr)
def test_r_errors(key):
    with pytest.raises(ValueError):
        np.r_[key]
    with pytest.raises(ValueError), npgpu.use_backend("cpu"):
        npgpu.r_[key]


def test_r_axis_error():
    with pytest.raises(AxisError), npgpu.use_backend("cpu"):
        npgpu.r_["2", [1], [2]]


def test_r_devices_must_agree(array_device):
    if str(npgpu.empty(0, device=array_device).device) == "cpu":
        pytest.skip("needs a GPU array")
    with pytest.raises(ValueError, match="devices"):
        npgpu.r_[npgpu.asarray([1], device=array_device), npgpu.asarray([2], device="cpu")]


@pytest.mark.parametrize("key", [np.s_[2::2], np.s_[1, ...], np.s_[:, None, 2], np.s_[()], np.s_[[1, 2]]], ids=repr)
def test_s_index_exp(key):
    assert npgpu.s_[key] == np.s_[key] if not isinstance(key, list) else npgpu.s_[key] is key
    assert npgpu.index_exp[key] == np.index_exp[key]
    assert isinstance(npgpu.index_exp[key], tuple)
    a = np.arange(24).reshape(2, 3, 4)
    if not isinstance(key, list):
        np.testing.assert_array_equal(npgpu.asarray(a, device="cpu")[npgpu.s_[key]].get(), a[np.s_[key]])


# ------------------------------------------------------------------------ fromfunction, fromiter, frombuffer

@pytest.mark.parametrize("dtype", [float, int, np.float32, np.int8])
def test_fromfunction(same, array_device, dtype):
    def f(i, j, *, scale):
        return i * scale + j
    same(npgpu.fromfunction(f, (3, 4), dtype=dtype, device=array_device, scale=10),
         np.fromfunction(f, (3, 4), dtype=dtype, scale=10))
    assert npgpu.fromfunction(lambda *a: len(a), (2, 5, 1), device=array_device) == 3


def test_fromfunction_errors(array_device):
    with pytest.raises(TypeError):
        npgpu.fromfunction(3, (2, 2), device=array_device)
    with pytest.raises(ValueError):
        npgpu.fromfunction(lambda i: i, (-1,), device=array_device)


@pytest.mark.parametrize("dtype, count", [(np.int32, -1), (float, 3), (np.complex64, -1), (np.uint8, 0), (bool, 2)])
def test_fromiter(same, array_device, dtype, count):
    values = [1, 0, 3, 4, 5]
    same(npgpu.fromiter(iter(values), dtype, count=count, device=array_device),
         np.fromiter(iter(values), dtype, count=count))
    same(npgpu.fromiter((v * v for v in values), dtype=dtype, device=array_device),
         np.fromiter((v * v for v in values), dtype=dtype))


def test_fromiter_errors(array_device):
    with pytest.raises(ValueError):
        np.fromiter(iter([1, 2]), int, count=5)
    with pytest.raises(ValueError):
        npgpu.fromiter(iter([1, 2]), int, count=5, device=array_device)
    with pytest.raises(TypeError):
        npgpu.fromiter(5, int, device=array_device)
    with pytest.raises(TypeError):
        npgpu.fromiter([1, 2], int, count=1.5, device=array_device)


@pytest.mark.parametrize("dtype, count, offset", [(np.uint8, -1, 0), ("<i2", 1, 2), (">i2", -1, 0), (np.float32, -1, 0),
                                                  (np.int64, -1, 8), (np.uint8, 3, 5)])
def test_frombuffer(same, array_device, dtype, count, offset):
    buf = bytes(range(16))
    got = npgpu.frombuffer(bytearray(buf), dtype=dtype, count=count, offset=offset, device=array_device)
    want = np.frombuffer(buf, dtype=dtype, count=count, offset=offset)
    same(got, want.astype(want.dtype.newbyteorder("=")))
    got[...] = 0  # a copy: writable, and the buffer is not touched
    assert npgpu.frombuffer(buf, np.uint8, device=array_device).get()[1] == 1


def test_frombuffer_errors(array_device):
    for kw in ({"dtype": np.int32, "offset": 0, "count": -1, "buffer": bytes(7)},
               {"dtype": np.uint8, "offset": 9, "count": -1, "buffer": bytes(8)},
               {"dtype": np.uint8, "offset": 0, "count": 9, "buffer": bytes(8)}):
        with pytest.raises(ValueError):
            np.frombuffer(**kw)
        with pytest.raises(ValueError):
            npgpu.frombuffer(**kw, device=array_device)
    with pytest.raises(TypeError):
        npgpu.frombuffer(12, device=array_device)


@pytest.mark.parametrize("n, func, k", [(3, "triu", 0), (4, "triu", 1), (4, "tril", -1), (5, "tril", 2), (0, "triu", 0),
                                       (1, "tril", 0)])
def test_mask_indices(same, array_device, n, func, k):
    got = npgpu.mask_indices(n, getattr(npgpu, func), k, device=array_device)
    want = np.mask_indices(n, getattr(np, func), k)
    assert len(got) == 2
    for g, w in zip(got, want):
        same(g, w)


def test_mask_indices_errors(array_device):
    with pytest.raises(TypeError):
        npgpu.mask_indices(2.5, npgpu.triu, device=array_device)
    with pytest.raises(TypeError):
        npgpu.mask_indices(3, None, device=array_device)
    with pytest.raises(ValueError):
        npgpu.mask_indices(-1, npgpu.triu, device=array_device)


# ------------------------------------------------------------------------ unravel_index, ravel_multi_index

@pytest.mark.parametrize("indices, shape, order", [
    ([22, 41, 37], (7, 6), "C"), ([31, 41, 13], (7, 6), "F"), ([[1, 2], [3, 4]], (5,), "C"), ([], (3, 4), "C"),
    ([0, 23], (2, 3, 4), "C"), ([0, 23, 7], (2, 3, 4), "F"), ([True, False], (2,), "C"), ([5, 0], (1, 6, 1), "C"),
    (np.array([1, 2], dtype=np.uint8), 4, "C"), (np.array([9], dtype=np.int16), (3, 5), "F"),
], ids=repr)
def test_unravel_index(same, array_device, indices, shape, order):
    idx = np.asarray(indices, dtype=None if np.size(indices) else np.int64)
    got = npgpu.unravel_index(npgpu.asarray(idx, device=array_device), shape, order=order)
    want = np.unravel_index(idx, shape, order=order)
    assert isinstance(got, tuple) and len(got) == len(want)
    for g, w in zip(got, want):
        same(g, w)


def test_unravel_index_scalar():
    got, want = npgpu.unravel_index(17, (4, 5)), np.unravel_index(17, (4, 5))
    assert got == want and all(type(g) is type(w) for g, w in zip(got, want))
    assert npgpu.unravel_index(np.int32(5), (2, 3), order="F") == np.unravel_index(np.int32(5), (2, 3), order="F")


@pytest.mark.parametrize("indices, shape, order, exc", [
    ([6], (2, 3), "C", ValueError), ([-1], (2, 3), "C", ValueError), ([1.0], (2, 3), "C", TypeError),
    ([0], (), "C", ValueError), ([1], (2, 3), "X", ValueError), ([1], (-2,), "C", ValueError),
    (6, (2, 3), "C", ValueError), (1.5, (2, 3), "C", TypeError), ([1], (2.0, 3), "C", TypeError),
], ids=repr)
def test_unravel_index_errors(array_device, indices, shape, order, exc):
    with pytest.raises(exc):
        np.unravel_index(indices, shape, order=order)
    arg = npgpu.asarray(indices, device=array_device) if isinstance(indices, list) else indices
    with pytest.raises(exc):
        npgpu.unravel_index(arg, shape, order=order)


@pytest.mark.parametrize("coords, dims, mode, order", [
    (([3, 6, 6], [4, 5, 1]), (7, 6), "raise", "C"), (([3, 6, 6], [4, 5, 1]), (7, 6), "raise", "F"),
    (([3, 6, 6], [4, 8, -1]), (7, 6), ("raise", "clip"), "C"), (([-1, 7, 13], [4, 8, -1]), (7, 6), "wrap", "C"),
    (([-1, 7, 13], [4, 8, -1]), (7, 6), "clip", "F"), (([-8, 7], [-7, 20]), (7, 6), ("wrap", "clip"), "F"),
    (([[1], [2]], [0, 1, 2]), (3, 4), "raise", "C"), (([1, 0],), (2,), "raise", "C"),
    (([1, 0], [2, 3], [0, 4]), (2, 4, 5), "raise", "F"), (([], []), (3, 4), "raise", "C"),
], ids=repr)
def test_ravel_multi_index(same, array_device, coords, dims, mode, order):
    host = tuple(np.asarray(c, dtype=np.int64) for c in coords)
    want = np.ravel_multi_index(host, dims, mode=mode, order=order)
    dev = tuple(npgpu.asarray(c, device=array_device) for c in host)
    same(npgpu.ravel_multi_index(dev, dims, mode=mode, order=order), want)
    # mixed: one npgpu.Array decides the device, the other coordinates are lists
    if not host[0].size:
        return  # NumPy types empty lists as float: TypeError
    mixed = (dev[0],) + tuple(c.tolist() for c in host[1:])
    same(npgpu.ravel_multi_index(mixed, dims, mode=mode, order=order), want)


def test_ravel_multi_index_of_one_array(same, array_device):
    m = np.array([[3, 6, 6], [4, 5, 1]])
    same(npgpu.ravel_multi_index(npgpu.asarray(m, device=array_device), (7, 6)), np.ravel_multi_index(m, (7, 6)))
    x = npgpu.asarray([1, 2], device=array_device)
    flat = npgpu.ravel_multi_index((x,), (3,))
    flat[0] = 0  # a new array, not the coordinates
    assert x.get()[0] == 1


def test_ravel_multi_index_scalars():
    got, want = npgpu.ravel_multi_index((3, 4), (7, 6)), np.ravel_multi_index((3, 4), (7, 6))
    assert got == want and type(got) is type(want)
    assert npgpu.ravel_multi_index((-1, 9), (7, 6), mode="wrap", order="F") == \
        np.ravel_multi_index((-1, 9), (7, 6), mode="wrap", order="F")


@pytest.mark.parametrize("coords, dims, kw, exc", [
    (([3], [0]), (2, 3), {}, ValueError), (([-1], [0]), (2, 3), {}, ValueError),
    (([1], [0]), (2, 3), {"mode": "bad"}, ValueError), (([1],), (2, 3), {}, ValueError),
    (([1], [0]), (2, 3), {"mode": ("wrap",)}, ValueError), (([1.5], [0]), (2, 3), {}, TypeError),
    (([1], [0]), (2, 3), {"order": "K"}, ValueError), (([1], [0]), (2, -3), {}, ValueError),
    (([1, 2], [0, 1, 2]), (3, 4), {}, ValueError), (([1], [0]), (2 ** 40, 2 ** 40), {}, ValueError),
], ids=repr)
def test_ravel_multi_index_errors(array_device, coords, dims, kw, exc):
    with pytest.raises(exc):
        np.ravel_multi_index(tuple(np.asarray(c) for c in coords), dims, **kw)
    with pytest.raises(exc):
        npgpu.ravel_multi_index(tuple(npgpu.asarray(c, device=array_device) for c in coords), dims, **kw)


def test_ravel_unravel_round_trip(array_device):
    flat = npgpu.asarray(np.arange(60).reshape(3, 20), device=array_device)
    for order in ("C", "F"):
        back = npgpu.ravel_multi_index(npgpu.unravel_index(flat, (3, 4, 5), order=order), (3, 4, 5), order=order)
        np.testing.assert_array_equal(back.get(), np.arange(60).reshape(3, 20))


def test_new_creation_names_exported():
    for name in ("mgrid", "ogrid", "r_", "c_", "s_", "index_exp", "fromfunction", "fromiter", "frombuffer",
                 "mask_indices", "unravel_index", "ravel_multi_index"):
        assert name in npgpu.__all__ and getattr(npgpu, name) is getattr(npgpu._creation, name)


def test_ndindex_is_numpys():
    assert list(npgpu.ndindex(2, 3)) == list(np.ndindex(2, 3))
    assert list(npgpu.ndindex((3, 1))) == [(0, 0), (1, 0), (2, 0)]
    assert list(npgpu.ndindex(())) == [()]
    assert list(npgpu.ndindex(0, 4)) == []
    with pytest.raises(ValueError):
        npgpu.ndindex(-1)


@pytest.mark.parametrize("shape", [(3,), (2, 3), (), (0, 2)])
def test_ndenumerate(array_device, random_array, shape):
    h = random_array(shape, np.float32)
    got = list(npgpu.ndenumerate(npgpu.asarray(h, device=array_device)))
    want = list(np.ndenumerate(h))
    assert [i for i, _ in got] == [i for i, _ in want]
    assert all(type(v) is np.float32 and v == w for (_, v), (_, w) in zip(got, want))
    assert list(npgpu.ndenumerate(h.tolist())) == list(np.ndenumerate(h.tolist()))


# ---------------------------------------------------------------- order= (memory layout), as NumPy's
def _layout_matches(got, want):
    assert isinstance(got, npgpu.Array)
    assert got.shape == want.shape and got.dtype == want.dtype
    assert got.strides == want.strides, (got.strides, want.strides)
    assert got.flags["C_CONTIGUOUS"] == want.flags.c_contiguous
    assert got.flags.f_contiguous == want.flags.f_contiguous


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 5), (7,), ()])
def test_new_arrays_in_order(array_device, order, shape):
    _layout_matches(npgpu.empty(shape, np.float32, order=order), np.empty(shape, np.float32, order=order))
    z = npgpu.zeros(shape, order=order)
    _layout_matches(z, np.zeros(shape, order=order))
    assert z.flags.owndata and np.array_equal(z.get(), np.zeros(shape))
    f = npgpu.full(shape, 2.5, np.float32, order=order)
    _layout_matches(f, np.full(shape, 2.5, np.float32, order=order))
    assert np.array_equal(f.get(), np.full(shape, 2.5, np.float32))
    o = npgpu.ones(shape, np.int16, order)
    _layout_matches(o, np.ones(shape, np.int16, order))
    assert np.array_equal(o.get(), np.ones(shape, np.int16))


@pytest.mark.parametrize("k", [-2, 0, 1])
def test_eye_in_fortran_order(array_device, k):
    got = npgpu.eye(4, 3, k, np.float32, "F")
    assert got.flags.f_contiguous
    assert np.array_equal(got.get(), np.eye(4, 3, k, np.float32, "F"))


def test_a_fortran_array_written_through_its_layout(array_device):
    # Writes land in the array's own memory (not a copy): an element set, then a row.
    z = npgpu.zeros((3, 4), order="F")
    z[1, 2] = 7
    z[2] = npgpu.arange(4.0)
    want = np.zeros((3, 4))
    want[1, 2] = 7
    want[2] = np.arange(4.0)
    assert np.array_equal(z.get(), want)


@pytest.mark.parametrize("make", [npgpu.zeros, npgpu.empty, npgpu.ones, lambda s, order: npgpu.full(s, 1, order=order),
                                  lambda s, order: npgpu.eye(3, order=order)])
@pytest.mark.parametrize("order", ["A", "K", "c", 1])
def test_new_array_order_errors(array_device, make, order):
    with pytest.raises(ValueError, match="order must be 'C' or 'F'"):
        make((2, 2), order=order)


# The same views of one array in NumPy and in npgpu (an upload to a GPU is C-ordered, so views are made there).
_PROTOTYPES = {"C": lambda b, xp: b, "F": lambda b, xp: xp.asfortranarray(b),
               "permuted": lambda b, xp: b.transpose(2, 0, 1), "sliced": lambda b, xp: b[:, ::2],
               "reversed": lambda b, xp: b[::-1], "1-d": lambda b, xp: b[0, 0]}


@pytest.mark.parametrize("order", ["K", "A", "C", "F"])
@pytest.mark.parametrize("proto", ["C", "F", "permuted", "sliced", "reversed", "1-d"])
def test_like_functions_keep_numpys_layout(array_device, rng, order, proto):
    base = rng.standard_normal((3, 4, 5))
    p, x = _PROTOTYPES[proto](base, np), _PROTOTYPES[proto](npgpu.asarray(base), npgpu)
    assert x.strides == p.strides
    _layout_matches(npgpu.empty_like(x, order=order), np.empty_like(p, order=order))
    for fn, npfn in ((npgpu.zeros_like, np.zeros_like), (npgpu.ones_like, np.ones_like)):
        got, want = fn(x, order=order), npfn(p, order=order)
        _layout_matches(got, want)
        assert np.array_equal(got.get(), want)
    got, want = npgpu.full_like(x, -1.5, order=order), np.full_like(p, -1.5, order=order)
    _layout_matches(got, want)
    assert np.array_equal(got.get(), want)
    row = np.arange(p.shape[-1], dtype=np.float64)  # a broadcast fill
    got, want = npgpu.full_like(x, row, order=order), np.full_like(p, row, order=order)
    _layout_matches(got, want)
    assert np.array_equal(got.get(), want)
    # another shape: 'K' keeps the stride order when the number of dimensions is kept, else gives C (NumPy's rule)
    for shape in ((2, 6), (2, 3, 2), 4):
        _layout_matches(npgpu.zeros_like(x, order=order, shape=shape), np.zeros_like(p, order=order, shape=shape))


def test_like_functions_order_error(array_device):
    with pytest.raises(ValueError, match="order must be one of 'C', 'F', 'A', or 'K'"):
        npgpu.zeros_like(npgpu.ones(3), order="X")


@pytest.mark.parametrize("order", [None, "K", "A", "C", "F"])
@pytest.mark.parametrize("layout", ["C", "F", "sliced"])
def test_asarray_order(array_device, rng, order, layout):
    p = {"C": rng.standard_normal((4, 6)), "F": np.asfortranarray(rng.standard_normal((4, 6))),
         "sliced": rng.standard_normal((4, 12))[:, ::2]}[layout]
    got = npgpu.asarray(p, order=order)
    assert np.array_equal(got.get(), p)
    want_f = order == "F" or (order == "A" and layout == "F")
    want_c = order == "C" or (order == "A" and layout != "F")
    assert not want_f or got.flags.f_contiguous
    assert not want_c or got.flags.c_contiguous
    # npgpu.Array input: no copy when the layout is already the one asked for
    a = npgpu.asarray(p)
    again = npgpu.asarray(a, order=order)
    if order in (None, "K") or (a.flags.c_contiguous and order in ("C", "A")) or (
            a.flags.f_contiguous and order in ("F", "A")):
        assert again is a
    assert np.array_equal(again.get(), p)


def test_asarray_order_errors(array_device):
    a = npgpu.asarray(np.ones((3, 4)))
    with pytest.raises(ValueError, match="order='F' needs a copy into that layout, but copy=False"):
        npgpu.asarray(a, order="F", copy=False)
    with pytest.raises(ValueError, match="order must be one of 'C', 'F', 'A', or 'K'"):
        npgpu.asarray(a, order="Q")


@pytest.mark.parametrize("order", ["C", "F", "A"])
def test_reshape_order(array_device, order):
    a = np.arange(24.0).reshape(2, 3, 4)
    x = npgpu.asarray(a)
    for view in (lambda b: b, lambda b: b.T, lambda b: b[:, ::2]):  # views made on each side (layouts alike)
        got = npgpu.reshape(view(x), (4, -1), order)
        assert np.array_equal(got.get(), np.reshape(view(a), (4, -1), order=order))
    with pytest.raises(ValueError, match="order 'K' is not permitted"):
        npgpu.reshape(x, 24, order="K")


def test_flags_read_as_attributes(array_device):
    a = npgpu.zeros((2, 3))
    assert a.flags.c_contiguous and not a.flags.f_contiguous and a.flags.writeable and a.flags.owndata
    assert a.T.flags.f_contiguous and not a.T.flags.owndata
    with pytest.raises(AttributeError, match="no flag 'aligned'"):
        _ = a.flags.aligned
