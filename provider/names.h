/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Algorithm names of the provider's OSSL_ALGORITHM tables, defined once
 * (as OpenSSL's providers/implementations/include/prov/names.h): the
 * name, its aliases and OID as the default provider spells them, so that
 * "-provider ncr" and a property query find the same algorithms.
 */
#ifndef NCRP_NAMES_H
#define NCRP_NAMES_H

/* Every implementation's property definition. */
#define NCRP_PROPS "provider=ncr"

/* Key types: the short form (encoders, decoders) and with the OID. */
#define NCRP_SN_RSA "RSA:rsaEncryption"
#define NCRP_SN_DSA "DSA:dsaEncryption"
#define NCRP_SN_DH "DH:dhKeyAgreement"
#define NCRP_SN_EC "EC:id-ecPublicKey"
#define NCRP_SN_X25519 "X25519"
#define NCRP_NAMES_RSA NCRP_SN_RSA ":1.2.840.113549.1.1.1"
#define NCRP_NAMES_DSA NCRP_SN_DSA ":1.2.840.10040.4.1"
#define NCRP_NAMES_DH NCRP_SN_DH ":1.2.840.113549.1.3.1"
#define NCRP_NAMES_EC NCRP_SN_EC ":1.2.840.10045.2.1"
#define NCRP_NAMES_X25519 NCRP_SN_X25519 ":1.3.101.110"

/* Operations whose name is not the key type's. */
#define NCRP_NAMES_ECDSA "ECDSA"
#define NCRP_NAMES_ECDH "ECDH"

/*
 * OpenSSL 3.4's signature algorithms with the digest fixed (sigalgs), for
 * EVP_PKEY_sign_message_init(): the default provider's names, a subset of
 * each set so that the name map merges them.  Only digests the kernel
 * signs with.  DSA-SHA384 and -512 carry no OID: OpenSSL 3.5 registers
 * them under a mistyped one (1.2.840.1.101...), which a copy would spread.
 */
#define NCRP_NAMES_RSA_SHA1 "RSA-SHA1:RSA-SHA-1:sha1WithRSAEncryption:1.2.840.113549.1.1.5"
#define NCRP_NAMES_RSA_SHA224 "RSA-SHA2-224:RSA-SHA224:sha224WithRSAEncryption:1.2.840.113549.1.1.14"
#define NCRP_NAMES_RSA_SHA256 "RSA-SHA2-256:RSA-SHA256:sha256WithRSAEncryption:1.2.840.113549.1.1.11"
#define NCRP_NAMES_RSA_SHA384 "RSA-SHA2-384:RSA-SHA384:sha384WithRSAEncryption:1.2.840.113549.1.1.12"
#define NCRP_NAMES_RSA_SHA512 "RSA-SHA2-512:RSA-SHA512:sha512WithRSAEncryption:1.2.840.113549.1.1.13"
#define NCRP_NAMES_DSA_SHA1 "DSA-SHA1:DSA-SHA-1:dsaWithSHA1:1.2.840.10040.4.3"
#define NCRP_NAMES_DSA_SHA224 "DSA-SHA2-224:DSA-SHA224:dsa_with_SHA224:2.16.840.1.101.3.4.3.1"
#define NCRP_NAMES_DSA_SHA256 "DSA-SHA2-256:DSA-SHA256:dsa_with_SHA256:2.16.840.1.101.3.4.3.2"
#define NCRP_NAMES_DSA_SHA384 "DSA-SHA2-384:DSA-SHA384:dsa_with_SHA384"
#define NCRP_NAMES_DSA_SHA512 "DSA-SHA2-512:DSA-SHA512:dsa_with_SHA512"
#define NCRP_NAMES_ECDSA_SHA1 "ECDSA-SHA1:ECDSA-SHA-1:ecdsa-with-SHA1:1.2.840.10045.4.1"
#define NCRP_NAMES_ECDSA_SHA224 "ECDSA-SHA2-224:ECDSA-SHA224:ecdsa-with-SHA224:1.2.840.10045.4.3.1"
#define NCRP_NAMES_ECDSA_SHA256 "ECDSA-SHA2-256:ECDSA-SHA256:ecdsa-with-SHA256:1.2.840.10045.4.3.2"
#define NCRP_NAMES_ECDSA_SHA384 "ECDSA-SHA2-384:ECDSA-SHA384:ecdsa-with-SHA384:1.2.840.10045.4.3.3"
#define NCRP_NAMES_ECDSA_SHA512 "ECDSA-SHA2-512:ECDSA-SHA512:ecdsa-with-SHA512:1.2.840.10045.4.3.4"

#define NCRP_NAMES_AES_256_ECB "AES-256-ECB:2.16.840.1.101.3.4.1.41"
#define NCRP_NAMES_AES_192_ECB "AES-192-ECB:2.16.840.1.101.3.4.1.21"
#define NCRP_NAMES_AES_128_ECB "AES-128-ECB:2.16.840.1.101.3.4.1.1"
#define NCRP_NAMES_AES_256_CBC "AES-256-CBC:AES256:2.16.840.1.101.3.4.1.42"
#define NCRP_NAMES_AES_192_CBC "AES-192-CBC:AES192:2.16.840.1.101.3.4.1.22"
#define NCRP_NAMES_AES_128_CBC "AES-128-CBC:AES128:2.16.840.1.101.3.4.1.2"
#define NCRP_NAMES_AES_256_CTR "AES-256-CTR"
#define NCRP_NAMES_AES_192_CTR "AES-192-CTR"
#define NCRP_NAMES_AES_128_CTR "AES-128-CTR"

#endif /* NCRP_NAMES_H */
