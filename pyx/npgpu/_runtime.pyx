# cython: language_level=3
"""Devices, streams, events, the current stream and backend, and memory statistics."""
import os
import threading

from libc.stdint cimport int64_t, uintptr_t
from libc.stdlib cimport getenv
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
    """Whether at least one CUDA GPU is usable.

    Never raises: without a driver or a GPU the answer is False, and `unavailable_reason` says why. No CUDA
    call is made until the first question (the devices are counted once per process, then).

    Returns
    -------
    bool
        ``device_count() > 0``.

    See Also
    --------
    device_count : How many GPUs are usable.
    unavailable_reason : Why none is.
    get_backend : Where NumPy-input calls run.

    Examples
    --------
    >>> npgpu.is_available() == (npgpu.device_count() > 0)
    True
    """
    return device_count() > 0


def device_count():
    """The number of usable CUDA devices.

    Never raises: 0 without a driver or a GPU (or when CUDA could not be initialised). The devices are
    counted once per process, at the first call.

    Returns
    -------
    int
        The number of CUDA devices; valid ordinals are ``0 .. device_count() - 1``.

    See Also
    --------
    is_available, unavailable_reason

    Examples
    --------
    >>> npgpu.device_count() >= 0
    True
    """
    return device_count_c()


cdef int device_count_c() noexcept:
    with nogil:
        return rt.device_count()


def unavailable_reason():
    """Why no GPU is usable.

    Returns
    -------
    str
        "" when a GPU is usable; otherwise the reason, such as "no CUDA-capable GPU was found
        (cudaErrorNoDevice)" or "no usable NVIDIA driver was found (cudaErrorInsufficientDriver): install or
        update the driver".

    See Also
    --------
    is_available

    Examples
    --------
    >>> (npgpu.unavailable_reason() == "") == npgpu.is_available()
    True
    """
    return rt.unavailable_reason().decode()


