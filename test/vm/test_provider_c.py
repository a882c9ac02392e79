"""Runs the provider's C tests (test/provider_c) inside the VM."""
import os
import subprocess
import pytest

from provider_util import BUILD, env, ncr_so_present

BIN = os.path.join(BUILD, "test", "provider_c")


def run_c(name, *args, timeout=600):
    path = os.path.join(BIN, name)
    if not os.path.exists(path) or not ncr_so_present():
        pytest.skip("%s or ncr.so not built" % name)
    p = subprocess.run([path] + list(args), env=env(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=timeout)
    out = p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace")
    assert p.returncode == 0, out
    return out


def test_cipher_matches_default_with_copies():
    out = run_c("test_cipher")
    assert "0 failures" in out
