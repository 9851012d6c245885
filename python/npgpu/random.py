"""Random numbers on counter-based Philox4x32-10: ``npgpu.random.default_rng(seed)``.

A :class:`Generator` draws from a :class:`Philox` bit generator: a 64-bit seed (the Philox key) and a counter
(the next Philox block), which several Generators may share. Element i of
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
own, so the element -> word mapping never shifts). Float32 normals come from one word each by the 256-layer ziggurat
(NumPy's float32 algorithm), float64 normals from pairs of values by Box-Muller with npgpu's own log and
sincos; both use correctly rounded basic operations only, so GPU and CPU agree.

The streams are versioned (``Generator(seed, version=...)``, ``STREAM_VERSION`` the newest): version 2 (the
default) draws float32 normals by the ziggurat, version 1 by Box-Muller as npgpu did before; every other
value is the same in both, so a program that saved a seed can get its numbers again.
Distribution parameters may be arrays, broadcast as NumPy's (each method's docstring says how).
"""
import math
import operator
import threading

import numpy as np

import npgpu as xp
from npgpu import _random
from npgpu._array import Array, empty
from npgpu._random import monte_carlo_pi

__all__ = ["STREAM_VERSION", "BitGenerator", "Philox", "Generator", "default_rng", "monte_carlo_pi"]

STREAM_VERSION = _random.STREAM_VERSION

_U64 = 1 << 64
_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))

_MAX_ROUNDS = 200
_HALF_LN_2PI = 0.5 * math.log(2.0 * math.pi)
_LFACT_TABLE = np.array([math.lgamma(i + 1.0) for i in range(126)])
_LFACT_CACHE = {}
_SPAWN_DOMAIN = 0x5350574E
_TWO63 = 2.0 ** 63
_POISSON_LAM_MAX = float(np.iinfo(np.int64).max) - math.sqrt(float(np.iinfo(np.int64).max)) * 10.0


def _lt(x, y):
    return x < y


def _le(x, y):
    return x <= y


def _gt(x, y):
    return x > y


def _eq(x, y):
    return x == y


def _ne(x, y):
    return x != y


def _ge(x, y):
    return x >= y


def _is_array_param(x):
    return isinstance(x, Array) or np.ndim(x) != 0


def _isnan(x):
    return x != x


def _floor(x):
    if isinstance(x, Array):
        return xp.floor(x)
    return float(math.floor(x)) if math.isfinite(x) else x


def _wrap(x):
    """Angles x wrapped to [-pi, pi)."""
    return xp.remainder(x + math.pi, 2.0 * math.pi) - math.pi


def _norm_axis(axis, ndim):
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(axis, ndim)
    return axis % ndim


def _lfact_np(k):
    """log(k!) for a float64 NumPy array of non-negative integers (host; the same formula as _lfact)."""
    k = np.asarray(k, dtype=np.float64)
    small = _LFACT_TABLE[np.clip(k, 0, 125).astype(np.int64)]
    kk = np.maximum(k, 1.0)
    big = (kk + 0.5) * np.log(kk) - kk + (_HALF_LN_2PI + (1.0 / kk) * (1.0 / 12 - 1.0 / (360.0 * kk * kk)))
    return np.where(k < 126, small, big)


def _hyper_cdf(g, b, s):
    """(lo, cdf): the first value of the support and the normalised cdf of Hypergeometric(g, b, s), on the
    host from log-factorials, trimmed to 40 standard deviations around the mean."""
    tot = g + b
    lo, hi = max(0, s - b), min(s, g)
    mean = s * g / tot if tot else 0.0
    sd = math.sqrt(s * (g / tot) * (b / tot) * (tot - s) / (tot - 1)) if tot > 1 else 0.0
    lo = max(lo, int(math.floor(mean - 40.0 * sd - 20.0)))
    hi = min(hi, int(math.ceil(mean + 40.0 * sd + 20.0)))
    ks = np.arange(lo, hi + 1, dtype=np.float64)
    logp = -(_lfact_np(ks) + _lfact_np(g - ks) + _lfact_np(s - ks) + _lfact_np(b - s + ks))
    pmf = np.exp(logp - logp.max())
    cdf = np.cumsum(pmf)
    cdf /= cdf[-1]
    return lo, cdf


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


def _check_counter(counter, name="counter"):
    if isinstance(counter, (bool, np.bool_)):
        raise TypeError(f"{name} must be an int, not bool")
    counter = operator.index(counter)
    if not 0 <= counter < _U64:
        raise ValueError(f"{name} must be in [0, 2**64), got {counter}")
    return counter


def _check_version(version):
    if isinstance(version, (bool, np.bool_)):
        raise TypeError("version must be an int, not bool")
    version = operator.index(version)
    if not 1 <= version <= STREAM_VERSION:
        raise ValueError(f"version must be 1 to {STREAM_VERSION}, got {version}")
    return version


class BitGenerator:
    """The base class of npgpu's bit generators, in the role of numpy.random.BitGenerator.

    A bit generator holds the state a `Generator` draws from. npgpu has one, `Philox`; this class exists so
    ``isinstance(x, npgpu.random.BitGenerator)`` reads as it does in NumPy.

    Raises
    ------
    TypeError
        On instantiation: use `Philox`.

    See Also
    --------
    Philox : npgpu's bit generator.

    Examples
    --------
    >>> isinstance(npgpu.random.Philox(1), npgpu.random.BitGenerator)
    True
    """

    def __new__(cls, *args, **kwargs):
        if cls is BitGenerator:
            raise TypeError("BitGenerator is abstract: use npgpu.random.Philox")
        return super().__new__(cls)


class Philox(BitGenerator):
    """The Philox4x32-10 state that npgpu's Generators draw from, in the role of numpy.random.Philox.

    A Philox is a 64-bit key (`seed`), a 64-bit block counter and the streams' version. Every Generator built
    on one Philox draws from it and moves its counter, so two Generators sharing it never draw the same
    blocks, as two NumPy Generators sharing a bit generator.

    Parameters
    ----------
    seed : None, int, array_like of ints or SeedSequence, optional
        An int in [0, 2**64) is the key itself; None (default) draws one from the operating system; a
        `SeedSequence`, or a sequence of non-negative ints taken as a SeedSequence's entropy, gives the first
        64-bit word of its state, as `default_rng`.
    counter : int or None, optional
        The Philox block the next draw starts at, in [0, 2**64); None (default) is 0.
    version : int, optional, keyword-only
        The streams' version, 1 to ``STREAM_VERSION`` (the default); see `Generator`.

    Attributes
    ----------
    seed : int
        The 64-bit Philox key.
    counter : int
        The Philox block the next draw starts at.
    version : int
        The streams' version.
    state : dict
        ``{"bit_generator": "Philox4x32-10", "state": {"seed", "counter", "version"}}``; assigning one
        restores it.
    lock : threading.RLock
        Held by each draw while it takes its blocks.

    Raises
    ------
    TypeError
        NumPy's Generator or BitGenerator (npgpu cannot continue their streams), a seed of another type, or a
        `counter` or `version` that is not an integer.
    ValueError
        A `seed` or `counter` outside [0, 2**64), negative entropy, or an unknown `version`.

    See Also
    --------
    Generator : Draws from a Philox.
    default_rng : A Generator on a new Philox.

    Notes
    -----
    NumPy's Philox is Philox4x64-10, with a 256-bit counter and a 128-bit key; this one is Philox4x32-10
    (cuRAND's), with a 64-bit key and one 64-bit block counter, so the numbers are npgpu's, not NumPy's. NumPy's
    ``jumped``, ``random_raw`` and ``seed_seq`` are not provided: `spawn` makes independent streams, and
    `advance` moves the counter.

    Examples
    --------
    >>> bg = npgpu.random.Philox(42)
    >>> bg
    npgpu.random.Philox(seed=42, counter=0)
    >>> a, b = npgpu.random.Generator(bg), npgpu.random.Generator(bg)
    >>> x = a.random(8)  # 8 float64 values: 4 blocks
    >>> bg.counter
    4
    >>> bool(np.array_equal(b.random(8), npgpu.random.Generator(42, counter=4).random(8)))
    True
    """

    def __init__(self, seed=None, counter=None, *, version=STREAM_VERSION):
        self._seed = _random.check_seed(_seed_key(seed))
        self._counter = 0 if counter is None else _check_counter(counter)
        self._version = _check_version(version)
        self._lock = threading.RLock()
        self._spawned = 0

    @property
    def seed(self):
        """The 64-bit Philox key."""
        return self._seed

    @property
    def counter(self):
        """The Philox block the next draw starts at."""
        return self._counter

    @property
    def version(self):
        """The streams' version (1 to STREAM_VERSION)."""
        return self._version

    @property
    def lock(self):
        """The lock each draw holds while it takes its blocks (NumPy's BitGenerator.lock)."""
        return self._lock

    @property
    def state(self):
        """``{"bit_generator": "Philox4x32-10", "state": {"seed", "counter", "version"}}``; assign one (from
        this property, `get_state` or `RandomState.get_state`) to restore it.

        Examples
        --------
        >>> bg = npgpu.random.Philox(3)
        >>> saved = bg.state
        >>> g = npgpu.random.Generator(bg)
        >>> a = g.random(4)
        >>> bg.state = saved
        >>> bool(np.array_equal(a, g.random(4)))
        True
        """
        with self._lock:
            return _state_dict(self._seed, self._counter, self._version)

    @state.setter
    def state(self, state):
        seed, counter, version = _parse_state(state)
        with self._lock:
            self._seed, self._counter, self._version = seed, counter, version

    def advance(self, delta):
        """Move the counter `delta` blocks ahead (modulo 2**64), as if draws had used them.

        Parameters
        ----------
        delta : int
            Blocks of four 32-bit words, in [0, 2**64).

        Returns
        -------
        Philox
            This bit generator, as NumPy's ``advance``.

        Examples
        --------
        >>> bg = npgpu.random.Philox(5).advance(3)
        >>> bg.counter
        3
        >>> bool(np.array_equal(npgpu.random.Generator(bg).random(2), npgpu.random.Generator(5, 3).random(2)))
        True
        """
        delta = _check_counter(delta, "delta")
        with self._lock:
            self._counter = (self._counter + delta) % _U64
        return self

    def spawn(self, n_children):
        """`n_children` independent Philox bit generators; see `Generator.spawn` for how their keys are made.

        Parameters
        ----------
        n_children : int
            The number of children, >= 0.

        Returns
        -------
        list of Philox
            New bit generators, counter 0, of this one's version.

        Raises
        ------
        ValueError
            A negative `n_children`.
        OverflowError
            n_children >= 2**63.

        Examples
        --------
        >>> kids = npgpu.random.Philox(1).spawn(2)
        >>> kids[0].seed != kids[1].seed, kids[0].seed == npgpu.random.default_rng(1).spawn(1)[0].seed
        (True, True)
        """
        n = operator.index(n_children)
        if n < 0:
            raise ValueError("n_children must be non-negative")
        if n >= 2 ** 63:
            raise OverflowError(f"n_children={n} is too large (at most 2**63 - 1)")
        with self._lock:
            first = self._spawned
            self._spawned += n
        key = (self._seed & 0xFFFFFFFF, self._seed >> 32)
        kids = []
        for j in range(first, first + n):
            w = _random.philox4x32_10((j & 0xFFFFFFFF, (j >> 32) & 0xFFFFFFFF, 1, _SPAWN_DOMAIN), key)
            kids.append(Philox(w[0] | (w[1] << 32), version=self._version))
        return kids

    def _take(self, blocks):
        """The first of `blocks` blocks, which the counter then moves past; the caller holds the lock."""
        start = self._counter
        self._counter = (start + blocks) % _U64
        return start

    def __repr__(self):
        v = "" if self._version == STREAM_VERSION else f", version={self._version}"
        return f"npgpu.random.Philox(seed={self._seed}, counter={self._counter}{v})"

    def __getstate__(self):
        return {"seed": self._seed, "counter": self._counter, "spawned": self._spawned, "version": self._version}

    def __setstate__(self, state):
        self.__init__(state["seed"], state["counter"], version=state["version"])
        self._spawned = state["spawned"]


