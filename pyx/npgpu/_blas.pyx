# cython: language_level=3
"""Matrix products (matmul, dot, vdot, inner, outer, ``@``) on cuBLAS, and matmul_reduce (reference page
002's ``(A @ B).sum(axis=0)`` without forming A @ B).

NumPy semantics throughout: shapes, broadcasting of batch dimensions, type promotion of mixed dtypes.
npgpu.Array operands are computed on their device and give an npgpu.Array; NumPy operands give NumPy
results, computed on the GPU when the backend is 'cuda' (upload, compute, download into pinned memory) or
by NumPy itself on the host backend ('cpu': NumPy's matmul/dot/vdot/inner/outer, i.e. NumPy's BLAS).
Dtypes: float16, bfloat16 (needs ml_dtypes), float32, float64, complex64, complex128 on cuBLAS. Integer and
bool products are exact with wrap-around, as NumPy's: cuBLAS has no exact integer GEMM for every width, so they
are computed by NumPy on the host (GPU operands are copied there and the result back). Host-device ("cpu")
npgpu.Arrays are computed by NumPy on their memory, without copies, and give host Arrays.
"""
import numpy as np
from numpy.lib.stride_tricks import as_strided

from libc.stdint cimport int64_t, uintptr_t
from npgpu._array cimport (Array, new_array, dtype_code, numpy_dtype, wrap_view, upload as _upload_plain, host_view,
                           host_ndarray, refuse_subclass, wrap_host)
from npgpu._runtime cimport resolve_stream, use_cuda_for_host_data
from npgpu.lib.view cimport kHostDevice
from npgpu.lib cimport runtime as rt
from npgpu.lib.blas cimport MatmulPrecision, MatmulReduceMethod, matmul as c_matmul, vdot as c_vdot, \
    matmul_reduce as c_matmul_reduce, matmul_reduce_from_host as c_matmul_reduce_from_host, \
    cublas_version as c_cublas_version, upload_staged
from npgpu.lib.runtime cimport StreamHandle
from npgpu.lib.view cimport ArrayView, DType, itemsize
from npgpu import _array, _runtime

_PINNED_RESULT_MAX = 256 << 20


# ------------------------------------------------------------------------------------------------ helpers

cdef object _result_dtype(str name, object da, object db):
    """NumPy's promotion of the two operand dtypes, checked against what npgpu's products support (bool and
    integer operands convert to a floating result, as NumPy's)."""
    for d in (da, db):
        if np.dtype(d).kind not in "biu":
            _check_dtype(name, d)
    res = np.result_type(da, db)
    _check_dtype(name, res)
    return res


cdef _check_dtype(str name, object d):
    d = np.dtype(d)
    if d.name in _BLAS_DTYPES and d.isnative:
        return
    raise TypeError(f"{name}: unsupported dtype {d} (npgpu's matrix products take bool, integers, float16, "
                    f"bfloat16, float32, float64, complex64 and complex128)")


_BLAS_DTYPES = ("float16", "bfloat16", "float32", "float64", "complex64", "complex128")


cdef int _precision(object precision) except -1:
    if precision is None or precision == "highest":
        return <int>MatmulPrecision.Highest
    if precision == "tf32":
        return <int>MatmulPrecision.TF32
    raise ValueError(f"precision must be 'highest' or 'tf32', got {precision!r}")


def _matmul_shape(str name, tuple sa, tuple sb):
    """NumPy's matmul result shape; ValueError naming both shapes when they do not align."""
    if len(sa) == 0 or len(sb) == 0:
        raise ValueError(f"{name}: Input operand {0 if len(sa) == 0 else 1} does not have enough dimensions "
                         f"(has 0, gufunc core with signature (n?,k),(k,m?)->(n?,m?) requires 1)")
    ka = sa[-1]
    kb = sb[0] if len(sb) == 1 else sb[-2]
    if ka != kb:
        raise ValueError(f"{name}: shapes {sa} and {sb} not aligned: {ka} (dim {len(sa) - 1}) != {kb} "
                         f"(dim {0 if len(sb) == 1 else len(sb) - 2})")
    ba = sa[:-2]
    bb = sb[:-2]
    try:
        batch = np.broadcast_shapes(ba, bb)
    except ValueError:
        raise ValueError(f"{name}: shapes {sa} and {sb}: batch dimensions {ba} and {bb} do not broadcast") from None
    return tuple(batch) + ((sa[-2],) if len(sa) > 1 else ()) + ((sb[-1],) if len(sb) > 1 else ())


cdef Array _with_view(Array x, tuple shape, tuple strides):
    """A view of x's memory with another shape and strides (bytes), keeping x alive."""
    cdef ArrayView v = x._view
    v.ndim = len(shape)
    for i in range(v.ndim):
        v.shape[i] = shape[i]
        v.strides[i] = strides[i]
    return wrap_view(v, x, x._dtype, x.stream)


cdef tuple _c_strides(tuple shape, int64_t item):
    st = []
    acc = item
    for d in reversed(shape):
        st.append(acc)
        acc *= d if d > 0 else 1
    return tuple(reversed(st))


cdef Array _reshape(Array x, tuple shape, StreamHandle s):
    """x with a new shape: a view when the strides allow it (NumPy's no-copy reshape rules), else a copy."""
    cdef int64_t item = itemsize(x._view.dtype)
    if x._view.is_c_contiguous():
        return _with_view(x, shape, _c_strides(shape, item))
    fake = as_strided(np.empty(1, dtype=f"V{item}"), shape=x.shape, strides=x.strides)
    try:
        r = fake.reshape(shape, copy=False)
        return _with_view(x, shape, tuple(r.strides))
    except (ValueError, TypeError):
        c = x.copy(stream=<uintptr_t>s if <uintptr_t>s != 0 else 1)
        return _with_view(c, shape, _c_strides(shape, item))


cdef Array _transposed(Array x):
    """The view with the last two axes swapped."""
    shape = x.shape
    strides = x.strides
    return _with_view(x, shape[:-2] + (shape[-1], shape[-2]), strides[:-2] + (strides[-1], strides[-2]))


