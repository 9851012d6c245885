# cython: language_level=3
"""Elementwise operations (NumPy's ufuncs) over device arrays and NumPy buffers, with NumPy's broadcasting,
type promotion (NumPy 2 rules: Python scalars are weak) and ``out=`` casting.

Types come from NumPy itself: each call asks the matching numpy ufunc which loop it would run
(``ufunc.resolve_dtypes``, cached), so result dtypes match NumPy's exactly; the loop then runs in
libnpgpu (CUDA kernels, or host loops sharing the same per-element code).
"""
import numpy as np

from libc.stdint cimport int64_t, uintptr_t
from npgpu._array cimport (Array, native_order, new_array, new_array_like_view, dtype_code, numpy_dtype,
                           host_view, _broadcast_to, _views_overlap, refuse_subclass)
from npgpu._runtime cimport resolve_stream, use_cuda_for_host_data
from npgpu.lib cimport runtime as rt
from npgpu.lib.elementwise cimport (ElementwiseOp, Operand, elementwise, elementwise_staged,
                                    elementwise_result_dtype)
from npgpu.lib.runtime cimport StreamHandle
from npgpu.lib.view cimport ArrayView, DType, Scalar, itemsize, kNumDTypes
from npgpu import _array

_PY_SCALARS = (bool, int, float, complex)
_WEAK = (int, float, complex)  # NumPy 2: Python int/float/complex adapt to the array's dtype; bool does not


# ------------------------------------------------------------------------------------------------ types

_resolved = {}


cdef tuple resolve(object ufunc, tuple key):
    """NumPy's loop for these operand dtypes (np.dtype, or the Python type of a weak scalar):
    (operand dtypes..., result dtype). Cached."""
    r = _resolved.get((ufunc, key))
    if r is None:
        try:
            r = ufunc.resolve_dtypes(key + (None,))
        except TypeError as e:
            names = ", ".join(k.__name__ if isinstance(k, type) else str(k) for k in key)
            raise TypeError(f"ufunc '{ufunc.__name__}' not supported for the input types ({names}): {e}") \
                from None
        except Exception as e:  # numpy's _UFuncNoLoopError and friends
            raise TypeError(str(e)) from None
        _resolved[(ufunc, key)] = r
    return r


cdef object key_of(object x):
    if isinstance(x, Array):
        return (<Array>x)._dtype
    t = type(x)
    if t in _WEAK:
        return t
    if t is bool:
        return np.dtype(bool)
    return np.asarray(x).dtype


cdef Scalar make_scalar(object value, object dtype) except *:
    cdef Scalar s
    # NumPy 2 rules for Python scalars: converted to the loop's dtype; an int out of its range raises
    # OverflowError, as numpy does.
    v = np.asarray(value, dtype=dtype)[()]
    s.dtype = dtype_code(dtype)
    k = dtype.kind
    if k == "b":
        s.value.b = bool(v)
    elif k == "i":
        s.value.i = int(v)
    elif k == "u":
        s.value.u = int(v)
    elif k == "f" or k == "V":  # V: bfloat16
        s.value.f = float(v)
    else:
        s.value.c[0] = v.real
        s.value.c[1] = v.imag
    return s


cdef check_out_dtype(str name, object res, object out_dtype):
    if not np.can_cast(res, out_dtype, casting="same_kind"):
        raise TypeError(f"Cannot cast ufunc '{name}' output from {res!r} to {out_dtype!r} with casting rule "
                        f"'same_kind'")


cdef bint needs_private_copy(const ArrayView& inp, const ArrayView& out) noexcept nogil:
    """True when writing `out` could change elements of `inp` before they are read: the two overlap and are
    not the very same elements in the same order (NumPy copies such inputs first)."""
    cdef bint same
    if inp.data == out.data and inp.ndim == out.ndim:
        same = True
        for i in range(inp.ndim):
            if inp.strides[i] != out.strides[i] and inp.shape[i] != 1:
                same = False
        if same:
            return False
    return _views_overlap(inp, out)


cdef inline bint same_shape(const ArrayView& a, const ArrayView& b) noexcept nogil:
    if a.ndim != b.ndim:
        return False
    for i in range(a.ndim):
        if a.shape[i] != b.shape[i]:
            return False
    return True


_COMPARISONS = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}
# `s OP u` where s < 0 (signed) and u is unsigned: the answer whatever u is.
_NEGATIVE_FIRST = {"equal": False, "not_equal": True, "less": True, "less_equal": True, "greater": False,
                   "greater_equal": False}
_NEGATIVE_SECOND = {"equal": False, "not_equal": True, "less": False, "less_equal": False, "greater": True,
                    "greater_equal": True}


cdef object comparison_fixup(str name, tuple operands, tuple loop, object out, StreamHandle s):
    """NumPy 2 compares integers exactly: a uint64 against a signed integer, and a Python int outside the
    array's range, have no single loop type. Computed here from exact pieces; None when not such a case."""
    if name not in _COMPARISONS:
        return None
    stream = <uintptr_t>s if <uintptr_t>s != 0 else 1
    fn = globals()[name]
    for k in range(2):
        x = operands[k]
        if type(x) is int and loop[k].kind in "iu":
            info = np.iinfo(loop[k])
            if not info.min <= x <= info.max:  # a strong type that holds it: NumPy's exact answer
                v = np.int64(x) if -2**63 <= x < 2**63 else np.uint64(x) if 0 <= x < 2**64 else float(x)
                fixed = list(operands)
                fixed[k] = v
                return fn(*fixed, out=out, stream=stream)
    if loop[0] != loop[1] and loop[0].kind in "iu" and loop[1].kind in "iu":
        k = 0 if loop[0].kind == "i" else 1  # the signed operand
        sgn, uns = operands[k], operands[1 - k]
        as_u = sgn.astype(np.uint64) if isinstance(sgn, Array) else np.asarray(sgn).astype(np.uint64)
        negative = less(sgn, 0, stream=stream)
        cmp = fn(as_u, uns, stream=stream) if k == 0 else fn(uns, as_u, stream=stream)
        const = (_NEGATIVE_FIRST if k == 0 else _NEGATIVE_SECOND)[name]
        return where(negative, const, cmp, out=out, stream=stream)
    return None


cdef check_integer_power(str name, tuple operands, tuple loop):
    # NumPy raises for negative integer exponents. Host exponents are checked here; a device exponent array
    # is checked when the reductions are loaded (npgpu.min), else its negative elements give 0.
    if name != "power" or loop[1].kind != "i":
        return
    if any((x.size if isinstance(x, Array) else np.size(x)) == 0 for x in operands):
        return  # an empty result: nothing is raised to a power, as NumPy's
    e = operands[1]
    if isinstance(e, Array):
        device_min = _array._ops.get("min")
        if device_min is None or e.size == 0 or int(device_min(e)) >= 0:
            return
    elif np.size(e) == 0 or np.min(e) >= 0:
        return
    for x, dt in zip(operands, loop[:2]):
        if type(x) is int:
            np.asarray(x, dtype=dt)  # NumPy's OverflowError for a Python int outside the loop's type comes first
    raise ValueError("Integers to negative integer powers are not allowed.")


