"""npgpu.polynomial against numpy.polynomial: evaluation, pseudo-Vandermonde matrices and fits on npgpu.Arrays
(both backends), NumPy in / NumPy out, the coefficient functions on host copies, the classes, and errors."""
import numpy as np
import numpy.polynomial as npp
import pytest

import npgpu
import npgpu.polynomial as gp
from npgpu.polynomial._families import FAMILIES

MODULES = sorted(FAMILIES)


def _fns(module, name):
    prefix = FAMILIES[module][0]
    return getattr(getattr(gp, module), prefix + name), getattr(getattr(npp, module), prefix + name)


def _close(got, want, rtol=1e-10, atol=1e-12):
    assert isinstance(got, npgpu.Array), type(got)
    got = got.get()
    assert got.shape == np.shape(want) and got.dtype == np.asarray(want).dtype, (got.shape, got.dtype)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


@pytest.mark.parametrize("module", MODULES)
def test_values_and_vandermonde_as_numpys(array_device, module, rng):
    x_h = rng.uniform(-1.5, 1.5, 40)
    x = npgpu.asarray(x_h)
    c1 = rng.standard_normal(6)
    c2 = rng.standard_normal((6, 3))
    val, nval = _fns(module, "val")
    _close(val(x, c1), nval(x_h, c1))
    _close(val(x, c2), nval(x_h, c2))  # tensor: shape (3, 40)
    _close(val(x.reshape(20, 2), npgpu.asarray(c2[:, :2].T.copy()).T, tensor=False),
           nval(x_h.reshape(20, 2), c2[:, :2], tensor=False))
    _close(val(x, [3]), nval(x_h, [3]))  # a constant
    _close(val(x, npgpu.asarray(np.array([1, -2, 0, 4]))), nval(x_h, [1, -2, 0, 4]))  # int coefficients
    vander, nvander = _fns(module, "vander")
    _close(vander(x, 5), nvander(x_h, 5))
    _close(vander(x.reshape(8, 5), 0), nvander(x_h.reshape(8, 5), 0))
    y_h, z_h = rng.uniform(-1, 1, 40), rng.uniform(-1, 1, 40)
    y, z = npgpu.asarray(y_h), npgpu.asarray(z_h)
    for dims, pts, npts in [("2d", (x, y), (x_h, y_h)), ("3d", (x, y, z), (x_h, y_h, z_h))]:
        c = rng.standard_normal((3, 2, 4)[:len(pts)])
        f, nf = _fns(module, "val" + dims)
        _close(f(*pts, c), nf(*npts, c))
        f, nf = _fns(module, "grid" + dims)
        _close(f(*[p[:5] for p in pts], c), nf(*[p[:5] for p in npts], c))
        f, nf = _fns(module, "vander" + dims)
        _close(f(*pts, [2, 1, 3][:len(pts)]), nf(*npts, [2, 1, 3][:len(pts)]))
        # valnd (NumPy 2.5's, npgpu's under every NumPy): points as a sequence or as the rows of one array
        valnd, nvalkd = getattr(getattr(gp, module), FAMILIES[module][0] + "valnd"), _fns(module, "val" + dims)[1]
        _close(valnd(pts, c), nvalkd(*npts, c))
        _close(valnd(npgpu.stack(pts), c), nvalkd(*npts, c))
    c4 = rng.standard_normal((2, 3, 2, 2, 3))  # four variables and 3 coefficient sets: (3, 40)
    want = c4
    for i, p_h in enumerate((x_h, y_h, z_h, x_h[::-1].copy())):
        want = nval(p_h, want, tensor=(i == 0))
    _close(valnd((x, y, z, x[::-1]), c4), want)


