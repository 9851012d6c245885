"""The Array API namespace: dtype objects and functions, constants, __array_namespace_info__, the composed
elementwise functions against NumPy (both devices and NumPy inputs), and NumPy functions on npgpu arrays
(__array_function__)."""
import math

import numpy as np
import pytest

import npgpu


def test_dtype_objects_and_constants():
    assert npgpu.float32 == np.dtype("float32") and npgpu.float32(1.5) == 1.5
    assert npgpu.bool == np.dtype(bool) and npgpu.complex128 == np.dtype("complex128")
    assert npgpu.e == math.e and npgpu.pi == math.pi and npgpu.inf == math.inf and math.isnan(npgpu.nan)
    assert npgpu.newaxis is None


@pytest.mark.parametrize("dtype,kind,expected", [
    ("int8", "signed integer", True), ("uint8", "signed integer", False), ("uint64", "integral", True),
    ("float16", "real floating", True), ("complex64", "numeric", True), ("bool", "numeric", False),
    ("bool", "bool", True), ("float32", ("bool", "complex floating"), False), ("float32", np.float32, True),
    ("float32", np.float64, False)])
def test_isdtype(dtype, kind, expected):
    assert npgpu.isdtype(np.dtype(dtype), kind) is expected


def test_isdtype_errors():
    with pytest.raises(ValueError, match="kind"):
        npgpu.isdtype(npgpu.float32, "floating")


def test_result_type_can_cast_finfo_iinfo(array_device):
    x = npgpu.asarray(np.ones(3, np.float32))
    i = npgpu.asarray(np.ones(3, np.int16))
    assert npgpu.result_type(x, i) == np.result_type(np.float32, np.int16)
    assert npgpu.result_type(i, 1) == np.int16 and npgpu.result_type(i, 1.0) == np.float64
    assert npgpu.result_type(x, np.complex64) == np.complex64
    assert npgpu.can_cast(i, np.float32) and not npgpu.can_cast(x, np.int16)
    assert npgpu.finfo(x).eps == np.finfo(np.float32).eps and npgpu.iinfo(i).max == 32767
    with pytest.raises(ValueError):
        npgpu.result_type()


def test_namespace_info():
    info = npgpu.__array_namespace_info__()
    assert info.capabilities()["max dimensions"] == 32
    assert npgpu.cpu in info.devices() and len(info.devices()) == 1 + npgpu.device_count()
    assert info.default_dtypes()["real floating"] == np.float64
    assert set(info.dtypes(kind="integral")) == {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                                 "uint64"}
    assert info.default_device() == npgpu.asarray([0]).device


FLOATS = ["float16", "float32", "float64"]
SPECIAL = np.array([0.0, -0.0, 1.5, -2.25, np.inf, -np.inf, np.nan, -np.nan, 1e-310, -1e-310, 3.0, 1e300])


def _special(dtype):
    with np.errstate(over="ignore"):
        return SPECIAL.astype(dtype)


def check(got, want, rtol=0.0):
    g = np.asarray(got.get() if isinstance(got, npgpu.Array) else got)
    want = np.asarray(want)
    assert g.dtype == want.dtype and g.shape == want.shape
    if rtol:
        np.testing.assert_allclose(g, want, rtol=rtol, atol=0, equal_nan=True)
    else:
        assert np.array_equal(g, want, equal_nan=True), (g, want)


@pytest.mark.parametrize("dtype", FLOATS)
def test_sign_bit_functions(array_device, dtype):
    a = _special(dtype)
    b = np.roll(a, 3)
    x, y = npgpu.asarray(a), npgpu.asarray(b)
    check(npgpu.signbit(x), np.signbit(a))
    check(npgpu.copysign(x, y), np.copysign(a, b))
    check(npgpu.copysign(x, -1.0), np.copysign(a, -1.0))
    with np.errstate(all="ignore"):
        check(npgpu.nextafter(x, y), np.nextafter(a, b))
        check(npgpu.nextafter(x, 0.0), np.nextafter(a, dtype and np.dtype(dtype).type(0)))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_logaddexp(array_device, random_array, dtype):
    a = np.concatenate([random_array(50, dtype), _special(dtype)])
    b = np.concatenate([random_array(50, dtype), np.roll(_special(dtype), 5)])
    with np.errstate(all="ignore"):
        want, want2 = np.logaddexp(a, b), np.logaddexp2(a, b)
    tol = 1e-6 if dtype == "float32" else 1e-14
    check(npgpu.logaddexp(npgpu.asarray(a), npgpu.asarray(b)), want, rtol=tol)
    check(npgpu.logaddexp2(npgpu.asarray(a), npgpu.asarray(b)), want2, rtol=tol)
    check(npgpu.logaddexp(npgpu.asarray(a), npgpu.asarray(a)), np.logaddexp(a, a), rtol=tol)


