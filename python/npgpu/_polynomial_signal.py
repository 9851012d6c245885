"""NumPy's 1-D signal and polynomial helpers, comparisons and einsum: convolve, correlate, interp, trapezoid,
polyval, array_equal, array_equiv, nan_to_num, round_ (NumPy 1's name for round) and einsum.

Each is composed of npgpu's gathers, matmul, searchsorted, reductions and elementwise operations, so it runs
where they run. npgpu.Array in, npgpu.Array out on the same device; NumPy (array_like) in, NumPy out.
Subclasses of numpy.ndarray (masked arrays, np.matrix) are refused with TypeError.
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
           "nan_to_num", "round_", "einsum"]

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
