"""Public-key sessions through /dev/crypto (driver/pk_session.c).

Interop with the openssl CLI both ways (signatures: PKCS#1 v1.5, PSS, DSA;
encryption: PKCS#1 v1.5, OAEP), message hashed in the kernel across
updates or given as a precomputed digest, uniform decryption errors, key
usage flags, and argument errors.  Keys: test/data/pk_session (imported).
"""
import errno
import hashlib
import os
import subprocess

import pytest

from ncrio import (ATTR, FLAG_DECRYPT, FLAG_EXPORTABLE, FLAG_SIGN, OP,
                   RSA_PKCS1_OAEP, RSA_PKCS1_PSS, RSA_PKCS1_V1_5,
                   RSA_PSS_SALT_LENGTH_AUTO, errno_of, nla,
                   session_input_data, session_once_s)
from pk_util import import_key, keyfiles, openssl, tmpfile

MSG = b"The quick brown fox jumps over the lazy dog" * 3
HASHES = ["sha1", "sha224", "sha256", "sha384", "sha512"]


@pytest.fixture(scope="module")
def rsa():
    return keyfiles("rsa2048")


@pytest.fixture(scope="module")
def rsa_odd():
    return keyfiles("rsa1025")


@pytest.fixture(scope="module")
def dsa():
    return keyfiles("dsa2048")


def sign(n, key, msg, hash_="sha256", method=RSA_PKCS1_V1_5, salt=None,
         algo="rsa", digest=False, out=512):
    extra = {"SIGNATURE_HASH_ALGORITHM": hash_}
    if algo == "rsa":
        extra["RSA_ENCODING_METHOD"] = method
        extra["RSA_PSS_SALT_LENGTH"] = salt
    if digest:
        extra["SIGNATURE_INPUT_IS_DIGEST"] = 1
    return n.session_once(OP.SIGN, algo, key=key, data=msg,
                          final_out_size=out, **extra)


def verify(n, key, msg, sig, hash_="sha256", method=RSA_PKCS1_V1_5,
           salt=None, algo="rsa", digest=False):
    extra = {"SIGNATURE_HASH_ALGORITHM": hash_}
    if algo == "rsa":
        extra["RSA_ENCODING_METHOD"] = method
        extra["RSA_PSS_SALT_LENGTH"] = salt
    if digest:
        extra["SIGNATURE_INPUT_IS_DIGEST"] = 1
    return n.session_once(OP.VERIFY, algo, key=key, data=msg,
                          final_data=sig, **extra)


def crypt(n, op, key, data, method, hash_=None, out=512):
    return n.session_once(op, "rsa", key=key, data=data, out_size=out,
                          RSA_ENCODING_METHOD=method,
                          RSA_OAEP_HASH_ALGORITHM=hash_)


def ossl_verify(kf, msg, sig, hash_, pss_salt=None):
    m, s = tmpfile("msg", msg), tmpfile("sig", sig)
    opts = []
    if pss_salt is not None:
        opts = ["-sigopt", "rsa_padding_mode:pss",
                "-sigopt", "rsa_pss_saltlen:%d" % pss_salt]
    r = openssl("dgst", "-" + hash_, *opts, "-verify", kf.pub_pem,
                "-signature", s, m, check=False)
    return r.returncode == 0 and b"Verified OK" in r.stdout


def ossl_sign(kf, msg, hash_, pss_salt=None):
    m = tmpfile("msg", msg)
    opts = []
    if pss_salt is not None:
        opts = ["-sigopt", "rsa_padding_mode:pss",
                "-sigopt", "rsa_pss_saltlen:%d" % pss_salt]
    return openssl("dgst", "-" + hash_, *opts, "-sign", kf.pem, m).stdout


def oaep_opts(hash_):
    if hash_ is None:
        return ["-pkeyopt", "rsa_padding_mode:pkcs1"]
    return ["-pkeyopt", "rsa_padding_mode:oaep", "-pkeyopt",
            "rsa_oaep_md:" + hash_, "-pkeyopt", "rsa_mgf1_md:" + hash_]


# ---- RSA signatures ---------------------------------------------------------

