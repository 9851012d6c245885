"""NumPy's reduction keywords on npgpu's reductions: ``initial=`` for sums, products and extrema, ``where=``
for those and for all/any, the means and the moments, and ``mean=`` for the moments. They are keyword-only
here (NumPy also takes them by position), so a ``stream`` passed by position keeps its place.

The compiled reductions (npgpu._reduce) take neither; these functions wrap them under the same names. Without
the keywords they call the compiled function directly. With them, the elements `where` leaves out are
replaced by the reduction's identity (0 for sums, 1 for products, True for all, False for any, `initial` for
the extrema) before the compiled reduction runs, and `initial` joins the result afterwards. Means and moments
count the selected elements per result. Everything runs where the compiled reduction would: on an Array's
device, or on the backend for NumPy input (which gives NumPy output).
"""
import contextlib
import math
import warnings

import numpy as np

import npgpu as xp
from npgpu import _reduce
from npgpu._array import Array, _register_op

__all__ = ["all", "amax", "amin", "any", "max", "mean", "min", "nanmax", "nanmean", "nanmin", "nanprod",
           "nanstd", "nansum", "nanvar", "prod", "std", "sum", "var"]


_NOVALUE = np._NoValue  # NumPy's "not given", which numpy.sum(x, ...) passes on for npgpu arrays


def _masked(where):
    """Whether `where` can leave an element out (anything but the default True)."""
    return not (where is _NOVALUE or isinstance(where, (bool, np.bool_)) and bool(where))


def _given(value):
    return value is not None and value is not _NOVALUE


def _operand(a):
    return a if isinstance(a, Array) else np.asarray(a)


def _mask(a, where):
    """`where` as bools broadcast to a's shape, on a's device (NumPy for NumPy input)."""
    if isinstance(a, Array):
        w = where if isinstance(where, Array) else xp.asarray(np.asarray(where), device=a.device)
        bcast = xp.broadcast_to
    else:
        w = where.get() if isinstance(where, Array) else np.asarray(where)
        bcast = np.broadcast_to
    if w.dtype != np.bool_:
        w = w.astype(bool)
    try:
        return bcast(w, a.shape)
    except ValueError:
        raise ValueError(f"where of shape {tuple(w.shape)} does not broadcast to the array's shape "
                         f"{tuple(a.shape)}") from None


def _scalar(value, dtype):
    """`value` cast to `dtype` as NumPy casts a reduction's `initial` (a NumPy scalar: it mixes with Arrays)."""
    return np.asarray(value).astype(dtype)[()]


def _fill(a, w, value):
    """a where w, else `value` (cast to a's dtype)."""
    return xp.where(w, a, _scalar(value, a.dtype))


def _on(stream):
    return contextlib.nullcontext() if stream is None else stream


def _into(r, out):
    """`r` written into `out` (when given) and returned as the reduction's result."""
    if out is None:
        return r
    out[...] = r
    return out


def _reduced_shape(a, axis, keepdims):
    axes = _reduce._axes(axis, a.ndim)
    shape = tuple(1 if k in axes else n for k, n in enumerate(a.shape))
    if not keepdims:
        shape = tuple(n for k, n in enumerate(a.shape) if k not in axes)
    return shape, math.prod(a.shape[k] for k in axes)


def _full(a, shape, value, dtype):
    if isinstance(a, Array):
        return xp.full(shape, value, dtype=dtype, device=a.device)
    r = np.full(shape, value, dtype=dtype)
    return r[()] if r.ndim == 0 else r


def _join(op, r, initial):
    """op(r, initial), with `initial` cast to r's dtype as NumPy casts it."""
    dt = r.dtype
    return op(r, _scalar(initial, dt)).astype(dt, copy=False)


def _sum_like(compiled, identity, op, a, axis, dtype, out, keepdims, initial, where, stream):
    if not _given(initial) and not _masked(where):
        return compiled(a, axis, dtype, out, keepdims, stream)
    a = _operand(a)
    with _on(stream):
        if _masked(where):
            a = _fill(a, _mask(a, where), identity)
        r = compiled(a, axis, dtype, None, keepdims)
        if _given(initial):
            r = _join(op, r, initial)
        return _into(r, out)


