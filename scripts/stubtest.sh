#!/usr/bin/env bash
# The type stubs (python/npgpu/_*.pyi) against the compiled modules they describe, then as a user's editor sees them.
#  1. mypy's stubtest over every npgpu._xxx module built from pyx/npgpu/_xxx.pyx, with
#     scripts/stubtest-allowlist.txt (only names Cython itself generates).
#  2. mypy --strict over a few typed npgpu calls (must pass), and over wrong calls (each must be reported: proof
#     that mypy reads the stubs instead of treating npgpu as Any).
# Needs the package installed (editable is fine) and mypy; no GPU (imports only). Exits non-zero on any problem.
set -euo pipefail
cd "$(dirname "$0")/.."
# mypy's cache in a temporary folder, not .mypy_cache in the tree (stubtest reads cache_dir from a config file only).
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
printf '[mypy]\ncache_dir = %s\n' "$tmp/cache" >"$tmp/mypy.ini"

modules=()
for pyx in pyx/npgpu/_*.pyx; do
    name="$(basename "$pyx" .pyx)"
    if [ ! -f "python/npgpu/$name.pyi" ]; then
        echo "stubtest.sh: $pyx has no stub python/npgpu/$name.pyi" >&2
        exit 1
    fi
    modules+=("npgpu.$name")
done
python -m mypy.stubtest --mypy-config-file "$tmp/mypy.ini" --allowlist scripts/stubtest-allowlist.txt "${modules[@]}"

mypy_c() { python -m mypy --config-file "$tmp/mypy.ini" --no-error-summary "$@"; }

mypy_c --strict -c '
import numpy as np

import npgpu

x = npgpu.asarray(np.arange(6.0).reshape(2, 3), dtype=np.float32)
y: npgpu.Array = (x + 1.0) * x.T
host: np.ndarray = y.get()
total: npgpu.Array = npgpu.sum(y, axis=0)
shape: tuple[int, ...] = y.shape
stream: npgpu.Stream = npgpu.get_current_stream()
lap = npgpu.laplacian(host, boundary="periodic")
'
echo "stubtest.sh: typed calls: mypy --strict clean"

bad='
import numpy as np

import npgpu

x = npgpu.asarray(np.arange(6.0), devcie="cpu")
n: str = x.ndim
npgpu.laplacian(np.zeros((4, 4)), boundary="wrap")
'
if found="$(mypy_c -c "$bad")"; then
    echo "stubtest.sh: mypy accepted wrong npgpu calls: it does not see the stubs" >&2
    exit 1
fi
if [ "$(grep -c ': error:' <<<"$found")" != 3 ]; then
    printf 'stubtest.sh: expected 3 errors for the wrong calls, mypy said:\n%s\n' "$found" >&2
    exit 1
fi
echo "stubtest.sh: wrong calls: mypy reports all 3"
