"""Type stubs for npgpu._blas (compiled from pyx/npgpu/_blas.pyx).

Products on cuBLAS (NumPy's host loops on the host backend): NumPy inputs give NumPy results,
npgpu.Array inputs npgpu.Arrays.
"""

from typing import Any, Literal, Protocol, TypeAlias

import numpy as np
from numpy.typing import ArrayLike

from npgpu._array import Array
from npgpu._runtime import Device, Stream

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

def cublas_version(device: Device | int | None = None) -> int: ...
def dot(
    a: _Input, b: _Input, out: _ArrayOut | None = None, stream: _StreamLike = None
) -> _Result: ...
def inner(a: _Input, b: _Input, stream: _StreamLike = None) -> _Result: ...
def matmul(
    a: _Input,
    b: _Input,
    out: _ArrayOut | None = None,
    precision: Literal["highest", "tf32"] | None = "highest",
    stream: _StreamLike = None,
) -> _Result: ...
def matmul_reduce(
    a: _Input,
    b: _Input,
    axis: int | None = 0,
    out: _ArrayOut | None = None,
    stream: _StreamLike = None,
    _method: int = 0,
) -> _Result: ...
def outer(
    a: _Input, b: _Input, out: _ArrayOut | None = None, stream: _StreamLike = None
) -> _Result: ...
def vdot(a: _Input, b: _Input, stream: _StreamLike = None) -> _Result: ...
