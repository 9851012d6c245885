"""convolve, correlate, interp, trapezoid, polyval, array_equal/equiv, nan_to_num, einsum, the polynomial functions
(poly, roots, polyadd/sub/mul/div, polyder, polyint, polyfit) and the windows (bartlett, blackman, hamming,
hanning, kaiser) against NumPy on each device; NumPy in gives NumPy out; np.<fn>(npgpu array) runs npgpu's;
NumPy's errors; ndarray subclasses refused."""
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


# ------------------------------------------------------------------------------------------------ polynomials

def _close(got, want, rtol=1e-10):
    """An npgpu.Array of NumPy's dtype and shape whose values are NumPy's up to rounding (relative to the
    largest magnitude)."""
    assert isinstance(got, npgpu.Array), type(got)
    g, want = got.get(), np.asarray(want)
    assert g.dtype == want.dtype and g.shape == want.shape, (g.dtype, g.shape, want.dtype, want.shape)
    scale = float(np.max(np.abs(want))) if want.size else 0.0
    np.testing.assert_allclose(g, want, rtol=rtol, atol=rtol * scale)


def _same_roots(got, want, rtol=1e-7):
    """Roots equal as sets (the eigenvalue order may differ between devices)."""
    assert isinstance(got, npgpu.Array), type(got)
    g, want = got.get(), np.asarray(want)
    assert g.dtype == want.dtype and g.shape == want.shape, (g.dtype, g.shape, want.dtype, want.shape)
    scale = float(np.max(np.abs(want))) if want.size else 0.0
    np.testing.assert_allclose(np.sort_complex(g), np.sort_complex(want), rtol=rtol, atol=rtol * scale)


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.complex128, np.bool_])
def test_poly(random_array, dtype):
    for n in (1, 2, 5):
        z = random_array(n, dtype)
        rtol = 1e-5 if dtype == np.float32 else 1e-10
        _close(npgpu.poly(npgpu.asarray(z)), np.poly(z), rtol)
    pairs = random_array(2, np.complex128)
    z = np.concatenate([pairs, pairs.conj(), random_array(1)])  # conjugate pairs: real coefficients
    _close(npgpu.poly(npgpu.asarray(z)), np.poly(z))
    assert np.poly(z).dtype == np.float64


@pytest.mark.usefixtures("array_device")
def test_poly_matrix_empty_errors(random_array):
    a = random_array((4, 4))
    _close(npgpu.poly(npgpu.asarray(a)), np.poly(a), 1e-8)  # the characteristic polynomial
    i = np.array([[2, 1], [1, 3]])
    _close(npgpu.poly(npgpu.asarray(i)), np.poly(i), 1e-12)
    e = npgpu.poly(npgpu.asarray(np.zeros(0)))
    assert isinstance(e, npgpu.Array) and e.shape == () and e.dtype == np.float64 and float(e) == np.poly([])
    for bad in (np.ones((2, 3)), np.zeros((0, 0)), np.ones((2, 2, 2))):
        with pytest.raises(ValueError):
            np.poly(bad)
        with pytest.raises(ValueError):
            npgpu.poly(npgpu.asarray(bad))
    with pytest.raises(TypeError):
        npgpu.poly(npgpu.asarray(2.5))


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.float64, np.complex128])
def test_roots(random_array, dtype):
    rtol = 1e-3 if dtype == np.float32 else 1e-7
    for n in (2, 3, 6):
        p = random_array(n, dtype)
        _same_roots(npgpu.roots(npgpu.asarray(p)), np.roots(p), rtol)
    p = np.concatenate([np.zeros(2, dtype), random_array(4, dtype), np.zeros(3, dtype)])  # zero roots appended
    want = np.roots(p)
    assert want.shape == (6,)
    _same_roots(npgpu.roots(npgpu.asarray(p)), want, rtol)


