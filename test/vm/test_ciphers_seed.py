"""The ciphers of the 2010 implementation through /dev/crypto: cbc(des3_ede),
ecb/cbc/ctr(camellia), xts(aes) and ecb(cipher_null).

Known answers from the standards (SP 800-67 for 3DES, RFC 3713 and RFC 5528
for Camellia, IEEE 1619 for XTS-AES), then python3-cryptography (OpenSSL)
as the reference on random multi-block data fed through several
SESSION_UPDATEs, and the size rules: key sizes (EINVAL at import), IV sizes
and data lengths (EINVAL at SESSION_INIT/UPDATE), weak keys (EINVAL on every
machine, not only in FIPS mode).  Wycheproof has no 3DES, Camellia or XTS
files.
"""
import errno
import random
import warnings

import pytest
from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from ncrio import FLAG_EXPORTABLE, FLAG_WRAPPABLE, FLAG_WRAPPING, OP
from ncrio import errno_of as err

h = bytes.fromhex
CHUNK = 16 * 1024       # the driver's bounce buffer (NCR_CHUNK_SIZE)


def xor(a, b):
    return bytes(x ^ y for x, y in zip(a, b))


def ref(algo, key, iv, data, decrypt=False):
    """The same operation in python3-cryptography."""
    mode, _, cipher = algo.partition("(")
    cipher = cipher[:-1]
    with warnings.catch_warnings():   # TripleDES is "decrepit" there
        warnings.simplefilter("ignore")
        alg = {"des3_ede": algorithms.TripleDES, "camellia":
               algorithms.Camellia, "aes": algorithms.AES}[cipher](key)
        m = {"ecb": lambda: modes.ECB(), "cbc": lambda: modes.CBC(iv),
             "ctr": lambda: modes.CTR(iv), "xts": lambda: modes.XTS(iv)}[mode]()
        c = Cipher(alg, m)
        try:
            ctx = c.decryptor() if decrypt else c.encryptor()
        except UnsupportedAlgorithm:
            if mode != "ctr":
                raise
            # Debian 13's cryptography has Camellia but no CTR over it
            return ctr_from_ecb(Cipher(alg, modes.ECB()).encryptor(), iv,
                                data)
        return ctx.update(data) + ctx.finalize()


def ctr_from_ecb(ecb, iv, data):
    """CTR (SP 800-38A: a 128-bit big-endian counter from iv) built on an
    ECB encryptor: the keystream is the encrypted counter blocks."""
    n = int.from_bytes(iv, "big")
    blocks = (len(data) + 15) // 16
    counters = b"".join(((n + i) % (1 << 128)).to_bytes(16, "big")
                        for i in range(blocks))
    return xor(data, ecb.update(counters))


# ---- known answers ---------------------------------------------------------

# SP 800-67 Rev. 2, Appendix B: three distinct keys, "The qufck brown fox jump".
TDES_KEY = h("0123456789abcdef" "23456789abcdef01" "456789abcdef0123")
TDES_PT = b"The qufck brown fox jump"
TDES_ECB_CT = h("a826fd8ce53b855f" "cce21c8112256fe6" "68d5c05dd9b6b900")

# RFC 3713, Appendix A: the plaintext is the first 16 key bytes.
CAM_K = h("0123456789abcdeffedcba9876543210")
CAM_KEYS = {16: CAM_K, 24: CAM_K + h("0011223344556677"),
            32: CAM_K + h("00112233445566778899aabbccddeeff")}
CAM_ECB_CT = {16: h("67673138549669730857065648eabe43"),
              24: h("b4993401b3e996f84ee5cee7d79b09b9"),
              32: h("9acc237dff16d76c20ef7c919e3a7509")}


def cbc_from_ecb(iv, pt_blocks, ct_blocks):
    """A CBC plaintext whose CBC encryption under iv is ct_blocks, given the
    ECB pairs pt_blocks -> ct_blocks: P'_i = P_i ^ C_(i-1)."""
    prev, out = iv, b""
    for p, c in zip(pt_blocks, ct_blocks):
        out += xor(p, prev)
        prev = c
    return out


