"""Helpers shared by the provider suites (test_provider_*.py): where ncr.so
is, how to run openssl with and without it, and kernel keys made once."""
import os
import subprocess

from conftest import BUILD, ROOT, TEST_MASTER_KEY, ensure_master_key  # noqa: F401

MODULES = os.path.join(BUILD, "provider")
OPENSSL = "/usr/bin/openssl"

NCR = ["-provider", "ncr", "-provider", "default"]


def env(extra=None):
    e = dict(os.environ)
    e["OPENSSL_MODULES"] = MODULES
    e.pop("OPENSSL_CONF", None)
    if extra:
        e.update(extra)
    return e


def run(args, input=None, extra_env=None, check=True, timeout=300):
    """Run openssl (args without the program name); returns CompletedProcess
    with bytes stdout/stderr."""
    p = subprocess.run([OPENSSL] + list(args), input=input,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=env(extra_env), timeout=timeout)
    if check and p.returncode != 0:
        raise AssertionError("openssl %s failed (%d): %s" % (
            " ".join(args), p.returncode, p.stderr.decode(errors="replace")))
    return p


def stock(args, input=None, check=True, timeout=300):
    """openssl without the ncr provider (no OPENSSL_MODULES)."""
    e = dict(os.environ)
    e.pop("OPENSSL_MODULES", None)
    e.pop("OPENSSL_CONF", None)
    p = subprocess.run([OPENSSL] + list(args), input=input,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=e, timeout=timeout)
    if check and p.returncode != 0:
        raise AssertionError("stock openssl %s failed (%d): %s" % (
            " ".join(args), p.returncode, p.stderr.decode(errors="replace")))
    return p


def ncr_so_present():
    return os.path.exists(os.path.join(MODULES, "ncr.so"))


# ---- shared kernel keys (generated once per VM boot, reused by suites) ----
KEYDIR = "/tmp/ncr-provider-keys"


def kernel_key(name, genargs):
    """Path of an ncr key file made by genpkey (cached in KEYDIR), plus its
    public key PEM next to it (name.pub.pem).

    The only skip is ensure_master_key()'s: no /dev/crypto (outside the
    VM).  ncr.ko always implements RSA, DSA, DH, EC and X25519, so a
    refusal by the kernel or the provider ("not supported" included) is a
    failure of the test, never a skip."""
    ensure_master_key()
    os.makedirs(KEYDIR, exist_ok=True)
    path = os.path.join(KEYDIR, name + ".pem")
    pub = os.path.join(KEYDIR, name + ".pub.pem")
    if not os.path.exists(pub):
        p = run(["genpkey"] + genargs + NCR + ["-out", path], check=False)
        if p.returncode != 0:
            raise AssertionError("genpkey %s in the kernel failed (%d): %s" % (
                " ".join(genargs), p.returncode,
                p.stderr.decode(errors="replace")))
        run(["pkey", "-in", path, "-pubout", "-out", pub] + NCR)
    return path, pub


def rsa_key():
    return kernel_key("rsa2048", ["-algorithm", "RSA", "-pkeyopt",
                                  "rsa_keygen_bits:2048"])


def tool(name):
    return os.path.join(BUILD, "test", "provider_c", name)
