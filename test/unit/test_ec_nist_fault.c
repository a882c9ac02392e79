// SPDX-License-Identifier: GPL-2.0
/*
 * The fault checks of driver/lib/ec_nist.c, which no correct run reaches:
 * this test includes the file itself so that it can hand c_to_affine() and
 * sign_s_holds() the damaged values a glitch would leave (a flipped bit in
 * any coordinate of k G, a wrong Z, the point at infinity, a flipped bit
 * of s or r), and checks that each is caught, so that no signature is
 * released.
 */
#include "../../driver/lib/ec_nist.c"

#include "unit.h"

static const struct nist_curve *const curves[] = { &p256, &p384 };

/* k G for a fixed k, projective, as the comb leaves it. */
static void base_mult(const struct nist_curve *c, struct nist_pt *q)
{
	u64 k[ND_MAX] = { 0x0123456789abcdefULL, 0xfedcba9876543210ULL,
			  0x0f1e2d3c4b5a6978ULL, 0x1234567812345678ULL };

	c_mul_g(c, q, k);
}

static void check_affine(const struct nist_curve *c)
{
	struct nist_pt q, bad;
	u64 x[ND_MAX], y[ND_MAX];
	unsigned int limb, bit;

	base_mult(c, &q);
	CHECKF(c_to_affine(c, x, y, &q), "%u: a good point refused", c->nd);
	for (limb = 0; limb < c->nd; limb++) {
		for (bit = 0; bit < 64; bit += 21) {
			u64 flip = 1ULL << bit;

			bad = q;
			bad.x[limb] ^= flip;
			CHECKF(!c_to_affine(c, x, y, &bad),
			       "%u: X bit %u/%u missed", c->nd, limb, bit);
			bad = q;
			bad.y[limb] ^= flip;
			CHECKF(!c_to_affine(c, x, y, &bad),
			       "%u: Y bit %u/%u missed", c->nd, limb, bit);
			bad = q;
			bad.z[limb] ^= flip;
			CHECKF(!c_to_affine(c, x, y, &bad),
			       "%u: Z bit %u/%u missed", c->nd, limb, bit);
		}
	}
	bad = q;
	memset(bad.z, 0, sizeof(bad.z));
	CHECKF(!c_to_affine(c, x, y, &bad), "%u: Z = 0 missed", c->nd);
	pt_set_inf(c, &bad);
	CHECKF(!c_to_affine(c, x, y, &bad), "%u: O missed", c->nd);
}

/* s k = e + r d: a flipped bit of s (or of the r it was made with). */
static void check_sign_s(const struct nist_curve *c)
{
	struct nist_tmp w;
	unsigned int limb, bit;

	memset(&w, 0, sizeof(w));
	w.k[0] = 0x0123456789abcdefULL;
	w.k[2] = 0x42;
	w.b[0] = 0x5678;
	w.d[1] = 0x9abcdef012345678ULL;
	w.e[0] = 0xdef0;
	w.r[2] = 0x1357;
	sign_s(c, &w);
	CHECKF(sign_s_holds(c, &w), "%u: a good s refused", c->nd);
	for (limb = 0; limb < c->nd; limb++) {
		for (bit = 0; bit < 64; bit += 13) {
			w.s[limb] ^= 1ULL << bit;
			CHECKF(!sign_s_holds(c, &w), "%u: s bit %u/%u missed",
			       c->nd, limb, bit);
			w.s[limb] ^= 1ULL << bit;
			w.r[limb] ^= 1ULL << bit;
			CHECKF(!sign_s_holds(c, &w), "%u: r bit %u/%u missed",
			       c->nd, limb, bit);
			w.r[limb] ^= 1ULL << bit;
		}
	}
}

int main(void)
{
	unsigned int i;

	if (ncr_ec_nist_init())
		FAIL("ncr_ec_nist_init failed");
	for (i = 0; i < 2; i++) {
		check_affine(curves[i]);
		check_sign_s(curves[i]);
	}
	return unit_report("test_ec_nist_fault");
}