@pytest.mark.usefixtures("array_device")
def test_roots_edges_and_errors(random_array):
    for p in (np.zeros(3), np.array([4.5]), np.zeros(0), np.array([0.0, 0.0, 5.0, 0.0]), np.array([True, True])):
        _close(npgpu.roots(npgpu.asarray(p)), np.roots(p))
    p = np.array([1.0, 0.0, 4.0])  # complex roots of a real polynomial
    _same_roots(npgpu.roots(npgpu.asarray(p)), np.roots(p))
    with pytest.raises(ValueError):
        npgpu.roots(npgpu.asarray(random_array((2, 3))))
    with pytest.raises(TypeError):
        npgpu.roots(npgpu.asarray(3.0))
    with pytest.raises(np.linalg.LinAlgError):
        npgpu.roots(npgpu.asarray(np.array([1.0, np.inf, 2.0])))


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.int64, np.float32, np.float64, np.complex128])
def test_polyder_polyint(random_array, dtype):
    p = random_array(5, dtype)
    d = npgpu.asarray(p)
    for m in (0, 1, 2, 7):
        _close(npgpu.polyder(d, m), np.polyder(p, m))
        _close(npgpu.polyint(d, m), np.polyint(p, m))
    _close(npgpu.polyint(d, 3, k=[1.5, -2, 3]), np.polyint(p, 3, k=[1.5, -2, 3]))
    _close(npgpu.polyint(d, 3, k=npgpu.asarray(np.array([1, 2, 3, 4]))), np.polyint(p, 3, k=np.array([1, 2, 3, 4])))
    _close(npgpu.polyint(d, 2, k=2.5), np.polyint(p, 2, k=2.5))
    _close(npgpu.polyint(d, 2, k=1 - 2j), np.polyint(p, 2, k=1 - 2j))


@pytest.mark.usefixtures("array_device")
def test_polyder_polyint_edges_and_errors(random_array):
    empty = np.zeros(0)
    for m in (0, 1, 3):
        _close(npgpu.polyder(npgpu.asarray(empty), m), np.polyder(empty, m))
        _close(npgpu.polyint(npgpu.asarray(empty), m), np.polyint(empty, m))
    p2 = random_array((3, 2))  # NumPy's broadcasting of a 2-D p, and its error one level later
    _close(npgpu.polyder(npgpu.asarray(p2)), np.polyder(p2))
    for fn, args in ((np.polyder, (random_array((2, 2)),)), (np.polyint, (random_array((2, 2)),))):
        with pytest.raises(ValueError):
            fn(*args)
        with pytest.raises(ValueError):
            getattr(npgpu, fn.__name__)(npgpu.asarray(args[0]))
    d = npgpu.asarray(random_array(3))
    for fn in (npgpu.polyder, npgpu.polyint):
        with pytest.raises(ValueError):
            fn(d, -1)
        with pytest.raises(TypeError):
            fn(npgpu.asarray(2.0), 1)
    with pytest.raises(ValueError):
        npgpu.polyint(d, 3, k=[1, 2])
    _close(npgpu.polyint(npgpu.asarray(2.0), 0), np.polyint(np.array(2.0), 0))


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("dt1,dt2", [(np.int64, np.int64), (np.int32, np.float32), (np.float64, np.float64),
                                     (np.float32, np.complex128), (np.bool_, np.bool_)])
def test_polyadd_polysub_polymul(random_array, dt1, dt2):
    for n1, n2 in ((3, 3), (2, 5), (6, 1)):
        a, b = random_array(n1, dt1), random_array(n2, dt2)
        da, db = npgpu.asarray(a), npgpu.asarray(b)
        _close(npgpu.polyadd(da, db), np.polyadd(a, b))
        _close(npgpu.polymul(da, db), np.polymul(a, b))
        if dt1 == np.bool_:
            with pytest.raises(TypeError):
                np.polysub(a, b)
            with pytest.raises(TypeError):
                npgpu.polysub(da, db)
        else:
            _close(npgpu.polysub(da, db), np.polysub(a, b))


