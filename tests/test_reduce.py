"""Reductions and scans (npgpu.sum ... npgpu.cumprod) against NumPy.

- Every dtype, axis None / int / negative / tuple, keepdims, dtype=, out= (poisoned), NumPy's result dtypes.
- Accuracy: a float32 sum of 2^24 values at least as accurate as NumPy's pairwise sum (float64 reference).
- Integer products wrap around as NumPy's; NaN propagation (max, argmax) and NaN skipping (nan* forms).
- Empty arrays: identities, NaN means, ValueError naming the zero-size reduction; AxisError for bad axes.
- Layouts of device inputs: whole array, rows (axis -1), columns (axis 0), middle axis, strided and
  transposed views (through the CUDA Array Interface), each against NumPy.
- GPU at 2^31 + 1 and 2^32 + 1 elements (slow): sum, argmax, cumsum against exact integer references.

NumPy-input tests run on both backends through the `backend` fixture; device-array tests are marked gpu.
"""
import functools
import math
import warnings

import numpy as np
import pytest
from numpy.exceptions import AxisError

import npgpu

ALL_DTYPES = [np.dtype(d) for d in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                    "uint64", "float16", "float32", "float64", "complex64", "complex128")]
REAL_DTYPES = [d for d in ALL_DTYPES if d.kind != "c"]


def _tol(dt):
    dt = np.dtype(dt)
    if dt.kind in "biu":
        return 0.0
    return {2: 2e-3, 4: 2e-5, 8: 1e-12}[dt.itemsize if dt.kind == "f" else dt.itemsize // 2]


def check_close(got, exp, dt=None, rtol=None):
    """Same type (ndarray vs scalar), dtype, shape; values equal (integers, bool) or close (floats)."""
    assert type(got) is type(exp), f"type {type(got).__name__}, NumPy gives {type(exp).__name__}"
    assert got.dtype == exp.dtype, f"dtype {got.dtype}, NumPy gives {exp.dtype}"
    assert np.shape(got) == np.shape(exp), f"shape {np.shape(got)}, NumPy gives {np.shape(exp)}"
    rt = _tol(exp.dtype) if rtol is None else rtol
    if rt == 0.0:
        assert np.array_equal(got, exp), f"{got} vs NumPy's {exp}"
    else:
        scale = np.max(np.abs(exp)) if np.size(exp) else 1.0
        np.testing.assert_allclose(got, exp, rtol=rt, atol=rt * float(scale) if np.isfinite(scale) else 0,
                                   equal_nan=True)


class CAIView:
    """A strided view of a device array's memory, handed to npgpu.asarray through the CUDA Array Interface."""

    def __init__(self, arr, shape, strides, offset_bytes=0):
        self.arr = arr
        self.__cuda_array_interface__ = {
            "shape": tuple(shape), "strides": tuple(strides), "typestr": arr.dtype.str,
            "data": (arr.ptr + offset_bytes, False), "version": 3, "stream": None}


def device_view(arr, shape, strides, offset_bytes=0):
    return npgpu.asarray(CAIView(arr, shape, strides, offset_bytes))


# ----------------------------------------------------------------------------------------- dtypes, axes

SUM_LIKE = ["sum", "prod", "mean", "nansum", "nanprod"]
EXTREMA = ["min", "max", "nanmin", "nanmax", "argmin", "argmax"]
LOGICAL = ["any", "all", "count_nonzero"]


def _np(name):
    return {"min": np.min, "max": np.max}.get(name, getattr(np, name))


def _inputs(rng, random_array, dt, shape=(3, 4, 5)):
    x = random_array(shape, dt)
    if dt.kind == "f":  # moderate magnitudes so that float16 sums stay finite
        x = (rng.uniform(-2, 2, size=shape)).astype(dt)
        x[x == 0] = 1
    return x


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("name", SUM_LIKE + EXTREMA + LOGICAL)
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2)], ids=str)
def test_every_dtype_and_axis(backend, rng, random_array, dt, name, axis):
    x = _inputs(rng, random_array, dt)
    if name in ("prod", "nanprod") and dt.kind in "fc":  # products that stay finite
        x = (1 + rng.uniform(-0.1, 0.1, size=x.shape)).astype(dt)
        if dt.kind == "c":
            x = x + 0.1j * rng.uniform(-1, 1, size=x.shape).astype(dt)
    if name.startswith("arg"):
        if isinstance(axis, tuple):
            with pytest.raises(TypeError):
                getattr(npgpu, name)(x, axis=axis)
            return
    exp = _np(name)(x, axis=axis)
    got = getattr(npgpu, name)(x, axis=axis)
    rtol = None
    if dt.kind == "f" and name in ("sum", "mean", "nansum", "prod", "nanprod"):
        rtol = 5e-3 if dt.itemsize == 2 else (1e-5 if dt.itemsize == 4 else 1e-12)
    if name == "count_nonzero" and axis is None:
        assert type(got) is int and got == exp
        return
    check_close(got, exp, rtol=rtol)


@pytest.mark.parametrize("name", ["sum", "prod", "min", "max", "mean", "argmax", "argmin", "any", "all", "var",
                                  "std"])
@pytest.mark.parametrize("axis", [None, 1, (0, 2)], ids=str)
def test_keepdims(backend, rng, name, axis):
    x = rng.standard_normal((3, 4, 5))
    if name.startswith("arg") and isinstance(axis, tuple):
        return
    exp = _np(name)(x, axis=axis, keepdims=True)
    got = getattr(npgpu, name)(x, axis=axis, keepdims=True)
    check_close(got, exp)


@pytest.mark.parametrize("dt", ["int8", "int32", "uint16", "bool", "float32", "float64"])
def test_dtype_argument(backend, random_array, dt):
    x = random_array((6, 7), dt)
    for name in ("sum", "prod"):
        for d in (np.int8, np.int64, np.uint32, np.float32, np.float64):
            if np.dtype(dt).kind == "f" and np.dtype(d).kind in "iu":
                continue  # float -> int conversion of out-of-range values is undefined
            exp = getattr(np, name)(x, axis=0, dtype=d)
            got = getattr(npgpu, name)(x, axis=0, dtype=d)
            check_close(got, exp, rtol=1e-5 if np.dtype(d) == np.float32 else None)


def test_result_dtypes(backend):
    for dt, s in (("bool", "int64"), ("int8", "int64"), ("int32", "int64"), ("uint8", "uint64"),
                  ("uint32", "uint64"), ("int64", "int64"), ("uint64", "uint64"), ("float16", "float16"),
                  ("float32", "float32"), ("complex64", "complex64")):
        x = np.ones(5, dtype=dt)
        assert npgpu.sum(x).dtype == np.dtype(s) == np.sum(x).dtype
        assert npgpu.cumsum(x).dtype == np.cumsum(x).dtype
    assert npgpu.mean(np.arange(5, dtype=np.int32)).dtype == np.float64
    assert npgpu.var(np.arange(5, dtype=np.int16)).dtype == np.float64
    assert npgpu.argmax(np.arange(5.0)).dtype == np.int64
    assert npgpu.any(np.arange(5)).dtype == np.bool_


@pytest.mark.parametrize("name", ["sum", "prod", "nansum", "nanprod"])
@pytest.mark.parametrize("out_dtype", [np.float64, np.float32, np.complex128])
def test_signed_integer_sums_into_floating_out(array_device, poisoned, name, out_dtype):
    # integer sums run in wrapping uint64: a negative int64 result must not come out as 2**64 - |x|
    h = np.array([[-7, 3, 2], [5, -1, -4]], dtype=np.int32)
    want = getattr(np, name)(h, axis=1, out=np.empty(2, out_dtype))
    assert (want.real < 0).any()
    got = getattr(npgpu, name)(h, axis=1, out=poisoned((2,), out_dtype))
    np.testing.assert_array_equal(got, want)
    x = npgpu.asarray(h)
    out = npgpu.asarray(poisoned((), out_dtype))
    assert getattr(npgpu, name)(x, out=out) is out
    np.testing.assert_array_equal(out.get(), getattr(np, name)(h, out=np.empty((), out_dtype)))
    u = np.array([2**63 + 5, 1], dtype=np.uint64)  # an unsigned sum past 2**63 stays positive
    np.testing.assert_array_equal(npgpu.sum(u, out=poisoned((), np.float64)), np.sum(u, out=np.empty((), np.float64)))


def test_out_poisoned(backend, rng, poisoned):
    x = rng.standard_normal((5, 6))
    for name in ("sum", "max", "mean", "std"):
        out = poisoned((6,), np.float64)
        r = getattr(npgpu, name)(x, axis=0, out=out)
        assert r is out
        check_close(out, _np(name)(x, axis=0))
    out = poisoned((5,), np.int64)
    assert npgpu.argmax(x, axis=1, out=out) is out
    assert np.array_equal(out, np.argmax(x, axis=1))
    out32 = poisoned((5,), np.float32)
    npgpu.sum(x, axis=1, out=out32)
    np.testing.assert_allclose(out32, np.sum(x, axis=1).astype(np.float32), rtol=1e-6)
    # Non-contiguous out.
    big = poisoned((6, 2), np.float64)
    npgpu.sum(x, axis=0, out=big[:, 0])
    check_close(big[:, 0].copy(), np.sum(x, axis=0))
    assert np.isnan(big[:, 1]).all()


