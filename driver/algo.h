/* SPDX-License-Identifier: GPL-2.0 */
/* The supported algorithms (algo.c, built from lib/algo_list.h). */
#ifndef NCR_ALGO_H
#define NCR_ALGO_H

#include <linux/types.h>
#include "lib/algo_list.h"

struct ncr_algo {
	const char *name;	/* kernel crypto API name, or rsa/dsa/dh */
	enum ncr_algo_class cls;
	u16 min_key, max_key;	/* secret key bytes (CIPHER/MAC) */
	u16 key_step;		/* 0: any size in between; else min + n * step */
	bool aes_key;		/* an AES key (16, 24 or 32 bytes): a KEK */
	bool one_request;	/* the whole input is one request (xts) */
};

/* The supported algorithm with this name, or NULL. */
const struct ncr_algo *ncr_algo_find(const char *name);
/* Does algo accept a secret key of len bytes? */
bool ncr_algo_key_len_ok(const struct ncr_algo *algo, size_t len);
/* Does a session of algo use NCR_ATTR_KEY (not: hashes, cipher_null)? */
bool ncr_algo_takes_key(const struct ncr_algo *algo);

#endif /* NCR_ALGO_H */
