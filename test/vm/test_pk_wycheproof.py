"""Wycheproof RSA and DSA vectors through /dev/crypto sessions.

Keys are imported into the kernel (RSA: SubjectPublicKeyInfo / RSAPrivateKey
built from the vector's components; DSA: the vector's SPKI DER), then every
applicable vector goes through NCR_OP_VERIFY or NCR_OP_DECRYPT and must give
the expected result ("acceptable" ones may go either way).  Not applicable:
OAEP vectors with a label (the ABI has no label attribute), and DSA P1363
signatures whose length is not 2*|q| (the ABI takes DER: P1363 vectors of
the right length are converted to DER).  Counts per file are printed
(pytest -s) and also collected in /tmp/pk_session/wycheproof-counts.txt.
"""
import errno
import json
import os

import pytest

from ncrio import (KEY_TYPE, OP, RSA_PKCS1_OAEP, RSA_PKCS1_PSS,
                   RSA_PKCS1_V1_5, Ncr)
from pk_util import WORK, der_rsa_private, der_rsa_spki

HASH = {"SHA-1": "sha1", "SHA-224": "sha224", "SHA-256": "sha256",
        "SHA-384": "sha384", "SHA-512": "sha512"}

FILES = [
    "rsa_signature_2048_sha256_test.json",
    "rsa_signature_3072_sha256_test.json",
    "rsa_signature_4096_sha512_test.json",
    "rsa_pss_2048_sha256_mgf1_0_test.json",
    "rsa_pss_2048_sha256_mgf1_0_params_test.json",
    "rsa_pss_2048_sha256_mgf1_32_test.json",
    "rsa_pss_2048_sha256_mgf1_32_params_test.json",
    "rsa_pss_3072_sha256_mgf1_32_test.json",
    "rsa_pss_3072_sha256_mgf1_32_params_test.json",
    "rsa_oaep_2048_sha1_mgf1sha1_test.json",
    "rsa_oaep_2048_sha256_mgf1sha256_test.json",
    "rsa_pkcs1_2048_test.json",
    "dsa_2048_224_sha256_test.json",
    "dsa_2048_256_sha256_test.json",
    "dsa_3072_256_sha256_test.json",
    "dsa_2048_224_sha256_p1363_test.json",
    "dsa_2048_256_sha256_p1363_test.json",
    "dsa_3072_256_sha256_p1363_test.json",
]


class Counts:
    def __init__(self):
        self.valid = self.invalid = self.acc = self.acc_yes = 0
        self.na = 0
        self.wrong = []

    def judge(self, t, accepted):
        r = t["result"]
        if r == "acceptable":
            self.acc += 1
            self.acc_yes += bool(accepted)
        elif r == "valid" and accepted:
            self.valid += 1
        elif r == "invalid" and not accepted:
            self.invalid += 1
        else:
            self.wrong.append((t["tcId"], r, accepted, t["comment"]))

    def line(self, name):
        return ("%-46s valid %3d ok, invalid %3d rejected, acceptable %d "
                "(%d accepted), not applicable %d, WRONG %d" % (
                    name, self.valid, self.invalid, self.acc, self.acc_yes,
                    self.na, len(self.wrong)))


def _h(x):
    return int(x, 16)


def _import(n, der, algo, key_type):
    k = n.key_init()
    n.key_import(k, der, algo, key_type=key_type)
    return k


def _verify(n, key, algo, msg, sig, extra):
    """True/False; an error is no verdict: it propagates (test fails)."""
    return n.session_once(OP.VERIFY, algo, key=key, data=msg,
                          final_data=sig, **extra) == 1


def _decrypt(n, key, ct, k, extra):
    try:
        return n.session_once(OP.DECRYPT, "rsa", key=key, data=ct,
                              out_size=k, **extra)
    except OSError as e:
        if e.errno in (errno.EBADMSG, errno.EINVAL):
            return None
        raise


