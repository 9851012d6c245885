"""npgpu's statistics against NumPy on each device: average, ptp, median, quantile/percentile (every method,
axes, keepdims, NaNs, Python-scalar vs array q dtypes), the NaN-ignoring forms, cov and corrcoef; NumPy in gives
NumPy out; np.<fn>(npgpu array) runs npgpu's; NumPy's errors; ndarray subclasses refused."""
import warnings

import numpy as np
import pytest

import npgpu

METHODS = ["linear", "lower", "higher", "nearest", "midpoint", "hazen", "weibull", "median_unbiased",
           "normal_unbiased", "interpolated_inverted_cdf"]


def _check(got, want, exact=True):
    assert isinstance(got, npgpu.Array), type(got)
    g = got.get()
    want = np.asarray(want)
    assert g.dtype == want.dtype and g.shape == want.shape, (g.dtype, g.shape, want.dtype, want.shape)
    if exact:
        np.testing.assert_array_equal(g, want)
    else:
        np.testing.assert_allclose(g, want, rtol=1e-12, atol=1e-13)


def _with_nans(a, rng, frac=0.1):
    a = a.copy()
    a[rng.random(a.shape) < frac] = np.nan
    return a


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("method", METHODS)
def test_quantile_methods_axes_keepdims(random_array, rng, method):
    a = _with_nans(random_array((5, 6, 7)), rng, 0.02)
    d = npgpu.asarray(a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for q in (0.3, 1, [0.0, 0.25, 0.5, 1.0], np.array([[0.1, 0.9], [0.5, 0.7]])):
            for axis in (None, 0, -1, (0, 2)):
                for keepdims in (False, True):
                    kw = dict(axis=axis, method=method, keepdims=keepdims)
                    _check(npgpu.quantile(d, q, **kw), np.quantile(a, q, **kw))
                    if not (np.ndim(q) == 2 and isinstance(axis, tuple)):  # NumPy's nan-form shape quirk there
                        _check(npgpu.nanquantile(d, q, **kw), np.nanquantile(a, q, **kw))
        _check(npgpu.percentile(d, [10, 95], axis=1, method=method), np.percentile(a, [10, 95], axis=1, method=method))
        _check(npgpu.nanpercentile(d, 37.5, axis=2, method=method), np.nanpercentile(a, 37.5, axis=2, method=method))


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int32])
@pytest.mark.parametrize("n", [1, 2, 7, 8])
def test_median_and_quantile_dtypes_odd_even(random_array, rng, dt, n):
    a = random_array((3, n), dt)
    d = npgpu.asarray(a)
    for axis in (None, 0, 1, (0, 1)):
        _check(npgpu.median(d, axis=axis), np.median(a, axis=axis))
        _check(npgpu.nanmedian(d, axis=axis, keepdims=True), np.nanmedian(a, axis=axis, keepdims=True))
        for q in (0.4, [0.4], np.float32(0.4)):  # weak q keeps float32; array q gives float64
            _check(npgpu.quantile(d, q, axis=axis), np.quantile(a, q, axis=axis))
            _check(npgpu.nanquantile(d, q, axis=axis), np.nanquantile(a, q, axis=axis))
        for m in ("lower", "midpoint"):
            _check(npgpu.quantile(d, 0.4, axis=axis, method=m), np.quantile(a, 0.4, axis=axis, method=m))


