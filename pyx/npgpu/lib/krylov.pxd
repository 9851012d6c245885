# Declarations of csrc/include/npgpu/krylov.hpp.
from libc.stdint cimport int64_t
from npgpu._errors cimport raise_py_error
from npgpu.lib.runtime cimport StreamHandle
from npgpu.lib.view cimport ArrayView

cdef extern from "npgpu/krylov.hpp" namespace "npgpu" nogil:
    int kCgSlot
    int64_t cg_state_size(int64_t n) except +raise_py_error
    void cg_start(const ArrayView& r, double tol2, const ArrayView& state, StreamHandle stream) except +raise_py_error
    void cg_step(const ArrayView& x, const ArrayView& r, const ArrayView& p, const ArrayView& q,
                 const ArrayView& state, int parity, StreamHandle stream) except +raise_py_error
    void cg_step_csr(const ArrayView& indptr, const ArrayView& indices, const ArrayView& data, const ArrayView& x,
                     const ArrayView& r, const ArrayView& p, const ArrayView& q, const ArrayView& state, int parity,
                     StreamHandle stream, int64_t longest_row) except +raise_py_error
