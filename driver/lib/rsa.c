// SPDX-License-Identifier: GPL-2.0
/*
 * RSA on LibTomMath: key generation, the raw primitives, and the ops that
 * put them together with the encodings of pkcs1.c.
 */
#include "pk_key.h"

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
		err = ncr_mp_exptmod_public(&m, &k->e, &k->n, &m);
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
	 * c^dP mod p as c^(dP + r (p - 1)): another exponent every time, on
	 * top of the constant-time exponentiation.
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
		err = ncr_mp_exptmod_public(&b->a, &k->e, &k->n, &b->a);
	if (!err)
		err = ncr_mp_mont_to(&b->a, &k->n, &b->a);
	if (!err)
		err = ncr_mp_mont_to(&b->ai, &k->n, &b->ai);
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
		err = ncr_mp_mont_mul(&b->a, &b->a, &k->n, &b->a);
		if (!err)
			err = ncr_mp_mont_mul(&b->ai, &b->ai, &k->n, &b->ai);
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
		err = ncr_mp_mont_mul(&c, &blind->a, &k->n, &t);
	if (!err)
		err = rsa_crt(k, &t, &m, &r, &c);
	if (!err)
		err = ncr_mp_mont_mul(&m, &blind->ai, &k->n, &m);
	/* fault check: m^e must give back the input before m is released */
	if (!err)
		err = ncr_mp_exptmod_public(&m, &k->e, &k->n, &t);
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

/* ---- the ops ---- */

static int rsa_init(struct ncr_pk *pk)
{
	return ncr_rsa_key_init(&pk->rsa);
}

static void rsa_clear(struct ncr_pk *pk)
{
	ncr_rsa_key_clear(&pk->rsa);
}

static int rsa_check(struct ncr_pk *pk)
{
	pk->is_private = pk->rsa.has_private;
	return ncr_rsa_check_key(&pk->rsa);
}

static int rsa_generate(struct ncr_pk *pk, struct nlattr *tb[])
{
	u32 bits = ncr_pk_attr_u32(tb, NCR_ATTR_RSA_MODULUS_BITS, 0);
	const struct nlattr *e = tb[NCR_ATTR_RSA_E];

	if (!bits)
		return -EINVAL;
	return ncr_rsa_generate(&pk->rsa, bits, e ? ncr_nla_data(e) : NULL,
				e ? ncr_nla_len(e) : 0);
}

static int rsa_copy_public(struct ncr_pk *dst, const struct ncr_pk *src)
{
	return ncr_rsa_copy_public(&dst->rsa, &src->rsa);
}

static unsigned int rsa_bits(const struct ncr_pk *pk)
{
	return ncr_rsa_modulus_bits(&pk->rsa);
}

static size_t rsa_max_len(const struct ncr_pk *pk)
{
	return ncr_rsa_modulus_bytes(&pk->rsa);
}

static const u8 rsa_oid[] = {	/* 1.2.840.113549.1.1.1 rsaEncryption */
	0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01 };
static const u8 der_null[] = { NCR_DER_NULL, 0x00 };

/* Parameters NULL, as RFC 3279 requires and OpenSSL writes. */
static int rsa_get_params(struct ncr_pk *pk, struct ncr_der a)
{
	(void)pk;
	return a.len == sizeof(der_null) &&
	       !memcmp(a.p, der_null, sizeof(der_null)) ? 0 : -EINVAL;
}

static int rsa_put_params(struct ncr_der_wr *w, const struct ncr_pk *pk)
{
	(void)pk;
	ncr_der_put_bytes(w, der_null, sizeof(der_null));
	return 0;
}

/* PKCS#1 RSAPublicKey, also accepted alone (der.c). */
static int rsa_get_public(struct ncr_pk *pk, struct ncr_der der)
{
	mp_int *const v[] = { &pk->rsa.n, &pk->rsa.e };

	return ncr_der_get_seq_uints(der, v, 2);
}

static int rsa_put_public(struct ncr_der_wr *w, const struct ncr_pk *pk)
{
	const mp_int *v[] = { &pk->rsa.n, &pk->rsa.e };

	return ncr_der_put_int_seq(w, v, 2);
}

/* PKCS#1 RSAPrivateKey, version 0: two primes only. */
static int rsa_get_private(struct ncr_pk *pk, struct ncr_der seq)
{
	struct ncr_rsa_key *k = &pk->rsa;
	mp_int *const v[] = { NULL, &k->n, &k->e, &k->d, &k->p, &k->q,
			      &k->dp, &k->dq, &k->qinv };
	int err = ncr_der_get_uints(seq, v, 9);

	if (!err)
		k->has_private = true;
	return err;
}

