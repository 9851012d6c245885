"""ElementwiseKernel: a C++ statement per element, compiled at run time (NVRTC) for the argument dtypes and the
number of (coalesced) dimensions it is called with, with NumPy broadcasting and output allocation."""
import functools
import keyword
import re

import numpy as np

import npgpu
from npgpu import _rtc
from npgpu._array import Array

# C spellings (and NumPy names) of the dtypes elementwise kernels handle.
_TYPE_NAMES = {
    "bool": "bool", "bool_": "bool",
    "char": "int8", "signed char": "int8", "int8_t": "int8", "int8": "int8",
    "unsigned char": "uint8", "uint8_t": "uint8", "uint8": "uint8",
    "short": "int16", "short int": "int16", "int16_t": "int16", "int16": "int16",
    "unsigned short": "uint16", "unsigned short int": "uint16", "uint16_t": "uint16", "uint16": "uint16",
    "int": "int32", "signed": "int32", "signed int": "int32", "int32_t": "int32", "int32": "int32",
    "unsigned": "uint32", "unsigned int": "uint32", "uint32_t": "uint32", "uint32": "uint32",
    "long": "int64", "long int": "int64", "long long": "int64", "long long int": "int64", "int64_t": "int64",
    "int64": "int64", "ptrdiff_t": "int64",
    "unsigned long": "uint64", "unsigned long long": "uint64", "uint64_t": "uint64", "uint64": "uint64",
    "size_t": "uint64",
    "float": "float32", "float32": "float32",
    "double": "float64", "float64": "float64",
}
# dtype -> the C type the generated code declares.
C_TYPE = {
    np.dtype(np.bool_): "bool",
    np.dtype(np.int8): "signed char", np.dtype(np.uint8): "unsigned char",
    np.dtype(np.int16): "short", np.dtype(np.uint16): "unsigned short",
    np.dtype(np.int32): "int", np.dtype(np.uint32): "unsigned int",
    np.dtype(np.int64): "long long", np.dtype(np.uint64): "unsigned long long",
    np.dtype(np.float32): "float", np.dtype(np.float64): "double",
}
SUPPORTED = tuple(C_TYPE)
_RESERVED = {"i", "n", "P"}
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_BLOCK = 256


def parse_type(spec):
    """A C or NumPy type name -> numpy dtype; a single identifier not naming a type -> a type variable
    (returned as str, e.g. 'T'). Anything else raises ValueError."""
    s = " ".join(spec.replace("const ", " ").split())
    if s in _TYPE_NAMES:
        return np.dtype(_TYPE_NAMES[s])
    if len(s) > 1 and s in np.sctypeDict:  # another NumPy type (complex128, float16...): refused by the caller
        return np.dtype(s)
    if _IDENT.match(s) and not keyword.iskeyword(s):
        return s
    raise ValueError(f"unknown parameter type {spec!r}: use a C type (float, double, int, long long, unsigned "
                     f"char, ...), a NumPy name (float32, int64, ...) or a type placeholder such as T")


def dtype_of_type(t):
    """Validate that an elementwise kernel supports dtype t."""
    d = np.dtype(t)
    if d not in C_TYPE:
        raise TypeError(f"elementwise kernels support {', '.join(str(x) for x in SUPPORTED)}; got {d}")
    return d


def parse_params(text, what):
    """'float32 x, T y' -> [(name, dtype or type-variable str)]."""
    if not isinstance(text, str):
        raise TypeError(f"{what} must be a str such as 'float32 x, float32 y', not {type(text).__name__}")
    params = []
    if not text.strip():
        return params
    for part in text.split(","):
        words = part.split()
        if len(words) < 2:
            raise ValueError(f"{what}: each parameter is 'type name', got {part.strip()!r}")
        name = words[-1]
        if not _IDENT.match(name):
            raise ValueError(f"{what}: {name!r} is not a valid parameter name")
        if "*" in part or "&" in part:
            raise ValueError(f"{what}: {part.strip()!r}: parameters are elements, not pointers or references "
                             f"(the kernel reads and writes element i of each array)")
        params.append((name, parse_type(" ".join(words[:-1]))))
    return params


def _coalesce(shape, strides_list):
    """Drop extent-1 dimensions and merge neighbours that are contiguous for every operand."""
    dims = [(n, [s[d] for s in strides_list]) for d, n in enumerate(shape) if n != 1]
    if not dims:
        return (1,), [(0,) for _ in strides_list]
    out = [dims[0]]
    for n, st in dims[1:]:
        pn, pst = out[-1]
        if all(ps == s * n for ps, s in zip(pst, st)):
            out[-1] = (pn * n, st)
        else:
            out.append((n, st))
    shape = tuple(n for n, _ in out)
    strides = [tuple(st[k] for _, st in out) for k in range(len(strides_list))]
    return shape, strides


