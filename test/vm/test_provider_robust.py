"""Fork and thread safety (C tests), and the error reasons of bad key files
as applications see them (PEM_read_bio_PrivateKey, like nginx and curl)."""
import os
import subprocess
import pytest

from provider_util import (env, ncr_so_present, rsa_key, tool,
                           TEST_MASTER_KEY)

pytestmark = pytest.mark.skipif(not ncr_so_present(),
                                reason="ncr.so not built")


def run_tool(name, *args, timeout=600):
    path = tool(name)
    if not os.path.exists(path):
        pytest.skip(name + " not built")
    return subprocess.run([path] + list(args), env=env(),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=timeout)


@pytest.fixture(scope="module")
def rsa():
    return rsa_key()


def test_fork_children_keep_key(rsa):
    p = run_tool("test_fork", rsa[0])
    assert p.returncode == 0, p.stderr.decode()
    assert b"0 failures" in p.stdout


def test_eight_threads_sign(rsa):
    p = run_tool("test_threads", rsa[0], "3")
    assert p.returncode == 0, p.stderr.decode()
    assert b"8 x 3 signatures, 0 failures" in p.stdout


def test_app_loads_key(rsa):
    p = run_tool("ncr_keytool", "load", rsa[0])
    assert p.returncode == 0, p.stderr.decode()
    assert p.stdout.strip() == b"loaded RSA"


def blob_offset_tamper(path, out):
    """Flip one byte inside the storage blob (the end of the DER body)."""
    import base64
    lines = open(path).read().strip().splitlines()
    der = bytearray(base64.b64decode("".join(lines[1:-1])))
    der[-10] ^= 0x01
    b64 = base64.encodebytes(bytes(der)).decode()
    open(out, "w").write(lines[0] + "\n" + b64 + lines[-1] + "\n")


def test_tampered_blob_message(rsa, tmp_path):
    bad = str(tmp_path / "bad.pem")
    blob_offset_tamper(rsa[0], bad)
    p = run_tool("ncr_keytool", "load", bad)
    assert p.returncode != 0
    assert b"key blob rejected: tampered or made under another master key" \
        in p.stderr


def test_malformed_body_message(tmp_path):
    bad = tmp_path / "bad.pem"
    bad.write_text("-----BEGIN NCR KEY BLOB-----\nMAMCAQE=\n"
                   "-----END NCR KEY BLOB-----\n")
    p = run_tool("ncr_keytool", "load", str(bad))
    assert p.returncode != 0
    assert b"malformed NCR KEY BLOB PEM body" in p.stderr


def test_garbage_pem_no_crash(tmp_path):
    bad = tmp_path / "bad.pem"
    bad.write_text("-----BEGIN NCR KEY BLOB-----\n!!!!\n"
                   "-----END NCR KEY BLOB-----\n")
    p = run_tool("ncr_keytool", "load", str(bad))
    assert p.returncode == 1


def test_no_device_message_on_load(rsa):
    e = env({"NCR_DEVICE": "/nonexistent/crypto"})
    p = subprocess.run([tool("ncr_keytool"), "load", rsa[0]], env=e,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.returncode != 0
    assert b"/dev/crypto not available" in p.stderr


def test_no_master_key_and_other_master_key(rsa, module_reload):
    """After a module reload without a master key, loading names the missing
    key; under another master key the blob is rejected.  (The fixture
    restores the module with the common test key afterwards.)"""
    import conftest
    module_reload(set_master_key=False)
    p = run_tool("ncr_keytool", "load", rsa[0])
    assert p.returncode != 0
    assert b"no storage master key set in the kernel" in p.stderr
    other = bytes(reversed(TEST_MASTER_KEY))
    assert conftest.master_key_set(other) == 0
    p = run_tool("ncr_keytool", "load", rsa[0])
    assert p.returncode != 0
    assert b"key blob rejected" in p.stderr


def _der_items(path):
    """(spki DER, blob) of an ncr key file, parsed minimally."""
    import base64
    lines = open(path).read().strip().splitlines()
    der = base64.b64decode("".join(lines[1:-1]))

    def tlv(buf, off):
        n = buf[off + 1]
        hl = 2
        if n & 0x80:
            k = n & 0x7f
            n = int.from_bytes(buf[off + 2:off + 2 + k], "big")
            hl = 2 + k
        return off + hl, n

    body, _ = tlv(der, 0)
    off, n = tlv(der, body)          # version
    spki_start = off + n
    off, n = tlv(der, spki_start)    # SPKI
    spki = der[spki_start:off + n]
    off, n = tlv(der, off + n)       # blob
    return spki, der[off:off + n]


def test_swapped_public_key_refused(rsa, tmp_path):
    """A key file whose clear public key is not the blob's is refused."""
    import base64
    from provider_util import stock
    _, blob = _der_items(rsa[0])
    other = str(tmp_path / "other.pem")
    stock(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024",
           "-out", other])
    spki = stock(["pkey", "-in", other, "-pubout", "-outform", "DER"]).stdout

    def tlv(tag, content):
        n = len(content)
        ln = bytes([n]) if n < 128 else \
            bytes([0x80 | ((n.bit_length() + 7) // 8)]) + \
            n.to_bytes((n.bit_length() + 7) // 8, "big")
        return bytes([tag]) + ln + content

    der = tlv(0x30, tlv(0x02, b"\x01") + spki + tlv(0x04, blob))
    bad = tmp_path / "swapped.pem"
    bad.write_text("-----BEGIN NCR KEY BLOB-----\n" +
                   base64.encodebytes(der).decode() +
                   "-----END NCR KEY BLOB-----\n")
    p = run_tool("ncr_keytool", "load", str(bad))
    assert p.returncode != 0
    assert b"does not belong to the kernel key" in p.stderr
