"""npgpu.random (Philox4x32-10 Generator) and npgpu.monte_carlo_pi.

- Exactness: Random123's known-answer vectors; every value against a NumPy re-implementation of the
  documented element -> word mapping (uniform and integers bit for bit, normals to float64 rounding);
  monte_carlo_pi's count against an exact integer re-implementation of its point test.
- Counter semantics: prefixes, advancing, concatenation.
- Statistics at fixed seeds with fixed thresholds: moments, chi-square uniformity, Kolmogorov-Smirnov
  normality (by hand; SciPy's tests too when installed), unbiased integers, Monte Carlo error within 5 sigma.
- Bad input: ValueError / TypeError.
- GPU (marked): bit equality between the host backend, the staged NumPy path and device arrays, for every
  distribution and dtype; monte_carlo_pi counts equal between backends; 64-bit counts past 2^32.

NumPy-output tests run on both backends through the `backend` fixture.
"""
import math
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import npgpu
from npgpu import _random

from _threads import thread_count

MASK32 = np.uint64(0xFFFFFFFF)


# ------------------------------------------------------------------------------------ NumPy reference

def philox_np(c0, c1, c2, c3, k0, k1):
    """Philox4x32-10 over arrays (uint64 arrays holding 32-bit words)."""
    c0, c1, c2, c3 = (np.asarray(x, dtype=np.uint64) for x in (c0, c1, c2, c3))
    k0 = np.uint64(k0)
    k1 = np.uint64(k1)
    m0, m1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
    w0, w1 = np.uint64(0x9E3779B9), np.uint64(0xBB67AE85)
    for _ in range(10):
        p0 = m0 * c0
        p1 = m1 * c2
        c0, c1, c2, c3 = (p1 >> np.uint64(32)) ^ c1 ^ k0, p1 & MASK32, (p0 >> np.uint64(32)) ^ c3 ^ k1, p0 & MASK32
        k0 = (k0 + w0) & MASK32
        k1 = (k1 + w1) & MASK32
    return c0, c1, c2, c3


def stream_words(seed, block0, nwords, domain=0):
    """Words 4*block0 .. 4*block0 + nwords - 1 of a seed's stream (uint64 array of 32-bit values)."""
    nb = (nwords + 3) // 4
    j = np.arange(block0, block0 + nb, dtype=np.uint64)
    out = philox_np(j & MASK32, j >> np.uint64(32), np.zeros(nb, np.uint64), np.full(nb, domain, np.uint64),
                    seed & 0xFFFFFFFF, seed >> 32)
    return np.stack(out, axis=1).reshape(-1)[:nwords]


def stream_u64(seed, block0, n):
    w = stream_words(seed, block0, 2 * n)
    return w[0::2] | (w[1::2] << np.uint64(32))


# --------------------------------------------------------------------------------------------- Philox

KAT = [  # Random123 tests/kat_vectors, philox4x32 10
    ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    ((0xFFFFFFFF,) * 4, (0xFFFFFFFF,) * 2, (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
    ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0),
     (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)),
]


@pytest.mark.parametrize("ctr,key,expected", KAT)
def test_philox_known_answers(ctr, key, expected):
    assert _random.philox4x32_10(ctr, key) == expected
    got = philox_np(*[[c] for c in ctr], *key)
    assert tuple(int(x[0]) for x in got) == expected


def test_numpy_reference_matches_library(rng):
    for _ in range(20):
        ctr = [int(x) for x in rng.integers(0, 1 << 32, 4)]
        key = [int(x) for x in rng.integers(0, 1 << 32, 2)]
        got = philox_np(*[[c] for c in ctr], *key)
        assert tuple(int(x[0]) for x in got) == _random.philox4x32_10(ctr, key)


# ---------------------------------------------------------------------------------- exact values

SEED = 0x0123456789ABCDEF


@pytest.mark.parametrize("counter", [0, 7, (1 << 32) - 2, (1 << 64) - 3])
@pytest.mark.parametrize("n", [1, 5, 1003])
def test_uniform_float32_exact(backend, counter, n):
    got = npgpu.random.Generator(SEED, counter).random(n, dtype=np.float32)
    w = stream_words(SEED, counter, n)
    want = ((w >> np.uint64(8)).astype(np.float64) * 2.0 ** -24).astype(np.float32)
    assert got.dtype == np.float32 and np.array_equal(got, want)


@pytest.mark.parametrize("n", [1, 2, 3, 1001])
def test_uniform_float64_exact(backend, n):
    got = npgpu.random.Generator(SEED, 11).random(n)
    want = (stream_u64(SEED, 11, n) >> np.uint64(11)).astype(np.float64) * 2.0 ** -53
    assert got.dtype == np.float64 and np.array_equal(got, want)
    # A power-of-two width makes u * width exact, so fma(u, width, low) is NumPy's u * width + low.
    got = npgpu.random.Generator(SEED, 11).uniform(-2.0, 6.0, n)
    assert np.array_equal(got, want * 8.0 - 2.0)
    got32 = npgpu.random.Generator(SEED, 11).uniform(-2.0, 6.0, n, dtype=np.float32)
    w = stream_words(SEED, 11, n)
    u = (w >> np.uint64(8)).astype(np.float64) * 2.0 ** -24
    assert np.array_equal(got32, (u * 8.0 - 2.0).astype(np.float32))


def _lemire32_first(words, r):
    """Lemire's method on the first word only; None where that word is rejected."""
    m = words * np.uint64(r)
    t = ((1 << 32) - r) % r
    ok = (m & MASK32) >= np.uint64(t)
    return (m >> np.uint64(32)).astype(np.int64), ok


@pytest.mark.parametrize("dtype,low,high", [(np.int32, -7, 10), (np.uint8, 3, 250), (np.int16, -30000, 30001),
                                            (np.uint32, 0, 3 << 30), (np.int8, -128, 128)])
def test_integers_exact_small_dtypes(backend, dtype, low, high):
    n = 4099
    got = npgpu.random.Generator(SEED, 5).integers(low, high, n, dtype=dtype)
    assert got.dtype == np.dtype(dtype)
    off, ok = _lemire32_first(stream_words(SEED, 5, n), high - low)
    assert np.array_equal(got.astype(np.int64)[ok], (off + low)[ok])
    assert ok.mean() > 0.5  # most values come from their first word
    assert got.min() >= low and got.max() < high


