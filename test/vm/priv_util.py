"""Run a function in a forked child with reduced privileges (VM suites).

    run_as(fn, uid=65534)              setuid(nobody), all capabilities gone
    run_as(fn, drop_caps=[CAP_SYS_ADMIN])   stays uid 0, loses one capability
    run_as(fn, uid=65534, keep_caps=[CAP_SYS_ADMIN])
                                       nobody, yet CAP_SYS_ADMIN effective

fn runs in the child after `setup(fd)` hooks; its return value (an int, or
an errno from an OSError it raised) comes back to the parent.
"""
import ctypes
import os

CAP_SYS_ADMIN = 21
_PR_SET_KEEPCAPS = 8
_PR_CAPBSET_DROP = 24
_CAP_V3 = 0x20080522

_libc = ctypes.CDLL(None, use_errno=True)


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32),
                ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


def _check(rc):
    if rc != 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))


def _caps_get():
    hdr, data = _CapHeader(_CAP_V3, 0), (_CapData * 2)()
    _check(_libc.capget(ctypes.byref(hdr), data))
    return hdr, data


def caps_effective():
    """The calling process's effective capability mask (64 bits)."""
    _, d = _caps_get()
    return d[0].effective | (d[1].effective << 32)


def drop_caps(caps):
    """Removes caps from the effective, permitted, inheritable and bounding
    sets of the calling process."""
    hdr, d = _caps_get()
    for cap in caps:
        i, bit = cap // 32, 1 << (cap % 32)
        d[i].effective &= ~bit
        d[i].permitted &= ~bit
        d[i].inheritable &= ~bit
        _check(_libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0))
    _check(_libc.capset(ctypes.byref(hdr), d))


def setuid_keep_caps(uid, caps):
    """setuid(uid) keeping exactly `caps` permitted and effective."""
    _check(_libc.prctl(_PR_SET_KEEPCAPS, 1, 0, 0, 0))
    os.setgid(uid)
    os.setuid(uid)
    hdr, d = _caps_get()
    for i in range(2):
        d[i].effective = d[i].permitted = d[i].inheritable = 0
    for cap in caps:
        d[cap // 32].effective |= 1 << (cap % 32)
        d[cap // 32].permitted |= 1 << (cap % 32)
    _check(_libc.capset(ctypes.byref(hdr), d))


def run_as(fn, uid=None, drop=(), keep_caps=None):
    """Fork; in the child reduce privileges as asked, call fn(); return
    fn's int result, or the errno of the OSError it raised.  Any other
    outcome raises RuntimeError in the parent."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        msg = b"crash"
        try:
            os.close(r)
            if keep_caps is not None:
                setuid_keep_caps(uid, keep_caps)
            elif uid is not None:
                os.setgid(uid)
                os.setuid(uid)
            if drop:
                drop_caps(drop)
            try:
                msg = b"ok %d" % fn()
            except OSError as e:
                msg = b"errno %d" % e.errno
        except BaseException as e:  # report, never return into pytest
            msg = b"exc " + repr(e).encode()
        finally:
            os.write(w, msg)
            os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        out = f.read().decode()
    os.waitpid(pid, 0)
    kind, _, val = out.partition(" ")
    if kind in ("ok", "errno"):
        return int(val)
    raise RuntimeError("child failed: " + out)
