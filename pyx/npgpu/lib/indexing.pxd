# Declarations of csrc/include/npgpu/indexing.hpp and of sorting.hpp's search_sorted.
from libc.stdint cimport int64_t
from libcpp cimport bool
from npgpu._errors cimport raise_py_error
from npgpu.lib.runtime cimport StreamHandle
from npgpu.lib.view cimport ArrayView

cdef extern from "npgpu/indexing.hpp" namespace "npgpu" nogil:
    int64_t nonzero_positions(const ArrayView& flags, const ArrayView& out, StreamHandle stream) \
        except +raise_py_error
    void take(const ArrayView& src, int64_t outer, int64_t axis_len, int64_t inner, const ArrayView& index,
              const ArrayView& out, StreamHandle stream) except +raise_py_error
    void put(const ArrayView& dst, int64_t outer, int64_t axis_len, int64_t inner, const ArrayView& index,
             const ArrayView& values, StreamHandle stream) except +raise_py_error
    void scatter_add(const ArrayView& dst, int64_t outer, int64_t axis_len, int64_t inner,
                     const ArrayView& index, const ArrayView& values, StreamHandle stream) except +raise_py_error

cdef extern from "npgpu/sorting.hpp" namespace "npgpu" nogil:
    void search_sorted(const ArrayView& sorted, const ArrayView& queries, const ArrayView& out, bool right,
                       StreamHandle stream) except +raise_py_error