# ----------------------------------------------------------------------------------------- accuracy

@pytest.mark.parametrize("where", ["numpy", pytest.param("device", marks=pytest.mark.gpu)])
def test_float32_sum_accuracy_2_24(backend, where):
    if where == "device" and backend == "cpu":
        pytest.skip("device arrays: once")
    rng = np.random.default_rng(7)
    x = rng.random(1 << 24, dtype=np.float32) + np.float32(0.25)
    ref = float(np.sum(x.astype(np.float64)))
    np_err = abs(float(np.sum(x)) - ref)
    half_ulp = float(np.spacing(np.float32(ref))) / 2
    got = npgpu.sum(x) if where == "numpy" else npgpu.sum(npgpu.asarray(x)).get()[()]
    assert np.asarray(got).dtype == np.float32
    err = abs(float(got) - ref)
    assert err <= max(np_err, half_ulp), f"error {err}, NumPy's {np_err}"
    # mean too
    gm = npgpu.mean(x) if where == "numpy" else npgpu.mean(npgpu.asarray(x)).get()[()]
    assert abs(float(gm) - ref / x.size) <= max(abs(float(np.mean(x)) - ref / x.size),
                                                float(np.spacing(np.float32(ref / x.size))) / 2)


def test_float64_sum_accuracy(backend):
    rng = np.random.default_rng(8)
    x = rng.standard_normal(1 << 20) * 10.0 ** rng.integers(-5, 5, 1 << 20)
    ref = math.fsum(x.tolist())
    assert abs(float(npgpu.sum(x)) - ref) <= 1e-12 * np.sum(np.abs(x))


# ----------------------------------------------------------------------------------------- integers, NaN

def test_prod_integer_wraparound(backend, rng):
    x = rng.integers(-(2 ** 40), 2 ** 40, size=37, dtype=np.int64)
    assert npgpu.prod(x) == np.prod(x)
    y = rng.integers(1, 127, size=(9, 11), dtype=np.int8)
    check_close(npgpu.prod(y, axis=1, dtype=np.int8), np.prod(y, axis=1, dtype=np.int8))
    check_close(npgpu.prod(y, axis=0), np.prod(y, axis=0))
    u = rng.integers(2 ** 30, 2 ** 32, size=20, dtype=np.uint32)
    assert npgpu.prod(u) == np.prod(u)
    assert npgpu.sum(np.full(10, 2 ** 62, dtype=np.int64)) == np.sum(np.full(10, 2 ** 62, dtype=np.int64))


def test_nan_propagation(backend):
    x = np.array([[1.0, np.nan, 3.0, np.nan], [4.0, 5.0, -np.inf, 2.0]])
    for name in ("max", "min", "sum", "prod", "mean", "argmax", "argmin", "var"):
        for axis in (None, 0, 1):
            check_close(getattr(npgpu, name)(x, axis=axis), _np(name)(x, axis=axis))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        y = np.array([[np.nan, np.nan], [1.0, np.nan]])
        for name in ("nanmax", "nanmin", "nansum", "nanprod", "nanmean", "nanvar", "nanstd"):
            for axis in (None, 0, 1):
                check_close(getattr(npgpu, name)(y, axis=axis), getattr(np, name)(y, axis=axis))
    z = np.array([np.nan + 1j, 2 + 0j, 3 + 1j])
    check_close(npgpu.nansum(z), np.nansum(z))


@pytest.mark.parametrize("dt", ["float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16",
                                "uint32", "uint64"])
def test_min_max_long_contiguous_ranges(backend, rng, dt, random_array):
    # Long rows take the host backend's vectorised loop: the extremes at either end, NaNs anywhere.
    for n in (1, 7, 64, 1000, 100_003):
        x = random_array(n, dt)
        for name in ("max", "min"):
            check_close(getattr(npgpu, name)(x), getattr(np, name)(x))
            if n > 1:
                check_close(getattr(npgpu, name)(x.reshape(1, n), axis=1), getattr(np, name)(x.reshape(1, n), axis=1))
        if np.dtype(dt).kind == "f" and n > 1:
            for pos in (0, n // 2, n - 1):
                y = x.copy()
                y[pos] = np.nan
                assert np.isnan(npgpu.max(y)) and np.isnan(npgpu.min(y)), (n, pos)
            y = x.copy()
            y[-1] = np.inf
            y[0] = -np.inf
            assert npgpu.max(y) == np.inf and npgpu.min(y) == -np.inf
    m = random_array((13, 257), dt)
    for axis in (0, 1):
        check_close(npgpu.max(m, axis=axis), np.max(m, axis=axis))
        check_close(npgpu.min(m[:, ::3], axis=axis), np.min(m[:, ::3], axis=axis))


def test_argmax_first_occurrence(backend):
    x = np.array([3, 7, 1, 7, 7, 0], dtype=np.int32)
    assert npgpu.argmax(x) == 1 and npgpu.argmin(x) == 5
    f = np.array([-np.inf, -np.inf, -1.0])
    assert npgpu.argmin(f) == 0
    u = np.array([0, 2 ** 64 - 1, 5, 2 ** 64 - 1], dtype=np.uint64)
    assert npgpu.argmax(u) == 1 and npgpu.max(u) == 2 ** 64 - 1
    i = np.array([-(2 ** 63), 5, -(2 ** 63)], dtype=np.int64)
    assert npgpu.argmin(i) == 0 and npgpu.min(i) == -(2 ** 63)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.uint64])
def test_argmax_first_occurrence_across_blocks(backend, rng, dtype):
    # The host finds the block holding the extremum, then scans it: ties in earlier and later blocks, at block
    # edges, and (floats) a NaN after the extremum, whose first position wins.
    n = 3 * (1 << 15) + 17
    base = (rng.random(n) * 1000).astype(dtype)
    for first in (0, (1 << 15) - 1, 1 << 15, 40000, n - 1):
        for later in (None, first + 1, n - 1):
            x = base.copy()
            x[first] = 5000
            if later is not None and later < n and later != first:
                x[later] = 5000
            assert npgpu.argmax(x) == np.argmax(x) == first, (first, later)
            y = -x if np.dtype(dtype).kind != "u" else np.iinfo(dtype).max - x
            assert npgpu.argmin(y) == np.argmin(y) == first
            if np.dtype(dtype).kind == "f":
                x[min(first + 40000, n - 1)] = np.nan
                assert npgpu.argmax(x) == np.argmax(x) and npgpu.argmin(x) == np.argmin(x)


# ----------------------------------------------------------------------------------------- moments, norms

@pytest.mark.parametrize("ddof", [0, 1, 2])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)], ids=str)
def test_var_std(backend, rng, ddof, axis):
    x = rng.standard_normal((7, 9)) * 3 + 100
    for name in ("var", "std"):
        check_close(getattr(npgpu, name)(x, axis=axis, ddof=ddof), getattr(np, name)(x, axis=axis, ddof=ddof))
    xi = rng.integers(-100, 100, (7, 9), dtype=np.int32)
    check_close(npgpu.var(xi, axis=axis, ddof=ddof), np.var(xi, axis=axis, ddof=ddof))
    xf = x.astype(np.float32)
    check_close(npgpu.std(xf, axis=axis, ddof=ddof), np.std(xf, axis=axis, ddof=ddof), rtol=1e-4)


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
@pytest.mark.parametrize("axis", [None, 0, (0, 1)], ids=str)
def test_complex_var_std(backend, rng, dt, axis):
    z = (rng.standard_normal((5, 7)) + 1j * rng.standard_normal((5, 7))).astype(dt)
    for name in ("var", "std"):
        for ddof in (0, 1):
            check_close(getattr(npgpu, name)(z, axis=axis, ddof=ddof), getattr(np, name)(z, axis=axis, ddof=ddof))
        check_close(getattr(npgpu, name)(z, axis=axis, keepdims=True), getattr(np, name)(z, axis=axis, keepdims=True))
    check_close(npgpu.var(z, axis=axis, dtype=np.complex128), np.var(z, axis=axis, dtype=np.complex128))
    out, want = np.full(7, np.nan), np.full(7, np.nan)
    assert npgpu.std(z, axis=0, out=out) is out
    np.testing.assert_allclose(out, np.std(z, axis=0, out=want), rtol=_tol(np.dtype(dt)))
    zn = z.copy()
    zn[1, 2] = complex(np.nan, 1.0)  # a NaN in either part leaves the element out of both parts
    zn[3, 4] = complex(2.0, np.nan)
    for name in ("nanvar", "nanstd", "nanmean"):
        check_close(getattr(npgpu, name)(zn, axis=axis), getattr(np, name)(zn, axis=axis))
    with pytest.raises(TypeError, match="int32"):
        npgpu.var(z, dtype=np.int32)


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("real", [np.float64, np.float32])
def test_complex_var_std_with_a_real_dtype_as_numpy(rng, real):
    # NumPy's mean keeps the real parts only (ComplexWarning), then the deviations' squared moduli: for
    # var([1j, 2+3j], dtype=float64) 6.0, not the complex variance 2.0; nan-functions leave out elements with
    # a NaN in either part.
    z = rng.standard_normal((5, 6)) + 1j * rng.standard_normal((5, 6))
    z[1, 2], z[3, 4] = complex(np.nan, 1.0), complex(2.0, np.nan)
    clean = z.copy()
    clean[1, 2] = clean[3, 4] = 1 + 1j
    d, dc = npgpu.asarray(z), npgpu.asarray(clean)
    for name, src, dev in (("var", clean, dc), ("std", clean, dc), ("nanvar", z, d), ("nanstd", z, d)):
        for axis, ddof, keepdims in ((None, 0, False), (0, 1, True), (1, 0, False), ((0, 1), 1, False)):
            kw = dict(axis=axis, ddof=ddof, keepdims=keepdims, dtype=real)
            with pytest.warns(np.exceptions.ComplexWarning):
                want = getattr(np, name)(src, **kw)
            with pytest.warns(np.exceptions.ComplexWarning):
                got = getattr(npgpu, name)(dev, **kw)
            got = got.get()
            assert got.dtype == np.dtype(real) and got.shape == np.shape(want), (name, kw)
            np.testing.assert_allclose(got, want, rtol=1e-5 if real == np.float32 else 1e-12, err_msg=name)
    with pytest.warns(np.exceptions.ComplexWarning):
        assert float(npgpu.var(npgpu.asarray(np.array([1j, 2 + 3j])), dtype=np.float64).get()) == 6.0


