"""EC keys ("ecdsa": P-256, P-384, x25519) through /dev/crypto, a quick
smoke test of the driver side: generation, KEY_GET_INFO's curve, export
read by the openssl CLI, kernel signatures verified by `openssl pkeyutl`
and OpenSSL's verified by the kernel (message and digest input), ECDH /
X25519 against an openssl-generated peer, import of OpenSSL's formats and
the storage and key-wrap round trips.
"""
import errno
import hashlib

import pytest

from ncrio import (ATTR, FLAG_EXPORTABLE, FLAG_WRAPPABLE, FLAG_WRAPPING,
                   KEY_TYPE, OP, errno_of)
from pk_util import openssl, tmpfile

CURVES = {"P-256": ("prime256v1", 32), "P-384": ("secp384r1", 48)}
MSG = b"an EC signature made in the kernel" * 5
HASHES = {"sha1": hashlib.sha1, "sha224": hashlib.sha224,
          "sha256": hashlib.sha256, "sha384": hashlib.sha384,
          "sha512": hashlib.sha512}


def gen_pair(n, curve, flags=FLAG_EXPORTABLE):
    priv, pub = n.key_init(), n.key_init()
    n.key_generate_pair(priv, pub, "ecdsa", flags=flags, ECC_CURVE=curve)
    return priv, pub


def sign(n, key, data, hash_="sha256", digest=False, out=512):
    extra = {"SIGNATURE_HASH_ALGORITHM": hash_}
    if digest:
        extra["SIGNATURE_INPUT_IS_DIGEST"] = 1
    return n.session_once(OP.SIGN, "ecdsa", key=key, data=data,
                          final_out_size=out, **extra)


def verify(n, key, data, sig, hash_="sha256", digest=False):
    extra = {"SIGNATURE_HASH_ALGORITHM": hash_}
    if digest:
        extra["SIGNATURE_INPUT_IS_DIGEST"] = 1
    return n.session_once(OP.VERIFY, "ecdsa", key=key, data=data,
                          final_data=sig, **extra)


def pem_of_spki(spki, name):
    p = tmpfile(name + ".pub.der", spki)
    return tmpfile(name + ".pub.pem", openssl(
        "pkey", "-pubin", "-inform", "DER", "-in", p).stdout)


def ossl_verify_digest(pub_pem, dg, sig):
    """`openssl pkeyutl -verify` of a signature over a digest."""
    r = openssl("pkeyutl", "-verify", "-pubin", "-inkey", pub_pem,
                "-in", tmpfile("dg", dg), "-sigfile", tmpfile("sig", sig),
                check=False)
    return r.returncode == 0 and b"Signature Verified Successfully" in r.stdout


def ossl_genpkey(curve):
    if curve == "x25519":
        args = ["-algorithm", "X25519"]
    else:
        args = ["-algorithm", "EC", "-pkeyopt",
                "ec_paramgen_curve:" + CURVES[curve][0]]
    pem = openssl("genpkey", *args).stdout
    return tmpfile("peer-%s.pem" % curve, pem)


@pytest.mark.parametrize("curve", ["P-256", "P-384", "x25519"])
def test_generate_export(n, curve):
    priv, pub = gen_pair(n, curve)
    for k in (priv, pub):
        info = n.key_get_info(k, wanted=(ATTR.ALGORITHM, ATTR.ECC_CURVE))
        assert info == {ATTR.ALGORITHM: "ecdsa", ATTR.ECC_CURVE: curve}
    spki = n.key_export(pub)
    text = openssl("pkey", "-pubin", "-inform", "DER", "-noout", "-text",
                   data=spki).stdout.decode()
    der = n.key_export(priv)
    if curve == "x25519":
        assert "X25519 Public-Key" in text
        assert len(spki) == 44
        # PKCS#8, what `openssl genpkey -algorithm X25519` writes
        back = openssl("pkey", "-inform", "DER", "-outform", "DER",
                       data=der).stdout
    else:
        assert CURVES[curve][0] in text
        # RFC 5915 ECPrivateKey, what `openssl ec -outform DER` writes
        back = openssl("ec", "-inform", "DER", "-outform", "DER",
                       data=der).stdout
    assert back == der
    pub_of_priv = openssl("pkey", "-inform", "DER", "-pubout", "-outform",
                          "DER", data=der).stdout
    assert pub_of_priv == spki
    # the key ID is the SHA-1 of the SPKI, the same on both halves
    ids = [n.key_get_info(k, wanted=(ATTR.KEY_ID,))[ATTR.KEY_ID]
           for k in (priv, pub)]
    assert ids[0] == ids[1] == hashlib.sha1(spki).digest()


