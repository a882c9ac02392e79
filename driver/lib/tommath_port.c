// SPDX-License-Identifier: GPL-2.0
/* Helpers shared by the LibTomMath-based public-key code. */
#include "tommath_port.h"
#include "mont.h"

int ncr_mp_errno(mp_err err)
{
	if (err == MP_OKAY)
		return 0;
	if (err == MP_VAL)
		return -EINVAL;
	/* a killed caller's allocations and random draws fail (ltm_kernel.c) */
	if (ncr_should_stop())
		return -EINTR;
	return err == MP_MEM ? -ENOMEM : -EIO;
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
	err = ncr_mp_exptmod_public(v, q, p, &t);
	*in = !err && mp_cmp_d(&t, 1) == MP_EQ;
	mp_clear(&t);
	return err;
}

/* a (0 <= a < 2^(64n)) as n 64-bit limbs, least significant first. */
static void mp_to_limbs(const mp_int *a, u64 *l, size_t n)
{
	size_t i, bit;

	memset(l, 0, n * sizeof(*l));
	for (i = 0, bit = 0; i < (size_t)a->used; i++, bit += MP_DIGIT_BIT) {
		u64 d = a->dp[i];
		size_t k = bit / 64, sh = bit % 64;

		if (k < n)
			l[k] |= d << sh;
		if (sh + MP_DIGIT_BIT > 64 && k + 1 < n)
			l[k + 1] |= d >> (64 - sh);
	}
}

static int mp_from_limbs(mp_int *a, const u64 *l, size_t n)
{
	int i, digits = (int)((64 * n + MP_DIGIT_BIT - 1) / MP_DIGIT_BIT);
	int err = ncr_mp_errno(mp_grow(a, digits));

	if (err)
		return err;
	mp_zero(a);
	for (i = 0; i < digits; i++) {
		size_t bit = (size_t)i * MP_DIGIT_BIT, k = bit / 64;
		size_t sh = bit % 64;
		u64 d = l[k] >> sh;

		if (sh + MP_DIGIT_BIT > 64 && k + 1 < n)
			d |= l[k + 1] << (64 - sh);
		a->dp[i] = (mp_digit)d & MP_MASK;
	}
	a->used = digits;
	mp_clamp(a);
	return 0;
}

static size_t mp_limbs(const mp_int *a)
{
	return ((size_t)mp_count_bits(a) + 63) / 64;
}

/*
 * out = base^e mod m (m odd) through lib/mont.c; e is processed over at
 * least elimbs limbs.  A base of up to twice m's limbs (an RSA input for
 * a CRT half) goes in whole, reduced there; only a longer or negative one
 * is divided by LibTomMath's mp_mod, which sees only the base (blinded by
 * the callers).
 */
static int exptmod_mont(const mp_int *base, const mp_int *e, size_t elimbs,
			const mp_int *m, mp_int *out, bool secret)
{
	size_t n = mp_limbs(m), el = mp_limbs(e), alimbs, size;
	const mp_int *b = base;
	u64 *ml, *al, *el_;
	int err = 0;

	if (el < elimbs)
		el = elimbs;
	if (mp_isneg(e) || !el || n > NCR_PK_MAX_BITS / 64 ||
	    el > NCR_PK_MAX_BITS / 64 + 1)
		return -EINVAL;
	size = (3 * n + el) * sizeof(u64);
	ml = ncr_malloc(size);
	if (!ml)
		return -ENOMEM;
	al = ml + n;
	el_ = al + 2 * n;
	mp_to_limbs(m, ml, n);
	mp_to_limbs(e, el_, el);
	if (mp_isneg(base) || mp_limbs(base) > 2 * n) {
		err = ncr_mp_errno(mp_mod(base, m, out));
		b = out;
	}
	if (!err) {
		alimbs = mp_limbs(b) > n ? mp_limbs(b) : n;
		mp_to_limbs(b, al, alimbs);
		err = secret ?
		      ncr_mont_exp_secret(al, al, alimbs, el_, el, ml, n) :
		      ncr_mont_exp_public(al, al, alimbs, el_, el, ml, n);
	}
	if (!err)
		err = mp_from_limbs(out, al, n);
	ncr_free_sensitive(ml, size);
	return err;
}

/* The limbs of a, b (each below m, odd) into lib/mont.c and back. */
static int mont_op(const mp_int *a, const mp_int *b, const mp_int *m,
		   mp_int *out)
{
	size_t n = mp_limbs(m), size = 3 * n * sizeof(u64);
	u64 *ml, *al, *bl;
	int err;

	if (mp_iseven(m) || mp_isneg(a) || mp_cmp(a, m) != MP_LT ||
	    (b && (mp_isneg(b) || mp_cmp(b, m) != MP_LT)) ||
	    n > NCR_PK_MAX_BITS / 64)
		return -EINVAL;
	ml = ncr_malloc(size);
	if (!ml)
		return -ENOMEM;
	al = ml + n;
	bl = al + n;
	mp_to_limbs(m, ml, n);
	mp_to_limbs(a, al, n);
	if (b) {
		mp_to_limbs(b, bl, n);
		err = ncr_mont_mul(al, al, bl, ml, n);
	} else {
		err = ncr_mont_to(al, al, ml, n);
	}
	if (!err)
		err = mp_from_limbs(out, al, n);
	ncr_free_sensitive(ml, size);
	return err;
}

int ncr_mp_mont_mul(const mp_int *a, const mp_int *b, const mp_int *m,
		    mp_int *out)
{
	return mont_op(a, b, m, out);
}

int ncr_mp_mont_to(const mp_int *a, const mp_int *m, mp_int *out)
{
	return mont_op(a, NULL, m, out);
}

int ncr_mp_exptmod_public(const mp_int *base, const mp_int *e,
			  const mp_int *m, mp_int *out)
{
	if (mp_iseven(m))
		return ncr_mp_errno(mp_exptmod(base, e, m, out));
	return exptmod_mont(base, e, 0, m, out, false);
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
	/* every call processes the same number of exponent bits */
	if (!err)
		err = exptmod_mont(base, &t, mp_limbs(order) + 1, m, out, true);
	mp_clear(&t);
	return err;
}
