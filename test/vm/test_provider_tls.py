"""TLS 1.2 and 1.3 with openssl s_server holding an ncr key (signing in the
kernel) and a stock s_client, on loopback."""
import os
import select
import socket
import subprocess
import time
import pytest

import tls_util

from provider_util import NCR, OPENSSL, env, run, ncr_so_present, rsa_key

pytestmark = pytest.mark.skipif(not ncr_so_present(),
                                reason="ncr.so not built")


@pytest.fixture(scope="module")
def server_files(tmp_path_factory):
    key, pub = rsa_key()
    cert = str(tmp_path_factory.mktemp("tls") / "cert.pem")
    run(["req", "-new", "-x509", "-key", key, "-subj", "/CN=localhost",
         "-days", "2", "-out", cert] + NCR)
    return key, cert


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def handshake(key, cert, client_args, server_args=()):
    """One handshake: s_server (ncr key) accepts once; stock s_client."""
    port = free_port()
    srv = subprocess.Popen([OPENSSL, "s_server", "-accept",
                            "127.0.0.1:%d" % port, "-key", key, "-cert", cert,
                            "-naccept", "1"] + list(server_args) + NCR,
                           env=env(), stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    # stdin stays open: s_server quits at end of its input
    try:
        # s_server prints ACCEPT once it listens
        deadline = time.time() + 60
        ready = False
        while time.time() < deadline and not ready:
            r, _, _ = select.select([srv.stdout], [], [], 1)
            if r:
                line = srv.stdout.readline()
                if not line:
                    break
                ready = b"ACCEPT" in line
        assert ready, "s_server did not start"
        e = dict(os.environ)
        e.pop("OPENSSL_MODULES", None)
        cli = subprocess.run([OPENSSL, "s_client", "-connect",
                              "127.0.0.1:%d" % port, "-CAfile", cert,
                              "-verify_return_error", "-brief"] +
                             list(client_args), input=b"", env=e,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             timeout=120)
        out = cli.stdout.decode(errors="replace")
        assert cli.returncode == 0, out
        return out
    finally:
        srv.stdin.close()
        try:
            srv.wait(timeout=30)
        except subprocess.TimeoutExpired:
            srv.kill()
            srv.wait()


def test_tls13_rsa_pss(server_files):
    out = handshake(*server_files, ["-tls1_3"])
    assert "Protocol version: TLSv1.3" in out
    assert tls_util.signature(out)[0] == "RSA-PSS", out
    assert "Verification: OK" in out


def test_tls12_ecdhe_rsa(server_files):
    out = handshake(*server_files, ["-tls1_2", "-cipher",
                                    "ECDHE-RSA-AES128-GCM-SHA256"])
    assert "Protocol version: TLSv1.2" in out
    assert "ECDHE-RSA" in out
    assert "Verification: OK" in out


def test_tls12_pkcs1_sigalg(server_files):
    out = handshake(*server_files, ["-tls1_2", "-sigalgs", "RSA+SHA256"])
    assert tls_util.signature(out)[0] == "RSA", out
    assert "Verification: OK" in out


def has_ml_kem():
    """OpenSSL 3.5 and later: the hybrid ML-KEM groups TLS 1.3 offers first."""
    p = run(["list", "-kem-algorithms"], check=False)
    return p.returncode == 0 and b"MLKEM768" in p.stdout.replace(b"-", b"")


# Each group alone on the client's side, so the handshake succeeds only
# with it: the server's side of the key exchange runs on ncr's X25519 or
# ECDH (an ephemeral kernel key), or, for the hybrids, inside the default
# provider's KEM with ncr's X25519/EC halves.
@pytest.mark.parametrize("group", ["X25519", "P-256", "P-384",
                                   "X25519MLKEM768", "SecP256r1MLKEM768"])
def test_tls13_key_share_group(server_files, group):
    if "MLKEM" in group and not has_ml_kem():
        pytest.skip("this OpenSSL has no ML-KEM (3.5 and later do)")
    # 3.5's servers take SecP256r1MLKEM768 only when told to
    server = ["-groups", group] if "MLKEM" in group else []
    out = handshake(*server_files, ["-tls1_3", "-groups", group], server)
    assert "Protocol version: TLSv1.3" in out
    assert "Verification: OK" in out


def test_tls13_default_groups(server_files):
    """The client's default key shares (X25519MLKEM768 first on 3.5)."""
    out = handshake(*server_files, ["-tls1_3"])
    assert "Protocol version: TLSv1.3" in out
    assert "Verification: OK" in out
