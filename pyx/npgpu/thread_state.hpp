#pragma once
// Binding layer: per-thread state of the Python API (current stream, backend override). Only _runtime.pyx
// includes this; other modules reach it through _runtime's cdef functions.
namespace npgpu_pyx {

struct ThreadState {
  void* stream = reinterpret_cast<void*>(0x2);  // cudaStreamPerThread until a Stream context says otherwise
  int backend = -1;                             // -1: process default, 0: cpu, 1: cuda
};

inline ThreadState& thread_state() {
  thread_local ThreadState s;
  return s;
}

}  // namespace npgpu_pyx
