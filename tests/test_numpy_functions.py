"""npgpu._numpy_functions: NumPy's functions on npgpu arrays run npgpu's function of the same name (looked up
at call time) and return npgpu arrays on the operands' device; functions or arguments npgpu lacks, and host
arrays beside npgpu arrays, raise TypeError naming them. Tested through array_function directly and, where
Array has the hook, through NumPy itself."""
import sys
import types

import numpy as np
import pytest

import npgpu
from npgpu import _numpy_functions
from npgpu._numpy_functions import array_function

HAS_HOOK = hasattr(npgpu.Array, "__array_function__")
needs_hook = pytest.mark.skipif(not HAS_HOOK, reason="npgpu.Array has no __array_function__ yet")

ARRAY = (npgpu.Array,)


def call(func, *args, **kwargs):
    """func(*args, **kwargs) as NumPy would dispatch it to npgpu.Array.__array_function__."""
    return array_function(func, ARRAY, args, kwargs)


def check(got, want, device, rtol=1e-12):
    assert isinstance(got, npgpu.Array), type(got)
    assert got.device == device
    w = np.asarray(want)
    g = got.get()
    assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, g.shape, w.dtype, w.shape)
    if w.dtype.kind in "fc":
        # npgpu accumulates float32 sums in float64: within an ulp or so of NumPy's pairwise sum
        rtol = max(rtol, 1e-6) if w.dtype in (np.float32, np.complex64) else rtol
        np.testing.assert_allclose(g, w, rtol=rtol, atol=0, equal_nan=True)
    else:
        np.testing.assert_array_equal(g, w)


def cases(x, h, y, k):
    """(NumPy function, npgpu args, NumPy args, kwargs) with x/y npgpu copies of h/k."""
    return [
        (np.concatenate, ([x, y],), ([h, k],), {}),
        (np.concatenate, ([x, y],), ([h, k],), {"axis": 1}),
        (np.stack, ([x, y],), ([h, k],), {"axis": 2}),
        (np.mean, (x,), (h,), {"axis": 0}),
        (np.mean, (x,), (h,), {}),
        (np.sum, (x,), (h,), {"axis": 1, "keepdims": True}),
        (np.sum, (x,), (h,), {"dtype": np.float32}),
        (np.where, (x > 0, x, y), (h > 0, h, k), {}),
        (np.linalg.norm, (x,), (h,), {}),
        (np.linalg.norm, (x,), (h,), {"axis": 1}),
        (np.reshape, (x, (6, 4)), (h, (6, 4)), {}),
        (np.reshape, (x,), (h,), {"shape": (-1,)}),
        (np.transpose, (x,), (h,), {}),
        (np.clip, (x, -0.5, 0.5), (h, -0.5, 0.5), {}),
        (np.clip, (x,), (h,), {"min": 0.0}),
        (np.clip, (x,), (h,), {"a_min": -1.0, "a_max": 0.25}),
        (np.cumsum, (x,), (h,), {"axis": 1}),
        (np.dot, (x, y.T), (h, k.T), {}),
        (np.matmul, (x, y.T), (h, k.T), {}),
        (np.isclose, (x, y), (h, k), {"atol": 0.5}),
        (np.round, (x, 2), (h, 2), {}),
        (np.around, (x,), (h,), {"decimals": 1}),
        (np.amax, (x,), (h,), {"axis": 0}),
        (np.max, (x,), (h,), {}),
        (np.std, (x,), (h,), {"ddof": 1}),
        (np.diff, (x,), (h,), {"axis": 0}),
        (np.pad, (x, 1), (h, 1), {}),
        (np.roll, (x, 2), (h, 2), {"axis": 1}),
        (np.flip, (x,), (h,), {}),
        (np.expand_dims, (x, 0), (h, 0), {}),
        (np.zeros_like, (x,), (h,), {}),
        (np.full_like, (x, 7.0), (h, 7.0), {}),
        (np.tril, (x,), (h,), {}),
        (np.cumulative_sum, (x,), (h,), {"axis": 0, "include_initial": True}),
        (np.real, (x,), (h,), {}),
    ]


