"""The Examples sections of the public docstrings, run as doctests on the host backend (device "cpu"), so
they stay true as the code changes."""
import doctest
import importlib

import numpy as np
import pytest

import npgpu

MODULES = ["npgpu.fft", "npgpu.linalg", "npgpu.random", "npgpu._manipulation", "npgpu._creation",
           "npgpu._statistics", "npgpu._set_functions", "npgpu._histograms", "npgpu._polynomial_signal",
           "npgpu._linear_algebra", "npgpu.sparse", "npgpu.sparse._construct", "npgpu.sparse._compressed",
           "npgpu.sparse._base", "npgpu.sparse._coo", "npgpu.sparse.linalg",
           "npgpu.sparse._util", "npgpu.sparse._index", "npgpu.sparse._setitem", "npgpu.dask"]


def _examples():
    finder = doctest.DocTestFinder(exclude_empty=True)
    for name in MODULES:
        try:
            mod = importlib.import_module(name)
        except ImportError:  # npgpu.dask without dask
            continue
        for t in finder.find(mod, name, globs={"np": np, "npgpu": npgpu}):
            if t.examples and t.name.startswith(name):
                yield pytest.param(t, id=t.name)


@pytest.mark.parametrize("test", list(_examples()))
def test_docstring_example(test):
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    with npgpu.use_backend("cpu"), np.printoptions(precision=8, suppress=True):
        runner.run(test)
    r = runner.summarize(verbose=False)
    assert r.failed == 0, f"{r.failed} of {r.attempted} examples in {test.name} failed (output above)"
