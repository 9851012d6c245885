"""scripts/sanitizer_triage.py: compute-sanitizer reports sorted into npgpu's own and NVIDIA libraries'."""

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "sanitizer_triage.py"

OURS = """\
========= Uninitialized __global__ memory read of size 4 bytes
=========     at void npgpu::cuda::kernel<short>(short *)+0x13c0 in indexing.cu:128
=========     by thread (74,0,0) in block (8,0,0)
=========     Saved host backtrace up to driver entry point at kernel launch time
=========         Host Frame:  [0x88a713] in libnpgpu.so
=========         Host Frame: npgpu::scatter_add(...) [0xce9e3] in libnpgpu.so
=========
"""
CUSOLVER = """\
....========= Host API memory access error at host access to 0x48f93bfc00 of size 4 bytes
=========     Uninitialized access to 0x48f93bfc00 on access by cudaMemcpy source
=========     Saved host backtrace up to driver entry point at error
=========         Host Frame:  [0xab6180] in libcusolver.so.12
=========         Host Frame: cusolverDnXgesvd [0x5f54e3] in libcusolver.so.12
=========         Host Frame:  [0x6dcf17] in libnpgpu.so
=========
"""
CUSPARSE_RACE = """\
========= Error: Race reported between Write access at void cusparse::csrmv_v3_kernel<int>(int *)+0x3be0
=========     and Write access at void cusparse::csrmv_v3_kernel<int>(int *)+0x3bb0 [15 hazards]
=========
"""


def triage(tmp_path, text):
    log = tmp_path / "san.log"
    log.write_text("========= COMPUTE-SANITIZER\n" + text + "========= ERROR SUMMARY: 1 error\n")
    r = subprocess.run([sys.executable, str(SCRIPT), str(log)], capture_output=True, text=True)
    return r.returncode, r.stdout.strip()


def test_library_reports_alone_pass(tmp_path):
    assert triage(tmp_path, CUSOLVER + CUSPARSE_RACE) == (
        0, "ours=0 library=2 (libcusolver.so.12: 1, cusparse kernel: 1)")


@pytest.mark.parametrize("others", ["", CUSOLVER])
def test_a_report_of_ours_fails(tmp_path, others):
    rc, out = triage(tmp_path, others + OURS)
    assert rc == 1 and out.startswith("ours=1 ")


def test_unprinted_reports_fail(tmp_path):
    rc, out = triage(tmp_path, CUSOLVER + "========= ERROR SUMMARY: 188 errors were not printed.\n")
    assert rc == 1 and out.startswith("unprinted reports")


MAIN_JOINING = """\
Process 2104: python3 -m pytest tests/test_blas.py
Python v3.12.3 (/usr/bin/python3.12)

Thread 2104 (idle): "MainThread"
    0x7f97db698e51 (libc.so.6)
    PyThread_acquire_lock_timed (python3.12)
    lock_PyThread_acquire_lock (libpython3.12.so.1.0)
    Thread.join (threading.py:1147)
    test_device_streams_and_threads (test_blas.py:454)
"""
IN_DRIVER = """\
Thread 2133 (idle): "Thread-1 (work)"
    pthread_rwlock_wrlock (libc.so.6)
    0x7f97d6151bb4 (libcuda.so.580.159.04)
    0x7f97dbf33bad (libsanitizer-collection.so)
    cuStreamSynchronize (libcuda.so.580.159.04)
    npgpu::copy_to_host_staged (libnpgpu.so)
    0x7f97d0ba8b6f (npgpu/_array.cpython-312-x86_64-linux-gnu.so)
    work (test_blas.py:446)
"""
IN_NPGPU = """\
Thread 2135 (idle): "Thread-3 (work)"
    __lll_lock_wait (libc.so.6)
    pthread_cond_wait (libc.so.6)
    std::condition_variable::wait (libstdc++.so.6)
    npgpu::detail::run_staged (libnpgpu.so)
    cuStreamSynchronize (libcuda.so.580.159.04)
    0x7f97d0ba8b6f (npgpu/_array.cpython-312-x86_64-linux-gnu.so)
    work (test_blas.py:446)
"""


def stall(tmp_path, text):
    stacks = tmp_path / "stacks.txt"
    stacks.write_text(text)
    r = subprocess.run([sys.executable, str(SCRIPT), "--stall", str(stacks)], capture_output=True, text=True)
    return r.returncode, r.stdout.strip()


def test_a_stall_inside_the_driver_or_the_tool_is_named_so(tmp_path):
    assert stall(tmp_path, MAIN_JOINING + IN_DRIVER + IN_DRIVER) == (
        0, "threads=3 driver_or_tool=2 npgpu=0 other=0 python=1")


def test_a_thread_waiting_in_npgpu_fails(tmp_path):
    # innermost frame first: the mutex inside libnpgpu is what it waits on, whatever the driver does above it
    assert stall(tmp_path, MAIN_JOINING + IN_DRIVER + IN_NPGPU) == (
        1, "threads=3 driver_or_tool=1 npgpu=1 other=0 python=1")


def test_stacks_without_threads_fail(tmp_path):
    assert stall(tmp_path, "Error: Failed to find python version from target process\n")[0] == 1


def test_slowest_lists_the_longest_tests_of_all_logs(tmp_path):
    (tmp_path / "sanitizer-racecheck-shard0.log").write_text(
        "========= COMPUTE-SANITIZER\n"
        "tests/test_a.py::test_fast[cuda] PASSED 689.7us\n"
        "tests/test_a.py::test_slow[cuda-(2, 3)] PASSED 12.5s\n"
        "tests/test_a.py::test_cut ========= Invalid __global__ read of size 4 bytes\n"
        "=========     at void npgpu::k()+0x10\n"
        "tests/test_a.py::test_failed FAILED 2.0s\n"
        "tests/test_a.py::test_minutes PASSED 2m 3s\n")
    (tmp_path / "sanitizer-initcheck-threads.log").write_text(
        "tests/test_b.py::test_mid PASSED 305.2ms\n"
        "===== 2 passed in 3.0s =====\n")
    logs = sorted(str(p) for p in tmp_path.glob("sanitizer-*.log"))
    r = subprocess.run([sys.executable, str(SCRIPT), "--slowest", "3", *logs], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["racecheck 123.0 s tests/test_a.py::test_minutes",
                                     "racecheck 12.5 s tests/test_a.py::test_slow[cuda-(2, 3)]",
                                     "racecheck 2.0 s tests/test_a.py::test_failed"]
