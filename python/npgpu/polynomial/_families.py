"""The six polynomial families of numpy.polynomial on npgpu arrays.

What touches the sample points runs where the points are: evaluation (`*val`, `*val2d`, `*val3d`, `*grid2d`,
`*grid3d`, `polyvalfromroots`), pseudo-Vandermonde matrices (`*vander`, `*vander2d`, `*vander3d`) and
least-squares fits (`*fit`, through npgpu.linalg.lstsq). Each family is one three-term recurrence
P[k+1] = (A[k] + B[k] x) P[k] - C[k] P[k-1], with P[0] = 1: evaluation sums the series by Clenshaw's
recurrence on it, the Vandermonde columns follow it forward. The rest works on coefficient arrays, which are
short: NumPy's own functions run on host copies (npgpu.Array in, npgpu.Array out on the same device).
"""
import functools
import warnings

import numpy as np
import numpy.polynomial as _npp

from npgpu import _array, _elementwise, _reduce
from npgpu._manipulation import broadcast_arrays, reshape
from npgpu._polynomial_signal import check_fit_points
from npgpu._statistics import _back, _inputs

_ew = _elementwise
_Array = _array.Array

# module, prefix and class of each family in numpy.polynomial
FAMILIES = {
    "polynomial": ("poly", "Polynomial"),
    "chebyshev": ("cheb", "Chebyshev"),
    "legendre": ("leg", "Legendre"),
    "laguerre": ("lag", "Laguerre"),
    "hermite": ("herm", "Hermite"),
    "hermite_e": ("herme", "HermiteE"),
}
# The public names, fixed rather than read from NumPy's __all__, so npgpu's API (and its reference pages) is the
# same under every supported NumPy: each family's prefix joined to these, then the family's own.
_COMMON = ("add", "companion", "der", "div", "domain", "fit", "fromroots", "grid2d", "grid3d", "int", "line", "mul",
           "mulx", "one", "pow", "roots", "sub", "trim", "val", "val2d", "val3d", "vander", "vander2d", "vander3d",
           "x", "zero", "valnd")
_OWN = {"polynomial": ("polyvalfromroots",),
        "chebyshev": ("cheb2poly", "poly2cheb", "chebgauss", "chebweight", "chebinterpolate", "chebpts1", "chebpts2")}


def public_names(module):
    """npgpu.polynomial.<module>'s public names (its __all__, unsorted)."""
    prefix, cls_name = FAMILIES[module]
    own = _OWN.get(module, (f"{prefix}2poly", f"poly2{prefix}", f"{prefix}gauss", f"{prefix}weight"))
    return (cls_name,) + tuple(prefix + n for n in _COMMON) + own


def _recurrence(module, k):
    """(A, B, C) of P[k+1] = (A + B x) P[k] - C P[k-1] for the family in `module`."""
    if module == "polynomial":
        return 0.0, 1.0, 0.0
    if module == "chebyshev":
        return 0.0, (1.0 if k == 0 else 2.0), (0.0 if k == 0 else 1.0)
    if module == "legendre":
        return 0.0, (2 * k + 1) / (k + 1), k / (k + 1)
    if module == "laguerre":
        return (2 * k + 1) / (k + 1), -1.0 / (k + 1), k / (k + 1)
    if module == "hermite":
        return 0.0, 2.0, 2.0 * k
    return 0.0, 1.0, float(k)  # hermite_e


def _as_coefficients(c):
    """c as NumPy's series functions take it: at least 1-d, integers and bools as float64."""
    if c.ndim == 0:
        c = c.reshape(1)
    if c.dtype.kind in "biu":
        c = c.astype(np.float64)
    return c


def _series_value(module, x, c):
    """sum_k c[k] P_k(x) by Clenshaw's recurrence, c[k] broadcasting against x."""
    n = c.shape[0]
    b1 = _ew.add(c[n - 1], _ew.multiply(x, 0))  # the shape and dtype of the result
    b2 = None
    for k in range(n - 2, -1, -1):
        a, b, _ = _recurrence(module, k)
        _, _, c_next = _recurrence(module, k + 1)
        alpha = _ew.add(_ew.multiply(x, b), a) if a else _ew.multiply(x, b)
        nxt = _ew.add(c[k], _ew.multiply(alpha, b1))
        if b2 is not None and c_next:
            nxt = _ew.subtract(nxt, _ew.multiply(b2, c_next))
        b1, b2 = nxt, b1
    return b1


