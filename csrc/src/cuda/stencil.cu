// CUDA backend of the 2-D stencils. Two kernels, both double-buffered (a pass reads one buffer and writes
// another, so no block ever reads what another block of the same pass writes):
// - step_kernel: one step (or the Laplacian alone) straight from global memory;
// - multi_step_kernel: temporal blocking. A block loads a 64-wide tile plus a halo of K cells into shared
//   memory, does up to K steps there (ping-pong between two shared buffers, the valid region shrinking by one
//   cell per step), and writes the tile's interior: one pass over global memory per K steps. Each thread
//   sweeps a column strip keeping the cells above and at its position in registers (3 shared loads a cell).
// The per-cell math is common/stencil_ops.hpp, shared with the host backend.
#include <cuda_runtime.h>

#include <climits>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "common/backends.hpp"
#include "common/cuda_check.hpp"
#include "common/dispatch.hpp"
#include "common/stencil_ops.hpp"
#include "npgpu/errors.hpp"

namespace npgpu::cuda {
namespace {

using detail::diffuse;
using detail::ghost;
using detail::laplacian5;

constexpr int kBX = 32, kBY = 8;  // 256 threads

template <class T, Boundary B>
__global__ void __launch_bounds__(kBX * kBY)
    step_kernel(const T* __restrict__ src, T* __restrict__ dst, T* __restrict__ lap, std::int64_t rows,
                std::int64_t cols, T coeff) {
  const std::int64_t j = static_cast<std::int64_t>(blockIdx.x) * kBX + threadIdx.x;
  if (j >= cols) return;
  const std::int64_t row_step = static_cast<std::int64_t>(gridDim.y) * kBY;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.y) * kBY + threadIdx.y; i < rows; i += row_step) {
    const T* row = src + i * cols;
    const T c = row[j];
    T n, s, w, e;
    if constexpr (B == Boundary::Periodic) {
      n = src[(i > 0 ? i - 1 : rows - 1) * cols + j];
      s = src[(i < rows - 1 ? i + 1 : 0) * cols + j];
      w = row[j > 0 ? j - 1 : cols - 1];
      e = row[j < cols - 1 ? j + 1 : 0];
    } else {
      const T g = ghost<B>(c);
      n = i > 0 ? row[j - cols] : g;
      s = i < rows - 1 ? row[j + cols] : g;
      w = j > 0 ? row[j - 1] : g;
      e = j < cols - 1 ? row[j + 1] : g;
    }
    const T l = laplacian5(c, n, s, w, e);
    if (lap) lap[i * cols + j] = l;
    if (dst) dst[i * cols + j] = diffuse(c, l, coeff);
  }
}

template <class T>
struct Tile {
  static constexpr int EW = 64;                      // tile width with its halo
  static constexpr int EH = sizeof(T) == 4 ? 64 : 32;  // tile height with its halo (32 KiB of shared memory)
};

