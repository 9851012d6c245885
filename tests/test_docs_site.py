"""The documentation site (docs/site) builds with Sphinx, warnings as errors, through scripts/build-docs.sh,
and has its key pages. Skipped where Sphinx, myst-parser or furo is missing (pip install ".[docs]")."""
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

pytest.importorskip("sphinx")
pytest.importorskip("myst_parser")
pytest.importorskip("furo")

ROOT = pathlib.Path(__file__).resolve().parents[1]

KEY_PAGES = [
    "index.html",
    "installation.html",
    "user-guide/index.html",
    "user-guide/vector-add.html",
    "user-guide/ufuncs-vectorize.html",
    "user-guide/monte-carlo-pi.html",
    "user-guide/matmul-reductions.html",
    "user-guide/diffusion.html",
    "user-guide/rtc.html",
    "cpp-api.html",
    "environment.html",
    "performance.html",
    "api/index.html",
    "api/npgpu.html",
    "guides/architecture.html",
    "guides/numpy-differences.html",
]


@pytest.mark.skipif(shutil.which("bash") is None, reason="scripts/build-docs.sh needs bash")
def test_site_builds_without_warnings(tmp_path):
    out = tmp_path / "html"
    env = dict(os.environ, PYTHON=sys.executable)
    proc = subprocess.run(["bash", str(ROOT / "scripts" / "build-docs.sh"), str(out)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    log = f"{proc.stdout[-3000:]}\n{proc.stderr[-6000:]}"
    assert proc.returncode == 0, f"docs build failed (warnings are errors):\n{log}"
    missing = [p for p in KEY_PAGES if not (out / p).is_file()]
    assert not missing, f"pages missing from the built site: {missing}"
    # every generated API reference page (docs/api) has its page on the site
    generated = sorted(p.stem for p in (ROOT / "docs" / "api").glob("npgpu*.md"))
    assert generated and not [m for m in generated if not (out / "api" / f"{m}.html").is_file()], generated
    # The API reference pages hold the generated text (docs/api), not an empty include.
    api = (out / "api" / "npgpu.html").read_text(encoding="utf-8")
    assert "launch_indices" in api and "monte_carlo_pi" in api
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "user-guide/diffusion.html" in index
