// SPDX-License-Identifier: GPL-2.0
/*
 * What an OpenSSL application sees, for scripts/bench: RSA and symmetric
 * throughput through libcrypto's EVP API, with the ncr provider, the
 * default provider or the afalg engine behind it.
 *
 *   evp_bench pk SIDE KEYFILE SECONDS LABEL
 *	The private key is loaded from KEYFILE through OSSL_STORE (an ncr key
 *	file with SIDE "ncr", a PEM private key with SIDE "default", a TSS2
 *	PRIVATE KEY of tpm2-openssl with SIDE "tpm2").  Each
 *	operation is what a TLS server does per handshake: a fresh context,
 *	EVP_DigestSignInit_ex + EVP_DigestSign of a 32-byte message (SHA-256;
 *	PSS with salt length = digest length), EVP_DigestVerifyInit_ex +
 *	EVP_DigestVerify, EVP_PKEY_decrypt_init + OAEP (SHA-256) parameters +
 *	EVP_PKEY_decrypt.  Lines:  R  LABEL  OP  SIDE  OPS_PER_S
 *   evp_bench sym SIDE SECONDS SIZE...
 *	SIDE "ncr" (ciphers fetched with provider=ncr), "default" (only the
 *	default provider loaded) or "afalg" (the afalg engine of libssl3,
 *	AES-CBC only).  Like `openssl speed -evp`: one context initialised
 *	once, one EVP_EncryptUpdate per SIZE-byte buffer (aes-128-cbc,
 *	aes-256-ctr; afalg: 64 KiB updates for larger buffers, see update()); sha256 is one EVP_DigestInit_ex + Update + Final per
 *	message (default side only: neither ncr nor afalg has digests).
 *	Lines:  R  ALGORITHM  SIZE  SIDE  OPS_PER_S
 *
 * Providers are loaded explicitly (OPENSSL_MODULES must point at the
 * directory with ncr.so for SIDE ncr); OPENSSL_CONF should be unset.
 * Every side's first output is checked against the default provider's.
 */
#define OPENSSL_SUPPRESS_DEPRECATED	/* the ENGINE API, for afalg */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/engine.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <openssl/rsa.h>
#include <openssl/store.h>

#include "bench_time.h"

#define MIN_OPS 3
#define MAX_SIZE (16 * 1024 * 1024)

static const unsigned char KEY[32] = "0123456789abcdef0123456789abcdef";
static const unsigned char IV[16] = "fedcba9876543210";

static double secs;

static void die(const char *what)
{
	fprintf(stderr, "evp_bench: %s failed\n", what);
	ERR_print_errors_fp(stderr);
	exit(1);
}

static void load_providers(const char *side)
{
	if (strcmp(side, "ncr") == 0 &&
	    OSSL_PROVIDER_load(NULL, "ncr") == NULL)
		die("loading the ncr provider (OPENSSL_MODULES?)");
	if (strcmp(side, "tpm2") == 0 &&
	    OSSL_PROVIDER_load(NULL, "tpm2") == NULL)
		die("loading the tpm2 provider (TPM2OPENSSL_TCTI?)");
	if (OSSL_PROVIDER_load(NULL, "default") == NULL)
		die("loading the default provider");
}

/* ---- public key ---- */

static EVP_PKEY *load_key(const char *path)
{
	OSSL_STORE_CTX *s = OSSL_STORE_open(path, NULL, NULL, NULL, NULL);
	EVP_PKEY *k = NULL;

	if (s == NULL)
		die(path);
	OSSL_STORE_expect(s, OSSL_STORE_INFO_PKEY);
	while (k == NULL && !OSSL_STORE_eof(s)) {
		OSSL_STORE_INFO *i = OSSL_STORE_load(s);

		if (i != NULL && OSSL_STORE_INFO_get_type(i) ==
		    OSSL_STORE_INFO_PKEY)
			k = OSSL_STORE_INFO_get1_PKEY(i);
		OSSL_STORE_INFO_free(i);
	}
	OSSL_STORE_close(s);
	if (k == NULL)
		die(path);
	return k;
}

