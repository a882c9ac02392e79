// SPDX-License-Identifier: GPL-2.0
/*
 * SIGNATURE for RSA (PKCS#1 v1.5, PSS), DSA and ECDSA.
 *
 * Parameters are kept by a "shadow" verify context of the default
 * provider on the key's public half (a copy of one made per key): it
 * validates and stores every parameter exactly as OpenSSL does (saltlen
 * "digest"/"max"/"auto", pad modes, mgf1) and computes the
 * AlgorithmIdentifier for X.509.  Verify runs there (public operation).
 * Sign reads the settled parameters back and has the kernel sign the
 * digest (NCR_ATTR_SIGNATURE_INPUT_IS_DIGEST); digest_sign hashes here in
 * user space, which avoids copying the message into the kernel, and signs
 * the digest the same way.
 *
 * OpenSSL 3.4 added signature algorithms with the digest fixed
 * ("RSA-SHA2-256", "ECDSA-SHA2-384"; sigalgs) and the message operations
 * (EVP_PKEY_sign_message_init/_update/_final) that reach them; they run
 * on the same context with the digest set at init.  Built when the
 * headers have them, as pkcs11-provider does.
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

static OSSL_FUNC_signature_freectx_fn sig_freectx;
static OSSL_FUNC_signature_dupctx_fn sig_dupctx;
static OSSL_FUNC_signature_sign_init_fn sig_sign_init;
static OSSL_FUNC_signature_sign_fn sig_sign;
static OSSL_FUNC_signature_verify_init_fn sig_verify_init;
static OSSL_FUNC_signature_verify_fn sig_verify;
static OSSL_FUNC_signature_digest_sign_init_fn sig_dsign_init;
static OSSL_FUNC_signature_digest_sign_update_fn sig_dupdate;
static OSSL_FUNC_signature_digest_sign_final_fn sig_dsign_final;
static OSSL_FUNC_signature_digest_verify_init_fn sig_dverify_init;
static OSSL_FUNC_signature_digest_verify_final_fn sig_dverify_final;
static OSSL_FUNC_signature_digest_sign_fn sig_dsign;
static OSSL_FUNC_signature_digest_verify_fn sig_dverify;
static OSSL_FUNC_signature_get_ctx_params_fn sig_get_ctx_params;
static OSSL_FUNC_signature_set_ctx_params_fn sig_set_ctx_params;
static OSSL_FUNC_signature_newctx_fn rsa_sig_newctx;
static OSSL_FUNC_signature_newctx_fn dsa_sig_newctx;
static OSSL_FUNC_signature_settable_ctx_params_fn rsa_settable;
static OSSL_FUNC_signature_gettable_ctx_params_fn rsa_gettable;
static OSSL_FUNC_signature_settable_ctx_params_fn dsa_settable;
static OSSL_FUNC_signature_gettable_ctx_params_fn dsa_gettable;
static OSSL_FUNC_signature_newctx_fn ecdsa_sig_newctx;
static OSSL_FUNC_signature_settable_ctx_params_fn ecdsa_settable;
static OSSL_FUNC_signature_gettable_ctx_params_fn ecdsa_gettable;

struct sig_ctx {
	struct ncrp_provctx *prov;
	int type;			/* NCR_PKT_RSA, _DSA, _EC */
	struct ncrp_pkey *key;
	int signing;
	EVP_PKEY_CTX *shadow;		/* default provider, verify op */
	EVP_MD_CTX *mdctx;		/* digest_sign/verify */
	const char *fixed_md;		/* a sigalg's digest, else NULL */
	int message;			/* sign/verify_message_init */
	unsigned char *vsig;		/* the signature verify_message */
	size_t vsiglen;			/*   _final checks */
};

static void *sig_newctx(struct ncrp_provctx *prov, int type)
{
	struct sig_ctx *c = calloc(1, sizeof(*c));

	if (c == NULL) {
		ncrp_raise(NCR_R_MALLOC_FAILURE, "signature context");
		return NULL;
	}
	c->prov = prov;
	c->type = type;
	return c;
}

