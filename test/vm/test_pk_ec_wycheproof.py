"""Wycheproof ECDSA, ECDH and X25519 vectors through /dev/crypto.

ECDSA: the group's publicKeyDer (SPKI) is imported; every vector is
verified with the message hashed in Python (SIGNATURE_INPUT_IS_DIGEST) and,
for every fifth, hashed by the kernel as well.  P1363 signatures of 2 x
|n| bytes are converted to DER; those of another length are passed as
they are and must be invalid (they are no DER signature).  ECDH / X25519:
the vector's private key is imported (RFC 5915 ECPrivateKey / RFC 8410
PKCS#8 built in Python), KEY_DERIVE "ecdh" runs with the vector's public
value as NCR_ATTR_DH_PUBLIC (SPKI, uncompressed point or the raw u) and
the exported secret must equal the expected one.  "invalid" must fail
(VERIFY 0; KEY_DERIVE EINVAL), "acceptable" may go either way but a
secret given must be right, and an all-zero X25519 result must be EINVAL
(CRYPTO(4)).  Counts: pytest -s, and /tmp/pk_session/wycheproof-counts.txt.
"""
import errno
import json
import os

import pytest

from ec_util import (P256, P384, X25519, imp, private_der, py_key, sha,
                     sig_der, verify)
from ncrio import FLAG_EXPORTABLE, KEY_TYPE, Ncr
from pk_util import WORK

HASH = {"SHA-256": "sha256", "SHA-384": "sha384", "SHA-512": "sha512",
        "SHA-224": "sha224", "SHA-1": "sha1"}
CURVE = {"secp256r1": P256, "secp384r1": P384, "curve25519": X25519}

ECDSA_FILES = ["ecdsa_secp256r1_sha256_test.json",
               "ecdsa_secp384r1_sha384_test.json",
               "ecdsa_secp256r1_sha256_p1363_test.json",
               "ecdsa_secp384r1_sha384_p1363_test.json"]
ECDH_FILES = ["ecdh_secp256r1_test.json", "ecdh_secp256r1_ecpoint_test.json",
              "ecdh_secp384r1_test.json", "x25519_test.json"]


class Counts:
    def __init__(self):
        self.valid = self.invalid = self.acc = self.acc_yes = 0
        self.wrong = []

    def judge(self, t, accepted, why=""):
        r = t["result"]
        if r == "acceptable":
            self.acc += 1
            self.acc_yes += bool(accepted)
        elif r == "valid" and accepted:
            self.valid += 1
        elif r == "invalid" and not accepted:
            self.invalid += 1
        else:
            self.wrong.append((t["tcId"], r, accepted, t["comment"], why))

    def report(self, name):
        line = ("%-44s valid %4d ok, invalid %3d rejected, acceptable %3d "
                "(%d accepted), WRONG %d" % (
                    name, self.valid, self.invalid, self.acc, self.acc_yes,
                    len(self.wrong)))
        print("\n" + line)
        WORK.mkdir(parents=True, exist_ok=True)
        with open(WORK / "wycheproof-counts.txt", "a") as f:
            f.write(line + "\n")
        assert not self.wrong, self.wrong[:10]
        assert self.valid + self.invalid > 0


def load(wycheproof_dir, name):
    path = wycheproof_dir / name
    if not path.exists():
        pytest.skip("%s not in %s" % (name, wycheproof_dir))
    return json.loads(path.read_text())


def p1363_to_der(sig, size):
    return sig_der(int.from_bytes(sig[:size], "big"),
                   int.from_bytes(sig[size:], "big"))


@pytest.mark.parametrize("name", ECDSA_FILES)
def test_wycheproof_ecdsa(dev, wycheproof_dir, name):
    data = load(wycheproof_dir, name)
    c = Counts()
    with Ncr(fd=os.dup(dev)) as n:
        for g in data["testGroups"]:
            curve = CURVE[g["publicKey"]["curve"]]
            hname = HASH[g["sha"]]
            key = imp(n, bytes.fromhex(g["publicKeyDer"]), KEY_TYPE.PUBLIC)
            for t in g["tests"]:
                msg, sig = bytes.fromhex(t["msg"]), bytes.fromhex(t["sig"])
                if g["type"] == "EcdsaP1363Verify" and \
                        len(sig) == 2 * curve.size:
                    sig = p1363_to_der(sig, curve.size)
                ok = verify(n, key, sha(hname, msg), sig, hname,
                            digest=True) == 1
                c.judge(t, ok, "digest input")
                if t["tcId"] % 5 == 0:
                    c.judge(t, verify(n, key, msg, sig, hname) == 1,
                            "kernel hashing")
            n.key_deinit(key)
    c.report(name)


def _ecdh_private(curve, hexd):
    """The kernel import form of the vector's private key."""
    raw = bytes.fromhex(hexd)
    if curve is X25519:
        return private_der(py_key(X25519, raw))
    return private_der(py_key(curve, int.from_bytes(raw, "big")))


def _derive(n, priv, peer):
    """The secret, or None when KEY_DERIVE refused with EINVAL."""
    k = n.key_init()
    try:
        n.key_derive(priv, k, algo="ecdh", flags=FLAG_EXPORTABLE,
                     DH_PUBLIC=peer)
    except OSError as e:
        n.key_deinit(k)
        if e.errno == errno.EINVAL:
            return None
        raise
    out = n.key_export(k)
    n.key_deinit(k)
    return out


@pytest.mark.parametrize("name", ECDH_FILES)
def test_wycheproof_ecdh(dev, wycheproof_dir, name):
    data = load(wycheproof_dir, name)
    c = Counts()
    with Ncr(fd=os.dup(dev)) as n:
        for g in data["testGroups"]:
            curve = CURVE[g["curve"]]
            for t in g["tests"]:
                try:
                    priv = imp(n, _ecdh_private(curve, t["private"]),
                               KEY_TYPE.PRIVATE)
                except OSError as e:    # every d in [1, n-1] is a key
                    c.wrong.append((t["tcId"], t["result"], e.errno,
                                    t["comment"], "private key import"))
                    continue
                got = _derive(n, priv, bytes.fromhex(t["public"]))
                n.key_deinit(priv)
                want = bytes.fromhex(t["shared"])
                if got is not None and got != want:
                    c.wrong.append((t["tcId"], t["result"], got.hex(),
                                    t["comment"], "wrong secret"))
                    continue
                if curve is X25519 and want == bytes(32) and got is not None:
                    c.wrong.append((t["tcId"], t["result"], True,
                                    t["comment"], "all-zero secret accepted"))
                    continue
                c.judge(t, got is not None)
    c.report(name)
