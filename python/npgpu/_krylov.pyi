"""Type stubs for npgpu._krylov (compiled from pyx/npgpu/_krylov.pyx)."""

from npgpu._array import Array

CG_SLOT: int

def cg_state_size(n: int) -> int: ...
def cg_start(r: Array, tol2: float, state: Array) -> None: ...
def cg_step(x: Array, r: Array, p: Array, q: Array, state: Array, parity: int) -> None: ...
def cg_step_csr(
    indptr: Array,
    indices: Array,
    data: Array,
    x: Array,
    r: Array,
    p: Array,
    q: Array,
    state: Array,
    parity: int,
    longest_row: int = -1,
) -> None: ...
