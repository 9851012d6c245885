"""Shared test machinery for npgpu.

- ``HAS_GPU``: whether this process sees a usable CUDA GPU (asked once per session).
- Tests marked ``@pytest.mark.gpu`` are skipped, with the reason CUDA gave, when there is none.
- ``backend``: runs a NumPy-input test on the host ("cpu") backend and on the GPU ("cuda"; skipped
  without a GPU), inside ``npgpu.use_backend(name)``.
- ``array_device``: runs a device-array test on the host device ("cpu", everywhere) and on the GPU
  ("cuda"; skipped without a GPU); pass it as ``device=`` when creating arrays.
- ``rng``: a NumPy Generator with a fixed seed.
- ``run_threads(target, n, join_timeout)``: target(i) in n threads released together; their exceptions.
- ``random_array(shape, dtype)``: random arrays of any supported dtype, never holding zeros (bool arrays
  mix True and False but always hold a True), so an output that was never written is noticed.
- ``poisoned(shape, dtype, avoid=None)``: an output buffer filled with garbage (NaN for floats) that
  differs from ``avoid`` everywhere, for ``out=`` tests.
- ``assert_same(result, expected)``: type, dtype, shape and values (NaNs equal where both are NaN) all
  equal.

``--params-per-test K`` keeps, of each test function's selected parametrizations, K spread evenly from
first to last (the rest deselected): every test function still runs, at a fraction of the cost. The
compute-sanitizer phase of ``scripts/gpu-check.sh`` runs the GPU suite this way.

Helpers are fixtures because the suite runs with ``--import-mode=importlib`` (no ``import conftest``).
"""
import contextlib
import pathlib
import signal
import sys
import threading
import time

import numpy as np
import pytest

import npgpu

# The differential test files share tests/_differential.py; the importlib import mode (pyproject.toml) does not
# put this folder on sys.path.
sys.path.insert(0, str(pathlib.Path(__file__).parent))

HAS_GPU = npgpu.is_available()
NO_GPU_REASON = "" if HAS_GPU else f"needs a CUDA GPU ({npgpu.unavailable_reason() or 'none found'})"

SUPPORTED_DTYPES = tuple(npgpu.SUPPORTED_DTYPES)


def pytest_report_header(config):
    if HAS_GPU:
        return f"npgpu {npgpu.__version__}: {npgpu.device_count()} GPU(s), default backend {npgpu.get_backend()}"
    return f"npgpu {npgpu.__version__}: no GPU ({npgpu.unavailable_reason()}); GPU tests are skipped"


def pytest_addoption(parser):
    parser.addoption("--params-per-test", type=int, default=0, metavar="K",
                     help="run at most K parametrizations of each test function, spread evenly (0: all)")
    parser.addoption("--shard", default="", metavar="K/N",
                     help="run every N-th selected test from the K-th on (K from 0), so N processes split a file")


def _spread(group, k):
    """k members of group from first to last at even steps (all of them when there are no more than k)."""
    if len(group) <= k:
        return group
    if k == 1:
        return group[:1]
    return [group[round(i * (len(group) - 1) / (k - 1))] for i in range(k)]


@pytest.hookimpl(trylast=True)  # after -m and -k have deselected theirs
def pytest_collection_modifyitems(config, items):
    k = config.getoption("--params-per-test")
    if k < 0:
        raise pytest.UsageError("--params-per-test must be 0 (all) or a positive count")
    if k > 0:
        groups = {}
        for item in items:
            groups.setdefault(item.nodeid.split("[", 1)[0], []).append(item)
        keep = {id(item) for group in groups.values() for item in _spread(group, k)}
        config.hook.pytest_deselected(items=[item for item in items if id(item) not in keep])
        items[:] = [item for item in items if id(item) in keep]
    shard = config.getoption("--shard")
    if shard:
        try:
            part, parts = (int(v) for v in shard.split("/"))
        except ValueError:
            raise pytest.UsageError(f"--shard takes K/N (e.g. 0/3), got {shard!r}") from None
        if not 0 <= part < parts:
            raise pytest.UsageError(f"--shard {shard}: K must be in [0, N)")
        config.hook.pytest_deselected(items=[it for i, it in enumerate(items) if i % parts != part])
        items[:] = items[part::parts]
    if HAS_GPU:
        return
    skip_gpu = pytest.mark.skip(reason=NO_GPU_REASON)
    for item in items:
        if item.get_closest_marker("gpu") is not None:
            item.add_marker(skip_gpu)


@pytest.fixture(scope="session")
def has_gpu():
    return HAS_GPU


@pytest.fixture(params=["cpu", pytest.param("cuda", marks=pytest.mark.gpu)])
def backend(request):
    """The backend NumPy-input calls run on for this test ('cpu' or 'cuda')."""
    with npgpu.use_backend(request.param):
        assert npgpu.get_backend() == request.param
        yield request.param


@pytest.fixture(params=["cpu", pytest.param("cuda", marks=pytest.mark.gpu)])
def array_device(request):
    """The device npgpu.Arrays of this test live on ('cpu' or 'cuda'); it is also the default device of
    array creation inside the test (``npgpu.use_backend``)."""
    with npgpu.use_backend(request.param):
        yield request.param


