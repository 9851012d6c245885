"""The elementwise family beyond add (test_add.py covers add's paths in depth): every ufunc against NumPy
over every dtype pair, on both backends; NaN/inf inputs; broadcasting; device views; operators; fused
forms; the 32-bit index edges on the GPU."""
import warnings

import numpy as np
import pytest

import npgpu

gpu = pytest.mark.gpu
DTYPES = tuple(npgpu.SUPPORTED_DTYPES)

BINARY = ("add subtract multiply true_divide floor_divide remainder power maximum minimum hypot arctan2 equal "
          "not_equal less less_equal greater greater_equal logical_and logical_or logical_xor bitwise_and "
          "bitwise_or bitwise_xor left_shift right_shift").split()
UNARY = ("negative positive absolute sign square reciprocal sqrt cbrt exp expm1 exp2 log log1p log2 log10 sin "
         "cos tan arcsin arccos arctan sinh cosh tanh arcsinh arccosh arctanh floor ceil trunc rint isnan isinf "
         "isfinite logical_not invert conjugate").split()
# Ufuncs computed with the hardware's libm rather than exactly rounded operations: compared with a
# tolerance (CUDA's and NumPy's float32 functions are each within a few ulps).
TRANSCENDENTAL = set("true_divide power hypot arctan2 sqrt cbrt exp expm1 exp2 log log1p log2 log10 sin cos tan "
                     "arcsin arccos arctan sinh cosh tanh arcsinh arccosh arctanh reciprocal sign absolute".split())


def numpy_or_error(fn, *args):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(*args), None
        except (TypeError, ValueError, OverflowError) as e:  # NumPy's own subclasses -> the builtin base
            return None, next(t for t in (OverflowError, TypeError, ValueError) if isinstance(e, t))


def tolerance(dtype, name=""):
    dtype = np.dtype(dtype)
    if dtype.kind not in "fc":
        return 0.0
    size = dtype.itemsize // 2 if dtype.kind == "c" else dtype.itemsize
    if dtype.kind == "c" and size == 8:
        return 1e-10  # cuda::std's complex asin/acos lose a few more digits than NumPy's for |z| ~ 1e3
    return {2: 2e-3, 4: 2e-5, 8: 1e-12}[size]


def upcast_reference(ref, args):
    """NumPy's result computed in double precision and rounded to the single-precision result dtype: npgpu
    computes complex64 functions in double, more accurately than NumPy's float-precision ones."""
    wide = [a.astype({"F": np.complex128, "f": np.float64}.get(a.dtype.char, a.dtype)) for a in args]
    with np.errstate(all="ignore"):
        return ref(*wide)


def check_close(name, got, want, ref=None, args=()):
    assert got.dtype == want.dtype, f"{name}: dtype {got.dtype}, NumPy gives {want.dtype}"
    assert got.shape == want.shape, f"{name}: shape {got.shape}, NumPy gives {want.shape}"
    base = name.split("(")[0]
    # Complex products and quotients also round differently between implementations (fma or not).
    inexact = base in TRANSCENDENTAL or want.dtype.kind == "c"
    rtol = tolerance(want.dtype) if inexact else 0.0
    if base == "power" and want.dtype == np.complex64:
        rtol = 1e-3  # NumPy's float-precision cpow: its phase error grows as |b log a| * 6e-8 (up to ~1e3)
    if want.dtype == np.complex64 and base in TRANSCENDENTAL - {"power"} and ref is not None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = upcast_reference(ref, args).astype(np.complex64)
    if base == "power" and want.dtype.kind == "c":
        # An overflowing complex power is inf or NaN in its parts as the libm's cpow decides: both agree
        # it is not finite.
        assert np.array_equal(np.isfinite(got), np.isfinite(want)), f"{name}: finiteness differs"
        keep = np.isfinite(want)
        got, want = got[keep], want[keep]
    if want.dtype.kind in "fc" and rtol:
        parts = [(got.real, want.real), (got.imag, want.imag)] if want.dtype.kind == "c" else [(got, want)]
        mag = np.abs(want.astype(np.complex128))
        for g, w in parts:
            # Relative to the whole value where it is finite (a part may cancel to ~0), else to the part.
            scale = np.where(np.isfinite(mag), mag, np.abs(w))
            scale = np.maximum(scale, np.finfo(w.dtype).tiny)
            with np.errstate(all="ignore"):
                err = np.abs(g.astype(np.float64) - w.astype(np.float64)) / scale
            ok = (np.isnan(g) & np.isnan(w)) | (g == w) | (err <= rtol)
            bad = np.flatnonzero(~ok.ravel())
            assert bad.size == 0, (f"{name}: {bad.size} of {got.size} values off; first {got.ravel()[bad[0]]!r} "
                                   f"vs NumPy's {want.ravel()[bad[0]]!r}")
    else:
        assert np.array_equal(got, want, equal_nan=want.dtype.kind in "fc"), f"{name}: {got} vs NumPy's {want}"


