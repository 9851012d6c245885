"""NumPy-style ufunc objects over npgpu's elementwise functions (see docs/ufuncs.md).

``npgpu.add`` and friends are instances of :class:`ufunc`: calling one with positional operands (and
``out=``/``stream=``) goes straight to the compiled function; the keywords ``where=``, ``casting=``,
``dtype=``, ``signature=``, ``order=`` and ``subok=`` take a Python path that resolves the loop with NumPy's
own ``ufunc.resolve_dtypes`` (so casting errors are NumPy's ``UFuncTypeError``, a TypeError), casts the
operands and composes npgpu operations. The methods ``reduce``, ``accumulate``, ``reduceat``, ``outer`` and
``at`` and the attributes ``nin``, ``nout``, ``nargs``, ``identity``, ``types``, ``ntypes`` and ``signature``
follow numpy.ufunc.

The ufuncs NumPy has and npgpu's compiled module does not (divmod, fmod, frexp, ldexp, modf, gcd, lcm,
bitwise_count, spacing) are composed of npgpu operations, so they run on every device: npgpu.Array operands
give npgpu.Arrays on their device; NumPy operands are moved to the current backend's device
(``npgpu.get_backend()``), computed there and returned as NumPy arrays (NumPy scalars for 0-d results).
"""
import builtins
import operator

import numpy as np

from npgpu import _array, _elementwise, _elementwise_composed, _indexing, _reduce

_Array = _array.Array
_ew = _elementwise
_cm = _elementwise_composed
_PY_SCALARS = (bool, int, float, complex)
_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")


class _NoValue:
    def __repr__(self):
        return "<no value>"


_NOVALUE = _NoValue()


# ------------------------------------------------------------------------------------------------ helpers

def _key(x):
    """What NumPy's resolve_dtypes takes for an operand: Python int/float/complex stay weak (their type)."""
    t = type(x)
    if t is int or t is float or t is complex:
        return t
    if t is bool:
        return np.dtype(np.bool_)
    if isinstance(x, (_Array, np.ndarray, np.generic)):
        return x.dtype
    return np.asarray(x).dtype


def _astype(x, dt):
    """`x` in dtype `dt` (unchanged where it already is; Python scalars become `dt` scalars)."""
    if isinstance(x, _Array):
        return x if x.dtype == dt else x.astype(dt)
    if type(x) in _PY_SCALARS:
        return dt.type(x)
    x = np.asarray(x) if not isinstance(x, np.generic) else x
    return x if x.dtype == dt else x.astype(dt)


def _shape(x):
    return x.shape if isinstance(x, _Array) else np.shape(x)


def _ndim(x):
    return x.ndim if isinstance(x, _Array) else np.ndim(x)


def _reshape(x, shape):
    return x.reshape(shape) if isinstance(x, _Array) else np.reshape(x, shape)


def _empty(shape, dt, like):
    if isinstance(like, _Array):
        return _array.empty(shape, dtype=dt, device=like.device)
    return np.empty(shape, dtype=dt)


def _full(shape, value, dt, like):
    if isinstance(like, _Array):
        return _array.full(shape, value, dtype=dt, device=like.device)
    return np.full(shape, value, dtype=dt)


def _index(axis, ndim, key):
    """An index selecting `key` (an int or slice) along `axis`."""
    return (slice(None),) * axis + (key,) + (slice(None),) * (ndim - axis - 1)


def _scalar_result(r):
    """NumPy's convention: a 0-d NumPy result is a scalar."""
    return r[()] if isinstance(r, np.ndarray) and r.ndim == 0 else r


def _is_f_order(x):
    if isinstance(x, np.ndarray):
        return x.flags.f_contiguous and not x.flags.c_contiguous
    if isinstance(x, _Array):
        f = x.flags
        return x.ndim > 1 and f["F_CONTIGUOUS"] and not f["C_CONTIGUOUS"]
    return False


def _to_order(r, order):
    if _ndim(r) < 2:
        return r
    if isinstance(r, np.ndarray):
        return np.asfortranarray(r) if order == "F" else np.ascontiguousarray(r)
    if order == "F":
        return r if _is_f_order(r) else r.T.copy().T
    return r if r.flags["C_CONTIGUOUS"] else r.copy()


def _casting_error(name, what, frm, to, casting):
    # The text of NumPy's UFuncTypeError (numpy._core._exceptions._UFuncOutputCastingError is private).
    return TypeError(f"Cannot cast ufunc '{name}' {what} from {np.dtype(frm)!r} to {np.dtype(to)!r} with "
                     f"casting rule '{casting}'")


def _typed(v, dt):
    """`v` as a scalar of dtype `dt`, converted as NumPy converts a ufunc's identity (-1 is all ones for
    unsigned integers)."""
    return np.asarray(v).astype(dt)[()]


def _probe(fn, dt, **kw):
    """The result dtype NumPy's ufunc method gives for dtype `dt` (run on a one-element array)."""
    with np.errstate(all="ignore"):
        return np.asarray(fn(np.ones(1, dtype=dt), **kw)).dtype


# ------------------------------------------------------------------------------------------------ ufunc

