// SPDX-License-Identifier: GPL-2.0
/*
 * driver/lib/ec_nist.c against libcrypto, P-256 and P-384: public keys
 * d G, ECDSA with a given nonce (r = x(k G) mod n, s = k^-1 (e + r d),
 * computed by libcrypto's BIGNUM and EC_POINT), verification of it and of
 * changed ones, ECDH x(d Q) and public-key validation, over
 * random scalars and points and the edge scalars 1, 2, n - 1, n - 2 and
 * long runs of ones and zeros.  Arguments: the round count (default 2000)
 * and optionally one curve; ctest runs 100000 of each curve on an
 * optimised build as well.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/obj_mac.h>
#include <openssl/rand.h>

#include "ec_math.h"
#include "ec_nist.h"
#include "unit.h"

struct ref {
	EC_GROUP *g;
	BN_CTX *bn;
	BIGNUM *n;
	unsigned int id, nb;
	const char *name;
};

static void be_of(const BIGNUM *v, u8 *out, unsigned int nb)
{
	if (BN_bn2binpad(v, out, (int)nb) != (int)nb)
		FAIL("number wider than %u bytes", nb);
}

/* A scalar in [1, n - 1]: an edge value by index, else random. */
static void scalar(const struct ref *c, BIGNUM *v, unsigned int i)
{
	int bits = BN_num_bits(c->n);

	switch (i % 16) {
	case 0: BN_one(v); break;
	case 1: BN_set_word(v, 2); break;
	case 2: BN_sub(v, c->n, BN_value_one()); break;
	case 3: BN_sub(v, c->n, BN_value_one()); BN_sub_word(v, 1); break;
	case 4:		/* ones from bit 0 to bit bits - 2 */
		BN_zero(v);
		BN_set_bit(v, bits - 1);
		BN_sub_word(v, 1);
		break;
	case 5:		/* a one, a long run of zeros, a one */
		BN_zero(v);
		BN_set_bit(v, bits - 1);
		BN_add_word(v, 1);
		break;
	case 6:		/* ones in the low half only */
		BN_zero(v);
		BN_set_bit(v, bits / 2);
		BN_sub_word(v, 1);
		break;
	default:
		do
			BN_rand_range(v, c->n);
		while (BN_is_zero(v));
		break;
	}
}

/* X || Y of q. */
static void point_be(const struct ref *c, const EC_POINT *q, u8 *xy)
{
	BIGNUM *x = BN_new(), *y = BN_new();

	if (!EC_POINT_get_affine_coordinates(c->g, q, x, y, c->bn))
		FAIL("%s: no affine coordinates", c->name);
	be_of(x, xy, c->nb);
	be_of(y, xy + c->nb, c->nb);
	BN_free(x);
	BN_free(y);
}

/*
 * Verification and validation cost a variable-base multiplication each,
 * and so does each of libcrypto's references: every 16th round is enough
 * for d G, verification and validation (signing checks k G every round).
 */
#define SPARSE(i) ((i) % 16 == 0)

static void check_pub(const struct ref *c, const BIGNUM *d, u8 *pub)
{
	u8 want[2 * NCR_EC_MAX_BYTES], be[NCR_EC_MAX_BYTES];
	EC_POINT *q = EC_POINT_new(c->g);

	be_of(d, be, c->nb);
	EC_POINT_mul(c->g, q, d, NULL, NULL, c->bn);
	point_be(c, q, want);
	CHECKF(ncr_ec_math_pub(c->id, c->nb, be, pub) == 0 &&
	       !memcmp(pub, want, 2 * c->nb), "%s: d G differs", c->name);
	CHECKF(ncr_ec_math_check_pub(c->id, c->nb, pub) == 0,
	       "%s: a valid public key refused", c->name);
	EC_POINT_free(q);
}

/*
 * ECDSA with nonce k and blinding b against libcrypto's r and s, and k G
 * itself; on sparse rounds (pub is then d G) the verification too.
 */
