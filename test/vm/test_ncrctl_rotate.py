"""`ncrctl master-key rotate` in the VM (tools/ncrctl.8, docs/deploy.md
"Rotating the master key"), with a plain store under /tmp (the VM has no
TPM): RSA and EC key files made by `ncrctl key import` and by the provider
are re-wrapped under a new key, keep everything but their blob, open after
a reload with only the new key and not with only the old one; a rotation
SIGKILLed at various points leaves every file opening (before and after a
simulated reboot, where the boot unit loads STORE and BEGINs STORE.new) and
a rerun finishes it; a damaged file is named, left as it is, and the
rotation stays unfinished (exit nonzero) until it is moved away; no master
key, a store that is not the kernel's key and bad arguments are refused
with one line."""
import base64
import errno
import os
import pathlib
import random
import signal
import subprocess
import time

import pytest

import e2e_util as e2e
from ncrio import Ncr
from pk_util import der_read
from test_ncrctl_import import ncrctl  # noqa: F401 (fixture)

EXIT = dict(ok=0, usage=2, exists=3, file_io=4, no_master=12, key_busy=9, not_key=13,
            rejected=16)
LABEL = b"NCR KEY BLOB"


def run(ncrctl, *args):
    r = subprocess.run([ncrctl, *map(str, args)], capture_output=True,
                       text=True, timeout=600, start_new_session=True)
    return r.returncode, r.stdout, r.stderr


# ---- key files ---------------------------------------------------------------

def split_keyfile(data):
    """(text before the PEM block, SPKI DER, blob, text after it)."""
    s = data.index(b"-----BEGIN " + LABEL + b"-----")
    e = data.index(b"-----END " + LABEL + b"-----", s)
    e = data.index(b"\n", e) + 1 if b"\n" in data[e:] else len(data)
    body = data[s:e].split(b"\n")[1:-2]
    der = base64.b64decode(b"".join(body))
    tag, body, end = der_read(der)
    assert tag == 0x30 and end == len(der)
    i = len(der) - len(body)                 # the SEQUENCE's contents
    _, _, i = der_read(der, i)               # version
    t, spki, j = der_read(der, i)            # SubjectPublicKeyInfo
    assert t == 0x30
    t, blob, _ = der_read(der, j)
    assert t == 0x04
    return data[:s], der[i:j], blob, data[e:]


def opens(path):
    """Whether the kernel's master key(s) open the file's blob now."""
    blob = split_keyfile(pathlib.Path(path).read_bytes())[2]
    with Ncr() as n:
        d = n.key_init()
        try:
            n.storage_unwrap(d, blob)
        except OSError as e:
            assert e.errno == errno.EBADMSG, (path, e)
            return False
    return True


def stock(*args, **kw):
    return e2e.openssl_stock(*map(str, args), **kw)


def write_store(path, key):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.write(fd, key)
    os.close(fd)


def boot(module_reload, store, ncrctl):
    """A reboot: a module reload, then what ncr-master-key.service runs,
    `ncrctl master-key boot`: STORE's key, then STORE.new's (an unfinished
    rotation) with BEGIN."""
    module_reload(set_master_key=False)
    new = pathlib.Path(str(store) + ".new")
    rc, out, err = run(ncrctl, "master-key", "boot", "--sealed",
                       str(store) + ".no-sealed-store", "--plain", store)
    assert rc == 0, (out, err)
    assert f"{store}: master key set" in out
    assert ("unfinished rotation" in out) == new.exists(), out


def only_key(module_reload, key):
    module_reload(set_master_key=False)
    with Ncr() as n:
        assert n.master_key_set(key) == 0


