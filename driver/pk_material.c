// SPDX-License-Identifier: GPL-2.0
/*
 * The material of public-key objects: KEY_IMPORT/KEY_EXPORT formats
 * (lib/der.h, or an algorithm's own public format: DH's raw number), key
 * IDs and strength.
 *
 * Key IDs: both halves of a generated pair, and an imported key given no
 * NCR_ATTR_KEY_ID, get the SHA-1 of the public key in its export format
 * (SubjectPublicKeyInfo for RSA/DSA/EC, the raw number for DH), as in X.509
 * subjectKeyIdentifier method 1 but over the whole SPKI.
 */
#include <crypto/hash.h>
#include <linux/err.h>
#include <linux/slab.h>
#include "pk.h"
#include "key.h"
#include "lib/der.h"

/* The public half in its export format; buf NULL: size only. */
static int pk_public_encode(const struct ncr_pk *pk, u8 *buf, size_t *len)
{
	int err;

	if (pk->ops->export_public)
		return pk->ops->export_public(pk, buf, len);
	err = ncr_der_encode_public(pk, buf, len);
	return err == -ENOSPC ? -ERANGE : err;
}

int ncr_pk_key_id(const struct ncr_pk *pk, u8 id[SHA1_DIGEST_SIZE])
{
	struct crypto_shash *tfm;
	size_t len;
	u8 *buf;
	int err;

	err = pk_public_encode(pk, NULL, &len);
	if (err)
		return err;
	buf = kvmalloc(len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	err = pk_public_encode(pk, buf, &len);
	if (err)
		goto out;
	tfm = crypto_alloc_shash("sha1", 0, 0);
	if (IS_ERR(tfm)) {
		err = PTR_ERR(tfm);
		goto out;
	}
	err = crypto_shash_tfm_digest(tfm, buf, len, id);
	crypto_free_shash(tfm);
out:
	kvfree(buf);
	return err;
}

void ncr_pk_set_key_id(struct ncr_key *key, const u8 id[SHA1_DIGEST_SIZE])
{
	BUILD_BUG_ON(MAX_KEY_ID_SIZE < SHA1_DIGEST_SIZE);
	memcpy(key->key_id, id, SHA1_DIGEST_SIZE);
	key->key_id_size = SHA1_DIGEST_SIZE;
}

int ncr_pk_import(struct ncr_key *key, u32 type, const u8 *data, size_t len)
{
	const struct ncr_pk_ops *ops = ncr_pk_ops_find(key->algo);
	u8 id[SHA1_DIGEST_SIZE];
	struct ncr_pk *pk;
	int err;

	if (!ops ||
	    (type != NCR_KEY_TYPE_PUBLIC && type != NCR_KEY_TYPE_PRIVATE))
		return -EINVAL;
	pk = ncr_pk_alloc();
	if (!pk)
		return -ENOMEM;
	if (type == NCR_KEY_TYPE_PRIVATE)
		err = ncr_der_decode_private(pk, ops, data, len);
	else if (ops->import_public)
		err = ncr_pk_decode(pk, ops, data, len, ops->import_public);
	else
		err = ncr_der_decode_public(pk, ops, data, len);
	if (!err && !key->key_id_size) {
		err = ncr_pk_key_id(pk, id);
		if (!err)
			ncr_pk_set_key_id(key, id);
	}
	if (err) {
		ncr_pk_free(pk);
		return err;
	}
	key->pk = pk;
	return 0;
}

int ncr_pk_export(struct ncr_key *key, u8 *buf, size_t *len)
{
	int err;

	if (!key->pk)
		return -EINVAL;
	if (key->type == NCR_KEY_TYPE_PUBLIC)
		return pk_public_encode(key->pk, buf, len);
	if (key->type != NCR_KEY_TYPE_PRIVATE)
		return -EINVAL;
	err = ncr_der_encode_private(key->pk, buf, len);
	return err == -ENOSPC ? -ERANGE : err;
}

/* Comparable strengths of SP 800-57 part 1, table 2. */
unsigned int ncr_pk_strength_bits(struct ncr_key *key)
{
	unsigned int bits = key->pk ? key->pk->ops->bits(key->pk) : 0;

	if (key->pk && key->pk->ops->strength)
		return key->pk->ops->strength(key->pk);
	if (bits >= 15360)
		return 256;
	if (bits >= 7680)
		return 192;
	if (bits >= 3072)
		return 128;
	if (bits >= 2048)
		return 112;
	return 80;
}
