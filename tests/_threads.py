"""How many threads the multi-thread tests start.

Each test has its own number; ``NPGPU_TEST_THREADS`` caps it. The sanitizer phase of
``scripts/gpu-check.sh`` sets it to 2: with four or more threads launching, synchronising and pinning at once,
compute-sanitizer and the driver stall each other (docs/reliability.md), while the tests without a tool run at
their full count.
"""

import os


def thread_count(default: int) -> int:
    cap = os.environ.get("NPGPU_TEST_THREADS")
    return min(default, int(cap)) if cap else default
