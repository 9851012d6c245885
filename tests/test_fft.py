"""npgpu.fft against numpy.fft on each device: every function, lengths 1 to 2**16 + 7, 1-d to 5-d, every
choice of up to 3 axes (negative, non-last, repeated, more than 3), every norm, cropping and padding,
irfft of non-Hermitian input, round trips, NumPy 2's dtype rules, views, out=, NumPy in/NumPy out,
numpy.fft on npgpu arrays, fftfreq/rfftfreq/fftshift/ifftshift, NumPy's exception types; and the contract
of the three primitives (c2c, r2c, c2r) the transforms are built from, on the host and on a GPU."""
import itertools
import math
import warnings

import numpy as np
import pytest
from numpy.exceptions import AxisError

import npgpu
import npgpu.fft as nfft

NORMS = [None, "backward", "ortho", "forward"]
ONE_D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
ND = ["fftn", "ifftn", "rfftn", "irfftn"]
REAL_INPUT = {"rfft", "ihfft", "rfftn", "rfft2"}  # complex input raises TypeError


def _np(x):
    return x.get() if isinstance(x, npgpu.Array) else np.asarray(x)


def _eps(dtype):
    return 1e-12 if np.dtype(dtype) in (np.float64, np.complex128) else 1e-5


def check(got, want, device=None, tol=None, n=2):
    """got is an npgpu.Array on `device` (a NumPy array when device is None) with want's dtype and shape, and
    values within a normwise tolerance of the dtype, growing with log n."""
    if device is None:
        assert type(got) is np.ndarray, type(got)
    else:
        assert isinstance(got, npgpu.Array), type(got)
        assert str(got.device) == str(npgpu.asarray(np.zeros(0), device=device).device)
    g = _np(got)
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    assert g.shape == want.shape, (g.shape, want.shape)
    if tol is None:
        tol = _eps(want.dtype) * max(1.0, math.log2(max(n, 2)))
    if want.dtype == np.float16:
        tol = 5e-3
    scale = float(np.max(np.abs(want.astype(np.complex128)))) if want.size else 0.0
    err = float(np.max(np.abs(g.astype(np.complex128) - want.astype(np.complex128)))) if want.size else 0.0
    assert np.all(np.isfinite(g.astype(np.complex128))), "non-finite values"
    assert err <= tol * max(scale, 1e-30), f"max error {err:.3g} vs max |value| {scale:.3g} (tol {tol:.1e})"


def _kind(exc):
    """The public exception type a NumPy error stands for (its private subclasses aside)."""
    for t in (AxisError, ZeroDivisionError, IndexError, TypeError, ValueError):
        if isinstance(exc, t):
            return t
    return type(exc)


def raises_as_numpy(ours, theirs):
    """theirs() raises; ours() raises an exception of the same public type."""
    with pytest.raises(Exception) as np_err:
        theirs()
    kind = _kind(np_err.value)
    if kind is AxisError:
        kind = (IndexError, ValueError)  # AxisError is both; NumPy raises plain IndexError in some paths
    with pytest.raises(kind):
        ours()
    return np_err.value


def _input_for(name, random_array, shape, dtype=None):
    if dtype is None:
        dtype = np.float64 if name in REAL_INPUT else np.complex128
    return random_array(shape, dtype)


# ------------------------------------------------------------------------------------------------ 1-D

@pytest.mark.parametrize("name", ONE_D)
@pytest.mark.parametrize("length", [1, 2, 3, 97, 1009, 2 ** 16 + 7])
def test_one_d_lengths_and_norms(array_device, random_array, name, length):
    h = _input_for(name, random_array, (length,))
    x = npgpu.asarray(h)
    for norm in NORMS if length < 2 ** 16 else [None, "ortho"]:
        if name in ("irfft", "hfft") and length == 1:
            raises_as_numpy(lambda: getattr(nfft, name)(x, norm=norm),
                            lambda: getattr(np.fft, name)(h, norm=norm))
            continue
        got = getattr(nfft, name)(x, norm=norm)
        check(got, getattr(np.fft, name)(h, norm=norm), array_device, n=length)


@pytest.mark.heavy
@pytest.mark.parametrize("name", ONE_D)
def test_one_d_n_crop_pad_and_axis(array_device, random_array, name):
    h = _input_for(name, random_array, (5, 8, 7))
    x = npgpu.asarray(h)
    for axis in (0, 1, 2, -1, -2, -3):
        for n in (None, 1, 2, 3, 4, 7, 8, 9, 16, 17):
            if n is None and name in ("irfft", "hfft") and h.shape[axis] == 1:
                continue
            for norm in (None, "ortho", "forward"):
                got = getattr(nfft, name)(x, n=n, axis=axis, norm=norm)
                check(got, getattr(np.fft, name)(h, n=n, axis=axis, norm=norm), array_device, n=n or 8)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 8, 9, 97, 98])
