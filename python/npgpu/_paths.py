"""Where the installed C++ library, its headers and its CMake package are."""
from pathlib import Path


def _root() -> Path:
    # The compiled modules sit beside lib/ and include/ in the installed package; in an editable install this
    # file stays in the source tree while they live in site-packages, so locate them through a compiled one.
    from npgpu import _errors

    return Path(_errors.__file__).resolve().parent


def get_include() -> str:
    """Directory holding ``npgpu/npgpu.hpp`` (add it to the include path of C++ code using libnpgpu)."""
    return str(_root() / "include")


def get_library_dir() -> str:
    """Directory holding ``libnpgpu.so``."""
    return str(_root() / "lib")


def get_cmake_dir() -> str:
    """Directory holding ``npgpuConfig.cmake``: pass it as ``-Dnpgpu_DIR=...`` to ``find_package(npgpu)``."""
    return str(_root() / "lib" / "cmake" / "npgpu")
