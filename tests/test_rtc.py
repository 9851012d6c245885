"""Run-time compiled kernels: SourceModule / Kernel (reference page 003), ElementwiseKernel, vectorize
(reference page 001), the compiled-code cache, argument checks and every error path.

Host-side tests (no GPU): the vectorize translator's output and refusals, argument checks, NVRTC compiles and
the disk cache (NVRTC needs no GPU; skipped when it is not installed), the RuntimeError on the host backend
(vectorize runs there instead: tests/test_vectorize_host.py).
"""
import json
import math
import os
import pathlib
import runpy
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import npgpu
from npgpu import _rtc, _vectorize
from npgpu._rtc_elementwise import ElementwiseKernel, parse_params

try:
    _rtc.nvrtc_version()
    HAS_NVRTC = True
except RuntimeError:
    HAS_NVRTC = False
nvrtc = pytest.mark.skipif(not HAS_NVRTC, reason="NVRTC (pip install nvidia-cuda-nvrtc) is not available")

ADD_SRC = r"""
__global__ void add_kernel(float *d_a, float *d_b, float *d_result, int N)
{
    int idx = threadIdx.x + blockDim.x * blockIdx.x;
    if (idx < N)
        d_result[idx] = d_a[idx] + d_b[idx];
}
"""

TEMPLATE_SRC = r"""
#include <cuda_fp16.h>
template <class T>
__global__ void axpy(T a, const T* x, T* y, long long n) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
"""

ARCH = ["--gpu-architecture=sm_90"]


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    d = tmp_path / "kernels"
    monkeypatch.setenv("NPGPU_CACHE_DIR", str(d))
    monkeypatch.delenv("NPGPU_DISABLE_KERNEL_CACHE", raising=False)
    return d


# ------------------------------------------------------------------------------------------ translator

K_GLOBAL = 3


def f_axpy(x, y):
    """a docstring is allowed"""
    return x * y + 2.5


def f_trig(x):
    return math.sin(x) ** 2 + math.cos(x) ** 2


def f_select(x, y):
    return x if x > y else y


def f_divmod(a, b):
    return a // b + a % b


def f_range(x):
    return 0 < x <= 1 and not math.isnan(x)


def f_mixed(x, y):
    return min(x, y, K_GLOBAL) + abs(x) + np.maximum(x, y)


def test_translator_output():
    assert _vectorize.translate(f_axpy, [np.float32, np.float32]) == \
        ("((a_x * a_y) + static_cast<float>(2.5))", np.dtype(np.float32))
    assert _vectorize.translate(f_axpy, [np.float64, np.float64]) == ("((a_x * a_y) + 2.5)", np.dtype(np.float64))
    # Integers times a Python float: float64 (NumPy's rule), the int32 product first.
    assert _vectorize.translate(f_axpy, [np.int32, np.int32]) == \
        ("(static_cast<double>((a_x * a_y)) + 2.5)", np.dtype(np.float64))
    assert _vectorize.translate(f_trig, [np.float32]) == \
        ("((sinf(a_x) * sinf(a_x)) + (cosf(a_x) * cosf(a_x)))", np.dtype(np.float32))
    assert _vectorize.translate(f_select, [np.float64, np.float64]) == \
        ("((a_x > a_y) ? a_x : a_y)", np.dtype(np.float64))
    assert _vectorize.translate(f_divmod, [np.int8, np.int8]) == \
        ("static_cast<signed char>((npgpu_floordiv_i<signed char>(a_a, a_b) + npgpu_mod_i<signed char>(a_a, a_b)))",
         np.dtype(np.int8))
    assert _vectorize.translate(f_range, [np.float64]) == \
        ("(((0.0 < a_x) && (a_x <= 1.0)) && (!isnan(a_x)))", np.dtype(np.bool_))
    code, dt = _vectorize.translate(f_mixed, [np.float32, np.float32])
    assert dt == np.float32 and "npgpu_pymin<float>" in code and "static_cast<float>(3.0)" in code
    assert "npgpu_maximum<float>" in code and "fabsf(a_x)" in code


@pytest.mark.parametrize("types", [
    [np.float32, np.float32], [np.float64, np.float32], [np.int32, np.int32], [np.int8, np.int16],
    [np.uint8, np.int8], [np.int64, np.float32], [np.uint64, np.int64], [np.bool_, np.int16],
    [np.float32, "weak_int"], [np.int16, "weak_float"], [np.uint8, "weak_int"], ["weak_int", "weak_float"],
])
def test_translator_types_follow_numpy(types):
    def arith(x, y):
        return (x + y) * x - y / 2 + (x < y)

    def sample(t):
        if t == "weak_int":
            return 3
        if t == "weak_float":
            return 1.5
        return np.ones(2, dtype=t)

    expected = np.asarray(arith(sample(types[0]), sample(types[1]))).dtype
    assert _vectorize.translate(arith, types)[1] == expected


def _bad_assign(x):
    y = x + 1
    return y


def _bad_loop(x):
    for _ in range(3):
        x += 1
    return x


def _bad_if(x):
    if x > 0:
        return x
    return -x


def _bad_list(x):
    return [x]


def _bad_call(x):
    return print(x)