class ufunc(_elementwise.UfuncCall):
    """A NumPy-style ufunc over an npgpu elementwise function (``npgpu.add`` and friends).

    ``f(*inputs, out=None, where=True, casting='same_kind', order='K', dtype=None, subok=True,
    signature=None, stream=None)`` as numpy.ufunc.__call__; NumPy operands give NumPy results and
    npgpu.Array operands npgpu.Arrays on their device. With ``where=`` and no ``out=``, the elements where
    the mask is False are unspecified, as in NumPy (which leaves them uninitialised; npgpu puts the computed
    values there, so nothing uninitialised is read). ``subok`` has no effect: npgpu refuses
    ndarray subclasses (TypeError naming the type) and never returns one.
    """

    def __init__(self, func, np_ufunc, name=None, *, reduce_fn=None, accumulate_fn=None, at_fn=None,
                 idempotent=False, exact_assoc=False, doc=None):
        self._f = func
        self._np = np_ufunc
        self.__name__ = self.__qualname__ = name or np_ufunc.__name__
        self.__doc__ = doc if doc is not None else getattr(func, "__doc__", None)
        self.nin = np_ufunc.nin
        self.nout = np_ufunc.nout
        self.nargs = np_ufunc.nargs
        self.identity = np_ufunc.identity
        self.types = list(np_ufunc.types)
        self.ntypes = np_ufunc.ntypes
        self.signature = np_ufunc.signature
        self._reduce_fn = reduce_fn
        self._accumulate_fn = accumulate_fn
        self._at_fn = at_fn
        # maximum(x, x) == x: a where-masked reduction may fill with `initial`
        self._idempotent = idempotent
        # exactly associative and commutative: reductions and scans may pair elements in any order
        self._exact_assoc = exact_assoc
        self._probes = {}

    __module__ = "npgpu"

    def __repr__(self):
        return f"<ufunc '{self.__name__}'>"

    def __reduce__(self):
        return self.__name__  # pickles as the module attribute npgpu.<name>

    # -------------------------------------------------------------------------------------------- call

    # __call__ is _elementwise.UfuncCall's: positional operands, out= and stream= go straight to the compiled
    # function, other keywords to _call.

    def _outs(self, args, out):
        nin, nout = self.nin, self.nout
        if len(args) < nin or len(args) > nin + nout:
            raise TypeError(f"{self.__name__}() takes from {nin} to {nin + nout} positional arguments but "
                            f"{len(args)} were given")
        return args[:nin], _outs_tuple(self.__name__, nout, args[nin:], out)

    def _call(self, args, kwargs):
        out = kwargs.pop("out", None)
        where = kwargs.pop("where", True)
        casting = kwargs.pop("casting", "same_kind")
        order = kwargs.pop("order", "K")
        dtype = kwargs.pop("dtype", None)
        signature = kwargs.pop("signature", None)
        subok = kwargs.pop("subok", True)
        stream = kwargs.pop("stream", None)
        if kwargs:
            raise TypeError(f"{self.__name__}() got an unexpected keyword argument '{next(iter(kwargs))}'")
        name, nin, nout = self.__name__, self.nin, self.nout
        inputs, outs = self._outs(args, out)
        for x in inputs:
            if isinstance(x, np.ndarray):
                _array.refuse_subclass(x, name)
        if order is None:
            order = "K"
        if order not in ("K", "C", "F", "A"):
            raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
        if casting not in _CASTINGS:
            raise ValueError(f"casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe' "
                             f"(got {casting!r})")
        if not isinstance(subok, (bool, np.bool_)):
            raise TypeError(f"subok must be a bool, not {type(subok).__name__}")
        if dtype is not None and signature is not None:
            raise TypeError("cannot specify both 'signature' and 'dtype'")
        sig = None
        if dtype is not None:
            sig = (None,) * nin + (np.dtype(dtype),) * nout
        elif signature is not None:
            if isinstance(signature, str):
                signature = signature.replace("->", "")
            sig = tuple(None if s is None else np.dtype(s) for s in signature)
        keys = tuple(_key(x) for x in inputs) + tuple(None if o is None else o.dtype for o in outs)
        kw = {} if sig is None else {"signature": sig}
        loop = self._np.resolve_dtypes(keys, casting=casting, **kw)  # NumPy's own UFuncTypeError
        ins = tuple(x if (sig is None and type(x) in _PY_SCALARS) else _astype(x, dt)
                    for x, dt in zip(inputs, loop[:nin]))
        masked = not (where is True or (isinstance(where, (bool, np.bool_)) and where))
        extra = {} if stream is None else {"stream": stream}
        if nout == 1 and not masked and outs[0] is not None and outs[0].dtype == loop[nin]:
            return self._f(*ins, out=outs[0], **extra)  # the compiled function writes out directly
        results = self._f(*ins, **extra)
        if nout == 1:
            results = (results,)
        final = []
        for r, o in zip(results, outs):
            if masked:
                if o is None:
                    # Unspecified where the mask is False (NumPy leaves those uninitialised): r's own values,
                    # broadcast to the mask's shape, so nothing uninitialised is read.
                    if np.broadcast_shapes(_shape(r), _shape(where)) != _shape(r):
                        r = _ew.where(where, r, r)
                else:
                    _ew.where(where, _astype(r, o.dtype), o, out=o)
                    r = o
            elif o is not None:
                o[...] = r
                r = o
            elif order != "K" and _ndim(r) >= 2:
                want = order
                if order == "A":
                    arrays = [x for x in inputs if _ndim(x) >= 2]
                    want = "F" if arrays and builtins.all(_is_f_order(x) for x in arrays) else "C"
                r = _to_order(r, want)
            final.append(r)
        return final[0] if nout == 1 else tuple(final)

    # -------------------------------------------------------------------------------------------- methods

    def _binary(self, method):
        if self.nin != 2:
            raise ValueError(f"{method} only supported for binary functions")
        if self.nout != 1:
            raise ValueError(f"{method} only supported for functions returning a single value")

    def _method_dtype(self, method, dt, dtype):
        key = (method, dt, None if dtype is None else np.dtype(dtype))
        r = self._probes.get(key)
        if r is None:
            fn = getattr(self._np, method)
            kw = {} if dtype is None else {"dtype": dtype}
            if method == "reduceat":
                r = _probe(lambda x, **k: fn(x, [0], **k), dt, **kw)
            else:
                r = _probe(fn, dt, **kw)
            self._probes[key] = r
        return r

    def _pair(self, x, y, out=None):
        """One application on two operands already in the loop dtype."""
        return self._f(x, y) if out is None else self._f(x, y, out=out)

    def _reduce_axis(self, a, axis, rt, where_mask, initial):
        """Reduce the array `a` (dtype rt) along one axis, keeping the axis (length 1)."""
        n = a.shape[axis]
        nd = a.ndim
        if where_mask is not None and self.identity is None and not self._idempotent:
            # Masked elements are skipped one by one (no identity to fill them with).
            acc = _full(_shape(a[_index(axis, nd, slice(0, 1))]), initial, rt, a)
            for i in range(n):
                sl = _index(axis, nd, slice(i, i + 1))
                acc = _ew.where(where_mask[sl], self._pair(acc, a[sl]), acc)
            return acc
        if self._exact_assoc:
            while n > 1:
                h = n // 2
                y = self._pair(a[_index(axis, nd, slice(0, h))], a[_index(axis, nd, slice(h, 2 * h))])
                if n % 2:
                    first = y[_index(axis, nd, slice(0, 1))]
                    self._pair(first, a[_index(axis, nd, slice(n - 1, n))], out=first)
                a, n = y, h
            acc = a
        else:  # NumPy's order: ((initial op a0) op a1) op ...
            acc = a[_index(axis, nd, slice(0, 1))]
            if initial is not _NOVALUE:
                acc = _astype(self._pair(_typed(initial, rt), acc), rt)
                initial = _NOVALUE
            for i in range(1, n):
                acc = self._pair(acc, a[_index(axis, nd, slice(i, i + 1))])
        if initial is not _NOVALUE:
            acc = _astype(self._pair(_typed(initial, rt), acc), rt)
        return acc

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=_NOVALUE, where=True):
        """Reduce `array` along `axis` (an int, a tuple, or None for all) by repeated application, as
        numpy.ufunc.reduce. add, multiply, maximum, minimum, logical_and and logical_or run npgpu's
        reductions (sum, prod, max, min, all, any); exactly associative ufuncs (bitwise and logical ones,
        fmax/fmin, gcd/lcm) pair elements by repeated halving (log2(n) launches); the others apply the
        ufunc element by element along the axis, in NumPy's order (n launches)."""
        self._binary("reduce")
        name = self.__name__
        a = array if isinstance(array, _Array) else np.asarray(array)
        if isinstance(a, np.ndarray):
            _array.refuse_subclass(array, f"{name}.reduce")
        if isinstance(out, tuple):
            if len(out) != 1:
                raise ValueError("The 'out' tuple must have exactly one entry")
            out = out[0]
        rt = self._method_dtype("reduce", a.dtype, dtype)
        nd = a.ndim
        if axis is None:
            axes = tuple(range(nd))
        else:
            axes = axis if isinstance(axis, tuple) else (axis,)
            axes = tuple(np.lib.array_utils.normalize_axis_index(int(ax), nd) for ax in axes)
            if len(set(axes)) != len(axes):
                raise ValueError("duplicate value in 'axis'")
        reorderable = self.identity is not None or self._idempotent
        if len(axes) > 1 and not reorderable:
            raise ValueError(f"reduction operation '{name}' is not reorderable, so at most one axis may be "
                             "specified")
        if type(initial) in (int, float, complex):
            # NumPy then converts a Python number to the loop dtype: OverflowError out of an integer's range
            # (np.add.reduce(np.uint8([1]), initial=-5)), TypeError for complex into real, ValueError for NaN
            with np.errstate(over="ignore"):
                initial = rt.type(initial)
        masked = not (where is True or (isinstance(where, (bool, np.bool_)) and where))
        empty_red = builtins.any(a.shape[ax] == 0 for ax in axes)
        if self.identity is None and initial is _NOVALUE:
            if masked:
                raise ValueError(f"reduction operation '{name}' does not have an identity, so to use a where "
                                 "mask one has to specify 'initial'")
            if empty_red:  # any empty reduced axis, even where the result is empty too, as NumPy
                raise ValueError(f"zero-size array to reduction operation {name} which has no identity")
        if initial is None:
            initial = _NOVALUE  # NumPy: None means no initial (an error where there is no identity)
        kept = tuple(1 if i in axes else d for i, d in enumerate(a.shape))
        final_shape = kept if keepdims else tuple(d for i, d in enumerate(a.shape) if i not in axes)
        a = _astype(a, rt)
        mask = None
        if masked:
            mask = where
            if isinstance(a, _Array) and not isinstance(mask, _Array):
                mask = _array.asarray(np.asarray(mask, dtype=bool), device=a.device)
            elif not isinstance(mask, _Array):
                mask = np.asarray(mask, dtype=bool)
            if self.identity is not None or self._idempotent:
                fill = self.identity if self.identity is not None else initial
                a = _ew.where(mask, a, _typed(fill, rt))
                mask = None
            else:
                mask = _array.broadcast_to(mask, a.shape) if isinstance(mask, _Array) else \
                    np.broadcast_to(mask, a.shape)
        if empty_red:
            fill = initial if initial is not _NOVALUE else self.identity
            r = _empty(kept, rt, a) if fill is None else _full(kept, _typed(fill, rt), rt, a)
        elif not axes:
            r = a
            if initial is not _NOVALUE:
                r = _astype(self._pair(_typed(initial, rt), r), rt)
            if mask is not None:  # nothing reduced: where the mask is False, the initial value (given here)
                r = _ew.where(mask, r, _typed(initial, rt))
        elif self._reduce_fn is not None and mask is None:
            kw = {"dtype": rt} if self.__name__ in ("add", "multiply") else {}
            r = self._reduce_fn(a, axis=axes, keepdims=True, **kw)
            if initial is not _NOVALUE:
                r = _astype(self._pair(_typed(initial, rt), r), rt)
        else:
            r = a
            for ax in sorted(axes, reverse=True):
                r = self._reduce_axis(r, ax, rt, mask, initial if ax == min(axes) else _NOVALUE)
                mask = None
        r = _reshape(r, final_shape)
        if out is not None:
            if not np.can_cast(rt, out.dtype, "same_kind"):
                raise _casting_error(name, "output", rt, out.dtype, "same_kind")
            out[...] = r
            return out
        return _scalar_result(r)

    def accumulate(self, array, axis=0, dtype=None, out=None):
        """Running application along `axis`, as numpy.ufunc.accumulate: add and multiply are npgpu's
        cumsum and cumprod; exactly associative ufuncs a log-step scan (log2(n) launches); the others one
        launch per element along the axis, in NumPy's order."""
        self._binary("accumulate")
        a = array if isinstance(array, _Array) else np.asarray(array)
        if isinstance(a, np.ndarray):
            _array.refuse_subclass(array, f"{self.__name__}.accumulate")
        if isinstance(out, tuple):
            out = out[0]
        if a.ndim == 0:
            raise TypeError("cannot accumulate on a scalar")  # NumPy's text
        axis = np.lib.array_utils.normalize_axis_index(int(axis), a.ndim)
        rt = self._method_dtype("accumulate", a.dtype, dtype)
        n, nd = a.shape[axis], a.ndim
        if self._accumulate_fn is not None:
            r = self._accumulate_fn(a, axis=axis, dtype=rt)
        else:
            r = a.astype(rt) if isinstance(a, _Array) else a.astype(rt, copy=True)  # a fresh array
            if self._exact_assoc:
                s = 1
                while s < n:
                    dst = r[_index(axis, nd, slice(s, n))]
                    self._pair(r[_index(axis, nd, slice(0, n - s))], dst, out=dst)
                    s *= 2
            else:
                for i in range(1, n):
                    dst = r[_index(axis, nd, slice(i, i + 1))]
                    self._pair(r[_index(axis, nd, slice(i - 1, i))], dst, out=dst)
        if out is not None:
            if not np.can_cast(rt, out.dtype, "same_kind"):
                raise _casting_error(self.__name__, "output", rt, out.dtype, "same_kind")
            out[...] = r
            return out
        return r

    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        """Reductions over the slices ``[indices[i]:indices[i+1]]`` along `axis` (``array[indices[i]]``
        where ``indices[i] >= indices[i+1]``; the last slice runs to the end), as numpy.ufunc.reduceat: one
        reduce per index."""
        self._binary("reduceat")
        a = array if isinstance(array, _Array) else np.asarray(array)
        if isinstance(a, np.ndarray):
            _array.refuse_subclass(array, f"{self.__name__}.reduceat")
        if isinstance(out, tuple):
            out = out[0]
        idx = np.asarray(indices.get() if isinstance(indices, _Array) else indices)
        if idx.ndim != 1:
            raise ValueError("index array must be 1-d")
        if idx.dtype.kind not in "iu":
            idx = idx.astype(np.intp, casting="same_kind")
        if a.ndim == 0:
            raise TypeError("cannot reduceat a scalar")
        axis = np.lib.array_utils.normalize_axis_index(int(axis), a.ndim)
        n, nd = a.shape[axis], a.ndim
        bad = idx[(idx < 0) | (idx >= n)]
        if bad.size:  # before the dtype's TypeError, as NumPy
            raise IndexError(f"index {int(bad[0])} out-of-bounds in {self.__name__}.reduceat [0, {n})")
        rt = self._method_dtype("reduceat", a.dtype, dtype)
        a = _astype(a, rt)
        shape = a.shape[:axis] + (len(idx),) + a.shape[axis + 1:]
        r = _empty(shape, rt, a)
        for i, j in enumerate(idx.tolist()):
            k = int(idx[i + 1]) if i + 1 < len(idx) else n
            dst = r[_index(axis, nd, slice(i, i + 1))]
            if j < k:
                dst[...] = self.reduce(a[_index(axis, nd, slice(j, k))], axis=axis, dtype=rt, keepdims=True)
            else:
                dst[...] = a[_index(axis, nd, slice(j, j + 1))]
        if out is not None:
            if not np.can_cast(rt, out.dtype, "same_kind"):
                raise _casting_error(self.__name__, "output", rt, out.dtype, "same_kind")
            out[...] = r
            return out
        return r

    def outer(self, A, B, /, **kwargs):
        """``op(a[..., None, ..., None], b)`` for every pair of elements, as numpy.ufunc.outer (keywords as
        for a call)."""
        if self.nin != 2:
            raise ValueError("outer product only supported for binary functions")
        A = A if isinstance(A, _Array) else np.asarray(A)
        B = B if isinstance(B, _Array) else np.asarray(B)
        return self(_reshape(A, A.shape + (1,) * B.ndim), B, **kwargs)

    def at(self, a, indices, b=None, /):
        """Unbuffered in-place ``a[indices] = op(a[indices], b)``, repeated indices applied once each, as
        numpy.ufunc.at: add and subtract (npgpu's scatter-add); the other ufuncs raise NotImplementedError."""
        if self._at_fn is None:
            raise NotImplementedError(f"npgpu.{self.__name__}.at is not implemented (only add.at and "
                                      "subtract.at are)")
        return self._at_fn(a, indices, b)


