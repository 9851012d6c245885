# Declarations of csrc/include/npgpu/manipulation.hpp.
from npgpu._errors cimport raise_py_error
from npgpu.lib.runtime cimport StreamHandle
from npgpu.lib.view cimport ArrayView

cdef extern from "npgpu/manipulation.hpp" namespace "npgpu" nogil:
    void copy_batch(const ArrayView* src, const ArrayView* dst, int n, StreamHandle stream) except +raise_py_error
