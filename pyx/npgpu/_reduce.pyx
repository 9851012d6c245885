# cython: language_level=3
"""Reductions (sum, prod, min, max, mean, var, std, argmin, argmax, any, all, count_nonzero, norm, the nan*
forms) and scans (cumsum, cumprod, inclusive or exclusive) with NumPy's axis, keepdims, dtype and out rules.

npgpu.Array inputs give npgpu.Array results on their device; a reduction over every axis gives a 0-d
npgpu.Array (CuPy's behaviour: the value stays on the GPU; ``x.get()`` brings it back), so
chains of device operations never wait for the host. NumPy inputs give NumPy results (NumPy scalars for
full reductions), computed on the GPU (the input is uploaded, the result downloaded) when the backend is
'cuda', on the host backend (OpenMP) otherwise.
"""
import math
import operator
import warnings

import numpy as np
from numpy.exceptions import AxisError

from libc.stdint cimport int64_t, uint64_t
from npgpu._array cimport (Array, native_order, new_array, dtype_code, numpy_dtype, host_view, refuse_subclass, upload,
                           wrap_view)
from npgpu._runtime cimport resolve_stream, use_cuda_for_host_data
from npgpu.lib cimport runtime as rt
from npgpu.lib.reduce cimport ReduceOp, ScanOp, reduce as c_reduce, scan as c_scan
from npgpu.lib.runtime cimport StreamHandle
from npgpu.lib.view cimport ArrayView, DType, itemsize, kHostDevice
from npgpu import _array

_INT64 = np.dtype(np.int64)
_UINT64 = np.dtype(np.uint64)
_FLOAT64 = np.dtype(np.float64)
_BOOL = np.dtype(np.bool_)


# ------------------------------------------------------------------------------------------------ rules

cpdef tuple _axes(axis, int ndim, bint allow_tuple=True):
    """NumPy's axis normalisation: a sorted tuple of distinct axes in [0, ndim)."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, tuple):
        if not allow_tuple:
            raise TypeError("'tuple' object cannot be interpreted as an integer")
        items = axis
    else:
        items = (axis,)
    seen = []
    for ax in items:
        ax = operator.index(ax)
        if ax < -ndim or ax >= ndim:
            raise AxisError(ax, ndim)
        if ax < 0:
            ax += ndim
        if ax in seen:
            raise ValueError("duplicate value in 'axis'")
        seen.append(ax)
    return tuple(sorted(seen))


cdef object _sum_dtype(object dt):
    """NumPy's result dtype of add/multiply reductions and accumulations without dtype=."""
    if dt.kind == "b" or (dt.kind == "i" and dt.itemsize < 8):
        return _INT64
    if dt.kind == "u" and dt.itemsize < 8:
        return _UINT64
    return dt


cdef object _float_dtype(object dt):
    """mean/var/std/norm: integers and bool give float64; var/std/norm of complex give the real dtype."""
    if dt.kind in "biu":
        return _FLOAT64
    return dt


cdef object _real_dtype(object dt):
    if dt.kind == "c":
        return np.dtype(f"f{dt.itemsize // 2}")
    return _float_dtype(dt)


# ------------------------------------------------------------------------------------------------ engine

cdef tuple _reduced_shape(tuple shape, uint64_t mask, bint keepdims):
    """`shape` without the axes set in `mask`, or with them as 1 when `keepdims`."""
    # A C loop: a generator expression here was much of a small call's cost.
    cdef list dims = []
    cdef Py_ssize_t i
    for i in range(len(shape)):
        if not (mask >> i) & 1:
            dims.append(shape[i])
        elif keepdims:
            dims.append(1)
    return tuple(dims)


cdef object _reduce(ReduceOp op, object a, object axis, object res_dt, object acc_dt, object out, bint keepdims,
                    double ddof, object stream, bint allow_tuple=True, bint pyint=False):
    cdef StreamHandle s = resolve_stream(stream)
    cdef Array A, O
    cdef ArrayView hv, ov
    cdef uint64_t mask = 0
    cdef DType acc = dtype_code(acc_dt)
    if isinstance(a, Array):
        A = <Array>a
        shape = A.shape
        axes = _axes(axis, len(shape), allow_tuple)
        for ax in axes:
            mask |= (<uint64_t>1) << ax
        oshape = _reduced_shape(shape, mask, keepdims)
        if out is None:
            O = new_array(oshape, res_dt, A._view.device, s)
        else:
            if not isinstance(out, Array):
                raise TypeError(f"out must be an npgpu.Array for a device input, not {type(out).__name__}")
            O = <Array>out
            if O.shape != oshape:
                raise ValueError(f"output has shape {O.shape}, the reduction gives {oshape}")
        with nogil:
            c_reduce(op, A._view, mask, O._view, acc, ddof, s)
        O.stream = s
        return O
    if isinstance(out, Array):
        raise TypeError("out must be a numpy.ndarray for a NumPy input")
    refuse_subclass(a, "reduction")
    x = native_order(np.asarray(a))
    shape = x.shape
    axes = _axes(axis, x.ndim, allow_tuple)
    for ax in axes:
        mask |= (<uint64_t>1) << ax
    oshape = _reduced_shape(shape, mask, keepdims)
    if out is not None:
        if not isinstance(out, np.ndarray):
            raise TypeError(f"out must be a numpy.ndarray, not {type(out).__name__}")
        if out.shape != oshape:
            raise ValueError(f"output has shape {out.shape}, the reduction gives {oshape}")
        if not out.flags.writeable:
            raise ValueError("output array is read-only")
    cdef int device
    if use_cuda_for_host_data() and x.size > 0:
        device = rt.current_device()
        A = upload(np.asarray(x, order="C"), device, s)
        O = new_array(oshape, res_dt if out is None else out.dtype, device, s)
        with nogil:
            c_reduce(op, A._view, mask, O._view, acc, ddof, s)
        O.stream = s
        if out is not None and out.flags.c_contiguous:
            O.get(stream=stream, out=out)
            result = out
        else:
            result = O.get(stream=stream)
            if out is not None:
                np.copyto(out, result, casting="unsafe")
                result = out
    else:
        result = out if out is not None else np.empty(oshape, dtype=res_dt)
        hv = host_view(x, False)
        ov = host_view(result, True)
        with nogil:
            c_reduce(op, hv, mask, ov, acc, ddof, s)
    if out is None and result.ndim == 0:
        return int(result[()]) if pyint else result[()]
    return result


cdef object _reduce_sum_like(ReduceOp op, a, axis, dtype, out, keepdims, stream):
    in_dt = _dtype_of(a)
    res = np.dtype(dtype) if dtype is not None else _sum_dtype(in_dt)
    return _reduce(op, a, axis, res, res, out, keepdims, 0.0, stream)


cpdef object _dtype_of(a):
    """a's dtype in native byte order (results of non-native inputs are native, as NumPy's are)."""
    if type(a) is np.ndarray or type(a) is Array:
        d = a.dtype  # already a numpy.dtype
    else:
        d = np.dtype(a.dtype) if hasattr(a, "dtype") else np.asarray(a).dtype
    return d.newbyteorder("=") if d.byteorder not in "=|" else d


# ------------------------------------------------------------------------------------------------ API

