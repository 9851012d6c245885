"""npgpu's ufunc objects (python/npgpu/_ufuncs.py) against NumPy: attributes, call keywords (out=, where=,
dtype=, signature=, casting=, order=, subok=), the methods reduce/accumulate/reduceat/outer/at, and the
ufuncs composed of npgpu operations (divmod, fmod, modf, frexp, ldexp, gcd, lcm, bitwise_count, spacing),
for NumPy inputs (``backend``) and npgpu.Arrays (``array_device``)."""
import pickle

import numpy as np
import pytest

import npgpu
from npgpu import _ufuncs

NP_UFUNCS = sorted(n for n in dir(np) if isinstance(getattr(np, n), np.ufunc))
WRAPPED = [n for n in NP_UFUNCS if n not in _ufuncs._NOT_WRAPPED]
INTS = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)
FLOATS = (np.float16, np.float32, np.float64)


def host(r):
    """A NumPy view of a result (npgpu.Array -> ndarray; NumPy results as they are)."""
    if isinstance(r, tuple):
        return tuple(host(x) for x in r)
    return r.get() if isinstance(r, npgpu.Array) else r


def dev(x, device):
    return npgpu.asarray(np.asarray(x), device=device)


def same_values(r, e, exact=True):
    r, e = np.asarray(host(r)), np.asarray(e)
    assert r.dtype == e.dtype, f"dtype {r.dtype}, NumPy gives {e.dtype}"
    assert r.shape == e.shape, f"shape {r.shape}, NumPy gives {e.shape}"
    if exact or r.dtype.kind not in "fc":
        if r.dtype.kind in "fc":
            np.testing.assert_array_equal(r, e)
            # signed zeros too
            assert np.array_equal(np.signbit(r.real[r.real == 0]), np.signbit(e.real[e.real == 0]))
        else:
            np.testing.assert_array_equal(r, e)
    else:
        tol = {2: 2e-3, 4: 1e-5, 8: 1e-12, 16: 1e-12}[r.dtype.itemsize]
        scale = float(np.max(np.abs(e[np.isfinite(e)]), initial=0))
        np.testing.assert_allclose(r, e, rtol=tol, atol=tol * scale, equal_nan=True)


# ------------------------------------------------------------------------------------------ attributes

def test_every_numeric_numpy_ufunc_is_an_npgpu_ufunc():
    assert set(_ufuncs._NOT_WRAPPED) <= {"isnat", "matmul", "matvec", "vecmat", "vecdot"}
    for name in WRAPPED:
        u = getattr(_ufuncs, name)
        if name not in _ufuncs._COMPOSED_EARLIER:
            assert getattr(npgpu, name) is u, name
            assert name in npgpu.__all__
        assert isinstance(u, npgpu.ufunc), name
        ref = getattr(np, name)
        assert u.__name__ == ref.__name__
        assert repr(u) == f"<ufunc '{ref.__name__}'>"
        assert (u.nin, u.nout, u.nargs, u.ntypes, u.signature) == (ref.nin, ref.nout, ref.nargs, ref.ntypes,
                                                                    ref.signature), name
        assert u.types == ref.types
        assert u.identity == ref.identity or (u.identity is None and ref.identity is None), name
        assert u.__doc__, name


def test_aliases_are_the_same_object_as_in_numpy():
    for name in WRAPPED:
        for other in WRAPPED:
            if getattr(np, name) is getattr(np, other):
                assert getattr(_ufuncs, name) is getattr(_ufuncs, other), (name, other)
    assert npgpu.abs is npgpu.absolute and npgpu.pow is npgpu.power and npgpu.divide is npgpu.true_divide


def test_pickle_and_identity_values():
    assert pickle.loads(pickle.dumps(npgpu.add)) is npgpu.add
    assert npgpu.add.identity == 0 and npgpu.multiply.identity == 1 and npgpu.maximum.identity is None
    assert npgpu.logical_and.identity is True and npgpu.bitwise_and.identity == -1
    assert npgpu.divmod.nout == 2 and npgpu.frexp.nout == 2 and npgpu.modf.nout == 2


# ------------------------------------------------------------------------------------------ calls

def test_fast_path_is_the_compiled_function(backend):
    a = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(npgpu.add(a, 1), a + 1)
    out = np.empty_like(a)
    assert npgpu.add(a, a, out) is out
    assert npgpu.add(a, a, out=out) is out
    assert npgpu.add(a, a, out=(out,)) is out
    np.testing.assert_array_equal(out, 2 * a)


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint16, np.float32, np.float64, np.complex64])
def test_where_with_out(backend, random_array, dtype):
    a, b = random_array((3, 4), dtype), random_array((4,), dtype)
    mask = np.array([True, False, True, True])
    out = random_array((3, 4), dtype)
    want = out.copy()
    np.add(a, b, out=want, where=mask)
    got = npgpu.add(a, b, out=out, where=mask)
    assert got is out
    same_values(out, want)