def _broadcast_strides(shape, arr_shape, arr_strides):
    lead = len(shape) - len(arr_shape)
    return tuple(0 if d < lead or arr_shape[d - lead] == 1 else arr_strides[d - lead] for d in range(len(shape)))


def _scalar_word(value, dtype):
    b = np.asarray(value, dtype=dtype).tobytes()
    return int.from_bytes(b.ljust(8, b"\0"), "little")


def _is_scalar(x):
    return isinstance(x, (bool, int, float, np.generic)) or (isinstance(x, np.ndarray) and x.ndim == 0)


def _scalar_dtype(x):
    """dtype of a scalar argument binding a type variable: NumPy scalars keep theirs; Python bool, int and
    float are bool, int64 and float64."""
    if isinstance(x, (np.generic, np.ndarray)):
        return x.dtype
    if isinstance(x, bool):
        return np.dtype(np.bool_)
    if isinstance(x, int):
        return np.dtype(np.int64)
    if isinstance(x, float):
        return np.dtype(np.float64)
    raise TypeError(f"unsupported scalar {type(x).__name__}")


def _check_scalar(x, dtype, what):
    """A scalar argument for a parameter of `dtype`: Python scalars of a compatible kind are converted
    (range-checked); NumPy scalars must cast safely."""
    if isinstance(x, (bool, int, float)) and not isinstance(x, np.generic):
        if isinstance(x, float) and dtype.kind in "biu":
            raise TypeError(f"{what}: a Python float for a {dtype} parameter")
        if isinstance(x, int) and not isinstance(x, bool) and dtype.kind == "b":
            raise TypeError(f"{what}: a Python int for a bool parameter")
        try:
            return np.asarray(x).astype(dtype, casting="unsafe") if dtype.kind == "f" else \
                np.array(x, dtype=dtype)
        except OverflowError:
            raise OverflowError(f"{what}: {x!r} is out of the range of {dtype}") from None
    xd = np.asarray(x).dtype
    if not np.can_cast(xd, dtype, casting="safe"):
        raise TypeError(f"{what}: a {xd} scalar for a {dtype} parameter (it does not cast safely); pass "
                        f"numpy.{dtype}(value)")
    return np.asarray(x).astype(dtype)


