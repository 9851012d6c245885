# Declarations of csrc/include/npgpu/elementwise.hpp.
from libcpp cimport bool
from npgpu._errors cimport raise_py_error
from npgpu.lib.runtime cimport StreamHandle
from npgpu.lib.view cimport ArrayView, DType, Scalar

cdef extern from "npgpu/elementwise.hpp" namespace "npgpu" nogil:
    cpdef enum class BinaryOp(int):
        Add

    void binary(BinaryOp op, const ArrayView& a, const ArrayView& b, const ArrayView& out, DType compute,
                StreamHandle stream) except +raise_py_error
    void binary_scalar(BinaryOp op, const ArrayView& a, const Scalar& s, bool scalar_first,
                       const ArrayView& out, DType compute, StreamHandle stream) except +raise_py_error
    void binary_staged(BinaryOp op, const ArrayView& a, const ArrayView& b, const ArrayView& out,
                       DType compute, int device, StreamHandle stream) except +raise_py_error
    void binary_scalar_staged(BinaryOp op, const ArrayView& a, const Scalar& s, bool scalar_first,
                              const ArrayView& out, DType compute, int device,
                              StreamHandle stream) except +raise_py_error
    void copy(const ArrayView& src, const ArrayView& dst, StreamHandle stream) except +raise_py_error