@pytest.mark.parametrize("hash_", HASHES)
def test_rsa_pkcs1_sign_interop(n, rsa, hash_):
    k = import_key(n, rsa)
    pub = import_key(n, rsa, private=False)
    sig = sign(n, k, MSG, hash_)
    assert len(sig) == rsa.k
    assert ossl_verify(rsa, MSG, sig, hash_)
    # v1.5 is deterministic: OpenSSL makes the very same signature
    assert sig == ossl_sign(rsa, MSG, hash_)
    assert verify(n, pub, MSG, sig, hash_) == 1
    assert verify(n, k, MSG, sig, hash_) == 1
    assert verify(n, pub, MSG + b".", sig, hash_) == 0
    bad = bytearray(sig)
    bad[-1] ^= 1
    assert verify(n, pub, MSG, bytes(bad), hash_) == 0


@pytest.mark.parametrize("hash_,salt", [("sha256", 0), ("sha256", 32),
                                        ("sha1", 20), ("sha512", 64),
                                        ("sha384", 100)])
def test_rsa_pss_kernel_signs_openssl_verifies(n, rsa, hash_, salt):
    k = import_key(n, rsa)
    sig = sign(n, k, MSG, hash_, RSA_PKCS1_PSS, salt)
    assert ossl_verify(rsa, MSG, sig, hash_, pss_salt=salt)
    # randomised: two signatures differ (unless there is no salt)
    if salt:
        assert sig != sign(n, k, MSG, hash_, RSA_PKCS1_PSS, salt)


@pytest.mark.parametrize("hash_,salt", [("sha256", 0), ("sha256", 32),
                                        ("sha512", 64), ("sha256", 222)])
def test_rsa_pss_openssl_signs_kernel_verifies(n, rsa, hash_, salt):
    pub = import_key(n, rsa, private=False)
    sig = ossl_sign(rsa, MSG, hash_, pss_salt=salt)
    assert verify(n, pub, MSG, sig, hash_, RSA_PKCS1_PSS, salt) == 1
    assert verify(n, pub, MSG, sig, hash_, RSA_PKCS1_PSS,
                  RSA_PSS_SALT_LENGTH_AUTO) == 1
    assert verify(n, pub, MSG, sig, hash_, RSA_PKCS1_PSS, salt + 1) == 0
    assert verify(n, pub, MSG[1:], sig, hash_, RSA_PKCS1_PSS,
                  RSA_PSS_SALT_LENGTH_AUTO) == 0
    # a PSS signature is no PKCS#1 v1.5 signature
    assert verify(n, pub, MSG, sig, hash_, RSA_PKCS1_V1_5) == 0


def test_rsa_pss_odd_modulus(n, rsa_odd):
    """1025-bit modulus: EM is one byte shorter than the modulus."""
    k = import_key(n, rsa_odd)
    for salt in (0, 32):
        sig = sign(n, k, MSG, "sha256", RSA_PKCS1_PSS, salt)
        assert ossl_verify(rsa_odd, MSG, sig, "sha256", pss_salt=salt)
        osig = ossl_sign(rsa_odd, MSG, "sha256", pss_salt=salt)
        assert verify(n, k, MSG, osig, "sha256", RSA_PKCS1_PSS,
                      RSA_PSS_SALT_LENGTH_AUTO) == 1


def test_rsa_sign_hashes_across_updates(n, rsa):
    k = import_key(n, rsa)
    s = n.session_init(OP.SIGN, "rsa", key=k, RSA_ENCODING_METHOD=RSA_PKCS1_PSS,
                       RSA_PSS_SALT_LENGTH=32,
                       SIGNATURE_HASH_ALGORITHM="sha256")
    for i in range(0, len(MSG), 7):
        n.session_update(s, MSG[i:i + 7])
    ret, outs = n.session_final(s, final_out_size=rsa.k)
    assert ret == 0 and len(outs[0]) == rsa.k
    assert ossl_verify(rsa, MSG, outs[0], "sha256", pss_salt=32)
    # verify in pieces too, with the last piece in FINAL
    v = n.session_init(OP.VERIFY, "rsa", key=k,
                       RSA_ENCODING_METHOD=RSA_PKCS1_PSS,
                       RSA_PSS_SALT_LENGTH=32,
                       SIGNATURE_HASH_ALGORITHM="sha256")
    n.session_update(v, MSG[:50])
    ret, _ = n.session_final(v, data=MSG[50:], final_data=outs[0])
    assert ret == 1