def val(module, name, x, c, tensor=True):
    (xx, cc), numpy_out = _inputs(name, x, c, required=("x", "c"))
    cc = _as_coefficients(cc)
    if tensor:
        cc = cc.reshape(tuple(cc.shape) + (1,) * xx.ndim)
    return _back(_series_value(module, xx, cc), numpy_out)


def valfromroots(name, x, r, tensor=True):
    (xx, rr), numpy_out = _inputs(name, x, r, required=("x", "r"))
    rr = _as_coefficients(rr)
    if tensor:
        rr = rr.reshape(tuple(rr.shape) + (1,) * xx.ndim)
    elif xx.ndim >= rr.ndim:
        raise ValueError("x.ndim must be < r.ndim when tensor == False")
    return _back(_reduce.prod(_ew.subtract(xx, rr), axis=0), numpy_out)


def _degree(deg):
    d = np.asarray(deg)
    if d.ndim != 0 or d.dtype.kind not in "iu":
        try:
            d = np.asarray(int(deg))
            if d != deg:
                raise ValueError
        except (TypeError, ValueError):
            raise TypeError(f"deg must be a non-negative int, not {deg!r}") from None
    if d < 0:
        raise ValueError("deg must be non-negative")
    return int(d)


def _vander_matrix(module, x, deg):
    """x.shape + (deg + 1,): [P_0(x), ..., P_deg(x)] along the last axis (integer x as float64). The result
    is allocated first, so a degree too large for memory fails at once."""
    if x.dtype.kind in "biu":
        x = x.astype(np.float64)
    v = _array.empty(tuple(x.shape) + (deg + 1,), dtype=x.dtype, device=x.device)
    if x.size == 0:
        return v
    v[..., 0] = 1
    for k in range(deg):
        a, b, c = _recurrence(module, k)
        alpha = _ew.add(_ew.multiply(x, b), a) if a else _ew.multiply(x, b)
        nxt = _ew.multiply(alpha, v[..., k])
        if k and c:
            nxt = _ew.subtract(nxt, _ew.multiply(v[..., k - 1], c))
        v[..., k + 1] = nxt
    return v


def vander(module, name, x, deg):
    d = _degree(deg)
    (xx,), numpy_out = _inputs(name, x, required=("x",))
    return _back(_vander_matrix(module, xx, d), numpy_out, scalar=False)


def vander_nd(module, name, points, degrees):
    """The pseudo-Vandermonde matrix of several variables: products of one column per variable, the last
    variable's index varying fastest."""
    if len(points) != len(degrees):
        raise ValueError(f"Expected {len(degrees)} dimensions of sample points, got {len(points)}")
    degs = [_degree(d) for d in degrees]
    xs, numpy_out = _inputs(name, *points)
    xs = broadcast_arrays(*xs)
    v = None
    for i, (x, d) in enumerate(zip(xs, degs)):
        shape = tuple(x.shape) + (1,) * i + (d + 1,) + (1,) * (len(degs) - i - 1)
        cols = reshape(_vander_matrix(module, x, d), shape)
        v = cols if v is None else _ew.multiply(v, cols)
    return _back(reshape(v, tuple(v.shape[:-len(degs)]) + (-1,)), numpy_out, scalar=False)


def val_nd(module, name, points, c):
    """A series of several variables at points of one shape (c's leading axes: each variable's degree)."""
    xs, numpy_out = _inputs(name, *points, c)
    *xs, cc = xs
    if any(tuple(x.shape) != tuple(xs[0].shape) for x in xs[1:]):
        raise ValueError(f"{', '.join('xyz'[:len(xs)]) if len(xs) in (2, 3) else 'ordinates'} are incompatible")
    cc = _as_coefficients(cc)
    cc = _series_value(module, xs[0], cc.reshape(tuple(cc.shape) + (1,) * xs[0].ndim))
    for x in xs[1:]:
        cc = _series_value(module, x, cc)
    return _back(cc, numpy_out)


