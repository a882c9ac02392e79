/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fast deterministic stand-in for a hash, for the PKCS#1 fuzz harness and
 * the constant-time test: the encodings only need a function of the right
 * output size, not a cryptographic one.  Header-only (static functions).
 */
#ifndef NCR_TEST_TOY_HASH_H
#define NCR_TEST_TOY_HASH_H

#include "pkcs1.h"

static inline u64 mix(u64 x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static inline int toy_digest(void *ctx, const struct ncr_hash_seg *segs,
			     unsigned int nsegs, u8 *out)
{
	const struct ncr_hash_ops *h = ctx;
	u64 st = 0xcbf29ce484222325ULL;
	unsigned int i;
	size_t j;

	for (i = 0; i < nsegs; i++) {
		const u8 *p = segs[i].data;

		for (j = 0; j < segs[i].len; j++)
			st = (st ^ p[j]) * 0x100000001b3ULL;
		st = mix(st ^ segs[i].len);
	}
	for (j = 0; j < h->digest_size; j++) {
		if (j % 8 == 0)
			st = mix(st);
		out[j] = (u8)(st >> (8 * (j % 8)));
	}
	return 0;
}

#endif /* NCR_TEST_TOY_HASH_H */