def test_rsa_sign_key_as_data(n, rsa):
    """The message may be a secret key's material (hashed in the kernel)."""
    secret = bytes(range(32))
    sk = n.secret_key(secret, "cbc(aes)")
    k = import_key(n, rsa)
    s = n.session_init(OP.SIGN, "rsa", key=k,
                       RSA_ENCODING_METHOD=RSA_PKCS1_V1_5,
                       SIGNATURE_HASH_ALGORITHM="sha256")
    n.session_update(s, key_as_data=sk)
    ret, outs = n.session_final(s, final_out_size=rsa.k)
    assert ossl_verify(rsa, secret, outs[0], "sha256")


def test_rsa_empty_message(n, rsa):
    k = import_key(n, rsa)
    s = n.session_init(OP.SIGN, "rsa", key=k,
                       RSA_ENCODING_METHOD=RSA_PKCS1_V1_5,
                       SIGNATURE_HASH_ALGORITHM="sha256")
    ret, outs = n.session_final(s, final_out_size=rsa.k)
    assert ossl_verify(rsa, b"", outs[0], "sha256")


def test_rsa_verify_malformed_signatures_are_invalid(n, rsa):
    pub = import_key(n, rsa, private=False)
    sig = ossl_sign(rsa, MSG, "sha256")
    assert verify(n, pub, MSG, sig) == 1
    assert verify(n, pub, MSG, sig[1:]) == 0            # short
    assert verify(n, pub, MSG, b"\0" + sig) == 0        # long
    assert verify(n, pub, MSG, b"") == 0
    assert verify(n, pub, MSG, rsa.n.to_bytes(rsa.k, "big")) == 0  # s = n
    assert verify(n, pub, MSG, b"\xff" * rsa.k) == 0    # s > n


# ---- precomputed digest (NCR_ATTR_SIGNATURE_INPUT_IS_DIGEST) ------------

@pytest.mark.parametrize("hash_", ["sha1", "sha256", "sha512"])
def test_digest_input_pkcs1(n, rsa, hash_):
    k = import_key(n, rsa)
    d = hashlib.new(hash_, MSG).digest()
    sig = sign(n, k, d, hash_, digest=True)
    # identical to hashing in the kernel (v1.5 is deterministic)
    assert sig == sign(n, k, MSG, hash_)
    assert ossl_verify(rsa, MSG, sig, hash_)
    assert verify(n, k, d, sig, hash_, digest=True) == 1
    assert verify(n, k, bytes(len(d)), sig, hash_, digest=True) == 0


def test_digest_input_pss(n, rsa):
    k = import_key(n, rsa)
    d = hashlib.sha256(MSG).digest()
    sig = sign(n, k, d, "sha256", RSA_PKCS1_PSS, 32, digest=True)
    assert ossl_verify(rsa, MSG, sig, "sha256", pss_salt=32)
    osig = ossl_sign(rsa, MSG, "sha256", pss_salt=32)
    assert verify(n, k, d, osig, "sha256", RSA_PKCS1_PSS,
                  RSA_PSS_SALT_LENGTH_AUTO, digest=True) == 1


