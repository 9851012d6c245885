"""npgpu._elementwise_composed against NumPy 2 on each device (array_device) and on NumPy inputs: dtypes and
shapes exactly, values bit for bit (signed zeros included) where NumPy's are computed by the same exact
operations, within stated tolerances where a transcendental function of the device's math library enters."""
import numpy as np
import pytest

import npgpu
from npgpu import _elementwise_composed as composed

FLOATS = ["float16", "float32", "float64"]
INTS = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]
REALS = ["bool"] + INTS + FLOATS
# Relative tolerances where exp/log1p/pow of the device's math library enter (NumPy's libm may differ by
# an ulp or two from CUDA's); on the host backend the results are in fact identical to NumPy's.
TRANSCENDENTAL_RTOL = {"float16": 1e-3, "float32": 2e-6, "float64": 5e-15, "complex128": 5e-15}


def special(dtype):
    """Signed zeros, infinities, NaNs of both signs, the smallest subnormals, the extremes, halves."""
    dt = np.dtype(dtype)
    fi = np.finfo(dt)
    vals = [0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, fi.smallest_subnormal, -fi.smallest_subnormal,
            fi.smallest_normal, -fi.smallest_normal, fi.max, fi.min, 0.5, -0.5, 1.5, -2.5, 2.5, 3.0, -7.25, 0.1]
    with np.errstate(over="ignore"):
        return np.array(vals, dtype=np.float64).astype(dt)


