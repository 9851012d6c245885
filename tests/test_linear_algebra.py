"""The main namespace's linear algebra beside matmul (matrix_transpose, tensordot, vecdot, matvec, vecmat)
against NumPy on each device: dtypes (integers wrap as NumPy's, complex conjugated), axes, broadcasting,
0-size operands and errors."""
import re
import warnings

import numpy as np
import pytest

import npgpu

pytestmark = pytest.mark.usefixtures("array_device")


def _check(got, want, rtol=1e-12):
    assert isinstance(got, npgpu.Array)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want.shape, want.dtype)
    if want.dtype.kind in "fc":
        np.testing.assert_allclose(got.get(), want, rtol=rtol, atol=rtol)
    else:
        np.testing.assert_array_equal(got.get(), want)


def test_matrix_transpose_is_a_view(random_array):
    a = random_array((2, 3, 4), np.float32)
    d = npgpu.asarray(a)
    t = npgpu.matrix_transpose(d)
    _check(t, np.matrix_transpose(a))
    t[0, 0, 0] = 99
    assert float(d[0, 0, 0]) == 99
    with pytest.raises(ValueError, match="at least 2"):
        npgpu.matrix_transpose(npgpu.asarray(a[0, 0]))


@pytest.mark.parametrize("axes, b_shape", [
    (0, (2, 3)), (1, (5, 2)), (2, (4, 5, 2)), (([1, 0], [0, 1]), (4, 3, 2)), (((2,), (1,)), (6, 5, 3)),
    ((-1, 0), (5, 6)), (([], []), (2,)), (3, (3, 4, 5)),
], ids=str)
def test_tensordot_axes(random_array, axes, b_shape):
    a, b = random_array((3, 4, 5), np.float64), random_array(b_shape, np.float64)
    want = np.tensordot(a, b, axes=axes)
    _check(npgpu.tensordot(npgpu.asarray(a), npgpu.asarray(b), axes=axes), want)


@pytest.mark.parametrize("dt", [np.int8, np.int32, np.uint16, np.bool_, np.float32, np.complex128])
def test_tensordot_dtypes(random_array, dt):
    a, b = random_array((6, 7), dt), random_array((7, 5), dt)
    want = np.tensordot(a, b, axes=1)
    _check(npgpu.tensordot(npgpu.asarray(a), npgpu.asarray(b), axes=1), want,
           rtol=1e-5 if dt == np.float32 else 1e-12)
    # through NumPy's own function on npgpu arrays
    _check(np.tensordot(npgpu.asarray(a), npgpu.asarray(b), 1), want, rtol=1e-5 if dt == np.float32 else 1e-12)


def test_tensordot_zero_size_and_errors(random_array):
    a, b = npgpu.asarray(random_array((3, 0), np.float64)), npgpu.asarray(random_array((0, 4), np.float64))
    got = npgpu.tensordot(a, b, axes=1)
    _check(got, np.zeros((3, 4)))
    x, y = npgpu.asarray(random_array((3, 4), np.float64)), npgpu.asarray(random_array((5, 4), np.float64))
    with pytest.raises(ValueError, match="shape-mismatch"):
        npgpu.tensordot(x, y, axes=1)
    with pytest.raises(ValueError, match="shape-mismatch"):
        npgpu.tensordot(x, y, axes=([0, 1], [1]))
    with pytest.raises(ValueError, match="non-negative"):
        npgpu.tensordot(x, y, axes=-1)
    with pytest.raises(ValueError, match="exceeds"):
        npgpu.tensordot(x, y, axes=3)


@pytest.mark.parametrize("dt", [np.int8, np.int64, np.uint32, np.float32, np.float64, np.complex64])
def test_vecdot_matches_numpy(random_array, dt):
    a, b = random_array((4, 1, 6), dt), random_array((3, 6), dt)
    for axis in (-1, 2):
        want = np.vecdot(a, b, axis=-1)
        _check(npgpu.vecdot(npgpu.asarray(a), npgpu.asarray(b), axis=axis), want,
               rtol=1e-5 if np.dtype(dt).itemsize <= 8 and np.dtype(dt).kind in "fc" else 1e-12)
    c, d = random_array((5, 3), dt), random_array((5, 3), dt)
    want = np.vecdot(c, d, axis=0)
    _check(npgpu.vecdot(npgpu.asarray(c), npgpu.asarray(d), axis=0), want,
           rtol=1e-5 if np.dtype(dt).itemsize <= 8 and np.dtype(dt).kind in "fc" else 1e-12)


