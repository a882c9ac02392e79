/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Storage wrap/unwrap (storage.c) under the storage master key
 * (master_key.c).
 */
#ifndef NCR_STORAGE_H
#define NCR_STORAGE_H

#include <crypto/internal/cipher.h>
#include <linux/ncr.h>
#include "lib/nlattr.h"

struct ncr_ns;

long ncr_key_storage_wrap(struct ncr_ns *ns,
			  const struct ncr_key_storage_wrap *sw,
			  struct nlattr *tb[]);
long ncr_key_storage_unwrap(struct ncr_ns *ns,
			    const struct ncr_key_storage_unwrap *su,
			    struct nlattr *tb[]);

/* ---- master_key.c ---- */

long ncr_master_key_set(const struct ncr_master_key_set *mk,
			struct nlattr *tb[]);
/* Zeroes the master key; called at module unload. */
void ncr_master_key_exit(void);
/*
 * The storage master key's AES transform, or NULL when no master key is
 * set.  Once set it stays unchanged until module unload, so the pointer
 * may be used without further locking while /dev/crypto is open.
 */
struct crypto_cipher *ncr_master_tfm(void);

#endif /* NCR_STORAGE_H */
