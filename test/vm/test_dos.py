"""Denial of service, tried as an attacker (beside test_isolation.py): an
unprivileged user starts the longest operations at the largest sizes and is
killed, or acts through the subordinate uids of its user namespaces to get
more than its one quota, or pins more kernel memory than it may.

  - SIGKILL ends a task inside each long operation within KILL_BOUND
    seconds under emulation; the key object it was filling is left empty
    and the module keeps working.  (RSA import computes no power, 0.02 s
    at 16384 bits; EC operations take milliseconds: nothing to interrupt.
    DH derivation needs a real 16384-bit safe prime, which no test can
    check under emulation; it shares the exponentiation of generation.)
  - Objects made in user namespaces are charged to the user who owns the
    outermost one: 8 uids in sibling and nested namespaces share a quota.
  - max_bytes_per_user refuses (EDQUOT) the key that would cross it and
    leaves that key empty; root's own use goes on meanwhile.

The module's parameters are changed for a test and restored after it.
"""
import contextlib
import ctypes
import errno
import mmap
import os
import select
import signal
import time
import traceback

import pytest

import pk_util
from conftest import _need_device
from ncrio import (ATTR, FLAG_SIGN, KEY_TYPE, OP, Ncr, errno_of, key_type,
                   nla, session_input_data, session_once_s,
                   session_output_buffer)
from pk_util import _int, _seq, _tlv

PARAMS = "/sys/module/ncr/parameters/"
KILL_BOUND = 1.0        # seconds from SIGKILL to the task's end
RUNNING = 2.0           # seconds an operation runs before the kill
HANG_BOUND = 120.0      # a task not gone by then is reported as hung
RSA_PKCS1_V1_5 = 0

_libc = ctypes.CDLL(None, use_errno=True)
CLONE_NEWUSER = 0x10000000
PR_SET_DUMPABLE = 4


@pytest.fixture(autouse=True)
def _device():
    _need_device()


@contextlib.contextmanager
def module_params(**values):
    saved = {}
    try:
        for name, value in values.items():
            with open(PARAMS + name) as f:
                saved[name] = f.read().strip()
            with open(PARAMS + name, "w") as f:
                f.write(str(value))
        yield
    finally:
        for name, value in saved.items():
            with open(PARAMS + name, "w") as f:
                f.write(value)


def fork(fn, *args):
    """Runs fn(*args) in a child; exit status 0 if it returned, 1 if it
    raised (the traceback on stderr)."""
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            fn(*args)
            code = 0
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(code)
    return pid


def reap(pid):
    _, st = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(st)


def wait_gone(pid, timeout):
    """Reaps pid if it ends within timeout seconds: its exit code, or None
    if it still runs."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        done, st = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(st)
        time.sleep(0.01)
    return None


def drop_to(uid):
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)


def read_byte(fd, timeout):
    r, _, _ = select.select([fd], [], [], timeout)
    return os.read(fd, 1) if r else None


def read_line(fd, timeout, what):
    """One newline-terminated report from a child, each byte within
    timeout seconds; fails with what went wrong otherwise."""
    line = b""
    while not line.endswith(b"\n"):
        c = read_byte(fd, timeout)
        assert c, what
        line += c
    return line


# ---- SIGKILL inside the long operations ---------------------------------

def _victim(n, prepare, op, w):
    drop_to(4240)
    arg = prepare(n)
    os.write(w, b"R")
    while True:
        op(n, arg)
        os.write(w, b"D")


def kill_inside(n, prepare, op, running, prepare_timeout=900,
                give_up=300):
    """Forks an unprivileged task sharing namespace n that runs prepare(n)
    and then op(n, prepared) in a loop; SIGKILLs it once an op has run for
    `running` seconds (ops that end sooner, e.g. a lucky prime search, are
    let go).  Returns the seconds from the kill to the task's end."""
    r, w = os.pipe()
    pid = fork(_victim, n, prepare, op, w)
    os.close(w)
    try:
        ready = read_byte(r, prepare_timeout)
        assert ready == b"R", "the task did not get ready (%r)" % ready
        start = last = time.monotonic()
        while True:
            left = max(0.0, last + running - time.monotonic())
            done = read_byte(r, left)
            if done is None:
                break               # the op under way has run long enough
            assert done == b"D", ("the op failed before the kill "
                                  "(traceback above)")
            last = time.monotonic()
            assert last - start < give_up, (
                "every op ends within %.1f s: too short to show anything"
                % running)
        t0 = time.monotonic()
        os.kill(pid, signal.SIGKILL)
        gone = wait_gone(pid, HANG_BOUND) is not None
        dt = time.monotonic() - t0
        assert gone, "the task still runs %.0f s after SIGKILL" % dt
        pid = None
    finally:
        if pid:
            os.kill(pid, signal.SIGKILL)
            wait_gone(pid, HANG_BOUND)
        os.close(r)
    return dt


