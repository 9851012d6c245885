// CUDA implementation of sorting (search_sorted is in sorting_search.cu). Real keys go through CUB's radix
// sorts (sorting_radix.cuh): one row through cub::DeviceRadixSort, whose float order is NumPy's once every NaN
// has one sign (+ ascending, - descending: all NaNs last; CUB already treats -0.0 and +0.0 as equal); rows
// through cub::DeviceSegmentedSort, whose small-segment sorts compare floats directly (NaNs break them), so
// float rows sort ordered unsigned keys (NaN largest or smallest, -0.0 as +0.0) paired with positions, and the
// values are gathered. Complex keys: cub::DeviceMergeSort of positions with NumPy's order (rows first).
// 4-byte keys: rows of 64 to 4096 keys (or one row of up to 4096) sort in one block each (block_sort); some
// longer rows (word_layout) as one 8-byte word per key: row, key bits, position.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <cub/block/block_radix_sort.cuh>
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "common/cuda_check.hpp"
#include "common/dispatch.hpp"
#include "common/sort_order.hpp"
#include "common/sorting_backends.hpp"
#include "cuda/cub_run.cuh"
#include "cuda/sorting_radix.cuh"
#include "npgpu/errors.hpp"
#include "npgpu/memory.hpp"

namespace npgpu::cuda {

namespace sort_detail {

namespace {
constexpr int kThreads = 256;

unsigned blocks_for(std::int64_t n) {
  return static_cast<unsigned>(std::min<std::int64_t>(std::max<std::int64_t>((n + kThreads - 1) / kThreads, 1),
                                                       1 << 20));
}

__global__ void row_iota(std::int64_t* out, std::int64_t total, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += stride)
    out[i] = n ? i % n : i;
}
__global__ void iota32(std::int32_t* out, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = static_cast<std::int32_t>(i);
}

__global__ void widen(const std::int32_t* in, std::int64_t* out, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = in[i];
}
}  // namespace

void launch_iota32(std::int32_t* out, std::int64_t n, cudaStream_t s) {
  iota32<<<blocks_for(n), kThreads, 0, s>>>(out, n);
  NPGPU_CHECK_LAUNCH("sort (positions)");
}

void launch_widen(const std::int32_t* in, std::int64_t* out, std::int64_t n, cudaStream_t s) {
  widen<<<blocks_for(n), kThreads, 0, s>>>(in, out, n);
  NPGPU_CHECK_LAUNCH("sort (positions)");
}

void launch_row_iota(std::int64_t* out, std::int64_t total, std::int64_t n, cudaStream_t s) {
  row_iota<<<blocks_for(total), kThreads, 0, s>>>(out, total, n);
  NPGPU_CHECK_LAUNCH("sort (positions)");
}

}  // namespace sort_detail

namespace {

using sort_detail::blocks_for;
using sort_detail::kThreads;
using sort_detail::radix_sort;

// The key type CUB sorts for a storage type (bool as bytes, float16 as CUDA's __half).
template <class T> struct radix_key { using type = T; };
template <> struct radix_key<bool> { using type = std::uint8_t; };
template <> struct radix_key<detail::float16> { using type = __half; };

// Bits of a floating key type.
template <class K> struct float_bits;
template <> struct float_bits<float> {
  using U = std::uint32_t;
  static constexpr U abs = 0x7fffffffu, inf = 0x7f800000u, qnan = 0x7fc00000u, sign = 0x80000000u;
};
template <> struct float_bits<double> {
  using U = std::uint64_t;
  static constexpr U abs = 0x7fffffffffffffffull, inf = 0x7ff0000000000000ull, qnan = 0x7ff8000000000000ull,
                     sign = 0x8000000000000000ull;
};
template <> struct float_bits<__half> {
  using U = std::uint16_t;
  static constexpr U abs = 0x7fff, inf = 0x7c00, qnan = 0x7e00, sign = 0x8000;
};

// One row sorted by CUB's float order holds the NaNs of one sign first (ascending: those with the sign bit;
// descending: those without) and the others last. NumPy wants them all last: the leading ones are counted
// (a binary search on one thread) and, where there are any, rotated to the back through a scratch copy. Most
// arrays have none, and then the two rotation kernels return at once.
template <class K>
__device__ bool leading_nan(K v, bool descending) {
  using B = float_bits<K>;
  using U = typename B::U;
  U u;
  memcpy(&u, &v, sizeof(U));
  return (u & B::abs) > B::inf && ((u & B::sign) != 0) != descending;
}

template <class K>
__global__ void count_leading_nans(const K* v, std::int64_t n, bool descending, std::int64_t* count) {
  std::int64_t lo = 0, hi = n;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (leading_nan(v[mid], descending)) lo = mid + 1;
    else hi = mid;
  }
  *count = lo;
}

