"""histogram against NumPy on each device: integer bins over the data's extent or a range, edge values
(the last bin closed), values outside and NaNs left out, float32 edges in float32, explicit edges,
weights, density, errors."""
import numpy as np
import pytest

import npgpu

pytestmark = pytest.mark.usefixtures("array_device")


def _same(got, want, exact=True):
    assert len(got) == 2
    for g, w in zip(got, want):
        g = g.get()
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, w.dtype, g.shape, w.shape)
        if exact:
            np.testing.assert_array_equal(g, w)
        else:
            np.testing.assert_allclose(g, w, rtol=1e-12)


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int16, np.uint8])
@pytest.mark.parametrize("bins", [1, 7, 10, 64])
def test_uniform_bins(rng, dt, bins):
    a = (rng.standard_normal(5000) * 20 if np.dtype(dt).kind == "f" else rng.integers(0, 50, 5000)).astype(dt)
    d = npgpu.asarray(a)
    _same(npgpu.histogram(d, bins=bins), np.histogram(a, bins=bins))
    _same(npgpu.histogram(d, bins=bins, range=(-3, 17)), np.histogram(a, bins=bins, range=(-3, 17)))
    # values exactly on the edges
    edges = np.histogram_bin_edges(a, bins=bins)
    on = edges.astype(dt)
    _same(npgpu.histogram(npgpu.asarray(on), bins=bins, range=(float(edges[0]), float(edges[-1]))),
          np.histogram(on, bins=bins, range=(float(edges[0]), float(edges[-1]))))


def test_special_values_weights_density(rng):
    a = np.array([np.nan, 1.0, 2.0, 2.0, np.inf, -1.0, 3.0, 2.5])
    d = npgpu.asarray(a)
    _same(npgpu.histogram(d, bins=4, range=(0, 3)), np.histogram(a, bins=4, range=(0, 3)))
    w = rng.standard_normal(a.size)
    _same(npgpu.histogram(d, bins=3, range=(0, 3), weights=npgpu.asarray(w)),
          np.histogram(a, bins=3, range=(0, 3), weights=w), exact=False)
    _same(npgpu.histogram(d, bins=3, range=(0, 3), density=True), np.histogram(a, bins=3, range=(0, 3), density=True),
          exact=False)
    b = np.array([0, 0.5, 2, 3])
    _same(npgpu.histogram(d, bins=b), np.histogram(a, bins=b))
    ib = np.array([0, 1, 3])
    _same(npgpu.histogram(npgpu.asarray(np.array([0, 1, 2, 3, 3, 4])), bins=ib),
          np.histogram(np.array([0, 1, 2, 3, 3, 4]), bins=ib))
    _same(npgpu.histogram(npgpu.asarray(np.full(5, 2.0)), bins=2), np.histogram(np.full(5, 2.0), bins=2))
    _same(npgpu.histogram(npgpu.asarray(np.array([], dtype=np.float64)), bins=3),
          np.histogram(np.array([], dtype=np.float64), bins=3))


def test_errors():
    d = npgpu.asarray(np.array([1.0, np.inf]))
    with pytest.raises(ValueError, match="not finite"):
        npgpu.histogram(d)
    with pytest.raises(ValueError, match="positive"):
        npgpu.histogram(npgpu.asarray(np.ones(3)), bins=0)
    with pytest.raises(ValueError, match="monotonically"):
        npgpu.histogram(npgpu.asarray(np.ones(3)), bins=[0, 2, 1])
    with pytest.raises(ValueError, match="max must be larger"):
        npgpu.histogram(npgpu.asarray(np.ones(3)), range=(2, 1))
    got = npgpu.histogram(np.arange(10.0), bins=3)  # NumPy in, NumPy out
    assert isinstance(got[0], np.ndarray)
    np.testing.assert_array_equal(got[0], np.histogram(np.arange(10.0), bins=3)[0])


# --------------------------------------------------------------------------------------------- histogram_bin_edges

