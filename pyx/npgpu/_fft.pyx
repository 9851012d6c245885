# cython: language_level=3
"""The GPU primitives behind npgpu.fft (which does numpy.fft's normalisation, padding, cropping and dtype
rules): unnormalised complex-to-complex, real-to-complex and complex-to-real transforms of device arrays over
1 to 3 axes through cuFFT (npgpu::fft), and the plan cache's controls.

Strided inputs are transformed where they lie when cuFFT's advanced layout can describe them (the
transformed axes nested, the others one uniform batch, e.g. any single axis of a C-contiguous 2-D array);
otherwise the transformed axes are first moved last in a contiguous copy.
"""
import operator

import numpy as np
from numpy.exceptions import AxisError

from libc.stdint cimport INT64_MAX, int64_t
from npgpu._array cimport Array, new_array, new_array_like_view
from npgpu.lib.fft cimport (FftKind, FftPlanCacheInfo, clear_fft_plan_cache, fft as c_fft,
                            fft_plan_cache_info, set_fft_plan_cache_limits)
from npgpu.lib.view cimport DType, kHostDevice

_COMPLEX_OF = {np.dtype(np.float32): np.dtype(np.complex64), np.dtype(np.float64): np.dtype(np.complex128)}
_REAL_OF = {v: k for k, v in _COMPLEX_OF.items()}


cdef tuple _axes(Array x, axes):
    ax = tuple(operator.index(a) for a in axes)
    if not 1 <= len(ax) <= 3:
        raise ValueError(f"an fft primitive takes 1 to 3 axes, not {len(ax)}")
    nd = x._view.ndim
    for a in ax:
        if not -nd <= a < nd:
            raise AxisError(a, nd)
    ax = tuple(a % nd for a in ax)
    if len(set(ax)) != len(ax):
        raise ValueError(f"repeated axis in {axes}")
    return ax


cdef object _run(Array x, tuple ax, FftKind kind, bint forward, tuple out_shape, object out_dtype):
    """One transform into a new C-contiguous array; through a copy with the axes moved last when cuFFT
    cannot describe x's layout."""
    if x._view.device == kHostDevice:
        raise ValueError("npgpu._fft transforms device arrays; npgpu.fft uses numpy.fft on the host device")
    cdef Array out = new_array(out_shape, out_dtype, x._view.device, x.stream)
    cdef int c_axes[3]
    cdef int n = len(ax)
    for i in range(n):
        c_axes[i] = ax[i]
    cdef bint done
    with nogil:
        done = c_fft(x._view, out._view, c_axes, n, kind, forward, x.stream)
    if done:
        return out
    nd = x._view.ndim
    rest = [d for d in range(nd) if d not in ax]
    perm = rest + list(ax)
    cdef Array moved = x.transpose(*perm).copy()
    moved_out_shape = tuple(out_shape[d] for d in perm)
    cdef Array tmp = new_array(moved_out_shape, out_dtype, x._view.device, x.stream)
    for i in range(n):
        c_axes[i] = nd - n + i
    with nogil:
        done = c_fft(moved._view, tmp._view, c_axes, n, kind, forward, x.stream)
    if not done:
        raise RuntimeError("npgpu._fft: cuFFT could not describe a contiguous layout")  # not expected
    inverse = [0] * nd
    for i, d in enumerate(perm):
        inverse[d] = i
    out[...] = tmp.transpose(*inverse)
    return out


def direct_c2c(a, n, axis, norm, out, bint forward):
    """fft / ifft of one whole axis of a complex device array with the default norm, n and out, unscaled
    (the caller scales an inverse); None when the call needs npgpu.fft's general path. A small transform's
    time is mostly host work, so this path does its checks in C."""
    if n is not None or out is not None or type(a) is not Array or type(axis) is not int:
        return None
    if norm is not None and norm != "backward":
        return None
    cdef Array x = <Array>a
    cdef DType dt = x._view.dtype
    if x._view.device == kHostDevice or (dt != DType.Complex64 and dt != DType.Complex128):
        return None
    cdef int nd = x._view.ndim
    if not -nd <= axis < nd:
        return None
    cdef int c_axes[1]
    c_axes[0] = axis % nd
    if x._view.shape[c_axes[0]] == 0:
        return None
    cdef Array y = new_array_like_view(x._view, x._dtype, dt, x.stream)
    cdef bint done
    with nogil:
        done = c_fft(x._view, y._view, c_axes, 1, FftKind.C2C, forward, x.stream)
    return y if done else None


def c2c(Array x, axes, bint forward):
    """The unnormalised complex transform of x (complex64 or complex128, on a GPU) over `axes` (1 to 3):
    forward with exp(-2 pi i jk / n), inverse with exp(+2 pi i jk / n) and no 1/n. A new C-contiguous array
    of x's shape and dtype."""
    if x.dtype.kind != "c":
        raise TypeError(f"c2c needs complex64 or complex128 input, not {x.dtype}")
    return _run(x, _axes(x, axes), FftKind.C2C, forward, tuple(x.shape), x.dtype)


def r2c(Array x, axes):
    """The unnormalised forward transform of real x (float32 or float64) over `axes`, the last of them
    halved to n // 2 + 1 values (numpy.fft.rfftn with norm='backward')."""
    if x.dtype not in _COMPLEX_OF:
        raise TypeError(f"r2c needs float32 or float64 input, not {x.dtype}")
    ax = _axes(x, axes)
    shape = list(x.shape)
    shape[ax[-1]] = shape[ax[-1]] // 2 + 1
    return _run(x, ax, FftKind.R2C, True, tuple(shape), _COMPLEX_OF[x.dtype])


def c2r(Array x, axes, n_last):
    """The unnormalised inverse transform of the Hermitian half x (complex64 or complex128) over `axes`
    into a real array whose last transformed axis has `n_last` values (numpy.fft.irfftn times the
    number of points); x's last transformed axis must hold n_last // 2 + 1 values."""
    if x.dtype not in _REAL_OF:
        raise TypeError(f"c2r needs complex64 or complex128 input, not {x.dtype}")
    ax = _axes(x, axes)
    n_last = operator.index(n_last)
    if n_last < 1:
        raise ValueError(f"Invalid number of FFT data points ({n_last}) specified.")
    if x.shape[ax[-1]] != n_last // 2 + 1:
        raise ValueError(f"c2r: axis {ax[-1]} holds {x.shape[ax[-1]]} values; n_last={n_last} needs "
                         f"{n_last // 2 + 1}")
    shape = list(x.shape)
    shape[ax[-1]] = n_last
    return _run(x, ax, FftKind.C2R, False, tuple(shape), _REAL_OF[x.dtype])


def plan_cache_info():
    """The cuFFT plan cache: plans, bytes (their work areas), max_plans, max_bytes, hits, misses."""
    cdef FftPlanCacheInfo i = fft_plan_cache_info()
    return {"plans": i.plans, "bytes": i.work_bytes, "max_plans": i.max_plans, "max_bytes": i.max_bytes,
            "hits": i.hits, "misses": i.misses}


def set_plan_cache_limits(max_plans=None, max_bytes=None):
    """Cap the plan cache at `max_plans` plans and `max_bytes` bytes of work areas (None: no cap, 0: no
    caching); the least recently used plans are dropped first."""
    cdef int64_t p = INT64_MAX if max_plans is None else operator.index(max_plans)
    cdef int64_t b = INT64_MAX if max_bytes is None else operator.index(max_bytes)
    set_fft_plan_cache_limits(p, b)


def clear_plan_cache():
    """Drop every cached cuFFT plan."""
    clear_fft_plan_cache()