def blocks(b, n):
    return [b[i:i + n] for i in range(0, len(b), n)]


def test_des3_ede_sp800_67(ncr):
    """cbc(des3_ede) with the SP 800-67 ECB example turned into CBC input
    (first with a zero IV, where block one is ECB itself, then another IV),
    all three blocks through one session, one update per block."""
    k = ncr.secret_key(TDES_KEY, "cbc(des3_ede)", flags=0)
    for iv in (bytes(8), h("1234567890abcdef")):
        pt = cbc_from_ecb(iv, blocks(TDES_PT, 8), blocks(TDES_ECB_CT, 8))
        assert ncr.session_once(OP.ENCRYPT, "cbc(des3_ede)", key=k, iv=iv,
                                data=pt) == TDES_ECB_CT
        assert ncr.session_once(OP.DECRYPT, "cbc(des3_ede)", key=k, iv=iv,
                                data=TDES_ECB_CT) == pt
        s = ncr.session_init(OP.ENCRYPT, "cbc(des3_ede)", key=k, iv=iv)
        out = b"".join(ncr.session_update(s, b) for b in blocks(pt, 8))
        assert ncr.session_final(s)[0] == 0
        assert out == TDES_ECB_CT
    assert TDES_ECB_CT[:8] == ncr.session_once(
        OP.ENCRYPT, "cbc(des3_ede)", key=k, iv=bytes(8), data=TDES_PT[:8])


@pytest.mark.parametrize("size", [16, 24, 32])
def test_camellia_ecb_rfc3713(ncr, size):
    k = ncr.secret_key(CAM_KEYS[size], "ecb(camellia)", flags=0)
    assert ncr.session_once(OP.ENCRYPT, "ecb(camellia)", key=k,
                            data=CAM_K) == CAM_ECB_CT[size]
    assert ncr.session_once(OP.DECRYPT, "ecb(camellia)", key=k,
                            data=CAM_ECB_CT[size]) == CAM_K


@pytest.mark.parametrize("size", [16, 24, 32])
def test_camellia_cbc_rfc3713(ncr, size):
    """The RFC 3713 block as the first CBC block (IV 0) and, chained, as
    the second block of a two-block message."""
    k = ncr.secret_key(CAM_KEYS[size], "cbc(camellia)", flags=0)
    ct = CAM_ECB_CT[size]
    iv = h("000102030405060708090a0b0c0d0e0f")
    assert ncr.session_once(OP.ENCRYPT, "cbc(camellia)", key=k,
                            iv=bytes(16), data=CAM_K) == ct
    pt = cbc_from_ecb(iv, [CAM_K, CAM_K], [ct, ct])
    assert ncr.session_once(OP.ENCRYPT, "cbc(camellia)", key=k, iv=iv,
                            data=pt) == ct + ct
    assert ncr.session_once(OP.DECRYPT, "cbc(camellia)", key=k, iv=iv,
                            data=ct + ct) == pt


def test_camellia_ctr_rfc5528(ncr):
    """RFC 5528 test vector #1: nonce 00000030, IV 0, block counter 1."""
    key = h("ae6852f8121067cc4bf7a5765577f39e")
    ctr = h("00000030" "0000000000000000" "00000001")
    k = ncr.secret_key(key, "ctr(camellia)", flags=0)
    assert ncr.session_once(OP.ENCRYPT, "ctr(camellia)", key=k, iv=ctr,
                            data=b"Single block msg") == \
        h("d09dc29a8214619a20877c76db1f0b3f")


