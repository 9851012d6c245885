"""npgpu.sparse against scipy.sparse: constructors, conversions, canonical format, arithmetic, products (with and
without the compiled kernels of npgpu._sparse), validation errors. Runs on the host device and on the GPU
(``array_device``)."""
import re

import numpy as np
import pytest

import npgpu
import npgpu.sparse as ns
from npgpu.sparse import _util

sp = pytest.importorskip("scipy.sparse")

FLOATS = [np.float32, np.float64, np.complex64, np.complex128]


def _tol(dtype):
    return 2e-4 if np.dtype(dtype) in (np.dtype(np.float32), np.dtype(np.complex64)) else 1e-12


def _rand(m, n, density, dtype=np.float64, seed=0, fmt="csr"):
    rng = np.random.default_rng(seed)
    s = sp.random(m, n, density=density, format="coo", random_state=rng, dtype=np.float64)
    data = s.data + 0.5
    if np.dtype(dtype).kind == "c":
        data = data + 1j * rng.uniform(0.5, 1.5, size=data.size)
    s = sp.coo_matrix((data.astype(dtype), (s.row, s.col)), shape=(m, n))
    return s.asformat(fmt)


def _with_dups(m, n, nnz, seed=1, dtype=np.float64):
    """A CSR with duplicate and unsorted column indices and some empty rows (SciPy accepts it as given)."""
    rng = np.random.default_rng(seed)
    rows = np.sort(rng.integers(0, max(m - 2, 1), size=nnz))
    cols = rng.integers(0, n, size=nnz)
    cols[1::7] = cols[::7][:len(cols[1::7])]  # force duplicates
    rows[1::7] = rows[::7][:len(rows[1::7])]
    order = np.lexsort((-cols, rows))  # unsorted (descending) columns within rows
    rows, cols = rows[order], cols[order]
    data = rng.uniform(0.5, 1.5, size=nnz).astype(dtype)
    indptr = np.searchsorted(rows, np.arange(m + 1)).astype(np.int32)
    s = sp.csr_matrix((data, cols.astype(np.int32), indptr), shape=(m, n))
    return s


def _close(got, want, dtype=np.float64):
    got = got.get() if isinstance(got, npgpu.Array) else np.asarray(got)
    want = want.toarray() if sp.issparse(want) else np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=_tol(dtype), atol=_tol(dtype) * max(1.0, np.abs(want).max(initial=0)))


CASES = [
    ("empty", lambda: sp.csr_matrix((7, 5))),
    ("one", lambda: sp.csr_matrix((np.array([2.5]), (np.array([3]), np.array([1]))), shape=(6, 4))),
    ("sparse", lambda: _rand(40, 30, 0.02, seed=3)),
    ("medium", lambda: _rand(60, 50, 0.2, seed=4)),
    ("dense", lambda: _rand(20, 25, 0.9, seed=5)),
    ("dups", lambda: _with_dups(30, 20, 60)),
]


