"""Runs the C ABI test (test/abi/abi_test.c) in both ABIs inside the VM.

The 64-bit binary uses the native ioctls, the 32-bit static one the
module's compat_ioctl path; both must pass and print the same log (only
the first line, which names the ABI, differs).
"""
import os
import pathlib
import subprocess

import pytest

BUILD = pathlib.Path(os.environ.get(
    "NCR_BUILD", pathlib.Path(__file__).resolve().parents[2] / "build"))
ABI_DIR = BUILD / "test" / "abi"


def run_abi(bits):
    exe = ABI_DIR / ("abi_test%d" % bits)
    if not exe.exists():
        pytest.fail("%s not built (cmake --build build)" % exe)
    p = subprocess.run([str(exe)], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=900)
    return p.returncode, p.stdout.decode(errors="replace")


@pytest.fixture(scope="module")
def logs():
    return {bits: run_abi(bits) for bits in (64, 32)}


def failed_lines(log):
    return [l for l in log.splitlines() if l.startswith("not ok")]


@pytest.mark.parametrize("bits", [64, 32])
def test_abi_passes(logs, bits):
    rc, log = logs[bits]
    assert rc == 0 and not failed_lines(log), \
        "abi_test%d failed:\n%s" % (bits, log)
    plan = [l for l in log.splitlines() if l.startswith("1..")]
    assert plan and int(plan[0][3:]) > 150, "too few tests ran:\n" + log


def test_abi_32_equals_64(logs):
    body64 = logs[64][1].splitlines()[1:]
    body32 = logs[32][1].splitlines()[1:]
    assert body64 == body32


def test_random_attributes_do_not_hurt():
    """Every attribute-taking ioctl (but MASTER_KEY_SET, which could set a
    key for the module's lifetime) fed mutated attribute streams and sizes:
    each call must fail or succeed cleanly (scripts/vm fails the run on any
    kernel warning), and the namespace must still work afterwards."""
    import errno
    import random
    import struct as st
    import ncrio
    from ncrio import Ncr, ATTR, OP, encode

    rnd = random.Random(20101)
    n = Ncr()
    key = n.secret_key(bytes(16), "cbc(aes)")
    spare = n.key_init()
    good = [
        encode(ATTR.ALGORITHM, "cbc(aes)"), encode(ATTR.KEY, key),
        encode(ATTR.KEY_TYPE, 1), encode(ATTR.KEY_FLAGS, 1),
        encode(ATTR.IV, bytes(16)), encode(ATTR.SECRET_KEY_BITS, 128),
        encode(ATTR.WANTED_ATTRS, st.pack("=4H", 1, 11, 12, 13)),
        encode(ATTR.ALGORITHM, "sha256"), encode(ATTR.ALGORITHM, "rsa"),
        encode(ATTR.WRAPPING_ALGORITHM, ncrio.WALG_AES_RFC3394),
        encode(ATTR.UPDATE_INPUT_KEY_AS_DATA, key),
    ]
    structs = {
        "KEY_GENERATE": lambda: ncrio.key_generate(key=spare),
        "KEY_GENERATE_PAIR": lambda: ncrio.key_generate_pair(
            private_key=spare, public_key=spare + 1000),
        "KEY_DERIVE": lambda: ncrio.key_derive(input_key=key,
                                               new_key=spare),
        "KEY_GET_INFO": lambda: ncrio.key_get_info(key=key),
        "KEY_EXPORT": lambda: ncrio.key_export(key=key),
        "KEY_IMPORT": lambda: ncrio.key_import(key=spare),
        "KEY_WRAP": lambda: ncrio.key_wrap(wrapping_key=key,
                                           source_key=key),
        "KEY_UNWRAP": lambda: ncrio.key_unwrap(wrapping_key=key,
                                               dest_key=spare),
        "KEY_STORAGE_WRAP": lambda: ncrio.key_storage_wrap(key=key),
        "KEY_STORAGE_UNWRAP": lambda: ncrio.key_storage_unwrap(key=spare),
        "SESSION_INIT": lambda: ncrio.session_init_s(op=rnd.randint(0, 5)),
        "SESSION_UPDATE": lambda: ncrio.session_update_s(ses=rnd.randint(0, 3)),
        "SESSION_FINAL": lambda: ncrio.session_final_s(ses=rnd.randint(0, 3)),
        "SESSION_ONCE": lambda: ncrio.session_once_s(op=rnd.randint(0, 5)),
    }
    names = sorted(structs)
    seen = set()
    for i in range(1500):
        attrs = b"".join(rnd.choice(good) for _ in range(rnd.randint(0, 6)))
        raw = bytearray(attrs)
        for _ in range(rnd.randint(0, 4)):
            if raw:
                raw[rnd.randrange(len(raw))] = rnd.randrange(256)
        if rnd.random() < 0.2:
            raw += bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 9)))
        name = rnd.choice(names)
        s = structs[name]()
        fixed = ncrio.ctypes.sizeof(s)
        insz = None if rnd.random() < 0.8 else rnd.choice(
            [0, 1, fixed - 1, fixed + len(raw) + 5, 0xFFFFFFFF])
        outsz = None if rnd.random() < 0.8 else rnd.choice(
            [0, 1, fixed, fixed + 3, 0xFFFFFFFF])
        try:
            n.call(name, s, bytes(raw), out_room=64, input_size=insz,
                   output_size=outsz)
            seen.add("ok")
        except OSError as e:
            assert e.errno != errno.ENOTTY, name
            seen.add(e.errno)
    # some calls succeeded and the namespace is intact
    assert "ok" in seen and errno.EINVAL in seen
    ct = n.session_once(OP.ENCRYPT, "ecb(aes)", key=n.secret_key(
        bytes(16), "ecb(aes)"), data=bytes(16))
    assert ct.hex() == "66e94bd4ef8a2c3b884cfa59ca342b2e"
    n.close()
