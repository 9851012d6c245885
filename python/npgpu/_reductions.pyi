"""Type stubs for npgpu._reductions: the reductions with NumPy's initial=, where= and mean= keywords.

NumPy inputs give NumPy results (scalars for full reductions), npgpu.Array inputs give npgpu.Arrays (0-d for
full reductions) on their device. The argument types are the compiled reductions' (npgpu._reduce).
"""

from typing import Any

from numpy.typing import DTypeLike

from npgpu._reduce import _ArrayOut, _AxisLike, _Input, _Result, _StreamLike

def all(
    a: _Input,
    axis: _AxisLike = None,
    out: _ArrayOut | None = None,
    keepdims: bool = False,
    stream: _StreamLike = None,
    *,
    where: Any = True,
) -> _Result: ...
def amax(
    a: _Input,
    axis: _AxisLike = None,
    out: _ArrayOut | None = None,
    keepdims: bool = False,
    stream: _StreamLike = None,
    *,
    initial: Any = None,
    where: Any = True,
) -> _Result: ...
def amin(
    a: _Input,
    axis: _AxisLike = None,
    out: _ArrayOut | None = None,
    keepdims: bool = False,
    stream: _StreamLike = None,
    *,
    initial: Any = None,
    where: Any = True,
) -> _Result: ...
def any(
    a: _Input,
    axis: _AxisLike = None,
    out: _ArrayOut | None = None,
    keepdims: bool = False,
    stream: _StreamLike = None,
    *,
    where: Any = True,
) -> _Result: ...
def max(
    a: _Input,
    axis: _AxisLike = None,
    out: _ArrayOut | None = None,
    keepdims: bool = False,
    stream: _StreamLike = None,
    *,
    initial: Any = None,
    where: Any = True,
) -> _Result: ...
def mean(
    a: _Input,
    axis: _AxisLike = None,
    dtype: DTypeLike | None = None,
    out: _ArrayOut | None = None,
    keepdims: bool = False,
    stream: _StreamLike = None,
    *,
    where: Any = True,
) -> _Result: ...
def min(
    a: _Input,
    axis: _AxisLike = None,
    out: _ArrayOut | None = None,
    keepdims: bool = False,
    stream: _StreamLike = None,
    *,
    initial: Any = None,
    where: Any = True,
) -> _Result: ...
def nanmax(
    a: _Input,
    axis: _AxisLike = None,
    out: _ArrayOut | None = None,
    keepdims: bool = False,
    stream: _StreamLike = None,
    *,
    initial: Any = None,
    where: Any = True,
) -> _Result: ...
def nanmean(
    a: _Input,
    axis: _AxisLike = None,
    dtype: DTypeLike | None = None,
    out: _ArrayOut | None = None,
    keepdims: bool = False,
    stream: _StreamLike = None,
    *,
    where: Any = True,
) -> _Result: ...
def nanmin(
    a: _Input,
    axis: _AxisLike = None,
    out: _ArrayOut | None = None,
    keepdims: bool = False,
    stream: _StreamLike = None,
    *,
    initial: Any = None,
    where: Any = True,
) -> _Result: ...
def nanprod(
    a: _Input,
    axis: _AxisLike = None,
    dtype: DTypeLike | None = None,
    out: _ArrayOut | None = None,
    keepdims: bool = False,
    stream: _StreamLike = None,
    *,
    initial: Any = None,
    where: Any = True,
) -> _Result: ...
def nanstd(
    a: _Input,
    axis: _AxisLike = None,
    dtype: DTypeLike | None = None,
    out: _ArrayOut | None = None,
    ddof: float = 0,
    keepdims: bool = False,
    stream: _StreamLike = None,
    *,
    correction: float | None = None,
    where: Any = True,
    mean: Any = None,
) -> _Result: ...
def nansum(
    a: _Input,
    axis: _AxisLike = None,
    dtype: DTypeLike | None = None,
    out: _ArrayOut | None = None,
    keepdims: bool = False,
    stream: _StreamLike = None,
    *,
    initial: Any = None,
    where: Any = True,
) -> _Result: ...
def nanvar(
    a: _Input,
    axis: _AxisLike = None,
    dtype: DTypeLike | None = None,
    out: _ArrayOut | None = None,
    ddof: float = 0,
    keepdims: bool = False,
    stream: _StreamLike = None,
    *,
    correction: float | None = None,
    where: Any = True,
    mean: Any = None,
) -> _Result: ...
def prod(
    a: _Input,
    axis: _AxisLike = None,
    dtype: DTypeLike | None = None,
    out: _ArrayOut | None = None,
    keepdims: bool = False,
    stream: _StreamLike = None,
    *,
    initial: Any = None,
    where: Any = True,
) -> _Result: ...
def std(
    a: _Input,
    axis: _AxisLike = None,
    dtype: DTypeLike | None = None,
    out: _ArrayOut | None = None,
    ddof: float = 0,
    keepdims: bool = False,
    stream: _StreamLike = None,
    *,
    correction: float | None = None,
    where: Any = True,
    mean: Any = None,
) -> _Result: ...
def sum(
    a: _Input,
    axis: _AxisLike = None,
    dtype: DTypeLike | None = None,
    out: _ArrayOut | None = None,
    keepdims: bool = False,
    stream: _StreamLike = None,
    *,
    initial: Any = None,
    where: Any = True,
) -> _Result: ...
def var(
    a: _Input,
    axis: _AxisLike = None,
    dtype: DTypeLike | None = None,
    out: _ArrayOut | None = None,
    ddof: float = 0,
    keepdims: bool = False,
    stream: _StreamLike = None,
    *,
    correction: float | None = None,
    where: Any = True,
    mean: Any = None,
) -> _Result: ...
