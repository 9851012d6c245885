"""What npgpu was built with and what it runs on: ``npgpu.show_config()`` and ``npgpu.show_runtime()``, NumPy's
two reports, and ``python -m npgpu info``, which prints both."""
import importlib.metadata
import os
import pathlib
import site
from typing import Any

from npgpu import _paths, _runtime

__all__ = ["show_config", "show_runtime"]

# The NVIDIA libraries npgpu opens at run time: (what for, pip package, shared library).
_LIBRARIES = [
    ("matrix products", "nvidia-cublas", "libcublas.so.13"),
    ("run-time kernels", "nvidia-cuda-nvrtc", "libnvrtc.so.13"),
    ("npgpu.fft", "nvidia-cufft", "libcufft.so.12"),
    ("npgpu.linalg", "nvidia-cusolver", "libcusolver.so.12"),
    ("npgpu.sparse", "nvidia-cusparse", "libcusparse.so.12"),
]


def _cuda_version(v):
    return f"{v // 1000}.{v % 1000 // 10}" if v else None


def _libraries():
    """Each NVIDIA library's wheel version and shared library, found as npgpu looks first: the nvidia/cu13/lib
    folder of the installed wheels (None where missing; npgpu then also searches NPGPU_CUDA_LIBRARY_PATH, the
    CUDA toolkit and the system)."""
    roots = site.getsitepackages() + [site.getusersitepackages()]
    folders = [pathlib.Path(p) / "nvidia" / "cu13" / "lib" for p in roots]
    found = {}
    for use, package, soname in _LIBRARIES:
        try:
            version = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            version = None
        path = next((f / soname for f in folders if (f / soname).exists()), None)
        found[package] = {"version": version, "library": soname, "path": str(path) if path else None,
                          "used_by": use}
    return found


def _config():
    info = _runtime.runtime_info()
    return {
        "npgpu": info["npgpu"],
        "CUDA runtime (linked into libnpgpu)": _cuda_version(info["cuda_runtime"]),
        "CUDA driver": _cuda_version(info["cuda_driver"]),
        "include dir": _paths.get_include(),
        "CMake package dir": _paths.get_cmake_dir(),
        "NVIDIA libraries (opened on first use)": _libraries(),
        "NPGPU_* environment": {k: v for k, v in sorted(os.environ.items()) if k.startswith("NPGPU_")},
    }


def _runtime_report():
    n = _runtime.device_count()
    staging = _runtime.staging_config()
    report = {"backend for NumPy inputs": _runtime.get_backend(), "GPUs": n,
              "staging ring": {"slot bytes": staging[0], "slots": staging[1]}}
    if n == 0:
        report["no GPU"] = _runtime.unavailable_reason()
    devices = []
    for i in range(n):
        devices.append({**_runtime.Device(i).properties(), "memory": _runtime.memory_info(i)})
    report["devices"] = devices
    return report


def _check_mode(mode):
    if mode not in ("stdout", "dicts"):
        raise ValueError(f"mode must be 'stdout' or 'dicts', not {mode!r}")


def _print(report, indent=""):
    for k, v in report.items():
        if isinstance(v, (dict, list)):
            print(f"{indent}{k}:" + ("" if v else " (none)"))
            if isinstance(v, dict):
                _print(v, indent + "  ")
            for i, item in enumerate(v if isinstance(v, list) else ()):
                if isinstance(item, dict):
                    print(f"{indent}  {i}:")
                    _print(item, indent + "    ")
                else:
                    print(f"{indent}  {item}")
        else:
            print(f"{indent}{k}: {'none found' if v is None else v}")


def show_config(mode: str = "stdout") -> dict[str, Any] | None:
    """What this npgpu was built with and will load: its version, the CUDA runtime linked into libnpgpu, the
    driver, the C++ include and CMake package folders, each NVIDIA library's version and path, and the
    ``NPGPU_*`` environment variables set. As numpy.show_config. Needs no GPU and makes no CUDA call but the
    driver's version query.

    Parameters
    ----------
    mode : {'stdout', 'dicts'}, optional
        Print the report (default), or return it as a dict.

    Returns
    -------
    dict or None
        The report with ``mode='dicts'``.

    Raises
    ------
    ValueError
        `mode` is neither 'stdout' nor 'dicts' (NumPy raises AttributeError).

    Examples
    --------
    >>> npgpu.show_config(mode="dicts")["npgpu"] == npgpu.__version__
    True
    """
    _check_mode(mode)
    report = _config()
    if mode == "dicts":
        return report
    libs = "NVIDIA libraries (opened on first use)"
    report[libs] = [f"{name} {_library_line(lib)}" for name, lib in report[libs].items()]
    _print(report)
    return None


def _library_line(lib):
    if lib["version"] and lib["path"]:
        return f"{lib['version']}: {lib['path']} ({lib['used_by']})"
    missing = "not installed" if not lib["version"] else f"installed, {lib['library']} not found"
    return (f"{missing} ({lib['used_by']} needs it on a GPU; also searched: NPGPU_CUDA_LIBRARY_PATH, CUDA toolkit, "
            "system)")


def show_runtime(mode: str = "stdout") -> dict[str, Any] | None:
    """What npgpu runs on now: the backend for NumPy inputs, the staging ring's size, and each GPU's
    properties and memory (npgpu.memory_info's figures), or why there is no GPU. As numpy.show_runtime, which
    reports the CPU's features instead.

    Parameters
    ----------
    mode : {'stdout', 'dicts'}, optional
        Print the report (default), or return it as a dict.

    Returns
    -------
    dict or None
        The report with ``mode='dicts'``.

    Raises
    ------
    ValueError
        `mode` is neither 'stdout' nor 'dicts'.

    Examples
    --------
    >>> npgpu.show_runtime(mode="dicts")["GPUs"] == npgpu.device_count()
    True
    """
    _check_mode(mode)
    report = _runtime_report()
    if mode == "dicts":
        return report
    _print(report)
    return None
