// SPDX-License-Identifier: GPL-2.0
/* Finite-field Diffie-Hellman on LibTomMath. */
#include "pk_key.h"

size_t ncr_dh_prime_bytes(const struct ncr_ffc_key *k)
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
 * probe the private key with.
 */
static int dh_set_q(struct ncr_ffc_key *k)
{
	return ncr_mp_errno(mp_div_2(&k->p, &k->q));
}

/* 2 * security strength (SP 800-57) and at least 256 bits. */
static int dh_private_bits(int pbits)
{
	int bits = pbits >= 15360 ? 512 : pbits >= 7680 ? 384 :
		   pbits >= 3072 ? 256 : 256;

	return bits < pbits - 1 ? bits : pbits - 2;
}

int ncr_dh_generate(struct ncr_ffc_key *k, const u8 *p, size_t p_len,
		    const u8 *g, size_t g_len)
{
	int err;

	if (p_len > NCR_PK_MAX_BYTES + 1 || g_len > NCR_PK_MAX_BYTES + 1)
		return -EINVAL;
	err = ncr_mp_from_be(&k->p, p, p_len);
	if (!err)
		err = ncr_mp_from_be(&k->g, g, g_len);
	if (!err)
		err = dh_set_q(k);
	if (!err)
		err = ncr_ffc_check_group(k, false);
	/* x of dh_private_bits() bits (top bit set), so 2 <= x < p - 1 */
	if (!err)
		err = ncr_mp_rand_bits(&k->x, dh_private_bits(mp_count_bits(&k->p)));
	if (!err)
		err = ncr_mp_exptmod_blinded(&k->g, &k->x, &k->q, &k->p,
					     &k->y);
	if (!err)
		k->has_private = true;
	return err;
}

int ncr_dh_check_key(struct ncr_ffc_key *k)
{
	mp_int t;
	int err;

	if (!k->has_private && mp_iszero(&k->p)) {
		/* a bare public value: only its size can be checked */
		if (mp_isneg(&k->y) || mp_cmp_d(&k->y, 2) == MP_LT ||
		    mp_count_bits(&k->y) > NCR_PK_MAX_BITS)
			return -EINVAL;
		return 0;
	}
	if (mp_count_bits(&k->p) > NCR_PK_MAX_BITS)
		return -EINVAL;
	err = ncr_mp_errno(mp_init(&t));
	if (err)
		return err;
	if (k->has_private && !dh_in_range(&k->x, &k->p, &t))
		err = -EINVAL;
	mp_clear(&t);
	if (!err)
		err = dh_set_q(k);
	return err ? err : ncr_ffc_check_key(k);
}

int ncr_dh_compute(const struct ncr_ffc_key *priv, const u8 *peer, size_t len,
		   u8 *out, size_t *out_len)
{
	size_t plen = ncr_dh_prime_bytes(priv);
	mp_int v, t;
	bool ok;
	int err;

	if (!priv->has_private || mp_iszero(&priv->p))
		return -EINVAL;
	if (*out_len < plen)
		return -ENOSPC;
	if (len > NCR_PK_MAX_BYTES + 1)
		return -EINVAL;
	err = ncr_mp_errno(mp_init_multi(&v, &t, NULL));
	if (err)
		return err;
	err = ncr_mp_from_be(&v, peer, len);
	/* of order q, and so in [2, p - 2] */
	if (!err)
		err = ncr_mp_in_subgroup(&v, &priv->q, &priv->p, &ok);
	if (!err && !ok)
		err = -EINVAL;
	/* x is used again with peers the caller picks: blind it */
	if (!err)
		err = ncr_mp_exptmod_blinded(&v, &priv->x, &priv->q, &priv->p,
					     &t);
	/* cannot happen for a peer of order q; kept as a last guard */
	if (!err && !dh_in_range(&t, &priv->p, &v))
		err = -EINVAL;
	if (!err)
		err = ncr_mp_to_fixed(&t, out, plen);
	if (!err)
		*out_len = plen;
	mp_clear_multi(&v, &t, NULL);
	return err;
}

