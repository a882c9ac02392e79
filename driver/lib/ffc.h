/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Keys in a finite-field group, shared by DSA and DH: p prime, q prime
 * dividing p - 1, g of order q (DH: p a safe prime, q = (p - 1) / 2, which
 * PKCS#3 parameters leave out), public y = g^x mod p.
 */
#ifndef NCR_FFC_H
#define NCR_FFC_H

#include "asn1.h"

#define NCR_FFC_MIN_P_BITS 512

struct ncr_ffc_key {
	mp_int p, q, g;		/* zero for a bare DH public value */
	mp_int y;
	mp_int x;		/* valid only when has_private */
	bool has_private;
};

int ncr_ffc_key_init(struct ncr_ffc_key *k);
void ncr_ffc_key_clear(struct ncr_ffc_key *k);

/*
 * The group: p odd of NCR_FFC_MIN_P_BITS..NCR_PK_MAX_BITS bits, 1 < g < p,
 * q | p - 1, g (and with_y: y) of order q, q and p prime (FIPS 186-4
 * A.1.1.1, A.2.2).  0, -EINVAL, -ENOMEM.
 */
int ncr_ffc_check_group(const struct ncr_ffc_key *k, bool with_y);
/*
 * The group and, with x (its range checked by the caller), y = g^x: y is
 * set when zero (PKCS#8 carries x alone), else compared.  A y given
 * without x must have order q.  Cheap checks first: sizes before any
 * exponentiation, the exponentiation of x last.
 */
int ncr_ffc_check_key(struct ncr_ffc_key *k);

/* The struct ncr_pk_ops members DSA and DH share (on pk->ffc). */
struct ncr_pk;
int ncr_ffc_init(struct ncr_pk *pk);
void ncr_ffc_clear(struct ncr_pk *pk);
int ncr_ffc_copy_public(struct ncr_pk *dst, const struct ncr_pk *src);
unsigned int ncr_ffc_bits(const struct ncr_pk *pk);
/*
 * DER: y as the subjectPublicKey, x as the PKCS#8 privateKey (y left zero
 * for ncr_ffc_check_key to derive).
 */
int ncr_ffc_get_y(struct ncr_pk *pk, struct ncr_der der);
int ncr_ffc_put_y(struct ncr_der_wr *w, const struct ncr_pk *pk);
int ncr_ffc_get_x(struct ncr_pk *pk, struct ncr_der der);
int ncr_ffc_put_x(struct ncr_der_wr *w, const struct ncr_pk *pk);

#endif /* NCR_FFC_H */
