"""convolve, correlate, interp, trapezoid, polyval, array_equal/equiv, nan_to_num and einsum against NumPy on
each device; NumPy in gives NumPy out; np.<fn>(npgpu array) runs npgpu's; NumPy's errors; ndarray subclasses
refused."""
import numpy as np
import pytest

import npgpu


def _check(got, want, exact=True):
    assert isinstance(got, npgpu.Array), type(got)
    g = got.get()
    want = np.asarray(want)
    assert g.dtype == want.dtype and g.shape == want.shape, (g.dtype, g.shape, want.dtype, want.shape)
    if exact:
        np.testing.assert_array_equal(g, want)
    else:
        np.testing.assert_allclose(g, want, rtol=1e-12, atol=1e-12)


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("n", [1, 2, 5, 6])
@pytest.mark.parametrize("m", [1, 3, 4, 7])
def test_convolve_correlate_modes(random_array, n, m):
    a, v = random_array(n), random_array(m)
    da, dv = npgpu.asarray(a), npgpu.asarray(v)
    for mode in ("full", "same", "valid"):
        _check(npgpu.correlate(da, dv, mode), np.correlate(a, v, mode), exact=False)
        _check(npgpu.convolve(da, dv, mode), np.convolve(a, v, mode), exact=False)


@pytest.mark.usefixtures("array_device")
def test_convolve_correlate_dtypes_and_errors(random_array):
    a, v = random_array(5, np.complex128), random_array(3, np.complex128)
    _check(npgpu.correlate(npgpu.asarray(a), npgpu.asarray(v), "full"), np.correlate(a, v, "full"), exact=False)
    _check(npgpu.convolve(npgpu.asarray(a), npgpu.asarray(v), "same"), np.convolve(a, v, "same"), exact=False)
    i = np.array([100, 27, 3], np.int8)  # wraps as NumPy's
    _check(npgpu.convolve(npgpu.asarray(i), npgpu.asarray(i)), np.convolve(i, i))
    b1, b2 = np.array([True, False, True]), np.array([False, True])
    _check(npgpu.convolve(npgpu.asarray(b1), npgpu.asarray(b2)), np.convolve(b1, b2))
    d = npgpu.asarray(random_array(4))
    with pytest.raises(ValueError):
        npgpu.convolve(d, npgpu.asarray(np.ones(0)))
    with pytest.raises(ValueError):
        npgpu.correlate(d, d, mode="middle")
    with pytest.raises(ValueError):
        npgpu.correlate(d.reshape(2, 2), d)


@pytest.mark.usefixtures("array_device")
def test_interp(random_array, rng):
    xp = np.sort(random_array(8))
    fp = random_array(8)
    x = np.concatenate([random_array(30) * 2, xp, [np.nan, np.inf, -np.inf]])
    dx, dxp, dfp = npgpu.asarray(x), npgpu.asarray(xp), npgpu.asarray(fp)
    _check(npgpu.interp(dx, dxp, dfp), np.interp(x, xp, fp))
    _check(npgpu.interp(dx, dxp, dfp, left=-5, right=7.5), np.interp(x, xp, fp, left=-5, right=7.5))
    _check(npgpu.interp(dx[:30] * 10, dxp * 3, dfp, period=4), np.interp(x[:30] * 10, xp * 3, fp, period=4),
           exact=False)
    fc = fp + 1j * fp[::-1]
    _check(npgpu.interp(dx[:30], dxp, npgpu.asarray(fc)), np.interp(x[:30], xp, fc), exact=False)
    _check(npgpu.interp(dx, dxp[:1], dfp[:1]), np.interp(x, xp[:1], fp[:1]))
    _check(npgpu.interp(npgpu.asarray(np.arange(5, dtype=np.int32)), dxp, dfp), np.interp(np.arange(5), xp, fp))
    with pytest.raises(ValueError):
        npgpu.interp(dx, dxp, dfp[:3])
    with pytest.raises(ValueError):
        npgpu.interp(dx, dxp[:0], dfp[:0])
    with pytest.raises(ValueError):
        npgpu.interp(dx, dxp, dfp, period=0)