# IEEE 1619-2007 Annex B (key = Key1 || Key2, IV = the data unit sequence
# number, 16 bytes little endian).
PT_512 = bytes(range(256)) * 2
XTS_VECTORS = [
    # vector 2
    (h("11" * 16 + "22" * 16), h("3333333333" + "00" * 11), h("44" * 32),
     h("c454185e6a16936e39334038acef838bfb186fff7480adc4289382ecd6d394f0")),
    # vector 4 (first 32 of 512 bytes; the rest is checked against OpenSSL)
    (h("27182818284590452353602874713526" "31415926535897932384626433832795"),
     bytes(16), PT_512,
     h("27a7479befa1d476489f308cd4cfa6e2a96e4bbe3208ff25287dd3819616e89c")),
    # vector 10, XTS-AES-256
    (h("2718281828459045235360287471352662497757247093699959574966967627"
       "3141592653589793238462643383279502884197169399375105820974944592"),
     h("ff" + "00" * 15), PT_512,
     h("1c3b3a102f770386e4836c99e370cf9bea00803f5e482357a4ae12d414a3e63b")),
    # vector 15: 17 bytes, ciphertext stealing
    (h("fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0" "bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0"),
     h("9a78563412" + "00" * 11), h("000102030405060708090a0b0c0d0e0f10"),
     h("6c1625db4671522d3d7599601de7ca09ed")),
]


@pytest.mark.parametrize("vec", range(len(XTS_VECTORS)))
def test_xts_aes_ieee1619(ncr, vec):
    key, iv, pt, ct = XTS_VECTORS[vec]
    k = ncr.secret_key(key, "xts(aes)", flags=0)
    out = ncr.session_once(OP.ENCRYPT, "xts(aes)", key=k, iv=iv, data=pt)
    assert out[:len(ct)] == ct
    assert out == ref("xts(aes)", key, iv, pt)
    assert ncr.session_once(OP.DECRYPT, "xts(aes)", key=k, iv=iv,
                            data=out) == pt


