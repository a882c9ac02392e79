"""Key isolation, tried as an attacker: the process holds the descriptor and
every handle, runs as root without a KEK of the administrator's or as any
user, and calls every ioctl.  It may use its keys as their flags allow; it
must never get the material of a key that is not EXPORTABLE out.

Every key kind (secret, RSA/DSA/DH/EC P-256/X25519 private, a key-file
key after STORAGE_UNWRAP, an unwrapped key, a DH- and an ECDH-derived key)
holds material the test knows, so every output can be searched for it.
docs/security.md lists the paths; each has a test here.
"""
import ctypes
import errno
import hashlib
import hmac
import os
import select
import struct
import subprocess
import threading
import time

import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import dh, ec, padding, x25519
from cryptography.hazmat.primitives.asymmetric.utils import Prehashed

import ncrio
from ncrio import (ATTR, FLAG_DECRYPT, FLAG_EXPORTABLE, FLAG_SIGN,
                   FLAG_WRAPPABLE, FLAG_WRAPPING, KEY_TYPE, OP,
                   WALG_AES_RFC3394, WALG_AES_RFC5649, Ncr, errno_of)
import ec_util
from ec_util import P256
from pk_util import DATA, FFDHE2048_P, _int, _seq, _tlv
from priv_util import CAP_SYS_ADMIN, run_as

NOBODY = 65534
RSA_PKCS1_V1_5, RSA_PKCS1_OAEP, RSA_PKCS1_PSS = 0, 1, 2

FFDHE2048 = dh.DHParameterNumbers(FFDHE2048_P, 2)
P = FFDHE2048.p
PBYTES = P.to_bytes(256, "big")


