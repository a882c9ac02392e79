/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Arithmetic modulo the order n of P-256 or P-384 on native 64-bit limbs
 * (least significant first, as crypto/ecc.c's digits), in constant time
 * through lib/mont.c: what touches the private scalar d and the nonce k of
 * ECDSA and ECDH.  n is public and odd with a nonzero top limb; nd is its
 * limb count (4 or 6).  Operands lie in [0, n - 1].
 */
#ifndef NCR_EC_SCALAR_H
#define NCR_EC_SCALAR_H

#include "ncr_port.h"

#define NCR_EC_SCALAR_LIMBS 6		/* P-384 */

/* r = a + b and r = a - b mod n, branch-free. */
void ncr_ec_scalar_add(u64 *r, const u64 *a, const u64 *b, const u64 *n,
		       size_t nd);
void ncr_ec_scalar_sub(u64 *r, const u64 *a, const u64 *b, const u64 *n,
		       size_t nd);

/* r = a b mod n.  0, -EINVAL (n unfit), -ENOMEM. */
int ncr_ec_scalar_mul(u64 *r, const u64 *a, const u64 *b, const u64 *n,
		      size_t nd);

/* r = a^-1 mod n (a^(n-2): n is prime), a != 0.  Errors as above. */
int ncr_ec_scalar_inv(u64 *r, const u64 *a, const u64 *n, size_t nd);

/*
 * The s of ECDSA: s = k^-1 (e + r d) mod n, computed as
 * (k b)^-1 (b e + (b r) d) with the blinding factor b in [1, n - 1]
 * (k, d in [1, n - 1]; e, r in [0, n - 1]).  Errors as above.
 */
int ncr_ec_scalar_sign_s(u64 *s, const u64 *k, const u64 *b, const u64 *d,
			 const u64 *e, const u64 *r, const u64 *n, size_t nd);

#endif /* NCR_EC_SCALAR_H */
