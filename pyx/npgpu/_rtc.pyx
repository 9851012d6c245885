# cython: language_level=3
"""Kernels compiled at run time (reference page 003): ``SourceModule`` compiles CUDA C++ with NVRTC for the
current GPU, ``get_function`` returns a ``Kernel`` that launches with ``f(*args, grid=, block=,
shared_mem=, stream=)``. Arguments are checked against the parameters the driver reports before every
launch. Compiled code is cached in memory and on disk (``NPGPU_CACHE_DIR``, default
``~/.cache/npgpu/kernels``), keyed by source, options, target architecture and NVRTC version."""
import hashlib
import json
import operator
import os
import struct
import threading

import numpy as np

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.long cimport PyLong_AsUnsignedLongLongMask
from libc.stdint cimport int64_t, uint64_t, uintptr_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcmp, memcpy
from libcpp.string cimport string
from libcpp.vector cimport vector

from npgpu._array cimport Array, dtype_code, new_array, new_array_like_view
from npgpu._runtime cimport resolve_stream
from npgpu.lib cimport runtime as rt
from npgpu.lib.launch cimport Dim3
from npgpu.lib.view cimport ArrayView, DType
from npgpu.lib.rtc cimport RtcCompileResult, RtcKernel, RtcKernelInfo, RtcLibrary, nvrtc_version as c_nvrtc_version, \
    nvrtc_supported_archs as c_supported_archs, rtc_device_arch, rtc_compile, rtc_library_load, rtc_get_kernel, \
    rtc_kernel_names, rtc_launch, rtc_install_bundled_headers
from npgpu.lib.memory cimport copy_to_device_staged, copy_to_host_staged
from npgpu.lib.runtime cimport StreamHandle

from npgpu._errors import GPUUnavailableError
from npgpu import _runtime

cdef object _np_generic = np.generic
cdef dict _device_arch_cache = {}


class CompileError(RuntimeError):
    """NVRTC rejected a kernel's source (or its options).

    A RuntimeError. ``log`` holds NVRTC's messages with line numbers (``kernel.cu(3): error: ...``);
    ``options`` the options it was compiled with. compile_source's message names the NVRTC version, the file
    name and the options, followed by the log. It pickles with its log and options.

    Parameters
    ----------
    message : str
        The exception's message.
    log : str, optional
        NVRTC's log.
    options : iterable of str, optional
        The options of the compile (kept as a tuple).

    Attributes
    ----------
    log : str
        NVRTC's messages.
    options : tuple of str
        The options the source was compiled with.

    See Also
    --------
    compile_source, SourceModule

    Examples
    --------
    >>> e = npgpu.CompileError("could not compile kernel.cu", "kernel.cu(1): error: ...", ["-lineinfo"])
    >>> isinstance(e, RuntimeError), e.options
    (True, ('-lineinfo',))
    """

    def __init__(self, message, log="", options=()):
        super().__init__(message)
        self.log = log
        self.options = tuple(options)

    def __reduce__(self):
        return (type(self), (self.args[0], self.log, self.options))


def require_gpu(what):
    """Raise RuntimeError (GPUUnavailableError) unless NumPy-data calls of this thread run on a GPU.

    Passes when the thread's backend (``npgpu.get_backend()``) is 'cuda' and CUDA starts; there is no host
    backend for CUDA C++ source.

    Parameters
    ----------
    what : str
        The name of the caller, at the head of the message.

    Raises
    ------
    GPUUnavailableError
        The backend is 'cpu' (the message says whether for want of a GPU, with the reason, or by
        ``NPGPU_BACKEND`` / ``npgpu.use_backend``), or it is 'cuda' and CUDA cannot start.

    Examples
    --------
    >>> with npgpu.use_backend("cpu"):
    ...     npgpu._rtc.require_gpu("SourceModule")
    Traceback (most recent call last):
        ...
    npgpu._errors.GPUUnavailableError: SourceModule: run-time compiled kernels need a GPU, and ...
    """
    backend = _runtime.get_backend()
    if backend == "cuda":
        rt.require_device(0)  # GPUUnavailableError naming the reason when CUDA cannot start
        return
    reason = _runtime.unavailable_reason()
    why = f"no GPU is available ({reason})" if reason else "the backend is 'cpu' (NPGPU_BACKEND or npgpu.use_backend)"
    raise GPUUnavailableError(f"{what}: run-time compiled kernels need a GPU, and {why}; there is no host "
                              f"backend for CUDA C++ source")


# ----------------------------------------------------------------------------------------------- NVRTC

_nvrtc_version = None


def nvrtc_version():
    """(major, minor) of the NVRTC npgpu compiles with.

    NVRTC is opened from the nvidia-cuda-nvrtc wheel or the CUDA toolkit; needs no GPU. The answer is
    remembered for the process.

    Returns
    -------
    tuple of int
        ``(major, minor)``, e.g. (13, 0).

    Raises
    ------
    GPUUnavailableError
        NVRTC cannot be loaded (a RuntimeError).

    Examples
    --------
    >>> major, minor = npgpu._rtc.nvrtc_version()
    >>> major >= 12
    True
    """
    global _nvrtc_version
    if _nvrtc_version is None:
        v = c_nvrtc_version()
        _nvrtc_version = (v // 1000, v % 1000 // 10)
    return _nvrtc_version


def supported_archs():
    """The real architectures NVRTC can compile for, e.g. [75, 80, 86, 89, 90, ...].

    Needs NVRTC, not a GPU.

    Returns
    -------
    list of int
        Compute capabilities times 10, in increasing order.

    Raises
    ------
    GPUUnavailableError
        NVRTC cannot be loaded (a RuntimeError).

    Examples
    --------
    >>> archs = npgpu._rtc.supported_archs()
    >>> archs == sorted(archs)
    True
    """
    return list(c_supported_archs())


def device_arch(device=None):
    """The ``sm_XX`` target SourceModule compiles for on `device` (default: the current one).

    The device's own compute capability when NVRTC supports it, else the highest architecture NVRTC
    supports of the same major version below it (a cubin runs on later minor revisions of its major
    architecture).

    Parameters
    ----------
    device : int, optional
        The device ordinal; default: the calling thread's current device.

    Returns
    -------
    str
        Such as ``"sm_90"``.

    Raises
    ------
    GPUUnavailableError
        No GPU is usable, NVRTC cannot be loaded, or NVRTC cannot compile for this GPU (the message names the
        architectures it supports).
    ValueError
        `device` is not an ordinal of this machine.

    Examples
    --------
    >>> npgpu._rtc.device_arch()  # doctest: +SKIP
    'sm_90'
    """
    cdef int d = rt.current_device() if device is None else device
    return f"sm_{rtc_device_arch(d)}"


# ----------------------------------------------------------------------------------------------- cache

_CACHE_FORMAT = 1
_MAGIC = b"NPGPURTC"
_lock = threading.RLock()
_memory_cache = {}   # key -> Compiled
_libraries = {}      # (key, device) -> _Library (never unloaded: kernels may still run from them)
_stats = {"compiles": 0, "memory_hits": 0, "disk_hits": 0, "disk_writes": 0, "disk_errors": 0}


def cache_dir():
    """Where compiled kernels are kept on disk.

    ``NPGPU_CACHE_DIR``, else ``$XDG_CACHE_HOME/npgpu/kernels``, else ``~/.cache/npgpu/kernels``, read from
    the environment at each call. ``NPGPU_DISABLE_KERNEL_CACHE=1`` (or true, yes, on) turns the disk cache
    off. Compiled kernels are written readable by the user only (files 0600, in subdirectories 0700): a
    kernel loaded from the cache runs with the user's rights.

    Returns
    -------
    str
        An absolute path (``~`` expanded in ``NPGPU_CACHE_DIR``); it may not exist yet.

    See Also
    --------
    cache_info, compile_source

    Examples
    --------
    >>> npgpu._rtc.cache_dir()  # doctest: +SKIP
    '/home/me/.cache/npgpu/kernels'
    """
    d = os.environ.get("NPGPU_CACHE_DIR")
    if d:
        return os.path.abspath(os.path.expanduser(d))
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "npgpu", "kernels")


