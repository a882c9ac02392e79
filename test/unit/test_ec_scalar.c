// SPDX-License-Identifier: GPL-2.0
/*
 * driver/lib/ec_scalar.c against libcrypto's BIGNUM arithmetic modulo the
 * orders (and, for the sums, the primes) of P-256 and P-384: random
 * operands and the edge values 0, 1, 2, n - 1, n - 2 and long runs of
 * ones and zeros; sums, differences, products, inverses, and ECDSA's s
 * against k^-1 (e + r d) computed directly.
 */
#include <stdio.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/obj_mac.h>
#include <openssl/rand.h>

#include "ec_scalar.h"
#include "bn_limbs.h"
#include "unit.h"

#define ROUNDS 4000

static BN_CTX *ctx;

static bool equal(const u64 *l, const BIGNUM *b, size_t n)
{
	u64 want[NCR_EC_SCALAR_LIMBS];

	bn_to_limbs(b, want, n);
	return !memcmp(l, want, n * 8);
}

/* An operand below m: random, or one of the edge values by index. */
static void operand(BIGNUM *v, const BIGNUM *m, int i)
{
	int bits = BN_num_bits(m);

	switch (i % 10) {
	case 0: BN_zero(v); break;
	case 1: BN_one(v); break;
	case 2: BN_set_word(v, 2); break;
	case 3: BN_sub(v, m, BN_value_one()); break;
	case 4: BN_sub(v, m, BN_value_one()); BN_sub_word(v, 1); break;
	case 5:		/* a long run of ones below the top */
		BN_zero(v);
		BN_set_bit(v, bits - 2);
		BN_sub_word(v, 1);
		break;
	case 6:		/* a long run of zeros */
		BN_zero(v);
		BN_set_bit(v, bits - 2);
		BN_add_word(v, 1);
		break;
	default: BN_rand_range(v, m); break;
	}
}

static void check_curve(int nid, const char *name)
{
	EC_GROUP *g = EC_GROUP_new_by_curve_name(nid);
	BIGNUM *n = BN_new(), *p = BN_new(), *a = BN_new(), *b = BN_new();
	BIGNUM *want = BN_new(), *t = BN_new(), *k = BN_new(), *d = BN_new();
	u64 nl[NCR_EC_SCALAR_LIMBS], pl[NCR_EC_SCALAR_LIMBS];
	u64 al[NCR_EC_SCALAR_LIMBS], bl[NCR_EC_SCALAR_LIMBS];
	u64 kl[NCR_EC_SCALAR_LIMBS], dl[NCR_EC_SCALAR_LIMBS];
	u64 rl[NCR_EC_SCALAR_LIMBS];
	size_t nd;
	int i, bad = 0;

	EC_GROUP_get_order(g, n, ctx);
	EC_GROUP_get_curve(g, p, NULL, NULL, ctx);
	nd = (size_t)(BN_num_bits(n) + 63) / 64;
	bn_to_limbs(n, nl, nd);
	bn_to_limbs(p, pl, nd);
	for (i = 0; i < ROUNDS && bad < 5; i++) {
		const BIGNUM *m = i % 2 ? p : n;
		const u64 *ml = i % 2 ? pl : nl;

		operand(a, m, i);
		operand(b, m, i / 10);
		bn_to_limbs(a, al, nd);
		bn_to_limbs(b, bl, nd);
		ncr_ec_scalar_add(rl, al, bl, ml, nd);
		BN_mod_add(want, a, b, m, ctx);
		bad += !CHECKF(equal(rl, want, nd), "%s: add, round %d", name, i);
		ncr_ec_scalar_sub(rl, al, bl, ml, nd);
		BN_mod_sub(want, a, b, m, ctx);
		bad += !CHECKF(equal(rl, want, nd), "%s: sub, round %d", name, i);
		CHECK(!ncr_ec_scalar_mul(rl, al, bl, ml, nd));
		BN_mod_mul(want, a, b, m, ctx);
		bad += !CHECKF(equal(rl, want, nd), "%s: mul, round %d", name, i);
		if (BN_is_zero(a) || i % 2)
			continue;
		CHECK(!ncr_ec_scalar_inv(rl, al, nl, nd));
		BN_mod_inverse(want, a, n, ctx);
		bad += !CHECKF(equal(rl, want, nd), "%s: inv, round %d", name, i);
	}
	/* s = k^-1 (e + r d): a = e, b = r, blinding factor t */
	for (i = 0; i < ROUNDS / 4 && bad < 5; i++) {
		u64 el[NCR_EC_SCALAR_LIMBS], tl[NCR_EC_SCALAR_LIMBS];

		operand(k, n, i);
		if (BN_is_zero(k))	/* k and d lie in [1, n - 1] */
			BN_one(k);
		operand(d, n, i / 10);
		if (BN_is_zero(d))
			BN_one(d);
		BN_rand_range(a, n);
		BN_rand_range(b, n);
		do
			BN_rand_range(t, n);
		while (BN_is_zero(t));
		bn_to_limbs(k, kl, nd);
		bn_to_limbs(d, dl, nd);
		bn_to_limbs(a, el, nd);
		bn_to_limbs(b, bl, nd);
		bn_to_limbs(t, tl, nd);
		CHECK(!ncr_ec_scalar_sign_s(rl, kl, tl, dl, el, bl, nl, nd));
		BN_mod_mul(want, b, d, n, ctx);
		BN_mod_add(want, want, a, n, ctx);
		BN_mod_inverse(t, k, n, ctx);
		BN_mod_mul(want, want, t, n, ctx);
		bad += !CHECKF(equal(rl, want, nd), "%s: s, round %d", name, i);
	}
	BN_free(n); BN_free(p); BN_free(a); BN_free(b);
	BN_free(want); BN_free(t); BN_free(k); BN_free(d);
	EC_GROUP_free(g);
}

int main(void)
{
	ctx = BN_CTX_new();
	check_curve(NID_X9_62_prime256v1, "P-256");
	check_curve(NID_secp384r1, "P-384");
	BN_CTX_free(ctx);
	return unit_report("test_ec_scalar");
}
