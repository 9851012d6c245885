"""Set functions against NumPy on each device: unique with every return, equal_nan, the standard's
unique_* (NaNs distinct), isin, intersect1d, union1d, setdiff1d, bincount; the inverse rebuilds the input;
NumPy inputs give NumPy results."""
import numpy as np
import pytest

import npgpu


def _same(got, want):
    g = got.get() if isinstance(got, npgpu.Array) else got
    want = np.asarray(want)
    if want.dtype.kind in "iu" and g.dtype == np.int64:
        want = want.astype(np.int64)
    assert g.dtype == want.dtype and g.shape == want.shape, (g.dtype, g.shape, want.dtype, want.shape)
    np.testing.assert_array_equal(g, want)


def _values(rng, dt, shape):
    if np.dtype(dt).kind == "f":
        return rng.choice(np.array([np.nan, 1.0, -2.0, 0.0, -0.0, 1.0, 7.5, np.inf]), shape).astype(dt)
    if np.dtype(dt).kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    return rng.integers(-3, 4, shape).astype(dt) if np.dtype(dt).kind == "i" else rng.integers(0, 6, shape).astype(dt)


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("dt", [np.int32, np.uint8, np.float32, np.float64, np.bool_])
@pytest.mark.parametrize("shape", [(0,), (1,), (50,), (6, 9)], ids=str)
def test_unique_matches_numpy(rng, dt, shape):
    a = _values(rng, dt, shape)
    d = npgpu.asarray(a)
    for equal_nan in (True, False):
        got = npgpu.unique(d, return_index=True, return_inverse=True, return_counts=True, equal_nan=equal_nan)
        want = np.unique(a, return_index=True, return_inverse=True, return_counts=True, equal_nan=equal_nan)
        if not equal_nan and a.dtype.kind == "f":
            # distinct NaNs: any NaN slot rebuilds a NaN, and NumPy 2.4 does not give them in input order
            nan = np.isnan(a)
            got, want = list(got), list(want)
            got[2], want[2] = np.where(nan, -1, got[2].get()), np.where(nan, -1, want[2])
        for g, w in zip(got, want):
            _same(g, w)
        if a.size:
            np.testing.assert_array_equal(npgpu.take(got[0], got[2]).get(), a)  # the inverse rebuilds it
    _same(npgpu.unique(d), np.unique(a))
    nan = np.isnan(a) if a.dtype.kind == "f" else np.zeros(a.shape, bool)
    for name in ("unique_all", "unique_counts", "unique_inverse"):
        got, want = getattr(npgpu, name)(d), getattr(np, name)(a)
        for field, g, w in zip(got._fields, got, want):
            if field == "inverse_indices":  # NaNs are distinct: NaN slots may be taken in another order
                g, w = np.where(nan, -1, g.get()), np.where(nan, -1, w)
            _same(g, w)
    # NumPy 2.3+ gives unique_values in hash order (the standard leaves the order open); npgpu's are sorted
    _same(npgpu.unique_values(d), np.unique(a, equal_nan=False))


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("dt", [np.float16, np.complex64, np.complex128, np.int64])
def test_unique_runs_of_special_values(rng, dt):
    # -0.0 and +0.0 are one value (the first in sorted order stays), NaNs one value only with equal_nan, a
    # complex number with a NaN in either part is a NaN; long inputs too (the run starts come from the device).
    base = np.array([np.nan, 1.0, -2.0, 0.0, -0.0, 7.5, np.inf, -np.inf])
    if np.dtype(dt).kind == "c":
        vals = np.array([complex(a, b) for a in base for b in base[:4]])
    elif np.dtype(dt).kind == "f":
        vals = base
    else:
        vals = np.array([-(1 << 40), 0, 3, 1 << 40])
    for n in (17, 100003):
        a = rng.choice(vals, n).astype(dt)
        d = npgpu.asarray(a)
        for equal_nan in (True, False):
            got = npgpu.unique(d, return_index=True, return_counts=True, equal_nan=equal_nan)
            want = np.unique(a, return_index=True, return_counts=True, equal_nan=equal_nan)
            for g, w in zip(got, want):
                _same(g, w)
            np.testing.assert_array_equal(np.signbit(got[0].get().real), np.signbit(want[0].real))


