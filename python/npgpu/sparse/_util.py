"""Helpers shared by npgpu.sparse: devices, index dtypes, checks read back as one small transfer, and the
sort / sum-duplicates / compress primitive every format conversion goes through. Everything here is composed
of npgpu array operations, so it runs on the array's device (a GPU or the host) without moving the matrix."""
import numpy as np

import npgpu

try:  # the compiled products (host C++ and cuSPARSE); optional: the generic paths below work without them
    from npgpu import _sparse as _kernels
except ImportError:  # pragma: no cover - depends on the build
    _kernels = None

INT32_MAX = np.iinfo(np.int32).max
INT32, INT64 = np.dtype(np.int32), np.dtype(np.int64)
KERNEL_DTYPES = (np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.complex64), np.dtype(np.complex128))
_SUPPORTED = tuple(np.dtype(d) for d in npgpu.SUPPORTED_DTYPES)


def kernels():
    """npgpu._sparse, or None where this build lacks it (looked up at each call so tests can switch it)."""
    return _kernels


def is_npgpu(x):
    return isinstance(x, npgpu.Array)


def is_scipy_sparse(x):
    mod = type(x).__module__ or ""
    return mod.startswith("scipy.sparse") and hasattr(x, "format") and hasattr(x, "tocsr")


def require_scipy(what):
    try:
        import scipy.sparse as sp
    except ImportError as e:  # pragma: no cover - scipy is installed where the tests run
        raise ImportError(f"{what} needs SciPy, which is not installed (pip install 'npgpu[sparse]')") from e
    return sp


def index_dtype(maxval=0, arrays=()):
    """int32 unless `maxval` (the largest dimension or nnz) or an int64 input needs int64."""
    if maxval > INT32_MAX:
        return INT64
    for a in arrays:
        if a is not None and np.dtype(a.dtype).itemsize > 4:
            return INT64
    return INT32


def check_dtype(dtype):
    dtype = np.dtype(dtype)
    if dtype not in _SUPPORTED:
        raise TypeError(f"npgpu.sparse does not support dtype {dtype}")
    return dtype


def to_array(a, device, dtype=None, copy=False, name="array"):
    """`a` (NumPy, list, npgpu.Array) as an npgpu.Array on `device`; an npgpu.Array on another device is an
    error (data never moves between devices implicitly)."""
    if is_npgpu(a):
        if device is not None and not same_device(a.device, device):
            raise ValueError(f"{name} is on device {a.device}, the matrix on {device}; move it with "
                             f".to_device() first")
        if dtype is not None and np.dtype(a.dtype) != np.dtype(dtype):
            return a.astype(dtype)
        return a.copy() if copy else a
    return npgpu.asarray(a, dtype=dtype, device=device, copy=True if copy else None)


def same_device(a, b):
    return str(a) == str(b)


def check_index_array(a, name):
    if np.dtype(a.dtype).kind not in "iu":
        raise ValueError(f"{name} must hold integers, not {a.dtype}")
    if a.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, not of shape {a.shape}")


def read_flags(*flags):
    """Bring several 0-d device booleans to the host in one transfer (one synchronisation)."""
    if not flags:
        return ()
    return tuple(bool(v) for v in npgpu.stack([f.astype(np.bool_) for f in flags]).get())


def arange(n, dtype, device):
    return npgpu.arange(n, dtype=dtype, device=device)


def expand_major(indptr, nnz, dtype=None):
    """The major index (row of a CSR, column of a CSC) of each stored entry: the r with
    indptr[r] <= k < indptr[r + 1], found by binary search on the device."""
    dtype = indptr.dtype if dtype is None else dtype
    if nnz == 0:
        return npgpu.zeros(0, dtype=dtype, device=indptr.device)
    pos = npgpu.searchsorted(indptr, arange(nnz, indptr.dtype, indptr.device), side="right")
    return (pos - 1).astype(dtype)


def compress_index(major, n_major, dtype):
    """indptr (n_major + 1,) of `major` sorted ascending."""
    return npgpu.searchsorted(major, arange(n_major + 1, major.dtype, major.device), side="left").astype(dtype)


def pair_key(major, minor, n_minor):
    return major.astype(np.int64) * n_minor + minor.astype(np.int64)


def argsort_pairs(major, minor, n_major, n_minor):
    """The stable order sorting entries by (major, minor)."""
    if n_major * max(n_minor, 1) < (1 << 62):
        return npgpu.argsort(pair_key(major, minor, n_minor))
    return npgpu.lexsort((minor, major))


def sorted_flags(major, minor):
    """(sorted, canonical) of entries whose major index is ascending: minor ascending within each major index,
    and then without duplicates; one read back."""
    if major.shape[0] < 2:
        return True, True
    same = major[1:] == major[:-1]
    d = minor[1:].astype(np.int64) - minor[:-1].astype(np.int64)
    unsorted = npgpu.any(same & (d < 0))
    dup = npgpu.any(same & (d == 0))
    unsorted, dup = read_flags(unsorted, dup)
    return (not unsorted), (not unsorted and not dup)


def compress(major, minor, data, n_major, n_minor, idx_dtype, is_sorted=False, sum_dups=True):
    """Entries (major, minor, data) in any order -> (indptr, indices, data) sorted by (major, minor), with
    duplicates summed when `sum_dups` (then canonical). `is_sorted`: the entries are already in that order."""
    nnz = data.shape[0]
    if nnz > 1 and not is_sorted:
        order = argsort_pairs(major, minor, n_major, n_minor)
        major, minor, data = npgpu.take(major, order), npgpu.take(minor, order), npgpu.take(data, order)
    if sum_dups and nnz > 1:
        same = (major[1:] == major[:-1]) & (minor[1:] == minor[:-1])
        first = npgpu.concatenate([npgpu.ones(1, dtype=np.bool_, device=data.device), ~same])
        pos = npgpu.flatnonzero(first)
        if pos.shape[0] < nnz:
            group = npgpu.cumsum(first.astype(np.int64)) - 1
            acc_dtype = np.dtype(np.int64) if data.dtype == np.bool_ else data.dtype
            summed = npgpu.zeros(pos.shape[0], dtype=acc_dtype, device=data.device)
            npgpu.add.at(summed, group, data.astype(acc_dtype))
            data = summed != 0 if data.dtype == np.bool_ else summed
            major, minor = npgpu.take(major, pos), npgpu.take(minor, pos)
    indptr = compress_index(major, n_major, idx_dtype)
    return indptr, minor.astype(idx_dtype), data


def sum_dtype(dtype):
    """The dtype NumPy's sum gives for `dtype` (integers and bool widen to 64 bits)."""
    return np.add.reduce(np.zeros(1, dtype=dtype)).dtype


def is_scalar(x):
    if is_npgpu(x) or isinstance(x, np.ndarray):
        return x.ndim == 0
    return np.isscalar(x) and not isinstance(x, (str, bytes))
