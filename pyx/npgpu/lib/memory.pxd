# Declarations of csrc/include/npgpu/memory.hpp.
from libc.stdint cimport int64_t
from libcpp.memory cimport shared_ptr
from npgpu._errors cimport raise_py_error
from npgpu.lib.runtime cimport StreamHandle

cdef extern from "npgpu/memory.hpp" namespace "npgpu" nogil:
    cdef cppclass DeviceBuffer:
        DeviceBuffer(int64_t nbytes, int device, StreamHandle stream) except +raise_py_error
        void* data()
        int64_t nbytes()
        int device()
        StreamHandle stream()
        void set_stream(StreamHandle s)

    # One allocation for the buffer and its reference count (reset(new DeviceBuffer) makes two).
    shared_ptr[DeviceBuffer] make_device_buffer "std::make_shared<npgpu::DeviceBuffer>"(
        int64_t nbytes, int device, StreamHandle stream) except +raise_py_error

    cdef cppclass PinnedBuffer:
        PinnedBuffer(int64_t nbytes) except +raise_py_error
        void* data()
        int64_t nbytes()

    cdef cppclass MemoryInfo:
        int64_t pool_used
        int64_t cached_bytes
        int64_t pool_reserved
        int64_t pinned_bytes
        int64_t pinned_cache_limit
        int64_t device_free
        int64_t device_total

    cdef cppclass StagingConfig:
        int64_t slot_bytes
        int slots

    MemoryInfo memory_info(int device) except +raise_py_error
    void trim_pool(int device, int64_t keep_bytes) except +raise_py_error
    void copy_bytes(void* dst, const void* src, int64_t nbytes, StreamHandle stream) except +raise_py_error
    void copy_to_device_staged(void* dst, const void* host, int64_t nbytes, int device,
                               StreamHandle stream) except +raise_py_error
    void copy_to_host_staged(void* host, const void* src, int64_t nbytes, int device,
                             StreamHandle stream) except +raise_py_error
    void copy_peer(void* dst, int dst_device, const void* src, int src_device, int64_t nbytes,
                   StreamHandle stream) except +raise_py_error
    void fill_pattern(void* dst, int64_t count, const void* pattern, int pattern_size,
                      StreamHandle stream) except +raise_py_error
    StagingConfig staging_config() except +raise_py_error
    void set_staging_config(const StagingConfig& cfg) except +raise_py_error
