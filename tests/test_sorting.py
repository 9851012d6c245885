"""sort and argsort against NumPy's stable sort on each device and for NumPy inputs on each backend: every
dtype, every axis, ties (stability through argsort), NaNs, infinities, -0.0, all-equal and already-sorted
rows, 0-size and 1-element arrays, descending order (NaNs last), complex order, the library's own
sort_rows on the host backend, errors."""
import numpy as np
import pytest
from numpy.exceptions import AxisError

import npgpu
from npgpu import _sorting

DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32",
          "float64", "complex64", "complex128"]


def _data(rng, shape, dtype):
    """Values with many ties, and for floats NaNs (of both signs), infinities and both zeros."""
    dtype = np.dtype(dtype)
    n = int(np.prod(shape))
    if dtype.kind == "b":
        return rng.integers(0, 2, n).astype(bool).reshape(shape)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        vals = np.array([info.min, info.max, 0, 1, 2, 3, info.max - 1], dtype=dtype)
        return rng.choice(vals, n).reshape(shape)
    special = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.5, -2.0, 1.5, 7.0, -2.0, 1e-3])
    if dtype.kind == "f":
        return rng.choice(special, n).astype(dtype).reshape(shape)
    # every class of NumPy's complex order: R + Rj, R + nanj, nan + Rj, nan + nanj (set part by part:
    # re + 1j * nan would be nan + nanj)
    out = np.empty(n, dtype)
    out.real = rng.choice(special, n)
    out.imag = rng.choice(np.array([0.0, 1.0, -1.0, np.nan, 1.0]), n)
    return out.reshape(shape)


def _numpy_descending(a, axis, arg):
    """The reference for descending=True: NumPy's stable argsort of the order-reversing key."""
    if axis is None:
        a, axis = a.reshape(-1), 0
    key = -a if a.dtype.kind in "fc" else ~a
    idx = np.argsort(key, axis=axis, kind="stable")
    return idx if arg else np.take_along_axis(a, idx, axis=axis)


def _same(got, want):
    got = got.get() if isinstance(got, npgpu.Array) else got
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
    np.testing.assert_array_equal(got, want)  # NaNs compare equal; -0.0 == 0.0


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape, axis", [((1000,), -1), ((7, 33), -1), ((7, 33), 0), ((3, 4, 50), 1), ((5, 6), None),
                                         ((0,), -1), ((1,), 0), ((4, 0, 3), 1)], ids=str)
def test_sort_and_argsort_match_numpy(rng, dtype, shape, axis):
    a = _data(rng, shape, dtype)
    d = npgpu.asarray(a)
    _same(npgpu.sort(d, axis=axis), np.sort(a, axis=axis, kind="stable"))
    _same(npgpu.argsort(d, axis=axis), np.argsort(a, axis=axis, kind="stable"))
    _same(npgpu.sort(d, axis=axis, descending=True), _numpy_descending(a, axis, False))
    _same(npgpu.argsort(d, axis=axis, descending=True, stable=True), _numpy_descending(a, axis, True))


def _check_rows(a, d):
    for axis in (-1, 0):
        _same(npgpu.sort(d, axis=axis), np.sort(a, axis=axis, kind="stable"))
        _same(npgpu.argsort(d, axis=axis), np.argsort(a, axis=axis, kind="stable"))
        _same(npgpu.sort(d, axis=axis, descending=True), _numpy_descending(a, axis, False))
        _same(npgpu.argsort(d, axis=axis, descending=True), _numpy_descending(a, axis, True))
    want = np.sort(a, kind="stable")
    got = npgpu.sort(d).get()
    numbers = ~np.isnan(want)  # -0.0 keeps its place among the zeros (NaNs: see test_many_nans...)
    np.testing.assert_array_equal(np.signbit(got[numbers]), np.signbit(want[numbers]))
    x = npgpu.asarray(a.copy(), device=d.device)
    x.sort()
    _same(x, want)


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("dtype", ["float32", "int32", "uint32"])
@pytest.mark.parametrize("shape", [(3, 1500), (2, 4096), (3, 4097), (1, 5000), (5, 200), (70, 64), (9, 63)], ids=str)
def test_rows_of_four_byte_keys(rng, dtype, shape):
    # Ties keep their order, NaNs go last, -0.0 keeps its sign, in place and not, both directions, both axes.
    # On the GPU rows of 64 to 4096 keys sort in one block each, at every tile size (sorting.cu, block_sort).
    a = _data(rng, shape, dtype)
    _check_rows(a, npgpu.asarray(a))


