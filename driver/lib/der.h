/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Strict DER for public-key material.  Decoders reject trailing bytes,
 * non-minimal lengths and integers, negative integers, indefinite lengths
 * and numbers larger than NCR_PK_MAX_BITS with -EINVAL, and never read
 * outside [der, der + len).
 *
 * Formats (import accepts every listed one, export writes the first):
 *  public  RSA: SubjectPublicKeyInfo rsaEncryption | PKCS#1 RSAPublicKey
 *          DSA: SubjectPublicKeyInfo id-dsa (parameters p, q, g)
 *          DH:  SubjectPublicKeyInfo dhKeyAgreement (PKCS#3 parameters)
 *  private RSA: PKCS#1 RSAPrivateKey (two primes) | PKCS#8 PrivateKeyInfo
 *          DSA: OpenSSL DSAPrivateKey SEQUENCE{0, p, q, g, y, x} | PKCS#8
 *          DH:  PKCS#8 PrivateKeyInfo dhKeyAgreement (what OpenSSL writes)
 * (The ioctl layer exports DH public keys as the raw number y instead.)
 */
#ifndef NCR_DER_H
#define NCR_DER_H

#include "pk_key.h"

/* pk is initialised by these for algo; cleared again on failure. */
int ncr_der_decode_public(struct ncr_pk *pk, enum ncr_pk_algo algo,
			  const u8 *der, size_t len);
int ncr_der_decode_private(struct ncr_pk *pk, enum ncr_pk_algo algo,
			   const u8 *der, size_t len);

/*
 * Encoders: with out == NULL only *len (the needed size) is set; else *len
 * is the capacity in and the written length out (-ENOSPC if too small).
 * encode_public works on a private key too (writes its public half).
 */
int ncr_der_encode_public(const struct ncr_pk *pk, u8 *out, size_t *len);
int ncr_der_encode_private(const struct ncr_pk *pk, u8 *out, size_t *len);

/* DSA signature SEQUENCE { INTEGER r, INTEGER s }. */
int ncr_der_encode_dsa_sig(const mp_int *r, const mp_int *s, u8 *out,
			   size_t *len);
int ncr_der_decode_dsa_sig(const u8 *der, size_t len, mp_int *r, mp_int *s);

#endif /* NCR_DER_H */
