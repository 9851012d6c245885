"""Elementwise and statistical functions composed of npgpu's ufuncs, scans and views, so they run on every
device and on NumPy inputs (NumPy in, NumPy out), with NumPy 2's dtype rules: cumulative_sum/prod, diff,
copysign, signbit, nextafter, logaddexp(2), round, isclose/allclose, fmax/fmin, deg2rad/rad2deg, and clip
with both NumPy's and the Array API's keywords."""
import builtins
import math

import numpy as np

from npgpu import _array, _elementwise, _reduce

__all__ = ["cumulative_sum", "cumulative_prod", "diff", "copysign", "signbit", "nextafter", "logaddexp",
           "logaddexp2", "round", "around", "isclose", "allclose", "fmax", "fmin", "deg2rad", "rad2deg",
           "degrees", "radians", "clip"]

_Array = _array.Array
_ew = _elementwise


def _is_numpy_call(*xs):
    """True when no operand is an npgpu.Array: then NumPy's own function gives the NumPy result."""
    return not builtins.any(isinstance(x, _Array) for x in xs)


def _loop_dtype(ufunc, *xs):
    """The dtype NumPy's `ufunc` computes in for these operands (Python scalars weak)."""
    key = tuple(type(x) if type(x) in (int, float, complex) else np.dtype(x.dtype) if hasattr(x, "dtype")
                else np.asarray(x).dtype for x in xs)
    return np.dtype(ufunc.resolve_dtypes(key + (None,))[-1])


def _cast(x, dt):
    return x.astype(dt) if isinstance(x, _Array) and x.dtype != dt else x


def _int_of(dt):
    return np.dtype(f"int{np.dtype(dt).itemsize * 8}")


def signbit(x, /):
    """True where the sign bit of `x` is set (-0.0 and negative NaNs included), as numpy.signbit."""
    if _is_numpy_call(x):
        return np.signbit(x)
    if x.dtype.kind in "biu":
        return _ew.less(x, 0)
    if x.dtype.kind == "c":
        raise TypeError("signbit: complex input is not supported (as NumPy)")
    return _ew.less(_array.reinterpret(x, _int_of(x.dtype)), 0)


def copysign(x1, x2, /):
    """The magnitude of `x1` with the sign of `x2` (sign bits, so -0.0 and NaNs count), as numpy.copysign."""
    if _is_numpy_call(x1, x2):
        return np.copysign(x1, x2)
    dt = _loop_dtype(np.copysign, x1, x2)
    x1, x2 = _cast(x1, dt), _cast(x2, dt)
    mag = _ew.absolute(x1) if isinstance(x1, _Array) else abs(dt.type(x1))
    neg = signbit(x2) if isinstance(x2, _Array) else bool(np.signbit(dt.type(x2)))
    return _ew.where(neg, _ew.negative(mag), mag)


def nextafter(x1, x2, /):
    """The next representable value after `x1` towards `x2`, as numpy.nextafter (through the bits)."""
    if _is_numpy_call(x1, x2):
        return np.nextafter(x1, x2)
    dt = _loop_dtype(np.nextafter, x1, x2)
    a = _cast(x1, dt) if isinstance(x1, _Array) else None
    b = _cast(x2, dt) if isinstance(x2, _Array) else None
    device = (a if a is not None else b).device
    shape = np.broadcast_shapes(*[x.shape for x in (a, b) if x is not None])
    a = _array.broadcast_to(a, shape) if a is not None else _array.full(shape, x1, dtype=dt, device=device)
    b = _array.broadcast_to(b, shape) if b is not None else _array.full(shape, x2, dtype=dt, device=device)
    ia = _array.reinterpret(a.copy(), _int_of(dt))
    up = _ew.equal(_ew.greater(b, a), _ew.greater(a, 0))  # away from zero when moving outwards
    bits = _ew.add(ia, _ew.where(up, _int_of(dt).type(1), _int_of(dt).type(-1)))
    r = _array.reinterpret(bits, dt)
    tiny = dt.type(np.finfo(dt).smallest_subnormal)
    r = _ew.where(_ew.equal(a, 0), copysign(_array.full(shape, tiny, dtype=dt, device=device), b), r)
    r = _ew.where(_ew.equal(a, b), b, r)
    return _ew.where(_ew.logical_or(_ew.isnan(a), _ew.isnan(b)), dt.type(np.nan), r)


