#pragma once
// Internal: the radix sorts behind npgpu::cuda::sort_rows, a template instantiated for the key types in
// sorting_radix_<group>.cu (CUB's segmented sort is slow to compile: one file per group compiles in
// parallel). Keys are CUB's: unsigned/signed integers, float, double, __half.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "npgpu/runtime.hpp"

namespace npgpu::cuda::sort_detail {

// Launches out[i] = i % n (positions within rows of n), or i itself with n == 0, on s.
void launch_row_iota(std::int64_t* out, std::int64_t total, std::int64_t n, cudaStream_t s);

// out[i] = i as int32 (n <= INT32_MAX), and the widening of int32 positions to int64, on s.
void launch_iota32(std::int32_t* out, std::int64_t n, cudaStream_t s);
void launch_widen(const std::int32_t* in, std::int64_t* out, std::int64_t n, cudaStream_t s);

// Sorts `rows` rows of n keys from src into dst (stable, either direction), and with idx_out each key's
// position in its row: cub::DeviceRadixSort for one row, cub::DeviceSegmentedSort for several. end_bit (one
// row; 0: all of the key's bits): every key agrees in the bits from end_bit up, which the passes skip.
// begin_bit (one row): the passes sort only the bits from begin_bit up (a partial order, finished by the caller).
template <class K>
void radix_sort(const K* src, K* dst, std::int64_t* idx_out, std::int64_t rows, std::int64_t n, bool descending,
                int device, cudaStream_t s, int end_bit = 0, int begin_bit = 0);

// Sorts n 8-byte words by their bits [begin_bit, end_bit), stably and ascending, between `words` and `alt`
// (CUB's double buffer: no third copy); returns the one that holds the result.
std::uint64_t* sort_words(std::uint64_t* words, std::uint64_t* alt, std::int64_t n, int begin_bit, int end_bit,
                          int device, cudaStream_t s);

}  // namespace npgpu::cuda::sort_detail