static void check_sign(const struct ref *c, const BIGNUM *d, const u8 *pub,
		       unsigned int i)
{
	BIGNUM *k = BN_new(), *b = BN_new(), *e = BN_new(), *r = BN_new();
	BIGNUM *s = BN_new(), *t = BN_new(), *x = BN_new();
	u8 kb[NCR_EC_MAX_BYTES], bb[NCR_EC_MAX_BYTES], eb[NCR_EC_MAX_BYTES];
	u8 db[NCR_EC_MAX_BYTES], rb[NCR_EC_MAX_BYTES], sb[NCR_EC_MAX_BYTES];
	u8 want[NCR_EC_MAX_BYTES], kg[2 * NCR_EC_MAX_BYTES];
	u8 kg_want[2 * NCR_EC_MAX_BYTES];
	EC_POINT *R = EC_POINT_new(c->g);
	int err;

	scalar(c, k, i / 16);
	scalar(c, b, i + 7);
	BN_rand(e, (int)c->nb * 8, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY);
	be_of(k, kb, c->nb);
	be_of(b, bb, c->nb);
	be_of(e, eb, c->nb);
	be_of(d, db, c->nb);
	/* the reference: r = x(k G) mod n, s = k^-1 (e + r d) mod n */
	EC_POINT_mul(c->g, R, k, NULL, NULL, c->bn);
	point_be(c, R, kg_want);
	CHECKF(ncr_ec_math_pub(c->id, c->nb, kb, kg) == 0 &&
	       !memcmp(kg, kg_want, 2 * c->nb), "%s: k G differs", c->name);
	EC_POINT_get_affine_coordinates(c->g, R, x, NULL, c->bn);
	BN_nnmod(r, x, c->n, c->bn);
	BN_mod_mul(t, r, d, c->n, c->bn);
	BN_mod_add(t, t, e, c->n, c->bn);
	BN_mod_inverse(s, k, c->n, c->bn);
	BN_mod_mul(s, s, t, c->n, c->bn);

	err = ncr_ec_math_sign(c->id, c->nb, db, kb, bb, eb, rb, sb);
	if (BN_is_zero(r) || BN_is_zero(s)) {
		CHECKF(err == -EAGAIN, "%s: r or s 0 gave %d", c->name, err);
		goto out;
	}
	CHECKF(err == 0, "%s: sign gave %d", c->name, err);
	be_of(r, want, c->nb);
	CHECKF(!memcmp(rb, want, c->nb), "%s: r differs", c->name);
	be_of(s, want, c->nb);
	CHECKF(!memcmp(sb, want, c->nb), "%s: s differs", c->name);
	if (!SPARSE(i))
		goto out;
	CHECKF(ncr_ec_math_verify(c->id, c->nb, pub, eb, rb, sb) == 1,
	       "%s: own signature refused", c->name);
	sb[c->nb - 1] ^= 1;
	CHECKF(ncr_ec_math_verify(c->id, c->nb, pub, eb, rb, sb) == 0,
	       "%s: changed signature accepted", c->name);
out:
	EC_POINT_free(R);
	BN_free(k);
	BN_free(b);
	BN_free(e);
	BN_free(r);
	BN_free(s);
	BN_free(t);
	BN_free(x);
}

/*
 * The peer of a round: q G, walked as q + 1, (q + 1) G = q G + G (an
 * addition, not a multiplication), from a fresh random q every 256 rounds.
 */
struct peer {
	BIGNUM *q;
	EC_POINT *Q;
};

static void peer_next(const struct ref *c, struct peer *p, unsigned int i)
{
	if (i % 256 == 0) {
		scalar(c, p->q, 7);
		EC_POINT_mul(c->g, p->Q, p->q, NULL, NULL, c->bn);
		return;
	}
	BN_add_word(p->q, 1);
	BN_nnmod(p->q, p->q, c->n, c->bn);
	EC_POINT_add(c->g, p->Q, p->Q, EC_GROUP_get0_generator(c->g), c->bn);
}

