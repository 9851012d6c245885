"""Elementwise and statistical functions composed of npgpu's ufuncs, scans and views, so they run on every
device, with NumPy 2's dtype rules: cumulative_sum/prod, diff, copysign, signbit, nextafter, logaddexp(2),
round/around, isclose/allclose, fmax/fmin, heaviside, fabs, float_power, deg2rad/rad2deg (radians/degrees),
and clip with both NumPy's and the Array API's keywords.

npgpu.Array operands give an npgpu.Array on their device. Calls with no npgpu.Array operand (NumPy arrays,
scalars) are NumPy's own function, NumPy in and NumPy out: composing them of npgpu's NumPy-input ufuncs would
move every intermediate to the GPU and back (``npgpu.asarray`` first to compute on the device). The
exceptions are clip and cumulative_sum/prod, one npgpu primitive each, which take NumPy inputs as npgpu's
ufuncs and scans do. An npgpu.Array beside a NumPy array is a TypeError, as for every npgpu function.
"""
import builtins

import numpy as np

from npgpu import _array, _elementwise, _reduce

__all__ = ["cumulative_sum", "cumulative_prod", "diff", "copysign", "signbit", "nextafter", "logaddexp",
           "logaddexp2", "round", "around", "isclose", "allclose", "fmax", "fmin", "heaviside", "fabs",
           "float_power", "deg2rad", "rad2deg", "degrees", "radians", "clip"]

_Array = _array.Array
_ew = _elementwise
# Array.view(dtype) under another name; without it signbit falls back to comparisons (see signbit).
_reinterpret = getattr(_array, "reinterpret", None)


def _is_numpy_call(name, *xs):
    """True when no operand is an npgpu.Array (NumPy's function answers); TypeError when an Array is mixed
    with a host array, which npgpu never moves implicitly."""
    if not builtins.any(isinstance(x, _Array) for x in xs):
        return True
    for x in xs:
        if isinstance(x, (np.ndarray, list, tuple)):
            raise TypeError(f"{name}: cannot mix a host array ({type(x).__name__}) with npgpu device arrays; "
                            "move it first with npgpu.asarray(x)")
    return False


def _loop_dtype(ufunc, *xs):
    """The dtype NumPy's `ufunc` computes in for these operands (Python scalars weak, as NEP 50); NumPy's
    TypeError where it has no loop."""
    key = tuple(type(x) if type(x) in (int, float, complex) else x.dtype if isinstance(x, _Array)
                else np.asarray(x).dtype for x in xs)
    return np.dtype(ufunc.resolve_dtypes(key + (None,) * ufunc.nout)[ufunc.nin])


def _cast(x, dt):
    """An Array in dtype `dt` (a conversion only where needed); scalars stay as they are (Python scalars
    weak, NumPy scalars strong, as in NumPy)."""
    return x.astype(dt) if isinstance(x, _Array) and x.dtype != dt else x


def _int_of(dt):
    return np.dtype(f"int{np.dtype(dt).itemsize * 8}")


def _power_of_ten(n):
    """10.0 ** n as NumPy's round computes it (a table to 1e8, then repeated multiplication), so the scale
    and therefore the result agree bit for bit."""
    if n < 9:
        return float(10 ** n)
    r = 1e9
    for _ in range(n - 9):
        r *= 10.0
    return r


def signbit(x, /):
    """True where the sign bit of `x` is set, -0.0 and NaNs with the sign bit included, as numpy.signbit
    (integers: ``x < 0``; complex input is a TypeError, as in NumPy)."""
    if _is_numpy_call("signbit", x):
        return np.signbit(x)
    _loop_dtype(np.signbit, x)  # NumPy's TypeError for complex
    if x.dtype.kind in "biu":
        return _ew.less(x, 0)
    if _reinterpret is not None:
        return _ew.less(_reinterpret(x, _int_of(x.dtype)), 0)
    # Without a reinterpreting view: 1/x tells -0.0 from 0.0, but a NaN's sign bit is lost (reads False).
    return _ew.where(_ew.equal(x, 0), _ew.less(_ew.reciprocal(x), 0), _ew.less(x, 0))


