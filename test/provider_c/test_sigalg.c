// SPDX-License-Identifier: GPL-2.0
/*
 * OpenSSL 3.4's signature algorithms with the digest fixed ("RSA-SHA2-256")
 * and the message operations that reach them, with a kernel-held key:
 * every way to sign through ncr must give a signature that the stock
 * provider verifies with the public key alone; ncr's verify must accept
 * those and refuse a changed one; a sigalg of another key type, and the
 * default provider's sigalg (which gets only the public half), must not
 * sign.  Exits 77 when this OpenSSL has no message signing.
 *   test_sigalg KEYFILE PUBFILE SIGALG=DIGEST... [!OTHER-SIGALG...]
 */
#include <stdio.h>
#include <string.h>
#include <openssl/core_dispatch.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/provider.h>

#ifndef OSSL_FUNC_SIGNATURE_SIGN_MESSAGE_INIT
int main(void)
{
	printf("this OpenSSL has no message signing (3.4 added it)\n");
	return 77;
}
#else

static const unsigned char msg[] =
	"kernel-held keys, signed by a sigalg, in two parts";
static OSSL_LIB_CTX *app, *stock;
static EVP_PKEY *key, *pub, *pubonly;
static int failures;

static void fail(const char *alg, const char *what)
{
	fprintf(stderr, "%s: %s\n", alg, what);
	ERR_print_errors_fp(stderr);
	failures++;
}

/* SHA-2/3 of the message, by the stock provider. */
static int digest(const char *mdname, unsigned char *out, unsigned int *len)
{
	EVP_MD *md = EVP_MD_fetch(stock, mdname, NULL);
	int ok = md != NULL && EVP_Digest(msg, sizeof(msg), out, len, md,
					  NULL);

	EVP_MD_free(md);
	return ok;
}

static EVP_PKEY *load(OSSL_LIB_CTX *lib, const char *path, int private)
{
	BIO *in = BIO_new_file(path, "r");
	EVP_PKEY *k = NULL;

	if (in != NULL)
		k = private ? PEM_read_bio_PrivateKey_ex(in, NULL, NULL, NULL,
							 lib, NULL)
			    : PEM_read_bio_PUBKEY_ex(in, NULL, NULL, NULL, lib,
						     NULL);
	BIO_free(in);
	return k;
}

/* The stock provider's verdict, on the message or (mdname) its digest. */
static int stock_verify(const char *alg, const char *mdname,
			const unsigned char *sig, size_t siglen)
{
	EVP_SIGNATURE *s = EVP_SIGNATURE_fetch(stock, alg, NULL);
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(stock, pub, NULL);
	unsigned char dgst[EVP_MAX_MD_SIZE];
	unsigned int dlen = 0;
	int ok = 0;

	if (s == NULL || c == NULL)
		goto out;
	if (mdname == NULL)
		ok = EVP_PKEY_verify_message_init(c, s, NULL) == 1 &&
		     EVP_PKEY_verify(c, sig, siglen, msg, sizeof(msg)) == 1;
	else
		ok = digest(mdname, dgst, &dlen) &&
		     EVP_PKEY_verify_init_ex2(c, s, NULL) == 1 &&
		     EVP_PKEY_verify(c, sig, siglen, dgst, dlen) == 1;
out:
	EVP_PKEY_CTX_free(c);
	EVP_SIGNATURE_free(s);
	return ok;
}

/* sign_message_init, the message in two updates, the size, the final. */
static int sign_streamed(EVP_SIGNATURE *s, unsigned char *sig, size_t *len,
			 int dup_midway)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(app, key, NULL), *d = NULL;
	size_t half = sizeof(msg) / 2, need = 0;
	int ok;

	ok = c != NULL && EVP_PKEY_sign_message_init(c, s, NULL) == 1 &&
	     EVP_PKEY_sign_message_update(c, msg, half) == 1;
	if (ok && dup_midway) {
		/* the copy goes on; the original is dropped half-way */
		d = EVP_PKEY_CTX_dup(c);
		EVP_PKEY_CTX_free(c);
		c = d;
		ok = c != NULL;
	}
	ok = ok && EVP_PKEY_sign_message_update(c, msg + half,
						sizeof(msg) - half) == 1 &&
	     EVP_PKEY_sign_message_final(c, NULL, &need) == 1 &&
	     need <= *len && EVP_PKEY_sign_message_final(c, sig, len) == 1;
	EVP_PKEY_CTX_free(c);
	return ok;
}

