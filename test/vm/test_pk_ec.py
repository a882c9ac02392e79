"""EC keys through /dev/crypto: "ecdsa" keys on P-256, P-384 and x25519.

NCRIO_KEY_GENERATE_PAIR with NCR_ATTR_ECC_CURVE (aliases, errors, the
canonical name in KEY_GET_INFO), export formats (SPKI, RFC 5915
ECPrivateKey, RFC 8410 PKCS#8) byte for byte against OpenSSL, imports of
OpenSSL keys and the malformed ones CRYPTO(4) refuses, ECDSA sessions
interoperating with the openssl CLI both ways (hashing in the kernel and
digest input, truncation, strict DER, output room), and KEY_DERIVE "ecdh"
against OpenSSL and python-cryptography with the peer checks.
"""
import errno
import hashlib
import os

import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, x25519
from cryptography.hazmat.primitives.asymmetric.utils import Prehashed

from ec_util import (OID_ED25519, OID_P256, OID_P384, OID_SECP256K1, P256,
                     P384, X25519, be, derive, ec_pkcs8, ec_private, ec_spki,
                     gen, imp, imp_priv, nonce_of, peer_value, point_of,
                     private_der, py_key, py_shared, raw_x25519_pub, sha,
                     sig_decode, sig_der, sign, spki_of, verify, x25519_pkcs8,
                     x25519_spki)
from ncrio import (ATTR, FLAG_DECRYPT, FLAG_EXPORTABLE, FLAG_SIGN,
                   FLAG_WRAPPABLE, KEY_TYPE, OP, RSA_PKCS1_V1_5, errno_of)
from pk_util import _seq, _tlv, keyfiles, openssl, tmpfile

MSG = b"an EC key in the kernel signs this" * 5
NIST = [P256, P384]
E = errno.EINVAL


def info(n, k, curve=True):
    wanted = [ATTR.ALGORITHM, ATTR.KEY_FLAGS, ATTR.KEY_TYPE, ATTR.KEY_ID]
    return n.key_get_info(k, wanted=wanted + [ATTR.ECC_CURVE] * curve)


def ossl_verify(spki, msg, sig, hash_):
    pub, m, s = (tmpfile("ec_pub.der", spki), tmpfile("ec_msg", msg),
                 tmpfile("ec_sig", sig))
    r = openssl("dgst", "-" + hash_, "-verify", pub, "-keyform", "DER",
                "-signature", s, m, check=False)
    return r.returncode == 0 and b"Verified OK" in r.stdout


def ossl_sign(key_der, msg, hash_):
    k, m = tmpfile("ec_key.der", key_der), tmpfile("ec_msg", msg)
    return openssl("dgst", "-" + hash_, "-sign", k, "-keyform", "DER",
                   m).stdout


def ossl_derive(priv_der, peer_spki):
    k, p = tmpfile("ec_dk.der", priv_der), tmpfile("ec_dp.der", peer_spki)
    return openssl("pkeyutl", "-derive", "-inkey", k, "-keyform", "DER",
                   "-peerkey", p, "-peerform", "DER").stdout


# ---- generation ------------------------------------------------------------

@pytest.mark.parametrize("alias,canonical", [
    ("P-256", "P-256"), ("prime256v1", "P-256"), ("secp256r1", "P-256"),
    ("P-384", "P-384"), ("secp384r1", "P-384"),
    ("x25519", "x25519"), ("X25519", "x25519")])
def test_generate_curve_aliases(n, alias, canonical):
    priv, pub = gen(n, alias)
    ipriv, ipub = info(n, priv), info(n, pub)
    for i in (ipriv, ipub):
        assert i[ATTR.ALGORITHM] == "ecdsa"
        assert i[ATTR.ECC_CURVE] == canonical
    assert ipriv[ATTR.KEY_TYPE] == KEY_TYPE.PRIVATE
    assert ipub[ATTR.KEY_TYPE] == KEY_TYPE.PUBLIC
    spki = n.key_export(pub)
    assert ipriv[ATTR.KEY_ID] == ipub[ATTR.KEY_ID] == \
        hashlib.sha1(spki).digest()
    assert ipub[ATTR.KEY_FLAGS] == FLAG_EXPORTABLE | FLAG_WRAPPABLE
    text = openssl("pkey", "-pubin", "-inform", "DER", "-noout", "-text",
                   data=spki).stdout.decode()
    want = {"P-256": "prime256v1", "P-384": "secp384r1",
            "x25519": "X25519"}[canonical]
    assert want in text


@pytest.mark.parametrize("curve", [P256, P384])
def test_generate_nist_formats(n, curve):
    priv, pub = gen(n, curve)
    spki = n.key_export(pub)
    der = n.key_export(priv)
    # exactly what OpenSSL writes for these keys
    assert openssl("ec", "-inform", "DER", "-outform", "DER",
                   data=der).stdout == der
    assert openssl("ec", "-pubin", "-inform", "DER", "-pubout", "-outform",
                   "DER", data=spki).stdout == spki
    assert openssl("ec", "-inform", "DER", "-pubout", "-outform", "DER",
                   data=der).stdout == spki
    r = openssl("ec", "-inform", "DER", "-check", "-noout", data=der)
    assert b"EC Key valid" in r.stdout + r.stderr
    k = serialization.load_der_private_key(der, None)
    assert k.curve.name == curve.crypto.name
    assert spki_of(k.public_key()) == spki
    # RFC 5915: version 1, d of the fixed length, [0] namedCurve, [1] point
    assert der[der.index(b"\x02\x01\x01") + 3] == 0x04
    assert der[der.index(b"\x02\x01\x01") + 4] == curve.size
    assert curve.oid in der and point_of(k.public_key()) in der
    assert len(spki) == {32: 91, 48: 120}[curve.size]