static int rsa_put_private(struct ncr_der_wr *w, const struct ncr_pk *pk)
{
	const struct ncr_rsa_key *k = &pk->rsa;
	const mp_int *v[] = { NULL, &k->n, &k->e, &k->d, &k->p, &k->q,
			      &k->dp, &k->dq, &k->qinv };

	return ncr_der_put_int_seq(w, v, 9);
}

static int rsa_get_pkcs8(struct ncr_pk *pk, struct ncr_der der)
{
	struct ncr_der seq;

	return ncr_der_get_only_seq(der.p, der.len, &seq) ?:
	       rsa_get_private(pk, seq);
}

static int rsa_setup(struct ncr_pk_params *p, u32 op, struct nlattr *tb[],
		     ncr_pk_hash_fn hash)
{
	u32 salt;
	int err;

	/* mandatory for RSA (CRYPTO(4)) */
	p->method = ncr_pk_attr_u32(tb, NCR_ATTR_RSA_ENCODING_METHOD, ~0u);
	if (op == NCR_OP_SIGN || op == NCR_OP_VERIFY) {
		if (p->method != RSA_PKCS1_V1_5 && p->method != RSA_PKCS1_PSS)
			return -EINVAL;
		err = hash(ncr_pk_attr_str(tb,
				NCR_ATTR_SIGNATURE_HASH_ALGORITHM), &p->hash);
		if (err)
			return err;
		p->pad_hash = p->method == RSA_PKCS1_PSS;
		salt = ncr_pk_attr_u32(tb, NCR_ATTR_RSA_PSS_SALT_LENGTH, 0);
		p->salt_len = salt;
		if (salt != NCR_RSA_PSS_SALT_LENGTH_AUTO)
			return 0;
		p->salt_len = NCR_PSS_SALT_AUTO;
		return op == NCR_OP_VERIFY ? 0 : -EINVAL;
	}
	if (p->method == RSA_PKCS1_OAEP) {
		p->pad_hash = true;
		return hash(ncr_pk_attr_str(tb,
				NCR_ATTR_RSA_OAEP_HASH_ALGORITHM), &p->hash);
	}
	return p->method == RSA_PKCS1_V1_5 ? 0 : -EINVAL;
}

static int rsa_rng(void *ctx, u8 *buf, size_t len)
{
	(void)ctx;
	return ncr_random_bytes(buf, len);
}

/* The private operation, with the key's blinding pair if p says it may. */
static int rsa_private(struct ncr_pk *pk, const struct ncr_pk_params *p,
		       const u8 *in, u8 *out, size_t k)
{
	return ncr_rsa_private(&pk->rsa, p->own_cache ? &pk->rsa.blind : NULL,
			       in, k, out, k);
}

static int rsa_sign(struct ncr_pk *pk, const struct ncr_pk_params *p,
		    const u8 *digest, u8 *sig, size_t *len)
{
	size_t k = ncr_rsa_modulus_bytes(&pk->rsa);
	size_t bits = ncr_rsa_modulus_bits(&pk->rsa);
	u8 *block;
	int err;

	if (*len < k)
		return -ERANGE;
	block = ncr_malloc(k);
	if (!block)
		return -ENOMEM;
	if (p->method == RSA_PKCS1_PSS)
		err = ncr_emsa_pss_encode(p->hops, digest, p->salt_len, rsa_rng,
					  NULL, bits, block, k);
	else
		err = ncr_emsa_pkcs1_v15_encode(p->hash, digest,
						ncr_pkcs1_hash_size(p->hash),
						block, k);
	if (!err)
		err = rsa_private(pk, p, block, sig, k);
	if (!err)
		*len = k;
	ncr_free_sensitive(block, k);
	return err;
}

/* The size checks of op, before its input is read or any key work. */
static int rsa_check_sizes(const struct ncr_pk *pk,
			   const struct ncr_pk_params *p, u32 op,
			   size_t in_len, size_t out_len)
{
	size_t k = ncr_rsa_modulus_bytes(&pk->rsa), max;

	if (op == NCR_OP_VERIFY)
		return in_len != k;	/* RFC 8017 8.2.2 step 1 */
	if (op == NCR_OP_ENCRYPT)
		return out_len < k ? -ERANGE : in_len > k ? -EMSGSIZE : 0;
	if (op != NCR_OP_DECRYPT)
		return 0;
	if (in_len != k)
		return -EINVAL;
	max = p->method == RSA_PKCS1_OAEP ?
	      ncr_rsaes_oaep_max_msg(p->hops, k) :
	      ncr_rsaes_pkcs1_v15_max_msg(k);
	if (!max)
		return -EINVAL;	/* key too small for the encoding */
	return out_len < max ? -ERANGE : 0;
}