@pytest.mark.usefixtures("array_device")
def test_trapezoid_polyval(random_array):
    y = random_array((4, 5))
    xs = np.sort(random_array(5))
    x2 = np.sort(random_array((4, 5)), axis=1)
    d = npgpu.asarray(y)
    _check(npgpu.trapezoid(d), np.trapezoid(y))
    _check(npgpu.trapezoid(d, dx=0.3, axis=0), np.trapezoid(y, dx=0.3, axis=0))
    _check(npgpu.trapezoid(d, npgpu.asarray(xs)), np.trapezoid(y, xs))
    _check(npgpu.trapezoid(d, npgpu.asarray(x2)), np.trapezoid(y, x2))
    _check(npgpu.trapezoid(d[0]), np.trapezoid(y[0]))
    with pytest.raises(np.exceptions.AxisError):
        npgpu.trapezoid(d, axis=2)
    p = random_array(4)
    _check(npgpu.polyval(npgpu.asarray(p), d), np.polyval(p, y))
    _check(npgpu.polyval(npgpu.asarray(p), d.astype(np.float32)), np.polyval(p, y.astype(np.float32)))
    pi = np.array([3, -2, 1])
    _check(npgpu.polyval(npgpu.asarray(pi), npgpu.asarray(np.arange(1, 5))), np.polyval(pi, np.arange(1, 5)))


@pytest.mark.usefixtures("array_device")
def test_comparisons_and_nan_to_num(random_array):
    y = random_array((4, 5))
    d = npgpu.asarray(y)
    assert npgpu.array_equal(d, npgpu.asarray(y.copy())) is True
    assert npgpu.array_equal(d, d[:2]) is False
    assert npgpu.array_equal(d, d + 1) is False
    n = npgpu.asarray(np.array([np.nan, 1.5]))
    assert npgpu.array_equal(n, n) is False and npgpu.array_equal(n, n, equal_nan=True) is True
    assert npgpu.array_equiv(d[:1], npgpu.asarray(np.broadcast_to(y[:1], (3, 5)).copy())) is True
    assert npgpu.array_equiv(d[0], d) is False
    assert npgpu.array_equiv(d, d[:, :2]) is False
    z = np.array([np.nan, np.inf, -np.inf, 1.5, -2.5])
    dz = npgpu.asarray(z)
    _check(npgpu.nan_to_num(dz), np.nan_to_num(z))
    _check(npgpu.nan_to_num(dz, nan=-1, posinf=9, neginf=-9), np.nan_to_num(z, nan=-1, posinf=9, neginf=-9))
    _check(npgpu.nan_to_num(dz.astype(np.float32), nan=1e300), np.nan_to_num(z.astype(np.float32), nan=1e300))
    zc = z + 1j * z[::-1]
    _check(npgpu.nan_to_num(npgpu.asarray(zc)), np.nan_to_num(zc))
    _check(npgpu.nan_to_num(npgpu.asarray(np.arange(3))), np.arange(3))
    r = npgpu.nan_to_num(dz, copy=False)
    assert r is dz
    np.testing.assert_array_equal(dz.get(), np.nan_to_num(z))
    assert npgpu.round_ is npgpu.round and npgpu.around is npgpu.round


EINSUM_CASES = [
    ("ij,jk->ik", [(3, 4), (4, 5)]), ("ij,jk", [(3, 4), (4, 5)]), ("ij,jk,kl->il", [(3, 4), (4, 5), (5, 3)]),
    ("ii", [(3, 3)]), ("ii->i", [(3, 3)]), ("ij->", [(3, 4)]), ("ij->ji", [(3, 4)]), ("ji", [(3, 4)]),
    ("...j,jk->...k", [(2, 3, 4), (4, 5)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 2)]), ("i,i", [(4,), (4,)]),
    ("i,j->ij", [(4,), (5,)]), ("ijk,jk->i", [(3, 2, 4), (2, 4)]), ("iij->j", [(3, 3, 2)]),
    ("...ii->...i", [(2, 3, 3)]), ("Ba,ab", [(3, 4), (4, 3)]), ("i,i", [(4,), (1,)]), ("ij,ij->i", [(3, 4), (3, 4)]),
    ("ijk->kji", [(2, 3, 4)]), ("i,jk", [(3,), (4, 5)]), ("ab,bc,cd,da->", [(3, 4), (4, 5), (5, 3), (3, 3)]),
    ("i...,i...->...", [(3, 2), (3, 1)]),
]


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("subscripts,shapes", EINSUM_CASES, ids=[c[0] for c in EINSUM_CASES])
def test_einsum(random_array, subscripts, shapes):
    ops = [random_array(s) for s in shapes]
    _check(npgpu.einsum(subscripts, *[npgpu.asarray(o) for o in ops]), np.einsum(subscripts, *ops), exact=False)