/* sign_message_init, then EVP_PKEY_sign on the whole message. */
static int sign_oneshot(EVP_SIGNATURE *s, unsigned char *sig, size_t *len)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(app, key, NULL);
	int ok;

	ok = c != NULL && EVP_PKEY_sign_message_init(c, s, NULL) == 1 &&
	     EVP_PKEY_sign(c, sig, len, msg, sizeof(msg)) == 1;
	EVP_PKEY_CTX_free(c);
	return ok;
}

/* sign_init_ex2 with the sigalg: the input is the digest. */
static int sign_digest(EVP_SIGNATURE *s, const char *mdname,
		       unsigned char *sig, size_t *len)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(app, key, NULL);
	unsigned char dgst[EVP_MAX_MD_SIZE];
	unsigned int dlen;
	int ok;

	ok = c != NULL && digest(mdname, dgst, &dlen) &&
	     EVP_PKEY_sign_init_ex2(c, s, NULL) == 1 &&
	     EVP_PKEY_sign(c, sig, len, dgst, dlen) == 1;
	EVP_PKEY_CTX_free(c);
	return ok;
}

/* ncr's verify_message: 1 good, 0 refused, -1 could not run. */
static int ncr_verify(EVP_SIGNATURE *s, const unsigned char *sig,
		      size_t siglen, int oneshot)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(app, key, NULL);
	int r = -1;

	if (c == NULL || EVP_PKEY_verify_message_init(c, s, NULL) != 1)
		goto out;
	if (oneshot) {
		r = EVP_PKEY_verify(c, sig, siglen, msg, sizeof(msg)) == 1;
		goto out;
	}
	if (EVP_PKEY_CTX_set_signature(c, sig, siglen) != 1 ||
	    EVP_PKEY_verify_message_update(c, msg, sizeof(msg)) != 1)
		goto out;
	r = EVP_PKEY_verify_message_final(c) == 1;
out:
	ERR_clear_error();
	EVP_PKEY_CTX_free(c);
	return r;
}

static void one(const char *alg, const char *mdname)
{
	EVP_SIGNATURE *s = EVP_SIGNATURE_fetch(app, alg, "provider=ncr");
	unsigned char sig[1024];
	size_t len;
	int how;

	if (s == NULL) {
		fail(alg, "ncr has no such signature algorithm");
		return;
	}
	for (how = 0; how < 4; how++) {
		static const char *const what[] = {
			"streamed sign_message", "sign_message copied half-way",
			"one-shot sign_message", "sign_init_ex2 on a digest" };
		len = sizeof(sig);
		if (!(how < 2 ? sign_streamed(s, sig, &len, how) :
		      how == 2 ? sign_oneshot(s, sig, &len) :
		      sign_digest(s, mdname, sig, &len))) {
			fail(alg, what[how]);
			continue;
		}
		if (!stock_verify(alg, how == 3 ? mdname : NULL, sig, len))
			fail(alg, "stock provider refuses ncr's signature");
		if (ncr_verify(s, sig, len, how & 1) != 1)
			fail(alg, "ncr's verify_message refuses its signature");
		sig[len / 2] ^= 1;
		if (ncr_verify(s, sig, len, how & 1) != 0)
			fail(alg, "ncr's verify_message accepts a changed one");
		if (stock_verify(alg, NULL, sig, len))
			fail(alg, "stock verify accepts a changed signature");
		printf("%s %s: ok\n", alg, what[how]);
	}
	EVP_SIGNATURE_free(s);
}

/*
 * What a sigalg refuses: changing its digest (the default provider
 * refuses it too), a signature to check when signing,
 * verify_message_final without a signature, and signing
 * with a public key (the ncr sigalg gets only what the key file's public
 * half holds).
 */
