"""npgpu._sparse, the compiled CSR products under npgpu.sparse: every value and index dtype, one and several
right-hand sides, empty rows and matrices, and the argument checks."""
import numpy as np
import pytest

import npgpu
from npgpu import _sparse

sp = pytest.importorskip("scipy.sparse")

VALUES = (np.float32, np.float64, np.complex64, np.complex128)


def _csr(rng, m, n, density, dtype):
    a = sp.random(m, n, density=density, format="csr", random_state=rng, dtype=np.float64)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * sp.random(m, n, density=density, format="csr", random_state=rng, dtype=np.float64)
    return sp.csr_matrix(a.astype(dtype))


def _operands(a, index, device):
    return [npgpu.asarray(v, device=device) for v in (a.indptr.astype(index), a.indices.astype(index), a.data)]


def _dense(rng, shape, dtype):
    x = rng.standard_normal(shape) + (1j * rng.standard_normal(shape) if np.dtype(dtype).kind == "c" else 0)
    return x.astype(dtype)


def _tol(dtype):
    return 1e-5 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-12


@pytest.mark.parametrize("index", [np.int32, np.int64])
@pytest.mark.parametrize("dtype", VALUES)
@pytest.mark.parametrize("shape,density", [((70, 45), 0.1), ((300, 600), 0.02), ((40, 30), 0.0), ((1, 1), 1.0),
                                           ((600, 9), 0.9)])
def test_csr_matmul_matches_scipy(array_device, rng, index, dtype, shape, density):
    a = _csr(rng, *shape, density, dtype)
    a.data[::7] = 0  # explicit zeros stay
    args = _operands(a, index, array_device)
    want64 = a.astype(np.complex128 if np.dtype(dtype).kind == "c" else np.float64)
    for xshape in ((shape[1],), (shape[1], 1), (shape[1], 5)):
        x = _dense(rng, xshape, dtype)
        y = _sparse.csr_matmul(*args, shape[1], npgpu.asarray(x, device=array_device))
        assert y.device == args[2].device and y.dtype == dtype and y.shape == (shape[0],) + xshape[1:]
        np.testing.assert_allclose(y.get(), want64 @ x.astype(want64.dtype), rtol=_tol(dtype),
                                   atol=_tol(dtype) * max(1.0, float(np.abs(x).max())))


def test_empty_dimensions(array_device):
    indptr = npgpu.asarray(np.zeros(1, np.int32), device=array_device)
    empty_i = npgpu.asarray(np.zeros(0, np.int32), device=array_device)
    empty_v = npgpu.asarray(np.zeros(0, np.float64), device=array_device)
    y = _sparse.csr_matmul(indptr, empty_i, empty_v, 3, npgpu.asarray(np.ones(3), device=array_device))
    assert y.shape == (0,)
    indptr = npgpu.asarray(np.zeros(5, np.int64), device=array_device)
    y = _sparse.csr_matmul(indptr, empty_i.astype(np.int64), empty_v, 0,
                           npgpu.asarray(np.ones((0, 2)), device=array_device))
    np.testing.assert_array_equal(y.get(), np.zeros((4, 2)))


def test_bad_arguments(array_device):
    a = sp.csr_matrix(np.array([[1.0, 0.0], [2.0, 3.0]]))
    args = _operands(a, np.int32, array_device)
    x = npgpu.asarray(np.ones(2), device=array_device)
    with pytest.raises(ValueError, match="must have 3 rows"):
        _sparse.csr_matmul(*args, 3, x)
    with pytest.raises(TypeError, match="both be int32 or both int64"):
        _sparse.csr_matmul(args[0], args[1].astype(np.int64), args[2], 2, x)
    with pytest.raises(TypeError, match="dtype"):
        _sparse.csr_matmul(*args, 2, x.astype(np.float32))
    with pytest.raises(TypeError, match="float32, float64, complex64 or complex128"):
        _sparse.csr_matmul(args[0], args[1], args[2].astype(np.int64), 2, x.astype(np.int64))
    with pytest.raises(ValueError, match="C-contiguous"):
        _sparse.csr_matmul(*args, 2, npgpu.asarray(np.ones((2, 4)), device=array_device)[:, ::2])