@pytest.mark.parametrize("dtype,low,high", [(np.int64, -(1 << 40), 1 << 41), (np.uint64, 5, (1 << 64) - 7),
                                            (np.int64, -(1 << 63), 1 << 63)])
def test_integers_exact_64bit(backend, dtype, low, high):
    n = 257
    got = npgpu.random.Generator(SEED, 9).integers(low, high, n, dtype=dtype)
    r = high - low
    t = ((1 << 64) - r) % r
    for x, g in zip(stream_u64(SEED, 9, n).tolist(), got.tolist()):
        if r == 1 << 64:
            assert g == low + x
        elif (x * r) % (1 << 64) >= t:
            assert g == low + ((x * r) >> 64)


def _box_muller_reference(seed, counter, n, dtype):
    """(z, r): the normals from their definition in float64, and each value's radius."""
    if np.dtype(dtype) == np.float32:
        w = stream_words(seed, counter, n + (n & 1)).astype(np.float64)
        u1, u2 = (w[0::2] + 0.5) * 2.0 ** -32, w[1::2] * 2.0 ** -32
    else:
        x = stream_u64(seed, counter, n + (n & 1))
        u1 = ((x[0::2] >> np.uint64(11)).astype(np.float64) + 0.5) * 2.0 ** -53
        u2 = (x[1::2] >> np.uint64(11)).astype(np.float64) * 2.0 ** -53
    r = np.sqrt(-2.0 * np.log(u1))
    z = np.empty(2 * len(u1))
    z[0::2] = r * np.cos(2 * np.pi * u2)
    z[1::2] = r * np.sin(2 * np.pi * u2)
    return z[:n], np.repeat(r, 2)[:n]


# Float32 normals of stream version 2 are the ziggurat's (test_normal_float32_ziggurat).
@pytest.mark.parametrize("dtype,version", [(np.float32, 1), (np.float64, 1), (np.float64, 2)])
def test_normal_matches_box_muller(backend, dtype, version):
    n = 20001
    got = npgpu.random.Generator(SEED, 3, version=version).standard_normal(n, dtype=dtype)
    assert got.dtype == np.dtype(dtype)
    want, r = _box_muller_reference(SEED, 3, n, dtype)
    if dtype == np.float64:
        np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-14)
        g2 = npgpu.random.Generator(SEED, 3, version=version).normal(1.5, 0.25, n, dtype=dtype)
        np.testing.assert_allclose(g2, 1.5 + 0.25 * want, rtol=1e-13)
    else:
        # Computed in float32 from u1 and u2 rounded to float32: the radius within a few float32 roundings,
        # the angle within 2 pi 2^-25 (u2's rounding), so each value within 3e-7 (|z| + r).
        err = np.abs(got.astype(np.float64) - want)
        assert np.all(err <= 3e-7 * (np.abs(want) + r)), float((err / (np.abs(want) + r)).max())
        g2 = npgpu.random.Generator(SEED, 3, version=1).normal(1.5, 0.25, n, dtype=dtype)
        np.testing.assert_allclose(g2, (1.5 + 0.25 * got.astype(np.float64)).astype(dtype), rtol=2 ** -23)


ZIGGURAT_R = 3.6541528853610088  # the right edge of the 256-layer ziggurat's widest rectangle


def _ziggurat_edges():
    """x_0 .. x_255 of the 256-layer ziggurat from Marsaglia and Tsang's recursion (x_255 = r, equal layer
    areas v), and the width of layer 0's rectangle (base strip plus tail: v / f(r)), in float64."""
    f = lambda x: math.exp(-0.5 * x * x)  # noqa: E731
    r = ZIGGURAT_R
    v = r * f(r) + math.sqrt(math.pi / 2) * math.erfc(r / math.sqrt(2))
    x = [0.0] * 256
    x[255] = r
    for i in range(254, 0, -1):
        x[i] = math.sqrt(-2 * math.log(v / x[i + 1] + f(x[i + 1])))
    return np.array(x), v / f(r)


def test_normal_float32_ziggurat(backend):
    """Stream version 2's float32 normals against the ziggurat's definition: word w gives layer i = w & 255,
    sign bit 8 and magnitude m = w >> 9; when m 2^-23 width_i lies below the next layer's edge x_{i-1} (x_0 = 0
    excluded: layer 1 always tests; layer 0's core ends at r), the value is +-m 2^-23 width_i to float32
    rounding of the width and the product. Layer 0's other words go to the tail: beyond r, with their sign."""
    n = 200003
    got = npgpu.random.Generator(SEED, 5).standard_normal(n, dtype=np.float32)
    loc = npgpu.random.Generator(SEED, 5).normal(-2.0, 3.0, n, dtype=np.float32)
    w = stream_words(SEED, 5, n)
    i = (w & np.uint64(0xFF)).astype(np.int64)
    sign = np.where((w >> np.uint64(8)) & np.uint64(1), -1.0, 1.0)
    m = (w >> np.uint64(9)).astype(np.float64) * 2.0 ** -23
    x, width0 = _ziggurat_edges()
    width = np.where(i == 0, width0, x[i])
    inner = np.where(i == 0, ZIGGURAT_R, x[np.maximum(i - 1, 0)])
    inner[i == 1] = 0.0
    z = sign * m * width
    core = m * width < inner * (1 - 1e-6)  # clear of the boundary, where float32 tables may round either way
    assert 0.98 < core.mean() < 0.99  # 98.5% expected
    np.testing.assert_allclose(got[core], z[core], rtol=2.5 * 2.0 ** -24, atol=0)
    tail = (i == 0) & (m * width > inner * (1 + 1e-6))
    assert tail.any() and np.all(np.signbit(got[tail]) == (sign[tail] < 0))
    assert np.all(np.abs(got[tail]) > ZIGGURAT_R * (1 - 1e-7))
    assert np.isfinite(got).all() and np.abs(got).max() < 7
    np.testing.assert_allclose(loc, (-2.0 + 3.0 * got.astype(np.float64)).astype(np.float32), rtol=2 ** -23)