template <class K>
__global__ void copy_if_counted(const K* from, K* to, std::int64_t n, const std::int64_t* count) {
  if (*count == 0) return;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    to[i] = from[i];
}

template <class K>
__global__ void rotate_if_counted(const K* from, K* to, std::int64_t n, const std::int64_t* count) {
  const std::int64_t k = *count;
  if (k == 0) return;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    to[i] = from[i + k < n ? i + k : i + k - n];
}

template <class K>
void nans_to_back(K* sorted, std::int64_t n, bool descending, int device, cudaStream_t s) {
  DeviceBuffer count(8, device, s);
  DeviceBuffer scratch(n * static_cast<std::int64_t>(sizeof(K)), device, s);  // pool memory, never touched
  auto* k = static_cast<std::int64_t*>(count.data());
  auto* tmp = static_cast<K*>(scratch.data());
  count_leading_nans<K><<<1, 1, 0, s>>>(sorted, n, descending, k);
  NPGPU_CHECK_LAUNCH("sort (NaN count)");
  const unsigned blocks = std::min(blocks_for(n), 2048u);  // small: the usual count of 0 exits at once
  copy_if_counted<K><<<blocks, kThreads, 0, s>>>(sorted, tmp, n, k);
  NPGPU_CHECK_LAUNCH("sort (NaN copy)");
  rotate_if_counted<K><<<blocks, kThreads, 0, s>>>(tmp, sorted, n, k);
  NPGPU_CHECK_LAUNCH("sort (NaN rotation)");
}

// One row sorted with positions: every NaN with one sign, the quiet NaN of either sign, so that the NaNs keep
// their original order (stability) behind every number.
template <class K>
__global__ void canonical_nans(const K* in, K* out, std::int64_t n, bool negative) {
  using B = float_bits<K>;
  using U = typename B::U;
  const U nan = negative ? static_cast<U>(B::qnan | B::sign) : B::qnan;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const U u = reinterpret_cast<const U*>(in)[i];
    reinterpret_cast<U*>(out)[i] = (u & B::abs) > B::inf ? nan : u;
  }
}

// A float's bits as an unsigned key in NumPy's float order: negative numbers bit-flipped, positive ones with
// the sign bit set, -0.0 as +0.0, NaNs above everything ascending and below everything descending.
template <class K>
__device__ typename float_bits<K>::U ordered_bits(typename float_bits<K>::U u, bool descending) {
  using B = float_bits<K>;
  using U = typename B::U;
  if ((u & B::abs) > B::inf) return descending ? U(0) : static_cast<U>(~U(0));
  if ((u & B::abs) == 0) return B::sign;  // both zeros
  return (u & B::sign) ? static_cast<U>(~u) : static_cast<U>(u | B::sign);
}

// Rows: the ordered_bits of every key.
template <class K>
__global__ void ordered_keys(const K* in, typename float_bits<K>::U* out, std::int64_t n, bool descending) {
  using U = typename float_bits<K>::U;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = ordered_bits<K>(reinterpret_cast<const U*>(in)[i], descending);
}

// A 4-byte key's bits as an unsigned number that sorts ascending in the requested order (NaNs last).
enum class KeyKind : int { floating, signed_int, unsigned_int };

__device__ std::uint32_t sortable_bits(std::uint32_t u, KeyKind kind, bool descending) {
  if (kind == KeyKind::floating) u = ordered_bits<float>(u, descending);
  else if (kind == KeyKind::signed_int) u ^= 0x80000000u;
  return descending ? ~u : u;
}

