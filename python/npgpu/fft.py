"""Discrete Fourier transforms: numpy.fft's functions and semantics (NumPy 2), and the Array API standard's fft
extension.

Every transform is split into at most three unnormalized primitives of the array's device, over 1 to 3
distinct axes per call:

- ``c2c(x, axes, forward)``: complex to complex, exp(-2πi...) forward, exp(+2πi...) inverse, no 1/n;
- ``r2c(x, axes)``: real to complex, forward; axes[-1] of the result has n // 2 + 1 entries;
- ``c2r(x, axes, n_last)``: complex to real, inverse, no 1/n; axes[-1] of the result has n_last entries.

The front-end here does the rest on the array's own device: it crops (slicing) and zero-pads (npgpu.pad) for
`n` and `s`, casts to the compute dtype, groups NumPy's sequence of 1-D transforms into calls over distinct
axes (repeated axes run one after another, as NumPy runs them), makes the input of c2r Hermitian where it has
to be (so any correct c2r gives NumPy's answer for any input), and applies `norm` as one multiplication at the
end. A GPU runs the primitives of ``npgpu._fft`` (cuFFT); the host device runs numpy.fft on the array's memory.

npgpu.Array in, npgpu.Array out on its device; NumPy (or list, scalar) in, NumPy out, computed on the GPU when
the backend is 'cuda', on the host device otherwise.
"""
import importlib
import math
import operator
import warnings

import numpy as np

from npgpu import _array, _creation, _elementwise, _indexing, _manipulation, _runtime
from npgpu._manipulation import _axis, _key

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn",
           "rfftn", "irfftn", "fftfreq", "rfftfreq", "fftshift", "ifftshift", "config"]

_NORMS = (None, "backward", "ortho", "forward")
_SWAP = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}
_C64, _C128 = np.dtype(np.complex64), np.dtype(np.complex128)
_F16, _F32, _F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
_MAX_AXES = 3  # per primitive call: cuFFT plans have at most 3 dimensions

# Kinds of NumPy's 1-D steps.
_FWD, _INV, _R2C, _C2R = "c2c+", "c2c-", "r2c", "c2r"


# ------------------------------------------------------------------------------------------------ primitives

_GPU_MODULE = []  # npgpu._fft once imported (or None where the build lacks it)


def _fft_module():
    """npgpu._fft (the GPU primitives and the plan cache), or None where this build lacks it."""
    if not _GPU_MODULE:
        try:
            _GPU_MODULE.append(importlib.import_module("npgpu._fft"))
        except ImportError:
            _GPU_MODULE.append(None)
    return _GPU_MODULE[0]


def _direct_c2c(a, n, axis, norm, out, forward):
    """fft/ifft's one primitive call for a whole complex axis of a device array with the default norm and no
    out=, or None when the general path is needed."""
    module = _GPU_MODULE[0] if _GPU_MODULE else _fft_module()
    if module is None:
        return None
    y = module.direct_c2c(a, n, axis, norm, out, forward)
    if y is not None and not forward:
        _elementwise.multiply(y, 1.0 / a.shape[axis], out=y)
    return y


class _HostPrimitives:
    """The three primitives on host-device Arrays: numpy.fft (pocketfft) on the arrays' memory, no copies in.
    The norms are chosen so that NumPy applies no factor: 'backward' forward transforms and 'forward'
    inverse ones are unnormalized. Results are C-contiguous, as the GPU's."""

    @staticmethod
    def _check(axes):
        if not 1 <= len(axes) <= _MAX_AXES:  # the CUDA primitives' limit, kept here so the host tests it
            raise ValueError(f"an fft primitive takes 1 to {_MAX_AXES} axes, not {len(axes)}")

    @staticmethod
    def _wrap(r):
        return _array.asarray(np.ascontiguousarray(r), device="cpu")

    def c2c(self, x, axes, forward):
        self._check(axes)
        h = np.asarray(x)
        return self._wrap(np.fft.fftn(h, axes=axes) if forward else np.fft.ifftn(h, axes=axes, norm="forward"))

    def r2c(self, x, axes):
        self._check(axes)
        return self._wrap(np.fft.rfftn(np.asarray(x), axes=axes))

    def c2r(self, x, axes, n_last):
        self._check(axes)
        h = np.asarray(x)
        s = [h.shape[a] for a in axes[:-1]] + [n_last]
        return self._wrap(np.fft.irfftn(h, s=s, axes=axes, norm="forward"))


_HOST = _HostPrimitives()


def _primitives(device):
    """The object whose c2c, r2c and c2r run on `device`: numpy.fft for the host device, npgpu._fft for a GPU
    (imported here, so the host needs no CUDA module)."""
    if device == _runtime.cpu:
        return _HOST
    module = _fft_module()
    if module is None:
        raise NotImplementedError(f"npgpu.fft on {device}: this build of npgpu lacks its GPU module "
                                  "npgpu._fft; move the array to the host with .to_device('cpu')")
    return module


# ------------------------------------------------------------------------------------------------ dtypes

def _complex_of(dt):
    """The complex dtype a c2c step computes in (NumPy's result_type(dt, 1j), kept to complex64/128)."""
    if dt.kind not in "biufc":
        raise TypeError(f"npgpu.fft does not support dtype {dt}")
    return _C64 if dt in (_F16, _F32, _C64) else _C128


def _real_of(dt):
    """The real dtype an r2c step computes in; TypeError for complex input, as NumPy 2."""
    if dt.kind == "c":
        raise TypeError(f"a real-input transform (rfft, ihfft, rfftn) needs real data, not {dt}; use fft for "
                        "complex input")
    if dt.kind not in "biuf":
        raise TypeError(f"npgpu.fft does not support dtype {dt}")
    return _F32 if dt in (_F16, _F32) else _F64


