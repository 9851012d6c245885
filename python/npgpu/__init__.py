"""npgpu: GPU acceleration a ``pip install`` away for NumPy users.

NumPy arrays in, NumPy arrays out, computed on the GPU when one is present (on the host backend otherwise);
``npgpu.asarray`` keeps data on the GPU between calls. ``import npgpu`` makes no CUDA call: the first GPU
operation initialises CUDA.
"""
# The compiled core (arrays, devices, elementwise functions, reductions, sorting, indexing, BLAS, run-time
# kernels) and what is written over it: the Array API namespace (dtypes and their functions, creation,
# manipulation, composed elementwise functions, main-namespace linear algebra, set functions, histogram),
# NumPy's statistics (median, quantile, cov ...) and signal/polynomial helpers, einsum (the star-imported
# modules list their names in __all__), and the table behind Array.__array_function__ (_numpy_functions).
from npgpu import (
    _array,
    _creation,
    _dtypes,
    _elementwise_composed,
    _errstate,
    _histograms,
    _indexing,
    _io,
    _linear_algebra,
    _manipulation,
    _numpy_functions,  # noqa: F401 (Array.__array_function__'s table)
    _polynomial_signal,
    _set_functions,
    _statistics,
    emath,
    exceptions,
    fft,
    linalg,
    polynomial,
    profiler,
    random,
)
from npgpu._array import SUPPORTED_DTYPES, Array, asarray, empty, empty_pinned, from_dlpack, full, zeros
from npgpu._blas import dot, inner, matmul, matmul_reduce, outer, vdot
from npgpu._config import show_config, show_runtime
from npgpu._creation import *  # noqa: F401,F403
from npgpu._dtypes import *  # noqa: F401,F403
from npgpu._elementwise import (
    abs,
    absolute,
    add,
    arccos,
    arccosh,
    arcsin,
    arcsinh,
    arctan,
    arctan2,
    arctanh,
    astype,
    axpy,
    bitwise_and,
    bitwise_not,
    bitwise_or,
    bitwise_xor,
    cbrt,
    ceil,
    conj,
    conjugate,
    cos,
    cosh,
    divide,
    equal,
    exp,
    exp2,
    expm1,
    floor,
    floor_divide,
    greater,
    greater_equal,
    hypot,
    imag,
    invert,
    isfinite,
    isinf,
    isnan,
    left_shift,
    less,
    less_equal,
    log,
    log1p,
    log2,
    log10,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    maximum,
    minimum,
    mod,
    multiply,
    negative,
    not_equal,
    positive,
    power,
    real,
    reciprocal,
    remainder,
    right_shift,
    rint,
    sign,
    sin,
    sinh,
    sqrt,
    square,
    subtract,
    tan,
    tanh,
    true_divide,
    trunc,
    where,
)
from npgpu._elementwise_composed import *  # noqa: F401,F403
from npgpu._elementwise_composed import clip  # the bounds' keywords of NumPy and the standard, over _elementwise's
from npgpu._errors import CUDAError, GPUUnavailableError, OutOfMemoryError
from npgpu._errstate import *  # noqa: F401,F403
from npgpu._histograms import *  # noqa: F401,F403
from npgpu._indexing import (
    argwhere,
    choose,
    compress,
    extract,
    flatnonzero,
    nonzero,
    put,
    put_along_axis,
    searchsorted,
    take,
    take_along_axis,
)
from npgpu._io import *  # noqa: F401,F403
from npgpu._launch import LaunchIndices, check_geometry, launch_indices
from npgpu._linear_algebra import *  # noqa: F401,F403
from npgpu._manipulation import *  # noqa: F401,F403
from npgpu._paths import get_cmake_dir, get_include, get_library_dir
from npgpu._polynomial_signal import *  # noqa: F401,F403
from npgpu._random import monte_carlo_pi
from npgpu._reduce import (
    argmax,
    argmin,
    count_nonzero,
    cumprod,
    cumsum,
    nanargmax,
    nanargmin,
    norm,
)
from npgpu._rtc import CompileError, In, InOut, Kernel, Out, SourceModule
from npgpu._rtc_elementwise import ElementwiseKernel
from npgpu._runtime import (
    Device,
    Event,
    HostDevice,
    Stream,
    cpu,
    device_count,
    get_backend,
    get_current_stream,
    get_device_id,
    is_available,
    memory_info,
    runtime_info,
    set_staging_config,
    staging_config,
    synchronize,
    trim_memory_pool,
    unavailable_reason,
    use_backend,
)
from npgpu._set_functions import *  # noqa: F401,F403
from npgpu._sorting import argpartition, argsort, lexsort, partition, sort
from npgpu._statistics import *  # noqa: F401,F403
from npgpu._stencil import diffusion, laplacian
from npgpu._vectorize import vectorize

# NumPy's ufunc.at for the additive ufuncs (scatter-add); add and subtract stay plain functions, quick to call.
add.at = _indexing.add_at
subtract.at = _indexing.subtract_at

__version__ = "0.1.0"

