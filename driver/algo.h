/* SPDX-License-Identifier: GPL-2.0 */
/* The supported algorithms (algo.c, built from lib/algo_list.h). */
#ifndef NCR_ALGO_H
#define NCR_ALGO_H

#include <linux/types.h>
#include "lib/algo_list.h"

struct ncr_session_ops;

struct ncr_algo {
	const char *name;	/* kernel crypto API name, or rsa/dsa/dh */
	enum ncr_algo_class cls;
	u16 min_key, max_key;	/* secret key bytes (CIPHER/MAC) */
	u16 key_step;		/* 0: any size in between; else min + n * step */
	bool aes_key;		/* an AES key (16, 24 or 32 bytes): a KEK */
	bool one_request;	/* the whole input is one request (xts) */
	/* Its class's session ops (NULL: none), and the NCR_OP_*s they do. */
	const struct ncr_session_ops *session;
	u8 session_ops;		/* BIT(NCR_OP_*) */
};

/* The supported algorithm with this name, or NULL. */
const struct ncr_algo *ncr_algo_find(const char *name);

/* Inline: the session ops in the table use them without depending on it. */

/* Does algo accept a secret key of len bytes? */
static inline bool ncr_algo_key_len_ok(const struct ncr_algo *algo,
				       size_t len)
{
	if (algo->cls != NCR_ALG_CIPHER && algo->cls != NCR_ALG_MAC)
		return false;
	if (len < algo->min_key || len > algo->max_key)
		return false;
	return !algo->key_step || (len - algo->min_key) % algo->key_step == 0;
}

/* Does a session of algo use NCR_ATTR_KEY (not: hashes, cipher_null)? */
static inline bool ncr_algo_takes_key(const struct ncr_algo *algo)
{
	return algo->cls != NCR_ALG_HASH &&
	       !(algo->cls == NCR_ALG_CIPHER && !algo->max_key);
}

#endif /* NCR_ALGO_H */
