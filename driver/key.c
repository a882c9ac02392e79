// SPDX-License-Identifier: GPL-2.0
/*
 * Key objects: handles, reference counts, and the key ioctls that the core
 * implements (init, deinit, generate, get_info; import and export are
 * key_io.c).
 *
 * A handle in ns->keys holds one reference; every operation takes its own
 * (ncr_key_get), so KEY_DEINIT only drops the handle's reference and the
 * material is zeroed and freed when the last operation finishes.
 */
#include <linux/capability.h>
#include <linux/err.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "key.h"
#include "algo.h"
#include "attr.h"
#include "ncr_limits.h"
#include "ns.h"
#include "lib/pk_key.h"

#define NCR_KEY_FLAGS_KNOWN (NCR_KEY_FLAG_EXPORTABLE | NCR_KEY_FLAG_WRAPPABLE | \
			     NCR_KEY_FLAG_DECRYPT | NCR_KEY_FLAG_SIGN | \
			     NCR_KEY_FLAG_WRAPPING)

int ncr_key_flags_check(u32 flags)
{
	if (flags & ~NCR_KEY_FLAGS_KNOWN)
		return -EINVAL;
	/* a KEK of the caller's own would let it read every wrappable key */
	if ((flags & NCR_KEY_FLAG_WRAPPING) && !capable(CAP_SYS_ADMIN))
		return -EPERM;
	return 0;
}

struct ncr_key *ncr_key_get(struct ncr_ns *ns, ncr_key_t handle)
{
	struct ncr_key *key;

	mutex_lock(&ns->key_lock);
	key = idr_find(&ns->keys, handle);
	if (key)
		refcount_inc(&key->ref);
	mutex_unlock(&ns->key_lock);
	return key ? key : ERR_PTR(-EINVAL);
}

/* Sessions that hold the transform keep it until they end. */
static void ncr_key_drop_tfm(struct ncr_key *key)
{
	struct ncr_key_tfm *kt;

	spin_lock(&key->tfm_lock);
	kt = key->tfm;
	key->tfm = NULL;
	spin_unlock(&key->tfm_lock);
	ncr_key_tfm_put(kt);
}

/* What the key pins, as charged to its user's max_bytes_per_user. */
static size_t ncr_key_mem(const struct ncr_key *key)
{
	return sizeof(*key) + (key->pk ? ncr_pk_mem(key->pk) : 0);
}

void ncr_key_clear(struct ncr_key *key)
{
	ncr_key_drop_tfm(key);
	ncr_pk_free(key->pk);
	key->pk = NULL;
	key->type = NCR_KEY_TYPE_INVALID;
	key->flags = 0;
	memset(key->algo, 0, sizeof(key->algo));
	memzero_explicit(key->key_id, sizeof(key->key_id));
	key->key_id_size = 0;
	memzero_explicit(key->secret, sizeof(key->secret));
	key->secret_size = 0;
	/* lowering the charge never fails */
	ncr_limit_set_bytes(&key->owner, ncr_key_mem(key));
}

void ncr_key_put(struct ncr_key *key)
{
	if (!refcount_dec_and_test(&key->ref))
		return;
	ncr_key_clear(key);
	ncr_limit_release(&key->owner, NCR_LIMIT_KEY);
	kfree_sensitive(key);
}

struct ncr_key *ncr_key_dest_begin(struct ncr_ns *ns, ncr_key_t handle)
{
	struct ncr_key *key = ncr_key_get(ns, handle);

	if (IS_ERR(key))
		return key;
	down_write(&key->sem);
	ncr_key_clear(key);
	return key;
}

/*
 * The last check of every operation that fills a key: flags carried over
 * from the key's previous contents must be as allowed as given ones, and
 * the new material must fit its user's max_bytes_per_user (EDQUOT).
 */
static int ncr_key_dest_check(struct ncr_key *key, int err)
{
	if (err < 0)
		return err;
	return ncr_key_flags_check(key->flags) ?:
	       ncr_limit_set_bytes(&key->owner, ncr_key_mem(key)) ?: err;
}

int ncr_key_dest_done(struct ncr_key *key, int err)
{
	err = ncr_key_dest_check(key, err);
	if (err < 0)
		ncr_key_clear(key);
	up_write(&key->sem);
	ncr_key_put(key);
	return err;
}

/*
 * The lock order of two key objects: by address, the second annotated as
 * nested for lockdep.  Every operation that holds two keys' sems at once
 * takes them here (the same key twice only for two readers).
 */