def special_values(dtype, n):
    """Values that exercise edge cases: NaN, +-inf, +-0, tiny and huge (floats); extremes (ints)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        base = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-30, -1e30, 0.5, -2.5, 3.0, 7.25, -1.0])
    elif dtype.kind == "c":
        r = np.array([np.nan, np.inf, -np.inf, 0.0, 1.0, -2.5, 0.5, 3.0])
        base = r[:, None] + 1j * r[None, :]
    elif dtype.kind in "iu":
        info = np.iinfo(dtype)
        base = np.array([info.min, info.max, 0, 1, -1 if dtype.kind == "i" else 2, 7, 3])
    else:
        base = np.array([True, False])
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.resize(base.ravel().astype(dtype), n)


# ------------------------------------------------------------------------------ every ufunc, every dtype

@pytest.mark.parametrize("name", BINARY)
def test_binary_matches_numpy_for_every_dtype_pair(backend, random_array, name):
    fn, ref = getattr(npgpu, name), getattr(np, name)
    for da in DTYPES:
        a = random_array(37, da)
        for db in DTYPES:
            b = random_array(37, db)
            want, err = numpy_or_error(ref, a, b)
            if err is not None:
                with pytest.raises(err):
                    fn(a, b)
                continue
            check_close(f"{name}({da}, {db})", fn(a, b), want, ref, (a, b))


@pytest.mark.parametrize("name", UNARY)
def test_unary_matches_numpy_for_every_dtype(backend, random_array, name):
    fn, ref = getattr(npgpu, name), getattr(np, name)
    for dt in DTYPES:
        for a in (random_array(41, dt), special_values(dt, 41)):
            if name == "reciprocal" and np.dtype(dt).kind in "iu":
                a = a[a != 0]  # NumPy's 1 // 0 is whatever the CPU's float-to-int conversion gives
            if name in TRANSCENDENTAL and np.dtype(dt).kind == "c":
                a = a[np.isfinite(a)]  # at complex infinities C99 leaves signs and NaN-ness to the libm
            want, err = numpy_or_error(ref, a)
            if err is not None:
                with pytest.raises(err):
                    fn(a)
                continue
            check_close(f"{name}({dt})", fn(a), want, ref, (a,))


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "floor_divide", "remainder", "maximum",
                                  "minimum", "less", "equal", "power", "arctan2", "hypot", "true_divide"])
@pytest.mark.parametrize("dtype", ["int8", "int32", "uint64", "float32", "float64", "complex128"])
def test_binary_special_values(backend, name, dtype):
    a = special_values(dtype, 64)
    b = np.roll(special_values(dtype, 64), 5)
    fn, ref = getattr(npgpu, name), getattr(np, name)
    want, err = numpy_or_error(ref, a, b)
    if err is not None:
        with pytest.raises(err):
            fn(a, b)
        return
    if name == "power" and np.dtype(dtype).kind in "iu" and (b < 0).any():
        return  # negative integer exponents: NumPy raises, npgpu gives 0 (documented)
    if name in ("power",) and np.dtype(dtype).kind == "c":
        return  # complex power at infinities/NaNs: implementation-defined in C99, differs between libms
    check_close(name, fn(a, b), want, ref, (a, b))


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint32", "uint64"])
def test_shifts_out_of_range_counts_follow_numpy(backend, dtype):
    info = np.iinfo(dtype)
    bits = info.bits
    a = np.resize(np.array([info.min, info.max, 0, 1, 5, -3 if info.min else 3], dtype=dtype), 48)
    counts = [0, 1, bits - 1, bits, bits + 1, 2 * bits, info.max] + ([-1, -bits, info.min] if info.min else [])
    b = np.resize(np.array(counts, dtype=dtype), 48)
    for name in ("left_shift", "right_shift"):
        got = getattr(npgpu, name)(a, b)
        assert got.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(got, getattr(np, name)(a, b), err_msg=name)
    assert npgpu.bitwise_left_shift is npgpu.left_shift and npgpu.bitwise_right_shift is npgpu.right_shift
    with pytest.raises(TypeError):
        npgpu.left_shift(np.ones(3, np.float32), 1)
    np.testing.assert_array_equal(npgpu.left_shift(np.array([True, False]), 3), np.left_shift([True, False], 3))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_inverse_functions_for_large_and_small_arguments(backend, dtype):
    # Large |z| cancel every digit in log(iz + sqrt(1 - z^2)); near the branch points and 0 the formulas
    # must keep the small parts. Compared with NumPy in complex128.
    big = 1e16 if dtype == np.complex64 else 1e200
    z = np.array([5.58e16 + 2.718j, -4.48e16 - 1e-5j, big + 1j, -big * (1 + 1j), 1e5 + 1e5j, 1 + 1e-7j,
                  -1 - 1e-9j, 1e-8 + 1e-8j, 0.5 - 0.25j, 1j * big, 3e-20 - 2j, 2.0 + 0j, -2.0 - 0j],
                 dtype=dtype)
    for name in ("arcsin", "arccos", "arcsinh", "arccosh", "arctanh", "arctan"):
        got = getattr(npgpu, name)(z).astype(np.complex128)
        want = getattr(np, name)(z.astype(np.complex128))
        rtol = 1e-6 if dtype == np.complex64 else 1e-13
        scale = np.abs(want)
        for part in ("real", "imag"):
            g, w = getattr(got, part), getattr(want, part)
            assert np.all(np.abs(g - w) <= rtol * scale), (name, part, z, g, w)


def test_complex_tanh_and_inverse_functions_special_values(backend):
    nan, inf = np.nan, np.inf
    z = np.array([complex(0.0, inf), complex(-0.0, inf), complex(0.0, nan), complex(-0.0, -nan)])
    got = npgpu.tanh(z)
    assert np.array_equal(np.signbit(got.real), np.signbit(z.real)) and np.all(got.real == 0)
    assert np.all(np.isnan(got.imag))
    special = np.array([complex(inf, 1), complex(-inf, -1), complex(1, inf), complex(nan, 0), complex(0, nan),
                        complex(inf, inf), complex(nan, nan), 0j, complex(-0.0, 0.0)])
    for name in ("arcsin", "arccos", "arcsinh", "arccosh", "arctanh", "tanh"):
        with np.errstate(all="ignore"):
            want = getattr(np, name)(special)
        got = getattr(npgpu, name)(special)
        for part in ("real", "imag"):
            g, w = getattr(got, part), getattr(want, part)
            assert np.array_equal(np.isnan(g), np.isnan(w)), (name, part, g, w)
            keep = ~np.isnan(w)
            np.testing.assert_allclose(np.abs(g[keep]), np.abs(w[keep]), rtol=1e-12, err_msg=f"{name} {part}")


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_special_values_with_their_signs_as_numpy(backend, dtype):
    # Signs included (NaN parts compare as NaN): the branch cuts' signed zeros, exact roots on the axes, and
    # the infinities whose sign C99 leaves unspecified, as NumPy gives them.
    nan, inf = np.nan, np.inf
    z = np.array([complex(inf, nan), complex(-inf, nan), complex(nan, inf), complex(nan, -inf), complex(inf, inf),
                  complex(-inf, -inf), complex(nan, 0.0), complex(0.0, nan), complex(-4, 0.0), complex(-4, -0.0),
                  complex(-1, 0.0), complex(0.0, 9), complex(-9, -0.0), complex(4, 0.0)], dtype=dtype)
    for name in ("sqrt", "log1p", "arcsin", "arccos", "arcsinh", "arccosh"):
        with np.errstate(all="ignore"):
            want = getattr(np, name)(z)
        got = getattr(npgpu, name)(z)
        assert got.dtype == want.dtype
        for part in ("real", "imag"):
            g, w = getattr(got, part), getattr(want, part)
            assert np.array_equal(np.isnan(g), np.isnan(w)), (name, part, z, g, w)
            keep = ~np.isnan(w)
            assert np.array_equal(np.signbit(g[keep]), np.signbit(w[keep])), (name, part, z[keep], g[keep], w[keep])
            np.testing.assert_allclose(g[keep], w[keep], rtol=4 * np.finfo(g.dtype).eps, err_msg=f"{name} {part}")
    exact = npgpu.sqrt(np.array([complex(-4, 0.0), complex(-4, -0.0), complex(0.0, 2.0)], dtype=dtype))
    np.testing.assert_array_equal(exact, np.array([2j, -2j, 1 + 1j], dtype=dtype))


COMPLEX_UNARY = ["sqrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "sinh",
                 "cosh", "tanh", "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh", "reciprocal",
                 "square", "absolute", "sign", "isfinite", "isinf", "isnan"]


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_special_value_table_as_numpy(backend, dtype):
    # C99 Annex G's table for every complex unary function: each pair of parts from infinities, signed zeros,
    # NaN and finite values on both sides of 1 (where tanh and tan pick a zero's sign from sin(2y)): NaN
    # where NumPy has NaN, zeros and infinities with NumPy's signs, finite values close.
    parts = [-np.inf, -4.0, -2.5, -0.5, -0.0, 0.0, 0.5, 2.5, 4.0, np.inf, np.nan]
    z = np.array([complex(a, b) for a in parts for b in parts], dtype=dtype)
    rtol = 64 * np.finfo(dtype).eps  # finite values: the table is about the special ones
    for name in COMPLEX_UNARY:
        with np.errstate(all="ignore"):
            want = getattr(np, name)(z)
            got = getattr(npgpu, name)(z)
        assert got.dtype == want.dtype, name
        if want.dtype == bool:
            assert np.array_equal(got, want), (name, z[got != want])
            continue
        for part in ("real", "imag") if want.dtype.kind == "c" else ("real",):
            g, w = getattr(got, part), getattr(want, part)
            nan = np.isnan(w)
            assert np.array_equal(np.isnan(g), nan), (name, part, z[np.isnan(g) != nan], g[np.isnan(g) != nan])
            special = ~nan & ((w == 0) | np.isinf(w))
            wrong = special & ((g != w) | (np.signbit(g) != np.signbit(w)))
            assert not wrong.any(), (name, part, z[wrong], g[wrong], w[wrong])
            finite = ~nan & ~special
            np.testing.assert_allclose(g[finite], w[finite], rtol=rtol, err_msg=f"{name} {part}")


@pytest.mark.parametrize("name", ["exp", "log"])
def test_float32_exp_and_log_within_an_ulp_of_the_exact_value(backend, rng, name):
    # float32 over the whole range: results that overflow, underflow into subnormals or to zero, subnormal,
    # zero and negative arguments, the specials, and contiguous, strided and scalar operands (the host
    # backend's vector loop takes the first). CUDA documents expf to 2 ulp and logf to 1.
    edges = {"exp": [88.72283, 88.72284, -87.33655, -103.97208, -103.97209, 1e-30, 26.716946],
             "log": [1e-45, 1e-40, 1.1754942e-38, 1.4136421, 3.4028235e38, -1.0, -1e-45]}[name]
    spread = {"exp": rng.uniform(-110, 95, 1 << 16),
              "log": np.exp(rng.uniform(-103, 88, 1 << 16))}[name]
    x = np.concatenate([spread, [-np.inf, np.inf, np.nan, 0.0, -0.0], edges]).astype(np.float32)
    with np.errstate(all="ignore"):
        exact = getattr(np, name)(x.astype(np.float64))
    bound = {"cpu": 1.05, "cuda": {"exp": 2.0, "log": 1.0}[name]}[backend]
    f = getattr(npgpu, name)
    k = len(edges) + 5
    for got in (f(x), f(np.repeat(x, 2)[::2]), np.array([f(v) for v in x[-k:]])):
        want = exact[-got.size:]
        assert got.dtype == np.float32
        with np.errstate(over="ignore"):
            nearest = want.astype(np.float32)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
        big = np.isinf(nearest)  # within the bound of overflowing: inf, or FLT_MAX for a rounding below it
        np.testing.assert_array_equal(np.sign(got[big]), np.sign(nearest[big]))
        assert np.all(np.abs(got[big]) >= (np.inf if backend == "cpu" else np.finfo(np.float32).max))
        finite = np.isfinite(nearest)
        ulp = np.spacing(np.abs(nearest[finite])).astype(np.float64)
        assert np.max(np.abs(got[finite] - want[finite]) / ulp) <= bound


def test_integer_division_by_zero_and_overflow_follow_numpy(backend):
    a = np.array([7, -7, 0, np.iinfo(np.int32).min, 5], np.int32)
    b = np.array([0, 0, 0, -1, 0], np.int32)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(npgpu.floor_divide(a, b), np.floor_divide(a, b))
        np.testing.assert_array_equal(npgpu.remainder(a, b), np.remainder(a, b))
    np.testing.assert_array_equal(npgpu.floor_divide(np.int8(-128) * np.ones(3, np.int8), np.int8(-1)),
                                  np.full(3, -128, np.int8))


def test_negative_integer_scalar_exponent_raises(backend):
    with pytest.raises(ValueError, match="negative integer powers"):
        npgpu.power(np.arange(4), -1)


def test_python_scalars_are_weak_and_checked(backend, random_array):
    a8 = random_array(10, np.int8)
    assert npgpu.multiply(a8, 3).dtype == np.int8
    assert npgpu.add(random_array(10, np.float32), 2.5).dtype == np.float32
    assert npgpu.true_divide(a8, 2).dtype == np.float64
    assert npgpu.less(a8, 1000).dtype == np.bool_  # comparisons with an out-of-range int are fine
    with pytest.raises(OverflowError):
        npgpu.add(a8, 1000)


def test_broadcasting_shapes(backend, random_array):
    for sa, sb in [((3, 1, 5), (4, 1)), ((0, 3), (3,)), ((1,), (2, 3)), ((), (4,)), ((2, 0, 1), (1, 5))]:
        a, b = random_array(sa, np.float32), random_array(sb, np.int16)
        for name in ("subtract", "greater", "maximum"):
            got, want = getattr(npgpu, name)(a, b), getattr(np, name)(a, b)
            assert got.shape == want.shape and got.dtype == want.dtype
            np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match=r"broadcast together with shapes \(2, 3\) \(3, 2\)"):
        npgpu.multiply(np.ones((2, 3)), np.ones((3, 2)))
    c, x, y = random_array((5, 1, 1), np.bool_), random_array((4, 1), np.float32), random_array((3,), np.int8)
    np.testing.assert_array_equal(npgpu.where(c, x, y), np.where(c, x, y))  # three shapes


def test_out_casting_and_in_place(backend, random_array, poisoned):
    a, b = random_array((6, 7), np.float64), random_array((6, 7), np.float64)
    out = poisoned((6, 7), np.float32)
    assert npgpu.multiply(a, b, out=out) is out
    np.testing.assert_array_equal(out, np.multiply(a, b, dtype=np.float64).astype(np.float32))
    with pytest.raises(TypeError, match="same_kind"):
        npgpu.multiply(a, b, out=np.empty((6, 7), np.int64))
    c = a.copy()
    npgpu.subtract(c, b, out=c)
    np.testing.assert_array_equal(c, a - b)
    c = a.copy()
    npgpu.add(c[:, ::-1], c, out=c)  # overlapping reversed view: NumPy's semantics (inputs read first)
    np.testing.assert_array_equal(c, a[:, ::-1] + a)


def test_where_clip_axpy_astype(backend, random_array):
    c = random_array((5, 8), np.bool_)
    x, y = random_array((5, 8), np.float32), random_array((8,), np.int64)
    np.testing.assert_array_equal(npgpu.where(c, x, y), np.where(c, x, y))
    assert npgpu.where(c, x, 0).dtype == np.float32
    np.testing.assert_array_equal(npgpu.where(x > 0, x, 0.5), np.where(x > 0, x, np.float32(0.5)))
    z = x.copy()
    z[0, 0] = np.nan
    np.testing.assert_array_equal(npgpu.clip(z, -1, 2), np.clip(z, -1, 2))
    np.testing.assert_array_equal(npgpu.clip(z, None, 2), np.clip(z, None, 2))
    np.testing.assert_array_equal(npgpu.clip(y, np.full(8, -5), 7), np.clip(y, np.full(8, -5), 7))
    c = npgpu.clip(x, None, None)  # no bounds: a copy (NumPy 2 and the Array API standard)
    assert np.array_equal(np.asarray(c), np.asarray(x)) and c is not x
    yy = random_array(100, np.float64)
    xx = random_array(100, np.float64)
    want = yy + 0.5 * xx
    assert npgpu.axpy(0.5, xx, yy) is yy
    np.testing.assert_array_equal(yy, want)
    with pytest.raises(TypeError):
        npgpu.axpy(np.ones(3), xx, yy)
    np.testing.assert_array_equal(npgpu.astype(x, np.int16), x.astype(np.int16))


def test_float16_operands_compute_like_numpy(backend, random_array):
    h = random_array(200, np.float16)
    g = random_array(200, np.float16)
    for name in ("add", "multiply", "true_divide", "maximum", "less"):
        got, want = getattr(npgpu, name)(h, g), getattr(np, name)(h, g)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
    np.testing.assert_allclose(npgpu.sqrt(np.abs(h)), np.sqrt(np.abs(h)), rtol=1e-3)


def test_unsupported_inputs_raise(backend):
    with pytest.raises(TypeError, match="bitwise_and"):
        npgpu.bitwise_and(np.ones(3), np.ones(3))
    with pytest.raises(TypeError):
        npgpu.subtract(np.ones(3, bool), np.ones(3, bool))  # NumPy refuses boolean subtract too
    with pytest.raises(TypeError, match="dtype"):
        npgpu.sqrt(np.array(["a"]))


# ------------------------------------------------------------------------------ device arrays

@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("name", ["subtract", "true_divide", "power", "less_equal", "bitwise_or", "arctan2"])
def test_device_views_of_every_kind(random_array, name):
    dt = np.int32 if name == "bitwise_or" else np.float64
    a = random_array((64, 48), dt)
    b = random_array((48, 64), dt)
    if name == "power" and dt == np.float64:
        a = np.abs(a)
    da, db = npgpu.asarray(a), npgpu.asarray(b)
    fn, ref = getattr(npgpu, name), getattr(np, name)
    cases = [(da, db.T, a, b.T), (da[::-1, ::2], db.T[::-1, ::2], a[::-1, ::2], b.T[::-1, ::2]),
             (da[3], db[:, 5], a[3], b[:, 5]), (da[:, None, :7], db[:5, :7], a[:, None, :7], b[:5, :7]),
             (da, 3, a, 3)]
    for x, y, nx, ny in cases:
        got = fn(x, y)
        assert isinstance(got, npgpu.Array)
        check_close(name, got.get(), ref(nx, ny))


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("dt", [np.float32, np.complex64, np.int8, np.bool_, np.float64, np.complex128])
def test_device_transposed_operands(random_array, dt):
    # inputs that run down the other axis (the tiled kernel when both extents are >= 32), ragged tile edges,
    # stacked matrices, reversed axes, a broadcast row and a scalar beside them
    a, b = random_array((65, 97), dt), random_array((97, 65), dt)
    s3, t3 = random_array((3, 40, 50), dt), random_array((3, 50, 40), dt)
    row = random_array((97,), dt)
    da, db, ds3, dt3, drow = (npgpu.asarray(x) for x in (a, b, s3, t3, row))
    fn, ref = (npgpu.logical_xor, np.logical_xor) if dt == np.bool_ else (npgpu.subtract, np.subtract)
    cases = [(da, db.T, a, b.T), (db.T, da, b.T, a), (db.T, db.T, b.T, b.T), (da, db.T[::-1], a, b.T[::-1]),
             (ds3, dt3.transpose(0, 2, 1), s3, t3.transpose(0, 2, 1)), (db.T, drow, b.T, row),
             (db.T[:33, 1:], da[:33, 1:], b.T[:33, 1:], a[:33, 1:])]
    for x, y, nx, ny in cases:
        np.testing.assert_array_equal(fn(x, y).get(), ref(nx, ny))
    c = random_array((97, 65), np.bool_)
    dc = npgpu.asarray(c)
    np.testing.assert_array_equal(npgpu.where(dc.T, da, db.T).get(), np.where(c.T, a, b.T))
    if dt != np.bool_:
        np.testing.assert_array_equal(npgpu.negative(db.T).get(), np.negative(b.T))
        wide = np.complex128 if np.dtype(dt).kind == "c" else np.float64  # operands converted first
        np.testing.assert_array_equal(npgpu.add(da, db.T.astype(wide)).get(), np.add(a, b.T.astype(wide)))


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_complex_square_at_infinities_as_numpy(dt):
    # square is multiply(x, x), rounded as NumPy's loop: np.square(complex64(-1e30 + inf j)) is -inf - inf j
    parts = [0.0, -1.0, 2.5, -1e30, 1e200, np.inf, -np.inf, np.nan]
    z = np.array([complex(a, b) for a in parts for b in parts], dt)
    with np.errstate(all="ignore"):
        want = np.square(z)
    got = npgpu.square(npgpu.asarray(z)).get()
    np.testing.assert_array_equal(np.stack([got.real, got.imag]), np.stack([want.real, want.imag]))


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_complex_sin_cos_sinh_cosh_past_exp_overflow(dt):
    # NumPy's npymath (FreeBSD's csinh / ccosh): a zero part stays exact (sin(711j) is 0 + inf j) and a finite
    # product of exp(|x|) / 2 and a sine or cosine stays finite past exp's overflow (sin(0.5 + 711j) is
    # 1.4557e308 + inf j in complex128); signs from both parts.
    big = [0.0, -0.0, 0.5, -2.0, 3.0, 1e-300]
    large = [21.0, 23.0, 88.0, 90.0, 700.0, 709.5, 710.5, 711.0, 745.0, 1000.0, 1500.0]
    vals = [complex(s * a, b) for a in large for b in big for s in (1, -1)]
    z = np.array(vals + [complex(b, s * a) for a in large for b in big for s in (1, -1)], dt)
    d = npgpu.asarray(z)
    for name in ("sin", "cos", "sinh", "cosh"):
        with np.errstate(all="ignore"):
            want = getattr(np, name)(z)
        got = getattr(npgpu, name)(d).get()
        for part in ("real", "imag"):
            g, w = getattr(got, part), getattr(want, part)
            np.testing.assert_array_equal(np.isnan(g), np.isnan(w), err_msg=f"{name} {part} NaNs")
            np.testing.assert_array_equal(np.isinf(g), np.isinf(w), err_msg=f"{name} {part} infinities")
            fin = np.isfinite(w)
            np.testing.assert_allclose(g[fin], w[fin], rtol=1e-5 if dt == np.complex64 else 1e-12, atol=0,
                                       err_msg=f"{name} {part}")
            signed = (g != 0) & ~np.isnan(g)
            np.testing.assert_array_equal(np.signbit(g[signed]), np.signbit(w[signed]), err_msg=f"{name} {part}")


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_complex_ordered_comparisons_with_nan_parts_as_numpy(dt):
    # NumPy's CLT: unequal real parts decide only when neither imaginary part is NaN (less(0j, 1+nanj) is
    # False); equal real parts compare the imaginary parts (NaN: False). Every pair of the values below.
    parts = [-1.0, 0.0, 2.5, np.inf, np.nan]
    vals = np.array([complex(r, i) for r in parts for i in parts], dt)
    a, b = np.repeat(vals, vals.size), np.tile(vals, vals.size)
    da, db = npgpu.asarray(a), npgpu.asarray(b)
    for name in ("less", "less_equal", "greater", "greater_equal", "equal", "not_equal"):
        np.testing.assert_array_equal(getattr(npgpu, name)(da, db).get(), getattr(np, name)(a, b), err_msg=name)


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("dt", [np.float32, np.float64, np.complex128])
def test_extremum_ufuncs_at_signed_zeros_as_numpy(dt):
    # maximum / minimum give the second of equal float32 / float64 operands as NumPy's loops do
    # (maximum(-0.0, 0.0) is 0.0), the first of equal complex ones; clip keeps x at a bound equal to it.
    # Signs compared bit for bit. (NumPy's fmax / fmin and float16 choices vary with length and lanes:
    # docs/numpy-differences.md #25.)
    a = np.array([-0.0, 0.0, -0.0, 0.0, 1.0, np.nan] * 7, dt)  # long enough for NumPy's vector loops
    b = np.array([0.0, -0.0, -0.0, 0.0, 1.0, 0.0] * 7, dt)
    for name in ("maximum", "minimum"):
        for x, y in ((a, b), (b, a)):
            with np.errstate(invalid="ignore"):
                want = getattr(np, name)(x, y)
            got = getattr(npgpu, name)(npgpu.asarray(x), npgpu.asarray(y)).get()
            np.testing.assert_array_equal(got, want)
            assert np.array_equal(np.signbit(got.real), np.signbit(want.real)), (name, x, y, got, want)
            got = getattr(npgpu, name)(x, y)  # NumPy inputs
            assert np.array_equal(np.signbit(got.real), np.signbit(want.real)), (name, x, y, got, want)
    if dt != np.complex128:
        for x, lo, hi in ((-0.0, 0.0, 1.0), (0.0, -0.0, 1.0), (0.0, -1.0, -0.0), (-0.0, -1.0, 0.0)):
            want = np.clip(np.array([x], dt), lo, hi)
            got = npgpu.clip(npgpu.asarray(np.array([x], dt)), lo, hi).get()
            assert np.array_equal(np.signbit(got), np.signbit(want)), (x, lo, hi, got, want)


@pytest.mark.usefixtures("array_device")
def test_complex_multiply_rounds_each_part_once(rng):
    # NumPy's SIMD loop computes re = fma(ar, br, -(ai*bi)) and im = fma(ar, bi, ai*br); the exact
    # reference below rounds the same way (Fraction arithmetic is exact, float() rounds once).
    from fractions import Fraction as F
    a = rng.standard_normal(4000) * 10.0 ** rng.integers(-30, 30, 4000) + 1j * rng.standard_normal(4000)
    b = rng.standard_normal(4000) + 1j * rng.standard_normal(4000) * 10.0 ** rng.integers(-30, 30, 4000)
    want = np.array([complex(float(F(x.real) * F(y.real) - F(x.imag * y.imag)),
                             float(F(x.real) * F(y.imag) + F(x.imag * y.real))) for x, y in zip(a, b)])
    np.testing.assert_array_equal((npgpu.asarray(a) * npgpu.asarray(b)).get(), want)
    np.testing.assert_array_equal(npgpu.multiply(a, b), want)  # NumPy inputs, on the fixture's backend
    # a product whose parts overflow: the fused real part is -inf (inf - inf would be nan)
    for dt in (np.complex64, np.complex128):
        big = 1e30 if dt == np.complex64 else 1e300
        z = npgpu.asarray(np.array([big + big * 1j, 3 - 4j], dt))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # the overflow warning NumPy gives too
            got = (z * z).get()
        assert np.isneginf(got[0].real) and np.isposinf(got[0].imag), got[0]
        assert got[1] == -7 - 24j


@pytest.mark.usefixtures("array_device")
def test_device_unary_and_operators(random_array):
    a = random_array((33, 17), np.float32)
    b = random_array((33, 17), np.float32)
    da, db = npgpu.asarray(a), npgpu.asarray(b)
    pairs = [(da - db, a - b), (da * 2, a * 2), (2 / da, 2 / a), (da // db, a // b), (da % 3, a % 3),
             (abs(da) ** 0.5, abs(a) ** 0.5), (-da, -a), (da < db, a < b), (da >= 0.5, a >= 0.5),
             (da == da, a == a), (da != db, a != b), (+da, +a)]
    for got, want in pairs:
        assert isinstance(got, npgpu.Array)
        np.testing.assert_allclose(got.get(), want, rtol=1e-6)
    i = npgpu.asarray(np.arange(12, dtype=np.int32))
    np.testing.assert_array_equal((~i & 5 | 2 ^ i).get(), ~np.arange(12, dtype=np.int32) & 5 | 2 ^ np.arange(12))
    n = np.arange(12, dtype=np.int32)
    np.testing.assert_array_equal((i << 3).get(), n << 3)
    np.testing.assert_array_equal((i >> 1).get(), n >> 1)
    np.testing.assert_array_equal((2 << i).get(), 2 << n)
    np.testing.assert_array_equal((1024 >> i).get(), 1024 >> n)
    j = i.copy()
    j <<= 2
    j >>= 1
    np.testing.assert_array_equal(j.get(), (n << 2) >> 1)
    with pytest.raises(TypeError):
        da << 1
    c = da.copy()
    c += db
    c *= 2
    c -= 1
    c /= 4
    np.testing.assert_allclose(c.get(), ((a + b) * 2 - 1) / 4, rtol=1e-6)
    np.testing.assert_allclose(np.exp(da).get(), np.exp(a), rtol=1e-6)  # __array_ufunc__ stays on device
    assert isinstance(np.maximum(da, db), npgpu.Array)
    assert (da == None) is False  # noqa: E711 (falls back to identity, as Python does)


@pytest.mark.usefixtures("array_device")
def test_indexing_reshape_transpose_real_imag(random_array):
    a = random_array((4, 5, 6), np.complex64)
    d = npgpu.asarray(a)
    for key in [1, -1, (1, 2), slice(1, 3), (Ellipsis, 2), (None, 1, ..., None), (slice(None, None, -2), 0),
                (2, slice(4, 0, -1), slice(None, None, 3)), ()]:
        np.testing.assert_array_equal(d[key].get(), a[key])
    np.testing.assert_array_equal(d.reshape(20, 6).get(), a.reshape(20, 6))
    np.testing.assert_array_equal(d.reshape(-1, 3).get(), a.reshape(-1, 3))
    np.testing.assert_array_equal(d.T.get(), a.T)
    np.testing.assert_array_equal(d.transpose(1, 0, 2).get(), a.transpose(1, 0, 2))
    np.testing.assert_array_equal(d.T.reshape(-1).get(), a.T.reshape(-1))  # non-contiguous: a copy
    np.testing.assert_array_equal(d.ravel().get(), a.ravel())
    np.testing.assert_array_equal(d.real.get(), a.real)
    np.testing.assert_array_equal(d.imag.get(), a.imag)
    np.testing.assert_array_equal(d[:, 0].squeeze().get(), a[:, 0].squeeze())
    d.imag[...] = 7
    a.imag[...] = 7
    np.testing.assert_array_equal(d.get(), a)
    d[1:3, ::2] = npgpu.asarray(np.ones(6, np.float64))
    a[1:3, ::2] = 1
    np.testing.assert_array_equal(d.get(), a)
    d[0] = 2.5
    a[0] = 2.5
    np.testing.assert_array_equal(d.get(), a)
    d[1, 2, 3] = 4.5 - 1j  # a 0-d target takes a scalar
    a[1, 2, 3] = 4.5 - 1j
    np.testing.assert_array_equal(d.get(), a)
    with pytest.raises(IndexError):
        d[4]
    with pytest.raises(IndexError):
        d[0, 0, 0, 0]
    np.testing.assert_array_equal(d[np.array([0, 1])].get(), d.get()[np.array([0, 1])])  # advanced: a copy
    with pytest.raises(ValueError):
        d.reshape(7, -1)
    with pytest.raises(ValueError, match="broadcast"):
        d[0] = np.ones((2, 2))


@pytest.mark.usefixtures("array_device")
def test_device_errors_are_clear(random_array):
    d = npgpu.asarray(random_array(10, np.float32))
    with pytest.raises(TypeError, match="host array"):
        npgpu.add(d, np.ones(10, np.float32))
    with pytest.raises(ValueError, match="broadcast"):
        npgpu.add(d, npgpu.asarray(np.ones(3, np.float32)))
    with pytest.raises(TypeError, match="same_kind"):
        npgpu.add(d, d, out=npgpu.empty(10, np.int32))
    with pytest.raises(TypeError):
        npgpu.bitwise_and(d, d)


@pytest.mark.usefixtures("array_device")
def test_mixed_dtypes_and_strided_out_on_device(random_array):
    a = random_array((40, 50), np.int16)
    b = random_array((50,), np.float32)
    out = npgpu.full((50, 40), np.nan, np.float64)
    got = npgpu.multiply(npgpu.asarray(a), npgpu.asarray(b), out=out.T)
    np.testing.assert_array_equal(got.get(), np.multiply(a, b).astype(np.float64))
    np.testing.assert_array_equal(out.get(), np.multiply(a, b).astype(np.float64).T)


@gpu
@pytest.mark.slow
@pytest.mark.parametrize("n", [2**31 - 1, 2**31 + 1, 2**32 - 127])
def test_sizes_at_the_32_bit_edges(n):
    a = npgpu.full(n, 3, np.int8)
    b = npgpu.full(n, 4, np.int8)
    for idx, v in ((0, 5), (n // 2, -7), (n - 1, 11)):
        a[idx] = v
    c = npgpu.add(a, b)
    for idx, v in ((0, 9), (1, 7), (n // 2, -3), (n - 2, 7), (n - 1, 15)):
        assert int(c[idx]) == v, (n, idx)
    # The strided path too: every other element of a view, read in reverse.
    r = npgpu.multiply(a[::-2], 2)
    assert r.size == (n + 1) // 2
    assert int(r[0]) == 22 and int(r[-1]) == (10 if (n - 1) % 2 == 0 else 6)
    del a, b, c, r


@pytest.mark.parametrize("dtype", ["bool", "int8", "int32", "uint64", "float16", "float32", "float64",
                                   "complex64"])
def test_same_dtype_numpy_arrays_on_the_host_match_numpy(dtype):
    """The host backend's fast path (C-contiguous NumPy arrays of one dtype and shape, no out=): the result
    dtype and values of NumPy's own loop, read-only inputs accepted, every other case on the general path."""
    rng = np.random.default_rng(3)
    a = (rng.standard_normal((33, 31)) * 20).astype(dtype)
    b = (rng.standard_normal((33, 31)) * 20 + 1).astype(dtype)
    b.flags.writeable = False
    with npgpu.use_backend("cpu"), np.errstate(all="ignore"):
        for name in ("add", "subtract", "multiply", "true_divide", "less", "equal", "maximum", "logical_and",
                     "bitwise_and", "floor_divide", "power", "sqrt", "negative", "absolute", "logical_not",
                     "isnan", "exp", "square"):
            f, g = getattr(npgpu, name), getattr(np, name)
            args = (a,) if f.nin == 1 else (a, b)
            if name == "power" and a.dtype.kind == "i":  # b has negative values
                with pytest.raises(ValueError, match="negative integer powers"):
                    f(*args)
                continue
            if name == "power" and a.dtype.kind == "c":  # complex powers' precision: test_ufuncs
                continue
            try:
                want = g(*args)
            except TypeError:  # no loop for this dtype: npgpu refuses too
                with pytest.raises(TypeError):
                    f(*args)
                continue
            got = f(*args)
            assert type(got) is np.ndarray and got.dtype == want.dtype and got.shape == want.shape, name
            if name in ("exp", "sqrt", "true_divide", "power") and want.dtype.kind in "fc":
                np.testing.assert_allclose(got, want, rtol=2e-3 if want.dtype.itemsize <= 4 else 1e-12, err_msg=name)
            else:
                np.testing.assert_array_equal(got, want, err_msg=name)


