"""Helpers of the EC suites (test_pk_ec*.py, the EC kinds of test_isolation).

Curve constants, DER builders for the EC key formats of CRYPTO(4) (SPKI,
RFC 5915 ECPrivateKey, PKCS#8, RFC 8410 X25519) written by hand so that
malformed variants can be made too, ECDSA signature DER, and the kernel
calls (generate, import, sign, verify, derive) the suites share.
"""
import hashlib

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, x25519

from ncrio import FLAG_EXPORTABLE, KEY_TYPE, OP
from pk_util import _int, _seq, _tlv

OID_EC_PUBLIC_KEY = bytes.fromhex("06072a8648ce3d0201")   # 1.2.840.10045.2.1
OID_P256 = bytes.fromhex("06082a8648ce3d030107")          # prime256v1
OID_P384 = bytes.fromhex("06052b81040022")                # secp384r1
OID_SECP256K1 = bytes.fromhex("06052b8104000a")           # secp256k1
OID_X25519 = bytes.fromhex("06032b656e")                  # 1.3.101.110
OID_ED25519 = bytes.fromhex("06032b6570")                 # 1.3.101.112


class Curve:
    def __init__(self, name, oid, size, sig_max, p=0, n=0, crypto=None,
                 hash_=None):
        self.name, self.oid, self.size = name, oid, size
        self.sig_max, self.p, self.n = sig_max, p, n
        self.crypto, self.hash = crypto, hash_


P256 = Curve("P-256", OID_P256, 32, 72,
             p=2 ** 256 - 2 ** 224 + 2 ** 192 + 2 ** 96 - 1,
             n=int("FFFFFFFF00000000FFFFFFFFFFFFFFFF"
                   "BCE6FAADA7179E84F3B9CAC2FC632551", 16),
             crypto=ec.SECP256R1(), hash_="sha256")
P384 = Curve("P-384", OID_P384, 48, 104,
             p=2 ** 384 - 2 ** 128 - 2 ** 96 + 2 ** 32 - 1,
             n=int("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF"
                   "C7634D81F4372DDF581A0DB248B0A77AECEC196ACCC52973", 16),
             crypto=ec.SECP384R1(), hash_="sha384")
X25519 = Curve("x25519", OID_X25519, 32, 0)
CURVES = {c.name: c for c in (P256, P384, X25519)}


def be(x, size):
    return x.to_bytes(size, "big")


# ---- DER builders ----------------------------------------------------------

def bitstring(b):
    return _tlv(0x03, b"\0" + b)


def ec_spki(point, curve_oid=OID_P256):
    """SubjectPublicKeyInfo { id-ecPublicKey + namedCurve, point }."""
    return _seq(_seq(OID_EC_PUBLIC_KEY, curve_oid), bitstring(point))


def ec_private(d_bytes, curve_oid=OID_P256, point=None, version=1):
    """RFC 5915 ECPrivateKey; [0] and [1] only when given."""
    items = [_int(version), _tlv(0x04, d_bytes)]
    if curve_oid is not None:
        items.append(_tlv(0xA0, curve_oid))
    if point is not None:
        items.append(_tlv(0xA1, bitstring(point)))
    return _seq(*items)


def ec_pkcs8(inner, curve_oid=OID_P256):
    """PKCS#8 PrivateKeyInfo of an ECPrivateKey."""
    return _seq(_int(0), _seq(OID_EC_PUBLIC_KEY, curve_oid),
                _tlv(0x04, inner))


def x25519_pkcs8(raw, oid=OID_X25519):
    return _seq(_int(0), _seq(oid), _tlv(0x04, _tlv(0x04, raw)))


def x25519_spki(u, oid=OID_X25519):
    return _seq(_seq(oid), bitstring(u))


# ---- python-side keys -------------------------------------------------------

def point_of(pub):
    """Uncompressed point of a cryptography EC public key."""
    return pub.public_bytes(serialization.Encoding.X962,
                            serialization.PublicFormat.UncompressedPoint)


def spki_of(pub):
    return pub.public_bytes(serialization.Encoding.DER,
                            serialization.PublicFormat.SubjectPublicKeyInfo)


def sec1_of(priv):
    """What `openssl ec -outform DER` writes (RFC 5915 with [0] and [1])."""
    return priv.private_bytes(serialization.Encoding.DER,
                              serialization.PrivateFormat.TraditionalOpenSSL,
                              serialization.NoEncryption())


def pkcs8_of(priv):
    return priv.private_bytes(serialization.Encoding.DER,
                              serialization.PrivateFormat.PKCS8,
                              serialization.NoEncryption())


