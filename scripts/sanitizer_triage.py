"""Sort the reports of a compute-sanitizer log into npgpu's own and those inside NVIDIA's libraries.

    python scripts/sanitizer_triage.py LOG

Prints one line, ``ours=N library=M (libcusolver.so.12: 24, ...)``, and exits 1 when a report is npgpu's
(or cannot be placed, or was not printed), 0 when every report comes from a library kernel or a library's
own copy. A report belongs to the library whose code is the innermost host frame with a shared object (the launch of the
kernel, or the API call), or, for racecheck hazards, which print no host frames, to the library whose
namespace the kernel is in. The library reports seen so far are listed in docs/reliability.md.
"""

import re
import sys
from collections import Counter

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
    sys.exit(main(sys.argv[1]))
