// SPDX-License-Identifier: GPL-2.0
/* Finite-field keys of DSA and DH: life cycle, validation, DER parts. */
#include "pk_key.h"

int ncr_ffc_key_init(struct ncr_ffc_key *k)
{
	k->has_private = false;
	return ncr_mp_errno(mp_init_multi(&k->p, &k->q, &k->g, &k->y, &k->x,
					  NULL));
}

void ncr_ffc_key_clear(struct ncr_ffc_key *k)
{
	/* mp_clear zeroes the digits before freeing them */
	mp_clear_multi(&k->p, &k->q, &k->g, &k->y, &k->x, NULL);
	k->has_private = false;
}

int ncr_ffc_check_group(const struct ncr_ffc_key *k, bool with_y)
{
	int pb = mp_count_bits(&k->p), err;
	bool ok = false;
	mp_int t;

	if (mp_isneg(&k->p) || mp_isneg(&k->q) || mp_isneg(&k->g) ||
	    pb < NCR_FFC_MIN_P_BITS || pb > NCR_PK_MAX_BITS ||
	    mp_iseven(&k->p) || mp_iseven(&k->q) ||
	    mp_cmp_d(&k->g, 1) != MP_GT || mp_cmp(&k->g, &k->p) != MP_LT)
		return -EINVAL;
	err = ncr_mp_errno(mp_init(&t));
	if (err)
		return err;
	err = ncr_mp_errno(mp_sub_d(&k->p, 1, &t));
	if (!err)
		err = ncr_mp_errno(mp_mod(&t, &k->q, &t));
	if (!err && mp_iszero(&t))
		err = ncr_mp_in_subgroup(&k->g, &k->q, &k->p, &ok);
	/* y before the costly primality tests: a bad y is cheap to refuse */
	if (!err && ok && with_y)
		err = ncr_mp_in_subgroup(&k->y, &k->q, &k->p, &ok);
	if (!err && ok)
		err = ncr_mp_check_prime(&k->q, &ok);
	if (!err && ok)
		err = ncr_mp_check_prime(&k->p, &ok);
	mp_clear(&t);
	return err ? err : ok ? 0 : -EINVAL;
}

int ncr_ffc_check_key(struct ncr_ffc_key *k)
{
	bool derive_y = k->has_private && mp_iszero(&k->y);
	int err = ncr_ffc_check_group(k, !derive_y);
	mp_int t;

	if (err || !k->has_private)
		return err;
	err = ncr_mp_errno(mp_init(&t));
	if (err)
		return err;
	/* g has order q now: the constant-time, blinded exponentiation */
	err = ncr_mp_exptmod_blinded(&k->g, &k->x, &k->q, &k->p, &t);
	if (!err && derive_y)
		err = ncr_mp_errno(mp_copy(&t, &k->y));
	else if (!err && mp_cmp(&t, &k->y) != MP_EQ)
		err = -EINVAL;
	mp_clear(&t);
	return err;
}

int ncr_ffc_init(struct ncr_pk *pk)
{
	return ncr_ffc_key_init(&pk->ffc);
}

void ncr_ffc_clear(struct ncr_pk *pk)
{
	ncr_ffc_key_clear(&pk->ffc);
}

int ncr_ffc_copy_public(struct ncr_pk *dst, const struct ncr_pk *src)
{
	const struct ncr_ffc_key *s = &src->ffc;
	struct ncr_ffc_key *d = &dst->ffc;
	int err = ncr_mp_errno(mp_copy(&s->p, &d->p));

	if (!err)
		err = ncr_mp_errno(mp_copy(&s->q, &d->q));
	if (!err)
		err = ncr_mp_errno(mp_copy(&s->g, &d->g));
	if (!err)
		err = ncr_mp_errno(mp_copy(&s->y, &d->y));
	d->has_private = false;
	return err;
}

unsigned int ncr_ffc_bits(const struct ncr_pk *pk)
{
	return mp_count_bits(&pk->ffc.p);
}

int ncr_ffc_get_y(struct ncr_pk *pk, struct ncr_der der)
{
	return ncr_der_get_only_uint(der, &pk->ffc.y);
}

int ncr_ffc_put_y(struct ncr_der_wr *w, const struct ncr_pk *pk)
{
	return ncr_der_put_int(w, &pk->ffc.y);
}

/*
 * PKCS#8 carries only x: y = g^x mod p is computed by the check, once the
 * sizes and the group have passed (an exponentiation modulo a 16384-bit p
 * is no price to pay for parameters that are refused anyway).
 */
int ncr_ffc_get_x(struct ncr_pk *pk, struct ncr_der der)
{
	struct ncr_ffc_key *k = &pk->ffc;
	int err = ncr_der_get_only_uint(der, &k->x);

	if (!err && mp_iszero(&k->p))
		err = -EINVAL;
	if (!err)
		mp_zero(&k->y);
	k->has_private = !err;
	return err;
}

int ncr_ffc_put_x(struct ncr_der_wr *w, const struct ncr_pk *pk)
{
	return ncr_der_put_int(w, &pk->ffc.x);
}
