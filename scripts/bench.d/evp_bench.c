// SPDX-License-Identifier: GPL-2.0
/*
 * What an OpenSSL application sees, for scripts/bench: RSA, ECDSA, ECDH,
 * X25519 and symmetric throughput through libcrypto's EVP API, with the
 * ncr provider, the default provider or the afalg engine behind it.
 *
 *   evp_bench pk SECONDS LABEL SIDE=KEYFILE...
 *	Each side's private key is loaded from its KEYFILE through OSSL_STORE
 *	(SIDE "ncr": an ncr key file; "default": a PEM private key; "tpm2": a
 *	TSS2 PRIVATE KEY of tpm2-openssl).  The sides' keys are of one type
 *	(RSA, EC or X25519).  Each operation is what a TLS server does per
 *	handshake, with a fresh context:
 *	RSA: EVP_DigestSignInit_ex + EVP_DigestSign of a 32-byte message
 *	(SHA-256; PSS with salt length = digest length), EVP_DigestVerifyInit_ex
 *	+ EVP_DigestVerify, EVP_PKEY_decrypt_init + OAEP (SHA-256) parameters +
 *	EVP_PKEY_decrypt.  OP sign-pkcs1, sign-pss, verify-pkcs1, verify-pss,
 *	decrypt-oaep.
 *	EC (P-256, P-384): ECDSA sign and verify the same way, SHA-256 for
 *	P-256 and SHA-384 for P-384 (the TLS 1.3 signature schemes), OP
 *	"sign-ecdsa" and "verify-ecdsa"; then ECDH, OP "derive":
 *	EVP_PKEY_CTX_new_from_pkey on the private key, EVP_PKEY_derive_init,
 *	EVP_PKEY_derive_set_peer with a fixed peer public key (a key pair
 *	generated once by the default provider, public half only, as a TLS
 *	key share is), EVP_PKEY_derive of the shared secret; and key
 *	generation, OP "keygen": EVP_PKEY_CTX_new_from_name(NULL, "EC",
 *	"provider=SIDE"), EVP_PKEY_keygen_init, the key's group,
 *	EVP_PKEY_generate, EVP_PKEY_free (sides "ncr" and "default" only).
 *	X25519: "derive" and "keygen" the same way (no signatures).
 *	Lines:  R  LABEL  OP  SIDE  OPS_PER_S
 *   evp_bench sym SECONDS SIDE[,SIDE...] SIZE...
 *	SIDE "ncr" (ciphers fetched with provider=ncr), "default"
 *	(provider=default) or "afalg" (the afalg engine of libssl3, AES-CBC
 *	only).  Like `openssl speed -evp`: one context initialised once, one
 *	EVP_EncryptUpdate per SIZE-byte buffer (aes-128-cbc, aes-256-ctr;
 *	afalg: 64 KiB updates for larger buffers, see update()); sha256 is one
 *	EVP_DigestInit_ex + Update + Final per message (default side only:
 *	neither ncr nor afalg has digests).
 *	Lines:  R  ALGORITHM  SIZE  SIDE  OPS_PER_S
 *
 * The sides of one operation are measured in turns within the process
 * (SLICES turns of SECONDS/SLICES each, bench_rates()), so that they see
 * the same host.  Providers are loaded as an application configured like
 * openssl.cnf.example would have them: default first, then ncr (when a
 * side needs it; OPENSSL_MODULES must point at ncr.so's directory) or tpm2
 * (with tpm2 preferred except for its digests, ciphers and RNG, as
 * scripts/bench.d/guest.sh configures nginx).  OPENSSL_CONF should be
 * unset.  Every side's first output is checked (signatures verified, a
 * decryption compared, a shared secret compared with the one the default
 * provider derives from the peer's private key and the side's public key,
 * a generated key's provider, ciphertext compared with the default
 * provider's).
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
#define SLICES 4
#define MAX_SIDES 4
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

static void load_providers(int ncr, int tpm2)
{
	if (OSSL_PROVIDER_load(NULL, "default") == NULL)
		die("loading the default provider");
	if (ncr && OSSL_PROVIDER_load(NULL, "ncr") == NULL)
		die("loading the ncr provider (OPENSSL_MODULES?)");
	if (tpm2 && (OSSL_PROVIDER_load(NULL, "tpm2") == NULL ||
		     !EVP_set_default_properties(NULL, "?provider=tpm2,"
			"tpm2.digest!=yes,tpm2.cipher!=yes,tpm2.rand!=yes")))
		die("loading the tpm2 provider (TPM2OPENSSL_TCTI?)");
}

static void run_turns(int (*const op[])(void *), void *const arg[], int n,
		      double rate[], const char *what)
{
	if (bench_rates(op, arg, n, secs, SLICES, MIN_OPS, rate))
		die(what);
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

enum pkop { SIGN, VERIFY, DECRYPT, DERIVE, KEYGEN };

struct pkjob {
	enum pkop op;
	int pss;
	const char *md;			/* SIGN, VERIFY: the digest */
	EVP_PKEY *key;
	EVP_PKEY *peer;			/* DERIVE: the peer's public key */
	const char *alg, *group, *propq;	/* KEYGEN */
	const unsigned char *in;
	size_t inlen;
	unsigned char *sig;
	size_t siglen;
	unsigned char out[1024];
	size_t outlen;
};