def test_generate_x25519_formats(n):
    priv, pub = gen(n, "x25519")
    spki, der = n.key_export(pub), n.key_export(priv)
    assert len(spki) == 44 and spki == x25519_spki(spki[-32:])
    assert len(der) == 48 and der == x25519_pkcs8(der[-32:])
    assert openssl("pkey", "-inform", "DER", "-outform", "DER",
                   data=der).stdout == der
    assert openssl("pkey", "-inform", "DER", "-pubout", "-outform", "DER",
                   data=der).stdout == spki
    k = serialization.load_der_private_key(der, None)
    assert raw_x25519_pub(k.public_key()) == spki[-32:]


def test_generated_keys_differ(n):
    for curve in ("P-256", "x25519"):
        a, b = gen(n, curve), gen(n, curve)
        assert n.key_export(a[1]) != n.key_export(b[1])
        assert n.key_export(a[0]) != n.key_export(b[0])


def test_generate_curve_errors(n):
    a, b = n.key_init(), n.key_init()
    assert errno_of(n.key_generate_pair, a, b, "ecdsa") == E
    for bad in ("", "P-521", "secp521r1", "secp256k1", "P-224", "ed25519",
                "X448", "p-256", "P256", "prime256v1 ", "x25519\x01"):
        assert errno_of(n.key_generate_pair, a, b, "ecdsa",
                        ECC_CURVE=bad) == E, bad
    # the same handle twice
    assert errno_of(n.key_generate_pair, a, a, "ecdsa",
                    ECC_CURVE="P-256") == E
    # nothing was left in the handles
    for k in (a, b):
        assert errno_of(n.key_get_info, k) == E


def test_curve_attribute_of_other_keys(n):
    """NCR_ATTR_ECC_CURVE on a non-EC key: refused or absent."""
    rsa = keyfiles("rsa2048")
    k = n.key_init()
    n.key_import(k, rsa.priv_der, "rsa", key_type=KEY_TYPE.PRIVATE)
    sk = n.secret_key(bytes(16), "cbc(aes)")
    for h in (k, sk):
        try:
            got = n.key_get_info(h, wanted=(ATTR.ECC_CURVE,))
        except OSError as e:
            assert e.errno == E
            continue
        assert ATTR.ECC_CURVE not in got


def test_private_not_exportable_by_default(n):
    for curve in ("P-256", "x25519"):
        priv, pub = gen(n, curve, flags=0)
        assert errno_of(n.key_export, priv) == errno.EPERM
        assert n.key_export(pub)


def test_export_room(n):
    priv, pub = gen(n, "P-256")
    der = n.key_export(priv)
    assert errno_of(n.key_export, priv, len(der) - 1) == errno.ERANGE
    assert errno_of(n.key_export, pub, 90) == errno.ERANGE
    assert n.key_export(priv, len(der)) == der


# ---- import / export -------------------------------------------------------

@pytest.mark.parametrize("curve", [P256, P384])
def test_import_openssl_ecparam_key(n, curve):
    name = {"P-256": "prime256v1", "P-384": "secp384r1"}[curve.name]
    pem = tmpfile("ec_gen.pem", openssl("ecparam", "-genkey", "-name", name,
                                        "-noout").stdout)
    sec1 = openssl("ec", "-in", pem, "-outform", "DER").stdout
    p8 = openssl("pkcs8", "-topk8", "-nocrypt", "-in", pem, "-outform",
                 "DER").stdout
    spki = openssl("ec", "-in", pem, "-pubout", "-outform", "DER").stdout
    for der in (sec1, p8):
        k = imp(n, der, KEY_TYPE.PRIVATE, flags=FLAG_EXPORTABLE)
        assert n.key_export(k) == sec1
        i = info(n, k)
        assert i[ATTR.KEY_ID] == hashlib.sha1(spki).digest()
        assert i[ATTR.ECC_CURVE] == curve.name
    kp = imp(n, spki, KEY_TYPE.PUBLIC, flags=FLAG_EXPORTABLE)
    assert n.key_export(kp) == spki
    assert info(n, kp)[ATTR.KEY_ID] == hashlib.sha1(spki).digest()
    # a KEY_ID given at import is kept
    k = imp(n, sec1, KEY_TYPE.PRIVATE, key_id=b"mine")
    assert info(n, k)[ATTR.KEY_ID] == b"mine"


def test_import_optional_fields(n):
    """PKCS#8 without [0] and/or [1] (the public point is recomputed)."""
    py = py_key(P256)
    d = be(py.private_numbers().private_value, 32)
    want = private_der(py)
    point = point_of(py.public_key())
    for inner in (ec_private(d, None, None), ec_private(d, OID_P256, None),
                  ec_private(d, None, point), ec_private(d, OID_P256, point)):
        k = imp(n, ec_pkcs8(inner), KEY_TYPE.PRIVATE, flags=FLAG_EXPORTABLE)
        assert n.key_export(k) == want
    # the bare ECPrivateKey without the public point
    k = imp(n, ec_private(d, OID_P256, None), KEY_TYPE.PRIVATE,
            flags=FLAG_EXPORTABLE)
    assert n.key_export(k) == want


