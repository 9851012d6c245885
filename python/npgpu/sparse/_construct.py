"""Building sparse matrices: eye, identity, diags, random."""
import numpy as np

import npgpu

from . import _util as u
from ._registry import CLASSES


def _finish(rows, cols, data, shape, format, is_array):
    fmt = format or ("csr")
    if fmt not in ("csr", "csc", "coo"):
        raise ValueError(f"format {fmt!r} is not supported (csr, csc or coo)")
    coo = CLASSES[("coo", is_array)]((data, (rows, cols)), shape=shape, _trusted=True)
    return coo.asformat(fmt)


def _eye(m, n, k, dtype, format, device, is_array):
    n = m if n is None else n
    m, n, k = int(m), int(n), int(k)
    dtype = u.check_dtype(dtype)
    length = max(0, min(m + min(k, 0), n - max(k, 0)))
    idx = u.index_dtype(max(m, n))
    d = npgpu.arange(length, dtype=idx, device=device)
    rows = d + max(-k, 0) if k < 0 else d
    cols = d + k if k > 0 else d
    data = npgpu.ones(length, dtype=dtype, device=d.device)
    return _finish(rows.astype(idx), cols.astype(idx), data, (m, n), format, is_array)


def eye(m, n=None, k=0, dtype=float, format=None, *, device=None):
    """A sparse (m, n) matrix with ones on the k-th diagonal (CSR unless `format` says otherwise)."""
    return _eye(m, n, k, dtype, format, device, False)


def eye_array(m, n=None, *, k=0, dtype=float, format=None, device=None):
    return _eye(m, n, k, dtype, format, device, True)


def identity(n, dtype="d", format=None, *, device=None):
    return _eye(n, n, 0, dtype, format, device, False)


def _diags(diagonals, offsets, shape, format, dtype, device, is_array):
    if np.ndim(offsets) == 0:  # one diagonal given as a sequence of values (SciPy's rule)
        if u.is_npgpu(diagonals) and diagonals.ndim == 2:
            diagonals = [diagonals[i] for i in range(diagonals.shape[0])]
        elif u.is_npgpu(diagonals) or np.isscalar(diagonals) or len(diagonals) == 0 or (
                np.ndim(diagonals[0]) == 0):
            diagonals = [diagonals]
    elif u.is_npgpu(diagonals):
        diagonals = [diagonals[i] for i in range(diagonals.shape[0])] if diagonals.ndim == 2 else [diagonals]
    offsets = [int(o) for o in np.atleast_1d(np.asarray(offsets, dtype=np.int64))]
    if len(diagonals) != len(offsets):
        raise ValueError(f"{len(diagonals)} diagonals given but {len(offsets)} offsets")
    if len(set(offsets)) != len(offsets):
        raise ValueError("offset array contains duplicate values")
    arrs = []
    for d in diagonals:
        if device is None and u.is_npgpu(d):
            device = d.device
        arrs.append(d)
    arrs = [u.to_array(d, device, name="a diagonal") for d in arrs]
    if device is None and arrs:
        device = arrs[0].device
    arrs = [a.reshape(1) if a.ndim == 0 else a for a in arrs]
    if shape is None:
        m = max(a.shape[0] + abs(o) for a, o in zip(arrs, offsets)) if arrs else 0
        shape = (m, m)
    m, n = (int(s) for s in shape)
    if dtype is None:
        dtype = np.result_type(*[a.dtype for a in arrs]) if arrs else np.dtype(np.float64)
    dtype = u.check_dtype(dtype)
    idx = u.index_dtype(max(m, n))
    rows, cols, data = [], [], []
    for a, k in zip(arrs, offsets):
        length = max(0, min(m + min(k, 0), n - max(k, 0)))
        if length == 0:
            continue
        if a.shape[0] == 1 and length != 1:
            vals = npgpu.full(length, 0, dtype=dtype, device=device) + a.astype(dtype)
        elif a.shape[0] < length:
            raise ValueError(f"diagonal length ({a.shape[0]}) does not agree with the array size "
                             f"({length}) for offset {k}")
        else:
            vals = a[:length].astype(dtype)
        d = npgpu.arange(length, dtype=idx, device=device)
        rows.append(d + max(-k, 0))
        cols.append(d + max(k, 0))
        data.append(vals)
    if not data:
        z = npgpu.zeros(0, dtype=idx, device=device)
        return _finish(z, z.copy(), npgpu.zeros(0, dtype=dtype, device=device), (m, n), format, is_array)
    rows = npgpu.concatenate(rows).astype(idx)
    cols = npgpu.concatenate(cols).astype(idx)
    return _finish(rows, cols, npgpu.concatenate(data), (m, n), format, is_array)


def diags(diagonals, offsets=0, shape=None, format=None, dtype=None, *, device=None):
    """A sparse matrix from diagonals, as scipy.sparse.diags (CSR unless `format` says otherwise)."""
    return _diags(diagonals, offsets, shape, format, dtype, device, False)


def diags_array(diagonals, /, *, offsets=0, shape=None, format=None, dtype=None, device=None):
    return _diags(diagonals, offsets, shape, format, dtype, device, True)


def _random(m, n, density, format, dtype, random_state, data_rvs, device, is_array):
    if not 0 <= density <= 1:
        raise ValueError("density expected to be 0 <= density <= 1")
    rng = random_state if isinstance(random_state, np.random.Generator) else np.random.default_rng(random_state)
    dtype = u.check_dtype(np.float64 if dtype is None else dtype)
    k = int(round(density * m * n))
    flat = rng.choice(m * n, size=k, replace=False) if k else np.zeros(0, dtype=np.int64)
    if data_rvs is not None:
        vals = np.asarray(data_rvs(k)).astype(dtype)
    elif dtype.kind == "c":
        vals = (rng.uniform(size=k) + 1j * rng.uniform(size=k)).astype(dtype)
    else:
        vals = rng.uniform(size=k).astype(dtype)
    idx = u.index_dtype(max(m, n))
    rows = npgpu.asarray((flat // max(n, 1)).astype(idx), device=device)
    cols = npgpu.asarray((flat % max(n, 1)).astype(idx), device=rows.device)
    data = npgpu.asarray(vals, device=rows.device)
    return _finish(rows, cols, data, (m, n), format or "coo", is_array)


def random(m, n, density=0.01, format="coo", dtype=None, random_state=None, data_rvs=None, *, device=None):
    """A random sparse (m, n) matrix with round(density * m * n) entries, uniform on [0, 1) (drawn on the
    host with NumPy's Generator and uploaded)."""
    return _random(m, n, density, format, dtype, random_state, data_rvs, device, False)


def random_array(shape, *, density=0.01, format="coo", dtype=None, random_state=None, data_sampler=None,
                 device=None):
    m, n = shape
    return _random(m, n, density, format, dtype, random_state, data_sampler, device, True)