@pytest.mark.usefixtures("array_device")
def test_complex_var_std_device(rng):
    z = rng.standard_normal((33, 40)) + 1j * rng.standard_normal((33, 40))
    d = npgpu.asarray(z)
    for axis in (None, 1):
        got = npgpu.std(d, axis=axis, ddof=1)
        assert isinstance(got, npgpu.Array) and got.dtype == np.float64
        np.testing.assert_allclose(got.get(), np.std(z, axis=axis, ddof=1), rtol=1e-12)
    o = npgpu.empty(40, np.float64)
    assert npgpu.var(d, axis=0, out=o) is o
    np.testing.assert_allclose(o.get(), np.var(z, axis=0), rtol=1e-12)


def test_var_std_correction_is_the_standards_ddof(backend, rng):
    x = rng.standard_normal((6, 5))
    for name in ("var", "std", "nanvar", "nanstd"):
        fn = getattr(npgpu, name)
        for correction in (0, 1, 2.5):
            check_close(fn(x, axis=0, correction=correction), getattr(np, name)(x, axis=0, ddof=correction))
        with pytest.raises(ValueError, match="ddof and correction"):
            fn(x, ddof=1, correction=1)


@pytest.mark.usefixtures("array_device")
def test_var_std_correction_on_arrays(rng):
    x = rng.standard_normal((6, 5))
    d = npgpu.asarray(x)
    check_close(d.var(axis=1, correction=1).get(), np.var(x, axis=1, ddof=1))
    check_close(d.std(correction=1).get()[()], np.std(x, ddof=1))


def test_var_ddof_too_large(backend):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        check_close(npgpu.var(np.array([1.0, 2.0]), ddof=2), np.var(np.array([1.0, 2.0]), ddof=2))
        check_close(npgpu.var(np.array([3.0]), ddof=1), np.var(np.array([3.0]), ddof=1))


@pytest.mark.parametrize("x", [[1.0], [1.0, 3.0], [1 + 1j, 2.0]])
def test_var_std_complex_dtype_over_at_most_ddof_values(backend, x):
    # NumPy divides the complex sum by a zero count: inf + nan j, or nan + nan j for a zero sum
    a = np.array(x)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for name in ("var", "std"):
            for dt in (np.complex64, np.complex128):
                got = np.asarray(getattr(npgpu, name)(a, ddof=len(x), dtype=dt))
                want = np.asarray(getattr(np, name)(a, ddof=len(x), dtype=dt))
                assert got.dtype == want.dtype
                np.testing.assert_array_equal(np.stack([got.real, got.imag]), np.stack([want.real, want.imag]))
            ok = getattr(npgpu, name)(np.array([1.0, 3.0]), ddof=1, dtype=np.complex128)
            assert complex(ok) == complex(getattr(np, name)(np.array([1.0, 3.0]), ddof=1, dtype=np.complex128))


@pytest.mark.parametrize("x, dtype, ddof", [
    ([1.09], np.float32, 1),            # float64 data, float32 mean: a nonzero deviation, so inf
    ([1.0], np.float32, 1),             # exact in float32: nan
    ([1.0, 3.0], None, 2), ([2.0, 2.0], np.float32, 2), ([3e38, 3e38], np.float32, 2),
    ([[1.09, 0.5], [1.5, 1.5]], np.float32, 2), ([], np.float32, 0), ([True, False], np.float32, 2),
])
def test_var_std_over_at_most_ddof_values_as_numpy(array_device, x, dtype, ddof):
    # a sum of squared deviations over a zero count: inf or nan by NumPy's own arithmetic in dtype=
    a = np.array(x)
    d = npgpu.asarray(a, device=array_device)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for name in ("var", "std"):
            for axis in (None, -1):
                want = np.asarray(getattr(np, name)(a, axis=axis, dtype=dtype, ddof=ddof))
                for arg in (a, d):
                    got = getattr(npgpu, name)(arg, axis=axis, dtype=dtype, ddof=ddof)
                    got = np.asarray(got.get() if isinstance(got, npgpu.Array) else got)
                    assert got.dtype == want.dtype and got.shape == want.shape
                    np.testing.assert_array_equal(got, want, err_msg=f"{name} {type(arg).__name__} axis={axis}")
        out = npgpu.empty(np.shape(np.var(a, axis=-1)), np.float64, device=array_device)
        assert npgpu.var(d, axis=-1, dtype=dtype, ddof=ddof, out=out) is out
        np.testing.assert_array_equal(out.get(), np.var(a, axis=-1, dtype=dtype, ddof=ddof).astype(np.float64))


def test_nanvar_nanstd_nan_where_at_most_ddof_values_remain(array_device):
    # NumPy: NaN (and its warning) where the non-NaN count is <= ddof, whatever the squared deviations
    a = np.array([[1.0, 2.0, np.nan], [1.0, 2.0, 3.0], [np.nan, np.nan, 5.0]])
    for name in ("nanvar", "nanstd"):
        for ddof in (1, 2):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                want = getattr(np, name)(a, axis=1, ddof=ddof)
                for arg in (a, npgpu.asarray(a, device=array_device)):
                    got = getattr(npgpu, name)(arg, axis=1, ddof=ddof)
                    got = got.get() if isinstance(got, npgpu.Array) else got
                    np.testing.assert_allclose(got, want, rtol=1e-12, err_msg=f"{name} ddof={ddof}")
            with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
                getattr(npgpu, name)(npgpu.asarray(a, device=array_device), axis=1, ddof=ddof)
    out = npgpu.empty(3, np.float64, device=array_device)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert npgpu.nanvar(npgpu.asarray(a, device=array_device), axis=1, ddof=2, out=out) is out
        np.testing.assert_allclose(out.get(), np.nanvar(a, axis=1, ddof=2), rtol=1e-12)
        assert np.isnan(npgpu.nanvar(np.array([1.0, 2.0, np.nan]), ddof=2))


def test_numpy_runtime_warnings(backend):
    with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
        assert np.isnan(npgpu.mean(np.zeros(0, np.float32)))
    with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
        npgpu.mean(np.zeros((3, 0)), axis=1)
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        npgpu.var(np.array([1.0, 2.0]), ddof=2)
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        npgpu.std(np.ones((4, 3)), axis=(0, 1), ddof=12)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # none where NumPy gives none
        npgpu.mean(np.zeros((0, 3)), axis=1)  # no outputs, each from 3 elements
        npgpu.var(np.ones((4, 3)), axis=0, ddof=3)