def logaddexp(x1, x2, /):
    """``log(exp(x1) + exp(x2))`` without overflow, as numpy.logaddexp."""
    if _is_numpy_call(x1, x2):
        return np.logaddexp(x1, x2)
    dt = _loop_dtype(np.logaddexp, x1, x2)
    x1, x2 = _cast(x1, dt), _cast(x2, dt)
    d = _ew.absolute(_ew.subtract(x1, x2))
    r = _ew.add(_ew.maximum(x1, x2), _ew.log1p(_ew.exp(_ew.negative(d))))
    return _ew.where(_ew.equal(x1, x2), _ew.add(x1, dt.type(math.log(2))), r)  # equal infinities: no inf - inf


def logaddexp2(x1, x2, /):
    """``log2(2**x1 + 2**x2)`` without overflow, as numpy.logaddexp2."""
    if _is_numpy_call(x1, x2):
        return np.logaddexp2(x1, x2)
    dt = _loop_dtype(np.logaddexp2, x1, x2)
    x1, x2 = _cast(x1, dt), _cast(x2, dt)
    d = _ew.absolute(_ew.subtract(x1, x2))
    r = _ew.add(_ew.maximum(x1, x2), _ew.multiply(_ew.log1p(_ew.exp2(_ew.negative(d))), dt.type(1 / math.log(2))))
    return _ew.where(_ew.equal(x1, x2), _ew.add(x1, dt.type(1)), r)


def round(x, /, decimals=0, out=None):  # noqa: A001  (NumPy's and the standard's name)
    """`x` rounded to `decimals` decimals, halves to even, as numpy.round (integers: unchanged for
    ``decimals >= 0``)."""
    if _is_numpy_call(x):
        return np.round(x, decimals, out=out)
    if x.dtype.kind in "biu":
        if decimals < 0:
            raise NotImplementedError("round: negative decimals of integer arrays are not supported")
        return x.copy() if out is None else _ew.positive(x, out=out)
    if decimals == 0:
        return _ew.rint(x, out=out)
    real = x.dtype if x.dtype.kind == "f" else np.dtype(f"f{x.dtype.itemsize // 2}")
    scale = real.type(10.0 ** builtins.abs(decimals))
    if decimals > 0:
        return _ew.true_divide(_ew.rint(_ew.multiply(x, scale)), scale, out=out)
    return _ew.multiply(_ew.rint(_ew.true_divide(x, scale)), scale, out=out)


