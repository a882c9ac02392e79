"""Helpers of the public-key session suites (test_pk_*.py, scripts/bench pk).

Test keys live in test/data/pk_session/ (PEM, made by openssl genpkey); the
DER forms the kernel imports are derived with the openssl CLI into /tmp.
Also a minimal DER encoder to turn Wycheproof's hex key components into
SubjectPublicKeyInfo / RSAPrivateKey for import.
"""
import os
import pathlib
import subprocess
import tempfile

from ncrio import KEY_TYPE

ROOT = pathlib.Path(os.environ.get("NCR_ROOT",
                                   pathlib.Path(__file__).resolve().parents[2]))
DATA = ROOT / "test/data/pk_session"
WORK = pathlib.Path(tempfile.gettempdir()) / "pk_session"

def openssl(*args, data=None, check=True):
    """Runs the openssl CLI; returns CompletedProcess (stdout bytes)."""
    r = subprocess.run(["openssl", *map(str, args)], input=data,
                       capture_output=True)
    if check and r.returncode != 0:
        raise RuntimeError("openssl %s failed: %s" % (
            " ".join(map(str, args)), r.stderr.decode(errors="replace")))
    return r


def tmpfile(name, data):
    WORK.mkdir(parents=True, exist_ok=True)
    p = WORK / name
    p.write_bytes(data)
    return p


class KeyFiles:
    """One test key: PEM paths and the DER blobs the kernel imports."""

    def __init__(self, name):
        WORK.mkdir(parents=True, exist_ok=True)
        self.name = name
        self.pem = DATA / (name + ".pem")
        self.algo = "dsa" if name.startswith("dsa") else "rsa"
        self.pub_pem = WORK / (name + ".pub.pem")
        openssl("pkey", "-in", self.pem, "-pubout", "-out", self.pub_pem)
        self.pub_der = openssl("pkey", "-in", self.pem, "-pubout",
                               "-outform", "DER").stdout
        # RSAPrivateKey (PKCS#1) / OpenSSL's DSAPrivateKey
        self.priv_der = openssl(self.algo, "-in", self.pem, "-outform",
                                "DER").stdout
        if self.algo == "rsa":
            mod = openssl("rsa", "-in", self.pem, "-noout",
                          "-modulus").stdout.decode()
            self.n = int(mod.strip().split("=", 1)[1], 16)
            text = openssl("rsa", "-in", self.pem, "-noout",
                           "-text").stdout.decode()
            assert "publicExponent: 65537" in text
            self.e = 65537
            self.bits = self.n.bit_length()
            self.k = (self.bits + 7) // 8


# RFC 7919 ffdhe2048 (a safe prime; g = 2 has order (p-1)/2)
FFDHE2048_P = int(
    "FFFFFFFFFFFFFFFFADF85458A2BB4A9AAFDC5620273D3CF1D8B9C583CE2D3695"
    "A9E13641146433FBCC939DCE249B3EF97D2FE363630C75D8F681B202AEC4617A"
    "D3DF1ED5D5FD65612433F51F5F066ED0856365553DED1AF3B557135E7F57C935"
    "984F0C70E0E68B77E2A689DAF3EFE8721DF158A136ADE73530ACCA4F483A797A"
    "BC0AB182B324FB61D108A94BB2C8E3FBB96ADAB760D7F4681D4F42A3DE394DF4"
    "AE56EDE76372BB190B07A7C8EE0A6D709E02FCE1CDF7E2ECC03404CD28342F61"
    "9172FE9CE98583FF8E4F1232EEF28183C3FE3B1B4C6FAD733BB5FCBC2EC22005"
    "C58EF1837D1683B2C6F34A26C1B2EFFA886B423861285C97FFFFFFFFFFFFFFFF", 16)

_CACHE = {}


def keyfiles(name):
    if name not in _CACHE:
        _CACHE[name] = KeyFiles(name)
    return _CACHE[name]


def import_key(n, kf, private=True, flags=None):
    """key_init + key_import of a KeyFiles' private or public half."""
    k = n.key_init()
    if private:
        n.key_import(k, kf.priv_der, kf.algo, key_type=KEY_TYPE.PRIVATE,
                     flags=flags)
    else:
        n.key_import(k, kf.pub_der, kf.algo, key_type=KEY_TYPE.PUBLIC,
                     flags=flags)
    return k


# ---- minimal DER ----------------------------------------------------------

def der_read(buf, off=0):
    """(tag, content, next offset) of the TLV at off."""
    tag, ln = buf[off], buf[off + 1]
    off += 2
    if ln & 0x80:
        k = ln & 0x7F
        ln = int.from_bytes(buf[off:off + k], "big")
        off += k
    return tag, buf[off:off + ln], off + ln


def _len(n):
    if n < 0x80:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def _tlv(tag, content):
    return bytes([tag]) + _len(len(content)) + content


def _int(x):
    b = x.to_bytes(max(1, (x.bit_length() + 8) // 8), "big")
    return _tlv(0x02, b)


def _seq(*items):
    return _tlv(0x30, b"".join(items))


_RSA_ALG = _seq(bytes.fromhex("06092a864886f70d010101"), b"\x05\x00")


def der_rsa_spki(n, e):
    """SubjectPublicKeyInfo of rsaEncryption."""
    return _seq(_RSA_ALG, _tlv(0x03, b"\x00" + _seq(_int(n), _int(e))))


def der_rsa_private(n, e, d, p, q, dp, dq, qi):
    """PKCS#1 RSAPrivateKey (version 0)."""
    return _seq(_int(0), *map(_int, (n, e, d, p, q, dp, dq, qi)))

