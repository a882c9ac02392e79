"""`ncrctl key import` / `ncrctl key info` and `ncrctl master-key load
--credential` in the VM (tools/ncrctl.8).

Existing software keys (every form `openssl pkey` reads; RSA, DSA, DH, EC
on P-256 and P-384, X25519) are imported into the kernel, storage-wrapped
and written as ncr key files that the provider loads: signatures and
decryption happen in the kernel and verify with the software public key,
derivations agree with the software key's; a small CA certifies the imported key and s_server and
nginx serve TLS with it to curl and Python's ssl.  Every bad input gives
its documented exit code, one line naming the file, and no OUT file.
"""
import base64
import errno
import hashlib
import os
import pathlib
import pty
import select
import subprocess
import termios
import time

import pytest

import e2e_util as e2e
from conftest import BUILD, TEST_MASTER_KEY, master_key_set

EXIT = dict(ok=0, usage=2, exists=3, file_io=4, insecure=5, bad_size=6,
            no_device=7, key_busy=9, kernel=10, no_master=12, not_key=13,
            passphrase=14, unsupported=15, rejected=16)
PASS = "correct horse battery staple"
RSA_SOFT = e2e.SERVER_SOFT_KEY          # PKCS#8 PEM, RSA-2048, test only


@pytest.fixture(scope="module")
def ncrctl():
    p = pathlib.Path(os.environ.get("NCRCTL", BUILD / "tools" / "ncrctl"))
    if not p.exists():
        pytest.skip(f"ncrctl not built at {p}")
    if not os.path.exists("/dev/crypto"):
        pytest.skip("/dev/crypto missing: run inside scripts/vm")
    return str(p)


def run(ncrctl, *args, env=None, input=None, pass_fds=()):
    # a session of its own: no controlling terminal to ask a passphrase on
    r = subprocess.run([ncrctl, *map(str, args)], capture_output=True,
                       text=True, env=env, input=input, pass_fds=pass_fds,
                       timeout=300, start_new_session=True)
    return r.returncode, r.stdout, r.stderr


def wait_echo_off(fd, timeout=60):
    """Waits until the terminal of pty master fd stops echoing."""
    end = time.monotonic() + timeout
    while termios.tcgetattr(fd)[3] & termios.ECHO:
        assert time.monotonic() < end, "the terminal still echoes"
        time.sleep(0.01)


def run_on_terminal(ncrctl, *args, answer):
    """Runs ncrctl on a new pseudo-terminal (its controlling terminal) and
    types answer once it asks; (exit code, all it wrote there)."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(ncrctl, [ncrctl, *map(str, args)])
    seen, answered = b"", False
    try:
        while True:
            r, _, _ = select.select([fd], [], [], 60)
            assert r, "ncrctl is silent: %r" % seen
            try:
                chunk = os.read(fd, 4096)
            except OSError:         # EIO: the terminal's last user left
                break
            if not chunk:
                break
            seen += chunk
            if not answered and b"pass phrase" in seen:
                # typed once echo is off, as a person would: the prompt
                # comes first
                wait_echo_off(fd)
                os.write(fd, answer.encode() + b"\n")
                answered = True
    finally:
        _, st = os.waitpid(pid, 0)
        os.close(fd)
    return os.waitstatus_to_exitcode(st), seen.decode(errors="replace")


def stock(*args, **kw):
    return e2e.openssl_stock(*map(str, args), **kw)


def der_of(*args):
    p = subprocess.run([e2e.OPENSSL, *map(str, args)], env=e2e.stock_env(),
                       capture_output=True, timeout=120, check=True)
    return p.stdout


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    """Software keys in the forms under test, made by stock openssl."""
    d = tmp_path_factory.mktemp("softkeys")
    k = {"rsa_pkcs8_pem": RSA_SOFT}
    k["rsa_pkcs1_pem"] = d / "rsa-pkcs1.pem"
    stock("rsa", "-in", RSA_SOFT, "-traditional", "-out", k["rsa_pkcs1_pem"])
    k["rsa_pkcs8_der"] = d / "rsa-pkcs8.der"
    stock("pkey", "-in", RSA_SOFT, "-outform", "DER",
          "-out", k["rsa_pkcs8_der"])
    k["rsa_enc"] = d / "rsa-enc.pem"
    stock("pkcs8", "-topk8", "-in", RSA_SOFT, "-v2", "aes-256-cbc",
          "-passout", "pass:" + PASS, "-out", k["rsa_enc"])
    k["rsa_pub"] = d / "rsa-pub.pem"
    stock("pkey", "-in", RSA_SOFT, "-pubout", "-out", k["rsa_pub"])
    k["dsa"] = d / "dsa.pem"
    stock("genpkey", "-genparam", "-algorithm", "DSA", "-pkeyopt",
          "dsa_paramgen_bits:2048", "-pkeyopt", "dsa_paramgen_q_bits:224",
          "-out", d / "dsa-params.pem", timeout=900)
    stock("genpkey", "-paramfile", d / "dsa-params.pem", "-out", k["dsa"])
    k["dh"] = d / "dh.pem"
    stock("genpkey", "-algorithm", "DH", "-pkeyopt", "group:ffdhe2048",
          "-out", k["dh"])
    k["dh_peer"] = d / "dh-peer.pem"
    stock("genpkey", "-algorithm", "DH", "-pkeyopt", "group:ffdhe2048",
          "-out", k["dh_peer"])
    for name in ("dsa", "dh", "dh_peer"):
        k[name + "_pub"] = d / (name + "-pub.pem")
        stock("pkey", "-in", k[name], "-pubout", "-out", k[name + "_pub"])
    return k


def imported(ncrctl, tmp_path, src, *opts, name="out.key", env=None,
             input=None, pass_fds=()):
    out = tmp_path / name
    rc, so, se = run(ncrctl, "key", "import", *opts, src, out, env=env,
                     input=input, pass_fds=pass_fds)
    assert rc == EXIT["ok"], se
    assert "shred -u" in so and str(src) in so, so
    assert pathlib.Path(src).exists()           # IN is left alone
    assert out.stat().st_mode & 0o7777 == 0o600
    assert e2e.is_keyfile(out)
    return out


def sign_verify(key_file, pub, tmp_path):
    """Signs through the provider (in the kernel), verifies in software."""
    msg = tmp_path / "msg"
    msg.write_bytes(os.urandom(100))
    sig = tmp_path / "sig"
    e2e.openssl_ncr("dgst", "-sha256", "-sign", key_file, "-out", sig, msg)
    r = stock("dgst", "-sha256", "-verify", pub, "-signature", sig, msg,
              check=False)
    assert r.returncode == 0 and "Verified OK" in r.stdout, r.stderr


# ---- importing every form ---------------------------------------------------

@pytest.mark.parametrize("form", ["rsa_pkcs8_pem", "rsa_pkcs1_pem",
                                  "rsa_pkcs8_der"])
def test_import_rsa_plain_forms(ncrctl, keys, tmp_path, master_key, form):
    out = imported(ncrctl, tmp_path, keys[form])
    pub = e2e.openssl_ncr("pkey", "-in", out, "-pubout").stdout
    assert pub == pathlib.Path(keys["rsa_pub"]).read_text()
    sign_verify(out, keys["rsa_pub"], tmp_path)
    # the provider's encoder, storage-wrapping the loaded key again (the
    # wrap is deterministic), writes exactly the same file
    again = tmp_path / "again.key"
    e2e.openssl_ncr("pkey", "-in", out, "-out", again)
    assert again.read_bytes() == out.read_bytes()


def passin_opts(how, tmp_path):
    """--passin ARG and how to run ncrctl for one of openssl's forms."""
    if how == "pass":
        return ["--passin", "pass:" + PASS], {}
    if how == "env":
        return (["--passin", "env:NCR_TEST_PASS"],
                {"env": dict(os.environ, NCR_TEST_PASS=PASS)})
    if how == "file":
        pwfile = tmp_path / "pw"
        pwfile.write_text(PASS + "\nsecond line ignored\n")
        return ["--passin", "file:%s" % pwfile], {}
    if how == "fd":
        rfd, wfd = os.pipe()
        os.write(wfd, (PASS + "\n").encode())
        os.close(wfd)
        return ["--passin", "fd:%d" % rfd], {"pass_fds": (rfd,)}
    return ["--passin", "stdin"], {"input": PASS + "\n"}