def get_device_id():
    """This thread's current CUDA device ordinal.

    The device that ``npgpu.Device(i).use()`` or ``with npgpu.Device(i):`` made current for the calling
    thread; until one does, the device the thread had current before npgpu first used one.

    Returns
    -------
    int
        The ordinal, in ``0 .. device_count() - 1``.

    Raises
    ------
    GPUUnavailableError
        No GPU is usable (a RuntimeError; the message gives the reason).

    See Also
    --------
    Device : Select a device.
    """
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
    """A CUDA device.

    ``with npgpu.Device(i):`` makes device `i` current for the calling thread for the block (and restores the
    previous one after it); ``Device(i).use()`` makes it current until changed. The thread's new streams,
    SourceModules and, on the 'cuda' backend, new arrays go to its current device.

    Properties are read from the driver once per process: ``name``, ``compute_capability``,
    ``multiprocessor_count``, ``total_memory``, ``warp_size``, ``max_threads_per_block``, ``max_block_dim``,
    ``max_grid_dim``, ``l2_cache_size``, ``shared_memory_per_block``, ``shared_memory_per_block_optin``,
    ``max_threads_per_multiprocessor`` and ``pci_bus_id`` (all of them as a dict: ``properties()``).

    Parameters
    ----------
    device : int, optional
        The device ordinal (default 0).

    Attributes
    ----------
    id : int
        The device ordinal (read-only).

    Raises
    ------
    GPUUnavailableError
        No GPU is usable (a RuntimeError).
    ValueError
        `device` is not an ordinal of this machine (outside ``0 .. device_count() - 1``).
    TypeError
        `device` is not an int.

    See Also
    --------
    get_device_id : The calling thread's current device.
    cpu : The host device.

    Notes
    -----
    Devices compare equal when their ordinals are, hash and pickle by ordinal; ``str(d)`` is ``"cuda:N"``, a
    form the `device=` argument of array functions (``npgpu.asarray``, ``npgpu.zeros``, ...) accepts.

    Examples
    --------
    >>> with npgpu.Device(0):  # doctest: +SKIP
    ...     x = npgpu.zeros(3)  # on GPU 0
    >>> npgpu.Device(0).compute_capability  # doctest: +SKIP
    (9, 0)
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
    def name(self):
        """The device's name, as the driver reports it (e.g. "NVIDIA H100 80GB HBM3")."""
        return self._props().name.decode()
    @property
    def compute_capability(self):
        """The compute capability as a (major, minor) tuple of ints, e.g. (9, 0)."""
        return (self._props().cc_major, self._props().cc_minor)
    @property
    def multiprocessor_count(self):
        """The number of streaming multiprocessors (SMs)."""
        return self._props().multiprocessor_count
    @property
    def total_memory(self):
        """The device memory, in bytes."""
        return self._props().total_memory
    @property
    def warp_size(self):
        """The number of threads in a warp."""
        return self._props().warp_size
    @property
    def max_threads_per_block(self):
        """The most threads a block may have (the product of its three dimensions)."""
        return self._props().max_threads_per_block
    @property
    def max_block_dim(self):
        """The most threads a block may have along x, y and z, as a tuple of three ints."""
        p = self._props()
        return (p.max_block_dim[0], p.max_block_dim[1], p.max_block_dim[2])
    @property
    def max_grid_dim(self):
        """The most blocks a grid may have along x, y and z, as a tuple of three ints."""
        p = self._props()
        return (p.max_grid_dim[0], p.max_grid_dim[1], p.max_grid_dim[2])
    @property
    def l2_cache_size(self):
        """The size of the L2 cache, in bytes."""
        return self._props().l2_cache_size
    @property
    def shared_memory_per_block(self):
        """The shared memory a block may use without opting in, in bytes."""
        return self._props().shared_memory_per_block
    @property
    def shared_memory_per_block_optin(self):
        """The shared memory a block may use when its kernel opts in, in bytes."""
        return self._props().shared_memory_per_block_optin
    @property
    def max_threads_per_multiprocessor(self):
        """The most threads resident on one multiprocessor at a time."""
        return self._props().max_threads_per_multiprocessor
    @property
    def pci_bus_id(self):
        """The PCI bus number of the device (an int)."""
        return self._props().pci_bus_id

    def properties(self):
        """All the device's properties as a dict.

        Returns
        -------
        dict
            The properties by name: name, compute_capability, multiprocessor_count, total_memory, warp_size,
            max_threads_per_block, max_block_dim, max_grid_dim, l2_cache_size, shared_memory_per_block,
            shared_memory_per_block_optin, max_threads_per_multiprocessor and pci_bus_id.
        """
        names = ("name", "compute_capability", "multiprocessor_count", "total_memory", "warp_size",
                 "max_threads_per_block", "max_block_dim", "max_grid_dim", "l2_cache_size",
                 "shared_memory_per_block", "shared_memory_per_block_optin", "max_threads_per_multiprocessor",
                 "pci_bus_id")
        return {n: getattr(self, n) for n in names}

    def mem_info(self):
        """The free and total device memory, as the driver reports them.

        Returns
        -------
        tuple of int
            ``(free, total)``, in bytes.

        See Also
        --------
        memory_info : npgpu's own memory statistics.
        """
        cdef int64_t f = 0, t = 0
        rt.mem_get_info(self.id, &f, &t)
        return (f, t)

    def synchronize(self):
        """Wait until all work queued on this device, on every stream, has finished.

        The GIL is released while waiting.
        """
        with nogil:
            rt.synchronize_device(self.id)

    def use(self):
        """Make this device current for the calling thread, until changed.

        Unlike ``with device:``, the previous device is not restored.
        """
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
    """The host (CPU) device.

    npgpu.Arrays created with ``device="cpu"`` live in host memory and run on npgpu's host backend, with the
    semantics, dtype rules and errors of the GPU. ``npgpu.cpu`` is its one instance (``x.device`` of a host
    array); it compares equal to the string "cpu" (in any case) and to every HostDevice, and its ``id`` is -1.

    See Also
    --------
    Device : A GPU.
    use_backend : Where NumPy-input calls run.

    Examples
    --------
    >>> npgpu.cpu
    <npgpu.Device cpu>
    >>> npgpu.cpu == "cpu", str(npgpu.cpu), npgpu.cpu.id
    (True, 'cpu', -1)
    >>> npgpu.asarray([1.0, 2.0], device="cpu").device
    <npgpu.Device cpu>
    """
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
    """Wait until all work queued on a device, on every stream, has finished.

    The GIL is released while waiting.

    Parameters
    ----------
    device : int or Device, optional
        The device; default: the calling thread's current device.

    Raises
    ------
    GPUUnavailableError
        No GPU is usable (a RuntimeError).
    ValueError
        `device` is not an ordinal of this machine.
    TypeError
        `device` is not None, an int or an npgpu.Device.

    See Also
    --------
    Stream.synchronize : Wait for one stream.
    """
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
    """A CUDA stream.

    ``with stream:`` makes it the current stream of this thread, used by every operation that is given no
    ``stream=``, until the block ends (blocks nest; the stream is kept alive while current).
    ``Stream.null()`` is the legacy default stream, ``Stream.per_thread()`` this thread's default stream
    (npgpu's default).

    Parameters
    ----------
    device : int or Device, optional
        The device the new stream belongs to; default: the calling thread's current device.
    non_blocking : bool, optional
        True (default): the stream does not synchronise with the legacy default stream
        (``cudaStreamNonBlocking``).
    priority : int, optional
        The CUDA stream priority (default 0; lower numbers are higher priorities).

    Attributes
    ----------
    device : int
        The ordinal of the device the stream was created on (read-only); -1 for the streams npgpu wraps
        without creating them (``null()``, ``per_thread()``, ``get_current_stream()``).
    ptr : int
        The ``cudaStream_t`` as an integer.

    Raises
    ------
    GPUUnavailableError
        No GPU is usable (a RuntimeError).
    ValueError
        `device` is not an ordinal of this machine.
    TypeError
        `device` is not None, an int or an npgpu.Device.

    See Also
    --------
    get_current_stream : The stream of this thread's calls.
    Event : Mark a point of a stream's work.

    Notes
    -----
    A stream npgpu created is destroyed when the Stream object is deleted and no array allocated on it holds
    memory any more (each such array keeps it alive). Streams compare equal when their handles are.
    Work on one stream is not ordered after the work on other streams that produced its inputs (as in
    CuPy): order it with ``wait_stream`` or an Event. The threads' default streams are the exception: while
    two or more threads use a GPU, each call on a thread's default stream first waits for the work other
    threads have queued, so arrays can be passed between threads (thread pools, dask's threaded scheduler).
    A stream of one's own is ordered after such arrays by ``s.wait_stream(npgpu.Stream.per_thread())``.
    ``__cuda_stream__()`` (the CUDA stream protocol) returns ``(0, handle)``, with 1 for the legacy default
    stream; the `stream=` arguments of npgpu take a Stream, such an object, a CuPy or Numba stream (its
    ``ptr``) or an integer handle.

    Examples
    --------
    The default streams need no GPU to be named:

    >>> npgpu.Stream.null(), npgpu.Stream.per_thread()
    (<npgpu.Stream 0x0>, <npgpu.Stream 0x2>)

    Work queued on a stream of one's own (needs a GPU):

    >>> s = npgpu.Stream()  # doctest: +SKIP
    >>> with s:  # doctest: +SKIP
    ...     y = x * 2  # queued on s
    >>> s.synchronize()  # doctest: +SKIP
    """

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
        """The legacy default stream (handle 0), which synchronises with all blocking streams.

        Returns
        -------
        Stream
            A wrapper npgpu does not own (its ``device`` is -1); making it needs no GPU.

        Examples
        --------
        >>> npgpu.Stream.null().ptr
        0
        """
        return Stream._wrap(0)

    @staticmethod
    def per_thread():
        """The calling thread's default stream (``cudaStreamPerThread``, handle 2): npgpu's default.

        Returns
        -------
        Stream
            A wrapper npgpu does not own (its ``device`` is -1); making it needs no GPU.

        Examples
        --------
        >>> npgpu.Stream.per_thread().ptr
        2
        >>> npgpu.Stream.per_thread() == npgpu.get_current_stream()  # outside any ``with stream:``
        True
        """
        return Stream._wrap(2)

    def __dealloc__(self):
        if self.owned and self.handle != NULL:
            rt.stream_destroy(self.handle)

    @property
    def ptr(self):
        """The ``cudaStream_t`` as an integer (0 for the legacy default stream, 2 for the per-thread one)."""
        return <uintptr_t>self.handle

    def __cuda_stream__(self):
        return (0, stream_to_cai(self.handle))

    def synchronize(self):
        """Wait until all work queued on this stream has finished.

        The GIL is released while waiting. Raises CUDAError when the wait fails (a kernel's error, or no usable
        driver).
        """
        with nogil:
            rt.stream_synchronize(self.handle)

    def query(self):
        """Whether all work queued on this stream has finished, without waiting.

        Returns
        -------
        bool
            True when the stream is idle.

        Raises
        ------
        CUDAError
            The query failed (a kernel's error, or no usable driver).
        """
        return rt.stream_query(self.handle)

    def wait_event(self, Event event):
        """Make work queued on this stream from now on wait until `event` has completed.

        The calling thread does not wait.

        Parameters
        ----------
        event : Event
            An event, usually recorded on another stream.

        Raises
        ------
        TypeError
            `event` is not an npgpu.Event.
        """
        rt.stream_wait_event(self.handle, event.handle)

    def wait_stream(self, Stream other):
        """Make work queued on this stream from now on wait for the work queued on `other` so far.

        An event is recorded on `other` and waited for on this stream; the calling thread does not wait.
        Nothing is done when `other` is this stream.

        Parameters
        ----------
        other : Stream
            The stream to wait for.

        Raises
        ------
        TypeError
            `other` is not an npgpu.Stream.
        """
        rt.stream_wait_stream(self.handle, other.handle)

    def record(self, Event event=None):
        """Record an event on this stream and return it.

        Parameters
        ----------
        event : Event, optional
            The event to record; default: a new ``Event()`` (with timing).

        Returns
        -------
        Event
            `event`, or the new event.

        Raises
        ------
        TypeError
            `event` is not an npgpu.Event.
        """
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
    """The stream that operations of this thread use when given no ``stream=``.

    The per-thread default stream (``Stream.per_thread()``) unless a ``with stream:`` block is in force.

    Returns
    -------
    Stream
        A wrapper of the current stream's handle (its ``device`` is -1); needs no GPU.

    See Also
    --------
    Stream : ``with stream:`` changes the current stream.

    Examples
    --------
    >>> npgpu.get_current_stream()
    <npgpu.Stream 0x2>
    """
    return Stream._wrap(<uintptr_t>thread_state().stream)


