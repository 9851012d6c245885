"""Indexing with data against NumPy on each device: integer-array and boolean-mask indexing, get and set,
mixed with slices, integers, None and Ellipsis; take (modes), take_along_axis, put; nonzero, flatnonzero,
argwhere, where(condition), searchsorted (sides, sorter, NaNs); out-of-range indices raise IndexError with
NumPy's message and leave arrays unchanged."""
import warnings

import numpy as np
import pytest
from numpy.exceptions import AxisError

import npgpu

pytestmark = pytest.mark.usefixtures("array_device")


def _same(got, want):
    assert isinstance(got, npgpu.Array), type(got)
    g = got.get()
    assert g.dtype == np.asarray(want).dtype and g.shape == np.shape(want), (g.dtype, g.shape, np.shape(want))
    np.testing.assert_array_equal(g, want)


@pytest.fixture
def data(random_array):
    return random_array((6, 7, 5), np.float32)


KEYS = [
    lambda: np.array([0, -1, 3, 3]),
    lambda: [1, 0],
    lambda: (np.array([[0, 5], [2, 2]]), 2),
    lambda: (slice(1, 4), np.array([6, 0, -7])),
    lambda: (Ellipsis, np.array([4, 0])),
    lambda: (np.array([0, 1]), slice(None), np.array([1, 2])),      # separated: index dims first
    lambda: (np.array([[0], [1]]), np.array([1, 2, 3])),             # broadcast index arrays
    lambda: (None, np.array([2, 3]), 1),
    lambda: (2, np.array([1, 6]), slice(None, None, -2)),
    lambda: np.array([], dtype=np.int64),
]


@pytest.mark.parametrize("make_key", KEYS)
def test_integer_array_indexing(data, make_key):
    key = make_key()
    d = npgpu.asarray(data)
    dkey = tuple(npgpu.asarray(k) if isinstance(k, np.ndarray) else k for k in key) if isinstance(key, tuple) \
        else (npgpu.asarray(key) if isinstance(key, np.ndarray) else key)
    _same(d[key], data[key])
    _same(d[dkey], data[key])
    e, want = d.copy(), data.copy()
    want[key] = 9.5
    e[dkey] = 9.5
    _same(e, want)
    vals = np.arange(np.prod(data[key].shape), dtype=np.float32).reshape(data[key].shape)
    e, want = d.copy(), data.copy()
    want[key] = vals
    e[key] = npgpu.asarray(vals)
    # A position indexed twice gets one of its values (NumPy: the last; a GPU scatter: any one, as CuPy's)
    where = np.arange(data.size).reshape(data.shape)[key].ravel()
    twice = np.isin(np.arange(data.size), where[np.unique(where, return_counts=True)[1][
        np.searchsorted(np.unique(where), where)] > 1]).reshape(data.shape)
    got = e.get()
    np.testing.assert_array_equal(got[~twice], want[~twice])
    for p in np.flatnonzero(twice):
        assert got.ravel()[p] in vals.ravel()[where == p]


def test_boolean_masks(data):
    d = npgpu.asarray(data)
    m = data > 0.5
    _same(d[npgpu.asarray(m)], data[m])
    _same(d[m[:, :, 0]], data[m[:, :, 0]])
    _same(d[:, m[0, :, 0]], data[:, m[0, :, 0]])
    _same(d[m[:, 0, 0], 1:3], data[m[:, 0, 0], 1:3])
    _same(d[True], data[True])
    _same(d[False], data[False])
    e, want = d.copy(), data.copy()
    e[npgpu.asarray(m)] = 0
    want[m] = 0
    _same(e, want)
    e, want = d.copy(), data.copy()
    e[m] = npgpu.asarray(-data[m])
    want[m] = -data[m]
    _same(e, want)
    e, want = d.copy(), data.copy()
    e[m[:, 0, 0]] = 3.0
    want[m[:, 0, 0]] = 3.0
    _same(e, want)
    with pytest.raises(IndexError, match="boolean index did not match"):
        d[np.ones(5, dtype=bool)]
    t = npgpu.asarray(data[:, ::2, 1])  # a non-contiguous base
    tv = data[:, ::2, 1].copy()
    mm = tv > 0.3
    t2 = npgpu.asarray(data.copy())[:, ::2, 1]
    t2[mm] = 1.0
    tv[mm] = 1.0
    _same(t2, tv)
    _same(t[mm], data[:, ::2, 1][mm])