@pytest.mark.parametrize("how", ["pass", "env", "file", "fd", "stdin"])
def test_import_rsa_encrypted_pkcs8(ncrctl, keys, tmp_path, master_key, how):
    opts, kw = passin_opts(how, tmp_path)
    try:
        out = imported(ncrctl, tmp_path, keys["rsa_enc"], *opts, **kw)
    finally:
        for fd in kw.get("pass_fds", ()):
            os.close(fd)
    sign_verify(out, keys["rsa_pub"], tmp_path)


def test_import_dsa(ncrctl, keys, tmp_path, master_key):
    out = imported(ncrctl, tmp_path, keys["dsa"])
    rc, so, _ = run(ncrctl, "key", "info", out)
    assert rc == 0 and "algorithm: DSA" in so and "usage: sign\n" in so
    sign_verify(out, keys["dsa_pub"], tmp_path)


def test_import_dh_derives_the_same_secret(ncrctl, keys, tmp_path,
                                           master_key):
    out = imported(ncrctl, tmp_path, keys["dh"])
    rc, so, _ = run(ncrctl, "key", "info", out)
    assert rc == 0 and "algorithm: DH" in so and "usage: derive\n" in so
    soft, kern = tmp_path / "soft.bin", tmp_path / "kern.bin"
    stock("pkeyutl", "-derive", "-inkey", keys["dh"], "-peerkey",
          keys["dh_peer_pub"], "-out", soft)
    e2e.openssl_ncr("pkeyutl", "-derive", "-inkey", out, "-peerkey",
                    keys["dh_peer_pub"], "-out", kern)
    # the kernel pads to the size of p; OpenSSL's default may not
    assert kern.read_bytes().lstrip(b"\0") == soft.read_bytes().lstrip(b"\0")
    assert len(soft.read_bytes()) > 200


def test_usage_restricts_the_kernel_key(ncrctl, keys, tmp_path, master_key):
    ct = tmp_path / "ct"
    (tmp_path / "pt").write_bytes(b"secret message")
    stock("pkeyutl", "-encrypt", "-pubin", "-inkey", keys["rsa_pub"],
          "-in", tmp_path / "pt", "-out", ct)

    def decrypts(key):
        r = e2e.openssl_ncr("pkeyutl", "-decrypt", "-inkey", key, "-in", ct,
                            check=False)
        return r.returncode == 0 and r.stdout == "secret message"

    def signs(key):
        r = e2e.openssl_ncr("dgst", "-sha256", "-sign", key, "-out",
                            tmp_path / "sig", keys["rsa_pub"], check=False)
        return r.returncode == 0

    for use, can_sign, can_decrypt in (("sign", True, False),
                                       ("decrypt", False, True),
                                       (None, True, True)):
        name = "%s.key" % use
        opts = ["--usage", use] if use else []
        out = imported(ncrctl, tmp_path, RSA_SOFT, *opts, name=name)
        rc, so, _ = run(ncrctl, "key", "info", out)
        assert rc == 0 and "usage: %s\n" % (use or "sign,decrypt") in so
        # the kernel refuses the other use (EPERM)
        assert (signs(out), decrypts(out)) == (can_sign, can_decrypt), use
    sign_verify(tmp_path / "sign.key", keys["rsa_pub"], tmp_path)