def _edges_same(got, want, rtol=0.0):
    g = got.get()
    assert g.dtype == want.dtype and g.shape == want.shape, (g.dtype, want.dtype, g.shape, want.shape)
    if rtol:
        np.testing.assert_allclose(g, want, rtol=rtol)
    else:
        np.testing.assert_array_equal(g, want)


@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64, np.int16, np.uint8, np.int64])
@pytest.mark.parametrize("bins", [1, 7, "sqrt", "sturges", "rice", "scott", "doane", "fd", "auto"])
def test_bin_edges_match_numpy(rng, dt, bins):
    if dt == np.float16 and bins in ("scott", "doane"):
        pytest.skip("NumPy's float16 std overflows (squares past 65504) and gives one bin; npgpu's does not")
    a = (rng.standard_normal(999) * 20 if np.dtype(dt).kind == "f" else rng.integers(0, 200, 999)).astype(dt)
    d = npgpu.asarray(a)
    # the estimators' widths come from moments and quartiles summed in another order than NumPy's
    rtol = 1e-6 if isinstance(bins, str) and np.dtype(dt).itemsize < 8 else 0.0
    for rng_ in (None, (-3, 17), (5.0, 5.0)):
        want = np.histogram_bin_edges(a, bins=bins, range=rng_)
        _edges_same(npgpu.histogram_bin_edges(d, bins=bins, range=rng_), want, rtol)
    want = np.histogram_bin_edges(a.reshape(27, 37), bins=bins)
    _edges_same(npgpu.histogram_bin_edges(npgpu.asarray(a.reshape(27, 37)), bins=bins), want, rtol)


def test_bin_edges_special_inputs():
    for a in (np.array([], np.float32), np.full(5, 2.0), np.array([3, 3, 3], np.int8), np.array([1.5, np.nan])):
        for bins in (3, "sqrt"):
            rng_ = (0, 4) if np.isnan(a).any() else None
            want = np.histogram_bin_edges(a, bins=bins, range=rng_)
            _edges_same(npgpu.histogram_bin_edges(npgpu.asarray(a), bins=bins, range=rng_), want)
    b = np.array([0, 1, 3])
    _edges_same(npgpu.histogram_bin_edges(npgpu.asarray(np.ones(4)), bins=b), b)  # edges as given, int kept
    d = npgpu.asarray(np.arange(4.0))
    e = npgpu.asarray(np.array([0.0, 2.0, 2.0, 5.0]))
    _edges_same(npgpu.histogram_bin_edges(d, bins=e), e.get())
    with pytest.warns(RuntimeWarning, match="Converting input from bool"):
        got = npgpu.histogram_bin_edges(npgpu.asarray(np.array([True, False, True])), bins=2)
    with pytest.warns(RuntimeWarning):
        _edges_same(got, np.histogram_bin_edges(np.array([True, False, True]), bins=2))
    got = npgpu.histogram_bin_edges(np.arange(10.0), bins=3)  # NumPy in, NumPy out
    assert type(got) is np.ndarray
    np.testing.assert_array_equal(got, np.histogram_bin_edges(np.arange(10.0), bins=3))