class ElementwiseKernel(_rtc.PlannedCall):
    """A kernel applying C++ statements to every element (CuPy's ``cupy.ElementwiseKernel``).

    ``ElementwiseKernel(in_params, out_params, operation, name)``: `in_params` and `out_params` list typed
    names, ``"float32 x, float32 y"`` (C or NumPy type names, or a placeholder such as ``T`` bound to the dtype
    of the argument passed for it); `operation` is C++ code run once per element, where each name is that
    element of its argument (inputs read-only, outputs assignable) and ``i`` is the flat element index, e.g.
    ``"z = a * x + y"``. Optional `preamble` (device functions the operation calls) and NVRTC `options`.

    Call with the inputs, then optionally the outputs: ``k(x, y)`` or ``k(x, y, z)``; ``stream=`` selects
    the stream. Array arguments broadcast against each other as in NumPy; scalars (Python or NumPy) are
    passed by value. Missing outputs are allocated with the broadcast shape and their declared dtype.
    npgpu arrays give npgpu arrays (on their device, asynchronously); NumPy arrays are copied to the GPU and
    the results come back as NumPy arrays. Arrays must have their parameter's dtype or one that casts to it
    safely (converted first); anything else raises TypeError. Each combination of dtypes and number of
    dimensions compiles once (cached in memory and on disk). Needs a GPU: on the host backend a call raises
    GPUUnavailableError (a RuntimeError).
    """

    def __init__(self, in_params, out_params, operation, name="elementwise_kernel", preamble="", options=()):
        self.in_params = parse_params(in_params, "in_params")
        self.out_params = parse_params(out_params, "out_params")
        if not self.out_params:
            raise ValueError("an elementwise kernel needs at least one output parameter")
        names = [n for n, _ in self.in_params + self.out_params]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise ValueError(f"duplicate parameter names {sorted(dup)}")
        bad = [n for n in names if n in _RESERVED or n.startswith("npgpu_")]
        if bad:
            raise ValueError(f"parameter names {bad} are reserved ('i' is the element index)")
        for _, t in self.in_params + self.out_params:
            if not isinstance(t, str):
                dtype_of_type(t)
        if not isinstance(operation, str) or not operation.strip():
            raise ValueError("operation must be C++ code such as 'z = x + y'")
        if not isinstance(name, str) or not _IDENT.match(name):
            raise ValueError(f"name must be a C identifier, got {name!r}")
        self.operation = operation
        self.name = name
        self.preamble = preamble
        self.options = tuple(_rtc._as_str_list(options, "options"))
        self._kernels = {}
        self._grid = {}
        self._plans = []  # ElementwisePlans of recent calls, the latest first (PlannedCall.__call__ runs them)

    def __repr__(self):
        ins = ", ".join(f"{t} {n}" for n, t in self.in_params)
        outs = ", ".join(f"{t} {n}" for n, t in self.out_params)
        return f"<npgpu.ElementwiseKernel {self.name}({ins}) -> ({outs})>"

    # ------------------------------------------------------------------------------------------ call

    def _scalar_word_of(self, dtypes, k, x):
        """The parameter word of scalar input `k` for parameters of `dtypes` (an ElementwisePlan's converter)."""
        d = dtypes[k]
        return _scalar_word(_check_scalar(x, d, f"{self.name}: argument '{self.in_params[k][0]}'"), d)

    def _call(self, args, stream=None, **kwargs):
        """A call that no recent call's plan serves (``PlannedCall.__call__`` tried them)."""
        if kwargs:
            raise TypeError(f"{self.name}() got an unexpected keyword argument {next(iter(kwargs))!r}")
        nin, nout = len(self.in_params), len(self.out_params)
        if len(args) not in (nin, nin + nout):
            raise TypeError(f"{self.name} takes {nin} inputs (and optionally {nout} outputs), got {len(args)} "
                            f"arguments")
        ins, outs = args[:nin], list(args[nin:]) or [None] * nout
        on_device = any(isinstance(a, Array) for a in args)
        for k, a in enumerate(args):
            pname = (self.in_params + self.out_params)[k][0]
            if on_device and isinstance(a, np.ndarray) and a.ndim > 0:
                raise TypeError(f"{self.name}: argument '{pname}' is a NumPy array while others are npgpu device "
                                f"arrays; move it first with npgpu.asarray(x)")
            if not (isinstance(a, (Array, np.ndarray)) or _is_scalar(a)):
                raise TypeError(f"{self.name}: argument '{pname}' has unsupported type {type(a).__name__}")
        for k, o in enumerate(outs):
            if o is not None and not isinstance(o, (Array, np.ndarray)):
                raise TypeError(f"{self.name}: output '{self.out_params[k][0]}' must be an array, not "
                                f"{type(o).__name__}")
            if o is not None and isinstance(o, np.ndarray) and (o.ndim == 0 and on_device):
                raise TypeError(f"{self.name}: output '{self.out_params[k][0]}' must be an npgpu array")
        if not on_device:
            _rtc.require_gpu(f"ElementwiseKernel {self.name}")

        # Bind type variables: arrays first, then scalars.
        tv = {}
        for (pname, t), a in zip(self.in_params + self.out_params, list(ins) + outs):
            if isinstance(t, str) and a is not None and not _is_scalar(a):
                d = dtype_of_type(a.dtype)
                if tv.setdefault(t, d) != d:
                    raise TypeError(f"{self.name}: '{pname}' binds {t} to {d}, but an earlier argument bound it to "
                                    f"{tv[t]}")
        for (_pname, t), a in zip(self.in_params, ins):
            if isinstance(t, str) and _is_scalar(a) and t not in tv:
                tv[t] = dtype_of_type(_scalar_dtype(a))
        in_dtypes = []
        for _pname, t in self.in_params:
            if isinstance(t, str):
                in_dtypes.append(tv[t])
            else:
                in_dtypes.append(t)
        out_dtypes = []
        for pname, t in self.out_params:
            if isinstance(t, str):
                if t not in tv:
                    raise TypeError(f"{self.name}: the type {t} of output '{pname}' is not bound by any input; "
                                    f"pass the output array")
                out_dtypes.append(tv[t])
            else:
                out_dtypes.append(t)

        # Device arrays for the inputs, the broadcast shape.
        device = None
        for a in list(ins) + outs:
            if isinstance(a, Array):
                if device is None:
                    device = a.device_id
                elif a.device_id != device:
                    raise ValueError(f"{self.name}: arguments are on different devices ({device} and "
                                     f"{a.device_id})")
        if device is None:
            device = npgpu.get_device_id()
        dev_ins, scalars = [], []
        for (pname, _), d, a in zip(self.in_params, in_dtypes, ins):
            if _is_scalar(a):
                dev_ins.append(None)
                scalars.append(_check_scalar(a, d, f"{self.name}: argument '{pname}'"))
                continue
            if a.dtype != d:
                if not np.can_cast(a.dtype, d, casting="safe"):
                    raise TypeError(f"{self.name}: argument '{pname}' is a {a.dtype} array for a {d} parameter (it "
                                    f"does not cast safely); convert it with .astype(numpy.{d})")
            if isinstance(a, Array):
                dev_ins.append(a if a.dtype == d else a.astype(d, stream=stream))
            else:
                dev_ins.append(npgpu.asarray(np.asarray(a, dtype=d), device=device, stream=stream))
            scalars.append(None)
        shapes = [a.shape for a in dev_ins if a is not None] + [o.shape for o in outs if o is not None]
        try:
            shape = np.broadcast_shapes(*[a.shape for a in dev_ins if a is not None])
        except ValueError:
            raise ValueError(f"{self.name}: input shapes {[s for s in shapes]} do not broadcast together") from None
        given = [o for o in outs if o is not None]
        if given and not any(a is not None for a in dev_ins):
            shape = given[0].shape
        dev_outs, host_outs = [], []
        for (pname, _), d, o in zip(self.out_params, out_dtypes, outs):
            if o is None:
                dev_outs.append(npgpu.empty(shape, d, device=device, stream=stream))
                host_outs.append(None)
                continue
            if tuple(o.shape) != tuple(shape):
                raise ValueError(f"{self.name}: output '{pname}' has shape {tuple(o.shape)}, the broadcast shape is "
                                 f"{tuple(shape)}")
            if o.dtype != d:
                raise TypeError(f"{self.name}: output '{pname}' is {o.dtype}, the parameter is {d}")
            if isinstance(o, Array):
                if o.readonly:
                    raise ValueError(f"{self.name}: output '{pname}' is read-only")
                dev_outs.append(o)
                host_outs.append(None)
            else:
                if not o.flags.writeable:
                    raise ValueError(f"{self.name}: output '{pname}' is read-only")
                dev_outs.append(npgpu.empty(shape, d, device=device, stream=stream))
                host_outs.append(o)

        n = 1
        for e in shape:
            n *= e
        if n > 0:
            arrays = [a for a in dev_ins if a is not None] + dev_outs
            strides = [_broadcast_strides(shape, a.shape, a.strides) for a in arrays]
            cshape, cstrides = _coalesce(tuple(shape), strides)
            # Every operand contiguous in one dimension: typed indexing, and 32-bit indices with one element
            # per thread when they fit.
            mode = "strided"
            if len(cshape) == 1 and all(st[0] == a.itemsize for a, st in zip(arrays, cstrides)):
                mode = "contig32" if n < (1 << 31) - _BLOCK else "contig"
            kernel = self._kernel(tuple(in_dtypes), tuple(out_dtypes), tuple(s is not None for s in scalars),
                                  len(cshape), device, mode)
            words = [n, *cshape]
            ptr_pos = []
            for a, st in zip(arrays, cstrides):
                ptr_pos.append(len(words))
                words.append(a.ptr)
                words.extend(st)
            scalar_pos = []
            for k, (s, d) in enumerate(zip(scalars, in_dtypes)):
                if s is not None:
                    scalar_pos.append((k, len(words), d))
                    words.append(_scalar_word(s, d))
            grid = (n + _BLOCK - 1) // _BLOCK if mode == "contig32" else \
                min((n + _BLOCK - 1) // _BLOCK, self._max_blocks(device))
            kernel.launch_words(words, grid, _BLOCK, stream)
            # Remember how to repeat this call quickly: device arrays of these dtypes and layouts, scalars of
            # these types, no outputs given.
            if on_device and len(args) == nin and all(a is None or a is x for a, x in zip(dev_ins, ins)) and \
                    all(isinstance(a, (Array, bool, int, float, np.generic)) for a in ins):
                pos = iter(ptr_pos)
                inputs = [(next(pos), a, d) if a is not None else None for a, d in zip(dev_ins, in_dtypes)]
                for k, p, d in scalar_pos:
                    inputs[k] = (p, type(ins[k]), d)
                outputs = [(next(pos), tuple(shape), d) for d in out_dtypes]
                convert = functools.partial(self._scalar_word_of, tuple(in_dtypes))
                self._plans = [_rtc.ElementwisePlan(kernel, grid, _BLOCK, words, inputs, outputs, convert)] + \
                    self._plans[:7]

        if on_device:
            return dev_outs[0] if len(dev_outs) == 1 else tuple(dev_outs)
        results = []
        for dev, host in zip(dev_outs, host_outs):
            r = dev.get(stream=stream)
            if host is not None:
                host[...] = r
                r = host
            elif r.ndim == 0:
                r = r[()]
            results.append(r)
        return results[0] if len(results) == 1 else tuple(results)

    # ------------------------------------------------------------------------------------------ code

    def _max_blocks(self, device):
        m = self._grid.get(device)
        if m is None:
            dev = npgpu.Device(device)
            m = self._grid[device] = dev.multiprocessor_count * (dev.max_threads_per_multiprocessor // _BLOCK) * 4
        return m

    def source(self, in_dtypes, out_dtypes, scalar_mask, ndim, mode="strided"):
        """The CUDA C++ source compiled for these argument dtypes, scalar inputs and dimensions. `mode`:
        'strided' (byte strides per dimension), 'contig' (one dimension, every operand contiguous) or
        'contig32' (that, with one element per thread and fewer than 2^31 elements)."""
        kname = f"npgpu_ew_{self.name}"
        lines = ["// npgpu.ElementwiseKernel " + self.name, self.preamble, "struct npgpu_params {",
                 "  long long n;", f"  long long shape[{ndim}];"]
        arrays = [(n, d, False) for (n, _), d, s in zip(self.in_params, in_dtypes, scalar_mask) if not s]
        arrays += [(n, d, True) for (n, _), d in zip(self.out_params, out_dtypes)]
        scal = [(n, d) for (n, _), d, s in zip(self.in_params, in_dtypes, scalar_mask) if s]
        for n, _, _ in arrays:
            lines.append(f"  char* p_{n};")
            lines.append(f"  long long s_{n}[{ndim}];")
        for n, _ in scal:
            lines.append(f"  unsigned long long v_{n};")
        lines.append("};")
        lines.append(f'extern "C" __global__ void {kname}(const npgpu_params P) {{')
        for n, d in scal:
            c = C_TYPE[d]
            lines.append(f"  {c} npgpu_v_{n}; memcpy(&npgpu_v_{n}, &P.v_{n}, sizeof({c}));")
        if mode == "contig32":
            lines.append("  {")
            lines.append("    const long long i = (long long)(blockIdx.x * blockDim.x + threadIdx.x);")
            lines.append("    if (i >= P.n) return;")
        else:
            lines.append("  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < P.n; "
                         "i += (long long)gridDim.x * blockDim.x) {")
        if mode in ("contig", "contig32"):
            pass
        elif ndim == 1:
            for n, _, _ in arrays:
                lines.append(f"    const long long npgpu_o_{n} = i * P.s_{n}[0];")
        else:
            for n, _, _ in arrays:
                lines.append(f"    long long npgpu_o_{n} = 0;")
            lines.append("    long long npgpu_r = i;")
            lines.append("#pragma unroll")
            lines.append(f"    for (int npgpu_d = {ndim - 1}; npgpu_d >= 0; --npgpu_d) {{")
            lines.append("      const long long npgpu_c = npgpu_r % P.shape[npgpu_d];")
            lines.append("      npgpu_r /= P.shape[npgpu_d];")
            for n, _, _ in arrays:
                lines.append(f"      npgpu_o_{n} += npgpu_c * P.s_{n}[npgpu_d];")
            lines.append("    }")
        for n, d, is_out in arrays:
            c = C_TYPE[d]
            if mode != "strided":
                q = "" if is_out else "const "
                lines.append(f"    {q}{c}{'&' if is_out else ''} {n} = reinterpret_cast<{q}{c}*>(P.p_{n})[i];")
                continue
            if is_out:
                lines.append(f"    {c}& {n} = *reinterpret_cast<{c}*>(P.p_{n} + npgpu_o_{n});")
            else:
                lines.append(f"    const {c} {n} = *reinterpret_cast<const {c}*>(P.p_{n} + npgpu_o_{n});")
        for n, d in scal:
            lines.append(f"    const {C_TYPE[d]} {n} = npgpu_v_{n};")
        lines.append("    {")
        lines.append("      " + self.operation.strip().rstrip(";") + ";")
        lines.append("    }")
        lines.append("  }")
        lines.append("}")
        return "\n".join(lines) + "\n", kname

    def _kernel(self, in_dtypes, out_dtypes, scalar_mask, ndim, device, mode="strided"):
        key = (in_dtypes, out_dtypes, scalar_mask, ndim, device, mode)
        k = self._kernels.get(key)
        if k is None:
            src, kname = self.source(in_dtypes, out_dtypes, scalar_mask, ndim, mode)
            with npgpu.Device(device):
                mod = _rtc.SourceModule(src, options=self.options, _check_backend=False)
            k = self._kernels[key] = mod.get_function(kname)
        return k