/* ECDH x(d Q) against libcrypto's (d q) G. */
static void check_ecdh(const struct ref *c, const BIGNUM *d,
		       const struct peer *p, unsigned int i)
{
	BIGNUM *x = BN_new(), *dq = BN_new();
	EC_POINT *S = EC_POINT_new(c->g);
	u8 peer[2 * NCR_EC_MAX_BYTES], db[NCR_EC_MAX_BYTES];
	u8 got[NCR_EC_MAX_BYTES], want[NCR_EC_MAX_BYTES];

	point_be(c, p->Q, peer);
	BN_mod_mul(dq, d, p->q, c->n, c->bn);
	EC_POINT_mul(c->g, S, BN_is_zero(dq) ? NULL : dq, NULL, NULL, c->bn);
	if (BN_is_zero(dq))
		goto out;	/* d q = n: x(O) does not exist */
	EC_POINT_get_affine_coordinates(c->g, S, x, NULL, c->bn);
	be_of(x, want, c->nb);
	be_of(d, db, c->nb);
	CHECKF(ncr_ec_math_ecdh(c->id, c->nb, db, peer, got) == 0 &&
	       !memcmp(got, want, c->nb), "%s: ECDH differs", c->name);
	if (!SPARSE(i))
		goto out;
	/* off the curve: refused */
	peer[2 * c->nb - 1] ^= 1;
	CHECKF(ncr_ec_math_ecdh(c->id, c->nb, db, peer, got) == -EINVAL,
	       "%s: ECDH took a point off the curve", c->name);
	CHECKF(ncr_ec_math_check_pub(c->id, c->nb, peer) == -EINVAL,
	       "%s: a point off the curve passed", c->name);
out:
	EC_POINT_free(S);
	BN_free(x);
	BN_free(dq);
}

/* Coordinates >= p, and the wrong curve size, are refused. */
static void check_refusals(const struct ref *c)
{
	u8 pt[2 * NCR_EC_MAX_BYTES], d[NCR_EC_MAX_BYTES] = { 0 }, x[48];

	memset(pt, 0xff, sizeof(pt));
	d[c->nb - 1] = 1;
	CHECK(ncr_ec_math_check_pub(c->id, c->nb, pt) == -EINVAL);
	CHECK(ncr_ec_math_ecdh(c->id, c->nb, d, pt, x) == -EINVAL);
	CHECK(ncr_ec_math_pub(c->id, c->nb + 1, d, pt) == -EINVAL);
	CHECK(ncr_ec_math_pub(7, c->nb, d, pt) == -EINVAL);
}

static void run_curve(int nid, unsigned int id, const char *name,
		      unsigned int rounds)
{
	struct ref c = { .id = id, .name = name };
	u8 pub[2 * NCR_EC_MAX_BYTES];
	BIGNUM *d = BN_new();
	struct peer p;
	unsigned int i;

	c.g = EC_GROUP_new_by_curve_name(nid);
	c.bn = BN_CTX_new();
	c.n = BN_dup(EC_GROUP_get0_order(c.g));
	c.nb = (unsigned int)BN_num_bytes(c.n);
	p.q = BN_new();
	p.Q = EC_POINT_new(c.g);
	for (i = 0; i < rounds; i++) {
		scalar(&c, d, i);
		if (SPARSE(i))
			check_pub(&c, d, pub);
		check_sign(&c, d, pub, i);
		peer_next(&c, &p, i);
		check_ecdh(&c, d, &p, i);
		if (unit_failures > 20)
			break;
	}
	check_refusals(&c);
	printf("%s: %u rounds\n", name, i);
	BN_free(p.q);
	EC_POINT_free(p.Q);
	BN_free(d);
	BN_free(c.n);
	BN_CTX_free(c.bn);
	EC_GROUP_free(c.g);
}

/* [rounds [curve]]: 2000 rounds of both curves by default. */
int main(int argc, char **argv)
{
	unsigned int rounds = argc > 1 ? (unsigned int)atoi(argv[1]) : 2000;
	const char *only = argc > 2 ? argv[2] : NULL;

	if (ncr_ec_nist_init())
		FAIL("ncr_ec_nist_init failed");
	if (!only || !strcmp(only, "P-256"))
		run_curve(NID_X9_62_prime256v1, NCR_EC_MATH_P256, "P-256",
			  rounds);
	if (!only || !strcmp(only, "P-384"))
		run_curve(NID_secp384r1, NCR_EC_MATH_P384, "P-384", rounds);
	return unit_report("test_ec_nist");
}