# ------------------------------------------------------------------------------------------------ composed

def _composed(name, np_ufunc, impl):
    """A function ``f(*inputs, out=None, stream=None)`` for the ufunc `impl` computes on npgpu.Arrays already in
    the loop dtypes (as NumPy resolves them) on one device: NumPy operands go to the current backend's device
    and come back as NumPy results; npgpu.Array operands stay on their device."""
    nin, nout = np_ufunc.nin, np_ufunc.nout

    def f(*args, out=None, stream=None):
        if len(args) < nin or len(args) > nin + nout:
            raise TypeError(f"{name}() takes from {nin} to {nin + nout} positional arguments but {len(args)} "
                            "were given")
        inputs = args[:nin]
        outs = _outs_tuple(name, nout, args[nin:], out)
        device_arrays = [x for x in inputs + outs if isinstance(x, _Array)]
        if device_arrays:
            device = device_arrays[0].device
            for x in inputs:
                if isinstance(x, (list, tuple)) or (isinstance(x, np.ndarray) and x.ndim > 0):
                    raise TypeError(f"{name}: cannot mix a host array ({type(x).__name__}) with npgpu device "
                                    "arrays; move it first with npgpu.asarray(x)")
            for o in outs:
                if o is not None and not isinstance(o, _Array):
                    raise TypeError(f"{name}: out must be an npgpu.Array when operands are npgpu.Arrays, not "
                                    f"{type(o).__name__}")
        else:
            device = None
            for x in inputs:
                _array.refuse_subclass(x, name)
        loop = np_ufunc.resolve_dtypes(tuple(_key(x) for x in inputs) + (None,) * nout)
        arrs = []
        for x, dt in zip(inputs, loop[:nin]):
            if isinstance(x, _Array):
                arrs.append(x if x.dtype == dt else x.astype(dt))
            else:
                v = np.asarray(x, dtype=dt) if type(x) in _PY_SCALARS else np.asarray(x).astype(dt, copy=False)
                arrs.append(_array.asarray(v) if device is None else _array.asarray(v, device=device))
        with np.errstate(all="ignore"):
            res = impl(*arrs)
        if nout == 1:
            res = (res,)
        res = tuple(_astype(r, dt) for r, dt in zip(res, loop[nin:]))
        if device is None:
            res = tuple(r.get() for r in res)
        final = []
        for r, o in zip(res, outs):
            if o is None:
                final.append(r if device is not None else _scalar_result(r))
                continue
            if not np.can_cast(r.dtype, o.dtype, "same_kind"):
                raise _casting_error(name, "output", r.dtype, o.dtype, "same_kind")
            o[...] = r
            final.append(o)
        return final[0] if nout == 1 else tuple(final)

    f.__name__ = f.__qualname__ = name
    f.__module__ = "npgpu"
    return f


