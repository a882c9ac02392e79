// SPDX-License-Identifier: GPL-2.0
/* DSA (FIPS 186-4) on LibTomMath. */
#include "dsa.h"
#include "der.h"

#define DSA_MIN_P_BITS 512
#define DSA_MIN_Q_BITS 160
#define DSA_MAX_Q_BITS 512

int ncr_dsa_key_init(struct ncr_dsa_key *k)
{
	k->has_private = false;
	return ncr_mp_errno(mp_init_multi(&k->p, &k->q, &k->g, &k->y, &k->x,
					  NULL));
}

void ncr_dsa_key_clear(struct ncr_dsa_key *k)
{
	mp_clear_multi(&k->p, &k->q, &k->g, &k->y, &k->x, NULL);
	k->has_private = false;
}

static bool dsa_sizes_ok(unsigned int p_bits, unsigned int q_bits)
{
	return (p_bits == 1024 && q_bits == 160) ||
	       (p_bits == 2048 && (q_bits == 224 || q_bits == 256)) ||
	       (p_bits == 3072 && q_bits == 256);
}

/* p = X - (X mod 2q) + 1 for random X of p_bits bits, until prime (A.1.1.2). */
static int dsa_gen_p(struct ncr_dsa_key *k, int p_bits, mp_int *x, mp_int *c)
{
	int rounds = ncr_mp_prime_rounds(p_bits), err, i;
	mp_int *q2 = c + 1;
	mp_bool prime;

	err = ncr_mp_errno(mp_mul_2(&k->q, q2));
	for (i = 0; !err && i < 4 * p_bits; i++) {
		err = ncr_mp_rand_bits(x, p_bits);
		if (!err)
			err = ncr_mp_errno(mp_mod(x, q2, c));
		if (!err)
			err = ncr_mp_errno(mp_sub(x, c, &k->p));
		if (!err)
			err = ncr_mp_errno(mp_add_d(&k->p, 1, &k->p));
		if (err)
			return err;
		if (mp_count_bits(&k->p) != p_bits)
			continue;
		err = ncr_mp_errno(mp_prime_is_prime(&k->p, rounds, &prime));
		if (!err && prime)
			return 0;
	}
	return err ? err : -EAGAIN;
}

/* g = h^((p-1)/q) mod p for h = 2, 3, ... until g != 1. */
static int dsa_gen_g(struct ncr_dsa_key *k, mp_int *e, mp_int *h)
{
	int err;

	err = ncr_mp_errno(mp_sub_d(&k->p, 1, e));
	if (!err)
		err = ncr_mp_errno(mp_div(e, &k->q, e, NULL));
	mp_set(h, 2);
	while (!err) {
		err = ncr_mp_errno(mp_exptmod(h, e, &k->p, &k->g));
		if (err || mp_cmp_d(&k->g, 1) == MP_GT)
			break;
		err = ncr_mp_errno(mp_add_d(h, 1, h));
	}
	return err;
}

int ncr_dsa_generate(struct ncr_dsa_key *k, unsigned int p_bits,
		     unsigned int q_bits)
{
	mp_int t[3];
	int err;

	if (!dsa_sizes_ok(p_bits, q_bits))
		return -EINVAL;
	err = ncr_mp_errno(mp_init_multi(&t[0], &t[1], &t[2], NULL));
	if (err)
		return err;
	do {
		err = ncr_mp_errno(mp_prime_rand(&k->q,
						 ncr_mp_prime_rounds((int)q_bits),
						 (int)q_bits, 0));
		if (!err)
			err = dsa_gen_p(k, (int)p_bits, &t[0], &t[1]);
	} while (err == -EAGAIN);
	if (!err)
		err = dsa_gen_g(k, &t[0], &t[1]);
	if (!err)
		err = ncr_mp_rand_range(&k->x, &k->q);
	if (!err)
		err = ncr_mp_errno(mp_exptmod(&k->g, &k->x, &k->p, &k->y));
	if (!err)
		k->has_private = true;
	mp_clear_multi(&t[0], &t[1], &t[2], NULL);
	return err;
}

