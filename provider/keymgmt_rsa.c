// SPDX-License-Identifier: GPL-2.0
/* KEYMGMT for RSA: key generation parameters (bits, e). */
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include "keymgmt.h"

void *ncrp_rsa_new(void *provctx)
{
	return ncrp_pkey_new(provctx, NCR_PKT_RSA);
}

int ncrp_rsa_gen_set_params(void *genctx, const OSSL_PARAM params[])
{
	struct ncrp_km_gen *g = genctx;
	const OSSL_PARAM *p;
	size_t primes;

	p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_BITS);
	if (p != NULL && !OSSL_PARAM_get_uint(p, &g->bits))
		return 0;
	p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_PRIMES);
	if (p != NULL) {
		if (!OSSL_PARAM_get_size_t(p, &primes))
			return 0;
		if (primes != 2) {
			ncrp_raise(NCR_R_NOT_SUPPORTED,
				   "multi-prime RSA (%zu primes)", primes);
			return 0;
		}
	}
	p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_E);
	if (p != NULL && !OSSL_PARAM_get_BN(p, &g->e))
		return 0;
	return 1;
}

const OSSL_PARAM *ncrp_rsa_gen_settable_params(void *genctx, void *provctx)
{
	static const OSSL_PARAM t[] = {
		OSSL_PARAM_uint(OSSL_PKEY_PARAM_RSA_BITS, NULL),
		OSSL_PARAM_size_t(OSSL_PKEY_PARAM_RSA_PRIMES, NULL),
		OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_E, NULL, 0),
		OSSL_PARAM_END
	};

	(void)genctx;
	(void)provctx;
	return t;
}

void *ncrp_rsa_gen_init(void *provctx, int selection,
			const OSSL_PARAM params[])
{
	struct ncrp_km_gen *g;

	g = ncrp_km_gen_new(provctx, NCR_PKT_RSA, selection);
	if (g == NULL)
		return NULL;
	g->bits = 2048;
	if (!ncrp_rsa_gen_set_params(g, params)) {
		ncrp_km_gen_cleanup(g);
		return NULL;
	}
	return g;
}
