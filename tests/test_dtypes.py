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


# ------------------------------------------------------------------------------ NumPy's array and dtype queries

@pytest.mark.parametrize("value", [1, 2.5, 1j, True, "s", b"b", np.float32(1), np.int8(3), None, [1], (1,), {}],
                         ids=repr)
def test_isscalar_iterable_ndim_shape_size_of_host_values(value):
    assert npgpu.isscalar(value) == np.isscalar(value)
    assert npgpu.iterable(value) == np.iterable(value)
    if value not in (None, {}):
        assert npgpu.ndim(value) == np.ndim(value)
        assert npgpu.shape(value) == np.shape(value)
        assert npgpu.size(value) == np.size(value)


@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 3), (2, 1, 4)], ids=repr)
def test_array_queries(array_device, shape):
    x = npgpu.zeros(shape, device=array_device)
    h = np.zeros(shape)
    assert npgpu.isscalar(x) is False
    assert npgpu.iterable(x) == np.iterable(h)
    assert (npgpu.ndim(x), npgpu.shape(x), npgpu.size(x)) == (np.ndim(h), np.shape(h), np.size(h))
    for axis in range(-len(shape), len(shape)):
        assert npgpu.size(x, axis) == np.size(h, axis)
    if len(shape) >= 2:
        assert npgpu.size(x, (0, -1)) == shape[0] * shape[-1]
    with pytest.raises(np.exceptions.AxisError):
        np.size(h, len(shape))
    with pytest.raises(np.exceptions.AxisError):
        npgpu.size(x, len(shape))
    with pytest.raises(TypeError):
        npgpu.size(x, 0.5)


def test_isfortran(array_device):
    for shape in [(2, 3), (3,), (1, 4), (2, 3, 4), (0, 2)]:
        h = np.arange(math.prod(shape), dtype=np.float32).reshape(shape)
        x = npgpu.asarray(h, device=array_device)
        assert npgpu.isfortran(x) == np.isfortran(h)
        assert npgpu.isfortran(x.T) == np.isfortran(h.T)
        assert npgpu.isfortran(x.T) == (len([n for n in shape if n != 1]) >= 2 and h.size > 0)
    h = np.ones((4, 6))
    assert npgpu.isfortran(npgpu.asarray(h, device=array_device)[:, ::2].T) == np.isfortran(h[:, ::2].T) is False
    assert npgpu.isfortran(np.asfortranarray(h)) is True
    with pytest.raises(TypeError):
        npgpu.isfortran([[1, 2]])


def _views(a):
    return {"a": a, "a[::2]": a[::2], "a[1::2]": a[1::2], "a[2:5]": a[2:5], "a[5:]": a[5:], "a[::-1]": a[::-1],
            "a[6:7]": a[6:7], "a[3:3]": a[3:3]}


def test_shares_memory_views(array_device):
    host = np.arange(12, dtype=np.int32)
    hv = _views(host)
    d = npgpu.asarray(host, device=array_device)  # one upload on a GPU: every view below is of it
    dv = _views(d)
    m2 = host.reshape(3, 4)
    d2 = d.reshape(3, 4)
    hv.update({"m[:, 0]": m2[:, 0], "m[:, 1]": m2[:, 1], "m[1]": m2[1], "m.T": m2.T, "m[:, 1:3]": m2[:, 1:3]})
    dv.update({"m[:, 0]": d2[:, 0], "m[:, 1]": d2[:, 1], "m[1]": d2[1], "m.T": d2.T, "m[:, 1:3]": d2[:, 1:3]})
    differ = 0
    for n1 in hv:
        for n2 in hv:
            exact = np.shares_memory(hv[n1], hv[n2])
            bounds = np.may_share_memory(hv[n1], hv[n2])
            assert npgpu.shares_memory(dv[n1], dv[n2]) == exact, (n1, n2)
            assert npgpu.may_share_memory(dv[n1], dv[n2]) == bounds, (n1, n2)
            assert npgpu.may_share_memory(dv[n1], dv[n2], max_work=-1) == exact, (n1, n2)
            assert npgpu.shares_memory(dv[n1], dv[n2], max_work=0) == bounds, (n1, n2)
            differ += exact != bounds
    assert differ  # the views above do tell the two apart