class Generator:
    """Philox4x32-10 random numbers with NumPy's Generator interface (a subset).

    A generator is a 64-bit seed (the Philox key) and a counter (the Philox block the next draw starts at).
    Element i of a draw is a pure function of (seed, counter, i), so the numbers are the same on every GPU,
    on the host backend and for any launch geometry, bit for bit; each draw then moves the counter past the
    blocks it used (modulo 2**64). Thread-safe: concurrent draws get disjoint blocks.

    Parameters
    ----------
    seed : int, None or Philox, optional
        The Philox key, an int in [0, 2**64); None (default) draws one from the operating system. A `Philox`
        bit generator is drawn from, shared, as NumPy's ``Generator(bit_generator)``: its counter moves with
        every draw of every Generator built on it.
    counter : int, optional
        The Philox block the next draw starts at, in [0, 2**64) (default 0: a new generator). Not with a
        Philox, which has its own.
    version : int, optional, keyword-only
        The streams' version, 1 to ``STREAM_VERSION`` (the default). Version 2 draws float32 normals by the
        ziggurat, version 1 by Box-Muller (npgpu's streams before version 2); every other value is the same.
        Not with a Philox, which has its own.

    Attributes
    ----------
    seed : int
        The 64-bit Philox key.
    counter : int
        The Philox block the next draw starts at.
    version : int
        The streams' version.
    bit_generator : Philox
        The state drawn from (made from `seed`, `counter` and `version` unless one was given).

    Raises
    ------
    TypeError
        A `seed` that is neither None, an int (bool excluded) nor a Philox (NumPy's bit generators included),
        a `counter` or `version` that is not an integer, or either of them given with a Philox.
    ValueError
        A `seed` or a `counter` outside [0, 2**64), or an unknown `version`.

    See Also
    --------
    default_rng : A Generator from a seed.

    Notes
    -----
    Each method takes ``size`` (None, an int or a tuple) and where the result goes: ``out=`` (an npgpu.Array
    or a NumPy array, C-contiguous) or ``device=`` (False: a NumPy array; True, an ordinal or an npgpu.Device:
    an npgpu.Array there); most take ``dtype``, and the compiled draws (random, uniform, standard_normal, normal
    and integers with scalar parameters) also take ``stream=``.

    Every other method is composed of the three compiled streams (uniform, normal, integers) and npgpu array
    operations on work arrays on one device: the result's device for ``device=`` / ``out=``, else the default
    device (the GPU when the backend is 'cuda', the host device otherwise), copied back into NumPy at the end.
    The generator's lock is held for the whole method, so the blocks a composed draw uses are contiguous in
    the counter even when other threads draw too.

    Pickling keeps the seed, the counter, the version and the spawn count (see `spawn`).

    Examples
    --------
    >>> g = npgpu.random.Generator(42)
    >>> g
    npgpu.random.Generator(seed=42, counter=0)
    >>> x = g.random(5)
    >>> g.counter  # 5 float64 values use 10 words: 3 blocks of four
    3
    >>> bool(np.array_equal(x, npgpu.random.Generator(42).random(5)))
    True
    >>> y = npgpu.random.Generator(42, counter=3).random(2)  # resume where the first draw ended
    >>> bool(np.array_equal(y, g.random(2)))
    True
    """

    def __init__(self, seed=None, counter=0, *, version=STREAM_VERSION):
        if isinstance(seed, BitGenerator):
            if (isinstance(counter, (bool, np.bool_)) or operator.index(counter) != 0
                    or version is not STREAM_VERSION):
                raise TypeError("counter and version belong to the bit generator: give them to Philox, not to "
                                "a Generator built on one")
            self._bit_generator = seed
            return
        _refuse_numpy_generators(seed)
        # Only None and ints here (a SeedSequence goes through default_rng or Philox), as before Philox existed.
        self._bit_generator = Philox(_random.check_seed(seed), _check_counter(counter), version=version)

    # The state lives in the bit generator, which other Generators may share.
    @property
    def bit_generator(self):
        """The `Philox` this generator draws from (shared with every Generator built on it)."""
        return self._bit_generator

    seed = property(lambda self: self._bit_generator.seed, doc=Philox.seed.__doc__)
    counter = property(lambda self: self._bit_generator.counter, doc=Philox.counter.__doc__)
    version = property(lambda self: self._bit_generator.version, doc=Philox.version.__doc__)
    _lock = property(lambda self: self._bit_generator.lock)
    _seed, _counter, _version = seed, counter, version

    def __repr__(self):
        v = "" if self._version == STREAM_VERSION else f", version={self._version}"
        return f"npgpu.random.Generator(seed={self._seed}, counter={self._counter}{v})"

    def __getstate__(self):
        b = self._bit_generator
        return {"seed": b._seed, "counter": b._counter, "spawned": b._spawned, "version": b._version}

    def __setstate__(self, state):
        # A state pickled before streams were versioned holds version 1's numbers.
        self.__init__(state["seed"], state["counter"], version=state.get("version", 1))
        self._bit_generator._spawned = state.get("spawned", 0)

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
            start = self._bit_generator._take(need)
        _random.fill(dist, self._seed, start, a, b, low, range_m1, out, stream, self._version)
        return out[()] if scalar else out

    def random(self, size=None, dtype=None, out=None, device=False, stream=None):
        """Uniform floats in [0, 1).

        float64 by default, or float32: 53 (24) random bits each.

        Parameters
        ----------
        size : int or tuple of int, optional
            Output shape. None (default) gives one value: a NumPy scalar, or a 0-d npgpu.Array with `device`.
        dtype : {float64, float32}, optional
            The result's dtype (default float64, or out's dtype).
        out : npgpu.Array or numpy.ndarray, optional
            A C-contiguous, writeable array to fill and return (float32 or float64; an npgpu.Array is filled
            on its device). `dtype` and `size`, when given, must equal its dtype and shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.
        stream : npgpu.Stream, optional
            The stream the fill runs on (None, the default: the current stream); a device result is filled
            asynchronously on it.

        Returns
        -------
        float, numpy.ndarray or npgpu.Array
            Uniform values in [0, 1).

        Raises
        ------
        TypeError
            An unsupported `dtype`, a `dtype` other than out's, an `out` that is not an npgpu.Array or a NumPy
            array, or a `size` that is not None, an int or a tuple of ints.
        ValueError
            A negative dimension in `size`, a `size` other than out's shape, an `out` that is not C-contiguous or
            is read-only, or both `out` and `device`.

        Examples
        --------
        >>> g = npgpu.random.default_rng(0)
        >>> x = g.random((2, 3))
        >>> x.shape, x.dtype
        ((2, 3), dtype('float64'))
        >>> bool(((0 <= x) & (x < 1)).all())
        True
        >>> a = g.random(4, dtype=np.float32, device=True)  # an npgpu.Array on the current device
        >>> type(a).__name__, a.dtype
        ('Array', dtype('float32'))
        """
        return self._draw(_random.UNIFORM, dtype, size, out, device, stream, 0.0, 1.0, default=np.float64)

    def uniform(self, low=0.0, high=1.0, size=None, dtype=None, out=None, device=False, stream=None):
        """Uniform floats in [low, high).

        ``low + (high - low) * random()`` computed in float64, then rounded to `dtype`. Array-valued `low` /
        `high` broadcast as NumPy (computed with npgpu array operations from the same uniform stream).

        Parameters
        ----------
        low, high : float or array_like, optional
            The bounds (default 0 and 1); low < high.
        size : int or tuple of int, optional
            Output shape. None (default): the broadcast shape of the parameters, one value (a NumPy scalar, or a
            0-d npgpu.Array with `device`) when they are scalars. Array parameters must broadcast to `size`.
        dtype : {float64, float32}, optional
            The result's dtype (default float64, or out's dtype).
        out : npgpu.Array or numpy.ndarray, optional
            A C-contiguous, writeable array to fill and return (float32 or float64; an npgpu.Array is filled
            on its device). `dtype` and `size`, when given, must equal its dtype and shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.
        stream : npgpu.Stream, optional
            The stream the fill runs on (None, the default: the current stream); a device result is filled
            asynchronously on it. Not used with array parameters.

        Returns
        -------
        float, numpy.ndarray or npgpu.Array
            Uniform values in [low, high).

        Raises
        ------
        ValueError
            low >= high, or non-finite scalar bounds; the other cases of `random`.
        TypeError
            As `random`.

        Examples
        --------
        >>> x = npgpu.random.default_rng(0).uniform(-2.0, 3.0, size=1000)
        >>> bool(x.min() >= -2.0 and x.max() < 3.0)
        True
        >>> y = npgpu.random.default_rng(0).uniform([0.0, 10.0], [1.0, 20.0])  # one value per bound pair
        >>> y.shape, bool(0 <= y[0] < 1 and 10 <= y[1] < 20)
        ((2,), True)
        """
        if _is_array_param(low) or _is_array_param(high):
            return self._run(lambda n, dev, lo, hi: lo + (hi - lo) * self._u(n, dev), (low, high), size, out,
                             device, checks=(lambda lo, hi: (_ge(lo, hi), "low >= high"),), dtype=dtype)
        return self._draw(_random.UNIFORM, dtype, size, out, device, stream, float(low), float(high),
                          default=np.float64)

    def standard_normal(self, size=None, dtype=None, out=None, device=False, stream=None):
        """Standard normal floats (the ziggurat for float32, Box-Muller for float64).

        Float32 values come from one word each by the 256-layer ziggurat, NumPy's float32 algorithm (23 bits of
        magnitude in one of 256 equal-area layers; the 1.5% of words outside their layer's core take the wedge or
        tail test with further words of the element's own). Float64 values come from pairs of values by
        Box-Muller with npgpu's own log and sincos. Both use correctly rounded basic operations only, so GPU and
        CPU agree bit for bit. A generator of stream version 1 draws float32 values by Box-Muller too, computed
        in float32 (each value within 3e-7 (|z| + r) of the exact transform of its two words, r the pair's
        radius).

        Parameters
        ----------
        size : int or tuple of int, optional
            Output shape. None (default) gives one value: a NumPy scalar, or a 0-d npgpu.Array with `device`.
        dtype : {float64, float32}, optional
            The result's dtype (default float64, or out's dtype).
        out : npgpu.Array or numpy.ndarray, optional
            A C-contiguous, writeable array to fill and return (float32 or float64; an npgpu.Array is filled
            on its device). `dtype` and `size`, when given, must equal its dtype and shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.
        stream : npgpu.Stream, optional
            The stream the fill runs on (None, the default: the current stream); a device result is filled
            asynchronously on it.

        Returns
        -------
        float, numpy.ndarray or npgpu.Array
            Standard normal values.

        Raises
        ------
        TypeError
            An unsupported `dtype`, a `dtype` other than out's, an `out` that is not an npgpu.Array or a NumPy
            array, or a `size` that is not None, an int or a tuple of ints.
        ValueError
            A negative dimension in `size`, a `size` other than out's shape, an `out` that is not C-contiguous or
            is read-only, or both `out` and `device`.

        Examples
        --------
        >>> z = npgpu.random.default_rng(5).standard_normal(100_000)
        >>> bool(abs(z.mean()) < 0.02 and abs(z.std() - 1) < 0.02)
        True
        >>> npgpu.random.default_rng(5).standard_normal((2, 2), dtype=np.float32).dtype
        dtype('float32')
        """
        return self._draw(_random.NORMAL, dtype, size, out, device, stream, 0.0, 1.0, default=np.float64)

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=None, out=None, device=False, stream=None):
        """Normal floats ``loc + scale * standard_normal()``.

        Array-valued `loc` / `scale` broadcast as NumPy (computed with npgpu array operations from the same normal
        stream).

        Parameters
        ----------
        loc : float or array_like, optional
            The mean (default 0).
        scale : float or array_like, optional
            The standard deviation (default 1), >= 0.
        size : int or tuple of int, optional
            Output shape. None (default): the broadcast shape of the parameters, one value (a NumPy scalar, or a
            0-d npgpu.Array with `device`) when they are scalars. Array parameters must broadcast to `size`.
        dtype : {float64, float32}, optional
            The result's dtype (default float64, or out's dtype).
        out : npgpu.Array or numpy.ndarray, optional
            A C-contiguous, writeable array to fill and return (float32 or float64; an npgpu.Array is filled
            on its device). `dtype` and `size`, when given, must equal its dtype and shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.
        stream : npgpu.Stream, optional
            The stream the fill runs on (None, the default: the current stream); a device result is filled
            asynchronously on it. Not used with array parameters.

        Returns
        -------
        float, numpy.ndarray or npgpu.Array
            Normal values.

        Raises
        ------
        ValueError
            scale < 0, or non-finite scalar parameters; the other cases of `random`.
        TypeError
            As `random`.

        Examples
        --------
        >>> x = npgpu.random.default_rng(2).normal(10.0, 0.5, size=(3, 4))
        >>> x.shape
        (3, 4)
        >>> a = npgpu.random.default_rng(1).normal([0.0, 100.0], 1.0, size=(5, 2))
        >>> b = npgpu.random.default_rng(1).normal([0.0, 100.0], 1.0, size=(5, 2))
        >>> bool(np.array_equal(a, b))  # one seed, one stream: the same numbers
        True
        """
        if _is_array_param(loc) or _is_array_param(scale):
            return self._run(lambda n, dev, m, sc: m + sc * self._stdnorm(n, dev), (loc, scale), size, out,
                             device, checks=(lambda m, sc: (_lt(sc, 0), "scale < 0"),), dtype=dtype)
        return self._draw(_random.NORMAL, dtype, size, out, device, stream, float(loc), float(scale),
                          default=np.float64)

    def integers(self, low, high=None, size=None, dtype=None, endpoint=False, out=None, device=False,
                 stream=None):
        """Uniform integers in [low, high), exactly unbiased.

        [low, high] with ``endpoint=True``; [0, low) when `high` is None. Lemire's multiply-and-reject method: a
        value's word times the range, the rare draws that would favour some values rejected and redrawn from
        retry blocks of that element's own, so the element -> word mapping never shifts.

        Parameters
        ----------
        low : int
            The lowest value (or, when `high` is None, one above the highest, with 0 the lowest).
        high : int, optional
            One above the highest value (the highest with ``endpoint=True``).
        size : int or tuple of int, optional
            Output shape. None (default) gives one value: a NumPy scalar, or a 0-d npgpu.Array with `device`.
        dtype : dtype, optional
            int64 by default (or out's dtype), or any integer dtype or bool.
        endpoint : bool, optional
            Include `high` (default False).
        out : npgpu.Array or numpy.ndarray, optional
            A C-contiguous, writeable array to fill and return (an integer dtype or bool; an npgpu.Array is filled
            on its device). `dtype` and `size`, when given, must equal its dtype and shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.
        stream : npgpu.Stream, optional
            The stream the fill runs on (None, the default: the current stream); a device result is filled
            asynchronously on it.

        Returns
        -------
        int, numpy.ndarray or npgpu.Array
            Uniform integers of `dtype`.

        Raises
        ------
        TypeError
            Non-integer `low` or `high`, a dtype that is not an integer dtype or bool; the other cases of `random`.
        ValueError
            An empty range (low >= high), or one not inside the dtype's range; the other cases of `random`.

        Examples
        --------
        >>> k = npgpu.random.default_rng(7).integers(1, 7, size=1000)  # dice
        >>> k.dtype, int(k.min()), int(k.max())
        (dtype('int64'), 1, 6)
        >>> b = npgpu.random.default_rng(7).integers(0, 255, size=8, dtype=np.uint8, endpoint=True)
        >>> b.dtype
        dtype('uint8')
        """
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


    # ----------------------------------------------------------------------- composed draws: machinery
    #
    # Every method below is composed from the three compiled streams (uniform, normal, integers) and
    # npgpu array operations on work arrays on one device: the result's device for device=/out=, else
    # the default device (the GPU when the backend is 'cuda', the host device otherwise), copied back
    # into NumPy at the end. The generator's lock is held for the whole method, so the blocks a composed
    # draw uses are contiguous in the counter even when other threads draw too.

    def _target(self, out, device):
        """(work device, whether the result goes back to NumPy)."""
        if out is not None:
            if not isinstance(out, (Array, np.ndarray)):
                raise TypeError(f"out must be an npgpu.Array or a numpy.ndarray, not {type(out).__name__}")
            if device is not False and device is not None:
                raise ValueError("give either out= or device=, not both")
            if not out.flags["WRITEABLE"]:
                raise ValueError("out is read-only")
            if isinstance(out, Array):
                return out.device, False
            return empty(0).device, True
        on_device, dev = _device_arg(device)
        return empty(0, device=dev).device, not on_device

    def _raw(self, dist, n, dev, dtype=np.float64, a=0.0, b=1.0, low=0, range_m1=0):
        """n values of one compiled stream into a fresh 1-d work array (the counter moves past them)."""
        out = empty((n,), dtype, device=dev)
        need = _random.blocks(dtype, n)
        with self._lock:
            start = self._bit_generator._take(need)
        if n:
            _random.fill(dist, self._seed, start, a, b, low, range_m1, out, None, self._version)
        return out

    def _u(self, n, dev):
        """Uniform float64 in [0, 1): multiples of 2**-53."""
        return self._raw(_random.UNIFORM, n, dev)

    def _u_open(self, n, dev):
        """Uniform in (0, 1): an exact 0 (probability 2**-53) becomes 2**-54."""
        u = self._u(n, dev)
        return xp.where(u == 0.0, 2.0 ** -54, u)

    def _u_right(self, n, dev):
        """Uniform in (0, 1]: 1 - u, exact for multiples of 2**-53."""
        return 1.0 - self._u(n, dev)

    def _stdnorm(self, n, dev):
        return self._raw(_random.NORMAL, n, dev)

    def _stdexp(self, n, dev):
        """Standard exponential: -log(1 - u) (finite: 1 - u >= 2**-53)."""
        return -xp.log(self._u_right(n, dev))

    def _keys(self, n, dev):
        """Uniform uint64 sort keys (ties, probability ~n**2 / 2**65, are broken by position)."""
        return self._raw(_random.INTEGERS, n, dev, np.uint64, low=0, range_m1=_U64 - 1)

    def _perm(self, n, dev):
        """A uniform random permutation of range(n): the stable argsort of random uint64 keys."""
        return xp.argsort(self._keys(n, dev), stable=True)

    def _param(self, x, dev, dtype=np.float64):
        """A parameter as a Python float (scalar) or an npgpu.Array on dev (any shape)."""
        if x is None:
            raise TypeError("a distribution parameter must be a number or an array, not None")
        if isinstance(x, Array):
            if x.device != dev:
                x = x.to_device(dev)
            if x.dtype != dtype:
                x = x.astype(dtype)
            return x if x.ndim else float(x.get())
        arr = np.asarray(x, dtype=dtype)
        if arr.ndim == 0:
            return float(arr)
        return xp.asarray(arr, device=dev)

    def _layout(self, size, out, dev, params):
        """(shape, scalar, n, flat params): NumPy's broadcasting of array parameters against size."""
        shape = _shape(size)
        if out is not None:
            if shape is not None and shape != tuple(out.shape):
                raise ValueError(f"size {shape} does not match out's shape {tuple(out.shape)}")
            shape = tuple(out.shape)
        shapes = [tuple(p.shape) for p in params if isinstance(p, Array)]
        pshape = tuple(np.broadcast_shapes(*shapes)) if shapes else ()
        if shape is None:
            full, scalar = pshape, not shapes
        else:
            try:
                ok = tuple(np.broadcast_shapes(pshape, shape)) == shape
            except ValueError:
                ok = False
            if not ok:
                raise ValueError(f"parameters of shape {pshape} do not broadcast to size {shape}")
            full, scalar = shape, False
        n = int(np.prod(full, dtype=np.int64))
        flat = [(p + xp.zeros(full, np.float64, device=dev)).reshape(-1) if isinstance(p, Array) else p
                for p in params]
        return full, scalar, n, flat

    def _finish(self, res, full, scalar, out, to_numpy, dtype):
        res = res.reshape(full)
        if res.dtype != dtype:
            res = res.astype(dtype)
        if out is not None:
            if isinstance(out, Array):
                out[...] = res if res.device == out.device else res.to_device(out.device)
            else:
                out[...] = res.get()
            return out
        if to_numpy:
            arr = res.get()
            return arr[()] if scalar else arr
        return res

    def _run(self, compute, params, size, out, device, checks=(), dtype=None, kind="f"):
        """The driver of a composed draw: parameters, their checks, the draw (compute(n, dev, *flat) -> a
        flat float64 or int64 work array) and the delivery (dtype: float64 / int64 by default)."""
        dev, to_numpy = self._target(out, device)
        default = np.float64 if kind == "f" else np.int64
        if dtype is not None:
            dt = np.dtype(dtype)
            if out is not None and dt != out.dtype:
                raise TypeError(f"dtype {dt} does not match out's dtype {out.dtype}")
        else:
            dt = np.dtype(out.dtype if out is not None else default)
        if kind == "f" and dt not in _FLOATS:
            raise TypeError(f"unsupported dtype {dt} (float32 or float64)")
        if kind == "i" and dt.kind not in "iu":
            raise TypeError(f"unsupported dtype {dt} (an integer dtype)")
        ps = [self._param(p, dev) for p in params]
        for check in checks:
            bad, msg = check(*ps)
            if isinstance(bad, Array):
                bad = bool(xp.any(bad))
            if bad:
                raise ValueError(msg)
        full, scalar, n, flat = self._layout(size, out, dev, ps)
        with self._lock:
            res = compute(n, dev, *flat) if n else xp.zeros((0,), default, device=dev)
        return self._finish(res, full, scalar, out, to_numpy, dt)

    def _reject(self, n, dev, params, propose):
        """Rejection sampling with array operations: propose(m, params) -> (candidates, accepted) for m
        elements (array parameters gathered to them). The rejected ones are proposed again from fresh
        blocks, at most _MAX_ROUNDS rounds (every sampler here accepts over 30%, so more is never needed).
        Elements whose parameters are not finite (inf, NaN) are NaN: no proposal would ever be accepted."""
        finite = None
        for p in params:
            if isinstance(p, Array):
                if p.dtype.kind == "f":
                    f = xp.isfinite(p)
                    finite = f if finite is None else finite & f
            elif isinstance(p, (float, np.floating)) and not math.isfinite(p):
                return xp.full((n,), np.nan, device=dev)
        res, acc = propose(n, params)
        if finite is not None:
            res = xp.where(finite, res, np.nan)
            acc = acc | ~finite
        pending = xp.nonzero(~acc)[0]
        rounds = 1
        while pending.size:
            if rounds >= _MAX_ROUNDS:
                raise RuntimeError(f"rejection sampling did not finish in {_MAX_ROUNDS} rounds")
            sub = [xp.take(p, pending) if isinstance(p, Array) else p for p in params]
            cand, acc = propose(pending.size, sub)
            res[pending[acc]] = cand[acc]
            pending = pending[~acc]
            rounds += 1
        return res

    def _branch(self, n, dev, cond, params, f_true, f_false):
        """f_true(m, params) where cond holds, f_false elsewhere (cond a bool or a flat bool Array)."""
        if not isinstance(cond, Array):
            return (f_true if cond else f_false)(n, params)
        res = empty((n,), np.float64, device=dev)
        for c, f in ((cond, f_true), (~cond, f_false)):
            idx = xp.nonzero(c)[0]
            if idx.size:
                res[idx] = f(idx.size, [xp.take(p, idx) if isinstance(p, Array) else p for p in params])
        return res

    def _lfact(self, k, dev):
        """log(k!) of a float Array of non-negative integers: a table below 126, Stirling's series above
        (absolute error below 3e-14), as NumPy's logfactorial."""
        key = str(dev)
        tab = _LFACT_CACHE.get(key)
        if tab is None:
            tab = _LFACT_CACHE[key] = xp.asarray(_LFACT_TABLE, device=dev)
        small = xp.take(tab, xp.clip(k, 0, 125).astype(np.int64))
        kk = xp.maximum(k, 1.0)
        big = (kk + 0.5) * xp.log(kk) - kk + (_HALF_LN_2PI + (1.0 / kk) * (1.0 / 12 - 1.0 / (360.0 * kk * kk)))
        return xp.where(k < 126, small, big)

    # ------------------------------------------------------------------------- continuous distributions

    def standard_exponential(self, size=None, dtype=None, method="inv", out=None, device=False):
        """Standard exponential floats: ``-log(1 - u)`` (inversion).

        Computed in float64, then rounded to `dtype`.

        Parameters
        ----------
        size : int or tuple of int, optional
            Output shape. None (default) gives one value: a NumPy scalar, or a 0-d npgpu.Array with `device`.
        dtype : {float64, float32}, optional
            The result's dtype (default float64, or out's dtype).
        method : {"inv", "zig"}, optional
            "inv" (default); "zig" is accepted and gives the same.
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array to fill and return (float32 or float64; an npgpu.Array is filled on its device).
            `size`, when given, must equal its shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        float, numpy.ndarray or npgpu.Array
            Standard exponential values.

        Raises
        ------
        ValueError
            A `method` other than 'inv' or 'zig'.
            Also parameters that do not broadcast to `size`, a `size` other than out's shape, a read-only `out`,
            or both `out` and `device`.
        TypeError
            A parameter that is None, an `out` that is not an npgpu.Array or a NumPy array, or one whose dtype is
            not float32 or float64.
            Also a `dtype` other than out's.

        Examples
        --------
        >>> e = npgpu.random.default_rng(0).standard_exponential(10)
        >>> e.shape, bool((e >= 0).all())
        ((10,), True)
        """
        if method not in ("inv", "zig"):
            raise ValueError(f"method must be 'inv' or 'zig', not {method!r}")
        return self._run(lambda n, dev: self._stdexp(n, dev), (), size, out, device, dtype=dtype)

    def exponential(self, scale=1.0, size=None, out=None, device=False):
        """Exponential floats with mean `scale`: ``scale * standard_exponential()``.

        Parameters
        ----------
        scale : float or array_like, optional
            The mean (default 1), >= 0.
        size : int or tuple of int, optional
            Output shape. None (default): the broadcast shape of the parameters, one value (a NumPy scalar, or a
            0-d npgpu.Array with `device`) when they are scalars. Array parameters must broadcast to `size`.
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array to fill and return (float32 or float64; an npgpu.Array is filled on its device).
            `size`, when given, must equal its shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        float, numpy.ndarray or npgpu.Array
            float64 (or out's dtype).

        Raises
        ------
        ValueError
            scale < 0.
            Also parameters that do not broadcast to `size`, a `size` other than out's shape, a read-only `out`,
            or both `out` and `device`.
        TypeError
            A parameter that is None, an `out` that is not an npgpu.Array or a NumPy array, or one whose dtype is
            not float32 or float64.

        Examples
        --------
        >>> e = npgpu.random.default_rng(0).exponential(2.0, size=100_000)
        >>> bool(abs(e.mean() - 2.0) < 0.05)
        True
        """
        return self._run(lambda n, dev, s: s * self._stdexp(n, dev), (scale,), size, out, device,
                         checks=(lambda s: (_lt(s, 0), "scale < 0"),))

    def standard_gamma(self, shape, size=None, dtype=None, out=None, device=False):
        """Gamma(shape, 1) floats.

        Marsaglia and Tsang's squeeze-free rejection (a normal and a uniform per proposal) for shape >= 1; for
        shape < 1, ``G(shape + 1) * u**(1 / shape)``. shape 0 gives 0; a non-finite shape gives NaN. Computed in
        float64, then rounded to `dtype`.

        Parameters
        ----------
        shape : float or array_like
            The shape, >= 0.
        size : int or tuple of int, optional
            Output shape. None (default): the broadcast shape of the parameters, one value (a NumPy scalar, or a
            0-d npgpu.Array with `device`) when they are scalars. Array parameters must broadcast to `size`.
        dtype : {float64, float32}, optional
            The result's dtype (default float64, or out's dtype).
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array to fill and return (float32 or float64; an npgpu.Array is filled on its device).
            `size`, when given, must equal its shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        float, numpy.ndarray or npgpu.Array
            Gamma(shape, 1) values.

        Raises
        ------
        ValueError
            shape < 0.
            Also parameters that do not broadcast to `size`, a `size` other than out's shape, a read-only `out`,
            or both `out` and `device`.
        TypeError
            A parameter that is None, an `out` that is not an npgpu.Array or a NumPy array, or one whose dtype is
            not float32 or float64.
            Also a `dtype` other than out's.

        Examples
        --------
        >>> g = npgpu.random.default_rng(4).standard_gamma(3.0, size=100_000)
        >>> bool(abs(g.mean() - 3.0) < 0.05)
        True
        >>> npgpu.random.default_rng(4).standard_gamma([0.5, 2.0], dtype=np.float32).dtype
        dtype('float32')
        """
        return self._run(lambda n, dev, k: self._gamma(n, dev, k), (shape,), size, out, device,
                         checks=(lambda k: (_lt(k, 0), "shape < 0"),), dtype=dtype)

    def gamma(self, shape, scale=1.0, size=None, out=None, device=False):
        """Gamma(shape, scale) floats: ``scale * standard_gamma(shape)``.

        Parameters
        ----------
        shape : float or array_like
            The shape, >= 0.
        scale : float or array_like, optional
            The scale (default 1), >= 0.
        size : int or tuple of int, optional
            Output shape. None (default): the broadcast shape of the parameters, one value (a NumPy scalar, or a
            0-d npgpu.Array with `device`) when they are scalars. Array parameters must broadcast to `size`.
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array to fill and return (float32 or float64; an npgpu.Array is filled on its device).
            `size`, when given, must equal its shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        float, numpy.ndarray or npgpu.Array
            float64 (or out's dtype).

        Raises
        ------
        ValueError
            shape < 0 or scale < 0.
            Also parameters that do not broadcast to `size`, a `size` other than out's shape, a read-only `out`,
            or both `out` and `device`.
        TypeError
            A parameter that is None, an `out` that is not an npgpu.Array or a NumPy array, or one whose dtype is
            not float32 or float64.

        See Also
        --------
        standard_gamma : The sampler.

        Examples
        --------
        >>> x = npgpu.random.default_rng(4).gamma(2.0, 3.0, size=100_000)
        >>> bool(abs(x.mean() - 6.0) < 0.1)
        True
        """
        return self._run(lambda n, dev, k, s: s * self._gamma(n, dev, k), (shape, scale), size, out, device,
                         checks=(lambda k, s: (_lt(k, 0), "shape < 0"), lambda k, s: (_lt(s, 0), "scale < 0")))

    def _gamma_parts(self, n, dev, k):
        """(g, logboost) with Gamma(k) = g * exp(logboost): g ~ Gamma(max(k, k + 1 if k < 1)) by
        Marsaglia-Tsang, logboost = log(u) / k for k < 1 (None when no element needs it)."""
        if not isinstance(k, Array):
            if k < 1:
                g = self._mt(n, dev, k + 1.0)
                return g, xp.log(self._u_right(n, dev)) / k if k > 0 else None
            return self._mt(n, dev, k), None
        small = k < 1
        g = self._mt(n, dev, xp.where(small, k + 1.0, k))
        if not bool(xp.any(small)):
            return g, None
        return g, xp.where(small, xp.log(self._u_right(n, dev)) / k, 0.0)

    def _gamma(self, n, dev, k):
        if not isinstance(k, Array) and k == 0:
            return xp.zeros((n,), np.float64, device=dev)
        g, lb = self._gamma_parts(n, dev, k)
        res = g if lb is None else g * xp.exp(lb)
        if isinstance(k, Array):
            res = xp.where(k == 0, 0.0, res)
        return res

    def _mt(self, n, dev, k):
        """Marsaglia and Tsang (2000) for shape k >= 1 (NaN shapes give NaN)."""
        if isinstance(k, Array):
            d = k - 1.0 / 3.0
            c = 1.0 / xp.sqrt(9.0 * d)
        else:
            d = k - 1.0 / 3.0
            c = 1.0 / math.sqrt(9.0 * d) if d == d else d

        def propose(m, prm):
            d, c = prm
            x = self._stdnorm(m, dev)
            u = self._u(m, dev)
            v = 1.0 + c * x
            v3 = v * v * v
            ok = v > 0
            acc = ok & (xp.log(u) < 0.5 * x * x + d - d * v3 + d * xp.log(xp.where(ok, v3, 1.0)))
            acc = acc | (d != d)
            return d * v3, acc

        return self._reject(n, dev, [d, c], propose)

    def beta(self, a, b, size=None, out=None, device=False):
        """Beta(a, b) floats: X / (X + Y) for X ~ Gamma(a), Y ~ Gamma(b).

        Computed from the gammas' logarithms, so tiny a and b do not give 0 / 0.

        Parameters
        ----------
        a, b : float or array_like
            The shapes, > 0.
        size : int or tuple of int, optional
            Output shape. None (default): the broadcast shape of the parameters, one value (a NumPy scalar, or a
            0-d npgpu.Array with `device`) when they are scalars. Array parameters must broadcast to `size`.
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array to fill and return (float32 or float64; an npgpu.Array is filled on its device).
            `size`, when given, must equal its shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        float, numpy.ndarray or npgpu.Array
            Values in [0, 1], float64 (or out's dtype).

        Raises
        ------
        ValueError
            a <= 0 or b <= 0.
            Also parameters that do not broadcast to `size`, a `size` other than out's shape, a read-only `out`,
            or both `out` and `device`.
        TypeError
            A parameter that is None, an `out` that is not an npgpu.Array or a NumPy array, or one whose dtype is
            not float32 or float64.

        Examples
        --------
        >>> x = npgpu.random.default_rng(3).beta(2.0, 5.0, size=1000)
        >>> bool(((0 <= x) & (x <= 1)).all())
        True
        """
        def compute(n, dev, a, b):
            lx = self._log_gamma_draw(n, dev, a)
            ly = self._log_gamma_draw(n, dev, b)
            return 1.0 / (1.0 + xp.exp(ly - lx))
        return self._run(compute, (a, b), size, out, device,
                         checks=(lambda a, b: (_le(a, 0), "a <= 0"), lambda a, b: (_le(b, 0), "b <= 0")))

    def _log_gamma_draw(self, n, dev, k):
        g, lb = self._gamma_parts(n, dev, k)
        lg = xp.log(g)
        return lg if lb is None else lg + lb

    def chisquare(self, df, size=None, out=None, device=False):
        """Chi-square(df) floats: ``2 * standard_gamma(df / 2)``.

        Parameters
        ----------
        df : float or array_like
            Degrees of freedom, > 0.
        size : int or tuple of int, optional
            Output shape. None (default): the broadcast shape of the parameters, one value (a NumPy scalar, or a
            0-d npgpu.Array with `device`) when they are scalars. Array parameters must broadcast to `size`.
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array to fill and return (float32 or float64; an npgpu.Array is filled on its device).
            `size`, when given, must equal its shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        float, numpy.ndarray or npgpu.Array
            float64 (or out's dtype).

        Raises
        ------
        ValueError
            df <= 0.
            Also parameters that do not broadcast to `size`, a `size` other than out's shape, a read-only `out`,
            or both `out` and `device`.
        TypeError
            A parameter that is None, an `out` that is not an npgpu.Array or a NumPy array, or one whose dtype is
            not float32 or float64.

        Examples
        --------
        >>> x = npgpu.random.default_rng(3).chisquare(4.0, size=100_000)
        >>> bool(abs(x.mean() - 4.0) < 0.1)
        True
        """
        return self._run(lambda n, dev, df: 2.0 * self._gamma(n, dev, df * 0.5), (df,), size, out, device,
                         checks=(lambda df: (_le(df, 0), "df <= 0"),))

    def standard_t(self, df, size=None, out=None, device=False):
        """Student's t(df) floats: ``N / sqrt(chisquare(df) / df)``.

        Parameters
        ----------
        df : float or array_like
            Degrees of freedom, > 0.
        size : int or tuple of int, optional
            Output shape. None (default): the broadcast shape of the parameters, one value (a NumPy scalar, or a
            0-d npgpu.Array with `device`) when they are scalars. Array parameters must broadcast to `size`.
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array to fill and return (float32 or float64; an npgpu.Array is filled on its device).
            `size`, when given, must equal its shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        float, numpy.ndarray or npgpu.Array
            float64 (or out's dtype).

        Raises
        ------
        ValueError
            df <= 0.
            Also parameters that do not broadcast to `size`, a `size` other than out's shape, a read-only `out`,
            or both `out` and `device`.
        TypeError
            A parameter that is None, an `out` that is not an npgpu.Array or a NumPy array, or one whose dtype is
            not float32 or float64.

        Examples
        --------
        >>> npgpu.random.default_rng(3).standard_t(5.0, size=(2, 3)).shape
        (2, 3)
        """
        def compute(n, dev, df):
            z = self._stdnorm(n, dev)
            return z / xp.sqrt(2.0 * self._gamma(n, dev, df * 0.5) / df)
        return self._run(compute, (df,), size, out, device, checks=(lambda df: (_le(df, 0), "df <= 0"),))

    def f(self, dfnum, dfden, size=None, out=None, device=False):
        """F(dfnum, dfden) floats: a ratio of scaled chi-squares.

        Parameters
        ----------
        dfnum, dfden : float or array_like
            Degrees of freedom of the numerator and the denominator, > 0.
        size : int or tuple of int, optional
            Output shape. None (default): the broadcast shape of the parameters, one value (a NumPy scalar, or a
            0-d npgpu.Array with `device`) when they are scalars. Array parameters must broadcast to `size`.
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array to fill and return (float32 or float64; an npgpu.Array is filled on its device).
            `size`, when given, must equal its shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        float, numpy.ndarray or npgpu.Array
            float64 (or out's dtype).

        Raises
        ------
        ValueError
            dfnum <= 0 or dfden <= 0.
            Also parameters that do not broadcast to `size`, a `size` other than out's shape, a read-only `out`,
            or both `out` and `device`.
        TypeError
            A parameter that is None, an `out` that is not an npgpu.Array or a NumPy array, or one whose dtype is
            not float32 or float64.

        Examples
        --------
        >>> x = npgpu.random.default_rng(3).f(5.0, 10.0, size=1000)
        >>> x.shape, bool((x >= 0).all())
        ((1000,), True)
        """
        def compute(n, dev, d1, d2):
            x = self._gamma(n, dev, d1 * 0.5) / d1
            y = self._gamma(n, dev, d2 * 0.5) / d2
            return x / y
        return self._run(compute, (dfnum, dfden), size, out, device,
                         checks=(lambda a, b: (_le(a, 0), "dfnum <= 0"), lambda a, b: (_le(b, 0), "dfden <= 0")))

    def lognormal(self, mean=0.0, sigma=1.0, size=None, out=None, device=False):
        """Log-normal floats ``exp(mean + sigma * N)``.

        Parameters
        ----------
        mean : float or array_like, optional
            Mean of the underlying normal (default 0).
        sigma : float or array_like, optional
            Standard deviation of the underlying normal (default 1), >= 0.
        size : int or tuple of int, optional
            Output shape. None (default): the broadcast shape of the parameters, one value (a NumPy scalar, or a
            0-d npgpu.Array with `device`) when they are scalars. Array parameters must broadcast to `size`.
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array to fill and return (float32 or float64; an npgpu.Array is filled on its device).
            `size`, when given, must equal its shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        float, numpy.ndarray or npgpu.Array
            float64 (or out's dtype).

        Raises
        ------
        ValueError
            sigma < 0.
            Also parameters that do not broadcast to `size`, a `size` other than out's shape, a read-only `out`,
            or both `out` and `device`.
        TypeError
            A parameter that is None, an `out` that is not an npgpu.Array or a NumPy array, or one whose dtype is
            not float32 or float64.

        Examples
        --------
        >>> x = npgpu.random.default_rng(3).lognormal(0.0, 0.5, size=1000)
        >>> bool((x > 0).all())
        True
        """
        return self._run(lambda n, dev, m, s: xp.exp(m + s * self._stdnorm(n, dev)), (mean, sigma), size, out,
                         device, checks=(lambda m, s: (_lt(s, 0), "sigma < 0"),))

    def laplace(self, loc=0.0, scale=1.0, size=None, out=None, device=False):
        """Laplace floats by inversion of a uniform in (0, 1).

        Parameters
        ----------
        loc : float or array_like, optional
            The location (default 0).
        scale : float or array_like, optional
            The scale (default 1), >= 0.
        size : int or tuple of int, optional
            Output shape. None (default): the broadcast shape of the parameters, one value (a NumPy scalar, or a
            0-d npgpu.Array with `device`) when they are scalars. Array parameters must broadcast to `size`.
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array to fill and return (float32 or float64; an npgpu.Array is filled on its device).
            `size`, when given, must equal its shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        float, numpy.ndarray or npgpu.Array
            float64 (or out's dtype).

        Raises
        ------
        ValueError
            scale < 0.
            Also parameters that do not broadcast to `size`, a `size` other than out's shape, a read-only `out`,
            or both `out` and `device`.
        TypeError
            A parameter that is None, an `out` that is not an npgpu.Array or a NumPy array, or one whose dtype is
            not float32 or float64.

        Examples
        --------
        >>> npgpu.random.default_rng(3).laplace(1.0, 2.0, size=(2, 5)).shape
        (2, 5)
        >>> a = npgpu.random.default_rng(1).laplace([0.0, 5.0], 1.0)
        >>> b = npgpu.random.default_rng(1).laplace([0.0, 5.0], 1.0)
        >>> bool(np.array_equal(a, b))  # one seed, one stream: the same numbers
        True
        """
        def compute(n, dev, loc, s):
            u = self._u_open(n, dev)
            lo = u < 0.5
            return xp.where(lo, loc + s * xp.log(u + u), loc - s * xp.log(2.0 - (u + u)))
        return self._run(compute, (loc, scale), size, out, device, checks=(lambda m, s: (_lt(s, 0), "scale < 0"),))

    def logistic(self, loc=0.0, scale=1.0, size=None, out=None, device=False):
        """Logistic floats ``loc + scale * log(u / (1 - u))``, u in (0, 1).

        Parameters
        ----------
        loc : float or array_like, optional
            The location (default 0).
        scale : float or array_like, optional
            The scale (default 1), >= 0.
        size : int or tuple of int, optional
            Output shape. None (default): the broadcast shape of the parameters, one value (a NumPy scalar, or a
            0-d npgpu.Array with `device`) when they are scalars. Array parameters must broadcast to `size`.
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array to fill and return (float32 or float64; an npgpu.Array is filled on its device).
            `size`, when given, must equal its shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        float, numpy.ndarray or npgpu.Array
            float64 (or out's dtype).

        Raises
        ------
        ValueError
            scale < 0.
            Also parameters that do not broadcast to `size`, a `size` other than out's shape, a read-only `out`,
            or both `out` and `device`.
        TypeError
            A parameter that is None, an `out` that is not an npgpu.Array or a NumPy array, or one whose dtype is
            not float32 or float64.

        Examples
        --------
        >>> npgpu.random.default_rng(3).logistic(1.0, 2.0, size=(2, 5)).shape
        (2, 5)
        >>> a = npgpu.random.default_rng(1).logistic([0.0, 5.0], 1.0)
        >>> b = npgpu.random.default_rng(1).logistic([0.0, 5.0], 1.0)
        >>> bool(np.array_equal(a, b))  # one seed, one stream: the same numbers
        True
        """
        def compute(n, dev, loc, s):
            u = self._u_open(n, dev)
            return loc + s * xp.log(u / (1.0 - u))
        return self._run(compute, (loc, scale), size, out, device, checks=(lambda m, s: (_lt(s, 0), "scale < 0"),))

    def gumbel(self, loc=0.0, scale=1.0, size=None, out=None, device=False):
        """Gumbel floats ``loc - scale * log(-log(u))``, u in (0, 1).

        Parameters
        ----------
        loc : float or array_like, optional
            The location (default 0).
        scale : float or array_like, optional
            The scale (default 1), >= 0.
        size : int or tuple of int, optional
            Output shape. None (default): the broadcast shape of the parameters, one value (a NumPy scalar, or a
            0-d npgpu.Array with `device`) when they are scalars. Array parameters must broadcast to `size`.
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array to fill and return (float32 or float64; an npgpu.Array is filled on its device).
            `size`, when given, must equal its shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        float, numpy.ndarray or npgpu.Array
            float64 (or out's dtype).

        Raises
        ------
        ValueError
            scale < 0.
            Also parameters that do not broadcast to `size`, a `size` other than out's shape, a read-only `out`,
            or both `out` and `device`.
        TypeError
            A parameter that is None, an `out` that is not an npgpu.Array or a NumPy array, or one whose dtype is
            not float32 or float64.

        Examples
        --------
        >>> npgpu.random.default_rng(3).gumbel(1.0, 2.0, size=(2, 5)).shape
        (2, 5)
        >>> a = npgpu.random.default_rng(1).gumbel([0.0, 5.0], 1.0)
        >>> b = npgpu.random.default_rng(1).gumbel([0.0, 5.0], 1.0)
        >>> bool(np.array_equal(a, b))  # one seed, one stream: the same numbers
        True
        """
        def compute(n, dev, loc, s):
            return loc - s * xp.log(-xp.log(self._u_open(n, dev)))
        return self._run(compute, (loc, scale), size, out, device, checks=(lambda m, s: (_lt(s, 0), "scale < 0"),))

    def rayleigh(self, scale=1.0, size=None, out=None, device=False):
        """Rayleigh floats ``scale * sqrt(2 * standard_exponential())``.

        Parameters
        ----------
        scale : float or array_like, optional
            The scale (default 1), >= 0.
        size : int or tuple of int, optional
            Output shape. None (default): the broadcast shape of the parameters, one value (a NumPy scalar, or a
            0-d npgpu.Array with `device`) when they are scalars. Array parameters must broadcast to `size`.
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array to fill and return (float32 or float64; an npgpu.Array is filled on its device).
            `size`, when given, must equal its shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        float, numpy.ndarray or npgpu.Array
            float64 (or out's dtype).

        Raises
        ------
        ValueError
            scale < 0.
            Also parameters that do not broadcast to `size`, a `size` other than out's shape, a read-only `out`,
            or both `out` and `device`.
        TypeError
            A parameter that is None, an `out` that is not an npgpu.Array or a NumPy array, or one whose dtype is
            not float32 or float64.

        Examples
        --------
        >>> x = npgpu.random.default_rng(3).rayleigh(2.0, size=1000)
        >>> bool((x >= 0).all())
        True
        """
        return self._run(lambda n, dev, s: s * xp.sqrt(2.0 * self._stdexp(n, dev)), (scale,), size, out, device,
                         checks=(lambda s: (_lt(s, 0), "scale < 0"),))

    def weibull(self, a, size=None, out=None, device=False):
        """Weibull floats ``standard_exponential() ** (1 / a)`` (a = 0 gives 0).

        Parameters
        ----------
        a : float or array_like
            The shape, >= 0.
        size : int or tuple of int, optional
            Output shape. None (default): the broadcast shape of the parameters, one value (a NumPy scalar, or a
            0-d npgpu.Array with `device`) when they are scalars. Array parameters must broadcast to `size`.
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array to fill and return (float32 or float64; an npgpu.Array is filled on its device).
            `size`, when given, must equal its shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        float, numpy.ndarray or npgpu.Array
            float64 (or out's dtype).

        Raises
        ------
        ValueError
            a < 0.
            Also parameters that do not broadcast to `size`, a `size` other than out's shape, a read-only `out`,
            or both `out` and `device`.
        TypeError
            A parameter that is None, an `out` that is not an npgpu.Array or a NumPy array, or one whose dtype is
            not float32 or float64.

        Examples
        --------
        >>> npgpu.random.default_rng(3).weibull(0.0, size=3)
        array([0., 0., 0.])
        >>> bool((npgpu.random.default_rng(3).weibull(1.5, size=100) >= 0).all())
        True
        """
        def compute(n, dev, a):
            e = self._stdexp(n, dev)
            if not isinstance(a, Array):
                return e * 0.0 if a == 0 else xp.power(e, 1.0 / a)
            return xp.where(a == 0, 0.0, xp.power(e, 1.0 / xp.where(a == 0, 1.0, a)))
        return self._run(compute, (a,), size, out, device, checks=(lambda a: (_lt(a, 0), "a < 0"),))

    def pareto(self, a, size=None, out=None, device=False):
        """Pareto II (Lomax) floats ``expm1(standard_exponential() / a)``.

        Parameters
        ----------
        a : float or array_like
            The shape, > 0.
        size : int or tuple of int, optional
            Output shape. None (default): the broadcast shape of the parameters, one value (a NumPy scalar, or a
            0-d npgpu.Array with `device`) when they are scalars. Array parameters must broadcast to `size`.
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array to fill and return (float32 or float64; an npgpu.Array is filled on its device).
            `size`, when given, must equal its shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        float, numpy.ndarray or npgpu.Array
            Values >= 0, float64 (or out's dtype).

        Raises
        ------
        ValueError
            a <= 0.
            Also parameters that do not broadcast to `size`, a `size` other than out's shape, a read-only `out`,
            or both `out` and `device`.
        TypeError
            A parameter that is None, an `out` that is not an npgpu.Array or a NumPy array, or one whose dtype is
            not float32 or float64.

        Examples
        --------
        >>> x = npgpu.random.default_rng(3).pareto(3.0, size=1000)
        >>> bool((x >= 0).all())
        True
        """
        return self._run(lambda n, dev, a: xp.expm1(self._stdexp(n, dev) / a), (a,), size, out, device,
                         checks=(lambda a: (_le(a, 0), "a <= 0"),))

    def power(self, a, size=None, out=None, device=False):
        """Power-function floats on [0, 1]: ``(1 - exp(-E)) ** (1 / a)``, E standard exponential.

        Parameters
        ----------
        a : float or array_like
            The exponent, > 0.
        size : int or tuple of int, optional
            Output shape. None (default): the broadcast shape of the parameters, one value (a NumPy scalar, or a
            0-d npgpu.Array with `device`) when they are scalars. Array parameters must broadcast to `size`.
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array to fill and return (float32 or float64; an npgpu.Array is filled on its device).
            `size`, when given, must equal its shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        float, numpy.ndarray or npgpu.Array
            Values in [0, 1], float64 (or out's dtype).

        Raises
        ------
        ValueError
            a <= 0.
            Also parameters that do not broadcast to `size`, a `size` other than out's shape, a read-only `out`,
            or both `out` and `device`.
        TypeError
            A parameter that is None, an `out` that is not an npgpu.Array or a NumPy array, or one whose dtype is
            not float32 or float64.

        Examples
        --------
        >>> x = npgpu.random.default_rng(3).power(2.0, size=1000)
        >>> bool(((0 <= x) & (x <= 1)).all())
        True
        """
        return self._run(lambda n, dev, a: xp.power(-xp.expm1(-self._stdexp(n, dev)), 1.0 / a), (a,), size, out,
                         device, checks=(lambda a: (_le(a, 0), "a <= 0"),))

    def triangular(self, left, mode, right, size=None, out=None, device=False):
        """Triangular floats on [left, right] peaking at mode (inversion).

        Parameters
        ----------
        left : float or array_like
            The lower limit.
        mode : float or array_like
            The peak, left <= mode <= right.
        right : float or array_like
            The upper limit, > left.
        size : int or tuple of int, optional
            Output shape. None (default): the broadcast shape of the parameters, one value (a NumPy scalar, or a
            0-d npgpu.Array with `device`) when they are scalars. Array parameters must broadcast to `size`.
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array to fill and return (float32 or float64; an npgpu.Array is filled on its device).
            `size`, when given, must equal its shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        float, numpy.ndarray or npgpu.Array
            float64 (or out's dtype).

        Raises
        ------
        ValueError
            left > mode, mode > right or left == right.
            Also parameters that do not broadcast to `size`, a `size` other than out's shape, a read-only `out`,
            or both `out` and `device`.
        TypeError
            A parameter that is None, an `out` that is not an npgpu.Array or a NumPy array, or one whose dtype is
            not float32 or float64.

        Examples
        --------
        >>> x = npgpu.random.default_rng(3).triangular(-1.0, 0.0, 2.0, size=1000)
        >>> bool(((-1 <= x) & (x <= 2)).all())
        True
        """
        def compute(n, dev, lo, md, hi):
            u = self._u(n, dev)
            base = hi - lo
            lb = md - lo
            rb = hi - md
            fc = lb / base
            return xp.where(u <= fc, lo + xp.sqrt(u * base * lb), hi - xp.sqrt((1.0 - u) * base * rb))
        return self._run(compute, (left, mode, right), size, out, device,
                         checks=(lambda lo, md, hi: (_gt(lo, md), "left > mode"),
                                 lambda lo, md, hi: (_gt(md, hi), "mode > right"),
                                 lambda lo, md, hi: (_eq(lo, hi), "left == right")))

    def vonmises(self, mu, kappa, size=None, out=None, device=False):
        """Von Mises floats on [-pi, pi).

        Best and Fisher's rejection; a wrapped normal for kappa > 1e6 and uniform angles for kappa < 1e-8, as
        NumPy. A NaN kappa gives NaN.

        Parameters
        ----------
        mu : float or array_like
            The mode (the angles are wrapped to [-pi, pi)).
        kappa : float
            The concentration, >= 0. Scalar kappa only.
        size : int or tuple of int, optional
            Output shape. None (default): the broadcast shape of the parameters, one value (a NumPy scalar, or a
            0-d npgpu.Array with `device`) when they are scalars. Array parameters must broadcast to `size`.
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array to fill and return (float32 or float64; an npgpu.Array is filled on its device).
            `size`, when given, must equal its shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        float, numpy.ndarray or npgpu.Array
            Angles in [-pi, pi), float64 (or out's dtype).

        Raises
        ------
        ValueError
            kappa < 0.
            Also parameters that do not broadcast to `size`, a `size` other than out's shape, a read-only `out`,
            or both `out` and `device`.
        TypeError
            A parameter that is None, an `out` that is not an npgpu.Array or a NumPy array, or one whose dtype is
            not float32 or float64.
        NotImplementedError
            An array `kappa`.

        Examples
        --------
        >>> x = npgpu.random.default_rng(3).vonmises(0.5, 4.0, size=1000)
        >>> bool(((-np.pi <= x) & (x < np.pi)).all())
        True
        """
        def compute(n, dev, mu, kappa):
            if isinstance(kappa, Array):
                raise NotImplementedError("vonmises: kappa must be a scalar")
            if math.isnan(kappa):
                return xp.full((n,), np.nan, device=dev)
            if kappa < 1e-8:
                ang = math.pi * (2.0 * self._u(n, dev) - 1.0)
                return ang if not isinstance(mu, Array) and mu == 0 else _wrap(ang + mu)
            if kappa > 1e6:
                return _wrap(mu + math.sqrt(1.0 / kappa) * self._stdnorm(n, dev))
            if kappa < 1e-5:
                s = 1.0 / kappa + kappa
            else:
                r = 1.0 + math.sqrt(1.0 + 4.0 * kappa * kappa)
                rho = (r - math.sqrt(2.0 * r)) / (2.0 * kappa)
                s = (1.0 + rho * rho) / (2.0 * rho)

            def propose(m, prm):
                z = xp.cos(math.pi * self._u(m, dev))
                w = (1.0 + s * z) / (s + z)
                y = kappa * (s - w)
                v = self._u_open(m, dev)
                acc = ((y * (2.0 - y) - v) >= 0) | ((xp.log(xp.maximum(y, 1e-300) / v) + 1.0 - y) >= 0)
                return w, acc

            w = self._reject(n, dev, [], propose)
            ang = xp.arccos(xp.clip(w, -1.0, 1.0))
            ang = xp.where(self._u(n, dev) < 0.5, -ang, ang)
            return _wrap(ang + mu)
        return self._run(compute, (mu, kappa), size, out, device, checks=(lambda m, k: (_lt(k, 0), "kappa < 0"),))

    def standard_cauchy(self, size=None, out=None, device=False):
        """Standard Cauchy floats: the ratio of two independent standard normals, as NumPy.

        Parameters
        ----------
        size : int or tuple of int, optional
            Output shape. None (default) gives one value: a NumPy scalar, or a 0-d npgpu.Array with `device`.
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array to fill and return (float32 or float64; an npgpu.Array is filled on its device).
            `size`, when given, must equal its shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        float, numpy.ndarray or npgpu.Array
            float64 (or out's dtype).

        Raises
        ------
        ValueError
            A `size` other than out's shape, a read-only `out`, or both `out` and `device`.
        TypeError
            An `out` that is not an npgpu.Array or a NumPy array, or one whose dtype is not float32 or float64.

        Examples
        --------
        >>> x = npgpu.random.default_rng(3).standard_cauchy(100_000)
        >>> x.shape, bool(abs(np.median(x)) < 0.02)
        ((100000,), True)
        """
        # Two separate normal draws: the two values of one Box-Muller pair would give tan(2 pi u) instead.
        return self._run(lambda n, dev: self._stdnorm(n, dev) / self._stdnorm(n, dev), (), size, out, device)

    def wald(self, mean, scale, size=None, out=None, device=False):
        """Wald (inverse Gaussian) floats with mean `mean` and shape `scale`.

        Michael, Schucany and Haas (1976), as NumPy: a standard normal and a uniform per value. NaN parameters
        give NaN.

        Parameters
        ----------
        mean : float or array_like
            The mean, > 0.
        scale : float or array_like
            The scale (shape) parameter, > 0.
        size : int or tuple of int, optional
            Output shape. None (default): the broadcast shape of the parameters, one value (a NumPy scalar, or a
            0-d npgpu.Array with `device`) when they are scalars. Array parameters must broadcast to `size`.
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array to fill and return (float32 or float64; an npgpu.Array is filled on its device).
            `size`, when given, must equal its shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        float, numpy.ndarray or npgpu.Array
            Values > 0, float64 (or out's dtype).

        Raises
        ------
        ValueError
            mean <= 0 or scale <= 0.
            Also parameters that do not broadcast to `size`, a `size` other than out's shape, a read-only `out`,
            or both `out` and `device`.
        TypeError
            A parameter that is None, an `out` that is not an npgpu.Array or a NumPy array, or one whose dtype is
            not float32 or float64.

        Examples
        --------
        >>> x = npgpu.random.default_rng(3).wald(2.0, 5.0, size=100_000)
        >>> bool((x > 0).all()), bool(abs(x.mean() - 2.0) < 0.05)
        (True, True)
        """
        def compute(n, dev, mean, scale):
            z = self._stdnorm(n, dev)
            u = self._u(n, dev)
            y = mean * z * z
            x = mean + (mean / (2.0 * scale)) * (y - xp.sqrt(4.0 * scale * y + y * y))
            return xp.where(u <= mean / (mean + x), x, mean * mean / x)
        return self._run(compute, (mean, scale), size, out, device,
                         checks=(lambda m, s: (_le(m, 0), "mean <= 0"), lambda m, s: (_le(s, 0), "scale <= 0")))

    def noncentral_chisquare(self, df, nonc, size=None, out=None, device=False):
        """Noncentral chi-square(df, nonc) floats, as NumPy.

        nonc == 0: ``chisquare(df)``; df > 1: ``chisquare(df - 1) + (N + sqrt(nonc))**2``; otherwise
        ``chisquare(df + 2 * poisson(nonc / 2))``. NaN parameters give NaN.

        Parameters
        ----------
        df : float or array_like
            Degrees of freedom, > 0.
        nonc : float or array_like
            The noncentrality, >= 0.
        size : int or tuple of int, optional
            Output shape. None (default): the broadcast shape of the parameters, one value (a NumPy scalar, or a
            0-d npgpu.Array with `device`) when they are scalars. Array parameters must broadcast to `size`.
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array to fill and return (float32 or float64; an npgpu.Array is filled on its device).
            `size`, when given, must equal its shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        float, numpy.ndarray or npgpu.Array
            Values >= 0, float64 (or out's dtype).

        Raises
        ------
        ValueError
            df <= 0 or nonc < 0.
            Also parameters that do not broadcast to `size`, a `size` other than out's shape, a read-only `out`,
            or both `out` and `device`.
        TypeError
            A parameter that is None, an `out` that is not an npgpu.Array or a NumPy array, or one whose dtype is
            not float32 or float64.

        Examples
        --------
        >>> x = npgpu.random.default_rng(3).noncentral_chisquare(3.0, 2.0, size=100_000)
        >>> bool((x >= 0).all()), bool(abs(x.mean() - 5.0) < 0.1)  # mean df + nonc
        (True, True)
        """
        return self._run(lambda n, dev, df, nonc: self._ncchi(n, dev, df, nonc), (df, nonc), size, out, device,
                         checks=(lambda df, nc: (_le(df, 0), "df <= 0"), lambda df, nc: (_lt(nc, 0), "nonc < 0")))

    def _ncchi(self, n, dev, df, nonc):
        def central(m, prm):
            return 2.0 * self._gamma(m, dev, prm[0] * 0.5)

        def normal_part(m, prm):
            df, nonc = prm
            root = xp.sqrt(nonc) if isinstance(nonc, Array) else math.sqrt(nonc)
            z = self._stdnorm(m, dev) + root
            return 2.0 * self._gamma(m, dev, (df - 1.0) * 0.5) + z * z

        def poisson_mix(m, prm):
            df, nonc = prm
            i = self._poisson(m, dev, nonc * 0.5)
            return 2.0 * self._gamma(m, dev, (df + 2.0 * i) * 0.5)

        def noncentral(m, prm):
            return self._branch(m, dev, prm[0] > 1, prm, normal_part, poisson_mix)

        return self._branch(n, dev, nonc == 0, [df, nonc], central, noncentral)

    def noncentral_f(self, dfnum, dfden, nonc, size=None, out=None, device=False):
        """Noncentral F(dfnum, dfden, nonc) floats: ``noncentral_chisquare(dfnum, nonc) * dfden / (chisquare(dfden)
        * dfnum)``, as NumPy.

        Parameters
        ----------
        dfnum, dfden : float or array_like
            Degrees of freedom of the numerator and the denominator, > 0.
        nonc : float or array_like
            The noncentrality, >= 0.
        size : int or tuple of int, optional
            Output shape. None (default): the broadcast shape of the parameters, one value (a NumPy scalar, or a
            0-d npgpu.Array with `device`) when they are scalars. Array parameters must broadcast to `size`.
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array to fill and return (float32 or float64; an npgpu.Array is filled on its device).
            `size`, when given, must equal its shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        float, numpy.ndarray or npgpu.Array
            Values >= 0, float64 (or out's dtype).

        Raises
        ------
        ValueError
            dfnum <= 0, dfden <= 0 or nonc < 0.
            Also parameters that do not broadcast to `size`, a `size` other than out's shape, a read-only `out`,
            or both `out` and `device`.
        TypeError
            A parameter that is None, an `out` that is not an npgpu.Array or a NumPy array, or one whose dtype is
            not float32 or float64.

        Examples
        --------
        >>> x = npgpu.random.default_rng(3).noncentral_f(3.0, 20.0, 2.0, size=1000)
        >>> x.shape, bool((x >= 0).all())
        ((1000,), True)
        """
        def compute(n, dev, d1, d2, nonc):
            t = self._ncchi(n, dev, d1, nonc) * d2
            return t / (2.0 * self._gamma(n, dev, d2 * 0.5) * d1)
        return self._run(compute, (dfnum, dfden, nonc), size, out, device,
                         checks=(lambda a, b, c: (_le(a, 0), "dfnum <= 0"), lambda a, b, c: (_le(b, 0), "dfden <= 0"),
                                 lambda a, b, c: (_lt(c, 0), "nonc < 0")))

    def dirichlet(self, alpha, size=None, out=None, device=False):
        """Dirichlet floats of shape ``size + (k,)`` for `alpha` of length k.

        Normalised gammas, computed from their logarithms (so small alphas do not give 0 / 0); alpha = 0 gives 0.

        Parameters
        ----------
        alpha : array_like
            The k concentrations (one-dimensional), >= 0; read on the host.
        size : int or tuple of int, optional
            The shape of the draws (default None: one draw, of shape ``(k,)``).
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array of shape ``size + (k,)`` to fill and return (an npgpu.Array is filled on its device).
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        numpy.ndarray or npgpu.Array
            float64 (or out's dtype); each row sums to 1.

        Raises
        ------
        ValueError
            alpha not one-dimensional, alpha < 0 or NaN, an `out` of another shape, a read-only `out`, or both
            `out` and `device`.
        TypeError
            An `out` that is not an npgpu.Array or a NumPy array.

        Examples
        --------
        >>> x = npgpu.random.default_rng(3).dirichlet([1.0, 2.0, 3.0], size=4)
        >>> x.shape, bool(np.allclose(x.sum(axis=-1), 1.0))
        ((4, 3), True)
        """
        dev, to_numpy = self._target(out, device)
        al = np.asarray(alpha.get() if isinstance(alpha, Array) else alpha, dtype=np.float64)
        if al.ndim != 1:
            raise ValueError("alpha must be a one-dimensional array")
        if np.any(al < 0) or np.any(np.isnan(al)):
            raise ValueError("alpha < 0 or alpha contains NaNs")
        shape = _shape(size)
        k = al.size
        full = (k,) if shape is None else shape + (k,)
        if out is not None and tuple(out.shape) != full:
            raise ValueError(f"out's shape {tuple(out.shape)} is not {full}")
        m = int(np.prod(full, dtype=np.int64))
        with self._lock:
            if m == 0:
                res = xp.zeros(full, np.float64, device=dev)
            else:
                kk = (xp.asarray(al, device=dev) + xp.zeros(full, np.float64, device=dev)).reshape(-1)
                pos = xp.asarray(al > 0, device=dev)
                lg = self._log_gamma_draw(m, dev, xp.where(kk > 0, kk, 1.0)).reshape(full)
                lg = xp.where(pos, lg, -math.inf)
                g = xp.exp(lg - xp.max(lg, axis=-1, keepdims=True))
                res = g / xp.sum(g, axis=-1, keepdims=True)
        return self._finish(res, full, False, out, to_numpy, np.dtype(np.float64))

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8, *, method="svd", out=None,
                            device=False):
        """Multivariate normal floats of shape ``size + (d,)``: ``mean + z @ A``.

        z is standard normal and ``A.T @ A == cov``. The factor A comes from NumPy on the host (the covariance is
        small; one factorisation for both backends keeps their streams identical).

        Parameters
        ----------
        mean : array_like
            The mean, of length d (read on the host).
        cov : array_like
            The (d, d) covariance (read on the host).
        size : int or tuple of int, optional
            The shape of the draws (default None: one draw, of shape ``(d,)``).
        check_valid : {"warn", "raise", "ignore"}, optional
            What a covariance that is not positive semi-definite does, as NumPy (default "warn": a RuntimeWarning).
        tol : float, optional
            The tolerance of that check, as NumPy (default 1e-8).
        method : {"svd", "eigh", "cholesky"}, optional
            How A is computed: "svd" (default, as NumPy), "eigh" or "cholesky" (no check then).
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array of shape ``size + (d,)`` to fill and return (an npgpu.Array is filled on its device).
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        numpy.ndarray or npgpu.Array
            float64 (or out's dtype).

        Raises
        ------
        ValueError
            mean not one-dimensional, cov not square or not of mean's length, an unknown `method` or
            `check_valid`, a covariance that is not positive semi-definite with ``check_valid="raise"``, an `out`
            of another shape, a read-only `out`, or both `out` and `device`.
        numpy.linalg.LinAlgError
            With ``method="cholesky"``, a covariance that is not positive definite.

        Warns
        -----
        RuntimeWarning
            A covariance that is not positive semi-definite, with ``check_valid="warn"``.

        Examples
        --------
        >>> x = npgpu.random.default_rng(3).multivariate_normal([0.0, 1.0], [[1.0, 0.5], [0.5, 2.0]], size=50_000)
        >>> x.shape
        (50000, 2)
        >>> bool(np.allclose(np.cov(x.T), [[1.0, 0.5], [0.5, 2.0]], atol=0.05))
        True
        """
        import warnings
        dev, to_numpy = self._target(out, device)
        mu = np.asarray(mean.get() if isinstance(mean, Array) else mean, dtype=np.float64)
        cv = np.asarray(cov.get() if isinstance(cov, Array) else cov, dtype=np.float64)
        if mu.ndim != 1:
            raise ValueError("mean must be 1 dimensional")
        if cv.ndim != 2 or cv.shape[0] != cv.shape[1]:
            raise ValueError("cov must be 2 dimensional and square")
        if mu.shape[0] != cv.shape[0]:
            raise ValueError("mean and cov must have same length")
        if method not in ("svd", "eigh", "cholesky"):
            raise ValueError(f"method must be 'svd', 'eigh' or 'cholesky', not {method!r}")
        if check_valid not in ("warn", "raise", "ignore"):
            raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
        d = mu.shape[0]
        if method == "cholesky":
            fac = np.linalg.cholesky(cv).T
        else:
            if method == "eigh":
                s, u = np.linalg.eigh(cv)
                vh = u.T
                psd = not np.any(s < -tol)
            else:
                u, s, vh = np.linalg.svd(cv)
                psd = np.allclose(np.dot(vh.T * s, vh), cv, rtol=tol, atol=tol)
            if not psd and check_valid != "ignore":
                if check_valid == "warn":
                    warnings.warn("covariance is not symmetric positive-semidefinite.", RuntimeWarning,
                                  stacklevel=2)
                else:
                    raise ValueError("covariance is not symmetric positive-semidefinite.")
            fac = np.sqrt(np.maximum(s, 0.0))[:, None] * vh
        shape = _shape(size)
        full = (d,) if shape is None else shape + (d,)
        if out is not None and tuple(out.shape) != full:
            raise ValueError(f"out's shape {tuple(out.shape)} is not {full}")
        m = int(np.prod(full, dtype=np.int64))
        with self._lock:
            z = self._stdnorm(m, dev).reshape(-1, d)
            if m:
                res = xp.matmul(z, xp.asarray(fac, device=dev)) + xp.asarray(mu, device=dev)
            else:
                res = z
        return self._finish(res, full, False, out, to_numpy, np.dtype(np.float64))

    # --------------------------------------------------------------------------- discrete distributions

    def poisson(self, lam=1.0, size=None, out=None, device=False):
        """Poisson(lam) integers.

        Inversion (a sequential search from 0) for lam < 10, Hormann's transformed rejection with squeeze (PTRS,
        1993) otherwise, as NumPy.

        Parameters
        ----------
        lam : float or array_like, optional
            The mean (default 1), >= 0.
        size : int or tuple of int, optional
            Output shape. None (default): the broadcast shape of the parameters, one value (a NumPy scalar, or a
            0-d npgpu.Array with `device`) when they are scalars. Array parameters must broadcast to `size`.
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array to fill and return (of an integer dtype; an npgpu.Array is filled on its device).
            `size`, when given, must equal its shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        int, numpy.ndarray or npgpu.Array
            int64 (or out's dtype).

        Raises
        ------
        ValueError
            lam < 0, NaN or too large.
            Also parameters that do not broadcast to `size`, a `size` other than out's shape, a read-only `out`,
            or both `out` and `device`.
        TypeError
            A parameter that is None, an `out` that is not an npgpu.Array or a NumPy array, or one whose dtype is
            not an integer dtype.

        Examples
        --------
        >>> k = npgpu.random.default_rng(3).poisson(4.0, size=100_000)
        >>> k.dtype, bool(abs(k.mean() - 4.0) < 0.05)
        (dtype('int64'), True)
        >>> npgpu.random.default_rng(3).poisson([1.0, 50.0]).shape
        (2,)
        """
        return self._run(self._poisson, (lam,), size, out, device, kind="i",
                         checks=(lambda lam: (_lt(lam, 0) | _isnan(lam), "lam < 0 or lam is NaN"),
                                 lambda lam: (_gt(lam, _POISSON_LAM_MAX), "lam value too large")))

    def _poisson(self, n, dev, lam):
        return self._branch(n, dev, lam < 10, [lam], lambda m, p: self._poisson_inv(m, dev, *p),
                            lambda m, p: self._poisson_ptrs(m, dev, *p))

    def _poisson_inv(self, m, dev, lam):
        u = self._u(m, dev)
        arr = isinstance(lam, Array)
        top = float(xp.max(lam)) if arr else lam
        p = xp.exp(-lam) if arr else math.exp(-lam)
        s = p
        k = xp.zeros((m,), np.float64, device=dev)
        for j in range(1, int(math.ceil(top + 12.0 * math.sqrt(top) + 30.0)) + 1):
            more = u > s
            if not bool(xp.any(more)):
                break
            k = k + more.astype(np.float64)
            p = p * lam / j
            s = s + p
        return k

    def _poisson_ptrs(self, m, dev, lam):
        if isinstance(lam, Array):
            slam, loglam = xp.sqrt(lam), xp.log(lam)
            lg = xp.log
        else:
            slam, loglam = math.sqrt(lam), math.log(lam)
            lg = math.log
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        linvalpha = lg(1.1239 + 1.1328 / (b - 3.4))
        vr = 0.9277 - 3.6224 / (b - 2.0)

        def propose(mm, prm):
            lam, loglam, a, b, linvalpha, vr = prm
            uu = self._u(mm, dev) - 0.5
            v = self._u(mm, dev)
            us = 0.5 - xp.abs(uu)
            usz = xp.where(us > 0, us, 1.0)
            k = xp.floor((2.0 * a / usz + b) * uu + lam + 0.43)
            fast = (us >= 0.07) & (v <= vr)
            ok = (k >= 0) & ((us >= 0.013) | (v <= us))
            lhs = xp.log(v) + linvalpha - xp.log(a / (usz * usz) + b)
            rhs = -lam + k * loglam - self._lfact(k, dev)
            return k, (us > 0) & (fast | (ok & (lhs <= rhs)))

        return self._reject(m, dev, [lam, loglam, a, b, linvalpha, vr], propose)

    def binomial(self, n, p, size=None, out=None, device=False):
        """Binomial(n, p) integers.

        Inversion for n * min(p, 1 - p) < 10, Hormann's BTRS transformed rejection (1993) otherwise (p > 1/2
        through n - Binomial(n, 1 - p)). A non-integer n is floored.

        Parameters
        ----------
        n : int, float or array_like
            The number of trials, >= 0.
        p : float or array_like
            The success probability, in [0, 1].
        size : int or tuple of int, optional
            Output shape. None (default): the broadcast shape of the parameters, one value (a NumPy scalar, or a
            0-d npgpu.Array with `device`) when they are scalars. Array parameters must broadcast to `size`.
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array to fill and return (of an integer dtype; an npgpu.Array is filled on its device).
            `size`, when given, must equal its shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        int, numpy.ndarray or npgpu.Array
            int64 (or out's dtype), in [0, n].

        Raises
        ------
        ValueError
            n < 0 or NaN, p outside [0, 1] or NaN.
            Also parameters that do not broadcast to `size`, a `size` other than out's shape, a read-only `out`,
            or both `out` and `device`.
        TypeError
            A parameter that is None, an `out` that is not an npgpu.Array or a NumPy array, or one whose dtype is
            not an integer dtype.

        Examples
        --------
        >>> k = npgpu.random.default_rng(3).binomial(10, 0.3, size=1000)
        >>> k.dtype, int(k.min()) >= 0, int(k.max()) <= 10
        (dtype('int64'), True, True)
        """
        return self._run(self._binomial, (n, p), size, out, device, kind="i",
                         checks=(lambda n, p: (_lt(n, 0) | _isnan(n), "n < 0"),
                                 lambda n, p: (_lt(p, 0) | _gt(p, 1) | _isnan(p), "p < 0, p > 1 or p is NaN")))

    def _binomial(self, m, dev, n, p):
        n = _floor(n)
        arr = isinstance(p, Array)
        flip = p > 0.5
        pp = xp.where(flip, 1.0 - p, p) if arr else (1.0 - p if flip else p)
        k = self._branch(m, dev, n * pp < 10, [n, pp], lambda mm, q: self._binomial_inv(mm, dev, *q),
                         lambda mm, q: self._binomial_btrs(mm, dev, *q))
        if isinstance(flip, Array):
            return xp.where(flip, n - k, k)
        return n - k if flip else k

    def _binomial_inv(self, m, dev, n, p):
        arr = isinstance(n, Array) or isinstance(p, Array)
        u = self._u(m, dev)
        q = 1.0 - p
        if arr:
            r = xp.exp(n * xp.log1p(-p))
            top_n = float(xp.max(n))
            top_mean = float(xp.max(n * p))
        else:
            r = math.exp(n * math.log1p(-p))
            top_n, top_mean = n, n * p
        ratio = p / q
        s, pk = r, r
        k = xp.zeros((m,), np.float64, device=dev)
        jmax = int(min(top_n, math.ceil(top_mean + 12.0 * math.sqrt(top_mean) + 30.0)))
        for j in range(1, jmax + 1):
            more = u > s
            if isinstance(n, Array):
                more = more & (n >= j)
            if not bool(xp.any(more)):
                break
            k = k + more.astype(np.float64)
            pk = pk * ((n - (j - 1)) / j) * ratio
            s = s + pk
        return k

    def _binomial_btrs(self, m, dev, n, p):
        arr = isinstance(n, Array) or isinstance(p, Array)
        f = xp if arr else math
        q = 1.0 - p
        spq = f.sqrt(n * p * q)
        b = 1.15 + 2.53 * spq
        a = -0.0873 + 0.0248 * b + 0.01 * p
        c = n * p + 0.5
        vr = 0.92 - 4.2 / b
        alpha = (2.83 + 5.1 / b) * spq
        lpq = xp.log(p / q) if isinstance(p, Array) else math.log(p / q)
        if arr:
            mode = xp.floor((n + 1.0) * p)
            h = self._lfact(mode, dev) + self._lfact(n - mode, dev)
        else:
            mode = math.floor((n + 1.0) * p)
            h = math.lgamma(mode + 1.0) + math.lgamma(n - mode + 1.0)

        def propose(mm, prm):
            n, a, b, c, vr, alpha, lpq, mode, h = prm
            uu = self._u(mm, dev) - 0.5
            v = self._u(mm, dev)
            us = 0.5 - xp.abs(uu)
            usz = xp.where(us > 0, us, 1.0)
            k = xp.floor((2.0 * a / usz + b) * uu + c)
            inside = (k >= 0) & (k <= n)
            kc = xp.clip(k, 0.0, n)
            fast = (us >= 0.07) & (v <= vr)
            lhs = xp.log(v * alpha / (a / (usz * usz) + b))
            rhs = h - self._lfact(kc, dev) - self._lfact(n - kc, dev) + (kc - mode) * lpq
            return k, (us > 0) & inside & (fast | (lhs <= rhs))

        return self._reject(m, dev, [n, a, b, c, vr, alpha, lpq, mode, h], propose)

    def negative_binomial(self, n, p, size=None, out=None, device=False):
        """Negative binomial integers (failures before n successes).

        Poisson(Gamma(n, (1 - p) / p)).

        Parameters
        ----------
        n : float or array_like
            The number of successes, > 0.
        p : float or array_like
            The success probability, in (0, 1].
        size : int or tuple of int, optional
            Output shape. None (default): the broadcast shape of the parameters, one value (a NumPy scalar, or a
            0-d npgpu.Array with `device`) when they are scalars. Array parameters must broadcast to `size`.
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array to fill and return (of an integer dtype; an npgpu.Array is filled on its device).
            `size`, when given, must equal its shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        int, numpy.ndarray or npgpu.Array
            int64 (or out's dtype).

        Raises
        ------
        ValueError
            n <= 0 or NaN, p outside (0, 1] or NaN.
            Also parameters that do not broadcast to `size`, a `size` other than out's shape, a read-only `out`,
            or both `out` and `device`.
        TypeError
            A parameter that is None, an `out` that is not an npgpu.Array or a NumPy array, or one whose dtype is
            not an integer dtype.

        Examples
        --------
        >>> k = npgpu.random.default_rng(3).negative_binomial(5, 0.5, size=100)
        >>> k.dtype, bool((k >= 0).all())
        (dtype('int64'), True)
        """
        def compute(m, dev, n, p):
            y = self._gamma(m, dev, n) * ((1.0 - p) / p)
            return self._poisson(m, dev, y)
        return self._run(compute, (n, p), size, out, device, kind="i",
                         checks=(lambda n, p: (_le(n, 0) | _isnan(n), "n <= 0"),
                                 lambda n, p: (_le(p, 0) | _gt(p, 1) | _isnan(p), "p <= 0, p > 1 or p contains NaNs")))

    def geometric(self, p, size=None, out=None, device=False):
        """Geometric integers on {1, 2, ...} (trials to the first success).

        ``ceil(log(v) / log1p(-p))`` for v uniform in (0, 1] (at least 1).

        Parameters
        ----------
        p : float or array_like
            The success probability, in (0, 1].
        size : int or tuple of int, optional
            Output shape. None (default): the broadcast shape of the parameters, one value (a NumPy scalar, or a
            0-d npgpu.Array with `device`) when they are scalars. Array parameters must broadcast to `size`.
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array to fill and return (of an integer dtype; an npgpu.Array is filled on its device).
            `size`, when given, must equal its shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        int, numpy.ndarray or npgpu.Array
            int64 (or out's dtype), >= 1.

        Raises
        ------
        ValueError
            p outside (0, 1] or NaN.
            Also parameters that do not broadcast to `size`, a `size` other than out's shape, a read-only `out`,
            or both `out` and `device`.
        TypeError
            A parameter that is None, an `out` that is not an npgpu.Array or a NumPy array, or one whose dtype is
            not an integer dtype.

        Examples
        --------
        >>> npgpu.random.default_rng(3).geometric(1.0, size=3)  # p = 1: the first trial succeeds
        array([1, 1, 1])
        >>> bool((npgpu.random.default_rng(3).geometric(0.2, size=100) >= 1).all())
        True
        """
        def compute(m, dev, p):
            lq = xp.log1p(-p) if isinstance(p, Array) else math.log1p(-p) if p < 1 else -math.inf
            return xp.maximum(xp.ceil(xp.log(self._u_right(m, dev)) / lq), 1.0)
        return self._run(compute, (p,), size, out, device, kind="i",
                         checks=(lambda p: (_le(p, 0) | _gt(p, 1) | _isnan(p), "p <= 0, p > 1 or p contains NaNs"),))

    def logseries(self, p, size=None, out=None, device=False):
        """Logarithmic series integers on {1, 2, ...}.

        Kemp's second accelerated generator (1981), as NumPy: two uniforms per proposal; the rare proposals
        NumPy retries (a uniform of 0) are redrawn. p = 0 gives 1, as NumPy 2.

        Parameters
        ----------
        p : float or array_like
            The shape, in [0, 1).
        size : int or tuple of int, optional
            Output shape. None (default): the broadcast shape of the parameters, one value (a NumPy scalar, or a
            0-d npgpu.Array with `device`) when they are scalars. Array parameters must broadcast to `size`.
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array to fill and return (of an integer dtype; an npgpu.Array is filled on its device).
            `size`, when given, must equal its shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        int, numpy.ndarray or npgpu.Array
            int64 (or out's dtype), >= 1.

        Raises
        ------
        ValueError
            p outside [0, 1) or NaN.
            Also parameters that do not broadcast to `size`, a `size` other than out's shape, a read-only `out`,
            or both `out` and `device`.
        TypeError
            A parameter that is None, an `out` that is not an npgpu.Array or a NumPy array, or one whose dtype is
            not an integer dtype.

        Examples
        --------
        >>> npgpu.random.default_rng(3).logseries(0.0, size=3)
        array([1, 1, 1])
        >>> k = npgpu.random.default_rng(3).logseries(0.6, size=1000)
        >>> k.dtype, bool((k >= 1).all())
        (dtype('int64'), True)
        """
        def compute(m, dev, p):
            r = xp.log1p(-p) if isinstance(p, Array) else math.log1p(-p)

            def propose(mm, prm):
                p, r = prm
                v = self._u(mm, dev)
                u = self._u(mm, dev)
                q = -xp.expm1(r * u)
                tail = v <= q * q
                # v > 0 and v <= q*q imply q > 0; the placeholders keep the logs finite elsewhere
                k = xp.floor(1.0 + xp.log(xp.where(v > 0, v, 0.5)) / xp.log(xp.where(q > 0, q, 0.5)))
                res = xp.where(v >= p, 1.0, xp.where(tail, k, xp.where(v >= q, 1.0, 2.0)))
                return res, (v >= p) | ~tail | ((k >= 1) & (v > 0))

            return self._reject(m, dev, [p, r], propose)
        return self._run(compute, (p,), size, out, device, kind="i",
                         checks=(lambda p: (_lt(p, 0) | _ge(p, 1) | _isnan(p), "p < 0, p >= 1 or p is NaN"),))

    def zipf(self, a, size=None, out=None, device=False):
        """Zipf (zeta) integers on {1, 2, ...}, P(k) proportional to k**-a.

        Devroye's rejection method (1986) as NumPy: two uniforms per proposal, the uniform restricted to the
        range that gives values below 2**63; proposals of 2**63 or more are rejected, so the distribution is
        truncated to int64 (as NumPy's). a >= 1025 gives 1 (the chance of more is below 3e-309).

        Parameters
        ----------
        a : float or array_like
            The exponent, > 1.
        size : int or tuple of int, optional
            Output shape. None (default): the broadcast shape of the parameters, one value (a NumPy scalar, or a
            0-d npgpu.Array with `device`) when they are scalars. Array parameters must broadcast to `size`.
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array to fill and return (of an integer dtype; an npgpu.Array is filled on its device).
            `size`, when given, must equal its shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        int, numpy.ndarray or npgpu.Array
            int64 (or out's dtype), >= 1.

        Raises
        ------
        ValueError
            a <= 1 or NaN.
            Also parameters that do not broadcast to `size`, a `size` other than out's shape, a read-only `out`,
            or both `out` and `device`.
        TypeError
            A parameter that is None, an `out` that is not an npgpu.Array or a NumPy array, or one whose dtype is
            not an integer dtype.

        Examples
        --------
        >>> k = npgpu.random.default_rng(3).zipf(2.0, size=1000)
        >>> k.dtype, bool((k >= 1).all())
        (dtype('int64'), True)
        >>> npgpu.random.default_rng(3).zipf(np.inf, size=3)
        array([1, 1, 1])
        """
        def compute(m, dev, a):
            arr = isinstance(a, Array)
            if arr:
                one = a >= 1025
                a = xp.where(one, 2.0, a)
                am1 = a - 1.0
                b = xp.power(2.0, am1)
                umin = xp.power(_TWO63, -am1)
            else:
                if a >= 1025:
                    return xp.ones((m,), np.float64, device=dev)
                am1 = a - 1.0
                b = 2.0 ** am1
                umin = _TWO63 ** -am1

            def propose(mm, prm):
                am1, b, umin = prm
                u01 = self._u(mm, dev)
                v = self._u(mm, dev)
                x = xp.floor(xp.power(u01 * umin + (1.0 - u01), -1.0 / am1))
                ok = (x >= 1.0) & (x < _TWO63)
                xs = xp.where(ok, x, 1.0)
                t = xp.power(1.0 + 1.0 / xs, am1)
                return x, ok & (v * xs * (t - 1.0) / (b - 1.0) <= t / b)

            res = self._reject(m, dev, [am1, b, umin], propose)
            return xp.where(one, 1.0, res) if arr else res
        return self._run(compute, (a,), size, out, device, kind="i",
                         checks=(lambda a: (_le(a, 1) | _isnan(a), "a <= 1 or a is NaN"),))

    def hypergeometric(self, ngood, nbad, nsample, size=None, out=None, device=False):
        """Hypergeometric integers: good items among `nsample` drawn without replacement.

        Inversion of the exact probability table by searchsorted; the table is built on the host from
        log-factorials over the support, trimmed to 40 standard deviations around the mean. Scalar parameters only.

        Parameters
        ----------
        ngood, nbad : int
            The numbers of good and bad items, >= 0.
        nsample : int
            The number of items drawn, 0 <= nsample <= ngood + nbad.
        size : int or tuple of int, optional
            Output shape. None (default) gives one value: a NumPy scalar, or a 0-d npgpu.Array with `device`.
        out : npgpu.Array or numpy.ndarray, optional
            A writeable array to fill and return (of an integer dtype; an npgpu.Array is filled on its device).
            `size`, when given, must equal its shape.
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        int, numpy.ndarray or npgpu.Array
            int64 (or out's dtype), in [max(0, nsample - nbad), min(nsample, ngood)].

        Raises
        ------
        ValueError
            ngood < 0, nbad < 0, nsample < 0 or nsample > ngood + nbad; a `size` other than out's shape, a read-only
            `out`, or both `out` and `device`.
        NotImplementedError
            Array parameters.
        TypeError
            Non-integer parameters, an `out` that is not an npgpu.Array or a NumPy array.

        Examples
        --------
        >>> k = npgpu.random.default_rng(3).hypergeometric(7, 3, 5, size=1000)
        >>> int(k.min()) >= 2, int(k.max()) <= 5
        (True, True)
        """
        dev, to_numpy = self._target(out, device)
        vals = []
        for name, v in (("ngood", ngood), ("nbad", nbad), ("nsample", nsample)):
            if isinstance(v, Array) or np.ndim(v) != 0:
                raise NotImplementedError("hypergeometric: array parameters are not supported (scalars only)")
            v = operator.index(v)
            if v < 0:
                raise ValueError(f"{name} < 0")
            vals.append(v)
        g, b, s = vals
        if g + b < s:
            raise ValueError("ngood + nbad < nsample")
        lo, cdf = _hyper_cdf(g, b, s)

        def compute(m, dev):
            idx = xp.searchsorted(xp.asarray(cdf, device=dev), self._u(m, dev), side="right")
            return xp.minimum(idx, len(cdf) - 1).astype(np.float64) + float(lo)
        shape = _shape(size)
        if out is not None:
            if shape is not None and shape != tuple(out.shape):
                raise ValueError(f"size {shape} does not match out's shape {tuple(out.shape)}")
            shape = tuple(out.shape)
        full = () if shape is None else shape
        n = int(np.prod(full, dtype=np.int64))
        with self._lock:
            res = compute(n, dev)
        return self._finish(res, full, shape is None, out, to_numpy, np.dtype(np.int64) if out is None else out.dtype)

    def multivariate_hypergeometric(self, colors, nsample, size=None, method="marginals", out=None, device=False):
        """Multivariate hypergeometric integer counts of shape ``size + (len(colors),)``: how many items of each
        color are among `nsample` drawn without replacement.

        Successive marginals (the 'marginals' method): the count of color j is Hypergeometric(colors[j],
        colors[j + 1] + ..., the items still to draw), each by inversion of its exact table as `hypergeometric`
        (one uniform per draw and color but the last, which takes the rest). The tables are built on the host, one
        per color and distinct number still to draw, so a large `nsample` with many draws is slow. method='count'
        is accepted with NumPy's limits and takes the same route: the distribution is the same, the numbers
        differ from NumPy's.

        Parameters
        ----------
        colors : sequence of int
            The number of items of each color (one-dimensional, each >= 0); read on the host.
        nsample : int
            The number of items drawn, 0 <= nsample <= sum(colors).
        size : int or tuple of int, optional
            The shape of the draws; None (default): one draw, of shape ``(len(colors),)``.
        method : {"marginals", "count"}, optional
            NumPy's method names (default "marginals"); see above.
        out : npgpu.Array or numpy.ndarray, optional
            An array of shape ``size + (len(colors),)`` and an integer dtype to fill and return (its leading
            dimensions give the shape of the draws; an npgpu.Array is filled on its device).
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        numpy.ndarray or npgpu.Array
            int64 (or out's dtype); each row sums to nsample.

        Raises
        ------
        ValueError
            As NumPy: a `method` other than 'marginals' or 'count', an `nsample` that is not an integer, is
            negative or exceeds sum(colors) or 2**63 - 1, `colors` that are not a one-dimensional sequence of
            non-negative integers, a sum(colors) over 2**63 - 1 (1e9 - 1 for 'marginals', (2**63 - 1) // 8 for
            'count'); an `out` whose last dimension is not len(colors), a `size` other than out's leading shape,
            a read-only `out`, or both `out` and `device`.
        TypeError
            An `out` that is not an npgpu.Array or a NumPy array, or one whose dtype is not an integer dtype.

        Examples
        --------
        >>> c = npgpu.random.default_rng(3).multivariate_hypergeometric([5, 10, 15], 8, size=4)
        >>> c.shape, c.dtype, c.sum(axis=-1)
        ((4, 3), dtype('int64'), array([8, 8, 8, 8]))
        >>> npgpu.random.default_rng(3).multivariate_hypergeometric([2, 3], 5)  # all the items
        array([2, 3])
        """
        imax = int(np.iinfo(np.int64).max)
        if method not in ("count", "marginals"):
            raise ValueError('method must be "count" or "marginals".')
        try:
            nsample = operator.index(nsample)
        except TypeError:
            raise ValueError("nsample must be an integer") from None
        if nsample < 0:
            raise ValueError("nsample must be nonnegative.")
        if nsample > imax:
            raise ValueError(f"nsample must not exceed {imax}")
        bad_colors = f"colors must be a one-dimensional sequence of nonnegative integers not exceeding {imax}."
        try:
            cv = np.asarray(colors.get() if isinstance(colors, Array) else colors)
            invalid = cv.ndim != 1 or (cv.size > 0 and not np.issubdtype(cv.dtype, np.integer)) or \
                bool(np.any((cv < 0) | (cv > imax)))
        except (ValueError, TypeError):
            invalid = True
        if invalid:
            raise ValueError(bad_colors)
        cols = [int(c) for c in cv.tolist()]
        total = sum(cols)
        if total > imax:
            raise ValueError(f"sum(colors) must not exceed the maximum value of a 64 bit signed integer ({imax})")
        if method == "marginals" and total >= 1000000000:
            raise ValueError('When method is "marginals", sum(colors) must be less than 1000000000.')
        if method == "count" and total > imax // 8:
            raise ValueError(f"When method is 'count', sum(colors) must not exceed {imax // 8}")
        if nsample > total:
            raise ValueError("nsample > sum(colors)")
        dev, to_numpy = self._target(out, device)
        nc = len(cols)
        shape = _shape(size)
        if out is not None:
            if out.dtype.kind not in "iu":
                raise TypeError(f"unsupported dtype {out.dtype} (an integer dtype)")
            if len(out.shape) == 0 or out.shape[-1] != nc:
                raise ValueError(f"out's last dimension must be len(colors) = {nc}, not shape {tuple(out.shape)}")
            oshape = tuple(out.shape)[:-1]
            if shape is not None and shape != oshape:
                raise ValueError(f"size {shape} does not match out's leading shape {oshape}")
            shape = oshape
        outer = () if shape is None else shape
        m = int(np.prod(outer, dtype=np.int64))
        with self._lock:
            res = self._mvhg(m, dev, cols, total, nsample) if m and nc else xp.zeros((m, nc), np.int64, device=dev)
        return self._finish(res, outer + (nc,), False, out, to_numpy, np.dtype(np.int64) if out is None else out.dtype)

    def _mvhg(self, m, dev, cols, total, nsample):
        """m draws of successive hypergeometric marginals -> an (m, len(cols)) int64 Array. Per color, one host
        table per distinct number still to draw (concatenated), inverted by a bisection of each element's own
        segment (the same index as `hypergeometric`'s searchsorted)."""
        left = xp.full((m,), nsample, np.int64, device=dev)
        rest = total
        out_cols = []
        for c in cols[:-1]:
            u = self._u(m, dev)
            ks, inv = np.unique(left.get(), return_inverse=True)
            tabs = [_hyper_cdf(c, rest - c, int(k)) for k in ks]
            lens = np.array([len(t) for _, t in tabs], dtype=np.int64)
            starts = np.concatenate([[0], np.cumsum(lens)[:-1]]).astype(np.int64)
            cdf = xp.asarray(np.concatenate([t for _, t in tabs]), device=dev)
            inv = xp.asarray(inv.reshape(-1).astype(np.int64), device=dev)
            start = xp.take(xp.asarray(starts, device=dev), inv)
            lo, hi = start, start + xp.take(xp.asarray(lens - 1, device=dev), inv)
            for _ in range(int(lens.max()).bit_length()):
                mid = (lo + hi) // 2
                go = (lo < hi) & (xp.take(cdf, mid) <= u)
                lo, hi = xp.where(go, mid + 1, lo), xp.where(go, hi, mid)
            x = lo - start + xp.take(xp.asarray(np.array([b for b, _ in tabs], dtype=np.int64), device=dev), inv)
            out_cols.append(x)
            left = left - x
            rest -= c
        out_cols.append(left)
        return xp.stack(out_cols, axis=-1)

    def multinomial(self, n, pvals, size=None, out=None, device=False):
        """Multinomial integer counts of shape ``size + (k,)``.

        Conditional binomials, category by category; the last category takes the rest.

        Parameters
        ----------
        n : int or array_like
            The number of trials (integer-valued), >= 0.
        pvals : array_like
            The k probabilities (one-dimensional, non-empty), each in [0, 1], the first k - 1 summing to at most
            1 + 1e-12 (the last takes the rest); read on the host.
        size : int or tuple of int, optional
            The shape of the draws; default: n's shape.
        out : npgpu.Array or numpy.ndarray, optional
            An array of shape ``size + (k,)`` to fill and return (its leading dimensions give the shape of the
            draws; an npgpu.Array is filled on its device).
        device : bool, int or npgpu.Device, optional
            Where the result goes: False (default) or None, a NumPy array; True, an npgpu.Array on the current
            device; an ordinal or an npgpu.Device, an npgpu.Array on that device. Not together with `out`.

        Returns
        -------
        numpy.ndarray or npgpu.Array
            int64 (or out's dtype); each row sums to n.

        Raises
        ------
        ValueError
            n < 0 or not an integer, pvals not one-dimensional and non-empty, outside [0, 1] or NaN,
            sum(pvals[:-1]) > 1 + 1e-12; a read-only `out` or both `out` and `device`.
        TypeError
            An `out` that is not an npgpu.Array or a NumPy array.

        Examples
        --------
        >>> c = npgpu.random.default_rng(3).multinomial(20, [0.2, 0.3, 0.5], size=4)
        >>> c.shape, c.sum(axis=-1)
        ((4, 3), array([20, 20, 20, 20]))
        >>> npgpu.random.default_rng(3).multinomial([10, 100], [0.5, 0.5]).sum(axis=-1)
        array([ 10, 100])
        """
        dev, to_numpy = self._target(out, device)
        pv = np.asarray(pvals.get() if isinstance(pvals, Array) else pvals, dtype=np.float64)
        if pv.ndim != 1 or pv.size == 0:
            raise ValueError("pvals must be a one-dimensional, non-empty array")
        if np.any(pv < 0) or np.any(pv > 1) or np.any(np.isnan(pv)):
            raise ValueError("pvals < 0, pvals > 1 or pvals contains NaNs")
        if pv[:-1].sum() > 1.0 + 1e-12:
            raise ValueError("sum(pvals[:-1]) > 1.0")
        nn = self._param(n, dev)
        if bool(xp.any(_lt(nn, 0))) if isinstance(nn, Array) else nn < 0:
            raise ValueError("n < 0")
        if bool(xp.any(_ne(nn, _floor(nn)))) if isinstance(nn, Array) else nn != math.floor(nn):
            raise ValueError("n must be an integer")
        outer_shape, scalar, m, (flat_n,) = self._layout(
            size, None, dev, [nn]) if out is None else self._layout(tuple(out.shape)[:-1], None, dev, [nn])
        k = pv.size
        full = tuple(outer_shape) + (k,)
        with self._lock:
            rem = flat_n if isinstance(flat_n, Array) else xp.full((m,), flat_n, np.float64, device=dev)
            cols = []
            rem_p = 1.0
            for j in range(k - 1):
                pj = min(pv[j] / rem_p, 1.0) if rem_p > 0 else 0.0
                x = self._binomial(m, dev, rem, float(pj)) if m else rem * 0.0
                cols.append(x)
                rem = rem - x
                rem_p -= pv[j]
            cols.append(rem)
            res = xp.stack(cols, axis=-1)
        return self._finish(res, full, False, out, to_numpy, np.dtype(np.int64) if out is None else out.dtype)

    # --------------------------------------------------------------------------------- permutations

    def _take_axis(self, x, idx, axis):
        """x gathered by the integer Array idx along axis: NumPy arrays on the host, npgpu.Arrays on their
        device."""
        if isinstance(x, Array):
            return xp.take(x, idx if idx.device == x.device else idx.to_device(x.device), axis=axis)
        return np.take(x, idx.get(), axis=axis)

    def permutation(self, x, axis=0, device=False):
        """A permuted copy of x along an axis, or a permutation of arange(x).

        Uniform over permutations: the stable argsort of random uint64 keys (ties, probability about n**2 / 2**65,
        are broken by position). An npgpu.Array x is permuted on its device; a NumPy x is gathered on the host.

        Parameters
        ----------
        x : int or array_like
            An int n: a permutation of arange(n), int64. An array (at least one-dimensional): permuted along `axis`.
        axis : int, optional
            The axis permuted (default 0).
        device : bool, int or npgpu.Device, optional
            For an int or a NumPy x, where the result goes: False (default), a NumPy array; True, an ordinal or an
            npgpu.Device, an npgpu.Array there. An npgpu.Array x gives an npgpu.Array on its device.

        Returns
        -------
        numpy.ndarray or npgpu.Array

        Raises
        ------
        ValueError
            A negative int x.
        IndexError
            A 0-d array x.
        numpy.exceptions.AxisError
            `axis` out of range.

        Examples
        --------
        >>> p = npgpu.random.default_rng(3).permutation(10)
        >>> p.dtype, sorted(p.tolist()) == list(range(10))
        (dtype('int64'), True)
        >>> m = npgpu.random.default_rng(3).permutation(np.arange(6).reshape(3, 2))  # rows permuted
        >>> sorted(m.tolist())
        [[0, 1], [2, 3], [4, 5]]
        """
        if isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)):
            n = operator.index(x)
            if n < 0:
                raise ValueError(f"permutation: x must be non-negative, got {n}")
            dev, to_numpy = self._target(None, device)
            with self._lock:
                res = self._perm(n, dev)
            return res.get() if to_numpy else res
        arr = x if isinstance(x, Array) else np.asarray(x)
        if arr.ndim == 0:
            raise IndexError("x must be an integer or at least 1-dimensional")
        axis = _norm_axis(axis, arr.ndim)
        dev = arr.device if isinstance(arr, Array) else self._target(None, device)[0]
        with self._lock:
            perm = self._perm(arr.shape[axis], dev)
        res = self._take_axis(arr, perm, axis)
        if isinstance(res, np.ndarray) and device is not False and device is not None:
            return xp.asarray(res, device=self._target(None, device)[0])
        return res

    def shuffle(self, x, axis=0):
        """Shuffle x in place along an axis.

        The permutation is `permutation`'s: the stable argsort of random uint64 keys.

        Parameters
        ----------
        x : npgpu.Array, numpy.ndarray or mutable sequence
            What is shuffled: an npgpu.Array on its device, a NumPy array, or a sequence (axis 0 only).
        axis : int, optional
            The axis shuffled (default 0).

        Returns
        -------
        None

        Raises
        ------
        TypeError
            A 0-d array.
        ValueError
            A read-only NumPy array.
        NotImplementedError
            An `axis` other than 0 for a sequence that is not an array.
        numpy.exceptions.AxisError
            `axis` out of range.

        Examples
        --------
        >>> x = [1, 2, 3, 4, 5]
        >>> npgpu.random.default_rng(3).shuffle(x)
        >>> sorted(x)
        [1, 2, 3, 4, 5]
        >>> a = np.arange(6).reshape(2, 3)
        >>> npgpu.random.default_rng(3).shuffle(a, axis=1)  # columns shuffled
        >>> sorted(a[0].tolist())
        [0, 1, 2]
        """
        if isinstance(x, Array):
            if x.ndim == 0:
                raise TypeError("shuffle: a 0-d array cannot be shuffled")
            axis = _norm_axis(axis, x.ndim)
            with self._lock:
                perm = self._perm(x.shape[axis], x.device)
            x[...] = xp.take(x, perm, axis=axis)
            return None
        if isinstance(x, np.ndarray):
            if x.ndim == 0:
                raise TypeError("shuffle: a 0-d array cannot be shuffled")
            if not x.flags.writeable:
                raise ValueError("shuffle: x is read-only")
            axis = _norm_axis(axis, x.ndim)
            with self._lock:
                perm = self._perm(x.shape[axis], empty(0).device).get()
            x[...] = np.take(x, perm, axis=axis)
            return None
        if axis != 0:
            raise NotImplementedError("shuffle: axis can only be 0 for a sequence that is not an array")
        with self._lock:
            perm = self._perm(len(x), empty(0).device).get().tolist()
        items = list(x)
        x[:] = [items[i] for i in perm]
        return None

    def permuted(self, x, *, axis=None, out=None):
        """x with each slice along an axis shuffled independently.

        Each slice gets its own permutation (the stable argsort of its own random uint64 keys).

        Parameters
        ----------
        x : array_like or npgpu.Array
            The input; an npgpu.Array is permuted on its device (a NumPy x on the host).
        axis : int, optional
            The axis along which slices are shuffled; None (default): all elements, flattened.
        out : npgpu.Array or numpy.ndarray, optional
            Receives the result (it may be x itself); of x's shape.

        Returns
        -------
        numpy.ndarray or npgpu.Array
            `out` when given; else a NumPy array for NumPy input, an npgpu.Array for an npgpu.Array.

        Raises
        ------
        TypeError
            An `out` that is not an npgpu.Array or a NumPy array.
        ValueError
            An `out` of another shape.
        numpy.exceptions.AxisError
            `axis` out of range.

        Examples
        --------
        >>> a = np.arange(12).reshape(3, 4)
        >>> b = npgpu.random.default_rng(3).permuted(a, axis=1)  # each row shuffled on its own
        >>> [sorted(r) for r in b.tolist()] == a.tolist()
        True
        >>> _ = npgpu.random.default_rng(3).permuted(a, out=a)  # in place
        >>> sorted(a.ravel().tolist()) == list(range(12))
        True
        """
        src = x if isinstance(x, Array) else np.asarray(x)
        dev = src.device if isinstance(src, Array) else empty(0).device
        if out is not None and not isinstance(out, (Array, np.ndarray)):
            raise TypeError(f"out must be an npgpu.Array or a NumPy array, not {type(out).__name__}")
        if out is not None and tuple(out.shape) != tuple(src.shape):
            raise ValueError("out must have the same shape as x")
        with self._lock:
            if axis is None:
                perm = self._perm(src.size, dev)
                flat = src.reshape(-1)
                res = self._take_axis(flat, perm, 0).reshape(src.shape)
            else:
                axis = _norm_axis(axis, src.ndim)
                keys = self._keys(src.size, dev).reshape(src.shape)
                idx = xp.argsort(keys, axis=axis, stable=True)
                if isinstance(src, Array):
                    res = xp.take_along_axis(src, idx, axis=axis)
                else:
                    res = np.take_along_axis(src, idx.get(), axis=axis)
        if out is None:
            return res
        if isinstance(out, Array):
            out[...] = res if isinstance(res, Array) else xp.asarray(res, device=out.device)
        else:
            out[...] = res.get() if isinstance(res, Array) else res
        return out

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True, device=False):
        """A random sample from a, as NumPy's Generator.choice.

        With replacement: uniform integers, or with `p` the inversion of p's cumulative sum (searchsorted).
        Without: the first `size` of a random permutation, or with `p` the Efraimidis-Spirakis keys E / p
        (exponential E), which gives NumPy's successive-sampling distribution. An npgpu.Array a is sampled on its
        device; a NumPy population is gathered on the host (`device` moves the result).

        Parameters
        ----------
        a : int or array_like
            An int: sample arange(a). An array (at least one-dimensional): sample its slices along `axis`.
        size : int or tuple of int, optional
            The shape of the sample; None (default): one item.
        replace : bool, optional
            Sample with replacement (default True).
        p : array_like, optional
            The probabilities of the items (one-dimensional, of the population's length, non-negative, summing to 1
            within sqrt(eps)); default uniform.
        axis : int, optional
            The axis of `a` sampled (default 0).
        shuffle : bool, optional
            Without replacement: False returns the chosen indices in increasing order (default True).
        device : bool, int or npgpu.Device, optional
            For an int or a NumPy a, where the result goes: False (default), NumPy; True, an ordinal or an
            npgpu.Device, an npgpu.Array there. An npgpu.Array a gives an npgpu.Array on its device.

        Returns
        -------
        scalar, numpy.ndarray or npgpu.Array
            The items (indices, int64, for an int a).

        Raises
        ------
        ValueError
            A negative int a, an empty population with a non-empty sample, a 0-d array a, a bad `p` (not
            one-dimensional, not of the population's size, negative or NaN, not summing to 1), or without
            replacement a sample larger than the population or than p's non-zero entries.
        numpy.exceptions.AxisError
            `axis` out of range.

        Examples
        --------
        >>> g = npgpu.random.default_rng(3)
        >>> k = g.choice(5, size=3, replace=False, shuffle=False)
        >>> k.dtype, len(set(k.tolist())), bool(np.all(np.diff(k) > 0))
        (dtype('int64'), 3, True)
        >>> g.choice(3, size=6, p=[0.0, 0.0, 1.0])
        array([2, 2, 2, 2, 2, 2])
        >>> str(g.choice(["x", "y", "z"])) in "xyz"
        True
        """
        if isinstance(a, (int, np.integer)) and not isinstance(a, (bool, np.bool_)):
            pop = operator.index(a)
            arr = None
        else:
            arr = a if isinstance(a, Array) else np.asarray(a)
            if arr.ndim == 0:
                raise ValueError("a must be a sequence or an integer, not a 0-d array")
            axis = _norm_axis(axis, arr.ndim)
            pop = arr.shape[axis]
        shape = _shape(size)
        k = 1 if shape is None else int(np.prod(shape, dtype=np.int64))
        if pop < 0:
            raise ValueError("a must be a positive integer unless no samples are taken")
        if pop == 0 and k:
            raise ValueError("a cannot be empty unless no samples are taken")
        if p is not None:
            pp = np.asarray(p.get() if isinstance(p, Array) else p, dtype=np.float64)
            if pp.ndim != 1:
                raise ValueError("p must be 1-dimensional")
            if pp.size != pop:
                raise ValueError("a and p must have same size")
            if np.any(np.isnan(pp)) or np.any(pp < 0):
                raise ValueError("probabilities are not non-negative")
            if abs(math.fsum(pp) - 1.0) > math.sqrt(np.finfo(np.float64).eps):
                raise ValueError("probabilities do not sum to 1")
        if not replace:
            if k > pop:
                raise ValueError("Cannot take a larger sample than population when replace is False")
            if p is not None and np.count_nonzero(pp) < k:
                raise ValueError("Fewer non-zero entries in p than size")
        if isinstance(arr, Array):
            dev = arr.device
        else:
            dev = self._target(None, device)[0]
        with self._lock:
            if replace:
                if p is None:
                    idx = self._raw(_random.INTEGERS, k, dev, np.int64, low=0, range_m1=max(pop - 1, 0)) \
                        if pop else xp.zeros((0,), np.int64, device=dev)
                else:
                    cdf = np.cumsum(pp)
                    cdf /= cdf[-1]
                    idx = xp.searchsorted(xp.asarray(cdf, device=dev), self._u(k, dev), side="right")
                    idx = xp.minimum(idx, pop - 1).astype(np.int64)
            else:
                if p is None:
                    idx = self._perm(pop, dev)[:k]
                else:
                    pd = xp.asarray(pp, device=dev)
                    e = self._stdexp(pop, dev)
                    keys = xp.where(pd > 0, e / xp.where(pd > 0, pd, 1.0), math.inf)
                    idx = xp.argsort(keys, stable=True)[:k]
                if not shuffle:
                    idx = xp.sort(idx)
        idx = idx.reshape(() if shape is None else shape)
        if arr is None:
            res = idx
        elif shape is None:
            res = self._take_axis(arr, idx.reshape(1), axis)
            res = res[(slice(None),) * axis + (0,)]
        else:
            res = self._take_axis(arr, idx, axis)
        on_device = device is not False and device is not None
        if isinstance(res, Array):
            if arr is None and not on_device and not isinstance(a, Array):
                res = res.get()
                return res[()] if shape is None else res
            return res
        if on_device:
            return xp.asarray(res, device=self._target(None, device)[0])
        return res

    # ------------------------------------------------------------------------------------------- other

    def bytes(self, length):
        """`length` random bytes: uniform integers in [0, 256), one stream word each.

        Parameters
        ----------
        length : int
            The number of bytes, >= 0.

        Returns
        -------
        bytes

        Raises
        ------
        ValueError
            A negative `length`.

        Examples
        --------
        >>> b = npgpu.random.default_rng(3).bytes(8)
        >>> type(b).__name__, len(b), b == npgpu.random.default_rng(3).bytes(8)
        ('bytes', 8, True)
        """
        n = operator.index(length)
        if n < 0:
            raise ValueError("length must be non-negative")
        return self.integers(0, 256, size=n, dtype=np.uint8).tobytes()

    def spawn(self, n_children):
        """`n_children` independent Generators.

        Child i of the j-th spawned overall has the Philox key made of words 0 and 1 of
        Philox4x32-10(counter=(j, j >> 32, 1, 0x5350574E "SPWN"), key=this seed): the parent's key over a counter
        domain ordinary draws never use (their fourth word is 0), so the children's keys are distinct from one
        another (a bijection of j, truncated to 64 bits: collisions have probability about 2**-64 per pair) and
        unrelated to the parent's numbers. The parent's spawn count is part of its state (pickling keeps it), so
        spawning again gives new children; children can spawn in turn. The parent's counter does not move.

        Parameters
        ----------
        n_children : int
            The number of children, >= 0.

        Returns
        -------
        list of Generator
            New generators, counter 0, of this generator's version.

        Raises
        ------
        ValueError
            A negative `n_children`.
        OverflowError
            n_children >= 2**63.

        Examples
        --------
        >>> parent = npgpu.random.default_rng(1)
        >>> a, b = parent.spawn(2)
        >>> a.seed != b.seed, a.counter
        (True, 0)
        >>> a.seed == npgpu.random.default_rng(1).spawn(1)[0].seed  # the same parent state, the same children
        True
        >>> parent.spawn(1)[0].seed in (a.seed, b.seed)  # spawning again gives new children
        False
        """
        return [Generator(b) for b in self._bit_generator.spawn(n_children)]