@pytest.mark.usefixtures("array_device")
def test_membership_and_set_operations(rng):
    a = _values(rng, np.int64, (40,))
    b = _values(rng, np.int64, (7,))
    da, db = npgpu.asarray(a), npgpu.asarray(b)
    _same(npgpu.isin(da, db), np.isin(a, b))
    _same(npgpu.isin(da.reshape(5, 8), db, invert=True), np.isin(a.reshape(5, 8), b, invert=True))
    _same(npgpu.isin(da, npgpu.asarray(np.array([], dtype=np.int64))), np.isin(a, np.array([], dtype=np.int64)))
    f = np.array([1.5, np.nan, 2.0])
    _same(npgpu.isin(npgpu.asarray(f), npgpu.asarray(np.array([np.nan, 2.0]))), np.isin(f, [np.nan, 2.0]))
    _same(npgpu.isin(npgpu.asarray(np.array([1, 2, 3], dtype=np.int8)), npgpu.asarray(np.array([2.0, 3.5]))),
          np.isin(np.array([1, 2, 3], dtype=np.int8), np.array([2.0, 3.5])))
    _same(npgpu.intersect1d(da, db), np.intersect1d(a, b))
    for g, w in zip(npgpu.intersect1d(da, db, return_indices=True), np.intersect1d(a, b, return_indices=True)):
        _same(g, w)
    _same(npgpu.union1d(da, db), np.union1d(a, b))
    _same(npgpu.setdiff1d(da, db), np.setdiff1d(a, b))
    u = np.unique(a)
    _same(npgpu.setdiff1d(npgpu.asarray(u[::-1].copy()), db, assume_unique=True),
          np.setdiff1d(u[::-1], b, assume_unique=True))


def _keys_near(rng, dt, n, where):
    """n keys of dtype dt spanning 200 values at the type's bottom, at its top, or around zero."""
    if np.dtype(dt) == np.bool_:
        return rng.integers(0, 2, n).astype(bool)
    info = np.iinfo(dt)
    off = rng.integers(0, 200, n).astype(object)
    if where == "bottom":
        return np.array(off + int(info.min), dtype=dt)
    if where == "top":
        return np.array(int(info.max) - off, dtype=dt)
    return (off - (100 if info.min < 0 else 0)).astype(dt)


_INT_DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64, np.bool_]


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("dt", _INT_DTYPES)
@pytest.mark.parametrize("where", ["bottom", "top", "middle"])
def test_unique_by_counting_matches_numpy(rng, dt, where, monkeypatch):
    # keys spanning no more values than their number are counted, not sorted: at the ends of each type's range
    # (where lo + bin must not overflow), in the inputs a sort would see as hard (sorted, all equal)
    from npgpu import _sorting
    calls = []
    count = _sorting.count_keys
    monkeypatch.setattr(_sorting, "count_keys", lambda *a, **k: calls.append(a[2]) or count(*a, **k))
    a = _keys_near(rng, dt, 600, where)
    for keys in (a, a.reshape(20, 30), np.sort(a), np.full(50, a[0]), a[::-3]):
        got = npgpu.unique(npgpu.asarray(keys), return_index=True, return_inverse=True, return_counts=True)
        want = np.unique(keys, return_index=True, return_inverse=True, return_counts=True)
        for g, w in zip(got, want):
            _same(g, w)
        _same(npgpu.unique(npgpu.asarray(keys)), want[0])
        _same(npgpu.unique_counts(npgpu.asarray(keys)).counts, want[3])
    assert calls and all(b <= 600 for b in calls)


@pytest.mark.usefixtures("array_device")
def test_unique_counts_up_to_as_many_values_as_keys(rng, monkeypatch):
    from npgpu import _sorting
    calls = []
    count = _sorting.count_keys
    monkeypatch.setattr(_sorting, "count_keys", lambda *a, **k: calls.append(a[2]) or count(*a, **k))
    for span, counted in ((100, True), (101, False)):  # 100 keys
        keys = rng.integers(0, span, 100)
        keys[:2] = (0, span - 1)
        calls.clear()
        got = npgpu.unique(npgpu.asarray(keys), return_inverse=True)
        want = np.unique(keys, return_inverse=True)
        for g, w in zip(got, want):
            _same(g, w)
        assert calls == ([span] if counted else [])


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("kind", [None, "sort", "table"])
def test_isin_kinds_match_numpy(rng, kind):
    # every method on integer pairs of one and of mixed widths (promoted: an int64 test value past int8's range
    # is no member of an int8 array), elements outside the test values' range, bools
    cases = [(rng.integers(-50, 50, (6, 7)), rng.integers(-20, 30, 12)),
             (rng.integers(-128, 128, 40).astype(np.int8), np.array([5, 300, -7, 1000, 127])),
             (rng.integers(0, 2, 9).astype(bool), np.array([True])),
             (np.array([3, 9], dtype=np.int16), np.array([], dtype=np.int16))]
    if kind != "table":  # test values spanning 2^40 and more: too wide a table (NumPy's too)
        cases += [(rng.integers(-128, 128, 40).astype(np.int8), np.array([5, 300, -7, 2**40, 127])),
                  (rng.integers(0, 2**63, 30, dtype=np.uint64), rng.integers(0, 2**63, 4, dtype=np.uint64))]
    for a, b in cases:
        for invert in (False, True):
            want = np.isin(a, b, invert=invert, kind=kind)
            _same(npgpu.isin(npgpu.asarray(a), npgpu.asarray(b), invert=invert, kind=kind), want)
    with pytest.raises(ValueError, match="Invalid kind"):
        npgpu.isin(npgpu.asarray(np.arange(3)), [1], kind="hash")
    if kind == "table":
        with pytest.raises(ValueError, match="only supported for boolean or integer"):
            npgpu.isin(npgpu.asarray(np.arange(3.0)), [1.0], kind=kind)


