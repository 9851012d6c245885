# Declarations of csrc/include/npgpu/sorting.hpp.
from libc.stdint cimport int64_t
from libcpp cimport bool
from npgpu._errors cimport raise_py_error
from npgpu.lib.runtime cimport StreamHandle
from npgpu.lib.view cimport ArrayView

cdef extern from "npgpu/sorting.hpp" namespace "npgpu" nogil:
    void sort_rows(const ArrayView& keys, const ArrayView* values, const ArrayView* indices, bool descending,
                   StreamHandle stream) except +raise_py_error
    int64_t sorted_run_starts(const ArrayView& sorted, const ArrayView& out, bool equal_nan,
                              StreamHandle stream) except +raise_py_error
    void key_range(const ArrayView& keys, const ArrayView& range, StreamHandle stream) except +raise_py_error
    void count_keys(const ArrayView& keys, const ArrayView& range, const ArrayView& counts, const ArrayView* first,
                    StreamHandle stream) except +raise_py_error
    void lookup_keys(const ArrayView& keys, const ArrayView& range, const ArrayView& table, const ArrayView& out,
                     StreamHandle stream) except +raise_py_error
