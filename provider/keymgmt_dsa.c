// SPDX-License-Identifier: GPL-2.0
/*
 * KEYMGMT for DSA.  The kernel generates its own domain parameters for the
 * sizes it accepts (1024/160, 2048/224, 2048/256, 3072/256), so a template
 * with given parameters is refused.
 */
#include <openssl/core_names.h>
#include <openssl/params.h>
#include "keymgmt.h"

void *ncrp_dsa_new(void *provctx)
{
	return ncrp_pkey_new(provctx, NCR_PKT_DSA);
}

int ncrp_dsa_gen_set_params(void *genctx, const OSSL_PARAM params[])
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

const OSSL_PARAM *ncrp_dsa_gen_settable_params(void *genctx, void *provctx)
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

void *ncrp_dsa_gen_init(void *provctx, int selection,
			const OSSL_PARAM params[])
{
	struct ncrp_km_gen *g;

	g = ncrp_km_gen_new(provctx, NCR_PKT_DSA, selection);
	if (g == NULL)
		return NULL;
	g->bits = 2048;
	if (!ncrp_dsa_gen_set_params(g, params)) {
		ncrp_km_gen_cleanup(g);
		return NULL;
	}
	return g;
}

void *ncrp_dsa_gen(void *genctx, OSSL_CALLBACK *cb, void *cbarg)
{
	struct ncrp_km_gen *g = genctx;

	if (g->qbits == 0)
		g->qbits = g->bits <= 1024 ? 160 : g->bits == 2048 ? 224 : 256;
	return ncrp_km_gen(genctx, cb, cbarg);
}

int ncrp_dsa_gen_set_template(void *genctx, void *templ)
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
