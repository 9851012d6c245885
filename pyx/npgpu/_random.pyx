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
from npgpu.lib.random cimport RandomDist, RandomSpec, kRandomStreamVersion, random_blocks, random_fill, \
    random_fill_staged, monte_carlo_pi_hits, monte_carlo_pi_hits_range, philox4x32_10 as c_philox
from npgpu.lib.runtime cimport StreamHandle
from npgpu.lib.view cimport ArrayView, DType, kHostDevice

UNIFORM = <int>RandomDist.Uniform
NORMAL = <int>RandomDist.Normal
INTEGERS = <int>RandomDist.Integers
# The newest version of the streams (see fill's `version`).
STREAM_VERSION = kRandomStreamVersion

_U64 = 1 << 64
MAX_PI_SAMPLES = 1 << 62


def check_seed(seed):
    """The 64-bit Philox key of `seed`: None draws one from the OS; an int must lie in [0, 2^64).

    Parameters
    ----------
    seed : int or None
        A Python or NumPy integer in [0, 2**64) (bool is refused), or None for 8 bytes of ``os.urandom``.

    Returns
    -------
    int
        The key.

    Raises
    ------
    TypeError
        `seed` is not None or an integer (or is a bool).
    ValueError
        `seed` is outside [0, 2**64).

    Examples
    --------
    >>> from npgpu import _random
    >>> _random.check_seed(42)
    42
    >>> 0 <= _random.check_seed(None) < 2**64
    True
    """
    if seed is None:
        return int.from_bytes(os.urandom(8), "little")
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be None or an int in [0, 2**64), not {type(seed).__name__}")
    seed = int(seed)
    if not 0 <= seed < _U64:
        raise ValueError(f"seed must be in [0, 2**64), got {seed}")
    return seed


cdef RandomSpec make_spec(int dist, uint64_t seed, uint64_t counter, double a, double b, uint64_t low,
                          uint64_t range_m1, int version=kRandomStreamVersion):
    cdef RandomSpec spec
    spec.dist = <RandomDist>dist
    spec.seed = seed
    spec.counter = counter
    spec.a = a
    spec.b = b
    spec.low = low
    spec.range_m1 = range_m1
    spec.version = version
    return spec


def blocks(dtype, n):
    """Philox blocks a draw of n values of dtype consumes (what a Generator's counter advances by).

    A block is one Philox4x32-10 call: four 32-bit words. Each value takes two words for dtypes of 8 bytes,
    one otherwise, so the count is ``ceil(n * words / 4)``.

    Parameters
    ----------
    dtype : dtype
        The dtype drawn (one npgpu supports).
    n : int
        The number of values.

    Returns
    -------
    int
        The number of blocks.

    Raises
    ------
    ValueError
        `n` is negative.
    TypeError
        npgpu does not support `dtype`.

    Examples
    --------
    >>> from npgpu import _random
    >>> _random.blocks(np.float32, 10), _random.blocks(np.float64, 10)
    (3, 5)
    """
    return random_blocks(dtype_code(np.dtype(dtype)), n)


