"""What the differential test files (test_differential*.py) share: Hypothesis settings, the quiet context
and the comparison of NumPy's outcome (a result or an exception type) with npgpu's.

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
