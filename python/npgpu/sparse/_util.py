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
    """The compiled sparse products, npgpu._sparse, or None where this build lacks it.

    Looked up at each call, so tests can switch it.

    Returns
    -------
    module or None

    Examples
    --------
    >>> from npgpu.sparse import _util
    >>> _util.kernels() is None or hasattr(_util.kernels(), "csr_matmul")
    True
    """
    return _kernels


def is_npgpu(x):
    """Whether x is an npgpu.Array.

    Parameters
    ----------
    x : object

    Returns
    -------
    bool

    Examples
    --------
    >>> from npgpu.sparse import _util
    >>> _util.is_npgpu(npgpu.zeros(2)), _util.is_npgpu(np.zeros(2))
    (True, False)
    """
    return isinstance(x, npgpu.Array)


def is_scipy_sparse(x):
    """Whether x is a SciPy sparse matrix or array (without importing SciPy).

    Parameters
    ----------
    x : object

    Returns
    -------
    bool
        True when x's class comes from scipy.sparse and has ``format`` and ``tocsr``.

    Examples
    --------
    >>> from npgpu.sparse import _util
    >>> _util.is_scipy_sparse(npgpu.sparse.eye(2).get()), _util.is_scipy_sparse(npgpu.sparse.eye(2))
    (True, False)
    """
    mod = type(x).__module__ or ""
    return mod.startswith("scipy.sparse") and hasattr(x, "format") and hasattr(x, "tocsr")


def require_scipy(what):
    """scipy.sparse, imported on demand.

    Parameters
    ----------
    what : str
        What needs SciPy (named in the error).

    Returns
    -------
    module
        scipy.sparse.

    Raises
    ------
    ImportError
        SciPy is not installed.

    Examples
    --------
    >>> from npgpu.sparse import _util
    >>> _util.require_scipy("to_scipy()").__name__
    'scipy.sparse'
    """
    try:
        import scipy.sparse as sp
    except ImportError as e:  # pragma: no cover - scipy is installed where the tests run
        raise ImportError(f"{what} needs SciPy, which is not installed (pip install 'npgpu[sparse]')") from e
    return sp


def index_dtype(maxval=0, arrays=()):
    """The index dtype: int32 unless `maxval` (the largest dimension or nnz) or an int64 input needs int64.

    Parameters
    ----------
    maxval : int, optional
        The largest value the indices must hold (default 0).
    arrays : sequence of arrays, optional
        Index arrays (None entries skipped); one of more than four bytes per item makes the result int64.

    Returns
    -------
    numpy.dtype
        int32 or int64.

    Examples
    --------
    >>> from npgpu.sparse import _util
    >>> _util.index_dtype(10), _util.index_dtype(2**31), _util.index_dtype(5, arrays=[np.zeros(1, np.int64)])
    (dtype('int32'), dtype('int64'), dtype('int64'))
    """
    if maxval > INT32_MAX:
        return INT64
    for a in arrays:
        if a is not None and np.dtype(a.dtype).itemsize > 4:
            return INT64
    return INT32


def check_dtype(dtype):
    """`dtype` as a numpy.dtype, checked to be one npgpu supports.

    Parameters
    ----------
    dtype : dtype-like

    Returns
    -------
    numpy.dtype

    Raises
    ------
    TypeError
        A dtype npgpu.sparse does not support.

    Examples
    --------
    >>> from npgpu.sparse import _util
    >>> _util.check_dtype("f4")
    dtype('float32')
    """
    dtype = np.dtype(dtype)
    if dtype not in _SUPPORTED:
        raise TypeError(f"npgpu.sparse does not support dtype {dtype}")
    return dtype


def to_array(a, device, dtype=None, copy=False, name="array"):
    """`a` (NumPy, list, npgpu.Array) as an npgpu.Array on `device`.

    An npgpu.Array on another device is an error: data never moves between devices implicitly.

    Parameters
    ----------
    a : array_like or npgpu.Array
        The input.
    device
        The device (None: an npgpu.Array's own, else npgpu's default device).
    dtype : dtype, optional
        Cast to it.
    copy : bool, optional
        Always copy (default False: only when needed).
    name : str, optional
        The input's name in the error message.

    Returns
    -------
    npgpu.Array

    Raises
    ------
    ValueError
        An npgpu.Array on another device.

    Examples
    --------
    >>> from npgpu.sparse import _util
    >>> _util.to_array([1, 2], "cpu", dtype=np.float32)
    Array([1., 2.], dtype=float32)
    """
    if is_npgpu(a):
        if device is not None and not same_device(a.device, device):
            raise ValueError(f"{name} is on device {a.device}, the matrix on {device}; move it with "
                             f".to_device() first")
        if dtype is not None and np.dtype(a.dtype) != np.dtype(dtype):
            return a.astype(dtype)
        return a.copy() if copy else a
    return npgpu.asarray(a, dtype=dtype, device=device, copy=True if copy else None)


