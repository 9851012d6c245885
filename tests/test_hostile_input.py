"""Hostile and bad input across the whole public API, generated rather than hand-picked (issue 22).

The public API is enumerated programmatically: every callable in ``npgpu.__all__``, ``npgpu.fft.__all__``,
``npgpu.linalg.__all__``, ``npgpu.sparse.__all__`` and ``npgpu.sparse.linalg.__all__``, the sparse formats'
constructors and ``LinearOperator``, ``npgpu.random.default_rng`` and the methods of ``npgpu.random.Generator``
(other classes, modules and constants are skipped). Each function is called with one hostile value at a time in
each positional slot of its signature (the other required slots hold small valid values), and, where the
signature has them, with wrong keyword types (``axis="x"``, ``dtype="nonsense"``, ``out="x"``,
``device="nonsense"``), a read-only ``out=`` and an ``out=`` that aliases or overlaps the input. The other
slots hold NumPy arrays; the "@Array" kinds repeat the keyword attacks and some positional ones with
npgpu.Arrays on the host device there instead (and, where a GPU is present, put an Array on the GPU among
them: "other_device@Array"; this kind is absent on a machine without one).

The contract: each call returns, or raises TypeError, ValueError, IndexError, OverflowError,
NotImplementedError, numpy.exceptions.AxisError or numpy.linalg.LinAlgError (subclasses included) with a
non-empty message. Besides those: ``MemoryError`` only for the inputs that ask for something genuinely huge
(``HUGE_KINDS``); ``ZeroDivisionError`` and ``RuntimeError`` only where NumPy's function of the same name
raises that type for the same arguments; ``npgpu.GPUUnavailableError`` only where the call asks for a device
(a ``device`` argument) or the function needs a GPU (``NEEDS_GPU``); ``BufferError`` only from
``from_dlpack`` (the DLPack protocol's error). Never a crash, a hang, ``SystemError``, ``AttributeError``,
``KeyError``, ``RecursionError`` or any other type.

The sweep runs in a child process (``python tests/test_hostile_input.py --sweep CASES RESULTS START``),
one JSON line per call, flushed, preceded by a "begin" line: a call that kills the process (a segfault) or hangs
(``faulthandler.dump_traceback_later`` exits the child after ``CALL_TIMEOUT_S``) is reported with its
function and input, and the parent resumes the sweep after it. The table of outcomes (function x input kind)
is written to the file named by ``NPGPU_HOSTILE_REPORT`` when that is set.

Violations whose source is in compiled code (pyx/, csrc/) or in modules another change owned when this test
was written (python/npgpu/random.py, python/npgpu/_ufuncs.py) are listed in ``KNOWN_VIOLATIONS``; the test
asserts that the violations found are exactly those, so fixing one means removing it from the list.
"""
import faulthandler
import inspect
import json
import os
import subprocess
import sys
import time
import traceback
import warnings

import numpy as np
import pytest

CALL_TIMEOUT_S = 10
KNOWN_HANG_TIMEOUT_S = 2  # a listed hang is still run (to notice its fix) but costs less

# Functions that need a GPU whatever their arguments: GPUUnavailableError is their documented answer here.
NEEDS_GPU = {
    "npgpu.empty_pinned",  # pinned host memory is allocated through the CUDA driver
    "npgpu.trim_memory_pool",  # trims the device memory pool: resolves the (GPU) device first
}

# Functions not swept, each with its reason.
EXCLUDED = {
    "npgpu.get_cmake_dir": "takes no arguments and returns a path",
    "npgpu.get_include": "takes no arguments and returns a path",
    "npgpu.get_library_dir": "takes no arguments and returns a path",
    "npgpu.__array_namespace_info__": "takes no arguments",
}

# (function, slot, input kind) -> outcome (exception type name, "hang" or "crash"), for violations whose
# source this test's author may not edit. Must equal what the sweep finds.
KNOWN_VIOLATIONS = {
}


# ----------------------------------------------------------------------------------------------------------
# The sweep (runs in the child process)
# ----------------------------------------------------------------------------------------------------------

def _arr():
    return np.arange(1.0, 5.0).reshape(2, 2)