@pytest.mark.parametrize("module", MODULES)
def test_fits_as_numpys(array_device, module, rng):
    x_h = np.linspace(-1, 1, 200)
    y_h = np.cos(3 * x_h) + 0.01 * rng.standard_normal(200)
    x, y = npgpu.asarray(x_h), npgpu.asarray(y_h)
    fit, nfit = _fns(module, "fit")
    _close(fit(x, y, 5), nfit(x_h, y_h, 5), rtol=1e-8, atol=1e-10)
    _close(fit(x, y, [0, 2, 4]), nfit(x_h, y_h, [0, 2, 4]), rtol=1e-8, atol=1e-10)
    w_h = rng.uniform(0.5, 2.0, 200)
    _close(fit(x, y, 4, w=npgpu.asarray(w_h)), nfit(x_h, y_h, 4, w=w_h), rtol=1e-8, atol=1e-10)
    y2_h = np.stack([y_h, np.sin(x_h)], axis=1)
    _close(fit(x, npgpu.asarray(y2_h), 3), nfit(x_h, y2_h, 3), rtol=1e-8, atol=1e-10)
    c, (resid, rank, sv, rcond) = fit(x, y, 3, full=True)
    nc, (nresid, nrank, nsv, nrcond) = nfit(x_h, y_h, 3, full=True)
    _close(c, nc, rtol=1e-8, atol=1e-10)
    assert rank == nrank and rcond == nrcond
    np.testing.assert_allclose(resid.get(), nresid, rtol=1e-8)
    np.testing.assert_allclose(sv.get(), nsv, rtol=1e-10)
    f32 = fit(npgpu.asarray(x_h.astype(np.float32)), npgpu.asarray(y_h.astype(np.float32)), 2)
    nf32 = nfit(x_h.astype(np.float32), y_h.astype(np.float32), 2)
    assert f32.dtype == nf32.dtype
    np.testing.assert_allclose(f32.get(), nf32, rtol=1e-4, atol=1e-5)


def test_numpy_in_numpy_out_and_scalars():
    x = np.linspace(0, 1, 5)
    r = gp.polynomial.polyval(x, [1.0, 2.0])
    assert type(r) is np.ndarray and np.allclose(r, 1 + 2 * x)
    s = gp.polynomial.polyval(2.0, [1, 2, 3])
    assert isinstance(s, np.floating) and s == 17.0
    assert type(gp.chebyshev.chebfit(x, x, 1)) is np.ndarray
    assert type(gp.legendre.legvander(x, 2)) is np.ndarray
    assert np.allclose(gp.polynomial.polyvalfromroots(x, [1, 2]), np.polynomial.polynomial.polyvalfromroots(x, [1, 2]))


def test_values_from_roots(array_device, rng):
    x_h = rng.uniform(-2, 2, 30)
    r_h = rng.standard_normal((3, 2))
    f = gp.polynomial.polyvalfromroots
    _close(f(npgpu.asarray(x_h), r_h[:, 0]), npp.polynomial.polyvalfromroots(x_h, r_h[:, 0]))
    _close(f(npgpu.asarray(x_h), r_h), npp.polynomial.polyvalfromroots(x_h, r_h))
    _close(f(npgpu.asarray(x_h[:2]), r_h, tensor=False), npp.polynomial.polyvalfromroots(x_h[:2], r_h, tensor=False))
    with pytest.raises(ValueError, match="tensor == False"):
        f(npgpu.asarray(x_h.reshape(3, 10)), r_h, tensor=False)


def test_coefficient_functions_run_numpys_own(array_device):
    a = npgpu.asarray(np.array([1.0, 2.0, 3.0]))
    got = gp.chebyshev.chebmul(a, [0.0, 1.0])
    _close(got, npp.chebyshev.chebmul([1.0, 2.0, 3.0], [0.0, 1.0]))
    q, r = gp.polynomial.polydiv(a, [1.0, 1.0])
    nq, nr = npp.polynomial.polydiv([1.0, 2.0, 3.0], [1.0, 1.0])
    _close(q, nq)
    _close(r, nr)
    _close(gp.legendre.legder(a), npp.legendre.legder([1.0, 2.0, 3.0]))
    assert type(gp.hermite.hermadd([1.0], [2.0])) is np.ndarray  # NumPy in, NumPy out
    assert np.array_equal(gp.polynomial.polydomain, npp.polynomial.polydomain)
    assert gp.laguerre.lagroots.__name__ == "lagroots" and "host" in gp.laguerre.lagroots.__doc__
    # NumPy's names (valnd is npgpu's own before NumPy 2.5), fixed whatever NumPy runs below
    assert set(gp.hermite_e.__all__) == set(npp.hermite_e.__all__) | {"hermevalnd"}


