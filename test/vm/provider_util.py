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
