// SPDX-License-Identifier: GPL-2.0
#include "pk_test_util.h"

#include <openssl/decoder.h>
#include <openssl/encoder.h>
#include <openssl/err.h>
#include <stdlib.h>
#include <time.h>

/* libcrypto's reason for a failed check */
void unit_on_failure(void)
{
	ERR_print_errors_fp(stderr);
}

int ossl_to_der(EVP_PKEY *pk, int selection, const char *structure,
		unsigned char **out, size_t *len)
{
	OSSL_ENCODER_CTX *c;
	int ok;

	*out = NULL;
	c = OSSL_ENCODER_CTX_new_for_pkey(pk, selection, "DER", structure,
					  NULL);
	if (!c)
		return 0;
	ok = OSSL_ENCODER_CTX_get_num_encoders(c) > 0 &&
	     OSSL_ENCODER_to_data(c, out, len);
	OSSL_ENCODER_CTX_free(c);
	return ok;
}

EVP_PKEY *ossl_from_der(const char *type, int selection, const u8 *der,
			size_t len)
{
	EVP_PKEY *pk = NULL;
	OSSL_DECODER_CTX *c;
	const unsigned char *p = der;

	c = OSSL_DECODER_CTX_new_for_pkey(&pk, "DER", NULL, type, selection,
					  NULL, NULL);
	if (!c)
		return NULL;
	if (!OSSL_DECODER_from_data(c, &p, &len) || len != 0) {
		EVP_PKEY_free(pk);
		pk = NULL;
	}
	OSSL_DECODER_CTX_free(c);
	return pk;
}

static const char *ossl_type(const struct ncr_pk_ops *algo)
{
	/* EC: "EC" or "X25519" by the curve, which the decoder finds itself */
	return algo == &ncr_pk_rsa ? "RSA" : algo == &ncr_pk_dsa ? "DSA" :
	       algo == &ncr_pk_ec ? NULL : "DH";
}

EVP_PKEY *ncr_to_ossl(const struct ncr_pk *pk, int private_key)
{
	size_t len = 0;
	u8 *buf;
	EVP_PKEY *o = NULL;
	int err;

	err = private_key ? ncr_der_encode_private(pk, NULL, &len) :
			    ncr_der_encode_public(pk, NULL, &len);
	if (err)
		return NULL;
	buf = malloc(len);
	err = private_key ? ncr_der_encode_private(pk, buf, &len) :
			    ncr_der_encode_public(pk, buf, &len);
	if (!err)
		o = ossl_from_der(ossl_type(pk->ops),
				  private_key ? EVP_PKEY_KEYPAIR :
						EVP_PKEY_PUBLIC_KEY, buf, len);
	free(buf);
	return o;
}

int ossl_to_ncr(EVP_PKEY *opk, const struct ncr_pk_ops *algo,
		int private_key, const char *structure, struct ncr_pk *pk)
{
	unsigned char *der;
	size_t len;
	int err;

	if (!ossl_to_der(opk, private_key ? EVP_PKEY_KEYPAIR :
			 EVP_PKEY_PUBLIC_KEY, structure, &der, &len))
		return -1000;
	err = private_key ? ncr_der_decode_private(pk, algo, der, len) :
			    ncr_der_decode_public(pk, algo, der, len);
	OPENSSL_free(der);
	return err;
}

double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