def test_shares_memory_other_inputs(array_device):
    a = npgpu.arange(4, device=array_device)
    b = npgpu.arange(4, device=array_device)
    assert not npgpu.shares_memory(a, b) and not npgpu.may_share_memory(a, b)
    assert not npgpu.shares_memory(a, [1, 2]) and not npgpu.shares_memory([1, 2], [1, 2])
    h = np.arange(5.0)
    assert npgpu.shares_memory(h, h[1:]) and not npgpu.shares_memory(h[::2], h[1::2])
    with pytest.raises(ValueError):
        npgpu.shares_memory(a, a, max_work=-2)
    with pytest.raises(TypeError):
        npgpu.may_share_memory(a, a, max_work="x")


@pytest.mark.parametrize("t1", NAMES)
@pytest.mark.parametrize("t2", ["int8", "uint64", "float16", "complex64", "bool"])
def test_promote_types(t1, t2):
    assert npgpu.promote_types(t1, t2) == np.promote_types(t1, t2)
    assert npgpu.promote_types(npgpu.asarray([1], dtype=t1, device="cpu"), t2) == np.promote_types(t1, t2)


def test_promote_types_errors():
    with pytest.raises(TypeError):
        np.promote_types("M8[s]", "f8")
    with pytest.raises(TypeError):
        npgpu.promote_types("M8[s]", "f8")
    with pytest.raises(TypeError):
        npgpu.promote_types("nonsense", "f8")


@pytest.mark.parametrize("value", [10, -260, 1e50, 2 ** 40, 3.5, 1 + 2j, True, np.float64(1.0), -1, 255, 256],
                         ids=repr)
def test_min_scalar_type(array_device, value):
    assert npgpu.min_scalar_type(value) == np.min_scalar_type(value)
    x = npgpu.asarray(np.asarray(value), device=array_device)
    assert npgpu.min_scalar_type(x) == np.min_scalar_type(np.asarray(value))
    assert npgpu.min_scalar_type(npgpu.asarray([1, 2], dtype=np.int32, device=array_device)) == np.int32


@pytest.mark.parametrize("a", NAMES)
@pytest.mark.parametrize("b", [np.integer, np.floating, np.number, np.signedinteger, np.complexfloating, np.generic,
                               "float64", np.bool_])
def test_issubdtype(a, b):
    assert npgpu.issubdtype(a, b) is np.issubdtype(a, b)
    assert npgpu.issubdtype(npgpu.asarray([1], dtype=a, device="cpu"), b) is np.issubdtype(a, b)


@pytest.mark.parametrize("dtypes", [("float32",), ("int8",), ("float16",), ("float16", "float32"), ("int8", "float32"),
                                    ("complex64", "float64"), ("complex64",), ("uint64", "float16")], ids=repr)
def test_common_type(array_device, dtypes):
    arrays = [npgpu.zeros(2, dtype=d, device=array_device) for d in dtypes]
    assert npgpu.common_type(*arrays) is np.common_type(*[np.zeros(2, dtype=d) for d in dtypes])


def test_common_type_errors():
    with pytest.raises(TypeError):
        np.common_type(np.zeros(2, dtype=bool))
    with pytest.raises(TypeError):
        npgpu.common_type(npgpu.zeros(2, dtype=bool, device="cpu"))
    with pytest.raises(TypeError):
        npgpu.common_type([1.0])


@pytest.mark.parametrize("chars, kw", [(["d", "f", "S"], {}), ("idF", {}), ("", {}), ("ibl", {"default": "f"}),
                                       (["f", "d"], {"typeset": "fF"}), (["F", "d"], {})], ids=repr)