@pytest.mark.gpu
@pytest.mark.parametrize("shape", [(1 << 24,), (4096, 4096), (1, 1 << 24)], ids=str)
def test_whole_reduction_reads_in_place(rng, shape):
    """A whole-array reduction of a contiguous device array reduces it where it lies: no temporary copy of
    the input (one slipped in once and tripled the time). Seen through the pool's reserved bytes, which the
    copy would have grown by the input's size."""
    x = rng.random(shape, dtype=np.float32)
    d = npgpu.asarray(x)
    npgpu.synchronize()
    npgpu.trim_memory_pool(0)
    before = npgpu.memory_info()["pool_reserved"]
    for name in ("sum", "max", "argmax", "min"):
        got = getattr(npgpu, name)(d)
        np.testing.assert_allclose(got.get(), getattr(np, name)(x.astype(np.float64)), rtol=1e-6)
        assert npgpu.sum(d, axis=tuple(range(d.ndim))).shape == ()
    npgpu.synchronize()
    grown = npgpu.memory_info()["pool_reserved"] - before
    assert grown < x.nbytes // 4, f"the pool grew by {grown} bytes for a {x.nbytes}-byte input"


def test_all_nan_slice_warns(backend):
    x = np.array([[np.nan, 1.0, -2.0], [np.nan, np.nan, np.nan]], dtype=np.float32)
    for name in ("nanmin", "nanmax"):
        with pytest.warns(RuntimeWarning, match="All-NaN slice encountered"):
            check_close(getattr(npgpu, name)(x, axis=1), getattr(np, name)(x, axis=1))
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a NaN-free result: no warning
            check_close(getattr(npgpu, name)(x[:, 1:], axis=0), getattr(np, name)(x[:, 1:], axis=0))
            check_close(getattr(npgpu, name)(np.arange(4)), getattr(np, name)(np.arange(4)))


@pytest.mark.parametrize("axis", [None, 0, 1, -1], ids=str)
def test_nanargmin_nanargmax(backend, rng, axis):
    x = rng.standard_normal((6, 9)).astype(np.float32)
    x[rng.random(x.shape) < 0.3] = np.nan
    x[:, 0] = np.nan  # a NaN first in every row but the last (so no column is all NaN)
    x[-1, 0] = 2.0
    x[0, 1], x[1, 2] = -np.inf, np.inf
    for name in ("nanargmin", "nanargmax"):
        got, want = getattr(npgpu, name)(x, axis=axis), getattr(np, name)(x, axis=axis)
        check_close(got, want)
        if axis is not None:
            check_close(getattr(npgpu, name)(x, axis=axis, keepdims=True),
                        getattr(np, name)(x, axis=axis, keepdims=True))
    xi = rng.integers(-5, 5, (4, 7), dtype=np.int16)
    check_close(npgpu.nanargmax(xi, axis=axis), np.nanargmax(xi, axis=axis))
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        npgpu.nanargmax(np.array([[1.0, np.nan], [np.nan, np.nan]]), axis=1)
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        npgpu.nanargmin(np.full(5, np.nan))