template <class T, Boundary B, int K>
__global__ void __launch_bounds__(kBX * kBY)
    multi_step_kernel(const T* __restrict__ src, T* __restrict__ dst, T* __restrict__ lap, std::int64_t rows,
                      std::int64_t cols, int tiles_x, int m, T coeff) {
  constexpr int EW = Tile<T>::EW, EH = Tile<T>::EH;
  constexpr int TX = EW - 2 * K, TY = EH - 2 * K;  // the interior this block writes
  constexpr bool kPeriodic = B == Boundary::Periodic;
  __shared__ T sm[2][EH][EW];
  const int tid = threadIdx.y * kBX + threadIdx.x;
  const std::int64_t bx = blockIdx.x % tiles_x, by = blockIdx.x / tiles_x;
  const std::int64_t row0 = by * TY - K, col0 = bx * TX - K;  // field coordinates of tile cell (0, 0)

  // A tile wholly inside the field (halo included) needs no boundary logic at all: the common case.
  const bool inside = row0 >= 0 && row0 + EH <= rows && col0 >= 0 && col0 + EW <= cols;
  if (inside) {
    const T* base = src + row0 * cols + col0;
    for (int idx = tid; idx < EH * EW; idx += kBX * kBY) {
      const int r = idx / EW, c = idx % EW;
      sm[0][r][c] = base[r * cols + c];
    }
  }
  for (int idx = inside ? EH * EW : tid; idx < EH * EW; idx += kBX * kBY) {
    const int r = idx / EW, c = idx % EW;
    std::int64_t gr = row0 + r, gc = col0 + c;
    T v;
    if constexpr (kPeriodic) {
      if (gr < 0 || gr >= rows) gr = detail::wrap_index(gr, rows);
      if (gc < 0 || gc >= cols) gc = detail::wrap_index(gc, cols);
      v = src[gr * cols + gc];
    } else {
      v = (gr >= 0 && gr < rows && gc >= 0 && gc < cols) ? src[gr * cols + gc] : T(0);
    }
    sm[0][r][c] = v;
  }
  __syncthreads();

  for (int s = 1; s <= m; ++s) {
    const T(*a)[EW] = sm[(s - 1) & 1];
    T(*b)[EW] = sm[s & 1];
    const int lo = s, hr = EH - s, hc = EW - s;  // cells valid after this step
    const int len = (hr - lo + kBY - 1) / kBY;
    const int rb = lo + static_cast<int>(threadIdx.y) * len;
    const int re = min(rb + len, hr);
    const bool last = s == m && lap != nullptr;
    if (inside && !last) {
      for (int c = lo + static_cast<int>(threadIdx.x); rb < re && c < hc; c += kBX) {
        T up = a[rb - 1][c], mid = a[rb][c];
        for (int r = rb; r < re; ++r) {
          const T down = a[r + 1][c];
          b[r][c] = diffuse(mid, laplacian5(mid, up, down, a[r][c - 1], a[r][c + 1]), coeff);
          up = mid;
          mid = down;
        }
      }
    } else if (rb < re) {
      for (int c = lo + static_cast<int>(threadIdx.x); c < hc; c += kBX) {
        const std::int64_t gc = col0 + c;
        const bool col_in = kPeriodic || (gc >= 0 && gc < cols);
        const bool has_w = kPeriodic || gc > 0;
        const bool has_e = kPeriodic || gc < cols - 1;
        const bool col_interior = c >= K && c < K + TX && gc < cols;
        T up = a[rb - 1][c], mid = a[rb][c];
        for (int r = rb; r < re; ++r) {
          const T down = a[r + 1][c];
          const std::int64_t gr = row0 + r;
          if (col_in && (kPeriodic || (gr >= 0 && gr < rows))) {
            const T g = ghost<B>(mid);
            const T n = (kPeriodic || gr > 0) ? up : g;
            const T so = (kPeriodic || gr < rows - 1) ? down : g;
            const T w = has_w ? a[r][c - 1] : g;
            const T e = has_e ? a[r][c + 1] : g;
            const T l = laplacian5(mid, n, so, w, e);
            b[r][c] = diffuse(mid, l, coeff);
            if (last && col_interior && r >= K && r < K + TY && gr < rows) lap[gr * cols + gc] = l;
          }
          up = mid;
          mid = down;
        }
      }
    }
    __syncthreads();
  }

  const T(*f)[EW] = sm[m & 1];
  for (int idx = tid; idx < TY * TX; idx += kBX * kBY) {
    const int r = idx / TX, c = idx % TX;
    const std::int64_t gr = by * TY + r, gc = bx * TX + c;
    if (gr < rows && gc < cols) dst[gr * cols + gc] = f[K + r][K + c];
  }
}

