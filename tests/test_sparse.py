"""npgpu.sparse against scipy.sparse: constructors, conversions, canonical format, arithmetic, products (with and
without the compiled kernels of npgpu._sparse), validation errors. Runs on the host device and on the GPU
(``array_device``)."""
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
    assert a.dtype == dtype and a.indices.dtype == idx and a.indptr.dtype == idx
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
    a = ns.csr_matrix((s.data, s.indices.astype(np.int32), s.indptr.astype(np.int64)), shape=s.shape)
    assert a.indices.dtype == a.indptr.dtype == np.int64
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
