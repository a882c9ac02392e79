/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Strict DER for public-key material (primitives: asn1.h; each algorithm's
 * parts: its ncr_pk_ops).  Decoders reject trailing bytes, non-minimal
 * lengths and integers, negative integers, indefinite lengths and numbers
 * larger than NCR_PK_MAX_BITS with -EINVAL, and never read outside
 * [der, der + len).
 *
 * Formats (import accepts every listed one, export writes the first):
 *  public  RSA: SubjectPublicKeyInfo rsaEncryption | PKCS#1 RSAPublicKey
 *          DSA: SubjectPublicKeyInfo id-dsa (parameters p, q, g)
 *          DH:  SubjectPublicKeyInfo dhKeyAgreement (PKCS#3 parameters)
 *  private RSA: PKCS#1 RSAPrivateKey (two primes) | PKCS#8 PrivateKeyInfo
 *          DSA: OpenSSL DSAPrivateKey SEQUENCE{0, p, q, g, y, x} | PKCS#8
 *          DH:  PKCS#8 PrivateKeyInfo dhKeyAgreement (what OpenSSL writes)
 *          EC:  RFC 5915 ECPrivateKey | PKCS#8 (NIST curves);
 *               X25519: PKCS#8 (RFC 8410)
 *  public  EC:  SubjectPublicKeyInfo id-ecPublicKey namedCurve, id-X25519
 * (The ioctl layer exports DH public keys as the raw number y instead.)
 */
#ifndef NCR_DER_H
#define NCR_DER_H

#include "pk_key.h"

/*
 * pk is initialised by these for ops, filled by get (der: its DER, or
 * ops->import_public), checked, and cleared on failure.
 */
int ncr_pk_decode(struct ncr_pk *pk, const struct ncr_pk_ops *ops,
		  const u8 *der, size_t len,
		  int (*get)(struct ncr_pk *pk, const u8 *der, size_t len));
int ncr_der_decode_public(struct ncr_pk *pk, const struct ncr_pk_ops *ops,
			  const u8 *der, size_t len);
int ncr_der_decode_private(struct ncr_pk *pk, const struct ncr_pk_ops *ops,
			   const u8 *der, size_t len);

/*
 * Encoders: with out == NULL only *len (the needed size) is set; else *len
 * is the capacity in and the written length out (-ENOSPC if too small).
 * encode_public works on a private key too (writes its public half).
 */
int ncr_der_encode_public(const struct ncr_pk *pk, u8 *out, size_t *len);
int ncr_der_encode_private(const struct ncr_pk *pk, u8 *out, size_t *len);

/* The PKCS#8 PrivateKeyInfo of pk, for an ops->put_private that needs it. */
int ncr_der_put_pkcs8(struct ncr_der_wr *w, const struct ncr_pk *pk);

#endif /* NCR_DER_H */
