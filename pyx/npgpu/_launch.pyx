# cython: language_level=3
"""Launch geometry (reference page 000): which thread of which block a launch creates; what a launch costs."""
from collections import namedtuple

import numpy as np

from npgpu._array cimport Array, new_array, host_view
from npgpu._runtime cimport resolve_stream, resolve_device, use_cuda_for_host_data
from npgpu.lib.launch cimport (Dim3, check_launch_geometry, empty_launch_host_us,
                               launch_indices as c_launch_indices)
from npgpu.lib.runtime cimport StreamHandle
from npgpu.lib.view cimport ArrayView, kHostDevice

LaunchIndices = namedtuple("LaunchIndices", ["thread_idx", "block_idx", "block_dim", "grid_dim"])


cdef Dim3 as_dim3(object v, str what) except *:
    cdef Dim3 d
    if isinstance(v, (int, np.integer)):
        v = (int(v),)
    v = tuple(v)
    if not 1 <= len(v) <= 3 or not all(isinstance(x, (int, np.integer)) for x in v):
        raise TypeError(f"{what} must be an int or a tuple of 1 to 3 ints, got {v!r}")
    v = v + (1,) * (3 - len(v))
    d.x, d.y, d.z = v
    return d


def check_geometry(grid, block, device=None):
    """Raise ValueError naming the device limit that (grid, block) exceeds; return None when it fits."""
    cdef Dim3 g = as_dim3(grid, "grid")
    cdef Dim3 b = as_dim3(block, "block")
    check_launch_geometry(g, b, resolve_device(device) if device is not None or use_cuda_for_host_data()
                          else kHostDevice)


def launch_indices(grid, block, device=None, stream=None):
    """Launch a kernel of geometry (grid, block) in which every thread records its threadIdx, blockIdx,
    blockDim and gridDim, and return them as four NumPy int32 arrays of shape (threads, 3) (x, y, z
    columns), rows in the order of the thread's linear id (blocks in x-fastest order, threads within a block
    x-fastest). A geometry over the device's limits raises ValueError naming the limit.

    ``launch_indices(2, 4).thread_idx[:, 0]`` is ``[0 1 2 3 0 1 2 3]``, as the Numba page prints.
    Without a GPU (or under ``use_backend("cpu")``) the launch is emulated on the host.
    """
    cdef Dim3 g = as_dim3(grid, "grid")
    cdef Dim3 b = as_dim3(block, "block")
    cdef bint gpu = device is not None or use_cuda_for_host_data()
    cdef int dev = resolve_device(device) if gpu else kHostDevice
    check_launch_geometry(g, b, dev)
    n = g.x * g.y * g.z * b.x * b.y * b.z
    cdef StreamHandle s = resolve_stream(stream)
    cdef Array d0, d1, d2, d3
    cdef ArrayView v0, v1, v2, v3
    if gpu:
        d0, d1, d2, d3 = [new_array((n, 3), np.dtype(np.int32), dev, s) for _ in range(4)]
        with nogil:
            c_launch_indices(g, b, d0.view, d1.view, d2.view, d3.view, s)
        return LaunchIndices(d0.get(stream=stream), d1.get(stream=stream), d2.get(stream=stream),
                             d3.get(stream=stream))
    hosts = [np.empty((n, 3), dtype=np.int32) for _ in range(4)]
    v0 = host_view(hosts[0], True)
    v1 = host_view(hosts[1], True)
    v2 = host_view(hosts[2], True)
    v3 = host_view(hosts[3], True)
    with nogil:
        c_launch_indices(g, b, v0, v1, v2, v3, s)
    return LaunchIndices(*hosts)


def empty_launch_us(int launches=2000, device=None):
    """Host microseconds one launch of an empty kernel costs on this machine (median of 5 runs of `launches`
    back-to-back launches, through the driver's cuLaunchKernel as npgpu's elementwise kernels are launched,
    or cudaLaunchKernel when NPGPU_DRIVER_LAUNCH=0). No operation on small arrays can return sooner, in npgpu
    or any other library; the per-call benchmark reports it beside npgpu's figure. Needs a GPU."""
    cdef int dev = resolve_device(device)
    cdef double us
    with nogil:
        us = empty_launch_host_us(dev, launches)
    return us
