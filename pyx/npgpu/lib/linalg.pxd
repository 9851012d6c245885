# Declarations of csrc/include/npgpu/linalg.hpp.
from libc.stdint cimport int64_t
from libcpp cimport bool
from npgpu._errors cimport raise_py_error
from npgpu.lib.runtime cimport StreamHandle
from npgpu.lib.view cimport ArrayView

cdef extern from "npgpu/linalg.hpp" namespace "npgpu" nogil:
    void cholesky(const ArrayView& a, int64_t n, bool lower, const ArrayView& info, StreamHandle stream) \
        except +raise_py_error
    void cholesky_solve(const ArrayView& factor, const ArrayView& b, int64_t n, int64_t nrhs, bool lower,
                        StreamHandle stream) except +raise_py_error
    void lu_factor(const ArrayView& a, int64_t n, const ArrayView& pivots, const ArrayView& info,
                   StreamHandle stream) except +raise_py_error
    void lu_factor_unpivoted(const ArrayView& a, int64_t n, const ArrayView& info,
                             StreamHandle stream) except +raise_py_error
    int64_t butterfly_size(int64_t n)
    void butterfly_matrix(const ArrayView& a, int64_t n, const ArrayView& w, StreamHandle stream) except +raise_py_error
    void butterfly_rhs(const ArrayView& b, int64_t n, int64_t nrhs, const ArrayView& y,
                       StreamHandle stream) except +raise_py_error
    void butterfly_solution(const ArrayView& y, int64_t n, int64_t nrhs, const ArrayView& x,
                            StreamHandle stream) except +raise_py_error
    void lu_solve(const ArrayView& lu, const ArrayView& pivots, const ArrayView& b, int64_t n, int64_t nrhs,
                  bool transpose, StreamHandle stream) except +raise_py_error
    void hermitian_eigen(const ArrayView& a, int64_t n, bool lower, bool vectors, const ArrayView& w,
                         const ArrayView& info, StreamHandle stream) except +raise_py_error
    void general_eigen(const ArrayView& a, int64_t n, const ArrayView& w, const ArrayView* vr,
                       const ArrayView& info, StreamHandle stream) except +raise_py_error
    void svd(const ArrayView& a, int64_t m, int64_t n, bool full, const ArrayView& s, const ArrayView* u,
             const ArrayView* vt, const ArrayView& info, StreamHandle stream) except +raise_py_error
    void qr_factor(const ArrayView& a, int64_t m, int64_t n, const ArrayView& tau, const ArrayView& info,
                   StreamHandle stream) except +raise_py_error
    void qr_q(const ArrayView& a, int64_t m, int64_t ncols, int64_t k, const ArrayView& tau,
              StreamHandle stream) except +raise_py_error
    void solve_small_batched(const ArrayView& a, const ArrayView& b, const ArrayView& x, const ArrayView& info,
                             StreamHandle stream) except +raise_py_error
    int64_t kSmallSolveMaxN