def _der_sig_from_p1363(sig, qlen):
    def i(x):
        b = x.to_bytes(max(1, (x.bit_length() + 8) // 8), "big")
        return b"\x02" + bytes([len(b)]) + b
    r = int.from_bytes(sig[:qlen], "big")
    s = int.from_bytes(sig[qlen:], "big")
    body = i(r) + i(s)
    return b"\x30" + bytes([len(body)]) + body


def _run_group(n, name, g, c):
    typ = g["type"]
    if typ in ("RsassaPkcs1Verify", "RsassaPssVerify",
               "RsassaPssWithParametersVerify"):
        pk = g["publicKey"]
        key = _import(n, der_rsa_spki(_h(pk["modulus"]),
                                      _h(pk["publicExponent"])),
                      "rsa", KEY_TYPE.PUBLIC)
        extra = {"SIGNATURE_HASH_ALGORITHM": HASH[g["sha"]]}
        if typ == "RsassaPkcs1Verify":
            extra["RSA_ENCODING_METHOD"] = RSA_PKCS1_V1_5
        else:
            assert g["mgf"] == "MGF1" and g["mgfSha"] == g["sha"]
            extra["RSA_ENCODING_METHOD"] = RSA_PKCS1_PSS
            extra["RSA_PSS_SALT_LENGTH"] = g["sLen"]
        for t in g["tests"]:
            c.judge(t, _verify(n, key, "rsa", bytes.fromhex(t["msg"]),
                               bytes.fromhex(t["sig"]), extra))
    elif typ in ("RsaesOaepDecrypt", "RsaesPkcs1Decrypt"):
        p = g["privateKey"]
        der = der_rsa_private(*(_h(p[f]) for f in (
            "modulus", "publicExponent", "privateExponent", "prime1",
            "prime2", "exponent1", "exponent2", "coefficient")))
        key = _import(n, der, "rsa", KEY_TYPE.PRIVATE)
        k = (_h(p["modulus"]).bit_length() + 7) // 8
        if typ == "RsaesOaepDecrypt":
            assert g["mgfSha"] == g["sha"]
            extra = {"RSA_ENCODING_METHOD": RSA_PKCS1_OAEP,
                     "RSA_OAEP_HASH_ALGORITHM": HASH[g["sha"]]}
        else:
            extra = {"RSA_ENCODING_METHOD": RSA_PKCS1_V1_5}
        for t in g["tests"]:
            if t.get("label"):
                c.na += 1
                continue
            out = _decrypt(n, key, bytes.fromhex(t["ct"]), k, extra)
            c.judge(t, out is not None and out == bytes.fromhex(t["msg"]))
    elif typ in ("DsaVerify", "DsaP1363Verify"):
        key = _import(n, bytes.fromhex(g["publicKeyDer"]), "dsa",
                      KEY_TYPE.PUBLIC)
        qlen = (_h(g["publicKey"]["q"]).bit_length() + 7) // 8
        extra = {"SIGNATURE_HASH_ALGORITHM": HASH[g["sha"]]}
        for t in g["tests"]:
            sig = bytes.fromhex(t["sig"])
            if typ == "DsaP1363Verify":
                if len(sig) != 2 * qlen:
                    c.na += 1
                    continue
                sig = _der_sig_from_p1363(sig, qlen)
            c.judge(t, _verify(n, key, "dsa", bytes.fromhex(t["msg"]), sig,
                               extra))
    else:
        c.na += len(g["tests"])
    n.key_deinit(key)


@pytest.mark.parametrize("name", FILES)
def test_wycheproof_file(dev, wycheproof_dir, name):
    path = wycheproof_dir / name
    if not path.exists():
        pytest.skip("%s not in %s" % (name, wycheproof_dir))
    data = json.loads(path.read_text())
    c = Counts()
    with Ncr(fd=os.dup(dev)) as n:
        for g in data["testGroups"]:
            _run_group(n, name, g, c)
    line = c.line(name)
    print("\n" + line)
    WORK.mkdir(parents=True, exist_ok=True)
    with open(WORK / "wycheproof-counts.txt", "a") as f:
        f.write(line + "\n")
    assert not c.wrong, c.wrong[:10]
    assert c.valid + c.invalid > 0
