"""Debian's nginx serving HTTPS with `ssl_certificate_key` = an ncr key file
(RSA-2048 held by the kernel), OpenSSL pointed at openssl.cnf.example with
OPENSSL_CONF; stock curl and openssl s_client (no provider) as clients.
Loopback only; every nginx is stopped at the end of its test."""
import errno
import os
import re

import pytest

import e2e_util as e2e
import tls_util
from conftest import master_key_set

pytestmark = pytest.mark.skipif(not e2e.have_provider(),
                                reason="ncr.so not built")

BAD = ("[error]", "[crit]", "[alert]", "[emerg]")


@pytest.fixture
def nginx(tmp_path):
    """Factory: nginx(cert, key, **kw) -> started Nginx; all are stopped
    (master and workers) when the test ends."""
    started = []

    def make(cert, key, start=True, name="nginx", **kw):
        n = e2e.Nginx(tmp_path / name, cert, key, **kw)
        started.append(n)
        if start:
            assert n.start(), "nginx did not start:\n" + n.error_text()
        return n

    yield make
    for n in started:
        n.stop()


def url(n, path="/"):
    return "https://localhost:%d%s" % (n.port, path)


def fetch(n, ca, *opts):
    # --resolve: the certificate names localhost; connect to 127.0.0.1
    return e2e.curl(url(n), ca, "--resolve",
                    "localhost:%d:%s" % (n.port, e2e.HOST), *opts)


def test_control_software_key(mat, nginx):
    """The harness itself, without ncr: nginx with the software key file
    and no provider serves the page."""
    n = nginx(mat.server_crt, mat.server_soft, env=e2e.stock_env())
    r = fetch(n, mat.ca)
    assert r.returncode == 0, r.stderr
    assert "served by nginx" in r.stdout
    assert not n.problems()


def test_keyfile_is_not_a_private_key(mat):
    """The file nginx gets holds the wrapped blob and the public key only:
    stock openssl cannot read it as a private key, the provider can."""
    assert e2e.is_keyfile(mat.server_key)
    stock = e2e.openssl_stock("pkey", "-in", mat.server_key, "-noout",
                              check=False)
    assert stock.returncode != 0
    pub = e2e.openssl_ncr("pkey", "-in", mat.server_key, "-pubout").stdout
    soft = e2e.openssl_stock("pkey", "-in", mat.server_soft,
                             "-pubout").stdout
    assert pub == soft


def test_csr_signed_through_ncr_verifies(mat, tmp_path):
    """A CSR made with the ncr key file (signed in the kernel) verifies
    with stock openssl and carries the same public key."""
    csr = tmp_path / "s.csr"
    e2e.openssl_ncr("req", "-new", "-key", mat.server_key, "-subj",
                    "/CN=localhost", "-out", csr, timeout=300)
    v = e2e.openssl_stock("req", "-in", csr, "-verify", "-noout")
    assert "verify OK" in v.stdout + v.stderr
    pub = e2e.openssl_stock("req", "-in", csr, "-pubkey", "-noout").stdout
    soft = e2e.openssl_stock("pkey", "-in", mat.server_soft,
                             "-pubout").stdout
    assert pub == soft


def test_kernel_generated_key_as_in_deploy_guide(mat, nginx, tmp_path):
    """docs/deploy.md steps 7-8: genpkey in the kernel, a self-signed
    certificate signed through ncr, nginx serving it, curl trusting it."""
    key = e2e.genpkey_keyfile(tmp_path / "server.key", bits=2048)
    assert e2e.is_keyfile(key)
    crt = tmp_path / "server.crt"
    e2e.openssl_ncr("req", "-new", "-x509", "-key", key, "-subj",
                    "/CN=localhost", "-addext",
                    "subjectAltName=DNS:localhost,IP:127.0.0.1", "-days", "1",
                    "-out", crt, timeout=300)
    v = e2e.openssl_stock("verify", "-CAfile", crt, crt)
    assert ": OK" in v.stdout
    n = nginx(crt, key)
    r = fetch(n, crt)
    assert r.returncode == 0, r.stderr + n.error_text()
    assert "served by nginx" in r.stdout
    assert not n.problems()


def test_tls12_ecdhe_rsa(mat, nginx):
    n = nginx(mat.server_crt, mat.server_key)
    r = fetch(n, mat.ca, "--tlsv1.2", "--tls-max", "1.2")
    assert r.returncode == 0, r.stderr + n.error_text()
    assert re.search(r"SSL connection using TLSv1\.2 / ECDHE-RSA-", r.stderr)
    assert "served by nginx" in r.stdout and "TLSv1.2" in r.stdout
    # the server's ServerKeyExchange signature, both RSA schemes
    for sigalg, kind in (("RSA+SHA256", "RSA"),
                         ("rsa_pss_rsae_sha256", "RSA-PSS")):
        s = e2e.s_client(n.port, mat.ca, "-tls1_2", "-sigalgs", sigalg)
        assert s.returncode == 0, s.stdout + s.stderr
        assert tls_util.signature(s.stdout) == (kind, "SHA256"), s.stdout
        assert "Verify return code: 0 (ok)" in s.stdout
        assert "Cipher is ECDHE-RSA-" in s.stdout
    assert not n.problems()