def raw_x25519_pub(pub):
    return pub.public_bytes(serialization.Encoding.Raw,
                            serialization.PublicFormat.Raw)


def py_key(curve, d=None):
    """A cryptography private key on curve (d given or random)."""
    if curve is X25519:
        if d is None:
            return x25519.X25519PrivateKey.generate()
        return x25519.X25519PrivateKey.from_private_bytes(d)
    if d is None:
        return ec.generate_private_key(curve.crypto)
    return ec.derive_private_key(d, curve.crypto)


def private_der(priv):
    """The kernel's export form of a cryptography private key."""
    if isinstance(priv, x25519.X25519PrivateKey):
        return pkcs8_of(priv)
    return sec1_of(priv)


def public_der(pub):
    return spki_of(pub)


def peer_value(priv):
    """NCR_ATTR_DH_PUBLIC for priv's public key in its raw form."""
    pub = priv.public_key()
    if isinstance(pub, x25519.X25519PublicKey):
        return raw_x25519_pub(pub)
    return point_of(pub)


def py_shared(priv, peer_pub):
    if isinstance(priv, x25519.X25519PrivateKey):
        return priv.exchange(peer_pub)
    return priv.exchange(ec.ECDH(), peer_pub)


# ---- ECDSA signatures ------------------------------------------------------

def sig_der(r, s):
    return _seq(_int(r), _int(s))


def sig_decode(sig):
    """(r, s) of a strict DER signature; AssertionError otherwise."""
    assert sig[0] == 0x30 and sig[1] == len(sig) - 2, sig.hex()
    vals, off = [], 2
    for _ in range(2):
        assert sig[off] == 0x02
        ln = sig[off + 1]
        body = sig[off + 2:off + 2 + ln]
        assert ln and not (body[0] & 0x80), sig.hex()
        assert not (ln > 1 and body[0] == 0 and not body[1] & 0x80), sig.hex()
        vals.append(int.from_bytes(body, "big"))
        off += 2 + ln
    assert off == len(sig), sig.hex()
    return tuple(vals)


def digest_z(curve, digest):
    """The digest as an integer truncated to the bit length of n."""
    z = int.from_bytes(digest, "big")
    excess = 8 * len(digest) - curve.n.bit_length()
    return z >> excess if excess > 0 else z


def nonce_of(curve, d, digest, sig):
    """k = s^-1 (z + r d) mod n of an ECDSA signature by d."""
    r, s = sig_decode(sig)
    return pow(s, -1, curve.n) * (digest_z(curve, digest) + r * d) % curve.n


# ---- kernel calls ----------------------------------------------------------

def gen(n, curve, flags=FLAG_EXPORTABLE):
    priv, pub = n.key_init(), n.key_init()
    n.key_generate_pair(priv, pub, "ecdsa", flags=flags,
                        ECC_CURVE=curve if isinstance(curve, str)
                        else curve.name)
    return priv, pub


def imp(n, der, ktype, flags=None, key_id=None):
    k = n.key_init()
    n.key_import(k, der, "ecdsa", key_type=ktype, flags=flags, key_id=key_id)
    return k


def imp_priv(n, priv, flags=None):
    """A cryptography private key imported into the kernel."""
    return imp(n, private_der(priv), KEY_TYPE.PRIVATE, flags=flags)


def sign(n, key, data, hash_="sha256", digest=False, out=128):
    extra = {"SIGNATURE_HASH_ALGORITHM": hash_}
    if digest:
        extra["SIGNATURE_INPUT_IS_DIGEST"] = 1
    return n.session_once(OP.SIGN, "ecdsa", key=key, data=data,
                          final_out_size=out, **extra)


def verify(n, key, data, sig, hash_="sha256", digest=False):
    """The VERIFY result: 1 valid, 0 invalid; an errno raises."""
    extra = {"SIGNATURE_HASH_ALGORITHM": hash_}
    if digest:
        extra["SIGNATURE_INPUT_IS_DIGEST"] = 1
    return n.session_once(OP.VERIFY, "ecdsa", key=key, data=data,
                          final_data=sig, **extra)


def derive(n, priv, peer, flags=FLAG_EXPORTABLE, **extra):
    """KEY_DERIVE "ecdh"; returns (new key, its exported secret)."""
    k = n.key_init()
    n.key_derive(priv, k, algo="ecdh", flags=flags, DH_PUBLIC=peer, **extra)
    return k, n.key_export(k) if flags & FLAG_EXPORTABLE else None


def sha(name, data):
    return hashlib.new(name, data).digest()