def test_nanmean_warns_for_slices_without_a_value_as_numpy(backend):
    x = np.array([[1.0, np.nan], [np.nan, np.nan]])
    for args in ((x, 1), (x, None), (np.zeros((0, 3)), 0), (np.array([np.nan + 1j, 2 + 2j]), None)):
        with warnings.catch_warnings(record=True) as got_w:
            warnings.simplefilter("always")
            got = npgpu.nanmean(args[0], axis=args[1])
        with warnings.catch_warnings(record=True) as want_w:
            warnings.simplefilter("always")
            want = np.nanmean(args[0], axis=args[1])
        np.testing.assert_array_equal(got, want)
        assert [str(w.message) for w in got_w] == [str(w.message) for w in want_w], args
    with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
        assert np.isnan(npgpu.nanmean(np.full(4, np.nan, np.float32)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a NaN from inf - inf, not from an empty slice: no warning
        assert np.isnan(npgpu.nanmean(np.array([np.inf, -np.inf, np.nan])))
        assert npgpu.nanmean(np.array([1.0, np.nan, 3.0])) == 2.0


def test_nanargmin_of_an_empty_array_is_argmins_error(backend):
    for name in ("nanargmin", "nanargmax"):
        with pytest.raises(ValueError, match="empty sequence"):
            getattr(npgpu, name)(np.array([]))
        with pytest.raises(ValueError, match="empty sequence"):
            getattr(npgpu, name)(np.zeros((0, 3)), axis=0)
        got = getattr(npgpu, name)(np.zeros((3, 0)), axis=0)
        assert got.shape == (0,) and got.dtype == np.intp


@pytest.mark.usefixtures("array_device")
def test_nanargmax_device(rng):
    x = rng.standard_normal((33, 70))
    x[rng.random(x.shape) < 0.5] = np.nan
    x[:, 5] = 1.0  # no all-NaN slice
    d = npgpu.asarray(x)
    for axis in (None, 0, 1):
        got = npgpu.nanargmax(d, axis=axis)
        assert isinstance(got, npgpu.Array)
        np.testing.assert_array_equal(got.get(), np.nanargmax(x, axis=axis))
        np.testing.assert_array_equal(npgpu.nanargmin(d, axis=axis).get(), np.nanargmin(x, axis=axis))
    with pytest.raises(ValueError, match="All-NaN"):
        npgpu.nanargmin(npgpu.asarray(np.full((3, 4), np.nan)), axis=0)


def test_norm(backend, rng):
    v = rng.standard_normal(101)
    for o in (None, 1, 2, np.inf, -np.inf):
        check_close(npgpu.norm(v, ord=o), np.linalg.norm(v, ord=o))
    m = rng.standard_normal((6, 8)).astype(np.float32)
    for o in (None, "fro", 1, np.inf):
        check_close(npgpu.norm(m, ord=o), np.linalg.norm(m, ord=o), rtol=1e-5)
    check_close(npgpu.norm(m, axis=1), np.linalg.norm(m, axis=1), rtol=1e-5)
    c = (rng.standard_normal(10) + 1j * rng.standard_normal(10)).astype(np.complex64)
    check_close(npgpu.norm(c), np.linalg.norm(c), rtol=1e-5)
    assert npgpu.norm(np.arange(5)).dtype == np.float64
    with pytest.raises(NotImplementedError):
        npgpu.norm(m, ord=2)


def test_count_nonzero(backend, rng):
    x = rng.integers(0, 3, (5, 6))
    assert npgpu.count_nonzero(x) == np.count_nonzero(x)
    check_close(npgpu.count_nonzero(x, axis=0), np.count_nonzero(x, axis=0))
    assert npgpu.count_nonzero(np.array([0.0, np.nan, -0.0])) == 1


# ----------------------------------------------------------------------------------------- edges

def test_empty(backend):
    e = np.zeros((0,), dtype=np.float32)
    assert npgpu.sum(e) == 0 and npgpu.sum(e).dtype == np.float32
    assert npgpu.prod(np.zeros((0,), np.int32)) == 1
    assert npgpu.any(e) == False and npgpu.all(e) == True  # noqa: E712
    assert npgpu.count_nonzero(e) == 0
    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum"):
        npgpu.max(e)
    with pytest.raises(ValueError, match="zero-size array to reduction operation minimum"):
        npgpu.min(np.zeros((3, 0)), axis=1)
    with pytest.raises(ValueError, match="argmax"):
        npgpu.argmax(e)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        check_close(npgpu.mean(e), np.mean(e))
        check_close(npgpu.var(np.zeros((2, 0)), axis=1), np.var(np.zeros((2, 0)), axis=1))
    z = np.zeros((0, 3))
    check_close(npgpu.max(z, axis=1), np.max(z, axis=1))  # no outputs: no error
    check_close(npgpu.sum(z, axis=0), np.sum(z, axis=0))
    check_close(npgpu.cumsum(z, axis=0), np.cumsum(z, axis=0))
    check_close(npgpu.cumsum(np.zeros(0, np.int8)), np.cumsum(np.zeros(0, np.int8)))


def test_bad_axes(backend):
    x = np.ones((2, 3))
    with pytest.raises(AxisError):
        npgpu.sum(x, axis=2)
    with pytest.raises(AxisError):
        npgpu.max(x, axis=(0, -3))
    with pytest.raises(ValueError, match="duplicate"):
        npgpu.sum(x, axis=(1, -1))
    with pytest.raises(AxisError):
        npgpu.cumsum(x, axis=5)
    with pytest.raises(TypeError):
        npgpu.argmax(x, axis=(0, 1))
    with pytest.raises(AxisError):
        npgpu.sum(np.float64(3.0), axis=0)
    assert issubclass(AxisError, ValueError) and issubclass(AxisError, IndexError)


def test_zero_d_and_scalars(backend):
    assert npgpu.sum(np.float32(2.5)) == 2.5 and type(npgpu.sum(np.float32(2.5))) is np.float32
    assert npgpu.sum([1, 2, 3]) == 6 and type(npgpu.sum([1, 2, 3])) is np.int64
    check_close(npgpu.cumsum(np.float64(3.0)), np.cumsum(np.float64(3.0)))


def test_strided_host_inputs(backend, rng):
    x = rng.standard_normal((8, 10, 6))
    for v in (x[::2, 1:, ::-1], x.transpose(2, 0, 1), x[:, 3, :]):
        for axis in (None, 0, 1, -1, (0, -1)):
            check_close(npgpu.sum(v, axis=axis), np.sum(v, axis=axis))
            check_close(npgpu.max(v, axis=axis), np.max(v, axis=axis))
        check_close(npgpu.argmax(v, axis=1), np.argmax(v, axis=1))
        check_close(npgpu.cumsum(v, axis=1), np.cumsum(v, axis=1))


# ----------------------------------------------------------------------------------------- scans

@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_complex_scans_keep_the_first_element(dt):
    # NumPy's accumulate copies the first element: cumprod([nanj]) is [0+nanj] and cumprod([inf+0j, 2]) is
    # [inf+0j, inf+nanj] ((1 + 0j) * x would turn them into nan + nan j); cumsum keeps its signed zeros.
    inf, nan = np.inf, np.nan
    for x in ([complex(0, nan)], [complex(inf, 0), 2], [complex(-0.0, -0.0), 1j], [complex(nan, 1), complex(2, inf)]):
        a = np.array(x, dt)
        for name in ("cumprod", "cumsum"):
            got = getattr(npgpu, name)(npgpu.asarray(a)).get()
            want = getattr(np, name)(a)
            with np.errstate(invalid="ignore"):
                np.testing.assert_array_equal(np.stack([got.real, got.imag]), np.stack([want.real, want.imag]))
            np.testing.assert_array_equal(np.signbit(got.real), np.signbit(want.real), err_msg=f"{name}({x})")


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("axis", [None, 0, 1, -1], ids=str)
def test_scans_every_dtype(backend, rng, random_array, dt, axis):
    x = _inputs(rng, random_array, dt, (4, 6, 5))
    for name in ("cumsum", "cumprod"):
        if name == "cumprod" and dt.kind in "fc":
            x = (1 + rng.uniform(-0.2, 0.2, size=x.shape)).astype(dt)
            if dt.kind == "c":
                x = x + 0.1j * rng.uniform(-1, 1, size=x.shape).astype(dt)
        exp = getattr(np, name)(x, axis=axis)
        got = getattr(npgpu, name)(x, axis=axis)
        check_close(got, exp, rtol=None if dt.kind in "biu" else (5e-3 if dt.itemsize <= 2 else
                                                                  1e-5 if dt.itemsize in (4, 8) and dt != np.float64
                                                                  else 1e-12))


@pytest.mark.parametrize("axis", [None, 0, 1], ids=str)
def test_exclusive_scans(backend, rng, axis):
    x = rng.integers(-50, 50, (5, 7), dtype=np.int32)
    inc = np.cumsum(x, axis=axis)
    got = npgpu.cumsum(x, axis=axis, exclusive=True)
    flat = x.reshape(-1) if axis is None else x
    ax = 0 if axis is None else axis
    exp = inc - flat
    check_close(got, exp)
    y = rng.integers(1, 4, (5, 7), dtype=np.int64)
    incp = np.cumprod(y, axis=axis)
    gotp = npgpu.cumprod(y, axis=axis, exclusive=True)
    check_close(gotp, incp // (y.reshape(-1) if axis is None else y))
    del ax


def test_scan_out_and_dtype(backend, rng, poisoned):
    x = rng.integers(0, 100, (4, 9), dtype=np.uint8)
    out = poisoned((4, 9), np.int32)
    assert npgpu.cumsum(x, axis=1, out=out) is out
    assert np.array_equal(out, np.cumsum(x, axis=1).astype(np.int32))
    check_close(npgpu.cumsum(x, axis=0, dtype=np.uint8), np.cumsum(x, axis=0, dtype=np.uint8))
    f = rng.standard_normal(50)
    check_close(npgpu.cumsum(f, dtype=np.float32), np.cumsum(f, dtype=np.float32), rtol=1e-5)
    # in place
    y = rng.standard_normal((3, 8))
    exp = np.cumsum(y, axis=1)
    npgpu.cumsum(y, axis=1, out=y)
    check_close(y, exp)


def test_scan_dtype_then_cast_into_out(array_device):
    # NumPy scans in dtype= and casts the result into out of another dtype
    h = np.array([[0.5, 0.5, 0.5, 0.5], [1.25, -0.5, 2.5, 0.75]])
    for name in ("cumsum", "cumprod"):
        for dtype, out_dtype in ((np.float64, np.int64), (np.int64, np.float64), (np.float32, np.float64)):
            want = getattr(np, name)(h, axis=1, dtype=dtype, out=np.empty(h.shape, out_dtype))
            got = getattr(npgpu, name)(h, axis=1, dtype=dtype, out=np.empty(h.shape, out_dtype))
            np.testing.assert_array_equal(got, want, err_msg=f"{name} {dtype} -> {out_dtype}")
            out = npgpu.empty(h.shape, out_dtype, device=array_device)
            d = npgpu.asarray(h, device=array_device)
            assert getattr(npgpu, name)(d, axis=1, dtype=dtype, out=out) is out
            np.testing.assert_array_equal(out.get(), want, err_msg=f"{name} {dtype} -> {out_dtype} (Array)")
    with pytest.raises(ValueError, match="output has shape"):
        npgpu.cumsum(h, dtype=np.float64, out=np.empty(3, np.int64))


def test_scan_without_dtype_runs_in_the_inputs_dtype_then_casts_into_out(array_device):
    # NumPy scans in the input's scan dtype and casts into out: float partial sums truncated one by one, and a
    # float64 running sum rounded to float32 only on store.
    h = np.array([[1.5, 2.5, 3.5, -0.75], [4.5, 5.5, 6.5, 0.25]])
    tiny = np.full(1000, 1e-8)
    tiny[0] = 1.0
    for name in ("cumsum", "cumprod"):
        for x, out_dtype in ((h, np.int64), (h, np.int16), (h, np.bool_), (tiny, np.float32),
                             (np.array([True, True, False]), np.float32), (np.arange(1, 5, dtype=np.int8), np.int8)):
            want = getattr(np, name)(x, axis=-1, out=np.full(x.shape, 7, out_dtype))
            got = getattr(npgpu, name)(x, axis=-1, out=np.full(x.shape, 7, out_dtype))
            np.testing.assert_array_equal(got, want, err_msg=f"{name} {x.dtype} -> {out_dtype}")
            out = npgpu.full(x.shape, 7, dtype=out_dtype, device=array_device)
            assert getattr(npgpu, name)(npgpu.asarray(x, device=array_device), axis=-1, out=out) is out
            np.testing.assert_array_equal(out.get(), want, err_msg=f"{name} {x.dtype} -> {out_dtype} (Array)")


# ----------------------------------------------------------------------------------------- device arrays

def _dev_check(name, x, dev, axis, **kw):
    e = np.asarray(_np(name)(x, axis=axis, **kw))
    if x.dtype.kind == "f" and name in ("sum", "prod", "mean", "cumsum", "cumprod", "var", "std"):
        # float64 reference: npgpu accumulates floats in float64, NumPy in the input's precision
        e = np.asarray(_np(name)(x.astype(np.float64), axis=axis, **kw)).astype(e.dtype)
    got = getattr(npgpu, name)(dev, axis=axis, **kw)
    assert isinstance(got, npgpu.Array)
    g = got.get()
    assert g.dtype == e.dtype and g.shape == e.shape, (name, axis, g.dtype, e.dtype, g.shape, e.shape)
    rt = _tol(e.dtype)
    if x.dtype.kind in "biu" and name == "mean":
        rt = 1e-9
    if rt == 0:
        assert np.array_equal(g, e), (name, axis)
    else:
        finite = np.abs(e[np.isfinite(e)])  # NaN/inf in e would make the absolute tolerance NaN
        np.testing.assert_allclose(g, e, rtol=rt, atol=rt * float(finite.max()) if finite.size else 0,
                                   equal_nan=True, err_msg=f"{name} axis={axis}")


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("dt", ["float32", "float64", "int32", "uint8", "int64", "bool", "float16", "complex64"])
@pytest.mark.parametrize("shape", [(1000,), (300, 257), (64, 33, 70), (5, 3000), (3000, 5), (2, 70000)], ids=str)
def test_device_layouts(rng, random_array, dt, shape):
    dt = np.dtype(dt)
    x = _inputs(rng, random_array, dt, shape)
    dev = npgpu.asarray(x)
    names = ["sum", "max", "min", "argmax", "argmin", "any", "all", "mean", "prod"]
    if dt.kind == "c":
        names = ["sum", "mean", "any", "all"]
    if dt.kind == "f":
        x2 = (1 + rng.uniform(-1e-3, 1e-3, size=shape)).astype(dt)
    for name in names:
        src, dsrc = (x2, npgpu.asarray(x2)) if name == "prod" and dt.kind == "f" else (x, dev)
        axes = [None] + list(range(len(shape))) + ([(0, 2), (1, 2)] if len(shape) == 3 else [])
        for axis in axes:
            if name.startswith("arg") and isinstance(axis, tuple):
                continue
            _dev_check(name, src, dsrc, axis)
    if dt.kind == "f" and dt.itemsize > 2:
        for axis in [None] + list(range(len(shape))):
            _dev_check("var", x, dev, axis)
            _dev_check("std", x, dev, axis, ddof=1)
    for axis in [None] + list(range(len(shape))):
        _dev_check("cumsum", x, dev, axis)


@pytest.mark.gpu
def test_device_strided_views(rng):
    base = rng.standard_normal((40, 50, 30)).astype(np.float32)
    dev = npgpu.asarray(base)
    item = 4
    views = [
        (base[:, 3, :], (40, 30), (50 * 30 * item, item), 3 * 30 * item),
        (base.transpose(2, 0, 1), (30, 40, 50), (item, 50 * 30 * item, 30 * item), 0),
        (base[::2, ::3, 1:], (20, 17, 29), (2 * 50 * 30 * item, 3 * 30 * item, item), item),
    ]
    for x, shape, strides, off in views:
        v = device_view(dev, shape, strides, off)
        for name in ("sum", "max", "argmax", "mean", "cumsum"):
            for axis in [None] + list(range(len(shape))):
                _dev_check(name, x, v, axis)
        for axis in ((0, 1), (0, len(shape) - 1)):
            _dev_check("sum", x, v, axis)


@pytest.mark.usefixtures("array_device")
def test_device_methods_and_zero_d(rng):
    x = rng.standard_normal((64, 48)).astype(np.float32)
    d = npgpu.asarray(x)
    s = d.sum()
    assert isinstance(s, npgpu.Array) and s.shape == () and s.dtype == np.float32
    np.testing.assert_allclose(s.get(), x.sum(dtype=np.float64), rtol=1e-6)
    np.testing.assert_allclose(d.sum(axis=0).get(), x.sum(axis=0), rtol=1e-5)
    np.testing.assert_allclose(d.max(axis=1, keepdims=True).get(), x.max(axis=1, keepdims=True))
    assert d.argmax().get() == x.argmax()
    np.testing.assert_allclose(d.mean(axis=1).get(), x.mean(axis=1), rtol=1e-5)
    np.testing.assert_allclose(d.var(axis=0, ddof=1).get(), x.var(axis=0, ddof=1), rtol=1e-4)
    np.testing.assert_allclose(d.std().get(), x.std(), rtol=1e-5)
    np.testing.assert_allclose(d.cumsum(axis=1).get(), np.cumsum(x, axis=1), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(d.cumprod(axis=0).get(), np.cumprod(x, axis=0), rtol=1e-4, atol=1e-30)
    assert bool(d.any().get()) and bool(d.all().get()) == bool(np.all(x))
    assert d.min().get() == x.min() and d.prod(axis=0).shape == (48,)
    out = npgpu.full((48,), np.nan, dtype=np.float32)
    assert d.sum(axis=0, out=out) is out
    np.testing.assert_allclose(out.get(), x.sum(axis=0), rtol=1e-5)
    with pytest.raises(ValueError, match="zero-size"):
        npgpu.max(npgpu.asarray(np.zeros((0, 4), np.float32)), axis=0)
    with pytest.raises(AxisError):
        d.sum(axis=2)


@pytest.mark.usefixtures("array_device")
def test_device_exclusive_and_big_rows(rng):
    x = rng.integers(0, 1000, (3, 100000), dtype=np.int64)
    d = npgpu.asarray(x)
    got = npgpu.cumsum(d, axis=1, exclusive=True).get()
    assert np.array_equal(got, np.cumsum(x, axis=1) - x)
    got0 = npgpu.cumsum(d, axis=0).get()
    assert np.array_equal(got0, np.cumsum(x, axis=0))
    f = rng.standard_normal(1 << 22).astype(np.float32)
    np.testing.assert_allclose(npgpu.cumsum(npgpu.asarray(f)).get(), np.cumsum(f.astype(np.float64)),
                               rtol=1e-4, atol=1e-3)


@pytest.mark.gpu
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_device_single_pass_whole_and_rows(rng, dt):
    """The hand-written float32 / float64 kernels: whole arrays (one block, many blocks + last-block finish),
    misaligned starts (views 1-3 elements in), rows (a warp per row, blocks per row, rows split over blocks),
    NaN / infinity / ties for the arg-extrema, and the one-row cumsum (partial last tile, misaligned: CUB)."""
    dt = np.dtype(dt)
    names = ("sum", "mean", "max", "min", "argmax", "argmin")
    for n in (1, 3, 4097, (1 << 20) + 5, 3_000_001):
        base = rng.standard_normal(n + 3).astype(dt)
        dev = npgpu.asarray(base)
        for off in (0, 1, 3):
            x = base[off:off + n]
            v = device_view(dev, (n,), (dt.itemsize,), off * dt.itemsize)
            for name in names + ("cumsum",):
                _dev_check(name, x, v, None)
    for shape in ((5000, 130), (3, 200_001), (300, 4099), (20, 70_000), (2, 8)):
        x = rng.standard_normal(shape).astype(dt)
        x[0, shape[1] // 2] = x[0, -1] = 50.0  # ties: the first wins
        x[-1, :] = -np.inf
        if shape[0] > 2:
            x[1, 1] = x[1, -2] = np.nan
        dev = npgpu.asarray(x)
        for name in names:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                _dev_check(name, x, dev, 1)
                _dev_check(name, x, dev, None)
    for x in (np.full(10_000, -np.inf, dt), np.full(9, np.nan, dt)):
        assert int(npgpu.argmax(npgpu.asarray(x)).get()) == 0
    y = np.full(1 << 20, np.inf, dt)
    assert int(npgpu.argmin(npgpu.asarray(y)).get()) == 0
    y[[77, 5000, 600_000]] = np.nan
    d = npgpu.asarray(y)
    assert int(npgpu.argmin(d).get()) == 77 and int(npgpu.argmax(d).get()) == 77 and np.isnan(npgpu.max(d).get())
    z = rng.random(3 * (1 << 20) + 7).astype(dt)
    z[[10, 2_000_000]] = 2.0
    assert int(npgpu.argmax(npgpu.asarray(z)).get()) == 10
    # Repeated calls on one stream and on other streams reuse the single pass's scratch correctly.
    dz = npgpu.asarray(z)
    ref = float(np.sum(z.astype(np.float64)))
    for _ in range(5):
        assert abs(float(npgpu.sum(dz).get()) - ref) <= 1e-6 * ref
        with npgpu.Stream():
            assert abs(float(npgpu.sum(dz).get()) - ref) <= 1e-6 * ref
    # cumsum of one long row: the float64 look-back keeps every output within a few rounding steps.
    w = rng.random((1 << 22) + 3).astype(dt)
    got = npgpu.cumsum(npgpu.asarray(w)).get()
    ref = np.cumsum(w.astype(np.float64))
    assert got.dtype == dt
    # float64: the sequential reference rounds differently over 4M terms (6.5e-14 measured on an H100)
    np.testing.assert_allclose(got, ref, rtol=1e-6 if dt == np.float32 else 1e-12)


@pytest.mark.gpu
@pytest.mark.parametrize("dt", ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"])
def test_device_integer_sums_and_cumsum(rng, dt):
    """The typed integer sums (whole arrays, rows, columns; views 1-3 elements in; signed values sign-extended,
    64-bit sums wrapping modulo 2^64 as NumPy's) and the integer one-row cumsum (64-bit look-back), equal to
    NumPy's exactly."""
    dt = np.dtype(dt)
    if dt == np.bool_:
        gen = lambda n: rng.random(n) < 0.3  # noqa: E731
    else:
        info = np.iinfo(dt)
        gen = lambda n: rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)  # noqa: E731
    for n in (1, 3, 4097, (1 << 20) + 5, 3_000_001):
        base = gen(n + 3)
        dev = npgpu.asarray(base)
        for off in (0, 1, 3):
            x = base[off:off + n]
            v = device_view(dev, (n,), (dt.itemsize,), off * dt.itemsize)
            got = npgpu.sum(v).get()
            assert got.dtype == np.sum(x).dtype and got == np.sum(x), (n, off)
            np.testing.assert_array_equal(npgpu.cumsum(v).get(), np.cumsum(x))
    for shape in ((5000, 130), (3, 200_001), (300, 4099), (2, 8), (70_000, 9)):
        x = gen(shape[0] * shape[1]).reshape(shape)
        dev = npgpu.asarray(x)
        for axis in (0, 1, None):
            np.testing.assert_array_equal(npgpu.sum(dev, axis=axis).get(), np.sum(x, axis=axis))
    if dt.itemsize == 8:  # wrap-around: NumPy's int64 / uint64 sums are modulo 2^64
        x = np.full(1 << 20, np.iinfo(dt).max, dt)
        assert npgpu.sum(npgpu.asarray(x)).get() == np.sum(x)
        np.testing.assert_array_equal(npgpu.cumsum(npgpu.asarray(x)).get(), np.cumsum(x))


# ----------------------------------------------------------------------------------------- beyond 2^31

def _flat_get(arr, start, count):
    """Elements [start, start + count) of a 1-D device array, without copying the whole of it."""
    v = device_view(arr, (count,), (arr.itemsize,), start * arr.itemsize)
    return v.get()


@pytest.mark.slow
@pytest.mark.gpu
@pytest.mark.parametrize("n", [2 ** 31 + 1, 2 ** 32 + 1], ids=["2^31+1", "2^32+1"])
def test_huge_sum_argmax_cumsum(n):
    host = np.ones(n, dtype=np.uint8)
    marks = {5: 3, 2 ** 31 - 1: 2, 2 ** 31: 4, n - 2: 9, n - 1: 7}
    for i, v in marks.items():
        host[i] = v
    d = npgpu.asarray(host)
    del host
    extra = {i: v - 1 for i, v in marks.items()}
    total = n + sum(extra.values())
    s = npgpu.sum(d)
    assert s.dtype == np.uint64 and int(s.get()) == total
    assert int(npgpu.argmax(d).get()) == n - 2
    assert int(npgpu.max(d).get()) == 9
    c = npgpu.cumsum(d)
    assert c.dtype == np.uint64 and c.shape == (n,)

    def exact(i):  # cumsum at i
        return i + 1 + sum(e for j, e in extra.items() if j <= i)

    for start in (0, 2 ** 31 - 3, n - 4):
        got = _flat_get(c, start, 4)
        assert [int(g) for g in got] == [exact(i) for i in range(start, start + 4)], start
    del c
    # argmax with the maximum at the very last element; int8 data
    d8 = npgpu.full(n, -1, dtype=np.int8)
    last = device_view(d8, (1,), (1,), n - 1)
    npgpu.add(last, np.int8(100), out=last)
    assert int(npgpu.argmax(d8).get()) == n - 1
    assert int(npgpu.sum(d8).get()) == -(n - 1) + 99


@pytest.mark.slow
@pytest.mark.gpu
def test_axis_reductions_and_scans_past_2_31_elements():
    """Reductions and scans along an axis of arrays with more than 2^31 elements: rows of 2^30 + 1 (the
    output and the scan index past 2^31), and a reduced axis of 2^31 + 1."""
    m = 2 ** 30 + 1
    d = npgpu.full((2, m), 1, np.uint8)
    d[0, 7] = 3
    d[1, m - 1] = 5
    np.testing.assert_array_equal(npgpu.sum(d, axis=1).get(), [m + 2, m + 4])
    np.testing.assert_array_equal(npgpu.argmax(d, axis=1).get(), [7, m - 1])
    s0 = npgpu.sum(d, axis=0)
    assert s0.shape == (m,) and [int(s0[i]) for i in (0, 7, m - 2, m - 1)] == [2, 4, 2, 6]
    del s0
    c = npgpu.cumsum(d, axis=1)
    assert c.dtype == np.uint64
    assert [int(c[0, i]) for i in (6, 7, m - 1)] == [7, 10, m + 2]
    assert [int(c[1, i]) for i in (0, m - 2, m - 1)] == [1, m - 1, m + 4]
    del c, d
    n = 2 ** 31 + 1
    tall = npgpu.full((n, 2), 1, np.uint8)
    tall[n - 1, 1] = 9
    np.testing.assert_array_equal(npgpu.sum(tall, axis=0).get(), [n, n + 8])
    np.testing.assert_array_equal(npgpu.argmax(tall, axis=0).get(), [0, n - 1])
    np.testing.assert_array_equal(npgpu.max(tall, axis=0).get(), [1, 9])


def test_extrema_over_an_empty_axis_raise_even_with_no_outputs(backend):
    # np.min(np.zeros((0, 0)), axis=0): the reduced axis is empty, so there is no minimum, output or not.
    for fn, msg in ((npgpu.min, "no identity"), (npgpu.max, "no identity"), (npgpu.argmax, "empty sequence")):
        with pytest.raises(ValueError, match=msg):
            fn(np.zeros((0, 0)), axis=0)
    assert npgpu.min(np.zeros((0, 3)), axis=1).shape == (0,)  # an empty output over a non-empty axis is fine


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.int32, np.int64, np.uint16, np.uint64])
@pytest.mark.parametrize("n", [1, 7, 16, 17, 63, 65, 1000, (1 << 15) + 3])
def test_contiguous_extrema_and_moments_match_numpy(array_device, rng, dtype, n):
    # Contiguous ranges take vectorised paths (lanes of running extrema, two-pass moments), split over
    # threads for large n: ties, NaNs and the first position must still follow NumPy.
    x = (rng.integers(0, 50, n) - (25 if np.dtype(dtype).kind != "u" else 0)).astype(dtype)
    x[n // 3] = x.max()  # a tie with an earlier maximum, when there is one
    cases = [x]
    if np.dtype(dtype).kind == "f":
        y = x.copy()
        y[(2 * n) // 3] = np.nan
        y[n - 1] = np.nan
        cases.append(y)
    for v in cases:
        a = npgpu.asarray(v, device=array_device)
        for name in ("max", "min", "argmax", "argmin"):
            got, want = getattr(npgpu, name)(a).get(), getattr(np, name)(v)
            np.testing.assert_array_equal(got, want, err_msg=name)
        if np.dtype(dtype).kind == "f":
            np.testing.assert_allclose(npgpu.var(a).get(), np.var(v.astype(np.float64)),
                                       rtol=1e-5 if dtype == np.float32 else 1e-12)
            np.testing.assert_allclose(npgpu.std(a, ddof=1).get() if n > 1 else 0.0,
                                       np.std(v.astype(np.float64), ddof=1) if n > 1 else 0.0,
                                       rtol=1e-5 if dtype == np.float32 else 1e-12)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_var_std_of_large_offset_data_as_float64(array_device, rng, dtype):
    # Data far from zero (the mean 1e7 times the spread) through the whole-array, row and column paths: one
    # pass must not cancel (a sum of squares would keep about 2 of float64's 16 digits; Welford's updates keep
    # 8 here). The first element an outlier, NaN and inf propagating, nanvar skipping NaNs.
    n = (1 << 20) + 5
    x = (1e7 + rng.standard_normal(n)).astype(dtype)
    outlier = x.copy()
    outlier[0] = 3e9
    rtol = 2e-6 if dtype == np.float32 else 1e-7
    for v in (x, outlier, x[3:]):
        a = npgpu.asarray(v, device=array_device)
        want = np.var(v.astype(np.float64))
        np.testing.assert_allclose(npgpu.var(a).get(), want, rtol=rtol)
        np.testing.assert_allclose(npgpu.std(a, ddof=1).get(), np.std(v.astype(np.float64), ddof=1), rtol=rtol)
    m = x[: 64 * 16383].reshape(64, 16383)
    for axis in (0, 1):
        np.testing.assert_allclose(npgpu.var(npgpu.asarray(m, device=array_device), axis=axis).get(),
                                   np.var(m.astype(np.float64), axis=axis), rtol=rtol)
    bad = x.copy()
    bad[n // 2] = np.nan
    assert np.isnan(npgpu.var(npgpu.asarray(bad, device=array_device)).get())
    np.testing.assert_allclose(npgpu.nanvar(npgpu.asarray(bad, device=array_device)).get(),
                               np.nanvar(bad.astype(np.float64)), rtol=rtol)
    bad[n // 2] = np.inf
    with np.errstate(invalid="ignore"):
        assert np.isnan(npgpu.var(npgpu.asarray(bad, device=array_device)).get())


def test_argmax_signed_zero_and_first_position(array_device):
    for v in (np.array([-0.0, 0.0]), np.array([0.0, -0.0]), np.full(100, 3.0)):
        a = npgpu.asarray(v, device=array_device)
        assert int(npgpu.argmax(a).get()) == np.argmax(v)
        assert int(npgpu.argmin(a).get()) == np.argmin(v)


@pytest.mark.heavy
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_signed_zero_extrema_as_numpy(array_device, dtype):
    # max / min give the later of equal values, as NumPy's scalar loops do (max([-0.0, 0.0]) is 0.0, max([0.0,
    # -0.0]) is -0.0); nanmax / nanmin the earlier, as NumPy's fmax / fmin. Every sign pattern of up to 6
    # zeros, alone and beside a smaller (larger) value, against that rule written out: NumPy's own answer
    # depends on its vector lanes (AVX2's max([-0.0, 0.0, 0.0, 0.0, -1.0]) is -0.0).
    later = {"max": lambda a, b: b if b >= a else a, "min": lambda a, b: b if b <= a else a,
             "nanmax": lambda a, b: b if b > a else a, "nanmin": lambda a, b: b if b < a else a}
    for n in range(1, 7):
        for bits in range(1 << n):
            z = np.array([-0.0 if bits >> k & 1 else 0.0 for k in range(n)], dtype)
            for v in (z, np.concatenate([z, np.array([-1.0], dtype)]), np.concatenate([np.array([1.0], dtype), z])):
                a = npgpu.asarray(v, device=array_device)
                for name in ("max", "min", "nanmax", "nanmin"):
                    want = functools.reduce(later[name], v)
                    got = getattr(npgpu, name)(a).get()
                    assert got == want and np.signbit(got) == np.signbit(want), (name, v, got, want)
    # along an axis: rows and columns of a matrix of zeros of both signs
    m = np.array([[-0.0, 0.0, -0.0], [0.0, -0.0, -0.0]], dtype)
    for axis in (0, 1):
        for name in ("max", "min"):
            got = getattr(npgpu, name)(npgpu.asarray(m, device=array_device), axis=axis).get()
            np.testing.assert_array_equal(np.signbit(got), np.signbit(getattr(np, name)(m, axis=axis)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_signed_zero_extrema_rule_at_any_length(array_device, dtype):
    # NumPy's rule for short arrays (max / min the later of equal zeros, nanmax / nanmin the earlier) holds at
    # every length and layout, though the GPU combines elements in no fixed order: one zero of the other sign
    # among many, at the start, the middle and the end, whole arrays and along either axis.
    for n in (100, 4099, (1 << 20) + 3):
        for pos in (0, n // 3, n - 1):
            for sign in (1.0, -1.0):
                v = np.full(n, 0.0 * sign, dtype)
                v[pos] = -v[pos]
                last, first = np.signbit(v[-1]), np.signbit(v[0])
                a = npgpu.asarray(v, device=array_device)
                for name, want in (("max", last), ("min", last), ("nanmax", first), ("nanmin", first)):
                    assert np.signbit(getattr(npgpu, name)(a).get()) == want, (name, n, pos, sign)
                if n > 5000:
                    continue
                cols = npgpu.asarray(np.stack([v, -v, v], axis=1), device=array_device)
                rows = npgpu.asarray(np.stack([v, -v, v]), device=array_device)
                for name in ("max", "min"):
                    want = np.array([last, not last, last])
                    np.testing.assert_array_equal(np.signbit(getattr(npgpu, name)(cols, axis=0).get()), want)
                    np.testing.assert_array_equal(np.signbit(getattr(npgpu, name)(rows, axis=1).get()), want)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.int64, np.uint32])
def test_extrema_over_a_strided_axis_match_numpy(array_device, rng, dtype):
    # max/min along axis 0 fold rows into per-column running extrema (a NaN taken and kept).
    x = (rng.integers(-50, 50, (37, 3, 41)) if np.dtype(dtype).kind != "u" else rng.integers(0, 99, (37, 3, 41)))
    x = x.astype(dtype)
    if np.dtype(dtype).kind == "f":
        x[0, 1, 2] = np.nan
        x[36, 2, 40] = np.nan
    a = npgpu.asarray(x, device=array_device)
    for axis in (0, (0, 1), 1):
        for name in ("max", "min"):
            np.testing.assert_array_equal(getattr(npgpu, name)(a, axis=axis).get(), getattr(np, name)(x, axis=axis),
                                          err_msg=f"{name} axis={axis}")
    np.testing.assert_array_equal(npgpu.max(a[:1], axis=0).get(), x[:1].max(axis=0))


@pytest.mark.parametrize("name", ["max", "min", "argmax", "argmin"])
def test_complex_extrema_in_lexicographic_order(array_device, rng, name):
    x = (rng.integers(0, 3, (4, 5, 6)) + 1j * rng.integers(0, 3, (4, 5, 6))).astype(np.complex128)
    axes = (None, 0, 2, -1) + (((0, 2), (0, 1, 2)) if name in ("max", "min") else ())
    for v in (x, x.astype(np.complex64)):
        a = npgpu.asarray(v, device=array_device)
        for axis in axes:
            for keepdims in (False, True):
                got = getattr(npgpu, name)(a, axis=axis, keepdims=keepdims)
                np.testing.assert_array_equal(got.get(), getattr(np, name)(v, axis=axis, keepdims=keepdims))
    y = x.copy()
    y[1, 2, 3] = complex(np.nan, 1.0)
    y[2, 2, 0] = complex(1.0, np.nan)
    y[3, 4, 5] = complex(-np.inf, 2.0)
    a = npgpu.asarray(y, device=array_device)
    for axis in (None, 0, 2):
        np.testing.assert_array_equal(getattr(npgpu, name)(a, axis=axis).get(), getattr(np, name)(y, axis=axis))
        if not name.startswith("arg"):  # the NaN-skipping forms
            nan_name = "nan" + name
            np.testing.assert_array_equal(getattr(npgpu, nan_name)(a, axis=axis).get(),
                                          getattr(np, nan_name)(y, axis=axis))
    out = npgpu.empty((5, 6), dtype=np.int64 if name.startswith("arg") else np.complex128, device=array_device)
    assert getattr(npgpu, name)(a, axis=0, out=out) is out
    np.testing.assert_array_equal(out.get(), getattr(np, name)(y, axis=0))
    with pytest.raises(ValueError):
        getattr(npgpu, name)(npgpu.asarray(np.zeros((0, 3), np.complex64), device=array_device), axis=0)


@pytest.mark.parametrize("rows", [7, 8, 13, 1001])
def test_host_float32_axis0_sum_accuracy(rows):
    # The host's axis-0 float32 sums add eight rows in float32 before float64 accumulation: each result stays
    # within a few float32 roundings of the exact sum, where NumPy's running float32 sum drifts with the rows.
    rng = np.random.default_rng(rows)
    x = (rng.random((rows, 67)) * 10.0 ** rng.integers(-3, 4, (rows, 67))).astype(np.float32)
    x[rng.random(x.shape) < 0.3] *= -1
    got = np.asarray(npgpu.sum(npgpu.asarray(x, device="cpu"), axis=0))
    exact = x.astype(np.float64).sum(axis=0)
    bound = 4 * np.finfo(np.float32).eps * np.abs(x).astype(np.float64).sum(axis=0) + np.abs(exact) * 2.0 ** -24
    assert got.dtype == np.float32
    assert np.all(np.abs(got.astype(np.float64) - exact) <= bound)
    view = npgpu.asarray(x, device="cpu")[:, ::3]  # columns a stride apart
    np.testing.assert_allclose(np.asarray(npgpu.sum(view, axis=0)), exact[::3], rtol=1e-5)


@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.uint64, np.float32])
@pytest.mark.parametrize("n", [31, 32, 33, 100, 4097, 70001])
def test_host_flat_extrema_vector_loops(dtype, n):
    # The host's flat max/min/argmax/argmin run vector loops of 32 elements and more (AVX-512 where the CPU
    # has it, for 64-bit types): values at the extremes of the dtype, ties, NaNs at the edges and in the tail.
    rng = np.random.default_rng(n)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        x = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
        x[rng.integers(0, n, 3)] = info.max
        x[rng.integers(0, n, 3)] = info.min
    else:
        x = (rng.standard_normal(n) * 1e3).astype(dtype)
        x[rng.integers(0, n, 3)] = x.max()
    cases = [x]
    if np.issubdtype(dtype, np.floating):
        for where in (0, n // 2, n - 1):
            y = x.copy()
            y[where] = np.nan
            cases.append(y)
    for c in cases:
        a = npgpu.asarray(c, device="cpu")
        for name in ("max", "min", "argmax", "argmin"):
            np.testing.assert_array_equal(np.asarray(getattr(npgpu, name)(a)), getattr(np, name)(c), err_msg=name)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape,axis", [((20000, 8), 0), ((20000, 7), 0), ((3, 5000, 12), 1), ((9000, 1), 0)],
                         ids=str)
def test_column_extrema_and_arg_extrema_as_numpy(array_device, rng, dtype, shape, axis):
    # Reductions down long columns (rows split over several blocks on a GPU): ties between rows of different
    # slices keep the first index, the first NaN wins, a column of only -inf (+inf) gives index 0, and max/min
    # give the later of equal zeros as NumPy.
    x = rng.integers(-3, 4, shape).astype(dtype)
    x[x == 0] = -0.0
    flat = np.moveaxis(x, axis, 0).reshape(shape[axis], -1)
    flat[:, 0] = -np.inf
    if flat.shape[1] > 1:
        flat[:, 1] = np.inf
        flat[[4321, 77, 4500], 1] = [np.nan, 5, np.nan]
    if flat.shape[1] > 2:
        flat[:, 2] = np.where(np.arange(shape[axis]) % 2, 0.0, -0.0)
    x = np.moveaxis(flat.reshape(np.moveaxis(x, axis, 0).shape), 0, axis).copy()
    a = npgpu.asarray(x, device=array_device)
    for name in ("argmax", "argmin", "max", "min"):
        want = getattr(np, name)(x, axis=axis)
        got = getattr(npgpu, name)(a, axis=axis).get()
        np.testing.assert_array_equal(got, want, err_msg=name)
        if name in ("max", "min"):
            np.testing.assert_array_equal(np.signbit(got), np.signbit(want), err_msg=name)
