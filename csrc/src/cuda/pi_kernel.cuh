#pragma once
// Internal (included by random.cu only): the monte_carlo_pi kernel. Point scheme and exact tests in
// common/philox.hpp (8 points of 8-bit cells per Philox call).
//
// Hot path, per thread and Philox call: the 8 cells' q = kx^2 + ky^2, the sure hits (q <= kPiSureInside)
// counted from a sign bit and a flag set when a cell is a candidate (kPiSureInside < q < 2^16, about 1 cell
// in 117). A call with a candidate (about 1 in 15) is not settled in place, where a warp would run the
// exact test for one thread while 31 wait: its index goes into a per-warp queue in shared memory (slots
// taken in lane order through a ballot), and whenever 32 calls are queued each lane settles one
// (pi_settle: the call's words again, then pi_candidate_hits). Loops run a warp-uniform number of
// iterations so that every ballot has the whole warp; threads with no call left in the last iteration pass a dead one.
//
// Variants of the fast test (the count never depends on them):
//   Conv 0: floats: kx, ky as 2^23 + byte from a byte permute, minus 2^23 (exact), q - kPiSureInside - 1/2
//           from two fused multiply-adds (exact in float32): hit = sign bit, candidate = bits < 725.0f.
//   Conv 1: integer dot product of bytes: dp4a(w, w & 0xFFFF, -kPiSureInside - 1) = q - 64811 for the low
//           half's point (w & 0xFFFF0000 for the high half's): hit = sign bit, candidate = value < 725.
//   Conv 2: low-half points as Conv 0, high-half points as Conv 1 (spreads the work over the FP32 and
//           integer pipes).
// U Philox calls per thread per iteration (independent work for the multiply pipe). The default, Conv 1 with
// U = 2 and two waves of blocks, was the fastest in sweeps of NPGPU_PI_VARIANT/UNROLL/GRID
// (docs/performance-notes.md).

