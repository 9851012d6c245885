"""npgpu._dtypes: the standard's dtype objects, isdtype, result_type, can_cast, finfo, iinfo, constants and
__array_namespace_info__, against NumPy 2's answers; npgpu.Arrays count by their dtype and are never handed
to NumPy."""
import builtins
import math

import numpy as np
import pytest

import npgpu

NAMES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
         "float64", "complex64", "complex128"]
DTYPES = [np.dtype(n) for n in NAMES]
KINDS = ["bool", "signed integer", "unsigned integer", "integral", "real floating", "complex floating", "numeric"]


class _NoHostCopy:
    """Stands for a GPU array: it has a dtype, and handing it to NumPy (``__array__``) fails the test."""

    def __init__(self, dtype):
        self.dtype = np.dtype(dtype)

    def __array__(self, *args, **kwargs):
        raise AssertionError("an array was handed to NumPy (a host copy)")


@pytest.mark.parametrize("name", NAMES)
def test_dtype_objects_are_numpy_scalar_types(name):
    t = getattr(npgpu, name)
    assert t is np.dtype(name).type and t == np.dtype(name)
    assert isinstance(t(1), np.generic) and np.dtype(type(t(1))) == np.dtype(name)
    assert name in npgpu.__all__


def test_dtype_objects_make_scalars_and_arrays(array_device):
    assert npgpu.float32(1.5) == 1.5 and type(npgpu.float32(1.5)) is np.float32
    assert npgpu.bool is np.bool_ and npgpu.bool(0) is np.False_
    x = npgpu.asarray([1, 2], dtype=npgpu.int16)
    assert x.dtype == npgpu.int16 and x.device == npgpu.asarray([0.0]).device
    assert npgpu.zeros(3, dtype=npgpu.complex64).dtype == np.complex64


def test_bool_does_not_shadow_the_builtin_in_results():
    # The module rebinds `bool`; its own answers must still be Python bools.
    assert type(npgpu.isdtype(npgpu.int8, "integral")) is builtins.bool
    assert type(npgpu.isdtype(npgpu.int8, ("bool", npgpu.float32))) is builtins.bool
    assert builtins.bool is bool


def test_constants():
    assert npgpu.e == math.e and type(npgpu.e) is float
    assert npgpu.pi == math.pi and type(npgpu.pi) is float
    assert npgpu.inf == math.inf and type(npgpu.inf) is float
    assert math.isnan(npgpu.nan) and type(npgpu.nan) is float
    assert npgpu.newaxis is None and np.newaxis is None


@pytest.mark.parametrize("kind", KINDS)
def test_isdtype_kind_names_match_numpy(kind):
    for dt in DTYPES:
        assert npgpu.isdtype(dt, kind) is np.isdtype(dt, kind), (dt, kind)
        assert npgpu.isdtype(dt.type, kind) is np.isdtype(dt.type, kind), (dt.type, kind)


def test_isdtype_dtypes_and_tuples_match_numpy():
    kinds = [np.float32, np.dtype("int64"), ("bool", "complex floating"), (np.int8, "unsigned integer"),
             ("real floating", np.complex64, "signed integer"), ()]
    for dt in DTYPES:
        for kind in kinds:
            assert npgpu.isdtype(dt, kind) is np.isdtype(dt, kind), (dt, kind)


def test_isdtype_float16_and_bool_are_not_numeric_mixups():
    assert npgpu.isdtype(npgpu.float16, "real floating") and not npgpu.isdtype(npgpu.float16, "integral")
    assert not npgpu.isdtype(npgpu.bool, "numeric") and not npgpu.isdtype(npgpu.bool, "integral")
    assert npgpu.isdtype(npgpu.uint64, ("signed integer", "unsigned integer"))


def test_isdtype_errors():
    with pytest.raises(ValueError, match="unknown kind 'floating'"):
        npgpu.isdtype(npgpu.float32, "floating")
    with pytest.raises(ValueError, match="unknown kind"):
        npgpu.isdtype(npgpu.float32, ("bool", "integer"))
    with pytest.raises(TypeError, match="kind must be a dtype"):
        npgpu.isdtype(npgpu.float32, None)
    with pytest.raises(TypeError, match="kind must be a dtype"):
        npgpu.isdtype(npgpu.float32, 3)
    with pytest.raises(TypeError, match="dtype must be a dtype"):
        npgpu.isdtype("float32", "real floating")  # as numpy.isdtype: strings are not dtypes
    with pytest.raises(TypeError, match="dtype must be a dtype"):
        npgpu.isdtype(float, "real floating")
    with pytest.raises(TypeError, match="dtype must be a dtype"):
        npgpu.isdtype(None, "real floating")  # np.dtype(None) would be float64


def test_result_type_of_arrays_matches_numpy(array_device):
    arrays = {dt: npgpu.asarray(np.zeros(2, dt)) for dt in DTYPES}
    for a in DTYPES:
        for b in DTYPES:
            want = np.result_type(a, b)
            assert npgpu.result_type(arrays[a], arrays[b]) == want, (a, b)
            assert npgpu.result_type(arrays[a], b) == want, (a, b)
            assert npgpu.result_type(a.type, b) == want, (a, b)


