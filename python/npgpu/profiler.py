"""Profiler control: NVTX ranges that Nsight Systems shows on its timeline, and what a kernel launch costs.

    with npgpu.profiler.range("solve"):
        ...
    npgpu.profiler.empty_launch_us()   # e.g. 4.1: no call on small arrays returns sooner on this machine
"""
from contextlib import contextmanager

from npgpu._launch import empty_launch_us
from npgpu._runtime import profiler_pop, profiler_push

__all__ = ["range", "push", "pop", "empty_launch_us"]

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