def test_bin_edges_errors():
    d = npgpu.asarray(np.arange(5.0))
    with pytest.raises(NotImplementedError, match="'stone'"):
        npgpu.histogram_bin_edges(d, bins="stone")
    with pytest.raises(ValueError, match="not a valid estimator"):
        npgpu.histogram_bin_edges(d, bins="bogus")
    with pytest.raises(TypeError, match="weighted data"):
        npgpu.histogram_bin_edges(d, bins="sqrt", weights=npgpu.asarray(np.ones(5)))
    with pytest.raises(ValueError, match="same shape"):
        npgpu.histogram_bin_edges(d, bins=3, weights=npgpu.asarray(np.ones(4)))
    with pytest.raises(TypeError, match="must be an integer, a string, or an array"):
        npgpu.histogram_bin_edges(d, bins=1.5)
    with pytest.raises(ValueError, match="positive"):
        npgpu.histogram_bin_edges(d, bins=0)
    with pytest.raises(ValueError, match="1d"):
        npgpu.histogram_bin_edges(d, bins=[[0, 1]])
    with pytest.raises(ValueError, match="monotonically"):
        npgpu.histogram_bin_edges(d, bins=[0, 2, 1])
    with pytest.raises(ValueError, match="not finite"):
        npgpu.histogram_bin_edges(npgpu.asarray(np.array([1.0, np.inf])))
    with pytest.raises(ValueError, match="max must be larger"):
        npgpu.histogram_bin_edges(d, range=(2, 1))
    with pytest.raises(TypeError, match="complex"):
        npgpu.histogram_bin_edges(npgpu.asarray(np.array([1j])))


# --------------------------------------------------------------------------------------------- digitize

BIN_SETS = [np.array([0.0, 1.0, 2.5, 4.0]), np.array([4.0, 2.5, 1.0, 0.0]), np.array([1, 1, 2, 2, 3]),
            np.array([3, 3, 1, 1]), np.array([2.0, 2.0]), np.array([2.0]), np.array([], np.float64),
            np.array([-np.inf, 0.0, np.inf]), np.array([1, 5, 9], np.uint64), np.array([7, 3, -2], np.int8)]


@pytest.mark.parametrize("bins", BIN_SETS, ids=range(len(BIN_SETS)))
@pytest.mark.parametrize("right", [False, True])
def test_digitize_matches_numpy(array_device, bins, right):
    x = np.array([[-1, 0, 0.5, 1, 2, 2.5], [3, 4, 5, np.nan, -np.inf, np.inf]])
    for xs in (x, x.astype(np.float32), np.array([-3, 0, 1, 2, 3, 9], np.int16)):
        want = np.digitize(xs, bins, right=right)
        got = npgpu.digitize(npgpu.asarray(xs), npgpu.asarray(bins), right=right)
        g = got.get()
        assert g.dtype == want.dtype == np.int64 and g.shape == want.shape
        np.testing.assert_array_equal(g, want)
        # host bins beside device x are moved to x's device
        np.testing.assert_array_equal(npgpu.digitize(npgpu.asarray(xs), bins, right=right).get(), want)


def test_digitize_shapes_and_numpy_inputs(array_device):
    bins = npgpu.asarray(np.array([1.0, 2.0, 3.0]))
    got = npgpu.digitize(npgpu.asarray(np.array(2.5)), bins)
    assert isinstance(got, npgpu.Array) and got.shape == () and int(got) == 2
    got = npgpu.digitize(npgpu.asarray(np.zeros((0, 3))), bins)
    assert got.shape == (0, 3) and got.dtype == np.int64
    got = npgpu.digitize(2.5, bins)  # a host scalar beside device bins: an Array
    assert isinstance(got, npgpu.Array) and int(got) == 2
    assert npgpu.digitize(2.5, [1, 2, 3]) == np.digitize(2.5, [1, 2, 3])
    assert type(npgpu.digitize(2.5, [1, 2, 3])) is np.int64
    r = npgpu.digitize(np.array([0.5, 1.0, 7.0]), [3, 2, 1], right=True)
    assert type(r) is np.ndarray
    np.testing.assert_array_equal(r, np.digitize(np.array([0.5, 1.0, 7.0]), [3, 2, 1], right=True))


