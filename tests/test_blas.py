"""Matrix products (npgpu.matmul, dot, vdot, inner, outer, @) and matmul_reduce, against NumPy with float64
(complex128) references: results must lie within a dtype-dependent multiple of the GEMM error bound
|A| @ |B| of the exact product."""
import threading

import numpy as np
import pytest

import npgpu

from _threads import thread_count

try:
    import ml_dtypes

    BF16 = np.dtype(ml_dtypes.bfloat16)
except ImportError:  # bfloat16 tests need ml_dtypes
    BF16 = None

FLOATS = ["float16", "float32", "float64", "complex64", "complex128"]
# Relative tolerance against |A| @ |B| (an upper bound of the rounding error's scale).
TOL = {"float16": 4e-3, "bfloat16": 3e-2, "float32": 2e-5, "float64": 1e-12, "complex64": 2e-5,
       "complex128": 1e-12}


def ref_dtype(dt):
    return np.complex128 if np.dtype(dt).kind == "c" else np.float64


def reference(fn, *xs):
    """fn evaluated in float64/complex128 on the operands, and the matching bound from |operands|."""
    kind = "c" if any(np.dtype(x.dtype).kind == "c" for x in xs) else "f"
    wide = np.complex128 if kind == "c" else np.float64
    exact = fn(*[np.asarray(x).astype(wide) for x in xs])
    bound = fn(*[np.abs(np.asarray(x).astype(wide)) for x in xs])
    return exact, bound


def check_close(result, fn, *xs, dtype=None, tol=None):
    exact, bound = reference(fn, *xs)
    result = np.asarray(result.get() if isinstance(result, npgpu.Array) else result)
    assert result.shape == np.shape(exact), f"shape {result.shape}, NumPy gives {np.shape(exact)}"
    if dtype is not None:
        assert result.dtype == np.dtype(dtype), f"dtype {result.dtype}, expected {np.dtype(dtype)}"
    name = np.dtype(result.dtype).name
    t = TOL.get(name, 1e-5) if tol is None else tol
    err = np.abs(result.astype(exact.dtype) - exact)
    lim = t * (np.abs(bound) + np.finfo(np.float64).tiny)
    assert np.all(err <= lim), f"max error ratio {np.max(err / lim):.3g} (tolerance {t})"


def operands(random_array, sa, sb, dtype):
    if dtype in ("bfloat16", "float16"):  # values in (-1, 1): products of float16 would overflow otherwise
        if dtype == "bfloat16" and BF16 is None:
            pytest.skip("bfloat16 needs ml_dtypes")
        d = BF16 if dtype == "bfloat16" else np.float16
        return (np.tanh(random_array(sa, np.float32)).astype(d), np.tanh(random_array(sb, np.float32)).astype(d))
    return random_array(sa, dtype), random_array(sb, dtype)


# ------------------------------------------------------------------------------------------------ matmul, NumPy in

SHAPES = [
    ((7, 5), (5, 3)),
    ((1, 9), (9, 1)),
    ((5,), (5, 4)),
    ((6, 5), (5,)),
    ((8,), (8,)),
    ((3, 4, 5), (3, 5, 2)),
    ((2, 1, 4, 5), (3, 5, 6)),
    ((4, 5), (3, 5, 6)),
    ((3, 4, 5), (5,)),
    ((5,), (2, 5, 3)),
    ((2, 3, 1, 4), (1, 3, 4, 2)),
]


@pytest.mark.parametrize("dtype", FLOATS + ["bfloat16"])
def test_matmul_dtypes(backend, random_array, dtype):
    a, b = operands(random_array, (17, 33), (33, 9), dtype)
    r = npgpu.matmul(a, b)
    assert isinstance(r, np.ndarray)
    check_close(r, np.matmul, a, b, dtype=a.dtype)


@pytest.mark.parametrize("sa,sb", SHAPES)
@pytest.mark.parametrize("dtype", ["float32", "complex128"])
def test_matmul_shapes(backend, random_array, sa, sb, dtype):
    a, b = operands(random_array, sa, sb, dtype)
    r = npgpu.matmul(a, b)
    check_close(r, np.matmul, a, b, dtype=dtype)
    assert type(r) is type(np.matmul(a, b))


