"""Libraries written against any Array API namespace run on npgpu arrays and give NumPy's results.

- ``array_api_extra`` (PyPI ``array-api-extra``): its functions on npgpu arrays against the same calls on
  NumPy arrays (values, dtype, shape, and the result's type and device).
- ``scipy.special.logsumexp`` with ``SCIPY_ARRAY_API=1`` (PyPI ``scipy``). SciPy reads the variable when it
  is first imported, so these cases run in a fresh subprocess per device.

Cases whose library code needs a namespace function npgpu does not have yet are skipped, naming it and the
issue that owns it (sorting/searching/set functions, nonzero and boolean-mask indexing: issue 18), so they
run by themselves once it lands.
"""
import inspect
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import npgpu

xpx = pytest.importorskip("array_api_extra")

pytestmark = [
    # xpx.expand_dims and xpx.broadcast_shapes are deprecated in favour of the 2025.12 standard's own
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
    # NumPy's warnings on NaN/inf inputs, which are part of the cases
    pytest.mark.filterwarnings("ignore::RuntimeWarning"),
]


def _missing(*names):
    return [n for n in names if not hasattr(npgpu, n)]


def _has_astype_copy():
    try:
        return "copy" in inspect.signature(npgpu.astype).parameters
    except (TypeError, ValueError):
        return True  # a builtin without a signature: let the test find out


def _has_mask_setitem(device):
    x = npgpu.asarray(np.zeros(2), device=device)
    try:
        x[npgpu.asarray(np.array([True, False]), device=device)] = 1.0
    except (IndexError, TypeError, NotImplementedError):
        return False
    return bool(np.asarray(x)[0] == 1.0)


def needs(*names, issue=None, astype_copy=False):
    """Skip when npgpu lacks one of the namespace functions `names` (or astype's copy= keyword)."""
    missing = _missing(*names)
    if astype_copy and not _has_astype_copy():
        missing.append("astype(copy=)")
    if missing:
        owner = f" (issue {issue})" if issue else ""
        pytest.skip(f"needs npgpu.{', npgpu.'.join(missing)}{owner}")


def to_numpy(r):
    if isinstance(r, (tuple, list)):
        return type(r)(to_numpy(y) for y in r)
    return np.asarray(r) if isinstance(r, npgpu.Array) else r


