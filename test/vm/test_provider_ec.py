"""Kernel-held EC (P-256, P-384) and X25519 keys through the ncr provider
with the openssl CLI: genpkey writes the ncr key file, ECDSA signatures
and certificates verify with stock openssl (and stock ones with ncr),
ECDH / X25519 derivations agree with stock openssl both ways, and TLS 1.2 /
1.3 with an ECDSA server key through s_server."""
import pytest

import tls_util

from provider_util import NCR, run, stock, ncr_so_present, kernel_key

pytestmark = pytest.mark.skipif(not ncr_so_present(),
                                reason="ncr.so not built")

MSG = b"elliptic curves held by the kernel\n" * 40
CURVES = {"P-256": ("prime256v1", 32, 72), "P-384": ("secp384r1", 48, 104)}


def ec_key(curve):
    return kernel_key("ec-" + curve, ["-algorithm", "EC", "-pkeyopt",
                                      "ec_paramgen_curve:" + curve])


def x25519_key():
    return kernel_key("x25519", ["-algorithm", "X25519"])


@pytest.fixture(params=sorted(CURVES))
def curve(request):
    return request.param


@pytest.fixture
def msgfile(tmp_path):
    f = tmp_path / "msg.txt"
    f.write_bytes(MSG)
    return str(f)


def stock_key(tmp_path, alg_args, name="peer"):
    key = str(tmp_path / (name + ".pem"))
    pub = str(tmp_path / (name + ".pub"))
    stock(["genpkey"] + alg_args + ["-out", key])
    stock(["pkey", "-in", key, "-pubout", "-out", pub])
    return key, pub


def stock_ec(tmp_path, curve, name="peer"):
    return stock_key(tmp_path, ["-algorithm", "EC", "-pkeyopt",
                                "ec_paramgen_curve:" + curve], name)


# ---- keys ------------------------------------------------------------------

def test_genpkey_writes_ncr_key_file(curve):
    key, pub = ec_key(curve)
    text = open(key).read()
    assert text.startswith("-----BEGIN NCR KEY BLOB-----")
    assert "PRIVATE KEY" not in text
    assert stock(["pkey", "-in", key, "-noout"], check=False).returncode != 0
    p = stock(["pkey", "-pubin", "-in", pub, "-text", "-noout"])
    assert ("ASN1 OID: %s" % CURVES[curve][0]).encode() in p.stdout
    assert ("NIST CURVE: %s" % curve).encode() in p.stdout


@pytest.mark.parametrize("alias,canonical", [
    ("prime256v1", "prime256v1"), ("secp384r1", "secp384r1")])
def test_genpkey_curve_aliases(tmp_path, alias, canonical):
    out = tmp_path / "k.pem"
    run(["genpkey", "-algorithm", "EC", "-pkeyopt", "group:" + alias,
         "-out", str(out)] + NCR)
    assert out.read_text().startswith("-----BEGIN NCR KEY BLOB-----")
    p = run(["pkey", "-in", str(out), "-text", "-noout"] + NCR)
    assert ("ASN1 OID: " + canonical).encode() in p.stdout


def test_text_and_pubout(curve):
    key, pub = ec_key(curve)
    p = run(["pkey", "-in", key, "-text", "-noout"] + NCR)
    assert b"EC Private-Key: held by the Linux kernel (ncr)" in p.stdout
    assert b"not exportable" in p.stdout
    assert ("Public-Key: (%s bit)" % curve[2:]).encode() in p.stdout
    assert b"priv:" not in p.stdout
    der = run(["pkey", "-in", key, "-pubout", "-outform", "DER"] + NCR)
    ref = stock(["pkey", "-pubin", "-in", pub, "-outform", "DER"])
    assert der.stdout == ref.stdout
    # SPKI: id-ecPublicKey, namedCurve, uncompressed point
    fl = CURVES[curve][1]
    assert der.stdout[-(2 * fl + 1):][0] == 0x04