@pytest.mark.usefixtures("array_device")
def test_polyadd_polysub_polymul_edges(random_array):
    a, b = random_array(3), random_array(2)
    lead = np.concatenate([np.zeros(2), a])  # polymul drops leading zeros, polyadd keeps them
    for x, y in ((lead, b), (b, lead), (np.zeros(0), b), (np.zeros(0), np.zeros(0)), (np.zeros(3), b),
                 (np.array(2.5), a), (a, np.array(-1.5))):
        dx, dy = npgpu.asarray(x), npgpu.asarray(y)
        _close(npgpu.polyadd(dx, dy), np.polyadd(x, y))
        _close(npgpu.polysub(dx, dy), np.polysub(x, y))
        _close(npgpu.polymul(dx, dy), np.polymul(x, y))
    m = npgpu.asarray(random_array((1, 2)))
    with pytest.raises(ValueError):
        npgpu.polyadd(m, npgpu.asarray(a))
    with pytest.raises(ValueError):
        npgpu.polymul(m, npgpu.asarray(a))


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("dt1,dt2", [(np.int64, np.int64), (np.float32, np.float32), (np.float64, np.float64),
                                     (np.float32, np.complex128), (np.bool_, np.bool_)])
def test_polydiv(random_array, dt1, dt2):
    rtol = 1e-4 if dt1 == dt2 == np.float32 else 1e-9
    for n1, n2 in ((5, 2), (4, 4), (2, 3), (6, 1)):
        u, v = random_array(n1, dt1), random_array(n2, dt2)
        q, r = npgpu.polydiv(npgpu.asarray(u), npgpu.asarray(v))
        wq, wr = np.polydiv(u, v)
        _close(q, wq, rtol)
        _close(r, wr, rtol)


@pytest.mark.usefixtures("array_device")
def test_polydiv_exact_and_errors(random_array):
    a, b = np.array([3, -1, 2, 5]), np.array([2, 7])
    u = np.polymul(a, b)  # divides exactly: the remainder's leading zeros are dropped down to one
    q, r = npgpu.polydiv(npgpu.asarray(u), npgpu.asarray(b))
    wq, wr = np.polydiv(u, b)
    _close(q, wq)
    _close(r, wr)
    assert r.shape == (1,)
    q, r = npgpu.polydiv(npgpu.asarray(np.array(6.0)), npgpu.asarray(np.array(2.0)))  # 0-d: constants
    _close(q, np.polydiv(6.0, 2.0)[0])
    d = npgpu.asarray(random_array(3))
    with pytest.raises(IndexError):
        npgpu.polydiv(npgpu.asarray(np.zeros(0)), d)
    with pytest.raises(IndexError):
        npgpu.polydiv(d, npgpu.asarray(np.zeros(0)))
    with pytest.raises(ValueError):
        npgpu.polydiv(npgpu.asarray(random_array((2, 2))), npgpu.asarray(random_array((2, 2))))


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("xdt,ydt", [(np.int64, np.int64), (np.float32, np.float32), (np.float64, np.float64),
                                     (np.float64, np.complex128)])
