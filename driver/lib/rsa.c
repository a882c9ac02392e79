// SPDX-License-Identifier: GPL-2.0
/* RSA key generation and raw primitives on LibTomMath. */
#include "rsa.h"

#define RSA_E_MAX_BITS 256

int ncr_rsa_key_init(struct ncr_rsa_key *k)
{
	k->has_private = false;
	k->blind.uses = 0;
	return ncr_mp_errno(mp_init_multi(&k->n, &k->e, &k->d, &k->p, &k->q,
					  &k->dp, &k->dq, &k->qinv,
					  &k->blind.a, &k->blind.ai, NULL));
}

void ncr_rsa_key_clear(struct ncr_rsa_key *k)
{
	/* mp_clear zeroes the digits before freeing them */
	mp_clear_multi(&k->n, &k->e, &k->d, &k->p, &k->q, &k->dp, &k->dq,
		       &k->qinv, &k->blind.a, &k->blind.ai, NULL);
	k->has_private = false;
	k->blind.uses = 0;
}

unsigned int ncr_rsa_modulus_bits(const struct ncr_rsa_key *k)
{
	return (unsigned int)mp_count_bits(&k->n);
}

size_t ncr_rsa_modulus_bytes(const struct ncr_rsa_key *k)
{
	return (ncr_rsa_modulus_bits(k) + 7) / 8;
}

static int check_e(const mp_int *e)
{
	if (mp_isneg(e) || mp_iseven(e) || mp_cmp_d(e, 3) == MP_LT ||
	    mp_count_bits(e) > RSA_E_MAX_BITS)
		return -EINVAL;
	return 0;
}

/* A prime of bits bits with its two top bits set and gcd(p - 1, e) = 1. */
static int gen_prime(mp_int *p, int bits, const mp_int *e, mp_int *tmp)
{
	int err, rounds = ncr_mp_prime_rounds(bits);

	for (;;) {
		err = ncr_mp_errno(mp_prime_rand(p, rounds, bits,
						 MP_PRIME_2MSB_ON));
		if (err)
			return err;
		err = ncr_mp_errno(mp_sub_d(p, 1, tmp));
		if (!err)
			err = ncr_mp_errno(mp_gcd(tmp, e, tmp));
		if (err)
			return err;
		if (mp_cmp_d(tmp, 1) == MP_EQ)
			return 0;
	}
}

/* d, dP, dQ, qInv from p, q, e (p > q). */
static int rsa_derive_private(struct ncr_rsa_key *k, mp_int *p1, mp_int *q1,
			      mp_int *l)
{
	int err;

	err = ncr_mp_errno(mp_sub_d(&k->p, 1, p1));
	if (!err)
		err = ncr_mp_errno(mp_sub_d(&k->q, 1, q1));
	if (!err)
		err = ncr_mp_errno(mp_lcm(p1, q1, l));
	if (!err)
		err = ncr_mp_errno(mp_invmod(&k->e, l, &k->d));
	if (!err)
		err = ncr_mp_errno(mp_mod(&k->d, p1, &k->dp));
	if (!err)
		err = ncr_mp_errno(mp_mod(&k->d, q1, &k->dq));
	if (!err)
		err = ncr_mp_errno(mp_invmod(&k->q, &k->p, &k->qinv));
	return err;
}

int ncr_rsa_generate(struct ncr_rsa_key *k, unsigned int bits,
		     const u8 *e, size_t e_len)
{
	int pbits = (int)(bits + 1) / 2, qbits = (int)bits / 2, err;
	mp_int t1, t2, t3;

	if (bits < NCR_RSA_MIN_GEN_BITS || bits > NCR_PK_MAX_BITS)
		return -EINVAL;
	if (e && e_len) {
		if (e_len > RSA_E_MAX_BITS / 8 + 1)
			return -EINVAL;
		err = ncr_mp_from_be(&k->e, e, e_len);
	} else {
		mp_set_u32(&k->e, 65537);
		err = 0;
	}
	if (!err)
		err = check_e(&k->e);
	if (err)
		return err;
	err = ncr_mp_errno(mp_init_multi(&t1, &t2, &t3, NULL));
	if (err)
		return err;
	err = gen_prime(&k->p, pbits, &k->e, &t1);
	for (;;) {
		if (err)
			goto out;
		err = gen_prime(&k->q, qbits, &k->e, &t1);
		if (err)
			goto out;
		/* FIPS 186-4 B.3.1: |p - q| > 2^(nlen/2 - 100) */
		err = ncr_mp_errno(mp_sub(&k->p, &k->q, &t1));
		if (err)
			goto out;
		if (mp_count_bits(&t1) <= qbits - 100)
			continue;
		err = ncr_mp_errno(mp_mul(&k->p, &k->q, &k->n));
		if (err)
			goto out;
		/* two top bits set on both primes make this exact, but check */
		if (mp_count_bits(&k->n) != (int)bits)
			continue;
		break;
	}
	if (mp_cmp(&k->p, &k->q) == MP_LT)
		mp_exch(&k->p, &k->q);
	err = rsa_derive_private(k, &t1, &t2, &t3);
	/* FIPS 186-4 B.3.1: d > 2^(nlen/2); astronomically rare otherwise */
	if (!err && mp_count_bits(&k->d) <= qbits)
		err = -EIO;
	if (!err)
		k->has_private = true;
out:
	mp_clear_multi(&t1, &t2, &t3, NULL);
	return err;
}