def test_where_without_out_allocates(backend):
    a = np.arange(6.0).reshape(2, 3)
    mask = a > 2
    r = npgpu.multiply(a, 3, where=mask)
    assert r.shape == a.shape and r.dtype == np.float64
    np.testing.assert_array_equal(r[mask], (a * 3)[mask])
    r = npgpu.sqrt(a, where=False, out=np.full_like(a, 7.0))
    np.testing.assert_array_equal(r, 7.0)


def test_where_without_out_fills_masked_elements_with_computed_values(array_device):
    # Unspecified in NumPy (uninitialised); npgpu's are the computed values, read from nothing uninitialised,
    # also where the mask broadcasts the result to a larger shape.
    a = np.arange(3.0)
    mask = np.array([[True, False, True], [False, False, True]])
    r = npgpu.multiply(dev(a, array_device), 3, where=dev(mask, array_device))
    assert r.shape == (2, 3)
    np.testing.assert_array_equal(host(r), np.broadcast_to(a * 3, (2, 3)))
    r = npgpu.negative(dev(np.stack([a, a + 1]), array_device), where=dev(mask[0], array_device))
    np.testing.assert_array_equal(host(r), -np.stack([a, a + 1]))


def test_where_device(array_device, random_array):
    a = random_array((5, 3), np.float32)
    m = np.array([[True], [False], [True], [False], [True]])
    out0 = random_array((5, 3), np.float32)
    want = out0.copy()
    np.subtract(a, 1.5, out=want, where=m)
    out = dev(out0, array_device)
    r = npgpu.subtract(dev(a, array_device), 1.5, out=out, where=dev(m, array_device))
    assert r is out
    same_values(out, want)
    r = npgpu.negative(dev(a, array_device), where=dev(m, array_device))
    assert isinstance(r, npgpu.Array)
    np.testing.assert_array_equal(host(r)[np.broadcast_to(m, a.shape)], -a[np.broadcast_to(m, a.shape)])


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int16, np.complex128])
def test_dtype_keyword(backend, array_device, dtype):
    a = np.arange(-3, 9).reshape(3, 4).astype(np.int8)
    want = np.add(a, a, dtype=dtype)
    same_values(npgpu.add(a, a, dtype=dtype), want)
    same_values(npgpu.add(dev(a, array_device), dev(a, array_device), dtype=dtype), want)
    want = np.sqrt(np.abs(a), dtype=np.float32)
    same_values(npgpu.sqrt(np.abs(a), dtype=np.float32), want, exact=False)
    same_values(npgpu.multiply(a, 2.5, dtype=np.float32), np.multiply(a, 2.5, dtype=np.float32))


def test_signature_keyword(backend):
    a = np.arange(5, dtype=np.int16)
    same_values(npgpu.add(a, a, signature=(None, None, np.float64)), np.add(a, a, signature=(None, None, "f8")))
    same_values(npgpu.add(a, a, signature="dd->d"), np.add(a, a, signature="dd->d"))
    with pytest.raises(TypeError, match="both"):
        npgpu.add(a, a, signature="dd->d", dtype=float)


@pytest.mark.parametrize("call", [
    lambda m, f, i: m.add(f, f, dtype=int),
    lambda m, f, i: m.add(i, 1.5, dtype=int),
    lambda m, f, i: m.add(f, f, out=np.empty(3, np.int64)),
    lambda m, f, i: m.add(i, i.astype(np.int32), casting="no"),
    lambda m, f, i: m.add(i.astype(np.int8), i.astype(np.int8), out=np.empty(3, np.int64), casting="no"),
    lambda m, f, i: m.equal(i, i, dtype=float),
    lambda m, f, i: m.sqrt(f, out=np.empty(3, np.int32)),
    lambda m, f, i: m.divmod(f, f, out=(np.empty(3, np.int64), np.empty(3, np.int64))),
])
def test_casting_errors_as_numpy(backend, call):
    f, i = np.ones(3), np.arange(3)
    with pytest.raises(TypeError) as want:
        call(np, f, i)
    with pytest.raises(TypeError) as got:
        call(npgpu, f, i)
    assert str(got.value).split(" from ")[0].rstrip(" 0123456789") == \
        str(want.value).split(" from ")[0].rstrip(" 0123456789")


