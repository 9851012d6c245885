"""Reliability (issue 22): every public family from many threads at once, and memory that does not grow.

Concurrency: ``N_THREADS`` threads each run one call per family ``ITERATIONS`` times on their own data (and, on a
GPU, ``SOAK_THREADS`` threads on streams of their own and one shared for ``SOAK_SECONDS``);
every result must equal (bit for bit; random streams included) what the same call gave run serially
beforehand in the main thread. Memory: each family is called ``MEM_REPEATS`` times after a warm-up and
the growth of Python allocations (tracemalloc), of the resident set (/proc/self/statm) and, on a GPU,
of the pool's ``pool_used`` is bounded. Linux only (/proc). docs/reliability.md has the numbers measured
on the host and the environment variables for bigger budgets.
"""
import gc
import multiprocessing as mp
import os
import queue
import sys
import threading
import time
import tracemalloc

import numpy as np
import pytest

import npgpu
import npgpu.fft

try:
    import scipy.sparse as _scipy_sparse

    import npgpu.sparse as _npgpu_sparse
except ImportError:  # pragma: no cover - scipy is optional
    _scipy_sparse = None

# Bigger budgets (docs/reliability.md): NPGPU_RELIABILITY_THREADS, NPGPU_RELIABILITY_ITERATIONS and
# NPGPU_RELIABILITY_REPEATS override the defaults below.
N_THREADS = int(os.environ.get("NPGPU_RELIABILITY_THREADS", "8"))
ITERATIONS = int(os.environ.get("NPGPU_RELIABILITY_ITERATIONS", "20"))
JOIN_TIMEOUT_S = 120 + 2 * ITERATIONS
MEM_REPEATS = int(os.environ.get("NPGPU_RELIABILITY_REPEATS", "300"))
SMALL_CALLS = int(os.environ.get("NPGPU_RELIABILITY_SMALL_CALLS", "1000000"))  # the baseline test's
LARGE_CALLS = int(os.environ.get("NPGPU_RELIABILITY_LARGE_CALLS", "1000"))
MiB = 1 << 20
RSS_BOUND = 32 * MiB  # growth of the resident set over MEM_REPEATS calls, after warm-up
TRACED_BOUND = 1 * MiB  # growth of Python allocations over MEM_REPEATS calls, after warm-up


# ---------------------------------------------------------------- the workload: one call per family


def _as_numpy(x):
    if isinstance(x, npgpu.Array):
        return x.get()
    if isinstance(x, tuple):
        return tuple(_as_numpy(v) for v in x)
    return np.asarray(x)