def _bad_attr(x):
    return x.real


def _bad_str(x):
    return "a"


def _bad_in(x):
    return x in (1, 2)


def _bad_index(x):
    return x[0]


def _bad_varargs(x, *rest):
    return x


def _bad_round(x):
    return round(x, 2)


def _bad_name(x):
    return x + undefined_name  # noqa: F821


@pytest.mark.parametrize("func, construct", [
    (_bad_assign, "an assignment"), (_bad_loop, "a for loop"), (_bad_if, "an if statement"),
    (_bad_list, "a list"), (_bad_call, "a call of 'print'"), (_bad_attr, "attribute access 'x.real'"),
    (_bad_str, "a string constant"), (_bad_in, "the 'in' operator"), (_bad_index, "indexing"),
    (_bad_varargs, "*args"), (_bad_round, "round() with ndigits"), (_bad_name, "unknown name 'undefined_name'"),
])
def test_vectorize_refuses_unsupported_constructs(func, construct):
    with pytest.raises(TypeError, match=None) as e:
        npgpu.vectorize(func)
    assert construct in str(e.value)
    assert func.__name__ in str(e.value)


def test_vectorize_type_errors_at_translation():
    def bool_or(x):
        return x or 1.0

    def invert(x):
        return ~x

    with pytest.raises(TypeError, match="'or' of a float64 operand"):
        _vectorize.translate(bool_or, [np.float64])
    with pytest.raises(TypeError, match="~ of a float32"):
        _vectorize.translate(invert, [np.float32])
    with pytest.raises(TypeError, match="unsupported dtype complex128"):
        _vectorize.translate(f_trig, [np.complex128])
    # A signature whose types do not fit the body fails at decoration.
    with pytest.raises(TypeError, match="~ of a float64"):
        npgpu.vectorize(["float64(float64)"])(invert)


def test_vectorize_signatures_and_target():
    v = npgpu.vectorize(["int64(int64, int64)", "float32(float32, float32)"], target="cuda")(lambda x, y: x + y)
    assert v._pick_signature((np.dtype(np.int32), "weak_int"))[0] == np.int64
    assert v._pick_signature((np.dtype(np.float32), np.dtype(np.float32)))[0] == np.float32
    with pytest.raises(TypeError, match="no signature matches"):
        v._pick_signature((np.dtype(np.float64), np.dtype(np.float64)))
    with pytest.raises(ValueError, match="target='cuda'"):
        npgpu.vectorize(["f8(f8)"], target="cpu")
    with pytest.raises(TypeError, match="signature with 1 arguments"):
        npgpu.vectorize(["f8(f8)"])(lambda x, y: x)


# ------------------------------------------------------------------------------------------ checks

def test_argument_checks_without_gpu():
    a = np.ones(4, np.float32)
    sizes = (8, 8, 8, 4)
    _rtc.check_arguments("add_kernel", sizes, (npgpu.In(a), npgpu.In(a), npgpu.Out(a.copy()), np.int32(4)))
    with pytest.raises(TypeError, match=r"takes 4 arguments \(parameters of \[8, 8, 8, 4\] bytes\), got 3"):
        _rtc.check_arguments("add_kernel", sizes, (npgpu.In(a), npgpu.In(a), npgpu.Out(a)))
    with pytest.raises(TypeError, match=r"argument 3 is a Python int .*pass numpy.int32 .*numpy.int32\(4\)"):
        _rtc.check_arguments("add_kernel", sizes, (npgpu.In(a), npgpu.In(a), npgpu.Out(a), 4))
    with pytest.raises(TypeError, match=r"argument 0 is a Python float .*numpy.float32 \(C float\)"):
        _rtc.check_arguments("scale", (4, 8), (2.0, npgpu.In(a)))
    with pytest.raises(TypeError, match=r"numpy.float64 .*numpy.float64\(2.0\)"):
        _rtc.check_arguments("scale", (8,), (2.0,))
    with pytest.raises(TypeError, match=r"argument 3 is numpy.int64 \(8 bytes\), but the kernel's parameter 3 has 4"):
        _rtc.check_arguments("add_kernel", sizes, (npgpu.In(a), npgpu.In(a), npgpu.Out(a), np.int64(4)))
    with pytest.raises(TypeError, match=r"NumPy array in host memory.*npgpu.In\(a\).*npgpu.asarray"):
        _rtc.check_arguments("add_kernel", sizes, (a, npgpu.In(a), npgpu.Out(a), np.int32(4)))
    with pytest.raises(TypeError, match="unsupported type str"):
        _rtc.check_arguments("k", (8,), ("x",))
    with pytest.raises(TypeError, match="a pointer"):
        _rtc.check_arguments("k", (4,), (npgpu.In(a),))


def test_in_out_wrappers_validate():
    with pytest.raises(TypeError, match="numpy.ndarray"):
        npgpu.In([1.0, 2.0])
    ro = np.ones(3)
    ro.flags.writeable = False
    npgpu.In(ro)
    with pytest.raises(ValueError, match="read-only"):
        npgpu.Out(ro)
    with pytest.raises(ValueError, match="read-only"):
        npgpu.InOut(ro)
    with pytest.raises(ValueError, match="contiguous"):
        npgpu.In(np.ones((4, 4))[:, 1])
    assert repr(npgpu.InOut(np.ones((2, 3), np.float32))) == "InOut(float32[2, 3])"