def test_polyfit(rng, xdt, ydt):
    x = (np.arange(12) + rng.uniform(0.1, 0.9, 12)).astype(xdt) if xdt != np.int64 else np.arange(1, 13)
    y = (rng.uniform(1, 2, 12) * 10).astype(ydt) if ydt != np.complex128 else \
        rng.uniform(1, 2, 12) + 1j * rng.uniform(1, 2, 12)
    w = rng.uniform(0.5, 2.0, 12)
    rtol = 1e-3 if xdt == np.float32 else 1e-8
    dx, dy, dw = npgpu.asarray(x), npgpu.asarray(y), npgpu.asarray(w)
    for deg in (0, 1, 3):
        _close(npgpu.polyfit(dx, dy, deg), np.polyfit(x, y, deg), rtol)
        _close(npgpu.polyfit(dx, dy, deg, w=dw), np.polyfit(x, y, deg, w=w), rtol)
        for cov in (True, "unscaled"):
            c, v = npgpu.polyfit(dx, dy, deg, w=dw, cov=cov)
            wc, wv = np.polyfit(x, y, deg, w=w, cov=cov)
            _close(c, wc, rtol)
            _close(v, wv, rtol)
        got, want = npgpu.polyfit(dx, dy, deg, full=True), np.polyfit(x, y, deg, full=True)
        for i in (0, 1, 3):
            _close(got[i], want[i], rtol)
        assert got[2] == want[2] and type(got[2]) is type(want[2]) and got[4] == pytest.approx(want[4])
    y2 = np.stack([y, y * 2 + 1], axis=1)  # two data sets at once
    _close(npgpu.polyfit(dx, npgpu.asarray(y2), 2, w=dw), np.polyfit(x, y2, 2, w=w), rtol)
    c, v = npgpu.polyfit(dx, npgpu.asarray(y2), 2, cov=True)
    wc, wv = np.polyfit(x, y2, 2, cov=True)
    _close(c, wc, rtol)
    _close(v, wv, rtol)
    assert v.shape == (3, 3, 2)


@pytest.mark.usefixtures("array_device")
def test_polyfit_rank_and_errors(random_array):
    x, y = np.array([1.0, 2.0, 3.0]), random_array(3)
    dx, dy = npgpu.asarray(x), npgpu.asarray(y)
    with pytest.warns(np.exceptions.RankWarning):
        c = npgpu.polyfit(dx, dy, 4)
    with pytest.warns(np.exceptions.RankWarning):
        want = np.polyfit(x, y, 4)
    _close(c, want, 1e-8)
    got = npgpu.polyfit(dx, dy, 4, full=True)  # no warning with full: the rank is returned
    assert got[2] == 3
    cases = [(ValueError, (dx, dy, -1), {}), (TypeError, (dx.reshape(1, 3), dy, 1), {}),
             (TypeError, (npgpu.asarray(np.zeros(0)), npgpu.asarray(np.zeros(0)), 1), {}),
             (TypeError, (dx, dy.reshape(3, 1, 1), 1), {}), (TypeError, (dx, dy[:2], 1), {}),
             (TypeError, (dx, dy, 1), {"w": dy.reshape(3, 1)}), (TypeError, (dx, dy, 1), {"w": dy[:2]}),
             (ValueError, (dx, dy, 2), {"cov": True})]
    for exc, args, kw in cases:
        with pytest.raises(exc):
            host = [a.get() if isinstance(a, npgpu.Array) else a for a in args]
            np.polyfit(*host, **{k: v.get() if isinstance(v, npgpu.Array) else v for k, v in kw.items()})
        with pytest.raises(exc):
            npgpu.polyfit(*args, **kw)


# ------------------------------------------------------------------------------------------------ windows

@pytest.mark.parametrize("M", [-3, 0, 1, 2, 3, 6, 7, 16, 5.0])
def test_windows(array_device, M):
    for name in ("bartlett", "blackman", "hamming", "hanning"):
        got = getattr(npgpu, name)(M, device=array_device)
        assert got.device == npgpu.asarray(np.zeros(1), device=array_device).device
        _close(got, getattr(np, name)(M), 1e-13)
    for beta in (0.0, 5.0, 14.0):
        got = npgpu.kaiser(M, beta, device=array_device)
        _close(got, np.kaiser(M, beta), 1e-12)


def test_windows_default_device_and_errors(array_device):
    _close(npgpu.hanning(8), np.hanning(8), 1e-13)  # the default device (array_device's backend)
    for name in ("bartlett", "blackman", "hamming", "hanning"):
        fn = getattr(npgpu, name)
        for bad in (float("nan"), float("inf"), 2**64):
            with pytest.raises(ValueError):
                getattr(np, name)(bad)
            with pytest.raises(ValueError):
                fn(bad)
        for bad in (None, "str"):
            with pytest.raises(TypeError):
                getattr(np, name)(bad)
            with pytest.raises(TypeError):
                fn(bad)
        with pytest.raises(TypeError):
            fn(npgpu.asarray(np.array(4)))
    with pytest.raises(TypeError):
        npgpu.kaiser(4, None)
    with pytest.raises(ValueError):
        npgpu.kaiser(float("nan"), 2.0)


