"""Rotating the storage master key (NCR_ATTR_MASTER_KEY_ROTATE at
NCRIO_MASTER_KEY_SET, CRYPTO(4) extensions): BEGIN with a new key makes it
current (STORAGE_WRAP uses it) while STORAGE_UNWRAP still opens blobs of the
old one; END, given the current key, forgets the old one, whose blobs then
fail with EBADMSG like any blob of another master key.  BEGIN is idempotent,
a third key mid-rotation is EBUSY, no master key is ENOKEY, an unprivileged
caller is EPERM (state unchanged), unknown values are EINVAL.  Wraps and
unwraps racing with rotations never use a freed or wrong key.  Each test
reloads the module to start without a master key."""
import errno
import json
import os
import subprocess
import time

import kw_ref
from ncrio import (FLAG_WRAPPABLE, KEY_TYPE, MASTER_KEY_ROTATE_BEGIN as BEGIN,
                   MASTER_KEY_ROTATE_END as END, OP, Ncr, key_type)
from ncrio import errno_of as err
from priv_util import CAP_SYS_ADMIN, run_as
from test_master_keyring import KEYCTL_REVOKE, add_key, keyctl

K1, K2, K3 = bytes(range(32)), bytes(range(100, 132)), bytes(range(200, 224))


def fresh(module_reload, key=None):
    """The module reloaded without master key, then key set if given."""
    module_reload(set_master_key=False)
    n = Ncr()
    if key is not None:
        assert n.master_key_set(key) == 0
    return n


class Blob:
    """A random AES key's storage blob and its encryption of one block."""

    def __init__(self, n):
        k = n.secret_key(os.urandom(16), "ecb(aes)", flags=FLAG_WRAPPABLE)
        self.blob = n.storage_wrap(k)
        self.ref = n.session_once(OP.ENCRYPT, "ecb(aes)", key=k,
                                  data=bytes(16))
        n.key_deinit(k)

    def opens(self, n):
        """True when the blob unwraps to the same key; False on EBADMSG,
        leaving the destination empty; any other error raises."""
        d = n.key_init()
        try:
            n.storage_unwrap(d, self.blob)
        except OSError as e:
            if e.errno != errno.EBADMSG:
                raise
            assert key_type(n, d) == KEY_TYPE.INVALID
            return False
        ok = n.session_once(OP.ENCRYPT, "ecb(aes)", key=d,
                            data=bytes(16)) == self.ref
        n.key_deinit(d)
        assert ok, "blob opened to another key"
        return True

    def under(self, mk):
        try:
            return kw_ref.kwp_unwrap(mk, self.blob)[:4] == b"NCRK"
        except Exception:       # IntegrityError: another key
            return False


def test_rotation(module_reload):
    n = fresh(module_reload, K1)
    b1 = Blob(n)
    assert b1.under(K1)
    assert n.master_key_rotate(K2, BEGIN) == 0
    # blobs of the old key still open; new ones are made under the new key
    assert b1.opens(n)
    b2 = Blob(n)
    assert b2.under(K2) and not b2.under(K1)
    assert b2.opens(n)
    # BEGIN again with the new key: idempotent (a boot loader re-runs it);
    # the plain form compares with the current (new) key
    assert n.master_key_rotate(K2, BEGIN) == 0
    assert n.master_key_set(K2) == 0
    assert err(n.master_key_set, K1) == errno.EBUSY
    # a third key, or the old one, mid-rotation: EBUSY; END needs the
    # current key
    assert err(n.master_key_rotate, K3, BEGIN) == errno.EBUSY
    assert err(n.master_key_rotate, K1, BEGIN) == errno.EBUSY
    assert err(n.master_key_rotate, K1, END) == errno.EBUSY
    assert err(n.master_key_rotate, K3, END) == errno.EBUSY
    assert err(n.master_key_rotate, K2[:16], END) == errno.EBUSY
    assert b1.opens(n) and b2.opens(n)
    assert Blob(n).under(K2)
    # END: the old key is gone, its blobs fail as any other key's
    assert n.master_key_rotate(K2, END) == 0
    assert not b1.opens(n)
    assert b2.opens(n)
    assert Blob(n).under(K2)
    # END again (nothing in progress, the current key): 0
    assert n.master_key_rotate(K2, END) == 0
    assert err(n.master_key_rotate, K1, END) == errno.EBUSY
    assert n.master_key_set(K2) == 0
    # and the next rotation, to a 16-byte key
    k4 = os.urandom(16)
    assert n.master_key_rotate(k4, BEGIN) == 0
    assert b2.opens(n) and not b1.opens(n)
    b4 = Blob(n)
    assert b4.under(k4)
    assert n.master_key_rotate(k4, END) == 0
    assert not b2.opens(n) and b4.opens(n)
    n.close()

    # after a reload with only the old key, the new blobs do not open
    n = fresh(module_reload, K1)
    assert b1.opens(n)
    assert not b2.opens(n)
    n.close()
    n = fresh(module_reload, K2)
    assert b2.opens(n)
    assert not b1.opens(n)
    n.close()


