"""AES through /dev/crypto: Wycheproof CBC vectors, NIST SP 800-38A known
answers for ECB/CBC/CTR, streaming equivalence, and OpenSSL's command line
(libcrypto) as a reference on random data."""
import ctypes
import errno
import json
import mmap
import os
import pathlib
import random
import subprocess
import threading

import pytest

from ncrio import (ATTR, FLAG_EXPORTABLE, FLAG_WRAPPABLE, FLAG_WRAPPING, OP,
                   Ncr, errno_of, nla, session_input_data, session_once_s,
                   session_output_buffer)

ROOT = pathlib.Path(os.environ.get(
    "NCR_ROOT", pathlib.Path(__file__).resolve().parents[2]))
WYCHEPROOF = ROOT.parent / "shared" / "vectors" / "wycheproof"


def pkcs5_pad(m):
    n = 16 - len(m) % 16
    return m + bytes([n]) * n


def pkcs5_unpad(p):
    """Strict PKCS#5 unpadding; None when the padding is invalid."""
    if not p or len(p) % 16:
        return None
    n = p[-1]
    if not 1 <= n <= 16 or p[-n:] != bytes([n]) * n:
        return None
    return p[:-n]


# ---- Wycheproof aes_cbc_pkcs5 ----------------------------------------------

def wycheproof_cbc():
    path = WYCHEPROOF / "aes_cbc_pkcs5_test.json"
    if not path.exists():
        return []
    data = json.loads(path.read_text())
    return [t for g in data["testGroups"] for t in g["tests"]]


CBC_VECTORS = wycheproof_cbc()


def test_wycheproof_present():
    if not CBC_VECTORS:
        pytest.skip("Wycheproof vectors not found in %s" % WYCHEPROOF)
    assert len(CBC_VECTORS) == 216


@pytest.mark.skipif(not CBC_VECTORS, reason="Wycheproof vectors missing")
def test_wycheproof_aes_cbc_pkcs5(ncr):
    """Padding is the caller's job: pad, then compare raw cbc(aes)."""
    failures = []
    for t in CBC_VECTORS:
        key, iv = bytes.fromhex(t["key"]), bytes.fromhex(t["iv"])
        msg, ct = bytes.fromhex(t["msg"]), bytes.fromhex(t["ct"])
        k = ncr.secret_key(key, "cbc(aes)", flags=0)
        try:
            raw = ncr.session_once(OP.DECRYPT, "cbc(aes)", key=k, iv=iv,
                                   data=ct)
            if t["result"] == "valid":
                enc = ncr.session_once(OP.ENCRYPT, "cbc(aes)", key=k, iv=iv,
                                       data=pkcs5_pad(msg))
                ok = enc == ct and pkcs5_unpad(raw) == msg
            else:
                # The raw plaintext must fail unpadding, and it is really
                # what was encrypted (re-encrypting it gives ct back).
                enc = ncr.session_once(OP.ENCRYPT, "cbc(aes)", key=k, iv=iv,
                                       data=raw)
                ok = pkcs5_unpad(raw) is None and enc == ct
        finally:
            ncr.key_deinit(k)
        if not ok:
            failures.append(t["tcId"])
    assert not failures, "failed tcIds: %s" % failures


# ---- NIST SP 800-38A -------------------------------------------------------

SP_PT = bytes.fromhex(
    "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
    "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710")
SP_KEYS = {
    128: "2b7e151628aed2a6abf7158809cf4f3c",
    192: "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
    256: "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
}
SP_IV = {"ecb(aes)": None,
         "cbc(aes)": "000102030405060708090a0b0c0d0e0f",
         "ctr(aes)": "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"}
SP_CT = {
    ("ecb(aes)", 128): "3ad77bb40d7a3660a89ecaf32466ef97f5d3d58503b9699de785895a96fdbaaf"
                       "43b1cd7f598ece23881b00e3ed0306887b0c785e27e8ad3f8223207104725dd4",
    ("ecb(aes)", 192): "bd334f1d6e45f25ff712a214571fa5cc974104846d0ad3ad7734ecb3ecee4eef"
                       "ef7afd2270e2e60adce0ba2face6444e9a4b41ba738d6c72fb16691603c18e0e",
    ("ecb(aes)", 256): "f3eed1bdb5d2a03c064b5a7e3db181f8591ccb10d410ed26dc5ba74a31362870"
                       "b6ed21b99ca6f4f9f153e7b1beafed1d23304b7a39f9f3ff067d8d8f9e24ecc7",
    ("cbc(aes)", 128): "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2"
                       "73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7",
    ("cbc(aes)", 192): "4f021db243bc633d7178183a9fa071e8b4d9ada9ad7dedf4e5e738763f69145a"
                       "571b242012fb7ae07fa9baac3df102e008b0e27988598881d920a9e64f5615cd",
    ("cbc(aes)", 256): "f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d"
                       "39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b",
    ("ctr(aes)", 128): "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff"
                       "5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee",
    ("ctr(aes)", 192): "1abc932417521ca24f2b0459fe7e6e0b090339ec0aa6faefd5ccc2c6f4ce8e94"
                       "1e36b26bd1ebc670d1bd1d665620abf74f78a7f6d29809585a97daec58c6b050",
    ("ctr(aes)", 256): "601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c5"
                       "2b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6",
}


