"""tools/ncrctl in the VM: every failure class gives its documented exit
code (tools/ncrctl.8) and a message naming the file or device and the
problem; the boot flow (no master key -> load -> set) works.
"""
import configparser
import os
import pathlib
import subprocess

import pytest

from conftest import BUILD, ROOT, TEST_MASTER_KEY, world_copy
from ncrio import FLAG_WRAPPABLE, Ncr
from priv_util import CAP_SYS_ADMIN, drop_caps

EXIT = dict(ok=0, usage=2, exists=3, file_io=4, insecure=5, bad_size=6,
            no_device=7, denied=8, key_busy=9, kernel=10, no_master=12,
            tpm=17)


@pytest.fixture(scope="module")
def ncrctl():
    p = pathlib.Path(os.environ.get("NCRCTL", BUILD / "tools" / "ncrctl"))
    if not p.exists():
        pytest.skip(f"ncrctl not built at {p}")
    return str(p)


def run(ncrctl, *args, preexec=None):
    r = subprocess.run([ncrctl, *args], capture_output=True, text=True,
                       preexec_fn=preexec)
    return r.returncode, r.stdout, r.stderr


def key_file(path, data=TEST_MASTER_KEY, mode=0o600, uid=0):
    path.write_bytes(data)
    os.chmod(path, mode)
    os.chown(path, uid, uid)
    return str(path)


def test_usage(ncrctl):
    assert run(ncrctl)[0] == EXIT["usage"]
    assert run(ncrctl, "master-key")[0] == EXIT["usage"]
    assert run(ncrctl, "master-key", "frobnicate", "x")[0] == EXIT["usage"]
    assert run(ncrctl, "master-key", "boot", "--plain")[0] == EXIT["usage"]
    assert run(ncrctl, "master-key", "provision", "--from", "a",
               "--backup", "b")[0] == EXIT["usage"]
    rc, out, _ = run(ncrctl, "--help")
    assert rc == 0 and "master-key generate" in out


def test_generate(ncrctl, tmp_path):
    f = tmp_path / "master.key"
    rc, out, _ = run(ncrctl, "master-key", "generate", str(f))
    assert rc == EXIT["ok"] and str(f) in out
    st = f.stat()
    assert st.st_size == 32 and st.st_mode & 0o7777 == 0o600
    first = f.read_bytes()
    assert first != bytes(32)
    # never overwrites, names the file
    rc, _, err = run(ncrctl, "master-key", "generate", str(f))
    assert rc == EXIT["exists"] and str(f) in err and "exists" in err
    assert f.read_bytes() == first
    # nor through a symlink (dangling or not)
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "nowhere")
    assert run(ncrctl, "master-key", "generate", str(link))[0] == \
        EXIT["exists"]
    assert not (tmp_path / "nowhere").exists()
    # a directory that does not exist
    rc, _, err = run(ncrctl, "master-key", "generate",
                     str(tmp_path / "no" / "such"))
    assert rc == EXIT["file_io"] and "cannot create" in err
    # two keys differ
    g = tmp_path / "second.key"
    run(ncrctl, "master-key", "generate", str(g))
    assert g.read_bytes() != first


def test_load_refuses_bad_files(ncrctl, tmp_path, master_key):
    cases = [
        (key_file(tmp_path / "m644", mode=0o644), "insecure", "mode 0644"),
        (key_file(tmp_path / "m640", mode=0o640), "insecure", "mode 0640"),
        (key_file(tmp_path / "m400", mode=0o400), "insecure", "mode 0400"),
        (key_file(tmp_path / "nobody", uid=65534), "insecure",
         "owned by uid 65534"),
        (key_file(tmp_path / "short", data=bytes(31)), "bad_size",
         "31 bytes"),
        (key_file(tmp_path / "long", data=bytes(40)), "bad_size",
         "more than 32 bytes"),
        (key_file(tmp_path / "empty", data=b""), "bad_size", "0 bytes"),
        (str(tmp_path / "missing"), "file_io", "cannot open"),
    ]
    (tmp_path / "sym").symlink_to(tmp_path / "m644")
    cases.append((str(tmp_path / "sym"), "insecure", "symbolic link"))
    d = tmp_path / "dir"
    d.mkdir(mode=0o600)
    cases.append((str(d), "insecure", "not a regular file"))
    for path, cls, text in cases:
        rc, _, err = run(ncrctl, "master-key", "load", path)
        assert (rc, path in err, text in err) == (EXIT[cls], True, True), \
            (path, rc, err)