def test_digest_input_rules(n, rsa):
    k = import_key(n, rsa)
    d = hashlib.sha256(MSG).digest()
    # wrong length
    assert errno_of(sign, n, k, d[:-1], digest=True) == errno.EINVAL
    assert errno_of(sign, n, k, d + b"x", digest=True) == errno.EINVAL
    # two pieces
    s = n.session_init(OP.SIGN, "rsa", key=k,
                       RSA_ENCODING_METHOD=RSA_PKCS1_V1_5,
                       SIGNATURE_HASH_ALGORITHM="sha256",
                       SIGNATURE_INPUT_IS_DIGEST=1)
    n.session_update(s, d)
    assert errno_of(n.session_update, s, d) == errno.EINVAL
    ret, outs = n.session_final(s, final_out_size=rsa.k)
    assert ossl_verify(rsa, MSG, outs[0], "sha256")
    # no digest at all
    s = n.session_init(OP.SIGN, "rsa", key=k,
                       RSA_ENCODING_METHOD=RSA_PKCS1_V1_5,
                       SIGNATURE_HASH_ALGORITHM="sha256",
                       SIGNATURE_INPUT_IS_DIGEST=1)
    assert errno_of(n.session_final, s, final_out_size=rsa.k) == errno.EINVAL
    # not for encryption
    assert errno_of(n.session_init, OP.ENCRYPT, "rsa", key=k,
                    RSA_ENCODING_METHOD=RSA_PKCS1_V1_5,
                    SIGNATURE_INPUT_IS_DIGEST=1) == errno.EINVAL


# ---- DSA --------------------------------------------------------------------

def test_dsa_interop(n, dsa):
    k = import_key(n, dsa)
    pub = import_key(n, dsa, private=False)
    sig = sign(n, k, MSG, "sha256", algo="dsa")
    assert sig[0] == 0x30
    assert ossl_verify(dsa, MSG, sig, "sha256")
    assert verify(n, pub, MSG, sig, algo="dsa") == 1
    osig = ossl_sign(dsa, MSG, "sha256")
    assert verify(n, pub, MSG, osig, algo="dsa") == 1
    assert verify(n, pub, MSG + b"!", osig, algo="dsa") == 0
    assert verify(n, pub, MSG, osig + b"\0", algo="dsa") == 0   # not DER
    assert verify(n, pub, MSG, b"", algo="dsa") == 0
    d = hashlib.sha256(MSG).digest()
    dsig = sign(n, k, d, "sha256", algo="dsa", digest=True)
    assert ossl_verify(dsa, MSG, dsig, "sha256")
    assert verify(n, pub, d, osig, algo="dsa", digest=True) == 1
    # DSA cannot encrypt
    assert errno_of(n.session_once, OP.ENCRYPT, "dsa", key=pub, data=b"x",
                    out_size=512) == errno.EINVAL


# ---- RSA encryption ------------------------------------------------------

@pytest.mark.parametrize("hash_", [None, "sha1", "sha256", "sha512"])
def test_rsa_decrypt_openssl_ciphertext(n, rsa, hash_):
    k = import_key(n, rsa)
    method = RSA_PKCS1_V1_5 if hash_ is None else RSA_PKCS1_OAEP
    for msg in (b"", b"x", os.urandom(48)):
        p = tmpfile("pt", msg)
        ct = openssl("pkeyutl", "-encrypt", "-pubin", "-inkey", rsa.pub_pem,
                     *oaep_opts(hash_), "-in", p).stdout
        assert crypt(n, OP.DECRYPT, k, ct, method, hash_) == msg


@pytest.mark.parametrize("hash_", [None, "sha1", "sha256", "sha384"])
def test_rsa_encrypt_openssl_decrypts(n, rsa, hash_):
    pub = import_key(n, rsa, private=False)
    method = RSA_PKCS1_V1_5 if hash_ is None else RSA_PKCS1_OAEP
    hl = 0 if hash_ is None else hashlib.new(hash_).digest_size
    longest = rsa.k - 11 if hash_ is None else rsa.k - 2 * hl - 2
    for msg in (b"", os.urandom(32), os.urandom(longest)):
        ct = crypt(n, OP.ENCRYPT, pub, msg, method, hash_)
        assert len(ct) == rsa.k
        c = tmpfile("ct", ct)
        out = openssl("pkeyutl", "-decrypt", "-inkey", rsa.pem,
                      *oaep_opts(hash_), "-in", c).stdout
        assert out == msg
    assert errno_of(crypt, n, OP.ENCRYPT, pub, bytes(longest + 1), method,
                    hash_) == errno.EMSGSIZE
    assert errno_of(crypt, n, OP.ENCRYPT, pub, b"x", method, hash_,
                    out=rsa.k - 1) == errno.ERANGE


