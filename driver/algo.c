// SPDX-License-Identifier: GPL-2.0
/*
 * The algorithms the driver supports, by name.  A fixed table rather than
 * "whatever the crypto API can instantiate": key and session validation
 * then give the same answer on every machine, secret-key sizes are checked
 * at import/generate time (and again when a session uses the key), and
 * nothing the driver has no use for (AEADs, compression, rng) is
 * reachable.  The crypto API still picks the implementation (AES-NI,
 * hardware drivers) when a session starts.
 *
 * The list itself is lib/algo_list.h, shared with user space.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include "algo.h"

#define NCR_ALGO_ENTRY(n, c, min, max, step, aes, one) \
	{ n, c, min, max, step, aes, one },

static const struct ncr_algo ncr_algos[] = { NCR_ALGO_LIST(NCR_ALGO_ENTRY) };

const struct ncr_algo *ncr_algo_find(const char *name)
{
	size_t i;

	if (!name)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(ncr_algos); i++)
		if (!strcmp(ncr_algos[i].name, name))
			return &ncr_algos[i];
	return NULL;
}

bool ncr_algo_key_len_ok(const struct ncr_algo *algo, size_t len)
{
	if (algo->cls != NCR_ALG_CIPHER && algo->cls != NCR_ALG_MAC)
		return false;
	if (len < algo->min_key || len > algo->max_key)
		return false;
	return !algo->key_step || (len - algo->min_key) % algo->key_step == 0;
}

bool ncr_algo_takes_key(const struct ncr_algo *algo)
{
	return algo->cls != NCR_ALG_HASH &&
	       !(algo->cls == NCR_ALG_CIPHER && !algo->max_key);
}
