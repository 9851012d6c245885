# Declarations of csrc/include/npgpu/elementwise.hpp.
from libcpp cimport bool
from npgpu._errors cimport raise_py_error
from npgpu.lib.runtime cimport StreamHandle
from npgpu.lib.view cimport ArrayView, DType, Scalar

cdef extern from "npgpu/elementwise.hpp" namespace "npgpu" nogil:
    enum class ElementwiseOp(int):
        Add
        Subtract
        Multiply
        TrueDivide
        FloorDivide
        Remainder
        Power
        Maximum
        Minimum
        Hypot
        Arctan2
        Equal
        NotEqual
        Less
        LessEqual
        Greater
        GreaterEqual
        LogicalAnd
        LogicalOr
        LogicalXor
        BitwiseAnd
        BitwiseOr
        BitwiseXor
        LeftShift
        RightShift
        Negative
        Positive
        Absolute
        Sign
        Square
        Reciprocal
        Sqrt
        Cbrt
        Exp
        Expm1
        Exp2
        Log
        Log1p
        Log2
        Log10
        Sin
        Cos
        Tan
        Arcsin
        Arccos
        Arctan
        Sinh
        Cosh
        Tanh
        Arcsinh
        Arccosh
        Arctanh
        Floor
        Ceil
        Trunc
        Rint
        IsNan
        IsInf
        IsFinite
        LogicalNot
        Invert
        Conjugate
        Where
        Clip
        Axpy

    cdef cppclass Operand:
        ArrayView view
        Scalar scalar
        bool is_scalar

    const char* elementwise_op_name(ElementwiseOp op)
    int elementwise_op_arity(ElementwiseOp op)
    DType elementwise_result_dtype(ElementwiseOp op, DType compute) except +raise_py_error
    void elementwise(ElementwiseOp op, const Operand* inputs, int n_inputs, const ArrayView& out,
                     DType compute, StreamHandle stream) except +raise_py_error
    void elementwise_staged(ElementwiseOp op, const Operand* inputs, int n_inputs, const ArrayView& out,
                            DType compute, int device, StreamHandle stream) except +raise_py_error
    void copy(const ArrayView& src, const ArrayView& dst, StreamHandle stream) except +raise_py_error