def _make_inputs(seed, n=4096):
    """Each thread's own NumPy data (small: the point is interleaving, not throughput)."""
    r = np.random.default_rng(seed)
    a = r.standard_normal((64, n // 64))
    b = r.standard_normal(n // 64)
    ints = r.integers(0, 50, size=n, dtype=np.int64)
    mats = r.standard_normal((4, 6, 6)) + 6 * np.eye(6)  # well conditioned stack
    rhs = r.standard_normal((4, 6, 2))
    field = r.random((48, 48))
    idx = r.integers(0, 256, size=1000, dtype=np.int64)
    vals = r.integers(-1000, 1000, size=1000, dtype=np.int64)  # exact sums: a GPU's atomic order varies
    vec = r.standard_normal(300)
    return dict(a=a, b=b, ints=ints, mats=mats, rhs=rhs, field=field, idx=idx, vals=vals, vec=vec,
                rseed=int(seed) * 7919 + 1)


def _sparse_matrix(seed):
    m = _scipy_sparse.random(300, 300, density=0.02, format="csr", random_state=seed, dtype=np.float64)
    return _npgpu_sparse.csr_matrix(m)


def _family_calls(inp, to_dev, sparse_mat, device=None):
    """name -> zero-argument callable returning the family's result (NumPy or npgpu.Array); `device`:
    where random draws go (None: NumPy arrays)."""
    d = {k: (to_dev(v) if isinstance(v, np.ndarray) else v) for k, v in inp.items()}

    def scatter():
        acc = to_dev(np.zeros(256, np.int64))
        npgpu.add.at(acc, d["idx"], d["vals"])
        g = npgpu.take(acc, d["idx"][:100])
        return acc, g

    def random_stream():
        g = npgpu.random.default_rng(inp["rseed"])
        dev = False if device is None else device
        return (g.random(500, device=dev), g.standard_normal(300, device=dev),
                g.integers(0, 1000, size=200, device=dev))

    calls = {
        "elementwise": lambda: npgpu.multiply(npgpu.add(d["a"], d["b"]), d["a"]),
        "reduction": lambda: (npgpu.sum(d["a"], axis=0), npgpu.max(d["a"], axis=1)),
        "sorting": lambda: (npgpu.sort(d["ints"]), npgpu.argsort(d["ints"], kind="stable"),
                            npgpu.unique(d["ints"])),
        "matmul": lambda: npgpu.matmul(d["a"], d["a"].T),
        "fft": lambda: npgpu.fft.fft(d["a"], axis=1),
        "linalg": lambda: (npgpu.linalg.solve(d["mats"], d["rhs"]), npgpu.linalg.inv(d["mats"])),
        "random": random_stream,
        "indexing": scatter,
        "diffusion": lambda: npgpu.diffusion(d["field"], 10, coeff=0.2),
    }
    if sparse_mat is not None:
        calls["sparse"] = lambda: sparse_mat @ d["vec"]
    return calls


def _assert_identical(got, expected, what):
    got, expected = _as_numpy(got), _as_numpy(expected)
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected), what
        for k, (g, e) in enumerate(zip(got, expected)):
            _assert_identical(g, e, f"{what}[{k}]")
        return
    assert got.dtype == expected.dtype and got.shape == expected.shape, what
    # Bit-identical: the same call on the same data must not depend on what other threads do.
    assert got.tobytes() == expected.tobytes(), f"{what}: result differs from the serial run"


def _concurrent_mixed_workload(run_threads, backend_name, to_dev, device=None):
    inputs = [_make_inputs(1000 + i) for i in range(N_THREADS)]
    sparse = [(_sparse_matrix(i) if _scipy_sparse is not None else None) for i in range(N_THREADS)]
    expected = []
    for i in range(N_THREADS):  # serial reference, same calls, same data
        calls = _family_calls(inputs[i], to_dev, sparse[i], device)
        ref = {}
        for name, f in calls.items():
            r = f()
            if device is not None:  # device arrays in, device arrays out (on the same device)
                for leaf in (r if isinstance(r, tuple) else (r,)):
                    assert isinstance(leaf, npgpu.Array), f"{name} gave {type(leaf).__name__}"
                    assert str(leaf.device).startswith(device), f"{name} gave an array on {leaf.device}"
            ref[name] = _as_numpy(r)
        expected.append(ref)
    families = sorted(expected[0])
    done = [0] * N_THREADS

    def work(i):
        with npgpu.use_backend(backend_name):
            calls = _family_calls(inputs[i], to_dev, sparse[i], device)
            for k in range(ITERATIONS):
                # Rotate the order so different threads run different families at the same moment.
                for j in range(len(families)):
                    name = families[(i + k + j) % len(families)]
                    _assert_identical(calls[name](), expected[i][name], f"thread {i} iter {k} {name}")
                done[i] += 1

    errors = run_threads(work, N_THREADS, JOIN_TIMEOUT_S)
    assert not errors, errors[:3]
    assert done == [ITERATIONS] * N_THREADS
    if N_THREADS > 1:  # (compute-sanitizer's initcheck runs these workloads from one thread)
        # The references really differ between threads (data is per thread, so a mix-up would be seen).
        assert not np.array_equal(expected[0]["elementwise"], expected[1]["elementwise"])
        assert not np.array_equal(expected[0]["random"][0], expected[1]["random"][0])
    return families


@pytest.mark.threads
def test_concurrent_mixed_families_numpy_inputs(backend, run_threads):
    families = _concurrent_mixed_workload(run_threads, backend, lambda x: x)
    assert {"elementwise", "reduction", "sorting", "matmul", "fft", "linalg", "random", "indexing",
            "diffusion"} <= set(families)


@pytest.mark.threads
def test_concurrent_mixed_families_device_arrays(array_device, run_threads):
    families = _concurrent_mixed_workload(run_threads, array_device, lambda x: npgpu.asarray(x, device=array_device),
                                          device=array_device)
    assert {"elementwise", "random", "indexing", "diffusion"} <= set(families)


@pytest.mark.threads
def test_random_streams_equal_serial_run(run_threads):
    # Separate seeds in separate threads give exactly the serial streams; the same Generator shared
    # by threads hands out disjoint blocks (no value drawn twice).
    serial = [npgpu.random.default_rng(s).standard_normal(20_000) for s in range(N_THREADS)]
    got = [None] * N_THREADS

    def work(i):
        g = npgpu.random.default_rng(i)
        parts = [g.standard_normal(1000) for _ in range(20)]
        got[i] = np.concatenate(parts)

    errors = run_threads(work, N_THREADS, JOIN_TIMEOUT_S)
    assert not errors, errors
    for i in range(N_THREADS):
        assert np.array_equal(got[i], serial[i]), f"seed {i}: threaded stream differs from serial"

    shared = npgpu.random.Generator(12345)
    draws = [None] * N_THREADS

    def draw(i):
        draws[i] = np.concatenate([shared.random(1024) for _ in range(20)])

    errors = run_threads(draw, N_THREADS, JOIN_TIMEOUT_S)
    assert not errors, errors
    allv = np.concatenate(draws)
    assert np.unique(allv).size == allv.size  # disjoint blocks
    ref = npgpu.random.Generator(12345).random(allv.size)
    assert np.array_equal(np.sort(allv), np.sort(ref))  # exactly the values of a serial run


def test_use_backend_is_per_thread(monkeypatch, run_threads):
    # NPGPU_BACKEND=cuda is the process default; thread 0 chooses "cpu" with use_backend while thread 1
    # makes no choice (or, with a GPU, chooses "cuda"), at the same moments: each sees only its own.
    monkeypatch.setenv("NPGPU_BACKEND", "cuda")
    assert npgpu.get_backend() == "cuda"
    seen = [[], []]
    inside = threading.Barrier(2)
    flip = threading.Barrier(2)

    def work(i):
        for _ in range(50):
            if i == 0:
                ctx = npgpu.use_backend("cpu")
            elif npgpu.is_available():
                ctx = npgpu.use_backend("cuda")
            else:
                ctx = None
            try:
                inside.wait(timeout=30)  # both threads are inside (or outside) their choice now
                seen[i].append(npgpu.get_backend())
                flip.wait(timeout=30)
            finally:
                if ctx is not None:
                    ctx.__exit__(None, None, None)
            seen[i].append(npgpu.get_backend())  # after leaving: the process default again

    errors = run_threads(work, 2, JOIN_TIMEOUT_S)
    assert not errors, errors
    assert seen[0] == ["cpu", "cuda"] * 50
    assert seen[1] == ["cuda", "cuda"] * 50
    assert npgpu.get_backend() == "cuda"  # the main thread is untouched


def test_use_backend_per_thread_results(monkeypatch, run_threads):
    # Under NPGPU_BACKEND=cuda, a thread inside use_backend("cpu") computes on the host while another
    # thread with no choice uses the GPU (or, without one, gets GPUUnavailableError): neither leaks into
    # the other, however their calls interleave.
    monkeypatch.setenv("NPGPU_BACKEND", "cuda")
    a = np.arange(100_000, dtype=np.float64)
    expected = float(2.0 * a.sum())
    outcome = [[], []]
    step = threading.Barrier(2)

    def work(i):
        ctx = npgpu.use_backend("cpu") if i == 0 else None
        try:
            for _ in range(20):
                step.wait(timeout=30)
                try:
                    outcome[i].append(float(npgpu.sum(npgpu.multiply(a, 2.0))))
                except npgpu.GPUUnavailableError:
                    outcome[i].append("no gpu")
        finally:
            if ctx is not None:
                ctx.__exit__(None, None, None)

    errors = run_threads(work, 2, JOIN_TIMEOUT_S)
    assert not errors, errors
    assert outcome[0] == [expected] * 20
    assert outcome[1] == ([expected] if npgpu.is_available() else ["no gpu"]) * 20


# ---------------------------------------------------------------- arrays passed between threads
# Each thread queues its work on its own default stream. An array handed to another thread while that work is
# still queued must read complete there: dask's threaded scheduler does this with every chunk.

# In-place additions over 2^25 elements: each is queued in microseconds and runs for tens on the GPU, so the
# array is handed over with milliseconds of its work still queued. NPGPU_RELIABILITY_HANDOFF_N shrinks them
# under compute-sanitizer, whose slowed kernels keep the work queued at any size.
_HANDOFF_N = int(os.environ.get("NPGPU_RELIABILITY_HANDOFF_N", str(1 << 25)))
_HANDOFF_ADDS = 100


def _queued_adds():
    """An array whose value is 1 + _HANDOFF_ADDS, returned while most of its additions are still queued."""
    y = npgpu.asarray(np.ones(_HANDOFF_N, np.float32), device=0)
    for _ in range(_HANDOFF_ADDS):
        y += np.float32(1)
    return y


def _read_on_this_thread(y, how):
    if how == "get":
        return y.get()
    if how == "sum":
        return float(npgpu.sum(y, dtype=np.float64))
    return (y * np.float32(2)).get() / 2


def _check_handoff(got, how):
    want = 1.0 + _HANDOFF_ADDS
    if how == "sum":
        assert got == want * _HANDOFF_N
    else:
        bad = np.flatnonzero(got != want)
        assert bad.size == 0, f"{bad.size} of {got.size} values not {want}, e.g. {got[bad[:5]]}"


@pytest.mark.gpu
@pytest.mark.parametrize("how", ["get", "sum", "multiply"])
def test_array_from_a_running_thread_reads_complete(how):
    box, release = queue.Queue(), threading.Event()

    def producer():
        box.put(_queued_adds())
        release.wait(120)  # still alive while the other thread reads it

    t = threading.Thread(target=producer)
    t.start()
    try:
        got = _read_on_this_thread(box.get(timeout=120), how)
    finally:
        release.set()
        t.join(120)
    _check_handoff(got, how)


@pytest.mark.gpu
def test_own_stream_ordered_after_another_thread_through_the_default_stream():
    # The documented recipe for a stream of one's own: wait for this thread's default stream, which waits for
    # what other threads have queued.
    box, release = queue.Queue(), threading.Event()

    def producer():
        box.put(_queued_adds())
        release.wait(120)

    t = threading.Thread(target=producer)
    t.start()
    try:
        y = box.get(timeout=120)
        s = npgpu.Stream()
        s.wait_stream(npgpu.Stream.per_thread())
        with s:
            z = y * np.float32(2)
        s.synchronize()
        got = z.get() / 2
    finally:
        release.set()
        t.join(120)
    _check_handoff(got, "get")


@pytest.mark.gpu
@pytest.mark.parametrize("how", ["get", "sum"])
def test_array_from_an_ended_thread_reads_complete(how):
    box = queue.Queue()
    t = threading.Thread(target=lambda: box.put(_queued_adds()))
    t.start()
    t.join(120)
    _check_handoff(_read_on_this_thread(box.get(timeout=1), how), how)


@pytest.mark.gpu
def test_arrays_passed_around_a_thread_pool_read_complete():
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(4) as pool:
        parts = list(pool.map(lambda _: _queued_adds(), range(4)))
        total = pool.submit(lambda: npgpu.sum(npgpu.stack(parts), axis=0)).result()
        got = total.get()
    assert np.all(got == 4 * (1.0 + _HANDOFF_ADDS))


# NPGPU_THREAD_ORDERING=off: another thread's queued work no longer delays this thread's default stream (and the
# documented recipe, waiting on the producer's event, still reads the array complete). It is read once per
# process, so each setting runs in a process of its own.
_ORDERING_CHILD = """
import queue, sys, threading
sys.path.insert(0, sys.argv[1])
import numpy as np, npgpu
import test_reliability as t
# Made and added to first: the reading thread's call then allocates nothing, copies nothing, and loads no
# kernel (CUDA's lazy loading of a kernel's first launch can wait for the whole device).
z = npgpu.ones(4, device=0)
z += 1
box, release = queue.Queue(), threading.Event()
def producer():
    y = t._queued_adds()
    box.put((y, npgpu.Event().record(npgpu.Stream.per_thread())))
    release.wait(120)
th = threading.Thread(target=producer)
th.start()
try:
    y, ev = box.get(timeout=120)
    z += 1  # this thread's own work, then its stream synchronised
    npgpu.Stream.per_thread().synchronize()
    producer_done = ev.query()
    ev.synchronize()
    t._check_handoff(y.get(), "get")
    assert np.all(z.get() == 3)
finally:
    release.set()
    th.join(120)
print("producer done:", producer_done)
"""


# Alone: another process's kernels on the GPU can delay the reader until the producer has finished too.
@pytest.mark.gpu
@pytest.mark.alone
@pytest.mark.parametrize("setting, waited", [("on", True), ("off", False)])
def test_thread_ordering_setting(setting, waited):
    import subprocess
    r = subprocess.run([sys.executable, "-c", _ORDERING_CHILD, os.path.dirname(__file__)], capture_output=True,
                       text=True, timeout=180, env={**os.environ, "NPGPU_THREAD_ORDERING": setting})
    assert r.returncode == 0, r.stderr[-2000:]
    # compute-sanitizer (gpu-check names its runs in NPGPU_SAN_TAG) runs one kernel at a time, whatever the
    # streams: the unordered reader's work then still waits there.
    if waited or "NPGPU_SAN_TAG" not in os.environ:
        assert f"producer done: {waited}" in r.stdout, r.stdout


@pytest.mark.gpu
def test_thread_ordering_bad_value_is_a_clear_error():
    import subprocess
    r = subprocess.run([sys.executable, "-c", "import npgpu; npgpu.ones(3, device=0)"], capture_output=True,
                       text=True, timeout=120, env={**os.environ, "NPGPU_THREAD_ORDERING": "sometimes"})
    assert r.returncode != 0
    assert "ValueError: NPGPU_THREAD_ORDERING must be 'on' or 'off', not 'sometimes'" in r.stderr, r.stderr[-2000:]


# ---------------------------------------------------------------- streams of their own and shared, for a while

# gpu-check's tests phase: 16 threads for a minute (NPGPU_RELIABILITY_SOAK_SECONDS=60); at least two rounds.
SOAK_THREADS = int(os.environ.get("NPGPU_RELIABILITY_SOAK_THREADS", "16"))
SOAK_SECONDS = float(os.environ.get("NPGPU_RELIABILITY_SOAK_SECONDS", "10"))

_SOAK_SRC = r"""
extern "C" __global__ void scale_add(const double* x, double* y, double a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
"""


def _soak_calls(inp, sparse_mat, scale_add, ek):
    """Every family on device arrays and on NumPy inputs (through the staging ring), a SourceModule kernel
    and an ElementwiseKernel: name -> zero-argument callable. Device data is made on the current stream."""
    calls = {f"device {k}": f for k, f in
             _family_calls(inp, lambda x: npgpu.asarray(x, device="cuda"), sparse_mat, "cuda").items()}
    calls.update({f"numpy {k}": f for k, f in _family_calls(inp, lambda x: x, sparse_mat).items()})
    x = npgpu.asarray(inp["vec"], device="cuda")

    def source_module():
        y = npgpu.asarray(inp["vec"][::-1].copy(), device="cuda")  # written by the kernel: never the input
        scale_add(x, y, np.float64(1.5), np.int32(x.size), block=(128, 1, 1), grid=((x.size + 127) // 128, 1))
        return y

    calls["SourceModule"] = source_module
    calls["ElementwiseKernel"] = lambda: ek(x, npgpu.multiply(x, 3.0))
    return calls


@pytest.mark.gpu
@pytest.mark.threads
def test_threads_on_streams_of_their_own_and_one_shared_for_a_while(run_threads):
    # SOAK_THREADS threads for SOAK_SECONDS: the first half each on a stream of its own, the others all on one
    # shared stream, every thread running each family in its own rotated order until the time is up. Each
    # result must equal, bit for bit, the same call run serially on the same stream beforehand, and after
    # every call the thread's current stream and device must still be its own.
    from _threads import thread_count

    n = thread_count(SOAK_THREADS)
    half = max(1, n // 2)
    scale_add = npgpu.SourceModule(_SOAK_SRC).get_function("scale_add")
    ek = npgpu.ElementwiseKernel("float64 x, float64 y", "float64 z", "z = x * y - 2.0 * x", "soak_ek")
    streams = [npgpu.Stream() for _ in range(half)]
    shared = npgpu.Stream()
    stream_of = [streams[i] if i < half else shared for i in range(n)]
    inputs = [_make_inputs(3000 + i) for i in range(n)]
    sparse = [(_sparse_matrix(i) if _scipy_sparse is not None else None) for i in range(n)]
    device = npgpu.get_device_id()
    expected = []
    with npgpu.use_backend("cuda"):
        for i in range(n):  # the serial reference, on the stream the thread will use
            with stream_of[i]:
                expected.append({k: _as_numpy(f()) for k, f in
                                 _soak_calls(inputs[i], sparse[i], scale_add, ek).items()})
    npgpu.synchronize()  # the inputs made here are complete before other streams read them
    names = sorted(expected[0])
    rounds = [0] * n
    deadline = time.monotonic() + SOAK_SECONDS

    def work(i):
        s = stream_of[i]
        with npgpu.use_backend("cuda"), s:
            calls = _soak_calls(inputs[i], sparse[i], scale_add, ek)
            k = 0
            while k < 2 or time.monotonic() < deadline:
                for j in range(len(names)):
                    name = names[(i + k + j) % len(names)]
                    _assert_identical(calls[name](), expected[i][name], f"thread {i} round {k} {name}")
                    assert npgpu.get_current_stream().ptr == s.ptr, f"thread {i}: another stream after {name}"
                    assert npgpu.get_device_id() == device, f"thread {i}: another device after {name}"
                k += 1
            rounds[i] = k
            del calls  # its device arrays are freed on s while s is current
        s.synchronize()

    errors = run_threads(work, n, SOAK_SECONDS + 300)
    assert not errors, errors[:3]
    assert min(rounds) >= 2, rounds
    assert {"SourceModule", "ElementwiseKernel", "device matmul", "numpy elementwise"} <= set(names)
    if n > 1:
        assert len({st.ptr for st in stream_of}) == min(n, half + 1)  # own streams, and one shared
        print(f"\n{n} threads for {SOAK_SECONDS:.0f} s: rounds per thread {min(rounds)}-{max(rounds)}")


# ---------------------------------------------------------------- the GIL during long calls

# name -> f(n, rng) building a zero-argument call whose work grows with n (elements, or steps and points).
GIL_FAMILIES = {
    "elementwise": lambda n, r: (lambda x: lambda: npgpu.sin(x))(r.standard_normal(n)),
    "reduction": lambda n, r: (lambda x: lambda: npgpu.var(x, axis=0))(r.standard_normal((n // 64, 64))),
    "sort": lambda n, r: (lambda x: lambda: npgpu.sort(x))(r.standard_normal(n)),
    "argsort": lambda n, r: (lambda x: lambda: npgpu.argsort(x))(r.integers(0, 1 << 30, n)),
    "unique": lambda n, r: (lambda x: lambda: npgpu.unique(x))(r.integers(0, 1 << 30, n)),
    "monte_carlo_pi": lambda n, r: lambda: npgpu.monte_carlo_pi(8 * n, seed=1),
    "random": lambda n, r: (lambda g: lambda: g.standard_normal(n))(npgpu.random.default_rng(1)),
    "fft": lambda n, r: (lambda x: lambda: npgpu.fft.fft(x))(r.standard_normal(n)),
    "diffusion": lambda n, r: (lambda f: lambda: npgpu.diffusion(f, max(1, n >> 14)))(r.random((512, 512))),
    "host_array_elementwise": lambda n, r: (lambda x: lambda: npgpu.exp(x))(
        npgpu.asarray(r.standard_normal(n), device="cpu")),
    "host_array_diffusion": lambda n, r: (lambda f: lambda: npgpu.diffusion(f, max(1, n >> 14)))(
        npgpu.asarray(r.random((512, 512)), device="cpu")),
}
GIL_MIN_CALL_S = 0.01
GIL_MAX_N = 1 << 24
GIL_SWITCH_S = 1e-4  # the interpreter's switch interval while measuring (default 5 ms)


def _python_thread_rate(call, seconds):
    """Iterations per second of a pure-Python loop in another thread while `call` runs back to back, with
    the interpreter asked to switch threads every GIL_SWITCH_S."""
    stop, count = threading.Event(), [0]

    def spin():
        while not stop.is_set():
            count[0] += 1

    previous = sys.getswitchinterval()
    sys.setswitchinterval(GIL_SWITCH_S)
    t = threading.Thread(target=spin, daemon=True)
    try:
        t.start()
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            call()
        elapsed = time.perf_counter() - t0
    finally:
        stop.set()
        t.join(timeout=10)
        sys.setswitchinterval(previous)
    return count[0] / elapsed


@pytest.mark.parametrize("family", sorted(GIL_FAMILIES))
def test_long_calls_release_the_gil(family):
    # Host backend (a GPU finishes these sizes in milliseconds). A call holding the GIL for its whole
    # duration leaves the other thread only a switch interval (0.1 ms) between calls: about 1% of its free
    # rate for calls of 10 ms. Released, it runs beside the call (sharing the cores with the call's threads).
    r = np.random.default_rng(5)
    with npgpu.use_backend("cpu"):
        n = 1 << 14
        while True:  # grow the work until one call takes GIL_MIN_CALL_S
            call = GIL_FAMILIES[family](n, r)
            t0 = time.perf_counter()
            call()
            took = time.perf_counter() - t0
            if took >= GIL_MIN_CALL_S or n >= GIL_MAX_N:
                break
            n = min(GIL_MAX_N, n * max(2, int(2 * GIL_MIN_CALL_S / max(took, 1e-4))))
        if took < GIL_MIN_CALL_S / 2:
            pytest.skip(f"{family}: {took * 1e3:.1f} ms at the largest size, too fast here to judge")
        for _attempt in range(2):  # a second measurement before failing: another process may take the cores
            free = _python_thread_rate(lambda: time.sleep(0.01), 0.3)
            busy = _python_thread_rate(call, max(0.3, 3 * took))
            if busy > 0.25 * free:
                break
    assert busy > 0.25 * free, (f"{family}: a Python thread ran at {busy / free:.2f} of its free rate during "
                                f"{took * 1e3:.0f} ms calls: the call holds the GIL")


def test_gil_measure_detects_a_holding_call():
    # The control: sorted() of a list of floats runs in C holding the GIL throughout.
    values = np.random.default_rng(6).random(1 << 19).tolist()
    t0 = time.perf_counter()
    sorted(values)
    took = time.perf_counter() - t0
    assert took >= GIL_MIN_CALL_S, f"control too short: {took * 1e3:.1f} ms"
    free = _python_thread_rate(lambda: time.sleep(0.01), 0.3)
    busy = _python_thread_rate(lambda: sorted(values), max(0.3, 3 * took))
    assert busy < 0.25 * free, f"the other thread ran at {busy / free:.2f} of its free rate"


# ---------------------------------------------------------------- worker processes


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_worker_processes_on_the_host_backend(method, monkeypatch):
    # multiprocessing workers compute what the parent does. With "fork" the parent has used the host
    # backend's OpenMP threads first, which GNU libgomp cannot carry into a child: without npgpu's fork
    # handler the child's first parallel loop waits forever (the timeout below fails the test).
    monkeypatch.setenv("NPGPU_BACKEND", "cpu")  # the workers' backend too
    with npgpu.use_backend("cpu"):
        want = [npgpu.monte_carlo_pi(1 << 16, s) for s in range(3)]  # parallel loops in the parent
        with mp.get_context(method).Pool(2) as pool:
            got = pool.starmap_async(npgpu.monte_carlo_pi, [(1 << 16, s) for s in range(3)]).get(timeout=120)
            sums = pool.map_async(npgpu.sum, [np.arange(1e6), np.arange(10)]).get(timeout=120)
    assert got == want
    assert sums == [float(np.arange(1e6).sum()), 45]


_FORK_CHILD = r"""
import os, sys
import numpy as np
import npgpu
assert float(npgpu.sum(npgpu.asarray(np.arange(10.0)))) == 45.0  # the parent uses the GPU
pid = os.fork()
if pid == 0:
    code = 3
    try:
        npgpu.asarray(np.arange(10.0)).get()
        code = 2  # no error: wrong
    except npgpu.CUDAError as e:
        code = 0 if "forked" in str(e) and "spawn" in str(e) and e.sticky else 4
        try:  # and every later call
            npgpu.sum(npgpu.asarray([1.0]))
            code = 5
        except npgpu.CUDAError:
            pass
    with npgpu.use_backend("cpu"):  # the host backend still works in the child
        if npgpu.sum(np.arange(10.0)) != 45.0:
            code = 6
    os._exit(code)
_, status = os.waitpid(pid, 0)
assert float(npgpu.sum(npgpu.asarray(np.arange(4.0)))) == 6.0  # the parent is unharmed
sys.exit(os.waitstatus_to_exitcode(status))
"""


@pytest.mark.gpu
def test_fork_after_gpu_use_gives_the_child_a_clear_error():
    import subprocess
    r = subprocess.run([sys.executable, "-c", _FORK_CHILD], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "NPGPU_BACKEND": "cuda"})
    assert r.returncode == 0, f"child exit code {r.returncode} (2: no error, 4: unclear error, 5: a later call " \
                              f"passed, 6: host backend broken); stderr: {r.stderr[-2000:]}"


# ---------------------------------------------------------------- a kernel that faults
# A run-time kernel that traps or writes outside any allocation breaks the process's CUDA context for good.
# The child reports, as JSON, what each call after the fault raised; the parent checks that every one was a
# sticky CUDAError that says to restart, that the host backend still works, and that the child exits cleanly.

_FAULT_CHILD = r"""
import json, sys
import numpy as np
import npgpu

SRC = '''
extern "C" __global__ void fault(int* x, int how) {
    if (how == 0) __trap();
    volatile int* far = x + (1ll << 40);  // 4 TiB past the array: no allocation is there
    *far = 1;
}
'''
f = npgpu.SourceModule(SRC).get_function("fault")
how = np.int32(0 if sys.argv[1] == "trap" else 1)
x = npgpu.asarray(np.arange(4, dtype=np.int32))
x.get()
seen = []


def attempt(what, call):
    try:
        call()
        seen.append([what, "returned", False, ""])
    except npgpu.CUDAError as e:
        seen.append([what, "CUDAError", bool(e.sticky), str(e)])
    except Exception as e:  # anything else is wrong: reported, not raised
        seen.append([what, type(e).__name__, False, str(e)])


attempt("the launch, then synchronize", lambda: (f(x, how, block=(1,), grid=(1,)), npgpu.synchronize()))
attempt("get of an array made before", x.get)
attempt("a new array", lambda: npgpu.asarray(np.ones(8, np.float32)).get())
attempt("add of device arrays", lambda: npgpu.add(x, x).get())
attempt("a NumPy-input sum on the GPU", lambda: npgpu.sum(np.ones(1 << 20, np.float32)))
attempt("synchronize", npgpu.synchronize)
with npgpu.use_backend("cpu"):
    host = npgpu.add(np.arange(3), 1).tolist()
print(json.dumps({"seen": seen, "host": host}))
"""


@pytest.mark.gpu
@pytest.mark.fault
@pytest.mark.parametrize("how", ["trap", "illegal_address"])
def test_a_faulting_kernel_gives_one_clear_sticky_error_from_then_on(how):
    import json
    import subprocess
    r = subprocess.run([sys.executable, "-c", _FAULT_CHILD, how], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "NPGPU_BACKEND": "cuda"})
    assert r.returncode == 0, f"child exit code {r.returncode}; stderr: {r.stderr[-2000:]}"
    report = json.loads(r.stdout.strip().splitlines()[-1])
    assert report["host"] == [1, 2, 3]
    assert len(report["seen"]) == 6
    for what, outcome, sticky, message in report["seen"]:
        assert (outcome, sticky) == ("CUDAError", True), f"{what}: {outcome} (sticky={sticky}): {message}"
        assert "no longer usable" in message and "restart the process" in message, f"{what}: {message}"


# ---------------------------------------------------------------- Ctrl-C on the GPU
# Timed within 0.2 s of the signal, so marked slow: kept out of the compute-sanitizer runs, which slow
# every call many times over.


def _interrupted_within(sigint_after, call, delay):
    """Runs call() with a SIGINT `delay` s in; asserts KeyboardInterrupt came within 0.2 s of the signal."""
    with sigint_after(delay) as fired, pytest.raises(KeyboardInterrupt):
        call()
    assert fired, "the call ended before the signal: make it longer"
    late = time.perf_counter() - fired[0]
    assert late < 0.2, f"KeyboardInterrupt came {late:.3f} s after the signal"


@pytest.mark.gpu
@pytest.mark.slow
def test_ctrl_c_stops_a_large_staged_numpy_call(sigint_after):
    """NumPy in, NumPy out on the GPU moves through the staging ring in chunks; the signal handlers run
    between chunks, and npgpu works afterwards."""
    n = 1 << 30  # 4 GiB per float32 operand: about a second through the ring
    a = np.full(n, 1.5, np.float32)
    b = np.full(n, 2.0, np.float32)
    with npgpu.use_backend("cuda"):
        _interrupted_within(sigint_after, lambda: npgpu.add(a, b), 0.15)
        small = np.arange(1 << 22, dtype=np.float32)
        np.testing.assert_array_equal(npgpu.add(small, small), small + small)
        np.testing.assert_array_equal(npgpu.add(a[:1 << 24], b[:1 << 24]), np.full(1 << 24, 3.5, np.float32))


@pytest.mark.gpu
@pytest.mark.slow
def test_ctrl_c_stops_monte_carlo_pi_of_2_40_points_on_the_gpu(sigint_after):
    with npgpu.use_backend("cuda"):
        _interrupted_within(sigint_after, lambda: npgpu.monte_carlo_pi(1 << 40, seed=3), 0.15)
        # counted in chunks, the points add up to the same count as one range
        n = 2 * (1 << 37) + 12345
        from npgpu import _random
        assert _random._pi_hits(n, 3) == _random._pi_hits(1 << 37, 3) + _random._pi_hits(n - (1 << 37), 3,
                                                                                          first=1 << 37)


@pytest.mark.gpu
@pytest.mark.slow
def test_ctrl_c_stops_a_long_gpu_diffusion(sigint_after):
    rng = np.random.default_rng(4)
    field = rng.random((4096, 4096), dtype=np.float32)
    with npgpu.use_backend("cuda"):
        _interrupted_within(sigint_after, lambda: npgpu.diffusion(field, 10 ** 7), 0.3)
        small = rng.random((64, 80))
        with npgpu.use_backend("cpu"):
            want = npgpu.diffusion(small, 20)
        np.testing.assert_allclose(npgpu.diffusion(small, 20), want, rtol=1e-12, atol=1e-14)


# ---------------------------------------------------------------- pinned memory exhausted


@pytest.mark.gpu
def test_staged_calls_fall_back_to_pageable_copies_when_pinned_memory_runs_out():
    """A staging ring whose pinned slots cannot be allocated (4 TiB each) leaves NumPy-input calls on the GPU
    to pageable copies: same results, no pinned memory taken."""
    rng = np.random.default_rng(5)
    n = 3 * (1 << 20) + 7  # several 8 MiB chunks, the last one partial
    a, b = rng.standard_normal(n), rng.standard_normal(n)
    x = rng.random(n).astype(np.float32)
    saved = npgpu.staging_config()
    try:
        npgpu.set_staging_config(slot_bytes=1 << 42, slots=2)
        with npgpu.use_backend("cuda"):
            before = npgpu.memory_info()["pinned_bytes"]
            np.testing.assert_array_equal(npgpu.add(a, b, out=np.empty(n)), a + b)
            np.testing.assert_array_equal(npgpu.sqrt(x, out=np.empty(n, np.float32)), np.sqrt(x))
            got = npgpu.random.Generator(9).random(n)
            with npgpu.use_backend("cpu"):
                want = npgpu.random.Generator(9).random(n)
            np.testing.assert_array_equal(got, want)
            # nothing pinned: the pinned cache may unpin blocks that earlier tests left in it, never add one
            assert npgpu.memory_info()["pinned_bytes"] <= before
    finally:
        npgpu.set_staging_config(*saved)
    with npgpu.use_backend("cuda"):  # the ring builds again once it fits
        np.testing.assert_array_equal(npgpu.add(a, b), a + b)


@pytest.mark.gpu
def test_results_go_to_ordinary_memory_when_pinned_memory_runs_out(monkeypatch):
    def exhausted(*args, **kwargs):
        raise npgpu.OutOfMemoryError("pinned host allocation failed (test)")

    rng = np.random.default_rng(6)
    a, b = rng.standard_normal((300, 200)), rng.standard_normal((200, 100))
    monkeypatch.setattr(npgpu._array, "empty_pinned", exhausted)
    with npgpu.use_backend("cuda"):
        np.testing.assert_array_equal(npgpu.add(a, 1.0), a + 1.0)
        np.testing.assert_allclose(npgpu.matmul(a, b), a @ b, rtol=1e-12)
        f = rng.random((64, 64))
        with npgpu.use_backend("cpu"):
            want = npgpu.diffusion(f, 5)
        np.testing.assert_allclose(npgpu.diffusion(f, 5), want, rtol=1e-12, atol=1e-14)


# ---------------------------------------------------------------- memory


def _rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _memory_inputs():
    """About 1 MiB per array operand (float64: 131072 values)."""
    r = np.random.default_rng(7)
    inp = _make_inputs(7, n=131072)
    inp["field"] = r.random((362, 362))  # ~1 MiB
    inp["vec"] = r.standard_normal(300)
    return inp


def _measure_growth(call, repeats=MEM_REPEATS, warmup=30):
    for _ in range(warmup):
        call()
    gc.collect()
    tracemalloc.start()
    try:
        traced0, _ = tracemalloc.get_traced_memory()
        rss0 = _rss_bytes()
        for _ in range(repeats):
            call()
        gc.collect()
        traced1, _ = tracemalloc.get_traced_memory()
        rss1 = _rss_bytes()
    finally:
        tracemalloc.stop()
    return traced1 - traced0, rss1 - rss0


FAMILIES = ["elementwise", "reduction", "sorting", "matmul", "fft", "linalg", "random", "indexing",
            "diffusion", "sparse"]


@pytest.mark.alone
@pytest.mark.parametrize("family", FAMILIES)
def test_memory_does_not_grow_numpy_inputs(backend, family):
    if family == "sparse" and _scipy_sparse is None:
        pytest.skip("needs scipy")
    sp = _sparse_matrix(3) if family == "sparse" else None
    call = _family_calls(_memory_inputs(), lambda x: x, sp)[family]
    traced, rss = _measure_growth(call)
    print(f"\n{backend} numpy-input {family}: traced {traced / 1024:.1f} KiB, rss {rss / MiB:.2f} MiB")
    assert traced < TRACED_BOUND, f"{family}: Python allocations grew by {traced} bytes"
    assert rss < RSS_BOUND, f"{family}: resident set grew by {rss / MiB:.1f} MiB"


@pytest.mark.alone
@pytest.mark.parametrize("family", FAMILIES)
def test_memory_does_not_grow_device_arrays(array_device, family):
    if family == "sparse" and _scipy_sparse is None:
        pytest.skip("needs scipy")
    sp = _sparse_matrix(3) if family == "sparse" else None
    call = _family_calls(_memory_inputs(), lambda x: npgpu.asarray(x, device=array_device), sp,
                         device=array_device)[family]
    if array_device == "cuda":
        call()
        npgpu.synchronize()
        gc.collect()
        before = npgpu.memory_info()["pool_used"]
    traced, rss = _measure_growth(call)
    print(f"\n{array_device} device-array {family}: traced {traced / 1024:.1f} KiB, rss {rss / MiB:.2f} MiB")
    assert traced < TRACED_BOUND, f"{family}: Python allocations grew by {traced} bytes"
    assert rss < RSS_BOUND, f"{family}: resident set grew by {rss / MiB:.1f} MiB"
    if array_device == "cuda":
        npgpu.synchronize()
        gc.collect()
        after = npgpu.memory_info()["pool_used"]
        assert after <= before, f"{family}: pool_used grew {before} -> {after} (device memory leaked)"


def _settled(device):
    """(RSS, pool_used, pinned_bytes) once garbage is collected and the device's queued frees have run."""
    gc.collect()
    if device != "cuda":
        return _rss_bytes(), 0, 0
    npgpu.synchronize()
    info = npgpu.memory_info()
    return _rss_bytes(), info["pool_used"], info["pinned_bytes"]


@pytest.mark.alone
@pytest.mark.parametrize("kind", ["numpy", "array"])
def test_a_million_small_calls_and_a_thousand_large_ones_return_to_baseline(array_device, kind):
    # NumPy inputs (run on array_device's backend) or npgpu.Arrays on that device: n_small calls on 1024
    # values (add and sum in turn) and LARGE_CALLS on 16 MiB, measured against the state after a warm-up.
    rng = np.random.default_rng(11)
    small, large = rng.random(1024, np.float32), rng.random(4 << 20, np.float32)
    if kind == "array":
        small, large = npgpu.asarray(small, device=array_device), npgpu.asarray(large, device=array_device)

    def run(n_small, n_large):
        for _ in range(n_small // 2):
            npgpu.add(small, small)
            npgpu.sum(small)
        for _ in range(n_large):
            npgpu.multiply(large, 2.0)

    # A NumPy-in call on a GPU stages through pinned memory and waits for its result (about 60 us), so a
    # million of them would take a minute of the GPU check; the Array half carries the million there.
    n_small = SMALL_CALLS // 10 if kind == "numpy" and array_device == "cuda" else SMALL_CALLS
    run(1000, 10)
    rss0, used0, pinned0 = _settled(array_device)
    t0 = time.perf_counter()
    run(n_small, LARGE_CALLS)
    seconds = time.perf_counter() - t0
    rss1, used1, pinned1 = _settled(array_device)
    print(f"\n{array_device} {kind}: {n_small} small + {LARGE_CALLS} large calls in {seconds:.1f} s; RSS "
          f"{(rss1 - rss0) / MiB:+.2f} MiB, pool_used {used1 - used0:+d} B, pinned {pinned1 - pinned0:+d} B")
    assert rss1 - rss0 < RSS_BOUND, f"resident set grew by {(rss1 - rss0) / MiB:.1f} MiB"
    assert used1 == used0, f"pool_used {used0} -> {used1}: device memory leaked"
    assert pinned1 <= pinned0, f"pinned memory {pinned0} -> {pinned1} bytes"


def test_memory_measure_detects_a_leak():
    # The measurement can fail. A Python/NumPy leak of 16 KiB per call exceeds the traced bound; a leak
    # of one operand (1 MiB) per call exceeds the RSS bound. (RSS cannot be trusted for small leaks: the
    # process first reuses memory freed by earlier tests; 128 KiB per call over 300 calls, 37.5 MiB, was
    # measured as 26.5 MiB of RSS growth.)
    kept = []

    def small_leak():
        kept.append(np.ones(2048))  # 16 KiB, kept alive

    traced, _ = _measure_growth(small_leak, repeats=300, warmup=1)
    kept.clear()
    assert traced > TRACED_BOUND, traced

    def operand_leak():
        kept.append(np.ones(131072))  # 1 MiB, kept alive

    _, rss = _measure_growth(operand_leak, repeats=300, warmup=1)
    kept.clear()
    assert rss > RSS_BOUND, rss