SeedSequence = np.random.SeedSequence
__all__ += ["SeedSequence"]


def _refuse_numpy_generators(seed):
    if isinstance(seed, (np.random.BitGenerator, np.random.Generator)):
        raise TypeError(f"npgpu draws from its own Philox4x32-10 streams and cannot continue NumPy's "
                        f"{type(seed).__name__}; pass an int seed, a SeedSequence or an npgpu.random.Philox "
                        f"instead")


def _seed_key(seed):
    """`seed` as a Philox key for `Generator`, taking what NumPy's default_rng takes: None and ints as they
    are; a SeedSequence (anything with ``generate_state``) or a sequence of non-negative ints (entropy for
    NumPy's SeedSequence) as the first 64-bit word of its state. Anything else goes on to `Generator`, which
    raises."""
    _refuse_numpy_generators(seed)
    if hasattr(seed, "generate_state"):
        return int(seed.generate_state(1, np.uint64)[0])
    if isinstance(seed, (list, tuple, np.ndarray)) and not (isinstance(seed, np.ndarray) and seed.ndim == 0):
        try:
            entropy = np.random.SeedSequence(seed)
        except (TypeError, ValueError) as e:
            raise type(e)(f"seed {seed!r}: a sequence seed must hold non-negative ints ({e})") from None
        return int(entropy.generate_state(1, np.uint64)[0])
    if isinstance(seed, np.ndarray):
        return seed.item()
    return seed


