#!/usr/bin/env bash
# The GPU check: on a machine with a GPU and no network, build npgpu with the machine's installed packages,
# run the whole test suite on the CUDA backend, compute-sanitizer on the GPU tests, the demo and the
# benchmarks. Logs and summary.txt go to the results folder (default: gpu-results/).
#   scripts/gpu-check.sh [results-dir]
# PHASES (default "build tests sanitizer conformance demo bench") picks the steps, e.g. PHASES="tests bench"
# on a machine where the package is already built. TEST_FILES="test_linalg test_fft ..." runs those test files
# one by one (a log each) instead of the whole suite in one run. The conformance step runs the Array API test suite on the
# GPU (scripts/array-api-conformance.sh) when a checkout of it is at $AAT_DIR (default build/aat, an ignored
# folder the device runner can carry; see that script's header); without one it says so and passes.
# Pure-Python build dependencies the machine lacks (cython-cmake) may be carried as wheels in .whl/.
set -uo pipefail
cd "$(dirname "$0")/.."
SRC="$(pwd)"
OUT_DIR="$(mkdir -p "${1:-gpu-results}" && cd "${1:-gpu-results}" && pwd)"
PY="${PYTHON:-python3}"
export PYTHONUNBUFFERED=1
export NPGPU_CUDA_ARCHITECTURES="${NPGPU_CUDA_ARCHITECTURES:-native}"
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-16}"
SUMMARY="$OUT_DIR/summary.txt"
: >"$SUMMARY"
say() { echo "$*" >>"$SUMMARY"; }