def sample(dtype, n=20):
    """Values of any dtype, integer extremes and zero included."""
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return np.arange(n) % 3 == 0
    if dt.kind in "iu":
        info = np.iinfo(dt)
        base = [0, 1, 2, 3, 5, 7, 10, 15, 25, 100, info.max, info.min, info.max - 1, info.max // 3]
        return np.resize(np.array(base, dtype=object).astype(dt), n)
    if dt.kind == "c":
        part = np.dtype(f"f{dt.itemsize // 2}")
        s = special(part)
        z = np.empty(s.size, dt)  # not s + 1j * t: inf * 1j has a NaN real part
        z.real, z.imag = s, np.roll(s, 3)
        return z
    return special(dt)


def as_host(x):
    return x.get() if isinstance(x, npgpu.Array) else x


def check(got, want, rtol=0.0, zero_sign=True, device=None):
    """got (an npgpu.Array on `device` when given, else what NumPy returns) equals NumPy's `want`: type,
    dtype, shape, values (NaNs equal; exactly, with the signs of zeros, unless rtol)."""
    if device is not None:
        assert isinstance(got, npgpu.Array), type(got)
        assert got.device == npgpu.asarray([0], device=None if device is True else device).device
    g, w = np.asarray(as_host(got)), np.asarray(want)
    assert g.dtype == w.dtype, (g.dtype, w.dtype)
    assert g.shape == w.shape, (g.shape, w.shape)
    if w.dtype.kind == "c":
        check(g.real, w.real, rtol, zero_sign)
        check(g.imag, w.imag, rtol, zero_sign)
        return
    if rtol and w.dtype.kind == "f":
        np.testing.assert_allclose(g, w, rtol=rtol, atol=0, equal_nan=True)
        return
    same = (g == w) | (np.isnan(g) & np.isnan(w)) if w.dtype.kind == "f" else g == w
    assert np.all(same), f"got {g[~same]}, NumPy {w[~same]} at {np.flatnonzero(~same)}"
    if zero_sign and w.dtype.kind == "f":
        zeros = w == 0
        assert np.array_equal(np.signbit(g[zeros]), np.signbit(w[zeros])), "signs of zeros differ"


def dev(a):
    return npgpu.asarray(a)


# --------------------------------------------------------------------------------------------- signbit

@pytest.mark.parametrize("dtype", REALS)
def test_signbit(array_device, dtype):
    a = sample(dtype)
    check(npgpu.signbit(dev(a)), np.signbit(a), device=array_device)
    check(npgpu.signbit(dev(a[::-3])), np.signbit(a[::-3]), device=array_device)  # a strided view


def test_signbit_nan_sign_and_negative_zero(array_device):
    a = np.array([np.nan, -np.nan, 0.0, -0.0, -np.inf], np.float64)
    assert np.signbit(a).tolist() == [False, True, False, True, True]
    check(npgpu.signbit(dev(a)), np.signbit(a))
    check(npgpu.signbit(dev(a.astype(np.float32))), np.signbit(a.astype(np.float32)))


def test_signbit_without_reinterpret_keeps_zero_signs_but_loses_nan_signs(array_device, monkeypatch):
    # The documented fallback where Array has no reinterpreting view: right for -0.0, wrong for -NaN.
    monkeypatch.setattr(composed, "_reinterpret", None)
    a = np.array([0.0, -0.0, 1.0, -2.0, np.inf, -np.inf, -np.nan], np.float32)
    got = npgpu.signbit(dev(a)).get()
    assert got[:6].tolist() == np.signbit(a)[:6].tolist() and not got[6]
    with pytest.raises(NotImplementedError, match="reinterpret"):
        npgpu.nextafter(dev(a), 0.0)


def test_signbit_errors_and_numpy_inputs(array_device):
    with pytest.raises(TypeError, match="signbit"):
        npgpu.signbit(dev(np.array([1 + 1j])))
    a = special("float64")
    r = npgpu.signbit(a)
    assert type(r) is np.ndarray
    check(r, np.signbit(a))
    assert npgpu.signbit(-0.0) == np.signbit(-0.0)


# --------------------------------------------------------------------------------------------- copysign

@pytest.mark.parametrize("dtype", FLOATS)
def test_copysign_special_values(array_device, dtype):
    a = special(dtype)
    x, y = np.repeat(a, a.size), np.tile(a, a.size)  # every pair
    check(npgpu.copysign(dev(x), dev(y)), np.copysign(x, y), device=array_device)
    check(npgpu.copysign(dev(a), -0.0), np.copysign(a, -0.0))
    check(npgpu.copysign(dev(a), 2), np.copysign(a, 2))
    check(npgpu.copysign(-3.5, dev(a)), np.copysign(-3.5, a))
    check(npgpu.copysign(np.nan, dev(a)), np.copysign(np.nan, a))


@pytest.mark.parametrize("d1", ["bool", "int8", "uint8", "int16", "int32", "uint64", "float16", "float32"])
@pytest.mark.parametrize("d2", ["bool", "int8", "float16", "float32", "float64"])
def test_copysign_dtypes(array_device, d1, d2):
    a, b = sample(d1), np.roll(sample(d2), 4)
    check(npgpu.copysign(dev(a), dev(b)), np.copysign(a, b), device=array_device)


# --------------------------------------------------------------------------------------------- nextafter

@pytest.mark.parametrize("dtype", FLOATS)
def test_nextafter_special_values(array_device, dtype):
    a = special(dtype)
    x, y = np.repeat(a, a.size), np.tile(a, a.size)
    with np.errstate(over="ignore"):
        # float16 at equal zeros: NumPy 2.4 returns x1, NumPy 2.5 x2 (the sign of the zero differs)
        check(npgpu.nextafter(dev(x), dev(y)), np.nextafter(x, y), zero_sign=dtype != "float16",
              device=array_device)
        for t in (0.0, -0.0, np.inf, -np.inf, 1.0):
            check(npgpu.nextafter(dev(a), t), np.nextafter(a, np.dtype(dtype).type(t)), zero_sign=dtype != "float16")
            check(npgpu.nextafter(t, dev(a)), np.nextafter(np.dtype(dtype).type(t), a), zero_sign=dtype != "float16")


def test_nextafter_float16_keeps_x_where_equal(array_device):
    # NumPy 2.4's half nextafter returns x1 where they compare equal (nextafter(0.0, -0.0) == +0.0); NumPy 2.5
    # returns x2 as for the other floats: only the values, not the zero signs, are compared here.
    a = np.array([0.0, -0.0], np.float16)
    b = np.array([-0.0, 0.0], np.float16)
    check(npgpu.nextafter(dev(a), dev(b)), np.nextafter(a, b), zero_sign=False)
    check(npgpu.nextafter(dev(a.astype(np.float32)), dev(b.astype(np.float32))),
          np.nextafter(a.astype(np.float32), b.astype(np.float32)))


def test_nextafter_dtypes_and_broadcasting(array_device):
    a = sample("int16")
    check(npgpu.nextafter(dev(a), dev(a[::-1])), np.nextafter(a, a[::-1]))
    b = sample("uint8").reshape(4, 5)
    c = special("float32")[:5]
    check(npgpu.nextafter(dev(b), dev(c)), np.nextafter(b, c))
    check(npgpu.nextafter(dev(c[:, None]), dev(c)), np.nextafter(c[:, None], c))
    with pytest.raises(TypeError):
        npgpu.nextafter(dev(np.ones(2, np.complex64)), 1.0)


# --------------------------------------------------------------------------------------------- logaddexp

@pytest.mark.parametrize("fn", ["logaddexp", "logaddexp2"])
@pytest.mark.parametrize("dtype", FLOATS)
def test_logaddexp_special_and_random(array_device, random_array, fn, dtype):
    s = special(dtype)
    a = np.concatenate([np.repeat(s, s.size), random_array(200, dtype)])
    b = np.concatenate([np.tile(s, s.size), random_array(200, dtype)])
    with np.errstate(all="ignore"):
        want = getattr(np, fn)(a, b)
        want_same = getattr(np, fn)(a, a)
    tol = TRANSCENDENTAL_RTOL[dtype]
    check(getattr(npgpu, fn)(dev(a), dev(b)), want, rtol=tol, device=array_device)
    check(getattr(npgpu, fn)(dev(a), dev(a)), want_same, rtol=tol)
    # infinities: exact
    inf = np.array([np.inf, -np.inf, np.inf, -np.inf, 1.0], dtype)
    other = np.array([np.inf, -np.inf, -np.inf, 5.0, -np.inf], dtype)
    check(getattr(npgpu, fn)(dev(inf), dev(other)), getattr(np, fn)(inf, other))


@pytest.mark.parametrize("fn", ["logaddexp", "logaddexp2"])
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64"])
def test_logaddexp_integer_inputs(array_device, fn, dtype):
    a = sample(dtype)[:6] if dtype != "int64" else np.arange(-3, 3)
    b = a[::-1].copy()
    want = getattr(np, fn)(a, b)
    check(getattr(npgpu, fn)(dev(a), dev(b)), want, rtol=TRANSCENDENTAL_RTOL[want.dtype.name])
    want = getattr(np, fn)(a, 2.5)
    check(getattr(npgpu, fn)(dev(a), 2.5), want, rtol=TRANSCENDENTAL_RTOL[want.dtype.name])


# --------------------------------------------------------------------------------------------- round

@pytest.mark.parametrize("decimals", [0, 1, 2, 3, -1, -2])
@pytest.mark.parametrize("dtype", FLOATS)
def test_round_floats(array_device, random_array, dtype, decimals):
    halves = np.array([0.5, 1.5, 2.5, -0.5, -2.5, 0.125, 0.375, 5.0, 15.0, 25.0, 125.0, 0.05, 0.15], dtype)
    a = np.concatenate([special(dtype), halves, random_array(60, dtype) * np.dtype(dtype).type(3)])
    with np.errstate(all="ignore"):
        want = np.round(a, decimals)
    check(npgpu.round(dev(a), decimals), want, device=array_device)
    check(npgpu.around(dev(a), decimals=decimals), want)


@pytest.mark.parametrize("decimals", [0, 1, -1, -2])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_round_complex_parts_separately(array_device, random_array, dtype, decimals):
    a = np.concatenate([sample(dtype), random_array(40, dtype) * 7])
    with np.errstate(all="ignore"):
        want = np.round(a, decimals)
    check(npgpu.round(dev(a), decimals), want, device=array_device)


@pytest.mark.parametrize("decimals", [0, 2, -1, -2])
@pytest.mark.parametrize("dtype", INTS)
def test_round_integers(array_device, dtype, decimals):
    # values whose rounded results stay in range (out-of-range float -> int casts differ between platforms)
    info = np.iinfo(dtype)
    hi = min(int(info.max) - 200, 10**15)
    lo = 0 if info.min == 0 else -hi
    vals = [0, 1, 4, 5, 14, 15, 25, 35, 45, 50, 55, 149, 150, 250, hi, lo, hi // 7, lo // 3, -5, -15, -45, -150]
    a = np.array([v for v in vals if lo <= v <= hi], dtype)
    r = npgpu.round(dev(a), decimals)
    check(r, np.round(a, decimals), device=array_device)
    x = dev(a)
    if decimals >= 0:
        assert x.size == 0 or npgpu.round(x, decimals).ptr != x.ptr  # a new array, as NumPy's copy


def test_round_bool_and_errors(array_device):
    b = np.array([True, False, True])
    check(npgpu.round(dev(b)), np.round(b))  # float16, as NumPy's rint
    with pytest.raises(TypeError, match="boolean"):
        npgpu.round(dev(b), 1)


def test_round_out_and_numpy_inputs(array_device):
    a = np.array([0.25, 1.35, -2.5, 3.75])
    out = npgpu.zeros(4)
    r = npgpu.round(dev(a), 1, out=out)
    assert r is out
    check(out, np.round(a, 1))
    r = npgpu.round(a, 1)
    assert type(r) is np.ndarray
    check(r, np.round(a, 1))
    with pytest.raises(TypeError, match="cannot mix"):
        npgpu.round(a, 1, out=out)


# --------------------------------------------------------------------------------------------- isclose

def test_isclose_special_values(array_device):
    a = np.array([1.0, 1.0 + 1e-9, 1.1, np.inf, -np.inf, np.nan, 0.0, 1e-9, np.inf, 1e300, -0.0, 5e-324])
    b = np.array([1.0, 1.0, 1.0, np.inf, np.inf, np.nan, 1e-9, 0.0, 1e308, np.inf, 0.0, 0.0])
    for kw in ({}, {"equal_nan": True}, {"rtol": 0.0, "atol": 0.0}, {"rtol": 0.2, "atol": 1e-300}):
        check(npgpu.isclose(dev(a), dev(b), **kw), np.isclose(a, b, **kw), device=array_device)
        check(npgpu.isclose(dev(b), dev(a), **kw), np.isclose(b, a, **kw))


def test_isclose_tolerance_in_b_dtype(array_device):
    # NumPy converts only b to result_type(b, 1.0): with a float32 b, atol + rtol * |b| is a float32 sum,
    # with a float64 b a float64 one. Differences half way between the two tolerances tell them apart.
    b32 = np.array([1.0, 3.0, 7.0, 1000.0, 0.1], np.float32)
    t32 = (np.float32(1e-8) + np.float32(1e-5) * np.abs(b32)).astype(np.float64)
    t64 = 1e-8 + 1e-5 * np.abs(b32.astype(np.float64))
    a64 = b32.astype(np.float64) + (t32 + t64) / 2
    want = np.isclose(a64, b32)
    assert want.tolist() == [False, True, False, True, False]  # a float64 tolerance would say the opposite
    check(npgpu.isclose(dev(a64), dev(b32)), want)
    for a, b in ((b32, a64), (a64.astype(np.float16), b32), (b32, a64.astype(np.float16)), (a64, a64)):
        check(npgpu.isclose(dev(a), dev(b)), np.isclose(a, b))


@pytest.mark.parametrize("d1", ["bool", "int8", "uint8", "int64", "float16", "float32", "complex64"])
@pytest.mark.parametrize("d2", ["bool", "uint8", "int32", "float16", "float64", "complex128"])
def test_isclose_dtypes(array_device, d1, d2):
    a = sample(d1)[:12]
    with np.errstate(all="ignore"):  # casts of infinities and NaNs to integers
        b = a.astype(d2) if d1 != "complex64" or d2.startswith("complex") else np.abs(a).astype(d2)
        b = b + np.array(1, d2) if d2 != "bool" else b
        check(npgpu.isclose(dev(a), dev(b), equal_nan=True), np.isclose(a, b, equal_nan=True))


def test_isclose_python_scalars(array_device):
    a = np.array([0, 1, 2, 3], np.int8)
    f = np.array([0.99999, 1.0, 1.1, np.nan], np.float32)
    check(npgpu.isclose(dev(a), 2), np.isclose(a, 2))
    check(npgpu.isclose(dev(f), 1), np.isclose(f, 1))
    check(npgpu.isclose(dev(f), 1.0, atol=0.0), np.isclose(f, 1.0, atol=0.0))
    check(npgpu.isclose(dev(f), True), np.isclose(f, True))
    check(npgpu.isclose(2.0, dev(a)), np.isclose(2.0, a))
    check(npgpu.isclose(np.nan, dev(f), equal_nan=True), np.isclose(np.nan, f, equal_nan=True))
    # NumPy scalars are strong: with b = np.float16(1) the tolerance is a float16 product
    h = np.array([1.0, 1.0 + 1.00013e-4, 1.0 - 1.00013e-4, 1.00001, 0.9999], np.float64)
    assert np.isclose(h, np.float16(1), rtol=1e-4)[1] and not np.isclose(h, 1, rtol=1e-4)[1]
    for b in (np.int8(1), np.float16(1), np.float32(1), np.uint64(1), np.float64(1)):
        check(npgpu.isclose(dev(h), b, rtol=1e-4), np.isclose(h, b, rtol=1e-4))
        check(npgpu.isclose(b, dev(h), rtol=1e-4), np.isclose(b, h, rtol=1e-4))


def test_allclose(array_device):
    a = np.array([1.0, 2.0, np.nan])
    b = a + 1e-9
    assert npgpu.allclose(dev(a[:2]), dev(b[:2])) is True
    assert npgpu.allclose(dev(a), dev(b)) is False
    assert npgpu.allclose(dev(a), dev(b), equal_nan=True) is True
    assert npgpu.allclose(dev(a[:2]), dev(b[:2]), rtol=0, atol=0) is False
    assert npgpu.allclose(dev(np.zeros(0)), dev(np.zeros(0))) is True
    assert npgpu.allclose(a, b, equal_nan=True) is True  # NumPy inputs: still a Python bool
    with pytest.raises(TypeError, match="cannot mix"):
        npgpu.allclose(dev(a), b)


# --------------------------------------------------------------------------------------------- fmax, fmin

@pytest.mark.parametrize("fn", ["fmax", "fmin"])
@pytest.mark.parametrize("dtype", FLOATS + ["complex128"])
def test_fmax_fmin_nans(array_device, fn, dtype):
    a = sample(dtype)
    x, y = np.repeat(a, a.size), np.tile(a, a.size)
    # which zero max(0.0, -0.0) gives is unspecified: NumPy's own answer differs with the array length
    check(getattr(npgpu, fn)(dev(x), dev(y)), getattr(np, fn)(x, y), zero_sign=False, device=array_device)
    check(getattr(npgpu, fn)(dev(a), np.nan), getattr(np, fn)(a, np.nan), zero_sign=False)
    check(getattr(npgpu, fn)(1.5, dev(a)), getattr(np, fn)(1.5, a), zero_sign=False)


@pytest.mark.parametrize("fn", ["fmax", "fmin"])
@pytest.mark.parametrize("d1,d2", [("int8", "uint8"), ("bool", "bool"), ("int16", "float16"),
                                   ("uint64", "int64"), ("int32", "float32"), ("bool", "float64")])
def test_fmax_fmin_dtypes(array_device, fn, d1, d2):
    a, b = sample(d1), np.roll(sample(d2), 5)
    check(getattr(npgpu, fn)(dev(a), dev(b)), getattr(np, fn)(a, b), zero_sign=False)


# -------------------------------------------------------------------------- heaviside, fabs, float_power

@pytest.mark.parametrize("dtype", FLOATS + ["int8", "uint32", "bool"])
def test_heaviside(array_device, dtype):
    a = sample(dtype)
    h0 = np.array([0.5, np.nan, -0.0, 1.0], np.float32)
    check(npgpu.heaviside(dev(a), 0.5), np.heaviside(a, 0.5), device=array_device)
    check(npgpu.heaviside(dev(a[:, None]), dev(h0)), np.heaviside(a[:, None], h0))
    check(npgpu.heaviside(dev(a), -0.0), np.heaviside(a, -0.0))
    check(npgpu.heaviside(-0.0, dev(h0)), np.heaviside(-0.0, h0))


@pytest.mark.parametrize("dtype", REALS)
def test_fabs(array_device, dtype):
    a = sample(dtype)
    check(npgpu.fabs(dev(a)), np.fabs(a), device=array_device)


def test_fabs_complex_is_a_type_error(array_device):
    with pytest.raises(TypeError, match="fabs"):
        npgpu.fabs(dev(np.ones(3, np.complex64)))


@pytest.mark.parametrize("d1,d2", [("float32", "float32"), ("int8", "int8"), ("float16", "int64"),
                                   ("uint8", "float32"), ("float64", "float64"), ("complex64", "float32")])
def test_float_power(array_device, d1, d2):
    base = np.array([0.0, -0.0, 0.5, 1.5, 2.0, 3.0, 10.0, -2.0, np.inf, np.nan, 7.0, 0.25], np.float64)
    exps = np.array([2.0, 3.0, -1.0, 0.5, -2.0, 0.0, 1.5, 3.0, -1.0, 2.0, 1.0, -0.5], np.float64)
    if np.dtype(d1).kind in "iu":
        base = np.abs(np.nan_to_num(base, posinf=9)).astype(d1)
    if np.dtype(d2).kind in "iu":
        exps = np.abs(exps).astype(d2)
    a, b = base.astype(d1), exps.astype(d2)
    if d1.startswith("complex"):
        a.imag = 0.5 * a.real
        a[8] = 3  # npgpu's complex power keeps to finite bases here (see test_elementwise.py for power)
    with np.errstate(all="ignore"):
        want = np.float_power(a, b)
    check(npgpu.float_power(dev(a), dev(b)), want, rtol=TRANSCENDENTAL_RTOL[want.dtype.name], device=array_device)
    with np.errstate(all="ignore"):
        want = np.float_power(a, 2)
    check(npgpu.float_power(dev(a), 2), want, rtol=TRANSCENDENTAL_RTOL[want.dtype.name])


# --------------------------------------------------------------------------------------------- angles

@pytest.mark.parametrize("fn", ["deg2rad", "rad2deg", "radians", "degrees"])
@pytest.mark.parametrize("dtype", REALS)
def test_angle_conversions(array_device, random_array, fn, dtype):
    a = sample(dtype)
    if np.dtype(dtype).kind == "f":
        with np.errstate(over="ignore"):
            a = np.concatenate([a, random_array(200, dtype) * np.dtype(dtype).type(90)])
    with np.errstate(all="ignore"):
        want = getattr(np, fn)(a)
    check(getattr(npgpu, fn)(dev(a)), want, device=array_device)


def test_angle_conversions_every_float16(array_device):
    # NumPy computes the half loop in float32 with float32 constants and rounds once
    h = np.arange(1 << 16, dtype=np.uint16).view(np.float16)
    with np.errstate(all="ignore"):
        check(npgpu.deg2rad(dev(h)), np.deg2rad(h))
        check(npgpu.rad2deg(dev(h)), np.rad2deg(h))


def test_angle_conversions_complex_is_a_type_error(array_device):
    with pytest.raises(TypeError, match="deg2rad"):
        npgpu.deg2rad(dev(np.ones(2, np.complex128)))


# --------------------------------------------------------------------------------------------- clip

@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "uint64", "float16", "float32", "float64"])
def test_clip_forms(array_device, dtype):
    a = sample(dtype)
    x = dev(a)
    lo, hi = np.dtype(dtype).type(1), np.dtype(dtype).type(25)
    want = np.clip(a, lo, hi)
    check(npgpu.clip(x, lo, hi), want, device=array_device)          # NumPy's positional form
    check(npgpu.clip(x, a_min=lo, a_max=hi), want)                    # NumPy's keywords
    check(npgpu.clip(x, min=lo, max=hi), want)                        # the standard's keywords
    check(npgpu.clip(x, lo), np.clip(a, lo, None))                    # the standard: clip(x, min)
    check(npgpu.clip(x, None, hi), np.clip(a, None, hi))
    check(npgpu.clip(x, max=hi), np.clip(a, max=hi))
    check(npgpu.clip(x, min=lo), np.clip(a, min=lo))
    check(npgpu.clip(x, dev(a[::-1]), hi), np.clip(a, a[::-1], hi))  # array bounds