def test_casting_unsafe_and_safe(backend, array_device):
    f = np.array([1.7, -2.2, 3.9])
    same_values(npgpu.add(f, f, dtype=np.int64, casting="unsafe"), np.add(f, f, dtype=np.int64, casting="unsafe"))
    out = np.empty(3, np.int32)
    npgpu.add(f, f, out=out, casting="unsafe")
    np.testing.assert_array_equal(out, np.add(f, f, out=np.empty(3, np.int32), casting="unsafe"))
    o = npgpu.empty(3, dtype=np.int32, device=array_device)
    assert npgpu.add(dev(f, array_device), 1.0, out=o, casting="unsafe") is o
    np.testing.assert_array_equal(host(o), (f + 1).astype(np.int32))
    same_values(npgpu.add(np.arange(3), 1, casting="no"), np.add(np.arange(3), 1, casting="no"))
    with pytest.raises(ValueError, match="casting must be"):
        npgpu.add(f, f, casting="bogus")


def test_order_keyword(backend, array_device):
    a = np.arange(12.0).reshape(3, 4)
    r = npgpu.add(a, 1, order="F")
    assert r.flags.f_contiguous and not r.flags.c_contiguous
    np.testing.assert_array_equal(r, a + 1)
    r = npgpu.add(np.asfortranarray(a), 1, order="A")
    assert r.flags.f_contiguous
    assert npgpu.add(np.asfortranarray(a), 1, order="C").flags.c_contiguous
    d = npgpu.add(dev(a, array_device), 1, order="F")
    assert d.T.flags["C_CONTIGUOUS"] and not d.flags["C_CONTIGUOUS"]
    np.testing.assert_array_equal(host(d), a + 1)
    with pytest.raises(ValueError, match="order must be one of"):
        npgpu.add(a, 1, order="X")


def test_subok_and_bad_keywords(backend):
    a = np.arange(3.0)
    same_values(npgpu.add(a, a, subok=False), a + a)
    same_values(npgpu.add(a, a, subok=True, where=True), a + a)
    with pytest.raises(TypeError, match="unexpected keyword"):
        npgpu.add(a, a, bogus=1)
    with pytest.raises(TypeError, match="positional"):
        npgpu.add(a, where=True)
    with pytest.raises(TypeError, match="both"):
        npgpu.add(a, a, np.empty(3), out=np.empty(3), where=True)
    with pytest.raises(TypeError, match="subclass"):
        npgpu.add(np.ma.masked_array([1.0, 2.0], mask=[0, 1]), 1.0, where=True)


def test_zero_d_and_zero_size(backend, array_device):
    same_values(npgpu.add(np.float32(2), np.float32(3), dtype=np.float64), np.add(np.float32(2), np.float32(3),
                                                                              dtype=np.float64))
    e = np.empty((0, 3))
    same_values(npgpu.add(e, 1.0, where=True, dtype=np.float32), np.add(e, 1.0, dtype=np.float32))
    same_values(npgpu.add(dev(e, array_device), 1.0, dtype=np.float32), np.add(e, 1.0, dtype=np.float32))
    same_values(npgpu.gcd(np.array(12), np.array(18)), np.gcd(np.array(12), np.array(18)))
    assert type(npgpu.gcd(np.array(12), np.array(18))) is np.int64
    same_values(npgpu.frexp(np.empty(0))[1], np.frexp(np.empty(0))[1])
    r = npgpu.divmod(dev(np.empty((2, 0), np.int32), array_device), 3)
    assert isinstance(r, tuple) and host(r[0]).shape == (2, 0) and host(r[0]).dtype == np.int32


# ------------------------------------------------------------------------------------------ reduce

REDUCERS = ["add", "multiply", "maximum", "minimum", "logical_and", "logical_or", "bitwise_and", "bitwise_or",
            "bitwise_xor", "subtract", "gcd", "lcm", "fmax", "fmin", "logaddexp", "hypot", "floor_divide",
            "equal", "logical_xor"]


def _reduce_input(name, dtype, rng, shape):
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(shape) < 0.6
    if dtype.kind in "iu":
        return rng.integers(1, 7, size=shape).astype(dtype)
    return rng.uniform(-2, 2, size=shape).astype(dtype) + (3 if name in ("hypot", "floor_divide") else 0)


@pytest.mark.parametrize("name", REDUCERS)
@pytest.mark.parametrize("axis", [0, 1, -1, None, (0, 2)])
def test_reduce_against_numpy(array_device, rng, name, axis):
    npu, u = getattr(np, name), getattr(_ufuncs, name)
    for dtype in (np.int32, np.uint8, np.float64, np.bool_, np.float32):
        a = _reduce_input(name, dtype, rng, (3, 4, 5))
        try:
            with np.errstate(all="ignore"):
                want = npu.reduce(a, axis=axis)
        except (TypeError, ValueError) as e:
            with pytest.raises(type(e)):
                u.reduce(a, axis=axis)
            continue
        exact = name not in ("add", "multiply", "logaddexp", "hypot")
        got = u.reduce(a, axis=axis)
        assert type(got) is type(want)
        same_values(got, want, exact=exact)
        got = u.reduce(dev(a, array_device), axis=axis, keepdims=True)
        assert isinstance(got, npgpu.Array)
        with np.errstate(all="ignore"):
            want = npu.reduce(a, axis=axis, keepdims=True)
        same_values(got, want, exact=exact)