def sum(a, axis=None, dtype=None, out=None, keepdims=False, stream=None):
    """Sum of the elements over the given axes, as numpy.sum.

    Integer and bool inputs sum in 64 bits (wrapping as NumPy's do); float32 sums accumulate in float64 (more
    accurate than NumPy's pairwise float32 sums).

    Parameters
    ----------
    a : npgpu.Array or array_like
        Input values. An npgpu.Array is reduced on its device; NumPy input (anything NumPy accepts) on the GPU
        when the backend is 'cuda' (uploaded, the result downloaded), on the host backend (OpenMP) otherwise.
    axis : None, int or tuple of ints, optional
        The axes reduced; None (default) reduces all of them.
    dtype : dtype, optional
        The result's dtype, also the accumulator's (NumPy's rule). Default: int64 for bool and signed integers
        narrower than 64 bits, uint64 for narrower unsigned integers, a's dtype otherwise.
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result, of the result's shape (values converted to its dtype): an npgpu.Array for an
        npgpu.Array input, a writeable numpy.ndarray for NumPy input. It is returned.
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size 1 (default False).
    stream : npgpu.Stream, int or None, optional
        The stream to run on (an npgpu.Stream, a stream handle or an object with ``__cuda_stream__``); None
        (default): the current stream. Device work is queued on it without waiting for it.

    Returns
    -------
    npgpu.Array, numpy.ndarray or NumPy scalar
        The sums. An npgpu.Array on a's device for an npgpu.Array input (0-d when every axis is reduced: the value
        stays on the device, ``x.get()`` brings it back); for NumPy input a NumPy array, or a NumPy scalar where the
        result is 0-d; `out` when given.

    Raises
    ------
    TypeError
        `a` a numpy.ndarray subclass (other than numpy.memmap); `out` not an npgpu.Array for an npgpu.Array
        input, or not a numpy.ndarray for NumPy input; `stream` of another type.
    ValueError
        A repeated axis; `out` of another shape than the result, or read-only.
    numpy.exceptions.AxisError
        An axis outside [-a.ndim, a.ndim).

    See Also
    --------
    nansum, prod, cumsum, mean

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2, 3], [4, 5, 6]], device="cpu")
    >>> npgpu.sum(a)
    Array(21)
    >>> npgpu.sum(a, axis=1, keepdims=True)
    Array([[ 6],
           [15]])
    >>> npgpu.sum(np.array([[1.5, 2.5], [3.0, 4.0]]), axis=0)
    array([4.5, 6.5])
    """
    return _reduce_sum_like(ReduceOp.Sum, a, axis, dtype, out, keepdims, stream)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, stream=None):
    """Product of the elements over the given axes, as numpy.prod.

    Integer and bool inputs multiply in 64 bits and their products wrap around as NumPy's do; floating inputs
    accumulate in float64.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Input values. An npgpu.Array is reduced on its device; NumPy input (anything NumPy accepts) on the GPU
        when the backend is 'cuda' (uploaded, the result downloaded), on the host backend (OpenMP) otherwise.
    axis : None, int or tuple of ints, optional
        The axes reduced; None (default) reduces all of them.
    dtype : dtype, optional
        The result's dtype, also the accumulator's (NumPy's rule). Default: int64 for bool and signed integers
        narrower than 64 bits, uint64 for narrower unsigned integers, a's dtype otherwise.
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result, of the result's shape (values converted to its dtype): an npgpu.Array for an
        npgpu.Array input, a writeable numpy.ndarray for NumPy input. It is returned.
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size 1 (default False).
    stream : npgpu.Stream, int or None, optional
        The stream to run on (an npgpu.Stream, a stream handle or an object with ``__cuda_stream__``); None
        (default): the current stream. Device work is queued on it without waiting for it.

    Returns
    -------
    npgpu.Array, numpy.ndarray or NumPy scalar
        The products. An npgpu.Array on a's device for an npgpu.Array input (0-d when every axis is reduced: the
        value stays on the device, ``x.get()`` brings it back); for NumPy input a NumPy array, or a NumPy scalar
        where the result is 0-d; `out` when given.

    Raises
    ------
    TypeError
        `a` a numpy.ndarray subclass (other than numpy.memmap); `out` not an npgpu.Array for an npgpu.Array
        input, or not a numpy.ndarray for NumPy input; `stream` of another type.
    ValueError
        A repeated axis; `out` of another shape than the result, or read-only.
    numpy.exceptions.AxisError
        An axis outside [-a.ndim, a.ndim).

    See Also
    --------
    nanprod, sum, cumprod

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2, 3], [4, 5, 6]], device="cpu")
    >>> npgpu.prod(a, axis=1)
    Array([  6, 120])
    >>> int(npgpu.prod(np.array([2**40, 2**40])))  # wraps around, as NumPy's int64 product
    0
    """
    return _reduce_sum_like(ReduceOp.Prod, a, axis, dtype, out, keepdims, stream)


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, stream=None):
    """Sum of the elements over the given axes, NaNs treated as zero, as numpy.nansum.

    The accumulation is sum's (64-bit integers, float64 for floating inputs); a slice of NaNs only sums to 0.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Input values. An npgpu.Array is reduced on its device; NumPy input (anything NumPy accepts) on the GPU
        when the backend is 'cuda' (uploaded, the result downloaded), on the host backend (OpenMP) otherwise.
    axis : None, int or tuple of ints, optional
        The axes reduced; None (default) reduces all of them.
    dtype : dtype, optional
        The result's dtype, also the accumulator's (NumPy's rule). Default: int64 for bool and signed integers
        narrower than 64 bits, uint64 for narrower unsigned integers, a's dtype otherwise.
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result, of the result's shape (values converted to its dtype): an npgpu.Array for an
        npgpu.Array input, a writeable numpy.ndarray for NumPy input. It is returned.
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size 1 (default False).
    stream : npgpu.Stream, int or None, optional
        The stream to run on (an npgpu.Stream, a stream handle or an object with ``__cuda_stream__``); None
        (default): the current stream. Device work is queued on it without waiting for it.

    Returns
    -------
    npgpu.Array, numpy.ndarray or NumPy scalar
        The sums of the non-NaN elements. An npgpu.Array on a's device for an npgpu.Array input (0-d when every axis
        is reduced: the value stays on the device, ``x.get()`` brings it back); for NumPy input a NumPy array, or a
        NumPy scalar where the result is 0-d; `out` when given.

    Raises
    ------
    TypeError
        `a` a numpy.ndarray subclass (other than numpy.memmap); `out` not an npgpu.Array for an npgpu.Array
        input, or not a numpy.ndarray for NumPy input; `stream` of another type.
    ValueError
        A repeated axis; `out` of another shape than the result, or read-only.
    numpy.exceptions.AxisError
        An axis outside [-a.ndim, a.ndim).

    See Also
    --------
    sum, nanprod, nanmean

    Examples
    --------
    >>> x = npgpu.asarray([1.0, np.nan, 3.0], device="cpu")
    >>> npgpu.nansum(x)
    Array(4.)
    >>> npgpu.sum(x)
    Array(nan)
    """
    return _reduce_sum_like(ReduceOp.NanSum, a, axis, dtype, out, keepdims, stream)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, stream=None):
    """Product of the elements over the given axes, NaNs treated as one, as numpy.nanprod.

    The accumulation is prod's (64-bit integers, float64 for floating inputs); a slice of NaNs only gives 1.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Input values. An npgpu.Array is reduced on its device; NumPy input (anything NumPy accepts) on the GPU
        when the backend is 'cuda' (uploaded, the result downloaded), on the host backend (OpenMP) otherwise.
    axis : None, int or tuple of ints, optional
        The axes reduced; None (default) reduces all of them.
    dtype : dtype, optional
        The result's dtype, also the accumulator's (NumPy's rule). Default: int64 for bool and signed integers
        narrower than 64 bits, uint64 for narrower unsigned integers, a's dtype otherwise.
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result, of the result's shape (values converted to its dtype): an npgpu.Array for an
        npgpu.Array input, a writeable numpy.ndarray for NumPy input. It is returned.
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size 1 (default False).
    stream : npgpu.Stream, int or None, optional
        The stream to run on (an npgpu.Stream, a stream handle or an object with ``__cuda_stream__``); None
        (default): the current stream. Device work is queued on it without waiting for it.

    Returns
    -------
    npgpu.Array, numpy.ndarray or NumPy scalar
        The products of the non-NaN elements. An npgpu.Array on a's device for an npgpu.Array input (0-d when every
        axis is reduced: the value stays on the device, ``x.get()`` brings it back); for NumPy input a NumPy array,
        or a NumPy scalar where the result is 0-d; `out` when given.

    Raises
    ------
    TypeError
        `a` a numpy.ndarray subclass (other than numpy.memmap); `out` not an npgpu.Array for an npgpu.Array
        input, or not a numpy.ndarray for NumPy input; `stream` of another type.
    ValueError
        A repeated axis; `out` of another shape than the result, or read-only.
    numpy.exceptions.AxisError
        An axis outside [-a.ndim, a.ndim).

    See Also
    --------
    prod, nansum

    Examples
    --------
    >>> npgpu.nanprod(npgpu.asarray([2.0, np.nan, 3.0], device="cpu"))
    Array(6.)
    >>> npgpu.nanprod(np.array([[np.nan, 2.0], [4.0, 5.0]]), axis=1)
    array([ 2., 20.])
    """
    return _reduce_sum_like(ReduceOp.NanProd, a, axis, dtype, out, keepdims, stream)


cdef object _extremum(ReduceOp op, a, axis, out, keepdims, stream):
    dt = _dtype_of(a)
    if dt.kind == "c":
        return _complex_extremum(op == ReduceOp.Max or op == ReduceOp.NanMax,
                                 op == ReduceOp.NanMax or op == ReduceOp.NanMin, a, axis, out, keepdims, stream)
    return _reduce(op, a, axis, dt, dt, out, keepdims, 0.0, stream)


cdef object _axes_last(object x, object axis):
    """(x with the reduced axes moved last and merged into one, the kept shape): complex extrema reduce
    over that one axis."""
    nd = x.ndim
    if axis is None:
        axes = tuple(range(nd))
    else:
        axes = tuple(operator.index(ax) for ax in (axis if isinstance(axis, tuple) else (axis,)))
        for ax in axes:
            if not -nd <= ax < nd:
                raise AxisError(ax, nd)
        axes = tuple(ax % nd for ax in axes)
        if len(set(axes)) != len(axes):
            raise ValueError("duplicate value in 'axis'")
    rest = tuple(d for d in range(nd) if d not in axes)
    kept = tuple(x.shape[d] for d in rest)
    n = 1
    for d in axes:
        n *= x.shape[d]
    if n == 0:
        raise ValueError("zero-size array to reduction operation which has no identity")
    moved = x.transpose(rest + axes)
    if isinstance(moved, Array):
        moved = moved.copy()
    return moved.reshape(kept + (n,)), kept, axes


cdef object _complex_arg_last(bint is_max, bint skip_nan, object x, object stream):
    """Index along the last axis of x (complex) of its first extremum in NumPy's lexicographic order (real
    part first, then imaginary), or of its first NaN (in either part) where there is one and NaNs are not
    skipped (an all-NaN row gives index 0 either way)."""
    from npgpu import _elementwise as ew
    re, im = ew.real(x), ew.imag(x)
    nan = ew.logical_or(ew.isnan(re), ew.isnan(im))
    fill = -np.inf if is_max else np.inf
    cdef ReduceOp op = ReduceOp.Max if is_max else ReduceOp.Min
    re_f = ew.where(nan, fill, re)
    best_re = _reduce(op, re_f, -1, re_f.dtype, re_f.dtype, None, True, 0.0, stream)
    cand = ew.logical_and(ew.equal(re_f, best_re), ew.logical_not(nan))
    im_f = ew.where(cand, im, fill)
    best_im = _reduce(op, im_f, -1, im_f.dtype, im_f.dtype, None, True, 0.0, stream)
    best = ew.logical_and(cand, ew.equal(im_f, best_im))
    if not skip_nan:
        any_nan = _reduce(ReduceOp.Any, nan, -1, _BOOL, _BOOL, None, True, 0.0, stream)
        best = ew.where(any_nan, nan, best)
    return _reduce(ReduceOp.ArgMax, best, -1, _INT64, _INT64, None, False, 0.0, stream, False)


cdef object _complex_extremum(bint is_max, bint skip_nan, a, axis, out, keepdims, stream):
    """max / min of complex values in NumPy's lexicographic order, NaN-propagating as NumPy's (nanmax /
    nanmin with skip_nan: NaNs ignored, NaN for an all-NaN slice)."""
    from npgpu import _indexing
    x = a if isinstance(a, Array) else native_order(np.asarray(a))
    flat, kept, axes = _axes_last(x, axis)
    idx = _complex_arg_last(is_max, skip_nan, flat, stream)
    r = _indexing.take_along_axis(flat, idx.reshape(kept + (1,)), axis=-1).reshape(kept)
    if keepdims:
        r = r.reshape(tuple(1 if d in axes else x.shape[d] for d in range(x.ndim)))
    if out is not None:
        out[...] = r
        return out
    return r[()] if isinstance(r, np.ndarray) and r.ndim == 0 else r  # a NumPy scalar, as NumPy's


def min(a, axis=None, out=None, keepdims=False, stream=None):
    """Minimum of the elements over the given axes, as numpy.min (npgpu.amin is the same function).

    NaN where any element of the slice is NaN, as NumPy's. Complex values compare in NumPy's lexicographic order
    (real part first, then imaginary part), a NaN in either part propagating.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Input values. An npgpu.Array is reduced on its device; NumPy input (anything NumPy accepts) on the GPU
        when the backend is 'cuda' (uploaded, the result downloaded), on the host backend (OpenMP) otherwise.
    axis : None, int or tuple of ints, optional
        The axes reduced; None (default) reduces all of them.
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result, of the result's shape (values converted to its dtype): an npgpu.Array for an
        npgpu.Array input, a writeable numpy.ndarray for NumPy input. It is returned.
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size 1 (default False).
    stream : npgpu.Stream, int or None, optional
        The stream to run on (an npgpu.Stream, a stream handle or an object with ``__cuda_stream__``); None
        (default): the current stream. Device work is queued on it without waiting for it.

    Returns
    -------
    npgpu.Array, numpy.ndarray or NumPy scalar
        Of a's dtype. An npgpu.Array on a's device for an npgpu.Array input (0-d when every axis is reduced: the
        value stays on the device, ``x.get()`` brings it back); for NumPy input a NumPy array, or a NumPy scalar
        where the result is 0-d; `out` when given.

    Raises
    ------
    TypeError
        `a` a numpy.ndarray subclass (other than numpy.memmap); `out` not an npgpu.Array for an npgpu.Array
        input, or not a numpy.ndarray for NumPy input; `stream` of another type.
    ValueError
        An empty reduction (a slice of no elements: 'zero-size array to reduction operation').
        A repeated axis; `out` of another shape than the result, or read-only.
    numpy.exceptions.AxisError
        An axis outside [-a.ndim, a.ndim).

    See Also
    --------
    nanmin, argmin, max

    Examples
    --------
    >>> a = npgpu.asarray([[4, 2, 6], [1, 5, 3]], device="cpu")
    >>> npgpu.min(a)
    Array(1)
    >>> npgpu.min(a, axis=0)
    Array([1, 2, 3])
    >>> float(npgpu.min(np.array([1.0, np.nan, 3.0])))
    nan
    """
    return _extremum(ReduceOp.Min, a, axis, out, keepdims, stream)