def test_usage_the_algorithm_cannot_do(ncrctl, keys, tmp_path, master_key):
    for src, use in ((keys["dsa"], "decrypt"), (keys["dh"], "sign"),
                     (RSA_SOFT, "derive"), (RSA_SOFT, "sign,bogus"),
                     (RSA_SOFT, "sign,sign")):
        rc, _, se = run(ncrctl, "key", "import", "--usage", use, src,
                        tmp_path / "out")
        assert rc == EXIT["usage"] and "--usage" in se, (use, se)
        assert not (tmp_path / "out").exists()


# ---- EC (P-256, P-384) and X25519 keys ---------------------------------------

EC_CURVES = {"P-256": ("prime256v1", 256), "P-384": ("secp384r1", 384)}
# every form for the NIST curves; X25519 has no SEC1 (traditional) form
EC_FORMS = ("pkcs8", "pkcs8_der", "sec1", "sec1_params", "sec1_compressed",
            "enc")
X25519_FORMS = ("pkcs8", "pkcs8_der", "enc")


def soft_forms(d, name, genpkey_args, nist_group=None):
    """One software key in every form ncrctl must read, its public key
    (PEM and SPKI DER) and a software peer (for derivations)."""
    k = {"pkcs8": d / (name + ".pem")}
    stock("genpkey", *genpkey_args, "-out", k["pkcs8"])
    k["pkcs8_der"] = d / (name + ".der")
    stock("pkey", "-in", k["pkcs8"], "-outform", "DER",
          "-out", k["pkcs8_der"])
    k["enc"] = d / (name + "-enc.pem")
    stock("pkcs8", "-topk8", "-in", k["pkcs8"], "-v2", "aes-256-cbc",
          "-passout", "pass:" + PASS, "-out", k["enc"])
    if nist_group:
        k["sec1"] = d / (name + "-sec1.pem")
        stock("ec", "-in", k["pkcs8"], "-out", k["sec1"])
        # what `openssl ecparam -genkey` (and older certbot) write
        params = d / (name + "-params.pem")
        stock("ecparam", "-name", nist_group, "-out", params)
        k["sec1_params"] = d / (name + "-sec1-params.pem")
        k["sec1_params"].write_bytes(params.read_bytes() +
                                     k["sec1"].read_bytes())
        k["sec1_compressed"] = d / (name + "-sec1-compressed.pem")
        stock("ec", "-in", k["pkcs8"], "-conv_form", "compressed",
              "-out", k["sec1_compressed"])
    k["pub"] = d / (name + "-pub.pem")
    stock("pkey", "-in", k["pkcs8"], "-pubout", "-out", k["pub"])
    k["spki"] = der_of("pkey", "-in", k["pkcs8"], "-pubout", "-outform",
                       "DER")
    k["peer"] = d / (name + "-peer.pem")
    stock("genpkey", *genpkey_args, "-out", k["peer"])
    k["peer_pub"] = d / (name + "-peer-pub.pem")
    stock("pkey", "-in", k["peer"], "-pubout", "-out", k["peer_pub"])
    return k


def ec_args(curve):
    return ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:" + curve]


@pytest.fixture(scope="module")
def ec_keys(tmp_path_factory):
    d = tmp_path_factory.mktemp("softec")
    k = {c: soft_forms(d, c, ec_args(c), group)
         for c, (group, _) in EC_CURVES.items()}
    k["X25519"] = soft_forms(d, "x25519", ["-algorithm", "X25519"])
    # a compressed point really is in the compressed file
    text = stock("ec", "-in", k["P-256"]["sec1_compressed"], "-text",
                 "-noout").stdout
    assert "pub:\n    02:" in text or "pub:\n    03:" in text, text
    for curve in ("secp256k1", "P-521"):
        k[curve] = d / (curve + ".pem")
        stock("genpkey", *ec_args(curve), "-out", k[curve])
    k["ED25519"] = d / "ed25519.pem"
    stock("genpkey", "-algorithm", "ED25519", "-out", k["ED25519"])
    # P-256 itself, but with explicit parameters instead of its name
    k["explicit"] = d / "p256-explicit.pem"
    stock("ec", "-in", k["P-256"]["pkcs8"], "-param_enc", "explicit",
          "-out", k["explicit"])
    assert "Field Type: prime-field" in stock(
        "ec", "-in", k["explicit"], "-text", "-noout").stdout
    return k


def ec_cases():
    return ([(c, f) for c in sorted(EC_CURVES) for f in EC_FORMS] +
            [("X25519", f) for f in X25519_FORMS])


def ec_import(ncrctl, tmp_path, k, form, *opts):
    src = k[form]
    if form == "enc":
        opts = ("--passin", "pass:" + PASS) + opts
    return imported(ncrctl, tmp_path, src, *opts)


def derive_matches(key_file, k, tmp_path):
    """The kernel's derivation with the key file is the software key's."""
    soft, kern = tmp_path / "soft.bin", tmp_path / "kern.bin"
    stock("pkeyutl", "-derive", "-inkey", k["pkcs8"], "-peerkey",
          k["peer_pub"], "-out", soft)
    e2e.openssl_ncr("pkeyutl", "-derive", "-inkey", key_file, "-peerkey",
                    k["peer_pub"], "-out", kern)
    assert kern.read_bytes() == soft.read_bytes()
    assert len(soft.read_bytes()) in (32, 48)