cdef tuple broadcast_shape(list shapes, str name):
    """NumPy's broadcast of `shapes` (np.broadcast_shapes costs ~2 us a call: it builds arrays)."""
    cdef tuple first = shapes[0] if shapes else ()
    cdef bint same = True
    for sh in shapes:
        if sh != first:
            same = False
            break
    if same:
        return first
    cdef int nd = max([len(sh) for sh in shapes])
    res = [1] * nd
    for sh in shapes:
        off = nd - len(sh)
        for i in range(len(sh)):
            d = sh[i]
            if d != 1:
                if res[off + i] == 1:
                    res[off + i] = d
                elif res[off + i] != d:
                    raise ValueError(f"{name}: operands could not be broadcast together with shapes "
                                     f"{' '.join(str(x) for x in shapes)}")
    return tuple(res)


# ------------------------------------------------------------------------------------------------ calls

cdef object k_order(tuple shape, list layouts):
    """The axes, outermost first, in which a new result is laid out to follow its operands' memory order,
    as NumPy's default order='K' (a Fortran-ordered input gives a Fortran-ordered result); None for C order.
    layouts: (shape, strides) of each array operand. NumPy's nditer rule: axes sorted innermost first by
    stride magnitude, where the first operand whose strides tell two axes apart decides and a later one that
    disagrees keeps them in C order; broadcast and extent-1 axes tell nothing."""
    cdef int nd = len(shape)
    if nd < 2:
        return None
    mags = []
    for op_shape, op_strides in layouts:
        lead = nd - len(op_shape)
        mags.append([0 if i < lead or op_shape[i - lead] == 1 else abs(op_strides[i - lead]) for i in range(nd)])
    order = list(range(nd - 1, -1, -1))  # innermost first
    for i0 in range(1, nd):
        a0 = order[i0]
        pos = i0
        for i1 in range(i0 - 1, -1, -1):
            a1 = order[i1]
            ambiguous, swap = True, False
            for m in mags:
                if m[a0] != 0 and m[a1] != 0:
                    if m[a1] <= m[a0]:
                        swap = False
                    elif ambiguous:
                        swap = True
                    ambiguous = False
            if not ambiguous:
                if swap:
                    pos = i1
                else:
                    break
        if pos != i0:
            order.pop(i0)
            order.insert(pos, a0)
    perm = tuple(reversed(order))
    return None if perm == tuple(range(nd)) else perm


cdef tuple _inverse(tuple perm):
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return tuple(inv)


cdef ArrayView _permuted(const ArrayView& v, tuple perm):
    cdef ArrayView r = v
    for i, p in enumerate(perm):
        r.shape[i] = v.shape[p]
        r.strides[i] = v.strides[p]
    return r


cdef object run_device(ElementwiseOp op, str name, object ufunc, tuple operands, object out, StreamHandle s):
    """At least one operand (or out) is an npgpu.Array: compute on its device."""
    cdef int device = -2
    for x in operands + (out,):
        if isinstance(x, Array):
            if device == -2:
                device = (<Array>x)._view.device
            elif (<Array>x)._view.device != device:
                raise ValueError(f"{name}: operands are on different devices ({device} and "
                                 f"{(<Array>x)._view.device})")
        elif x is out:
            if x is not None:
                raise TypeError(f"{name}: out must be an npgpu.Array when operands are on the GPU, "
                                f"not {type(x).__name__}")
        elif not (type(x) in _PY_SCALARS or isinstance(x, np.generic) or
                  (isinstance(x, np.ndarray) and x.ndim == 0)):
            if isinstance(x, np.ndarray) or hasattr(x, "__array__") or isinstance(x, (list, tuple)):
                raise TypeError(f"{name}: cannot mix a host array ({type(x).__name__}) with npgpu device arrays; "
                                f"move it first with npgpu.asarray(x)")
            raise TypeError(f"{name}: unsupported operand type {type(x).__name__}")
    loop = resolve(ufunc, tuple([key_of(x) for x in operands]))
    fixed = comparison_fixup(name, operands, loop, out, s)
    if fixed is not None:
        return fixed
    check_integer_power(name, operands, loop)
    res = loop[-1]
    shape = broadcast_shape([x.shape for x in operands if isinstance(x, Array)], name)
    cdef Array o
    perm = None
    if out is None:
        perm = k_order(shape, [(x.shape, x.strides) for x in operands if isinstance(x, Array)])
        # In K order the operation runs on the operands' axes permuted so the result is C-contiguous.
        o = new_array(shape if perm is None else tuple([shape[p] for p in perm]), res, device, s)
    else:
        o = <Array>out
        if o.shape != shape:
            raise ValueError(f"{name}: output shape {o.shape} does not match the broadcast shape {shape}")
        if o._view.readonly:
            raise ValueError(f"{name}: output array is read-only")
        check_out_dtype(name, res, o._dtype)
    cdef Operand ins[3]
    cdef int n = len(operands)
    cdef Array tmp
    keep = []
    for k in range(n):
        x = operands[k]
        if isinstance(x, Array):
            tmp = <Array>x
            if needs_private_copy(tmp._view, o._view):
                tmp = tmp.copy(stream=<uintptr_t>s if <uintptr_t>s != 0 else 1)
            keep.append(tmp)
            ins[k].view = _broadcast_to(tmp._view, shape, f"{name}: operands could not be broadcast together")
            if perm is not None:
                ins[k].view = _permuted(ins[k].view, perm)
            ins[k].is_scalar = False
        else:
            ins[k].scalar = make_scalar(x, loop[k])
            ins[k].is_scalar = True
    cdef DType compute = dtype_code(loop[1] if op == ElementwiseOp.Where else loop[0])
    with nogil:
        elementwise(op, ins, n, o._view, compute, s)
    o.stream = s
    return o if perm is None else o.transpose(_inverse(perm))