def test_clip_without_bounds_copies(array_device):
    a = special("float64")
    x = dev(a)
    for r in (npgpu.clip(x), npgpu.clip(x, None, None), npgpu.clip(x, min=None, max=None)):
        assert r.ptr != x.ptr
        check(r, np.clip(a, None, None))
    with pytest.raises(TypeError, match="positive"):
        npgpu.clip(dev(np.array([True, False])))  # NumPy's positive(): no boolean loop


def test_clip_nan_and_special_values(array_device):
    a = special("float32")
    check(npgpu.clip(dev(a), -1.0, 1.0), np.clip(a, -1.0, 1.0))
    check(npgpu.clip(dev(a), np.nan, 1.0), np.clip(a, np.nan, 1.0))
    check(npgpu.clip(dev(a), -np.inf, np.inf), np.clip(a, -np.inf, np.inf))
    check(npgpu.clip(dev(a), 2.0, -2.0), np.clip(a, 2.0, -2.0))  # min > max: max wins, as NumPy


@pytest.mark.parametrize("dtype", ["int8", "uint8", "uint16", "int64", "uint64"])
def test_clip_python_int_bounds_beyond_the_dtype(array_device, dtype):
    # NumPy 2 drops a Python-int bound at or beyond the dtype's range instead of raising OverflowError
    a = sample(dtype)
    info = np.iinfo(dtype)
    for lo, hi in ((-1, 5), (info.min - 1, info.max + 1), (int(info.min), 10), (3, 2**70)):
        check(npgpu.clip(dev(a), lo, hi), np.clip(a, lo, hi))
        check(npgpu.clip(dev(a), min=lo, max=hi), np.clip(a, min=lo, max=hi))


