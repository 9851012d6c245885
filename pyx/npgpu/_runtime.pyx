# cython: language_level=3
"""Devices, streams, events, the current stream and backend, and memory statistics."""
import os
import threading

from libc.stdint cimport int64_t, uintptr_t
from libcpp.string cimport string
from npgpu.lib cimport runtime as rt
from npgpu.lib.runtime cimport StreamHandle, EventHandle, DeviceProperties
from npgpu.lib.memory cimport MemoryInfo, memory_info as c_memory_info, trim_pool, StagingConfig, \
    staging_config as c_staging_config, set_staging_config as c_set_staging_config


cdef extern from "thread_state.hpp" namespace "npgpu_pyx" nogil:
    cdef cppclass ThreadState:
        void* stream
        int backend
    ThreadState& thread_state()


_local = threading.local()


# ---------------------------------------------------------------------------------------------- devices

def is_available():
    """True when at least one CUDA GPU is usable. Never raises; makes no CUDA call until first asked."""
    return device_count() > 0


def device_count():
    """Number of usable CUDA devices (0 without a driver or a GPU)."""
    return device_count_c()


cdef int device_count_c() noexcept:
    with nogil:
        return rt.device_count()


def unavailable_reason():
    """Why no GPU is usable ("" when one is)."""
    return rt.unavailable_reason().decode()


def get_device_id():
    """This thread's current CUDA device ordinal."""
    return rt.current_device()


cdef int resolve_device(object device) except -2:
    """Device ordinal from None (current), an int, or a Device."""
    if device is None:
        return rt.current_device()
    if isinstance(device, Device):
        return (<Device>device).id
    if isinstance(device, int):
        rt.require_device(device)
        return device
    raise TypeError(f"device must be None, an int or an npgpu.Device, not {type(device).__name__}")


cdef class Device:
    """A CUDA device. ``with npgpu.Device(i):`` makes it current for this thread for the block.

    Properties are read once per process: ``name``, ``compute_capability``, ``multiprocessor_count``,
    ``total_memory``, ``warp_size``, ``max_threads_per_block``, ``max_block_dim``, ``max_grid_dim``,
    ``l2_cache_size``, ``shared_memory_per_block`` and ``shared_memory_per_block_optin``.
    """
    cdef readonly int id
    cdef list _previous

    def __init__(self, int device=0):
        rt.require_device(device)
        self.id = device
        self._previous = []

    cdef const DeviceProperties* _props(self) except NULL:
        return &rt.device_properties(self.id)

    @property
    def name(self): return self._props().name.decode()
    @property
    def compute_capability(self): return (self._props().cc_major, self._props().cc_minor)
    @property
    def multiprocessor_count(self): return self._props().multiprocessor_count
    @property
    def total_memory(self): return self._props().total_memory
    @property
    def warp_size(self): return self._props().warp_size
    @property
    def max_threads_per_block(self): return self._props().max_threads_per_block
    @property
    def max_block_dim(self):
        p = self._props()
        return (p.max_block_dim[0], p.max_block_dim[1], p.max_block_dim[2])
    @property
    def max_grid_dim(self):
        p = self._props()
        return (p.max_grid_dim[0], p.max_grid_dim[1], p.max_grid_dim[2])
    @property
    def l2_cache_size(self): return self._props().l2_cache_size
    @property
    def shared_memory_per_block(self): return self._props().shared_memory_per_block
    @property
    def shared_memory_per_block_optin(self): return self._props().shared_memory_per_block_optin
    @property
    def max_threads_per_multiprocessor(self): return self._props().max_threads_per_multiprocessor
    @property
    def pci_bus_id(self): return self._props().pci_bus_id

    def properties(self):
        """All properties as a dict."""
        names = ("name", "compute_capability", "multiprocessor_count", "total_memory", "warp_size",
                 "max_threads_per_block", "max_block_dim", "max_grid_dim", "l2_cache_size",
                 "shared_memory_per_block", "shared_memory_per_block_optin", "max_threads_per_multiprocessor",
                 "pci_bus_id")
        return {n: getattr(self, n) for n in names}

    def mem_info(self):
        """(free, total) bytes of device memory."""
        cdef int64_t f = 0, t = 0
        rt.mem_get_info(self.id, &f, &t)
        return (f, t)

    def synchronize(self):
        """Wait for all work on this device."""
        with nogil:
            rt.synchronize_device(self.id)

    def use(self):
        """Make this device current for the calling thread."""
        rt.select_device(self.id)

    def __enter__(self):
        self._previous.append(rt.current_device())
        rt.select_device(self.id)
        return self

    def __exit__(self, *exc):
        rt.select_device(self._previous.pop())
        return False

    def __eq__(self, other):
        return isinstance(other, Device) and (<Device>other).id == self.id

    def __hash__(self):
        return hash(("npgpu.Device", self.id))

    def __repr__(self):
        return f"<npgpu.Device {self.id}>"

    def __str__(self):
        return f"cuda:{self.id}"

    def __reduce__(self):
        return (Device, (self.id,))


