"""AES through the ncr provider must equal the default provider byte for byte
(ECB/CBC/CTR, all key sizes, padding, odd chunk sizes, large streams),
and each side must decrypt the other's output."""
import os
import pytest

from provider_util import NCR, run, stock, ncr_so_present

pytestmark = pytest.mark.skipif(not ncr_so_present(),
                                reason="ncr.so not built")

KEYS = {128: "000102030405060708090a0b0c0d0e0f",
        192: "000102030405060708090a0b0c0d0e0f1011121314151617",
        256: "000102030405060708090a0b0c0d0e0f"
             "101112131415161718191a1b1c1d1e1f"}
IV = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"   # CTR: counter wraps the low bytes
NCR_ONLY = NCR + ["-propquery", "provider=ncr"]


def data(n):
    return (os.urandom(64) * (n // 64 + 1))[:n] if n else b""


def enc_args(mode, bits, decrypt=False, nopad=False, bufsize=None):
    a = ["enc", "-aes-%d-%s" % (bits, mode), "-K", KEYS[bits]]
    if mode != "ecb":
        a += ["-iv", IV]
    if decrypt:
        a.append("-d")
    if nopad:
        a.append("-nopad")
    if bufsize:
        a += ["-bufsize", str(bufsize)]
    return a


@pytest.mark.parametrize("mode", ["ecb", "cbc", "ctr"])
@pytest.mark.parametrize("bits", [128, 192, 256])
@pytest.mark.parametrize("size", [0, 17, 70000])
def test_enc_equals_default(mode, bits, size):
    msg = data(size)
    ref = stock(enc_args(mode, bits), input=msg).stdout
    got = run(enc_args(mode, bits) + NCR_ONLY, input=msg).stdout
    assert got == ref
    # stock ciphertext decrypts through ncr, and ncr's through stock
    assert run(enc_args(mode, bits, decrypt=True) + NCR_ONLY,
               input=ref).stdout == msg
    assert stock(enc_args(mode, bits, decrypt=True), input=got).stdout == msg


@pytest.mark.parametrize("mode", ["ecb", "cbc", "ctr"])
@pytest.mark.parametrize("bufsize", [1, 5, 13, 17, 4099])
def test_odd_chunks(mode, bufsize):
    """Updates of odd sizes: buffered partial blocks / CTR keystream."""
    msg = data(3 * 4099 + 7)
    ref = stock(enc_args(mode, 256), input=msg).stdout
    got = run(enc_args(mode, 256, bufsize=bufsize) + NCR_ONLY,
              input=msg).stdout
    assert got == ref
    back = run(enc_args(mode, 256, decrypt=True, bufsize=bufsize) + NCR_ONLY,
               input=ref).stdout
    assert back == msg


@pytest.mark.parametrize("mode", ["ecb", "cbc", "ctr"])
def test_large_stream(mode):
    msg = data(5 * 1024 * 1024)
    ref = stock(enc_args(mode, 256), input=msg).stdout
    got = run(enc_args(mode, 256) + NCR_ONLY, input=msg).stdout
    assert got == ref
    assert run(enc_args(mode, 256, decrypt=True) + NCR_ONLY,
               input=got).stdout == msg


@pytest.mark.parametrize("mode", ["ecb", "cbc"])
def test_nopad(mode):
    msg = data(64)
    ref = stock(enc_args(mode, 128, nopad=True), input=msg).stdout
    got = run(enc_args(mode, 128, nopad=True) + NCR_ONLY, input=msg).stdout
    assert got == ref and len(got) == 64
    p = run(enc_args(mode, 128, nopad=True) + NCR_ONLY, input=msg[:63],
            check=False)
    assert p.returncode != 0
    assert b"not a multiple of the block length" in p.stderr


def test_bad_padding_reports():
    ct = stock(enc_args("cbc", 128, nopad=True), input=b"\x00" * 32).stdout
    p = run(enc_args("cbc", 128, decrypt=True) + NCR_ONLY, input=ct,
            check=False)
    assert p.returncode != 0
    assert b"bad padding" in p.stderr


def test_truncated_ciphertext_reports():
    ct = stock(enc_args("cbc", 128), input=b"x" * 40).stdout
    p = run(enc_args("cbc", 128, decrypt=True) + NCR_ONLY, input=ct[:-3],
            check=False)
    assert p.returncode != 0
    assert b"wrong final block length" in p.stderr


def test_password_kdf_with_preference():
    """-propquery ?provider=ncr: the KDF's digest still comes from default,
    the cipher from ncr; the result matches stock openssl."""
    msg = data(1000)
    args = ["enc", "-aes-256-cbc", "-pbkdf2", "-pass", "pass:secret",
            "-S", "0102030405060708"]
    ref = stock(args, input=msg).stdout
    got = run(args + NCR + ["-propquery", "?provider=ncr"], input=msg).stdout
    assert got == ref


def test_no_device_no_ciphers():
    """Without the device ncr offers no ciphers, so implicit AES users (the
    default DRBG) get the default provider's; an explicit request fails."""
    e = {"NCR_DEVICE": "/nonexistent/crypto"}
    p = run(enc_args("cbc", 128) + NCR_ONLY, input=b"x", extra_env=e,
            check=False)
    assert p.returncode != 0
    assert b"unsupported" in p.stderr.lower()
    # with ncr loaded first, everything else still works
    p = run(["rand"] + NCR + ["-hex", "8"], extra_env=e)
    assert len(p.stdout.strip()) == 16


def test_provider_listed():
    p = run(["list", "-providers"] + NCR)
    assert b"ncr" in p.stdout and b"status: active" in p.stdout


def test_provider_loads_without_device():
    p = run(["list", "-providers"] + NCR,
            extra_env={"NCR_DEVICE": "/nonexistent/crypto"})
    assert b"ncr: Linux /dev/crypto" in p.stdout