def test_clip_out_numpy_inputs_and_errors(array_device):
    a = np.linspace(-3, 3, 13)
    out = npgpu.zeros(13)
    assert npgpu.clip(dev(a), -1, 1, out=out) is out
    check(out, np.clip(a, -1, 1))
    r = npgpu.clip(a, -1, 1)
    assert type(r) is np.ndarray
    check(r, np.clip(a, -1, 1))
    check(npgpu.clip(a.astype(np.uint8), -1, 200), np.clip(a.astype(np.uint8), -1, 200))
    with pytest.raises(ValueError, match="give each bound once"):
        npgpu.clip(dev(a), -1, a_min=0)
    with pytest.raises(ValueError, match="give each bound once"):
        npgpu.clip(dev(a), a_max=1, max=0)
    with pytest.raises(TypeError, match="multiple values for argument 'min'"):
        npgpu.clip(dev(a), -1, 1, min=0)
    with pytest.raises(TypeError, match="cannot mix"):
        npgpu.clip(dev(a), a, 1)


def test_clip_signature_is_the_standards():
    # clip(x, /, min=None, max=None): the second and third parameters are named min and max
    import inspect
    params = list(inspect.signature(npgpu.clip).parameters.values())
    assert [p.name for p in params[:3]] == ["x", "min", "max"]
    assert params[0].kind is params[0].POSITIONAL_ONLY
    assert params[1].default is None and params[2].default is None


# --------------------------------------------------------------------------------------------- cumulative

@pytest.mark.parametrize("fn", ["cumulative_sum", "cumulative_prod"])
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int32", "uint64", "float32", "float64",
                                   "complex128"])