def max(a, axis=None, out=None, keepdims=False, stream=None):
    """Maximum of the elements over the given axes, as numpy.max (npgpu.amax is the same function).

    NaN where any element of the slice is NaN, as NumPy's. Complex values compare in NumPy's lexicographic order
    (real part first, then imaginary part), a NaN in either part propagating.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Input values. An npgpu.Array is reduced on its device; NumPy input (anything NumPy accepts) on the GPU
        when the backend is 'cuda' (uploaded, the result downloaded), on the host backend (OpenMP) otherwise.
    axis : None, int or tuple of ints, optional
        The axes reduced; None (default) reduces all of them.
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result, of the result's shape (values converted to its dtype): an npgpu.Array for an
        npgpu.Array input, a writeable numpy.ndarray for NumPy input. It is returned.
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size 1 (default False).
    stream : npgpu.Stream, int or None, optional
        The stream to run on (an npgpu.Stream, a stream handle or an object with ``__cuda_stream__``); None
        (default): the current stream. Device work is queued on it without waiting for it.

    Returns
    -------
    npgpu.Array, numpy.ndarray or NumPy scalar
        Of a's dtype. An npgpu.Array on a's device for an npgpu.Array input (0-d when every axis is reduced: the
        value stays on the device, ``x.get()`` brings it back); for NumPy input a NumPy array, or a NumPy scalar
        where the result is 0-d; `out` when given.

    Raises
    ------
    TypeError
        `a` a numpy.ndarray subclass (other than numpy.memmap); `out` not an npgpu.Array for an npgpu.Array
        input, or not a numpy.ndarray for NumPy input; `stream` of another type.
    ValueError
        An empty reduction (a slice of no elements: 'zero-size array to reduction operation').
        A repeated axis; `out` of another shape than the result, or read-only.
    numpy.exceptions.AxisError
        An axis outside [-a.ndim, a.ndim).

    See Also
    --------
    nanmax, argmax, min

    Examples
    --------
    >>> a = npgpu.asarray([[4, 2, 6], [1, 5, 3]], device="cpu")
    >>> npgpu.max(a)
    Array(6)
    >>> npgpu.max(a, axis=0)
    Array([4, 5, 6])
    >>> float(npgpu.max(np.array([1.0, np.nan, 3.0])))
    nan
    """
    return _extremum(ReduceOp.Max, a, axis, out, keepdims, stream)


amin = min
amax = max


cdef object _warn_all_nan(object r):
    """NumPy's RuntimeWarning for all-NaN slices, read off a host result (a NaN result of nanmin/nanmax can
    only come from such a slice). Device results are not inspected: that would wait for the GPU."""
    if not isinstance(r, Array) and np.asarray(r).dtype.kind in "fc" and np.isnan(r).any():
        warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=1)
    return r


def nanmin(a, axis=None, out=None, keepdims=False, stream=None):
    """Minimum of the elements over the given axes ignoring NaNs, as numpy.nanmin.

    NaN for an all-NaN slice, with NumPy's RuntimeWarning ("All-NaN slice encountered") for NumPy inputs; the
    results of npgpu.Array inputs are not inspected for it (that would wait for the GPU), so they give no warning.
    Complex values compare in NumPy's lexicographic order (real part first, then imaginary part); elements with a
    NaN in either part are ignored.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Input values. An npgpu.Array is reduced on its device; NumPy input (anything NumPy accepts) on the GPU
        when the backend is 'cuda' (uploaded, the result downloaded), on the host backend (OpenMP) otherwise.
    axis : None, int or tuple of ints, optional
        The axes reduced; None (default) reduces all of them.
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result, of the result's shape (values converted to its dtype): an npgpu.Array for an
        npgpu.Array input, a writeable numpy.ndarray for NumPy input. It is returned.
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size 1 (default False).
    stream : npgpu.Stream, int or None, optional
        The stream to run on (an npgpu.Stream, a stream handle or an object with ``__cuda_stream__``); None
        (default): the current stream. Device work is queued on it without waiting for it.

    Returns
    -------
    npgpu.Array, numpy.ndarray or NumPy scalar
        Of a's dtype. An npgpu.Array on a's device for an npgpu.Array input (0-d when every axis is reduced: the
        value stays on the device, ``x.get()`` brings it back); for NumPy input a NumPy array, or a NumPy scalar
        where the result is 0-d; `out` when given.

    Raises
    ------
    TypeError
        `a` a numpy.ndarray subclass (other than numpy.memmap); `out` not an npgpu.Array for an npgpu.Array
        input, or not a numpy.ndarray for NumPy input; `stream` of another type.
    ValueError
        An empty reduction (a slice of no elements).
        A repeated axis; `out` of another shape than the result, or read-only.
    numpy.exceptions.AxisError
        An axis outside [-a.ndim, a.ndim).

    Warns
    -----
    RuntimeWarning
        A NumPy input with an all-NaN slice.

    See Also
    --------
    min, nanargmin

    Examples
    --------
    >>> x = npgpu.asarray([[np.nan, 1.0], [2.0, np.nan]], device="cpu")
    >>> npgpu.nanmin(x)
    Array(1.)
    >>> npgpu.nanmin(x, axis=0)
    Array([2., 1.])
    """
    return _warn_all_nan(_extremum(ReduceOp.NanMin, a, axis, out, keepdims, stream))


def nanmax(a, axis=None, out=None, keepdims=False, stream=None):
    """Maximum of the elements over the given axes ignoring NaNs, as numpy.nanmax.

    NaN for an all-NaN slice, with NumPy's RuntimeWarning ("All-NaN slice encountered") for NumPy inputs; the
    results of npgpu.Array inputs are not inspected for it (that would wait for the GPU), so they give no warning.
    Complex values compare in NumPy's lexicographic order (real part first, then imaginary part); elements with a
    NaN in either part are ignored.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Input values. An npgpu.Array is reduced on its device; NumPy input (anything NumPy accepts) on the GPU
        when the backend is 'cuda' (uploaded, the result downloaded), on the host backend (OpenMP) otherwise.
    axis : None, int or tuple of ints, optional
        The axes reduced; None (default) reduces all of them.
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result, of the result's shape (values converted to its dtype): an npgpu.Array for an
        npgpu.Array input, a writeable numpy.ndarray for NumPy input. It is returned.
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size 1 (default False).
    stream : npgpu.Stream, int or None, optional
        The stream to run on (an npgpu.Stream, a stream handle or an object with ``__cuda_stream__``); None
        (default): the current stream. Device work is queued on it without waiting for it.

    Returns
    -------
    npgpu.Array, numpy.ndarray or NumPy scalar
        Of a's dtype. An npgpu.Array on a's device for an npgpu.Array input (0-d when every axis is reduced: the
        value stays on the device, ``x.get()`` brings it back); for NumPy input a NumPy array, or a NumPy scalar
        where the result is 0-d; `out` when given.

    Raises
    ------
    TypeError
        `a` a numpy.ndarray subclass (other than numpy.memmap); `out` not an npgpu.Array for an npgpu.Array
        input, or not a numpy.ndarray for NumPy input; `stream` of another type.
    ValueError
        An empty reduction (a slice of no elements).
        A repeated axis; `out` of another shape than the result, or read-only.
    numpy.exceptions.AxisError
        An axis outside [-a.ndim, a.ndim).

    Warns
    -----
    RuntimeWarning
        A NumPy input with an all-NaN slice.

    See Also
    --------
    max, nanargmax

    Examples
    --------
    >>> x = npgpu.asarray([[np.nan, 1.0], [2.0, np.nan]], device="cpu")
    >>> npgpu.nanmax(x)
    Array(2.)
    >>> npgpu.nanmax(x, axis=0)
    Array([2., 1.])
    """
    return _warn_all_nan(_extremum(ReduceOp.NanMax, a, axis, out, keepdims, stream))


cdef object _arg(ReduceOp op, a, axis, out, keepdims, stream):
    if _dtype_of(a).kind == "c" and (op == ReduceOp.ArgMax or op == ReduceOp.ArgMin):
        x = a if isinstance(a, Array) else native_order(np.asarray(a))
        if axis is not None and isinstance(axis, tuple):
            raise TypeError("'tuple' object cannot be interpreted as an integer")
        flat, kept, axes = _axes_last(x, axis)
        r = _complex_arg_last(op == ReduceOp.ArgMax, False, flat, stream)
        if keepdims:
            r = r.reshape(tuple(1 if d in axes else x.shape[d] for d in range(x.ndim)))
        if out is not None:
            out[...] = r
            return out
        return r
    return _reduce(op, a, axis, _INT64, _INT64, out, keepdims, 0.0, stream, False)


def argmin(a, axis=None, out=None, keepdims=False, stream=None):
    """Index of the first minimum along an axis, as numpy.argmin.

    Indices are into the flattened array when `axis` is None. Where the slice holds a NaN the result is the index of
    its first NaN, as NumPy's. Complex values compare in NumPy's lexicographic order (real part first, then
    imaginary part), the first element with a NaN in either part taken where there is one.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Input values. An npgpu.Array is reduced on its device; NumPy input (anything NumPy accepts) on the GPU
        when the backend is 'cuda' (uploaded, the result downloaded), on the host backend (OpenMP) otherwise.
    axis : None or int, optional
        The axis searched; None (default) searches the flattened array. A tuple raises TypeError.
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the indices, of the result's shape: an npgpu.Array for an npgpu.Array input, a writeable
        numpy.ndarray for NumPy input. It is returned.
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size 1 (default False).
    stream : npgpu.Stream, int or None, optional
        The stream to run on (an npgpu.Stream, a stream handle or an object with ``__cuda_stream__``); None
        (default): the current stream. Device work is queued on it without waiting for it.

    Returns
    -------
    npgpu.Array, numpy.ndarray or NumPy scalar
        int64 indices. An npgpu.Array on a's device for an npgpu.Array input (0-d when every axis is reduced: the
        value stays on the device, ``x.get()`` brings it back); for NumPy input a NumPy array, or a NumPy scalar
        where the result is 0-d; `out` when given.

    Raises
    ------
    TypeError
        A tuple `axis`; `a` a numpy.ndarray subclass (other than numpy.memmap); `out` of the wrong kind (as for
        sum); `stream` of another type.
    ValueError
        An empty slice; `out` of another shape than the result, or read-only.
    numpy.exceptions.AxisError
        An axis outside [-a.ndim, a.ndim).

    See Also
    --------
    nanargmin, min, argsort

    Examples
    --------
    >>> a = npgpu.asarray([[4, 2, 6], [1, 6, 1]], device="cpu")
    >>> npgpu.argmin(a)
    Array(3)
    >>> npgpu.argmin(a, axis=1)
    Array([1, 0])
    >>> int(npgpu.argmin(np.array([1.0, np.nan, 3.0])))  # the first NaN
    1
    """
    return _arg(ReduceOp.ArgMin, a, axis, out, keepdims, stream)


def argmax(a, axis=None, out=None, keepdims=False, stream=None):
    """Index of the first maximum along an axis, as numpy.argmax.

    Indices are into the flattened array when `axis` is None. Where the slice holds a NaN the result is the index of
    its first NaN, as NumPy's. Complex values compare in NumPy's lexicographic order (real part first, then
    imaginary part), the first element with a NaN in either part taken where there is one.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Input values. An npgpu.Array is reduced on its device; NumPy input (anything NumPy accepts) on the GPU
        when the backend is 'cuda' (uploaded, the result downloaded), on the host backend (OpenMP) otherwise.
    axis : None or int, optional
        The axis searched; None (default) searches the flattened array. A tuple raises TypeError.
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the indices, of the result's shape: an npgpu.Array for an npgpu.Array input, a writeable
        numpy.ndarray for NumPy input. It is returned.
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size 1 (default False).
    stream : npgpu.Stream, int or None, optional
        The stream to run on (an npgpu.Stream, a stream handle or an object with ``__cuda_stream__``); None
        (default): the current stream. Device work is queued on it without waiting for it.

    Returns
    -------
    npgpu.Array, numpy.ndarray or NumPy scalar
        int64 indices. An npgpu.Array on a's device for an npgpu.Array input (0-d when every axis is reduced: the
        value stays on the device, ``x.get()`` brings it back); for NumPy input a NumPy array, or a NumPy scalar
        where the result is 0-d; `out` when given.

    Raises
    ------
    TypeError
        A tuple `axis`; `a` a numpy.ndarray subclass (other than numpy.memmap); `out` of the wrong kind (as for
        sum); `stream` of another type.
    ValueError
        An empty slice; `out` of another shape than the result, or read-only.
    numpy.exceptions.AxisError
        An axis outside [-a.ndim, a.ndim).

    See Also
    --------
    nanargmax, max, argsort

    Examples
    --------
    >>> a = npgpu.asarray([[4, 2, 6], [1, 6, 1]], device="cpu")
    >>> npgpu.argmax(a)
    Array(2)
    >>> npgpu.argmax(a, axis=1)
    Array([2, 1])
    >>> int(npgpu.argmax(np.array([1.0, np.nan, 3.0])))  # the first NaN
    1
    """
    return _arg(ReduceOp.ArgMax, a, axis, out, keepdims, stream)