def test_import_openssl_x25519(n):
    der = openssl("genpkey", "-algorithm", "X25519", "-outform", "DER").stdout
    spki = openssl("pkey", "-inform", "DER", "-pubout", "-outform", "DER",
                   data=der).stdout
    k = imp(n, der, KEY_TYPE.PRIVATE, flags=FLAG_EXPORTABLE)
    assert n.key_export(k) == der
    i = info(n, k)
    assert i[ATTR.ECC_CURVE] == "x25519"
    assert i[ATTR.KEY_ID] == hashlib.sha1(spki).digest()
    kp = imp(n, spki, KEY_TYPE.PUBLIC, flags=FLAG_EXPORTABLE)
    assert n.key_export(kp) == spki


def _off_curve(point):
    size = (len(point) - 1) // 2
    y = int.from_bytes(point[1 + size:], "big") ^ 1
    return point[:1 + size] + y.to_bytes(size, "big")


def _compressed(pub):
    return pub.public_bytes(serialization.Encoding.X962,
                            serialization.PublicFormat.CompressedPoint)


def _explicit_der(py, public):
    """The key with explicit curve parameters (openssl -param_enc)."""
    der = private_der(py)
    opts = ["-pubout"] if public else []
    return openssl("ec", "-inform", "DER", "-outform", "DER", "-param_enc",
                   "explicit", *opts, data=der).stdout


def test_import_invalid_public(n):
    py = py_key(P256)
    pub = py.public_key()
    point = point_of(pub)
    k1 = ec.generate_private_key(ec.SECP256K1())
    good = ec_spki(point)
    assert good == spki_of(pub)           # the builder is right
    imp(n, good, KEY_TYPE.PUBLIC)
    bad = {
        "compressed": ec_spki(_compressed(pub)),
        "hybrid": ec_spki(bytes([6 | (point[-1] & 1)]) + point[1:]),
        "off curve": ec_spki(_off_curve(point)),
        "infinity": ec_spki(b"\x00"),
        "x >= p": ec_spki(b"\x04" + be(P256.p, 32) + point[33:]),
        "short point": ec_spki(point[:-1]),
        "long point": ec_spki(point + b"\0"),
        "no prefix": ec_spki(point[1:] + b"\0"),
        "P-384 OID": ec_spki(point, OID_P384),
        "secp256k1": spki_of(k1.public_key()),
        "explicit": _explicit_der(py, True),
        "no parameters": _seq(_seq(bytes.fromhex("06072a8648ce3d0201")),
                              _tlv(0x03, b"\0" + point)),
        "trailing byte": good + b"\0",
        "unused bits": good[:good.index(b"\x03\x42\x00") + 2] + b"\x01" +
        good[good.index(b"\x03\x42\x00") + 3:],
        "bare point": point,
    }
    for what, der in bad.items():
        assert errno_of(imp, n, der, KEY_TYPE.PUBLIC) == E, what
    # a P-384 point with the P-256 OID
    p384 = point_of(py_key(P384).public_key())
    assert errno_of(imp, n, ec_spki(p384, OID_P256), KEY_TYPE.PUBLIC) == E


def test_import_invalid_private(n):
    py = py_key(P256)
    d = py.private_numbers().private_value
    point = point_of(py.public_key())
    imp(n, ec_private(be(d, 32), OID_P256, point), KEY_TYPE.PRIVATE)
    other = point_of(py_key(P256).public_key())
    bad = {
        "d = 0": ec_private(bytes(32), OID_P256),
        "d = n": ec_private(be(P256.n, 32), OID_P256),
        "d = n + 1": ec_private(be(P256.n + 1, 32), OID_P256),
        "d = 2^256 - 1": ec_private(b"\xff" * 32, OID_P256),
        "d too long": ec_private(b"\x01" + be(d, 32), OID_P256),
        "empty d": ec_private(b"", OID_P256),
        "version 0": ec_private(be(d, 32), OID_P256, point, version=0),
        "version 2": ec_private(be(d, 32), OID_P256, point, version=2),
        "wrong public": ec_private(be(d, 32), OID_P256, other),
        "off-curve public": ec_private(be(d, 32), OID_P256,
                                       _off_curve(point)),
        "compressed public": ec_private(be(d, 32), OID_P256,
                                        _compressed(py.public_key())),
        "no curve": ec_private(be(d, 32), None, point),
        "secp256k1": ec_private(be(d, 32), OID_SECP256K1),
        "explicit": _explicit_der(py, False),
        "PKCS#8 curves differ": ec_pkcs8(ec_private(be(d, 32), OID_P384),
                                         OID_P256),
        "PKCS#8 secp256k1": ec_pkcs8(ec_private(be(d, 32), None),
                                     OID_SECP256K1),
        "trailing byte": ec_private(be(d, 32), OID_P256, point) + b"\0",
    }
    for what, der in bad.items():
        assert errno_of(imp, n, der, KEY_TYPE.PRIVATE) == E, what
    # P-384: d >= n
    assert errno_of(imp, n, ec_private(be(P384.n, 48), OID_P384),
                    KEY_TYPE.PRIVATE) == E


@pytest.mark.parametrize("curve", NIST)
def test_import_edge_private_keys(n, curve):
    """Every d in [1, n-1] is a private key (SEC 1 3.2.1), the extremes
    included: d*G right, and the key signs and derives."""
    for d in (1, 2, 3, curve.n - 3, curve.n - 2, curve.n - 1):
        py = py_key(curve, d)
        k = imp(n, private_der(py), KEY_TYPE.PRIVATE, flags=FLAG_EXPORTABLE)
        assert n.key_export(k) == private_der(py), d
        sig = sign(n, k, MSG, curve.hash)
        py.public_key().verify(sig, MSG, ec.ECDSA(
            getattr(hashes, curve.hash.upper())()))
        peer = py_key(curve)
        assert derive(n, k, peer_value(peer))[1] == \
            py_shared(peer, py.public_key()), d