def test_index_errors_leave_the_array_unchanged(data):
    d = npgpu.asarray(data)
    with pytest.raises(IndexError, match="index 6 is out of bounds for axis 0 with size 6"):
        d[np.array([0, 6])]
    with pytest.raises(IndexError, match="out of bounds"):
        d[:, np.array([-8])]
    e = d.copy()
    with pytest.raises(IndexError, match="out of bounds"):
        e[np.array([1, 9])] = 0.0
    _same(e, data)
    with pytest.raises(IndexError, match="integer"):
        d[np.array([0.5])]
    with pytest.raises(IndexError, match="shape mismatch"):
        d[np.array([0, 1]), np.array([0, 1, 2])]
    with pytest.raises(IndexError, match="too many indices"):
        d[0, 0, 0, np.array([0])]


@pytest.mark.usefixtures("array_device")
def test_index_checks_when_nothing_is_selected():
    # NumPy checks index arrays even where another axis leaves nothing to select or assign, and not where
    # several index arrays broadcast to nothing.
    z = npgpu.zeros((0, 3))
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 1 with size 3"):
        z[:, np.array([5])]
    assert z[:, np.array([2, -3])].shape == (0, 2)
    w = npgpu.zeros((3, 0))
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis 0 with size 3"):
        w[np.array([7])] = 1.0
    assert npgpu.zeros((0, 0))[[0], []].shape == (0,)
    assert npgpu.zeros((2, 3))[np.array([5]), np.array([], np.int64)].shape == (0,)


@pytest.mark.parametrize("dt", [np.bool_, np.int8, np.uint16, np.int64, np.float16, np.complex128])
def test_take_and_put(random_array, dt):
    a = random_array((4, 9), dt)
    d = npgpu.asarray(a)
    idx = np.array([[8, -1], [0, 4]])
    _same(npgpu.take(d, idx, axis=1), np.take(a, idx, axis=1))
    _same(npgpu.take(d, idx), np.take(a, idx))
    _same(npgpu.take(d, np.array([12, -40]), mode="wrap"), np.take(a, np.array([12, -40]), mode="wrap"))
    _same(npgpu.take(d, np.array([12, -40]), axis=1, mode="clip"), np.take(a, np.array([12, -40]), axis=1, mode="clip"))
    _same(npgpu.take(d, 3), np.take(a, 3))
    # NumPy in, one element taken: NumPy's scalar (a 0-d Array for an Array)
    got, want = npgpu.take(a, 3), np.take(a, 3)
    assert type(got) is type(want) and got == want
    assert isinstance(npgpu.take(a, np.array(3)), type(np.take(a, np.array(3))))
    with pytest.raises(IndexError):
        npgpu.take(d, np.array([9]), axis=1)
    e, want = d.copy(), a.copy()
    vals = random_array(3, dt)
    npgpu.put(e, np.array([0, 35, -2]), npgpu.asarray(vals))
    np.put(want, np.array([0, 35, -2]), vals)
    _same(e, want)
    npgpu.put(e, [1, 2, 3, 4, 5], vals[:2])  # values repeat
    np.put(want, [1, 2, 3, 4, 5], vals[:2])
    _same(e, want)
    with pytest.raises(IndexError):
        npgpu.put(e, [36], vals[:1])
    _same(e, want)


def test_take_along_axis(random_array):
    a = random_array((5, 8), np.float64)
    d = npgpu.asarray(a)
    order = np.argsort(a, axis=1)
    _same(npgpu.take_along_axis(d, npgpu.asarray(order), axis=1), np.take_along_axis(a, order, axis=1))
    col = np.argsort(a, axis=0)[:2]
    _same(npgpu.take_along_axis(d, col, axis=0), np.take_along_axis(a, col, axis=0))
    _same(npgpu.take_along_axis(d, np.array([[-1]]), axis=1), np.take_along_axis(a, np.array([[-1]]), axis=1))
    _same(npgpu.take_along_axis(d, np.array([3, 39]), axis=None), np.take_along_axis(a, np.array([3, 39]), axis=None))
    with pytest.raises(IndexError):
        npgpu.take_along_axis(d, np.array([[8]]), axis=1)
    with pytest.raises(ValueError):
        npgpu.take_along_axis(d, np.array([1]), axis=1)
    with pytest.raises(AxisError):
        npgpu.take_along_axis(d, np.array([[1]]), axis=2)