cdef object run_host(ElementwiseOp op, str name, object ufunc, tuple operands, object out, StreamHandle s):
    """No device arrays: NumPy in, NumPy out, on the GPU through the staging ring or on the host backend."""
    for x in operands:
        refuse_subclass(x, name)
    ops = tuple([x if type(x) in _PY_SCALARS else native_order(np.asarray(x)) for x in operands])
    arrays = [x for x in ops if isinstance(x, np.ndarray)]
    if not arrays:  # only Python scalars: nothing to offload
        return ufunc(*operands) if out is None else ufunc(*operands, out=out)
    for x in arrays:
        dtype_code(x.dtype)  # a TypeError naming an unsupported dtype
    loop = resolve(ufunc, tuple([key_of(x) for x in ops]))
    fixed = comparison_fixup(name, ops, loop, out, s)
    if fixed is not None:
        return fixed
    check_integer_power(name, ops, loop)
    res = loop[-1]
    shape = broadcast_shape([x.shape for x in arrays], name)
    perm = None
    if out is None:
        perm = k_order(shape, [(x.shape, x.strides) for x in arrays])
        if perm is not None:  # K order: computed on permuted operands into a C-contiguous result
            full = shape
            shape = tuple([full[p] for p in perm])
            ops = tuple([np.broadcast_to(x, full).transpose(perm) if isinstance(x, np.ndarray) and x.ndim > 0
                         else x for x in ops])
    if out is not None:
        if isinstance(out, tuple) and len(out) == 1:
            out = out[0]
        if not isinstance(out, np.ndarray):
            raise TypeError(f"{name}: out must be a numpy.ndarray for NumPy operands, not {type(out).__name__}")
        if out.shape != shape:
            raise ValueError(f"{name}: output shape {out.shape} does not match the broadcast shape {shape}")
        if not out.flags.writeable:
            raise ValueError(f"{name}: output array is read-only")
        check_out_dtype(name, res, out.dtype)
        dtype_code(out.dtype)
        # NumPy semantics when out overlaps an input in any other way than element for element.
        ops = tuple([x.copy() if isinstance(x, np.ndarray) and _overlaps(x, out) else x for x in ops])
    cdef bint on_gpu = use_cuda_for_host_data()
    if out is None:
        # On the GPU path the result lives in (cached) pinned memory, so results come back by DMA straight
        # into it: no bounce copy and no page faults on a fresh array.
        result = _array.empty_host_result(shape, res, _array.PINNED_RESULT_MAX) if on_gpu \
            else np.empty(shape, dtype=res)
    else:
        result = out
    cdef Operand ins[3]
    cdef int n = len(ops)
    cdef ArrayView vo
    cdef int device
    cdef DType compute = dtype_code(loop[1] if op == ElementwiseOp.Where else loop[0])
    on_gpu = on_gpu and result.size > 0
    keep = []
    target = result if (not on_gpu or result.flags.c_contiguous) else np.empty(shape, dtype=result.dtype)
    for k in range(n):
        x = ops[k]
        if isinstance(x, np.ndarray) and x.ndim > 0:
            if on_gpu:  # staged operands: C-contiguous, of the output's shape
                x = np.ascontiguousarray(x if x.shape == shape else np.broadcast_to(x, shape))
                keep.append(x)
                ins[k].view = host_view(x, False)
            else:
                keep.append(x)
                ins[k].view = _broadcast_to(host_view(x, False), shape,
                                            f"{name}: operands could not be broadcast together")
            ins[k].is_scalar = False
        else:
            ins[k].scalar = make_scalar(x, loop[k])
            ins[k].is_scalar = True
    vo = host_view(target, True)
    if on_gpu:
        device = rt.current_device()
        with nogil:
            elementwise_staged(op, ins, n, vo, compute, device, s)
        if target is not result:
            np.copyto(result, target)
    else:
        with nogil:
            elementwise(op, ins, n, vo, compute, s)
    if out is None and result.ndim == 0:
        return result[()]
    return result if perm is None else result.transpose(_inverse(perm))


def _overlaps(x, out):
    return np.may_share_memory(x, out) and not (
        x.__array_interface__["data"][0] == out.__array_interface__["data"][0] and x.strides == out.strides
        and x.shape == out.shape)


# Per (operation, operand dtype): the code of the result dtype when two arrays of that dtype run that dtype's
# own loop, -1 when they do not (another loop, or integer power, whose negative exponents the general path
# checks), kUnresolved before the first call. A C table: the fast path does no Python-level lookups.
cdef enum:
    kMaxOps = 80
    kUnresolved = -2
cdef signed char _fast_result[kMaxOps][kNumDTypes]
for _i in range(kMaxOps):
    for _j in range(kNumDTypes):
        _fast_result[_i][_j] = kUnresolved
assert <int>ElementwiseOp.Axpy < kMaxOps  # Axpy is the last operation


cdef int _same_dtype_result(ElementwiseOp op, object ufunc, DType d, object dtype, int nin) except -3:
    """The result dtype's code when `nin` operands of `dtype` (code d) run that dtype's own loop, else -1."""
    cdef int code = _fast_result[<int>op][<int>d]
    if code == kUnresolved:
        code = -1
        if not (op == ElementwiseOp.Power and dtype.kind == "i"):
            loop = resolve(ufunc, (dtype,) * nin)
            if loop[0] == dtype:
                code = <int>dtype_code(loop[-1])
        _fast_result[<int>op][<int>d] = code
    return code


cdef object fast_same_dtype(ElementwiseOp op, object ufunc, Array A, Array B, object out, StreamHandle s):
    """Two device arrays of one dtype and shape, out new or exactly right: no Python-level type work. None
    when the call does not qualify."""
    cdef int code = _same_dtype_result(op, ufunc, A._view.dtype, A._dtype, 2)
    if code < 0:
        return None
    cdef DType rd = <DType>code
    cdef Array O
    if out is None:
        if not A._view.is_c_contiguous():  # the result's layout follows the operands' (order='K')
            return None
        O = new_array_like_view(A._view, A._dtype if rd == A._view.dtype else numpy_dtype(rd), rd, s)
    elif type(out) is Array and (<Array>out)._view.dtype == rd and (<Array>out)._view.device == A._view.device \
            and same_shape((<Array>out)._view, A._view) and not (<Array>out)._view.readonly \
            and not needs_private_copy(A._view, (<Array>out)._view) \
            and not needs_private_copy(B._view, (<Array>out)._view):
        O = <Array>out
    else:
        return None
    cdef Operand ins[2]
    ins[0].view = A._view
    ins[0].is_scalar = False
    ins[1].view = B._view
    ins[1].is_scalar = False
    elementwise(op, ins, 2, O._view, A._view.dtype, s)  # asynchronous: no need to drop the GIL
    O.stream = s
    return O


cdef object fast_host_same_dtype(ElementwiseOp op, object ufunc, tuple operands, StreamHandle s):
    """One or two C-contiguous NumPy arrays of one native dtype and shape, no out, on the host backend: no
    Python-level type work, which dominates a call on a small array. None when the call does not qualify."""
    A = operands[0]
    dt = A.dtype
    if A.ndim == 0 or not dt.isnative or dt.kind not in "biufc":
        return None
    cdef int n = len(operands)
    if n == 2:
        B = operands[1]
        if B.dtype != dt or B.shape != A.shape:
            return None
    if use_cuda_for_host_data():
        return None
    cdef DType d = dtype_code(dt)
    cdef int code = _same_dtype_result(op, ufunc, d, dt, n)
    if code < 0:
        return None
    cdef Operand ins[2]
    for k in range(n):
        # C order from the buffer's strides: reading ndarray.flags builds an object each call
        ins[k].view = host_view(operands[k], False)
        ins[k].is_scalar = False
        if not ins[k].view.is_c_contiguous():
            return None
    result = np.empty(A.shape, dtype=dt if code == <int>d else numpy_dtype(<DType>code))
    cdef ArrayView vo = host_view(result, True)
    with nogil:
        elementwise(op, ins, n, vo, d, s)
    return result


cdef object call(ElementwiseOp op, str name, object ufunc, tuple operands, object out, object stream):
    cdef StreamHandle s = resolve_stream(stream)
    if out is None and 1 <= len(operands) <= 2 and type(operands[0]) is np.ndarray and \
            (len(operands) == 1 or type(operands[1]) is np.ndarray):
        r = fast_host_same_dtype(op, ufunc, operands, s)
        if r is not None:
            return r
    if len(operands) == 2 and type(operands[0]) is Array and type(operands[1]) is Array:
        A = <Array>operands[0]
        B = <Array>operands[1]
        if A._view.dtype == B._view.dtype and A._view.device == B._view.device and same_shape(A._view, B._view):
            r = fast_same_dtype(op, ufunc, A, B, out, s)
            if r is not None:
                return r
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError(f"{name}: out must be a single array (or a tuple of one)")
        out = out[0]
    for x in operands:
        if isinstance(x, Array):
            return run_device(op, name, ufunc, operands, out, s)
    if isinstance(out, Array):
        return run_device(op, name, ufunc, operands, out, s)
    return run_host(op, name, ufunc, operands, out, s)