def test_import_invalid_x25519(n):
    raw = os.urandom(32)
    py = x25519.X25519PrivateKey.from_private_bytes(raw)
    good = x25519_pkcs8(raw)
    assert good == private_der(py)
    imp(n, good, KEY_TYPE.PRIVATE)
    u = raw_x25519_pub(py.public_key())
    imp(n, x25519_spki(u), KEY_TYPE.PUBLIC)
    for what, der, kt in (
            ("31-byte private", x25519_pkcs8(raw[:31]), KEY_TYPE.PRIVATE),
            ("33-byte private", x25519_pkcs8(raw + b"\0"), KEY_TYPE.PRIVATE),
            ("Ed25519 OID", x25519_pkcs8(raw, OID_ED25519), KEY_TYPE.PRIVATE),
            ("NULL parameters", _seq(b"\x02\x01\x00",
                                     _seq(bytes.fromhex("06032b656e0500")),
                                     _tlv(0x04, _tlv(0x04, raw))),
             KEY_TYPE.PRIVATE),
            ("31-byte public", x25519_spki(u[:31]), KEY_TYPE.PUBLIC),
            ("33-byte public", x25519_spki(u + b"\0"), KEY_TYPE.PUBLIC),
            ("Ed25519 public", x25519_spki(u, OID_ED25519), KEY_TYPE.PUBLIC),
            ("raw u", u, KEY_TYPE.PUBLIC),
            ("trailing byte", good + b"\0", KEY_TYPE.PRIVATE)):
        assert errno_of(imp, n, der, kt) == E, what


def test_import_type_mismatch(n):
    py = py_key(P256)
    sec1, spki = private_der(py), spki_of(py.public_key())
    xp = py_key(X25519)
    xder, xspki = private_der(xp), spki_of(xp.public_key())
    for der in (sec1, ec_pkcs8(sec1), xder):
        assert errno_of(imp, n, der, KEY_TYPE.PUBLIC) == E
        assert errno_of(imp, n, der, KEY_TYPE.SECRET) == E
    for der in (spki, xspki):
        assert errno_of(imp, n, der, KEY_TYPE.PRIVATE) == E
    # EC material under another algorithm, other keys as "ecdsa"
    k = n.key_init()
    for algo in ("rsa", "dsa", "dh"):
        assert errno_of(n.key_import, k, sec1, algo,
                        key_type=KEY_TYPE.PRIVATE) == E, algo
    for algo in ("rsa", "dsa"):     # a DH public key is any raw number
        assert errno_of(n.key_import, k, spki, algo,
                        key_type=KEY_TYPE.PUBLIC) == E, algo
    rsa, dsa = keyfiles("rsa2048"), keyfiles("dsa2048")
    for kf in (rsa, dsa):
        assert errno_of(imp, n, kf.pub_der, KEY_TYPE.PUBLIC) == E
        assert errno_of(imp, n, kf.priv_der, KEY_TYPE.PRIVATE) == E


def test_storage_round_trip(n, master_key):
    for curve in ("P-256", "P-384", "x25519"):
        priv, pub = gen(n, curve, flags=FLAG_WRAPPABLE)
        k = n.key_init()
        n.storage_unwrap(k, n.storage_wrap(priv))
        i, i0 = info(n, k), info(n, priv)
        assert i == i0
        kp = n.key_init()
        n.storage_unwrap(kp, n.storage_wrap(pub))
        assert n.key_export(kp) == n.key_export(pub)
        if curve != "x25519":
            sig = sign(n, k, MSG)
            assert verify(n, pub, MSG, sig) == 1
        else:
            peer = py_key(X25519)
            pub_u = n.key_export(pub)[-32:]
            want = peer.exchange(x25519.X25519PublicKey.from_public_bytes(
                pub_u))
            assert derive(n, k, peer_value(peer))[1] == want


# ---- ECDSA sessions --------------------------------------------------------

@pytest.fixture(scope="module")
def ossl_keys():
    """OpenSSL P-256 / P-384 keys: {curve name: (ECPrivateKey DER, SPKI)}."""
    out = {}
    for curve, name in ((P256, "prime256v1"), (P384, "secp384r1")):
        pem = tmpfile("ec_%s.pem" % name, openssl(
            "genpkey", "-algorithm", "EC", "-pkeyopt",
            "ec_paramgen_curve:" + name).stdout)
        out[curve.name] = (
            openssl("ec", "-in", pem, "-outform", "DER").stdout,
            openssl("ec", "-in", pem, "-pubout", "-outform", "DER").stdout)
    return out


@pytest.mark.parametrize("curve,hash_", [
    (P256, "sha256"), (P256, "sha1"), (P256, "sha224"), (P256, "sha384"),
    (P256, "sha512"), (P384, "sha384"), (P384, "sha256"), (P384, "sha512")])
def test_kernel_signs_openssl_verifies(n, curve, hash_):
    priv, pub = gen(n, curve, flags=0)
    spki = n.key_export(pub)
    sig = sign(n, priv, MSG, hash_)
    assert len(sig) <= curve.sig_max
    r, s = sig_decode(sig)
    assert 0 < r < curve.n and 0 < s < curve.n
    assert ossl_verify(spki, MSG, sig, hash_)
    assert not ossl_verify(spki, MSG + b".", sig, hash_)
    assert verify(n, pub, MSG, sig, hash_) == 1
    assert verify(n, priv, MSG, sig, hash_) == 1
    # digest input: the same key, the digest made here (truncated by the
    # kernel when longer than n)
    dsig = sign(n, priv, sha(hash_, MSG), hash_, digest=True)
    assert ossl_verify(spki, MSG, dsig, hash_)
    assert verify(n, pub, sha(hash_, MSG), dsig, hash_, digest=True) == 1
    assert verify(n, pub, MSG, dsig, hash_) == 1
    pyk = serialization.load_der_public_key(spki)
    pyk.verify(sig, MSG, ec.ECDSA(getattr(hashes, hash_.upper())()))