template <class K>
constexpr KeyKind key_kind() {
  return std::is_floating_point_v<K> ? KeyKind::floating
         : std::is_signed_v<K>       ? KeyKind::signed_int
                                     : KeyKind::unsigned_int;
}

// Rows of up to 4096 4-byte keys: one block sorts each row in shared memory (cub::BlockRadixSort of the
// keys' sortable bits with their positions), one read and one write of the row. The raw keys stay in shared
// memory, so sorted values come out with their bits (-0.0, NaN payloads) and an in-place sort reads nothing
// it has overwritten.
template <int Threads, int Items>
__global__ void __launch_bounds__(Threads) block_sort_rows(const std::uint32_t* keys, std::uint32_t* values,
                                                           std::int64_t* indices, std::int64_t n, KeyKind kind,
                                                           bool descending) {
  using Sort = cub::BlockRadixSort<std::uint32_t, Threads, Items, std::int32_t>;
  __shared__ typename Sort::TempStorage temp;
  __shared__ std::uint32_t raw[Threads * Items];
  const std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * n;
  std::uint32_t k[Items];
  std::int32_t pos[Items];
#pragma unroll
  for (int j = 0; j < Items; ++j) {  // blocked: the radix sort keeps ties in this order
    const int i = static_cast<int>(threadIdx.x) * Items + j;
    pos[j] = i;
    // padding sorts after every key, a key of all ones included: it comes later
    k[j] = 0xFFFFFFFFu;
    if (i < n) {
      raw[i] = keys[first + i];
      k[j] = sortable_bits(raw[i], kind, descending);
    }
  }
  Sort(temp).SortBlockedToStriped(k, pos);  // ends with a barrier: raw is complete
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    const int i = j * Threads + static_cast<int>(threadIdx.x);
    if (i < n) {
      if (indices) indices[first + i] = pos[j];
      if (values) values[first + i] = raw[pos[j]];
    }
  }
}

constexpr std::int64_t kBlockSortMax = 4096;

template <int Threads, int Items>
void launch_block_sort(const void* keys, void* values, std::int64_t* indices, std::int64_t rows, std::int64_t n,
                       KeyKind kind, bool descending, cudaStream_t s) {
  block_sort_rows<Threads, Items><<<static_cast<unsigned>(rows), Threads, 0, s>>>(
      static_cast<const std::uint32_t*>(keys), static_cast<std::uint32_t*>(values), indices, n, kind, descending);
  NPGPU_CHECK_LAUNCH("sort (rows in blocks)");
}

// The smallest tile that holds a row of n <= kBlockSortMax keys.
void block_sort(const void* keys, void* values, std::int64_t* indices, std::int64_t rows, std::int64_t n,
                KeyKind kind, bool descending, cudaStream_t s) {
  if (n <= 128) return launch_block_sort<64, 2>(keys, values, indices, rows, n, kind, descending, s);
  if (n <= 256) return launch_block_sort<64, 4>(keys, values, indices, rows, n, kind, descending, s);
  if (n <= 512) return launch_block_sort<128, 4>(keys, values, indices, rows, n, kind, descending, s);
  if (n <= 1024) return launch_block_sort<128, 8>(keys, values, indices, rows, n, kind, descending, s);
  if (n <= 2048) return launch_block_sort<256, 8>(keys, values, indices, rows, n, kind, descending, s);
  launch_block_sort<512, 8>(keys, values, indices, rows, n, kind, descending, s);
}

// Rows of 4-byte keys as one radix sort: each element becomes one 8-byte word, its row above its key's bits
// in ascending order (complemented for descending) above its position in the row. Sorting the words by row
// and key bits moves everything in one 8-byte scatter a pass (instead of a 4-byte key's and a 4-byte
// position's), and sorts every row at once; equal keys keep their order, since the passes are stable.
struct WordLayout {
  std::int64_t n;  // keys per row
  int pos_bits;    // the position's width; the key's 32 bits start there
};