def _disk_cache_enabled():
    return os.environ.get("NPGPU_DISABLE_KERNEL_CACHE", "").strip().lower() not in ("1", "true", "yes", "on")


def cache_info():
    """Counters of this process: compiles (NVRTC runs), memory_hits, disk_hits, disk_writes, disk_errors.

    ``disk_errors`` counts cache entries that could not be read or were stale or corrupt (then recompiled and
    overwritten) and writes that failed (a read-only or full cache directory only costs recompiling).

    Returns
    -------
    dict
        A copy of the counters, by name.

    Examples
    --------
    >>> sorted(npgpu._rtc.cache_info())
    ['compiles', 'disk_errors', 'disk_hits', 'disk_writes', 'memory_hits']
    """
    return dict(_stats)


def clear_memory_cache():
    """Forget compiled code held in memory (loaded modules stay loaded); the disk cache is untouched.

    Examples
    --------
    >>> npgpu._rtc.clear_memory_cache()
    """
    with _lock:
        _memory_cache.clear()


class Compiled:
    """The result of compile_source.

    Attributes
    ----------
    binary : bytes
        The cubin, or NUL-terminated PTX when `is_ptx`.
    is_ptx : bool
        Whether `binary` is PTX (a ``compute_XX`` target) rather than a cubin (``sm_XX``).
    lowered_names : dict
        Name expression -> mangled kernel name.
    log : str
        NVRTC's messages.
    key : str
        The cache key (a SHA-256 hex digest of the source, options, name expressions and NVRTC version).
    options : tuple of str
        The options of the compile.
    source_of_result : str
        'compiled', 'memory' or 'disk': where this result came from.
    """

    __slots__ = ("binary", "is_ptx", "lowered_names", "log", "key", "options", "source_of_result")

    def __init__(self, binary, is_ptx, lowered_names, log, key, options, source_of_result):
        self.binary = binary
        self.is_ptx = is_ptx
        self.lowered_names = lowered_names
        self.log = log
        self.key = key
        self.options = options
        self.source_of_result = source_of_result

    def _with_origin(self, origin):
        return Compiled(self.binary, self.is_ptx, self.lowered_names, self.log, self.key, self.options, origin)


def _cache_key(source, options, name_expressions):
    ver = nvrtc_version()
    blob = json.dumps([_CACHE_FORMAT, source, list(options), list(name_expressions), list(ver)],
                      ensure_ascii=False).encode("utf-8")
    return hashlib.sha256(blob).hexdigest()


def _read_disk(key):
    path = os.path.join(cache_dir(), key[:2], key + ".bin")
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    try:
        if data[:8] != _MAGIC:
            raise ValueError("bad magic")
        (hlen,) = struct.unpack_from("<I", data, 8)
        header = json.loads(data[12:12 + hlen].decode("utf-8"))
        binary = data[12 + hlen:]
        if header.get("format") != _CACHE_FORMAT or header.get("key") != key or \
                hashlib.sha256(binary).hexdigest() != header.get("sha256"):
            raise ValueError("stale or corrupt entry")
        return Compiled(binary, bool(header["is_ptx"]), dict(header["lowered_names"]), header.get("log", ""),
                        key, tuple(header.get("options", ())), "disk")
    except Exception:
        _stats["disk_errors"] += 1
        return None  # recompiled and overwritten


def _write_disk(c):
    import tempfile
    d = os.path.join(cache_dir(), c.key[:2])
    header = json.dumps({"format": _CACHE_FORMAT, "key": c.key, "sha256": hashlib.sha256(c.binary).hexdigest(),
                         "is_ptx": c.is_ptx, "lowered_names": c.lowered_names, "log": c.log,
                         "options": list(c.options), "nvrtc": list(nvrtc_version())}).encode("utf-8")
    try:
        # readable by this user only: a kernel loaded from here runs with the user's rights (entries are
        # 0600, mkstemp's mode)
        os.makedirs(cache_dir(), mode=0o700, exist_ok=True)
        os.makedirs(d, mode=0o700, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=d, prefix=".tmp-", suffix=".bin")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(_MAGIC + struct.pack("<I", len(header)) + header + c.binary)
            os.replace(tmp, os.path.join(d, c.key + ".bin"))  # atomic: readers never see half a file
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
        _stats["disk_writes"] += 1
    except OSError:
        _stats["disk_errors"] += 1  # a read-only or full cache directory only costs recompiling


_header_dirs = None


def header_dirs():
    """Directories with the CUDA headers kernels may #include (cuda_fp16.h, cuda/std/..., cub/...).

    The headers bundled with NVRTC, extracted once per NVRTC version next to the kernel cache (NVRTC 13.1+;
    into ``<tempdir>/npgpu-<uid>`` when the cache directory cannot be written), else the CUDA toolkit's
    include directories ($CUDA_HOME, $CUDA_PATH, /usr/local/cuda) that exist. The answer is remembered for
    the process. SourceModule adds these directories (``-I``) when its source contains ``#include``.

    Returns
    -------
    list of str
        The directories (a new list each call); empty when none was found.

    Raises
    ------
    GPUUnavailableError
        NVRTC cannot be loaded (a RuntimeError).

    Examples
    --------
    >>> npgpu._rtc.header_dirs()  # doctest: +SKIP
    ['/home/me/.cache/npgpu/kernels/nvrtc-headers-13.1', '/home/me/.cache/npgpu/kernels/nvrtc-headers-13.1/cccl']
    """
    global _header_dirs
    if _header_dirs is not None:
        return list(_header_dirs)
    import tempfile
    major, minor = nvrtc_version()
    dirs = []
    cdef string path
    cdef bint ok = False
    name = f"nvrtc-headers-{major}.{minor}"
    for target in (os.path.join(cache_dir(), name),
                   os.path.join(tempfile.gettempdir(), f"npgpu-{os.getuid()}", name)):
        path = target.encode("utf-8")
        try:
            with nogil:
                ok = rtc_install_bundled_headers(path)
        except RuntimeError:
            continue  # an unwritable directory: try the next
        if ok:
            dirs = [target, os.path.join(target, "cccl")]
        break
    if not dirs:
        for var in ("CUDA_HOME", "CUDA_PATH", None):
            root = os.environ.get(var) if var else "/usr/local/cuda"
            if root and os.path.isfile(os.path.join(root, "include", "cuda_fp16.h")):
                dirs = [os.path.join(root, "include")]
                if os.path.isdir(os.path.join(root, "include", "cccl")):
                    dirs.append(os.path.join(root, "include", "cccl"))
                break
    _header_dirs = dirs
    return list(dirs)


