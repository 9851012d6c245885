"""The Examples sections of the public docstrings, run as doctests on the host backend (device "cpu"), so
they stay true as the code changes."""
import doctest
import importlib

import numpy as np
import pytest

import npgpu

MODULES = ["npgpu._array", "npgpu._reduce", "npgpu._sorting", "npgpu._indexing", "npgpu._stencil", "npgpu._runtime",
           "npgpu._rtc", "npgpu._blas", "npgpu._launch", "npgpu._random", "npgpu._elementwise",
           "npgpu.fft", "npgpu.linalg", "npgpu.random", "npgpu._manipulation", "npgpu._creation",
           "npgpu._statistics", "npgpu._set_functions", "npgpu._histograms", "npgpu._polynomial_signal", "npgpu._io",
           "npgpu._elementwise_composed", "npgpu._dtypes", "npgpu._errstate", "npgpu.emath",
           "npgpu._linear_algebra", "npgpu.sparse", "npgpu.sparse._construct", "npgpu.sparse._compressed",
           "npgpu.sparse._base", "npgpu.sparse._coo", "npgpu.sparse.linalg",
           "npgpu.sparse._util", "npgpu.sparse._index", "npgpu.sparse._setitem", "npgpu.dask", "npgpu.polynomial"]


def _examples():
    finder = doctest.DocTestFinder(exclude_empty=True)
    for name in MODULES:
        try:
            mod = importlib.import_module(name)
        except ImportError:  # npgpu.dask without dask
            continue
        found = set()
        for t in finder.find(mod, name, globs={"np": np, "npgpu": npgpu}):
            if t.examples and t.name.startswith(name) and ".__test__." not in t.name:  # Cython's copies
                found.add(t.name)
                yield pytest.param(t, id=t.name)
        # functions made by a factory (the elementwise ufuncs), which the finder does not see
        for attr, obj in sorted(vars(mod).items()):
            doc = getattr(obj, "__doc__", None)
            if attr.startswith("_") or not callable(obj) or not isinstance(doc, str) or ">>>" not in doc or \
                    getattr(obj, "__module__", None) not in (name, "npgpu") or f"{name}.{attr}" in found:
                continue
            t = doctest.DocTestParser().get_doctest(doc, {"np": np, "npgpu": npgpu}, f"{name}.{attr}", None, 0)
            yield pytest.param(t, id=t.name)


@pytest.mark.parametrize("test", list(_examples()))
def test_docstring_example(test):
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    with npgpu.use_backend("cpu"), np.printoptions(precision=8, suppress=True):
        runner.run(test)
    r = runner.summarize(verbose=False)
    assert r.failed == 0, f"{r.failed} of {r.attempted} examples in {test.name} failed (output above)"