def default_rng(seed=None, *, version=STREAM_VERSION):
    """A Generator seeded with `seed`; a Generator is returned as it is.

    Parameters
    ----------
    seed : None, int, array_like of ints, SeedSequence, Philox or Generator, optional
        An int in [0, 2**64), or None (default) for OS entropy. A `SeedSequence` (NumPy's; also
        ``npgpu.random.SeedSequence``), or a sequence of non-negative ints taken as a SeedSequence's
        entropy, gives the first 64-bit word of its state as the seed, so ``SeedSequence.spawn`` makes
        independent generators as in NumPy. A `Philox` is drawn from, shared.
    version : int, optional, keyword-only
        The streams' version, 1 to ``STREAM_VERSION`` (the default; see `Generator`). Ignored when `seed` is a
        Generator.

    Returns
    -------
    Generator

    Raises
    ------
    TypeError
        NumPy's Generator or BitGenerator (npgpu cannot continue their streams), or a seed of another type.
    ValueError
        An int outside [0, 2**64), negative entropy, or an unknown `version`.

    Notes
    -----
    The numbers are npgpu's Philox4x32-10 streams: the same seed or SeedSequence gives the same numbers
    in npgpu on every device, not NumPy's numbers.

    Examples
    --------
    >>> g = npgpu.random.default_rng(123)
    >>> g
    npgpu.random.Generator(seed=123, counter=0)
    >>> npgpu.random.default_rng(g) is g
    True
    >>> a, b = (npgpu.random.default_rng(s) for s in npgpu.random.SeedSequence(7).spawn(2))
    >>> bool((a.random(4) != b.random(4)).all())
    True
    >>> npgpu.random.default_rng([1, 2, 3]).seed == npgpu.random.default_rng(np.random.SeedSequence([1, 2, 3])).seed
    True
    """
    if isinstance(seed, Generator):
        return seed
    return Generator(_seed_key(seed), version=version)