def _readonly():
    a = np.ones((2, 2))
    a.flags.writeable = False
    return a


# Hostile values for positional slots: kind -> factory (a fresh value per call).
POSITIONAL_KINDS = {
    "None": lambda: None,
    "str": lambda: "str",
    "bytes": lambda: b"bytes",
    "object": lambda: object(),
    "object_array": lambda: np.array([1, "a"], dtype=object),
    "ragged_list": lambda: [[1], [1, 2]],
    "nan": lambda: float("nan"),
    "inf": lambda: float("inf"),
    "empty": lambda: np.empty(0),
    "0d": lambda: np.array(1.5),
    "huge_shape": lambda: (2**40, 2**40),
    "huge_int": lambda: 2**64,
    "neg_int": lambda: -1,
    "neg_shape": lambda: (3, -2),
    "npgpu_empty": lambda: __import__("npgpu").asarray(np.empty((0, 3))),
}

# Inputs whose request is genuinely huge: MemoryError is an acceptable answer to them. b"bytes" is one
# where a shape is read from it: a sequence of ints, (98, 121, 116, 101, 115), 1.3e10 elements (NumPy reads
# it so too and raises MemoryError).
HUGE_KINDS = {"huge_shape", "huge_int", "bytes"}


# Positional kinds also tried with npgpu.Arrays (host device) in the other slots: the "@Array" variant.
ARRAY_VARIANT_KINDS = ("None", "object", "object_array", "ragged_list", "nan", "empty", "0d", "neg_int",
                       "npgpu_empty")


def _other_device_array():
    """An npgpu.Array on a GPU, for the "@Array" variant (whose other arrays are on the host device): only
    where a GPU is present (this kind is not generated otherwise)."""
    import npgpu

    return npgpu.asarray(np.ones((2, 2)), device=0)


def _positional_kinds():
    """Hostile positional kinds: name -> (factory, with npgpu.Arrays in the other slots?)."""
    import npgpu

    kinds = {k: (f, False) for k, f in POSITIONAL_KINDS.items()}
    kinds.update({f"{k}@Array": (POSITIONAL_KINDS[k], True) for k in ARRAY_VARIANT_KINDS})
    if npgpu.device_count() > 0:
        kinds["other_device@Array"] = (_other_device_array, True)
    return kinds


def _readonly_array():
    import npgpu

    return npgpu.broadcast_to(npgpu.asarray(1.0), (2, 2))  # a read-only view


def _all_kw_kinds():
    """Keyword kinds: name -> (keyword, factory or None, with npgpu.Arrays?)."""
    kinds = {k: (kw, f, False) for k, (kw, f) in _kw_kinds().items()}
    for k, (kw, f) in _kw_kinds().items():
        kinds[f"{k}@Array"] = (kw, _readonly_array if k == "out=readonly" else f, True)
    return kinds


def _kw_kinds():
    return {
        "axis=str": ("axis", lambda: "x"),
        "dtype=nonsense": ("dtype", lambda: "nonsense"),
        "out=str": ("out", lambda: "x"),
        "out=readonly": ("out", _readonly),
        "out=alias_input": ("out", None),  # filled with the first array argument itself
        "out=overlap_input": ("out", None),  # a reversed view of the first array argument
        "device=nonsense": ("device", lambda: "nonsense"),
    }




def _on_array(v):
    """`v` with its NumPy arrays (also inside a list) as npgpu.Arrays on the host device."""
    import npgpu

    if isinstance(v, np.ndarray):
        return npgpu.asarray(v)
    if isinstance(v, list):
        return [_on_array(x) for x in v]
    return v


def _benign(name, on_array=False):
    """A small valid value for a required parameter called `name` (other than the one under attack), with
    its arrays as npgpu.Arrays when `on_array`."""
    v = _benign_numpy(name)
    return _on_array(v) if on_array else v