def test_normal_float32_ziggurat_histogram(backend):
    """The wedges and the tail: a chi-square test over 160 bins of [-4, 4] plus the two tails, and the mass
    beyond r (every value there comes from the tail algorithm), at a fixed seed."""
    n = 1 << 22
    z = npgpu.random.Generator(2024).standard_normal(n, dtype=np.float32).astype(np.float64)
    edges = np.concatenate([[-np.inf], np.linspace(-4, 4, 161), [np.inf]])
    cdf = np.array([0.5 * math.erfc(-e / math.sqrt(2)) if np.isfinite(e) else float(e > 0) for e in edges])
    expected = np.diff(cdf) * n
    counts = np.histogram(z, edges)[0]
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    dof = len(counts) - 1
    assert chi2 < dof + 5 * math.sqrt(2 * dof), chi2  # about p = 1e-5
    p_tail = math.erfc(ZIGGURAT_R / math.sqrt(2))
    assert abs((np.abs(z) > ZIGGURAT_R).mean() - p_tail) < 5 * math.sqrt(p_tail / n)


def test_stream_versions(backend):
    """Version 2 changed float32 normals only; versions are kept by pickling and spawning, and checked."""
    v1, v2 = npgpu.random.Generator(SEED, version=1), npgpu.random.Generator(SEED)
    assert v2.version == npgpu.random.STREAM_VERSION == 2 and v1.version == 1
    assert repr(v1) == f"npgpu.random.Generator(seed={SEED}, counter=0, version=1)"
    assert np.array_equal(v1.standard_normal(99), v2.standard_normal(99))
    assert np.array_equal(v1.random(99, dtype=np.float32), v2.random(99, dtype=np.float32))
    assert np.array_equal(v1.integers(0, 1000, 99), v2.integers(0, 1000, 99))
    a, b = v1.standard_normal(1000, dtype=np.float32), v2.standard_normal(1000, dtype=np.float32)
    assert not np.array_equal(a, b) and v1.counter == v2.counter
    import pickle
    g = pickle.loads(pickle.dumps(v1))
    assert g.version == 1 and g.counter == v1.counter
    assert np.array_equal(g.standard_normal(9, dtype=np.float32), v1.standard_normal(9, dtype=np.float32))
    old = npgpu.random.Generator.__new__(npgpu.random.Generator)
    old.__setstate__({"seed": 5, "counter": 2, "spawned": 0})  # pickled before streams had versions
    assert old.version == 1
    assert all(k.version == 1 for k in v1.spawn(2)) and all(k.version == 2 for k in v2.spawn(2))
    assert npgpu.random.default_rng(3, version=1).version == 1
    rs = npgpu.random.RandomState(4)
    assert rs.get_state()["state"] == {"seed": 4, "counter": 0, "version": 2}
    rs.set_state({"bit_generator": "Philox4x32-10", "state": {"seed": 4, "counter": 1}})  # saved before versions
    assert rs.get_state()["state"] == {"seed": 4, "counter": 1, "version": 1}
    assert np.array_equal(npgpu.random.default_rng(3, version=1).standard_normal(5, dtype=np.float32),
                          npgpu.random.Generator(3, version=1).standard_normal(5, dtype=np.float32))
    for bad in (0, 3, -1):
        with pytest.raises(ValueError, match="version must be 1 to 2"):
            npgpu.random.Generator(1, version=bad)
    for bad in (True, 1.0, "2"):
        with pytest.raises(TypeError):
            npgpu.random.Generator(1, version=bad)
    with pytest.raises(ValueError, match="unknown stream version 3"):
        _random.fill(_random.NORMAL, 1, 0, 0.0, 1.0, 0, 0, np.empty(4, np.float32), None, 3)


def _pi_hits_reference(n, seed):
    """monte_carlo_pi's count from its definition: point i has 40-bit coordinates, the top 8 bits from call
    i // 8 (word (i % 8) // 2, its low 16-bit half for even i, high half for odd i; x from the half's low
    byte, y from its high byte), the low 32 from words 0, 1 of the point's fine block; inside when
    X^2 + Y^2 <= 2^82 for X = 2^41 x. Cells wholly inside or outside are decided in exact integers here
    (independently of the library's fast tests); the others from their fine words."""
    calls = (n + 7) // 8
    j = np.arange(calls, dtype=np.uint64)
    w = np.stack(philox_np(j & MASK32, j >> np.uint64(32), np.zeros(calls, np.uint64),
                           np.full(calls, 0x70690000, np.uint64), seed & 0xFFFFFFFF, seed >> 32),
                 axis=1).reshape(-1).astype(np.int64)
    h = np.stack([w & 0xFFFF, w >> 16], axis=1).reshape(-1)[:n]  # point 2m: low half of word m
    kx, ky = h & 0xFF, h >> 8
    inside = (kx + 1) ** 2 + (ky + 1) ** 2 <= 1 << 16  # every point of the cell is inside
    outside = kx ** 2 + ky ** 2 >= 1 << 16              # every point of the cell is outside
    hits = int(inside.sum())
    straddling = np.flatnonzero(~inside & ~outside)
    for i in straddling.tolist():
        f = philox_np([i & 0xFFFFFFFF], [i >> 32], [0], [0x70690001], seed & 0xFFFFFFFF, seed >> 32)
        X = 2 * ((int(kx[i]) << 32) | int(f[0][0])) + 1
        Y = 2 * ((int(ky[i]) << 32) | int(f[1][0])) + 1
        hits += X * X + Y * Y <= 1 << 82
    return hits, len(straddling)


@pytest.mark.parametrize("n", [1, 2, 3, 7, 8, 9, 15, 2000, 400003])
def test_pi_hits_match_definition(n):
    seed = 20240917
    want, straddling = _pi_hits_reference(n, seed)
    assert _random._pi_hits(n, seed, device=-1) == want
    if n > 100000:
        assert straddling > 1000  # the exact path was exercised (about 1 point in 128)


@pytest.mark.parametrize("total", [9, 2000, 400003])
def test_pi_hit_ranges_add_up_to_the_whole(total):
    # Ranges of the sequence (starting anywhere, inside a Philox call or not) count exactly their own points:
    # each equals the definition's prefix difference, and a split of [0, total) adds up to the single call.
    seed = 20240917
    ref = {}

    def prefix(k):
        if k not in ref:
            ref[k] = _pi_hits_reference(k, seed)[0] if k else 0
        return ref[k]

    rng = np.random.default_rng(total)
    for _ in range(3):
        cuts = sorted({0, total, *map(int, rng.integers(1, total, 4))})
        parts = [_random._pi_hits(b - a, seed, device=-1, first=a) for a, b in zip(cuts, cuts[1:])]
        assert sum(parts) == prefix(total)
        for (a, b), got in zip(zip(cuts, cuts[1:]), parts):
            assert got == prefix(b) - prefix(a), (a, b)