def _c2r_result(dt):
    """The dtype of NumPy's irfft of dtype dt: result_type(dt.real, 1.0), so float16 stays float16 (computed
    in float32)."""
    if dt == _F16:
        return _F16
    return _F32 if _complex_of(dt) == _C64 else _F64


# ------------------------------------------------------------------------------------------------ arguments

def _input(a):
    """(npgpu.Array, whether the caller gets NumPy back) for any input."""
    if isinstance(a, _array.Array):
        return a, False
    return _indexing._as_device_array(a)


def _check_norm(norm):
    if not (norm is None or isinstance(norm, str)) or norm not in _NORMS:
        raise ValueError(f'Invalid norm value {norm}; should be "backward", "ortho" or "forward".')


def _check_axis_then_norm(a, n, axis, norm):
    # hfft/ihfft swap the norm's direction before the transform, so NumPy checks the norm after reading the
    # axis's length (when n is omitted) and before checking n
    if n is None:
        _axis(axis, np.ndim(a))
    _check_norm(norm)


def _length(n):
    """`n` as an int, or None."""
    return None if n is None else operator.index(n)


def _cook(x, s, axes, invreal):
    """NumPy's _cook_nd_args: (lengths, normalised axes); a length is None where the 1-D step takes its
    default (an entry None of `s`, deprecated by NumPy 2 as here)."""
    shapeless = s is None
    if s is None:
        axes = list(range(x.ndim)) if axes is None else list(axes)
        axes = [_axis(a, x.ndim) for a in axes]
        s = [x.shape[a] for a in axes]
    else:
        s = list(s)
        if axes is None:
            warnings.warn("`axes` should not be `None` if `s` is not `None` (Deprecated in NumPy 2.0). In a "
                          "future version of NumPy, this will raise an error and `s[i]` will correspond to the "
                          "size along the transformed axis specified by `axes[i]`. To retain current "
                          "behaviour, pass a sequence [0, ..., k-1] to `axes` for an array of dimension k.",
                          DeprecationWarning, stacklevel=5)
            axes = list(range(-len(s), 0))
        axes = list(axes)
        if len(s) != len(axes):
            raise ValueError("Shape and axes have different lengths.")
        axes = [_axis(a, x.ndim) for a in axes]
    if invreal and not axes:
        raise IndexError("irfftn: axes must name at least one axis")
    if invreal and shapeless:
        s[-1] = (x.shape[axes[-1]] - 1) * 2
    if any(v is None for v in s):
        warnings.warn("Passing an array containing `None` values to `s` is deprecated in NumPy 2.0 and will "
                      "raise an error in a future version of NumPy. To use the default behaviour of the "
                      "corresponding 1-D transform, pass the value matching the default for its `n` parameter. "
                      "To use the default behaviour for every axis, the `s` argument can be omitted.",
                      DeprecationWarning, stacklevel=5)
    s = [_length(v) for v in s]
    return [x.shape[a] if v == -1 else v for v, a in zip(s, axes)], axes


# ------------------------------------------------------------------------------------------------ the engine

class _Group:
    """Primitive work over distinct axes: `kind` (c2c+, c2c-, r2c, c2r), the input length of each axis
    (`sizes`), the axes transformed complex to complex (`outer`) and, for r2c/c2r, the real axis and its
    real length."""
    __slots__ = ("kind", "sizes", "outer", "last", "n_last")

    def __init__(self, kind, sizes, outer, last=None, n_last=None):
        self.kind, self.sizes, self.outer, self.last, self.n_last = kind, sizes, outer, last, n_last