if compgen -G ".whl/*.whl" >/dev/null; then
  "$PY" -m pip install -q --no-index --no-deps --no-compile --target /tmp/npgpu-site .whl/*.whl
  export PYTHONPATH="/tmp/npgpu-site${PYTHONPATH:+:$PYTHONPATH}"
fi

PHASES=" ${PHASES:-build tests sanitizer conformance demo bench} "
phase() { [[ "$PHASES" == *" $1 "* ]]; }

say "gpu: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1)"

t0=$(date +%s)
if phase build; then
  if ! "$PY" -m pip install --no-build-isolation --no-deps -v . >"$OUT_DIR/build.log" 2>&1; then
    say "build: FAILED (see build.log)"; tail -40 "$OUT_DIR/build.log"; cat "$SUMMARY"; exit 1
  fi
  say "build: ok ($(( $(date +%s) - t0 )) s, architectures $NPGPU_CUDA_ARCHITECTURES)"
fi

cd /tmp  # import the installed package, not the source tree
"$PY" -m npgpu info >"$OUT_DIR/info.log" 2>&1
say "import time: $("$PY" -c 'import time; t=time.perf_counter(); import npgpu; print(f"{time.perf_counter()-t:.3f} s")')"

rc_tests=0
if phase tests; then
  if [ -n "${TEST_FILES:-}" ]; then
    # One pytest run and log per file, so a run cut short by a time limit still reports the files it finished.
    for t in $TEST_FILES; do
      name=$(basename "$t" .py)
      # shellcheck disable=SC2086
      NPGPU_BACKEND=cuda "$PY" -m pytest "$SRC/tests/$name.py" -q -rfEs -p no:cacheprovider --durations=5 ${PYTEST_ARGS:-} \
        >"$OUT_DIR/tests-$name.log" 2>&1
      r=$?
      [ $r -ne 0 ] && rc_tests=$r
      say "tests $name (CUDA backend): rc=$r: $(tail -1 "$OUT_DIR/tests-$name.log")"
      # the failures themselves, briefly, in the summary (the device runner returns only a few files)
      [ $r -ne 0 ] && grep -E '^(E  |FAILED|ERROR)' "$OUT_DIR/tests-$name.log" | cut -c1-300 | head -${FAIL_LINES:-40} >>"$SUMMARY"
    done
  else
    # shellcheck disable=SC2086
    NPGPU_BACKEND=cuda "$PY" -m pytest "$SRC/tests" -q -rs -p no:cacheprovider ${PYTEST_ARGS:-} >"$OUT_DIR/tests.log" 2>&1
    rc_tests=$?
    say "tests (CUDA backend): rc=$rc_tests: $(tail -1 "$OUT_DIR/tests.log")"
  fi
fi

rc_san=0
if phase sanitizer; then
  # compute-sanitizer on the GPU tests of our own code (interop tests load other libraries' kernels).
  SAN_TESTS=${SAN_TESTS:-"tests/test_elementwise.py tests/test_blas.py tests/test_rtc.py tests/test_add.py tests/test_launch.py tests/test_array.py tests/test_memory.py tests/test_stencil.py"}
  SAN_TESTS=$(for t in $SAN_TESTS; do case "$t" in /*) echo "$t" ;; *) echo "$SRC/$t" ;; esac; done)
  # Deselected: out-of-memory tests, and the pool-trim tests, whose bounds on reserved memory assume the
  # pool's own chunking (memcheck pads every allocation, so the pool lays blocks out differently).
  for tool in ${SAN_TOOLS:-memcheck}; do
    # shellcheck disable=SC2086
    # --report-api-errors no: looking up a run-time kernel's parameter count asks for one past the last
    # parameter, an API "error" by design (see rtc.cpp); memory errors are still reported.
    NPGPU_BACKEND=cuda compute-sanitizer --tool "$tool" --error-exitcode 99 --target-processes all --report-api-errors no \
      "$PY" -m pytest $SAN_TESTS -q -p no:cacheprovider -m "not slow" -k "not out_of_memory and not oom and not trim" \
      >"$OUT_DIR/sanitizer-$tool.log" 2>&1
    r=$?
    [ $r -ne 0 ] && rc_san=$r
    say "compute-sanitizer $tool: rc=$r: $(grep -E 'ERROR SUMMARY' "$OUT_DIR/sanitizer-$tool.log" | tail -1) / $(tail -1 "$OUT_DIR/sanitizer-$tool.log")"
  done
  # racecheck on the shared-memory stencil (every boundary and dtype, small fields).
  NPGPU_BACKEND=cuda compute-sanitizer --tool racecheck --error-exitcode 99 "$PY" -c '
import numpy as np, npgpu
rng = np.random.default_rng(0)
for dt in (np.float32, np.float64):
    f = rng.random((131, 197)).astype(dt)
    for b in ("zero", "periodic", "reflect"):
        npgpu.diffusion(f, 9, boundary=b, return_laplacian=True)
        npgpu.laplacian(f, boundary=b)
' >"$OUT_DIR/sanitizer-racecheck.log" 2>&1
  r=$?
  [ $r -ne 0 ] && rc_san=$r
  say "compute-sanitizer racecheck (diffusion): rc=$r: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$OUT_DIR/sanitizer-racecheck.log" | tail -1)"
fi
rc_conf=0
if phase conformance; then
  AAT_DIR="${AAT_DIR:-$SRC/build/aat}"
  if [ -d "$AAT_DIR/array_api_tests" ]; then
    NPGPU_AAT_DEVICES="${NPGPU_AAT_DEVICES:-cuda}" bash "$SRC/scripts/array-api-conformance.sh" "$AAT_DIR" \
      "$OUT_DIR/array-api" >"$OUT_DIR/conformance.log" 2>&1
    rc_conf=$?
    say "array-api-tests: rc=$rc_conf: $(grep -h 'npgpu-' "$OUT_DIR/array-api/summary.txt" 2>/dev/null | tr '\n' ' ')"
  else
    say "array-api-tests: skipped (no checkout at $AAT_DIR)"
  fi
fi
if phase demo; then
  "$PY" -m npgpu demo >"$OUT_DIR/demo.log" 2>&1
  say "demo: rc=$?"
fi
rc_bench=0
if phase bench; then
  # shellcheck disable=SC2086
  "$PY" -m npgpu bench --isolate ${BENCH_ARGS:-} >"$OUT_DIR/bench.log" 2>&1
  rc_bench=$?
  say "bench: rc=$rc_bench"
  cat "$OUT_DIR/bench.log" >>"$SUMMARY"
fi
cat "$SUMMARY"
[ $rc_tests -eq 0 ] && [ $rc_san -eq 0 ] && [ $rc_conf -eq 0 ] && [ $rc_bench -eq 0 ]
