// SPDX-License-Identifier: GPL-2.0
/*
 * Key objects: handles, reference counts, and the key ioctls that the core
 * implements (init, deinit, generate, import, export, get_info).
 *
 * A handle in ns->keys holds one reference; every operation takes its own
 * (ncr_key_get), so KEY_DEINIT only drops the handle's reference and the
 * material is zeroed and freed when the last operation finishes.
 */
#include <linux/err.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "ncr_int.h"
#include "ncr_audit.h"

#define NCR_KEY_FLAGS_KNOWN (NCR_KEY_FLAG_EXPORTABLE | NCR_KEY_FLAG_WRAPPABLE | \
			     NCR_KEY_FLAG_DECRYPT | NCR_KEY_FLAG_SIGN)

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

void ncr_key_clear(struct ncr_key *key)
{
	ncr_pk_free(key->pk);
	key->pk = NULL;
	key->type = NCR_KEY_TYPE_INVALID;
	key->flags = 0;
	memset(key->algo, 0, sizeof(key->algo));
	memzero_explicit(key->key_id, sizeof(key->key_id));
	key->key_id_size = 0;
	memzero_explicit(key->secret, sizeof(key->secret));
	key->secret_size = 0;
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

void ncr_key_dest_done(struct ncr_key *key, int err)
{
	if (err < 0)
		ncr_key_clear(key);
	up_write(&key->sem);
	ncr_key_put(key);
}

const struct ncr_algo *ncr_key_set_algo_flags(struct ncr_key *key,
					      struct nlattr *tb[])
{
	const struct ncr_algo *algo;

	algo = ncr_algo_find(ncr_attr_str(tb, NCR_ATTR_ALGORITHM));
	if (!algo)
		return ERR_PTR(-EINVAL);
	if (tb[NCR_ATTR_KEY_FLAGS]) {
		u32 flags = ncr_nla_get_u32(tb[NCR_ATTR_KEY_FLAGS]);

		if (flags & ~NCR_KEY_FLAGS_KNOWN)
			return ERR_PTR(-EINVAL);
		key->flags = flags;
	}
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
	if (ret) {
		kfree(key);
		return ret;
	}
	refcount_set(&key->ref, 1);
	init_rwsem(&key->sem);
	key->ns_id = ns->id;

	mutex_lock(&ns->key_lock);
	ret = idr_alloc_cyclic(&ns->keys, key, 1, 0, GFP_KERNEL);
	if (ret > 0)
		key->handle = ret;
	mutex_unlock(&ns->key_lock);
	if (ret < 0)
		ncr_key_put(key);
	return ret;
}

int ncr_key_deinit(struct ncr_ns *ns, ncr_key_t handle)
{
	struct ncr_key *key;

	mutex_lock(&ns->key_lock);
	key = idr_remove(&ns->keys, handle);
	mutex_unlock(&ns->key_lock);
	ncr_audit_key_deinit(ns, handle, key, key ? 0 : -EINVAL);
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

/*
 * Flags and key ID survive a replacement of the material unless the call
 * gives new ones ("unchanged if not present").
 */
struct ncr_key_meta {
	u32 flags;
	u8 key_id[MAX_KEY_ID_SIZE];
	u32 key_id_size;
};

static void ncr_key_meta_save(const struct ncr_key *key, struct ncr_key_meta *m)
{
	m->flags = key->flags;
	memcpy(m->key_id, key->key_id, sizeof(m->key_id));
	m->key_id_size = key->key_id_size;
}

static void ncr_key_meta_restore(struct ncr_key *key,
				 const struct ncr_key_meta *m)
{
	key->flags = m->flags;
	memcpy(key->key_id, m->key_id, sizeof(key->key_id));
	key->key_id_size = m->key_id_size;
}

/* Replace key's material: lock for write, keep meta, clear. */
static struct ncr_key *ncr_key_replace_begin(struct ncr_ns *ns,
					     ncr_key_t handle)
{
	struct ncr_key_meta meta;
	struct ncr_key *key = ncr_key_get(ns, handle);

	if (IS_ERR(key))
		return key;
	down_write(&key->sem);
	ncr_key_meta_save(key, &meta);
	ncr_key_clear(key);
	ncr_key_meta_restore(key, &meta);
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
	ncr_key_dest_done(key, ret);
	return ret;
}

static int ncr_key_set_id(struct ncr_key *key, const struct nlattr *nla)
{
	if (!nla)
		return 0;
	if (ncr_nla_len(nla) > MAX_KEY_ID_SIZE)
		return -EOVERFLOW;
	key->key_id_size = ncr_nla_len(nla);
	memcpy(key->key_id, ncr_nla_data(nla), key->key_id_size);
	return 0;
}

int ncr_key_fill_material(struct ncr_key *key, const struct ncr_algo *algo,
			  u32 type, const u8 *data, size_t len)
{
	switch (type) {
	case NCR_KEY_TYPE_SECRET:
		/* "dh": a KEY_DERIVE shared secret, e.g. from a storage blob */
		if (len > NCR_SECRET_MAX ||
		    !(ncr_algo_key_len_ok(algo, len) ||
		      (algo->cls == NCR_ALG_DH && len)))
			return -EINVAL;
		memcpy(key->secret, data, len);
		key->secret_size = len;
		key->type = type;
		return 0;
	case NCR_KEY_TYPE_PUBLIC:
	case NCR_KEY_TYPE_PRIVATE:
		if (algo->cls != NCR_ALG_PK && algo->cls != NCR_ALG_DH)
			return -EINVAL;
		key->type = type;
		return ncr_pk_import(key, type, data, len);
	default:
		return -EINVAL;
	}
}

int ncr_key_import(struct ncr_ns *ns, const struct ncr_key_import *imp,
		   struct nlattr *tb[])
{
	const struct ncr_algo *algo;
	struct ncr_key *key;
	u8 *data;
	int ret;

	data = ncr_copy_in(imp->data, imp->data_size);
	if (IS_ERR(data))
		return PTR_ERR(data);
	key = ncr_key_replace_begin(ns, imp->key);
	ret = PTR_ERR_OR_ZERO(key);
	if (ret)
		goto free;
	algo = ncr_key_set_algo_flags(key, tb);
	ret = PTR_ERR_OR_ZERO(algo);
	if (ret)
		goto out;
	ret = ncr_key_set_id(key, tb[NCR_ATTR_KEY_ID]);
	if (ret)
		goto out;
	ret = -EINVAL;
	if (!tb[NCR_ATTR_KEY_TYPE])
		goto out;
	ret = ncr_key_fill_material(key, algo,
				    ncr_nla_get_u32(tb[NCR_ATTR_KEY_TYPE]),
				    data, imp->data_size);
out:
	ncr_key_dest_done(key, ret);
free:
	kvfree_sensitive(data, imp->data_size ? imp->data_size : 1);
	return ret;
}

/* Room for a PK export in kernel memory (user buffers may be larger). */
#define NCR_PK_EXPORT_MAX	(16 * 1024)

static long ncr_key_export_pk(struct ncr_key *key,
			      const struct ncr_key_export *exp)
{
	size_t room = clamp_t(size_t, exp->buffer_size, 1, NCR_PK_EXPORT_MAX);
	size_t len = min_t(size_t, exp->buffer_size, room);
	u8 *buf;
	long ret;

	buf = kvmalloc(room, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	ret = ncr_pk_export(key, buf, &len);
	if (!ret)
		ret = ncr_copy_out(exp->buffer, exp->buffer_size, buf, len);
	kvfree_sensitive(buf, room);
	return ret;
}

int ncr_key_export(struct ncr_ns *ns, const struct ncr_key_export *exp,
		   struct nlattr *tb[])
{
	struct ncr_key *key;
	long ret;

	if (exp->buffer_size < 0)
		return -EINVAL;
	key = ncr_key_get(ns, exp->key);
	if (IS_ERR(key))
		return PTR_ERR(key);
	down_read(&key->sem);
	if (key->type == NCR_KEY_TYPE_INVALID)
		ret = -EINVAL;
	else if (!(key->flags & NCR_KEY_FLAG_EXPORTABLE))
		ret = -EPERM;
	else if (key->type == NCR_KEY_TYPE_SECRET)
		ret = ncr_copy_out(exp->buffer, exp->buffer_size, key->secret,
				   key->secret_size);
	else
		ret = ncr_key_export_pk(key, exp);
	up_read(&key->sem);
	ncr_key_put(key);
	return ret;
}

static int ncr_key_info_attr(const struct ncr_key *key, u16 type,
			     struct ncr_nla_out *out)
{
	switch (type) {
	case NCR_ATTR_ALGORITHM:
		return ncr_nla_put_str(out, type, key->algo);
	case NCR_ATTR_KEY_FLAGS:
		return ncr_nla_put_u32(out, type, key->flags);
	case NCR_ATTR_KEY_TYPE:
		return ncr_nla_put_u32(out, type, key->type);
	case NCR_ATTR_KEY_ID:
		return ncr_nla_put(out, type, key->key_id, key->key_id_size);
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