static void *rsa_sig_newctx(void *provctx, const char *propq)
{
	(void)propq;
	return sig_newctx(provctx, NCR_PKT_RSA);
}

static void *dsa_sig_newctx(void *provctx, const char *propq)
{
	(void)propq;
	return sig_newctx(provctx, NCR_PKT_DSA);
}

static void *ecdsa_sig_newctx(void *provctx, const char *propq)
{
	(void)propq;
	return sig_newctx(provctx, NCR_PKT_EC);
}

/* The default provider's name of the signature of each key type. */
static const char *sig_name(int type)
{
	return type == NCR_PKT_EC ? NCRP_NAMES_ECDSA : ncrp_pk_ossl_name(type);
}

static void sig_reset(struct sig_ctx *c)
{
	EVP_PKEY_CTX_free(c->shadow);
	c->shadow = NULL;
	EVP_MD_CTX_free(c->mdctx);
	c->mdctx = NULL;
	free(c->vsig);
	c->vsig = NULL;
	c->vsiglen = 0;
	c->message = 0;
	ncrp_pkey_free(c->key);
	c->key = NULL;
}

/* A copy of the signature that verify_message_final is to check. */
static int sig_keep_signature(struct sig_ctx *c, const void *sig, size_t len)
{
	/* one spare byte: an empty signature still has a buffer */
	unsigned char *copy = malloc(len + 1);

	if (copy == NULL) {
		ncrp_raise(NCR_R_MALLOC_FAILURE, "signature");
		return 0;
	}
	memcpy(copy, sig, len);
	free(c->vsig);
	c->vsig = copy;
	c->vsiglen = len;
	return 1;
}

static void sig_freectx(void *vctx)
{
	struct sig_ctx *c = vctx;

	if (c == NULL)
		return;
	sig_reset(c);
	free(c);
}

static void *sig_dupctx(void *vctx)
{
	struct sig_ctx *src = vctx, *c;

	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return NULL;
	*c = *src;
	c->shadow = NULL;
	c->mdctx = NULL;
	c->vsig = NULL;
	c->key = ncrp_pkey_ref(src->key);
	if (src->vsig != NULL &&
	    !sig_keep_signature(c, src->vsig, src->vsiglen))
		goto fail;
	if (src->shadow != NULL &&
	    (c->shadow = EVP_PKEY_CTX_dup(src->shadow)) == NULL)
		goto fail;
	if (src->mdctx != NULL &&
	    ((c->mdctx = EVP_MD_CTX_new()) == NULL ||
	     !EVP_MD_CTX_copy_ex(c->mdctx, src->mdctx)))
		goto fail;
	return c;
fail:
	sig_freectx(c);
	return NULL;
}

static int sig_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
	struct sig_ctx *c = vctx;

	if (params == NULL || params[0].key == NULL)
		return 1;
	if (c->shadow == NULL) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "signature not initialised");
		return 0;
	}
	if (EVP_PKEY_CTX_set_params(c->shadow, params) <= 0) {
		ncrp_raise(NCR_R_NOT_SUPPORTED, "invalid signature parameter");
		return 0;
	}
	return 1;
}

static int sig_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
	struct sig_ctx *c = vctx;

	if (c->shadow == NULL)
		return 0;
	return EVP_PKEY_CTX_get_params(c->shadow, params) > 0;
}

static const OSSL_PARAM *default_params(struct ncrp_provctx *prov, int type,
					int settable)
{
	EVP_SIGNATURE *s = EVP_SIGNATURE_fetch(prov->swctx, sig_name(type),
					       NULL);
	const OSSL_PARAM *t;

	if (s == NULL)
		return NULL;
	/* Static tables of the default provider, which stays loaded. */
	t = settable ? EVP_SIGNATURE_settable_ctx_params(s)
		     : EVP_SIGNATURE_gettable_ctx_params(s);
	EVP_SIGNATURE_free(s);
	return t;
}

static const OSSL_PARAM *rsa_settable(void *vctx, void *provctx)
{
	(void)vctx;
	return default_params(provctx, NCR_PKT_RSA, 1);
}

