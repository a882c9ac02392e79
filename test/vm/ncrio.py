"""Pure-Python binding of the /dev/crypto NCR ioctl ABI (include/linux/ncr.h).

Structs are built with ctypes (native layout of the running interpreter),
attributes are packed as netlink attributes, and fcntl.ioctl() does the
call.  Errors surface as OSError with the kernel's errno.

    from ncrio import Ncr, ATTR, OP, KEY_TYPE
    with Ncr() as n:
        k = n.key_init()
        n.key_import(k, bytes(16), "cbc(aes)", flags=FLAG_EXPORTABLE)
        ct = n.session_once(OP.ENCRYPT, "cbc(aes)", key=k, iv=bytes(16),
                            data=bytes(32))
"""

import ctypes
import errno
import fcntl
import os
import struct

# ---- fault injection window ------------------------------------------------

# With NCR_FAULT_IOCTLS set (test/fuzz/debug-run), each ioctl runs with the
# thread's make-it-fail on, so that failslab/fail_page_alloc (task-filter)
# hit the module's allocations only, as test/fault_window.h does for C.
_FAULTS = bool(os.environ.get("NCR_FAULT_IOCTLS"))


def _ioctl(fd, req, arg):
    if not _FAULTS:
        return fcntl.ioctl(fd, req, arg)
    mf = os.open("/proc/thread-self/make-it-fail", os.O_WRONLY)
    try:
        os.pwrite(mf, b"1", 0)
        try:
            return fcntl.ioctl(fd, req, arg)
        finally:
            for _ in range(10000):
                try:
                    if os.pwrite(mf, b"0", 0) == 1:
                        break
                except OSError:
                    pass
            else:
                os.abort()
    finally:
        os.close(mf)


# ---- constants -------------------------------------------------------------


class ATTR:
    UNSPEC = 0
    ALGORITHM = 1
    DERIVATION_ALGORITHM = 2
    SIGNATURE_HASH_ALGORITHM = 3
    WRAPPING_ALGORITHM = 4
    UPDATE_INPUT_DATA = 5
    UPDATE_OUTPUT_BUFFER = 6
    UPDATE_INPUT_KEY_AS_DATA = 7
    FINAL_INPUT_DATA = 8
    FINAL_OUTPUT_BUFFER = 9
    KEY = 10
    KEY_FLAGS = 11
    KEY_ID = 12
    KEY_TYPE = 13
    IV = 14
    SECRET_KEY_BITS = 15
    RSA_MODULUS_BITS = 16
    RSA_E = 17
    RSA_ENCODING_METHOD = 18
    RSA_OAEP_HASH_ALGORITHM = 19
    RSA_PSS_SALT_LENGTH = 20
    DSA_P_BITS = 21
    DSA_Q_BITS = 22
    DH_PRIME = 23
    DH_BASE = 24
    DH_PUBLIC = 25
    WANTED_ATTRS = 26
    SIGNATURE_INPUT_IS_DIGEST = 27
    ECC_CURVE = 28
    MASTER_KEY_DESCRIPTION = 29
    MASTER_KEY_ROTATE = 30


# How each attribute is encoded by Ncr.attrs(): "u32", "str" or "bin".
ATTR_KIND = {
    ATTR.ALGORITHM: "str", ATTR.DERIVATION_ALGORITHM: "str",
    ATTR.SIGNATURE_HASH_ALGORITHM: "str", ATTR.WRAPPING_ALGORITHM: "str",
    ATTR.UPDATE_INPUT_KEY_AS_DATA: "u32", ATTR.KEY: "u32",
    ATTR.KEY_FLAGS: "u32", ATTR.KEY_TYPE: "u32", ATTR.SECRET_KEY_BITS: "u32",
    ATTR.RSA_MODULUS_BITS: "u32", ATTR.RSA_ENCODING_METHOD: "u32",
    ATTR.RSA_OAEP_HASH_ALGORITHM: "str", ATTR.RSA_PSS_SALT_LENGTH: "u32",
    ATTR.DSA_P_BITS: "u32", ATTR.DSA_Q_BITS: "u32",
    ATTR.SIGNATURE_INPUT_IS_DIGEST: "u32", ATTR.ECC_CURVE: "str",
    ATTR.MASTER_KEY_DESCRIPTION: "str", ATTR.MASTER_KEY_ROTATE: "u32",
}


class KEY_TYPE:
    INVALID = 0
    SECRET = 1
    PUBLIC = 2
    PRIVATE = 3


