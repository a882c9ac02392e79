// SPDX-License-Identifier: GPL-2.0
/*
 * Constant-time check of the arithmetic that touches ECDSA's private
 * scalar and nonce (driver/lib/ec_scalar.c) under valgrind memcheck: d, k,
 * the blinding factor and the operands are marked undefined ("secret"),
 * so memcheck reports any branch or memory address that depends on them.
 * The order n and the digest are public.  Without valgrind the test is
 * not built.
 */
#include <valgrind/memcheck.h>

#include "ec_scalar.h"
#include "unit.h"

static const u64 n256[4] = {
	0xf3b9cac2fc632551ULL, 0xbce6faada7179e84ULL,
	0xffffffffffffffffULL, 0xffffffff00000000ULL };
static const u64 n384[6] = {
	0xecec196accc52973ULL, 0x581a0db248b0a77aULL,
	0xc7634d81f4372ddfULL, 0xffffffffffffffffULL,
	0xffffffffffffffffULL, 0xffffffffffffffffULL };

static u64 state = 11;

static u64 rnd(void)
{
	state = state * 6364136223846793005ULL + 1442695040888963407ULL;
	return state ^ (state >> 29);
}

/* Below n: the top limb one less than n's (n's top limbs are all ones). */
static void below(u64 *v, const u64 *n, size_t nd)
{
	size_t i;

	for (i = 0; i < nd; i++)
		v[i] = rnd();
	v[nd - 1] = n[nd - 1] - 1 - (rnd() & 0xff);
}

static void secret(void *p, size_t len)
{
	VALGRIND_MAKE_MEM_UNDEFINED(p, len);
}

static void public(void *p, size_t len)
{
	VALGRIND_MAKE_MEM_DEFINED(p, len);
}

static void check(const u64 *n, size_t nd, const char *name)
{
	u64 k[6], b[6], d[6], e[6], r[6], s[6], s2[6], t[6];
	int round, err;

	for (round = 0; round < 4; round++) {
		below(k, n, nd);
		below(b, n, nd);
		below(d, n, nd);
		below(e, n, nd);
		below(r, n, nd);
		err = ncr_ec_scalar_sign_s(s, k, b, d, e, r, n, nd);
		CHECKF(!err, "%s: public run", name);
		secret(k, sizeof(k));
		secret(b, sizeof(b));
		secret(d, sizeof(d));
		err = ncr_ec_scalar_sign_s(s2, k, b, d, e, r, n, nd);
		public(&err, sizeof(err));
		public(s2, sizeof(s2));
		CHECKF(!err && !memcmp(s, s2, nd * 8), "%s: round %d", name,
		       round);
		/* the pieces ECDH's fallback and the public key's split use */
		err = ncr_ec_scalar_inv(t, b, n, nd);
		err |= ncr_ec_scalar_mul(t, t, d, n, nd);
		ncr_ec_scalar_sub(t, t, k, n, nd);
		ncr_ec_scalar_add(t, t, d, n, nd);
		public(&err, sizeof(err));
		CHECK(!err);
		public(k, sizeof(k));
		public(b, sizeof(b));
		public(d, sizeof(d));
	}
}

int main(void)
{
	check(n256, 4, "P-256");
	check(n384, 6, "P-384");
	return unit_report("test_ec_scalar_ct");
}
