// SPDX-License-Identifier: GPL-2.0
/*
 * Test helper: loads a key file the way applications do (nginx, curl and
 * Python use PEM_read_bio_PrivateKey), with the ncr and default providers,
 * and prints OpenSSL's error queue on failure, so tests can check the
 * reason strings (the openssl CLI's OSSL_STORE path hides them).
 *   ncr_keytool load KEYFILE          -> "loaded RSA" / errors, exit 1
 *   ncr_keytool sign KEYFILE MSGFILE  -> SHA-256 signature on stdout
 */
#include <stdio.h>
#include <string.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/provider.h>

static EVP_PKEY *load(const char *path)
{
	BIO *in = BIO_new_file(path, "r");
	EVP_PKEY *k = NULL;

	if (in != NULL)
		k = PEM_read_bio_PrivateKey(in, NULL, NULL, NULL);
	BIO_free(in);
	return k;
}

static int sign(EVP_PKEY *k, const char *msgpath)
{
	unsigned char msg[65536], sig[1024];
	size_t siglen = sizeof(sig);
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	FILE *f = fopen(msgpath, "rb");
	size_t n;
	int ok;

	if (f == NULL || md == NULL)
		return 0;
	n = fread(msg, 1, sizeof(msg), f);
	fclose(f);
	ok = EVP_DigestSignInit_ex(md, NULL, "SHA256", NULL, NULL, k, NULL) &&
	     EVP_DigestSign(md, sig, &siglen, msg, n);
	EVP_MD_CTX_free(md);
	if (ok)
		fwrite(sig, 1, siglen, stdout);
	return ok;
}

int main(int argc, char **argv)
{
	EVP_PKEY *k;
	int ok;

	if (argc < 3 || (strcmp(argv[1], "load") && strcmp(argv[1], "sign")) ||
	    (!strcmp(argv[1], "sign") && argc < 4)) {
		fprintf(stderr, "usage: %s load KEY | sign KEY MSG\n", argv[0]);
		return 2;
	}
	if (OSSL_PROVIDER_load(NULL, "ncr") == NULL ||
	    OSSL_PROVIDER_load(NULL, "default") == NULL) {
		ERR_print_errors_fp(stderr);
		return 2;
	}
	k = load(argv[2]);
	if (k == NULL) {
		fprintf(stderr, "cannot load %s\n", argv[2]);
		ERR_print_errors_fp(stderr);
		return 1;
	}
	if (!strcmp(argv[1], "load")) {
		printf("loaded %s\n", EVP_PKEY_get0_type_name(k));
		ok = 1;
	} else {
		ok = sign(k, argv[3]);
	}
	if (!ok)
		ERR_print_errors_fp(stderr);
	EVP_PKEY_free(k);
	return ok ? 0 : 1;
}