class World:
    """A plain store with key K1 set in the kernel, and a directory of key
    files (RSA and EC, imported and provider-made) plus a file that is no
    key file."""

    def __init__(self, ncrctl, d, module_reload, n_ec=3):
        self.ncrctl, self.module_reload = ncrctl, module_reload
        self.d = d / "keys"
        self.d.mkdir()
        self.store = d / "master.key"
        self.k1 = os.urandom(32)
        write_store(self.store, self.k1)
        only_key(module_reload, self.k1)
        soft = d / "soft"
        soft.mkdir()
        srcs = [("rsa-server.key", e2e.SERVER_SOFT_KEY),
                ("rsa-client.key", e2e.CLIENT_SOFT_KEY)]
        for i in range(n_ec):
            curve = ("P-256", "P-384")[i % 2]
            p = soft / ("ec%d.pem" % i)
            stock("genpkey", "-algorithm", "EC", "-pkeyopt",
                  "ec_paramgen_curve:" + curve, "-out", p)
            srcs.append(("ec%d-%s.key" % (i, curve), p))
        x = soft / "x25519.pem"
        stock("genpkey", "-algorithm", "X25519", "-out", x)
        srcs.append(("x25519.key", x))
        for name, src in srcs:
            rc, _, se = run(ncrctl, "key", "import", src, self.d / name)
            assert rc == 0, se
        if e2e.have_provider():
            e2e.openssl_ncr("genpkey", "-propquery", "provider=ncr",
                            "-algorithm", "EC", "-pkeyopt",
                            "ec_paramgen_curve:P-256",
                            "-out", self.d / "provider-p256.key")
        self.keys = sorted(p for p in self.d.iterdir())
        self.other = self.d / "README"
        self.other.write_text("not a key file\n")
        self.before = {p: p.read_bytes() for p in self.keys}

    def rotate(self, *extra):
        return run(self.ncrctl, "master-key", "rotate", "--store",
                   self.store, *extra, self.d)

    def all_open(self):
        return all(opens(p) for p in self.keys)

    def none_open(self):
        return not any(opens(p) for p in self.keys)

    def check_intact(self):
        """Every file still the same key file but for the blob."""
        for p in self.keys:
            pre, spki, _, post = split_keyfile(p.read_bytes())
            opre, ospki, _, opost = split_keyfile(self.before[p])
            assert (pre, spki, post) == (opre, ospki, opost), p
        assert self.other.read_text() == "not a key file\n"

    def no_temporaries(self):
        return [q.name for q in self.d.iterdir()
                if q.name.endswith(".ncr-rotate")] == [] and \
            not pathlib.Path(str(self.store) + ".new").exists() and \
            not pathlib.Path(str(self.store) + ".new.tmp").exists()


@pytest.fixture
def world(ncrctl, tmp_path, module_reload):
    return World(ncrctl, tmp_path, module_reload)


# ---- tests -------------------------------------------------------------------

def test_rotate_directory(world, tmp_path):
    w = world
    # one file with text around its block, owner and mode of its own
    odd = w.d / "ec0-P-256.key"
    odd.write_bytes(b"# kept as it is\n" + w.before[odd] + b"trailer\n")
    os.chown(odd, 1234, 5678)
    os.chmod(odd, 0o640)
    w.before[odd] = odd.read_bytes()
    assert w.all_open()
    backup = tmp_path / "backup.key"
    rc, so, se = w.rotate("--backup", backup)
    assert rc == 0, se
    assert se == ""
    lines = so.splitlines()
    for p in w.keys:
        assert "%s: re-wrapped under the new master key" % p in lines
    assert "README" not in so
    assert lines[-1].startswith("%s: master key rotated: %d key files "
                                "re-wrapped" % (w.store, len(w.keys)))
    k2 = w.store.read_bytes()
    assert len(k2) == 32 and k2 != w.k1
    assert backup.read_bytes() == k2
    assert backup.stat().st_mode & 0o7777 == 0o600
    assert w.store.stat().st_mode & 0o7777 == 0o600
    assert w.no_temporaries()
    w.check_intact()
    for p in w.keys:
        assert split_keyfile(p.read_bytes())[2] != \
            split_keyfile(w.before[p])[2]
    st = odd.stat()
    assert (st.st_uid, st.st_gid, st.st_mode & 0o7777) == (1234, 5678, 0o640)
    # the kernel ended the rotation: only the new key opens anything now
    assert w.all_open()
    # after a reload with only one key
    only_key(w.module_reload, w.k1)
    assert w.none_open()
    only_key(w.module_reload, k2)
    assert w.all_open()
    # and the keys work: an RSA signature made in the kernel verifies
    msg = tmp_path / "msg"
    msg.write_bytes(os.urandom(64))
    if e2e.have_provider():
        sig = tmp_path / "sig"
        e2e.openssl_ncr("dgst", "-sha256", "-sign", w.d / "rsa-server.key",
                        "-out", sig, msg)
        pub = tmp_path / "pub.pem"
        stock("pkey", "-in", e2e.SERVER_SOFT_KEY, "-pubout", "-out", pub)
        r = stock("dgst", "-sha256", "-verify", pub, "-signature", sig, msg,
                  check=False)
        assert r.returncode == 0 and "Verified OK" in r.stdout, r.stderr
    # a named file works the same; a second rotation from K2
    rc, so, se = run(w.ncrctl, "master-key", "rotate", "--store", w.store,
                     w.d / "x25519.key", w.d / "rsa-client.key")
    assert rc == 0, se
    assert so.count("re-wrapped under the new master key") == 2
    k3 = w.store.read_bytes()
    only_key(w.module_reload, k3)
    assert opens(w.d / "x25519.key") and opens(w.d / "rsa-client.key")
    assert not opens(w.d / "rsa-server.key")        # left under K2


