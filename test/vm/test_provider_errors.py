"""Every ncr failure names its cause: device missing or not permitted, no
master key, tampered blob or other master key, key not exportable,
parameter not supported, malformed key file."""
import os
import subprocess
import pytest

from conftest import world_copy
from provider_util import MODULES, NCR, OPENSSL, env, run, ncr_so_present

pytestmark = pytest.mark.skipif(not ncr_so_present(),
                                reason="ncr.so not built")

GENRSA = ["genpkey", "-algorithm", "RSA", "-pkeyopt",
          "rsa_keygen_bits:1024"] + NCR


def test_no_device_message(tmp_path):
    p = run(GENRSA + ["-out", str(tmp_path / "k.pem")], check=False,
            extra_env={"NCR_DEVICE": "/nonexistent/crypto"})
    assert p.returncode != 0
    assert b"/dev/crypto not available" in p.stderr
    assert b"No such file or directory" in p.stderr


def test_provider_loads_without_device():
    p = run(["list", "-providers"] + NCR,
            extra_env={"NCR_DEVICE": "/nonexistent/crypto"})
    assert b"ncr: Linux /dev/crypto" in p.stdout


def test_device_not_permitted_message(world_dir):
    """A device node the caller may not open (EACCES) is named as such."""
    st = os.stat("/dev/crypto")
    node = world_dir / "crypto"
    os.mknod(str(node), 0o600 | 0o020000, st.st_rdev)
    # ncr.so where uid 65534 can load it (the build tree may be out of its
    # reach, e.g. in root's home).
    world_copy(os.path.join(MODULES, "ncr.so"), world_dir)
    e = env({"NCR_DEVICE": str(node), "OPENSSL_MODULES": str(world_dir)})
    p = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534",
                        "--clear-groups", OPENSSL] + GENRSA, env=e,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.returncode != 0
    assert b"/dev/crypto not permitted" in p.stderr
    assert b"Permission denied" in p.stderr