def _as_str_list(value, what):
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    out = []
    for v in value:
        if not isinstance(v, str):
            raise TypeError(f"{what} must be strings, got {type(v).__name__} {v!r}")
        out.append(v)
    return out


def compile_source(source, options=(), name_expressions=(), name="kernel.cu", cache=True, _try_minimal=False):
    """Compile CUDA C++ `source` with NVRTC and these exact `options`.

    Add ``--gpu-architecture=sm_XX`` for a cubin; compute_XX gives PTX. Needs NVRTC, not a GPU. Returns a
    Compiled; raises CompileError with NVRTC's log when the source does not compile. With `cache`, results
    come from (and go to) the memory and disk caches, keyed by the source, the options, the name expressions
    and the NVRTC version. The caches are guarded by one lock: compiles of several threads run one at a time.

    Parameters
    ----------
    source : str
        The CUDA C++ source.
    options : str or iterable of str, optional
        NVRTC's options, passed as they are.
    name_expressions : str or iterable of str, optional
        C++ names to instantiate and look up, such as ``"add<float>"``; their mangled names come back in
        ``lowered_names``.
    name : str, optional
        The file name NVRTC's messages give (default "kernel.cu"; not part of the cache key).
    cache : bool, optional
        Use the memory and disk caches (default True; the disk cache also needs
        ``NPGPU_DISABLE_KERNEL_CACHE`` unset). False always compiles and stores nothing.

    Returns
    -------
    Compiled
        The code; its ``source_of_result`` says whether it was compiled or came from a cache.

    Raises
    ------
    CompileError
        NVRTC rejected the source or the options (a RuntimeError with NVRTC's log).
    TypeError
        `source` is not a str, or an option or name expression is not.
    ValueError
        `source` contains a NUL character.
    GPUUnavailableError
        NVRTC cannot be loaded (a RuntimeError).

    See Also
    --------
    SourceModule : Compile and load for the current GPU.
    cache_dir, cache_info

    Examples
    --------
    >>> src = 'extern "C" __global__ void one(float* x) { x[0] = 1.0f; }'
    >>> c = npgpu._rtc.compile_source(src, ["--gpu-architecture=compute_75"], cache=False)
    >>> c.is_ptx, c.source_of_result
    (True, 'compiled')
    >>> npgpu._rtc.compile_source("__global__ void k() { undefined(); }", cache=False)
    Traceback (most recent call last):
        ...
    npgpu._rtc.CompileError: NVRTC ... could not compile kernel.cu (options: none):
    kernel.cu(1): error: identifier "undefined" is undefined
    ...
    """
    if not isinstance(source, str):
        raise TypeError(f"source must be a str, not {type(source).__name__}")
    opts = _as_str_list(options, "options")
    exprs = _as_str_list(name_expressions, "name_expressions")
    key = _cache_key(source, opts, exprs)
    cdef RtcCompileResult r
    cdef string c_src, c_name
    cdef vector[string] c_opts, c_exprs
    with _lock:
        if cache:
            hit = _memory_cache.get(key)
            if hit is not None:
                _stats["memory_hits"] += 1
                return hit._with_origin("memory")
            if _disk_cache_enabled():
                hit = _read_disk(key)
                if hit is not None:
                    _stats["disk_hits"] += 1
                    _memory_cache[key] = hit
                    return hit
        c_src = source.encode("utf-8")
        c_name = str(name).encode("utf-8")
        for o in opts:
            c_opts.push_back(o.encode("utf-8"))
        for e in exprs:
            c_exprs.push_back(e.encode("utf-8"))
        if _try_minimal:
            # NVRTC's -minimal leaves out the runtime API's declarations and texture types, which most kernels
            # never name, and compiles faster; a source that needs them compiles again without it.
            c_opts.push_back(b"-minimal")
            with nogil:
                r = rtc_compile(c_src, c_name, c_opts, c_exprs)
            c_opts.pop_back()
            if r.ok:
                opts = opts + ["-minimal"]
            else:
                _stats["compiles"] += 1
        if not _try_minimal or not r.ok:
            with nogil:
                r = rtc_compile(c_src, c_name, c_opts, c_exprs)
        _stats["compiles"] += 1
        log = r.log.decode("utf-8", "replace")
        if not r.ok:
            major, minor = nvrtc_version()
            raise CompileError(f"NVRTC {major}.{minor} could not compile {name} (options: {' '.join(opts) or 'none'}):"
                               f"\n{log}", log, opts)
        lowered = {e: r.lowered_names[i].decode("utf-8") for i, e in enumerate(exprs)}
        c = Compiled(bytes(r.binary), r.is_ptx, lowered, log, key, tuple(opts), "compiled")
        if cache:
            _memory_cache[key] = c
            if _disk_cache_enabled():
                _write_disk(c)
        return c


# ----------------------------------------------------------------------------------------------- modules

cdef class _Library:
    """A loaded cubin/PTX image (cudaLibrary_t); kept for the life of the process."""
    cdef RtcLibrary handle
    cdef readonly int device
    cdef object _names
    cdef dict kernels  # symbol -> Kernel, shared by the SourceModules of this code

    def kernel_names(self):
        if self._names is None:
            self._names = [n.decode("utf-8", "replace") for n in rtc_kernel_names(self.handle, self.device)]
        return self._names


cdef _Library _load_library(object compiled, int device):
    cache_key = (compiled.key, device)
    cdef _Library lib
    with _lock:
        lib = _libraries.get(cache_key)
        if lib is not None:
            return lib
        lib = _Library.__new__(_Library)
        binary = compiled.binary
        if compiled.is_ptx and not binary.endswith(b"\0"):
            binary = binary + b"\0"
        lib.handle = rtc_library_load(<const char*>binary, device)
        lib.device = device
        lib.kernels = {}
        _libraries[cache_key] = lib
        return lib


def _mangled_prefix(name):
    parts = name.split("::")
    if len(parts) == 1:
        return f"_Z{len(name)}{name}"
    return "_ZN" + "".join(f"{len(p)}{p}" for p in parts) + "E"


def _has_arch_option(opts):
    for o in opts:
        if o.startswith(("-arch", "--gpu-architecture")):
            return True
    return False


