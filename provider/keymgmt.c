// SPDX-License-Identifier: GPL-2.0
/*
 * KEYMGMT common to RSA, DSA and DH.
 *
 * Private halves live in the kernel (generated there, or restored from a
 * storage blob) and only leave it if the kernel key is exportable.  Public
 * halves and domain parameters are ordinary EVP_PKEYs of the provider's
 * software context: they are exported freely (so OpenSSL can hand the
 * public key to other providers) and imported (so public keys and
 * parameters from elsewhere work with ncr operations).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include "keymgmt.h"

void ncr_km_free(void *keydata)
{
	ncr_pkey_free(keydata);
}

static int has_public_value(const struct ncr_pkey *k)
{
	BIGNUM *bn = NULL;
	int ok;

	if (k->pub == NULL)
		return 0;
	if (k->type == NCR_PKT_RSA)
		return 1;
	ok = EVP_PKEY_get_bn_param(k->pub, OSSL_PKEY_PARAM_PUB_KEY, &bn);
	BN_free(bn);
	return ok;
}

int ncr_km_has(const void *keydata, int selection)
{
	const struct ncr_pkey *k = keydata;

	if (k == NULL)
		return 0;
	if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) &&
	    !has_public_value(k))
		return 0;
	if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && k->priv == NULL)
		return 0;
	if ((selection & OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS) &&
	    k->type != NCR_PKT_RSA && k->pub == NULL)
		return 0;
	return 1;
}

/*
 * The public half is checked in software; a private half exists only as a
 * kernel key, which the kernel checked when it generated or imported it.
 */
int ncr_km_validate(const void *keydata, int selection, int checktype)
{
	const struct ncr_pkey *k = keydata;
	EVP_PKEY_CTX *pc;
	int ok = 1;

	(void)checktype;
	if (k == NULL)
		return 0;
	if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && k->priv == NULL)
		return 0;
	if (selection & (OSSL_KEYMGMT_SELECT_PUBLIC_KEY |
			 OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS)) {
		if (k->pub == NULL)
			return 0;
		pc = EVP_PKEY_CTX_new_from_pkey(k->prov->swctx, k->pub, NULL);
		if (pc == NULL)
			return 0;
		if (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY)
			ok = EVP_PKEY_public_check(pc) == 1;
		else if (k->type != NCR_PKT_RSA)
			ok = EVP_PKEY_param_check(pc) == 1;
		EVP_PKEY_CTX_free(pc);
	}
	return ok;
}

int ncr_km_match(const void *v1, const void *v2, int selection)
{
	const struct ncr_pkey *a = v1, *b = v2;

	if (a->type != b->type)
		return 0;
	if (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) {
		if (a->priv != NULL && a->priv == b->priv)
			return 1;
		if (a->pub == NULL || b->pub == NULL)
			return 0;
		return EVP_PKEY_eq(a->pub, b->pub) == 1;
	}
	if (selection & OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS) {
		if (a->pub == NULL || b->pub == NULL)
			return a->type == NCR_PKT_RSA;
		return EVP_PKEY_parameters_eq(a->pub, b->pub) == 1;
	}
	return 1;
}

/* Everything public comes from the software public half. */
int ncr_km_get_params(void *keydata, OSSL_PARAM params[])
{
	struct ncr_pkey *k = keydata;

	if (k->pub == NULL)
		return 1;
	return EVP_PKEY_get_params(k->pub, params);
}

const OSSL_PARAM *ncr_km_gettable_params(void *provctx)
{
	static const OSSL_PARAM t[] = {
		OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),
		OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),
		OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL),
		OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_DEFAULT_DIGEST, NULL, 0),
		OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_N, NULL, 0),
		OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_E, NULL, 0),
		OSSL_PARAM_BN(OSSL_PKEY_PARAM_FFC_P, NULL, 0),
		OSSL_PARAM_BN(OSSL_PKEY_PARAM_FFC_Q, NULL, 0),
		OSSL_PARAM_BN(OSSL_PKEY_PARAM_FFC_G, NULL, 0),
		OSSL_PARAM_BN(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
		OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY,
					NULL, 0),
		OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, NULL, 0),
		OSSL_PARAM_END
	};

	(void)provctx;
	return t;
}