@pytest.mark.parametrize("decimals", [0, 1, 3, -2])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int32"])
def test_round(array_device, random_array, decimals, dtype):
    h = random_array(64, dtype) * (3 if dtype != "int32" else 1)
    # complex: NumPy divides by 10**decimals with its complex division, which may differ in the last bit
    rtol = 1e-15 if dtype == "complex128" and decimals else 0.0
    check(npgpu.round(npgpu.asarray(h), decimals), np.round(h, decimals), rtol=rtol)
    check(npgpu.round(h, decimals), np.round(h, decimals))


@pytest.mark.parametrize("equal_nan", [False, True])
def test_isclose_allclose(array_device, equal_nan):
    a = np.array([1.0, 1.0 + 1e-9, 1.1, np.inf, -np.inf, np.nan, 0.0, 1e-9])
    b = np.array([1.0, 1.0, 1.0, np.inf, np.inf, np.nan, 1e-9, 0.0])
    check(npgpu.isclose(npgpu.asarray(a), npgpu.asarray(b), equal_nan=equal_nan),
          np.isclose(a, b, equal_nan=equal_nan))
    check(npgpu.isclose(npgpu.asarray(np.arange(5)), 2), np.isclose(np.arange(5), 2))
    assert npgpu.allclose(npgpu.asarray(a[:2]), npgpu.asarray(b[:2])) is True
    assert npgpu.allclose(npgpu.asarray(a), npgpu.asarray(b), equal_nan=True) is False


def test_fmax_fmin_degrees(array_device):
    a = np.array([1.0, np.nan, np.nan, -0.5, 3.0])
    b = np.array([np.nan, 2.0, np.nan, -1.0, 4.0])
    check(npgpu.fmax(npgpu.asarray(a), npgpu.asarray(b)), np.fmax(a, b))
    check(npgpu.fmin(npgpu.asarray(a), npgpu.asarray(b)), np.fmin(a, b))
    d = np.array([0, 90, 180, -45], dtype=np.float32)
    check(npgpu.deg2rad(npgpu.asarray(d)), np.deg2rad(d), rtol=1e-7)
    check(npgpu.rad2deg(npgpu.deg2rad(npgpu.asarray(d))), np.rad2deg(np.deg2rad(d)), rtol=1e-6)


def test_clip_forms(array_device, random_array):
    h = random_array(40, np.float64)
    x = npgpu.asarray(h)
    check(npgpu.clip(x, -1, 1), np.clip(h, -1, 1))
    check(npgpu.clip(x, min=-0.5), np.clip(h, -0.5, None))
    check(npgpu.clip(x, max=0.25), np.clip(h, None, 0.25))
    c = npgpu.clip(x)
    assert c.ptr != x.ptr
    check(c, h)


@pytest.mark.parametrize("include_initial", [False, True])
def test_cumulative(array_device, random_array, include_initial):
    h = random_array((4, 5), np.int16)
    x = npgpu.asarray(h)
    want = np.cumulative_sum(h, axis=1, include_initial=include_initial) if hasattr(np, "cumulative_sum") \
        else None
    got = npgpu.cumulative_sum(x, axis=1, include_initial=include_initial)
    ref = np.cumsum(h, axis=1)
    if include_initial:
        ref = np.concatenate([np.zeros((4, 1), ref.dtype), ref], axis=1)
    check(got, ref if want is None else want)
    f = random_array(7, np.float64) / 4
    refp = np.cumprod(f)
    if include_initial:
        refp = np.concatenate([[1.0], refp])
    check(npgpu.cumulative_prod(npgpu.asarray(f), include_initial=include_initial), refp, rtol=1e-14)
    with pytest.raises(ValueError, match="axis"):
        npgpu.cumulative_sum(x)