@pytest.mark.parametrize("curve,form", ec_cases())
def test_import_ec(ncrctl, ec_keys, tmp_path, master_key, curve, form):
    k = ec_keys[curve]
    out = tmp_path / "out.key"
    opts = ("--passin", "pass:" + PASS) if form == "enc" else ()
    rc, so, se = run(ncrctl, "key", "import", *opts, k[form], out)
    assert rc == EXIT["ok"], se
    desc = "X25519" if curve == "X25519" else "EC " + curve
    assert "%s: %s key imported into the kernel" % (out, desc) in so, so
    assert "shred -u %s" % k[form] in so, so
    assert out.stat().st_mode & 0o7777 == 0o600 and e2e.is_keyfile(out)
    # the provider loads it, with the software key's public half
    pub = e2e.openssl_ncr("pkey", "-in", out, "-pubout").stdout
    assert pub == pathlib.Path(k["pub"]).read_text()
    if curve == "X25519":
        derive_matches(out, k, tmp_path)
    else:
        sign_verify(out, k["pub"], tmp_path)
    # the provider, storage-wrapping the loaded key again, writes the same
    again = tmp_path / "again.key"
    e2e.openssl_ncr("pkey", "-in", out, "-out", again)
    assert again.read_bytes() == out.read_bytes()


@pytest.mark.parametrize("curve", ["P-256", "P-384", "X25519"])
def test_info_ec(ncrctl, ec_keys, tmp_path, master_key, curve):
    k = ec_keys[curve]
    out = imported(ncrctl, tmp_path, k["pkcs8"])
    rc, so, se = run(ncrctl, "key", "info", out)
    assert rc == 0, se
    f = info_fields(so)
    if curve == "X25519":
        assert (f["algorithm"], f["size"]) == ("X25519", "253 bits")
        assert f["usage"] == "derive"
    else:
        assert (f["algorithm"], f["size"]) == (
            "EC", "%d bits" % EC_CURVES[curve][1])
        assert f["usage"] == "sign,derive"
    assert f["curve"] == curve
    # the kernel's key ID: SHA-1 of the SubjectPublicKeyInfo
    assert f["key id"] == hashlib.sha1(k["spki"]).hexdigest()
    assert f["public key sha256"] == hashlib.sha256(k["spki"]).hexdigest()
    assert f["loads"].startswith("yes") and f["exportable"] == "no"
    assert list(f)[:4] == ["file", "algorithm", "curve", "size"]


def test_info_ec_key_made_by_the_provider(ncrctl, tmp_path, master_key):
    if not e2e.have_provider():
        pytest.skip("ncr.so not built")
    out = tmp_path / "gen.key"
    e2e.openssl_ncr("genpkey", "-propquery", "provider=ncr",
                    *ec_args("P-384"), "-out", out)
    rc, so, se = run(ncrctl, "key", "info", out)
    assert rc == 0, se
    f = info_fields(so)
    assert (f["algorithm"], f["curve"], f["usage"]) == (
        "EC", "P-384", "sign,derive")


def test_import_p256_derives_too(ncrctl, ec_keys, tmp_path, master_key):
    """A NIST key signs and derives (ECDH), as one made by genpkey."""
    out = imported(ncrctl, tmp_path, ec_keys["P-256"]["sec1"])
    derive_matches(out, ec_keys["P-256"], tmp_path)


def test_usage_ec(ncrctl, ec_keys, tmp_path, master_key):
    k = ec_keys["P-256"]

    def signs(key):
        return e2e.openssl_ncr("dgst", "-sha256", "-sign", key, "-out",
                               tmp_path / "sig", k["pub"],
                               check=False).returncode == 0

    # derive only: the kernel refuses to sign with it (EPERM), ECDH works
    out = imported(ncrctl, tmp_path, k["pkcs8"], "--usage", "derive",
                   name="derive.key")
    rc, so, _ = run(ncrctl, "key", "info", out)
    assert rc == 0 and "usage: derive\n" in so, so
    assert not signs(out)
    derive_matches(out, k, tmp_path)
    out = imported(ncrctl, tmp_path, k["pkcs8"], "--usage", "derive,sign",
                   name="both.key")
    assert "usage: sign,derive\n" in run(ncrctl, "key", "info", out)[1]
    assert signs(out)
    # no kernel flag keeps an EC key from deriving: "sign" alone is refused
    for src, use, text in ((k["pkcs8"], "sign", "EC keys always derive"),
                           (k["pkcs8"], "decrypt", "EC keys can only "
                            "sign,derive"),
                           (ec_keys["X25519"]["pkcs8"], "sign",
                            "X25519 keys can only derive")):
        rc, _, se = run(ncrctl, "key", "import", "--usage", use, src,
                        tmp_path / "out")
        assert rc == EXIT["usage"] and text in se, (use, se)
        assert len(se.splitlines()) == 1
        assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("which,text", [
    ("secp256k1", "EC key on curve secp256k1: curve not supported"),
    ("P-521", "EC key on curve secp521r1: curve not supported"),
    ("ED25519", "ED25519 key: algorithm not supported"),
    ("explicit", "EC key with explicit curve parameters: only named "
     "curves are supported"),
])
def test_bad_ec_curve(ncrctl, ec_keys, tmp_path, master_key, which, text):
    se = refused(ncrctl, tmp_path, ec_keys[which], "unsupported", text)
    assert "by the kernel driver (it holds" in se
    assert "EC keys on P-256 and P-384" in se


