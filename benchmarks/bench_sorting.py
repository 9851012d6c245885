"""Sorting, searching, set functions and indexing with data (issue 18): sorts and argsorts of 2^26 elements,
row sorts, gathers, mask compaction and mask assignment, unique, searchsorted, and a NumPy-in/NumPy-out sort
against NumPy's own. Anchors: CuPy and PyTorch in the same run."""
import numpy as np

import npgpu

from ._harness import Result, anchor_time_ms, gpu_time_ms, host_time_ms, optional

N = 1 << 26


def _rand(n, seed, dtype=np.float32):
    return np.random.default_rng(seed).standard_normal(n).astype(dtype)


def _anchors(make_cp, make_torch, repeat):
    """Milliseconds of the same operation in CuPy and PyTorch (where installed)."""
    out = {}
    cp = optional("cupy")
    if cp is not None and make_cp is not None:
        out["CuPy ms"] = round(anchor_time_ms(make_cp(cp), cp.cuda.Device().synchronize, repeat), 4)
    torch = optional("torch")
    if torch is not None and make_torch is not None:
        out["PyTorch ms"] = round(anchor_time_ms(make_torch(torch), torch.cuda.synchronize, repeat), 4)
    return out


def _check(name, got, want):
    if not np.array_equal(got, want):
        raise AssertionError(f"{name}: npgpu result differs from NumPy")


def _row_sort(rows, repeat):
    d = npgpu.asarray(rows)
    _check("row sort", npgpu.sort(npgpu.asarray(rows[:64])).get(), np.sort(rows[:64], axis=1))
    ms = gpu_time_ms(lambda: npgpu.sort(d, axis=1), repeat)
    anchors = _anchors(lambda cp: (lambda x=cp.asarray(rows): cp.sort(x, axis=1)),
                       lambda t: (lambda x=t.from_numpy(rows).cuda(): t.sort(x, dim=1)), repeat)
    m, n = rows.shape
    label = f"{m} x {n}" if m < 1 << 16 else f"2^{m.bit_length() - 1} x {n}"
    return Result(f"sort rows of {label} float32", ms, "ms", higher_is_better=False, anchors=anchors)


