// SPDX-License-Identifier: GPL-2.0
/*
 * Constant-time check of P-256 and P-384 (driver/lib/ec_nist.c) under
 * valgrind memcheck: the private scalar d, the nonce k and the blinding
 * factor b are marked undefined ("secret"), so memcheck reports any branch
 * or memory address that depends on them, in d G, in signing and in ECDH.
 * The digest, the peer's point and what the code declassifies (r, s, the
 * verdicts of its fault checks) are public.  Without valgrind the test is
 * not built.
 */
#include <valgrind/memcheck.h>

#include "ec_math.h"
#include "ec_nist.h"
#include "unit.h"

static u64 state = 7;

static u8 rnd8(void)
{
	state = state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (u8)(state >> 56);
}

/* A scalar below n (n's top byte is 0xff on both curves): random bytes. */
static void scalar(u8 *v, unsigned int nb)
{
	unsigned int i;

	for (i = 0; i < nb; i++)
		v[i] = rnd8();
	v[0] &= 0x7f;
	v[nb - 1] |= 1;
}

static void secret(void *p, size_t len)
{
	VALGRIND_MAKE_MEM_UNDEFINED(p, len);
}

static void public(void *p, size_t len)
{
	VALGRIND_MAKE_MEM_DEFINED(p, len);
}

static void check(unsigned int id, unsigned int nb, const char *name)
{
	u8 d[NCR_EC_MAX_BYTES], k[NCR_EC_MAX_BYTES], b[NCR_EC_MAX_BYTES];
	u8 e[NCR_EC_MAX_BYTES], r[NCR_EC_MAX_BYTES], s[NCR_EC_MAX_BYTES];
	u8 pub[2 * NCR_EC_MAX_BYTES], peer[2 * NCR_EC_MAX_BYTES];
	u8 x[NCR_EC_MAX_BYTES];
	int round, err;

	for (round = 0; round < 3; round++) {
		scalar(d, nb);
		scalar(e, nb);
		/* a public peer point */
		CHECKF(ncr_ec_math_pub(id, nb, e, peer) == 0, "%s: peer", name);
		scalar(k, nb);
		scalar(b, nb);
		scalar(e, nb);

		secret(d, nb);
		err = ncr_ec_math_pub(id, nb, d, pub);
		public(&err, sizeof(err));
		public(pub, sizeof(pub));
		CHECKF(err == 0, "%s: d G gave %d", name, err);

		secret(k, nb);
		secret(b, nb);
		err = ncr_ec_math_sign(id, nb, d, k, b, e, r, s);
		public(&err, sizeof(err));
		CHECKF(err == 0, "%s: sign gave %d", name, err);
		public(r, nb);
		public(s, nb);
		public(d, nb);
		CHECKF(ncr_ec_math_verify(id, nb, pub, e, r, s) == 1,
		       "%s: signature does not verify", name);

		secret(d, nb);
		err = ncr_ec_math_ecdh(id, nb, d, peer, x);
		public(&err, sizeof(err));
		public(x, nb);
		public(d, nb);
		CHECKF(err == 0, "%s: ECDH gave %d", name, err);
	}
}

int main(void)
{
	if (ncr_ec_nist_init())
		FAIL("ncr_ec_nist_init failed");
	check(NCR_EC_MATH_P256, 32, "P-256");
	check(NCR_EC_MATH_P384, 48, "P-384");
	return unit_report("test_ec_nist_ct");
}