# ---------------------------------------------------------------------------- legacy module functions
#
# NumPy's legacy ``numpy.random.seed / rand / randn / ...`` on one module-global Generator. The
# distributions are NumPy's, the numbers are not: NumPy's legacy functions draw from MT19937, these from
# Philox4x32-10 (and the samplers differ), so ``seed(s)`` makes npgpu's results reproducible, not equal
# to NumPy's.

_GLOBAL = None
_GLOBAL_LOCK = threading.Lock()


def _global_rng():
    global _GLOBAL
    with _GLOBAL_LOCK:
        if _GLOBAL is None:
            _GLOBAL = Generator()
        return _GLOBAL


def seed(seed=None):
    """Reseed the module-global generator.

    Parameters
    ----------
    seed : None, int, array_like of ints or SeedSequence, optional
        An int in [0, 2**64), or None (default) for OS entropy; a SeedSequence or a sequence of ints as
        `default_rng` takes them.

    Raises
    ------
    TypeError, ValueError
        As `default_rng` for a bad seed.

    See Also
    --------
    get_global_generator : The module-global Generator.

    Notes
    -----
    NumPy's legacy functions draw from MT19937 and these from Philox4x32-10 (and the samplers differ), so
    the distributions are NumPy's but the numbers are not: ``seed(s)`` makes npgpu's results reproducible, not
    equal to NumPy's.

    Examples
    --------
    >>> npgpu.random.seed(10)
    >>> a = npgpu.random.rand(3)
    >>> npgpu.random.seed(10)
    >>> bool(np.array_equal(a, npgpu.random.rand(3)))
    True
    """
    global _GLOBAL
    g = Generator(_seed_key(seed))
    with _GLOBAL_LOCK:
        _GLOBAL = g


