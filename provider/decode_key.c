// SPDX-License-Identifier: GPL-2.0
/*
 * DECODER for the ncr key file (PEM "NCR KEY BLOB"): parses the public
 * key, storage-unwraps the blob into a kernel key and passes the key object
 * by reference to the ncr KEYMGMT.  Other PEM blocks are left to the other
 * decoders.  A file that is ours but cannot be restored (no master key,
 * tampered, other master key) is an error with that reason.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/core_object.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include "keyfile.h"
#include "names.h"
#include "ncr_prov.h"

static OSSL_FUNC_decoder_freectx_fn dec_freectx;
static OSSL_FUNC_decoder_does_selection_fn dec_does_selection;
static OSSL_FUNC_decoder_decode_fn der_decode;
static OSSL_FUNC_decoder_export_object_fn dec_export_object;
static OSSL_FUNC_decoder_newctx_fn pem_dec_newctx;
static OSSL_FUNC_decoder_newctx_fn rsa_dec_newctx;
static OSSL_FUNC_decoder_newctx_fn dsa_dec_newctx;
static OSSL_FUNC_decoder_newctx_fn dh_dec_newctx;
static OSSL_FUNC_decoder_newctx_fn ec_dec_newctx;
static OSSL_FUNC_decoder_newctx_fn x25519_dec_newctx;
static OSSL_FUNC_decoder_decode_fn pem_decode;

struct dec_ctx {
	struct ncrp_provctx *prov;
	int type;
};

static void *dec_newctx(struct ncrp_provctx *prov, int type)
{
	struct dec_ctx *c = calloc(1, sizeof(*c));

	if (c == NULL)
		return NULL;
	c->prov = prov;
	c->type = type;
	return c;
}

static void *rsa_dec_newctx(void *provctx)
{
	return dec_newctx(provctx, NCR_PKT_RSA);
}

static void *dsa_dec_newctx(void *provctx)
{
	return dec_newctx(provctx, NCR_PKT_DSA);
}

static void *dh_dec_newctx(void *provctx)
{
	return dec_newctx(provctx, NCR_PKT_DH);
}

static void *ec_dec_newctx(void *provctx)
{
	return dec_newctx(provctx, NCR_PKT_EC);
}

static void *x25519_dec_newctx(void *provctx)
{
	return dec_newctx(provctx, NCR_PKT_X25519);
}

static void dec_freectx(void *ctx)
{
	free(ctx);
}

static int dec_does_selection(void *provctx, int selection)
{
	(void)provctx;
	return selection == 0 ||
	       (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) != 0;
}

/*
 * Algorithm of an SPKI from its AlgorithmIdentifier alone: every decoder
 * asks, and only the one of the key's type goes on to build the public key
 * (ncrp_pkey_set_pub_spki() checks all of it).
 */
static int spki_type(const unsigned char *spki, size_t len)
{
	const unsigned char *p = spki;
	X509_ALGOR *alg = NULL;
	const ASN1_OBJECT *obj = NULL;
	long inner;
	int tag, xclass, nid = NID_undef;

	if (len > LONG_MAX ||
	    (ASN1_get_object(&p, &inner, &tag, &xclass, (long)len) & 0x80) ||
	    tag != V_ASN1_SEQUENCE || xclass != V_ASN1_UNIVERSAL)
		return 0;
	alg = d2i_X509_ALGOR(NULL, &p, inner);
	if (alg != NULL) {
		X509_ALGOR_get0(&obj, NULL, NULL, alg);
		nid = OBJ_obj2nid(obj);
	}
	X509_ALGOR_free(alg);
	switch (nid) {
	case NID_rsaEncryption:
		return NCR_PKT_RSA;
	case NID_dsa:
		return NCR_PKT_DSA;
	case NID_dhKeyAgreement:
		return NCR_PKT_DH;
	case NID_X9_62_id_ecPublicKey:
		return NCR_PKT_EC;
	case NID_X25519:
		return NCR_PKT_X25519;
	}
	return 0;
}