static void misuse(const char *alg, EVP_PKEY *pubonly)
{
	EVP_SIGNATURE *s = EVP_SIGNATURE_fetch(app, alg, "provider=ncr");
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(app, key, NULL);
	OSSL_PARAM md[] = {
		OSSL_PARAM_utf8_string("digest", "SHA2-512", 0), OSSL_PARAM_END
	};
	unsigned char sig[1024];
	size_t len = sizeof(sig);

	if (s == NULL || c == NULL ||
	    EVP_PKEY_sign_message_init(c, s, NULL) != 1) {
		fail(alg, "misuse set-up");
		goto out;
	}
	if (EVP_PKEY_CTX_set_params(c, md) > 0)
		fail(alg, "a sigalg's digest changed by a parameter");
	if (EVP_PKEY_CTX_set_signature(c, msg, 8) > 0)
		fail(alg, "a signature to check set on a signing context");
	EVP_PKEY_CTX_free(c);
	c = EVP_PKEY_CTX_new_from_pkey(app, key, NULL);
	if (c == NULL || EVP_PKEY_verify_message_init(c, s, NULL) != 1 ||
	    EVP_PKEY_verify_message_update(c, msg, sizeof(msg)) != 1 ||
	    EVP_PKEY_verify_message_final(c) == 1)
		fail(alg, "verify_message_final without a signature");
	EVP_PKEY_CTX_free(c);
	c = EVP_PKEY_CTX_new_from_pkey(app, pubonly, NULL);
	if (c != NULL && EVP_PKEY_sign_message_init(c, s, NULL) == 1 &&
	    EVP_PKEY_sign(c, sig, &len, msg, sizeof(msg)) == 1)
		fail(alg, "signs with a public key");
	printf("%s misuse: refused\n", alg);
out:
	ERR_clear_error();
	EVP_PKEY_CTX_free(c);
	EVP_SIGNATURE_free(s);
}

/* A sigalg that must not sign with this key: another key type's, or the
 * default provider's (the key reaches it as its public half only). */
static void refused(const char *alg, const char *propq)
{
	EVP_SIGNATURE *s = EVP_SIGNATURE_fetch(app, alg, propq);
	unsigned char sig[1024];
	size_t len = sizeof(sig);

	if (s == NULL) {
		fail(alg, "no such signature algorithm");
		return;
	}
	if (sign_oneshot(s, sig, &len))
		fail(alg, strcmp(propq, "provider=ncr") == 0 ?
			  "signs with a key of another type" :
			  "the default provider signs with the ncr key");
	else
		printf("%s (%s) with this key: refused\n", alg, propq);
	ERR_clear_error();
	EVP_SIGNATURE_free(s);
}

int main(int argc, char **argv)
{
	int i;

	if (argc < 4) {
		fprintf(stderr, "usage: %s KEY PUB SIGALG=DIGEST... "
			"[!SIGALG...]\n", argv[0]);
		return 2;
	}
	app = OSSL_LIB_CTX_new();
	stock = OSSL_LIB_CTX_new();
	if (OSSL_PROVIDER_load(app, "ncr") == NULL ||
	    OSSL_PROVIDER_load(app, "default") == NULL ||
	    OSSL_PROVIDER_load(stock, "default") == NULL) {
		fail("setup", "loading the providers");
		return 1;
	}
	key = load(app, argv[1], 1);
	pub = load(stock, argv[2], 0);
	pubonly = load(app, argv[2], 0);
	if (key == NULL || pub == NULL || pubonly == NULL) {
		fail("setup", "loading the key files");
		return 1;
	}
	for (i = 3; i < argc; i++) {
		char alg[128], *eq;

		snprintf(alg, sizeof(alg), "%s", argv[i] + (argv[i][0] == '!'));
		eq = strchr(alg, '=');
		if (eq != NULL)
			*eq++ = '\0';
		if (argv[i][0] == '!') {
			refused(alg, "provider=ncr");
		} else if (eq == NULL) {
			fail(argv[i], "want SIGALG=DIGEST");
		} else {
			one(alg, eq);
			misuse(alg, pubonly);
			refused(alg, "provider=default");
		}
	}
	EVP_PKEY_free(key);
	EVP_PKEY_free(pub);
	EVP_PKEY_free(pubonly);
	OSSL_LIB_CTX_free(app);
	OSSL_LIB_CTX_free(stock);
	printf("%d failures\n", failures);
	return failures != 0;
}
#endif