def check(int dist, dtype, double a=0.0, double b=1.0, uint64_t low=0, uint64_t range_m1=0):
    """Raise TypeError / ValueError exactly as a fill with these parameters would (nothing is drawn).

    Parameters
    ----------
    dist : int
        ``UNIFORM``, ``NORMAL`` or ``INTEGERS`` (this module's constants).
    dtype : dtype
        The output dtype: float32 or float64 for UNIFORM and NORMAL; bool or an integer dtype for INTEGERS.
    a, b : float, optional
        UNIFORM: low < high, both finite. NORMAL: loc (finite) and scale (finite, >= 0). Unused by INTEGERS.
    low : int, optional
        INTEGERS: the lowest value, as a uint64 (two's complement for negative values of signed dtypes).
    range_m1 : int, optional
        INTEGERS: high - low - 1 (2**64 - 1: every 64-bit value).

    Returns
    -------
    None
        When a fill would accept the parameters.

    Raises
    ------
    TypeError
        The distribution does not produce `dtype`, or npgpu does not support it.
    ValueError
        Bad parameters (low >= high, a range outside the dtype, a negative scale, non-finite values) or an
        unknown distribution.

    See Also
    --------
    fill

    Examples
    --------
    >>> from npgpu import _random
    >>> _random.check(_random.UNIFORM, np.float32, 0.0, 1.0)
    >>> _random.check(_random.UNIFORM, np.float32, 1.0, 0.0)
    Traceback (most recent call last):
        ...
    ValueError: random uniform: low must be less than high, got low=1.000000, high=0.000000
    >>> _random.check(_random.INTEGERS, np.float32)
    Traceback (most recent call last):
        ...
    TypeError: random integers: unsupported dtype float32 (bool or an integer dtype)
    """
    cdef RandomSpec spec = make_spec(dist, 0, 0, a, b, low, range_m1)
    cdef ArrayView v = host_view(np.empty(0, dtype=dtype), True)
    random_fill(spec, v, <StreamHandle>NULL)