/* Everything from the core BIO (DER input: the key file body). */
static unsigned char *read_all(struct ncrp_provctx *prov, OSSL_CORE_BIO *cin,
			       size_t *len)
{
	BIO *core = BIO_new_from_core_bio(prov->libctx, cin);
	unsigned char *buf = NULL, *p;
	size_t cap = 0;
	int n;

	*len = 0;
	if (core == NULL)
		return NULL;
	for (;;) {
		if (*len == cap) {
			if (cap >= 1024 * 1024)
				break;
			cap = cap ? cap * 2 : 4096;
			p = realloc(buf, cap);
			if (p == NULL)
				break;
			buf = p;
		}
		n = BIO_read(core, buf + *len, (int)(cap - *len));
		if (n <= 0)
			break;
		*len += (size_t)n;
	}
	BIO_free(core);
	return buf;
}

/* Hands the key file's DER body on to the DER decoders. */
static int pass_der(unsigned char *der, size_t len, OSSL_CALLBACK *data_cb,
		    void *data_cbarg)
{
	int object_type = OSSL_OBJECT_PKEY;
	OSSL_PARAM params[4];

	params[0] = OSSL_PARAM_construct_octet_string(OSSL_OBJECT_PARAM_DATA,
						      der, len);
	params[1] = OSSL_PARAM_construct_utf8_string(
		OSSL_OBJECT_PARAM_DATA_STRUCTURE, NCR_KEYFILE_STRUCTURE, 0);
	params[2] = OSSL_PARAM_construct_int(OSSL_OBJECT_PARAM_TYPE,
					     &object_type);
	params[3] = OSSL_PARAM_construct_end();
	return data_cb(params, data_cbarg);
}

/* PEM "NCR KEY BLOB" -> DER with data structure "ncr-key-blob". */
static int pem_decode(void *vctx, OSSL_CORE_BIO *cin, int selection,
		      OSSL_CALLBACK *data_cb, void *data_cbarg,
		      OSSL_PASSPHRASE_CALLBACK *pw_cb, void *pw_cbarg)
{
	struct dec_ctx *c = vctx;
	char *name = NULL, *header = NULL;
	unsigned char *der = NULL;
	const unsigned char *spki, *blob;
	size_t spki_len, blob_len;
	long der_len = 0;
	BIO *in;
	int ok = 1;	/* "not ours": let the other decoders try */

	(void)selection;
	(void)pw_cb;
	(void)pw_cbarg;
	in = BIO_new_from_core_bio(c->prov->libctx, cin);
	if (in == NULL)
		return 0;
	ERR_set_mark();
	if (!PEM_read_bio(in, &name, &header, &der, &der_len)) {
		ERR_pop_to_mark();
		goto out;
	}
	ERR_clear_last_mark();
	if (strcmp(name, NCR_KEYFILE_PEM_LABEL) != 0)
		goto out;
	if (!ncrp_keyfile_decode(der, (size_t)der_len, &spki, &spki_len,
				 &blob, &blob_len) ||
	    spki_type(spki, spki_len) == 0) {
		ncrp_raise(NCR_R_BAD_KEY_FILE, "malformed %s PEM body",
			   NCR_KEYFILE_PEM_LABEL);
		ok = 0;
		goto out;
	}
	ok = pass_der(der, (size_t)der_len, data_cb, data_cbarg);
out:
	OPENSSL_free(name);
	OPENSSL_free(header);
	OPENSSL_free(der);
	BIO_free(in);
	return ok;
}