def test_cumulative(array_device, random_array, fn, dtype):
    a = random_array((3, 5), dtype)
    if np.dtype(dtype).kind in "fc":
        a = a / 8  # products of moderate magnitude
    elif fn == "cumulative_prod" and dtype != "bool":
        a = (np.arange(15).reshape(3, 5) % 4 + 1).astype(dtype)
    # npgpu's scans accumulate float32 in float64: within an ulp or two of NumPy's float32 running sums
    rtol = {"float32": 1e-6, "float64": 1e-14, "complex128": 1e-14}.get(dtype, 0.0)
    f, nf = getattr(npgpu, fn), getattr(np, fn)
    for axis in (0, 1, -1, -2):
        for include_initial in (False, True):
            check(f(dev(a), axis=axis, include_initial=include_initial),
                  nf(a, axis=axis, include_initial=include_initial), rtol=rtol, device=array_device)
    check(f(dev(a[0]), include_initial=True), nf(a[0], include_initial=True), rtol=rtol)
    check(f(dev(a[:, ::2]), axis=0), nf(a[:, ::2], axis=0), rtol=rtol)  # a strided view
    wide = np.complex128 if dtype.startswith("complex") else np.float64
    check(f(dev(a), axis=1, dtype=wide), nf(a, axis=1, dtype=wide), rtol=1e-14)


@pytest.mark.parametrize("fn", ["cumulative_sum", "cumulative_prod"])
def test_cumulative_shapes_and_numpy_inputs(array_device, fn):
    f, nf = getattr(npgpu, fn), getattr(np, fn)
    z = np.array(3.0)
    check(f(dev(z)), nf(z))  # a 0-d input counts as 1-d, as NumPy
    check(f(dev(z), include_initial=True), nf(z, include_initial=True))
    e = np.zeros((0, 3), np.int16)
    check(f(dev(e), axis=0, include_initial=True), nf(e, axis=0, include_initial=True))
    check(f(dev(e), axis=1), nf(e, axis=1))
    a = np.arange(1, 7, dtype=np.int32).reshape(2, 3)
    r = f(a, axis=1, include_initial=True)
    assert type(r) is np.ndarray
    check(r, nf(a, axis=1, include_initial=True))
    check(f([1, 2, 3]), nf(np.array([1, 2, 3])))


@pytest.mark.parametrize("fn", ["cumulative_sum", "cumulative_prod"])
def test_cumulative_out_as_numpy(array_device, fn):
    f, nf = getattr(npgpu, fn), getattr(np, fn)
    h = np.arange(1, 7, dtype=np.float64).reshape(2, 3) + 0.5
    for axis, initial, out_dtype in ((1, False, np.float64), (1, True, np.float64), (0, True, np.int64),
                                     (1, False, np.int32)):
        shape = list(h.shape)
        shape[axis] += initial
        want = nf(h, axis=axis, include_initial=initial, out=np.full(shape, -9, out_dtype))
        out = npgpu.full(tuple(shape), -9, dtype=out_dtype, device=array_device)
        assert f(dev(h), axis=axis, include_initial=initial, out=out) is out
        check(out, want)
        o = np.full(shape, -9, out_dtype)  # NumPy in, NumPy out
        assert f(h, axis=axis, include_initial=initial, out=o) is o
        check(o, want)
    with pytest.raises(ValueError):
        f(dev(h), axis=1, include_initial=True, out=npgpu.empty((2, 3), device=array_device))


@pytest.mark.parametrize("fn", ["cumulative_sum", "cumulative_prod"])
def test_cumulative_errors(array_device, fn):
    f = getattr(npgpu, fn)
    x = dev(np.ones((2, 3)))
    with pytest.raises(ValueError, match="axis must be given"):
        f(x)
    with pytest.raises(np.exceptions.AxisError, match="axis 2 is out of bounds"):
        f(x, axis=2)
    with pytest.raises(np.exceptions.AxisError):
        f(x, axis=-3)
    with pytest.raises(TypeError):
        f(x, 0)  # axis is keyword-only in the standard


# --------------------------------------------------------------------------------------------- diff

@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int64", "float16", "float32", "complex64"])
def test_diff(array_device, random_array, dtype):
    a = random_array((4, 6), dtype)
    for n in (1, 2, 3, 6, 7):
        for axis in (0, 1, -1):
            check(npgpu.diff(dev(a), n=n, axis=axis), np.diff(a, n=n, axis=axis), device=array_device)
    check(npgpu.diff(dev(a[::2, ::-1]), axis=1), np.diff(a[::2, ::-1], axis=1))  # a strided view
    check(npgpu.diff(dev(a), 2, 0), np.diff(a, 2, 0))  # NumPy's positional n, axis


def test_diff_wraps_unsigned(array_device):
    a = np.array([0, 255, 1, 254], np.uint8)
    check(npgpu.diff(dev(a)), np.diff(a))
    i = np.array([-128, 127, -128], np.int8)
    check(npgpu.diff(dev(i)), np.diff(i))


@pytest.mark.parametrize("dtype", ["bool", "int8", "float32"])
def test_diff_prepend_append(array_device, random_array, dtype):
    a = random_array((3, 4), dtype)
    for pre, app in ((0.5, None), (None, 7), (True, 2.0), (1000, -1), (np.float32(1.5), np.int8(3))):
        kw = {k: v for k, v in (("prepend", pre), ("append", app)) if v is not None}
        for axis in (0, 1):
            check(npgpu.diff(dev(a), axis=axis, **kw), np.diff(a, axis=axis, **kw))
    check(npgpu.diff(dev(a), axis=0, prepend=dev(a[:1]), append=dev(a)), np.diff(a, axis=0, prepend=a[:1], append=a))
    check(npgpu.diff(dev(a), n=2, prepend=dev(a)), np.diff(a, n=2, prepend=a))


def test_diff_n_zero_returns_input(array_device):
    a = np.arange(5.0)
    x = dev(a)
    assert npgpu.diff(x, n=0) is x
    assert npgpu.diff(x, n=0, prepend=1.0, append=dev(a)) is x  # NumPy ignores them too
    check(npgpu.diff(x, n=0), np.diff(a, n=0, prepend=1.0))


def test_diff_errors_and_numpy_inputs(array_device):
    x = dev(np.arange(5.0))
    with pytest.raises(ValueError, match="order must be non-negative"):
        npgpu.diff(x, n=-1)
    with pytest.raises(ValueError, match="at least one dimensional"):
        npgpu.diff(dev(np.array(1.0)))
    with pytest.raises(np.exceptions.AxisError):
        npgpu.diff(x, axis=1)
    with pytest.raises(TypeError, match="cannot mix a host array"):
        npgpu.diff(x, prepend=np.zeros(1))
    with pytest.raises(TypeError, match="cannot mix a host array"):
        npgpu.diff(x, append=[1.0, 2.0])
    with pytest.raises(TypeError, match="cannot mix a host array"):
        npgpu.diff(np.arange(5.0), prepend=x)
    a = np.arange(10) ** 2
    r = npgpu.diff(a, 2, prepend=3)
    assert type(r) is np.ndarray
    check(r, np.diff(a, 2, prepend=3))


# --------------------------------------------------------------------------------------------- across functions

BINARY = ["copysign", "nextafter", "logaddexp", "logaddexp2", "fmax", "fmin", "heaviside", "float_power",
          "isclose"]
UNARY = ["signbit", "fabs", "deg2rad", "rad2deg", "round"]