def test_rsa_encrypt_decrypt_update_per_operation(n, rsa):
    """Each UPDATE is one operation; FINAL may carry one more."""
    k = import_key(n, rsa)
    e = n.session_init(OP.ENCRYPT, "rsa", key=k,
                       RSA_ENCODING_METHOD=RSA_PKCS1_OAEP,
                       RSA_OAEP_HASH_ALGORITHM="sha256")
    cts = [n.session_update(e, m, out_size=rsa.k) for m in (b"a", b"bb")]
    ret, outs = n.session_final(e, final_data=b"ccc", final_out_size=rsa.k)
    cts.append(outs[0])
    d = n.session_init(OP.DECRYPT, "rsa", key=k,
                       RSA_ENCODING_METHOD=RSA_PKCS1_OAEP,
                       RSA_OAEP_HASH_ALGORITHM="sha256")
    assert [n.session_update(d, c, out_size=rsa.k) for c in cts] == \
        [b"a", b"bb", b"ccc"]
    assert n.session_final(d)[0] == 0
    # an operation needs an output buffer
    e = n.session_init(OP.ENCRYPT, "rsa", key=k,
                       RSA_ENCODING_METHOD=RSA_PKCS1_V1_5)
    assert errno_of(n.session_final, e, final_data=b"x") == errno.EINVAL


def _raw_encrypt(kf, m):
    return pow(m, kf.e, kf.n).to_bytes(kf.k, "big")


def _pkcs1_blocks(kf):
    """Encryption blocks, each with one PKCS#1 v1.5 defect."""
    k = kf.k
    ok = b"\x00\x02" + b"\x11" * (k - 3 - 4) + b"\x00" + b"MSG!"
    blocks = {
        "first byte 1": b"\x01" + ok[1:],
        "block type 1": b"\x00\x01" + ok[2:],
        "block type 0": b"\x00\x00" + ok[2:],
        "no separator": ok[:-5] + b"\x11" + ok[-4:],
        "PS of 7 bytes": b"\x00\x02" + b"\x11" * 7 + b"\x00" + b"\x22" * (k - 10),
        "PS empty": b"\x00\x02\x00" + b"\x22" * (k - 3),
        "all zero": bytes(k),
        "signature padding": b"\x00\x01" + b"\xff" * (k - 3 - 4) + b"\x00MSG!",
    }
    return ok, blocks


def test_pkcs1_decrypt_errors_uniform(n, rsa):
    """Every undecryptable ciphertext gives EBADMSG and writes nothing."""
    k = import_key(n, rsa)
    ok, blocks = _pkcs1_blocks(rsa)
    assert crypt(n, OP.DECRYPT, k, _raw_encrypt(rsa, int.from_bytes(
        ok, "big")), RSA_PKCS1_V1_5) == b"MSG!"
    for name, blk in blocks.items():
        ct = _raw_encrypt(rsa, int.from_bytes(blk, "big"))
        assert errno_of(crypt, n, OP.DECRYPT, k, ct,
                        RSA_PKCS1_V1_5) == errno.EBADMSG, name
    # values not below the modulus: the same error
    for c in (rsa.n, rsa.n + 1, 2 ** (8 * rsa.k) - 1):
        assert errno_of(crypt, n, OP.DECRYPT, k, c.to_bytes(rsa.k, "big"),
                        RSA_PKCS1_V1_5) == errno.EBADMSG
    # OAEP: a v1.5 ciphertext, and a flipped bit
    p = tmpfile("pt", b"secret")
    ct = openssl("pkeyutl", "-encrypt", "-pubin", "-inkey", rsa.pub_pem,
                 *oaep_opts("sha256"), "-in", p).stdout
    bad = bytearray(ct)
    bad[10] ^= 4
    v15 = _raw_encrypt(rsa, int.from_bytes(ok, "big"))
    for c in (bytes(bad), v15):
        assert errno_of(crypt, n, OP.DECRYPT, k, c, RSA_PKCS1_OAEP,
                        "sha256") == errno.EBADMSG
    assert errno_of(crypt, n, OP.DECRYPT, k, ct, RSA_PKCS1_OAEP,
                    "sha1") == errno.EBADMSG


