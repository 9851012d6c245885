"""Type stubs for npgpu._elementwise (compiled from pyx/npgpu/_elementwise.pyx).

The ufuncs are Python functions made at import (one per NumPy ufunc npgpu implements): NumPy inputs
give NumPy results, npgpu.Array inputs npgpu.Arrays. ``add`` and ``subtract`` carry ``.at``.
"""

from typing import Any, Protocol, TypeAlias

import numpy as np
from numpy.typing import ArrayLike, DTypeLike
from typing_extensions import disjoint_base

from npgpu._array import Array
from npgpu._runtime import Device, HostDevice, Stream

_Input: TypeAlias = (
    Array | ArrayLike
)  # an npgpu.Array, a NumPy array, or anything NumPy accepts
_ArrayOut: TypeAlias = Array | np.ndarray

class _SupportsCudaStream(Protocol):
    def __cuda_stream__(self) -> tuple[int, int]: ...

_StreamLike: TypeAlias = (
    Stream | _SupportsCudaStream | int | None
)  # None: the current stream
_DeviceLike: TypeAlias = (
    Device | HostDevice | int | str | None
)  # "cpu", "cuda", "cuda:N"
# An npgpu.Array for npgpu.Array inputs; a NumPy array or NumPy scalar for NumPy inputs.
_Result: TypeAlias = Any

class _UnaryUfunc(Protocol):
    __name__: str
    def __call__(
        self, x: _Input, out: _ArrayOut | None = None, stream: _StreamLike = None
    ) -> _Result: ...

class _BinaryUfunc(Protocol):
    __name__: str
    def __call__(
        self,
        x1: _Input,
        x2: _Input,
        out: _ArrayOut | None = None,
        stream: _StreamLike = None,
    ) -> _Result: ...

class _BinaryUfuncWithAt(_BinaryUfunc, Protocol):
    def at(self, a: _ArrayOut, indices: Any, b: _Input | None = None) -> None: ...

@disjoint_base
class UfuncCall:
    """The base of npgpu's ufunc objects: their call, in C."""

    _f: Any
    def __call__(self, *args: Any, out: Any = None, **kwargs: Any) -> Any: ...

UFUNCS: list[str]

abs: _UnaryUfunc
absolute: _UnaryUfunc
acosh: _UnaryUfunc
add: _BinaryUfuncWithAt
arccos: _UnaryUfunc
arccosh: _UnaryUfunc
arcsin: _UnaryUfunc
arcsinh: _UnaryUfunc
arctan: _UnaryUfunc
arctan2: _BinaryUfunc
arctanh: _UnaryUfunc
asinh: _UnaryUfunc
atanh: _UnaryUfunc
bitwise_and: _BinaryUfunc
bitwise_left_shift: _BinaryUfunc
bitwise_not: _UnaryUfunc
bitwise_or: _BinaryUfunc
bitwise_right_shift: _BinaryUfunc
bitwise_xor: _BinaryUfunc
cbrt: _UnaryUfunc
ceil: _UnaryUfunc
conj: _UnaryUfunc
conjugate: _UnaryUfunc
cos: _UnaryUfunc
cosh: _UnaryUfunc
divide: _BinaryUfunc
equal: _BinaryUfunc
exp: _UnaryUfunc
exp2: _UnaryUfunc
expm1: _UnaryUfunc
floor: _UnaryUfunc
floor_divide: _BinaryUfunc
greater: _BinaryUfunc
greater_equal: _BinaryUfunc
hypot: _BinaryUfunc
invert: _UnaryUfunc
isfinite: _UnaryUfunc
isinf: _UnaryUfunc
isnan: _UnaryUfunc
left_shift: _BinaryUfunc
less: _BinaryUfunc
less_equal: _BinaryUfunc
log: _UnaryUfunc
log10: _UnaryUfunc
log1p: _UnaryUfunc
log2: _UnaryUfunc
logical_and: _BinaryUfunc
logical_not: _UnaryUfunc
logical_or: _BinaryUfunc
logical_xor: _BinaryUfunc
maximum: _BinaryUfunc
minimum: _BinaryUfunc
mod: _BinaryUfunc
multiply: _BinaryUfunc
negative: _UnaryUfunc
not_equal: _BinaryUfunc
positive: _UnaryUfunc
power: _BinaryUfunc
reciprocal: _UnaryUfunc
remainder: _BinaryUfunc
right_shift: _BinaryUfunc
rint: _UnaryUfunc
sign: _UnaryUfunc
sin: _UnaryUfunc
sinh: _UnaryUfunc
sqrt: _UnaryUfunc
square: _UnaryUfunc
subtract: _BinaryUfuncWithAt
tan: _UnaryUfunc
tanh: _UnaryUfunc
true_divide: _BinaryUfunc
trunc: _UnaryUfunc

def astype(
    x: _Input,
    dtype: DTypeLike,
    /,
    *,
    copy: bool = True,
    device: _DeviceLike = None,
    stream: _StreamLike = None,
) -> _Result: ...
def axpy(
    alpha: complex, x: _Input, y: _ArrayOut, stream: _StreamLike = None
) -> _ArrayOut: ...
def clip(
    a: _Input,
    a_min: _Input | None,
    a_max: _Input | None,
    out: _ArrayOut | None = None,
    stream: _StreamLike = None,
) -> _Result: ...
def imag(x: _Input) -> _Result: ...
def real(x: _Input) -> _Result: ...
def where(
    condition: _Input,
    x: _Input = ...,
    y: _Input = ...,
    out: _ArrayOut | None = None,
    stream: _StreamLike = None,
) -> Any: ...