def _outs_tuple(name, nout, pos, out):
    if pos:
        if out is not None:
            raise TypeError("cannot specify 'out' as both a positional and keyword argument")
        outs = tuple(pos) + (None,) * (nout - len(pos))
    elif out is None:
        return (None,) * nout
    elif isinstance(out, tuple):
        if len(out) != nout:
            raise ValueError(f"The 'out' tuple must have exactly {nout} entries: one per ufunc output")
        outs = out
    elif nout == 1:
        outs = (out,)
    else:
        raise TypeError(f"'out' must be a tuple of arrays for ufunc '{name}' with {nout} outputs")
    for o in outs:
        if o is not None and not isinstance(o, (np.ndarray, _Array)):
            raise TypeError(f"{name}: return arrays must be of ArrayType, not {type(o).__name__}")
    return outs


def _with_out(name, func, nin):
    """An existing composed function f(x1[, x2]) with NumPy's out= (and an ignored stream=)."""
    def f(*args, out=None, stream=None):
        if len(args) > nin:
            if out is not None:
                raise TypeError("cannot specify 'out' as both a positional and keyword argument")
            out = args[nin]
            args = args[:nin]
        if isinstance(out, tuple):
            out = out[0] if len(out) == 1 else out
        if out is not None and not isinstance(out, (np.ndarray, _Array)):
            raise TypeError(f"{name}: return arrays must be of ArrayType, not {type(out).__name__}")
        r = func(*args)
        if out is None:
            return r
        if not np.can_cast(r.dtype, out.dtype, "same_kind"):
            raise _casting_error(name, "output", r.dtype, out.dtype, "same_kind")
        if isinstance(out, np.ndarray) and isinstance(r, _Array):
            raise TypeError(f"{name}: out must be an npgpu.Array when operands are on the GPU")
        out[...] = r
        return out

    f.__name__ = f.__qualname__ = name
    f.__doc__ = func.__doc__
    f.__module__ = "npgpu"
    return f