def bench_sort(repeat):
    res = []
    for dt, target, label in ((np.float32, 1.6, "float32"), (np.int64, 4.0, "int64")):
        h = _rand(N, 1, np.float32) if dt == np.float32 else np.random.default_rng(2).integers(-2**62, 2**62, N)
        d = npgpu.asarray(h)
        small = h[: 1 << 20]
        _check(f"sort {label}", npgpu.sort(npgpu.asarray(small)).get(), np.sort(small))
        ms = gpu_time_ms(lambda: npgpu.sort(d), repeat)
        anchors = _anchors(lambda cp: (lambda x=cp.asarray(h): cp.sort(x)),
                           lambda t: (lambda x=t.from_numpy(h).cuda(): t.sort(x)), repeat)
        res.append(Result(f"sort 2^26 {label}", ms, "ms", target=target, higher_is_better=False, anchors=anchors))
    h = _rand(N, 3)
    d = npgpu.asarray(h)
    small = h[: 1 << 20]
    _check("argsort", npgpu.argsort(npgpu.asarray(small)).get(), np.argsort(small, kind="stable"))
    ms = gpu_time_ms(lambda: npgpu.argsort(d), repeat)
    anchors = _anchors(lambda cp: (lambda x=cp.asarray(h): cp.argsort(x)),
                       lambda t: (lambda x=t.from_numpy(h).cuda(): t.argsort(x, stable=True)), repeat)
    res.append(Result("argsort 2^26 float32", ms, "ms", target=3.0, higher_is_better=False, anchors=anchors))
    rows = _rand(8192 * 8192, 4).reshape(8192, 8192)
    for shape in ((8192, 8192), (1 << 19, 128)):  # long rows, and the short ones segmented sorts are slow on
        res.append(_row_sort(rows.reshape(shape), repeat))
    host_small = _rand(1 << 24, 5)
    _check("numpy-in sort", npgpu.sort(host_small[:4096]), np.sort(host_small[:4096]))
    t_ours = host_time_ms(lambda: npgpu.sort(host_small), max(3, repeat // 4))
    t_np = host_time_ms(lambda: np.sort(host_small), max(3, repeat // 4))
    res.append(Result("NumPy-in sort 2^24 float32 (transfers included): time / NumPy's", t_ours / t_np, "x",
                      target=1.0, higher_is_better=False,
                      anchors={"npgpu ms": round(t_ours, 3), "NumPy ms": round(t_np, 3)}))
    return res


def bench_gather_mask(repeat):
    res = []
    h = _rand(N, 6)
    idx = np.random.default_rng(7).integers(0, N, N)
    d, di = npgpu.asarray(h), npgpu.asarray(idx)
    _check("gather", d[di[:4096]].get(), h[idx[:4096]])
    ms = gpu_time_ms(lambda: d[di], repeat)
    anchors = _anchors(lambda cp: (lambda x=cp.asarray(h), i=cp.asarray(idx): x[i]),
                       lambda t: (lambda x=t.from_numpy(h).cuda(), i=t.from_numpy(idx).cuda(): x[i]), repeat)
    res.append(Result("gather x[idx] 2^26 int64 into 2^26 float32", ms, "ms", target=2.0, higher_is_better=False,
                      anchors=anchors))
    _check("mask", d[d > 0.5].get(), h[h > 0.5])
    ms = gpu_time_ms(lambda: d[d > 0.5], repeat)
    anchors = _anchors(lambda cp: (lambda x=cp.asarray(h): x[x > 0.5]),
                       lambda t: (lambda x=t.from_numpy(h).cuda(): x[x > 0.5]), repeat)
    res.append(Result("mask compaction x[x > 0.5] 2^26 float32", ms, "ms", target=0.6, higher_is_better=False,
                      anchors=anchors))
    m = d > 0.5
    w = d.copy()

    def mask_set():
        w[m] = 0

    ms = gpu_time_ms(mask_set, repeat)

    def cp_set(cp):
        x, mm = cp.asarray(h), cp.asarray(h > 0.5)

        def f():
            x[mm] = 0
        return f

    def t_set(t):
        x, mm = t.from_numpy(h).cuda(), t.from_numpy(h > 0.5).cuda()

        def f():
            x[mm] = 0
        return f

    res.append(Result("mask set x[m] = 0 2^26 float32", ms, "ms", target=0.25, higher_is_better=False,
                      anchors=_anchors(cp_set, t_set, repeat)))
    # scatter-add (the gather's setup: 2^26 random indices into 2^26 float32), checked on a small case
    idx_small = np.random.default_rng(11).integers(0, 1 << 10, 1 << 16)
    acc = npgpu.zeros(1 << 10, np.int64)
    npgpu.add.at(acc, npgpu.asarray(idx_small), 1)
    _check("add.at", acc.get(), np.bincount(idx_small, minlength=1 << 10))
    target = npgpu.asarray(_rand(N, 12))
    sidx = npgpu.asarray(np.random.default_rng(13).integers(0, N, N))
    ms = gpu_time_ms(lambda: npgpu.add.at(target, sidx, 1), repeat)

    def cp_add_at(cp):
        x, i = cp.asarray(_rand(N, 12)), cp.asarray(sidx.get())
        return lambda: cp.add.at(x, i, 1)

    def t_add_at(t):
        x, i = t.from_numpy(_rand(N, 12)).cuda(), t.from_numpy(sidx.get()).cuda()
        ones = t.ones(N, dtype=t.float32, device="cuda")
        return lambda: x.index_add_(0, i, ones)

    res.append(Result("scatter-add add.at(x, idx, 1): 2^26 int64 indices into 2^26 float32", ms, "ms", target=4.0,
                      higher_is_better=False, anchors=_anchors(cp_add_at, t_add_at, repeat)))
    return res


def bench_unique_search(repeat):
    res = []
    h = np.random.default_rng(8).integers(0, 1 << 20, N).astype(np.int32)
    d = npgpu.asarray(h)
    _check("unique", npgpu.unique(npgpu.asarray(h[:1 << 20])).get(), np.unique(h[:1 << 20]))
    ms = gpu_time_ms(lambda: npgpu.unique(d), repeat)
    anchors = _anchors(lambda cp: (lambda x=cp.asarray(h): cp.unique(x)),
                       lambda t: (lambda x=t.from_numpy(h).cuda(): t.unique(x)), repeat)
    res.append(Result("unique 2^26 int32, 2^20 distinct", ms, "ms", target=1.5, higher_is_better=False,
                      anchors=anchors))
    s = np.sort(_rand(N, 9))
    q = _rand(1 << 24, 10)
    ds, dq = npgpu.asarray(s), npgpu.asarray(q)
    _check("searchsorted", npgpu.searchsorted(ds, dq[:4096]).get(), np.searchsorted(s, q[:4096]))
    # past 2^22 queries the GPU sorts them first: checked there too
    _check("searchsorted", npgpu.searchsorted(ds, dq[:1 << 22]).get(), np.searchsorted(s, q[:1 << 22]))
    ms = gpu_time_ms(lambda: npgpu.searchsorted(ds, dq), repeat)
    anchors = _anchors(lambda cp: (lambda a=cp.asarray(s), v=cp.asarray(q): cp.searchsorted(a, v)),
                       lambda t: (lambda a=t.from_numpy(s).cuda(), v=t.from_numpy(q).cuda(): t.searchsorted(a, v)),
                       repeat)
    res.append(Result("searchsorted 2^24 queries into 2^26 float32", ms, "ms", target=3.0, higher_is_better=False,
                      anchors=anchors))
    return res


BENCHMARKS = {
    "sort": bench_sort,
    "gather_mask": bench_gather_mask,
    "unique_search": bench_unique_search,
}