def _extremum(compiled, op, name, a, axis, out, keepdims, initial, where, stream, nan=False):
    if not _given(initial) and (where is True or where is _NOVALUE):
        return compiled(a, axis, out, keepdims, stream)
    if not _given(initial):  # any where but the literal True, as NumPy (np.True_ and arrays of True included)
        raise ValueError(f"reduction operation '{name}' does not have an identity, so to use a where mask one "
                         f"has to specify 'initial'")
    a = _operand(a)
    with _on(stream):
        shape, count = _reduced_shape(a, axis, keepdims)
        if count == 0:
            return _into(_full(a, shape, _scalar(initial, a.dtype), a.dtype), out)
        if _masked(where):
            a = _fill(a, _mask(a, where), initial)
        if not nan:
            return _into(_join(op, compiled(a, axis, None, keepdims), initial), out)
        with warnings.catch_warnings():  # a slice of NaNs takes `initial`: warn only where NaN stays
            warnings.simplefilter("ignore", RuntimeWarning)
            r = _join(op, compiled(a, axis, None, keepdims), initial)
        if bool(xp.any(xp.isnan(r))):
            warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
        return _into(r, out)


def _mean_dtype(a, dtype):
    """The dtype numpy.mean gives a's dtype with `dtype`."""
    return np.mean(np.zeros(1, a.dtype), dtype=dtype).dtype


def _sum_dtype(res):
    """The dtype a mean accumulates its sums in: float32 for float16 results (as NumPy), else the result's."""
    return np.dtype(np.float32) if res == np.float16 else res


def _masked_mean(a, w, axis, dtype, keepdims):
    """(mean over the elements w selects, their count per result), in the mean's result dtype."""
    res = _mean_dtype(a, dtype)
    s = _reduce.sum(_fill(a, w, 0), axis, _sum_dtype(res), None, keepdims)
    n = _reduce.sum(w, axis, np.int64, None, keepdims)
    if bool(xp.any(n == 0)):
        warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=4)
    with xp.errstate(invalid="ignore", divide="ignore"):
        return xp.true_divide(s, n).astype(res, copy=False), n


def _mean(compiled, a, axis, dtype, out, keepdims, where, stream, nan=False):
    if not _masked(where):
        return compiled(a, axis, dtype, out, keepdims, stream)
    a = _operand(a)
    with _on(stream):
        w = _mask(a, where)
        if nan and a.dtype.kind in "fc":
            w = xp.logical_and(w, xp.logical_not(xp.isnan(a)))
        return _into(_masked_mean(a, w, axis, dtype, keepdims)[0], out)


def _moment(compiled, root, a, axis, dtype, out, ddof, keepdims, where, mean, correction, stream, nan=False):
    if not _masked(where) and not _given(mean):
        return compiled(a, axis, dtype, out, ddof, keepdims, stream, correction=correction)
    if correction is not None:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    a = _operand(a)
    with _on(stream):
        w = _mask(a, where)
        if nan and a.dtype.kind in "fc":
            w = xp.logical_and(w, xp.logical_not(xp.isnan(a)))
        res = _mean_dtype(a, dtype)
        if not _given(mean):
            with warnings.catch_warnings():  # an empty slice warns below, as a moment's
                warnings.simplefilter("ignore", RuntimeWarning)
                m, n = _masked_mean(a, w, axis, dtype, True)
        else:  # NumPy's keyword: a host mean goes to a's device, as `where` does
            m = xp.asarray(np.asarray(mean), device=a.device) if isinstance(a, Array) and not isinstance(
                mean, Array) else mean
            n = _reduce.sum(w, axis, np.int64, None, True)
        d = xp.subtract(a, m, dtype=_sum_dtype(res))
        sq = xp.real(d * xp.conj(d)) if d.dtype.kind == "c" else d * d
        s = _reduce.sum(_fill(sq, w, 0), axis, None, None, keepdims)
        if not keepdims:
            n = n.reshape(s.shape) if isinstance(n, Array) else np.reshape(n, np.shape(s))
        dof = xp.maximum(n - ddof, 0)
        if bool(xp.any(dof == 0)):
            warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=3)
        with xp.errstate(invalid="ignore", divide="ignore"):
            r = xp.true_divide(s, dof)
        real = np.dtype(res.char.lower()) if res.kind == "c" else res
        r = (xp.sqrt(r) if root else r).astype(real, copy=False)
        return _into(r, out)