template <class K>
__global__ void key_position_words(const K* keys, std::uint64_t* out, std::int64_t total, WordLayout layout,
                                   bool descending) {
  const bool one_row = layout.n >= total;  // no 64-bit division per element
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += stride) {
    const std::uint32_t u = sortable_bits(reinterpret_cast<const std::uint32_t*>(keys)[i], key_kind<K>(), descending);
    const std::int64_t row = one_row ? 0 : i / layout.n;
    out[i] = (static_cast<std::uint64_t>(row) << 32 | u) << layout.pos_bits |
             static_cast<std::uint64_t>(i - row * layout.n);
  }
}

// The sorted words' positions (indices, when asked) and the keys they name (values, when asked).
template <class K>
__global__ void word_positions(const std::uint64_t* words, const K* keys, K* values, std::int64_t* indices,
                               std::int64_t total, WordLayout layout) {
  const std::uint64_t mask = (std::uint64_t{1} << layout.pos_bits) - 1;
  const bool one_row = layout.n >= total;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += stride) {
    const auto pos = static_cast<std::int64_t>(words[i] & mask);
    if (indices) indices[i] = pos;
    if (values) values[i] = keys[(one_row ? 0 : i - i % layout.n) + pos];
  }
}

template <class T>
__global__ void gather_rows(const T* data, const std::int64_t* pos, T* values, std::int64_t total, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += stride)
    values[i] = data[i - i % n + pos[i]];
}

// Complex keys: positions ordered by (row, NumPy's order of the values).
template <class T>
struct PositionOrder {
  const T* data;
  std::int64_t n;
  bool descending;
  __device__ bool operator()(std::int64_t a, std::int64_t b) const {
    const std::int64_t ra = a / n, rb = b / n;
    if (ra != rb) return ra < rb;
    return descending ? detail::sort_greater(data[a], data[b]) : detail::sort_less(data[a], data[b]);
  }
};

template <class T>
__global__ void gather_sorted(const T* data, const std::int64_t* pos, T* values, std::int64_t* indices,
                              std::int64_t total, std::int64_t n) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += stride) {
    const std::int64_t p = pos[i];
    if (values) values[i] = data[p];
    if (indices) indices[i] = p % n;
  }
}

template <class T>
void merge_sort_positions(const T* data, T* values, std::int64_t* indices, std::int64_t rows, std::int64_t n,
                          bool descending, int device, cudaStream_t s) {
  const std::int64_t total = rows * n;
  DeviceBuffer pos_buf(total * 8, device, s);
  auto* pos = static_cast<std::int64_t*>(pos_buf.data());
  sort_detail::launch_row_iota(pos, total, 0, s);
  const PositionOrder<T> order{data, n, descending};
  cub_run([&](void* t, std::size_t& b) { return cub::DeviceMergeSort::StableSortKeys(t, b, pos, total, order, s); },
          device, s);
  // values may be data itself (an in-place sort): gather into a scratch copy first
  DeviceBuffer tmp(values == data ? total * static_cast<std::int64_t>(sizeof(T)) : 8, device, s);
  T* dst = values == data ? static_cast<T*>(tmp.data()) : values;
  gather_sorted<<<blocks_for(total), kThreads, 0, s>>>(data, pos, dst, indices, total, n);
  NPGPU_CHECK_LAUNCH("sort (gather)");
  if (values == data)
    NPGPU_CUDA_TRY(cudaMemcpyAsync(values, dst, static_cast<std::size_t>(total) * sizeof(T), cudaMemcpyDeviceToDevice, s));
}

