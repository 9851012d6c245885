# The C++-exception-to-Python translation helper (pyx/npgpu/exception_info.hpp).
from libcpp cimport bool
from libcpp.string cimport string

cdef extern from "exception_info.hpp" namespace "npgpu_pyx" nogil:
    cdef enum ExceptionKind:
        kCudaError
        kOutOfMemory
        kValueError
        kTypeError
        kUnavailable
        kMemoryError
        kRuntimeError
        kIndexError
        kInterrupted
    cdef cppclass ExceptionInfo:
        ExceptionKind kind
        int code
        bool sticky
        string name
        string call
        string message
    void current_exception_info(ExceptionInfo& info)