def copysign(x1, x2, /):
    """The magnitude of `x1` with the sign bit of `x2` (so -0.0 and negative NaNs count as negative), as
    numpy.copysign."""
    if _is_numpy_call("copysign", x1, x2):
        return np.copysign(x1, x2)
    dt = _loop_dtype(np.copysign, x1, x2)
    x1, x2 = _cast(x1, dt), _cast(x2, dt)
    mag = _ew.absolute(x1) if isinstance(x1, _Array) else np.abs(dt.type(x1))
    if not isinstance(x2, _Array):
        return _ew.negative(mag) if np.signbit(dt.type(x2)) else _ew.positive(mag)
    return _ew.where(signbit(x2), _ew.negative(mag), mag)


def nextafter(x1, x2, /):
    """The next representable value after `x1` towards `x2`, as numpy.nextafter: one step of the float's bit
    pattern read as an integer (float16: `x1` itself where equal, as NumPy's half version)."""
    if _is_numpy_call("nextafter", x1, x2):
        return np.nextafter(x1, x2)
    if _reinterpret is None:
        raise NotImplementedError("nextafter needs npgpu.Array reinterpreting views (npgpu._array.reinterpret)")
    dt = _loop_dtype(np.nextafter, x1, x2)
    it = _int_of(dt)
    device = (x1 if isinstance(x1, _Array) else x2).device
    shape = np.broadcast_shapes(*[np.shape(x) if not isinstance(x, _Array) else x.shape for x in (x1, x2)])
    a = _array.broadcast_to(_cast(x1, dt), shape) if isinstance(x1, _Array) else \
        _array.full(shape, x1, dtype=dt, device=device)
    b = _array.broadcast_to(_cast(x2, dt), shape) if isinstance(x2, _Array) else \
        _array.full(shape, x2, dtype=dt, device=device)
    # Sign-magnitude bits as a signed integer: +1 moves away from zero for either sign, -1 towards it.
    away = _ew.equal(_ew.greater(b, a), _ew.greater(a, 0))
    bits = _ew.add(_reinterpret(a.copy(), it), _ew.where(away, it.type(1), it.type(-1)))
    r = _reinterpret(bits, dt)
    tiny = _array.full(shape, np.finfo(dt).smallest_subnormal, dtype=dt, device=device)
    r = _ew.where(_ew.equal(a, 0), copysign(tiny, b), r)  # from ±0 the first step is the smallest subnormal
    r = _ew.where(_ew.equal(a, b), a if dt == np.float16 else b, r)
    return _ew.where(_ew.logical_or(_ew.isnan(a), _ew.isnan(b)), dt.type(np.nan), r)


def _logaddexp(ufunc, x1, x2, ln_of_1p, rescale, at_equal):
    # NumPy's form: max + log1p(exp(-|x1 - x2|)), and x + log(2) where x1 == x2 (equal infinities: no
    # inf - inf). float16 is computed in float32 and rounded once, as NumPy's half loop does.
    dt = _loop_dtype(ufunc, x1, x2)
    work = np.dtype(np.float32) if dt == np.float16 else dt
    x1, x2 = _cast(x1, work), _cast(x2, work)
    d = _ew.absolute(_ew.subtract(x1, x2))
    r = _ew.add(_ew.maximum(x1, x2), rescale(ln_of_1p(_ew.negative(d)), work))
    r = _ew.where(_ew.equal(x1, x2), _ew.add(x1, work.type(at_equal)), r)
    return _cast(r, dt)


def logaddexp(x1, x2, /):
    """``log(exp(x1) + exp(x2))`` without overflow or underflow, as numpy.logaddexp."""
    if _is_numpy_call("logaddexp", x1, x2):
        return np.logaddexp(x1, x2)
    return _logaddexp(np.logaddexp, x1, x2, lambda t: _ew.log1p(_ew.exp(t)), lambda v, dt: v, np.log(2.0))


def logaddexp2(x1, x2, /):
    """``log2(2**x1 + 2**x2)`` without overflow or underflow, as numpy.logaddexp2."""
    if _is_numpy_call("logaddexp2", x1, x2):
        return np.logaddexp2(x1, x2)
    # NumPy's log2_1p(t) = LOG2E * log1p(t), with LOG2E rounded to the working dtype.
    return _logaddexp(np.logaddexp2, x1, x2, lambda t: _ew.log1p(_ew.exp2(t)),
                      lambda v, dt: _ew.multiply(v, dt.type(1.4426950408889634)), 1.0)


