"""Type stubs for npgpu._launch (compiled from pyx/npgpu/_launch.pyx)."""

from collections.abc import Sequence
from typing import NamedTuple, Protocol, SupportsIndex, TypeAlias

import numpy as np
from numpy.typing import NDArray

from npgpu._runtime import Device, Stream

class _SupportsCudaStream(Protocol):
    def __cuda_stream__(self) -> tuple[int, int]: ...

_StreamLike: TypeAlias = (
    Stream | _SupportsCudaStream | int | None
)  # None: the current stream

class LaunchIndices(NamedTuple):
    """threadIdx, blockIdx, blockDim and gridDim of every thread: int32 arrays of shape (threads, 3)."""

    thread_idx: NDArray[np.int32]
    block_idx: NDArray[np.int32]
    block_dim: NDArray[np.int32]
    grid_dim: NDArray[np.int32]

def check_geometry(
    grid: SupportsIndex | Sequence[SupportsIndex],
    block: SupportsIndex | Sequence[SupportsIndex],
    device: Device | int | None = None,
) -> None: ...
def empty_launch_us(
    launches: int = 2000, device: Device | int | None = None
) -> float: ...
def launch_indices(
    grid: SupportsIndex | Sequence[SupportsIndex],
    block: SupportsIndex | Sequence[SupportsIndex],
    device: Device | int | None = None,
    stream: _StreamLike = None,
) -> LaunchIndices: ...
