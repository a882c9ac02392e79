// SPDX-License-Identifier: GPL-2.0
/*
 * KEYMGMT for DSA.  The kernel generates its own domain parameters for the
 * sizes it accepts (1024/160, 2048/224, 2048/256, 3072/256), so a template
 * with given parameters is refused.
 */
#include <openssl/core_names.h>
#include <openssl/params.h>
#include "keymgmt.h"

static void *dsa_new(void *provctx)
{
	return ncrp_pkey_new(provctx, NCR_PKT_DSA);
}

static int dsa_gen_set_params(void *genctx, const OSSL_PARAM params[])
{
	struct ncrp_km_gen *g = genctx;
	const OSSL_PARAM *p;

	p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_FFC_PBITS);
	if (p != NULL && !OSSL_PARAM_get_uint(p, &g->bits))
		return 0;
	p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_FFC_QBITS);
	if (p != NULL && !OSSL_PARAM_get_uint(p, &g->qbits))
		return 0;
	return 1;
}

static const OSSL_PARAM *dsa_gen_settable_params(void *genctx, void *provctx)
{
	static const OSSL_PARAM t[] = {
		OSSL_PARAM_uint(OSSL_PKEY_PARAM_FFC_PBITS, NULL),
		OSSL_PARAM_uint(OSSL_PKEY_PARAM_FFC_QBITS, NULL),
		OSSL_PARAM_END
	};

	(void)genctx;
	(void)provctx;
	return t;
}

static void *dsa_gen_init(void *provctx, int selection,
			  const OSSL_PARAM params[])
{
	struct ncrp_km_gen *g = ncrp_km_gen_new(provctx, NCR_PKT_DSA, selection);

	if (g == NULL)
		return NULL;
	g->bits = 2048;
	if (!dsa_gen_set_params(g, params)) {
		ncrp_km_gen_cleanup(g);
		return NULL;
	}
	return g;
}

static void *dsa_gen(void *genctx, OSSL_CALLBACK *cb, void *cbarg)
{
	struct ncrp_km_gen *g = genctx;

	if (g->qbits == 0)
		g->qbits = g->bits <= 1024 ? 160 : g->bits == 2048 ? 224 : 256;
	return ncrp_km_gen(genctx, cb, cbarg);
}

static int dsa_gen_set_template(void *genctx, void *templ)
{
	struct ncrp_pkey *t = templ;

	(void)genctx;
	if (t != NULL && t->pub != NULL) {
		ncrp_raise(NCR_R_NOT_SUPPORTED, "DSA keys are generated with "
			   "the kernel's own domain parameters; give sizes "
			   "(pbits, qbits) instead of parameters");
		return 0;
	}
	return 1;
}

static const char *dsa_query_operation_name(int operation_id)
{
	(void)operation_id;
	return "DSA";
}

const OSSL_DISPATCH ncrp_dsa_keymgmt_functions[] = {
	{ OSSL_FUNC_KEYMGMT_NEW, (void (*)(void))dsa_new },
	{ OSSL_FUNC_KEYMGMT_GEN_INIT, (void (*)(void))dsa_gen_init },
	{ OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS,
	  (void (*)(void))dsa_gen_set_params },
	{ OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS,
	  (void (*)(void))dsa_gen_settable_params },
	{ OSSL_FUNC_KEYMGMT_GEN_SET_TEMPLATE,
	  (void (*)(void))dsa_gen_set_template },
	{ OSSL_FUNC_KEYMGMT_QUERY_OPERATION_NAME,
	  (void (*)(void))dsa_query_operation_name },
	{ OSSL_FUNC_KEYMGMT_FREE, (void (*)(void))ncrp_km_free },
	{ OSSL_FUNC_KEYMGMT_HAS, (void (*)(void))ncrp_km_has },
	{ OSSL_FUNC_KEYMGMT_MATCH, (void (*)(void))ncrp_km_match },
	{ OSSL_FUNC_KEYMGMT_VALIDATE, (void (*)(void))ncrp_km_validate },
	{ OSSL_FUNC_KEYMGMT_GET_PARAMS, (void (*)(void))ncrp_km_get_params },
	{ OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS,
	  (void (*)(void))ncrp_km_gettable_params },
	{ OSSL_FUNC_KEYMGMT_EXPORT, (void (*)(void))ncrp_km_export },
	{ OSSL_FUNC_KEYMGMT_EXPORT_TYPES, (void (*)(void))ncrp_km_io_types },
	{ OSSL_FUNC_KEYMGMT_IMPORT, (void (*)(void))ncrp_km_import },
	{ OSSL_FUNC_KEYMGMT_IMPORT_TYPES, (void (*)(void))ncrp_km_io_types },
	{ OSSL_FUNC_KEYMGMT_LOAD, (void (*)(void))ncrp_km_load },
	{ OSSL_FUNC_KEYMGMT_DUP, (void (*)(void))ncrp_km_dup },
	{ OSSL_FUNC_KEYMGMT_GEN, (void (*)(void))dsa_gen },
	{ OSSL_FUNC_KEYMGMT_GEN_CLEANUP, (void (*)(void))ncrp_km_gen_cleanup },
	{ 0, NULL }
};