class HostDevice:
    """The host (CPU) device: npgpu.Arrays created with ``device="cpu"`` live in host memory and run on npgpu's
    host backend, with the semantics, dtype rules and errors of the GPU. ``npgpu.cpu`` is its one instance;
    it compares equal to the string "cpu"."""
    __slots__ = ()
    id = -1

    def __eq__(self, other):
        return isinstance(other, HostDevice) or (isinstance(other, str) and other.lower() == "cpu")

    def __hash__(self):
        return hash("cpu")

    def __repr__(self):
        return "<npgpu.Device cpu>"

    def __str__(self):
        return "cpu"

    def __reduce__(self):
        return (HostDevice, ())


cpu = HostDevice()


cdef int default_array_device() except -2:
    """Where new arrays go when no device is named: the host when the thread's backend (use_backend, else
    NPGPU_BACKEND, else whether a GPU is present) is 'cpu', else the current GPU."""
    cdef int b = thread_state().backend
    if b == 0:
        return -1
    if b == 1:
        return rt.current_device()
    env = _env_backend()
    if env == "cpu" or (env is None and device_count_c() == 0):
        return -1
    return rt.current_device()


cdef int resolve_array_device(object device) except -2:
    """Device ordinal (-1 for the host) of an array's `device` argument: None (the default device), "cpu",
    "cuda", "cuda:N", an int, an npgpu.Device or npgpu.cpu."""
    if device is None:
        return default_array_device()
    if isinstance(device, HostDevice):
        return -1
    if isinstance(device, str):
        name = device.strip().lower()
        if name == "cpu":
            return -1
        if name == "cuda":
            return rt.current_device()
        if name.startswith("cuda:") and name[5:].isdigit():
            n = int(name[5:])
            rt.require_device(n)
            return n
        raise ValueError(f"unknown device {device!r}: use 'cpu', 'cuda', 'cuda:N', an int or an npgpu.Device")
    return resolve_device(device)


def synchronize(device=None):
    """Wait for all work on the current device (or the given one)."""
    cdef int d = resolve_device(device)
    with nogil:
        rt.synchronize_device(d)


# ---------------------------------------------------------------------------------------------- streams

cdef StreamHandle current_stream_handle() noexcept nogil:
    return thread_state().stream


cdef StreamHandle stream_from_int(uintptr_t value):
    # The CUDA Array Interface / DLPack encoding: 1 is the legacy default stream, 2 the per-thread one.
    if value == 1:
        return <StreamHandle>0
    return <StreamHandle>value


cdef StreamHandle resolve_stream(object stream) except? NULL:
    if stream is None:
        return thread_state().stream
    if isinstance(stream, Stream):
        return (<Stream>stream).handle
    if isinstance(stream, int):
        if stream < 0:
            raise ValueError(f"invalid stream handle {stream}")
        return stream_from_int(stream)
    if hasattr(stream, "__cuda_stream__"):
        return stream_from_int(stream.__cuda_stream__()[1])
    if hasattr(stream, "ptr"):  # CuPy / Numba stream objects
        return stream_from_int(stream.ptr)
    raise TypeError(f"stream must be None, an npgpu.Stream or a stream handle, not {type(stream).__name__}")


