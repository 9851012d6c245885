"""Elementwise and statistical functions composed of npgpu's ufuncs, scans and views, so they run on every
device, with NumPy 2's dtype rules: cumulative_sum/prod, diff, copysign, signbit, nextafter, logaddexp(2),
round/around, isclose/allclose, fmax/fmin, heaviside, fabs, float_power, deg2rad/rad2deg (radians/degrees),
clip with both NumPy's and the Array API's keywords, and NumPy's angle, fix, sinc, i0, isposinf/isneginf,
iscomplex/isreal(obj), real_if_close, nancumsum/nancumprod, gradient, ediff1d and unwrap.

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
           "float_power", "deg2rad", "rad2deg", "degrees", "radians", "clip", "angle", "fix", "sinc", "i0",
           "isneginf", "isposinf", "iscomplex", "isreal", "iscomplexobj", "isrealobj", "real_if_close",
           "nancumsum", "nancumprod", "gradient", "ediff1d", "unwrap"]

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


def _cumulative(name, scan, neutral, x, axis, dtype, include_initial, out=None):
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
    if out is not None:
        # NumPy's way: the scan writes after the leading neutral element, whose slot is set here.
        if not include_initial:
            return scan(x, axis=ax, dtype=dtype, out=out)
        if np.ndim(out) != x.ndim:
            raise ValueError(f"{name}: out has {np.ndim(out)} dimensions, the result {x.ndim}")
        scan(x, axis=ax, dtype=dtype, out=out[(slice(None),) * ax + (slice(1, None),)])
        out[(slice(None),) * ax + (slice(0, 1),)] = neutral
        return out
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


def cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """Cumulative sums along `axis` (optional for 1-D input), with a leading zero when `include_initial`:
    the Array API's cumulative_sum, NumPy 2.1's (integers accumulate in int64/uint64 unless `dtype`; `out` as
    cumsum's)."""
    return _cumulative("cumulative_sum", _reduce.cumsum, 0, x, axis, dtype, include_initial, out)


def cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """Cumulative products along `axis` (optional for 1-D input), with a leading one when
    `include_initial`: the Array API's cumulative_prod, NumPy 2.1's (`out` as cumprod's)."""
    return _cumulative("cumulative_prod", _reduce.cumprod, 1, x, axis, dtype, include_initial, out)


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


def _numeric_host(name, x):
    """`x` as a NumPy array of numbers: NumPy's functions written in Python fail with an AttributeError on
    object arrays (None, a Python int beyond 64 bits), a TypeError here."""
    a = np.asanyarray(x)
    if a.dtype.kind not in "biufc":
        raise TypeError(f"{name}: unsupported input of dtype {a.dtype} (numbers are needed)")
    return a


def angle(z, deg=False):
    """The counterclockwise angle of complex numbers from the positive real axis, as numpy.angle.

    ``arctan2(z.imag, z.real)``, so the zeros follow arctan2's convention (``angle(-0.0)`` is pi); real input
    is ``arctan2(0, z)``.

    Parameters
    ----------
    z : npgpu.Array or array_like
        Complex or real values.
    deg : bool, optional
        Degrees instead of radians (default False).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        The angles in (-pi, pi]: the real dtype of a complex `z`; for real `z` the dtype of ``arctan2(0, z)``
        (float64 for bool and 64- or 32-bit integers, float16 for 8-bit ones, as NumPy).

    Raises
    ------
    TypeError
        Input that is not numbers (NumPy's own angle raises AttributeError for object arrays).

    See Also
    --------
    arctan2, absolute

    Examples
    --------
    >>> npgpu.angle(npgpu.asarray([1.0, 1j, -1 - 1j, -0.0], device="cpu"))
    Array([ 0.        ,  1.57079633, -2.35619449,  3.14159265])
    >>> npgpu.angle(npgpu.asarray([1 + 1j], device="cpu"), deg=True)
    Array([45.])
    """
    if _is_numpy_call("angle", z):
        return np.angle(_numeric_host("angle", z), deg=deg)
    if z.dtype.kind == "c":
        a = _ew.arctan2(_ew.imag(z), _ew.real(z))
    else:
        a = _ew.arctan2(0, z)  # a weak 0, as NumPy's: the dtype is z's
    if deg:
        a = _ew.multiply(a, 180 / np.pi)  # NumPy's in-place ``a *= 180 / pi``: a's dtype kept
    return a


def fix(x, out=None):
    """Round to the nearest integer towards zero, as numpy.fix (which is numpy.trunc in NumPy 2).

    Parameters
    ----------
    x : npgpu.Array or array_like
        Real values; integers and booleans are returned as they are (in a new array).
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result (an npgpu.Array for an npgpu.Array `x`); it is returned.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Of x's dtype; `out` when given.

    Raises
    ------
    TypeError
        Complex `x`; `out` of a dtype the result cannot be cast to; a host `out` beside an npgpu.Array.

    See Also
    --------
    trunc, floor, ceil, rint

    Examples
    --------
    >>> npgpu.fix(npgpu.asarray([2.1, 2.9, -2.1, -2.9, -0.5], device="cpu"))
    Array([ 2.,  2., -2., -2., -0.])
    """
    if _is_numpy_call("fix", x, out):
        return np.fix(x, out=out)
    return _ew.trunc(x, out=out)


def sinc(x):
    """The normalized sinc function ``sin(pi x) / (pi x)``, 1 at 0, as numpy.sinc.

    As NumPy, zeros of ``pi * x`` are replaced by the dtype's epsilon (1e-20 for complex) before dividing.

    Parameters
    ----------
    x : npgpu.Array or array_like
        Real or complex values.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Of the dtype of ``pi * x`` (float64 for integers and bool, x's for floats and complex).

    Raises
    ------
    TypeError
        Input that is not numbers (NumPy's own sinc raises AttributeError for object arrays).

    See Also
    --------
    sin

    Examples
    --------
    >>> npgpu.sinc(npgpu.asarray([0.0, 0.5, 1.0, -1.5], device="cpu"))
    Array([ 1.        ,  0.63661977,  0.        , -0.21220659])
    """
    if _is_numpy_call("sinc", x):
        return np.sinc(_numeric_host("sinc", x))
    x = _ew.multiply(np.pi, x)
    eps = np.finfo(x.dtype).eps if x.dtype.kind == "f" else 1e-20
    y = _ew.where(_ew.not_equal(x, 0), x, eps)
    return _ew.true_divide(_ew.sin(y), y)


# Chebyshev coefficients of exp(-x) I0(x) on [0, 8] and of exp(-x) sqrt(x) I0(x) on (8, inf), NumPy's (Cephes').
_I0A = [-4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,
        1.71539128555513303061E-15, -1.16853328779934516808E-14, 7.67618549860493561688E-14,
        -4.85644678311192946090E-13, 2.95505266312963983461E-12, -1.72682629144155570723E-11,
        9.67580903537323691224E-11, -5.18979560163526290666E-10, 2.65982372468238665035E-9,
        -1.30002500998624804212E-8, 6.04699502254191894932E-8, -2.67079385394061173391E-7,
        1.11738753912010371815E-6, -4.41673835845875056359E-6, 1.64484480707288970893E-5,
        -5.75419501008210370398E-5, 1.88502885095841655729E-4, -5.76375574538582365885E-4,
        1.63947561694133579842E-3, -4.32430999505057594430E-3, 1.05464603945949983183E-2,
        -2.37374148058994688156E-2, 4.93052842396707084878E-2, -9.49010970480476444210E-2,
        1.71620901522208775349E-1, -3.04682672343198398683E-1, 6.76795274409476084995E-1]
_I0B = [-7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
        3.46122286769746109310E-17, -2.82762398051658348494E-16, -3.42548561967721913462E-16,
        1.77256013305652638360E-15, 3.81168066935262242075E-15, -9.55484669882830764870E-15,
        -4.15056934728722208663E-14, 1.54008621752140982691E-14, 3.85277838274214270114E-13,
        7.18012445138366623367E-13, -1.79417853150680611778E-12, -1.32158118404477131188E-11,
        -3.14991652796324136454E-11, 1.18891471078464383424E-11, 4.94060238822496958910E-10,
        3.39623202570838634515E-9, 2.26666899049817806459E-8, 2.04891858946906374183E-7,
        2.89137052083475648297E-6, 6.88975834691682398426E-5, 3.36911647825569408990E-3,
        8.04490411014108831608E-1]


def _chbevl(x, vals):
    # NumPy's Clenshaw recurrence step for step (the coefficients weak Python floats), so float32 and float16
    # round as NumPy's does.
    b0, b1, b2 = vals[0], 0.0, 0.0
    for v in vals[1:]:
        b2, b1 = b1, b0
        b0 = _ew.add(_ew.subtract(_ew.multiply(x, b1), b2), v)
    return _ew.multiply(_ew.subtract(b0, b2), 0.5)


def i0(x):
    """The modified Bessel function of the first kind, order 0, as numpy.i0.

    NumPy's algorithm (Clenshaw's recurrence on Cephes' Chebyshev series for ``|x| <= 8`` and beyond), both
    series evaluated everywhere and the right one selected per element.

    Parameters
    ----------
    x : npgpu.Array or array_like
        Real values.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Of x's float dtype (float64 for integers and bool). Infinities and NaNs give NaN, as NumPy.

    Raises
    ------
    TypeError
        Complex `x` (as NumPy).

    See Also
    --------
    exp

    Examples
    --------
    >>> npgpu.i0(npgpu.asarray([0.0, 1.0, -2.5, 10.0], device="cpu"))
    Array([   1.        ,    1.26606588,    3.28983914, 2815.71662847])
    """
    if _is_numpy_call("i0", x):
        return np.i0(x)
    if x.dtype.kind == "c":
        raise TypeError("i0 not supported for complex values")
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    x = _ew.absolute(x)
    small = _ew.multiply(_ew.exp(x), _chbevl(_ew.subtract(_ew.true_divide(x, 2.0), 2), _I0A))
    large = _ew.true_divide(_ew.multiply(_ew.exp(x), _chbevl(_ew.subtract(_ew.true_divide(32.0, x), 2.0), _I0B)),
                            _ew.sqrt(x))
    return _ew.where(_ew.less_equal(x, 8.0), small, large)


def _isinf_signed(name, x, out, negative):
    if _is_numpy_call(name, x, out):
        return getattr(np, name)(x, out)
    if x.dtype.kind == "c":
        raise TypeError(f"This operation is not supported for {x.dtype} values because it would be ambiguous.")
    sign = signbit(x)
    return _ew.logical_and(_ew.isinf(x), sign if negative else _ew.logical_not(sign), out=out)


def isposinf(x, out=None):
    """True where `x` is positive infinity, as numpy.isposinf.

    Parameters
    ----------
    x : npgpu.Array or array_like
        Real values (integers and booleans are never infinite).
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result (of a numeric dtype: 0 and 1); it is returned.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Booleans of x's shape; `out` when given.

    Raises
    ------
    TypeError
        Complex `x` (ambiguous, as NumPy); a host `out` beside an npgpu.Array.

    See Also
    --------
    isneginf, isinf, isfinite, isnan

    Examples
    --------
    >>> npgpu.isposinf(npgpu.asarray([-np.inf, 0.0, np.inf, np.nan], device="cpu"))
    Array([False, False,  True, False])
    """
    return _isinf_signed("isposinf", x, out, negative=False)


def isneginf(x, out=None):
    """True where `x` is negative infinity, as numpy.isneginf.

    Parameters
    ----------
    x : npgpu.Array or array_like
        Real values (integers and booleans are never infinite).
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result (of a numeric dtype: 0 and 1); it is returned.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Booleans of x's shape; `out` when given.

    Raises
    ------
    TypeError
        Complex `x` (ambiguous, as NumPy); a host `out` beside an npgpu.Array.

    See Also
    --------
    isposinf, isinf, isfinite, isnan

    Examples
    --------
    >>> npgpu.isneginf(npgpu.asarray([-np.inf, 0.0, np.inf, np.nan], device="cpu"))
    Array([ True, False, False, False])
    """
    return _isinf_signed("isneginf", x, out, negative=True)


def iscomplex(x):
    """True where an element has a nonzero imaginary part, as numpy.iscomplex.

    Parameters
    ----------
    x : npgpu.Array or array_like
        Input values.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Booleans of x's shape: all False for a real dtype.

    See Also
    --------
    isreal, iscomplexobj

    Examples
    --------
    >>> npgpu.iscomplex(npgpu.asarray([1 + 1j, 1 + 0j, 4.5 - 0j], device="cpu"))
    Array([ True, False, False])
    """
    if _is_numpy_call("iscomplex", x):
        return np.iscomplex(x)
    if x.dtype.kind == "c":
        return _ew.not_equal(_ew.imag(x), 0)
    return _array.zeros(x.shape, dtype=np.bool_, device=x.device)


def isreal(x):
    """True where an element's imaginary part is zero, as numpy.isreal.

    Parameters
    ----------
    x : npgpu.Array or array_like
        Input values.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Booleans of x's shape: all True for a real dtype.

    See Also
    --------
    iscomplex, isrealobj

    Examples
    --------
    >>> npgpu.isreal(npgpu.asarray([1 + 1j, 1 + 0j, 4.5 - 0j], device="cpu"))
    Array([False,  True,  True])
    """
    if _is_numpy_call("isreal", x):
        return np.isreal(x)
    if x.dtype.kind == "c":
        return _ew.equal(_ew.imag(x), 0)
    return _array.full(x.shape, True, dtype=np.bool_, device=x.device)


def _complex_type(x):
    # NumPy's rule: the dtype of anything with one (npgpu.Array included: no data is read), else of
    # numpy.asarray(x). np.iscomplexobj itself would dispatch an npgpu.Array back here.
    try:
        type_ = x.dtype.type
    except AttributeError:
        type_ = np.asarray(x).dtype.type
    return issubclass(type_, np.complexfloating)


def iscomplexobj(x):
    """Whether `x` has a complex dtype, whatever its values, as numpy.iscomplexobj.

    Parameters
    ----------
    x : any
        An object with a ``dtype`` (npgpu.Array, NumPy array or scalar; not read), or anything
        numpy.asarray takes.

    Returns
    -------
    bool

    See Also
    --------
    isrealobj, iscomplex

    Examples
    --------
    >>> npgpu.iscomplexobj(npgpu.asarray([1 + 0j], device="cpu"))
    True
    >>> npgpu.iscomplexobj([1.0, 2.0])
    False
    """
    return _complex_type(x)


def isrealobj(x):
    """Whether `x` has a non-complex dtype, whatever its values, as numpy.isrealobj.

    Parameters
    ----------
    x : any
        An object with a ``dtype`` (npgpu.Array, NumPy array or scalar; not read), or anything
        numpy.asarray takes.

    Returns
    -------
    bool

    See Also
    --------
    iscomplexobj, isreal

    Examples
    --------
    >>> npgpu.isrealobj(npgpu.asarray([1 + 0j], device="cpu"))
    False
    >>> npgpu.isrealobj(npgpu.asarray([1, 2], device="cpu"))
    True
    """
    return not _complex_type(x)


def real_if_close(a, tol=100):
    """The real parts of a complex array whose imaginary parts are all within `tol` of zero, else the array,
    as numpy.real_if_close.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Input values.
    tol : float, optional
        The tolerance in machine epsilons of a's dtype when greater than 1, else an absolute tolerance
        (default 100).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        ``a.real`` (of the matching real dtype) when every ``|a.imag| < tol``; `a` itself otherwise, and for
        real `a`.

    See Also
    --------
    real, imag, angle

    Examples
    --------
    >>> npgpu.real_if_close(npgpu.asarray([2.1 + 4e-14j, 5.2 + 3e-15j], device="cpu"), tol=1000)
    Array([2.1, 5.2])
    >>> npgpu.real_if_close(npgpu.asarray([2.1 + 4e-13j, 5.2 + 3e-15j], device="cpu"), tol=1000)  # kept complex
    Array([2.1+0.j, 5.2+0.j])
    """
    if _is_numpy_call("real_if_close", a):
        return np.real_if_close(a, tol=tol)
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = np.finfo(a.dtype).eps * tol
    # Which array comes back depends on the values: one boolean is read, as NumPy's own function reads it.
    if builtins.bool(_reduce.all(_ew.less(_ew.absolute(_ew.imag(a)), tol))):
        return _ew.real(a)
    return a


def _nan_to(a, value):
    """`a` with NaNs (complex: either part NaN) replaced by `value` in a's dtype; integers and booleans as
    they are (NumPy's _replace_nan). A 0-d `a` becomes 1-d, as NumPy's scans take it."""
    if a.ndim == 0:
        a = a.reshape(1)
    if a.dtype.kind not in "fc":
        return a
    return _ew.where(_ew.isnan(a), a.dtype.type(value), a)


def _numpy_nan_scan(fn, a, axis, dtype, out):
    """NumPy's nancumsum/nancumprod, after checking the shape of `out`: NumPy 2.4 crashes (a segmentation
    fault) on a 0-d `out` for a larger scan."""
    if out is not None:
        if not isinstance(out, np.ndarray):
            raise TypeError(f"{fn.__name__}: out must be a numpy.ndarray for NumPy input, not {type(out).__name__}")
        shape = np.shape(a)
        want = (int(np.prod(shape)),) if axis is None or not shape else shape
        if out.shape != want:
            raise ValueError(f"{fn.__name__}: out has shape {out.shape}, the result {want}")
    return fn(a, axis=axis, dtype=dtype, out=out)


def nancumsum(a, axis=None, dtype=None, out=None):
    """Cumulative sums along `axis` with NaNs counted as zero, as numpy.nancumsum.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Input values.
    axis : int, optional
        The axis summed along; None (default): the flattened array.
    dtype : dtype, optional
        The result's dtype; default as cumsum (int64/uint64 for narrower integers and bool).
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result; it is returned.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Of a's shape (1-D with ``axis=None``); leading NaNs give zeros.

    Raises
    ------
    numpy.exceptions.AxisError
        `axis` outside [-a.ndim, a.ndim).
    TypeError
        A host `out` beside an npgpu.Array, or the reverse.
    ValueError
        `out` of another shape than the result.

    See Also
    --------
    cumsum, nansum, nancumprod

    Examples
    --------
    >>> npgpu.nancumsum(npgpu.asarray([[1.0, np.nan], [3.0, 4.0]], device="cpu"), axis=1)
    Array([[1., 1.],
           [3., 7.]])
    """
    if _is_numpy_call("nancumsum", a, out):
        return _numpy_nan_scan(np.nancumsum, a, axis, dtype, out)
    return _reduce.cumsum(_nan_to(a, 0), axis=axis, dtype=dtype, out=out)


def nancumprod(a, axis=None, dtype=None, out=None):
    """Cumulative products along `axis` with NaNs counted as one, as numpy.nancumprod.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Input values.
    axis : int, optional
        The axis multiplied along; None (default): the flattened array.
    dtype : dtype, optional
        The result's dtype; default as cumprod (int64/uint64 for narrower integers and bool).
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result; it is returned.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Of a's shape (1-D with ``axis=None``); leading NaNs give ones.

    Raises
    ------
    numpy.exceptions.AxisError
        `axis` outside [-a.ndim, a.ndim).
    TypeError
        A host `out` beside an npgpu.Array, or the reverse.
    ValueError
        `out` of another shape than the result.

    See Also
    --------
    cumprod, nanprod, nancumsum

    Examples
    --------
    >>> npgpu.nancumprod(npgpu.asarray([2.0, np.nan, 3.0], device="cpu"))
    Array([2., 2., 6.])
    """
    if _is_numpy_call("nancumprod", a, out):
        return _numpy_nan_scan(np.nancumprod, a, axis, dtype, out)
    return _reduce.cumprod(_nan_to(a, 1), axis=axis, dtype=dtype, out=out)


def _ndim(v):
    return v.ndim if isinstance(v, _Array) else np.ndim(v)


def _spacing(distances, length):
    """One axis's spacing for gradient: a scalar (or 0-d Array) as it is; coordinates as their differences,
    or the first difference alone where all are equal (NumPy's uniform formula then applies)."""
    if _ndim(distances) == 0:
        return distances
    if not isinstance(distances, _Array):
        raise TypeError(f"gradient: coordinates beside npgpu device arrays must be npgpu.Arrays, not "
                        f"{type(distances).__name__}; move them first with npgpu.asarray(x)")
    if distances.ndim != 1:
        raise ValueError("distances must be either scalars or 1d")
    if distances.shape[0] != length:
        raise ValueError("when 1d, distances must match the length of the corresponding dimension")
    if distances.dtype.kind in "iu":
        distances = distances.astype(np.float64)  # no modular arithmetic in the differences
    dx = diff(distances)
    # NumPy switches to its uniform formula when the differences are all equal; the choice changes the
    # results (inf/NaN values at the middle point), so one boolean is read, as NumPy reads it.
    if builtins.bool(_reduce.all(_ew.equal(dx, dx[0]))):
        return dx[0]
    return dx


def gradient(f, *varargs, axis=None, edge_order=1):
    """The gradient of an N-d array by second-order central differences inside and first- or second-order
    one-sided differences at the boundaries, as numpy.gradient.

    Parameters
    ----------
    f : npgpu.Array or array_like
        Samples of a function (at least ``edge_order + 1`` along each axis differentiated).
    *varargs : scalars or 1-D npgpu.Arrays, optional
        The spacing: none (1 along every axis), one scalar for every axis, or one per axis, each a scalar
        or the coordinates of the samples along that axis (as long as that axis).
    axis : None, int or tuple of ints, optional
        The axes differentiated; None (default): all.
    edge_order : {1, 2}, optional
        The order of the differences at the boundaries (default 1).

    Returns
    -------
    npgpu.Array, numpy.ndarray or tuple of them
        One array per axis differentiated (a single array when there is one), of f's shape: f's dtype for
        floats and complex, float64 for integers.

    Raises
    ------
    TypeError
        A number of spacings other than 0, 1 or the number of axes; boolean `f` (NumPy's boolean
        subtraction error); a host array beside an npgpu.Array.
    ValueError
        `edge_order` above 2; an axis shorter than ``edge_order + 1``; coordinates not 1-D or not as long
        as their axis; repeated axes.
    numpy.exceptions.AxisError
        An axis outside [-f.ndim, f.ndim).

    See Also
    --------
    diff, ediff1d

    Examples
    --------
    >>> f = npgpu.asarray([1.0, 2.0, 4.0, 7.0, 11.0], device="cpu")
    >>> npgpu.gradient(f)
    Array([1. , 1.5, 2.5, 3.5, 4. ])
    >>> npgpu.gradient(f, 2.0, edge_order=2)
    Array([0.25, 0.75, 1.25, 1.75, 2.25])
    >>> npgpu.gradient(f, npgpu.asarray([0.0, 1.0, 1.5, 3.5, 4.0], device="cpu"))
    Array([1. , 3. , 3.5, 6.7, 8. ])
    >>> npgpu.gradient(npgpu.asarray([[1, 2, 6], [3, 4, 5]], device="cpu"))
    (Array([[ 2.,  2., -1.],
           [ 2.,  2., -1.]]), Array([[1. , 2.5, 4. ],
           [1. , 1. , 1. ]]))
    """
    if _is_numpy_call("gradient", f, *varargs):
        return np.gradient(f, *varargs, axis=axis, edge_order=edge_order)
    if not isinstance(f, _Array):
        raise TypeError(f"gradient: f must be an npgpu.Array when a spacing is one, not {type(f).__name__}")
    nd = f.ndim
    axes = tuple(range(nd)) if axis is None else np.lib.array_utils.normalize_axis_tuple(axis, nd)
    n = len(varargs)
    if n == 0:
        dx = [1.0] * len(axes)
    elif n == 1 and _ndim(varargs[0]) == 0:
        dx = list(varargs) * len(axes)
    elif n == len(axes):
        dx = [_spacing(d, f.shape[ax]) for d, ax in zip(varargs, axes)]
    else:
        raise TypeError("invalid number of arguments")
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    otype = f.dtype
    if otype.kind not in "fc":
        if otype.kind in "iu":
            f = f.astype(np.float64)  # no modular arithmetic in the differences
        otype = np.dtype(np.float64)

    def at(ax, i):
        return f[(slice(None),) * ax + (i,)]

    outvals = []
    for ax, h in zip(axes, dx):
        if f.shape[ax] < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, at least "
                             "(edge_order + 1) elements are required.")
        out = _array.empty(f.shape, dtype=otype, device=f.device)
        inner = (slice(None),) * ax + (slice(1, -1),)
        uniform = _ndim(h) == 0
        # NumPy's expressions operation for operation, so that dtypes and rounding are its own.
        if uniform:
            out[inner] = (at(ax, slice(2, None)) - at(ax, slice(None, -2))) / (2. * h)
        else:
            dx1, dx2 = h[0:-1], h[1:]
            shape = [1] * nd
            shape[ax] = -1
            a = (-(dx2) / (dx1 * (dx1 + dx2))).reshape(shape)
            b = ((dx2 - dx1) / (dx1 * dx2)).reshape(shape)
            c = (dx1 / (dx2 * (dx1 + dx2))).reshape(shape)
            out[inner] = a * at(ax, slice(None, -2)) + b * at(ax, slice(1, -1)) + c * at(ax, slice(2, None))
        first, last = (slice(None),) * ax + (0,), (slice(None),) * ax + (-1,)
        if edge_order == 1:
            out[first] = (at(ax, 1) - at(ax, 0)) / (h if uniform else h[0])
            out[last] = (at(ax, -1) - at(ax, -2)) / (h if uniform else h[-1])
        else:
            if uniform:
                a, b, c = -1.5 / h, 2. / h, -0.5 / h
            else:
                dx1, dx2 = h[0], h[1]
                a = -(2. * dx1 + dx2) / (dx1 * (dx1 + dx2))
                b = (dx1 + dx2) / (dx1 * dx2)
                c = - dx1 / (dx2 * (dx1 + dx2))
            out[first] = a * at(ax, 0) + b * at(ax, 1) + c * at(ax, 2)
            if uniform:
                a, b, c = 0.5 / h, -2. / h, 1.5 / h
            else:
                dx1, dx2 = h[-2], h[-1]
                a = (dx2) / (dx1 * (dx1 + dx2))
                b = - (dx2 + dx1) / (dx1 * dx2)
                c = (2. * dx2 + dx1) / (dx2 * (dx1 + dx2))
            out[last] = a * at(ax, -3) + b * at(ax, -2) + c * at(ax, -1)
        outvals.append(out)
    return outvals[0] if len(axes) == 1 else tuple(outvals)