// Float rows: ordered unsigned keys sorted with positions, values gathered through them.
template <class K>
void float_rows(const K* keys, K* values, std::int64_t* indices, std::int64_t rows, std::int64_t n, bool descending,
                int device, cudaStream_t s) {
  using U = typename float_bits<K>::U;
  const std::int64_t total = rows * n;
  DeviceBuffer ukeys(total * static_cast<std::int64_t>(sizeof(U)), device, s);
  DeviceBuffer sorted(total * static_cast<std::int64_t>(sizeof(U)), device, s);
  DeviceBuffer positions(indices ? 8 : total * 8, device, s);
  std::int64_t* pos = indices ? indices : static_cast<std::int64_t*>(positions.data());
  ordered_keys<K><<<blocks_for(total), kThreads, 0, s>>>(keys, static_cast<U*>(ukeys.data()), total, descending);
  NPGPU_CHECK_LAUNCH("sort (keys)");
  radix_sort<U>(static_cast<const U*>(ukeys.data()), static_cast<U*>(sorted.data()), pos, rows, n, descending,
                device, s);
  if (!values) return;
  DeviceBuffer tmp(values == keys ? total * static_cast<std::int64_t>(sizeof(K)) : 8, device, s);
  K* dst = values == keys ? static_cast<K*>(tmp.data()) : values;
  gather_rows<K><<<blocks_for(total), kThreads, 0, s>>>(keys, pos, dst, total, n);
  NPGPU_CHECK_LAUNCH("sort (gather)");
  if (values == keys)
    NPGPU_CUDA_TRY(cudaMemcpyAsync(values, dst, static_cast<std::size_t>(total) * sizeof(K), cudaMemcpyDeviceToDevice, s));
}

// The bits of key i * step that differ from key 0's.
template <class K>
struct DiffersFromFirst {
  const K* keys;
  std::int64_t step;
  __host__ __device__ std::make_unsigned_t<K> operator()(std::int64_t i) const {
    return static_cast<std::make_unsigned_t<K>>(keys[i * step] ^ keys[0]);
  }
};

struct BitOr {
  template <class U>
  __host__ __device__ U operator()(U a, U b) const { return a | b; }
};

// The OR of the bits in which keys i * step (i < count) differ from key 0, read back (waits for the device).
template <class K>
std::make_unsigned_t<K> differing_bits(const K* keys, std::int64_t count, std::int64_t step, int device,
                                       cudaStream_t s) {
  using U = std::make_unsigned_t<K>;
  DeviceBuffer out(sizeof(U), device, s);
  auto it = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), DiffersFromFirst<K>{keys, step});
  cub_run([&](void* t, std::size_t& b) {
    return cub::DeviceReduce::Reduce(t, b, it, static_cast<U*>(out.data()), count, BitOr{}, U{0}, s);
  }, device, s);
  U host = 0;
  NPGPU_CUDA_TRY(cudaMemcpyAsync(&host, out.data(), sizeof(U), cudaMemcpyDeviceToHost, s));
  NPGPU_CUDA_TRY(cudaStreamSynchronize(s));
  return host;
}

__global__ void take_every(const std::uint8_t* keys, std::int64_t step_bytes, int width, std::int64_t count,
                           std::uint8_t* out) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count)
    for (int b = 0; b < width; ++b) out[i * width + b] = keys[i * step_bytes + b];
}

// Keys i * step (i < count), copied to the host (waits for the device).
template <class K>
std::vector<K> sample_keys(const K* keys, std::int64_t count, std::int64_t step, int device, cudaStream_t s) {
  DeviceBuffer picked(count * static_cast<std::int64_t>(sizeof(K)), device, s);
  take_every<<<static_cast<unsigned>((count + kThreads - 1) / kThreads), kThreads, 0, s>>>(
      reinterpret_cast<const std::uint8_t*>(keys), step * static_cast<std::int64_t>(sizeof(K)),
      static_cast<int>(sizeof(K)), count, static_cast<std::uint8_t*>(picked.data()));
  NPGPU_CHECK_LAUNCH("sort (sample)");
  std::vector<K> host(static_cast<std::size_t>(count));
  NPGPU_CUDA_TRY(cudaMemcpyAsync(host.data(), picked.data(), host.size() * sizeof(K), cudaMemcpyDeviceToHost, s));
  NPGPU_CUDA_TRY(cudaStreamSynchronize(s));
  return host;
}

// How many of the values repeat one already seen (an open-addressing set, twice the values' count in slots).
std::int64_t repeats(const std::vector<std::uint32_t>& values) {
  std::vector<std::uint64_t> slots(values.size() * 2 + 1, 0);  // 0: empty, else value + 1
  std::int64_t count = 0;
  for (std::uint32_t v : values) {
    std::size_t h = static_cast<std::size_t>((v * 0x9E3779B97F4A7C15ull) >> 20) % slots.size();
    while (slots[h] != 0 && slots[h] != v + 1ull) h = (h + 1) % slots.size();
    if (slots[h] != 0) ++count;
    slots[h] = v + 1ull;
  }
  return count;
}