cdef class Event:
    """A CUDA event: ``record(stream)``, ``synchronize()``, ``query()``, and ``elapsed_time(end)`` in ms.

    Parameters
    ----------
    timing : bool, optional
        True (default): the event records a timestamp, for `elapsed_time` (False: ``cudaEventDisableTiming``,
        cheaper).
    blocking : bool, optional
        True: `synchronize` blocks the thread (``cudaEventBlockingSync``) instead of spinning (default False).

    Attributes
    ----------
    timing : bool
        Whether the event records timestamps (read-only).

    Raises
    ------
    GPUUnavailableError
        No GPU is usable (a RuntimeError).

    See Also
    --------
    Stream.record, Stream.wait_event

    Examples
    --------
    Timing work on the current stream (needs a GPU):

    >>> start = npgpu.Event().record()  # doctest: +SKIP
    >>> y = x @ x  # doctest: +SKIP
    >>> end = npgpu.Event().record()  # doctest: +SKIP
    >>> end.synchronize()  # doctest: +SKIP
    >>> ms = start.elapsed_time(end)  # doctest: +SKIP
    """

    def __init__(self, bint timing=True, bint blocking=False):
        self.timing = timing
        self.handle = rt.event_create(timing, blocking)

    def __dealloc__(self):
        if self.handle != NULL:
            rt.event_destroy(self.handle)

    def record(self, stream=None):
        """Record the event on a stream: it completes when the work queued there so far has.

        Parameters
        ----------
        stream : Stream, int or stream-like, optional
            The stream; default: the calling thread's current stream. An npgpu.Stream, an integer handle (1
            and 2: the legacy and per-thread default streams), an object with ``__cuda_stream__``, or a CuPy
            or Numba stream (its ``ptr``).

        Returns
        -------
        Event
            This event.

        Raises
        ------
        ValueError
            `stream` is a negative integer.
        TypeError
            `stream` is none of the above.
        """
        rt.event_record(self.handle, resolve_stream(stream))
        return self

    def synchronize(self):
        """Wait until the work before the event's last record has finished (the GIL is released while waiting)."""
        with nogil:
            rt.event_synchronize(self.handle)

    def query(self):
        """Whether the work before the event's last record has finished, without waiting.

        Returns
        -------
        bool
            True when it has finished.
        """
        return rt.event_query(self.handle)

    def elapsed_time(self, Event end):
        """The time from this event to `end`, in milliseconds.

        Parameters
        ----------
        end : Event
            The later event. Both events must have been recorded, with ``timing=True``.

        Returns
        -------
        float
            Milliseconds between the two events.

        Raises
        ------
        CUDAError
            An event has no timing, was not recorded or has not completed.
        TypeError
            `end` is not an npgpu.Event.
        """
        return rt.event_elapsed_ms(self.handle, end.handle)


