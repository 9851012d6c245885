"""Type stubs for npgpu._sparse (compiled from pyx/npgpu/_sparse.pyx)."""

from npgpu._array import Array

def csr_matmul(
    indptr: Array, indices: Array, data: Array, n_cols: int, x: Array, longest_row: int = -1
) -> Array: ...