def _data(random_array):
    h = random_array((4, 6), np.float64)
    k = random_array((4, 6), np.float64)
    return h, k


def test_array_function_runs_npgpus_function(array_device, random_array):
    h, k = _data(random_array)
    x, y = npgpu.asarray(h), npgpu.asarray(k)
    for func, args, hargs, kwargs in cases(x, h, y, k):
        if not hasattr(npgpu, func.__name__) and func is not np.linalg.norm:
            continue  # a function another module has not added yet
        check(call(func, *args, **kwargs), func(*hargs, **kwargs), x.device)


@needs_hook
def test_numpy_functions_on_npgpu_arrays(array_device, random_array):
    h, k = _data(random_array)
    x, y = npgpu.asarray(h), npgpu.asarray(k)
    for func, args, hargs, kwargs in cases(x, h, y, k):
        if not hasattr(npgpu, func.__name__) and func is not np.linalg.norm:
            continue
        check(func(*args, **kwargs), func(*hargs, **kwargs), x.device)


@needs_hook
def test_concatenate_through_numpy_returns_an_npgpu_array(array_device):
    x = npgpu.asarray(np.arange(3.0))
    y = npgpu.asarray(np.arange(3.0, 5.0))
    r = np.concatenate([x, y])
    assert isinstance(r, npgpu.Array) and r.device == x.device
    np.testing.assert_array_equal(r.get(), np.arange(5.0))


@needs_hook
def test_results_that_are_not_arrays(array_device):
    h = np.arange(12.0).reshape(3, 4)
    x = npgpu.asarray(h)
    assert np.allclose(x, x + 1e-9) is True and np.allclose(x, x + 1) is False
    assert np.shape(x) == (3, 4) and np.ndim(x) == 2 and np.size(x) == 12 and np.size(x, 1) == 4
    assert np.iscomplexobj(x) is False and np.isrealobj(x) is True
    assert np.result_type(x, 1.0) == np.float64 and np.can_cast(x, np.float32) is False
    c = np.copy(x)
    assert isinstance(c, npgpu.Array) and c.ptr != x.ptr
    np.testing.assert_array_equal(c.get(), h)


def test_attribute_functions_directly(array_device):
    x = npgpu.asarray(np.zeros((2, 5), np.complex64))
    assert call(np.shape, x) == (2, 5) and call(np.ndim, x) == 2
    assert call(np.size, x) == 10 and call(np.size, x, 0) == 2
    assert call(np.iscomplexobj, x) is True and call(np.isrealobj, x) is False
    c = call(np.copy, x)
    assert c.ptr != x.ptr and c.dtype == np.complex64
    f = call(np.copy, x, order="F")  # npgpu.copy
    assert isinstance(f, npgpu.Array) and f.strides == np.zeros((2, 5), np.complex64, order="F").strides


def test_lookup_is_lazy(array_device, monkeypatch):
    # A function another module adds to npgpu after import is found at call time; one removed is gone.
    x = npgpu.asarray(np.array([1.0, np.nan]))
    seen = []

    def nan_to_num(a, copy=True, nan=0.0, posinf=None, neginf=None):
        seen.append((a, nan))
        return a

    monkeypatch.setattr(npgpu, "nan_to_num", nan_to_num, raising=False)
    assert call(np.nan_to_num, x, nan=2.0) is x and seen == [(x, 2.0)]
    monkeypatch.delattr(npgpu, "nan_to_num")
    with pytest.raises(TypeError, match=r"numpy\.nan_to_num is not supported on npgpu arrays by npgpu"):
        call(np.nan_to_num, x)