def test_elementwise_params_parse():
    assert parse_params("float32 x, T y, unsigned int n2", "in") == \
        [("x", np.dtype(np.float32)), ("y", "T"), ("n2", np.dtype(np.uint32))]
    with pytest.raises(ValueError, match="not pointers"):
        ElementwiseKernel("float* x", "float y", "y = x[i]")
    with pytest.raises(ValueError, match="reserved"):
        ElementwiseKernel("float i", "float y", "y = i")
    with pytest.raises(ValueError, match="duplicate"):
        ElementwiseKernel("float x", "float x", "x = x")
    with pytest.raises(ValueError, match="at least one output"):
        ElementwiseKernel("float x", "", "x")
    with pytest.raises(TypeError, match="support"):
        ElementwiseKernel("complex128 x", "complex128 y", "y = x")


def test_host_backend_raises_runtime_error():
    ek = ElementwiseKernel("float32 x", "float32 y", "y = 2 * x", "double_it")
    vec = npgpu.vectorize(f_axpy)
    with npgpu.use_backend("cpu"):
        with pytest.raises(RuntimeError, match="run-time compiled kernels need a GPU"):
            npgpu.SourceModule(ADD_SRC)
        with pytest.raises(RuntimeError, match="run-time compiled kernels need a GPU"):
            ek(np.ones(4, np.float32))
        # vectorize has a host path (tests/test_vectorize_host.py): it evaluates the translated expression.
        np.testing.assert_array_equal(vec(np.ones(4), np.full(4, 2.0)), np.full(4, 4.5))


# ------------------------------------------------------------------------------------------ NVRTC, cache

@nvrtc
def test_compile_and_name_expressions(cache_dir):
    c = _rtc.compile_source(TEMPLATE_SRC, ARCH + [f"-I{d}" for d in _rtc.header_dirs()],
                            ["axpy<float>", "axpy<double>", "axpy<__half>"], cache=False)
    assert not c.is_ptx and c.binary[:4] == b"\x7fELF"
    assert c.lowered_names["axpy<float>"] == "_Z4axpyIfEvT_PKS0_PS0_x"
    assert c.lowered_names["axpy<double>"].startswith("_Z4axpyIdE")
    ptx = _rtc.compile_source(ADD_SRC, ["--gpu-architecture=compute_90", "-lineinfo"], cache=False)
    assert ptx.is_ptx and b".loc" in ptx.binary and ptx.binary.endswith(b"\0")


@nvrtc
def test_compile_error_carries_log(cache_dir):
    src = "__global__ void k(float* x)\n{\n    x[0] = undefined_thing;\n}\n"
    with pytest.raises(npgpu.CompileError) as e:
        _rtc.compile_source(src, ARCH)
    assert 'kernel.cu(3): error: identifier "undefined_thing" is undefined' in e.value.log
    assert "undefined_thing" in str(e.value) and e.value.options == tuple(ARCH)
    assert isinstance(e.value, RuntimeError)
    with pytest.raises(npgpu.CompileError, match="--no-such-option"):
        _rtc.compile_source(ADD_SRC, ARCH + ["--no-such-option"])
    # The failure is not cached and the next compile works.
    assert _rtc.compile_source(ADD_SRC, ARCH).binary


@nvrtc
def test_minimal_compile_first_with_fallback(cache_dir):
    # Most kernels compile under NVRTC's -minimal (faster); one naming the runtime API's types compiles again
    # without it. Either way the result is cached under the options asked for.
    c = _rtc.compile_source(ADD_SRC, ARCH, cache=False, _try_minimal=True)
    assert c.options == tuple(ARCH) + ("-minimal",) and c.binary[:4] == b"\x7fELF"
    needs_runtime = 'extern "C" __global__ void k(int* x) { cudaError_t e = cudaSuccess; x[0] = (int)e; }'
    with pytest.raises(npgpu.CompileError, match="cudaError_t"):
        _rtc.compile_source(needs_runtime, ARCH + ["-minimal"], cache=False)
    before = _rtc.cache_info()["compiles"]
    c = _rtc.compile_source(needs_runtime, ARCH, _try_minimal=True)
    assert c.options == tuple(ARCH) and c.binary[:4] == b"\x7fELF"
    assert _rtc.cache_info()["compiles"] == before + 2  # the -minimal try and the full compile
    assert _rtc.compile_source(needs_runtime, ARCH).source_of_result == "memory"  # same key
    with pytest.raises(npgpu.CompileError, match="undefined_thing") as e:  # a real error: the full compile's log
        _rtc.compile_source("__global__ void k(float* x) { x[0] = undefined_thing; }", ARCH, _try_minimal=True)
    assert e.value.options == tuple(ARCH)