def test_irfft_hfft_non_hermitian_input(array_device, random_array, n):
    # Random complex input: the imaginary parts of the zero (and, for even n, Nyquist) terms are ignored.
    h = random_array((3, n // 2 + 1), np.complex128)
    x = npgpu.asarray(h)
    for norm in NORMS:
        check(nfft.irfft(x, n=n, norm=norm), np.fft.irfft(h, n=n, norm=norm), array_device, n=n)
        check(nfft.hfft(x, n=n, norm=norm), np.fft.hfft(h, n=n, norm=norm), array_device, n=n)
    # with cropping and padding of the input terms
    for m in (n, n + 3, max(n - 3, 1)):
        check(nfft.irfft(x, n=m), np.fft.irfft(h, n=m), array_device, n=m)


# ------------------------------------------------------------------------------------------------ N-D

SHAPES = {1: (6,), 2: (4, 5), 3: (3, 4, 5), 4: (2, 3, 4, 5)}


def _axes_choices(ndim):
    """Every ordered choice of 1 to 3 distinct axes, alternately written negative."""
    for k in range(1, min(3, ndim) + 1):
        for axes in itertools.permutations(range(ndim), k):
            yield axes
            yield tuple(a - ndim if i % 2 == 0 else a for i, a in enumerate(axes))


@pytest.mark.heavy
@pytest.mark.parametrize("ndim", [1, 2, 3, 4])
@pytest.mark.parametrize("name", ND)
def test_nd_every_axes_choice(array_device, random_array, name, ndim):
    h = _input_for(name, random_array, SHAPES[ndim])
    x = npgpu.asarray(h)
    for i, axes in enumerate(_axes_choices(ndim)):
        norm = NORMS[i % 4]
        got = getattr(nfft, name)(x, axes=axes, norm=norm)
        check(got, getattr(np.fft, name)(h, axes=axes, norm=norm), array_device, n=h.size)
    # no axes given: all of them
    check(getattr(nfft, name)(x), getattr(np.fft, name)(h), array_device, n=h.size)


@pytest.mark.parametrize("name", ["fft2", "ifft2", "rfft2", "irfft2"])
def test_two_d_functions(array_device, random_array, name):
    h = _input_for(name, random_array, (3, 6, 5))
    x = npgpu.asarray(h)
    for axes in ((-2, -1), (0, 2), (2, 0), (-1, -3)):
        for norm in NORMS:
            check(getattr(nfft, name)(x, axes=axes, norm=norm), getattr(np.fft, name)(h, axes=axes, norm=norm),
                  array_device, n=h.size)
    check(getattr(nfft, name)(x, s=(4, 7)), getattr(np.fft, name)(h, s=(4, 7)), array_device, n=h.size)


@pytest.mark.heavy
@pytest.mark.parametrize("name", ND)
def test_nd_s_crop_pad(array_device, random_array, name):
    h = _input_for(name, random_array, (4, 6, 5))
    x = npgpu.asarray(h)
    for axes in ((0, 1, 2), (2, 0), (-1,), (1, -3)):
        for s in itertools.product((1, 3, 6, 9), repeat=len(axes)):
            got = getattr(nfft, name)(x, s=s, axes=axes, norm="ortho")
            check(got, getattr(np.fft, name)(h, s=s, axes=axes, norm="ortho"), array_device, n=h.size)
        s = (-1,) * len(axes)  # -1: the input's own length
        check(getattr(nfft, name)(x, s=s, axes=axes), getattr(np.fft, name)(h, s=s, axes=axes), array_device)


@pytest.mark.parametrize("last", [1, 2, 5, 6, 7])
def test_irfftn_non_hermitian_odd_and_even(array_device, random_array, last):
    # Random (non-Hermitian) planes at the zero and Nyquist terms, over 2, 3 and 4 axes: NumPy's answer is
    # c2c over the outer axes, then a 1-D c2r dropping those terms' imaginary parts.
    h = random_array((3, 4, 5, 4), np.complex128)
    x = npgpu.asarray(h)
    for axes in ((0, 3), (1, 2, 3), (3, 1), (2, 0, 1), (0, 1, 2, 3), (3, 2, 1, 0)):
        for norm in NORMS:
            s = [h.shape[a] for a in axes[:-1]] + [last]
            check(nfft.irfftn(x, s=s, axes=axes, norm=norm), np.fft.irfftn(h, s=s, axes=axes, norm=norm),
                  array_device, n=h.size)


def test_more_than_three_axes(array_device, random_array):
    h = random_array((2, 3, 2, 3, 4), np.complex128)
    r = random_array((2, 3, 2, 3, 4), np.float64)
    x, xr = npgpu.asarray(h), npgpu.asarray(r)
    for name, a, ha in (("fftn", x, h), ("ifftn", x, h), ("rfftn", xr, r), ("irfftn", x, h)):
        for axes in (None, (4, 0, 3, 1), (-1, -2, -3, -4, -5), (1, 2, 3, 4)):
            for norm in ("backward", "ortho"):
                check(getattr(nfft, name)(a, axes=axes, norm=norm), getattr(np.fft, name)(ha, axes=axes, norm=norm),
                      array_device, n=h.size)


def test_repeated_axes_as_numpy(array_device, random_array):
    # NumPy transforms an axis given twice twice (each with its own length from s).
    h = random_array((4, 6, 3), np.complex128)
    r = random_array((4, 6, 3), np.float64)
    x, xr = npgpu.asarray(h), npgpu.asarray(r)
    cases = [((0, 0), None), ((1, 0, 1), None), ((2, -1), None), ((0, 1, 0), (5, 3, 2)), ((1, 1), (4, 8)),
             ((0, 1, 2, 0), None)]
    for axes, s in cases:
        for name, a, ha in (("fftn", x, h), ("ifftn", x, h), ("rfftn", xr, r), ("irfftn", x, h)):
            check(getattr(nfft, name)(a, s=s, axes=axes), getattr(np.fft, name)(ha, s=s, axes=axes), array_device,
                  n=h.size * 4)


def test_round_trips(array_device, random_array):
    for dt, cdt in ((np.float64, np.complex128), (np.float32, np.complex64)):
        for n in (1, 2, 3, 97, 1009):
            h = random_array((2, n), cdt)
            x = npgpu.asarray(h)
            check(nfft.ifft(nfft.fft(x)), h, array_device, n=n)
            check(nfft.fft(nfft.ifft(x, norm="ortho"), norm="ortho"), h, array_device, n=n)
            r = random_array((2, n), dt)
            xr = npgpu.asarray(r)
            check(nfft.irfft(nfft.rfft(xr), n=n), r, array_device, n=n)
            check(nfft.ihfft(nfft.hfft(nfft.ihfft(xr), n=n)), np.fft.ihfft(r), array_device, n=n)
        h = random_array((5, 6, 7), cdt)
        check(nfft.ifftn(nfft.fftn(npgpu.asarray(h))), h, array_device, n=h.size)
        r = random_array((5, 6, 7), dt)
        check(nfft.irfftn(nfft.rfftn(npgpu.asarray(r)), s=r.shape, axes=(0, 1, 2)), r, array_device, n=r.size)


# ------------------------------------------------------------------------------------------------ dtypes

DTYPES = [np.bool_, np.int8, np.int32, np.int64, np.uint8, np.uint64, np.float16, np.float32, np.float64,
          np.complex64, np.complex128]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_dtype_rules_of_numpy_2(array_device, random_array, dtype):
    h = random_array((3, 8), dtype)
    if np.dtype(dtype).kind in "iu":
        h = (h % 7).astype(dtype)  # small values: float16/complex64 loops stay accurate
    if np.dtype(dtype) == np.float16:
        h = np.clip(h, -50, 50).astype(dtype)
    x = npgpu.asarray(h)
    names = ONE_D + ND + ["fft2", "ifft2", "rfft2", "irfft2"]
    for name in names:
        if np.dtype(dtype).kind == "c" and name in REAL_INPUT:
            raises_as_numpy(lambda: getattr(nfft, name)(x), lambda: getattr(np.fft, name)(h))
            continue
        want = getattr(np.fft, name)(h)
        if np.dtype(dtype) == np.float16:
            # NumPy rounds its scale factors to float16 for float16 input (1/3 -> 0.33325); npgpu's are exact.
            # The dtype is NumPy's; the values are compared with the transform of the float32 values.
            want = getattr(np.fft, name)(h.astype(np.float32)).astype(want.dtype)
        got = getattr(nfft, name)(x)
        tol = 1e-4 if want.dtype in (np.float32, np.complex64) else None
        check(got, want, array_device, tol=tol, n=h.size)


def test_single_precision_accuracy(array_device, random_array):
    for n in (97, 1009, 2 ** 16 + 7):
        h = random_array((n,), np.complex64)
        want = np.fft.fft(h.astype(np.complex128))
        got = _np(nfft.fft(npgpu.asarray(h)))
        assert got.dtype == np.complex64
        err = np.max(np.abs(got - want)) / np.max(np.abs(want))
        assert err < 1e-5 * math.log2(n), err
        r = random_array((n,), np.float32)
        got = _np(nfft.irfft(nfft.rfft(npgpu.asarray(r)), n=n))
        assert got.dtype == np.float32
        assert np.max(np.abs(got - r)) / np.max(np.abs(r)) < 1e-5 * math.log2(n)


# ------------------------------------------------------------------------------------------------ views

def test_views_negative_strides_and_transposes(array_device, random_array):
    h = random_array((6, 9, 8), np.complex128)
    r = random_array((6, 9, 8), np.float64)
    x, xr = npgpu.asarray(h), npgpu.asarray(r)
    views = [lambda a: a[::-1], lambda a: a[:, ::-2, 1:], lambda a: a.T, lambda a: a.transpose(1, 0, 2)[::2],
             lambda a: a[1:5, 2, ::-3], lambda a: a[..., ::-1].swapaxes(0, 2)]
    for view in views:
        hv, xv, rv, xrv = view(h), view(x), view(r), view(xr)
        for name in ("fft", "ifft", "irfft", "hfft"):
            check(getattr(nfft, name)(xv, axis=0), getattr(np.fft, name)(hv, axis=0), array_device)
        for name in ("fftn", "ifftn", "irfftn"):
            check(getattr(nfft, name)(xv), getattr(np.fft, name)(hv), array_device, n=hv.size)
        check(nfft.rfftn(xrv), np.fft.rfftn(rv), array_device, n=rv.size)
        check(nfft.rfft(xrv, axis=0), np.fft.rfft(rv, axis=0), array_device)
        check(nfft.ihfft(xrv), np.fft.ihfft(rv), array_device)
    # the inputs are left as they were
    assert np.array_equal(x.get(), h) and np.array_equal(xr.get(), r)


# ------------------------------------------------------------------------------------------------ out=

def test_out_npgpu(array_device, random_array):
    h = random_array((4, 6), np.complex128)
    x = npgpu.asarray(h)
    for name, shape, dt in (("fft", (4, 6), np.complex128), ("ifft", (4, 6), np.complex128),
                            ("irfft", (4, 10), np.float64), ("hfft", (4, 10), np.float64),
                            ("fftn", (4, 6), np.complex128), ("irfftn", (4, 10), np.float64),
                            ("ifft2", (4, 6), np.complex128), ("irfft2", (4, 10), np.float64)):
        out = npgpu.asarray(np.full(shape, np.nan, dtype=dt))
        res = getattr(nfft, name)(x, norm="ortho", out=out)
        assert res is out
        check(out, getattr(np.fft, name)(h, norm="ortho"), array_device)
    r = random_array((4, 6), np.float64)
    for name in ("rfft", "ihfft", "rfftn", "rfft2"):
        out = npgpu.asarray(np.full((4, 4), np.nan, dtype=np.complex128))
        assert getattr(nfft, name)(npgpu.asarray(r), out=out) is out
        check(out, getattr(np.fft, name)(r), array_device)
    # 'same_kind' casting: a complex64 out for a complex128 result, a complex out for a real one
    out = npgpu.asarray(np.full((4, 6), np.nan, dtype=np.complex64))
    nfft.fft(x, out=out)
    check(out, np.fft.fft(h).astype(np.complex64), array_device, tol=1e-6)
    out = npgpu.asarray(np.full((4, 10), np.nan, dtype=np.complex128))
    nfft.irfft(x, out=out)
    check(out, np.fft.irfft(h).astype(np.complex128), array_device)
    # in place: out is the input
    y = npgpu.asarray(h.copy())
    assert nfft.fft(y, out=y) is y
    check(y, np.fft.fft(h), array_device)


def test_out_errors(array_device, random_array):
    h = random_array((4, 6), np.complex128)
    x = npgpu.asarray(h)
    raises_as_numpy(lambda: nfft.fft(x, out=npgpu.empty((4, 5), dtype=np.complex128)),
                    lambda: np.fft.fft(h, out=np.empty((4, 5), dtype=np.complex128)))
    raises_as_numpy(lambda: nfft.fft(x, out=npgpu.empty((4, 6), dtype=np.float64)),
                    lambda: np.fft.fft(h, out=np.empty((4, 6), dtype=np.float64)))
    with pytest.raises(TypeError, match="npgpu.Array"):
        nfft.fft(x, out=np.empty((4, 6), dtype=np.complex128))
    with pytest.raises(TypeError, match="NumPy array"):
        nfft.fft(h, out=npgpu.empty((4, 6), dtype=np.complex128))


# ------------------------------------------------------------------------------------------------ NumPy in

def test_numpy_in_numpy_out(array_device, random_array):
    h = random_array((5, 6), np.complex128)
    r = random_array((5, 6), np.float64)
    for name in ONE_D + ND + ["fft2", "ifft2", "rfft2", "irfft2"]:
        a = r if name in REAL_INPUT else h
        check(getattr(nfft, name)(a, norm="ortho"), getattr(np.fft, name)(a, norm="ortho"), None, n=a.size)
    check(nfft.fft([1, 2, 3, 4]), np.fft.fft([1, 2, 3, 4]), None)  # lists as NumPy takes them
    check(nfft.rfftn([[1.5, 2], [3, 4]]), np.fft.rfftn([[1.5, 2], [3, 4]]), None)
    out = np.full((5, 6), np.nan, dtype=np.complex128)
    assert nfft.fft(h, out=out) is out
    check(out, np.fft.fft(h), None)
    out = np.full((5, 10), np.nan, dtype=np.float32)  # 'same_kind' into float32
    assert nfft.irfft(h, out=out) is out
    check(out, np.fft.irfft(h).astype(np.float32), None, tol=1e-6)
    check(nfft.fftshift(r), np.fft.fftshift(r), None, tol=0)
    check(nfft.ifftshift(r, axes=0), np.fft.ifftshift(r, axes=0), None, tol=0)
    h2 = h.copy()
    nfft.irfftn(h)  # c2r works on a private copy of its input
    nfft.hfft(h)
    assert np.array_equal(h, h2)


def test_numpy_functions_on_npgpu_arrays(array_device, random_array):
    h = random_array((4, 6), np.complex128)
    r = random_array((4, 6), np.float64)
    x, xr = npgpu.asarray(h), npgpu.asarray(r)
    for name in ONE_D + ND + ["fft2", "ifft2", "rfft2", "irfft2"]:
        a, ha = (xr, r) if name in REAL_INPUT else (x, h)
        got = getattr(np.fft, name)(a, norm="forward")
        check(got, getattr(np.fft, name)(ha, norm="forward"), array_device, n=ha.size)
    check(np.fft.fft(x, n=9, axis=0), np.fft.fft(h, n=9, axis=0), array_device)
    check(np.fft.fftshift(xr, axes=1), np.fft.fftshift(r, axes=1), array_device, tol=0)
    check(np.fft.ifftshift(xr), np.fft.ifftshift(r), array_device, tol=0)
    with pytest.raises(TypeError, match="cannot mix"):
        np.fft.fft(x, out=np.empty((4, 6), dtype=np.complex128))


# ------------------------------------------------------------------------------------------------ helpers

@pytest.mark.parametrize("n", [1, 2, 5, 8, 1009])
def test_fftfreq_rfftfreq(array_device, n):
    for d in (1.0, 0.25, 3, np.float32(0.1)):
        got = nfft.fftfreq(n, d)
        assert isinstance(got, npgpu.Array) and str(got.device) == str(npgpu.asarray(0).device)
        want = np.fft.fftfreq(n, d)
        assert got.dtype == want.dtype and np.array_equal(got.get(), want)
        got = nfft.rfftfreq(n, d=d)
        want = np.fft.rfftfreq(n, d)
        assert got.dtype == want.dtype and np.array_equal(got.get(), want)
    got = nfft.fftfreq(n, d=0.5, dtype=np.float32, device="cpu")
    assert got.dtype == np.float32 and str(got.device) == "cpu"
    assert np.array_equal(got.get(), np.fft.fftfreq(n, 0.5).astype(np.float32))
    got = nfft.rfftfreq(n, dtype=npgpu.float32, device=array_device)
    assert got.dtype == np.float32 and np.array_equal(got.get(), np.fft.rfftfreq(n).astype(np.float32))


def test_fftfreq_errors(array_device):
    for f in ("fftfreq", "rfftfreq"):
        raises_as_numpy(lambda: getattr(nfft, f)(4.0), lambda: getattr(np.fft, f)(4.0))
        raises_as_numpy(lambda: getattr(nfft, f)(0), lambda: getattr(np.fft, f)(0))
        raises_as_numpy(lambda: getattr(nfft, f)(4, d=0), lambda: getattr(np.fft, f)(4, d=0))
        with pytest.raises(ValueError, match="real floating"):
            getattr(nfft, f)(4, dtype=np.int64)
    raises_as_numpy(lambda: nfft.fftfreq(-3), lambda: np.fft.fftfreq(-3))
    assert nfft.rfftfreq(-3).shape == np.fft.rfftfreq(-3).shape == (0,)


@pytest.mark.parametrize("shape", [(1,), (6,), (7,), (4, 5), (3, 4, 5), (2, 3, 4, 5)], ids=str)
def test_fftshift_ifftshift(array_device, random_array, shape):
    h = random_array(shape, np.float64)
    x = npgpu.asarray(h)
    nd = len(shape)
    choices = [None, 0, -1, tuple(range(nd)), (0, 0), (-1, 0)] + ([(nd - 1, 0, -2)] if nd > 1 else [])
    for axes in choices:
        for name in ("fftshift", "ifftshift"):
            check(getattr(nfft, name)(x, axes=axes), getattr(np.fft, name)(h, axes=axes), array_device, tol=0)
    check(nfft.ifftshift(nfft.fftshift(x)), h, array_device, tol=0)
    raises_as_numpy(lambda: nfft.fftshift(x, axes=nd), lambda: np.fft.fftshift(h, axes=nd))


# ------------------------------------------------------------------------------------------------ errors

def test_errors_as_numpy(array_device, random_array):
    h = random_array((3, 4), np.complex128)
    r = random_array((3, 4), np.float64)
    x, xr = npgpu.asarray(h), npgpu.asarray(r)
    for name in ONE_D + ND + ["fft2", "ifft2", "rfft2", "irfft2"]:
        a, ha = (xr, r) if name in REAL_INPUT else (x, h)
        f, g = getattr(nfft, name), getattr(np.fft, name)
        with pytest.raises(ValueError, match="Invalid norm value"):
            f(a, norm="bad")
        raises_as_numpy(lambda: f(a, norm="bad"), lambda: g(ha, norm="bad"))
        if name in ONE_D:
            for n in (0, -1):
                e = raises_as_numpy(lambda: f(a, n=n), lambda: g(ha, n=n))
                assert isinstance(e, ValueError)
            raises_as_numpy(lambda: f(a, n=2.0), lambda: g(ha, n=2.0))
            raises_as_numpy(lambda: f(a, axis=2), lambda: g(ha, axis=2))
            # the axis and the length are checked before the norm, as NumPy does
            raises_as_numpy(lambda: f(a, axis=2, norm="bad"), lambda: g(ha, axis=2, norm="bad"))
            e = raises_as_numpy(lambda: f(a, n=0, norm="bad"), lambda: g(ha, n=0, norm="bad"))
            with pytest.raises(ValueError, match=f"Invalid {str(e).split()[1]}"):  # the same check fails first
                f(a, n=0, norm="bad")
            raises_as_numpy(lambda: f(a, n=3, axis=-3), lambda: g(ha, n=3, axis=-3))
        else:
            raises_as_numpy(lambda: f(a, axes=(0, 5)), lambda: g(ha, axes=(0, 5)))
            raises_as_numpy(lambda: f(a, s=(3, 4, 5), axes=(0, 1)), lambda: g(ha, s=(3, 4, 5), axes=(0, 1)))
            raises_as_numpy(lambda: f(a, s=(0, 4), axes=(0, 1)), lambda: g(ha, s=(0, 4), axes=(0, 1)))
            raises_as_numpy(lambda: f(a, s=(-2, 4), axes=(0, 1)), lambda: g(ha, s=(-2, 4), axes=(0, 1)))
            raises_as_numpy(lambda: f(a, s=3, axes=(0,)), lambda: g(ha, s=3, axes=(0,)))
            raises_as_numpy(lambda: f(a, s=(3,), axes=(0, 1)), lambda: g(ha, s=(3,), axes=(0, 1)))
    # rfft of complex data, n of a zero-length axis, 0-d input, no axes for the real transforms
    for name in ("rfft", "ihfft", "rfftn", "rfft2"):
        raises_as_numpy(lambda: getattr(nfft, name)(x), lambda: getattr(np.fft, name)(h))
    z = np.ones((0, 3))
    for name in ONE_D:
        raises_as_numpy(lambda: getattr(nfft, name)(npgpu.asarray(z), axis=0), lambda: getattr(np.fft, name)(z, axis=0))
    raises_as_numpy(lambda: nfft.irfft(npgpu.asarray(np.ones((2, 1))), axis=1),
                    lambda: np.fft.irfft(np.ones((2, 1)), axis=1))
    s0 = np.float64(2.0)
    for name in ONE_D:
        raises_as_numpy(lambda: getattr(nfft, name)(npgpu.asarray(s0)), lambda: getattr(np.fft, name)(s0))
        raises_as_numpy(lambda: getattr(nfft, name)(npgpu.asarray(s0), n=2), lambda: getattr(np.fft, name)(s0, n=2))
    raises_as_numpy(lambda: nfft.rfftn(xr, axes=()), lambda: np.fft.rfftn(r, axes=()))
    raises_as_numpy(lambda: nfft.irfftn(x, axes=()), lambda: np.fft.irfftn(h, axes=()))


def test_zero_length_and_empty_axes(array_device, random_array):
    # a zero-length axis that is not transformed gives an empty result; with n it is padded
    z = np.ones((0, 3))
    for name in ONE_D:
        check(getattr(nfft, name)(npgpu.asarray(z), axis=1), getattr(np.fft, name)(z, axis=1), array_device)
        check(getattr(nfft, name)(npgpu.asarray(z), n=4, axis=0), getattr(np.fft, name)(z, n=4, axis=0), array_device)
    for name in ND:
        check(getattr(nfft, name)(npgpu.asarray(z), axes=(1,)), getattr(np.fft, name)(z, axes=(1,)), array_device)
        check(getattr(nfft, name)(npgpu.asarray(z), s=(2, 4), axes=(0, 1)),
              getattr(np.fft, name)(z, s=(2, 4), axes=(0, 1)), array_device)
    # fftn over no axes (and of a 0-d array) returns its input as it is, as NumPy does
    h = random_array((3, 4), np.float64)
    x = npgpu.asarray(h)
    assert nfft.fftn(x, axes=()) is x
    assert np.fft.fftn(h, axes=()) is h and nfft.fftn(h, axes=()).dtype == np.float64
    s0 = npgpu.asarray(np.float64(2.0))
    assert nfft.fftn(s0) is s0 and nfft.ifftn(s0) is s0


def test_s_without_axes_is_deprecated_as_in_numpy(array_device, random_array):
    h = random_array((3, 4, 5), np.complex128)
    r = random_array((3, 4, 5), np.float64)
    for name in ND:
        ha = r if name in REAL_INPUT else h
        x = npgpu.asarray(ha)
        for s, axes, message in (((3, 6), None, "`axes` should not be `None`"),
                                 ((None, 7), (0, 2), "containing `None`")):
            with pytest.warns(DeprecationWarning, match=message):
                got = getattr(nfft, name)(x, s=s, axes=axes)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                want = getattr(np.fft, name)(ha, s=s, axes=axes)
            check(got, want, array_device)


# ------------------------------------------------------------------------------------------------ primitives

def _dft(h, axes, forward):
    """Unnormalized DFT by definition (NumPy's fftn without a factor), complex128."""
    h = h.astype(np.complex128)
    if forward:
        return np.fft.fftn(h, axes=axes)
    return np.fft.ifftn(h, axes=axes, norm="forward")


def test_primitives_contract(array_device, random_array):
    # What the front-end relies on, on each device (npgpu._fft's c2c/r2c/c2r on a GPU): unnormalized,
    # new C-contiguous arrays on the input's device, any input strides, 1 to 3 distinct axes.
    dev = npgpu.asarray(np.zeros(0)).device
    prims = nfft._primitives(dev)
    for cdt, rdt in ((np.complex128, np.float64), (np.complex64, np.float32)):
        h = random_array((4, 5, 6, 3), cdt)
        r = random_array((4, 5, 6, 3), rdt)
        for axes in ((3,), (0,), (1, 3), (2, 0), (0, 1, 2), (3, 1, 0)):
            for view in (lambda a: a, lambda a: a[::-1, :, ::2], lambda a: a.transpose(2, 0, 3, 1)[:, ::-1]):
                hv, rv = view(h), view(r)
                x, xr = view(npgpu.asarray(h)), view(npgpu.asarray(r))
                for forward in (True, False):
                    y = prims.c2c(x, axes, forward)
                    assert y.flags["C_CONTIGUOUS"] and y.dtype == cdt and str(y.device) == str(dev)
                    check(y, _dft(hv, axes, forward).astype(cdt), array_device, n=h.size)
                y = prims.r2c(xr, axes)
                want = np.fft.rfftn(rv.astype(np.float64), axes=axes).astype(cdt)
                assert y.flags["C_CONTIGUOUS"]
                check(y, want, array_device, n=h.size)
                # c2r of a Hermitian half-spectrum (made by r2c), both parities of n_last
                for n_last in (rv.shape[axes[-1]], rv.shape[axes[-1]] + 1):
                    s = [rv.shape[a] for a in axes[:-1]] + [n_last]
                    spec = np.fft.rfftn(np.fft.irfftn(hv, s=s, axes=axes), axes=axes).astype(cdt)
                    y = prims.c2r(npgpu.asarray(spec), axes, n_last)
                    want = (np.fft.irfftn(spec.astype(np.complex128), s=s, axes=axes) * math.prod(s)).astype(rdt)
                    assert y.flags["C_CONTIGUOUS"] and y.dtype == rdt
                    check(y, want, array_device, n=h.size)
        # inputs of c2c and r2c are not written
        assert np.array_equal(npgpu.asarray(h).get(), h)
    x = npgpu.asarray(random_array((2, 2, 2, 2), np.complex128))
    for bad in ((), (0, 1, 2, 3)):
        with pytest.raises(ValueError):
            prims.c2c(x, bad, True)
        with pytest.raises(ValueError):
            prims.r2c(x.real.copy(), bad)
        with pytest.raises(ValueError):
            prims.c2r(x, bad, 2)


class _Spy:
    """Host primitives that record their calls and check that c2r gets Hermitian planes."""

    def __init__(self):
        self.calls = []

    def c2c(self, x, axes, forward):
        self.calls.append(("c2c", tuple(axes), forward))
        return nfft._HOST.c2c(x, axes, forward)

    def r2c(self, x, axes):
        self.calls.append(("r2c", tuple(axes)))
        return nfft._HOST.r2c(x, axes)

    def c2r(self, x, axes, n_last):
        self.calls.append(("c2r", tuple(axes), n_last))
        h = np.asarray(x)
        assert h.shape[axes[-1]] == n_last // 2 + 1
        planes = [0] + ([n_last // 2] if n_last % 2 == 0 else [])
        for k in planes:
            p = np.take(h, [k], axis=axes[-1])
            outer = axes[:-1]
            v = np.fft.ifftn(p, axes=outer) if outer else p
            assert np.max(np.abs(v.imag)) <= 1e-12 * max(np.max(np.abs(v)), 1e-300), "non-Hermitian plane"
        return nfft._HOST.c2r(x, axes, n_last)


def test_decomposition_into_primitives(random_array, monkeypatch):
    spy = _Spy()
    monkeypatch.setattr(nfft, "_primitives", lambda device: spy)
    h = random_array((2, 3, 4, 5, 6), np.complex128)
    r = random_array((2, 3, 4, 5, 6), np.float64)
    x, xr = npgpu.asarray(h, device="cpu"), npgpu.asarray(r, device="cpu")
    cases = [
        (lambda: nfft.fft(x), [("c2c", (4,), True)]),
        (lambda: nfft.ifft2(x), [("c2c", (3, 4), False)]),
        (lambda: nfft.fftn(x), [("c2c", (2, 3, 4), True), ("c2c", (0, 1), True)]),
        (lambda: nfft.fftn(x, axes=(0, 0)), [("c2c", (0,), True), ("c2c", (0,), True)]),
        (lambda: nfft.rfft(xr, axis=1), [("r2c", (1,))]),
        (lambda: nfft.rfftn(xr, axes=(0, 2, 4)), [("r2c", (0, 2, 4))]),
        (lambda: nfft.rfftn(xr), [("r2c", (2, 3, 4)), ("c2c", (0, 1), True)]),
        (lambda: nfft.irfft(x, n=9), [("c2r", (4,), 9)]),
        (lambda: nfft.hfft(x, axis=2), [("c2r", (2,), 6)]),
        (lambda: nfft.ihfft(xr), [("r2c", (4,))]),
        (lambda: nfft.irfftn(x, axes=(1, 3)), [("c2r", (1, 3), 8)]),
        (lambda: nfft.irfftn(x, s=(3, 4, 7), axes=(0, 1, 2)), [("c2r", (0, 1, 2), 7)]),
        (lambda: nfft.irfftn(x), [("c2c", (0, 1), False), ("c2r", (2, 3, 4), 10)]),
        (lambda: nfft.irfftn(x, axes=(2, 2)), [("c2c", (2,), False), ("c2r", (2,), 6)]),
    ]
    for run, expected in cases:
        spy.calls.clear()
        run()
        assert spy.calls == expected, (spy.calls, expected)
    # every call spans 1 to 3 distinct axes, for the largest choices too
    for run in (lambda: nfft.ifftn(x), lambda: nfft.rfftn(xr, axes=(4, 3, 2, 1, 0)), lambda: nfft.irfftn(x)):
        spy.calls.clear()
        run()
        for call in spy.calls:
            assert 1 <= len(call[1]) <= 3 and len(set(call[1])) == len(call[1])


def test_host_primitive_check():
    x = npgpu.asarray(np.ones((2, 2, 2, 2), np.complex128), device="cpu")
    with pytest.raises(ValueError, match="1 to 3 axes"):
        nfft._HOST.c2c(x, (0, 1, 2, 3), True)


# ------------------------------------------------------------------------------------------------ config

def test_config_without_and_with_the_gpu_module(monkeypatch):
    monkeypatch.setattr(nfft, "_fft_module", lambda: None)
    cfg = nfft._Config()
    assert cfg.plan_cache_info()["plans"] == 0
    assert cfg.clear_plan_cache() is None
    cfg.set_plan_cache_limits(max_plans=4, max_bytes=1 << 20)
    info = cfg.plan_cache_info()
    assert info["max_plans"] == 4 and info["max_bytes"] == 1 << 20 and info["plans"] == 0
    with pytest.raises(ValueError):
        cfg.set_plan_cache_limits(max_plans=-1)
    with pytest.raises(TypeError):
        cfg.set_plan_cache_limits(max_bytes=1.5)
    calls = []

    class Fake:
        def plan_cache_info(self):
            return {"plans": 3, "bytes": 10, "max_plans": 8, "max_bytes": None}

        def set_plan_cache_limits(self, max_plans, max_bytes):
            calls.append((max_plans, max_bytes))

        def clear_plan_cache(self):
            calls.append("clear")

    monkeypatch.setattr(nfft, "_fft_module", lambda: Fake())
    assert cfg.plan_cache_info()["plans"] == 3
    cfg.set_plan_cache_limits(max_plans=8)
    cfg.clear_plan_cache()
    assert calls == [(8, None), "clear"]
    assert "plans" in repr(nfft.config)


def test_namespace():
    assert npgpu.fft is nfft and "fft" in npgpu.__all__
    for name in ("fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft", "fftfreq",
                 "rfftfreq", "fftshift", "ifftshift", "fft2", "ifft2", "rfft2", "irfft2"):
        assert callable(getattr(npgpu.fft, name)) and name in nfft.__all__
        assert getattr(npgpu.fft, name).__doc__
    x = npgpu.asarray(np.arange(4.0), device="cpu")
    assert x.__array_namespace__().fft.fft(x).dtype == np.complex128


def test_diffusion_demo_field_matches_numpy_fft():
    # The demo's starting field goes through npgpu.fft; with NumPy's FFT it is the same image.
    from npgpu._demo_diffusion import jagged_field

    got = jagged_field(48, 40)
    r = np.random.default_rng(3966789)
    f = np.fft.fftshift(np.fft.fft2(r.random(size=(48, 40), dtype=np.float32)))
    radius = 1 + np.sqrt((np.arange(48).reshape(-1, 1) - 24) ** 2 + (np.arange(40).reshape(1, -1) - 20) ** 2)
    f = np.fft.ifft2(np.fft.ifftshift(f * radius ** -1.7)) * (radius < 0.45 * 48)
    want = (f.real * (f.real > np.percentile(f.real, 70))).astype(np.float32)
    assert got.dtype == np.float32 and got.shape == (48, 40)
    close = np.isclose(got, want, rtol=1e-4, atol=1e-5)
    assert close.mean() > 0.995  # pixels at the percentile threshold may flip with rounding
    assert np.count_nonzero(got) > 0.25 * got.size
