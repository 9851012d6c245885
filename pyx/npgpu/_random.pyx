# cython: language_level=3
"""Counter-based random numbers (Philox4x32-10) and the fused Monte Carlo estimate of pi (reference page
001). The public generator is npgpu.random.Generator; this module holds the compiled calls it makes."""
import operator
import os

import numpy as np

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport int64_t, uint32_t, uint64_t
from npgpu._array cimport Array, dtype_code, host_view
from npgpu._runtime cimport resolve_stream, use_cuda_for_host_data
from npgpu.lib cimport runtime as rt
from npgpu.lib.random cimport RandomDist, RandomSpec, random_blocks, random_fill, random_fill_staged, \
    monte_carlo_pi_hits, monte_carlo_pi_hits_range, philox4x32_10 as c_philox
from npgpu.lib.runtime cimport StreamHandle
from npgpu.lib.view cimport ArrayView, DType, kHostDevice

UNIFORM = <int>RandomDist.Uniform
NORMAL = <int>RandomDist.Normal
INTEGERS = <int>RandomDist.Integers

_U64 = 1 << 64
MAX_PI_SAMPLES = 1 << 62


def check_seed(seed):
    """The 64-bit Philox key of `seed`: None draws one from the OS; an int must lie in [0, 2^64)."""
    if seed is None:
        return int.from_bytes(os.urandom(8), "little")
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be None or an int in [0, 2**64), not {type(seed).__name__}")
    seed = int(seed)
    if not 0 <= seed < _U64:
        raise ValueError(f"seed must be in [0, 2**64), got {seed}")
    return seed


cdef RandomSpec make_spec(int dist, uint64_t seed, uint64_t counter, double a, double b, uint64_t low,
                          uint64_t range_m1):
    cdef RandomSpec spec
    spec.dist = <RandomDist>dist
    spec.seed = seed
    spec.counter = counter
    spec.a = a
    spec.b = b
    spec.low = low
    spec.range_m1 = range_m1
    return spec


def blocks(dtype, n):
    """Philox blocks a draw of n values of dtype consumes (what a Generator's counter advances by)."""
    return random_blocks(dtype_code(np.dtype(dtype)), n)


def check(int dist, dtype, double a=0.0, double b=1.0, uint64_t low=0, uint64_t range_m1=0):
    """Raise TypeError / ValueError exactly as a fill with these parameters would (nothing is drawn)."""
    cdef RandomSpec spec = make_spec(dist, 0, 0, a, b, low, range_m1)
    cdef ArrayView v = host_view(np.empty(0, dtype=dtype), True)
    random_fill(spec, v, <StreamHandle>NULL)


def fill(int dist, uint64_t seed, uint64_t counter, double a, double b, uint64_t low, uint64_t range_m1, out,
         stream=None):
    """Fill `out` (an npgpu.Array, on its device; or a C-contiguous NumPy array, on the GPU through the
    staging ring when the backend is 'cuda', on the host backend otherwise) with the stream's values
    starting at Philox block `counter`."""
    cdef RandomSpec spec = make_spec(dist, seed, counter, a, b, low, range_m1)
    cdef StreamHandle s = resolve_stream(stream)
    cdef ArrayView v
    cdef Array arr
    cdef int device
    if isinstance(out, Array):
        arr = <Array>out
        with nogil:
            random_fill(spec, arr.view, s)
        arr.stream = s
        return out
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out must be a numpy.ndarray or an npgpu.Array, not {type(out).__name__}")
    if not out.flags.c_contiguous:
        raise ValueError("out must be C-contiguous")
    v = host_view(out, True)
    if use_cuda_for_host_data() and out.size > 0:
        device = rt.current_device()
        with nogil:
            random_fill_staged(spec, v, device, s)
    else:
        with nogil:
            random_fill(spec, v, s)
    return out


# Points per host-backend call of a long count: Ctrl-C is honoured between calls (tens of ms apart or less).
_HOST_PI_CHUNK = 1 << 24


def _pi_hits(n, seed, device=None, stream=None, first=0):
    """Points of monte_carlo_pi(first + n, seed) inside the quarter circle, among points first .. first + n - 1
    (ranges that split [0, N) add up to the count of N points exactly). device: None picks by backend (the GPU
    when the backend is 'cuda'), -1 the host backend, else a device ordinal."""
    cdef int64_t nn = operator.index(n)
    cdef int64_t start = operator.index(first)
    cdef uint64_t key = check_seed(seed)
    cdef int dev
    if device is None:
        dev = rt.current_device() if use_cuda_for_host_data() else kHostDevice
    else:
        dev = device
    cdef StreamHandle s = resolve_stream(stream)
    cdef uint64_t hits = 0, part
    cdef int64_t done = 0, step
    if dev != kHostDevice or nn <= _HOST_PI_CHUNK:
        with nogil:
            hits = monte_carlo_pi_hits_range(start, nn, key, dev, s)
        return hits
    # the whole range's checks (npgpu::monte_carlo_pi_hits_range's), before hours of chunks
    if nn > 2 ** 62:
        raise ValueError(f"monte_carlo_pi: n must be at most 2^62, got {nn}")
    if start < 0 or start > 2 ** 62 - nn:
        raise ValueError(f"monte_carlo_pi: the points [first, first + n) must lie in [0, 2^62), got first={start}")
    while done < nn:
        step = min(<int64_t>_HOST_PI_CHUNK, nn - done)
        with nogil:
            part = monte_carlo_pi_hits_range(start + done, step, key, dev, s)
        hits += part
        done += step
        PyErr_CheckSignals()  # Ctrl-C between the chunks of a long host-backend count
    return hits


def monte_carlo_pi(n, seed=None, stream=None):
    """Estimate pi from n random points in the unit square: 4 * (points with x*x + y*y <= 1) / n.

    The points are generated (Philox4x32-10, eight points per call), tested and counted inside one kernel
    and never stored, so memory use does not grow with n (n up to 2**62; counts are 64-bit). The result
    depends only on (n, seed): the same on every GPU and on the host backend (OpenMP), which runs it when
    the backend is 'cpu' (``npgpu.use_backend``, ``NPGPU_BACKEND``) or there is no GPU. ``seed=None`` draws
    a seed from the operating system. Each point has 40-bit coordinates (x = (k + 1/2) / 2**40) and
    ``x*x + y*y <= 1`` is decided exactly; only the top 8 bits of each coordinate are drawn unless the
    point's 2**-8 cell straddles the circle (about one point in 128), so eight points come from one
    Philox call. The grid's bias (below 1e-11) is far below the sampling error (~1.6 / sqrt(n)).
    """
    nn = operator.index(n)
    if nn < 1 or nn > 2 ** 62:
        raise ValueError(f"monte_carlo_pi: n must be between 1 and 2**62, got {nn}")
    return 4.0 * _pi_hits(nn, seed, None, stream) / nn


def philox4x32_10(counter, key):
    """One Philox4x32-10 evaluation: counter (4 uint32 words), key (2 words) -> 4 words (host code)."""
    cdef uint32_t c[4]
    cdef uint32_t k[2]
    cdef uint32_t o[4]
    counter = [int(x) for x in counter]
    key = [int(x) for x in key]
    if len(counter) != 4 or len(key) != 2:
        raise ValueError("philox4x32_10 takes 4 counter words and 2 key words")
    for i in range(4):
        c[i] = counter[i]
    for i in range(2):
        k[i] = key[i]
    c_philox(c, k, o)
    return (o[0], o[1], o[2], o[3])
