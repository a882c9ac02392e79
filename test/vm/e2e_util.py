"""Helpers of the end-to-end suites (test_nginx.py, test_curl_mtls.py,
test_python_ssl.py) and of the demo's nginx step.

- OpenSSL environment: OPENSSL_CONF = the repository's openssl.cnf.example
  (what an administrator installs) and OPENSSL_MODULES = build/provider, so
  that unmodified programs (nginx, curl, python3) load the ncr provider.
- Key files: ncr key files ("NCR KEY BLOB" PEM) either generated in the
  kernel by `openssl genpkey` through the provider, or made from a software
  RSA key by importing it into the kernel and storage-wrapping it (fast under
  TCG, where generating RSA-2048 in the kernel is slow).
- A small PKI made by stock openssl (no provider): a CA, and certificates
  for keys whose CSR is signed through ncr.
- nginx under /tmp (the host root is read-only in the VM): config, start in
  the foreground (daemon off) in its own process group, wait until it
  serves, reload, stop; every wait is bounded.

Programs that load the provider open /dev/crypto and keep it open until they
exit, so everything that loads ncr runs in a child process: the pytest
process itself never loads the provider (suites reload the module).
"""
import base64
import os
import pathlib
import signal
import socket
import subprocess
import time

from ncrio import FLAG_DECRYPT, FLAG_SIGN, FLAG_WRAPPABLE, KEY_TYPE, Ncr
from pk_util import _tlv

ROOT = pathlib.Path(os.environ.get("NCR_ROOT",
                                   pathlib.Path(__file__).resolve().parents[2]))
BUILD = pathlib.Path(os.environ.get("NCR_BUILD", ROOT / "build"))
MODULES = BUILD / "provider"
DATA = ROOT / "test/data/e2e"
SERVER_SOFT_KEY = DATA / "server-rsa2048.pem"
CLIENT_SOFT_KEY = DATA / "client-rsa2048.pem"
CA_SOFT_KEY = DATA / "ca-p256.pem"
OPENSSL_CNF = ROOT / "openssl.cnf.example"
OPENSSL = "/usr/bin/openssl"
NGINX = "/usr/sbin/nginx"
CURL = "/usr/bin/curl"
PYTHON = "/usr/bin/python3"
KEYFILE_LABEL = "NCR KEY BLOB"
HOST = "127.0.0.1"


def have_provider():
    return (MODULES / "ncr.so").exists()


def ncr_env(extra=None):
    """Environment of a program that should use the ncr provider."""
    e = dict(os.environ)
    e["OPENSSL_CONF"] = str(OPENSSL_CNF)
    e["OPENSSL_MODULES"] = str(MODULES)
    e.pop("NCR_DEVICE", None)
    if extra:
        e.update(extra)
    return e


def stock_env():
    """Environment of a program that must not see the provider."""
    e = dict(os.environ)
    for k in ("OPENSSL_CONF", "OPENSSL_MODULES"):
        e.pop(k, None)
    return e


def run(args, env=None, input=None, timeout=120, check=True):
    """Runs a program (text output); raises with its output on failure."""
    p = subprocess.run([str(a) for a in args], env=env, input=input,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=timeout, text=True)
    if check and p.returncode != 0:
        raise AssertionError("%s failed (%d):\n%s%s" % (
            " ".join(map(str, args)), p.returncode, p.stdout, p.stderr))
    return p


def openssl_ncr(*args, **kw):
    return run([OPENSSL, *args], env=ncr_env(), **kw)


def openssl_stock(*args, **kw):
    return run([OPENSSL, *args], env=stock_env(), **kw)


# ---- ncr key files ---------------------------------------------------------

def keyfile_pem(spki_der, blob):
    """The ncr key file (provider/keyfile.h): PEM "NCR KEY BLOB" around
    SEQUENCE { INTEGER 1, SubjectPublicKeyInfo, OCTET STRING blob }."""
    der = _tlv(0x30, _tlv(0x02, b"\x01") + spki_der + _tlv(0x04, blob))
    b64 = base64.encodebytes(der).decode().replace("\n", "")
    lines = [b64[i:i + 64] for i in range(0, len(b64), 64)]
    return ("-----BEGIN %s-----\n%s\n-----END %s-----\n" % (
        KEYFILE_LABEL, "\n".join(lines), KEYFILE_LABEL)).encode()