def _ordinates(name, pts):
    """valnd's points as a tuple: a sequence's items, or an array's rows."""
    if isinstance(pts, (str, bytes)) or not hasattr(pts, "__iter__"):
        raise TypeError(f"{name}: pts must be a sequence of arrays or an (N, ...) array, not {type(pts).__name__}")
    if getattr(pts, "ndim", 1) == 0:
        raise TypeError(f"{name}: pts must be a sequence of arrays or an (N, ...) array, not a 0-d array")
    xs = tuple(pts)
    if not xs:
        raise ValueError(f"{name}: pts is empty; give at least one variable's points")
    return xs


def grid_nd(module, name, points, c):
    """A series of several variables on the Cartesian product of each variable's points."""
    xs, numpy_out = _inputs(name, *points, c)
    *xs, cc = xs
    cc = _as_coefficients(cc)
    for x in xs:
        cc = _series_value(module, x, cc.reshape(tuple(cc.shape) + (1,) * x.ndim))
    return _back(cc, numpy_out)


def fit(module, name, x, y, deg, rcond=None, full=False, w=None):
    """Least squares as numpy.polynomial's fits: the pseudo-Vandermonde matrix with its columns scaled to unit
    norm, solved by npgpu.linalg.lstsq."""
    from npgpu import linalg

    (xx, yy, ww), numpy_out = _inputs(name, x, y, w, required=("x", "y"))
    degs = np.asarray(deg)
    if degs.ndim > 1 or degs.dtype.kind not in "iu" or degs.size == 0:
        raise TypeError("deg must be an int or non-empty 1-D array of int")
    if degs.min() < 0:
        raise ValueError("expected deg >= 0")
    check_fit_points(xx, yy)
    xx = _ew.add(xx, 0.0)
    yy = _ew.add(yy, 0.0)
    lmax = int(degs.max())
    used = [int(d) for d in np.sort(degs)] if degs.ndim else list(range(lmax + 1))
    lhs = _vander_matrix(module, xx, lmax)
    if degs.ndim:
        lhs = lhs[:, _array.asarray(np.asarray(used, dtype=np.int64), device=lhs.device)]
    rhs = yy
    if ww is not None:
        ww = _ew.add(ww, 0.0)
        if ww.ndim != 1:
            raise TypeError("expected 1D vector for w")
        if ww.shape[0] != xx.shape[0]:
            raise TypeError("expected x and w to have same length")
        lhs = _ew.multiply(lhs, ww.reshape(-1, 1))
        rhs = _ew.multiply(rhs, ww.reshape((-1,) + (1,) * (rhs.ndim - 1)))
    if rcond is None:
        rcond = xx.shape[0] * np.finfo(xx.dtype).eps
    scl = _ew.sqrt(_reduce.sum(_ew.real(_ew.multiply(lhs, _ew.conjugate(lhs))), axis=0))
    scl = _ew.add(scl, _ew.equal(scl, 0).astype(scl.dtype))  # all-zero columns keep their scale 1
    c, resids, rank, s = linalg.lstsq(_ew.divide(lhs, scl), rhs, rcond=rcond)
    c = _ew.divide(c, scl.reshape((-1,) + (1,) * (c.ndim - 1)))
    if degs.ndim:
        full_c = _array.zeros((lmax + 1,) + tuple(c.shape[1:]), dtype=c.dtype, device=c.device)
        full_c[_array.asarray(np.asarray(used, dtype=np.int64), device=c.device)] = c
        c = full_c
    if int(rank) != len(used) and not full:
        warnings.warn("The fit may be poorly conditioned", np.exceptions.RankWarning, stacklevel=3)
    c = _back(c, numpy_out, scalar=False)
    if full:
        return c, [_back(resids, numpy_out, scalar=False), int(rank), _back(s, numpy_out, scalar=False), rcond]
    return c


