"""Type stubs for npgpu._sparse (compiled from pyx/npgpu/_sparse.pyx)."""

from npgpu._array import Array

def csr_matmul(
    indptr: Array, indices: Array, data: Array, n_cols: int, x: Array, longest_row: int = -1
) -> Array: ...
def csr_product(
    a_indptr: Array, a_indices: Array, a_data: Array, b_indptr: Array, b_indices: Array, b_data: Array, n_cols: int
) -> tuple[Array, Array, Array]: ...
