/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Key objects (key.c): handles, reference counts, locking, and the key
 * ioctls the core implements.
 */
#ifndef NCR_KEY_H
#define NCR_KEY_H

#include <linux/mutex.h>
#include <linux/ncr.h>
#include <linux/refcount.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include "ncr_limits.h"
#include "lib/algo_list.h"
#include "lib/nlattr.h"

struct ncr_algo;
struct ncr_ns;
struct ncr_pk;				/* owned by the PK code (lib/pk_key.h) */
struct ncr_key_tfm;			/* owned by cipher.c */

struct ncr_key {
	refcount_t ref;
	/* read while the material is used, write while it is replaced */
	struct rw_semaphore sem;
	/*
	 * Owner of the material's mutable cache (RSA blinding pair): taken
	 * only by mutex_trylock, with sem held for read.
	 */
	struct mutex cache_lock;
	/*
	 * A cipher transform set with the secret, shared by the key's
	 * sessions of one algorithm (cipher.c); dropped with the material.
	 * tfm_lock guards the pointer, not the transform.
	 */
	spinlock_t tfm_lock;
	struct ncr_key_tfm *tfm;
	ncr_key_type_t type;		/* NCR_KEY_TYPE_INVALID when empty */
	u32 flags;			/* NCR_KEY_FLAG_* */
	char algo[NCR_ALGO_NAME_MAX + 1];	/* as in NCR_ATTR_ALGORITHM */
	u8 key_id[MAX_KEY_ID_SIZE];
	u32 key_id_size;
	u8 secret[NCR_SECRET_MAX];	/* NCR_KEY_TYPE_SECRET */
	u32 secret_size;
	struct ncr_pk *pk;		/* NCR_KEY_TYPE_PUBLIC/PRIVATE */
	struct ncr_limit_owner owner;
	ncr_key_t handle;
	u32 ns_id;
};

/* Takes a reference; ERR_PTR(-EINVAL) when handle is unknown in ns. */
struct ncr_key *ncr_key_get(struct ncr_ns *ns, ncr_key_t handle);
/* Drops it; the last put zeroes the material (ncr_key_clear) and frees. */
void ncr_key_put(struct ncr_key *key);
/*
 * Zeroes type, flags, algo, key ID and material (ncr_pk_free()) and drops
 * the cached cipher transform; sem must be held for write (or the key
 * unreachable).
 */
void ncr_key_clear(struct ncr_key *key);

/*
 * Drops a reference to a cached cipher transform (NULL is fine); the last
 * one frees it, zeroing its key schedule.  In cipher.c.
 */
void ncr_key_tfm_put(struct ncr_key_tfm *kt);

/*
 * For operations that fill a destination key (unwrap, storage unwrap,
 * generate pair, derive): gets the key, takes sem for write, clears it.
 * Fill the fields, then ret = ncr_key_dest_done(key, err): it checks the
 * final flags (ncr_key_flags_check), and on error the key is cleared again
 * (left empty); sem released, reference dropped; returns err or the
 * flags' error.  Readers
 * never see a half-filled key.  ERR_PTR(-EINVAL) for an unknown handle.
 */
struct ncr_key *ncr_key_dest_begin(struct ncr_ns *ns, ncr_key_t handle);
int ncr_key_dest_done(struct ncr_key *key, int err);
/*
 * The same for two distinct handles filled together (generate pair):
 * -EINVAL when ha == hb or either is unknown.
 */
int ncr_key_dest_begin_two(struct ncr_ns *ns, ncr_key_t ha, ncr_key_t hb,
			   struct ncr_key **a, struct ncr_key **b);
int ncr_key_dest_done_two(struct ncr_key *a, struct ncr_key *b, int err);

/*
 * Lock order (the only one in the driver):
 *   ns->key_lock and ns->ses_lock are leaves (held only to look up a
 *   handle and take a reference);
 *   ses->lock before any key->sem;
 *   two key->sem at once only through ncr_key_lock_two(), by address;
 *   key->cache_lock inside key->sem, and only ever by trylock;
 *   key->tfm_lock (a spinlock) inside key->sem, a leaf: held only to read
 *   or swap key->tfm and take a reference, never while freeing;
 *   limits.c's ncr_limit_lock (a spinlock) is a leaf, taken inside
 *   key->sem when a key's charged bytes change;
 *   never three.  Unwrap, derive and key-as-data sessions hold one key's
 *   sem at a time, releasing it before taking the next;
 *   master_key.c's ncr_master_lock (a mutex, setters of the master key)
 *   before ncr_master_sem (an rw_semaphore over the master key's
 *   transforms: read across a storage wrap/unwrap, write for a pointer
 *   swap); both are taken with no other driver lock held and take none
 *   (storage.c wraps after releasing key->sem and unwraps before taking
 *   it).
 */
void ncr_key_lock_two(struct ncr_key *a, bool a_write, struct ncr_key *b,
		      bool b_write);
void ncr_key_unlock_two(struct ncr_key *a, bool a_write, struct ncr_key *b,
			bool b_write);

/*
 * Flags a caller may give a key: -EINVAL for unknown bits, -EPERM for
 * NCR_KEY_FLAG_WRAPPING without CAP_SYS_ADMIN.  Every operation that fills
 * a key checks them again when it completes (ncr_key_dest_done).
 */
int ncr_key_flags_check(u32 flags);

/*
 * Sets key->algo from NCR_ATTR_ALGORITHM (mandatory) and, when present,
 * key->flags from NCR_ATTR_KEY_FLAGS (ncr_key_flags_check()); the algorithm
 * must be known (ncr_algo_find) or -EINVAL.  Returns the algorithm.
 */
const struct ncr_algo *ncr_key_set_algo_flags(struct ncr_key *key,
					      struct nlattr *tb[]);
/* Only the flags part of ncr_key_set_algo_flags() (-EINVAL, -EPERM). */
int ncr_key_set_flags(struct ncr_key *key, struct nlattr *tb[]);

/*
 * As ncr_key_dest_begin() but keeping the flags (generate, import); not
 * the key ID: it names the old material.
 */
struct ncr_key *ncr_key_replace_begin(struct ncr_ns *ns, ncr_key_t handle);

int ncr_key_init(struct ncr_ns *ns);
int ncr_key_deinit(struct ncr_ns *ns, ncr_key_t handle);
int ncr_key_generate(struct ncr_ns *ns, const struct ncr_key_generate *gen,
		     struct nlattr *tb[]);
int ncr_key_get_info(struct ncr_ns *ns, const struct ncr_key_get_info *info,
		     struct nlattr *tb[], struct ncr_nla_out *out);
void ncr_keys_destroy(struct ncr_ns *ns);

#endif /* NCR_KEY_H */
