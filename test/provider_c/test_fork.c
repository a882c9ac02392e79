// SPDX-License-Identifier: GPL-2.0
/*
 * Fork safety (the nginx pattern): a key loaded and used before fork()
 * keeps working in forked children, which share the /dev/crypto
 * namespace with the parent; the parent keeps working too.  An AES
 * stream started before the fork continues correctly in every child and
 * in the parent (each process gets its own kernel session).
 *   test_fork KEYFILE
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/provider.h>

#define CHILDREN 3

static int sign_verify(EVP_PKEY *k, const char *who)
{
	static const unsigned char msg[] = "fork test message";
	unsigned char sig[1024];
	size_t siglen = sizeof(sig);
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	int ok;

	ok = md && EVP_DigestSignInit_ex(md, NULL, "SHA256", NULL, NULL, k,
					 NULL) &&
	     EVP_DigestSign(md, sig, &siglen, msg, sizeof(msg));
	EVP_MD_CTX_free(md);
	md = EVP_MD_CTX_new();
	ok = ok && md &&
	     EVP_DigestVerifyInit_ex(md, NULL, "SHA256", NULL, NULL, k,
				     NULL) &&
	     EVP_DigestVerify(md, sig, siglen, msg, sizeof(msg)) == 1;
	EVP_MD_CTX_free(md);
	if (!ok) {
		fprintf(stderr, "%s: sign/verify failed\n", who);
		ERR_print_errors_fp(stderr);
	}
	return ok;
}

/* Next 32 bytes of the stream equal the reference's. */
static int aes_check(EVP_CIPHER_CTX *enc, const unsigned char *in,
		     const unsigned char *expect)
{
	unsigned char out[32];
	int n = 0;

	return EVP_EncryptUpdate(enc, out, &n, in, 32) && n == 32 &&
	       memcmp(out, expect, 32) == 0;
}

int main(int argc, char **argv)
{
	static const unsigned char key[16] = { 9 }, iv[16] = { 7 };
	static const unsigned char in[64] = { 1, 2, 3 };
	unsigned char expect[64];
	EVP_CIPHER *cn, *cd;
	EVP_CIPHER_CTX *enc, *ref;
	EVP_PKEY *k;
	BIO *b;
	int i, n, status, failed = 0;
	pid_t pid[CHILDREN];

	if (argc != 2)
		return 2;
	if (!OSSL_PROVIDER_load(NULL, "ncr") ||
	    !OSSL_PROVIDER_load(NULL, "default"))
		return 2;
	b = BIO_new_file(argv[1], "r");
	k = b ? PEM_read_bio_PrivateKey(b, NULL, NULL, NULL) : NULL;
	BIO_free(b);
	if (k == NULL) {
		ERR_print_errors_fp(stderr);
		return 1;
	}
	if (!sign_verify(k, "parent before fork"))
		return 1;
	/* AES context keyed in the kernel before the fork */
	cn = EVP_CIPHER_fetch(NULL, "AES-128-CBC", "provider=ncr");
	cd = EVP_CIPHER_fetch(NULL, "AES-128-CBC", "provider=default");
	enc = EVP_CIPHER_CTX_new();
	ref = EVP_CIPHER_CTX_new();
	if (!cn || !cd || !enc || !ref ||
	    !EVP_EncryptInit_ex2(enc, cn, key, iv, NULL) ||
	    !EVP_EncryptInit_ex2(ref, cd, key, iv, NULL) ||
	    !EVP_EncryptUpdate(ref, expect, &n, in, sizeof(in)) ||
	    !aes_check(enc, in, expect)) {
		/* the parent's kernel session exists before the fork */
		ERR_print_errors_fp(stderr);
		return 1;
	}
	fflush(NULL);
	for (i = 0; i < CHILDREN; i++) {
		pid[i] = fork();
		if (pid[i] < 0)
			return 1;
		if (pid[i] == 0) {
			int ok = sign_verify(k, "child") &&
				 sign_verify(k, "child again");

			if (!aes_check(enc, in + 32, expect + 32)) {
				fprintf(stderr, "child: AES context broken\n");
				ERR_print_errors_fp(stderr);
				ok = 0;
			}
			_exit(ok ? 0 : 1);
		}
	}
	for (i = 0; i < CHILDREN; i++) {
		if (waitpid(pid[i], &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0)
			failed++;
	}
	if (!sign_verify(k, "parent after fork"))
		failed++;
	if (!aes_check(enc, in + 32, expect + 32)) {
		fprintf(stderr, "parent: AES context broken after fork\n");
		failed++;
	}
	printf("fork: %d children, %d failures\n", CHILDREN, failed);
	EVP_PKEY_free(k);
	EVP_CIPHER_CTX_free(enc);
	EVP_CIPHER_CTX_free(ref);
	EVP_CIPHER_free(cn);
	EVP_CIPHER_free(cd);
	return failed ? 1 : 0;
}