// How one long row of integer keys sorts. end_bit (radix_sort's; 0: all bits): the bit below which the keys
// differ, so keys that share their top bits (labels, counts, indices) sort in fewer 8-bit passes, e.g. 20-bit
// values in 3 passes instead of 4 (int32) or 8 (int64). top_bits: 8-byte keys that differ in at least 48
// bits and whose top 32 of those rarely repeat in a sample sort those 32 bits alone (4 passes, not 6 to 8),
// then finish each run of equal top bits in place (finish_top_bits_runs). A sample of 4096 keys first: when it
// already differs in the top byte, the exact pass over every key for end_bit is not run. Neither while the
// stream is captured into a graph (reading answers back would break the capture) nor for short rows (the
// waits would cost more than the passes they save).
struct SortPlan {
  int end_bit = 0;
  bool top_bits = false;
};
constexpr int kTopBits = 32;

template <class K>
SortPlan plan_integer_sort(const K* keys, std::int64_t n, int device, cudaStream_t s) {
  if constexpr (!std::is_integral_v<K> || sizeof(K) < 4) {
    return {};
  } else {
    using U = std::make_unsigned_t<K>;
    constexpr int bits = static_cast<int>(sizeof(K) * 8);
    if (n < (std::int64_t{1} << 23)) return {};
    cudaStreamCaptureStatus cap = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(s, &cap) != cudaSuccess || cap != cudaStreamCaptureStatusNone) {
      (void)cudaGetLastError();
      return {};
    }
    auto width = [](U v) {
      int w = 0;
      while (v != 0) { ++w; v >>= 1; }
      return w;
    };
    constexpr std::int64_t kSample = 4096;
    const std::vector<K> sample = sample_keys(keys, kSample, n / kSample, device, s);
    U sample_bits = 0;
    for (K k : sample) sample_bits |= static_cast<U>(k ^ sample[0]);
    SortPlan plan;
    if (width(sample_bits) <= bits - 8) {
      const int w = width(differing_bits(keys, n, 1, device, s));
      plan.end_bit = w > bits - 8 ? 0 : std::max(w, 1);
    }
    const int used = plan.end_bit ? plan.end_bit : bits;
    if (sizeof(K) == 8 && used >= 48) {
      std::vector<std::uint32_t> tops;
      tops.reserve(sample.size());
      for (K k : sample) tops.push_back(static_cast<std::uint32_t>(static_cast<U>(k) >> (used - kTopBits)));
      plan.top_bits = repeats(tops) <= 1;
    }
    return plan;
  }
}

// Finishes a radix sort of only the bits from `shift` up: each run of keys equal in those bits (at most
// kMaxRun long) is insertion-sorted in place by its first thread, stably, positions moving with their keys. A
// longer run sets *too_long and the caller sorts every bit instead. Permuting a run keeps each key's top bits
// where they were, so the other threads' run-start tests read the same top bits whichever writes land first.
constexpr std::int64_t kMaxRun = 32;

template <class K, bool Descending>
__global__ void finish_top_bits_runs(K* keys, std::int64_t* pos, std::int64_t n, int shift, int* too_long) {
  using U = std::make_unsigned_t<K>;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const U top = static_cast<U>(keys[i]) >> shift;
    if (i > 0 && static_cast<U>(keys[i - 1]) >> shift == top) continue;
    std::int64_t end = i + 1;
    while (end < n && end - i <= kMaxRun && static_cast<U>(keys[end]) >> shift == top) ++end;
    if (end - i == 1) continue;
    if (end - i > kMaxRun) {
      *too_long = 1;
      continue;
    }
    for (std::int64_t k = i + 1; k < end; ++k) {
      const K key = keys[k];
      const std::int64_t p = pos ? pos[k] : 0;
      std::int64_t m = k;
      for (; m > i && (Descending ? keys[m - 1] < key : key < keys[m - 1]); --m) {
        keys[m] = keys[m - 1];
        if (pos) pos[m] = pos[m - 1];
      }
      keys[m] = key;
      if (pos) pos[m] = p;
    }
  }
}

