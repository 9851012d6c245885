#!/usr/bin/env bash
# Build npgpu's wheel for the GPU machine's Python (3.12) on a machine without a GPU, so the GPU machine
# installs it in seconds instead of compiling for minutes of its time:
#   scripts/build-device-wheel.sh            # -> build/wheel312/npgpu-*-cp312-*.whl (one CUDA architecture)
# then on the GPU machine, with build/wheel312 carried:  WHEEL="build/wheel312/*.whl" scripts/gpu-check.sh out
# PY312 names the Python 3.12 to build with (default: pyenv's 3.12, else python3.12 on PATH); its build
# dependencies are installed into it when missing. NPGPU_CUDA_ARCHITECTURES defaults to 90-real (H100/H200).
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PY312:-}"
if [ -z "$PY" ]; then
  PY=$(ls -d "$(pyenv root 2>/dev/null || echo /nonexistent)"/versions/3.12*/bin/python 2>/dev/null | tail -1 || true)
  [ -n "$PY" ] || PY=$(command -v python3.12 || true)
fi
[ -n "$PY" ] || { echo "build-device-wheel.sh: no Python 3.12 found (set PY312)" >&2; exit 1; }
"$PY" -c "import numpy, Cython, scikit_build_core, cython_cmake" 2>/dev/null ||
  "$PY" -m pip install -q "numpy>=2" "cython>=3.0" "scikit-build-core>=0.10" "cython-cmake>=0.2"
export NPGPU_CUDA_ARCHITECTURES="${NPGPU_CUDA_ARCHITECTURES:-90-real}"
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}"
rm -rf build/wheel312
"$PY" -m pip wheel --no-build-isolation --no-deps -w build/wheel312 .
ls -l build/wheel312