def _once_unreadable(n, op, key, attr, size, out=None, pre=b"", **extra):
    """SESSION_ONCE whose input `attr` of `size` bytes points at address 16,
    which is never mapped: reading it would be EFAULT.  pre: more attributes
    (encoded) before it."""
    a = pre + nla(attr, bytes(session_input_data(16, size)))
    outs = []
    if out is not None:
        o, b, rs = n._out(out)
        a += nla(ATTR.UPDATE_OUTPUT_BUFFER, o)
        outs.append(b)
    a += n.attrs(ALGORITHM="rsa", KEY=key, RSA_ENCODING_METHOD=RSA_PKCS1_V1_5,
                 **extra)
    keep = list(n._keep)
    ret = n.call("SESSION_ONCE", session_once_s(op=op), a)[0]
    del keep, outs
    return ret


def test_sizes_checked_before_input_is_read(n, rsa):
    """A wrong size is reported as such, whatever the input pointer."""
    priv, pub = import_key(n, rsa), import_key(n, rsa, private=False)
    data, k = ATTR.UPDATE_INPUT_DATA, rsa.k
    for op, key, size, out, err in (
            (OP.DECRYPT, priv, k - 1, 512, errno.EINVAL),
            (OP.DECRYPT, priv, k, k - 12, errno.ERANGE),
            (OP.ENCRYPT, pub, 10, k - 1, errno.ERANGE),
            (OP.ENCRYPT, pub, k + 1, 512, errno.EMSGSIZE),
            # the right sizes do read the input
            (OP.DECRYPT, priv, k, 512, errno.EFAULT),
            (OP.ENCRYPT, pub, 10, 512, errno.EFAULT)):
        assert errno_of(_once_unreadable, n, op, key, data, size,
                        out=out) == err, (op, size, out)
    # a signature of the wrong length is not one (RFC 8017 8.2.2 step 1)
    digest = hashlib.sha256(MSG).digest()
    sig = dict(SIGNATURE_HASH_ALGORITHM="sha256", SIGNATURE_INPUT_IS_DIGEST=1)
    for size in (k - 1, k + 1):
        pre = nla(data, n._in(digest))
        assert _once_unreadable(n, OP.VERIFY, pub, ATTR.FINAL_INPUT_DATA,
                                size, pre=pre, **sig) == 0
    pre = nla(data, n._in(digest))
    assert errno_of(_once_unreadable, n, OP.VERIFY, pub, ATTR.FINAL_INPUT_DATA,
                    k, pre=pre, **sig) == errno.EFAULT


def test_decrypt_output_room_checked_first(n, rsa):
    """ERANGE depends on the buffer size only, not on the ciphertext."""
    k = import_key(n, rsa)
    ok, blocks = _pkcs1_blocks(rsa)
    good = _raw_encrypt(rsa, int.from_bytes(ok, "big"))
    bad = _raw_encrypt(rsa, int.from_bytes(blocks["PS empty"], "big"))
    for c in (good, bad):
        assert errno_of(crypt, n, OP.DECRYPT, k, c, RSA_PKCS1_V1_5,
                        out=rsa.k - 12) == errno.ERANGE
    assert crypt(n, OP.DECRYPT, k, good, RSA_PKCS1_V1_5,
                 out=rsa.k - 11) == b"MSG!"
    # the ciphertext must be exactly the modulus length
    assert errno_of(crypt, n, OP.DECRYPT, k, good[1:],
                    RSA_PKCS1_V1_5) == errno.EINVAL
    assert errno_of(crypt, n, OP.DECRYPT, k, b"\0" + good,
                    RSA_PKCS1_V1_5) == errno.EINVAL


# ---- key usage flags -------------------------------------------------------