// One row of n integer keys sorted from src into dst as radix_sort would, through the top-bits plan: the top
// kTopBits of the `used` differing bits in radix passes, then the runs; a run past kMaxRun (read back: a wait)
// sends the row through the full sort. src is left as it was.
template <class K>
void sort_top_bits(const K* src, K* dst, std::int64_t* idx_out, std::int64_t n, bool descending, int end_bit,
                   int device, cudaStream_t s) {
  const int used = end_bit ? end_bit : static_cast<int>(sizeof(K) * 8);
  radix_sort<K>(src, dst, idx_out, 1, n, descending, device, s, end_bit, used - kTopBits);
  DeviceBuffer flag(sizeof(int), device, s);
  NPGPU_CUDA_TRY(cudaMemsetAsync(flag.data(), 0, sizeof(int), s));
  auto* too_long = static_cast<int*>(flag.data());
  if (descending)
    finish_top_bits_runs<K, true><<<blocks_for(n), kThreads, 0, s>>>(dst, idx_out, n, used - kTopBits, too_long);
  else
    finish_top_bits_runs<K, false><<<blocks_for(n), kThreads, 0, s>>>(dst, idx_out, n, used - kTopBits, too_long);
  NPGPU_CHECK_LAUNCH("sort (runs of equal top bits)");
  int host = 0;
  NPGPU_CUDA_TRY(cudaMemcpyAsync(&host, too_long, sizeof(int), cudaMemcpyDeviceToHost, s));
  NPGPU_CUDA_TRY(cudaStreamSynchronize(s));
  if (host) radix_sort<K>(src, dst, idx_out, 1, n, descending, device, s, end_bit);
}

constexpr int bit_width(std::uint64_t v) {
  int w = 0;
  for (; v != 0; v >>= 1) ++w;
  return w;
}

// Whether `rows` rows of n 4-byte keys, too long for block_sort, sort as words, and their layout. One row:
// float keys with positions (integer keys sort faster as CUB's key/position pairs). Several rows, 2^22 keys
// in all, whose row, key and position fit in 64 bits: float sorts and every argsort (integer keys alone sort
// faster through CUB's segmented sort). Measured on an H200: docs/performance-notes.md, "Sorting rows".
bool word_layout(std::int64_t rows, std::int64_t n, bool floating, bool indices, WordLayout* layout) {
  if (rows == 1) {
    *layout = {n, 32};
    return floating && indices && n <= INT32_MAX;
  }
  *layout = {n, bit_width(static_cast<std::uint64_t>(n - 1))};
  return n > kBlockSortMax && rows * n >= (std::int64_t{1} << 22) &&
         bit_width(static_cast<std::uint64_t>(rows - 1)) + 32 + layout->pos_bits <= 64 && (floating || indices);
}

// Rows of 4-byte keys sorted through key_position_words: values (may be keys itself) and/or indices.
template <class K>
void sort_words_rows(const K* keys, K* values, std::int64_t* indices, std::int64_t rows, std::int64_t n,
                     WordLayout layout, bool descending, int device, cudaStream_t s) {
  const std::int64_t total = rows * n;
  if (total == 0) return;
  DeviceBuffer words(total * 8, device, s), alt(total * 8, device, s);
  auto* w = static_cast<std::uint64_t*>(words.data());
  key_position_words<K><<<blocks_for(total), kThreads, 0, s>>>(keys, w, total, layout, descending);
  NPGPU_CHECK_LAUNCH("sort (keys and positions)");
  const int row_bits = bit_width(static_cast<std::uint64_t>(rows - 1));
  const std::uint64_t* sorted = sort_detail::sort_words(w, static_cast<std::uint64_t*>(alt.data()), total,
                                                        layout.pos_bits, layout.pos_bits + 32 + row_bits, device, s);
  if (values == keys) {  // an in-place sort gathers from a copy of its keys, in the buffer the words left
    void* spare = sorted == w ? alt.data() : words.data();
    NPGPU_CUDA_TRY(cudaMemcpyAsync(spare, keys, static_cast<std::size_t>(total) * sizeof(K), cudaMemcpyDeviceToDevice,
                                   s));
    keys = static_cast<const K*>(spare);
  }
  word_positions<K><<<blocks_for(total), kThreads, 0, s>>>(sorted, keys, values, indices, total, layout);
  NPGPU_CHECK_LAUNCH("sort (positions)");
}

}  // namespace

