"""Kernel-held RSA/DSA/DH keys through the ncr provider with the openssl
CLI: genpkey writes the ncr key file, pkey/pkeyutl/dgst/req/x509 use it, and
everything public verifies with stock openssl without the provider."""
import os
import pytest

from provider_util import NCR, run, stock, ncr_so_present, rsa_key, \
    kernel_key

pytestmark = pytest.mark.skipif(not ncr_so_present(),
                                reason="ncr.so not built")

MSG = b"kernel-held keys for openssl\n" * 50


@pytest.fixture(scope="module")
def rsa():
    return rsa_key()


@pytest.fixture
def msgfile(tmp_path):
    f = tmp_path / "msg.txt"
    f.write_bytes(MSG)
    return str(f)


def test_genpkey_writes_ncr_key_file(rsa):
    text = open(rsa[0]).read()
    assert text.startswith("-----BEGIN NCR KEY BLOB-----")
    assert "PRIVATE KEY" not in text
    # stock openssl cannot read it as a private key
    p = stock(["pkey", "-in", rsa[0], "-noout"], check=False)
    assert p.returncode != 0


def test_genpkey_small_key_kernel(tmp_path):
    out = tmp_path / "k.pem"
    run(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024",
         "-out", str(out)] + NCR)
    assert out.read_text().startswith("-----BEGIN NCR KEY BLOB-----")


def test_pubout_is_standard_spki(rsa):
    pub = open(rsa[1]).read()
    assert pub.startswith("-----BEGIN PUBLIC KEY-----")
    p = stock(["pkey", "-pubin", "-in", rsa[1], "-text", "-noout"])
    assert b"Public-Key: (2048 bit)" in p.stdout
    der = run(["pkey", "-in", rsa[0], "-pubout", "-outform", "DER"] + NCR)
    ref = stock(["pkey", "-pubin", "-in", rsa[1], "-outform", "DER"])
    assert der.stdout == ref.stdout


def test_text_says_kernel_holds_private(rsa):
    p = run(["pkey", "-in", rsa[0], "-text", "-noout"] + NCR)
    assert b"held by the Linux kernel" in p.stdout
    assert b"Modulus:" in p.stdout
    assert b"privateExponent" not in p.stdout


@pytest.mark.parametrize("args", [["-outform", "DER"], ["-traditional"]])
def test_private_export_refused(rsa, args):
    p = run(["pkey", "-in", rsa[0]] + args + NCR, check=False)
    assert p.returncode != 0
    assert b"private key is held by the kernel and is not exportable" \
        in p.stderr


def test_pkcs8_export_refused(rsa):
    p = run(["pkcs8", "-topk8", "-nocrypt", "-in", rsa[0]] + NCR,
            check=False)
    assert p.returncode != 0
    assert b"not exportable" in p.stderr


def test_key_params(rsa):
    p = run(["pkeyutl", "-sign", "-inkey", rsa[0], "-pkeyopt",
             "digest:sha256", "-in", "/dev/null"] + NCR, check=False)
    # a 0-byte "digest" is refused with the size, not a crash
    assert p.returncode != 0
    assert b"digest" in p.stderr


@pytest.mark.parametrize("md", ["sha1", "sha256", "sha384", "sha512"])
def test_dgst_sign_v15_verifies_stock(rsa, msgfile, tmp_path, md):
    sig = str(tmp_path / "sig")
    run(["dgst", "-" + md, "-sign", rsa[0], "-out", sig] + NCR + [msgfile])
    p = stock(["dgst", "-" + md, "-verify", rsa[1], "-signature", sig,
               msgfile])
    assert b"Verified OK" in p.stdout
    # and ncr's own verify agrees, and rejects a modified message
    run(["dgst", "-" + md, "-verify", rsa[1], "-signature", sig] + NCR +
        [msgfile])
    bad = tmp_path / "bad"
    bad.write_bytes(MSG + b"x")
    p = stock(["dgst", "-" + md, "-verify", rsa[1], "-signature", sig,
               str(bad)], check=False)
    assert p.returncode != 0


@pytest.mark.parametrize("saltlen,verify_saltlen", [
    ("digest", "digest"), ("max", "max"), ("auto", "auto"), ("20", "20"),
    ("0", "0"), ("digest", "auto")])