/* pss: 1 RSA-PSS, 0 PKCS#1 v1.5, -1 not RSA (no padding to set) */
static int set_pss(EVP_PKEY_CTX *pc, int pss)
{
	if (pss < 0)
		return 1;
	if (!pss)
		return EVP_PKEY_CTX_set_rsa_padding(pc, RSA_PKCS1_PADDING) > 0;
	return EVP_PKEY_CTX_set_rsa_padding(pc, RSA_PKCS1_PSS_PADDING) > 0 &&
	       EVP_PKEY_CTX_set_rsa_pss_saltlen(pc, RSA_PSS_SALTLEN_DIGEST) > 0;
}

/* The shared secret of @key and @peer into out (*outlen: its size). */
static int derive(EVP_PKEY *key, EVP_PKEY *peer, const char *propq,
		  unsigned char *out, size_t *outlen)
{
	EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_pkey(NULL, key, propq);
	int ok = pc != NULL && EVP_PKEY_derive_init(pc) > 0 &&
		 EVP_PKEY_derive_set_peer(pc, peer) > 0 &&
		 EVP_PKEY_derive(pc, out, outlen) > 0;

	EVP_PKEY_CTX_free(pc);
	return ok;
}

/* A new key pair of alg (EC: on group) from the provider of propq. */
static EVP_PKEY *generate(const char *alg, const char *group,
			  const char *propq)
{
	EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_name(NULL, alg, propq);
	EVP_PKEY *k = NULL;

	if (pc == NULL || EVP_PKEY_keygen_init(pc) <= 0 ||
	    (group != NULL && EVP_PKEY_CTX_set_group_name(pc, group) <= 0) ||
	    EVP_PKEY_generate(pc, &k) <= 0) {
		EVP_PKEY_free(k);
		k = NULL;
	}
	EVP_PKEY_CTX_free(pc);
	return k;
}

static int pk_step(void *arg)
{
	struct pkjob *j = arg;
	EVP_MD_CTX *md;
	EVP_PKEY_CTX *pc = NULL;
	EVP_PKEY *k;
	int ok;

	switch (j->op) {
	case DECRYPT:
		pc = EVP_PKEY_CTX_new_from_pkey(NULL, j->key, NULL);
		j->outlen = sizeof(j->out);
		ok = pc != NULL && EVP_PKEY_decrypt_init(pc) > 0 &&
		     EVP_PKEY_CTX_set_rsa_padding(pc, RSA_PKCS1_OAEP_PADDING) > 0 &&
		     EVP_PKEY_CTX_set_rsa_oaep_md_name(pc, "SHA256", NULL) > 0 &&
		     EVP_PKEY_decrypt(pc, j->out, &j->outlen, j->in,
				      j->inlen) > 0;
		EVP_PKEY_CTX_free(pc);
		return ok ? 0 : -1;
	case DERIVE:
		j->outlen = sizeof(j->out);
		ok = derive(j->key, j->peer, NULL, j->out, &j->outlen);
		return ok ? 0 : -1;
	case KEYGEN:
		k = generate(j->alg, j->group, j->propq);
		EVP_PKEY_free(k);
		return k != NULL ? 0 : -1;
	default:
		break;
	}
	md = EVP_MD_CTX_new();
	if (md == NULL)
		return -1;
	if (j->op == SIGN) {
		j->siglen = 1024;
		ok = EVP_DigestSignInit_ex(md, &pc, j->md, NULL, NULL,
					   j->key, NULL) > 0 &&
		     set_pss(pc, j->pss) &&
		     EVP_DigestSign(md, j->sig, &j->siglen, j->in,
				    j->inlen) > 0;
	} else {
		ok = EVP_DigestVerifyInit_ex(md, &pc, j->md, NULL, NULL,
					     j->key, NULL) > 0 &&
		     set_pss(pc, j->pss) &&
		     EVP_DigestVerify(md, j->sig, j->siglen, j->in,
				      j->inlen) == 1;
	}
	EVP_MD_CTX_free(md);
	return ok ? 0 : -1;
}