cdef object _nanarg(ReduceOp op, double fill, a, axis, out, keepdims, stream):
    """numpy.nanargmin/nanargmax's own method: NaNs replaced by +-inf, then argmin/argmax; a slice of NaNs
    only raises. Built from the elementwise family (isnan, where), so each backend runs its tested loops."""
    if _dtype_of(a).kind not in "fc":  # no NaNs to skip
        return _arg(op, a, axis, out, keepdims, stream)
    from npgpu import _elementwise
    x = a if isinstance(a, Array) else native_order(np.asarray(a))
    if x.size == 0:  # argmin/argmax's own answer: "empty sequence", or an empty result
        return _arg(op, x, axis, out, keepdims, stream)
    nan = _elementwise.isnan(x, stream=stream)
    if bool(any(all(nan, axis=axis, stream=stream), stream=stream)):
        raise ValueError("All-NaN slice encountered")
    return _arg(op, _elementwise.where(nan, fill, x, stream=stream), axis, out, keepdims, stream)


def nanargmin(a, axis=None, out=None, keepdims=False, stream=None):
    """Index of the first minimum along an axis ignoring NaNs, as numpy.nanargmin.

    numpy.nanargmin's own method: the NaNs are replaced by +inf, then argmin runs (integer and bool inputs,
    which hold no NaN, go to argmin directly). A slice of NaNs only raises ValueError; that check reads a
    result back, so an npgpu.Array input waits for the device.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Input values. An npgpu.Array is reduced on its device; NumPy input (anything NumPy accepts) on the GPU
        when the backend is 'cuda' (uploaded, the result downloaded), on the host backend (OpenMP) otherwise.
    axis : None or int, optional
        The axis searched; None (default) searches the flattened array. A tuple raises TypeError.
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the indices, as for argmin. It is returned.
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size 1 (default False).
    stream : npgpu.Stream, int or None, optional
        The stream to run on (an npgpu.Stream, a stream handle or an object with ``__cuda_stream__``); None
        (default): the current stream. Device work is queued on it without waiting for it.

    Returns
    -------
    npgpu.Array, numpy.ndarray or NumPy scalar
        int64 indices. An npgpu.Array on a's device for an npgpu.Array input (0-d when every axis is reduced: the
        value stays on the device, ``x.get()`` brings it back); for NumPy input a NumPy array, or a NumPy scalar
        where the result is 0-d; `out` when given.

    Raises
    ------
    ValueError
        A slice of NaNs only ("All-NaN slice encountered"; an empty input too); `out` of another shape than the
        result, or read-only.
    TypeError
        A tuple `axis`; `a` a numpy.ndarray subclass; `out` of the wrong kind; `stream` of another type.
    numpy.exceptions.AxisError
        An axis outside [-a.ndim, a.ndim).

    See Also
    --------
    argmin, nanmin

    Examples
    --------
    >>> x = npgpu.asarray([[np.nan, 4.0, 1.0], [2.0, np.nan, 3.0]], device="cpu")
    >>> npgpu.nanargmin(x, axis=1)
    Array([2, 0])
    >>> int(npgpu.nanargmin(np.array([np.nan, 4.0, 1.0])))
    2
    """
    return _nanarg(ReduceOp.ArgMin, math.inf, a, axis, out, keepdims, stream)


def nanargmax(a, axis=None, out=None, keepdims=False, stream=None):
    """Index of the first maximum along an axis ignoring NaNs, as numpy.nanargmax.

    numpy.nanargmax's own method: the NaNs are replaced by -inf, then argmax runs (integer and bool inputs,
    which hold no NaN, go to argmax directly). A slice of NaNs only raises ValueError; that check reads a
    result back, so an npgpu.Array input waits for the device.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Input values. An npgpu.Array is reduced on its device; NumPy input (anything NumPy accepts) on the GPU
        when the backend is 'cuda' (uploaded, the result downloaded), on the host backend (OpenMP) otherwise.
    axis : None or int, optional
        The axis searched; None (default) searches the flattened array. A tuple raises TypeError.
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the indices, as for argmax. It is returned.
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size 1 (default False).
    stream : npgpu.Stream, int or None, optional
        The stream to run on (an npgpu.Stream, a stream handle or an object with ``__cuda_stream__``); None
        (default): the current stream. Device work is queued on it without waiting for it.

    Returns
    -------
    npgpu.Array, numpy.ndarray or NumPy scalar
        int64 indices. An npgpu.Array on a's device for an npgpu.Array input (0-d when every axis is reduced: the
        value stays on the device, ``x.get()`` brings it back); for NumPy input a NumPy array, or a NumPy scalar
        where the result is 0-d; `out` when given.

    Raises
    ------
    ValueError
        A slice of NaNs only ("All-NaN slice encountered"; an empty input too); `out` of another shape than the
        result, or read-only.
    TypeError
        A tuple `axis`; `a` a numpy.ndarray subclass; `out` of the wrong kind; `stream` of another type.
    numpy.exceptions.AxisError
        An axis outside [-a.ndim, a.ndim).

    See Also
    --------
    argmax, nanmax

    Examples
    --------
    >>> x = npgpu.asarray([[np.nan, 4.0, 1.0], [2.0, np.nan, 3.0]], device="cpu")
    >>> npgpu.nanargmax(x, axis=1)
    Array([1, 2])
    >>> int(npgpu.nanargmax(np.array([np.nan, 4.0, 1.0])))
    1
    """
    return _nanarg(ReduceOp.ArgMax, -math.inf, a, axis, out, keepdims, stream)


def any(a, axis=None, out=None, keepdims=False, stream=None):
    """Whether any element over the given axes is nonzero, as numpy.any.

    NaN counts as nonzero. An empty reduction gives False.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Input values. An npgpu.Array is reduced on its device; NumPy input (anything NumPy accepts) on the GPU
        when the backend is 'cuda' (uploaded, the result downloaded), on the host backend (OpenMP) otherwise.
    axis : None, int or tuple of ints, optional
        The axes reduced; None (default) reduces all of them.
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result, of the result's shape (values converted to its dtype): an npgpu.Array for an
        npgpu.Array input, a writeable numpy.ndarray for NumPy input. It is returned.
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size 1 (default False).
    stream : npgpu.Stream, int or None, optional
        The stream to run on (an npgpu.Stream, a stream handle or an object with ``__cuda_stream__``); None
        (default): the current stream. Device work is queued on it without waiting for it.

    Returns
    -------
    npgpu.Array, numpy.ndarray or NumPy scalar
        bool. An npgpu.Array on a's device for an npgpu.Array input (0-d when every axis is reduced: the value stays
        on the device, ``x.get()`` brings it back); for NumPy input a NumPy array, or a NumPy scalar where the
        result is 0-d; `out` when given.

    Raises
    ------
    TypeError
        `a` a numpy.ndarray subclass (other than numpy.memmap); `out` not an npgpu.Array for an npgpu.Array
        input, or not a numpy.ndarray for NumPy input; `stream` of another type.
    ValueError
        A repeated axis; `out` of another shape than the result, or read-only.
    numpy.exceptions.AxisError
        An axis outside [-a.ndim, a.ndim).

    See Also
    --------
    all, count_nonzero

    Examples
    --------
    >>> a = npgpu.asarray([[0, 0, 3], [0, 0, 0]], device="cpu")
    >>> npgpu.any(a)
    Array(True)
    >>> npgpu.any(a, axis=1)
    Array([ True, False])
    >>> bool(npgpu.any(np.array([0.0, np.nan])))  # NaN is nonzero
    True
    """
    return _reduce(ReduceOp.Any, a, axis, _BOOL, _BOOL, out, keepdims, 0.0, stream)


def all(a, axis=None, out=None, keepdims=False, stream=None):
    """Whether every element over the given axes is nonzero, as numpy.all.

    NaN counts as nonzero. An empty reduction gives True.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Input values. An npgpu.Array is reduced on its device; NumPy input (anything NumPy accepts) on the GPU
        when the backend is 'cuda' (uploaded, the result downloaded), on the host backend (OpenMP) otherwise.
    axis : None, int or tuple of ints, optional
        The axes reduced; None (default) reduces all of them.
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result, of the result's shape (values converted to its dtype): an npgpu.Array for an
        npgpu.Array input, a writeable numpy.ndarray for NumPy input. It is returned.
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size 1 (default False).
    stream : npgpu.Stream, int or None, optional
        The stream to run on (an npgpu.Stream, a stream handle or an object with ``__cuda_stream__``); None
        (default): the current stream. Device work is queued on it without waiting for it.

    Returns
    -------
    npgpu.Array, numpy.ndarray or NumPy scalar
        bool. An npgpu.Array on a's device for an npgpu.Array input (0-d when every axis is reduced: the value stays
        on the device, ``x.get()`` brings it back); for NumPy input a NumPy array, or a NumPy scalar where the
        result is 0-d; `out` when given.

    Raises
    ------
    TypeError
        `a` a numpy.ndarray subclass (other than numpy.memmap); `out` not an npgpu.Array for an npgpu.Array
        input, or not a numpy.ndarray for NumPy input; `stream` of another type.
    ValueError
        A repeated axis; `out` of another shape than the result, or read-only.
    numpy.exceptions.AxisError
        An axis outside [-a.ndim, a.ndim).

    See Also
    --------
    any, count_nonzero

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2, 3], [4, 0, 6]], device="cpu")
    >>> npgpu.all(a)
    Array(False)
    >>> npgpu.all(a, axis=0)
    Array([ True, False,  True])
    >>> bool(npgpu.all(np.array([1.0, np.nan])))
    True
    """
    return _reduce(ReduceOp.All, a, axis, _BOOL, _BOOL, out, keepdims, 0.0, stream)


def count_nonzero(a, axis=None, keepdims=False, stream=None):
    """Number of nonzero elements over the given axes, as numpy.count_nonzero.

    NaN counts as nonzero.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Input values. An npgpu.Array is reduced on its device; NumPy input (anything NumPy accepts) on the GPU
        when the backend is 'cuda' (uploaded, the result downloaded), on the host backend (OpenMP) otherwise.
    axis : None, int or tuple of ints, optional
        The axes reduced; None (default) reduces all of them.
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size 1 (default False).
    stream : npgpu.Stream, int or None, optional
        The stream to run on (an npgpu.Stream, a stream handle or an object with ``__cuda_stream__``); None
        (default): the current stream. Device work is queued on it without waiting for it.

    Returns
    -------
    npgpu.Array, numpy.ndarray or int
        int64 counts. An npgpu.Array on a's device for an npgpu.Array input (0-d when every axis is reduced); for
        NumPy input a NumPy array, or a Python int where the result is 0-d (axis None: as NumPy's).

    Raises
    ------
    TypeError
        `a` a numpy.ndarray subclass (other than numpy.memmap); `stream` of another type.
    ValueError
        A repeated axis.
    numpy.exceptions.AxisError
        An axis outside [-a.ndim, a.ndim).

    See Also
    --------
    nonzero, any

    Examples
    --------
    >>> a = npgpu.asarray([[0, 1, 7], [0, 0, 3]], device="cpu")
    >>> npgpu.count_nonzero(a)
    Array(3)
    >>> npgpu.count_nonzero(a, axis=1)
    Array([2, 1])
    >>> npgpu.count_nonzero(np.array([0, 1, 2]))
    2
    """
    return _reduce(ReduceOp.CountNonzero, a, axis, _INT64, _INT64, None, keepdims, 0.0, stream, True, True)