@pytest.mark.usefixtures("array_device")
def test_nan_handling(random_array, rng):
    a = random_array((40, 5))
    a[3, 1] = np.nan
    a[:, 4] = np.nan
    a[rng.random(a.shape) < 0.3] = np.nan
    a[:, 2] = random_array(40)  # a column without NaNs
    d = npgpu.asarray(a)
    _check(npgpu.median(d, axis=0), np.median(a, axis=0))  # NaN propagates
    _check(npgpu.quantile(d, [0.2, 0.8], axis=0), np.quantile(a, [0.2, 0.8], axis=0))
    with pytest.warns(RuntimeWarning, match="All-NaN"):
        got = npgpu.nanmedian(d, axis=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        _check(got, np.nanmedian(a, axis=0))
        _check(npgpu.nanquantile(d, [0.2, 0.8], axis=0), np.nanquantile(a, [0.2, 0.8], axis=0))
        big = random_array((700, 2))  # NumPy's nanmedian changes algorithm at 600 elements
        big[rng.random(big.shape) < 0.4] = np.nan
        _check(npgpu.nanmedian(npgpu.asarray(big), axis=0), np.nanmedian(big, axis=0))
    inf = np.array([-np.inf, 1.5, np.inf])
    _check(npgpu.quantile(npgpu.asarray(inf), [0.0, 0.5, 1.0]), np.quantile(inf, [0.0, 0.5, 1.0]))


@pytest.mark.usefixtures("array_device")
def test_empty_inputs():
    e = npgpu.asarray(np.ones((0, 3)))
    with pytest.warns(RuntimeWarning):
        _check(npgpu.median(e, axis=0), np.full(3, np.nan))
    _check(npgpu.median(e, axis=1), np.median(np.ones((0, 3)), axis=1))
    with pytest.warns(RuntimeWarning):
        _check(npgpu.nanmedian(npgpu.asarray(np.ones(0))), np.array(np.nan))
    with pytest.warns(RuntimeWarning):
        _check(npgpu.nanquantile(npgpu.asarray(np.ones(0)), 0.5), np.array(np.nan))
    with pytest.raises(IndexError):
        np.quantile(np.ones(0), 0.5)
    with pytest.raises(IndexError):
        npgpu.quantile(npgpu.asarray(np.ones(0)), 0.5)
    with pytest.raises(ValueError):
        npgpu.ptp(npgpu.asarray(np.ones(0)))


def _one_axis_at_a_time(fn, x, axes, keepdims):
    """NumPy's `fn` (median / nanmedian) over `axes` of x, one axis at a time (the last first)."""
    r = x
    for ax in sorted(axes, reverse=True):
        r = fn(r, axis=ax, keepdims=True)
    return r if keepdims else np.squeeze(r, axis=tuple(axes))


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int32])
@pytest.mark.parametrize("shape, axis", [((0, 0, 0), (0, 1)), ((2, 3, 0), (0, 1)), ((0, 0, 0), (0, 2)),
                                         ((0, 4, 0), (1, 2)), ((3, 0, 0, 2), (1, 3))])
def test_empty_multi_axis_results(dt, shape, axis):
    """Several axes reduced, a reduced slice empty and the result empty too: NumPy 2.4 raises ValueError
    ("cannot reshape array of size 0 into shape (0,newaxis)"); npgpu gives the empty result of the right shape
    and dtype, as NumPy does for one axis (deliberate difference, docs/numpy-differences.md)."""
    a = np.zeros(shape, dt)
    d = npgpu.asarray(a)
    n = int(np.prod([shape[i] for i in axis]))
    kept = tuple(s for i, s in enumerate(shape) if i not in axis)
    kd = tuple(1 if i in axis else s for i, s in enumerate(shape))
    # the same reduction on a reshaped array holding one value per slice, the reduced axes merged into one:
    # the result's dtype and (keepdims or not) shape
    stand_in = np.zeros((1,) + kept, dt)
    # on a reshaped array: the reduced axes first, merged into one (NumPy accepts that when it is non-empty)
    merged = np.moveaxis(a, axis, range(len(axis))).reshape((n,) + kept)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for keepdims in (False, True):
            with pytest.raises(ValueError, match="cannot reshape"):
                np.median(a, axis=axis, keepdims=keepdims)
            for fn in ("median", "nanmedian"):
                got = getattr(npgpu, fn)(d, axis=axis, keepdims=keepdims)
                _check(got, _one_axis_at_a_time(getattr(np, fn), a, axis, keepdims))
                assert got.size == 0
                if not keepdims and n:
                    _check(got, getattr(np, fn)(merged, axis=0))
            for q in (0.0, [0.0, 0.5], np.array([[0.25], [1.0]])):
                for method in ("linear", "inverted_cdf", "lower", "midpoint", "closest_observation"):
                    kw = dict(axis=axis, keepdims=keepdims, method=method)
                    with pytest.raises(ValueError, match="cannot reshape"):
                        np.quantile(a, q, **kw)
                    for fn, scale in (("quantile", 1), ("percentile", 100)):
                        qq = np.multiply(q, scale) if np.ndim(q) else float(q * scale)
                        got = getattr(npgpu, fn)(d, qq, **kw)
                        # q's dimensions first, keepdims respected, NumPy's dtype (a Python-scalar q keeps
                        # float32; an array q gives float64; 'lower' keeps integers)
                        want = getattr(np, fn)(stand_in, qq, axis=0, method=method)
                        _check(got, want.reshape(np.shape(q) + (kd if keepdims else kept)))
                        assert got.size == 0
                        if not keepdims and n:
                            _check(got, getattr(np, fn)(merged, qq, axis=0, method=method))
                        # the NaN-ignoring forms: NumPy gives nanmean's empty answer (q's dimensions left out)
                        nfn = "nan" + fn
                        _check(getattr(npgpu, nfn)(d, qq, **kw), getattr(np, nfn)(a, qq, **kw))
    # a reduced slice empty but the result not: median NaN, quantile NumPy's IndexError, as NumPy
    b = np.zeros((0, 0, 3), dt)
    with pytest.warns(RuntimeWarning):
        _check(npgpu.median(npgpu.asarray(b), axis=(0, 1)), np.full(3, np.nan, np.result_type(dt, np.float16)))
    for mod in (np, npgpu):
        with pytest.raises(IndexError):
            mod.quantile(b if mod is np else npgpu.asarray(b), 0.5, axis=(0, 1))


