// SPDX-License-Identifier: GPL-2.0
/*
 * KEYMGMT for EC (P-256, P-384) and X25519: the curve by any name OpenSSL
 * accepts for it, pairs generated in the kernel ("ecdsa" with
 * NCR_ATTR_ECC_CURVE).
 *
 * Objects with domain parameters only are made in software: TLS creates
 * the peer's key share that way (paramgen, then the encoded public value
 * through set_params), and nothing secret is involved.
 */
#include <strings.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include "keymgmt.h"

static const struct ncrp_ec_curve curves[] = {
	{ NCR_PKT_EC, NCR_ECC_CURVE_P256, "prime256v1",
	  { "P-256", "secp256r1", NULL } },
	{ NCR_PKT_EC, NCR_ECC_CURVE_P384, "secp384r1", { "P-384", NULL } },
	{ NCR_PKT_X25519, NCR_ECC_CURVE_X25519, "X25519", { NULL } },
};

/* The curve of @type called @name (case-insensitive, as OpenSSL). */
static const struct ncrp_ec_curve *curve_by_name(int type, const char *name)
{
	size_t i, j;

	for (i = 0; i < sizeof(curves) / sizeof(curves[0]); i++) {
		if (curves[i].type != type)
			continue;
		if (strcasecmp(name, curves[i].group) == 0)
			return &curves[i];
		for (j = 0; curves[i].aliases[j] != NULL; j++)
			if (strcasecmp(name, curves[i].aliases[j]) == 0)
				return &curves[i];
	}
	return NULL;
}

static int set_curve(struct ncrp_km_gen *g, const char *name)
{
	const struct ncrp_ec_curve *c = curve_by_name(g->type, name);

	if (c == NULL) {
		ncrp_raise(NCR_R_UNKNOWN_CURVE, "curve \"%s\" for an %s key",
			   name, ncrp_pk_ossl_name(g->type));
		return 0;
	}
	g->curve = c;
	return 1;
}

void *ncrp_ec_new(void *provctx)
{
	return ncrp_pkey_new(provctx, NCR_PKT_EC);
}

void *ncrp_x25519_new(void *provctx)
{
	return ncrp_pkey_new(provctx, NCR_PKT_X25519);
}

/* Parameters that only have one value the kernel can honour. */
static int check_fixed(const OSSL_PARAM params[], const char *key,
		       const char *only)
{
	const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, key);
	const char *v;

	if (p == NULL)
		return 1;
	if (!OSSL_PARAM_get_utf8_string_ptr(p, &v))
		return 0;
	if (strcasecmp(v, only) == 0)
		return 1;
	ncrp_raise(NCR_R_NOT_SUPPORTED, "%s \"%s\": ncr EC keys have %s only",
		   key, v, only);
	return 0;
}

int ncrp_ec_gen_set_params(void *genctx, const OSSL_PARAM params[])
{
	struct ncrp_km_gen *g = genctx;
	const OSSL_PARAM *p;
	const char *name;

	p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_GROUP_NAME);
	if (p != NULL && (!OSSL_PARAM_get_utf8_string_ptr(p, &name) ||
			  !set_curve(g, name)))
		return 0;
	if (g->type == NCR_PKT_X25519)
		return 1;
	return check_fixed(params, OSSL_PKEY_PARAM_EC_ENCODING,
			   OSSL_PKEY_EC_ENCODING_GROUP) &&
	       check_fixed(params, OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT,
			   OSSL_PKEY_EC_POINT_CONVERSION_FORMAT_UNCOMPRESSED);
}

const OSSL_PARAM *ncrp_ec_gen_settable_params(void *genctx, void *provctx)
{
	static const OSSL_PARAM t[] = {
		OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, NULL, 0),
		OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_EC_ENCODING, NULL, 0),
		OSSL_PARAM_utf8_string(
			OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT, NULL, 0),
		OSSL_PARAM_END
	};

	(void)genctx;
	(void)provctx;
	return t;
}

static void *gen_init(void *provctx, int type, int selection,
		      const OSSL_PARAM params[])
{
	struct ncrp_km_gen *g = ncrp_km_gen_new(provctx, type, selection);

	if (g == NULL)
		return NULL;
	if (type == NCR_PKT_X25519)
		g->curve = curve_by_name(type, "X25519");
	if (!ncrp_ec_gen_set_params(g, params)) {
		ncrp_km_gen_cleanup(g);
		return NULL;
	}
	return g;
}

