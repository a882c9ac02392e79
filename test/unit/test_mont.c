// SPDX-License-Identifier: GPL-2.0
/*
 * driver/lib/mont.c against libcrypto's BN_mod_exp: random odd moduli of
 * every limb count up to 32 and of RSA prime sizes, with the top limb's
 * bit length varied, bases below the modulus and up to 2^(64n) - 1,
 * exponents 0, 1, 2, 65537, random, all ones and longer than the
 * modulus, bases up to twice its width; the products in Montgomery form
 * against BN_mod_mul; and the refusals (even modulus, zero top limb,
 * m = 1, a base of the wrong width).
 */
#include <stdio.h>
#include <openssl/bn.h>
#include <openssl/rand.h>

#include "mont.h"
#include "bn_limbs.h"
#include "unit.h"

static BN_CTX *ctx;

/* One case: both variants against BN_mod_exp, r aliasing a once. */
static void one(const BIGNUM *a, const BIGNUM *e, const BIGNUM *m,
		size_t elimbs, const char *what)
{
	size_t n = ((size_t)BN_num_bits(m) + 63) / 64;
	u64 ml[64], al[64], el[65], rl[64];
	BIGNUM *want = BN_new(), *got;
	int v, err;

	bn_to_limbs(m, ml, n);
	bn_to_limbs(a, al, n);
	bn_to_limbs(e, el, elimbs);
	if (!BN_mod_exp(want, a, e, m, ctx))
		FAIL("BN_mod_exp");
	for (v = 0; v < 2; v++) {
		err = v ? ncr_mont_exp_public(rl, al, n, el, elimbs, ml, n) :
			  ncr_mont_exp_secret(al, al, n, el, elimbs, ml, n);
		got = bn_from_limbs(v ? rl : al, n);
		CHECKF(!err && !BN_cmp(got, want),
		       "%s, %s, %zu limbs: err %d, result %s", what,
		       v ? "public" : "secret", n, err,
		       BN_cmp(got, want) ? "wrong" : "right");
		BN_free(got);
		bn_to_limbs(a, al, n);
	}
	BN_free(want);
}

static BIGNUM *rand_odd(int bits)
{
	BIGNUM *m = BN_new();

	if (!BN_rand(m, bits, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ODD))
		FAIL("BN_rand");
	return m;
}

static void sizes(void)
{
	static const int extra[] = { 1024, 1536, 2048 };
	BIGNUM *a = BN_new(), *e = BN_new();
	int bits, i;

	for (bits = 2; bits <= 64 * 32; bits += bits < 200 ? 1 : 61) {
		BIGNUM *m = rand_odd(bits);
		size_t n = ((size_t)bits + 63) / 64;

		BN_rand_range(a, m);
		BN_rand(e, bits + 64, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY);
		one(a, e, m, n + 1, "random");
		BN_free(m);
	}
	for (i = 0; i < 3; i++) {
		BIGNUM *m = rand_odd(extra[i]);
		size_t n = (size_t)extra[i] / 64;

		BN_rand_range(a, m);
		BN_rand(e, extra[i] + 64, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ANY);
		one(a, e, m, n + 1, "prime-sized");
		BN_free(m);
	}
	BN_free(a);
	BN_free(e);
}

static void edges(void)
{
	BIGNUM *m = rand_odd(1000), *a = BN_new(), *e = BN_new();
	static const unsigned long small_e[] = { 0, 1, 2, 3, 65537 };
	size_t i, n = 16;

	for (i = 0; i < sizeof(small_e) / sizeof(small_e[0]); i++) {
		BN_set_word(e, small_e[i]);
		BN_rand_range(a, m);
		one(a, e, m, 1, "small exponent");
		one(a, e, m, n + 1, "small exponent, padded");
	}
	BN_rand(e, 1100, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ANY);
	BN_zero(a);
	one(a, e, m, 18, "base 0");
	BN_one(a);
	one(a, e, m, 18, "base 1");
	BN_sub(a, m, BN_value_one());
	one(a, e, m, 18, "base m - 1");
	/* a >= m: any n-limb value is taken */
	BN_set_bit(a, 1023);
	BN_set_bit(a, 1022);
	one(a, e, m, 18, "base above m");
	BN_zero(e);
	BN_set_bit(e, 64 * 18 - 1);
	BN_sub_word(e, 1);	/* all ones */
	one(a, e, m, 18, "exponent all ones");
	BN_set_word(m, 3);
	BN_set_word(a, 2);
	one(a, e, m, 18, "m = 3");
	BN_free(m);
	BN_free(a);
	BN_free(e);
}

/*
 * Bases wider than the modulus (n + 1 to 2n limbs, any value), as an RSA
 * input is for each CRT half: both variants against BN_mod_exp, the result
 * written over the base.
 */
