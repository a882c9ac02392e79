/* SPDX-License-Identifier: GPL-2.0 */
/* DSA (FIPS 186-4) on LibTomMath: domain parameters, keys, sign/verify. */
#ifndef NCR_DSA_H
#define NCR_DSA_H

#include "ffc.h"

/*
 * Generates domain parameters (q prime of q_bits, p = k*q + 1 prime of
 * exactly p_bits, g = h^((p-1)/q) mod p != 1) and a key pair x in [1, q-1],
 * y = g^x mod p.  Accepted sizes: 1024/160, 2048/224, 2048/256, 3072/256
 * (p_bits/q_bits).  0, -EINVAL, -ENOMEM.
 */
int ncr_dsa_generate(struct ncr_ffc_key *k, unsigned int p_bits,
		     unsigned int q_bits);

/*
 * Checks an imported key: p and q of the sizes generation makes, x in
 * [1, q-1], then ncr_ffc_check_key() (which derives a missing y).
 */
int ncr_dsa_check_key(struct ncr_ffc_key *k);

/* Upper bound of a DER signature for this key. */
size_t ncr_dsa_sig_max_len(const struct ncr_ffc_key *k);

/*
 * Signs a digest (truncated to the bit length of q, FIPS 186-4 4.6) with k
 * uniform in [1, q-1] from ncr_random_bytes.  The signature is the DER
 * SEQUENCE { INTEGER r, INTEGER s } OpenSSL uses.  *sig_len: capacity in,
 * length out (-ENOSPC if too small).  0, -EINVAL, -ENOSPC, -ENOMEM.
 */
int ncr_dsa_sign_digest(const struct ncr_ffc_key *k, const u8 *digest,
			size_t len, u8 *sig, size_t *sig_len);

/*
 * 1 if sig is a valid signature of digest, 0 if it is well-formed DER but
 * does not verify (including r or s outside [1, q-1]), -EINVAL if sig is
 * not strict DER (non-minimal, negative, trailing data...), -ENOMEM.
 */
int ncr_dsa_verify_digest(const struct ncr_ffc_key *k, const u8 *digest,
			  size_t len, const u8 *sig, size_t sig_len);

/* DSA signature SEQUENCE { INTEGER r, INTEGER s } (strict DER). */
int ncr_der_encode_dsa_sig(const mp_int *r, const mp_int *s, u8 *out,
			   size_t *len);
int ncr_der_decode_dsa_sig(const u8 *der, size_t len, mp_int *r, mp_int *s);

#endif /* NCR_DSA_H */
