"""Devices, streams, events, backend selection and the exception types."""
import os
import pickle
import subprocess
import sys
import threading

import numpy as np
import pytest

import npgpu

HAS_GPU = npgpu.is_available()
needs_no_gpu = pytest.mark.skipif(HAS_GPU, reason="checks the behaviour without a GPU")


def _python(code, **env):
    e = {k: v for k, v in os.environ.items() if k != "NPGPU_BACKEND"}
    e.update(env)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=e, timeout=120)


# ------------------------------------------------------------------------------------------ availability

def test_device_count_and_availability_agree():
    n = npgpu.device_count()
    assert isinstance(n, int) and n >= 0
    assert npgpu.is_available() == (n > 0)
    reason = npgpu.unavailable_reason()
    assert isinstance(reason, str)
    if n == 0:
        assert reason.strip(), "no GPU, but unavailable_reason() is empty"
        assert npgpu.is_available() is False
    else:
        assert reason == ""


def test_queries_are_stable():
    assert [npgpu.device_count() for _ in range(3)] == [npgpu.device_count()] * 3
    assert npgpu.unavailable_reason() == npgpu.unavailable_reason()


def test_runtime_info():
    info = npgpu.runtime_info()
    assert info["npgpu"] == npgpu.__version__
    assert isinstance(info["cuda_runtime"], int) and info["cuda_runtime"] >= 11000
    assert isinstance(info["cuda_driver"], int)
    if HAS_GPU:
        assert info["cuda_driver"] > 0
    else:
        assert info["cuda_driver"] >= 0


@needs_no_gpu
@pytest.mark.parametrize("make", [
    pytest.param(lambda: npgpu.Device(0), id="Device"),
    pytest.param(lambda: npgpu.empty(3, device="cuda"), id="empty"),
    pytest.param(lambda: npgpu.zeros((2, 2), dtype=np.float32, device=0), id="zeros"),
    pytest.param(lambda: npgpu.full(3, 1.5, device="cuda:0"), id="full"),
    pytest.param(lambda: npgpu.asarray(np.arange(3), device="cuda"), id="asarray"),
    pytest.param(lambda: npgpu.asarray(np.arange(3), device="cpu").to_device("cuda"), id="to_device"),
    pytest.param(lambda: npgpu.Stream(), id="Stream"),
    pytest.param(lambda: npgpu.synchronize(), id="synchronize"),
    pytest.param(lambda: npgpu.memory_info(), id="memory_info"),
    pytest.param(lambda: npgpu.get_device_id(), id="get_device_id"),
    pytest.param(lambda: npgpu.trim_memory_pool(), id="trim_memory_pool"),
])
def test_gpu_calls_without_gpu_raise_unavailable(make):
    with pytest.raises(npgpu.GPUUnavailableError) as ei:
        make()
    assert isinstance(ei.value, RuntimeError)
    msg = str(ei.value)
    assert "GPU" in msg
    assert npgpu.unavailable_reason() in msg


@needs_no_gpu
def test_arrays_default_to_the_host_without_gpu():
    # Code written against arrays runs unchanged on a machine without a GPU: on the host device.
    x = npgpu.asarray(np.arange(3.0))
    assert x.device == npgpu.cpu and str(x.device) == "cpu"
    assert npgpu.zeros(2).device == npgpu.cpu and npgpu.full(2, 1).device == "cpu"
    assert np.array_equal(np.asarray(x + 1), np.arange(3.0) + 1)


@needs_no_gpu
@pytest.mark.parametrize("make", [pytest.param(lambda: npgpu.Event(), id="Event"),
                                  pytest.param(lambda: npgpu.empty_pinned(4), id="empty_pinned")])
def test_event_and_pinned_without_gpu_raise_unavailable(make):
    with pytest.raises(npgpu.GPUUnavailableError):
        make()


@needs_no_gpu
def test_event_and_pinned_without_gpu_raise_runtime_error():
    # GPUUnavailableError is a RuntimeError: a clean exception, not a crash.
    for make in (npgpu.Event, lambda: npgpu.empty_pinned(4)):
        with pytest.raises(RuntimeError):
            make()


@needs_no_gpu
def test_default_backend_without_gpu_is_cpu(monkeypatch):
    monkeypatch.delenv("NPGPU_BACKEND", raising=False)
    assert npgpu.get_backend() == "cpu"


