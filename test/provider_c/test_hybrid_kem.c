// SPDX-License-Identifier: GPL-2.0
/*
 * OpenSSL 3.5's hybrid KEMs (X25519MLKEM768, TLS 1.3's first key share)
 * fetch their X25519 or EC half from whichever provider comes first: with
 * "-provider ncr -provider default" that is ncr.  A server's encapsulation
 * to a client's share, done as libssl does it (paramgen, then the encoded
 * public value), must give the secret that the stock provider
 * decapsulates.  Exits 77 when this OpenSSL has no ML-KEM.
 *   test_hybrid_kem
 */
#include <stdio.h>
#include <string.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

static const char *const algs[] = {
	"X25519MLKEM768", "SecP256r1MLKEM768", "SecP384r1MLKEM1024",
};

static int fail(const char *alg, const char *what)
{
	fprintf(stderr, "%s: %s failed\n", alg, what);
	ERR_print_errors_fp(stderr);
	return 1;
}

static int one(OSSL_LIB_CTX *app, OSSL_LIB_CTX *stock, const char *alg)
{
	EVP_PKEY *client = NULL, *share = NULL;
	EVP_PKEY_CTX *c = NULL;
	unsigned char *pub = NULL, ct[4096], s1[256], s2[256];
	size_t publen, ctlen = sizeof(ct), s1len = sizeof(s1),
		s2len = sizeof(s2);
	int bad = 1;

	client = EVP_PKEY_Q_keygen(stock, NULL, alg);
	if (client == NULL) {
		bad = fail(alg, "stock keygen");
		goto out;
	}
	publen = EVP_PKEY_get1_encoded_public_key(client, &pub);
	c = EVP_PKEY_CTX_new_from_name(app, alg, NULL);
	if (publen == 0 || c == NULL || EVP_PKEY_paramgen_init(c) <= 0 ||
	    EVP_PKEY_paramgen(c, &share) <= 0 ||
	    EVP_PKEY_set1_encoded_public_key(share, pub, publen) <= 0) {
		bad = fail(alg, "taking the client's share");
		goto out;
	}
	EVP_PKEY_CTX_free(c);
	c = EVP_PKEY_CTX_new_from_pkey(app, share, NULL);
	if (c == NULL || EVP_PKEY_encapsulate_init(c, NULL) <= 0 ||
	    EVP_PKEY_encapsulate(c, ct, &ctlen, s1, &s1len) <= 0) {
		bad = fail(alg, "encapsulation with ncr loaded");
		goto out;
	}
	EVP_PKEY_CTX_free(c);
	c = EVP_PKEY_CTX_new_from_pkey(stock, client, NULL);
	if (c == NULL || EVP_PKEY_decapsulate_init(c, NULL) <= 0 ||
	    EVP_PKEY_decapsulate(c, s2, &s2len, ct, ctlen) <= 0) {
		bad = fail(alg, "stock decapsulation");
		goto out;
	}
	bad = s1len != s2len || memcmp(s1, s2, s1len) != 0;
	printf("%s: %s\n", alg, bad ? "secrets DIFFER" : "same secret");
out:
	EVP_PKEY_CTX_free(c);
	EVP_PKEY_free(share);
	EVP_PKEY_free(client);
	OPENSSL_free(pub);
	return bad;
}

int main(void)
{
	OSSL_LIB_CTX *app = OSSL_LIB_CTX_new(), *stock = OSSL_LIB_CTX_new();
	EVP_KEYMGMT *x;
	EVP_KEM *kem;
	size_t i;
	int failures = 0;

	if (app == NULL || stock == NULL ||
	    OSSL_PROVIDER_load(app, "ncr") == NULL ||
	    OSSL_PROVIDER_load(app, "default") == NULL ||
	    OSSL_PROVIDER_load(stock, "default") == NULL) {
		ERR_print_errors_fp(stderr);
		return 1;
	}
	kem = EVP_KEM_fetch(stock, algs[0], NULL);
	if (kem == NULL) {
		printf("SKIP: this OpenSSL has no %s (3.5 and later do)\n",
		       algs[0]);
		return 77;
	}
	EVP_KEM_free(kem);
	/* The premise: ncr serves X25519 to whoever fetches it first. */
	x = EVP_KEYMGMT_fetch(app, "X25519", NULL);
	if (x == NULL || strcmp(OSSL_PROVIDER_get0_name(
			EVP_KEYMGMT_get0_provider(x)), "ncr") != 0) {
		fprintf(stderr, "X25519 is not ncr's in the app context\n");
		return 1;
	}
	EVP_KEYMGMT_free(x);
	for (i = 0; i < sizeof(algs) / sizeof(algs[0]); i++)
		failures += one(app, stock, algs[i]);
	printf("%d failures\n", failures);
	OSSL_LIB_CTX_free(app);
	OSSL_LIB_CTX_free(stock);
	return failures != 0;
}
