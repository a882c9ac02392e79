/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One /dev/crypto call of the benchmarks: the fixed struct followed by its
 * netlink attributes in one buffer (set fixed to the struct's size, then
 * put_*(), then input_size = fixed + len).  Without libcrypto or libncr,
 * so that pk_bench also builds -m32 on its own.
 */
#ifndef NCR_BENCH_ATTR_H
#define NCR_BENCH_ATTR_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/ncr.h>

#define ATTR_ROOM 512

struct call {
	union {
		struct ncr_key_import imp;
		struct ncr_session_init init;
		struct ncr_session_update upd;
		struct ncr_session_once once;
		unsigned char raw[sizeof(struct ncr_key_import) + ATTR_ROOM];
	};
	size_t fixed, len;
};

static inline void put_attr(struct call *c, unsigned short type,
			    const void *p, size_t n)
{
	unsigned short hdr[2] = { (unsigned short)(4 + n), type };
	size_t off = c->fixed + c->len;

	if (off + 4 + n + 3 > sizeof(c->raw)) {
		fprintf(stderr, "bench: attributes too long\n");
		exit(2);
	}
	memcpy(c->raw + off, hdr, 4);
	memcpy(c->raw + off + 4, p, n);
	memset(c->raw + off + 4 + n, 0, (4 - n % 4) % 4);
	c->len += (4 + n + 3) & ~(size_t)3;
}

static inline void put_u32(struct call *c, unsigned short type, unsigned int v)
{
	put_attr(c, type, &v, sizeof(v));
}

static inline void put_str(struct call *c, unsigned short type, const char *s)
{
	put_attr(c, type, s, strlen(s) + 1);
}

#endif /* NCR_BENCH_ATTR_H */
