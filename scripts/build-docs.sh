#!/usr/bin/env bash
# Build the documentation site (docs/site: Sphinx + myst-parser + furo) as HTML, warnings as errors.
#   pip install ".[docs]" && scripts/build-docs.sh [OUTDIR]     # OUTDIR defaults to build/docs-html
# Needs no GPU and no network; exits non-zero on any Sphinx warning.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$root/build/docs-html}"
python="${PYTHON:-python}"
exec "$python" -m sphinx -W --keep-going -b html "$root/docs/site" "$out"
