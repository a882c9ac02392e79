"""The application as the attacker, against the real module: nginx serves
TLS with an ncr key file made from a key the test knows (RSA-2048 imported
by e2e_util, P-256 imported by `ncrctl key import`); its workers run as
`nobody`, and test/attack/ncr_attack.py, run as `nobody` too, takes a
worker's /dev/crypto descriptor (pidfd_getfd), tries every ioctl path to
the key's bytes, reads both workers' memory through ptrace and makes a
core dump of one, searching everything for the key. It must find nothing.

The controls prove the search can fail a test: the same program FINDS the
key in a child of its own that holds it (--self-test) and in the memory of
an nginx that serves the same key from a plain PEM file (no ncr).

Yama's ptrace_scope is set to 0 for these tests when Yama is there (the
strongest attacker of one uid: any of its processes, not only
descendants), and put back afterwards; the workers' working directory (where
a core with core_pattern "core" goes) is writable by nobody.
"""
import os
import pathlib
import pwd
import grp
import re
import shutil
import subprocess
import tempfile
import time

import pytest

import e2e_util as e2e
from conftest import BUILD, ROOT, ensure_master_key

pytestmark = pytest.mark.skipif(not e2e.have_provider(),
                                reason="ncr.so not built")

ATTACK = ROOT / "test" / "attack" / "ncr_attack.py"
USER, GROUP = "nobody", "nogroup"
ATTEMPTS = ("[a] descriptor:", "[b] export:", "[c] wrap:",
            "[d] key-as-data:", "[e] storage-wrap:", "[h] get-info:",
            "[f] memory:", "[g] core-dump:")
YAMA = pathlib.Path("/proc/sys/kernel/yama/ptrace_scope")


@pytest.fixture(scope="module")
def attacker_env():
    """Yama scope 0 (if Yama is there) and a directory under /tmp that
    nobody can enter, holding a working directory nobody can write."""
    old = YAMA.read_text() if YAMA.exists() else None
    if old is not None:
        YAMA.write_text("0\n")
    top = pathlib.Path(tempfile.mkdtemp(prefix="ncr-attack.", dir="/tmp"))
    os.chmod(top, 0o755)
    yield top
    if old is not None:
        YAMA.write_text(old)
    shutil.rmtree(top, ignore_errors=True)


def ids():
    return pwd.getpwnam(USER).pw_uid, grp.getgrnam(GROUP).gr_gid


def readable_copy(src, top, name):
    """The known key, readable by the attacker (the tester hands it over
    only so that the program knows what to search for)."""
    dst = top / name
    shutil.copyfile(src, dst)
    uid, gid = ids()
    os.chown(dst, uid, gid)
    os.chmod(dst, 0o400)
    return dst


def workdir(top, name):
    d = top / name
    d.mkdir()
    uid, gid = ids()
    os.chown(d, uid, gid)
    os.chmod(d, 0o755)
    return d


def attack(*args, timeout=900):
    """ncr_attack.py as nobody (no supplementary groups, no provider in
    its environment); returns the CompletedProcess (text)."""
    uid, gid = ids()
    env = e2e.stock_env()
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    p = subprocess.run([e2e.PYTHON, str(ATTACK), *map(str, args)],
                       user=uid, group=gid, extra_groups=[], env=env,
                       cwd="/tmp", stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=timeout)
    print(p.stdout + p.stderr)
    return p


def start_nginx(top, name, cert, key, env=None):
    """An e2e_util.Nginx whose workers run as nobody in a working directory
    of their own (core dumps go there)."""
    wd = workdir(top, name + "-wd")
    n = e2e.Nginx(top / name, cert, key, workers=2, env=env)
    conf = n.conf.read_text()
    conf = conf.replace("worker_processes", "user %s %s;\nworking_directory "
                        "%s;\nworker_processes" % (USER, GROUP, wd), 1)
    n.conf.write_text(conf)
    assert n.start(), "nginx did not start:\n" + n.error_text()
    try:
        wait_for_workers_as_user(n)
    except BaseException:
        # a worker left behind would hold /dev/crypto for the next suites
        n.stop()
        raise
    return n, wd


def worker_uids(n):
    uids = []
    for w in n.worker_pids():
        try:
            uids.append(os.stat("/proc/%d" % w).st_uid)
        except FileNotFoundError:
            pass
    return uids


def wait_for_workers_as_user(n, timeout=60):
    """A worker is forked as root and drops to USER a moment later: wait
    for both workers to have done so."""
    uid, _ = ids()
    deadline = time.monotonic() + timeout
    while True:
        uids = worker_uids(n)
        if len(uids) == 2 and all(u == uid for u in uids):
            return
        if time.monotonic() > deadline:
            raise AssertionError("workers do not run as %s: uids %s"
                                 % (USER, uids))
        time.sleep(0.1)


def fetch(n, ca):
    return e2e.curl("https://localhost:%d/" % n.port, ca, "--resolve",
                    "localhost:%d:%s" % (n.port, e2e.HOST))


def lines_of(out, tag):
    return [ln for ln in out.splitlines() if ln.lstrip("LEAK! ").startswith(
        tag)]


