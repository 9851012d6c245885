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
    """Check a launch geometry against a device's limits.

    Raise ValueError naming the device limit that (grid, block) exceeds; return None when it fits. Each
    dimension must be at least 1, the block's threads (the product of its dimensions) at most
    ``maxThreadsPerBlock``, and each block and grid dimension within ``maxThreadsDim`` and ``maxGridSize``.

    Parameters
    ----------
    grid : int or tuple of int
        Blocks along x, y and z: an int or a tuple of 1 to 3 ints (missing dimensions are 1).
    block : int or tuple of int
        Threads per block along x, y and z, in the same form.
    device : int or Device, optional
        The GPU whose limits apply. Default: the current GPU when the backend is 'cuda', else the limits of
        the host backend (1024 threads per block; block dimensions up to (1024, 1024, 64), grid dimensions up
        to (2**31 - 1, 65535, 65535)).

    Returns
    -------
    None
        When the geometry fits.

    Raises
    ------
    ValueError
        A dimension is below 1 or the geometry exceeds a limit (the message names it).
    TypeError
        `grid` or `block` is not an int or a tuple of 1 to 3 ints.
    GPUUnavailableError
        A GPU's limits are asked for (`device` given, or the backend is 'cuda') and no GPU is usable.

    See Also
    --------
    launch_indices : Launch a kernel of that geometry and see its indices.

    Examples
    --------
    >>> npgpu.check_geometry((1024,), (32, 32))
    >>> npgpu.check_geometry(1, (32, 64))
    Traceback (most recent call last):
        ...
    ValueError: block of 32x64x1 = 2048 threads exceeds the device limit maxThreadsPerBlock = 1024
    """
    cdef Dim3 g = as_dim3(grid, "grid")
    cdef Dim3 b = as_dim3(block, "block")
    check_launch_geometry(g, b, resolve_device(device) if device is not None or use_cuda_for_host_data()
                          else kHostDevice)


def launch_indices(grid, block, device=None, stream=None):
    """Launch a kernel in which every thread records its threadIdx, blockIdx, blockDim and gridDim.

    A kernel of geometry (grid, block) is launched; the four indices of every thread come back as four
    NumPy int32 arrays of shape (threads, 3) (x, y, z columns), rows in the order of the thread's linear id
    (blocks in x-fastest order, threads within a block x-fastest). A geometry over the device's limits
    raises ValueError naming the limit. Without a GPU (or under ``use_backend("cpu")``) the launch is
    emulated on the host.

    Parameters
    ----------
    grid : int or tuple of int
        Blocks along x, y and z: an int or a tuple of 1 to 3 ints (missing dimensions are 1).
    block : int or tuple of int
        Threads per block along x, y and z, in the same form.
    device : int or Device, optional
        The GPU to launch on. Default: the current GPU when the backend is 'cuda', else the host backend.
    stream : Stream, optional
        The stream of the launch and of the copies back (default: the current stream). The call returns once
        the results are on the host.

    Returns
    -------
    LaunchIndices
        A named tuple ``(thread_idx, block_idx, block_dim, grid_dim)`` of NumPy int32 arrays of shape
        ``(threads, 3)``, threads being the product of all six dimensions.

    Raises
    ------
    ValueError
        A dimension is below 1 or the geometry exceeds the device's limits (see check_geometry).
    TypeError
        `grid` or `block` is not an int or a tuple of 1 to 3 ints.
    GPUUnavailableError
        A GPU is asked for (`device` given, or the backend is 'cuda') and none is usable.

    See Also
    --------
    check_geometry : The limits alone, without launching.

    Examples
    --------
    ``launch_indices(2, 4).thread_idx[:, 0]`` is ``[0 1 2 3 0 1 2 3]``, as the Numba page prints:

    >>> r = npgpu.launch_indices(2, 4)
    >>> print(r.thread_idx[:, 0])
    [0 1 2 3 0 1 2 3]
    >>> print(r.block_idx[:, 0])
    [0 0 0 0 1 1 1 1]
    >>> print(r.block_dim[0], r.grid_dim[0])
    [4 1 1] [2 1 1]
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
            c_launch_indices(g, b, d0._view, d1._view, d2._view, d3._view, s)
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
    """Host microseconds one launch of an empty kernel costs on this machine.

    The median of 5 runs of `launches` back-to-back launches, through the driver's cuLaunchKernel as npgpu's
    elementwise kernels are launched, or cudaLaunchKernel when NPGPU_DRIVER_LAUNCH=0. No operation on small
    arrays can return sooner, in npgpu or any other library; the per-call benchmark reports it beside
    npgpu's figure. Needs a GPU. Public as ``npgpu.profiler.empty_launch_us``.

    Parameters
    ----------
    launches : int, optional
        Launches per run (default 2000).
    device : int or Device, optional
        The GPU; default: the calling thread's current device.

    Returns
    -------
    float
        Microseconds of host time per launch.

    Raises
    ------
    GPUUnavailableError
        No GPU is usable (a RuntimeError).
    ValueError
        `launches` is below 1, or `device` is not an ordinal of this machine.

    Examples
    --------
    >>> npgpu.profiler.empty_launch_us()  # doctest: +SKIP
    2.3
    """
    cdef int dev = resolve_device(device)
    cdef double us
    with nogil:
        us = empty_launch_host_us(dev, launches)
    return us
