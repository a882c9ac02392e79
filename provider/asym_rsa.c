// SPDX-License-Identifier: GPL-2.0
/*
 * ASYM_CIPHER for RSA: PKCS#1 v1.5 and OAEP.  As for signatures, a shadow
 * context of the default provider on the public half holds and validates
 * the parameters and performs encryption (public); decryption reads the
 * settled parameters and runs in the kernel.  The kernel's OAEP takes no
 * label and uses the OAEP digest for MGF1: anything else is refused.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include "names.h"
#include "ncr_prov.h"
#include "rsa_params.h"

static OSSL_FUNC_asym_cipher_newctx_fn asym_newctx;
static OSSL_FUNC_asym_cipher_freectx_fn asym_freectx;
static OSSL_FUNC_asym_cipher_dupctx_fn asym_dupctx;
static OSSL_FUNC_asym_cipher_encrypt_init_fn asym_encrypt_init;
static OSSL_FUNC_asym_cipher_encrypt_fn asym_encrypt;
static OSSL_FUNC_asym_cipher_decrypt_init_fn asym_decrypt_init;
static OSSL_FUNC_asym_cipher_decrypt_fn asym_decrypt;
static OSSL_FUNC_asym_cipher_get_ctx_params_fn asym_get_ctx_params;
static OSSL_FUNC_asym_cipher_gettable_ctx_params_fn asym_gettable;
static OSSL_FUNC_asym_cipher_set_ctx_params_fn asym_set_ctx_params;
static OSSL_FUNC_asym_cipher_settable_ctx_params_fn asym_settable;

struct asym_ctx {
	struct ncrp_provctx *prov;
	struct ncrp_pkey *key;
	int decrypting;
	EVP_PKEY_CTX *shadow;		/* default provider, encrypt op */
};

static void *asym_newctx(void *provctx)
{
	struct asym_ctx *c = calloc(1, sizeof(*c));

	if (c == NULL) {
		ncrp_raise(NCR_R_MALLOC_FAILURE, "cipher context");
		return NULL;
	}
	c->prov = provctx;
	return c;
}

static void asym_freectx(void *vctx)
{
	struct asym_ctx *c = vctx;

	if (c == NULL)
		return;
	EVP_PKEY_CTX_free(c->shadow);
	ncrp_pkey_free(c->key);
	free(c);
}

static void *asym_dupctx(void *vctx)
{
	struct asym_ctx *src = vctx, *c = calloc(1, sizeof(*c));

	if (c == NULL)
		return NULL;
	*c = *src;
	c->key = ncrp_pkey_ref(src->key);
	c->shadow = NULL;
	if (src->shadow != NULL &&
	    (c->shadow = EVP_PKEY_CTX_dup(src->shadow)) == NULL) {
		asym_freectx(c);
		return NULL;
	}
	return c;
}

static int asym_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
	struct asym_ctx *c = vctx;

	if (params == NULL || params[0].key == NULL)
		return 1;
	if (c->shadow == NULL ||
	    EVP_PKEY_CTX_set_params(c->shadow, params) <= 0) {
		ncrp_raise(NCR_R_NOT_SUPPORTED, "invalid RSA cipher parameter");
		return 0;
	}
	return 1;
}

static int asym_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
	struct asym_ctx *c = vctx;

	return c->shadow != NULL &&
	       EVP_PKEY_CTX_get_params(c->shadow, params) > 0;
}

static const OSSL_PARAM *default_params(void *provctx, int settable)
{
	struct ncrp_provctx *prov = provctx;
	EVP_ASYM_CIPHER *a = EVP_ASYM_CIPHER_fetch(prov->swctx, "RSA", NULL);
	const OSSL_PARAM *t;

	if (a == NULL)
		return NULL;
	t = settable ? EVP_ASYM_CIPHER_settable_ctx_params(a)
		     : EVP_ASYM_CIPHER_gettable_ctx_params(a);
	EVP_ASYM_CIPHER_free(a);
	return t;
}

static const OSSL_PARAM *asym_settable(void *vctx, void *provctx)
{
	(void)vctx;
	return default_params(provctx, 1);
}

static const OSSL_PARAM *asym_gettable(void *vctx, void *provctx)
{
	(void)vctx;
	return default_params(provctx, 0);
}