def test_ctrl_c_stops_a_long_host_pi(sigint_after):
    """A SIGINT during monte_carlo_pi of 2^40 points on the host backend (hours there) raises KeyboardInterrupt
    within 0.2 s: the count runs in chunks without the GIL, the signal handlers polled between them. A long
    count in chunks equals the single range."""
    import time
    n = 3 * _random._HOST_PI_CHUNK + 12345
    assert _random._pi_hits(n, 5, device=-1) == sum(
        _random._pi_hits(k, 5, device=-1, first=f) for f, k in ((0, 1000), (1000, n - 1000)))
    with npgpu.use_backend("cpu"):
        with sigint_after(0.3) as fired, pytest.raises(KeyboardInterrupt):
            npgpu.monte_carlo_pi(1 << 40, seed=1)
        assert fired and time.perf_counter() - fired[0] < 0.2
        assert npgpu.monte_carlo_pi(1000, seed=1) == 4.0 * _random._pi_hits(1000, 1, device=-1) / 1000


@pytest.mark.slow
@pytest.mark.gpu
def test_fills_past_2_31_values_match_a_draw_resumed_near_the_end():
    """Element i of a draw depends on (seed, counter, i) alone: the last values of a 2^31 + 1 fill on the GPU
    equal a short draw started at their Philox block, on the host backend."""
    n = 2 ** 31 + 1
    g = npgpu.random.Generator(11)
    x = g.random(n, dtype=np.float32, device=True)
    assert x.shape == (n,) and g.counter == -(-n // 4)
    k = g.integers(0, 100, n, dtype=np.int8, device=True)
    first = n - 5  # a multiple of 4: the start of a block (one word per value)
    with npgpu.use_backend("cpu"):
        want_x = npgpu.random.Generator(11, counter=first // 4).random(5, dtype=np.float32)
        want_k = npgpu.random.Generator(11, counter=-(-n // 4) + first // 4).integers(0, 100, 5, dtype=np.int8)
    np.testing.assert_array_equal(x[first:].get(), want_x)
    np.testing.assert_array_equal(k[first:].get(), want_k)
    assert 0.49 < float(npgpu.mean(x)) < 0.51


def test_pi_hit_range_bounds():
    with pytest.raises(ValueError, match="first"):
        _random._pi_hits(10, 1, device=-1, first=-1)
    with pytest.raises(ValueError, match="first"):
        _random._pi_hits(10, 1, device=-1, first=(1 << 62) - 5)
    # The far end of the sequence costs only its own points.
    assert 0 <= _random._pi_hits(1000, 1, device=-1, first=(1 << 62) - 1000) <= 1000


# -------------------------------------------------------------------------------- counter semantics

def test_counter_advances(backend):
    g = npgpu.random.Generator(1)
    assert g.counter == 0 and g.seed == 1
    g.random(10, dtype=np.float32)  # 10 words -> 3 blocks
    assert g.counter == 3
    g.random(3)  # 6 words -> 2 blocks
    assert g.counter == 5
    g.integers(0, 5, size=(2, 3), dtype=np.int16)
    assert g.counter == 7
    g.standard_normal(0)
    assert g.counter == 7
    g.random()  # one float64: half a block, rounded up
    assert g.counter == 8


def test_consecutive_draws_concatenate(backend):
    g = npgpu.random.Generator(77)
    a = g.random(8, dtype=np.float32)
    b = g.random(12, dtype=np.float32)
    c = g.standard_normal(6)
    d = g.standard_normal(4)
    h = npgpu.random.Generator(77)
    assert np.array_equal(np.concatenate([a, b]), h.random(20, dtype=np.float32))
    assert np.array_equal(np.concatenate([c, d]), h.standard_normal(10))
    assert not np.array_equal(a, b[:8])


@pytest.mark.parametrize("method,kwargs", [("random", {}), ("standard_normal", {"dtype": np.float32}),
                                           ("integers", {"low": 0, "high": 1000}),
                                           ("uniform", {"low": -1, "high": 3, "dtype": np.float32})])
def test_prefix_independent_of_size(backend, method, kwargs):
    small = getattr(npgpu.random.Generator(5, 17), method)(size=37, **kwargs)
    large = getattr(npgpu.random.Generator(5, 17), method)(size=300001, **kwargs)
    assert np.array_equal(small, large[:37])
    square = getattr(npgpu.random.Generator(5, 17), method)(size=(2, 2), **kwargs)
    assert np.array_equal(large.reshape(-1)[:4], square.ravel())


def test_seeds_differ_and_repeat(backend):
    a = npgpu.random.default_rng(1).random(100)
    assert np.array_equal(a, npgpu.random.default_rng(1).random(100))
    assert not np.array_equal(a, npgpu.random.default_rng(2).random(100))
    g = npgpu.random.default_rng(3)
    assert npgpu.random.default_rng(g) is g
    assert npgpu.random.default_rng().seed != npgpu.random.default_rng().seed  # OS entropy
    assert npgpu.random.default_rng((1 << 64) - 1).random(2).shape == (2,)


def test_seed_sequences_and_int_sequences_seed_as_numpy_takes_them(backend):
    # NumPy's default_rng takes a SeedSequence or a sequence of ints; spawned children are independent streams.
    r = npgpu.random
    assert r.SeedSequence is np.random.SeedSequence
    want = np.random.SeedSequence([1, 2, 3]).generate_state(1, np.uint64)[0]
    assert r.default_rng([1, 2, 3]).seed == r.default_rng(np.array([1, 2, 3])).seed == want
    assert r.default_rng(r.SeedSequence([1, 2, 3])).seed == want
    a = r.default_rng(r.SeedSequence(9)).random(50)
    assert np.array_equal(a, r.default_rng(r.SeedSequence(9)).random(50))
    kids = [r.default_rng(s).random(50) for s in r.SeedSequence(9).spawn(3)]
    assert all(not np.array_equal(kids[i], kids[j]) for i in range(3) for j in range(i))
    assert r.default_rng(np.array(7)).seed == 7  # a 0-d array is an int seed
    assert np.array_equal(r.RandomState([4, 5]).rand(3), r.RandomState([4, 5]).rand(3))
    rs = r.RandomState(0)
    rs.seed(r.SeedSequence(2))
    r.seed([8])
    assert np.array_equal(rs.rand(4), r.default_rng(r.SeedSequence(2)).random(4))
    assert np.array_equal(r.rand(4), r.default_rng([8]).random(4))


@pytest.mark.parametrize("bad, exc, match", [
    (np.random.default_rng(1), TypeError, "cannot continue NumPy's Generator"),
    (np.random.PCG64(1), TypeError, "cannot continue NumPy's PCG64"),
    ([-1], ValueError, "non-negative ints"),
    ([1.5], TypeError, "non-negative ints"),
    ("7", TypeError, "seed must be"),
    (-1, ValueError, "seed must be"),
])
def test_bad_seeds_raise_naming_the_seed(bad, exc, match):
    for make in (npgpu.random.default_rng, npgpu.random.RandomState, npgpu.random.seed):
        with pytest.raises(exc, match=match):
            make(bad)


def test_philox_bit_generator_is_shared_by_its_generators(backend):
    # NumPy's pattern Generator(BitGenerator(seed)): Generators on one bit generator share its counter.
    r = npgpu.random
    bg = r.Philox(42)
    assert isinstance(bg, r.BitGenerator) and (bg.seed, bg.counter, bg.version) == (42, 0, r.STREAM_VERSION)
    a, b = r.Generator(bg), r.default_rng(bg)
    assert a.bit_generator is bg and b.bit_generator is bg
    first = a.random(8)  # 8 float64 values: 16 words, 4 blocks
    assert bg.counter == a.counter == b.counter == 4
    second = b.random(8)
    plain = r.Generator(42)
    assert np.array_equal(first, plain.random(8)) and np.array_equal(second, plain.random(8))
    assert r.RandomState(bg).rand(2).shape == (2,) and bg.counter == 9
    # seeds as default_rng takes them, a counter, a version
    want = np.random.SeedSequence(3).generate_state(1, np.uint64)[0]
    assert r.Philox(np.random.SeedSequence(3)).seed == r.Philox([3]).seed == r.default_rng([3]).seed
    assert r.Philox(np.random.SeedSequence(3)).seed == want
    assert np.array_equal(r.Generator(r.Philox(5, 7)).random(3), r.Generator(5, 7).random(3))
    assert np.array_equal(r.Generator(r.Philox(5, version=1)).standard_normal(9, dtype=np.float32),
                          r.Generator(5, version=1).standard_normal(9, dtype=np.float32))
    assert r.Philox(5, None).counter == 0


def test_philox_state_advance_spawn_and_pickle(backend):
    import pickle

    r = npgpu.random
    bg = r.Philox(3, 10)
    saved = bg.state
    assert saved == {"bit_generator": "Philox4x32-10", "state": {"seed": 3, "counter": 10,
                                                                 "version": r.STREAM_VERSION}}
    g = r.Generator(bg)
    x = g.random(5)
    assert bg.counter == 13
    bg.state = saved
    assert np.array_equal(g.random(5), x)
    bg.state = r.Generator(9, 2).bit_generator.state
    assert (g.seed, g.counter) == (9, 2)
    assert r.Philox(5).advance(3) is not None and r.Philox(5).advance(3).counter == 3
    assert r.Philox(5, (1 << 64) - 1).advance(2).counter == 1  # modulo 2**64
    kids = r.Philox(1).spawn(2)
    assert all(isinstance(k, r.Philox) for k in kids)
    assert [k.seed for k in kids] == [c.seed for c in r.default_rng(1).spawn(2)]
    assert kids[0].seed != kids[1].seed
    h = pickle.loads(pickle.dumps(r.Philox(12, 40, version=1)))
    assert (h.seed, h.counter, h.version) == (12, 40, 1)
    assert repr(h) == "npgpu.random.Philox(seed=12, counter=40, version=1)"
    p = r.Philox(6)
    p.spawn(1)
    assert pickle.loads(pickle.dumps(p)).spawn(1)[0].seed == p.spawn(1)[0].seed  # the spawn count is kept


def test_legacy_bit_generator_functions(backend):
    r = npgpu.random
    bg = r.Philox(4)
    r.set_bit_generator(bg)
    assert r.get_bit_generator() is bg and r.get_global_generator().bit_generator is bg
    a = r.rand(3)
    assert bg.counter == 2 and np.array_equal(a, r.Generator(4).random(3))
    r.seed(10)
    assert r.get_bit_generator().seed == 10 and r.get_bit_generator() is not bg
    with pytest.warns(DeprecationWarning, match="randint"):
        k = r.random_integers(5, size=400)
    assert k.min() == 1 and k.max() == 5  # both ends drawn: [1, 5]
    with pytest.warns(DeprecationWarning):
        k = r.random_integers(-2, 0, size=300)
    assert set(np.unique(k).tolist()) == {-2, -1, 0}


@pytest.mark.parametrize("call, exc, match", [
    (lambda: npgpu.random.Generator(npgpu.random.Philox(1), 3), TypeError, "belong to the bit generator"),
    (lambda: npgpu.random.Generator(npgpu.random.Philox(1), version=1), TypeError, "belong to the bit generator"),
    (lambda: npgpu.random.Generator(np.random.PCG64(1)), TypeError, "cannot continue NumPy's PCG64"),
    (lambda: npgpu.random.Generator(np.random.SeedSequence(1)), TypeError, "seed must be"),
    (lambda: npgpu.random.BitGenerator(), TypeError, "abstract"),
    (lambda: npgpu.random.Philox(-1), ValueError, "seed must be"),
    (lambda: npgpu.random.Philox(np.random.Philox(1)), TypeError, "cannot continue NumPy's Philox"),
    (lambda: npgpu.random.Philox(1, -1), ValueError, "counter must be"),
    (lambda: npgpu.random.Philox(1, True), TypeError, "counter must be an int"),
    (lambda: npgpu.random.Philox(1, version=9), ValueError, "version must be"),
    (lambda: npgpu.random.Philox(1).advance(-1), ValueError, "delta must be in"),
    (lambda: setattr(npgpu.random.Philox(1), "state", {"bit_generator": "MT19937"}), ValueError, "MT19937"),
    (lambda: npgpu.random.Philox(1).spawn(-1), ValueError, "non-negative"),
    (lambda: npgpu.random.set_bit_generator(3), TypeError, "takes an npgpu.random.Philox"),
    (lambda: npgpu.random.set_bit_generator(np.random.MT19937(1)), TypeError, "cannot continue NumPy's MT19937"),
    (lambda: npgpu.random.PCG64, AttributeError, "Philox4x32-10 only"),
    (lambda: npgpu.random.no_such_thing, AttributeError, "no attribute 'no_such_thing'"),
])
def test_bit_generator_misuse_raises_clearly(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_scalar_and_shapes(backend):
    g = npgpu.random.Generator(4)
    x = g.random()
    assert isinstance(x, np.float64) and 0 <= x < 1
    assert isinstance(g.integers(5), np.int64)
    assert g.random((2, 3, 4), dtype=np.float32).shape == (2, 3, 4)
    assert g.integers(0, 3, size=np.int64(5)).shape == (5,)
    assert g.standard_normal((0, 4)).shape == (0, 4)


def test_out_numpy(backend):
    out = np.full(10, np.nan, dtype=np.float32)
    r = npgpu.random.Generator(8).random(out=out)
    assert r is out and np.array_equal(out, npgpu.random.Generator(8).random(10, dtype=np.float32))
    iout = np.zeros((3, 3), dtype=np.uint16)
    npgpu.random.Generator(8).integers(0, 7, out=iout)
    assert np.array_equal(iout, npgpu.random.Generator(8).integers(0, 7, size=(3, 3), dtype=np.uint16))


@pytest.mark.threads
def test_pickle_and_threads(backend):
    import pickle

    g = npgpu.random.Generator(12, 40)
    h = pickle.loads(pickle.dumps(g))
    assert (h.seed, h.counter) == (12, 40)
    outs = []
    lock = threading.Lock()

    def work():
        for _ in range(50):
            x = g.random(4, dtype=np.float32)  # one block each
            with lock:
                outs.append(x)

    ts = [threading.Thread(target=work) for _ in range(thread_count(4))]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert g.counter == 40 + 50 * len(ts)
    allv = np.sort(np.concatenate(outs))
    want = npgpu.random.Generator(12, 40).random(4 * 50 * len(ts), dtype=np.float32)
    assert np.array_equal(allv, np.sort(want))


# ---------------------------------------------------------------------------------------- statistics

def _chi2(counts, expected):
    return float(((counts - expected) ** 2 / expected).sum())


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_uniform_statistics(backend, dtype):
    n = 1 << 20
    x = npgpu.random.Generator(2024).random(n, dtype=dtype).astype(np.float64)
    assert x.min() >= 0.0 and x.max() < 1.0
    assert abs(x.mean() - 0.5) < 5 * math.sqrt(1 / 12 / n)
    assert abs(x.var() - 1 / 12) < 5 * math.sqrt(1 / 180 / n)  # var of (U - 1/2)^2 is 1/180
    counts = np.bincount((x * 100).astype(np.int64), minlength=100)
    assert _chi2(counts, n / 100) < 160  # df 99: p = 1e-4 at about 153
    # Serial pairs (x[2i], x[2i+1]) over a 10x10 grid: no correlation between neighbours.
    pairs = (x[: n // 2 * 2].reshape(-1, 2) * 10).astype(np.int64)
    counts2 = np.bincount(pairs[:, 0] * 10 + pairs[:, 1], minlength=100)
    assert _chi2(counts2, n / 2 / 100) < 160
    u = npgpu.random.Generator(2025).uniform(-3.0, 5.0, n, dtype=dtype)
    assert u.min() >= -3.0 and u.max() <= 5.0 and abs(u.mean() - 1.0) < 5 * 8 * math.sqrt(1 / 12 / n)


def _ks_normal(z):
    z = np.sort(np.asarray(z, dtype=np.float64))
    n = len(z)
    try:
        from scipy.special import ndtr

        cdf = ndtr(z)
    except ImportError:
        erf = np.vectorize(math.erf)
        cdf = 0.5 * (1.0 + erf(z / math.sqrt(2.0)))
    i = np.arange(1, n + 1)
    return max(float((i / n - cdf).max()), float((cdf - (i - 1) / n).max()))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_normal_statistics(backend, dtype):
    n = 1 << 20
    z = npgpu.random.Generator(99).standard_normal(n, dtype=dtype).astype(np.float64)
    assert np.isfinite(z).all()
    m, v = z.mean(), z.var()
    assert abs(m) < 5 / math.sqrt(n)
    assert abs(v - 1) < 5 * math.sqrt(2 / n)
    skew = ((z - m) ** 3).mean() / v ** 1.5
    kurt = ((z - m) ** 4).mean() / v ** 2 - 3
    assert abs(skew) < 5 * math.sqrt(6 / n)
    assert abs(kurt) < 5 * math.sqrt(24 / n)
    sub = z[: 1 << 17]
    d = _ks_normal(sub)
    assert d * math.sqrt(len(sub)) < 1.95  # Kolmogorov: p = 0.001 at 1.95
    # Tail mass beyond 3 sigma: 0.0026998 of the values.
    tail = (np.abs(z) > 3).mean()
    assert abs(tail - 0.0026998) < 5 * math.sqrt(0.0027 / n)
    y = npgpu.random.Generator(100).normal(10.0, 3.0, 1 << 16, dtype=dtype)
    assert abs(y.mean() - 10) < 5 * 3 / math.sqrt(1 << 16) and abs(y.std() / 3 - 1) < 0.03


def test_normal_scipy_tests(backend):
    stats = pytest.importorskip("scipy.stats")
    z = npgpu.random.Generator(7).standard_normal(1 << 16)
    assert stats.kstest(z, "norm").pvalue > 1e-3
    assert stats.normaltest(z).pvalue > 1e-3
    assert stats.shapiro(z[:4096]).pvalue > 1e-3


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint16, np.uint64])
def test_integers_statistics(backend, dtype):
    n = 100000
    x = npgpu.random.Generator(31).integers(-3 if np.dtype(dtype).kind == "i" else 0, 7, n, dtype=dtype)
    lo = -3 if np.dtype(dtype).kind == "i" else 0
    counts = np.bincount(x.astype(np.int64) - lo, minlength=7 - lo)
    assert counts.sum() == n and len(counts) == 7 - lo
    assert _chi2(counts, n / (7 - lo)) < 35  # df <= 9: p = 1e-4 at about 33.7


@pytest.mark.parametrize("dtype,span", [(np.uint32, 3 << 30), (np.uint64, 3 << 62), (np.int64, 3 << 40)])
def test_integers_unbiased(backend, dtype, span):
    # A range of 3 * 2^k: a modulo reduction would make the top third 1/4 likely; exact is 1/3.
    n = 200000
    x = npgpu.random.Generator(5).integers(0, span, n, dtype=dtype)
    frac = (x >= np.array((2 * span) // 3, dtype=dtype)).mean()
    assert abs(frac - 1 / 3) < 5 * math.sqrt(2 / 9 / n)


def test_integers_bool_and_full_ranges(backend):
    b = npgpu.random.Generator(6).integers(0, 2, 100000, dtype=bool)
    assert b.dtype == bool and abs(b.mean() - 0.5) < 5 * 0.5 / math.sqrt(100000)
    u = npgpu.random.Generator(6).integers(0, (1 << 64) - 1, 1000, dtype=np.uint64, endpoint=True)
    assert u.dtype == np.uint64 and int(u.max()) > (1 << 63)
    i8 = npgpu.random.Generator(6).integers(-128, 127, 100000, dtype=np.int8, endpoint=True)
    assert i8.min() == -128 and i8.max() == 127
    one = npgpu.random.Generator(6).integers(5, 6, 100, dtype=np.int32)
    assert (one == 5).all()


@pytest.mark.parametrize("seed", [0, 1, 12345])
def test_monte_carlo_pi_accuracy(backend, seed):
    n = 1 << 23
    est = npgpu.monte_carlo_pi(n, seed=seed)
    assert isinstance(est, float)
    p = math.pi / 4
    assert abs(est - math.pi) < 5 * 4 * math.sqrt(p * (1 - p) / n)


def test_monte_carlo_pi_reproducible(backend):
    a = npgpu.monte_carlo_pi(100003, seed=7)
    assert a == npgpu.monte_carlo_pi(100003, seed=7)
    assert a != npgpu.monte_carlo_pi(100003, seed=8)
    assert 2.0 < npgpu.monte_carlo_pi(100000) < 4.0  # seed None
    for n in (1, 2, 3, 4, 5, 7, 8, 9):
        assert npgpu.monte_carlo_pi(n, seed=3) * n / 4 == _random._pi_hits(n, 3, device=-1)


# ---------------------------------------------------------------------------------------- bad input

def test_errors(backend):
    g = npgpu.random.Generator(0)
    c = g.counter
    with pytest.raises(ValueError):
        g.random(-1)
    with pytest.raises(ValueError):
        g.random((3, -2))
    with pytest.raises(TypeError):
        g.random(2.5)
    with pytest.raises(ValueError):
        g.uniform(1.0, 1.0, 3)
    with pytest.raises(ValueError):
        g.uniform(2.0, 1.0, 3)
    with pytest.raises(ValueError):
        g.uniform(0.0, np.inf, 3)
    with pytest.raises(ValueError):
        g.uniform(np.nan, 1.0, 3)
    with pytest.raises(ValueError):
        g.normal(0.0, -1.0, 3)
    with pytest.raises(ValueError):
        g.integers(5, 5, 3)
    with pytest.raises(ValueError):
        g.integers(5, 2, 3)
    with pytest.raises(ValueError):
        g.integers(0, 0)
    with pytest.raises(ValueError):
        g.integers(0, 300, 3, dtype=np.uint8)
    with pytest.raises(ValueError):
        g.integers(-1, 3, 3, dtype=np.uint32)
    with pytest.raises(ValueError):
        g.integers(0, 3, 3, dtype=bool)
    with pytest.raises(TypeError):
        g.integers(0.5, 3)
    for dt in (np.float16, np.int32, np.complex64, np.bool_):
        with pytest.raises(TypeError):
            g.random(3, dtype=dt)
        with pytest.raises(TypeError):
            g.standard_normal(3, dtype=dt)
    for dt in (np.float32, np.float64, np.complex128):
        with pytest.raises(TypeError):
            g.integers(0, 3, 3, dtype=dt)
    with pytest.raises(TypeError):
        g.random(3, dtype="U5")
    with pytest.raises(TypeError):
        g.random(out=[0.0, 0.0])
    with pytest.raises(TypeError):
        g.random(dtype=np.float64, out=np.empty(3, np.float32))
    with pytest.raises(ValueError):
        g.random(size=4, out=np.empty(3, np.float32))
    with pytest.raises(ValueError):
        g.random(out=np.empty((4, 4))[:, ::2])
    ro = np.empty(3)
    ro.flags.writeable = False
    with pytest.raises(ValueError):
        g.random(out=ro)
    assert g.counter == c  # failed calls draw nothing
    with pytest.raises(ValueError):
        npgpu.random.Generator(-1)
    with pytest.raises(ValueError):
        npgpu.random.Generator(1 << 64)
    with pytest.raises(TypeError):
        npgpu.random.Generator("seed")
    with pytest.raises(TypeError):
        npgpu.random.Generator(1.5)
    with pytest.raises(ValueError):
        npgpu.random.Generator(1, counter=-1)
    with pytest.raises(ValueError):
        npgpu.monte_carlo_pi(0)
    with pytest.raises(ValueError):
        npgpu.monte_carlo_pi(-5)
    with pytest.raises(TypeError):
        npgpu.monte_carlo_pi(1e6)
    with pytest.raises(ValueError):
        npgpu.monte_carlo_pi(10, seed=-3)
    with pytest.raises(ValueError):
        npgpu.monte_carlo_pi((1 << 62) + 1, seed=1)


def test_public_names():
    assert npgpu.monte_carlo_pi is npgpu.random.monte_carlo_pi
    assert "monte_carlo_pi" in npgpu.__all__ and "random" in npgpu.__all__
    assert isinstance(npgpu.random.default_rng(1), npgpu.random.Generator)


# -------------------------------------------------------------------------------------------------- GPU

GPU_CASES = [
    ("random", {"dtype": np.float32}), ("random", {"dtype": np.float64}),
    ("uniform", {"low": -1.5, "high": 2.25, "dtype": np.float32}),
    ("uniform", {"low": 1e-3, "high": 7.0, "dtype": np.float64}),
    ("standard_normal", {"dtype": np.float32}), ("normal", {"loc": 2.0, "scale": 0.5, "dtype": np.float64}),
    ("normal", {"loc": -1.0, "scale": 3.0, "dtype": np.float32}),
    ("integers", {"low": -1000, "high": 12345, "dtype": np.int32}),
    ("integers", {"low": 0, "high": (3 << 30) + 1, "dtype": np.uint32}),
    ("integers", {"low": -100, "high": 100, "dtype": np.int8}),
    ("integers", {"low": 0, "high": 60000, "dtype": np.uint16}),
    ("integers", {"low": 0, "high": 2, "dtype": np.bool_}),
    ("integers", {"low": -(1 << 62), "high": (1 << 62) + 12345, "dtype": np.int64}),
    ("integers", {"low": 0, "high": (1 << 64) - 1, "dtype": np.uint64, "endpoint": True}),
]


@pytest.mark.gpu
@pytest.mark.parametrize("n", [1, 7, 4096, 3000017])
@pytest.mark.parametrize("method,kwargs", GPU_CASES, ids=lambda x: str(x) if isinstance(x, str) else "")
def test_gpu_bits_equal_host(method, kwargs, n):
    with npgpu.use_backend("cpu"):
        host = getattr(npgpu.random.Generator(SEED, 3), method)(size=n, **kwargs)
    with npgpu.use_backend("cuda"):
        staged = getattr(npgpu.random.Generator(SEED, 3), method)(size=n, **kwargs)
    dev = getattr(npgpu.random.Generator(SEED, 3), method)(size=n, device=True, **kwargs)
    assert isinstance(dev, npgpu.Array) and dev.dtype == host.dtype
    assert np.array_equal(host.view(np.uint8), staged.view(np.uint8))
    assert np.array_equal(host.view(np.uint8), dev.get().view(np.uint8))


@pytest.mark.gpu
@pytest.mark.parametrize("version", [1, 2])
def test_gpu_float32_normals_unaligned_out(version):
    """A device output not aligned to 16 bytes (scalar stores), both stream versions, against the host."""
    n = (1 << 20) + 3
    with npgpu.use_backend("cpu"):
        host = npgpu.random.Generator(SEED, 9, version=version).standard_normal(n, dtype=np.float32)
    buf = npgpu.full(n + 1, np.nan, dtype=np.float32)
    out = buf[1:]
    npgpu.random.Generator(SEED, 9, version=version).standard_normal(out=out)
    got = buf.get()
    assert np.isnan(got[0])
    assert np.array_equal(host.view(np.uint32), got[1:].view(np.uint32))


@pytest.mark.heavy
@pytest.mark.gpu
def test_gpu_float32_normals_64bit_indices():
    """The ziggurat kernels' 64-bit group-index path (taken past 2^30 groups; NPGPU_ZIGGURAT_INDEX64=1 forces it
    here), aligned and unaligned outputs, bit-equal to the host."""
    code = f"""
import numpy as np, npgpu
SEED = {SEED}
for n, off in ((1, 0), (4099, 0), ((1 << 20) + 3, 1), (3000017, 0)):
    with npgpu.use_backend("cpu"):
        host = npgpu.random.Generator(SEED, 9).normal(0.5, 2.0, n, dtype=np.float32)
        std = npgpu.random.Generator(SEED, 9).standard_normal(n, dtype=np.float32)
    buf = npgpu.full(n + off, np.nan, dtype=np.float32)
    npgpu.random.Generator(SEED, 9).normal(0.5, 2.0, out=buf[off:])
    assert np.array_equal(host.view(np.uint32), buf.get()[off:].view(np.uint32)), n
    dev = npgpu.random.Generator(SEED, 9).standard_normal(n, dtype=np.float32, device=True)
    assert np.array_equal(std.view(np.uint32), dev.get().view(np.uint32)), n
print("ok")
"""
    env = dict(os.environ, NPGPU_ZIGGURAT_INDEX64="1", NPGPU_BACKEND="cuda")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-3000:]


@pytest.mark.gpu
def test_gpu_out_device_array_and_streams():
    out = npgpu.full((300, 301), np.nan, dtype=np.float32)
    s = npgpu.Stream()
    g = npgpu.random.Generator(21)
    r = g.standard_normal(out=out, stream=s)
    assert r is out
    s.synchronize()
    with npgpu.use_backend("cpu"):
        want = npgpu.random.Generator(21).standard_normal((300, 301), dtype=np.float32)
    assert np.array_equal(out.get(), want)
    assert g.counter == npgpu.random.Generator(21).counter + (300 * 301 + 3) // 4
    x = npgpu.random.Generator(22).random(size=1001, dtype=np.float32, device=0)
    with npgpu.use_backend("cpu"):
        assert np.array_equal(x.get(), npgpu.random.Generator(22).random(1001, dtype=np.float32))
    # A 0-d device array for size=None.
    assert npgpu.random.Generator(22).random(device=True).shape == ()


@pytest.mark.gpu
@pytest.mark.parametrize("n", [1, 2, 3, 5, 7, 8, 9, 1000, 8191, 65543, 400003, 999999, 1 << 24, (1 << 26) + 3,
                               (1 << 28) + 5])
def test_gpu_pi_count_equals_host(n):
    assert _random._pi_hits(n, 0xDEADBEEF, device=0) == _random._pi_hits(n, 0xDEADBEEF, device=-1)
    if n == 400003:
        assert _random._pi_hits(n, 20240917, device=0) == _pi_hits_reference(n, 20240917)[0]


@pytest.mark.gpu
@pytest.mark.parametrize("first,n", [(3, 1000), (8 * 12345 + 5, 65543), ((1 << 34) - 4003, 100003),
                                     ((1 << 40) + 1, 400003), ((1 << 62) - 999999, 999999)])
def test_gpu_pi_ranges_equal_host(first, n):
    # Ranges starting past 2^31 Philox calls take the kernel's 64-bit index path; one crosses that boundary.
    assert _random._pi_hits(n, 77, device=0, first=first) == _random._pi_hits(n, 77, device=-1, first=first)


@pytest.mark.heavy
@pytest.mark.gpu
def test_gpu_pi_large_64bit_count():
    n = (1 << 34) + 5  # more hits than 2^32
    hits = _random._pi_hits(n, 5, device=0)
    assert hits > 1 << 32
    p = math.pi / 4
    assert abs(hits / n - p) < 5 * math.sqrt(p * (1 - p) / n)
    with npgpu.use_backend("cuda"):
        est = npgpu.monte_carlo_pi(n, seed=5)
    assert est == 4.0 * hits / n
