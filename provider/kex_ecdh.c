// SPDX-License-Identifier: GPL-2.0
/*
 * KEYEXCH "ECDH" (P-256, P-384) and "X25519": the kernel derives
 * (NCR_DERIVE_ECDH, kex_kernel.c) from the private key it holds and the
 * peer's public value.  The secret is what the default provider returns:
 * the x-coordinate at the field length, or X25519's 32 bytes, unpadded
 * and unstripped.  The X9.63 KDF of the default ECDH is not offered;
 * cofactor mode is accepted because P-256 and P-384 have cofactor 1.
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include "names.h"
#include "ncr_prov.h"

static OSSL_FUNC_keyexch_newctx_fn ecdh_newctx;
static OSSL_FUNC_keyexch_newctx_fn x25519_newctx;
static OSSL_FUNC_keyexch_freectx_fn kex_freectx;
static OSSL_FUNC_keyexch_dupctx_fn kex_dupctx;
static OSSL_FUNC_keyexch_init_fn kex_init;
static OSSL_FUNC_keyexch_set_peer_fn kex_set_peer;
static OSSL_FUNC_keyexch_derive_fn kex_derive;
static OSSL_FUNC_keyexch_set_ctx_params_fn kex_set_ctx_params;
static OSSL_FUNC_keyexch_settable_ctx_params_fn ecdh_settable;
static OSSL_FUNC_keyexch_settable_ctx_params_fn x25519_settable;

struct kex_ctx {
	struct ncrp_provctx *prov;
	int type;			/* NCR_PKT_EC or NCR_PKT_X25519 */
	struct ncrp_pkey *key, *peer;
};

static void *kex_newctx(void *provctx, int type)
{
	struct kex_ctx *c = calloc(1, sizeof(*c));

	if (c == NULL) {
		ncrp_raise(NCR_R_MALLOC_FAILURE, "key exchange context");
		return NULL;
	}
	c->prov = provctx;
	c->type = type;
	return c;
}

static void *ecdh_newctx(void *provctx)
{
	return kex_newctx(provctx, NCR_PKT_EC);
}

static void *x25519_newctx(void *provctx)
{
	return kex_newctx(provctx, NCR_PKT_X25519);
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

/* Only what changes nothing for these curves is accepted. */
static int kex_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
	struct kex_ctx *c = vctx;
	const OSSL_PARAM *p;
	const char *kdf;
	int mode;

	if (c->type != NCR_PKT_EC)
		return 1;
	p = OSSL_PARAM_locate_const(params,
				    OSSL_EXCHANGE_PARAM_EC_ECDH_COFACTOR_MODE);
	if (p != NULL && (!OSSL_PARAM_get_int(p, &mode) || mode < -1 ||
			  mode > 1))
		return 0;
	p = OSSL_PARAM_locate_const(params, OSSL_EXCHANGE_PARAM_KDF_TYPE);
	if (p != NULL) {
		if (!OSSL_PARAM_get_utf8_string_ptr(p, &kdf))
			return 0;
		if (kdf[0] != '\0') {
			ncrp_raise(NCR_R_NOT_SUPPORTED, "ECDH with the %s KDF: "
				   "ncr returns the plain shared secret", kdf);
			return 0;
		}
	}
	return 1;
}

static const OSSL_PARAM *ecdh_settable(void *vctx, void *provctx)
{
	static const OSSL_PARAM t[] = {
		OSSL_PARAM_int(OSSL_EXCHANGE_PARAM_EC_ECDH_COFACTOR_MODE, NULL),
		OSSL_PARAM_utf8_string(OSSL_EXCHANGE_PARAM_KDF_TYPE, NULL, 0),
		OSSL_PARAM_END
	};

	(void)vctx;
	(void)provctx;
	return t;
}

static const OSSL_PARAM *x25519_settable(void *vctx, void *provctx)
{
	static const OSSL_PARAM t[] = { OSSL_PARAM_END };

	(void)vctx;
	(void)provctx;
	return t;
}