@pytest.mark.parametrize("args", [["-outform", "DER"], ["-traditional"]])
def test_private_export_refused(args):
    key, _ = ec_key("P-256")
    p = run(["pkey", "-in", key] + args + NCR, check=False)
    assert p.returncode != 0
    assert b"private key is held by the kernel and is not exportable" \
        in p.stderr


def test_pkey_check():
    key, _ = ec_key("P-256")
    p = run(["pkey", "-in", key, "-check", "-noout"] + NCR)
    assert b"Key is valid" in p.stdout


@pytest.mark.parametrize("curve_name", ["P-521", "secp256k1", "bogus"])
def test_unknown_curve_is_a_readable_error(tmp_path, curve_name):
    p = run(["genpkey", "-algorithm", "EC", "-pkeyopt",
             "ec_paramgen_curve:" + curve_name,
             "-out", str(tmp_path / "k.pem")] + NCR, check=False)
    assert p.returncode != 0
    assert b"unknown or unsupported elliptic curve" in p.stderr
    assert curve_name.encode() in p.stderr
    assert not (tmp_path / "k.pem").exists() or \
        not (tmp_path / "k.pem").read_bytes()


def test_explicit_parameters_refused(tmp_path):
    p = run(["genpkey", "-algorithm", "EC", "-pkeyopt",
             "ec_paramgen_curve:P-256", "-pkeyopt", "ec_param_enc:explicit",
             "-out", str(tmp_path / "k.pem")] + NCR, check=False)
    assert p.returncode != 0
    assert b"named_curve only" in p.stderr


# ---- ECDSA -----------------------------------------------------------------

@pytest.mark.parametrize("md", ["sha1", "sha256", "sha384", "sha512"])
def test_dgst_sign_verifies_stock(curve, msgfile, tmp_path, md):
    key, pub = ec_key(curve)
    sig = str(tmp_path / "sig")
    run(["dgst", "-" + md, "-sign", key, "-out", sig] + NCR + [msgfile])
    sigbytes = open(sig, "rb").read()
    assert sigbytes[0] == 0x30 and len(sigbytes) <= CURVES[curve][2]
    p = stock(["dgst", "-" + md, "-verify", pub, "-signature", sig,
               msgfile])
    assert b"Verified OK" in p.stdout
    run(["dgst", "-" + md, "-verify", pub, "-signature", sig] + NCR +
        [msgfile])
    bad = tmp_path / "bad"
    bad.write_bytes(MSG + b"x")
    p = stock(["dgst", "-" + md, "-verify", pub, "-signature", sig,
               str(bad)], check=False)
    assert p.returncode != 0


def test_signatures_are_randomised(msgfile, tmp_path):
    key, _ = ec_key("P-256")
    sigs = set()
    for i in range(3):
        s = str(tmp_path / ("s%d" % i))
        run(["dgst", "-sha256", "-sign", key, "-out", s] + NCR + [msgfile])
        sigs.add(open(s, "rb").read())
    assert len(sigs) == 3


def test_stock_signature_verifies_with_ncr(curve, msgfile, tmp_path):
    skey, spub = stock_ec(tmp_path, curve)
    sig = str(tmp_path / "sig")
    stock(["dgst", "-sha256", "-sign", skey, "-out", sig, msgfile])
    p = run(["dgst", "-sha256", "-verify", spub, "-signature", sig] + NCR +
            [msgfile])
    assert b"Verified OK" in p.stdout
    # and against our own key's public half it fails
    _, pub = ec_key(curve)
    p = run(["dgst", "-sha256", "-verify", pub, "-signature", sig] + NCR +
            [msgfile], check=False)
    assert p.returncode != 0