class SourceModule:
    """CUDA C++ compiled at run time for the current GPU (PyCUDA's ``pycuda.compiler.SourceModule``).

    ``SourceModule(source, options=(), name_expressions=())`` compiles `source` with NVRTC for the current
    device's architecture (a cubin for ``sm_XX``; an explicit ``--gpu-architecture``/``-arch`` option
    overrides it, ``compute_XX`` giving PTX that the driver compiles). `options` are NVRTC's (``-lineinfo``,
    ``-DNAME=value``, ``--use_fast_math``, ``-I dir``...); `name_expressions` are C++ names to instantiate and
    look up, such as ``"add<float>"`` for a kernel template. ``get_function(name)`` returns a Kernel;
    plain kernel names are found whether or not they were declared ``extern "C"`` (set
    ``no_extern_c=False`` to wrap the source in ``extern "C" { }`` as PyCUDA does by default).

    A compile error raises CompileError carrying NVRTC's log. Compiled code is cached in memory and on disk
    (see npgpu._rtc.cache_dir), so the same module in a new process loads without compiling. On the host
    backend (no GPU, or NPGPU_BACKEND=cpu) this raises GPUUnavailableError (a RuntimeError).

    Parameters
    ----------
    source : str
        The CUDA C++ source.
    options : str or iterable of str, optional
        NVRTC's options.
    name_expressions : str or iterable of str, optional
        C++ names to instantiate and look up (kernel template instantiations, overloads).
    no_extern_c : bool, optional
        True (default): compile `source` as it is; False: wrap it in ``extern "C" { }``.
    arch : str, optional
        The target, such as ``"sm_80"`` (a cubin) or ``"compute_80"`` (PTX), passed as
        ``--gpu-architecture``; default: the current device's (see device_arch), unless `options` holds a
        ``--gpu-architecture`` or ``-arch`` option.
    include_dirs : str or iterable of str, optional
        Directories to search for #include files (each added as ``-I``). A source containing ``#include``
        also gets the CUDA headers of header_dirs().
    cache : bool, optional
        Use the memory and disk caches of compiled code (default True).

    Attributes
    ----------
    device : int
        The device the module was loaded on (the current one at construction).
    source : str
        The source compiled (wrapped in ``extern "C" { }`` when ``no_extern_c=False``).
    options : tuple of str
        Every option of the compile, the added ``-I`` and ``--gpu-architecture`` options included.
    name_expressions : tuple of str
        The name expressions.

    Raises
    ------
    GPUUnavailableError
        The backend is 'cpu' (no GPU, ``NPGPU_BACKEND=cpu`` or ``use_backend("cpu")``), CUDA cannot start,
        NVRTC cannot be loaded, or NVRTC cannot compile for this GPU.
    CompileError
        NVRTC rejected the source or the options.
    TypeError
        `source` is not a str, or an option, include directory or name expression is not.

    See Also
    --------
    Kernel : What get_function returns.
    In, Out, InOut : NumPy arrays as kernel arguments.
    compile_source : Compile without loading (no GPU needed).

    Notes
    -----
    The loaded code is kept for the life of the process (kernels may still run from it), once per compiled
    code and device: SourceModules of the same code on one device share it and their Kernel objects.

    Examples
    --------
    >>> src = ('extern "C" __global__ void scale(float* x, float a, int n) {'
    ...        '    int i = blockIdx.x * blockDim.x + threadIdx.x;'
    ...        '    if (i < n) x[i] *= a;'
    ...        '}')
    >>> mod = npgpu.SourceModule(src)  # doctest: +SKIP
    >>> scale = mod.get_function("scale")  # doctest: +SKIP
    >>> x = npgpu.asarray(np.arange(4, dtype=np.float32))  # doctest: +SKIP
    >>> scale(x, np.float32(2), np.int32(4), grid=(1,), block=(32,))  # doctest: +SKIP
    >>> x.get()  # doctest: +SKIP
    array([0., 2., 4., 6.], dtype=float32)
    """

    def __init__(self, source, options=(), name_expressions=(), *, no_extern_c=True, arch=None,
                 include_dirs=(), cache=True, _check_backend=True):
        if _check_backend:
            require_gpu("SourceModule")
        if not isinstance(source, str):
            raise TypeError(f"source must be a str, not {type(source).__name__}")
        if not no_extern_c:
            source = 'extern "C" {\n' + source + '\n}\n'
        opts = _as_str_list(options, "options") + [f"-I{d}" for d in _as_str_list(include_dirs, "include_dirs")]
        if "#include" in source:
            opts += [f"-I{d}" for d in header_dirs()]
        self.device = rt.current_device()
        if arch is not None:
            opts.append(f"--gpu-architecture={arch}")
        elif not _has_arch_option(opts):
            target = _device_arch_cache.get(self.device)
            if target is None:
                target = _device_arch_cache[self.device] = f"sm_{rtc_device_arch(self.device)}"
            opts.append(f"--gpu-architecture={target}")
        self.source = source
        self.options = tuple(opts)
        self.name_expressions = tuple(_as_str_list(name_expressions, "name_expressions"))
        # -minimal first unless the source includes headers or tests macros that -minimal leaves undefined
        try_minimal = "#include" not in source and "#if" not in source and "-minimal" not in opts
        self._compiled = compile_source(source, opts, self.name_expressions, cache=cache, _try_minimal=try_minimal)
        self._library = _load_library(self._compiled, self.device)
        self._functions = {}

    @property
    def log(self):
        """NVRTC's messages (warnings) from compiling this module ('' when it said nothing or was cached
        without any)."""
        return self._compiled.log

    @property
    def lowered_names(self):
        """Name expression -> mangled kernel name, as a new dict."""
        return dict(self._compiled.lowered_names)

    @property
    def binary(self):
        """The cubin (or PTX) the module was loaded from."""
        return self._compiled.binary

    @property
    def from_cache(self):
        """'compiled', 'memory' or 'disk': where this module's code came from."""
        return self._compiled.source_of_result

    def kernel_names(self):
        """The (mangled) names of the kernels in the module.

        Returns
        -------
        list of str
            The kernels' symbols, as the driver lists them.
        """
        return list(self._library.kernel_names())

    def get_function(self, name):
        """The kernel `name`: a name expression given at construction, an ``extern "C"`` kernel or a plain
        C++ kernel (its one mangled symbol is looked up). Raises ValueError when there is no such kernel.

        The Kernel is made once per name and module (later calls return the same object).

        Parameters
        ----------
        name : str
            The kernel's name.

        Returns
        -------
        Kernel
            The kernel, on the module's device.

        Raises
        ------
        ValueError
            The module has no kernel of that name (the message lists its kernels); the name is ambiguous
            (C++ overloads: declare the one wanted ``extern "C"`` or pass its signature in name_expressions);
            or it names a kernel template (pass the instantiation wanted in name_expressions).
        TypeError
            `name` is not a str.
        """
        if not isinstance(name, str):
            raise TypeError(f"kernel name must be a str, not {type(name).__name__}")
        k = self._functions.get(name)
        if k is not None:
            return k
        symbol = self._compiled.lowered_names.get(name)
        if symbol is None:
            names = self._library.kernel_names()
            if name in names:
                symbol = name
            else:
                prefix = _mangled_prefix(name)
                matches = [n for n in names if n.startswith(prefix) and not n[len(prefix):len(prefix) + 1] == "I"]
                templates = [n for n in names if n.startswith(prefix + "I")]
                if len(matches) == 1:
                    symbol = matches[0]
                elif len(matches) > 1:
                    raise ValueError(f"kernel name '{name}' is ambiguous (overloads {matches}); declare the one "
                                     f"you want extern \"C\" or pass its signature in name_expressions")
                elif templates:
                    raise ValueError(f"'{name}' is a kernel template: pass the instantiation you want in "
                                     f"name_expressions (e.g. \"{name}<float>\") and get_function that name")
                else:
                    raise ValueError(f"the module has no kernel named '{name}'; its kernels: {names}")
        k = _make_kernel(self, name, symbol)
        self._functions[name] = k
        return k


# ----------------------------------------------------------------------------------------------- In / Out

