# Declarations of csrc/include/npgpu/stencil.hpp.
from libc.stdint cimport int64_t
from libcpp cimport bool
from npgpu._errors cimport raise_py_error
from npgpu.lib.runtime cimport StreamHandle
from npgpu.lib.view cimport ArrayView

cdef extern from "npgpu/stencil.hpp" namespace "npgpu" nogil:
    cpdef enum class Boundary(int):
        Zero
        Periodic
        Reflect

    cdef cppclass DiffusionCallback:
        bool (*fn)(int64_t steps_done, const ArrayView& field, void* user) noexcept
        void* user
        int64_t every
        bool (*interrupted)(void* user) noexcept

    void laplacian(const ArrayView& field, const ArrayView& out, Boundary boundary,
                   StreamHandle stream) except +raise_py_error
    int64_t diffusion(const ArrayView& field, const ArrayView& out, const ArrayView* laplacian_out,
                      int64_t steps, double coeff, Boundary boundary, StreamHandle stream,
                      const DiffusionCallback* callback) except +raise_py_error
