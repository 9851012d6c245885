# Declarations of csrc/include/npgpu/launch.hpp.
from libc.stdint cimport int64_t
from npgpu._errors cimport raise_py_error
from npgpu.lib.runtime cimport StreamHandle
from npgpu.lib.view cimport ArrayView

cdef extern from "npgpu/launch.hpp" namespace "npgpu" nogil:
    cdef cppclass Dim3:
        int64_t x, y, z
    void check_launch_geometry(const Dim3& grid, const Dim3& block, int device) except +raise_py_error
    void launch_indices(const Dim3& grid, const Dim3& block, const ArrayView& thread_idx,
                        const ArrayView& block_idx, const ArrayView& block_dim, const ArrayView& grid_dim,
                        StreamHandle stream) except +raise_py_error
    double empty_launch_host_us(int device, int launches) except +raise_py_error
