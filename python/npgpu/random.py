"""Random numbers on counter-based Philox4x32-10: ``npgpu.random.default_rng(seed)``.

A :class:`Generator` is a 64-bit seed (the Philox key) and a counter (the next Philox block). Element i of
a draw is a pure function of (seed, counter, i), so the numbers are the same on every GPU, on the host
backend and for any launch geometry, bit for bit; each draw then advances the counter past the blocks it
used (one 32-bit word per value of a 1-, 2- or 4-byte dtype, two per value of an 8-byte dtype, rounded up
to whole blocks of four words). ``csrc/include/npgpu/random.hpp`` defines every value exactly.

Where results go:

- by default a NumPy array, computed on the GPU (and moved through the pinned staging ring) when the
  backend is 'cuda', on the host backend (OpenMP) otherwise;
- ``device=True`` returns an :class:`npgpu.Array` on the current device (``device=<ordinal>`` or an
  ``npgpu.Device``: on that device), filled asynchronously on ``stream``;
- ``out=`` fills an existing C-contiguous array: an ``npgpu.Array`` on its device, or a NumPy array.

``size=None`` gives one value (a NumPy scalar, or a 0-d npgpu.Array with ``device=``).

Integers are exactly unbiased: Lemire's multiply-and-reject method (a value's word times the range; the
rare draws that would favour some values are rejected and redrawn from retry blocks of that element's
own, so the element -> word mapping never shifts). Normals use Box-Muller on pairs of values, computed in
float64 with npgpu's own log and sincos (correctly rounded basic operations only, so GPU and CPU agree).
Parameters are scalars.
"""
import operator
import threading

import numpy as np

from npgpu import _random
from npgpu._array import Array, empty
from npgpu._random import monte_carlo_pi

__all__ = ["Generator", "default_rng", "monte_carlo_pi"]

_U64 = 1 << 64
_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def _shape(size):
    if size is None:
        return None
    if isinstance(size, (bool, np.bool_)):
        raise TypeError("size must be None, an int or a tuple of ints, not bool")
    if isinstance(size, (int, np.integer)):
        size = (int(size),)
    try:
        shape = tuple(operator.index(s) for s in size)
    except TypeError:
        raise TypeError(f"size must be None, an int or a tuple of ints, not {size!r}") from None
    for s in shape:
        if s < 0:
            raise ValueError(f"negative dimensions are not allowed (size={shape})")
    return shape


def _device_arg(device):
    """None for a NumPy result, else the device ordinal (None -> current) for an npgpu.Array."""
    if device is False or device is None:
        return False, None
    if device is True:
        return True, None
    return True, device