# ------------------------------------------------------------------------------------------------ ufunc calls

_DIRECT_KEYS = frozenset(("out", "stream"))


cdef class UfuncCall:
    """The call of npgpu's ufunc objects, in C, since a Python ``__call__`` was much of a small call's cost:
    positional operands, ``out=`` and ``stream=`` go straight to the compiled function `_f`; other keywords to
    the subclass's ``_call(args, kwargs)``."""
    cdef public object _f

    def __call__(self, *args, out=None, **kwargs):
        if not kwargs:
            if out is None:
                return self._f(*args)
            return self._f(*args, out=out)
        if out is not None:
            kwargs["out"] = out
        if kwargs.keys() <= _DIRECT_KEYS:
            return self._f(*args, **kwargs)
        return self._call(args, kwargs)


# ------------------------------------------------------------------------------------------------ the API

_DOC = """Elementwise ``{expr}``, as numpy.{np_name}.

Broadcasting, NumPy 2 type promotion (Python scalars are weak), ``out=`` with 'same_kind' casting (``out`` may
be an input: in place). The loop, and so the result dtype, is the one numpy.{np_name} picks for the operand
dtypes (``resolve_dtypes``, cached), so result dtypes match NumPy's exactly.

NumPy inputs give a NumPy result, computed on the GPU when the backend is 'cuda' (data moves through a pinned
staging ring in chunks, overlapping transfers and compute) or on the host backend otherwise; npgpu.Array
inputs give an npgpu.Array on their device, any strides (views, transposes, negative steps). A new result
follows the memory order of the operands, as NumPy's default ``order='K'``. With Python scalars only, NumPy
computes the result.

Parameters
----------
{params}
out : npgpu.Array or numpy.ndarray, optional
    Where to write the result (or a tuple of one array): of the broadcast shape, of a dtype the result casts
    to under 'same_kind'; an npgpu.Array on the operands' device when an operand is an npgpu.Array, else a
    writeable NumPy array. It may overlap the inputs (they are copied first where NumPy would).
stream : Stream, optional
    The stream of the device work (default: the current stream).

Returns
-------
npgpu.Array, numpy.ndarray or NumPy scalar
    An npgpu.Array when an operand or `out` is one; else a NumPy array (a NumPy scalar for 0-d operands).
    `out` when given.

Raises
------
TypeError
    numpy.{np_name} has no loop for the operand dtypes, or npgpu does not support a dtype; host array data is
    mixed with npgpu.Arrays; `out` is of the wrong kind or cannot hold the result under 'same_kind' casting;
    or an operand is an ndarray subclass.
ValueError
    The operands do not broadcast or are on different devices, or `out` has another shape, is read-only or
    is a tuple of more than one array.
OverflowError
    A Python int does not fit the loop's integer dtype (NumPy 2's rule).

See Also
--------
numpy.{np_name}
npgpu.ufunc : ``npgpu.{np_name}``, this function as a ufunc (``where=``, ``reduce``, ...).{notes}{examples}"""

_DOC_PARAMS = {
    1: """x : npgpu.Array, numpy.ndarray, array_like or scalar
    The input.""",
    2: """x1, x2 : npgpu.Array, numpy.ndarray, array_like or scalar
    The inputs, broadcast together. Next to an npgpu.Array the other is an npgpu.Array on the same device or a
    scalar (Python, NumPy or a 0-d NumPy array), not host array data.""",
    3: """x1, x2, x3 : npgpu.Array, numpy.ndarray, array_like or scalar
    The inputs, broadcast together.""",
}

