"""npgpu's benchmarks: ``python -m npgpu bench [names...] [--json]``. Each bench_*.py module adds entries to
the registry; each entry returns harness.Result lines (npgpu's figure, anchors measured in the same run,
the target)."""
import importlib
import json
import pkgutil
import sys

_MODULES = sorted(m.name for m in pkgutil.iter_modules(__path__) if m.name.startswith("bench_"))


def registry():
    out = {}
    for mod in _MODULES:
        out.update(importlib.import_module(f"{__name__}.{mod}").BENCHMARKS)
    return out


def main(names=None, as_json=False, repeat=20):
    import npgpu

    if not npgpu.is_available():
        print(f"benchmarks need a GPU: {npgpu.unavailable_reason()}", file=sys.stderr)
        return 2
    reg = registry()
    names = names or list(reg)
    unknown = [n for n in names if n not in reg]
    if unknown:
        print(f"unknown benchmark(s) {unknown}; known: {sorted(reg)}", file=sys.stderr)
        return 2
    dev = npgpu.Device(npgpu.get_device_id())
    results, failed = [], []
    for n in names:
        try:
            results.extend(reg[n](repeat))
        except Exception as e:  # one broken benchmark must not hide the others
            failed.append((n, repr(e)))
    if as_json:
        print(json.dumps({"device": dev.name, "results": [r.as_dict() for r in results],
                          "errors": failed}, indent=2))
    else:
        print(f"device: {dev.name}")
        print(f"{'benchmark':58s} {'npgpu':>12s} {'target':>10s} {'met':>4s}  anchors / notes")
        for r in results:
            tgt = "" if r.target is None else f"{'>=' if r.higher_is_better else '<='}{r.target:.3g}"
            met = {True: "yes", False: "NO", None: ""}[r.met]
            extras = ", ".join(f"{k} {v}" for k, v in r.anchors.items())
            if r.note:
                extras = f"{extras}; {r.note}" if extras else r.note
            print(f"{r.name:58s} {r.value:>9.3f} {r.unit:<3s}{tgt:>10s} {met:>4s}  {extras}")
        for n, e in failed:
            print(f"{n}: FAILED {e}")
    return 1 if failed else 0
