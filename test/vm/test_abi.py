"""Runs the C ABI test (test/abi/abi_test.c) in both ABIs inside the VM.

The 64-bit binary uses the native ioctls, the 32-bit static one the
module's compat_ioctl path; both must pass and print the same log (only
the first line, which names the ABI, differs).
"""
import os
import pathlib
import subprocess

import pytest

BUILD = pathlib.Path(os.environ.get(
    "NCR_BUILD", pathlib.Path(__file__).resolve().parents[2] / "build"))
ABI_DIR = BUILD / "test" / "abi"


def run_abi(bits):
    exe = ABI_DIR / ("abi_test%d" % bits)
    if not exe.exists():
        pytest.fail("%s not built (cmake --build build)" % exe)
    p = subprocess.run([str(exe)], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=900)
    return p.returncode, p.stdout.decode(errors="replace")


@pytest.fixture(scope="module")
def logs():
    return {bits: run_abi(bits) for bits in (64, 32)}


def failed_lines(log):
    return [l for l in log.splitlines() if l.startswith("not ok")]


@pytest.mark.parametrize("bits", [64, 32])
def test_abi_passes(logs, bits):
    rc, log = logs[bits]
    assert rc == 0 and not failed_lines(log), \
        "abi_test%d failed:\n%s" % (bits, log)
    plan = [l for l in log.splitlines() if l.startswith("1..")]
    assert plan and int(plan[0][3:]) > 150, "too few tests ran:\n" + log


def test_abi_32_equals_64(logs):
    body64 = logs[64][1].splitlines()[1:]
    body32 = logs[32][1].splitlines()[1:]
    assert body64 == body32