cdef object _reduced_count(object a, object axis):
    """Elements per result of a reduction of `a` over `axis` (from the shape alone)."""
    shape = a.shape if isinstance(a, (Array, np.ndarray)) else np.shape(a)
    n = 1
    for ax in _axes(axis, len(shape)):
        n *= shape[ax]
    return n


cdef _warn_small_count(object a, object axis, double ddof, bint moment):
    """NumPy's RuntimeWarnings for means over no elements and moments with n - ddof <= 0. They depend on
    shapes only, so they cost no pass over the data."""
    n = _reduced_count(a, axis)
    # stacklevel 1: Cython functions have no Python frame, so the warning points at the caller's line
    if moment and n - ddof <= 0:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=1)
    elif not moment and n == 0:
        warnings.warn("Mean of empty slice.", RuntimeWarning, stacklevel=1)


def mean(a, axis=None, dtype=None, out=None, keepdims=False, stream=None):
    """Arithmetic mean over the given axes, as numpy.mean.

    Integer and bool inputs give float64; float16 and float32 accumulate in float64. An empty reduction gives
    NaN, with NumPy's RuntimeWarning ("Mean of empty slice."), decided from the shape alone (for npgpu.Array
    inputs too, without waiting for the device).

    Parameters
    ----------
    a : npgpu.Array or array_like
        Input values. An npgpu.Array is reduced on its device; NumPy input (anything NumPy accepts) on the GPU
        when the backend is 'cuda' (uploaded, the result downloaded), on the host backend (OpenMP) otherwise.
    axis : None, int or tuple of ints, optional
        The axes reduced; None (default) reduces all of them.
    dtype : dtype, optional
        The result's dtype, also the accumulator's (floating ones accumulate in float64). Default: float64 for
        bool and integers, a's dtype otherwise.
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result, of the result's shape (values converted to its dtype): an npgpu.Array for an
        npgpu.Array input, a writeable numpy.ndarray for NumPy input. It is returned.
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size 1 (default False).
    stream : npgpu.Stream, int or None, optional
        The stream to run on (an npgpu.Stream, a stream handle or an object with ``__cuda_stream__``); None
        (default): the current stream. Device work is queued on it without waiting for it.

    Returns
    -------
    npgpu.Array, numpy.ndarray or NumPy scalar
        The means. An npgpu.Array on a's device for an npgpu.Array input (0-d when every axis is reduced: the value
        stays on the device, ``x.get()`` brings it back); for NumPy input a NumPy array, or a NumPy scalar where the
        result is 0-d; `out` when given.

    Raises
    ------
    TypeError
        `a` a numpy.ndarray subclass (other than numpy.memmap); `out` not an npgpu.Array for an npgpu.Array
        input, or not a numpy.ndarray for NumPy input; `stream` of another type.
    ValueError
        A repeated axis; `out` of another shape than the result, or read-only.
    numpy.exceptions.AxisError
        An axis outside [-a.ndim, a.ndim).

    Warns
    -----
    RuntimeWarning
        An empty reduction.

    See Also
    --------
    nanmean, sum, var

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2, 3], [4, 5, 6]], device="cpu")
    >>> npgpu.mean(a)
    Array(3.5)
    >>> npgpu.mean(a, axis=0)
    Array([2.5, 3.5, 4.5])
    >>> float(npgpu.mean(np.array([1, 2], dtype=np.int32)))
    1.5
    """
    _warn_small_count(a, axis, 0.0, False)
    dt = _dtype_of(a)
    res = np.dtype(dtype) if dtype is not None else _float_dtype(dt)
    return _reduce(ReduceOp.Mean, a, axis, res, res, out, keepdims, 0.0, stream)


cdef object _moment(ReduceOp op, a, axis, dtype, out, ddof, keepdims, stream, correction=None):
    if correction is not None:  # the Array API standard's (and NumPy 2's) name for ddof
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    _warn_small_count(a, axis, float(ddof), True)
    dt = _dtype_of(a)
    res = np.dtype(dtype) if dtype is not None else _real_dtype(dt)
    if dt.kind == "c" and (op == ReduceOp.Var or op == ReduceOp.Std or op == ReduceOp.NanVar
                           or op == ReduceOp.NanStd):
        # a real dtype= given for complex data: NumPy's own algorithm (see _real_dtype_complex_moment)
        r = _complex_moment(op, a, axis, res, out, ddof, keepdims, stream, dtype is not None and res.kind == "f")
    elif (op == ReduceOp.Var or op == ReduceOp.Std) and res.kind == "f" and _reduced_count(a, axis) - ddof <= 0:
        r = _degenerate_moment(a, axis, res, out, ddof, keepdims, op == ReduceOp.Std)
    else:
        r = _reduce(op, a, axis, res, _FLOAT64, out, keepdims, float(ddof), stream)
    if res.kind == "c" and (op == ReduceOp.Var or op == ReduceOp.Std) and _reduced_count(a, axis) - ddof <= 0:
        r = _nan_imaginary(r, stream)
    if (op == ReduceOp.NanVar or op == ReduceOp.NanStd) and ddof > 0 and res.kind == "f" and dt.kind in "fc":
        r = _nan_moment_dof(a, axis, r, out, ddof, keepdims, stream)
    return r


cdef object _nan_moment_dof(a, axis, r, out, ddof, keepdims, stream):
    """nanvar / nanstd: NaN, with NumPy's warning, where at most ddof values are not NaN. Such a slice divides
    by a count <= 0, so its result is not finite (or negative): only a result with such a value pays for
    counting the non-NaN inputs (one more pass)."""
    from npgpu import _elementwise
    plausible = _elementwise.logical_and(_elementwise.isfinite(r, stream=stream),
                                         _elementwise.greater_equal(r, 0, stream=stream), stream=stream)
    if bool(all(plausible, stream=stream)):
        return r
    count = count_nonzero(_elementwise.logical_not(_elementwise.isnan(a, stream=stream), stream=stream),
                          axis=axis, keepdims=keepdims, stream=stream)
    bad = _elementwise.less_equal(count, ddof, stream=stream)
    if not bool(any(bad, stream=stream)):
        return r
    if _reduced_count(a, axis) - ddof > 0:  # else the shape alone has already warned
        warnings.warn("Degrees of freedom <= 0 for slice.", RuntimeWarning, stacklevel=1)
    fixed = _elementwise.where(bad, np.nan, r, stream=stream)
    if out is None:
        return fixed[()] if isinstance(fixed, np.ndarray) and fixed.ndim == 0 else fixed
    return _into_out(fixed, out, isinstance(out, Array), stream)


cdef object _degenerate_moment(a, axis, res, out, ddof, keepdims, bint root):
    """var / std over at most ddof values: the sum of squared deviations over a zero count, so only whether
    that sum is 0 (nan) or not (inf) is left. It is NumPy's own sum: deviations from the mean in dtype= (for
    float64 data and a float32 dtype=, var([1.09]) has a nonzero deviation and is inf), so it is computed
    NumPy's way here, over few elements per result."""
    x = a if isinstance(a, Array) else native_order(np.asarray(a))
    if isinstance(x, Array):
        import npgpu as xp
    else:
        xp = np
    axes = _axes(axis, x.ndim)
    n = _reduced_count(x, axis)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        mean = xp.sum(x, axis=axes, dtype=res, keepdims=True)
        mean = (mean / n).astype(res)
        dev = x - mean
        r = xp.sum(dev * dev, axis=axes, dtype=res, keepdims=keepdims) / 0.0
        if root:
            r = xp.sqrt(r)
    r = r.astype(res) if isinstance(r, (Array, np.ndarray)) else res.type(r)
    if isinstance(r, np.ndarray) and r.ndim == 0:
        r = r[()]
    return _into_out(r, out, isinstance(x, Array), None)


cdef object _nan_imaginary(r, stream):
    """r + nan j, in place where r is an array: NumPy divides a complex sum by a zero count there (var / std
    with a complex dtype= over at most ddof values give inf + nan j or nan + nan j)."""
    c = complex(0.0, math.nan)
    if isinstance(r, Array):
        from npgpu import _elementwise
        return _elementwise.add(r, c, out=r, stream=stream)
    if isinstance(r, np.ndarray):
        return np.add(r, c, out=r)
    return r + c


cdef object _checked_out(out, bint device, shape):
    """`out` for a complex moment's result of `shape`: an npgpu.Array for a device input, a NumPy array
    otherwise (TypeError), of that shape (ValueError)."""
    if device and not isinstance(out, Array):
        raise TypeError(f"out must be an npgpu.Array for a device input, not {type(out).__name__}")
    if not device and isinstance(out, Array):
        raise TypeError("out must be a numpy.ndarray for a NumPy input")
    if out.shape != shape:
        raise ValueError(f"output has shape {out.shape}, the reduction gives {shape}")
    return out


cdef object _into_out(r, out, bint device, stream):
    """A moment computed outside the kernels: r itself, or written into `out` (checked as _checked_out)."""
    if out is None:
        return r
    if device:
        from npgpu import _elementwise
        _elementwise.positive(r, out=_checked_out(out, True, r.shape), stream=stream)
    else:
        np.copyto(_checked_out(out, False, np.shape(r)), r, casting="unsafe")
    return out


cdef object _complex_moment(ReduceOp op, a, axis, res, out, ddof, keepdims, stream, bint real_dtype):
    """var/std of complex data as NumPy's: |x - mean|^2 = (re - mean_re)^2 + (im - mean_im)^2, so the
    variance is that of the real parts plus that of the imaginary parts (each the tested float64 kernel).
    The result is real (in the complex dtype= when one is given, as NumPy). nanvar/nanstd leave out the
    elements with a NaN in either part from both parts."""
    if res.kind not in "fc":
        raise TypeError(f"var/std of complex data: dtype {res} is not a floating or complex type")
    real_res = np.dtype(res.char.lower()) if res.kind == "c" else res
    from npgpu import _elementwise
    x = a if isinstance(a, Array) else native_order(np.asarray(a))
    cdef bint nan_op = op == ReduceOp.NanVar or op == ReduceOp.NanStd
    if real_dtype:
        r = _real_dtype_complex_moment(x, axis, res, ddof, keepdims, nan_op,
                                       op == ReduceOp.Std or op == ReduceOp.NanStd)
        return _into_out(r, out, isinstance(x, Array), stream)
    cdef ReduceOp part_op = ReduceOp.NanVar if nan_op else ReduceOp.Var
    parts = _nan_masked_parts(x, stream) if nan_op else (x.real, x.imag)
    var_re, var_im = (_reduce(part_op, part, axis, real_res, _FLOAT64, None, keepdims, float(ddof), stream)
                      for part in parts)
    cdef bint root = op == ReduceOp.Std or op == ReduceOp.NanStd
    if isinstance(x, Array):
        v = _elementwise.add(var_re, var_im, stream=stream)
        r = _elementwise.sqrt(v, stream=stream) if root else v
        if res.kind == "c":
            r = r.astype(res, stream=stream)
        return _into_out(r, out, True, stream)
    v = var_re + var_im
    r = np.sqrt(v) if root else v
    r = r.astype(res) if isinstance(r, np.ndarray) else res.type(r)
    return _into_out(r, out, False, stream)


