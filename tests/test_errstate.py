"""npgpu's floating-point error state names (seterr, geterr, errstate, seterrcall, geterrcall): they set and
read NumPy's own state, so NumPy code inside behaves as under numpy's; npgpu's kernels never warn or raise on
floating-point errors, whatever the state (IEEE results: inf, NaN)."""
import warnings

import numpy as np
import pytest

import npgpu


@pytest.fixture(autouse=True)
def _restore_state():
    saved, call = np.geterr(), np.geterrcall()
    yield
    np.seterr(**saved)
    np.seterrcall(call)


def test_seterr_geterr_are_numpys_state():
    old = npgpu.seterr(divide="raise", invalid="ignore")
    assert old == {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}
    assert npgpu.geterr() == np.geterr()
    assert np.geterr()["divide"] == "raise" and np.geterr()["invalid"] == "ignore"
    with pytest.raises(FloatingPointError):
        np.divide(1.0, np.zeros(1))
    assert npgpu.seterr(**old)["divide"] == "raise"
    assert np.geterr() == old


def test_seterr_rejects_unknown_modes():
    with pytest.raises(ValueError):
        npgpu.seterr(divide="loudly")
    with pytest.raises(ValueError):
        with npgpu.errstate(over="bogus"):
            pass


def test_errstate_sets_and_restores(array_device):
    before = np.geterr()
    with npgpu.errstate(all="raise"):
        assert set(np.geterr().values()) == {"raise"}
        with pytest.raises(FloatingPointError):
            np.log(np.zeros(1))
        # npgpu's own kernels give IEEE results and neither raise nor warn
        x = npgpu.asarray(np.array([1.0, 0.0, -1.0]), device=array_device)
        got = npgpu.divide(x, 0.0)
        host = got.get() if isinstance(got, npgpu.Array) else np.asarray(got)
        assert np.isinf(host[0]) and np.isnan(host[1]) and np.isinf(host[2])
    assert np.geterr() == before


def test_errstate_nests_reenters_and_decorates():
    state = npgpu.errstate(divide="ignore")
    with state:
        with npgpu.errstate(divide="raise"):
            assert np.geterr()["divide"] == "raise"
        assert np.geterr()["divide"] == "ignore"
        with state:  # re-entered while active, as a ContextDecorator may be
            assert np.geterr()["divide"] == "ignore"
        assert np.geterr()["divide"] == "ignore"
    assert np.geterr()["divide"] == "warn"

    @npgpu.errstate(invalid="raise")
    def inner():
        return np.geterr()["invalid"]

    assert inner() == "raise" and np.geterr()["invalid"] == "warn"


def test_errstate_call_and_seterrcall():
    seen = []

    def record(kind, flag):
        seen.append(kind)

    with npgpu.errstate(divide="call", call=record):
        assert npgpu.geterrcall() is record
        np.divide(1.0, np.zeros(1))
    assert seen and "divide" in seen[0]
    assert npgpu.geterrcall() is not record
    old = npgpu.seterrcall(record)
    assert npgpu.geterrcall() is record
    assert npgpu.seterrcall(old) is record
    with pytest.raises(TypeError):  # as NumPy: neither callable nor with a write method
        npgpu.seterrcall(42)


def test_npgpu_kernels_do_not_warn_under_warn_state(array_device):
    with npgpu.errstate(all="warn"), warnings.catch_warnings():
        warnings.simplefilter("error")
        x = npgpu.asarray(np.array([0.0, 1e308]), device=array_device)
        out = npgpu.log(x)
        big = npgpu.multiply(x, 10.0)
    host = out.get() if isinstance(out, npgpu.Array) else out
    assert np.isneginf(host[0])
    hb = big.get() if isinstance(big, npgpu.Array) else big
    assert np.isinf(hb[1])