def test_vecdot_conjugates_the_first_argument_and_mixes_dtypes():
    a = np.array([1 + 2j, 3 - 1j])
    b = np.array([2 - 1j, 1j])
    _check(npgpu.vecdot(npgpu.asarray(a), npgpu.asarray(b)), np.vecdot(a, b))
    i = np.arange(4, dtype=np.int16)
    f = np.linspace(0, 1, 4, dtype=np.float32)
    _check(npgpu.vecdot(npgpu.asarray(i), npgpu.asarray(f)), np.vecdot(i, f), rtol=1e-6)


def test_vecdot_errors():
    with pytest.raises(ValueError, match="contracted axis"):
        npgpu.vecdot(npgpu.asarray(np.ones((2, 3))), npgpu.asarray(np.ones((2, 4))))
    with pytest.raises(ValueError, match="at least one dimension"):
        npgpu.vecdot(npgpu.asarray(np.ones(3)), npgpu.asarray(np.float64(2.0)))
    with pytest.raises(np.exceptions.AxisError):
        npgpu.vecdot(npgpu.asarray(np.ones(3)), npgpu.asarray(np.ones(3)), axis=1)


@pytest.mark.parametrize("dt", [np.int16, np.uint32, np.float32, np.float64, np.complex64, np.complex128])
def test_matvec_and_vecmat_match_numpy(random_array, dt):
    # Stacks that broadcast against each other, the vector of vecmat conjugated, integers wrapping.
    rtol = 1e-5 if np.dtype(dt) in (np.float32, np.complex64) else 1e-12
    m, v, w = random_array((3, 1, 4, 5), dt), random_array((2, 5), dt), random_array((2, 4), dt)
    _check(npgpu.matvec(npgpu.asarray(m), npgpu.asarray(v)), np.matvec(m, v), rtol)
    _check(npgpu.vecmat(npgpu.asarray(w), npgpu.asarray(m)), np.vecmat(w, m), rtol)
    _check(npgpu.matvec(npgpu.asarray(m[0, 0]), v[0]), np.matvec(m[0, 0], v[0]), rtol)  # NumPy vector beside
    f = np.linspace(0, 1, 5, dtype=np.float32)
    _check(npgpu.matvec(npgpu.asarray(m), npgpu.asarray(f)), np.matvec(m, f), 1e-5)  # mixed dtypes promote


def test_matvec_and_vecmat_errors():
    with pytest.raises(ValueError, match="vector has 4 elements"):
        npgpu.matvec(npgpu.asarray(np.ones((2, 3))), npgpu.asarray(np.ones(4)))
    with pytest.raises(ValueError, match="vector has 3 elements"):
        npgpu.vecmat(npgpu.asarray(np.ones(3)), npgpu.asarray(np.ones((2, 3))))
    with pytest.raises(ValueError, match="at least two dimensions"):
        npgpu.matvec(npgpu.asarray(np.ones(3)), npgpu.asarray(np.ones(3)))
    with pytest.raises(ValueError, match="at least two dimensions"):
        npgpu.vecmat(npgpu.asarray(np.float64(1.0)), npgpu.asarray(np.ones((2, 3))))


# ------------------------------------------------------------------------------------------------ diagonal, trace

DIAG_SHAPES = [(4, 4), (3, 5), (5, 3), (1, 1), (0, 3), (3, 0), (3, 4, 5), (2, 3, 4, 5), (0, 2, 2)]
AXIS_PAIRS = [(0, 1), (1, 0), (-2, -1), (-1, -2), (0, -1), (-1, 0)]


def _layouts(h):
    """(npgpu.Array, its NumPy twin) for one C-contiguous, one Fortran-ordered and one strided copy of h."""
    f = np.asfortranarray(h)
    return [(npgpu.asarray(h), h), (npgpu.asarray(np.ascontiguousarray(f.T)).T, f),
            (npgpu.asarray(h)[::-1], h[::-1])]


