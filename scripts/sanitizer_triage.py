"""Sort the reports of a compute-sanitizer log into npgpu's own and those inside NVIDIA's libraries; with
--stall, say where the threads of a stalled run wait; with --slowest, list the slowest tests of the logs.

    python scripts/sanitizer_triage.py LOG
    python scripts/sanitizer_triage.py --stall STACKS
    python scripts/sanitizer_triage.py --slowest N LOG...

Prints one line, ``ours=N library=M (libcusolver.so.12: 24, ...)``, and exits 1 when a report is npgpu's
(or cannot be placed, or was not printed), 0 when every report comes from a library kernel or a library's
own copy. A report belongs to the library whose code is the innermost host frame with a shared object (the launch of the
kernel, or the API call), or, for racecheck hazards, which print no host frames, to the library whose
namespace the kernel is in. The library reports seen so far are listed in docs/reliability.md.

STACKS is `py-spy dump --native` of the stalled process (scripts/gpu-check.sh takes it shortly before the
timeout). Each thread is placed by its innermost frame that names a shared object: the CUDA driver or
compute-sanitizer's libraries, npgpu (its library, extension modules or OpenMP), or another. A thread with no
such frame (the C and C++ runtimes' and the interpreter's do not count) waits in Python, as the main thread does
while it joins the workers. Prints one line, ``threads=5 driver_or_tool=4 npgpu=0 other=0 python=1``, and
exits 1 when a thread waits in npgpu's code (a lock of ours may be involved) or no thread was found, else 0.

--slowest reads pytest's verbose lines with their times (``-o console_output_style=times``, as
scripts/gpu-check.sh runs them) from logs named ``sanitizer-<tool>-<part>.log`` and prints the N slowest tests,
one a line: ``racecheck 34.1 s tests/test_x.py::test_y[cuda]``. A test whose line a report interrupted is
not counted.
"""

import re
import sys
from collections import Counter
from pathlib import Path

PREFIX = "========= "
HEADER = re.compile(r"^========= (?!\s)(Error: Race|Warning: Race|Uninitialized|Barrier error|Host API memory|Invalid|"
                    r"Program hit|Malloc|Cuda API|Out-of-range|Misaligned|Leaked)")
FRAME = re.compile(r"Host Frame:.*? in (lib[\w+.-]*\.so[\d.]*)")
NVIDIA_LIBRARY = re.compile(r"^lib(cublas|cublasLt|cusolver|cusparse|cufft|curand|nvJitLink)\.so")
LIBRARY_KERNEL = re.compile(r"\b(cusparse|cublas|cublasLt|cusolver|cufft)::")


def blocks(lines):
    block = None
    for line in lines:
        line = line[line.find(PREFIX):] if PREFIX in line else line  # pytest's progress dots may come first
        if HEADER.match(line):
            if block:
                yield block
            block = [line]
        elif block is not None and line.startswith(PREFIX + "    "):
            block.append(line)
        elif block is not None:
            yield block
            block = None
    if block:
        yield block


def owner(block):
    """The NVIDIA library a report comes from, or None for npgpu's own (or unknown) code."""
    for line in block:
        m = FRAME.search(line)
        if m:
            return m.group(1) if NVIDIA_LIBRARY.match(m.group(1)) else None
    m = LIBRARY_KERNEL.search(block[0])
    return f"{m.group(1)} kernel" if m else None


THREAD = re.compile(r"^Thread \d+ ")
SHARED_OBJECT = re.compile(r"\(([^()]*?)([\w+.-]+\.so[\d.]*)\)\s*$")  # (directory/, name) of a native frame
DRIVER_OR_TOOL = re.compile(r"^lib(cuda|sanitizer-[\w-]+)\.so")


def stall_place(frames):
    """Where one thread of a py-spy dump waits: driver_or_tool, npgpu, other or python."""
    for frame in frames:
        m = SHARED_OBJECT.search(frame)
        if not m or m.group(2).startswith(("libc.so", "libpthread.so", "libstdc++.so", "libgcc_s.so", "libpython")):
            continue
        directory, name = m.groups()
        if DRIVER_OR_TOOL.match(name):
            return "driver_or_tool"
        ours = name.startswith(("libnpgpu.so", "libgomp.so")) or directory.endswith("npgpu/")
        return "npgpu" if ours else "other"
    return "python"


def stall(path):
    with open(path, errors="replace") as f:
        lines = f.read().splitlines()
    places, frames = [], None
    for line in lines + ["Thread 0 (end)"]:
        if THREAD.match(line):
            if frames is not None:
                places.append(stall_place(frames))
            frames = []
        elif frames is not None and line.startswith(" "):
            frames.append(line.strip())
    count = Counter(places)
    print(f"threads={len(places)} " + " ".join(f"{k}={count[k]}" for k in ("driver_or_tool", "npgpu", "other",
                                                                             "python")))
    return 1 if count["npgpu"] or not places else 0


# pytest writes a test's time as 689.7us, 305.2ms, 12.500s, 2m 3s or 1h 2m.
OUTCOME_TIME = re.compile(r" (PASSED|FAILED|SKIPPED|ERROR|XFAIL|XPASS) +((?:[0-9.]+(?:us|ms|h|m|s) ?)+)$")
TIME_PART = re.compile(r"([0-9.]+)(us|ms|h|m|s)")
UNIT_SECONDS = {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}


def slowest(count, paths):
    found = []
    for path in paths:
        name = Path(path).name
        tool = name.split("-")[1] if name.startswith("sanitizer-") else name
        with open(path, errors="replace") as f:
            for line in f:
                if "::" not in line[:300]:  # (skips the reports' lines quickly)
                    continue
                m = OUTCOME_TIME.search(line.rstrip())
                test = line[:m.start()].strip() if m else ""
                if "::" in test and "=========" not in test:
                    seconds = sum(float(v) * UNIT_SECONDS[u] for v, u in TIME_PART.findall(m.group(2)))
                    found.append((seconds, tool, test))
    for seconds, tool, test in sorted(found, reverse=True)[:count]:
        print(f"{tool} {seconds:.1f} s {test}")
    return 0


def main(path):
    with open(path, errors="replace") as f:
        text = f.read()
    owners = [owner(b) for b in blocks(text.splitlines())]
    ours = sum(o is None for o in owners)
    if "were not printed" in text:  # reports beyond --print-limit cannot be placed
        print(f"unprinted reports (raise --print-limit); ours={ours} among the printed")
        return 1
    library = Counter(o for o in owners if o is not None)
    detail = ", ".join(f"{k}: {v}" for k, v in library.most_common())
    print(f"ours={ours} library={sum(library.values())}" + (f" ({detail})" if detail else ""))
    return 1 if ours else 0


if __name__ == "__main__":
    if sys.argv[1] == "--stall":
        sys.exit(stall(sys.argv[2]))
    if sys.argv[1] == "--slowest":
        sys.exit(slowest(int(sys.argv[2]), sys.argv[3:]))
    sys.exit(main(sys.argv[1]))
