/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PKCS #1 v2.2 (RFC 8017) encoding methods, independent of the RSA math:
 * every function works on the k-byte block that RSAEP/RSADP/RSASP1/RSAVP1
 * consume or produce (k = modulus length in bytes).  Hashing goes through
 * struct ncr_hash_ops, so the kernel plugs in the crypto API and user-space
 * tests plug in libcrypto.
 *
 * Errors: -EINVAL for bad parameters (unknown hash, key too small for the
 * requested encoding), -EMSGSIZE for a message too long to encrypt,
 * -EBADMSG for "signature invalid" / "decryption error" (one value,
 * whatever the cause), -ERANGE when an
 * output buffer is smaller than the largest possible result (checked before
 * any secret-dependent work, so it is no oracle).
 */
#ifndef NCR_PKCS1_H
#define NCR_PKCS1_H

#include "ncr_port.h"

enum ncr_hash_id {
	NCR_HASH_SHA1,
	NCR_HASH_SHA224,
	NCR_HASH_SHA256,
	NCR_HASH_SHA384,
	NCR_HASH_SHA512,
	NCR_HASH_COUNT
};

#define NCR_PKCS1_MAX_DIGEST 64

/* One piece of a hash input: the digest covers all pieces in order. */
struct ncr_hash_seg {
	const void *data;
	size_t len;
};

struct ncr_hash_ops {
	enum ncr_hash_id id;
	size_t digest_size;
	/* Computes the digest of segs[0..nsegs) into out; 0 or -errno. */
	int (*digest)(void *ctx, const struct ncr_hash_seg *segs,
		      unsigned int nsegs, u8 *out);
	void *ctx;
};

/* Fills buf with len random bytes; 0 or -errno. */
typedef int (*ncr_rng_fn)(void *ctx, u8 *buf, size_t len);

/* Linux crypto API hash name ("sha256") -> id; -EINVAL if unsupported. */
int ncr_pkcs1_hash_by_name(const char *name, enum ncr_hash_id *id);
const char *ncr_pkcs1_hash_name(enum ncr_hash_id id);
size_t ncr_pkcs1_hash_size(enum ncr_hash_id id);

/* MGF1 (RFC 8017 B.2.1): out[0..len) ^= MGF1(seed, len). */
int ncr_mgf1_xor(const struct ncr_hash_ops *h, const u8 *seed, size_t slen,
		 u8 *out, size_t len);

/* RSASSA-PKCS1-v1_5: EMSA-PKCS1-v1_5 over a digest (DigestInfo added). */
int ncr_emsa_pkcs1_v15_encode(enum ncr_hash_id hash, const u8 *digest,
			      size_t dlen, u8 *block, size_t k);
/* 0 if block is exactly the encoding of digest, -EBADMSG otherwise. */
int ncr_emsa_pkcs1_v15_verify(enum ncr_hash_id hash, const u8 *digest,
			      size_t dlen, const u8 *block, size_t k);

/* Salt length meaning "recover it from the signature" (verify only). */
#define NCR_PSS_SALT_AUTO ((size_t)-1)

/*
 * EMSA-PSS with MGF1 using the same hash; mod_bits is the modulus size in
 * bits (emBits = mod_bits - 1).  The encoding overwrites block[0..k).
 */
int ncr_emsa_pss_encode(const struct ncr_hash_ops *h, const u8 *mhash,
			size_t salt_len, ncr_rng_fn rng, void *rng_ctx,
			size_t mod_bits, u8 *block, size_t k);
int ncr_emsa_pss_verify(const struct ncr_hash_ops *h, const u8 *mhash,
			size_t salt_len, size_t mod_bits, const u8 *block,
			size_t k);

/* Largest plaintexts the encryption encodings accept for a k-byte key. */
size_t ncr_rsaes_pkcs1_v15_max_msg(size_t k);
size_t ncr_rsaes_oaep_max_msg(const struct ncr_hash_ops *h, size_t k);

/* RSAES-PKCS1-v1_5 encryption padding (block type 2, nonzero random PS). */
int ncr_rsaes_pkcs1_v15_encode(const u8 *msg, size_t mlen, ncr_rng_fn rng,
			       void *rng_ctx, u8 *block, size_t k);
/*
 * Decryption check in constant time with respect to the block contents.
 * out must hold ncr_rsaes_pkcs1_v15_max_msg(k) bytes (else -ERANGE, decided
 * from out_cap alone); on success *out_len is the message length.
 */
int ncr_rsaes_pkcs1_v15_decode(const u8 *block, size_t k, u8 *out,
			       size_t out_cap, size_t *out_len);

/* RSAES-OAEP with MGF1 using the same hash as the label hash. */
int ncr_rsaes_oaep_encode(const struct ncr_hash_ops *h, const u8 *label,
			  size_t llen, const u8 *msg, size_t mlen,
			  ncr_rng_fn rng, void *rng_ctx, u8 *block, size_t k);
/* Same constant-time and buffer rules as the PKCS1-v1_5 decode. */
int ncr_rsaes_oaep_decode(const struct ncr_hash_ops *h, const u8 *label,
			  size_t llen, const u8 *block, size_t k, u8 *out,
			  size_t out_cap, size_t *out_len);

#endif /* NCR_PKCS1_H */
