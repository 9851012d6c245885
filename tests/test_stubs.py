"""The type stubs (python/npgpu/_*.pyi) against the compiled modules they describe.

Host only, no GPU: every public name a compiled module defines is in its stub, every name the stub declares
exists at run time, and parameter names (and kinds) of functions and methods match wherever Cython exposes a
signature (binding=True). scripts/stubtest.sh runs mypy's stubtest (types, defaults, positional-only
parameters, properties) with scripts/stubtest-allowlist.txt, whose regexes may excuse Cython-generated names only.
"""

import ast
import importlib
import inspect
import pathlib
import types

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "python" / "npgpu"
PYX = pathlib.Path(__file__).resolve().parents[1] / "pyx" / "npgpu"
MODULES = sorted(p.stem for p in PYX.glob("*.pyx")) or sorted(p.stem for p in PACKAGE.glob("_*.pyi"))

# Generic slot wrappers and cdef-class constructors report (self, /, *args, **kwargs): nothing to compare.
_GENERIC = [("args", inspect.Parameter.VAR_POSITIONAL), ("kwargs", inspect.Parameter.VAR_KEYWORD)]


def _stub(name):
    return ast.parse((PACKAGE / f"{name}.pyi").read_text(), filename=f"{name}.pyi")


def _declared(tree):
    """Top-level names a stub declares: {name: node} (functions, classes, annotated or assigned names)."""
    out = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out[node.name] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out[node.target.id] = node
        elif isinstance(node, ast.Assign):
            out.update({t.id: node for t in node.targets if isinstance(t, ast.Name)})
        elif isinstance(node, ast.ImportFrom):  # re-exports: `from x import y as y`
            out.update({a.asname: node for a in node.names if a.asname is not None and a.asname == a.name})
    return out


def _is_alias(node):
    """A stub-only helper: a TypeAlias or a Protocol class (no run-time counterpart)."""
    if isinstance(node, ast.AnnAssign):
        return ast.unparse(node.annotation) in ("TypeAlias", "typing.TypeAlias")
    if isinstance(node, ast.ClassDef):
        return any(ast.unparse(b).endswith("Protocol") for b in node.bases)
    return False


def _defined_here(module, name, obj):
    """Whether `name` is the module's own (not an imported module or an object imported from elsewhere)."""
    if isinstance(obj, types.ModuleType):
        return False
    home = getattr(obj, "__module__", None)
    if isinstance(home, str) and home not in (module.__name__, "npgpu"):
        source = importlib.import_module(home) if home in __import__("sys").modules else None
        if source is not None and getattr(source, name, None) is obj:
            return False
    return True


def _stub_params(fn):
    a = fn.args
    out = [(p.arg, inspect.Parameter.POSITIONAL_ONLY) for p in a.posonlyargs]
    out += [(p.arg, inspect.Parameter.POSITIONAL_OR_KEYWORD) for p in a.args]
    if a.vararg:
        out.append((a.vararg.arg, inspect.Parameter.VAR_POSITIONAL))
    out += [(p.arg, inspect.Parameter.KEYWORD_ONLY) for p in a.kwonlyargs]
    if a.kwarg:
        out.append((a.kwarg.arg, inspect.Parameter.VAR_KEYWORD))
    return out


def _runtime_params(obj):
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    params = [(p.name, p.kind) for p in sig.parameters.values()]
    if params[-2:] == _GENERIC:
        return None
    return params


def _compare(where, stub_fn, runtime_obj, drop_self=False):
    got = _runtime_params(runtime_obj)
    if got is None:
        return []
    want = _stub_params(stub_fn)
    decorators = {ast.unparse(d) for d in stub_fn.decorator_list}
    if drop_self and "staticmethod" not in decorators:
        want, got = want[1:], got[1:] if got and got[0][0] == "self" else got
    if [n for n, _ in want] != [n for n, _ in got]:
        return [f"{where}: stub ({', '.join(n for n, _ in want)}) != run time ({', '.join(n for n, _ in got)})"]
    if [k for _, k in want] != [k for _, k in got]:
        return [f"{where}: parameter kinds differ: stub {want} != run time {got}"]
    return []