FLAG_EXPORTABLE = 1
FLAG_WRAPPABLE = 2
FLAG_DECRYPT = 4
FLAG_SIGN = 8
FLAG_WRAPPING = 16


class OP:
    ENCRYPT = 1
    DECRYPT = 2
    SIGN = 3
    VERIFY = 4


MASTER_KEY_ROTATE_BEGIN, MASTER_KEY_ROTATE_END = 1, 2

RSA_PKCS1_V1_5, RSA_PKCS1_OAEP, RSA_PKCS1_PSS = 0, 1, 2
RSA_PSS_SALT_LENGTH_AUTO = 0xFFFFFFFF
MAX_KEY_ID_SIZE = 20
WALG_AES_RFC3394 = "walg-aes-rfc3394"
WALG_AES_RFC5649 = "walg-aes-rfc5649"

# ---- structs (native layout) -----------------------------------------------

u32, s32, ptr, size_t = (ctypes.c_uint32, ctypes.c_int32, ctypes.c_void_p,
                         ctypes.c_size_t)


def _struct(name, fields):
    return type(name, (ctypes.Structure,), {"_fields_": fields})


_SIZES = [("input_size", u32), ("output_size", u32)]
key_generate = _struct("ncr_key_generate", _SIZES + [("key", s32)])
key_generate_pair = _struct("ncr_key_generate_pair", _SIZES + [
    ("private_key", s32), ("public_key", s32)])
key_derive = _struct("ncr_key_derive", _SIZES + [
    ("input_key", s32), ("new_key", s32)])
key_get_info = _struct("ncr_key_get_info", _SIZES + [("key", s32)])
key_import = _struct("ncr_key_import", _SIZES + [
    ("key", s32), ("data", ptr), ("data_size", u32)])
key_export = _struct("ncr_key_export", _SIZES + [
    ("key", s32), ("buffer", ptr), ("buffer_size", ctypes.c_int)])
key_wrap = _struct("ncr_key_wrap", _SIZES + [
    ("wrapping_key", s32), ("source_key", s32), ("buffer", ptr),
    ("buffer_size", ctypes.c_int)])
key_unwrap = _struct("ncr_key_unwrap", _SIZES + [
    ("wrapping_key", s32), ("dest_key", s32), ("data", ptr),
    ("data_size", u32)])
master_key_set = _struct("ncr_master_key_set", _SIZES + [
    ("key", ptr), ("key_size", u32)])
key_storage_wrap = _struct("ncr_key_storage_wrap", _SIZES + [
    ("key", s32), ("buffer", ptr), ("buffer_size", ctypes.c_int)])
key_storage_unwrap = _struct("ncr_key_storage_unwrap", _SIZES + [
    ("key", s32), ("data", ptr), ("data_size", u32)])
session_init_s = _struct("ncr_session_init", _SIZES + [("op", u32)])
session_update_s = _struct("ncr_session_update", _SIZES + [("ses", s32)])
session_final_s = _struct("ncr_session_final", _SIZES + [("ses", s32)])
session_once_s = _struct("ncr_session_once", _SIZES + [("op", u32)])
session_input_data = _struct("ncr_session_input_data", [
    ("data", ptr), ("data_size", size_t)])
session_output_buffer = _struct("ncr_session_output_buffer", [
    ("buffer", ptr), ("buffer_size", size_t), ("result_size_ptr", ptr)])

# ---- ioctl numbers ---------------------------------------------------------


def _ioc(direction, nr, size):
    # Plain OR as in <asm-generic/ioctl.h>: nr >= 256 spills into the type.
    return (direction << 30) | (size << 16) | (ord("c") << 8) | nr


def _iowr(nr, st):
    return _ioc(3, nr, ctypes.sizeof(st))


NCRIO = {
    "KEY_INIT": _ioc(0, 204, 0),
    "KEY_GENERATE": _iowr(205, key_generate),
    "KEY_GENERATE_PAIR": _iowr(206, key_generate_pair),
    "KEY_DERIVE": _iowr(207, key_derive),
    "KEY_GET_INFO": _iowr(208, key_get_info),
    "KEY_EXPORT": _iowr(209, key_export),
    "KEY_IMPORT": _iowr(210, key_import),
    "KEY_DEINIT": _ioc(2, 215, 4),
    "KEY_WRAP": _iowr(250, key_wrap),
    "KEY_UNWRAP": _iowr(251, key_unwrap),
    "MASTER_KEY_SET": _iowr(260, master_key_set),
    "KEY_STORAGE_WRAP": _iowr(261, key_storage_wrap),
    "KEY_STORAGE_UNWRAP": _iowr(262, key_storage_wrap),
    "SESSION_INIT": _iowr(300, session_init_s),
    "SESSION_UPDATE": _iowr(301, session_update_s),
    "SESSION_FINAL": _iowr(302, session_final_s),
    "SESSION_ONCE": _iowr(303, session_once_s),
}