cdef object stream_to_cai(StreamHandle s):
    """The CUDA Array Interface's integer for a stream."""
    cdef uintptr_t v = <uintptr_t>s
    if v == 0:
        return 1
    return int(v)


cdef class Stream:
    """A CUDA stream. ``with stream:`` makes it the current stream of this thread, used by every operation
    that is given no ``stream=``. ``Stream.null()`` is the legacy default stream, ``Stream.per_thread()``
    this thread's default stream (npgpu's default)."""

    def __init__(self, device=None, bint non_blocking=True, int priority=0):
        cdef int d = resolve_device(device)
        self.device = d
        self.handle = rt.stream_create(d, non_blocking, priority)
        self.owned = True

    @staticmethod
    def _wrap(uintptr_t handle, int device=-1):
        cdef Stream s = Stream.__new__(Stream)
        s.handle = <StreamHandle>handle
        s.device = device
        s.owned = False
        return s

    @staticmethod
    def null():
        """The legacy default stream (synchronises with all blocking streams)."""
        return Stream._wrap(0)

    @staticmethod
    def per_thread():
        """The calling thread's default stream: npgpu's default."""
        return Stream._wrap(2)

    def __dealloc__(self):
        if self.owned and self.handle != NULL:
            rt.stream_destroy(self.handle)

    @property
    def ptr(self):
        """The cudaStream_t as an integer."""
        return <uintptr_t>self.handle

    def __cuda_stream__(self):
        return (0, stream_to_cai(self.handle))

    def synchronize(self):
        """Wait until all work queued on this stream has finished."""
        with nogil:
            rt.stream_synchronize(self.handle)

    def query(self):
        """True when all work queued on this stream has finished."""
        return rt.stream_query(self.handle)

    def wait_event(self, Event event):
        """Make later work on this stream wait for `event`."""
        rt.stream_wait_event(self.handle, event.handle)

    def wait_stream(self, Stream other):
        """Make later work on this stream wait for the work queued on `other` so far."""
        rt.stream_wait_stream(self.handle, other.handle)

    def record(self, Event event=None):
        """Record an event (a new one unless given) on this stream and return it."""
        if event is None:
            event = Event()
        event.record(self)
        return event

    def __enter__(self):
        stack = getattr(_local, "streams", None)
        if stack is None:
            stack = _local.streams = []
        stack.append(<uintptr_t>thread_state().stream)
        stack.append(self)  # keeps the stream alive while current
        thread_state().stream = self.handle
        return self

    def __exit__(self, *exc):
        stack = _local.streams
        stack.pop()
        thread_state().stream = <StreamHandle><uintptr_t>stack.pop()
        return False

    def __eq__(self, other):
        return isinstance(other, Stream) and (<Stream>other).handle == self.handle

    def __hash__(self):
        return hash(("npgpu.Stream", <uintptr_t>self.handle))

    def __repr__(self):
        return f"<npgpu.Stream 0x{<uintptr_t>self.handle:x}>"




def get_current_stream():
    """The stream operations of this thread use when given no ``stream=``."""
    return Stream._wrap(<uintptr_t>thread_state().stream)


cdef class Event:
    """A CUDA event: ``record(stream)``, ``synchronize()``, ``query()``, and ``elapsed_time(end)`` in ms."""

    def __init__(self, bint timing=True, bint blocking=False):
        self.timing = timing
        self.handle = rt.event_create(timing, blocking)

    def __dealloc__(self):
        if self.handle != NULL:
            rt.event_destroy(self.handle)

    def record(self, stream=None):
        rt.event_record(self.handle, resolve_stream(stream))
        return self

    def synchronize(self):
        with nogil:
            rt.event_synchronize(self.handle)

    def query(self):
        return rt.event_query(self.handle)

    def elapsed_time(self, Event end):
        """Milliseconds between this event and `end` (both recorded, both with timing)."""
        return rt.event_elapsed_ms(self.handle, end.handle)