def _ediff_edge(name, v, dt, device):
    """ediff1d's to_begin/to_end as a 1-D Array of dtype `dt` on `device`: NumPy's same_kind check, then
    its unsafe cast (a Python 300 into int8 is 44)."""
    vdt = v.dtype if isinstance(v, _Array) else np.asarray(v).dtype
    if not np.can_cast(vdt, dt, casting="same_kind"):
        raise TypeError(f"dtype of `{name}` must be compatible with input `ary` under the `same_kind` rule.")
    if isinstance(v, _Array):
        return v.reshape(-1).astype(dt)
    return _array.asarray(np.asarray(v).reshape(-1).astype(dt), device=device)  # a host scalar


def ediff1d(ary, to_end=None, to_begin=None):
    """The differences between consecutive elements of the flattened array, with values put before and after,
    as numpy.ediff1d.

    Parameters
    ----------
    ary : npgpu.Array or array_like
        Input values (flattened).
    to_end : scalar or npgpu.Array, optional
        Values appended after the differences (flattened).
    to_begin : scalar or npgpu.Array, optional
        Values put before the differences (flattened).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        1-D, of ary's dtype: ``to_begin``, ``ary[1:] - ary[:-1]``, ``to_end``.

    Raises
    ------
    TypeError
        `to_begin`/`to_end` of a dtype that cannot be cast to ary's under the same_kind rule; boolean
        `ary` (NumPy's boolean subtraction error); a host array beside an npgpu.Array.

    See Also
    --------
    diff, gradient

    Examples
    --------
    >>> x = npgpu.asarray([1, 2, 4, 7, 0], device="cpu")
    >>> npgpu.ediff1d(x)
    Array([ 1,  2,  3, -7])
    >>> npgpu.ediff1d(x, to_begin=-99, to_end=npgpu.asarray([88, 99], device="cpu"))
    Array([-99,   1,   2,   3,  -7,  88,  99])
    """
    if _is_numpy_call("ediff1d", ary, to_end, to_begin):
        return np.ediff1d(ary, to_end=to_end, to_begin=to_begin)
    if not isinstance(ary, _Array):
        raise TypeError(f"ediff1d: ary must be an npgpu.Array when to_begin/to_end is one, not {type(ary).__name__}")
    ary = ary.reshape(-1)
    d = _ew.subtract(ary[1:], ary[:-1])
    if to_begin is None and to_end is None:
        return d
    parts = [_ediff_edge("to_begin", to_begin, ary.dtype, ary.device)] if to_begin is not None else []
    parts.append(d)
    if to_end is not None:
        parts.append(_ediff_edge("to_end", to_end, ary.dtype, ary.device))
    from npgpu._manipulation import concatenate
    return concatenate(parts)