static const OSSL_PARAM *rsa_gettable(void *vctx, void *provctx)
{
	(void)vctx;
	return default_params(provctx, NCR_PKT_RSA, 0);
}

static const OSSL_PARAM *dsa_settable(void *vctx, void *provctx)
{
	(void)vctx;
	return default_params(provctx, NCR_PKT_DSA, 1);
}

static const OSSL_PARAM *dsa_gettable(void *vctx, void *provctx)
{
	(void)vctx;
	return default_params(provctx, NCR_PKT_DSA, 0);
}

static const OSSL_PARAM *ecdsa_settable(void *vctx, void *provctx)
{
	(void)vctx;
	return default_params(provctx, NCR_PKT_EC, 1);
}

static const OSSL_PARAM *ecdsa_gettable(void *vctx, void *provctx)
{
	(void)vctx;
	return default_params(provctx, NCR_PKT_EC, 0);
}

/*
 * ECDSA signs a digest of any length (truncated to the order's bits), so
 * OpenSSL signs without a digest parameter: the kernel, which wants one,
 * gets the hash of that length (the hash matters to the nonce only).
 */
static const char *ecdsa_md_by_size(size_t len)
{
	switch (len) {
	case 20:
		return "SHA1";
	case 28:
		return "SHA2-224";
	case 32:
		return "SHA2-256";
	case 48:
		return "SHA2-384";
	case 64:
		return "SHA2-512";
	}
	return NULL;
}

static EVP_PKEY_CTX *verify_ctx(struct ncrp_provctx *prov, EVP_PKEY *pub)
{
	EVP_PKEY_CTX *t = EVP_PKEY_CTX_new_from_pkey(prov->swctx, pub, NULL);

	if (t != NULL && EVP_PKEY_verify_init(t) > 0)
		return t;
	EVP_PKEY_CTX_free(t);
	return NULL;
}

/*
 * A fresh verify context of the default provider on k->pub: a copy of the
 * key's template, which is made on first use (a copy costs a small part of
 * a new context's fetches and set-up, measurable per TLS handshake).
 */
static EVP_PKEY_CTX *shadow_new(struct ncrp_provctx *prov,
				struct ncrp_pkey *k)
{
	EVP_PKEY_CTX *t = __atomic_load_n(&k->sig_template, __ATOMIC_ACQUIRE);
	EVP_PKEY_CTX *none = NULL;

	if (t == NULL) {
		t = verify_ctx(prov, k->pub);
		if (t == NULL)
			return NULL;
		/* another thread may have been first: keep its template */
		if (!__atomic_compare_exchange_n(&k->sig_template, &none, t,
						 0, __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE)) {
			EVP_PKEY_CTX_free(t);
			t = none;
		}
	}
	/* the public half replaced since (an import into the key) */
	if (EVP_PKEY_CTX_get0_pkey(t) != k->pub)
		return verify_ctx(prov, k->pub);
	return EVP_PKEY_CTX_dup(t);
}

static int sig_init(struct sig_ctx *c, void *provkey, const OSSL_PARAM params[],
		    int signing)
{
	struct ncrp_pkey *k = provkey;

	if (k == NULL) {
		if (c->key == NULL) {
			ncrp_raise(NCR_R_NO_KEY, "no key");
			return 0;
		}
		k = c->key;	/* re-init with the same key */
	}
	if (k->type != c->type || k->pub == NULL) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "not an ncr %s key",
			   ncrp_pk_ossl_name(c->type));
		return 0;
	}
	if (signing && k->priv == NULL) {
		ncrp_raise(NCR_R_NO_KEY, "signing needs a kernel private key "
			   "(this is a public key)");
		return 0;
	}
	ncrp_pkey_ref(k);
	sig_reset(c);
	c->key = k;
	c->signing = signing;
	c->shadow = shadow_new(c->prov, k);
	if (c->shadow == NULL) {
		ncrp_raise(NCR_R_KERNEL_OP_FAILED, "cannot set up parameters");
		return 0;
	}
	return sig_set_ctx_params(c, params);
}

static int sig_sign_init(void *vctx, void *provkey, const OSSL_PARAM params[])
{
	return sig_init(vctx, provkey, params, 1);
}