enum pkop { SIGN, VERIFY, DECRYPT };

struct pkjob {
	enum pkop op;
	int pss;
	EVP_PKEY *key;
	const unsigned char *in;
	size_t inlen;
	unsigned char *sig;
	size_t siglen;
	unsigned char out[1024];
	size_t outlen;
};

static int set_pss(EVP_PKEY_CTX *pc, int pss)
{
	if (!pss)
		return EVP_PKEY_CTX_set_rsa_padding(pc, RSA_PKCS1_PADDING) > 0;
	return EVP_PKEY_CTX_set_rsa_padding(pc, RSA_PKCS1_PSS_PADDING) > 0 &&
	       EVP_PKEY_CTX_set_rsa_pss_saltlen(pc, RSA_PSS_SALTLEN_DIGEST) > 0;
}

static int pk_step(void *arg)
{
	struct pkjob *j = arg;
	EVP_MD_CTX *md;
	EVP_PKEY_CTX *pc = NULL;
	int ok;

	if (j->op == DECRYPT) {
		pc = EVP_PKEY_CTX_new_from_pkey(NULL, j->key, NULL);
		j->outlen = sizeof(j->out);
		ok = pc != NULL && EVP_PKEY_decrypt_init(pc) > 0 &&
		     EVP_PKEY_CTX_set_rsa_padding(pc, RSA_PKCS1_OAEP_PADDING) > 0 &&
		     EVP_PKEY_CTX_set_rsa_oaep_md_name(pc, "SHA256", NULL) > 0 &&
		     EVP_PKEY_decrypt(pc, j->out, &j->outlen, j->in,
				      j->inlen) > 0;
		EVP_PKEY_CTX_free(pc);
		return ok ? 0 : -1;
	}
	md = EVP_MD_CTX_new();
	if (md == NULL)
		return -1;
	if (j->op == SIGN) {
		j->siglen = 1024;
		ok = EVP_DigestSignInit_ex(md, &pc, "SHA256", NULL, NULL,
					   j->key, NULL) > 0 &&
		     set_pss(pc, j->pss) &&
		     EVP_DigestSign(md, j->sig, &j->siglen, j->in,
				    j->inlen) > 0;
	} else {
		ok = EVP_DigestVerifyInit_ex(md, &pc, "SHA256", NULL, NULL,
					     j->key, NULL) > 0 &&
		     set_pss(pc, j->pss) &&
		     EVP_DigestVerify(md, j->sig, j->siglen, j->in,
				      j->inlen) == 1;
	}
	EVP_MD_CTX_free(md);
	return ok ? 0 : -1;
}

static double pk_measure(struct pkjob *j, const char *what)
{
	double r = bench_rate(pk_step, j, secs, MIN_OPS);

	if (r < 0)
		die(what);
	return r;
}