def _dtype_or_value(v):
    return v.dtype if isinstance(v, _Array) else v


def unwrap(p, discont=None, axis=-1, *, period=2 * np.pi):
    """Unwrap by taking the complement of large deltas with respect to the period, as numpy.unwrap.

    Differences along `axis` larger than `discont` (and at least ``period / 2``) are changed by multiples of
    `period` to their equivalent in ``[-period/2, period/2]``; the result is the cumulative sum of the
    corrected differences from the first element.

    Parameters
    ----------
    p : npgpu.Array or array_like
        Input values (at least 1-D).
    discont : float, optional
        The largest jump between values left as it is (default ``period / 2``; smaller values act as it).
    axis : int, optional
        The axis unwrapped (default the last).
    period : float, optional
        The range over which the input wraps (default 2 pi); integer periods with integer `p` keep the
        integer dtype.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Of p's shape, in ``result_type(diff(p), period)`` (float64 for bool).

    Raises
    ------
    ValueError
        0-d `p`.
    numpy.exceptions.AxisError
        `axis` outside [-p.ndim, p.ndim).

    See Also
    --------
    diff, mod

    Examples
    --------
    >>> phase = npgpu.asarray([0.0, 0.78539816, 1.57079633, 5.49778714, 6.28318531], device="cpu")
    >>> npgpu.unwrap(phase)
    Array([ 0.        ,  0.78539816,  1.57079633, -0.78539817,  0.        ])
    >>> npgpu.unwrap(npgpu.asarray([1, 2, 3, 4, 5, 6, 1, 2, 3], device="cpu"), period=6)
    Array([1, 2, 3, 4, 5, 6, 7, 8, 9])
    """
    if _is_numpy_call("unwrap", p):
        return np.unwrap(p, discont=discont, axis=axis, period=period)
    dd = diff(p, axis=axis)
    if discont is None:
        discont = period / 2
    slice1 = [slice(None)] * p.ndim
    slice1[axis] = slice(1, None)
    slice1 = tuple(slice1)
    dtype = np.result_type(dd.dtype, _dtype_or_value(period))
    if dtype.kind in "iu":
        interval_high, rem = divmod(period, 2)
        boundary_ambiguous = rem == 0
    else:
        interval_high = period / 2
        boundary_ambiguous = True
    interval_low = -interval_high
    ddmod = _ew.add(_ew.remainder(_ew.subtract(dd, interval_low), period), interval_low)
    if boundary_ambiguous:
        # where |dd| is exactly period/2 the line above gave -period/2; NumPy's sign(dd) * period/2 instead
        high = _cast(interval_high, ddmod.dtype) if isinstance(interval_high, _Array) else \
            ddmod.dtype.type(interval_high)
        ddmod = _ew.where(_ew.logical_and(_ew.equal(ddmod, interval_low), _ew.greater(dd, 0)), high, ddmod)
    ph_correct = _ew.subtract(ddmod, dd)
    ph_correct = _ew.where(_ew.less(_ew.absolute(dd), discont), ph_correct.dtype.type(0), ph_correct)
    up = p.astype(dtype, copy=True)
    up[slice1] = _ew.add(p[slice1], _reduce.cumsum(ph_correct, axis=axis % p.ndim))
    return up