def test_current_stream_without_cuda_call():
    # The per-thread default stream (CAI/DLPack encoding 2) until a Stream context says otherwise.
    s = npgpu.get_current_stream()
    assert isinstance(s, npgpu.Stream)
    assert s.ptr == 2
    assert s.__cuda_stream__() == (0, 2)
    assert npgpu.Stream.null().ptr == 0 and npgpu.Stream.null().__cuda_stream__() == (0, 1)
    assert npgpu.Stream.per_thread() == s


# ------------------------------------------------------------------------------------------- backends

def test_use_backend_context_sets_and_restores(monkeypatch):
    # The environment variable is read at each get_backend(): it makes the restored state observable.
    monkeypatch.setenv("NPGPU_BACKEND", "cuda")
    assert npgpu.get_backend() == "cuda"
    with npgpu.use_backend("cpu") as ctx:
        assert isinstance(ctx, npgpu.use_backend)
        assert npgpu.get_backend() == "cpu"
        with npgpu.use_backend("CPU"):
            assert npgpu.get_backend() == "cpu"
        assert npgpu.get_backend() == "cpu"
    assert npgpu.get_backend() == "cuda"


def test_backend_environment_changes_seen_at_each_call(monkeypatch):
    # Read from the C environment, which os.environ's assignments and deletions update.
    monkeypatch.setenv("NPGPU_BACKEND", " CPU ")
    assert npgpu.get_backend() == "cpu"
    monkeypatch.setenv("NPGPU_BACKEND", "bogus")
    with pytest.raises(ValueError, match="NPGPU_BACKEND"):
        npgpu.get_backend()
    monkeypatch.setenv("NPGPU_BACKEND", "cuda")
    assert npgpu.get_backend() == "cuda"
    default = "cuda" if npgpu.device_count() else "cpu"
    for unset in ("auto", ""):
        monkeypatch.setenv("NPGPU_BACKEND", unset)
        assert npgpu.get_backend() == default
    monkeypatch.delenv("NPGPU_BACKEND")
    assert npgpu.get_backend() == default


def test_use_backend_restores_after_exception(monkeypatch):
    monkeypatch.setenv("NPGPU_BACKEND", "cuda")
    with pytest.raises(KeyError):
        with npgpu.use_backend("cpu"):
            raise KeyError("boom")
    assert npgpu.get_backend() == "cuda"


def test_use_backend_plain_call_until_reset(monkeypatch):
    monkeypatch.setenv("NPGPU_BACKEND", "cuda")
    b = npgpu.use_backend("cpu")
    try:
        assert npgpu.get_backend() == "cpu"
    finally:
        b.__exit__(None, None, None)
    assert npgpu.get_backend() == "cuda"


def test_use_backend_is_thread_local(monkeypatch):
    monkeypatch.setenv("NPGPU_BACKEND", "cuda")
    seen = []
    with npgpu.use_backend("cpu"):
        t = threading.Thread(target=lambda: seen.append(npgpu.get_backend()))
        t.start()
        t.join()
        assert npgpu.get_backend() == "cpu"
    assert seen == ["cuda"]


def test_use_backend_bogus_raises_value_error():
    before = npgpu.get_backend()
    with pytest.raises(ValueError, match="bogus"):
        npgpu.use_backend("bogus")
    assert npgpu.get_backend() == before


@needs_no_gpu
def test_use_backend_cuda_without_gpu_raises(monkeypatch):
    monkeypatch.delenv("NPGPU_BACKEND", raising=False)
    with pytest.raises(npgpu.GPUUnavailableError, match="GPU"):
        npgpu.use_backend("cuda")
    assert npgpu.get_backend() == "cpu"  # state untouched by the failed call
    assert np.array_equal(npgpu.add(np.arange(3), 1), [1, 2, 3])


@needs_no_gpu
def test_env_cuda_without_gpu_fails_cleanly_on_numpy_inputs(monkeypatch):
    # Asking for the GPU explicitly must not fall back to the CPU silently.
    monkeypatch.setenv("NPGPU_BACKEND", "cuda")
    assert npgpu.get_backend() == "cuda"
    with pytest.raises(npgpu.GPUUnavailableError):
        npgpu.add(np.ones(3), np.ones(3))
    with npgpu.use_backend("cpu"):  # the explicit choice beats the environment
        assert np.array_equal(npgpu.add(np.ones(3), np.ones(3)), [2.0, 2.0, 2.0])


