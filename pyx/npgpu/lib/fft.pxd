# Declarations of csrc/include/npgpu/fft.hpp.
from libc.stdint cimport int64_t
from libcpp cimport bool
from npgpu._errors cimport raise_py_error
from npgpu.lib.runtime cimport StreamHandle
from npgpu.lib.view cimport ArrayView

cdef extern from "npgpu/fft.hpp" namespace "npgpu" nogil:
    cpdef enum class FftKind:
        C2C
        R2C
        C2R

    cdef struct FftPlanCacheInfo:
        int64_t plans
        int64_t work_bytes
        int64_t max_plans
        int64_t max_bytes
        int64_t hits
        int64_t misses

    bool fft(const ArrayView& input, const ArrayView& out, const int* axes, int naxes, FftKind kind,
             bool forward, StreamHandle stream) except +raise_py_error
    FftPlanCacheInfo fft_plan_cache_info() except +raise_py_error
    void set_fft_plan_cache_limits(int64_t max_plans, int64_t max_bytes) except +raise_py_error
    void clear_fft_plan_cache() except +raise_py_error