def check_like_numpy(got, expected, device):
    """`got` (from npgpu inputs) matches `expected` (from NumPy inputs): same structure, npgpu Arrays on
    `device` wherever NumPy gave arrays, same dtypes and shapes, values to a few units in the last place
    (the library may take another formula on NumPy, e.g. np.rad2deg against x * (180 / pi))."""
    if isinstance(expected, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(expected)
        for g, e in zip(got, expected):
            check_like_numpy(g, e, device)
        return
    if isinstance(expected, np.ndarray):
        assert isinstance(got, npgpu.Array), type(got)
        assert str(got.device).split(":")[0] == device, got.device
        g = np.asarray(got)
        assert g.dtype == expected.dtype, (g.dtype, expected.dtype)
        assert g.shape == expected.shape, (g.shape, expected.shape)
        if expected.dtype.kind in "fc":
            rtol = 4 * np.finfo(expected.dtype).eps
            np.testing.assert_allclose(g, expected, rtol=rtol, atol=0, equal_nan=True)
        else:
            np.testing.assert_array_equal(g, expected)
        return
    assert got == expected


rng = np.random.default_rng(20240917)
MAT = rng.standard_normal((3, 4))
VEC = rng.standard_normal(7)
CVEC = VEC + 1j * rng.standard_normal(7)
IVEC = np.array([3, 1, 2, 3, 0, 1, 3], dtype=np.int64)
SPECIAL = np.array([np.nan, np.inf, -np.inf, 1.5, -0.0, 0.0])
F32 = rng.standard_normal((2, 5)).astype(np.float32)

# name -> (function of (xp, wrap), required npgpu functions, issue owning them, needs astype(copy=))
# `wrap` turns a NumPy array into the input array type; `xp` is the namespace (for xp= arguments).
CASES = {
    "atleast_nd": (lambda xp, w: xpx.atleast_nd(w(VEC), ndim=3), (), None, False),
    "atleast_nd_0d": (lambda xp, w: xpx.atleast_nd(w(np.float64(2.5)), ndim=2), (), None, False),
    "expand_dims": (lambda xp, w: xpx.expand_dims(w(MAT), axis=(0, 3)), (), None, False),
    "expand_dims_neg": (lambda xp, w: xpx.expand_dims(w(F32), axis=-1), (), None, False),
    "kron": (lambda xp, w: xpx.kron(w(MAT), w(MAT[:2, :3])), (), None, False),
    "kron_int": (lambda xp, w: xpx.kron(w(IVEC[:3]), w(IVEC[3:5])), (), None, False),
    "pad_int": (lambda xp, w: xpx.pad(w(MAT), 2), (), None, False),
    "pad_pairs": (lambda xp, w: xpx.pad(w(F32), ((1, 2), (0, 3)), constant_values=7.0), (), None, False),
    "sinc": (lambda xp, w: xpx.sinc(w(np.concatenate([VEC, [0.0]]))), (), None, False),
    "create_diagonal": (lambda xp, w: xpx.create_diagonal(w(VEC)), (), None, False),
    "create_diagonal_offset": (lambda xp, w: xpx.create_diagonal(w(VEC[:4]), offset=-2), (), None, False),
    "create_diagonal_batch": (lambda xp, w: xpx.create_diagonal(w(MAT)), (), None, False),
    "at_set_slice": (lambda xp, w: xpx.at(w(VEC.copy()))[1:4].set(0.5), (), None, False),
    "at_add_slice": (lambda xp, w: xpx.at(w(MAT.copy()))[:, ::2].add(1.0), (), None, False),
    "at_multiply_int": (lambda xp, w: xpx.at(w(IVEC.copy()))[2].multiply(5), (), None, False),
    "apply_where": (lambda xp, w: xpx.apply_where(w(VEC) > 0, (w(VEC),), xp.sqrt, fill_value=-1.0),
                    (), None, False),
    "apply_where_two": (lambda xp, w: xpx.apply_where(w(VEC) > 0, (w(VEC), w(VEC[::-1])),
                                                      lambda a, b: a * b, lambda a, b: a - b), (), None, False),
    "broadcast_shapes": (lambda xp, w: xpx.broadcast_shapes((3, 1), (1, 4), (4,)), (), None, False),
    "deg2rad": (lambda xp, w: xpx.deg2rad(w(VEC)), (), None, False),
    "rad2deg": (lambda xp, w: xpx.rad2deg(w(F32)), (), None, False),
    "isclose": (lambda xp, w: xpx.isclose(w(SPECIAL), w(SPECIAL + 1e-9), equal_nan=True), (), None, False),
    "isclose_int": (lambda xp, w: xpx.isclose(w(IVEC), w(IVEC[::-1])), (), None, False),
    "nan_to_num": (lambda xp, w: xpx.nan_to_num(w(SPECIAL)), (), None, False),
    "nan_to_num_complex": (lambda xp, w: xpx.nan_to_num(w(SPECIAL + 1j * SPECIAL[::-1])), (), None, False),
    "nansum": (lambda xp, w: xpx.nansum(w(SPECIAL[[0, 3, 4]])), (), None, False),
    "nansum_axis": (lambda xp, w: xpx.nansum(w(np.where(MAT > 1, np.nan, MAT)), axis=1), (), None, False),
    "nanmax": (lambda xp, w: xpx.nanmax(w(np.where(MAT > 1, np.nan, MAT)), axis=0), (), None, False),
    "nanmin": (lambda xp, w: xpx.nanmin(w(np.where(MAT > 1, np.nan, MAT))), (), None, False),
    "unravel_index": (lambda xp, w: xpx.unravel_index(w(IVEC), (2, 3)), (), None, False),
    "diag_indices": (lambda xp, w: xpx.diag_indices(3, ndim=2, xp=xp), (), None, False),
    "default_dtype": (lambda xp, w: xpx.default_dtype(xp), (), None, False),
    "default_dtype_int": (lambda xp, w: xpx.default_dtype(xp, "integral"), (), None, False),
    # need astype(x, dtype, copy=) (the standard's signature) or atan2
    "cov": (lambda xp, w: xpx.cov(w(MAT)), (), None, True),
    "cov_int": (lambda xp, w: xpx.cov(w(IVEC.reshape(1, -1))), (), None, True),
    "nanmean": (lambda xp, w: xpx.nanmean(w(np.where(MAT > 1, np.nan, MAT)), axis=0), (), None, True),
    "one_hot": (lambda xp, w: xpx.one_hot(w(IVEC), 4), (), None, True),
    "angle": (lambda xp, w: xpx.angle(w(CVEC)), ("atan2",), 17, False),
    # need sorting, searching, set functions or nonzero (issue 18)
    "nunique": (lambda xp, w: xpx.nunique(w(IVEC)), ("sort", "unique_values"), 18, False),
    "setdiff1d": (lambda xp, w: xpx.setdiff1d(w(IVEC), w(np.array([1, 3]))), ("unique_values", "sort"), 18, False),
    "union1d": (lambda xp, w: xpx.union1d(w(IVEC), w(np.array([7]))), ("unique_values",), 18, False),
    "isin": (lambda xp, w: xpx.isin(w(IVEC), w(np.array([1, 3]))), ("unique_inverse", "argsort"), 18, False),
    "searchsorted": (lambda xp, w: xpx.searchsorted(w(np.sort(VEC)), w(VEC)), ("searchsorted",), 18, False),
    "partition": (lambda xp, w: xpx.partition(w(VEC), 3)[3], ("sort",), 18, False),
    "tril_indices": (lambda xp, w: xpx.tril_indices(4, xp=xp), ("nonzero",), 18, False),
}


def _xpx_function(name):
    """The array_api_extra function a case name calls: its longest prefix (at '_') that xpx has."""
    parts = name.split("_")
    for n in range(len(parts), 0, -1):
        if hasattr(xpx, "_".join(parts[:n])):
            return "_".join(parts[:n])
    return None


@pytest.mark.parametrize("name", sorted(CASES))
def test_array_api_extra_like_numpy(name, array_device):
    fn, required, issue, astype_copy = CASES[name]
    func = _xpx_function(name)
    if func is None:
        pytest.skip(f"array_api_extra {xpx.__version__} has no {name}")
    needs(*required, issue=issue, astype_copy=astype_copy)
    expected = fn(np, np.asarray)
    got = fn(npgpu, lambda a: npgpu.asarray(a, device=array_device))
    if isinstance(expected, np.dtype) or isinstance(got, np.dtype) or name.startswith("default_dtype"):
        assert np.dtype(got) == np.dtype(expected)
        return
    check_like_numpy(got, expected, array_device)


def test_array_api_extra_at_does_not_write_its_input(array_device):
    x = npgpu.asarray(VEC, device=array_device)
    y = xpx.at(x)[1:4].set(0.5, copy=True)
    np.testing.assert_array_equal(np.asarray(x), VEC)
    assert np.asarray(y)[2] == 0.5 and isinstance(y, npgpu.Array)


def test_array_api_extra_at_writes_in_place_as_on_numpy(array_device):
    # copy=None: writeable arrays (NumPy's and npgpu's) are written in place
    a = VEC.copy()
    x = npgpu.asarray(a.copy(), device=array_device)
    np.testing.assert_array_equal(np.asarray(xpx.at(x)[::2].add(1.0)), xpx.at(a)[::2].add(1.0))
    np.testing.assert_array_equal(np.asarray(x), a)


_SCIPY_SCRIPT = textwrap.dedent(
    """
    import json, sys
    import numpy as np
    import npgpu
    from scipy.special import logsumexp

    device = sys.argv[1]
    rng = np.random.default_rng(7)
    a = rng.standard_normal((3, 4)) * 20
    cases = {
        "all": (a, {}),
        "axis1": (a, {"axis": 1}),
        "axis0_keepdims": (a, {"axis": 0, "keepdims": True}),
        "axis_tuple": (a.reshape(3, 2, 2), {"axis": (0, 2)}),
        "weights": (a, {"b": rng.uniform(0.5, 2.0, (3, 4))}),
        "signed_weights": (a, {"axis": 1, "b": rng.standard_normal((3, 4)), "return_sign": True}),
        "float32": (a.astype(np.float32), {"axis": 0}),
        "with_inf": (np.array([1.0, -np.inf, 2.0, np.inf]), {}),
    }
    out = {}
    for name, (x, kw) in cases.items():
        exp = logsumexp(x, **kw)
        try:
            kw_dev = {k: npgpu.asarray(v, device=device) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
            got = logsumexp(npgpu.asarray(x, device=device), **kw_dev)
        except Exception as e:
            out[name] = {"error": f"{type(e).__name__}: {e}"}
            continue
        exp_t = exp if isinstance(exp, tuple) else (exp,)
        got_t = got if isinstance(got, tuple) else (got,)
        out[name] = {
            "types": [type(g).__module__.split(".")[0] for g in got_t],
            "devices": [str(getattr(g, "device", "")) for g in got_t],
            "dtypes": [str(np.asarray(g).dtype) for g in got_t],
            "expected_dtypes": [str(np.asarray(e).dtype) for e in exp_t],
            "shapes": [list(np.shape(np.asarray(g))) for g in got_t],
            "expected_shapes": [list(np.shape(e)) for e in exp_t],
            "close": all(bool(np.allclose(np.asarray(g), e, rtol=1e-6 if np.asarray(e).dtype == np.float32
                                          else 1e-12, atol=0, equal_nan=True)) for g, e in zip(got_t, exp_t)),
        }
    print(json.dumps(out))
    """
)


@pytest.fixture(scope="module")
def scipy_logsumexp_results():
    """Runs the logsumexp cases on each device in one subprocess apiece (SCIPY_ARRAY_API=1 must be set
    before SciPy is imported, and this process may have imported it already)."""
    pytest.importorskip("scipy.special")
    cache = {}

    def run(device):
        if device not in cache:
            env = dict(os.environ, SCIPY_ARRAY_API="1", NPGPU_BACKEND=device)
            proc = subprocess.run([sys.executable, "-c", _SCIPY_SCRIPT, device], env=env, capture_output=True,
                                  text=True, timeout=120)
            assert proc.returncode == 0, proc.stderr[-3000:]
            cache[device] = json.loads(proc.stdout.strip().splitlines()[-1])
        return cache[device]

    return run


LOGSUMEXP_CASES = ["all", "axis1", "axis0_keepdims", "axis_tuple", "weights", "signed_weights", "float32",
                   "with_inf"]


@pytest.mark.parametrize("case", LOGSUMEXP_CASES)
def test_scipy_logsumexp_like_numpy(case, array_device, scipy_logsumexp_results):
    if not _has_mask_setitem(array_device):
        # scipy's vendored array_api_extra.at writes through x[mask] = value on writeable arrays
        pytest.skip("needs boolean-mask __setitem__ (issue 18)")
    r = scipy_logsumexp_results(array_device)[case]
    assert "error" not in r, r.get("error")
    assert r["types"] == ["npgpu"] * len(r["types"]), r
    assert all(d.split(":")[0] == array_device for d in r["devices"]), r
    assert r["dtypes"] == r["expected_dtypes"], r
    assert r["shapes"] == r["expected_shapes"], r
    assert r["close"], r
