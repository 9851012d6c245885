"""The API reference: every public name of npgpu's public modules has a docstring, and docs/api/ holds what
scripts/api_reference.py writes from them (so the reference stays current)."""
import difflib
import importlib
import importlib.util
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]
API_DIR = ROOT / "docs" / "api"


def _load_script():
    spec = importlib.util.spec_from_file_location("npgpu_api_reference_script", ROOT / "scripts" / "api_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ref = _load_script()

# Public names without a docstring of their own whose code is compiled (pyx/), which this test's change did
# not edit. Give them one there, then take them off this list (the test fails while a listed name has one).
NO_DOCSTRING_YET = {
    # pyx/npgpu/_launch.pyx: a collections.namedtuple; its docstring is the generated
    # "LaunchIndices(thread_idx, block_idx, block_dim, grid_dim)".
    "npgpu.LaunchIndices",
}


def test_every_public_name_has_a_docstring():
    modules = ref.available_modules()
    missing = set()
    for module_name in modules:
        module = importlib.import_module(module_name)
        for name in ref.public_names(module):
            if not ref.docstring(module_name, name, getattr(module, name)).strip():
                missing.add(f"{module_name}.{name}")
    new = sorted(missing - NO_DOCSTRING_YET)
    assert not new, (f"public names without a docstring: {', '.join(new)} (values that cannot carry one, "
                     "such as numbers and strings, are described in scripts/api_reference.py's CONSTANTS)")
    checked = {n for n in NO_DOCSTRING_YET if n.rsplit(".", 1)[0] in modules}
    documented = sorted(checked - missing)
    assert not documented, (f"{', '.join(documented)} now have a docstring: take them off NO_DOCSTRING_YET in "
                            "tests/test_api_reference.py")


def test_committed_pages_are_current(tmp_path):
    ref.write_pages(tmp_path)
    generated = {p.name: p.read_text(encoding="utf-8") for p in sorted(tmp_path.glob("*.md"))}
    committed = {p.name: p.read_text(encoding="utf-8") for p in sorted(API_DIR.glob("*.md"))}
    # Without an optional dependency (dask) its module's page cannot be written here, and the index lists
    # one module fewer: those two are compared where the dependency is installed (CI installs it).
    unavailable = set(ref.MODULES) - set(ref.available_modules())
    if unavailable:
        for name in [f"{m}.md" for m in unavailable] + ["index.md"]:
            generated.pop(name, None)
            committed.pop(name, None)
    stale = sorted(n for n in generated.keys() & committed.keys() if generated[n] != committed[n])
    missing = sorted(generated.keys() - committed.keys())
    extra = sorted(committed.keys() - generated.keys())
    detail = ""
    if stale:
        diff = difflib.unified_diff(committed[stale[0]].splitlines(), generated[stale[0]].splitlines(),
                                    f"docs/api/{stale[0]}", "generated", lineterm="", n=1)
        detail = "\nfirst difference:\n" + "\n".join(list(diff)[:30])
    assert not (stale or missing or extra), (
        f"docs/api/ is not current (differ: {stale}, missing: {missing}, not written any more: {extra}): run "
        f"`python scripts/api_reference.py` and commit docs/api/ (delete pages it no longer writes){detail}")
