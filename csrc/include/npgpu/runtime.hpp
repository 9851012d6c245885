#pragma once
// Devices, streams and events. Streams and events are opaque handles (cudaStream_t / cudaEvent_t underneath)
// so that this header, like every public header, compiles without the CUDA toolkit.
#include <cstdint>
#include <string>

#include "npgpu/export.hpp"

namespace npgpu {

using StreamHandle = void*;  // a cudaStream_t; nullptr is the legacy default stream
using EventHandle = void*;   // a cudaEvent_t

// cudaStreamPerThread: each host thread's own default stream; npgpu's default for every operation.
NPGPU_API StreamHandle per_thread_default_stream();

struct DeviceProperties {
  int ordinal = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int multiprocessor_count = 0;
  std::int64_t total_memory = 0;
  int warp_size = 0;
  int max_threads_per_block = 0;
  int max_block_dim[3] = {0, 0, 0};
  int max_grid_dim[3] = {0, 0, 0};
  std::int64_t l2_cache_size = 0;
  std::int64_t shared_memory_per_block = 0;
  std::int64_t shared_memory_per_block_optin = 0;
  int max_threads_per_multiprocessor = 0;
  int pci_bus_id = 0;
};

// Number of usable CUDA devices; 0 (never an exception) when there is no driver or no GPU.
NPGPU_API int device_count() noexcept;
// Why device_count() is 0, for messages ("no CUDA driver found", ...); empty when devices exist.
NPGPU_API std::string unavailable_reason();
// Throws Unavailable naming the reason when no device is usable, InvalidArgument for a bad ordinal.
NPGPU_API void require_device(int ordinal);

NPGPU_API const DeviceProperties& device_properties(int ordinal);  // cached per device
// The thread's device for new work (npgpu.Device selects it). Operations on arrays of another device make
// that device active in the CUDA runtime for their calls; they never change the selection.
NPGPU_API int current_device();
NPGPU_API void select_device(int ordinal);
NPGPU_API int active_device();                // the CUDA runtime's current device on this thread
NPGPU_API void activate_device(int ordinal);  // cheap when already active
NPGPU_API void synchronize_device(int ordinal);
NPGPU_API void mem_get_info(int ordinal, std::int64_t* free_bytes, std::int64_t* total_bytes);
NPGPU_API int runtime_version();  // CUDA runtime linked into libnpgpu, e.g. 13000
NPGPU_API int driver_version();   // 0 without a driver

// Streams.
NPGPU_API StreamHandle stream_create(int device, bool non_blocking, int priority);
NPGPU_API void stream_destroy(StreamHandle s) noexcept;
NPGPU_API void stream_synchronize(StreamHandle s);
NPGPU_API bool stream_query(StreamHandle s);  // true when all work is done
// Make `waiter` wait for all work currently queued on `producer` (through an event; no host wait).
NPGPU_API void stream_wait_stream(StreamHandle waiter, StreamHandle producer);

// Events.
NPGPU_API EventHandle event_create(bool timing, bool blocking);
NPGPU_API void event_destroy(EventHandle e) noexcept;
NPGPU_API void event_record(EventHandle e, StreamHandle s);
NPGPU_API void event_synchronize(EventHandle e);
NPGPU_API bool event_query(EventHandle e);
NPGPU_API void stream_wait_event(StreamHandle s, EventHandle e);
NPGPU_API float event_elapsed_ms(EventHandle start, EventHandle end);

// Check for an asynchronous error left by earlier work (a sticky one included) and throw it.
NPGPU_API void check_last_error(const char* what);

// A check that long host<->device operations (staged NumPy-input calls) run between chunks, on their own
// thread; when it returns true they stop and throw npgpu::Interrupted. Python installs one that runs the
// signal handlers (Ctrl-C). nullptr, the default, removes it.
using InterruptCheck = bool (*)();
NPGPU_API void set_interrupt_check(InterruptCheck check) noexcept;
NPGPU_API bool interrupt_requested();  // runs the installed check; false when none is installed

// NVTX ranges for profilers (no-ops when no profiler is attached).
NPGPU_API void profiler_range_push(const char* name);
NPGPU_API void profiler_range_pop();

}  // namespace npgpu
