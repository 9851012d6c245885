from libc.stdint cimport int64_t
from libcpp.memory cimport shared_ptr
from npgpu.lib.memory cimport DeviceBuffer
from npgpu.lib.runtime cimport StreamHandle
from npgpu.lib.view cimport ArrayView, DType

cdef class Array:
    cdef shared_ptr[DeviceBuffer] buf  # the memory this array owns (empty for views and foreign memory)
    cdef readonly object base          # what keeps foreign or parent memory alive
    cdef ArrayView _view
    cdef object _dtype                 # numpy.dtype
    cdef tuple _shape
    cdef StreamHandle stream           # the stream the array's data was produced on
    cdef object __weakref__
    cdef Array _view_of(self, const ArrayView& v, object dtype=*)
    cdef Array _part_view(self, int part)

cdef Array new_array(tuple shape, object dtype, int device, StreamHandle stream)
cdef Array new_array_like_view(const ArrayView& like, object dtype, DType dt, StreamHandle stream)
cdef DType dtype_code(object dtype) except *
cdef object numpy_dtype(DType code)
cdef Array wrap_view(const ArrayView& view, object base, object np_dtype, StreamHandle stream)
cdef ArrayView host_view(object arr, bint writable) except *
cdef object host_ndarray(Array a)
cdef Array wrap_host(object arr)
cdef Array upload(object host, int device, StreamHandle stream)
cdef ArrayView _broadcast_to(const ArrayView& v, tuple shape, str message) except *
cdef struct Extent:
    int64_t lo
    int64_t hi
cdef Extent _extent(const ArrayView& v) noexcept nogil
cdef bint _views_overlap(const ArrayView& a, const ArrayView& b) noexcept nogil
cpdef refuse_subclass(obj, str name)
cpdef object native_order(object arr)