def get_global_generator():
    """The module-global Generator the legacy functions draw from.

    Returns
    -------
    Generator
        Created (seeded from OS entropy) on first use; `seed` replaces it.

    Examples
    --------
    >>> npgpu.random.seed(10)
    >>> npgpu.random.get_global_generator()
    npgpu.random.Generator(seed=10, counter=0)
    """
    return _global_rng()


def get_bit_generator():
    """The bit generator of the module-global Generator, as numpy.random.get_bit_generator.

    Returns
    -------
    Philox
        Shared with the global Generator: moving it (`Philox.advance`, assigning `Philox.state`) moves the
        legacy functions' stream.

    Examples
    --------
    >>> npgpu.random.seed(10)
    >>> npgpu.random.get_bit_generator()
    npgpu.random.Philox(seed=10, counter=0)
    """
    return _global_rng().bit_generator


def set_bit_generator(bitgen):
    """Make the legacy functions draw from `bitgen`, as numpy.random.set_bit_generator.

    Parameters
    ----------
    bitgen : Philox
        Shared, not copied.

    Returns
    -------
    None

    Raises
    ------
    TypeError
        Not an npgpu.random.Philox (NumPy's bit generators included: npgpu cannot continue their streams).

    Examples
    --------
    >>> bg = npgpu.random.Philox(4)
    >>> npgpu.random.set_bit_generator(bg)
    >>> a = npgpu.random.rand(3)
    >>> bg.counter  # 3 float64 values: 2 blocks
    2
    """
    global _GLOBAL
    if not isinstance(bitgen, BitGenerator):
        _refuse_numpy_generators(bitgen)
        raise TypeError(f"set_bit_generator takes an npgpu.random.Philox, not {type(bitgen).__name__}")
    g = Generator(bitgen)
    with _GLOBAL_LOCK:
        _GLOBAL = g


