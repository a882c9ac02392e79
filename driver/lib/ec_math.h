/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The elliptic-curve arithmetic lib/ec.c needs, behind a narrow interface.
 * In the module: P-256 and P-384 from lib/ec_nist.c, X25519 and the
 * set-up from driver/ec_math.c (lib/crypto curve25519).  In the host unit
 * tests of ec.c: libcrypto (test/unit/ec_math_ossl.c), an independent
 * implementation.  ec.c does the encodings, the ranges and the nonces;
 * these only compute.
 *
 * Every number is big-endian of exactly the curve's nbytes (the field and
 * the order have the same length on the curves listed); a NIST point is
 * X || Y (2 * nbytes, no 0x04 prefix), an X25519 value its 32-byte
 * little-endian u.  Secrets passed in are not kept; intermediates are wiped.
 */
#ifndef NCR_EC_MATH_H
#define NCR_EC_MATH_H

#include "ncr_port.h"

/* The kernel's ECC_CURVE_NIST_* ids (<crypto/ecdh.h>; checked there). */
#define NCR_EC_MATH_P256	2
#define NCR_EC_MATH_P384	3

#define NCR_EC_MAX_BYTES	48	/* P-384 */
#define NCR_X25519_BYTES	32

/* Once, before anything else here: 0, or why EC cannot work. */
int ncr_ec_math_init(void);

/* pub = d * G for d in [1, n - 1] (the caller checks the range). */
int ncr_ec_math_pub(unsigned int curve, unsigned int nbytes, const u8 *d,
		    u8 *pub);

/*
 * Full public-key validation (SP 800-56A 5.6.2.3.3): coordinates below p,
 * on the curve, not the point at infinity, n * Q = O (which every point of
 * a curve of prime order satisfies).  0 or -EINVAL.
 */
int ncr_ec_math_check_pub(unsigned int curve, unsigned int nbytes,
			  const u8 *pub);

/*
 * The ECDSA core: R = k * G, r = x(R) mod n, s = k^-1 (e + r d) mod n,
 * with k^-1 computed as b (k b)^-1.  k, b in [1, n - 1], e the truncated
 * digest (below 2^bits(n), reduced here).  0, -EAGAIN when r or s is 0
 * (pick another k), -EIO when a check of the arithmetic failed (nothing
 * is written), -EINVAL, -ENOMEM.
 */
int ncr_ec_math_sign(unsigned int curve, unsigned int nbytes, const u8 *d,
		     const u8 *k, const u8 *b, const u8 *e, u8 *r, u8 *s);

/*
 * ECDSA verification of r, s in [1, n - 1] (the caller checks) against a
 * validated public point: 1 valid, 0 invalid, -ENOMEM.
 */
int ncr_ec_math_verify(unsigned int curve, unsigned int nbytes,
		       const u8 *pub, const u8 *e, const u8 *r, const u8 *s);

/*
 * ECDH (SEC 1 3.3.1): x(d * Q) for a peer point Q (validated here: not on
 * the curve -EINVAL); the point at infinity -EINVAL.
 */
int ncr_ec_math_ecdh(unsigned int curve, unsigned int nbytes, const u8 *d,
		     const u8 *peer, u8 *x);

/* RFC 7748 X25519(k, u) (k clamped inside); all-zero result: -EINVAL. */
int ncr_ec_math_x25519(u8 out[NCR_X25519_BYTES],
		       const u8 k[NCR_X25519_BYTES],
		       const u8 u[NCR_X25519_BYTES]);
/* X25519(k, 9). */
int ncr_ec_math_x25519_base(u8 out[NCR_X25519_BYTES],
			    const u8 k[NCR_X25519_BYTES]);

#endif /* NCR_EC_MATH_H */