# The Examples of each function's docstring (run as doctests on the host backend).
_DOC_EXAMPLES = {
    "add": """>>> npgpu.add(npgpu.asarray([1., 2., 3.], device="cpu"), 1)
Array([2., 3., 4.])
>>> npgpu.add(np.array([1, 2], dtype=np.int8), 3)  # NumPy in, NumPy out; the Python int is weak
array([4, 5], dtype=int8)""",
    "subtract": """>>> npgpu.subtract(np.array([5, 7]), np.array([2, 10]))
array([ 3, -3])""",
    "multiply": """>>> x = npgpu.asarray([1., 2.], device="cpu")
>>> npgpu.multiply(x, npgpu.asarray([[1.], [10.]], device="cpu"))  # broadcast to (2, 2)
Array([[ 1.,  2.],
       [10., 20.]])""",
    "true_divide": """>>> npgpu.true_divide(np.array([1, 2, 3]), 2)
array([0.5, 1. , 1.5])""",
    "floor_divide": """>>> npgpu.floor_divide(np.array([7, -7, 1]), np.array([2, 2, 0]))  # rounds down; 1 // 0 gives 0
array([ 3, -4,  0])
>>> npgpu.floor_divide(np.array([7.5, -7.5]), 2)
array([ 3., -4.])""",
    "remainder": """>>> npgpu.remainder(np.array([7, -7, 1]), np.array([2, 2, 0]))  # x2's sign, as Python's %
array([1, 1, 0])
>>> npgpu.remainder(np.array([7.5, -7.5]), 2)
array([1.5, 0.5])""",
    "power": """>>> npgpu.power(np.array([2, 3, 4]), 2)
array([ 4,  9, 16])
>>> npgpu.power(np.array([2., 4.]), -1)
array([0.5 , 0.25])
>>> npgpu.power(np.array([2, 3]), -1)
Traceback (most recent call last):
    ...
ValueError: Integers to negative integer powers are not allowed.""",
    "maximum": """>>> npgpu.maximum(np.array([1., np.nan, 3.]), 2.)
array([ 2., nan,  3.])""",
    "minimum": """>>> npgpu.minimum(np.array([1., np.nan, 3.]), 2.)
array([ 1., nan,  2.])""",
    "hypot": """>>> npgpu.hypot(np.array([3., 5.]), np.array([4., 12.]))
array([ 5., 13.])""",
    "arctan2": """>>> npgpu.arctan2(np.array([1., 1., -1.]), np.array([1., -1., -1.]))
array([ 0.78539816,  2.35619449, -2.35619449])""",
    "equal": """>>> npgpu.equal(np.array([1, 2, 3]), 2)
array([False,  True, False])

Integers compare exactly, as in NumPy 2 (here a uint64 against a signed integer):

>>> npgpu.equal(np.array([2**63], dtype=np.uint64), np.array([-1]))
array([False])""",
    "not_equal": """>>> npgpu.not_equal(np.array([1., np.nan]), np.array([1., np.nan]))  # NaN differs from itself
array([False,  True])""",
    "less": """>>> npgpu.less(np.array([1, 2, 3]), 2)
array([ True, False, False])

A Python int beyond the array's dtype compares exactly, as in NumPy 2:

>>> npgpu.less(np.array([1, 2], dtype=np.uint8), 300)
array([ True,  True])""",
    "less_equal": """>>> npgpu.less_equal(np.array([1, 2, 3]), 2)
array([ True,  True, False])""",
    "greater": """>>> npgpu.greater(npgpu.asarray([1., 2., 3.], device="cpu"), 2)
Array([False, False,  True])""",
    "greater_equal": """>>> npgpu.greater_equal(np.array([1, 2, 3]), 2)
array([False,  True,  True])""",
    "logical_and": """>>> npgpu.logical_and(np.array([True, True, False]), np.array([True, False, False]))
array([ True, False, False])
>>> npgpu.logical_and(np.array([0, 1, 2]), 3.5)  # nonzero is true
array([False,  True,  True])""",
    "logical_or": """>>> npgpu.logical_or(np.array([True, True, False]), np.array([True, False, False]))
array([ True,  True, False])""",
    "logical_xor": """>>> npgpu.logical_xor(np.array([True, True, False]), np.array([True, False, False]))
array([False,  True, False])""",
    "bitwise_and": """>>> npgpu.bitwise_and(np.array([12, 10]), 6)
array([4, 2])""",
    "bitwise_or": """>>> npgpu.bitwise_or(np.array([12, 10]), 6)
array([14, 14])""",
    "bitwise_xor": """>>> npgpu.bitwise_xor(np.array([12, 10]), 6)
array([10, 12])""",
    "left_shift": """>>> x = np.array([1, 1], dtype=np.int8)
>>> npgpu.left_shift(x, np.array([3, 9], dtype=np.int8))  # 9 >= 8 bits: every bit shifted out
array([8, 0], dtype=int8)""",
    "right_shift": """>>> npgpu.right_shift(np.array([-8, 8], dtype=np.int8), np.array([2, 9], dtype=np.int8))
array([-2,  0], dtype=int8)""",
    "negative": """>>> npgpu.negative(npgpu.asarray([1., -2.], device="cpu"))
Array([-1.,  2.])""",
    "positive": """>>> npgpu.positive(np.array([1, -2]))
array([ 1, -2])""",
    "absolute": """>>> npgpu.absolute(np.array([-1.5, 2., -0.]))
array([1.5, 2. , 0. ])
>>> npgpu.absolute(np.array([3 + 4j]))
array([5.])""",
    "sign": """>>> npgpu.sign(np.array([-2., 0., 3.]))
array([-1.,  0.,  1.])
>>> npgpu.sign(np.array([3 + 4j]))
array([0.6+0.8j])""",
    "square": """>>> npgpu.square(np.array([1, -2, 3]))
array([1, 4, 9])""",
    "reciprocal": """>>> npgpu.reciprocal(np.array([1., 2., 4.]))
array([1.  , 0.5 , 0.25])
>>> npgpu.reciprocal(np.array([1, 2, 0]))
array([1, 0, 0])""",
    "sqrt": """>>> npgpu.sqrt(np.array([1., 4., 9.]))
array([1., 2., 3.])
>>> npgpu.sqrt(np.array([4], dtype=np.int8))  # NumPy's loop for int8: float16
array([2.], dtype=float16)
>>> npgpu.sqrt(npgpu.asarray([[1., 4.], [9., 16.]], device="cpu").T)  # any strides
Array([[1., 3.],
       [2., 4.]])""",
    "cbrt": """>>> npgpu.cbrt(np.array([8., -27.]))
array([ 2., -3.])""",
    "exp": """>>> npgpu.exp(np.array([0., 1.]))
array([1.        , 2.71828183])""",
    "expm1": """>>> float(npgpu.expm1(np.array([1e-10]))[0])  # accurate where exp(x) - 1 is not
1.00000000005e-10""",
    "exp2": """>>> npgpu.exp2(np.array([0., 3., -1.]))
array([1. , 8. , 0.5])""",
    "log": """>>> npgpu.log(np.array([1., np.e]))
array([0., 1.])""",
    "log1p": """>>> float(npgpu.log1p(np.array([1e-10]))[0])  # accurate where log(1 + x) is not
9.999999999500001e-11""",
    "log2": """>>> npgpu.log2(np.array([1., 8.]))
array([0., 3.])""",
    "log10": """>>> npgpu.log10(np.array([1., 1000.]))
array([0., 3.])""",
    "sin": """>>> npgpu.sin(np.array([0., np.pi / 2]))
array([0., 1.])""",
    "cos": """>>> npgpu.cos(np.array([0., np.pi]))
array([ 1., -1.])""",
    "tan": """>>> npgpu.tan(np.array([0., np.pi / 4]))
array([0., 1.])""",
    "arcsin": """>>> npgpu.arcsin(np.array([0., 1.]))
array([0.        , 1.57079633])""",
    "arccos": """>>> npgpu.arccos(np.array([1., 0.]))
array([0.        , 1.57079633])""",
    "arctan": """>>> npgpu.arctan(np.array([0., 1.]))
array([0.        , 0.78539816])""",
    "sinh": """>>> npgpu.sinh(np.array([0., 1.]))
array([0.        , 1.17520119])""",
    "cosh": """>>> npgpu.cosh(np.array([0., 1.]))
array([1.        , 1.54308063])""",
    "tanh": """>>> npgpu.tanh(np.array([0., 1.]))
array([0.        , 0.76159416])""",
    "arcsinh": """>>> npgpu.arcsinh(np.array([0., 1.]))
array([0.        , 0.88137359])""",
    "arccosh": """>>> npgpu.arccosh(np.array([1., 2.]))
array([0.       , 1.3169579])""",
    "arctanh": """>>> npgpu.arctanh(np.array([0., 0.5]))
array([0.        , 0.54930614])""",
    "floor": """>>> npgpu.floor(np.array([-1.5, 1.5]))
array([-2.,  1.])""",
    "ceil": """>>> npgpu.ceil(np.array([-1.5, 1.5]))
array([-1.,  2.])""",
    "trunc": """>>> npgpu.trunc(np.array([-1.5, 1.5]))
array([-1.,  1.])""",
    "rint": """>>> npgpu.rint(np.array([0.5, 1.5, 2.5]))
array([0., 2., 2.])""",
    "isnan": """>>> npgpu.isnan(np.array([1., np.nan, np.inf]))
array([False,  True, False])""",
    "isinf": """>>> npgpu.isinf(np.array([1., np.nan, -np.inf]))
array([False, False,  True])""",
    "isfinite": """>>> npgpu.isfinite(np.array([1., np.nan, np.inf]))
array([ True, False, False])""",
    "logical_not": """>>> npgpu.logical_not(np.array([0, 2]))
array([ True, False])""",
    "invert": """>>> npgpu.invert(np.array([0, 5], dtype=np.uint8))
array([255, 250], dtype=uint8)
>>> npgpu.invert(np.array([True, False]))
array([False,  True])""",
    "conjugate": """>>> npgpu.conjugate(np.array([1 + 2j, 3 - 4j]))
array([1.-2.j, 3.+4.j])""",
}


def _ufunc_doc(str name, str np_name, str expr, int nin, str extra):
    """The docstring of the elementwise function `name`: _DOC filled in, with `extra` as its Notes."""
    return _DOC.format(expr=expr, np_name=np_name, params=_DOC_PARAMS[nin],
                       notes=("\n\nNotes\n-----\n" + extra) if extra else "",
                       examples=("\n\nExamples\n--------\n" + _DOC_EXAMPLES[name]) if name in _DOC_EXAMPLES else "")