cdef class _HostArg:
    """A NumPy array handed to a kernel through a device copy (see In, Out, InOut)."""
    cdef readonly object array
    cdef readonly bint copy_in
    cdef readonly bint copy_out

    def __init__(self, array):
        if not isinstance(array, np.ndarray):
            raise TypeError(f"{type(self).__name__} takes a numpy.ndarray, not {type(array).__name__} (pass "
                            f"npgpu arrays to kernels directly)")
        if not (array.flags.c_contiguous or array.flags.f_contiguous):
            raise ValueError(f"{type(self).__name__}: the array must be contiguous (the kernel sees its memory "
                             f"as one block): use numpy.ascontiguousarray(a)")
        if self.copy_out and not array.flags.writeable:
            raise ValueError(f"{type(self).__name__}: the array is read-only")
        self.array = array

    def __repr__(self):
        return f"{type(self).__name__}({self.array.dtype}{list(self.array.shape)})"


cdef class In(_HostArg):
    """A NumPy array copied to the GPU before the launch (PyCUDA's drv.In); the kernel gets its pointer.

    The array is copied into new device memory, on the launch's stream, before the launch; nothing is copied
    back.

    Parameters
    ----------
    array : numpy.ndarray
        A C- or F-contiguous array (the kernel sees its memory as one block).

    Attributes
    ----------
    array : numpy.ndarray
        The array.
    copy_in, copy_out : bool
        True and False: copied to the GPU, not back.

    Raises
    ------
    TypeError
        `array` is not a numpy.ndarray (npgpu arrays are passed to kernels directly).
    ValueError
        `array` is not contiguous.

    See Also
    --------
    Out, InOut, Kernel

    Examples
    --------
    >>> npgpu.In(np.zeros(3))
    In(float64[3])
    >>> kernel(npgpu.In(a), npgpu.Out(b), np.int32(a.size), block=(256,), grid=(4,))  # doctest: +SKIP
    """
    def __cinit__(self, *args, **kwargs):
        self.copy_in = True
        self.copy_out = False


cdef class Out(_HostArg):
    """A NumPy array the kernel writes: device memory for it during the launch, copied into it afterwards.

    PyCUDA's drv.Out. The call returns once the array holds the results. The device memory starts
    uninitialised (nothing is copied in).

    Parameters
    ----------
    array : numpy.ndarray
        A C- or F-contiguous, writeable array.

    Attributes
    ----------
    array : numpy.ndarray
        The array.
    copy_in, copy_out : bool
        False and True: copied back only.

    Raises
    ------
    TypeError
        `array` is not a numpy.ndarray (npgpu arrays are passed to kernels directly).
    ValueError
        `array` is not contiguous, or is read-only.

    See Also
    --------
    In, InOut, Kernel

    Examples
    --------
    >>> npgpu.Out(np.empty((2, 3), dtype=np.float32))
    Out(float32[2, 3])
    """
    def __cinit__(self, *args, **kwargs):
        self.copy_in = False
        self.copy_out = True


cdef class InOut(_HostArg):
    """A NumPy array copied to the GPU before the launch and back after it (PyCUDA's drv.InOut).

    The call returns once the array holds the results.

    Parameters
    ----------
    array : numpy.ndarray
        A C- or F-contiguous, writeable array.

    Attributes
    ----------
    array : numpy.ndarray
        The array.
    copy_in, copy_out : bool
        True and True.

    Raises
    ------
    TypeError
        `array` is not a numpy.ndarray (npgpu arrays are passed to kernels directly).
    ValueError
        `array` is not contiguous, or is read-only.

    See Also
    --------
    In, Out, Kernel

    Examples
    --------
    >>> npgpu.InOut(np.zeros(4, dtype=np.int32))
    InOut(int32[4])
    """
    def __cinit__(self, *args, **kwargs):
        self.copy_in = True
        self.copy_out = True


# ----------------------------------------------------------------------------------------------- kernels

cdef Dim3 _dim3(object v, str what) except *:
    cdef Dim3 d
    cdef Py_ssize_t n
    if type(v) is int:
        d.x = v
        return d
    if type(v) is tuple:  # the common case: a tuple of Python ints
        n = len(<tuple>v)
        if 1 <= n <= 3:
            for k in range(n):
                if type((<tuple>v)[k]) is not int:
                    break
            else:
                d.x = (<tuple>v)[0]
                if n > 1:
                    d.y = (<tuple>v)[1]
                if n > 2:
                    d.z = (<tuple>v)[2]
                return d
    try:
        t = tuple(v)
    except TypeError:
        d.x = operator.index(v)
        return d
    n = len(t)
    if n < 1 or n > 3:
        raise ValueError(f"{what} must have 1 to 3 dimensions, got {v!r}")
    try:
        d.x = operator.index(t[0])
        if n > 1:
            d.y = operator.index(t[1])
        if n > 2:
            d.z = operator.index(t[2])
    except TypeError:
        raise TypeError(f"{what} dimensions must be ints, got {v!r}") from None
    return d


_PY_SCALAR_HINTS = {
    bool: {1: "numpy.bool_"},
    int: {1: "numpy.int8 or numpy.uint8", 2: "numpy.int16 or numpy.uint16",
          4: "numpy.int32 (C int) or numpy.uint32 (unsigned int)",
          8: "numpy.int64 (long long) or numpy.uint64 (unsigned long long)"},
    float: {2: "numpy.float16", 4: "numpy.float32 (C float)", 8: "numpy.float64 (C double)"},
    complex: {8: "numpy.complex64", 16: "numpy.complex128"},
}


