"""The storage master key sealed to a TPM2 (`ncrctl master-key provision`
and `boot`, tools/ncrctl.8) against a real TPM 2.0 (swtpm, attached by
`scripts/vm --tpm`) through systemd-creds: provisioning, loading at boot,
first-boot provisioning, a cleared TPM (one line, nothing changed), and
recovery from the backup.  Stores are under tmp_path (--sealed/--plain);
the fixed /etc paths are the same code.
"""
import os
import shutil
import subprocess

import pytest

from ncrio import FLAG_WRAPPABLE, Ncr
from test_ncrctl import EXIT, key_file, ncrctl, run  # noqa: F401 (fixture)

pytestmark = pytest.mark.skipif(
    not os.path.exists("/dev/tpmrm0"),
    reason="no TPM in this VM (scripts/vm --tpm attaches one)")


@pytest.fixture
def fresh(module_reload):
    """A module without master key (module_reload restores the usual one
    afterwards)."""
    module_reload(set_master_key=False)


def blob_now():
    """A storage blob under the master key set now, and its key bytes."""
    secret = os.urandom(16)
    with Ncr() as n:
        k = n.secret_key(secret, "ecb(aes)", flags=FLAG_WRAPPABLE)
        return n.storage_wrap(k)


def opens(blob):
    with Ncr() as n:
        try:
            n.storage_unwrap(n.key_init(), blob)
            return True
        except OSError:
            return False


def master_key_set(ncrctl):
    return "master key: set" in run(ncrctl, "status")[1]


def test_provision_boot_clear_recover(ncrctl, tmp_path, module_reload,
                                      fresh):
    sealed = tmp_path / "credstore" / "ncr-master-key"
    backup = tmp_path / "backup.key"
    prov = ("master-key", "provision", "--sealed", str(sealed))
    boot = ("master-key", "boot", "--sealed", str(sealed),
            "--plain", str(tmp_path / "none"))

    rc, out, err = run(ncrctl, *prov, "--backup", str(backup))
    assert rc == EXIT["ok"], (out, err)
    assert "sealed to this machine's TPM2" in out and "master key set" in out
    st = backup.stat()
    assert st.st_size == 32 and st.st_mode & 0o7777 == 0o600
    assert sealed.stat().st_mode & 0o7777 == 0o600
    # the sealed blob does not hold the key in clear
    assert backup.read_bytes() not in sealed.read_bytes()
    blob = blob_now()
    # the kernel holds exactly the backup's key: loading it is idempotent
    assert run(ncrctl, "master-key", "load", str(backup))[0] == EXIT["ok"]

    # a new key while the kernel holds one: refused, nothing sealed
    other = tmp_path / "other" / "ncr-master-key"
    rc, _, err = run(ncrctl, "master-key", "provision", "--sealed", str(other))
    assert rc == EXIT["key_busy"] and "rotate" in err and not other.exists()
    # another key file's key while the kernel holds this one: same
    f = key_file(tmp_path / "another.key", os.urandom(32))
    rc, _, err = run(ncrctl, "master-key", "provision", "--sealed",
                     str(other), "--from", f)
    assert rc == EXIT["key_busy"] and not other.exists(), err

    # next boot: the sealed key comes back and opens the blob
    module_reload(set_master_key=False)
    assert not opens(blob)
    rc, out, err = run(ncrctl, *boot)
    assert rc == EXIT["ok"] and f"{sealed}: master key set" in out, err
    assert opens(blob)
    sealed_bytes = sealed.read_bytes()

    # the TPM is cleared (with the lockout hierarchy: the firmware set a
    # platform password): boot fails with one line, changes nothing
    subprocess.run(["tpm2_clear", "-c", "l"], check=True,
                   capture_output=True, timeout=120)
    module_reload(set_master_key=False)
    rc, out, err = run(ncrctl, *boot)
    assert rc == EXIT["tpm"], (out, err)
    assert len(err.splitlines()) == 1 and "cannot unseal" in err, err
    assert "untouched" in err and str(sealed) in err
    assert sealed.read_bytes() == sealed_bytes
    assert not master_key_set(ncrctl)

    # recovery: the backup re-sealed to the TPM as it is now
    rc, _, err = run(ncrctl, *prov, "--from", str(backup))
    assert rc == EXIT["exists"] and "--force" in err
    rc, out, err = run(ncrctl, *prov, "--from", str(backup), "--force")
    assert rc == EXIT["ok"], (out, err)
    assert opens(blob)
    module_reload(set_master_key=False)
    rc, out, err = run(ncrctl, *boot)
    assert rc == EXIT["ok"] and opens(blob), (out, err)