@pytest.mark.parametrize("name,make", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_roundtrip_products_and_reductions(array_device, name, make, fmt):
    s = make().asformat(fmt)
    a = {"csr": ns.csr_matrix, "csc": ns.csc_matrix, "coo": ns.coo_matrix}[fmt](s)
    assert a.format == fmt and a.shape == s.shape and a.nnz == s.nnz and a.ndim == 2
    assert str(a.device) == str(npgpu.empty(1).device)
    ref = s.toarray()
    _close(a.toarray(), ref)
    _close(a.todense(), ref)
    back = a.get()
    assert back.format == fmt and sp.isspmatrix(back)
    np.testing.assert_array_equal(back.toarray(), ref)
    m, n = s.shape
    rng = np.random.default_rng(7)
    x = rng.standard_normal(n)
    X = rng.standard_normal((n, 3))
    _close(a @ x, s @ x)
    _close(a @ npgpu.asarray(X), s @ X)
    _close(a.dot(x), s @ x)
    _close(a * x, s @ x)  # spmatrix semantics: * is the matrix product
    xl = rng.standard_normal(m)
    _close(xl @ a, xl @ s)
    _close(a.T @ xl, s.T @ xl)
    _close(a.transpose().toarray(), ref.T)
    _close(a.sum(), ref.sum())
    _close(a.sum(axis=0), s.sum(axis=0))
    _close(a.sum(axis=1), s.sum(axis=1))
    _close(a.sum(axis=-1), s.sum(axis=-1))
    for k in (0, 1, -2, 100):
        _close(a.diagonal(k), s.diagonal(k))
    for other in ("csr", "csc", "coo"):
        c = a.asformat(other)
        assert c.format == other
        _close(c.toarray(), ref)
    _close((a * 3.0).toarray(), ref * 3.0)
    _close((2 * a).toarray(), ref * 2)
    _close((a / 4).toarray(), ref / 4)
    _close((-a).toarray(), -ref)
    b = ns.csr_matrix(s * 2.0)
    _close((a + b).toarray(), (s + s * 2.0).toarray())
    _close((a - b).toarray(), (s - s * 2.0).toarray())
    _close((b - a).toarray(), (s * 2.0 - s).toarray())
    _close(a + np.ones(s.shape), ref + 1)
    _close(a - npgpu.ones(s.shape), ref - 1)
    _close(a.multiply(b).toarray(), s.multiply(s * 2.0).toarray())
    _close(a.multiply(np.arange(n, dtype=np.float64)).toarray(), ref * np.arange(n))
    _close(a.multiply(2.0).toarray(), ref * 2)
    _close((a @ b.T).toarray(), (s @ (s * 2.0).T).toarray())
    _close(a.conj().toarray(), ref.conj())
    _close(a.copy().toarray(), ref)
    _close(a.astype(np.float32).toarray(), ref.astype(np.float32), np.float32)
    assert a.astype(np.float32).dtype == np.float32
    assert ns.issparse(a) and not ns.issparse(s) and ns.isspmatrix(a)
    assert getattr(ns, f"isspmatrix_{fmt}")(a)
    assert "sparse matrix" in repr(a) and str(a.shape) in repr(a)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("idx", [np.int32, np.int64])
def test_dtypes_and_index_dtypes(array_device, dtype, idx):
    s = _rand(50, 40, 0.1, dtype=dtype, seed=11)
    a = ns.csr_matrix((s.data, s.indices.astype(idx), s.indptr.astype(idx)), shape=s.shape)
    ref = sp.csr_matrix((s.data, s.indices.astype(idx), s.indptr.astype(idx)), shape=s.shape)
    # SciPy downcasts int64 index arrays whose values fit to int32 (get_index_dtype(check_contents=True))
    assert a.dtype == dtype and a.indices.dtype == ref.indices.dtype == np.int32
    assert a.indptr.dtype == ref.indptr.dtype
    rng = np.random.default_rng(2)
    x = rng.standard_normal(40).astype(dtype)
    X = rng.standard_normal((40, 4)).astype(dtype)
    _close(a @ x, s @ x, dtype)
    _close(a @ X, s @ X, dtype)
    assert (a @ x).dtype == dtype
    c = a.tocsc()
    _close(c @ x, s @ x, dtype)
    _close((a @ a.T).toarray(), (s @ s.T).toarray(), dtype)
    _close(a.sum(axis=1), s.sum(axis=1), dtype)


def test_products_without_compiled_kernels(array_device, monkeypatch):
    monkeypatch.setattr(_util, "_kernels", None)
    assert _util.kernels() is None
    for s in (_rand(30, 20, 0.2, seed=1), _with_dups(25, 15, 40), sp.csr_matrix((4, 3))):
        a = ns.csr_matrix(s)
        x = np.arange(s.shape[1], dtype=np.float64) + 1
        _close(a @ x, s @ x)
        _close(a @ np.ones((s.shape[1], 2)), s @ np.ones((s.shape[1], 2)))
        _close((a @ a.T).toarray(), (s @ s.T).toarray())
    ci = ns.csr_matrix(np.array([[1, 0, 2], [0, 3, 0]], dtype=np.int32))
    r = ci @ np.array([1, 1, 1], dtype=np.int32)
    assert r.dtype == np.int32 and r.get().tolist() == [3, 3]


def test_products_with_compiled_kernels_if_built(array_device):
    if _util.kernels() is None:
        pytest.skip("npgpu._sparse is not in this build")
    s = _with_dups(40, 30, 90)
    a = ns.csr_matrix(s)
    x = np.linspace(-1, 1, 30)
    _close(_util.kernels().csr_matmul(a.indptr, a.indices, a.data, 30, npgpu.asarray(x)), s @ x)


def _assert_canonical_arrays(m):
    indptr, indices = m.indptr.get(), m.indices.get()
    for r in range(len(indptr) - 1):
        assert (np.diff(indices[indptr[r]:indptr[r + 1]]) > 0).all()


@pytest.mark.parametrize("compiled", [True, False])
def test_sparse_sparse_products_both_routes(array_device, monkeypatch, compiled):
    # the compiled SpGEMM (cuSPARSE / OpenMP rows) and the composed one agree with SciPy on duplicates,
    # unsorted indices, mixed index and value dtypes, integer values and empty results
    if not compiled:
        monkeypatch.setattr(_util, "_kernels", None)
    elif _util.kernels() is None:
        pytest.skip("npgpu._sparse is not in this build")
    dups = _with_dups(30, 20, 60)
    pairs = [(dups, _rand(20, 25, 0.3, seed=2)), (_rand(40, 20, 0.1, np.float32, seed=3), dups.T.tocsr()),
             (_rand(15, 12, 0.4, np.complex64, seed=4), _rand(12, 9, 0.4, np.float64, seed=5)),
             (sp.csr_matrix(np.array([[1, 0, 2], [0, 0, 3]], dtype=np.int32)),
              sp.csr_matrix(np.array([[1, 1], [5, 0], [0, 2]], dtype=np.int64))),
             (sp.csr_matrix(np.array([[0.0, 2.0], [0.0, 1.0]])), sp.csr_matrix(np.array([[5.0], [0.0]])))]
    for left, right in pairs:
        a, b = ns.csr_matrix(left), ns.csr_matrix(right)
        a_dups = not a.has_canonical_format
        if a.shape == (40, 20):  # int64 indices on one side only
            b.indices, b.indptr = b.indices.astype(np.int64), b.indptr.astype(np.int64)
            assert b.indices.dtype == np.int64
        c = a @ b
        want = left @ right
        assert c.dtype == want.dtype and c.shape == want.shape and c.format == "csr"
        _close(c.toarray(), want.toarray(), c.dtype)
        assert c.has_canonical_format
        _assert_canonical_arrays(c)
        if a_dups:
            assert not a.has_canonical_format  # the operand itself is left as it was


def test_int_matrix_product_promotes():
    s = sp.csr_matrix(np.array([[1, 0], [2, 3]], dtype=np.int64))
    a = ns.csr_matrix(s)
    r = a @ np.array([0.5, 1.0])
    assert r.dtype == np.float64
    np.testing.assert_allclose(r.get(), s @ np.array([0.5, 1.0]))


def test_canonical_flags_sort_and_sum_duplicates(array_device):
    s = _with_dups(30, 20, 60)
    assert not s.has_sorted_indices and not s.has_canonical_format
    a = ns.csr_matrix((s.data, s.indices, s.indptr), shape=s.shape)
    assert a.has_sorted_indices is False and a.has_canonical_format is False
    b = a.sorted_indices()
    assert b.has_sorted_indices and a.has_sorted_indices is False
    assert np.all(np.diff(b.indices.get()[b.indptr.get()[3]:b.indptr.get()[4]]) >= 0)
    assert b.has_canonical_format is False  # duplicates remain
    a.sum_duplicates()
    ref = s.copy()
    ref.sum_duplicates()
    assert a.has_canonical_format and a.nnz == ref.nnz
    np.testing.assert_array_equal(a.indptr.get(), ref.indptr)
    np.testing.assert_array_equal(a.indices.get(), ref.indices)
    np.testing.assert_allclose(a.data.get(), ref.data)
    # canonical SciPy input: flags carried over, arrays not reordered
    c = _rand(20, 20, 0.3, seed=9)
    c.sum_duplicates()
    ac = ns.csr_matrix(c)
    assert ac._canonical is True and ac.has_sorted_indices
    np.testing.assert_array_equal(ac.indices.get(), c.indices)
    # COO
    co = sp.coo_matrix((np.array([1.0, 2, 3, 4]), (np.array([2, 0, 2, 0]), np.array([1, 1, 1, 0]))), shape=(3, 2))
    aco = ns.coo_matrix(co)
    assert aco.has_canonical_format is False
    aco.sum_duplicates()
    assert aco.has_canonical_format and aco.nnz == 3
    assert aco.row.get().tolist() == [0, 0, 2] and aco.col.get().tolist() == [0, 1, 1]
    assert aco.data.get().tolist() == [4.0, 2.0, 4.0]
    a.has_sorted_indices = False
    assert a.has_canonical_format is False


def test_eliminate_zeros(array_device):
    s = sp.csr_matrix((np.array([1.0, 0, 2, 0, 3]), np.array([0, 1, 2, 0, 1]), np.array([0, 2, 4, 5])),
                      shape=(3, 3))
    for fmt in ("csr", "csc", "coo"):
        a = ns.csr_matrix(s).asformat(fmt)
        a.eliminate_zeros()
        assert a.nnz == 3
        _close(a.toarray(), s.toarray())
    a = ns.csr_matrix(s)
    a.eliminate_zeros()
    np.testing.assert_array_equal(a.indptr.get(), [0, 1, 2, 3])


@pytest.mark.heavy
def test_constructor_paths(array_device):
    dense = np.array([[0, 1.5, 0], [0, 0, 0], [2, 0, -1]])
    for cls in (ns.csr_matrix, ns.csc_matrix, ns.coo_matrix, ns.csr_array, ns.csc_array, ns.coo_array):
        for src in (dense, npgpu.asarray(dense), sp.csr_matrix(dense), sp.coo_matrix(dense), sp.csc_array(dense)):
            a = cls(src)
            _close(a.toarray(), dense)
            assert a.nnz == 3
        e = cls((4, 6))
        assert e.shape == (4, 6) and e.nnz == 0 and e.dtype == np.float64
        _close(e.toarray(), np.zeros((4, 6)))
        e = cls((2, 3), dtype=np.complex64)
        assert e.dtype == np.complex64
        t = cls((np.array([1.0, 2.0, 3.0]), (np.array([0, 2, 0]), np.array([1, 0, 1]))), shape=(3, 3))
        want = np.array([[0, 4.0, 0], [0, 0, 0], [2, 0, 0]])
        _close(t.toarray(), want)
        t = cls((npgpu.asarray([1.0, 2.0]), (npgpu.asarray([0, 4]), npgpu.asarray([1, 2]))))
        assert t.shape == (5, 3)
        d = cls(dense, dtype=np.float32)
        assert d.dtype == np.float32
        c = cls(dense, copy=True)
        _close(cls(c).toarray(), dense)
        assert cls(c, dtype=np.complex128).dtype == np.complex128
        assert c.get().format == cls.format
        if cls.__name__.endswith("array"):
            assert not ns.isspmatrix(c) and ns.issparse(c)
            assert c.get().__class__.__name__.endswith("array")
    a = ns.csr_matrix((np.array([1.0, 2.0]), np.array([0, 2]), np.array([0, 1, 1, 2])))
    assert a.shape == (3, 3)
    a = ns.csr_matrix((np.array([1.0, 2.0]), np.array([0, 2]), np.array([0, 1, 1, 2])), shape=(3, 5))
    assert a.shape == (3, 5)
    _close(ns.csr_matrix(np.array([1.0, 0, 3])).toarray(), [[1.0, 0, 3]])
    # copy=False shares a SciPy matrix's arrays on the host device; copy=True does not
    s = sp.csr_matrix(dense)
    if array_device == "cpu":
        shared = ns.csr_matrix(s)
        s.data[0] = 99.0
        assert shared.data.get()[0] == 99.0
        copied = ns.csr_matrix(s, copy=True)
        s.data[0] = 5.0
        assert copied.data.get()[0] == 99.0


def test_array_semantics():
    s = _rand(6, 5, 0.5, seed=2)
    a = ns.csr_array(s)
    assert a.sum(axis=0).shape == (5,) and a.sum(axis=1).shape == (6,)
    m = ns.csr_matrix(s)
    assert m.sum(axis=0).shape == (1, 5) and m.sum(axis=1).shape == (6, 1)
    d = np.arange(30.0).reshape(6, 5)
    _close((a * d).toarray(), s.toarray() * d)  # sparray: * is elementwise
    _close(m * np.ones(5), s @ np.ones(5))
    assert isinstance(a.T, ns.csc_array) and isinstance(a.tocoo(), ns.coo_array)


def test_index_dtype_selection():
    s = _rand(10, 10, 0.3, seed=1)
    args = (s.data, s.indices.astype(np.int32), s.indptr.astype(np.int64))
    a = ns.csr_matrix(args, shape=s.shape)
    ref = sp.csr_matrix(args, shape=s.shape)
    assert a.indices.dtype == a.indptr.dtype == ref.indices.dtype == ref.indptr.dtype == np.int32
    coo_args = (s.data, (s.tocoo().row.astype(np.int64), s.tocoo().col.astype(np.int64)))
    assert ns.coo_matrix(coo_args, shape=s.shape).row.dtype == sp.coo_matrix(coo_args, shape=s.shape).row.dtype
    b = ns.csr_matrix(s.toarray())
    assert b.indices.dtype == np.int32
    big = ns.csr_matrix((1, 2 ** 31 + 5))
    assert big.indptr.dtype == np.int64
    assert ns.coo_matrix((3, 2 ** 32)).row.dtype == np.int64


BAD = [
    ("indptr length", (np.ones(2), np.array([0, 1]), np.array([0, 2])), (3, 3), "index pointer size"),
    ("not monotonic", (np.ones(2), np.array([0, 1]), np.array([0, 2, 1, 2])), (3, 3), "non-decreasing"),
    ("start", (np.ones(2), np.array([0, 1]), np.array([1, 1, 2, 2])), (3, 3), "start with 0"),
    ("last", (np.ones(2), np.array([0, 1]), np.array([0, 1, 1, 3])), (3, 3), "last value"),
    ("out of range", (np.ones(2), np.array([0, 3]), np.array([0, 1, 2, 2])), (3, 3), "< 3"),
    ("negative", (np.ones(2), np.array([0, -1]), np.array([0, 1, 2, 2])), (3, 3), ">= 0"),
    ("sizes", (np.ones(3), np.array([0, 1]), np.array([0, 1, 2, 2])), (3, 3), "same size"),
    ("2-d data", (np.ones((2, 1)), np.array([0, 1]), np.array([0, 1, 2, 2])), (3, 3), "one-dimensional"),
]


@pytest.mark.parametrize("name,args,shape,msg", BAD, ids=[b[0] for b in BAD])
def test_validation_errors(array_device, name, args, shape, msg):
    with pytest.raises(ValueError, match=msg):
        ns.csr_matrix(args, shape=shape)


def test_other_errors(array_device):
    with pytest.raises(ValueError, match="must hold integers"):
        ns.csr_matrix((np.ones(1), np.array([0.0]), np.array([0, 1])), shape=(1, 1))
    with pytest.raises(ValueError, match="row index exceeds"):
        ns.coo_matrix((np.ones(2), (np.array([0, 3]), np.array([0, 1]))), shape=(3, 3))
    with pytest.raises(ValueError, match="column index exceeds"):
        ns.coo_matrix((np.ones(2), (np.array([0, 1]), np.array([0, 3]))), shape=(3, 3))
    with pytest.raises(ValueError, match="negative row"):
        ns.coo_matrix((np.ones(2), (np.array([0, -1]), np.array([0, 1]))), shape=(3, 3))
    with pytest.raises(ValueError, match="same length"):
        ns.coo_matrix((np.ones(2), (np.array([0]), np.array([0, 1]))), shape=(3, 3))
    with pytest.raises(ValueError, match="infer dimensions"):
        ns.coo_matrix((np.ones(0), (np.zeros(0, int), np.zeros(0, int))))
    a = ns.csr_matrix(_rand(4, 3, 0.5, seed=1))
    with pytest.raises(ValueError, match="dimension mismatch"):
        a @ np.ones(4)
    with pytest.raises(ValueError, match="dimension mismatch"):
        a @ np.ones((2, 2))
    with pytest.raises(ValueError, match="dimension mismatch"):
        a @ a
    with pytest.raises(ValueError, match="inconsistent shapes"):
        a + a.T
    with pytest.raises(ValueError, match="inconsistent shapes"):
        a.multiply(a.T)
    with pytest.raises(ValueError, match="Scalar operands"):
        a @ 2.0
    with pytest.raises(NotImplementedError):
        a + 1.0
    _close((a + 0).toarray(), a.toarray())
    with pytest.raises(ValueError, match="2-d"):
        ns.csr_matrix(np.ones((2, 2, 2)))
    with pytest.raises(ValueError, match="shape"):
        ns.csr_matrix(np.ones((2, 2)), shape=(3, 3))
    with pytest.raises(ValueError, match="negative"):
        ns.csr_matrix((-1, 3))
    with pytest.raises(ValueError, match="tuple of 4"):
        ns.csr_matrix((1, 2, 3, 4))
    with pytest.raises(TypeError, match="ambiguous"):
        len(a)
    with pytest.raises(TypeError, match="dtype"):
        ns.csr_matrix(np.ones((2, 2)), dtype=object)


def test_device_mixing_is_an_error(has_gpu):
    if not has_gpu:
        pytest.skip("needs a GPU to have two devices")
    a = ns.csr_matrix(np.eye(3), device="cpu")
    with pytest.raises(ValueError, match="device"):
        a @ npgpu.ones(3, device="cuda")


def test_construct_functions(array_device):
    _close(ns.eye(4).toarray(), np.eye(4))
    _close(ns.eye(3, 5, k=2, dtype=np.float32).toarray(), np.eye(3, 5, k=2))
    _close(ns.eye(5, 3, k=-1).toarray(), np.eye(5, 3, k=-1))
    assert ns.eye(3, format="coo").format == "coo" and ns.eye(3, format="csc").format == "csc"
    _close(ns.identity(3).toarray(), np.eye(3))
    _close(ns.eye_array(3).toarray(), np.eye(3))
    want = sp.diags([[1.0, 2, 3], [4.0, 5], [6.0]], [0, -1, 2]).toarray()
    _close(ns.diags([[1.0, 2, 3], [4.0, 5], [6.0]], [0, -1, 2]).toarray(), want)
    _close(ns.diags([1.0, -2.0, 1.0], [-1, 0, 1], shape=(4, 4)).toarray(),
           sp.diags([1.0, -2.0, 1.0], [-1, 0, 1], shape=(4, 4)).toarray())
    _close(ns.diags(npgpu.asarray([1.0, 2.0, 3.0])).toarray(), np.diag([1.0, 2, 3]))
    _close(ns.diags_array([np.ones(2)], offsets=[1]).toarray(), np.eye(3, k=1))
    with pytest.raises(ValueError, match="does not agree"):
        ns.diags([[1.0, 2.0]], [0], shape=(4, 4))
    r = ns.random(20, 30, density=0.1, random_state=0)
    assert r.shape == (20, 30) and r.nnz == 60 and r.format == "coo"
    assert ns.random(5, 5, density=0.4, format="csr", dtype=np.complex64).dtype == np.complex64


def test_empty_and_degenerate_shapes(array_device):
    for shape in [(0, 0), (0, 4), (4, 0)]:
        a = ns.csr_matrix(shape)
        assert a.nnz == 0
        _close(a @ np.ones(shape[1]), np.zeros(shape[0]))
        _close(a.toarray(), np.zeros(shape))
        _close(a.tocsc().toarray(), np.zeros(shape))
        _close(a.sum(axis=0), np.zeros((1, shape[1])))
    a = ns.csr_matrix((3, 4))
    _close((a @ ns.csr_matrix((4, 2))).toarray(), np.zeros((3, 2)))
    _close(a @ np.ones((4, 0)), np.zeros((3, 0)))


def test_import_without_scipy_conversions_only(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def fake(name, *args, **kwargs):
        if name.startswith("scipy"):
            raise ImportError("no scipy")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake)
    a = ns.csr_matrix(np.eye(3))
    _close(a @ np.ones(3), np.ones(3))
    with pytest.raises(ImportError, match="SciPy"):
        a.get()


def test_import_is_lazy_and_scipy_free():
    import subprocess
    import sys

    code = ("import sys; sys.modules['scipy'] = None; import npgpu; "
            "assert 'npgpu.sparse' not in sys.modules; import npgpu.sparse as s; "
            "assert npgpu.sparse is s; a = s.csr_matrix(s.eye(3).toarray()); "
            "assert float((a @ [1.0, 2.0, 3.0]).sum()) == 6.0")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr



def test_device_array_at_left_of_a_sparse_matrix(array_device, rng):
    # Array.__matmul__ defers to an operand with __array_ufunc__ = None (NEP 13), so x @ A works.
    a = sp.random(7, 5, density=0.4, format="csr", random_state=rng)
    x = rng.standard_normal((3, 7))
    got = npgpu.asarray(x, device=array_device) @ ns.csr_matrix(a).to_device(array_device)
    assert isinstance(got, npgpu.Array) and got.device == npgpu.asarray(x, device=array_device).device
    np.testing.assert_allclose(got.get(), x @ a.toarray(), rtol=1e-12)


# ---------------------------------------------------------------------------------------------------------------
# indexing, stacking, reductions, elementwise functions, comparisons, restructuring (against scipy.sparse)

def _dense(x):
    if ns.issparse(x):
        x = x.toarray()
    if isinstance(x, npgpu.Array):
        return x.get()
    if sp.issparse(x):
        return x.toarray()
    return np.asarray(x)


def _same(got, want, dtype=np.float64):
    g, w = _dense(got), _dense(want)
    assert g.shape == w.shape, (g.shape, w.shape)
    if w.dtype == np.bool_ or w.dtype.kind in "iu":
        np.testing.assert_array_equal(g, w)
    else:
        np.testing.assert_allclose(g, w, rtol=_tol(dtype), atol=_tol(dtype))


def _signed(m, n, density, dtype=np.float64, seed=0):
    """Random values of both signs (so min / max / argmin / argmax see negative, positive and implicit zeros),
    with the first row left empty."""
    s = _rand(m, n, density, dtype=dtype, seed=seed).tocoo()
    rng = np.random.default_rng(seed + 100)
    keep = s.row != 0
    data = (s.data[keep] * rng.choice([-1, 1], size=keep.sum())).astype(dtype)
    return sp.csr_matrix((data, (s.row[keep], s.col[keep])), shape=(m, n))


MATS = [
    ("empty", lambda: sp.csr_matrix((6, 5))),
    ("one", lambda: sp.csr_matrix((np.array([-2.5]), (np.array([3]), np.array([1]))), shape=(6, 4))),
    ("sparse", lambda: _signed(30, 20, 0.05, seed=3)),
    ("medium", lambda: _signed(25, 30, 0.3, seed=4)),
    ("full", lambda: _signed(9, 7, 1.0, seed=5)),
    ("dups", lambda: _with_dups(20, 12, 50)),
]
MAT_IDS = [c[0] for c in MATS]


def _pair(make, fmt, dtype=np.float64):
    s = make().astype(dtype).asformat(fmt)
    # copy=True: on the host device copy=False shares SciPy's buffers, which SciPy's own indexing and
    # reductions reorder in place (sort_indices / sum_duplicates) behind the npgpu matrix's cached flags
    return {"csr": ns.csr_matrix, "csc": ns.csc_matrix, "coo": ns.coo_matrix}[fmt](s, copy=True), s


def _keys(m, n, rng):
    ri = rng.integers(0, m, size=5) if m else np.zeros(0, int)
    ci = rng.integers(0, n, size=5) if n else np.zeros(0, int)
    keys = [0, -1, slice(1, m - 1), slice(None, None, 2), slice(None, None, -3), (slice(None), 0),
            (slice(None), -1), list(ri), np.array(ri[::-1]), (slice(1, None), list(ci)), (list(ri), slice(None, 3)),
            (list(ri), list(ci)), (ri[:, None], ci[None, :3]), (ri.reshape(5, 1), ci.reshape(5, 1)),
            np.arange(m) % 3 == 0, (slice(None), np.arange(n) % 2 == 1), (0, list(ci)), (list(ri), 1),
            (slice(2, 2), slice(None)), [], (Ellipsis, 1), (2, Ellipsis), (slice(-3, None), slice(1, -1)),
            (slice(None, None, -1), slice(None, None, 2))]
    keys += [(int(ri[0]), int(ci[0])), (-1, -1), (np.int64(ri[1]), np.int32(ci[1]))]
    return keys


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("name,make", MATS, ids=MAT_IDS)
def test_indexing_matches_scipy(array_device, name, make, fmt):
    a, s = _pair(make, fmt)
    m, n = s.shape
    for key in _keys(m, n, np.random.default_rng(1)):
        want = s[key]
        got = a[key]
        if sp.issparse(want):
            assert ns.issparse(got) and got.format == fmt, (key, got)
            assert str(got.device) == str(a.device)
        elif np.ndim(want) == 0:
            assert isinstance(got, npgpu.Array) and got.ndim == 0 and got.dtype == s.dtype
        else:  # np.matrix of fancy pairs
            assert isinstance(got, npgpu.Array)
        _same(got, want)
    # index arrays given as npgpu Arrays (on the matrix's device), boolean masks sparse and dense
    ri = npgpu.asarray(np.array([m - 1, 0, -1]))
    _same(a[ri], s[[m - 1, 0, -1]])
    _same(a[:, npgpu.asarray([n - 1, 0])], s[:, [n - 1, 0]])
    _same(a[npgpu.asarray(np.arange(m) % 2 == 0)], s[np.arange(m) % 2 == 0])
    _same(a[a > 0], s[s > 0])
    _same(a[s.toarray() < 0], s[s.toarray() < 0])
    _same(a.getrow(m - 1), s.getrow(m - 1))
    _same(a.getcol(0), s.getcol(0))


@pytest.mark.parametrize("dtype", [np.float32, np.complex128])
def test_indexing_dtypes_and_index_dtypes(array_device, dtype):
    s = _rand(30, 20, 0.2, dtype=dtype, seed=8)
    for idx in (np.int32, np.int64):
        a = ns.csr_matrix((s.data, s.indices.astype(idx), s.indptr.astype(idx)), shape=s.shape)
        for key in [(slice(3, 9), slice(None)), ([4, 1, 4], slice(2, 18)), (slice(None), [5, 5, 0]),
                    ([1, 2], [3, 4]), (7, 3)]:
            g = a[key]
            assert g.dtype == dtype
            _same(g, s[key], dtype)
        # an index array with a stepped slice: SciPy 1.17 fails to reshape its result; NumPy's answer
        _same(a[[4, 1, 4], 2:18:3], s.toarray()[[4, 1, 4], 2:18:3], dtype)


def test_indexing_errors(array_device):
    s = _rand(4, 3, 0.5, seed=1)
    a = ns.csr_matrix(s)
    for key in [(4, 0), (0, -4), 5, [0, 5], (slice(None), [3]), (slice(None), npgpu.asarray([0, 3]))]:
        with pytest.raises(IndexError):
            s[key] if not isinstance(key, tuple) or not isinstance(key[1], npgpu.Array) else s[:, [0, 3]]
        with pytest.raises(IndexError):
            a[key]
    for key in [1.5, "a", (0, 0, 0), None, np.array([True, False]), ([0, 1], [0, 1, 2])]:
        with pytest.raises(IndexError):
            s[key]
        with pytest.raises(IndexError):
            a[key]
    with pytest.raises(TypeError):
        ns.coo_matrix(s)[0]
    with pytest.raises(NotImplementedError, match="1-d"):
        ns.csr_array(s)[0]
    _same(ns.csr_array(s)[[0]], s[[0]])
    _same(ns.csr_array(s)[[0, 2], [1, 2]], ns.csr_array(s).toarray().get()[[0, 2], [1, 2]])


def _fmt_kind(x):
    return x.format, ("array" if (x._is_array if ns.issparse(x) else isinstance(x, sp.sparray)) else "matrix")


def test_stacking_matches_scipy(array_device):
    a_s, b_s = _signed(5, 4, 0.5, seed=1), _with_dups(5, 3, 9)
    c_s = _rand(2, 4, 0.5, dtype=np.complex128, seed=2)
    a, b, c = ns.csr_matrix(a_s), ns.csr_matrix(b_s), ns.csr_matrix(c_s)
    cases = [
        (lambda m, a, b, c: m.hstack([a, b]), "csr"), (lambda m, a, b, c: m.hstack([a.tocsc(), b.tocsc()]), "csc"),
        (lambda m, a, b, c: m.hstack([a, b.tocsc()]), "coo"), (lambda m, a, b, c: m.vstack([a, c]), "csr"),
        (lambda m, a, b, c: m.vstack([a.tocsc(), c.tocsc()]), "csc"),
        (lambda m, a, b, c: m.vstack([a.tocoo(), c]), "coo"),
        (lambda m, a, b, c: m.hstack([a, b], format="csc"), "csc"),
        (lambda m, a, b, c: m.vstack([a, c], dtype=np.complex64), "csr"),
        (lambda m, a, b, c: m.bmat([[a, None], [None, c]]), "coo"),
        (lambda m, a, b, c: m.bmat([[a, b], [c, None]]), "coo"),
        (lambda m, a, b, c: m.bmat([[a], [None]], format="csr"), "csr"),
        (lambda m, a, b, c: m.bmat([[None, None]]), "coo"),
        (lambda m, a, b, c: m.block_diag([a, b, c]), "coo"),
        (lambda m, a, b, c: m.block_diag([a, np.ones((1, 2))]), "coo"),
        (lambda m, a, b, c: m.block_diag([a, c], format="csr"), "csr"),
        (lambda m, a, b, c: m.kron(a, c), "coo"), (lambda m, a, b, c: m.kron(b, a, format="csc"), "csc"),
        (lambda m, a, b, c: m.kron(m.csr_matrix((3, 2)), a), "coo"),
        (lambda m, a, b, c: m.tril(a), "coo"), (lambda m, a, b, c: m.tril(b, -1, format="csr"), "csr"),
        (lambda m, a, b, c: m.triu(a, 1), "coo"), (lambda m, a, b, c: m.triu(b.tocsc(), -2, format="csc"), "csc"),
    ]
    for make, fmt in cases:
        want, got = make(sp, a_s, b_s, c_s), make(ns, a, b, c)
        assert got.format == fmt and want.format in (fmt, "bsr")  # no BSR in npgpu.sparse: COO instead
        assert want.dtype == got.dtype
        _same(got, want, want.dtype)
    # *_array inputs give *_array results, as SciPy
    got = ns.hstack([ns.csr_array(a_s), a])
    assert _fmt_kind(got) == _fmt_kind(sp.hstack([sp.csr_array(a_s), a_s])) == ("csr", "array")
    assert ns.tril(ns.csr_array(a_s)).__class__ is ns.coo_array
    assert ns.kron(ns.csr_array(a_s), a).__class__ is ns.coo_array
    with pytest.raises(ValueError):
        ns.hstack([a, c])
    with pytest.raises(ValueError):
        sp.hstack([a_s, c_s])
    with pytest.raises(ValueError):
        ns.vstack([a, b])
    with pytest.raises(ValueError, match="2-D"):
        ns.bmat([])
    with pytest.raises(ValueError, match="incompatible"):
        sp.bmat([[a_s, b_s.T]])
    with pytest.raises(ValueError, match="incompatible"):
        ns.bmat([[a, b.T]])
    with pytest.raises(ValueError, match="incompatible"):
        ns.bmat([[a], [b.T]])


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
@pytest.mark.parametrize("name,make", MATS, ids=MAT_IDS)
def test_reductions_match_scipy(array_device, name, make, dtype):
    s0 = make()
    if np.dtype(dtype).kind == "i":
        s0 = s0.copy()
        s0.data = np.round(s0.data * 3)
    for fmt in ("csr", "csc", "coo"):
        a, s = _pair(lambda: s0, fmt, dtype)
        d = s.toarray()
        # stored-entry counts first: SciPy's reductions below sum s's duplicates in place
        assert a.getnnz() == s.getnnz()
        for ax in (0, 1, -1):
            _same(a.getnnz(axis=ax), s.getnnz(axis=ax))
        got = a.sum()
        assert isinstance(got, npgpu.Array) and got.ndim == 0
        _same(got, s.sum(), dtype)
        _same(a.mean(), s.mean(), dtype)
        for ax in (0, 1, -1):
            _same(a.sum(axis=ax), s.sum(axis=ax), dtype)
            _same(a.mean(axis=ax), s.mean(axis=ax), dtype)
            _same(a.count_nonzero(axis=ax), s.count_nonzero(axis=ax))
            mx, mn = a.max(axis=ax), a.min(axis=ax)
            assert ns.issparse(mx) and mx.format == "coo"
            _same(mx, s.max(axis=ax), dtype)
            _same(mn, s.min(axis=ax), dtype)
            _same(a.max(axis=ax, explicit=True), s.max(axis=ax, explicit=True), dtype)
            # NumPy's argmax of the dense matrix (SciPy's differs only when an explicit zero is the maximum)
            _same(a.argmax(axis=ax), np.asarray(d.argmax(axis=ax % 2)).reshape(s.argmax(axis=ax).shape))
            _same(a.argmin(axis=ax), np.asarray(d.argmin(axis=ax % 2)).reshape(s.argmin(axis=ax).shape))
        assert a.count_nonzero() == s.count_nonzero()
        _same(a.max(), s.max(), dtype)
        _same(a.min(), s.min(), dtype)
        assert int(a.argmax()) == int(d.argmax()) and int(a.argmin()) == int(d.argmin())
        if s.nnz:
            _same(a.max(explicit=True), s.max(explicit=True), dtype)
        if name != "dups":  # no explicit zeros, where SciPy's argmax is NumPy's
            assert int(a.argmax()) == s.argmax() and int(a.argmin()) == s.argmin()
            _same(a.argmax(axis=0), s.argmax(axis=0))
            _same(a.argmin(axis=1), s.argmin(axis=1))


def test_reductions_of_arrays_and_errors(array_device):
    s = _signed(6, 5, 0.4, seed=2)
    a = ns.csr_array(s)
    sa = sp.csr_array(s)
    _same(a.max(axis=0), sa.max(axis=0).toarray())  # 1-d: dense here, a 1-d COO array in SciPy
    _same(a.argmin(axis=1), sa.argmin(axis=1))
    _same(a.getnnz(axis=1), sa.count_nonzero(axis=1))
    _same(a.sum(axis=1), sa.sum(axis=1))
    c = ns.csr_matrix(np.array([[1 + 1j, 0], [0, 2], [-1j, 0]]))
    cs = sp.csr_matrix(c.toarray().get())
    _same(c.max(), cs.max())
    _same(c.min(axis=0), cs.min(axis=0))
    assert int(c.argmax()) == cs.argmax()
    m = ns.csr_matrix(s)
    for bad in (2, -3, (0, 1, 2)):
        with pytest.raises(ValueError):
            s.max(axis=bad)
        with pytest.raises(ValueError):
            m.max(axis=bad)
    with pytest.raises(ValueError):
        m.getnnz(axis=3)
    with pytest.raises(ValueError):
        s.getnnz(axis=3)
    for e, es in ((ns.csr_matrix((0, 3)), sp.csr_matrix((0, 3))),):
        for f in ("max", "argmax"):
            with pytest.raises(ValueError):
                getattr(es, f)()
            with pytest.raises(ValueError):
                getattr(e, f)()
            with pytest.raises(ValueError):
                getattr(es, f)(axis=0)
            with pytest.raises(ValueError):
                getattr(e, f)(axis=0)
        _same(e.max(axis=1), es.max(axis=1))
    with pytest.raises(ValueError):
        ns.csr_matrix((3, 3)).argmax(explicit=True)
    with pytest.raises(ValueError, match="out"):
        m.max(out=npgpu.zeros(1))


FUNCS = ["arcsin", "arcsinh", "arctan", "arctanh", "ceil", "deg2rad", "expm1", "floor", "log1p", "rad2deg",
         "rint", "sign", "sin", "sinh", "sqrt", "tan", "tanh", "trunc"]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_elementwise_functions_and_power(array_device, dtype, fmt):
    s0 = _with_dups(12, 9, 30, dtype=np.float64) * 0.3  # (0.15, 0.45), summed pairs < 1: all defined
    if np.dtype(dtype).kind == "c":
        s0 = s0 + 0.25j * s0
    s0 = s0.astype(dtype).asformat(fmt)
    for f in FUNCS:
        if np.dtype(dtype).kind == "c" and f in ("ceil", "floor", "rint", "trunc", "deg2rad", "rad2deg"):
            continue
        a = {"csr": ns.csr_matrix, "csc": ns.csc_matrix, "coo": ns.coo_matrix}[fmt](s0.copy())
        s = s0.copy()
        got, want = getattr(a, f)(), getattr(s, f)()
        assert got.format == want.format and got.dtype == want.dtype, f
        _same(got, want, dtype)
    a = ns.csr_matrix(s0.tocsr())
    s = s0.tocsr()
    _same(a.power(3), s.power(3), dtype)
    _same(a.power(2, dtype=np.complex128), s.power(2, dtype=np.complex128))
    _same(abs(-a), abs(-s), dtype)
    _same(round(a * 10), round(s * 10), dtype)
    with pytest.raises(NotImplementedError):
        s.power(0)
    with pytest.raises(NotImplementedError):
        a.power(0)
    sq, sqs = ns.csr_matrix(s[:9]), s[:9]
    for k in (0, 1, 2, 5):
        _same(sq ** k, sqs ** k, dtype)
    for bad, exc in ((-1, ValueError), (2.5, ValueError)):
        with pytest.raises(exc):
            sqs ** bad
        with pytest.raises(exc):
            sq ** bad
    with pytest.raises(TypeError):
        s ** 2
    with pytest.raises(TypeError):
        a ** 2
    _same(ns.csr_array(s) ** 2, sp.csr_array(s) ** 2, dtype)


@pytest.mark.parametrize("name,make", MATS, ids=MAT_IDS)
def test_comparisons_match_scipy(array_device, name, make):
    import warnings

    for fmt in ("csr", "csc", "coo"):
        a, s = _pair(make, fmt)
        other_s = (s * 2 - sp.eye(*s.shape) * 0.5).asformat(fmt)
        other = ns.csr_matrix(other_s).asformat(fmt)
        for op in ("__eq__", "__ne__", "__lt__", "__gt__", "__le__", "__ge__"):
            for v in (0, 0.5, -0.5, other):
                w = other_s if v is other else v
                with warnings.catch_warnings(record=True) as rec_s:
                    warnings.simplefilter("always")
                    want = getattr(s, op)(w)
                with warnings.catch_warnings(record=True) as rec:
                    warnings.simplefilter("always")
                    got = getattr(a, op)(v)
                assert got.dtype == np.bool_ and got.format == want.format, (op, v)
                _same(got, want)
                assert bool(rec) == bool(rec_s), (op, v)
                if rec:
                    assert issubclass(rec[0].category, ns.SparseEfficiencyWarning)
        _same(a == np.ones(s.shape), s.toarray() == 1)
    a = ns.csr_matrix(make())
    with pytest.raises(ValueError, match="inconsistent"):
        _ = a < ns.csr_matrix((a.shape[0] + 1, a.shape[1]))


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_setdiag_resize_reshape(array_device, fmt):
    for make in (lambda: _with_dups(8, 6, 20), lambda: _signed(5, 9, 0.4, seed=3), lambda: sp.csr_matrix((4, 4))):
        s0 = make().asformat(fmt)
        m, n = s0.shape
        for values, k in ((7.0, 0), ([1.0, 0.0, 3.0], 1), (np.arange(20.0), -2), (npgpu.asarray([5.0, 6.0]), 2),
                          (-1.0, n - 1), (2.0, -(m - 1))):
            a = {"csr": ns.csr_matrix, "csc": ns.csc_matrix, "coo": ns.coo_matrix}[fmt](s0)
            s = s0.copy()
            a.setdiag(values, k)
            s.setdiag(values.get() if isinstance(values, npgpu.Array) else values, k)
            assert a.format == fmt
            _same(a, s)
            _same(a.diagonal(k), s.diagonal(k))
        a = ns.csr_matrix(s0).asformat(fmt)
        for k in (m, -n - 1, n):
            if -m < k < n:
                continue
            with pytest.raises(ValueError):
                s0.copy().setdiag(1.0, k)
            with pytest.raises(ValueError):
                a.setdiag(1.0, k)
        for shape in ((m - 1, n + 2), (m + 3, 2), (0, 0)):
            a = ns.csr_matrix(s0).asformat(fmt)
            s = s0.copy()
            a.resize(*shape)
            s.resize(*shape)
            assert a.shape == shape and a.format == fmt
            _same(a, s)
        a = ns.csr_matrix(s0).asformat(fmt)
        for shape, order in (((n, m), "C"), ((1, m * n), "C"), ((-1, m), "F"), ((m * n, 1), "F")):
            got, want = a.reshape(shape, order=order), s0.reshape(shape, order=order)
            assert got.format == want.format == ("coo" if want.shape != (m, n) else fmt)
            _same(got, want)
        assert a.reshape(m, n) is a
        with pytest.raises(ValueError):
            s0.reshape(m * n + 1, 1)
        with pytest.raises(ValueError):
            a.reshape(m * n + 1, 1)


def test_nonzero_and_index_dtypes_of_results(array_device):
    s = _with_dups(10, 8, 25)
    s.data[::5] = 0
    a = ns.csr_matrix(s)
    r, c = a.nonzero()
    rs, cs = s.nonzero()
    assert sorted(zip(r.get().tolist(), c.get().tolist())) == sorted(zip(rs.tolist(), cs.tolist()))
    big = _rand(12, 9, 0.3, seed=4)
    for idx in (np.int32, np.int64):
        args = (big.data, big.indices.astype(idx), big.indptr.astype(idx))
        a, ref = ns.csr_matrix(args, shape=big.shape), sp.csr_matrix(args, shape=big.shape)
        for x, y in ((a[2:7], ref[2:7]), (a[:, [1, 3]], ref[:, [1, 3]]), (ns.hstack([a, a]), sp.hstack([ref, ref])),
                     (ns.kron(a, a).tocsr(), sp.kron(ref, ref).tocsr()), (a > 0.5, ref > 0.5)):
            assert x.indices.dtype == y.indices.dtype == np.int32
            assert x.indptr.dtype == y.indptr.dtype


def test_asformat_unknown_format(array_device):
    # SciPy's answer to a format it lacks is ValueError; npgpu.sparse lacks bsr, dia, lil and dok too
    a = ns.csr_matrix(np.eye(3))
    for fmt in ("dia", "lil", "str"):
        with pytest.raises(ValueError, match="unknown to npgpu.sparse"):
            a.asformat(fmt)
    assert a.asformat("csc").format == "csc"


def test_longest_row_is_kept_per_indptr(array_device):
    # read back once per indptr array; a matrix given new arrays counts again
    a = ns.csr_matrix(np.array([[1.0, 0, 2], [0, 0, 0], [3, 4, 5]]))
    assert a._longest_row() == 3
    first = a._longest_row_cache
    assert a._longest_row() == 3 and a._longest_row_cache is first
    b = ns.csr_matrix(np.array([[1.0, 0, 0], [0, 2, 0], [0, 0, 3]]))
    a.data, a.indices, a.indptr = b.data, b.indices, b.indptr
    assert a._longest_row() == 1
    assert ns.csr_matrix((3, 3))._longest_row() == 0


SPARSE_CLASSES = ("csr_matrix", "csc_matrix", "coo_matrix", "csr_array", "csc_array", "coo_array")
BROADCAST_SHAPES = [((1, 1), (2, 1)), ((2, 1), (1, 1)), ((1, 3), (2, 3)), ((2, 3), (1, 3)), ((2, 1), (2, 3)),
                    ((2, 3), (2, 1)), ((1, 3), (2, 1)), ((2, 1), (1, 3)), ((2, 3), (1, 1)), ((1, 1), (2, 3)),
                    ((1, 3), (1, 1)), ((1, 1), (1, 3)), ((4, 1), (1, 1)), ((1, 3), (0, 3)), ((0, 3), (1, 3)),
                    ((1, 0), (3, 1)), ((3, 1), (1, 0)), ((0, 1), (0, 3))]


def _broadcast_operand(cls, shape, dtype, rng, dups):
    """A SciPy matrix of `cls` and an npgpu one from the same values (COO triples with duplicates if `dups`)."""
    if dups and shape[0] * shape[1]:
        k = 6
        rows, cols = rng.integers(0, shape[0], k), rng.integers(0, shape[1], k)
        vals = rng.integers(-3, 4, k).astype(dtype)
        return getattr(sp, cls)((vals, (rows, cols)), shape=shape), getattr(ns, cls)((vals, (rows, cols)), shape=shape)
    dense = (rng.integers(-3, 4, shape) * (rng.random(shape) < 0.6)).astype(dtype)
    return getattr(sp, cls)(dense), getattr(ns, cls)(dense)


def _same_as_scipy(got, want):
    assert got.format == want.format and got.shape == want.shape and got.dtype == want.dtype
    assert got._is_array == isinstance(want, sp.sparray), (type(got).__name__, type(want).__name__)
    np.testing.assert_array_equal(got.toarray().get(), want.toarray())


@pytest.mark.heavy
@pytest.mark.parametrize("shapes", BROADCAST_SHAPES, ids=str)
def test_multiply_sparse_broadcasts_as_scipy(array_device, shapes):
    # sparse * sparse elementwise broadcasts as SciPy's multiply: its shape, format, *_matrix / *_array kind,
    # dtype (a (1, 1) left operand scales by its data's sum, of NumPy's sum dtype) and values
    rng = np.random.default_rng(sum(shapes[0] + shapes[1]))
    a_shape, b_shape = shapes
    for ca in SPARSE_CLASSES:
        for cb in SPARSE_CLASSES:
            for da, db in ((np.float64, np.float32), (np.int64, np.complex128), (np.bool_, np.bool_),
                           (np.int32, np.int32), (np.float32, np.bool_)):
                dups = bool(rng.integers(0, 2))
                ref_a, a = _broadcast_operand(ca, a_shape, da, rng, dups)
                ref_b, b = _broadcast_operand(cb, b_shape, db, rng, dups)
                got = a.multiply(b)
                _same_as_scipy(got, ref_a.multiply(ref_b))
                assert got.device == a.device


@pytest.mark.heavy
def test_multiply_sparse_broadcast_examples(array_device):
    # the shapes of the differential test's find: (1, 1) x (2, 1) and its kin, each value checked
    col = np.array([[2.0], [-3.0]])
    row = np.array([[1.0, 0.0, 4.0]])
    full = np.array([[1.0, 2.0, 0.0], [0.0, -1.0, 5.0]])
    cases = [(np.zeros((1, 1)), np.zeros((2, 1))), (np.array([[7.0]]), col), (row[:, :3], full), (col, full),
             (row, col), (col, row), (full, row), (full, col), (full, np.array([[0.5]]))]
    for x, y in cases:
        for fa, fb in (("csr", "csr"), ("csc", "csr"), ("csr", "csc"), ("coo", "csc")):
            got = getattr(ns, fa + "_matrix")(x).multiply(getattr(ns, fb + "_matrix")(y))
            want = getattr(sp, fa + "_matrix")(x).multiply(getattr(sp, fb + "_matrix")(y))
            _same_as_scipy(got, want)
            np.testing.assert_array_equal(got.toarray().get(), x * y)


def test_multiply_sparse_shapes_that_do_not_broadcast(array_device):
    a = ns.csr_matrix(np.ones((2, 3)))
    for shape in [(3, 2), (2, 2), (3, 3), (1, 2), (3, 1), (0, 3), (2, 0)]:
        b = ns.csc_matrix(np.ones(shape))
        with pytest.raises(ValueError, match=r"inconsistent shapes.*\(2, 3\).*" + re.escape(str(shape))):
            a.multiply(b)
        with pytest.raises(ValueError, match=r"inconsistent shapes.*" + re.escape(str(shape)) + r".*\(2, 3\)"):
            b.multiply(a)
        with pytest.raises(ValueError):
            sp.csr_matrix(np.ones((2, 3))).multiply(sp.csc_matrix(np.ones(shape)))


def test_multiply_dense_broadcast_reads_the_operand_in_place(array_device):
    # a (1, n), (m, 1), (n,) or (1, 1) dense operand is read at each entry's position (no m x n copy)
    s = _with_dups(30, 20, 60)
    a = ns.csr_matrix(s)
    rng = np.random.default_rng(5)
    for shape in [(1, 20), (30, 1), (20,), (1, 1), (), (30, 20)]:
        x = rng.uniform(-2, 2, shape)
        want = s.multiply(x)
        _close(a.multiply(x).toarray(), want.toarray())
        _close(a.multiply(npgpu.asarray(x)).toarray(), want.toarray())
    with pytest.raises(ValueError, match="inconsistent shapes"):
        a.multiply(np.ones((2, 20)))
    with pytest.raises(ValueError, match="inconsistent shapes"):
        a.multiply(np.ones(19))


@pytest.mark.parametrize("shapes", [((1, 1), (2, 1)), ((1, 1), (3,)), ((1, 1), (2, 3)), ((1, 3), (2, 3)),
                                    ((1, 3), (4, 1)), ((3, 1), (1, 4)), ((3, 1), (3, 4)), ((3, 1), (4,)),
                                    ((1, 3), (0, 3)), ((1, 1), (1, 1)), ((2, 3), (3,))], ids=str)
def test_multiply_dense_broadcasts_the_matrix_as_scipy(array_device, shapes):
    # a (1, n) row or (m, 1) column times a dense operand of more rows / columns: the broadcast shape, in the
    # matrix's format and kind (SciPy gives COO); a (1, 1) matrix times more than one element: dense, as SciPy
    m_shape, x_shape = shapes
    rng = np.random.default_rng(7)
    for cls in SPARSE_CLASSES:
        for dt, xdt in ((np.float64, np.float64), (np.int32, np.float32), (np.bool_, np.int64)):
            ref, a = _broadcast_operand(cls, m_shape, dt, rng, dups=cls.startswith("csr"))
            x = rng.integers(-3, 4, x_shape).astype(xdt)
            want = ref.multiply(x)
            for operand in (x, npgpu.asarray(x)):
                got = a.multiply(operand)
                if sp.issparse(want):
                    _same_as_scipy(got, want.asformat(a.format))
                else:
                    assert isinstance(got, npgpu.Array) and got.device == npgpu.asarray(x).device
                    assert got.shape == want.shape and got.dtype == want.dtype
                    np.testing.assert_array_equal(got.get(), want)
    with pytest.raises(ValueError, match="inconsistent shapes"):
        ns.csr_matrix(np.ones((1, 3))).multiply(np.ones((2, 2)))
    with pytest.raises(ValueError, match="inconsistent shapes"):
        ns.csr_matrix(np.ones((3, 1))).multiply(np.ones((2, 4)))