/* The private half, only for a kernel key flagged exportable. */
static int export_private(struct ncr_pkey *k, int selection,
			  OSSL_CALLBACK *cb, void *cbarg)
{
	unsigned char *buf;
	const unsigned char *p;
	EVP_PKEY *full = NULL;
	OSSL_PARAM *params = NULL;
	size_t cap = 16384;
	long n;
	int ok = 0;

	if (!(k->kflags & NCR_KEY_FLAG_EXPORTABLE)) {
		ncr_raise(NCR_R_KEY_NOT_EXPORTABLE,
			  "only the public half of this %s key can be "
			  "exported", ncr_pk_ossl_name(k->type));
		return 0;
	}
	buf = malloc(cap);
	if (buf == NULL)
		return 0;
	n = ncr_key_export(k->priv->key, buf, cap);
	if (n < 0) {
		if (n == -EPERM || n == -EACCES)
			ncr_raise(NCR_R_KEY_NOT_EXPORTABLE, "%s",
				  strerror((int)-n));
		else
			ncr_raise_errno("exporting the private key", (int)-n);
		goto out;
	}
	p = buf;
	full = d2i_AutoPrivateKey_ex(NULL, &p, n, k->prov->swctx, NULL);
	if (full == NULL) {
		ncr_raise(NCR_R_KERNEL_OP_FAILED,
			  "cannot parse the exported private key");
		goto out;
	}
	(void)selection;
	if (!EVP_PKEY_todata(full, EVP_PKEY_KEYPAIR, &params))
		goto out;
	ok = cb(params, cbarg);
out:
	OSSL_PARAM_free(params);
	EVP_PKEY_free(full);
	OPENSSL_cleanse(buf, cap);
	free(buf);
	return ok;
}

int ncr_km_export(void *keydata, int selection, OSSL_CALLBACK *cb,
		  void *cbarg)
{
	struct ncr_pkey *k = keydata;
	OSSL_PARAM *params = NULL;
	int sel, ok;

	if (k == NULL)
		return 0;
	if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && k->priv != NULL)
		return export_private(k, selection, cb, cbarg);
	if (k->pub == NULL) {
		ncr_raise(NCR_R_NO_KEY, "no public key to export");
		return 0;
	}
	if (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY)
		sel = EVP_PKEY_PUBLIC_KEY;
	else
		sel = EVP_PKEY_KEY_PARAMETERS;
	if (!EVP_PKEY_todata(k->pub, sel, &params))
		return 0;
	ok = cb(params, cbarg);
	OSSL_PARAM_free(params);
	return ok;
}

int ncr_km_export_public(struct ncr_pkey *k, OSSL_CALLBACK *cb, void *cbarg)
{
	return ncr_km_export(k, OSSL_KEYMGMT_SELECT_PUBLIC_KEY |
			     OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS, cb, cbarg);
}

int ncr_km_import(void *keydata, int selection, const OSSL_PARAM params[])
{
	struct ncr_pkey *k = keydata;
	EVP_PKEY_CTX *pc;
	EVP_PKEY *pub = NULL;
	int sel;

	if (k == NULL)
		return 0;
	if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) &&
	    (OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_D) != NULL ||
	     OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PRIV_KEY) != NULL)) {
		ncr_raise(NCR_R_NOT_SUPPORTED, "importing a private key: ncr "
			  "keys are generated in the kernel or loaded from "
			  "an ncr key file");
		return 0;
	}
	if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) &&
	    (k->type == NCR_PKT_RSA ||
	     OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PUB_KEY) != NULL))
		sel = EVP_PKEY_PUBLIC_KEY;
	else if (selection & OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS)
		sel = EVP_PKEY_KEY_PARAMETERS;
	else
		return 1;	/* nothing public to import (RSA: no parameters) */
	pc = EVP_PKEY_CTX_new_from_name(k->prov->swctx,
					ncr_pk_ossl_name(k->type), NULL);
	if (pc == NULL || EVP_PKEY_fromdata_init(pc) <= 0 ||
	    EVP_PKEY_fromdata(pc, &pub, sel, (OSSL_PARAM *)params) <= 0) {
		EVP_PKEY_CTX_free(pc);
		ncr_raise(NCR_R_INVALID_ARGUMENT, "invalid %s public key",
			  ncr_pk_ossl_name(k->type));
		return 0;
	}
	EVP_PKEY_CTX_free(pc);
	EVP_PKEY_free(k->pub);
	k->pub = pub;
	return 1;
}

const OSSL_PARAM *ncr_km_io_types(int selection)
{
	static const OSSL_PARAM t[] = {
		OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_N, NULL, 0),
		OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_E, NULL, 0),
		OSSL_PARAM_BN(OSSL_PKEY_PARAM_FFC_P, NULL, 0),
		OSSL_PARAM_BN(OSSL_PKEY_PARAM_FFC_Q, NULL, 0),
		OSSL_PARAM_BN(OSSL_PKEY_PARAM_FFC_G, NULL, 0),
		OSSL_PARAM_BN(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
		OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, NULL, 0),
		OSSL_PARAM_END
	};

	(void)selection;
	return t;
}

void *ncr_km_load(const void *reference, size_t reference_sz)
{
	struct ncr_pkey *k;

	if (reference == NULL || reference_sz != sizeof(k))
		return NULL;
	memcpy(&k, reference, sizeof(k));
	return ncr_pkey_ref(k);
}

void *ncr_km_dup(const void *keydata, int selection)
{
	const struct ncr_pkey *src = keydata;
	struct ncr_pkey *k = ncr_pkey_new(src->prov, src->type);

	if (k == NULL)
		return NULL;
	if (src->pub != NULL) {
		k->pub = EVP_PKEY_dup(src->pub);
		if (k->pub == NULL) {
			ncr_pkey_free(k);
			return NULL;
		}
	}
	if (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) {
		k->priv = ncr_khandle_ref(src->priv);	/* immutable */
		k->kflags = src->kflags;
	}
	return k;
}