def test_pss_verifies_stock(rsa, msgfile, tmp_path, saltlen, verify_saltlen):
    sig = str(tmp_path / "sig")
    run(["dgst", "-sha256", "-sign", rsa[0], "-sigopt",
         "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:" + saltlen,
         "-out", sig] + NCR + [msgfile])
    p = stock(["dgst", "-sha256", "-verify", rsa[1], "-sigopt",
               "rsa_padding_mode:pss", "-sigopt",
               "rsa_pss_saltlen:" + verify_saltlen, "-signature", sig,
               msgfile])
    assert b"Verified OK" in p.stdout


def test_pss_mgf1_must_equal_digest(rsa, msgfile, tmp_path):
    p = run(["dgst", "-sha256", "-sign", rsa[0], "-sigopt",
             "rsa_padding_mode:pss", "-sigopt", "rsa_mgf1_md:sha1",
             "-out", str(tmp_path / "s")] + NCR + [msgfile], check=False)
    assert p.returncode != 0
    assert b"MGF1 digest" in p.stderr


def test_pkeyutl_sign_precomputed_digest(rsa, msgfile, tmp_path):
    dgst = tmp_path / "d"
    dgst.write_bytes(stock(["dgst", "-sha256", "-binary", msgfile]).stdout)
    sig = str(tmp_path / "s")
    run(["pkeyutl", "-sign", "-inkey", rsa[0], "-pkeyopt", "digest:sha256",
         "-in", str(dgst), "-out", sig] + NCR)
    p = stock(["pkeyutl", "-verify", "-pubin", "-inkey", rsa[1], "-pkeyopt",
               "digest:sha256", "-in", str(dgst), "-sigfile", sig])
    assert b"Signature Verified Successfully" in p.stdout


def test_raw_sign_without_digest_refused(rsa, tmp_path):
    d = tmp_path / "d"
    d.write_bytes(b"\x01" * 32)
    p = run(["pkeyutl", "-sign", "-inkey", rsa[0], "-in", str(d)] + NCR,
            check=False)
    assert p.returncode != 0
    assert b"signing needs a digest" in p.stderr


@pytest.mark.parametrize("opts", [
    [],
    ["-pkeyopt", "rsa_padding_mode:oaep"],
    ["-pkeyopt", "rsa_padding_mode:oaep", "-pkeyopt", "rsa_oaep_md:sha256",
     "-pkeyopt", "rsa_mgf1_md:sha256"],
])
def test_stock_ciphertext_decrypts(rsa, tmp_path, opts):
    pt = tmp_path / "pt"
    pt.write_bytes(b"secret for the kernel")
    ct = str(tmp_path / "ct")
    stock(["pkeyutl", "-encrypt", "-pubin", "-inkey", rsa[1], "-in", str(pt),
           "-out", ct] + opts)
    p = run(["pkeyutl", "-decrypt", "-inkey", rsa[0], "-in", ct] + opts +
            NCR)
    assert p.stdout == b"secret for the kernel"


def test_oaep_label_refused(rsa, tmp_path):
    pt = tmp_path / "pt"
    pt.write_bytes(b"x")
    ct = str(tmp_path / "ct")
    opts = ["-pkeyopt", "rsa_padding_mode:oaep", "-pkeyopt",
            "rsa_oaep_label:0011"]
    stock(["pkeyutl", "-encrypt", "-pubin", "-inkey", rsa[1], "-in", str(pt),
           "-out", ct] + opts)
    p = run(["pkeyutl", "-decrypt", "-inkey", rsa[0], "-in", ct] + opts +
            NCR, check=False)
    assert p.returncode != 0
    assert b"OAEP with a label" in p.stderr


def test_bad_ciphertext_reports(rsa, tmp_path):
    ct = tmp_path / "ct"
    ct.write_bytes(b"\x01" * 256)
    p = run(["pkeyutl", "-decrypt", "-inkey", rsa[0], "-in", str(ct)] + NCR,
            check=False)
    assert p.returncode != 0
    assert b"ncr" in p.stderr


@pytest.mark.parametrize("sigopts", [[], ["-sigopt", "rsa_padding_mode:pss",
                                          "-sigopt", "rsa_pss_saltlen:digest"]])
def test_req_selfsigned_verifies_stock(rsa, tmp_path, sigopts):
    cert = str(tmp_path / "cert.pem")
    run(["req", "-new", "-x509", "-key", rsa[0], "-subj", "/CN=ncr test",
         "-days", "2", "-out", cert] + sigopts + NCR)
    p = stock(["verify", "-CAfile", cert, cert])
    assert b": OK" in p.stdout
    # the certificate's key is the ncr key's public half
    a = stock(["x509", "-in", cert, "-pubkey", "-noout"]).stdout
    assert a == open(rsa[1], "rb").read()


