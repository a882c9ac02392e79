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
#include <linux/bits.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "algo.h"
#include "pk.h"
#include "session.h"

/* Each class's session ops and the operations they serve. */
#define NCR_CRYPT	(BIT(NCR_OP_ENCRYPT) | BIT(NCR_OP_DECRYPT))
#define NCR_SIG		(BIT(NCR_OP_SIGN) | BIT(NCR_OP_VERIFY))
#define NCR_CLASS_NCR_ALG_CIPHER	&ncr_cipher_ops, NCR_CRYPT
#define NCR_CLASS_NCR_ALG_HASH		&ncr_hash_ops, NCR_SIG
#define NCR_CLASS_NCR_ALG_MAC		&ncr_hash_ops, NCR_SIG
#define NCR_CLASS_NCR_ALG_PK		&ncr_pk_session_ops, NCR_CRYPT | NCR_SIG
#define NCR_CLASS_NCR_ALG_DH		NULL, 0

#define NCR_ALGO_ENTRY(n, c, min, max, step, aes, one) \
	{ n, c, min, max, step, aes, one, NCR_CLASS_##c },

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