def _uint_of(dt):
    return np.dtype(f"uint{np.dtype(dt).itemsize * 8}")


def _sint_of(dt):
    return np.dtype(f"int{np.dtype(dt).itemsize * 8}")


def _bits_const(value, dt):
    """The bit pattern `value` (a non-negative Python int) as a scalar of the signed integer dtype `dt`."""
    return np.array(value & ((1 << (8 * dt.itemsize)) - 1), dtype=_uint_of(dt)).view(dt)[()]


def _divmod_impl(x1, x2):
    return _ew.floor_divide(x1, x2), _ew.remainder(x1, x2)


def _fmod_impl(x1, x2):
    if x1.dtype.kind == "f":
        # For non-negative operands NumPy's remainder is C's fmod exactly (no sign fix-up): take the
        # magnitudes, then the sign of x1 (fmod's result has x1's sign, zeros included).
        return _cm.copysign(_ew.remainder(_ew.absolute(x1), _ew.absolute(x2)), x1)
    r = _ew.remainder(x1, x2)  # integer division by zero gives 0, as NumPy's result
    if x1.dtype.kind == "u":
        return r
    fix = _ew.logical_and(_ew.not_equal(r, 0), _ew.not_equal(_ew.less(r, 0), _ew.less(x1, 0)))
    return _ew.where(fix, _ew.subtract(r, x2), r)


