/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Elliptic-curve keys ("ecdsa"): P-256 and P-384 (ECDSA, ECDH) and X25519
 * (key agreement only), one struct ncr_pk_ops for all, the key carrying
 * its curve.  The arithmetic is lib/ec_math.h; this file does the curve
 * table, ranges, encodings and the hedged RFC 6979 nonces.
 */
#ifndef NCR_EC_H
#define NCR_EC_H

#include "ec_math.h"
#include "pkcs1.h"

enum ncr_ec_kind { NCR_EC_NIST, NCR_EC_X25519 };

struct ncr_ec_curve {
	const char *name;		/* canonical NCR_ECC_CURVE_* */
	const char *const *aliases;	/* NULL-terminated, name included */
	enum ncr_ec_kind kind;
	unsigned int math_id;		/* NCR_EC_MATH_* (NIST) */
	unsigned int nbytes;		/* field element, scalar, order */
	unsigned int bits;		/* as OpenSSL reports them */
	unsigned int strength;		/* SP 800-57 part 1, table 2 */
	const u8 *oid;			/* namedCurve / algorithm, full TLV */
	size_t oid_len;
	const u8 *order;		/* n, nbytes big-endian (NIST) */
};

struct ncr_ec_key {
	const struct ncr_ec_curve *curve;	/* NULL until known */
	u8 pub[2 * NCR_EC_MAX_BYTES];	/* NIST X || Y, X25519 u */
	u8 d[NCR_EC_MAX_BYTES];		/* valid only when has_private */
	bool has_pub;
	bool has_private;
};

/*
 * Verify every signature before it is released (the module parameter
 * ec_verify_signatures; off by default, the cheaper checks always run).
 */
extern bool ncr_ec_verify_signatures;

/* The curve of a name or alias (NCR_ATTR_ECC_CURVE), NULL if unknown. */
const struct ncr_ec_curve *ncr_ec_curve_find(const char *name);

/*
 * ECDSA over a digest with the nonce of RFC 6979 3.2 for hash h, its
 * HMAC_DRBG seeded with int2octets(d) || bits2octets(digest) || extra
 * (RFC 6979 3.6: extra random bytes make it hedged; none: deterministic).
 * lib/ec_nist.c checks its own arithmetic (docs/security.md); with
 * ncr_ec_verify_signatures the signature is also verified before it is
 * written, as the DER SEQUENCE { r, s }.  *len: room in, length out.  0, -EINVAL, -ERANGE (room),
 * -EIO (the check failed), -ENOMEM.
 */
int ncr_ec_sign_digest(const struct ncr_ec_key *k,
		       const struct ncr_hash_ops *h, const u8 *digest,
		       size_t dlen, const u8 *extra, size_t extra_len,
		       u8 *sig, size_t *len);
/* 1 valid, 0 invalid (malformed or out of range included), -errno. */
int ncr_ec_verify_digest(const struct ncr_ec_key *k, const u8 *digest,
			 size_t dlen, const u8 *sig, size_t len);

#endif /* NCR_EC_H */