# ---- netlink attributes ----------------------------------------------------


def nla(atype, payload):
    """One attribute: header, payload, zero padding to 4 bytes."""
    hdr = struct.pack("=HH", 4 + len(payload), atype)
    pad = b"\0" * (-len(payload) % 4)
    return hdr + payload + pad


def encode(atype, value):
    """Encode value for attribute atype (int -> u32, str -> NUL string)."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return nla(atype, bytes(value))
    if isinstance(value, str):
        return nla(atype, value.encode() + b"\0")
    if isinstance(value, int):
        return nla(atype, struct.pack("=I", value & 0xFFFFFFFF))
    raise TypeError("cannot encode %r" % (value,))


def parse_attrs(buf):
    """Parse attributes into a list of (type, payload bytes)."""
    out, off = [], 0
    while off + 4 <= len(buf):
        length, atype = struct.unpack_from("=HH", buf, off)
        if length < 4 or off + length > len(buf):
            raise ValueError("malformed attribute at %d" % off)
        out.append((atype, bytes(buf[off + 4:off + length])))
        off += (length + 3) & ~3
    return out


def decode(atype, payload):
    kind = ATTR_KIND.get(atype, "bin")
    if kind == "u32":
        return struct.unpack("=I", payload)[0]
    if kind == "str":
        return payload.split(b"\0", 1)[0].decode()
    return payload


# ---- errors ----------------------------------------------------------------


def errno_of(fn, *a, **kw):
    """Runs fn; returns the OSError errno, or 0 when it succeeded."""
    try:
        fn(*a, **kw)
    except OSError as e:
        return e.errno
    return 0


def key_type(n, k):
    """Type of key object k in Ncr n; KEY_GET_INFO fails with EINVAL on an
    empty (but allocated) key object, which counts as INVALID."""
    try:
        return n.key_get_info(k).get(ATTR.KEY_TYPE, KEY_TYPE.INVALID)
    except OSError as e:
        if e.errno == errno.EINVAL:
            return KEY_TYPE.INVALID
        raise


# ---- the device ------------------------------------------------------------


class Ncr:
    """One open() of /dev/crypto: a namespace of keys and sessions."""

    def __init__(self, path="/dev/crypto", fd=None):
        self.fd = os.open(path, os.O_RDWR) if fd is None else fd
        self._keep = []  # buffers referenced by pointers during a call

    def close(self):
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- generic call --

    def call(self, name, st, attrs=b"", out_room=0, input_size=None,
             output_size=None):
        """Run an attribute-carrying ioctl.

        st: the ctypes struct; attrs: encoded attribute bytes; out_room:
        bytes of output attribute space.  input_size/output_size override
        the computed values (for error tests).  Returns (ret, out_attrs,
        output_size written by the kernel).
        """
        fixed = ctypes.sizeof(st)
        total = max(fixed + len(attrs), fixed + out_room)
        buf = ctypes.create_string_buffer(total)
        st.input_size = fixed + len(attrs) if input_size is None else input_size
        st.output_size = (fixed + out_room if output_size is None
                          else output_size)
        ctypes.memmove(buf, ctypes.addressof(st), fixed)
        ctypes.memmove(ctypes.addressof(buf) + fixed, attrs, len(attrs))
        try:
            ret = _ioctl(self.fd, NCRIO[name], buf)
        finally:
            self._keep = []
        osize = struct.unpack_from("=I", buf.raw, 4)[0]
        used = max(0, min(osize, total) - fixed) if osize else 0
        return ret, buf.raw[fixed:fixed + used], osize

    @staticmethod
    def attrs(**kw):
        """attrs(ALGORITHM="cbc(aes)", KEY=3) -> encoded bytes (None skipped)."""
        return b"".join(encode(getattr(ATTR, k), v)
                        for k, v in kw.items() if v is not None)

    def _buf(self, data):
        b = ctypes.create_string_buffer(bytes(data), max(len(data), 1))
        self._keep.append(b)
        return b

    def _in(self, data):
        b = self._buf(data)
        d = session_input_data(ctypes.addressof(b), len(data))
        return bytes(d)

    def _out(self, size):
        b = self._buf(b"\0" * size)
        rs = ctypes.c_size_t(0xDEAD)
        self._keep.append(rs)
        o = session_output_buffer(ctypes.addressof(b), size,
                                  ctypes.addressof(rs))
        return bytes(o), b, rs

    # -- keys --

    def key_init(self):
        return _ioctl(self.fd, NCRIO["KEY_INIT"], 0)

    def key_deinit(self, key):
        _ioctl(self.fd, NCRIO["KEY_DEINIT"], struct.pack("=i", key))

    def key_generate(self, key, algo, bits, flags=None, **extra):
        a = self.attrs(ALGORITHM=algo, SECRET_KEY_BITS=bits,
                       KEY_FLAGS=flags, **extra)
        return self.call("KEY_GENERATE", key_generate(key=key), a)[0]

    def key_generate_pair(self, private, public, algo, flags=None, **extra):
        a = self.attrs(ALGORITHM=algo, KEY_FLAGS=flags, **extra)
        return self.call("KEY_GENERATE_PAIR", key_generate_pair(
            private_key=private, public_key=public), a)[0]

    def key_derive(self, input_key, new_key, algo="dh", flags=None, **extra):
        a = self.attrs(DERIVATION_ALGORITHM=algo, KEY_FLAGS=flags, **extra)
        return self.call("KEY_DERIVE", key_derive(
            input_key=input_key, new_key=new_key), a)[0]

    def key_import(self, key, data, algo, key_type=KEY_TYPE.SECRET,
                   flags=None, key_id=None, **extra):
        b = self._buf(data)
        st = key_import(key=key, data=ctypes.addressof(b), data_size=len(data))
        a = self.attrs(ALGORITHM=algo, KEY_TYPE=key_type, KEY_FLAGS=flags,
                       KEY_ID=key_id, **extra)
        self._keep.append(b)
        return self.call("KEY_IMPORT", st, a)[0]

    def key_export(self, key, size=4096):
        b = ctypes.create_string_buffer(max(size, 1))
        st = key_export(key=key, buffer=ctypes.addressof(b), buffer_size=size)
        ret = self.call("KEY_EXPORT", st)[0]
        return b.raw[:ret]

    def key_get_info(self, key, wanted=(ATTR.ALGORITHM, ATTR.KEY_FLAGS,
                                        ATTR.KEY_TYPE, ATTR.KEY_ID),
                     room=256):
        """Returns {attribute id: decoded value}."""
        a = encode(ATTR.WANTED_ATTRS, struct.pack("=%dH" % len(wanted),
                                                  *wanted))
        _, out, _ = self.call("KEY_GET_INFO", key_get_info(key=key), a, room)
        return {t: decode(t, p) for t, p in parse_attrs(out)}

    def key_wrap(self, wrapping_key, source_key, algo=WALG_AES_RFC5649,
                 iv=None, size=4096, **extra):
        b = ctypes.create_string_buffer(max(size, 1))
        st = key_wrap(wrapping_key=wrapping_key, source_key=source_key,
                      buffer=ctypes.addressof(b), buffer_size=size)
        a = self.attrs(WRAPPING_ALGORITHM=algo, IV=iv, **extra)
        ret = self.call("KEY_WRAP", st, a)[0]
        return b.raw[:ret]

    def key_unwrap(self, wrapping_key, dest_key, data,
                   algo=WALG_AES_RFC5649, iv=None, **extra):
        b = self._buf(data)
        st = key_unwrap(wrapping_key=wrapping_key, dest_key=dest_key,
                        data=ctypes.addressof(b), data_size=len(data))
        a = self.attrs(WRAPPING_ALGORITHM=algo, IV=iv, **extra)
        self._keep.append(b)
        return self.call("KEY_UNWRAP", st, a)[0]

    def master_key_set(self, key, **extra):
        b = self._buf(key)
        st = master_key_set(key=ctypes.addressof(b), key_size=len(key))
        self._keep.append(b)
        return self.call("MASTER_KEY_SET", st, self.attrs(**extra))[0]

    def master_key_from_keyring(self, spec, key=None, **extra):
        """MASTER_KEY_SET naming a keyring key; key/key_size stay NULL/0
        unless key (bytes) is given too."""
        if key is None:
            st = master_key_set(key=0, key_size=0)
        else:
            b = self._buf(key)
            st = master_key_set(key=ctypes.addressof(b), key_size=len(key))
        return self.call("MASTER_KEY_SET", st, self.attrs(
            MASTER_KEY_DESCRIPTION=spec, **extra))[0]

    def master_key_rotate(self, key, how):
        """MASTER_KEY_SET with NCR_ATTR_MASTER_KEY_ROTATE = how (BEGIN,
        END, or any value for error tests)."""
        return self.master_key_set(key, MASTER_KEY_ROTATE=how)

    def storage_wrap(self, key, size=8192, **extra):
        b = ctypes.create_string_buffer(max(size, 1))
        st = key_storage_wrap(key=key, buffer=ctypes.addressof(b),
                              buffer_size=size)
        ret = self.call("KEY_STORAGE_WRAP", st, self.attrs(**extra))[0]
        return b.raw[:ret]

    def storage_unwrap(self, key, data, **extra):
        b = self._buf(data)
        st = key_storage_unwrap(key=key, data=ctypes.addressof(b),
                                data_size=len(data))
        self._keep.append(b)
        return self.call("KEY_STORAGE_UNWRAP", st, self.attrs(**extra))[0]

    # -- sessions --

    def _data_attrs(self, data, out_size, key_as_data, final_data,
                    final_out_size):
        """Encode session data attributes; returns (bytes, [outputs])."""
        a, outs = b"", []
        if data is not None:
            a += nla(ATTR.UPDATE_INPUT_DATA, self._in(data))
        if key_as_data is not None:
            a += encode(ATTR.UPDATE_INPUT_KEY_AS_DATA, key_as_data)
        if out_size is not None:
            o, b, rs = self._out(out_size)
            a += nla(ATTR.UPDATE_OUTPUT_BUFFER, o)
            outs.append((b, rs))
        if final_data is not None:
            a += nla(ATTR.FINAL_INPUT_DATA, self._in(final_data))
        if final_out_size is not None:
            o, b, rs = self._out(final_out_size)
            a += nla(ATTR.FINAL_OUTPUT_BUFFER, o)
            outs.append((b, rs))
        return a, outs

    @staticmethod
    def _results(outs):
        return [b.raw[:rs.value] for b, rs in outs]

    def session_init(self, op, algo, key=None, iv=None, **extra):
        a = self.attrs(ALGORITHM=algo, KEY=key, IV=iv, **extra)
        return self.call("SESSION_INIT", session_init_s(op=op), a)[0]

    def session_update(self, ses, data=None, out_size=None, key_as_data=None):
        """Returns the output bytes (b"" when no output buffer is given)."""
        if out_size is None and data is not None and key_as_data is None:
            out_size = len(data)
        a, outs = self._data_attrs(data, out_size, key_as_data, None, None)
        keep = list(self._keep)
        self.call("SESSION_UPDATE", session_update_s(ses=ses), a)
        del keep
        res = self._results(outs)
        return res[0] if res else b""

    def session_final(self, ses, data=None, out_size=None, key_as_data=None,
                      final_data=None, final_out_size=None):
        """Returns (ioctl result, [update output], [final output])."""
        a, outs = self._data_attrs(data, out_size, key_as_data, final_data,
                                   final_out_size)
        keep = list(self._keep)
        ret = self.call("SESSION_FINAL", session_final_s(ses=ses), a)[0]
        del keep
        return ret, self._results(outs)

    def session_once(self, op, algo, key=None, iv=None, data=None,
                     out_size=None, key_as_data=None, final_data=None,
                     final_out_size=None, **extra):
        """One-shot operation.

        ENCRYPT/DECRYPT: returns the output (out_size defaults to len(data)).
        SIGN: returns the signature/digest (final_out_size defaults to 64).
        VERIFY: returns the ioctl result (1 valid, 0 invalid).
        """
        if op in (OP.ENCRYPT, OP.DECRYPT) and out_size is None and data:
            out_size = len(data)
        if op == OP.SIGN and final_out_size is None:
            final_out_size = 512
        a, outs = self._data_attrs(data, out_size, key_as_data, final_data,
                                   final_out_size)
        a += self.attrs(ALGORITHM=algo, KEY=key, IV=iv, **extra)
        keep = list(self._keep)
        ret = self.call("SESSION_ONCE", session_once_s(op=op), a)[0]
        del keep
        res = self._results(outs)
        if op == OP.VERIFY:
            return ret
        return res[-1] if res else b""

    # -- conveniences --

    def secret_key(self, data, algo, flags=FLAG_EXPORTABLE, **kw):
        """key_init + key_import of a secret key; returns the handle."""
        k = self.key_init()
        self.key_import(k, data, algo, flags=flags, **kw)
        return k