def rand(*dims):
    """Uniform floats in [0, 1) of shape dims, as numpy.random.rand.

    Parameters
    ----------
    *dims : int
        The shape; none for one value.

    Returns
    -------
    float or numpy.ndarray
        float64 (a float for no dims).

    See Also
    --------
    Generator.random

    Notes
    -----
    NumPy's legacy functions draw from MT19937 and these from Philox4x32-10 (and the samplers differ), so
    the distributions are NumPy's but the numbers are not: ``seed(s)`` makes npgpu's results reproducible, not
    equal to NumPy's.

    Examples
    --------
    >>> npgpu.random.seed(0)
    >>> x = npgpu.random.rand(2, 3)
    >>> x.shape, bool(((0 <= x) & (x < 1)).all())
    ((2, 3), True)
    """
    return _global_rng().random(size=dims if dims else None)


def randn(*dims):
    """Standard normal floats of shape dims, as numpy.random.randn.

    Parameters
    ----------
    *dims : int
        The shape; none for one value.

    Returns
    -------
    float or numpy.ndarray
        float64 (a float for no dims).

    See Also
    --------
    Generator.standard_normal

    Notes
    -----
    NumPy's legacy functions draw from MT19937 and these from Philox4x32-10 (and the samplers differ), so
    the distributions are NumPy's but the numbers are not: ``seed(s)`` makes npgpu's results reproducible, not
    equal to NumPy's.

    Examples
    --------
    >>> npgpu.random.seed(0)
    >>> npgpu.random.randn(4, 2).shape
    (4, 2)
    """
    return _global_rng().standard_normal(size=dims if dims else None)


def random(size=None):
    """Uniform floats in [0, 1), as numpy.random.random (also random_sample, ranf and sample).

    Parameters
    ----------
    size : int or tuple of int, optional
        Output shape; None (default): one float.

    Returns
    -------
    float or numpy.ndarray
        float64.

    See Also
    --------
    Generator.random

    Notes
    -----
    NumPy's legacy functions draw from MT19937 and these from Philox4x32-10 (and the samplers differ), so
    the distributions are NumPy's but the numbers are not: ``seed(s)`` makes npgpu's results reproducible, not
    equal to NumPy's.

    Examples
    --------
    >>> npgpu.random.seed(0)
    >>> npgpu.random.random((2, 2)).shape
    (2, 2)
    """
    return _global_rng().random(size=size)


