// SPDX-License-Identifier: GPL-2.0
/* KEYMGMT for RSA: generation parameters (bits, e) and the dispatch table. */
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include "keymgmt.h"

static void *rsa_new(void *provctx)
{
	return ncrp_pkey_new(provctx, NCR_PKT_RSA);
}

static int rsa_gen_set_params(void *genctx, const OSSL_PARAM params[])
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

static const OSSL_PARAM *rsa_gen_settable_params(void *genctx, void *provctx)
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

static void *rsa_gen_init(void *provctx, int selection,
			  const OSSL_PARAM params[])
{
	struct ncrp_km_gen *g = ncrp_km_gen_new(provctx, NCR_PKT_RSA, selection);

	if (g == NULL)
		return NULL;
	g->bits = 2048;
	if (!rsa_gen_set_params(g, params)) {
		ncrp_km_gen_cleanup(g);
		return NULL;
	}
	return g;
}

static const char *rsa_query_operation_name(int operation_id)
{
	(void)operation_id;
	return "RSA";
}

static const OSSL_DISPATCH rsa_keymgmt_functions[] = {
	{ OSSL_FUNC_KEYMGMT_NEW, (void (*)(void))rsa_new },
	{ OSSL_FUNC_KEYMGMT_GEN_INIT, (void (*)(void))rsa_gen_init },
	{ OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS,
	  (void (*)(void))rsa_gen_set_params },
	{ OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS,
	  (void (*)(void))rsa_gen_settable_params },
	{ OSSL_FUNC_KEYMGMT_QUERY_OPERATION_NAME,
	  (void (*)(void))rsa_query_operation_name },
	NCR_KM_COMMON_FUNCTIONS,
	{ 0, NULL }
};

extern const OSSL_DISPATCH ncrp_dsa_keymgmt_functions[];
extern const OSSL_DISPATCH ncrp_dh_keymgmt_functions[];

const OSSL_ALGORITHM ncrp_keymgmts[] = {
	{ "RSA:rsaEncryption:1.2.840.113549.1.1.1", "provider=ncr",
	  rsa_keymgmt_functions, "ncr RSA: private key held by the kernel" },
	{ "DSA:dsaEncryption:1.2.840.10040.4.1", "provider=ncr",
	  ncrp_dsa_keymgmt_functions, "ncr DSA: private key held by the kernel" },
	{ "DH:dhKeyAgreement:1.2.840.113549.1.3.1", "provider=ncr",
	  ncrp_dh_keymgmt_functions, "ncr DH: private key held by the kernel" },
	{ NULL, NULL, NULL, NULL }
};