def be(x, n=None):
    return x.to_bytes(n or (x.bit_length() + 7) // 8, "big")


class Kind:
    """A key object of one kind in namespace n, with the secrets that must
    never appear in any output (each as big-endian bytes)."""

    def __init__(self, name, handle, secrets, algo, ktype):
        self.name, self.handle, self.secrets = name, handle, secrets
        self.algo, self.type = algo, ktype


def leaks(out, kind):
    """Does out contain any 16-byte window of one of kind's secrets?"""
    if not out:
        return False
    for s in kind.secrets:
        w = min(16, len(s))
        for i in range(0, len(s) - w + 1):
            if s[i:i + w] in out:
                return True
    return False


def rsa_numbers():
    with open(DATA / "rsa2048.pem", "rb") as f:
        key = serialization.load_pem_private_key(f.read(), None)
    return key


def dsa_numbers():
    with open(DATA / "dsa2048.pem", "rb") as f:
        return serialization.load_pem_private_key(f.read(), None)


def der_private(key):
    return key.private_bytes(serialization.Encoding.DER,
                             serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


SECRET = bytes(range(0x40, 0x60))      # 32 bytes
DH_PEER_X = 0x1234567890ABCDEF1234567890ABCDEF1234567890ABCDEF
EC_D = 0x5EC1E7D0000000000000000000000000000000000000000000000000C0FFEE01
EC_PEER_D = 0x1234567890ABCDEF1234567890ABCDEF1234567890ABCDEF1234567890ABCDEF
X25519_RAW = bytes(range(0x80, 0xa0))


def x25519_forms(raw):
    """The raw X25519 scalar and its clamped form (RFC 7748 5): a kernel
    may keep either."""
    c = bytearray(raw)
    c[0] &= 248
    c[31] = (c[31] & 127) | 64
    return [raw, bytes(c), raw[::-1], bytes(c)[::-1]]


def ec_key():
    return ec.derive_private_key(EC_D, ec.SECP256R1())


def x25519_key():
    return x25519.X25519PrivateKey.from_private_bytes(X25519_RAW)


@pytest.fixture(scope="module")
def n():
    """One namespace for the module: making every kind of key takes a while
    under emulation, and the tests only add keys to it."""
    if not os.path.exists("/dev/crypto"):
        pytest.skip("/dev/crypto missing: run inside scripts/vm")
    with Ncr() as m:
        yield m


@pytest.fixture(scope="module")
def dev(n):
    return n.fd


@pytest.fixture(scope="module")
def kek(n):
    """A KEK of the administrator's (root with CAP_SYS_ADMIN: this test)."""
    return n.secret_key(os.urandom(32), "ecb(aes)", flags=FLAG_WRAPPING)


def make_kinds(n, kek):
    """One non-exportable, wrappable key of every kind."""
    kinds = []
    k = n.secret_key(SECRET, "cbc(aes)", flags=FLAG_WRAPPABLE)
    kinds.append(Kind("secret", k, [SECRET], "cbc(aes)", KEY_TYPE.SECRET))

    rsa = rsa_numbers()
    pn = rsa.private_numbers()
    k = n.key_init()
    n.key_import(k, der_private(rsa), "rsa", key_type=KEY_TYPE.PRIVATE,
                 flags=FLAG_WRAPPABLE)
    rsa_secrets = [be(pn.d), be(pn.p), be(pn.q)]
    kinds.append(Kind("rsa", k, rsa_secrets, "rsa", KEY_TYPE.PRIVATE))

    dsa = dsa_numbers()
    k = n.key_init()
    n.key_import(k, der_private(dsa), "dsa", key_type=KEY_TYPE.PRIVATE,
                 flags=FLAG_WRAPPABLE)
    kinds.append(Kind("dsa", k, [be(dsa.private_numbers().x)], "dsa",
                      KEY_TYPE.PRIVATE))

    dhk = FFDHE2048.parameters().generate_private_key()
    k = n.key_init()
    n.key_import(k, der_private(dhk), "dh", key_type=KEY_TYPE.PRIVATE,
                 flags=FLAG_WRAPPABLE)
    dh_x = dhk.private_numbers().x
    kinds.append(Kind("dh", k, [be(dh_x)], "dh", KEY_TYPE.PRIVATE))

    # a key file's key: storage blob of the RSA key, restored
    blob = n.storage_wrap(kinds[1].handle)
    k = n.key_init()
    n.storage_unwrap(k, blob)
    kinds.append(Kind("keyfile", k, rsa_secrets, "rsa", KEY_TYPE.PRIVATE))

    # an unwrapped key: wrapped by the administrator's KEK, unwrapped again
    wrapped = n.key_wrap(kek, kinds[0].handle, algo=WALG_AES_RFC3394)
    k = n.key_init()
    n.key_unwrap(kek, k, wrapped, algo=WALG_AES_RFC3394,
                 ALGORITHM="cbc(aes)")
    kinds.append(Kind("unwrapped", k, [SECRET], "cbc(aes)", KEY_TYPE.SECRET))

    # a derived key: DH with a peer of our own, so the secret is known
    peer_y = pow(2, DH_PEER_X, P)
    k = n.key_init()
    n.key_derive(kinds[3].handle, k, flags=FLAG_WRAPPABLE,
                 DH_PUBLIC=be(peer_y))
    shared = be(pow(peer_y, dh_x, P), 256)
    kinds.append(Kind("derived", k, [shared], "dh", KEY_TYPE.SECRET))
    return kinds


def make_ec_kinds(n):
    """EC P-256 and X25519 private keys, an EC key file's key, and an
    ECDH-derived secret (peer of our own, so the secret is known)."""
    kinds = []
    k = ec_util.imp(n, ec_util.private_der(ec_key()), KEY_TYPE.PRIVATE,
                    flags=FLAG_WRAPPABLE)
    ec_secrets = [be(EC_D, 32)]
    kinds.append(Kind("ec", k, ec_secrets, "ecdsa", KEY_TYPE.PRIVATE))
    k = ec_util.imp(n, ec_util.private_der(x25519_key()), KEY_TYPE.PRIVATE,
                    flags=FLAG_WRAPPABLE)
    kinds.append(Kind("x25519", k, x25519_forms(X25519_RAW), "ecdsa",
                      KEY_TYPE.PRIVATE))
    blob = n.storage_wrap(kinds[0].handle)
    k = n.key_init()
    n.storage_unwrap(k, blob)
    kinds.append(Kind("ec-keyfile", k, ec_secrets, "ecdsa",
                      KEY_TYPE.PRIVATE))
    peer = ec.derive_private_key(EC_PEER_D, ec.SECP256R1())
    k = n.key_init()
    n.key_derive(kinds[0].handle, k, algo="ecdh", flags=FLAG_WRAPPABLE,
                 DH_PUBLIC=ec_util.peer_value(peer))
    shared = peer.exchange(ec.ECDH(), ec_key().public_key())
    kinds.append(Kind("ecdh-derived", k, [shared], "ecdh", KEY_TYPE.SECRET))
    return kinds


@pytest.fixture(scope="module")
def kinds(n, kek):
    from conftest import master_key_set
    assert master_key_set() in (0, errno.EBUSY)
    kinds = make_kinds(n, kek)
    try:
        kinds.extend(make_ec_kinds(n))
    except OSError as e:    # fails the EC tests only (by_name), not all
        kinds.append(e)
    return kinds


KIND_NAMES = ["secret", "rsa", "dsa", "dh", "keyfile", "unwrapped", "derived",
              "ec", "x25519", "ec-keyfile", "ecdh-derived"]
PRIVATE_KINDS = ["rsa", "dsa", "dh", "keyfile", "ec", "x25519", "ec-keyfile"]


def by_name(kinds, name):
    for k in kinds:
        if isinstance(k, OSError):
            raise OSError(k.errno, "making the EC kinds: %s" % k)
        if k.name == name:
            return k
    raise KeyError(name)


# ---- export and wrap --------------------------------------------------------

@pytest.mark.parametrize("name", KIND_NAMES)
def test_export_refused(n, kinds, name):
    kd = by_name(kinds, name)
    assert errno_of(n.key_export, kd.handle) == errno.EPERM


@pytest.mark.parametrize("name", KIND_NAMES)
def test_wrap_under_own_kek_refused(n, kinds, name):
    """Root without a WRAPPING KEK: its own AES-256 key, any other flags,
    is no KEK (fails on a tree without NCR_KEY_FLAG_WRAPPING)."""
    kd = by_name(kinds, name)
    for flags in (0, FLAG_EXPORTABLE, FLAG_EXPORTABLE | FLAG_WRAPPABLE |
                  FLAG_DECRYPT | FLAG_SIGN):
        own = n.secret_key(bytes(32), "ecb(aes)", flags=flags)
        for walg in (WALG_AES_RFC5649, WALG_AES_RFC3394):
            e = errno_of(n.key_wrap, own, kd.handle, algo=walg)
            assert e in (errno.EPERM, errno.EINVAL), (flags, walg)
            if walg == WALG_AES_RFC5649:
                assert e == errno.EPERM


def _keyfile_rsa(n):
    """A key file's key as the provider loads it: RSA imported
    non-exportable, storage-wrapped, restored into a new handle."""
    from conftest import master_key_set
    assert master_key_set() in (0, errno.EBUSY)
    pn = rsa_numbers().private_numbers()
    k = n.key_init()
    n.key_import(k, der_private(rsa_numbers()), "rsa",
                 key_type=KEY_TYPE.PRIVATE,
                 flags=FLAG_WRAPPABLE | FLAG_SIGN | FLAG_DECRYPT)
    blob = n.storage_wrap(k)
    r = n.key_init()
    n.storage_unwrap(r, blob)
    return Kind("keyfile", r, [be(pn.d), be(pn.p), be(pn.q)], "rsa",
                KEY_TYPE.PRIVATE)


def test_loaded_keyfile_own_kek_reproduction(n):
    """The original attack, end to end: a key file's RSA key wrapped under
    an AES-256 key the process imported itself, unwrapped in software
    (fails on a tree without NCR_KEY_FLAG_WRAPPING)."""
    from cryptography.hazmat.primitives import keywrap
    kd = _keyfile_rsa(n)
    own_bytes = os.urandom(32)
    own = n.secret_key(own_bytes, "ecb(aes)", flags=FLAG_EXPORTABLE)
    try:
        wrapped = n.key_wrap(own, kd.handle, algo=WALG_AES_RFC5649)
    except OSError as e:
        assert e.errno == errno.EPERM
        return
    plain = keywrap.aes_key_unwrap_with_padding(own_bytes, wrapped)
    assert not leaks(plain, kd), "RSA private key recovered via own KEK"
    pytest.fail("KEY_WRAP under a self-made KEK succeeded")


def _unprivileged_flag_attempts(fd, blob, kek_handle, dh_priv, ec_priv):
    """In a child as nobody (or root without CAP_SYS_ADMIN): every way to
    create a key that carries NCR_KEY_FLAG_WRAPPING must fail with EPERM.
    Returns the number of attempts that did not."""
    m = Ncr(fd=fd)
    bad = 0

    def expect_eperm(fn, *a, **kw):
        nonlocal bad
        if errno_of(fn, *a, **kw) != errno.EPERM:
            bad += 1

    k = m.key_init()
    expect_eperm(m.key_import, k, bytes(32), "ecb(aes)",
                 flags=FLAG_WRAPPING)
    expect_eperm(m.key_generate, k, "ecb(aes)", 256, flags=FLAG_WRAPPING)
    a, b = m.key_init(), m.key_init()
    expect_eperm(m.key_generate_pair, a, b, "rsa", flags=FLAG_WRAPPING,
                 RSA_MODULUS_BITS=1024)
    wrapped = m.key_wrap(kek_handle, blob_source(m), algo=WALG_AES_RFC5649)
    expect_eperm(m.key_unwrap, kek_handle, k, wrapped, algo=WALG_AES_RFC5649,
                 ALGORITHM="ecb(aes)", KEY_FLAGS=FLAG_WRAPPING)
    expect_eperm(m.key_unwrap, kek_handle, k, wrapped, algo=WALG_AES_RFC5649,
                 KEY_FLAGS=FLAG_WRAPPING)
    expect_eperm(m.storage_unwrap, k, blob)
    expect_eperm(m.key_derive, dh_priv, k, flags=FLAG_WRAPPING,
                 DH_PUBLIC=be(pow(2, DH_PEER_X, P)))
    for curve in ("P-256", "x25519"):
        expect_eperm(m.key_generate_pair, a, b, "ecdsa", flags=FLAG_WRAPPING,
                     ECC_CURVE=curve)
    expect_eperm(m.key_derive, ec_priv, k, algo="ecdh", flags=FLAG_WRAPPING,
                 DH_PUBLIC=ec_util.peer_value(
                     ec.derive_private_key(EC_PEER_D, ec.SECP256R1())))
    return bad


def blob_source(m):
    """A fresh wrappable secret key in namespace m."""
    return m.secret_key(os.urandom(16), "ecb(aes)", flags=FLAG_WRAPPABLE)


@pytest.mark.parametrize("who", ["nobody", "root-without-cap"])
def test_unprivileged_cannot_make_wrapping_keys(n, dev, kinds, kek, who):
    # a storage blob of a WRAPPING key, made by the administrator
    kw = n.secret_key(os.urandom(32), "ecb(aes)",
                      flags=FLAG_WRAPPING | FLAG_WRAPPABLE)
    blob = n.storage_wrap(kw)
    dh_priv = by_name(kinds, "dh").handle
    ec_priv = by_name(kinds, "ec").handle
    kwargs = {"uid": NOBODY} if who == "nobody" else {"drop": [CAP_SYS_ADMIN]}
    bad = run_as(lambda: _unprivileged_flag_attempts(dev, blob, kek, dh_priv,
                                                     ec_priv),
                 **kwargs)
    assert bad == 0


def test_wrapping_flag_not_carried_over(n, dev):
    """A handle that held the administrator's KEK, filled again by an
    unprivileged process without flags, must not keep WRAPPING."""
    k = n.secret_key(os.urandom(32), "ecb(aes)", flags=FLAG_WRAPPING)

    def child():
        m = Ncr(fd=dev)
        e = errno_of(m.key_import, k, bytes(32), "ecb(aes)")
        if e != errno.EPERM:
            return 1000 + e
        # nothing was left in the handle
        return errno_of(m.key_get_info, k)

    assert run_as(child, uid=NOBODY) == errno.EINVAL


def test_wrapping_key_not_usable_by_sessions(n, kek):
    """Key separation: a KEK that encrypts blocks would unwrap in software."""
    for algo, iv in (("ecb(aes)", None), ("cbc(aes)", bytes(16)),
                     ("ctr(aes)", bytes(16))):
        for op in (OP.ENCRYPT, OP.DECRYPT):
            assert errno_of(n.session_once, op, algo, key=kek, iv=iv,
                            data=bytes(32)) == errno.EPERM
    assert errno_of(n.session_once, OP.SIGN, "hmac(sha256)", key=kek,
                    data=b"x") == errno.EPERM
    assert errno_of(n.key_export, kek) == errno.EPERM


def test_key_transform_goes_with_material(n, kek):
    """Cipher sessions share a transform the key keeps, set with its
    material.  Whatever fills the key again, successfully or not, takes it
    away: no session may still encrypt with the old material, nor use a
    key that has become a KEK."""
    raw = os.urandom(16)
    k = n.secret_key(raw, "cbc(aes)", flags=0)

    def once():
        return n.session_once(OP.ENCRYPT, "cbc(aes)", key=k, iv=bytes(16),
                              data=bytes(16))

    def refused():
        return errno_of(once)

    ct = once()
    fills = [  # (a refill of k, what a session on k gets afterwards)
        (lambda: n.key_import(k, raw[:15], "cbc(aes)"), errno.EINVAL),
        (lambda: n.key_import(k, raw, "cbc(aes)", flags=FLAG_WRAPPING),
         errno.EPERM),
        (lambda: n.key_generate(k, "cbc(aes)", 100), errno.EINVAL),
        (lambda: n.key_unwrap(kek, k, bytes(24), ALGORITHM="cbc(aes)"),
         errno.EINVAL),
    ]
    for fill, want in fills:
        n.key_import(k, raw, "cbc(aes)", flags=0)
        assert once() == ct
        errno_of(fill)
        assert refused() == want


def test_kek_never_wrapped(n, master_key):
    """A wrappable KEK wrapped under itself or another KEK and unwrapped
    without the flag would be an ordinary AES key: every wrapping under
    the KEK could then be undone with ecb(aes) sessions.  A KEK leaves
    only as a storage blob, which keeps its flag."""
    k = n.secret_key(os.urandom(32), "ecb(aes)",
                     flags=FLAG_WRAPPING | FLAG_WRAPPABLE)
    other = n.secret_key(os.urandom(32), "ecb(aes)", flags=FLAG_WRAPPING)
    for kek_ in (k, other):
        for walg in (WALG_AES_RFC3394, WALG_AES_RFC5649):
            assert errno_of(n.key_wrap, kek_, k, algo=walg) == errno.EPERM
    assert errno_of(n.session_once, OP.SIGN, "sha256",
                    key_as_data=k) == errno.EPERM
    r = n.key_init()
    n.storage_unwrap(r, n.storage_wrap(k))
    assert n.key_get_info(r)[ATTR.KEY_FLAGS] & FLAG_WRAPPING


def test_unprivileged_uses_admin_kek_without_reading(n, dev, kinds, kek):
    """An unprivileged holder of a KEK handle may wrap and unwrap, and the
    unwrapped key is not exportable either."""
    sk = by_name(kinds, "secret").handle

    def child():
        m = Ncr(fd=dev)
        w = m.key_wrap(kek, sk, algo=WALG_AES_RFC5649)
        d = m.key_init()
        m.key_unwrap(kek, d, w, algo=WALG_AES_RFC5649, ALGORITHM="cbc(aes)",
                     KEY_FLAGS=FLAG_EXPORTABLE)
        e = errno_of(m.key_export, d)
        e2 = errno_of(m.session_once, OP.DECRYPT, "ecb(aes)", key=kek,
                      data=w[:16])
        return e * 1000 + e2

    assert run_as(child, uid=NOBODY) == errno.EPERM * 1000 + errno.EPERM


def test_unprivileged_loads_and_uses_keyfile(n, dev, kinds):
    """The promise's other half: an unprivileged worker still loads a key
    file (STORAGE_UNWRAP) and signs with it."""
    blob = n.storage_wrap(by_name(kinds, "rsa").handle)
    rsa = rsa_numbers()

    def child():
        m = Ncr()           # its own descriptor: the device is 0666
        k = m.key_init()
        m.storage_unwrap(k, blob)
        sig = m.session_once(OP.SIGN, "rsa", key=k, data=b"hello",
                             RSA_ENCODING_METHOD=RSA_PKCS1_V1_5,
                             SIGNATURE_HASH_ALGORITHM="sha256",
                             final_out_size=256)
        rsa.public_key().verify(sig, b"hello", padding.PKCS1v15(),
                                hashes.SHA256())
        return 0

    assert run_as(child, uid=NOBODY) == 0


# ---- key as data -------------------------------------------------------------

SECRET_KINDS = ["secret", "unwrapped", "derived", "ecdh-derived"]


@pytest.mark.parametrize("name", SECRET_KINDS)
def test_key_as_data_into_encryption_refused(n, kinds, name):
    kd = by_name(kinds, name)
    # every cipher of the table, cipher_null (the identity) included
    ciphers = [("ecb(aes)", 16, None), ("cbc(aes)", 16, 16),
               ("ctr(aes)", 16, 16), ("xts(aes)", 32, 16),
               ("cbc(des3_ede)", 24, 8), ("ecb(camellia)", 16, None),
               ("cbc(camellia)", 16, 16), ("ctr(camellia)", 16, 16),
               ("ecb(cipher_null)", 0, None)]
    for algo, klen, ivlen in ciphers:
        enc = n.secret_key(os.urandom(klen), algo, flags=0) if klen else None
        iv = os.urandom(ivlen) if ivlen else None
        for op in (OP.ENCRYPT, OP.DECRYPT):
            s = n.session_init(op, algo, key=enc, iv=iv)
            assert errno_of(n.session_update, s, key_as_data=kd.handle,
                            out_size=1024) == errno.EINVAL
            n.session_final(s)
    rsa = n.key_init()
    n.key_import(rsa, der_private(rsa_numbers()), "rsa",
                 key_type=KEY_TYPE.PRIVATE)
    for method in (RSA_PKCS1_V1_5, RSA_PKCS1_OAEP):
        extra = {"RSA_OAEP_HASH_ALGORITHM": "sha256"} if method else {}
        s = n.session_init(OP.ENCRYPT, "rsa", key=rsa,
                           RSA_ENCODING_METHOD=method, **extra)
        assert errno_of(n.session_update, s, key_as_data=kd.handle,
                        out_size=256) == errno.EINVAL
        n.session_final(s)


def _digest_len(kd):
    return len(kd.secrets[0])


@pytest.mark.parametrize("name", SECRET_KINDS)
def test_key_as_data_into_digest_signature_refused(n, kinds, name):
    """The reproduction: a 32-byte secret as the "digest" of a PKCS#1 v1.5
    signature comes back as sig^e mod n (fails on a tree that allows it)."""
    kd = by_name(kinds, name)
    rsa = rsa_numbers()
    pub = rsa.public_key().public_numbers()
    k = n.key_init()
    n.key_import(k, der_private(rsa), "rsa", key_type=KEY_TYPE.PRIVATE)
    hashname = {20: "sha1", 28: "sha224", 32: "sha256", 48: "sha384",
                64: "sha512"}.get(_digest_len(kd), "sha256")
    for op in (OP.SIGN, OP.VERIFY):
        for method in (RSA_PKCS1_V1_5, RSA_PKCS1_PSS):
            s = n.session_init(op, "rsa", key=k, RSA_ENCODING_METHOD=method,
                               SIGNATURE_HASH_ALGORITHM=hashname,
                               SIGNATURE_INPUT_IS_DIGEST=1)
            e = errno_of(n.session_update, s, key_as_data=kd.handle)
            if e == 0 and op == OP.SIGN:
                _, outs = n.session_final(s, final_out_size=256)
                m = be(pow(int.from_bytes(outs[0], "big"), pub.e, pub.n), 256)
                assert not leaks(m, kd), "key material in the signed block"
            assert e == errno.EINVAL
    d = n.key_init()
    n.key_import(d, der_private(dsa_numbers()), "dsa",
                 key_type=KEY_TYPE.PRIVATE)
    for op in (OP.SIGN, OP.VERIFY):
        s = n.session_init(op, "dsa", key=d,
                           SIGNATURE_HASH_ALGORITHM="sha256",
                           SIGNATURE_INPUT_IS_DIGEST=1)
        assert errno_of(n.session_update, s,
                        key_as_data=kd.handle) == errno.EINVAL
    e = ec_util.imp(n, ec_util.private_der(ec_key()), KEY_TYPE.PRIVATE)
    for op in (OP.SIGN, OP.VERIFY):
        s = n.session_init(op, "ecdsa", key=e,
                           SIGNATURE_HASH_ALGORITHM=hashname,
                           SIGNATURE_INPUT_IS_DIGEST=1)
        err = errno_of(n.session_update, s, key_as_data=kd.handle)
        if err == 0 and op == OP.SIGN:
            _, outs = n.session_final(s, final_out_size=72)
            assert not leaks(outs[0], kd), "key material in the signature"
        assert err == errno.EINVAL


def test_key_as_data_digest_reproduction(n):
    """The reported attack on its own: a non-exportable AES-256 key as the
    digest of a PKCS#1 v1.5 signature; sig^e mod n must not end with it
    (fails on a tree that allows it)."""
    secret = os.urandom(32)
    sk = n.secret_key(secret, "cbc(aes)", flags=0)
    rsa = rsa_numbers()
    pub = rsa.public_key().public_numbers()
    k = n.key_init()
    n.key_import(k, der_private(rsa), "rsa", key_type=KEY_TYPE.PRIVATE)
    s = n.session_init(OP.SIGN, "rsa", key=k,
                       RSA_ENCODING_METHOD=RSA_PKCS1_V1_5,
                       SIGNATURE_HASH_ALGORITHM="sha256",
                       SIGNATURE_INPUT_IS_DIGEST=1)
    e = errno_of(n.session_update, s, key_as_data=sk)
    if e == 0:
        _, outs = n.session_final(s, final_out_size=256)
        m = be(pow(int.from_bytes(outs[0], "big"), pub.e, pub.n), 256)
        assert not m.endswith(secret), "the key came out of the signature"
    assert e == errno.EINVAL


@pytest.mark.parametrize("name", SECRET_KINDS)
def test_key_as_data_hashed_only(n, kinds, name):
    """Where allowed, the output is a hash of the material, never it."""
    kd = by_name(kinds, name)
    mat = kd.secrets[0]
    out = n.session_once(OP.SIGN, "sha256", key_as_data=kd.handle)
    assert out == hashlib.sha256(mat).digest() and not leaks(out, kd)
    mk = n.secret_key(b"k" * 32, "hmac(sha256)", flags=0)
    out = n.session_once(OP.SIGN, "hmac(sha256)", key=mk,
                         key_as_data=kd.handle)
    assert out == hmac.new(b"k" * 32, mat, hashlib.sha256).digest()
    rsa = rsa_numbers()
    k = n.key_init()
    n.key_import(k, der_private(rsa), "rsa", key_type=KEY_TYPE.PRIVATE)
    s = n.session_init(OP.SIGN, "rsa", key=k,
                       RSA_ENCODING_METHOD=RSA_PKCS1_V1_5,
                       SIGNATURE_HASH_ALGORITHM="sha256")
    n.session_update(s, key_as_data=kd.handle)
    _, outs = n.session_final(s, final_out_size=256)
    rsa.public_key().verify(outs[0], mat, padding.PKCS1v15(), hashes.SHA256())
    pub = rsa.public_key().public_numbers()
    m = be(pow(int.from_bytes(outs[0], "big"), pub.e, pub.n), 256)
    assert not leaks(m, kd)
    e = ec_util.imp(n, ec_util.private_der(ec_key()), KEY_TYPE.PRIVATE)
    s = n.session_init(OP.SIGN, "ecdsa", key=e,
                       SIGNATURE_HASH_ALGORITHM="sha256")
    n.session_update(s, key_as_data=kd.handle)
    _, outs = n.session_final(s, final_out_size=72)
    ec_key().public_key().verify(outs[0], mat, ec.ECDSA(hashes.SHA256()))
    assert not leaks(outs[0], kd)


@pytest.mark.parametrize("name", PRIVATE_KINDS)
def test_private_key_as_data_refused(n, kinds, name):
    kd = by_name(kinds, name)
    assert errno_of(n.session_once, OP.SIGN, "sha256",
                    key_as_data=kd.handle) == errno.EINVAL


# ---- EC keys ----------------------------------------------------------------

@pytest.mark.parametrize("curve,ok_bits", [("P-256", (24, 32)),
                                           ("x25519", (24, 32)),
                                           ("P-384", (32,))])
def test_ec_wrap_needs_stronger_kek(n, curve, ok_bits):
    """SP 800-57 part 1 table 2: P-256 and X25519 are 128-bit keys, P-384
    192-bit; the KEK must be strictly stronger (AES-256 wraps any)."""
    priv, pub = ec_util.gen(n, curve, flags=FLAG_WRAPPABLE)
    for size in (16, 24, 32):
        kek_ = n.secret_key(os.urandom(size), "ecb(aes)", flags=FLAG_WRAPPING)
        e = errno_of(n.key_wrap, kek_, priv, algo=WALG_AES_RFC5649)
        assert e == (0 if size in ok_bits else errno.EPERM), (curve, size)
        # a public key protects nothing: any KEK
        assert n.key_wrap(kek_, pub, algo=WALG_AES_RFC5649)


def test_ec_unwrapped_not_exportable(n, kinds, kek):
    """An EC key wrapped under the administrator's KEK comes back usable
    but never EXPORTABLE, whatever is asked."""
    kd = by_name(kinds, "ec")
    w = n.key_wrap(kek, kd.handle, algo=WALG_AES_RFC5649)
    assert not leaks(w, kd)
    d = n.key_init()
    n.key_unwrap(kek, d, w, algo=WALG_AES_RFC5649, ALGORITHM="ecdsa",
                 KEY_TYPE=KEY_TYPE.PRIVATE, KEY_FLAGS=FLAG_EXPORTABLE)
    assert not n.key_get_info(d)[ATTR.KEY_FLAGS] & FLAG_EXPORTABLE
    assert errno_of(n.key_export, d) == errno.EPERM
    sig = ec_util.sign(n, d, b"unwrapped")
    ec_key().public_key().verify(sig, b"unwrapped", ec.ECDSA(hashes.SHA256()))
    # the storage blob is no importable key
    blob = n.storage_wrap(kd.handle)
    k = n.key_init()
    assert errno_of(n.key_import, k, blob, "ecdsa", key_type=KEY_TYPE.PRIVATE,
                    flags=FLAG_EXPORTABLE) == errno.EINVAL
    assert ncrio.key_type(n, k) == KEY_TYPE.INVALID


def test_unprivileged_loads_ec_keyfile(n, kinds):
    blob = n.storage_wrap(by_name(kinds, "ec").handle)

    def child():
        m = Ncr()
        k = m.key_init()
        m.storage_unwrap(k, blob)
        if errno_of(m.key_export, k) != errno.EPERM:
            return 1
        sig = ec_util.sign(m, k, b"hello")
        ec_key().public_key().verify(sig, b"hello", ec.ECDSA(hashes.SHA256()))
        return 0

    assert run_as(child, uid=NOBODY) == 0


def test_ecdh_derived_key_flags(n, kinds):
    """As for DH: the derived secret may be EXPORTABLE (the peer knows it
    too), never a signing or decryption key."""
    kd = by_name(kinds, "ec")
    peer = ec.derive_private_key(EC_PEER_D + 1, ec.SECP256R1())
    pv = ec_util.peer_value(peer)
    for flags in (FLAG_SIGN, FLAG_DECRYPT, FLAG_EXPORTABLE | FLAG_SIGN):
        d = n.key_init()
        assert errno_of(n.key_derive, kd.handle, d, algo="ecdh", flags=flags,
                        DH_PUBLIC=pv) == errno.EINVAL, flags
        assert ncrio.key_type(n, d) == KEY_TYPE.INVALID
    d = n.key_init()
    n.key_derive(kd.handle, d, algo="ecdh", flags=FLAG_EXPORTABLE,
                 DH_PUBLIC=pv)
    out = n.key_export(d)
    assert out == peer.exchange(ec.ECDH(), ec_key().public_key())
    assert not leaks(out, kd)


def test_ecdsa_nonces_fresh(n, kinds):
    """Hedged nonces: signatures of one digest all differ (no r twice:
    two signatures with one r give d away), all verify, and the nonces
    recovered with the known d are distinct, full size and unrelated to d
    and the digest."""
    kd = by_name(kinds, "ec")
    digest = hashlib.sha256(b"same digest").digest()
    sigs = [ec_util.sign(n, kd.handle, digest, digest=True) for _ in range(8)]
    rs = [ec_util.sig_decode(s_)[0] for s_ in sigs]
    assert len(set(rs)) == len(rs)
    pub = ec_key().public_key()
    for s_ in sigs:
        pub.verify(s_, digest, ec.ECDSA(Prehashed(hashes.SHA256())))
        assert not leaks(s_, kd)
    ks = [ec_util.nonce_of(P256, EC_D, digest, s_) for s_ in sigs]
    z = int.from_bytes(digest, "big")
    bits = P256.n.bit_length()
    for k in ks:
        assert k not in (EC_D, z, P256.n - EC_D)
        assert k.bit_length() > bits - 32
    for a in ks:
        for b in ks:
            if a != b:
                assert ((a - b) % P256.n).bit_length() > bits - 32
    # the same with the kernel hashing the message
    m1 = ec_util.sign(n, kd.handle, b"same message")
    m2 = ec_util.sign(n, kd.handle, b"same message")
    assert ec_util.sig_decode(m1)[0] != ec_util.sig_decode(m2)[0]


def test_ecdh_invalid_peers_refused(n, kinds):
    """Invalid-curve and small-order peers would make the derived (maybe
    exportable) secret an oracle on d: EINVAL, nothing derived."""
    kd = by_name(kinds, "ec")
    good = ec_util.point_of(ec_key().public_key())
    x = good[1:33]
    bad = [b"\x04" + bytes(64), b"\x04" + be(1, 32) + be(1, 32),
           b"\x04" + x + be((int.from_bytes(good[33:], "big") + 1) % P256.p,
                             32),
           b"\x04" + x + be(P256.p, 32), b"\x00", good[:33],
           ec_util.point_of(ec.generate_private_key(ec.SECP384R1())
                            .public_key())]
    for peer in bad:
        d = n.key_init()
        assert errno_of(n.key_derive, kd.handle, d, algo="ecdh",
                        flags=FLAG_EXPORTABLE, DH_PUBLIC=peer) == errno.EINVAL
        assert ncrio.key_type(n, d) == KEY_TYPE.INVALID
    xd = by_name(kinds, "x25519")
    p = 2 ** 255 - 19
    # RFC 7748 / libsodium's list: u of small order, non-canonical copies
    for u in (0, 1, p - 1, p, p + 1,
              int("00b8495f16056286fdb1329ceb8d09da"
                  "6ac49ff1fae35616aeb8413b7c7aebe0", 16),
              int("57119fd0dd4e22d8868e1c58c45c4404"
                  "5bef839c55b1d0b1248c50a3bc959c5f", 16)):
        d = n.key_init()
        assert errno_of(n.key_derive, xd.handle, d, algo="ecdh",
                        flags=FLAG_EXPORTABLE,
                        DH_PUBLIC=be(u, 32)[::-1]) == errno.EINVAL, hex(u)


def test_ec_keys_never_sign_as_other_algorithms(n, kinds):
    """An EC key is not a DSA/RSA key, an X25519 key does not sign."""
    for name in ("ec", "x25519"):
        h = by_name(kinds, name).handle
        for algo, extra in (("dsa", {}), ("rsa", {
                "RSA_ENCODING_METHOD": RSA_PKCS1_V1_5})):
            assert errno_of(n.session_init, OP.SIGN, algo, key=h,
                            SIGNATURE_HASH_ALGORITHM="sha256",
                            **extra) == errno.EINVAL
    assert errno_of(n.session_init, OP.SIGN, "ecdsa",
                    key=by_name(kinds, "x25519").handle,
                    SIGNATURE_HASH_ALGORITHM="sha256") == errno.EINVAL
    assert errno_of(n.key_derive, by_name(kinds, "ec").handle, n.key_init(),
                    algo="dh", DH_PUBLIC=b"\x02") == errno.EINVAL


# ---- get_info, error paths -----------------------------------------------------

@pytest.mark.parametrize("name", KIND_NAMES)
def test_get_info_every_attribute(n, kinds, name):
    kd = by_name(kinds, name)
    ids = list(range(0, ATTR.SIGNATURE_INPUT_IS_DIGEST + 8)) + [0xffff]
    for a in ids:
        try:
            info = n.key_get_info(kd.handle, wanted=(a,), room=70000)
        except OSError as e:
            assert e.errno in (errno.EINVAL, errno.ERANGE)
            continue
        for v in info.values():
            raw = v if isinstance(v, bytes) else str(v).encode()
            assert not leaks(raw, kd), (name, a)
    info = n.key_get_info(kd.handle, wanted=tuple(ids[1:-1]), room=70000)
    assert not any(leaks(v, kd) for v in info.values() if isinstance(v, bytes))


@pytest.mark.parametrize("name", KIND_NAMES)
def test_storage_blob_holds_no_clear_material(n, kinds, name):
    kd = by_name(kinds, name)
    assert not leaks(n.storage_wrap(kd.handle), kd)


def test_reimport_drops_key_id(n):
    """A handle filled again does not keep the previous key's ID (which
    names the old material; a key file's public key is checked against
    it)."""
    k = n.key_init()
    n.key_import(k, os.urandom(16), "cbc(aes)", key_id=b"old-key-id")
    n.key_import(k, os.urandom(16), "cbc(aes)")
    assert n.key_get_info(k).get(ATTR.KEY_ID, b"") != b"old-key-id"
    n.key_generate(k, "cbc(aes)", 128)
    assert n.key_get_info(k)[ATTR.KEY_ID] != b"old-key-id"
    n.key_import(k, der_private(rsa_numbers()), "rsa",
                 key_type=KEY_TYPE.PRIVATE, key_id=b"old-key-id")
    n.key_import(k, der_private(dsa_numbers()), "dsa",
                 key_type=KEY_TYPE.PRIVATE)
    assert n.key_get_info(k)[ATTR.KEY_ID] != b"old-key-id"


# ---- MAC and hash inputs ---------------------------------------------------------

def test_hmac_final_input_data_is_authenticated(n):
    """SESSION_ONCE SIGN with only FINAL_INPUT_DATA: HMAC(K, msg), not
    HMAC(K, "") (fails on a tree that ignores it)."""
    key, msg = os.urandom(32), b"authenticate me"
    k = n.secret_key(key, "hmac(sha256)", flags=0)
    out = n.session_once(OP.SIGN, "hmac(sha256)", key=k, final_data=msg)
    assert out == hmac.new(key, msg, hashlib.sha256).digest()
    out = n.session_once(OP.SIGN, "sha256", final_data=msg)
    assert out == hashlib.sha256(msg).digest()
    # both update data and final data: in that order
    out = n.session_once(OP.SIGN, "hmac(sha256)", key=k, data=b"a",
                         final_data=b"b")
    assert out == hmac.new(key, b"ab", hashlib.sha256).digest()
    # VERIFY: FINAL_INPUT_DATA is the MAC to compare
    mac = hmac.new(key, msg, hashlib.sha256).digest()
    assert n.session_once(OP.VERIFY, "hmac(sha256)", key=k, data=msg,
                          final_data=mac) == 1
    assert n.session_once(OP.VERIFY, "hmac(sha256)", key=k, data=b"other",
                          final_data=mac) == 0


def test_rsa_sign_final_input_data_is_signed(n):
    rsa = rsa_numbers()
    k = n.key_init()
    n.key_import(k, der_private(rsa), "rsa", key_type=KEY_TYPE.PRIVATE)
    sig = n.session_once(OP.SIGN, "rsa", key=k, final_data=b"msg",
                         RSA_ENCODING_METHOD=RSA_PKCS1_V1_5,
                         SIGNATURE_HASH_ALGORITHM="sha256",
                         final_out_size=256)
    rsa.public_key().verify(sig, b"msg", padding.PKCS1v15(), hashes.SHA256())


# ---- DH and DSA parameters and peers --------------------------------------------

def _dh_priv(n):
    k, pub = n.key_init(), n.key_init()
    n.key_generate_pair(k, pub, "dh", DH_PRIME=PBYTES, DH_BASE=b"\x02")
    return k


def test_dh_small_subgroup_peers_refused(n):
    """Peers outside the subgroup of order q: 0, 1, p-1 (order 2), any
    non-residue (order 2q: p-2, p-4, 2^x * (p-1)), p and above (fails on a
    tree that only refuses 1 and p-1)."""
    k = _dh_priv(n)
    bad = [0, 1, P - 1, P - 2, P - 4, (pow(2, 12345, P) * (P - 1)) % P, P,
           P + 4, 2 ** 2048]
    for y in bad:
        d = n.key_init()
        assert errno_of(n.key_derive, k, d, DH_PUBLIC=be(y) or b"\0",
                        flags=FLAG_EXPORTABLE) == errno.EINVAL, hex(y)[:20]
    # a peer in the subgroup works, and the secret is exportable as asked
    d = n.key_init()
    n.key_derive(k, d, DH_PUBLIC=be(pow(2, DH_PEER_X, P)),
                 flags=FLAG_EXPORTABLE)
    assert len(n.key_export(d)) == 256


def _openssl(*args):
    return subprocess.run(["openssl", *args], capture_output=True,
                          check=True).stdout


def test_dh_bad_parameters_refused(n):
    """Composite p, a prime that is not safe, g of order 2q: refused at
    generation and at import."""
    not_safe = int(_openssl("prime", "-generate", "-bits", "1024").strip())
    composite = P + 4                       # divisible by 3
    cases = [(be(composite), b"\x02"), (be(not_safe), b"\x02"),
             (PBYTES, be(P - 2)), (PBYTES, b"\x01"), (PBYTES, be(P - 1))]
    for p, g in cases:
        a, b = n.key_init(), n.key_init()
        assert errno_of(n.key_generate_pair, a, b, "dh", DH_PRIME=p,
                        DH_BASE=g) == errno.EINVAL, (p[:4], g[:4])
    # import: PKCS#8 private keys with those parameters (built by hand:
    # cryptography refuses unsafe DH numbers itself)
    for p, g in cases[:3]:
        pi, gi = int.from_bytes(p, "big"), int.from_bytes(g, "big")
        der = dh_pkcs8(pi, gi, 0x1234567)
        k = n.key_init()
        assert errno_of(n.key_import, k, der, "dh",
                        key_type=KEY_TYPE.PRIVATE) == errno.EINVAL
    # the same builder with good parameters imports (the test can fail)
    k = n.key_init()
    n.key_import(k, dh_pkcs8(P, 2, 0x1234567), "dh",
                 key_type=KEY_TYPE.PRIVATE)


def dh_pkcs8(p, g, x):
    """PKCS#8 { 0, AlgId { dhKeyAgreement, DHParameter { p, g } },
    OCTET STRING { INTEGER x } }."""
    oid = bytes.fromhex("06092a864886f70d010301")
    alg = _seq(oid, _seq(_int(p), _int(g)))
    return _seq(_int(0), alg, _tlv(0x04, _int(x)))


def test_dsa_bad_domain_refused(n):
    """g not of order q, y outside the subgroup: refused at import."""
    from cryptography.hazmat.primitives.asymmetric import dsa
    good = dsa_numbers().private_numbers()
    pp = good.public_numbers.parameter_numbers
    cases = {
        "g=p-1": (pp.p, pp.q, pp.p - 1, good.public_numbers.y),
        "g=2": (pp.p, pp.q, 2, good.public_numbers.y),
        "y=p-1": (pp.p, pp.q, pp.g, pp.p - 1),
    }
    for what, (p, q, g, y) in cases.items():
        pub = dsa.DSAPublicNumbers(y, dsa.DSAParameterNumbers(p, q, g))
        der = pub.public_key().public_bytes(
            serialization.Encoding.DER,
            serialization.PublicFormat.SubjectPublicKeyInfo)
        k = n.key_init()
        assert errno_of(n.key_import, k, der, "dsa",
                        key_type=KEY_TYPE.PUBLIC) == errno.EINVAL, what


# ---- the two-key deadlock ---------------------------------------------------------

def _raw_call(m, name, st, attrs):
    """A prebuilt ioctl argument for libc.ioctl (ctypes drops the GIL)."""
    fixed = ctypes.sizeof(st)
    st.input_size = fixed + len(attrs)
    st.output_size = fixed
    buf = ctypes.create_string_buffer(fixed + len(attrs))
    ctypes.memmove(buf, ctypes.addressof(st), fixed)
    ctypes.memmove(ctypes.addressof(buf) + fixed, attrs, len(attrs))
    return ncrio.NCRIO[name], buf


def _race_child(fd, pairs, wfd, seconds):
    libc = ctypes.CDLL(None, use_errno=True)
    m = Ncr(fd=fd)
    counts = [0, 0]
    calls = []
    for a, b in pairs:
        # fails fast (no modulus size) but only after locking both keys
        calls.append(_raw_call(m, "KEY_GENERATE_PAIR",
                               ncrio.key_generate_pair(private_key=a,
                                                       public_key=b),
                               m.attrs(ALGORITHM="rsa")))
        calls.append(_raw_call(m, "KEY_WRAP",
                               ncrio.key_wrap(wrapping_key=a, source_key=b,
                                              buffer=0, buffer_size=0),
                               m.attrs(WRAPPING_ALGORITHM=WALG_AES_RFC5649)))
    stop = time.monotonic() + seconds

    def loop(idx):
        mine = calls[idx::2]
        while time.monotonic() < stop:
            for req, buf in mine:
                libc.ioctl(fd, ctypes.c_ulong(req), buf)
            counts[idx] += 1

    ts = [threading.Thread(target=loop, args=(i,)) for i in (0, 1)]
    for t in ts:
        t.start()
    while any(t.is_alive() for t in ts):
        os.write(wfd, struct.pack("=QQ", *counts))
        time.sleep(0.5)
    os.write(wfd, struct.pack("=QQ", *counts))
    os._exit(0)


def test_two_key_lock_order_no_deadlock(dev):
    """One thread loops GENERATE_PAIR(A, B), another KEY_WRAP(A, B), on
    pairs whose handle order and address order differ (keys freed and
    reallocated in reverse).  Both must keep progressing for the whole run
    (a tree that locks in two orders hangs within seconds)."""
    m = Ncr(fd=dev)
    first = [m.key_init() for _ in range(16)]
    for k in first:
        m.key_deinit(k)
    keys = [m.key_init() for _ in range(16)]
    pairs = [(keys[i], keys[i + 1]) for i in range(0, 16, 2)]
    seconds = 10
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            _race_child(dev, pairs, w, seconds)
        finally:
            os._exit(1)
    os.close(w)
    last, stalled_since, deadline = None, time.monotonic(), \
        time.monotonic() + seconds + 30
    done = False
    while time.monotonic() < deadline:
        ready, _, _ = select.select([r], [], [], 1.0)
        if ready:
            data = os.read(r, 16)
            if not data:
                done = True
                break
            cur = struct.unpack("=QQ", data[:16])
            if cur != last:
                last, stalled_since = cur, time.monotonic()
        if time.monotonic() - stalled_since > 8:
            break
    os.close(r)
    if not done:
        os.kill(pid, 9)     # useless if the threads sleep in D state
        pytest.fail("threads stopped progressing: %r (deadlock)" % (last,))
    os.waitpid(pid, 0)
    assert last and last[0] > 0 and last[1] > 0, last
