/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Storage wrap/unwrap (storage.c) under the storage master key
 * (master_key.c).
 */
#ifndef NCR_STORAGE_H
#define NCR_STORAGE_H

#include <linux/types.h>
#include <linux/ncr.h>
#include "lib/nlattr.h"

struct ncr_ns;

long ncr_key_storage_wrap(struct ncr_ns *ns,
			  const struct ncr_key_storage_wrap *sw,
			  struct nlattr *tb[]);
long ncr_key_storage_unwrap(struct ncr_ns *ns,
			    const struct ncr_key_storage_unwrap *su,
			    struct nlattr *tb[]);

/* master_key.c: NCRIO_MASTER_KEY_SET, and zeroing the key at unload. */
long ncr_master_key_set(const struct ncr_master_key_set *mk,
			struct nlattr *tb[]);
void ncr_master_key_exit(void);
/* Whether a master key is set (it stays set until module unload). */
bool ncr_master_key_present(void);
/*
 * RFC 5649 wrap under the current master key, or unwrap under the current
 * key and, when that fails its integrity check during a rotation, under
 * the previous one; aes_kwp_wrap()/aes_kwp_unwrap()'s arguments and
 * errors, plus -ENOKEY when no master key is set.  They hold the master
 * key's rw_semaphore for reading (master_key.c): no other driver lock may
 * be held by the caller.
 */
int ncr_master_wrap(const u8 *in, size_t in_len, u8 *out, size_t *out_len);
int ncr_master_unwrap(const u8 *in, size_t in_len, u8 *out,
		      size_t *out_len);

#endif /* NCR_STORAGE_H */