static int bench_pk(const char *side, const char *path, const char *label)
{
	static const unsigned char msg[32] = "ncr benchmark message, 32 bytes";
	unsigned char sig[1024], ct[1024];
	size_t ctlen = sizeof(ct);
	EVP_PKEY *key;
	EVP_PKEY_CTX *pc;
	int pss;

	load_providers(side);
	key = load_key(path);
	for (pss = 0; pss <= 1; pss++) {
		const char *pname = pss ? "pss" : "pkcs1";
		struct pkjob s = { .op = SIGN, .pss = pss, .key = key,
				   .in = msg, .inlen = sizeof(msg), .sig = sig };
		struct pkjob v;
		double rs, rv;

		if (pk_step(&s))
			die("signing");
		v = s;
		v.op = VERIFY;
		if (pk_step(&v))
			die("verifying its own signature");
		rs = pk_measure(&s, "sign");
		v.siglen = s.siglen;
		rv = pk_measure(&v, "verify");
		printf("R\t%s\tsign-%s\t%s\t%.2f\n", label, pname, side, rs);
		printf("R\t%s\tverify-%s\t%s\t%.2f\n", label, pname, side, rv);
		fflush(stdout);
	}

	pc = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
	if (pc == NULL || EVP_PKEY_encrypt_init(pc) <= 0) {
		/* tpm2-openssl's signing keys do not encrypt: no decrypt */
		fprintf(stderr, "evp_bench: %s %s: no RSA encryption with this "
			"key, decrypt-oaep not measured\n", label, side);
		ERR_clear_error();
		EVP_PKEY_CTX_free(pc);
		EVP_PKEY_free(key);
		return 0;
	}
	if (EVP_PKEY_CTX_set_rsa_padding(pc, RSA_PKCS1_OAEP_PADDING) <= 0 ||
	    EVP_PKEY_CTX_set_rsa_oaep_md_name(pc, "SHA256", NULL) <= 0 ||
	    EVP_PKEY_encrypt(pc, ct, &ctlen, msg, sizeof(msg)) <= 0)
		die("OAEP encryption");
	EVP_PKEY_CTX_free(pc);
	{
		struct pkjob d = { .op = DECRYPT, .key = key, .in = ct,
				   .inlen = ctlen };

		if (pk_step(&d) || d.outlen != sizeof(msg) ||
		    memcmp(d.out, msg, sizeof(msg)) != 0)
			die("OAEP decryption self-check");
		printf("R\t%s\tdecrypt-oaep\t%s\t%.2f\n", label, side,
		       pk_measure(&d, "decrypt"));
	}
	EVP_PKEY_free(key);
	return 0;
}

/* ---- symmetric ---- */

static unsigned char *in, *out, *ref;

/* The default provider's ciphertext of the first buffer, for the check. */
static void reference(const char *name, size_t n)
{
	EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, name, "provider=default");
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int l;

	if (c == NULL || x == NULL ||
	    !EVP_EncryptInit_ex2(x, c, KEY, IV, NULL) ||
	    !EVP_EncryptUpdate(x, ref, &l, in, (int)n) || (size_t)l != n)
		die("reference encryption");
	EVP_CIPHER_CTX_free(x);
	EVP_CIPHER_free(c);
}

/*
 * One buffer of n bytes.  The afalg engine blocks for ever on an update
 * larger than a pipe (it vmsplices the whole input into one pipe of 64 KiB
 * before the kernel reads any of it), so with it a larger buffer is fed in
 * AFALG_MAX pieces.
 */
#define AFALG_MAX (64 * 1024)
static int update(EVP_CIPHER_CTX *x, size_t n, int afalg)
{
	size_t off, k = afalg && n > AFALG_MAX ? AFALG_MAX : n;
	int l;

	for (off = 0; off < n; off += k)
		if (!EVP_EncryptUpdate(x, out + off, &l, in + off, (int)k) ||
		    (size_t)l != k)
			return 0;
	return 1;
}

struct upd {
	EVP_CIPHER_CTX *x;
	size_t n;
	int afalg;
};

static int update_op(void *arg)
{
	struct upd *u = arg;

	return !update(u->x, u->n, u->afalg);
}

static void bench_cipher(const char *side, ENGINE *eng, const char *name,
			 const size_t *sizes, int nsizes)
{
	const EVP_CIPHER *cipher;
	EVP_CIPHER *fetched = NULL;
	int i;

	if (eng != NULL) {
		cipher = strcmp(name, "aes-128-cbc") == 0 ?
			EVP_aes_128_cbc() : NULL;
		if (cipher == NULL)
			return;		/* the engine has CBC only */
	} else {
		fetched = EVP_CIPHER_fetch(NULL, name, strcmp(side, "ncr") == 0 ?
					   "provider=ncr" : "provider=default");
		if (fetched == NULL)
			die(name);
		cipher = fetched;
	}
	for (i = 0; i < nsizes; i++) {
		size_t n = sizes[i];
		EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
		struct upd u;
		double v;

		if (x == NULL || !EVP_EncryptInit_ex(x, cipher, eng, KEY, IV))
			die(name);
		/* an engine's cipher is a legacy one, of no provider */
		if (eng != NULL && EVP_CIPHER_get0_provider(
				EVP_CIPHER_CTX_get0_cipher(x)) != NULL)
			die("the afalg engine did not take the cipher");
		reference(name, n);
		if (!update(x, n, eng != NULL) || memcmp(out, ref, n) != 0)
			die("ciphertext check against the default provider");
		u.x = x;
		u.n = n;
		u.afalg = eng != NULL;
		v = bench_rate(update_op, &u, secs, MIN_OPS);
		if (v < 0)
			die(name);
		printf("R\t%s\t%zu\t%s\t%.2f\n", name, n, side, v);
		fflush(stdout);
		EVP_CIPHER_CTX_free(x);
	}
	EVP_CIPHER_free(fetched);
}

