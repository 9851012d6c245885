"""npgpu from several Python threads at once."""

import numpy as np
import pytest

import npgpu

from _threads import thread_count

N_THREADS = thread_count(8)
JOIN_TIMEOUT_S = 120


def test_cpu_backend_concurrent_adds(run_threads):
    dtypes = [np.float32, np.float64, np.int32, np.complex64]
    checked = [0] * N_THREADS

    def work(i):
        rng = np.random.default_rng(i)
        with npgpu.use_backend("cpu"):  # per thread: the backend choice is thread-local
            for k in range(20):
                dt = dtypes[(i + k) % len(dtypes)]
                a = (rng.random(50_000 + 97 * k) * 100).astype(dt)
                b = (rng.random(50_000 + 97 * k) * 100).astype(dt)
                assert np.array_equal(npgpu.add(a, b), np.add(a, b))
                out = np.full(a.shape, 7, dtype=dt)
                assert npgpu.add(a[::-1], b, out=out) is out
                assert np.array_equal(out, np.add(a[::-1], b))
                checked[i] += 1

    errors = run_threads(work, N_THREADS, JOIN_TIMEOUT_S)
    assert not errors, errors
    assert checked == [20] * N_THREADS


def test_cpu_backend_threads_share_nothing_by_accident(run_threads):
    # Threads writing to their own outputs at once each get their own answer.
    results = [None] * N_THREADS

    def work(i):
        with npgpu.use_backend("cpu"):
            a = np.full(200_000, float(i))
            results[i] = npgpu.add(a, 0.5)

    errors = run_threads(work, N_THREADS, JOIN_TIMEOUT_S)
    assert not errors, errors
    for i, r in enumerate(results):
        assert r is not None and np.all(r == i + 0.5)


@pytest.mark.threads
@pytest.mark.gpu
def test_gpu_threads_with_own_streams(run_threads):
    checked = [0] * N_THREADS
    streams = [None] * N_THREADS

    def work(i):
        rng = np.random.default_rng(100 + i)
        s = npgpu.Stream()
        streams[i] = s.ptr
        with s:
            assert npgpu.get_current_stream().ptr == s.ptr
            for k in range(20):
                n = int(rng.integers(1, 300_000))
                a = rng.random(n, dtype=np.float32)
                b = rng.random(n, dtype=np.float32)
                da, db = npgpu.asarray(a), npgpu.asarray(b)
                dc = npgpu.add(da, db)
                dc += da
                if k % 5 == 0:
                    dc = dc + 1.0
                expected = (a + b) + a
                if k % 5 == 0:
                    expected = expected + np.float32(1.0)
                got = dc.get()
                assert got.dtype == np.float32 and np.array_equal(got, expected), f"thread {i} add {k}"
                checked[i] += 1
            del da, db, dc  # free on the stream before it is destroyed
        s.synchronize()

    errors = run_threads(work, N_THREADS, JOIN_TIMEOUT_S)
    assert not errors, errors
    assert checked == [20] * N_THREADS
    assert len(set(streams)) == N_THREADS  # each thread really had its own stream


@pytest.mark.threads
@pytest.mark.gpu
def test_gpu_threads_staged_numpy_adds(run_threads):
    # NumPy inputs on the CUDA backend from many threads share the staging ring: no deadlock, no mix-ups.
    checked = [0] * N_THREADS

    def work(i):
        rng = np.random.default_rng(200 + i)
        with npgpu.use_backend("cuda"):
            for k in range(10):
                n = 3_000_000 if k % 4 == 0 else int(rng.integers(1, 200_000))
                a = rng.random(n)
                b = np.full(n, float(i))
                assert np.array_equal(npgpu.add(a, b), a + b), f"thread {i} add {k}"
                checked[i] += 1

    errors = run_threads(work, N_THREADS, JOIN_TIMEOUT_S)
    assert not errors, errors
    assert checked == [10] * N_THREADS


@pytest.mark.threads
@pytest.mark.gpu
def test_gpu_threads_default_streams(run_threads):
    # Without a Stream context each thread uses its own per-thread default stream.
    results = [None] * N_THREADS

    def work(i):
        assert npgpu.get_current_stream().ptr == 2
        d = npgpu.full(100_000, float(i), dtype=np.float64)
        for _ in range(10):
            d = d + 1.0
        results[i] = d.get()

    errors = run_threads(work, N_THREADS, JOIN_TIMEOUT_S)
    assert not errors, errors
    for i, r in enumerate(results):
        assert np.all(r == i + 10.0)