# ------------------------------------------------------------------------------------------------ NumPy in/out

def test_polynomials_numpy_in_numpy_out(random_array):
    p, q = random_array(4), random_array(2)
    x, y = np.arange(6.0) + 0.5, random_array(6)
    cases = [("poly", (p,)), ("poly", (random_array((3, 3)),)), ("roots", (p,)), ("polyder", (p, 2)),
             ("polyint", (p, 2, [1.0, 2.0])), ("polyadd", (p, q)), ("polysub", (q, p)), ("polymul", (p, q)),
             ("polyfit", (x, y, 2)), ("polyadd", (p.tolist(), 3))]
    for name, args in cases:
        got, want = getattr(npgpu, name)(*args), getattr(np, name)(*args)
        assert type(got) is type(want) and got.dtype == want.dtype, (name, type(got), type(want))
        np.testing.assert_allclose(np.sort_complex(got) if name == "roots" else got,
                                   np.sort_complex(want) if name == "roots" else want, rtol=1e-9)
    for got, want in zip(npgpu.polydiv(p, q), np.polydiv(p, q)):
        assert type(got) is np.ndarray
        np.testing.assert_allclose(got, want, rtol=1e-10)
    got, want = npgpu.polyfit(x, y, 2, full=True), np.polyfit(x, y, 2, full=True)
    assert [type(g) for g in got] == [type(w) for w in want]
    assert npgpu.poly([]) == 1.0 and type(npgpu.poly([])) is float
    assert isinstance(npgpu.hanning(4), npgpu.Array)


@pytest.mark.usefixtures("array_device")
def test_polynomials_numpy_dispatch(random_array):
    p, q = random_array(4), random_array(2)
    dp, dq = npgpu.asarray(p), npgpu.asarray(q)
    _close(np.polyadd(dp, dq), np.polyadd(p, q))
    _close(np.polymul(dp, dq), np.polymul(p, q))
    _close(np.polyder(dp), np.polyder(p))
    _close(np.polyint(dp), np.polyint(p))
    _same_roots(np.roots(dp), np.roots(p))
    _close(np.poly(dq), np.poly(q))
    x = npgpu.asarray(np.arange(5.0))
    _close(np.polyfit(x, x * 2 + 1, 1), np.polyfit(np.arange(5.0), np.arange(5.0) * 2 + 1, 1), 1e-8)


@pytest.mark.parametrize("sub", [np.ma.masked_array(np.arange(1.0, 5.0), mask=[0, 1, 0, 0]),
                                 type("MyArray", (np.ndarray,), {})((4,))])
def test_polynomial_subclasses_refused(sub):
    plain = np.arange(1.0, 5.0)
    for fn, args in [(npgpu.poly, (sub,)), (npgpu.roots, (sub,)), (npgpu.polyder, (sub,)), (npgpu.polyint, (sub,)),
                     (npgpu.polyadd, (plain, sub)), (npgpu.polysub, (sub, plain)), (npgpu.polymul, (sub, plain)),
                     (npgpu.polydiv, (plain, sub)), (npgpu.polyfit, (plain, sub, 1))]:
        with pytest.raises(TypeError, match=type(sub).__name__):
            fn(*args)


