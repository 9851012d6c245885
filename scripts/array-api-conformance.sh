#!/usr/bin/env bash
# Array API conformance: runs the public array-api-tests suite (github.com/data-apis/array-api-tests, with
# its spec submodule data-apis/array-api) against npgpu's namespace, and optionally against array_api_strict
# (the control), at a bounded number of Hypothesis examples.
#
#   scripts/array-api-conformance.sh [--control|--control-only] ARRAY_API_TESTS_DIR [LOGDIR]
#
# ARRAY_API_TESTS_DIR: a checkout of array-api-tests whose array-api/ folder holds the spec (its .gitmodules
#   path) at a revision with the 2024.12 stubs, e.g. the commit the tests pin (see below).
# LOGDIR (default array-api-results/): per run a folder <module>-<device>/ with log.txt (pytest -rfE output),
#   junit.xml, failures.txt (the failing test ids) and summary.txt (one line); LOGDIR/summary.txt holds all
#   runs' lines.
# --control also runs array_api_strict (no xfails file); --control-only runs only it.
#
# Environment (all optional):
#   NPGPU_AAT_MAX_EXAMPLES  Hypothesis examples per test (default 20; the suite's own default is 100)
#   NPGPU_AAT_VERSION       the standard's version tested (default 2024.12; ARRAY_API_TESTS_VERSION)
#   NPGPU_AAT_DEVICES       npgpu devices to test, run as NPGPU_BACKEND=<device> (default: "cuda cpu" where
#                           a GPU is usable, else "cpu")
#   NPGPU_AAT_XFAILS        xfails file for npgpu (default tests/array-api-xfails.txt of this checkout;
#                           "none" for no file)
#   NPGPU_AAT_SEED          Hypothesis seed (default 0, so reruns draw the same examples; "random" for a
#                           fresh draw each run)
#   NPGPU_AAT_SHRINK        1: let Hypothesis shrink and explain failing examples (minimal examples, but a
#                           failing test then costs seconds to minutes); default 0: report the first
#                           failing example as drawn
#   NPGPU_AAT_JOBS          pytest-xdist workers (-n), only used when pytest-xdist is installed (default 1)
#   NPGPU_AAT_TESTS         which tests (default "array_api_tests/"), e.g. "array_api_tests/test_linalg.py"
#   NPGPU_AAT_PYTEST_ARGS   extra pytest arguments, e.g. "-k 'not special_cases'"
#   PYTHON                  the interpreter (default python3)
#
# Exit status: 0 when every run had no unexpected failure (xfailed tests from the xfails file and XPASSes do
# not count), 1 when some run failed unexpectedly (or could not start), 2 on a usage error. The control's
# failures are reported but count only with NPGPU_AAT_CONTROL_GATES=1.
#
# The script installs and fetches nothing. It needs, importable by $PYTHON: npgpu (installed, or built in
# place), pytest, hypothesis (>=6.151), ndindex (>=1.8), pytest-json-report and, for --control,
# array-api-strict. On a machine with network:
#   git clone https://github.com/data-apis/array-api-tests aat && git -C aat submodule update --init
#   pip install -r aat/requirements.txt array-api-strict
# On a GPU machine without network, carry the checkout as a plain folder (git archive of both repositories,
# the spec extracted into aat/array-api/) and, where the machine lacks the pure-Python dependencies, a
# folder made on a networked machine with
#   pip install --target aat/site-packages --no-deps hypothesis sortedcontainers ndindex \
#       pytest-json-report pytest-metadata array-api-strict
# (ndindex has binary wheels: make the folder with the GPU machine's Python version and platform, e.g. pip's
# --python-version/--platform/--only-binary=:all: options, or leave ndindex to the machine.)
# ARRAY_API_TESTS_DIR/site-packages, when present, is put on PYTHONPATH (after the existing entries, so the
# machine's own pytest stays in charge). From the npgpu repository the device runner carries ignored paths,
# so keep aat/ in an ignored folder of the checkout (e.g. build/aat) and pass that path.
set -uo pipefail