def test_every_compiled_module_has_a_stub_and_py_typed():
    assert MODULES, "no compiled modules found"
    missing = [m for m in MODULES if not (PACKAGE / f"{m}.pyi").is_file()]
    assert not missing, f"no stub for {missing}"
    assert (PACKAGE / "py.typed").is_file()


@pytest.mark.parametrize("name", MODULES)
def test_runtime_names_are_stubbed(name):
    module = importlib.import_module(f"npgpu.{name}")
    declared = _declared(_stub(name))
    missing = [n for n, obj in vars(module).items()
               if not n.startswith("_") and _defined_here(module, n, obj) and n not in declared]
    assert not missing, f"npgpu.{name} defines {missing} at run time; {name}.pyi does not declare them"


@pytest.mark.parametrize("name", MODULES)
def test_stubbed_names_exist(name):
    module = importlib.import_module(f"npgpu.{name}")
    absent = []
    for n, node in _declared(_stub(name)).items():
        if n.startswith("_") and _is_alias(node):
            continue
        if n.startswith("_") and isinstance(node, ast.ClassDef) and not hasattr(module, n):
            continue  # a stub-only base class for documentation
        if not hasattr(module, n):
            absent.append(n)
        elif isinstance(node, ast.ClassDef) and not _is_alias(node):
            cls = getattr(module, n)
            absent += [f"{n}.{m.name}" for m in node.body
                       if isinstance(m, ast.FunctionDef) and not hasattr(cls, m.name)]
    assert not absent, f"{name}.pyi declares {absent}, which npgpu.{name} does not have"


@pytest.mark.parametrize("name", MODULES)
def test_parameter_names_match(name):
    module = importlib.import_module(f"npgpu.{name}")
    problems = []
    for n, node in _declared(_stub(name)).items():
        if isinstance(node, ast.FunctionDef) and hasattr(module, n):
            problems += _compare(f"{name}.{n}", node, getattr(module, n))
        elif isinstance(node, ast.ClassDef) and not _is_alias(node) and hasattr(module, n):
            cls = getattr(module, n)
            for m in node.body:
                if not isinstance(m, ast.FunctionDef) or m.name not in vars(cls):
                    continue
                decorators = {ast.unparse(d) for d in m.decorator_list}
                if "property" in decorators or type(vars(cls)[m.name]).__name__ in ("getset_descriptor",
                                                                                      "wrapper_descriptor"):
                    continue
                problems += _compare(f"{name}.{n}.{m.name}", m, getattr(cls, m.name), drop_self=True)
    assert not problems, "\n".join(problems)


ALLOWLIST = pathlib.Path(__file__).resolve().parents[1] / "scripts" / "stubtest-allowlist.txt"
# Names only Cython generates: the doctest dict, the cimport C-API table, the pickling helpers of cdef classes.
_CYTHON_NAMES = {"__test__", "__pyx_capi__", "__reduce_cython__", "__setstate_cython__"}


def _runtime_names():
    """Every name stubtest could report: the compiled modules, their attributes, their classes' attributes."""
    for m in MODULES:
        module = importlib.import_module(f"npgpu.{m}")
        yield module.__name__
        for n, obj in vars(module).items():
            yield f"{module.__name__}.{n}"
            if isinstance(obj, type):
                yield from (f"{module.__name__}.{n}.{a}" for a in dir(obj))


def test_stubtest_allowlist_only_excuses_cython_generated_names():
    """scripts/stubtest.sh's allowlist: every regex under a `#` comment (or in a group under one), and every regex
    matching Cython-generated names only, so no npgpu module, class, function or method is allowlisted away."""
    import re

    lines = [line.strip() for line in ALLOWLIST.read_text().splitlines()]
    names = list(_runtime_names())
    problems = []
    for i, entry in enumerate(lines):
        if not entry or entry.startswith("#"):
            continue
        if i == 0 or not lines[i - 1]:
            problems.append(f"line {i + 1}: no `#` comment above {entry!r}")
        matched = [n for n in names if re.fullmatch(entry, n)]
        if not matched:
            problems.append(f"line {i + 1}: {entry!r} matches nothing (stubtest would call it unused)")
        wide = [n for n in matched if n.rsplit(".", 1)[-1] not in _CYTHON_NAMES]
        if wide:
            problems.append(f"line {i + 1}: {entry!r} also matches {wide[:5]}, not names Cython generates")
    assert not problems, "\n".join(problems)