static int sig_verify_init(void *vctx, void *provkey,
			   const OSSL_PARAM params[])
{
	return sig_init(vctx, provkey, params, 0);
}

/* The kernel's session parameters for signing a @tbslen-byte digest. */
static int sig_kernel_params(struct sig_ctx *c, size_t tbslen,
			     struct ncrlib_sess_params *p)
{
	struct ncrp_rsa_settled s;
	size_t mdsize = 0;

	ncrp_rsa_read_sig(c->shadow, c->type == NCR_PKT_RSA, &s);
	ncrlib_sess_params_init(p, NCR_OP_SIGN, ncrp_pk_kernel_name(c->type));
	p->key = c->key->priv->key;
	p->input_is_digest = 1;
	if (s.md[0] == '\0' && c->type == NCR_PKT_EC &&
	    ecdsa_md_by_size(tbslen) != NULL)
		strcpy(s.md, ecdsa_md_by_size(tbslen));
	if (s.md[0] == '\0') {
		ncrp_raise(NCR_R_NOT_SUPPORTED, "signing needs a digest (e.g. "
			   "-pkeyopt digest:sha256): the kernel signs digests, "
			   "not raw data");
		return 0;
	}
	p->sig_hash = ncrp_md_kernel_name(c->prov, s.md, &mdsize);
	if (p->sig_hash == NULL) {
		ncrp_raise(NCR_R_NOT_SUPPORTED, "digest %s", s.md);
		return 0;
	}
	if (tbslen != mdsize) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "input is %zu bytes, a %s "
			   "digest is %zu", tbslen, s.md, mdsize);
		return 0;
	}
	return c->type != NCR_PKT_RSA ||
	       ncrp_rsa_sig_params(c->prov, &s, c->key->pub, mdsize, p);
}

static int kernel_sign(struct sig_ctx *c, unsigned char *sig, size_t *siglen,
		       size_t sigsize, const unsigned char *tbs, size_t tbslen)
{
	struct ncrlib_sess_params p;
	struct ncrlib_io io = { .in = tbs, .in_len = tbslen, .fin_out = sig,
				.fin_out_cap = sigsize };
	long r;

	if (!sig_kernel_params(c, tbslen, &p))
		return 0;
	r = ncrlib_session_once(ncrlib_dev_fd(), &p, &io);
	if (r < 0) {
		ncrp_raise_errno("kernel signing", (int)-r);
		return 0;
	}
	*siglen = io.fin_out_len;
	return 1;
}

static int sig_sign(void *vctx, unsigned char *sig, size_t *siglen,
		    size_t sigsize, const unsigned char *tbs, size_t tbslen)
{
	struct sig_ctx *c = vctx;

	if (c->key == NULL || !c->signing) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "not initialised for signing");
		return 0;
	}
	if (sig == NULL) {
		*siglen = (size_t)EVP_PKEY_get_size(c->key->pub);
		return 1;
	}
	return kernel_sign(c, sig, siglen, sigsize, tbs, tbslen);
}

static int sig_verify(void *vctx, const unsigned char *sig, size_t siglen,
		      const unsigned char *tbs, size_t tbslen)
{
	struct sig_ctx *c = vctx;

	if (c->shadow == NULL) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "not initialised");
		return 0;
	}
	return EVP_PKEY_verify(c->shadow, sig, siglen, tbs, tbslen) == 1;
}

static int digest_init(struct sig_ctx *c, const char *mdname, void *provkey,
		       const OSSL_PARAM params[], int signing)
{
	EVP_MD *md;
	OSSL_PARAM p[2];

	if (!sig_init(c, provkey, params, signing))
		return 0;
	if (mdname == NULL || mdname[0] == '\0')
		mdname = "SHA256";
	md = EVP_MD_fetch(c->prov->swctx, mdname, NULL);
	if (md == NULL) {
		ncrp_raise(NCR_R_NOT_SUPPORTED, "digest %s", mdname);
		return 0;
	}
	p[0] = OSSL_PARAM_construct_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST,
						(char *)EVP_MD_get0_name(md),
						0);
	p[1] = OSSL_PARAM_construct_end();
	c->mdctx = EVP_MD_CTX_new();
	if (c->mdctx == NULL || !EVP_DigestInit_ex2(c->mdctx, md, NULL) ||
	    !sig_set_ctx_params(c, p)) {
		EVP_MD_free(md);
		return 0;
	}
	EVP_MD_free(md);
	return 1;
}