def test_xts_identical_halves_refused(ncr):
    """IEEE 1619 vector 1 has Key1 == Key2; SP 800-38E (and the kernel in
    FIPS mode) forbids that: EINVAL at SESSION_INIT on every machine."""
    for size in (32, 64):
        k = ncr.secret_key(bytes(size), "xts(aes)", flags=0)
        assert err(ncr.session_init, OP.ENCRYPT, "xts(aes)", key=k,
                   iv=bytes(16)) == errno.EINVAL
        half = bytes(range(size // 2))
        k = ncr.secret_key(half + half, "xts(aes)", flags=0)
        assert err(ncr.session_once, OP.ENCRYPT, "xts(aes)", key=k,
                   iv=bytes(16), data=bytes(32)) == errno.EINVAL
    # one bit of difference is enough
    k = ncr.secret_key(bytes(32) + b"\1" + bytes(31), "xts(aes)", flags=0)
    assert ncr.session_once(OP.ENCRYPT, "xts(aes)", key=k, iv=bytes(16),
                            data=bytes(32)) == \
        ref("xts(aes)", bytes(32) + b"\1" + bytes(31), bytes(16), bytes(32))


@pytest.mark.parametrize("which", ["k1=k2", "k2=k3", "k1=k3", "all"])
def test_des3_degenerate_keys_refused(ncr, which):
    """Three-key 3DES only: keys that make it single DES, and two-key 3DES
    (K1 == K3, which only FIPS mode refuses in the kernel), are EINVAL at
    SESSION_INIT."""
    a, b, c = blocks(TDES_KEY, 8)
    key = {"k1=k2": a + a + c, "k2=k3": a + b + b, "k1=k3": a + b + a,
           "all": a + a + a}[which]
    k = ncr.secret_key(key, "cbc(des3_ede)", flags=0)
    assert err(ncr.session_init, OP.ENCRYPT, "cbc(des3_ede)", key=k,
               iv=bytes(8)) == errno.EINVAL


def test_cipher_null(ncr):
    """ecb(cipher_null): output == input, any length, no IV; NCR_ATTR_KEY
    is ignored; a cipher_null key has 0 bytes."""
    rnd = random.Random("null")
    data = rnd.randbytes(3 * CHUNK + 5)
    assert ncr.session_once(OP.ENCRYPT, "ecb(cipher_null)",
                            data=data) == data
    assert ncr.session_once(OP.DECRYPT, "ecb(cipher_null)",
                            data=data[:1]) == data[:1]
    k = ncr.secret_key(b"", "ecb(cipher_null)", flags=FLAG_EXPORTABLE)
    assert ncr.key_export(k) == b""
    assert ncr.session_once(OP.ENCRYPT, "ecb(cipher_null)", key=k,
                            data=data) == data
    g = ncr.key_init()
    ncr.key_generate(g, "ecb(cipher_null)", 0)
    s = ncr.session_init(OP.DECRYPT, "ecb(cipher_null)", key=g)
    parts, off = [], 0
    for n in (1, 7, 16, 1000, CHUNK + 3, 2):
        parts.append(ncr.session_update(s, data[off:off + n]))
        off += n
    assert ncr.session_final(s)[0] == 0
    assert b"".join(parts) == data[:off]
    # like an unkeyed hash, cipher_null ignores NCR_ATTR_KEY (a 2010
    # program may pass any key, or NCR_KEY_INVALID)
    aes = ncr.secret_key(bytes(16), "ecb(aes)", flags=0)
    assert ncr.session_once(OP.ENCRYPT, "ecb(cipher_null)", key=aes,
                            data=data[:16]) == data[:16]
    assert ncr.session_once(OP.ENCRYPT, "ecb(cipher_null)", key=-1,
                            data=data[:16]) == data[:16]
    for size in (1, 16):
        assert err(ncr.secret_key, bytes(size), "ecb(cipher_null)") == \
            errno.EINVAL
    assert err(ncr.key_generate, ncr.key_init(), "ecb(cipher_null)",
               128) == errno.EINVAL


# ---- python3-cryptography as the reference, several updates ---------------

KEYED = {  # algorithm: (key sizes, IV size or None, block size)
    "cbc(des3_ede)": ((24,), 8, 8),
    "ecb(camellia)": ((16, 24, 32), None, 16),
    "cbc(camellia)": ((16, 24, 32), 16, 16),
    "ctr(camellia)": ((16, 24, 32), 16, 1),
}
STREAM_CASES = [(a, s) for a, (sizes, _, _) in sorted(KEYED.items())
                for s in sizes]


@pytest.mark.parametrize("algo,size", STREAM_CASES)
def test_matches_cryptography_streamed(ncr, algo, size):
    """Random data over several 16 KiB chunks, fed in random update sizes
    (multiples of the block; ctr: multiples of 16, then a partial tail):
    the same as OpenSSL's one shot, both directions."""
    sizes, ivlen, block = KEYED[algo]
    rnd = random.Random("%s/%d" % (algo, size))
    key = rnd.randbytes(size)
    iv = rnd.randbytes(ivlen) if ivlen else None
    step = max(block, 16 if algo.startswith("ctr") else block)
    data = rnd.randbytes(step * rnd.randint(2500, 4000) +
                         (11 if algo.startswith("ctr") else 0))
    want = ref(algo, key, iv, data)
    k = ncr.secret_key(key, algo, flags=0)
    assert ncr.session_once(OP.ENCRYPT, algo, key=k, iv=iv,
                            data=data) == want
    for op, src, dst in ((OP.ENCRYPT, data, want), (OP.DECRYPT, want, data)):
        s = ncr.session_init(op, algo, key=k, iv=iv)
        parts, off = [], 0
        while off < len(src):
            n = min(len(src) - off, step * rnd.randint(1, 1500))
            if len(src) - off - n < step:
                n = len(src) - off         # the (maybe partial) tail
            parts.append(ncr.session_update(s, src[off:off + n]))
            off += n
        assert ncr.session_final(s)[0] == 0
        assert b"".join(parts) == dst


@pytest.mark.parametrize("size", [32, 64])
@pytest.mark.parametrize("length", [16, 17, 31, 512, 4096, 4097, CHUNK])
def test_xts_matches_cryptography(ncr, size, length):
    rnd = random.Random("xts/%d/%d" % (size, length))
    key, iv = rnd.randbytes(size), rnd.randbytes(16)
    data = rnd.randbytes(length)
    want = ref("xts(aes)", key, iv, data)
    k = ncr.secret_key(key, "xts(aes)", flags=0)
    assert ncr.session_once(OP.ENCRYPT, "xts(aes)", key=k, iv=iv,
                            data=data) == want
    s = ncr.session_init(OP.DECRYPT, "xts(aes)", key=k, iv=iv)
    assert ncr.session_update(s, want) == data
    assert ncr.session_final(s)[0] == 0


def test_xts_one_data_unit_per_session(ncr):
    """The tweak cannot be carried from one request to the next, so a
    session is one data unit: 16 bytes to 16 KiB, in one update."""
    k = ncr.secret_key(bytes(range(64)), "xts(aes)", flags=0)
    iv = bytes(16)
    for n in (1, 15, CHUNK + 1, CHUNK + 16):
        assert err(ncr.session_once, OP.ENCRYPT, "xts(aes)", key=k, iv=iv,
                   data=bytes(n)) == errno.EINVAL, n
    s = ncr.session_init(OP.ENCRYPT, "xts(aes)", key=k, iv=iv)
    first = ncr.session_update(s, bytes(32))
    assert first == ref("xts(aes)", bytes(range(64)), iv, bytes(32))
    assert err(ncr.session_update, s, bytes(32)) == errno.EINVAL
    ncr.session_final(s)
    # the data of FINAL is the data unit too
    s = ncr.session_init(OP.ENCRYPT, "xts(aes)", key=k, iv=iv)
    r, outs = ncr.session_final(s, data=bytes(32), out_size=32)
    assert outs == [first]


def test_ctr_camellia_partial_tail(ncr):
    key, iv = bytes(range(32)), bytes(range(16))
    k = ncr.secret_key(key, "ctr(camellia)", flags=0)
    data = bytes(range(200)) * 3
    s = ncr.session_init(OP.ENCRYPT, "ctr(camellia)", key=k, iv=iv)
    a = ncr.session_update(s, data[:592])
    b = ncr.session_update(s, data[592:])      # 8 bytes: the last update
    assert err(ncr.session_update, s, data[:16]) == errno.EINVAL
    ncr.session_final(s)
    assert a + b == ref("ctr(camellia)", key, iv, data)


# ---- size rules --------------------------------------------------------------

BAD_KEY_SIZES = {
    "cbc(des3_ede)": (0, 8, 16, 23, 25, 32),
    "ecb(camellia)": (0, 8, 15, 17, 20, 33, 64),
    "cbc(camellia)": (8, 20, 40),
    "ctr(camellia)": (8, 20, 40),
    "xts(aes)": (0, 16, 24, 33, 48, 63, 96, 128),
}


@pytest.mark.parametrize("algo", sorted(BAD_KEY_SIZES))
def test_wrong_key_sizes(ncr, algo):
    good = KEYED.get(algo, ((32, 64),))[0]
    for size in BAD_KEY_SIZES[algo]:
        k = ncr.key_init()
        assert err(ncr.key_import, k, bytes(range(size)), algo) == \
            errno.EINVAL, size
        assert err(ncr.key_generate, k, algo, size * 8) == errno.EINVAL, size
    for size in good:
        k = ncr.key_init()
        assert ncr.key_generate(k, algo, size * 8) == 0
        assert err(ncr.key_import, k, bytes(range(1, size + 1)), algo) == 0


def test_session_checks_key_size_for_its_algorithm(ncr):
    """A key imported for another algorithm must still have a size the
    session's algorithm takes: 48 bytes is not XTS-AES (IEEE 1619 has 32
    and 64), 16 bytes is not 3DES."""
    k48 = ncr.secret_key(bytes(range(48)), "hmac(sha256)", flags=0)
    assert err(ncr.session_init, OP.ENCRYPT, "xts(aes)", key=k48,
               iv=bytes(16)) == errno.EINVAL
    k16 = ncr.secret_key(bytes(range(16)), "ecb(aes)", flags=0)
    assert err(ncr.session_init, OP.ENCRYPT, "cbc(des3_ede)", key=k16,
               iv=bytes(8)) == errno.EINVAL
    # an AES-size key does work with Camellia (the same sizes)
    assert ncr.session_once(OP.ENCRYPT, "ecb(camellia)", key=ncr.secret_key(
        CAM_KEYS[16], "ecb(aes)", flags=0), data=CAM_K) == CAM_ECB_CT[16]


@pytest.mark.parametrize("algo,ivs", [
    ("cbc(des3_ede)", (None, b"", 7, 9, 16)),
    ("cbc(camellia)", (None, b"", 8, 15, 17, 32)),
    ("ctr(camellia)", (None, b"", 8, 15, 32)),
    ("xts(aes)", (None, 8, 15, 17, 32)),
])
def test_wrong_iv_sizes(ncr, algo, ivs):
    """The IV is mandatory and has exactly the IV size: no silent zero IV."""
    size = {"cbc(des3_ede)": 24, "xts(aes)": 64}.get(algo, 16)
    k = ncr.secret_key(bytes(range(1, size + 1)), algo, flags=0)
    for iv in ivs:
        ivb = bytes(iv) if isinstance(iv, int) else iv
        assert err(ncr.session_init, OP.ENCRYPT, algo, key=k, iv=ivb) == \
            errno.EINVAL, iv


@pytest.mark.parametrize("algo,bad", [
    ("cbc(des3_ede)", (4, 12, 17)),
    ("ecb(camellia)", (8, 24, 33)),
    ("cbc(camellia)", (8, 24, 33)),
])
def test_partial_blocks_refused(ncr, algo, bad):
    size, ivlen, block = KEYED[algo][0][0], KEYED[algo][1], KEYED[algo][2]
    k = ncr.secret_key(bytes(range(1, size + 1)), algo, flags=0)
    iv = bytes(ivlen) if ivlen else None
    for n in bad:
        assert err(ncr.session_once, OP.ENCRYPT, algo, key=k, iv=iv,
                   data=bytes(n)) == errno.EINVAL, n
    # the block size itself is fine
    assert len(ncr.session_once(OP.ENCRYPT, algo, key=k, iv=iv,
                                data=bytes(block))) == block


@pytest.mark.parametrize("algo", sorted(KEYED) + ["xts(aes)"])
def test_key_mandatory(ncr, algo):
    ivlen = KEYED.get(algo, (0, 16))[1]
    iv = bytes(ivlen) if ivlen else None
    assert err(ncr.session_init, OP.ENCRYPT, algo, iv=iv) == errno.EINVAL


@pytest.mark.parametrize("algo", sorted(KEYED) + ["xts(aes)",
                                                  "ecb(cipher_null)"])
def test_not_a_kek(ncr, algo):
    """Only AES keys wrap other keys; these algorithms' keys are refused
    as key-encryption keys (an AES key with the same flags is the
    control)."""
    size = {"cbc(des3_ede)": 24, "xts(aes)": 32,
            "ecb(cipher_null)": 0}.get(algo, 16)
    # KEKs carry NCR_KEY_FLAG_WRAPPING where the driver knows that flag.
    flags = FLAG_WRAPPING
    if err(ncr.secret_key, bytes(16), "ecb(aes)", flags=flags) == \
            errno.EINVAL:
        flags = 0
    src = ncr.secret_key(bytes(16), "ecb(aes)", flags=FLAG_WRAPPABLE)
    control = ncr.secret_key(bytes(range(32)), "ecb(aes)", flags=flags)
    assert len(ncr.key_wrap(control, src, algo="walg-aes-rfc3394")) == 24
    kek = ncr.secret_key(bytes(range(1, size + 1)), algo, flags=flags)
    assert err(ncr.key_wrap, kek, src, algo="walg-aes-rfc3394") == \
        errno.EINVAL
