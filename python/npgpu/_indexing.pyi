"""Type stubs for npgpu._indexing (compiled from pyx/npgpu/_indexing.pyx).

Advanced indexing and index functions: NumPy inputs give NumPy results, npgpu.Array inputs npgpu.Arrays.
"""

from collections.abc import Sequence
from typing import Any, Literal, TypeAlias

import numpy as np
from numpy.typing import ArrayLike

from npgpu._array import Array

_Input: TypeAlias = (
    Array | ArrayLike
)  # an npgpu.Array, a NumPy array, or anything NumPy accepts
_ArrayOut: TypeAlias = Array | np.ndarray
# An npgpu.Array for npgpu.Array inputs; a NumPy array or NumPy scalar for NumPy inputs.
_Result: TypeAlias = Any

def add_at(a: _ArrayOut, indices: Any, b: _Input | None = None) -> None: ...
def argwhere(a: _Input) -> _Result: ...
def choose(
    a: _Input,
    choices: Sequence[_Input] | _Input,
    out: _ArrayOut | None = None,
    mode: Literal["raise", "wrap", "clip"] = "raise",
) -> _Result: ...
def compress(
    condition: _Input, a: _Input, axis: int | None = None, out: _ArrayOut | None = None
) -> _Result: ...
def extract(condition: _Input, arr: _Input) -> _Result: ...
def flatnonzero(a: _Input) -> _Result: ...
def getitem(x: Array, key: Any) -> Array: ...
def nonzero(a: _Input) -> tuple[Any, ...]: ...
def positions(flags: Array) -> Array: ...
def put(a: _ArrayOut, ind: _Input, v: _Input, mode: str = "raise") -> None: ...
def put_along_axis(
    arr: _ArrayOut, indices: _Input, values: _Input, axis: int | None
) -> None: ...
def searchsorted(
    a: _Input,
    v: _Input,
    side: Literal["left", "right"] = "left",
    sorter: _Input | None = None,
) -> _Result: ...
def setitem(x: Array, key: Any, value: _Input) -> None: ...
def subtract_at(a: _ArrayOut, indices: Any, b: _Input | None = None) -> None: ...
def take(
    a: _Input,
    indices: _Input,
    axis: int | None = None,
    out: _ArrayOut | None = None,
    mode: Literal["raise", "wrap", "clip"] = "raise",
) -> _Result: ...
def take_along_axis(arr: _Input, indices: _Input, axis: int | None = -1) -> _Result: ...
def ufunc_at(
    name: Literal["add", "subtract"], a: _ArrayOut, indices: Any, b: _Input
) -> None: ...
def _as_device_array(a: _Input) -> tuple[Array, bool]: ...