@pytest.mark.heavy
@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["float32", "int32", "uint32"])
@pytest.mark.parametrize("shape", [(512, 8192), (2048, 2048), (65536, 64), (1 << 18, 16), (1, 1 << 22)], ids=str)
def test_long_rows_of_four_byte_keys(rng, dtype, shape):
    # Each route of 2^22 keys: rows longer than 4096 as one 8-byte word (row, key, position) per key (float
    # sorts, argsorts) or CUB's segmented sort (integer sorts, rows shorter than 64), rows of 64 to 4096 in
    # blocks, one row with positions as words (floats) or CUB's key/position pairs (sorting.cu).
    a = _data(rng, shape, dtype)
    _check_rows(a, npgpu.asarray(a, device="cuda"))


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("descending", [False, True])
def test_many_nans_of_both_signs_go_last_with_their_bits(rng, dtype, descending):
    # Large enough for the grid-stride loops; the NaNs' bits (sign, payload) come through unchanged.
    n = 300_001
    a = rng.standard_normal(n).astype(dtype)
    pos = rng.choice(n, 1500, replace=False)
    a[pos[:1000]] = -np.abs(np.array(np.nan, dtype))
    a[pos[1000:]] = np.abs(np.array(np.nan, dtype))
    want = _numpy_descending(a, -1, True) if descending else np.sort(a, kind="stable")
    want = np.take(a, want) if descending else want
    for in_place in (False, True):
        x = npgpu.asarray(a.copy())
        got = (x.sort(descending=descending) or x) if in_place else npgpu.sort(x, descending=descending)
        g = got.get()
        np.testing.assert_array_equal(g[:n - 1500], want[:n - 1500])
        assert np.isnan(g[n - 1500:]).all()
        bits = g.view(f"u{g.itemsize}")[n - 1500:]
        assert sorted(bits) == sorted(a.view(f"u{g.itemsize}")[pos])
    idx = npgpu.argsort(npgpu.asarray(a), descending=descending).get()
    ref = _numpy_descending(a, -1, True) if descending else np.argsort(a, kind="stable")
    np.testing.assert_array_equal(idx, ref)


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex128", "bool"])
def test_numpy_inputs_give_numpy_results(backend, rng, dtype):
    a = _data(rng, (9, 40), dtype)
    got = npgpu.sort(a)
    assert isinstance(got, np.ndarray)
    _same(got, np.sort(a, kind="stable"))
    _same(npgpu.argsort(a, axis=0), np.argsort(a, axis=0, kind="stable"))
    _same(npgpu.argsort(a, axis=None, descending=True), _numpy_descending(a, None, True))


def test_zero_dimensional_axes_as_numpy(backend):
    # argsort treats a 0-d array as 1-d (axis 0 / -1 allowed), sort refuses any axis but None
    x = np.array(2.5)
    for inp in (x, npgpu.asarray(x)):
        for ax in (0, -1):
            got = npgpu.argsort(inp, axis=ax)
            np.testing.assert_array_equal(got.get() if isinstance(got, npgpu.Array) else got, [0])
        for ax in (1, -2):
            with pytest.raises(AxisError):
                npgpu.argsort(inp, axis=ax)
        for ax in (0, -1, 1):
            with pytest.raises(AxisError):
                npgpu.sort(inp, axis=ax)
        got = npgpu.sort(inp, axis=None)
        np.testing.assert_array_equal(got.get() if isinstance(got, npgpu.Array) else got, [2.5])