@pytest.mark.usefixtures("array_device")
def test_quantile_errors():
    d = npgpu.asarray(np.array([1.5, 2.5, -3.0]))
    for fn, args, exc in [("quantile", (1.5,), ValueError), ("percentile", (-1,), ValueError),
                          ("quantile", ([[[0.5]]],), ValueError), ("quantile", (0.5,), TypeError)]:
        x = d if exc is not TypeError else npgpu.asarray(np.array([1j, 2]))
        with pytest.raises(exc):
            getattr(np, fn)(x.get(), *args)
        with pytest.raises(exc):
            getattr(npgpu, fn)(x, *args)
    with pytest.raises(ValueError, match="not a valid method"):
        npgpu.quantile(d, 0.5, method="foo")
    with pytest.raises(np.exceptions.AxisError):
        npgpu.median(d, axis=1)


@pytest.mark.usefixtures("array_device")
def test_average_and_ptp(random_array, rng):
    a = random_array((4, 5, 6))
    w = np.abs(random_array((4, 5, 6)))
    d, dw = npgpu.asarray(a), npgpu.asarray(w)
    for axis in (None, 1, -1, (0, 2)):
        for keepdims in (False, True):
            _check(npgpu.average(d, axis=axis, keepdims=keepdims), np.average(a, axis=axis, keepdims=keepdims),
                   exact=False)
            avg, scl = npgpu.average(d, axis=axis, weights=dw, returned=True, keepdims=keepdims)
            wavg, wscl = np.average(a, axis=axis, weights=w, returned=True, keepdims=keepdims)
            _check(avg, wavg, exact=False)
            _check(scl, wscl, exact=False)
            _check(npgpu.ptp(d, axis=axis, keepdims=keepdims), np.ptp(a, axis=axis, keepdims=keepdims))
    _check(npgpu.average(d, axis=1, weights=dw[0, :, 0]), np.average(a, axis=1, weights=w[0, :, 0]), exact=False)
    _check(npgpu.average(d, axis=(2, 0), weights=dw[:, 0, :].T), np.average(a, axis=(2, 0), weights=w[:, 0, :].T),
           exact=False)
    i = random_array((3, 4), np.int16)
    _check(npgpu.ptp(npgpu.asarray(i), axis=0), np.ptp(i, axis=0))  # wraps as NumPy's
    _check(npgpu.average(npgpu.asarray(i), axis=0, weights=npgpu.asarray(np.array([1, 2, 3]))),
           np.average(i, axis=0, weights=[1, 2, 3]), exact=False)
    with pytest.raises(TypeError):
        npgpu.average(d, weights=dw[0])
    with pytest.raises(ValueError):
        npgpu.average(d, axis=1, weights=dw[0])
    with pytest.raises(ZeroDivisionError):
        npgpu.average(npgpu.asarray(np.array([1.5, 2.5])), weights=npgpu.asarray(np.array([1.0, -1.0])))


