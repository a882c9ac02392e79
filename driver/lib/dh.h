/* SPDX-License-Identifier: GPL-2.0 */
/* Finite-field Diffie-Hellman on LibTomMath. */
#ifndef NCR_DH_H
#define NCR_DH_H

#include "ffc.h"

/*
 * Sets p and g (big-endian; p a safe prime of NCR_FFC_MIN_P_BITS..
 * NCR_PK_MAX_BITS bits, g of order q = (p-1)/2) and generates x (max(256, 2 * security strength) bits,
 * below p-1) and y = g^x mod p.  0, -EINVAL, -ENOMEM.
 */
int ncr_dh_generate(struct ncr_ffc_key *k, const u8 *p, size_t p_len,
		    const u8 *g, size_t g_len);

/*
 * Checks an imported key (and sets q): sizes, p a safe prime and g of order
 * (p-1)/2, y of that order, y = g^x if private.  A bare public value (no
 * p, g) can only be checked for its size.
 */
int ncr_dh_check_key(struct ncr_ffc_key *k);

/* Bytes of p: the length of every shared secret and public value. */
size_t ncr_dh_prime_bytes(const struct ncr_ffc_key *k);

/*
 * Shared secret peer^x mod p, left-padded to ncr_dh_prime_bytes().  peer is
 * big-endian; a value outside [2, p-2] or not of order (p-1)/2 is rejected
 * with -EINVAL.  *out_len:
 * capacity in, length out (-ENOSPC if too small).
 */
int ncr_dh_compute(const struct ncr_ffc_key *priv, const u8 *peer, size_t len,
		   u8 *out, size_t *out_len);

#endif /* NCR_DH_H */