def _benign_numpy(name):
    if name in ("shape", "size"):
        return (2, 3)
    if name in ("shapes",):
        return (2, 3)
    if name in ("n", "n_rows", "num", "steps", "repeats", "indices_or_sections", "minlength"):
        return 2
    if name in ("slot_bytes",):
        return 1 << 20
    if name in ("slots",):
        return 2
    if name in ("kth", "shift", "pad_width", "reps"):
        return 1
    if name in ("axis", "source", "axis1"):
        return 0
    if name in ("destination", "axis2"):
        return 1
    if name in ("axes",):
        return (1, 0)
    if name in ("dtype", "type", "from_", "to"):
        return np.float64
    if name == "kind":
        return "real floating"
    if name in ("fill_value", "alpha", "start", "stop", "q"):
        return 0.5
    if name in ("grid", "block"):
        return (1,)
    if name in ("arrays", "tup", "keys", "choices", "arys", "operands", "arrays_and_dtypes"):
        return [_arr(), _arr()]
    if name in ("indices", "ind"):
        return np.zeros((2, 2), dtype=np.intp)
    if name == "condition":
        return np.array([[True, False], [False, True]])
    if name in ("xp", "fp"):
        return np.array([1.0, 2.0, 3.0])
    return _arr()


def enumerate_targets():
    """[(qualified name, callable)] of the public API, sorted by name."""
    import npgpu
    import npgpu.fft
    import npgpu.linalg
    import npgpu.polynomial
    import npgpu.random
    import npgpu.sparse
    import npgpu.sparse.linalg

    targets = {}
    poly = npgpu.polynomial
    for mod, prefix in ((npgpu, "npgpu"), (npgpu.fft, "npgpu.fft"), (npgpu.linalg, "npgpu.linalg"),
                        (npgpu.sparse, "npgpu.sparse"), (npgpu.sparse.linalg, "npgpu.sparse.linalg"),
                        *[(getattr(poly, m), f"npgpu.polynomial.{m}") for m in ("polynomial", "chebyshev", "legendre",
                                                                                "laguerre", "hermite", "hermite_e")]):
        names = getattr(mod, "__all__", None) or [n for n in dir(mod) if not n.startswith("_")]
        for name in names:
            obj = getattr(mod, name, None)
            if obj is None or inspect.isclass(obj) or inspect.ismodule(obj) or not callable(obj):
                continue
            targets[f"{prefix}.{name}"] = obj
    # the sparse formats' constructors are their entry points (other classes are skipped)
    for name in ("csr_matrix", "csc_matrix", "coo_matrix", "csr_array", "csc_array", "coo_array"):
        targets[f"npgpu.sparse.{name}"] = getattr(npgpu.sparse, name)
    targets["npgpu.sparse.linalg.LinearOperator"] = npgpu.sparse.linalg.LinearOperator
    targets["npgpu.random.default_rng"] = npgpu.random.default_rng
    targets["npgpu.random.monte_carlo_pi"] = npgpu.random.monte_carlo_pi
    rng = npgpu.random.default_rng(0)
    for name in dir(npgpu.random.Generator):
        if name.startswith("_") or isinstance(getattr(npgpu.random.Generator, name), property):
            continue
        targets[f"npgpu.random.Generator.{name}"] = getattr(rng, name)
    return sorted((k, v) for k, v in targets.items() if k not in EXCLUDED)