class Generator:
    """Philox4x32-10 random numbers with NumPy's Generator interface (a subset).

    ``Generator(seed)``: seed an int in [0, 2**64) (None: from the operating system); ``counter`` is the
    Philox block the next draw starts at (0 for a new generator). Each method takes ``size`` (None, an int
    or a tuple), ``dtype``, and where the result goes: ``out=`` (an npgpu.Array or a NumPy array,
    C-contiguous), ``device=`` (False: a NumPy array; True, an ordinal or an npgpu.Device: an npgpu.Array
    there) and ``stream=``. Thread-safe: concurrent draws get disjoint blocks.
    """

    def __init__(self, seed=None, counter=0):
        self._seed = _random.check_seed(seed)
        counter = operator.index(counter)
        if not 0 <= counter < _U64:
            raise ValueError(f"counter must be in [0, 2**64), got {counter}")
        self._counter = counter
        self._lock = threading.Lock()

    @property
    def seed(self):
        """The 64-bit Philox key."""
        return self._seed

    @property
    def counter(self):
        """The Philox block the next draw starts at."""
        return self._counter

    def __repr__(self):
        return f"npgpu.random.Generator(seed={self._seed}, counter={self._counter})"

    def __getstate__(self):
        return {"seed": self._seed, "counter": self._counter}

    def __setstate__(self, state):
        self.__init__(state["seed"], state["counter"])

    # ------------------------------------------------------------------------------------------ drawing

    def _draw(self, dist, dtype, size, out, device, stream, a=0.0, b=1.0, low=0, range_m1=0, default=None):
        shape = _shape(size)
        if out is not None:
            if not isinstance(out, (Array, np.ndarray)):
                raise TypeError(f"out must be an npgpu.Array or a numpy.ndarray, not {type(out).__name__}")
            if dtype is not None and np.dtype(dtype) != out.dtype:
                raise TypeError(f"dtype {np.dtype(dtype)} does not match out's dtype {out.dtype}")
            if shape is not None and shape != tuple(out.shape):
                raise ValueError(f"size {shape} does not match out's shape {tuple(out.shape)}")
            if device is not False and device is not None:
                raise ValueError("give either out= or device=, not both")
            flags = out.flags
            if out.size and not flags["C_CONTIGUOUS"]:
                raise ValueError("out must be C-contiguous")
            if not flags["WRITEABLE"]:
                raise ValueError("out is read-only")
            dt = out.dtype
        else:
            dt = np.dtype(default if dtype is None else dtype)
        # Same checks as the fill (TypeError for the dtype, ValueError for the parameters), before the
        # counter moves or memory is allocated.
        _random.check(dist, dt, a, b, low, range_m1)
        if out is None:
            on_device, dev = _device_arg(device)
            full = () if shape is None else shape
            out = empty(full, dt, device=dev, stream=stream) if on_device else np.empty(full, dtype=dt)
            scalar = shape is None and not on_device
        else:
            scalar = False
        n = int(np.prod(out.shape, dtype=np.int64)) if len(out.shape) else 1
        need = _random.blocks(dt, n)
        with self._lock:
            start = self._counter
            self._counter = (start + need) % _U64
        _random.fill(dist, self._seed, start, a, b, low, range_m1, out, stream)
        return out[()] if scalar else out

    def random(self, size=None, dtype=None, out=None, device=False, stream=None):
        """Uniform floats in [0, 1) (float64 by default, or float32): 53 (24) random bits each."""
        return self._draw(_random.UNIFORM, dtype, size, out, device, stream, 0.0, 1.0, default=np.float64)

    def uniform(self, low=0.0, high=1.0, size=None, dtype=None, out=None, device=False, stream=None):
        """Uniform floats in [low, high): ``low + (high - low) * random()`` in float64, rounded to dtype.
        low >= high, or non-finite bounds, raise ValueError."""
        return self._draw(_random.UNIFORM, dtype, size, out, device, stream, float(low), float(high),
                          default=np.float64)

    def standard_normal(self, size=None, dtype=None, out=None, device=False, stream=None):
        """Standard normal floats (Box-Muller)."""
        return self._draw(_random.NORMAL, dtype, size, out, device, stream, 0.0, 1.0, default=np.float64)

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=None, out=None, device=False, stream=None):
        """Normal floats ``loc + scale * standard_normal()``; scale < 0 raises ValueError."""
        return self._draw(_random.NORMAL, dtype, size, out, device, stream, float(loc), float(scale),
                          default=np.float64)

    def integers(self, low, high=None, size=None, dtype=None, endpoint=False, out=None, device=False,
                 stream=None):
        """Uniform integers in [low, high) ([low, high] with endpoint=True; [0, low) when high is None),
        exactly unbiased. dtype: int64 by default, or any integer dtype or bool; [low, high) must be
        non-empty and inside the dtype's range (ValueError otherwise)."""
        if high is None:
            low, high = 0, low
        try:
            low, high = operator.index(low), operator.index(high)
        except TypeError:
            raise TypeError("integers: low and high must be integers") from None
        if endpoint:
            high += 1
        if low >= high:
            raise ValueError(f"integers: low >= high (low={low}, high={high}{', endpoint' if endpoint else ''})")
        dt = (out.dtype if out is not None else np.dtype(np.int64)) if dtype is None else np.dtype(dtype)
        if dt.kind not in "biu":
            raise TypeError(f"integers: unsupported dtype {dt} (bool or an integer dtype)")
        info = (0, 1) if dt.kind == "b" else (int(np.iinfo(dt).min), int(np.iinfo(dt).max))
        if low < info[0] or high - 1 > info[1]:
            raise ValueError(f"integers: [low, high) = [{low}, {high}) is outside the range of {dt}")
        return self._draw(_random.INTEGERS, dt if out is None else dtype, size, out, device, stream,
                          low=low % _U64, range_m1=high - low - 1, default=dt)


def default_rng(seed=None):
    """A :class:`Generator` seeded with `seed` (an int in [0, 2**64), or None for OS entropy); a Generator
    is returned as it is."""
    if isinstance(seed, Generator):
        return seed
    return Generator(seed)