static int sig_dsign_init(void *vctx, const char *mdname, void *provkey,
			  const OSSL_PARAM params[])
{
	return digest_init(vctx, mdname, provkey, params, 1);
}

static int sig_dverify_init(void *vctx, const char *mdname, void *provkey,
			    const OSSL_PARAM params[])
{
	return digest_init(vctx, mdname, provkey, params, 0);
}

static int sig_dupdate(void *vctx, const unsigned char *data, size_t len)
{
	struct sig_ctx *c = vctx;

	if (c->mdctx == NULL)
		return 0;
	return EVP_DigestUpdate(c->mdctx, data, len);
}

static int sig_dsign_final(void *vctx, unsigned char *sig, size_t *siglen,
			   size_t sigsize)
{
	struct sig_ctx *c = vctx;
	unsigned char dgst[EVP_MAX_MD_SIZE];
	unsigned int dlen;

	if (c->mdctx == NULL || c->key == NULL)
		return 0;
	if (sig == NULL) {
		*siglen = (size_t)EVP_PKEY_get_size(c->key->pub);
		return 1;
	}
	if (!EVP_DigestFinal_ex(c->mdctx, dgst, &dlen))
		return 0;
	return kernel_sign(c, sig, siglen, sigsize, dgst, dlen);
}

static int sig_dverify_final(void *vctx, const unsigned char *sig,
			     size_t siglen)
{
	struct sig_ctx *c = vctx;
	unsigned char dgst[EVP_MAX_MD_SIZE];
	unsigned int dlen;

	if (c->mdctx == NULL || !EVP_DigestFinal_ex(c->mdctx, dgst, &dlen))
		return 0;
	return sig_verify(c, sig, siglen, dgst, dlen);
}

/*
 * One-shot forms: without them EVP_DigestSign (TLS's CertificateVerify
 * among others) duplicates the context before the final step.
 */
static int sig_dsign(void *vctx, unsigned char *sig, size_t *siglen,
		     size_t sigsize, const unsigned char *tbs, size_t tbslen)
{
	if (sig != NULL && !sig_dupdate(vctx, tbs, tbslen))
		return 0;
	return sig_dsign_final(vctx, sig, siglen, sigsize);
}

static int sig_dverify(void *vctx, const unsigned char *sig, size_t siglen,
		       const unsigned char *tbs, size_t tbslen)
{
	return sig_dupdate(vctx, tbs, tbslen) &&
	       sig_dverify_final(vctx, sig, siglen);
}

