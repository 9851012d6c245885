# cython: language_level=3
"""The fused vector steps behind npgpu.sparse.linalg's solvers: each keeps its scalars (dot products, step
lengths, the convergence flag) in a float64 array on the vectors' device, so an iteration never waits for
the host. See csrc/include/npgpu/krylov.hpp."""
from libc.stdint cimport int64_t
from npgpu._array cimport Array
from npgpu._runtime cimport resolve_stream
from npgpu.lib.runtime cimport StreamHandle
from npgpu.lib.krylov cimport cg_start as c_cg_start, cg_state_size as c_cg_state_size, cg_step as c_cg_step
from npgpu.lib.krylov cimport cg_step_csr as c_cg_step_csr
from npgpu.lib.krylov cimport kCgSlot

CG_SLOT = kCgSlot


def cg_state_size(int64_t n):
    """Elements of the float64 state array cg_start and cg_step need for vectors of n elements."""
    return c_cg_state_size(n)


def cg_start(Array r, double tol2, Array state):
    """Fill the state's slot 0 with {r^H r, r^H r < tol2, tol2}: the first slot cg_step reads."""
    cdef StreamHandle s = resolve_stream(None)
    with nogil:
        c_cg_start(r._view, tol2, state._view, s)


def cg_step(Array x, Array r, Array p, Array q, Array state, int parity):
    """One unpreconditioned conjugate-gradient iteration after q = A p, in place: x, r and p updated, the
    scalars read from slot `parity` of the state and written to slot 1 - parity (see krylov.hpp)."""
    cdef StreamHandle s = resolve_stream(None)
    with nogil:
        c_cg_step(x._view, r._view, p._view, q._view, state._view, parity, s)


def cg_step_csr(Array indptr, Array indices, Array data, Array x, Array r, Array p, Array q, Array state,
                int parity, int64_t longest_row=-1):
    """cg_step with the product: q = A p written for the square CSR matrix A = (data, indices, indptr), then
    the step. longest_row (the most nonzeros in a row, -1: unknown) picks the GPU kernels, never the result."""
    cdef StreamHandle s = resolve_stream(None)
    with nogil:
        c_cg_step_csr(indptr._view, indices._view, data._view, x._view, r._view, p._view, q._view, state._view, parity, s,
                      longest_row)