cdef class Kernel:
    """A kernel of a SourceModule: ``f(*args, grid=(gx, gy, gz), block=(bx, by, bz), shared_mem=0,
    stream=None)`` launches it asynchronously (Out/InOut arguments make the call wait for their copies).

    Arguments, one per kernel parameter: npgpu arrays (or any object with ``__cuda_array_interface__``, or
    None for a null pointer) for pointer parameters; NumPy scalars of the parameter's exact size
    (``numpy.float32(x)``, ``numpy.int32(n)``) for value parameters; ``npgpu.In(a)``, ``Out(a)``,
    ``InOut(a)`` for NumPy arrays copied to the GPU before and back after the launch. Before each launch the
    number and sizes of the arguments are checked against the parameters the driver reports (Python ints and
    floats are refused: they have no C type), and the geometry and shared memory against the device's and
    the kernel's limits; errors raise TypeError or ValueError and leave the kernel usable.

    Kernels come from ``SourceModule.get_function``.

    Attributes
    ----------
    name : str
        The name it was looked up by.
    symbol : str
        Its (mangled) symbol in the module.
    device : int
        The device of its module.
    module : SourceModule
        The module it came from.
    num_params : int
        The number of parameters.
    param_sizes : tuple of int
        The size of each parameter, in bytes.
    attributes : dict
        What the driver reports about it.

    See Also
    --------
    SourceModule, In, Out, InOut
    check_arguments : The argument checks alone, without a GPU.
    """
    cdef RtcKernel handle
    cdef RtcKernelInfo info
    cdef readonly int device
    cdef readonly str name
    cdef readonly str symbol
    cdef readonly object module
    cdef Py_ssize_t nparams
    cdef int64_t arg_bytes

    @property
    def num_params(self):
        """The number of the kernel's parameters (as the driver reports them)."""
        return self.nparams

    @property
    def param_sizes(self):
        """The size in bytes of each of the kernel's parameters, as a tuple (8 for a pointer)."""
        return tuple(self.info.param_sizes)

    @property
    def attributes(self):
        """What the driver reports: max_threads_per_block, num_regs, shared_size_bytes (static),
        local_size_bytes, max_shared_bytes (static + dynamic a block may have), binary_version, param_sizes."""
        return {"max_threads_per_block": self.info.max_threads_per_block, "num_regs": self.info.num_regs,
                "shared_size_bytes": self.info.static_shared_bytes, "local_size_bytes": self.info.local_bytes,
                "max_shared_bytes": self.info.max_shared_bytes, "binary_version": self.info.binary_version,
                "param_sizes": tuple(self.info.param_sizes)}

    def __repr__(self):
        return f"<npgpu.Kernel {self.name} ({self.nparams} parameters) on device {self.device}>"

    def __call__(self, *args, grid=(1, 1), block=None, shared_mem=0, stream=None, shared=None):
        """Launch the kernel, asynchronously (Out/InOut arguments make the call wait for their copies).

        Parameters
        ----------
        *args
            One per kernel parameter: an npgpu.Array on the kernel's device (or any object with
            ``__cuda_array_interface__``, or None for a null pointer) for a pointer parameter; a NumPy scalar
            of the parameter's exact size for a value parameter; ``npgpu.In(a)``, ``Out(a)`` or ``InOut(a)``
            for a NumPy array.
        grid : int or tuple of int, optional
            Blocks along x, y and z: an int or a tuple of 1 to 3 ints (default (1, 1)).
        block : int or tuple of int
            Threads per block, in the same form (required).
        shared_mem : int, optional
            Bytes of dynamic shared memory per block (default 0). A size above what the kernel allows by
            default raises its limit (``cudaFuncAttributeMaxDynamicSharedMemorySize``) up to what the device
            allows.
        stream : Stream, optional
            The stream of the launch and of the In/Out copies (default: the current stream).
        shared : int, optional
            PyCUDA's name for `shared_mem`; it wins when given.

        Raises
        ------
        TypeError
            `block` is missing; the number of arguments is not the number of parameters; an argument has
            the wrong size or a type with no C meaning (Python ints and floats, NumPy arrays not wrapped in
            In/Out/InOut); or a geometry dimension is not an int.
        ValueError
            The geometry exceeds the device's or the kernel's limits, a dimension is below 1 or there are
            more than 3, `shared_mem` is negative or too large, or an npgpu.Array argument is on another
            device (a host Array included).
        """
        if block is None:
            raise TypeError(f"{self.name}: block=(x, y, z) is required")
        if shared is not None:  # PyCUDA's name
            shared_mem = shared
        cdef Dim3 g = _dim3(grid, "grid")
        cdef Dim3 b = _dim3(block, "block")
        cdef int64_t smem = shared_mem if type(shared_mem) is int else operator.index(shared_mem)
        cdef StreamHandle s = resolve_stream(stream)
        self._launch(args, g, b, smem, s)

    def launch_words(self, list words, Py_ssize_t grid, Py_ssize_t block, stream=None):
        """Launch a kernel of one by-value parameter made of 64-bit words: `words`, little-endian.

        Internal use: the elementwise kernels pack their arguments into one struct of 8-byte fields.
        Asynchronous.

        Parameters
        ----------
        words : list of int
            The fields, in order; each is taken modulo 2**64 (a negative int gives its two's complement).
        grid, block : int
            Blocks in the grid and threads per block, along x.
        stream : Stream, optional
            The stream of the launch (default: the current stream).

        Raises
        ------
        TypeError
            The kernel does not have exactly one parameter of ``8 * len(words)`` bytes, or a word is not an
            int.
        ValueError
            The geometry exceeds the device's or the kernel's limits.
        """
        cdef Py_ssize_t n = len(words)
        if self.nparams != 1 or self.info.param_sizes[0] != 8 * n:
            raise TypeError(f"{self.name}: launch_words needs a kernel of one {8 * n}-byte parameter; it has "
                            f"parameters of {self.param_sizes} bytes")
        cdef uint64_t stack_buf[64]
        cdef uint64_t* buf = stack_buf
        if n > 64:
            buf = <uint64_t*>malloc(n * sizeof(uint64_t))
            if buf == NULL:
                raise MemoryError()
        cdef Dim3 g
        cdef Dim3 b
        cdef void* ptrs[1]
        cdef Py_ssize_t i
        try:
            for i in range(n):
                w = words[i]
                if type(w) is not int:
                    w = operator.index(w)
                buf[i] = PyLong_AsUnsignedLongLongMask(w)
            g.x = grid
            b.x = block
            ptrs[0] = <void*>buf
            rtc_launch(self.handle, &self.info, g, b, 0, self.device, resolve_stream(stream), ptrs)
        finally:
            if buf != stack_buf:
                free(buf)

    cdef _launch(self, tuple args, Dim3 g, Dim3 b, int64_t smem, StreamHandle s):
        cdef Py_ssize_t n = len(args)
        if n != self.nparams:
            raise TypeError(f"{self.name}() takes {self.nparams} argument{'s' if self.nparams != 1 else ''} "
                            f"(parameters of {list(self.info.param_sizes)} bytes), got {n}")
        cdef char stack_buf[1024]
        cdef void* stack_ptrs[128]
        cdef char* buf = stack_buf
        cdef void** ptrs = stack_ptrs
        cdef bint heap = self.arg_bytes > 1024 or n > 128
        cdef Py_ssize_t i
        cdef int64_t off, size
        cdef void* p
        cdef Array tmp
        cdef _HostArg h
        cdef int64_t nbytes
        cdef uintptr_t hostptr
        outs = None
        if heap:
            buf = <char*>malloc(self.arg_bytes + 16)
            ptrs = <void**>malloc((n + 1) * sizeof(void*))
            if buf == NULL or ptrs == NULL:
                free(buf)
                free(ptrs)
                raise MemoryError()
        try:
            for i in range(n):
                a = args[i]
                off = self.info.param_offsets[i]
                size = self.info.param_sizes[i]
                ptrs[i] = buf + off
                t = type(a)
                if t is Array:
                    if size != sizeof(void*):
                        self._size_error(i, a, sizeof(void*), size)
                    if (<Array>a)._view.device != self.device:
                        raise ValueError(f"{self.name}: argument {i} is on device {(<Array>a)._view.device}, the "
                                         f"kernel's module on device {self.device}")
                    p = (<Array>a)._view.data
                    memcpy(buf + off, &p, sizeof(void*))
                elif isinstance(a, _np_generic):
                    data = a.tobytes()
                    if PyBytes_GET_SIZE(data) != size:
                        self._size_error(i, a, PyBytes_GET_SIZE(data), size)
                    memcpy(buf + off, PyBytes_AS_STRING(data), size)
                elif isinstance(a, _HostArg):
                    if size != sizeof(void*):
                        self._size_error(i, a, sizeof(void*), size)
                    h = <_HostArg>a
                    nbytes = h.array.nbytes
                    tmp = new_array((max(nbytes, 1),), np.uint8, self.device, s)
                    hostptr = h.array.__array_interface__["data"][0]
                    if h.copy_in and nbytes:
                        with nogil:
                            copy_to_device_staged(tmp._view.data, <void*>hostptr, nbytes, self.device, s)
                    if outs is None:
                        outs = []
                    outs.append((h, tmp))  # keeps the device copy alive until the launch is queued
                    p = tmp._view.data
                    memcpy(buf + off, &p, sizeof(void*))
                elif a is None:
                    if size != sizeof(void*):
                        self._size_error(i, a, sizeof(void*), size)
                    p = NULL
                    memcpy(buf + off, &p, sizeof(void*))
                elif hasattr(a, "__cuda_array_interface__"):
                    if size != sizeof(void*):
                        self._size_error(i, a, sizeof(void*), size)
                    p = <void*><uintptr_t>a.__cuda_array_interface__["data"][0]
                    memcpy(buf + off, &p, sizeof(void*))
                else:
                    self._type_error(i, a, size)
            rtc_launch(self.handle, &self.info, g, b, smem, self.device, s, ptrs)
            if outs is not None:
                for h, tmp in outs:
                    nbytes = h.array.nbytes
                    if h.copy_out and nbytes:
                        hostptr = h.array.__array_interface__["data"][0]
                        with nogil:
                            copy_to_host_staged(<void*>hostptr, tmp._view.data, nbytes, self.device, s)
        finally:
            if heap:
                free(buf)
                free(ptrs)

    cdef _size_error(self, Py_ssize_t i, object a, int64_t got, int64_t want):
        _raise_size_error(self.name, i, a, got, want)

    cdef _type_error(self, Py_ssize_t i, object a, int64_t size):
        _raise_type_error(self.name, i, a, size)