def fill(int dist, uint64_t seed, uint64_t counter, double a, double b, uint64_t low, uint64_t range_m1, out,
         stream=None, int version=STREAM_VERSION):
    """Fill `out` with the random stream's values starting at Philox block `counter`.

    `out` is an npgpu.Array, filled on its device (asynchronously on a GPU), or a C-contiguous NumPy array,
    filled on the GPU through the staging ring when the backend is 'cuda', on the host backend otherwise.
    Element i is a pure function of (seed, counter, i), drawn from the words from index ``4 * counter`` of
    the seed's stream on: the same on every GPU and on the host backend, for any chunking. A Generator
    advances its counter by ``blocks(dtype, n)`` after each fill of n values.

    Parameters
    ----------
    dist : int
        ``UNIFORM`` (values in [a, b)), ``NORMAL`` (loc a, scale b) or ``INTEGERS`` (values in
        [low, low + range_m1]).
    seed : int
        The 64-bit Philox key (see check_seed).
    counter : int
        The Philox block element 0 starts at (a Generator's position).
    a, b : float
        UNIFORM: low < high, both finite. NORMAL: loc and scale (>= 0). Unused by INTEGERS.
    low, range_m1 : int
        INTEGERS: the lowest value as a uint64 (two's complement for signed dtypes) and high - low - 1.
        Unused otherwise.
    out : npgpu.Array or numpy.ndarray
        The output, C-contiguous and writeable; float32 or float64 for UNIFORM and NORMAL, bool or an integer
        dtype for INTEGERS.
    stream : Stream, optional
        The stream of the device work (default: the current stream).
    version : int, optional
        The stream's version, 1 to ``STREAM_VERSION`` (the default): version 2 draws float32 normals by the
        ziggurat, version 1 by Box-Muller; every other value is the same in both.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        `out`.

    Raises
    ------
    TypeError
        `out` is neither an npgpu.Array nor a NumPy array, or the distribution does not produce its dtype.
    ValueError
        `out` is not C-contiguous or is read-only, the parameters are bad (see check), or `version` is unknown.

    See Also
    --------
    blocks : How far a fill advances the counter.
    npgpu.random.Generator : The public generator, built on this.

    Examples
    --------
    >>> from npgpu import _random
    >>> _random.fill(_random.UNIFORM, 42, 0, 0.0, 1.0, 0, 0, np.empty(4))
    array([0.46858652, 0.34086155, 0.32706338, 0.4543156 ])
    >>> _random.fill(_random.INTEGERS, 42, 0, 0.0, 0.0, 10, 9, np.empty(6, dtype=np.int64))  # in [10, 20)
    array([14, 13, 13, 14, 16, 17])

    Starting one block later (two float64 values) gives the same values, shifted:

    >>> a = _random.fill(_random.NORMAL, 7, 0, 0.0, 1.0, 0, 0, np.empty(6))
    >>> b = _random.fill(_random.NORMAL, 7, 1, 0.0, 1.0, 0, 0, np.empty(4))
    >>> bool(np.array_equal(a[2:], b))
    True
    """
    cdef RandomSpec spec = make_spec(dist, seed, counter, a, b, low, range_m1, version)
    cdef StreamHandle s = resolve_stream(stream)
    cdef ArrayView v
    cdef Array arr
    cdef int device
    if isinstance(out, Array):
        arr = <Array>out
        with nogil:
            random_fill(spec, arr._view, s)
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
# Points per GPU call of a long count: a fraction of a second each, so Ctrl-C is honoured between them, and
# few enough calls that their launches and synchronisations cost nothing measurable.
_DEVICE_PI_CHUNK = 1 << 37


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
    cdef int64_t chunk = _HOST_PI_CHUNK if dev == kHostDevice else _DEVICE_PI_CHUNK
    if nn <= chunk:
        with nogil:
            hits = monte_carlo_pi_hits_range(start, nn, key, dev, s)
        return hits
    # the whole range's checks (npgpu::monte_carlo_pi_hits_range's), before hours of chunks
    if nn > 2 ** 62:
        raise ValueError(f"monte_carlo_pi: n must be at most 2^62, got {nn}")
    if start < 0 or start > 2 ** 62 - nn:
        raise ValueError(f"monte_carlo_pi: the points [first, first + n) must lie in [0, 2^62), got first={start}")
    while done < nn:
        step = min(chunk, nn - done)
        with nogil:
            part = monte_carlo_pi_hits_range(start + done, step, key, dev, s)
        hits += part
        done += step
        PyErr_CheckSignals()  # Ctrl-C between the chunks of a long count
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

    Parameters
    ----------
    n : int
        The number of points, 1 to 2**62.
    seed : int, optional
        The 64-bit Philox key, in [0, 2**64); None (default) draws one from the operating system.
    stream : Stream, optional
        The stream of the GPU kernel (default: the current stream). The call returns when the count is done.

    Returns
    -------
    float
        ``4 * hits / n``.

    Raises
    ------
    ValueError
        `n` is outside [1, 2**62], or `seed` outside [0, 2**64).
    TypeError
        `n` is not an integer, or `seed` is not None or an integer.
    GPUUnavailableError
        The backend is 'cuda' (``NPGPU_BACKEND=cuda``) and no GPU is usable.

    Notes
    -----
    A count of more than 2**24 points on the host backend (2**37 on a GPU) runs in chunks of that many
    points, between which Ctrl-C (KeyboardInterrupt) is honoured.

    Examples
    --------
    >>> npgpu.monte_carlo_pi(10**6, seed=1)
    3.14264
    >>> npgpu.monte_carlo_pi(1000, seed=1) == npgpu.monte_carlo_pi(1000, seed=1)
    True
    """
    nn = operator.index(n)
    if nn < 1 or nn > 2 ** 62:
        raise ValueError(f"monte_carlo_pi: n must be between 1 and 2**62, got {nn}")
    return 4.0 * _pi_hits(nn, seed, None, stream) / nn


def philox4x32_10(counter, key):
    """One Philox4x32-10 evaluation: counter (4 uint32 words), key (2 words) -> 4 words (host code).

    For known-answer tests and reference implementations; needs no GPU.

    Parameters
    ----------
    counter : sequence of 4 ints
        The counter words, each in [0, 2**32).
    key : sequence of 2 ints
        The key words, each in [0, 2**32).

    Returns
    -------
    tuple of 4 ints
        The output words.

    Raises
    ------
    ValueError
        `counter` does not have 4 words or `key` 2.
    OverflowError
        A word is outside [0, 2**32).
    TypeError
        `counter` or `key` is not iterable (its words are converted with int()).

    Examples
    --------
    Random123's known answer for a zero counter and key:

    >>> [hex(w) for w in npgpu._random.philox4x32_10([0, 0, 0, 0], [0, 0])]
    ['0x6627e8d5', '0xe169c58d', '0xbc57ac4c', '0x9b00dbd8']
    """
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
