"""npgpu.add against numpy.add: dtypes, promotion, scalars, broadcasting, strides, out=, overlap, errors.

NumPy-input tests run on both backends (the `backend` fixture); device-array tests need a GPU.
"""
import itertools
import types

import numpy as np
import pytest

import npgpu

DTYPES = tuple(npgpu.SUPPORTED_DTYPES)
DTYPE_IDS = [d.name for d in DTYPES]
SIZES = [0, 1, 7, 100003]


def np_add(*args, **kwargs):
    """numpy.add, or the exception type it raises."""
    try:
        return np.add(*args, **kwargs)
    except Exception as e:  # noqa: BLE001
        return type(e)


# --------------------------------------------------------------------------------------- NumPy inputs

def test_supported_dtypes():
    assert [d.name for d in DTYPES] == ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                        "uint64", "float32", "float64", "complex64", "complex128"]
    assert all(isinstance(d, np.dtype) for d in DTYPES)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
def test_same_dtype(backend, random_array, assert_same, dtype, n):
    a = random_array(n, dtype)
    b = random_array(n, dtype)
    assert_same(npgpu.add(a, b), np.add(a, b))


@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
def test_inputs_not_modified(backend, random_array, dtype):
    a = random_array(1001, dtype)
    b = random_array(1001, dtype)
    a0, b0 = a.copy(), b.copy()
    npgpu.add(a, b)
    assert np.array_equal(a, a0) and np.array_equal(b, b0)


@pytest.mark.parametrize("dt2", DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("dt1", DTYPES, ids=DTYPE_IDS)
def test_mixed_dtypes(backend, random_array, assert_same, dt1, dt2):
    a = random_array(37, dt1)
    b = random_array(37, dt2)
    r = npgpu.add(a, b)
    assert r.dtype == np.result_type(dt1, dt2)
    assert_same(r, np.add(a, b))


SCALARS = [True, False, 3, -2, 300, 2.5, -1e300, 1.5 - 2j]


@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")
@pytest.mark.parametrize("scalar", SCALARS, ids=repr)
@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
def test_python_scalar_operands(backend, random_array, assert_same, dtype, scalar):
    a = random_array(11, dtype)
    for args in ((a, scalar), (scalar, a)):
        expected = np_add(*args)
        if isinstance(expected, type):  # NumPy raises (an out-of-range Python int): npgpu must too
            with pytest.raises(expected):
                npgpu.add(*args)
        else:
            assert_same(npgpu.add(*args), expected)


def test_weak_scalar_keeps_array_dtype(backend):
    a = np.arange(5, dtype=np.float32)
    for r in (npgpu.add(a, 2.5), npgpu.add(2.5, a)):
        assert r.dtype == np.float32
        assert np.array_equal(r, np.arange(5, dtype=np.float32) + np.float32(2.5))
    assert npgpu.add(np.arange(3, dtype=np.int16), 7).dtype == np.int16
    assert npgpu.add(np.arange(3, dtype=np.int16), 7.0).dtype == np.float64  # kind changes: default float
    assert npgpu.add(np.ones(3, dtype=np.complex64), 1.0).dtype == np.complex64
    assert npgpu.add(np.ones(3, dtype=np.float32), 1j).dtype == np.complex64
    assert npgpu.add(np.array([True, False]), 1).dtype == np.array(1).dtype


def test_numpy_scalars_are_strong(backend):
    a = np.arange(4, dtype=np.float32)
    r = npgpu.add(a, np.float64(0.5))
    assert r.dtype == np.float64 and np.array_equal(r, a.astype(np.float64) + 0.5)
    r = npgpu.add(np.arange(4, dtype=np.int8), np.int64(1000))
    assert r.dtype == np.int64 and np.array_equal(r, np.arange(4) + 1000)


@pytest.mark.parametrize("side", ["right", "left"])
def test_int8_plus_out_of_range_int_raises_overflow(backend, side):
    a = np.arange(4, dtype=np.int8)
    args = (a, 300) if side == "right" else (300, a)
    with pytest.raises(OverflowError):
        np.add(*args)  # the behaviour npgpu copies
    with pytest.raises(OverflowError):
        npgpu.add(*args)
    with pytest.raises(OverflowError):
        npgpu.add(np.arange(4, dtype=np.uint8), -1)
    assert np.array_equal(npgpu.add(a, 100), (a + 100))  # in range: wraps per element like NumPy


@pytest.mark.parametrize("shapes", [
    ((3, 1), (4,)),
    ((2, 1, 5), (1, 4, 1)),
    ((4,), (3, 1)),
    ((1,), (6,)),
    ((), (5,)),
    ((5,), ()),
    ((), ()),
    ((0,), (1,)),
    ((0, 3), (3,)),
    ((2, 0, 3), (1, 1, 3)),
    ((7, 1, 1, 3), (1, 5, 2, 1)),
], ids=str)
@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.complex64], ids=["int32", "float64", "complex64"])
def test_broadcasting(backend, random_array, assert_same, shapes, dtype):
    a = random_array(shapes[0], dtype)
    b = random_array(shapes[1], np.float32)
    assert_same(npgpu.add(a, b), np.add(a, b))


