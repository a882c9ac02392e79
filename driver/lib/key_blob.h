/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The plaintext of a storage blob: a key object's metadata and material in
 * a versioned, byte-order independent encoding (docs/storage-format.md).
 * The driver wraps it with RFC 5649 under the storage master key; this
 * code only encodes and strictly parses it.
 */
#ifndef NCR_KEY_BLOB_H
#define NCR_KEY_BLOB_H

#include "ncr_port.h"

#define KEY_BLOB_MAGIC		"NCRK"
#define KEY_BLOB_MAGIC_LEN	4
#define KEY_BLOB_VERSION	1
#define KEY_BLOB_HEADER_LEN	16

/* Values equal to ncr_key_type_t (checked at build time in the driver). */
#define KEY_BLOB_TYPE_SECRET	1
#define KEY_BLOB_TYPE_PUBLIC	2
#define KEY_BLOB_TYPE_PRIVATE	3

/* The NCR_KEY_FLAG_* bits a blob may carry; any other bit is rejected. */
#define KEY_BLOB_FLAGS_KNOWN	0x0000001fu

#define KEY_BLOB_ALGO_MAX	127	/* CRYPTO_MAX_ALG_NAME - 1 */
#define KEY_BLOB_KEY_ID_MAX	20	/* MAX_KEY_ID_SIZE */
#define KEY_BLOB_SECRET_MAX	512	/* NCR_SECRET_MAX */
#define KEY_BLOB_MATERIAL_MAX	16384	/* DER of an RSA-16384 private key fits */

#define KEY_BLOB_MAX_LEN	(KEY_BLOB_HEADER_LEN + KEY_BLOB_ALGO_MAX + \
				 KEY_BLOB_KEY_ID_MAX + KEY_BLOB_MATERIAL_MAX)

/*
 * A decoded view.  After key_blob_decode() the pointers point into the
 * decoded buffer; @algo is NOT NUL-terminated.
 */
struct key_blob {
	u8 type;		/* KEY_BLOB_TYPE_* */
	u32 flags;		/* NCR_KEY_FLAG_* */
	const char *algo;
	size_t algo_len;
	const u8 *key_id;
	size_t key_id_len;
	const u8 *material;	/* secret bytes, or DER for public/private */
	size_t material_len;
};

/* Encoded size of @kb, or 0 if @kb violates the format's limits. */
size_t key_blob_encoded_len(const struct key_blob *kb);

/*
 * Encodes @kb into @out (@out_size bytes available); *@written gets the
 * length.  -EINVAL if @kb is not encodable (see key_blob_decode() for the
 * rules), -ERANGE if @out is too small.
 */
int key_blob_encode(const struct key_blob *kb, u8 *out, size_t out_size,
		    size_t *written);

/*
 * Parses exactly @len bytes at @in.  -EINVAL on anything malformed: wrong
 * magic or version, unknown type, unknown flag bits, algorithm name
 * empty / too long / not printable ASCII, key ID too long, material
 * empty / too long (a secret above KEY_BLOB_SECRET_MAX), or a total
 * length that disagrees with the header.
 */
int key_blob_decode(const u8 *in, size_t len, struct key_blob *kb);

#endif /* NCR_KEY_BLOB_H */