/* p and q prime, g and y of order q: FIPS 186-4 A.1.1.1 and A.2.2 checks. */
static int dsa_check_group(const struct ncr_dsa_key *k)
{
	bool ok;
	int err;

	err = ncr_mp_in_subgroup(&k->g, &k->q, &k->p, &ok);
	if (!err && ok)
		err = ncr_mp_in_subgroup(&k->y, &k->q, &k->p, &ok);
	if (!err && ok)
		err = ncr_mp_check_prime(&k->q, &ok);
	if (!err && ok)
		err = ncr_mp_check_prime(&k->p, &ok);
	return err ? err : ok ? 0 : -EINVAL;
}

int ncr_dsa_check_key(const struct ncr_dsa_key *k)
{
	int pb = mp_count_bits(&k->p), qb = mp_count_bits(&k->q), err;
	mp_int t;

	if (mp_isneg(&k->p) || mp_isneg(&k->q) || mp_isneg(&k->g) ||
	    mp_isneg(&k->y) || pb < DSA_MIN_P_BITS || pb > NCR_PK_MAX_BITS ||
	    qb < DSA_MIN_Q_BITS || qb > DSA_MAX_Q_BITS || qb >= pb ||
	    mp_iseven(&k->p) || mp_iseven(&k->q) ||
	    mp_cmp_d(&k->g, 1) != MP_GT || mp_cmp(&k->g, &k->p) != MP_LT ||
	    mp_cmp_d(&k->y, 1) != MP_GT || mp_cmp(&k->y, &k->p) != MP_LT)
		return -EINVAL;
	if (k->has_private && (mp_isneg(&k->x) || mp_iszero(&k->x) ||
			       mp_cmp(&k->x, &k->q) != MP_LT))
		return -EINVAL;
	err = ncr_mp_errno(mp_init(&t));
	if (err)
		return err;
	/* q | p - 1 */
	err = ncr_mp_errno(mp_sub_d(&k->p, 1, &t));
	if (!err)
		err = ncr_mp_errno(mp_mod(&t, &k->q, &t));
	if (!err && !mp_iszero(&t))
		err = -EINVAL;
	if (!err)
		err = dsa_check_group(k);
	if (!err && k->has_private) {
		err = ncr_mp_errno(mp_exptmod(&k->g, &k->x, &k->p, &t));
		if (!err && mp_cmp(&t, &k->y) != MP_EQ)
			err = -EINVAL;
	}
	mp_clear(&t);
	return err;
}

size_t ncr_dsa_sig_max_len(const struct ncr_dsa_key *k)
{
	/* two INTEGERs of at most q bytes + 1, with headers of at most 4 */
	size_t ib = (size_t)(mp_count_bits(&k->q) + 7) / 8 + 1;

	return 2 * (ib + 4) + 4;
}

/* z = leftmost min(N, 8 * len) bits of the digest (FIPS 186-4 4.6). */
static int dsa_digest_to_z(const struct ncr_dsa_key *k, const u8 *digest,
			   size_t len, mp_int *z)
{
	size_t qbits = (size_t)mp_count_bits(&k->q), qbytes = (qbits + 7) / 8;
	int err;

	if (len > qbytes)
		len = qbytes;
	err = ncr_mp_from_be(z, digest, len);
	if (!err && 8 * len > qbits)
		err = ncr_mp_errno(mp_div_2d(z, (int)(8 * len - qbits), z, NULL));
	return err;
}

/* kk = kk^-1 mod q, inverted as (kk b)^-1 b for a random b (blinding). */
static int dsa_nonce_inverse(const struct ncr_dsa_key *k, mp_int *kk,
			     mp_int *b)
{
	int err = ncr_mp_rand_range(b, &k->q);

	if (!err)
		err = ncr_mp_errno(mp_mulmod(kk, b, &k->q, kk));
	if (!err)
		err = ncr_mp_errno(mp_invmod(kk, &k->q, kk));
	if (!err)
		err = ncr_mp_errno(mp_mulmod(kk, b, &k->q, kk));
	return err;
}