@pytest.mark.usefixtures("array_device")
def test_count_and_lookup_keys(array_device):
    from npgpu import _sorting
    dev = array_device
    x = npgpu.asarray(np.array([7, 2, 9, 2, 4, 7, 7], dtype=np.int16), device=dev)
    span = _sorting.key_range(x)
    _same(span, np.array([2, 9], dtype=np.int16))
    counts, first = _sorting.count_keys(x, span, 8, want_first=True)
    _same(counts, [2, 0, 1, 0, 0, 3, 0, 1])
    _same(first, [1, -1, 4, -1, -1, 0, -1, 2])
    counts, first = _sorting.count_keys(x, span, 3)  # keys past the bins are not counted
    assert first is None
    _same(counts, [2, 0, 1])
    table = npgpu.asarray(np.arange(100, 106), device=dev)
    _same(_sorting.lookup_keys(x.reshape(7, 1), span, table), np.array([[105, 100, -1, 100, 102, 105, 105]]).T)
    _same(_sorting.count_keys(x, span, 0)[0], np.zeros(0, np.int64))
    with pytest.raises(TypeError, match="integer or bool"):
        _sorting.key_range(npgpu.asarray(np.array([1.5]), device=dev))
    with pytest.raises(ValueError, match="empty"):
        _sorting.key_range(npgpu.asarray(np.array([], dtype=np.int8), device=dev))
    with pytest.raises(ValueError, match="range must be"):
        _sorting.count_keys(x, npgpu.asarray(np.array([2, 9]), device=dev), 8)  # int64 range for int16 keys
    with pytest.raises(ValueError, match="bins"):
        _sorting.count_keys(x, span, -1)
    with pytest.raises(ValueError, match="table"):
        _sorting.lookup_keys(x, span, npgpu.asarray(np.arange(4.0), device=dev))


@pytest.mark.gpu
@pytest.mark.parametrize("bins", [2, 2048, 2049, 1 << 20])
def test_unique_by_counting_on_the_gpu_with_heavy_repeats(rng, bins):
    # the per-block and the global counts, with one value in most keys (the atomics' worst case) and sorted runs
    n = 1 << 22
    keys = rng.integers(0, bins, n).astype(np.int32)
    keys[rng.random(n) < 0.9] = bins // 2
    keys[:2] = (0, bins - 1)
    for k in (keys, np.sort(keys)):
        got = npgpu.unique(npgpu.asarray(k, device="cuda"), return_index=True, return_inverse=True,
                           return_counts=True)
        for g, w in zip(got, np.unique(k, return_index=True, return_inverse=True, return_counts=True)):
            _same(g, w)


@pytest.mark.usefixtures("array_device")
def test_bincount(rng):
    x = rng.integers(0, 9, 100)
    d = npgpu.asarray(x)
    _same(npgpu.bincount(d), np.bincount(x))
    _same(npgpu.bincount(d, minlength=15), np.bincount(x, minlength=15))
    w = rng.standard_normal(100)
    got = npgpu.bincount(d, weights=npgpu.asarray(w)).get()
    np.testing.assert_allclose(got, np.bincount(x, weights=w), rtol=1e-12, atol=1e-12)
    _same(npgpu.bincount(npgpu.asarray(np.array([], dtype=np.int64)), minlength=3), np.bincount([], minlength=3))
    with pytest.raises(ValueError, match="negative"):
        npgpu.bincount(npgpu.asarray(np.array([1, -1])))
    with pytest.raises(TypeError):
        npgpu.bincount(npgpu.asarray(np.array([1.5])))