/* DER key file body -> kernel key (storage unwrap), passed by reference. */
static int der_decode(void *vctx, OSSL_CORE_BIO *cin, int selection,
		      OSSL_CALLBACK *data_cb, void *data_cbarg,
		      OSSL_PASSPHRASE_CALLBACK *pw_cb, void *pw_cbarg)
{
	struct dec_ctx *c = vctx;
	const unsigned char *spki, *blob;
	size_t spki_len, blob_len, der_len;
	unsigned char *der;
	struct ncrp_pkey *k = NULL;
	OSSL_PARAM params[4];
	int object_type = OSSL_OBJECT_PKEY;
	int ok = 1;	/* "not ours": let the other decoders try */

	(void)selection;
	(void)pw_cb;
	(void)pw_cbarg;
	der = read_all(c->prov, cin, &der_len);
	if (der == NULL)
		return 1;
	if (!ncrp_keyfile_decode(der, der_len, &spki, &spki_len, &blob,
				 &blob_len))
		goto out;
	if (spki_type(spki, spki_len) != c->type)
		goto out;		/* another ncr decoder's key type */
	k = ncrp_pkey_new(c->prov, c->type);
	if (k == NULL || !ncrp_pkey_set_pub_spki(k, spki, spki_len) ||
	    !ncrp_pkey_unwrap(k, blob, blob_len)) {
		ok = 0;
		goto out;
	}
	params[0] = OSSL_PARAM_construct_int(OSSL_OBJECT_PARAM_TYPE,
					     &object_type);
	params[1] = OSSL_PARAM_construct_utf8_string(
		OSSL_OBJECT_PARAM_DATA_TYPE, (char *)ncrp_pk_ossl_name(c->type),
		0);
	params[2] = OSSL_PARAM_construct_octet_string(
		OSSL_OBJECT_PARAM_REFERENCE, &k, sizeof(k));
	params[3] = OSSL_PARAM_construct_end();
	ok = data_cb(params, data_cbarg);
out:
	ncrp_pkey_free(k);
	OPENSSL_clear_free(der, der_len);
	return ok;
}

static int dec_export_object(void *vctx, const void *objref,
			     size_t objref_sz, OSSL_CALLBACK *export_cb,
			     void *export_cbarg)
{
	struct ncrp_pkey *k;

	(void)vctx;
	if (objref == NULL || objref_sz != sizeof(k))
		return 0;
	memcpy(&k, objref, sizeof(k));
	/* Public half only: the private key cannot leave the kernel. */
	return ncrp_km_export_public(k, export_cb, export_cbarg);
}

#define DEC_FUNCS(t)							\
static const OSSL_DISPATCH t##_decoder_functions[] = {		\
	{ OSSL_FUNC_DECODER_NEWCTX, (void (*)(void))t##_dec_newctx },	\
	{ OSSL_FUNC_DECODER_FREECTX, (void (*)(void))dec_freectx },	\
	{ OSSL_FUNC_DECODER_DOES_SELECTION,				\
	  (void (*)(void))dec_does_selection },				\
	{ OSSL_FUNC_DECODER_DECODE, (void (*)(void))der_decode },	\
	{ OSSL_FUNC_DECODER_EXPORT_OBJECT,				\
	  (void (*)(void))dec_export_object },				\
	{ 0, NULL }							\
};

DEC_FUNCS(rsa)
DEC_FUNCS(dsa)
DEC_FUNCS(dh)
DEC_FUNCS(ec)
DEC_FUNCS(x25519)

static void *pem_dec_newctx(void *provctx)
{
	return dec_newctx(provctx, 0);
}

static const OSSL_DISPATCH pem_decoder_functions[] = {
	{ OSSL_FUNC_DECODER_NEWCTX, (void (*)(void))pem_dec_newctx },
	{ OSSL_FUNC_DECODER_FREECTX, (void (*)(void))dec_freectx },
	{ OSSL_FUNC_DECODER_DECODE, (void (*)(void))pem_decode },
	{ 0, NULL }
};

#define DEC_PROPS NCRP_PROPS ",input=der,structure=" NCR_KEYFILE_STRUCTURE

const OSSL_ALGORITHM ncrp_decoders[] = {
	{ "DER", NCRP_PROPS ",input=pem", pem_decoder_functions,
	  "ncr key file PEM armour" },
	{ NCRP_SN_RSA, DEC_PROPS, rsa_decoder_functions,
	  "ncr key file" },
	{ NCRP_SN_DSA, DEC_PROPS, dsa_decoder_functions,
	  "ncr key file" },
	{ NCRP_SN_DH, DEC_PROPS, dh_decoder_functions,
	  "ncr key file" },
	{ NCRP_SN_EC, DEC_PROPS, ec_decoder_functions,
	  "ncr key file" },
	{ NCRP_SN_X25519, DEC_PROPS, x25519_decoder_functions,
	  "ncr key file" },
	{ NULL, NULL, NULL, NULL }
};
