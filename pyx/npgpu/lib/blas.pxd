# Declarations of csrc/include/npgpu/blas.hpp.
from npgpu._errors cimport raise_py_error
from npgpu.lib.runtime cimport StreamHandle
from npgpu.lib.view cimport ArrayView

cdef extern from "npgpu/blas.hpp" namespace "npgpu" nogil:
    cpdef enum class MatmulPrecision(int):
        Highest
        TF32

    cpdef enum class MatmulReduceMethod(int):
        Kernels
        Cublas

    void matmul(const ArrayView& a, const ArrayView& b, const ArrayView& out, MatmulPrecision precision,
                StreamHandle stream) except +raise_py_error
    void vdot(const ArrayView& a, const ArrayView& b, const ArrayView& out, StreamHandle stream) \
        except +raise_py_error
    void matmul_reduce(const ArrayView& a, const ArrayView& b, int axis, const ArrayView& out,
                       StreamHandle stream, MatmulReduceMethod method) except +raise_py_error
    void matmul_reduce_from_host(const ArrayView& a, const ArrayView& b, int axis, const ArrayView& out,
                                 StreamHandle stream) except +raise_py_error
    void upload_staged(const ArrayView& host, const ArrayView& dev, StreamHandle stream) except +raise_py_error
    int cublas_version(int device) except +raise_py_error