@pytest.mark.parametrize("shape", [(0,), (17,), (4, 6), (2, 3, 5)], ids=str)
@pytest.mark.parametrize("dt", [np.bool_, np.int32, np.float32, np.complex64])
def test_nonzero_family(random_array, shape, dt):
    a = random_array(shape, dt)
    if a.size:
        a.reshape(-1)[::3] = 0
    d = npgpu.asarray(a)
    got = npgpu.nonzero(d)
    want = np.nonzero(a)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        _same(g, w.astype(np.int64))
    for g, w in zip(npgpu.where(d), np.where(a)):
        _same(g, w.astype(np.int64))
    _same(npgpu.flatnonzero(d), np.flatnonzero(a).astype(np.int64))
    _same(npgpu.argwhere(d), np.argwhere(a).astype(np.int64))
    for g, w in zip(np.nonzero(d), want):  # __array_function__
        _same(g, w.astype(np.int64))
    with pytest.raises(ValueError, match="either both or neither"):
        npgpu.where(d, 1)


def test_nonzero_0d_raises():
    with pytest.raises(ValueError, match="0d"):
        npgpu.nonzero(npgpu.asarray(np.float32(1)))


@pytest.mark.parametrize("dt", [np.int16, np.uint64, np.float32, np.float64])
def test_searchsorted(random_array, dt):
    a = np.sort(random_array(200, dt))
    q = random_array((3, 40), dt)
    q[0, :5] = a[:5]  # ties
    d = npgpu.asarray(a)
    for side in ("left", "right"):
        _same(npgpu.searchsorted(d, npgpu.asarray(q), side=side), np.searchsorted(a, q, side=side).astype(np.int64))
    perm = np.random.default_rng(3).permutation(200)
    shuffled = a[perm]
    sorter = np.argsort(shuffled, kind="stable")
    _same(npgpu.searchsorted(npgpu.asarray(shuffled), npgpu.asarray(q), sorter=npgpu.asarray(sorter)),
          np.searchsorted(shuffled, q, sorter=sorter).astype(np.int64))
    with pytest.raises(ValueError, match="side"):
        npgpu.searchsorted(d, d, side="middle")


def test_searchsorted_nans_and_mixed_dtypes():
    a = np.array([-np.inf, -1.0, 0.0, 2.5, np.inf, np.nan, np.nan])
    q = np.array([np.nan, np.inf, -0.0, 3, -5])
    for side in ("left", "right"):
        _same(npgpu.searchsorted(npgpu.asarray(a), npgpu.asarray(q), side=side),
              np.searchsorted(a, q, side=side).astype(np.int64))
    i = np.array([1, 3, 5], dtype=np.int8)
    _same(npgpu.searchsorted(npgpu.asarray(i), npgpu.asarray(np.array([2.5, 300.0]))),
          np.searchsorted(i, np.array([2.5, 300.0])).astype(np.int64))


def test_numpy_inputs_give_numpy_results(backend):
    a = np.arange(10.0)
    assert isinstance(npgpu.take(a, [1, 2]), np.ndarray)
    np.testing.assert_array_equal(npgpu.searchsorted(a, [2.5, 9.0]), np.searchsorted(a, [2.5, 9.0]))
    assert npgpu.searchsorted(a, 3.5) == 4
    np.testing.assert_array_equal(npgpu.flatnonzero(a > 4), np.flatnonzero(a > 4))
    b = a.copy()
    npgpu.put(b, [0, 1], [-1.0, -2.0])
    assert b[0] == -1.0 and b[1] == -2.0


def test_compress_and_extract(random_array):
    a = random_array((4, 6), np.float32)
    d = npgpu.asarray(a)
    c = np.array([True, False, True, True])
    _same(npgpu.compress(c, d, axis=0), np.compress(c, a, axis=0))
    _same(npgpu.compress(c[:3], d, axis=1), np.compress(c[:3], a, axis=1))
    _same(npgpu.compress(np.array([0, 1, 1], dtype=bool), d), np.compress(np.array([0, 1, 1], dtype=bool), a))
    with pytest.raises(IndexError):
        npgpu.compress(np.ones(7, dtype=bool), d, axis=1)
    cond = a > 0.5
    _same(npgpu.extract(npgpu.asarray(cond), d), np.extract(cond, a))
    _same(npgpu.extract(cond.astype(np.int8), d), np.extract(cond.astype(np.int8), a))


