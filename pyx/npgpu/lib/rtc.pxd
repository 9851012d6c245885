# Declarations of csrc/include/npgpu/rtc.hpp.
from libc.stdint cimport int64_t
from libcpp cimport bool
from libcpp.string cimport string
from libcpp.vector cimport vector
from npgpu._errors cimport raise_py_error
from npgpu.lib.launch cimport Dim3
from npgpu.lib.runtime cimport StreamHandle

cdef extern from "npgpu/rtc.hpp" namespace "npgpu" nogil:
    int nvrtc_version() except +raise_py_error
    vector[int] nvrtc_supported_archs() except +raise_py_error
    int rtc_device_arch(int device) except +raise_py_error

    bool rtc_install_bundled_headers(const string& path) except +raise_py_error

    cdef cppclass RtcCompileResult:
        bool ok
        string log
        string binary
        bool is_ptx
        vector[string] lowered_names

    RtcCompileResult rtc_compile(const string& source, const string& name, const vector[string]& options,
                                 const vector[string]& name_expressions) except +raise_py_error

    ctypedef void* RtcLibrary
    ctypedef void* RtcKernel

    cdef cppclass RtcKernelInfo:
        vector[int64_t] param_offsets
        vector[int64_t] param_sizes
        int max_threads_per_block
        int64_t static_shared_bytes
        int64_t max_shared_bytes
        int64_t dynamic_shared_enabled
        int num_regs
        int64_t local_bytes
        int binary_version

    RtcLibrary rtc_library_load(const void* image, int device) except +raise_py_error
    void rtc_library_unload(RtcLibrary library)
    RtcKernel rtc_get_kernel(RtcLibrary library, const char* name, int device,
                             RtcKernelInfo* info) except +raise_py_error
    vector[string] rtc_kernel_names(RtcLibrary library, int device) except +raise_py_error
    void rtc_launch(RtcKernel kernel, RtcKernelInfo* info, const Dim3& grid, const Dim3& block,
                    int64_t shared_mem, int device, StreamHandle stream, void** args) except +raise_py_error