#define SIG_FUNCS(t)							\
static const OSSL_DISPATCH t##_signature_functions[] = {		\
	{ OSSL_FUNC_SIGNATURE_NEWCTX, (void (*)(void))t##_sig_newctx },	\
	{ OSSL_FUNC_SIGNATURE_FREECTX, (void (*)(void))sig_freectx },	\
	{ OSSL_FUNC_SIGNATURE_DUPCTX, (void (*)(void))sig_dupctx },	\
	{ OSSL_FUNC_SIGNATURE_SIGN_INIT, (void (*)(void))sig_sign_init },\
	{ OSSL_FUNC_SIGNATURE_SIGN, (void (*)(void))sig_sign },		\
	{ OSSL_FUNC_SIGNATURE_VERIFY_INIT,				\
	  (void (*)(void))sig_verify_init },				\
	{ OSSL_FUNC_SIGNATURE_VERIFY, (void (*)(void))sig_verify },	\
	{ OSSL_FUNC_SIGNATURE_DIGEST_SIGN_INIT,				\
	  (void (*)(void))sig_dsign_init },				\
	{ OSSL_FUNC_SIGNATURE_DIGEST_SIGN_UPDATE,			\
	  (void (*)(void))sig_dupdate },				\
	{ OSSL_FUNC_SIGNATURE_DIGEST_SIGN_FINAL,			\
	  (void (*)(void))sig_dsign_final },				\
	{ OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_INIT,			\
	  (void (*)(void))sig_dverify_init },				\
	{ OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_UPDATE,			\
	  (void (*)(void))sig_dupdate },				\
	{ OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_FINAL,			\
	  (void (*)(void))sig_dverify_final },				\
	{ OSSL_FUNC_SIGNATURE_DIGEST_SIGN, (void (*)(void))sig_dsign },	\
	{ OSSL_FUNC_SIGNATURE_DIGEST_VERIFY,				\
	  (void (*)(void))sig_dverify },				\
	{ OSSL_FUNC_SIGNATURE_GET_CTX_PARAMS,				\
	  (void (*)(void))sig_get_ctx_params },				\
	{ OSSL_FUNC_SIGNATURE_GETTABLE_CTX_PARAMS,			\
	  (void (*)(void))t##_gettable },				\
	{ OSSL_FUNC_SIGNATURE_SET_CTX_PARAMS,				\
	  (void (*)(void))sig_set_ctx_params },				\
	{ OSSL_FUNC_SIGNATURE_SETTABLE_CTX_PARAMS,			\
	  (void (*)(void))t##_settable },				\
	{ 0, NULL }							\
};

SIG_FUNCS(rsa)
SIG_FUNCS(dsa)
SIG_FUNCS(ecdsa)

#ifdef OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_INIT
static OSSL_FUNC_signature_sign_init_fn sigalg_sign_init;
static OSSL_FUNC_signature_sign_fn sigalg_sign;
static OSSL_FUNC_signature_verify_init_fn sigalg_verify_init;
static OSSL_FUNC_signature_verify_fn sigalg_verify;
static OSSL_FUNC_signature_sign_message_init_fn sigalg_sign_message_init;
static OSSL_FUNC_signature_verify_message_init_fn sigalg_verify_message_init;
static OSSL_FUNC_signature_verify_message_final_fn sigalg_verify_message_final;
static OSSL_FUNC_signature_set_ctx_params_fn sigalg_set_ctx_params;
static OSSL_FUNC_signature_settable_ctx_params_fn sigalg_settable;

/*
 * A sigalg's context: the digest is fixed, and so is the scheme (PKCS#1
 * v1.5 for RSA, as in the default provider).  The one parameter is the
 * signature that verify_message_final checks; one that the plain
 * algorithm takes (digest, padding, salt length, nonce type) is refused
 * rather than ignored, so that no caller believes it got another scheme.
 */
static int sigalg_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
	struct sig_ctx *c = vctx;
	const OSSL_PARAM *p, *plain;
	void *buf = NULL;
	size_t len = 0;
	int ok;

	if (params == NULL || params[0].key == NULL)
		return 1;	/* every init: no lookup */
	plain = default_params(c->prov, c->type, 1);
	for (p = params; p->key != NULL; p++)
		if (strcmp(p->key, OSSL_SIGNATURE_PARAM_SIGNATURE) &&
		    OSSL_PARAM_locate_const(plain, p->key) != NULL) {
			ncrp_raise(NCR_R_NOT_SUPPORTED, "%s is fixed by the "
				   "signature algorithm", p->key);
			return 0;
		}
	p = OSSL_PARAM_locate_const(params, OSSL_SIGNATURE_PARAM_SIGNATURE);
	if (p == NULL)
		return 1;
	if (c->key == NULL || c->signing || !c->message) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "a signature is set only "
			   "for verify_message");
		return 0;
	}
	if (!OSSL_PARAM_get_octet_string(p, &buf, 0, &len)) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "signature parameter");
		return 0;
	}
	ok = sig_keep_signature(c, buf, len);
	OPENSSL_free(buf);
	return ok;
}

static const OSSL_PARAM *sigalg_settable(void *vctx, void *provctx)
{
	static const OSSL_PARAM t[] = {
		OSSL_PARAM_octet_string(OSSL_SIGNATURE_PARAM_SIGNATURE, NULL,
					0),
		OSSL_PARAM_END
	};

	(void)vctx;
	(void)provctx;
	return t;
}

