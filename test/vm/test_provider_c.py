"""Runs the provider's C tests (test/provider_c) inside the VM."""
import os
import subprocess
import pytest

from provider_util import BUILD, env, ensure_master_key, ncr_so_present, \
    kernel_key, rsa_key

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


# Each key with the sigalgs it signs under, and one of another key type
# that must be refused ("!").
SIGALG_KEYS = {
    "rsa2048": (rsa_key, ["RSA-SHA2-256=SHA2-256", "RSA-SHA384=SHA2-384",
                          "sha512WithRSAEncryption=SHA2-512",
                          "RSA-SHA1=SHA1", "RSA-SHA224=SHA2-224",
                          "!ECDSA-SHA2-256"]),
    "ec-P-256": (lambda: kernel_key("ec-P-256", [
        "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]),
        ["ECDSA-SHA2-256=SHA2-256", "ecdsa-with-SHA384=SHA2-384",
         "ECDSA-SHA2-224=SHA2-224", "!RSA-SHA2-256"]),
    "ec-P-384": (lambda: kernel_key("ec-P-384", [
        "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384"]),
        ["ECDSA-SHA384=SHA2-384", "ECDSA-SHA2-512=SHA2-512",
         "ECDSA-SHA1=SHA1", "!DSA-SHA2-256"]),
    "dsa1024": (lambda: kernel_key("dsa1024", [
        "-algorithm", "DSA", "-pkeyopt", "pbits:1024", "-pkeyopt",
        "qbits:160"]),
        ["DSA-SHA2-256=SHA2-256", "DSA-SHA1=SHA1", "DSA-SHA224=SHA2-224",
         "!RSA-SHA2-256"]),
}


@pytest.mark.parametrize("name", sorted(SIGALG_KEYS))
def test_sigalgs_sign_with_kernel_keys(name):
    """OpenSSL 3.4+'s sigalgs (RSA-SHA2-256, ...) and sign_message/
    verify_message with an ncr key: streamed, copied half-way, one-shot
    and on a digest, each verified by the stock provider; ncr's
    verify_message refuses a changed signature or none; the digest cannot
    be changed; another key type's sigalg, a public key and the default
    provider's sigalg (public half only) do not sign."""
    path = os.path.join(BIN, "test_sigalg")
    if not os.path.exists(path) or not ncr_so_present():
        pytest.skip("test_sigalg or ncr.so not built")
    make, algs = SIGALG_KEYS[name]
    key, pub = make()
    p = subprocess.run([path, key, pub] + algs, env=env(),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=600)
    out = p.stdout.decode(errors="replace")
    if p.returncode == 77:
        pytest.skip(out.strip())
    assert p.returncode == 0 and "0 failures" in out, out
    ok = len([a for a in algs if not a.startswith("!")])
    assert out.count(": ok\n") == 4 * ok, out
    assert out.count(": refused\n") == len(algs) + ok, out
