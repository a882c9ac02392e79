// SPDX-License-Identifier: GPL-2.0
/* Finite-field Diffie-Hellman on LibTomMath. */
#include "dh.h"

int ncr_dh_key_init(struct ncr_dh_key *k)
{
	k->has_private = false;
	return ncr_mp_errno(mp_init_multi(&k->p, &k->g, &k->y, &k->x, NULL));
}

void ncr_dh_key_clear(struct ncr_dh_key *k)
{
	mp_clear_multi(&k->p, &k->g, &k->y, &k->x, NULL);
	k->has_private = false;
}

size_t ncr_dh_prime_bytes(const struct ncr_dh_key *k)
{
	return ((size_t)mp_count_bits(&k->p) + 7) / 8;
}

/* v in [2, p - 2] */
static bool dh_in_range(const mp_int *v, const mp_int *p, mp_int *tmp)
{
	if (mp_isneg(v) || mp_cmp_d(v, 2) == MP_LT)
		return false;
	if (mp_sub_d(p, 1, tmp) != MP_OKAY)
		return false;
	return mp_cmp(v, tmp) == MP_LT;
}

/*
 * The parameters carry no q (PKCS#3), so the group must be one where q is
 * known: p a safe prime, q = (p - 1) / 2 prime, and g of order q (as in
 * RFC 7919 and RFC 3526 with g = 2).  Every public value must then lie in
 * that subgroup of prime order, which leaves a peer no small subgroup to
 * probe the private key with.  Sets q.
 */
static int dh_check_params(const struct ncr_dh_key *k, mp_int *q)
{
	int bits = mp_count_bits(&k->p), err;
	bool ok;

	if (mp_isneg(&k->p) || mp_iseven(&k->p) || bits < NCR_DH_MIN_BITS ||
	    bits > NCR_PK_MAX_BITS || !dh_in_range(&k->g, &k->p, q))
		return -EINVAL;
	err = ncr_mp_errno(mp_div_2(&k->p, q));
	if (!err)
		err = ncr_mp_in_subgroup(&k->g, q, &k->p, &ok);
	if (!err && ok)
		err = ncr_mp_check_prime(q, &ok);
	if (!err && ok)
		err = ncr_mp_check_prime(&k->p, &ok);
	return err ? err : ok ? 0 : -EINVAL;
}

/* v in [2, p - 2] and of order q; q as dh_check_params() sets it. */
static int dh_check_public(const mp_int *v, const mp_int *p, const mp_int *q)
{
	bool ok;
	int err;

	err = ncr_mp_in_subgroup(v, q, p, &ok);
	return err ? err : ok ? 0 : -EINVAL;
}

/* 2 * security strength (SP 800-57) and at least 256 bits. */
static int dh_private_bits(int pbits)
{
	int bits = pbits >= 15360 ? 512 : pbits >= 7680 ? 384 :
		   pbits >= 3072 ? 256 : 256;

	return bits < pbits - 1 ? bits : pbits - 2;
}

int ncr_dh_generate(struct ncr_dh_key *k, const u8 *p, size_t p_len,
		    const u8 *g, size_t g_len)
{
	mp_int t;
	int err;

	if (p_len > NCR_PK_MAX_BYTES + 1 || g_len > NCR_PK_MAX_BYTES + 1)
		return -EINVAL;
	err = ncr_mp_errno(mp_init(&t));
	if (err)
		return err;
	err = ncr_mp_from_be(&k->p, p, p_len);
	if (!err)
		err = ncr_mp_from_be(&k->g, g, g_len);
	if (!err)
		err = dh_check_params(k, &t);
	/* x of dh_private_bits() bits (top bit set), so 2 <= x < p - 1 */
	if (!err)
		err = ncr_mp_rand_bits(&k->x, dh_private_bits(mp_count_bits(&k->p)));
	if (!err)
		err = ncr_mp_errno(mp_exptmod(&k->g, &k->x, &k->p, &k->y));
	if (!err)
		k->has_private = true;
	mp_clear(&t);
	return err;
}

int ncr_dh_check_key(const struct ncr_dh_key *k)
{
	mp_int t;
	int err;

	err = ncr_mp_errno(mp_init(&t));
	if (err)
		return err;
	if (!k->has_private && mp_iszero(&k->p)) {
		/* a bare public value: only its size can be checked */
		if (mp_isneg(&k->y) || mp_cmp_d(&k->y, 2) == MP_LT ||
		    mp_count_bits(&k->y) > NCR_PK_MAX_BITS)
			err = -EINVAL;
		goto out;
	}
	err = dh_check_params(k, &t);
	if (!err)
		err = dh_check_public(&k->y, &k->p, &t);
	if (err || !k->has_private)
		goto out;
	if (mp_isneg(&k->x) || mp_cmp_d(&k->x, 1) != MP_GT ||
	    !dh_in_range(&k->x, &k->p, &t))
		err = -EINVAL;
	if (!err)
		err = ncr_mp_errno(mp_exptmod(&k->g, &k->x, &k->p, &t));
	if (!err && mp_cmp(&t, &k->y) != MP_EQ)
		err = -EINVAL;
out:
	mp_clear(&t);
	return err;
}

int ncr_dh_compute(const struct ncr_dh_key *priv, const u8 *peer, size_t len,
		   u8 *out, size_t *out_len)
{
	size_t plen = ncr_dh_prime_bytes(priv);
	mp_int v, t, q;
	int err;

	if (!priv->has_private || mp_iszero(&priv->p))
		return -EINVAL;
	if (*out_len < plen)
		return -ENOSPC;
	if (len > NCR_PK_MAX_BYTES + 1)
		return -EINVAL;
	err = ncr_mp_errno(mp_init_multi(&v, &t, &q, NULL));
	if (err)
		return err;
	err = ncr_mp_from_be(&v, peer, len);
	if (!err)
		err = ncr_mp_errno(mp_div_2(&priv->p, &q));
	if (!err)
		err = dh_check_public(&v, &priv->p, &q);
	/* x is used again with peers the caller picks: blind it */
	if (!err)
		err = ncr_mp_exptmod_blinded(&v, &priv->x, &q, &priv->p, &t);
	/* cannot happen for a peer of order q; kept as a last guard */
	if (!err && !dh_in_range(&t, &priv->p, &v))
		err = -EINVAL;
	if (!err)
		err = ncr_mp_to_fixed(&t, out, plen);
	if (!err)
		*out_len = plen;
	mp_clear_multi(&v, &t, &q, NULL);
	return err;
}

int ncr_dh_copy_public(struct ncr_dh_key *dst, const struct ncr_dh_key *src)
{
	int err = ncr_mp_errno(mp_copy(&src->p, &dst->p));

	if (!err)
		err = ncr_mp_errno(mp_copy(&src->g, &dst->g));
	if (!err)
		err = ncr_mp_errno(mp_copy(&src->y, &dst->y));
	dst->has_private = false;
	return err;
}