def test_broadcast_mismatch_raises(backend):
    with pytest.raises(ValueError):
        npgpu.add(np.ones(3), np.ones(4))
    with pytest.raises(ValueError):
        npgpu.add(np.ones((2, 3)), np.ones((3, 2)))


def test_array_likes(backend):
    r = npgpu.add([1, 2, 3], [4, 5, 6])
    assert isinstance(r, np.ndarray) and r.dtype == np.array([1]).dtype and r.tolist() == [5, 7, 9]
    r = npgpu.add(np.arange(3, dtype=np.float32), [1.5, 2.5, 3.5])
    assert r.dtype == np.float64 and r.tolist() == [1.5, 3.5, 5.5]


def _views(base):
    """Non-contiguous views of a 2-D array: steps, transposes, negative steps, broadcasts."""
    return {
        "step": base[::2, ::3],
        "block": base.T[: base.shape[1] // 2, : base.shape[0] // 2].T,
        "negative": base[::-2, ::-3],
        "mixed": base[1::3, ::-2],
    }


@pytest.mark.parametrize("kind", ["step", "block", "negative", "mixed"])
@pytest.mark.parametrize("dtype", [np.uint8, np.int64, np.float32, np.complex128],
                         ids=["uint8", "int64", "float32", "complex128"])
def test_non_contiguous_inputs(backend, random_array, assert_same, kind, dtype):
    x = _views(random_array((60, 90), dtype))[kind]
    y = _views(random_array((60, 90), dtype))[kind]
    assert x.shape == y.shape and not x.flags.c_contiguous
    assert_same(npgpu.add(x, y), np.add(x, y))
    assert_same(npgpu.add(x, np.ascontiguousarray(y)), np.add(x, y))
    assert_same(npgpu.add(x.T, y.T), np.add(x.T, y.T))
    assert_same(npgpu.add(x, 3), np.add(x, 3))


def test_stride_zero_and_big_strides(backend, random_array, assert_same):
    b = np.broadcast_to(random_array((1, 50), np.float64), (40, 50))  # read-only, stride 0
    a = random_array((40, 50), np.float64)
    assert_same(npgpu.add(a, b), np.add(a, b))
    big = random_array((3, 4096), np.int32)[:, ::1000]
    assert_same(npgpu.add(big, big[::-1]), np.add(big, big[::-1]))


def test_read_only_inputs_accepted(backend, random_array, assert_same):
    a = random_array(100, np.float32)
    a.flags.writeable = False
    assert_same(npgpu.add(a, a), np.add(a, a))


# ------------------------------------------------------------------------------------------------ out=

def _pair_id(v):
    return np.dtype(v).name

@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
def test_out(backend, random_array, poisoned, dtype):
    a = random_array(1003, dtype)
    b = random_array(1003, dtype)
    expected = np.add(a, b)
    out = poisoned(a.shape, dtype, avoid=expected)
    r = npgpu.add(a, b, out=out)
    assert r is out
    assert np.array_equal(out, expected)


def test_out_tuple_form(backend, random_array, poisoned):
    a = random_array(10, np.float64)
    out = poisoned(10, np.float64)
    r = npgpu.add(a, a, out=(out,))
    assert r is out and np.array_equal(out, 2 * a)


@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.complex128], ids=["int16", "float32", "complex128"])
def test_out_is_an_input(backend, random_array, dtype):
    a = random_array(999, dtype)
    b = random_array(999, dtype)
    expected = np.add(a, b)
    b2 = b.copy()
    assert npgpu.add(a, b2, out=b2) is b2  # b += a
    assert np.array_equal(b2, expected)
    a2 = a.copy()
    assert npgpu.add(a2, b, out=a2) is a2  # a += b
    assert np.array_equal(a2, expected)
    c = a.copy()
    assert npgpu.add(c, c, out=c) is c
    assert np.array_equal(c, np.add(a, a))