int ncr_dsa_sign_digest(const struct ncr_dsa_key *k, const u8 *digest,
			size_t len, u8 *sig, size_t *sig_len)
{
	mp_int z, kk, r, s, t;
	int err;

	if (!k->has_private || mp_iszero(&k->q))
		return -EINVAL;
	err = ncr_mp_errno(mp_init_multi(&z, &kk, &r, &s, &t, NULL));
	if (err)
		return err;
	err = dsa_digest_to_z(k, digest, len, &z);
	while (!err) {
		/* k uniform in [1, q-1]: rejection sampling, no modulo bias */
		err = ncr_mp_rand_range(&kk, &k->q);
		if (!err)
			/* g has order q: r = g^(k + j q), j random */
			err = ncr_mp_exptmod_blinded(&k->g, &kk, &k->q,
						     &k->p, &r);
		if (!err)
			err = ncr_mp_errno(mp_mod(&r, &k->q, &r));
		if (err || mp_iszero(&r))
			continue;
		/* s = k^-1 (z + x r) mod q */
		err = ncr_mp_errno(mp_mulmod(&k->x, &r, &k->q, &s));
		if (!err)
			err = ncr_mp_errno(mp_add(&s, &z, &s));
		if (!err)
			err = dsa_nonce_inverse(k, &kk, &t);
		if (!err)
			err = ncr_mp_errno(mp_mulmod(&s, &kk, &k->q, &s));
		if (!err && !mp_iszero(&s))
			break;
	}
	if (!err)
		err = ncr_der_encode_dsa_sig(&r, &s, sig, sig_len);
	mp_clear_multi(&z, &kk, &r, &s, &t, NULL);
	return err;
}

int ncr_dsa_verify_digest(const struct ncr_dsa_key *k, const u8 *digest,
			  size_t len, const u8 *sig, size_t sig_len)
{
	mp_int z, r, s, w, v;
	int err;

	err = ncr_mp_errno(mp_init_multi(&z, &r, &s, &w, &v, NULL));
	if (err)
		return err;
	err = ncr_der_decode_dsa_sig(sig, sig_len, &r, &s);
	if (err)
		goto out;
	if (mp_iszero(&r) || mp_iszero(&s) || mp_cmp(&r, &k->q) != MP_LT ||
	    mp_cmp(&s, &k->q) != MP_LT || mp_iszero(&k->q)) {
		err = 0;
		goto out;
	}
	err = dsa_digest_to_z(k, digest, len, &z);
	/* w = s^-1, u1 = z w, u2 = r w, v = (g^u1 y^u2 mod p) mod q */
	if (!err)
		err = ncr_mp_errno(mp_invmod(&s, &k->q, &w));
	if (!err)
		err = ncr_mp_errno(mp_mulmod(&z, &w, &k->q, &z));
	if (!err)
		err = ncr_mp_errno(mp_mulmod(&r, &w, &k->q, &w));
	if (!err)
		err = ncr_mp_errno(mp_exptmod(&k->g, &z, &k->p, &v));
	if (!err)
		err = ncr_mp_errno(mp_exptmod(&k->y, &w, &k->p, &s));
	if (!err)
		err = ncr_mp_errno(mp_mulmod(&v, &s, &k->p, &v));
	if (!err)
		err = ncr_mp_errno(mp_mod(&v, &k->q, &v));
	if (!err)
		err = mp_cmp(&v, &r) == MP_EQ ? 1 : 0;
out:
	mp_clear_multi(&z, &r, &s, &w, &v, NULL);
	return err;
}

int ncr_dsa_copy_public(struct ncr_dsa_key *dst, const struct ncr_dsa_key *src)
{
	int err = ncr_mp_errno(mp_copy(&src->p, &dst->p));

	if (!err)
		err = ncr_mp_errno(mp_copy(&src->q, &dst->q));
	if (!err)
		err = ncr_mp_errno(mp_copy(&src->g, &dst->g));
	if (!err)
		err = ncr_mp_errno(mp_copy(&src->y, &dst->y));
	dst->has_private = false;
	return err;
}
