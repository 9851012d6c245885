#!/usr/bin/env bash
# The GPU check: on a machine with a GPU and no network, build npgpu with the machine's installed packages,
# run the whole test suite on the CUDA backend, compute-sanitizer on the GPU tests, the demo and the
# benchmarks. Logs and summary.txt go to the results folder (default: gpu-results/).
#   scripts/gpu-check.sh [results-dir]
# PHASES (default "build tests sanitizer conformance demo bench") picks the steps, e.g. PHASES="tests bench"
# on a machine where the package is already built. The whole suite runs one process per test file, TEST_JOBS
# (3 a GPU) at a time spread over every GPU of the machine, and the sanitizer's tools run at once, one GPU each
# in turn, so a two-GPU machine does the whole check in about half the time. TEST_FILES="test_linalg test_fft ..."
# runs those test files one by one (a log each) instead; TEST_PASSES=shared or TEST_PASSES=alone runs one of the
# whole suite's two passes (the tests that share a GPU, then those that need it to themselves). The conformance
# step runs the Array API test suite on the GPU (scripts/array-api-conformance.sh) when a checkout of it is at
# $AAT_DIR (default build/aat, an ignored folder the device runner can carry; see that script's header); without
# one it says so and passes.
# Pure-Python build dependencies the machine lacks (cython-cmake) may be carried as wheels in .whl/.
# WHEEL=build/wheel312/npgpu-*.whl installs a wheel built beforehand for this machine's Python
# (scripts/build-device-wheel.sh, about 15 minutes on 2 cores without a GPU) instead of building here
# (about 5 minutes of the GPU machine's time); carry its folder with the working tree.
# Under a time limit that may cut the run (a lent machine that returns only a few files), set ARCHIVE to a
# .tgz path in the folder that comes back (e.g. ARCHIVE=$OUT/gc.tgz): the results folder is archived there
# every ARCHIVE_EVERY seconds (default 30) and when the script ends, so a cut run still returns the logs of
# what it finished. summary.txt and each log are written as the phases go.
set -uo pipefail
cd "$(dirname "$0")/.."
SRC="$(pwd)"
OUT_DIR="$(mkdir -p "${1:-gpu-results}" && cd "${1:-gpu-results}" && pwd)"
PY="${PYTHON:-python3}"
export PYTHONUNBUFFERED=1
export NPGPU_CUDA_ARCHITECTURES="${NPGPU_CUDA_ARCHITECTURES:-native}"
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-16}"
# Source lines in the device code, so compute-sanitizer's reports name them.
export NPGPU_CUDA_LINEINFO="${NPGPU_CUDA_LINEINFO:-ON}"
SUMMARY="$OUT_DIR/summary.txt"
: >"$SUMMARY"
say() { echo "$*" >>"$SUMMARY"; }

# Everything this check starts stops with it. The sanitizer's runs go through `timeout`, which gives each a
# process group of its own that a timeout or Ctrl-C of this script does not reach: left running on a machine
# that is lent again, they would hold its GPUs for up to SAN_TIMEOUT. The processes are found by a marker in
# their environment, since their parents may already be gone.
export NPGPU_GPU_CHECK_RUN="$$-$(date +%s%N)"
stop_started() {
  local p
  for p in $(grep -lsxz "NPGPU_GPU_CHECK_RUN=$NPGPU_GPU_CHECK_RUN" /proc/[0-9]*/environ | cut -d/ -f3); do
    [ "$p" != $$ ] && kill "$p" 2>/dev/null
  done
}
archive() {
  [ -n "${ARCHIVE:-}" ] || return 0
  tar czf "$ARCHIVE.tmp" -C "$(dirname "$OUT_DIR")" "$(basename "$OUT_DIR")" 2>/dev/null && mv -f "$ARCHIVE.tmp" "$ARCHIVE"
}
trap 'stop_started; archive' EXIT
if [ -n "${ARCHIVE:-}" ]; then
  (while sleep "${ARCHIVE_EVERY:-30}"; do archive; done) &
fi
trap 'exit 143' TERM
trap 'exit 130' INT

