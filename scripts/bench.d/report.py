#!/usr/bin/python3
"""The host half of scripts/bench: turns the guest's results.tsv (one line
per measurement: ROUND LABEL ITEM SIDE VALUE) into the table, results.json,
ratios.png (gnuplot) and the closing RATIO lines.

Usage: report.py RUN_DIR OUT_DIR WALL_SECONDS GROUP...

Every figure is the median over the rounds of one side; a ratio is the
median over the rounds of the quotient of the two sides within a round
(measured seconds apart in the same VM boot, so that a slow phase of the
host cancels out), with its lowest and highest round.  Headline ratios
(RATIO lines) divide what a user of the ncr provider gets by the
alternative:
  rsaN_{sign,verify,decrypt}_vs_default  the ncr provider through EVP on
      an ncr key file / the default provider on the same key as PEM
      (sign and verify: RSA-PSS SHA-256, the TLS 1.3 signature; decrypt:
      OAEP SHA-256).  rsaN_{sign,verify}_raw_vs_default: the same with raw
      /dev/crypto, the kernel hashing the message, as numerator (the floor
      any user space on top of the kernel inherits).
  p256_{sign,verify}_vs_default, p384_{sign,verify}_vs_default  ECDSA
      P-256 (SHA-256), P-384 (SHA-384) through EVP, the ncr provider on a
      kernel key / the default provider on a PEM key.
  p256_derive_vs_default, x25519_derive_vs_default  ECDH P-256 and X25519
      derivation with a fixed software peer public key, the same sides.
  p256_keygen_vs_default  P-256 key generation, provider=ncr (in the
      kernel) / provider=default.
  aes128cbc_16k_vs_default, aes256ctr_16k_vs_default  ncr provider /
      default provider through EVP, 16 KiB updates.
  aes128cbc_64b_vs_afalg  ncr provider / the afalg engine, 64-byte updates.
  aes128cbc_{16k,1m}_evp_vs_raw, aes256ctr_{16k,1m}_evp_vs_raw  ncr
      provider through EVP / raw /dev/crypto (sym_bench.c), 16 KiB and
      1 MiB updates: what the provider costs on top of the kernel.
  aes128cbc_{16k,1m}_raw_vs_afalg, aes256ctr_{16k,1m}_raw_vs_afalg  raw
      /dev/crypto / raw AF_ALG sockets, the same sizes.
  sha256_16k_vs_default  raw /dev/crypto / default provider (the provider
      offers no digests).
  roundtrip_vs_afalg  one NCRIO_SESSION_ONCE of one AES block / one
      sendmsg + read on an AF_ALG socket (smallest complete operation).
  nginx_handshake_vs_filekey, nginx_handshake_vs_tpm2  TLS 1.3 full
      handshakes/s, RSA-2048 key as ncr key file / as PEM file, / in
      swtpm; the nginx_tls12_* lines are the same for TLS 1.2 (ECDHE-RSA).
  nginx_ecdsa_handshake_vs_filekey  the same with an ECDSA P-256 key, ncr
      key file / PEM file (TLS 1.3); nginx_tls12_ecdsa_handshake_vs_filekey
      for TLS 1.2 (ECDHE-ECDSA).
"""
import json
import math
import os
import shutil
import statistics
import subprocess
import sys

run_dir, out_dir, wall = sys.argv[1], sys.argv[2], int(sys.argv[3])
groups = sys.argv[4:]

rows = {}  # (label, item, side) -> {round: value}
slices = {}
for line in open(os.path.join(run_dir, "results.tsv")):
    f = line.rstrip("\n").split("\t")
    if len(f) != 5:
        continue
    rnd, label, item, side, value = f
    slices.setdefault((label, item, side), {}).setdefault(
        int(rnd), []).append(float(value))
# several lines in a round (the TLS slices, equal in time): their mean
for k, v in slices.items():
    rows[k] = {r: statistics.mean(x) for r, x in v.items()}
med = {k: statistics.median(v.values()) for k, v in rows.items()}


def kv(path):
    d = {}
    if os.path.exists(path):
        for line in open(path):
            k, _, v = line.rstrip("\n").partition("\t")
            if k:
                d[k] = v
    return d


meta = kv(os.path.join(run_dir, "meta"))
missing = kv(os.path.join(run_dir, "missing"))


def get(label, item, side):
    return med.get((label, str(item), side))


def fmt(v, width=10, prec=1):
    if v is None:
        return "%*s" % (width, "-")
    if v >= 100000:
        return "%*.0f" % (width, v)
    return "%*.*f" % (width, prec, v)


