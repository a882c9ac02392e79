// SPDX-License-Identifier: GPL-2.0
/*
 * The system-wide storage master key (NCRIO_MASTER_KEY_SET) and the AES key
 * wrap under it that storage.c uses.
 *
 * Only EUID 0 with CAP_SYS_ADMIN may set it (EPERM); only AES key sizes
 * (16, 24, 32 bytes) are accepted (EINVAL).  Without
 * NCR_ATTR_MASTER_KEY_ROTATE it is set once: setting the current key again
 * succeeds (so that the boot-time loader is idempotent), a different key
 * fails with EBUSY.  With NCR_ATTR_MASTER_KEY_DESCRIPTION the key comes from
 * the caller's kernel keyrings (master_keyring.c) and never passes through
 * user memory.
 *
 * Rotation (NCR_ATTR_MASTER_KEY_ROTATE): BEGIN with a new key keeps the
 * current key's transform as the "previous" one and makes the new key
 * current; storage wrap then uses the new key and storage unwrap tries the
 * new one, then the previous one.  END, given the current key, frees the
 * previous transform.  Only the current key's bytes are kept (to recognise
 * a repeated set); the previous key lives only in its transform, whose key
 * schedule crypto_free_cipher() frees with kfree_sensitive.  On unload
 * everything is zeroed and freed (ncr_master_key_exit(), from module exit).
 *
 * Locking (driver/key.h, "Lock order"): ncr_master_lock serialises the
 * setters and guards the key bytes; ncr_master_sem guards the two
 * transform pointers: read-held by every wrap/unwrap across its use of a
 * transform, write-held by a setter only to swap the pointers.  A setter
 * allocates a transform before and frees one after holding it for write,
 * so a wrap in flight never sees a freed transform and waits at most for a
 * pointer swap.  ncr_master_lock is taken before ncr_master_sem; no other
 * driver lock is held while either is taken, nor taken inside them.
 */
#include <crypto/algapi.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/uaccess.h>
#include "attr.h"
#include "master_keyring.h"
#include "storage.h"
#include "wrap.h"

static DEFINE_MUTEX(ncr_master_lock);	/* setters; before ncr_master_sem */
static DECLARE_RWSEM(ncr_master_sem);	/* the transform pointers */
static u8 ncr_master_key[32];		/* current key, ncr_master_lock */
static u32 ncr_master_key_size;		/* 0: none set, ncr_master_lock */
/* written holding both locks, so either one keeps them for reading */
static struct crypto_cipher *ncr_master_cur;
static struct crypto_cipher *ncr_master_prev;	/* during a rotation */

bool ncr_master_key_present(void)
{
	/* set once, cleared only at module exit: no lock needed */
	return READ_ONCE(ncr_master_cur) != NULL;
}

int ncr_master_wrap(const u8 *in, size_t in_len, u8 *out, size_t *out_len)
{
	struct aes_kw_cipher c;
	int ret = -ENOKEY;

	down_read(&ncr_master_sem);
	if (ncr_master_cur) {
		ncr_kw_cipher_bind(&c, ncr_master_cur);
		ret = aes_kwp_wrap(&c, NULL, in, in_len, out, out_len);
	}
	up_read(&ncr_master_sem);
	return ret;
}

int ncr_master_unwrap(const u8 *in, size_t in_len, u8 *out, size_t *out_len)
{
	struct aes_kw_cipher c;
	int ret = -ENOKEY;

	down_read(&ncr_master_sem);
	if (!ncr_master_cur)
		goto unlock;
	ncr_kw_cipher_bind(&c, ncr_master_cur);
	ret = aes_kwp_unwrap(&c, NULL, in, in_len, out, out_len);
	/* aes_kwp_unwrap() wrote nothing when the check failed */
	if (ret == -EBADMSG && ncr_master_prev) {
		ncr_kw_cipher_bind(&c, ncr_master_prev);
		ret = aes_kwp_unwrap(&c, NULL, in, in_len, out, out_len);
	}
unlock:
	up_read(&ncr_master_sem);
	return ret;
}