around = round


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Elementwise ``|a - b| <= atol + rtol * |b|`` (infinities equal only to themselves; NaNs equal when
    `equal_nan`), as numpy.isclose."""
    if _is_numpy_call(a, b):
        return np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
    dt = np.result_type(*[x.dtype if hasattr(x, "dtype") else x for x in (a, b)], 1.0)
    a, b = _cast(a, dt), _cast(b, dt)
    finite = _ew.logical_and(_ew.isfinite(a), _ew.isfinite(b))
    close = _ew.less_equal(_ew.absolute(_ew.subtract(a, b)), _ew.add(atol, _ew.multiply(rtol, _ew.absolute(b))))
    r = _ew.logical_or(_ew.logical_and(finite, close), _ew.equal(a, b))
    if equal_nan:
        r = _ew.logical_or(r, _ew.logical_and(_ew.isnan(a), _ew.isnan(b)))
    return r


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether every element of `a` is close to `b` (see isclose): a Python bool."""
    if _is_numpy_call(a, b):
        return builtins.bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))
    return builtins.bool(_reduce.all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


def fmax(x1, x2, /):
    """Elementwise maximum ignoring NaNs (NaN only where both are NaN), as numpy.fmax."""
    if _is_numpy_call(x1, x2):
        return np.fmax(x1, x2)
    m = _ew.maximum(x1, x2)
    return _ew.where(_ew.isnan(x2), x1, _ew.where(_ew.isnan(x1), x2, m)) if m.dtype.kind in "fc" else m


def fmin(x1, x2, /):
    """Elementwise minimum ignoring NaNs (NaN only where both are NaN), as numpy.fmin."""
    if _is_numpy_call(x1, x2):
        return np.fmin(x1, x2)
    m = _ew.minimum(x1, x2)
    return _ew.where(_ew.isnan(x2), x1, _ew.where(_ew.isnan(x1), x2, m)) if m.dtype.kind in "fc" else m


def deg2rad(x, /):
    """Degrees to radians, as numpy.deg2rad."""
    if _is_numpy_call(x):
        return np.deg2rad(x)
    dt = _loop_dtype(np.deg2rad, x)
    return _ew.multiply(_cast(x, dt), dt.type(math.pi / 180))


def rad2deg(x, /):
    """Radians to degrees, as numpy.rad2deg."""
    if _is_numpy_call(x):
        return np.rad2deg(x)
    dt = _loop_dtype(np.rad2deg, x)
    return _ew.multiply(_cast(x, dt), dt.type(180 / math.pi))


radians, degrees = deg2rad, rad2deg


def clip(x, a_min=None, a_max=None, out=None, *, min=None, max=None, stream=None):  # noqa: A002
    """`x` limited to [min, max] elementwise (NaNs propagate), with NumPy's positional bounds or the Array
    API's ``min=``/``max=`` keywords; without either bound, a copy of `x`."""
    lo = a_min if a_min is not None else min
    hi = a_max if a_max is not None else max
    if lo is None and hi is None:
        if _is_numpy_call(x):
            return np.array(x, copy=True) if out is None else np.copyto(out, x) or out
        return x.copy() if out is None else _ew.positive(x, out=out)
    return _ew.clip(x, lo, hi, out=out, stream=stream)


def _cumulative(scan, neutral, x, axis, dtype, include_initial):
    if isinstance(x, _Array) is False:
        x = np.asarray(x)
    if axis is None:
        if x.ndim > 1:
            raise ValueError("axis must be given for arrays of more than one dimension")
        axis = 0
    if x.ndim == 0:
        raise ValueError("cumulative functions need an array of at least one dimension")
    ax = axis % x.ndim if -x.ndim <= axis < x.ndim else None
    if ax is None:
        raise np.exceptions.AxisError(axis, x.ndim)
    r = scan(x, axis=ax, dtype=dtype)
    if not include_initial:
        return r
    shape = list(r.shape)
    shape[ax] += 1
    if isinstance(r, _Array):
        out = _array.full(tuple(shape), neutral, dtype=r.dtype, device=r.device)
    else:
        out = np.full(tuple(shape), neutral, dtype=r.dtype)
    key = (slice(None),) * ax + (slice(1, None),)
    out[key] = r
    return out


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    """Cumulative sums along `axis` (optional for 1-D input), with a leading zero when `include_initial`:
    the Array API's cumulative_sum (NumPy 2.1's)."""
    return _cumulative(_reduce.cumsum, 0, x, axis, dtype, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    """Cumulative products along `axis`, with a leading one when `include_initial`."""
    return _cumulative(_reduce.cumprod, 1, x, axis, dtype, include_initial)


def diff(x, /, n=1, axis=-1, prepend=None, append=None):
    """The `n`-th discrete difference along `axis` (``x[1:] - x[:-1]``; ``!=`` for booleans), after joining
    `prepend`/`append` (scalars are broadcast), as numpy.diff."""
    if _is_numpy_call(x, prepend, append):
        kw = {k: v for k, v in (("prepend", prepend), ("append", append)) if v is not None}
        return np.diff(x, n=n, axis=axis, **kw)
    from npgpu._manipulation import concatenate
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n!r}")
    if x.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    ax = axis % x.ndim if -x.ndim <= axis < x.ndim else None
    if ax is None:
        raise np.exceptions.AxisError(axis, x.ndim)
    parts = []
    for extra in (prepend,):
        if extra is not None:
            parts.append(_edge(extra, x, ax))
    parts.append(x)
    if append is not None:
        parts.append(_edge(append, x, ax))
    if len(parts) > 1:
        x = concatenate(parts, axis=ax)
    hi = (slice(None),) * ax + (slice(1, None),)
    lo = (slice(None),) * ax + (slice(None, -1),)
    for _ in range(n):
        x = _ew.not_equal(x[hi], x[lo]) if x.dtype.kind == "b" else _ew.subtract(x[hi], x[lo])
    return x


def _edge(v, x, ax):
    v = v if isinstance(v, _Array) else _array.asarray(v, device=x.device)
    if v.ndim == 0:
        shape = list(x.shape)
        shape[ax] = 1
        v = _array.broadcast_to(v, tuple(shape))
    return v