@pytest.mark.usefixtures("array_device")
def test_special_orders():
    f = np.array([np.nan, 1.0, -np.inf, -0.0, 0.0, np.inf, -np.nan, 0.0, -1.0], dtype=np.float32)
    d = npgpu.asarray(f)
    got = npgpu.sort(d).get()
    assert np.isnan(got[-2:]).all() and list(got[:-2]) == [-np.inf, -1.0, 0.0, 0.0, 0.0, 1.0, np.inf]
    # -0.0 and 0.0 tie, so a stable argsort keeps their order
    assert list(npgpu.argsort(d).get()[:-2]) == [2, 8, 3, 4, 7, 1, 5]
    down = npgpu.sort(d, descending=True).get()
    assert list(down[:-2]) == [np.inf, 1.0, 0.0, 0.0, 0.0, -1.0, -np.inf] and np.isnan(down[-2:]).all()
    c = np.array([complex(np.nan, 0), complex(1, np.nan), complex(1, 2), complex(1, 1), complex(0, 5),
                  complex(np.nan, np.nan), complex(1, -1)])
    _same(npgpu.sort(npgpu.asarray(c)), np.sort(c))
    ties = np.array([3, 1, 3, 2, 1, 3], dtype=np.int16)
    _same(npgpu.argsort(npgpu.asarray(ties)), np.array([1, 4, 3, 0, 2, 5]))
    _same(npgpu.argsort(npgpu.asarray(ties), descending=True), np.array([0, 2, 5, 3, 1, 4]))
    for already in (np.arange(300.0), np.arange(300.0)[::-1].copy(), np.full(300, 2.5)):
        _same(npgpu.argsort(npgpu.asarray(already)), np.argsort(already, kind="stable"))


@pytest.mark.usefixtures("array_device")
def test_views_methods_and_numpy_functions(rng):
    a = _data(rng, (12, 30), "float64")
    d = npgpu.asarray(a)
    _same(npgpu.sort(d[::2, 3:].T, axis=0), np.sort(a[::2, 3:].T, axis=0))
    _same(np.sort(d, axis=0), np.sort(a, axis=0))  # __array_function__
    _same(np.argsort(d), np.argsort(a, kind="stable"))
    e = d.copy()
    e.sort(axis=0)
    _same(e, np.sort(a, axis=0))
    v = d.copy()
    v[:, ::3].sort()
    want = a.copy()
    want[:, ::3].sort()
    _same(v, want)
    _same(d.argsort(axis=None), np.argsort(a, axis=None, kind="stable"))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("shape", [(5, 64), (3, 3001)], ids=["short-rows", "radix-rows"])
def test_library_sort_rows_on_the_host(rng, dtype, descending, shape):
    # The C++ host backend's sort, which C++ programs and the host backend's larger sorts use, against the
    # same references: std::stable_sort for short rows and complex data, a radix sort of keys otherwise.
    a = _data(rng, shape, dtype)
    keys = npgpu.asarray(a, device="cpu")
    values = npgpu.empty(a.shape, dtype=a.dtype, device="cpu")
    indices = npgpu.empty(a.shape, dtype=np.int64, device="cpu")
    _sorting.sort_rows(keys, values, indices, descending)
    if descending:
        _same(values, _numpy_descending(a, -1, False))
        _same(indices, _numpy_descending(a, -1, True))
    else:
        _same(values, np.sort(a, kind="stable"))
        _same(indices, np.argsort(a, kind="stable"))
    inplace = npgpu.asarray(a.copy(), device="cpu")
    _sorting.sort_rows(inplace, inplace, None, descending)
    _same(inplace, _numpy_descending(a, -1, False) if descending else np.sort(a, kind="stable"))
    inplace = npgpu.asarray(a.copy(), device="cpu")  # values and indices, the values in place
    _sorting.sort_rows(inplace, inplace, indices, descending)
    _same(indices, _numpy_descending(a, -1, True) if descending else np.argsort(a, kind="stable"))
    _same(inplace, np.take_along_axis(a, indices.get(), axis=-1))


