"""Audit records of ncr.ko (driver/audit.c), read as the audit daemon would.

The test registers itself as the audit daemon over a NETLINK_AUDIT socket
(AUDIT_SET enabled=1, pid=self), so the kernel unicasts every record to it;
afterwards auditing is switched off and the registration dropped again.  No
auditd and no audit=1 boot parameter are needed.
"""
import errno
import os
import re
import select
import socket
import struct
import time

import pytest

from ncrio import (FLAG_EXPORTABLE, FLAG_WRAPPABLE, FLAG_WRAPPING, KEY_TYPE,
                   OP)
from pk_util import FFDHE2048_P, keyfiles

NETLINK_AUDIT = 9
AUDIT_GET, AUDIT_SET = 1000, 1001
AUDIT_KERNEL_OTHER = 1316
AUDIT_STATUS_ENABLED, AUDIT_STATUS_PID = 1, 4
NLM_F_REQUEST, NLM_F_ACK = 1, 4
NLMSG_ERROR = 2


class AuditSocket:
    def __init__(self):
        self.s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                               NETLINK_AUDIT)
        self.s.bind((0, 0))
        self.seq = 0

    def set_status(self, mask, enabled=0, pid=0):
        self.seq += 1
        body = struct.pack("=8I", mask, enabled, 0, pid, 0, 0, 0, 0)
        hdr = struct.pack("=IHHII", 16 + len(body), AUDIT_SET,
                          NLM_F_REQUEST | NLM_F_ACK, self.seq, 0)
        self.s.send(hdr + body)
        # wait for the ACK of this request (records may come first)
        deadline = time.time() + 5
        while time.time() < deadline:
            for typ, seq, payload in self._recv(deadline - time.time()):
                if typ == NLMSG_ERROR and seq == self.seq:
                    err = struct.unpack_from("=i", payload)[0]
                    if err:
                        raise OSError(-err, "AUDIT_SET: " + os.strerror(-err))
                    return
        raise TimeoutError("no ACK for AUDIT_SET")

    def _recv(self, timeout):
        r, _, _ = select.select([self.s], [], [], max(timeout, 0))
        if not r:
            return []
        data = self.s.recv(1 << 16)
        out, off = [], 0
        while off + 16 <= len(data):
            length, typ, _, seq, _ = struct.unpack_from("=IHHII", data, off)
            out.append((typ, seq, data[off + 16:off + length]))
            off += (length + 3) & ~3
        return out

    def records(self, want=None, timeout=5.0):
        """ncr records (dicts) received until `want` of them or timeout."""
        got, deadline = [], time.time() + timeout
        while time.time() < deadline and (want is None or len(got) < want):
            for typ, _, payload in self._recv(deadline - time.time()):
                text = payload.split(b"\0", 1)[0].decode(errors="replace")
                if typ == AUDIT_KERNEL_OTHER and "ncr_op=" in text:
                    rec = dict(re.findall(r'(\w+)=("[^"]*"|\S+)', text))
                    rec = {k: v.strip('"') for k, v in rec.items()}
                    if rec.get("pid") == str(os.getpid()):
                        got.append(rec)
        return got

    def close(self):
        self.s.close()


@pytest.fixture
def audit(dev):
    try:
        a = AuditSocket()
        a.set_status(AUDIT_STATUS_ENABLED | AUDIT_STATUS_PID, 1, os.getpid())
    except OSError as e:
        if e.errno == errno.EEXIST:
            pytest.skip("another audit daemon is registered")
        raise
    yield a
    a.set_status(AUDIT_STATUS_ENABLED | AUDIT_STATUS_PID, 0, 0)
    a.close()


def one(audit, op):
    recs = audit.records(1)
    assert len(recs) == 1, recs
    r = recs[0]
    assert r["ncr_op"] == op, r
    return r