def round(x, /, decimals=0, out=None):  # noqa: A001  (NumPy's and the standard's name)
    """`x` rounded to `decimals` decimal places, halves to even, as numpy.round: ``rint(x * 10**decimals) /
    10**decimals`` (negative decimals divide first), complex parts separately, integers unchanged for
    ``decimals >= 0`` and rounded through float64 otherwise; booleans give float16 for decimals=0 and a
    TypeError otherwise, as in NumPy. Always a new array (or `out`)."""
    if _is_numpy_call("round", x, out):
        return np.round(x, decimals, out=out)
    decimals = int(decimals)
    kind = x.dtype.kind
    if kind == "c":
        r = _array.empty(x.shape, dtype=x.dtype, device=x.device) if out is None else out
        for part in ("real", "imag"):
            getattr(r, part)[...] = round(getattr(x, part), decimals)
        return r
    if kind in "iu" and decimals >= 0:
        r = x.copy()
    elif decimals == 0:
        r = _ew.rint(x)
    elif kind == "b":
        raise TypeError("round: boolean arrays can only be rounded with decimals=0 (as NumPy)")
    else:
        with np.errstate(over="ignore"):  # float16 10**5 is inf, as in NumPy
            f = (np.dtype(np.float64) if kind in "iu" else x.dtype).type(_power_of_ten(builtins.abs(decimals)))
        scale, unscale = (_ew.multiply, _ew.true_divide) if decimals > 0 else (_ew.true_divide, _ew.multiply)
        r = unscale(_ew.rint(scale(x, f)), f)
        if kind in "iu":
            r = r.astype(x.dtype)  # NumPy's forced cast back to the integer dtype
    if out is None:
        return r
    out[...] = r
    return out