@pytest.mark.parametrize("algo,bits", sorted(SP_CT))
def test_sp800_38a(ncr, algo, bits):
    key = bytes.fromhex(SP_KEYS[bits])
    iv = SP_IV[algo] and bytes.fromhex(SP_IV[algo])
    ct = bytes.fromhex(SP_CT[(algo, bits)])
    k = ncr.secret_key(key, algo, flags=0)
    assert ncr.session_once(OP.ENCRYPT, algo, key=k, iv=iv, data=SP_PT) == ct
    assert ncr.session_once(OP.DECRYPT, algo, key=k, iv=iv, data=ct) == SP_PT
    # block by block through one session
    s = ncr.session_init(OP.ENCRYPT, algo, key=k, iv=iv)
    out = b"".join(ncr.session_update(s, SP_PT[i:i + 16])
                   for i in range(0, 64, 16))
    assert ncr.session_final(s)[0] == 0
    assert out == ct


# ---- streaming and errors --------------------------------------------------

@pytest.mark.parametrize("algo", ["cbc(aes)", "ctr(aes)", "ecb(aes)"])
def test_streaming_equals_one_shot(ncr, algo):
    rnd = random.Random(algo)
    key = rnd.randbytes(32)
    iv = None if algo == "ecb(aes)" else rnd.randbytes(16)
    data = rnd.randbytes(150000 // 16 * 16)  # several 16 KiB chunks
    k = ncr.secret_key(key, algo, flags=0)
    one = ncr.session_once(OP.ENCRYPT, algo, key=k, iv=iv, data=data)
    s = ncr.session_init(OP.ENCRYPT, algo, key=k, iv=iv)
    parts, off = [], 0
    while off < len(data):
        n = min(len(data) - off, 16 * rnd.randint(1, 1500))
        parts.append(ncr.session_update(s, data[off:off + n]))
        off += n
    ncr.session_final(s)
    assert b"".join(parts) == one
    assert ncr.session_once(OP.DECRYPT, algo, key=k, iv=iv, data=one) == data


def test_ctr_partial_last_block(ncr):
    key, iv = bytes(range(16)), bytes(16)
    k = ncr.secret_key(key, "ctr(aes)", flags=0)
    data = bytes(range(200)) * 3
    one = ncr.session_once(OP.ENCRYPT, "ctr(aes)", key=k, iv=iv, data=data)
    s = ncr.session_init(OP.ENCRYPT, "ctr(aes)", key=k, iv=iv)
    a = ncr.session_update(s, data[:592])
    b = ncr.session_update(s, data[592:])      # 8 bytes: the last update
    with pytest.raises(OSError) as e:
        ncr.session_update(s, data[:16])       # nothing may follow it
    assert e.value.errno == errno.EINVAL
    ncr.session_final(s)
    assert a + b == one


@pytest.mark.parametrize("algo", ["cbc(aes)", "ecb(aes)"])
def test_block_modes_reject_partial_blocks(ncr, algo):
    k = ncr.secret_key(bytes(16), algo, flags=0)
    iv = None if algo == "ecb(aes)" else bytes(16)
    with pytest.raises(OSError) as e:
        ncr.session_once(OP.ENCRYPT, algo, key=k, iv=iv, data=bytes(33))
    assert e.value.errno == errno.EINVAL


# ---- where the data lives: pinned pages, bounce buffer, bad addresses ------

_libc = ctypes.CDLL(None, use_errno=True)
_libc.mmap.restype = ctypes.c_void_p
_libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int,
                       ctypes.c_int, ctypes.c_int, ctypes.c_long]
_libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
_libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]


def _map(size):
    a = _libc.mmap(None, size, mmap.PROT_READ | mmap.PROT_WRITE,
                   mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, -1, 0)
    assert a not in (None, ctypes.c_void_p(-1).value)
    return a