def _raise_size_error(name, i, a, got, want):
    if isinstance(a, np.generic):
        what = f"numpy.{a.dtype} ({got} bytes)"
    else:
        what = f"a pointer ({type(a).__name__}, {got} bytes)"
    hint = ""
    if want != 8 or isinstance(a, np.generic):
        hint = _size_hint(a, want)
    raise TypeError(f"{name}: argument {i} is {what}, but the kernel's parameter {i} has {want} bytes"
                    + (f"; pass {hint}" if hint else ""))


def _raise_type_error(name, i, a, size):
    t = type(a)
    if t in _PY_SCALAR_HINTS:
        hints = _PY_SCALAR_HINTS[t]
        hint = hints.get(size)
        tn = t.__name__
        if hint is None:
            raise TypeError(f"{name}: argument {i} is a Python {tn} ({a!r}), but the kernel's parameter {i} "
                            f"has {size} bytes, which no {tn} type has; pass a NumPy scalar of that size "
                            f"or a device array")
        first = hint.split()[0]
        raise TypeError(f"{name}: argument {i} is a Python {tn} ({a!r}); kernel parameters have fixed C "
                        f"types and a Python {tn} has none (a double passed where the kernel expects a float is "
                        f"silently misread). The kernel's parameter {i} has {size} bytes: pass {hint}, e.g. "
                        f"{first}({a!r})")
    if isinstance(a, np.ndarray):
        raise TypeError(f"{name}: argument {i} is a NumPy array in host memory, which a kernel cannot read: "
                        f"wrap it as npgpu.In(a) (copied to the GPU before the launch), npgpu.Out(a) (copied "
                        f"back after it) or npgpu.InOut(a), or pass a device array (npgpu.asarray(a))")
    raise TypeError(f"{name}: argument {i} has unsupported type {t.__name__}; pass npgpu arrays, NumPy "
                    f"scalars, or npgpu.In/Out/InOut(numpy array)")


def check_arguments(name, param_sizes, args):
    """Run the checks a Kernel launch makes on `args` for parameters of `param_sizes` bytes, without a GPU.

    Count, types and sizes are checked: raises TypeError as the launch would, returns None when they pass.
    npgpu.Arrays, In/Out/InOut, None and objects with ``__cuda_array_interface__`` are pointers (8 bytes);
    NumPy scalars must have the parameter's exact size. The error messages suggest the NumPy type to pass.

    Parameters
    ----------
    name : str
        The kernel's name, for the messages.
    param_sizes : iterable of int
        The size in bytes of each parameter.
    args : sequence
        The arguments.

    Returns
    -------
    None
        When the arguments pass.

    Raises
    ------
    TypeError
        The count differs, an argument's size differs from its parameter's, or an argument has no C type
        (a Python int, float, bool or complex; a NumPy array in host memory; any other object).

    See Also
    --------
    Kernel

    Examples
    --------
    >>> from npgpu import _rtc
    >>> x = npgpu.zeros(3, device="cpu")
    >>> _rtc.check_arguments("scale", (8, 4), (x, np.float32(2)))
    >>> _rtc.check_arguments("scale", (8, 4), (x, 2.0))
    Traceback (most recent call last):
        ...
    TypeError: scale: argument 1 is a Python float (2.0); ... pass numpy.float32 (C float), e.g. numpy.float32(2.0)
    """
    param_sizes = tuple(param_sizes)
    if len(args) != len(param_sizes):
        raise TypeError(f"{name}() takes {len(param_sizes)} argument{'s' if len(param_sizes) != 1 else ''} "
                        f"(parameters of {list(param_sizes)} bytes), got {len(args)}")
    for i, (a, size) in enumerate(zip(args, param_sizes)):
        if isinstance(a, (Array, _HostArg)) or a is None or (hasattr(a, "__cuda_array_interface__") and
                                                             not isinstance(a, np.ndarray)):
            if size != 8:
                _raise_size_error(name, i, a, 8, size)
        elif isinstance(a, np.generic):
            if a.nbytes != size:
                _raise_size_error(name, i, a, a.nbytes, size)
        else:
            _raise_type_error(name, i, a, size)


def _size_hint(a, size):
    kind = a.dtype.kind if isinstance(a, np.generic) else "i"
    table = {"f": _PY_SCALAR_HINTS[float], "c": _PY_SCALAR_HINTS[complex], "b": _PY_SCALAR_HINTS[bool]}
    hint = table.get(kind, _PY_SCALAR_HINTS[int]).get(size)
    if hint is None:
        hint = _PY_SCALAR_HINTS[int].get(size)
    if size == 8 and not isinstance(a, np.generic):
        return "an npgpu array for a pointer, or numpy.int64 / numpy.float64"
    return hint or f"a value of {size} bytes"


