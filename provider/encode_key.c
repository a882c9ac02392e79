// SPDX-License-Identifier: GPL-2.0
/*
 * ENCODERs for ncr keys.
 *
 *  - PEM "PrivateKeyInfo" (what PEM_write_bio_PrivateKey asks for, e.g.
 *    genpkey -out): writes the ncr key file, the storage-wrapped blob plus
 *    the public key in clear, never the private material itself.
 *  - text: public parameters, and a note that the private part is held
 *    by the kernel.
 * Public keys need no encoder here: OpenSSL exports the public half to
 * the default provider's SubjectPublicKeyInfo encoders.  Every other
 * private encoding (DER, PKCS#8, traditional) fails at that export with
 * "private key is held by the kernel and is not exportable".
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include "keyfile.h"
#include "names.h"
#include "ncr_prov.h"

static OSSL_FUNC_encoder_newctx_fn enc_newctx;
static OSSL_FUNC_encoder_freectx_fn enc_freectx;
static OSSL_FUNC_encoder_does_selection_fn blob_does_selection;
static OSSL_FUNC_encoder_encode_fn blob_encode;
static OSSL_FUNC_encoder_does_selection_fn text_does_selection;
static OSSL_FUNC_encoder_encode_fn text_encode;

static void *enc_newctx(void *provctx)
{
	return provctx;
}

static void enc_freectx(void *ctx)
{
	(void)ctx;
}

static int blob_does_selection(void *provctx, int selection)
{
	(void)provctx;
	return (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
}

static int blob_encode(void *ctx, OSSL_CORE_BIO *cout, const void *obj_raw,
		       const OSSL_PARAM obj_abstract[], int selection,
		       OSSL_PASSPHRASE_CALLBACK *cb, void *cbarg)
{
	struct ncrp_provctx *prov = ctx;
	const struct ncrp_pkey *k = obj_raw;
	unsigned char *spki = NULL, *blob = NULL, *der = NULL;
	size_t spki_len = 0, blob_len = 0, der_len = 0;
	BIO *out = NULL;
	int ok = 0;

	(void)obj_abstract;
	(void)cb;
	(void)cbarg;
	if (k == NULL || !(selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY))
		return 0;
	if (k->priv == NULL) {
		ncrp_raise(NCR_R_NO_KEY, "not a kernel private key");
		return 0;
	}
	if (!ncrp_pkey_spki(k, &spki, &spki_len) ||
	    !ncrp_pkey_wrap(k, &blob, &blob_len))
		goto out;
	if (!ncrp_keyfile_encode(spki, spki_len, blob, blob_len, &der,
				 &der_len)) {
		ncrp_raise(NCR_R_MALLOC_FAILURE, "key file");
		goto out;
	}
	out = BIO_new_from_core_bio(prov->libctx, cout);
	if (out == NULL)
		goto out;
	ok = PEM_write_bio(out, NCR_KEYFILE_PEM_LABEL, "", der,
			   (long)der_len) > 0;
out:
	BIO_free(out);
	OPENSSL_free(spki);
	free(blob);
	free(der);
	return ok;
}

static int text_does_selection(void *provctx, int selection)
{
	(void)provctx;
	(void)selection;
	return 1;
}

static int text_encode(void *ctx, OSSL_CORE_BIO *cout, const void *obj_raw,
		       const OSSL_PARAM obj_abstract[], int selection,
		       OSSL_PASSPHRASE_CALLBACK *cb, void *cbarg)
{
	struct ncrp_provctx *prov = ctx;
	const struct ncrp_pkey *k = obj_raw;
	BIO *out;
	int ok = 1;

	(void)obj_abstract;
	(void)cb;
	(void)cbarg;
	if (k == NULL)
		return 0;
	out = BIO_new_from_core_bio(prov->libctx, cout);
	if (out == NULL)
		return 0;
	if (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) {
		if (k->priv != NULL)
			BIO_printf(out, "%s Private-Key: held by the Linux "
				   "kernel (ncr), %s\n",
				   ncrp_pk_ossl_name(k->type),
				   k->kflags & NCR_KEY_FLAG_EXPORTABLE ?
				   "exportable" : "not exportable");
		else
			BIO_printf(out, "%s key: no private part\n",
				   ncrp_pk_ossl_name(k->type));
	}
	if (k->pub != NULL) {
		if (selection & OSSL_KEYMGMT_SELECT_KEYPAIR)
			ok = EVP_PKEY_print_public(out, k->pub, 0, NULL) > 0;
		else
			ok = EVP_PKEY_print_params(out, k->pub, 0, NULL) > 0;
	}
	BIO_free(out);
	return ok;
}

#define ENC_FUNCS(kind)							\
static const OSSL_DISPATCH kind##_encoder_functions[] = {		\
	{ OSSL_FUNC_ENCODER_NEWCTX, (void (*)(void))enc_newctx },	\
	{ OSSL_FUNC_ENCODER_FREECTX, (void (*)(void))enc_freectx },	\
	{ OSSL_FUNC_ENCODER_DOES_SELECTION,				\
	  (void (*)(void))kind##_does_selection },			\
	{ OSSL_FUNC_ENCODER_ENCODE, (void (*)(void))kind##_encode },	\
	{ 0, NULL }							\
};

ENC_FUNCS(blob)
ENC_FUNCS(text)

#define BLOB_PROPS NCRP_PROPS ",output=pem,structure=PrivateKeyInfo"
#define TEXT_PROPS NCRP_PROPS ",output=text"

const OSSL_ALGORITHM ncrp_encoders[] = {
	{ NCRP_SN_RSA, BLOB_PROPS, blob_encoder_functions,
	  "ncr key file (storage blob + public key)" },
	{ NCRP_SN_DSA, BLOB_PROPS, blob_encoder_functions,
	  "ncr key file (storage blob + public key)" },
	{ NCRP_SN_DH, BLOB_PROPS, blob_encoder_functions,
	  "ncr key file (storage blob + public key)" },
	{ NCRP_SN_EC, BLOB_PROPS, blob_encoder_functions,
	  "ncr key file (storage blob + public key)" },
	{ NCRP_SN_X25519, BLOB_PROPS, blob_encoder_functions,
	  "ncr key file (storage blob + public key)" },
	{ NCRP_SN_RSA, TEXT_PROPS, text_encoder_functions, NULL },
	{ NCRP_SN_DSA, TEXT_PROPS, text_encoder_functions, NULL },
	{ NCRP_SN_DH, TEXT_PROPS, text_encoder_functions, NULL },
	{ NCRP_SN_EC, TEXT_PROPS, text_encoder_functions, NULL },
	{ NCRP_SN_X25519, TEXT_PROPS, text_encoder_functions, NULL },
	{ NULL, NULL, NULL, NULL }
};