def key(label, item, side):
    return (label, str(item), side)


def pratio(a, b):
    """Ratio of sides a and b (keys): the median over the rounds of the
    ratio within each round (the two sides measured seconds apart), so
    that a slow phase of the host, which moves both, cancels out.
    Returns (median, lowest, highest) or None."""
    ra, rb = rows.get(a, {}), rows.get(b, {})
    q = [ra[r] / rb[r] for r in ra if r in rb and rb[r]]
    return (statistics.median(q), min(q), max(q)) if q else None


def ratio(a, b):
    r = pratio(a, b)
    return r[0] if r else None


lines = []
p = lines.append
p("ncr benchmarks, one VM boot (qemu TCG, %s CPUs, kernel %s, %s)" % (
    meta.get("cpus", "?"), meta.get("kernel", "?"), meta.get("openssl", "?")))
p("median of %s rounds, %s s per side and round (TLS: %s s, %s client "
  "processes); software emulation: only the ratios carry over" % (
      meta.get("rounds", "?"), meta.get("seconds", "?"),
      meta.get("tls_seconds", "?"), meta.get("tls_clients", "?")))

PK_OPS = [("sign-pkcs1", "sign PKCS#1 v1.5"), ("sign-pss", "sign PSS"),
          ("verify-pkcs1", "verify PKCS#1 v1.5"), ("verify-pss", "verify PSS"),
          ("decrypt-oaep", "decrypt OAEP")]
if "rsa" in groups:
    for bits in (2048, 3072):
        lab = "rsa%d" % bits
        p("")
        p("RSA-%d, operations/s (SHA-256)   raw: /dev/crypto, one "
          "SESSION_ONCE per op" % bits)
        tpm = bits == 2048 and any(k[2] == "tpm2" for k in rows)
        p("  %-20s %10s %10s %10s %10s%s %10s %10s" % (
            "", "raw-digest", "raw-khash", "ncr EVP", "default",
            " %10s" % "tpm2 EVP" if tpm else "", "ncr/def", "khash/def"))
        for op, name in PK_OPS:
            kh = "raw" if op.startswith("decrypt") else "raw-khash"
            d = key(lab, op, "default")
            p("  %-20s %s %s %s %s%s %s %s" % (
                name, fmt(get(lab, op, "raw-digest")), fmt(get(lab, op, kh)),
                fmt(get(lab, op, "ncr")), fmt(get(lab, op, "default")),
                " " + fmt(get(lab, op, "tpm2")) if tpm else "",
                fmt(ratio(key(lab, op, "ncr"), d), 10, 3),
                fmt(ratio(key(lab, op, kh), d), 10, 3)))
        if tpm:
            p("  (tpm2 EVP: the TPM's own RSA-2048 key, in swtpm; "
              "tpm2-openssl's signing key does not decrypt)")

EC_KEYS = [("p256", "P-256", ("sign-ecdsa", "verify-ecdsa", "derive",
                               "keygen")),
           ("p384", "P-384", ("sign-ecdsa", "verify-ecdsa", "derive",
                               "keygen")),
           ("x25519", "X25519", ("derive", "keygen"))]
EC_OPS = {"sign-ecdsa": "ECDSA sign", "verify-ecdsa": "ECDSA verify",
          "derive": "derive", "keygen": "keygen"}
if "ec" in groups:
    p("")
    p("EC and X25519 through EVP, operations/s (ECDSA: P-256 SHA-256, "
      "P-384 SHA-384;")
    p("  derive: fresh context, set_peer with a fixed software public key;"
      " keygen: generate + free)")
    p("  %-20s %10s %10s %10s" % ("", "ncr EVP", "default", "ncr/def"))
    for lab, curve, ops in EC_KEYS:
        for op in ops:
            p("  %-20s %s %s %s" % (
                "%s %s" % (curve, EC_OPS[op]), fmt(get(lab, op, "ncr")),
                fmt(get(lab, op, "default")),
                fmt(ratio(key(lab, op, "ncr"), key(lab, op, "default")),
                    10, 3)))
    p("  (ncr keys generated in the kernel, default keys in software; "
      "keygen: provider=ncr / provider=default)")

SIZES = [64, 1024, 16384, 1048576]


