/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Strict DER primitives for key formats: a reader that rejects non-minimal
 * lengths and integers, negative integers, indefinite lengths and numbers
 * larger than NCR_PK_MAX_BITS with -EINVAL and never reads outside its
 * buffer, and a writer that can also only measure.
 */
#ifndef NCR_ASN1_H
#define NCR_ASN1_H

#include "tommath_port.h"

#define NCR_DER_INT	0x02
#define NCR_DER_BITSTR	0x03
#define NCR_DER_OCTSTR	0x04
#define NCR_DER_NULL	0x05
#define NCR_DER_SEQ	0x30
#define NCR_DER_CTX0	0xa0		/* PKCS#8 [0] attributes */

struct ncr_der {
	const u8 *p;
	size_t len;
};

/* One TLV with the given tag; *content gets its value. */
int ncr_der_get(struct ncr_der *d, u8 tag, struct ncr_der *content);
/* The next tag, 0 at the end. */
u8 ncr_der_peek(const struct ncr_der *d);
/* A non-negative INTEGER into v; NULL v: the INTEGER must be 0. */
int ncr_der_get_uint(struct ncr_der *d, mp_int *v);
/* n INTEGERs in a row, then the end of d. */
int ncr_der_get_uints(struct ncr_der d, mp_int *const *v, int n);
/* The whole of [p, p + len) is one SEQUENCE; *inner gets its content. */
int ncr_der_get_only_seq(const u8 *p, size_t len, struct ncr_der *inner);
/* The whole of d is one SEQUENCE of n INTEGERs. */
int ncr_der_get_seq_uints(struct ncr_der d, mp_int *const *v, int n);
/* The whole of d is one INTEGER. */
int ncr_der_get_only_uint(struct ncr_der d, mp_int *v);
int ncr_der_end(const struct ncr_der *d);

struct ncr_der_wr {
	u8 *out;	/* NULL: only measure */
	size_t cap, pos;
};

void ncr_der_put_bytes(struct ncr_der_wr *w, const void *p, size_t n);
void ncr_der_put_hdr(struct ncr_der_wr *w, u8 tag, size_t len);
/* INTEGER v (NULL: 0). */
int ncr_der_put_int(struct ncr_der_wr *w, const mp_int *v);
/* SEQUENCE of the given INTEGERs (NULL entries: 0). */
int ncr_der_put_int_seq(struct ncr_der_wr *w, const mp_int *const *v, int n);
/* TLV of tag around what fn(w, arg) writes (run once more to measure). */
int ncr_der_put_tlv(struct ncr_der_wr *w, u8 tag,
		    int (*fn)(struct ncr_der_wr *w, const void *arg),
		    const void *arg);
/*
 * Ends a write into out (NULL: measure) of *len bytes: *len gets the size
 * written or needed; -ENOSPC (out zeroed) when it did not fit.
 */
int ncr_der_finish(const struct ncr_der_wr *w, u8 *out, size_t *len, int err);

#endif /* NCR_ASN1_H */
