/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The only header that pure code in driver/lib/ includes: it maps the few
 * kernel facilities that code needs onto libc, so the same files compile
 * unchanged into ncr.ko and into the user-space unit tests and fuzzers.
 */
#ifndef NCR_PORT_H
#define NCR_PORT_H

#ifdef __KERNEL__

#include <linux/types.h>
#include <linux/cache.h>	/* __ro_after_init */
#include <linux/init.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <crypto/algapi.h>	/* crypto_memneq */
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>

#define ncr_malloc(n)		kvmalloc((n), GFP_KERNEL)
#define ncr_free_sensitive(p, n)	kvfree_sensitive((p), (n))

/*
 * Long loops (a 16384-bit exponentiation: seconds, minutes under
 * emulation) call this between steps: it lets other tasks run, and true
 * means the caller has been killed: stop, wipe, return -EINTR.
 */
static inline bool ncr_should_stop(void)
{
	cond_resched();
	return fatal_signal_pending(current);
}

/* See the user-space definition. */
#define ncr_declassify(p, n)	do { } while (0)

/*
 * Cryptographic randomness.  Process context only: key generation loops
 * call it once per candidate and may run for seconds, so it yields the CPU
 * and gives up with -EINTR once the caller has been killed.
 */
static inline int ncr_random_bytes(void *buf, size_t n)
{
	if (ncr_should_stop())
		return -EINTR;
	get_random_bytes(buf, n);
	return 0;
}

#else /* user space */

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;

#ifndef EBADMSG
#define EBADMSG 74
#endif

static inline void memzero_explicit(void *s, size_t n)
{
	memset(s, 0, n);
	__asm__ __volatile__("" : : "r"(s) : "memory");
}

/* Constant-time inequality, as the kernel's crypto_memneq(). */
static inline unsigned long crypto_memneq(const void *a, const void *b,
					  size_t n)
{
	const volatile u8 *x = a, *y = b;
	unsigned long d = 0;

	while (n--)
		d |= *x++ ^ *y++;
	return d;
}

#define ncr_malloc(n)		malloc(n)

/* Written once at set-up; the module makes such data read-only after. */
#define __ro_after_init
/* Set-up code the module drops once loaded. */
#define __init

/*
 * A value computed from secrets that is public from here on (a signature's
 * r, the verdict of a check) and may be branched on: the constant-time
 * tests (valgrind memcheck, secrets marked undefined) are told so.
 */
#ifdef NCR_CT_TEST
#include <valgrind/memcheck.h>
#define ncr_declassify(p, n)	VALGRIND_MAKE_MEM_DEFINED((p), (n))
#else
#define ncr_declassify(p, n)	do { } while (0)
#endif

/* No signal ends a user-space test in the middle of a loop. */
static inline bool ncr_should_stop(void)
{
	return false;
}

static inline void ncr_free_sensitive(void *p, size_t n)
{
	if (p)
		memzero_explicit(p, n);
	free(p);
}

/* Cryptographic randomness: 0 or -EIO. */
static inline int ncr_random_bytes(void *buf, size_t n)
{
	u8 *p = buf;

	while (n) {
		ssize_t r = getrandom(p, n, 0);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -EIO;
		}
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

#endif /* __KERNEL__ */

/*
 * x, which the optimiser may no longer reason about: a mask that is all
 * ones or zero stays a mask, so a masked select stays arithmetic (clang
 * turns one it can see through into a branch or a load from either side).
 */
#define ncr_ct_barrier(x) ({ __typeof__(x) ct_v_ = (x); \
			     __asm__ ("" : "+r"(ct_v_)); ct_v_; })

/*
 * struct nlattr, NLA_ALIGN() and NLA_HDRLEN, for lib/nlattr.c.  Appended
 * after the main block so each side takes its own netlink UAPI header.
 */
#ifdef __KERNEL__
#include <uapi/linux/netlink.h>
#else
#include <linux/netlink.h>
#endif

#endif /* NCR_PORT_H */
