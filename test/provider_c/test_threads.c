// SPDX-License-Identifier: GPL-2.0
/*
 * Thread safety: 8 threads sign concurrently with one shared ncr key (and
 * verify each signature), as a threaded server does.
 *   test_threads KEYFILE [signatures-per-thread]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/provider.h>

#define THREADS 8

static EVP_PKEY *key;
static int rounds = 4;

static void *worker(void *arg)
{
	unsigned char msg[64], sig[1024];
	long id = (long)arg;
	int i, bad = 0;

	for (i = 0; i < rounds; i++) {
		EVP_MD_CTX *md = EVP_MD_CTX_new();
		size_t siglen = sizeof(sig);
		int ok;

		snprintf((char *)msg, sizeof(msg), "thread %ld round %d", id, i);
		ok = md && EVP_DigestSignInit_ex(md, NULL, "SHA256", NULL, NULL,
						 key, NULL) &&
		     EVP_DigestSign(md, sig, &siglen, msg, sizeof(msg));
		EVP_MD_CTX_free(md);
		md = EVP_MD_CTX_new();
		ok = ok && md &&
		     EVP_DigestVerifyInit_ex(md, NULL, "SHA256", NULL, NULL,
					     key, NULL) &&
		     EVP_DigestVerify(md, sig, siglen, msg, sizeof(msg)) == 1;
		EVP_MD_CTX_free(md);
		if (!ok) {
			ERR_print_errors_fp(stderr);
			bad++;
		}
	}
	return (void *)(long)bad;
}

int main(int argc, char **argv)
{
	pthread_t t[THREADS];
	long i, failed = 0;
	void *ret;
	BIO *b;

	if (argc < 2)
		return 2;
	if (argc > 2)
		rounds = atoi(argv[2]);
	if (!OSSL_PROVIDER_load(NULL, "ncr") ||
	    !OSSL_PROVIDER_load(NULL, "default"))
		return 2;
	b = BIO_new_file(argv[1], "r");
	key = b ? PEM_read_bio_PrivateKey(b, NULL, NULL, NULL) : NULL;
	BIO_free(b);
	if (key == NULL) {
		ERR_print_errors_fp(stderr);
		return 1;
	}
	for (i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i))
			return 1;
	for (i = 0; i < THREADS; i++) {
		pthread_join(t[i], &ret);
		failed += (long)ret;
	}
	printf("threads: %d x %d signatures, %ld failures\n", THREADS, rounds,
	       failed);
	EVP_PKEY_free(key);
	return failed ? 1 : 0;
}
