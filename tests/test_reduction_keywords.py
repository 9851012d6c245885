"""NumPy's reduction keywords (npgpu._reductions): ``initial=`` for sums, products and extrema, ``where=`` for
those, all/any, the means and the moments, and the moments' ``mean=``, against NumPy on npgpu.Arrays of each
device, NumPy inputs on each backend, and the Array methods; with axes, keepdims, out=, empty selections and
their warnings, and the errors NumPy raises."""
import warnings

import numpy as np
import pytest

import npgpu

DTYPES = ["bool", "int8", "int32", "uint16", "int64", "float16", "float32", "float64", "complex64"]


def _data(rng, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.kind in "iu":
        return rng.integers(0, 5, shape).astype(dtype)
    x = rng.uniform(-3, 3, shape)
    if dtype.kind == "c":
        x = x + 1j * rng.uniform(-3, 3, shape)
    return x.astype(dtype)


def _host(r):
    return r.get() if isinstance(r, npgpu.Array) else np.asarray(r)


def _close(got, want):
    got, want = _host(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if want.dtype.kind in "fc":
        tol = 1e-2 if want.dtype in (np.float16,) else 1e-5
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)
    else:
        np.testing.assert_array_equal(got, want)


MASK = np.array([[True, False, True, True], [False, False, True, False], [True, True, True, False]])


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("axis, keepdims", [(None, False), (0, False), (1, True), ((0, 1), False)])
def test_sums_and_products_with_initial_and_where(rng, dtype, axis, keepdims):
    a = _data(rng, (3, 4), dtype)
    d = npgpu.asarray(a)
    for name in ("sum", "prod", "nansum", "nanprod"):
        if name.startswith("nan") and a.dtype.kind == "b":
            continue
        f, g = getattr(npgpu, name), getattr(np, name)
        _close(f(d, axis=axis, keepdims=keepdims, initial=2), g(a, axis=axis, keepdims=keepdims, initial=2))
        _close(f(d, axis=axis, keepdims=keepdims, where=MASK), g(a, axis=axis, keepdims=keepdims, where=MASK))
        _close(f(d, axis=axis, keepdims=keepdims, where=MASK[0], initial=1),
               g(a, axis=axis, keepdims=keepdims, where=MASK[0], initial=1))


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("axis, keepdims", [(None, False), (0, True), (1, False)])
def test_extrema_with_initial_and_where(rng, dtype, axis, keepdims):
    a = _data(rng, (3, 4), dtype)
    d = npgpu.asarray(a)
    init = np.asarray(1, dtype)
    for name in ("max", "min", "amax", "amin") + (("nanmax", "nanmin") if a.dtype.kind in "fiu" else ()):
        f, g = getattr(npgpu, name), getattr(np, name)
        _close(f(d, axis=axis, keepdims=keepdims, initial=init), g(a, axis=axis, keepdims=keepdims, initial=init))
        _close(f(d, axis=axis, keepdims=keepdims, where=MASK, initial=init),
               g(a, axis=axis, keepdims=keepdims, where=MASK, initial=init))


@pytest.mark.usefixtures("array_device")
def test_extrema_initial_fills_empty_reductions_and_is_cast_to_the_dtype():
    e = npgpu.asarray(np.zeros((0, 3), np.float32))
    _close(npgpu.max(e, axis=0, initial=-1), np.max(np.zeros((0, 3), np.float32), axis=0, initial=-1))
    _close(npgpu.min(e, initial=7.5), np.min(np.zeros((0, 3), np.float32), initial=7.5))
    i = np.array([1, 2])
    _close(npgpu.max(npgpu.asarray(i), initial=2.5), np.max(i, initial=2.5))  # 2.5 -> 2, as NumPy
    _close(npgpu.sum(npgpu.asarray(i), initial=0.5), np.sum(i, initial=0.5))
    b = np.array([True, False])
    _close(npgpu.max(npgpu.asarray(b), initial=0), np.max(b, initial=0))
    with pytest.raises(ValueError, match="'maximum' does not have an identity"):
        npgpu.max(npgpu.asarray(i), where=[True, False])
    with pytest.raises(ValueError, match="'fmin' does not have an identity"):
        npgpu.nanmin(npgpu.asarray(i.astype(float)), where=[True, False])


@pytest.mark.usefixtures("array_device")
def test_nan_extrema_take_initial_for_all_nan_slices_without_warning():
    a = np.array([[np.nan, 1.0], [np.nan, np.nan]])
    d = npgpu.asarray(a)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _close(npgpu.nanmax(d, axis=1, initial=-5.0), np.nanmax(a, axis=1, initial=-5.0))
        _close(npgpu.nanmin(d, axis=0, where=[[True, False], [True, True]], initial=3.0),
               np.nanmin(a, axis=0, where=[[True, False], [True, True]], initial=3.0))
    with pytest.warns(RuntimeWarning, match="All-NaN slice"):  # a NaN initial leaves row 1 NaN
        r = npgpu.nanmax(d, axis=1, initial=np.nan)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        _close(r, np.nanmax(a, axis=1, initial=np.nan))


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("dtype", ["bool", "int32", "float64"])
def test_all_and_any_with_where(rng, dtype):
    a = _data(rng, (3, 4), dtype)
    d = npgpu.asarray(a)
    for name in ("all", "any"):
        for axis in (None, 0, 1):
            _close(getattr(npgpu, name)(d, axis=axis, where=MASK), getattr(np, name)(a, axis=axis, where=MASK))
    _close(npgpu.all(d, where=False), np.all(a, where=False))
    _close(npgpu.any(d, where=False), np.any(a, where=False))


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("dtype", ["int16", "float16", "float32", "float64", "complex64"])
def test_means_with_where(rng, dtype):
    a = _data(rng, (3, 4), dtype)
    if a.dtype.kind == "f":
        a[0, 0] = np.nan  # nanmean skips it; mean's where leaves it out below
    d = npgpu.asarray(a)
    m = MASK.copy()
    m[0, 0] = False
    for axis in (None, 0, 1):
        _close(npgpu.mean(d, axis=axis, where=m), np.mean(a, axis=axis, where=m))
        if a.dtype.kind in "fc":
            _close(npgpu.nanmean(d, axis=axis, where=MASK), np.nanmean(a, axis=axis, where=MASK))
    dt = np.complex128 if a.dtype.kind == "c" else np.float64
    _close(npgpu.mean(d, axis=1, dtype=dt, keepdims=True, where=m),
           np.mean(a, axis=1, dtype=dt, keepdims=True, where=m))


@pytest.mark.usefixtures("array_device")
def test_mean_of_an_empty_selection_is_nan_with_numpys_warning():
    a = np.arange(6.0).reshape(2, 3)
    w = [[True, False, False], [True, False, False]]
    with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
        got = npgpu.mean(npgpu.asarray(a), axis=0, where=w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        _close(got, np.mean(a, axis=0, where=w))


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex64"])
def test_moments_with_where_ddof_and_mean(rng, dtype):
    a = _data(rng, (3, 5), dtype)
    d = npgpu.asarray(a)
    w = np.ones((3, 5), bool)
    w[1:, ::2] = False  # every row and column keeps at least two elements
    for name in ("var", "std") + (("nanvar", "nanstd") if a.dtype.kind in "fc" else ()):
        f, g = getattr(npgpu, name), getattr(np, name)
        for axis in (None, 0, 1):
            _close(f(d, axis=axis, where=w), g(a, axis=axis, where=w))
        _close(f(d, axis=1, ddof=1, keepdims=True, where=w), g(a, axis=1, ddof=1, keepdims=True, where=w))
        _close(f(d, axis=1, correction=1, where=w), g(a, axis=1, correction=1, where=w))
        mean = np.mean(a, axis=1, keepdims=True)
        _close(f(d, axis=1, mean=npgpu.asarray(mean)), g(a, axis=1, mean=mean))
    with pytest.raises(ValueError, match="ddof and correction"):
        npgpu.var(d, ddof=1, correction=1, where=w)


@pytest.mark.usefixtures("array_device")
def test_moment_with_too_few_selected_warns_as_numpy():
    a = np.arange(6.0).reshape(2, 3)
    w = [[True, False, False], [True, True, True]]
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        got = npgpu.var(npgpu.asarray(a), axis=1, ddof=1, where=w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        _close(got, np.var(a, axis=1, ddof=1, where=w))


def test_numpy_inputs_give_numpy_results(backend, rng):
    a = _data(rng, (3, 4), "float32")
    r = npgpu.sum(a, axis=0, where=MASK, initial=1.0)
    assert isinstance(r, np.ndarray)
    _close(r, np.sum(a, axis=0, where=MASK, initial=1.0))
    _close(npgpu.max(a.tolist(), initial=0.0, where=MASK), np.max(a, initial=0.0, where=MASK).astype(np.float64))
    _close(npgpu.std(a, where=MASK), np.std(a, where=MASK))


@pytest.mark.usefixtures("array_device")
def test_out_and_array_methods(rng):
    a = _data(rng, (3, 4), "float64")
    d = npgpu.asarray(a)
    out = npgpu.empty(4)
    assert npgpu.sum(d, axis=0, out=out, where=MASK, initial=1.0) is out
    _close(out, np.sum(a, axis=0, where=MASK, initial=1.0))
    _close(d.sum(axis=1, initial=3.0, where=MASK), a.sum(axis=1, initial=3.0, where=MASK))
    _close(d.prod(where=MASK), a.prod(where=MASK))
    _close(d.max(axis=0, initial=-9.0, where=MASK), a.max(axis=0, initial=-9.0, where=MASK))
    _close(d.min(initial=9.0), a.min(initial=9.0))
    _close(d.mean(axis=1, where=MASK[0]), a.mean(axis=1, where=MASK[0]))
    _close(d.var(axis=1, where=MASK), a.var(axis=1, where=MASK))
    _close(d.std(where=MASK, mean=a.mean()), a.std(where=MASK, mean=a.mean()))
    _close(d.all(where=MASK), a.all(where=MASK))
    _close(d.any(axis=1, where=MASK), a.any(axis=1, where=MASK))


@pytest.mark.usefixtures("array_device")
def test_where_that_does_not_broadcast_names_it():
    d = npgpu.asarray(np.ones(2))
    with pytest.raises(ValueError, match="where of shape"):
        npgpu.sum(d, where=[True, False, True])
    with pytest.raises(ValueError, match="where of shape"):
        npgpu.mean(d, where=np.ones((2, 1), bool))  # where broadcasts to a's shape, not the other way


@pytest.mark.usefixtures("array_device")
def test_generated_shapes_axes_and_masks_match_numpy():
    # A fixed-seed sweep: 0-d to 3-d arrays (empty axes included) of 8 dtypes, random axes, keepdims, masks
    # broadcast from trailing shapes, initial where NumPy takes it; NumPy's outcome (value or exception type).
    rng = np.random.default_rng(7)
    names = ["sum", "prod", "max", "min", "all", "any", "mean", "var", "std", "nansum", "nanmax", "nanmean",
             "nanvar"]
    checked = 0
    for _ in range(60):
        shape = tuple(int(n) for n in rng.integers(0, 4, rng.integers(0, 4)))
        dt = rng.choice(["bool", "int8", "uint8", "int32", "int64", "float32", "float64", "complex128"])
        a = np.asarray(rng.integers(0, 2, shape).astype(bool) if dt == "bool" else (rng.normal(size=shape) * 3)
                       .astype(dt))
        axis = None if a.ndim == 0 or rng.random() < 0.3 else int(rng.integers(-a.ndim, a.ndim))
        w = rng.random(shape[rng.integers(0, a.ndim + 1):]) < 0.6 if rng.random() < 0.7 else True
        for name in names:
            if name.startswith("nan") and a.dtype == bool:
                continue
            kw = {"axis": axis, "keepdims": bool(rng.random() < 0.5), "where": w}
            if name in ("sum", "prod", "max", "min", "nansum", "nanmax") and rng.random() < 0.7:
                kw["initial"] = 1
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    want = getattr(np, name)(a, **kw)
                except (ValueError, TypeError) as e:
                    with pytest.raises(type(e)):
                        getattr(npgpu, name)(npgpu.asarray(a), **kw)
                    continue
                got = getattr(npgpu, name)(npgpu.asarray(a), **kw)
            got, want = _host(got), np.asarray(want)
            assert got.shape == want.shape and got.dtype == want.dtype, (name, a.dtype, shape, kw)
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, equal_nan=True,
                                       err_msg=f"{name} {a.dtype} {shape} {kw}")
            checked += 1
    assert checked > 500