def _make(int op_code, str name, ufunc, str expr, int nin, str extra=""):
    cdef ElementwiseOp op = <ElementwiseOp>op_code
    if nin == 1:
        def f(x, out=None, stream=None):
            return call(op, name, ufunc, (x,), out, stream)
    elif nin == 2:
        def f(x1, x2, out=None, stream=None):
            return call(op, name, ufunc, (x1, x2), out, stream)
    else:
        def f(x1, x2, x3, out=None, stream=None):
            return call(op, name, ufunc, (x1, x2, x3), out, stream)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = _ufunc_doc(name, ufunc.__name__, expr, nin, extra)
    f.__module__ = "npgpu"
    _array._register_op(name, f)
    if ufunc.__name__ != name:
        _array._register_op(ufunc.__name__, f)
    return f


_INT_DIV = ("Integer division by zero gives 0 (NumPy also warns; npgpu does not), and MIN // -1 wraps to "
            "MIN, as NumPy's result.")

add = _make(<int>ElementwiseOp.Add, "add", np.add, "x1 + x2", 2)
subtract = _make(<int>ElementwiseOp.Subtract, "subtract", np.subtract, "x1 - x2", 2)
multiply = _make(<int>ElementwiseOp.Multiply, "multiply", np.multiply, "x1 * x2", 2)
divide = true_divide = _make(<int>ElementwiseOp.TrueDivide, "true_divide", np.true_divide, "x1 / x2", 2)
_array._register_op("divide", true_divide)
floor_divide = _make(<int>ElementwiseOp.FloorDivide, "floor_divide", np.floor_divide, "x1 // x2", 2, _INT_DIV)
remainder = mod = _make(<int>ElementwiseOp.Remainder, "remainder", np.remainder, "x1 % x2", 2, _INT_DIV)
power = _make(<int>ElementwiseOp.Power, "power", np.power, "x1 ** x2", 2,
              "A negative exponent in an integer loop raises ValueError, as NumPy's: a scalar exponent, or "
              "any element of an exponent array (an npgpu.Array's minimum is read back with npgpu.min). Only "
              "if npgpu's reductions are not loaded do negative elements of an npgpu.Array exponent give 0.")
maximum = _make(<int>ElementwiseOp.Maximum, "maximum", np.maximum, "maximum(x1, x2)", 2,
                "NaNs propagate (numpy.maximum, not fmax).")
minimum = _make(<int>ElementwiseOp.Minimum, "minimum", np.minimum, "minimum(x1, x2)", 2,
                "NaNs propagate (numpy.minimum, not fmin).")
hypot = _make(<int>ElementwiseOp.Hypot, "hypot", np.hypot, "sqrt(x1**2 + x2**2)", 2)
arctan2 = _make(<int>ElementwiseOp.Arctan2, "arctan2", np.arctan2, "arctan(x1 / x2) by quadrant", 2)
equal = _make(<int>ElementwiseOp.Equal, "equal", np.equal, "x1 == x2", 2)
not_equal = _make(<int>ElementwiseOp.NotEqual, "not_equal", np.not_equal, "x1 != x2", 2)
less = _make(<int>ElementwiseOp.Less, "less", np.less, "x1 < x2", 2)
less_equal = _make(<int>ElementwiseOp.LessEqual, "less_equal", np.less_equal, "x1 <= x2", 2)
greater = _make(<int>ElementwiseOp.Greater, "greater", np.greater, "x1 > x2", 2)
greater_equal = _make(<int>ElementwiseOp.GreaterEqual, "greater_equal", np.greater_equal, "x1 >= x2", 2)
logical_and = _make(<int>ElementwiseOp.LogicalAnd, "logical_and", np.logical_and, "x1 and x2", 2)
logical_or = _make(<int>ElementwiseOp.LogicalOr, "logical_or", np.logical_or, "x1 or x2", 2)
logical_xor = _make(<int>ElementwiseOp.LogicalXor, "logical_xor", np.logical_xor, "x1 xor x2", 2)
bitwise_and = _make(<int>ElementwiseOp.BitwiseAnd, "bitwise_and", np.bitwise_and, "x1 & x2", 2)
bitwise_or = _make(<int>ElementwiseOp.BitwiseOr, "bitwise_or", np.bitwise_or, "x1 | x2", 2)
bitwise_xor = _make(<int>ElementwiseOp.BitwiseXor, "bitwise_xor", np.bitwise_xor, "x1 ^ x2", 2)
_SHIFT = ("A count outside [0, bits) (negative ones too) shifts every bit out, as NumPy: 0, or -1 "
          "for a negative x1 shifted right.")
left_shift = bitwise_left_shift = _make(<int>ElementwiseOp.LeftShift, "left_shift", np.left_shift,
                                        "x1 << x2", 2, _SHIFT)
right_shift = bitwise_right_shift = _make(<int>ElementwiseOp.RightShift, "right_shift", np.right_shift,
                                          "x1 >> x2 (arithmetic for signed x1)", 2, _SHIFT)

negative = _make(<int>ElementwiseOp.Negative, "negative", np.negative, "-x", 1)
positive = _make(<int>ElementwiseOp.Positive, "positive", np.positive, "+x", 1)
absolute = abs = _make(<int>ElementwiseOp.Absolute, "absolute", np.absolute, "|x|", 1)
sign = _make(<int>ElementwiseOp.Sign, "sign", np.sign, "sign(x)", 1, "Complex: x / |x| (NumPy 2).")
square = _make(<int>ElementwiseOp.Square, "square", np.square, "x * x", 1)
reciprocal = _make(<int>ElementwiseOp.Reciprocal, "reciprocal", np.reciprocal, "1 / x", 1,
                   "Integers: 1 // x, and 0 for x == 0.")
