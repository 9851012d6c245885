// The host backend's OpenMP thread count, and its threads across fork(): GNU libgomp's thread pool does not survive it,
// so a child that enters a parallel region after its parent used one waits forever for threads that are gone (Python's
// multiprocessing starts workers by fork on Linux). The child runs its host loops on one thread instead.
#include "host/openmp.hpp"

#include <pthread.h>
#ifdef _OPENMP
#include <omp.h>
#endif

namespace npgpu::host {

int max_threads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

namespace {
#ifdef _OPENMP
void one_thread_after_fork() { omp_set_num_threads(1); }
[[maybe_unused]] const int g_fork_handler = pthread_atfork(nullptr, nullptr, one_thread_after_fork);
#endif
}  // namespace
}  // namespace npgpu::host
