"""What the differential test files (test_differential*.py) share: Hypothesis settings, the quiet context,
the comparison of NumPy's outcome (a result or an exception type) with npgpu's, and of values.

A plain module rather than conftest fixtures, so the @given tests call it directly; conftest.py puts this
folder on sys.path (the suite's importlib import mode does not)."""
import os
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, event, settings

EXAMPLES = int(os.environ.get("NPGPU_HYPOTHESIS_EXAMPLES", "25"))
SETTINGS = settings(derandomize=True, database=None, max_examples=EXAMPLES, deadline=None,
                    suppress_health_check=list(HealthCheck), print_blob=False)
KINDS = ("numpy", "array")


class _Quiet:
    """NumPy's (and npgpu's) floating-point, deprecation and complex-cast warnings are not what is compared."""

    def __enter__(self):
        self.err = np.errstate(all="ignore")
        self.warn = warnings.catch_warnings()
        self.err.__enter__()
        self.warn.__enter__()
        warnings.simplefilter("ignore")

    def __exit__(self, *exc):
        self.warn.__exit__(*exc)
        self.err.__exit__(*exc)


def quiet():
    return _Quiet()


def public_type(exc):
    """The exception type npgpu must raise for NumPy's `exc`: its own type when public (builtins,
    numpy.exceptions, numpy.linalg), else the nearest such base (UFuncTypeError -> TypeError)."""
    for t in type(exc).__mro__:
        if t.__module__ in ("builtins", "numpy.exceptions", "numpy.linalg"):
            return t
    return Exception


def numpy_or_error(fn, *args, **kwargs):
    """NumPy's (result, None), or (None, the exception type npgpu must raise)."""
    with quiet():
        try:
            return fn(*args, **kwargs), None
        except Exception as e:  # noqa: BLE001 (any NumPy error is what npgpu must match)
            event(f"NumPy raises {public_type(e).__name__}")
            return None, public_type(e)


def npgpu_call(err, fn, *args, **kwargs):
    """fn's result, or (when NumPy raised `err`) a check that fn raises it too; None then."""
    with quiet():
        if err is not None:
            with pytest.raises(err):
                fn(*args, **kwargs)
            return None
        return fn(*args, **kwargs)


def rtol_for(dtype):
    """The relative tolerance of a dtype's results: 0 (exact) for bool and integers."""
    dtype = np.dtype(dtype)
    if dtype.kind not in "fc":
        return 0.0
    part = dtype.itemsize // 2 if dtype.kind == "c" else dtype.itemsize
    return {2: 2e-3, 4: 2e-5, 8: 1e-12}[part]


def assert_values(got, want, rtol=0.0, scale=None, what=""):
    """dtype, shape, then values: exact (NaNs equal) when rtol is 0, else |got - want| <= rtol * scale (scale:
    |want| elementwise by default, or a scalar / broadcastable array; NaNs equal, infinities equal)."""
    if isinstance(want, (tuple, list)):
        assert len(got) == len(want), f"{what}: {len(got)} results, NumPy gives {len(want)}"
        for i, (g, w) in enumerate(zip(got, want)):
            assert_values(g, w, rtol, scale if not isinstance(scale, (tuple, list)) else scale[i], f"{what}[{i}]")
        return
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, f"{what}: dtype {got.dtype}, NumPy gives {want.dtype}"
    assert got.shape == want.shape, f"{what}: shape {got.shape}, NumPy gives {want.shape}"
    if want.dtype.kind not in "fc" or rtol == 0.0:
        assert np.array_equal(got, want, equal_nan=want.dtype.kind in "fc"), f"{what}: {got!r} vs NumPy's {want!r}"
        return
    with quiet():
        s = np.abs(want.astype(np.complex128)) if scale is None else np.asarray(scale, dtype=np.float64)
        s = np.broadcast_to(np.where(np.isfinite(s), s, 0.0), want.shape)
        s = np.maximum(s, np.finfo(np.float64).tiny)
        g = got.astype(np.complex128)
        w = want.astype(np.complex128)
        ok = np.ones(want.shape, bool)
        for gp, wp in ((g.real, w.real), (g.imag, w.imag)):
            ok &= (np.isnan(gp) & np.isnan(wp)) | (gp == wp) | (np.abs(gp - wp) <= rtol * s)
    bad = np.flatnonzero(~ok.ravel())
    assert bad.size == 0, (f"{what}: {bad.size} of {got.size} values off; first {got.ravel()[bad[0]]!r} vs "
                           f"NumPy's {want.ravel()[bad[0]]!r} (rtol {rtol:g}, scale {s.ravel()[bad[0]]:g})")