def test_linalg_and_fft_submodules(array_device, monkeypatch):
    x = npgpu.asarray(np.eye(3))
    # without npgpu.linalg: norm and matmul fall back to npgpu's top-level functions, the rest raise
    monkeypatch.delattr(npgpu, "linalg", raising=False)
    monkeypatch.delattr(npgpu, "fft", raising=False)
    check(call(np.linalg.norm, x), np.linalg.norm(np.eye(3)), x.device)
    check(call(np.linalg.matmul, x, x), np.eye(3), x.device)
    with pytest.raises(TypeError, match=r"numpy\.linalg\.svd is not supported on npgpu arrays by npgpu "
                                        r"\(no npgpu\.linalg module\)"):
        call(np.linalg.svd, x)
    with pytest.raises(TypeError, match=r"numpy\.fft\.fft is not supported .*no npgpu\.fft module"):
        call(np.fft.fft, x)
    # with them: numpy.linalg.X -> npgpu.linalg.X, numpy.fft.X -> npgpu.fft.X
    linalg = types.ModuleType("npgpu.linalg")
    linalg.svd = lambda a, full_matrices=True, compute_uv=True, hermitian=False: ("svd", a)
    fft = types.ModuleType("npgpu.fft")
    fft.fft = lambda a, n=None, axis=-1, norm=None, out=None: ("fft", a, n)
    monkeypatch.setattr(npgpu, "linalg", linalg, raising=False)
    monkeypatch.setattr(npgpu, "fft", fft, raising=False)
    assert call(np.linalg.svd, x) == ("svd", x)
    assert call(np.fft.fft, x, n=4) == ("fft", x, 4)
    check(call(np.linalg.norm, x), np.linalg.norm(np.eye(3)), x.device)  # npgpu.linalg lacks norm
    with pytest.raises(TypeError, match=r"numpy\.linalg\.eigh is not supported .*no npgpu\.linalg\.eigh"):
        call(np.linalg.eigh, x)


@pytest.mark.parametrize("name", ["histogram", "sort", "unique", "save", "take"])
def test_functions_npgpu_lacks_raise_naming_them(array_device, monkeypatch, name):
    monkeypatch.delattr(npgpu, name, raising=False)  # should another module add it meanwhile
    x = npgpu.asarray(np.arange(4.0))
    func = getattr(np, name)
    args = ("/nonexistent/x.npy", x) if name == "save" else (x, [0]) if name == "take" else (x,)
    with pytest.raises(TypeError, match=rf"^numpy\.{name} is not supported on npgpu arrays by npgpu "
                                        rf"\(no npgpu\.{name}\); convert explicitly"):
        call(func, *args)
    if HAS_HOOK:
        with pytest.raises(TypeError, match=rf"numpy\.{name} is not supported on npgpu arrays"):
            func(*args)


def test_non_function_attributes_of_the_same_name_are_not_used(array_device):
    # npgpu.float32 (a dtype), npgpu.Array (a class), npgpu.random (a module) are not NumPy functions' twins
    x = npgpu.asarray(np.arange(3.0))
    for name in ("float32", "Array", "random", "pi"):
        fake = lambda *a, **k: None  # noqa: E731
        fake.__name__, fake.__module__ = name, "numpy"
        with pytest.raises(TypeError, match=rf"numpy\.{name} is not supported on npgpu arrays"):
            call(fake, x)


def test_non_numpy_functions_raise(array_device):
    x = npgpu.asarray(np.arange(3.0))

    def concatenate(arrays):
        return arrays

    concatenate.__module__ = "somelib.core"
    with pytest.raises(TypeError, match=r"^somelib\.core\.concatenate is not supported on npgpu arrays by npgpu "
                                        r"\(not a NumPy function\)"):
        call(concatenate, [x])