# ---------------------------------------------------------------------------------------------- backend

_BACKENDS = ("cpu", "cuda")


def _env_backend():
    # The C environment: far cheaper than os.environ on every NumPy-input call, and os.environ's assignments
    # reach it (putenv), so a change made at run time is still seen.
    cdef const char* raw = getenv("NPGPU_BACKEND")
    if raw == NULL or raw[0] == 0:
        return None
    v = (<bytes>raw).decode("utf-8", "replace").strip().lower()
    if v in ("", "auto"):
        return None
    if v not in _BACKENDS:
        raise ValueError(f"NPGPU_BACKEND must be 'cpu', 'cuda' or 'auto', not {v!r}")
    return v


def get_backend():
    """The backend NumPy-input calls of this thread run on: 'cuda' or 'cpu'.

    Chosen by ``use_backend`` (innermost wins), else the ``NPGPU_BACKEND`` environment variable ('cpu',
    'cuda', or 'auto' / unset for the default), else 'cuda' when a GPU is available and 'cpu' otherwise.
    Calls on device arrays always run on their device. The same choice places new arrays that are given no
    `device=`: on the host when it is 'cpu'.

    Returns
    -------
    str
        'cuda' or 'cpu'.

    Raises
    ------
    ValueError
        ``NPGPU_BACKEND`` holds something else than 'cpu', 'cuda' or 'auto' (and no ``use_backend`` is in
        force).

    See Also
    --------
    use_backend : Choose the backend.

    Examples
    --------
    >>> with npgpu.use_backend("cpu"):
    ...     npgpu.get_backend()
    'cpu'
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
    """Context manager (or plain call, until reset) choosing the backend of NumPy-input calls in this thread.

    ``with npgpu.use_backend("cpu"): ...`` runs the block's NumPy-input calls on npgpu's host backend (and
    puts new arrays that are given no `device=` on the host); ``"cuda"`` on the current GPU. The choice is
    made when the object is created, so a plain call ``npgpu.use_backend("cpu")`` holds for the thread until
    another use_backend changes it; leaving a ``with`` block restores the backend in force before it (blocks
    nest: the innermost wins). It overrides ``NPGPU_BACKEND`` and affects the calling thread only.

    Parameters
    ----------
    name : str
        'cpu' or 'cuda' (any case).

    Raises
    ------
    ValueError
        `name` is neither 'cpu' nor 'cuda'.
    GPUUnavailableError
        `name` is 'cuda' and no GPU is usable (a RuntimeError; the message gives the reason).

    See Also
    --------
    get_backend : The backend in force.

    Examples
    --------
    >>> with npgpu.use_backend("cpu"):
    ...     npgpu.add(np.arange(3), 1)  # NumPy in, NumPy out, on the host
    array([1, 2, 3])
    """

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
    """Memory statistics of a device.

    Parameters
    ----------
    device : int or Device, optional
        The device; default: the calling thread's current device.

    Returns
    -------
    dict
        In bytes: ``pool_used`` (bytes in live npgpu arrays), ``cached_bytes`` (small freed blocks kept for
        reuse), ``pool_reserved`` (bytes the stream-ordered pool holds from the driver), ``pinned_bytes``
        (pinned host memory npgpu holds, cached blocks included), ``pinned_cache_limit`` (at most this many
        bytes of released pinned memory are kept for reuse: ``NPGPU_PINNED_CACHE_BYTES``, default 1 GiB),
        ``device_free`` and ``device_total`` (the driver's figures for the whole device).

    Raises
    ------
    GPUUnavailableError
        No GPU is usable (a RuntimeError).
    ValueError
        `device` is not an ordinal of this machine.
    TypeError
        `device` is not None, an int or an npgpu.Device.

    See Also
    --------
    trim_memory_pool : Give reserved memory back to the driver.
    Device.mem_info : The driver's free and total memory alone.

    Examples
    --------
    >>> npgpu.memory_info()["pool_used"]  # doctest: +SKIP
    0
    """
    cdef int d = resolve_device(device)
    cdef MemoryInfo m = c_memory_info(d)
    return {"pool_used": m.pool_used, "cached_bytes": m.cached_bytes, "pool_reserved": m.pool_reserved,
            "pinned_bytes": m.pinned_bytes, "pinned_cache_limit": m.pinned_cache_limit,
            "device_free": m.device_free, "device_total": m.device_total}


def trim_memory_pool(int64_t keep_bytes=0, device=None):
    """Give cached pool memory back to the driver, keeping at most `keep_bytes` reserved.

    npgpu's cached small blocks of the device are freed first, then the device is synchronised (frees still
    queued count as used until they have run), then the stream-ordered pool is trimmed. Memory of live
    arrays is never released.

    Parameters
    ----------
    keep_bytes : int, optional
        The most reserved memory to keep (default 0; a negative value counts as 0).
    device : int or Device, optional
        The device; default: the calling thread's current device.

    Raises
    ------
    GPUUnavailableError
        No GPU is usable (a RuntimeError).
    ValueError
        `device` is not an ordinal of this machine.
    TypeError
        `device` is not None, an int or an npgpu.Device.

    See Also
    --------
    memory_info : ``pool_reserved`` and ``cached_bytes`` before and after.
    """
    cdef int d = resolve_device(device)
    with nogil:
        trim_pool(d, keep_bytes)


def staging_config():
    """The size of the pinned staging ring used for NumPy-input calls on the GPU.

    NumPy data moves between the host and the GPU through this ring of pinned buffers, in chunks, so that
    transfers and compute overlap. The setting is process-wide. Its first value is 32 MiB x 4 slots, or
    ``NPGPU_STAGING_SLOT_BYTES`` (at least 65536) and ``NPGPU_STAGING_SLOTS`` (at least 2) from the
    environment; ``set_staging_config`` changes it. Needs no GPU.

    Returns
    -------
    tuple of int
        ``(slot_bytes, slots)``: the bytes of each slot and the number of slots.

    See Also
    --------
    set_staging_config

    Examples
    --------
    >>> slot_bytes, slots = npgpu.staging_config()
    >>> slots >= 2 and slot_bytes >= 4096
    True
    """
    cdef StagingConfig c = c_staging_config()
    return (c.slot_bytes, c.slots)


def set_staging_config(int64_t slot_bytes, int slots):
    """Resize the pinned staging ring (takes effect at the next staged call).

    Process-wide; needs no GPU. A ring already built is rebuilt at its next use when its size differs.

    Parameters
    ----------
    slot_bytes : int
        Bytes of each slot (at least 4096).
    slots : int
        The number of slots (at least 2).

    Raises
    ------
    ValueError
        `slots` is below 2 or `slot_bytes` below 4096.

    See Also
    --------
    staging_config

    Examples
    --------
    >>> old = npgpu.staging_config()
    >>> npgpu.set_staging_config(16 << 20, 3)
    >>> npgpu.staging_config()
    (16777216, 3)
    >>> npgpu.set_staging_config(*old)
    """
    cdef StagingConfig c
    c.slot_bytes = slot_bytes
    c.slots = slots
    c_set_staging_config(c)


def runtime_info():
    """Versions: npgpu, the CUDA runtime linked into libnpgpu, and the driver (0 when none).

    Needs no GPU.

    Returns
    -------
    dict
        ``npgpu`` (str), ``cuda_runtime`` and ``cuda_driver`` (ints in CUDA's encoding, 1000 * major +
        10 * minor, e.g. 13000 for 13.0; the driver's is 0 without a driver).

    Examples
    --------
    >>> sorted(npgpu.runtime_info())
    ['cuda_driver', 'cuda_runtime', 'npgpu']
    """
    return {"npgpu": rt.version().decode(), "cuda_runtime": rt.runtime_version(), "cuda_driver": rt.driver_version()}


def profiler_push(str name):
    """Open an NVTX range (shown by Nsight Systems); close it with profiler_pop().

    Ranges nest. ``npgpu.profiler.push`` is this function; ``npgpu.profiler.range(name)`` is the context
    manager. Needs no GPU.

    Parameters
    ----------
    name : str
        The range's name on the profiler's timeline.

    Raises
    ------
    TypeError
        `name` is not a str.

    See Also
    --------
    profiler_pop

    Examples
    --------
    >>> npgpu.profiler.push("solve")
    >>> npgpu.profiler.pop()
    """
    rt.profiler_range_push(name.encode())


def profiler_pop():
    """Close the innermost NVTX range opened by profiler_push() (``npgpu.profiler.pop``)."""
    rt.profiler_range_pop()