static int asym_init(struct asym_ctx *c, void *provkey,
		     const OSSL_PARAM params[], int decrypting)
{
	struct ncrp_pkey *k = provkey;

	if (k == NULL || k->type != NCR_PKT_RSA || k->pub == NULL) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "not an ncr RSA key");
		return 0;
	}
	if (decrypting && k->priv == NULL) {
		ncrp_raise(NCR_R_NO_KEY, "decryption needs a kernel private "
			   "key (this is a public key)");
		return 0;
	}
	ncrp_pkey_ref(k);
	ncrp_pkey_free(c->key);
	c->key = k;
	c->decrypting = decrypting;
	EVP_PKEY_CTX_free(c->shadow);
	c->shadow = EVP_PKEY_CTX_new_from_pkey(c->prov->swctx, k->pub, NULL);
	if (c->shadow == NULL || EVP_PKEY_encrypt_init(c->shadow) <= 0) {
		ncrp_raise(NCR_R_KERNEL_OP_FAILED, "cannot set up parameters");
		return 0;
	}
	return asym_set_ctx_params(c, params);
}

static int asym_encrypt_init(void *vctx, void *provkey,
			     const OSSL_PARAM params[])
{
	return asym_init(vctx, provkey, params, 0);
}

static int asym_decrypt_init(void *vctx, void *provkey,
			     const OSSL_PARAM params[])
{
	return asym_init(vctx, provkey, params, 1);
}

static int asym_encrypt(void *vctx, unsigned char *out, size_t *outlen,
			size_t outsize, const unsigned char *in, size_t inlen)
{
	struct asym_ctx *c = vctx;

	if (c->shadow == NULL)
		return 0;
	if (out != NULL)
		*outlen = outsize;
	return EVP_PKEY_encrypt(c->shadow, out, outlen, in, inlen) > 0;
}

static int asym_decrypt(void *vctx, unsigned char *out, size_t *outlen,
			size_t outsize, const unsigned char *in, size_t inlen)
{
	struct asym_ctx *c = vctx;
	struct ncrp_rsa_settled s;
	struct ncrlib_sess_params p;
	struct ncrlib_io io = { .in = in, .in_len = inlen, .out = out,
				.out_cap = outsize };
	long r;

	if (c->key == NULL || !c->decrypting) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "not initialised to decrypt");
		return 0;
	}
	if (out == NULL) {
		*outlen = (size_t)EVP_PKEY_get_size(c->key->pub);
		return 1;
	}
	ncrp_rsa_read_dec(c->shadow, &s);
	ncrlib_sess_params_init(&p, NCR_OP_DECRYPT, "rsa");
	p.key = c->key->priv->key;
	if (!ncrp_rsa_dec_params(c->prov, &s, &p))
		return 0;
	r = ncrlib_session_once(ncrlib_dev_fd(), &p, &io);
	if (r < 0) {
		if (r == -EBADMSG || r == -EINVAL)
			ncrp_raise(NCR_R_BAD_DECRYPT, "RSA decryption failed");
		else
			ncrp_raise_errno("kernel RSA decryption", (int)-r);
		return 0;
	}
	*outlen = io.out_len;
	return 1;
}

static const OSSL_DISPATCH rsa_asym_functions[] = {
	{ OSSL_FUNC_ASYM_CIPHER_NEWCTX, (void (*)(void))asym_newctx },
	{ OSSL_FUNC_ASYM_CIPHER_FREECTX, (void (*)(void))asym_freectx },
	{ OSSL_FUNC_ASYM_CIPHER_DUPCTX, (void (*)(void))asym_dupctx },
	{ OSSL_FUNC_ASYM_CIPHER_ENCRYPT_INIT,
	  (void (*)(void))asym_encrypt_init },
	{ OSSL_FUNC_ASYM_CIPHER_ENCRYPT, (void (*)(void))asym_encrypt },
	{ OSSL_FUNC_ASYM_CIPHER_DECRYPT_INIT,
	  (void (*)(void))asym_decrypt_init },
	{ OSSL_FUNC_ASYM_CIPHER_DECRYPT, (void (*)(void))asym_decrypt },
	{ OSSL_FUNC_ASYM_CIPHER_GET_CTX_PARAMS,
	  (void (*)(void))asym_get_ctx_params },
	{ OSSL_FUNC_ASYM_CIPHER_GETTABLE_CTX_PARAMS,
	  (void (*)(void))asym_gettable },
	{ OSSL_FUNC_ASYM_CIPHER_SET_CTX_PARAMS,
	  (void (*)(void))asym_set_ctx_params },
	{ OSSL_FUNC_ASYM_CIPHER_SETTABLE_CTX_PARAMS,
	  (void (*)(void))asym_settable },
	{ 0, NULL }
};

const OSSL_ALGORITHM ncrp_asym_ciphers[] = {
	{ NCRP_NAMES_RSA, NCRP_PROPS,
	  rsa_asym_functions, "RSA PKCS#1 v1.5 / OAEP, kernel-held key" },
	{ NULL, NULL, NULL, NULL }
};