def same_device(a, b):
    """Whether two devices (or device specifications) name the same device (their str() are equal, "cuda"
    standing for the current GPU).

    Parameters
    ----------
    a, b
        Devices or device names.

    Returns
    -------
    bool

    Examples
    --------
    >>> from npgpu.sparse import _util
    >>> _util.same_device(npgpu.zeros(1, device="cpu").device, "cpu")
    True
    """
    a, b = str(a), str(b)
    if a == b:
        return True
    if "cuda" in (a, b) and a.startswith("cuda") and b.startswith("cuda"):
        current = f"cuda:{npgpu.get_device_id()}"
        return (current if a == "cuda" else a) == (current if b == "cuda" else b)
    return False


def check_index_array(a, name):
    """Check that `a` is a one-dimensional array of integers.

    Parameters
    ----------
    a : npgpu.Array
        The index array.
    name : str
        Its name in the error message.

    Raises
    ------
    ValueError
        An array that does not hold integers or is not one-dimensional.

    Examples
    --------
    >>> from npgpu.sparse import _util
    >>> _util.check_index_array(npgpu.zeros(2, dtype=np.int32), "indices")  # passes: returns None
    """
    if np.dtype(a.dtype).kind not in "iu":
        raise ValueError(f"{name} must hold integers, not {a.dtype}")
    if a.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, not of shape {a.shape}")


def read_flags(*flags):
    """Bring several 0-d device booleans to the host in one transfer (one synchronisation).

    Parameters
    ----------
    *flags : npgpu.Array
        0-d arrays (cast to bool).

    Returns
    -------
    tuple of bool

    Examples
    --------
    >>> from npgpu.sparse import _util
    >>> x = npgpu.arange(3)
    >>> _util.read_flags(npgpu.any(x > 1), npgpu.all(x > 1))
    (True, False)
    """
    if not flags:
        return ()
    return tuple(bool(v) for v in npgpu.stack([f.astype(np.bool_) for f in flags]).get())


def arange(n, dtype, device):
    """``npgpu.arange(n, dtype=dtype, device=device)``.

    Parameters
    ----------
    n : int
    dtype : dtype
    device

    Returns
    -------
    npgpu.Array

    Examples
    --------
    >>> from npgpu.sparse import _util
    >>> _util.arange(3, np.int32, "cpu")
    Array([0, 1, 2], dtype=int32)
    """
    return npgpu.arange(n, dtype=dtype, device=device)


def expand_major(indptr, nnz, dtype=None):
    """The major index (row of a CSR, column of a CSC) of each stored entry.

    The r with indptr[r] <= k < indptr[r + 1] for each entry k, found by binary search on the device.

    Parameters
    ----------
    indptr : npgpu.Array
        The index pointer.
    nnz : int
        The number of entries.
    dtype : dtype, optional
        The result's dtype (default: indptr's).

    Returns
    -------
    npgpu.Array
        Of length nnz.

    Examples
    --------
    >>> from npgpu.sparse import _util
    >>> _util.expand_major(npgpu.asarray(np.array([0, 2, 2, 3], np.int32)), 3)
    Array([0, 0, 2], dtype=int32)
    """
    dtype = indptr.dtype if dtype is None else dtype
    if nnz == 0:
        return npgpu.zeros(0, dtype=dtype, device=indptr.device)
    pos = npgpu.searchsorted(indptr, arange(nnz, indptr.dtype, indptr.device), side="right")
    return (pos - 1).astype(dtype)


def compress_index(major, n_major, dtype):
    """The index pointer (n_major + 1,) of `major` sorted ascending.

    Parameters
    ----------
    major : npgpu.Array
        The major index of each entry, sorted ascending.
    n_major : int
        The number of rows (CSR) / columns (CSC).
    dtype : dtype
        The result's dtype.

    Returns
    -------
    npgpu.Array

    Examples
    --------
    >>> from npgpu.sparse import _util
    >>> _util.compress_index(npgpu.asarray(np.array([0, 0, 2])), 3, np.int32)
    Array([0, 2, 2, 3], dtype=int32)
    """
    return npgpu.searchsorted(major, arange(n_major + 1, major.dtype, major.device), side="left").astype(dtype)