VERIFY_PARAM = "/sys/module/ncr/parameters/ec_verify_signatures"


@pytest.mark.parametrize("curve", NIST)
def test_full_verify_parameter(n, curve):
    # off by default (the arithmetic's own checks run always); on, every
    # signature is verified in the kernel before it is released
    with open(VERIFY_PARAM) as f:
        assert f.read().strip() == "N"
    priv, pub = gen(n, curve, flags=0)
    spki = n.key_export(pub)
    try:
        with open(VERIFY_PARAM, "w") as f:
            f.write("1")
        for hash_ in ("sha256", "sha384"):
            sig = sign(n, priv, MSG, hash_)
            assert ossl_verify(spki, MSG, sig, hash_)
    finally:
        with open(VERIFY_PARAM, "w") as f:
            f.write("0")
    assert ossl_verify(spki, MSG, sign(n, priv, MSG), "sha256")


@pytest.mark.parametrize("curve", NIST)
def test_openssl_signs_kernel_verifies(n, ossl_keys, curve):
    der, spki = ossl_keys[curve.name]
    pub = imp(n, spki, KEY_TYPE.PUBLIC)
    priv = imp(n, der, KEY_TYPE.PRIVATE)
    for hash_ in ("sha256", "sha384", "sha512", "sha1"):
        osig = ossl_sign(der, MSG, hash_)
        assert verify(n, pub, MSG, osig, hash_) == 1, hash_
        assert verify(n, pub, sha(hash_, MSG), osig, hash_,
                      digest=True) == 1, hash_
        assert verify(n, pub, MSG[1:], osig, hash_) == 0
        other = "sha224" if hash_ != "sha224" else "sha256"
        assert verify(n, pub, MSG, osig, other) == 0
        # the imported OpenSSL key signs for OpenSSL as well
        assert ossl_verify(spki, MSG, sign(n, priv, MSG, hash_), hash_)


def test_sign_hashes_across_updates(n):
    priv, pub = gen(n, "P-256")
    s = n.session_init(OP.SIGN, "ecdsa", key=priv,
                       SIGNATURE_HASH_ALGORITHM="sha256")
    for i in range(0, len(MSG), 11):
        n.session_update(s, MSG[i:i + 11])
    ret, outs = n.session_final(s, final_out_size=72)
    assert ret == 0 and ossl_verify(n.key_export(pub), MSG, outs[0],
                                    "sha256")
    v = n.session_init(OP.VERIFY, "ecdsa", key=pub,
                       SIGNATURE_HASH_ALGORITHM="sha256")
    n.session_update(v, MSG[:40])
    assert n.session_final(v, data=MSG[40:], final_data=outs[0])[0] == 1
    # empty message, and the message as FINAL input data
    s = n.session_init(OP.SIGN, "ecdsa", key=priv,
                       SIGNATURE_HASH_ALGORITHM="sha256")
    _, outs = n.session_final(s, final_out_size=72)
    assert ossl_verify(n.key_export(pub), b"", outs[0], "sha256")
    sig = n.session_once(OP.SIGN, "ecdsa", key=priv, final_data=b"last",
                         SIGNATURE_HASH_ALGORITHM="sha256",
                         final_out_size=72)
    assert ossl_verify(n.key_export(pub), b"last", sig, "sha256")


def test_sign_key_as_data(n):
    """A secret key's material as the message, hashed in the kernel."""
    secret = os.urandom(32)
    sk = n.secret_key(secret, "cbc(aes)")
    priv, pub = gen(n, "P-256")
    s = n.session_init(OP.SIGN, "ecdsa", key=priv,
                       SIGNATURE_HASH_ALGORITHM="sha256")
    n.session_update(s, key_as_data=sk)
    _, outs = n.session_final(s, final_out_size=72)
    assert ossl_verify(n.key_export(pub), secret, outs[0], "sha256")
    # never as the "digest"
    s = n.session_init(OP.SIGN, "ecdsa", key=priv,
                       SIGNATURE_HASH_ALGORITHM="sha256",
                       SIGNATURE_INPUT_IS_DIGEST=1)
    assert errno_of(n.session_update, s, key_as_data=sk) == E


@pytest.mark.parametrize("curve", NIST)
def test_signature_size_and_room(n, curve):
    priv, pub = gen(n, curve)
    h = curve.hash
    for _ in range(4):
        sig = sign(n, priv, MSG, h, out=curve.sig_max)
        assert len(sig) <= curve.sig_max and verify(n, pub, MSG, sig, h) == 1
    for room in (0, 1, 8, 40):
        assert errno_of(sign, n, priv, MSG, h, out=room) == errno.ERANGE, room
    # a signature needs an output buffer
    s = n.session_init(OP.SIGN, "ecdsa", key=priv,
                       SIGNATURE_HASH_ALGORITHM=h)
    assert errno_of(n.session_final, s, data=MSG) == E


def _int_raw(body):
    return _tlv(0x02, body)


