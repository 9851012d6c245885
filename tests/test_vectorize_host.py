"""npgpu.vectorize on the host: NumPy inputs on the host backend and npgpu arrays on the host device ("cpu")
evaluate the translated expression with npgpu operations, with the types and rules of the C++ the GPU path
compiles (python/npgpu/_vectorize.py, _HostEval). Checked against numpy.vectorize of the same Python
function, or a NumPy expression of the same semantics where Python's differ (integer division by zero, integer
wrapping, float32 arithmetic); and, where a GPU is present, against the GPU path: bit for bit for arithmetic,
comparisons and selections, within a few epsilons for transcendental functions and powers (the GPU's
libdevice and the host's math library are different implementations)."""
import math

import numpy as np
import pytest

import npgpu

K = 3

# numpy.vectorize of the reference functions warns on NaN comparisons (npgpu's host path does not).
pytestmark = pytest.mark.filterwarnings("ignore:invalid value encountered in v_:RuntimeWarning")


def v_poly(x, y):
    return 3.0 * x * x - 2.0 * y + 1.0


def v_axpy(x, y):
    return x * y + 2.5


def v_div(a, b):
    return a / b


def v_floordivmod(a, b):
    return a // b + a % b * 3


def v_floordiv(a, b):
    return a // b


def v_mod(a, b):
    return a % b


def v_ipow(a, b):
    return a ** b


def v_square(x):
    return x ** 2 - x ** 3


def v_mixed(a, x):
    return a * 2.5 + x - a // 3


def v_branch(x, y):
    return x - y if x > y else (y - x) * 0.5


def v_range(x):
    return 0 < x <= 1 and not math.isnan(x)


def v_bool_or(x, y):
    return x > y or x < -1.0


def v_math(x):
    return math.exp(-x * x / 2) / math.sqrt(2 * math.pi) + math.atan2(x, 1.5) + math.log1p(abs(x))


def v_math2(x, y):
    return math.hypot(x, y) + math.fmod(x, y) + math.copysign(1.0, y) * math.sin(x) + math.log(abs(y) + 1, 2)


def v_minmax(x, y):
    return min(x, y, K) + max(x, y) * 2 + abs(x)


def v_np_minmax(x, y):
    return np.maximum(x, y) - np.minimum(x, y)


def v_toint(x):
    return math.floor(x) + round(x) * 10 + int(x) * 100 + math.ceil(x) * 1000


def v_pred(x):
    return math.isnan(x) or math.isinf(x)


def v_int8(x):
    return (x + 1) * 3 - x


def v_bits(a, b):
    return (a & 0xF) ^ (a >> 2) | (b << 3) ^ ~a


def v_bools(p, q):
    return p + q * 2 - (p ^ q)


def v_unary(x, p):
    return -x if not p else +x


def v_np_funcs(x):
    return np.where(x > 0, np.floor(x), np.float32(x)) + np.square(x)


def v_degrees(x):
    return math.degrees(x) + math.radians(x) + math.pi


def v_const(x):
    return 7


def v_special(x):
    return math.erf(x) + math.lgamma(abs(x) + 1)


@pytest.fixture
def host():
    with npgpu.use_backend("cpu"):
        yield


def _vals(rng, n=(40,)):
    x = rng.uniform(-4, 4, size=n)
    x.flat[:6] = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5]
    return x


def _ints(rng, n=200, lo=-100, hi=100, dtype=np.int64):
    return rng.integers(lo, hi, size=n).astype(dtype)


def test_float_arithmetic_matches_python(host, rng):
    x, y = _vals(rng, (5, 8)), _vals(rng, (8,))
    f = npgpu.vectorize(v_poly)
    r = f(x, y)
    assert isinstance(r, np.ndarray) and r.dtype == np.float64 and r.shape == (5, 8)
    np.testing.assert_array_equal(r, np.vectorize(v_poly, otypes=[np.float64])(x, y))
    b = npgpu.vectorize(v_branch)
    np.testing.assert_array_equal(b(x, y), np.vectorize(v_branch, otypes=[np.float64])(x, y))
    d = npgpu.vectorize(v_div)
    a, c = _ints(rng), _ints(rng)
    assert d(a, c).dtype == np.float64  # / of integers: float64
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(d(a, c), a.astype(np.float64) / c.astype(np.float64))
    s = npgpu.vectorize(v_square)
    np.testing.assert_array_equal(s(x), x * x - x ** 3)
    k = _ints(rng, 10, -5, 5)
    np.testing.assert_array_equal(s(k), np.vectorize(v_square, otypes=[np.int64])(k))


