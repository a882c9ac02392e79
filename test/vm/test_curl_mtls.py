"""Mutual TLS: curl's client key (`--key`) is an ncr key file, loaded by
curl's OpenSSL through the ncr decoder because OPENSSL_CONF names the
provider (no curl option needed: a plain PEM `--key` works); nginx (itself
serving from an ncr key) verifies the client certificate against the test
CA. Loopback only; nginx stopped after each test."""
import re

import pytest

import e2e_util as e2e

pytestmark = pytest.mark.skipif(not e2e.have_provider(),
                                reason="ncr.so not built")


@pytest.fixture
def server(mat, tmp_path):
    """nginx with the ncr server key, requiring a client certificate."""
    n = e2e.Nginx(tmp_path / "nginx", mat.server_crt, mat.server_key,
                  workers=1, client_ca=mat.ca)
    try:
        assert n.start(), "nginx did not start:\n" + n.error_text()
        yield n
    finally:
        n.stop()


def fetch(n, mat, *opts, env=None):
    return e2e.curl("https://localhost:%d/client" % n.port, mat.ca,
                    "--resolve", "localhost:%d:%s" % (n.port, e2e.HOST),
                    *opts, env=env)


@pytest.mark.parametrize("proto", [("--tlsv1.2", "--tls-max", "1.2"),
                                   ("--tlsv1.3",)],
                         ids=["tls1.2", "tls1.3"])
def test_client_key_in_kernel(mat, server, proto):
    r = fetch(server, mat, *proto, "--cert", mat.client_crt,
              "--key", mat.client_key, env=e2e.ncr_env())
    assert r.returncode == 0, r.stderr + server.error_text()
    assert r.stdout.strip() == "client SUCCESS CN=ncr client"
    want = "TLSv1.2 / ECDHE-RSA-" if "1.2" in proto[-1] else "TLSv1.3 / "
    assert "SSL connection using " + want in r.stderr
    log = server.access_log.read_text()
    assert '"SUCCESS" "CN=ncr client"' in log
    assert not server.problems(), server.problems()


def test_client_signature_schemes(mat, server):
    """The client's CertificateVerify through the kernel with both RSA
    schemes in TLS 1.2 (curl cannot choose; openssl s_client can)."""
    for sigalg in ("RSA+SHA256", "rsa_pss_rsae_sha256"):
        s = e2e.s_client(server.port, mat.ca, "-tls1_2",
                         "-client_sigalgs", sigalg,
                         "-cert", mat.client_crt, "-key", mat.client_key,
                         env=e2e.ncr_env())
        assert s.returncode == 0, s.stdout + s.stderr
        assert re.search(r"HTTP/1\.1 200", s.stdout), s.stdout
        assert "Verify return code: 0 (ok)" in s.stdout


def test_no_client_certificate_refused(mat, server):
    r = fetch(server, mat)
    assert r.returncode == 0, r.stderr
    assert "400" in r.stderr and "No required SSL certificate" in r.stdout


def test_without_provider_curl_cannot_use_the_key(mat, server):
    """Control: without OPENSSL_CONF the key file means nothing to curl,
    so the successes above are the provider's doing."""
    r = fetch(server, mat, "--cert", mat.client_crt, "--key",
              mat.client_key, env=e2e.stock_env())
    assert r.returncode == 58, r.stderr      # CURLE_SSL_CERTPROBLEM
    assert "private key" in r.stderr


def test_client_cert_from_other_ca_refused(mat, server, tmp_path):
    """nginx really verifies: a self-signed client certificate for the
    same ncr key is rejected."""
    crt = tmp_path / "self.crt"
    e2e.openssl_ncr("req", "-new", "-x509", "-key", mat.client_key,
                    "-subj", "/CN=ncr client", "-days", "1", "-out", crt,
                    timeout=300)
    r = fetch(server, mat, "--cert", crt, "--key", mat.client_key,
              env=e2e.ncr_env())
    assert "400" in r.stderr, r.stderr
    assert "client SUCCESS" not in r.stdout