def test_first_boot_provisions(ncrctl, tmp_path, fresh):
    """boot with no store and a TPM: a new key, sealed, set; with a plain
    key file there, that file is loaded and nothing is sealed."""
    sealed = tmp_path / "credstore" / "ncr-master-key"
    plain = tmp_path / "master.key"
    boot = ("master-key", "boot", "--sealed", str(sealed),
            "--plain", str(plain))
    key_file(plain, os.urandom(32))
    rc, out, err = run(ncrctl, *boot)
    assert rc == EXIT["ok"] and f"{plain}: master key set" in out, err
    assert not sealed.exists()


def test_first_boot_without_plain_file(ncrctl, tmp_path, fresh):
    sealed = tmp_path / "credstore" / "ncr-master-key"
    rc, out, err = run(ncrctl, "master-key", "boot", "--sealed", str(sealed),
                       "--plain", str(tmp_path / "none"))
    assert rc == EXIT["ok"], (out, err)
    assert "sealed to this machine's TPM2" in out and sealed.exists()
    assert master_key_set(ncrctl)
    assert opens(blob_now())


def test_unseal_of_a_damaged_blob(ncrctl, tmp_path, fresh):
    sealed = tmp_path / "credstore" / "ncr-master-key"
    rc, out, err = run(ncrctl, "master-key", "provision", "--sealed",
                       str(sealed))
    assert rc == EXIT["ok"], (out, err)
    data = bytearray(sealed.read_bytes())
    data[len(data) // 2] ^= 1
    bad = tmp_path / "bad"
    bad.mkdir(mode=0o700)
    (bad / "ncr-master-key").write_bytes(bytes(data))
    shutil.copymode(sealed, bad / "ncr-master-key")
    rc, out, err = run(ncrctl, "master-key", "boot", "--sealed",
                       str(bad / "ncr-master-key"), "--plain",
                       str(tmp_path / "none"))
    # the module still holds the provisioned key: a damaged blob must be
    # refused before the kernel is asked (not EBUSY)
    assert rc == EXIT["tpm"] and len(err.splitlines()) == 1, (out, err)


def test_backup_file_never_overwritten(ncrctl, tmp_path, fresh):
    """--backup onto a file that exists: refused, the file kept, nothing
    sealed, no master key set."""
    sealed = tmp_path / "credstore" / "ncr-master-key"
    backup = tmp_path / "backup.key"
    backup.write_bytes(b"an older backup")
    rc, out, err = run(ncrctl, "master-key", "provision", "--sealed",
                       str(sealed), "--backup", str(backup))
    assert rc == EXIT["exists"] and str(backup) in err, (out, err)
    assert backup.read_bytes() == b"an older backup"
    assert not sealed.exists() and not master_key_set(ncrctl)


def test_failed_seal_removes_only_its_own_backup(ncrctl, tmp_path, fresh):
    """A seal that fails after --backup wrote a new key (PCR 99 does not
    exist): the backup of a key that was never sealed is removed, nothing
    is left beside the store, no master key is set."""
    sealed = tmp_path / "credstore" / "ncr-master-key"
    backup = tmp_path / "backup.key"
    rc, out, err = run(ncrctl, "master-key", "provision", "--sealed",
                       str(sealed), "--backup", str(backup),
                       "--tpm2-pcrs", "99")
    assert rc == EXIT["tpm"] and "did not seal" in err, (out, err)
    assert len(err.splitlines()) == 1, (out, err)
    assert not backup.exists()
    assert list(tmp_path.rglob("ncr-master-key*")) == []
    assert not master_key_set(ncrctl)
