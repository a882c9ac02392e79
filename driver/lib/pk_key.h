/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct ncr_pk: the material of a public-key object (public or private),
 * owned by the PK code and hung off struct ncr_key, and struct ncr_pk_ops:
 * what an algorithm (lib/rsa.c, lib/dsa.c, lib/dh.c, lib/ec.c) provides.
 * Callers reach an algorithm only through its ops; a new one is one more
 * instance listed in pk_key.c.
 */
#ifndef NCR_PK_KEY_H
#define NCR_PK_KEY_H

#include <linux/ncr.h>
#include "asn1.h"
#include "nlattr.h"
#include "pkcs1.h"
#include "rsa.h"
#include "dsa.h"
#include "dh.h"
#include "ec.h"

struct ncr_pk;

/* What a public-key session's attributes chose (ncr_pk_ops.setup). */
struct ncr_pk_params {
	u32 method;			/* RSA: ncr_rsa_type_t */
	enum ncr_hash_id hash;		/* signature or OAEP hash */
	bool pad_hash;			/* the encoding hashes: hops */
	size_t salt_len;		/* PSS; NCR_PSS_SALT_AUTO on verify */
	const struct ncr_hash_ops *hops;
	/*
	 * The caller alone has the key's cache (trylock of cache_lock under
	 * key->sem); per session, which ses->lock serialises.
	 */
	bool own_cache;
};

/* Looks a hash attribute up: 0, -EINVAL (absent, unknown), -EOPNOTSUPP. */
typedef int (*ncr_pk_hash_fn)(const char *name, enum ncr_hash_id *id);

/*
 * Sizes: *len is the room in, the bytes written out (-ENOSPC, or -ERANGE
 * where the ioctl's errno is decided).  NULL members: not supported.
 */
struct ncr_pk_ops {
	const char *name;		/* as in NCR_ATTR_ALGORITHM */
	/* NCR_ATTR_DERIVATION_ALGORITHM of derive, the new key's algorithm */
	const char *derive_name;
	int (*init)(struct ncr_pk *pk);
	void (*clear)(struct ncr_pk *pk);
	/* An imported key: ranges and consistency; sets pk->is_private. */
	int (*check)(struct ncr_pk *pk);
	/* KEY_GENERATE_PAIR from its attributes (tb indexed by NCR_ATTR_*). */
	int (*generate)(struct ncr_pk *pk, struct nlattr *tb[]);
	int (*copy_public)(struct ncr_pk *dst, const struct ncr_pk *src);
	/* The modulus (RSA n, DSA/DH p): what the strength rests on. */
	unsigned int (*bits)(const struct ncr_pk *pk);
	/* Optional: SP 800-57 strength when bits() is not a modulus size. */
	unsigned int (*strength)(const struct ncr_pk *pk);
	/* Longest signature, ciphertext or shared secret. */
	size_t (*max_len)(const struct ncr_pk *pk);
	/* Optional: NCR_ATTR_ECC_CURVE of the key. */
	const char *(*curve_name)(const struct ncr_pk *pk);
	/* Optional: can this key serve session op (NCR_OP_*) at all? */
	bool (*supports)(const struct ncr_pk *pk, u32 op);

	/*
	 * DER (der.c): the AlgorithmIdentifier OID and parameters (oid NULL:
	 * get_params/put_params take the whole AlgorithmIdentifier content,
	 * for an algorithm with several OIDs)...
	 */
	const u8 *oid;			/* full TLV */
	size_t oid_len;
	int (*get_params)(struct ncr_pk *pk, struct ncr_der params);
	int (*put_params)(struct ncr_der_wr *w, const struct ncr_pk *pk);
	/* ...the subjectPublicKey and the PKCS#8 privateKey content... */
	int (*get_public)(struct ncr_pk *pk, struct ncr_der key);
	int (*put_public)(struct ncr_der_wr *w, const struct ncr_pk *pk);
	int (*get_pkcs8)(struct ncr_pk *pk, struct ncr_der key);
	int (*put_pkcs8)(struct ncr_der_wr *w, const struct ncr_pk *pk);
	/* ...and the algorithm's own private format (NULL: PKCS#8). */
	int (*get_private)(struct ncr_pk *pk, struct ncr_der seq);
	int (*put_private)(struct ncr_der_wr *w, const struct ncr_pk *pk);
	/* KEY_IMPORT/EXPORT's public format when it is not the SPKI. */
	int (*import_public)(struct ncr_pk *pk, const u8 *data, size_t len);
	int (*export_public)(const struct ncr_pk *pk, u8 *out, size_t *len);