def test_load_same_and_different_key(ncrctl, tmp_path, master_key):
    same = key_file(tmp_path / "same")
    rc, out, _ = run(ncrctl, "master-key", "load", same)
    assert rc == EXIT["ok"] and "master key set" in out
    other = key_file(tmp_path / "other", data=os.urandom(32))
    rc, _, err = run(ncrctl, "master-key", "load", other)
    assert rc == EXIT["key_busy"] and other in err and "different" in err
    # a 16-byte file is a valid size, but still another key
    short = key_file(tmp_path / "k16", data=os.urandom(16))
    assert run(ncrctl, "master-key", "load", short)[0] == EXIT["key_busy"]


def test_load_privileges(ncrctl, world_dir, master_key):
    # Both in a directory anyone can enter, so that what nobody is refused
    # is the key file itself (root's 0600), not the path to it.
    f = key_file(world_dir / "k")
    ncrctl = str(world_copy(ncrctl, world_dir))

    def as_nobody():
        os.setgid(65534)
        os.setuid(65534)

    # nobody cannot even read the root-only file
    rc, _, err = run(ncrctl, "master-key", "load", f, preexec=as_nobody)
    assert rc == EXIT["file_io"] and f in err and "Permission denied" in err
    # root without CAP_SYS_ADMIN reads it, and the kernel says no
    rc, _, err = run(ncrctl, "master-key", "load", f,
                     preexec=lambda: drop_caps([CAP_SYS_ADMIN]))
    assert rc == EXIT["denied"] and "CAP_SYS_ADMIN" in err, err


def test_status(ncrctl, master_key):
    rc, out, _ = run(ncrctl, "status")
    assert rc == EXIT["ok"], out
    for text in ("module: loaded", "device: /dev/crypto", "master key: set",
                 "max_keys_per_process", "cbc(aes)", "hmac(sha256)",
                 "hashes: ", " sha256",
                 "walg-aes-rfc3394", "walg-aes-rfc5649"):
        assert text in out, (text, out)


def test_boot_flow(ncrctl, tmp_path, module_reload):
    """What ncr-master-key.service does after the module is loaded."""
    module_reload(set_master_key=False)
    rc, out, _ = run(ncrctl, "status")
    assert rc == EXIT["no_master"] and "master key: not set" in out
    f = key_file(tmp_path / "master.key")
    assert run(ncrctl, "master-key", "load", f)[0] == EXIT["ok"]
    assert run(ncrctl, "master-key", "load", f)[0] == EXIT["ok"]  # idempotent
    rc, out, _ = run(ncrctl, "status")
    assert rc == EXIT["ok"] and "master key: set" in out
    with Ncr() as n:
        k = n.secret_key(os.urandom(16), "ecb(aes)", flags=FLAG_WRAPPABLE)
        assert len(n.storage_wrap(k)) == 48


def test_module_not_loaded(ncrctl, tmp_path, module_reload):
    f = key_file(tmp_path / "master.key")
    subprocess.run(["rmmod", "ncr"], check=True)
    try:
        rc, _, err = run(ncrctl, "status")
        assert rc == EXIT["no_device"] and "not loaded" in err
        rc, _, err = run(ncrctl, "master-key", "load", f)
        assert rc == EXIT["no_device"] and "/dev/crypto" in err
    finally:
        module_reload()


def test_systemd_unit():
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str
    unit.read(ROOT / "tools" / "ncr-master-key.service")
    svc = unit["Service"]
    assert svc["Type"] == "oneshot"
    # the key reaches ncrctl on a pipe from systemd-creds, never as a
    # credential file
    assert svc["ExecStart"].split() == [
        "/usr/sbin/ncrctl", "master-key", "boot"]
    assert "LoadCredentialEncrypted" not in svc
    assert "systemd-modules-load.service" in unit["Unit"]["After"]
    assert "nginx.service" in unit["Unit"]["Before"]
    assert unit["Install"]["WantedBy"] == "multi-user.target"


def run_no_tpm(ncrctl, *args):
    """run() on a /dev of its own that has /dev/crypto and /dev/null but no
    TPM (a private mount namespace), whether the VM has a TPM or not."""
    rdev = os.stat("/dev/crypto").st_rdev
    script = ("mount -t tmpfs -o mode=755 ncr-no-tpm /dev && "
              f"mknod -m 666 /dev/crypto c {os.major(rdev)} {os.minor(rdev)}"
              " && mknod -m 666 /dev/null c 1 3 && exec \"$@\"")
    return run("unshare", "-m", "--propagation", "private", "sh", "-c",
               script, "sh", ncrctl, *args)


