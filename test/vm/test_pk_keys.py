"""Public-key objects through /dev/crypto (driver/pk.c, pk_material.c, lib/der.c).

NCRIO_KEY_GENERATE_PAIR for rsa/dsa/dh (exact sizes, flags, shared key ID =
SHA-1 of the public key's export format), export formats parsed by the
openssl CLI, OpenSSL keys imported and exported back byte for byte, DH
derivation equal to `openssl pkeyutl -derive` in both directions, strict
DER (EINVAL).  Sizes are kept small: the guest runs under TCG.
"""
import errno
import hashlib
import os
import time

import pytest

from ncrio import (ATTR, FLAG_EXPORTABLE, FLAG_WRAPPABLE, KEY_TYPE, OP,
                   RSA_PKCS1_V1_5, errno_of)
from pk_util import FFDHE2048_P, der_read, keyfiles, openssl, tmpfile

P_BYTES = FFDHE2048_P.to_bytes(256, "big")


def be(v):
    return v.to_bytes(max(1, (v.bit_length() + 7) // 8), "big")


# ---- tiny DER reader/writer for the checks ----------------------------------

def der_seq_items(content):
    items, off = [], 0
    while off < len(content):
        tag, c, off = der_read(content, off)
        items.append((tag, c))
    return items


def der_tlv(tag, content):
    ln = len(content)
    if ln < 0x80:
        hdr = bytes([ln])
    else:
        b = be(ln)
        hdr = bytes([0x80 | len(b)]) + b
    return bytes([tag]) + hdr + content


def der_int(v):
    b = be(v)
    if b[0] & 0x80:
        b = b"\0" + b
    return der_tlv(0x02, b)


DH_OID = bytes.fromhex("06092a864886f70d010301")


def dh_spki(p, g, y):
    algid = der_tlv(0x30, DH_OID + der_tlv(0x30, der_int(p) + der_int(g)))
    return der_tlv(0x30, algid + der_tlv(0x03, b"\0" + der_int(y)))


def spki_dh_y(spki):
    _, seq, _ = der_read(spki)
    (_, _), (_, bits) = der_seq_items(seq)
    _, y, _ = der_read(bits[1:])
    return int.from_bytes(y, "big")


def key_info(n, k):
    return n.key_get_info(k)


def gen_pair(n, algo, flags=FLAG_EXPORTABLE, **attrs):
    priv, pub = n.key_init(), n.key_init()
    t = time.monotonic()
    n.key_generate_pair(priv, pub, algo, flags=flags, **attrs)
    return priv, pub, time.monotonic() - t


# ---- generation -------------------------------------------------------------

SLOW = pytest.mark.skipif(not os.environ.get("NCR_SLOW_TESTS"),
                          reason="set NCR_SLOW_TESTS=1 (minutes under TCG)")


@pytest.mark.parametrize("bits", [1024, 2048,
                                  pytest.param(3072, marks=SLOW),
                                  pytest.param(4096, marks=SLOW)])
def test_generate_rsa(n, bits):
    priv, pub, dt = gen_pair(n, "rsa", RSA_MODULUS_BITS=bits)
    print("RSA-%d GENERATE_PAIR in the VM: %.1f s" % (bits, dt))
    pub_der = n.key_export(pub)
    text = openssl("pkey", "-pubin", "-inform", "DER", "-noout", "-text",
                   data=pub_der).stdout.decode()
    assert "Public-Key: (%d bit)" % bits in text
    mod = openssl("rsa", "-pubin", "-inform", "DER", "-noout", "-modulus",
                  data=pub_der).stdout.decode()
    assert int(mod.split("=", 1)[1], 16).bit_length() == bits
    assert "Exponent: 65537" in text
    # the private half (exportable on request) is a consistent PKCS#1 key
    priv_der = n.key_export(priv, 8192)
    r = openssl("rsa", "-inform", "DER", "-check", "-noout", data=priv_der)
    assert b"RSA key ok" in r.stdout
    pub_from_priv = openssl("pkey", "-inform", "DER", "-pubout", "-outform",
                            "DER", data=priv_der).stdout
    assert pub_from_priv == pub_der
    # flags and shared key ID = SHA-1(SubjectPublicKeyInfo)
    ipub, ipriv = key_info(n, pub), key_info(n, priv)
    assert ipub[ATTR.KEY_FLAGS] & (FLAG_EXPORTABLE | FLAG_WRAPPABLE) == \
        FLAG_EXPORTABLE | FLAG_WRAPPABLE
    assert ipub[ATTR.KEY_TYPE] == KEY_TYPE.PUBLIC
    assert ipriv[ATTR.KEY_TYPE] == KEY_TYPE.PRIVATE
    assert ipub[ATTR.KEY_ID] == ipriv[ATTR.KEY_ID] == \
        hashlib.sha1(pub_der).digest()


def test_generate_rsa_exponent_and_errors(n):
    priv, pub, _ = gen_pair(n, "rsa", RSA_MODULUS_BITS=1024,
                            RSA_E=bytes([3]))
    text = openssl("pkey", "-pubin", "-inform", "DER", "-noout", "-text",
                   data=n.key_export(pub)).stdout.decode()
    assert "Exponent: 3 " in text
    k1, k2 = n.key_init(), n.key_init()
    assert errno_of(n.key_generate_pair, k1, k2, "rsa") == errno.EINVAL
    assert errno_of(n.key_generate_pair, k1, k2, "rsa",
                    RSA_MODULUS_BITS=512) == errno.EINVAL
    assert errno_of(n.key_generate_pair, k1, k2, "rsa",
                    RSA_MODULUS_BITS=1024, RSA_E=bytes([2])) == errno.EINVAL
    assert errno_of(n.key_generate_pair, k1, k1, "rsa",
                    RSA_MODULUS_BITS=1024) == errno.EINVAL
    assert errno_of(n.key_generate_pair, k1, k2, "cbc(aes)",
                    RSA_MODULUS_BITS=1024) == errno.EINVAL


def test_private_key_not_exportable_by_default(n):
    priv, pub, _ = gen_pair(n, "rsa", flags=0, RSA_MODULUS_BITS=1024)
    assert errno_of(n.key_export, priv, 8192) != 0
    assert n.key_export(pub)  # the public half always is


def test_generate_dsa_default(n):
    priv, pub, dt = gen_pair(n, "dsa")
    print("DSA-1024/160 GENERATE_PAIR in the VM: %.1f s" % dt)
    pub_der = n.key_export(pub)
    text = openssl("pkey", "-pubin", "-inform", "DER", "-noout", "-text",
                   data=pub_der).stdout.decode()
    assert "Public-Key: (1024 bit)" in text
    priv_der = n.key_export(priv, 8192)
    _, seq, _ = der_read(priv_der)
    items = der_seq_items(seq)
    assert [t for t, _ in items] == [0x02] * 6
    p, q = (int.from_bytes(c, "big") for _, c in items[1:3])
    assert p.bit_length() == 1024 and q.bit_length() == 160
    assert (p - 1) % q == 0
    openssl("dsa", "-inform", "DER", "-noout", data=priv_der)
    assert key_info(n, pub)[ATTR.KEY_ID] == hashlib.sha1(pub_der).digest()


@pytest.mark.parametrize("pbits,qbits", [(2048, 224),
                                         pytest.param(2048, 256, marks=SLOW),
                                         pytest.param(3072, 256, marks=SLOW)])
def test_generate_dsa_sizes(n, pbits, qbits):
    priv, pub, dt = gen_pair(n, "dsa", DSA_P_BITS=pbits, DSA_Q_BITS=qbits)
    print("DSA-%d/%d GENERATE_PAIR in the VM: %.1f s" % (pbits, qbits, dt))
    text = openssl("pkey", "-pubin", "-inform", "DER", "-noout", "-text",
                   data=n.key_export(pub)).stdout.decode()
    assert "Public-Key: (%d bit)" % pbits in text
    _, seq, _ = der_read(n.key_export(priv, 8192))
    q = int.from_bytes(der_seq_items(seq)[2][1], "big")
    assert q.bit_length() == qbits
    k1, k2 = n.key_init(), n.key_init()
    assert errno_of(n.key_generate_pair, k1, k2, "dsa", DSA_P_BITS=1024,
                    DSA_Q_BITS=256) == errno.EINVAL


# ---- generated keys in use (sessions: driver/pk_session.c) -------------------

def kernel_sign(n, key, algo, msg):
    extra = {"SIGNATURE_HASH_ALGORITHM": "sha256"}
    if algo == "rsa":
        extra["RSA_ENCODING_METHOD"] = RSA_PKCS1_V1_5
    return n.session_once(OP.SIGN, algo, key=key, data=msg,
                          final_out_size=512, **extra)


def openssl_verifies(pub_der, msg, sig):
    pub = tmpfile("gen_pub.der", pub_der)
    m, s = tmpfile("gen_msg", msg), tmpfile("gen_sig", sig)
    r = openssl("dgst", "-sha256", "-verify", pub, "-keyform", "DER",
                "-signature", s, m, check=False)
    return r.returncode == 0 and b"Verified OK" in r.stdout


@pytest.mark.parametrize("algo,attrs", [
    ("rsa", {"RSA_MODULUS_BITS": 1024}),
    ("dsa", {}),
])
def test_generated_pair_signs_for_openssl(n, algo, attrs):
    priv, pub, _ = gen_pair(n, algo, flags=0, **attrs)
    msg = b"signed by a key generated in the kernel"
    sig = kernel_sign(n, priv, algo, msg)
    assert openssl_verifies(n.key_export(pub), msg, sig)
    assert not openssl_verifies(n.key_export(pub), msg + b"!", sig)


def test_storage_wrap_of_pairs(n, master_key):
    """Private and public halves survive NCRIO_KEY_STORAGE_WRAP/UNWRAP
    (storage.c calls ncr_pk_export / ncr_pk_import)."""
    priv, pub, _ = gen_pair(n, "rsa", flags=FLAG_WRAPPABLE,
                            RSA_MODULUS_BITS=1024)
    blob = n.storage_wrap(priv)
    k = n.key_init()
    n.storage_unwrap(k, blob)
    info = key_info(n, k)
    assert info[ATTR.KEY_TYPE] == KEY_TYPE.PRIVATE
    assert info[ATTR.KEY_ID] == key_info(n, priv)[ATTR.KEY_ID]
    msg = b"after a storage round trip"
    assert openssl_verifies(n.key_export(pub), msg,
                            kernel_sign(n, k, "rsa", msg))
    kp = n.key_init()
    n.storage_unwrap(kp, n.storage_wrap(pub))
    assert n.key_export(kp) == n.key_export(pub)


# ---- import / export --------------------------------------------------------

def traditional_der(algo, pem):
    """PKCS#1 RSAPrivateKey / OpenSSL DSAPrivateKey (OpenSSL 3's rsa and
    dsa commands write PKCS#8 unless told -traditional)."""
    extra = ["-traditional"] if algo == "rsa" else []
    return openssl(algo, "-in", pem, "-outform", "DER", *extra).stdout


@pytest.mark.parametrize("name", ["rsa2048", "rsa1025", "dsa2048"])
def test_import_export_identical(n, name):
    kf = keyfiles(name)
    trad = traditional_der(kf.algo, kf.pem)
    k = n.key_init()
    n.key_import(k, trad, kf.algo, key_type=KEY_TYPE.PRIVATE,
                 flags=FLAG_EXPORTABLE)
    assert n.key_export(k, 8192) == trad
    # without a KEY_ID attribute the ID is SHA-1 of the public key
    assert key_info(n, k)[ATTR.KEY_ID] == hashlib.sha1(kf.pub_der).digest()
    # PKCS#8 is accepted and exported in the traditional form
    p8 = openssl("pkcs8", "-topk8", "-nocrypt", "-in", kf.pem, "-outform",
                 "DER").stdout
    k8 = n.key_init()
    n.key_import(k8, p8, kf.algo, key_type=KEY_TYPE.PRIVATE,
                 flags=FLAG_EXPORTABLE, key_id=b"mine")
    assert n.key_export(k8, 8192) == trad
    assert key_info(n, k8)[ATTR.KEY_ID] == b"mine"
    kp = n.key_init()
    n.key_import(kp, kf.pub_der, kf.algo, key_type=KEY_TYPE.PUBLIC,
                 flags=FLAG_EXPORTABLE)
    assert n.key_export(kp) == kf.pub_der


def test_import_openssl_generated_rsa(n):
    pem = tmpfile("gen_rsa.pem", openssl(
        "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024"
    ).stdout)
    der = traditional_der("rsa", pem)
    k = n.key_init()
    n.key_import(k, der, "rsa", key_type=KEY_TYPE.PRIVATE,
                 flags=FLAG_EXPORTABLE)
    assert n.key_export(k, 8192) == der


def test_bad_der_rejected(n):
    kf = keyfiles("rsa2048")
    k = n.key_init()
    bad = [kf.pub_der[:-1], kf.pub_der + b"\0", b"", b"\x30\x80\x00\x00",
           b"\x30\x00"]
    for data in bad:
        assert errno_of(n.key_import, k, data, "rsa",
                        key_type=KEY_TYPE.PUBLIC) == errno.EINVAL
    # non-minimal outer length
    long_form = b"\x30\x83\x00" + kf.pub_der[2:]
    assert errno_of(n.key_import, k, long_form, "rsa",
                    key_type=KEY_TYPE.PUBLIC) == errno.EINVAL
    # a public key where a private key is expected, wrong algorithm
    assert errno_of(n.key_import, k, kf.pub_der, "rsa",
                    key_type=KEY_TYPE.PRIVATE) == errno.EINVAL
    assert errno_of(n.key_import, k, kf.pub_der, "dsa",
                    key_type=KEY_TYPE.PUBLIC) == errno.EINVAL
    assert errno_of(n.key_import, k, kf.priv_der[:-3], "rsa",
                    key_type=KEY_TYPE.PRIVATE) == errno.EINVAL


# ---- Diffie-Hellman ---------------------------------------------------------

@pytest.fixture(scope="module")
def peer():
    """An OpenSSL ffdhe2048 key: PEM path and its public value."""
    pem = tmpfile("dh_peer.pem", openssl(
        "genpkey", "-algorithm", "DH", "-pkeyopt", "group:ffdhe2048").stdout)
    spki = openssl("pkey", "-in", pem, "-pubout", "-outform", "DER").stdout
    return pem, spki_dh_y(spki)


def derive_secret(n, priv, peer_y, flags=FLAG_EXPORTABLE):
    k = n.key_init()
    n.key_derive(priv, k, flags=flags, DH_PUBLIC=be(peer_y))
    return k, n.key_export(k)


def test_dh_generate_and_derive_both_ways(n, peer):
    peer_pem, peer_y = peer
    priv, pub, dt = gen_pair(n, "dh", DH_PRIME=P_BYTES, DH_BASE=b"\x02")
    print("DH ffdhe2048 GENERATE_PAIR in the VM: %.2f s" % dt)
    y = int.from_bytes(n.key_export(pub), "big")
    assert 1 < y < FFDHE2048_P - 1
    assert key_info(n, pub)[ATTR.KEY_ID] == \
        hashlib.sha1(n.key_export(pub)).digest()
    k, ours = derive_secret(n, priv, peer_y)
    assert len(ours) == 256
    assert key_info(n, k)[ATTR.KEY_TYPE] == KEY_TYPE.SECRET
    # OpenSSL with its private key and our public value
    our_pub = tmpfile("dh_ours.der", dh_spki(FFDHE2048_P, 2, y))
    theirs = openssl("pkeyutl", "-derive", "-inkey", peer_pem, "-peerkey",
                     our_pub, "-peerform", "DER").stdout
    assert ours == theirs.rjust(256, b"\0")
    # OpenSSL with our exported (PKCS#8) private key and its public value
    our_priv = tmpfile("dh_ours_priv.der", n.key_export(priv, 8192))
    peer_pub = tmpfile("dh_peer_pub.pem", openssl(
        "pkey", "-in", peer_pem, "-pubout").stdout)
    theirs2 = openssl("pkeyutl", "-derive", "-inkey", our_priv, "-keyform",
                      "DER", "-peerkey", peer_pub).stdout
    assert ours == theirs2.rjust(256, b"\0")


def test_dh_derived_secret_survives_storage(n, peer, master_key):
    """A derived secret (algorithm "dh") storage-wraps and restores."""
    _, peer_y = peer
    priv, _, _ = gen_pair(n, "dh", DH_PRIME=P_BYTES, DH_BASE=b"\x02")
    k, secret = derive_secret(n, priv, peer_y,
                              flags=FLAG_EXPORTABLE | FLAG_WRAPPABLE)
    blob = n.storage_wrap(k)
    k2 = n.key_init()
    n.storage_unwrap(k2, blob)
    assert key_info(n, k2)[ATTR.KEY_TYPE] == KEY_TYPE.SECRET
    assert n.key_export(k2) == secret


def test_dh_import_openssl_private(n, peer):
    peer_pem, peer_y = peer
    p8 = openssl("pkey", "-in", peer_pem, "-outform", "DER").stdout
    k = n.key_init()
    n.key_import(k, p8, "dh", key_type=KEY_TYPE.PRIVATE,
                 flags=FLAG_EXPORTABLE)
    assert n.key_export(k, 8192) == p8
    # derive against a kernel-generated key: both sides agree
    priv, pub, _ = gen_pair(n, "dh", DH_PRIME=P_BYTES, DH_BASE=b"\x02")
    y = int.from_bytes(n.key_export(pub), "big")
    _, s1 = derive_secret(n, k, y)
    _, s2 = derive_secret(n, priv, peer_y)
    assert s1 == s2
    # the bare public value imports and exports as a raw number
    kp = n.key_init()
    n.key_import(kp, be(peer_y), "dh", key_type=KEY_TYPE.PUBLIC,
                 flags=FLAG_EXPORTABLE)
    assert n.key_export(kp) == be(peer_y)


def test_dh_peer_range_and_errors(n):
    priv, pub, _ = gen_pair(n, "dh", DH_PRIME=P_BYTES, DH_BASE=b"\x02")
    for bad in (0, 1, FFDHE2048_P - 1, FFDHE2048_P, FFDHE2048_P + 5):
        k = n.key_init()
        assert errno_of(n.key_derive, priv, k, DH_PUBLIC=be(bad)) == \
            errno.EINVAL
    k = n.key_init()
    assert errno_of(n.key_derive, priv, k) == errno.EINVAL  # no DH_PUBLIC
    assert errno_of(n.key_derive, priv, k, algo="ecdh",
                    DH_PUBLIC=be(5)) == errno.EINVAL
    assert errno_of(n.key_derive, pub, k, DH_PUBLIC=be(5)) == errno.EINVAL
    assert errno_of(n.key_derive, priv, priv, DH_PUBLIC=be(5)) == \
        errno.EINVAL
    # mandatory group parameters
    a, b = n.key_init(), n.key_init()
    assert errno_of(n.key_generate_pair, a, b, "dh",
                    DH_PRIME=P_BYTES) == errno.EINVAL
    assert errno_of(n.key_generate_pair, a, b, "dh", DH_PRIME=P_BYTES,
                    DH_BASE=b"\x01") == errno.EINVAL