namespace npgpu::cuda::pi {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kQueue = 256;  // slots per warp: <= 31 waiting + 32 per call of an iteration (U <= 7)

// Per warp: the indices of the calls waiting to be settled (a ring; head and tail count pushes and pops).
struct Queue {
  unsigned long long call[kWarps][kQueue];
};

// The fast test of the two points of word w: adds their sure hits to c, ORs "a candidate" into band.
template <int Conv>
__device__ __forceinline__ void pi_word(std::uint32_t w, std::uint32_t& c, bool& band) {
  constexpr std::uint32_t kC = detail::kPiCandidates;
  constexpr float kCf = static_cast<float>(detail::kPiCandidates);
  constexpr float kOff = static_cast<float>(detail::kPiSureInside) + 0.5f;
  std::uint32_t t0, t1;
  if constexpr (Conv == 0 || Conv == 2) {
    const float x = __fadd_rn(__uint_as_float(__byte_perm(w, 0x4B000000u, 0x7540)), -8388608.0f);
    const float y = __fadd_rn(__uint_as_float(__byte_perm(w, 0x4B000000u, 0x7541)), -8388608.0f);
    t0 = __float_as_uint(__fmaf_rn(x, x, __fmaf_rn(y, y, -kOff)));
  } else {
    t0 = __dp4a(w, w & 0xFFFFu, 0u - (detail::kPiSureInside + 1));
  }
  if constexpr (Conv == 0) {
    const float x = __fadd_rn(__uint_as_float(__byte_perm(w, 0x4B000000u, 0x7542)), -8388608.0f);
    const float y = __fadd_rn(__uint_as_float(__byte_perm(w, 0x4B000000u, 0x7543)), -8388608.0f);
    t1 = __float_as_uint(__fmaf_rn(x, x, __fmaf_rn(y, y, -kOff)));
  } else {
    t1 = __dp4a(w, w & 0xFFFF0000u, 0u - (detail::kPiSureInside + 1));
  }
  c += (t0 >> 31) + (t1 >> 31);
  if constexpr (Conv == 0 || Conv == 2) {
    band |= t0 < __float_as_uint(kCf);
  } else {
    band |= t0 < kC;
  }
  if constexpr (Conv == 0) {
    band |= t1 < __float_as_uint(kCf);
  } else {
    band |= t1 < kC;
  }
}

// Queues call j if `band` (slots in lane order); whole warp.
__device__ __forceinline__ void pi_push(unsigned long long* q, std::uint32_t lt_mask, std::uint32_t& head, bool band,
                                        std::uint64_t j) {
  const unsigned m = __ballot_sync(0xffffffffu, band);
  const std::uint32_t s = (head + static_cast<std::uint32_t>(__popc(m & lt_mask))) & (kQueue - 1);
  if (band) q[s] = j;
  head += static_cast<std::uint32_t>(__popc(m));
}

// The hits of a queued call that its fast test did not count: its words again (the queue holds only the
// index), its candidates (the same dp4a test as the hot path) either wholly inside ((kx + 1)^2 + (ky + 1)^2
// = q + 2 (kx + ky) + 2 <= 2^16, i.e. r + 2 (kx + ky) <= 723 for r = q - kPiSureInside - 1) or straddling,
// then the straddling points' fine tests, one per round so that the warp's lanes run them together. Out of
// line: the hot loop stays small.
__device__ __noinline__ std::uint32_t pi_settle(std::uint64_t key, std::uint64_t j) {
  const detail::Philox4 w = detail::philox_block(key, j, 0, detail::kDomainPi);
  constexpr std::uint32_t kUpper = detail::kPiR2 - detail::kPiSureInside - 3;
  std::uint32_t hits = 0, fine = 0;
#pragma unroll
  for (int p = 0; p < detail::kPiPointsPerCall; ++p) {
    const std::uint32_t half = (p & 1) ? (w.v[p >> 1] >> 16) : (w.v[p >> 1] & 0xFFFFu);
    const std::uint32_t r = __dp4a(half, half, 0u - (detail::kPiSureInside + 1));
    if (r < detail::kPiCandidates) {
      if (r + 2 * ((half & 0xFFu) + (half >> 8)) <= kUpper)
        hits += 1;
      else
        fine |= 1u << p;
    }
  }
  while (fine != 0) {
    const int p = __ffs(static_cast<int>(fine)) - 1;
    fine &= fine - 1;
    const std::uint32_t half = detail::pi_cell_half(w, p);
    hits += detail::pi_fine_inside(key, detail::kPiPointsPerCall * j + static_cast<std::uint64_t>(p), half & 0xFFu,
                                   half >> 8);
  }
  return hits;
}

// Settles 32 queued calls at a time, one a lane, while 32 are waiting; whole warp.
__device__ __forceinline__ std::uint32_t pi_drain(unsigned long long* q, int lane, std::uint32_t head,
                                                  std::uint32_t& tail, std::uint64_t key) {
  std::uint32_t hits = 0;
  while (head - tail >= 32) {
    __syncwarp();
    const std::uint64_t j = q[(tail + static_cast<std::uint32_t>(lane)) & (kQueue - 1)];
    __syncwarp();
    tail += 32;
    hits += pi_settle(key, j);
  }
  return hits;
}

// Philox call j. With a 32-bit J the counter's word 1 is the constant 0 (calls < 2^31): the second
// round's first multiply no longer depends on j and leaves the loop.
template <class J>
__device__ __forceinline__ detail::Philox4 pi_call(J j, const detail::PhiloxRoundKeys& rk) {
  const std::uint32_t hi = sizeof(J) > 4 ? static_cast<std::uint32_t>(static_cast<std::uint64_t>(j) >> 32) : 0u;
  return detail::philox4x32_10_rk(static_cast<std::uint32_t>(j), hi, 0, detail::kDomainPi, rk);
}

// Sum of a 64-bit value over the block, in thread 0.
__device__ unsigned long long pi_block_sum(unsigned long long x) {
  __shared__ unsigned long long warp_sums[kWarps];
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) x += __shfl_down_sync(0xffffffffu, x, o);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_sums[warp] = x;
  __syncthreads();
  if (warp == 0) {
    x = lane < kWarps ? warp_sums[lane] : 0ull;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) x += __shfl_down_sync(0xffffffffu, x, o);
  }
  return x;
}