@pytest.mark.parametrize("order", ["CF", "FC", "FF", "TT", "slices"])
def test_matmul_layouts(backend, random_array, order):
    a = random_array((12, 7), np.float64)
    b = random_array((7, 10), np.float64)
    if order == "CF":
        b = np.asfortranarray(b)
    elif order == "FC":
        a = np.asfortranarray(a)
    elif order == "FF":
        a, b = np.asfortranarray(a), np.asfortranarray(b)
    elif order == "TT":
        a, b = random_array((7, 12), np.float64).T, random_array((10, 7), np.float64).T
    else:
        a = random_array((24, 21), np.float64)[::2, ::3]
        b = random_array((7, 30), np.float64)[:, 5:15]
    check_close(npgpu.matmul(a, b), np.matmul, a, b)


def test_matmul_batched_transposed(backend, random_array):
    a = random_array((4, 6, 5), np.float32).transpose(0, 2, 1)  # (4, 5, 6), each matrix F-ordered
    b = random_array((6, 3), np.float32)
    check_close(npgpu.matmul(a, b), np.matmul, a, b)
    c = random_array((3, 4, 5, 6), np.float32).transpose(1, 0, 2, 3)  # batch dims that do not collapse
    d = random_array((4, 1, 6, 2), np.float32)
    check_close(npgpu.matmul(c, d), np.matmul, c, d)


@pytest.mark.parametrize("sa,sb", [((0, 4), (4, 3)), ((3, 0), (0, 5)), ((2, 0, 3), (3, 4)), ((0,), (0,)),
                                   ((5, 4), (4, 0))])
def test_matmul_zero_size(backend, sa, sb):
    a = np.ones(sa, np.float32)
    b = np.ones(sb, np.float32)
    r = npgpu.matmul(a, b)
    e = np.matmul(a, b)
    assert np.shape(r) == e.shape and np.asarray(r).dtype == e.dtype
    assert np.array_equal(np.asarray(r), e)  # k == 0: zeros


def test_matmul_mixed_dtypes(backend, random_array):
    a = random_array((5, 6), np.float32)
    b = random_array((6, 4), np.float64)
    r = npgpu.matmul(a, b)
    assert r.dtype == np.float64
    check_close(r, np.matmul, a, b)
    c = random_array((6, 4), np.complex64)
    r = npgpu.matmul(a, c)
    assert r.dtype == np.complex64
    check_close(r, np.matmul, a, c)


def test_matmul_out(backend, random_array, poisoned):
    a = random_array((5, 6), np.float32)
    b = random_array((6, 4), np.float32)
    out = poisoned((5, 4), np.float64)
    r = npgpu.matmul(a, b, out=out)
    assert r is out
    check_close(out.astype(np.float32), np.matmul, a, b)
    with pytest.raises(ValueError, match="shape"):
        npgpu.matmul(a, b, out=np.empty((4, 5)))
    with pytest.raises(TypeError):
        npgpu.matmul(a.astype(np.complex64), b, out=np.empty((5, 4), np.float32))


def test_matmul_errors(backend):
    with pytest.raises(ValueError, match=r"\(2, 3\).*\(4, 5\)"):
        npgpu.matmul(np.ones((2, 3)), np.ones((4, 5)))
    with pytest.raises(ValueError, match=r"\(3,\).*\(4,\)"):
        npgpu.matmul(np.ones(3), np.ones(4))
    with pytest.raises(ValueError, match="broadcast"):
        npgpu.matmul(np.ones((2, 3, 4)), np.ones((3, 4, 5)))
    with pytest.raises(ValueError, match="enough dimensions"):
        npgpu.matmul(np.float64(2.0), np.ones(3))
    with pytest.raises(TypeError, match="object"):
        npgpu.matmul(np.ones((2, 2), object), np.ones((2, 2)))
    with pytest.raises(ValueError, match="precision"):
        npgpu.matmul(np.ones((2, 2)), np.ones((2, 2)), precision="fast")


