# cython: language_level=3
"""2-D stencils: the 5-point Laplacian and explicit diffusion, every step inside one C++ call."""
import math
import operator

import numpy as np

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport int64_t, uintptr_t
from libcpp cimport bool
from npgpu._array cimport Array, new_array, wrap_view, host_view, upload
from npgpu._runtime cimport resolve_stream, use_cuda_for_host_data
from npgpu.lib cimport runtime as rt
from npgpu.lib.memory cimport copy_bytes
from npgpu.lib.runtime cimport StreamHandle
from npgpu.lib.stencil cimport Boundary, DiffusionCallback
from npgpu.lib.stencil cimport diffusion as c_diffusion, laplacian as c_laplacian
from npgpu.lib.view cimport ArrayView, DType, itemsize, kHostDevice
from npgpu import _array, _elementwise

STABILITY_LIMIT = 0.25  # largest stable coeff of the explicit 5-point scheme in 2-D
BOUNDARIES = ("zero", "periodic", "reflect")
_PINNED_RESULT_MAX = 256 << 20


cdef Boundary _boundary(object b) except *:
    if isinstance(b, str) and b.lower() in BOUNDARIES:
        return <Boundary><int>BOUNDARIES.index(b.lower())
    raise ValueError(f"boundary must be one of {', '.join(repr(x) for x in BOUNDARIES)}, not {b!r}")


cdef _check_field(str name, object dtype, tuple shape):
    if dtype != np.float32 and dtype != np.float64:
        raise TypeError(f"{name}: the field must be float32 or float64, not {dtype} "
                        f"(convert it first, e.g. field.astype(numpy.float32))")
    if len(shape) != 2:
        raise ValueError(f"{name}: the field must be 2-D, got shape {shape}")


cdef _check_host_out(str name, str what, object out, object dtype, tuple shape):
    if not isinstance(out, np.ndarray):
        raise TypeError(f"{name}: {what} must be a numpy.ndarray for a NumPy field, not {type(out).__name__}")
    if out.shape != shape or out.dtype != dtype:
        raise ValueError(f"{name}: {what} has shape {out.shape} and dtype {out.dtype}; the field {shape} {dtype}")
    if not out.flags.writeable:
        raise ValueError(f"{name}: {what} is read-only")


cdef Array _check_device_out(str name, object out, Array f):
    if not isinstance(out, Array):
        raise TypeError(f"{name}: out must be an npgpu.Array for a device field, not {type(out).__name__}")
    cdef Array o = <Array>out
    if o.shape != f.shape or o._dtype != f._dtype or o._view.device != f._view.device:
        # shapes and dtypes, not reprs: a repr would download out, which is often uninitialised
        raise ValueError(f"{name}: out has shape {o.shape}, dtype {o._dtype} on {o.device}; the field "
                         f"{f.shape} {f._dtype} on {f.device}")
    if o._view.readonly:
        raise ValueError(f"{name}: out is read-only")
    return o


cdef bint _is_device(object x):
    return isinstance(x, Array) or (hasattr(x, "__cuda_array_interface__") and not isinstance(x, np.ndarray))


cdef void* _host_ptr(object a):
    return <void*><uintptr_t>a.__array_interface__["data"][0]


# ---------------------------------------------------------------------------------------------- callbacks

cdef class _CallbackCtx:
    cdef object fn
    cdef object error
    cdef object np_dtype
    cdef StreamHandle stream


cdef bool _trampoline(int64_t done, const ArrayView& v, void* user) noexcept with gil:
    cdef _CallbackCtx ctx = <_CallbackCtx>user
    cdef int64_t r = v.shape[0], c = v.shape[1]
    try:
        # A copy: the buffer behind v is overwritten by the next steps.
        if v.device == kHostDevice:
            if v.dtype == DType.Float32:
                field = np.array(<float[:r, :c]><float*>v.data)
            else:
                field = np.array(<double[:r, :c]><double*>v.data)
        else:
            handle = <uintptr_t>ctx.stream
            field = wrap_view(v, None, ctx.np_dtype, ctx.stream).copy(stream=handle if handle else 1)
        ctx.fn(int(done), field)
        return True
    except BaseException as e:
        ctx.error = e
        return False


