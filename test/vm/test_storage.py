"""NCRIO_MASTER_KEY_SET and NCRIO_KEY_STORAGE_WRAP/UNWRAP in the kernel
(docs/storage-format.md): privileges, key sizes, the set-once rule, the
blob layout byte by byte, strict parsing, the tamper matrix, and a blob
surviving a module reload with the same master key.

The master key stays set for the module's lifetime, so tests that need
"no master key" or another master key reload the module themselves
(conftest's module_reload restores the common key afterwards).
"""
import errno
import os
import struct

import pytest

import kw_ref
from conftest import DEVICE, TEST_MASTER_KEY
from ncrio import (ATTR, FLAG_DECRYPT, FLAG_EXPORTABLE, FLAG_SIGN,
                   FLAG_WRAPPABLE, KEY_TYPE, OP, Ncr, key_type)
from ncrio import errno_of as err
from priv_util import CAP_SYS_ADMIN, caps_effective, run_as

BLOB_HEADER = 16


def encoding(algo=b"ecb(aes)", key_id=b"", material=bytes(16), flags=2,
             type_=1, version=1, magic=b"NCRK", algo_len=None,
             key_id_len=None, material_len=None, tail=b""):
    """A storage-blob plaintext (docs/storage-format.md), fields
    overridable to make malformed ones."""
    hdr = magic + struct.pack(
        ">BBBBII", version, type_,
        len(algo) if algo_len is None else algo_len,
        len(key_id) if key_id_len is None else key_id_len, flags,
        len(material) if material_len is None else material_len)
    return hdr + algo + key_id + material + tail


def seal(enc, master=TEST_MASTER_KEY):
    return kw_ref.kwp_wrap(master, enc)


def ecb(n, k, block=bytes(16)):
    return n.session_once(OP.ENCRYPT, "ecb(aes)", key=k, data=block)


@pytest.fixture
def n(dev, master_key):
    return Ncr(fd=dev)


# ---- master key: privileges, sizes, set once --------------------------------


def _set_in_child(key):
    """A function for run_as(): opens /dev/crypto (before the privilege
    drop happened? no: after; the device is world-usable) and sets key."""
    def fn():
        with Ncr() as c:
            c.master_key_set(key)
        return 0
    return fn


def _set_with_fd(fd, key):
    def fn():
        Ncr(fd=fd).master_key_set(key)
        return 0
    return fn


@pytest.mark.parametrize("size", [16, 24, 32])
def test_master_key_rules(module_reload, size):
    module_reload(set_master_key=False)
    mk = os.urandom(size)
    other = os.urandom(size)
    with Ncr() as n:
        k = n.secret_key(os.urandom(16), "ecb(aes)", flags=FLAG_WRAPPABLE)
        # no master key: ENOKEY, checked before anything else
        assert err(n.storage_wrap, k) == errno.ENOKEY
        assert err(n.storage_wrap, 9999) == errno.ENOKEY
        assert err(n.storage_unwrap, k, bytes(24)) == errno.ENOKEY
        # privileges, with a descriptor opened while still privileged
        fd = n.fd
        assert caps_effective() & (1 << CAP_SYS_ADMIN)
        assert run_as(_set_with_fd(fd, mk), uid=65534) == errno.EPERM
        assert run_as(_set_with_fd(fd, mk), drop=[CAP_SYS_ADMIN]) == \
            errno.EPERM
        assert run_as(_set_with_fd(fd, mk), uid=65534,
                      keep_caps=[CAP_SYS_ADMIN]) == errno.EPERM
        assert err(n.storage_wrap, k) == errno.ENOKEY   # still unset
        # sizes
        for bad in (0, 1, 8, 15, 17, 20, 31, 33, 48, 64):
            assert err(n.master_key_set, os.urandom(bad)) == errno.EINVAL
        assert err(n.storage_wrap, k) == errno.ENOKEY
        # set, then only the identical key is accepted again
        assert n.master_key_set(mk) == 0
        assert n.master_key_set(mk) == 0
        assert err(n.master_key_set, other) == errno.EBUSY
        assert err(n.master_key_set, TEST_MASTER_KEY[:24] if size != 24
                   else TEST_MASTER_KEY[:16]) == errno.EBUSY
        assert err(n.master_key_set, bytes(5)) == errno.EINVAL
        assert run_as(_set_with_fd(fd, mk), uid=65534) == errno.EPERM
        # storage now works, under this master key
        blob = n.storage_wrap(k)
        enc = kw_ref.kwp_unwrap(mk, blob)
        assert enc[:4] == b"NCRK"
        d = n.key_init()
        n.storage_unwrap(d, blob)
        assert ecb(n, d) == ecb(n, k)
    # a fresh descriptor (another namespace) sees the same master key
    assert run_as(_set_in_child(mk), drop=[CAP_SYS_ADMIN]) == errno.EPERM
    assert run_as(_set_in_child(mk)) == 0