@pytest.fixture
def rng():
    return np.random.default_rng(20240917)


def make_random_array(rng, shape, dtype):
    """Random values of `dtype` and `shape` with no zeros (bool: random, with at least one True).

    Integers span the dtype's whole range (so additions overflow and wrap); floats have both signs and
    magnitudes over several decades; complex numbers have nonzero real and imaginary parts.
    """
    dtype = np.dtype(dtype)
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    n = int(np.prod(shape, dtype=np.int64))
    if dtype.kind == "b":
        a = rng.random(n) < 0.5
        if n:
            a[0] = True
    elif dtype.kind in "iu":
        info = np.iinfo(dtype)
        a = rng.integers(info.min, info.max, size=n, dtype=dtype, endpoint=True)
        a[a == 0] = 1
    elif dtype.kind == "f":
        mag = rng.uniform(0.5, 1.0, size=n) * 10.0 ** rng.integers(-3, 4, size=n)
        a = (mag * rng.choice([-1.0, 1.0], size=n)).astype(dtype)
    elif dtype.kind == "c":
        part = np.dtype(f"f{dtype.itemsize // 2}")
        a = np.empty(n, dtype=dtype)
        a.real = make_random_array(rng, n, part)
        a.imag = make_random_array(rng, n, part)
    else:
        raise TypeError(f"no random generator for {dtype}")
    return a.reshape(shape)


@pytest.fixture
def random_array(rng):
    def make(shape, dtype=np.float64):
        return make_random_array(rng, shape, dtype)
    return make


def make_poisoned(shape, dtype, avoid=None):
    """A writeable array of `shape` and `dtype` filled with garbage: NaN for floats and complex; for the
    other kinds, values that differ from `avoid` (when given) at every element."""
    dtype = np.dtype(dtype)
    out = np.empty(shape, dtype=dtype)
    if dtype.kind in "fc":
        out[...] = np.nan
    elif dtype.kind == "b":
        out[...] = True if avoid is None else np.logical_not(avoid)
    else:
        if avoid is None:
            out[...] = np.array(0x5A5A5A5A5A5A5A5A, dtype=np.uint64).astype(dtype)
        else:
            out[...] = np.asarray(avoid).astype(dtype) + dtype.type(1)  # wraps: never equal
    return out


@pytest.fixture
def poisoned():
    return make_poisoned


def _values_equal(x, y):
    x = np.asarray(x)
    y = np.asarray(y)
    if x.dtype.kind == "c":
        return _values_equal(x.real, y.real) and _values_equal(x.imag, y.imag)
    if x.dtype.kind == "f":
        return bool(np.array_equal(x, y, equal_nan=True))
    return bool(np.array_equal(x, y))


def check_same(result, expected):
    """Assert result is what NumPy gave: same type (ndarray vs scalar), dtype, shape and values."""
    assert type(result) is type(expected), f"type {type(result).__name__}, NumPy gives {type(expected).__name__}"
    assert result.dtype == expected.dtype, f"dtype {result.dtype}, NumPy gives {expected.dtype}"
    assert np.shape(result) == np.shape(expected), f"shape {np.shape(result)}, NumPy gives {np.shape(expected)}"
    if not _values_equal(result, expected):
        r = np.asarray(result).ravel()
        e = np.asarray(expected).ravel()
        bad = np.flatnonzero(~((r == e) | ((r != r) & (e != e))))
        i = int(bad[0]) if bad.size else 0
        raise AssertionError(f"{bad.size} of {r.size} values differ; first at flat index {i}: "
                             f"{r[i]!r} vs NumPy's {e[i]!r}")


@pytest.fixture
def assert_same():
    return check_same


def _run_threads(target, n=8, join_timeout=120):
    """Start n threads running target(i) together (released by one barrier); the exceptions they raised."""
    errors = []
    barrier = threading.Barrier(n)

    def wrapper(i):
        try:
            barrier.wait(timeout=30)
            target(i)
        except BaseException as e:  # noqa: BLE001 - reported to the main thread
            errors.append((i, e))

    threads = [threading.Thread(target=wrapper, args=(i,), daemon=True) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(join_timeout)
    stuck = [t.name for t in threads if t.is_alive()]
    assert not stuck, f"threads did not finish (deadlock?): {stuck}"
    return errors


@pytest.fixture
def run_threads():
    """run_threads(target, n=8, join_timeout=120): target(i) in n threads at once; their exceptions."""
    return _run_threads


@contextlib.contextmanager
def _sigint_after(delay):
    """Sends SIGINT to the main thread `delay` seconds into the block, with Python's own handler installed
    meanwhile (also where the process started with SIGINT ignored: nohup, a background job, which would leave
    an interruptible call running forever); yields a list that receives the time it fired."""
    fired = []

    def interrupt():
        fired.append(time.perf_counter())
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)

    timer = threading.Timer(delay, interrupt)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer.start()
    try:
        yield fired
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)


@pytest.fixture
def sigint_after():
    """sigint_after(delay): a context manager sending SIGINT to the main thread `delay` s into its block; it
    yields a list holding the time (perf_counter) the signal was sent."""
    return _sigint_after