@pytest.mark.parametrize("shape", DIAG_SHAPES, ids=str)
@pytest.mark.parametrize("offset", [-7, -2, -1, 0, 1, 3, 2**31 - 1])  # NumPy takes a C int
def test_diagonal_and_trace_match_numpy(random_array, shape, offset):
    h = random_array(shape, np.float64)
    for x, hx in _layouts(h):
        for axes in AXIS_PAIRS:
            got = npgpu.diagonal(x, offset, *axes)
            _check(got, np.diagonal(hx, offset, *axes))
            assert got.readonly  # as NumPy's
            _check(npgpu.trace(x, offset, *axes), np.asarray(np.trace(hx, offset, *axes)))
    if len(shape) == 4:  # axes that are not next to each other
        _check(npgpu.diagonal(npgpu.asarray(h), offset, 3, 1), np.diagonal(h, offset, 3, 1))
        _check(npgpu.trace(npgpu.asarray(h), offset, 0, 2), np.asarray(np.trace(h, offset, 0, 2)))


def test_diagonal_is_a_view_where_it_can_be():
    h = np.arange(60.0).reshape(3, 4, 5)
    x = npgpu.asarray(h.copy())  # the host device may share h's memory
    views = [npgpu.diagonal(x, 1), npgpu.diagonal(x, -1, 2, 1), npgpu.diagonal(x[1].T, 2),
             npgpu.diagonal(x.T)]
    copy = npgpu.diagonal(x, 0, 0, 2)
    x[...] = x + 100
    for d, want in zip(views, [np.diagonal(h, 1), np.diagonal(h, -1, 2, 1), np.diagonal(h[1].T, 2),
                               np.diagonal(h.T)]):
        _check(d, want + 100)
    _check(copy, np.diagonal(h, 0, 0, 2))  # gathered before the write
    with pytest.raises(ValueError, match="read-only"):
        views[0][0, 0] = 1


def test_diagonal_and_trace_errors():
    x = npgpu.asarray(np.ones((2, 3)))
    for f in (npgpu.diagonal, npgpu.trace):
        with pytest.raises(ValueError, match="at least two dimensions"):
            f(npgpu.asarray(np.ones(3)))
        with pytest.raises(ValueError, match="cannot be the same"):
            f(x, 0, 1, -1)
        with pytest.raises(np.exceptions.AxisError, match="axis2"):
            f(x, 0, 0, 2)
        with pytest.raises(np.exceptions.AxisError, match="axis1"):
            f(x, 0, -3, 1)
        with pytest.raises(TypeError):
            f(x, 0.5)
    with pytest.raises(ValueError, match="shape"):
        npgpu.trace(x, out=npgpu.asarray(np.zeros(3)))
    with pytest.raises(TypeError, match="npgpu.Array"):
        npgpu.trace(x, out=np.zeros(()))


@pytest.mark.parametrize("dt", [np.int8, np.uint8, np.int32, np.bool_, np.float32, np.complex64])
def test_trace_dtypes_and_out(random_array, dt):
    h = random_array((3, 4, 4), dt)
    rtol = 1e-5 if np.dtype(dt) in (np.float32, np.complex64) else 1e-12
    _check(npgpu.trace(npgpu.asarray(h), 1, 1, 2), np.trace(h, 1, 1, 2), rtol)  # int8 sums in int64, uint8 uint64
    _check(npgpu.trace(npgpu.asarray(h), dtype=np.complex128), np.trace(h, dtype=np.complex128), rtol)
    out = npgpu.asarray(np.zeros(4, np.complex128))
    got = npgpu.trace(npgpu.asarray(h), -1, 0, 2, out=out)
    assert got is out
    _check(out, np.trace(h, -1, 0, 2).astype(np.complex128), rtol)


# ------------------------------------------------------------------------------------------------ kron

@pytest.mark.parametrize("a_shape, b_shape", [
    ((3,), (2,)), ((2, 3), (4, 5)), ((2,), (3, 2)), ((2, 1, 3), (4, 2)), ((1, 1), (1, 1)), ((2, 0), (3,)),
    ((), (3,)), ((3,), ()), ((), ()),
], ids=str)
@pytest.mark.parametrize("dts", [(np.float64, np.float64), (np.int8, np.uint8), (np.int16, np.float32),
                                 (np.complex64, np.int64)], ids=str)
