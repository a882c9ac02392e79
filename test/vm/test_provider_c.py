"""Runs the provider's C tests (test/provider_c) inside the VM."""
import os
import subprocess
import pytest

from provider_util import BUILD, env, ensure_master_key, ncr_so_present

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


def test_hybrid_kem_with_ncr_halves():
    """OpenSSL 3.5's X25519MLKEM768 and its EC siblings with ncr's X25519
    and ECDH as their classical halves (test_hybrid_kem.c says how)."""
    path = os.path.join(BIN, "test_hybrid_kem")
    if not os.path.exists(path) or not ncr_so_present():
        pytest.skip("test_hybrid_kem or ncr.so not built")
    ensure_master_key()
    p = subprocess.run([path], env=env(), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=600)
    out = p.stdout.decode(errors="replace")
    if p.returncode == 77:
        pytest.skip(out.strip())
    assert p.returncode == 0 and "0 failures" in out, out