_STAGED_MIN_BYTES = 8 << 20


cdef Array upload(object host, int device, StreamHandle s):
    """A C-contiguous NumPy array on the device: large ones through the pinned staging ring."""
    if host.nbytes < _STAGED_MIN_BYTES:
        return _upload_plain(host, device, s)
    cdef Array a = new_array(tuple(host.shape), host.dtype, device, s)
    cdef ArrayView hv = host_view(host, False)
    with nogil:
        upload_staged(hv, a._view, s)
    return a


cdef Array _to_device(object host, object dtype, int device, StreamHandle s):
    """Upload a NumPy array (converted to dtype); a 2-D+ array whose last two axes swapped are C-contiguous
    (F order, a transposed view) is uploaded as that and handed back as a transposed view: no host copy."""
    host = np.asarray(host)
    if host.dtype != dtype:
        host = host.astype(dtype)
    if host.flags.c_contiguous:
        return upload(host, device, s)
    if host.ndim >= 2:
        sw = np.swapaxes(host, -1, -2)
        if sw.flags.c_contiguous:
            return _transposed(upload(sw, device, s))
    return upload(np.ascontiguousarray(host), device, s)


cdef object _download(Array r, object out, StreamHandle s):
    """The device result as a NumPy array (in pinned memory when it fits), or copied into `out`."""
    host = _array.empty_host_result(r.shape, r.dtype, _PINNED_RESULT_MAX)
    r.get(stream=<uintptr_t>s if <uintptr_t>s != 0 else 1, out=host)
    if out is not None:
        np.copyto(out, host, casting="same_kind")
        return out
    return host[()] if host.ndim == 0 else host


def _host(fn, res, A, B, out=None):
    """NumPy's own product on the host backend. bfloat16 (where NumPy's loops, through ml_dtypes, return
    float32) is multiplied in float32 and rounded once to bfloat16, as the GPU path does."""
    if np.dtype(res).name == "bfloat16":
        r = np.asarray(fn(np.asarray(A).astype(np.float32), np.asarray(B).astype(np.float32))).astype(res)
        if out is not None:
            np.copyto(out, r, casting="same_kind")
            return out
        return r[()] if r.ndim == 0 else r
    return fn(A, B) if out is None else fn(A, B, out=out)


_NOT_HERE = object()


cdef object _numpy_computes(str name, object np_fn, object npgpu_fn, tuple operands, object out, dict kwargs):
    """The products NumPy computes: those of host-device Arrays (on their memory: no copies; the result a host
    Array) and integer or bool products (exact, with wrap-around, as NumPy's; GPU operands are copied to the
    host and the result back). _NOT_HERE for every other call."""
    for x in operands:
        if x is None:
            raise TypeError(f"{name}: operands must be arrays or numbers, not None")
        refuse_subclass(x, name)
    arrays = [x for x in operands + (out,) if isinstance(x, Array)]
    if arrays:
        device = (<Array>arrays[0])._view.device
        for x in arrays:
            if (<Array>x)._view.device != device:
                raise ValueError(f"{name}: operands are on different devices ({arrays[0].device} and {x.device})")
        _check_no_host_mix(name, operands + (out,))
        if device != kHostDevice and np.result_type(*[x.dtype for x in operands]).kind not in "biu":
            return _NOT_HERE
        nd = [host_ndarray(<Array>x) if device == kHostDevice else (<Array>x).get() for x in operands]
        if np.result_type(*[x.dtype for x in nd]).kind in "biu":
            r = np_fn(*nd, **kwargs)
        else:
            with _runtime.use_backend("cpu"):
                r = npgpu_fn(*nd, **kwargs)
        r = np.asarray(r)
        if out is not None:
            if (<Array>out).shape != r.shape:
                raise ValueError(f"{name}: output shape {out.shape} does not match the result shape {r.shape}")
            if not np.can_cast(r.dtype, out.dtype, casting="same_kind"):
                raise TypeError(f"{name}: cannot cast the result from {r.dtype} to the output's {out.dtype} with "
                                f"casting rule 'same_kind'")
            out[...] = _array.asarray(r.astype(out.dtype, copy=False), device=out.device)
            return out
        return _array.asarray(r, device=arrays[0].device)
    dts = [np.asarray(x).dtype for x in operands]
    if np.result_type(*dts).kind in "biu":
        host = [np.asarray(x) for x in operands]
        return np_fn(*host, **kwargs) if out is None else np_fn(*host, out=out, **kwargs)
    return _NOT_HERE


cdef object _stream_obj(StreamHandle s):
    return <uintptr_t>s if <uintptr_t>s != 0 else 1


cdef bint _is_device(object x):
    return isinstance(x, Array)


cdef bint _is_scalar(object x):
    """A Python or NumPy number (not None, not an array)."""
    return isinstance(x, (bool, int, float, complex, np.generic)) and not isinstance(x, np.ndarray)


cdef _check_no_host_mix(str name, tuple xs):
    for x in xs:
        if not isinstance(x, Array) and x is not None:
            raise TypeError(f"{name}: cannot mix a host operand ({type(x).__name__}) with npgpu device arrays; "
                            f"move it first with npgpu.asarray(x)")


cdef Array _device_out(str name, object out, tuple shape, object res, int device, StreamHandle s, bint exact):
    cdef Array o
    if out is None:
        return new_array(shape, res, device, s)
    if not isinstance(out, Array):
        raise TypeError(f"{name}: out must be an npgpu.Array for device operands, not {type(out).__name__}")
    o = <Array>out
    if o.shape != shape:
        raise ValueError(f"{name}: output shape {o.shape} does not match the result shape {shape}")
    if o._view.device != device:
        raise ValueError(f"{name}: out is on device {o._view.device}, the operands on {device}")
    if o._view.readonly:
        raise ValueError(f"{name}: output array is read-only")
    if exact:
        if o._dtype != res or not o._view.is_c_contiguous():
            raise ValueError(f"{name}: output array is not acceptable (must have the right datatype "
                             f"({res}), number of dimensions, and be C-contiguous)")
    else:
        _check_dtype(name, o._dtype)
        if not np.can_cast(res, o._dtype, casting="same_kind"):
            raise TypeError(f"{name}: cannot cast the result from {res} to the output's {o._dtype} with casting "
                            f"rule 'same_kind'")
    return o