def import_rsa_keyfile(soft_pem, out):
    """Turns a software RSA key into an ncr key file: KEY_IMPORT into the
    kernel (sign/decrypt/wrappable, not exportable), KEY_STORAGE_WRAP under
    the master key currently set, public key in clear. The descriptor used
    is closed again, so nothing stays open in this process."""
    priv = _der(["rsa", "-in", soft_pem, "-outform", "DER"])  # PKCS#1
    spki = _der(["pkey", "-in", soft_pem, "-pubout", "-outform", "DER"])
    with Ncr() as n:
        k = n.key_init()
        n.key_import(k, priv, "rsa", key_type=KEY_TYPE.PRIVATE,
                     flags=FLAG_WRAPPABLE | FLAG_SIGN | FLAG_DECRYPT)
        blob = n.storage_wrap(k)
        n.key_deinit(k)
    pathlib.Path(out).write_bytes(keyfile_pem(spki, blob))
    return pathlib.Path(out)


def _der(args):
    p = subprocess.run([OPENSSL, *map(str, args)], env=stock_env(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=60)
    if p.returncode != 0:
        raise AssertionError("openssl %s: %s" % (
            " ".join(map(str, args)), p.stderr.decode(errors="replace")))
    return p.stdout


def genpkey_keyfile(out, bits=2048, timeout=900):
    """An RSA key generated in the kernel by `openssl genpkey` through the
    provider (slow under TCG: minutes for 2048 bits)."""
    openssl_ncr("genpkey", "-propquery", "provider=ncr", "-algorithm", "RSA",
                "-pkeyopt", "rsa_keygen_bits:%d" % bits, "-out", out,
                timeout=timeout)
    return pathlib.Path(out)


def is_keyfile(path):
    return pathlib.Path(path).read_bytes().startswith(
        b"-----BEGIN %s-----" % KEYFILE_LABEL.encode())


# ---- PKI (stock openssl; only CSRs are signed through ncr) ------------------

class Pki:
    """A CA (the pre-made EC P-256 key, stock openssl) in directory d that
    issues certificates for ncr (or software) keys."""

    def __init__(self, d, ca_key=CA_SOFT_KEY):
        self.dir = pathlib.Path(d)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.ca_key = pathlib.Path(ca_key)
        self.ca_crt = self.dir / "ca.crt"
        openssl_stock("req", "-new", "-x509", "-key", self.ca_key,
                      "-subj", "/CN=ncr test CA", "-days", "2",
                      "-addext", "basicConstraints=critical,CA:TRUE",
                      "-addext", "keyUsage=critical,keyCertSign,cRLSign",
                      "-out", self.ca_crt)
        self._serial = 1

    def issue(self, key, name, cn, server=True, ncr=True):
        """Certificate for key: the CSR is made (and signed) with the key's
        provider, the certificate by the CA with stock openssl."""
        csr = self.dir / (name + ".csr")
        crt = self.dir / (name + ".crt")
        ext = self.dir / (name + ".ext")
        if server:
            ext.write_text("basicConstraints=CA:FALSE\n"
                           "keyUsage=critical,digitalSignature,"
                           "keyEncipherment\n"
                           "extendedKeyUsage=serverAuth\n"
                           "subjectAltName=IP:127.0.0.1,DNS:localhost\n")
        else:
            ext.write_text("basicConstraints=CA:FALSE\n"
                           "keyUsage=critical,digitalSignature\n"
                           "extendedKeyUsage=clientAuth\n")
        req = openssl_ncr if ncr else openssl_stock
        req("req", "-new", "-key", key, "-subj", "/CN=" + cn, "-out", csr,
            timeout=300)
        self._serial += 1
        openssl_stock("x509", "-req", "-in", csr, "-CA", self.ca_crt,
                      "-CAkey", self.ca_key, "-set_serial",
                      str(self._serial), "-days", "2", "-extfile", ext,
                      "-out", crt)
        return crt


class Material:
    """What every end-to-end test needs, made once per pytest process under
    /tmp/ncr-e2e: ncr key files for the server and client keys (imported
    under the common test master key), the CA and the certificates."""

    def __init__(self, d="/tmp/ncr-e2e"):
        from conftest import ensure_master_key
        self.dir = pathlib.Path(d)
        self.dir.mkdir(parents=True, exist_ok=True)
        ensure_master_key()
        self.server_soft = SERVER_SOFT_KEY
        self.client_soft = CLIENT_SOFT_KEY
        self.server_key = import_rsa_keyfile(SERVER_SOFT_KEY,
                                             self.dir / "server.ncr.pem")
        self.client_key = import_rsa_keyfile(CLIENT_SOFT_KEY,
                                             self.dir / "client.ncr.pem")
        self.pki = Pki(self.dir / "pki")
        self.ca = self.pki.ca_crt
        # The certificates certify the public keys, which the key files
        # share with the software keys they were imported from; the CSRs
        # are made with stock openssl so that the fixtures do not depend on
        # what is under test (test_nginx checks a CSR signed through ncr).
        self.server_crt = self.pki.issue(SERVER_SOFT_KEY, "server",
                                         "localhost", server=True, ncr=False)
        self.client_crt = self.pki.issue(CLIENT_SOFT_KEY, "client",
                                         "ncr client", server=False,
                                         ncr=False)


_MATERIAL = []


def material():
    if not _MATERIAL:
        _MATERIAL.append(Material())
    return _MATERIAL[0]


# ---- nginx -----------------------------------------------------------------

def free_port():
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def wait_port(port, proc=None, timeout=60):
    """Waits until HOST:port accepts connections; False if proc exits or
    time runs out."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc is not None and proc.poll() is not None:
            return False
        try:
            with socket.create_connection((HOST, port), timeout=2):
                return True
        except OSError:
            time.sleep(0.2)
    return False


class Nginx:
    """One nginx instance under directory d (prefix), listening on
    127.0.0.1:port with TLS, serving fixed text. Its master runs in the
    foreground (daemon off) in a new session so that stop() can end the
    master and its workers."""

    def __init__(self, d, cert, key, workers=2, client_ca=None,
                 env=None, port=None, keepalive_requests=100):
        self.dir = pathlib.Path(d)
        self.dir.mkdir(parents=True, exist_ok=True)
        for sub in ("logs", "tmp", "html"):
            (self.dir / sub).mkdir(exist_ok=True)
        os.chmod(self.dir, 0o755)
        self.conf = self.dir / "nginx.conf"
        self.error_log = self.dir / "logs" / "error.log"
        self.access_log = self.dir / "logs" / "access.log"
        self.pid_file = self.dir / "logs" / "nginx.pid"
        self.stderr_log = self.dir / "logs" / "stderr.log"
        self.port = port or free_port()
        self.env = env if env is not None else ncr_env()
        self.proc = None
        self.keepalive_requests = keepalive_requests
        self.workers = workers
        self.write_conf(cert, key, workers, client_ca)

    def write_conf(self, cert, key, workers=2, client_ca=None):
        d = self.dir
        mtls = ""
        if client_ca:
            mtls = ("        ssl_client_certificate %s;\n"
                    "        ssl_verify_client on;\n"
                    "        ssl_verify_depth 2;\n" % client_ca)
        self.conf.write_text(f"""\
# generated by test/vm/e2e_util.py
worker_processes {workers};
daemon off;
master_process on;
pid {self.pid_file};
error_log {self.error_log} info;
# the workers need no OpenSSL configuration of their own (the master loaded
# it before forking) but keep it as docs/deploy.md recommends
env OPENSSL_CONF;
env OPENSSL_MODULES;
events {{
    worker_connections 64;
}}
http {{
    log_format e2e '$pid $ssl_protocol $ssl_cipher $status '
                   '"$ssl_client_verify" "$ssl_client_s_dn"';
    access_log {self.access_log} e2e;
    keepalive_requests {self.keepalive_requests};
    client_body_temp_path {d}/tmp/body;
    proxy_temp_path {d}/tmp/proxy;
    fastcgi_temp_path {d}/tmp/fastcgi;
    uwsgi_temp_path {d}/tmp/uwsgi;
    scgi_temp_path {d}/tmp/scgi;
    server {{
        # reuseport: the kernel spreads connections over the workers
        listen {HOST}:{self.port} ssl reuseport;
        server_name localhost;
        ssl_certificate {cert};
        ssl_certificate_key {key};
        ssl_protocols TLSv1.2 TLSv1.3;
        # full handshakes only: every connection signs with the kernel key
        ssl_session_cache off;
        ssl_session_tickets off;
{mtls}        location / {{
            default_type text/plain;
            return 200 "served by nginx $pid over $ssl_protocol\\n";
        }}
        location /client {{
            default_type text/plain;
            return 200 "client $ssl_client_verify $ssl_client_s_dn\\n";
        }}
    }}
}}
""")

    def args(self, *extra):
        return [NGINX, "-p", str(self.dir), "-c", str(self.conf),
                "-e", str(self.error_log), *extra]

    def test_config(self, timeout=300):
        return run(self.args("-t"), env=self.env, timeout=timeout,
                   check=False)

    def start(self, timeout=300):
        """Starts nginx; returns True once it accepts connections, False if
        it exited (see error_text())."""
        # stderr to a file, not a pipe nobody drains
        with open(self.stderr_log, "wb") as err:
            self.proc = subprocess.Popen(self.args(), env=self.env,
                                         stdout=subprocess.DEVNULL,
                                         stderr=err, start_new_session=True)
        if not wait_port(self.port, self.proc, timeout):
            return False
        # the master listens before it forks: wait for all the workers
        end = time.monotonic() + timeout
        while len(self.worker_pids()) < self.workers:
            if self.proc.poll() is not None or time.monotonic() > end:
                return False
            time.sleep(0.2)
        return True

    def wait_exit(self, timeout=300):
        """For a start that must fail: nginx's exit status."""
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.stop()
            raise AssertionError("nginx did not exit: " + self.error_text())

    def error_text(self):
        t = ""
        for f in (self.error_log, self.stderr_log):
            if f.exists():
                t += f.read_text(errors="replace")
        return t

    def problems(self):
        """Error log lines of level error or worse."""
        return [ln for ln in self.error_text().splitlines()
                if any(" [%s] " % lv in ln for lv in
                       ("error", "crit", "alert", "emerg"))]

    def master_pid(self):
        return self.proc.pid

    def worker_pids(self):
        """PIDs of the master's children (the workers)."""
        kids = []
        for p in pathlib.Path("/proc").iterdir():
            if not p.name.isdigit():
                continue
            try:
                stat = (p / "stat").read_text()
            except OSError:
                continue
            # pid (comm) state ppid ...
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[1]) == self.proc.pid:
                kids.append(int(p.name))
        return sorted(kids)

    def reload(self, timeout=300):
        """`nginx -s reload`, then waits until the old workers are gone
        and the new ones are up. Returns the new worker PIDs."""
        old = set(self.worker_pids())
        run(self.args("-s", "reload"), env=self.env, timeout=timeout)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            now = set(self.worker_pids())
            if now and not (now & old):
                return sorted(now)
            if self.proc.poll() is not None:
                break
            time.sleep(0.3)
        raise AssertionError("reload did not replace the workers: " +
                             self.error_text())

    def stop(self, timeout=30):
        """Fast stop: SIGTERM to the master, then SIGKILL to its process
        group (master and workers) whatever is left."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            try:
                os.kill(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=timeout)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass


# ---- clients -----------------------------------------------------------------

def curl(url, ca, *opts, env=None, timeout=120):
    """curl -v (stock environment unless env is given); returns the
    CompletedProcess (body on stdout, handshake details on stderr)."""
    return run([CURL, "-sS", "-v", "--max-time", str(timeout),
                "--cacert", ca, *opts, url],
               env=env if env is not None else stock_env(),
               timeout=timeout + 10, check=False)


def s_client(port, ca, *opts, env=None, timeout=120):
    """openssl s_client (stock unless env is given) that connects, sends
    an HTTP request and prints the handshake summary."""
    return run([OPENSSL, "s_client", "-connect", "%s:%d" % (HOST, port),
                "-servername", "localhost", "-CAfile", ca,
                "-verify_return_error", "-ign_eof", *opts],
               env=env if env is not None else stock_env(),
               input="GET / HTTP/1.0\r\nHost: localhost\r\n\r\n",
               timeout=timeout, check=False)