def _modf_impl(x):
    whole = _ew.trunc(x)
    frac = _ew.where(_ew.isinf(x), x.dtype.type(0), _ew.subtract(x, whole))
    return _cm.copysign(frac, x), whole


def _frexp_impl(x):
    dt = x.dtype
    fi = np.finfo(dt)
    it = _sint_of(dt)
    nmant, nexp = fi.nmant, fi.nexp
    bias = (1 << (nexp - 1)) - 1
    shift = nmant + 2
    sub = _ew.logical_and(_ew.not_equal(x, 0), _ew.less(_ew.absolute(x), fi.tiny))
    xs = _ew.where(sub, _ew.multiply(x, dt.type(2.0 ** shift)), x)
    bits = _array.reinterpret(xs, it)
    e = _ew.bitwise_and(_ew.right_shift(bits, it.type(nmant)), it.type((1 << nexp) - 1))
    e = _ew.subtract(_ew.astype(e, np.int32), np.int32(bias - 1))
    e = _ew.subtract(e, _ew.where(sub, np.int32(shift), np.int32(0)))
    mbits = _ew.bitwise_or(_ew.bitwise_and(bits, _bits_const(~(((1 << nexp) - 1) << nmant), it)),
                           _bits_const((bias - 1) << nmant, it))
    m = _array.reinterpret(mbits, dt)
    special = _ew.logical_or(_ew.equal(x, 0), _ew.logical_not(_ew.isfinite(x)))
    return _ew.where(special, x, m), _ew.where(special, np.int32(0), e)


def _pow2_f64(n):
    """2.0**n as float64 for integer n in [-1022, 1023] (int64 Array), by its bit pattern."""
    return _array.reinterpret(_ew.left_shift(_ew.add(n, np.int64(1023)), np.int64(52)), np.float64)


def _ldexp_impl(x, n):
    # musl's scalbn, vectorised: at most two pre-scalings each way keep every step exact except the last
    # (2**-969 = 2**-1022 * 2**53 avoids double rounding into subnormals). float16/32 work in float64,
    # where x * 2**n is exact, and round once on the way back.
    dt = x.dtype
    y = _ew.astype(x, np.float64)
    n = _ew.astype(n, np.int64)
    n = _ew.minimum(_ew.maximum(n, np.int64(-2200)), np.int64(2200))
    for _ in range(2):
        big = _ew.greater(n, 1023)
        y = _ew.where(big, _ew.multiply(y, np.float64(2.0 ** 1023)), y)
        n = _ew.where(big, _ew.subtract(n, np.int64(1023)), n)
    for _ in range(2):
        small = _ew.less(n, -1022)
        y = _ew.where(small, _ew.multiply(y, np.float64(2.0 ** -969)), y)
        n = _ew.where(small, _ew.add(n, np.int64(969)), n)
    n = _ew.minimum(_ew.maximum(n, np.int64(-1022)), np.int64(1023))
    r = _ew.multiply(y, _pow2_f64(n))
    return r if dt == np.float64 else _ew.astype(r, dt)


def _gcd_impl(x1, x2):
    a = _ew.absolute(x1)
    b = _ew.absolute(x2)
    shape = np.broadcast_shapes(a.shape, b.shape)
    a = _array.broadcast_to(a, shape)
    b = _array.broadcast_to(b, shape)
    # Euclid, every element at once: (a, b) <- (b, a mod b) where b != 0. Consecutive Fibonacci numbers are
    # the worst case, 92 steps within 64 bits; check for the end every 8 steps.
    for i in range(200):
        if i % 8 == 0 and not builtins.bool(_reduce.any(b)):
            break
        r = _ew.remainder(a, b)  # 0 where b == 0
        a = _ew.where(_ew.not_equal(b, 0), b, a)
        b = r
    return a


def _lcm_impl(x1, x2):
    g = _gcd_impl(x1, x2)
    # NumPy: |x1| / gcd * |x2| (wrapping), 0 where the gcd is 0 (floor_divide by 0 gives 0 here).
    return _ew.multiply(_ew.floor_divide(_ew.absolute(x1), g), _ew.absolute(x2))


def _bitwise_count_impl(x):
    v = _ew.absolute(x) if x.dtype.kind == "i" else x
    v = _ew.astype(_ew.astype(v, _uint_of(x.dtype)), np.uint64)
    u = np.uint64
    v = _ew.subtract(v, _ew.bitwise_and(_ew.right_shift(v, u(1)), u(0x5555555555555555)))
    v = _ew.add(_ew.bitwise_and(v, u(0x3333333333333333)),
                _ew.bitwise_and(_ew.right_shift(v, u(2)), u(0x3333333333333333)))
    v = _ew.bitwise_and(_ew.add(v, _ew.right_shift(v, u(4))), u(0x0F0F0F0F0F0F0F0F))
    v = _ew.right_shift(_ew.multiply(v, u(0x0101010101010101)), u(56))
    return _ew.astype(v, np.uint8)


