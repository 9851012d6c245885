"""npgpu's benchmarks: ``python -m npgpu bench [names...] [--json]``. Each bench_*.py module adds entries to
the registry; each entry returns harness.Result lines (npgpu's figure, anchors measured in the same run,
the target)."""
import importlib
import json
import os
import pkgutil
import sys

_MODULES = sorted(m.name for m in pkgutil.iter_modules(__path__) if m.name.startswith("bench_"))


def registry():
    out = {}
    for mod in _MODULES:
        out.update(importlib.import_module(f"{__name__}.{mod}").BENCHMARKS)
    return out


def host_benchmarks():
    """The benchmarks that need no GPU (the host backend against NumPy)."""
    from .bench_host import HOST

    return HOST


def _run_isolated(name, repeat):
    """One benchmark in a child process: a crash there (an anchor library's, or ours) costs that benchmark
    only, and is reported with its exit status."""
    import os
    import subprocess

    from ._harness import Result, anchors_env

    env = dict(os.environ, NPGPU_BENCH_ANCHORS=anchors_env())
    proc = subprocess.run([sys.executable, "-m", "npgpu", "bench", name, "--json", "--repeat", str(repeat)],
                          capture_output=True, text=True, env=env)
    try:
        doc = json.loads(proc.stdout)
    except ValueError as exc:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        raise RuntimeError(f"benchmark process exited with status {proc.returncode}: {' | '.join(tail)}") from exc
    if doc["errors"]:
        raise RuntimeError("; ".join(e for _, e in doc["errors"]))
    return [Result(r["name"], r["value"], r["unit"], r["target"], r["higher_is_better"], r["anchors"], r["note"])
            for r in doc["results"]]


def _row(r):
    tgt = "" if r.target is None else f"{'>=' if r.higher_is_better else '<='}{r.target:.3g}"
    met = {True: "yes", False: "NO", None: ""}[r.met]
    extras = ", ".join(f"{k} {v}" for k, v in r.anchors.items())
    if r.note:
        extras = f"{extras}; {r.note}" if extras else r.note
    return f"{r.name:58s} {r.value:>9.3f} {r.unit:<3s}{tgt:>10s} {met:>4s}  {extras}"


def main(names=None, as_json=False, repeat=20, isolate=False):
    """Run the named benchmarks (all by default). The table is printed a row at a time, as results come;
    with ``isolate`` each benchmark runs in its own process."""
    import npgpu

    reg = registry()
    unknown = [n for n in names or () if n not in reg]
    if unknown:
        print(f"unknown benchmark(s) {unknown}; known: {sorted(reg)}", file=sys.stderr)
        return 2
    if npgpu.is_available():
        names = names or list(reg)
        device = npgpu.Device(npgpu.get_device_id()).name
    else:
        # Without a GPU only the host backend's benchmarks run (all of them when none are named).
        host = host_benchmarks()
        need_gpu = [n for n in names or () if n not in host]
        if need_gpu:
            print(f"benchmark(s) {need_gpu} need a GPU: {npgpu.unavailable_reason()}; without one these run: "
                  f"{sorted(host)}", file=sys.stderr)
            return 2
        names = names or [n for n in reg if n in host]
        device = f"host backend only (no GPU), {os.cpu_count()} CPUs"
    if not as_json:
        print(f"device: {device}")
        print(f"{'benchmark':58s} {'npgpu':>12s} {'target':>10s} {'met':>4s}  anchors / notes", flush=True)
    results, failed = [], []
    for n in names:
        try:
            rows = _run_isolated(n, repeat) if isolate else reg[n](repeat)
        except Exception as e:  # one broken benchmark must not hide the others
            failed.append((n, repr(e)))
            if not as_json:
                print(f"{n}: FAILED {e!r}", flush=True)
            continue
        results.extend(rows)
        if not as_json:
            for r in rows:
                print(_row(r), flush=True)
    if as_json:
        print(json.dumps({"device": device, "results": [r.as_dict() for r in results],
                          "errors": failed}, indent=2))
    return 1 if failed else 0