# ---- round trips and the exact layout ---------------------------------------


def test_round_trip_secret(n):
    material = os.urandom(32)
    k = n.secret_key(material, "cbc(aes)",
                     flags=FLAG_WRAPPABLE | FLAG_EXPORTABLE | FLAG_DECRYPT,
                     key_id=b"id-0123456789abcdefg")
    blob = n.storage_wrap(k)
    d = n.key_init()
    assert n.storage_unwrap(d, blob) == 0
    a, b = n.key_get_info(k), n.key_get_info(d)
    for attr in (ATTR.ALGORITHM, ATTR.KEY_FLAGS, ATTR.KEY_TYPE, ATTR.KEY_ID):
        assert a[attr] == b[attr]
    assert n.key_export(d) == material          # EXPORTABLE was stored


def test_round_trip_keeps_non_exportable(n):
    k = n.secret_key(os.urandom(16), "ecb(aes)", flags=FLAG_WRAPPABLE)
    d = n.key_init()
    n.storage_unwrap(d, n.storage_wrap(k))
    assert n.key_get_info(d)[ATTR.KEY_FLAGS] == FLAG_WRAPPABLE
    assert err(n.key_export, d) == errno.EPERM
    assert ecb(n, d) == ecb(n, k)


def test_round_trip_hmac_max(n):
    material = os.urandom(512)
    k = n.secret_key(material, "hmac(sha512)", flags=FLAG_WRAPPABLE | 1)
    d = n.key_init()
    n.storage_unwrap(d, n.storage_wrap(k))
    assert n.key_export(d) == material


def test_blob_layout(n):
    """The kernel's blob is RFC 5649 under the master key of exactly the
    documented encoding."""
    material = os.urandom(24)
    k = n.secret_key(material, "ctr(aes)",
                     flags=FLAG_WRAPPABLE | FLAG_EXPORTABLE | FLAG_SIGN,
                     key_id=b"\x00\x01\xfe")
    blob = n.storage_wrap(k)
    want = encoding(b"ctr(aes)", b"\x00\x01\xfe", material, flags=0xb)
    assert len(want) == BLOB_HEADER + 8 + 3 + 24
    assert kw_ref.kwp_unwrap(TEST_MASTER_KEY, blob) == want
    assert len(blob) == (len(want) + 7) // 8 * 8 + 8
    # deterministic: the same key gives the same blob
    assert n.storage_wrap(k) == blob


def test_crafted_blob_accepted(n):
    material = os.urandom(16)
    d = n.key_init()
    n.storage_unwrap(d, seal(encoding(b"ecb(aes)", b"xy", material,
                                      flags=FLAG_EXPORTABLE)))
    info = n.key_get_info(d)
    assert info[ATTR.KEY_FLAGS] == FLAG_EXPORTABLE
    assert info[ATTR.KEY_ID] == b"xy"
    assert n.key_export(d) == material