def _params(fn):
    """(positional parameters [(name, default or _EMPTY, is_var)], keyword names) or (None, None)."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None, None
    pos, kws = [], set()
    for p in sig.parameters.values():
        if p.name.startswith("_"):
            continue
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            pos.append((p.name, p.default, False))
        elif p.kind == p.VAR_POSITIONAL:
            pos.append((p.name, p.empty, True))
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            kws.add(p.name)
    return pos, kws


def _required_args(pos, upto, on_array):
    """Valid positional arguments for slots [0, upto) (defaults where a slot has one)."""
    args = []
    for name, default, is_var in pos[:upto]:
        if is_var:
            break
        args.append(_benign(name, on_array) if default is inspect.Parameter.empty else default)
    return args


def _fill_required(pos, on_array):
    """Valid arguments for the required positional slots (one for *args)."""
    args = []
    for name, default, is_var in pos:
        if is_var:
            args.append(_benign(name, on_array))
            break
        if default is not inspect.Parameter.empty:
            break
        args.append(_benign(name, on_array))
    return args


def build_cases():
    """[(function name, input kind, slot description)] in a fixed order; arguments are built per call."""
    cases = []
    for fname, fn in enumerate_targets():
        pos, kws = _params(fn)
        if pos is None:  # no signature: one, two and three positional arguments
            for nargs in (1, 2, 3):
                for kind in _positional_kinds():
                    cases.append((fname, kind, f"arg{nargs - 1}of{nargs}"))
            continue
        for name, _default, _is_var in pos:
            if name == "stream":
                continue
            for kind in _positional_kinds():
                cases.append((fname, kind, name))
        for kind, (kw, _factory, _on) in _all_kw_kinds().items():
            if kw in kws:
                cases.append((fname, kind, kw))
    return cases


def make_call(fname, kind, slot, targets):
    """(callable, args, kwargs) for one case."""
    fn = targets[fname]
    pos, _kws = _params(fn)
    if pos is None:
        factory, on_array = _positional_kinds()[kind]
        nargs = int(slot.split("of")[1])
        args = [_benign("x", on_array) for _ in range(nargs)]
        args[int(slot[3:].split("of")[0])] = factory()
        return fn, args, {}
    import npgpu

    positional = _positional_kinds()
    if kind in positional:
        factory, on_array = positional[kind]
        i = [p[0] for p in pos].index(slot)
        args = _required_args(pos, i, on_array) + [factory()]
        if not pos[i][2]:
            # Fill required slots after the attacked one.
            for name, default, is_var in pos[i + 1:]:
                if is_var:
                    break
                if default is not inspect.Parameter.empty:
                    break
                args.append(_benign(name, on_array))
        return fn, args, {}
    kw, factory, on_array = _all_kw_kinds()[kind]
    args = _fill_required(pos, on_array)
    if factory is None:
        first = next((a for a in args if isinstance(a, (np.ndarray, npgpu.Array))), None)
        if first is None:
            first = _benign("x", on_array)
        value = first if kind.startswith("out=alias_input") else first[::-1]
    else:
        value = factory()
    return fn, args, {kw: value}


def _numpy_counterpart(fname):
    parts = fname.split(".")
    if parts[1] == "fft":
        return getattr(np.fft, parts[2], None)
    if parts[1] == "linalg":
        return getattr(np.linalg, parts[2], None)
    if parts[1] == "random":
        if parts[2] == "Generator":
            return getattr(np.random.default_rng(0), parts[3], None)
        return getattr(np.random, parts[2], None)
    return getattr(np, parts[1], None)


def _top_frame(tb):
    frames = traceback.extract_tb(tb)
    if not frames:
        return ""
    f = frames[-1]
    path = f.filename
    for marker in ("/python/npgpu/", "/pyx/", "/site-packages/", "/csrc/"):
        if marker in path:
            path = path[path.index(marker) + 1:]
            break
    return f"{path}:{f.lineno} in {f.name}"


def _numpy_raises(fname, exc_type, args, kwargs):
    """Whether NumPy's function of the same name raises `exc_type` for the same arguments."""
    import npgpu

    ref = _numpy_counterpart(fname)
    if ref is None:
        return False

    def host(v):
        return v.get() if isinstance(v, npgpu.Array) else v

    try:
        ref(*[host(a) for a in args], **{k: host(v) for k, v in kwargs.items()})
    except exc_type:
        return True
    except Exception:
        return False
    return False


FILE_FUNCTIONS = {f"npgpu.{n}" for n in ("save", "load", "savez", "savez_compressed", "savetxt", "loadtxt",
                                          "genfromtxt", "fromfile", "fromregex")}


