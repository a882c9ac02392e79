"""Hashes and HMACs through /dev/crypto against Python's hashlib/hmac
(libcrypto): several sizes including streamed input above 1 MiB, many small
updates, VERIFY, and hashing a key's material (UPDATE_INPUT_KEY_AS_DATA)."""
import errno
import hashlib
import hmac
import random

import pytest

from ncrio import OP, FLAG_EXPORTABLE

HASHES = ["md5", "sha1", "sha224", "sha256", "sha384", "sha512", "sha3-256"]
PY_NAME = {"sha3-256": "sha3_256"}
SIZES = [0, 1, 55, 56, 64, 127, 1000, 16384, 16385, 100003]


def py_hash(algo, data):
    return hashlib.new(PY_NAME.get(algo, algo), data).digest()


@pytest.mark.parametrize("algo", HASHES)
def test_hash_sizes(ncr, algo):
    rnd = random.Random(algo)
    for size in SIZES:
        data = rnd.randbytes(size)
        got = ncr.session_once(OP.SIGN, algo, data=data)
        assert got == py_hash(algo, data), "%s, %d bytes" % (algo, size)


@pytest.mark.parametrize("algo", ["sha256", "sha512"])
def test_hash_large_streamed(ncr, algo):
    """1.5 MiB in one call: the driver streams it in bounded chunks."""
    data = random.Random(1).randbytes(3 << 19)
    assert ncr.session_once(OP.SIGN, algo, data=data) == py_hash(algo, data)


@pytest.mark.parametrize("algo", ["sha1", "sha256", "sha3-256"])
def test_hash_many_small_updates(ncr, algo):
    rnd = random.Random(algo + "upd")
    s = ncr.session_init(OP.SIGN, algo)
    ref = hashlib.new(PY_NAME.get(algo, algo))
    for _ in range(300):
        chunk = rnd.randbytes(rnd.randint(0, 70))
        ncr.session_update(s, chunk, out_size=None)
        ref.update(chunk)
    ret, outs = ncr.session_final(s, final_out_size=64)
    assert ret == 0 and outs[-1] == ref.digest()


@pytest.mark.parametrize("algo", ["sha1", "sha256", "sha384", "sha512", "md5"])
@pytest.mark.parametrize("klen", [1, 20, 64, 65, 200])
def test_hmac(ncr, algo, klen):
    rnd = random.Random("%s%d" % (algo, klen))
    key = rnd.randbytes(klen)
    k = ncr.secret_key(key, "hmac(%s)" % algo, flags=0)
    for size in (0, 3, 1000, 20000):
        data = rnd.randbytes(size)
        mac = ncr.session_once(OP.SIGN, "hmac(%s)" % algo, key=k, data=data)
        assert mac == hmac.new(key, data, algo).digest()
        assert ncr.session_once(OP.VERIFY, "hmac(%s)" % algo, key=k,
                                data=data, final_data=mac) == 1
        bad = bytes([mac[0] ^ 1]) + mac[1:]
        assert ncr.session_once(OP.VERIFY, "hmac(%s)" % algo, key=k,
                                data=data, final_data=bad) == 0


def test_hmac_streamed_large(ncr):
    key = bytes(range(32))
    data = random.Random(5).randbytes((1 << 20) + 12345)
    k = ncr.secret_key(key, "hmac(sha256)", flags=0)
    s = ncr.session_init(OP.SIGN, "hmac(sha256)", key=k)
    for off in range(0, len(data), 300000):
        ncr.session_update(s, data[off:off + 300000], out_size=None)
    ret, outs = ncr.session_final(s, final_out_size=32)
    assert outs[-1] == hmac.new(key, data, "sha256").digest()


def test_generated_hmac_key(ncr):
    k = ncr.key_init()
    ncr.key_generate(k, "hmac(sha512)", 512, flags=FLAG_EXPORTABLE)
    key = ncr.key_export(k)
    assert len(key) == 64
    mac = ncr.session_once(OP.SIGN, "hmac(sha512)", key=k, data=b"msg")
    assert mac == hmac.new(key, b"msg", "sha512").digest()


def test_verify_hash(ncr):
    d = hashlib.sha384(b"hello").digest()
    assert ncr.session_once(OP.VERIFY, "sha384", data=b"hello",
                            final_data=d) == 1
    assert ncr.session_once(OP.VERIFY, "sha384", data=b"hellO",
                            final_data=d) == 0
    assert ncr.session_once(OP.VERIFY, "sha384", data=b"hello",
                            final_data=d[:-1]) == 0


def test_sign_short_buffer(ncr):
    with pytest.raises(OSError) as e:
        ncr.session_once(OP.SIGN, "sha512", data=b"x", final_out_size=63)
    assert e.value.errno == errno.ERANGE


def test_key_as_data(ncr):
    """Hash of a non-exportable key equals the hash of its material."""
    key = random.Random(9).randbytes(32)
    k = ncr.secret_key(key, "cbc(aes)", flags=0)
    got = ncr.session_once(OP.SIGN, "sha256", key_as_data=k)
    assert got == hashlib.sha256(key).digest()
    # combined with data, in a session: data, key, data
    s = ncr.session_init(OP.SIGN, "sha256")
    ncr.session_update(s, b"pre", out_size=None)
    ncr.session_update(s, key_as_data=k)
    ret, outs = ncr.session_final(s, data=b"post", out_size=None,
                                  final_out_size=32)
    assert outs[-1] == hashlib.sha256(b"pre" + key + b"post").digest()
    # never through a cipher
    with pytest.raises(OSError) as e:
        ncr.session_once(OP.ENCRYPT, "ecb(aes)", key=k, key_as_data=k,
                         out_size=32)
    assert e.value.errno == errno.EINVAL