cdef int _common_device(str name, tuple xs) except -2:
    cdef int device = (<Array>xs[0])._view.device
    for x in xs:
        if (<Array>x)._view.device != device:
            raise ValueError(f"{name}: operands are on different devices ({device} and {(<Array>x)._view.device})")
    return device


cdef Array _cast(Array x, object res, StreamHandle s):
    return x if x._dtype == res else x.astype(res, stream=_stream_obj(s))


cdef _call_matmul(Array a, Array b, Array o, int prec, StreamHandle s):
    cdef MatmulPrecision p = <MatmulPrecision>prec
    with nogil:
        c_matmul(a._view, b._view, o._view, p, s)
    o.stream = s


cdef object _host_out_check(str name, object out, tuple shape, object res):
    if out is None:
        return None
    if isinstance(out, tuple) and len(out) == 1:
        out = out[0]
    if not isinstance(out, np.ndarray):
        raise TypeError(f"{name}: out must be a numpy.ndarray for NumPy operands, not {type(out).__name__}")
    if out.shape != shape:
        raise ValueError(f"{name}: output shape {out.shape} does not match the result shape {shape}")
    if not out.flags.writeable:
        raise ValueError(f"{name}: output array is read-only")
    if not np.can_cast(res, out.dtype, casting="same_kind"):
        raise TypeError(f"{name}: cannot cast the result from {res} to the output's {out.dtype} with casting rule "
                        f"'same_kind'")
    return out


# ------------------------------------------------------------------------------------------------ matmul

cdef Array _matmul_device(Array a, Array b, object out, object res, int prec, StreamHandle s):
    cdef int device = _common_device("matmul", (a, b))
    shape = _matmul_shape("matmul", a.shape, b.shape)
    cdef Array o = _device_out("matmul", out, shape, res, device, s, False)
    _call_matmul(_cast(a, res, s), _cast(b, res, s), o, prec, s)
    return o


def matmul(a, b, out=None, precision="highest", stream=None):
    """Matrix product ``a @ b`` with NumPy's matmul semantics, on cuBLAS.

    1-D operands are promoted (a row vector on the left, a column on the right, the added dimension removed
    from the result); dimensions before the last two are batch dimensions and broadcast, and stacked products
    run as cuBLAS strided-batched GEMMs. C- and F-ordered, transposed and sliced operands are read in place
    (transpose flags and leading dimensions, no copies) whenever each matrix has a unit stride along one
    axis. Matrix-vector products use cuBLAS gemv, vector-vector products cuBLAS dot.

    Dtypes: float16 and bfloat16 (multiplied and accumulated in float32, rounded once on store: what NumPy's
    float16 matmul loop does), float32, float64, complex64, complex128; mixed dtypes promote as NumPy's.
    Integer and bool operands are multiplied exactly, with wrap-around, by NumPy on the host (GPU operands
    are copied there and back: cuBLAS has no exact integer GEMM). ``precision``: 'highest' (default; true
    float32 arithmetic) or 'tf32' (float32/complex64 inputs rounded to TF32 on tensor cores: about 3
    decimal digits per product, much faster). Shapes that do not align raise ValueError naming both shapes.

    npgpu.Array operands give an npgpu.Array on their device (``out`` an npgpu.Array of the result's shape;
    its dtype may differ under 'same_kind' casting; it may be an operand: ``a @= b``). NumPy operands give a
    NumPy result: on the GPU when the backend is 'cuda' (uploaded, computed, downloaded), else NumPy's own
    matmul (its BLAS) on the host backend. Host-device ("cpu") npgpu.Arrays are computed by NumPy on their
    memory, without copies, and give host Arrays.

    Parameters
    ----------
    a, b : npgpu.Array, numpy.ndarray or array_like
        The operands, of at least one dimension; both npgpu.Arrays on one device, or both host data.
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result: of the result's shape, of a dtype the result casts to under 'same_kind';
        an npgpu.Array on the operands' device for device operands, a writeable NumPy array (or a tuple of
        one) for NumPy operands.
    precision : {'highest', 'tf32'}, optional
        'highest' (default; None means the same) or 'tf32', for cuBLAS. Products NumPy computes (the host
        backend, host-device Arrays, integers and bool) ignore it.
    stream : Stream, optional
        The stream of the GPU work (default: the current stream).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        The product, of shape ``broadcast(batch dims) + (n, m)`` less the dimensions of 1-D operands; `out`
        when given. A product of two 1-D NumPy operands is a NumPy scalar; of two 1-D npgpu.Arrays a 0-d
        npgpu.Array.

    Raises
    ------
    ValueError
        The shapes do not align, the batch dimensions do not broadcast, an operand is 0-d, the operands (or
        `out`) are on different devices, `out` has another shape or is read-only, or `precision` is not
        'highest' or 'tf32'.
    TypeError
        An operand is None, an ndarray subclass or of a dtype npgpu's products do not take; host operands
        are mixed with npgpu.Arrays; or `out` is of the wrong kind (an npgpu.Array for device operands, a
        NumPy array for NumPy operands) or cannot hold the result under 'same_kind' casting.
    GPUUnavailableError
        NumPy operands while the backend is 'cuda' (``NPGPU_BACKEND=cuda``) and no GPU is usable.

    See Also
    --------
    dot, inner, outer, vdot : NumPy's other products.
    matmul_reduce : ``(a @ b).sum(axis)`` without forming ``a @ b``.

    Examples
    --------
    >>> a = npgpu.asarray([[1., 2.], [3., 4.]], device="cpu")
    >>> b = npgpu.asarray([[5., 6.], [7., 8.]], device="cpu")
    >>> npgpu.matmul(a, b)
    Array([[19., 22.],
           [43., 50.]])
    >>> npgpu.matmul(a, npgpu.asarray([1., 1.], device="cpu"))  # 1-D on the right: a column
    Array([3., 7.])

    Batch dimensions broadcast; integer products are exact (NumPy's):

    >>> npgpu.matmul(np.ones((2, 3, 4)), np.ones((4, 5))).shape
    (2, 3, 5)
    >>> npgpu.matmul(np.arange(6).reshape(2, 3), np.arange(6).reshape(3, 2))
    array([[10, 13],
           [28, 40]])
    """
    cdef StreamHandle s = resolve_stream(stream)
    cdef int prec = _precision(precision)
    r = _numpy_computes("matmul", np.matmul, matmul, (a, b), out, {})
    if r is not _NOT_HERE:
        return r
    if _is_device(a) or _is_device(b) or _is_device(out):
        _check_no_host_mix("matmul", (a, b, out))
        res = _result_dtype("matmul", a.dtype, b.dtype)
        return _matmul_device(<Array>a, <Array>b, out, res, prec, s)
    A = np.asarray(a)
    B = np.asarray(b)
    res = _result_dtype("matmul", A.dtype, B.dtype)
    shape = _matmul_shape("matmul", A.shape, B.shape)
    out = _host_out_check("matmul", out, shape, res)
    if not use_cuda_for_host_data() or _prod(shape) == 0:
        return _host(np.matmul, res, A, B, out)
    cdef int device = rt.current_device()
    r = _matmul_device(_to_device(A, res, device, s), _to_device(B, res, device, s), None, res, prec, s)
    return _download(r, out, s)