static bool ncr_master_key_privileged(void)
{
	return uid_eq(current_euid(), GLOBAL_ROOT_UID) &&
	       capable(CAP_SYS_ADMIN);
}

/* Under ncr_master_lock: @key is the current key. */
static bool ncr_master_key_is_current(const u8 *key, u32 size)
{
	return size == ncr_master_key_size &&
	       !crypto_memneq(key, ncr_master_key, size);
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

/*
 * Under ncr_master_lock: makes @key current.  With @keep_prev the current
 * transform becomes the previous one (which must be empty), otherwise
 * there must be no current one.
 */
static int ncr_master_key_install(const u8 *key, u32 size, bool keep_prev)
{
	struct crypto_cipher *tfm;

	tfm = ncr_kw_tfm_alloc(key, size);
	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	down_write(&ncr_master_sem);
	if (keep_prev)
		ncr_master_prev = ncr_master_cur;
	WRITE_ONCE(ncr_master_cur, tfm);
	up_write(&ncr_master_sem);
	memcpy(ncr_master_key, key, size);
	if (size < sizeof(ncr_master_key))
		memzero_explicit(ncr_master_key + size,
				 sizeof(ncr_master_key) - size);
	ncr_master_key_size = size;
	return 0;
}

/* Under ncr_master_lock: frees the previous transform, if any. */
static void ncr_master_key_drop_prev(void)
{
	struct crypto_cipher *old;

	down_write(&ncr_master_sem);
	old = ncr_master_prev;
	ncr_master_prev = NULL;
	up_write(&ncr_master_sem);
	/* no reader can hold it now; frees the schedule kfree_sensitive */
	if (old)
		crypto_free_cipher(old);
}

/* Under ncr_master_lock: the rotation step @how with @key. */
static int ncr_master_key_rotate(u32 how, const u8 *key, u32 size)
{
	if (!ncr_master_key_size)
		return -ENOKEY;
	if (ncr_master_key_is_current(key, size)) {
		if (how == NCR_MASTER_KEY_ROTATE_END)
			ncr_master_key_drop_prev();
		return 0;
	}
	if (how == NCR_MASTER_KEY_ROTATE_END || ncr_master_prev)
		return -EBUSY;
	return ncr_master_key_install(key, size, true);
}

long ncr_master_key_set(const struct ncr_master_key_set *mk,
			struct nlattr *tb[])
{
	u32 how = ncr_attr_u32(tb, NCR_ATTR_MASTER_KEY_ROTATE, 0);
	u8 key[32];
	u32 size;
	long ret;

	if (!ncr_master_key_privileged())
		return -EPERM;
	if (tb[NCR_ATTR_MASTER_KEY_ROTATE] &&
	    how != NCR_MASTER_KEY_ROTATE_BEGIN &&
	    how != NCR_MASTER_KEY_ROTATE_END)
		return -EINVAL;
	ret = ncr_master_key_fetch(mk, tb, key, &size);
	if (ret)
		goto out;

	mutex_lock(&ncr_master_lock);
	if (tb[NCR_ATTR_MASTER_KEY_ROTATE])
		ret = ncr_master_key_rotate(how, key, size);
	else if (!ncr_master_key_size)
		ret = ncr_master_key_install(key, size, false);
	else if (!ncr_master_key_is_current(key, size))
		ret = -EBUSY;
	mutex_unlock(&ncr_master_lock);
out:
	memzero_explicit(key, sizeof(key));
	return ret;
}

void ncr_master_key_exit(void)
{
	mutex_lock(&ncr_master_lock);
	down_write(&ncr_master_sem);
	/* crypto_free_cipher() frees the key schedule with kfree_sensitive */
	if (ncr_master_prev)
		crypto_free_cipher(ncr_master_prev);
	if (ncr_master_cur)
		crypto_free_cipher(ncr_master_cur);
	ncr_master_prev = NULL;
	WRITE_ONCE(ncr_master_cur, NULL);
	up_write(&ncr_master_sem);
	memzero_explicit(ncr_master_key, sizeof(ncr_master_key));
	ncr_master_key_size = 0;
	mutex_unlock(&ncr_master_lock);
}