def test_ec_passphrase(ncrctl, ec_keys, tmp_path, master_key):
    for curve in ("P-384", "X25519"):
        enc = ec_keys[curve]["enc"]
        refused(ncrctl, tmp_path, enc, "passphrase", "wrong passphrase",
                "--passin", "pass:not the passphrase")
        refused(ncrctl, tmp_path, enc, "passphrase",
                "give its passphrase with --passin")
        # typed on standard input
        out = imported(ncrctl, tmp_path, enc, "--passin", "stdin",
                       name=curve + ".key", input=PASS + "\n")
        pub = e2e.openssl_ncr("pkey", "-in", out, "-pubout").stdout
        assert pub == ec_keys[curve]["pub"].read_text()


@pytest.mark.parametrize("src", ["rsa_enc", "P-256", "X25519"])
def test_passphrase_typed_on_the_terminal(ncrctl, keys, ec_keys, tmp_path,
                                          master_key, src):
    """Without --passin, on a terminal: asked for, not echoed, used; a wrong
    one is exit 14, nothing written."""
    enc = keys[src] if src == "rsa_enc" else ec_keys[src]["enc"]
    bad = tmp_path / "bad.key"
    rc, seen = run_on_terminal(ncrctl, "key", "import", enc, bad,
                               answer="not the passphrase")
    assert rc == EXIT["passphrase"] and "wrong passphrase" in seen, seen
    assert not bad.exists()
    out = tmp_path / "typed.key"
    rc, seen = run_on_terminal(ncrctl, "key", "import", enc, out,
                               answer=PASS)
    assert rc == EXIT["ok"], seen
    assert "Enter pass phrase for %s:" % enc in seen
    assert PASS not in seen                     # no echo
    assert e2e.is_keyfile(out)
    if src == "rsa_enc":
        sign_verify(out, keys["rsa_pub"], tmp_path)
    else:
        pub = e2e.openssl_ncr("pkey", "-in", out, "-pubout").stdout
        assert pub == ec_keys[src]["pub"].read_text()


def test_bad_ec_public_key_only(ncrctl, ec_keys, tmp_path, master_key):
    refused(ncrctl, tmp_path, ec_keys["P-256"]["pub"], "not_key",
            "private key")


# ---- the key file holds no private key in clear -----------------------------

def der_tlv(b, i=0):
    """One DER TLV at b[i]: (tag, value, raw TLV bytes, next offset)."""
    tag, n, j = b[i], b[i + 1], i + 2
    if n & 0x80:
        k = n & 0x7f
        n = int.from_bytes(b[j:j + k], "big")
        j += k
    return tag, b[j:j + n], b[i:j + n], j + n


def der_items(der):
    """The TLVs inside a DER SEQUENCE: [(tag, value, raw)]."""
    tag, body, _, _ = der_tlv(der)
    assert tag == 0x30
    out, i = [], 0
    while i < len(body):
        t, v, raw, i = der_tlv(body, i)
        out.append((t, v, raw))
    return out


def pem_body(path):
    lines = pathlib.Path(path).read_text().strip().splitlines()
    return base64.b64decode("".join(lines[1:-1]))


def test_key_file_holds_no_private_key(ncrctl, keys, tmp_path, master_key):
    out = imported(ncrctl, tmp_path, RSA_SOFT)
    raw = out.read_bytes()
    der = pem_body(out)
    version, spki, blob = der_items(der)
    assert version[:2] == (0x02, b"\x01") and blob[0] == 0x04
    # the public key in clear is exactly the software key's
    assert spki[2] == der_of("pkey", "-in", RSA_SOFT, "-pubout",
                             "-outform", "DER")
    pkcs1 = der_of("rsa", "-in", RSA_SOFT, "-traditional", "-outform", "DER")
    pkcs8 = der_of("pkey", "-in", RSA_SOFT, "-outform", "DER")
    # RSAPrivateKey: version, n, e, d, p, q, dP, dQ, qInv
    ints = [v for _, v, _ in der_items(pkcs1)]
    secret = {"d": ints[3], "p": ints[4], "q": ints[5], "dP": ints[6],
              "dQ": ints[7], "qInv": ints[8]}
    for name, value in secret.items():
        v = value.lstrip(b"\0")
        assert len(v) >= 100
        for hay in (raw, der, blob[1]):
            for i in range(0, len(v) - 16, 16):   # no 16-byte piece either
                assert v[i:i + 16] not in hay, name
    assert pkcs1[:64] not in der and pkcs8[:64] not in der
    assert b"PRIVATE KEY" not in raw
    # stock openssl (no provider) finds no private key in it
    assert stock("pkey", "-in", out, "-noout", check=False).returncode != 0


# ---- TLS with the imported key: a small CA, s_server and nginx ---------------

@pytest.fixture(scope="module")
def tls(ncrctl, keys, tmp_path_factory):
    if not e2e.have_provider():
        pytest.skip("ncr.so not built")
    assert master_key_set() in (0, errno.EBUSY)    # EBUSY: already set
    d = tmp_path_factory.mktemp("tls")
    ca_key = d / "ca.key"
    stock("genpkey", "-algorithm", "EC", "-pkeyopt",
          "ec_paramgen_curve:P-256", "-out", ca_key)
    pki = e2e.Pki(d / "pki", ca_key=ca_key)
    key = d / "server.key"
    rc, _, se = run(ncrctl, "key", "import", RSA_SOFT, key)
    assert rc == 0, se
    # the CSR is signed in the kernel with the imported key
    crt = pki.issue(key, "server", "localhost", server=True, ncr=True)
    return dict(ca=pki.ca_crt, key=key, crt=crt, dir=d)