struct ncr_km_gen *ncr_km_gen_new(void *provctx, int type, int selection)
{
	struct ncr_km_gen *g = calloc(1, sizeof(*g));

	if (g == NULL) {
		ncr_raise(NCR_R_MALLOC_FAILURE, "keygen context");
		return NULL;
	}
	g->prov = provctx;
	g->type = type;
	g->selection = selection;
	return g;
}

void ncr_km_gen_cleanup(void *genctx)
{
	struct ncr_km_gen *g = genctx;

	if (g == NULL)
		return;
	BN_free(g->e);
	EVP_PKEY_free(g->dh_params);
	free(g);
}

static unsigned char *bn_bytes(const BIGNUM *bn, size_t *len)
{
	unsigned char *p;

	*len = (size_t)BN_num_bytes(bn);
	p = malloc(*len ? *len : 1);
	if (p != NULL)
		BN_bn2bin(bn, p);
	return p;
}

static uint32_t gen_flags(int type)
{
	/* Wrappable: the key file is its storage blob. */
	switch (type) {
	case NCR_PKT_RSA:
		return NCR_KEY_FLAG_WRAPPABLE | NCR_KEY_FLAG_SIGN |
		       NCR_KEY_FLAG_DECRYPT;
	case NCR_PKT_DSA:
		return NCR_KEY_FLAG_WRAPPABLE | NCR_KEY_FLAG_SIGN;
	default:
		return NCR_KEY_FLAG_WRAPPABLE;
	}
}

void *ncr_km_gen(void *genctx, OSSL_CALLBACK *cb, void *cbarg)
{
	struct ncr_km_gen *g = genctx;
	struct ncr_pkey *k = NULL;
	unsigned char *e = NULL, *p = NULL, *gg = NULL;
	size_t e_len = 0, p_len = 0, g_len = 0;
	BIGNUM *bp = NULL, *bg = NULL;
	int priv = -1, pub = -1, r;

	(void)cb;
	(void)cbarg;
	if (!(g->selection & OSSL_KEYMGMT_SELECT_KEYPAIR)) {
		ncr_raise(NCR_R_NOT_SUPPORTED, "ncr generates key pairs only; "
			  "generate domain parameters with the default "
			  "provider");
		return NULL;
	}
	if (g->type == NCR_PKT_RSA && g->e != NULL)
		e = bn_bytes(g->e, &e_len);
	if (g->type == NCR_PKT_DH) {
		if (g->dh_params == NULL) {
			ncr_raise(NCR_R_INVALID_ARGUMENT, "DH key generation "
				  "needs a group or domain parameters");
			return NULL;
		}
		if (!EVP_PKEY_get_bn_param(g->dh_params,
					   OSSL_PKEY_PARAM_FFC_P, &bp) ||
		    !EVP_PKEY_get_bn_param(g->dh_params,
					   OSSL_PKEY_PARAM_FFC_G, &bg)) {
			ncr_raise(NCR_R_INVALID_ARGUMENT,
				  "DH domain parameters lack p or g");
			goto out;
		}
		p = bn_bytes(bp, &p_len);
		gg = bn_bytes(bg, &g_len);
	}
	priv = ncr_key_new();
	pub = priv >= 0 ? ncr_key_new() : priv;
	if (priv < 0 || pub < 0) {
		ncr_raise_errno("allocating kernel keys",
				-(priv < 0 ? priv : pub));
		goto out;
	}
	r = ncr_key_generate_pair(priv, pub, ncr_pk_kernel_name(g->type),
				  gen_flags(g->type),
				  g->type == NCR_PKT_RSA ? g->bits : 0,
				  e, e_len,
				  g->type == NCR_PKT_DSA ? g->bits : 0,
				  g->type == NCR_PKT_DSA ? g->qbits : 0,
				  p, p_len, gg, g_len);
	if (r < 0) {
		if (r == -EINVAL)
			ncr_raise(NCR_R_NOT_SUPPORTED, "the kernel refused to "
				  "generate a %s key with these parameters "
				  "(%u bits)", ncr_pk_ossl_name(g->type),
				  g->bits);
		else
			ncr_raise_errno("generating the key pair", -r);
		goto out;
	}
	k = ncr_pkey_new(g->prov, g->type);
	if (k == NULL)
		goto out;
	k->priv = ncr_khandle_new(priv);
	if (k->priv == NULL)
		goto fail;
	priv = -1;
	k->kflags = gen_flags(g->type);
	if (!ncr_pkey_set_pub_from_kernel(k, pub, g->dh_params))
		goto fail;
	goto out;
fail:
	ncr_pkey_free(k);
	k = NULL;
out:
	ncr_key_free(priv);
	ncr_key_free(pub);
	free(e);
	free(p);
	free(gg);
	BN_free(bp);
	BN_free(bg);
	return k;
}
