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
import math
import operator
import threading

import numpy as np

import npgpu as xp
from npgpu import _random
from npgpu._array import Array, empty
from npgpu._random import monte_carlo_pi

__all__ = ["Generator", "default_rng", "monte_carlo_pi"]

_U64 = 1 << 64
_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))

_MAX_ROUNDS = 200
_HALF_LN_2PI = 0.5 * math.log(2.0 * math.pi)
_LFACT_TABLE = np.array([math.lgamma(i + 1.0) for i in range(126)])
_LFACT_CACHE = {}
_SPAWN_DOMAIN = 0x5350574E
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

    def __repr__(self):
        return f"npgpu.random.Generator(seed={self._seed}, counter={self._counter})"

    def __getstate__(self):
        return {"seed": self._seed, "counter": self._counter, "spawned": self._spawned}

    def __setstate__(self, state):
        self.__init__(state["seed"], state["counter"])
        self._spawned = state.get("spawned", 0)

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
        low >= high, or non-finite bounds, raise ValueError. Array-valued low / high broadcast as NumPy
        (computed with npgpu array operations from the same uniform stream)."""
        if _is_array_param(low) or _is_array_param(high):
            return self._run(lambda n, dev, lo, hi: lo + (hi - lo) * self._u(n, dev), (low, high), size, out,
                             device, checks=(lambda lo, hi: (_ge(lo, hi), "low >= high"),), dtype=dtype)
        return self._draw(_random.UNIFORM, dtype, size, out, device, stream, float(low), float(high),
                          default=np.float64)

    def standard_normal(self, size=None, dtype=None, out=None, device=False, stream=None):
        """Standard normal floats (Box-Muller)."""
        return self._draw(_random.NORMAL, dtype, size, out, device, stream, 0.0, 1.0, default=np.float64)

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=None, out=None, device=False, stream=None):
        """Normal floats ``loc + scale * standard_normal()``; scale < 0 raises ValueError. Array-valued
        loc / scale broadcast as NumPy."""
        if _is_array_param(loc) or _is_array_param(scale):
            return self._run(lambda n, dev, m, sc: m + sc * self._stdnorm(n, dev), (loc, scale), size, out,
                             device, checks=(lambda m, sc: (_lt(sc, 0), "scale < 0"),), dtype=dtype)
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
            start = self._counter
            self._counter = (start + need) % _U64
        if n:
            _random.fill(dist, self._seed, start, a, b, low, range_m1, out, None)
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
        """Standard exponential floats: ``-log(1 - u)`` (inversion; method='zig' is accepted and gives the
        same). dtype float64 (default) or float32 (computed in float64, then rounded)."""
        if method not in ("inv", "zig"):
            raise ValueError(f"method must be 'inv' or 'zig', not {method!r}")
        return self._run(lambda n, dev: self._stdexp(n, dev), (), size, out, device, dtype=dtype)

    def exponential(self, scale=1.0, size=None, out=None, device=False):
        """Exponential floats with mean `scale` (``scale * standard_exponential()``); scale < 0: ValueError."""
        return self._run(lambda n, dev, s: s * self._stdexp(n, dev), (scale,), size, out, device,
                         checks=(lambda s: (_lt(s, 0), "scale < 0"),))

    def standard_gamma(self, shape, size=None, dtype=None, out=None, device=False):
        """Gamma(shape, 1) floats: Marsaglia and Tsang's squeeze-free rejection (normal and uniform per
        proposal) for shape >= 1; for shape < 1, ``G(shape + 1) * u**(1 / shape)``. shape 0 gives 0;
        shape < 0: ValueError. dtype float64 or float32 (computed in float64)."""
        return self._run(lambda n, dev, k: self._gamma(n, dev, k), (shape,), size, out, device,
                         checks=(lambda k: (_lt(k, 0), "shape < 0"),), dtype=dtype)

    def gamma(self, shape, scale=1.0, size=None, out=None, device=False):
        """Gamma(shape, scale) floats: ``scale * standard_gamma(shape)``; shape < 0 or scale < 0: ValueError."""
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
        """Beta(a, b) floats: X / (X + Y) for X ~ Gamma(a), Y ~ Gamma(b), computed from the gammas'
        logarithms so tiny a and b do not give 0 / 0. a <= 0 or b <= 0: ValueError."""
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
        """Chi-square(df) floats: ``2 * standard_gamma(df / 2)``; df <= 0: ValueError."""
        return self._run(lambda n, dev, df: 2.0 * self._gamma(n, dev, df * 0.5), (df,), size, out, device,
                         checks=(lambda df: (_le(df, 0), "df <= 0"),))

    def standard_t(self, df, size=None, out=None, device=False):
        """Student's t(df) floats: ``N / sqrt(chisquare(df) / df)``; df <= 0: ValueError."""
        def compute(n, dev, df):
            z = self._stdnorm(n, dev)
            return z / xp.sqrt(2.0 * self._gamma(n, dev, df * 0.5) / df)
        return self._run(compute, (df,), size, out, device, checks=(lambda df: (_le(df, 0), "df <= 0"),))

    def f(self, dfnum, dfden, size=None, out=None, device=False):
        """F(dfnum, dfden) floats: a ratio of scaled chi-squares; dfnum <= 0 or dfden <= 0: ValueError."""
        def compute(n, dev, d1, d2):
            x = self._gamma(n, dev, d1 * 0.5) / d1
            y = self._gamma(n, dev, d2 * 0.5) / d2
            return x / y
        return self._run(compute, (dfnum, dfden), size, out, device,
                         checks=(lambda a, b: (_le(a, 0), "dfnum <= 0"), lambda a, b: (_le(b, 0), "dfden <= 0")))

    def lognormal(self, mean=0.0, sigma=1.0, size=None, out=None, device=False):
        """Log-normal floats ``exp(mean + sigma * N)``; sigma < 0: ValueError."""
        return self._run(lambda n, dev, m, s: xp.exp(m + s * self._stdnorm(n, dev)), (mean, sigma), size, out,
                         device, checks=(lambda m, s: (_lt(s, 0), "sigma < 0"),))

    def laplace(self, loc=0.0, scale=1.0, size=None, out=None, device=False):
        """Laplace floats by inversion of a uniform in (0, 1); scale < 0: ValueError."""
        def compute(n, dev, loc, s):
            u = self._u_open(n, dev)
            lo = u < 0.5
            return xp.where(lo, loc + s * xp.log(u + u), loc - s * xp.log(2.0 - (u + u)))
        return self._run(compute, (loc, scale), size, out, device, checks=(lambda m, s: (_lt(s, 0), "scale < 0"),))

    def logistic(self, loc=0.0, scale=1.0, size=None, out=None, device=False):
        """Logistic floats ``loc + scale * log(u / (1 - u))``, u in (0, 1); scale < 0: ValueError."""
        def compute(n, dev, loc, s):
            u = self._u_open(n, dev)
            return loc + s * xp.log(u / (1.0 - u))
        return self._run(compute, (loc, scale), size, out, device, checks=(lambda m, s: (_lt(s, 0), "scale < 0"),))

    def gumbel(self, loc=0.0, scale=1.0, size=None, out=None, device=False):
        """Gumbel floats ``loc - scale * log(-log(u))``, u in (0, 1); scale < 0: ValueError."""
        def compute(n, dev, loc, s):
            return loc - s * xp.log(-xp.log(self._u_open(n, dev)))
        return self._run(compute, (loc, scale), size, out, device, checks=(lambda m, s: (_lt(s, 0), "scale < 0"),))

    def rayleigh(self, scale=1.0, size=None, out=None, device=False):
        """Rayleigh floats ``scale * sqrt(2 * standard_exponential())``; scale < 0: ValueError."""
        return self._run(lambda n, dev, s: s * xp.sqrt(2.0 * self._stdexp(n, dev)), (scale,), size, out, device,
                         checks=(lambda s: (_lt(s, 0), "scale < 0"),))

    def weibull(self, a, size=None, out=None, device=False):
        """Weibull floats ``standard_exponential() ** (1 / a)`` (a = 0 gives 0); a < 0: ValueError."""
        def compute(n, dev, a):
            e = self._stdexp(n, dev)
            if not isinstance(a, Array):
                return e * 0.0 if a == 0 else xp.power(e, 1.0 / a)
            return xp.where(a == 0, 0.0, xp.power(e, 1.0 / xp.where(a == 0, 1.0, a)))
        return self._run(compute, (a,), size, out, device, checks=(lambda a: (_lt(a, 0), "a < 0"),))

    def pareto(self, a, size=None, out=None, device=False):
        """Pareto II (Lomax) floats ``expm1(standard_exponential() / a)``; a <= 0: ValueError."""
        return self._run(lambda n, dev, a: xp.expm1(self._stdexp(n, dev) / a), (a,), size, out, device,
                         checks=(lambda a: (_le(a, 0), "a <= 0"),))

    def power(self, a, size=None, out=None, device=False):
        """Power-function floats on [0, 1] ``(1 - exp(-E)) ** (1 / a)``; a <= 0: ValueError."""
        return self._run(lambda n, dev, a: xp.power(-xp.expm1(-self._stdexp(n, dev)), 1.0 / a), (a,), size, out,
                         device, checks=(lambda a: (_le(a, 0), "a <= 0"),))

    def triangular(self, left, mode, right, size=None, out=None, device=False):
        """Triangular floats on [left, right] peaking at mode (inversion). left > mode, mode > right or
        left == right: ValueError."""
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
        """Von Mises floats on [-pi, pi): Best and Fisher's rejection (a wrapped normal for kappa > 1e6,
        uniform for kappa < 1e-8, as NumPy); kappa < 0: ValueError. Scalar kappa only."""
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

    def dirichlet(self, alpha, size=None, out=None, device=False):
        """Dirichlet floats of shape ``size + (k,)`` for alpha of length k: normalised gammas, computed from
        their logarithms (so small alphas do not give 0 / 0); alpha < 0: ValueError, alpha = 0 gives 0."""
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
        """Multivariate normal floats of shape ``size + (d,)``: ``mean + z @ A`` with z standard normal and
        ``A.T @ A == cov``. The factor A comes from NumPy on the host (the covariance is small; one
        factorisation for both backends keeps their streams identical): method 'svd' (default, as
        NumPy), 'eigh' or 'cholesky'. check_valid ('warn', 'raise', 'ignore') and tol as NumPy for a
        covariance that is not positive semi-definite."""
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
        """Poisson(lam) int64: inversion (sequential search from 0) for lam < 10, Hormann's transformed
        rejection with squeeze (PTRS, 1993) otherwise, as NumPy. lam < 0, NaN or too large: ValueError."""
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
        """Binomial(n, p) int64: inversion for n * min(p, 1 - p) < 10, Hormann's BTRS transformed rejection
        (1993) otherwise (p > 1/2 through n - Binomial(n, 1 - p)). n < 0, p outside [0, 1] or NaN:
        ValueError."""
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
        """Negative binomial int64 (failures before n successes): Poisson(Gamma(n, (1 - p) / p)).
        n <= 0, p outside (0, 1] or NaN: ValueError."""
        def compute(m, dev, n, p):
            y = self._gamma(m, dev, n) * ((1.0 - p) / p)
            return self._poisson(m, dev, y)
        return self._run(compute, (n, p), size, out, device, kind="i",
                         checks=(lambda n, p: (_le(n, 0) | _isnan(n), "n <= 0"),
                                 lambda n, p: (_le(p, 0) | _gt(p, 1) | _isnan(p), "p <= 0, p > 1 or p contains NaNs")))

    def geometric(self, p, size=None, out=None, device=False):
        """Geometric int64 on {1, 2, ...} (trials to the first success): ``ceil(log(v) / log1p(-p))`` for v
        uniform in (0, 1]. p outside (0, 1] or NaN: ValueError."""
        def compute(m, dev, p):
            lq = xp.log1p(-p) if isinstance(p, Array) else math.log1p(-p) if p < 1 else -math.inf
            return xp.maximum(xp.ceil(xp.log(self._u_right(m, dev)) / lq), 1.0)
        return self._run(compute, (p,), size, out, device, kind="i",
                         checks=(lambda p: (_le(p, 0) | _gt(p, 1) | _isnan(p), "p <= 0, p > 1 or p contains NaNs"),))

    def hypergeometric(self, ngood, nbad, nsample, size=None, out=None, device=False):
        """Hypergeometric int64 (good items among nsample drawn without replacement): inversion of the
        exact probability table (built on the host from log-factorials over the support, trimmed to 40
        standard deviations around the mean) by searchsorted. Scalar parameters only. ngood < 0,
        nbad < 0, nsample < 0 or nsample > ngood + nbad: ValueError."""
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

    def multinomial(self, n, pvals, size=None, out=None, device=False):
        """Multinomial int64 counts of shape ``size + (k,)`` (size defaults to n's shape): conditional
        binomials, category by category. pvals: k probabilities, each in [0, 1], the first k - 1 summing
        to at most 1 + 1e-12 (the last takes the rest); n < 0: ValueError."""
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
        """A permuted copy of x along axis (x an int: a permutation of arange(x), int64). Uniform over
        permutations: the stable argsort of random uint64 keys."""
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
        """Shuffle x in place along axis: an npgpu.Array (on its device), a NumPy array or a mutable
        sequence. Returns None."""
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
        """x with each slice along axis shuffled independently (axis=None: all elements, flattened). out
        (may be x itself) receives the result; an npgpu.Array x is permuted on its device."""
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
        """A random sample from a (an int: arange(a); else an array, sampled along axis), as NumPy's
        Generator.choice. With replacement: uniform integers, or with p inversion of p's cumulative sum
        (searchsorted). Without: the first `size` of a random permutation, or with p the Efraimidis-Spirakis
        keys E / p (exponential E), which gives NumPy's successive-sampling distribution; shuffle=False
        returns the chosen indices in increasing order. An npgpu.Array a is sampled on its device; a
        NumPy population is gathered on the host (device= moves the result)."""
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
        """`length` random bytes (uniform integers in [0, 256), one stream word each)."""
        n = operator.index(length)
        if n < 0:
            raise ValueError("length must be non-negative")
        return self.integers(0, 256, size=n, dtype=np.uint8).tobytes()

    def spawn(self, n_children):
        """`n_children` independent Generators. Child i of the j-th spawned overall has the Philox key made
        of words 0 and 1 of Philox4x32-10(counter=(j, j >> 32, 1, 0x5350574E "SPWN"), key=this seed): the
        parent's key over a counter domain ordinary draws never use (their fourth word is 0), so the
        children's keys are distinct from one another (a bijection of j, truncated to 64 bits:
        collisions have probability about 2**-64 per pair) and unrelated to the parent's numbers. The
        parent's spawn count is part of its state (pickling keeps it), so spawning again gives new
        children; children can spawn in turn."""
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
            kids.append(Generator(w[0] | (w[1] << 32)))
        return kids

