"""What openssl s_client says about a handshake, read the same way from
OpenSSL 3.0 and 3.5: 3.5 names signature schemes as TLS does
("rsa_pss_rsae_sha256") where 3.0 said "RSA-PSS" plus a digest line, and
says "Peer Temp Key" where 3.0 said "Server Temp Key"."""
import re

# TLS SignatureScheme name prefix -> the kind 3.0 printed.
_SCHEMES = (("rsa_pss_", "RSA-PSS"), ("rsa_pkcs1_", "RSA"), ("ecdsa_", "ECDSA"))


def signature(out):
    """(kind, digest) of the peer's handshake signature, e.g.
    ("RSA-PSS", "SHA256"); digest None when not said."""
    m = re.search(r"^\s*(?:Peer )?[Ss]ignature type: (\S+)\s*$", out, re.M)
    if not m:
        return None, None
    name = m.group(1)
    for prefix, kind in _SCHEMES:
        if name.startswith(prefix):
            return kind, name.rsplit("_", 1)[1].upper()
    d = re.search(r"^\s*(?:Peer signing digest|Hash used): (\S+)\s*$", out,
                  re.M)
    return name, d.group(1) if d else None


def temp_key(out):
    """The ephemeral key line's value, e.g. "X25519, 253 bits"."""
    m = re.search(r"^\s*(?:Server|Peer) Temp Key: (.+?)\s*$", out, re.M)
    return m.group(1) if m else None