def test_kron_matches_numpy(random_array, a_shape, b_shape, dts):
    a, b = random_array(a_shape, dts[0]), random_array(b_shape, dts[1])
    want = np.asarray(np.kron(a, b))
    rtol = 1e-6 if want.dtype in (np.float32, np.complex64) else 1e-12
    _check(npgpu.kron(npgpu.asarray(a), npgpu.asarray(b)), want, rtol)
    if a.ndim == 2:  # a strided operand, and a NumPy operand beside an npgpu.Array
        _check(npgpu.kron(npgpu.asarray(a)[:, ::-1], b), np.asarray(np.kron(a[:, ::-1], b)), rtol)


# ------------------------------------------------------------------------------------------------ cross

@pytest.mark.parametrize("a_shape, b_shape, kw", [
    ((3,), (3,), {}), ((4, 3), (3,), {}), ((4, 1, 3), (5, 3), {}), ((3, 4), (4, 3), {"axisa": 0}),
    ((2, 3), (3, 2), {"axisa": 1, "axisb": 0, "axisc": 0}), ((3, 5), (3, 5), {"axis": 0}), ((0, 3), (3,), {}),
    ((1, 3), (1, 3), {"axisc": -2}),
], ids=str)
@pytest.mark.parametrize("dts", [(np.float64, np.float64), (np.int8, np.int8), (np.int16, np.uint8),
                                 (np.float32, np.complex64)], ids=str)
def test_cross_matches_numpy(random_array, a_shape, b_shape, kw, dts):
    a, b = random_array(a_shape, dts[0]), random_array(b_shape, dts[1])
    want = np.cross(a, b, **kw)  # int8 wraps around, as npgpu's
    rtol = 1e-5 if want.dtype in (np.float32, np.complex64) else 1e-12
    _check(npgpu.cross(npgpu.asarray(a), npgpu.asarray(b), **kw), want, rtol)


@pytest.mark.parametrize("a_shape, b_shape, kw", [
    ((2,), (2,), {}), ((2,), (3,), {}), ((3,), (2,), {}), ((4, 2), (2,), {}), ((2, 4), (3, 4), {"axis": 0}),
    ((5, 3), (5, 2), {"axisc": 0}),
], ids=str)
def test_cross_of_2_vectors_warns_as_numpy(random_array, a_shape, b_shape, kw):
    # NumPy 2.0 to 2.4 warn and compute; later NumPy raises: npgpu does what the installed NumPy does.
    a, b = random_array(a_shape, np.float64), random_array(b_shape, np.int32)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            want = np.asarray(np.cross(a, b, **kw))
        except ValueError as e:
            with pytest.raises(ValueError, match=re.escape(str(e))):
                npgpu.cross(npgpu.asarray(a), npgpu.asarray(b), **kw)
            return
    assert any(issubclass(w.category, DeprecationWarning) for w in caught)
    with pytest.warns(DeprecationWarning, match="2-dimensional vectors"):
        got = npgpu.cross(npgpu.asarray(a), npgpu.asarray(b), **kw)
    _check(got, want)


def test_cross_errors():
    v = npgpu.asarray(np.ones(3))
    with pytest.raises(ValueError, match="zero dimension"):
        npgpu.cross(npgpu.asarray(np.float64(1.0)), v)
    with pytest.raises(ValueError) as numpy_error:
        np.cross(np.ones(4), np.ones(3))
    with pytest.raises(ValueError, match=re.escape(str(numpy_error.value))):
        npgpu.cross(npgpu.asarray(np.ones(4)), v)
    with pytest.raises(np.exceptions.AxisError, match="axisa"):
        npgpu.cross(v, v, axisa=1)
    with pytest.raises(np.exceptions.AxisError, match="axisb"):
        npgpu.cross(v, v, axisb=-2)
    with pytest.raises(np.exceptions.AxisError, match="axisc"):
        npgpu.cross(v, v, axisc=1)
    with pytest.raises(ValueError, match="broadcast"):
        npgpu.cross(npgpu.asarray(np.ones((2, 3))), npgpu.asarray(np.ones((3, 3))))
    with pytest.raises(TypeError, match="boolean"):
        npgpu.cross(npgpu.asarray(np.array([True, False, True])), npgpu.asarray(np.array([True, True, False])))