def test_mintypecode(chars, kw):
    assert npgpu.mintypecode(chars, **kw) == np.mintypecode(chars, **kw)


def test_mintypecode_arrays():
    x = npgpu.asarray([1j], dtype=np.complex64, device="cpu")
    assert npgpu.mintypecode([x, "d"]) == np.mintypecode([np.asarray([1j], dtype=np.complex64), "d"]) == "D"


@pytest.mark.parametrize("char", list("S?bBhHiIlLqQfdgFDGUVO"))
def test_typename(char):
    assert npgpu.typename(char) == np.typename(char)


def test_typename_errors():
    with pytest.raises(KeyError):
        np.typename("xx")
    with pytest.raises(KeyError):
        npgpu.typename("xx")
    with pytest.raises(TypeError):
        npgpu.typename([1])


def test_asanyarray(array_device, assert_same):
    x = npgpu.asarray([[1, 2], [3, 4]], device=array_device)
    assert npgpu.asanyarray(x) is x
    assert npgpu.asanyarray(x, order="C") is x
    f = npgpu.asanyarray(x, order="F")
    assert npgpu.isfortran(f) and f.strides == (8, 16)
    assert_same(f.get(), np.asanyarray([[1, 2], [3, 4]], order="F"))
    y = npgpu.asanyarray([1, 2], dtype=np.float32, device=array_device)
    assert_same(y.get(), np.asanyarray([1, 2], dtype=np.float32))
    assert npgpu.asanyarray(x, copy=True) is not x
    with pytest.raises(ValueError):
        npgpu.asanyarray(x, order="F", copy=False)
    with pytest.raises(ValueError):
        npgpu.asanyarray(x, order="Z")


@pytest.mark.parametrize("values", [[1.0, np.inf], [np.nan], [[1.0, 2.0], [-np.inf, 0.0]], [complex(1, np.nan)]],
                         ids=repr)
def test_asarray_chkfinite_raises(array_device, values):
    with pytest.raises(ValueError):
        np.asarray_chkfinite(values)
    with pytest.raises(ValueError, match="infs or NaNs"):
        npgpu.asarray_chkfinite(values, device=array_device)
    with pytest.raises(ValueError, match="infs or NaNs"):
        npgpu.asarray_chkfinite(npgpu.asarray(values, device=array_device))


def test_asarray_chkfinite_passes(array_device, assert_same):
    for values, dtype in [([1.0, 2.0], None), ([1, 2], np.int8), ([], None), ([[1 + 1j]], None), ([True], None)]:
        got = npgpu.asarray_chkfinite(values, dtype=dtype, device=array_device)
        assert_same(got.get(), np.asarray_chkfinite(values, dtype=dtype))
    x = npgpu.asarray([1.0], device=array_device)
    assert npgpu.asarray_chkfinite(x) is x


@pytest.mark.parametrize("req", [None, "C", "F", ["A"], ["W"], ["O"], ["E"], ["C", "W"], ["F", "A", "W", "O"],
                                 ["c_contiguous"], ["FORTRAN"], "CA", ["OWNDATA", "E"]], ids=repr)
@pytest.mark.parametrize("layout", ["c", "f", "strided"])
def test_require(array_device, req, layout):
    h = np.arange(24.0).reshape(4, 6)
    h = {"c": h, "f": np.asfortranarray(h), "strided": h[:, ::2]}[layout]
    x = {"c": npgpu.asarray(h, device=array_device), "f": npgpu.asarray(h.T, device=array_device).T,
         "strided": npgpu.asarray(np.arange(24.0).reshape(4, 6), device=array_device)[:, ::2]}[layout]
    # NumPy's decision on an array of x's layout and ownership: a fresh upload owns its memory, a host-device
    # array wraps h's
    ref = h.copy(order="K") if x.flags["OWNDATA"] else h
    want = np.require(ref, requirements=req)
    got = npgpu.require(x, requirements=req)
    np.testing.assert_array_equal(got.get(), want)
    assert got.dtype == want.dtype
    assert got.flags["C_CONTIGUOUS"] == want.flags["C_CONTIGUOUS"]
    assert npgpu.isfortran(got) == np.isfortran(want)
    assert got.flags["WRITEABLE"]
    copied = not np.shares_memory(want, ref)
    if layout == "f" and "O" in [r.upper()[0] for r in (req or [])]:
        copied = True  # an npgpu Fortran-ordered array is a transposed view: OWNDATA False, so 'O' copies it
    assert (not npgpu.shares_memory(got, x)) == copied, (copied, req)
    g32 = npgpu.require(x, dtype=np.float32, requirements=req)
    assert g32.dtype == np.require(h, dtype=np.float32, requirements=req).dtype