def default_rng(seed=None):
    """A :class:`Generator` seeded with `seed` (an int in [0, 2**64), or None for OS entropy); a Generator
    is returned as it is."""
    if isinstance(seed, Generator):
        return seed
    return Generator(seed)


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
    """Reseed the module-global generator (an int in [0, 2**64), or None for OS entropy)."""
    global _GLOBAL
    g = Generator(seed)
    with _GLOBAL_LOCK:
        _GLOBAL = g


def get_global_generator():
    """The module-global :class:`Generator` the legacy functions draw from."""
    return _global_rng()


def rand(*dims):
    """Uniform floats in [0, 1) of shape dims (a float for no dims), as numpy.random.rand."""
    return _global_rng().random(size=dims if dims else None)


def randn(*dims):
    """Standard normal floats of shape dims (a float for no dims), as numpy.random.randn."""
    return _global_rng().standard_normal(size=dims if dims else None)


def random(size=None):
    """Uniform floats in [0, 1), as numpy.random.random."""
    return _global_rng().random(size=size)


def random_sample(size=None):
    """Uniform floats in [0, 1), as numpy.random.random_sample."""
    return _global_rng().random(size=size)


ranf = sample = random_sample


def randint(low, high=None, size=None, dtype=np.int64):
    """Uniform integers in [low, high) ([0, low) when high is None), as numpy.random.randint."""
    return _global_rng().integers(low, high, size=size, dtype=dtype)