@pytest.mark.parametrize("fn", BINARY + UNARY)
def test_numpy_inputs_give_numpy_results(fn):
    a = np.array([0.5, -1.5, 2.0, np.inf, -0.0], np.float32)
    b = np.array([1.0, -2.0, 2.0, 3.0, 0.0], np.float32)
    args = (a, b) if fn in BINARY else (a,)
    with np.errstate(all="ignore"):
        want = getattr(np, fn)(*args)
        got = getattr(npgpu, fn)(*args)
    assert type(got) is np.ndarray
    check(got, want)


@pytest.mark.parametrize("fn", BINARY)
def test_binary_functions_refuse_host_arrays_beside_device_arrays(array_device, fn):
    a = np.ones(3, np.float32)
    with pytest.raises(TypeError, match=f"{fn}: cannot mix a host array"):
        getattr(npgpu, fn)(dev(a), a)
    with pytest.raises(TypeError, match="cannot mix a host array"):
        getattr(npgpu, fn)([1.0, 2.0, 3.0], dev(a))


@pytest.mark.parametrize("fn", BINARY)
def test_binary_functions_broadcast_and_zero_size(array_device, fn):
    a = np.array([[0.5], [-1.5], [2.0]], np.float64)
    b = np.array([1.0, -2.0, 0.0, 4.0], np.float64)
    with np.errstate(all="ignore"):
        check(getattr(npgpu, fn)(dev(a), dev(b)), getattr(np, fn)(a, b), rtol=TRANSCENDENTAL_RTOL["float64"])
        e = np.zeros((0, 4))
        check(getattr(npgpu, fn)(dev(e), dev(b)), getattr(np, fn)(e, b))


def test_all_names_exported():
    for name in composed.__all__:
        exported = getattr(npgpu, name)
        # NumPy's ufuncs among them are npgpu.ufunc objects over the composed function
        assert exported is getattr(composed, name) or isinstance(exported, npgpu.ufunc), name
        assert getattr(composed, name).__doc__, name
    assert npgpu.around is npgpu.round


# --------------------------------------------------------------------------------------------- angle .. unwrap

def _close(got, want, rtol=1e-12):
    """got (an npgpu.Array) against NumPy's want: dtype and shape equal, values in float64 within rtol."""
    assert isinstance(got, npgpu.Array), type(got)
    g = got.get()
    assert g.dtype == want.dtype and g.shape == want.shape, (g.dtype, want.dtype, g.shape, want.shape)
    np.testing.assert_allclose(g.astype(np.complex128 if g.dtype.kind == "c" else np.float64),
                               want.astype(np.complex128 if want.dtype.kind == "c" else np.float64),
                               rtol=rtol, atol=0, equal_nan=True)


@pytest.mark.parametrize("dtype", REALS + ["complex64", "complex128"])
def test_angle_fix_sinc_isinf_signed(array_device, dtype):
    a = sample(dtype)
    with np.errstate(all="ignore"):
        want = np.sinc(a)
        tol = TRANSCENDENTAL_RTOL.get(want.dtype.name, TRANSCENDENTAL_RTOL["float32"])
        check(npgpu.angle(dev(a)), np.angle(a), rtol=tol, device=array_device)
        check(npgpu.angle(dev(a), deg=True), np.angle(a, deg=True), rtol=tol)
    check(npgpu.sinc(dev(a)), want, rtol=tol, zero_sign=False)
    if dtype.startswith("complex"):
        for fn in ("fix", "isposinf", "isneginf"):
            with pytest.raises(TypeError):
                getattr(npgpu, fn)(dev(a))
        return
    check(npgpu.fix(dev(a)), np.fix(a), device=array_device)
    check(npgpu.isposinf(dev(a)), np.isposinf(a))
    check(npgpu.isneginf(dev(a)), np.isneginf(a))


def test_angle_zero_conventions_and_0d(array_device):
    z = np.array([0.0, -0.0, complex(0.0, -0.0), complex(-0.0, -0.0), 1j, -1 - 1j])
    check(npgpu.angle(dev(z)), np.angle(z))
    r = np.array([0.0, -0.0, -np.inf, np.nan])
    check(npgpu.angle(dev(r)), np.angle(r))
    check(npgpu.angle(dev(np.array(-0.0))), np.asarray(np.angle(np.array(-0.0))))
    check(npgpu.angle(dev(np.zeros((0, 3), np.complex64))), np.angle(np.zeros((0, 3), np.complex64)))


def test_fix_and_isinf_signed_out(array_device):
    a = special("float32").reshape(4, 5)
    out = dev(np.zeros((4, 5), np.float32))
    assert npgpu.fix(dev(a), out=out) is out
    check(out, np.fix(a))
    for fn in ("isposinf", "isneginf"):
        o = dev(np.full((4, 5), 7, np.int32))  # a numeric out: 0 and 1
        assert getattr(npgpu, fn)(dev(a), o) is o
        check(o, getattr(np, fn)(a, np.zeros((4, 5), np.int32)))
    with pytest.raises(TypeError, match="cannot mix a host array"):
        npgpu.fix(dev(a), out=np.zeros((4, 5), np.float32))
    with pytest.raises(TypeError, match="ambiguous"):
        npgpu.isposinf(dev(np.array([1j])))


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "float16", "float32", "float64"])
def test_i0(array_device, dtype):
    a = sample(dtype) if dtype[0] in "bui" else np.concatenate(
        [special(dtype), np.linspace(-30, 30, 121).astype(dtype), np.array([8.0, -8.0, 7.99, 8.01], dtype)])
    with np.errstate(all="ignore"):
        want = np.i0(a)
    tol = {"float16": 2e-3, "float32": 1e-5}.get(want.dtype.name, 1e-14)
    check(npgpu.i0(dev(a)), want, rtol=tol, device=array_device)
    check(npgpu.i0(dev(a[:6].reshape(2, 3))), want[:6].reshape(2, 3), rtol=tol)
    check(npgpu.i0(dev(np.array(1.5, a.dtype))), np.asarray(np.i0(np.array(1.5, a.dtype))), rtol=tol)
    check(npgpu.i0(dev(a[:0])), np.i0(a[:0]))
    with pytest.raises(TypeError, match="complex"):
        npgpu.i0(dev(np.array([1j])))


@pytest.mark.parametrize("dtype", REALS + ["complex64", "complex128"])
def test_iscomplex_isreal_and_obj(array_device, dtype):
    a = sample(dtype).reshape(4, 5)
    check(npgpu.iscomplex(dev(a)), np.iscomplex(a), device=array_device)
    check(npgpu.isreal(dev(a)), np.isreal(a), device=array_device)
    check(npgpu.iscomplex(dev(a[0, 0])), np.asarray(np.iscomplex(a[0, 0])))
    check(npgpu.isreal(dev(a[:0])), np.isreal(a[:0]))
    assert npgpu.iscomplexobj(dev(a)) is np.iscomplexobj(a)
    assert npgpu.isrealobj(dev(a)) is np.isrealobj(a)
    assert npgpu.iscomplexobj(dev(a)) is (np.dtype(dtype).kind == "c")