cdef bool _interrupted(void* user) noexcept with gil:
    """Runs the Python signal handlers (Ctrl-C's KeyboardInterrupt) between diffusion passes."""
    cdef _CallbackCtx ctx = <_CallbackCtx>user
    try:
        PyErr_CheckSignals()
        return False
    except BaseException as e:
        ctx.error = e
        return True


# ---------------------------------------------------------------------------------------------- diffusion

def diffusion(field, steps, coeff=0.25, boundary="zero", return_laplacian=False, out=None, callback=None,
              callback_every=None, unstable_ok=False, stream=None):
    """Explicit 2-D diffusion: `steps` steps of the 5-point scheme, all inside one call.

    Each step is ``field -= coeff * laplacian(field, sign=-1)`` (that is, ``field += coeff * (neighbours - 4 *
    centre)``), computed from the previous field only (double buffering). A NumPy array gives NumPy results,
    computed on the GPU when one is available (one upload, every step on the device, one download) or on the host
    backend otherwise; an npgpu.Array (or another GPU array) gives npgpu.Arrays on its device, with no host
    synchronisation. Ctrl-C (or any signal handler that raises) stops a long run within about 50 ms of the current
    pass and raises; memory does not grow with `steps`.

    Parameters
    ----------
    field : npgpu.Array, GPU array or numpy.ndarray
        The 2-D float32 or float64 field (left unchanged unless it is `out`). An object with
        ``__cuda_array_interface__`` is used on its GPU.
    steps : int
        The number of steps, 0 to 2**63 - 1 (0 copies the field).
    coeff : float, optional
        The diffusion number of each step (default 0.25). Stable for 0 <= coeff <= 0.25 (STABILITY_LIMIT); other
        values raise ValueError unless `unstable_ok`.
    boundary : {'zero', 'periodic', 'reflect'}, optional
        The cells beyond the edges (case-insensitive): "zero" (default; cells outside the field are 0), "periodic"
        (wrap around) or "reflect" (the ghost beyond each edge equals the edge cell: nothing crosses the border and
        the total is conserved).
    return_laplacian : bool, optional
        Also return the Laplacian the last step used (for steps=0, the input's), in the sign the step subtracts:
        ``4 * centre - neighbours`` (reference page 002's), which is ``laplacian(field, sign=-1)``, the negative of
        laplacian's default.
    out : npgpu.Array or numpy.ndarray, optional
        Where the result goes (same shape and dtype; a NumPy array for NumPy fields, an npgpu.Array on the field's
        device for device fields); ``out=field`` updates the field in place.
    callback : callable, optional
        ``callback(steps_done, field)``, called after every `callback_every` steps and after the last; ``field`` is
        a copy of the current field (an npgpu.Array when computing on the GPU, a NumPy array on the host backend).
        An exception raised by the callback stops the run and propagates.
    callback_every : int, optional
        Steps between callbacks, 1 to 2**63 - 1 (default: steps // 100, at least 1).
    unstable_ok : bool, optional
        Allow a `coeff` outside [0, 0.25] (default False): the field would blow up.
    stream : npgpu.Stream, int or None, optional
        The stream to run on (an npgpu.Stream, a stream handle or an object with ``__cuda_stream__``); None
        (default): the current stream.

    Returns
    -------
    field : npgpu.Array or numpy.ndarray
        The field after `steps` steps, of the input's kind, shape and dtype; `out` when given.
    laplacian : npgpu.Array or numpy.ndarray
        Only with `return_laplacian`: the result is the tuple ``(field, laplacian)``.

    Raises
    ------
    TypeError
        `steps` or `callback_every` not an integer; `callback` not callable; a field neither float32 nor float64;
        `out` a NumPy array for a device field or the other way round; `stream` of another type.
    ValueError
        An unknown `boundary`; `steps` or `callback_every` out of range; a `coeff` that is not finite, or outside
        [0, 0.25] without `unstable_ok`; a field that is not 2-D; `out` of another shape, dtype or device, or
        read-only.
    Exception
        Whatever the callback raises, or a signal handler (KeyboardInterrupt for Ctrl-C).

    See Also
    --------
    laplacian

    Examples
    --------
    >>> f = np.zeros((3, 3))
    >>> f[1, 1] = 1.0
    >>> npgpu.diffusion(f, 1)
    array([[0.  , 0.25, 0.  ],
           [0.25, 0.  , 0.25],
           [0.  , 0.25, 0.  ]])
    >>> float(npgpu.diffusion(f, 50, boundary="reflect").sum())  # conserved
    1.0
    >>> field, lap = npgpu.diffusion(npgpu.asarray(f, device="cpu"), 0, return_laplacian=True)
    >>> lap
    Array([[ 0., -1.,  0.],
           [-1.,  4., -1.],
           [ 0., -1.,  0.]])
    >>> def report(done, field):
    ...     print(done, float(field.sum()))
    >>> _ = npgpu.diffusion(f, 4, callback=report, callback_every=3)
    3 0.5
    4 0.375
    """
    cdef str name = "diffusion"
    cdef Boundary b = _boundary(boundary)
    try:
        steps = operator.index(steps)
    except TypeError:
        raise TypeError(f"{name}: steps must be an integer, not {type(steps).__name__}") from None
    if steps < 0 or steps >= 2 ** 63:
        raise ValueError(f"{name}: steps must be between 0 and 2**63 - 1, got {steps}")
    coeff = float(coeff)
    if not math.isfinite(coeff):
        raise ValueError(f"{name}: coeff must be finite, got {coeff}")
    if not unstable_ok and not (0.0 <= coeff <= STABILITY_LIMIT):
        raise ValueError(f"{name}: coeff={coeff} is outside the stable range [0, {STABILITY_LIMIT}] of the explicit "
                         f"2-D scheme (the field would blow up); pass unstable_ok=True to run it anyway")
    cdef int64_t every = 0
    if callback is not None:
        if not callable(callback):
            raise TypeError(f"{name}: callback must be callable, not {type(callback).__name__}")
        if callback_every is None:
            every = max(1, steps // 100)
        else:
            every_arg = operator.index(callback_every)
            if every_arg < 1 or every_arg >= 2 ** 63:
                raise ValueError(f"{name}: callback_every must be between 1 and 2**63 - 1, got {every_arg}")
            every = every_arg
    cdef StreamHandle s = resolve_stream(stream)
    if _is_device(field):
        return _diffusion_device(_array.asarray(field), steps, coeff, b, return_laplacian, out, callback,
                                 every, s)
    return _diffusion_numpy(field, steps, coeff, b, return_laplacian, out, callback, every, s)


cdef object _run(ArrayView& f, ArrayView& o, ArrayView* lap, int64_t steps, double coeff, Boundary b,
                 object callback, int64_t every, object np_dtype, StreamHandle s):
    cdef DiffusionCallback cb
    cdef _CallbackCtx ctx = _CallbackCtx()
    ctx.fn = callback
    ctx.np_dtype = np_dtype
    ctx.stream = s
    cb.user = <void*>ctx
    cb.interrupted = _interrupted  # signal handlers run while the steps go on without the GIL
    if callback is not None:
        cb.fn = _trampoline
        cb.every = every
    cdef DiffusionCallback* pcb = &cb
    with nogil:
        c_diffusion(f, o, lap, steps, coeff, b, s, pcb)
    if ctx.error is not None:
        raise ctx.error


cdef object _diffusion_device(Array f, int64_t steps, double coeff, Boundary b, bint want_lap, object out,
                              object callback, int64_t every, StreamHandle s):
    _check_field("diffusion", f._dtype, f.shape)
    cdef Array o = new_array(f.shape, f._dtype, f._view.device, s) if out is None \
        else _check_device_out("diffusion", out, f)
    cdef Array lap = None
    cdef ArrayView* plap = NULL
    if want_lap:
        lap = new_array(f.shape, f._dtype, f._view.device, s)
        plap = &lap._view
    _run(f._view, o._view, plap, steps, coeff, b, callback, every, f._dtype, s)
    o.stream = s
    if want_lap:
        lap.stream = s
        return o, lap
    return o


cdef object _diffusion_numpy(object field, int64_t steps, double coeff, Boundary b, bint want_lap,
                             object out, object callback, int64_t every, StreamHandle s):
    A = np.asarray(field)
    shape = tuple(A.shape)
    _check_field("diffusion", A.dtype, shape)
    if out is not None:
        _check_host_out("diffusion", "out", out, A.dtype, shape)
    cdef ArrayView vf, vo, vl
    cdef Array d, dlap = None
    cdef ArrayView* plap = NULL
    cdef int64_t nbytes = A.size * A.dtype.itemsize
    if use_cuda_for_host_data() and nbytes > 0:
        # One upload, every step on the device (in place in the uploaded copy), one download.
        device = rt.current_device()
        d = upload(np.ascontiguousarray(A), device, s)
        if want_lap:
            dlap = new_array(shape, A.dtype, device, s)
            plap = &dlap._view
        _run(d._view, d._view, plap, steps, coeff, b, callback, every, A.dtype, s)
        result = _download(d, out, s)
        lap = _download(dlap, None, s) if want_lap else None
    else:
        result = out if out is not None else np.empty(shape, dtype=A.dtype)
        lap = np.empty(shape, dtype=A.dtype) if want_lap else None
        vf = host_view(A, False)
        vo = host_view(result, True)
        if want_lap:
            vl = host_view(lap, True)
            plap = &vl
        _run(vf, vo, plap, steps, coeff, b, callback, every, A.dtype, s)
    return (result, lap) if want_lap else result


cdef object _download(Array d, object out, StreamHandle s):
    """d's data in a NumPy array (out when given); returns when it is there."""
    cdef int64_t nbytes = d._view.size() * itemsize(d._view.dtype)
    shape = d.shape
    if out is not None and out.flags.c_contiguous:
        target = out
    else:
        target = _array.empty_host_result(shape, d._dtype, _PINNED_RESULT_MAX)
    cdef void* dst = _host_ptr(target)
    with nogil:
        copy_bytes(dst, d._view.data, nbytes, s)
        rt.stream_synchronize(s)
    if out is not None and target is not out:
        np.copyto(out, target)
        return out
    return target


# ---------------------------------------------------------------------------------------------- laplacian

def laplacian(field, boundary="zero", out=None, stream=None, *, sign=1):
    """The 5-point Laplacian of a 2-D float32/float64 field.

    The neighbours beyond the edges are taken from `boundary` ("zero", "periodic" or "reflect", as in diffusion).
    NumPy in gives NumPy out (computed on the GPU when one is available); an npgpu.Array (or another GPU array)
    gives an npgpu.Array on its device.

    Parameters
    ----------
    field : npgpu.Array, GPU array or numpy.ndarray
        The 2-D float32 or float64 field.
    boundary : {'zero', 'periodic', 'reflect'}, optional
        The cells beyond the edges (case-insensitive; default "zero"), as in diffusion.
    out : npgpu.Array or numpy.ndarray, optional
        Where the result goes (same shape and dtype; a NumPy array for NumPy fields, an npgpu.Array on the field's
        device for device fields). It must not overlap the field.
    stream : npgpu.Stream, int or None, optional
        The stream to run on (an npgpu.Stream, a stream handle or an object with ``__cuda_stream__``); None
        (default): the current stream.
    sign : {1, -1}, optional
        Keyword only. 1 (default): ``field[i-1, j] + field[i+1, j] + field[i, j-1] + field[i, j+1] - 4 * field[i,
        j]``, the discrete Laplacian of ``scipy.ndimage.laplace`` (its mode "constant" is boundary "zero", "wrap"
        is "periodic", "nearest" is "reflect"). -1: ``4 * field[i, j] - neighbours``, reference page 002's
        convention: the operator a diffusion step subtracts (``field -= coeff * laplacian(field, sign=-1)``), which
        is also the Laplacian that ``diffusion(..., return_laplacian=True)`` returns.

    Returns
    -------
    npgpu.Array or numpy.ndarray
        The Laplacian, of the field's shape and dtype, of the input's kind; `out` when given.

    Raises
    ------
    ValueError
        An unknown `boundary`; `sign` not 1 or -1 (True and False included); a field that is not 2-D; `out` of
        another shape, dtype or device, or read-only; a NumPy `out` that overlaps a NumPy field.
    TypeError
        A field neither float32 nor float64; `out` a NumPy array for a device field or the other way round;
        `stream` of another type.

    See Also
    --------
    diffusion

    Notes
    -----
    The kernels compute ``4 * centre - neighbours``; sign=1 negates their result, so an exact zero comes out as
    -0.0. The overlap of `out` and the field is checked for NumPy fields only.

    Examples
    --------
    >>> g = np.array([[1.0, 2.0], [3.0, 4.0]])
    >>> npgpu.laplacian(g)
    array([[  1.,  -3.],
           [ -7., -11.]])
    >>> npgpu.laplacian(npgpu.asarray(g, device="cpu"), boundary="periodic", sign=-1)
    Array([[-6., -2.],
           [ 2.,  6.]])
    """
    cdef str name = "laplacian"
    cdef Boundary b = _boundary(boundary)
    if sign is True or sign is False or not isinstance(sign, (int, np.integer)) or sign not in (1, -1):
        raise ValueError(f"{name}: sign must be 1 (SciPy's neighbours - 4 * centre) or -1 (4 * centre - "
                         f"neighbours), got {sign!r}")
    # The kernels compute the reference page's 4 * centre - neighbours; SciPy's sign is one negation more.
    negate = sign == 1
    cdef StreamHandle s = resolve_stream(stream)
    cdef Array f, o, d, dl
    cdef ArrayView vf, vo
    if _is_device(field):
        f = _array.asarray(field)
        _check_field(name, f._dtype, f.shape)
        o = new_array(f.shape, f._dtype, f._view.device, s) if out is None else _check_device_out(name, out, f)
        with nogil:
            c_laplacian(f._view, o._view, b, s)
        o.stream = s
        if negate:
            _elementwise.negative(o, out=o, stream=stream)
        return o
    A = np.asarray(field)
    shape = tuple(A.shape)
    _check_field(name, A.dtype, shape)
    if out is not None:
        _check_host_out(name, "out", out, A.dtype, shape)
        if np.may_share_memory(out, A):
            raise ValueError(f"{name}: out overlaps the field")
    cdef int64_t nbytes = A.size * A.dtype.itemsize
    if use_cuda_for_host_data() and nbytes > 0:
        device = rt.current_device()
        d = upload(np.ascontiguousarray(A), device, s)
        dl = new_array(shape, A.dtype, device, s)
        with nogil:
            c_laplacian(d._view, dl._view, b, s)
        dl.stream = s
        if negate:
            _elementwise.negative(dl, out=dl, stream=stream)
        return _download(dl, out, s)
    result = out if out is not None else np.empty(shape, dtype=A.dtype)
    vf = host_view(A, False)
    vo = host_view(result, True)
    with nogil:
        c_laplacian(vf, vo, b, s)
    if negate:
        np.negative(result, out=result)
    return result
