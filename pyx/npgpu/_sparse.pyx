# cython: language_level=3
"""The compiled products behind npgpu.sparse (which builds, checks and converts the matrices): a CSR matrix
times a dense vector or matrix, and a CSR matrix times a CSR matrix, on the host (OpenMP) or on the GPU
(cuSPARSE's SpMV, SpMM and SpGEMM, and npgpu's own CSR kernels)."""
from libc.stdint cimport int64_t
from libcpp.memory cimport unique_ptr
from npgpu._array cimport Array, new_array
from npgpu._runtime cimport resolve_stream
from npgpu.lib.runtime cimport StreamHandle
from npgpu.lib.sparse cimport CsrProduct, csr_matmul as c_csr_matmul


def csr_matmul(Array indptr, Array indices, Array data, int64_t n_cols, Array x, int64_t longest_row=-1):
    """y = A @ x for the CSR matrix A = (data, indices, indptr) with n_cols columns; x (n_cols,) or
    (n_cols, k) of data's dtype, every operand C-contiguous on one device. Returns a new y (rows,) or
    (rows, k). The CSR arrays are trusted: npgpu.sparse validates a matrix when it is built.
    longest_row: the most nonzeros in a row, where known (-1: unknown); it picks the GPU kernel, never the
    result (see sparse.hpp)."""
    cdef StreamHandle s = resolve_stream(None)
    shape = (indptr.shape[0] - 1,) + tuple(x.shape[1:])
    cdef Array y = new_array(shape, data.dtype, data._view.device, s)
    with nogil:
        c_csr_matmul(indptr._view, indices._view, data._view, n_cols, x._view, y._view, s, longest_row)
    return y


def csr_product(Array a_indptr, Array a_indices, Array a_data, Array b_indptr, Array b_indices, Array b_data,
                int64_t n_cols):
    """C = A @ B for CSR matrices A = (a_data, a_indices, a_indptr) and B = (b_data, b_indices, b_indptr)
    with n_cols columns: one index dtype and one value dtype for both, each canonical (sorted indices, no
    duplicates), every array C-contiguous on one device. Returns C's (indptr, indices, data), new arrays of
    the inputs' dtypes, canonical. Waits for the device once, to learn C's size (see sparse.hpp)."""
    cdef StreamHandle s = resolve_stream(None)
    cdef unique_ptr[CsrProduct] product
    with nogil:
        product.reset(new CsrProduct(a_indptr._view, a_indices._view, a_data._view, b_indptr._view, b_indices._view,
                                     b_data._view, n_cols, s))
    cdef int64_t nnz = product.get().nnz()
    cdef int device = a_data._view.device
    cdef Array indptr = new_array((a_indptr.shape[0],), a_indptr.dtype, device, s)
    cdef Array indices = new_array((nnz,), a_indptr.dtype, device, s)
    cdef Array data = new_array((nnz,), a_data.dtype, device, s)
    with nogil:
        product.get().write(indptr._view, indices._view, data._view)
    return indptr, indices, data