def classify(fname, kind, slot, exc, args, kwargs):
    """'ok' where the exception is allowed, else the reason it is a violation."""
    import npgpu

    allowed = (TypeError, ValueError, IndexError, OverflowError, NotImplementedError,
               np.exceptions.AxisError, np.linalg.LinAlgError)
    if isinstance(exc, allowed):
        pass
    elif isinstance(exc, MemoryError):
        if kind not in HUGE_KINDS:
            return "MemoryError for a request that is not huge"
    elif isinstance(exc, npgpu.GPUUnavailableError):
        if slot != "device" and kind != "device=nonsense@Array" and fname not in NEEDS_GPU:
            return "GPUUnavailableError from a call that asks for no GPU"
    elif isinstance(exc, BufferError):
        if fname != "npgpu.from_dlpack":
            return "BufferError outside from_dlpack"
    elif isinstance(exc, OSError):  # a hostile path given to a file reader or writer, as NumPy's
        if fname not in FILE_FUNCTIONS:
            return "OSError outside the file functions"
    elif isinstance(exc, (ZeroDivisionError, RuntimeError)) and type(exc) in (ZeroDivisionError, RuntimeError):
        if not _numpy_raises(fname, type(exc), args, kwargs):
            return f"{type(exc).__name__} where NumPy raises none"
    else:
        return "disallowed exception type"
    if not str(exc).strip():
        return "empty message"
    return "ok"


def run_sweep(cases_json, results_path, start):
    import npgpu

    warnings.simplefilter("ignore")
    np.seterr(all="ignore")
    targets = dict(enumerate_targets())
    cases = [tuple(c) for c in json.loads(cases_json)]
    staging = npgpu.staging_config()
    with open(results_path, "a") as out:
        for idx in range(start, len(cases)):
            fname, kind, slot = cases[idx]
            try:
                fn, args, kwargs = make_call(fname, kind, slot, targets)
            except Exception as exc:  # a bug in this test, not in npgpu
                raise RuntimeError(f"building {cases[idx]}") from exc
            out.write(json.dumps({"begin": idx}) + "\n")
            out.flush()
            known_hang = KNOWN_VIOLATIONS.get((fname, slot, kind)) == "hang"
            faulthandler.dump_traceback_later(KNOWN_HANG_TIMEOUT_S if known_hang else CALL_TIMEOUT_S, exit=True)
            t0 = time.perf_counter()
            try:
                fn(*args, **kwargs)
            except BaseException as exc:  # noqa: B036 - everything is recorded and judged
                if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                    raise
                verdict = classify(fname, kind, slot, exc, args, kwargs)
                faulthandler.cancel_dump_traceback_later()
                rec = {"i": idx, "outcome": type(exc).__name__, "verdict": verdict,
                       "message": str(exc)[:200], "frame": _top_frame(exc.__traceback__)}
            else:
                faulthandler.cancel_dump_traceback_later()
                rec = {"i": idx, "outcome": "returned", "verdict": "ok"}
            rec["s"] = round(time.perf_counter() - t0, 4)
            if fname == "npgpu.set_staging_config":
                npgpu.set_staging_config(*staging)
            out.write(json.dumps(rec) + "\n")
            out.flush()


# ----------------------------------------------------------------------------------------------------------
# The parent: runs the sweep in child processes, resuming after a crash or a hang
# ----------------------------------------------------------------------------------------------------------

def sweep_in_subprocess(tmp_path):
    cases = build_cases()  # built once here: every child (restarted after a crash) sweeps this same list
    cases_path = str(tmp_path / "cases.json")
    with open(cases_path, "w") as f:
        json.dump(cases, f)
    results_path = str(tmp_path / "hostile.jsonl")
    records = {}
    start = 0
    restarts = 0
    env = dict(os.environ, PYTHONFAULTHANDLER="1")
    while start < len(cases):
        # In the temporary folder: writers (save, savetxt...) given a hostile name write there.
        proc = subprocess.run([sys.executable, __file__, "--sweep", cases_path, results_path, str(start)],
                              capture_output=True, text=True, env=env, timeout=600, cwd=tmp_path)
        begun = None
        with open(results_path) as f:
            for line in f:
                rec = json.loads(line)
                if "begin" in rec:
                    begun = rec["begin"]
                else:
                    records[rec["i"]] = rec
        if proc.returncode == 0:
            break
        if begun is None or begun in records:
            raise AssertionError(f"sweep child failed outside a call (rc {proc.returncode}):\n{proc.stderr[-4000:]}")
        hang = "Timeout (" in proc.stderr
        if hang and cases[begun][1] in HUGE_KINDS:
            # A genuinely huge request that the machine can hold (b"bytes" as a shape is 105 GB of float64)
            # is still filling memory: slow, as NumPy is, not stuck.
            records[begun] = {"i": begun, "outcome": "slow", "verdict": "ok", "message": "", "frame": ""}
        else:
            records[begun] = {"i": begun, "outcome": "hang" if hang else f"crash (rc {proc.returncode})",
                              "verdict": "hang" if hang else "crash", "message": proc.stderr[-2000:], "frame": ""}
        start = begun + 1
        restarts += 1
        assert restarts <= 50, "too many crashes or hangs; stopping"
    return cases, records


