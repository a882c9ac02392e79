/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Modular exponentiation in Montgomery form on 64-bit limbs (least
 * significant first), for the RSA, DSA and DH private operations.
 *
 * LibTomMath's mp_exptmod squares, multiplies and reduces in separate
 * passes over 60-bit digits and picks its window entries by branching on
 * the exponent; here multiplication and reduction are fused, a square
 * computes each cross product once, and the secret variant reads every
 * table entry for every window, so that its instructions and memory
 * accesses depend only on the sizes of its operands.  Needs unsigned
 * __int128 (64-bit targets; the module is built for x86-64).
 */
#ifndef NCR_MONT_H
#define NCR_MONT_H

#include "ncr_port.h"

/*
 * r = a^e mod m, where m (n limbs, odd, top limb nonzero, > 1) and a (alimbs
 * limbs, n to 2n, any value: a CRT half takes the whole input) may be
 * secret, e has elimbs limbs and every one of its 64 * elimbs bits is
 * processed in fixed 5-bit windows.  r (n limbs) may alias a.  0, -EINVAL
 * (m or alimbs unfit), -ENOMEM or -EINTR (the caller was killed: checked
 * between windows, ncr_should_stop); scratch is wiped.
 */
int ncr_mont_exp_secret(u64 *r, const u64 *a, size_t alimbs, const u64 *e,
			size_t elimbs, const u64 *m, size_t n);

/*
 * The same for a public exponent (left-to-right binary: the time depends
 * on e's length and weight, never on a or m's values).
 */
int ncr_mont_exp_public(u64 *r, const u64 *a, size_t alimbs, const u64 *e,
			size_t elimbs, const u64 *m, size_t n);

/*
 * Products in Montgomery form, for values that stay in it between calls
 * (RSA's blinding pair): ncr_mont_mul sets r = a b / R mod m for a b < m R
 * (a, b < m will do), ncr_mont_to sets r = a R mod m for a < 2^(64n).  r
 * may alias a or b.  Same errors as above.
 */
int ncr_mont_mul(u64 *r, const u64 *a, const u64 *b, const u64 *m, size_t n);
int ncr_mont_to(u64 *r, const u64 *a, const u64 *m, size_t n);

#endif /* NCR_MONT_H */