def test_env_backend_affects_launch_indices_path(monkeypatch):
    monkeypatch.setenv("NPGPU_BACKEND", "cpu")
    assert npgpu.get_backend() == "cpu"
    assert npgpu.launch_indices(1, 2).thread_idx[:, 0].tolist() == [0, 1]


@pytest.mark.parametrize("value", ["cpu", "CPU", " cpu "])
def test_env_var_cpu_in_subprocess(value):
    p = _python("import npgpu; print(npgpu.get_backend())", NPGPU_BACKEND=value)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "cpu"


@pytest.mark.parametrize("value", ["", "auto"])
def test_env_var_auto_in_subprocess(value):
    p = _python("import npgpu; print(npgpu.get_backend())", NPGPU_BACKEND=value)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == ("cuda" if HAS_GPU else "cpu")


def test_env_var_bogus_in_subprocess():
    code = ("import npgpu\n"  # the import itself must not fail
            "try:\n"
            "    npgpu.get_backend()\n"
            "except ValueError as e:\n"
            "    print('ValueError:', e)\n")
    p = _python(code, NPGPU_BACKEND="bogus")
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("ValueError:"), p.stdout
    assert "bogus" in p.stdout and "NPGPU_BACKEND" in p.stdout


# ------------------------------------------------------------------------------------------ exceptions

def test_exception_hierarchy():
    assert issubclass(npgpu.CUDAError, RuntimeError)
    assert issubclass(npgpu.GPUUnavailableError, RuntimeError)
    assert issubclass(npgpu.OutOfMemoryError, MemoryError)
    assert not issubclass(npgpu.OutOfMemoryError, npgpu.CUDAError)


def test_cuda_error_attributes_and_pickle():
    e = npgpu.CUDAError("cudaErrorIllegalAddress (700): an illegal memory access", 700,
                        "cudaErrorIllegalAddress", "cudaStreamSynchronize(s)", True)
    assert (e.code, e.name, e.call, e.sticky) == (700, "cudaErrorIllegalAddress", "cudaStreamSynchronize(s)", True)
    for proto in range(2, pickle.HIGHEST_PROTOCOL + 1):
        r = pickle.loads(pickle.dumps(e, protocol=proto))
        assert type(r) is npgpu.CUDAError
        assert (r.code, r.name, r.call, r.sticky) == (e.code, e.name, e.call, e.sticky)
        assert str(r) == str(e)
    d = npgpu.CUDAError("plain")
    r = pickle.loads(pickle.dumps(d))
    assert (r.code, r.name, r.call, r.sticky) == (0, "", "", False) and str(r) == "plain"


def test_other_errors_pickle():
    for e in (npgpu.OutOfMemoryError("out of memory: asked 1 PiB"), npgpu.GPUUnavailableError("no GPU")):
        r = pickle.loads(pickle.dumps(e))
        assert type(r) is type(e) and str(r) == str(e)


# ------------------------------------------------------------------------------------------- GPU only

@pytest.mark.gpu
def test_device_properties():
    d = npgpu.Device(0)
    assert d.id == 0
    assert isinstance(d.name, str) and d.name
    cc = d.compute_capability
    assert isinstance(cc, tuple) and len(cc) == 2 and all(isinstance(x, int) for x in cc) and cc >= (3, 0)
    assert d.warp_size == 32
    assert d.max_threads_per_block >= 1024
    assert d.max_grid_dim[0] == 2**31 - 1
    assert d.max_grid_dim[1] >= 65535 and d.max_grid_dim[2] >= 65535
    assert d.max_block_dim[0] >= 1024 and d.max_block_dim[2] >= 64
    assert d.l2_cache_size > 0
    assert d.multiprocessor_count > 0
    assert d.total_memory > 0
    assert d.shared_memory_per_block > 0
    assert d.shared_memory_per_block_optin >= d.shared_memory_per_block
    props = d.properties()
    assert props["name"] == d.name and props["max_grid_dim"] == d.max_grid_dim
    free, total = d.mem_info()
    assert 0 < free <= total
    assert d == npgpu.Device(0) and hash(d) == hash(npgpu.Device(0))
    assert "0" in repr(d)