def test_put_along_axis(random_array):
    a = random_array((5, 8), np.float64)
    order = np.argsort(a, axis=1)[:, :3]
    for values in (-1.0, np.arange(15.0).reshape(5, 3), np.arange(3.0)):
        d, want = npgpu.asarray(a.copy()), a.copy()
        npgpu.put_along_axis(d, npgpu.asarray(order), values, axis=1)
        np.put_along_axis(want, order, values, axis=1)
        _same(d, want)
    row = np.array([[4, 0, 1, 2, 3, 4, 0, -1]])
    d, want = npgpu.asarray(a.copy()), a.copy()
    npgpu.put_along_axis(d, row, 9.0, axis=0)
    np.put_along_axis(want, row, 9.0, axis=0)
    _same(d, want)
    t = npgpu.asarray(a.copy()).T  # a non-contiguous destination
    want = a.copy().T
    npgpu.put_along_axis(t, np.array([[1, 2, 3, 4, 0]]), 7.0, axis=0)
    np.put_along_axis(want, np.array([[1, 2, 3, 4, 0]]), 7.0, axis=0)
    _same(t, want)
    with pytest.raises(IndexError):
        npgpu.put_along_axis(npgpu.asarray(a.copy()), np.array([[8]]), 1.0, axis=1)
    h = a.copy()
    npgpu.put_along_axis(h, np.array([[0]]), 5.0, axis=1)  # NumPy arrays are changed in place
    assert (h[:, 0] == 5.0).all()


def test_choose(random_array):
    rng = np.random.default_rng(5)
    a = rng.integers(0, 3, (4, 6))
    choices = [random_array((4, 6), np.float32), random_array((6,), np.float32), np.full((4, 1), -1.0, np.float32)]
    dch = [npgpu.asarray(c) for c in choices]
    _same(npgpu.choose(npgpu.asarray(a), dch), np.choose(a, choices))
    _same(npgpu.choose(npgpu.asarray(a + 4), dch, mode="wrap"), np.choose(a + 4, choices, mode="wrap"))
    _same(npgpu.choose(npgpu.asarray(a - 2), dch, mode="clip"), np.choose(a - 2, choices, mode="clip"))
    with pytest.raises(ValueError, match="invalid entry"):
        npgpu.choose(npgpu.asarray(a + 1), dch)
    # NumPy's cast check of the index array: floats and uint64 refused (TypeError), bool taken
    for bad in (a.astype(np.float64), a.astype(np.uint64)):
        with pytest.raises(TypeError, match="safe"):
            npgpu.choose(npgpu.asarray(bad), dch)
    _same(npgpu.choose(npgpu.asarray(a % 2 == 1), dch), np.choose(a % 2 == 1, choices))
    ints = [np.arange(6, dtype=np.int16), np.full(6, 100, dtype=np.int64)]
    _same(npgpu.choose(npgpu.asarray(a[0] % 2), [npgpu.asarray(c) for c in ints]), np.choose(a[0] % 2, ints))


# ------------------------------------------------------------------------------------------ add.at (ufunc.at)

AT_DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16",
             "float32", "float64", "complex64", "complex128"]