cdef object _real_dtype_complex_moment(x, axis, res, ddof, keepdims, bint nan_op, bint root):
    """var / std of complex data with a real dtype=, as NumPy computes them: the mean keeps only the real
    parts (NumPy's ComplexWarning), then the squared moduli of the deviations from it, (re - mean)^2 + im^2,
    summed and divided by n - ddof (nan / inf where that is <= 0). nan-functions leave out the elements with
    a NaN in either part."""
    warnings.warn("Casting complex values to real discards the imaginary part", np.exceptions.ComplexWarning,
                  stacklevel=1)
    if isinstance(x, Array):
        import npgpu as xp
    else:
        xp = np
    axes = _axes(axis, x.ndim)
    re, im = x.real.astype(np.float64), x.imag.astype(np.float64)
    if nan_op:
        valid = xp.logical_not(xp.logical_or(xp.isnan(re), xp.isnan(im)))
        re, im = xp.where(valid, re, 0.0), xp.where(valid, im, 0.0)
        n = xp.sum(valid, axis=axes, keepdims=True)
    else:
        n = _reduced_count(x, axis)
    with np.errstate(divide="ignore", invalid="ignore"):
        dev = re - xp.sum(re, axis=axes, keepdims=True) / n
        if nan_op:
            dev = xp.where(valid, dev, 0.0)
        r = xp.sum(dev * dev + im * im, axis=axes, keepdims=True) / xp.maximum(n - ddof, 0)
        if root:
            r = xp.sqrt(r)
    if not keepdims:
        r = r.reshape(tuple([d for i, d in enumerate(r.shape) if i not in axes]))
    if isinstance(r, Array):
        return r.astype(res)
    return r.astype(res) if r.ndim else res.type(r[()])


cdef tuple _nan_masked_parts(x, stream):
    """The real and imaginary parts of complex x, NaN in both where either is NaN (NumPy's nan-functions
    leave such an element out whole)."""
    from npgpu import _elementwise
    gone = _elementwise.isnan(x, stream=stream)
    return tuple([_elementwise.where(gone, np.nan, part, stream=stream) for part in (x.real, x.imag)])


cdef object _complex_nanmean(a, axis, res, out, keepdims, stream):
    """nanmean of complex data as NumPy's: the elements with a NaN in either part left out, the mean of the
    real parts and of the imaginary parts of the rest (the float kernel each)."""
    x = a if isinstance(a, Array) else native_order(np.asarray(a))
    if res.kind != "c":  # NumPy: the real parts' mean in dtype=, with its ComplexWarning
        warnings.warn("Casting complex values to real discards the imaginary part", np.exceptions.ComplexWarning,
                      stacklevel=3)
        return _reduce(ReduceOp.NanMean, _nan_masked_parts(x, stream)[0], axis, res, _FLOAT64, out, keepdims, 0.0,
                       stream)
    real_res = np.dtype(res.char.lower())
    m_re, m_im = (_reduce(ReduceOp.NanMean, part, axis, real_res, _FLOAT64, None, keepdims, 0.0, stream)
                  for part in _nan_masked_parts(x, stream))
    cdef bint device = isinstance(x, Array)
    if out is not None:
        r = _checked_out(out, device, np.shape(m_re))
    elif device:
        r = _array.empty(m_re.shape, dtype=res, device=x.device)
    else:
        r = np.empty(np.shape(m_re), dtype=res)
    r.real[...] = m_re
    r.imag[...] = m_im
    if out is None and isinstance(r, np.ndarray) and r.ndim == 0:
        return r[()]
    return r


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, stream=None, *, correction=None):
    """Variance over the given axes, as numpy.var.

    ``sum(abs(x - mean)**2) / (n - ddof)``, computed in float64 by merging (count, mean, M2) partials (Chan et al.).
    NaN when n - ddof <= 0, as NumPy (inf for a nonzero sum over 0), with NumPy's RuntimeWarning ("Degrees of
    freedom <= 0 for slice", decided from the shape alone). Complex data give a real result, as NumPy: the variance
    of the real parts plus that of the imaginary parts.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Input values. An npgpu.Array is reduced on its device; NumPy input (anything NumPy accepts) on the GPU
        when the backend is 'cuda' (uploaded, the result downloaded), on the host backend (OpenMP) otherwise.
    axis : None, int or tuple of ints, optional
        The axes reduced; None (default) reduces all of them.
    dtype : dtype, optional
        The result's dtype. Default: float64 for bool and integers, the real dtype for complex data, a's dtype
        otherwise (the computation is in float64 whatever the dtype). For complex data a complex dtype gives the
        real result in that dtype (NumPy's), a real one follows NumPy's own computation: the mean of the real
        parts only (NumPy's ComplexWarning), then the squared moduli of the deviations from it.
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result, of the result's shape (values converted to its dtype): an npgpu.Array for an
        npgpu.Array input, a writeable numpy.ndarray for NumPy input. It is returned.
    ddof : int or float, optional
        Delta degrees of freedom: the divisor is n - ddof, n the number of elements reduced (default 0).
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size 1 (default False).
    stream : npgpu.Stream, int or None, optional
        The stream to run on (an npgpu.Stream, a stream handle or an object with ``__cuda_stream__``); None
        (default): the current stream. Device work is queued on it without waiting for it.
    correction : int or float, optional
        The Array API standard's name for `ddof` (keyword only); NumPy 2 takes either, not both.

    Returns
    -------
    npgpu.Array, numpy.ndarray or NumPy scalar
        The variances. An npgpu.Array on a's device for an npgpu.Array input (0-d when every axis is reduced: the
        value stays on the device, ``x.get()`` brings it back); for NumPy input a NumPy array, or a NumPy scalar
        where the result is 0-d; `out` when given.

    Raises
    ------
    ValueError
        Both `ddof` (nonzero) and `correction` given; a repeated axis; `out` of another shape than the result,
        or read-only.
    TypeError
        Complex data with a `dtype` that is neither floating nor complex; `a` a numpy.ndarray subclass (other
        than numpy.memmap); `out` of the wrong kind (as for sum); `stream` of another type.
    numpy.exceptions.AxisError
        An axis outside [-a.ndim, a.ndim).

    Warns
    -----
    RuntimeWarning
        n - ddof <= 0.
    numpy.exceptions.ComplexWarning
        Complex data with a real `dtype` (NumPy's: the mean is that of the real parts only).

    See Also
    --------
    std, nanvar, mean

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2, 3], [4, 5, 6]], device="cpu")
    >>> npgpu.var(a)
    Array(2.91666667)
    >>> npgpu.var(a, axis=1, ddof=1)
    Array([1., 1.])
    >>> float(npgpu.var(np.array([1 + 1j, 1 - 1j])))  # complex data: a real variance
    1.0
    """
    return _moment(ReduceOp.Var, a, axis, dtype, out, ddof, keepdims, stream, correction)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, stream=None, *, correction=None):
    """Standard deviation over the given axes, sqrt(var), as numpy.std.

    The square root of var's ``sum(abs(x - mean)**2) / (n - ddof)``, computed in float64 by merging (count, mean,
    M2) partials (Chan et al.). NaN when n - ddof <= 0, as NumPy (inf for a nonzero sum over 0), with NumPy's
    RuntimeWarning ("Degrees of freedom <= 0 for slice", decided from the shape alone). Complex data give a real
    result, as NumPy: the variance of the real parts plus that of the imaginary parts.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Input values. An npgpu.Array is reduced on its device; NumPy input (anything NumPy accepts) on the GPU
        when the backend is 'cuda' (uploaded, the result downloaded), on the host backend (OpenMP) otherwise.
    axis : None, int or tuple of ints, optional
        The axes reduced; None (default) reduces all of them.
    dtype : dtype, optional
        The result's dtype. Default: float64 for bool and integers, the real dtype for complex data, a's dtype
        otherwise (the computation is in float64 whatever the dtype). For complex data a complex dtype gives the
        real result in that dtype (NumPy's), a real one follows NumPy's own computation: the mean of the real
        parts only (NumPy's ComplexWarning), then the squared moduli of the deviations from it.
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result, of the result's shape (values converted to its dtype): an npgpu.Array for an
        npgpu.Array input, a writeable numpy.ndarray for NumPy input. It is returned.
    ddof : int or float, optional
        Delta degrees of freedom: the divisor is n - ddof, n the number of elements reduced (default 0).
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size 1 (default False).
    stream : npgpu.Stream, int or None, optional
        The stream to run on (an npgpu.Stream, a stream handle or an object with ``__cuda_stream__``); None
        (default): the current stream. Device work is queued on it without waiting for it.
    correction : int or float, optional
        The Array API standard's name for `ddof` (keyword only); NumPy 2 takes either, not both.

    Returns
    -------
    npgpu.Array, numpy.ndarray or NumPy scalar
        The standard deviations. An npgpu.Array on a's device for an npgpu.Array input (0-d when every axis is
        reduced: the value stays on the device, ``x.get()`` brings it back); for NumPy input a NumPy array, or a
        NumPy scalar where the result is 0-d; `out` when given.

    Raises
    ------
    ValueError
        Both `ddof` (nonzero) and `correction` given; a repeated axis; `out` of another shape than the result,
        or read-only.
    TypeError
        Complex data with a `dtype` that is neither floating nor complex; `a` a numpy.ndarray subclass (other
        than numpy.memmap); `out` of the wrong kind (as for sum); `stream` of another type.
    numpy.exceptions.AxisError
        An axis outside [-a.ndim, a.ndim).

    Warns
    -----
    RuntimeWarning
        n - ddof <= 0.
    numpy.exceptions.ComplexWarning
        Complex data with a real `dtype` (NumPy's: the mean is that of the real parts only).

    See Also
    --------
    var, nanstd

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2, 3], [4, 5, 6]], device="cpu")
    >>> npgpu.std(a, axis=0)
    Array([1.5, 1.5, 1.5])
    >>> float(npgpu.std(np.array([1.0, 2.0, 3.0, 4.0]), correction=1))
    1.2909944487358056
    """
    return _moment(ReduceOp.Std, a, axis, dtype, out, ddof, keepdims, stream, correction)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, stream=None):
    """Mean over the given axes ignoring NaNs, as numpy.nanmean.

    NaN for an all-NaN slice. Computed in float64. Complex data as NumPy's: the elements with a NaN in either part
    left out, the mean of the real parts and of the imaginary parts of the rest; a real `dtype` for complex data
    gives the mean of the real parts, with NumPy's ComplexWarning.

    Parameters
    ----------
    a : npgpu.Array or array_like
        Input values. An npgpu.Array is reduced on its device; NumPy input (anything NumPy accepts) on the GPU
        when the backend is 'cuda' (uploaded, the result downloaded), on the host backend (OpenMP) otherwise.
    axis : None, int or tuple of ints, optional
        The axes reduced; None (default) reduces all of them.
    dtype : dtype, optional
        The result's dtype. Default: float64 for bool and integers, a's dtype otherwise.
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result, of the result's shape (values converted to its dtype): an npgpu.Array for an
        npgpu.Array input, a writeable numpy.ndarray for NumPy input. It is returned.
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size 1 (default False).
    stream : npgpu.Stream, int or None, optional
        The stream to run on (an npgpu.Stream, a stream handle or an object with ``__cuda_stream__``); None
        (default): the current stream. Device work is queued on it without waiting for it.

    Returns
    -------
    npgpu.Array, numpy.ndarray or NumPy scalar
        The means of the non-NaN elements. An npgpu.Array on a's device for an npgpu.Array input (0-d when every
        axis is reduced: the value stays on the device, ``x.get()`` brings it back); for NumPy input a NumPy array,
        or a NumPy scalar where the result is 0-d; `out` when given.

    Raises
    ------
    TypeError
        `a` a numpy.ndarray subclass (other than numpy.memmap); `out` not an npgpu.Array for an npgpu.Array
        input, or not a numpy.ndarray for NumPy input; `stream` of another type.
    ValueError
        A repeated axis; `out` of another shape than the result, or read-only.
    numpy.exceptions.AxisError
        An axis outside [-a.ndim, a.ndim).

    Warns
    -----
    numpy.exceptions.ComplexWarning
        Complex data with a real `dtype` (the imaginary parts are discarded).

    See Also
    --------
    mean, nansum, nanvar

    Notes
    -----
    An all-NaN or empty slice gives NaN with NumPy's RuntimeWarning ("Mean of empty slice") for NumPy inputs;
    the results of npgpu.Array inputs are not inspected for it (that would wait for the GPU), so they give no
    warning.

    Examples
    --------
    >>> x = npgpu.asarray([[1.0, np.nan], [2.0, 4.0]], device="cpu")
    >>> npgpu.nanmean(x)
    Array(2.33333333)
    >>> npgpu.nanmean(x, axis=1)
    Array([1., 3.])
    """
    dt = _dtype_of(a)
    res = np.dtype(dtype) if dtype is not None else _float_dtype(dt)
    if dt.kind == "c":
        r = _complex_nanmean(a, axis, res, out, keepdims, stream)
    else:
        r = _reduce(ReduceOp.NanMean, a, axis, res, _FLOAT64, out, keepdims, 0.0, stream)
    return _warn_empty_mean(a, axis, r)