def assert_clean_attack(p, n):
    out = p.stdout
    assert p.returncode == 0, out + p.stderr
    for tag in ATTEMPTS:
        assert lines_of(out, tag), "no %s line" % tag
    assert "LEAK" not in out
    # the attacker really held the workers' namespace and its key
    assert "pidfd_getfd copied the process's descriptor" in out
    keys = lines_of(out, "[a] descriptor: KEY_GET_INFO")
    assert keys and re.search(r"private key", keys[0]), keys
    for tag in ("[b] export:", "[c] wrap:", "[d] key-as-data:"):
        for ln in lines_of(out, tag):
            if "private key" in ln:
                assert "refused with" in ln, ln
    # both workers' memory was read, and the key was not there
    mem = lines_of(out, "[f] memory:")
    assert len(mem) == 2, mem
    for ln in mem:
        assert "attached" in ln and "readable mappings" in ln, ln
        assert "the key's bytes are not there" in ln, ln
    core = lines_of(out, "[g] core-dump:")
    assert len(core) == 1 and "searched: the key's bytes are not there" in \
        core[0], core
    m = re.search(r"^attacker: (\d+) attempts, 0 obtained the key", out, re.M)
    assert m and int(m.group(1)) >= 12, out
    # nginx replaced the killed worker and still serves with the kernel key
    assert fetch(n, n.ca).returncode == 0, n.error_text()


def test_self_test_finds_a_key_in_memory(attacker_env):
    """The control of the search itself: a process that holds the key is
    found out by the memory read and the core dump."""
    key = readable_copy(e2e.SERVER_SOFT_KEY, attacker_env, "self-rsa.pem")
    wd = workdir(attacker_env, "self-wd")
    p = attack("--self-test", "--key", key, "--core-dir", wd)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "the search FOUND the key" in p.stdout
    assert "memory: found; core: found" in p.stdout
    assert "KEY BYTES FOUND: d big-endian" in p.stdout


def test_ncr_rsa_key_does_not_leak(mat, attacker_env):
    """nginx with the RSA-2048 key file (imported and storage-wrapped by
    e2e_util): every attempt fails, nginx keeps serving."""
    known = readable_copy(e2e.SERVER_SOFT_KEY, attacker_env, "rsa.pem")
    n, wd = start_nginx(attacker_env, "ncr-rsa", mat.server_crt,
                        mat.server_key)
    n.ca = mat.ca
    try:
        assert fetch(n, mat.ca).returncode == 0, n.error_text()
        w = n.worker_pids()
        p = attack("--pid", w[0], "--pid", w[1], "--key", known,
                   "--core-dir", wd)
        assert_clean_attack(p, n)
    finally:
        n.stop()


def test_ncr_p256_key_imported_by_ncrctl_does_not_leak(attacker_env):
    """nginx with a P-256 key imported by `ncrctl key import`."""
    ncrctl = BUILD / "tools" / "ncrctl"
    if not ncrctl.exists():
        pytest.skip("ncrctl not built")
    ensure_master_key()
    d = attacker_env / "p256"
    d.mkdir()
    soft = d / "soft.pem"
    e2e.openssl_stock("genpkey", "-algorithm", "EC", "-pkeyopt",
                      "ec_paramgen_curve:P-256", "-out", soft)
    crt = d / "server.crt"
    e2e.openssl_stock("req", "-new", "-x509", "-key", soft, "-subj",
                      "/CN=localhost", "-addext",
                      "subjectAltName=DNS:localhost,IP:127.0.0.1",
                      "-days", "1", "-out", crt)
    keyfile = d / "server.ncr.pem"
    r = subprocess.run([str(ncrctl), "key", "import", str(soft),
                        str(keyfile)], capture_output=True, text=True,
                       timeout=300, start_new_session=True)
    assert r.returncode == 0, r.stderr
    known = readable_copy(soft, attacker_env, "p256-known.pem")
    n, wd = start_nginx(attacker_env, "ncr-p256", crt, keyfile)
    n.ca = crt
    try:
        w = n.worker_pids()
        p = attack("--pid", w[0], "--pid", w[1], "--key", known,
                   "--core-dir", wd)
        assert "first 16 bytes of priv" in p.stdout
        assert_clean_attack(p, n)
    finally:
        n.stop()


def test_control_plain_key_file_is_found(mat, attacker_env):
    """The same program against nginx serving the same RSA key from a plain
    PEM file (no provider): the memory search finds the key, and the
    program says so with exit status 1."""
    known = readable_copy(e2e.SERVER_SOFT_KEY, attacker_env, "ctl-rsa.pem")
    n, wd = start_nginx(attacker_env, "plain", mat.server_crt,
                        mat.server_soft, env=e2e.stock_env())
    try:
        w = n.worker_pids()
        p = attack("--pid", w[0], "--key", known, "--core-dir", wd)
        assert p.returncode == 1, p.stdout + p.stderr
        mem = lines_of(p.stdout, "[f] memory:")
        assert len(mem) == 1 and "KEY BYTES FOUND" in mem[0], mem
        assert "LEAK" in p.stdout
        assert re.search(r"^attacker: \d+ attempts, [1-9]\d* obtained the "
                         r"key", p.stdout, re.M), p.stdout
        # no /dev/crypto in a plain nginx: the program says where it looked
        assert "holds no /dev/crypto descriptor" in p.stdout
    finally:
        n.stop()