def test_key_lifecycle_records(audit, n):
    k = n.key_init()
    n.key_generate(k, "cbc(aes)", 128, flags=FLAG_EXPORTABLE | FLAG_WRAPPABLE)
    r = one(audit, "key_generate")
    ns = r["ns"]
    assert r["handle"] == str(k) and r["algo"] == "cbc(aes)"
    assert re.fullmatch(r"[0-9a-f]{40}", r["key_id"]) and r["res"] == "1"
    assert r["uid"] == "0" and "comm" in r
    gen_id = r["key_id"]

    n.key_export(k)
    r = one(audit, "key_export")
    assert (r["ns"], r["handle"], r["key_id"], r["res"]) == (ns, str(k),
                                                             gen_id, "1")

    k2 = n.key_init()
    n.key_import(k2, bytes(16), "cbc(aes)", key_id=b"\xab\xcd\x01",
                 flags=FLAG_WRAPPING)
    r = one(audit, "key_import")
    assert (r["handle"], r["key_id"], r["algo"]) == (str(k2), "abcd01",
                                                     "cbc(aes)")
    # refused export: a failure record with the errno
    with pytest.raises(OSError):
        n.key_export(k2)
    r = one(audit, "key_export")
    assert (r["res"], r["errno"]) == ("0", str(errno.EPERM))

    wrapped = n.key_wrap(k2, k, algo="walg-aes-rfc3394")
    r = one(audit, "key_wrap")
    assert (r["handle"], r["key_id"], r["peer_handle"],
            r["peer_key_id"]) == (str(k), gen_id, str(k2), "abcd01")
    k3 = n.key_init()
    n.key_unwrap(k2, k3, wrapped, algo="walg-aes-rfc3394",
                 ALGORITHM="cbc(aes)")
    r = one(audit, "key_unwrap")
    assert (r["handle"], r["peer_handle"], r["res"]) == (str(k3), str(k2),
                                                         "1")

    n.key_deinit(k3)
    r = one(audit, "key_deinit")
    assert (r["handle"], r["res"], r["algo"]) == (str(k3), "1", "cbc(aes)")
    with pytest.raises(OSError):
        n.key_deinit(k3)
    r = one(audit, "key_deinit")
    assert (r["res"], r["errno"]) == ("0", str(errno.EINVAL))
    assert "key_id" not in r and r["algo"] == "?"


def test_session_records(audit, n):
    rsa = keyfiles("rsa2048")
    k = n.key_init()
    n.key_import(k, rsa.priv_der, "rsa", key_type=KEY_TYPE.PRIVATE,
                 key_id=b"\x01\x02")
    r = one(audit, "key_import")
    assert (r["algo"], r["key_id"]) == ("rsa", "0102")
    s = n.session_init(OP.SIGN, "rsa", key=k, RSA_ENCODING_METHOD=0,
                       SIGNATURE_HASH_ALGORITHM="sha256")
    r = one(audit, "session_init")
    assert (r["crypto_op"], r["algo"], r["handle"], r["key_id"],
            r["res"]) == ("sign", "rsa", str(k), "0102", "1")
    # update/final are no life-cycle events: nothing recorded
    n.session_final(s, data=b"m", final_out_size=256)
    assert audit.records(timeout=1.0) == []
    # failures, and a caller-chosen algorithm name shown in hex
    with pytest.raises(OSError):
        n.session_init(OP.DECRYPT, "nope", key=k)
    r = one(audit, "session_init")
    assert (r["crypto_op"], r["algo"], r["res"], r["errno"]) == (
        "decrypt", "nope", "0", str(errno.EINVAL))
    with pytest.raises(OSError):
        n.session_once(OP.SIGN, "a b\"c", key=k)
    r = one(audit, "session_init")
    assert r["algo"] == b'a b"c'.hex()


def test_pair_derive_and_storage_records(master_key, audit, n):
    p = FFDHE2048_P.to_bytes(256, "big")
    priv, pub = n.key_init(), n.key_init()
    n.key_generate_pair(priv, pub, "dh", DH_PRIME=p, DH_BASE=b"\x02")
    r = one(audit, "key_generate_pair")
    assert (r["handle"], r["peer_handle"], r["algo"]) == (str(priv),
                                                          str(pub), "dh")
    assert r["key_id"] == r["peer_key_id"]      # shared ID of a pair
    nk = n.key_init()
    n.key_derive(priv, nk, DH_PUBLIC=b"\x05", flags=FLAG_WRAPPABLE)
    r = one(audit, "key_derive")
    assert (r["handle"], r["peer_handle"], r["res"]) == (str(nk), str(priv),
                                                         "1")
    sk = n.key_init()
    n.key_generate(sk, "cbc(aes)", 256, flags=FLAG_WRAPPABLE)
    gen_id = one(audit, "key_generate")["key_id"]
    blob = n.storage_wrap(sk)
    r = one(audit, "key_storage_wrap")
    assert (r["handle"], r["key_id"], r["res"]) == (str(sk), gen_id, "1")
    sk2 = n.key_init()
    n.storage_unwrap(sk2, blob)
    r = one(audit, "key_storage_unwrap")
    assert (r["handle"], r["key_id"], r["algo"], r["res"]) == (
        str(sk2), gen_id, "cbc(aes)", "1")
    with pytest.raises(OSError):
        n.storage_unwrap(sk2, blob[:-1])
    r = one(audit, "key_storage_unwrap")
    assert r["res"] == "0"


def test_no_records_when_disabled(audit, n):
    audit.set_status(AUDIT_STATUS_ENABLED, 0)
    k = n.key_init()
    n.key_generate(k, "cbc(aes)", 128)
    n.key_deinit(k)
    assert audit.records(timeout=1.5) == []
    audit.set_status(AUDIT_STATUS_ENABLED, 1)
    k = n.key_init()
    n.key_generate(k, "cbc(aes)", 128)
    assert one(audit, "key_generate")["res"] == "1"