/* ---- the ops ---- */

static int dh_check(struct ncr_pk *pk)
{
	pk->is_private = pk->dh.has_private;
	return ncr_dh_check_key(&pk->dh);
}

static int dh_generate(struct ncr_pk *pk, struct nlattr *tb[])
{
	const struct nlattr *p = tb[NCR_ATTR_DH_PRIME], *g = tb[NCR_ATTR_DH_BASE];

	if (!p || !g)
		return -EINVAL;
	return ncr_dh_generate(&pk->dh, ncr_nla_data(p), ncr_nla_len(p),
			       ncr_nla_data(g), ncr_nla_len(g));
}

static size_t dh_max_len(const struct ncr_pk *pk)
{
	return ncr_dh_prime_bytes(&pk->dh);
}

static const u8 dh_oid[] = {	/* 1.2.840.113549.1.3.1 dhKeyAgreement */
	0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x03, 0x01 };

/* PKCS#3 { p, g, privateValueLength OPTIONAL (checked, not kept) }. */
static int dh_get_params(struct ncr_pk *pk, struct ncr_der a)
{
	mp_int l;
	mp_int *const v[] = { &pk->dh.p, &pk->dh.g, &l };
	int err = ncr_der_get_seq_uints(a, v, 2);

	if (err != -EINVAL)
		return err;
	err = ncr_mp_errno(mp_init(&l));
	if (!err) {
		err = ncr_der_get_seq_uints(a, v, 3);
		mp_clear(&l);
	}
	return err;
}

static int dh_put_params(struct ncr_der_wr *w, const struct ncr_pk *pk)
{
	const mp_int *v[] = { &pk->dh.p, &pk->dh.g };

	if (mp_iszero(&pk->dh.p))
		return -EINVAL;	/* a bare DH value has no parameters */
	return ncr_der_put_int_seq(w, v, 2);
}

/* KEY_IMPORT/EXPORT: the public value as a bare big-endian number. */
static int dh_import_public(struct ncr_pk *pk, const u8 *data, size_t len)
{
	if (len > NCR_PK_MAX_BYTES + 1)
		return -EINVAL;
	return ncr_mp_from_be(&pk->dh.y, data, len);
}

static int dh_export_public(const struct ncr_pk *pk, u8 *buf, size_t *len)
{
	size_t n = mp_ubin_size(&pk->dh.y), written;

	if (!buf) {
		*len = n;
		return 0;
	}
	if (n > *len)
		return -ERANGE;
	*len = n;
	return ncr_mp_errno(mp_to_ubin(&pk->dh.y, buf, n, &written));
}

static int dh_derive(const struct ncr_pk *pk, const u8 *peer, size_t peer_len,
		     u8 *out, size_t *len)
{
	return ncr_dh_compute(&pk->dh, peer, peer_len, out, len);
}

const struct ncr_pk_ops ncr_pk_dh = {
	.name = "dh",
	.derive_name = NCR_DERIVE_DH,
	.init = ncr_ffc_init,
	.clear = ncr_ffc_clear,
	.check = dh_check,
	.generate = dh_generate,
	.copy_public = ncr_ffc_copy_public,
	.bits = ncr_ffc_bits,
	.max_len = dh_max_len,
	.oid = dh_oid,
	.oid_len = sizeof(dh_oid),
	.get_params = dh_get_params,
	.put_params = dh_put_params,
	.get_public = ncr_ffc_get_y,
	.put_public = ncr_ffc_put_y,
	.get_pkcs8 = ncr_ffc_get_x,
	.put_pkcs8 = ncr_ffc_put_x,
	.import_public = dh_import_public,
	.export_public = dh_export_public,
	.derive = dh_derive,
};