def _prod(shape):
    n = 1
    for d in shape:
        n *= d
    return n


# ------------------------------------------------------------------------------------------------ dot family

cdef Array _scale_device(Array scalar, Array x, tuple shape, Array o, int prec, StreamHandle s):
    """o (of x's shape) = scalar * x, as the k = 1 product (n, 1) @ (1, 1) -> (n, 1)."""
    n = x.size
    cdef Array xf = _reshape(x, (n, 1), s)
    cdef Array sf = _reshape(scalar, (1, 1), s)
    cdef Array of = _reshape(o, (n, 1), s) if o._view.is_c_contiguous() else None
    if of is None:
        raise ValueError("output array must be C-contiguous")
    _call_matmul(xf, sf, of, prec, s)
    return o


cdef Array _dot_device(Array a, Array b, object out, StreamHandle s):
    cdef int device = _common_device("dot", (a, b))
    res = _result_dtype("dot", a._dtype, b._dtype)
    a = _cast(a, res, s)
    b = _cast(b, res, s)
    cdef int hi = <int>MatmulPrecision.Highest
    cdef Array o, A2, B3, O3
    if a.ndim == 0 or b.ndim == 0:
        x, sc = (b, a) if a.ndim == 0 else (a, b)
        o = _device_out("dot", out, x.shape, res, device, s, True)
        if x.size:
            _scale_device(sc, x, x.shape, o, hi, s)
        return o
    ka = a.shape[-1]
    kb = b.shape[0] if b.ndim == 1 else b.shape[-2]
    if ka != kb:
        raise ValueError(f"dot: shapes {a.shape} and {b.shape} not aligned: {ka} (dim {a.ndim - 1}) != {kb} "
                         f"(dim {0 if b.ndim == 1 else b.ndim - 2})")
    if a.ndim <= 2 and b.ndim <= 2 or b.ndim == 1 or a.ndim == 1:
        # Here dot and matmul agree (N-D . 1-D, 1-D . M-D and the 2-D cases).
        shape = _matmul_shape("dot", a.shape, b.shape)
        o = _device_out("dot", out, shape, res, device, s, True)
        _call_matmul(a, b, o, hi, s)
        return o
    # N-D . M-D: out[i..., j..., n] = sum_k a[i..., k] b[j..., k, n]; as a batch over j of (P, K) @ (K, N)
    # written straight into out seen as (Q, P, N).
    shape = a.shape[:-1] + b.shape[:-2] + (b.shape[-1],)
    o = _device_out("dot", out, shape, res, device, s, True)
    P = _prod(a.shape[:-1])
    Q = _prod(b.shape[:-2])
    N = b.shape[-1]
    if P * Q * N == 0:
        return o
    A2 = _reshape(a, (P, ka), s)
    B3 = _reshape(b, (Q, ka, N), s)
    item = o.itemsize
    O3 = _with_view(o, (Q, P, N), (N * item, Q * N * item, item))
    _call_matmul(A2, B3, O3, hi, s)
    return o


