"""Where the installed C++ library, its headers and its CMake package are."""
from pathlib import Path

_ROOT = Path(__file__).resolve().parent


def get_include() -> str:
    """Directory holding ``npgpu/npgpu.hpp`` (add it to the include path of C++ code using libnpgpu)."""
    return str(_ROOT / "include")


def get_library_dir() -> str:
    """Directory holding ``libnpgpu.so``."""
    return str(_ROOT / "lib")


def get_cmake_dir() -> str:
    """Directory holding ``npgpuConfig.cmake``: pass it as ``-Dnpgpu_DIR=...`` to ``find_package(npgpu)``."""
    return str(_ROOT / "lib" / "cmake" / "npgpu")