def random_sample(size=None):
    """Uniform floats in [0, 1), as numpy.random.random_sample (also ranf and sample).

    Parameters
    ----------
    size : int or tuple of int, optional
        Output shape; None (default): one float.

    Returns
    -------
    float or numpy.ndarray
        float64.

    See Also
    --------
    Generator.random

    Notes
    -----
    NumPy's legacy functions draw from MT19937 and these from Philox4x32-10 (and the samplers differ), so
    the distributions are NumPy's but the numbers are not: ``seed(s)`` makes npgpu's results reproducible, not
    equal to NumPy's.

    Examples
    --------
    >>> npgpu.random.seed(0)
    >>> x = npgpu.random.random_sample(5)
    >>> npgpu.random.seed(0)
    >>> bool(np.array_equal(x, npgpu.random.sample(5)))  # ranf and sample are random_sample
    True
    """
    return _global_rng().random(size=size)


ranf = sample = random_sample


def randint(low, high=None, size=None, dtype=np.int64):
    """Uniform integers in [low, high) ([0, low) when high is None), as numpy.random.randint.

    Parameters
    ----------
    low : int
        The lowest value (or, when `high` is None, one above the highest, with 0 the lowest).
    high : int, optional
        One above the highest value.
    size : int or tuple of int, optional
        Output shape; None (default): one value.
    dtype : dtype, optional
        An integer dtype or bool (default int64).

    Returns
    -------
    int or numpy.ndarray

    Raises
    ------
    TypeError, ValueError
        As `Generator.integers`.

    See Also
    --------
    Generator.integers

    Notes
    -----
    NumPy's legacy functions draw from MT19937 and these from Philox4x32-10 (and the samplers differ), so
    the distributions are NumPy's but the numbers are not: ``seed(s)`` makes npgpu's results reproducible, not
    equal to NumPy's.

    Examples
    --------
    >>> npgpu.random.seed(0)
    >>> k = npgpu.random.randint(10, size=100)
    >>> k.dtype, int(k.min()) >= 0, int(k.max()) < 10
    (dtype('int64'), True, True)
    """
    return _global_rng().integers(low, high, size=size, dtype=dtype)


def _random_integers(generator, low, high, size):
    import warnings

    if high is None:
        low, high = 1, low
    warnings.warn(f"This function is deprecated. Please call randint({low}, {high} + 1) instead",
                  DeprecationWarning, stacklevel=3)
    return generator.integers(low, high, size=size, endpoint=True)


def random_integers(low, high=None, size=None):
    """Uniform integers in [low, high] ([1, low] when high is None), as numpy.random.random_integers.

    Deprecated in NumPy, as here: use `randint` (one above the highest value) or `Generator.integers`.

    Parameters
    ----------
    low : int
        The lowest value (or, when `high` is None, the highest, with 1 the lowest).
    high : int, optional
        The highest value.
    size : int or tuple of int, optional
        Output shape; None (default): one value.

    Returns
    -------
    int or numpy.ndarray
        int64 values.

    Warns
    -----
    DeprecationWarning
        Always, as NumPy's.

    Raises
    ------
    TypeError, ValueError
        As `Generator.integers`.

    Examples
    --------
    >>> import warnings
    >>> npgpu.random.seed(0)
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", DeprecationWarning)
    ...     k = npgpu.random.random_integers(5, size=40)
    >>> int(k.min()) >= 1 and int(k.max()) <= 5
    True
    """
    return _random_integers(_global_rng(), low, high, size)


def choice(a, size=None, replace=True, p=None):
    """A random sample of a, as numpy.random.choice.

    Parameters
    ----------
    a : int or array_like
        An int: sample arange(a); else an array sampled along its first axis.
    size : int or tuple of int, optional
        The shape of the sample; None (default): one item.
    replace : bool, optional
        Sample with replacement (default True).
    p : array_like, optional
        The probabilities of the items (default uniform).

    Returns
    -------
    scalar, numpy.ndarray or npgpu.Array

    Raises
    ------
    ValueError
        As `Generator.choice`.

    See Also
    --------
    Generator.choice

    Notes
    -----
    NumPy's legacy functions draw from MT19937 and these from Philox4x32-10 (and the samplers differ), so
    the distributions are NumPy's but the numbers are not: ``seed(s)`` makes npgpu's results reproducible, not
    equal to NumPy's.

    Examples
    --------
    >>> npgpu.random.seed(0)
    >>> sorted(npgpu.random.choice(5, size=5, replace=False).tolist())
    [0, 1, 2, 3, 4]
    """
    return _global_rng().choice(a, size=size, replace=replace, p=p)


def shuffle(x):
    """Shuffle x in place along its first axis, as numpy.random.shuffle.

    Parameters
    ----------
    x : npgpu.Array, numpy.ndarray or mutable sequence

    Returns
    -------
    None

    See Also
    --------
    Generator.shuffle

    Notes
    -----
    NumPy's legacy functions draw from MT19937 and these from Philox4x32-10 (and the samplers differ), so
    the distributions are NumPy's but the numbers are not: ``seed(s)`` makes npgpu's results reproducible, not
    equal to NumPy's.

    Examples
    --------
    >>> npgpu.random.seed(0)
    >>> x = list(range(5))
    >>> npgpu.random.shuffle(x)
    >>> sorted(x)
    [0, 1, 2, 3, 4]
    """
    return _global_rng().shuffle(x)


def permutation(x):
    """A permuted copy of x (an int: of arange(x)), as numpy.random.permutation.

    Parameters
    ----------
    x : int or array_like
        An int n: a permutation of arange(n); an array: permuted along its first axis.

    Returns
    -------
    numpy.ndarray or npgpu.Array

    See Also
    --------
    Generator.permutation

    Notes
    -----
    NumPy's legacy functions draw from MT19937 and these from Philox4x32-10 (and the samplers differ), so
    the distributions are NumPy's but the numbers are not: ``seed(s)`` makes npgpu's results reproducible, not
    equal to NumPy's.

    Examples
    --------
    >>> npgpu.random.seed(0)
    >>> sorted(npgpu.random.permutation(4).tolist())
    [0, 1, 2, 3]
    """
    return _global_rng().permutation(x)


def _legacy(name):
    def f(*args, **kwargs):
        return getattr(_global_rng(), name)(*args, **kwargs)
    f.__name__ = f.__qualname__ = name
    args = _LEGACY_EXAMPLE_ARGS[name]
    f.__doc__ = f"""Generator.{name} on the module-global generator (see seed).

    Parameters
    ----------
    *args, **kwargs
        Generator.{name}'s arguments.

    Returns
    -------
    object
        What Generator.{name} returns.

    See Also
    --------
    Generator.{name}
    seed : Reseed the module-global generator.

    Notes
    -----
    The distribution is NumPy's, the numbers are not: NumPy's legacy functions draw from MT19937, these from
    Philox4x32-10 (and the samplers differ), so ``seed(s)`` makes npgpu's results reproducible, not equal to
    NumPy's.

    Examples
    --------
    >>> npgpu.random.seed(0)
    >>> a = npgpu.random.{name}({args})
    >>> npgpu.random.seed(0)
    >>> bool(np.array_equal(a, npgpu.random.{name}({args})))
    True
    """
    return f


# The arguments of each legacy function's docstring example.
_LEGACY_EXAMPLE_ARGS = {
    "beta": "2.0, 3.0, size=3", "binomial": "10, 0.5, size=3", "bytes": "4", "chisquare": "2.0, size=3",
    "dirichlet": "[1.0, 2.0], size=3", "exponential": "1.0, size=3", "f": "2.0, 3.0, size=3",
    "gamma": "2.0, size=3", "geometric": "0.5, size=3", "gumbel": "size=3", "hypergeometric": "5, 5, 3, size=3",
    "laplace": "size=3", "logistic": "size=3", "lognormal": "size=3", "logseries": "0.5, size=3",
    "multinomial": "10, [0.5, 0.5], size=3", "multivariate_normal": "[0.0, 0.0], [[1.0, 0.0], [0.0, 1.0]], size=3",
    "negative_binomial": "3, 0.5, size=3", "noncentral_chisquare": "3.0, 2.0, size=3",
    "noncentral_f": "3.0, 20.0, 2.0, size=3", "normal": "size=3", "pareto": "2.0, size=3",
    "poisson": "3.0, size=3", "power": "2.0, size=3", "rayleigh": "size=3", "standard_cauchy": "size=3",
    "standard_exponential": "size=3", "standard_gamma": "2.0, size=3", "standard_normal": "size=3",
    "standard_t": "3.0, size=3", "triangular": "0.0, 0.5, 1.0, size=3", "uniform": "size=3",
    "vonmises": "0.0, 1.0, size=3", "wald": "1.0, 2.0, size=3", "weibull": "2.0, size=3", "zipf": "2.0, size=3",
}


_LEGACY_DISTRIBUTIONS = (
    "beta", "binomial", "bytes", "chisquare", "dirichlet", "exponential", "f", "gamma", "geometric", "gumbel",
    "hypergeometric", "laplace", "logistic", "lognormal", "logseries", "multinomial", "multivariate_normal",
    "negative_binomial", "noncentral_chisquare", "noncentral_f", "normal", "pareto", "poisson", "power", "rayleigh",
    "standard_cauchy", "standard_exponential", "standard_gamma", "standard_normal", "standard_t", "triangular",
    "uniform", "vonmises", "wald", "weibull", "zipf",
)
for _name in _LEGACY_DISTRIBUTIONS:
    globals()[_name] = _legacy(_name)
del _name

__all__ += ["seed", "get_global_generator", "get_bit_generator", "set_bit_generator", "rand", "randn", "random",
            "random_sample", "ranf", "sample", "randint", "random_integers", "choice", "shuffle", "permutation",
            *_LEGACY_DISTRIBUTIONS]


def get_state():
    """The module-global generator's state, as numpy.random.get_state (see `RandomState.get_state`).

    Returns
    -------
    dict
        ``{"bit_generator": "Philox4x32-10", "state": {"seed": int, "counter": int, "version": int}}`` (the
        version of the streams, see `Generator`).

    Examples
    --------
    >>> npgpu.random.seed(3)
    >>> s = npgpu.random.get_state()
    >>> a = npgpu.random.rand(4)
    >>> npgpu.random.set_state(s)
    >>> bool(np.array_equal(a, npgpu.random.rand(4)))
    True
    """
    return _state_of(_global_rng())


def set_state(state):
    """Restore the module-global generator to a state from `get_state`, as numpy.random.set_state.

    Parameters
    ----------
    state : dict
        A state from `get_state` or `RandomState.get_state`.

    Returns
    -------
    None

    Raises
    ------
    ValueError
        Not such a state (NumPy's MT19937 states included: npgpu draws from Philox4x32-10).

    Examples
    --------
    >>> npgpu.random.set_state({"bit_generator": "Philox4x32-10", "state": {"seed": 7, "counter": 0, "version": 2}})
    >>> npgpu.random.get_global_generator()
    npgpu.random.Generator(seed=7, counter=0)
    """
    global _GLOBAL
    g = _generator_of_state(state)
    with _GLOBAL_LOCK:
        _GLOBAL = g


def _state_dict(seed, counter, version):
    return {"bit_generator": "Philox4x32-10", "state": {"seed": seed, "counter": counter, "version": version}}


def _state_of(g):
    return _state_dict(g.seed, g.counter, g.version)


def _parse_state(state):
    """(seed, counter, version) of a state from get_state, checked."""
    if not isinstance(state, dict) or state.get("bit_generator") != "Philox4x32-10" or \
            not isinstance(state.get("state"), dict) or \
            set(state["state"]) not in ({"seed", "counter"}, {"seed", "counter", "version"}):
        raise ValueError("state must be a dict from npgpu.random's get_state: {'bit_generator': "
                         "'Philox4x32-10', 'state': {'seed': ..., 'counter': ..., 'version': ...}} (npgpu does not "
                         "draw from NumPy's MT19937, so NumPy's states do not apply)")
    # A state saved before streams had versions holds version 1's numbers.
    st = state["state"]
    return _random.check_seed(st["seed"]), _check_counter(st["counter"]), _check_version(st.get("version", 1))


def _generator_of_state(state):
    seed, counter, version = _parse_state(state)
    return Generator(seed, counter, version=version)


class RandomState:
    """NumPy's legacy ``numpy.random.RandomState`` interface on a Generator of its own.

    The methods are the legacy module functions' (rand, randn, randint, random_sample, choice, shuffle,
    permutation, normal, uniform, ...), drawing from this object's generator instead of the module-global
    one, so programs written for ``np.random.RandomState(seed)`` run unchanged.

    Parameters
    ----------
    seed : None, int, array_like of ints, SeedSequence, Philox or Generator, optional
        An int in [0, 2**64), None (default) for OS entropy, a SeedSequence or a sequence of ints as
        `default_rng` takes them, or a Philox or Generator to draw from (shared, not copied).

    Raises
    ------
    TypeError, ValueError
        As `default_rng` for a bad seed.

    See Also
    --------
    Generator : NumPy's newer interface, which npgpu's generators implement.

    Notes
    -----
    The distributions are NumPy's, the numbers are not: NumPy's RandomState draws from MT19937, this one from
    Philox4x32-10 (and the samplers differ), so a seed makes the results reproducible, not equal to NumPy's;
    the states of `get_state` / `set_state` are Philox states.

    Examples
    --------
    >>> rs = npgpu.random.RandomState(42)
    >>> x = rs.randn(3, 2)
    >>> x.shape
    (3, 2)
    >>> bool(np.array_equal(x, npgpu.random.RandomState(42).randn(3, 2)))
    True
    >>> k = rs.randint(0, 10, size=5)
    >>> bool(((0 <= k) & (k < 10)).all())
    True
    """

    def __init__(self, seed=None):
        self._generator = seed if isinstance(seed, Generator) else Generator(_seed_key(seed))

    def __repr__(self):
        g = self._generator
        return f"npgpu.random.RandomState(seed={g.seed}, counter={g.counter})"

    def seed(self, seed=None):
        """Reseed: an int in [0, 2**64), None (default) for OS entropy, or a SeedSequence or a sequence of
        ints as `default_rng` takes them.

        Examples
        --------
        >>> rs = npgpu.random.RandomState(1)
        >>> a = rs.rand(3)
        >>> rs.seed(1)
        >>> bool(np.array_equal(a, rs.rand(3)))
        True
        """
        self._generator = Generator(_seed_key(seed))

    def get_state(self, legacy=True):
        """The generator's state: ``{"bit_generator": "Philox4x32-10", "state": {"seed", "counter", "version"}}``.

        `legacy` is accepted for NumPy's signature; NumPy's legacy tuple is MT19937's, so the dict is always
        returned.

        Examples
        --------
        >>> rs = npgpu.random.RandomState(5)
        >>> s = rs.get_state()
        >>> a = rs.random_sample(3)
        >>> rs.set_state(s)
        >>> bool(np.array_equal(a, rs.random_sample(3)))
        True
        """
        return _state_of(self._generator)

    def set_state(self, state):
        """Restore a state from `get_state` (ValueError for anything else, NumPy's MT19937 states included).

        Examples
        --------
        >>> rs = npgpu.random.RandomState()
        >>> rs.set_state({"bit_generator": "Philox4x32-10", "state": {"seed": 9, "counter": 4}})
        >>> rs
        npgpu.random.RandomState(seed=9, counter=4)
        """
        self._generator = _generator_of_state(state)

    def rand(self, *dims):
        """Uniform floats in [0, 1) of shape dims, as numpy.random.RandomState.rand.

        Examples
        --------
        >>> npgpu.random.RandomState(0).rand(2, 3).shape
        (2, 3)
        """
        return self._generator.random(size=dims if dims else None)

    def randn(self, *dims):
        """Standard normal floats of shape dims, as numpy.random.RandomState.randn.

        Examples
        --------
        >>> npgpu.random.RandomState(0).randn(4).shape
        (4,)
        """
        return self._generator.standard_normal(size=dims if dims else None)

    def random_sample(self, size=None):
        """Uniform floats in [0, 1), as numpy.random.RandomState.random_sample (also random, ranf, sample).

        Examples
        --------
        >>> x = npgpu.random.RandomState(0).random_sample(5)
        >>> bool(((0 <= x) & (x < 1)).all())
        True
        """
        return self._generator.random(size=size)

    random = ranf = sample = random_sample

    def randint(self, low, high=None, size=None, dtype=np.int64):
        """Uniform integers in [low, high) ([0, low) when high is None), as numpy.random.RandomState.randint.

        Examples
        --------
        >>> k = npgpu.random.RandomState(0).randint(3, 7, size=50)
        >>> int(k.min()) >= 3 and int(k.max()) < 7
        True
        """
        return self._generator.integers(low, high, size=size, dtype=dtype)

    def random_integers(self, low, high=None, size=None):
        """Uniform integers in [low, high] ([1, low] when high is None); deprecated in NumPy, use `randint`.

        Warns
        -----
        DeprecationWarning
            Always, as NumPy's.

        Examples
        --------
        >>> import warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore", DeprecationWarning)
        ...     k = npgpu.random.RandomState(0).random_integers(5, size=40)
        >>> int(k.min()) >= 1 and int(k.max()) <= 5
        True
        """
        return _random_integers(self._generator, low, high, size)

    def choice(self, a, size=None, replace=True, p=None):
        """A random sample of a, as numpy.random.RandomState.choice.

        Examples
        --------
        >>> sorted(npgpu.random.RandomState(0).choice(4, size=4, replace=False).tolist())
        [0, 1, 2, 3]
        """
        return self._generator.choice(a, size=size, replace=replace, p=p)

    def shuffle(self, x):
        """Shuffle x in place along its first axis, as numpy.random.RandomState.shuffle.

        Examples
        --------
        >>> x = list(range(4))
        >>> npgpu.random.RandomState(0).shuffle(x)
        >>> sorted(x)
        [0, 1, 2, 3]
        """
        return self._generator.shuffle(x)

    def permutation(self, x):
        """A permuted copy of x (an int: of arange(x)), as numpy.random.RandomState.permutation.

        Examples
        --------
        >>> sorted(npgpu.random.RandomState(0).permutation(3).tolist())
        [0, 1, 2]
        """
        return self._generator.permutation(x)


def _legacy_method(name):
    def method(self, *args, **kwargs):
        return getattr(self._generator, name)(*args, **kwargs)
    method.__name__ = name
    method.__qualname__ = f"RandomState.{name}"
    method.__doc__ = f"""Generator.{name} on this RandomState's generator, as numpy.random.RandomState.{name}.

    Examples
    --------
    >>> a = npgpu.random.RandomState(0).{name}({_LEGACY_EXAMPLE_ARGS[name]})
    >>> bool(np.array_equal(a, npgpu.random.RandomState(0).{name}({_LEGACY_EXAMPLE_ARGS[name]})))
    True
    """
    return method


for _name in _LEGACY_DISTRIBUTIONS:
    setattr(RandomState, _name, _legacy_method(_name))
del _name

__all__ += ["RandomState", "get_state", "set_state"]


# NumPy's other bit generators: a clear error instead of a bare AttributeError.
_NUMPY_BIT_GENERATORS = ("MT19937", "PCG64", "PCG64DXSM", "SFC64")


def __getattr__(name):
    if name in _NUMPY_BIT_GENERATORS:
        raise AttributeError(f"npgpu.random has no {name}: npgpu draws from Philox4x32-10 only "
                             f"(npgpu.random.Philox, default_rng), so NumPy's {name} streams are not available")
    raise AttributeError(f"module 'npgpu.random' has no attribute {name!r}")