def test_iscomplexobj_any_object():
    for obj in ([1, 2], [1j], 3.0, 1j, np.complex64(1), "str", None, object(), np.zeros(2, np.complex64)):
        assert npgpu.iscomplexobj(obj) is np.iscomplexobj(obj), obj
        assert npgpu.isrealobj(obj) is np.isrealobj(obj), obj
    with pytest.raises(ValueError):
        npgpu.iscomplexobj([[1], [1, 2]])  # NumPy's own error for a ragged list


def test_real_if_close(array_device):
    for dt in ("complex64", "complex128"):
        eps = np.finfo(np.dtype(dt)).eps
        for imag, tol in ((50 * eps, 100), (150 * eps, 100), (0.0, 100), (1e-3, 0.5), (0.6, 0.5), (-0.0, 1)):
            a = np.array([1.5 + 1j * imag, -2.0 + 0j], dt)
            want = np.real_if_close(a, tol=tol)
            got = npgpu.real_if_close(dev(a), tol=tol)
            check(got, want, device=array_device)
        check(npgpu.real_if_close(dev(np.zeros((0, 2), dt))), np.real_if_close(np.zeros((0, 2), dt)))
        check(npgpu.real_if_close(dev(np.array(1 + 0j, dt))), np.real_if_close(np.array(1 + 0j, dt)))
    x = dev(np.arange(3))
    assert npgpu.real_if_close(x) is x  # real input: the array itself, as NumPy
    check(npgpu.real_if_close(dev(np.array([np.nan + 0j]))), np.real_if_close(np.array([np.nan + 0j])))


@pytest.mark.parametrize("fn", ["nancumsum", "nancumprod"])
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint32", "int64", "float32", "float64", "complex128"])
def test_nancumsum_nancumprod(array_device, fn, dtype):
    a = sample(dtype)
    if dtype[0] in "fc":
        a = a.copy()
        a[a == np.inf], a[a == -np.inf] = 2, -3  # keep the products finite
        if dtype[0] == "c":
            a[::4] = complex(np.nan, 1)
        else:
            a[np.abs(a) > 1e3] = 0.5
    a = a.reshape(4, 5)
    rtol = 1e-6 if dtype == "float32" else 1e-12
    with np.errstate(all="ignore"):
        _close(getattr(npgpu, fn)(dev(a)), getattr(np, fn)(a), rtol)
        for axis in (0, 1, -1):
            _close(getattr(npgpu, fn)(dev(a), axis=axis), getattr(np, fn)(a, axis=axis), rtol)
        wide = np.complex128 if dtype[0] == "c" else np.float64
        _close(getattr(npgpu, fn)(dev(a), axis=1, dtype=wide), getattr(np, fn)(a, axis=1, dtype=wide), rtol)
        want = getattr(np, fn)(a, axis=0)
        out = dev(np.zeros(want.shape, want.dtype))
        assert getattr(npgpu, fn)(dev(a), axis=0, out=out) is out
        _close(out, want, rtol)
        _close(getattr(npgpu, fn)(dev(a[0, 0])), getattr(np, fn)(a[0, 0]), rtol)  # 0-d: 1-d result
        _close(getattr(npgpu, fn)(dev(a[0, 0]), axis=0), getattr(np, fn)(a[0, 0], axis=0), rtol)
        _close(getattr(npgpu, fn)(dev(a[:0]), axis=1), getattr(np, fn)(a[:0], axis=1))
    with pytest.raises(np.exceptions.AxisError):
        getattr(npgpu, fn)(dev(a), axis=2)


def test_nancumsum_nan_positions(array_device):
    a = np.array([np.nan, 1.0, np.nan, -0.0, np.inf, 2.0])
    with np.errstate(invalid="ignore"):  # -0.0 * inf
        check(npgpu.nancumsum(dev(a)), np.nancumsum(a))
        check(npgpu.nancumprod(dev(a)), np.nancumprod(a))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int64", "float32", "float64", "complex128"])
@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_matches_numpy(array_device, rng, dtype, edge_order):
    a = (rng.standard_normal((4, 5, 6)) * 20).astype(dtype) if dtype[0] in "fc" else \
        rng.integers(0, 100, (4, 5, 6)).astype(dtype)
    rtol = 1e-5 if dtype == "float32" else 1e-12
    x0 = np.array([0.0, 1.0, 3.0, 3.5])
    x2 = np.cumsum(rng.random(6)) + 1
    cases = [((), {}), ((2.0,), {}), ((np.float32(0.5),), {"axis": -1}), ((1.0, 2, 3.0), {}), ((), {"axis": 1}),
             ((), {"axis": (0, -1)}), ((x0, 2.0, x2), {}), ((x0,), {"axis": 0}), ((np.arange(6) * 3,), {"axis": 2})]
    for args, kw in cases:
        want = np.gradient(a, *args, edge_order=edge_order, **kw)
        got = npgpu.gradient(dev(a), *[dev(v) if isinstance(v, np.ndarray) else v for v in args],
                             edge_order=edge_order, **kw)
        if isinstance(want, np.ndarray):
            _close(got, want, rtol)
        else:
            assert type(got) is tuple and len(got) == len(want)
            for g, w in zip(got, want):
                _close(g, w, rtol)


def test_gradient_special_values_and_uniform_coordinates(array_device):
    # equal coordinate steps take NumPy's uniform formula: an inf in the middle does not leak into its neighbour
    f = np.array([1.0, np.inf, 3.0, np.nan, -0.0, 5.0, 6.0])
    with np.errstate(invalid="ignore"):
        for coords in (np.arange(7.0) * 0.5, np.array([0.0, 1, 2, 4, 5, 6, 8])):
            for eo in (1, 2):
                check(npgpu.gradient(dev(f), dev(coords), edge_order=eo), np.gradient(f, coords, edge_order=eo),
                      rtol=1e-15, zero_sign=False)
        check(npgpu.gradient(dev(f), dev(np.array(0.25))), np.gradient(f, np.array(0.25)), rtol=1e-15)
    assert npgpu.gradient(dev(np.array(1.0))) == np.gradient(np.array(1.0)) == ()


def test_gradient_errors(array_device):
    f = dev(np.ones((3, 4)))
    with pytest.raises(TypeError, match="invalid number of arguments"):
        npgpu.gradient(f, 1.0, 2.0, 3.0)
    with pytest.raises(ValueError, match="greater than 2"):
        npgpu.gradient(f, edge_order=3)
    with pytest.raises(ValueError, match="too small"):
        npgpu.gradient(dev(np.ones((2, 4))), edge_order=2)
    with pytest.raises(ValueError, match="too small"):
        npgpu.gradient(dev(np.ones((0, 4))))
    with pytest.raises(ValueError, match="must match the length"):
        npgpu.gradient(f, dev(np.arange(4.0)), axis=0)
    with pytest.raises(ValueError, match="scalars or 1d"):
        npgpu.gradient(f, dev(np.ones((3, 4))), axis=0)
    with pytest.raises(np.exceptions.AxisError):
        npgpu.gradient(f, axis=2)
    with pytest.raises(ValueError, match="repeated axis"):
        npgpu.gradient(f, axis=(0, 0))
    with pytest.raises(TypeError, match="boolean subtract"):
        npgpu.gradient(dev(np.array([True, False, True])))
    with pytest.raises(TypeError, match="cannot mix a host array"):
        npgpu.gradient(f, np.arange(3.0), 1.0)
    r = npgpu.gradient(np.arange(5.0) ** 2, 0.5)  # NumPy in, NumPy out
    assert type(r) is np.ndarray
    check(r, np.gradient(np.arange(5.0) ** 2, 0.5))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int64", "float32", "float64", "complex64"])