def on_host(func):
    """NumPy's coefficient function `func` on host copies: npgpu.Array in, npgpu.Array out on its device."""
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        devices = [a.device for a in (*args, *kwargs.values()) if isinstance(a, _Array)]
        host = [a.get() if isinstance(a, _Array) else a for a in args]
        hkw = {k: (v.get() if isinstance(v, _Array) else v) for k, v in kwargs.items()}
        r = func(*host, **hkw)
        if not devices:
            return r
        return _to_device(r, devices[0])

    wrapper.__doc__ = (f"numpy.polynomial's {func.__name__}, on the host: these functions work on coefficient "
                       f"arrays, which are short. npgpu.Array arguments are copied to the host and the arrays "
                       f"returned go to the first one's device; NumPy in, NumPy out.\n\nSee "
                       f"{func.__module__}.{func.__name__} for the parameters.")
    wrapper.__module__ = "npgpu.polynomial"
    return wrapper


def _to_device(r, device):
    if isinstance(r, np.ndarray):
        return _array.asarray(r, device=device)
    if isinstance(r, (tuple, list)):
        return type(r)(_to_device(v, device) for v in r)
    return r


def _getdomain(x):
    """[min, max] of real x (the smallest rectangle's corners for complex x), as two host numbers."""
    if x.dtype.kind == "c":
        re, im = _ew.real(x), _ew.imag(x)
        lo = complex(float(_reduce.min(re)), float(_reduce.min(im)))
        hi = complex(float(_reduce.max(re)), float(_reduce.max(im)))
        return np.array([lo, hi])
    return np.array([float(_reduce.min(x)), float(_reduce.max(x))])


def make_class(module, cls_name):
    """numpy.polynomial's class whose calls and fits run on npgpu.Arrays where they are given."""
    base = getattr(_npp, cls_name)
    prefix = FAMILIES[module][0]

    def __call__(self, arg):
        if not isinstance(arg, _Array):
            return base.__call__(self, arg)
        off, scl = self.mapparms()
        x = _ew.add(_ew.multiply(arg, scl), off) if (off, scl) != (0, 1) else arg
        return val(module, f"{cls_name}.__call__", x, self.coef)

    def fit_method(cls, x, y, deg, domain=None, rcond=None, full=False, w=None, window=None, symbol="x"):
        if not any(isinstance(v, _Array) for v in (x, y, w)):
            return base.fit.__func__(cls, x, y, deg, domain=domain, rcond=rcond, full=full, w=w, window=window,
                                     symbol=symbol)
        (xx, yy, ww), _ = _inputs(f"{cls_name}.fit", x, y, w, required=("x", "y"))
        if window is None:
            window = cls.window
        if domain is None:
            domain = _getdomain(xx)
        elif isinstance(domain, list) and len(domain) == 0:
            domain = window
        off, scl = _npp.polyutils.mapparms(domain, window)
        xnew = _ew.add(_ew.multiply(xx, scl), off)
        res = fit(module, f"{cls_name}.fit", xnew, yy, deg, rcond=rcond, full=full, w=ww)
        coef, info = (res[0], res[1]) if full else (res, None)
        p = cls(coef.get(), domain=domain, window=window, symbol=symbol)
        return (p, info) if full else p

    fit_method.__name__ = "fit"
    fit_method.__doc__ = (f"numpy.polynomial.{cls_name}.fit; with npgpu.Array points the domain, the mapping "
                          f"and the least squares ({prefix}fit) run on their device. The coefficients come back "
                          f"to the host, where the class keeps them.")
    return type(cls_name, (base,), {
        "__module__": "npgpu.polynomial",
        "__doc__": (f"numpy.polynomial.{cls_name}, whose calls on an npgpu.Array (evaluation by {prefix}val) "
                    f"and fits to npgpu.Arrays run on their device. Everything else is NumPy's class: the "
                    f"coefficients live on the host as a NumPy array, and instances are "
                    f"numpy.polynomial.{cls_name}s.\n\n"
                    f"Examples\n--------\n>>> p = npgpu.polynomial.{cls_name}([1.0, 2.0, 3.0])\n"
                    f">>> x = npgpu.asarray([0.0, 0.5, 1.0], device=\"cpu\")\n"
                    f">>> bool(np.allclose(p(x).get(), np.polynomial.{cls_name}([1.0, 2.0, 3.0])(x.get())))\n"
                    f"True\n"),
        "__call__": __call__,
        "fit": classmethod(fit_method),
    })