def test_integer_power_with_an_empty_result_does_not_raise(backend):
    got = npgpu.power(np.int8([]), -1)
    assert got.dtype == np.int8 and got.shape == (0,)
    with pytest.raises(ValueError, match="negative integer powers"):
        npgpu.power(np.int8([2]), -1)
    # a Python int outside the loop's type is NumPy's first complaint
    with pytest.raises(OverflowError, match="128 out of bounds for int8"):
        npgpu.power(128, np.int8([-1]))
    with pytest.raises(OverflowError, match="out of bounds for int8"):
        npgpu.power(np.int8([0]), -129)



# Views built the same way from a NumPy array and from an npgpu.Array (so their strides agree): layouts whose
# result layout NumPy's order='K' decides.
LAYOUTS = {
    "fortran": lambda a: a.transpose(3, 2, 1, 0).copy().transpose(3, 2, 1, 0),
    "transposed": lambda a: a.transpose(2, 0, 3, 1),
    "reversed": lambda a: a[::-1, :, ::-1],
    "strided-fortran": lambda a: a.transpose(3, 2, 1, 0).copy().transpose(3, 2, 1, 0)[:, ::2],
    "fortran-3d": lambda a: a[0].transpose(2, 1, 0).copy().transpose(2, 1, 0),
}


