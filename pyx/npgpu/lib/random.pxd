# Declarations of csrc/include/npgpu/random.hpp.
from libc.stdint cimport int64_t, uint32_t, uint64_t
from npgpu._errors cimport raise_py_error
from npgpu.lib.runtime cimport StreamHandle
from npgpu.lib.view cimport ArrayView, DType

cdef extern from "npgpu/random.hpp" namespace "npgpu" nogil:
    cpdef enum class RandomDist(int):
        Uniform
        Normal
        Integers

    cdef cppclass RandomSpec:
        RandomDist dist
        uint64_t seed
        uint64_t counter
        double a, b
        uint64_t low
        uint64_t range_m1
        int version

    int kRandomStreamVersion
    uint64_t random_blocks(DType dtype, int64_t n) except +raise_py_error
    void random_fill(const RandomSpec& spec, const ArrayView& out, StreamHandle stream) except +raise_py_error
    void random_fill_staged(const RandomSpec& spec, const ArrayView& out, int device,
                            StreamHandle stream) except +raise_py_error
    uint64_t monte_carlo_pi_hits(int64_t n, uint64_t seed, int device,
                                 StreamHandle stream) except +raise_py_error
    uint64_t monte_carlo_pi_hits_range(int64_t first, int64_t n, uint64_t seed, int device,
                                       StreamHandle stream) except +raise_py_error
    double monte_carlo_pi(int64_t n, uint64_t seed, int device, StreamHandle stream) except +raise_py_error
    void philox4x32_10(const uint32_t* counter, const uint32_t* key, uint32_t* out) except +raise_py_error
