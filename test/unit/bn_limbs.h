/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libcrypto BIGNUMs to and from the 64-bit limbs of driver/lib/mont.c
 * (least significant first): the reference side of its tests.
 */
#ifndef NCR_TEST_BN_LIMBS_H
#define NCR_TEST_BN_LIMBS_H

#include <openssl/bn.h>
#include "ncr_port.h"
#include "unit.h"

#define BN_LIMBS_MAX 64

/* l = b in n limbs; a FAIL when b does not fit. */
static inline void bn_to_limbs(const BIGNUM *b, u64 *l, size_t n)
{
	unsigned char buf[8 * BN_LIMBS_MAX];
	size_t i, j;

	if (n > BN_LIMBS_MAX || BN_bn2lebinpad(b, buf, (int)(8 * n)) < 0) {
		FAIL("number does not fit %zu limbs", n);
		return;
	}
	for (i = 0; i < n; i++)
		for (l[i] = 0, j = 8; j-- > 0;)
			l[i] = (l[i] << 8) | buf[8 * i + j];
}

/* A new BIGNUM of the n limbs l (NULL when out of memory). */
static inline BIGNUM *bn_from_limbs(const u64 *l, size_t n)
{
	unsigned char buf[8 * BN_LIMBS_MAX];
	size_t i, j;

	if (n > BN_LIMBS_MAX)
		return NULL;
	for (i = 0; i < n; i++)
		for (j = 0; j < 8; j++)
			buf[8 * i + j] = (unsigned char)(l[i] >> (8 * j));
	return BN_lebin2bn(buf, (int)(8 * n), NULL);
}

#endif /* NCR_TEST_BN_LIMBS_H */