def choice(a, size=None, replace=True, p=None):
    """A random sample of a, as numpy.random.choice (see Generator.choice)."""
    return _global_rng().choice(a, size=size, replace=replace, p=p)


def shuffle(x):
    """Shuffle x in place along its first axis, as numpy.random.shuffle."""
    return _global_rng().shuffle(x)


def permutation(x):
    """A permuted copy of x (an int: of arange(x)), as numpy.random.permutation."""
    return _global_rng().permutation(x)


def _legacy(name):
    def f(*args, **kwargs):
        return getattr(_global_rng(), name)(*args, **kwargs)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"Generator.{name} on the module-global generator (see seed)."
    return f


_LEGACY_DISTRIBUTIONS = (
    "beta", "binomial", "bytes", "chisquare", "dirichlet", "exponential", "f", "gamma", "geometric", "gumbel",
    "hypergeometric", "laplace", "logistic", "lognormal", "multinomial", "multivariate_normal",
    "negative_binomial", "normal", "pareto", "poisson", "power", "rayleigh", "standard_exponential",
    "standard_gamma", "standard_normal", "standard_t", "triangular", "uniform", "vonmises", "weibull",
)
for _name in _LEGACY_DISTRIBUTIONS:
    globals()[_name] = _legacy(_name)
del _name

__all__ += ["seed", "get_global_generator", "rand", "randn", "random", "random_sample", "ranf", "sample",
            "randint", "choice", "shuffle", "permutation", *_LEGACY_DISTRIBUTIONS]