@pytest.mark.parametrize("n,axis", [(1, -1), (2, 0), (0, 1), (3, 1)])
def test_diff(array_device, random_array, n, axis):
    h = random_array((5, 6), np.float64)
    check(npgpu.diff(npgpu.asarray(h), n=n, axis=axis), np.diff(h, n=n, axis=axis))
    b = h > 0
    check(npgpu.diff(npgpu.asarray(b), n=n, axis=axis), np.diff(b, n=n, axis=axis))
    check(npgpu.diff(npgpu.asarray(h), axis=axis, prepend=0.5, append=npgpu.asarray(h)),
          np.diff(h, axis=axis, prepend=0.5, append=h))


def test_numpy_functions_stay_in_npgpu(array_device, random_array):
    h = random_array((4, 6), np.float64)
    x = npgpu.asarray(h)
    cases = [(np.concatenate, ([x, x],), ([h, h],)), (np.mean, (x,), (h,)), (np.sum, (x,), (h,)),
             (np.stack, ([x, x],), ([h, h],)), (np.transpose, (x,), (h,)), (np.cumsum, (x,), (h,)),
             (np.where, (x > 0, x, 0.0), (h > 0, h, 0.0)), (np.clip, (x, -1, 1), (h, -1, 1)),
             (np.linalg.norm, (x,), (h,)), (np.matmul, (x, x.T), (h, h.T)), (np.roll, (x, 2), (h, 2)),
             (np.pad, (x, 1), (h, 1)), (np.tril, (x,), (h,)), (np.diff, (x,), (h,))]
    for fn, args, hargs in cases:
        r = fn(*args)
        assert isinstance(r, npgpu.Array), fn.__name__
        np.testing.assert_allclose(r.get(), fn(*hargs), rtol=1e-12, err_msg=fn.__name__)
    assert np.shape(x) == (4, 6) and np.ndim(x) == 2 and np.size(x) == 24
    assert np.allclose(x, x) is True


def test_numpy_functions_npgpu_lacks_raise(array_device):
    x = npgpu.asarray(np.arange(4.0))
    with pytest.raises(TypeError, match=r"numpy\.datetime_as_string .*not supported"):
        np.datetime_as_string(x)
    assert np.einsum_path("i,i", x, x)[0] == ["einsum_path", (0, 1)]  # npgpu has einsum_path now
    counts, edges = np.histogram(x, bins=2)  # npgpu has histogram now: it runs there
    assert isinstance(counts, npgpu.Array) and counts.get().tolist() == [2, 2]
    c = np.copy(x, subok=True)  # npgpu's copy takes NumPy's subok now (no subclasses: an Array either way)
    assert type(c) is npgpu.Array and c.get().tolist() == [0.0, 1.0, 2.0, 3.0]


def test_standard_names_of_existing_ufuncs(array_device, random_array):
    h = random_array(16, np.float64) / 1000
    x = npgpu.asarray(h)
    for name, ref in (("acos", np.arccos), ("asin", np.arcsin), ("atan", np.arctan)):
        np.testing.assert_allclose(getattr(npgpu, name)(x).get(), ref(h), rtol=1e-14)
    np.testing.assert_allclose(npgpu.atan2(x, x[::-1]).get(), np.arctan2(h, h[::-1]), rtol=1e-14)
    np.testing.assert_allclose(npgpu.pow(x, 2).get(), h ** 2, rtol=1e-15)
    i = random_array(8, np.int32)
    assert np.array_equal(npgpu.bitwise_invert(npgpu.asarray(i)).get(), ~i)


def test_exceptions_module_is_numpys_classes(array_device):
    from npgpu import exceptions

    for name in ("AxisError", "ComplexWarning", "DTypePromotionError", "ModuleDeprecationWarning",
                 "TooHardError", "VisibleDeprecationWarning"):
        assert getattr(exceptions, name) is getattr(np.exceptions, name)
    assert exceptions.CUDAError is npgpu.CUDAError and exceptions.OutOfMemoryError is npgpu.OutOfMemoryError
    assert issubclass(exceptions.RankWarning, Warning) and exceptions.RankWarning.__name__ == "RankWarning"
    x = npgpu.asarray(np.ones((2, 3)), device=array_device)
    with pytest.raises(npgpu.exceptions.AxisError):  # what npgpu raises is what the module names
        npgpu.sum(x, axis=5)
