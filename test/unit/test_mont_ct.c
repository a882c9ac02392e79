// SPDX-License-Identifier: GPL-2.0
/*
 * Constant-time check of the secret exponentiation (driver/lib/mont.c),
 * with bases of the modulus's width and of twice it (an RSA CRT half), and
 * of the products in Montgomery form, under valgrind memcheck: modulus,
 * base and exponent are marked
 * undefined ("secret"), so memcheck reports any branch or memory address
 * that depends on them (the ctgrind technique).  Only the result is made
 * defined afterwards, to compare it with the public variant's.  Without
 * valgrind the test is not built.
 */
#include <valgrind/memcheck.h>

#include "mont.h"
#include "unit.h"

#define N 8

static u64 state = 7;

static u64 rnd(void)
{
	state = state * 6364136223846793005ULL + 1442695040888963407ULL;
	return state ^ (state >> 29);
}

int main(void)
{
	u64 m[N], a[2 * N], e[N + 1], r[N], want[N], mul[N], to[N];
	int round, i, err;
	size_t al;

	for (round = 0; round < 4; round++) {
		al = round % 2 ? 2 * N : N;
		for (i = 0; i < N; i++) {
			m[i] = rnd();
			a[i] = rnd();
			a[N + i] = rnd();
			e[i] = rnd();
		}
		e[N] = round;
		m[0] |= 1;
		m[N - 1] |= 1ULL << 63 >> round;
		if (ncr_mont_exp_public(want, a, al, e, N + 1, m, N) ||
		    ncr_mont_mul(mul, a, a + N, m, N) || ncr_mont_to(to, a, m, N))
			FAIL("public computation failed");
		VALGRIND_MAKE_MEM_UNDEFINED(a, sizeof(a));
		VALGRIND_MAKE_MEM_UNDEFINED(e, sizeof(e));
		/*
		 * Public: m's parity (checked) and its top limb's bit length
		 * (it sets the work); the lowest byte and the top limb stay
		 * defined.
		 */
		VALGRIND_MAKE_MEM_UNDEFINED((u8 *)m + 1,
					    sizeof(m) - 1 - sizeof(m[0]));
		err = ncr_mont_exp_secret(r, a, al, e, N + 1, m, N);
		VALGRIND_MAKE_MEM_DEFINED(&err, sizeof(err));
		VALGRIND_MAKE_MEM_DEFINED(r, sizeof(r));
		CHECKF(!err && !memcmp(r, want, sizeof(r)),
		       "round %d, base of %zu limbs: err %d", round, al, err);
		err = ncr_mont_mul(r, a, a + N, m, N);
		VALGRIND_MAKE_MEM_DEFINED(&err, sizeof(err));
		VALGRIND_MAKE_MEM_DEFINED(r, sizeof(r));
		CHECKF(!err && !memcmp(r, mul, sizeof(r)), "round %d: product",
		       round);
		err = ncr_mont_to(r, a, m, N);
		VALGRIND_MAKE_MEM_DEFINED(&err, sizeof(err));
		VALGRIND_MAKE_MEM_DEFINED(r, sizeof(r));
		VALGRIND_MAKE_MEM_DEFINED(m, sizeof(m));
		VALGRIND_MAKE_MEM_DEFINED(a, sizeof(a));
		VALGRIND_MAKE_MEM_DEFINED(e, sizeof(e));
		CHECKF(!err && !memcmp(r, to, sizeof(r)), "round %d: to R",
		       round);
	}
	return unit_report("test_mont_ct");
}
