"""NumPy's 1-D signal and polynomial helpers, comparisons and einsum: convolve, correlate, interp, trapezoid,
polyval, array_equal, array_equiv, nan_to_num, round_ (NumPy 1's name for round), einsum; NumPy's polynomial
functions poly, roots, polyadd, polysub, polymul, polydiv, polyder, polyint and polyfit; and the window
functions bartlett, blackman, hamming, hanning and kaiser.

Each is composed of npgpu's gathers, matmul, searchsorted, reductions, npgpu.linalg and elementwise operations,
so it runs where they run. npgpu.Array in, npgpu.Array out on the same device; NumPy (array_like) in, NumPy out.
Subclasses of numpy.ndarray (masked arrays, np.matrix) are refused with TypeError. The window functions take
no array: they return an npgpu.Array on their `device=` keyword's device (None: the default device), as
npgpu's creation functions do.
"""
import builtins
import math
import operator

import numpy as np

from npgpu import _array, _elementwise, _indexing, _reduce, _sorting
from npgpu._elementwise_composed import round as _round
from npgpu._manipulation import concatenate, permute_dims, reshape
from npgpu._statistics import _back, _inputs

__all__ = ["convolve", "correlate", "interp", "trapezoid", "polyval", "array_equal", "array_equiv",
           "nan_to_num", "round_", "einsum", "einsum_path", "poly", "polyadd", "polysub", "polymul", "polydiv",
           "polyder", "polyint", "polyfit", "roots", "poly1d", "bartlett", "blackman", "hamming", "hanning", "kaiser"]

_ew = _elementwise
_Array = _array.Array

round_ = _round  # NumPy 1's name (gone from NumPy 2's namespace)

# Rows of the sliding-window matrix gathered at once in correlate: bounds its memory at ~16 Mi elements.
_WINDOW_ELEMENTS = 1 << 24


# ------------------------------------------------------------------------------------------------ convolve

def _arange(n, device):
    return _array.asarray(np.arange(n, dtype=np.int64), device=device)


