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
