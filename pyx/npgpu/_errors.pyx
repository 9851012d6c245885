# cython: language_level=3
"""npgpu's Python exceptions and the handler that raises them from C++ exceptions."""
from cpython.exc cimport PyErr_CheckSignals
from libcpp cimport bool

from npgpu.lib.errors cimport ExceptionInfo, kCudaError, kOutOfMemory, kValueError, kTypeError, kUnavailable, \
    kMemoryError, kIndexError, kInterrupted

cdef extern from "npgpu/runtime.hpp" namespace "npgpu" nogil:
    ctypedef bool (*InterruptCheck)() noexcept
    void set_interrupt_check(InterruptCheck check) noexcept


class CUDAError(RuntimeError):
    """A CUDA runtime call failed.

    Attributes: ``code`` (the cudaError_t value), ``name`` (``"cudaErrorInvalidValue"``, ...), ``call`` (the
    call that failed) and ``sticky`` (True when the error left this process's CUDA context unusable).
    """

    def __init__(self, message, code=0, name="", call="", sticky=False):
        super().__init__(message)
        self.code = code
        self.name = name
        self.call = call
        self.sticky = sticky

    def __reduce__(self):
        return (type(self), (self.args[0], self.code, self.name, self.call, self.sticky))


class OutOfMemoryError(MemoryError):
    """A device or pinned-host allocation failed; the message gives the size asked for and what was free."""


class GPUUnavailableError(RuntimeError):
    """The operation needs a GPU and this process has none (no driver, no device, or a broken context)."""


# The exception a signal handler raised inside _run_signal_handlers, raised again when the interrupted call
# returns to Python. Signal handlers run only on the main thread, so one slot serves.
cdef object _pending_interrupt = None


cdef bool _run_signal_handlers() noexcept with gil:
    """libnpgpu's interrupt check: long staged calls run it between chunks, without the GIL otherwise."""
    global _pending_interrupt
    try:
        PyErr_CheckSignals()
        return False
    except BaseException as e:
        _pending_interrupt = e
        return True


set_interrupt_check(_run_signal_handlers)


cdef int raise_from_info(ExceptionInfo* info) except *:
    """Raise the Python exception for a classified C++ exception (see raise_py_error in _errors.pxd)."""
    global _pending_interrupt
    msg = info.message.decode("utf-8", "replace")
    if info.kind == kCudaError:
        raise CUDAError(msg, info.code, info.name.decode(), info.call.decode(), info.sticky)
    if info.kind == kOutOfMemory:
        raise OutOfMemoryError(msg)
    if info.kind == kValueError:
        raise ValueError(msg)
    if info.kind == kTypeError:
        raise TypeError(msg)
    if info.kind == kIndexError:
        raise IndexError(msg)
    if info.kind == kUnavailable:
        raise GPUUnavailableError(msg)
    if info.kind == kInterrupted:
        e, _pending_interrupt = _pending_interrupt, None
        raise e if e is not None else KeyboardInterrupt(msg)
    if info.kind == kMemoryError:
        raise MemoryError(msg)
    raise RuntimeError(msg)
