# Declarations of csrc/include/npgpu/reduce.hpp.
from libc.stdint cimport uint64_t
from libcpp cimport bool
from npgpu._errors cimport raise_py_error
from npgpu.lib.runtime cimport StreamHandle
from npgpu.lib.view cimport ArrayView, DType

cdef extern from "npgpu/reduce.hpp" namespace "npgpu" nogil:
    cpdef enum class ReduceOp(int):
        Sum
        Prod
        Min
        Max
        ArgMin
        ArgMax
        Any
        All
        CountNonzero
        NanSum
        NanProd
        NanMin
        NanMax
        Mean
        NanMean
        Var
        NanVar
        Std
        NanStd
        Norm1
        Norm2
        NormInf
        NormNegInf

    cpdef enum class ScanOp(int):
        Sum
        Prod

    void reduce(ReduceOp op, const ArrayView& inp, uint64_t axes, const ArrayView& out, DType acc, double ddof,
                StreamHandle stream) except +raise_py_error
    const char* reduce_op_name(ReduceOp op)
    void scan(ScanOp op, const ArrayView& inp, int axis, const ArrayView& out, bool exclusive,
              StreamHandle stream) except +raise_py_error
