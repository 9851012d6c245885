"""Type stubs for npgpu._errors (compiled from pyx/npgpu/_errors.pyx)."""

class CUDAError(RuntimeError):
    """A CUDA runtime call failed."""

    code: int
    name: str
    call: str
    sticky: bool
    def __init__(
        self,
        message: str,
        code: int = 0,
        name: str = "",
        call: str = "",
        sticky: bool = False,
    ) -> None: ...

class OutOfMemoryError(MemoryError):
    """A device or pinned-host allocation failed."""

class GPUUnavailableError(RuntimeError):
    """The operation needs a GPU and this process has none (no driver, no device, or a broken context)."""