@pytest.mark.parametrize("curve", NIST)
def test_verify_strict_der(n, curve):
    py = py_key(curve)
    priv = imp_priv(n, py)
    pub = imp(n, spki_of(py.public_key()), KEY_TYPE.PUBLIC)
    h = curve.hash
    sig = sign(n, priv, MSG, h)
    r, s = sig_decode(sig)
    nn = curve.n
    assert verify(n, pub, MSG, sig_der(r, s), h) == 1
    # (r, n - s) is a valid signature too
    assert verify(n, pub, MSG, sig_der(r, nn - s), h) == 1
    rb = r.to_bytes((r.bit_length() + 8) // 8, "big")
    sb = s.to_bytes((s.bit_length() + 8) // 8, "big")
    body = _int_raw(rb) + _int_raw(sb)
    bad = {
        "r = 0": sig_der(0, s), "s = 0": sig_der(r, 0),
        "r = n": sig_der(nn, s), "s = n": sig_der(r, nn),
        "r + n": sig_der(r + nn, s), "s + n": sig_der(r, s + nn),
        "swapped": sig_der(s, r),
        "r leading zero": _seq(_int_raw(b"\0" + rb), _int_raw(sb)),
        "s leading zero": _seq(_int_raw(rb), _int_raw(b"\0" + sb)),
        "negative r": _seq(_int_raw(b"\xff" + rb), _int_raw(sb)),
        "trailing byte": sig + b"\0",
        "long-form length": b"\x30\x81" + bytes([len(body)]) + body,
        "indefinite length": b"\x30\x80" + body + b"\0\0",
        "SET": b"\x31" + sig[1:],
        "three INTEGERs": _seq(_int_raw(rb), _int_raw(sb), _int_raw(b"\1")),
        "P1363": be(r, curve.size) + be(s, curve.size),
        "empty": b"",
        "truncated": sig[:-1],
        "too long for any signature": sig + bytes(curve.sig_max),
    }
    for what, b in bad.items():
        assert verify(n, pub, MSG, b, h) == 0, what


def test_digest_input_rules(n):
    priv, pub = gen(n, "P-256")
    d = sha("sha256", MSG)
    assert errno_of(sign, n, priv, d[:-1], digest=True) == E
    assert errno_of(sign, n, priv, d + b"x", digest=True) == E
    assert errno_of(sign, n, priv, MSG, digest=True) == E
    assert errno_of(verify, n, pub, d[:-1], sign(n, priv, MSG),
                    digest=True) == E
    s = n.session_init(OP.SIGN, "ecdsa", key=priv,
                       SIGNATURE_HASH_ALGORITHM="sha256",
                       SIGNATURE_INPUT_IS_DIGEST=1)
    n.session_update(s, d)
    assert errno_of(n.session_update, s, d) == E
    _, outs = n.session_final(s, final_out_size=72)
    assert ossl_verify(n.key_export(pub), MSG, outs[0], "sha256")
    s = n.session_init(OP.SIGN, "ecdsa", key=priv,
                       SIGNATURE_HASH_ALGORITHM="sha256",
                       SIGNATURE_INPUT_IS_DIGEST=1)
    assert errno_of(n.session_final, s, final_out_size=72) == E


def test_session_errors(n):
    priv, pub = gen(n, "P-256")
    xpriv, xpub = gen(n, "x25519")
    init = n.session_init
    # x25519 keys do not sign; public keys do not sign
    for op in (OP.SIGN, OP.VERIFY):
        for k in (xpriv, xpub):
            assert errno_of(init, op, "ecdsa", key=k,
                            SIGNATURE_HASH_ALGORITHM="sha256") == E
    assert errno_of(init, OP.SIGN, "ecdsa", key=pub,
                    SIGNATURE_HASH_ALGORITHM="sha256") == E
    # no encryption with EC keys
    for op in (OP.ENCRYPT, OP.DECRYPT):
        for k in (priv, pub, xpriv):
            assert errno_of(init, op, "ecdsa", key=k) == E
    # the hash is mandatory and must be one of the table
    assert errno_of(init, OP.SIGN, "ecdsa", key=priv) == E
    assert errno_of(init, OP.SIGN, "ecdsa", key=priv,
                    SIGNATURE_HASH_ALGORITHM="nohash") == E
    assert errno_of(init, OP.SIGN, "ecdsa", key=priv,
                    SIGNATURE_HASH_ALGORITHM="sha3-256") == errno.EOPNOTSUPP
    # algorithm and key must agree
    rsa = keyfiles("rsa2048")
    rk = n.key_init()
    n.key_import(rk, rsa.priv_der, "rsa", key_type=KEY_TYPE.PRIVATE)
    assert errno_of(init, OP.SIGN, "ecdsa", key=rk,
                    SIGNATURE_HASH_ALGORITHM="sha256") == E
    assert errno_of(init, OP.SIGN, "rsa", key=priv,
                    RSA_ENCODING_METHOD=RSA_PKCS1_V1_5,
                    SIGNATURE_HASH_ALGORITHM="sha256") == E
    assert errno_of(init, OP.SIGN, "dsa", key=priv,
                    SIGNATURE_HASH_ALGORITHM="sha256") == E
    sk = n.secret_key(bytes(32), "cbc(aes)")
    assert errno_of(init, OP.SIGN, "ecdsa", key=sk,
                    SIGNATURE_HASH_ALGORITHM="sha256") == E
    # VERIFY without a signature
    v = init(OP.VERIFY, "ecdsa", key=pub, SIGNATURE_HASH_ALGORITHM="sha256")
    assert errno_of(n.session_final, v, data=MSG) == E


@pytest.mark.parametrize("flags,ok", [(0, True), (FLAG_SIGN, True),
                                      (FLAG_DECRYPT, False),
                                      (FLAG_SIGN | FLAG_DECRYPT, True)])
def test_sign_flag(n, flags, ok):
    priv, pub = gen(n, "P-256", flags=flags)
    want = 0 if ok else errno.EPERM
    assert errno_of(sign, n, priv, MSG) == want
    assert errno_of(n.session_init, OP.SIGN, "ecdsa", key=priv,
                    SIGNATURE_HASH_ALGORITHM="sha256") == want
    if not ok:
        k2, pub2 = gen(n, "P-256")
        sig = sign(n, k2, MSG)
        k = imp(n, n.key_export(k2), KEY_TYPE.PRIVATE, flags=flags)
        assert errno_of(verify, n, k, MSG, sig) == errno.EPERM
        assert verify(n, pub2, MSG, sig) == 1


def test_signatures_are_hedged(n):
    """Two signatures of one digest differ, both verify, and the nonces
    recovered with the known d are distinct, full size and not d."""
    for curve in NIST:
        py = py_key(curve)
        d = py.private_numbers().private_value
        priv = imp_priv(n, py)
        digest = sha(curve.hash, MSG)
        sigs = [sign(n, priv, digest, curve.hash, digest=True)
                for _ in range(6)]
        assert len(set(sigs)) == len(sigs)
        assert len({sig_decode(s)[0] for s in sigs}) == len(sigs)
        ks = [nonce_of(curve, d, digest, s) for s in sigs]
        for k in ks:
            assert k != d and k.bit_length() > curve.n.bit_length() - 32
        diffs = {(a - b) % curve.n for a in ks for b in ks if a != b}
        assert all(x.bit_length() > curve.n.bit_length() - 32 for x in diffs)
        pre = Prehashed(getattr(hashes, curve.hash.upper())())
        for s in sigs:
            py.public_key().verify(s, digest, ec.ECDSA(pre))


def test_key_replaced_under_session(n):
    priv, pub = gen(n, "P-256")
    s = n.session_init(OP.SIGN, "ecdsa", key=priv,
                       SIGNATURE_HASH_ALGORITHM="sha256")
    n.session_update(s, MSG)
    rsa = keyfiles("rsa2048")
    n.key_import(priv, rsa.priv_der, "rsa", key_type=KEY_TYPE.PRIVATE)
    assert errno_of(n.session_final, s, final_out_size=72) == E
    # an x25519 key in its place is no signing key either
    k, _ = gen(n, "P-256")
    s = n.session_init(OP.SIGN, "ecdsa", key=k,
                       SIGNATURE_HASH_ALGORITHM="sha256")
    n.key_import(k, private_der(py_key(X25519)), "ecdsa",
                 key_type=KEY_TYPE.PRIVATE)
    assert errno_of(n.session_final, s, data=MSG, final_out_size=72) == E


# ---- ECDH ------------------------------------------------------------------

@pytest.mark.parametrize("curve", [P256, P384, X25519])
def test_ecdh_against_python(n, curve):
    priv, pub = gen(n, curve)
    ours = serialization.load_der_public_key(n.key_export(pub))
    peer = py_key(curve)
    want = py_shared(peer, ours)
    assert len(want) == curve.size
    k, s1 = derive(n, priv, peer_value(peer))
    _, s2 = derive(n, priv, spki_of(peer.public_key()))
    assert s1 == s2 == want
    i = info(n, k, curve=False)
    assert i[ATTR.KEY_TYPE] == KEY_TYPE.SECRET
    assert i[ATTR.ALGORITHM] == "ecdh"
    assert i[ATTR.KEY_FLAGS] == FLAG_EXPORTABLE
    # both sides in the kernel agree
    priv2, pub2 = gen(n, curve)
    peer2 = n.key_export(pub2)
    _, a = derive(n, priv, peer2)
    _, b = derive(n, priv2, n.key_export(pub))
    assert a == b and len(a) == curve.size


@pytest.mark.parametrize("curve", [P256, P384, X25519])
def test_ecdh_against_openssl(n, curve):
    priv, pub = gen(n, curve)
    if curve is X25519:
        pem = openssl("genpkey", "-algorithm", "X25519").stdout
    else:
        name = {"P-256": "prime256v1", "P-384": "secp384r1"}[curve.name]
        pem = openssl("genpkey", "-algorithm", "EC", "-pkeyopt",
                      "ec_paramgen_curve:" + name).stdout
    peer_der = openssl("pkey", "-outform", "DER", data=pem).stdout
    peer_spki = openssl("pkey", "-pubout", "-outform", "DER",
                        data=pem).stdout
    # the kernel with OpenSSL's public key
    _, ours = derive(n, priv, peer_spki)
    # OpenSSL with the kernel's public key, and with its exported private
    assert ossl_derive(peer_der, n.key_export(pub)) == ours
    assert ossl_derive(n.key_export(priv), peer_spki) == ours
    # OpenSSL's private key imported into the kernel
    kp = imp(n, peer_der, KEY_TYPE.PRIVATE)
    assert derive(n, kp, n.key_export(pub))[1] == ours


def test_ecdh_derived_key_options(n, master_key):
    priv, _ = gen(n, "P-256")
    peer = peer_value(py_key(P256))
    # flags: only EXPORTABLE and WRAPPABLE
    for bad in (FLAG_SIGN, FLAG_DECRYPT, FLAG_EXPORTABLE | FLAG_SIGN):
        k = n.key_init()
        assert errno_of(n.key_derive, priv, k, algo="ecdh", flags=bad,
                        DH_PUBLIC=peer) == E, bad
    k, secret = derive(n, priv, peer, flags=FLAG_EXPORTABLE | FLAG_WRAPPABLE)
    k2 = n.key_init()
    n.storage_unwrap(k2, n.storage_wrap(k))
    assert n.key_export(k2) == secret
    # not exportable unless asked
    k, _ = derive(n, priv, peer, flags=0)
    assert errno_of(n.key_export, k) == errno.EPERM
    # the new key's algorithm may be given: a cipher taking 32 bytes
    k = n.key_init()
    n.key_derive(priv, k, algo="ecdh", flags=FLAG_EXPORTABLE,
                 DH_PUBLIC=peer, ALGORITHM="cbc(aes)")
    assert info(n, k, False)[ATTR.ALGORITHM] == "cbc(aes)"
    assert n.session_once(OP.ENCRYPT, "cbc(aes)", key=k, iv=bytes(16),
                          data=bytes(16))
    # the key IDs of two derivations differ (random)
    a, _ = derive(n, priv, peer)
    b, _ = derive(n, priv, peer)
    assert info(n, a, False)[ATTR.KEY_ID] != info(n, b, False)[ATTR.KEY_ID]


def test_ecdh_argument_errors(n):
    priv, pub = gen(n, "P-256")
    peer = peer_value(py_key(P256))
    k = n.key_init()
    # "dh" is for DH keys, "ecdh" for EC keys
    assert errno_of(n.key_derive, priv, k, algo="dh", DH_PUBLIC=peer) == E
    dh = n.key_init()
    n.key_import(dh, openssl("genpkey", "-algorithm", "DH", "-pkeyopt",
                             "group:ffdhe2048", "-outform", "DER").stdout,
                 "dh", key_type=KEY_TYPE.PRIVATE)
    assert errno_of(n.key_derive, dh, k, algo="ecdh",
                    DH_PUBLIC=b"\2" * 256) == E
    # no peer, a public key, the same handle, unknown algorithm
    assert errno_of(n.key_derive, priv, k, algo="ecdh") == E
    assert errno_of(n.key_derive, pub, k, algo="ecdh", DH_PUBLIC=peer) == E
    assert errno_of(n.key_derive, priv, priv, algo="ecdh",
                    DH_PUBLIC=peer) == E
    assert errno_of(n.key_derive, priv, k, algo="ECDH", DH_PUBLIC=peer) == E
    assert errno_of(n.key_derive, priv, k, algo="x25519",
                    DH_PUBLIC=peer) == E
    # nothing was left in the destination
    assert errno_of(n.key_get_info, k) == E


def _low_order_x25519():
    """u values of small order on Curve25519 and its twist (RFC 7748 /
    Wycheproof): X25519 with them gives 0."""
    p = 2 ** 255 - 19
    return [be(v, 32)[::-1] for v in (
        0, 1,
        0x00b8495f16056286fdb1329ceb8d09da6ac49ff1fae35616aeb8413b7c7aebe0,
        0x57119fd0dd4e22d8868e1c58c45c44045bef839c55b1d0b1248c50a3bc959c5f,
        p - 1, p, p + 1)]


def test_ecdh_bad_peers(n):
    for curve in NIST:
        priv, _ = gen(n, curve)
        py = py_key(curve).public_key()
        point = point_of(py)
        other = P384 if curve is P256 else P256
        other_pub = py_key(other).public_key()
        size = curve.size
        bad = {
            "compressed": _compressed(py),
            "hybrid": bytes([6 | (point[-1] & 1)]) + point[1:],
            "off curve": _off_curve(point),
            "infinity": b"\x00",
            "x = p": b"\x04" + be(curve.p, size) + point[1 + size:],
            "y = p": b"\x04" + point[1:1 + size] + be(curve.p, size),
            "zero point": b"\x04" + bytes(2 * size),
            "short": point[:-1],
            "long": point + b"\0",
            "no prefix": point[1:],
            "empty": b"",
            "other curve's point": point_of(other_pub),
            "other curve's SPKI": spki_of(other_pub),
            "SPKI with the other OID": ec_spki(point, other.oid),
            "compressed SPKI": ec_spki(_compressed(py), curve.oid),
            "off-curve SPKI": ec_spki(_off_curve(point), curve.oid),
            "SPKI + trailing byte": spki_of(py) + b"\0",
            "x25519 SPKI": spki_of(py_key(X25519).public_key()),
        }
        for what, peer in bad.items():
            k = n.key_init()
            assert errno_of(n.key_derive, priv, k, algo="ecdh",
                            flags=FLAG_EXPORTABLE, DH_PUBLIC=peer) == E, \
                (curve.name, what)
    xpriv, _ = gen(n, "x25519")
    u = peer_value(py_key(X25519))
    bad = {"31 bytes": u[:31], "33 bytes": u + b"\0", "empty": b"",
           "Ed25519 SPKI": x25519_spki(u, OID_ED25519),
           "P-256 point": point_of(py_key(P256).public_key()),
           "P-256 SPKI": spki_of(py_key(P256).public_key())}
    for i, lo in enumerate(_low_order_x25519()):
        bad["low order %d" % i] = lo
    bad["low-order SPKI"] = x25519_spki(bytes(32))
    for what, peer in bad.items():
        k = n.key_init()
        assert errno_of(n.key_derive, xpriv, k, algo="ecdh",
                        flags=FLAG_EXPORTABLE, DH_PUBLIC=peer) == E, what
    # the same peer checks do not refuse a good peer (the test can fail)
    derive(n, xpriv, u)