cdef object _warn_empty_mean(object a, object axis, object r):
    """NumPy's RuntimeWarning for a slice without a non-NaN value, read off a host result: only a NaN there
    needs the count (inf - inf is NaN too). Device results are not inspected: that would wait for the GPU."""
    if isinstance(r, Array) or not np.isnan(r).any():
        return r
    x = np.asarray(a)
    if x.size == 0 or np.all(np.isnan(x), axis=axis).any():
        warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=1)
    return r


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, stream=None, *, correction=None):
    """Variance over the given axes ignoring NaNs, as numpy.nanvar.

    var's computation (float64 merges of (count, mean, M2) partials, n - ddof as divisor) over the elements that
    are not NaN (see Notes for a slice with at most ddof of them). Complex data give a real result, from the real
    and imaginary parts of the elements without a NaN part (the variance of the real parts plus that of the
    imaginary parts).

    Parameters
    ----------
    a : npgpu.Array or array_like
        Input values. An npgpu.Array is reduced on its device; NumPy input (anything NumPy accepts) on the GPU
        when the backend is 'cuda' (uploaded, the result downloaded), on the host backend (OpenMP) otherwise.
    axis : None, int or tuple of ints, optional
        The axes reduced; None (default) reduces all of them.
    dtype : dtype, optional
        The result's dtype. Default: float64 for bool and integers, the real dtype for complex data, a's dtype
        otherwise (the computation is in float64 whatever the dtype). For complex data a complex dtype gives the
        real result in that dtype (NumPy's), a real one follows NumPy's own computation: the mean of the real
        parts only (NumPy's ComplexWarning), then the squared moduli of the deviations from it.
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result, of the result's shape (values converted to its dtype): an npgpu.Array for an
        npgpu.Array input, a writeable numpy.ndarray for NumPy input. It is returned.
    ddof : int or float, optional
        Delta degrees of freedom: the divisor is n - ddof, n the number of elements reduced (default 0).
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size 1 (default False).
    stream : npgpu.Stream, int or None, optional
        The stream to run on (an npgpu.Stream, a stream handle or an object with ``__cuda_stream__``); None
        (default): the current stream. Device work is queued on it without waiting for it.
    correction : int or float, optional
        The Array API standard's name for `ddof` (keyword only); NumPy 2 takes either, not both.

    Returns
    -------
    npgpu.Array, numpy.ndarray or NumPy scalar
        The variances of the non-NaN elements. An npgpu.Array on a's device for an npgpu.Array input (0-d when every
        axis is reduced: the value stays on the device, ``x.get()`` brings it back); for NumPy input a NumPy array,
        or a NumPy scalar where the result is 0-d; `out` when given.

    Raises
    ------
    ValueError
        Both `ddof` (nonzero) and `correction` given; a repeated axis; `out` of another shape than the result,
        or read-only.
    TypeError
        Complex data with a `dtype` that is neither floating nor complex; `a` a numpy.ndarray subclass (other
        than numpy.memmap); `out` of the wrong kind (as for sum); `stream` of another type.
    numpy.exceptions.AxisError
        An axis outside [-a.ndim, a.ndim).

    Warns
    -----
    RuntimeWarning
        A slice with at most ddof values that are not NaN ("Degrees of freedom <= 0 for slice").
    numpy.exceptions.ComplexWarning
        Complex data with a real `dtype` (NumPy's: the mean is that of the real parts only).

    See Also
    --------
    var, nanmean

    Notes
    -----
    A slice with at most ddof values that are not NaN gives NaN, as numpy.nanvar and numpy.nanstd; finding such
    slices takes one more pass over the data (a count of the non-NaN values), made only when ddof > 0.

    Examples
    --------
    >>> x = npgpu.asarray([1.0, np.nan, 3.0], device="cpu")
    >>> npgpu.nanvar(x)
    Array(1.)
    >>> npgpu.nanvar(np.array([[1.0, 3.0, np.nan], [2.0, 2.0, 5.0]]), axis=1, ddof=1)
    array([2., 3.])
    """
    return _moment(ReduceOp.NanVar, a, axis, dtype, out, ddof, keepdims, stream, correction)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, stream=None, *, correction=None):
    """Standard deviation over the given axes ignoring NaNs, as numpy.nanstd.

    std's computation (float64 merges of (count, mean, M2) partials, n - ddof as divisor) over the elements that
    are not NaN (see Notes for a slice with at most ddof of them). Complex data give a real result, from the real
    and imaginary parts of the elements without a NaN part (the variance of the real parts plus that of the
    imaginary parts).

    Parameters
    ----------
    a : npgpu.Array or array_like
        Input values. An npgpu.Array is reduced on its device; NumPy input (anything NumPy accepts) on the GPU
        when the backend is 'cuda' (uploaded, the result downloaded), on the host backend (OpenMP) otherwise.
    axis : None, int or tuple of ints, optional
        The axes reduced; None (default) reduces all of them.
    dtype : dtype, optional
        The result's dtype. Default: float64 for bool and integers, the real dtype for complex data, a's dtype
        otherwise (the computation is in float64 whatever the dtype). For complex data a complex dtype gives the
        real result in that dtype (NumPy's), a real one follows NumPy's own computation: the mean of the real
        parts only (NumPy's ComplexWarning), then the squared moduli of the deviations from it.
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result, of the result's shape (values converted to its dtype): an npgpu.Array for an
        npgpu.Array input, a writeable numpy.ndarray for NumPy input. It is returned.
    ddof : int or float, optional
        Delta degrees of freedom: the divisor is n - ddof, n the number of elements reduced (default 0).
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size 1 (default False).
    stream : npgpu.Stream, int or None, optional
        The stream to run on (an npgpu.Stream, a stream handle or an object with ``__cuda_stream__``); None
        (default): the current stream. Device work is queued on it without waiting for it.
    correction : int or float, optional
        The Array API standard's name for `ddof` (keyword only); NumPy 2 takes either, not both.

    Returns
    -------
    npgpu.Array, numpy.ndarray or NumPy scalar
        The standard deviations of the non-NaN elements. An npgpu.Array on a's device for an npgpu.Array input (0-d
        when every axis is reduced: the value stays on the device, ``x.get()`` brings it back); for NumPy input a
        NumPy array, or a NumPy scalar where the result is 0-d; `out` when given.

    Raises
    ------
    ValueError
        Both `ddof` (nonzero) and `correction` given; a repeated axis; `out` of another shape than the result,
        or read-only.
    TypeError
        Complex data with a `dtype` that is neither floating nor complex; `a` a numpy.ndarray subclass (other
        than numpy.memmap); `out` of the wrong kind (as for sum); `stream` of another type.
    numpy.exceptions.AxisError
        An axis outside [-a.ndim, a.ndim).

    Warns
    -----
    RuntimeWarning
        A slice with at most ddof values that are not NaN ("Degrees of freedom <= 0 for slice").
    numpy.exceptions.ComplexWarning
        Complex data with a real `dtype` (NumPy's: the mean is that of the real parts only).

    See Also
    --------
    std, nanmean

    Notes
    -----
    As nanvar: a slice with at most ddof values that are not NaN gives NaN, as numpy.nanstd.

    Examples
    --------
    >>> x = npgpu.asarray([1.0, np.nan, 3.0], device="cpu")
    >>> npgpu.nanstd(x)
    Array(1.)
    >>> npgpu.nanstd(np.array([[1.0, 3.0, np.nan], [2.0, 2.0, 5.0]]), axis=1, ddof=1)
    array([1.41421356, 1.73205081])
    """
    return _moment(ReduceOp.NanStd, a, axis, dtype, out, ddof, keepdims, stream, correction)


def norm(x, ord=None, axis=None, keepdims=False, stream=None):
    """Vector norms, and three matrix norms of 2-D arrays, as numpy.linalg.norm.

    ord None or 2: sqrt of the sum of |x|^2, computed in float64; 1: sum of |x|; inf: max |x|; -inf: min |x|;
    over `axis` (an int, or None: all elements of a 1-D array, the Frobenius norm of a 2-D one). For a 2-D input
    with axis=None, ord 'fro', 1 (max column sum) and inf (max row sum) are the matrix norms; other matrix norms
    raise NotImplementedError.

    Parameters
    ----------
    x : npgpu.Array or array_like
        Input values. An npgpu.Array is reduced on its device; NumPy input on the GPU when the backend is 'cuda',
        on the host backend otherwise.
    ord : {None, 2, 1, inf, -inf, 'fro'}, optional
        The norm (see above); None (default) is the 2-norm (Frobenius for 2-D with axis None).
    axis : None, int or tuple of ints, optional
        The axes of the vector norm; None (default): all the elements. A tuple of two axes takes the Frobenius
        norm over them (ord None or 'fro' only).
    keepdims : bool, optional
        Keep the reduced axes as dimensions of size 1 (default False).
    stream : npgpu.Stream, int or None, optional
        The stream to run on (an npgpu.Stream, a stream handle or an object with ``__cuda_stream__``); None
        (default): the current stream. Device work is queued on it without waiting for it.

    Returns
    -------
    npgpu.Array, numpy.ndarray or NumPy scalar
        The norms, float64 for integer and bool input, the real dtype for complex input, x's dtype otherwise. An
        npgpu.Array on x's device for an npgpu.Array input (0-d for a single norm); for NumPy input a NumPy array
        or, where the result is 0-d, a NumPy scalar.

    Raises
    ------
    NotImplementedError
        Another `ord`; for a 2-D input with axis None an `ord` other than None, 'fro', 1 and inf (ord=2 there
        would be the spectral norm); a tuple of two axes with an `ord` other than None and 'fro'.
    TypeError
        `x` a numpy.ndarray subclass (other than numpy.memmap); `stream` of another type.
    ValueError
        A repeated axis.
    numpy.exceptions.AxisError
        An axis outside [-x.ndim, x.ndim).

    See Also
    --------
    npgpu.linalg.norm, sum

    Examples
    --------
    >>> npgpu.norm(npgpu.asarray([3.0, -4.0], device="cpu"))
    Array(5.)
    >>> m = np.array([[1.0, -2.0], [3.0, 4.0]])
    >>> float(npgpu.norm(m)), float(npgpu.norm(m, ord=1)), float(npgpu.norm(m, ord=np.inf))
    (5.477225575051661, 6.0, 7.0)
    >>> npgpu.norm(m, axis=1)
    array([2.23606798, 5.        ])
    """
    cdef ReduceOp op  # typed: a Python-level enum value would make Cython look for a module npgpu.lib.reduce
    dt = _dtype_of(x)
    res = _real_dtype(dt)
    ndim = x.ndim if isinstance(x, (Array, np.ndarray)) else np.asarray(x).ndim
    if axis is None and ndim == 2 and ord is not None and ord != "fro":
        if ord in (1, math.inf):
            sums = _reduce(ReduceOp.Norm1, x, 0 if ord == 1 else 1, res, res, None, keepdims, 0.0, stream)
            m = _reduce(ReduceOp.Max, sums, None, res, res, None, False, 0.0, stream)
            if keepdims:
                return m.reshape((1, 1)) if isinstance(m, np.ndarray) else _keep2(m, x)
            return m
        raise NotImplementedError(f"norm: matrix norm ord={ord!r} is not implemented (supported: None, 'fro', "
                                  f"1, inf)")
    if isinstance(axis, tuple) and len(axis) == 2 and ord not in (None, "fro"):
        raise NotImplementedError(f"norm: matrix norm ord={ord!r} over two axes is not implemented")
    if ord is None or ord == 2 or ord == "fro":
        op = ReduceOp.Norm2
    elif ord == 1:
        op = ReduceOp.Norm1
    elif ord == math.inf:
        op = ReduceOp.NormInf
    elif ord == -math.inf:
        op = ReduceOp.NormNegInf
    else:
        raise NotImplementedError(f"norm: ord={ord!r} is not implemented (supported: None, 2, 1, inf, -inf, 'fro')")
    return _reduce(op, x, axis, res, res, None, keepdims, 0.0, stream)