# ---------------------------------------------------------------------------- the wrapped functions

def sum(a, axis=None, dtype=None, out=None, keepdims=False, stream=None, *, initial=None, where=True):
    """Sum over the given axes, as numpy.sum, with NumPy's `initial` and `where`.

    Parameters
    ----------
    a, axis, dtype, out, keepdims, stream
        As the compiled ``npgpu.sum`` (npgpu._reduce.sum): integer and bool inputs sum in 64 bits by default.
    initial : scalar, optional
        A value the sum starts from (cast to the result's dtype); None (default): 0.
    where : array_like of bool, optional
        The elements to include, broadcast to a's shape; default: all.

    Returns
    -------
    npgpu.Array or numpy.ndarray or scalar
        As ``npgpu._reduce.sum``.

    Raises
    ------
    ValueError
        `where` does not broadcast to a's shape, or as the compiled sum.

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2], [3, 4]], device="cpu")
    >>> int(npgpu.sum(a, initial=10))
    20
    >>> npgpu.sum(a, axis=1, where=[True, False])
    Array([1, 3])
    """
    if initial is None and where is True:
        return _reduce.sum(a, axis, dtype, out, keepdims, stream)
    return _sum_like(_reduce.sum, 0, xp.add, a, axis, dtype, out, keepdims, initial, where, stream)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, stream=None, *, initial=None, where=True):
    """Product over the given axes, as numpy.prod, with NumPy's `initial` (default 1) and `where`.

    See `sum` for the parameters.

    Examples
    --------
    >>> a = npgpu.asarray([2.0, 3.0, 4.0], device="cpu")
    >>> float(npgpu.prod(a, initial=0.5, where=[True, True, False]))
    3.0
    """
    if initial is None and where is True:
        return _reduce.prod(a, axis, dtype, out, keepdims, stream)
    return _sum_like(_reduce.prod, 1, xp.multiply, a, axis, dtype, out, keepdims, initial, where, stream)


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, stream=None, *, initial=None, where=True):
    """Sum treating NaN as 0, as numpy.nansum, with NumPy's `initial` and `where` (see `sum`).

    Examples
    --------
    >>> float(npgpu.nansum(npgpu.asarray([1.0, np.nan, 2.0], device="cpu"), initial=1.0))
    4.0
    """
    if initial is None and where is True:
        return _reduce.nansum(a, axis, dtype, out, keepdims, stream)
    return _sum_like(_reduce.nansum, 0, xp.add, a, axis, dtype, out, keepdims, initial, where, stream)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, stream=None, *, initial=None, where=True):
    """Product treating NaN as 1, as numpy.nanprod, with NumPy's `initial` and `where` (see `sum`).

    Examples
    --------
    >>> float(npgpu.nanprod(npgpu.asarray([2.0, np.nan, 3.0], device="cpu"), where=[True, True, False]))
    2.0
    """
    if initial is None and where is True:
        return _reduce.nanprod(a, axis, dtype, out, keepdims, stream)
    return _sum_like(_reduce.nanprod, 1, xp.multiply, a, axis, dtype, out, keepdims, initial, where, stream)


