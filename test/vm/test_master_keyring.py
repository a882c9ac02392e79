"""The storage master key taken from the kernel keyring
(NCR_ATTR_MASTER_KEY_DESCRIPTION at NCRIO_MASTER_KEY_SET, CRYPTO(4)
extensions): a logon key's or an encrypted key's payload, read by the
kernel from the caller's keyrings, becomes the master key -- the blob
unwraps under exactly those bytes; a user key (readable by user space),
a missing, revoked or wrong-sized key, and an unprivileged caller are
refused and leave no master key; `ncrctl master-key load --keyring` says
which.  Each test reloads the module to start without a master key."""
import ctypes
import errno
import os
import subprocess

import pytest

import kw_ref
from conftest import BUILD
from ncrio import FLAG_WRAPPABLE, OP, Ncr
from ncrio import errno_of as err
from priv_util import run_as

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long
SYS_add_key, SYS_keyctl = 248, 250          # x86_64
KEY_SPEC_PROCESS_KEYRING, KEY_SPEC_SESSION_KEYRING = -2, -3
KEYCTL_REVOKE, KEYCTL_READ = 3, 11


def add_key(ktype, desc, payload, ring=KEY_SPEC_PROCESS_KEYRING):
    """add_key(2): the key's serial, or OSError."""
    p = ctypes.create_string_buffer(bytes(payload), max(len(payload), 1))
    r = _libc.syscall(SYS_add_key, ctypes.c_char_p(ktype.encode()),
                      ctypes.c_char_p(desc.encode()), p,
                      ctypes.c_size_t(len(payload)), ctypes.c_int(ring))
    if r < 0:
        e = ctypes.get_errno()
        raise OSError(e, "add_key %s %s: %s" % (ktype, desc,
                                                os.strerror(e)))
    return r


def keyctl(op, *args):
    r = _libc.syscall(SYS_keyctl, ctypes.c_int(op),
                      *[ctypes.c_long(a) for a in args])
    if r < 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
    return r


def read_key(serial):
    buf = ctypes.create_string_buffer(4096)
    n = _libc.syscall(SYS_keyctl, ctypes.c_int(KEYCTL_READ),
                      ctypes.c_long(serial), buf, ctypes.c_long(4096))
    if n < 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
    return buf.raw[:n]


def no_master_key(n):
    k = n.secret_key(os.urandom(16), "ecb(aes)", flags=FLAG_WRAPPABLE)
    return err(n.storage_wrap, k) == errno.ENOKEY


def wraps_under(n, mk):
    """Storage works, and the blob opens under exactly mk."""
    k = n.secret_key(os.urandom(16), "ecb(aes)", flags=FLAG_WRAPPABLE)
    return kw_ref.kwp_unwrap(mk, n.storage_wrap(k))[:4] == b"NCRK"


def fresh(module_reload):
    module_reload(set_master_key=False)
    return Ncr()


@pytest.mark.parametrize("size", [16, 24, 32])
def test_logon_key_becomes_the_master_key(module_reload, size):
    mk = os.urandom(size)
    with fresh(module_reload) as n:
        add_key("logon", "ncr:test-%d" % size, mk)
        assert n.master_key_from_keyring("logon:ncr:test-%d" % size) == 0
        assert wraps_under(n, mk)
        # the same key again, by keyring or by bytes: accepted; another:
        # EBUSY, as for the buffer form
        assert n.master_key_from_keyring("logon:ncr:test-%d" % size) == 0
        assert n.master_key_set(mk) == 0
        add_key("logon", "ncr:other", os.urandom(size))
        assert err(n.master_key_from_keyring, "logon:ncr:other") == \
            errno.EBUSY
        assert wraps_under(n, mk)


