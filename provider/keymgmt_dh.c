// SPDX-License-Identifier: GPL-2.0
/*
 * KEYMGMT for finite-field DH: the domain comes from a named group
 * ("group", e.g. ffdhe2048, the default) or from a parameter template;
 * the kernel generates the private value on it.
 */
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include "keymgmt.h"

void *ncrp_dh_new(void *provctx)
{
	return ncrp_pkey_new(provctx, NCR_PKT_DH);
}

static int set_group(struct ncrp_km_gen *g, const char *name)
{
	OSSL_PARAM p[2];
	EVP_PKEY_CTX *pc;
	EVP_PKEY *params = NULL;

	p[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME,
						(char *)name, 0);
	p[1] = OSSL_PARAM_construct_end();
	pc = EVP_PKEY_CTX_new_from_name(g->prov->swctx, "DH", NULL);
	if (pc == NULL || EVP_PKEY_fromdata_init(pc) <= 0 ||
	    EVP_PKEY_fromdata(pc, &params, EVP_PKEY_KEY_PARAMETERS, p) <= 0) {
		EVP_PKEY_CTX_free(pc);
		ncrp_raise(NCR_R_NOT_SUPPORTED, "unknown DH group \"%s\"", name);
		return 0;
	}
	EVP_PKEY_CTX_free(pc);
	EVP_PKEY_free(g->dh_params);
	g->dh_params = params;
	return 1;
}

int ncrp_dh_gen_set_params(void *genctx, const OSSL_PARAM params[])
{
	struct ncrp_km_gen *g = genctx;
	const OSSL_PARAM *p;
	const char *name;

	p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_GROUP_NAME);
	if (p != NULL) {
		if (!OSSL_PARAM_get_utf8_string_ptr(p, &name))
			return 0;
		return set_group(g, name);
	}
	return 1;
}

const OSSL_PARAM *ncrp_dh_gen_settable_params(void *genctx, void *provctx)
{
	static const OSSL_PARAM t[] = {
		OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, NULL, 0),
		OSSL_PARAM_END
	};

	(void)genctx;
	(void)provctx;
	return t;
}

void *ncrp_dh_gen_init(void *provctx, int selection,
		       const OSSL_PARAM params[])
{
	struct ncrp_km_gen *g;

	g = ncrp_km_gen_new(provctx, NCR_PKT_DH, selection);
	if (g == NULL)
		return NULL;
	if (!set_group(g, "ffdhe2048") || !ncrp_dh_gen_set_params(g, params)) {
		ncrp_km_gen_cleanup(g);
		return NULL;
	}
	return g;
}

int ncrp_dh_gen_set_template(void *genctx, void *templ)
{
	struct ncrp_km_gen *g = genctx;
	struct ncrp_pkey *t = templ;
	EVP_PKEY *dup;

	if (t == NULL || t->pub == NULL) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "empty DH parameter template");
		return 0;
	}
	dup = EVP_PKEY_dup(t->pub);
	if (dup == NULL)
		return 0;
	EVP_PKEY_free(g->dh_params);
	g->dh_params = dup;
	return 1;
}