def test_ediff1d(array_device, dtype):
    a = sample(dtype)[:12].reshape(3, 4)
    with np.errstate(all="ignore"):
        check(npgpu.ediff1d(dev(a)), np.ediff1d(a), device=array_device)
        three = np.dtype(dtype).type(3)
        check(npgpu.ediff1d(dev(a), to_begin=three), np.ediff1d(a, to_begin=three))
        end = np.array([[1, 2]], np.int8 if dtype[0] in "ifc" else np.uint8)  # converted to a's dtype
        check(npgpu.ediff1d(dev(a), to_end=dev(end), to_begin=np.uint8(1)),
              np.ediff1d(a, to_end=end, to_begin=np.uint8(1)))
        check(npgpu.ediff1d(dev(a[:1, :1]), to_end=three), np.ediff1d(a[:1, :1], to_end=three))
        check(npgpu.ediff1d(dev(a[0, 0])), np.ediff1d(a[0, 0]))
        check(npgpu.ediff1d(dev(a[:0])), np.ediff1d(a[:0]))


def test_ediff1d_casts_and_errors(array_device):
    a = np.array([1, 2, 5], np.int8)
    check(npgpu.ediff1d(dev(a), to_begin=300), np.ediff1d(a, to_begin=300))  # NumPy's unsafe cast: 44
    with pytest.raises(TypeError, match="same_kind"):
        npgpu.ediff1d(dev(a), to_begin=1.5)
    with pytest.raises(TypeError, match="same_kind"):
        npgpu.ediff1d(dev(a), to_end=dev(np.array([1.5])))
    with pytest.raises(TypeError, match="boolean subtract"):
        npgpu.ediff1d(dev(np.array([True, False])))
    with pytest.raises(TypeError, match="cannot mix a host array"):
        npgpu.ediff1d(dev(a), to_end=np.array([1]))
    r = npgpu.ediff1d([1, 4, 9], to_begin=0)
    assert type(r) is np.ndarray
    check(r, np.ediff1d([1, 4, 9], to_begin=0))


@pytest.mark.parametrize("dtype", ["bool", "int8", "int32", "uint8", "float32", "float64"])
def test_unwrap(array_device, rng, dtype):
    if dtype == "bool":
        p = rng.random((4, 7)) < 0.5
    elif dtype[0] in "iu":
        p = rng.integers(0, 12, (4, 7)).astype(dtype)
    else:
        p = (rng.random((4, 7)) * 20 - 10).astype(dtype)
    rtol = 1e-5 if dtype == "float32" else 1e-12
    with np.errstate(all="ignore"):
        for kw in ({}, {"axis": 0}, {"axis": -1, "discont": 1.0}, {"period": 4}, {"period": 5, "axis": 0},
                   {"period": 3.5, "discont": 5.0}, {"period": 360}):
            try:
                want = np.unwrap(p, **kw)
            except OverflowError:  # -period/2 does not fit a narrow integer dtype: NumPy's error
                with pytest.raises(OverflowError, match="out of bounds"):
                    npgpu.unwrap(dev(p), **kw)
                continue
            _close(npgpu.unwrap(dev(p), **kw), want, rtol)


def test_unwrap_boundaries_and_errors(array_device):
    # differences of exactly period/2: their sign decides, as NumPy's correction does
    p = np.array([0.0, np.pi, 0.0, -np.pi, 2 * np.pi, 7.0, np.nan, 1.0, np.inf])
    with np.errstate(all="ignore"):
        check(npgpu.unwrap(dev(p)), np.unwrap(p), rtol=1e-15, zero_sign=False)
    q = np.array([0, 2, 0, -2, 4, 1], np.int16)
    check(npgpu.unwrap(dev(q), period=4), np.unwrap(q, period=4))
    check(npgpu.unwrap(dev(np.zeros((3, 0)))), np.unwrap(np.zeros((3, 0))))
    with pytest.raises(ValueError, match="at least one dimensional"):
        npgpu.unwrap(dev(np.array(1.0)))
    with pytest.raises(np.exceptions.AxisError):
        npgpu.unwrap(dev(np.ones((2, 3))), axis=2)
    r = npgpu.unwrap([0.0, 6.0, 12.5])
    assert type(r) is np.ndarray
    check(r, np.unwrap([0.0, 6.0, 12.5]))


NEW = ["angle", "fix", "sinc", "i0", "isneginf", "isposinf", "iscomplex", "isreal", "real_if_close", "nancumsum",
       "nancumprod", "gradient", "ediff1d", "unwrap"]


@pytest.mark.parametrize("fn", NEW)
def test_new_functions_numpy_in_numpy_out(fn):
    a = np.array([[0.5, -1.5, 2.0], [np.nan, -0.0, 7.0]])
    with np.errstate(all="ignore"):
        want = getattr(np, fn)(a)
        got = getattr(npgpu, fn)(a)
    if fn == "gradient":  # one array per axis
        assert type(got) is tuple and len(got) == 2
        got, want = got[1], want[1]
    assert type(got) is np.ndarray
    check(got, want)


@pytest.mark.parametrize("fn", NEW)
def test_new_functions_keep_device_and_0size(array_device, fn):
    a = np.zeros((0, 3))
    if fn in ("gradient", "unwrap", "ediff1d"):
        a = np.zeros((3, 3))
    with np.errstate(all="ignore"):
        want = getattr(np, fn)(a)
        got = getattr(npgpu, fn)(dev(a))
    got, want = (got, want) if isinstance(want, np.ndarray) else (got[0], want[0])
    check(got, want, device=array_device)


@pytest.mark.parametrize("fn", ["nancumsum", "nancumprod"])
def test_nan_scans_refuse_out_of_another_shape(array_device, fn):
    a = np.arange(4.0).reshape(2, 2)
    with pytest.raises(ValueError, match="out has shape"):  # NumPy 2.4 itself crashes here
        getattr(npgpu, fn)(a, out=np.array(1.5))
    out = np.zeros(4)
    assert getattr(npgpu, fn)(a, out=out) is out
    np.testing.assert_array_equal(out, getattr(np, fn)(a))
    with pytest.raises(ValueError):
        getattr(npgpu, fn)(dev(a), out=dev(np.array(1.5)))


@pytest.mark.parametrize("fn", ["angle", "sinc"])
def test_object_input_is_a_type_error(fn):
    for bad in (None, object(), 2**64, np.array([1, "a"], dtype=object)):
        with pytest.raises(TypeError, match="numbers are needed"):  # NumPy's own: an AttributeError
            getattr(npgpu, fn)(bad)