def namespace(module):
    """The public names of npgpu.polynomial.<module>: NumPy's, with the point-wise ones running on npgpu."""
    prefix, cls_name = FAMILIES[module]
    src = getattr(_npp, module)
    ns = {}
    for attr in public_names(module):
        if not hasattr(src, attr):  # valnd before NumPy 2.5: defined below, as the other device-run ones
            continue
        obj = getattr(src, attr)
        if attr == cls_name:
            ns[attr] = CLASSES[cls_name]
        elif callable(obj) and not isinstance(obj, type):
            ns[attr] = on_host(obj)
        else:
            ns[attr] = obj
    m = module  # short, for the lambdas below

    def named(f, name, doc):
        f.__name__ = f.__qualname__ = name
        f.__module__ = f"npgpu.polynomial.{module}"
        f.__doc__ = doc + f"\n\nAs numpy.polynomial.{module}.{name}; see it for the parameters."
        return f

    where = ("npgpu.Array in, npgpu.Array out on its device; NumPy (array_like) in, NumPy out (computed on the "
             "default device).")
    ns[f"{prefix}val"] = named(lambda x, c, tensor=True: val(m, f"{prefix}val", x, c, tensor),
                               f"{prefix}val", f"The series with coefficients c at x, by Clenshaw's recurrence. "
                               f"{where}")
    ns[f"{prefix}vander"] = named(lambda x, deg: vander(m, f"{prefix}vander", x, deg), f"{prefix}vander",
                                  f"The pseudo-Vandermonde matrix of degree deg at x. {where}")
    ns[f"{prefix}vander2d"] = named(lambda x, y, deg: vander_nd(m, f"{prefix}vander2d", (x, y), deg),
                                    f"{prefix}vander2d", f"The pseudo-Vandermonde matrix of two variables. {where}")
    ns[f"{prefix}vander3d"] = named(lambda x, y, z, deg: vander_nd(m, f"{prefix}vander3d", (x, y, z), deg),
                                    f"{prefix}vander3d", f"The pseudo-Vandermonde matrix of three variables. {where}")
    ns[f"{prefix}val2d"] = named(lambda x, y, c: val_nd(m, f"{prefix}val2d", (x, y), c), f"{prefix}val2d",
                                 f"A series of two variables at points (x, y). {where}")
    ns[f"{prefix}val3d"] = named(lambda x, y, z, c: val_nd(m, f"{prefix}val3d", (x, y, z), c), f"{prefix}val3d",
                                 f"A series of three variables at points (x, y, z). {where}")
    ns[f"{prefix}grid2d"] = named(lambda x, y, c: grid_nd(m, f"{prefix}grid2d", (x, y), c), f"{prefix}grid2d",
                                  f"A series of two variables on the grid x by y. {where}")
    ns[f"{prefix}grid3d"] = named(lambda x, y, z, c: grid_nd(m, f"{prefix}grid3d", (x, y, z), c),
                                  f"{prefix}grid3d", f"A series of three variables on the grid x by y by z. {where}")
    ns[f"{prefix}fit"] = named(
        lambda x, y, deg, rcond=None, full=False, w=None: fit(m, f"{prefix}fit", x, y, deg, rcond, full, w),
        f"{prefix}fit", f"The least-squares fit of degree deg to y at x (column-scaled pseudo-Vandermonde "
                        f"matrix, npgpu.linalg.lstsq). {where}")
    ns[f"{prefix}valnd"] = named(lambda pts, c: val_nd(m, f"{prefix}valnd", _ordinates(f"{prefix}valnd", pts), c),
                                 f"{prefix}valnd", "A series of N variables at points pts = (x_1, ..., x_N) (a "
                                 f"sequence of arrays of one shape, or an (N, ...) array), as NumPy 2.5's. {where}")
    if module == "polynomial":
        ns["polyvalfromroots"] = named(lambda x, r, tensor=True: valfromroots("polyvalfromroots", x, r, tensor),
                                       "polyvalfromroots", f"The product of (x - r) over the roots r. {where}")
    return ns


CLASSES = {cls_name: make_class(module, cls_name) for module, (_, cls_name) in FAMILIES.items()}