@pytest.mark.parametrize("flags,sig_ok,enc_ok", [
    (0, True, True),
    (FLAG_SIGN, True, False),
    (FLAG_DECRYPT, False, True),
    (FLAG_SIGN | FLAG_DECRYPT, True, True),
])
def test_key_usage_flags(n, rsa, flags, sig_ok, enc_ok):
    k = import_key(n, rsa, flags=flags | FLAG_EXPORTABLE)
    pub = import_key(n, rsa, private=False)
    osig = ossl_sign(rsa, MSG, "sha256")
    ct = crypt(n, OP.ENCRYPT, pub, b"m", RSA_PKCS1_V1_5)
    want_sig = 0 if sig_ok else errno.EPERM
    want_enc = 0 if enc_ok else errno.EPERM
    assert errno_of(sign, n, k, MSG) == want_sig
    assert errno_of(verify, n, k, MSG, osig) == want_sig
    assert errno_of(crypt, n, OP.DECRYPT, k, ct, RSA_PKCS1_V1_5) == want_enc
    assert errno_of(crypt, n, OP.ENCRYPT, k, b"m",
                    RSA_PKCS1_V1_5) == want_enc
    # refused already at SESSION_INIT
    if not sig_ok:
        assert errno_of(n.session_init, OP.SIGN, "rsa", key=k,
                        RSA_ENCODING_METHOD=RSA_PKCS1_V1_5,
                        SIGNATURE_HASH_ALGORITHM="sha256") == errno.EPERM
    # the unrestricted public key does everything a public key can
    assert verify(n, pub, MSG, osig) == 1


# ---- argument errors ---------------------------------------------------------

def test_session_argument_errors(n, rsa, dsa):
    k = import_key(n, rsa)
    pub = import_key(n, rsa, private=False)
    dk = import_key(n, dsa)
    init = n.session_init
    E = errno.EINVAL
    # private-key operations need the private key
    assert errno_of(init, OP.SIGN, "rsa", key=pub,
                    RSA_ENCODING_METHOD=RSA_PKCS1_V1_5,
                    SIGNATURE_HASH_ALGORITHM="sha256") == E
    assert errno_of(init, OP.DECRYPT, "rsa", key=pub,
                    RSA_ENCODING_METHOD=RSA_PKCS1_V1_5) == E
    # key of another algorithm, no key, secret key
    assert errno_of(init, OP.SIGN, "rsa", key=dk,
                    RSA_ENCODING_METHOD=RSA_PKCS1_V1_5,
                    SIGNATURE_HASH_ALGORITHM="sha256") == E
    assert errno_of(init, OP.SIGN, "rsa", RSA_ENCODING_METHOD=RSA_PKCS1_V1_5,
                    SIGNATURE_HASH_ALGORITHM="sha256") == E
    sk = n.secret_key(bytes(16), "cbc(aes)")
    assert errno_of(init, OP.SIGN, "rsa", key=sk,
                    RSA_ENCODING_METHOD=RSA_PKCS1_V1_5,
                    SIGNATURE_HASH_ALGORITHM="sha256") == E
    # encoding method mandatory and matching the operation
    assert errno_of(init, OP.SIGN, "rsa", key=k,
                    SIGNATURE_HASH_ALGORITHM="sha256") == E
    assert errno_of(init, OP.SIGN, "rsa", key=k,
                    RSA_ENCODING_METHOD=RSA_PKCS1_OAEP,
                    SIGNATURE_HASH_ALGORITHM="sha256") == E
    assert errno_of(init, OP.ENCRYPT, "rsa", key=k,
                    RSA_ENCODING_METHOD=RSA_PKCS1_PSS) == E
    assert errno_of(init, OP.ENCRYPT, "rsa", key=k,
                    RSA_ENCODING_METHOD=7) == E
    # hashes
    assert errno_of(init, OP.SIGN, "rsa", key=k,
                    RSA_ENCODING_METHOD=RSA_PKCS1_V1_5) == E
    assert errno_of(init, OP.SIGN, "rsa", key=k,
                    RSA_ENCODING_METHOD=RSA_PKCS1_V1_5,
                    SIGNATURE_HASH_ALGORITHM="nohash") == E
    assert errno_of(init, OP.SIGN, "rsa", key=k,
                    RSA_ENCODING_METHOD=RSA_PKCS1_V1_5,
                    SIGNATURE_HASH_ALGORITHM="sha3-256") == errno.EOPNOTSUPP
    assert errno_of(init, OP.ENCRYPT, "rsa", key=k,
                    RSA_ENCODING_METHOD=RSA_PKCS1_OAEP) == E
    # salt length: AUTO only when verifying; too long for the key at FINAL
    assert errno_of(init, OP.SIGN, "rsa", key=k,
                    RSA_ENCODING_METHOD=RSA_PKCS1_PSS,
                    RSA_PSS_SALT_LENGTH=RSA_PSS_SALT_LENGTH_AUTO,
                    SIGNATURE_HASH_ALGORITHM="sha256") == E
    assert errno_of(sign, n, k, MSG, "sha256", RSA_PKCS1_PSS,
                    rsa.k - 32 - 1) == E
    # signature output room
    assert errno_of(sign, n, k, MSG, out=rsa.k - 1) == errno.ERANGE
    # SIGN without an output buffer, VERIFY without a signature
    s = init(OP.SIGN, "rsa", key=k, RSA_ENCODING_METHOD=RSA_PKCS1_V1_5,
             SIGNATURE_HASH_ALGORITHM="sha256")
    assert errno_of(n.session_final, s) == E
    s = init(OP.VERIFY, "rsa", key=k, RSA_ENCODING_METHOD=RSA_PKCS1_V1_5,
             SIGNATURE_HASH_ALGORITHM="sha256")
    assert errno_of(n.session_final, s, data=MSG) == E
    # encryption refuses a key's material as input
    e = init(OP.ENCRYPT, "rsa", key=k, RSA_ENCODING_METHOD=RSA_PKCS1_V1_5)
    assert errno_of(n.session_update, e, key_as_data=sk,
                    out_size=rsa.k) == E