@pytest.mark.parametrize("index", [np.int32, np.int64])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("k", [2, 3, 4, 8, 16, 33, 130, 300])
def test_row_major_products_every_width(array_device, rng, index, dtype, k):
    # widths that split into 16-byte packs and ones that do not, fewer and more packs than a warp's lanes
    a = _csr(rng, 257, 190, 0.05, dtype)
    # rows from 100 on empty
    a = sp.csr_matrix((a.data[: a.indptr[100]], a.indices[: a.indptr[100]], a.indptr.clip(max=a.indptr[100])),
                      shape=a.shape)
    args = _operands(a, index, array_device)
    x = _dense(rng, (190, k), dtype)
    y = _sparse.csr_matmul(*args, 190, npgpu.asarray(x, device=array_device))
    want = a.astype(np.float64) @ x.astype(np.float64)
    assert not want[150:].any() and want[:50].any()
    np.testing.assert_allclose(y.get(), want, rtol=_tol(dtype), atol=_tol(dtype) * 10)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_row_major_product_of_unaligned_operands(array_device, rng, dtype):
    # x one element into its buffer: its rows no longer start on 16 bytes, so the kernel loads element-wise
    a = _csr(rng, 64, 40, 0.2, dtype)
    args = _operands(a, np.int32, array_device)
    buf = npgpu.asarray(_dense(rng, 40 * 8 + 1, dtype), device=array_device)
    x = buf[1:].reshape(40, 8)
    assert x.ptr % 16 != 0
    y = _sparse.csr_matmul(*args, 40, x)
    np.testing.assert_allclose(y.get(), a.astype(np.float64) @ x.get().astype(np.float64), rtol=_tol(dtype),
                               atol=_tol(dtype) * 10)


@pytest.mark.parametrize("dtype", VALUES)
@pytest.mark.parametrize("index", [np.int32, np.int64])
def test_vector_product_any_longest_row_hint(array_device, rng, dtype, index):
    # the hint picks the GPU kernel (a thread per row up to 16 nonzeros, else cuSPARSE), never the result
    a = _csr(rng, 5000, 700, 0.004, dtype)
    # rows from 2000 on empty
    a = sp.csr_matrix((a.data[: a.indptr[2000]], a.indices[: a.indptr[2000]], a.indptr.clip(max=a.indptr[2000])),
                      shape=a.shape)
    longest = int(np.diff(a.indptr).max())
    assert 0 < longest <= 16
    args = _operands(a, index, array_device)
    x = _dense(rng, 700, dtype)
    want = a.astype(np.complex128 if np.dtype(dtype).kind == "c" else np.float64) @ x
    for hint in (longest, -1, 0, 16, 17):
        y = _sparse.csr_matmul(*args, 700, npgpu.asarray(x, device=array_device), hint)
        np.testing.assert_allclose(y.get(), want, rtol=_tol(dtype), atol=_tol(dtype) * 10)


def _product(a, b, index, device):
    got = _sparse.csr_product(*_operands(a, index, device), *_operands(b, index, device), b.shape[1])
    return [v.get() for v in got], got


def _assert_canonical(indptr, indices):
    for r in range(len(indptr) - 1):
        row = indices[indptr[r]:indptr[r + 1]]
        assert (np.diff(row) > 0).all(), f"row {r} is not strictly increasing: {row}"


@pytest.mark.parametrize("index", [np.int32, np.int64])
@pytest.mark.parametrize("dtype", VALUES)
@pytest.mark.parametrize("shapes,density", [(((70, 45), (45, 60)), 0.1), (((300, 200), (200, 500)), 0.03),
                                            (((1, 1), (1, 1)), 1.0), (((60, 9), (9, 80)), 0.9)])
def test_csr_product_matches_scipy(array_device, rng, index, dtype, shapes, density):
    a, b = (_csr(rng, *shape, density, dtype) for shape in shapes)
    a.data[::5] *= -1
    (indptr, indices, data), arrays = _product(a, b, index, array_device)
    assert all(v.device == arrays[0].device for v in arrays)
    assert indptr.dtype == index and indices.dtype == index and data.dtype == dtype
    assert indptr.shape == (a.shape[0] + 1,) and indices.shape == data.shape == (indptr[-1],)
    _assert_canonical(indptr, indices)
    wide = np.complex128 if np.dtype(dtype).kind == "c" else np.float64
    want = (a.astype(wide) @ b.astype(wide)).toarray()
    got = sp.csr_matrix((data, indices, indptr), shape=want.shape).toarray()
    np.testing.assert_allclose(got, want, rtol=_tol(dtype) * 10, atol=_tol(dtype) * 10)
    # every position of C with a product is stored (a product that cancels stays a stored zero)
    pattern = (abs(a).astype(bool).astype(np.int64) @ abs(b).astype(bool).astype(np.int64)).toarray() > 0
    assert len(indices) == pattern.sum()