def test_boot_without_tpm(ncrctl, tmp_path, module_reload):
    """`master-key boot`, the unit's command, on a machine without TPM:
    nothing to load is exit 12 naming both stores; the plain key file is
    loaded when there is no sealed key; a sealed key is never skipped for
    the plain file, and without a TPM it fails with one line and is left
    as it is."""
    module_reload(set_master_key=False)
    sealed = tmp_path / "credstore" / "ncr-master-key"
    plain = tmp_path / "master.key"
    boot = ("master-key", "boot", "--sealed", str(sealed),
            "--plain", str(plain))
    rc, out, err = run_no_tpm(ncrctl, *boot)
    assert rc == EXIT["no_master"], (out, err)
    assert str(sealed) in err and str(plain) in err
    assert len(err.splitlines()) == 1 and not out
    rc, out, _ = run_no_tpm(ncrctl, "status")
    assert "master key: not set" in out and "tpm2: none" in out
    key_file(plain)
    rc, out, err = run_no_tpm(ncrctl, *boot)
    assert rc == EXIT["ok"] and f"{plain}: master key set" in out, err
    sealed.parent.mkdir(mode=0o700)
    sealed.write_bytes(b"a credential sealed on some other machine")
    rc, out, err = run_no_tpm(ncrctl, *boot)
    assert rc == EXIT["tpm"], (out, err)
    assert len(err.splitlines()) == 1 and str(sealed) in err
    assert "no /dev/tpmrm0" in err and "untouched" in err
    assert sealed.read_bytes() == b"a credential sealed on some other machine"


def test_provision_without_tpm(ncrctl, tmp_path, module_reload):
    """Provisioning needs a TPM: without one it says so and leaves
    nothing behind (no sealed file, no backup, no master key); a sealed
    key already there is never replaced without --force."""
    module_reload(set_master_key=False)
    sealed = tmp_path / "credstore" / "ncr-master-key"
    backup = tmp_path / "backup.key"
    rc, out, err = run_no_tpm(ncrctl, "master-key", "provision",
                              "--sealed", str(sealed), "--backup",
                              str(backup))
    assert rc == EXIT["tpm"] and "no TPM2" in err, (out, err)
    assert not sealed.exists() and not backup.exists()
    rc, out, _ = run_no_tpm(ncrctl, "status")
    assert "master key: not set" in out
    sealed.parent.mkdir(mode=0o700)
    sealed.write_bytes(b"sealed")
    rc, _, err = run_no_tpm(ncrctl, "master-key", "provision", "--sealed",
                            str(sealed))
    assert rc == EXIT["exists"] and "--force" in err
    # --force without --from would throw the only sealed copy away
    rc, _, err = run_no_tpm(ncrctl, "master-key", "provision", "--sealed",
                            str(sealed), "--force")
    assert rc == EXIT["exists"] and "move the file away" in err
    assert sealed.read_bytes() == b"sealed"


def test_systemd_unit_verifies(tmp_path):
    """systemd-analyze accepts the unit (with ncrctl where it was built)."""
    sa = pathlib.Path("/usr/bin/systemd-analyze")
    if not sa.exists():
        pytest.skip("no systemd-analyze")
    text = (ROOT / "tools" / "ncr-master-key.service").read_text()
    ncrctl = BUILD / "tools" / "ncrctl"
    f = tmp_path / "ncr-master-key.service"
    f.write_text(text.replace("/usr/sbin/ncrctl", str(ncrctl)))
    r = subprocess.run([str(sa), "verify", "--man=no", str(f)],
                       capture_output=True, text=True, timeout=120)
    lines = [ln for ln in (r.stdout + r.stderr).splitlines()
             if f.name in ln or "ncrctl" in ln]
    assert r.returncode == 0 and not lines, r.stdout + r.stderr


def test_compat_32bit(ncrctl, tmp_path, module_reload):
    """The same tool built -m32 drives the compat_ioctl path (master key
    set, storage wrap probe, key generate/import/wrap, session once): it
    must see exactly what the native build sees."""
    ncrctl32 = pathlib.Path(ncrctl).with_name("ncrctl32")
    if not ncrctl32.exists():
        pytest.skip(f"{ncrctl32} not built (needs gcc-multilib)")
    ncrctl32 = str(ncrctl32)
    module_reload(set_master_key=False)
    rc32, out32, _ = run(ncrctl32, "status")
    rc64, out64, _ = run(ncrctl, "status")
    assert (rc32, out32) == (rc64, out64) == (EXIT["no_master"], out64)
    f = key_file(tmp_path / "master.key")
    rc, out, _ = run(ncrctl32, "master-key", "load", f)
    assert rc == EXIT["ok"] and "master key set" in out
    rc32, out32, _ = run(ncrctl32, "status")
    rc64, out64, _ = run(ncrctl, "status")
    assert rc32 == rc64 == EXIT["ok"] and out32 == out64
    assert "walg-aes-rfc5649" in out32 and "master key: set" in out32
    other = key_file(tmp_path / "other", data=os.urandom(24))
    assert run(ncrctl32, "master-key", "load", other)[0] == EXIT["key_busy"]
    rc, _, err = run(ncrctl32, "master-key", "load", f,
                     preexec=lambda: drop_caps([CAP_SYS_ADMIN]))
    assert rc == EXIT["denied"], err