static void wide_bases(void)
{
	BIGNUM *a = BN_new(), *e = BN_new(), *want = BN_new(), *got;
	size_t n, w;
	int v, err;

	for (n = 1; n <= 16; n += n < 4 ? 1 : 5) {
		BIGNUM *m = rand_odd(64 * (int)n - (int)n % 7);
		u64 ml[64], al[64], el[17];

		for (w = n + 1; w <= 2 * n; w++) {
			BN_rand(a, 64 * (int)w, BN_RAND_TOP_ANY,
				BN_RAND_BOTTOM_ANY);
			if (w == 2 * n) {	/* all ones: above m R */
				BN_zero(a);
				BN_set_bit(a, 64 * (int)w);
				BN_sub_word(a, 1);
			}
			BN_rand(e, 64 * (int)n, BN_RAND_TOP_ANY,
				BN_RAND_BOTTOM_ANY);
			BN_mod_exp(want, a, e, m, ctx);
			bn_to_limbs(m, ml, n);
			bn_to_limbs(e, el, n);
			for (v = 0; v < 2; v++) {
				bn_to_limbs(a, al, w);
				err = v ? ncr_mont_exp_public(al, al, w, el, n,
							      ml, n) :
					  ncr_mont_exp_secret(al, al, w, el, n,
							      ml, n);
				got = bn_from_limbs(al, n);
				CHECKF(!err && !BN_cmp(got, want), "%s, base of "
				       "%zu limbs mod %zu: err %d",
				       v ? "public" : "secret", w, n, err);
				BN_free(got);
			}
		}
		BN_free(m);
	}
	BN_free(a);
	BN_free(e);
	BN_free(want);
}

/*
 * ncr_mont_to then ncr_mont_mul: (a R) b / R = a b mod m, r aliasing an
 * input each time; and a b / R itself, times R, against BN_mod_mul.
 */
static void products(void)
{
	BIGNUM *a = BN_new(), *b = BN_new(), *want = BN_new(), *got;
	BIGNUM *r = BN_new();
	int bits, err;

	for (bits = 2; bits <= 64 * 32; bits += bits < 200 ? 3 : 97) {
		BIGNUM *m = rand_odd(bits);
		size_t n = ((size_t)bits + 63) / 64;
		u64 ml[64], al[64], bl[64], tl[64];

		BN_rand_range(a, m);
		BN_rand_range(b, m);
		if (bits % 2)
			BN_sub(b, m, BN_value_one());	/* the largest */
		bn_to_limbs(m, ml, n);
		bn_to_limbs(a, al, n);
		bn_to_limbs(b, bl, n);
		BN_mod_mul(want, a, b, m, ctx);
		err = ncr_mont_to(al, al, ml, n);
		err = err ? err : ncr_mont_mul(bl, al, bl, ml, n);
		got = bn_from_limbs(bl, n);
		CHECKF(!err && !BN_cmp(got, want), "a R * b / R, %d bits: "
		       "err %d", bits, err);
		BN_free(got);
		bn_to_limbs(a, al, n);
		bn_to_limbs(b, bl, n);
		err = ncr_mont_mul(tl, al, bl, ml, n);
		got = bn_from_limbs(tl, n);
		BN_zero(r);
		BN_set_bit(r, 64 * (int)n);
		BN_mod_mul(got, got, r, m, ctx);
		CHECKF(!err && !BN_cmp(got, want), "a b / R, %d bits: err %d",
		       bits, err);
		BN_free(got);
		BN_free(m);
	}
	BN_free(a);
	BN_free(b);
	BN_free(r);
	BN_free(want);
}

static void refusals(void)
{
	u64 m[2] = { 4, 1 }, a[2] = { 1, 0 }, e[1] = { 3 }, r[2];

	CHECK(ncr_mont_exp_secret(r, a, 2, e, 1, m, 2) == -EINVAL);
	CHECK(ncr_mont_exp_public(r, a, 2, e, 1, m, 2) == -EINVAL);
	m[0] = 5;
	m[1] = 0;
	CHECK(ncr_mont_exp_secret(r, a, 2, e, 1, m, 2) == -EINVAL);
	m[0] = 1;
	CHECK(ncr_mont_exp_public(r, a, 1, e, 1, m, 1) == -EINVAL);
	CHECK(ncr_mont_exp_secret(r, a, 1, e, 0, m, 1) == -EINVAL);
	CHECK(ncr_mont_exp_secret(r, a, 0, e, 1, m, 0) == -EINVAL);
	CHECK(ncr_mont_mul(r, a, a, m, 1) == -EINVAL);
	m[0] = 4;
	CHECK(ncr_mont_to(r, a, m, 1) == -EINVAL);
	/* a base of the wrong width */
	m[0] = 5;
	m[1] = 1;
	CHECK(ncr_mont_exp_secret(r, a, 5, e, 1, m, 2) == -EINVAL);
	CHECK(ncr_mont_exp_public(r, a, 1, e, 1, m, 2) == -EINVAL);
}

int main(void)
{
	ctx = BN_CTX_new();
	sizes();
	edges();
	wide_bases();
	products();
	refusals();
	BN_CTX_free(ctx);
	return unit_report("test_mont");
}
