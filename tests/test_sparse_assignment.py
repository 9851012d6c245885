"""Item assignment of npgpu.sparse CSR / CSC matrices and arrays (issue 21) against scipy.sparse: the dense values,
the stored structure (nnz, indptr, indices: explicit zeros kept), SparseEfficiencyWarning, and the canonical
format after each assignment."""
import warnings
import zlib

import numpy as np
import pytest

import npgpu
import npgpu.sparse as ns

sp = pytest.importorskip("scipy.sparse")

SHAPES = [(5, 6), (8, 4), (3, 7)]
DTYPES = [np.float64, np.complex128, np.int32]
KINDS = [("csr", False), ("csc", False), ("csr", True), ("csc", True)]


def _values(rng, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "i":
        return rng.integers(1, 100, size=shape).astype(dtype)
    v = rng.standard_normal(shape) + 2.0
    if dtype.kind == "c":
        v = v + 1j * rng.standard_normal(shape)
    return v.astype(dtype)


def _pair(rng, shape, dtype, fmt, is_array, device):
    """A random canonical SciPy matrix (row 1 and column 0 empty) and the npgpu copy on `device`."""
    m, n = shape
    dense = _values(rng, shape, dtype) * (rng.random(shape) < 0.35)
    dense[1, :] = 0
    dense[:, 0] = 0
    kind = f"{fmt}_{'array' if is_array else 'matrix'}"
    s = getattr(sp, kind)(dense)
    a = getattr(ns, kind)(s, device=device)
    assert a.nnz == s.nnz
    return s, a


def _apply(mat, key, value):
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        mat[key] = value
    return [w for w in rec if issubclass(w.category, sp.SparseEfficiencyWarning)]


def _check_same(a, s):
    np.testing.assert_array_equal(a.toarray().get(), s.toarray())
    assert a.nnz == s.nnz  # explicit zeros stay stored as SciPy stores them
    assert a.has_sorted_indices
    assert a.has_canonical_format
    s.sort_indices()
    np.testing.assert_array_equal(a.indptr.get(), s.indptr)
    np.testing.assert_array_equal(a.indices.get(), s.indices)
    np.testing.assert_array_equal(a.data.get(), s.data)
    assert a.dtype == s.dtype


def _assignments(rng, shape, dtype):
    m, n = shape
    rowmask = np.zeros(m, dtype=bool)
    rowmask[[0, m - 1]] = True
    mask2 = rng.random(shape) < 0.3
    return [
        ((2, 3), _values(rng, (), dtype)),                      # one element, likely a new entry
        ((-1, -2), _values(rng, (), dtype)),                     # negative indices
        ((1, 1), 0),                                            # an explicit zero in an empty row
        ((0, slice(None)), _values(rng, (), dtype)),            # a whole row, scalar broadcast
        ((slice(None), -1), _values(rng, (m,), dtype)),         # a whole column from a 1-d array
        (([0, 2], [1, 3]), _values(rng, (2,), dtype)),          # fancy pairs
        (([0, 0, 2], [1, 1, 1]), _values(rng, (3,), dtype)),    # repeated positions: the last one wins
        ((slice(1, 3), slice(2, 4)), _values(rng, (2, 2), dtype)),  # a dense block
        ((np.array([[0], [2]]), np.array([1, 3])), _values(rng, (2, 2), dtype)),  # broadcast outer arrays
        ((rowmask, slice(1, 3)), _values(rng, (2, 2), dtype)),  # boolean row mask x slice
        ((slice(None, None, 2), slice(n - 1, None, -2)), 0),    # stepped / reversed slices, zeros
        (mask2, _values(rng, (), dtype)),                       # a 2-d boolean mask
        ((m - 1, slice(None)), _values(rng, (1, n), dtype)),    # (1, n) value into a row
        (1, _values(rng, (n,), dtype)),                         # A[i] = row
    ]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("fmt,is_array", KINDS, ids=lambda k: str(k))
def test_assignments_match_scipy(array_device, shape, dtype, fmt, is_array):
    rng = np.random.default_rng(zlib.crc32(repr((shape, np.dtype(dtype).name, fmt, is_array)).encode()))
    s, a = _pair(rng, shape, dtype, fmt, is_array, array_device)
    for key, value in _assignments(rng, shape, dtype):
        ws = _apply(s, key, value)
        wa = _apply(a, key, value)
        assert bool(ws) == bool(wa), key
        for w in wa:
            assert issubclass(w.category, ns.SparseEfficiencyWarning)
            assert "Changing the sparsity structure" in str(w.message)
        _check_same(a, s)
        assert a.device == s_device(array_device)
    # stored zeros are removed by eliminate_zeros, as SciPy
    s.eliminate_zeros()
    a.eliminate_zeros()
    _check_same(a, s)


def s_device(array_device):
    return npgpu.zeros(1, device=array_device).device


@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_assignment_to_stored_entries_does_not_warn(array_device, fmt, rng):
    s, a = _pair(rng, (6, 5), np.float64, fmt, False, array_device)
    r, c = s.nonzero()
    indptr, indices = a.indptr.get(), a.indices.get()
    vals = np.arange(1, r.shape[0] + 1, dtype=np.float64)
    assert not _apply(s, (r, c), vals)
    assert not _apply(a, (r, c), vals)
    _check_same(a, s)
    np.testing.assert_array_equal(a.indptr.get(), indptr)
    np.testing.assert_array_equal(a.indices.get(), indices)
    # a new position warns and grows the structure by one
    i, j = next((i, j) for i in range(6) for j in range(5) if s[i, j] == 0)
    assert _apply(a, (i, j), 2.5) and _apply(s, (i, j), 2.5)
    assert a.nnz == r.shape[0] + 1
    _check_same(a, s)


def test_value_cast_to_matrix_dtype(array_device, rng):
    s, a = _pair(rng, (4, 5), np.int32, "csr", False, array_device)
    for key, value in [((0, 0), 2.7), ((2, slice(None)), -3.9), (([1, 3], [2, 4]), [7.5, 1e3 + 0.2])]:
        _apply(s, key, value)
        _apply(a, key, value)
        _check_same(a, s)
    assert a.dtype == np.int32
    assert int(a[0, 0]) == 2


def test_sparse_right_hand_side(array_device, rng):
    for fmt in ("csr", "csc"):
        s, a = _pair(rng, (6, 7), np.float64, fmt, False, array_device)
        blk = sp.random(3, 2, density=0.5, format="csr", random_state=3)
        for key, x in [((slice(1, 4), slice(2, 4)), blk), ((slice(0, 3), [0, 5]), blk),
                       ((2, slice(None)), sp.random(1, 7, density=0.4, format="csr", random_state=4)),
                       ((slice(0, 6), slice(1, 3)), sp.csr_matrix(np.array([[1.0, 0.0]]))),  # row broadcast
                       ((slice(2, 5), slice(0, 4)), sp.csr_matrix(np.array([[0.0], [3.0], [4.0]])))]:
            ws = _apply(s, key, x)
            wa = _apply(a, key, ns.csr_matrix(x, device=array_device))
            assert bool(ws) == bool(wa)
            _check_same(a, s)
        with pytest.raises(ValueError, match="shape mismatch"):
            a[1:3, 1:3] = ns.csr_matrix(np.ones((3, 3)), device=array_device)


def test_errors(array_device, rng):
    s, a = _pair(rng, (4, 5), np.float64, "csr", False, array_device)
    before = a.toarray().get()
    for key in [(4, 0), (-5, 0), (0, 5), (0, -6), ([0, 4], [1, 1])]:
        with pytest.raises(IndexError):
            s[key] = 1.0
        with pytest.raises(IndexError):
            a[key] = 1.0
    with pytest.raises(ValueError, match="Trying to assign a sequence to an item"):
        a[0, 0] = [1.0, 2.0]
    with pytest.raises(ValueError):
        a[0:2, 0:2] = np.ones((3, 3))
    np.testing.assert_array_equal(a.toarray().get(), before)
    for cls in (ns.coo_matrix, ns.coo_array):
        c = cls(s.tocoo(), device=array_device)
        name = cls.__name__
        with pytest.raises(TypeError, match=f"'{name}' object does not support item assignment"):
            c[0, 0] = 1.0
    with pytest.raises(TypeError, match="'coo_matrix' object does not support item assignment"):
        sp.coo_matrix(s.tocoo())[0, 0] = 1.0  # SciPy's coo_array (>= 1.15) accepts it; npgpu's does not


def test_assignment_does_not_touch_a_slice_parent(array_device, rng):
    s, a = _pair(rng, (6, 5), np.float64, "csr", False, array_device)
    before = a.toarray().get()
    b = a[2:5, :]
    r, c = b.nonzero()
    b[r.get(), c.get()] = -1.0
    np.testing.assert_array_equal(a.toarray().get(), before)
    assert bool(npgpu.all(b.data == -1.0))


def test_warning_is_npgpu_and_scipy_class(array_device, rng):
    _, a = _pair(rng, (3, 4), np.float64, "csc", True, array_device)
    with pytest.warns(ns.SparseEfficiencyWarning):
        a[1, 0] = 1.0
    with pytest.warns(sp.SparseEfficiencyWarning):
        a[1, 1] = 1.0
    assert float(a[1, 0]) == 1.0 and float(a[1, 1]) == 1.0


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_setdiag_matches_scipy(array_device, fmt, dtype):
    rng = np.random.default_rng(7)
    for shape in [(5, 6), (6, 3)]:
        s, a = _pair(rng, shape, dtype, fmt, False, array_device)
        for k, values in [(0, _values(rng, (), dtype)), (1, _values(rng, (2,), dtype)),
                          (-2, _values(rng, (10,), dtype)), (0, 0)]:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                s.setdiag(values, k)
            a.setdiag(values, k)
            _check_same(a, s)


@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_non_canonical_input(array_device, fmt):
    # unsorted indices and a duplicate (major 0 holds minor 2 twice): duplicates are summed, then assigned over
    data = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    indices = np.array([2, 0, 2, 1, 0])
    indptr = np.array([0, 3, 3, 5])
    s = getattr(sp, f"{fmt}_matrix")((data, indices, indptr), shape=(3, 3))
    a = getattr(ns, f"{fmt}_matrix")((data, indices, indptr), shape=(3, 3), device=array_device)
    assert not a.has_canonical_format
    for key, value in [((0, 0), 9.0), ((1, 1), 0.5), ((2, 2), -1.0)]:
        _apply(s, key, value)
        _apply(a, key, value)
        np.testing.assert_array_equal(a.toarray().get(), s.toarray())
        assert a.has_canonical_format
    # the duplicated position, assigned: one stored value, not a sum
    key = (2, 0) if fmt == "csr" else (0, 2)
    _apply(s, key, 7.0)
    _apply(a, key, 7.0)
    np.testing.assert_array_equal(a.toarray().get(), s.toarray())
    assert complex(a[key]) == 7.0


def test_npgpu_values_and_sparse_mask(array_device, rng):
    s, a = _pair(rng, (5, 6), np.complex128, "csc", False, array_device)
    block = _values(rng, (2, 3), np.complex128)
    _apply(s, (slice(0, 2), [0, 2, 4]), block)
    _apply(a, (slice(0, 2), [0, 2, 4]), npgpu.asarray(block, device=array_device))
    _check_same(a, s)
    row = _values(rng, (6,), np.float64)  # float into complex: cast to the matrix's dtype
    _apply(s, (3, slice(None)), row)
    _apply(a, (3, slice(None)), npgpu.asarray(row, device=array_device))
    _check_same(a, s)
    mask = rng.random((5, 6)) < 0.4
    ws = _apply(s, sp.csr_matrix(mask), 2.0)
    wa = _apply(a, ns.csr_matrix(mask, device=array_device), 2.0)
    assert bool(ws) == bool(wa)
    _check_same(a, s)