def _keep2(m, x):
    if isinstance(m, Array):
        return _reshape_device(m, (1, 1))
    return np.reshape(m, (1, 1))


cdef Array _reshape_device(Array a, tuple shape):
    """A C-contiguous device array seen with another shape of the same size (no copy)."""
    cdef Array src = a if a._view.is_c_contiguous() else a.copy()
    cdef ArrayView v = src._view
    cdef int nd = len(shape)
    cdef int64_t acc = itemsize(v.dtype)
    v.ndim = nd
    for i in range(nd - 1, -1, -1):
        v.shape[i] = shape[i]
        v.strides[i] = acc
        acc *= shape[i]
    return wrap_view(v, src, src.dtype, src.stream)


# ------------------------------------------------------------------------------------------------ scans

cdef bint _scan_then_cast(a, dtype, out):
    """Whether NumPy's result differs from a scan computed in out's dtype: NumPy scans in dtype= (default: the
    input's scan dtype) and casts the result into out (cumsum([0.5] * 4, out=int64 array) is [0, 1, 1, 2], not
    the scan of the values cast first). Integer scans wrap, so an integer out takes them directly."""
    if out is None or isinstance(out, Array) != isinstance(a, Array) or not isinstance(out, (Array, np.ndarray)):
        return False
    if dtype is not None:
        want = np.dtype(dtype)
    else:
        want = _sum_dtype(a.dtype if isinstance(a, (Array, np.ndarray)) else np.asarray(a).dtype)
    return want != out.dtype and not (want.kind in "biu" and out.dtype.kind in "iu")


cdef object _scan(ScanOp op, a, axis, dtype, out, bint exclusive, stream):
    if _scan_then_cast(a, dtype, out):
        r = _scan(op, a, axis, dtype, None, exclusive, stream)
        if out.shape != r.shape:
            raise ValueError(f"output has shape {out.shape}, the scan gives {r.shape}")
        if isinstance(out, Array):
            out[...] = r
        else:
            if not out.flags.writeable:
                raise ValueError("output array is read-only")
            np.copyto(out, r, casting="unsafe")
        return out
    cdef StreamHandle s = resolve_stream(stream)
    cdef Array A, O
    cdef ArrayView hv, ov
    cdef int ax
    cdef int device
    if isinstance(a, Array):
        A = <Array>a
        res = np.dtype(dtype) if dtype is not None else _sum_dtype(A.dtype)
        if axis is None:
            A = _reshape_device(A, (A.size,))
            ax = 0
        else:
            ax = _axes(axis, A.ndim, False)[0]
        if out is None:
            O = new_array(A.shape, res, A._view.device, s)
        else:
            if not isinstance(out, Array):
                raise TypeError(f"out must be an npgpu.Array for a device input, not {type(out).__name__}")
            O = <Array>out
            if O.shape != A.shape:
                raise ValueError(f"output has shape {O.shape}, the scan gives {A.shape}")
        with nogil:
            c_scan(op, A._view, ax, O._view, exclusive, s)
        O.stream = s
        return O
    if isinstance(out, Array):
        raise TypeError("out must be a numpy.ndarray for a NumPy input")
    refuse_subclass(a, "reduction")
    x = native_order(np.asarray(a))
    res = np.dtype(dtype) if dtype is not None else _sum_dtype(x.dtype)
    if axis is None:
        x = x.reshape(-1)
        ax = 0
    else:
        ax = _axes(axis, x.ndim, False)[0]
    if out is not None:
        if not isinstance(out, np.ndarray):
            raise TypeError(f"out must be a numpy.ndarray, not {type(out).__name__}")
        if out.shape != x.shape:
            raise ValueError(f"output has shape {out.shape}, the scan gives {x.shape}")
        if not out.flags.writeable:
            raise ValueError("output array is read-only")
        if np.may_share_memory(x, out) and not (out.__array_interface__["data"][0] ==
                                                x.__array_interface__["data"][0] and out.strides == x.strides):
            x = x.copy()
    if use_cuda_for_host_data() and x.size > 0:
        device = rt.current_device()
        A = upload(np.asarray(x, order="C"), device, s)
        O = new_array(x.shape, res if out is None else out.dtype, device, s)
        with nogil:
            c_scan(op, A._view, ax, O._view, exclusive, s)
        O.stream = s
        if out is not None and out.flags.c_contiguous:
            return O.get(stream=stream, out=out)
        r = O.get(stream=stream)
        if out is not None:
            np.copyto(out, r, casting="unsafe")
            return out
        return r
    result = out if out is not None else np.empty(x.shape, dtype=res)
    if result.size:
        hv = host_view(x, False)
        ov = host_view(result, True)
        with nogil:
            c_scan(op, hv, ax, ov, exclusive, s)
    return result


def cumsum(a, axis=None, dtype=None, out=None, exclusive=False, stream=None):
    """Cumulative sum along an axis, as numpy.cumsum.

    Along `axis` (the flattened array when None), with NumPy's result dtypes. ``exclusive=True`` gives the
    exclusive scan: element i holds the sum of the elements before it (0 first). On the GPU: CUB's decoupled
    look-back scan with 64-bit counts (float32 accumulates in float32 along one row, as NumPy's and CuPy's, in
    float64 along the rows of a multi-dimensional scan and on the host backend).

    Parameters
    ----------
    a : npgpu.Array or array_like
        Input values. An npgpu.Array is scanned on its device; NumPy input (anything NumPy accepts) on the GPU
        when the backend is 'cuda' (uploaded, the result downloaded), on the host backend otherwise.
    axis : None or int, optional
        The axis scanned; None (default) scans the flattened array. A tuple raises TypeError.
    dtype : dtype, optional
        The result's dtype. Default: int64 for bool and signed integers narrower than 64 bits, uint64 for narrower
        unsigned integers, a's dtype otherwise (NumPy's rule). The scan runs in that dtype (integers and bool in
        64 bits) and, as NumPy's, its result is cast into an `out` of another dtype (an integer `out` of an
        integer scan takes its wrapped values directly: the same numbers).
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result, of the result's shape (a's, or (a.size,) when `axis` is None; values converted
        to its dtype): an npgpu.Array for an npgpu.Array input, a writeable numpy.ndarray for NumPy input. It may
        be `a` itself. It is returned.
    exclusive : bool, optional
        False (default): the inclusive scan, as NumPy's; True: the exclusive scan (see above).
    stream : npgpu.Stream, int or None, optional
        The stream to run on (an npgpu.Stream, a stream handle or an object with ``__cuda_stream__``); None
        (default): the current stream. Device work is queued on it without waiting for it.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Of a's shape (1-D when `axis` is None): an npgpu.Array on a's device for an npgpu.Array input, a NumPy
        array for NumPy input; `out` when given.

    Raises
    ------
    TypeError
        A tuple `axis`; `a` a numpy.ndarray subclass (other than numpy.memmap); `out` not an npgpu.Array for an
        npgpu.Array input, or not a numpy.ndarray for NumPy input; `stream` of another type.
    ValueError
        `out` of another shape than the result, or read-only.
    numpy.exceptions.AxisError
        An axis outside [-a.ndim, a.ndim).

    See Also
    --------
    cumprod, sum

    Examples
    --------
    >>> a = npgpu.asarray([[1, 2, 3], [4, 5, 6]], device="cpu")
    >>> npgpu.cumsum(a)
    Array([ 1,  3,  6, 10, 15, 21])
    >>> npgpu.cumsum(a, axis=1, exclusive=True)
    Array([[0, 1, 3],
           [0, 4, 9]])
    >>> npgpu.cumsum(np.array([1, 2, 3], dtype=np.int8))
    array([1, 3, 6])
    """
    return _scan(ScanOp.Sum, a, axis, dtype, out, exclusive, stream)


def cumprod(a, axis=None, dtype=None, out=None, exclusive=False, stream=None):
    """Cumulative product along an axis, as numpy.cumprod.

    Along `axis` (the flattened array when None), with NumPy's result dtypes (integer products wrap as NumPy's).
    ``exclusive=True`` gives the exclusive scan: element i holds the product of the elements before it (1 first).

    Parameters
    ----------
    a : npgpu.Array or array_like
        Input values. An npgpu.Array is scanned on its device; NumPy input (anything NumPy accepts) on the GPU
        when the backend is 'cuda' (uploaded, the result downloaded), on the host backend otherwise.
    axis : None or int, optional
        The axis scanned; None (default) scans the flattened array. A tuple raises TypeError.
    dtype : dtype, optional
        The result's dtype. Default: int64 for bool and signed integers narrower than 64 bits, uint64 for narrower
        unsigned integers, a's dtype otherwise (NumPy's rule). The scan runs in that dtype (integers and bool in
        64 bits) and, as NumPy's, its result is cast into an `out` of another dtype (an integer `out` of an
        integer scan takes its wrapped values directly: the same numbers).
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result, of the result's shape (a's, or (a.size,) when `axis` is None; values converted
        to its dtype): an npgpu.Array for an npgpu.Array input, a writeable numpy.ndarray for NumPy input. It may
        be `a` itself. It is returned.
    exclusive : bool, optional
        False (default): the inclusive scan, as NumPy's; True: the exclusive scan (see above).
    stream : npgpu.Stream, int or None, optional
        The stream to run on (an npgpu.Stream, a stream handle or an object with ``__cuda_stream__``); None
        (default): the current stream. Device work is queued on it without waiting for it.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Of a's shape (1-D when `axis` is None): an npgpu.Array on a's device for an npgpu.Array input, a NumPy
        array for NumPy input; `out` when given.

    Raises
    ------
    TypeError
        A tuple `axis`; `a` a numpy.ndarray subclass (other than numpy.memmap); `out` not an npgpu.Array for an
        npgpu.Array input, or not a numpy.ndarray for NumPy input; `stream` of another type.
    ValueError
        `out` of another shape than the result, or read-only.
    numpy.exceptions.AxisError
        An axis outside [-a.ndim, a.ndim).

    See Also
    --------
    cumsum, prod

    Examples
    --------
    >>> npgpu.cumprod(npgpu.asarray([1, 2, 3, 4], device="cpu"))
    Array([ 1,  2,  6, 24])
    >>> npgpu.cumprod(np.array([[1, 2, 3], [4, 5, 6]]), axis=1, exclusive=True)
    array([[ 1,  1,  2],
           [ 1,  4, 20]])
    """
    return _scan(ScanOp.Prod, a, axis, dtype, out, exclusive, stream)


for _name, _fn in (("sum", sum), ("prod", prod), ("min", min), ("max", max), ("mean", mean), ("var", var),
                   ("std", std), ("argmin", argmin), ("argmax", argmax), ("any", any), ("all", all),
                   ("cumsum", cumsum), ("cumprod", cumprod)):
    _array._register_op(_name, _fn)
