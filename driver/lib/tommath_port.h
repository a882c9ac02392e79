/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How pure code reaches LibTomMath: in ncr.ko the fetched sources in
 * driver/tommath/ (with the libc stand-ins of driver/tommath_shim/include
 * first on the include path), in user space Debian's libtommath-dev.
 * Also a few helpers shared by rsa.c, dsa.c, dh.c, ffc.c and asn1.c.
 */
#ifndef NCR_TOMMATH_PORT_H
#define NCR_TOMMATH_PORT_H

#include "ncr_port.h"
#include <tommath.h>

/* Largest modulus/prime accepted anywhere (import, generation, DH). */
#define NCR_PK_MAX_BITS 16384
#define NCR_PK_MAX_BYTES (NCR_PK_MAX_BITS / 8)

/* Maps a LibTomMath error to a negative errno. */
int ncr_mp_errno(mp_err err);

/*
 * a = the big-endian number buf[0..len) (leading zeros allowed).  Linear
 * in len, one allocation at most: LibTomMath 1.2.0's mp_from_ubin shifts
 * the whole number once per byte.  0, -EINVAL (absurd len) or -ENOMEM.
 */
int ncr_mp_from_be(mp_int *a, const u8 *buf, size_t len);

/* a as exactly len big-endian bytes (left-padded); -EINVAL if a is larger. */
int ncr_mp_to_fixed(const mp_int *a, u8 *out, size_t len);

/* Uniform r in [1, bound - 1] from ncr_random_bytes (rejection sampling). */
int ncr_mp_rand_range(mp_int *r, const mp_int *bound);

/* Uniform r of exactly bits bits (top bit set). */
int ncr_mp_rand_bits(mp_int *r, int bits);

/* Miller-Rabin rounds for a prime of the given size (FIPS 186-4 C.3). */
int ncr_mp_prime_rounds(int bits);

/*
 * Is n (> 0, from an untrusted source) a prime?  Trial division, Miller-
 * Rabin with ncr_mp_prime_rounds() bases and a strong Lucas test (BPSW).
 * 0 with *prime set, or -ENOMEM.
 */
int ncr_mp_check_prime(const mp_int *n, bool *prime);

/*
 * Does v lie in the subgroup of order q of Z_p^* (v in [2, p-1] and
 * v^q = 1 mod p)?  For q prime that means order exactly q.  0 with *in
 * set, or -ENOMEM.
 */
int ncr_mp_in_subgroup(const mp_int *v, const mp_int *q, const mp_int *p,
		       bool *in);

/*
 * Montgomery form for an odd m, R = 2^(64 * limbs of m): ncr_mp_mont_to
 * sets out = a R mod m, ncr_mp_mont_mul out = a b / R mod m, so that the
 * product of a value with one held in that form is the plain product mod
 * m, without a division.  a and b must lie in [0, m): -EINVAL otherwise.
 */
int ncr_mp_mont_to(const mp_int *a, const mp_int *m, mp_int *out);
int ncr_mp_mont_mul(const mp_int *a, const mp_int *b, const mp_int *m,
		    mp_int *out);

/*
 * out = base^e mod m for a public e (RSA's public operation): Montgomery
 * arithmetic of lib/mont.c for an odd m, else LibTomMath's.  0 or -errno.
 */
int ncr_mp_exptmod_public(const mp_int *base, const mp_int *e,
			  const mp_int *m, mp_int *out);

/*
 * out = base^e mod m, computed as base^(e + r * order) for a fresh random
 * 64-bit r: the same value when base has that order, but another exponent
 * every time.  m must be odd (-EINVAL otherwise).  The exponentiation is
 * lib/mont.c's constant-time one over a fixed number of exponent limbs
 * for a given order; the exponent blinding stays as a second defence
 * (against faults and power analysis as much as timing).  0 or -errno.
 */
int ncr_mp_exptmod_blinded(const mp_int *base, const mp_int *e,
			   const mp_int *order, const mp_int *m, mp_int *out);

#endif /* NCR_TOMMATH_PORT_H */
