"""The openssl commands users sign with, on OpenSSL 3.0 and 3.5 alike, with
ncr RSA and ECDSA key files: x509 -signkey, cms -sign and pkeyutl -rawin;
each result verified by stock openssl with the public key alone.  (req,
x509 -CAkey, dgst -sign and s_server are in test_provider_pk.py and
test_provider_ec.py.)"""
import pytest

from provider_util import NCR, run, stock, ncr_so_present, rsa_key, \
    kernel_key

pytestmark = pytest.mark.skipif(not ncr_so_present(),
                                reason="ncr.so not built")

MSG = b"a message signed with a kernel-held key\n" * 30

KEYS = {
    "rsa2048": rsa_key,
    "ec-P-256": lambda: kernel_key("ec-P-256", [
        "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]),
    "ec-P-384": lambda: kernel_key("ec-P-384", [
        "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384"]),
}


@pytest.fixture(params=sorted(KEYS))
def key(request):
    return KEYS[request.param]()


@pytest.fixture
def msgfile(tmp_path):
    f = tmp_path / "msg.txt"
    f.write_bytes(MSG)
    return str(f)


def selfsigned(key, tmp_path):
    """A CSR made with the ncr key, self-signed by x509 -signkey."""
    csr = str(tmp_path / "k.csr")
    cert = str(tmp_path / "k.pem")
    run(["req", "-new", "-key", key[0], "-subj", "/CN=ncr signkey",
         "-out", csr] + NCR)
    run(["x509", "-req", "-in", csr, "-signkey", key[0], "-days", "2",
         "-out", cert] + NCR)
    return cert


def test_x509_signkey_verifies_stock(key, tmp_path):
    cert = selfsigned(key, tmp_path)
    p = stock(["verify", "-CAfile", cert, cert])
    assert b": OK" in p.stdout
    a = stock(["x509", "-in", cert, "-pubkey", "-noout"]).stdout
    assert a == open(key[1], "rb").read()


@pytest.mark.parametrize("detached", [True, False])
def test_cms_sign_verifies_stock(key, tmp_path, msgfile, detached):
    cert = selfsigned(key, tmp_path)
    smime = str(tmp_path / "msg.p7s")
    run(["cms", "-sign", "-in", msgfile, "-signer", cert, "-inkey", key[0],
         "-outform", "DER", "-out", smime, "-md", "sha256", "-binary"] +
        ([] if detached else ["-nodetach"]) + NCR)
    out = str(tmp_path / "content")
    content = ["-content", msgfile] if detached else []
    stock(["cms", "-verify", "-binary", "-in", smime, "-inform", "DER",
           "-CAfile", cert, "-out", out] + content)
    assert open(out, "rb").read() == MSG
    # a changed message does not verify
    bad = tmp_path / "bad.txt"
    bad.write_bytes(MSG + b"!")
    if detached:
        p = stock(["cms", "-verify", "-binary", "-in", smime, "-inform",
                   "DER", "-CAfile", cert, "-content", str(bad), "-out",
                   "/dev/null"], check=False)
        assert p.returncode != 0


@pytest.mark.parametrize("md", ["sha256", "sha384"])
def test_pkeyutl_rawin_verifies_stock(key, tmp_path, msgfile, md):
    sig = str(tmp_path / "sig")
    run(["pkeyutl", "-sign", "-rawin", "-digest", md, "-inkey", key[0],
         "-in", msgfile, "-out", sig] + NCR)
    p = stock(["pkeyutl", "-verify", "-rawin", "-digest", md, "-pubin",
               "-inkey", key[1], "-in", msgfile, "-sigfile", sig])
    assert b"Signature Verified Successfully" in p.stdout
    # and ncr verifies what it signed, refusing another message
    p = run(["pkeyutl", "-verify", "-rawin", "-digest", md, "-inkey",
             key[0], "-in", msgfile, "-sigfile", sig] + NCR)
    assert b"Signature Verified Successfully" in p.stdout
    bad = tmp_path / "bad.txt"
    bad.write_bytes(MSG + b"!")
    p = run(["pkeyutl", "-verify", "-rawin", "-digest", md, "-inkey",
             key[0], "-in", str(bad), "-sigfile", sig] + NCR, check=False)
    assert p.returncode != 0
    assert b"Signature Verification Failure" in p.stdout