void sort_rows(const ArrayView& keys, const ArrayView* values, const ArrayView* indices, std::int64_t rows,
               std::int64_t n, bool descending, StreamHandle stream) {
  auto s = static_cast<cudaStream_t>(stream);
  const int device = keys.device;
  const std::int64_t total = rows * n;
  auto* idx_out = indices ? static_cast<std::int64_t*>(indices->data) : nullptr;
  detail::dispatch_storage_dtype(keys.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (detail::is_complex<T>::value) {
      merge_sort_positions(static_cast<const T*>(keys.data), values ? static_cast<T*>(values->data) : nullptr,
                           idx_out, rows, n, descending, device, s);
    } else if constexpr (std::is_same_v<T, detail::bfloat16>) {
      throw TypeError("sort_rows: bfloat16 keys are not supported on the GPU");
    } else {
      using K = typename radix_key<T>::type;
      constexpr bool floating = std::is_floating_point_v<K> || std::is_same_v<K, __half>;
      const K* src = static_cast<const K*>(keys.data);
      K* out = values ? static_cast<K*>(values->data) : nullptr;
      if constexpr (sizeof(K) == 4) {
        // rows of 64 to 4096 keys (or one row of up to 4096) in blocks, many longer rows as words
        if (total == 0) return;
        if (n <= kBlockSortMax && (rows == 1 || n >= 64) && rows <= INT32_MAX) {
          return block_sort(src, out, idx_out, rows, n, key_kind<K>(), descending, s);
        }
        WordLayout layout;
        if (word_layout(rows, n, floating, idx_out != nullptr, &layout))
          return sort_words_rows<K>(src, out, idx_out, rows, n, layout, descending, device, s);
      }
      if constexpr (floating) {
        if (rows > 1) return float_rows<K>(src, out, idx_out, rows, n, descending, device, s);
      }
      // The radix sort reads its input while writing its output: canonical NaNs (with positions), or an
      // in-place sort, go through a scratch copy of the keys. A sort without positions moves NaNs afterwards.
      const std::int64_t bytes = total * static_cast<std::int64_t>(sizeof(K));
      const bool in_place = out && values->data == keys.data;
      const bool canonical = floating && idx_out != nullptr;
      DeviceBuffer prepared(canonical || in_place ? bytes : 8, device, s);
      bool copied = false;
      if constexpr (floating) {
        if (canonical) {
          canonical_nans<K><<<blocks_for(total), kThreads, 0, s>>>(src, static_cast<K*>(prepared.data()), total,
                                                                   descending);
          NPGPU_CHECK_LAUNCH("sort (NaNs)");
          src = static_cast<const K*>(prepared.data());
          copied = true;
        }
      }
      if (in_place && !copied) {
        NPGPU_CUDA_TRY(cudaMemcpyAsync(prepared.data(), src, static_cast<std::size_t>(bytes), cudaMemcpyDeviceToDevice, s));
        src = static_cast<const K*>(prepared.data());
      }
      DeviceBuffer scratch(out ? 8 : bytes, device, s);  // sorted keys nobody asked for
      const SortPlan plan = rows == 1 ? plan_integer_sort<K>(src, n, device, s) : SortPlan{};
      K* dst = out ? out : static_cast<K*>(scratch.data());
      if constexpr (std::is_integral_v<K> && sizeof(K) == 8) {
        if (plan.top_bits) return sort_top_bits<K>(src, dst, idx_out, n, descending, plan.end_bit, device, s);
      }
      radix_sort<K>(src, dst, idx_out, rows, n, descending, device, s, plan.end_bit);
      if constexpr (floating) {
        if (!canonical && out) nans_to_back<K>(out, total, descending, device, s);
      }
    }
  });
}

}  // namespace npgpu::cuda