def write_report(path, cases, records):
    from collections import Counter, defaultdict

    kinds = list(_positional_kinds()) + list(_all_kw_kinds())
    table = defaultdict(dict)
    for idx, (fname, kind, _slot) in enumerate(cases):
        rec = records[idx]
        cell = rec["outcome"] if rec["verdict"] == "ok" else f"!{rec['outcome']}"
        prev = table[fname].get(kind)
        table[fname][kind] = cell if prev in (None, cell) else f"{prev}|{cell}"
    counts = Counter(r["outcome"] for r in records.values())
    lines = [f"# npgpu hostile-input sweep: {len(table)} functions, {len(cases)} calls", "",
             "Outcomes: " + ", ".join(f"{k} {v}" for k, v in counts.most_common()), "",
             "Cells: what each (function, input kind) call did, over every slot it was tried in "
             "('returned', the exception type, or '!' before a violation; '-' not applicable).", "",
             "| function | " + " | ".join(kinds) + " |", "|---" * (len(kinds) + 1) + "|"]
    for fname in sorted(table):
        lines.append(f"| {fname} | " + " | ".join(table[fname].get(k, "-") for k in kinds) + " |")
    bad = [(cases[i], r) for i, r in sorted(records.items()) if r["verdict"] != "ok"]
    if bad:
        lines += ["", "## Violations", ""]
        for (fname, kind, slot), r in bad:
            lines.append(f"- {fname} [{slot}={kind}]: {r['outcome']} ({r['verdict']}): "
                         f"{r.get('message', '')[:160]!r} at {r.get('frame', '')}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


# alone: on a GPU the sweep's genuinely huge requests (105 GB for b"bytes" as a shape) can fill the device,
# starving test processes beside it of memory.
@pytest.mark.alone
def test_hostile_input_across_public_api(tmp_path):
    t0 = time.perf_counter()
    cases, records = sweep_in_subprocess(tmp_path)
    assert len(records) == len(cases)
    report = os.environ.get("NPGPU_HOSTILE_REPORT")
    if report:
        write_report(report, cases, records)
    found, details = {}, {}
    for idx, rec in sorted(records.items()):
        if rec["verdict"] == "ok":
            continue
        fname, kind, slot = cases[idx]
        outcome = "crash" if rec["verdict"] == "crash" else rec["outcome"]
        found[(fname, slot, kind)] = outcome
        details[(fname, slot, kind)] = (f"{fname}({slot}={kind}): {rec['outcome']} [{rec['verdict']}] "
                                        f"{rec.get('message', '')[:300]!r} at {rec.get('frame', '')}")
    unexpected = sorted(k for k, v in found.items() if KNOWN_VIOLATIONS.get(k) != v)
    crashes = [details[k] for k in unexpected if found[k] == "crash"]
    hangs = [details[k] for k in unexpected if found[k] == "hang"]
    assert not crashes, "crashes:\n" + "\n".join(crashes)
    assert not hangs, "hangs:\n" + "\n".join(hangs)
    assert not unexpected, (f"{len(cases)} calls in {time.perf_counter() - t0:.1f} s; violations not in "
                            "KNOWN_VIOLATIONS:\n" + "\n".join(details[k] for k in unexpected))
    fixed = sorted(k for k in KNOWN_VIOLATIONS if k not in found)
    assert not fixed, f"KNOWN_VIOLATIONS no longer seen (remove them): {fixed}"


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--sweep":
        with open(sys.argv[2]) as f:
            run_sweep(f.read(), sys.argv[3], int(sys.argv[4]))
    else:
        raise SystemExit("usage: test_hostile_input.py --sweep CASES_JSON RESULTS_JSONL START")