PY_GET = r"""
import socket, ssl, sys
port, ca = int(sys.argv[1]), sys.argv[2]
ctx = ssl.create_default_context(cafile=ca)
with socket.create_connection(("127.0.0.1", port), timeout=120) as raw:
    with ctx.wrap_socket(raw, server_hostname="localhost") as s:
        s.sendall(b"GET / HTTP/1.0\r\nHost: localhost\r\n\r\n")
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        print(s.version(), s.getpeercert()["subject"])
        sys.stdout.write(data.decode(errors="replace"))
"""


def py_get(port, ca):
    return e2e.run([e2e.PYTHON, "-c", PY_GET, str(port), str(ca)],
                   env=e2e.stock_env(), timeout=180, check=False)


def curl_get(port, ca):
    return e2e.curl("https://localhost:%d/" % port, ca, "--resolve",
                    "localhost:%d:%s" % (port, e2e.HOST))


def s_server_serves(key, crt, ca):
    """openssl s_server with the ncr key file: curl and Python's ssl
    fetch a page over TLS, verifying the certificate against ca."""
    port = e2e.free_port()
    srv = subprocess.Popen(
        [e2e.OPENSSL, "s_server", "-accept", "%s:%d" % (e2e.HOST, port),
         "-key", key, "-cert", crt, "-www"],
        env=e2e.ncr_env(), stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, start_new_session=True)
    try:
        assert e2e.wait_port(port, srv, timeout=120), \
            srv.stderr.read().decode(errors="replace")
        r = curl_get(port, ca)
        assert r.returncode == 0, r.stderr
        assert "SSL certificate verify ok" in r.stderr
        assert "s_server" in r.stdout or "Ciphers" in r.stdout
        r = py_get(port, ca)
        assert r.returncode == 0, r.stderr
        assert "localhost" in r.stdout.splitlines()[0]
    finally:
        srv.kill()
        srv.wait(timeout=30)


def test_tls_s_server_with_imported_key(tls):
    s_server_serves(tls["key"], tls["crt"], tls["ca"])


def test_tls_certbot_ecdsa_key_moves(ncrctl, ec_keys, tmp_path, master_key):
    """certbot's layout: the certificate was issued for the software P-256
    key (live/privkey.pem, a link into archive/); after the import the
    same certificate serves TLS with the key in the kernel."""
    if not e2e.have_provider():
        pytest.skip("ncr.so not built")
    pki = e2e.Pki(tmp_path / "pki")
    archive, live = tmp_path / "archive", tmp_path / "live"
    archive.mkdir()
    live.mkdir()
    soft = archive / "privkey1.pem"
    soft.write_bytes(ec_keys["P-256"]["sec1"].read_bytes())
    (live / "privkey.pem").symlink_to("../archive/privkey1.pem")
    crt = pki.issue(live / "privkey.pem", "cert1", "localhost", ncr=False)
    out = imported(ncrctl, tmp_path, live / "privkey.pem", name="ncr.key")
    assert soft.exists()
    cert_pub = stock("x509", "-in", crt, "-noout", "-pubkey").stdout
    assert e2e.openssl_ncr("pkey", "-in", out, "-pubout").stdout == cert_pub
    s_server_serves(out, crt, pki.ca_crt)


def test_tls_nginx_with_imported_key(tls):
    n = e2e.Nginx(tls["dir"] / "nginx", tls["crt"], tls["key"], workers=1)
    try:
        assert n.start(), "nginx did not start:\n" + n.error_text()
        r = curl_get(n.port, tls["ca"])
        assert r.returncode == 0, r.stderr + n.error_text()
        assert "SSL certificate verify ok" in r.stderr
        assert r.stdout.startswith("served by nginx")
        r = py_get(n.port, tls["ca"])
        assert r.returncode == 0, r.stderr
        assert "served by nginx" in r.stdout
        assert not n.problems(), n.problems()
    finally:
        n.stop()


# ---- bad input: exit code, one line naming the file, no OUT -------------------

def refused(ncrctl, tmp_path, src, code, text, *opts, names=None, **kw):
    out = tmp_path / "out.key"
    before = sorted(os.listdir(tmp_path))
    rc, so, se = run(ncrctl, "key", "import", *opts, src, out, **kw)
    assert rc == EXIT[code], (rc, se)
    lines = se.splitlines()
    assert len(lines) == 1 and lines[0].startswith("ncrctl: "), se
    assert text in se, se
    assert str(names if names is not None else src) in se, se
    assert not out.exists()
    assert sorted(os.listdir(tmp_path)) == before    # no temp file left
    return se


def test_bad_not_a_key(ncrctl, keys, tmp_path, master_key):
    junk = tmp_path / "junk.pem"
    junk.write_text("-----BEGIN PRIVATE KEY-----\nAAAA\n"
                    "-----END PRIVATE KEY-----\n")
    refused(ncrctl, tmp_path, junk, "not_key", "not a private key")
    refused(ncrctl, tmp_path, keys["rsa_pub"], "not_key", "private key")
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    refused(ncrctl, tmp_path, empty, "not_key", "not a private key")


