"""Shared pytest fixtures for the suites that run inside the scripts/vm guest.

Run from the repo root inside the VM (test/vm/run does this):
    /usr/bin/python3 -m pytest -p no:cacheprovider -q test/vm

Environment set by scripts/vm: NCR_ROOT (repo root, read-only), NCR_BUILD
(build dir, read-only), NCR_KO (the loaded module; for tests that rmmod and
insmod it themselves), NCR_VM_OUT (a directory shared read-write with the
host). /tmp is a private tmpfs.
"""
import ctypes
import errno
import fcntl
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

import pytest

ROOT = pathlib.Path(os.environ.get("NCR_ROOT",
                                   pathlib.Path(__file__).resolve().parents[2]))
BUILD = pathlib.Path(os.environ.get("NCR_BUILD", ROOT / "build"))
DEVICE = "/dev/crypto"

# test/vm on sys.path: suites import the shared helpers (e.g. ncrio).
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import ncrio  # noqa: E402  (needs the sys.path entry above)

# The storage master key every VM suite uses: one value for all, because a
# module keeps the first master key it is given.
TEST_MASTER_KEY = bytes(range(32))


def master_key_set(key=TEST_MASTER_KEY):
    """Sets the storage master key through a fresh descriptor.

    Returns 0 on success or the errno of the refusal.
    """
    buf = ctypes.create_string_buffer(key, len(key))
    arg = ncrio.master_key_set(0, 0, ctypes.addressof(buf), len(key))
    fd = os.open(DEVICE, os.O_RDWR)
    try:
        # fcntl directly, not ncrio's fault-injection window: this is
        # set-up, not the ioctl under test.
        fcntl.ioctl(fd, ncrio.NCRIO["MASTER_KEY_SET"], arg)
        return 0
    except OSError as e:
        return e.errno
    finally:
        os.close(fd)


def module_name():
    return pathlib.Path(os.environ.get("NCR_KO", "ncr.ko")).stem


def module_loaded():
    name = module_name()
    with open("/proc/modules") as f:
        return any(line.split()[0] == name for line in f)


def reload_module(params=(), set_master_key=True):
    """rmmod + insmod NCR_KO with the given parameters (a sequence of
    "name=value" strings), then set the common test master key again unless
    told not to. Tests that change module state restore it with
    reload_module() when they are done."""
    ko = os.environ.get("NCR_KO")
    if not ko:
        pytest.skip("NCR_KO not set: the module was not loaded by scripts/vm")
    if module_loaded():
        subprocess.run(["rmmod", module_name()], check=True)
    subprocess.run(["insmod", ko, *params], check=True)
    if set_master_key:
        rc = master_key_set()
        if rc not in (0, errno.EOPNOTSUPP):
            raise OSError(rc, "setting the test master key after reload")


@pytest.fixture(scope="session")
def ncr_root():
    return ROOT


@pytest.fixture(scope="session")
def ncr_build():
    return BUILD


@pytest.fixture(scope="session")
def ncr_ko():
    ko = os.environ.get("NCR_KO")
    if not ko:
        pytest.skip("NCR_KO not set: the module was not loaded by scripts/vm")
    return pathlib.Path(ko)


@pytest.fixture
def world_dir():
    """A fresh directory that any user can reach (mode 0755, under /tmp),
    for what a test runs as another uid: the checkout and pytest's tmp_path
    may sit below directories only root can enter (a clone in /root)."""
    d = pathlib.Path(tempfile.mkdtemp(prefix="ncr-world-", dir="/tmp"))
    os.chmod(d, 0o755)
    yield d
    shutil.rmtree(d, ignore_errors=True)


def world_copy(src, world_dir):
    """src copied into world_dir (readable and, if src is, executable by
    anyone); returns the copy's path."""
    dst = world_dir / pathlib.Path(src).name
    shutil.copyfile(src, dst)
    os.chmod(dst, 0o755 if os.access(src, os.X_OK) else 0o644)
    return dst


@pytest.fixture(scope="session")
def wycheproof_dir():
    d = pathlib.Path(os.environ.get("NCR_WYCHEPROOF_DIR",
                                    ROOT.parent / "shared/vectors/wycheproof"))
    if not d.is_dir():
        pytest.skip(f"Wycheproof vectors not found at {d} (../shared beside the repo)")
    return d


def _need_device():
    if not os.path.exists(DEVICE):
        pytest.skip(f"{DEVICE} missing: run inside scripts/vm with ncr.ko loaded")


@pytest.fixture
def dev():
    """An open /dev/crypto descriptor (one namespace), closed afterwards."""
    _need_device()
    fd = os.open(DEVICE, os.O_RDWR)
    yield fd
    os.close(fd)


@pytest.fixture
def n(dev):
    """An ncrio.Ncr on dev's namespace (its own descriptor, closed
    afterwards)."""
    with ncrio.Ncr(fd=os.dup(dev)) as x:
        yield x


@pytest.fixture
def ncr():
    """An ncrio.Ncr on a namespace of its own, closed afterwards."""
    _need_device()
    with ncrio.Ncr() as x:
        yield x


@pytest.fixture(scope="module")
def mat():
    """The end-to-end key material of e2e_util (keys in the kernel, their
    certificates), made once per module."""
    import e2e_util
    _need_device()
    return e2e_util.material()


def ensure_master_key():
    """Ensures the common test master key (0x00..0x1f) is set.

    A second set is refused or accepted depending on the storage code; either
    way the only key the VM suites ever set is this one, so a refusal because
    a key is already present counts as "set with this same key"."""
    _need_device()
    rc = master_key_set()
    if rc == errno.EOPNOTSUPP:
        pytest.skip("NCRIO_MASTER_KEY_SET not implemented yet (EOPNOTSUPP)")
    if rc not in (0, errno.EEXIST, errno.EBUSY, errno.EALREADY):
        raise OSError(rc, f"NCRIO_MASTER_KEY_SET failed: {os.strerror(rc)}")
    return TEST_MASTER_KEY


@pytest.fixture
def master_key():
    """The common test master key, set (ensure_master_key)."""
    return ensure_master_key()


@pytest.fixture
def module_reload():
    """Returns reload_module(params=(), set_master_key=True); whatever the
    test did, the module is reloaded with default parameters and the common
    master key afterwards."""
    used = []

    def _reload(params=(), set_master_key=True):
        used.append(True)
        reload_module(params, set_master_key)

    yield _reload
    if used:
        reload_module()
