"""Reference AES key wrap (RFC 3394) and key wrap with padding (RFC 5649)
in Python, with a choosable IV / AIV, on top of the `cryptography`
package's AES-ECB.  Used by the VM suites to compute what the kernel must
produce, and to build or open storage blobs under a known master key.
(With the default IVs it is cross-checked against cryptography's own
keywrap module in test_wrap.py.)
"""
import struct

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

KW_IV = bytes.fromhex("a6a6a6a6a6a6a6a6")
KWP_AIV = bytes.fromhex("a65959a6")


class IntegrityError(Exception):
    pass


def _ecb(key, encrypt):
    c = Cipher(algorithms.AES(key), modes.ECB())
    return c.encryptor() if encrypt else c.decryptor()


def _w(key, a, r):
    enc = _ecb(key, True)
    n = len(r)
    for j in range(6):
        for i in range(n):
            b = enc.update(a + r[i])
            t = n * j + i + 1
            a = (int.from_bytes(b[:8], "big") ^ t).to_bytes(8, "big")
            r[i] = b[8:]
    return a + b"".join(r)


def _w_inv(key, c):
    dec = _ecb(key, False)
    a, r = c[:8], [c[i:i + 8] for i in range(8, len(c), 8)]
    n = len(r)
    for j in range(5, -1, -1):
        for i in range(n - 1, -1, -1):
            t = n * j + i + 1
            a = (int.from_bytes(a, "big") ^ t).to_bytes(8, "big")
            b = dec.update(a + r[i])
            a, r[i] = b[:8], b[8:]
    return a, b"".join(r)


def kw_wrap(key, data, iv=KW_IV):
    assert len(data) % 8 == 0 and len(data) >= 16
    return _w(key, iv, [data[i:i + 8] for i in range(0, len(data), 8)])


def kw_unwrap(key, data, iv=KW_IV):
    if len(data) % 8 or len(data) < 24:
        raise ValueError("length")
    a, p = _w_inv(key, data)
    if a != iv:
        raise IntegrityError()
    return p


def kwp_wrap(key, data, aiv=KWP_AIV):
    assert 1 <= len(data)
    a = aiv + struct.pack(">I", len(data))
    p = data + b"\0" * (-len(data) % 8)
    if len(p) == 8:
        return _ecb(key, True).update(a + p)
    return _w(key, a, [p[i:i + 8] for i in range(0, len(p), 8)])


def kwp_unwrap(key, data, aiv=KWP_AIV):
    if len(data) % 8 or len(data) < 16:
        raise ValueError("length")
    if len(data) == 16:
        b = _ecb(key, False).update(data)
        a, p = b[:8], b[8:]
    else:
        a, p = _w_inv(key, data)
    mli = struct.unpack(">I", a[4:])[0]
    if a[:4] != aiv or not len(p) - 8 < mli <= len(p) or any(p[mli:]):
        raise IntegrityError()
    return p[:mli]
