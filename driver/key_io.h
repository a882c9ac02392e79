/* SPDX-License-Identifier: GPL-2.0 */
/* Key material in and out (key_io.c): import, export, wrap and storage. */
#ifndef NCR_KEY_IO_H
#define NCR_KEY_IO_H

#include "key.h"
#include "lib/key_blob.h"

/*
 * The most material a key carries in kernel memory: the DER of an
 * RSA-16384 private key fits, and so does every export, wrap and storage
 * blob (user buffers may be larger).
 */
#define NCR_KEY_MATERIAL_MAX	KEY_BLOB_MATERIAL_MAX

/*
 * A copy of the material of key (locked for read, not empty) in a new
 * buffer *data of *len bytes, at most room (-ERANGE, -EINVAL, -ENOMEM).
 * Free with kvfree_sensitive(*data, *len).
 */
int ncr_key_material(struct ncr_key *key, size_t room, u8 **data,
		     size_t *len);

/*
 * The inverse, for import, unwrap and storage unwrap: fills an empty key
 * (sem held for write) as KEY_IMPORT checks: a secret of a length algo
 * accepts (1..NCR_SECRET_MAX bytes for a hash, "dh", or no algo: a secret
 * key from KEY_UNWRAP), or a public/private key (ncr_pk_import()).
 */
int ncr_key_fill_material(struct ncr_key *key, const struct ncr_algo *algo,
			  u32 type, const u8 *data, size_t len);
/* NCR_ATTR_KEY_ID (when given) into key: -EOVERFLOW above 20 bytes. */
int ncr_key_set_id(struct ncr_key *key, const struct nlattr *nla);

int ncr_key_import(struct ncr_ns *ns, const struct ncr_key_import *imp,
		   struct nlattr *tb[]);
int ncr_key_export(struct ncr_ns *ns, const struct ncr_key_export *exp,
		   struct nlattr *tb[]);

#endif /* NCR_KEY_IO_H */