@pytest.mark.usefixtures("array_device")
def test_errors(rng):
    d = npgpu.asarray(_data(rng, (3, 4), "float32"))
    with pytest.raises(AxisError):
        npgpu.sort(d, axis=2)
    with pytest.raises(AxisError):
        npgpu.sort(npgpu.asarray(np.float32(1.0)))
    _same(npgpu.argsort(npgpu.asarray(np.float32(1.0))), np.argsort(np.float32(1.0)))  # NumPy flattens
    with pytest.raises(ValueError, match="kind"):
        npgpu.sort(d, kind="bogo")
    with pytest.raises(ValueError, match="kind"):
        npgpu.sort(d, kind="")
    for kind in ("q", "QUICK", "m", "heap", "stab"):  # NumPy reads the first letter only
        _same(npgpu.sort(d, kind=kind), np.sort(d.get(), kind="stable"))
    with pytest.raises(ValueError, match="order"):
        npgpu.sort(d, order="x")
    with pytest.raises(ValueError, match="indices must be int64"):
        _sorting.sort_rows(d, None, npgpu.empty((3, 4), dtype=np.int32, device=d.device))
    with pytest.raises(ValueError, match="values, indices or both"):
        _sorting.sort_rows(d)
    with pytest.raises(ValueError, match="C-contiguous"):
        _sorting.sort_rows(d.T, npgpu.empty((4, 3), dtype=np.float32, device=d.device))
    _same(npgpu.sort(npgpu.asarray(np.float64(2.0)), axis=None), np.array([2.0]))


@pytest.mark.heavy
@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.int32, np.uint32, np.int64, np.uint64])
def test_long_integer_sorts_of_narrow_ranges(rng, dtype):
    # From 2^23 keys the GPU sorts only the bits in which the keys differ: ranges of every width and sign, all
    # keys equal, a range whose top bits differ only in one key, ascending and descending, with stable positions.
    n = (1 << 23) + 5
    info = np.iinfo(dtype)
    cases = [(0, 1 << 20), (info.max - (1 << 12), info.max), (0, 1)]
    if info.min < 0:
        cases += [(-(1 << 20), 0), (-(1 << 15), 1 << 15), (info.min, info.min + 300)]
    for lo, hi in cases:
        h = rng.integers(lo, hi, n, dtype=dtype, endpoint=True)
        for outlier in (None, 0):
            if outlier is not None:
                h[rng.integers(n)] = info.max if lo < 0 else info.min
            d = npgpu.asarray(h, device="cuda")
            np.testing.assert_array_equal(npgpu.sort(d).get(), np.sort(h))
            np.testing.assert_array_equal(npgpu.sort(d, descending=True).get(), np.sort(h)[::-1])
            np.testing.assert_array_equal(npgpu.argsort(d).get(), np.argsort(h, kind="stable"))
            np.testing.assert_array_equal(npgpu.argsort(d, descending=True).get(), _numpy_descending(h, -1, True))


@pytest.mark.heavy
@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.int64, np.uint64])
def test_long_wide_integer_sorts_finish_runs_of_equal_top_bits(rng, dtype):
    # Long rows of 8-byte keys that differ in 48 bits or more sort the top 32 of those bits, then finish each
    # run of keys equal there in place; a run longer than the finishing kernel takes (33 keys, placed where
    # the planning sample does not look) sends the row through the full sort. Repeated keys check stability.
    n = (1 << 23) + 5
    info = np.iinfo(dtype)
    full = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    wide48 = rng.integers(0, 1 << 48, n, dtype=dtype)
    step = n // 4096
    cases = []
    for base in (full, wide48):
        h = base.copy()
        h[rng.integers(0, n, 2000)] = h[rng.integers(0, n, 2000)]  # equal keys, to check stability
        cases.append(h)
        for run in (32, 33):  # one run at the finishing kernel's limit, one past it
            h = base.copy()
            where = rng.choice(np.flatnonzero(np.arange(n) % step != 0), run, replace=False)
            top = h[where[0]] >> 16 if base is wide48 else h[where[0]] >> 32
            low_bits = 16 if base is wide48 else 32
            h[where] = (top << low_bits) | rng.integers(0, 1 << low_bits, run).astype(dtype)
            h[where[:3]] = h[where[3]]
            cases.append(h)
    for h in cases:
        d = npgpu.asarray(h, device="cuda")
        np.testing.assert_array_equal(npgpu.sort(d).get(), np.sort(h))
        np.testing.assert_array_equal(npgpu.sort(d, descending=True).get(), np.sort(h)[::-1])
        np.testing.assert_array_equal(npgpu.argsort(d).get(), np.argsort(h, kind="stable"))
        np.testing.assert_array_equal(npgpu.argsort(d, descending=True).get(), _numpy_descending(h, -1, True))