def test_csr_product_keeps_cancelled_entries_and_empty_rows(array_device):
    a = sp.csr_matrix(np.array([[1.0, 1.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 2.0]]))
    b = sp.csr_matrix(np.array([[1.0, 3.0], [-1.0, 0.0], [0.0, 0.0]]))  # row 2 of B is empty
    (indptr, indices, data), _ = _product(a, b, np.int32, array_device)
    np.testing.assert_array_equal(indptr, [0, 2, 2, 2])
    np.testing.assert_array_equal(indices, [0, 1])
    np.testing.assert_array_equal(data, [0.0, 3.0])


@pytest.mark.parametrize("index", [np.int32, np.int64])
def test_csr_product_without_products(array_device, index):
    # no stored entries in A, or A's columns meet only empty rows of B: C has no entries, and indptr is zeros
    a = sp.csr_matrix(np.array([[0.0, 2.0], [0.0, 1.0]]))
    b = sp.csr_matrix(np.array([[5.0, 1.0, 0.0], [0.0, 0.0, 0.0]]))
    for left in (a, sp.csr_matrix((2, 2))):
        (indptr, indices, data), _ = _product(left, b, index, array_device)
        np.testing.assert_array_equal(indptr, [0, 0, 0])
        assert indices.shape == data.shape == (0,)


def test_csr_product_bad_arguments(array_device):
    a = sp.csr_matrix(np.array([[1.0, 0.0], [2.0, 3.0]]))
    ops = _operands(a, np.int32, array_device)
    with pytest.raises(TypeError, match="all be int32 or all int64"):
        _sparse.csr_product(*ops, ops[0].astype(np.int64), *ops[1:], 2)
    with pytest.raises(TypeError, match="share one of float32"):
        _sparse.csr_product(*ops, *ops[:2], ops[2].astype(np.float32), 2)
    with pytest.raises(TypeError, match="share one of float32"):
        _sparse.csr_product(*ops[:2], ops[2].astype(np.int64), *ops[:2], ops[2].astype(np.int64), 2)
    with pytest.raises(ValueError, match="one length"):
        _sparse.csr_product(*ops, ops[0], ops[1], ops[2][:2], 2)
    with pytest.raises(ValueError, match="1-D"):
        _sparse.csr_product(*ops, *ops[:2], ops[2].reshape(1, 3), 2)
    with pytest.raises(ValueError, match="n_cols"):
        _sparse.csr_product(*ops, *ops, -1)


@pytest.mark.parametrize("dtype", [np.float64, np.complex64])
def test_products_over_many_matrices_and_reused_memory(array_device, rng, dtype):
    # more matrices than the per-thread descriptor cache holds, freed and rebuilt so that new arrays take the
    # addresses of old ones with other shapes: every product must be of the matrix it was asked about
    for i in range(40):
        m, n = 40 + (i % 7) * 13, 30 + (i % 5) * 11
        a = _csr(rng, m, n, 0.6, dtype)  # rows longer than 16: the vector product goes to cuSPARSE
        args = _operands(a, np.int32, array_device)
        x = _dense(rng, n, dtype)
        for _ in range(2):
            y = _sparse.csr_matmul(*args, n, npgpu.asarray(x, device=array_device))
            np.testing.assert_allclose(y.get(), a @ x, rtol=_tol(dtype) * 10, atol=_tol(dtype) * 10)
        want = (a * 2) @ x  # before the values change in place (on the host, args[2] may share a.data)
        args[2][...] = args[2] * 2  # the descriptor points at the values, so it sees new ones
        y = _sparse.csr_matmul(*args, n, npgpu.asarray(x, device=array_device))
        np.testing.assert_allclose(y.get(), want, rtol=_tol(dtype) * 10, atol=_tol(dtype) * 10)
        del args, y