@pytest.mark.parametrize("res_dt,out_dt", [
    (np.float64, np.float32), (np.float64, np.complex64), (np.int64, np.int8), (np.int32, np.float32),
    (np.uint64, np.int8), (np.uint16, np.uint8), (np.bool_, np.int32), (np.float32, np.float64), (np.uint8, np.int8),
    (np.complex128, np.complex64),
], ids=_pair_id)
def test_out_same_kind_casts(backend, random_array, poisoned, res_dt, out_dt):
    a = random_array((20, 30), res_dt)
    b = random_array((20, 30), res_dt)
    expected = np.empty(a.shape, out_dt)
    np.add(a, b, out=expected)
    out = poisoned(a.shape, out_dt, avoid=expected)
    assert npgpu.add(a, b, out=out) is out
    assert np.array_equal(out, expected, equal_nan=out.dtype.kind in "fc")


@pytest.mark.parametrize("res_dt,out_dt", [
    (np.float64, np.int64), (np.float32, np.int32), (np.complex64, np.float64), (np.int32, np.bool_),
    (np.float64, np.bool_), (np.complex128, np.int64), (np.int8, np.uint8),
], ids=_pair_id)
def test_out_forbidden_cast_raises_type_error(backend, res_dt, out_dt):
    a = np.ones(5, dtype=res_dt)
    out = np.full(5, 7, dtype=out_dt)
    before = out.copy()
    with pytest.raises(TypeError):
        np.add(a, a, out=out)  # NumPy's rule
    with pytest.raises(TypeError, match="same_kind"):
        npgpu.add(a, a, out=out)
    assert np.array_equal(out, before)


@pytest.mark.parametrize("out_shape", [(4,), (3, 1), (1, 3), (), (2, 3)], ids=str)
def test_out_wrong_shape_raises_value_error(backend, out_shape):
    out = np.zeros(out_shape)
    with pytest.raises(ValueError):
        npgpu.add(np.ones(3), np.ones(3), out=out)
    assert not out.any()


def test_out_broadcast_output_shape_required(backend, random_array, poisoned):
    a = random_array((3, 1), np.float64)
    b = random_array((4,), np.float64)
    out = poisoned((3, 4), np.float64)
    assert npgpu.add(a, b, out=out) is out and np.array_equal(out, a + b)
    with pytest.raises(ValueError):
        npgpu.add(a, b, out=np.empty((3, 1)))


def test_read_only_out_raises_value_error(backend):
    out = np.zeros(3)
    out.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        npgpu.add(np.ones(3), np.ones(3), out=out)
    assert not out.any()


@pytest.mark.parametrize("bad", [[0.0, 0.0, 0.0], "abc", 3.0], ids=["list", "str", "float"])
def test_out_not_an_array_raises_type_error(backend, bad):
    with pytest.raises(TypeError):
        npgpu.add(np.ones(3), np.ones(3), out=bad)


def test_unsupported_dtypes_raise_type_error(backend):
    # (non-native byte order is converted, as NumPy does: tests/test_dtypes.py)
    for bad in (np.array(["a", "b", "c"]), np.array([1, 2, 3], dtype=object)):
        with pytest.raises(TypeError, match="dtype"):
            npgpu.add(bad, np.ones(3, np.float32))
    with pytest.raises(TypeError, match="dtype"):
        npgpu.add(np.ones(3), np.ones(3), out=np.empty(3, "U3"))