def test_no_master_key(module_reload):
    with fresh(module_reload) as n:
        for how in (BEGIN, END):
            assert err(n.master_key_rotate, K1, how) == errno.ENOKEY
        k = n.secret_key(os.urandom(16), "ecb(aes)", flags=FLAG_WRAPPABLE)
        assert err(n.storage_wrap, k) == errno.ENOKEY
        # the key is checked before the state
        assert err(n.master_key_rotate, bytes(5), BEGIN) == errno.EINVAL
        assert err(n.master_key_rotate, K1, 3) == errno.EINVAL
        # and the plain form still sets the first key
        assert n.master_key_set(K1) == 0
        assert Blob(n).under(K1)


def test_bad_values(module_reload):
    with fresh(module_reload, K1) as n:
        b1 = Blob(n)
        for how in (0, 3, 4, 0x101, 0xFFFFFFFF):
            assert err(n.master_key_rotate, K2, how) == errno.EINVAL, how
            assert err(n.master_key_rotate, K1, how) == errno.EINVAL, how
        # not a u32: the attribute parser's EINVAL
        assert err(n.master_key_set, K2,
                   MASTER_KEY_ROTATE=b"\x01\x00") == errno.EINVAL
        assert err(n.master_key_set, K2,
                   MASTER_KEY_ROTATE=bytes(8)) == errno.EINVAL
        # a bad key size with a good value
        for size in (0, 5, 15, 33):
            assert err(n.master_key_rotate, bytes(size), BEGIN) == \
                errno.EINVAL
        # nothing changed: no rotation is in progress
        assert Blob(n).under(K1) and b1.opens(n)
        assert err(n.master_key_rotate, K2, END) == errno.EBUSY
        assert n.master_key_rotate(K1, END) == 0
        assert n.master_key_rotate(K2, BEGIN) == 0
        assert err(n.master_key_rotate, K2, 7) == errno.EINVAL
        assert b1.opens(n)


def test_unprivileged_changes_nothing(module_reload):
    with fresh(module_reload, K1) as n:
        b1 = Blob(n)
        fd = n.fd

        def rotate(key, how):
            return lambda: Ncr(fd=fd).master_key_rotate(key, how)
        # not root; root without CAP_SYS_ADMIN; not root with it: EPERM
        # first, whatever the value or the key
        for kw in ({"uid": 65534}, {"drop": [CAP_SYS_ADMIN]},
                   {"uid": 65534, "keep_caps": [CAP_SYS_ADMIN]}):
            for key, how in ((K2, BEGIN), (K1, END), (K2, 9),
                             (bytes(5), BEGIN)):
                assert run_as(rotate(key, how), **kw) == errno.EPERM, kw
        assert Blob(n).under(K1)
        assert err(n.master_key_rotate, K2, END) == errno.EBUSY
        # mid-rotation: an unprivileged END does not drop the old key
        assert n.master_key_rotate(K2, BEGIN) == 0
        for key, how in ((K2, END), (K3, BEGIN)):
            assert run_as(rotate(key, how), uid=65534) == errno.EPERM
        assert b1.opens(n)
        assert Blob(n).under(K2)
        assert err(n.master_key_rotate, K3, BEGIN) == errno.EBUSY


