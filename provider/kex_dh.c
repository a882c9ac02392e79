// SPDX-License-Identifier: GPL-2.0
/*
 * KEYEXCH for DH: the shared secret is derived in the kernel
 * (kex_kernel.c).  Like
 * OpenSSL, leading zero bytes are stripped unless "pad" is set.
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include "names.h"
#include "ncr_prov.h"

static OSSL_FUNC_keyexch_newctx_fn kex_newctx;
static OSSL_FUNC_keyexch_freectx_fn kex_freectx;
static OSSL_FUNC_keyexch_dupctx_fn kex_dupctx;
static OSSL_FUNC_keyexch_init_fn kex_init;
static OSSL_FUNC_keyexch_set_peer_fn kex_set_peer;
static OSSL_FUNC_keyexch_derive_fn kex_derive;
static OSSL_FUNC_keyexch_set_ctx_params_fn kex_set_ctx_params;
static OSSL_FUNC_keyexch_settable_ctx_params_fn kex_settable;

struct kex_ctx {
	struct ncrp_provctx *prov;
	struct ncrp_pkey *key, *peer;
	int pad;
};

static void *kex_newctx(void *provctx)
{
	struct kex_ctx *c = calloc(1, sizeof(*c));

	if (c != NULL)
		c->prov = provctx;
	return c;
}

static void kex_freectx(void *vctx)
{
	struct kex_ctx *c = vctx;

	if (c == NULL)
		return;
	ncrp_pkey_free(c->key);
	ncrp_pkey_free(c->peer);
	free(c);
}

static void *kex_dupctx(void *vctx)
{
	struct kex_ctx *src = vctx, *c = malloc(sizeof(*c));

	if (c == NULL)
		return NULL;
	*c = *src;
	ncrp_pkey_ref(c->key);
	ncrp_pkey_ref(c->peer);
	return c;
}

static int kex_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
	struct kex_ctx *c = vctx;
	const OSSL_PARAM *p;
	unsigned int pad;

	p = OSSL_PARAM_locate_const(params, OSSL_EXCHANGE_PARAM_PAD);
	if (p != NULL) {
		if (!OSSL_PARAM_get_uint(p, &pad))
			return 0;
		c->pad = pad != 0;
	}
	return 1;
}

static const OSSL_PARAM *kex_settable(void *vctx, void *provctx)
{
	static const OSSL_PARAM t[] = {
		OSSL_PARAM_uint(OSSL_EXCHANGE_PARAM_PAD, NULL),
		OSSL_PARAM_END
	};

	(void)vctx;
	(void)provctx;
	return t;
}

static int kex_init(void *vctx, void *provkey, const OSSL_PARAM params[])
{
	struct kex_ctx *c = vctx;
	struct ncrp_pkey *k = provkey;

	if (k == NULL || k->type != NCR_PKT_DH || k->priv == NULL) {
		ncrp_raise(NCR_R_NO_KEY, "DH derivation needs an ncr DH "
			   "private key");
		return 0;
	}
	ncrp_pkey_free(c->key);
	c->key = ncrp_pkey_ref(k);
	return kex_set_ctx_params(c, params);
}

static int kex_set_peer(void *vctx, void *provkey)
{
	struct kex_ctx *c = vctx;
	struct ncrp_pkey *k = provkey;

	if (k == NULL || k->type != NCR_PKT_DH || k->pub == NULL) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "peer is not a DH public key");
		return 0;
	}
	if (c->key != NULL &&
	    EVP_PKEY_parameters_eq(c->key->pub, k->pub) != 1) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT,
			   "peer key has different DH parameters");
		return 0;
	}
	ncrp_pkey_free(c->peer);
	c->peer = ncrp_pkey_ref(k);
	return 1;
}

static int kex_derive(void *vctx, unsigned char *secret, size_t *secretlen,
		      size_t outlen)
{
	struct kex_ctx *c = vctx;
	size_t plen, ylen = 0, i = 0;
	unsigned char *y = NULL, *buf = NULL;
	int ok = 0;
	long n;

	if (c->key == NULL || c->peer == NULL) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "key or peer not set");
		return 0;
	}
	plen = (size_t)EVP_PKEY_get_size(c->key->pub);
	if (secret == NULL) {
		*secretlen = plen;
		return 1;
	}
	y = ncrp_pkey_peer_value(c->peer, &ylen);
	buf = y != NULL ? malloc(plen + 64) : NULL;
	if (buf == NULL ||
	    (n = ncrp_kernel_derive(c->key, NCR_DERIVE_DH, y, ylen, buf,
				    plen + 64)) < 0)
		goto out;
	if (!c->pad)
		while (i < (size_t)n && buf[i] == 0)
			i++;
	if (c->pad && (size_t)n < plen) {
		/* left-pad to the prime length */
		memmove(buf + (plen - (size_t)n), buf, (size_t)n);
		memset(buf, 0, plen - (size_t)n);
		n = (long)plen;
	}
	if (outlen < (size_t)n - i) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "output buffer too small");
		goto out;
	}
	memcpy(secret, buf + i, (size_t)n - i);
	*secretlen = (size_t)n - i;
	ok = 1;
out:
	if (buf != NULL)
		OPENSSL_clear_free(buf, plen + 64);
	free(y);
	return ok;
}

const OSSL_DISPATCH ncrp_dh_kex_functions[] = {
	{ OSSL_FUNC_KEYEXCH_NEWCTX, (void (*)(void))kex_newctx },
	{ OSSL_FUNC_KEYEXCH_FREECTX, (void (*)(void))kex_freectx },
	{ OSSL_FUNC_KEYEXCH_DUPCTX, (void (*)(void))kex_dupctx },
	{ OSSL_FUNC_KEYEXCH_INIT, (void (*)(void))kex_init },
	{ OSSL_FUNC_KEYEXCH_SET_PEER, (void (*)(void))kex_set_peer },
	{ OSSL_FUNC_KEYEXCH_DERIVE, (void (*)(void))kex_derive },
	{ OSSL_FUNC_KEYEXCH_SET_CTX_PARAMS,
	  (void (*)(void))kex_set_ctx_params },
	{ OSSL_FUNC_KEYEXCH_SETTABLE_CTX_PARAMS,
	  (void (*)(void))kex_settable },
	{ 0, NULL }
};
