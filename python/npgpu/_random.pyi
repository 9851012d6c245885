"""Type stubs for npgpu._random (compiled from pyx/npgpu/_random.pyx).

Philox4x32-10 streams (npgpu.random builds the Generator API on them).
"""

from collections.abc import Sequence
from typing import Protocol, SupportsIndex, TypeAlias

import numpy as np
from numpy.typing import DTypeLike

from npgpu._array import Array
from npgpu._runtime import Stream

_ArrayOut: TypeAlias = Array | np.ndarray

class _SupportsCudaStream(Protocol):
    def __cuda_stream__(self) -> tuple[int, int]: ...

_StreamLike: TypeAlias = (
    Stream | _SupportsCudaStream | int | None
)  # None: the current stream

UNIFORM: int
NORMAL: int
INTEGERS: int
STREAM_VERSION: int
MAX_PI_SAMPLES: int

def blocks(dtype: DTypeLike, n: int) -> int: ...
def check(
    dist: int,
    dtype: DTypeLike,
    a: float = 0.0,
    b: float = 1.0,
    low: int = 0,
    range_m1: int = 0,
) -> None: ...
def check_seed(seed: int | None) -> int: ...
def fill(
    dist: int,
    seed: int,
    counter: int,
    a: float,
    b: float,
    low: int,
    range_m1: int,
    out: _ArrayOut,
    stream: _StreamLike = None,
    version: int = ...,
) -> _ArrayOut: ...
def monte_carlo_pi(
    n: SupportsIndex, seed: int | None = None, stream: _StreamLike = None
) -> float: ...
def philox4x32_10(
    counter: Sequence[int], key: Sequence[int]
) -> tuple[int, int, int, int]: ...
def _pi_hits(
    n: SupportsIndex,
    seed: int | None,
    device: int | None = None,
    stream: _StreamLike = None,
    first: SupportsIndex = 0,
) -> int: ...