/* A public-only copy of @key in the default provider. */
static EVP_PKEY *public_copy(EVP_PKEY *key)
{
	EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_name(NULL,
		EVP_PKEY_get0_type_name(key), "provider=default");
	OSSL_PARAM *params = NULL;
	EVP_PKEY *pub = NULL;

	if (pc == NULL || !EVP_PKEY_todata(key, EVP_PKEY_PUBLIC_KEY, &params) ||
	    EVP_PKEY_fromdata_init(pc) <= 0 ||
	    EVP_PKEY_fromdata(pc, &pub, EVP_PKEY_PUBLIC_KEY, params) <= 0)
		die("copying a public key to the default provider");
	OSSL_PARAM_free(params);
	EVP_PKEY_CTX_free(pc);
	return pub;
}

/*
 * ECDH or X25519 derivation with a fixed peer, then key generation, the
 * sides in turns.  alg: "EC" (on group) or "X25519".
 */
static void bench_kex(const char *label, int nsides, const char *side[],
		      EVP_PKEY *key[], const char *alg, const char *group)
{
	static struct pkjob job[MAX_SIDES];
	int (*op[MAX_SIDES])(void *);
	void *arg[MAX_SIDES];
	const char *gside[MAX_SIDES];
	unsigned char ref[1024];
	EVP_PKEY *peer, *peer_pub, *pub;
	double rate[MAX_SIDES];
	size_t reflen;
	int i, n;

	/* the peer: software, its public half as a TLS key share */
	peer = generate(alg, group, "provider=default");
	if (peer == NULL)
		die("generating the peer's key");
	peer_pub = public_copy(peer);
	for (i = 0; i < MAX_SIDES; i++) {
		op[i] = pk_step;
		arg[i] = &job[i];
	}
	for (i = 0; i < nsides; i++) {
		struct pkjob d = { .op = DERIVE, .key = key[i],
				   .peer = peer_pub };

		job[i] = d;
		/* what the peer derives with the side's public key */
		pub = public_copy(key[i]);
		reflen = sizeof(ref);
		if (!derive(peer, pub, "provider=default", ref, &reflen))
			die("the peer's derivation");
		EVP_PKEY_free(pub);
		if (pk_step(&job[i]))
			die("derivation");
		if (job[i].outlen != reflen ||
		    memcmp(job[i].out, ref, reflen) != 0) {
			fprintf(stderr, "evp_bench: %s %s: the shared secret "
				"differs from the peer's\n", label, side[i]);
			exit(1);
		}
	}
	run_turns(op, arg, nsides, rate, "derive");
	for (i = 0; i < nsides; i++)
		printf("R\t%s\tderive\t%s\t%.2f\n", label, side[i], rate[i]);
	fflush(stdout);
	EVP_PKEY_free(peer_pub);
	EVP_PKEY_free(peer);

	for (i = n = 0; i < nsides; i++) {
		struct pkjob g = { .op = KEYGEN, .alg = alg, .group = group };
		const OSSL_PROVIDER *prov;
		EVP_PKEY *k;

		if (strcmp(side[i], "ncr") == 0)
			g.propq = "provider=ncr";
		else if (strcmp(side[i], "default") == 0)
			g.propq = "provider=default";
		else
			continue;
		k = generate(alg, group, g.propq);
		prov = k != NULL ? EVP_PKEY_get0_provider(k) : NULL;
		if (prov == NULL ||
		    strcmp(OSSL_PROVIDER_get0_name(prov), side[i]) != 0)
			die("key generation");
		EVP_PKEY_free(k);
		job[n] = g;
		gside[n++] = side[i];
	}
	if (n > 0) {
		run_turns(op, arg, n, rate, "keygen");
		for (i = 0; i < n; i++)
			printf("R\t%s\tkeygen\t%s\t%.2f\n", label, gside[i],
			       rate[i]);
		fflush(stdout);
	}
}

