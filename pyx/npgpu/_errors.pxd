from npgpu.lib.errors cimport ExceptionInfo, current_exception_info


cdef int raise_from_info(ExceptionInfo* info) except *


# The handler named by `except +raise_py_error`. Inline, so that each extension module re-throws (to classify)
# the C++ exception it caught itself: a toolchain that links libstdc++ statically gives each module its own
# copy of the C++ runtime, and a copy only knows the exceptions its own module is handling (re-thrown from
# another module, `throw;` finds none and aborts the process).
cdef inline int raise_py_error() except *:
    cdef ExceptionInfo info
    current_exception_info(info)
    return raise_from_info(&info)