@nvrtc
def test_memory_and_disk_cache_across_processes(cache_dir):
    src = ADD_SRC + f"// nonce {os.getpid()} {id(cache_dir)}\n"
    before = _rtc.cache_info()
    c1 = _rtc.compile_source(src, ARCH)
    c2 = _rtc.compile_source(src, ARCH)
    after = _rtc.cache_info()
    assert c1.source_of_result == "compiled" and c2.source_of_result == "memory"
    assert after["compiles"] == before["compiles"] + 1 and after["disk_writes"] == before["disk_writes"] + 1
    files = list(cache_dir.rglob("*.bin"))
    assert any(f.name == c1.key + ".bin" for f in files)
    # the user's alone: entries 0600 in 0700 directories
    entry = next(f for f in files if f.name == c1.key + ".bin")
    assert entry.stat().st_mode & 0o777 == 0o600 and entry.parent.stat().st_mode & 0o777 == 0o700
    # A new process finds it on disk and does not compile.
    code = textwrap.dedent(f"""
        import json, sys
        from npgpu import _rtc
        c = _rtc.compile_source({src!r}, {ARCH!r})
        same = c.binary == bytes.fromhex({c1.binary.hex()!r})
        print(json.dumps({{"origin": c.source_of_result, "info": _rtc.cache_info(), "same": same}}))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env=dict(os.environ), cwd="/")
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert r["origin"] == "disk" and r["info"]["compiles"] == 0 and r["info"]["disk_hits"] == 1 and r["same"]
    # Other options, another key.
    assert _rtc.compile_source(src, ARCH + ["-lineinfo"]).key != c1.key


@nvrtc
def test_corrupt_cache_entry_is_recompiled(cache_dir):
    src = ADD_SRC + "// corrupt test\n"
    c = _rtc.compile_source(src, ARCH)
    path = next(p for p in cache_dir.rglob(c.key + ".bin"))
    path.write_bytes(path.read_bytes()[:-10])
    _rtc.clear_memory_cache()
    before = _rtc.cache_info()
    c2 = _rtc.compile_source(src, ARCH)
    assert c2.source_of_result == "compiled" and c2.binary == c.binary
    assert _rtc.cache_info()["disk_errors"] == before["disk_errors"] + 1


@nvrtc
def test_altered_cache_entry_is_recompiled(cache_dir):
    # The same length with one byte changed: the digest check, not the size, rejects it.
    src = ADD_SRC + "// altered test\n"
    c = _rtc.compile_source(src, ARCH)
    path = next(p for p in cache_dir.rglob(c.key + ".bin"))
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    _rtc.clear_memory_cache()
    before = _rtc.cache_info()
    c2 = _rtc.compile_source(src, ARCH)
    assert c2.source_of_result == "compiled" and c2.binary == c.binary
    assert _rtc.cache_info()["disk_errors"] == before["disk_errors"] + 1
    _rtc.clear_memory_cache()  # the recompiled entry replaced the altered one
    assert _rtc.compile_source(src, ARCH).source_of_result == "disk"


@nvrtc
def test_two_processes_compiling_one_kernel_at_once_both_succeed(cache_dir):
    src = ADD_SRC + f"// at once {os.getpid()} {id(cache_dir)}\n"
    code = textwrap.dedent(f"""
        import json, sys, time
        from npgpu import _rtc
        start = float(sys.argv[1])
        while time.time() < start:  # both children compile from the same moment
            time.sleep(0.001)
        c = _rtc.compile_source({src!r}, {ARCH!r})
        print(json.dumps({{"origin": c.source_of_result, "binary": c.binary.hex()}}))
    """)
    start = str(time.time() + 3.0)  # after both interpreters have imported npgpu
    children = [subprocess.Popen([sys.executable, "-c", code, start], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, env=dict(os.environ), cwd="/")
                for _ in range(2)]
    results = []
    for p in children:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err[-2000:]
        results.append(json.loads(out.strip().splitlines()[-1]))
    assert results[0]["binary"] == results[1]["binary"]
    assert {r["origin"] for r in results} <= {"compiled", "disk"}
    # The entry left behind is whole: this process loads it from disk, equal to what the children made.
    _rtc.clear_memory_cache()
    c = _rtc.compile_source(src, ARCH)
    assert c.source_of_result == "disk" and c.binary.hex() == results[0]["binary"]
    assert [p.name for p in cache_dir.rglob("*") if p.is_file() and not p.name.endswith(".bin")] == []


@nvrtc
def test_generated_elementwise_and_vectorize_sources_compile():
    ek = ElementwiseKernel("float32 x, T y, float32 a", "T z, bool w", "z = a * x + y; w = z > 0", "axpy")
    for mask, nd, mode in (((False, False, True), 2, "strided"), ((False, True, True), 1, "strided"),
                           ((False, False, True), 1, "contig"), ((False, True, True), 1, "contig32")):
        src, _ = ek.source((np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.float32)),
                           (np.dtype(np.float64), np.dtype(np.bool_)), mask, nd, mode)
        c = _rtc.compile_source(src, ARCH, cache=False)
        assert "warning" not in c.log, c.log
    for f, types in ((f_trig, [np.float32]), (f_divmod, [np.int8, np.int8]), (f_divmod, [np.float64] * 2),
                     (f_mixed, [np.float32] * 2), (f_range, [np.float64])):
        v = npgpu.vectorize(f)
        dts = tuple(np.dtype(t) for t in types)
        ek, _ = v._kernel(dts)
        src, _ = ek.source(dts, (ek.out_params[0][1],), (False,) * len(types), 1)
        _rtc.compile_source(src, ARCH, cache=False)


# ------------------------------------------------------------------------------------------ GPU

@pytest.mark.gpu
def test_reference_add_program():
    path = pathlib.Path(__file__).resolve().parent.parent / "examples" / "pycuda_add.py"
    if not path.exists():
        pytest.skip("examples/ not next to tests/")
    ns = runpy.run_path(str(path), run_name="__main__")
    np.testing.assert_array_equal(ns["result"], ns["a"] + ns["b"])


@pytest.mark.gpu
def test_add_kernel_in_out_and_device_arrays(rng, cache_dir):
    mod = npgpu.SourceModule(ADD_SRC)
    f = mod.get_function("add_kernel")
    assert f.num_params == 4 and f.param_sizes == (8, 8, 8, 4)
    for n in (1000, 3 << 20):  # direct copies, and copies through the staging ring
        a = rng.standard_normal(n).astype(np.float32)
        b = rng.standard_normal(n).astype(np.float32)
        r = np.full(n, np.nan, np.float32)
        f(npgpu.In(a), npgpu.In(b), npgpu.Out(r), np.int32(n), block=(256, 1, 1), grid=((n + 255) // 256, 1))
        np.testing.assert_array_equal(r, a + b)
        io = a.copy()
        f(npgpu.InOut(io), npgpu.In(b), npgpu.InOut(io), np.int32(n), block=256, grid=(n + 255) // 256)
        np.testing.assert_array_equal(io, a + b)
    da, db = npgpu.asarray(a), npgpu.asarray(b)
    dr = npgpu.full(n, np.nan, np.float32)
    s = npgpu.Stream()
    # dr's fill is queued on the current stream; a launch on another stream must be ordered after it: arrays
    # do not order streams for the user (as in CuPy).
    s.wait_stream(npgpu.get_current_stream())
    f(da, db, dr, np.int32(n), block=(128,), grid=((n + 127) // 128,), stream=s)
    s.synchronize()
    np.testing.assert_array_equal(dr.get(), a + b)
    # Same source again: the loaded module comes from the memory cache.
    assert npgpu.SourceModule(ADD_SRC).from_cache == "memory"


@pytest.mark.gpu
def test_templated_kernel_name_expressions_and_headers(rng, cache_dir):
    mod = npgpu.SourceModule(TEMPLATE_SRC, options=("-lineinfo",),
                             name_expressions=("axpy<float>", "axpy<double>", "axpy<__half>"))
    n = 5000
    for t in (np.float32, np.float64, np.float16):
        name = {np.float32: "axpy<float>", np.float64: "axpy<double>", np.float16: "axpy<__half>"}[t]
        k = mod.get_function(name)
        x = rng.standard_normal(n).astype(t)
        y = rng.standard_normal(n).astype(t)
        dy = npgpu.asarray(y)
        k(t(1.5), npgpu.asarray(x), dy, np.int64(n), block=(256,), grid=((n + 255) // 256,))
        expected = 1.5 * x.astype(np.float64) + y.astype(np.float64)
        tol = {np.float16: 2e-2, np.float32: 1e-5, np.float64: 1e-12}[t]
        np.testing.assert_allclose(dy.get().astype(np.float64), expected, rtol=tol, atol=tol)
    with pytest.raises(ValueError, match="kernel template"):
        mod.get_function("axpy")
    with pytest.raises(ValueError, match="no kernel named 'nothing'"):
        mod.get_function("nothing")


@pytest.mark.gpu
def test_extern_c_namespaces_and_overloads(cache_dir):
    src = r"""
    extern "C" __global__ void plain(int* x) { x[threadIdx.x] = 1; }
    namespace ns { __global__ void inner(int* x) { x[threadIdx.x] = 2; } }
    __global__ void over(int* x) { x[threadIdx.x] = 3; }
    __global__ void over(float* x) { x[threadIdx.x] = 4; }
    """
    mod = npgpu.SourceModule(src)
    x = npgpu.zeros(32, np.int32)
    mod.get_function("plain")(x, block=32)
    assert x.get().tolist() == [1] * 32
    mod.get_function("ns::inner")(x, block=32)
    assert x.get().tolist() == [2] * 32
    with pytest.raises(ValueError, match="ambiguous"):
        mod.get_function("over")
    wrapped = npgpu.SourceModule("__global__ void w(int* x) { x[0] = 7; }", no_extern_c=False)
    assert "w" in wrapped.kernel_names()


@pytest.mark.gpu
def test_launch_errors_leave_kernel_usable(cache_dir):
    src = r"""
    extern "C" __global__ void __launch_bounds__(128) fill(float* x, float v, int n) {
        extern __shared__ float tile[];
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        tile[threadIdx.x] = v;
        __syncthreads();
        if (i < n) x[i] = tile[threadIdx.x];
    }
    """
    f = npgpu.SourceModule(src).get_function("fill")
    x = npgpu.zeros(256, np.float32)

    def good():
        f(x, np.float32(2.5), np.int32(256), block=(128,), grid=(2,), shared_mem=128 * 4)
        assert np.all(x.get() == 2.5)

    good()
    dev = npgpu.Device(npgpu.get_device_id())
    cases = [
        (ValueError, "exceeds this kernel's limit of 128", dict(block=(256,), grid=(1,))),
        (ValueError, "exceeds the device limit maxThreadsPerBlock", dict(block=(2048,), grid=(1,))),
        (ValueError, "grid.x must be at least 1", dict(block=(128,), grid=(0,))),
        (ValueError, "grid.y = 100000 exceeds", dict(block=(128,), grid=(1, 100000))),
        (ValueError, "shared_mem=", dict(block=(128,), grid=(1,), shared_mem=dev.shared_memory_per_block_optin + 1)),
        (ValueError, "shared_mem must be non-negative", dict(block=(128,), grid=(1,), shared_mem=-1)),
        (ValueError, "1 to 3 dimensions", dict(block=(1, 1, 1, 1), grid=(1,))),
        (TypeError, "block=", dict(grid=(1,))),
    ]
    for exc, msg, kw in cases:
        with pytest.raises(exc, match=msg):
            f(x, np.float32(1), np.int32(256), **kw)
        good()
    for exc, msg, args in [
        (TypeError, r"takes 3 arguments", (x, np.float32(1))),
        (TypeError, r"Python float .*numpy.float32\(1.0\)", (x, 1.0, np.int32(256))),
        (TypeError, r"Python int .*numpy.int32", (x, np.float32(1), 256)),
        (TypeError, r"numpy.float64 \(8 bytes\)", (x, np.float64(1), np.int32(256))),
        (TypeError, r"NumPy array in host memory", (np.zeros(256, np.float32), np.float32(1), np.int32(256))),
    ]:
        with pytest.raises(exc, match=msg):
            f(*args, block=(128,), grid=(2,))
        good()
    # More than the default 48 KiB of dynamic shared memory: the kernel's limit is raised for the launch.
    big = 64 * 1024
    if dev.shared_memory_per_block_optin >= big:
        f(x, np.float32(3.5), np.int32(256), block=(128,), grid=(2,), shared_mem=big)
        assert np.all(x.get() == 3.5)
    with npgpu.use_backend("cpu"):  # device arrays still run on their device
        good()


@pytest.mark.gpu
def test_source_module_minimal_choice_and_packed_words(cache_dir):
    # SourceModule tries -minimal unless the source includes headers or tests macros.
    assert "-minimal" in npgpu.SourceModule(ADD_SRC)._compiled.options
    guarded = "#if 1\n" + ADD_SRC + "#endif\n"
    assert "-minimal" not in npgpu.SourceModule(guarded)._compiled.options
    # launch_words: one struct of 8-byte fields, each taken modulo 2**64.
    src = r"""
    struct P { long long a; double b; double* out; unsigned long long c; };
    extern "C" __global__ void k(P p) { p.out[0] = p.a + p.b; p.out[1] = (double)(p.c >> 60); }
    """
    k = npgpu.SourceModule(src).get_function("k")
    out = npgpu.full(2, np.nan)
    b = int.from_bytes(np.float64(2.25).tobytes(), "little")
    k.launch_words([-5, b, out.ptr, -1], 1, 1)
    np.testing.assert_array_equal(out.get(), [-2.75, 15.0])
    with pytest.raises(TypeError, match="one 24-byte parameter"):
        k.launch_words([1, 2, 3], 1, 1)
    with pytest.raises(TypeError):
        k.launch_words([1.5, b, out.ptr, 0], 1, 1)
    with pytest.raises(ValueError, match="grid.x must be at least 1"):
        k.launch_words([1, b, out.ptr, 0], 0, 1)
    np.testing.assert_array_equal(out.get(), [-2.75, 15.0])  # nothing ran


@pytest.mark.gpu
def test_compile_error_on_gpu(cache_dir):
    with pytest.raises(npgpu.CompileError, match=r"kernel.cu\(2\): error"):
        npgpu.SourceModule("__global__ void k() {\n  not_declared();\n}\n")
    assert npgpu.SourceModule(ADD_SRC).get_function("add_kernel").num_params == 4


@pytest.mark.gpu
def test_source_module_cache_across_processes(cache_dir):
    src = ADD_SRC + f"// cross-process {os.getpid()}\n"
    code = textwrap.dedent(f"""
        import json, numpy as np, npgpu
        from npgpu import _rtc
        m = npgpu.SourceModule({src!r})
        f = m.get_function("add_kernel")
        a = np.arange(100, dtype=np.float32); r = np.zeros_like(a)
        f(npgpu.In(a), npgpu.In(a), npgpu.Out(r), np.int32(100), block=128)
        print(json.dumps({{"origin": m.from_cache, "info": _rtc.cache_info(), "ok": bool((r == 2 * a).all())}}))
    """)
    runs = []
    for _ in range(2):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=dict(os.environ),
                             cwd="/")
        assert out.returncode == 0, out.stderr
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    assert runs[0]["origin"] == "compiled" and runs[0]["info"]["compiles"] == 1 and runs[0]["ok"]
    assert runs[1]["origin"] == "disk" and runs[1]["info"]["compiles"] == 0 and runs[1]["ok"]


@pytest.mark.gpu
def test_elementwise_kernel_broadcasting(rng, cache_dir):
    k = ElementwiseKernel("float32 x, T y, float32 a", "T z", "z = a * x + y", "axpy_b")
    x = rng.standard_normal((64, 1)).astype(np.float32)
    y = rng.standard_normal((1, 48))
    z = k(x, y, np.float32(2.0))
    assert isinstance(z, np.ndarray) and z.shape == (64, 48) and z.dtype == np.float64
    np.testing.assert_allclose(z, 2.0 * x.astype(np.float64) + y, rtol=1e-12)
    # Device arrays in, device array out; a Python scalar for a float32 parameter; a given output.
    dx, dy = npgpu.asarray(x), npgpu.asarray(y)
    out = npgpu.full((64, 48), np.nan)
    r = k(dx, dy, 0.5, out)
    assert r is out
    np.testing.assert_allclose(out.get(), np.float32(0.5) * x.astype(np.float64) + y, rtol=1e-12)
    # Non-contiguous views and 3 dimensions.
    x3 = rng.standard_normal((6, 10, 8)).astype(np.float32)[:, ::2, 1:]
    y3 = rng.standard_normal((12, 1, 7)).astype(np.float32)[::2]
    z3 = k(npgpu.asarray(x3), npgpu.asarray(y3), np.float32(-1.0)).get()
    np.testing.assert_allclose(z3, -x3 + y3, rtol=1e-6)
    # Two outputs, index i, int types.
    k2 = ElementwiseKernel("int32 a", "int64 s, bool odd", "s = (long long)a * i; odd = (a & 1) != 0", "two")
    a = rng.integers(-1000, 1000, size=100).astype(np.int32)
    s, odd = k2(a)
    np.testing.assert_array_equal(s, a.astype(np.int64) * np.arange(100))
    np.testing.assert_array_equal(odd, (a & 1) != 0)
    # Type checks.
    with pytest.raises(TypeError, match="float64 array for a float32 parameter"):
        k(np.ones(3), np.ones(3), np.float32(1))
    with pytest.raises(TypeError, match="Python float for a int32"):
        k2(1.5)
    with pytest.raises(ValueError, match="do not broadcast"):
        k(np.ones(3, np.float32), np.ones(4), np.float32(1))
    with pytest.raises(TypeError, match="'z' binds T to float32"):
        k(dx, dy, np.float32(1), npgpu.zeros((64, 48), np.float32))
    with pytest.raises(TypeError, match="npgpu.asarray"):
        k(dx, y, np.float32(1))
    with pytest.raises(TypeError, match="takes 3 inputs"):
        k(dx)
    # Repeated calls with the same layouts take the cached plan; scalars are re-read and re-checked each call.
    kf = ElementwiseKernel("float32 x, int8 b, float32 a", "float32 z", "z = a * x + b", "plan")
    h = rng.standard_normal(1000).astype(np.float32)
    dh = npgpu.asarray(h)
    for a_, b_ in ((1.0, 2), (2.5, -3), (np.float32(0.5), np.int8(7)), (4.0, 1)):
        # (a * x + b is one fused multiply-add on the GPU: within an ulp of NumPy's two roundings)
        np.testing.assert_allclose(kf(dh, b_, a_).get(), np.float32(a_) * h + np.float32(b_), rtol=1e-6,
                                   atol=1e-6)
    assert len(kf._plans) == 2
    with pytest.raises(OverflowError, match="out of the range of int8"):
        kf(dh, 1000, 1.0)
    np.testing.assert_allclose(kf(npgpu.asarray(h[:500]), 1, 1.0).get(), h[:500] + 1, rtol=1e-6)  # another shape
    # Empty inputs give empty outputs without a launch.
    assert k(np.ones((0, 3), np.float32), np.ones(3), np.float32(1)).shape == (0, 3)


@pytest.mark.gpu
def test_elementwise_plans_match_only_their_layout(rng, cache_dir):
    # A plan repeats a call only for inputs of the same dtypes, shapes, strides, device and scalar types;
    # anything else takes the full path (and may add a plan). Outputs are new arrays each call.
    k = ElementwiseKernel("T x, T y, float32 a", "T z", "z = a * x - y", "plan_layouts")
    h = rng.standard_normal((40, 30))
    g = rng.standard_normal((40, 30))
    for dt in (np.float32, np.float64):
        dx, dy = npgpu.asarray(h.astype(dt)), npgpu.asarray(g.astype(dt))
        z1 = k(dx, dy, np.float32(2))
        z2 = k(dx, dy, np.float32(3))  # from the plan
        assert z1 is not z2 and z1.dtype == dt and z2.dtype == dt
        np.testing.assert_allclose(z2.get(), np.float32(3) * h.astype(dt) - g.astype(dt), rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(z1.get(), np.float32(2) * h.astype(dt) - g.astype(dt), rtol=1e-6, atol=1e-6)
    assert len(k._plans) == 2
    dx, dy = npgpu.asarray(h), npgpu.asarray(g)
    tx, ty = dx.T, dy.T  # same shape as a (30, 40) array, other strides
    np.testing.assert_allclose(k(tx, ty, 1.5).get(), np.float32(1.5) * h.T - g.T, rtol=1e-6)
    cx, cy = npgpu.asarray(np.ascontiguousarray(h.T)), npgpu.asarray(np.ascontiguousarray(g.T))
    np.testing.assert_allclose(k(cx, cy, 1.5).get(), np.float32(1.5) * h.T - g.T, rtol=1e-6)
    np.testing.assert_allclose(k(tx, ty, 0.25).get(), np.float32(0.25) * h.T - g.T, rtol=1e-6)  # a plan again
    with pytest.raises(TypeError, match="does not cast safely"):
        k(dx, dy, np.float64(1))
    assert len(k._plans) <= 8
    # vectorize takes the plan of its last kernel when the inputs repeat its types and layouts.
    vec = npgpu.vectorize(lambda x, y: x * 2 - y)
    for dt in (np.float32, np.float64, np.float32):
        dx, dy = npgpu.asarray(h.astype(dt)), npgpu.asarray(g.astype(dt))
        for _ in range(2):
            r = vec(dx, dy)
            assert r.dtype == dt
            np.testing.assert_allclose(r.get(), h.astype(dt) * 2 - g.astype(dt), rtol=1e-6)
    r = vec(dx, 0.5)  # a Python scalar: another kernel
    np.testing.assert_allclose(r.get(), h.astype(np.float32) * 2 - 0.5, rtol=1e-6)
    assert r.dtype == np.float32 and vec(dx, 0.5).dtype == np.float32


def _v_poly(x, y):
    return 3.0 * x * x - 2.0 * y + 1.0


def _v_math(x):
    return math.exp(-x * x / 2) / math.sqrt(2 * math.pi) + math.atan2(x, 1.5) + math.log1p(abs(x))


def _v_branch(x, y):
    return x - y if x > y else (y - x) * 0.5


def _v_int(a, b):
    return a // b + a % b * 3 + (a ** 2 if a < 50 else -a)


def _v_bool(x):
    return (x > 0.5) and not (x > 0.9)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_vectorize_matches_numpy(rng, dtype, cache_dir):
    x = rng.uniform(-3, 3, size=(200, 30)).astype(dtype)
    y = rng.uniform(-3, 3, size=30).astype(dtype)
    rtol = 1e-5 if dtype == np.float32 else 1e-12
    poly = npgpu.vectorize(_v_poly)
    r = poly(x, y)
    assert r.dtype == dtype and r.shape == (200, 30)
    np.testing.assert_allclose(r, _v_poly(x, y), rtol=rtol, atol=rtol)
    m = npgpu.vectorize(_v_math)
    expected = np.exp(-x * x / 2) / math.sqrt(2 * math.pi) + np.arctan2(x, dtype(1.5)) + np.log1p(np.abs(x))
    assert m(x).dtype == dtype
    np.testing.assert_allclose(m(x), expected, rtol=rtol * 10, atol=rtol)
    b = npgpu.vectorize(_v_branch)
    np.testing.assert_allclose(b(x, y), np.where(x > y, x - y, (y - x) * dtype(0.5)), rtol=rtol)
    bo = npgpu.vectorize(_v_bool)
    np.testing.assert_array_equal(bo(x), (x > 0.5) & ~(x > 0.9))
    # Device arrays stay on the device; scalars broadcast.
    d = poly(npgpu.asarray(x), 2)
    assert isinstance(d, npgpu.Array) and d.dtype == dtype
    np.testing.assert_allclose(d.get(), _v_poly(x, 2), rtol=rtol, atol=rtol)


@pytest.mark.gpu
def test_vectorize_integers_and_signatures(rng, cache_dir):
    a = rng.integers(-100, 100, size=1000).astype(np.int64)
    b = rng.integers(1, 20, size=1000).astype(np.int64) * rng.choice([-1, 1], size=1000)
    v = npgpu.vectorize(_v_int)
    expected = a // b + a % b * 3 + np.where(a < 50, a ** 2, -a)
    np.testing.assert_array_equal(v(a, b), expected)
    np.testing.assert_array_equal(v(a, np.zeros_like(a)), np.where(a < 50, a ** 2, -a))  # x // 0 -> 0
    # Numba's course example: @vectorize(['int64(int64, int64)'], target='cuda').
    add = npgpu.vectorize(["int64(int64, int64)"], target="cuda")(lambda x, y: x + y)
    r = add(np.arange(4), np.arange(16).reshape(4, 4))
    np.testing.assert_array_equal(r, np.arange(4) + np.arange(16).reshape(4, 4))
    assert r.dtype == np.int64
    f32 = npgpu.vectorize(["float32(float32, float32)"])(_v_poly)
    r = f32(np.ones(5, np.float32), np.float32(2))
    assert r.dtype == np.float32
    # int8 arithmetic wraps as NumPy's.
    wrap = npgpu.vectorize(lambda x: (x + 1) > 0)
    i8 = np.array([126, 127, -128], np.int8)
    np.testing.assert_array_equal(wrap(i8), (i8 + np.int8(1)) > 0)
    out = np.empty(1000, np.float64)
    assert npgpu.vectorize(_v_poly)(a.astype(np.float64), 1.0, out=out) is out
    np.testing.assert_allclose(out, _v_poly(a.astype(np.float64), 1.0))