sqrt = _make(<int>ElementwiseOp.Sqrt, "sqrt", np.sqrt, "sqrt(x)", 1)
cbrt = _make(<int>ElementwiseOp.Cbrt, "cbrt", np.cbrt, "cbrt(x)", 1)
exp = _make(<int>ElementwiseOp.Exp, "exp", np.exp, "exp(x)", 1)
expm1 = _make(<int>ElementwiseOp.Expm1, "expm1", np.expm1, "exp(x) - 1", 1)
exp2 = _make(<int>ElementwiseOp.Exp2, "exp2", np.exp2, "2 ** x", 1)
log = _make(<int>ElementwiseOp.Log, "log", np.log, "log(x)", 1)
log1p = _make(<int>ElementwiseOp.Log1p, "log1p", np.log1p, "log(1 + x)", 1)
log2 = _make(<int>ElementwiseOp.Log2, "log2", np.log2, "log2(x)", 1)
log10 = _make(<int>ElementwiseOp.Log10, "log10", np.log10, "log10(x)", 1)
sin = _make(<int>ElementwiseOp.Sin, "sin", np.sin, "sin(x)", 1)
cos = _make(<int>ElementwiseOp.Cos, "cos", np.cos, "cos(x)", 1)
tan = _make(<int>ElementwiseOp.Tan, "tan", np.tan, "tan(x)", 1)
arcsin = _make(<int>ElementwiseOp.Arcsin, "arcsin", np.arcsin, "arcsin(x)", 1)
arccos = _make(<int>ElementwiseOp.Arccos, "arccos", np.arccos, "arccos(x)", 1)
arctan = _make(<int>ElementwiseOp.Arctan, "arctan", np.arctan, "arctan(x)", 1)
sinh = _make(<int>ElementwiseOp.Sinh, "sinh", np.sinh, "sinh(x)", 1)
cosh = _make(<int>ElementwiseOp.Cosh, "cosh", np.cosh, "cosh(x)", 1)
tanh = _make(<int>ElementwiseOp.Tanh, "tanh", np.tanh, "tanh(x)", 1)
arcsinh = asinh = _make(<int>ElementwiseOp.Arcsinh, "arcsinh", np.arcsinh, "arcsinh(x)", 1)
arccosh = acosh = _make(<int>ElementwiseOp.Arccosh, "arccosh", np.arccosh, "arccosh(x)", 1)
arctanh = atanh = _make(<int>ElementwiseOp.Arctanh, "arctanh", np.arctanh, "arctanh(x)", 1)
floor = _make(<int>ElementwiseOp.Floor, "floor", np.floor, "floor(x)", 1)
ceil = _make(<int>ElementwiseOp.Ceil, "ceil", np.ceil, "ceil(x)", 1)
trunc = _make(<int>ElementwiseOp.Trunc, "trunc", np.trunc, "trunc(x)", 1)
rint = _make(<int>ElementwiseOp.Rint, "rint", np.rint, "round half to even", 1)
isnan = _make(<int>ElementwiseOp.IsNan, "isnan", np.isnan, "x is NaN", 1)
isinf = _make(<int>ElementwiseOp.IsInf, "isinf", np.isinf, "x is infinite", 1)
isfinite = _make(<int>ElementwiseOp.IsFinite, "isfinite", np.isfinite, "x is finite", 1)
logical_not = _make(<int>ElementwiseOp.LogicalNot, "logical_not", np.logical_not, "not x", 1)
invert = bitwise_not = _make(<int>ElementwiseOp.Invert, "invert", np.invert, "~x", 1)
conjugate = conj = _make(<int>ElementwiseOp.Conjugate, "conjugate", np.conjugate, "conj(x)", 1)
_array._register_op("conj", conjugate)


class _WhereLoop:
    """numpy's where has no ufunc; its type rule is result_type(x, y) with a bool condition."""
    __name__ = "where"

    @staticmethod
    def resolve_dtypes(key):
        # A Python type stands for a weak scalar: result_type treats a Python value of it the same way.
        res = np.result_type(*[k if isinstance(k, np.dtype) else k(0) for k in key[1:3]])
        return (np.dtype(bool), res, res, res)

    def __call__(self, c, x, y, out=None):
        return np.where(c, x, y) if out is None else np.copyto(out, np.where(c, x, y))


_where = _make(<int>ElementwiseOp.Where, "where", _WhereLoop(), "x if condition else y", 3)


_NO_VALUE = object()


def where(condition, x=_NO_VALUE, y=_NO_VALUE, out=None, stream=None):
    """``x`` where ``condition`` is true, ``y`` elsewhere, as numpy.where(condition, x, y).

    Broadcasting; the result dtype is NumPy's result_type(x, y) (Python scalars weak); the condition is
    converted to bool. NumPy inputs give a NumPy result (on the GPU when the backend is 'cuda', else on the
    host backend), npgpu.Array inputs an npgpu.Array on their device. ``where(condition)`` alone is
    ``nonzero(condition)``.

    Parameters
    ----------
    condition : npgpu.Array, numpy.ndarray, array_like or scalar
        Where to take `x`; converted to bool.
    x, y : npgpu.Array, numpy.ndarray, array_like or scalar, optional
        The values to choose from; both or neither. Next to an npgpu.Array the operands are npgpu.Arrays on
        the same device or scalars.
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result: of the broadcast shape, of a dtype the result casts to under 'same_kind';
        an npgpu.Array for device operands, a writeable NumPy array otherwise.
    stream : Stream, optional
        The stream of the device work (default: the current stream).

    Returns
    -------
    npgpu.Array or numpy.ndarray or tuple
        The chosen values (`out` when given); with `condition` alone, the tuple of index arrays that
        ``nonzero(condition)`` gives.

    Raises
    ------
    ValueError
        Only one of `x` and `y` is given; the operands do not broadcast or are on different devices; or `out`
        has another shape or is read-only.
    TypeError
        Host array data is mixed with npgpu.Arrays, a dtype is not supported, or `out` is of the wrong kind or
        cannot hold the result under 'same_kind' casting.

    See Also
    --------
    numpy.where
    npgpu.nonzero : The indices of the nonzero elements.

    Examples
    --------
    >>> npgpu.where(np.array([True, False, True]), np.array([1, 2, 3]), -1)
    array([ 1, -1,  3])
    >>> c = npgpu.asarray([1., -2., 3.], device="cpu")
    >>> npgpu.where(c > 0, c, 0.)
    Array([1., 0., 3.])
    >>> npgpu.where(np.array([0, 3, 0, 5]))
    (array([1, 3]),)
    """
    if x is _NO_VALUE and y is _NO_VALUE:
        from npgpu import _indexing
        return _indexing.nonzero(condition)
    if x is _NO_VALUE or y is _NO_VALUE:
        raise ValueError("either both or neither of x and y should be given")
    return _where(condition, x, y, out=out, stream=stream)


_clip_ufunc = getattr((np._core if hasattr(np, "_core") else np.core).umath, "clip", None)
_clip = _make(<int>ElementwiseOp.Clip, "clip", _clip_ufunc, "minimum(maximum(a, a_min), a_max)", 3) \
    if _clip_ufunc is not None else None


def clip(a, a_min, a_max, out=None, stream=None):
    """``minimum(maximum(a, a_min), a_max)`` elementwise, as numpy.clip.

    NaNs propagate; bounds may be scalars or arrays (broadcast with `a`); None for no bound (then the call is
    `maximum` or `minimum` alone). ``npgpu.clip`` is the public version, over this one: it also takes the
    Array API's ``min=``/``max=`` and drops Python-int bounds beyond an integer dtype's range.

    Parameters
    ----------
    a : npgpu.Array, numpy.ndarray, array_like or scalar
        The values.
    a_min, a_max : npgpu.Array, numpy.ndarray, array_like, scalar or None
        The lower and upper bounds; at least one not None.
    out : npgpu.Array or numpy.ndarray, optional
        Where to write the result, as for the elementwise functions (``npgpu.add``).
    stream : Stream, optional
        The stream of the device work (default: the current stream).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        The clipped values: an npgpu.Array for device operands, a NumPy array otherwise; `out` when given.

    Raises
    ------
    ValueError
        Both bounds are None; or, as for the elementwise functions, the operands do not broadcast, are on
        different devices, or `out` is unacceptable.
    TypeError
        As for the elementwise functions (unsupported dtypes, host data mixed with npgpu.Arrays, `out`).

    See Also
    --------
    npgpu.clip, maximum, minimum

    Examples
    --------
    >>> npgpu._elementwise.clip(np.array([-1., 0.5, 2., np.nan]), 0, 1)
    array([0. , 0.5, 1. , nan])
    >>> npgpu._elementwise.clip(np.array([1., 5.]), None, 2)
    array([1., 2.])
    """
    if a_min is None and a_max is None:
        raise ValueError("One of max or min must be given")
    if a_min is None:
        return minimum(a, a_max, out=out, stream=stream)
    if a_max is None:
        return maximum(a, a_min, out=out, stream=stream)
    return _clip(a, a_min, a_max, out=out, stream=stream)