@pytest.mark.parametrize("scalar", [True, 1, -1, 300, 1.5, 1e300, 1j])
def test_result_type_python_scalars_are_weak(array_device, scalar):
    for dt in DTYPES:
        x = npgpu.asarray(np.zeros(2, dt))
        assert npgpu.result_type(x, scalar) == np.result_type(dt, scalar), (dt, scalar)
        assert npgpu.result_type(scalar, x, dt) == np.result_type(scalar, dt, dt), (dt, scalar)
    assert npgpu.result_type(npgpu.asarray(np.zeros(2, np.int16)), 1) == np.int16
    assert npgpu.result_type(npgpu.asarray(np.zeros(2, np.float32)), 1.0) == np.float32
    assert npgpu.result_type(1, 1.0) == np.float64


def test_result_type_numpy_operands_and_no_host_copy(array_device):
    # NumPy scalars and 0-d arrays are strong (NEP 50), as in NumPy.
    x = npgpu.asarray(np.zeros(3, np.int8))
    assert npgpu.result_type(x, np.int32(1)) == np.int32
    assert npgpu.result_type(x, np.array(1.0, np.float32)) == np.float32
    assert npgpu.result_type(npgpu.asarray(np.float64(2.0)), np.float32) == np.float64
    assert npgpu.result_type(x, "float32") == np.float32
    assert npgpu.result_type(_NoHostCopy(np.uint16), np.int8, 2.0) == np.result_type(np.uint16, np.int8, 2.0)
    assert npgpu.result_type(_NoHostCopy(np.float16), 2.0) == np.float16
    assert npgpu.can_cast(_NoHostCopy(np.int8), np.int16)
    assert npgpu.finfo(_NoHostCopy(np.float16)).bits == 16 and npgpu.iinfo(_NoHostCopy(np.uint8)).max == 255


def test_result_type_errors():
    with pytest.raises(ValueError, match="at least one array or dtype"):
        npgpu.result_type()
    with pytest.raises(TypeError):
        npgpu.result_type(np.int8, object())


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
def test_can_cast_matches_numpy(array_device, casting):
    for a in DTYPES:
        x = npgpu.asarray(np.zeros(1, a))
        for b in DTYPES:
            want = np.can_cast(a, b, casting=casting)
            assert npgpu.can_cast(a, b, casting=casting) is want, (a, b, casting)
            assert npgpu.can_cast(x, b, casting=casting) is want, (a, b, casting)
    assert npgpu.can_cast(npgpu.int8, npgpu.float16) and not npgpu.can_cast(npgpu.int64, npgpu.float32)


def test_can_cast_errors():
    with pytest.raises(TypeError, match="Python ints"):
        npgpu.can_cast(1, npgpu.int8)  # NumPy 2: no value-based casting
    with pytest.raises(ValueError, match="casting"):
        npgpu.can_cast(npgpu.int8, npgpu.int16, casting="sometimes")


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128"])
def test_finfo(array_device, dtype):
    want = np.finfo(dtype)
    for arg in (np.dtype(dtype), np.dtype(dtype).type, npgpu.asarray(np.ones(2, dtype))):
        got = npgpu.finfo(arg)
        assert (got.bits, got.eps, got.max, got.min, got.smallest_normal, got.dtype) == \
            (want.bits, want.eps, want.max, want.min, want.smallest_normal, want.dtype)
    assert npgpu.finfo(1.0).dtype == np.float64


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128"])
def test_finfo_attribute_types_are_the_standards(dtype):
    # the standard: bits an int, eps/max/min/smallest_normal Python floats (NumPy's are NumPy scalars)
    got = npgpu.finfo(np.dtype(dtype))
    assert type(got.bits) is int
    for name in ("eps", "max", "min", "smallest_normal"):
        assert type(getattr(got, name)) is float, name
        assert getattr(got, name) == getattr(np.finfo(dtype), name), name
    assert got.dtype == np.finfo(dtype).dtype and isinstance(got.dtype, np.dtype)
    # the rest of numpy.finfo stays reachable
    assert got.tiny == np.finfo(dtype).tiny and got.resolution == np.finfo(dtype).resolution
    assert got == npgpu.finfo(np.finfo(dtype).dtype) and hash(got) == hash(npgpu.finfo(got.dtype))
    assert "smallest_normal" in repr(got)
    with pytest.raises(AttributeError):
        _ = got.no_such_attribute


def test_array_api_version():
    assert npgpu.__array_api_version__ == "2024.12"
    assert npgpu.asarray([1.0]).__array_namespace__(api_version=npgpu.__array_api_version__) is npgpu


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"])
def test_iinfo(array_device, dtype):
    want = np.iinfo(dtype)
    for arg in (np.dtype(dtype), np.dtype(dtype).type, npgpu.asarray(np.ones(2, dtype))):
        got = npgpu.iinfo(arg)
        assert (got.bits, got.max, got.min, got.dtype) == (want.bits, want.max, want.min, want.dtype)