def test_float32_computes_in_float32(host, rng):
    x, y = _vals(rng).astype(np.float32), _vals(rng).astype(np.float32)
    r = npgpu.vectorize(v_axpy)(x, y)
    assert r.dtype == np.float32
    np.testing.assert_array_equal(r, x * y + np.float32(2.5))  # no float64 intermediate, no fused multiply-add
    r = npgpu.vectorize(v_poly)(x, 2)
    assert r.dtype == np.float32
    np.testing.assert_array_equal(r, np.float32(3.0) * x * x - np.float32(2.0) * np.float32(2) + np.float32(1.0))
    m = npgpu.vectorize(v_math)(x)
    assert m.dtype == np.float32
    np.testing.assert_allclose(m, np.vectorize(v_math, otypes=[np.float64])(x), rtol=2e-6, atol=2e-6)


def test_integer_floor_division_and_modulo_signs(host, rng):
    a = np.array([-7, 7, -7, 7, 0, 3, -1, 100, -100, 5, -5, 0], np.int64)
    b = np.array([2, -2, -2, 2, 5, -2, -3, 7, 7, 0, 0, 0], np.int64)
    nz = b != 0
    bs = np.where(nz, b, 1)
    np.testing.assert_array_equal(npgpu.vectorize(v_floordiv)(a, b), np.where(nz, a // bs, 0))  # x // 0 == 0
    np.testing.assert_array_equal(npgpu.vectorize(v_mod)(a, b), np.where(nz, a % bs, 0))
    np.testing.assert_array_equal(npgpu.vectorize(v_floordivmod)(a[nz], b[nz]),
                                  np.vectorize(v_floordivmod, otypes=[np.int64])(a[nz], b[nz]))
    for dt in (np.int8, np.int16, np.int32, np.uint8, np.uint32):
        x = _ints(rng, 300, -128 if np.dtype(dt).kind == "i" else 0, 127, dt)
        y = _ints(rng, 300, -9 if np.dtype(dt).kind == "i" else 0, 9, dt)
        nz = y != 0
        ys = np.where(nz, y, 1).astype(dt)
        r = npgpu.vectorize(v_floordivmod)(x, y)
        assert r.dtype == dt
        with np.errstate(all="ignore"):
            np.testing.assert_array_equal(r, np.where(nz, x // ys + (x % ys) * dt(3), 0).astype(dt))


def test_float_floor_division_and_modulo(host):
    x = np.array([-7.0, 7.0, -7.0, 7.0, -0.0, 0.0, 1.0, -1.0, 5.5, np.inf, np.nan, 1e300, -3.0])
    y = np.array([2.0, -2.0, -2.0, 2.0, 3.0, -3.0, 0.0, 0.0, -0.5, 2.0, 1.0, 1e-300, np.inf])
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(npgpu.vectorize(v_floordiv)(x, y), np.floor_divide(x, y))
        np.testing.assert_array_equal(npgpu.vectorize(v_mod)(x, y), np.remainder(x, y))
        # signed zeros too
        assert np.array_equal(np.signbit(npgpu.vectorize(v_floordiv)(x, y)), np.signbit(np.floor_divide(x, y)))
        assert np.array_equal(np.signbit(npgpu.vectorize(v_mod)(x, y)), np.signbit(np.remainder(x, y)))


def test_integer_power(host):
    a = np.array([2, 3, -2, -1, -1, 1, 0, 5, 7, 2, -1, 1, 2], np.int64)
    b = np.array([10, 3, 5, -3, -4, -7, 0, -1, 0, 62, 0, 63, 64], np.int64)
    exp = np.array([1024, 27, -32, -1, 1, 1, 1, 0, 1, 1 << 62, 1, 1, 0], np.int64)  # 2**64 wraps to 0
    np.testing.assert_array_equal(npgpu.vectorize(v_ipow)(a, b), exp)
    i8 = np.array([2, 3, -2, 3], np.int8)
    np.testing.assert_array_equal(npgpu.vectorize(v_ipow)(i8, np.array([7, 5, 7, -1], np.int8)),
                                  np.array([-128, -13, -128, 0], np.int8))  # wraps as int8


def test_mixed_int_float_and_promotion(host, rng):
    a, x = _ints(rng, 50).astype(np.int32), _vals(rng, (50,)).astype(np.float32)
    r = npgpu.vectorize(v_mixed)(a, x)
    assert r.dtype == np.result_type(a, x, 2.5) == np.float64
    np.testing.assert_array_equal(r, np.vectorize(v_mixed, otypes=[np.float64])(a, x))
    r = npgpu.vectorize(v_mixed)(a, 1)  # Python int: weak
    assert r.dtype == np.float64
    np.testing.assert_array_equal(r, np.vectorize(v_mixed, otypes=[np.float64])(a, 1))
    r = npgpu.vectorize(v_int8)(np.array([126, 127, -128, 0, 50], np.int8))
    assert r.dtype == np.int8
    i8 = np.array([126, 127, -128, 0, 50], np.int8)
    np.testing.assert_array_equal(r, (i8 + np.int8(1)) * np.int8(3) - i8)


def test_bool_results_and_boolean_operators(host, rng):
    x = np.concatenate([_vals(rng), [np.nan, np.inf, -np.inf, 1.0, 0.0]]) / 3
    r = npgpu.vectorize(v_range)(x)
    assert r.dtype == np.bool_
    np.testing.assert_array_equal(r, np.vectorize(v_range, otypes=[np.bool_])(x))
    y = _vals(rng, x.shape)
    np.testing.assert_array_equal(npgpu.vectorize(v_bool_or)(x, y),
                                  np.vectorize(v_bool_or, otypes=[np.bool_])(x, y))
    np.testing.assert_array_equal(npgpu.vectorize(v_pred)(x), np.isnan(x) | np.isinf(x))
    np.testing.assert_array_equal(npgpu.vectorize(v_pred)(np.arange(4)), np.zeros(4, bool))  # ints: False
    p, q = rng.random(20) < 0.5, rng.random(20) < 0.5
    r = npgpu.vectorize(v_bools)(p, q)
    assert r.dtype == np.int64  # arithmetic on booleans: int64 as in Python
    np.testing.assert_array_equal(r, np.vectorize(v_bools, otypes=[np.int64])(p, q))
    x = _vals(rng, (20,))
    np.testing.assert_array_equal(npgpu.vectorize(v_unary)(x, p), np.vectorize(v_unary, otypes=[np.float64])(x, p))


def test_math_functions(host, rng):
    x, y = _vals(rng, (60,)), _vals(rng, (60,))
    y[y == 0] = 0.25  # math.fmod raises for a zero divisor
    np.testing.assert_allclose(npgpu.vectorize(v_math)(x), np.vectorize(v_math, otypes=[np.float64])(x),
                               rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(npgpu.vectorize(v_math2)(x, y), np.vectorize(v_math2, otypes=[np.float64])(x, y),
                               rtol=1e-14, atol=1e-14)
    xn = np.concatenate([x, [np.nan, 1.0, np.nan]])
    yn = np.concatenate([y, [1.0, np.nan, np.nan]])
    # min/max as Python's builtins (the first argument wins unless the other is strictly smaller/greater, so
    # NaN propagates only from the first); numpy.minimum/maximum propagate NaN from either.
    np.testing.assert_array_equal(npgpu.vectorize(v_minmax)(xn, yn),
                                  np.vectorize(v_minmax, otypes=[np.float64])(xn, yn))
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(npgpu.vectorize(v_np_minmax)(xn, yn), np.maximum(xn, yn) - np.minimum(xn, yn))
    xi = np.concatenate([x, [2.5, -2.5, 0.5, 1.5, -0.5]])
    r = npgpu.vectorize(v_toint)(xi)
    assert r.dtype == np.int64  # math.floor/ceil, round(), int() give Python ints: int64
    np.testing.assert_array_equal(r, np.vectorize(v_toint, otypes=[np.int64])(xi))
    r = npgpu.vectorize(v_np_funcs)(x)
    assert r.dtype == np.float64
    np.testing.assert_array_equal(r, np.vectorize(v_np_funcs, otypes=[np.float64])(x))
    np.testing.assert_allclose(npgpu.vectorize(v_degrees)(x), np.vectorize(v_degrees, otypes=[np.float64])(x),
                               rtol=1e-15)
    pytest.importorskip("scipy")
    np.testing.assert_allclose(npgpu.vectorize(v_special)(x), np.vectorize(v_special, otypes=[np.float64])(x),
                               rtol=1e-14, atol=1e-15)


def test_bitwise_operators(host, rng):
    a, b = _ints(rng, 100, -1000, 1000, np.int32), _ints(rng, 100, -1000, 1000, np.int32)
    r = npgpu.vectorize(v_bits)(a, b)
    assert r.dtype == np.int32
    np.testing.assert_array_equal(r, (a & 0xF) ^ (a >> 2) | (b << 3) ^ ~a)
    np.testing.assert_array_equal(npgpu.vectorize(v_bits)(a.astype(np.int64), 5),
                                  np.vectorize(v_bits, otypes=[np.int64])(a.astype(np.int64), 5))


def test_float_to_int_conversions_saturate():
    # static_cast<long long>(x) of NaN or out-of-range values: the GPU's conversion saturates (NaN -> 0).
    with npgpu.use_backend("cpu"):
        r = npgpu.vectorize(v_toint)(np.array([np.nan, 1e300, -1e300]))
    assert r.dtype == np.int64 and r[0] == 0
    i8 = npgpu.vectorize(["int8(float64)"])(v_const_float)
    with npgpu.use_backend("cpu"):
        np.testing.assert_array_equal(i8(np.array([1.9, -1.9, 300.0, -300.0, np.nan])), [1, -1, 127, -128, 0])


def v_const_float(x):
    return x


def test_signatures(host):
    f32 = npgpu.vectorize(["float32(float32, float32)"])(v_poly)
    r = f32(np.ones(5, np.float32), np.float32(2))
    assert r.dtype == np.float32
    np.testing.assert_array_equal(r, np.full(5, 3.0 - 4.0 + 1.0, np.float32))
    add = npgpu.vectorize(["int64(int64, int64)"], target="cuda")(lambda x, y: x + y)
    r = add(np.arange(4), np.arange(16).reshape(4, 4))
    assert r.dtype == np.int64
    np.testing.assert_array_equal(r, np.arange(4) + np.arange(16).reshape(4, 4))
    with pytest.raises(TypeError, match="no signature matches"):
        f32(np.ones(3), np.ones(3))
    with pytest.raises(OverflowError, match="out of the range"):
        npgpu.vectorize(["int8(int8)"])(v_const_float)(1000)
    i64 = npgpu.vectorize(["int64(float64)"])(v_const_float)
    np.testing.assert_array_equal(i64(np.array([2.7, -2.7])), [2, -2])  # the declared result: truncation


def test_shapes_scalars_and_out(host, rng):
    f = npgpu.vectorize(v_poly)
    x, y = _vals(rng, (3, 1)), _vals(rng, (4,))
    np.testing.assert_array_equal(f(x, y), v_poly(x, y))
    s = f(1.5, 2)
    assert isinstance(s, np.float64) and s == v_poly(1.5, 2)  # all scalars: a NumPy scalar
    z = f(np.array(1.5), np.float64(2.0))
    assert isinstance(z, np.float64) and z == v_poly(1.5, 2.0)
    assert f(np.ones((0, 3)), np.ones(3)).shape == (0, 3)
    assert npgpu.vectorize(v_const)(np.ones((2, 3))).shape == (2, 3)  # a constant broadcasts to the inputs
    np.testing.assert_array_equal(npgpu.vectorize(v_const)(np.ones((2, 3))), np.full((2, 3), 7))
    out = np.full((3, 4), np.nan)
    assert f(x, y, out=out) is out
    np.testing.assert_array_equal(out, v_poly(x, y))
    out = np.empty(4)
    assert f(2.0, y, out=out) is out
    np.testing.assert_array_equal(out, v_poly(2.0, y))
    with pytest.raises(ValueError, match="broadcast shape"):
        f(x, y, out=np.empty((3, 5)))
    with pytest.raises(TypeError, match="float32"):
        f(x, y, out=np.empty((3, 4), np.float32))
    with pytest.raises(ValueError, match="broadcast"):
        f(np.ones(3), np.ones(4))
    ro = np.empty((3, 4))
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        f(x, y, out=ro)


def test_host_arrays_give_host_arrays(rng):
    f = npgpu.vectorize(v_branch)
    x, y = _vals(rng, (6, 5)), _vals(rng, (5,))
    hx, hy = npgpu.asarray(x, device="cpu"), npgpu.asarray(y, device="cpu")
    r = f(hx, hy)
    assert isinstance(r, npgpu.Array) and r.device == "cpu" and r.dtype == np.float64
    np.testing.assert_array_equal(np.asarray(r), np.vectorize(v_branch, otypes=[np.float64])(x, y))
    r = f(hx, 0.5)
    np.testing.assert_array_equal(np.asarray(r), np.vectorize(v_branch, otypes=[np.float64])(x, 0.5))
    out = npgpu.empty((6, 5), np.float64, device="cpu")
    assert f(hx, hy, out=out) is out
    np.testing.assert_array_equal(np.asarray(out), np.vectorize(v_branch, otypes=[np.float64])(x, y))
    s = f(npgpu.asarray(np.float64(3.0), device="cpu"), 1.0)
    assert isinstance(s, npgpu.Array) and s.shape == () and float(s) == 2.0
    assert f(hx[:0], hy).shape == (0, 5)
    assert np.asarray(f(hx, hy)).base is None or not np.shares_memory(np.asarray(f(hx, hy)), x)
    with pytest.raises(TypeError, match="NumPy array"):
        f(hx, y)
    # The host device is chosen by the arrays, whatever the backend of NumPy-input calls.
    with npgpu.use_backend("cpu"):
        assert isinstance(npgpu.vectorize(v_poly)(hx, hy), npgpu.Array)


def test_result_is_a_copy(host):
    ident = npgpu.vectorize(v_const_float)
    x = np.arange(4.0)
    r = ident(x)
    assert not np.shares_memory(r, x)
    np.testing.assert_array_equal(r, x)


# ------------------------------------------------------------------------------------------ against the GPU

ARITH = [(v_poly, 2, np.float64), (v_axpy, 2, np.float32), (v_branch, 2, np.float32), (v_floordivmod, 2, np.int16),
         (v_floordiv, 2, np.float64), (v_mod, 2, np.float32), (v_mixed, 2, np.int32), (v_range, 1, np.float64),
         (v_minmax, 2, np.float64), (v_np_minmax, 2, np.float32), (v_bits, 2, np.int64), (v_int8, 1, np.int8),
         (v_toint, 1, np.float64), (v_np_funcs, 1, np.float32), (v_div, 2, np.int64), (v_ipow, 2, np.int32),
         (v_pred, 1, np.float32)]
# x ** 3 is powf/pow (not correctly rounded on the GPU), so v_square is compared as the transcendental ones.
TRANSCENDENTAL = [(v_math, 1, np.float64), (v_math, 1, np.float32), (v_math2, 2, np.float64),
                  (v_degrees, 1, np.float32), (v_square, 1, np.float32)]


def _inputs(rng, nargs, dtype):
    dt = np.dtype(dtype)
    if dt.kind == "f":
        xs = [_vals(rng, (7, 9)).astype(dt), _vals(rng, (9,)).astype(dt)]
        xs[0].flat[7:10] = [np.nan, np.inf, -np.inf]
    else:
        info = np.iinfo(dt)
        xs = [_ints(rng, 63, max(info.min, -1000), min(info.max, 1000), dt).reshape(7, 9),
              _ints(rng, 9, -7, 7, dt)]
    return xs[:nargs]


@pytest.mark.parametrize("func,nargs,dtype", ARITH + TRANSCENDENTAL,
                         ids=[f"{f.__name__}-{np.dtype(d).name}" for f, _, d in ARITH + TRANSCENDENTAL])
def test_host_path_matches_device(array_device, rng, func, nargs, dtype):
    """On 'cuda' the GPU kernel; on 'cpu' the host path. Both are compared with the host path: exactly for
    arithmetic (the kernels are compiled with --fmad=false); for transcendental functions within a few
    units of the dtype's epsilon of the values' scale (each function is within a few ulp, and the sums of
    terms of opposite signs in v_math carry those errors into smaller results)."""
    xs = _inputs(rng, nargs, dtype)
    v = npgpu.vectorize(func)
    host = np.asarray(v(*[npgpu.asarray(x, device="cpu") for x in xs]))
    r = v(*[npgpu.asarray(x, device=array_device) for x in xs])
    assert isinstance(r, npgpu.Array) and str(r.device).startswith(array_device)
    dev = r.get()
    assert dev.dtype == host.dtype and dev.shape == host.shape
    if (func, nargs, dtype) in TRANSCENDENTAL:
        fin = np.isfinite(host)
        np.testing.assert_array_equal(np.isnan(dev), np.isnan(host))
        eps = np.finfo(dev.dtype).eps
        np.testing.assert_allclose(dev[fin], host[fin], rtol=16 * eps, atol=16 * eps * np.abs(host[fin]).max())
    else:
        np.testing.assert_array_equal(dev, host)
        if dev.dtype.kind == "f":  # signed zeros; not NaN's sign (x86 makes negative NaNs, the GPU positive)
            num = ~np.isnan(host)
            np.testing.assert_array_equal(np.signbit(dev[num]), np.signbit(host[num]))


def test_numpy_inputs_on_each_backend(backend, rng):
    x, y = _vals(rng, (4, 6)), _vals(rng, (6,))
    r = npgpu.vectorize(v_poly)(x, y)
    assert isinstance(r, np.ndarray)
    np.testing.assert_array_equal(r, np.vectorize(v_poly, otypes=[np.float64])(x, y))
    a, b = _ints(rng, 30), _ints(rng, 30, 1, 9) * np.where(rng.random(30) < 0.5, -1, 1)
    np.testing.assert_array_equal(npgpu.vectorize(v_floordivmod)(a, b),
                                  np.vectorize(v_floordivmod, otypes=[np.int64])(a, b))