template <class T, Boundary B>
void launch_step(const T* src, T* dst, T* lap, std::int64_t rows, std::int64_t cols, T coeff, cudaStream_t s) {
  const std::int64_t gx = (cols + kBX - 1) / kBX;
  if (gx > INT_MAX) throw InvalidArgument("stencil: too many columns (" + std::to_string(cols) + ")");
  const std::int64_t gy = std::min<std::int64_t>((rows + kBY - 1) / kBY, 65535);
  step_kernel<T, B><<<dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy)), dim3(kBX, kBY), 0, s>>>(
      src, dst, lap, rows, cols, coeff);
}

template <class T, Boundary B, int K>
void launch_multi(const T* src, T* dst, T* lap, std::int64_t rows, std::int64_t cols, int m, T coeff,
                  cudaStream_t s) {
  constexpr int TX = Tile<T>::EW - 2 * K, TY = Tile<T>::EH - 2 * K;
  const std::int64_t tx = (cols + TX - 1) / TX, ty = (rows + TY - 1) / TY;
  if (tx > INT_MAX || tx * ty > INT_MAX) throw InvalidArgument("stencil: field too large for one launch");
  multi_step_kernel<T, B, K><<<static_cast<unsigned>(tx * ty), dim3(kBX, kBY), 0, s>>>(
      src, dst, lap, rows, cols, static_cast<int>(tx), m, coeff);
}

template <class T, Boundary B>
void pass_typed(const T* src, T* dst, T* lap, std::int64_t rows, std::int64_t cols, int m, T coeff,
                cudaStream_t s) {
  if (m == 0) {
    launch_step<T, B>(src, nullptr, lap, rows, cols, coeff, s);
  } else if (m == 1) {
    launch_step<T, B>(src, dst, lap, rows, cols, coeff, s);
  } else if (m == 2) {
    launch_multi<T, B, 2>(src, dst, lap, rows, cols, m, coeff, s);
  } else if (m <= 4) {
    launch_multi<T, B, 4>(src, dst, lap, rows, cols, m, coeff, s);
  } else if (m <= 8) {
    launch_multi<T, B, 8>(src, dst, lap, rows, cols, m, coeff, s);
  } else {
    throw InvalidArgument("stencil: at most 8 steps per pass on the GPU");
  }
}

// Steps per pass: NPGPU_STENCIL_STEPS_PER_PASS (1..8, for tuning) or the default measured on an H100
// (float64 tiles are half as tall, so deep blocking wastes more of them on halo there).
int configured_steps_per_pass(DType dtype) {
  const char* env = std::getenv("NPGPU_STENCIL_STEPS_PER_PASS");
  if (env && *env) {
    const int k = std::atoi(env);
    if (k >= 1 && k <= 8) return k;
  }
  return dtype == DType::Float32 ? 8 : 4;  // H100, 2000^2 x 10000: f32 K=8 78 ms, K=4 84 ms, K=1 256 ms
}

}  // namespace

int max_steps_per_pass(DType dtype, std::int64_t rows, std::int64_t cols, std::int64_t steps) {
  return configured_steps_per_pass(dtype);
}

void diffusion_pass(const void* src, void* dst, void* lap, DType dtype, std::int64_t rows, std::int64_t cols,
                    int m, double coeff, Boundary b, StreamHandle stream) {
  auto s = static_cast<cudaStream_t>(stream);
  auto run = [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = static_cast<const T*>(src);
    T* out = static_cast<T*>(dst);
    T* l = static_cast<T*>(lap);
    const T k = static_cast<T>(coeff);
    switch (b) {
      case Boundary::Zero: pass_typed<T, Boundary::Zero>(in, out, l, rows, cols, m, k, s); break;
      case Boundary::Periodic: pass_typed<T, Boundary::Periodic>(in, out, l, rows, cols, m, k, s); break;
      case Boundary::Reflect: pass_typed<T, Boundary::Reflect>(in, out, l, rows, cols, m, k, s); break;
    }
  };
  if (dtype == DType::Float32) run(detail::type_tag<float>{});
  else run(detail::type_tag<double>{});
  NPGPU_CHECK_LAUNCH("diffusion");
}

}  // namespace npgpu::cuda