if compgen -G ".whl/*.whl" >/dev/null; then
  "$PY" -m pip install -q --no-index --no-deps --no-compile --upgrade --target /tmp/npgpu-site .whl/*.whl \
    >"$OUT_DIR/whl-install.log" 2>&1
  export PYTHONPATH="/tmp/npgpu-site${PYTHONPATH:+:$PYTHONPATH}"
fi

PHASES=" ${PHASES:-build tests sanitizer conformance demo bench} "
phase() { [[ "$PHASES" == *" $1 "* ]]; }

say "gpu: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1)"
# Every GPU of the machine takes a share of the test files and the sanitizer's tools.
NGPU=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
[ "$NGPU" -ge 1 ] || NGPU=1
ALL_GPUS=$(seq -s, 0 $((NGPU - 1)))

t0=$(date +%s)
if phase build && [ -n "${WHEEL:-}" ]; then
  # A wheel built elsewhere for this machine's Python (scripts/build-device-wheel.sh) instead of a build here.
  # shellcheck disable=SC2086
  if ! "$PY" -m pip install --no-deps --no-index --force-reinstall -v $WHEEL >"$OUT_DIR/build.log" 2>&1; then
    say "wheel install: FAILED (see build.log)"; tail -40 "$OUT_DIR/build.log"; cat "$SUMMARY"; exit 1
  fi
  say "build: installed $(basename $WHEEL) ($(( $(date +%s) - t0 )) s)"
elif phase build; then
  if ! "$PY" -m pip install --no-build-isolation --no-deps -v . >"$OUT_DIR/build.log" 2>&1; then
    say "build: FAILED (see build.log)"; tail -40 "$OUT_DIR/build.log"; cat "$SUMMARY"; exit 1
  fi
  say "build: ok ($(( $(date +%s) - t0 )) s, architectures $NPGPU_CUDA_ARCHITECTURES)"
fi

cd /tmp  # import the installed package, not the source tree
"$PY" -m npgpu info >"$OUT_DIR/info.log" 2>&1
say "import time: $("$PY" -c 'import time; t=time.perf_counter(); import npgpu; print(f"{time.perf_counter()-t:.3f} s")')"

rc_tests=0
# Totals of the outcome counts on pytest's last lines ("3 passed, 1 skipped in 2.0s", after the tool's
# summary and " / " on the sanitizer's lines), summed over files.
SUM_COUNTS='import collections, re, sys
c = collections.Counter()
for line in open(sys.argv[1]):
    for n, k in re.findall(r"(\d+) (passed|failed|skipped|errors?|xfailed|xpassed|deselected)", line.rsplit(" / ", 1)[-1]):
        c["error" if k.startswith("error") else k] += int(n)
print(", ".join(f"{n} {k}" for k, n in sorted(c.items())))'
if phase tests; then
  # The property-based differential tests draw TEST_EXAMPLES examples each here (default 200), against the
  # 25 of a plain pytest run such as CI's.
  export NPGPU_HYPOTHESIS_EXAMPLES="${TEST_EXAMPLES:-200}"
  # The stream soak of test_reliability (16 threads on streams of their own and one shared) runs SOAK_SECONDS.
  export NPGPU_RELIABILITY_SOAK_SECONDS="${SOAK_SECONDS:-60}"
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
    # The whole suite, one pytest process and log per file, TEST_JOBS files at a time spread over the GPUs
    # (each process sees one GPU; files that ask for device_count() see them all).
    run_test_file() {  # test file, pass ("shared" or "alone"); $SLOT: xargs' process slot
      local name gpu m="not slow and not alone" sfx=""
      [ "$2" = alone ] && m="slow or alone" sfx="-alone"
      name=$(basename "$1" .py)$sfx
      gpu=$(( SLOT % NGPU ))
      grep -q 'device_count()' "$1" && gpu=$ALL_GPUS
      # shellcheck disable=SC2086
      CUDA_VISIBLE_DEVICES=$gpu NPGPU_BACKEND=cuda "$PY" -m pytest "$1" -q -rfEs -p no:cacheprovider -m "$m" \
        ${PYTEST_ARGS:-} >"$OUT_DIR/tests-$name.log" 2>&1
      local r=$?
      [ $r -eq 5 ] && r=0  # every test of the file deselected
      echo "$r $name: $(tail -1 "$OUT_DIR/tests-$name.log")"
    }
    export -f run_test_file; export OUT_DIR PY NGPU ALL_GPUS
    t1=$(date +%s)
    # The tests that need a GPU's memory to themselves (marked slow or alone) run after the others, one process
    # a GPU; those of files that see every GPU run last, one process at a time, since they use GPU 0 too.
    alone_files=$(grep -lE '@pytest.mark.(slow|alone)|pytestmark.*(slow|alone)' "$SRC"/tests/test_*.py)
    # shellcheck disable=SC2012,SC2086
    # TEST_PASSES (default "shared alone") runs one pass alone, so a machine lent for 10 minutes a call can run
    # the phase in two calls.
    passes=" ${TEST_PASSES:-shared alone} "
    { if [[ "$passes" == *" shared "* ]]; then
        ls "$SRC"/tests/test_*.py | xargs -P "${TEST_JOBS:-$((3 * NGPU))}" --process-slot-var=SLOT -I{} \
          bash -c 'run_test_file {} shared'
      fi
      if [[ "$passes" == *" alone "* ]]; then
        grep -L 'device_count()' $alone_files |
          xargs -r -P "$NGPU" --process-slot-var=SLOT -I{} bash -c 'run_test_file {} alone'
        grep -l 'device_count()' $alone_files |
          xargs -r -P 1 --process-slot-var=SLOT -I{} bash -c 'run_test_file {} alone'
      fi; } >"$OUT_DIR/tests.txt"
    bad=$(grep -cv '^0 ' "$OUT_DIR/tests.txt")
    [ "$bad" -ne 0 ] && rc_tests=1
    say "tests (CUDA backend, $(wc -l <"$OUT_DIR/tests.txt") files on $NGPU GPU(s), $(( $(date +%s) - t1 )) s): $bad files failed;" \
      "$("$PY" -c "$SUM_COUNTS" "$OUT_DIR/tests.txt")"
    grep -v '^0 ' "$OUT_DIR/tests.txt" | cut -c1-300 >>"$SUMMARY"
    for name in $(grep -v '^0 ' "$OUT_DIR/tests.txt" | awk '{print $2}' | tr -d :); do
      grep -E '^(E  |FAILED|ERROR)' "$OUT_DIR/tests-$name.log" | cut -c1-300 | head -"${FAIL_LINES:-40}" >>"$SUMMARY"
    done
  fi
fi

rc_san=0
if phase sanitizer; then
  # compute-sanitizer over the GPU tests of every test file (SAN_TESTS narrows it); test_interop is left out
  # (it runs CuPy's and PyTorch's kernels, not ours). Every test function runs, with SAN_PARAMS (default 1) of
  # its parametrizations spread from first to last (tests/conftest.py's --params-per-test; 0: all of them):
  # the tests phase runs every parametrization without a tool.
  # Each tool runs the whole list as SAN_SHARDS pytest processes (--shard K/N deals the tests round-robin,
  # tests/conftest.py), SAN_JOBS at a time: one process per file paid the tool's start, CUDA's and pytest's
  # about 300 times, more than half of the phase's time (docs/reliability.md).
  SAN_TESTS=${SAN_TESTS:-$(cd "$SRC/tests" && ls test_*.py | grep -v -e '^test_interop.py$')}
  SAN_TESTS=$(for t in $SAN_TESTS; do case "$t" in /*) echo "$t" ;; tests/*) echo "$SRC/$t" ;; *) echo "$SRC/tests/$t" ;; esac; done)
  # Tests that drive the GPU from several threads (marker "threads") stalled beside other sanitized processes:
  # they run in a second pass, one process at a time on each GPU, with a shorter timeout and 2 threads.
  # SAN_PASSES (default "main threads") runs one pass alone, e.g. SAN_PASSES=threads.
  # shellcheck disable=SC2086
  THREAD_TESTS=$(grep -l '@pytest.mark.threads' $SAN_TESTS)
  export SAN_TESTS THREAD_TESTS
  # Deselected: the tests marked alone (out-of-memory, pool-trim and leak tests), whose bounds on reserved memory
  # assume the pool's own chunking (memcheck pads every allocation, so the pool lays blocks out differently).
  # --report-api-errors no: looking up a run-time kernel's parameter count asks for one past the last
  # parameter, an API "error" by design (see rtc.cpp); memory errors are still reported.
  # racecheck instruments only npgpu's kernels (SAN_RACECHECK_KERNELS, a --kernel-name filter; empty: every
  # kernel): it checks shared memory, and the NVIDIA libraries' kernels (cuFFT, cuSOLVER, cuSPARSE) made it
  # the slowest tool by far, with their reports only listed anyway. initcheck cannot take that filter: memory
  # written by a kernel it does not instrument stays "uninitialized" to it, so every read of a cuBLAS, cuFFT
  # or CUB result by npgpu's own kernels was reported (4016 such reports in one part, docs/reliability.md).
  san_one() {  # tool, part: "K/N" (shard K of N of the main pass), "threads" or "threads-reliability"
    local files="$SAN_TESTS" shard="" name m="gpu and not slow and not alone and not fault and not threads"
    local limit="${SAN_TIMEOUT:-900}" threads=4 ordering=on
    case "$2" in
      threads*) files=$(printf '%s\n' $THREAD_TESTS | grep -v '/test_reliability.py$') name="$2"
        m="gpu and not slow and not alone and not fault and threads" limit="${SAN_THREADS_TIMEOUT:-300}" threads=2 ;;
      *) shard="$2" name="shard${2%/*}" ;;
    esac
    # The concurrency tests' threads, iterations and repeats are cut: a sanitizer checks each call, and at the
    # default budget the 8-thread tests run past any timeout (every launch is serialised and instrumented).
    # The thread pass runs every multi-thread test with 2 threads (tests/_threads.py): with 4 or more, the
    # tool and the driver stall each other (docs/reliability.md).
    if [ "$2" = threads-reliability ]; then
      files=$(printf '%s\n' $THREAD_TESTS | grep '/test_reliability.py$')
      # Its mixed families deadlock inside the tool with threads ordered (runtime.cpp): one thread waits in the
      # tool's launch hook while another waits for the context lock that the legacy-stream event record needs
      # (stacks unchanged for 270 s, every tool). Its threads share no arrays.
      ordering=off
    fi
    # Under initcheck two threads deadlock too, inside the tool's and the driver's locks (test_reliability's in
    # a cuFFT launch and cuMemAllocAsync; test_threads' in cuEventRecord), so initcheck, which looks for reads
    # of unwritten memory rather than races, runs the thread tests' work from one thread.
    case "$2" in threads*) [ "$1" = initcheck ] && threads=1 ;; esac
    # Tests marked heavy (large solves, long sorts, many transforms or staged copies) made the tools' longest
    # parts; their kernels run under every tool through lighter tests, so only SAN_HEAVY_TOOLS' tools run them.
    [[ " ${SAN_HEAVY_TOOLS-memcheck} " == *" $1 "* ]] || m="$m and not heavy"
    [ -n "$files" ] || return 0
    local log="$OUT_DIR/sanitizer-$1-$name.log" filter=() k=""
    [ "$1" = racecheck ] && [ -n "${SAN_RACECHECK_KERNELS-kns=npgpu}" ] &&
      filter=(--kernel-name "${SAN_RACECHECK_KERNELS-kns=npgpu}")
    # synccheck aborts cuBLAS's trsm kernel (a barrier it reports as divergent, reached through
    # cusolverDnXgetrs by solve, inv and negative matrix powers), and the broken context would fail every later
    # test of the process: those tests are left out of synccheck.
    [ "$1" = synccheck ] && k="not (test_linalg.py and (solve or inv or power))"
    local sel="$k${k:+${SAN_K:+ and }}${SAN_K:-}"
    # Shortly before the timeout, py-spy (carried in .whl/) takes the native stacks of the tested process, so a
    # run that stalls says where its threads wait (scripts/sanitizer_triage.py --stall). The tag tells this
    # process from the other runs.
    local stacks="${log%.log}-stacks.txt" spy dog="" tag="$NPGPU_GPU_CHECK_RUN-$1-$name"
    spy=$(command -v py-spy || ls /tmp/npgpu-site/bin/py-spy 2>/dev/null)
    if [ -n "$spy" ] && [ "$limit" -gt 30 ]; then
      (sleep $((limit - 20))
       for p in $(pgrep -f -- "-m pytest "); do
         case "$(cat "/proc/$p/comm" 2>/dev/null)" in python*)
           tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "NPGPU_SAN_TAG=$tag" &&
             "$spy" dump --native --pid "$p" ;;
         esac
       done >"$stacks" 2>&1) </dev/null >/dev/null 2>&1 &
      dog=$!
    fi
    # -v: a report lands beside the name of the test that was running; each test's time follows its outcome.
    # The property-based tests draw SAN_EXAMPLES examples each (default 5, against 25 in the tests phase): under
    # a tool each launch costs milliseconds, and their agreement with NumPy is the tests phase's to show.
    # shellcheck disable=SC2086
    NPGPU_HYPOTHESIS_EXAMPLES=${SAN_EXAMPLES:-5} NPGPU_THREAD_ORDERING=$ordering NPGPU_RELIABILITY_THREADS=$threads NPGPU_TEST_THREADS=$threads NPGPU_RELIABILITY_ITERATIONS=2 \
      NPGPU_RELIABILITY_SOAK_SECONDS=0 NPGPU_RELIABILITY_HANDOFF_N=1048576 NPGPU_RELIABILITY_REPEATS=30 NPGPU_SAN_TAG="$tag" NPGPU_BACKEND=cuda timeout "$limit" compute-sanitizer --tool "$1" --error-exitcode 99 \
      --target-processes all --report-api-errors no --print-limit 100000 "${filter[@]}" \
      "$PY" -m pytest $files -v -o console_output_style=times -p no:cacheprovider -m "$m" ${sel:+-k "$sel"} ${shard:+--shard "$shard"} \
      --params-per-test "${SAN_PARAMS:-1}" >"$log" 2>&1
    local r=$? triage=""
    [ -n "$dog" ] && { pkill -P "$dog" 2>/dev/null; kill "$dog" 2>/dev/null; wait "$dog" 2>/dev/null; }
    [ -s "$stacks" ] || rm -f "$stacks"
    # A timeout stays a failure; the summary says whether the threads waited in npgpu or in the driver/tool.
    [ $r -eq 124 ] && [ -s "$stacks" ] &&
      triage=" [stalled: $("$PY" "$SRC/scripts/sanitizer_triage.py" --stall "$stacks"); $(basename "$stacks")]"
    [ $r -eq 5 ] && r=0  # no GPU test in that part
    # Reports from inside cuBLAS/cuSOLVER/cuSPARSE kernels and copies are listed, not counted as failures
    # (docs/reliability.md); the tests themselves must still pass.
    if [ $r -eq 99 ]; then  # (a run cut off by the timeout stays a failure, whatever it reported)
      triage=$("$PY" "$SRC/scripts/sanitizer_triage.py" "$log") && ! grep -qE '^(FAILED|ERROR) ' "$log" && r=0
      triage=" [$triage]"
    fi
    echo "$r $name: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1)$triage / $(grep -E ' in [0-9.]+s( |$)' "$log" | tail -1 | tr -d =)" \
      >>"$OUT_DIR/sanitizer-$1.txt"
  }
  export -f san_one; export OUT_DIR PY SRC
  read -ra TOOLS <<<"${SAN_TOOLS:-racecheck initcheck memcheck synccheck}"
  # Tool i runs on GPU i mod NGPU. Each GPU runs its tools' parts from one queue, SAN_JOBS processes at once
  # (default: the machine's cores a GPU, at most 8; 16 on one H200 bought nothing, docs/reliability.md), the
  # slowest tools' parts first (SAN_TOOLS' default order: racecheck, then initcheck). Each tool's tests are
  # split into SAN_SHARDS parts (default 8).
  cores=$(nproc)
  jobs=${SAN_JOBS:-$(( cores / NGPU < 8 ? cores / NGPU : 8 ))}
  [ "$jobs" -ge 1 ] || jobs=1
  shards=${SAN_SHARDS:-8}
  t1=$(date +%s)
  # Waits name their jobs: a bare wait would also wait for ARCHIVE's endless loop.
  for tool in "${TOOLS[@]}"; do : >"$OUT_DIR/sanitizer-$tool.txt"; done
  pids=()
  for g in $( [[ " ${SAN_PASSES:-main threads} " == *" main "* ]] && seq 0 $((NGPU - 1))); do
    for i in "${!TOOLS[@]}"; do
      [ $(( i % NGPU )) -eq "$g" ] || continue
      for k in $(seq 0 $((shards - 1))); do echo "${TOOLS[$i]} $k/$shards"; done
    done | CUDA_VISIBLE_DEVICES=$g xargs -P "$jobs" -L1 bash -c 'san_one "$@"' _ &
    pids+=($!)
  done
  [ ${#pids[@]} -eq 0 ] || wait "${pids[@]}"
  # The thread pass runs under the tools in SAN_THREAD_TOOLS (default memcheck) that are also in SAN_TOOLS.
  # racecheck, synccheck and initcheck check each kernel's own shared memory, barriers and reads, which the
  # main pass covers with the same kernels; two threads add nothing for them, and the pass runs alone.
  pids=()
  for g in $( [[ " ${SAN_PASSES:-main threads} " == *" threads "* ]] && seq 0 $((NGPU - 1))); do
    for i in "${!TOOLS[@]}"; do
      [ $(( i % NGPU )) -eq "$g" ] || continue
      [[ " ${SAN_THREAD_TOOLS-memcheck} " == *" ${TOOLS[$i]} "* ]] || continue
      for part in threads threads-reliability; do CUDA_VISIBLE_DEVICES=$g san_one "${TOOLS[$i]}" $part; done
    done &
    pids+=($!)
  done
  [ ${#pids[@]} -eq 0 ] || wait "${pids[@]}"
  say "compute-sanitizer: ${TOOLS[*]} on $NGPU GPU(s), $shards parts each, $jobs processes at a time a GPU ($(( $(date +%s) - t1 )) s)"
  for tool in "${TOOLS[@]}"; do
    bad=$(grep -cv '^0 ' "$OUT_DIR/sanitizer-$tool.txt")
    [ "$bad" -ne 0 ] && rc_san=1
    say "compute-sanitizer $tool over $(wc -l <"$OUT_DIR/sanitizer-$tool.txt") parts: $bad failed;" \
      "$("$PY" -c "$SUM_COUNTS" "$OUT_DIR/sanitizer-$tool.txt")"
    grep -v '^0 ' "$OUT_DIR/sanitizer-$tool.txt" | cut -c1-300 >>"$SUMMARY"
  done
  say "slowest tests under the tools (each shares the GPU with the other processes):"
  "$PY" "$SRC/scripts/sanitizer_triage.py" --slowest "${SAN_SLOWEST:-10}" "$OUT_DIR"/sanitizer-*-*.log | cut -c1-200 >>"$SUMMARY"
  # racecheck on the shared-memory stencil (every boundary and dtype, small fields).
  NPGPU_BACKEND=cuda compute-sanitizer --tool racecheck --error-exitcode 99 "$PY" -c '
import numpy as np, npgpu
rng = np.random.default_rng(0)
for dt in (np.float32, np.float64):
    f = rng.random((131, 197)).astype(dt)
    for b in ("zero", "periodic", "reflect"):
        npgpu.diffusion(f, 9, boundary=b, return_laplacian=True)
        npgpu.laplacian(f, boundary=b)
' >"$OUT_DIR/sanitizer-racecheck-diffusion.log" 2>&1
  r=$?
  [ $r -ne 0 ] && rc_san=$r
  say "compute-sanitizer racecheck (diffusion): rc=$r: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$OUT_DIR/sanitizer-racecheck-diffusion.log" | tail -1)"
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