def check_killed(n, prepare, op, what, empty=None, running=RUNNING):
    dt = kill_inside(n, prepare, op, running)
    print("%s: the task ended %.3f s after SIGKILL" % (what, dt))
    assert dt < KILL_BOUND, "%s: %.2f s from SIGKILL to exit" % (what, dt)
    if empty is not None:
        assert key_type(n, empty) == KEY_TYPE.INVALID
    # the module still works, for the namespace and for a fresh one
    k = n.key_init()
    n.key_import(k, bytes(16), "cbc(aes)", flags=0)
    with Ncr() as m:
        m.key_generate(m.key_init(), "cbc(aes)", 128)


def fake_prime(bits):
    """An odd number of `bits` bits, p = 3 mod 4 (so q = (p - 1) / 2 is odd)
    with no factor below 1000: it passes every cheap check, and refusing it
    takes a full-size modular exponentiation (g^q mod p)."""
    small = 1
    for f in range(3, 1000, 2):
        small *= f
    while True:
        p = int.from_bytes(os.urandom(bits // 8), "big")
        p |= (1 << (bits - 1)) | 3
        if _gcd(p, small) == 1:
            return p


def _gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def dh_pkcs8(p, g, x):
    oid = bytes.fromhex("06092a864886f70d010301")
    return _seq(_int(0), _seq(oid, _seq(_int(p), _int(g))),
                _tlv(0x04, _int(x)))


def test_kill_dh_import_16384(n):
    """A DH private key over a 16384-bit p: the group is checked (g^q mod p,
    then primality) before the public value is computed."""
    k = n.key_init()
    der = dh_pkcs8(fake_prime(16384), 4, int.from_bytes(os.urandom(64), "big"))

    def op(m, _):
        m.key_import(k, der, "dh", key_type=KEY_TYPE.PRIVATE)
    check_killed(n, lambda m: None, op, "DH-16384 import", empty=k)


def test_kill_dh_generate_16384(n):
    k, pub = n.key_init(), n.key_init()
    p = fake_prime(16384).to_bytes(2048, "big")

    def op(m, _):
        m.key_generate_pair(k, pub, "dh", DH_PRIME=p, DH_BASE=b"\x04")
    check_killed(n, lambda m: None, op, "DH-16384 generate", empty=k)


def test_kill_rsa_generate_16384(n):
    k, pub = n.key_init(), n.key_init()

    def op(m, _):
        m.key_generate_pair(k, pub, "rsa", RSA_MODULUS_BITS=16384)
    check_killed(n, lambda m: None, op, "RSA-16384 generate", empty=k)


def test_kill_dsa_generate_3072(n):
    k, pub = n.key_init(), n.key_init()

    def op(m, _):
        m.key_generate_pair(k, pub, "dsa", DSA_P_BITS=3072, DSA_Q_BITS=256)
    check_killed(n, lambda m: None, op, "DSA-3072/256 generate", empty=k)


def test_kill_long_cipher_update(n):
    """One SESSION_ONCE over 512 MiB, in place: the chunks go between the
    caller's pinned pages (driver/cipher.c), and the task still ends at
    once when killed, every page unpinned (the module unloads afterwards)."""
    size = 512 << 20

    def prepare(m):
        k = m.key_init()
        m.key_import(k, bytes(16), "ctr(aes)", flags=0)
        buf = mmap.mmap(-1, size)
        addr = ctypes.addressof(ctypes.c_char.from_buffer(buf))
        return k, buf, addr

    def op(m, prepared):
        k, _, addr = prepared
        rs = ctypes.c_size_t(0)
        a = nla(ATTR.UPDATE_INPUT_DATA, bytes(session_input_data(addr, size)))
        a += nla(ATTR.UPDATE_OUTPUT_BUFFER, bytes(session_output_buffer(
            addr, size, ctypes.addressof(rs))))
        a += m.attrs(ALGORITHM="ctr(aes)", KEY=k, IV=bytes(16))
        m.call("SESSION_ONCE", session_once_s(op=OP.ENCRYPT), a)
        assert rs.value == size
    check_killed(n, prepare, op, "AES-CTR over 512 MiB")


def _rsa16384():
    return pk_util.keyfiles("rsa16384")


def test_kill_rsa_sign_16384(n):
    kf = _rsa16384()

    def prepare(m):
        return pk_util.import_key(m, kf, flags=FLAG_SIGN)

    def op(m, key):
        m.session_once(OP.SIGN, "rsa", key=key, data=b"\x01" * 32,
                       final_out_size=kf.k,
                       RSA_ENCODING_METHOD=RSA_PKCS1_V1_5,
                       SIGNATURE_HASH_ALGORITHM="sha256")
    # about 2 s under emulation: killed early, an op that ignored the
    # signal would end well past KILL_BOUND
    check_killed(n, prepare, op, "RSA-16384 sign", running=0.3)


# ---- one quota across user namespaces -------------------------------------

def write_maps(pid, outside, count=65536):
    """Maps uids and gids 0..count-1 of pid's namespace to outside.. in the
    writer's."""
    for f in ("uid_map", "gid_map"):
        with open("/proc/%d/%s" % (pid, f), "w") as m:
            m.write("0 %d %d" % (outside, count))


def enter_namespace(ready, go):
    """unshare(CLONE_NEWUSER), tell the mapper (ready), wait until it has
    written the maps (go), become the namespace's root."""
    if _libc.unshare(CLONE_NEWUSER):
        e = ctypes.get_errno()
        raise OSError(e, "unshare(CLONE_NEWUSER): " + os.strerror(e))
    # a task whose credentials changed is not dumpable: its /proc files
    # would be root's, and its maps writable by root only
    _libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)
    os.write(ready, b"U")
    assert os.read(go, 1) == b"M", "no map"
    os.setresgid(0, 0, 0)
    os.setresuid(0, 0, 0)


def nested_namespace(outside, count, then, *args):
    """Forks a child that enters a user namespace nested in this one,
    mapped by this task (0..count-1 -> outside..), and runs then(*args)
    as its root."""
    go_r, go_w = os.pipe()
    up_r, up_w = os.pipe()

    def child():
        enter_namespace(up_w, go_r)
        then(*args)
    pid = fork(child)
    assert read_byte(up_r, 60) == b"U", "unshare failed"
    write_maps(pid, outside, count)
    os.write(go_w, b"M")
    for fd in (go_r, go_w, up_r, up_w):
        os.close(fd)
    return pid


def holder(uid, report, release):
    """As uid: makes key objects until refused; reports "uid count errno"
    and keeps them until release reaches EOF."""
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    n, keys, err = Ncr(), 0, 0
    while keys < 10000:
        try:
            n.key_init()
            keys += 1
        except OSError as e:
            err = e.errno
            break
    os.write(report, b"%d %d %d\n" % (uid, keys, err))
    os.read(release, 1)


def holders(uids, report, release, nested=None):
    """In a namespace: one holder per uid, and optionally a nested
    namespace (mapped to uid 1000 here) running nested's holders."""
    pids = [fork(holder, u, report, release) for u in uids]
    if nested:
        pids.append(nested_namespace(1000, 1000, holders, nested, report,
                                     release))
    assert all(reap(p) == 0 for p in pids)


def _try_unshare(w):
    drop_to(4242)
    err = 0 if _libc.unshare(CLONE_NEWUSER) == 0 else ctypes.get_errno()
    os.write(w, b"%d" % err)


def unprivileged_unshare_errno():
    """What unshare(CLONE_NEWUSER) gives an unprivileged user here."""
    r, w = os.pipe()
    pid = fork(_try_unshare, w)
    os.close(w)
    try:
        got = read_byte(r, 60) or b""
        got += os.read(r, 16)
    finally:
        os.close(r)
        reap(pid)
    return int(got or -1)


def test_user_namespaces_share_one_quota():
    """User 4242 makes two sibling user namespaces (mapped to 100000.. and
    300000.., as root maps a user's subordinate uids) and a third nested in
    the first; 8 uids in them each make keys until refused.  All are the
    one user's: together they get the quota, no more."""
    err = unprivileged_unshare_errno()
    if err in (errno.EINVAL, errno.EPERM, errno.ENOSPC):
        # no user namespaces (CONFIG_USER_NS), or none for unprivileged
        # users: no subordinate uid can multiply the quota here
        pytest.skip("unprivileged user namespaces unavailable in this "
                    "kernel: %s" % os.strerror(err))
    assert err == 0, "unshare(CLONE_NEWUSER): %s" % os.strerror(err)
    quota = 24
    report_r, report_w = os.pipe()
    release_r, release_w = os.pipe()

    def user():
        for fd in (report_r, release_w, map_req_r, map_done_w):
            os.close(fd)
        drop_to(4242)
        a = new_namespace_unpriv(100000, [1, 2, 3], [1, 2])
        b = new_namespace_unpriv(300000, [1, 2, 3], None)
        assert reap(a) == 0 and reap(b) == 0

    def new_namespace_unpriv(outside, uids, nested):
        # the maps are written by root (the test's parent), as newuidmap
        # does from /etc/subuid; this task stays unprivileged
        go_r, go_w = os.pipe()
        up_r, up_w = os.pipe()

        def child():
            enter_namespace(up_w, go_r)
            holders(uids, report_w, release_r, nested)
        pid = fork(child)
        assert read_byte(up_r, 60) == b"U", "unshare failed"
        os.write(map_req_w, b"%d %d\n" % (pid, outside))
        assert read_byte(map_done_r, 60) == b"M"
        os.write(go_w, b"M")
        return pid

    map_req_r, map_req_w = os.pipe()
    map_done_r, map_done_w = os.pipe()
    with module_params(max_keys_per_user=quota):
        pid = fork(user)
        for fd in (report_w, release_r, map_req_w, map_done_r):
            os.close(fd)
        try:
            for _ in range(2):
                line = read_line(map_req_r, 120,
                                 "the user's namespace did not come up")
                child, outside = map(int, line.split())
                write_maps(child, outside)
                os.write(map_done_w, b"M")
            results = []
            buf = b""
            while len(results) < 8:
                c = read_byte(report_r, 300)
                assert c, "holders reported %r" % results
                buf += c
                if c == b"\n":
                    results.append(tuple(map(int, buf.split())))
                    buf = b""
            # the user is at its quota; root has its own
            with Ncr() as m:
                for _ in range(quota):
                    m.key_init()
        finally:
            os.close(release_w)     # the holders let go
            status = wait_gone(pid, HANG_BOUND)
    assert status == 0, "the user's task ended with %r" % status
    total = sum(r[1] for r in results)
    print("keys per uid:", results)
    assert total == quota, results
    assert all(r[2] == errno.EMFILE for r in results), results


# ---- the bytes a user may pin -----------------------------------------------

def test_byte_limit_refuses_crossing_key():
    """max_bytes_per_user, set low: an unprivileged user's RSA-2048 imports
    stop with EDQUOT, the refused key is left empty, freeing one lets the
    next in; root imports meanwhile."""
    kf = pk_util.keyfiles("rsa2048")
    limit = 64 << 10
    report_r, report_w = os.pipe()
    release_r, release_w = os.pipe()

    def user():
        os.close(report_r)
        os.close(release_w)     # else release_r never reaches EOF
        drop_to(4243)
        n, keys = Ncr(), []
        while len(keys) < 100:
            k = n.key_init()
            err = errno_of(n.key_import, k, kf.priv_der, "rsa",
                           key_type=KEY_TYPE.PRIVATE, flags=FLAG_SIGN)
            if err:
                break
            keys.append(k)
        empty = key_type(n, k) == KEY_TYPE.INVALID
        n.key_deinit(keys.pop())
        again = errno_of(n.key_import, k, kf.priv_der, "rsa",
                         key_type=KEY_TYPE.PRIVATE, flags=FLAG_SIGN)
        os.write(report_w, b"%d %d %d %d\n" % (len(keys) + 1, err, empty,
                                               again))
        os.read(release_r, 1)

    with module_params(max_bytes_per_user=limit):
        pid = fork(user)
        os.close(report_w)
        os.close(release_r)
        line = read_line(report_r, 300, "the user's task ended early")
        loaded, err, empty, again = map(int, line.split())
        with Ncr() as m:
            for _ in range(3):
                pk_util.import_key(m, kf, flags=FLAG_SIGN)
        os.close(release_w)
        assert reap(pid) == 0
    print("RSA-2048 keys under %d bytes: %d" % (limit, loaded))
    assert err == errno.EDQUOT
    assert empty
    assert again == 0
    # each key is charged at least its modulus, at most a few times it
    assert limit // (2048 * 4) <= loaded <= limit // 2048


def test_byte_limit_refuses_empty_key():
    """Below the size of an empty key object, KEY_INIT itself is refused
    with EDQUOT, and nothing stays charged: once the limit is back, the
    same task's next KEY_INIT works."""
    r, w = os.pipe()

    def user():
        os.close(r)
        drop_to(4244)
        m = Ncr()
        err = errno_of(m.key_init)
        os.write(w, b"%d\n" % err)
        assert os.read(go_r, 1) == b"G"
        m.key_init()

    go_r, go_w = os.pipe()
    with module_params(max_bytes_per_user=64):
        pid = fork(user)
        os.close(w)
        line = read_line(r, 120, "the user's task ended early")
    os.write(go_w, b"G")                # limit restored: the user's works
    status = wait_gone(pid, HANG_BOUND)
    for fd in (r, go_r, go_w):
        os.close(fd)
    assert int(line) == errno.EDQUOT
    assert status == 0, status