def _plan(x, steps, norm):
    """NumPy's 1-D steps [(kind, axis, n or None)] resolved against x: (groups, scale factor, result shape,
    result dtype). Steps on distinct axes commute (cropping, padding and scaling too), so consecutive ones
    form one group; an axis met again starts a new group, as NumPy transforms it again."""
    shape, dt = list(x.shape), x.dtype
    groups, den, ortho = [], 1, 1
    for kind, ax, n in steps:
        if n is None:
            n = (shape[ax] - 1) * 2 if kind == _C2R else shape[ax]
        if n < 1:
            raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
        forward = kind in (_FWD, _R2C)
        if norm == "ortho":
            ortho *= n
        elif (norm == "forward") == forward:
            den *= n
        g = groups[-1] if groups else None
        if kind in (_FWD, _INV):
            dt = _complex_of(dt)
            if g is not None and ax not in g.sizes and (g.kind == kind or (g.kind == _R2C and kind == _FWD)):
                g.sizes[ax] = n
                g.outer.append(ax)
            else:
                groups.append(_Group(kind, {ax: n}, [ax]))
            shape[ax] = n
        elif kind == _R2C:
            dt = _complex_of(_real_of(dt))
            groups.append(_Group(_R2C, {ax: n}, [], ax, n))
            shape[ax] = n // 2 + 1
        else:
            dt = _c2r_result(dt)
            if g is not None and g.kind == _INV and ax not in g.sizes:
                g.kind, g.last, g.n_last = _C2R, ax, n  # the inverse c2c steps before it join the c2r
                g.sizes[ax] = n // 2 + 1
            else:
                groups.append(_Group(_C2R, {ax: n // 2 + 1}, [], ax, n))
            shape[ax] = n
    factor = 1.0 if den == 1 and ortho == 1 else 1.0 / (den * math.sqrt(ortho))
    return groups, factor, tuple(shape), dt


def _prepare(x, sizes, dtype, fresh):
    """x cropped (views) and zero-padded to the lengths `sizes` {axis: n}, in `dtype`; a new array when
    `fresh` (the caller then writes into it), else possibly x itself."""
    key = tuple(slice(0, sizes[a]) if sizes.get(a, d) < d else slice(None) for a, d in enumerate(x.shape))
    if any(k != slice(None) for k in key):
        x = x[key]
    widths = [(0, max(sizes.get(a, d) - d, 0)) for a, d in enumerate(x.shape)]
    if not any(w for _, w in widths):
        if x.dtype != dtype:
            return x.astype(dtype)
        return x.copy() if fresh else x
    if x.dtype == dtype:
        return _manipulation.pad(x, widths)
    # One allocation in the compute dtype, rather than a cast followed by pad's copy.
    y = _creation.zeros_like(x, dtype=dtype, shape=tuple(d + w for d, (_, w) in zip(x.shape, widths)))
    y[tuple(slice(0, d) for d in x.shape)] = x
    return y


def _make_hermitian(y, outer, last, n_last):
    """Make the planes of y that a real result fixes (index 0 along `last`, and n_last // 2 for an even
    n_last) Hermitian over the `outer` axes, in place: P <- (P + conj(P[-k])) / 2.

    NumPy's irfftn is c2c over the outer axes, then a 1-D c2r that drops the imaginary parts of those
    entries; projecting them on Hermitian planes first gives that same answer from any correct c2r over all
    the axes (cuFFT's multi-dimensional c2r is undefined on non-Hermitian input)."""
    planes = (0, n_last // 2) if n_last % 2 == 0 else (0,)
    for k in planes:
        idx = _key(y.ndim, last, slice(k, k + 1))  # length 1, so the outer axes keep their numbers
        p = y[idx]
        axes = [a for a in outer if y.shape[a] > 1]
        if not axes:
            p.imag[...] = 0
            continue
        # P[-k mod n] along each axis: reversed, then rolled by one so that index 0 stays in place.
        mirrored = _manipulation.roll(_manipulation.flip(p, axis=tuple(axes)), [1] * len(axes), axis=axes)
        y[idx] = (p + mirrored.conj()) * 0.5


def _chunks(axes):
    """Distinct axes in calls of at most _MAX_AXES, each ascending (one order per set, for plan reuse), the
    innermost first."""
    axes = sorted(axes)
    return [tuple(axes[max(i - _MAX_AXES, 0):i]) for i in range(len(axes), 0, -_MAX_AXES)]


def _split_head(outer):
    """(axes that go with the real axis in r2c/c2r: the innermost two, ascending; the rest, for c2c)."""
    outer = sorted(outer)
    return tuple(outer[-(_MAX_AXES - 1):]), outer[:-(_MAX_AXES - 1)]


def _run_group(prims, x, g, conj_input):
    """Group `g` on x with the device's primitives: a new array (unscaled). `conj_input` (hfft, whose one
    group is a c2r) conjugates the input first."""
    if g.kind in (_FWD, _INV):
        y = _prepare(x, g.sizes, _complex_of(x.dtype), fresh=False)
        if y.size == 0:
            return _array.empty(y.shape, dtype=y.dtype, device=y.device)
        for chunk in _chunks(g.outer):
            y = prims.c2c(y, chunk, g.kind == _FWD)
        return y
    if g.kind == _R2C:
        y = _prepare(x, g.sizes, _real_of(x.dtype), fresh=False)
        cdt = _complex_of(y.dtype)
        if y.size == 0:
            shape = list(y.shape)
            shape[g.last] = g.n_last // 2 + 1
            return _array.empty(tuple(shape), dtype=cdt, device=y.device)
        # r2c takes the real axis and up to two others; the rest follow as forward c2c.
        head, rest = _split_head(g.outer)
        y = prims.r2c(y, head + (g.last,))
        for chunk in _chunks(rest):
            y = prims.c2c(y, chunk, True)
        return y
    cdt = _complex_of(x.dtype)
    y = _prepare(x, g.sizes, cdt, fresh=True)  # written below, and c2r may overwrite its input
    if y.size == 0:
        shape = list(y.shape)
        shape[g.last] = g.n_last
        return _array.empty(tuple(shape), dtype=_F32 if cdt == _C64 else _F64, device=y.device)
    if conj_input and x.dtype.kind == "c":
        _elementwise.conjugate(y, out=y)
    _make_hermitian(y, g.outer, g.last, g.n_last)
    head, rest = _split_head(g.outer)
    for chunk in _chunks(rest):
        y = prims.c2c(y, chunk, False)
    return prims.c2r(y, head + (g.last,), g.n_last)


def _check_out(out, shape, dtype, x, numpy_out, name):
    if numpy_out:
        if not isinstance(out, np.ndarray):
            raise TypeError(f"{name}: out must be a NumPy array for NumPy input, not {type(out).__name__}")
    else:
        if not isinstance(out, _array.Array):
            raise TypeError(f"{name}: out must be an npgpu.Array for npgpu.Array input, not "
                            f"{type(out).__name__}")
        if str(out.device) != str(x.device):
            raise ValueError(f"{name}: out is on {out.device}, the input on {x.device}")
    if tuple(out.shape) != shape:
        raise ValueError(f"output array has wrong shape: {tuple(out.shape)}, the result has shape {shape}.")
    if not np.can_cast(dtype, out.dtype, "same_kind"):
        raise TypeError(f"Cannot cast ufunc '{name}' output from {dtype!r} to {out.dtype!r} with casting rule "
                        f"'same_kind'")


def _to_numpy(y, out):
    """The npgpu.Array y as NumPy: into `out` when given, else without a copy on the host device."""
    host = np.asarray(y) if y.device == _runtime.cpu else None
    if out is None:
        return host if host is not None else y.get()
    if host is None:
        if out.dtype == y.dtype and out.flags.c_contiguous and out.flags.writeable:
            return y.get(out=out)
        host = y.get()
    np.copyto(out, host, casting="same_kind")
    return out


def _transform(a, steps, norm, out, name, conj_input=False, conj_output=False):
    """Run NumPy's 1-D `steps` on `a` (see _plan) and scale per `norm`; conj_input/conj_output conjugate the
    input/result (hfft/ihfft). `steps` may be a function of the npgpu.Array, for arguments that depend on
    its shape."""
    x, numpy_out = _input(a)
    if callable(steps):
        steps = steps(x)
    if not steps:  # NumPy's fftn over no axes returns its input as it is
        if out is None:
            return np.asarray(a) if numpy_out else x
        _check_out(out, x.shape, x.dtype, x, numpy_out, name)
        if numpy_out:
            np.copyto(out, np.asarray(a), casting="same_kind")
        else:
            out[...] = x
        return out
    groups, factor, shape, dtype = _plan(x, steps, norm)
    # after the axes and lengths, as NumPy checks them (an empty axis list checks no norm there either)
    _check_norm(norm)
    if out is not None:
        _check_out(out, shape, dtype, x, numpy_out, name)
    prims = _primitives(x.device)
    y = x
    for i, g in enumerate(groups):
        y = _run_group(prims, y, g, conj_input and i == 0)
    target = out if out is not None and not numpy_out else None
    if target is None and y.dtype != dtype:  # float16 input of irfft/hfft: NumPy returns float16
        target = _array.empty(y.shape, dtype=dtype, device=y.device)
    if factor != 1.0:  # y is the primitives' new array: scaled in place
        y = _elementwise.multiply(y, factor, out=y if target is None else target)
    elif target is not None:
        target[...] = y
        y = target
    if conj_output:  # after the scaling, so that zero imaginary parts come out -0.0 as NumPy's
        _elementwise.conjugate(y, out=y)
    if numpy_out:
        return _to_numpy(y, out)
    return y


# ------------------------------------------------------------------------------------------------ 1-D

def _one_axis(kind, n, axis):
    """Steps of a 1-D transform, resolved once the array (and so its number of axes) is known."""
    n = _length(n)
    return lambda x: [(kind, _axis(axis, x.ndim), n)]


def fft(a, n=None, axis=-1, norm=None, out=None):
    """One-dimensional discrete Fourier transform, as numpy.fft.fft.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Input; real input is transformed as complex.
    n : int, optional
        Length of the transformed axis of the output: the input is cropped or zero-padded to it. Default: the
        input's length along `axis`.
    axis : int, optional
        The axis transformed (default -1).
    norm : {"backward", "ortho", "forward"}, optional
        Scaling: "backward" (default, also None) leaves the forward transform unscaled, "ortho" scales by
        1/sqrt(n), "forward" by 1/n.
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result (its shape; 'same_kind' casting): an npgpu.Array on the input's device for
        npgpu input, a NumPy array for NumPy input.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        complex64 for float16, float32 and complex64 input, else complex128. NumPy in, NumPy out.

    Raises
    ------
    ValueError
        n < 1 (also a zero-length axis with n omitted), or an invalid `norm`; `out` of the wrong shape, or on
        another device than the input.
    TypeError
        An input dtype other than bool, integer, floating or complex; `out` of the wrong type (an npgpu.Array
        for NumPy input, or the reverse), or of a dtype the result cannot be cast to ('same_kind').
    numpy.exceptions.AxisError
        `axis` out of range.

    See Also
    --------
    ifft : The inverse transform.
    rfft : The transform of real input (non-negative frequencies only).
    fftn : The N-dimensional transform.
    fftfreq : The frequencies of the output's terms.

    Notes
    -----
    An npgpu.Array is transformed on its own device (cuFFT on a GPU, numpy.fft on the host device) and gives
    an npgpu.Array there; NumPy input (or a list, a scalar) gives a NumPy array, computed on the GPU when the
    backend is 'cuda', on the host device otherwise.

    Examples
    --------
    >>> x = npgpu.asarray([1.0, 2.0, 3.0, 4.0], device="cpu")
    >>> npgpu.fft.fft(x)
    Array([10.+0.j, -2.+2.j, -2.+0.j, -2.-2.j])

    NumPy in, NumPy out; `n` zero-pads (or crops) the input:

    >>> npgpu.fft.fft(np.array([1.0, 2.0, 3.0]), n=4, norm="ortho")
    array([ 3.+0.j, -1.-1.j,  1.+0.j, -1.+1.j])
    """
    y = _direct_c2c(a, n, axis, norm, out, True)
    if y is not None:
        return y
    return _transform(a, _one_axis(_FWD, n, axis), norm, out, "fft")


def ifft(a, n=None, axis=-1, norm=None, out=None):
    """One-dimensional inverse discrete Fourier transform, as numpy.fft.ifft.

    Parameters and errors are fft's; "backward" (default) scales by 1/n, "forward" leaves it unscaled.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Complex, the dtype fft gives.

    Raises
    ------
    ValueError, TypeError, numpy.exceptions.AxisError
        As fft.

    See Also
    --------
    fft : The forward transform.
    irfft : The inverse of rfft (a real result).

    Examples
    --------
    >>> npgpu.fft.ifft(npgpu.asarray([10, -2 + 2j, -2, -2 - 2j], device="cpu"))
    Array([1.+0.j, 2.+0.j, 3.+0.j, 4.+0.j])
    """
    y = _direct_c2c(a, n, axis, norm, out, False)
    if y is not None:
        return y
    return _transform(a, _one_axis(_INV, n, axis), norm, out, "ifft")


def rfft(a, n=None, axis=-1, norm=None, out=None):
    """One-dimensional discrete Fourier transform of real input, as numpy.fft.rfft: the n // 2 + 1
    non-negative frequency terms.

    Parameters are fft's (`n`: the number of real input points used).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Complex (complex64 for float16/float32 input, else complex128); n // 2 + 1 along `axis`.

    Raises
    ------
    TypeError
        Complex input (as NumPy 2); otherwise as fft.
    ValueError, numpy.exceptions.AxisError
        As fft.

    See Also
    --------
    irfft : The inverse transform.
    fft : The transform of complex input (all frequencies).
    rfftfreq : The frequencies of the output's terms.

    Examples
    --------
    >>> npgpu.fft.rfft(npgpu.asarray([1.0, 2.0, 3.0, 4.0], device="cpu"))
    Array([10.+0.j, -2.+2.j, -2.+0.j])
    """
    return _transform(a, _one_axis(_R2C, n, axis), norm, out, "rfft")


def irfft(a, n=None, axis=-1, norm=None, out=None):
    """Inverse of rfft, as numpy.fft.irfft: the real signal of n points whose non-negative frequency terms
    are `a` (the imaginary parts of the zero, and for even n the Nyquist, terms are ignored).

    Parameters are fft's; `n`: the output length (default 2 * (m - 1) for m input terms); the input is
    cropped or zero-padded to n // 2 + 1 terms.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Real: float32 for float32/complex64 input, float16 for float16 input (as NumPy), else float64.

    Raises
    ------
    ValueError, TypeError, numpy.exceptions.AxisError
        As fft (n < 1 includes a one-term input with n omitted).

    See Also
    --------
    rfft : The forward transform.
    irfftn : The N-dimensional inverse of rfftn.

    Examples
    --------
    >>> npgpu.fft.irfft(npgpu.asarray([10, -2 + 2j, -2], device="cpu"))
    Array([1., 2., 3., 4.])

    An odd output length needs `n`:

    >>> x = npgpu.asarray([1.0, 2.0, 3.0, 4.0, 5.0], device="cpu")
    >>> npgpu.fft.irfft(npgpu.fft.rfft(x), n=5)
    Array([1., 2., 3., 4., 5.])
    """
    return _transform(a, _one_axis(_C2R, n, axis), norm, out, "irfft")


def hfft(a, n=None, axis=-1, norm=None, out=None):
    """Discrete Fourier transform of a signal with Hermitian symmetry (a real spectrum), as numpy.fft.hfft:
    ``irfft(conj(a), n)`` with the direction of `norm` swapped.

    Parameters are irfft's (`n`: output length, default 2 * (m - 1)).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Real, the dtype irfft gives.

    Raises
    ------
    ValueError, TypeError, numpy.exceptions.AxisError
        As irfft.

    See Also
    --------
    ihfft : The inverse transform.
    irfft : The inverse of rfft.

    Examples
    --------
    >>> npgpu.fft.hfft(npgpu.asarray([1.0, 2.0, 3.0], device="cpu"))
    Array([ 8., -2.,  0., -2.])
    """
    _check_axis_then_norm(a, n, axis, norm)
    return _transform(a, _one_axis(_C2R, n, axis), _SWAP[norm], out, "hfft", conj_input=True)


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    """Inverse of hfft, as numpy.fft.ihfft: ``conj(rfft(a, n))`` with the direction of `norm` swapped.

    Parameters are rfft's.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Complex, n // 2 + 1 along `axis`.

    Raises
    ------
    TypeError
        Complex input; otherwise as fft.
    ValueError, numpy.exceptions.AxisError
        As fft.

    See Also
    --------
    hfft : The inverse transform.
    rfft : The transform of real input.

    Examples
    --------
    >>> npgpu.fft.ihfft(npgpu.asarray([8.0, -2.0, 0.0, -2.0], device="cpu"))
    Array([1.-0.j, 2.-0.j, 3.-0.j])
    """
    _check_axis_then_norm(a, n, axis, norm)
    return _transform(a, _one_axis(_R2C, n, axis), _SWAP[norm], out, "ihfft", conj_output=True)


# ------------------------------------------------------------------------------------------------ N-D

def _nd_steps(kind, s, axes):
    """NumPy's order of 1-D steps: fftn/ifftn from the last axis to the first; rfftn r2c on axes[-1], then
    the others from the last; irfftn the inverse c2c steps from the first, then c2r on axes[-1]."""
    def steps(x):
        lengths, ax = _cook(x, s, axes, kind == _C2R)
        if kind in (_FWD, _INV):
            return [(kind, ax[i], lengths[i]) for i in reversed(range(len(ax)))]
        if kind == _R2C:
            if not ax:
                raise IndexError("rfftn: axes must name at least one axis")
            return [(_R2C, ax[-1], lengths[-1])] + [(_FWD, ax[i], lengths[i]) for i in reversed(range(len(ax) - 1))]
        return [(_INV, ax[i], lengths[i]) for i in range(len(ax) - 1)] + [(_C2R, ax[-1], lengths[-1])]
    return steps


_ND_DOC = """
    Parameters
    ----------
    a : npgpu.Array or array_like
        Input.
    s : sequence of ints, optional
        Length of each transformed axis of the {what} (cropped or zero-padded; -1: the input's length).
        Default: the input's lengths{default}.
        Given without `axes`, `s` names the last len(s) axes, and an entry None takes the 1-D transform's
        default length: both deprecated by NumPy 2, and warned about here too (DeprecationWarning).
    axes : sequence of ints, optional
        The axes transformed ({axes_default}); negative ones count from the end; an axis given twice is
        transformed twice, as NumPy does; {empty_axes}.
    norm : {{"backward", "ortho", "forward"}}, optional
        Scaling, as {one_d}'s, with n the product of the transformed lengths.
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result, as fft's `out`.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        {returns}
        NumPy in, NumPy out.

    Raises
    ------
    ValueError
        A length < 1, len(s) != len(axes), an invalid `norm`; `out` of the wrong shape or device, as fft.
    TypeError
        {dtype_errors}, or an unsuitable `out`, as fft.{raises}
    numpy.exceptions.AxisError
        An axis out of range.

    See Also
    --------
    {see_also}
    """


def _nd_doc(what, default, axes_default, one_d, returns, see_also, real=False, real_input=False):
    """The Parameters to See Also sections of an N-D transform's docstring: `real` for rfftn/irfftn and their
    2-D forms (no axes raises IndexError), `real_input` for rfftn/rfft2 (complex input raises TypeError)."""
    empty_axes = ("an empty sequence raises IndexError" if real else
                  "an empty sequence returns the input untransformed, as NumPy")
    return _ND_DOC.format(what=what, default=default, axes_default=axes_default, one_d=one_d, returns=returns,
                          dtype_errors=("Complex input, an unsupported input dtype" if real_input else
                                        "An unsupported input dtype"),
                          raises="\n    IndexError\n        No axes (an empty `axes`)." if real else "",
                          empty_axes=empty_axes, see_also="\n    ".join(see_also))


def fftn(a, s=None, axes=None, norm=None, out=None):
    return _transform(a, _nd_steps(_FWD, s, axes), norm, out, "fftn")


def ifftn(a, s=None, axes=None, norm=None, out=None):
    return _transform(a, _nd_steps(_INV, s, axes), norm, out, "ifftn")


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return _transform(a, _nd_steps(_FWD, s, axes), norm, out, "fft2")


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return _transform(a, _nd_steps(_INV, s, axes), norm, out, "ifft2")


def rfftn(a, s=None, axes=None, norm=None, out=None):
    return _transform(a, _nd_steps(_R2C, s, axes), norm, out, "rfftn")


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return _transform(a, _nd_steps(_R2C, s, axes), norm, out, "rfft2")


def irfftn(a, s=None, axes=None, norm=None, out=None):
    return _transform(a, _nd_steps(_C2R, s, axes), norm, out, "irfftn")


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return _transform(a, _nd_steps(_C2R, s, axes), norm, out, "irfft2")


_C_RETURNS = "Complex: complex64 for float16, float32 and complex64 input, else complex128."
_R_RETURNS = ("Complex: complex64 for float16/float32 input, else complex128; axes[-1] has s[-1] // 2 + 1 "
              "entries.")
_IR_RETURNS = "Real: float32 for float32/complex64 input, else float64 (float16 for float16 with one axis)."
fftn.__doc__ = ("N-dimensional discrete Fourier transform, as numpy.fft.fftn.\n" +
                _nd_doc("output", "", "default: all", "fft", _C_RETURNS,
                        ["ifftn : The inverse transform.", "fft : The one-dimensional transform.",
                         "rfftn : The transform of real input.", "fft2 : fftn over the last two axes."]) + """
    Examples
    --------
    >>> x = npgpu.asarray([[1.0, 2.0], [3.0, 4.0]], device="cpu")
    >>> npgpu.fft.fftn(x)
    Array([[10.+0.j, -2.+0.j],
           [-4.+0.j,  0.+0.j]])

    `s` zero-pads (or crops) each transformed axis:

    >>> npgpu.fft.fftn(x, s=(2, 3), axes=(0, 1)).shape
    (2, 3)
    """)
ifftn.__doc__ = ("N-dimensional inverse discrete Fourier transform, as numpy.fft.ifftn.\n" +
                 _nd_doc("output", "", "default: all", "ifft", _C_RETURNS,
                         ["fftn : The forward transform.", "ifft : The one-dimensional inverse.",
                          "irfftn : The inverse of rfftn (a real result)."]) + """
    Examples
    --------
    >>> npgpu.fft.ifftn(npgpu.asarray([[10, -2], [-4, 0]], device="cpu"))
    Array([[1.+0.j, 2.+0.j],
           [3.+0.j, 4.+0.j]])
    """)
fft2.__doc__ = ("Two-dimensional discrete Fourier transform, as numpy.fft.fft2: fftn over `axes`.\n" +
                _nd_doc("output", "", "default: the last two", "fft", _C_RETURNS,
                        ["ifft2 : The inverse transform.", "fftn : The N-dimensional transform.",
                         "rfft2 : The transform of real input."]) + """
    Examples
    --------
    >>> npgpu.fft.fft2(npgpu.asarray([[1.0, 2.0], [3.0, 4.0]], device="cpu"))
    Array([[10.+0.j, -2.+0.j],
           [-4.+0.j,  0.+0.j]])
    """)
ifft2.__doc__ = ("Two-dimensional inverse discrete Fourier transform, as numpy.fft.ifft2: ifftn over `axes`.\n"
                 + _nd_doc("output", "", "default: the last two", "ifft", _C_RETURNS,
                           ["fft2 : The forward transform.", "ifftn : The N-dimensional inverse.",
                            "irfft2 : The inverse of rfft2 (a real result)."]) + """
    Examples
    --------
    >>> npgpu.fft.ifft2(npgpu.asarray([[10, -2], [-4, 0]], device="cpu"))
    Array([[1.+0.j, 2.+0.j],
           [3.+0.j, 4.+0.j]])
    """)
rfftn.__doc__ = ("N-dimensional discrete Fourier transform of real input, as numpy.fft.rfftn.\n\n"
                 "    rfft over axes[-1], then fft over the others.\n" +
                 _nd_doc("real input", "", "default: all", "rfft", _R_RETURNS,
                         ["irfftn : The inverse transform.", "rfft : The one-dimensional transform of real input.",
                          "fftn : The transform of complex input."], real=True, real_input=True) + """
    Examples
    --------
    >>> npgpu.fft.rfftn(npgpu.asarray([[1.0, 2.0], [3.0, 4.0]], device="cpu"))
    Array([[10.+0.j, -2.+0.j],
           [-4.+0.j,  0.+0.j]])
    """)
rfft2.__doc__ = ("Two-dimensional discrete Fourier transform of real input, as numpy.fft.rfft2: rfftn over "
                 "`axes`.\n" +
                 _nd_doc("real input", "", "default: the last two", "rfft", _R_RETURNS,
                         ["irfft2 : The inverse transform.", "rfftn : The N-dimensional transform of real input.",
                          "fft2 : The transform of complex input."], real=True, real_input=True) + """
    Examples
    --------
    >>> npgpu.fft.rfft2(npgpu.asarray([[1.0, 2.0], [3.0, 4.0]], device="cpu"))
    Array([[10.+0.j, -2.+0.j],
           [-4.+0.j,  0.+0.j]])
    """)
irfftn.__doc__ = ("Inverse of rfftn, as numpy.fft.irfftn: ifft over axes[:-1], then irfft over axes[-1].\n" +
                  _nd_doc("output", " (axes[-1]: 2 * (m - 1) for m input terms)", "default: all", "irfft",
                          _IR_RETURNS, ["rfftn : The forward transform.", "irfft : The one-dimensional inverse.",
                                        "ifftn : The inverse of fftn (a complex result)."], real=True) + """
    Examples
    --------
    >>> npgpu.fft.irfftn(npgpu.asarray([[10, -2], [-4, 0]], device="cpu"))
    Array([[1., 2.],
           [3., 4.]])

    An odd length of axes[-1] needs `s`:

    >>> x = npgpu.asarray([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], device="cpu")
    >>> npgpu.fft.irfftn(npgpu.fft.rfftn(x), s=x.shape, axes=(0, 1))
    Array([[1., 2., 3.],
           [4., 5., 6.]])
    """)
irfft2.__doc__ = ("Inverse of rfft2, as numpy.fft.irfft2: irfftn over `axes`.\n" +
                  _nd_doc("output", " (axes[-1]: 2 * (m - 1) for m input terms)", "default: the last two",
                          "irfft", _IR_RETURNS, ["rfft2 : The forward transform.",
                                                 "irfftn : The N-dimensional inverse of rfftn."], real=True) + """
    Examples
    --------
    >>> npgpu.fft.irfft2(npgpu.asarray([[10, -2], [-4, 0]], device="cpu"))
    Array([[1., 2.],
           [3., 4.]])
    """)


# ------------------------------------------------------------------------------------------------ helpers

def _check_n(n):
    if not isinstance(n, (int, np.integer)):
        raise ValueError("n should be an integer")


def _freq_dtype(dtype):
    if dtype is None:
        return None
    dt = np.dtype(dtype)
    if dt.kind != "f":
        raise ValueError(f"dtype must be a real floating-point dtype, not {dt}")
    return dt


def fftfreq(n, d=1.0, *, dtype=None, device=None):
    """The sample frequencies of fft's output, as numpy.fft.fftfreq and the Array API standard's fftfreq:
    ``[0, 1, ..., (n - 1) // 2, -(n // 2), ..., -1] / (d * n)``.

    Parameters
    ----------
    n : int
        Window length.
    d : float, optional
        Sample spacing (default 1.0).
    dtype : real floating dtype, optional
        The result's dtype (default float64, the values computed in float64 and rounded once).
    device : optional
        Where the result goes (as npgpu.asarray's `device`; default: the default device).

    Returns
    -------
    npgpu.Array
        Shape (n,).

    Raises
    ------
    ValueError
        `n` not an integer, n < 0, or `dtype` not a real floating dtype.
    ZeroDivisionError
        n == 0 or d == 0 (Python numbers), as NumPy.

    See Also
    --------
    rfftfreq : The frequencies of rfft's output.
    fftshift : Moves the zero frequency to the middle.

    Examples
    --------
    >>> npgpu.fft.fftfreq(5, d=0.5, device="cpu")
    Array([ 0. ,  0.4,  0.8, -0.8, -0.4])
    >>> npgpu.fft.fftfreq(4, dtype=np.float32, device="cpu")
    Array([ 0.  ,  0.25, -0.5 , -0.25], dtype=float32)
    """
    _check_n(n)
    dt = _freq_dtype(dtype)
    val = 1.0 / (n * d)
    if n < 0:
        raise ValueError("negative dimensions are not allowed")
    pos = (n - 1) // 2 + 1
    results = _array.empty((n,), dtype=np.int64, device=device)
    results[:pos] = _creation.arange(0, pos, dtype=np.int64, device=results.device)
    results[pos:] = _creation.arange(-(n // 2), 0, dtype=np.int64, device=results.device)
    res = results * val
    return res if dt is None else res.astype(dt, copy=False)


def rfftfreq(n, d=1.0, *, dtype=None, device=None):
    """The sample frequencies of rfft's output, as numpy.fft.rfftfreq and the Array API standard's
    rfftfreq: ``[0, 1, ..., n // 2] / (d * n)``.

    Parameters are fftfreq's (`n`: the window length, `d`: the sample spacing, `dtype`, `device`).

    Returns
    -------
    npgpu.Array
        Shape (n // 2 + 1,); float64 unless `dtype` is given.

    Raises
    ------
    ValueError, ZeroDivisionError
        As fftfreq.

    See Also
    --------
    fftfreq : The frequencies of fft's output.
    rfft : The transform whose output these label.

    Examples
    --------
    >>> npgpu.fft.rfftfreq(5, d=0.5, device="cpu")
    Array([0. , 0.4, 0.8])
    """
    _check_n(n)
    dt = _freq_dtype(dtype)
    val = 1.0 / (n * d)
    res = _creation.arange(0, n // 2 + 1, dtype=np.int64, device=device) * val
    return res if dt is None else res.astype(dt, copy=False)


def _shift(x, axes, sign):
    y, numpy_out = _input(x)
    if axes is None:
        axes = tuple(range(y.ndim))
    elif isinstance(axes, (int, np.integer)):
        axes = (axes,)
    axes = tuple(_axis(a, y.ndim) for a in axes)
    if not axes:
        res = y.copy()
    else:
        res = _manipulation.roll(y, [sign * (y.shape[a] // 2) for a in axes], axis=axes)
    return _to_numpy(res, None) if numpy_out else res


def fftshift(x, axes=None):
    """Swap the half-spaces of `axes` so that the zero frequency is in the middle, as numpy.fft.fftshift: a
    roll by n // 2 along each axis.

    Parameters
    ----------
    x : npgpu.Array or array_like
        Input.
    axes : int or sequence of ints, optional
        The axes shifted (default: all; an axis given twice is shifted twice, as NumPy).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        A new array, x's shape and dtype; NumPy in, NumPy out.

    Raises
    ------
    numpy.exceptions.AxisError
        An axis out of range.

    See Also
    --------
    ifftshift : The inverse shift.
    fftfreq : The frequencies this puts in increasing order.

    Examples
    --------
    >>> npgpu.fft.fftshift(npgpu.fft.fftfreq(5, device="cpu"))
    Array([-0.4, -0.2,  0. ,  0.2,  0.4])

    One axis only; NumPy in, NumPy out:

    >>> npgpu.fft.fftshift(np.arange(6).reshape(2, 3), axes=1)
    array([[2, 0, 1],
           [5, 3, 4]])
    """
    return _shift(x, axes, 1)


def ifftshift(x, axes=None):
    """Inverse of fftshift, as numpy.fft.ifftshift: a roll by -(n // 2) along each axis.

    For odd lengths it differs from fftshift: it moves the zero frequency from the middle back to index 0.

    Parameters
    ----------
    x : npgpu.Array or array_like
        Input.
    axes : int or sequence of ints, optional
        The axes shifted (default: all; an axis given twice is shifted twice, as NumPy).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        A new array, x's shape and dtype; NumPy in, NumPy out.

    Raises
    ------
    numpy.exceptions.AxisError
        An axis out of range.

    See Also
    --------
    fftshift : The forward shift.

    Examples
    --------
    >>> npgpu.fft.ifftshift(npgpu.asarray([-0.4, -0.2, 0.0, 0.2, 0.4], device="cpu"))
    Array([ 0. ,  0.2,  0.4, -0.4, -0.2])
    """
    return _shift(x, axes, -1)


# ------------------------------------------------------------------------------------------------ config

class _Config:
    """``npgpu.fft.config``: control of the GPU plan cache (cuFFT plans kept for reuse, per device).

    The cache is held by npgpu._fft. Without that module (a build without it, or before its first import)
    nothing is cached: the info reports 0 plans and clearing does nothing; the limits are remembered and
    reported.

    Methods
    -------
    plan_cache_info()
        The cache's state, as a dict.
    set_plan_cache_limits(max_plans=None, max_bytes=None)
        Cap the number of plans and the bytes of their work areas.
    clear_plan_cache()
        Drop every cached plan.

    Examples
    --------
    >>> sorted(npgpu.fft.config.plan_cache_info())
    ['bytes', 'hits', 'max_bytes', 'max_plans', 'misses', 'plans']
    >>> npgpu.fft.config
    <npgpu.fft.config {'plans': ...}>
    """

    def __init__(self):
        self._limits = {"max_plans": None, "max_bytes": None}

    def plan_cache_info(self):
        """The plan cache's state, as npgpu._fft reports it.

        Returns
        -------
        dict
            ``plans`` (the number of cached plans), ``bytes`` (their work areas), ``max_plans``,
            ``max_bytes`` (the limits), ``hits`` and ``misses``. Without npgpu._fft: 0 plans, 0 bytes, 0 hits
            and misses, and the limits last set (None at first).

        See Also
        --------
        set_plan_cache_limits : Set max_plans and max_bytes.

        Examples
        --------
        >>> info = npgpu.fft.config.plan_cache_info()
        >>> sorted(info)
        ['bytes', 'hits', 'max_bytes', 'max_plans', 'misses', 'plans']
        >>> info["plans"] >= 0
        True
        """
        module = _fft_module()
        if module is not None:
            return module.plan_cache_info()
        return {"plans": 0, "bytes": 0, **self._limits, "hits": 0, "misses": 0}

    def set_plan_cache_limits(self, max_plans=None, max_bytes=None):
        """Cap the plan cache at `max_plans` plans and `max_bytes` bytes of work areas.

        When the cache holds more, the least recently used plans go first.

        Parameters
        ----------
        max_plans : int, optional
            The most plans kept (None, the default: no cap; 0 disables caching).
        max_bytes : int, optional
            The most bytes of work areas kept (None, the default: no cap). On a GPU a plan whose work area
            alone is larger is not kept, so 0 keeps only plans that need no work area.

        Returns
        -------
        None

        Raises
        ------
        ValueError
            A negative limit.
        TypeError
            A limit neither None nor an integer.

        See Also
        --------
        plan_cache_info : The limits in force.

        Examples
        --------
        >>> config = npgpu.fft.config
        >>> old = config.plan_cache_info()
        >>> config.set_plan_cache_limits(max_plans=16, max_bytes=1 << 28)
        >>> config.plan_cache_info()["max_plans"]
        16
        >>> config.set_plan_cache_limits(old["max_plans"], old["max_bytes"])  # restore the previous limits
        """
        for name, v in (("max_plans", max_plans), ("max_bytes", max_bytes)):
            if v is not None and operator.index(v) < 0:
                raise ValueError(f"{name} must be None or a non-negative integer, not {v}")
        module = _fft_module()
        if module is not None:
            return module.set_plan_cache_limits(max_plans, max_bytes)
        self._limits = {"max_plans": max_plans, "max_bytes": max_bytes}
        return None

    def clear_plan_cache(self):
        """Drop every cached plan (and free its work area); nothing to do without npgpu._fft.

        Returns
        -------
        None

        Examples
        --------
        >>> npgpu.fft.config.clear_plan_cache()
        >>> npgpu.fft.config.plan_cache_info()["plans"]
        0
        """
        module = _fft_module()
        if module is not None:
            return module.clear_plan_cache()
        return None

    def __repr__(self):
        return f"<npgpu.fft.config {self.plan_cache_info()}>"


config = _Config()
