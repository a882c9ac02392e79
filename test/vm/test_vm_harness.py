"""The VM the suites run in: what scripts/vm promises (device node, module,
loopback, clock, writable and read-only places)."""
import os
import socket
import stat
import time

import pytest

from conftest import DEVICE, ROOT, module_loaded


def test_device_node_is_misc_char_device():
    if not os.environ.get("NCR_KO"):
        pytest.skip("started with --no-module")
    st = os.stat(DEVICE)
    assert stat.S_ISCHR(st.st_mode)
    assert os.major(st.st_rdev) == 10  # misc


def test_module_is_loaded():
    if not os.environ.get("NCR_KO"):
        pytest.skip("started with --no-module")
    assert module_loaded()


def test_loopback_only_network_is_up():
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    cli = socket.create_connection(srv.getsockname(), timeout=5)
    conn, _ = srv.accept()
    cli.sendall(b"ping")
    assert conn.recv(4) == b"ping"
    for s in (cli, conn, srv):
        s.close()
    assert set(os.listdir("/sys/class/net")) == {"lo"}


def test_clock_follows_the_host():
    # Certificates made "now" on either side must be valid on the other.
    host = int(os.environ["NCRVM_HOST_EPOCH"])
    assert host - 5 <= time.time() <= host + 3600


def _mount_of(path):
    """(mount point, fs type, options) of the mount holding path."""
    best = ("", "", "")
    with open("/proc/mounts") as f:
        for line in f:
            _, mnt, fstype, opts = line.split()[:4]
            mnt = mnt.replace("\\040", " ")
            if (str(path) + "/").startswith(mnt.rstrip("/") + "/") and \
                    len(mnt) >= len(best[0]):
                best = (mnt, fstype, opts)
    return best


def test_host_files_are_protected_and_tmp_is_writable(tmp_path):
    # The host root is read-only; a checkout under /tmp or /root sits on an
    # overlay whose writes stay in guest memory. Either way the host's
    # files cannot be changed from the guest.
    _, fstype, opts = _mount_of(ROOT)
    if fstype == "9p":
        assert "ro" in opts.split(",")
        with pytest.raises(OSError):
            open(ROOT / "vm-write-probe", "w")
    else:
        assert fstype == "overlay", (fstype, opts)
    _, fstype, opts = _mount_of("/usr")
    assert fstype == "9p" and "ro" in opts.split(",")
    p = tmp_path / "probe"
    p.write_text("ok")
    assert p.read_text() == "ok"
    out = os.environ.get("NCR_VM_OUT")
    if out:
        assert os.access(out, os.W_OK)
