"""Probe: sort and argsort along rows of 4-byte keys (float32, int32) for several shapes, npgpu against CuPy and
PyTorch, CUDA events, medians (the route each shape takes: sorting.cu, word_layout).

    python scripts/sort_rows_probe.py
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import npgpu  # noqa: E402
from benchmarks._harness import anchor_time_ms, gpu_time_ms, optional  # noqa: E402

SHAPES = [(8192, 8192), (1 << 14, 4096), (1 << 15, 2048), (1 << 17, 512), (1 << 19, 128), (1 << 20, 64),
          (4096, 1024), (1024, 1024), (16384, 64), (1, 4096)]


def main():
    cp = optional("cupy")
    torch = optional("torch")
    rng = np.random.default_rng(5)
    for shape in SHAPES:
        for dt in (np.float32, np.int32):
            h = rng.random(shape, dtype=np.float32) if dt == np.float32 else rng.integers(-2**31, 2**31 - 1, shape,
                                                                                        dtype=np.int32)
            d = npgpu.asarray(h)
            sub = h[:2]
            assert np.array_equal(npgpu.argsort(npgpu.asarray(sub), axis=-1).get(), np.argsort(sub, kind="stable"))
            line = [f"{shape[0]}x{shape[1]} {np.dtype(dt).name}"]
            for name, fn in (("sort", lambda: npgpu.sort(d, axis=-1)), ("argsort", lambda: npgpu.argsort(d, axis=-1))):
                line.append(f"{name} {gpu_time_ms(fn, 7):.3f}")
            if cp is not None:
                x = cp.asarray(h)
                ms = anchor_time_ms(lambda: cp.sort(x, axis=-1), cp.cuda.Device().synchronize, 5)
                line.append(f"cupy sort {ms:.3f}")
            if torch is not None:
                t = torch.from_numpy(h).cuda()
                ms = anchor_time_ms(lambda: torch.sort(t, dim=-1, stable=True), torch.cuda.synchronize, 5)
                line.append(f"torch sort {ms:.3f}")
            print("  ".join(line), flush=True)


if __name__ == "__main__":
    main()