@pytest.mark.parametrize("opts", [["-pkeyopt", "digest:sha256"], []])
def test_pkeyutl_sign_precomputed_digest(msgfile, tmp_path, opts):
    """With or without the digest named: ECDSA signs the given hash."""
    key, pub = ec_key("P-256")
    dgst = tmp_path / "d"
    dgst.write_bytes(stock(["dgst", "-sha256", "-binary", msgfile]).stdout)
    sig = str(tmp_path / "s")
    run(["pkeyutl", "-sign", "-inkey", key, "-in", str(dgst), "-out", sig] +
        opts + NCR)
    p = stock(["pkeyutl", "-verify", "-pubin", "-inkey", pub, "-in",
               str(dgst), "-sigfile", sig])
    assert b"Signature Verified Successfully" in p.stdout


def test_pkeyutl_wrong_digest_length_refused(tmp_path):
    key, _ = ec_key("P-256")
    d = tmp_path / "d"
    d.write_bytes(b"\x01" * 20)
    p = run(["pkeyutl", "-sign", "-inkey", key, "-pkeyopt", "digest:sha256",
             "-in", str(d)] + NCR, check=False)
    assert p.returncode != 0
    assert b"digest" in p.stderr


def test_req_selfsigned_verifies_stock(curve, tmp_path):
    key, pub = ec_key(curve)
    cert = str(tmp_path / "cert.pem")
    run(["req", "-new", "-x509", "-key", key, "-subj", "/CN=ncr ec",
         "-days", "2", "-out", cert] + NCR)
    p = stock(["verify", "-CAfile", cert, cert])
    assert b": OK" in p.stdout
    t = stock(["x509", "-in", cert, "-text", "-noout"]).stdout
    # the default digest of every EC key is SHA-256, as OpenSSL's own
    assert b"Signature Algorithm: ecdsa-with-SHA256" in t
    a = stock(["x509", "-in", cert, "-pubkey", "-noout"]).stdout
    assert a == open(pub, "rb").read()


def test_x509_signs_csr_as_ca(tmp_path):
    key, _ = ec_key("P-256")
    ca = str(tmp_path / "ca.pem")
    run(["req", "-new", "-x509", "-key", key, "-subj", "/CN=ncr EC CA",
         "-days", "2", "-out", ca] + NCR)
    leafkey, _ = stock_ec(tmp_path, "P-384", "leaf")
    csr = str(tmp_path / "leaf.csr")
    stock(["req", "-new", "-key", leafkey, "-subj", "/CN=leaf", "-out", csr])
    leaf = str(tmp_path / "leaf.pem")
    run(["x509", "-req", "-in", csr, "-CA", ca, "-CAkey", key,
         "-CAcreateserial", "-days", "1", "-out", leaf] + NCR)
    assert b": OK" in stock(["verify", "-CAfile", ca, leaf]).stdout
    # ncr verifies a certificate chain of EC keys as well
    assert b": OK" in run(["verify"] + NCR + ["-CAfile", ca, leaf]).stdout


# ---- ECDH / X25519 ---------------------------------------------------------

def test_ecdh_derive_matches_stock(curve, tmp_path):
    key, pub = ec_key(curve)
    peer, peerpub = stock_ec(tmp_path, curve)
    a = run(["pkeyutl", "-derive", "-inkey", key, "-peerkey", peerpub] +
            NCR).stdout
    b = stock(["pkeyutl", "-derive", "-inkey", peer, "-peerkey",
               pub]).stdout
    assert a == b and len(a) == CURVES[curve][1]


def test_ecdh_two_kernel_keys(tmp_path):
    a_key, a_pub = ec_key("P-256")
    b_key, b_pub = kernel_key("ec-P-256-b", ["-algorithm", "EC", "-pkeyopt",
                                             "ec_paramgen_curve:P-256"])
    s1 = run(["pkeyutl", "-derive", "-inkey", a_key, "-peerkey", b_pub] +
             NCR).stdout
    s2 = run(["pkeyutl", "-derive", "-inkey", b_key, "-peerkey", a_pub] +
             NCR).stdout
    assert s1 == s2 and len(s1) == 32