def test_finfo_iinfo_errors(array_device):
    with pytest.raises(ValueError, match="not inexact|not compatible"):
        npgpu.finfo(npgpu.asarray(np.ones(2, np.int32)))
    with pytest.raises(ValueError, match="Invalid integer"):
        npgpu.iinfo(npgpu.asarray(np.ones(2, np.float32)))
    with pytest.raises(ValueError, match="Invalid integer"):
        npgpu.iinfo(npgpu.bool)


def test_namespace_info_capabilities_and_default_dtypes():
    info = npgpu.__array_namespace_info__()
    assert info.capabilities() == {"boolean indexing": False, "data-dependent shapes": False,
                                   "max dimensions": 32}
    want = {"real floating": np.dtype(np.float64), "complex floating": np.dtype(np.complex128),
            "integral": np.dtype(np.int64), "indexing": np.dtype(np.int64)}
    assert info.default_dtypes() == want
    for device in info.devices():
        assert info.default_dtypes(device=device) == want
    assert all(isinstance(v, np.dtype) for v in info.default_dtypes().values())


def test_namespace_info_devices():
    info = npgpu.__array_namespace_info__()
    devices = info.devices()
    assert devices[0] == npgpu.cpu and devices[0] == "cpu"
    assert devices[1:] == [npgpu.Device(i) for i in range(npgpu.device_count())]
    assert len(set(devices)) == len(devices)


def test_namespace_info_default_device(array_device):
    info = npgpu.__array_namespace_info__()
    assert info.default_device() == npgpu.asarray([0.0]).device
    assert info.default_device() in info.devices()
    with npgpu.use_backend("cpu"):
        assert info.default_device() == npgpu.cpu


def test_namespace_info_dtypes():
    info = npgpu.__array_namespace_info__()
    everything = info.dtypes()
    # float16 arrays exist, but the standard has no float16: its array-api-tests refuse it in dtypes()
    assert everything == {n: np.dtype(n) for n in NAMES if n != "float16"}
    assert set(everything.values()) == set(npgpu.SUPPORTED_DTYPES)
    for kind in KINDS:
        assert info.dtypes(kind=kind) == {n: d for n, d in everything.items() if np.isdtype(d, kind)}, kind
    assert list(info.dtypes(kind="real floating")) == ["float32", "float64"]
    assert list(info.dtypes(kind=("bool", "complex floating"))) == ["bool", "complex64", "complex128"]
    assert info.dtypes(kind=npgpu.int32) == {"int32": np.dtype(np.int32)}
    assert info.dtypes(device=npgpu.cpu, kind="bool") == {"bool": np.dtype(bool)}
    assert info.dtypes(device="cpu") == everything


def test_namespace_info_errors():
    info = npgpu.__array_namespace_info__()
    with pytest.raises(ValueError, match="unknown kind"):
        info.dtypes(kind="floating")
    with pytest.raises(ValueError, match="unknown device 'tpu'"):
        info.dtypes(device="tpu")
    with pytest.raises(ValueError, match="unknown device"):
        info.default_dtypes(device=npgpu.device_count())  # one past the last GPU
    with pytest.raises(TypeError):
        info.dtypes("cpu")  # the standard's arguments are keyword-only


def test_namespace_info_from_array_namespace(array_device):
    x = npgpu.asarray([1.0])
    xp = x.__array_namespace__()
    assert xp is npgpu and xp.__array_namespace_info__().default_device() == x.device


@pytest.mark.parametrize("dt", [">i4", ">f8", "<i2" if not np.little_endian else ">u2", ">c16"])
def test_non_native_byte_order_is_converted_as_numpy_does(backend, dt):
    x = (np.arange(12) % 5 + 1).astype(dt)
    native = x.astype(x.dtype.newbyteorder("="))
    np.testing.assert_array_equal(npgpu.add(x, 1), np.add(native, 1))
    np.testing.assert_array_equal(npgpu.multiply(x, x), np.multiply(native, native))
    assert npgpu.sum(x) == native.sum()
    np.testing.assert_array_equal(npgpu.cumsum(x), np.cumsum(native))
    if x.dtype.kind != "c":
        np.testing.assert_array_equal(npgpu.sort(x), np.sort(native))
    np.testing.assert_array_equal(npgpu.asarray(x).get(), native)


def test_python_ints_too_large_for_a_count_name_the_argument():
    with pytest.raises(ValueError, match="monte_carlo_pi: n must be between 1 and 2\\*\\*62"):
        npgpu.monte_carlo_pi(2 ** 63)
    with pytest.raises(ValueError, match="diffusion: steps must be between 0 and 2\\*\\*63 - 1"):
        npgpu.diffusion(np.ones((4, 4)), 2 ** 64)
    with pytest.raises(ValueError, match="callback_every must be between 1 and 2\\*\\*63 - 1"):
        npgpu.diffusion(np.ones((4, 4)), 3, callback=lambda k, f: True, callback_every=2 ** 70)
