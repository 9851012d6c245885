#pragma once
// Internal: moving host arrays through the pinned staging ring. run_staged() splits n elements into chunks
// that fit a ring slot; for each chunk it copies the inputs into the slot's pinned memory, uploads them,
// runs `compute` on the chunk's device pointers, downloads the outputs and, once that slot comes round
// again, copies them to their host arrays. Slots have their own streams, so uploads, kernels and downloads
// of neighbouring chunks overlap; the calling thread queues one chunk's CUDA work while other threads copy
// the next chunk's inputs. Operands already in pinned memory skip the copies and move by DMA directly.
#include <cstdint>
#include <functional>

#include "npgpu/memory.hpp"
#include "npgpu/runtime.hpp"

namespace npgpu::detail {

struct StagedOperand {
  void* host;            // C-contiguous host memory
  std::int64_t itemsize; // bytes per element
  bool output;           // written by compute (downloaded); otherwise read (uploaded)
};

using ChunkCompute = std::function<void(void* const* dev_ptrs, std::int64_t count, StreamHandle stream)>;

void run_staged(int device, StreamHandle stream, const StagedOperand* ops, int nops, std::int64_t n,
                const ChunkCompute& compute);

StagingConfig staging_config();
void set_staging_config(const StagingConfig& cfg);

}  // namespace npgpu::detail