def max(a, axis=None, out=None, keepdims=False, stream=None, *, initial=None, where=True):
    """Maximum over the given axes, as numpy.max, with NumPy's `initial` and `where`.

    Parameters
    ----------
    a, axis, out, keepdims, stream
        As the compiled ``npgpu.max`` (npgpu._reduce.max).
    initial : scalar, optional
        A value the maximum starts from (cast to a's dtype); with it an empty reduction gives `initial`
        instead of raising. Required with `where`, as NumPy's.
    where : array_like of bool, optional
        The elements to include, broadcast to a's shape; default: all.

    Raises
    ------
    ValueError
        `where` without `initial`; `where` does not broadcast to a's shape; an empty reduction without
        `initial`.

    Examples
    --------
    >>> a = npgpu.asarray([[1, 5], [7, 2]], device="cpu")
    >>> npgpu.max(a, axis=1, initial=3)
    Array([5, 7])
    >>> npgpu.max(a, axis=1, where=[True, False], initial=-10)
    Array([1, 7])
    >>> float(npgpu.max(npgpu.asarray([], device="cpu"), initial=0.0))
    0.0
    """
    if initial is None and where is True:
        return _reduce.max(a, axis, out, keepdims, stream)
    return _extremum(_reduce.max, xp.maximum, "maximum", a, axis, out, keepdims, initial, where, stream)


def min(a, axis=None, out=None, keepdims=False, stream=None, *, initial=None, where=True):
    """Minimum over the given axes, as numpy.min, with NumPy's `initial` and `where` (see `max`).

    Examples
    --------
    >>> int(npgpu.min(npgpu.asarray([4, 9], device="cpu"), initial=2))
    2
    """
    if initial is None and where is True:
        return _reduce.min(a, axis, out, keepdims, stream)
    return _extremum(_reduce.min, xp.minimum, "minimum", a, axis, out, keepdims, initial, where, stream)


amax = max
amin = min


def nanmax(a, axis=None, out=None, keepdims=False, stream=None, *, initial=None, where=True):
    """Maximum ignoring NaNs, as numpy.nanmax, with NumPy's `initial` and `where` (see `max`): a slice of
    NaNs gives `initial` when one is given.

    Examples
    --------
    >>> float(npgpu.nanmax(npgpu.asarray([np.nan, 1.0], device="cpu"), where=[True, False], initial=-1.0))
    -1.0
    """
    if initial is None and where is True:
        return _reduce.nanmax(a, axis, out, keepdims, stream)
    return _extremum(_reduce.nanmax, xp.fmax, "fmax", a, axis, out, keepdims, initial, where, stream, nan=True)


def nanmin(a, axis=None, out=None, keepdims=False, stream=None, *, initial=None, where=True):
    """Minimum ignoring NaNs, as numpy.nanmin, with NumPy's `initial` and `where` (see `nanmax`).

    Examples
    --------
    >>> float(npgpu.nanmin(npgpu.asarray([np.nan, 3.0], device="cpu"), initial=5.0))
    3.0
    """
    if initial is None and where is True:
        return _reduce.nanmin(a, axis, out, keepdims, stream)
    return _extremum(_reduce.nanmin, xp.fmin, "fmin", a, axis, out, keepdims, initial, where, stream, nan=True)


def all(a, axis=None, out=None, keepdims=False, stream=None, *, where=True):
    """Whether every element is nonzero, as numpy.all, with NumPy's `where` (left-out elements count as
    True).

    Examples
    --------
    >>> bool(npgpu.all(npgpu.asarray([0, 1], device="cpu"), where=[False, True]))
    True
    """
    if not _masked(where):
        return _reduce.all(a, axis, out, keepdims, stream)
    a = _operand(a)
    with _on(stream):
        return _reduce.all(_fill(a.astype(bool), _mask(a, where), True), axis, out, keepdims)


def any(a, axis=None, out=None, keepdims=False, stream=None, *, where=True):
    """Whether any element is nonzero, as numpy.any, with NumPy's `where` (left-out elements count as
    False).

    Examples
    --------
    >>> bool(npgpu.any(npgpu.asarray([0, 1], device="cpu"), where=[True, False]))
    False
    """
    if not _masked(where):
        return _reduce.any(a, axis, out, keepdims, stream)
    a = _operand(a)
    with _on(stream):
        return _reduce.any(_fill(a.astype(bool), _mask(a, where), False), axis, out, keepdims)


