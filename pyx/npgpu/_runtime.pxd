from npgpu.lib.runtime cimport StreamHandle, EventHandle

cdef StreamHandle current_stream_handle() noexcept nogil
cdef StreamHandle resolve_stream(object stream) except? NULL
cdef int resolve_device(object device) except -2
cdef int resolve_array_device(object device) except -2
cdef int default_array_device() except -2
cdef bint use_cuda_for_host_data() except -1
cdef object stream_to_cai(StreamHandle s)

cdef class Stream:
    cdef StreamHandle handle
    cdef readonly int device
    cdef bint owned
    cdef object __weakref__

cdef class Event:
    cdef EventHandle handle
    cdef readonly bint timing
