# cython: language_level=3
"""The compiled products behind npgpu.sparse (which builds, checks and converts the matrices): a CSR matrix
times a dense vector or matrix, on the host (OpenMP) or on the GPU (cuSPARSE's SpMV / SpMM)."""
from libc.stdint cimport int64_t
from npgpu._array cimport Array, new_array
from npgpu._runtime cimport resolve_stream
from npgpu.lib.runtime cimport StreamHandle
from npgpu.lib.sparse cimport csr_matmul as c_csr_matmul


def csr_matmul(Array indptr, Array indices, Array data, int64_t n_cols, Array x, int64_t longest_row=-1):
    """y = A @ x for the CSR matrix A = (data, indices, indptr) with n_cols columns; x (n_cols,) or
    (n_cols, k) of data's dtype, every operand C-contiguous on one device. Returns a new y (rows,) or
    (rows, k). The CSR arrays are trusted: npgpu.sparse validates a matrix when it is built.
    longest_row: the most nonzeros in a row, where known (-1: unknown); it picks the GPU kernel, never the
    result (see sparse.hpp)."""
    cdef StreamHandle s = resolve_stream(None)
    shape = (indptr.shape[0] - 1,) + tuple(x.shape[1:])
    cdef Array y = new_array(shape, data.dtype, data.view.device, s)
    with nogil:
        c_csr_matmul(indptr.view, indices.view, data.view, n_cols, x.view, y.view, s, longest_row)
    return y