static int rsa_verify(const struct ncr_pk *pk, const struct ncr_pk_params *p,
		      const u8 *digest, const u8 *sig, size_t len)
{
	size_t k = ncr_rsa_modulus_bytes(&pk->rsa);
	size_t bits = ncr_rsa_modulus_bits(&pk->rsa);
	u8 *block;
	int err;

	if (rsa_check_sizes(pk, p, NCR_OP_VERIFY, len, 0))
		return 0;
	block = ncr_malloc(k);
	if (!block)
		return -ENOMEM;
	err = ncr_rsa_public(&pk->rsa, sig, k, block, k);
	if (err == -EINVAL)	/* s >= n */
		err = -EBADMSG;
	else if (!err && p->method == RSA_PKCS1_PSS)
		err = ncr_emsa_pss_verify(p->hops, digest, p->salt_len, bits,
					  block, k);
	else if (!err)
		err = ncr_emsa_pkcs1_v15_verify(p->hash, digest,
						ncr_pkcs1_hash_size(p->hash),
						block, k);
	ncr_free_sensitive(block, k);
	return err == -EBADMSG ? 0 : err ? err : 1;
}

static int rsa_encrypt(const struct ncr_pk *pk, const struct ncr_pk_params *p,
		       const u8 *in, size_t in_len, u8 *out, size_t *len)
{
	size_t k = ncr_rsa_modulus_bytes(&pk->rsa);
	u8 *block;
	int err;

	err = rsa_check_sizes(pk, p, NCR_OP_ENCRYPT, in_len, *len);
	if (err)
		return err;
	block = ncr_malloc(k);
	if (!block)
		return -ENOMEM;
	if (p->method == RSA_PKCS1_OAEP)
		err = ncr_rsaes_oaep_encode(p->hops, NULL, 0, in, in_len,
					    rsa_rng, NULL, block, k);
	else
		err = ncr_rsaes_pkcs1_v15_encode(in, in_len, rsa_rng, NULL,
						 block, k);
	if (!err)
		err = ncr_rsa_public(&pk->rsa, block, k, out, k);
	if (!err)
		*len = k;
	ncr_free_sensitive(block, k);
	return err;
}

/*
 * Every undecryptable ciphertext of the right length gives -EBADMSG, and
 * the output must have room for the longest possible message before any
 * private-key work: no padding oracle (Bleichenbacher, Manger).
 */
static int rsa_decrypt(struct ncr_pk *pk, const struct ncr_pk_params *p,
		       const u8 *in, size_t in_len, u8 *out, size_t *len)
{
	size_t k = ncr_rsa_modulus_bytes(&pk->rsa);
	bool oaep = p->method == RSA_PKCS1_OAEP;
	u8 *block;
	int err;

	err = rsa_check_sizes(pk, p, NCR_OP_DECRYPT, in_len, *len);
	if (err)
		return err;
	block = ncr_malloc(k);
	if (!block)
		return -ENOMEM;
	err = rsa_private(pk, p, in, block, k);
	if (err == -EINVAL)	/* c >= n */
		err = -EBADMSG;
	else if (!err)
		err = (oaep ? ncr_rsaes_oaep_decode(p->hops, NULL, 0, block, k,
						    out, *len, len) :
		       ncr_rsaes_pkcs1_v15_decode(block, k, out, *len, len)) ?
		      -EBADMSG : 0;
	ncr_free_sensitive(block, k);
	return err;
}

const struct ncr_pk_ops ncr_pk_rsa = {
	.name = "rsa",
	.init = rsa_init,
	.clear = rsa_clear,
	.check = rsa_check,
	.generate = rsa_generate,
	.copy_public = rsa_copy_public,
	.bits = rsa_bits,
	.max_len = rsa_max_len,
	.oid = rsa_oid,
	.oid_len = sizeof(rsa_oid),
	.get_params = rsa_get_params,
	.put_params = rsa_put_params,
	.get_public = rsa_get_public,
	.put_public = rsa_put_public,
	.get_pkcs8 = rsa_get_pkcs8,
	.get_private = rsa_get_private,
	.put_private = rsa_put_private,
	.setup = rsa_setup,
	.check_sizes = rsa_check_sizes,
	.sign = rsa_sign,
	.verify = rsa_verify,
	.encrypt = rsa_encrypt,
	.decrypt = rsa_decrypt,
};
