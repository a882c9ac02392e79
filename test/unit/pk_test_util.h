/* SPDX-License-Identifier: GPL-2.0 */
/* Shared helpers of the public-key unit tests (LibTomMath + libcrypto). */
#ifndef PK_TEST_UTIL_H
#define PK_TEST_UTIL_H

#include "der.h"
#include "unit.h"
#include <openssl/evp.h>
#include <stdio.h>

/* DER of an OpenSSL key: structure "SubjectPublicKeyInfo", "PrivateKeyInfo"
 * or "type-specific"; selection EVP_PKEY_PUBLIC_KEY or EVP_PKEY_KEYPAIR. */
int ossl_to_der(EVP_PKEY *pk, int selection, const char *structure,
		unsigned char **out, size_t *len);
/* OpenSSL key from DER; type "RSA"/"DSA"/"DH"; NULL on failure. */
EVP_PKEY *ossl_from_der(const char *type, int selection, const u8 *der,
			size_t len);

/* Our key exported to DER then parsed by OpenSSL. */
EVP_PKEY *ncr_to_ossl(const struct ncr_pk *pk, int private_key);
/* OpenSSL key into ours through DER (structure as above). */
int ossl_to_ncr(EVP_PKEY *opk, const struct ncr_pk_ops *algo,
		int private_key, const char *structure, struct ncr_pk *pk);

double now_seconds(void);

#endif
