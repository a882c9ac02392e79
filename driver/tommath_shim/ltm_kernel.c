// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel services for LibTomMath inside ncr.ko: heap (zeroed on free, as
 * numbers are often secret), randomness from get_random_bytes, and the
 * 128-by-64-bit division helpers gcc emits for mp_word on 64-bit targets.
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/string.h>
#include <linux/math64.h>
#include "lib/ncr_port.h"
#include "ltm_kernel.h"
#include "tommath_private.h"

/*
 * Numbers above ~4800 bits go through Karatsuba/Toom, which allocate
 * temporaries at every multiplication: yielding here keeps a 16384-bit
 * exponentiation (seconds natively, minutes under emulation) from
 * monopolising the CPU, and failing here once the caller has been killed
 * ends it (MP_MEM, which ncr_mp_errno turns into -EINTR then).  Smaller
 * numbers' steps finish in well under a second.
 */
void *ncr_ltm_malloc(size_t size)
{
	return ncr_should_stop() ? NULL : kvmalloc(size, GFP_KERNEL);
}

void *ncr_ltm_calloc(size_t nmemb, size_t size)
{
	return ncr_should_stop() ? NULL : kvcalloc(nmemb, size, GFP_KERNEL);
}

void ncr_ltm_free(void *mem, size_t size)
{
	kvfree_sensitive(mem, size);
}

/* Not krealloc: the old block may hold secret digits and must be wiped. */
void *ncr_ltm_realloc(void *mem, size_t oldsize, size_t newsize)
{
	void *p = ncr_ltm_malloc(newsize);

	if (!p)
		return NULL;
	if (mem) {
		memcpy(p, mem, min(oldsize, newsize));
		kvfree_sensitive(mem, oldsize);
	}
	return p;
}

/*
 * Replaces LibTomMath's bn_s_mp_rand_platform.c (which is not compiled).
 * Prime searches call it once per candidate: a good place to yield.
 */
mp_err s_mp_rand_platform(void *p, size_t n)
{
	/* a killed caller (e.g. RSA-4096 generation under emulation) stops */
	if (ncr_should_stop())
		return MP_ERR;
	get_random_bytes(p, n);
	return MP_OKAY;
}

#ifdef CONFIG_ARCH_SUPPORTS_INT128
typedef unsigned __int128 ncr_u128;

/*
 * LibTomMath only divides a double digit by a single digit, so the divisor
 * fits 64 bits; the generic case falls back to shift-and-subtract.
 */
static ncr_u128 ncr_udivmod128(ncr_u128 n, ncr_u128 d, ncr_u128 *rem)
{
	u64 hi = n >> 64, lo = (u64)n, dd = (u64)d, qhi, r;
	ncr_u128 q = 0, rr = 0;
	int i;

	if (d >> 64 == 0 && dd) {
		qhi = div64_u64_rem(hi, dd, &r);
#ifdef CONFIG_X86_64
		/* (r:lo) / dd cannot overflow because r < dd */
		asm("divq %[d]" : "=a"(lo), "=d"(r) : "a"(lo), "d"(r), [d] "rm"(dd));
		q = lo;
#else
		/* (r:lo) / dd with r < dd, one bit at a time */
		for (i = 63; i >= 0; i--) {
			u64 carry = r >> 63;

			r = (r << 1) | ((lo >> i) & 1);
			q <<= 1;
			if (carry || r >= dd) {
				r -= dd;
				q |= 1;
			}
		}
#endif
		*rem = r;
		return ((ncr_u128)qhi << 64) | q;
	}
	for (i = 127; i >= 0; i--) {
		rr = (rr << 1) | ((n >> i) & 1);
		q <<= 1;
		if (d && rr >= d) {
			rr -= d;
			q |= 1;
		}
	}
	*rem = rr;
	return q;
}

ncr_u128 __udivti3(ncr_u128 n, ncr_u128 d);
ncr_u128 __umodti3(ncr_u128 n, ncr_u128 d);
__int128 __divti3(__int128 n, __int128 d);

/* gcc may emit the signed variant when it knows both operands are >= 0 */
__int128 __divti3(__int128 n, __int128 d)
{
	bool neg = (n < 0) != (d < 0);
	ncr_u128 r, q;

	q = ncr_udivmod128(n < 0 ? -(ncr_u128)n : (ncr_u128)n,
			   d < 0 ? -(ncr_u128)d : (ncr_u128)d, &r);
	return neg ? -(__int128)q : (__int128)q;
}

ncr_u128 __udivti3(ncr_u128 n, ncr_u128 d)
{
	ncr_u128 r;

	return ncr_udivmod128(n, d, &r);
}

ncr_u128 __umodti3(ncr_u128 n, ncr_u128 d)
{
	ncr_u128 r;

	ncr_udivmod128(n, d, &r);
	return r;
}
#endif