def test_tls13_rsa_pss(mat, nginx):
    n = nginx(mat.server_crt, mat.server_key)
    r = fetch(n, mat.ca, "--tlsv1.3")
    assert r.returncode == 0, r.stderr + n.error_text()
    assert "SSL connection using TLSv1.3 / " in r.stderr
    assert "served by nginx" in r.stdout and "TLSv1.3" in r.stdout
    s = e2e.s_client(n.port, mat.ca, "-tls1_3", "-sigalgs",
                     "rsa_pss_rsae_sha256")
    assert s.returncode == 0, s.stdout + s.stderr
    assert tls_util.signature(s.stdout) == ("RSA-PSS", "SHA256"), s.stdout
    assert "New, TLSv1.3" in s.stdout
    assert "Verify return code: 0 (ok)" in s.stdout
    assert not n.problems()


def _fds_to_device(pid):
    out = []
    for fd in os.listdir("/proc/%d/fd" % pid):
        try:
            if os.readlink("/proc/%d/fd/%s" % (pid, fd)) == "/dev/crypto":
                out.append(int(fd))
        except OSError:
            pass
    return out


def test_two_workers_200_requests(mat, nginx):
    """Two workers forked after the master loaded the key (they inherit its
    /dev/crypto descriptor) serve 200 requests on 50 connections (nginx
    closes each after 4 requests), every connection a full handshake
    signed by the kernel (no session cache, tickets or curl session reuse)."""
    per_conn, total = 4, 200
    n = nginx(mat.server_crt, mat.server_key, workers=2,
              keepalive_requests=per_conn)
    workers = n.worker_pids()
    assert len(workers) == 2 and n.master_pid() not in workers
    master_fds = _fds_to_device(n.master_pid())
    assert master_fds, "the master has no /dev/crypto descriptor"
    for w in workers:
        assert _fds_to_device(w) == master_fds
    r = e2e.curl(url(n, "/?[1-%d]" % total), mat.ca, "--resolve",
                 "localhost:%d:%s" % (n.port, e2e.HOST), "--no-sessionid",
                 "-o", "/dev/null", "-w", "%{http_code}\\n", timeout=900)
    codes = r.stdout.split()
    assert r.returncode == 0, r.stderr[-2000:] + n.error_text()
    assert codes == ["200"] * total
    assert r.stderr.count("SSL connection using") == total // per_conn
    log = n.access_log.read_text().splitlines()
    assert len(log) == total and all(" 200 " in ln for ln in log)
    served_by = {int(ln.split()[0]) for ln in log}
    # reuseport spreads the 50 connections over both workers
    assert served_by == set(workers), "not both workers served: %s" % (
        served_by,)
    assert not n.problems(), n.problems()


def test_reload_keeps_serving(mat, nginx):
    n = nginx(mat.server_crt, mat.server_key, workers=2)
    assert fetch(n, mat.ca).returncode == 0
    old = n.worker_pids()
    new = n.reload()
    assert not set(new) & set(old)
    for proto in ("--tlsv1.2", "--tlsv1.3"):
        r = fetch(n, mat.ca, proto, "--no-sessionid")
        assert r.returncode == 0, r.stderr + n.error_text()
        pid = int(re.search(r"served by nginx (\d+)", r.stdout).group(1))
        assert pid in new
    assert not n.problems(), n.problems()


# ---- failure paths ----------------------------------------------------------

def test_refuses_without_provider(mat, nginx):
    """Without OPENSSL_CONF nginx's OpenSSL has no decoder for the key file
    (docs/deploy.md's troubleshooting table names this message)."""
    n = nginx(mat.server_crt, mat.server_key, start=False,
              env=e2e.stock_env())
    assert not n.start()
    emerg = _refused(n, "No supported data to decode")
    assert any("PEM_read_bio_PrivateKey() failed" in ln for ln in emerg)


# The next ones reload the module (restored afterwards).

def _refused(n, reason):
    rc = n.wait_exit()
    text = n.error_text()
    assert rc != 0, text
    emerg = [ln for ln in text.splitlines() if "[emerg]" in ln]
    assert emerg, text
    assert any(reason in ln for ln in emerg), text
    return emerg


# module_reload before nginx: fixtures end in reverse order, so every nginx
# (holding /dev/crypto open) is stopped before the module is reloaded.
def test_refuses_key_made_under_other_master_key(mat, module_reload, nginx,
                                                 tmp_path):
    module_reload(set_master_key=False)
    assert master_key_set(bytes(range(32, 64))) == 0
    other = e2e.import_rsa_keyfile(mat.server_soft, tmp_path / "other.pem")
    module_reload()         # back to the common test master key
    n = nginx(mat.server_crt, other, start=False)
    assert not n.start()
    emerg = _refused(n, "key blob rejected: tampered or made under "
                        "another master key")
    assert any("other.pem" in ln for ln in emerg)
    # the good key file still works under the common key
    good = nginx(mat.server_crt, mat.server_key, name="good")
    assert fetch(good, mat.ca).returncode == 0


def test_refuses_without_master_key(mat, module_reload, nginx):
    module_reload(set_master_key=False)
    n = nginx(mat.server_crt, mat.server_key, start=False)
    assert not n.start()
    emerg = _refused(n, "no storage master key set in the kernel")
    assert any("server.ncr.pem" in ln for ln in emerg)


def test_master_key_is_back(mat, nginx):
    """After the failure tests the common master key is set again (the
    module_reload fixture restores it) and nginx serves."""
    rc = master_key_set()
    assert rc in (0, errno.EEXIST, errno.EBUSY, errno.EALREADY)
    n = nginx(mat.server_crt, mat.server_key)
    assert fetch(n, mat.ca).returncode == 0
