/* SPDX-License-Identifier: GPL-2.0 */
/*
 * HMAC (RFC 2104) and the HMAC_DRBG of RFC 6979 3.2 / SP 800-90A 10.1.2
 * over a struct ncr_hash_ops (lib/pkcs1.h), for deterministic and hedged
 * ECDSA nonces.  No reseeding and no prediction resistance: one instance
 * serves one signature.
 */
#ifndef NCR_HMAC_DRBG_H
#define NCR_HMAC_DRBG_H

#include "pkcs1.h"

/* HMAC_K(segs...) with the key length of the hash's digest size. */
int ncr_hmac(const struct ncr_hash_ops *h, const u8 *key, size_t klen,
	     const struct ncr_hash_seg *segs, unsigned int nsegs, u8 *out);

struct ncr_hmac_drbg {
	const struct ncr_hash_ops *h;
	u8 k[NCR_PKCS1_MAX_DIGEST];
	u8 v[NCR_PKCS1_MAX_DIGEST];
};

/* Instantiate with the concatenation of seed[0..nseed) as seed material. */
int ncr_hmac_drbg_init(struct ncr_hmac_drbg *d, const struct ncr_hash_ops *h,
		       const struct ncr_hash_seg *seed, unsigned int nseed);
/* len bytes of output (RFC 6979 3.2 h.2: T = V || V' || ...). */
int ncr_hmac_drbg_generate(struct ncr_hmac_drbg *d, u8 *out, size_t len);
/* K = HMAC_K(V || 0x00), V = HMAC_K(V): RFC 6979 3.2 h.3 after a reject. */
int ncr_hmac_drbg_reject(struct ncr_hmac_drbg *d);
void ncr_hmac_drbg_wipe(struct ncr_hmac_drbg *d);

#endif /* NCR_HMAC_DRBG_H */
