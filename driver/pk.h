/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Public-key operations (pk.c), material (pk_material.c) and sessions
 * (pk_session.c).
 */
#ifndef NCR_PK_H
#define NCR_PK_H

#include <crypto/sha1.h>
#include <linux/ncr.h>
#include <linux/types.h>
#include "lib/nlattr.h"

struct ncr_key;
struct ncr_ns;
struct ncr_pk;
struct ncr_session_ops;

long ncr_key_generate_pair(struct ncr_ns *ns,
			   const struct ncr_key_generate_pair *gen,
			   struct nlattr *tb[]);
long ncr_key_derive(struct ncr_ns *ns, const struct ncr_key_derive *der,
		    struct nlattr *tb[]);
/*
 * KEY_IMPORT of a PUBLIC/PRIVATE key: key is locked for write, cleared,
 * key->type/algo/flags set by the core; parse data (ASN.1; DH public: raw
 * number) into key->pk.  On error the core clears the key.
 */
int ncr_pk_import(struct ncr_key *key, u32 type, const u8 *data, size_t len);
/*
 * KEY_EXPORT (and storage): key locked for read; *len is the room in buf
 * on entry, the bytes written on success; -ERANGE when too small.
 */
int ncr_pk_export(struct ncr_key *key, u8 *buf, size_t *len);
/* key_id = SHA-1(public key export format), and setting it on key. */
int ncr_pk_key_id(const struct ncr_pk *pk, u8 id[SHA1_DIGEST_SIZE]);
void ncr_pk_set_key_id(struct ncr_key *key, const u8 id[SHA1_DIGEST_SIZE]);
/*
 * SP 800-57 security strength in bits of a public/private key, for the
 * rule "never wrap a key under a weaker key-encryption key" (wrap.c).
 */
unsigned int ncr_pk_strength_bits(struct ncr_key *key);

/* Session ops of the public-key algorithms ("rsa", "dsa"). */
extern const struct ncr_session_ops ncr_pk_session_ops;
/* Frees the hash transforms the PK sessions share (module exit). */
void ncr_pk_session_exit(void);

#endif /* NCR_PK_H */