__all__ = [
    "Array", "CUDAError", "Device", "Event", "HostDevice", "cpu", "GPUUnavailableError", "LaunchIndices",
    "OutOfMemoryError", "Stream", "SUPPORTED_DTYPES", "add", "asarray", "check_geometry", "device_count", "empty",
    "empty_pinned", "from_dlpack",
    "full", "get_backend", "get_cmake_dir", "get_current_stream", "get_device_id", "get_include",
    "get_library_dir", "is_available", "launch_indices", "memory_info", "profiler", "runtime_info",
    "set_staging_config", "show_config", "show_runtime", "staging_config", "synchronize",
    "trim_memory_pool", "unavailable_reason",
    "use_backend", "zeros",
    "diffusion", "laplacian",
    # elementwise
    "abs", "absolute", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2", "arctanh", "astype", "axpy",
    "bitwise_and", "bitwise_not", "bitwise_or", "bitwise_xor", "cbrt", "ceil", "clip", "conj", "conjugate", "cos",
    "cosh", "divide", "equal",
    "exp", "exp2", "expm1", "floor", "floor_divide", "greater", "greater_equal", "hypot", "imag", "invert",
    "isfinite", "isinf", "isnan", "left_shift", "less", "less_equal", "log", "log1p", "log2", "log10", "logical_and",
    "logical_not", "logical_or", "logical_xor", "maximum", "minimum", "mod", "multiply", "negative",
    "not_equal", "positive", "power", "real", "reciprocal", "remainder", "right_shift", "rint", "sign", "sin", "sinh",
    "sqrt", "square", "subtract", "tan", "tanh", "true_divide", "trunc", "where",
    "monte_carlo_pi", "random", "fft", "linalg", "polynomial", "emath", "exceptions",
    "dot", "inner", "matmul", "matmul_reduce", "outer", "vdot",
    "CompileError", "ElementwiseKernel", "In", "InOut", "Kernel", "Out", "SourceModule", "vectorize",
    "all", "amax", "amin", "any", "argmax", "argmin", "count_nonzero", "cumprod", "cumsum", "max", "mean", "min",
    "nanargmax", "nanargmin", "nanmax", "nanmean", "nanmin", "nanprod", "nanstd", "nansum", "nanvar", "norm",
    "prod", "std", "sum", "var",
    "argpartition", "argsort", "lexsort", "partition", "sort",
    "argwhere", "choose", "compress", "extract", "flatnonzero", "nonzero", "put", "put_along_axis",
    "searchsorted", "take", "take_along_axis",
]
# NumPy's name for the array type, so ``isinstance(x, npgpu.ndarray)`` reads as NumPy code does (constructing one
# directly raises TypeError, pointing to npgpu.empty and friends).
ndarray = Array
__all__ += ["ndarray"]
# The Array API standard's (and NumPy 2's) names of ufuncs npgpu already has under NumPy 1's names.
acos, asin, atan, atan2, pow, bitwise_invert = arccos, arcsin, arctan, arctan2, power, invert
acosh, asinh, atanh = arccosh, arcsinh, arctanh
bitwise_left_shift, bitwise_right_shift = left_shift, right_shift
__all__ += ["acos", "asin", "atan", "atan2", "pow", "bitwise_invert", "acosh", "asinh", "atanh",
            "bitwise_left_shift", "bitwise_right_shift"]
__all__ += (_dtypes.__all__ + _creation.__all__ + _manipulation.__all__ + _elementwise_composed.__all__ +
            _linear_algebra.__all__ + _set_functions.__all__ + _histograms.__all__)
__all__ += _statistics.__all__ + _polynomial_signal.__all__ + _io.__all__ + _errstate.__all__

# NumPy-style ufunc objects (keywords, reduce/accumulate/reduceat/outer/at, nin/nout/types ...) under the names
# above, plus the ufuncs composed of npgpu operations (divmod, fmod, frexp, ldexp, modf, gcd, lcm, ...).
from npgpu import _ufuncs  # noqa: E402
from npgpu._ufuncs import *  # noqa: E402,F401,F403

__all__ += [n for n in _ufuncs.__all__ if n not in __all__]

# NumPy's initial=, where= and mean= keywords on the reductions: wrappers of the compiled ones, same names.
from npgpu._reductions import (  # noqa: E402
    all,
    amax,
    amin,
    any,
    max,
    mean,
    min,
    nanmax,
    nanmean,
    nanmin,
    nanprod,
    nanstd,
    nansum,
    nanvar,
    prod,
    std,
    sum,
    var,
)

# Array's numpy.ndarray methods that call namespace functions defined above the core (Array.round, .take ...).
for _name in ("round", "repeat", "take", "put", "nonzero", "compress", "choose", "diagonal", "trace",
              "searchsorted", "partition", "argpartition", "divmod"):
    _array._register_op(_name, globals()[_name])
del _name
_array._register_op("flat", _manipulation.FlatIterator)
_array._register_op("byteswap", _manipulation._byteswap)


def __getattr__(name):
    # npgpu.sparse (and its SciPy-style solvers) is imported on first use, so `import npgpu` stays cheap
    if name == "sparse":
        import importlib

        return importlib.import_module("npgpu.sparse")
    raise AttributeError(f"module 'npgpu' has no attribute {name!r}")