/*
 * Init with the fixed digest: for sign/verify the input is that digest,
 * for sign/verify_message the message, hashed here.
 */
static int sigalg_init(void *vctx, void *provkey, const OSSL_PARAM params[],
		       int signing, int message)
{
	struct sig_ctx *c = vctx;

	if (!digest_init(c, c->fixed_md, provkey, NULL, signing))
		return 0;
	c->message = message;
	return sigalg_set_ctx_params(c, params);
}

static int sigalg_sign_init(void *vctx, void *provkey,
			    const OSSL_PARAM params[])
{
	return sigalg_init(vctx, provkey, params, 1, 0);
}

static int sigalg_verify_init(void *vctx, void *provkey,
			      const OSSL_PARAM params[])
{
	return sigalg_init(vctx, provkey, params, 0, 0);
}

static int sigalg_sign_message_init(void *vctx, void *provkey,
				    const OSSL_PARAM params[])
{
	return sigalg_init(vctx, provkey, params, 1, 1);
}

static int sigalg_verify_message_init(void *vctx, void *provkey,
				      const OSSL_PARAM params[])
{
	return sigalg_init(vctx, provkey, params, 0, 1);
}

/* EVP_PKEY_sign after sign_message_init signs the whole message. */
static int sigalg_sign(void *vctx, unsigned char *sig, size_t *siglen,
		       size_t sigsize, const unsigned char *tbs, size_t tbslen)
{
	struct sig_ctx *c = vctx;

	if (!c->message)
		return sig_sign(c, sig, siglen, sigsize, tbs, tbslen);
	return sig_dsign(c, sig, siglen, sigsize, tbs, tbslen);
}

static int sigalg_verify(void *vctx, const unsigned char *sig, size_t siglen,
			 const unsigned char *tbs, size_t tbslen)
{
	struct sig_ctx *c = vctx;

	if (!c->message)
		return sig_verify(c, sig, siglen, tbs, tbslen);
	return sig_dverify(c, sig, siglen, tbs, tbslen);
}

static int sigalg_verify_message_final(void *vctx)
{
	struct sig_ctx *c = vctx;

	if (c->vsig == NULL) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "no signature to verify "
			   "(EVP_PKEY_CTX_set_signature)");
		return 0;
	}
	return sig_dverify_final(c, c->vsig, c->vsiglen);
}

static const char **rsa_key_types(void)
{
	static const char *t[] = { "RSA", NULL };

	return t;
}

static const char **dsa_key_types(void)
{
	static const char *t[] = { "DSA", NULL };

	return t;
}

static const char **ecdsa_key_types(void)
{
	static const char *t[] = { "EC", NULL };

	return t;
}

/*
 * Every sigalg once: key type, digest, the digest's OpenSSL name.  No
 * SHA-3: the kernel's signing hashes are SHA-1 and SHA-2 (CRYPTO(4)).
 */
#define NCRP_SIGALGS(X)							\
	X(RSA, rsa, SHA1, sha1, "SHA1")					\
	X(RSA, rsa, SHA224, sha224, "SHA2-224")				\
	X(RSA, rsa, SHA256, sha256, "SHA2-256")				\
	X(RSA, rsa, SHA384, sha384, "SHA2-384")				\
	X(RSA, rsa, SHA512, sha512, "SHA2-512")				\
	X(DSA, dsa, SHA1, sha1, "SHA1")					\
	X(DSA, dsa, SHA224, sha224, "SHA2-224")				\
	X(DSA, dsa, SHA256, sha256, "SHA2-256")				\
	X(DSA, dsa, SHA384, sha384, "SHA2-384")				\
	X(DSA, dsa, SHA512, sha512, "SHA2-512")				\
	X(ECDSA, ecdsa, SHA1, sha1, "SHA1")				\
	X(ECDSA, ecdsa, SHA224, sha224, "SHA2-224")			\
	X(ECDSA, ecdsa, SHA256, sha256, "SHA2-256")			\
	X(ECDSA, ecdsa, SHA384, sha384, "SHA2-384")			\
	X(ECDSA, ecdsa, SHA512, sha512, "SHA2-512")