	/* Sessions: the attributes of op (NCR_OP_*) into p. */
	int (*setup)(struct ncr_pk_params *p, u32 op, struct nlattr *tb[],
		     ncr_pk_hash_fn hash);
	/*
	 * Optional: the size checks of op before its input is read (the
	 * errno of a bad size wins over that of a bad buffer): 0 go on,
	 * -errno; for VERIFY 1: no signature of this key.
	 */
	int (*check_sizes)(const struct ncr_pk *pk,
			   const struct ncr_pk_params *p, u32 op,
			   size_t in_len, size_t out_len);
	int (*sign)(struct ncr_pk *pk, const struct ncr_pk_params *p,
		    const u8 *digest, u8 *sig, size_t *len);
	/* 1 valid, 0 invalid (malformed included), -errno. */
	int (*verify)(const struct ncr_pk *pk, const struct ncr_pk_params *p,
		      const u8 *digest, const u8 *sig, size_t len);
	int (*encrypt)(const struct ncr_pk *pk, const struct ncr_pk_params *p,
		       const u8 *in, size_t in_len, u8 *out, size_t *len);
	/* -ERANGE (room) before any private-key work; -EBADMSG. */
	int (*decrypt)(struct ncr_pk *pk, const struct ncr_pk_params *p,
		       const u8 *in, size_t in_len, u8 *out, size_t *len);
	/* Shared secret with a peer's public value (big-endian). */
	int (*derive)(const struct ncr_pk *pk, const u8 *peer, size_t peer_len,
		      u8 *out, size_t *len);
};

extern const struct ncr_pk_ops ncr_pk_rsa, ncr_pk_dsa, ncr_pk_dh, ncr_pk_ec;

struct ncr_pk {
	const struct ncr_pk_ops *ops;	/* NULL when cleared */
	bool is_private;	/* mirrors <algo>.has_private */
	union {
		struct ncr_rsa_key rsa;
		/* one key, also under its algorithm's name */
		struct ncr_ffc_key ffc, dsa, dh;
		struct ncr_ec_key ec;
	};
};

/* Initialises pk for ops (numbers zero); 0, -EINVAL (NULL), -ENOMEM. */
int ncr_pk_key_init(struct ncr_pk *pk, const struct ncr_pk_ops *ops);
/* Zeroes and frees the numbers; pk->ops becomes NULL. */
void ncr_pk_key_clear(struct ncr_pk *pk);
/* A zeroed pk (to be initialised), or NULL; ncr_pk_free() frees. */
struct ncr_pk *ncr_pk_alloc(void);
void ncr_pk_free(struct ncr_pk *pk);
/*
 * The memory pk pins, as charged to its user: the struct and a byte per
 * bit of its modulus (RSA keeps about eight numbers of that size, its
 * blinding pair included; DSA and DH five).
 */
size_t ncr_pk_mem(const struct ncr_pk *pk);
/* "rsa"/"dsa"/"dh"/"ecdsa" -> its ops, NULL otherwise. */
const struct ncr_pk_ops *ncr_pk_ops_find(const char *name);

static inline u32 ncr_pk_attr_u32(struct nlattr *tb[], int type, u32 def)
{
	return tb[type] ? ncr_nla_get_u32(tb[type]) : def;
}

static inline const char *ncr_pk_attr_str(struct nlattr *tb[], int type)
{
	return tb[type] ? ncr_nla_get_str(tb[type]) : NULL;
}

#endif /* NCR_PK_KEY_H */