@pytest.mark.parametrize("fn", ["matmul", "dot", "vdot", "inner", "outer"])
@pytest.mark.parametrize("dtypes", [("int64", "int64"), ("int8", "int8"), ("uint32", "int16"), ("bool", "bool"),
                                    ("bool", "float64"), ("int32", "float32")], ids=str)
def test_integer_and_bool_products_as_numpy(array_device, random_array, fn, dtypes):
    # NumPy multiplies integers exactly with wrap-around; npgpu must give the same values and dtype.
    a = random_array((3, 4), dtypes[0])
    b = random_array((4, 5) if fn in ("matmul", "dot") else (3, 4), dtypes[1])
    expected = getattr(np, fn)(a, b)
    got = getattr(npgpu, fn)(npgpu.asarray(a), npgpu.asarray(b))
    assert isinstance(got, npgpu.Array) and got.device == npgpu.asarray(a).device
    got = np.asarray(got)
    assert got.dtype == expected.dtype and got.shape == np.shape(expected)
    if expected.dtype.kind in "fc":
        np.testing.assert_allclose(got, expected, rtol=1e-5)
    else:
        assert np.array_equal(got, expected)
    host = getattr(npgpu, fn)(a, b)  # NumPy in, NumPy out
    assert np.asarray(host).dtype == expected.dtype
    assert np.allclose(host, expected, rtol=1e-5) if expected.dtype.kind in "fc" else np.array_equal(host, expected)


def test_matmul_tf32(backend, random_array):
    a = random_array((40, 64), np.float32)
    b = random_array((64, 24), np.float32)
    check_close(npgpu.matmul(a, b, precision="tf32"), np.matmul, a, b, tol=5e-3)


# ------------------------------------------------------------------------------------------------ dot family

DOT_SHAPES = [((5,), (5,)), ((3, 5), (5,)), ((5,), (5, 2)), ((3, 5), (5, 4)), ((2, 3, 5), (5, 4)),
              ((2, 3, 5), (4, 5, 6)), ((3, 5), (2, 5, 4)), ((), (3, 4)), ((3, 4), ())]


@pytest.mark.parametrize("sa,sb", DOT_SHAPES)
def test_dot(backend, random_array, sa, sb):
    a = random_array(sa, np.float64)
    b = random_array(sb, np.float64)
    r = npgpu.dot(a, b)
    e = np.dot(a, b)
    assert type(r) is type(e)
    check_close(r, np.dot, a, b)


def test_dot_errors(backend):
    with pytest.raises(ValueError, match=r"\(2, 3\).*\(4, 5\)"):
        npgpu.dot(np.ones((2, 3)), np.ones((4, 5)))


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_vdot(backend, random_array, dtype):
    a = random_array((3, 4), dtype)
    b = random_array((12,), dtype)
    r = npgpu.vdot(a, b)
    assert np.isscalar(r) or np.ndim(r) == 0
    check_close(r, np.vdot, a, b)
    with pytest.raises(ValueError, match="length"):
        npgpu.vdot(np.ones(3, dtype), np.ones(4, dtype))


@pytest.mark.parametrize("sa,sb", [((5,), (5,)), ((3, 5), (5,)), ((3, 5), (4, 5)), ((2, 3, 5), (4, 5)),
                                   ((), (3,))])
def test_inner(backend, random_array, sa, sb):
    a = random_array(sa, np.complex64)
    b = random_array(sb, np.complex64)
    check_close(npgpu.inner(a, b), np.inner, a, b)
    if sa and sb:
        with pytest.raises(ValueError, match="aligned"):
            npgpu.inner(np.ones(sa[:-1] + (sa[-1] + 1,)), b)


def test_outer(backend, random_array, poisoned):
    a = random_array((3, 2), np.float32)
    b = random_array((5,), np.float32)
    check_close(npgpu.outer(a, b), np.outer, a, b)
    out = poisoned((6, 5), np.float32)
    assert npgpu.outer(a, b, out=out) is out
    check_close(out, np.outer, a, b)


# ------------------------------------------------------------------------------------------------ matmul_reduce