def size_name(n):
    return "%d KiB" % (n // 1024) if n >= 1024 and n < 1048576 else (
        "%d MiB" % (n // 1048576) if n >= 1048576 else "%d B" % n)


def mbs(label, size, side):
    v = get(label, size, side)
    return v * size / 1e6 if v is not None else None


if "sym" in groups:
    for label, name in (("aes-128-cbc", "AES-128-CBC encrypt"),
                        ("aes-256-ctr", "AES-256-CTR encrypt"),
                        ("sha256", "SHA-256")):
        p("")
        p("%s, MB/s (EVP: one context, one update per buffer; "
          "raw: the kernel interfaces)" % name)
        p("  %-8s %9s %9s %9s %9s %9s %9s %9s %9s" % (
            "size", "ncr EVP", "default", "afalg", "raw-ncr", "raw-afalg",
            "ncr/def", "ncr/afalg", "raw n/a"))
        for s in SIZES:
            n, d = mbs(label, s, "ncr"), mbs(label, s, "default")
            a = mbs(label, s, "afalg")
            rn, ra = mbs(label, s, "raw-ncr"), mbs(label, s, "raw-afalg")
            k = {side: key(label, s, side) for side in (
                "ncr", "default", "afalg", "raw-ncr", "raw-afalg")}
            p("  %-8s %s %s %s %s %s %s %s %s" % (
                size_name(s), fmt(n, 9, 2), fmt(d, 9, 2), fmt(a, 9, 2),
                fmt(rn, 9, 2), fmt(ra, 9, 2),
                fmt(ratio(k["ncr" if n is not None else "raw-ncr"],
                          k["default"]), 9, 3),
                fmt(ratio(k["ncr"], k["afalg"]), 9, 3),
                fmt(ratio(k["raw-ncr"], k["raw-afalg"]), 9, 3)))
        if label == "sha256":
            p("  (neither the ncr provider nor the afalg engine has digests:"
              " ncr/def is raw-ncr/def)")
        elif label == "aes-256-ctr":
            p("  (the afalg engine has AES-CBC only)")
    p("")
    p("Round trip, one AES-128-CBC block (16 B) with its own IV, key "
      "already in the kernel")
    p("  %-46s %10s %10s" % ("", "ops/s", "us/op"))
    for side, name in (
            ("raw-ncr", "/dev/crypto NCRIO_SESSION_ONCE (1 ioctl)"),
            ("raw-ncr-update", "/dev/crypto SESSION_UPDATE, open session"),
            ("raw-afalg", "AF_ALG sendmsg + read, accepted socket"),
            ("raw-afalg-accept", "AF_ALG accept+sendmsg+read+close")):
        v = get("roundtrip", 16, side)
        p("  %-46s %s %s" % (name, fmt(v), fmt(1e6 / v if v else None)))

if "tls" in groups:
    p("")
    p("nginx, full TLS handshakes/s (RSA-2048, no resumption, loopback)")
    p("  %-8s %10s %10s %10s %10s %10s" % (
        "", "PEM file", "ncr key", "tpm2", "ncr/PEM", "ncr/tpm2"))
    for v in ("tls1.3", "tls1.2"):
        f, n, t = (get("nginx", v, s) for s in ("pem", "ncr", "tpm2"))
        kn = key("nginx", v, "ncr")
        p("  %-8s %s %s %s %s %s" % (
            v.replace("tls", "TLS "), fmt(f), fmt(n), fmt(t),
            fmt(ratio(kn, key("nginx", v, "pem")), 10, 3),
            fmt(ratio(kn, key("nginx", v, "tpm2")), 10, 3)))
    p("")
    p("nginx ECDSA P-256, full TLS handshakes/s (the same key and "
      "certificate, no resumption, loopback)")
    p("  %-8s %10s %10s %10s" % ("", "PEM file", "ncr key", "ncr/PEM"))
    for v in ("tls1.3", "tls1.2"):
        f, n = (get("nginx-ecdsa", v, s) for s in ("pem-ec", "ncr-ec"))
        p("  %-8s %s %s %s" % (
            v.replace("tls", "TLS "), fmt(f), fmt(n),
            fmt(ratio(key("nginx-ecdsa", v, "ncr-ec"),
                      key("nginx-ecdsa", v, "pem-ec")), 10, 3)))

# ---- headline ratios ----
HEAD = []  # (name, numerator key, denominator key, target or None)
if "rsa" in groups:
    for bits in (2048, 3072):
        lab = "rsa%d" % bits
        HEAD += [
            ("%s_sign_vs_default" % lab, (lab, "sign-pss", "ncr"),
             (lab, "sign-pss", "default"), 0.7),
            ("%s_verify_vs_default" % lab, (lab, "verify-pss", "ncr"),
             (lab, "verify-pss", "default"), 0.5),
            ("%s_decrypt_vs_default" % lab, (lab, "decrypt-oaep", "ncr"),
             (lab, "decrypt-oaep", "default"), None),
            ("%s_sign_raw_vs_default" % lab, (lab, "sign-pss", "raw-khash"),
             (lab, "sign-pss", "default"), None),
            ("%s_verify_raw_vs_default" % lab,
             (lab, "verify-pss", "raw-khash"),
             (lab, "verify-pss", "default"), None),
        ]
if "ec" in groups:
    for lab, op, what, target in (
            ("p256", "sign-ecdsa", "sign", 0.5),
            ("p256", "verify-ecdsa", "verify", None),
            ("p256", "derive", "derive", 0.5),
            ("p256", "keygen", "keygen", None),
            ("p384", "sign-ecdsa", "sign", 0.5),
            ("p384", "verify-ecdsa", "verify", None),
            ("x25519", "derive", "derive", 0.5)):
        HEAD.append(("%s_%s_vs_default" % (lab, what), (lab, op, "ncr"),
                     (lab, op, "default"), target))
if "sym" in groups:
    HEAD += [
        ("aes128cbc_16k_vs_default", ("aes-128-cbc", "16384", "ncr"),
         ("aes-128-cbc", "16384", "default"), 0.9),
        ("aes128cbc_64b_vs_afalg", ("aes-128-cbc", "64", "ncr"),
         ("aes-128-cbc", "64", "afalg"), 2.0),
        ("aes256ctr_16k_vs_default", ("aes-256-ctr", "16384", "ncr"),
         ("aes-256-ctr", "16384", "default"), None),
        ("sha256_16k_vs_default", ("sha256", "16384", "raw-ncr"),
         ("sha256", "16384", "default"), None),
        ("roundtrip_vs_afalg", ("roundtrip", "16", "raw-ncr"),
         ("roundtrip", "16", "raw-afalg"), 2.0),
    ]
    # large buffers, where per-call costs should vanish: the provider
    # against raw /dev/crypto, raw /dev/crypto against raw AF_ALG
    for lab, cipher in (("aes128cbc", "aes-128-cbc"),
                        ("aes256ctr", "aes-256-ctr")):
        for sz, size in (("16k", "16384"), ("1m", "1048576")):
            HEAD += [
                ("%s_%s_evp_vs_raw" % (lab, sz), (cipher, size, "ncr"),
                 (cipher, size, "raw-ncr"), 0.95),
                ("%s_%s_raw_vs_afalg" % (lab, sz), (cipher, size, "raw-ncr"),
                 (cipher, size, "raw-afalg"), 1.0),
            ]
if "tls" in groups:
    HEAD += [
        ("nginx_handshake_vs_filekey", ("nginx", "tls1.3", "ncr"),
         ("nginx", "tls1.3", "pem"), 0.8),
        ("nginx_handshake_vs_tpm2", ("nginx", "tls1.3", "ncr"),
         ("nginx", "tls1.3", "tpm2"), 10.0),
        ("nginx_tls12_handshake_vs_filekey", ("nginx", "tls1.2", "ncr"),
         ("nginx", "tls1.2", "pem"), 0.8),
        ("nginx_tls12_handshake_vs_tpm2", ("nginx", "tls1.2", "ncr"),
         ("nginx", "tls1.2", "tpm2"), 10.0),
        ("nginx_ecdsa_handshake_vs_filekey",
         ("nginx-ecdsa", "tls1.3", "ncr-ec"),
         ("nginx-ecdsa", "tls1.3", "pem-ec"), 0.85),
        ("nginx_tls12_ecdsa_handshake_vs_filekey",
         ("nginx-ecdsa", "tls1.2", "ncr-ec"),
         ("nginx-ecdsa", "tls1.2", "pem-ec"), None),
    ]

ratios = {}
p("")
p("Headline ratios (ncr side / other side, median of the per-round "
  "ratios; target: the speed the project aims at)")
p("  %-40s %9s %15s %8s  %s" % ("", "ratio", "rounds min-max", "target",
                                  ""))
for name, a, b, target in HEAD:
    pr = pratio(a, b)
    r = pr[0] if pr else None
    ratios[name] = {"value": r, "min": pr[1] if pr else None,
                    "max": pr[2] if pr else None, "numerator": list(a),
                    "denominator": list(b), "target": target}
    if r is None:
        why = [v for k, v in missing.items()
               if k.split("-", 1)[-1] in (a[2], b[2])]
        state = "not measured" + (": " + why[0][:60] if why else "")
    elif target is None:
        state = ""
    else:
        state = "met" if r >= target else "missed"
    p("  %-40s %s %15s %8s  %s" % (
        name, fmt(r, 9, 3), "%.2f-%.2f" % (pr[1], pr[2]) if pr else "",
        ("%.1fx" if round(target, 1) == target else "%.2fx") % target
        if target else "", state))
if missing:
    p("")
    p("Not measured:")
    for k, v in missing.items():
        p("  %s: %s" % (k, v))
p("")
p("wall time of the run: %d s (%.1f min)" % (wall, wall / 60))

table = "\n".join(lines) + "\n"
sys.stdout.write(table)
os.makedirs(out_dir, exist_ok=True)
with open(os.path.join(out_dir, "table.txt"), "w") as f:
    f.write(table)

results = {
    "meta": meta, "wall_seconds": wall, "groups": groups,
    "missing": missing,
    "medians": [{"label": k[0], "item": k[1], "side": k[2], "median": v,
                 "rounds": [rows[k][r] for r in sorted(rows[k])]}
                for k, v in sorted(med.items())],
    "ratios": ratios,
}
with open(os.path.join(out_dir, "results.json"), "w") as f:
    json.dump(results, f, indent=1, sort_keys=True)
    f.write("\n")

# ---- the plot: every headline ratio, log scale, targets as marks ----
plotted = [(n, d["value"], d["target"]) for n, d in ratios.items()
           if d["value"] is not None]
png = os.path.join(out_dir, "ratios.png")
if plotted and shutil.which("gnuplot"):
    dat = os.path.join(out_dir, "ratios.dat")
    with open(dat, "w") as f:
        for i, (n, v, t) in enumerate(plotted):
            # bar colour: target met (green), missed (red), none (blue)
            rgb = 0x4682b4 if not t else (0x2e8b57 if v >= t else 0xc0392b)
            f.write('%d "%s" %g %s %d "%.2f"\n' % (
                i, n.replace("_", "\\\\_"), v, "%g" % t if t else "NaN",
                rgb, v))
    lo = min([v for _, v, _ in plotted] + [t for _, _, t in plotted if t])
    hi = max([v for _, v, _ in plotted] + [t for _, _, t in plotted if t])
    xmax = len(plotted) - 0.4
    script = """
set terminal pngcairo size 1200,600 font "sans,10"
set output '%s'
set title "ncr / alternative, measured in one VM boot (qemu TCG: only the ratios carry over)"
set logscale y
set yrange [%g:%g]
set ylabel "ratio (log scale)"
set grid ytics
set xtics rotate by 40 right nomirror
set xrange [-0.6:%g]
set boxwidth 0.6
set style fill solid 0.7 border -1
set key top left
set bmargin 12
set lmargin 16
set rmargin 4
set arrow from -0.6,1 to %g,1 nohead lt 0 lw 2
plot '%s' using 1:3:5:xtic(2) with boxes lc rgb variable title "ratio (green: target met, red: missed, blue: no target)", \\
     '' using 1:4 with points pt 9 ps 1.6 lc rgb "black" title "target", \\
     '' using 1:3:6 with labels offset 0,0.6 font "sans,8" notitle
""" % (png, 10 ** math.floor(math.log10(lo) - 0.05),
       10 ** math.ceil(math.log10(hi) + 0.05), xmax, xmax, dat)
    r = subprocess.run(["gnuplot"], input=script, text=True,
                       capture_output=True)
    if r.returncode != 0:
        # gnuplot-nox without cairo: the plain (gd) png terminal
        r = subprocess.run(["gnuplot"], input=script.replace(
            'pngcairo size 1200,600 font "sans,10"', "png size 1200,600"),
            text=True, capture_output=True)
    if r.returncode != 0:
        print("scripts/bench: gnuplot failed: " + r.stderr.strip()[-300:],
              file=sys.stderr)
    else:
        print("plot: %s; table: %s; results: %s" % (
            png, os.path.join(out_dir, "table.txt"),
            os.path.join(out_dir, "results.json")))
else:
    print("scripts/bench: no plot (gnuplot missing or nothing to plot)",
          file=sys.stderr)

for name, d in ratios.items():
    if d["value"] is not None:
        print("RATIO %s %.3f" % (name, d["value"]))
