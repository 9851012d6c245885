"""The float64 NumPy reference of npgpu.diffusion and npgpu.laplacian (np.pad), shared by test_stencil.py and the
differential tests."""
import numpy as np

BOUNDARIES = ("zero", "periodic", "reflect")
PAD_MODE = {"zero": "constant", "periodic": "wrap", "reflect": "edge"}


def ref_laplacian(f, boundary):
    """4 * centre - neighbours (the sign a diffusion step subtracts), in float64."""
    f = np.asarray(f, dtype=np.float64)
    if f.size == 0:  # np.pad cannot extend an empty axis by wrapping or by its edge
        return f.copy()
    p = np.pad(f, 1, mode=PAD_MODE[boundary])
    return 4 * p[1:-1, 1:-1] - p[:-2, 1:-1] - p[2:, 1:-1] - p[1:-1, :-2] - p[1:-1, 2:]


def ref_diffusion(f, steps, coeff, boundary):
    """(field after `steps` steps, Laplacian the last step used), in float64."""
    f = np.asarray(f, dtype=np.float64)
    lap = ref_laplacian(f, boundary)
    for k in range(steps):
        if k:
            lap = ref_laplacian(f, boundary)
        f = f - coeff * lap
    return f, lap
