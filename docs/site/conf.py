"""Sphinx configuration of npgpu's documentation site: ``scripts/build-docs.sh [OUTDIR]`` builds it.

The site's own pages are in this folder; the guides (docs/*.md) and the generated API reference
(docs/api/*.md, written by scripts/api_reference.py) are pulled in with MyST ``{include}`` directives, so they
stay where they are and are edited (or regenerated) in one place. The build needs no GPU and no network.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
# The package from the source tree when it is not installed (only its version is read here).
sys.path.insert(0, os.path.join(ROOT, "python"))

project = "npgpu"
author = "the npgpu developers"
copyright = "the npgpu developers"
try:
    import npgpu

    release = npgpu.__version__
except ImportError:  # an uninstalled checkout (the compiled core missing): the version from pyproject.toml
    import re

    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        release = re.search(r'^version = "([^"]+)"', f.read(), re.M).group(1)
version = release

extensions = ["myst_parser"]
source_suffix = {".md": "markdown"}
master_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]

myst_enable_extensions = ["colon_fence", "deflist"]
# Anchors for headings down to level 3, so pages can link to sections (#heading-slug).
myst_heading_anchors = 3

html_theme = "furo"
html_title = f"npgpu {release}"
html_static_path = []
html_show_sourcelink = False
# No intersphinx: the build stays offline.
