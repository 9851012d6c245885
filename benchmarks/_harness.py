"""The benchmark harness every benchmark file uses.

- GPU work is timed with CUDA events after a warm-up; host-visible work (NumPy in / NumPy out) with the
  host clock around calls that return only when the result is on the host. Reported: the median of
  `repeat` runs.
- Device throughput (GB/s, TFLOP/s) is device time per call: each timed run issues a batch of calls back to
  back (as many as take about 1 ms, see _batch_for), so the GPU never waits for the host to issue the next
  one. A single call between two events also counts the host's launch latency (about 5 us) while the GPU
  sits idle, 5% of a 100 us pass; that cost is measured on its own, per call (per_call_us). Anchors are
  timed the same way.
- Inputs are fresh random data (never zeros); outputs are poisoned before the correctness check.
- Ceilings measured in the same run: device-to-device copy bandwidth (bytes read + written) and pinned
  host-to-device bandwidth.
- Anchors (NumPy on the CPU, and CuPy / PyTorch / Numba when installed) run the same workload.
"""
import statistics
import time

import numpy as np

import npgpu

_usable = {}

_PROBE = {
    "cupy": "import cupy as m; assert int(m.arange(4).sum()) == 6",
    "torch": "import torch as m; assert int(m.arange(4, device='cuda').sum()) == 6",
    "numba": "import numpy as np; np.row_stack = np.vstack; from numba import cuda; assert cuda.is_available()",
}


def _usable_beside_npgpu(name):
    """Whether anchor library `name` imports and runs on the GPU in a process that has imported npgpu, tried
    once in a child process: an anchor that crashes there (seen with CuPy on the H100 machine) is skipped with
    a one-line reason instead of taking the benchmark process down."""
    import os

    known = dict(kv.split("=") for kv in os.environ.get("NPGPU_BENCH_ANCHORS", "").split(",") if "=" in kv)
    if name in known:  # decided once by the parent of --isolate runs
        _usable[name] = known[name] == "1"
    if name not in _usable:
        import subprocess
        import sys

        try:
            r = subprocess.run([sys.executable, "-X", "faulthandler", "-c", "import npgpu\n" + _PROBE[name]],
                               capture_output=True, text=True, timeout=180)
            ok = r.returncode == 0
            if not ok and "No module named" not in r.stderr:
                where = [ln.strip() for ln in r.stderr.splitlines() if ln.strip().startswith("File")][:2]
                print(f"anchor {name} skipped: beside npgpu it exits with status {r.returncode} "
                      f"({'; '.join(where) or r.stderr.strip()[-160:]})", file=sys.stderr, flush=True)
        except (OSError, subprocess.TimeoutExpired):
            ok = False
        _usable[name] = ok
    return _usable[name]


def anchors_env():
    """NPGPU_BENCH_ANCHORS for child benchmark processes: each anchor's check, made once here."""
    return ",".join(f"{n}={int(_usable_beside_npgpu(n))}" for n in _PROBE)


def optional(name):
    """Import an anchor library, or None when it is missing, cannot see a GPU, or crashes beside npgpu."""
    if name in _PROBE and not _usable_beside_npgpu(name):
        return None
    try:
        if name == "numba":
            np.row_stack = getattr(np, "row_stack", np.vstack)  # numba-cuda 0.30 wants it on NumPy 2
            import numba
            from numba import cuda  # noqa: F401

            return numba if cuda.is_available() else None
        mod = __import__(name)
        if name == "torch" and not mod.cuda.is_available():
            return None
        if name == "cupy":
            mod.cuda.runtime.getDeviceCount()
        return mod
    except Exception:
        return None


_BATCH_MS = 1.0  # a timed batch of calls lasts about this long
_MAX_BATCH = 32


def _batch_for(ms_one):
    """Calls per timed batch for a call that takes ms_one milliseconds alone."""
    return int(min(_MAX_BATCH, max(1, round(_BATCH_MS / max(ms_one, 1e-6)))))


def gpu_time_ms(fn, repeat=20, warmup=3, sync=None):
    """Median device milliseconds per call of fn(), measured with npgpu events on the current stream around
    batches of back-to-back calls (see the module's docstring)."""
    for _ in range(warmup):
        fn()
    npgpu.synchronize()
    if sync:
        sync()
    start, end = npgpu.Event(), npgpu.Event()

    def run(k):
        start.record()
        for _ in range(k):
            fn()
        end.record()
        end.synchronize()
        return start.elapsed_time(end) / k

    batch = _batch_for(run(1))
    return statistics.median(run(batch) for _ in range(repeat))


def anchor_time_ms(fn, sync, repeat=20, warmup=3):
    """Median ms per call of fn() for a library with its own streams, in batches as gpu_time_ms: synchronise,
    time the batch on the host clock up to its synchronisation."""
    for _ in range(warmup):
        fn()
    sync()

    def run(k):
        t = time.perf_counter()
        for _ in range(k):
            fn()
        sync()
        return (time.perf_counter() - t) * 1e3 / k

    batch = _batch_for(run(1))
    return statistics.median(run(batch) for _ in range(repeat))


def host_time_ms(fn, repeat=20, warmup=2):
    """Median ms of a call that returns with its result on the host."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def per_call_us(fn, calls=2000, repeat=5):
    """Median host microseconds per call over `calls` back-to-back calls (asynchronous launches)."""
    fn()
    npgpu.synchronize()
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(calls):
            fn()
        out.append((time.perf_counter() - t) / calls * 1e6)
        npgpu.synchronize()
    return statistics.median(out)


_ceilings = {}


def copy_ceiling_gbs(repeat=20):
    """Device-to-device copy of 2^26 float32 (256 MiB): GB/s counting bytes read plus written."""
    if "d2d" not in _ceilings:
        x = npgpu.asarray(np.random.default_rng(1).standard_normal(1 << 26, dtype=np.float32))
        ms = gpu_time_ms(lambda: x.copy(), repeat)
        _ceilings["d2d"] = 2 * x.nbytes / ms / 1e6
    return _ceilings["d2d"]


def h2d_ceiling_gbs(nbytes=1 << 28, repeat=10):
    """Pinned host-to-device copy bandwidth, GB/s."""
    key = ("h2d", nbytes)
    if key not in _ceilings:
        host = npgpu.empty_pinned(nbytes // 4, np.float32)
        host[:] = np.random.default_rng(2).standard_normal(host.size, dtype=np.float32)
        dev = npgpu.empty(host.size, np.float32)
        ms = gpu_time_ms(lambda: npgpu.asarray(host), repeat)
        del dev
        _ceilings[key] = nbytes / ms / 1e6
    return _ceilings[key]


class Result:
    """One line of the report: npgpu's figure, the anchors', the target and whether it was met."""

    def __init__(self, name, value, unit, target=None, higher_is_better=True, anchors=None, note=""):
        self.name, self.value, self.unit = name, value, unit
        self.target, self.higher_is_better = target, higher_is_better
        self.anchors = anchors or {}
        self.note = note

    @property
    def met(self):
        if self.target is None or self.value is None:
            return None
        return self.value >= self.target if self.higher_is_better else self.value <= self.target

    def as_dict(self):
        return {"name": self.name, "value": self.value, "unit": self.unit, "target": self.target,
                "higher_is_better": self.higher_is_better, "met": self.met, "anchors": self.anchors,
                "note": self.note}
