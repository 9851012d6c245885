# Declarations of csrc/include/npgpu/dtype.hpp and view.hpp.
from libc.stdint cimport int32_t, int64_t, uint64_t
from libcpp cimport bool
from libcpp.string cimport string

cdef extern from "npgpu/dtype.hpp" namespace "npgpu" nogil:
    cpdef enum class DType(int32_t):
        Bool
        Int8
        Int16
        Int32
        Int64
        UInt8
        UInt16
        UInt32
        UInt64
        Float32
        Float64
        Complex64
        Complex128
        Float16
        BFloat16
    enum: kNumDTypes
    int64_t itemsize(DType t)
    const char* dtype_name(DType t)

cdef extern from "npgpu/view.hpp" namespace "npgpu" nogil:
    const int kMaxDims
    const int kHostDevice

    cdef cppclass ArrayView:
        void* data
        DType dtype
        int ndim
        int64_t shape[32]
        int64_t strides[32]
        int device
        bool readonly
        int64_t size()
        bool is_c_contiguous()
        string describe()

    union ScalarValue:
        bool b
        int64_t i
        uint64_t u
        double f
        double c[2]

    cdef cppclass Scalar:
        DType dtype
        ScalarValue value
