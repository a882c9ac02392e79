"""Runs test/compat2010/seed_programs.c, a program built against the 2010
<linux/ncr.h> exactly as the seed patch ships it, in both ABIs inside the VM.

Each line "PASS <id> ..." / "FAIL <id> ...: why" of the program is one
test here (per ABI), so a failing check names itself; the checks are listed
below so that a check the program stopped printing fails too.
"""
import subprocess

import pytest

from conftest import BUILD, ROOT
EXE_DIR = BUILD / "test" / "compat2010"
SEED_PATCH = ROOT.parent / "shared" / "seeds" / \
    "002-patch-user-space-api-definition.patch"

CHECKS = [
    # unkeyed hashes with NCR_ATTR_KEY = NCR_KEY_INVALID
    "unkeyed-sha1", "unkeyed-sha256",
    # a secret key of algorithm "sha1" hashed with UPDATE_INPUT_KEY_AS_DATA
    "hash-key-import", "hash-key-as-data",
    # KEY_UNWRAP of RFC 3394 4.1 with only NCR_ATTR_WRAPPING_ALGORITHM
    "unwrap-kek-import", "unwrap-no-algorithm", "unwrap-key-info",
    "unwrap-use-ecb", "unwrap-use-cbc", "unwrap-rewrap",
    # the 2010 cipher table, one known answer each
    "cipher-cbc-des3_ede", "cipher-ecb-camellia", "cipher-cbc-camellia",
    "cipher-ctr-camellia", "cipher-xts-aes", "cipher-ecb-cipher_null",
]


def run(bits):
    exe = EXE_DIR / ("seed_programs%d" % bits)
    if not exe.exists():
        if not SEED_PATCH.exists():
            pytest.skip("%s absent: the 2010-header program is not built"
                        % SEED_PATCH)
        pytest.fail("%s not built (cmake --build build)" % exe)
    p = subprocess.run([str(exe)], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=600)
    return p.returncode, p.stdout.decode(errors="replace")


_logs = {}


def log(bits):
    if bits not in _logs:
        _logs[bits] = run(bits)
    return _logs[bits]


def results(text):
    """{id: (passed, line)} of the program's check lines."""
    out = {}
    for line in text.splitlines():
        word, _, rest = line.partition(" ")
        if word in ("PASS", "FAIL"):
            out[rest.split(" ", 1)[0]] = (word == "PASS", line)
    return out


@pytest.mark.parametrize("bits", [64, 32])
@pytest.mark.parametrize("check", CHECKS)
def test_check(bits, check):
    rc, text = log(bits)
    res = results(text)
    assert check in res, "check %s not run (exit %d):\n%s" % (check, rc, text)
    ok, line = res[check]
    assert ok, line


@pytest.mark.parametrize("bits", [64, 32])
def test_summary(bits):
    """The program ran to its end, ran exactly the listed checks, and its
    exit status agrees with its lines."""
    rc, text = log(bits)
    res = results(text)
    summary = [l for l in text.splitlines() if l.startswith("SUMMARY ")]
    assert summary, "no SUMMARY line (exit %d):\n%s" % (rc, text)
    f = summary[0].split()
    passed, failed = int(f[1]), int(f[3])
    assert sorted(res) == sorted(CHECKS)
    assert passed == sum(ok for ok, _ in res.values())
    assert failed == len(res) - passed
    assert rc == (1 if failed else 0)


def test_both_abis_agree():
    assert results(log(64)[1]).keys() == results(log(32)[1]).keys()
    assert {k: v[0] for k, v in results(log(64)[1]).items()} == \
        {k: v[0] for k, v in results(log(32)[1]).items()}