int ncr_rsa_check_key(const struct ncr_rsa_key *k)
{
	int bits = mp_count_bits(&k->n), err;
	mp_int t, u;

	if (mp_isneg(&k->n) || mp_iseven(&k->n) || bits < NCR_RSA_MIN_BITS ||
	    bits > NCR_PK_MAX_BITS || check_e(&k->e) ||
	    mp_cmp(&k->e, &k->n) != MP_LT)
		return -EINVAL;
	if (!k->has_private)
		return 0;
	if (mp_isneg(&k->p) || mp_isneg(&k->q) || mp_isneg(&k->d) ||
	    mp_isneg(&k->dp) || mp_isneg(&k->dq) || mp_isneg(&k->qinv) ||
	    mp_cmp_d(&k->p, 2) != MP_GT || mp_cmp_d(&k->q, 2) != MP_GT ||
	    mp_cmp(&k->d, &k->n) != MP_LT)
		return -EINVAL;
	err = ncr_mp_errno(mp_init_multi(&t, &u, NULL));
	if (err)
		return err;
	err = ncr_mp_errno(mp_mul(&k->p, &k->q, &t));
	if (err || mp_cmp(&t, &k->n) != MP_EQ)
		goto bad;
	/* dP = d mod (p-1), dQ = d mod (q-1), qInv * q = 1 mod p */
	err = ncr_mp_errno(mp_sub_d(&k->p, 1, &u));
	if (!err)
		err = ncr_mp_errno(mp_mod(&k->d, &u, &t));
	if (err || mp_cmp(&t, &k->dp) != MP_EQ)
		goto bad;
	err = ncr_mp_errno(mp_sub_d(&k->q, 1, &u));
	if (!err)
		err = ncr_mp_errno(mp_mod(&k->d, &u, &t));
	if (err || mp_cmp(&t, &k->dq) != MP_EQ)
		goto bad;
	err = ncr_mp_errno(mp_mulmod(&k->qinv, &k->q, &k->p, &t));
	if (err || mp_cmp_d(&t, 1) != MP_EQ)
		goto bad;
	/* e * dP = 1 mod (p - 1) */
	err = ncr_mp_errno(mp_sub_d(&k->p, 1, &u));
	if (!err)
		err = ncr_mp_errno(mp_mulmod(&k->e, &k->dp, &u, &t));
	if (err || mp_cmp_d(&t, 1) != MP_EQ)
		goto bad;
	mp_clear_multi(&t, &u, NULL);
	return 0;
bad:
	mp_clear_multi(&t, &u, NULL);
	return err ? err : -EINVAL;
}

/* Reads in as a number below n. */
static int rsa_read_input(const struct ncr_rsa_key *k, const u8 *in,
			  size_t in_len, size_t out_len, mp_int *m)
{
	int err;

	if (out_len != ncr_rsa_modulus_bytes(k) || mp_iszero(&k->n))
		return -EINVAL;
	/* leading zeros are fine, but nothing absurdly long */
	if (in_len > NCR_PK_MAX_BYTES + 1)
		return -EINVAL;
	err = ncr_mp_from_be(m, in, in_len);
	if (err)
		return err;
	if (mp_cmp(m, &k->n) != MP_LT)
		return -EINVAL;
	return 0;
}

int ncr_rsa_public(const struct ncr_rsa_key *k, const u8 *in, size_t in_len,
		   u8 *out, size_t out_len)
{
	mp_int m;
	int err;

	err = ncr_mp_errno(mp_init(&m));
	if (err)
		return err;
	err = rsa_read_input(k, in, in_len, out_len, &m);
	if (!err)
		err = ncr_mp_errno(mp_exptmod(&m, &k->e, &k->n, &m));
	if (!err)
		err = ncr_mp_to_fixed(&m, out, out_len);
	mp_clear(&m);
	return err;
}

