// SPDX-License-Identifier: GPL-2.0
/*
 * Storage blob plaintext encoding; see key_blob.h and docs/storage-format.md.
 *
 * Header (16 bytes, multi-byte fields big-endian):
 *   0  magic "NCRK"     4  version       5  type      6  algo_len
 *   7  key_id_len       8  flags (u32)  12  material_len (u32)
 * then algo, key_id and material, back to back, nothing after.
 */
#include "key_blob.h"

static void put_be32(u8 *p, u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static u32 get_be32(const u8 *p)
{
	return ((u32)p[0] << 24) | ((u32)p[1] << 16) | ((u32)p[2] << 8) | p[3];
}

/* Only a secret key may lack an algorithm (one unwrapped without it). */
static bool algo_valid(u8 type, const char *algo, size_t len)
{
	size_t i;

	if (len > KEY_BLOB_ALGO_MAX || (len == 0 && type != KEY_BLOB_TYPE_SECRET))
		return false;
	for (i = 0; i < len; i++)
		if (algo[i] < 0x21 || algo[i] > 0x7e)	/* printable, no space */
			return false;
	return true;
}

static bool material_len_valid(u8 type, size_t len)
{
	if (len == 0 || len > KEY_BLOB_MATERIAL_MAX)
		return false;
	return type != KEY_BLOB_TYPE_SECRET || len <= KEY_BLOB_SECRET_MAX;
}

/* Every field rule except the total length. */
static bool fields_valid(const struct key_blob *kb)
{
	if (kb->type != KEY_BLOB_TYPE_SECRET &&
	    kb->type != KEY_BLOB_TYPE_PUBLIC &&
	    kb->type != KEY_BLOB_TYPE_PRIVATE)
		return false;
	if (kb->flags & ~KEY_BLOB_FLAGS_KNOWN)
		return false;
	if (!algo_valid(kb->type, kb->algo, kb->algo_len))
		return false;
	if (kb->key_id_len > KEY_BLOB_KEY_ID_MAX)
		return false;
	return material_len_valid(kb->type, kb->material_len);
}

size_t key_blob_encoded_len(const struct key_blob *kb)
{
	if (!fields_valid(kb))
		return 0;
	return KEY_BLOB_HEADER_LEN + kb->algo_len + kb->key_id_len +
		kb->material_len;
}

int key_blob_encode(const struct key_blob *kb, u8 *out, size_t out_size,
		    size_t *written)
{
	size_t len = key_blob_encoded_len(kb);
	u8 *p = out;

	if (len == 0)
		return -EINVAL;
	if (out_size < len)
		return -ERANGE;

	memcpy(p, KEY_BLOB_MAGIC, KEY_BLOB_MAGIC_LEN);
	p[4] = KEY_BLOB_VERSION;
	p[5] = kb->type;
	p[6] = (u8)kb->algo_len;
	p[7] = (u8)kb->key_id_len;
	put_be32(p + 8, kb->flags);
	put_be32(p + 12, (u32)kb->material_len);
	p += KEY_BLOB_HEADER_LEN;
	memcpy(p, kb->algo, kb->algo_len);
	p += kb->algo_len;
	if (kb->key_id_len)
		memcpy(p, kb->key_id, kb->key_id_len);
	p += kb->key_id_len;
	memcpy(p, kb->material, kb->material_len);
	*written = len;
	return 0;
}

int key_blob_decode(const u8 *in, size_t len, struct key_blob *kb)
{
	struct key_blob v;
	size_t off = KEY_BLOB_HEADER_LEN;

	if (len < KEY_BLOB_HEADER_LEN || len > KEY_BLOB_MAX_LEN)
		return -EINVAL;
	if (memcmp(in, KEY_BLOB_MAGIC, KEY_BLOB_MAGIC_LEN) ||
	    in[4] != KEY_BLOB_VERSION)
		return -EINVAL;

	v.type = in[5];
	v.algo_len = in[6];
	v.key_id_len = in[7];
	v.flags = get_be32(in + 8);
	v.material_len = get_be32(in + 12);

	/* Lengths are bounded (<= 255, <= 255, checked below), no overflow. */
	if (v.material_len > KEY_BLOB_MATERIAL_MAX ||
	    len != off + v.algo_len + v.key_id_len + v.material_len)
		return -EINVAL;
	v.algo = (const char *)in + off;
	off += v.algo_len;
	v.key_id = in + off;
	off += v.key_id_len;
	v.material = in + off;
	if (!fields_valid(&v))
		return -EINVAL;
	*kb = v;
	return 0;
}
