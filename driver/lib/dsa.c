// SPDX-License-Identifier: GPL-2.0
/* DSA (FIPS 186-4) on LibTomMath. */
#include "pk_key.h"

static bool dsa_sizes_ok(unsigned int p_bits, unsigned int q_bits)
{
	return (p_bits == 1024 && q_bits == 160) ||
	       (p_bits == 2048 && (q_bits == 224 || q_bits == 256)) ||
	       (p_bits == 3072 && q_bits == 256);
}

/* p = X - (X mod 2q) + 1 for random X of p_bits bits, until prime (A.1.1.2). */
static int dsa_gen_p(struct ncr_ffc_key *k, int p_bits, mp_int *x, mp_int *c)
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
static int dsa_gen_g(struct ncr_ffc_key *k, mp_int *e, mp_int *h)
{
	int err;

	err = ncr_mp_errno(mp_sub_d(&k->p, 1, e));
	if (!err)
		err = ncr_mp_errno(mp_div(e, &k->q, e, NULL));
	mp_set(h, 2);
	while (!err) {
		err = ncr_mp_exptmod_public(h, e, &k->p, &k->g);
		if (err || mp_cmp_d(&k->g, 1) == MP_GT)
			break;
		err = ncr_mp_errno(mp_add_d(h, 1, h));
	}
	return err;
}

int ncr_dsa_generate(struct ncr_ffc_key *k, unsigned int p_bits,
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
		err = ncr_mp_exptmod_blinded(&k->g, &k->x, &k->q, &k->p,
					     &k->y);
	if (!err)
		k->has_private = true;
	mp_clear_multi(&t[0], &t[1], &t[2], NULL);
	return err;
}

int ncr_dsa_check_key(struct ncr_ffc_key *k)
{
	int pb = mp_count_bits(&k->p), qb = mp_count_bits(&k->q);

	/* the sizes generation makes, before any exponentiation */
	if (!dsa_sizes_ok(pb, qb))
		return -EINVAL;
	if (k->has_private && (mp_isneg(&k->x) || mp_iszero(&k->x) ||
			       mp_cmp(&k->x, &k->q) != MP_LT))
		return -EINVAL;
	return ncr_ffc_check_key(k);
}

size_t ncr_dsa_sig_max_len(const struct ncr_ffc_key *k)
{
	/* two INTEGERs of at most q bytes + 1, with headers of at most 4 */
	size_t ib = (size_t)(mp_count_bits(&k->q) + 7) / 8 + 1;

	return 2 * (ib + 4) + 4;
}

