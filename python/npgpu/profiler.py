"""Profiler control: NVTX ranges that Nsight Systems shows on its timeline.

    with npgpu.profiler.range("solve"):
        ...
"""
from contextlib import contextmanager

from npgpu._runtime import profiler_pop, profiler_push

__all__ = ["range", "push", "pop"]

push = profiler_push
pop = profiler_pop


@contextmanager
def range(name: str):  # noqa: A001 - mirrors nvtx.range
    """Mark the enclosed code as an NVTX range called `name`."""
    profiler_push(name)
    try:
        yield
    finally:
        profiler_pop()