def _at_close(got, want):
    g = got.get()
    assert g.dtype == want.dtype and g.shape == want.shape
    if want.dtype.kind in "fc":  # atomics add in any order: the last bits may differ from NumPy's order
        tol = {2: 1e-2, 4: 1e-5, 8: 1e-12}[np.finfo(want.dtype).bits // 8]  # by the component's precision
        np.testing.assert_allclose(g, want, rtol=tol, atol=tol * np.abs(want).max())
    else:
        np.testing.assert_array_equal(g, want)


@pytest.mark.parametrize("dtype", AT_DTYPES)
def test_add_at_heavy_repetition_like_numpy(random_array, rng, dtype):
    # 20000 additions into 37 slots, some indices negative: integer sums wrap exactly as NumPy's
    a = random_array((37,), dtype)
    idx = rng.integers(-37, 37, 20000)
    b = random_array((20000,), dtype)
    want = a.copy()
    np.add.at(want, idx, b)
    x = npgpu.asarray(a.copy())  # (an Array on the host device shares its NumPy input's memory)
    npgpu.add.at(x, npgpu.asarray(idx), npgpu.asarray(b))
    _at_close(x, want)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8"])
def test_add_at_one_byte_edges_of_short_arrays_and_views(array_device, rng, dtype):
    # On the GPU, 1-byte elements whose aligned 4-byte word reaches outside the destination (its first and last
    # bytes, arrays shorter than a word, views starting inside one) are summed apart and added afterwards; the
    # bytes beside the view must stay as they were.
    top = 2 if dtype == "bool" else 256
    for n in range(1, 10):
        for start in (0, 1, 3):
            base = rng.integers(0, top, n + start + 2).astype(dtype)
            idx = rng.integers(-n, n, 4000)
            vals = rng.integers(0, top, 4000).astype(dtype)
            want = base.copy()
            np.add.at(want[start:start + n], idx, vals)
            x = npgpu.asarray(base.copy())
            npgpu.add.at(x[start:start + n], npgpu.asarray(idx), npgpu.asarray(vals))
            np.testing.assert_array_equal(x.get(), want, err_msg=f"n={n} start={start}")


@pytest.mark.parametrize("dtype", ["float32", pytest.param("int32", marks=pytest.mark.heavy),
                                   pytest.param("int64", marks=pytest.mark.heavy),
                                   pytest.param("complex64", marks=pytest.mark.heavy)])
def test_add_at_into_a_destination_larger_than_the_l2_cache(array_device, rng, random_array, dtype):
    # Past 32 MB of destination and 2^20 indices the GPU groups the indices by the chunk of the destination
    # they hit before its atomics: repeated and negative indices, both ends, a partial last chunk, values per
    # index and one broadcast value; a bad index anywhere raises before anything is written.
    n = (32 << 20) // np.dtype(dtype).itemsize + 4099
    m = (1 << 20) + 77
    idx = rng.integers(-n, n, m)
    idx[:3000] = n - 1
    idx[3000:5000] = -n
    a = random_array(n, dtype)
    d_idx = npgpu.asarray(idx)
    for values in (random_array(m, dtype), 3):
        want = a.copy()
        np.add.at(want, idx, values)
        x = npgpu.asarray(a.copy())
        npgpu.add.at(x, d_idx, values if np.ndim(values) == 0 else npgpu.asarray(values))
        _at_close(x, want)
    idx[m // 2] = n
    x = npgpu.asarray(a.copy())
    with pytest.raises(IndexError, match=f"index {n} is out of bounds"):
        npgpu.add.at(x, npgpu.asarray(idx), 1)
    np.testing.assert_array_equal(x.get(), a)


@pytest.mark.parametrize("dtype", ["int32", "float32", "complex128", "uint8"])
@pytest.mark.parametrize("key", [lambda: np.array([1, 1, 0, -1]),
                                 lambda: (slice(None), np.array([0, 0, 3])),
                                 lambda: (np.array([[0, 2], [2, 2]]), 1),
                                 lambda: (slice(1, None, 2), slice(None, None, -1)),
                                 lambda: np.array([True, False, True, True])])
def test_add_at_keys_and_broadcast_values(random_array, dtype, key):
    a = random_array((4, 5), dtype)
    want = a.copy()
    sel = want[key()].shape
    for b in (random_array(sel, dtype), random_array(sel[-1:], dtype), 3):
        x = npgpu.asarray(a.copy())
        npgpu.add.at(x, key(), b if np.ndim(b) == 0 else npgpu.asarray(b))
        want = a.copy()
        np.add.at(want, key(), b)
        _at_close(x, want)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32, np.int64, np.bool_])
def test_add_at_fractional_floats_into_integers_truncate_each_time(array_device, rng, dtype):
    # NumPy casts back to a's integer type after every addition: add.at(int8 [0], [0, 0, 0], 0.7) is 0
    a = rng.integers(0, 2, 5).astype(dtype)
    idx = np.array([0, 0, 0, 3, 1, 3, 3, 3, 0])
    for b in (np.full(idx.size, 0.7), rng.uniform(-1.5, 1.5, idx.size), np.full(idx.size, 0.4 + 0.3j)):
        for name in ("add", "subtract"):
            if dtype == np.bool_ and name == "subtract":
                continue
            want = a.copy()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
                getattr(np, name).at(want, idx, b)
                x = npgpu.asarray(a, device=array_device)
                getattr(npgpu, name).at(x, npgpu.asarray(idx, device=array_device),
                                        npgpu.asarray(b, device=array_device))
            assert x.dtype == want.dtype
            np.testing.assert_array_equal(x.get(), want, err_msg=f"{name}.at {b.dtype}")
    # a non-contiguous view of an integer array, with a tuple key
    base = np.arange(24, dtype=dtype if dtype != np.bool_ else np.int16).reshape(4, 6)
    want = base.copy()
    np.add.at(want[:, ::2], (np.array([0, 0, 2]), np.array([1, 1, 2])), 0.6)
    d = npgpu.asarray(base, device=array_device)
    npgpu.add.at(d[:, ::2], (npgpu.asarray([0, 0, 2], device=array_device), [1, 1, 2]), 0.6)
    np.testing.assert_array_equal(d.get(), want)