/* z = leftmost min(N, 8 * len) bits of the digest (FIPS 186-4 4.6). */
static int dsa_digest_to_z(const struct ncr_ffc_key *k, const u8 *digest,
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
static int dsa_nonce_inverse(const struct ncr_ffc_key *k, mp_int *kk,
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

int ncr_dsa_sign_digest(const struct ncr_ffc_key *k, const u8 *digest,
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

int ncr_dsa_verify_digest(const struct ncr_ffc_key *k, const u8 *digest,
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
		err = ncr_mp_exptmod_public(&k->g, &z, &k->p, &v);
	if (!err)
		err = ncr_mp_exptmod_public(&k->y, &w, &k->p, &s);
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

int ncr_der_decode_dsa_sig(const u8 *der, size_t len, mp_int *r, mp_int *s)
{
	mp_int *const v[] = { r, s };
	struct ncr_der d = { der, len };

	return ncr_der_get_seq_uints(d, v, 2);
}

int ncr_der_encode_dsa_sig(const mp_int *r, const mp_int *s, u8 *out,
			   size_t *len)
{
	struct ncr_der_wr w = { out, out ? *len : 0, 0 };
	const mp_int *v[] = { r, s };

	return ncr_der_finish(&w, out, len, ncr_der_put_int_seq(&w, v, 2));
}

/* ---- the ops ---- */

static int dsa_check(struct ncr_pk *pk)
{
	pk->is_private = pk->dsa.has_private;
	return ncr_dsa_check_key(&pk->dsa);
}

static int dsa_generate(struct ncr_pk *pk, struct nlattr *tb[])
{
	return ncr_dsa_generate(&pk->dsa,
				ncr_pk_attr_u32(tb, NCR_ATTR_DSA_P_BITS, 1024),
				ncr_pk_attr_u32(tb, NCR_ATTR_DSA_Q_BITS, 160));
}

static size_t dsa_max_len(const struct ncr_pk *pk)
{
	return ncr_dsa_sig_max_len(&pk->dsa);
}

static const u8 dsa_oid[] = {	/* 1.2.840.10040.4.1 id-dsa */
	0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x38, 0x04, 0x01 };

static int dsa_get_params(struct ncr_pk *pk, struct ncr_der a)
{
	mp_int *const v[] = { &pk->dsa.p, &pk->dsa.q, &pk->dsa.g };

	return ncr_der_get_seq_uints(a, v, 3);
}

static int dsa_put_params(struct ncr_der_wr *w, const struct ncr_pk *pk)
{
	const mp_int *v[] = { &pk->dsa.p, &pk->dsa.q, &pk->dsa.g };

	return ncr_der_put_int_seq(w, v, 3);
}

/* OpenSSL's DSAPrivateKey SEQUENCE { 0, p, q, g, y, x }. */
static int dsa_get_private(struct ncr_pk *pk, struct ncr_der seq)
{
	struct ncr_ffc_key *k = &pk->dsa;
	mp_int *const v[] = { NULL, &k->p, &k->q, &k->g, &k->y, &k->x };
	int err = ncr_der_get_uints(seq, v, 6);

	k->has_private = !err;
	return err;
}

static int dsa_put_private(struct ncr_der_wr *w, const struct ncr_pk *pk)
{
	const struct ncr_ffc_key *k = &pk->dsa;
	const mp_int *v[] = { NULL, &k->p, &k->q, &k->g, &k->y, &k->x };

	return ncr_der_put_int_seq(w, v, 6);
}

static int dsa_setup(struct ncr_pk_params *p, u32 op, struct nlattr *tb[],
		     ncr_pk_hash_fn hash)
{
	if (op != NCR_OP_SIGN && op != NCR_OP_VERIFY)
		return -EINVAL;
	return hash(ncr_pk_attr_str(tb, NCR_ATTR_SIGNATURE_HASH_ALGORITHM),
		    &p->hash);
}

static int dsa_sign(struct ncr_pk *pk, const struct ncr_pk_params *p,
		    const u8 *digest, u8 *sig, size_t *len)
{
	int err = ncr_dsa_sign_digest(&pk->dsa, digest,
				      ncr_pkcs1_hash_size(p->hash), sig, len);

	return err == -ENOSPC ? -ERANGE : err;
}

static int dsa_verify(const struct ncr_pk *pk, const struct ncr_pk_params *p,
		      const u8 *digest, const u8 *sig, size_t len)
{
	int err = ncr_dsa_verify_digest(&pk->dsa, digest,
					ncr_pkcs1_hash_size(p->hash), sig, len);

	return err == -EINVAL ? 0 : err;	/* not strict DER: invalid */
}

const struct ncr_pk_ops ncr_pk_dsa = {
	.name = "dsa",
	.init = ncr_ffc_init,
	.clear = ncr_ffc_clear,
	.check = dsa_check,
	.generate = dsa_generate,
	.copy_public = ncr_ffc_copy_public,
	.bits = ncr_ffc_bits,
	.max_len = dsa_max_len,
	.oid = dsa_oid,
	.oid_len = sizeof(dsa_oid),
	.get_params = dsa_get_params,
	.put_params = dsa_put_params,
	.get_public = ncr_ffc_get_y,
	.put_public = ncr_ffc_put_y,
	.get_pkcs8 = ncr_ffc_get_x,
	.get_private = dsa_get_private,
	.put_private = dsa_put_private,
	.setup = dsa_setup,
	.sign = dsa_sign,
	.verify = dsa_verify,
};