def test_arguments_npgpu_does_not_take_raise(array_device):
    x = npgpu.asarray(np.arange(6.0).reshape(2, 3))
    with pytest.raises(TypeError, match=r"numpy\.broadcast_to on npgpu arrays: npgpu's broadcast_to does not take "
                                        r"these arguments \(got an unexpected keyword argument 'copy'"):
        call(np.broadcast_to, x, (2, 3), copy=True)
    # NumPy's names for the operands npgpu takes by position only (x, as the Array API standard)
    assert call(np.broadcast_to, array=x[0], shape=(2, 3)).shape == (2, 3)
    assert call(np.squeeze, a=x[:1]).shape == (3,)
    np.testing.assert_array_equal(call(np.clip, a=x, a_min=1, a_max=4).get(), np.clip(x.get(), 1, 4))
    assert call(np.broadcast_to, x, (2, 3), subok=True).shape == (2, 3)  # subok: no subclasses, accepted
    assert type(call(np.copy, x, subok=True)) is npgpu.Array
    for g, w in zip(call(np.where, x > 1), np.where(x.get() > 1)):  # the one-argument form (nonzero)
        np.testing.assert_array_equal(g.get(), w)
    np.testing.assert_array_equal(call(np.reshape, x, (3, 2), order="F").get(), np.reshape(x.get(), (3, 2), order="F"))
    with pytest.raises(TypeError, match=r"npgpu's mean does not take .*too many positional"):
        call(np.mean, x, 0, None, None, False, False, True)
    if HAS_HOOK:
        assert np.squeeze(a=x[:1]).shape == (3,)  # through NumPy's own dispatch
    # NumPy's initial= and where= on reductions reach npgpu's (npgpu._reductions)
    check(call(np.sum, x, where=x > 1, initial=1.0), np.sum(x.get(), where=x.get() > 1, initial=1.0), x.device)


def test_numpy_default_values_of_missing_keywords_are_dropped(array_device):
    # Passing NumPy's own default says nothing; wrappers of NumPy pass them explicitly.
    h = np.arange(6.0).reshape(2, 3)
    x = npgpu.asarray(h)
    check(call(np.sum, x, initial=np._NoValue, where=np._NoValue), h.sum(), x.device)
    check(call(np.reshape, x, (3, 2), order="C"), h.reshape(3, 2), x.device)
    check(call(np.zeros_like, x, order="K", subok=True, shape=None), np.zeros_like(h), x.device)
    kwargs = {"order": "C"}
    call(np.reshape, x, (3, 2), **kwargs)
    assert kwargs == {"order": "C"}  # the caller's dict is left alone


def test_host_arrays_beside_npgpu_arrays_raise(array_device):
    x = npgpu.asarray(np.arange(3.0))
    h = np.arange(3.0)
    with pytest.raises(TypeError, match=r"numpy\.concatenate: cannot mix a host array \(numpy\.ndarray\)"):
        array_function(np.concatenate, (npgpu.Array, np.ndarray), ([x, h],), {})
    if HAS_HOOK:
        with pytest.raises(TypeError, match="cannot mix a host array"):
            np.concatenate([x, h])
        with pytest.raises(TypeError, match="cannot mix a host array"):
            np.stack([h, x])


def test_other_array_types_get_not_implemented(array_device):
    class Foreign:
        def __array_function__(self, func, types, args, kwargs):
            return NotImplemented

    x = npgpu.asarray(np.arange(3.0))
    assert array_function(np.concatenate, (npgpu.Array, Foreign), ([x, Foreign()],), {}) is NotImplemented
    if HAS_HOOK:
        with pytest.raises(TypeError, match="no implementation found"):
            np.concatenate([x, Foreign()])


def test_like_creates_an_npgpu_array(array_device):
    if not hasattr(npgpu, "arange"):
        pytest.skip("npgpu.arange not there yet")
    x = npgpu.asarray(np.arange(3.0))
    r = call(np.arange, 5)  # what np.arange(5, like=x) dispatches (NumPy drops like=)
    assert isinstance(r, npgpu.Array)
    np.testing.assert_array_equal(r.get(), np.arange(5))
    if HAS_HOOK:
        r = np.arange(5, like=x)
        assert isinstance(r, npgpu.Array) and r.device == npgpu.asarray([0]).device


def test_module_is_importable_alone():
    # npgpu/__init__ imports it, and Array.__array_function__ imports it lazily
    assert sys.modules["npgpu._numpy_functions"] is _numpy_functions
    assert callable(_numpy_functions.array_function) and _numpy_functions.array_function.__doc__