def pair_key(major, minor, n_minor):
    """One int64 key per entry, ``major * n_minor + minor``, ordered as the (major, minor) pairs.

    Parameters
    ----------
    major, minor : npgpu.Array
        The entries' indices.
    n_minor : int
        The minor dimension.

    Returns
    -------
    npgpu.Array
        int64.

    Examples
    --------
    >>> from npgpu.sparse import _util
    >>> _util.pair_key(npgpu.asarray([1, 0]), npgpu.asarray([2, 1]), 3)
    Array([5, 1])
    """
    return major.astype(np.int64) * n_minor + minor.astype(np.int64)


def argsort_pairs(major, minor, n_major, n_minor):
    """The stable order sorting entries by (major, minor).

    An argsort of `pair_key` where the keys fit in 62 bits, else a lexsort.

    Parameters
    ----------
    major, minor : npgpu.Array
        The entries' indices.
    n_major, n_minor : int
        The dimensions.

    Returns
    -------
    npgpu.Array
        The permutation.

    Examples
    --------
    >>> from npgpu.sparse import _util
    >>> _util.argsort_pairs(npgpu.asarray([1, 0, 0]), npgpu.asarray([0, 2, 1]), 2, 3)
    Array([2, 1, 0])
    """
    if n_major * max(n_minor, 1) < (1 << 62):
        return npgpu.argsort(pair_key(major, minor, n_minor))
    return npgpu.lexsort((minor, major))


def sorted_flags(major, minor):
    """(sorted, canonical) of entries whose major index is ascending; one read back.

    Parameters
    ----------
    major, minor : npgpu.Array
        The entries' indices, major ascending.

    Returns
    -------
    sorted : bool
        Minor ascending within each major index.
    canonical : bool
        Sorted and without duplicates.

    Examples
    --------
    >>> from npgpu.sparse import _util
    >>> _util.sorted_flags(npgpu.asarray([0, 0, 1]), npgpu.asarray([1, 1, 0]))  # a duplicate (0, 1)
    (True, False)
    """
    if major.shape[0] < 2:
        return True, True
    same = major[1:] == major[:-1]
    d = minor[1:].astype(np.int64) - minor[:-1].astype(np.int64)
    unsorted = npgpu.any(same & (d < 0))
    dup = npgpu.any(same & (d == 0))
    unsorted, dup = read_flags(unsorted, dup)
    return (not unsorted), (not unsorted and not dup)


def compress(major, minor, data, n_major, n_minor, idx_dtype, is_sorted=False, sum_dups=True):
    """Entries (major, minor, data) in any order -> (indptr, indices, data) sorted by (major, minor).

    Duplicates are summed when `sum_dups` (the result is then canonical; bool values are or-ed).

    Parameters
    ----------
    major, minor : npgpu.Array
        The entries' indices.
    data : npgpu.Array
        The entries' values.
    n_major, n_minor : int
        The dimensions.
    idx_dtype : dtype
        The dtype of indptr and indices.
    is_sorted : bool, optional
        The entries are already in (major, minor) order (default False).
    sum_dups : bool, optional
        Sum duplicates (default True).

    Returns
    -------
    indptr, indices, data : npgpu.Array

    Examples
    --------
    >>> from npgpu.sparse import _util
    >>> major, minor = npgpu.asarray([1, 0, 1]), npgpu.asarray([0, 2, 0])
    >>> _util.compress(major, minor, npgpu.asarray([1.0, 2.0, 3.0]), 2, 3, np.int32)
    (Array([0, 1, 2], dtype=int32), Array([2, 0], dtype=int32), Array([2., 4.]))
    """
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
    """The dtype NumPy's sum gives for `dtype` (integers and bool widen to 64 bits).

    Parameters
    ----------
    dtype : dtype-like

    Returns
    -------
    numpy.dtype

    Examples
    --------
    >>> from npgpu.sparse import _util
    >>> _util.sum_dtype(np.int8), _util.sum_dtype(np.uint8), _util.sum_dtype(np.float32)
    (dtype('int64'), dtype('uint64'), dtype('float32'))
    """
    return np.add.reduce(np.zeros(1, dtype=dtype)).dtype


def is_scalar(x):
    """Whether x is a scalar: a 0-d npgpu.Array or NumPy array, or a NumPy / Python scalar other than str and bytes.

    Parameters
    ----------
    x : object

    Returns
    -------
    bool

    Examples
    --------
    >>> from npgpu.sparse import _util
    >>> _util.is_scalar(2.0), _util.is_scalar(npgpu.asarray(1.0)), _util.is_scalar([1]), _util.is_scalar("a")
    (True, True, False, False)
    """
    if is_npgpu(x) or isinstance(x, np.ndarray):
        return x.ndim == 0
    return np.isscalar(x) and not isinstance(x, (str, bytes))
