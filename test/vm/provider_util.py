"""Helpers shared by the provider suites (test_provider_*.py): where ncr.so
is, how to run openssl with and without it, and the fixed test master key."""
import os
import subprocess

ROOT = os.environ.get("NCR_ROOT", os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))
BUILD = os.environ.get("NCR_BUILD", os.path.join(ROOT, "build"))
MODULES = os.path.join(BUILD, "provider")
OPENSSL = "/usr/bin/openssl"
# Agreed across suites: the storage master key is 32 bytes 0x00..0x1f.
TEST_MASTER_KEY = bytes(range(32))

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
import errno
import sys

KEYDIR = "/tmp/ncr-provider-keys"


def ensure_master_key():
    """Sets the agreed test master key; skips when the kernel lacks storage."""
    import pytest
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import conftest
    if not os.path.exists("/dev/crypto"):
        pytest.skip("/dev/crypto missing: run inside scripts/vm")
    rc = conftest.master_key_set()
    if rc == errno.EOPNOTSUPP:
        pytest.skip("storage master key not implemented in the kernel yet")
    if rc not in (0, errno.EEXIST, errno.EBUSY, errno.EALREADY):
        raise OSError(rc, "NCRIO_MASTER_KEY_SET")


def kernel_key(name, genargs):
    """Path of an ncr key file made by genpkey (cached in KEYDIR), plus its
    public key PEM next to it (name.pub.pem)."""
    import pytest
    ensure_master_key()
    os.makedirs(KEYDIR, exist_ok=True)
    path = os.path.join(KEYDIR, name + ".pem")
    pub = os.path.join(KEYDIR, name + ".pub.pem")
    if not os.path.exists(pub):
        p = run(["genpkey"] + genargs + NCR + ["-out", path], check=False)
        if p.returncode != 0:
            err = p.stderr.decode(errors="replace")
            if "not supported" in err or "Operation not supported" in err:
                pytest.skip("kernel PK support missing: " + err[:200])
            raise AssertionError("genpkey failed: " + err)
        run(["pkey", "-in", path, "-pubout", "-out", pub] + NCR)
    return path, pub


def rsa_key():
    return kernel_key("rsa2048", ["-algorithm", "RSA", "-pkeyopt",
                                  "rsa_keygen_bits:2048"])


def tool(name):
    return os.path.join(BUILD, "test", "provider_c", name)