usage() { sed -n '2,13p' "$0" >&2; exit 2; }

RUN_NPGPU=1
RUN_CONTROL=0
while [[ $# -gt 0 && "$1" == --* ]]; do
  case "$1" in
    --control) RUN_CONTROL=1 ;;
    --control-only) RUN_CONTROL=1; RUN_NPGPU=0 ;;
    --help|-h) usage ;;
    *) echo "unknown option $1" >&2; usage ;;
  esac
  shift
done
[[ $# -ge 1 && $# -le 2 ]] || usage

REPO="$(cd "$(dirname "$0")/.." && pwd)"
AAT="$(cd "$1" 2>/dev/null && pwd)" || { echo "no such directory: $1" >&2; exit 2; }
if [[ ! -d "$AAT/array_api_tests" || ! -f "$AAT/conftest.py" ]]; then
  echo "$AAT is not an array-api-tests checkout (no array_api_tests/ or conftest.py)" >&2; exit 2
fi
VERSION="${NPGPU_AAT_VERSION:-2024.12}"
STUBS="$AAT/array-api/src/array_api_stubs/_${VERSION//./_}"
if [[ ! -d "$STUBS" ]]; then
  echo "the spec is missing: no $STUBS (put data-apis/array-api at $AAT/array-api)" >&2; exit 2
fi
LOGDIR="$(mkdir -p "${2:-array-api-results}" && cd "${2:-array-api-results}" && pwd)"
PY="${PYTHON:-python3}"
MAX_EXAMPLES="${NPGPU_AAT_MAX_EXAMPLES:-20}"
SEED="${NPGPU_AAT_SEED:-0}"
JOBS="${NPGPU_AAT_JOBS:-1}"
XFAILS="${NPGPU_AAT_XFAILS:-$REPO/tests/array-api-xfails.txt}"
if [[ "$XFAILS" != none && ! -f "$XFAILS" ]]; then echo "no xfails file $XFAILS" >&2; exit 2; fi
export PYTHONUNBUFFERED=1
if [[ -d "$AAT/site-packages" ]]; then
  export PYTHONPATH="${PYTHONPATH:+$PYTHONPATH:}$AAT/site-packages"
fi

SUMMARY="$LOGDIR/summary.txt"
: >"$SUMMARY"

if [[ -z "${NPGPU_AAT_DEVICES:-}" ]]; then
  if (cd /tmp && "$PY" -c 'import sys, npgpu; sys.exit(0 if npgpu.is_available() else 1)') 2>/dev/null; then
    NPGPU_AAT_DEVICES="cuda cpu"
  else
    NPGPU_AAT_DEVICES="cpu"
  fi
fi

FAST_FAILURES='
import sys, pytest
from hypothesis import Phase, settings

class NoShrink:
    @pytest.hookimpl(trylast=True)
    def pytest_configure(self, config):
        parent = settings.get_profile("array-api-tests")
        phases = [p for p in parent.phases if p not in (Phase.shrink, Phase.explain)]
        settings.register_profile("npgpu-aat-no-shrink", parent=parent, phases=phases)
        settings.load_profile("npgpu-aat-no-shrink")

sys.exit(pytest.main(sys.argv[1:], plugins=[NoShrink()]))
'

JUNIT_FAILURES='
import sys, xml.etree.ElementTree as ET
for case in ET.parse(sys.argv[1]).iter("testcase"):
    if case.find("failure") is None and case.find("error") is None:
        continue
    path = case.get("file", "")
    module = path[:-3].replace("/", ".") if path.endswith(".py") else ""
    cls = case.get("classname", "")
    cls = cls[len(module) + 1:] if module and cls.startswith(module + ".") else ""
    print("::".join([path] + ([cls] if cls else []) + [case.get("name")]))
'

# run_suite NAME MODULE GATES XFAILS_FILE [env assignments...]
run_suite() {
  local name="$1" module="$2" gates="$3" xfails="$4"; shift 4
  local dir="$LOGDIR/$name"
  mkdir -p "$dir"
  # shellcheck disable=SC2206
  # --rootdir: test ids relative to the suite (as the xfails file names them) even when the checkout lies
  # inside another project, e.g. build/aat of npgpu's repository
  local args=(${NPGPU_AAT_TESTS:-array_api_tests/} --rootdir "$AAT" -q -rfE -p no:cacheprovider
              --max-examples "$MAX_EXAMPLES" --disable-deadline
              --junitxml "$dir/junit.xml" -o junit_family=xunit1)
  [[ "$SEED" != "random" ]] && args+=(--hypothesis-seed "$SEED")
  [[ -n "$xfails" && "$xfails" != none ]] && args+=(--xfails-file "$xfails")
  if [[ "$JOBS" != 1 ]] && "$PY" -c 'import xdist' 2>/dev/null; then args+=(-n "$JOBS"); fi
  # shellcheck disable=SC2206
  [[ -n "${NPGPU_AAT_PYTEST_ARGS:-}" ]] && eval "args+=(${NPGPU_AAT_PYTEST_ARGS})"
  local runner=(-m pytest)
  if [[ "${NPGPU_AAT_SHRINK:-0}" != 1 ]]; then
    # pytest with a plugin that, after the suite's conftest has loaded its Hypothesis profile, drops the
    # shrink and explain phases from it
    runner=(-c "$FAST_FAILURES")
  fi
  local t0 rc secs
  t0=$(date +%s)
  # The suite imports its conftest and array_api_tests/ from its own folder; Hypothesis keeps its example
  # database in LOGDIR (the suite's folder may be read-only).
  (cd "$AAT" && env "$@" ARRAY_API_TESTS_MODULE="$module" ARRAY_API_TESTS_VERSION="$VERSION" \
     HYPOTHESIS_STORAGE_DIRECTORY="$dir/.hypothesis" "$PY" "${runner[@]}" "${args[@]}") >"$dir/log.txt" 2>&1
  rc=$?
  secs=$(( $(date +%s) - t0 ))
  # failing test ids (the suite's ids hold spaces, so they come from junit.xml rather than the log)
  "$PY" -c "$JUNIT_FAILURES" "$dir/junit.xml" >"$dir/failures.txt" 2>/dev/null || : >"$dir/failures.txt"
  local counts
  counts=$(grep -E '^=*.*(passed|failed|error|skipped|xfailed|no tests ran).* in [0-9.]+s' "$dir/log.txt" | tail -1 \
           | sed -E 's/^=+ //; s/ =+$//')
  [[ -z "$counts" ]] && counts="no result line (pytest rc=$rc; see log.txt)"
  local line="$name ($module, ${*:-default device}, API $VERSION, max-examples $MAX_EXAMPLES, seed $SEED): $counts [rc=$rc, ${secs} s]"
  echo "$line" >"$dir/summary.txt"
  echo "$line" >>"$SUMMARY"
  echo "$line"
  # pytest: 0 all passed/xfailed, 1 some test failed, 5 nothing collected; anything else is a crash.
  if [[ $rc -ne 0 && "$gates" == 1 ]]; then return 1; fi
  return 0
}

status=0
if [[ $RUN_NPGPU == 1 ]]; then
  for dev in $NPGPU_AAT_DEVICES; do
    run_suite "npgpu-$dev" npgpu 1 "$XFAILS" NPGPU_BACKEND="$dev" || status=1
  done
fi
if [[ $RUN_CONTROL == 1 ]]; then
  run_suite "array_api_strict" array_api_strict "${NPGPU_AAT_CONTROL_GATES:-0}" none || status=1
fi
echo "logs: $LOGDIR (exit $status)"
exit $status