def test_digitize_errors(array_device):
    x = npgpu.asarray(np.array([1.5]))
    with pytest.raises(ValueError, match="monotonically increasing or decreasing"):
        npgpu.digitize(x, npgpu.asarray(np.array([1.0, 3.0, 2.0])))
    with pytest.raises(ValueError, match="monotonically"):
        npgpu.digitize(x, npgpu.asarray(np.array([3.0, 1.0, 2.0])))
    with pytest.raises(TypeError, match="may not be complex"):
        npgpu.digitize(npgpu.asarray(np.array([1j])), npgpu.asarray(np.array([1.0, 2.0])))
    with pytest.raises(TypeError, match="Cannot cast"):
        npgpu.digitize(x, npgpu.asarray(np.array([1j, 2])))
    with pytest.raises(ValueError, match="too small depth"):
        npgpu.digitize(x, 1.0)
    with pytest.raises(ValueError, match="too deep"):
        npgpu.digitize(x, npgpu.asarray(np.ones((2, 2))))


def _same_dd(got, want, exact=False):
    """histogramdd's (H, edges): npgpu.Arrays (or NumPy for NumPy input) matching NumPy's dtypes and values."""
    h, edges = got
    wh, wedges = want
    h = h.get() if isinstance(h, npgpu.Array) else h
    assert h.dtype == wh.dtype and h.shape == wh.shape, (h.dtype, wh.dtype, h.shape, wh.shape)
    if exact:
        np.testing.assert_array_equal(h, wh)
    else:
        np.testing.assert_allclose(h, wh, rtol=1e-12)
    assert len(edges) == len(wedges)
    for e, we in zip(edges, wedges):
        e = e.get() if isinstance(e, npgpu.Array) else e
        assert e.dtype == we.dtype and e.shape == we.shape, (e.dtype, we.dtype)
        np.testing.assert_array_equal(e, we)


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int32])
@pytest.mark.parametrize("bins", [1, 5, (3, 4, 2), [np.array([-9, -1, 0, 2.5, 9]), 3, np.array([-3, 1])]],
                         ids=["1", "5", "ints", "edges"])
def test_histogramdd(rng, dt, bins):
    s = (rng.standard_normal((500, 3)) * 4).astype(dt)
    s[:3] = s[3:6]  # repeated points
    d = npgpu.asarray(s)
    got = npgpu.histogramdd(d, bins=bins)
    assert isinstance(got[0], npgpu.Array) and all(isinstance(e, npgpu.Array) for e in got[1])
    _same_dd(got, np.histogramdd(s, bins=bins), exact=True)
    rg = [(-2, 3), (0, 1), (-5.5, 5.5)]
    _same_dd(npgpu.histogramdd(d, bins=bins, range=rg), np.histogramdd(s, bins=bins, range=rg), exact=True)
    w = rng.standard_normal(500)
    _same_dd(npgpu.histogramdd(d, bins=bins, weights=npgpu.asarray(w)), np.histogramdd(s, bins=bins, weights=w))
    _same_dd(npgpu.histogramdd(d, bins=bins, density=True), np.histogramdd(s, bins=bins, density=True))
    _same_dd(npgpu.histogramdd(d, bins=bins, density=True, weights=w),
             np.histogramdd(s, bins=bins, density=True, weights=w))
    # a sequence of coordinate arrays, and NumPy input giving NumPy output
    _same_dd(npgpu.histogramdd([d[:, 0], d[:, 1], d[:, 2]], bins=bins), np.histogramdd(s, bins=bins), exact=True)
    np_got = npgpu.histogramdd(s, bins=bins)
    assert isinstance(np_got[0], np.ndarray) and all(isinstance(e, np.ndarray) for e in np_got[1])
    _same_dd(np_got, np.histogramdd(s, bins=bins), exact=True)


