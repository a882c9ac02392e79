"""Python's ssl module (Debian's /usr/bin/python3) with kernel-held keys:
as a client of nginx (server key in the kernel; and its own client key in
the kernel for mutual TLS), and as a server whose load_cert_chain() reads
an ncr key file because OPENSSL_CONF names the provider. The Python code
runs in child processes: a process that loads ncr keeps /dev/crypto open
until it exits (the pytest process must not, other suites reload the
module). Loopback only; bounded waits; children killed at the end."""
import select
import subprocess
import time

import pytest

import e2e_util as e2e
import tls_util

pytestmark = pytest.mark.skipif(not e2e.have_provider(),
                                reason="ncr.so not built")

CLIENT = r"""
import socket, ssl, sys
port, ca, ver = int(sys.argv[1]), sys.argv[2], sys.argv[3]
ctx = ssl.create_default_context(cafile=ca)
if ver == "1.2":
    ctx.maximum_version = ssl.TLSVersion.TLSv1_2
elif ver == "1.3":
    ctx.minimum_version = ssl.TLSVersion.TLSv1_3
if len(sys.argv) > 5:
    ctx.load_cert_chain(sys.argv[4], sys.argv[5])
path = "/client" if len(sys.argv) > 5 else "/"
with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
    with ctx.wrap_socket(s, server_hostname="localhost") as t:
        t.sendall(b"GET " + path.encode() + b" HTTP/1.0\r\nHost: localhost\r\n\r\n")
        data = b""
        while True:
            b = t.recv(4096)
            if not b:
                break
            data += b
        print(t.version(), t.cipher()[0])
        print(data.decode().split("\r\n\r\n", 1)[-1].strip())
"""

SERVER = r"""
import socket, ssl, sys
cert, key, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
try:
    ctx.load_cert_chain(cert, key)
except ssl.SSLError as e:
    print("LOAD-ERROR", e, flush=True)
    sys.exit(3)
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(4)
s.settimeout(120)
print("PORT", s.getsockname()[1], flush=True)
for _ in range(count):
    c, _ = s.accept()
    c.settimeout(120)
    try:
        t = ctx.wrap_socket(c, server_side=True)
    except (ssl.SSLError, OSError) as e:
        print("HANDSHAKE-ERROR", e, flush=True)
        c.close()
        continue
    t.recv(4096)
    body = "python %s %s\n" % (t.version(), t.cipher()[0])
    t.sendall(("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n"
               "Content-Length: %d\r\n\r\n%s" % (len(body), body)).encode())
    print("SERVED", t.version(), t.cipher()[0], flush=True)
    try:
        t.unwrap()          # close_notify, so clients see a clean end
    except (ssl.SSLError, OSError):
        pass
    t.close()
"""


@pytest.fixture
def nginx(mat, tmp_path):
    started = []

    def make(**kw):
        n = e2e.Nginx(tmp_path / ("nginx%d" % len(started)), mat.server_crt,
                      mat.server_key, workers=1, **kw)
        started.append(n)
        assert n.start(), "nginx did not start:\n" + n.error_text()
        return n

    yield make
    for n in started:
        n.stop()


def py_client(port, ca, ver, cert=None, key=None, env=None):
    args = [e2e.PYTHON, "-c", CLIENT, str(port), str(ca), ver]
    if cert:
        args += [str(cert), str(key)]
    return e2e.run(args, env=env or e2e.stock_env(), timeout=180,
                   check=False)


@pytest.mark.parametrize("ver", ["1.2", "1.3"])
def test_python_client_to_nginx(mat, nginx, ver):
    n = nginx()
    r = py_client(n.port, mat.ca, ver)
    assert r.returncode == 0, r.stderr + n.error_text()
    first, body = r.stdout.splitlines()[:2]
    assert first.startswith("TLSv" + ver + " ")
    if ver == "1.2":
        assert " ECDHE-RSA-" in first
    assert body.startswith("served by nginx") and ("TLSv" + ver) in body


def test_python_client_key_in_kernel(mat, nginx):
    """Mutual TLS with the client key in the kernel: load_cert_chain() of
    the client's ncr key file under OPENSSL_CONF."""
    n = nginx(client_ca=mat.ca)
    r = py_client(n.port, mat.ca, "any", mat.client_crt, mat.client_key,
                  env=e2e.ncr_env())
    assert r.returncode == 0, r.stderr + n.error_text()
    assert r.stdout.splitlines()[1] == "client SUCCESS CN=ncr client"


class PyServer:
    def __init__(self, cert, key, count, env):
        self.proc = subprocess.Popen(
            [e2e.PYTHON, "-c", SERVER, str(cert), str(key), str(count)],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, start_new_session=True)
        self.lines = []

    def line(self, timeout=120):
        """Next stdout line, or None at EOF / after timeout."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            r, _, _ = select.select([self.proc.stdout], [], [],
                                    max(0, end - time.monotonic()))
            if r:
                ln = self.proc.stdout.readline()
                if not ln:
                    return None
                self.lines.append(ln.strip())
                return ln.strip()
        return None

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
        try:
            out, err = self.proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            out, err = "", ""
        return err


@pytest.fixture
def pyserver():
    started = []

    def make(cert, key, count, env):
        s = PyServer(cert, key, count, env)
        started.append(s)
        return s

    yield make
    for s in started:
        s.stop()


def test_python_server_key_in_kernel(mat, pyserver):
    s = pyserver(mat.server_crt, mat.server_key, 3, e2e.ncr_env())
    first = s.line(timeout=300)
    assert first and first.startswith("PORT "), (first, s.stop())
    port = int(first.split()[1])
    resolve = ("--resolve", "localhost:%d:%s" % (port, e2e.HOST))
    url = "https://localhost:%d/" % port

    r = e2e.curl(url, mat.ca, *resolve, "--tlsv1.2", "--tls-max", "1.2")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("python TLSv1.2 ECDHE-RSA-")
    assert s.line().startswith("SERVED TLSv1.2 ECDHE-RSA-")

    r = e2e.curl(url, mat.ca, *resolve, "--tlsv1.3")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("python TLSv1.3 ")
    assert s.line().startswith("SERVED TLSv1.3 ")

    c = e2e.s_client(port, mat.ca, "-tls1_3", "-sigalgs",
                     "rsa_pss_rsae_sha256")
    assert c.returncode == 0, c.stdout + c.stderr
    assert tls_util.signature(c.stdout)[0] == "RSA-PSS", c.stdout
    assert "Verify return code: 0 (ok)" in c.stdout
    assert s.line().startswith("SERVED TLSv1.3 ")
    assert s.proc.wait(timeout=60) == 0
    assert not any("ERROR" in ln for ln in s.lines), s.lines


def test_python_server_without_provider_cannot_load(mat, pyserver):
    """Control: without OPENSSL_CONF Python's OpenSSL cannot read the key
    file (it is not a private key)."""
    s = pyserver(mat.server_crt, mat.server_key, 1, e2e.stock_env())
    first = s.line(timeout=120)
    assert first and first.startswith("LOAD-ERROR"), (first, s.stop())
    assert s.proc.wait(timeout=60) == 3
