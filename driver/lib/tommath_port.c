// SPDX-License-Identifier: GPL-2.0
/* Helpers shared by the LibTomMath-based public-key code. */
#include "tommath_port.h"

int ncr_mp_errno(mp_err err)
{
	switch (err) {
	case MP_OKAY:
		return 0;
	case MP_MEM:
		return -ENOMEM;
	case MP_VAL:
		return -EINVAL;
	default:
		return -EIO;
	}
}

int ncr_mp_from_be(mp_int *a, const u8 *buf, size_t len)
{
	mp_digit *dp;
	int digits, shift = 0, err;
	size_t i;

	if (len > (size_t)INT_MAX / 8 - MP_DIGIT_BIT)
		return -EINVAL;
	digits = (int)((len * 8 + MP_DIGIT_BIT - 1) / MP_DIGIT_BIT);
	err = ncr_mp_errno(mp_grow(a, digits > 2 ? digits : 2));
	if (err)
		return err;
	mp_zero(a);
	/* least significant byte first, MP_DIGIT_BIT bits a digit */
	dp = a->dp;
	for (i = len; i-- > 0;) {
		mp_digit b = buf[i];

		*dp |= (b << shift) & MP_MASK;
		shift += 8;
		if (shift >= MP_DIGIT_BIT) {
			shift -= MP_DIGIT_BIT;
			dp++;
			if (shift)
				*dp = b >> (8 - shift);
		}
	}
	a->used = digits;
	mp_clamp(a);
	return 0;
}

int ncr_mp_to_fixed(const mp_int *a, u8 *out, size_t len)
{
	const mp_digit *dp = a->dp, *end = a->dp + a->used;
	mp_digit acc = 0;
	int have = 0;
	size_t i;

	if (mp_isneg(a) || (size_t)mp_count_bits(a) > len * 8)
		return -EINVAL;
	/* least significant byte last; linear, unlike mp_to_ubin */
	for (i = len; i-- > 0;) {
		if (have < 8 && dp < end) {
			mp_digit d = *dp++;

			out[i] = (u8)(acc | (d << have));
			acc = d >> (8 - have);
			have += MP_DIGIT_BIT - 8;
		} else {
			out[i] = (u8)acc;
			acc >>= 8;
			have -= 8;
		}
	}
	return 0;
}

/* r = random number of nbits bits at most (top bits masked). */
static int rand_upto_bits(mp_int *r, int nbits, bool set_top)
{
	size_t n = ((size_t)nbits + 7) / 8;
	u8 *buf;
	int err;

	if (nbits <= 0)
		return -EINVAL;
	buf = ncr_malloc(n);
	if (!buf)
		return -ENOMEM;
	err = ncr_random_bytes(buf, n);
	if (err)
		goto out;
	if (nbits % 8)
		buf[0] &= (u8)((1u << (nbits % 8)) - 1);
	if (set_top)
		buf[0] |= (u8)(1u << ((nbits - 1) % 8));
	err = ncr_mp_from_be(r, buf, n);
out:
	ncr_free_sensitive(buf, n);
	return err;
}

int ncr_mp_rand_range(mp_int *r, const mp_int *bound)
{
	int nbits = mp_count_bits(bound), err, tries;

	if (mp_isneg(bound) || mp_cmp_d(bound, 2) == MP_LT)
		return -EINVAL;
	/* each try succeeds with probability > 1/2 */
	for (tries = 0; tries < 256; tries++) {
		err = rand_upto_bits(r, nbits, false);
		if (err)
			return err;
		if (!mp_iszero(r) && mp_cmp(r, bound) == MP_LT)
			return 0;
	}
	return -EIO;
}

int ncr_mp_rand_bits(mp_int *r, int bits)
{
	return rand_upto_bits(r, bits, true);
}

int ncr_mp_prime_rounds(int bits)
{
	/*
	 * FIPS 186-4 Table C.2/C.3 (error <= 2^-100 for RSA/DSA primes);
	 * LibTomMath adds a strong Lucas test on top, never fewer rounds
	 * than its own recommendation.
	 */
	int fips = bits >= 1536 ? 4 : bits >= 1024 ? 5 : bits >= 512 ? 7 :
		   bits >= 256 ? 27 : 64;
	int ltm = mp_prime_rabin_miller_trials(bits);

	return fips > ltm ? fips : ltm;
}

int ncr_mp_check_prime(const mp_int *n, bool *prime)
{
	mp_bool res = MP_NO;
	int err;

	*prime = false;
	if (mp_isneg(n) || mp_cmp_d(n, 2) == MP_LT)
		return 0;
	err = ncr_mp_errno(mp_prime_is_prime(n,
			ncr_mp_prime_rounds(mp_count_bits(n)), &res));
	*prime = !err && res == MP_YES;
	return err;
}

int ncr_mp_in_subgroup(const mp_int *v, const mp_int *q, const mp_int *p,
		       bool *in)
{
	mp_int t;
	int err;

	*in = false;
	if (mp_isneg(v) || mp_cmp_d(v, 1) != MP_GT || mp_cmp(v, p) != MP_LT)
		return 0;
	err = ncr_mp_errno(mp_init(&t));
	if (err)
		return err;
	err = ncr_mp_errno(mp_exptmod(v, q, p, &t));
	*in = !err && mp_cmp_d(&t, 1) == MP_EQ;
	mp_clear(&t);
	return err;
}

int ncr_mp_exptmod_blinded(const mp_int *base, const mp_int *e,
			   const mp_int *order, const mp_int *m, mp_int *out)
{
	mp_int t;
	int err = ncr_mp_errno(mp_init(&t));

	if (err)
		return err;
	err = ncr_mp_rand_bits(&t, 64);
	if (!err)
		err = ncr_mp_errno(mp_mul(&t, order, &t));
	if (!err)
		err = ncr_mp_errno(mp_add(&t, e, &t));
	if (!err)
		err = ncr_mp_errno(mp_exptmod(base, &t, m, out));
	mp_clear(&t);
	return err;
}