MALFORMED = {
    "magic": dict(magic=b"NCRX"),
    "version 0": dict(version=0),
    "version 2": dict(version=2),
    "type 0": dict(type_=0),
    "type 4": dict(type_=4),
    "unknown flag": dict(flags=0x20),
    "flag bit 31": dict(flags=0x80000002),
    "algo_len 0 (public key)": dict(algo=b"", algo_len=0, type_=2),
    "algo_len too big": dict(algo_len=9),
    "key_id_len 21": dict(key_id=bytes(21)),
    "material_len short": dict(material_len=15),
    "material_len long": dict(material_len=17),
    "trailing byte": dict(tail=b"\0"),
    "algo with NUL": dict(algo=b"ecb(aes)\0"),
    "algo with space": dict(algo=b"ecb (aes)"),
    "unknown algorithm": dict(algo=b"nonesuch"),
    "secret key for rsa": dict(algo=b"rsa"),
    "AES key of 20 bytes": dict(material=bytes(20)),
    "empty material": dict(material=b""),
    "secret over 512": dict(algo=b"hmac(sha256)", material=bytes(513)),
    "public key with AES algo": dict(type_=2),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_encoding_rejected(n, name):
    """Intact RFC 5649 integrity, broken encoding: EINVAL, target empty."""
    d = n.secret_key(os.urandom(16), "ecb(aes)", flags=FLAG_EXPORTABLE)
    assert err(n.storage_unwrap, d, seal(encoding(**MALFORMED[name]))) == \
        errno.EINVAL
    assert key_type(n, d) == KEY_TYPE.INVALID


def test_pk_blob_without_pk_support(n):
    """A private-key blob restores through ncr_pk_import(); junk DER (or no
    PK support yet) fails honestly and leaves the target empty."""
    d = n.key_init()
    e = err(n.storage_unwrap, d, seal(encoding(b"rsa", b"", b"\x30\x00",
                                               type_=3)))
    assert e in (errno.EOPNOTSUPP, errno.EINVAL, errno.EBADMSG)
    assert key_type(n, d) == KEY_TYPE.INVALID


def test_pk_storage_round_trip(n):
    priv, pub = n.key_init(), n.key_init()
    e = err(n.key_generate_pair, priv, pub, "rsa",
            flags=FLAG_WRAPPABLE | FLAG_SIGN, RSA_MODULUS_BITS=1024)
    if e == errno.EOPNOTSUPP:
        pytest.skip("public-key support not built yet (EOPNOTSUPP)")
    assert e == 0
    for k, t in ((priv, KEY_TYPE.PRIVATE), (pub, KEY_TYPE.PUBLIC)):
        blob = n.storage_wrap(k)
        enc = kw_ref.kwp_unwrap(TEST_MASTER_KEY, blob)
        assert enc[:6] == b"NCRK\x01" + bytes([t])
        d = n.key_init()
        n.storage_unwrap(d, blob)
        assert n.key_get_info(d)[ATTR.KEY_TYPE] == t


# ---- errors -------------------------------------------------------------------


def test_storage_errors(n):
    k = n.secret_key(os.urandom(16), "ecb(aes)", flags=FLAG_WRAPPABLE)
    for flags in (0, FLAG_EXPORTABLE, FLAG_DECRYPT | FLAG_SIGN):
        nw = n.secret_key(os.urandom(16), "ecb(aes)", flags=flags)
        assert err(n.storage_wrap, nw) == errno.EPERM
    assert err(n.storage_wrap, n.key_init()) == errno.EINVAL   # empty
    assert err(n.storage_wrap, 9999) == errno.EINVAL
    blob = n.storage_wrap(k)
    assert len(n.storage_wrap(k, size=len(blob))) == len(blob)
    assert err(n.storage_wrap, k, size=len(blob) - 1) == errno.ERANGE
    assert err(n.storage_wrap, k, size=-1) == errno.EINVAL
    assert err(n.storage_unwrap, 9999, blob) == errno.EINVAL
    assert err(n.storage_unwrap, n.key_init(), bytes(70000)) == \
        errno.EOVERFLOW


# ---- tamper matrix --------------------------------------------------------------


def test_tamper_every_bit(n):
    k = n.secret_key(os.urandom(16), "ecb(aes)", flags=FLAG_WRAPPABLE,
                     key_id=b"tamper")
    blob = n.storage_wrap(k)
    d = n.key_init()
    bad_errnos = []
    for bit in range(len(blob) * 8):
        b = bytearray(blob)
        b[bit // 8] ^= 1 << (bit % 8)
        e = err(n.storage_unwrap, d, bytes(b))
        if e != errno.EBADMSG or key_type(n, d) != KEY_TYPE.INVALID:
            bad_errnos.append((bit, e))
    print("tamper: %d single-bit flips of a %d-byte blob rejected"
          % (len(blob) * 8 - len(bad_errnos), len(blob)))
    assert not bad_errnos
    n.storage_unwrap(d, blob)              # the original still works
    assert ecb(n, d) == ecb(n, k)


def test_tamper_truncate_extend_other_master(n):
    k = n.secret_key(os.urandom(32), "cbc(aes)", flags=FLAG_WRAPPABLE)
    blob = n.storage_wrap(k)
    d = n.secret_key(os.urandom(16), "ecb(aes)", flags=FLAG_EXPORTABLE)
    for ln in range(len(blob)):
        want = errno.EBADMSG if ln % 8 == 0 and ln >= 16 else errno.EINVAL
        assert err(n.storage_unwrap, d, blob[:ln]) == want, ln
        assert key_type(n, d) == KEY_TYPE.INVALID
    for extra in (b"\0", os.urandom(7), bytes(8), os.urandom(8),
                  os.urandom(16)):
        want = errno.EBADMSG if len(extra) % 8 == 0 else errno.EINVAL
        assert err(n.storage_unwrap, d, blob + extra) == want
        assert err(n.storage_unwrap, d, extra + blob) == want
    # the same encoding sealed under another master key
    enc = kw_ref.kwp_unwrap(TEST_MASTER_KEY, blob)
    for other in (os.urandom(32), os.urandom(16),
                  TEST_MASTER_KEY[:31] + b"\xff"):
        assert err(n.storage_unwrap, d, seal(enc, other)) == errno.EBADMSG
    # a KWP blob under the right key with another AIV, or RFC 3394
    assert err(n.storage_unwrap, d, kw_ref.kwp_wrap(
        TEST_MASTER_KEY, enc, aiv=b"\xa6\x59\x59\xa7")) == errno.EBADMSG
    padded = enc + bytes(-len(enc) % 8)
    assert err(n.storage_unwrap, d, kw_ref.kw_wrap(
        TEST_MASTER_KEY, padded)) == errno.EBADMSG
    assert key_type(n, d) == KEY_TYPE.INVALID
    n.storage_unwrap(d, blob)
    assert key_type(n, d) == KEY_TYPE.SECRET


# ---- reload -------------------------------------------------------------------


def test_blob_survives_module_reload(module_reload):
    """rmmod + insmod + the same master key: old blobs open; with another
    master key they do not."""
    module_reload()                      # fresh module, common master key
    with Ncr() as n:
        k = n.secret_key(os.urandom(32), "ecb(aes)", flags=FLAG_WRAPPABLE,
                         key_id=b"persist")
        blob = n.storage_wrap(k)
        before = ecb(n, k)
    module_reload()                      # same master key again
    with Ncr() as n:
        d = n.key_init()
        n.storage_unwrap(d, blob)
        assert ecb(n, d) == before
        assert n.key_get_info(d)[ATTR.KEY_ID] == b"persist"
    module_reload(set_master_key=False)
    with Ncr() as n:
        d = n.key_init()
        assert err(n.storage_unwrap, d, blob) == errno.ENOKEY
        n.master_key_set(bytes(32))
        assert err(n.storage_unwrap, d, blob) == errno.EBADMSG
        assert key_type(n, d) == KEY_TYPE.INVALID


def test_device_open_by_nobody():
    """Not a privilege check of ours, but the premise of the EPERM tests:
    an unprivileged process can use /dev/crypto (else EPERM would be moot)."""
    if not os.path.exists(DEVICE):
        pytest.skip("no /dev/crypto")

    def fn():
        with Ncr() as c:
            c.key_init()
        return 0
    assert run_as(fn, uid=65534) == 0