def test_bad_passphrase(ncrctl, keys, tmp_path, master_key):
    refused(ncrctl, tmp_path, keys["rsa_enc"], "passphrase",
            "wrong passphrase", "--passin", "pass:not the passphrase")
    refused(ncrctl, tmp_path, keys["rsa_enc"], "passphrase",
            "give its passphrase with --passin")
    refused(ncrctl, tmp_path, keys["rsa_enc"], "usage", "not set",
            "--passin", "env:NCR_NO_SUCH_VARIABLE",
            names="NCR_NO_SUCH_VARIABLE")
    refused(ncrctl, tmp_path, keys["rsa_enc"], "file_io", "cannot open",
            "--passin", "file:%s" % (tmp_path / "nopw"),
            names=tmp_path / "nopw")


def test_bad_no_master_key(ncrctl, tmp_path, module_reload):
    module_reload(set_master_key=False)
    refused(ncrctl, tmp_path, RSA_SOFT, "no_master",
            "no storage master key is set", names="/dev/crypto")


def test_bad_no_device(ncrctl, tmp_path, module_reload):
    subprocess.run(["rmmod", "ncr"], check=True)
    try:
        refused(ncrctl, tmp_path, RSA_SOFT, "no_device", "modprobe ncr",
                names="/dev/crypto")
    finally:
        module_reload()


def test_bad_input_missing(ncrctl, tmp_path, master_key):
    refused(ncrctl, tmp_path, tmp_path / "nokey.pem", "file_io",
            "cannot open")


def test_out_exists(ncrctl, tmp_path, master_key):
    out = tmp_path / "out.key"
    out.write_text("keep me\n")
    rc, _, se = run(ncrctl, "key", "import", RSA_SOFT, out)
    assert rc == EXIT["exists"] and str(out) in se and "--force" in se
    assert out.read_text() == "keep me\n"
    link = tmp_path / "link.key"
    link.symlink_to(tmp_path / "elsewhere")
    rc, _, _ = run(ncrctl, "key", "import", RSA_SOFT, link)
    assert rc == EXIT["exists"] and not (tmp_path / "elsewhere").exists()
    # --force replaces the file (not what a symlink points to)
    rc, _, se = run(ncrctl, "key", "import", "--force", RSA_SOFT, out)
    assert rc == 0, se
    assert e2e.is_keyfile(out) and out.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == \
        ["link.key", "out.key"]


def test_usage_errors(ncrctl, tmp_path):
    for args in (["key"], ["key", "import"], ["key", "import", "x"],
                 ["key", "import", "a", "b", "c"], ["key", "import",
                                                    "--bogus", "a", "b"],
                 ["key", "info"], ["key", "rotate", "x"]):
        assert run(ncrctl, *args)[0] == EXIT["usage"], args


# ---- key info ------------------------------------------------------------------

def info_fields(text):
    return dict(ln.split(": ", 1) for ln in text.splitlines() if ": " in ln)


def test_info(ncrctl, keys, tmp_path, master_key):
    out = imported(ncrctl, tmp_path, RSA_SOFT)
    rc, so, se = run(ncrctl, "key", "info", out)
    assert rc == 0, se
    f = info_fields(so)
    spki = der_of("pkey", "-in", RSA_SOFT, "-pubout", "-outform", "DER")
    assert f["algorithm"] == "RSA" and f["size"] == "2048 bits"
    assert f["public key sha256"] == hashlib.sha256(spki).hexdigest()
    assert f["key id"] == hashlib.sha1(spki).hexdigest()
    assert f["loads"].startswith("yes")
    assert f["usage"] == "sign,decrypt" and f["exportable"] == "no"


def test_info_key_made_by_the_provider(ncrctl, tmp_path, master_key):
    """The same output for a key file written by `openssl genpkey`."""
    if not e2e.have_provider():
        pytest.skip("ncr.so not built")
    out = tmp_path / "gen.key"
    e2e.openssl_ncr("genpkey", "-propquery", "provider=ncr", "-algorithm",
                    "DH", "-pkeyopt", "group:ffdhe2048", "-out", out,
                    timeout=600)
    rc, so, se = run(ncrctl, "key", "info", out)
    assert rc == 0, se
    assert info_fields(so)["algorithm"] == "DH"


def test_info_without_or_with_another_master_key(ncrctl, tmp_path,
                                                 module_reload):
    module_reload()
    out = imported(ncrctl, tmp_path, RSA_SOFT)
    module_reload(set_master_key=False)
    rc, so, _ = run(ncrctl, "key", "info", out)
    assert rc == EXIT["no_master"] and "loads: no (no master key" in so
    assert "algorithm: RSA" in so and "usage: unknown" in so
    assert master_key_set(os.urandom(32)) == 0
    rc, so, _ = run(ncrctl, "key", "info", out)
    assert rc == EXIT["rejected"] and "another master key" in so