def test_generate_errors(n):
    priv, pub = n.key_init(), n.key_init()
    for extra in ({}, {"ECC_CURVE": "P-521"}, {"ECC_CURVE": "p-256"}):
        assert errno_of(n.key_generate_pair, priv, pub, "ecdsa",
                        **extra) == errno.EINVAL
    # a key without a curve reports none
    s = n.secret_key(bytes(16), "ecb(aes)")
    assert n.key_get_info(s, wanted=(ATTR.ECC_CURVE,)) == {}


@pytest.mark.parametrize("curve", ["P-256", "P-384"])
def test_sign_verify(n, curve):
    priv, pub = gen_pair(n, curve)
    pem = pem_of_spki(n.key_export(pub), curve)
    for h, fn in HASHES.items():
        dg = fn(MSG).digest()
        sig = sign(n, priv, MSG, h)
        assert 8 <= len(sig) <= (72 if curve == "P-256" else 104)
        assert ossl_verify_digest(pem, dg, sig), h
        assert verify(n, pub, MSG, sig, h) == 1
        assert verify(n, pub, MSG + b"!", sig, h) == 0
        assert verify(n, pub, MSG, sig + b"\0", h) == 0
        dsig = sign(n, priv, dg, h, digest=True)
        assert ossl_verify_digest(pem, dg, dsig), h
        assert verify(n, pub, dg, dsig, h, digest=True) == 1
        assert verify(n, pub, dg, sig, h, digest=True) == 1
        # a digest of the wrong length
        assert errno_of(sign, n, priv, dg + b"x", h,
                        digest=True) == errno.EINVAL
    # hedged: two signatures of one message differ
    assert sign(n, priv, MSG) != sign(n, priv, MSG)
    # too small an output buffer
    assert errno_of(sign, n, priv, MSG, out=16) == errno.ERANGE


@pytest.mark.parametrize("curve", ["P-256", "P-384"])
def test_openssl_key_and_signature(n, curve):
    pem = ossl_genpkey(curve)
    ecpriv = openssl("ec", "-in", pem, "-outform", "DER").stdout
    pkcs8 = openssl("pkey", "-in", pem, "-outform", "DER").stdout
    spki = openssl("pkey", "-in", pem, "-pubout", "-outform", "DER").stdout
    k1, k2, kp = n.key_init(), n.key_init(), n.key_init()
    n.key_import(k1, ecpriv, "ecdsa", key_type=KEY_TYPE.PRIVATE,
                 flags=FLAG_EXPORTABLE)
    n.key_import(k2, pkcs8, "ecdsa", key_type=KEY_TYPE.PRIVATE,
                 flags=FLAG_EXPORTABLE)
    n.key_import(kp, spki, "ecdsa", key_type=KEY_TYPE.PUBLIC,
                 flags=FLAG_EXPORTABLE)
    assert n.key_export(k1) == n.key_export(k2) == ecpriv
    assert n.key_export(kp) == spki
    sig = openssl("dgst", "-sha256", "-sign", pem,
                  data=MSG).stdout
    assert verify(n, kp, MSG, sig) == 1
    assert verify(n, kp, MSG[1:], sig) == 0
    pub_pem = tmpfile("ossl-%s.pub.pem" % curve, openssl(
        "pkey", "-in", pem, "-pubout").stdout)
    assert ossl_verify_digest(pub_pem, hashlib.sha256(MSG).digest(),
                              sign(n, k2, MSG))
    # the bare point is no key: SPKI only
    assert errno_of(n.key_import, n.key_init(), spki[-(1 + 2 *
                    CURVES[curve][1]):], "ecdsa",
                    key_type=KEY_TYPE.PUBLIC) == errno.EINVAL


def test_x25519_does_not_sign(n):
    priv, pub = gen_pair(n, "x25519")
    assert errno_of(sign, n, priv, MSG) == errno.EINVAL
    assert errno_of(verify, n, pub, MSG, bytes(64)) == errno.EINVAL