@pytest.mark.parametrize("optimize", ["greedy", "optimal", False, True])
def test_einsum_path_as_numpy_without_copies(array_device, optimize):
    shapes = [(3, 4), (4, 5), (5, 6), (6, 2)]
    hosts = [np.ones(s, np.float32) for s in shapes]
    arrays = [npgpu.asarray(h, device=array_device) for h in hosts]
    got = npgpu.einsum_path("ij,jk,kl,lm->im", *arrays, optimize=optimize)
    want = np.einsum_path("ij,jk,kl,lm->im", *hosts, optimize=optimize)
    assert got[0] == want[0] and got[1] == want[1]
    mixed = npgpu.einsum_path(arrays[0], [0, 1], hosts[1], [1, 2], [0, 2])
    assert mixed[0] == np.einsum_path(hosts[0], [0, 1], hosts[1], [1, 2], [0, 2])[0]
    with pytest.raises(ValueError):
        npgpu.einsum_path("ij,jk->ik", arrays[0], arrays[2])  # 4 against 5


def _same_poly(got, want):
    assert isinstance(got, npgpu.poly1d) and isinstance(got.coeffs, npgpu.Array)
    np.testing.assert_allclose(got.coeffs.get(), want.coeffs, rtol=1e-12, atol=1e-12)
    assert got.coeffs.shape == want.coeffs.shape


def test_poly1d_as_numpys(array_device):
    c = np.array([1.5, -3.0, 0.25, 2.0])
    p, q = npgpu.poly1d(npgpu.asarray(c, device=array_device)), np.poly1d(c)
    assert str(p.coeffs.device) == str(npgpu.asarray(c, device=array_device).device)
    assert repr(p) == repr(q) and str(p) == str(q) and p.order == p.o == len(p) == q.order
    x = np.array([-1.25, 0.5, 3.0])
    np.testing.assert_allclose(p(npgpu.asarray(x, device=array_device)).get(), q(x), rtol=1e-13)
    two = np.poly1d([2.0, -1.0])
    cases = [lambda a, P: a * a, lambda a, P: a + P(two), lambda a, P: 3 - a, lambda a, P: a ** 3,
             lambda a, P: 2.5 * a, lambda a, P: a.deriv(2), lambda a, P: a.integ(2, k=[1.0, -2.0]),
             lambda a, P: -a, lambda a, P: a(P(two)), lambda a, P: a / 4.0, lambda a, P: a - a]
    for f in cases:
        _same_poly(f(p, npgpu.poly1d), f(q, np.poly1d))
    (qq, rr), (wq, wr) = p / npgpu.poly1d(two), q / two
    _same_poly(qq, wq)
    _same_poly(rr, wr)
    for fn in ("polyadd", "polysub", "polymul"):
        _same_poly(getattr(npgpu, fn)(p, [1.0, 1.0]), getattr(np, fn)(q, [1.0, 1.0]))
    _same_poly(npgpu.polyder(p), np.polyder(q))
    _same_poly(npgpu.polyint(p, 2), np.polyint(q, 2))
    np.testing.assert_allclose(np.sort_complex(p.roots.get()), np.sort_complex(q.roots), rtol=1e-10)
    np.testing.assert_allclose(np.sort_complex(npgpu.roots(p).get()), np.sort_complex(q.r), rtol=1e-10)
    _same_poly(npgpu.poly1d([1.0, 2.0], r=True), np.poly1d([1.0, 2.0], r=True))
    _same_poly(npgpu.poly1d([0.0, 0.0, 7.0, 1.0]), np.poly1d([0.0, 0.0, 7.0, 1.0]))  # leading zeros dropped
    assert [p[k] for k in range(6)] == [q[k] for k in range(6)]
    p[5], q[5] = 9.0, 9.0
    p[1], q[1] = -1.0, -1.0
    _same_poly(p, q)
    assert p == npgpu.poly1d(q.coeffs) and p != npgpu.poly1d([1.0]) and list(p) == list(q)
    assert np.array_equal(np.asarray(p), q.coeffs)
    assert str(npgpu.poly1d(np.poly1d([1, 2, 3], variable="z"))) == str(np.poly1d([1, 2, 3], variable="z"))
    with pytest.raises(ValueError, match="1d"):
        npgpu.poly1d([[1.0, 2.0]])
    with pytest.raises(ValueError, match="non-negative"):
        p ** -1
    with pytest.raises(ValueError, match="negative powers"):
        p[-1] = 2.0