def test_histogramdd_edges_and_special_values(rng):
    s = np.array([[0.0, 1.0], [1.0, 1.0], [np.nan, 0.5], [0.5, np.inf], [1.0, 0.0], [2.0, 2.0]])
    bins = [np.array([0.0, 0.5, 1.0]), np.array([0.0, 1.0])]
    # points on the last edge go into the last bin; NaN, inf and points outside are left out
    _same_dd(npgpu.histogramdd(npgpu.asarray(s), bins=bins), np.histogramdd(s, bins=bins), exact=True)
    one = np.array([[3.0, 3.0]])  # one point: each extent widened by 0.5
    _same_dd(npgpu.histogramdd(npgpu.asarray(one), bins=2), np.histogramdd(one, bins=2), exact=True)
    empty = np.zeros((0, 2))
    _same_dd(npgpu.histogramdd(npgpu.asarray(empty), bins=3), np.histogramdd(empty, bins=3), exact=True)
    v = rng.integers(0, 9, 40)  # one 1-D coordinate array
    _same_dd(npgpu.histogramdd(npgpu.asarray(v), bins=4), np.histogramdd(v, bins=4), exact=True)
    b = rng.random(30) < 0.5
    w = rng.integers(1, 5, 30)
    p = rng.random((30, 2))
    _same_dd(npgpu.histogramdd(npgpu.asarray(p), bins=2, weights=npgpu.asarray(b)),
             np.histogramdd(p, bins=2, weights=b), exact=True)  # bool weights
    h = npgpu.histogramdd(npgpu.asarray(p), bins=2, weights=npgpu.asarray(w))[0].get()
    assert h.sum() == w.sum()  # every point is within the data's extent


def test_histogramdd_errors():
    s = npgpu.asarray(np.arange(12.0).reshape(6, 2))
    with pytest.raises(ValueError, match="dimension of bins"):
        npgpu.histogramdd(s, bins=[2, 3, 4])
    with pytest.raises(ValueError, match="range argument"):
        npgpu.histogramdd(s, range=[(0, 1)])
    with pytest.raises(ValueError, match="positive"):
        npgpu.histogramdd(s, bins=0)
    with pytest.raises(TypeError, match="integer"):
        npgpu.histogramdd(s, bins=2.5)
    with pytest.raises(ValueError, match="monotonically"):
        npgpu.histogramdd(s, bins=[[0, 2, 1], 2])
    with pytest.raises(ValueError, match="scalar or 1d"):
        npgpu.histogramdd(s, bins=[[[0, 1]], 2])
    with pytest.raises(ValueError, match="max must be larger"):
        npgpu.histogramdd(s, range=[(1, 0), (0, 1)])
    with pytest.raises(ValueError, match="not finite"):
        npgpu.histogramdd(npgpu.asarray(np.array([[np.inf, 1.0]])))
    with pytest.raises(ValueError):
        npgpu.histogramdd(s, weights=npgpu.ones(5))
    with pytest.raises(TypeError):
        npgpu.histogramdd(s, weights=npgpu.ones(6, dtype=np.complex128))


@pytest.mark.parametrize("dt", [np.float64, np.int16])
def test_histogram2d(rng, dt):
    x = (rng.standard_normal(300) * 5).astype(dt)
    y = (rng.standard_normal(300) * 2).astype(dt)
    dx, dy = npgpu.asarray(x), npgpu.asarray(y)
    e = np.array([-6.0, -1, 0, 1, 6])
    for kw in ({}, {"bins": 4}, {"bins": [3, 5]}, {"bins": e}, {"bins": [4, e]}, {"range": [[-2, 2], [0, 3]]},
               {"bins": 3, "density": True}):
        got, want = npgpu.histogram2d(dx, dy, **kw), np.histogram2d(x, y, **kw)
        assert len(got) == 3 and all(isinstance(g, npgpu.Array) for g in got)
        _same_dd((got[0], got[1:]), (want[0], want[1:]))
    w = rng.random(300)
    got, want = npgpu.histogram2d(dx, dy, bins=3, weights=npgpu.asarray(w)), np.histogram2d(x, y, bins=3, weights=w)
    _same_dd((got[0], got[1:]), (want[0], want[1:]))
    got = npgpu.histogram2d(x, y, bins=3)
    assert isinstance(got[0], np.ndarray)
    with pytest.raises(ValueError, match="same length"):
        npgpu.histogram2d(dx, dy[:-1])