def dot(a, b, out=None, stream=None):
    """NumPy's ``dot``: inner product of vectors, matrix product of 2-D arrays, sum product of N-D arrays.

    The inner product of vectors, the matrix product of 2-D arrays, a sum over the last axis of `a` and the
    second-to-last of `b` for N-D arrays (``dot(a, b)[i, j, k, m] = sum(a[i, j, :] * b[k, :, m])``), a
    product with a scalar for 0-d operands. On cuBLAS (dot, gemv, GEMM and strided-batched GEMM writing
    straight into the result); dtypes and backends as :func:`matmul`. ``out`` must have the exact result
    dtype and shape and be C-contiguous, as NumPy requires.

    Parameters
    ----------
    a, b : npgpu.Array, numpy.ndarray or array_like
        The operands; both npgpu.Arrays on one device, or both host data.
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result (see above); an npgpu.Array for device operands, a NumPy array for NumPy
        operands.
    stream : Stream, optional
        The stream of the GPU work (default: the current stream).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        The product; `out` when given. Two 1-D NumPy operands give a NumPy scalar, two 1-D npgpu.Arrays a
        0-d npgpu.Array.

    Raises
    ------
    ValueError
        The shapes do not align, the operands (or `out`) are on different devices, or `out` is not
        acceptable (shape, dtype, C-contiguity; read-only).
    TypeError
        An operand is None, an ndarray subclass or of a dtype npgpu's products do not take; host operands
        are mixed with npgpu.Arrays; or `out` is of the wrong kind (an npgpu.Array for device operands, a
        NumPy array for NumPy operands) or cannot hold the result under 'same_kind' casting.
    GPUUnavailableError
        NumPy operands while the backend is 'cuda' (``NPGPU_BACKEND=cuda``) and no GPU is usable.

    See Also
    --------
    matmul, vdot, inner

    Examples
    --------
    >>> v = npgpu.asarray([1., 2., 3.], device="cpu")
    >>> npgpu.dot(v, npgpu.asarray([4., 5., 6.], device="cpu"))
    Array(32.)
    >>> npgpu.dot(npgpu.asarray(2.0, device="cpu"), v)
    Array([2., 4., 6.])
    >>> npgpu.dot(np.ones((2, 3, 4)), np.ones((5, 4, 6))).shape
    (2, 3, 5, 6)
    """
    cdef StreamHandle s = resolve_stream(stream)
    # a scalar factor, as NumPy's dot takes one: a 0-d array of its NumPy dtype on the other's device
    if _is_device(a) and _is_scalar(b):
        b = _array.asarray(np.asarray(b), device=a.device)
    elif _is_device(b) and _is_scalar(a):
        a = _array.asarray(np.asarray(a), device=b.device)
    r = _numpy_computes("dot", np.dot, dot, (a, b), out, {})
    if r is not _NOT_HERE:
        return r
    if _is_device(a) or _is_device(b) or _is_device(out):
        _check_no_host_mix("dot", (a, b, out))
        return _dot_device(<Array>a, <Array>b, out, s)
    A = np.asarray(a)
    B = np.asarray(b)
    res = _result_dtype("dot", A.dtype, B.dtype)
    if A.ndim and B.ndim:
        ka = A.shape[-1]
        kb = B.shape[0] if B.ndim == 1 else B.shape[-2]
        if ka != kb:
            raise ValueError(f"dot: shapes {A.shape} and {B.shape} not aligned: {ka} (dim {A.ndim - 1}) != {kb} "
                             f"(dim {0 if B.ndim == 1 else B.ndim - 2})")
    if not use_cuda_for_host_data() or A.size == 0 or B.size == 0:
        return _host(np.dot, res, A, B, out)
    cdef int device = rt.current_device()
    r = _dot_device(_to_device(A, res, device, s), _to_device(B, res, device, s), None, s)
    if out is not None:
        if not isinstance(out, np.ndarray) or out.shape != r.shape or out.dtype != res or not out.flags.c_contiguous:
            raise ValueError("dot: output array is not acceptable (must have the right datatype, number of "
                             "dimensions, and be a C-Array)")
    return _download(r, out, s)


cdef Array _ravel(Array x, StreamHandle s):
    return _reshape(x, (x.size,), s)


cdef Array _vdot_device(Array a, Array b, StreamHandle s):
    cdef int device = _common_device("vdot", (a, b))
    res = _result_dtype("vdot", a._dtype, b._dtype)
    if a.size != b.size:
        raise ValueError(f"vdot: vectors have different lengths ({a.size} and {b.size}; shapes {a.shape} and "
                         f"{b.shape})")
    cdef Array A = _ravel(_cast(a, res, s), s)
    cdef Array B = _ravel(_cast(b, res, s), s)
    cdef Array o = new_array((), res, device, s)
    with nogil:
        c_vdot(A._view, B._view, o._view, s)
    o.stream = s
    return o


def vdot(a, b, stream=None):
    """NumPy's ``vdot``: ``sum(conj(a.ravel()) * b.ravel())`` (the first operand conjugated when complex).

    Through cuBLAS dot. Dtypes and backends as :func:`matmul`; device operands give a 0-d npgpu.Array, NumPy
    operands a NumPy scalar.

    Parameters
    ----------
    a, b : npgpu.Array, numpy.ndarray or array_like
        Operands of the same size (any shapes: they are flattened); both npgpu.Arrays on one device, or both
        host data.
    stream : Stream, optional
        The stream of the GPU work (default: the current stream).

    Returns
    -------
    npgpu.Array or NumPy scalar
        The sum of products.

    Raises
    ------
    ValueError
        The operands have different sizes, or are on different devices.
    TypeError
        An operand is None, an ndarray subclass or of a dtype npgpu's products do not take, or host operands
        are mixed with npgpu.Arrays.
    GPUUnavailableError
        NumPy operands while the backend is 'cuda' (``NPGPU_BACKEND=cuda``) and no GPU is usable.

    See Also
    --------
    dot, inner

    Examples
    --------
    >>> x = npgpu.asarray([1 + 2j, 3 - 1j], device="cpu")
    >>> y = npgpu.asarray([2 + 0j, 1j], device="cpu")
    >>> npgpu.vdot(x, y)
    Array(1.-1.j)
    >>> npgpu.vdot(y, x)
    Array(1.+1.j)
    """
    cdef StreamHandle s = resolve_stream(stream)
    r = _numpy_computes("vdot", np.vdot, vdot, (a, b), None, {})
    if r is not _NOT_HERE:
        return r
    if _is_device(a) or _is_device(b):
        _check_no_host_mix("vdot", (a, b))
        return _vdot_device(<Array>a, <Array>b, s)
    A = np.asarray(a)
    B = np.asarray(b)
    res = _result_dtype("vdot", A.dtype, B.dtype)
    if A.size != B.size:
        raise ValueError(f"vdot: vectors have different lengths ({A.size} and {B.size}; shapes {A.shape} and "
                         f"{B.shape})")
    if not use_cuda_for_host_data() or A.size == 0:
        return _host(np.vdot, res, A, B)
    cdef int device = rt.current_device()
    return _download(_vdot_device(_to_device(A, res, device, s), _to_device(B, res, device, s), s), None, s)


cdef Array _inner_device(Array a, Array b, StreamHandle s):
    cdef int device = _common_device("inner", (a, b))
    res = _result_dtype("inner", a._dtype, b._dtype)
    a = _cast(a, res, s)
    b = _cast(b, res, s)
    cdef Array o
    if a.ndim == 0 or b.ndim == 0:
        x, sc = (b, a) if a.ndim == 0 else (a, b)
        o = new_array(x.shape, res, device, s)
        if x.size:
            _scale_device(sc, x, x.shape, o, <int>MatmulPrecision.Highest, s)
        return o
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"inner: shapes {a.shape} and {b.shape} not aligned: {a.shape[-1]} (dim {a.ndim - 1}) "
                         f"!= {b.shape[-1]} (dim {b.ndim - 1})")
    shape = a.shape[:-1] + b.shape[:-1]
    o = new_array(shape, res, device, s)
    K = a.shape[-1]
    P = _prod(a.shape[:-1])
    Q = _prod(b.shape[:-1])
    if P * Q == 0:
        return o
    cdef Array A2 = _reshape(a, (P, K), s)
    cdef Array B2 = _transposed(_reshape(b, (Q, K), s))
    item = o.itemsize
    _call_matmul(A2, B2, _with_view(o, (P, Q), (Q * item, item)), <int>MatmulPrecision.Highest, s)
    return o