@pytest.mark.gpu
def test_device_out_of_range_raises_value_error():
    with pytest.raises(ValueError, match="out of range"):
        npgpu.Device(npgpu.device_count())
    with pytest.raises(ValueError):
        npgpu.Device(-1)
    with pytest.raises(ValueError, match="unknown device"):
        npgpu.empty(3, device="gpu0")
    with pytest.raises(ValueError):
        npgpu.empty(3, device=f"cuda:{npgpu.device_count()}")


@pytest.mark.gpu
def test_device_context_manager():
    before = npgpu.get_device_id()
    last = npgpu.device_count() - 1
    with npgpu.Device(last) as d:
        assert isinstance(d, npgpu.Device)
        assert npgpu.get_device_id() == last
        a = npgpu.empty(4)
        assert a.device_id == last
        with npgpu.Device(0):
            assert npgpu.get_device_id() == 0
        assert npgpu.get_device_id() == last
    assert npgpu.get_device_id() == before
    npgpu.Device(0).synchronize()
    npgpu.synchronize()
    npgpu.synchronize(0)
    npgpu.synchronize(npgpu.Device(0))


@pytest.mark.gpu
def test_stream_and_events(rng):
    s = npgpu.Stream()
    assert s.ptr not in (0, 2)
    start = npgpu.Event()
    start.record(s)
    a = npgpu.asarray(rng.random(1 << 20), stream=s)
    b = npgpu.add(a, a, stream=s)
    end = s.record()
    assert isinstance(end, npgpu.Event)
    end.synchronize()
    assert end.query() is True or end.query() == 1
    ms = start.elapsed_time(end)
    assert isinstance(ms, float) and ms >= 0.0
    s.synchronize()
    assert s.query()
    assert np.array_equal(b.get(stream=s), 2 * a.get(stream=s))
    # A stream waiting on another's event and on another stream.
    t = npgpu.Stream()
    t.wait_event(end)
    t.wait_stream(s)
    c = npgpu.add(b, a, stream=t)
    t.synchronize()
    assert np.array_equal(c.get(stream=t), 3 * a.get())
    assert s == s and s != t and hash(s) == hash(s)
    del a, b, c  # before their streams (see test_memory.py::test_array_outliving_its_stream_is_freed)


@pytest.mark.gpu
def test_stream_context_sets_current_stream_and_restores():
    before = npgpu.get_current_stream().ptr
    s1, s2 = npgpu.Stream(), npgpu.Stream()
    with s1 as entered:
        assert entered is s1
        assert npgpu.get_current_stream().ptr == s1.ptr
        with s2:
            assert npgpu.get_current_stream().ptr == s2.ptr
            x = npgpu.full(8, 2.0)
            assert x.__cuda_array_interface__["stream"] == s2.ptr
            del x  # before its stream
        assert npgpu.get_current_stream().ptr == s1.ptr
    assert npgpu.get_current_stream().ptr == before
    with pytest.raises(ZeroDivisionError):
        with s1:
            _ = 1 / 0
    assert npgpu.get_current_stream().ptr == before
    npgpu.synchronize()


@pytest.mark.gpu
def test_stream_context_is_thread_local():
    s = npgpu.Stream()
    seen = []
    with s:
        t = threading.Thread(target=lambda: seen.append(npgpu.get_current_stream().ptr))
        t.start()
        t.join()
        assert npgpu.get_current_stream().ptr == s.ptr
    assert seen == [2]


@pytest.mark.gpu
def test_synchronize_waits_for_work(rng):
    x = rng.random(1 << 22)
    a = npgpu.asarray(x)
    b = a
    for _ in range(10):
        b = b + a
    npgpu.synchronize()
    assert np.allclose(b.get(), 11 * x)


@pytest.mark.gpu
def test_default_backend_with_gpu_is_cuda(monkeypatch):
    monkeypatch.delenv("NPGPU_BACKEND", raising=False)
    assert npgpu.get_backend() == "cuda"
    with npgpu.use_backend("cuda"):
        assert npgpu.get_backend() == "cuda"