_array._register_op("clip", clip)


class _AxpyLoop:
    """The type rule of alpha * x + y: NumPy's for multiply then add."""
    __name__ = "axpy"

    @staticmethod
    def resolve_dtypes(key):
        m = np.multiply.resolve_dtypes(key[0:2] + (None,))[-1]
        r = np.add.resolve_dtypes((m, key[2], None))[-1]
        return (r, r, r, r)


_axpy = _make(<int>ElementwiseOp.Axpy, "axpy", _AxpyLoop(), "alpha * x + y", 3)


def axpy(alpha, x, y, stream=None):
    """``y = alpha * x + y`` in place, in one pass, and returns y.

    BLAS's axpy; rounded as a multiply then an add, as NumPy's ``y += alpha * x`` (whose type rules it
    follows). ``y`` is an npgpu.Array or a writeable NumPy array whose dtype holds the result ('same_kind'
    casting); ``alpha`` a scalar.

    Parameters
    ----------
    alpha : scalar
        The factor: a Python or NumPy scalar, or a 0-d array.
    x : npgpu.Array, numpy.ndarray, array_like or scalar
        Broadcast to `y`'s shape; an npgpu.Array on `y`'s device when `y` is one.
    y : npgpu.Array or numpy.ndarray
        Updated in place.
    stream : Stream, optional
        The stream of the device work (default: the current stream).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        `y`.

    Raises
    ------
    TypeError
        `alpha` is an array of one dimension or more; `y` is neither an npgpu.Array nor a NumPy array; `y`'s
        dtype cannot hold the result under 'same_kind' casting; or, as for the elementwise functions, host
        data is mixed with npgpu.Arrays or a dtype is not supported.
    ValueError
        `x` does not broadcast to `y`'s shape, the operands are on different devices, or `y` is read-only.

    Examples
    --------
    >>> y = np.array([10., 20.])
    >>> npgpu.axpy(2.0, np.array([1., 2.]), y)
    array([12., 24.])
    >>> y
    array([12., 24.])
    >>> y = npgpu.asarray([1., 2.], device="cpu")
    >>> npgpu.axpy(3, npgpu.asarray([1., 1.], device="cpu"), y)
    Array([4., 5.])
    """
    if isinstance(alpha, (Array, np.ndarray)) and np.ndim(alpha) != 0:
        raise TypeError("axpy: alpha must be a scalar")
    if not isinstance(y, (Array, np.ndarray)):
        raise TypeError(f"axpy: y must be an npgpu.Array or a numpy.ndarray, not {type(y).__name__}")
    return _axpy(alpha, x, y, out=y, stream=stream)


def astype(x, dtype, /, *, copy=True, device=None, stream=None):
    """``x`` converted to `dtype` (NumPy's unsafe casting, as ndarray.astype), the Array API's ``astype``.

    A new array unless ``copy=False`` and nothing changes; ``device=`` moves the result. npgpu.Array in,
    npgpu.Array out; NumPy in, NumPy out (``x.astype(dtype, copy=copy)``), unless `device` is given: then
    host data is first made an npgpu.Array on that device.

    Parameters
    ----------
    x : npgpu.Array, numpy.ndarray or array_like
        The array.
    dtype : dtype
        The new dtype.
    copy : bool, optional
        False: return `x` itself when neither the dtype nor the device changes (default True: always a new
        array).
    device : optional
        Where the result lives: what ``npgpu.asarray`` takes ("cpu", "cuda", "cuda:N", an int, an
        npgpu.Device ...); default: `x`'s device (for host data, a NumPy result).
    stream : Stream, optional
        The stream of the device work (default: the current stream).

    Returns
    -------
    npgpu.Array or numpy.ndarray
        The converted array.

    Raises
    ------
    TypeError
        npgpu does not support `dtype` (npgpu.Array results).

    See Also
    --------
    npgpu.Array.astype

    Examples
    --------
    >>> npgpu.astype(np.array([1.7, -1.7]), np.int32)
    array([ 1, -1], dtype=int32)
    >>> npgpu.astype(np.array([1, 2]), np.float32, device="cpu")
    Array([1., 2.], dtype=float32)
    >>> x = npgpu.asarray([1., 2.], device="cpu")
    >>> npgpu.astype(x, np.float64, copy=False) is x
    True
    """
    if isinstance(x, Array):
        return x.astype(dtype, copy=copy, stream=stream, device=device)
    if device is not None:
        return _array.asarray(x, device=device).astype(dtype, copy=copy, stream=stream, device=device)
    return np.asarray(x).astype(dtype, copy=copy)


def real(x):
    """The real part (a view for complex device arrays, as numpy.real).

    Parameters
    ----------
    x : npgpu.Array, numpy.ndarray, array_like or scalar
        The values.

    Returns
    -------
    npgpu.Array or numpy.ndarray or scalar
        ``x.real`` for an npgpu.Array (a writeable view of a complex array; a real array itself), else
        ``numpy.real(x)``.

    See Also
    --------
    imag, conjugate

    Examples
    --------
    >>> npgpu.real(npgpu.asarray([1 + 2j, 3 - 4j], device="cpu"))
    Array([1., 3.])
    >>> npgpu.real(np.array([1 + 2j]))
    array([1.])
    """
    return x.real if isinstance(x, Array) else np.real(x)


def imag(x):
    """The imaginary part (a view for complex device arrays, as numpy.imag).

    Parameters
    ----------
    x : npgpu.Array, numpy.ndarray, array_like or scalar
        The values.

    Returns
    -------
    npgpu.Array or numpy.ndarray or scalar
        ``x.imag`` for an npgpu.Array (a writeable view of a complex array; read-only zeros for a real
        one), else ``numpy.imag(x)``.

    See Also
    --------
    real, conjugate

    Examples
    --------
    >>> npgpu.imag(npgpu.asarray([1 + 2j, 3 - 4j], device="cpu"))
    Array([ 2., -4.])
    >>> npgpu.imag(np.array([1 + 2j]))
    array([2.])
    """
    return x.imag if isinstance(x, Array) else np.imag(x)


UFUNCS = ("add subtract multiply true_divide floor_divide remainder power maximum minimum hypot arctan2 "
          "equal not_equal less less_equal greater greater_equal logical_and logical_or logical_xor "
          "bitwise_and bitwise_or bitwise_xor left_shift right_shift negative positive absolute sign square "
          "reciprocal sqrt cbrt exp expm1 exp2 log log1p log2 log10 sin cos tan arcsin arccos arctan sinh cosh tanh "
          "arcsinh arccosh arctanh floor ceil trunc rint isnan isinf isfinite logical_not invert conjugate").split()