@pytest.mark.parametrize("curve", ["P-256", "P-384", "x25519"])
def test_derive(n, curve):
    priv, pub = gen_pair(n, curve)
    peer = ossl_genpkey(curve)
    peer_spki = openssl("pkey", "-in", peer, "-pubout", "-outform",
                        "DER").stdout
    mine = pem_of_spki(n.key_export(pub), "mine-" + curve)
    want = openssl("pkeyutl", "-derive", "-inkey", peer, "-peerkey",
                   mine).stdout
    size = 32 if curve == "x25519" else CURVES[curve][1]
    assert len(want) == size
    raw = peer_spki[-size:] if curve == "x25519" else \
        peer_spki[-(1 + 2 * size):]
    for value in (raw, peer_spki):
        k = n.key_init()
        n.key_derive(priv, k, "ecdh", flags=FLAG_EXPORTABLE,
                     DH_PUBLIC=value)
        assert n.key_export(k) == want
        info = n.key_get_info(k, wanted=(ATTR.ALGORITHM, ATTR.KEY_TYPE))
        assert info == {ATTR.ALGORITHM: "ecdh",
                        ATTR.KEY_TYPE: KEY_TYPE.SECRET}
    k = n.key_init()
    assert errno_of(n.key_derive, priv, k, "dh",
                    DH_PUBLIC=raw) == errno.EINVAL
    assert errno_of(n.key_derive, pub, k, "ecdh",
                    DH_PUBLIC=raw) == errno.EINVAL
    assert errno_of(n.key_derive, priv, k, "ecdh",
                    DH_PUBLIC=raw[:-1]) == errno.EINVAL
    if curve == "x25519":
        # a low-order point: the all-zero secret
        assert errno_of(n.key_derive, priv, k, "ecdh",
                        DH_PUBLIC=bytes(32)) == errno.EINVAL
    else:
        bad = bytearray(raw)
        bad[-1] ^= 1                            # off the curve
        assert errno_of(n.key_derive, priv, k, "ecdh",
                        DH_PUBLIC=bytes(bad)) == errno.EINVAL
        comp = bytes([2 + (raw[-1] & 1)]) + raw[1:1 + size]
        assert errno_of(n.key_derive, priv, k, "ecdh",
                        DH_PUBLIC=comp) == errno.EINVAL
        # the other curve's key
        other = openssl("pkey", "-in", ossl_genpkey(
            "P-384" if curve == "P-256" else "P-256"), "-pubout",
            "-outform", "DER").stdout
        assert errno_of(n.key_derive, priv, k, "ecdh",
                        DH_PUBLIC=other) == errno.EINVAL


@pytest.mark.parametrize("curve", ["P-256", "x25519"])
def test_storage_and_wrap(n, curve, master_key):
    priv, pub = gen_pair(n, curve, flags=FLAG_EXPORTABLE | FLAG_WRAPPABLE)
    blob = n.storage_wrap(priv)
    k = n.key_init()
    n.storage_unwrap(k, blob)
    assert n.key_export(k) == n.key_export(priv)
    assert n.key_get_info(k, wanted=(ATTR.ECC_CURVE,)) == {
        ATTR.ECC_CURVE: curve}
    kek = n.secret_key(bytes(range(32)), "ecb(aes)",
                       flags=FLAG_EXPORTABLE | FLAG_WRAPPING)
    u = n.key_init()
    n.key_unwrap(kek, u, n.key_wrap(kek, priv), ALGORITHM="ecdsa",
                 KEY_TYPE=KEY_TYPE.PRIVATE)
    # not exportable once unwrapped: the same key by what it computes
    if curve == "x25519":
        peer = pem_of_spki(n.key_export(gen_pair(n, curve)[1]), "w-peer")
        peer_u = openssl("pkey", "-pubin", "-in", peer, "-outform",
                         "DER").stdout[-32:]
        secrets = []
        for key in (priv, u):
            d = n.key_init()
            n.key_derive(key, d, "ecdh", flags=FLAG_EXPORTABLE,
                         DH_PUBLIC=peer_u)
            secrets.append(n.key_export(d))
        assert secrets[0] == secrets[1]
    else:
        assert verify(n, pub, MSG, sign(n, u, MSG)) == 1
    # a 128-bit key needs a KEK stronger than AES-128 (as RSA-3072)
    kek16 = n.secret_key(bytes(16), "ecb(aes)",
                         flags=FLAG_EXPORTABLE | FLAG_WRAPPING)
    assert errno_of(n.key_wrap, kek16, priv) == errno.EPERM
    kek24 = n.secret_key(bytes(24), "ecb(aes)",
                         flags=FLAG_EXPORTABLE | FLAG_WRAPPING)
    assert len(n.key_wrap(kek24, priv)) > 32