def test_numpy_inputs(backend, rng):
    a = _values(rng, np.float64, (30,))
    got = npgpu.unique(a, return_counts=True)
    assert isinstance(got[0], np.ndarray)
    for g, w in zip(got, np.unique(a, return_counts=True)):
        _same(g, w)
    _same(npgpu.isin(a, [1.0, 7.5]), np.isin(a, [1.0, 7.5]))
    _same(npgpu.unique(a.reshape(5, 6), axis=1), np.unique(a.reshape(5, 6), axis=1))


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("shape, axis", [((40, 3), 0), ((40, 3), -2), ((3, 12), 1), ((4, 5, 6), 1),
                                         ((6, 2, 3), 2), ((3, 0), 0), ((0, 3), 0), ((7,), 0)])
@pytest.mark.parametrize("dtype", [np.int16, np.float64, np.complex64, np.bool_])
def test_unique_slices_along_an_axis(rng, shape, axis, dtype):
    # few distinct values, so slices repeat; float slices with NaNs stay distinct, as NumPy's
    a = rng.integers(0, 2, shape).astype(dtype)
    if np.dtype(dtype).kind == "f" and a.size:
        a.reshape(-1)[::7] = np.nan
    want = np.unique(a, axis=axis, return_index=True, return_inverse=True, return_counts=True)
    got = npgpu.unique(npgpu.asarray(a), axis=axis, return_index=True, return_inverse=True, return_counts=True)
    for g, w in zip(got, want):
        g = g.get()
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, w.shape, g.dtype, w.dtype)
        np.testing.assert_array_equal(g, w)
    with pytest.raises(np.exceptions.AxisError):
        npgpu.unique(npgpu.asarray(a), axis=len(shape))


@pytest.mark.gpu
@pytest.mark.slow
def test_unique_past_2_31_elements():
    n = 2**31 + 1
    x = npgpu.full(n, 4, dtype=np.uint8, device="cuda")
    x[n - 1] = 250
    x[0] = 1
    values, counts = npgpu.unique(x, return_counts=True)
    np.testing.assert_array_equal(values.get(), [1, 4, 250])
    np.testing.assert_array_equal(counts.get(), [1, n - 2, 1])


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("dt1,dt2", [(np.int32, np.int32), (np.uint8, np.int16), (np.float32, np.float64),
                                     (np.float64, np.float64), (np.bool_, np.bool_), (np.int64, np.float32)])
@pytest.mark.parametrize("n1,n2", [(0, 0), (0, 5), (1, 1), (40, 23), (7, 0)])
def test_setxor1d_matches_numpy(rng, dt1, dt2, n1, n2):
    a, b = _values(rng, dt1, (n1,)), _values(rng, dt2, (n2,))  # repeats (and NaNs for floats) in each
    want = np.setxor1d(a, b)
    _same(npgpu.setxor1d(npgpu.asarray(a), npgpu.asarray(b)), want)
    _same(npgpu.setxor1d(npgpu.asarray(a), b), want)  # ar2 converted onto ar1's device
    _same(npgpu.setxor1d(a, b), want)  # NumPy in, NumPy out
    assert isinstance(npgpu.setxor1d(a, b), np.ndarray)
    ua, ub = np.unique(a), np.unique(b)
    _same(npgpu.setxor1d(npgpu.asarray(ua), npgpu.asarray(ub), assume_unique=True),
          np.setxor1d(ua, ub, assume_unique=True))


@pytest.mark.usefixtures("array_device")
def test_setxor1d_shapes_repeats_and_errors():
    a = np.array([[3, 1, 1], [7, 7, 2]])
    b = np.array([[2], [5], [5]])
    _same(npgpu.setxor1d(npgpu.asarray(a), npgpu.asarray(b)), np.setxor1d(a, b))  # flattened
    # with assume_unique a value repeated in one input pairs with itself, as NumPy's
    _same(npgpu.setxor1d(npgpu.asarray(a), npgpu.asarray(b), assume_unique=True), np.setxor1d(a, b, assume_unique=True))
    _same(npgpu.setxor1d(npgpu.asarray(np.array(4)), npgpu.asarray(np.array(5))), np.setxor1d(4, 5))  # 0-d
    c = np.array([1 + 2j, 1 - 2j, 3, 1 + 2j])
    _same(npgpu.setxor1d(npgpu.asarray(c), np.array([3.0])), np.setxor1d(c, np.array([3.0])))
    with pytest.raises(TypeError):
        npgpu.setxor1d(npgpu.asarray(np.array([1.0])), np.array(["a"]))