def test_refusals_leave_no_master_key(module_reload):
    with fresh(module_reload) as n:
        mk = os.urandom(32)
        # a user key is readable by user space: refused by its type
        add_key("user", "ncr:user", mk)
        assert err(n.master_key_from_keyring, "user:ncr:user") == \
            errno.EINVAL
        assert err(n.master_key_from_keyring, "ncr:user") == errno.EINVAL
        assert err(n.master_key_from_keyring, "logon:ncr:user") == \
            errno.ENOKEY
        assert err(n.master_key_from_keyring, "logon:ncr:missing") == \
            errno.ENOKEY
        assert err(n.master_key_from_keyring, "logon:") == errno.EINVAL
        assert err(n.master_key_from_keyring, "") == errno.EINVAL
        assert err(n.master_key_from_keyring,
                   "logon:ncr:" + "x" * 300) == errno.EINVAL
        for size in (1, 15, 20, 31, 33, 64):
            add_key("logon", "ncr:size-%d" % size, os.urandom(size))
            assert err(n.master_key_from_keyring,
                       "logon:ncr:size-%d" % size) == errno.EINVAL
        serial = add_key("logon", "ncr:revoked", mk)
        keyctl(KEYCTL_REVOKE, serial)
        assert err(n.master_key_from_keyring, "logon:ncr:revoked") in \
            (errno.EKEYREVOKED, errno.ENOKEY)
        # a description and a key buffer at once
        add_key("logon", "ncr:both", mk)
        assert err(n.master_key_from_keyring, "logon:ncr:both", key=mk) == \
            errno.EINVAL
        # unprivileged, with the key in its own keyring
        fd = n.fd

        def unprivileged():
            add_key("logon", "ncr:mine", mk)
            return Ncr(fd=fd).master_key_from_keyring("logon:ncr:mine")
        assert run_as(unprivileged, uid=65534) == errno.EPERM
        assert no_master_key(n)
        # and user space cannot read the logon key back
        assert err(read_key, serial) in (errno.EOPNOTSUPP, errno.EKEYREVOKED)
        logon = add_key("logon", "ncr:unreadable", mk)
        assert err(read_key, logon) == errno.EOPNOTSUPP
        assert no_master_key(n)


def test_encrypted_key_survives_a_reload(module_reload):
    """An encrypted key (the kernel generates it, user space sees only its
    encrypted form) as the master key; its blob, loaded again after a
    module reload, gives the same master key: a key file made before
    opens after."""
    with fresh(module_reload) as n:
        add_key("user", "ncr-kmk", os.urandom(32))
        try:
            ek = add_key("encrypted", "ncr-mk", b"new user:ncr-kmk 32")
        except OSError as e:
            if e.errno == errno.ENODEV:
                pytest.skip("this kernel has no encrypted key type "
                            "(CONFIG_ENCRYPTED_KEYS)")
            raise
        assert n.master_key_from_keyring("encrypted:ncr-mk") == 0
        k = n.secret_key(os.urandom(16), "ecb(aes)", flags=FLAG_WRAPPABLE)
        blob = n.storage_wrap(k)
        saved = read_key(ek)
        assert saved.startswith(b"default user:ncr-kmk 32 ")
        add_key("encrypted", "ncr-other", b"new user:ncr-kmk 32")
        assert err(n.master_key_from_keyring, "encrypted:ncr-other") == \
            errno.EBUSY
        # a 20-byte encrypted key is not an AES key size
        add_key("encrypted", "ncr-short", b"new user:ncr-kmk 20")
        assert err(n.master_key_from_keyring, "encrypted:ncr-short") == \
            errno.EINVAL
        ref = n.session_once(OP.ENCRYPT, "ecb(aes)", key=k, data=bytes(16))
    with fresh(module_reload) as n:
        add_key("encrypted", "ncr-mk2", b"load " + saved)
        assert n.master_key_from_keyring("encrypted:ncr-mk2") == 0
        d = n.key_init()
        n.storage_unwrap(d, blob)
        assert n.session_once(OP.ENCRYPT, "ecb(aes)", key=d,
                              data=bytes(16)) == ref


def ncrctl(*args):
    return subprocess.run([os.path.join(BUILD, "tools", "ncrctl")] +
                          list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=60)


def test_ncrctl_load_keyring(module_reload):
    """ncrctl is another process: the key is in the session keyring it
    inherits; every refusal is one line naming the key."""
    with fresh(module_reload) as n:
        mk = os.urandom(32)
        p = ncrctl("master-key", "load", "--keyring", "logon:ncr:absent")
        assert p.returncode == 12, p.stderr
        assert p.stderr.decode().count("\n") == 1
        assert b"logon:ncr:absent: no such key" in p.stderr
        p = ncrctl("master-key", "load", "--keyring", "user:ncr:x")
        assert p.returncode == 2 and b"user key" in p.stderr
        serial = add_key("logon", "ncr:ctl", mk, KEY_SPEC_SESSION_KEYRING)
        other = add_key("logon", "ncr:ctl2", os.urandom(32),
                        KEY_SPEC_SESSION_KEYRING)
        try:
            p = ncrctl("master-key", "load", "--keyring", "logon:ncr:ctl")
            assert p.returncode == 0, p.stderr
            assert p.stdout == b"logon:ncr:ctl: master key set\n"
            assert wraps_under(n, mk)
            p = ncrctl("master-key", "load", "--keyring", "logon:ncr:ctl2")
            assert p.returncode == 9 and b"different master key" in p.stderr
        finally:
            keyctl(KEYCTL_REVOKE, serial)
            keyctl(KEYCTL_REVOKE, other)