# ---------------------------------------------------------------------------------------------- backend

_BACKENDS = ("cpu", "cuda")


def _env_backend():
    v = os.environ.get("NPGPU_BACKEND", "").strip().lower()
    if v in ("", "auto"):
        return None
    if v not in _BACKENDS:
        raise ValueError(f"NPGPU_BACKEND must be 'cpu', 'cuda' or 'auto', not {v!r}")
    return v


def get_backend():
    """The backend NumPy-input calls of this thread run on: 'cuda' or 'cpu'.

    Chosen by ``use_backend`` (innermost wins), else the ``NPGPU_BACKEND`` environment variable, else
    'cuda' when a GPU is available and 'cpu' otherwise. Calls on device arrays always run on their device.
    """
    cdef int b = thread_state().backend
    if b >= 0:
        return _BACKENDS[b]
    env = _env_backend()
    if env is not None:
        return env
    return "cuda" if device_count_c() > 0 else "cpu"


cdef bint use_cuda_for_host_data() except -1:
    cdef int b = thread_state().backend
    if b == 0:
        return False
    if b == 1 or get_backend() == "cuda":
        rt.require_device(0)  # raises GPUUnavailableError naming the reason
        return True
    return False


class use_backend:
    """Context manager (or plain call, until reset) choosing the backend of NumPy-input calls in this thread:
    ``with npgpu.use_backend("cpu"): ...``."""

    def __init__(self, name):
        name = str(name).lower()
        if name not in _BACKENDS:
            raise ValueError(f"backend must be 'cpu' or 'cuda', not {name!r}")
        if name == "cuda":
            rt.require_device(0)
        self._previous = thread_state().backend
        thread_state().backend = _BACKENDS.index(name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        thread_state().backend = self._previous
        return False


# ---------------------------------------------------------------------------------------------- memory

def memory_info(device=None):
    """Memory statistics of a device: pool_used (bytes in live npgpu arrays), cached_bytes (small freed
    blocks kept for reuse), pool_reserved (bytes the stream-ordered pool holds from the driver),
    pinned_bytes (pinned host memory npgpu holds, cached blocks included), device_free and device_total."""
    cdef int d = resolve_device(device)
    cdef MemoryInfo m = c_memory_info(d)
    return {"pool_used": m.pool_used, "cached_bytes": m.cached_bytes, "pool_reserved": m.pool_reserved, "pinned_bytes": m.pinned_bytes,
            "device_free": m.device_free, "device_total": m.device_total}


def trim_memory_pool(int64_t keep_bytes=0, device=None):
    """Give cached pool memory back to the driver, keeping at most `keep_bytes` reserved."""
    cdef int d = resolve_device(device)
    with nogil:
        trim_pool(d, keep_bytes)


def staging_config():
    """(slot_bytes, slots) of the pinned staging ring used for NumPy-input calls on the GPU."""
    cdef StagingConfig c = c_staging_config()
    return (c.slot_bytes, c.slots)


def set_staging_config(int64_t slot_bytes, int slots):
    """Resize the pinned staging ring (takes effect at the next staged call)."""
    cdef StagingConfig c
    c.slot_bytes = slot_bytes
    c.slots = slots
    c_set_staging_config(c)


def runtime_info():
    """Versions: npgpu, the CUDA runtime linked into libnpgpu, and the driver (0 when none)."""
    return {"npgpu": rt.version().decode(), "cuda_runtime": rt.runtime_version(), "cuda_driver": rt.driver_version()}


def profiler_push(str name):
    """Open an NVTX range (shown by Nsight Systems); close it with profiler_pop()."""
    rt.profiler_range_push(name.encode())


def profiler_pop():
    rt.profiler_range_pop()