def test_info_bad_files(ncrctl, keys, tmp_path, master_key):
    rc, _, se = run(ncrctl, "key", "info", RSA_SOFT)
    assert rc == EXIT["not_key"] and "not an ncr key file" in se
    assert str(RSA_SOFT) in se
    rc, _, se = run(ncrctl, "key", "info", tmp_path / "none")
    assert rc == EXIT["file_io"] and "cannot open" in se
    out = imported(ncrctl, tmp_path, RSA_SOFT)
    _, spki, blob = der_items(pem_body(out))
    # one bit of the wrapped blob changed: the kernel's integrity check
    bad = bytearray(blob[1])
    bad[len(bad) // 2] ^= 1
    tampered = tmp_path / "tampered.key"
    tampered.write_bytes(e2e.keyfile_pem(spki[2], bytes(bad)))
    rc, so, _ = run(ncrctl, "key", "info", tampered)
    assert rc == EXIT["rejected"] and "loads: no" in so
    assert "algorithm: RSA" in so
    # another key's public half in front of the blob: the ID check
    other = der_of("pkey", "-in", e2e.CLIENT_SOFT_KEY, "-pubout",
                   "-outform", "DER")
    swapped = tmp_path / "swapped.key"
    swapped.write_bytes(e2e.keyfile_pem(other, blob[1]))
    rc, so, _ = run(ncrctl, "key", "info", swapped)
    assert rc == EXIT["rejected"] and "another key" in so
    # a body the provider's parser refuses (empty blob)
    broken = tmp_path / "broken.key"
    broken.write_bytes(e2e.keyfile_pem(spki[2], b""))
    rc, _, se = run(ncrctl, "key", "info", broken)
    assert rc == EXIT["not_key"] and "malformed" in se


# ---- master-key load --credential ------------------------------------------------

def cred_dir(tmp_path, data=TEST_MASTER_KEY, mode=0o400, dmode=0o500,
             name="ncr-master-key"):
    d = tmp_path / "credentials"
    d.mkdir()
    if data is not None:
        (d / name).write_bytes(data)
        os.chmod(d / name, mode)
    os.chmod(d, dmode)
    return d


def load_cred(ncrctl, d, *args):
    env = dict(os.environ)
    env.pop("CREDENTIALS_DIRECTORY", None)
    if d is not None:
        env["CREDENTIALS_DIRECTORY"] = str(d)
    return run(ncrctl, "master-key", "load", *args, env=env)


def test_credential_sets_the_master_key(ncrctl, tmp_path, module_reload):
    module_reload(set_master_key=False)
    d = cred_dir(tmp_path)
    rc, so, se = load_cred(ncrctl, d, "--credential", "ncr-master-key")
    assert rc == 0, se
    assert "%s/ncr-master-key: master key set" % d in so
    assert master_key_set(TEST_MASTER_KEY) == 0     # the same key
    # idempotent, and --credential=NAME is the same
    assert load_cred(ncrctl, d, "--credential=ncr-master-key")[0] == 0


def test_credential_wins_over_the_fallback_file(ncrctl, tmp_path,
                                                module_reload):
    module_reload(set_master_key=False)
    d = cred_dir(tmp_path)
    other = tmp_path / "other.key"
    other.write_bytes(os.urandom(32))
    os.chmod(other, 0o600)
    rc, so, se = load_cred(ncrctl, d, "--credential", "ncr-master-key",
                           other)
    assert rc == 0 and "credentials/ncr-master-key" in so, se
    assert master_key_set(TEST_MASTER_KEY) == 0


def test_credential_fallback_file(ncrctl, tmp_path, module_reload):
    module_reload(set_master_key=False)
    f = tmp_path / "master.key"
    f.write_bytes(TEST_MASTER_KEY)
    os.chmod(f, 0o600)
    d = cred_dir(tmp_path, data=None)           # systemd passed nothing
    rc, so, se = load_cred(ncrctl, d, "--credential", "ncr-master-key", f)
    assert rc == 0 and "%s: master key set" % f in so, se
    rc, so, se = load_cred(ncrctl, None, "--credential", "ncr-master-key", f)
    assert rc == 0 and str(f) in so, se
    # without a fallback, a missing credential is an error
    rc, _, se = load_cred(ncrctl, d, "--credential", "ncr-master-key")
    assert rc == EXIT["file_io"] and "cannot open" in se
    rc, _, se = load_cred(ncrctl, None, "--credential", "ncr-master-key")
    assert rc == EXIT["file_io"] and "CREDENTIALS_DIRECTORY" in se


@pytest.mark.parametrize("case,code,text", [
    ("mode0440", "insecure", "mode 0440"),
    ("mode0644", "insecure", "mode 0644"),
    ("owner", "insecure", "owned by uid 65534"),
    ("dir0770", "insecure", "writable by nobody else"),
    ("dirowner", "insecure", "writable by nobody else"),
    ("symlink", "insecure", "symbolic link"),
    ("short", "bad_size", "31 bytes"),
    ("name", "usage", "not a valid credential name"),
    ("relative", "insecure", "not an absolute path"),
])
def test_credential_refused(ncrctl, tmp_path, master_key, case, code, text):
    name = "ncr-master-key"
    if case == "dir0770":
        d = cred_dir(tmp_path, dmode=0o770)
    elif case == "dirowner":
        d = cred_dir(tmp_path)
        os.chown(d, 65534, 65534)
    elif case == "symlink":
        d = cred_dir(tmp_path, data=None, dmode=0o700)
        key = tmp_path / "real"
        key.write_bytes(TEST_MASTER_KEY)
        os.chmod(key, 0o400)
        (d / name).symlink_to(key)
    elif case == "short":
        d = cred_dir(tmp_path, data=bytes(31))
    elif case == "relative":
        d = "credentials"
    else:
        d = cred_dir(tmp_path, mode={"mode0440": 0o440,
                                     "mode0644": 0o644}.get(case, 0o400))
        if case == "owner":
            os.chown(d / name, 65534, 65534)
        if case == "name":
            name = "../master.key"
    rc, _, se = load_cred(ncrctl, d, "--credential", name)
    assert rc == EXIT[code] and text in se, (rc, se)
    assert len(se.splitlines()) == 1


def test_master_key_file_rules_unchanged(ncrctl, tmp_path, master_key):
    """0400 is fine for a credential, still not for a master key file."""
    f = tmp_path / "m400"
    f.write_bytes(TEST_MASTER_KEY)
    os.chmod(f, 0o400)
    rc, _, se = run(ncrctl, "master-key", "load", f)
    assert rc == EXIT["insecure"] and "mode 0400" in se