def _encrypt_at(ncr, algo, k, iv, src, dst, n):
    """SESSION_ONCE from address src to address dst (n bytes each)."""
    rs = ctypes.c_size_t(0)
    a = nla(ATTR.UPDATE_INPUT_DATA, bytes(session_input_data(src, n)))
    a += nla(ATTR.UPDATE_OUTPUT_BUFFER, bytes(session_output_buffer(
        dst, n, ctypes.addressof(rs))))
    a += ncr.attrs(ALGORITHM=algo, KEY=k, IV=iv)
    ncr.call("SESSION_ONCE", session_once_s(op=OP.ENCRYPT), a)
    assert rs.value == n


@pytest.mark.parametrize("algo", ["cbc(aes)", "ctr(aes)", "ecb(aes)"])
def test_user_memory_layouts(ncr, algo):
    """Chunks of 1 KiB and more are encrypted between the caller's pinned
    pages, smaller ones through a bounce buffer: every layout (in place,
    apart, overlapping either way, across pages at odd offsets) gives what
    a copy in and out would."""
    rnd = random.Random("layout" + algo)
    key = rnd.randbytes(16)
    iv = None if algo == "ecb(aes)" else rnd.randbytes(16)
    k = ncr.secret_key(key, algo, flags=0)
    page = mmap.PAGESIZE
    size = 3 * 40960 + 4 * page
    base = _map(size)
    try:
        for n in (16, 1008, 1024, 5000 // 16 * 16, 16384, 40000 // 16 * 16):
            data = rnd.randbytes(n)
            want = ncr.session_once(OP.ENCRYPT, algo, key=k, iv=iv,
                                    data=data)
            for src_off, dst_off in ((0, 0), (16, 16), (page - 48, page - 48),
                                     (0, 2 * n + page), (2 * n + 32, 48),
                                     (0, 16), (16, 0), (4096 + 16, 4096)):
                src, dst = base + src_off, base + dst_off
                ctypes.memmove(src, data, n)
                _encrypt_at(ncr, algo, k, iv, src, dst, n)
                got = ctypes.string_at(dst, n)
                if src_off == dst_off or abs(src_off - dst_off) >= n:
                    assert got == want, (n, src_off, dst_off)
                else:
                    # overlapping: the bounce buffer, chunk after chunk
                    ref = bytearray(size)
                    ref[src_off:src_off + n] = data
                    s = ncr.session_init(OP.ENCRYPT, algo, key=k, iv=iv)
                    for o in range(0, n, 16384):
                        m = min(16384, n - o)
                        c = ncr.session_update(
                            s, bytes(ref[src_off + o:src_off + o + m]))
                        ref[dst_off + o:dst_off + o + m] = c
                    ncr.session_final(s)
                    assert got == bytes(ref[dst_off:dst_off + n]), \
                        (n, src_off, dst_off)
    finally:
        _libc.munmap(base, size)


@pytest.mark.parametrize("n", [64, 16384])
def test_bad_user_memory(ncr, n):
    """Memory that cannot be pinned takes the copy, which reports EFAULT:
    an unmapped input, a read-only or unmapped output."""
    k = ncr.secret_key(bytes(16), "cbc(aes)", flags=0)
    half = (n + mmap.PAGESIZE - 1) // mmap.PAGESIZE * mmap.PAGESIZE
    size = 2 * half
    base = _map(size)
    try:
        good, other, other_len = base, base + half, half
        assert _libc.mprotect(other, other_len, mmap.PROT_READ) == 0
        with pytest.raises(OSError) as e:
            _encrypt_at(ncr, "cbc(aes)", k, bytes(16), good, other, n)
        assert e.value.errno == errno.EFAULT
        assert _libc.munmap(other, other_len) == 0
        for src, dst in ((good, other), (other, good)):
            with pytest.raises(OSError) as e:
                _encrypt_at(ncr, "cbc(aes)", k, bytes(16), src, dst, n)
            assert e.value.errno == errno.EFAULT
    finally:
        _libc.munmap(base, size)


def test_short_output_buffer(ncr):
    k = ncr.secret_key(bytes(16), "cbc(aes)", flags=0)
    with pytest.raises(OSError) as e:
        ncr.session_once(OP.ENCRYPT, "cbc(aes)", key=k, iv=bytes(16),
                         data=bytes(64), out_size=48)
    assert e.value.errno == errno.ERANGE


# ---- libcrypto (openssl enc) as the reference ------------------------------

OPENSSL = "/usr/bin/openssl"


@pytest.mark.skipif(not os.path.exists(OPENSSL), reason="no openssl CLI")
@pytest.mark.parametrize("mode", ["ecb", "cbc", "ctr"])
@pytest.mark.parametrize("bits", [128, 192, 256])
def test_matches_openssl(ncr, mode, bits):
    rnd = random.Random("%s%d" % (mode, bits))
    key = rnd.randbytes(bits // 8)
    iv = None if mode == "ecb" else rnd.randbytes(16)
    size = rnd.randint(1, 3000) * 16 + (5 if mode == "ctr" else 0)
    data = rnd.randbytes(size)
    cmd = [OPENSSL, "enc", "-aes-%d-%s" % (bits, mode), "-K", key.hex(),
           "-nopad"] + (["-iv", iv.hex()] if iv else [])
    ref = subprocess.run(cmd, input=data, stdout=subprocess.PIPE,
                         check=True).stdout
    k = ncr.secret_key(key, "%s(aes)" % mode, flags=FLAG_EXPORTABLE)
    assert ncr.session_once(OP.ENCRYPT, "%s(aes)" % mode, key=k, iv=iv,
                            data=data) == ref


# ---- the key's shared transform --------------------------------------------
# Sessions of one key and algorithm share a transform the key keeps, set
# once with its material (cipher.c): each session must still get its own
# key's, its own IV's and the key's current material's result.  The
# reference is python3-cryptography.

def ref_encrypt(algo, key, iv, data):
    from cryptography.hazmat.primitives.ciphers import (Cipher, algorithms,
                                                        modes)
    mode = {"ecb(aes)": lambda: modes.ECB(), "cbc(aes)": lambda: modes.CBC(iv),
            "ctr(aes)": lambda: modes.CTR(iv),
            "xts(aes)": lambda: modes.XTS(iv)}[algo]()
    e = Cipher(algorithms.AES(key), mode).encryptor()
    return e.update(data) + e.finalize()


def check_once(ncr, k, raw, algo, rnd, size=16):
    iv = None if algo == "ecb(aes)" else rnd.randbytes(16)
    data = rnd.randbytes(size)
    ct = ncr.session_once(OP.ENCRYPT, algo, key=k, iv=iv, data=data)
    assert ct == ref_encrypt(algo, raw, iv, data), (algo, raw.hex())
    assert ncr.session_once(OP.DECRYPT, algo, key=k, iv=iv, data=ct) == data


def test_shared_tfm_keys_alternate(ncr):
    """Keys of one algorithm in turns: each call gets its own key's result."""
    rnd = random.Random("keys")
    raws = [rnd.randbytes(16), rnd.randbytes(16), rnd.randbytes(32)]
    keys = [ncr.secret_key(r, "cbc(aes)", flags=0) for r in raws]
    for _ in range(40):
        for k, raw in zip(keys, raws):
            check_once(ncr, k, raw, "cbc(aes)", rnd, 16 * rnd.randint(1, 4))


def test_shared_tfm_algorithms_alternate(ncr):
    """One key, the algorithms in turns (the key keeps one transform)."""
    rnd = random.Random("algos")
    raw = rnd.randbytes(32)
    k = ncr.secret_key(raw, "cbc(aes)", flags=0)
    for _ in range(20):
        for algo in ("cbc(aes)", "ecb(aes)", "ctr(aes)", "xts(aes)"):
            check_once(ncr, k, raw, algo, rnd, 48)


def _import_into(ncr, k, raw):
    ncr.key_import(k, raw, "cbc(aes)")
    return raw


def _generate_into(ncr, k, raw):
    ncr.key_generate(k, "cbc(aes)", len(raw) * 8, flags=FLAG_EXPORTABLE)
    return ncr.key_export(k)


def _unwrap_into(ncr, k, raw):
    kek = ncr.secret_key(os.urandom(32), "ecb(aes)", flags=FLAG_WRAPPING)
    src = ncr.secret_key(raw, "cbc(aes)", flags=FLAG_WRAPPABLE)
    ncr.key_unwrap(kek, k, ncr.key_wrap(kek, src), ALGORITHM="cbc(aes)")
    return raw


def _storage_unwrap_into(ncr, k, raw):
    src = ncr.secret_key(raw, "cbc(aes)", flags=FLAG_WRAPPABLE)
    ncr.storage_unwrap(k, ncr.storage_wrap(src))
    return raw


# Each fills key k with new material (raw, or its own) and returns it.
REFILLS = {"import": _import_into, "generate": _generate_into,
           "unwrap": _unwrap_into, "storage_unwrap": _storage_unwrap_into}


@pytest.mark.parametrize("how", sorted(REFILLS))
def test_shared_tfm_refilled_key(ncr, master_key, how):
    """A key filled again encrypts with its new material, while a session
    opened before goes on with the old one, as a session of its own
    transform would."""
    rnd = random.Random(how)
    old, new = rnd.randbytes(16), rnd.randbytes(16)
    k = ncr.secret_key(old, "cbc(aes)")
    check_once(ncr, k, old, "cbc(aes)", rnd)
    iv, data = rnd.randbytes(16), rnd.randbytes(64)
    s = ncr.session_init(OP.ENCRYPT, "cbc(aes)", key=k, iv=iv)
    first = ncr.session_update(s, data[:32])
    new = REFILLS[how](ncr, k, new)
    check_once(ncr, k, new, "cbc(aes)", rnd)
    rest = ncr.session_update(s, data[32:])
    assert ncr.session_final(s)[0] == 0
    assert first + rest == ref_encrypt("cbc(aes)", old, iv, data)


def test_shared_tfm_deinit_with_open_session(ncr):
    """KEY_DEINIT while sessions hold the key's transform: they finish
    with it, the handle is gone, and closing the namespace with a session
    still open frees everything (the VM checks that ncr unloads)."""
    rnd = random.Random("deinit")
    raw = rnd.randbytes(16)
    k = ncr.secret_key(raw, "cbc(aes)", flags=0)
    check_once(ncr, k, raw, "cbc(aes)", rnd)
    iv, data = rnd.randbytes(16), rnd.randbytes(64)
    s1 = ncr.session_init(OP.ENCRYPT, "cbc(aes)", key=k, iv=iv)
    s2 = ncr.session_init(OP.ENCRYPT, "cbc(aes)", key=k, iv=iv)
    out = ncr.session_update(s1, data[:16])
    ncr.key_deinit(k)
    assert errno_of(ncr.session_once, OP.ENCRYPT, "cbc(aes)", key=k, iv=iv,
                    data=data) == errno.EINVAL
    out += ncr.session_update(s1, data[16:])
    assert ncr.session_final(s1)[0] == 0
    assert out == ref_encrypt("cbc(aes)", raw, iv, data)
    assert ncr.session_update(s2, data) == out      # s2 is left open


def test_shared_tfm_failed_init_leaves_key_usable(ncr):
    """Sessions refused at init (bad IV, a key size the algorithm does not
    take) neither break nor change the key's transform."""
    rnd = random.Random("fail")
    raw = rnd.randbytes(16)
    k = ncr.secret_key(raw, "cbc(aes)", flags=0)
    check_once(ncr, k, raw, "cbc(aes)", rnd)
    for algo, iv in (("cbc(aes)", bytes(8)), ("cbc(aes)", None),
                     ("xts(aes)", bytes(16)), ("cbc(des3_ede)", bytes(8))):
        assert errno_of(ncr.session_once, OP.ENCRYPT, algo, key=k, iv=iv,
                        data=bytes(16)) == errno.EINVAL
        check_once(ncr, k, raw, "cbc(aes)", rnd)


def _once_loop(fd, keys, count, seed):
    """count SESSION_ONCEs over keys [(handle, raw)]; the mismatches."""
    rnd = random.Random(seed)
    bad = 0
    with Ncr(fd=os.dup(fd)) as m:
        for i in range(count):
            k, raw = keys[i % len(keys)]
            algo = ("cbc(aes)", "ctr(aes)")[rnd.randrange(8) == 0]
            iv, data = rnd.randbytes(16), rnd.randbytes(16 * rnd.randint(1, 3))
            ct = m.session_once(OP.ENCRYPT, algo, key=k, iv=iv, data=data)
            bad += ct != ref_encrypt(algo, raw, iv, data)
    return bad


def test_shared_tfm_threads_and_forks(dev):
    """Threads of this process and two forked children (one namespace) do
    SESSION_ONCE on the same two keys at once, now and then with the other
    algorithm (replacing the key's transform under the others)."""
    m = Ncr(fd=os.dup(dev))
    raws = [os.urandom(16), os.urandom(16)]
    keys = [(m.secret_key(r, "cbc(aes)", flags=0), r) for r in raws]
    pids = []
    for c in range(2):
        pid = os.fork()
        if pid == 0:
            try:
                os._exit(min(_once_loop(dev, keys, 300, "child%d" % c), 100))
            finally:
                os._exit(101)
        pids.append(pid)
    results = [None] * 6

    def run(i):
        results[i] = _once_loop(dev, keys[i % 2:] + keys[:i % 2], 300, i)

    ts = [threading.Thread(target=run, args=(i,)) for i in range(6)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    codes = [os.waitstatus_to_exitcode(os.waitpid(p, 0)[1]) for p in pids]
    m.close()
    assert results == [0] * 6 and codes == [0, 0], (results, codes)