def _full_correlation(a, v):
    """c[k] = sum_j ap[k + j] * v[j] for the zero-padded ap (M - 1 zeros each side): the rows of the
    sliding-window matrix of ap times v, a block of rows at a time."""
    n, m = a.shape[0], v.shape[0]
    length = n + m - 1
    zeros = _array.zeros((m - 1,), dtype=a.dtype, device=a.device)
    ap = concatenate([zeros, a, zeros]) if m > 1 else a
    cols = _arange(m, a.device)[None, :]
    rows = builtins.max(1, _WINDOW_ELEMENTS // m)
    parts = []
    for start in range(0, length, rows):
        stop = builtins.min(length, start + rows)
        idx = _ew.add(_arange(stop - start, a.device)[:, None] + start, cols)
        windows = _indexing.take(ap, idx.reshape(-1)).reshape(stop - start, m)
        parts.append(_matvec(windows, v))
    return parts[0] if len(parts) == 1 else concatenate(parts)


def _matvec(w, v):
    from npgpu._blas import matmul
    return matmul(w, v[:, None])[:, 0]


def _correlate(name, a, v, mode, conj):
    (x, y), numpy_out = _inputs(name, a, v, required=("a", "v"))
    x = x.reshape(1) if x.ndim == 0 else x
    y = y.reshape(1) if y.ndim == 0 else y
    if x.ndim != 1 or y.ndim != 1:
        raise ValueError("object too deep for desired array")
    if x.shape[0] == 0:
        raise ValueError("a cannot be empty" if name == "convolve" else "zero-size array to correlate")
    if y.shape[0] == 0:
        raise ValueError("v cannot be empty" if name == "convolve" else "zero-size array to correlate")
    if mode not in ("full", "same", "valid"):
        raise ValueError(f"mode must be one of 'full', 'same', or 'valid' (got {mode!r})")
    dt = np.result_type(x.dtype, y.dtype)
    work = np.dtype(np.int64) if dt.kind == "b" else dt  # booleans: a sum of products, then != 0
    x, y = x.astype(work, copy=False), y.astype(work, copy=False)
    if conj and work.kind == "c":
        y = _ew.conj(y)
    n, m = x.shape[0], y.shape[0]
    full = _full_correlation(x, y)
    lo, hi = builtins.min(n, m), builtins.max(n, m)
    if mode == "full":
        r = full
    elif mode == "valid":
        r = full[lo - 1:hi]
    else:  # NumPy's centring of the 'same' window, which differs by which input is longer
        s = (m - 1) // 2 if n >= m else n // 2
        r = full[s:s + hi]
    if dt.kind == "b":
        r = r != 0
    return _back(r, numpy_out, scalar=False)


def correlate(a, v, mode="valid"):
    """Cross-correlation of two 1-D sequences, as numpy.correlate.

    ``c[k] = sum_n a[n + k] * conj(v[n])``, computed as a matrix product of a's sliding windows (zero-padded,
    a block of windows at a time).

    Parameters
    ----------
    a, v : npgpu.Array or array_like
        1-D input sequences (a 0-d input is taken as of length 1).
    mode : {'valid', 'same', 'full'}, optional
        'valid' (default): only where the sequences overlap completely; 'same': of length ``max(len(a),
        len(v))``, centred as NumPy's (which differs by which input is longer); 'full': every overlap,
        ``len(a) + len(v) - 1`` values.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        1-D, in the inputs' promoted dtype (bool inputs: a sum of products, then != 0). An npgpu.Array on the inputs'
        device for npgpu input; for NumPy (array_like) input a NumPy array.

    Raises
    ------
    ValueError
        An input of more than 1 dimension or empty; an unknown `mode`; npgpu.Arrays on different devices.
    TypeError
        An input None or a numpy.ndarray subclass.

    See Also
    --------
    convolve

    Examples
    --------
    >>> a = npgpu.asarray([1.0, 2.0, 3.0], device="cpu")
    >>> npgpu.correlate(a, [0, 1, 0.5])
    Array([3.5])
    >>> npgpu.correlate(np.array([1, 2, 3]), np.array([0, 1, 0.5]), mode="full")
    array([0.5, 2. , 3.5, 3. , 0. ])
    """
    return _correlate("correlate", a, v, mode, True)


def convolve(a, v, mode="full"):
    """Discrete linear convolution of two 1-D sequences, as numpy.convolve.

    The correlation with the shorter sequence reversed (no conjugation); as NumPy, the longer one slides.

    Parameters
    ----------
    a, v : npgpu.Array or array_like
        1-D input sequences (a 0-d input is taken as of length 1).
    mode : {'full', 'same', 'valid'}, optional
        'full' (default): every overlap, ``len(a) + len(v) - 1`` values; 'same': of length ``max(len(a),
        len(v))``; 'valid': only where the sequences overlap completely.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        1-D, in the inputs' promoted dtype (bool inputs: a sum of products, then != 0). An npgpu.Array on the inputs'
        device for npgpu input; for NumPy (array_like) input a NumPy array.

    Raises
    ------
    ValueError
        An input of more than 1 dimension or empty; an unknown `mode`; npgpu.Arrays on different devices.
    TypeError
        An input None or a numpy.ndarray subclass.

    See Also
    --------
    correlate

    Examples
    --------
    >>> a = npgpu.asarray([1.0, 2.0, 3.0], device="cpu")
    >>> npgpu.convolve(a, [0, 1, 0.5])
    Array([0. , 1. , 2.5, 4. , 1.5])
    >>> npgpu.convolve(np.array([1, 2, 3]), np.array([0, 1, 0.5]), mode="same")
    array([1. , 2.5, 4. ])
    """
    (x, y), numpy_out = _inputs("convolve", a, v, required=("a", "v"))
    x = x.reshape(1) if x.ndim == 0 else x
    y = y.reshape(1) if y.ndim == 0 else y
    if x.ndim == 1 and y.ndim == 1 and y.shape[0] > x.shape[0]:
        x, y = y, x  # as NumPy: the longer one slides
    if x.ndim == 1 and y.ndim == 1 and y.shape[0] == 0:
        raise ValueError("v cannot be empty")
    if x.ndim == 1 and x.shape[0] == 0:
        raise ValueError("a cannot be empty")
    r = _correlate("convolve", x, y[::-1] if y.ndim == 1 else y, mode, False)
    return _back(r, numpy_out, scalar=False)


# ------------------------------------------------------------------------------------------------ interp

def interp(x, xp, fp, left=None, right=None, period=None):
    """One-dimensional piecewise-linear interpolation, as numpy.interp.

    The values at `x` of the piecewise-linear function through the points (xp, fp); one binary search per
    point.

    Parameters
    ----------
    x : npgpu.Array or array_like
        Where to interpolate.
    xp : npgpu.Array or array_like
        1-D, increasing (not checked, as NumPy): the x-coordinates of the points.
    fp : npgpu.Array or array_like
        1-D, of xp's length: the values at the points, real or complex.
    left : float or complex, optional
        The value for x < xp[0]; default fp[0].
    right : float or complex, optional
        The value for x > xp[-1]; default fp[-1].
    period : float, optional
        The period of the x-coordinates: `x` and `xp` are then taken modulo it (and sorted), and `left`
        and `right` are ignored.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Of x's shape: float64 (complex128 for complex fp). An npgpu.Array on the inputs' device for npgpu input; for
        NumPy (array_like) input a NumPy array, a 0-d result as a NumPy scalar.

    Raises
    ------
    ValueError
        `xp` or `fp` not 1-D; of different lengths; `xp` empty; `period` zero; npgpu.Arrays on different
        devices.
    TypeError
        An input None or a numpy.ndarray subclass.

    Examples
    --------
    >>> x = npgpu.asarray([0.0, 1.5, 2.5, 5.0], device="cpu")
    >>> npgpu.interp(x, [1, 2, 3], [3, 2, 0])
    Array([3. , 2.5, 1. , 0. ])
    >>> npgpu.interp(np.array([0.0, 1.5, 5.0]), [1, 2, 3], [3, 2, 0], left=-1, right=99)
    array([-1. ,  2.5, 99. ])
    >>> npgpu.interp(np.array([-180, -170, 185]), [-170, 170], [0, 10], period=360)
    array([5. , 0. , 2.5])
    """
    (xx, xpd, fpd), numpy_out = _inputs("interp", x, xp, fp, required=("x", "xp", "fp"))
    if xpd.ndim != 1 or fpd.ndim != 1:
        raise ValueError("object too deep for desired array" if builtins.max(xpd.ndim, fpd.ndim) > 1
                         else "object of too small depth for desired array")
    if fpd.shape[0] != xpd.shape[0]:
        raise ValueError("fp and xp are not of the same length.")
    if xpd.shape[0] == 0:
        raise ValueError("array of sample points is empty")
    if fpd.dtype.kind == "c":
        rdt = np.dtype(np.complex128)
        re = interp(xx, xpd, _ew.real(fpd), None if left is None else np.real(left),
                    None if right is None else np.real(right), period)
        im = interp(xx, xpd, _ew.imag(fpd), None if left is None else np.imag(left),
                    None if right is None else np.imag(right), period)
        r = _array.empty(re.shape, dtype=rdt, device=re.device)
        r.real[...] = re
        r.imag[...] = im
        return _back(r, numpy_out)
    f64 = np.dtype(np.float64)
    xx, xpd, fpd = xx.astype(f64, copy=False), xpd.astype(f64, copy=False), fpd.astype(f64, copy=False)
    if period is not None:
        if period == 0:
            raise ValueError("period must be a non-zero value")
        period = builtins.abs(float(period))
        left = right = None
        xx = _ew.mod(xx, period)
        xpd = _ew.mod(xpd, period)
        order = _sorting.argsort(xpd)
        xpd, fpd = _indexing.take(xpd, order), _indexing.take(fpd, order)
        xpd = concatenate([xpd[-1:] - period, xpd, xpd[0:1] + period])
        fpd = concatenate([fpd[-1:], fpd, fpd[0:1]])
    n = xpd.shape[0]
    lval = fpd[0] if left is None else f64.type(left)
    rval = fpd[n - 1] if right is None else f64.type(right)
    if n == 1:
        r = _ew.where(xx < xpd[0], lval, _ew.where(xx > xpd[0], rval, fpd[0]))
        return _back(r, numpy_out)
    j = _ew.minimum(_ew.maximum(_indexing.searchsorted(xpd, xx, side="right") - 1, 0), n - 2)
    x0, x1 = _indexing.take(xpd, j), _indexing.take(xpd, j + 1)
    y0, y1 = _indexing.take(fpd, j), _indexing.take(fpd, j + 1)
    slope = (y1 - y0) / (x1 - x0)
    r = slope * (xx - x0) + y0
    # NumPy's fall-backs where that is NaN: from the right end, then the flat value
    alt = slope * (xx - x1) + y1
    r = _ew.where(_ew.isnan(r), alt, r)
    r = _ew.where(_ew.isnan(r) & (y0 == y1), y0, r)
    r = _ew.where(xx == x0, y0, r)  # exactly on a sample point: its value
    r = _ew.where(xx == xpd[n - 1], fpd[n - 1], r)
    r = _ew.where(xx < xpd[0], lval, _ew.where(xx > xpd[n - 1], rval, r))
    return _back(r, numpy_out)


# ------------------------------------------------------------------------------------------------ trapezoid, polyval

def trapezoid(y, x=None, dx=1.0, axis=-1):
    """Integral along an axis by the trapezoidal rule, as numpy.trapezoid.

    Parameters
    ----------
    y : npgpu.Array or array_like
        The values to integrate.
    x : npgpu.Array or array_like, optional
        The sample points: 1-D along `axis`, or of y's shape. Default: uniformly spaced by `dx`.
    dx : float, optional
        The spacing of the sample points when `x` is None (default 1.0).
    axis : int, optional
        The axis integrated along (default -1).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        y's shape without `axis`. An npgpu.Array on the inputs' device for npgpu input; for NumPy (array_like) input a
        NumPy array, a 0-d result as a NumPy scalar.

    Raises
    ------
    numpy.exceptions.AxisError
        `axis` out of range.
    TypeError
        `y` None, or an input a numpy.ndarray subclass.
    ValueError
        npgpu.Arrays on different devices.

    Examples
    --------
    >>> npgpu.trapezoid(npgpu.asarray([1.0, 2.0, 3.0], device="cpu"))
    Array(4.)
    >>> npgpu.trapezoid(np.array([[0, 1, 2], [3, 4, 5]]), dx=0.5, axis=1)
    array([1., 4.])
    """
    (yy, xx), numpy_out = _inputs("trapezoid", y, x, required=("y",))
    from npgpu._manipulation import _axis
    ax = _axis(axis, yy.ndim)
    if xx is None:
        d = dx
    elif xx.ndim == 1:
        d = xx[1:] - xx[:-1]
        shape = [1] * yy.ndim
        shape[ax] = d.shape[0]
        d = d.reshape(tuple(shape))
    else:
        axx = _axis(axis, xx.ndim)
        hi = (slice(None),) * axx + (slice(1, None),)
        lo = (slice(None),) * axx + (slice(None, -1),)
        d = xx[hi] - xx[lo]
    hi = (slice(None),) * ax + (slice(1, None),)
    lo = (slice(None),) * ax + (slice(None, -1),)
    ret = _reduce.sum(_ew.multiply(d, _ew.add(yy[hi], yy[lo])) / 2.0, axis=ax)
    return _back(ret, numpy_out)


def polyval(p, x):
    """The values of a polynomial at given points, as numpy.polyval.

    Horner's scheme as NumPy's: ``y = y * x + p[i]`` from ``y = zeros_like(x)``, so the dtype is NumPy's
    promotion of x's and p's.

    Parameters
    ----------
    p : npgpu.Array or array_like
        1-D: the coefficients, highest power first (a 0-d `p` is a constant).
    x : npgpu.Array or array_like
        The points.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Of x's shape. An npgpu.Array on the inputs' device for npgpu input; for NumPy (array_like) input a NumPy array,
        a 0-d result as a NumPy scalar.

    Raises
    ------
    TypeError
        An input None or a numpy.ndarray subclass.
    ValueError
        npgpu.Arrays on different devices.

    Examples
    --------
    >>> npgpu.polyval(npgpu.asarray([3, 0, 1], device="cpu"), npgpu.asarray([1, 2], device="cpu"))
    Array([ 4, 13])
    >>> npgpu.polyval(np.array([1.0, 0.5]), np.array([1, 2]))
    array([1.5, 2.5])
    """
    if isinstance(p, poly1d):
        p = p.coeffs
    if isinstance(x, poly1d):  # composition: Horner's scheme on polynomials, as NumPy's
        y = poly1d(0)
        for c in _array.asarray(p, device=x.coeffs.device).reshape(-1):
            y = y * x + c
        return y
    (pp, xx), numpy_out = _inputs("polyval", p, x, required=("p", "x"))
    if pp.ndim == 0:
        pp = pp.reshape(1)
    y = _array.zeros(xx.shape, dtype=xx.dtype, device=xx.device)
    for i in range(pp.shape[0]):
        y = _ew.add(_ew.multiply(y, xx), pp[i])
    return _back(y, numpy_out)


# ------------------------------------------------------------------------------------------------ comparisons

def array_equal(a1, a2, equal_nan=False):
    """Whether two arrays have the same shape and elements, as numpy.array_equal.

    Parameters
    ----------
    a1, a2 : npgpu.Array or array_like
        The arrays compared.
    equal_nan : bool, optional
        Count NaNs as equal to each other (default False).

    Returns
    -------
    bool
        A Python bool.

    Raises
    ------
    TypeError
        An input None or a numpy.ndarray subclass.
    ValueError
        npgpu.Arrays on different devices.

    See Also
    --------
    array_equiv

    Examples
    --------
    >>> npgpu.array_equal(npgpu.asarray([1, 2, 3], device="cpu"), [1, 2, 3])
    True
    >>> npgpu.array_equal(np.array([1.0, np.nan]), np.array([1.0, np.nan]), equal_nan=True)
    True
    """
    (x, y), _ = _inputs("array_equal", a1, a2, required=("a1", "a2"))
    if tuple(x.shape) != tuple(y.shape):
        return False
    eq = _ew.equal(x, y)
    if equal_nan and (x.dtype.kind in "fc" or y.dtype.kind in "fc"):
        nx = _ew.isnan(x) if x.dtype.kind in "fc" else None
        ny = _ew.isnan(y) if y.dtype.kind in "fc" else None
        if nx is not None and ny is not None:
            if not bool(_reduce.all(_ew.equal(nx, ny))):
                return False
            eq = _ew.logical_or(eq, nx)
    return bool(_reduce.all(eq))


def array_equiv(a1, a2):
    """Whether two arrays broadcast to one shape and are equal there, as numpy.array_equiv.

    Parameters
    ----------
    a1, a2 : npgpu.Array or array_like
        The arrays compared.

    Returns
    -------
    bool
        A Python bool; False where the shapes do not broadcast.

    Raises
    ------
    TypeError
        An input None or a numpy.ndarray subclass.
    ValueError
        npgpu.Arrays on different devices.

    See Also
    --------
    array_equal

    Examples
    --------
    >>> npgpu.array_equiv(npgpu.asarray([1, 2], device="cpu"), [[1, 2], [1, 2]])
    True
    >>> npgpu.array_equiv([1, 2], [[1, 2], [1, 3]])
    False
    """
    (x, y), _ = _inputs("array_equiv", a1, a2, required=("a1", "a2"))
    try:
        np.broadcast_shapes(tuple(x.shape), tuple(y.shape))
    except ValueError:
        return False
    return bool(_reduce.all(_ew.equal(x, y)))


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """Replace NaN and infinities by finite numbers, as numpy.nan_to_num.

    NaN becomes `nan`, +inf `posinf` and -inf `neginf`, in the real and imaginary parts separately. Arrays of
    other dtypes are returned as they are.

    Parameters
    ----------
    x : npgpu.Array or array_like
        Input values.
    copy : bool, optional
        True (default): return a new array. False: write into `x` (an npgpu.Array or a NumPy array) and return
        it.
    nan : float, optional
        The value for NaN (default 0.0).
    posinf : float, optional
        The value for +inf; default the dtype's largest finite value.
    neginf : float, optional
        The value for -inf; default the dtype's smallest (most negative) finite value.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Of x's shape and dtype (replacements too large for it become inf, as NumPy's cast). An npgpu.Array on
        x's device for npgpu input; for NumPy (array_like) input a NumPy array, a NumPy scalar for scalar input;
        `x` itself with ``copy=False`` where `x` is an array.

    Raises
    ------
    TypeError
        `x` None or a numpy.ndarray subclass.

    Examples
    --------
    >>> x = npgpu.asarray([np.nan, np.inf, -np.inf, 1.0], device="cpu")
    >>> npgpu.nan_to_num(x, posinf=9.0, neginf=-9.0)
    Array([ 0.,  9., -9.,  1.])
    >>> npgpu.nan_to_num(np.array([np.inf, -np.inf]))
    array([ 1.79769313e+308, -1.79769313e+308])
    """
    (d,), numpy_out = _inputs("nan_to_num", x, required=("x",))
    scalar_in = numpy_out and np.ndim(x) == 0 and not isinstance(x, np.ndarray)
    if d.dtype.kind not in "fc":
        r = d.copy() if copy else d
    else:
        parts = ("real", "imag") if d.dtype.kind == "c" else (None,)
        r = _array.empty(d.shape, dtype=d.dtype, device=d.device) if copy or numpy_out else d
        for part in parts:
            src = d if part is None else getattr(d, part)
            ft = src.dtype
            info = np.finfo(ft)
            with np.errstate(over="ignore"):  # NumPy's cast of a too large replacement gives inf too
                vals = [ft.type(v) for v in (nan, info.max if posinf is None else posinf,
                                             info.min if neginf is None else neginf)]
            res = _ew.where(_ew.isnan(src), vals[0], src)
            res = _ew.where(_ew.isinf(src) & (src > 0), vals[1], res)
            res = _ew.where(_ew.isinf(src) & (src < 0), vals[2], res)
            (r if part is None else getattr(r, part))[...] = res
    if numpy_out:
        host = r.get()
        if scalar_in:
            return host[()]
        if not copy and isinstance(x, np.ndarray):
            x[...] = host
            return x
        return host
    return r


# ------------------------------------------------------------------------------------------------ einsum

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _from_interleaved(args):
    """einsum(op0, sublist0, op1, sublist1, ..., [sublistout]) as (subscripts, operands)."""
    def letters(sub):
        s = ""
        for k in sub:
            if k is Ellipsis:
                s += "..."
            else:
                k = operator.index(k)
                if not 0 <= k < 52:
                    raise ValueError(f"subscript is not within the valid range [0, 52): {k}")
                s += _LETTERS[k]
        return s
    args = list(args)
    ops, terms = args[0::2][:len(args) // 2], [letters(s) for s in args[1::2]]
    subs = ",".join(terms)
    if len(args) % 2:
        subs += "->" + letters(args[-1])
    return subs, ops


def _parse(subscripts, shapes):
    """Per operand its labels (letters; ellipsis dims as ints, counted from the right), and the output's."""
    subs = subscripts.replace(" ", "")
    if subs.count("->") > 1 or ("-" in subs.replace("->", "")) or (">" in subs.replace("->", "")):
        raise ValueError("einstein sum subscripts string includes output subscript multiple times"
                         if subs.count("->") > 1 else "invalid '-' or '>' in einstein sum subscripts string")
    lhs, rhs = subs.split("->") if "->" in subs else (subs, None)
    terms = lhs.split(",")
    if len(terms) < len(shapes):
        raise ValueError("more operands provided to einstein sum function than specified in the subscripts "
                         "string")
    if len(terms) > len(shapes):
        raise ValueError("fewer operands provided to einstein sum function than specified in the subscripts "
                         "string")
    labels, n_ell = [], 0
    for i, (term, shape) in enumerate(zip(terms, shapes)):
        head, ell, tail = term.partition("...")
        for c in head + tail:
            if c == ".":
                raise ValueError(f"einstein sum subscripts string contains a '.' that is not part of an ellipsis "
                                 f"('...') in operand {i}")
            if c not in _LETTERS:
                raise ValueError(f"invalid subscript '{c}' in einstein sum subscripts string, subscripts must be "
                                 "letters")
        k = len(shape) - len(head) - len(tail)
        if k < 0 or (not ell and k > 0):
            raise ValueError(f"einstein sum subscripts string contains too {'many' if k < 0 else 'few'} "
                             f"subscripts for operand {i}")
        n_ell = builtins.max(n_ell, k)
        labels.append(list(head) + list(range(k, 0, -1)) + list(tail))  # ints: ellipsis dims from the right
    ell = list(range(n_ell, 0, -1))
    if rhs is None:
        counts = {}
        for lab in labels:
            for c in lab:
                if isinstance(c, str):
                    counts[c] = counts.get(c, 0) + 1
        out = ell + sorted(c for c, k in counts.items() if k == 1)
    else:
        head, e, tail = rhs.partition("...")
        for c in head + tail:
            if c not in _LETTERS:
                raise ValueError(f"invalid subscript '{c}' in einstein sum subscripts string, subscripts must be "
                                 "letters")
        if not e and n_ell:
            raise ValueError("output has more dimensions than subscripts given in einstein sum, but no '...' "
                             "ellipsis provided to broadcast the extra dimensions.")
        out = list(head) + (ell if e else []) + list(tail)
        seen = set()
        for c in head + tail:
            if c in seen:
                raise ValueError(f"einstein sum subscripts string includes output subscript '{c}' multiple times")
            seen.add(c)
            if not builtins.any(c in lab for lab in labels):
                raise ValueError(f"einstein sum subscripts string included output subscript '{c}' which never "
                                 "appeared in an input")
    return labels, out


def _diagonal(x, i, j):
    """The diagonal of axes i and j of x, as a new last axis."""
    n = x.shape[i]
    rest = [k for k in range(x.ndim) if k not in (i, j)]
    y = reshape(permute_dims(x, tuple(rest) + (i, j)), tuple(x.shape[k] for k in rest) + (n * n,))
    return _indexing.take(y, _arange(n, x.device) * (n + 1), axis=-1)


def _contract(a, la, b, lb, keep):
    """The product of a (labels la) and b (labels lb) summed over their shared labels not in `keep`:
    one (batched) matrix product."""
    from npgpu._blas import matmul
    shared = [c for c in la if c in lb]
    batch = [c for c in shared if c in keep]
    summed = [c for c in shared if c not in keep]
    fa = [c for c in la if c not in lb]
    fb = [c for c in lb if c not in la]
    size = dict(zip(la, a.shape))
    size.update(zip(lb, b.shape))
    pa = permute_dims(a, tuple(la.index(c) for c in batch + fa + summed))
    pb = permute_dims(b, tuple(lb.index(c) for c in batch + summed + fb))
    nb, m, k, n = (math.prod(size[c] for c in g) for g in (batch, fa, summed, fb))
    r = matmul(reshape(pa, (nb, m, k)), reshape(pb, (nb, k, n)))
    return reshape(r, tuple(size[c] for c in batch + fa + fb)), batch + fa + fb


def _shape_stand_in(x):
    """Something with x's shape and dtype for NumPy's shape-only functions, without a copy: an npgpu.Array
    becomes a zero-stride NumPy view of one element (no transfer); other inputs are left to NumPy."""
    if isinstance(x, _Array):
        return np.broadcast_to(np.zeros((), dtype=x.dtype), x.shape)
    return x


def einsum_path(*operands, optimize="greedy", einsum_call=False):
    """The contraction order of an einsum expression and NumPy's report of its cost, as numpy.einsum_path.

    Only the operands' shapes and dtypes are read: npgpu.Arrays are never copied to the host.

    Parameters
    ----------
    *operands : str and npgpu.Array or array_like
        As :func:`einsum`: the subscripts and the operands (or the interleaved form).
    optimize : {bool, list, tuple, 'greedy', 'optimal'}, optional
        As numpy.einsum_path (default 'greedy').
    einsum_call : bool, optional
        As numpy.einsum_path (NumPy's internal form of the answer).

    Returns
    -------
    path : list
        ``['einsum_path', (i, j), ...]``: the pairs contracted, in order.
    string : str
        NumPy's printable report (naive and optimised FLOP counts, largest intermediate).

    Raises
    ------
    ValueError
        Invalid subscripts, or shapes that do not match them (as NumPy).
    TypeError
        An `optimize` NumPy does not accept (as NumPy).

    See Also
    --------
    einsum, numpy.einsum_path

    Examples
    --------
    >>> a = npgpu.ones((2, 3), device="cpu")
    >>> b = npgpu.ones((3, 4), device="cpu")
    >>> c = npgpu.ones((4, 5), device="cpu")
    >>> npgpu.einsum_path("ij,jk,kl->il", a, b, c)[0]
    ['einsum_path', (1, 2), (0, 1)]
    """
    return np.einsum_path(*[_shape_stand_in(x) for x in operands], optimize=optimize, einsum_call=einsum_call)


def einsum(*operands, out=None, optimize=False, dtype=None, order="K", casting="safe"):
    """Einstein summation over the operands, as numpy.einsum.

    Subscripts with '->' or the implicit output (the labels seen once, in alphabetical order, upper case
    first), '...' broadcasting, repeated labels of one operand for diagonals and traces, and NumPy's interleaved
    form ``einsum(op0, [0, 1], op1, [1, 2], [0, 2])``. Repeated labels become diagonals (a gather), labels of
    one operand only are summed first, then the operands are contracted pairwise left to right, each pair by
    one batched matrix product; results equal NumPy's up to rounding.

    Parameters
    ----------
    *operands : str and npgpu.Array or array_like
        The subscripts string followed by the operands, or the interleaved form: operands, each followed by
        its list of subscripts (ints in [0, 52) or Ellipsis), then optionally the output's list.
    out : numpy.ndarray or npgpu.Array, optional
        Where to write the result; it is returned.
    optimize : bool or str, optional
        Accepted; the pairwise order is always left to right.
    dtype : dtype, optional
        The result's dtype; default the operands' promoted dtype. Bool results are sums of products, then != 0.
    order : {'K', 'A', 'C', 'F'}, optional
        Checked, otherwise without effect.
    casting : str, optional
        The casting rule each operand's dtype must meet towards the result's dtype (default 'safe').

    Returns
    -------
    npgpu.Array or numpy.ndarray
        An npgpu.Array on the inputs' device for npgpu input; for NumPy (array_like) input a NumPy array, a 0-d result
        as a NumPy scalar; `out` when given.

    Raises
    ------
    ValueError
        No operands; an invalid `order`; invalid subscripts or a number of them that does not match the
        operands; shapes that do not broadcast or repeated labels over dimensions of different sizes;
        npgpu.Arrays on different devices.
    TypeError
        An operand that cannot be cast to the result's dtype under `casting`; a numpy.ndarray subclass.

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2], [3, 4]], device="cpu")
    >>> npgpu.einsum("ij,jk->ik", a, a)
    Array([[ 7, 10],
           [15, 22]])
    >>> npgpu.einsum("ii", a)
    Array(5)
    >>> npgpu.einsum(np.array([[1, 2], [3, 4]]), [0, 1], np.array([1, 1]), [1], [0])
    array([3, 7])
    """
    if not operands:
        raise ValueError("No input operands")
    if isinstance(operands[0], str):
        subscripts, ops = operands[0], operands[1:]
    else:
        subscripts, ops = _from_interleaved(operands)
    if order not in ("K", "A", "C", "F"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    ops, numpy_out = _inputs("einsum", *ops)
    labels, out_labels = _parse(subscripts, [o.shape for o in ops])
    rdt = np.result_type(*[o.dtype for o in ops]) if dtype is None else np.dtype(dtype)
    for o in ops:
        if not np.can_cast(o.dtype, rdt, casting=casting):
            raise TypeError(f"Cannot cast array data from {o.dtype!r} to {rdt!r} according to the rule "
                            f"{casting!r}")
    work = np.dtype(np.int64) if rdt.kind == "b" else rdt  # booleans: sums of products, then != 0
    size = {}
    for o, lab in zip(ops, labels):
        for c, s in zip(lab, o.shape):
            if size.get(c, 1) != s and s != 1 and c in size and size[c] != 1:
                shapes = " ".join(f"{tuple(p.shape)}" for p in ops)
                raise ValueError(f"operands could not be broadcast together with remapped shapes: {shapes}")
            if s != 1 or c not in size:
                size[c] = s
    terms = []
    for o, lab in zip(ops, labels):
        x, lab = o.astype(work, copy=False), list(lab)
        for c in list(dict.fromkeys(lab)):  # repeated labels: diagonals
            while lab.count(c) > 1:
                i = lab.index(c)
                j = lab.index(c, i + 1)
                if x.shape[i] != x.shape[j]:
                    raise ValueError(f"dimensions in operand for collapsing index '{c}' don't match "
                                     f"({x.shape[i]} != {x.shape[j]})")
                x = _diagonal(x, i, j)
                lab = [d for k, d in enumerate(lab) if k not in (i, j)] + [c]
        if builtins.any(s != size[c] for c, s in zip(lab, x.shape)):  # size-1 dims broadcast to the others'
            x = _array.broadcast_to(x, tuple(size[c] for c in lab))
        terms.append((x, lab))
    # Labels of one operand that no other operand nor the output has: summed at once.
    for t, (x, lab) in enumerate(terms):
        others = set(out_labels).union(*[set(l2) for k, (_, l2) in enumerate(terms) if k != t])
        alone = [k for k, c in enumerate(lab) if c not in others]
        if alone:
            x = _reduce.sum(x, axis=tuple(alone), dtype=work)
            lab = [c for k, c in enumerate(lab) if k not in alone]
        terms[t] = (x, lab)
    acc, lab = terms[0]
    for t in range(1, len(terms)):
        keep = set(out_labels).union(*[set(l2) for _, l2 in terms[t + 1:]])
        acc, lab = _contract(acc, lab, terms[t][0], terms[t][1], keep)
    r = permute_dims(acc, tuple(lab.index(c) for c in out_labels)) if lab else acc
    if rdt.kind == "b":
        r = r != 0
    elif r.dtype != rdt:
        r = r.astype(rdt)
    if out is not None:
        out[...] = r.get() if isinstance(out, np.ndarray) else r
        return out
    return _back(r, numpy_out)


# ------------------------------------------------------------------------------------------------ polynomials

def _rank1(x):
    return x.reshape(1) if x.ndim == 0 else x


def _first_true(mask):
    """The index of the first True of the 1-D boolean Array `mask` (its length where there is none): one read."""
    if mask.shape[0] == 0:
        return 0
    i = int(_reduce.argmax(mask))
    return i if bool(mask[i]) else mask.shape[0]


def _length(x):
    if x.ndim == 0:
        raise TypeError("len() of unsized object")
    return x.shape[0]


def _order(m, what):
    m = int(m)
    if m < 0:
        raise ValueError(f"Order of {what} must be positive (see {'polyder' if what == 'integral' else 'polyint'})")
    return m


def poly(seq_of_zeros):
    """The coefficients of the monic polynomial with the given roots, as numpy.poly.

    ``(x - z[0]) * (x - z[1]) * ...``, highest power first, one root multiplied in at a time (NumPy's
    convolution with ``[1, -z]``). For a square matrix, the roots are its eigenvalues (npgpu.linalg.eigvals):
    its characteristic polynomial.

    Parameters
    ----------
    seq_of_zeros : npgpu.Array or array_like
        1-D: the roots; or a non-empty square 2-D matrix.

    Returns
    -------
    npgpu.Array or numpy.ndarray or float
        1-D, of length ``len(roots) + 1``: float64 for integer and bool roots, float32, complex64 and complex128
        roots keep their dtype, except that complex coefficients whose roots come in complex-conjugate pairs are
        returned real (as NumPy). No roots: 1.0 (a 0-d float64 npgpu.Array for npgpu input). An npgpu.Array on
        the input's device for npgpu input; for NumPy (array_like) input a NumPy array.

    Raises
    ------
    ValueError
        The input is neither 1-D nor a non-empty square 2-D matrix.
    TypeError
        The input None, 0-d (a scalar, as NumPy) or a numpy.ndarray subclass.
    numpy.linalg.LinAlgError
        A matrix holding infs or NaNs.

    See Also
    --------
    roots, polyval

    Examples
    --------
    >>> npgpu.poly(npgpu.asarray([1.0, 2.0, 3.0], device="cpu"))
    Array([ 1., -6., 11., -6.])
    >>> npgpu.poly(np.array([[1.0, 2.0], [3.0, 4.0]]))
    array([ 1., -5., -2.])
    """
    (z,), numpy_out = _inputs("poly", seq_of_zeros, required=("seq_of_zeros",))
    if z.ndim == 0:  # NumPy's poly refuses scalars so too (its dispatcher needs an iterable)
        raise TypeError("npgpu.poly: seq_of_zeros must be a sequence or an array of at least one dimension")
    if z.ndim == 2 and z.shape[0] == z.shape[1] and z.shape[0] != 0:
        from npgpu import linalg
        z = linalg.eigvals(z)
    elif z.ndim == 1:
        z = z.astype(np.mintypecode(z.dtype.char), copy=False)
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    if z.shape[0] == 0:
        return 1.0 if numpy_out else _array.full((), 1.0, np.float64, z.device)
    dt = z.dtype
    a = _array.full((1,), 1, dt, z.device)
    zero = _array.zeros((1,), dtype=dt, device=z.device)
    for i in range(z.shape[0]):  # a * [1, -z[i]]: a[k] + a[k - 1] * (-z[i])
        a = _ew.add(concatenate([a, zero]), _ew.multiply(concatenate([zero, a]), _ew.negative(z[i])))
    if dt.kind == "c":  # roots in conjugate pairs: the coefficients are real
        r = z.astype(np.complex128, copy=False)
        if bool(_reduce.all(_ew.equal(_sorting.sort(r), _sorting.sort(_ew.conj(r))))):
            a = _ew.real(a).copy()
    return _back(a, numpy_out, scalar=False)


def roots(p):
    """The roots of a polynomial, as numpy.roots.

    The eigenvalues (npgpu.linalg.eigvals) of the companion matrix of the polynomial stripped of its leading
    and trailing zeros, followed by one zero root per trailing zero.

    Parameters
    ----------
    p : npgpu.Array or array_like
        1-D: the coefficients, highest power first.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        1-D: real where all roots are real, complex otherwise (float64 or complex128; float32 input gives float32
        or complex64). Empty (float64) for a constant or all-zero polynomial. An npgpu.Array on the input's
        device for npgpu input; for NumPy (array_like) input a NumPy array.

    Raises
    ------
    ValueError
        `p` has more than one dimension.
    TypeError
        `p` None, 0-d (a scalar, as NumPy) or a numpy.ndarray subclass; a dtype numpy.linalg does not support
        (float16).
    numpy.linalg.LinAlgError
        Coefficients holding infs or NaNs.

    See Also
    --------
    poly, polyval

    Examples
    --------
    >>> npgpu.roots(npgpu.asarray([1.0, -3.0, 2.0, 0.0], device="cpu"))
    Array([2., 1., 0.])
    >>> npgpu.roots(np.array([1, 0, 4]))
    array([-0.+2.j,  0.-2.j])
    """
    if isinstance(p, poly1d):
        p = p.coeffs
    (pp,), numpy_out = _inputs("roots", p, required=("p",))
    if pp.ndim == 0:  # NumPy's roots refuses scalars so too (its dispatcher needs an iterable)
        raise TypeError("npgpu.roots: p must be a sequence or an array of at least one dimension")
    if pp.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    nz = pp != 0
    n = pp.shape[0]
    first = _first_true(nz)
    if first == n:
        return _back(_array.zeros((0,), dtype=np.float64, device=pp.device), numpy_out, scalar=False)
    trailing = _first_true(nz[::-1])
    pp = pp[first:n - trailing]
    if pp.dtype.kind not in "fc":
        pp = pp.astype(np.float64)
    k = pp.shape[0]
    if k > 1:
        from npgpu import linalg
        from npgpu._creation import eye
        a = eye(k - 1, k=-1, dtype=pp.dtype, device=pp.device)
        a[0, :] = _ew.divide(_ew.negative(pp[1:]), pp[0])
        r = linalg.eigvals(a)
    else:
        r = _array.zeros((0,), dtype=np.float64, device=pp.device)
    if trailing:
        r = concatenate([r, _array.zeros((trailing,), dtype=r.dtype, device=r.device)])
    return _back(r, numpy_out, scalar=False)


def polyint(p, m=1, k=None):
    """The antiderivative (indefinite integral) of a polynomial, as numpy.polyint.

    Each integration divides the coefficients by their new powers and appends an integration constant.

    Parameters
    ----------
    p : npgpu.Array or array_like
        1-D: the coefficients, highest power first.
    m : int, optional
        The order of the antiderivative (default 1); 0 returns `p`.
    k : npgpu.Array or array_like or scalar, optional
        The integration constants: ``k[0]`` for the first integration, ``k[1]`` for the second, and so on; a
        scalar (or one value) is used for all of them. Default zeros.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        1-D, of length ``len(p) + m``: float64 (complex128 for complex `p` or `k`). An npgpu.Array on the inputs'
        device for npgpu input; for NumPy (array_like) input a NumPy array.

    Raises
    ------
    ValueError
        `m` negative; fewer than `m` constants in `k` (other than one); `p` or `k` of more than one dimension;
        npgpu.Arrays on different devices.
    TypeError
        `p` None or 0-d; an input a numpy.ndarray subclass.

    See Also
    --------
    polyder

    Examples
    --------
    >>> npgpu.polyint(npgpu.asarray([3.0, 2.0, 1.0], device="cpu"))
    Array([1., 1., 1., 0.])
    >>> npgpu.polyint(np.array([6, 2]), m=2, k=[1, 5])
    array([1., 1., 1., 5.])
    """
    m = _order(m, "integral")
    if isinstance(p, poly1d):
        return poly1d(polyint(p.coeffs, m, k))
    (pp, kk), numpy_out = _inputs("polyint", p, k, required=("p",))
    if kk is None:
        kk = _array.zeros((m,), dtype=np.float64, device=pp.device)
    kk = _rank1(kk)
    if kk.ndim != 1:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    if kk.shape[0] == 1 and m > 1:
        kk = _ew.multiply(kk[0], _array.full((m,), 1, np.float64, pp.device))
    if kk.shape[0] < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    if m == 0:
        return _back(pp, numpy_out, scalar=False)
    if pp.ndim > 1:
        raise ValueError("all the input arrays must have same number of dimensions")
    y = pp
    for i in range(m):
        n = _length(y)
        powers = _array.asarray(np.arange(n, 0, -1), device=y.device)
        y = concatenate([_ew.true_divide(y, powers), kk[i:i + 1]])
    return _back(y, numpy_out, scalar=False)


def polyder(p, m=1):
    """The derivative of a polynomial, as numpy.polyder.

    Each differentiation multiplies the coefficients by their powers and drops the constant.

    Parameters
    ----------
    p : npgpu.Array or array_like
        1-D: the coefficients, highest power first.
    m : int, optional
        The order of the derivative (default 1); 0 returns `p`.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        1-D, of length ``max(len(p) - m, 0)``, in NumPy's promotion of p's dtype with int64 (integers and bool
        give int64, float32 float64). An npgpu.Array on the input's device for npgpu input; for NumPy
        (array_like) input a NumPy array.

    Raises
    ------
    ValueError
        `m` negative.
    TypeError
        `p` None, 0-d or a numpy.ndarray subclass.

    See Also
    --------
    polyint

    Examples
    --------
    >>> npgpu.polyder(npgpu.asarray([1.0, 1.0, 1.0, 1.0], device="cpu"))
    Array([3., 2., 1.])
    >>> npgpu.polyder(np.array([1, 1, 1, 1]), m=2)
    array([6, 2])
    """
    m = _order(m, "derivative")
    if isinstance(p, poly1d):
        return poly1d(polyder(p.coeffs, m))
    (pp,), numpy_out = _inputs("polyder", p, required=("p",))

    def once(v):
        n = _length(v) - 1
        return _ew.multiply(v[:-1], _array.asarray(np.arange(n, 0, -1), device=v.device))

    y = pp
    for i in range(m + 1):
        nxt = once(y)  # NumPy computes it at every level, the last one unused (its errors raised all the same)
        if i == m or y.shape[0] == 0:  # an empty y stays so (and its next derivative cannot fail)
            break
        y = nxt
    return _back(y, numpy_out, scalar=False)


def _padded(a1, a2):
    a1, a2 = _rank1(a1), _rank1(a2)
    diff = a2.shape[0] - a1.shape[0]
    if diff > 0:
        a1 = concatenate([_array.zeros((diff,), dtype=a1.dtype, device=a1.device), a1])
    elif diff < 0:
        a2 = concatenate([_array.zeros((-diff,), dtype=a2.dtype, device=a2.device), a2])
    return a1, a2


def polyadd(a1, a2):
    """The sum of two polynomials, as numpy.polyadd.

    The shorter coefficient sequence is padded with leading zeros.

    Parameters
    ----------
    a1, a2 : npgpu.Array or array_like
        1-D: the coefficients, highest power first (a 0-d input is a constant).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        1-D, of the longer length, in the inputs' promoted dtype. An npgpu.Array on the inputs' device for npgpu
        input; for NumPy (array_like) input a NumPy array.

    Raises
    ------
    ValueError
        Inputs of more than one dimension and different lengths; npgpu.Arrays on different devices.
    TypeError
        An input None or a numpy.ndarray subclass.

    See Also
    --------
    polysub, polymul, polydiv

    Examples
    --------
    >>> npgpu.polyadd(npgpu.asarray([1, 2], device="cpu"), npgpu.asarray([9, 5, 4], device="cpu"))
    Array([9, 6, 6])
    >>> npgpu.polyadd(np.array([1.5, 2.0]), 1)
    array([1.5, 3. ])
    """
    if isinstance(a1, poly1d) or isinstance(a2, poly1d):
        return poly1d(polyadd(_coefficients(a1), _coefficients(a2)))
    (x, y), numpy_out = _inputs("polyadd", a1, a2, required=("a1", "a2"))
    x, y = _padded(x, y)
    return _back(_ew.add(x, y), numpy_out, scalar=False)


def polysub(a1, a2):
    """The difference of two polynomials, as numpy.polysub.

    The shorter coefficient sequence is padded with leading zeros.

    Parameters
    ----------
    a1, a2 : npgpu.Array or array_like
        1-D: the coefficients, highest power first (a 0-d input is a constant); `a2` is subtracted from `a1`.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        1-D, of the longer length, in the inputs' promoted dtype. An npgpu.Array on the inputs' device for npgpu
        input; for NumPy (array_like) input a NumPy array.

    Raises
    ------
    ValueError
        Inputs of more than one dimension and different lengths; npgpu.Arrays on different devices.
    TypeError
        An input None or a numpy.ndarray subclass; boolean inputs (as NumPy's subtract).

    See Also
    --------
    polyadd, polymul, polydiv

    Examples
    --------
    >>> npgpu.polysub(npgpu.asarray([2, 10, -2], device="cpu"), npgpu.asarray([3, 10, -4], device="cpu"))
    Array([-1,  0,  2])
    >>> npgpu.polysub(np.array([1.0, 2.0, 3.0]), np.array([1.0, 1.0]))
    array([1., 1., 2.])
    """
    if isinstance(a1, poly1d) or isinstance(a2, poly1d):
        return poly1d(polysub(_coefficients(a1), _coefficients(a2)))
    (x, y), numpy_out = _inputs("polysub", a1, a2, required=("a1", "a2"))
    x, y = _padded(x, y)
    return _back(_ew.subtract(x, y), numpy_out, scalar=False)


def _trim_leading(a):
    """poly1d's coefficients: 1-D, leading zeros dropped ([0] where nothing is left)."""
    a = _rank1(a)
    if a.ndim > 1:
        raise ValueError("Polynomial must be 1d only.")
    first = _first_true(a != 0)
    if first == a.shape[0]:
        return _array.zeros((1,), dtype=a.dtype, device=a.device)
    return a[first:]


def polymul(a1, a2):
    """The product of two polynomials, as numpy.polymul.

    The convolution (npgpu.convolve) of the coefficients, leading zeros dropped first.

    Parameters
    ----------
    a1, a2 : npgpu.Array or array_like
        1-D: the coefficients, highest power first (a 0-d input is a constant).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        1-D, of length ``len(a1) + len(a2) - 1`` (without leading zeros), in the inputs' promoted dtype (bool:
        as convolve's). An npgpu.Array on the inputs' device for npgpu input; for NumPy (array_like) input a
        NumPy array.

    Raises
    ------
    ValueError
        An input of more than one dimension; npgpu.Arrays on different devices.
    TypeError
        An input None or a numpy.ndarray subclass.

    See Also
    --------
    polyadd, polysub, polydiv, convolve

    Examples
    --------
    >>> npgpu.polymul(npgpu.asarray([1, 2, 3], device="cpu"), npgpu.asarray([9, 5, 1], device="cpu"))
    Array([ 9, 23, 38, 17,  3])
    >>> npgpu.polymul(np.array([0.0, 1.0, 1.0]), np.array([1.0, -1.0]))
    array([ 1.,  0., -1.])
    """
    if isinstance(a1, poly1d) or isinstance(a2, poly1d):
        return poly1d(polymul(_coefficients(a1), _coefficients(a2)))
    (x, y), numpy_out = _inputs("polymul", a1, a2, required=("a1", "a2"))
    return _back(convolve(_trim_leading(x), _trim_leading(y)), numpy_out, scalar=False)


def polydiv(u, v):
    """The quotient and remainder of polynomial division, as numpy.polydiv.

    Long division as NumPy's (one row operation per quotient coefficient); leading remainder coefficients of
    magnitude at most 1e-8 (``numpy.allclose(r[0], 0, rtol=1e-14)``) are then dropped, down to one.

    Parameters
    ----------
    u : npgpu.Array or array_like
        1-D: the dividend's coefficients, highest power first (a 0-d input is a constant).
    v : npgpu.Array or array_like
        1-D: the divisor's coefficients, highest power first.

    Returns
    -------
    q : npgpu.Array or numpy.ndarray
        The quotient's coefficients, of length ``max(len(u) - len(v) + 1, 1)``.
    r : npgpu.Array or numpy.ndarray
        The remainder's coefficients.
        Both floating (float64 for integer and bool inputs), in the inputs' promoted dtype. npgpu.Arrays on the
        inputs' device for npgpu input; for NumPy (array_like) input NumPy arrays.

    Raises
    ------
    IndexError
        An empty input.
    ValueError
        An input of more than one dimension (NumPy's own fails for most such inputs); npgpu.Arrays on different
        devices.
    TypeError
        An input None or a numpy.ndarray subclass.

    See Also
    --------
    polymul, polyadd, polysub

    Examples
    --------
    >>> q, r = npgpu.polydiv(npgpu.asarray([3.0, 5.0, 2.0], device="cpu"), npgpu.asarray([2.0, 1.0], device="cpu"))
    >>> q, r
    (Array([1.5 , 1.75]), Array([0.25]))
    >>> npgpu.polydiv(np.array([1, 0, -1]), np.array([1, 1]))
    (array([ 1., -1.]), array([0.]))
    """
    if isinstance(u, poly1d) or isinstance(v, poly1d):
        q, r = polydiv(_coefficients(u), _coefficients(v))
        return poly1d(q), poly1d(r)
    (x, y), numpy_out = _inputs("polydiv", u, v, required=("u", "v"))
    x, y = _ew.add(_rank1(x), 0.0), _ew.add(_rank1(y), 0.0)
    if x.ndim > 1 or y.ndim > 1:
        raise ValueError("polydiv: the polynomials must be 1-D")
    if x.shape[0] == 0 or y.shape[0] == 0:
        raise IndexError("index 0 is out of bounds for axis 0 with size 0")
    dt = np.result_type(x.dtype, y.dtype)
    m, n = x.shape[0] - 1, y.shape[0] - 1
    scale = _ew.divide(1.0, y[0])
    q = _array.zeros((builtins.max(m - n + 1, 1),), dtype=dt, device=x.device)
    r = x.astype(dt)
    for k in range(m - n + 1):
        d = _ew.multiply(scale, r[k])
        q[k] = d
        r[k:k + n + 1] = _ew.subtract(r[k:k + n + 1], _ew.multiply(d, y))
    # allclose(r[i], 0, rtol=1e-14): |r[i]| <= 1e-8, computed in double precision as NumPy's
    close = _ew.less_equal(_ew.absolute(r.astype(np.result_type(r.dtype, np.float64), copy=False)), 1e-8)
    first = builtins.min(_first_true(_ew.logical_not(close)), r.shape[0] - 1)
    return _back(q, numpy_out, scalar=False), _back(r[first:], numpy_out, scalar=False)


def check_fit_points(x, y):
    """NumPy's checks of a least-squares fit's points, with its messages (numpy.polyfit, numpy.polynomial)."""
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """The least-squares polynomial fit of degree `deg` to points (x, y), as numpy.polyfit.

    NumPy's method: the Vandermonde matrix (npgpu.vander), weighted by `w`, its columns scaled to unit norm,
    solved by npgpu.linalg.lstsq; the covariance from npgpu.linalg.inv of the normal matrix.

    Parameters
    ----------
    x : npgpu.Array or array_like
        1-D, non-empty: the sample points.
    y : npgpu.Array or array_like
        (M,) or (M, K): the values at the sample points (K data sets fitted at once).
    deg : int
        The degree of the polynomial.
    rcond : float, optional
        Singular values at most ``rcond`` times the largest count as zero; default ``len(x) * eps`` of x's
        (floating) dtype.
    full : bool, optional
        False (default): only the coefficients (and the covariance with `cov`); True: also lstsq's
        diagnostics.
    w : npgpu.Array or array_like, optional
        1-D, of length M: weights applied to the residuals before squaring (1/sigma for Gaussian errors).
    cov : bool or str, optional
        With ``full=False``: also return the covariance matrix of the coefficients, scaled by
        ``residuals / (M - deg - 1)``, or unscaled with ``cov="unscaled"``.

    Returns
    -------
    p : npgpu.Array or numpy.ndarray
        (deg + 1,) or (deg + 1, K): the coefficients, highest power first (float64 for integer input; float32
        and complex inputs keep their dtype).
    residuals, rank, singular_values, rcond
        With ``full=True``: the sum of squared weighted residuals, the rank of the scaled Vandermonde matrix
        (numpy.int32), its singular values, and `rcond` used.
    V : npgpu.Array or numpy.ndarray
        With `cov` and ``full=False``: (deg + 1, deg + 1), or (deg + 1, deg + 1, K) for 2-D `y`.
        npgpu.Arrays on the inputs' device for npgpu input; for NumPy (array_like) input NumPy arrays.

    Raises
    ------
    ValueError
        `deg` negative; with `cov` (scaled), no more points than coefficients; npgpu.Arrays on different
        devices.
    TypeError
        `x` not 1-D or empty; `y` not 1-D or 2-D; `x`, `y` or `w` of different lengths; `w` not 1-D; an input
        None or a numpy.ndarray subclass.
    numpy.linalg.LinAlgError
        The least-squares problem does not converge.

    Warns
    -----
    numpy.exceptions.RankWarning
        The scaled Vandermonde matrix is rank deficient (not with ``full=True``).

    See Also
    --------
    polyval, npgpu.linalg.lstsq

    Examples
    --------
    >>> x = npgpu.asarray([0.0, 1.0, 2.0, 3.0], device="cpu")
    >>> npgpu.polyfit(x, 2 * x + 1, 1)
    Array([2., 1.])
    >>> c, V = npgpu.polyfit(np.array([0.0, 1.0, 2.0, 3.0]), np.array([1.0, 2.0, 5.0, 9.0]), 1, cov=True)
    >>> c
    array([2.7, 0.2])
    """
    import warnings

    from npgpu import linalg
    from npgpu._blas import matmul
    from npgpu._creation import vander

    order = int(deg) + 1
    (xx, yy, ww), numpy_out = _inputs("polyfit", x, y, w, required=("x", "y"))
    xx, yy = _ew.add(xx, 0.0), _ew.add(yy, 0.0)
    if deg < 0:
        raise ValueError("expected deg >= 0")
    check_fit_points(xx, yy)
    if rcond is None:
        rcond = xx.shape[0] * np.finfo(xx.dtype).eps
    lhs = vander(xx, order)
    rhs = yy
    if ww is not None:
        ww = _ew.add(ww, 0.0)
        if ww.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if ww.shape[0] != yy.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs = _ew.multiply(lhs, ww[:, None]).astype(lhs.dtype, copy=False)
        rhs = _ew.multiply(rhs, ww[:, None] if rhs.ndim == 2 else ww).astype(rhs.dtype, copy=False)
    scale = _ew.sqrt(_reduce.sum(_ew.multiply(lhs, lhs), axis=0))
    lhs = _ew.divide(lhs, scale)
    c, resids, rank, s = linalg.lstsq(lhs, rhs, rcond)
    c = _ew.divide(c.T, scale).T
    if rank != order and not full:
        warnings.warn("Polyfit may be poorly conditioned", np.exceptions.RankWarning, stacklevel=2)
    if full:
        return (_back(c, numpy_out, scalar=False), _back(resids, numpy_out, scalar=False), rank,
                _back(s, numpy_out, scalar=False), rcond)
    if not cov:
        return _back(c, numpy_out, scalar=False)
    vbase = linalg.inv(matmul(lhs.T, lhs))
    vbase = _ew.divide(vbase, _ew.multiply(scale[:, None], scale[None, :]))
    if cov == "unscaled":
        fac = 1
    else:
        if xx.shape[0] <= order:
            raise ValueError("the number of data points must exceed order to scale the covariance matrix")
        fac = _ew.divide(resids, xx.shape[0] - order)
    v = _ew.multiply(vbase, fac) if yy.ndim == 1 else _ew.multiply(vbase[:, :, None], fac)
    return _back(c, numpy_out, scalar=False), _back(v, numpy_out, scalar=False)


# ------------------------------------------------------------------------------------------------ windows

def _window_values(name, *args):
    """NumPy's ``np.array([0.0, M, ...])``: the window's parameters as host float64 scalars."""
    for a in args:
        if isinstance(a, _Array):
            raise TypeError(f"npgpu.{name}: its parameters must be Python or NumPy numbers, not an npgpu.Array")
    # Python integers as floats (NumPy's array of them is float64 up to 2**64, then object).
    args = [float(a) if isinstance(a, int) and not isinstance(a, bool) else a for a in args]
    try:
        values = np.array([0.0, *args])
    except ValueError as e:
        raise TypeError(f"npgpu.{name}: its parameters must be real numbers ({e})") from None
    if values.ndim != 1 or values.dtype.kind not in "biuf":
        raise TypeError(f"npgpu.{name}: its parameters must be real numbers, not "
                        f"{', '.join(type(a).__name__ for a in args)}")
    values = values.astype(np.float64)
    if values[1] > np.iinfo(np.intp).max:  # NumPy's arange of that many points refuses so (inf too)
        raise ValueError("Maximum allowed size exceeded")
    return values


def _cosine_window(name, M, device, coefficients):
    """sum_j c_j * cos(j * pi * n / (M - 1)) over n = 1 - M, 3 - M, ..., M - 1, in NumPy's order of
    operations (``0.42 + 0.5 * cos(pi * n / (M - 1)) + 0.08 * cos(2.0 * pi * n / (M - 1))``)."""
    from npgpu._creation import arange
    M = _window_values(name, M)[1]
    if M < 1:
        return _array.zeros((0,), dtype=np.float64, device=device)
    if M == 1:
        return _array.full((1,), 1, np.float64, device)
    n = arange(1 - M, M, 2, dtype=np.float64, device=device)
    r = None
    for j, c in enumerate(coefficients):
        if j == 0:
            r = c
            continue
        arg = _ew.divide(_ew.multiply(np.pi if j == 1 else j * np.pi, n), M - 1)
        term = _ew.multiply(c, _ew.cos(arg))
        r = _ew.add(r, term)
    return r


def bartlett(M, *, device=None):
    """The Bartlett (triangular) window, as numpy.bartlett.

    ``1 - |n| / (M - 1)`` for n = 1 - M, 3 - M, ..., M - 1: zero at both ends, one in the middle (odd M).

    Parameters
    ----------
    M : int
        The number of points; none for M < 1.
    device : optional
        npgpu's own keyword: where the result lives, what ``npgpu.asarray`` takes (None: the default device;
        "cpu", "cuda", "cuda:N", an int, an npgpu.Device, another array's ``.device``).

    Returns
    -------
    npgpu.Array
        (max(M, 0),), float64, on `device`.

    Raises
    ------
    TypeError
        `M` not a real number (an npgpu.Array among them).
    ValueError
        `M` NaN or infinite; an unknown `device`.

    See Also
    --------
    blackman, hamming, hanning, kaiser

    Examples
    --------
    >>> npgpu.bartlett(5, device="cpu")
    Array([0. , 0.5, 1. , 0.5, 0. ])
    """
    from npgpu._creation import arange
    M = _window_values("bartlett", M)[1]
    if M < 1:
        return _array.zeros((0,), dtype=np.float64, device=device)
    if M == 1:
        return _array.full((1,), 1, np.float64, device)
    n = arange(1 - M, M, 2, dtype=np.float64, device=device)
    return _ew.where(_ew.less_equal(n, 0), _ew.add(1, _ew.divide(n, M - 1)), _ew.subtract(1, _ew.divide(n, M - 1)))


def blackman(M, *, device=None):
    """The Blackman window, as numpy.blackman.

    ``0.42 + 0.5 * cos(pi * n / (M - 1)) + 0.08 * cos(2 * pi * n / (M - 1))`` for n = 1 - M, 3 - M, ...,
    M - 1.

    Parameters
    ----------
    M : int
        The number of points; none for M < 1.
    device : optional
        npgpu's own keyword: where the result lives, what ``npgpu.asarray`` takes (None: the default device).

    Returns
    -------
    npgpu.Array
        (max(M, 0),), float64, on `device`.

    Raises
    ------
    TypeError
        `M` not a real number (an npgpu.Array among them).
    ValueError
        `M` NaN or infinite; an unknown `device`.

    See Also
    --------
    bartlett, hamming, hanning, kaiser

    Examples
    --------
    >>> npgpu.blackman(5, device="cpu")
    Array([-0.  ,  0.34,  1.  ,  0.34, -0.  ])
    """
    return _cosine_window("blackman", M, device, (0.42, 0.5, 0.08))


def hamming(M, *, device=None):
    """The Hamming window, as numpy.hamming.

    ``0.54 + 0.46 * cos(pi * n / (M - 1))`` for n = 1 - M, 3 - M, ..., M - 1.

    Parameters
    ----------
    M : int
        The number of points; none for M < 1.
    device : optional
        npgpu's own keyword: where the result lives, what ``npgpu.asarray`` takes (None: the default device).

    Returns
    -------
    npgpu.Array
        (max(M, 0),), float64, on `device`.

    Raises
    ------
    TypeError
        `M` not a real number (an npgpu.Array among them).
    ValueError
        `M` NaN or infinite; an unknown `device`.

    See Also
    --------
    bartlett, blackman, hanning, kaiser

    Examples
    --------
    >>> npgpu.hamming(5, device="cpu")
    Array([0.08, 0.54, 1.  , 0.54, 0.08])
    """
    return _cosine_window("hamming", M, device, (0.54, 0.46))


def hanning(M, *, device=None):
    """The Hann window, as numpy.hanning.

    ``0.5 + 0.5 * cos(pi * n / (M - 1))`` for n = 1 - M, 3 - M, ..., M - 1.

    Parameters
    ----------
    M : int
        The number of points; none for M < 1.
    device : optional
        npgpu's own keyword: where the result lives, what ``npgpu.asarray`` takes (None: the default device).

    Returns
    -------
    npgpu.Array
        (max(M, 0),), float64, on `device`.

    Raises
    ------
    TypeError
        `M` not a real number (an npgpu.Array among them).
    ValueError
        `M` NaN or infinite; an unknown `device`.

    See Also
    --------
    bartlett, blackman, hamming, kaiser

    Examples
    --------
    >>> npgpu.hanning(5, device="cpu")
    Array([0. , 0.5, 1. , 0.5, 0. ])
    """
    return _cosine_window("hanning", M, device, (0.5, 0.5))


def kaiser(M, beta, *, device=None):
    """The Kaiser window, as numpy.kaiser.

    ``i0(beta * sqrt(1 - ((n - alpha) / alpha) ** 2)) / i0(beta)`` for n = 0, ..., M - 1 and
    ``alpha = (M - 1) / 2``, with npgpu.i0.

    Parameters
    ----------
    M : int
        The number of points; none for M < 1.
    beta : float
        The shape parameter (0: rectangular; about 5: like Hamming; 8.6: like Blackman).
    device : optional
        npgpu's own keyword: where the result lives, what ``npgpu.asarray`` takes (None: the default device).

    Returns
    -------
    npgpu.Array
        (max(M, 0),), float64, on `device`.

    Raises
    ------
    TypeError
        `M` or `beta` not a real number (an npgpu.Array among them).
    ValueError
        `M` NaN or infinite; an unknown `device`.

    See Also
    --------
    bartlett, blackman, hamming, hanning

    Examples
    --------
    >>> npgpu.kaiser(4, 5.0, device="cpu")
    Array([0.03671089, 0.7753221 , 0.7753221 , 0.03671089])
    """
    from npgpu._creation import arange
    from npgpu._elementwise_composed import i0
    _, M, beta = _window_values("kaiser", M, beta)
    if M == 1:
        return _array.full((1,), 1, np.float64, device)
    n = arange(0, M, dtype=np.float64, device=device)
    alpha = (M - 1) / 2.0
    t = _ew.power(_ew.divide(_ew.subtract(n, alpha), alpha), 2.0)
    num = i0(_ew.multiply(beta, _ew.sqrt(_ew.subtract(1, t))))
    return _ew.divide(num, i0(_array.full((), beta, np.float64, n.device)))


def _coefficients(p):
    """The coefficients of a poly1d, or `p` itself (another operand of the poly functions)."""
    return p.coeffs if isinstance(p, poly1d) else p


class poly1d:
    """A polynomial in one variable, as numpy.poly1d, its coefficients in an npgpu.Array.

    Calling it evaluates the polynomial (npgpu.polyval; another poly1d composes them); ``+``, ``-``, ``*``,
    ``**`` and ``/`` (by a number, or npgpu.polydiv's quotient and remainder by a polynomial) give poly1d
    objects, and so do npgpu.polyadd, polysub, polymul, polydiv, polyder and polyint given one. ``p[k]`` is the
    coefficient of ``x**k``; printing uses NumPy's layout.

    Parameters
    ----------
    c_or_r : npgpu.Array, array_like or poly1d
        The coefficients, highest power first (leading zeros dropped), or with ``r=True`` the roots.
    r : bool, optional
        `c_or_r` holds the roots (default False).
    variable : str, optional
        The variable's name when printed (default "x").

    Attributes
    ----------
    coeffs, c, coef, coefficients : npgpu.Array
        The coefficients, highest power first: an npgpu.Array on the input's device (the default device for
        other input).
    order, o : int
        The degree.
    roots, r : npgpu.Array
        The roots (npgpu.roots).
    variable : str
        The variable's name.

    Raises
    ------
    ValueError
        Coefficients of more than one dimension.

    See Also
    --------
    polyval, polyfit, roots

    Examples
    --------
    >>> p = npgpu.poly1d(npgpu.asarray([1.0, -3.0, 2.0], device="cpu"))
    >>> p
    poly1d([ 1., -3.,  2.])
    >>> p(npgpu.asarray([0.0, 1.0, 4.0], device="cpu"))
    Array([2., 0., 6.])
    >>> sorted(p.roots.tolist())
    [1.0, 2.0]
    >>> (p * p).order, p.deriv()
    (4, poly1d([ 2., -3.]))
    >>> print(p)
       2
    1 x - 3 x + 2
    """

    __hash__ = None

    def __init__(self, c_or_r, r=False, variable=None):
        if isinstance(c_or_r, (poly1d, np.poly1d)):
            self._variable = c_or_r.variable if variable is None else variable
            c = c_or_r.coeffs
            self._coeffs = c if isinstance(c, _Array) else _array.asarray(c)
            return
        if r:
            c_or_r = poly(c_or_r)
        c = c_or_r if isinstance(c_or_r, _Array) else _array.asarray(c_or_r)
        if c.ndim > 1:
            raise ValueError("Polynomial must be 1d only.")
        self._coeffs = _trim_leading(c)
        self._variable = "x" if variable is None else variable

    @property
    def coeffs(self):
        """The coefficients, highest power first (an npgpu.Array)."""
        return self._coeffs

    c = coef = coefficients = coeffs

    @property
    def variable(self):
        """The variable's name when printed."""
        return self._variable

    @property
    def order(self):
        """The degree."""
        return self._coeffs.shape[0] - 1

    o = order

    @property
    def roots(self):
        """The roots (npgpu.roots of the coefficients)."""
        return roots(self._coeffs)

    r = roots

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self._coeffs.get(), dtype=dtype)

    def __repr__(self):
        return f"poly1d({repr(self._coeffs.get())[6:-1]})"

    def __str__(self):
        return str(np.poly1d(self._coeffs.get(), variable=self._variable))

    def __len__(self):
        return self.order

    def __call__(self, val):
        return polyval(self._coeffs, val)

    def __neg__(self):
        return poly1d(_ew.negative(self._coeffs))

    def __pos__(self):
        return self

    def __mul__(self, other):
        if np.isscalar(other):
            return poly1d(_ew.multiply(self._coeffs, other))
        return poly1d(polymul(self._coeffs, poly1d(other)._coeffs))

    __rmul__ = __mul__

    def __add__(self, other):
        return poly1d(polyadd(self._coeffs, poly1d(other)._coeffs))

    __radd__ = __add__

    def __sub__(self, other):
        return poly1d(polysub(self._coeffs, poly1d(other)._coeffs))

    def __rsub__(self, other):
        return poly1d(polysub(poly1d(other)._coeffs, self._coeffs))

    def __pow__(self, val):
        if not np.isscalar(val) or int(val) != val or val < 0:
            raise ValueError("Power to non-negative integers only.")
        res = poly1d(_array.full((1,), 1, dtype=self._coeffs.dtype, device=self._coeffs.device))
        for _ in range(int(val)):
            res = res * self
        return res

    def __truediv__(self, other):
        if np.isscalar(other):
            return poly1d(_ew.true_divide(self._coeffs, other))
        return polydiv(self, poly1d(other))

    def __rtruediv__(self, other):
        if np.isscalar(other):
            return poly1d(_ew.true_divide(other, self._coeffs))
        return polydiv(poly1d(other), self)

    def __eq__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        if self._coeffs.shape != other._coeffs.shape:
            return False
        return bool(_reduce.all(_ew.equal(self._coeffs, other._coeffs)))

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __getitem__(self, power):
        """The coefficient of ``x**power`` (0 beyond the degree), a NumPy scalar."""
        if power > self.order or power < 0:
            return self._coeffs.dtype.type(0)
        return self._coeffs[self.order - power].get()[()]

    def __setitem__(self, power, value):
        if power < 0:
            raise ValueError("Does not support negative powers.")
        c = self._coeffs
        if power > self.order:
            c = concatenate([_array.zeros((power - self.order,), dtype=c.dtype, device=c.device), c])
        else:
            c = c.copy()  # the Array may be the caller's
        c[c.shape[0] - 1 - power] = value
        self._coeffs = c

    def __iter__(self):
        return iter(self._coeffs.get())

    def integ(self, m=1, k=0):
        """The m-th antiderivative, integration constants k (npgpu.polyint).

        Examples
        --------
        >>> npgpu.poly1d(npgpu.asarray([3.0, 0.0], device="cpu")).integ(k=1.0)
        poly1d([1.5, 0. , 1. ])
        """
        return poly1d(polyint(self._coeffs, m=m, k=k))

    def deriv(self, m=1):
        """The m-th derivative (npgpu.polyder).

        Examples
        --------
        >>> npgpu.poly1d(npgpu.asarray([1.0, 2.0, 3.0], device="cpu")).deriv()
        poly1d([2., 2.])
        """
        return poly1d(polyder(self._coeffs, m=m))