def reduce_reference(a, b, axis):
    return (a.astype(np.float64) @ b.astype(np.float64)).sum(axis=axis)


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_matmul_reduce(backend, rng, axis, dtype):
    a = rng.random((37, 29)).astype(dtype)
    b = rng.random((29, 23)).astype(dtype)
    r = npgpu.matmul_reduce(a, b, axis=axis)
    e = reduce_reference(a, b, axis)
    assert r.dtype == np.dtype(dtype) and r.shape == e.shape
    assert np.max(np.abs(r - e) / np.abs(e)) <= (2e-6 if dtype == "float32" else 1e-13)


@pytest.mark.parametrize("axis", [0, 1])
def test_matmul_reduce_layouts(backend, rng, axis):
    a = np.asfortranarray(rng.random((41, 19)))
    b = rng.random((30, 19)).T  # (19, 30), F-ordered
    e = reduce_reference(a, b, axis)
    r = npgpu.matmul_reduce(a, b, axis)
    assert np.max(np.abs(r - e) / np.abs(e)) <= 1e-13
    c = rng.random((60, 40))[::3, ::2]  # no unit stride: copied first
    d = rng.random((20, 9))
    r = npgpu.matmul_reduce(c, d, axis)
    assert np.max(np.abs(r - reduce_reference(c, d, axis)) / np.abs(reduce_reference(c, d, axis))) <= 1e-13


def test_matmul_reduce_errors(backend):
    with pytest.raises(ValueError, match=r"\(3, 4\).*\(5, 6\)"):
        npgpu.matmul_reduce(np.ones((3, 4)), np.ones((5, 6)))
    with pytest.raises(ValueError, match="2-D"):
        npgpu.matmul_reduce(np.ones(4), np.ones((4, 6)))
    with pytest.raises(ValueError, match="2-D or stacked"):
        npgpu.matmul_reduce(np.ones((2, 3, 4)), np.ones(4))
    with pytest.raises(TypeError, match="int64"):
        npgpu.matmul_reduce(np.ones((3, 4), np.int64), np.ones((4, 6), np.int64))
    with pytest.raises(ValueError, match="axis"):
        npgpu.matmul_reduce(np.ones((3, 4)), np.ones((4, 6)), axis=2)


def test_matmul_reduce_zero_size(backend):
    r = npgpu.matmul_reduce(np.ones((0, 4), np.float32), np.ones((4, 3), np.float32))
    assert r.shape == (3,) and np.array_equal(r, np.zeros(3, np.float32))
    r = npgpu.matmul_reduce(np.ones((2, 0), np.float32), np.ones((0, 3), np.float32), axis=1)
    assert r.shape == (2,) and np.array_equal(r, np.zeros(2, np.float32))


@pytest.mark.parametrize("axis", [0, 1])
def test_matmul_reduce_numpy_inputs_mixed_and_out(backend, rng, axis):
    # On the GPU backend one operand is summed on the host while the other uploads: results as the
    # device-array path's (float64 sums both ways), mixed dtypes promoted, out= filled.
    a = rng.random((3001, 701), dtype=np.float32) - 0.25
    b = rng.random((701, 903)) - 0.25
    e = reduce_reference(a, b, axis)
    out = np.full(e.shape, np.nan)
    r = npgpu.matmul_reduce(a, b, axis=axis, out=out)
    assert r is out and r.dtype == np.float64
    assert np.max(np.abs(r - e)) <= 1e-12 * np.max(np.abs(e)) * 10
    if backend == "cuda":
        d = npgpu.matmul_reduce(npgpu.asarray(a.astype(np.float64)), npgpu.asarray(b), axis=axis).get()
        np.testing.assert_allclose(r, d, rtol=1e-12, atol=1e-9)
        c = npgpu.matmul_reduce(a, b.astype(np.float32), axis=axis, _method=1)  # cuBLAS route, both uploaded
        assert c.dtype == np.float32
        np.testing.assert_allclose(c, e, rtol=1e-3, atol=1e-2)