def _base():
    return np.arange(2 * 3 * 4 * 5, dtype=np.float64).reshape(2, 3, 4, 5) / 7 - 3


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_results_keep_the_operands_memory_order(backend, layout):
    """order='K': a result's strides follow its operands' layout as NumPy's (NumPy inputs on each backend)."""
    x = LAYOUTS[layout](_base())
    c = np.ascontiguousarray(x) + 1
    cases = [(np.sin, (x,)), (np.add, (x, 2.5)), (np.multiply, (x, x)), (np.subtract, (x, c)),
             (np.subtract, (c, x)), (np.greater, (x, 0.0)), (np.add, (x[..., :1], x))]
    for uf, args in cases:
        want = uf(*args)
        got = getattr(npgpu, uf.__name__)(*args)
        assert got.strides == want.strides, (uf.__name__, layout, got.strides, want.strides)
        np.testing.assert_allclose(got, want, rtol=1e-15)  # sin: the GPU's differs in the last place


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_device_results_keep_the_operands_memory_order(layout):
    x = LAYOUTS[layout](_base())
    d = LAYOUTS[layout](npgpu.asarray(_base()))
    assert d.strides == x.strides
    c = np.ascontiguousarray(x) + 1
    dc = npgpu.asarray(c)
    for name, args, np_args in [("sin", (d,), (x,)), ("add", (d, 2.5), (x, 2.5)), ("multiply", (d, d), (x, x)),
                                ("subtract", (d, dc), (x, c)), ("subtract", (dc, d), (c, x)),
                                ("less", (d, 0.5), (x, 0.5))]:
        got = getattr(npgpu, name)(*args)
        want = getattr(np, name)(*np_args)
        assert got.strides == want.strides, (name, layout, got.strides, want.strides)
        np.testing.assert_allclose(got.get(), want, rtol=1e-15)
    got = d * d  # the operator's fast path
    assert got.strides == (x * x).strides
    np.testing.assert_array_equal(got.get(), x * x)
