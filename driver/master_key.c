// SPDX-License-Identifier: GPL-2.0
/*
 * The system-wide storage master key (NCRIO_MASTER_KEY_SET).
 *
 * Only EUID 0 with CAP_SYS_ADMIN may set it (EPERM); only AES key sizes
 * (16, 24, 32 bytes) are accepted (EINVAL).  It is set once for the
 * module's lifetime: setting the identical key again succeeds (so that the
 * boot-time loader is idempotent), a different key fails with EBUSY.  On
 * unload it is zeroed (ncr_master_key_exit(), called from module exit).
 * With NCR_ATTR_MASTER_KEY_DESCRIPTION the key comes from the caller's
 * kernel keyrings (master_keyring.c) and never passes through user
 * memory.
 */
#include <crypto/algapi.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/mutex.h>
#include <linux/uaccess.h>
#include "attr.h"
#include "master_keyring.h"
#include "storage.h"
#include "wrap.h"

static DEFINE_MUTEX(ncr_master_lock);	/* serialises setting */
static u8 ncr_master_key[32];		/* kept to recognise a repeated set */
static u32 ncr_master_key_size;
static struct crypto_cipher *ncr_master_cipher;	/* published once */

struct crypto_cipher *ncr_master_tfm(void)
{
	return smp_load_acquire(&ncr_master_cipher);
}

static bool ncr_master_key_privileged(void)
{
	return uid_eq(current_euid(), GLOBAL_ROOT_UID) &&
	       capable(CAP_SYS_ADMIN);
}

/* A second set: identical key -> 0, another key -> -EBUSY. */
static int ncr_master_key_same(const u8 *key, u32 size)
{
	if (size != ncr_master_key_size ||
	    crypto_memneq(key, ncr_master_key, size))
		return -EBUSY;
	return 0;
}

/* The key from the caller's buffer or, if named, from the keyring. */
static int ncr_master_key_fetch(const struct ncr_master_key_set *mk,
				struct nlattr *tb[], u8 *key, u32 *size)
{
	const char *desc = ncr_attr_str(tb, NCR_ATTR_MASTER_KEY_DESCRIPTION);

	if (desc) {
		if (mk->key || mk->key_size)
			return -EINVAL;
		return ncr_master_key_from_keyring(desc, key, size);
	}
	if (mk->key_size != 16 && mk->key_size != 24 && mk->key_size != 32)
		return -EINVAL;
	if (copy_from_user(key, mk->key, mk->key_size))
		return -EFAULT;
	*size = mk->key_size;
	return 0;
}

long ncr_master_key_set(const struct ncr_master_key_set *mk,
			struct nlattr *tb[])
{
	struct crypto_cipher *tfm;
	u8 key[32];
	u32 size;
	long ret;

	if (!ncr_master_key_privileged())
		return -EPERM;
	ret = ncr_master_key_fetch(mk, tb, key, &size);
	if (ret)
		goto out;

	mutex_lock(&ncr_master_lock);
	if (ncr_master_cipher) {
		ret = ncr_master_key_same(key, size);
		goto unlock;
	}
	tfm = ncr_kw_tfm_alloc(key, size);
	if (IS_ERR(tfm)) {
		ret = PTR_ERR(tfm);
		goto unlock;
	}
	memcpy(ncr_master_key, key, size);
	ncr_master_key_size = size;
	smp_store_release(&ncr_master_cipher, tfm);
	ret = 0;
unlock:
	mutex_unlock(&ncr_master_lock);
out:
	memzero_explicit(key, sizeof(key));
	return ret;
}

void ncr_master_key_exit(void)
{
	mutex_lock(&ncr_master_lock);
	/* crypto_free_cipher() frees the key schedule with kfree_sensitive */
	if (ncr_master_cipher)
		crypto_free_cipher(ncr_master_cipher);
	ncr_master_cipher = NULL;
	memzero_explicit(ncr_master_key, sizeof(ncr_master_key));
	ncr_master_key_size = 0;
	mutex_unlock(&ncr_master_lock);
}