static int kex_init(void *vctx, void *provkey, const OSSL_PARAM params[])
{
	struct kex_ctx *c = vctx;
	struct ncrp_pkey *k = provkey;

	if (k == NULL || k->type != c->type || k->priv == NULL ||
	    k->pub == NULL) {
		ncrp_raise(NCR_R_NO_KEY, "%s derivation needs an ncr %s "
			   "private key", c->type == NCR_PKT_EC ?
			   NCRP_NAMES_ECDH : NCRP_SN_X25519,
			   ncrp_pk_ossl_name(c->type));
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

	if (k == NULL || k->type != c->type || k->pub == NULL) {
		ncrp_raise(NCR_R_PEER_KEY_MISMATCH, "the peer is not an %s "
			   "public key", ncrp_pk_ossl_name(c->type));
		return 0;
	}
	if (c->key != NULL && c->type == NCR_PKT_EC &&
	    EVP_PKEY_parameters_eq(c->key->pub, k->pub) != 1) {
		ncrp_raise(NCR_R_PEER_KEY_MISMATCH, "our key and the peer's "
			   "are on different curves");
		return 0;
	}
	ncrp_pkey_free(c->peer);
	c->peer = ncrp_pkey_ref(k);
	return 1;
}

/* The secret's length: the field's (x-coordinate) or X25519's. */
static size_t secret_len(const struct kex_ctx *c)
{
	if (c->type == NCR_PKT_X25519)
		return 32;
	return (size_t)(EVP_PKEY_get_bits(c->key->pub) + 7) / 8;
}

static int kex_derive(void *vctx, unsigned char *secret, size_t *secretlen,
		      size_t outlen)
{
	struct kex_ctx *c = vctx;
	unsigned char *peer = NULL, buf[80];
	size_t len, peer_len = 0;
	long n;
	int ok = 0;

	if (c->key == NULL || c->peer == NULL) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "key or peer not set");
		return 0;
	}
	len = secret_len(c);
	if (secret == NULL) {
		*secretlen = len;
		return 1;
	}
	if (outlen < len) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "output buffer too small "
			   "(%zu bytes, the secret is %zu)", outlen, len);
		return 0;
	}
	peer = ncrp_pkey_peer_value(c->peer, &peer_len);
	if (peer == NULL)
		return 0;
	n = ncrp_kernel_derive(c->key, NCR_DERIVE_ECDH, peer, peer_len, buf,
			       sizeof(buf));
	if (n >= 0 && (size_t)n != len) {
		ncrp_raise(NCR_R_KERNEL_OP_FAILED, "the kernel's secret is %ld "
			   "bytes, expected %zu", n, len);
	} else if (n >= 0) {
		memcpy(secret, buf, len);
		*secretlen = len;
		ok = 1;
	}
	OPENSSL_cleanse(buf, sizeof(buf));
	free(peer);
	return ok;
}

#define KEX_FUNCS(t)							\
const OSSL_DISPATCH ncrp_##t##_kex_functions[] = {			\
	{ OSSL_FUNC_KEYEXCH_NEWCTX, (void (*)(void))t##_newctx },	\
	{ OSSL_FUNC_KEYEXCH_FREECTX, (void (*)(void))kex_freectx },	\
	{ OSSL_FUNC_KEYEXCH_DUPCTX, (void (*)(void))kex_dupctx },	\
	{ OSSL_FUNC_KEYEXCH_INIT, (void (*)(void))kex_init },		\
	{ OSSL_FUNC_KEYEXCH_SET_PEER, (void (*)(void))kex_set_peer },	\
	{ OSSL_FUNC_KEYEXCH_DERIVE, (void (*)(void))kex_derive },	\
	{ OSSL_FUNC_KEYEXCH_SET_CTX_PARAMS,				\
	  (void (*)(void))kex_set_ctx_params },				\
	{ OSSL_FUNC_KEYEXCH_SETTABLE_CTX_PARAMS,			\
	  (void (*)(void))t##_settable },				\
	{ 0, NULL }							\
};

KEX_FUNCS(ecdh)
KEX_FUNCS(x25519)
