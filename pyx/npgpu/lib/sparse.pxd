# Declarations of csrc/include/npgpu/sparse.hpp.
from libc.stdint cimport int64_t
from npgpu._errors cimport raise_py_error
from npgpu.lib.runtime cimport StreamHandle
from npgpu.lib.view cimport ArrayView

cdef extern from "npgpu/sparse.hpp" namespace "npgpu" nogil:
    void csr_matmul(const ArrayView& indptr, const ArrayView& indices, const ArrayView& data, int64_t cols,
                    const ArrayView& x, const ArrayView& y, StreamHandle stream,
                    int64_t longest_row) except +raise_py_error

    cdef cppclass CsrProduct:
        CsrProduct(const ArrayView& a_indptr, const ArrayView& a_indices, const ArrayView& a_data,
                   const ArrayView& b_indptr, const ArrayView& b_indices, const ArrayView& b_data, int64_t n_cols,
                   StreamHandle stream) except +raise_py_error
        int64_t nnz()
        void write(const ArrayView& indptr, const ArrayView& indices,
                   const ArrayView& data) except +raise_py_error