def mean(a, axis=None, dtype=None, out=None, keepdims=False, stream=None, *, where=True):
    """Arithmetic mean, as numpy.mean, with NumPy's `where`: the mean of the selected elements, NaN (with
    NumPy's "Mean of empty slice" RuntimeWarning) where none is selected.

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2], [3, 4]], device="cpu")
    >>> npgpu.mean(a, axis=1, where=[[True, False], [True, True]])
    Array([1. , 3.5])
    """
    if where is True:
        return _reduce.mean(a, axis, dtype, out, keepdims, stream)
    return _mean(_reduce.mean, a, axis, dtype, out, keepdims, where, stream)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, stream=None, *, where=True):
    """Mean ignoring NaNs, as numpy.nanmean, with NumPy's `where` (see `mean`).

    Examples
    --------
    >>> float(npgpu.nanmean(npgpu.asarray([np.nan, 1.0, 3.0], device="cpu"), where=[True, False, True]))
    3.0
    """
    if where is True:
        return _reduce.nanmean(a, axis, dtype, out, keepdims, stream)
    return _mean(_reduce.nanmean, a, axis, dtype, out, keepdims, where, stream, nan=True)


_MOMENT_DOC = """{what}, as numpy.{name}, with NumPy's `where` and `mean`.

    Parameters
    ----------
    a, axis, dtype, out, ddof, keepdims, stream, correction
        As the compiled ``npgpu.{name}`` (npgpu._reduce.{name}).
    where : array_like of bool, optional
        The elements to include, broadcast to a's shape; default: all. NaN (with NumPy's "Degrees of freedom
        <= 0 for slice" RuntimeWarning) where fewer than ddof + 1 are selected.
    mean : array_like, optional
        The mean to measure from, of the shape the mean has with ``keepdims=True`` (as NumPy's); default:
        the mean of the selected elements.

    Examples
    --------
    >>> a = npgpu.asarray([[1.0, 2.0, 9.0], [3.0, 5.0, 9.0]], device="cpu")
    >>> npgpu.{name}(a, axis=1, where=[True, True, False])
    {example}
    """


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, stream=None, *, correction=None, where=True,
        mean=None):
    if where is True and mean is None:
        return _reduce.var(a, axis, dtype, out, ddof, keepdims, stream, correction=correction)
    return _moment(_reduce.var, False, a, axis, dtype, out, ddof, keepdims, where, mean, correction, stream)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, stream=None, *, correction=None, where=True,
        mean=None):
    if where is True and mean is None:
        return _reduce.std(a, axis, dtype, out, ddof, keepdims, stream, correction=correction)
    return _moment(_reduce.std, True, a, axis, dtype, out, ddof, keepdims, where, mean, correction, stream)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, stream=None, *, correction=None, where=True,
           mean=None):
    if where is True and mean is None:
        return _reduce.nanvar(a, axis, dtype, out, ddof, keepdims, stream, correction=correction)
    return _moment(_reduce.nanvar, False, a, axis, dtype, out, ddof, keepdims, where, mean, correction, stream,
                   nan=True)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, stream=None, *, correction=None, where=True,
           mean=None):
    if where is True and mean is None:
        return _reduce.nanstd(a, axis, dtype, out, ddof, keepdims, stream, correction=correction)
    return _moment(_reduce.nanstd, True, a, axis, dtype, out, ddof, keepdims, where, mean, correction, stream,
                   nan=True)


var.__doc__ = _MOMENT_DOC.format(what="Variance", name="var", example="Array([0.25, 1.  ])")
std.__doc__ = _MOMENT_DOC.format(what="Standard deviation", name="std", example="Array([0.5, 1. ])")
nanvar.__doc__ = _MOMENT_DOC.format(what="Variance ignoring NaNs", name="nanvar", example="Array([0.25, 1.  ])")
nanstd.__doc__ = _MOMENT_DOC.format(what="Standard deviation ignoring NaNs", name="nanstd",
                                    example="Array([0.5, 1. ])")

for _name in ("sum", "prod", "min", "max", "mean", "var", "std", "all", "any"):
    _register_op(_name, globals()[_name])
del _name