def test_keyring_key_begins_and_ends(module_reload):
    with fresh(module_reload, K1) as n:
        b1 = Blob(n)
        serial = add_key("logon", "ncr:rotate", K2)
        other = add_key("logon", "ncr:rotate3", K3)
        try:
            spec = "logon:ncr:rotate"
            assert n.master_key_from_keyring(
                spec, MASTER_KEY_ROTATE=BEGIN) == 0
            assert b1.opens(n)
            b2 = Blob(n)
            assert b2.under(K2)
            assert n.master_key_from_keyring(
                spec, MASTER_KEY_ROTATE=BEGIN) == 0
            assert n.master_key_from_keyring(spec) == 0
            assert err(n.master_key_from_keyring, "logon:ncr:rotate3",
                       MASTER_KEY_ROTATE=BEGIN) == errno.EBUSY
            assert err(n.master_key_from_keyring, "logon:ncr:absent",
                       MASTER_KEY_ROTATE=BEGIN) == errno.ENOKEY
            assert err(n.master_key_from_keyring, spec,
                       MASTER_KEY_ROTATE=0) == errno.EINVAL
            assert err(n.master_key_from_keyring, "logon:ncr:rotate3",
                       MASTER_KEY_ROTATE=END) == errno.EBUSY
            assert b1.opens(n)
            assert n.master_key_from_keyring(
                spec, MASTER_KEY_ROTATE=END) == 0
            assert not b1.opens(n) and b2.opens(n)
            # the buffer form and the keyring form name the same key
            assert n.master_key_rotate(K2, END) == 0
        finally:
            keyctl(KEYCTL_REVOKE, serial)
            keyctl(KEYCTL_REVOKE, other)


def _dmesg():
    return subprocess.run(["dmesg"], stdout=subprocess.PIPE,
                          check=True).stdout.decode(errors="replace")


def _worker(seconds, old_blobs, w):
    """A child: wraps and unwraps in a loop on its own descriptor; reports
    counts and unexpected errors through the pipe w."""
    res = {"ok": 0, "badmsg": 0, "old_ok": 0, "old_bad": 0, "errors": []}
    try:
        with Ncr() as n:
            end = time.monotonic() + seconds
            i = 0
            while time.monotonic() < end:
                i += 1
                try:
                    b = Blob(n)
                    # two rotation steps between the wrap and the unwrap
                    # can drop the key it was made under: EBADMSG only
                    res["ok" if b.opens(n) else "badmsg"] += 1
                    o = old_blobs[i % len(old_blobs)]
                    res["old_ok" if o.opens(n) else "old_bad"] += 1
                except (OSError, AssertionError) as e:
                    res["errors"].append(repr(e))
                    if len(res["errors"]) > 5:
                        break
    except BaseException as e:     # report, never return into pytest
        res["errors"].append("crash " + repr(e))
    finally:
        os.write(w, json.dumps(res).encode())
        os._exit(0)


def test_wrap_unwrap_race_rotations(module_reload):
    """Three processes wrap and unwrap while this one rotates between two
    keys over and over: BEGIN(K2) END(K2) BEGIN(K1) END(K1) ... (plus
    repeated BEGINs and plain sets).  A blob unwraps to its own key or
    fails with EBADMSG, nothing else; the kernel log stays clean."""
    seconds = 20
    before = len(_dmesg())
    with fresh(module_reload, K1) as n:
        old = [Blob(n) for _ in range(3)]
        kids = []
        for _ in range(3):
            r, w = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(r)
                _worker(seconds, old, w)
            os.close(w)
            kids.append((pid, r))
        steps = 0
        cur = K1
        end = time.monotonic() + seconds
        try:
            while time.monotonic() < end:
                new = K2 if cur == K1 else K1
                assert n.master_key_rotate(new, BEGIN) == 0
                assert n.master_key_rotate(new, BEGIN) == 0
                assert err(n.master_key_rotate, K3, BEGIN) == errno.EBUSY
                assert n.master_key_set(new) == 0
                assert n.master_key_rotate(new, END) == 0
                cur = new
                steps += 1
        finally:
            results = []
            for pid, r in kids:
                with os.fdopen(r, "rb") as f:
                    results.append(json.loads(f.read().decode() or "{}"))
                os.waitpid(pid, 0)
    for res in results:
        assert res.get("errors") == [], results
        assert res["ok"] > 0, results
    assert steps > 10, steps
    # old blobs (K1) opened whenever K1 was current or previous
    assert sum(r["old_ok"] for r in results) > 0, results
    new = _dmesg()[before:]
    for word in ("BUG", "WARNING", "Oops", "KASAN", "UBSAN",
                 "possible circular locking"):
        assert word not in new, new
