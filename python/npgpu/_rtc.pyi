"""Type stubs for npgpu._rtc (compiled from pyx/npgpu/_rtc.pyx).

Run-time compilation with NVRTC and kernel launches (PyCUDA's SourceModule).
"""

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, Protocol, SupportsIndex, TypeAlias

import numpy as np
from typing_extensions import disjoint_base

from npgpu._array import Array
from npgpu._errors import GPUUnavailableError as GPUUnavailableError
from npgpu._runtime import Device, Stream

class _SupportsCudaStream(Protocol):
    def __cuda_stream__(self) -> tuple[int, int]: ...

_StreamLike: TypeAlias = (
    Stream | _SupportsCudaStream | int | None
)  # None: the current stream

class CompileError(RuntimeError):
    """NVRTC rejected a kernel's source (or its options); ``log`` holds NVRTC's messages."""

    log: str
    options: tuple[str, ...]
    def __init__(
        self, message: str, log: str = "", options: Sequence[str] = ()
    ) -> None: ...

class Compiled:
    """The result of compile_source."""

    binary: bytes
    is_ptx: bool
    lowered_names: dict[str, str]
    log: str
    key: str | None
    options: tuple[str, ...]
    source_of_result: str
    def __init__(
        self,
        binary: bytes,
        is_ptx: bool,
        lowered_names: Mapping[str, str],
        log: str,
        key: str | None,
        options: Sequence[str],
        source_of_result: str,
    ) -> None: ...

@disjoint_base
class _HostArg:
    @property
    def array(self) -> np.ndarray: ...
    @property
    def copy_in(self) -> bool: ...  # whether the array is copied to the GPU before the launch
    @property
    def copy_out(self) -> bool: ...  # whether it is copied back after the launch
    def __init__(self, array: np.ndarray) -> None: ...

class In(_HostArg):
    """A NumPy array copied to the GPU before the launch (PyCUDA's drv.In)."""

class Out(_HostArg):
    """A NumPy array the kernel writes, copied back after the launch (PyCUDA's drv.Out)."""

class InOut(_HostArg):
    """A NumPy array copied to the GPU before the launch and back after it (PyCUDA's drv.InOut)."""

_Dim3: TypeAlias = (
    SupportsIndex
    | tuple[SupportsIndex]
    | tuple[SupportsIndex, SupportsIndex]
    | tuple[SupportsIndex, SupportsIndex, SupportsIndex]
)

@disjoint_base
class Kernel:
    """A kernel of a SourceModule: ``f(*args, grid=..., block=..., shared_mem=0, stream=None)`` launches it."""

    @property
    def num_params(self) -> int: ...
    @property
    def param_sizes(self) -> tuple[int, ...]: ...
    @property
    def attributes(self) -> dict[str, int]: ...
    @property
    def device(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def symbol(self) -> str: ...
    @property
    def module(self) -> SourceModule: ...
    def __call__(
        self,
        *args: Any,
        grid: _Dim3 = (1, 1),
        block: _Dim3 | None = None,
        shared_mem: int = 0,
        stream: _StreamLike = None,
        shared: int | None = None,
    ) -> None: ...
    def launch_words(self, words: list[int], grid: int, block: int, stream: _StreamLike = None) -> None: ...

@disjoint_base
class ElementwisePlan:
    """One prepared launch of a kernel of one parameter made of 64-bit words, for one layout of its inputs."""

    def __init__(
        self,
        kernel: Kernel,
        grid: int,
        block: int,
        words: list[int],
        inputs: list[tuple[int, Any, Any]],
        outputs: list[tuple[int, tuple[int, ...], Any]],
        convert: Callable[[int, Any], int],
    ) -> None: ...
    def run(self, args: tuple[Any, ...], stream: _StreamLike = None) -> Array | tuple[Array, ...] | None: ...

@disjoint_base
class PlannedCall:
    """Base of ElementwiseKernel and vectorize's functions: repeated calls launch from a recent call's plan."""

    _plans: list[ElementwisePlan]
    _planned_by: PlannedCall | None
    def __call__(self, *args: Any, stream: _StreamLike = None, **kwargs: Any) -> Any: ...

class SourceModule:
    """CUDA C++ compiled at run time for the current GPU (PyCUDA's ``pycuda.compiler.SourceModule``)."""

    def __init__(
        self,
        source: str,
        options: Sequence[str] | str = (),
        name_expressions: Sequence[str] | str = (),
        *,
        no_extern_c: bool = True,
        arch: str | int | None = None,
        include_dirs: Sequence[str] | str = (),
        cache: bool = True,
        _check_backend: bool = True,
    ) -> None: ...
    @property
    def log(self) -> str: ...
    @property
    def lowered_names(self) -> dict[str, str]: ...
    @property
    def binary(self) -> bytes: ...
    @property
    def from_cache(self) -> Literal["compiled", "memory", "disk"]: ...
    def kernel_names(self) -> list[str]: ...
    def get_function(self, name: str) -> Kernel: ...

def cache_dir() -> str: ...
def cache_info() -> dict[str, int]: ...
def check_arguments(
    name: str, param_sizes: Sequence[int], args: Sequence[Any]
) -> None: ...
def clear_memory_cache() -> None: ...
def compile_source(
    source: str,
    options: Sequence[str] | str = (),
    name_expressions: Sequence[str] | str = (),
    name: str = "kernel.cu",
    cache: bool = True,
    _try_minimal: bool = False,
) -> Compiled: ...
def device_arch(device: Device | int | None = None) -> str: ...
def header_dirs() -> list[str]: ...
def nvrtc_version() -> tuple[int, int]: ...
def require_gpu(what: str) -> None: ...
def supported_archs() -> list[int]: ...
def _as_str_list(value: Sequence[str] | str | None, what: str) -> list[str]: ...
