"""Type stubs for npgpu._stencil (compiled from pyx/npgpu/_stencil.pyx).

Stencils on 2-D float32/float64 fields: NumPy in gives NumPy out, an npgpu.Array an npgpu.Array.
"""

from collections.abc import Callable
from typing import Any, Literal, Protocol, TypeAlias

import numpy as np
from numpy.typing import ArrayLike

from npgpu._array import Array
from npgpu._runtime import Stream

_Input: TypeAlias = (
    Array | ArrayLike
)  # an npgpu.Array, a NumPy array, or anything NumPy accepts
_ArrayOut: TypeAlias = Array | np.ndarray

class _SupportsCudaStream(Protocol):
    def __cuda_stream__(self) -> tuple[int, int]: ...

_StreamLike: TypeAlias = (
    Stream | _SupportsCudaStream | int | None
)  # None: the current stream
# An npgpu.Array for npgpu.Array inputs; a NumPy array or NumPy scalar for NumPy inputs.
_Result: TypeAlias = Any

BOUNDARIES: tuple[str, ...]
STABILITY_LIMIT: float

def diffusion(
    field: _Input,
    steps: int,
    coeff: float = 0.25,
    boundary: Literal["zero", "periodic", "reflect"] = "zero",
    return_laplacian: bool = False,
    out: _ArrayOut | None = None,
    callback: Callable[[int, Any], object] | None = None,
    callback_every: int | None = None,
    unstable_ok: bool = False,
    stream: _StreamLike = None,
) -> Any: ...
def laplacian(
    field: _Input,
    boundary: Literal["zero", "periodic", "reflect"] = "zero",
    out: _ArrayOut | None = None,
    stream: _StreamLike = None,
    *,
    sign: Literal[1, -1] = 1,
) -> _Result: ...