def test_require_errors(array_device):
    x = npgpu.ones((2, 2), device=array_device)
    with pytest.raises(ValueError):
        np.require(np.ones((2, 2)), requirements=["C", "F"])
    with pytest.raises(ValueError, match="both"):
        npgpu.require(x, requirements=["C", "F"])
    with pytest.raises(KeyError):
        np.require(np.ones(2), requirements="Q")
    with pytest.raises(KeyError):
        npgpu.require(x, requirements="Q")
    with pytest.raises(ValueError):
        npgpu.require(x, requirements=["nonsense"])


def test_new_dtype_names_exported():
    for name in ("isscalar", "iterable", "ndim", "shape", "size", "isfortran", "may_share_memory", "shares_memory",
                 "promote_types", "min_scalar_type", "issubdtype", "common_type", "mintypecode", "typename",
                 "asanyarray", "asarray_chkfinite", "require"):
        assert name in npgpu.__all__ and getattr(npgpu, name) is getattr(npgpu._dtypes, name)


ALIASES = ["bool_", "byte", "ubyte", "short", "ushort", "intc", "uintc", "int_", "uint", "longlong", "ulonglong",
           "intp", "uintp", "half", "single", "double", "csingle", "cdouble"]
ABSTRACT = ["generic", "number", "integer", "signedinteger", "unsignedinteger", "inexact", "floating",
            "complexfloating"]


@pytest.mark.parametrize("name", ALIASES + ABSTRACT + ["dtype"])
def test_numpy_names_of_scalar_types(name):
    # the same objects as NumPy's, so isinstance, issubdtype and dtype comparisons agree with NumPy
    assert getattr(npgpu, name) is getattr(np, name)


def test_long_aliases_and_arrays_of_aliased_dtypes(array_device):
    assert npgpu.long is np.dtype("l").type and npgpu.ulong is np.dtype("L").type
    x = npgpu.zeros(3, dtype=npgpu.double, device=array_device)
    assert x.dtype == np.float64
    assert npgpu.ones(2, dtype=npgpu.intc, device=array_device).dtype == np.intc
    assert npgpu.issubdtype(npgpu.float32, npgpu.floating) and not npgpu.issubdtype(npgpu.int8, npgpu.inexact)
    assert npgpu.dtype("f4") == npgpu.single
    assert isinstance(x.get()[0], npgpu.floating) and not isinstance(x.get()[0], npgpu.integer)


def test_no_aliases_for_types_npgpu_lacks():
    for name in ["longdouble", "clongdouble", "object_", "str_", "bytes_", "void", "datetime64", "timedelta64"]:
        assert not hasattr(npgpu, name), name


def test_numpy_constants():
    assert npgpu.euler_gamma == float(np.euler_gamma) and isinstance(npgpu.euler_gamma, float)
    assert npgpu.little_endian is np.little_endian
    assert npgpu.typecodes == np.typecodes and "f" in npgpu.typecodes["AllFloat"]
    npgpu.typecodes["Mine"] = "x"  # npgpu's copy: changing it leaves NumPy's alone
    assert "Mine" not in np.typecodes
    del npgpu.typecodes["Mine"]