@pytest.mark.usefixtures("array_device")
def test_cov_corrcoef(random_array, rng):
    m = random_array((3, 9))
    y = random_array((2, 9))
    fw = rng.integers(1, 4, 9)
    aw = rng.random(9) + 0.1
    d = npgpu.asarray(m)
    for kw in ({}, dict(bias=True), dict(ddof=3), dict(fweights=fw), dict(aweights=aw),
               dict(fweights=fw, aweights=aw, ddof=2), dict(fweights=fw, aweights=aw)):
        _check(npgpu.cov(d, **kw), np.cov(m, **kw), exact=False)
    _check(npgpu.cov(d.T, rowvar=False), np.cov(m.T, rowvar=False), exact=False)
    _check(npgpu.cov(d, npgpu.asarray(y)), np.cov(m, y), exact=False)
    _check(npgpu.cov(d[0]), np.cov(m[0]), exact=False)  # one variable: 0-d
    c = m + 1j * m[::-1]
    _check(npgpu.cov(npgpu.asarray(c)), np.cov(c), exact=False)
    _check(npgpu.corrcoef(d), np.corrcoef(m), exact=False)
    _check(npgpu.corrcoef(d, npgpu.asarray(y)), np.corrcoef(m, y), exact=False)
    _check(npgpu.corrcoef(npgpu.asarray(c)), np.corrcoef(c), exact=False)
    f = m.astype(np.float32)
    got = npgpu.corrcoef(npgpu.asarray(f), dtype=np.float32)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got.get(), np.corrcoef(f, dtype=np.float32), rtol=1e-5)
    with pytest.raises(TypeError):
        npgpu.cov(d, fweights=fw + 0.5)
    with pytest.raises(ValueError):
        npgpu.cov(d, aweights=-aw)
    with pytest.raises(ValueError):
        npgpu.cov(npgpu.asarray(np.ones((2, 2, 2))))
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        npgpu.cov(npgpu.asarray(np.array([[1.5, 2.5]])), ddof=2)


def test_numpy_in_numpy_out(random_array):
    a = random_array((6, 7))
    for name, args in [("median", ()), ("nanmedian", ()), ("quantile", (0.25,)), ("percentile", ([5, 50],)),
                       ("nanquantile", (0.5,)), ("nanpercentile", (50,)), ("average", ()), ("ptp", ()),
                       ("cov", ()), ("corrcoef", ())]:
        got, want = getattr(npgpu, name)(a, *args), getattr(np, name)(a, *args)
        assert type(got) is type(want), (name, type(got), type(want))
        np.testing.assert_allclose(got, want, rtol=1e-12)
        got = getattr(npgpu, name)(a.tolist(), *args)
        np.testing.assert_allclose(got, want, rtol=1e-12)


@pytest.mark.usefixtures("array_device")
def test_numpy_dispatch(random_array):
    a = random_array((6, 7))
    d = npgpu.asarray(a)
    for name, args, kw in [("median", (), dict(axis=0)), ("quantile", ([0.1, 0.9],), dict(method="nearest")),
                           ("percentile", (30,), dict(axis=1, keepdims=True)), ("nanmedian", (), {}),
                           ("average", (), dict(axis=1, weights=npgpu.asarray(np.arange(1.0, 8.0)))),
                           ("ptp", (), dict(axis=1)), ("cov", (), {}), ("corrcoef", (), dict(rowvar=False))]:
        got = getattr(np, name)(d, *args, **kw)
        hkw = {k: (v.get() if isinstance(v, npgpu.Array) else v) for k, v in kw.items()}
        _check(got, getattr(np, name)(a, *args, **hkw), exact=False)


@pytest.mark.parametrize("sub", [np.ma.masked_array(np.arange(4.0), mask=[0, 1, 0, 0]), np.matrix([[1.0, 2.0]]),
                                 type("MyArray", (np.ndarray,), {})((3,))])
def test_subclasses_refused(sub):
    for fn, args in [(npgpu.median, ()), (npgpu.quantile, (0.5,)), (npgpu.average, ()), (npgpu.cov, ()),
                     (npgpu.ptp, ())]:
        with pytest.raises(TypeError, match=type(sub).__name__):
            fn(sub, *args)
