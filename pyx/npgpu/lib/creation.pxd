# Declarations of csrc/include/npgpu/creation.hpp.
from npgpu._errors cimport raise_py_error
from npgpu.lib.runtime cimport StreamHandle
from npgpu.lib.view cimport ArrayView, Scalar

cdef extern from "npgpu/creation.hpp" namespace "npgpu" nogil:
    void arange_fill(const ArrayView& out, const Scalar& start, const Scalar& delta,
                     StreamHandle stream) except +raise_py_error