/* m = c^d mod n by CRT (Garner), with blinded exponents. */
static int rsa_crt(const struct ncr_rsa_key *k, const mp_int *c, mp_int *m,
		   mp_int *m2, mp_int *h)
{
	int err;

	/*
	 * c^dP mod p as c^(dP + r (p - 1)): another exponent every time, so
	 * that LibTomMath's variable-time exponentiation does not accumulate
	 * information about dP and dQ.
	 */
	err = ncr_mp_errno(mp_sub_d(&k->p, 1, h));
	if (!err)
		err = ncr_mp_exptmod_blinded(c, &k->dp, h, &k->p, m);
	if (!err)
		err = ncr_mp_errno(mp_sub_d(&k->q, 1, h));
	if (!err)
		err = ncr_mp_exptmod_blinded(c, &k->dq, h, &k->q, m2);
	/* h = qInv * (m1 - m2) mod p */
	if (!err)
		err = ncr_mp_errno(mp_sub(m, m2, h));
	if (!err)
		err = ncr_mp_errno(mp_mulmod(h, &k->qinv, &k->p, h));
	/* m = m2 + h * q */
	if (!err)
		err = ncr_mp_errno(mp_mul(h, &k->q, h));
	if (!err)
		err = ncr_mp_errno(mp_add(h, m2, m));
	return err;
}

/*
 * A random r is invertible but with negligible probability (a failure
 * would reveal a factor); the inverse is computed first and MP_VAL just
 * draws again.
 */
static int rsa_blinding_draw(const struct ncr_rsa_key *k,
			     struct ncr_rsa_blinding *b)
{
	int err;

	do {
		err = ncr_mp_rand_range(&b->a, &k->n);
		if (err)
			return err;
		err = ncr_mp_errno(mp_invmod(&b->a, &k->n, &b->ai));
	} while (err == -EINVAL);
	if (!err)
		err = ncr_mp_errno(mp_exptmod(&b->a, &k->e, &k->n, &b->a));
	return err;
}

/* The pair for this use: (r^2)^e and (r^2)^-1 follow from r^e and r^-1. */
static int rsa_blinding_next(const struct ncr_rsa_key *k,
			     struct ncr_rsa_blinding *b)
{
	int err;

	if (b->uses == 0 || b->uses >= NCR_RSA_BLINDING_USES) {
		b->uses = 0;
		err = rsa_blinding_draw(k, b);
	} else {
		err = ncr_mp_errno(mp_sqrmod(&b->a, &k->n, &b->a));
		if (!err)
			err = ncr_mp_errno(mp_sqrmod(&b->ai, &k->n, &b->ai));
	}
	if (err) {
		b->uses = 0;	/* a half-updated pair is never used */
		return err;
	}
	b->uses++;
	return 0;
}

/* Temporaries sized for a product mod n, so that none grows on the way. */
static int rsa_init_tmp(const struct ncr_rsa_key *k, mp_int *v[], int n)
{
	int i, err, size = 2 * k->n.used + 2;

	for (i = 0; i < n; i++) {
		err = ncr_mp_errno(mp_init_size(v[i], size));
		if (err) {
			while (i--)
				mp_clear(v[i]);
			return err;
		}
	}
	return 0;
}

int ncr_rsa_private(const struct ncr_rsa_key *k, struct ncr_rsa_blinding *blind,
		    const u8 *in, size_t in_len, u8 *out, size_t out_len)
{
	struct ncr_rsa_blinding once;
	mp_int c, m, r, t;
	mp_int *tmp[] = { &c, &m, &r, &t, &once.a, &once.ai };
	int ntmp = blind ? 4 : 6, err;

	if (!k->has_private)
		return -EINVAL;
	err = rsa_init_tmp(k, tmp, ntmp);
	if (err)
		return err;
	if (!blind) {
		once.uses = 0;
		blind = &once;
	}
	err = rsa_read_input(k, in, in_len, out_len, &c);
	if (err)
		goto out;
	/* blinding: c' = c * r^e, m = m' * r^-1 */
	err = rsa_blinding_next(k, blind);
	if (!err)
		err = ncr_mp_errno(mp_mulmod(&c, &blind->a, &k->n, &t));
	if (!err)
		err = rsa_crt(k, &t, &m, &r, &c);
	if (!err)
		err = ncr_mp_errno(mp_mulmod(&m, &blind->ai, &k->n, &m));
	/* fault check: m^e must give back the input before m is released */
	if (!err)
		err = ncr_mp_errno(mp_exptmod(&m, &k->e, &k->n, &t));
	if (!err)
		err = ncr_mp_from_be(&c, in, in_len);
	if (!err && mp_cmp(&t, &c) != MP_EQ)
		err = -EIO;
	if (!err)
		err = ncr_mp_to_fixed(&m, out, out_len);
	if (err)
		blind->uses = 0;	/* a fault may lie in the pair itself */
out:
	if (err)
		memzero_explicit(out, out_len);
	while (ntmp-- > 0)
		mp_clear(tmp[ntmp]);
	return err;
}

int ncr_rsa_copy_public(struct ncr_rsa_key *dst, const struct ncr_rsa_key *src)
{
	int err = ncr_mp_errno(mp_copy(&src->n, &dst->n));

	if (!err)
		err = ncr_mp_errno(mp_copy(&src->e, &dst->e));
	dst->has_private = false;
	return err;
}