def _spacing_impl(x):
    # NumPy: the step towards +inf for float16 and for zeros of either sign; away from zero otherwise.
    dt = x.dtype
    inf = _array.full(x.shape, np.inf, dtype=dt, device=x.device)
    if dt != np.float16:
        inf = _ew.where(_ew.equal(x, 0), inf, _cm.copysign(inf, x))
    r = _ew.subtract(_cm.nextafter(x, inf), x)
    return _ew.where(_ew.isinf(x), dt.type(np.nan), r)


# ------------------------------------------------------------------------------------------------ the table

_EXACT_ASSOC = {"bitwise_and", "bitwise_or", "bitwise_xor", "logical_and", "logical_or", "logical_xor",
                "maximum", "minimum", "fmax", "fmin", "gcd", "lcm"}
_IDEMPOTENT = {"maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or", "bitwise_and", "bitwise_or"}
_REDUCE_FN = {"add": _reduce.sum, "multiply": _reduce.prod, "maximum": _reduce.max, "minimum": _reduce.min,
              "logical_and": _reduce.all, "logical_or": _reduce.any}
_ACCUMULATE_FN = {"add": _reduce.cumsum, "multiply": _reduce.cumprod}
_AT_FN = {"add": _indexing.add_at, "subtract": _indexing.subtract_at}

_NEW = {
    "divmod": (_divmod_impl, "Floor quotient and remainder, ``(x1 // x2, x1 % x2)``, as numpy.divmod."),
    "fmod": (_fmod_impl, "C's remainder of ``x1 / x2`` (the sign of x1), as numpy.fmod; integer division "
                         "by zero gives 0."),
    "modf": (_modf_impl, "Fractional and integral parts, both with the sign of x, as numpy.modf."),
    "frexp": (_frexp_impl, "Mantissa in [0.5, 1) (sign of x) and int32 exponent with ``x = m * 2**e``, as "
                           "numpy.frexp (0, inf and NaN give ``(x, 0)``; subnormals exact)."),
    "ldexp": (_ldexp_impl, "``x1 * 2**x2`` with a single rounding (C's ldexp), as numpy.ldexp."),
    "gcd": (_gcd_impl, "Greatest common divisor of |x1| and |x2| (gcd(0, 0) = 0), as numpy.gcd: Euclid's "
                       "algorithm on every element at once."),
    "lcm": (_lcm_impl, "Least common multiple ``|x1| / gcd(x1, x2) * |x2|`` (0 where either is 0; wraps "
                       "on overflow), as numpy.lcm."),
    "bitwise_count": (_bitwise_count_impl, "The number of 1 bits in |x| (uint8), as numpy.bitwise_count."),
    "spacing": (_spacing_impl, "The distance from x to the next float away from zero (towards +inf for "
                               "zeros and float16), as numpy.spacing (NaN for infinities)."),
}

# Names NumPy binds to one ufunc object (npgpu binds them to one ufunc object too).
_ALIASES = {"abs": "absolute", "conj": "conjugate", "mod": "remainder", "divide": "true_divide",
            "bitwise_not": "invert", "bitwise_invert": "invert", "acos": "arccos", "asin": "arcsin",
            "atan": "arctan", "atan2": "arctan2", "acosh": "arccosh", "asinh": "arcsinh", "atanh": "arctanh",
            "pow": "power", "bitwise_left_shift": "left_shift", "bitwise_right_shift": "right_shift"}

# NumPy's ufuncs npgpu has no equivalent for: datetime isnat, and the gufuncs (matmul is npgpu.matmul).
# Composed earlier (npgpu._elementwise_composed): wrapped here, with out= added.
_COMPOSED_EARLIER = ("copysign", "signbit", "nextafter", "logaddexp", "logaddexp2", "fmax", "fmin", "heaviside",
                     "fabs", "float_power", "deg2rad", "rad2deg", "degrees", "radians")

_NOT_WRAPPED = {"isnat", "matmul", "matvec", "vecmat", "vecdot"}


def _build():
    table = {}
    for name in _ew.UFUNCS:
        npu = getattr(np, name)
        table[name] = ufunc(getattr(_ew, name), npu, npu.__name__,
                            reduce_fn=_REDUCE_FN.get(name), accumulate_fn=_ACCUMULATE_FN.get(name),
                            at_fn=_AT_FN.get(name), idempotent=name in _IDEMPOTENT,
                            exact_assoc=name in _EXACT_ASSOC)
    for name in _COMPOSED_EARLIER:
        npu = getattr(np, name)
        fn = getattr(_cm, name)
        table[name] = ufunc(_with_out(name, fn, npu.nin), npu, name, idempotent=name in _IDEMPOTENT,
                            exact_assoc=name in _EXACT_ASSOC, doc=fn.__doc__)
    for name, (impl, doc) in _NEW.items():
        npu = getattr(np, name)
        table[name] = ufunc(_composed(name, npu, impl), npu, name, idempotent=name in _IDEMPOTENT,
                            exact_assoc=name in _EXACT_ASSOC, doc=doc)
    for alias, name in _ALIASES.items():
        table[alias] = table[name]
    return table


_TABLE = _build()
globals().update(_TABLE)
NEW_UFUNCS = tuple(_NEW)
__all__ = ["ufunc"] + sorted(_TABLE)


# ------------------------------------------------------------------------------------------------ NumPy's protocol

# matmul's keywords that npgpu.matmul has no counterpart for, accepted at NumPy's defaults.
_MATMUL_DEFAULTS = {"casting": "same_kind", "order": "K", "subok": True, "signature": None}