@pytest.mark.slow
@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("axis", [0, 1])
def test_matmul_reduce_reference_page(backend, axis):
    """Reference page 002's data: 10000 x 5000 by 5000 x 7000 float32 from default_rng(987654321)."""
    r = np.random.default_rng(987654321)
    a = r.random(size=(10000, 5000), dtype=np.float32)
    b = r.random(size=(5000, 7000), dtype=np.float32)
    if axis == 0:
        e = a.sum(axis=0, dtype=np.float64) @ b.astype(np.float64)
    else:
        e = a.astype(np.float64) @ b.sum(axis=1, dtype=np.float64)
    got = npgpu.matmul_reduce(a, b, axis=axis)
    assert np.max(np.abs(got - e) / np.abs(e)) <= 1e-5


# ------------------------------------------------------------------------------------------------ device arrays

class _CAI:
    """A strided device view of an npgpu.Array's memory (shared through the CUDA Array Interface)."""

    def __init__(self, base, shape, strides, offset=0):
        self.base = base
        self.__cuda_array_interface__ = {"shape": tuple(shape), "strides": tuple(strides),
                                         "typestr": base.dtype.str, "data": (base.ptr + offset, False),
                                         "version": 3, "stream": None}


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("dtype", FLOATS + ["bfloat16"])
def test_device_matmul(random_array, dtype):
    a, b = operands(random_array, (2, 65, 40), (40, 33), dtype)
    da, db = npgpu.asarray(a), npgpu.asarray(b)
    r = npgpu.matmul(da, db)
    assert isinstance(r, npgpu.Array) and r.dtype == a.dtype
    check_close(r, np.matmul, a, b)
    check_close(da @ db, np.matmul, a, b)


@pytest.mark.gpu
def test_device_strided_views(random_array):
    base_a = random_array((30, 40), np.float32)
    base_b = random_array((50, 30), np.float32)
    da, db = npgpu.asarray(base_a), npgpu.asarray(base_b)
    # a: the transposed (40, 30) view; b: rows 10..39 of base_b's transpose, i.e. (30, 20) with steps
    ta = npgpu.asarray(_CAI(da, (40, 30), (4, 160)))
    tb = npgpu.asarray(_CAI(db, (30, 20), (4, 120), offset=4 * 30 * 10))
    r = npgpu.matmul(ta, tb)
    check_close(r, np.matmul, base_a.T, base_b.T[:, 10:30])
    sl = npgpu.asarray(_CAI(da, (15, 20), (320, 8)))  # base_a[::2, ::2]: copied before cuBLAS
    check_close(npgpu.matmul(sl, npgpu.asarray(base_b[:20, :7].copy())), np.matmul, base_a[::2, ::2],
                base_b[:20, :7])


@pytest.mark.gpu
def test_device_out_and_inplace(random_array, poisoned):
    a = random_array((6, 6), np.float64)
    b = random_array((6, 6), np.float64)
    da, db = npgpu.asarray(a), npgpu.asarray(b)
    out = npgpu.asarray(poisoned((6, 6), np.float64))
    assert npgpu.matmul(da, db, out=out) is out
    check_close(out, np.matmul, a, b)
    da @= db
    check_close(da, np.matmul, a, b)
    fo = npgpu.asarray(poisoned((6, 6), np.complex128))
    npgpu.matmul(npgpu.asarray(a), db, out=fo)  # converted on store
    check_close(fo, np.matmul, a.astype(np.complex128), b)
    with pytest.raises(ValueError, match="shape"):
        npgpu.matmul(da, db, out=npgpu.empty((6, 5)))
    with pytest.raises(TypeError, match="host"):
        npgpu.matmul(da, b)


@pytest.mark.usefixtures("array_device")
def test_device_dot_family(random_array):
    a = random_array((3, 4, 5), np.complex128)
    b = random_array((2, 5, 6), np.complex128)
    da, db = npgpu.asarray(a), npgpu.asarray(b)
    check_close(npgpu.dot(da, db), np.dot, a, b)
    check_close(da.dot(db), np.dot, a, b)
    v = random_array((60,), np.complex128)
    check_close(npgpu.vdot(da, npgpu.asarray(v)), np.vdot, a, v)
    c = random_array((7, 5), np.complex128)
    check_close(npgpu.inner(da, npgpu.asarray(c)), np.inner, a, c)
    check_close(npgpu.outer(da, npgpu.asarray(c)), np.outer, a, c)
    # a scalar factor, as NumPy's dot (the scalar a 0-d array of its NumPy dtype: float32 . 2.0 is float64)
    for s in (2.5, np.float32(2.0), 3, 1 - 2j):
        check_close(da.dot(s), np.dot, a, np.asarray(s))  # (the reference takes arrays: the same product)
        check_close(npgpu.dot(s, da), np.dot, np.asarray(s), a)
    f = random_array((5,), np.float32)
    assert npgpu.asarray(f).dot(2.0).dtype == f.dot(2.0).dtype


