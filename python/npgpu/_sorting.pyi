"""Type stubs for npgpu._sorting (compiled from pyx/npgpu/_sorting.pyx)."""

from collections.abc import Sequence
from typing import Any, TypeAlias

from numpy.typing import ArrayLike

from npgpu._array import Array

_Input: TypeAlias = (
    Array | ArrayLike
)  # an npgpu.Array, a NumPy array, or anything NumPy accepts
# An npgpu.Array for npgpu.Array inputs; a NumPy array or NumPy scalar for NumPy inputs.
_Result: TypeAlias = Any

def argpartition(
    a: _Input,
    kth: int | Sequence[int] | _Input,
    axis: int | None = -1,
    kind: str = "introselect",
    order: None = None,
) -> _Result: ...
def argsort(
    a: _Input,
    axis: int | None = -1,
    kind: str | None = None,
    order: None = None,
    *,
    stable: bool | None = None,
    descending: bool = False,
) -> _Result: ...
def lexsort(keys: Sequence[_Input] | _Input, axis: int = -1) -> _Result: ...
def partition(
    a: _Input,
    kth: int | Sequence[int] | _Input,
    axis: int | None = -1,
    kind: str = "introselect",
    order: None = None,
) -> _Result: ...
def sort(
    a: _Input,
    axis: int | None = -1,
    kind: str | None = None,
    order: None = None,
    *,
    stable: bool | None = None,
    descending: bool = False,
) -> _Result: ...
def run_starts(x: Array, equal_nan: bool = True) -> Array: ...
def key_range(x: Array) -> Array: ...
def count_keys(x: Array, key_range: Array, bins: int, want_first: bool = False) -> tuple[Array, Array | None]: ...
def lookup_keys(x: Array, key_range: Array, table: Array) -> Array: ...
def sort_rows(
    keys: Array,
    values: Array | None = None,
    indices: Array | None = None,
    descending: bool = False,
) -> None: ...