def test_add_at_scalar_and_subtract(rng):
    a = rng.integers(-5, 5, 1000).astype(np.int64)
    idx = rng.integers(0, 1000, 50000)
    x = npgpu.asarray(a.copy())
    npgpu.add.at(x, idx, 1)  # NumPy indices and a Python scalar
    npgpu.subtract.at(x, idx[:777], np.int64(3))
    want = a.copy()
    np.add.at(want, idx, 1)
    np.subtract.at(want, idx[:777], np.int64(3))
    np.testing.assert_array_equal(x.get(), want)


def test_add_at_mixed_dtypes_and_views(rng):
    # a float64 value into float32 a; a non-contiguous view of a larger array (only the view changes)
    a = rng.standard_normal((6, 8)).astype(np.float32)
    idx = np.array([0, 2, 2, 3])
    b = rng.standard_normal(4)
    x = npgpu.asarray(a.copy())
    npgpu.add.at(x[:, ::2], (1, idx), npgpu.asarray(b))
    want = a.copy()
    np.add.at(want[:, ::2], (1, idx), b)
    np.testing.assert_allclose(x.get(), want, rtol=1e-6)
    # a NumPy array is updated in place by NumPy itself
    h = a.copy()
    npgpu.add.at(h, idx, 1.0)
    np.add.at(want := a.copy(), idx, 1.0)
    np.testing.assert_array_equal(h, want)


def test_add_at_errors_leave_the_array_unchanged(random_array):
    a = random_array((5,), np.float64)
    x = npgpu.asarray(a.copy())
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 0 with size 5"):
        npgpu.add.at(x, npgpu.asarray(np.array([0, 1, 5])), 1.0)
    with pytest.raises(IndexError):
        npgpu.add.at(x, [-6], 1.0)
    np.testing.assert_array_equal(x.get(), a)
    with pytest.raises(ValueError):
        npgpu.add.at(x, [0, 1], npgpu.asarray(np.ones(3)))  # values do not broadcast
    with pytest.raises(TypeError, match="boolean subtract"):
        npgpu.subtract.at(npgpu.asarray(np.array([True, False])), [0], True)
    with pytest.raises(IndexError):
        npgpu.add.at(x, npgpu.asarray(np.array([0.5])), 1.0)
    ro = npgpu.broadcast_to(x, (2, 5))
    with pytest.raises(ValueError, match="read-only"):
        npgpu.add.at(ro, [0], 1.0)
    with pytest.raises(TypeError, match="npgpu.Array or a numpy.ndarray"):
        npgpu.add.at([1.0, 2.0], [0], 1.0)
    np.testing.assert_array_equal(x.get(), a)


@pytest.mark.gpu
@pytest.mark.slow
def test_masks_gathers_and_scatter_add_past_2_31_elements():
    n = 2**31 + 1
    x = npgpu.full(n, 3, dtype=np.uint8, device="cuda")
    x[n - 1] = 9
    x[5] = 8
    picked = x[x > 5]  # compaction over more than 2^31 flags
    assert picked.shape == (2,) and int(picked[0]) == 8 and int(picked[1]) == 9
    idx = npgpu.asarray(np.array([n - 1, 0, 5, -1]), device="cuda")
    np.testing.assert_array_equal(x[idx].get(), [9, 3, 8, 9])  # a gather reaching past 2^31
    npgpu.add.at(x, idx, np.uint8(1))
    assert int(x[n - 1]) == 11 and int(x[0]) == 4 and int(x[5]) == 9
    assert int(npgpu.flatnonzero(x == 11)[0]) == n - 1