@pytest.mark.parametrize("cls_name", [c for _, c in FAMILIES.values()])
def test_classes_call_and_fit_on_the_device(array_device, cls_name, rng):
    cls, ncls = getattr(gp, cls_name), getattr(npp, cls_name)
    x_h = np.linspace(0.5, 3.0, 60)
    y_h = np.exp(-x_h) + 0.001 * rng.standard_normal(60)
    x, y = npgpu.asarray(x_h), npgpu.asarray(y_h)
    p, want = cls.fit(x, y, 4), ncls.fit(x_h, y_h, 4)
    assert isinstance(p, ncls) and type(p) is cls
    np.testing.assert_allclose(p.domain, want.domain)
    np.testing.assert_allclose(p.coef, want.coef, rtol=1e-7, atol=1e-9)
    _close(p(x), want(x_h), rtol=1e-9, atol=1e-12)
    assert type(p(x_h)) is np.ndarray and np.allclose(p(x_h), want(x_h))  # NumPy points: NumPy's call
    assert np.allclose((p * 2).coef, 2 * p.coef) and type(p.deriv()) is cls  # NumPy's class behind it
    p2, info = cls.fit(x, y, 2, domain=[], full=True)
    n2, ninfo = ncls.fit(x_h, y_h, 2, domain=[], full=True)
    np.testing.assert_allclose(p2.coef, n2.coef, rtol=1e-7, atol=1e-9)
    assert info[1] == ninfo[1]
    assert type(cls.fit(x_h, y_h, 1)) is cls  # NumPy input: NumPy's fit, npgpu's class


@pytest.mark.parametrize("call, exc, match", [
    (lambda x: gp.polynomial.polyfit(x, x, -1), ValueError, "deg >= 0"),
    (lambda x: gp.polynomial.polyfit(x, x, 1.5), TypeError, "deg must be"),
    (lambda x: gp.polynomial.polyfit(x.reshape(2, 4), x.reshape(2, 4), 1), TypeError, "1D vector for x"),
    (lambda x: gp.polynomial.polyfit(x, x[:3], 1), TypeError, "same length"),
    (lambda x: gp.polynomial.polyfit(x, x, 1, w=x[:3]), TypeError, "x and w"),
    (lambda x: gp.polynomial.polyfit(x[:0], x[:0], 1), TypeError, "non-empty"),
    (lambda x: gp.polynomial.polyvander(x, -2), ValueError, "non-negative"),
    (lambda x: gp.polynomial.polyvander(x, 2.5), TypeError, "non-negative int"),
    (lambda x: gp.polynomial.polyval2d(x, x[:3], [[1.0]]), ValueError, "incompatible"),
    (lambda x: gp.polynomial.polyvander2d(x, x, [1]), ValueError, "dimensions"),
    (lambda x: gp.polynomial.polyval(None, [1.0]), TypeError, "x must be"),
    (lambda x: gp.chebyshev.chebvalnd((x, x, x, x[:3]), [[1.0]]), ValueError, "ordinates are incompatible"),
    (lambda x: gp.chebyshev.chebvalnd((), [1.0]), ValueError, "pts is empty"),
    (lambda x: gp.legendre.legvalnd(2.0, [1.0]), TypeError, "pts must be a sequence"),
])
def test_bad_input_raises_as_numpy(array_device, call, exc, match):
    with pytest.raises(exc, match=match):
        call(npgpu.asarray(np.linspace(0, 1, 8)))


def test_rank_deficient_fit_warns(array_device):
    x = npgpu.asarray(np.array([0.0, 0.0, 1.0, 1.0]))
    with pytest.warns(np.exceptions.RankWarning, match="poorly conditioned"):
        gp.polynomial.polyfit(x, x, 3)