// Points of monte_carlo_pi in calls first64 .. end64 - 1 (8 points each) plus the first `rem` points of call
// end64: the launch's count is added into scratch[0]; the last block to finish (ticket scratch[1]) writes
// it to *result (mapped host memory) and zeroes the scratch for the next launch.
template <int Conv, int U, class J>
__global__ void __launch_bounds__(kThreads) pi_kernel(std::uint64_t first64, std::uint64_t end64,
                                                      const detail::PhiloxRoundKeys rk, std::uint64_t key, int rem,
                                                      unsigned long long* __restrict__ scratch,
                                                      unsigned long long* __restrict__ result) {
  __shared__ Queue queue;
  const int lane = static_cast<int>(threadIdx.x & 31), warp = static_cast<int>(threadIdx.x >> 5);
  unsigned long long* const q = queue.call[warp];
  const std::uint32_t lt_mask = (1u << lane) - 1u;
  const J stop = static_cast<J>(end64);
  const J stride = static_cast<J>(gridDim.x) * static_cast<J>(blockDim.x);
  const J j0 = static_cast<J>(first64) + static_cast<J>(blockIdx.x) * static_cast<J>(blockDim.x) +
               static_cast<J>(warp) * 32;
  // Iterations in which every lane of the warp has a call, and in which lane 0 has one (at most one more).
  const J full = j0 + 31 < stop ? (stop - j0 - 31 + stride - 1) / stride : 0;
  const J any = j0 < stop ? (stop - j0 + stride - 1) / stride : 0;
  std::uint32_t head = 0, tail = 0;
  unsigned long long mine = 0;
  J j = j0 + static_cast<J>(lane);
  J k = 0;
  const J full_u = full - full % U;
  while (k < full_u) {
    // At most 2^20 iterations counted in 32 bits at a time (fewer than 16U + 8 hits each).
    const J end = full_u - k > (J(1) << 20) * U ? k + (J(1) << 20) * U : full_u;
    std::uint32_t c = 0;
    for (; k < end; k += U, j += U * stride) {
      detail::Philox4 w[U];
#pragma unroll
      for (int u = 0; u < U; ++u) w[u] = pi_call(j + u * stride, rk);
      bool band[U];
#pragma unroll
      for (int u = 0; u < U; ++u) {
        band[u] = false;
#pragma unroll
        for (int l = 0; l < 4; ++l) pi_word<Conv>(w[u].v[l], c, band[u]);
      }
#pragma unroll
      for (int u = 0; u < U; ++u) pi_push(q, lt_mask, head, band[u], j + u * stride);
      c += pi_drain(q, lane, head, tail, key);
    }
    mine += c;
  }
  // The last iterations one call at a time; a lane past the end passes a dead call.
  for (; k < any; ++k, j += stride) {
    const bool live = j < stop;
    const detail::Philox4 w = pi_call(j, rk);
    std::uint32_t c = 0;
    bool band = false;
#pragma unroll
    for (int l = 0; l < 4; ++l) pi_word<Conv>(w.v[l], c, band);
    pi_push(q, lt_mask, head, band && live, j);
    mine += live ? c : 0u;
    mine += pi_drain(q, lane, head, tail, key);
  }
  // The calls still queued (fewer than 32).
  __syncwarp();
  if (static_cast<std::uint32_t>(lane) < head - tail)
    mine += pi_settle(key, q[(tail + static_cast<std::uint32_t>(lane)) & (kQueue - 1)]);
  if (blockIdx.x == 0 && threadIdx.x == 0 && rem > 0) mine += detail::pi_hits_exact(key, stop, rem);
  const unsigned long long s = pi_block_sum(mine);
  if (threadIdx.x == 0) {
    atomicAdd(&scratch[0], s);
    __threadfence();
    const unsigned long long ticket = atomicAdd(&scratch[1], 1ull);
    if (ticket == gridDim.x - 1) {
      __threadfence();
      const unsigned long long total = atomicAdd(&scratch[0], 0ull);
      *reinterpret_cast<volatile unsigned long long*>(result) = total;
      scratch[0] = 0;
      scratch[1] = 0;
    }
  }
}

}  // namespace npgpu::cuda::pi