def test_x509_signs_csr_as_ca(rsa, tmp_path):
    ca = str(tmp_path / "ca.pem")
    run(["req", "-new", "-x509", "-key", rsa[0], "-subj", "/CN=ncr CA",
         "-days", "2", "-out", ca] + NCR)
    leafkey = str(tmp_path / "leaf.key")
    stock(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024",
           "-out", leafkey])
    csr = str(tmp_path / "leaf.csr")
    stock(["req", "-new", "-key", leafkey, "-subj", "/CN=leaf", "-out", csr])
    leaf = str(tmp_path / "leaf.pem")
    run(["x509", "-req", "-in", csr, "-CA", ca, "-CAkey", rsa[0],
         "-CAcreateserial", "-days", "1", "-out", leaf] + NCR)
    p = stock(["verify", "-CAfile", ca, leaf])
    assert b": OK" in p.stdout


def test_dsa_sign_verifies_stock(msgfile, tmp_path):
    key, pub = kernel_key("dsa1024", ["-algorithm", "DSA", "-pkeyopt",
                                      "pbits:1024", "-pkeyopt", "qbits:160"])
    assert open(key).read().startswith("-----BEGIN NCR KEY BLOB-----")
    sig = str(tmp_path / "sig")
    run(["dgst", "-sha256", "-sign", key, "-out", sig] + NCR + [msgfile])
    p = stock(["dgst", "-sha256", "-verify", pub, "-signature", sig,
               msgfile])
    assert b"Verified OK" in p.stdout
    p = run(["pkey", "-in", key, "-text", "-noout"] + NCR)
    assert b"held by the Linux kernel" in p.stdout


def test_dh_derive_matches_stock(tmp_path):
    key, pub = kernel_key("dh2048", ["-algorithm", "DH", "-pkeyopt",
                                     "group:ffdhe2048"])
    peer = str(tmp_path / "peer.pem")
    peerpub = str(tmp_path / "peer.pub")
    stock(["genpkey", "-algorithm", "DH", "-pkeyopt", "group:ffdhe2048",
           "-out", peer])
    stock(["pkey", "-in", peer, "-pubout", "-out", peerpub])
    a = run(["pkeyutl", "-derive", "-inkey", key, "-peerkey", peerpub] +
            NCR).stdout
    b = stock(["pkeyutl", "-derive", "-inkey", peer, "-peerkey", pub]).stdout
    assert a == b and len(a) > 200


def test_genpkey_prefers_kernel_with_default_first(tmp_path):
    """-propquery ?provider=ncr makes genpkey use the kernel whatever the
    provider order."""
    out = tmp_path / "k.pem"
    run(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024",
         "-provider", "default", "-provider", "ncr", "-propquery",
         "?provider=ncr", "-out", str(out)])
    assert out.read_text().startswith("-----BEGIN NCR KEY BLOB-----")


def test_openssl_cnf_example(rsa, msgfile, tmp_path):
    """The shipped openssl.cnf.example: ncr keys load and sign through the
    kernel, and genpkey with ?provider=ncr makes a kernel key."""
    from provider_util import ROOT
    conf = {"OPENSSL_CONF": os.path.join(ROOT, "openssl.cnf.example")}
    p = run(["list", "-providers"], extra_env=conf)
    assert b"ncr" in p.stdout and b"default" in p.stdout
    sig = str(tmp_path / "sig")
    run(["dgst", "-sha256", "-sign", rsa[0], "-out", sig, msgfile],
        extra_env=conf)
    p = stock(["dgst", "-sha256", "-verify", rsa[1], "-signature", sig,
               msgfile])
    assert b"Verified OK" in p.stdout
    out = tmp_path / "k.pem"
    run(["genpkey", "-propquery", "?provider=ncr", "-algorithm", "RSA",
         "-pkeyopt", "rsa_keygen_bits:1024", "-out", str(out)],
        extra_env=conf)
    assert out.read_text().startswith("-----BEGIN NCR KEY BLOB-----")


def test_pkey_check(rsa):
    p = run(["pkey", "-in", rsa[0], "-check", "-noout"] + NCR)
    assert b"Key is valid" in p.stdout
    p = run(["pkey", "-in", rsa[0], "-pubcheck", "-noout"] + NCR)
    assert b"Key is valid" in p.stdout