def inner(a, b, stream=None):
    """NumPy's ``inner``: sums over the last axes, ``inner(a, b)[i..., j...] = sum(a[i..., :] * b[j..., :])``.

    A GEMM with `b` read transposed in place; a product with a scalar for 0-d operands. Dtypes and backends
    as :func:`matmul`.

    Parameters
    ----------
    a, b : npgpu.Array, numpy.ndarray or array_like
        The operands, of the same last dimension (or 0-d); both npgpu.Arrays on one device, or both host
        data.
    stream : Stream, optional
        The stream of the GPU work (default: the current stream).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Of shape ``a.shape[:-1] + b.shape[:-1]``. Two 1-D NumPy operands give a NumPy scalar.

    Raises
    ------
    ValueError
        The last dimensions differ, or the operands are on different devices.
    TypeError
        An operand is None, an ndarray subclass or of a dtype npgpu's products do not take, or host operands
        are mixed with npgpu.Arrays.
    GPUUnavailableError
        NumPy operands while the backend is 'cuda' (``NPGPU_BACKEND=cuda``) and no GPU is usable.

    See Also
    --------
    dot, matmul, outer

    Examples
    --------
    >>> a = npgpu.asarray([[1., 2.], [3., 4.]], device="cpu")
    >>> npgpu.inner(a, npgpu.asarray([[5., 6.], [7., 8.]], device="cpu"))
    Array([[17., 23.],
           [39., 53.]])
    >>> float(npgpu.inner(np.array([1., 2., 3.]), np.array([0., 1., 0.])))
    2.0
    """
    cdef StreamHandle s = resolve_stream(stream)
    r = _numpy_computes("inner", np.inner, inner, (a, b), None, {})
    if r is not _NOT_HERE:
        return r
    if _is_device(a) or _is_device(b):
        _check_no_host_mix("inner", (a, b))
        return _inner_device(<Array>a, <Array>b, s)
    A = np.asarray(a)
    B = np.asarray(b)
    res = _result_dtype("inner", A.dtype, B.dtype)
    if A.ndim and B.ndim and A.shape[-1] != B.shape[-1]:
        raise ValueError(f"inner: shapes {A.shape} and {B.shape} not aligned: {A.shape[-1]} (dim {A.ndim - 1}) "
                         f"!= {B.shape[-1]} (dim {B.ndim - 1})")
    if not use_cuda_for_host_data() or A.size == 0 or B.size == 0:
        return _host(np.inner, res, A, B)
    cdef int device = rt.current_device()
    return _download(_inner_device(_to_device(A, res, device, s), _to_device(B, res, device, s), s), None, s)


cdef Array _outer_device(Array a, Array b, object out, StreamHandle s):
    cdef int device = _common_device("outer", (a, b))
    res = _result_dtype("outer", a._dtype, b._dtype)
    M = a.size
    N = b.size
    cdef Array o = _device_out("outer", out, (M, N), res, device, s, False)
    if M * N == 0:
        return o
    cdef Array A = _reshape(_cast(a, res, s), (M, 1), s)
    cdef Array B = _reshape(_cast(b, res, s), (1, N), s)
    _call_matmul(A, B, o, <int>MatmulPrecision.Highest, s)
    return o


def outer(a, b, out=None, stream=None):
    """NumPy's ``outer``: ``out[i, j] = a.ravel()[i] * b.ravel()[j]``, as a rank-1 (k = 1) cuBLAS GEMM.

    Dtypes and backends as :func:`matmul`.

    Parameters
    ----------
    a, b : npgpu.Array, numpy.ndarray or array_like
        The operands (any shapes: they are flattened); both npgpu.Arrays on one device, or both host data.
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result: of shape ``(a.size, b.size)``, of a dtype the result casts to under
        'same_kind'; an npgpu.Array for device operands, a writeable NumPy array for NumPy operands.
    stream : Stream, optional
        The stream of the GPU work (default: the current stream).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        Of shape ``(a.size, b.size)``; `out` when given.

    Raises
    ------
    ValueError
        The operands (or `out`) are on different devices, or `out` has another shape or is read-only.
    TypeError
        An operand is None, an ndarray subclass or of a dtype npgpu's products do not take; host operands
        are mixed with npgpu.Arrays; or `out` is of the wrong kind (an npgpu.Array for device operands, a
        NumPy array for NumPy operands) or cannot hold the result under 'same_kind' casting.
    GPUUnavailableError
        NumPy operands while the backend is 'cuda' (``NPGPU_BACKEND=cuda``) and no GPU is usable.

    See Also
    --------
    inner, matmul

    Examples
    --------
    >>> npgpu.outer(np.array([1., 2.]), np.array([1., 10., 100.]))
    array([[  1.,  10., 100.],
           [  2.,  20., 200.]])
    """
    cdef StreamHandle s = resolve_stream(stream)
    r = _numpy_computes("outer", np.outer, outer, (a, b), out, {})
    if r is not _NOT_HERE:
        return r
    if _is_device(a) or _is_device(b) or _is_device(out):
        _check_no_host_mix("outer", (a, b, out))
        return _outer_device(<Array>a, <Array>b, out, s)
    A = np.asarray(a)
    B = np.asarray(b)
    res = _result_dtype("outer", A.dtype, B.dtype)
    out = _host_out_check("outer", out, (A.size, B.size), res)
    if not use_cuda_for_host_data() or A.size == 0 or B.size == 0:
        return _host(np.outer, res, A, B, out)
    cdef int device = rt.current_device()
    return _download(_outer_device(_to_device(A, res, device, s), _to_device(B, res, device, s), None, s), out, s)