@pytest.mark.gpu
@pytest.mark.slow
def test_sort_past_2_31_elements():
    n = 2**31 + 1
    x = npgpu.empty(n, dtype=np.uint8)
    x[:] = 7
    x[n - 1] = 1
    x[0] = 200
    s = npgpu.sort(x)
    assert int(s[0]) == 1 and int(s[1]) == 7 and int(s[n - 1]) == 200 and int(s[n - 2]) == 7


@pytest.mark.usefixtures("array_device")
def test_partition_argpartition_lexsort(rng):
    a = _data(rng, (6, 40), "float32")
    d = npgpu.asarray(a)
    for kth in (0, 17, -1, [3, 30]):
        p = npgpu.partition(d, kth, axis=1).get()
        ref = np.sort(a, axis=1)
        for k in np.atleast_1d(kth):
            np.testing.assert_array_equal(p[:, k], ref[:, k])  # the kth element is in place
            assert np.all((p[:, :k % 40] <= p[:, k:k % 40 + 1]) | np.isnan(p[:, k:k % 40 + 1]))
        ip = npgpu.argpartition(d, kth, axis=1).get()
        np.testing.assert_array_equal(np.take_along_axis(a, ip, axis=1)[:, np.atleast_1d(kth)],
                                      ref[:, np.atleast_1d(kth)])
    with pytest.raises(ValueError, match="out of bounds"):
        npgpu.partition(d, 40, axis=1)
    k1 = rng.integers(0, 3, 50)
    k2 = rng.integers(0, 4, 50)
    k3 = rng.standard_normal(50)
    want = np.lexsort((k3, k1, k2))
    _same(npgpu.lexsort([npgpu.asarray(k3), npgpu.asarray(k1), npgpu.asarray(k2)]), want)
    _same(npgpu.lexsort(npgpu.asarray(np.stack([k1, k2]))), np.lexsort(np.stack([k1, k2])))
    with pytest.raises(ValueError, match="same shape"):
        npgpu.lexsort([npgpu.asarray(k1), npgpu.asarray(k2[:10])])


@pytest.mark.heavy
@pytest.mark.gpu
@pytest.mark.parametrize("dt, n", [(np.float32, 1 << 24), (np.int64, 1 << 23), (np.uint8, 1 << 26)])
def test_searchsorted_many_queries_into_a_large_array(dt, n):
    # From 2^22 queries into 64 MiB the GPU sorts the queries before searching (sorting_search.cu); each
    # answer must still land in its query's place, with ties, NaNs, -0.0 and values outside the array.
    rng = np.random.default_rng(11)
    m = (1 << 22) + 7
    if dt == np.float32:
        a = np.linspace(-6, 6, n, dtype=dt)  # sorted, with ties where float32 rounds neighbours together
        a[-3:] = np.nan
        q = rng.standard_normal(m).astype(dt) * 3
        q[:4] = [np.nan, -0.0, np.inf, -np.inf]
    else:
        info = np.iinfo(dt)
        a = np.sort(rng.integers(info.min, info.max, n, dtype=dt, endpoint=True))
        q = rng.integers(info.min, info.max, m, dtype=dt, endpoint=True)
    q[4:1000] = a[rng.integers(0, n, 996)]  # ties
    d, dq = npgpu.asarray(a, device="cuda"), npgpu.asarray(q, device="cuda")
    for side in ("left", "right"):
        got = npgpu.searchsorted(d, dq, side=side)
        assert isinstance(got, npgpu.Array) and got.dtype == np.int64
        np.testing.assert_array_equal(got.get(), np.searchsorted(a, q, side=side))
