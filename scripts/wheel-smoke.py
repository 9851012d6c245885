"""The wheel a user installs, checked as a user gets it: run by the python of a fresh virtualenv into which
only that wheel and its dependencies were installed (CI: .ci/run), with no source tree on the path.

    python scripts/wheel-smoke.py dist/npgpu-*.whl

Checks the wheel's contents (one copy of the shared library, the headers and CMake package for C++ users,
type stubs, the licence), then imports the installed package and runs a few operations of each family on the
host backend against NumPy, and `python -m npgpu info`.
"""
import os
import subprocess
import sys
import sysconfig
import zipfile


def check_contents(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    libs = [n for n in names if os.path.basename(n).startswith("libnpgpu.so")]
    # a wheel turns symbolic links into copies: libnpgpu.so.0 beside libnpgpu.so would double its size
    assert libs == ["npgpu/lib/libnpgpu.so"], f"expected one copy of the shared library, found {libs}"
    need = ["npgpu/py.typed", "npgpu/include/npgpu/npgpu.hpp", "npgpu/lib/cmake/npgpu/npgpuConfig.cmake",
            "npgpu/_array.pyi"]
    missing = [n for n in need if n not in names]
    assert not missing, f"the wheel lacks {missing}"
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), "the wheel has no LICENSE"


def check_installed():
    os.chdir("/")
    import numpy as np

    import npgpu

    site = sysconfig.get_paths()["purelib"]
    assert os.path.realpath(npgpu.__file__).startswith(os.path.realpath(site)), \
        f"npgpu imported from {npgpu.__file__}, not from this environment's site-packages {site}"
    rng = np.random.default_rng(0)
    a = rng.random((64, 64))
    b = rng.random(64)
    x = npgpu.asarray(a)
    checks = {
        "add": (npgpu.add(x, x).get(), a + a),
        "sum": (npgpu.sum(x, axis=0).get(), a.sum(axis=0)),
        "sort": (npgpu.sort(x, axis=1).get(), np.sort(a, axis=1)),
        "fft": (npgpu.fft.fft(x).get(), np.fft.fft(a)),
        "solve": (npgpu.linalg.solve(x, npgpu.asarray(b)).get(), np.linalg.solve(a, b)),
    }
    for name, (got, want) in checks.items():
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12, err_msg=name)
    pi = npgpu.monte_carlo_pi(1 << 20, seed=1)
    assert abs(pi - np.pi) < 0.01, f"monte_carlo_pi gave {pi}"
    info = subprocess.run([sys.executable, "-m", "npgpu", "info"], capture_output=True, text=True, check=True)
    assert "npgpu" in info.stdout, info.stdout
    print(f"wheel smoke test: npgpu {npgpu.__version__} from {os.path.dirname(npgpu.__file__)}, "
          f"backend {npgpu.get_backend()}: "
          f"{len(checks)} operations equal NumPy's")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    check_contents(sys.argv[1])
    check_installed()
