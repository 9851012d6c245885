#pragma once
// Internal: the host backend's OpenMP thread count (1 in a build without OpenMP), and loops that enter an
// OpenMP region only when the work is worth one.
#include <cstdint>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace npgpu::host {

int max_threads();

// body(i) for each i in [0, n): spread over the OpenMP threads (static schedule) when `parallel`, else a plain
// loop on this thread. Small work must not enter a region at all: GNU libgomp's region with a false if()
// clause still makes a system call, which costs more than a small loop.
template <class Body>
void parallel_for(std::int64_t n, bool parallel, const Body& body) {
  if (parallel) {
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i) body(i);
  } else {
    for (std::int64_t i = 0; i < n; ++i) body(i);
  }
}

// body(thread_count, thread_index) once in each thread of an OpenMP region when `parallel`, else
// body(1, 0) on this thread, without a region (as parallel_for).
template <class Body>
void parallel_region(bool parallel, const Body& body) {
#ifdef _OPENMP
  if (parallel) {
#pragma omp parallel
    body(static_cast<std::int64_t>(omp_get_num_threads()), static_cast<std::int64_t>(omp_get_thread_num()));
    return;
  }
#endif
  (void)parallel;
  body(std::int64_t{1}, std::int64_t{0});
}

}  // namespace npgpu::host