def _inodes(paths):
    return [p.stat().st_ino for p in paths]


def _kill_after_first_rename(w):
    """Starts a rotation and SIGKILLs it as soon as one key file has been
    replaced (its inode changed); returns whether it was killed."""
    before = _inodes(w.keys)
    p = subprocess.Popen([w.ncrctl, "master-key", "rotate", "--store",
                          w.store, w.d], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    end = time.monotonic() + 300
    while time.monotonic() < end and p.poll() is None:
        if _inodes(w.keys) != before:
            p.send_signal(signal.SIGKILL)
            break
        time.sleep(0.002)
    return p.wait() == -signal.SIGKILL


def _kill_after(w, delay):
    p = subprocess.Popen([w.ncrctl, "master-key", "rotate", "--store",
                          w.store, w.d], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        p.wait(timeout=delay)
    except subprocess.TimeoutExpired:
        p.send_signal(signal.SIGKILL)
    return p.wait() == -signal.SIGKILL


def test_rotate_killed_then_rerun(ncrctl, tmp_path, module_reload):
    """SIGKILL after the first file was replaced, and at random times;
    each time every file still opens (now, and after a simulated reboot),
    nothing is lost, and a rerun completes the rotation."""
    w = World(ncrctl, tmp_path, module_reload, n_ec=6)
    t0 = time.monotonic()
    rc, _, se = w.rotate()
    full = time.monotonic() - t0
    assert rc == 0, se
    rng = random.Random(int.from_bytes(os.urandom(4), "big"))
    delays = [None] + [rng.uniform(0.05, full) for _ in range(4)]
    killed = []
    for delay in delays:
        old = w.store.read_bytes()
        if delay is None:
            was = _kill_after_first_rename(w)
            assert was, "the rotation ended before it could be killed"
            assert pathlib.Path(str(w.store) + ".new").exists()
            assert w.store.read_bytes() == old
        else:
            was = _kill_after(w, delay)
        killed.append((delay, was))
        w.check_intact()
        assert w.all_open(), delay          # the kernel as it was left
        boot(module_reload, w.store, w.ncrctl)
        assert w.all_open(), delay          # after a reboot
        rc, so, se = w.rotate()
        assert rc == 0, (delay, se)
        assert w.no_temporaries()
        w.check_intact()
        only_key(module_reload, w.store.read_bytes())
        assert w.all_open(), delay
        if was:
            only_key(module_reload, old)
            assert w.none_open(), delay
            only_key(module_reload, w.store.read_bytes())
    assert sum(1 for _, was in killed if was) >= 1, killed


def _damage(path):
    """The same key file with one byte of its blob changed."""
    pre, spki, blob, post = split_keyfile(path.read_bytes())
    blob = blob[:-1] + bytes([blob[-1] ^ 1])
    path.write_bytes(pre + e2e.keyfile_pem(spki, blob) + post)


def test_damaged_file_is_reported_and_left(world):
    w = world
    bad = w.d / "a-damaged.key"
    bad.write_bytes(w.before[w.keys[0]])
    _damage(bad)
    broken = w.d / "b-broken.key"
    text = w.before[w.keys[1]].replace(b"\n", b"\n*", 3)
    broken.write_bytes(text)
    bad_bytes = bad.read_bytes()
    backup = w.d.parent / "backup.key"
    rc, so, se = w.rotate("--backup", backup)
    assert rc == EXIT["rejected"], se
    errs = se.splitlines()
    assert len(errs) == 3, se
    assert str(bad) in errs[0] and "neither the old nor the new" in errs[0]
    assert str(broken) in errs[1]
    assert "rotation not finished: 2 key files failed" in errs[2]
    assert bad.read_bytes() == bad_bytes and broken.read_bytes() == text
    assert so.count("re-wrapped under the new master key") == len(w.keys)
    # unfinished: the old key still in STORE, the new one beside it, and
    # the kernel opens both kinds
    new = pathlib.Path(str(w.store) + ".new")
    assert w.store.read_bytes() == w.k1 and new.exists()
    assert w.all_open()
    w.check_intact()
    # moved away, a rerun finishes
    bad.rename(w.d.parent / bad.name)
    broken.unlink()
    k2 = new.read_bytes()
    assert backup.read_bytes() == k2
    rc, so, se = w.rotate("--backup", backup)     # the same copy: accepted
    assert rc == 0, se
    assert so.count("already under the new master key") == len(w.keys)
    assert "resuming the unfinished rotation" in so
    assert w.store.read_bytes() == k2
    assert w.no_temporaries()
    only_key(w.module_reload, k2)
    assert w.all_open()


def test_links_and_subdirectories_stop_the_rotation(world):
    """A symbolic link or a subdirectory in a DIR may lead to key files
    that END would orphan: each is named, and the rotation does not
    finish until it is gone (or named by its own path)."""
    w = world
    link = w.d / "link.key"
    link.symlink_to(w.keys[0])
    sub = w.d / "more"
    sub.mkdir()
    rc, so, se = w.rotate()
    assert rc == EXIT["usage"], se
    errs = se.splitlines()
    assert any(str(link) in e and "symbolic link" in e for e in errs), se
    assert any(str(sub) in e and "subdirectory" in e for e in errs), se
    new = pathlib.Path(str(w.store) + ".new")
    assert w.store.read_bytes() == w.k1 and new.exists()
    assert w.all_open()
    k2 = new.read_bytes()
    link.unlink()
    sub.rmdir()
    rc, so, se = w.rotate()
    assert rc == 0, se
    assert w.store.read_bytes() == k2
    assert not new.exists() and w.no_temporaries()


def test_refusals(world, module_reload):
    w = world
    # a named file that is not a key file: one line, unfinished
    rc, _, se = run(w.ncrctl, "master-key", "rotate", "--store", w.store,
                    w.other)
    assert rc == EXIT["not_key"] and "not an ncr key file" in se, se
    assert se.count("\n") == 2
    assert w.store.read_bytes() == w.k1
    # a store that is not the kernel's key (after the BEGIN above, the
    # kernel's current key is STORE.new's): another store
    other = w.d.parent / "other.key"
    write_store(other, os.urandom(32))
    rc, _, se = run(w.ncrctl, "master-key", "rotate", "--store", other, w.d)
    assert rc == EXIT["key_busy"] and "not the one in" in se, se
    assert se.count("\n") == 1
    assert not pathlib.Path(str(other) + ".new").exists()
    assert w.store.read_bytes() == w.k1
    # a backup file that holds another key is never overwritten
    rc, _, se = w.rotate("--backup", other)
    assert rc == EXIT["exists"] and "refusing to overwrite" in se, se
    assert se.count("\n") == 1
    # a missing store, bad arguments
    rc, _, se = run(w.ncrctl, "master-key", "rotate", "--store",
                    w.d.parent / "absent.key", w.d)
    assert rc == EXIT["file_io"] and se.count("\n") == 1, se
    for args in ((), ("--store",), ("--store", w.store), ("--bogus", w.d)):
        rc, _, se = run(w.ncrctl, "master-key", "rotate", *args)
        assert rc == EXIT["usage"], (args, se)
    # no master key in the kernel: one line, nothing written
    module_reload(set_master_key=False)
    for p in w.d.iterdir():
        before = p.read_bytes()
        break
    rc, so, se = w.rotate()
    assert rc == EXIT["no_master"], se
    assert se.count("\n") == 1 and "no master key is set" in se, se
    assert so == ""
    assert p.read_bytes() == before
    assert w.store.read_bytes() == w.k1
    # the unfinished rotation from the first refusal still finishes
    boot(module_reload, w.store, w.ncrctl)
    rc, _, se = w.rotate()
    assert rc == 0, se
    only_key(module_reload, w.store.read_bytes())
    assert w.all_open()