static void ncr_key_lock_one(struct ncr_key *key, bool write, int subclass)
{
	if (write)
		down_write_nested(&key->sem, subclass);
	else
		down_read_nested(&key->sem, subclass);
}

void ncr_key_lock_two(struct ncr_key *a, bool a_write, struct ncr_key *b,
		      bool b_write)
{
	if (a == b) {
		WARN_ON_ONCE(a_write || b_write);
		down_read(&a->sem);
		return;
	}
	if (a > b) {
		swap(a, b);
		swap(a_write, b_write);
	}
	ncr_key_lock_one(a, a_write, 0);
	ncr_key_lock_one(b, b_write, SINGLE_DEPTH_NESTING);
}

void ncr_key_unlock_two(struct ncr_key *a, bool a_write, struct ncr_key *b,
			bool b_write)
{
	if (a_write)
		up_write(&a->sem);
	else
		up_read(&a->sem);
	if (a == b)
		return;
	if (b_write)
		up_write(&b->sem);
	else
		up_read(&b->sem);
}

int ncr_key_dest_begin_two(struct ncr_ns *ns, ncr_key_t ha, ncr_key_t hb,
			   struct ncr_key **a, struct ncr_key **b)
{
	if (ha == hb)
		return -EINVAL;
	*a = ncr_key_get(ns, ha);
	if (IS_ERR(*a))
		return PTR_ERR(*a);
	*b = ncr_key_get(ns, hb);
	if (IS_ERR(*b)) {
		ncr_key_put(*a);
		return PTR_ERR(*b);
	}
	ncr_key_lock_two(*a, true, *b, true);
	ncr_key_clear(*a);
	ncr_key_clear(*b);
	return 0;
}

int ncr_key_dest_done_two(struct ncr_key *a, struct ncr_key *b, int err)
{
	err = ncr_key_dest_check(a, err);
	err = ncr_key_dest_check(b, err);
	if (err < 0) {
		ncr_key_clear(a);
		ncr_key_clear(b);
	}
	ncr_key_unlock_two(a, true, b, true);
	ncr_key_put(b);
	ncr_key_put(a);
	return err;
}

int ncr_key_set_flags(struct ncr_key *key, struct nlattr *tb[])
{
	u32 flags;
	int ret;

	if (!tb[NCR_ATTR_KEY_FLAGS])
		return 0;
	flags = ncr_nla_get_u32(tb[NCR_ATTR_KEY_FLAGS]);
	ret = ncr_key_flags_check(flags);
	if (!ret)
		key->flags = flags;
	return ret;
}

const struct ncr_algo *ncr_key_set_algo_flags(struct ncr_key *key,
					      struct nlattr *tb[])
{
	const struct ncr_algo *algo;
	int ret;

	algo = ncr_algo_find(ncr_attr_str(tb, NCR_ATTR_ALGORITHM));
	if (!algo)
		return ERR_PTR(-EINVAL);
	ret = ncr_key_set_flags(key, tb);
	if (ret)
		return ERR_PTR(ret);
	strscpy(key->algo, algo->name, sizeof(key->algo));
	return algo;
}

int ncr_key_init(struct ncr_ns *ns)
{
	struct ncr_key *key;
	int ret;

	key = kzalloc(sizeof(*key), GFP_KERNEL);
	if (!key)
		return -ENOMEM;
	ret = ncr_limit_charge(&key->owner, NCR_LIMIT_KEY);
	if (ret)
		goto err_free;
	ret = ncr_limit_set_bytes(&key->owner, ncr_key_mem(key));
	if (ret)
		goto err_release;
	refcount_set(&key->ref, 1);
	init_rwsem(&key->sem);
	mutex_init(&key->cache_lock);
	spin_lock_init(&key->tfm_lock);
	key->ns_id = ns->id;

	mutex_lock(&ns->key_lock);
	ret = idr_alloc_cyclic(&ns->keys, key, 1, 0, GFP_KERNEL);
	if (ret > 0)
		key->handle = ret;
	mutex_unlock(&ns->key_lock);
	if (ret < 0)
		ncr_key_put(key);
	return ret;

err_release:
	ncr_limit_release(&key->owner, NCR_LIMIT_KEY);
err_free:
	kfree(key);
	return ret;
}