def test_reduce_keywords(backend, array_device):
    a = np.arange(1, 13, dtype=np.int16).reshape(3, 4)
    for mod, x in ((npgpu, a), (npgpu, dev(a, array_device))):
        same_values(mod.add.reduce(x), np.add.reduce(a))
        assert np.add.reduce(a).dtype == np.int64
        same_values(mod.add.reduce(x, dtype=np.float32), np.add.reduce(a, dtype=np.float32))
        same_values(mod.add.reduce(x, axis=1, initial=100), np.add.reduce(a, axis=1, initial=100))
        same_values(mod.maximum.reduce(x, axis=0, initial=7), np.maximum.reduce(a, axis=0, initial=7))
        same_values(mod.subtract.reduce(x, axis=1, initial=3), np.subtract.reduce(a, axis=1, initial=3))
        m = np.array([True, False, True, True])
        mm = m if isinstance(x, np.ndarray) else dev(m, array_device)
        same_values(mod.add.reduce(x, axis=1, where=mm), np.add.reduce(a, axis=1, where=m))
        same_values(mod.multiply.reduce(x, axis=None, where=mm), np.multiply.reduce(a, axis=None, where=m))
        same_values(mod.maximum.reduce(x, axis=1, where=mm, initial=-5), np.maximum.reduce(a, axis=1, where=m,
                                                                                          initial=-5))
        same_values(mod.subtract.reduce(x, axis=1, where=mm, initial=3), np.subtract.reduce(a, axis=1, where=m,
                                                                                           initial=3))
        same_values(mod.bitwise_or.reduce(x, axis=(0, 1), keepdims=True),
                    np.bitwise_or.reduce(a, axis=(0, 1), keepdims=True))
    out = np.empty(4, np.float64)
    assert npgpu.add.reduce(a, out=out) is out
    np.testing.assert_array_equal(out, a.sum(0))
    o = npgpu.empty(3, dtype=np.int64, device=array_device)
    assert npgpu.bitwise_xor.reduce(dev(a, array_device), axis=1, out=o) is o
    np.testing.assert_array_equal(host(o), np.bitwise_xor.reduce(a, axis=1))


def test_reduce_edges(backend):
    same_values(npgpu.add.reduce(np.array(5.0), axis=None), np.add.reduce(np.array(5.0), axis=None))
    same_values(npgpu.add.reduce(np.empty((0, 3)), axis=0), np.add.reduce(np.empty((0, 3)), axis=0))
    same_values(npgpu.bitwise_and.reduce(np.empty((2, 0), np.uint8), axis=1),
                np.bitwise_and.reduce(np.empty((2, 0), np.uint8), axis=1))
    same_values(npgpu.maximum.reduce(np.empty((0, 3)), axis=0, initial=1.5),
                np.maximum.reduce(np.empty((0, 3)), axis=0, initial=1.5))
    same_values(npgpu.maximum.reduce(np.empty((0, 3)), axis=1), np.maximum.reduce(np.empty((0, 3)), axis=1))
    with pytest.raises(ValueError, match="no identity"):
        npgpu.maximum.reduce(np.empty(0))
    with pytest.raises(ValueError, match="not reorderable"):
        npgpu.subtract.reduce(np.ones((2, 3)), axis=(0, 1))
    with pytest.raises(ValueError, match="initial"):
        npgpu.maximum.reduce(np.ones(3), where=np.array([True, False, True]))
    with pytest.raises(ValueError, match="binary"):
        npgpu.sin.reduce(np.ones(3))
    with pytest.raises(ValueError, match="single value"):
        npgpu.divmod.reduce(np.ones(3))
    with pytest.raises(np.exceptions.AxisError):
        npgpu.add.reduce(np.ones(3), axis=1)


# ------------------------------------------------------------------------------------------ other methods

@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "bitwise_xor", "logical_or", "subtract",
                                  "gcd", "fmin", "hypot", "true_divide"])
