// SPDX-License-Identifier: GPL-2.0
/*
 * NCRIO_KEY_STORAGE_WRAP / NCRIO_KEY_STORAGE_UNWRAP: a key object with its
 * metadata, encoded by lib/key_blob.c and wrapped with RFC 5649 under the
 * storage master key (master_key.c: the current key; unwrap also tries the
 * previous one during a rotation).  Format and errors:
 * docs/storage-format.md.
 */
#include <linux/build_bug.h>
#include <linux/err.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "storage.h"
#include "algo.h"
#include "attr.h"
#include "key_io.h"
#include "wrap.h"

static_assert(KEY_BLOB_TYPE_SECRET == NCR_KEY_TYPE_SECRET);
static_assert(KEY_BLOB_TYPE_PUBLIC == NCR_KEY_TYPE_PUBLIC);
static_assert(KEY_BLOB_TYPE_PRIVATE == NCR_KEY_TYPE_PRIVATE);
static_assert(KEY_BLOB_KEY_ID_MAX == MAX_KEY_ID_SIZE);
static_assert(KEY_BLOB_SECRET_MAX == NCR_SECRET_MAX);
static_assert(KEY_BLOB_ALGO_MAX >= NCR_ALGO_NAME_MAX);
static_assert(KEY_BLOB_FLAGS_KNOWN ==
	      (NCR_KEY_FLAG_EXPORTABLE | NCR_KEY_FLAG_WRAPPABLE |
	       NCR_KEY_FLAG_DECRYPT | NCR_KEY_FLAG_SIGN |
	       NCR_KEY_FLAG_WRAPPING));

/* Largest storage blob: the wrapping of the largest encoding. */
#define NCR_STORAGE_BLOB_MAX	(KEY_BLOB_MAX_LEN + 2 * AES_KW_SEMIBLOCK)

/* Encodes @key (read-locked) into a new buffer *enc of *enc_len bytes. */
static int ncr_storage_encode(struct ncr_key *key, u8 **enc, size_t *enc_len)
{
	struct key_blob kb = {
		.type = key->type,
		.flags = key->flags,
		.algo = key->algo,
		.algo_len = strnlen(key->algo, sizeof(key->algo)),
		.key_id = key->key_id,
		.key_id_len = key->key_id_size,
	};
	u8 *material;
	int ret;

	ret = ncr_key_material(key, NCR_KEY_MATERIAL_MAX, &material,
			       &kb.material_len);
	if (ret)
		return ret;
	kb.material = material;
	ret = -EINVAL;			/* a key object the format cannot hold */
	*enc_len = key_blob_encoded_len(&kb);
	if (!*enc_len)
		goto out;
	ret = -ENOMEM;
	*enc = kvmalloc(*enc_len, GFP_KERNEL);
	if (!*enc)
		goto out;
	ret = key_blob_encode(&kb, *enc, *enc_len, enc_len);
	if (ret)
		kvfree_sensitive(*enc, *enc_len);
out:
	kvfree_sensitive(material, kb.material_len);
	return ret;
}

long ncr_key_storage_wrap(struct ncr_ns *ns,
			  const struct ncr_key_storage_wrap *sw,
			  struct nlattr *tb[])
{
	struct ncr_key *key;
	u8 *enc = NULL, *out = NULL;
	size_t enc_len = 0, out_len = 0;
	long ret;

	if (!ncr_master_key_present())
		return -ENOKEY;
	if (sw->buffer_size < 0)
		return -EINVAL;
	key = ncr_key_get(ns, sw->key);
	if (IS_ERR(key))
		return PTR_ERR(key);

	down_read(&key->sem);
	if (key->type == NCR_KEY_TYPE_INVALID)
		ret = -EINVAL;
	else if (!(key->flags & NCR_KEY_FLAG_WRAPPABLE))
		ret = -EPERM;
	else
		ret = ncr_storage_encode(key, &enc, &enc_len);
	up_read(&key->sem);
	ncr_key_put(key);
	if (ret)
		return ret;

	out_len = aes_kwp_wrapped_len(enc_len);
	out = kvmalloc(out_len, GFP_KERNEL);
	ret = -ENOMEM;
	if (out)
		ret = ncr_master_wrap(enc, enc_len, out, &out_len);
	if (!ret)
		ret = ncr_copy_out(sw->buffer, sw->buffer_size, out, out_len);
	kvfree(out);
	kvfree_sensitive(enc, enc_len);
	return ret;
}

/* Unwraps and decodes a blob; *plain (freed by caller) backs *kb. */
static int ncr_storage_open(const u8 *data, size_t len, u8 **plain,
			    struct key_blob *kb)
{
	size_t plain_len = len;
	int ret;

	if (len > NCR_STORAGE_BLOB_MAX)
		return -EINVAL;
	*plain = kvmalloc(len ? len : 1, GFP_KERNEL);
	if (!*plain)
		return -ENOMEM;
	ret = ncr_master_unwrap(data, len, *plain, &plain_len);
	if (!ret)
		ret = key_blob_decode(*plain, plain_len, kb);
	return ret;
}

/* Restores @kb into the cleared, write-locked @key. */
static int ncr_storage_restore(struct ncr_key *key, const struct key_blob *kb)
{
	const struct ncr_algo *algo;
	int ret;

	if (kb->algo_len > NCR_ALGO_NAME_MAX)
		return -EINVAL;
	memcpy(key->algo, kb->algo, kb->algo_len);
	key->algo[kb->algo_len] = '\0';
	/* no algorithm: a secret key unwrapped without one */
	algo = ncr_algo_find(key->algo);
	if (!algo && kb->algo_len)
		return -EINVAL;
	ret = ncr_key_flags_check(kb->flags);
	if (ret)
		return ret;
	key->flags = kb->flags;
	memcpy(key->key_id, kb->key_id, kb->key_id_len);
	key->key_id_size = kb->key_id_len;
	return ncr_key_fill_material(key, algo, kb->type, kb->material,
				     kb->material_len);
}

long ncr_key_storage_unwrap(struct ncr_ns *ns,
			    const struct ncr_key_storage_unwrap *su,
			    struct nlattr *tb[])
{
	struct key_blob kb;
	struct ncr_key *key;
	u8 *data, *plain = NULL;
	int ret;

	if (!ncr_master_key_present())
		return -ENOKEY;
	data = ncr_copy_in(su->data, su->data_size);
	if (IS_ERR(data))
		return PTR_ERR(data);
	ret = ncr_storage_open(data, su->data_size, &plain, &kb);

	/* The target is cleared even when the blob was bad. */
	key = ncr_key_dest_begin(ns, su->key);
	if (IS_ERR(key)) {
		ret = ret ? ret : PTR_ERR(key);
		goto out;
	}
	if (!ret)
		ret = ncr_storage_restore(key, &kb);
	ret = ncr_key_dest_done(key, ret);
out:
	if (plain)
		kvfree_sensitive(plain, su->data_size ? su->data_size : 1);
	kvfree_sensitive(data, su->data_size ? su->data_size : 1);
	return ret;
}
