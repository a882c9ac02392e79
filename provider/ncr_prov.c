// SPDX-License-Identifier: GPL-2.0
/*
 * Entry point of the "ncr" provider: parameters, operation query and
 * teardown.  The provider loads even without /dev/crypto; operations then
 * fail with a reason naming the problem (libncr/dev.c opens lazily).
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include "ncr_prov.h"

static OSSL_FUNC_provider_teardown_fn ncrp_teardown;
static OSSL_FUNC_provider_gettable_params_fn ncrp_gettable_params;
static OSSL_FUNC_provider_get_params_fn ncrp_get_params;
static OSSL_FUNC_provider_query_operation_fn ncrp_query;
static OSSL_FUNC_provider_get_reason_strings_fn ncrp_get_reason_strings;

#define NCR_PROV_NAME "ncr: Linux /dev/crypto (NCR) kernel-held keys"
#define NCR_PROV_VERSION "0.1.0"

static const OSSL_PARAM *ncrp_gettable_params(void *provctx)
{
	static const OSSL_PARAM params[] = {
		OSSL_PARAM_DEFN(OSSL_PROV_PARAM_NAME, OSSL_PARAM_UTF8_PTR,
				NULL, 0),
		OSSL_PARAM_DEFN(OSSL_PROV_PARAM_VERSION, OSSL_PARAM_UTF8_PTR,
				NULL, 0),
		OSSL_PARAM_DEFN(OSSL_PROV_PARAM_BUILDINFO, OSSL_PARAM_UTF8_PTR,
				NULL, 0),
		OSSL_PARAM_DEFN(OSSL_PROV_PARAM_STATUS, OSSL_PARAM_INTEGER,
				NULL, 0),
		OSSL_PARAM_END
	};

	(void)provctx;
	return params;
}

static int ncrp_get_params(void *provctx, OSSL_PARAM params[])
{
	OSSL_PARAM *p;

	(void)provctx;
	p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_NAME);
	if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, NCR_PROV_NAME))
		return 0;
	p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_VERSION);
	if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, NCR_PROV_VERSION))
		return 0;
	p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_BUILDINFO);
	if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, NCR_PROV_VERSION))
		return 0;
	/* Usable even without the device: errors are per operation. */
	p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS);
	if (p != NULL && !OSSL_PARAM_set_int(p, 1))
		return 0;
	return 1;
}

static const OSSL_ALGORITHM *ncrp_query(void *provctx, int operation_id,
					int *no_cache)
{
	(void)provctx;
	*no_cache = 0;
	switch (operation_id) {
	case OSSL_OP_CIPHER:
		/*
		 * Without the device, do not offer ciphers (and do not let
		 * OpenSSL cache that): an application fetching AES with no
		 * property query, e.g. the default DRBG, must then get the
		 * default provider's instead of a cipher that cannot work.
		 */
		if (ncrlib_dev_status() != 0) {
			*no_cache = 1;
			return NULL;
		}
		return ncrp_ciphers;
	case OSSL_OP_KEYMGMT:
		return ncrp_keymgmts;
	case OSSL_OP_SIGNATURE:
		return ncrp_signatures;
	case OSSL_OP_ASYM_CIPHER:
		return ncrp_asym_ciphers;
	case OSSL_OP_KEYEXCH:
		return ncrp_keyexchs;
	case OSSL_OP_ENCODER:
		return ncrp_encoders;
	case OSSL_OP_DECODER:
		return ncrp_decoders;
	}
	return NULL;
}

static const OSSL_ITEM *ncrp_get_reason_strings(void *provctx)
{
	(void)provctx;
	return ncrp_reason_strings;
}

static void ncrp_teardown(void *provctx)
{
	struct ncrp_provctx *ctx = provctx;

	if (ctx == NULL)
		return;
	if (ctx->swdefault != NULL)
		OSSL_PROVIDER_unload(ctx->swdefault);
	OSSL_LIB_CTX_free(ctx->swctx);
	OSSL_LIB_CTX_free(ctx->libctx);
	free(ctx);
}

static const OSSL_DISPATCH ncrp_dispatch[] = {
	{ OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))ncrp_teardown },
	{ OSSL_FUNC_PROVIDER_GETTABLE_PARAMS,
	  (void (*)(void))ncrp_gettable_params },
	{ OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))ncrp_get_params },
	{ OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))ncrp_query },
	{ OSSL_FUNC_PROVIDER_GET_REASON_STRINGS,
	  (void (*)(void))ncrp_get_reason_strings },
	{ OSSL_FUNC_PROVIDER_GET_CAPABILITIES,
	  (void (*)(void))ncrp_get_capabilities },
	{ 0, NULL }
};

__attribute__((visibility("default")))
int OSSL_provider_init(const OSSL_CORE_HANDLE *handle,
		       const OSSL_DISPATCH *in, const OSSL_DISPATCH **out,
		       void **provctx)
{
	struct ncrp_provctx *ctx;

	ncrp_err_init(handle, in);
	ctx = calloc(1, sizeof(*ctx));
	if (ctx == NULL)
		return 0;
	ctx->handle = handle;
	/* A child context sees the application's providers (for BIOs). */
	ctx->libctx = OSSL_LIB_CTX_new_child(handle, in);
	ctx->swctx = OSSL_LIB_CTX_new();
	if (ctx->swctx != NULL)
		ctx->swdefault = OSSL_PROVIDER_load(ctx->swctx, "default");
	if (ctx->libctx == NULL || ctx->swdefault == NULL) {
		ncrp_teardown(ctx);
		return 0;
	}
	*provctx = ctx;
	*out = ncrp_dispatch;
	return 1;
}
