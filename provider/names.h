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