#define SIGALG_FUNCS(T, t, MD, md, mdname)				\
static void *t##_##md##_newctx(void *provctx, const char *propq)	\
{									\
	struct sig_ctx *c = t##_sig_newctx(provctx, propq);		\
									\
	if (c != NULL)							\
		c->fixed_md = mdname;					\
	return c;							\
}									\
static const OSSL_DISPATCH t##_##md##_signature_functions[] = {	\
	{ OSSL_FUNC_SIGNATURE_NEWCTX, (void (*)(void))t##_##md##_newctx },\
	{ OSSL_FUNC_SIGNATURE_FREECTX, (void (*)(void))sig_freectx },	\
	{ OSSL_FUNC_SIGNATURE_DUPCTX, (void (*)(void))sig_dupctx },	\
	{ OSSL_FUNC_SIGNATURE_SIGN_INIT, (void (*)(void))sigalg_sign_init },\
	{ OSSL_FUNC_SIGNATURE_SIGN, (void (*)(void))sigalg_sign },	\
	{ OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_INIT,			\
	  (void (*)(void))sigalg_sign_message_init },			\
	{ OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_UPDATE,			\
	  (void (*)(void))sig_dupdate },				\
	{ OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_FINAL,			\
	  (void (*)(void))sig_dsign_final },				\
	{ OSSL_FUNC_SIGNATURE_VERIFY_INIT,				\
	  (void (*)(void))sigalg_verify_init },				\
	{ OSSL_FUNC_SIGNATURE_VERIFY, (void (*)(void))sigalg_verify },	\
	{ OSSL_FUNC_SIGNATURE_VERIFY_MESSAGE_INIT,			\
	  (void (*)(void))sigalg_verify_message_init },			\
	{ OSSL_FUNC_SIGNATURE_VERIFY_MESSAGE_UPDATE,			\
	  (void (*)(void))sig_dupdate },				\
	{ OSSL_FUNC_SIGNATURE_VERIFY_MESSAGE_FINAL,			\
	  (void (*)(void))sigalg_verify_message_final },		\
	{ OSSL_FUNC_SIGNATURE_QUERY_KEY_TYPES,				\
	  (void (*)(void))t##_key_types },				\
	{ OSSL_FUNC_SIGNATURE_GET_CTX_PARAMS,				\
	  (void (*)(void))sig_get_ctx_params },				\
	{ OSSL_FUNC_SIGNATURE_GETTABLE_CTX_PARAMS,			\
	  (void (*)(void))t##_gettable },				\
	{ OSSL_FUNC_SIGNATURE_SET_CTX_PARAMS,				\
	  (void (*)(void))sigalg_set_ctx_params },			\
	{ OSSL_FUNC_SIGNATURE_SETTABLE_CTX_PARAMS,			\
	  (void (*)(void))sigalg_settable },				\
	{ 0, NULL }							\
};

NCRP_SIGALGS(SIGALG_FUNCS)

#define SIGALG_ENTRY(T, t, MD, md, mdname)				\
	{ NCRP_NAMES_##T##_##MD, NCRP_PROPS,				\
	  t##_##md##_signature_functions,				\
	  #T " with " mdname ", kernel-held key" },
#define SIGALGS NCRP_SIGALGS(SIGALG_ENTRY)
#else
#define SIGALGS
#endif

const OSSL_ALGORITHM ncrp_signatures[] = {
	{ NCRP_NAMES_RSA, NCRP_PROPS,
	  rsa_signature_functions, "RSA PKCS#1 v1.5 / PSS, kernel-held key" },
	{ NCRP_NAMES_DSA, NCRP_PROPS,
	  dsa_signature_functions, "DSA, kernel-held key" },
	{ NCRP_NAMES_ECDSA, NCRP_PROPS,
	  ecdsa_signature_functions, "ECDSA (P-256, P-384), kernel-held key" },
	SIGALGS
	{ NULL, NULL, NULL, NULL }
};