@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.complex64], ids=["int32", "float64", "complex64"])
def test_non_contiguous_out(backend, random_array, poisoned, dtype):
    a = random_array((40, 30), dtype)
    b = random_array((30, 40), dtype).T
    expected = np.add(a, b)
    layouts = [((40, 60), lambda base: base[:, ::-2]),      # negative step
               ((30, 40), lambda base: base.T),             # transposed
               ((81, 63), lambda base: base[1::2, 3::2])]   # strided sub-block
    for base_shape, make in layouts:
        base = poisoned(base_shape, dtype)
        out = make(base)
        assert out.shape == a.shape and not out.flags.c_contiguous
        snapshot = base.copy()
        assert npgpu.add(a, b, out=out) is out
        assert np.array_equal(out, expected)
        # Nothing outside the view was written.
        outside = np.ones(base_shape, bool)
        make(outside)[...] = False
        assert np.array_equal(base[outside], snapshot[outside], equal_nan=dtype != np.int32)


# ---------------------------------------------------------------------------------------- 0-d results

def test_zero_dim_results_are_numpy_scalars(backend):
    cases = [(np.float32(1.5), np.float32(2.25)), (np.array(1.0), np.array(2.0)), (np.int8(100), 100),
             (np.array(3, np.uint16), np.array(4, np.uint16)), (np.complex64(1 + 2j), 1.0),
             (np.array(True), np.array(True))]
    for a, b in cases:
        r = npgpu.add(a, b)
        e = np.add(a, b)
        assert type(r) is type(e), (a, b, type(r))
        assert isinstance(r, np.generic)
        assert r.dtype == e.dtype and r == e


def test_zero_dim_with_out_returns_out(backend, poisoned):
    out = poisoned((), np.float64)
    r = npgpu.add(np.array(1.25), np.array(2.0), out=out)
    assert r is out and out.shape == () and out[()] == 3.25


def test_two_python_scalars(backend):
    for a, b in ((1, 2), (1.5, 2), (True, True), (1j, 2.0)):
        r = npgpu.add(a, b)
        e = np.add(a, b)
        assert type(r) is type(e) and r == e


def test_two_python_scalars_with_out(backend):
    out = np.zeros(())
    r = npgpu.add(1.0, 2.0, out=out)
    assert r is out and out[()] == 3.0


# ------------------------------------------------------------------------------------- overlap with out