around = round


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Elementwise ``|a - b| <= atol + rtol * |b|`` where b is finite, or ``a == b`` (infinities equal only
    to themselves; NaNs equal when `equal_nan`), as numpy.isclose: b is first converted to
    ``result_type(b, 1.0)`` and the rest follows NumPy's promotion."""
    if _is_numpy_call("isclose", a, b):
        return np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
    # NumPy 2's formula, step by step, so its dtypes (and so its rounding) are NumPy's.
    if isinstance(b, _Array):
        b = _cast(b, np.result_type(b.dtype, 1.0))
        tol = _ew.add(atol, _ew.multiply(rtol, _ew.absolute(b)))
    else:
        if isinstance(b, np.generic):  # strong, as NumPy's 0-d array of it
            b = b.astype(np.result_type(b.dtype, 1.0))
        elif isinstance(b, int):
            b = float(b)
        tol = atol + rtol * builtins.abs(b)  # scalar arithmetic: a Python float tolerance stays weak
    within = _ew.less_equal(_ew.absolute(_ew.subtract(a, b)), tol)
    r = _ew.logical_or(_ew.logical_and(within, _ew.isfinite(b)), _ew.equal(a, b))
    if equal_nan:
        r = _ew.logical_or(r, _ew.logical_and(_ew.isnan(a), _ew.isnan(b)))
    return r


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether every element of `a` is close to `b` (see isclose), as a Python bool (one host
    synchronisation for device arrays)."""
    if _is_numpy_call("allclose", a, b):
        return builtins.bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))
    return builtins.bool(_reduce.all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


def _nan_ignoring(pick, x1, x2):
    m = pick(x1, x2)
    if m.dtype.kind not in "fc":
        return m
    # NaN only where both are; which zero of max(0.0, -0.0) is unspecified (NumPy itself differs by length).
    return _ew.where(_ew.isnan(x2), x1, _ew.where(_ew.isnan(x1), x2, m))


def fmax(x1, x2, /):
    """Elementwise maximum ignoring NaNs (NaN only where both are NaN), as numpy.fmax."""
    if _is_numpy_call("fmax", x1, x2):
        return np.fmax(x1, x2)
    return _nan_ignoring(_ew.maximum, x1, x2)


def fmin(x1, x2, /):
    """Elementwise minimum ignoring NaNs (NaN only where both are NaN), as numpy.fmin."""
    if _is_numpy_call("fmin", x1, x2):
        return np.fmin(x1, x2)
    return _nan_ignoring(_ew.minimum, x1, x2)


def heaviside(x1, x2, /):
    """The Heaviside step function: 0 where ``x1 < 0``, `x2` where ``x1 == 0``, 1 where ``x1 > 0``, NaN where
    x1 is NaN, as numpy.heaviside (integer inputs give floats)."""
    if _is_numpy_call("heaviside", x1, x2):
        return np.heaviside(x1, x2)
    dt = _loop_dtype(np.heaviside, x1, x2)
    x1, x2 = _cast(x1, dt), _cast(x2, dt) if isinstance(x2, _Array) else dt.type(x2)
    one, zero, nan = dt.type(1), dt.type(0), dt.type(np.nan)  # dtype-typed scalars: the result stays dt
    r = _ew.where(_ew.greater(x1, 0), one, nan)
    r = _ew.where(_ew.equal(x1, 0), x2, r)
    return _ew.where(_ew.less(x1, 0), zero, r)


def fabs(x, /):
    """Absolute values as floats, as numpy.fabs (integers give floats; complex input is a TypeError)."""
    if _is_numpy_call("fabs", x):
        return np.fabs(x)
    return _ew.absolute(_cast(x, _loop_dtype(np.fabs, x)))


def float_power(x1, x2, /):
    """`x1` ** `x2` computed in float64 (complex128 for complex operands), as numpy.float_power."""
    if _is_numpy_call("float_power", x1, x2):
        return np.float_power(x1, x2)
    dt = _loop_dtype(np.float_power, x1, x2)
    return _ew.power(_cast(x1, dt), _cast(x2, dt))


def _angle(ufunc, x, factor32, factor64):
    if _is_numpy_call(ufunc.__name__, x):
        return ufunc(x)
    dt = _loop_dtype(ufunc, x)
    if dt == np.float64:
        return _ew.multiply(_cast(x, dt), np.float64(factor64))
    # NumPy's float32 constant is computed in float32; float16 goes through float32 and is rounded once.
    r = _ew.multiply(_cast(x, np.dtype(np.float32)), factor32)
    return _cast(r, dt)


def deg2rad(x, /):
    """Degrees to radians, ``x * (pi / 180)`` with NumPy's constant per dtype, as numpy.deg2rad."""
    return _angle(np.deg2rad, x, np.float32(np.pi) / np.float32(180), np.pi / 180)


def rad2deg(x, /):
    """Radians to degrees, ``x * (180 / pi)`` with NumPy's constant per dtype, as numpy.rad2deg."""
    return _angle(np.rad2deg, x, np.float32(180) / np.float32(np.pi), 180 / np.pi)


def radians(x, /):
    """Degrees to radians: deg2rad."""
    return deg2rad(x)


def degrees(x, /):
    """Radians to degrees: rad2deg."""
    return rad2deg(x)


class _Unset:
    def __repr__(self):
        return "<no value>"


_UNSET = _Unset()  # a_min/a_max not given (None is a given "no bound")


def clip(x, /, min=None, max=None, out=None, *, a_min=_UNSET, a_max=_UNSET, stream=None):  # noqa: A002
    """`x` limited to [min, max] elementwise (NaNs propagate), as the Array API's clip and numpy.clip: bounds
    positionally (``clip(x, lo, hi)``, ``clip(x, lo)``), as the standard's ``min=``/``max=`` or as NumPy's
    ``a_min=``/``a_max=``; None is no bound. Python-int bounds beyond an integer dtype's range are dropped, as
    NumPy 2 does; without any bound the result is a copy of `x`."""
    if (a_min is not _UNSET and min is not None) or (a_max is not _UNSET and max is not None):
        raise ValueError("clip: give each bound once, as min/max (positionally or by keyword) or as a_min/a_max")
    lo = min if a_min is _UNSET else a_min
    hi = max if a_max is _UNSET else a_max
    if not isinstance(x, _Array):
        x = np.asarray(x)
    if x.dtype.kind in "iu":
        info = np.iinfo(x.dtype)
        if type(lo) is int and lo <= info.min:
            lo = None
        if type(hi) is int and hi >= info.max:
            hi = None
    if lo is None and hi is None:
        # positive(x): NumPy's copy, and its TypeError for booleans
        return _ew.positive(x, out=out, stream=stream)
    return _ew.clip(x, lo, hi, out=out, stream=stream)