def test_key_replaced_under_session(n, rsa, dsa):
    """The key object may change under a session: checked at each use."""
    k = import_key(n, rsa)
    s = n.session_init(OP.SIGN, "rsa", key=k,
                       RSA_ENCODING_METHOD=RSA_PKCS1_V1_5,
                       SIGNATURE_HASH_ALGORITHM="sha256")
    n.session_update(s, MSG)
    n.key_import(k, dsa.priv_der, "dsa", key_type=3)
    assert errno_of(n.session_final, s, final_out_size=rsa.k) == errno.EINVAL
    # and KEY_DEINIT while a session holds it: the session keeps working
    k2 = import_key(n, rsa)
    s = n.session_init(OP.SIGN, "rsa", key=k2,
                       RSA_ENCODING_METHOD=RSA_PKCS1_V1_5,
                       SIGNATURE_HASH_ALGORITHM="sha256")
    n.key_deinit(k2)
    ret, outs = n.session_final(s, data=MSG, final_out_size=rsa.k)
    assert ossl_verify(rsa, MSG, outs[0], "sha256")


# ---- 32-bit callers (compat_ioctl) -----------------------------------------

@pytest.mark.parametrize("bits", ["64", "32"])
def test_sign_verify_from_c_native_and_compat(rsa, bits, tmp_path, dev):
    """scripts/bench.d/pk_bench.c signs and verifies (self-checked) through
    SESSION_ONCE, built -m64 and -m32: the 32-bit build goes through the
    compat path (pointer-sized fields of the session data attributes)."""
    from pk_util import ROOT, WORK
    exe = tmp_path / ("pk_bench" + bits)
    lib = ["-I", str(ROOT / "libncr"), "-I", str(ROOT / "driver/lib")] + \
        [str(ROOT / "libncr" / f) for f in
         ("attrs.c", "dev.c", "key.c", "session.c")] + \
        [str(ROOT / "driver/lib/nlattr.c")]
    r = subprocess.run(["gcc", "-m" + bits, "-O2", "-I", str(ROOT / "include"),
                        str(ROOT / "scripts/bench.d/pk_bench.c")] + lib +
                       ["-o", str(exe)], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip("cannot build -m%s: %s" % (bits, r.stderr[-200:]))
    priv = WORK / "rsa2048.der"
    pub = WORK / "rsa2048.pub.der"
    priv.write_bytes(rsa.priv_der)
    pub.write_bytes(rsa.pub_der)
    out = subprocess.run([str(exe), str(priv), str(pub), "0.2"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "sign/s" in out.stdout and "verify/s" in out.stdout