OVERLAPS = {
    "shift_right": lambda x: (x[:-1], x[1:], x[1:]),        # out=x[1:], input x[:-1]
    "shift_left": lambda x: (x[1:], x[:-1], x[:-1]),
    "reverse": lambda x: (x[::-1], x, x),
    "strided": lambda x: (x[::2][: x.size // 2], x[1::2][: x.size // 2], x[: x.size // 2]),
    "shift_by_3": lambda x: (x[3:], x[:-3], x[2:-1]),
}


@pytest.mark.parametrize("case", sorted(OVERLAPS))
@pytest.mark.parametrize("n", [10, 4099])
def test_partial_overlap_out(backend, random_array, case, n):
    x = random_array(n, np.float64)
    y = x.copy()
    a, b, out = OVERLAPS[case](x)
    ea, eb, eout = OVERLAPS[case](y)
    assert a.shape == b.shape == out.shape
    np.add(ea, eb, out=eout)
    r = npgpu.add(a, b, out=out)
    assert r is out
    assert np.array_equal(x, y), "partially overlapping out= differs from NumPy"


@pytest.mark.parametrize("n", [10, 4099])
def test_partial_overlap_with_scalar(backend, random_array, n):
    x = random_array(n, np.int32)
    y = x.copy()
    np.add(y[:-1], 1, out=y[1:])
    npgpu.add(x[:-1], 1, out=x[1:])
    assert np.array_equal(x, y)


# ------------------------------------------------------------------------------------ wrap, NaN, inf

@pytest.mark.parametrize("dtype", [d for d in DTYPES if d.kind in "iu"], ids=lambda d: d.name)
def test_integer_overflow_wraps(backend, dtype):
    info = np.iinfo(dtype)
    a = np.array([info.max, info.max, info.min, info.min, info.max], dtype=dtype)
    b = np.array([1, info.max, info.min, info.max, 0], dtype=dtype)
    if dtype.kind == "i":
        b[2] = -1
    r = npgpu.add(a, b)
    e = np.add(a, b)
    assert r.dtype == dtype and np.array_equal(r, e)
    assert r[0] == info.min  # max + 1 wraps to min


def test_bool_add_is_logical_or(backend):
    a = np.array([False, False, True, True])
    b = np.array([False, True, False, True])
    r = npgpu.add(a, b)
    assert r.dtype == np.bool_ and r.tolist() == [False, True, True, True]


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
def test_nan_and_inf_propagate(backend, assert_same, dtype):
    inf, nan = np.inf, np.nan
    a = np.array([nan, 1.0, inf, -inf, inf, -inf, nan, 0.0, -0.0, -0.0], dtype=dtype)
    b = np.array([1.0, nan, 1.0, 1.0, -inf, -inf, inf, -0.0, -0.0, 0.0], dtype=dtype)
    r = npgpu.add(a, b)
    assert_same(r, np.add(a, b))
    assert np.isnan(r[[0, 1, 4, 6]]).all() and r[2] == inf and r[3] == -inf and r[5] == -inf
    assert np.signbit(r[8]) and not np.signbit(r[7]) and not np.signbit(r[9])  # -0 + -0 = -0, else +0
    big = np.finfo(dtype).max
    assert npgpu.add(np.array([big], dtype), np.array([big], dtype))[0] == inf


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
def test_nan_inf_complex(backend, assert_same):
    a = np.array([complex(np.nan, 1), complex(np.inf, -np.inf), complex(1, 2)], dtype=np.complex128)
    b = np.array([complex(1, 1), complex(-np.inf, 1), complex(np.inf, np.nan)], dtype=np.complex128)
    assert_same(npgpu.add(a, b), np.add(a, b))
    assert_same(npgpu.add(a.astype(np.complex64), b.astype(np.complex64)),
                np.add(a.astype(np.complex64), b.astype(np.complex64)))


def test_int_float_conversion_exact(backend, assert_same):
    # Large integers through float64 round exactly as NumPy (round to nearest even).
    a = np.array([2**53 + 1, 2**63 - 1, -(2**63), 3], dtype=np.int64)
    b = np.array([0.0, 0.5, -1.0, 0.1], dtype=np.float64)
    assert_same(npgpu.add(a, b), np.add(a, b))
    u = np.array([2**64 - 1, 2**53 + 1, 1], dtype=np.uint64)
    i = np.array([-1, 1, -(2**63)], dtype=np.int64)
    assert_same(npgpu.add(u, i), np.add(u, i))  # uint64 + int64 -> float64


# --------------------------------------------------------------------------------------- device arrays

def _cai_view(base, shape, strides, offset_elems=0, readonly=False):
    """A view of npgpu Array `base` with other shape/strides (bytes), through the CUDA Array Interface."""
    iface = {"shape": tuple(shape), "typestr": base.dtype.str, "strides": tuple(strides),
             "data": (base.ptr + offset_elems * base.itemsize, readonly), "version": 3, "stream": None}
    holder = types.SimpleNamespace(__cuda_array_interface__=iface, base=base)
    return npgpu.asarray(holder)


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
def test_device_same_dtype(random_array, assert_same, dtype, n):
    a = random_array(n, dtype)
    b = random_array(n, dtype)
    da, db = npgpu.asarray(a), npgpu.asarray(b)
    r = npgpu.add(da, db)
    assert isinstance(r, npgpu.Array) and r.dtype == dtype and r.shape == (n,)
    assert_same(r.get(), np.add(a, b))
    assert np.array_equal(da.get(), a) and np.array_equal(db.get(), b)  # inputs untouched


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("dt1", DTYPES, ids=DTYPE_IDS)
def test_device_mixed_dtypes(random_array, assert_same, dt1):
    for dt2 in DTYPES:
        a = random_array(1001, dt1)
        b = random_array(1001, dt2)
        r = npgpu.add(npgpu.asarray(a), npgpu.asarray(b))
        assert r.dtype == np.result_type(dt1, dt2)
        assert_same(r.get(), np.add(a, b))


@pytest.mark.usefixtures("array_device")
@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")
@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
def test_device_python_scalars(random_array, assert_same, dtype):
    a = random_array(101, dtype)
    da = npgpu.asarray(a)
    for scalar in SCALARS:
        for args, dargs in (((a, scalar), (da, scalar)), ((scalar, a), (scalar, da))):
            expected = np_add(*args)
            if isinstance(expected, type):
                with pytest.raises(expected):
                    npgpu.add(*dargs)
            else:
                r = npgpu.add(*dargs)
                assert isinstance(r, npgpu.Array)
                assert_same(r.get(), expected)
    assert npgpu.add(npgpu.asarray(np.ones(3, np.float32)), 2.5).dtype == np.float32
    with pytest.raises(OverflowError):
        npgpu.add(npgpu.asarray(np.arange(3, dtype=np.int8)), 300)


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("shapes", [((3, 1), (4,)), ((2, 1, 5), (1, 4, 1)), ((0, 3), (3,)), ((), (5,)),
                                    ((), ())], ids=str)
def test_device_broadcasting(random_array, assert_same, shapes):
    a = random_array(shapes[0], np.float32)
    b = random_array(shapes[1], np.int16)
    r = npgpu.add(npgpu.asarray(a), npgpu.asarray(b))
    assert isinstance(r, npgpu.Array) and r.shape == np.broadcast_shapes(*shapes)
    assert_same(r.get(), np.asarray(np.add(a, b)))  # .get() of a 0-d device array is a 0-d ndarray


@pytest.mark.usefixtures("array_device")
def test_device_operators_and_ufunc(random_array):
    a = random_array((64, 33), np.float64)
    b = random_array((64, 33), np.float64)
    da, db = npgpu.asarray(a, copy=True), npgpu.asarray(b, copy=True)  # the host device would share a, b
    s = da + db
    assert isinstance(s, npgpu.Array) and np.array_equal(s.get(), a + b)
    assert np.array_equal((da + 2.5).get(), a + 2.5)
    assert np.array_equal((2.5 + da).get(), 2.5 + a)
    u = np.add(da, db)  # __array_ufunc__
    assert isinstance(u, npgpu.Array) and np.array_equal(u.get(), a + b)
    out = npgpu.empty(a.shape)
    r = np.add(da, db, out=out)
    assert r is out and np.array_equal(out.get(), a + b)
    assert np.array_equal(np.asarray(da + db), a + b)
    ptr = da.ptr
    da2 = da
    da2 += db
    assert da2 is da and da.ptr == ptr
    assert np.array_equal(da.get(), a + b)
    da += 1.0
    assert da2 is da and np.array_equal(da.get(), a + b + 1.0)
    x = npgpu.asarray(np.ones(4, np.int32))
    with pytest.raises(TypeError):
        x += 2.5  # float result into an int array: same_kind forbids it, like NumPy
    assert np.array_equal(x.get(), np.ones(4, np.int32))


@pytest.mark.usefixtures("array_device")
def test_device_out(random_array, poisoned):
    a = random_array(1000, np.float32)
    b = random_array(1000, np.float32)
    da, db = npgpu.asarray(a, copy=True), npgpu.asarray(b, copy=True)  # the host device would share a, b
    out = npgpu.asarray(poisoned(1000, np.float32))
    assert npgpu.add(da, db, out=out) is out
    assert np.array_equal(out.get(), a + b)
    out64 = npgpu.asarray(poisoned(1000, np.float64))
    assert npgpu.add(da, db, out=out64) is out64  # same_kind upcast, slow path
    assert np.array_equal(out64.get(), (a + b).astype(np.float64))
    assert npgpu.add(da, db, out=db) is db  # b += a
    assert np.array_equal(db.get(), a + b)
    with pytest.raises(TypeError, match="same_kind"):
        npgpu.add(da, da, out=npgpu.zeros(1000, np.int32))
    with pytest.raises(ValueError):
        npgpu.add(da, da, out=npgpu.zeros(999, np.float32))
    with pytest.raises(TypeError):
        npgpu.add(da, da, out=np.zeros(1000, np.float32))  # host out for device operands


@pytest.mark.gpu
def test_device_read_only_out(random_array):
    a = npgpu.asarray(random_array(16, np.float64))
    target = npgpu.zeros(16)
    ro = _cai_view(target, (16,), (8,), readonly=True)
    assert ro.readonly
    with pytest.raises(ValueError, match="read-only"):
        npgpu.add(a, a, out=ro)
    assert not target.get().any()


@pytest.mark.gpu
def test_device_non_contiguous(random_array, assert_same):
    h = random_array((20, 30), np.float64)
    g = random_array((20, 30), np.float64)
    base_h, base_g = npgpu.asarray(h), npgpu.asarray(g)
    # Transposes (30, 20) and reversed rows (negative stride).
    th = _cai_view(base_h, (30, 20), (8, 240))
    tg = _cai_view(base_g, (30, 20), (8, 240))
    assert th.strides == (8, 240) and not th.flags["C_CONTIGUOUS"]
    assert_same(npgpu.add(th, tg).get(), np.add(h.T, g.T))
    rh = _cai_view(base_h, (20, 30), (-240, 8), offset_elems=19 * 30)
    assert np.array_equal(rh.get(), h[::-1])
    assert_same(npgpu.add(rh, rh).get(), np.add(h[::-1], h[::-1]))
    assert_same(npgpu.add(rh, 1.5).get(), h[::-1] + 1.5)
    sh = _cai_view(base_h, (10, 10), (480, 24))  # h[::2, ::3]
    sg = _cai_view(base_g, (10, 10), (-480, -24), offset_elems=18 * 30 + 27)  # g[18::-2, 27::-3]
    assert_same(npgpu.add(sh, sg).get(), np.add(h[::2, ::3], g[18::-2, 27::-3]))


@pytest.mark.gpu
@pytest.mark.parametrize("case", ["shift_right", "shift_left", "reverse"])
def test_device_partial_overlap_out(random_array, case):
    x = random_array(1025, np.float64)
    y = x.copy()
    ea, eb, eout = OVERLAPS[case](y)
    np.add(ea, eb, out=eout)
    d = npgpu.asarray(x)
    views = {
        "shift_right": ((1024,), (8,), 0, (1024,), (8,), 1),
        "shift_left": ((1024,), (8,), 1, (1024,), (8,), 0),
    }
    if case == "reverse":
        a = _cai_view(d, (1025,), (-8,), offset_elems=1024)
        b = out = d
    else:
        sa, sta, oa, so, sto, oo = views[case]
        a = _cai_view(d, sa, sta, offset_elems=oa)
        b = out = _cai_view(d, so, sto, offset_elems=oo)
    assert npgpu.add(a, b, out=out) is out
    assert np.array_equal(d.get(), y)


@pytest.mark.usefixtures("array_device")
def test_device_zero_dim():
    a = npgpu.asarray(np.float32(1.5))
    r = a + a
    assert isinstance(r, npgpu.Array) and r.shape == () and r.dtype == np.float32
    g = r.get()
    assert isinstance(g, np.ndarray) and g.shape == () and g[()] == 3.0


@pytest.mark.usefixtures("array_device")
def test_device_integer_wrap_and_nan():
    a = npgpu.asarray(np.array([127, -128], np.int8))
    assert (a + npgpu.asarray(np.array([1, -1], np.int8))).get().tolist() == [-128, 127]
    f = npgpu.asarray(np.array([np.nan, np.inf, np.inf]))
    r = (f + npgpu.asarray(np.array([1.0, 1.0, -np.inf]))).get()
    assert np.isnan(r[0]) and r[1] == np.inf and np.isnan(r[2])


@pytest.mark.usefixtures("array_device")
def test_mixing_numpy_and_device_raises_type_error():
    d = npgpu.asarray(np.ones(4))
    h = np.ones(4)
    with pytest.raises(TypeError, match="npgpu.asarray"):
        npgpu.add(d, h)
    with pytest.raises(TypeError):
        npgpu.add(h, d)
    with pytest.raises(TypeError):
        d + h
    with pytest.raises(TypeError):
        h + d  # NumPy defers to Array.__array_ufunc__
    with pytest.raises(TypeError):
        np.add(h, d)
    with pytest.raises(TypeError):
        npgpu.add(h, h, out=npgpu.empty(4))
    with pytest.raises(TypeError):
        d + [1.0, 2.0, 3.0, 4.0]
    # 0-d NumPy arrays and NumPy scalars are scalars, not host arrays.
    assert np.array_equal((d + np.float64(1)).get(), h + 1)
    assert np.array_equal(npgpu.add(d, np.array(2.0)).get(), h + 2)


@pytest.mark.usefixtures("array_device")
def test_device_chain_stays_on_device(random_array):
    x = random_array(10000, np.float64)
    d = npgpu.asarray(x)
    acc = d
    for _ in range(5):
        acc = acc + d
    assert isinstance(acc, npgpu.Array) and np.allclose(acc.get(), 6 * x)


@pytest.mark.gpu
@pytest.mark.slow
def test_large_staged_add(rng):
    n = 2**24 + 3  # many staging chunks and a ragged tail
    a = rng.random(n, dtype=np.float32)
    b = rng.random(n, dtype=np.float32)
    with npgpu.use_backend("cuda"):
        r = npgpu.add(a, b)
        out = np.full(n, np.nan, np.float32)
        assert npgpu.add(a, b, out=out) is out
        r2 = npgpu.add(a[::-1], b)  # non-contiguous input through the ring
    e = np.add(a, b)
    assert r.dtype == np.float32 and np.array_equal(r, e)
    assert np.array_equal(out, e)
    assert np.array_equal(r2, np.add(a[::-1], b))


@pytest.mark.heavy
@pytest.mark.gpu
def test_small_staging_ring(rng):
    saved = npgpu.staging_config()
    try:
        npgpu.set_staging_config(1 << 16, 2)
        assert npgpu.staging_config() == (1 << 16, 2)
        n = 1_000_003
        a = rng.random(n)
        b = rng.integers(-1000, 1000, n, dtype=np.int32)
        with npgpu.use_backend("cuda"):
            r = npgpu.add(a, b)
            r32 = npgpu.add(a.astype(np.float32), 2.5)
            c = rng.random(n) + 1j * rng.random(n)
            rc = npgpu.add(c, c)
        assert np.array_equal(r, a + b)
        assert r32.dtype == np.float32 and np.array_equal(r32, a.astype(np.float32) + np.float32(2.5))
        assert np.array_equal(rc, c + c)
    finally:
        npgpu.set_staging_config(*saved)
    assert npgpu.staging_config() == saved


@pytest.mark.heavy
@pytest.mark.gpu
def test_staged_pinned_and_pageable_operands_on_a_busy_stream(rng):
    # Through a 3-slot ring in many chunks: a pinned operand between two pageable ones (uploaded apart from
    # them), a pageable out= (copied back out of the ring as slots come round), and a caller stream that is
    # still busy with earlier work when the staged call starts.
    saved = npgpu.staging_config()
    try:
        npgpu.set_staging_config(1 << 16, 3)
        n = 300_007
        cond = rng.random(n) < 0.5
        x = npgpu.empty_pinned(n, np.float64)
        x[:] = rng.random(n)
        y = rng.random(n)
        out = np.full(n, np.nan)
        s = npgpu.Stream()
        h = rng.random(1 << 22)
        busy = npgpu.asarray(h)
        with npgpu.use_backend("cuda"):
            for _ in range(20):
                busy = npgpu.multiply(busy, 1.0000001, stream=s)
            r = npgpu.where(cond, x, y, out=out, stream=s)
            s2 = npgpu.add(y, x, stream=s)  # a new (pinned) result, the pinned operand second
        assert r is out and np.array_equal(out, np.where(cond, x, y))
        assert np.array_equal(s2, y + x)
        for _ in range(20):
            h = h * 1.0000001
        assert np.array_equal(busy.get(stream=s), h)
    finally:
        npgpu.set_staging_config(*saved)


def test_staging_config_validation():
    saved = npgpu.staging_config()
    assert len(saved) == 2 and saved[0] >= 4096 and saved[1] >= 2
    with pytest.raises(ValueError):
        npgpu.set_staging_config(1 << 16, 1)
    with pytest.raises(ValueError):
        npgpu.set_staging_config(100, 4)
    assert npgpu.staging_config() == saved


def test_mixed_kinds_cover_all_pairs():
    # Guard for the parametrisation above: every ordered pair of supported dtypes is a valid NumPy add.
    for d1, d2 in itertools.product(DTYPES, DTYPES):
        assert np.result_type(d1, d2) in DTYPES