# ------------------------------------------------------------------------------------------------ matmul_reduce

cdef int _reduce_axis(object axis) except -1:
    try:
        ax = int(axis)
    except (TypeError, ValueError):
        raise TypeError(f"matmul_reduce: axis must be 0 or 1, got {axis!r}") from None
    if ax not in (0, 1, -1, -2):
        raise ValueError(f"matmul_reduce: axis {axis} is out of bounds for the 2-D product")
    return ax % 2


cdef object _reduce_dtype(object da, object db):
    res = np.result_type(da, db)
    if res not in (np.dtype(np.float32), np.dtype(np.float64)) or np.dtype(da).kind != "f" or np.dtype(db).kind != "f":
        raise TypeError(f"matmul_reduce: unsupported dtypes {np.dtype(da)} and {np.dtype(db)} (float32 or float64)")
    return res


cdef _reduce_shapes(tuple sa, tuple sb):
    if len(sa) != 2 or len(sb) != 2:
        raise ValueError(f"matmul_reduce: needs two 2-D operands, got shapes {sa} and {sb}")
    if sa[1] != sb[0]:
        raise ValueError(f"matmul_reduce: shapes {sa} and {sb} not aligned: {sa[1]} (dim 1) != {sb[0]} (dim 0)")


def _stacked_matmul_reduce(a, b, int axis, out, stream):
    """matmul_reduce of stacked operands (either of 3 or more dimensions), broadcast as matmul: the
    column sums of each matrix of a (or row sums of each of b) in float64, then one batched matmul."""
    from npgpu import _reduce
    a, b = (x if isinstance(x, Array) else np.asarray(x) for x in (a, b))
    da, db = a.dtype, b.dtype
    res = _reduce_dtype(da, db)
    sa, sb = tuple(a.shape), tuple(b.shape)
    if len(sa) < 2 or len(sb) < 2:
        raise ValueError(f"matmul_reduce: needs 2-D or stacked operands, got shapes {sa} and {sb}")
    if sa[-1] != sb[-2]:
        raise ValueError(f"matmul_reduce: shapes {sa} and {sb} not aligned: {sa[-1]} (dim -1) != {sb[-2]} (dim -2)")
    if axis == 0:  # (A @ B).sum(-2) == (ones @ A) @ B
        v = _reduce.sum(a, axis=-2, dtype=np.float64, stream=stream).astype(res)
        r = matmul(v[..., None, :], b.astype(res, copy=False), stream=stream)[..., 0, :]
    else:  # (A @ B).sum(-1) == A @ (B @ ones)
        w = _reduce.sum(b, axis=-1, dtype=np.float64, stream=stream).astype(res)
        r = matmul(a.astype(res, copy=False), w[..., :, None], stream=stream)[..., 0]
    if out is None:
        return r
    if tuple(out.shape) != tuple(r.shape):
        raise ValueError(f"matmul_reduce: output shape {tuple(out.shape)} does not match the result shape "
                         f"{tuple(r.shape)}")
    if isinstance(out, Array) != isinstance(r, Array):
        raise TypeError(f"matmul_reduce: out must be {'an npgpu.Array' if isinstance(r, Array) else 'a NumPy array'}"
                        f" for these operands, not {type(out).__name__}")
    out[...] = r
    return out


cdef Array _matmul_reduce_device(Array a, Array b, int axis, object out, int method, StreamHandle s):
    cdef int device = _common_device("matmul_reduce", (a, b))
    res = _reduce_dtype(a._dtype, b._dtype)
    _reduce_shapes(a.shape, b.shape)
    cdef Array A = _cast(a, res, s)
    cdef Array B = _cast(b, res, s)
    n = b.shape[1] if axis == 0 else a.shape[0]
    cdef Array o = _device_out("matmul_reduce", out, (n,), res, device, s, False)
    cdef MatmulReduceMethod m = <MatmulReduceMethod>method
    with nogil:
        c_matmul_reduce(A._view, B._view, axis, o._view, s, m)
    o.stream = s
    return o


