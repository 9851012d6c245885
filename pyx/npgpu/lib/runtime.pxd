# Declarations of csrc/include/npgpu/runtime.hpp.
from libc.stdint cimport int64_t
from libcpp cimport bool
from libcpp.string cimport string
from npgpu._errors cimport raise_py_error

cdef extern from "npgpu/runtime.hpp" namespace "npgpu" nogil:
    ctypedef void* StreamHandle
    ctypedef void* EventHandle

    cdef cppclass DeviceProperties:
        int ordinal
        string name
        int cc_major, cc_minor
        int multiprocessor_count
        int64_t total_memory
        int warp_size
        int max_threads_per_block
        int max_block_dim[3]
        int max_grid_dim[3]
        int64_t l2_cache_size
        int64_t shared_memory_per_block
        int64_t shared_memory_per_block_optin
        int max_threads_per_multiprocessor
        int pci_bus_id

    StreamHandle per_thread_default_stream()
    int device_count()
    string unavailable_reason() except +raise_py_error
    void require_device(int ordinal) except +raise_py_error
    const DeviceProperties& device_properties(int ordinal) except +raise_py_error
    int current_device() except +raise_py_error
    void activate_device(int ordinal) except +raise_py_error
    int active_device() except +raise_py_error
    void select_device(int ordinal) except +raise_py_error
    void synchronize_device(int ordinal) except +raise_py_error
    void mem_get_info(int ordinal, int64_t* free_bytes, int64_t* total_bytes) except +raise_py_error
    int runtime_version()
    int driver_version()

    StreamHandle stream_create(int device, bool non_blocking, int priority) except +raise_py_error
    void stream_destroy(StreamHandle s)
    void stream_synchronize(StreamHandle s) except +raise_py_error
    bool stream_query(StreamHandle s) except +raise_py_error
    void stream_wait_stream(StreamHandle waiter, StreamHandle producer) except +raise_py_error

    EventHandle event_create(bool timing, bool blocking) except +raise_py_error
    void event_destroy(EventHandle e)
    void event_record(EventHandle e, StreamHandle s) except +raise_py_error
    void event_synchronize(EventHandle e) except +raise_py_error
    bool event_query(EventHandle e) except +raise_py_error
    void stream_wait_event(StreamHandle s, EventHandle e) except +raise_py_error
    float event_elapsed_ms(EventHandle start, EventHandle end) except +raise_py_error
    void check_last_error(const char* what) except +raise_py_error
    void profiler_range_push(const char* name)
    void profiler_range_pop()

cdef extern from "npgpu/version.hpp" namespace "npgpu" nogil:
    const char* version()
