"""End to end with ECDSA P-256 keys generated in the kernel: nginx serving
from an ncr EC key file to stock curl (TLS 1.3 and TLS 1.2 ECDHE-ECDSA),
mutual TLS with curl's client key an ncr EC key file, and Python's ssl
module serving from one. OpenSSL is pointed at openssl.cnf.example (default
provider first) as an administrator would; certificates come from the
test CA of e2e_util. Loopback only; every server is stopped at the end."""
import re

import pytest

import e2e_util as e2e
import tls_util

pytestmark = pytest.mark.skipif(not e2e.have_provider(),
                                reason="ncr.so not built")


class EcMaterial:
    """ncr EC key files for a server and a client, made by genpkey in the
    kernel, and their certificates from the test CA (CSRs signed through
    ncr)."""

    def __init__(self, mat):
        d = mat.dir / "ec"
        d.mkdir(exist_ok=True)
        self.ca = mat.ca
        self.server_key = self.genpkey(d / "server-ec.ncr.pem")
        self.client_key = self.genpkey(d / "client-ec.ncr.pem")
        self.server_crt = mat.pki.issue(self.server_key, "server-ec",
                                        "localhost", server=True, ncr=True)
        self.client_crt = mat.pki.issue(self.client_key, "client-ec",
                                        "ncr ec client", server=False,
                                        ncr=True)

    @staticmethod
    def genpkey(out):
        e2e.openssl_ncr("genpkey", "-propquery", "provider=ncr",
                        "-algorithm", "EC", "-pkeyopt",
                        "ec_paramgen_curve:P-256", "-out", out)
        assert e2e.is_keyfile(out)
        return out


@pytest.fixture(scope="module")
def ec(mat):
    return EcMaterial(mat)


@pytest.fixture
def nginx(tmp_path):
    started = []

    def make(cert, key, **kw):
        n = e2e.Nginx(tmp_path / ("nginx%d" % len(started)), cert, key,
                      workers=1, **kw)
        started.append(n)
        assert n.start(), "nginx did not start:\n" + n.error_text()
        return n

    yield make
    for n in started:
        n.stop()


def fetch(n, ca, *opts, path="/", env=None):
    return e2e.curl("https://localhost:%d%s" % (n.port, path), ca,
                    "--resolve", "localhost:%d:%s" % (n.port, e2e.HOST),
                    *opts, env=env)


def test_keyfile_public_matches_certificate(ec):
    pub = e2e.openssl_ncr("pkey", "-in", ec.server_key, "-pubout").stdout
    crt = e2e.openssl_stock("x509", "-in", ec.server_crt, "-pubkey",
                            "-noout").stdout
    assert pub == crt
    assert e2e.openssl_stock("pkey", "-in", ec.server_key, "-noout",
                             check=False).returncode != 0


@pytest.mark.parametrize("proto,want", [
    (("--tlsv1.3",), r"SSL connection using TLSv1\.3 / "),
    (("--tlsv1.2", "--tls-max", "1.2"),
     r"SSL connection using TLSv1\.2 / ECDHE-ECDSA-"),
], ids=["tls1.3", "tls1.2"])
def test_nginx_ecdsa_server_key(ec, nginx, proto, want):
    n = nginx(ec.server_crt, ec.server_key)
    r = fetch(n, ec.ca, *proto)
    assert r.returncode == 0, r.stderr + n.error_text()
    assert re.search(want, r.stderr), r.stderr
    assert "served by nginx" in r.stdout
    s = e2e.s_client(n.port, ec.ca, "-tls1_3", "-sigalgs",
                     "ecdsa_secp256r1_sha256")
    assert s.returncode == 0, s.stdout + s.stderr
    assert tls_util.signature(s.stdout)[0] == "ECDSA", s.stdout
    assert "Verify return code: 0 (ok)" in s.stdout
    assert not n.problems(), n.problems()


@pytest.mark.parametrize("proto", [("--tlsv1.2", "--tls-max", "1.2"),
                                   ("--tlsv1.3",)],
                         ids=["tls1.2", "tls1.3"])
def test_curl_ec_client_key_in_kernel(ec, nginx, proto):
    """mTLS: curl's --key is the ncr EC key file (CertificateVerify signed
    in the kernel); nginx (EC server key in the kernel too) verifies it."""
    n = nginx(ec.server_crt, ec.server_key, client_ca=ec.ca)
    r = fetch(n, ec.ca, *proto, "--cert", ec.client_crt, "--key",
              ec.client_key, path="/client", env=e2e.ncr_env())
    assert r.returncode == 0, r.stderr + n.error_text()
    assert r.stdout.strip() == "client SUCCESS CN=ncr ec client"
    assert not n.problems(), n.problems()


def test_curl_ec_client_key_needs_provider(ec, nginx):
    n = nginx(ec.server_crt, ec.server_key, client_ca=ec.ca)
    r = fetch(n, ec.ca, "--cert", ec.client_crt, "--key", ec.client_key,
              path="/client", env=e2e.stock_env())
    assert r.returncode == 58, r.stderr      # CURLE_SSL_CERTPROBLEM


def test_python_server_ec_key_in_kernel(ec):
    from test_python_ssl import PyServer
    s = PyServer(ec.server_crt, ec.server_key, 2, e2e.ncr_env())
    try:
        first = s.line(timeout=300)
        assert first and first.startswith("PORT "), (first, s.stop())
        port = int(first.split()[1])
        url = "https://localhost:%d/" % port
        resolve = ("--resolve", "localhost:%d:%s" % (port, e2e.HOST))
        r = e2e.curl(url, ec.ca, *resolve, "--tlsv1.2", "--tls-max", "1.2")
        assert r.returncode == 0, r.stderr
        assert r.stdout.startswith("python TLSv1.2 ECDHE-ECDSA-")
        r = e2e.curl(url, ec.ca, *resolve, "--tlsv1.3")
        assert r.returncode == 0, r.stderr
        assert r.stdout.startswith("python TLSv1.3 ")
        assert s.proc.wait(timeout=60) == 0
        assert not any("ERROR" in ln for ln in s.lines), s.lines
    finally:
        s.stop()