struct dig {
	EVP_MD *md;
	EVP_MD_CTX *x;
	size_t n;
};

static int digest_op(void *arg)
{
	struct dig *g = arg;
	unsigned char d[32];

	return !EVP_DigestInit_ex(g->x, g->md, NULL) ||
	       !EVP_DigestUpdate(g->x, in, g->n) ||
	       !EVP_DigestFinal_ex(g->x, d, NULL);
}

static void bench_digest(const char *side, const size_t *sizes, int nsizes)
{
	EVP_MD *md = EVP_MD_fetch(NULL, "SHA256", "provider=default");
	EVP_MD_CTX *x = EVP_MD_CTX_new();
	int i;

	if (md == NULL || x == NULL)
		die("SHA256");
	for (i = 0; i < nsizes; i++) {
		struct dig g = { md, x, sizes[i] };
		double v = bench_rate(digest_op, &g, secs, MIN_OPS);

		if (v < 0)
			die("SHA256");
		printf("R\tsha256\t%zu\t%s\t%.2f\n", sizes[i], side, v);
		fflush(stdout);
	}
	EVP_MD_CTX_free(x);
	EVP_MD_free(md);
}

static int bench_sym(const char *side, int argc, char **argv)
{
	size_t sizes[16];
	int nsizes = 0, i;
	ENGINE *eng = NULL;

	for (i = 0; i < argc && nsizes < 16; i++) {
		sizes[nsizes] = strtoul(argv[i], NULL, 0);
		if (sizes[nsizes] == 0 || sizes[nsizes] % 16 ||
		    sizes[nsizes] > MAX_SIZE) {
			fprintf(stderr, "evp_bench: bad size %s\n", argv[i]);
			return 2;
		}
		nsizes++;
	}
	in = malloc(MAX_SIZE);
	out = malloc(MAX_SIZE);
	ref = malloc(MAX_SIZE);
	if (!in || !out || !ref)
		die("malloc");
	for (i = 0; i < MAX_SIZE; i++)
		in[i] = (unsigned char)(i * 131 + 7);
	load_providers(side);
	if (strcmp(side, "afalg") == 0) {
		ENGINE_load_builtin_engines();
		eng = ENGINE_by_id("afalg");
		if (eng == NULL || !ENGINE_init(eng))
			die("the afalg engine (algif_skcipher loaded?)");
	} else if (strcmp(side, "ncr") != 0 && strcmp(side, "default") != 0) {
		fprintf(stderr, "evp_bench: unknown side %s\n", side);
		return 2;
	}
	bench_cipher(side, eng, "aes-128-cbc", sizes, nsizes);
	bench_cipher(side, eng, "aes-256-ctr", sizes, nsizes);
	if (strcmp(side, "default") == 0)
		bench_digest(side, sizes, nsizes);
	if (eng != NULL) {
		ENGINE_finish(eng);
		ENGINE_free(eng);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && strcmp(argv[1], "pk") == 0) {
		secs = atof(argv[4]);
		return bench_pk(argv[2], argv[3], argv[5]);
	}
	if (argc >= 5 && strcmp(argv[1], "sym") == 0) {
		secs = atof(argv[3]);
		return bench_sym(argv[2], argc - 4, argv + 4);
	}
	fprintf(stderr, "usage: evp_bench pk SIDE KEYFILE SECONDS LABEL\n"
		"       evp_bench sym SIDE SECONDS SIZE...\n");
	return 2;
}