cdef class ElementwisePlan:
    """One prepared launch of a kernel of one parameter made of 64-bit words (an ElementwiseKernel's), for
    one layout of its inputs: npgpu arrays of given dtypes, shapes, strides and device, and scalars of given
    Python or NumPy types. ``run(args, stream)`` repeats the launch for inputs of that layout, with new
    outputs, and returns them; for any other inputs it launches nothing and returns None.

    Internal use: it takes the Python work out of a repeated call (each call's time on a small array is
    mostly host work).

    Parameters
    ----------
    kernel : Kernel
        The kernel; its one parameter has ``8 * len(words)`` bytes.
    grid, block : int
        The geometry along x.
    words : list of int
        The parameter's words, with those of the pointers and scalars below to be replaced each call.
    inputs : list of tuple
        Per input, ``(word, model, dtype)``: an npgpu Array `model` whose layout the input must match, its
        pointer written at `word`; or the exact type of a scalar input and its parameter's dtype, the value
        written at `word` (its bytes for a NumPy scalar of that dtype, else ``convert(k, value)``).
    outputs : list of tuple
        Per output, ``(word, shape, dtype)``: a new C-contiguous array on the kernel's device.
    convert : callable
        ``convert(k, value) -> int``: the word of scalar input `k`; it may raise for a value the parameter
        cannot take.
    """
    cdef Kernel kernel
    cdef Py_ssize_t grid, block
    cdef vector[uint64_t] words
    cdef vector[ArrayView] layouts   # per input: the layout an array must have (ndim -1 for a scalar)
    cdef vector[Py_ssize_t] in_word
    cdef list scalar_types           # per input: None (an array) or the exact type of the scalar
    cdef list exact                  # per input: whether a scalar's bytes are the word (its dtype's own type)
    cdef vector[ArrayView] out_layouts  # per output: its shape and device (a new C-contiguous array's)
    cdef vector[DType] out_codes
    cdef list out_dtypes
    cdef vector[Py_ssize_t] out_word
    cdef object convert

    def __init__(self, Kernel kernel, Py_ssize_t grid, Py_ssize_t block, list words, list inputs, list outputs,
                 convert):
        if kernel.nparams != 1 or kernel.info.param_sizes[0] != 8 * len(words):
            raise TypeError(f"{kernel.name}: an elementwise plan needs a kernel of one {8 * len(words)}-byte "
                            f"parameter")
        self.kernel, self.grid, self.block, self.convert = kernel, grid, block, convert
        for w in words:
            self.words.push_back(PyLong_AsUnsignedLongLongMask(w))
        self.scalar_types, self.exact, self.out_dtypes = [], [], []
        cdef ArrayView scalar_layout
        scalar_layout.ndim = -1
        for word, model, dtype in inputs:
            if not 0 <= word < len(words):
                raise ValueError(f"word {word} out of range")
            self.in_word.push_back(word)
            if type(model) is Array:
                if (<Array>model)._view.device != kernel.device:
                    raise ValueError("an input layout on another device than the kernel's")
                self.layouts.push_back((<Array>model)._view)
                self.scalar_types.append(None)
                self.exact.append(False)
            else:
                self.layouts.push_back(scalar_layout)
                self.scalar_types.append(model)
                self.exact.append(model is np.dtype(dtype).type)
        cdef ArrayView out_layout  # the shape and device of each call's new output (its strides are C order)
        for word, shape, dtype in outputs:
            if not 0 <= word < len(words):
                raise ValueError(f"word {word} out of range")
            if len(shape) > 32:
                raise ValueError(f"npgpu supports at most 32 dimensions, got {len(shape)}")
            self.out_word.push_back(word)
            out_layout.ndim = len(shape)
            out_layout.device = kernel.device
            for k, d in enumerate(shape):
                out_layout.shape[k] = d
            self.out_layouts.push_back(out_layout)
            self.out_codes.push_back(dtype_code(dtype))
            self.out_dtypes.append(np.dtype(dtype))

    def run(self, tuple args, stream=None):
        """Launch for `args` (the inputs) and return the new output (a tuple of them when several), or None
        when `args` do not have the plan's layout."""
        return self._run(args, stream)

    cdef object _run(self, tuple args, object stream):
        cdef Py_ssize_t n = len(args)
        if n != <Py_ssize_t>self.layouts.size():
            return None
        # The words of this call: a copy of the plan's, on the stack when they fit.
        cdef uint64_t stack_words[32]
        cdef vector[uint64_t] heap_words
        cdef uint64_t* w = stack_words
        if self.words.size() > 32:
            heap_words = self.words
            w = heap_words.data()
        else:
            memcpy(stack_words, self.words.data(), self.words.size() * sizeof(uint64_t))
        cdef Py_ssize_t k
        cdef const ArrayView* want
        cdef const ArrayView* got
        cdef bytes raw
        cdef uint64_t bits
        for k in range(n):
            a = args[k]
            want = &self.layouts[k]
            if want.ndim < 0:
                if type(a) is not self.scalar_types[k]:
                    return None
                if self.exact[k]:
                    raw = a.tobytes()
                    bits = 0
                    memcpy(&bits, PyBytes_AS_STRING(raw), PyBytes_GET_SIZE(raw))
                    w[self.in_word[k]] = bits
                else:
                    w[self.in_word[k]] = PyLong_AsUnsignedLongLongMask(self.convert(k, a))
                continue
            if type(a) is not Array:
                return None
            got = &(<Array>a)._view
            if got.dtype != want.dtype or got.device != want.device or got.ndim != want.ndim or \
                    memcmp(got.shape, want.shape, got.ndim * sizeof(int64_t)) != 0 or \
                    memcmp(got.strides, want.strides, got.ndim * sizeof(int64_t)) != 0:
                return None
            w[self.in_word[k]] = <uint64_t><uintptr_t>got.data
        cdef StreamHandle s = resolve_stream(stream)
        cdef Array out
        cdef Py_ssize_t nout = self.out_layouts.size()
        outs = [] if nout != 1 else None
        for k in range(nout):
            out = new_array_like_view(self.out_layouts[k], self.out_dtypes[k], self.out_codes[k], s)
            w[self.out_word[k]] = <uint64_t><uintptr_t>out._view.data
            if outs is not None:
                outs.append(out)
        cdef Dim3 g
        cdef Dim3 b
        g.x = self.grid
        b.x = self.block
        cdef void* ptrs[1]
        ptrs[0] = <void*>w
        rtc_launch(self.kernel.handle, &self.kernel.info, g, b, 0, self.kernel.device, s, ptrs)
        return out if nout == 1 else tuple(outs)


cdef class PlannedCall:
    """Base of ElementwiseKernel and vectorize's functions: a call with no keyword but `stream` whose inputs
    repeat the layout of a recent call is launched from that call's ElementwisePlan here, before any Python
    code of the subclass runs; any other call goes to the subclass's ``_call(args, stream, **kwargs)``.

    Internal use: on a small array a call's time is host work, and two Python frames were a tenth of it.
    """
    cdef public list _plans              # the ElementwisePlans of recent calls, the latest first
    cdef public PlannedCall _planned_by  # whose plans a call tries first: None for its own

    def __call__(self, *args, stream=None, **kwargs):
        cdef PlannedCall source = self if self._planned_by is None else self._planned_by
        if not kwargs and source._plans:
            for plan in source._plans:
                r = (<ElementwisePlan>plan)._run(args, stream)
                if r is not None:
                    return r
        return self._call(args, stream, **kwargs)


cdef Kernel _make_kernel(object module, str name, str symbol):
    cdef _Library lib = <_Library>module._library
    cdef Kernel k = lib.kernels.get(symbol)
    if k is not None:
        return k
    k = Kernel.__new__(Kernel)
    cdef bytes sym = symbol.encode("utf-8")
    k.handle = rtc_get_kernel(lib.handle, sym, lib.device, &k.info)
    k.device = lib.device
    k.name = name
    k.symbol = symbol
    k.module = module
    k.nparams = k.info.param_sizes.size()
    k.arg_bytes = 0
    for i in range(k.nparams):
        k.arg_bytes = max(k.arg_bytes, k.info.param_offsets[i] + k.info.param_sizes[i])
    lib.kernels[symbol] = k
    return k