int ncr_key_deinit(struct ncr_ns *ns, ncr_key_t handle)
{
	struct ncr_key *key;

	mutex_lock(&ns->key_lock);
	key = idr_remove(&ns->keys, handle);
	mutex_unlock(&ns->key_lock);
	if (!key)
		return -EINVAL;
	ncr_key_put(key);	/* the handle's reference */
	return 0;
}

static int ncr_key_destroy_one(int id, void *p, void *unused)
{
	ncr_key_put(p);
	return 0;
}

void ncr_keys_destroy(struct ncr_ns *ns)
{
	idr_for_each(&ns->keys, ncr_key_destroy_one, NULL);
	idr_destroy(&ns->keys);
}

struct ncr_key *ncr_key_replace_begin(struct ncr_ns *ns, ncr_key_t handle)
{
	struct ncr_key *key = ncr_key_get(ns, handle);
	u32 flags;

	if (IS_ERR(key))
		return key;
	down_write(&key->sem);
	flags = key->flags;
	ncr_key_clear(key);
	key->flags = flags;
	return key;
}

int ncr_key_generate(struct ncr_ns *ns, const struct ncr_key_generate *gen,
		     struct nlattr *tb[])
{
	const struct ncr_algo *algo;
	struct ncr_key *key;
	u32 bits;
	int ret;

	key = ncr_key_replace_begin(ns, gen->key);
	if (IS_ERR(key))
		return PTR_ERR(key);
	algo = ncr_key_set_algo_flags(key, tb);
	ret = PTR_ERR_OR_ZERO(algo);
	if (ret)
		goto out;
	/* Only secret keys: pairs are NCRIO_KEY_GENERATE_PAIR. */
	ret = -EINVAL;
	if (!tb[NCR_ATTR_SECRET_KEY_BITS])
		goto out;
	bits = ncr_nla_get_u32(tb[NCR_ATTR_SECRET_KEY_BITS]);
	if (bits % 8 || !ncr_algo_key_len_ok(algo, bits / 8))
		goto out;
	key->type = NCR_KEY_TYPE_SECRET;
	key->secret_size = bits / 8;
	get_random_bytes(key->secret, key->secret_size);
	key->key_id_size = MAX_KEY_ID_SIZE;
	get_random_bytes(key->key_id, key->key_id_size);
	ret = 0;
out:
	ret = ncr_key_dest_done(key, ret);
	return ret;
}

static int ncr_key_info_attr(const struct ncr_key *key, u16 type,
			     struct ncr_nla_out *out)
{
	switch (type) {
	case NCR_ATTR_ALGORITHM:
		/* an unwrapped secret key may have none */
		if (!key->algo[0])
			return 0;
		return ncr_nla_put_str(out, type, key->algo);
	case NCR_ATTR_KEY_FLAGS:
		return ncr_nla_put_u32(out, type, key->flags);
	case NCR_ATTR_KEY_TYPE:
		return ncr_nla_put_u32(out, type, key->type);
	case NCR_ATTR_KEY_ID:
		return ncr_nla_put(out, type, key->key_id, key->key_id_size);
	case NCR_ATTR_ECC_CURVE:
		/* only a key that has a curve reports one */
		if (!key->pk || !key->pk->ops->curve_name)
			return 0;
		return ncr_nla_put_str(out, type,
				       key->pk->ops->curve_name(key->pk));
	default:
		return 0;	/* unsupported requests are ignored */
	}
}

int ncr_key_get_info(struct ncr_ns *ns, const struct ncr_key_get_info *info,
		     struct nlattr *tb[], struct ncr_nla_out *out)
{
	const struct nlattr *wanted = tb[NCR_ATTR_WANTED_ATTRS];
	struct ncr_key *key;
	size_t i, n = 0;
	int ret = 0;

	if (wanted) {
		if (ncr_nla_len(wanted) % sizeof(u16))
			return -EINVAL;
		n = ncr_nla_len(wanted) / sizeof(u16);
	}
	key = ncr_key_get(ns, info->key);
	if (IS_ERR(key))
		return PTR_ERR(key);
	down_read(&key->sem);
	if (key->type == NCR_KEY_TYPE_INVALID)
		ret = -EINVAL;
	for (i = 0; i < n && !ret; i++) {
		u16 type;

		memcpy(&type, (const u8 *)ncr_nla_data(wanted) + i * 2, 2);
		ret = ncr_key_info_attr(key, type, out);
	}
	up_read(&key->sem);
	ncr_key_put(key);
	return ret;
}