def _array_ufunc(np_ufunc, method, inputs, kwargs):
    """npgpu.Array.__array_ufunc__ past its compiled fast path: NumPy's ufunc methods (reduce, accumulate,
    reduceat, outer, at) and keywords (where=, casting=, dtype=, ...) through npgpu's ufunc objects, and
    np.matmul (axes= too) through npgpu.matmul. NotImplemented for the ufuncs npgpu has no equivalent of."""
    name = np_ufunc.__name__
    kwargs = dict(kwargs)
    out = kwargs.pop("out", None)
    if out is not None and all(o is None for o in out):
        out = None
    if name == "matmul":
        return _matmul_gufunc(inputs, out, kwargs) if method == "__call__" else NotImplemented
    if name in ("vecdot", "matvec", "vecmat"):
        return _vector_gufunc(name, inputs, out, kwargs) if method == "__call__" else NotImplemented
    u = _TABLE.get(name)
    if u is None or method not in ("__call__", "reduce", "accumulate", "reduceat", "outer", "at"):
        return NotImplemented
    if out is not None:
        # NumPy hands every method its outputs as a tuple; npgpu's take the array itself for one output.
        kwargs["out"] = out[0] if len(out) == 1 else out
    return (u if method == "__call__" else getattr(u, method))(*inputs, **kwargs)


def _vector_gufunc(name, inputs, out, kwargs):
    """np.vecdot (axis= too), np.matvec and np.vecmat with an npgpu.Array operand, by npgpu's functions."""
    from npgpu import _creation, _linear_algebra

    for key in kwargs:
        if key != "axis" or name != "vecdot":
            raise NotImplementedError(f"npgpu's {name} takes no {key}= keyword")
    r = getattr(_linear_algebra, name)(*inputs, **kwargs)
    if out is None:
        return r
    if len(out) != 1:
        raise ValueError(f"{name}: out must hold 1 array, got {len(out)}")
    _creation.copyto(out[0], r)
    return out[0]


def _core_axes(entry, count, ndim, i):
    """Item `i` of matmul's axes=: `count` distinct axes of a `ndim`-d operand (a tuple; an int where count is
    1), checked with NumPy's errors."""
    from numpy.exceptions import AxisError

    if not isinstance(entry, tuple):
        try:
            entry = (operator.index(entry),)
        except TypeError:
            raise TypeError(f"matmul: axes item {i} should be a tuple.") from None
        if count != 1:
            raise AxisError(f"matmul: operand {i} has {count} core dimensions, but the axes item is a single "
                            f"integer.")
    if len(entry) != count:
        raise AxisError(f"matmul: operand {i} has {count} core dimensions, but {len(entry)} dimensions are "
                        f"specified by axes tuple.")
    axes = []
    for a in entry:
        a = operator.index(a)
        if not -ndim <= a < ndim:
            raise AxisError(a, ndim)
        if a % ndim in axes:
            raise ValueError(f"axes item {i} has value {a % ndim} repeated")
        axes.append(a % ndim)
    return axes


def _moveaxis(x, source, destination):
    """numpy.moveaxis for an npgpu.Array or a NumPy array: a view."""
    if isinstance(x, _Array):
        from npgpu import _manipulation
        return _manipulation.moveaxis(x, source, destination)
    return np.moveaxis(x, source, destination)


def _core_last(x, axes):
    """`x` with the given axes moved last, in their order."""
    return _moveaxis(x, axes, list(range(-len(axes), 0)))


def _matmul_gufunc(inputs, out, kwargs):
    """np.matmul(a, b, out=, axes=, dtype=) with an npgpu.Array among its operands: npgpu.matmul over views
    with each operand's core axes moved last, writing into `out` viewed the same way."""
    from npgpu import _blas

    axes = kwargs.pop("axes", None)
    dtype = kwargs.pop("dtype", None)
    if "axis" in kwargs:
        raise TypeError("matmul: axis can only be used with a single shared core dimension, not with the 3 "
                        "distinct ones implied by signature (n?,k),(k,m?)->(n?,m?).")
    for key, value in kwargs.items():
        if key not in _MATMUL_DEFAULTS:
            raise TypeError(f"matmul() got an unexpected keyword argument '{key}'")
        if value != _MATMUL_DEFAULTS[key]:
            raise NotImplementedError(f"npgpu's matmul takes {key}={_MATMUL_DEFAULTS[key]!r} only, not {value!r}")
    a, b = inputs
    if dtype is not None:
        a, b = (_astype(x, np.dtype(dtype)) for x in (a, b))
    target = None if out is None else out[0]
    if axes is None:
        return _blas.matmul(a, b, out=target)
    ndims = [_ndim(a), _ndim(b)]
    if 0 in ndims:
        raise ValueError("matmul: Input operand does not have enough dimensions")
    cores = [min(n, 2) for n in ndims]
    out_core = cores[0] + cores[1] - 2
    if len(axes) != 3:
        raise ValueError("axes should be a list with an entry for all 3 inputs and outputs; entries for outputs "
                         "can only be omitted if none of them has core axes.")
    a, b = (_core_last(x, _core_axes(axes[i], cores[i], ndims[i], i)) for i, x in enumerate((a, b)))
    # The result's axes are checked before the product, as NumPy does.
    r_ndim = _ndim(target) if target is not None else max(ndims[0] - cores[0], ndims[1] - cores[1]) + out_core
    dst = _core_axes(axes[2], out_core, r_ndim, 2)
    if target is not None:
        _blas.matmul(a, b, out=_core_last(target, dst))
        return target
    r = _blas.matmul(a, b)
    return _moveaxis(r, list(range(-len(dst), 0)), dst) if dst else r


_array._register_op("array_ufunc", _array_ufunc)