void *ncrp_ec_gen_init(void *provctx, int selection, const OSSL_PARAM params[])
{
	return gen_init(provctx, NCR_PKT_EC, selection, params);
}

void *ncrp_x25519_gen_init(void *provctx, int selection,
			   const OSSL_PARAM params[])
{
	return gen_init(provctx, NCR_PKT_X25519, selection, params);
}

/* A parameter object (or a key of the same curve): its curve. */
int ncrp_ec_gen_set_template(void *genctx, void *templ)
{
	struct ncrp_km_gen *g = genctx;
	struct ncrp_pkey *t = templ;
	char name[64];

	if (t == NULL || t->type != g->type) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "the template is not an "
			   "ncr %s object", ncrp_pk_ossl_name(g->type));
		return 0;
	}
	if (g->type == NCR_PKT_X25519)
		return 1;
	if (t->pub == NULL ||
	    !EVP_PKEY_get_group_name(t->pub, name, sizeof(name), NULL)) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT,
			   "the EC template has no curve");
		return 0;
	}
	return set_curve(g, name);
}

/* The domain alone, as the default provider makes it. */
static struct ncrp_pkey *gen_domain(const struct ncrp_km_gen *g)
{
	struct ncrp_pkey *k;
	EVP_PKEY_CTX *pc;
	EVP_PKEY *params = NULL;

	if (g->curve == NULL) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "EC parameters need a "
			   "curve (-pkeyopt ec_paramgen_curve:P-256)");
		return NULL;
	}
	pc = EVP_PKEY_CTX_new_from_name(g->prov->swctx,
					ncrp_pk_ossl_name(g->type), NULL);
	if (pc == NULL || EVP_PKEY_paramgen_init(pc) <= 0 ||
	    (g->type == NCR_PKT_EC &&
	     EVP_PKEY_CTX_set_group_name(pc, g->curve->group) <= 0) ||
	    EVP_PKEY_paramgen(pc, &params) <= 0) {
		EVP_PKEY_CTX_free(pc);
		ncrp_raise(NCR_R_UNKNOWN_CURVE, "cannot make the parameters "
			   "of %s", g->curve->group);
		return NULL;
	}
	EVP_PKEY_CTX_free(pc);
	k = ncrp_pkey_new(g->prov, g->type);
	if (k == NULL) {
		EVP_PKEY_free(params);
		return NULL;
	}
	k->pub = params;
	return k;
}

void *ncrp_ec_gen(void *genctx, OSSL_CALLBACK *cb, void *cbarg)
{
	struct ncrp_km_gen *g = genctx;

	if (!(g->selection & OSSL_KEYMGMT_SELECT_KEYPAIR))
		return gen_domain(g);
	return ncrp_km_gen(genctx, cb, cbarg);
}

/*
 * The encoded public value (TLS: the peer's key share) on a public-only
 * object.  A kernel key's public half is the kernel's and stays as is.
 */
int ncrp_ec_set_params(void *keydata, const OSSL_PARAM params[])
{
	struct ncrp_pkey *k = keydata;
	const OSSL_PARAM *p;
	const void *v;
	size_t len;
	EVP_PKEY *pub;

	p = OSSL_PARAM_locate_const(params,
				    OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY);
	if (p == NULL)
		return 1;
	if (k->priv != NULL) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "the public value of a "
			   "kernel key cannot be replaced");
		return 0;
	}
	if (!OSSL_PARAM_get_octet_string_ptr(p, &v, &len))
		return 0;
	if (k->pub == NULL && k->type == NCR_PKT_X25519)
		pub = EVP_PKEY_new_raw_public_key_ex(k->prov->swctx, "X25519",
						     NULL, v, len);
	else if (k->pub == NULL)
		pub = NULL;	/* an EC point means nothing without a curve */
	else if ((pub = EVP_PKEY_dup(k->pub)) != NULL &&
		 !EVP_PKEY_set_octet_string_param(
			 pub, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, v, len)) {
		EVP_PKEY_free(pub);
		pub = NULL;
	}
	if (pub == NULL) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "invalid encoded %s public "
			   "key", ncrp_pk_ossl_name(k->type));
		return 0;
	}
	EVP_PKEY_free(k->pub);
	k->pub = pub;
	return 1;
}

const OSSL_PARAM *ncrp_ec_settable_params(void *provctx)
{
	static const OSSL_PARAM t[] = {
		OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY,
					NULL, 0),
		OSSL_PARAM_END
	};

	(void)provctx;
	return t;
}