@pytest.mark.usefixtures("array_device")
@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("method", [0, 1])
def test_device_matmul_reduce(rng, axis, method):
    a = rng.random((1000, 500), dtype=np.float32)
    b = rng.random((500, 700), dtype=np.float32)
    e = reduce_reference(a, b, axis)
    da, db = npgpu.asarray(a), npgpu.asarray(b)
    r = npgpu.matmul_reduce(da, db, axis, _method=method)
    assert isinstance(r, npgpu.Array) and r.dtype == np.float32
    assert np.max(np.abs(r.get() - e) / np.abs(e)) <= 1e-5
    # F-ordered / odd shapes (the other kernel, scalar tails)
    a2 = np.asfortranarray(rng.random((333, 77)))
    b2 = np.asfortranarray(rng.random((77, 129)))
    r2 = npgpu.matmul_reduce(npgpu.asarray(a2), npgpu.asarray(b2), axis, _method=method)
    e2 = reduce_reference(a2, b2, axis)
    assert np.max(np.abs(r2.get() - e2) / np.abs(e2)) <= 1e-13


@pytest.mark.threads
@pytest.mark.gpu
def test_device_streams_and_threads(random_array):
    a = random_array((64, 48), np.float32)
    b = random_array((48, 32), np.float32)
    e = np.matmul(a.astype(np.float64), b.astype(np.float64))
    s = npgpu.Stream()
    r = npgpu.matmul(npgpu.asarray(a, stream=s), npgpu.asarray(b, stream=s), stream=s)
    s.synchronize()
    check_close(r, np.matmul, a, b)
    n = thread_count(4)
    results, errors = [None] * n, []

    def work(i):
        try:
            for _ in range(5):
                results[i] = npgpu.matmul(a, b)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for r in results:
        assert np.allclose(r, e, rtol=1e-4)


@pytest.mark.gpu
def test_cublas_version():
    from npgpu import _blas

    assert _blas.cublas_version() >= 130000


@pytest.mark.parametrize("shapes", [((3, 4, 5), (5, 6)), ((3, 1, 4, 5), (2, 5, 6)), ((4, 5), (2, 5, 3))])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_matmul_reduce_stacked_broadcasts_as_matmul(backend, shapes, dtype):
    rng = np.random.default_rng(7)
    a, b = (rng.standard_normal(s).astype(dtype) for s in shapes)
    prod = np.matmul(a.astype(np.float64), b.astype(np.float64))
    tol = 1e-5 if dtype == np.float32 else 1e-12
    for axis, along in ((0, -2), (1, -1), (-2, -2), (-1, -1)):
        want = prod.sum(axis=along)
        got = npgpu.matmul_reduce(a, b, axis=axis)
        assert type(got) is np.ndarray and got.dtype == dtype and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol * np.abs(want).max())
        d = npgpu.matmul_reduce(npgpu.asarray(a), npgpu.asarray(b), axis=axis)
        assert isinstance(d, npgpu.Array) and d.shape == want.shape
        np.testing.assert_allclose(d.get(), want, rtol=tol, atol=tol * np.abs(want).max())
    out = np.full(prod.sum(axis=-1).shape, np.nan, dtype)
    assert npgpu.matmul_reduce(a, b, axis=1, out=out) is out
    np.testing.assert_allclose(out, prod.sum(axis=-1), rtol=tol, atol=tol * np.abs(prod).sum(axis=-1).max())
    with pytest.raises(ValueError, match="not aligned"):
        npgpu.matmul_reduce(a, np.ones((2, 7, 3), dtype))
    with pytest.raises(TypeError, match="host operand"):
        npgpu.matmul_reduce(npgpu.asarray(a), b)