def matmul_reduce(a, b, axis=0, out=None, stream=None, _method=0):
    """``(a @ b).sum(axis)`` for 2-D `a` (m, k) and `b` (k, n), without forming the m x n product; stacked
    operands (..., m, k) and (..., k, n) broadcast as matmul's, `axis` 0 (or -2) and 1 (or -1) naming each
    product's rows and columns.

    The identity (sums of products reordered, exact in real arithmetic)::

        (A @ B).sum(axis=0) == (ones(m) @ A) @ B     # column sums of A, then a vector-matrix product
        (A @ B).sum(axis=1) == A @ (B @ ones(n))     # row sums of B, then a matrix-vector product

    reads each input once: O(mk + kn) work instead of O(mkn). (Reference page 002 computes it with a
    tiled matmul kernel and atomics.) On the GPU both steps are single bandwidth-bound passes (npgpu's
    kernels; float64 accumulation and a float64 intermediate vector, so float32 results are within a few
    float32 roundings of the exact value). float32 and float64 (mixed: promoted); other dtypes raise
    TypeError. Device operands give an npgpu.Array; NumPy operands a NumPy array, through the GPU when the
    backend is 'cuda' (the operand of the vector step, `a` for axis 0, is summed in float64 by the host's
    threads while the other uploads; then one pass on the GPU), else NumPy on the host backend: column
    sums with float64 accumulation (``a.sum(0, dtype=float64)``) then NumPy's matmul (its BLAS) in the
    operands' dtype. Host-device ("cpu") npgpu.Arrays are computed in the same way and give host Arrays.
    Stacked operands take the column sums of each matrix of `a` (or the row sums of each of `b`) in float64,
    then one batched matmul.

    Parameters
    ----------
    a : npgpu.Array, numpy.ndarray or array_like
        Of shape (m, k) or (..., m, k), float32 or float64.
    b : npgpu.Array, numpy.ndarray or array_like
        Of shape (k, n) or (..., k, n), float32 or float64; on `a`'s device when `a` is an npgpu.Array.
    axis : int, optional
        The axis of each product summed over: 0 or -2 (its rows, default: a result of length n) or 1 or -1
        (its columns: length m).
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result, of its shape; an npgpu.Array for device operands, a NumPy array for NumPy
        operands.
    stream : Stream, optional
        The stream of the GPU work (default: the current stream).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        ``(a @ b).sum(axis)``, in the operands' promoted dtype; `out` when given.

    Raises
    ------
    TypeError
        An operand is None or not float32/float64, `axis` is not an integer, host operands are mixed with
        npgpu.Arrays, or `out` is of the wrong kind or cannot hold the result under 'same_kind' casting.
    ValueError
        An operand has fewer than 2 dimensions, the shapes do not align, `axis` is out of bounds, the
        operands (or `out`) are on different devices, or `out` has another shape.
    GPUUnavailableError
        NumPy operands while the backend is 'cuda' (``NPGPU_BACKEND=cuda``) and no GPU is usable.

    See Also
    --------
    matmul

    Examples
    --------
    >>> A = np.arange(6.).reshape(2, 3)
    >>> B = np.arange(12.).reshape(3, 4)
    >>> npgpu.matmul_reduce(A, B)
    array([ 76.,  91., 106., 121.])
    >>> (A @ B).sum(axis=0)
    array([ 76.,  91., 106., 121.])
    >>> npgpu.matmul_reduce(A, B, axis=1)
    array([ 98., 296.])
    >>> npgpu.matmul_reduce(np.ones((5, 2, 3)), B).shape  # stacked: one result per matrix of A
    (5, 4)
    """
    for name, x in (("a", a), ("b", b)):
        if x is None:
            raise TypeError(f"matmul_reduce: {name} must be a 2-D float array, not None")
    cdef StreamHandle s = resolve_stream(stream)
    cdef int ax = _reduce_axis(axis)
    cdef int meth = int(_method)
    cdef Array fa, fb, fo
    cdef MatmulReduceMethod fm
    if type(a) is Array and type(b) is Array and out is None:
        # Fast path (what benchmarks time): two 2-D device arrays of one float dtype, a new result.
        fa = <Array>a
        fb = <Array>b
        if fa._view.dtype == fb._view.dtype and (fa._view.dtype == DType.Float32 or fa._view.dtype == DType.Float64) \
                and fa._view.ndim == 2 and fb._view.ndim == 2 and fa._view.device == fb._view.device \
                and fa._view.device != kHostDevice \
                and fa._view.shape[1] == fb._view.shape[0]:
            fo = new_array((fb._view.shape[1] if ax == 0 else fa._view.shape[0],), fa._dtype, fa._view.device, s)
            fm = <MatmulReduceMethod>meth
            with nogil:
                c_matmul_reduce(fa._view, fb._view, ax, fo._view, s, fm)
            fo.stream = s
            return fo
    if max(np.ndim(a) if not isinstance(a, Array) else a.ndim, np.ndim(b) if not isinstance(b, Array) else b.ndim) > 2:
        if any([isinstance(x, Array) for x in (a, b)]):
            _check_no_host_mix("matmul_reduce", (a, b, out))
        return _stacked_matmul_reduce(a, b, ax, out, stream)
    if any([isinstance(x, Array) and (<Array>x)._view.device == kHostDevice for x in (a, b, out)]):
        on_host = lambda x, y: matmul_reduce(x, y, axis=ax)
        r = _numpy_computes("matmul_reduce", on_host, on_host, (a, b), out, {})
        if r is not _NOT_HERE:
            return r
    if _is_device(a) or _is_device(b) or _is_device(out):
        _check_no_host_mix("matmul_reduce", (a, b, out))
        return _matmul_reduce_device(<Array>a, <Array>b, ax, out, meth, s)
    A = np.asarray(a)
    B = np.asarray(b)
    res = _reduce_dtype(A.dtype, B.dtype)
    _reduce_shapes(A.shape, B.shape)
    n = B.shape[1] if ax == 0 else A.shape[0]
    out = _host_out_check("matmul_reduce", out, (n,), res)
    if not use_cuda_for_host_data() or n == 0:
        if ax == 0:
            r = np.matmul(A.sum(axis=0, dtype=np.float64).astype(res), B.astype(res, copy=False))
        else:
            r = np.matmul(A.astype(res, copy=False), B.sum(axis=1, dtype=np.float64).astype(res))
        if out is not None:
            np.copyto(out, r, casting="same_kind")
            return out
        return r
    cdef int device = rt.current_device()
    if meth != 0:
        return _download(_matmul_reduce_device(_to_device(A, res, device, s), _to_device(B, res, device, s), ax,
                                               None, meth, s), out, s)
    # The operand of the vector step is summed on the host while the other one uploads.
    A = np.ascontiguousarray(A, dtype=res)
    B = np.ascontiguousarray(B, dtype=res)
    cdef ArrayView av = host_view(A, False)
    cdef ArrayView bv = host_view(B, False)
    fo = new_array((n,), np.dtype(res), device, s)
    with nogil:
        c_matmul_reduce_from_host(av, bv, ax, fo._view, s)
    fo.stream = s
    return _download(fo, out, s)


def cublas_version(device=None):
    """The version of the cuBLAS library npgpu loaded (e.g. 131000); loads it.

    Parameters
    ----------
    device : int, optional
        The device ordinal (default: the calling thread's current device).

    Returns
    -------
    int
        The version number cuBLAS reports.

    Raises
    ------
    GPUUnavailableError
        No GPU is usable (a RuntimeError), or cuBLAS cannot be loaded.
    ValueError
        `device` is not an ordinal of this machine.

    Examples
    --------
    >>> npgpu._blas.cublas_version()  # doctest: +SKIP
    131000
    """
    cdef int d = rt.current_device() if device is None else int(device)
    return c_cublas_version(d)


def _matmul_op(a, b, out=None):
    return matmul(a, b, out=out)


def _dot_op(a, b, out=None):
    return dot(a, b, out=out)


_array._register_op("matmul", _matmul_op)
_array._register_op("dot", _dot_op)
