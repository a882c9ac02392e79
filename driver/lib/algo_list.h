/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The algorithms ncr.ko supports, in one list that the driver's table
 * (algo.c) and user space (ncrctl, the provider) are both built from:
 *
 *   NCR_ALGO_LIST(X) expands X(name, class, min_key, max_key, key_step,
 *                              aes_key, one_request)
 *
 * name: the kernel crypto API name, or rsa/dsa/dh/ecdsa (ecdh: the default
 * algorithm of an ECDH secret, as dh of a DH one); min_key..max_key: the
 * secret key bytes a CIPHER or MAC takes, key_step 0 for any size in
 * between, else min_key + n * key_step; aes_key: an AES key (a KEK);
 * one_request: the whole input is one request (xts: one XTS data unit per
 * session, see cipher.c).
 *
 * Besides AES, the list has the ciphers of the 2010 implementation:
 * cbc(des3_ede) (three-key 3DES, 24-byte keys), Camellia in ecb/cbc/ctr
 * (16/24/32-byte keys), ecb(cipher_null) (no key: a secret key, if one is
 * given, has 0 bytes) and xts(aes) (two AES keys of equal size: 32 or 64
 * bytes, as IEEE 1619 and SP 800-38E define XTS-AES; the crypto API would
 * also take 48).
 */
#ifndef NCR_ALGO_LIST_H
#define NCR_ALGO_LIST_H

#include "ncr_port.h"

#define NCR_SECRET_MAX		512	/* bytes of secret key material */

enum ncr_algo_class {
	NCR_ALG_CIPHER,		/* skcipher, secret key */
	NCR_ALG_HASH,		/* unkeyed ahash */
	NCR_ALG_MAC,		/* keyed ahash, secret key */
	NCR_ALG_PK,		/* "rsa", "dsa", "ecdsa": keys and pk sessions */
	NCR_ALG_DH,		/* "dh": keys and derivation only */
};

#define NCR_ALGO_AES(X, n)	X(n, NCR_ALG_CIPHER, 16, 32, 8, true, false)
#define NCR_ALGO_HASH(X, n)	X(n, NCR_ALG_HASH, 0, 0, 0, false, false)
#define NCR_ALGO_HMAC(X, n) \
	X("hmac(" n ")", NCR_ALG_MAC, 1, NCR_SECRET_MAX, 0, false, false)
#define NCR_ALGO_CAMELLIA(X, n)	X(n, NCR_ALG_CIPHER, 16, 32, 8, false, false)

#define NCR_ALGO_LIST(X)						\
	NCR_ALGO_AES(X, "ecb(aes)")					\
	NCR_ALGO_AES(X, "cbc(aes)")					\
	NCR_ALGO_AES(X, "ctr(aes)")					\
	X("xts(aes)", NCR_ALG_CIPHER, 32, 64, 32, false, true)		\
	X("cbc(des3_ede)", NCR_ALG_CIPHER, 24, 24, 0, false, false)	\
	NCR_ALGO_CAMELLIA(X, "ecb(camellia)")				\
	NCR_ALGO_CAMELLIA(X, "cbc(camellia)")				\
	NCR_ALGO_CAMELLIA(X, "ctr(camellia)")				\
	X("ecb(cipher_null)", NCR_ALG_CIPHER, 0, 0, 0, false, false)	\
	NCR_ALGO_HASH(X, "md5") NCR_ALGO_HASH(X, "sha1")		\
	NCR_ALGO_HASH(X, "sha224") NCR_ALGO_HASH(X, "sha256")		\
	NCR_ALGO_HASH(X, "sha384") NCR_ALGO_HASH(X, "sha512")		\
	NCR_ALGO_HASH(X, "sha3-224") NCR_ALGO_HASH(X, "sha3-256")	\
	NCR_ALGO_HASH(X, "sha3-384") NCR_ALGO_HASH(X, "sha3-512")	\
	NCR_ALGO_HMAC(X, "md5") NCR_ALGO_HMAC(X, "sha1")		\
	NCR_ALGO_HMAC(X, "sha224") NCR_ALGO_HMAC(X, "sha256")		\
	NCR_ALGO_HMAC(X, "sha384") NCR_ALGO_HMAC(X, "sha512")		\
	X("rsa", NCR_ALG_PK, 0, 0, 0, false, false)			\
	X("dsa", NCR_ALG_PK, 0, 0, 0, false, false)			\
	X("dh", NCR_ALG_DH, 0, 0, 0, false, false)			\
	X("ecdsa", NCR_ALG_PK, 0, 0, 0, false, false)			\
	X("ecdh", NCR_ALG_DH, 0, 0, 0, false, false)

#define NCR_ALGO_LIST_CLASS(n, c, ...)	if (!strcmp(name, n)) return c;

/* The class of the listed algorithm name, or -1 when not listed. */
static inline int ncr_algo_list_class(const char *name)
{
	NCR_ALGO_LIST(NCR_ALGO_LIST_CLASS)
	return -1;
}

#endif /* NCR_ALGO_LIST_H */
