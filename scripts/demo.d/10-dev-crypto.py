#!/usr/bin/python3
"""Demo step: a kernel-held AES key and a SHA-256 hash through /dev/crypto
(the NCR ioctls, via the Python binding test/vm/ncrio.py)."""
import errno
import hashlib
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../test/vm"))
from ncrio import ATTR, OP, Ncr  # noqa: E402


def say(msg=""):
    print("   " + msg, flush=True)


def pkcs7(data):
    n = 16 - len(data) % 16
    return data + bytes([n]) * n


def main():
    message = b"Kernel-held keys: the program never sees them."
    with Ncr() as n:
        say(f"Opened /dev/crypto (fd {n.fd}); this descriptor is a private "
            "namespace of keys and sessions.")

        key = n.key_init()
        n.key_generate(key, "cbc(aes)", 256, flags=0)
        info = n.key_get_info(key)
        say(f"The kernel generated an AES-256 key: handle {key}, algorithm "
            f"{info.get(ATTR.ALGORITHM)!r}, flags {info.get(ATTR.KEY_FLAGS)} "
            f"(not exportable), key ID {info.get(ATTR.KEY_ID, b'').hex()}.")
        try:
            n.key_export(key)
            say("!! KEY_EXPORT returned the key bytes: that must not happen")
            return 1
        except OSError as e:
            if e.errno != errno.EPERM:
                raise
            say("Asked the kernel for the key bytes (KEY_EXPORT): refused "
                "with EPERM, as it should be. We only hold a handle.")

        iv = os.urandom(16)
        plain = pkcs7(message)
        ct = n.session_once(OP.ENCRYPT, "cbc(aes)", key=key, iv=iv, data=plain)
        say(f"Encrypted {len(message)} bytes (PKCS#7 padded to {len(plain)}) "
            f"with AES-256-CBC in one call (SESSION_ONCE), IV {iv.hex()}:")
        say(f"  ciphertext {ct.hex()}")
        assert ct != plain

        ses = n.session_init(OP.DECRYPT, "cbc(aes)", key=key, iv=iv)
        part1 = n.session_update(ses, ct[:16])
        _, outs = n.session_final(ses, data=ct[16:], out_size=len(ct) - 16)
        back = part1 + outs[0]
        back = back[:-back[-1]]
        say("Decrypted it again in a multi-step session (SESSION_INIT, "
            f"UPDATE, FINAL): {back.decode()!r}")
        if back != message:
            say("!! decryption did not give the message back")
            return 1

        # Correctness against OpenSSL needs a key both sides know: import
        # one (exportable) and compare with `openssl enc`.
        k2 = os.urandom(32)
        h2 = n.secret_key(k2, "cbc(aes)")
        ct2 = n.session_once(OP.ENCRYPT, "cbc(aes)", key=h2, iv=iv, data=plain)
        ref = subprocess.run(
            ["openssl", "enc", "-aes-256-cbc", "-nopad", "-K", k2.hex(),
             "-iv", iv.hex()], input=plain, capture_output=True, check=True)
        same = ref.stdout == ct2
        say("Cross-check: with an imported key, the kernel's AES-256-CBC "
            f"output {'matches' if same else 'DIFFERS FROM'} `openssl enc`.")
        if not same:
            return 1

        digest = n.session_once(OP.SIGN, "sha256", data=message)
        say(f"SHA-256 of the message through the kernel: {digest.hex()}")
        ok = digest == hashlib.sha256(message).digest()
        say(f"Python's hashlib {'agrees' if ok else 'DISAGREES'}.")
        if not ok:
            return 1
        saved_key = key

    with Ncr() as other:
        try:
            other.key_get_info(saved_key)
            say("!! a new descriptor sees the old key")
            return 1
        except OSError as e:
            say(f"Closed the descriptor: handle {saved_key} is gone; a new "
                f"open() does not know it ({errno.errorcode[e.errno]}). The "
                "key never left the kernel and now no longer exists.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
