// SPDX-License-Identifier: GPL-2.0
/*
 * A key object's material in and out: KEY_IMPORT, KEY_EXPORT, and the one
 * encoding that export, KEY_WRAP and storage blobs carry (a secret's bytes,
 * or a public/private key's export format, pk_material.c).
 */
#include <linux/err.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include "key_io.h"
#include "algo.h"
#include "attr.h"
#include "pk.h"

int ncr_key_set_id(struct ncr_key *key, const struct nlattr *nla)
{
	if (!nla)
		return 0;
	if (ncr_nla_len(nla) > MAX_KEY_ID_SIZE)
		return -EOVERFLOW;
	key->key_id_size = ncr_nla_len(nla);
	memcpy(key->key_id, ncr_nla_data(nla), key->key_id_size);
	return 0;
}

/* 1..NCR_SECRET_MAX bytes without algorithm or for a hash or "dh" secret. */
static bool ncr_key_secret_len_ok(const struct ncr_algo *algo, size_t len)
{
	if (len > NCR_SECRET_MAX)
		return false;
	if (!algo || algo->cls == NCR_ALG_HASH || algo->cls == NCR_ALG_DH)
		return len > 0;
	return ncr_algo_key_len_ok(algo, len);
}

int ncr_key_fill_material(struct ncr_key *key, const struct ncr_algo *algo,
			  u32 type, const u8 *data, size_t len)
{
	switch (type) {
	case NCR_KEY_TYPE_SECRET:
		if (!ncr_key_secret_len_ok(algo, len))
			return -EINVAL;
		memcpy(key->secret, data, len);
		key->secret_size = len;
		key->type = type;
		return 0;
	case NCR_KEY_TYPE_PUBLIC:
	case NCR_KEY_TYPE_PRIVATE:
		if (!algo || (algo->cls != NCR_ALG_PK && algo->cls != NCR_ALG_DH))
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
	ret = ncr_key_dest_done(key, ret);
free:
	kvfree_sensitive(data, imp->data_size ? imp->data_size : 1);
	return ret;
}

int ncr_key_material(struct ncr_key *key, size_t room, u8 **data,
		     size_t *len)
{
	size_t alloc = clamp_t(size_t, room, 1, NCR_KEY_MATERIAL_MAX);
	int ret = 0;

	*data = kvmalloc(alloc, GFP_KERNEL);
	if (!*data)
		return -ENOMEM;
	*len = min(room, alloc);
	if (key->type != NCR_KEY_TYPE_SECRET) {
		ret = ncr_pk_export(key, *data, len);
	} else if (key->secret_size > *len) {
		ret = -ERANGE;
	} else {
		*len = key->secret_size;
		memcpy(*data, key->secret, *len);
	}
	if (ret) {
		kvfree_sensitive(*data, alloc);
		*data = NULL;
	} else {
		/* an encoder may use the room as scratch; callers wipe *len */
		memzero_explicit(*data + *len, alloc - *len);
	}
	return ret;
}

int ncr_key_export(struct ncr_ns *ns, const struct ncr_key_export *exp,
		   struct nlattr *tb[])
{
	struct ncr_key *key;
	size_t len;
	long ret;
	u8 *mat;

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
	else
		ret = ncr_key_material(key, exp->buffer_size, &mat, &len);
	if (!ret) {
		ret = ncr_copy_out(exp->buffer, exp->buffer_size, mat, len);
		kvfree_sensitive(mat, len);
	}
	up_read(&key->sem);
	ncr_key_put(key);
	return ret;
}