static int bench_pk(const char *label, int nsides, char **spec)
{
	static const unsigned char msg[32] = "ncr benchmark message, 32 bytes";
	static unsigned char sig[MAX_SIDES][1024], ct[MAX_SIDES][1024];
	static struct pkjob job[MAX_SIDES];
	int (*op[MAX_SIDES])(void *);
	void *arg[MAX_SIDES];
	const char *side[MAX_SIDES], *dside[MAX_SIDES], *md = "SHA256";
	EVP_PKEY *key[MAX_SIDES] = { NULL };
	double rate[MAX_SIDES];
	char group[64];
	int i, n, pss, ncr = 0, tpm2 = 0, ec, x25519;

	for (i = 0; i < nsides; i++) {
		char *eq = strchr(spec[i], '=');

		if (eq == NULL)
			die("SIDE=KEYFILE");
		*eq = 0;
		side[i] = spec[i];
		ncr |= strcmp(side[i], "ncr") == 0;
		tpm2 |= strcmp(side[i], "tpm2") == 0;
		op[i] = pk_step;
		arg[i] = &job[i];
	}
	load_providers(ncr, tpm2);
	for (i = 0; i < nsides; i++)
		key[i] = load_key(strchr(spec[i], 0) + 1);
	ec = EVP_PKEY_is_a(key[0], "EC");
	x25519 = EVP_PKEY_is_a(key[0], "X25519");
	for (i = 1; i < nsides; i++)
		if (EVP_PKEY_is_a(key[i], EVP_PKEY_get0_type_name(key[0])) !=
		    1 || EVP_PKEY_get_bits(key[i]) != EVP_PKEY_get_bits(key[0]))
			die("keys of one type and size");
	if (ec) {
		if (!EVP_PKEY_get_group_name(key[0], group, sizeof(group),
					     NULL))
			die("the key's curve");
		if (EVP_PKEY_get_bits(key[0]) > 256)
			md = "SHA384";
	}

	for (pss = ec ? -1 : 0; pss <= (ec ? -1 : 1) && !x25519; pss++) {
		const char *pname = pss < 0 ? "ecdsa" : pss ? "pss" : "pkcs1";

		for (i = 0; i < nsides; i++) {
			struct pkjob s = { .op = SIGN, .pss = pss, .md = md,
					   .key = key[i], .in = msg,
					   .inlen = sizeof(msg),
					   .sig = sig[i] };

			job[i] = s;
			if (pk_step(&job[i]))
				die("signing");
			job[i].op = VERIFY;
			if (pk_step(&job[i]))
				die("verifying its own signature");
			job[i].op = SIGN;
		}
		run_turns(op, arg, nsides, rate, "sign");
		for (i = 0; i < nsides; i++)
			printf("R\t%s\tsign-%s\t%s\t%.2f\n", label, pname,
			       side[i], rate[i]);
		/* each job's last signature is in its sig[] */
		for (i = 0; i < nsides; i++)
			job[i].op = VERIFY;
		run_turns(op, arg, nsides, rate, "verify");
		for (i = 0; i < nsides; i++)
			printf("R\t%s\tverify-%s\t%s\t%.2f\n", label, pname,
			       side[i], rate[i]);
		fflush(stdout);
	}
	if (ec || x25519)
		bench_kex(label, nsides, side, key, ec ? "EC" : "X25519",
			  ec ? group : NULL);

	for (i = n = 0; i < nsides && !ec && !x25519; i++) {
		EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_pkey(NULL, key[i],
							      NULL);
		struct pkjob d = { .op = DECRYPT, .key = key[i], .in = ct[n],
				   .inlen = sizeof(ct[n]) };

		if (pc == NULL || EVP_PKEY_encrypt_init(pc) <= 0) {
			/* tpm2-openssl's signing keys do not encrypt */
			fprintf(stderr, "evp_bench: %s %s: no RSA encryption "
				"with this key, decrypt-oaep not measured\n",
				label, side[i]);
			ERR_clear_error();
			EVP_PKEY_CTX_free(pc);
			continue;
		}
		if (EVP_PKEY_CTX_set_rsa_padding(pc,
						 RSA_PKCS1_OAEP_PADDING) <= 0 ||
		    EVP_PKEY_CTX_set_rsa_oaep_md_name(pc, "SHA256", NULL) <= 0 ||
		    EVP_PKEY_encrypt(pc, ct[n], &d.inlen, msg, sizeof(msg)) <= 0)
			die("OAEP encryption");
		EVP_PKEY_CTX_free(pc);
		job[n] = d;
		if (pk_step(&job[n]) || job[n].outlen != sizeof(msg) ||
		    memcmp(job[n].out, msg, sizeof(msg)) != 0)
			die("OAEP decryption self-check");
		dside[n++] = side[i];
	}
	if (n > 0) {
		run_turns(op, arg, n, rate, "decrypt");
		for (i = 0; i < n; i++)
			printf("R\t%s\tdecrypt-oaep\t%s\t%.2f\n", label,
			       dside[i], rate[i]);
	}
	for (i = 0; i < nsides; i++)
		EVP_PKEY_free(key[i]);
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

/* The sides (afalg: CBC only) measured in turns, size after size. */
static void bench_cipher(int nsides, char **side, ENGINE *eng,
			 const char *name, const size_t *sizes, int nsizes)
{
	const EVP_CIPHER *cipher[MAX_SIDES];
	EVP_CIPHER *fetched[MAX_SIDES] = { NULL };
	ENGINE *e[MAX_SIDES];
	const char *sname[MAX_SIDES];
	int i, k, n = 0;

	for (k = 0; k < nsides; k++) {
		e[n] = strcmp(side[k], "afalg") == 0 ? eng : NULL;
		if (e[n] != NULL) {
			if (strcmp(name, "aes-128-cbc") != 0)
				continue;	/* the engine has CBC only */
			cipher[n] = EVP_aes_128_cbc();
		} else {
			fetched[n] = EVP_CIPHER_fetch(NULL, name,
				strcmp(side[k], "ncr") == 0 ?
				"provider=ncr" : "provider=default");
			if (fetched[n] == NULL)
				die(name);
			cipher[n] = fetched[n];
		}
		sname[n++] = side[k];
	}
	for (i = 0; i < nsizes; i++) {
		struct upd u[MAX_SIDES];
		int (*op[MAX_SIDES])(void *);
		void *arg[MAX_SIDES];
		double rate[MAX_SIDES];

		reference(name, sizes[i]);
		for (k = 0; k < n; k++) {
			EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();

			if (x == NULL ||
			    !EVP_EncryptInit_ex(x, cipher[k], e[k], KEY, IV))
				die(name);
			/* an engine's cipher is a legacy one, of no provider */
			if (e[k] != NULL && EVP_CIPHER_get0_provider(
					EVP_CIPHER_CTX_get0_cipher(x)) != NULL)
				die("the afalg engine did not take the cipher");
			u[k].x = x;
			u[k].n = sizes[i];
			u[k].afalg = e[k] != NULL;
			if (!update(x, sizes[i], u[k].afalg) ||
			    memcmp(out, ref, sizes[i]) != 0)
				die("ciphertext check against the default "
				    "provider");
			op[k] = update_op;
			arg[k] = &u[k];
		}
		run_turns(op, arg, n, rate, name);
		for (k = 0; k < n; k++) {
			printf("R\t%s\t%zu\t%s\t%.2f\n", name, sizes[i],
			       sname[k], rate[k]);
			EVP_CIPHER_CTX_free(u[k].x);
		}
		fflush(stdout);
	}
	for (k = 0; k < n; k++)
		EVP_CIPHER_free(fetched[k]);
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

static int bench_sym(char *sides, int argc, char **argv)
{
	size_t sizes[16];
	char *side[MAX_SIDES], *tok;
	int nsizes = 0, nsides = 0, i, ncr = 0, def = 0;
	ENGINE *eng = NULL;

	for (tok = strtok(sides, ","); tok && nsides < MAX_SIDES;
	     tok = strtok(NULL, ",")) {
		if (strcmp(tok, "ncr") && strcmp(tok, "default") &&
		    strcmp(tok, "afalg")) {
			fprintf(stderr, "evp_bench: unknown side %s\n", tok);
			return 2;
		}
		ncr |= strcmp(tok, "ncr") == 0;
		def |= strcmp(tok, "default") == 0;
		side[nsides++] = tok;
	}
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
	load_providers(ncr, 0);
	for (i = 0; i < nsides; i++)
		if (strcmp(side[i], "afalg") == 0) {
			ENGINE_load_builtin_engines();
			eng = ENGINE_by_id("afalg");
			if (eng == NULL || !ENGINE_init(eng))
				die("the afalg engine (algif_skcipher "
				    "loaded?)");
		}
	bench_cipher(nsides, side, eng, "aes-128-cbc", sizes, nsizes);
	bench_cipher(nsides, side, eng, "aes-256-ctr", sizes, nsizes);
	if (def)
		bench_digest("default", sizes, nsizes);
	if (eng != NULL) {
		ENGINE_finish(eng);
		ENGINE_free(eng);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 5 && argc - 4 <= MAX_SIDES && strcmp(argv[1], "pk") == 0) {
		secs = atof(argv[2]);
		return bench_pk(argv[3], argc - 4, argv + 4);
	}
	if (argc >= 5 && strcmp(argv[1], "sym") == 0) {
		secs = atof(argv[2]);
		return bench_sym(argv[3], argc - 4, argv + 4);
	}
	fprintf(stderr, "usage: evp_bench pk SECONDS LABEL SIDE=KEYFILE...\n"
		"       evp_bench sym SECONDS SIDE[,SIDE...] SIZE...\n");
	return 2;
}