def test_accumulate(array_device, rng, name):
    npu, u = getattr(np, name), getattr(_ufuncs, name)
    for dtype in (np.int8, np.uint32, np.float64, np.bool_):
        a = _reduce_input(name, dtype, rng, (4, 9))
        for axis in (0, 1, -1):
            try:
                with np.errstate(all="ignore"):
                    want = npu.accumulate(a, axis=axis)
            except TypeError:
                with pytest.raises(TypeError):
                    u.accumulate(a, axis=axis)
                continue
            exact = name not in ("add", "multiply", "hypot", "true_divide")
            same_values(u.accumulate(a, axis=axis), want, exact=exact)
            same_values(u.accumulate(dev(a, array_device), axis=axis), want, exact=exact)
    a = np.arange(1, 7, dtype=np.int16)
    if name in ("add", "multiply", "maximum", "subtract", "fmin", "hypot", "true_divide"):
        same_values(u.accumulate(a, dtype=np.float64), npu.accumulate(a, dtype=np.float64), exact=False)
    same_values(npgpu.add.accumulate(np.empty((0, 2)), axis=0), np.add.accumulate(np.empty((0, 2)), axis=0))


def test_accumulate_out_and_errors(backend):
    a = np.arange(1, 6.0)
    out = np.empty(5)
    assert npgpu.maximum.accumulate(a[::-1], out=out) is out
    np.testing.assert_array_equal(out, np.maximum.accumulate(a[::-1]))
    with pytest.raises(ValueError, match="binary"):
        npgpu.exp.accumulate(a)


def test_reduce_checks_axes_before_initial(array_device):
    # NumPy rejects the axes (several axes of a non-reorderable ufunc, a bad or repeated axis) before it
    # converts `initial` to the loop dtype; an initial out of range only then raises OverflowError
    x = npgpu.asarray(np.zeros((0, 0), np.uint8))
    for uf, kw, err in ((npgpu.subtract, dict(axis=None, initial=-5), "not reorderable"),
                        (npgpu.add, dict(axis=(0, 0), initial=-5), "duplicate"),
                        (npgpu.add, dict(axis=5, initial=-5), "out of bounds"),
                        (npgpu.add, dict(axis=0, initial=-5), "out of bounds for uint64")):  # add: uint8 sums in uint64
        with pytest.raises(OverflowError if err.endswith("uint64") else ValueError, match=err):
            uf.reduce(x, **kw)
        with pytest.raises(OverflowError if err.endswith("uint64") else ValueError, match=err):
            getattr(np, uf.__name__).reduce(np.zeros((0, 0), np.uint8), **kw)


@pytest.mark.parametrize("name", ["add", "maximum", "bitwise_or", "subtract", "multiply"])
def test_reduceat(array_device, name):
    npu, u = getattr(np, name), getattr(_ufuncs, name)
    a = np.arange(1, 25, dtype=np.int32).reshape(3, 8)
    for idx in ([0, 4, 1, 5], [0, 3, 3, 7], [2], [7, 0]):
        for axis, ix in ((1, idx), (0, [i % 3 for i in idx])):
            want = npu.reduceat(a, ix, axis=axis)
            same_values(u.reduceat(a, ix, axis=axis), want)
            same_values(u.reduceat(dev(a, array_device), ix, axis=axis), want)
    with pytest.raises(IndexError, match="out-of-bounds"):
        u.reduceat(a, [0, 9], axis=1)
    same_values(npgpu.add.reduceat(np.arange(6.0), [0, 2], dtype=np.float32),
                np.add.reduceat(np.arange(6.0), [0, 2], dtype=np.float32))


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "greater", "power", "arctan2", "gcd", "ldexp",
                                  "fmod", "divmod"])
def test_outer(array_device, name):
    npu, u = getattr(np, name), getattr(_ufuncs, name)
    if name == "ldexp":
        a, b = np.linspace(-2, 2, 6).reshape(2, 3), np.arange(-3, 4, dtype=np.int32)
    elif name == "gcd":
        a, b = np.arange(-6, 6).reshape(2, 6), np.arange(5)
    else:
        a, b = np.arange(1, 7.0).reshape(2, 3), np.array([1.5, -2.0, 3.0, 0.5])
    want = npu.outer(a, b)
    exact = name not in ("power", "arctan2")
    if npu.nout == 2:
        for g, w in zip(u.outer(a, b), want):
            same_values(g, w, exact)
        for g, w in zip(u.outer(dev(a, array_device), dev(b, array_device)), want):
            same_values(g, w, exact)
    else:
        same_values(u.outer(a, b), want, exact)
        same_values(u.outer(dev(a, array_device), dev(b, array_device)), want, exact)
    with pytest.raises(ValueError, match="binary"):
        npgpu.sqrt.outer(a, b)


def test_at(array_device):
    x = npgpu.zeros(5, dtype=np.float64, device=array_device)
    npgpu.add.at(x, np.array([0, 1, 1, 4]), 1.0)
    npgpu.subtract.at(x, np.array([4]), 3.0)
    np.testing.assert_array_equal(host(x), [1, 2, 0, 0, -2])
    with pytest.raises(NotImplementedError, match="multiply"):
        npgpu.multiply.at(x, np.array([0]), 2.0)


# ------------------------------------------------------------------------------------------ new ufuncs