@pytest.mark.usefixtures("array_device")
def test_einsum_forms_dtypes_errors(random_array):
    a, b = random_array((2, 3)), random_array((3, 2))
    da, db = npgpu.asarray(a), npgpu.asarray(b)
    _check(npgpu.einsum(da, [0, 1], db, [1, 2], [0, 2]), np.einsum(a, [0, 1], b, [1, 2], [0, 2]), exact=False)
    _check(npgpu.einsum(da, [Ellipsis, 1], db, [1, 2]), np.einsum(a, [Ellipsis, 1], b, [1, 2]), exact=False)
    _check(npgpu.einsum("ij,jk", da, db, optimize=True), np.einsum("ij,jk", a, b, optimize=True), exact=False)
    f32 = a.astype(np.float32)
    _check(npgpu.einsum("ij,jk", npgpu.asarray(f32), db.astype(np.float32), dtype=np.float64),
           np.einsum("ij,jk", f32, b.astype(np.float32), dtype=np.float64), exact=False)
    i = np.arange(1, 7, dtype=np.int32)
    _check(npgpu.einsum("ij,jk", npgpu.asarray(i.reshape(2, 3)), npgpu.asarray(i.reshape(3, 2))),
           np.einsum("ij,jk", i.reshape(2, 3), i.reshape(3, 2)))
    with pytest.raises(TypeError):
        npgpu.einsum("ij", da, dtype=np.int32)
    one = npgpu.asarray(np.ones(3))
    for s, ops in [("...i->i", [da]), ("ij->k", [da]), ("ii->ii", [npgpu.asarray(np.ones((2, 2)))]), ("i,j", [one]),
                   ("i,i", [one, npgpu.asarray(np.ones(4))]), ("ij", [one]), ("i.j", [da]), ("i1", [da]),
                   ("ii", [da]), ("i", [one, one])]:
        with pytest.raises(ValueError):
            np.einsum(s, *[o.get() for o in ops])
        with pytest.raises(ValueError):
            npgpu.einsum(s, *ops)


def test_numpy_in_numpy_out(random_array):
    a, v = random_array(6), random_array(3)
    xp = np.sort(random_array(5))
    cases = [("convolve", (a, v)), ("correlate", (a, v, "same")), ("interp", (a, xp, v[:1].repeat(5))),
             ("trapezoid", (a,)), ("polyval", (v, a)), ("nan_to_num", (a,)), ("einsum", ("i,i", a, a)),
             ("einsum", ("i,j", a, v)), ("interp", (0.3, xp, a[:5])), ("polyval", (v, 2.5))]
    for name, args in cases:
        got, want = getattr(npgpu, name)(*args), getattr(np, name)(*args)
        assert type(got) is type(want), (name, type(got), type(want))
        np.testing.assert_allclose(got, want, rtol=1e-12)
    assert npgpu.array_equal(a, a.tolist()) is True and npgpu.array_equiv([1, 2], [1, 3]) is False
    assert type(npgpu.nan_to_num(np.nan)) is np.float64
    z = np.array([np.nan, 1.5])
    assert npgpu.nan_to_num(z, copy=False) is z and z[0] == 0.0


@pytest.mark.usefixtures("array_device")
def test_numpy_dispatch(random_array):
    a, v = random_array(6), random_array(3)
    da, dv = npgpu.asarray(a), npgpu.asarray(v)
    _check(np.convolve(da, dv), np.convolve(a, v), exact=False)
    _check(np.correlate(da, dv, "full"), np.correlate(a, v, "full"), exact=False)
    _check(np.trapezoid(da), np.trapezoid(a))
    _check(np.polyval(dv, da), np.polyval(v, a))
    _check(np.nan_to_num(da), np.nan_to_num(a))
    _check(np.einsum("i,j->ij", da, dv), np.einsum("i,j->ij", a, v), exact=False)
    xp = np.sort(random_array(5))
    _check(np.interp(da, npgpu.asarray(xp), da[:5]), np.interp(a, xp, a[:5]))
    assert np.array_equal(da, da) is True and np.array_equiv(da, dv) is False


@pytest.mark.parametrize("sub", [np.ma.masked_array(np.arange(1.0, 5.0), mask=[0, 1, 0, 0]),
                                 type("MyArray", (np.ndarray,), {})((4,))])
def test_subclasses_refused(sub):
    plain = np.arange(1.0, 5.0)
    for fn, args in [(npgpu.convolve, (sub, plain)), (npgpu.correlate, (plain, sub)), (npgpu.trapezoid, (sub,)),
                     (npgpu.polyval, (plain, sub)), (npgpu.nan_to_num, (sub,)), (npgpu.einsum, ("i,i", plain, sub)),
                     (npgpu.interp, (sub, plain, plain)), (npgpu.array_equal, (sub, plain))]:
        with pytest.raises(TypeError, match=type(sub).__name__):
            fn(*args)