def test_ecdh_curve_mismatch_refused(tmp_path):
    key, _ = ec_key("P-256")
    _, peerpub = stock_ec(tmp_path, "P-384")
    p = run(["pkeyutl", "-derive", "-inkey", key, "-peerkey", peerpub] +
            NCR, check=False)
    assert p.returncode != 0
    assert b"curve" in p.stderr


def test_ecdh_kdf_refused(tmp_path):
    key, _ = ec_key("P-256")
    _, peerpub = stock_ec(tmp_path, "P-256")
    p = run(["pkeyutl", "-derive", "-inkey", key, "-peerkey", peerpub,
             "-pkeyopt", "kdf-type:X963KDF"] + NCR, check=False)
    assert p.returncode != 0
    # provider/kex_ecdh.c: NCR_R_NOT_SUPPORTED and what ncr does instead
    err = p.stderr.decode(errors="replace")
    assert "parameter not supported" in err, err
    assert "ncr returns the plain shared secret" in err, err


def test_x25519_genpkey_and_text():
    key, pub = x25519_key()
    assert open(key).read().startswith("-----BEGIN NCR KEY BLOB-----")
    p = run(["pkey", "-in", key, "-text", "-noout"] + NCR)
    assert b"X25519 Private-Key: held by the Linux kernel" in p.stdout
    assert b"X25519 Public-Key" in p.stdout
    der = stock(["pkey", "-pubin", "-in", pub, "-outform", "DER"]).stdout
    assert len(der) == 44 and der[-33] == 0   # SPKI: 12 + BIT STRING 32


def test_x25519_derive_matches_stock(tmp_path):
    key, pub = x25519_key()
    peer, peerpub = stock_key(tmp_path, ["-algorithm", "X25519"])
    a = run(["pkeyutl", "-derive", "-inkey", key, "-peerkey", peerpub] +
            NCR).stdout
    b = stock(["pkeyutl", "-derive", "-inkey", peer, "-peerkey",
               pub]).stdout
    assert a == b and len(a) == 32


def test_x25519_cannot_sign(msgfile, tmp_path):
    key, _ = x25519_key()
    p = run(["dgst", "-sha256", "-sign", key, "-out", str(tmp_path / "s")] +
            NCR + [msgfile], check=False)
    assert p.returncode != 0


def test_x25519_peer_for_ec_key_refused(tmp_path):
    key, _ = ec_key("P-256")
    _, peerpub = stock_key(tmp_path, ["-algorithm", "X25519"])
    p = run(["pkeyutl", "-derive", "-inkey", key, "-peerkey", peerpub] +
            NCR, check=False)
    assert p.returncode != 0


# ---- TLS through s_server (ncr listed first: the ephemeral ECDHE / X25519
# keys of the handshake are kernel keys too) -----------------------------------

@pytest.fixture(scope="module")
def ec_server():
    import tempfile
    key, _ = ec_key("P-256")
    cert = tempfile.mktemp(suffix=".pem", dir="/tmp")
    run(["req", "-new", "-x509", "-key", key, "-subj", "/CN=localhost",
         "-days", "2", "-out", cert] + NCR)
    return key, cert


@pytest.mark.parametrize("client,want,temp", [
    (["-tls1_3"], ["Protocol version: TLSv1.3"], None),
    (["-tls1_3", "-groups", "P-256"], ["Protocol version: TLSv1.3"],
     "ECDH, prime256v1"),
    (["-tls1_3", "-groups", "X25519"], [], "X25519"),
    (["-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-GCM-SHA256"],
     ["Protocol version: TLSv1.2", "ECDHE-ECDSA-AES128-GCM-SHA256"], None),
], ids=["tls1.3", "tls1.3-p256", "tls1.3-x25519", "tls1.2"])
def test_s_server_ecdsa(ec_server, client, want, temp):
    from test_provider_tls import handshake
    out = handshake(*ec_server, client)
    for w in want + ["Verification: OK"]:
        assert w in out, out
    assert tls_util.signature(out)[0] == "ECDSA", out
    if temp:
        assert (tls_util.temp_key(out) or "").startswith(temp), out