def _both(array_device, name, *args, exact=True):
    """npgpu's `name` on NumPy inputs and on device arrays against NumPy's."""
    npu, u = getattr(np, name), getattr(_ufuncs, name)
    with np.errstate(all="ignore"):
        want = npu(*args)
    got = u(*args)
    got_d = u(*[dev(a, array_device) if isinstance(a, np.ndarray) else a for a in args])
    if npu.nout == 1:
        want, got, got_d = (want,), (got,), (got_d,)
    for w, g, gd in zip(want, got, got_d):
        assert type(g) is type(w)
        same_values(g, w, exact)
        assert isinstance(gd, npgpu.Array)
        same_values(gd, np.asarray(w), exact)


@pytest.mark.parametrize("dtype", INTS + FLOATS)
def test_divmod_and_fmod(array_device, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "u":
        a = np.array([0, 1, 7, 200, 255, 3, 9], dtype=dtype)
        b = np.array([3, 1, 2, 7, 16, 5, 9], dtype=dtype)
    else:
        a = np.array([-7, 7, -7, 7, 0, -1, 5, -100, 100, 3], dtype=dtype)
        b = np.array([2, -2, -2, 2, 3, 3, 1, 7, -7, 5], dtype=dtype)
    _both(array_device, "divmod", a, b)
    _both(array_device, "fmod", a, b)
    _both(array_device, "divmod", a, b[:1])
    _both(array_device, "fmod", a, 3)
    if dtype.kind == "f":
        s = np.array([-0.0, 0.0, np.inf, -np.inf, np.nan, 5.5, -5.5, 1e-3, 2.5, -2.5], dtype=dtype)
        t = np.array([3.0, -3.0, 2.0, 2.0, 1.0, np.inf, np.inf, -0.0, 0.75, 0.75], dtype=dtype)
        _both(array_device, "fmod", s, t)
        _both(array_device, "divmod", s[5:], t[5:])
    else:
        _both(array_device, "fmod", a, np.zeros_like(a))  # NumPy's result 0 (and a warning)


@pytest.mark.parametrize("dtype", FLOATS)
def test_modf_frexp_ldexp_spacing(array_device, dtype):
    fi = np.finfo(dtype)
    x = np.array([0.0, -0.0, 1.0, -1.0, 0.5, 3.75, -1234.5, np.inf, -np.inf, np.nan, fi.max, -fi.max, fi.tiny,
                  fi.smallest_subnormal, -fi.smallest_subnormal, fi.tiny / 4, 1.0 - fi.epsneg, -2.5], dtype=dtype)
    _both(array_device, "modf", x)
    _both(array_device, "frexp", x)
    _both(array_device, "spacing", x)
    n = np.array([0, 1, -1, 10, -10, 200, -200, 1100, -1100, 2000, -2000, 5000, -5000, 3, -3, 1, 0, -1],
                 dtype=np.int32)
    _both(array_device, "ldexp", x, n)
    _both(array_device, "ldexp", x, n.astype(np.int64))
    _both(array_device, "ldexp", x[:3], 4)


def test_ldexp_subnormal_rounding(array_device):
    m = np.array([1.5, 1.75, 1.25, 1.0 + 2.0 ** -52, -1.5, 3.0, 0.75], dtype=np.float64)
    for n in (-1070, -1074, -1075, -1060, -1022, -1023):
        _both(array_device, "ldexp", m, np.full(m.shape, n, dtype=np.int64))
    _both(array_device, "ldexp", np.array([1e-300, 5e-324]), np.array([2000, 2100]))
    _both(array_device, "ldexp", np.array([1e300, np.finfo(np.float64).max]), np.array([-2098, -2100]))


def test_frexp_of_integers_and_bool(array_device):
    _both(array_device, "frexp", np.array([0, 1, -3, 100], dtype=np.int8))
    _both(array_device, "modf", np.array([0, 1, -3], dtype=np.int64))
    _both(array_device, "ldexp", np.array([1, 2, 3], dtype=np.int16), np.array([1, 2, 3], dtype=np.int32))


@pytest.mark.parametrize("dtype", INTS)
def test_gcd_lcm(array_device, dtype):
    dtype = np.dtype(dtype)
    info = np.iinfo(dtype)
    hi = min(info.max, 10 ** 6)
    rng = np.random.default_rng(3)
    a = rng.integers(max(info.min + 1, -hi), hi, size=50).astype(dtype)
    b = rng.integers(max(info.min + 1, -hi), hi, size=50).astype(dtype)
    a[:4] = [0, 0, 1, 12]
    b[:4] = [0, 5, 0, 18]
    _both(array_device, "gcd", a, b)
    _both(array_device, "gcd", a, np.dtype(dtype).type(6))
    small_a, small_b = (a % 100).astype(dtype), (b % 100).astype(dtype)
    _both(array_device, "lcm", small_a, small_b)
    _both(array_device, "lcm", small_a.reshape(5, 10), small_b[:10])
    if info.bits == 64:  # Fibonacci neighbours: Euclid's worst case
        f = [1, 1]
        while f[-1] < info.max // 2:
            f.append(f[-1] + f[-2])
        _both(array_device, "gcd", np.array(f[-2:-1], dtype=dtype), np.array(f[-3:-2], dtype=dtype))


def test_gcd_refuses_floats(backend):
    with pytest.raises(TypeError):
        npgpu.gcd(np.ones(2), np.ones(2))
    with pytest.raises(TypeError):
        npgpu.gcd(np.array([True]), np.array([False]))


@pytest.mark.parametrize("dtype", INTS)
def test_shifts_and_bitwise_count(array_device, dtype):
    info = np.iinfo(dtype)
    a = np.array([0, 1, 5, info.max, info.min, info.max // 3] + ([-1, -5, info.min + 1] if info.min else [2, 3, 7]),
                 dtype=dtype)
    for s in (0, 1, 3, info.bits - 1, info.bits, info.bits + 1, 64, 65, 100):
        sh = np.full(a.shape, s, dtype=dtype) if s <= info.max else None
        if sh is None:
            continue
        _both(array_device, "left_shift", a, sh)
        _both(array_device, "right_shift", a, sh)
    _both(array_device, "bitwise_count", a)
    _both(array_device, "bitwise_count", np.array([True, False]))


def test_new_ufunc_keywords(backend, array_device):
    a = np.array([-7, 7, 9, -9], dtype=np.int32)
    b = np.array([2, 2, -4, -4], dtype=np.int32)
    q, r = np.empty(4, np.int64), np.empty(4, np.int64)
    got = npgpu.divmod(a, b, out=(q, r))
    assert got[0] is q and got[1] is r
    np.testing.assert_array_equal(q, np.floor_divide(a, b))
    np.testing.assert_array_equal(r, np.remainder(a, b))
    same_values(npgpu.fmod(a, b, dtype=np.float64), np.fmod(a, b, dtype=np.float64))
    mask = np.array([True, False, True, False])
    o = np.zeros(4, np.int32)
    npgpu.gcd(a, b, out=o, where=mask)
    np.testing.assert_array_equal(o, np.gcd(a, b, out=np.zeros(4, np.int32), where=mask))
    m, e = npgpu.frexp(dev(np.array([8.0, 0.1]), array_device))
    assert isinstance(m, npgpu.Array) and e.dtype == np.int32
    with pytest.raises(TypeError, match="host array"):
        npgpu.gcd(dev(a, array_device), b)
    same_values(npgpu.gcd.reduce(np.array([12, 18, 30])), np.gcd.reduce(np.array([12, 18, 30])))
    same_values(npgpu.lcm.accumulate(np.array([2, 3, 4, 5])), np.lcm.accumulate(np.array([2, 3, 4, 5])))


def test_out_of_the_wrong_type(backend):
    for u, args in ((npgpu.spacing, (np.ones(2),)), (npgpu.divmod, (np.ones(2), np.ones(2))),
                    (_ufuncs.fmax, (np.ones(2), np.ones(2))), (npgpu.add, (np.ones(2), np.ones(2)))):
        with pytest.raises(TypeError):
            u(*args, out="x")
        with pytest.raises(TypeError):
            u(*args, out="x", where=True)


# ------------------------------------------------------------------------------------------ NumPy's protocol

def test_numpy_ufunc_methods_on_arrays_run_in_npgpu(array_device):
    # np.<ufunc>.<method>(npgpu.Array, ...) reaches npgpu's ufunc object through Array.__array_ufunc__.
    h = (np.arange(24, dtype=np.float64).reshape(4, 6) - 7.5) * 0.25
    x = dev(h, array_device)
    for r, e in [(np.add.reduce(x, axis=1), np.add.reduce(h, axis=1)),
                 (np.maximum.reduce(x, axis=0, keepdims=True), np.maximum.reduce(h, axis=0, keepdims=True)),
                 (np.multiply.accumulate(x, axis=1), np.multiply.accumulate(h, axis=1)),
                 (np.add.reduceat(x, [0, 2, 5], axis=1), np.add.reduceat(h, [0, 2, 5], axis=1)),
                 (np.subtract.outer(x[0], x[1]), np.subtract.outer(h[0], h[1]))]:
        assert isinstance(r, npgpu.Array) and r.device == x.device
        same_values(r, e, exact=False)
    idx = np.array([0, 3, 3, 1, 0, 0])
    y, want = x.copy(), h.copy()
    assert np.add.at(y, (1, idx), 2.5) is None
    np.add.at(want, (1, idx), 2.5)
    same_values(y, want)


def test_numpy_ufunc_keywords_on_arrays_as_numpy(array_device):
    h = np.linspace(-3, 3, 12).reshape(3, 4)
    m = np.arange(12).reshape(3, 4) % 3 == 0
    x, mm = dev(h, array_device), dev(m, array_device)
    o, want = dev(np.full((3, 4), 9.0), array_device), np.full((3, 4), 9.0)
    assert np.add(x, 1.5, out=o, where=mm) is o
    np.add(h, 1.5, out=want, where=m)
    same_values(o, want)
    same_values(np.multiply(x, x, dtype=np.float32), np.multiply(h, h, dtype=np.float32), exact=False)
    r = np.add(dev(np.arange(4, dtype=np.int64), array_device), 1, casting="unsafe", dtype=np.int16)
    same_values(r, np.add(np.arange(4, dtype=np.int64), 1, casting="unsafe", dtype=np.int16))
    q, rem = np.divmod(x, 0.7)
    eq, erem = np.divmod(h, 0.7)
    same_values(q, eq, exact=False)
    same_values(rem, erem, exact=False)
    with pytest.raises(TypeError):  # NumPy's casting error, through npgpu's ufunc
        np.add(x, 1, casting="no", dtype=np.float32)


@pytest.mark.parametrize("axes, shapes", [
    ([(-2, -1), (-2, -1), (-2, -1)], [(2, 3, 4), (2, 4, 5)]),
    ([(0, 1), (0, 1), (0, 1)], [(3, 4, 2), (4, 5, 2)]),
    ([(2, 0), (1, 2), (0, 2)], [(4, 2, 3), (2, 4, 5)]),
    ([(0, 1), 0, 0], [(3, 4), (4,)]),
    ([(1, 0), (0, 1), (1, 0)], [(4, 2), (4, 3)]),
    ([0, 0, ()], [(4,), (4,)]),
])
def test_numpy_matmul_axes_on_arrays(array_device, axes, shapes):
    rng = np.random.default_rng(3)
    ha, hb = (rng.standard_normal(s) for s in shapes)
    want = np.matmul(ha, hb, axes=axes)
    got = np.matmul(dev(ha, array_device), dev(hb, array_device), axes=axes)
    assert isinstance(got, npgpu.Array)
    same_values(got, want, exact=False)
    if want.ndim:
        o = dev(np.full(want.shape, np.nan), array_device)
        assert np.matmul(dev(ha, array_device), dev(hb, array_device), axes=axes, out=o) is o
        same_values(o, want, exact=False)


def test_numpy_matmul_keyword_errors_as_numpy(array_device):
    from numpy.exceptions import AxisError
    h = np.ones((2, 3, 3))
    a = dev(h, array_device)
    for kw, error in [(dict(axes=[(0, 3), (0, 1), (0, 1)]), AxisError), (dict(axes=[(0, 1), (0, 1)]), ValueError),
                      (dict(axes=[(1, 1), (0, 1), (0, 1)]), ValueError), (dict(axes=[(0,), (0, 1), (0, 1)]), AxisError),
                      (dict(axes=[(0, 1), (0, 1), 5]), AxisError), (dict(axes=[[0, 1], (0, 1), (0, 1)]), TypeError),
                      (dict(axis=0), TypeError)]:
        with pytest.raises(error) as want:
            np.matmul(h, h, **kw)
        with pytest.raises(error) as got:
            np.matmul(a, a, **kw)
        assert str(got.value) == str(want.value), kw
    with pytest.raises(NotImplementedError, match="casting"):
        np.matmul(a, a, casting="unsafe")
    same_values(np.matmul(a, a, dtype=np.float32), np.matmul(h, h, dtype=np.float32))


@pytest.mark.skipif(not hasattr(np, "matvec"), reason="NumPy < 2.2 has no matvec/vecmat gufuncs")
def test_numpy_vector_gufuncs_on_arrays(array_device):
    rng = np.random.default_rng(5)
    m, v = rng.standard_normal((2, 3, 4)), rng.standard_normal(4) + 1j * rng.standard_normal(4)
    dm, dv = dev(m, array_device), dev(v, array_device)
    same_values(np.matvec(dm, dv), np.matvec(m, v), exact=False)
    same_values(np.vecmat(dv[:3], dm), np.vecmat(v[:3], m), exact=False)
    same_values(np.vecdot(dm, dm, axis=1), np.vecdot(m, m, axis=1), exact=False)
    o = dev(np.full((2, 3), np.nan + 0j), array_device)
    assert np.vecdot(dv, dm, out=o) is o
    same_values(o, np.vecdot(v, m), exact=False)
    with pytest.raises(NotImplementedError, match="axes"):
        np.vecdot(dm, dm, axes=[-1, -1, ()])
