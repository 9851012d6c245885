#pragma once
// Internal: the host backend's OpenMP thread count (1 in a build without OpenMP).
namespace npgpu::host {
int max_threads();
}  // namespace npgpu::host