def _cumulative(name, scan, neutral, x, axis, dtype, include_initial):
    if not isinstance(x, _Array):
        x = np.asarray(x)
    if x.ndim == 0:
        x = x.reshape(1)  # NumPy treats a 0-d input as 1-d
    if axis is None:
        if x.ndim > 1:
            raise ValueError(f"{name}: axis must be given for arrays of more than one dimension")
        axis = 0
    if not -x.ndim <= axis < x.ndim:
        raise np.exceptions.AxisError(axis, x.ndim)
    ax = axis % x.ndim
    r = scan(x, axis=ax, dtype=dtype)
    if not include_initial:
        return r
    shape = list(r.shape)
    shape[ax] += 1
    if isinstance(r, _Array):
        full = _array.full(tuple(shape), neutral, dtype=r.dtype, device=r.device)
    else:
        full = np.full(tuple(shape), neutral, dtype=r.dtype)
    full[(slice(None),) * ax + (slice(1, None),)] = r
    return full


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    """Cumulative sums along `axis` (optional for 1-D input), with a leading zero when `include_initial`:
    the Array API's cumulative_sum, NumPy 2.1's (integers accumulate in int64/uint64 unless `dtype`)."""
    return _cumulative("cumulative_sum", _reduce.cumsum, 0, x, axis, dtype, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    """Cumulative products along `axis` (optional for 1-D input), with a leading one when
    `include_initial`: the Array API's cumulative_prod, NumPy 2.1's."""
    return _cumulative("cumulative_prod", _reduce.cumprod, 1, x, axis, dtype, include_initial)


def diff(x, /, n=1, axis=-1, prepend=None, append=None):
    """The `n`-th discrete difference along `axis` (``x[1:] - x[:-1]``, repeated; ``!=`` for booleans), after
    joining `prepend`/`append` (an array, or a scalar broadcast to one slice), as numpy.diff and the
    standard's diff."""
    if _is_numpy_call("diff", x, prepend, append):
        kw = {k: v for k, v in (("prepend", prepend), ("append", append)) if v is not None}
        if isinstance(n, (int, np.integer)) and not isinstance(n, bool) and n > 0:
            # Past the length along the axis every further difference is empty: NumPy would loop n times.
            bound = builtins.sum(builtins.max(np.shape(v), default=1) for v in (x, prepend, append) if v is not None)
            n = builtins.min(int(n), bound)
        return np.diff(x, n=n, axis=axis, **kw)
    if not isinstance(x, _Array):
        raise TypeError(f"diff: x must be an npgpu.Array when prepend/append is one, not {type(x).__name__}")
    n = int(n)
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n!r}")
    if x.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    if not -x.ndim <= axis < x.ndim:
        raise np.exceptions.AxisError(axis, x.ndim)
    if n == 0:
        return x  # NumPy returns its input unchanged, prepend and append ignored
    ax = axis % x.ndim
    parts = [_edge(v, x, ax) for v in (prepend,) if v is not None] + [x] + \
        [_edge(v, x, ax) for v in (append,) if v is not None]
    if len(parts) > 1:
        from npgpu._manipulation import concatenate
        x = concatenate(parts, axis=ax)
    hi = (slice(None),) * ax + (slice(1, None),)
    lo = (slice(None),) * ax + (slice(None, -1),)
    for _ in range(builtins.min(n, x.shape[ax])):  # past the length every difference is empty
        x = _ew.not_equal(x[hi], x[lo]) if x.dtype.kind == "b" else _ew.subtract(x[hi], x[lo])
    return x


def _edge(v, x, ax):
    """diff's prepend/append as an Array on x's device: a scalar becomes a 0-d array of NumPy's default dtype
    for it (as np.asanyarray) broadcast to one slice along `ax`."""
    if not isinstance(v, _Array):
        v = _array.asarray(v, device=x.device)  # a scalar: _is_numpy_call refused host arrays
    if v.ndim == 0:
        shape = list(x.shape)
        shape[ax] = 1
        v = _array.broadcast_to(v, tuple(shape))
    return v
